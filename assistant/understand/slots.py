"""What one user turn states: a typed `SlotUpdate`, and the frame (what is being asked).

These types are the contract between the reader (text -> SlotUpdate), the
conversation state (one update per turn), the frame handlers and the
understanding corpus in `tests/data/understanding/` (whose labels are exactly
these fields). A field left `None` means "not stated in this turn"; a value
means "stated (or restated) now"; `retract` lists what the user withdrew.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tools.serving_profiles import Engine


class Frame(str, Enum):
    """What a turn asks. Fixed before the corpus was written; see tests/data/understanding/README.md."""

    feasibility = "feasibility"  # does it fit / can it run on this GPU or this much memory
    memory = "memory"  # how much GPU memory does it need
    recommend = "recommend"  # what to rent (training, or an unspecified workload)
    train_time = "train_time"  # how long will training take
    deadline = "deadline"  # how many GPUs to finish training by a time
    cost = "cost"  # what does an instance / GPU-hours / a job cost
    serving = "serving"  # inference deployment: throughput, latency, concurrency, cost per token, sizing for a load
    spec = "spec"  # a fact about one GPU, model, instance or provider
    comparison = "comparison"  # two or more GPUs side by side
    catalog_filter = "catalog_filter"  # which GPUs have a property (FP8, NVLink, >= 48 GB ...)
    guidance = "guidance"  # concepts, trade-offs, how-to, provider advice
    chitchat = "chitchat"  # greetings, thanks, what can you do
    out_of_scope = "out_of_scope"  # not about renting GPUs for AI


class SlotMode(str, Enum):
    """The workload. `finetune` = fine-tuning with the method not said (the planner assumes LoRA and says so)."""

    inference = "inference"
    full = "full"
    lora = "lora"
    qlora = "qlora"
    pretrain = "pretrain"
    finetune = "finetune"


class SlotPrecision(str, Enum):
    """Weights precision or quantisation format as the user names it (AWQ/GPTQ are int4)."""

    fp32 = "fp32"
    fp16 = "fp16"
    bf16 = "bf16"
    fp8 = "fp8"
    int8 = "int8"
    int4 = "int4"
    nf4 = "nf4"
    q4_k_m = "q4_k_m"
    q5_k_m = "q5_k_m"
    q8_0 = "q8_0"


Per = Literal["hour", "day", "month", "year", "job"]
Currency = Literal["CNY", "USD"]


class Money(BaseModel):
    """A budget or price as stated: `2w/月` -> Money(20000, CNY, month). Currency/per None = not said."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    amount: float = Field(gt=0)
    currency: Currency | None = None
    per: Per | None = None


class Deadline(BaseModel):
    """A time limit: a duration (`in 3 days` -> hours=72) or a day (`by Friday`, `12月15日前`)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    hours: float | None = Field(default=None, gt=0)
    weekday: Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] | None = None
    date: str | None = Field(default=None, description="ISO date YYYY-MM-DD, or MM-DD when the year is not said")


Feature = Literal["fp8", "bf16", "fp4", "nvlink", "infiniband", "tensor_cores", "int8"]

# Slot names that `retract` may name (everything a user can withdraw).
RETRACTABLE = (
    "model", "params", "mode", "precision", "gpus", "gpu_count", "available_gib", "budget", "region", "billing",
    "tokens", "epochs", "deadline", "hours", "hours_per_day", "seq_len", "batch_size", "concurrency", "users",
    "requests_per_day", "request_rate", "input_len", "output_len", "ttft_ms", "tokens_per_s_per_user",
    "providers", "instance", "features", "min_memory_gb", "lora_rank",
)


class SlotUpdate(BaseModel):
    """Everything one user turn states. Catalog names are catalog keys (knowledge/catalog/data)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    # -- the model
    model: str | None = Field(default=None, description="catalog model key, e.g. 'qwen2.5-7b'")
    model_name: str | None = Field(default=None, description="a model named but not in the catalog, as written")
    params: float | None = Field(default=None, gt=0, description="parameter count stated, or read from an unknown model's name")
    # -- the workload
    mode: SlotMode | None = None
    precision: SlotPrecision | None = None
    lora_rank: int | None = Field(default=None, gt=0)
    seq_len: int | None = Field(default=None, gt=0, description="max tokens per sequence ('4k context' -> 4096)")
    batch_size: int | None = Field(default=None, gt=0)
    tokens: float | None = Field(default=None, gt=0, description="training tokens per epoch")
    epochs: float | None = Field(default=None, gt=0)
    # -- hardware
    gpus: list[str] | None = Field(default=None, description="GPU catalog keys named, in order of mention")
    gpu_count: int | None = Field(default=None, gt=0, description="how many GPUs the user has or asks about")
    available_gib: float | None = Field(default=None, gt=0, description="GPU memory the user has, per GPU, as written ('24G' -> 24)")
    features: list[Feature] | None = Field(default=None, description="GPU properties asked for in a catalog filter")
    min_memory_gb: float | None = Field(default=None, gt=0, description="a memory floor in a catalog filter ('at least 48GB')")
    # -- money and time
    budget: Money | None = None
    billing: Literal["on_demand", "spot", "monthly", "yearly"] | None = None
    hours: float | None = Field(default=None, gt=0, description="usage hours to price ('for 100 hours')")
    hours_per_day: float | None = Field(default=None, gt=0, le=24)
    deadline: Deadline | None = None
    # -- where
    region: Literal["cn", "intl", "any"] | None = None
    providers: list[str] | None = Field(default=None, description="provider catalog keys")
    instance: str | None = Field(default=None, description="'provider/instance' catalog key")
    # -- serving load
    concurrency: int | None = Field(default=None, gt=0, description="concurrent requests ('50 concurrent users')")
    users: int | None = Field(default=None, gt=0, description="people using it, concurrency not said ('20 个人用')")
    requests_per_day: float | None = Field(default=None, gt=0)
    request_rate: float | None = Field(default=None, gt=0, description="requests per second (QPS)")
    input_len: int | None = Field(default=None, gt=0)
    output_len: int | None = Field(default=None, gt=0)
    ttft_ms: float | None = Field(default=None, gt=0, description="time-to-first-token target")
    tokens_per_s_per_user: float | None = Field(default=None, gt=0, description="minimum decode speed per user")
    # -- how it is served (not in the corpus schema frozen with the held-out splits: unit-tested, not scored there)
    engine: Engine | None = Field(default=None, description="serving engine named ('on sglang', 'ollama')")
    vllm_version: str | None = Field(default=None, max_length=40, description="vLLM release or engine generation "
                                                                            "as written ('0.6.3', 'V0')")
    traffic: Literal["chat"] | None = Field(default=None, description="the traffic is chat (ShareGPT-like lengths)")
    examples: float | None = Field(default=None, gt=0, description="training examples stated ('20k samples' -> 20000); "
                                   "tokens only when their length is stated too (the advisor multiplies, saying so)")
    example_tokens: int | None = Field(default=None, gt=0, description="tokens per example ('avg 800 tokens', '每条约 500 token')")
    owned: bool | None = Field(default=None, description="the GPUs named are the user's own ('I have a 4090', '我手上有两张3090'): "
                               "a fit to check, not a constraint on what to rent")
    # -- conversation
    retract: list[str] = Field(default_factory=list, description="slot names withdrawn ('forget the budget' -> [budget])")
    starts_fresh: bool = Field(default=False, description="a new self-contained question: earlier slots are dropped")
    pasted: bool = Field(default=False, description="the turn carries pasted material (a document, a log, a config)")
    pasted_instruction: bool = Field(default=False, description="the pasted material addresses an instruction to the assistant")

    @field_validator("retract")
    @classmethod
    def _known_retractions(cls, v: list[str]) -> list[str]:
        unknown = [s for s in v if s not in RETRACTABLE]
        if unknown:
            raise ValueError(f"cannot retract {unknown}: not slots ({', '.join(RETRACTABLE)})")
        return v

    def stated(self) -> dict:
        """Only what the turn states (for comparing with labels)."""
        return self.model_dump(mode="json", exclude_defaults=True)


# The first tool the planner calls for a frame; the routing rule the corpus labels follow.
FirstCall = Literal[
    "estimate_vram", "estimate_train_time", "estimate_cost", "recommend_config", "estimate_serving",
    "lookup_catalog", "compare_gpus", "filter_catalog", "search_guidance", "none",
]
