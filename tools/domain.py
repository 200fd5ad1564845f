"""Domain types shared by every layer.

`tools/` owns these records so that the calculators can take catalog data as
plain arguments: `knowledge/` loads files *into* them, `assistant/` and `ui/`
only pass them around. Field names carry their units (`_gib`, `_gb`,
`_tflops`, `_gbps`) because GB and GiB differ by 7 % and mixing them was the
first bug every calculator of this kind shipped with.
"""

from __future__ import annotations

import datetime as dt
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

GIB = 1024**3
GB = 1000**3
HOURS_PER_MONTH = 730.0  # 8760 h / 12, the convention every cloud's monthly estimate uses
HOURS_PER_YEAR = 8760.0


class Strict(BaseModel):
    """Base for records that outside input enters: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Precision(str, Enum):
    fp32 = "fp32"
    tf32 = "tf32"
    fp16 = "fp16"
    bf16 = "bf16"
    fp8 = "fp8"
    int8 = "int8"
    int4 = "int4"
    nf4 = "nf4"

    @property
    def bytes_per_param(self) -> float:
        return {
            "fp32": 4.0,
            "tf32": 4.0,  # TF32 is a compute mode: tensors are stored as fp32
            "fp16": 2.0,
            "bf16": 2.0,
            "fp8": 1.0,
            "int8": 1.0,
            "int4": 0.5,
            "nf4": 0.5,
        }[self.value]


class Mode(str, Enum):
    inference = "inference"
    full = "full"
    lora = "lora"
    qlora = "qlora"
    pretrain = "pretrain"


class MasterWeights(str, Enum):
    fp32 = "fp32"
    none = "none"


class Optimizer(str, Enum):
    adamw = "adamw"
    adamw8bit = "adamw8bit"
    adafactor = "adafactor"
    sgd = "sgd"


class LoraTargets(str, Enum):
    attention = "attention"
    all_linear = "all-linear"


class Sharding(str, Enum):
    none = "none"
    ddp = "ddp"
    zero1 = "zero1"
    zero2 = "zero2"
    zero3 = "zero3"
    fsdp = "fsdp"


class Offload(str, Enum):
    none = "none"
    cpu = "cpu"


class Checkpointing(str, Enum):
    none = "none"
    selective = "selective"
    full = "full"


class Billing(str, Enum):
    on_demand = "on_demand"
    spot = "spot"
    monthly = "monthly"
    yearly = "yearly"


class Currency(str, Enum):
    CNY = "CNY"
    USD = "USD"


class RegionScope(str, Enum):
    cn = "cn"  # mainland China
    intl = "intl"
    any = "any"


class PriceGrade(str, Enum):
    """How far a price can be trusted; the recommender ranks official first."""

    official = "official list price"
    user = "user-supplied"
    third_party = "third-party report"
    marketplace = "marketplace sample (changes hourly)"


class ModelKind(str, Enum):
    decoder = "decoder"
    encoder = "encoder"
    encoder_decoder = "encoder-decoder"
    diffusion = "diffusion"
    vision = "vision"
    speech = "speech"


class AttentionType(str, Enum):
    mha = "mha"
    gqa = "gqa"
    mqa = "mqa"
    mla = "mla"


# ---------------------------------------------------------------- catalog rows


class GPU(Strict):
    key: str = Field(description="catalog key, e.g. 'A100-80GB'")
    name: str
    vendor: str
    architecture: str
    form_factor: str
    aliases: list[str] = Field(default_factory=list)
    memory_gb: float = Field(gt=0, description="memory as sold, decimal GB")
    usable_memory_gib: float = Field(gt=0, description="memory nvidia-smi reports, GiB")
    memory_type: str | None = None
    memory_bandwidth_gbps: float | None = Field(default=None, description="GB/s")
    fp32_tflops: float | None = None
    tf32_tflops: float | None = None
    bf16_tflops: float | None = Field(default=None, description="dense, FP16/BF16 tensor")
    fp16_tflops: float | None = None
    fp8_tflops: float | None = None
    int8_tops: float | None = None
    bf16_supported: bool
    fp8_supported: bool
    nvlink: bool
    nvlink_bandwidth_gbps: float | None = None
    interconnect_note: str | None = None
    pcie_gen: int | None = None
    tdp_w: float | None = None
    launch_year: int | None = None
    china_variant: bool = Field(default=False, description="a China-only export variant (H800, H20, A800, L20)")
    export_note: str | None = None
    restricted_in_china: bool = Field(default=False, description="cannot be sold into mainland China under US export rules")
    consumer: bool = False
    source: str
    source_status: str | None = None
    as_of: dt.date | None = None
    notes: str | None = None

    def peak_tflops(self, precision: Precision) -> float | None:
        """Dense tensor peak for a compute precision (None when unsourced)."""
        p = precision.value
        if p in ("fp16",):
            return self.fp16_tflops or self.bf16_tflops
        if p == "bf16":
            return self.bf16_tflops if self.bf16_supported else None
        if p == "fp8":
            return self.fp8_tflops
        if p == "tf32":
            return self.tf32_tflops or self.fp32_tflops
        if p == "fp32":
            return self.fp32_tflops
        # int8/int4/nf4 weights are dequantised to bf16/fp16 for the matmuls
        return self.bf16_tflops or self.fp16_tflops


class ActivationProfile(Strict):
    """Measured activation memory for non-transformer models (per sample)."""

    bytes_per_sample: float = Field(gt=0)
    reference: str = Field(description="e.g. '224x224 image, fp16 AMP' or '512x512, fp16'")
    source: str


class ModelSpec(Strict):
    key: str
    name: str
    family: str
    kind: ModelKind = ModelKind.decoder
    aliases: list[str] = Field(default_factory=list)
    params: float = Field(gt=0, description="total parameters")
    active_params: float | None = Field(default=None, description="per token, MoE only")
    num_layers: int | None = Field(default=None, gt=0)
    hidden_size: int | None = Field(default=None, gt=0)
    num_attention_heads: int | None = Field(default=None, gt=0)
    num_kv_heads: int | None = Field(default=None, gt=0)
    head_dim: int | None = Field(default=None, gt=0)
    attention: AttentionType = AttentionType.mha
    kv_lora_rank: int | None = Field(default=None, description="MLA compressed KV size")
    qk_rope_head_dim: int | None = Field(default=None, description="MLA decoupled RoPE key size")
    sliding_window: int | None = None
    layer_types: list[str] | None = Field(
        default=None,
        description="per-layer attention kind as HF config.json `layer_types` writes it: 'full_attention' or "
        "'sliding_attention' (Gemma-2/3 alternate them); None: every layer full, or all sliding when sliding_window is set",
    )
    intermediate_size: int | None = None
    vocab_size: int | None = None
    max_context: int | None = None
    moe_experts: int | None = None
    moe_active_experts: int | None = None
    activation_profile: ActivationProfile | None = None
    assumed_shape: bool = Field(default=False, description="True when built from a bare parameter count")
    source: str
    notes: str | None = Field(default=None, description="caveats: what params cover, context variants, attention details")

    @property
    def compute_params(self) -> float:
        """Parameters touched per token: the active ones for MoE."""
        return self.active_params or self.params


class Price(Strict):
    billing: Billing
    amount: float = Field(ge=0, description="in `currency`, per `per`")
    currency: Currency
    per: str = Field(default="hour", pattern="^(hour|month|year)$")
    source: str
    as_of: dt.date | None = None
    grade: PriceGrade

    @property
    def per_hour(self) -> float:
        if self.per == "hour":
            return self.amount
        if self.per == "month":
            return self.amount / HOURS_PER_MONTH
        return self.amount / HOURS_PER_YEAR

    @property
    def age_text(self) -> str:
        return f"as of {self.as_of.isoformat()}" if self.as_of else "date unknown"


class Region(Strict):
    name: str
    china_mainland: bool = False


class Provider(Strict):
    key: str
    name: str
    name_zh: str | None = None
    kind: str = Field(description="hyperscaler | gpu-cloud | marketplace")
    home_currency: Currency = Currency.USD
    china_mainland: bool = False
    price_page: str | None = None
    notes: str | None = None


class Instance(Strict):
    provider: str
    instance: str
    family: str | None = None
    gpu: str = Field(description="GPU catalog key")
    gpu_count: float = Field(gt=0)
    vcpus: int | None = None
    ram_gib: float | None = None
    local_disk_gb: float | None = None
    nvlink: bool | None = None
    infiniband: bool | None = Field(default=None, description="InfiniBand/RDMA-class networking between nodes")
    network_gbps: float | None = None
    region: Region
    prices: list[Price] = Field(default_factory=list)
    source: str
    notes: str | None = None

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.instance}/{self.region.name}"

    def price(self, billing: Billing) -> Price | None:
        for p in self.prices:
            if p.billing == billing:
                return p
        return None
