"""Domain types shared by every layer.

`tools/` owns these records so that the calculators can take catalog data as
plain arguments: `knowledge/` loads files *into* them, `assistant/` and `ui/`
only pass them around. Field names carry their units (`_gib`, `_gb`,
`_tflops`, `_gbps`) because GB and GiB differ by 7 % and mixing them was the
first bug every calculator of this kind shipped with.
"""

from __future__ import annotations

import datetime as dt
import re
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


class DatePrecision(str, Enum):
    """How exactly a price's `as_of` is known."""

    day = "day"  # the source states the day
    month = "month"  # the source states only the month (as_of is its first day)
    approximate = "approximate"  # the source states only a period ("about 2026-10"); as_of is its first day


class PriceOrigin(str, Enum):
    """Which catalog layer a price came from (built-in < refreshed < user files)."""

    built_in = "built-in"
    refreshed = "refreshed"
    user = "user"


class CostPart(str, Enum):
    """What a rental price pays for, or what is billed on top of it."""

    compute = "compute"  # GPU(s) + vCPU + RAM of the instance
    system_disk = "system_disk"
    data_disk = "data_disk"
    local_ssd = "local_ssd"  # a fixed local SSD the instance forces on you (Tencent GN2)
    bandwidth = "bandwidth"  # public network bandwidth / traffic


class PriceCovers(Strict):
    """What a price includes and what the source says is billed separately (nothing invented)."""

    includes: list[CostPart] = Field(default_factory=lambda: [CostPart.compute])
    excludes: list[CostPart] = Field(default_factory=list, description="billed separately, as the source says")
    system_disk_gb: float | None = Field(default=None, ge=0, description="size of an included system disk")
    data_disk_gb: float | None = Field(default=None, ge=0, description="size of an included (free) data disk")

    @property
    def compute_only(self) -> bool:
        return self.includes == [CostPart.compute] and not self.system_disk_gb and not self.data_disk_gb


class SoftwareStack(str, Enum):
    """The accelerator's software stack: what a framework build must target."""

    cuda = "cuda"  # NVIDIA
    rocm = "rocm"  # AMD
    cann = "cann"  # Huawei Ascend (torch_npu, vLLM-Ascend, MindIE)


# Compute capability by architecture, for GPU records that do not give one (user
# files written before the field existed). Source: NVIDIA "CUDA GPU Compute
# Capability" (https://developer.nvidia.com/cuda-gpus) and the legacy table
# (https://developer.nvidia.com/cuda-legacy-gpus). First match wins; a chip code
# (GA102, GP102, GB202 ...) is listed before its generation's name, and a bare
# architecture name gets the LOWEST capability of that generation
# (Ampere GA100 = 8.0 but GA10x = 8.6; Pascal GP100 = 6.0 but GP10x = 6.1), so a
# derived value never claims a feature the card may lack.
ARCH_COMPUTE_CAPABILITY: tuple[tuple[str, float], ...] = (
    (r"\bgb20[2-7]\b", 12.0),  # GeForce RTX 50 / RTX PRO Blackwell (GB202..GB207)
    (r"blackwell ultra", 10.3),  # B300, GB300
    (r"blackwell", 10.0),  # B200, GB200
    (r"hopper|\bgh100\b", 9.0),
    (r"\bad10[2-7]\b|\bada\b", 8.9),
    (r"\bga100\b", 8.0),
    (r"\bga10[2-7]\b", 8.6),  # RTX 30, A10, A40, RTX A-series
    (r"ampere", 8.0),
    (r"turing|\btu10[2-7]\b|\btu11[67]\b", 7.5),
    (r"volta|\bgv100\b", 7.0),
    (r"\bgp100\b", 6.0),
    (r"\bgp10[2-8]\b", 6.1),
    (r"pascal", 6.0),
    (r"\bgm20[04-6]\b", 5.2),
    (r"maxwell", 5.0),
    (r"kepler", 3.0),
)


def derive_compute_capability(vendor: str, architecture: str) -> float | None:
    """The CUDA compute capability implied by an NVIDIA architecture name (None: not NVIDIA or unknown)."""
    if vendor.strip().lower() != "nvidia":
        return None
    arch = architecture.lower()
    for pattern, cc in ARCH_COMPUTE_CAPABILITY:
        if re.search(pattern, arch):
            return cc
    return None


def derive_software_stack(vendor: str) -> SoftwareStack | None:
    return {"nvidia": SoftwareStack.cuda, "amd": SoftwareStack.rocm, "huawei": SoftwareStack.cann}.get(vendor.strip().lower())


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
    torch_visible_gib: float | None = Field(
        default=None, gt=0,
        description="total memory PyTorch reports (torch.cuda.mem_get_info), GiB, as an engine log printed it; "
                    "None: not seen in a citable log",
    )
    torch_visible_source: str | None = Field(default=None, description="the log torch_visible_gib was read from: "
                                             "URL, date, grade")
    p2p: bool | None = Field(default=None, description="peer-to-peer access between two such GPUs over PCIe; None: unknown")
    p2p_source: str | None = Field(default=None, description="where `p2p` comes from: URL, date, grade")
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
    compute_capability: float | None = Field(
        default=None, ge=1, lt=100,
        description="CUDA compute capability (8.6 = sm_86); None: derived from `architecture` (NVIDIA) or not CUDA",
    )
    software_stack: SoftwareStack | None = Field(default=None, description="cuda | rocm | cann; None: derived from `vendor`")
    software_source: str | None = Field(default=None, description="where compute_capability / software_stack come from")
    source: str
    source_status: str | None = None
    as_of: dt.date | None = None
    notes: str | None = None

    @model_validator(mode="after")
    def _sourced_and_within_usable(self) -> "GPU":
        # torch sees at most what the driver reports (cudaMemGetInfo's total is the device's, less nothing more
        # than nvidia-smi's reserved part); a larger figure is a typo or another card's log
        if self.torch_visible_gib is not None:
            if self.torch_visible_gib > self.usable_memory_gib + 0.05:
                raise ValueError(f"{self.key}: torch_visible_gib {self.torch_visible_gib} exceeds usable_memory_gib "
                                 f"{self.usable_memory_gib}")
            if not self.torch_visible_source:
                raise ValueError(f"{self.key}: torch_visible_gib needs torch_visible_source (the log it was read from)")
        if self.p2p is not None and not self.p2p_source:
            raise ValueError(f"{self.key}: p2p needs p2p_source (where it comes from)")
        return self

    @property
    def cc(self) -> float | None:
        """The compute capability: the catalog's value, else derived from the architecture (NVIDIA only)."""
        if self.compute_capability is not None:
            return self.compute_capability
        return derive_compute_capability(self.vendor, self.architecture)

    @property
    def cc_derived(self) -> bool:
        """True when `cc` comes from the architecture name, not from the record."""
        return self.compute_capability is None and self.cc is not None

    @property
    def stack(self) -> SoftwareStack | None:
        return self.software_stack or derive_software_stack(self.vendor)

    def cc_at_least(self, minimum: float) -> bool:
        """True when this is a CUDA GPU with compute capability >= `minimum` (False when unknown)."""
        cc = self.cc
        return cc is not None and cc >= minimum - 1e-9

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
    inference_bytes_per_sample: float | None = Field(
        default=None, gt=0, description="fp32 bytes per sample alive at once in an eval-mode, no-grad forward (the "
        "inference working set, measure_activations.py `inference_per_sample`); None: not measured, and inference "
        "takes bytes_per_sample")
    inference_reference: str | None = Field(default=None, description="the inference measurement's input")


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
    as_of_precision: DatePrecision | None = Field(
        default=None, description="day | month | approximate; None with a date means day; None without a date: undated"
    )
    as_of_inferred: bool = Field(default=False, description="the date is our inference, not stated by the source")
    source_url: str | None = Field(default=None, description="the page or file the number was read from")
    covers: PriceCovers | None = Field(default=None, description="what the price includes / excludes; None: not recorded")
    origin: PriceOrigin = PriceOrigin.built_in
    notes: str | None = None

    @property
    def precision(self) -> DatePrecision | None:
        """The effective precision: None for an undated price, day when a date is given without one."""
        if self.as_of is None:
            return None
        return self.as_of_precision or DatePrecision.day

    @property
    def as_of_label(self) -> str | None:
        """The date as precise as it is known: '2026-07-20', '2026-10' (month or approximate); None when undated."""
        if self.as_of is None:
            return None
        if self.precision == DatePrecision.day:
            return self.as_of.isoformat()
        return self.as_of.strftime("%Y-%m")

    @property
    def per_hour(self) -> float:
        if self.per == "hour":
            return self.amount
        if self.per == "month":
            return self.amount / HOURS_PER_MONTH
        return self.amount / HOURS_PER_YEAR

    @property
    def age_text(self) -> str:
        """Short English label (CLI tables, --json). Answers render `tools.price_age` notes instead."""
        if self.as_of is None:
            return "date unknown"
        if self.precision == DatePrecision.approximate:
            return f"about {self.as_of_label}" + (" (inferred)" if self.as_of_inferred else "")
        return f"as of {self.as_of_label}"


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


# ---------------------------------------------------------------- software support


class SoftwareEffect(str, Enum):
    """What a software-support rule does to an option (the recommender decides how to show it)."""

    exclude = "exclude"  # never offered for the workloads in scope (may appear among rejected options)
    exclude_unless_named = "exclude_unless_named"  # not offered unless the user names this GPU
    caveat = "caveat"  # offered, with a caveat
    requires = "requires"  # a feature (bf16, fp8, flash_attention_2) needs this; below it the feature is unavailable


class SoftwareScope(str, Enum):
    llm = "llm"  # LLM training or serving
    any = "any"  # every workload


class SoftwareRule(Strict):
    """One sourced fact about what software runs on which accelerators (knowledge/catalog/support/software.yaml).

    A rule matches a GPU by software stack, by compute capability below a threshold
    (CUDA GPUs only), or by GPU key; `matches` is pure. The `key` doubles as the
    message code suffix the renderer uses (``software.<key>``).
    """

    key: str = Field(pattern=r"^[a-z0-9_.-]+$")
    effect: SoftwareEffect
    scope: SoftwareScope = SoftwareScope.llm
    stack: SoftwareStack | None = Field(default=None, description="only GPUs of this stack")
    below_compute_capability: float | None = Field(default=None, description="CUDA GPUs with cc below this")
    at_least_compute_capability: float | None = Field(default=None, description="... and at or above this")
    gpus: list[str] = Field(default_factory=list, description="GPU keys (e.g. the MI25 class)")
    feature: str | None = Field(default=None, description="for effect=requires: bf16 | fp8 | flash_attention_2 | vllm ...")
    source: str = Field(min_length=1, description="URL(s) of the release note, doc or issue that states it")
    notes: str | None = None

    def matches(self, gpu: GPU) -> bool:
        if self.gpus and gpu.key not in self.gpus:
            return False
        if self.stack is not None and gpu.stack != self.stack:
            return False
        if self.below_compute_capability is not None:
            cc = gpu.cc
            if cc is None or cc >= self.below_compute_capability - 1e-9:
                return False
            if self.at_least_compute_capability is not None and cc < self.at_least_compute_capability - 1e-9:
                return False
        return bool(self.gpus or self.stack is not None or self.below_compute_capability is not None)


def software_rules_for(gpu: GPU, rules: "list[SoftwareRule]", *, llm: bool) -> list[SoftwareRule]:
    """The rules that apply to `gpu` for this workload (llm: LLM training or serving), in file order."""
    return [r for r in rules if (llm or r.scope == SoftwareScope.any) and r.matches(gpu)]
