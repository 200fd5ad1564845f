"""Requests and results of the serving estimator (pydantic in, pydantic out).

Units are in the field names: memory in GiB, times in ms, rates in tok/s and req/s, money in
`currency` per hour or per million output tokens. Unknown values are None, never 0.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field, model_validator

from tools.domain import Currency, Strict
from tools.notes import Note
from tools.serving_profiles import Engine, KvPrecision, SamplerWarmup, VllmEngine, WeightFormat

DEFAULT_INPUT_LEN = 1024  # tokens in the prompt when not given
DEFAULT_OUTPUT_LEN = 256  # tokens generated when not given
DEFAULT_CONCURRENCY = 1  # one user at a time when no load is given
DEFAULT_PEAK_FACTOR = 3.0  # busiest hour = 3 × the daily average (requests per day)
SECONDS_PER_DAY = 86_400


class Traffic(str, Enum):
    """A kind of traffic whose typical lengths stand in for lengths the user did not give."""

    chat = "chat"  # conversational turns: ShareGPT's mean prompt and answer


# Mean lengths of each traffic kind, (prompt tokens, generated tokens, source). Chat: the ShareGPT V3 conversations
# that `vllm bench serve --dataset-name sharegpt` samples; GPUStack's performance lab prints 217,393 input and about
# 201,600 output tokens over its 1,000 prompts (Qwen3 tokenizer; docs/performance-lab/qwen3-14b/h100.md), and vLLM
# PR #18566 prints 229,711 / 203,068 for the same dataset with the Llama-3.1 tokenizer. The means stand for the
# whole distribution: every request is taken at the mean length (see tools/serving_perf.py).
TRAFFIC_LENGTHS: dict[Traffic, tuple[int, int, str]] = {
    Traffic.chat: (217, 202, "the mean prompt and answer of the ShareGPT V3 conversations vllm bench serve samples, "
                             "as GPUStack's performance lab prints them over 1,000 prompts"),
}


class Arrivals(str, Enum):
    """When the requests of a closed loop reach the engine."""

    independent = "independent"  # each user at its own time (real users; variable-length benchmark datasets)
    together = "together"  # all users send at once and stay in step (fixed-length benchmark runs, --ignore-eos)


class LoadKind(str, Enum):
    batch = "batch"  # a static batch of N requests started together (offline)
    concurrency = "concurrency"  # N users, each sending the next request when the last one ends (closed loop)
    request_rate = "request_rate"  # requests arriving at R per second (Poisson, open loop)
    requests_per_day = "requests_per_day"  # N a day; the busiest hour runs at peak_factor × the average rate
    max_throughput = "max_throughput"  # as many as the engine will run at once


class Load(Strict):
    """One load shape. `value`: batch size, concurrent users, req/s or requests per day; for max_throughput, optional:
    the number of requests sent at once (a burst, as `vllm bench serve --request-rate inf --num-prompts N` sends)."""

    kind: LoadKind
    value: float | None = Field(default=None, gt=0)
    peak_factor: float | None = Field(default=None, ge=1, description="requests_per_day only; default 3")
    arrivals: Arrivals = Field(default=Arrivals.independent, description="concurrency only: users at their own "
                                                                         "times, or all together and in step")

    @model_validator(mode="after")
    def _check(self) -> "Load":
        if self.kind != LoadKind.max_throughput and self.value is None:
            raise ValueError(f"a {self.kind.value} load needs a value")
        if self.kind in (LoadKind.batch, LoadKind.concurrency, LoadKind.max_throughput) and self.value is not None:
            if float(self.value) != int(self.value):
                raise ValueError(f"{self.kind.value} must be a whole number")
        if self.peak_factor is not None and self.kind != LoadKind.requests_per_day:
            raise ValueError("peak_factor applies to requests_per_day only")
        if self.arrivals != Arrivals.independent and self.kind != LoadKind.concurrency:
            raise ValueError("arrivals applies to concurrency only (a burst and a batch arrive together anyway)")
        return self

    @property
    def burst(self) -> int | None:
        """Requests sent at once for a maximum-throughput burst; None for a sustained maximum."""
        return int(self.value) if self.kind == LoadKind.max_throughput and self.value else None


class ServingRequest(Strict):
    """How a model is served and the load it must carry. Omit `gpus` to solve for the layout."""

    weights: WeightFormat = WeightFormat.bf16
    kv_precision: KvPrecision = KvPrecision.auto
    engine: Engine = Engine.vllm
    gpus: int | None = Field(default=None, gt=0, description="None: find the fewest GPUs that carry the load")
    tp: int | None = Field(default=None, gt=0, description="tensor-parallel degree (default: the smallest that fits)")
    pp: int | None = Field(default=None, gt=0, description="pipeline stages (default 1, more across nodes)")
    nodes: int | None = Field(default=None, gt=0)
    gpus_per_node: int = Field(default=8, gt=0, description="the most GPUs one server holds (TP stays inside one)")
    max_gpus: int = Field(default=64, gt=0, description="upper bound when solving for the GPU count")
    gpu_memory_utilization: float | None = Field(default=None, gt=0, le=1,
                                                 description="vLLM gpu_memory_utilization / SGLang mem_fraction_static")
    traffic: Traffic | None = Field(default=None, description="stand-in lengths when input_len/output_len are not "
                                                              "given: chat = ShareGPT's means")
    input_len: int | None = Field(default=None, gt=0, description="prompt tokens (default 1,024)")
    output_len: int | None = Field(default=None, gt=0, description="generated tokens (default 256)")
    max_model_len: int | None = Field(default=None, gt=0, description="engine context limit (default in + out)")
    load: Load | None = Field(default=None, description="None: one user at a time")
    ttft_ms: float | None = Field(default=None, gt=0, description="target time to first token (p50)")
    min_tokens_per_user: float | None = Field(default=None, gt=0, description="target tok/s each user sees")
    max_num_seqs: int | None = Field(default=None, gt=0, description="engine override: most sequences per step")
    max_batched_tokens: int | None = Field(default=None, gt=0, description="engine override: tokens per step")
    vllm_engine: VllmEngine = Field(default=VllmEngine.v1, description="vLLM engine generation (v0: vLLM ≤ 0.7)")
    chunked_prefill: bool | None = Field(default=None, description="vLLM: None = the engine's default (V1 on; V0 on "
                                                                   "above a 32K context)")
    vllm_sampler: SamplerWarmup | None = Field(default=None, description="vLLM profile run's top-k/top-p warm-up "
                                                                         "(default: sort on V0, fused on V1)")
    in_process: bool | None = Field(default=None, description="vLLM: the engine runs in the caller's process (the LLM "
                                    "class: LLM.generate, vllm bench throughput / latency), whose step budget "
                                    "defaults larger; None or False: through the OpenAI API server")
    engine_version: str | None = Field(default=None, max_length=40, description="the engine release as published (\"0.11.0\"): "
                                                                 "vLLM's pool rules by release (tools/kv_pool.py); "
                                                                 "None: the rules the constants were fitted under")
    price_per_hour: float | None = Field(default=None, ge=0, description="the whole deployment, in `currency`")
    currency: Currency | None = None


class Layout(BaseModel):
    """GPUs and how the model is spread over them: replicas × (tp × pp) = gpus."""

    gpus: int
    tp: int
    pp: int
    replicas: int
    nodes: int


class StepTime(BaseModel):
    """One decode step of the whole batch, and what bounds it."""

    weights_ms: float = Field(description="reading the weights the step touches")
    kv_ms: float = Field(description="reading the batch's KV cache")
    compute_ms: float | None = Field(description="2·N_active FLOPs per token at the decode MFU; None: no peak")
    overhead_ms: float = Field(description="per-step engine overhead + TP all-reduce + pipeline hand-offs")
    step_ms: float
    bound: str = Field(description="'memory' or 'compute'")


class ServingEstimate(BaseModel):
    """Throughput, latency, memory and cost of serving one model on one layout."""

    model: str
    gpu: str
    engine: Engine
    weights: WeightFormat
    kv_dtype: str
    calibrated: bool = Field(description="True when the engine's efficiencies were fitted on measurements")
    gpus: int
    tp: int
    pp: int
    nodes: int
    replicas: int
    input_len: int
    output_len: int
    load: Load
    concurrency: float = Field(description="sequences decoding together per replica at this load")
    # memory (per GPU, GiB)
    weights_gib: float = Field(description="weights held by one GPU")
    overhead_gib: float = Field(description="non-KV memory one GPU needs besides the weights (activations, CUDA, NCCL)")
    per_gpu_gib: float = Field(description="weights + overhead + the KV cache this load needs, per GPU")
    usable_gib: float = Field(description="memory the engine may use on one GPU (its memory fraction)")
    kv_cache_gib: float = Field(description="the KV pool on one GPU")
    kv_cache_tokens: int = Field(description="tokens the KV pool holds, per replica")
    kv_bytes_per_token: float = Field(description="per GPU, averaged over a full-length sequence")
    max_concurrency: int = Field(description="sequences of input+output length the deployment holds at once")
    weights_fit: bool
    fits: bool = Field(description="weights and the KV cache for this load fit")
    # speed
    output_tok_s: float
    total_tok_s: float
    req_s: float
    ttft_ms: float
    tpot_ms: float
    e2e_ms: float
    tokens_per_user_s: float
    prefill_ms: float
    queue_ms: float
    decode: StepTime
    bound: str
    saturated: bool = Field(description="the load is more than this layout can serve")
    max_output_tok_s: float = Field(description="output tok/s at the engine's largest batch")
    max_total_tok_s: float
    max_req_s: float
    meets_ttft: bool | None = None
    meets_tokens_per_user: bool | None = None
    # money
    price_per_hour: float | None = None
    currency: Currency | None = None
    cost_per_million_output_tokens_at_load: float | None = None
    cost_per_million_output_tokens_at_max: float | None = None
    instance: str | None = Field(default=None, description="provider/instance/region when priced from the catalog")
    nearest_layout: Layout | None = Field(default=None, description="fewest GPUs of this type that carry the load")
    assumptions: list[Note] = Field(default_factory=list)
    caveats: list[Note] = Field(default_factory=list)

    @property
    def layout(self) -> Layout:
        return Layout(gpus=self.gpus, tp=self.tp, pp=self.pp, replicas=self.replicas, nodes=self.nodes)

    @property
    def ok(self) -> bool:
        """Fits, is not saturated, and meets every target that was set."""
        return self.fits and not self.saturated and self.meets_ttft is not False and self.meets_tokens_per_user is not False
