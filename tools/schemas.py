"""Inputs and outputs of the calculators: the typed boundary every caller uses.

The CLI, the LangChain tools and the recommender all build these requests;
results are plain serialisable pydantic models whose `model_dump(mode="json")`
is the `--json` output (memory in GiB, unknown values as null).
"""

from __future__ import annotations

import datetime as dt
from enum import Enum

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
    model_validator,
)

from tools.domain import (
    Billing,
    Checkpointing,
    Currency,
    LoraTargets,
    MasterWeights,
    Mode,
    Offload,
    Optimizer,
    Precision,
    PriceGrade,
    RegionScope,
    Sharding,
    Strict,
)
from tools.errors import ErrorCode, InputError
from tools.notes import Note, NoteCode, Suggestion
from tools.serving_profiles import Engine, SamplerWarmup, VllmEngine, WeightFormat
from tools.serving_types import Load, LoadKind, Traffic
from tools.vram_codes import Component


# ------------------------------------------------------------------ VRAM


class VramRequest(Strict):
    """How a model is run. Defaults are the common case and are reported as assumptions."""

    mode: Mode = Mode.inference
    precision: Precision | None = Field(default=None, description="None: bf16, or nf4 for QLoRA")
    master_weights: MasterWeights = MasterWeights.fp32
    optimizer: Optimizer = Optimizer.adamw
    batch_size: int = Field(default=1, gt=0)
    seq_len: int | None = Field(default=None, gt=0, description="None: 2048 (or the model's context if shorter)")
    target_len: int | None = Field(
        default=None, gt=0,
        description="encoder-decoder models (T5, BART): decoder (target) tokens per sample, the labels' padded "
        "length; seq_len is then the encoder's input length. None: the same as the input (an upper bound for "
        "summarisation-style jobs, whose targets are shorter). Ignored for decoder-only and encoder models",
    )
    lora_rank: int = Field(default=16, gt=0)
    lora_targets: LoraTargets = LoraTargets.all_linear
    gpus: int = Field(default=1, gt=0, description="GPUs the job is spread over")
    sharding: Sharding = Sharding.none
    tp: int = Field(default=1, gt=0)
    pp: int = Field(default=1, gt=0)
    offload: Offload = Offload.none
    checkpointing: Checkpointing | None = Field(default=None, description="None: full for training, none for inference")
    flash_attention: bool = True
    chunked_loss: bool = Field(
        default=False,
        description="LM-head loss computed in chunks or fused (torchtune, LitGPT, Unsloth, Liger, Megatron) "
        "instead of HF Trainer's full fp32 logits",
    )
    kbit_prepare: bool = Field(
        default=False,
        description="LoRA/QLoRA on a bitsandbytes 4/8-bit base prepared by PEFT's prepare_model_for_kbit_training "
        "(HF Trainer / TRL SFTTrainer on one GPU): it upcasts the non-quantised weights (embeddings, LM head, norms) "
        "to fp32, and with the embeddings the residual stream. False: they stay 16-bit (GPTQ bases, sharded QLoRA, "
        "Answer.AI, Unsloth, LitGPT, torchtune)",
    )
    autocast: bool | None = Field(
        default=None,
        description="torch autocast around the forward and the loss. None: inferred (on for HF Trainer/accelerate "
        "mixed precision over fp32 weights or adapters without DeepSpeed; off in pure 16-bit and under DeepSpeed). "
        "True: HF Trainer with bf16/fp16=True over 16-bit weights, which still autocasts (the loss runs in fp32). "
        "False: no autocast context (a plain training loop); with fp32 master weights over unsharded parameters "
        "outside DeepSpeed ZeRO that is a 16-bit model with its fp32 master copy inside the optimizer (Megatron-LM "
        "--fp16/--bf16, apex O2)",
    )
    foreach_step: bool = Field(
        default=False,
        description="the optimizer step is torch's multi-tensor (foreach) Adam/AdamW, torch >= 2.0's default on CUDA "
        "(HF Trainer's adamw_torch, torchtitan, plain loops): the step builds one more state-sized tensor per GPU "
        "(sqrt of the second moment) after the activations are freed. False: a fused or per-parameter step "
        "(DeepSpeed's FusedAdam, transformers' old adamw_hf, fused=True)",
    )

    ac_option: Literal["op"] | Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="with checkpointing 'selective': torchtitan's selective_ac_option, 'op' or N (every N-th "
                                  "layer checkpointed); None: Korthikanti's selective recomputation")
    grads_to_none: bool = Field(default=False, description="gradients freed after each step (torch >= 2.0 "
                                                            "zero_grad(set_to_none=True)); False: held through the step (torch 1.x, DeepSpeed)")
    kbit_recast_bf16: bool = Field(default=False, description="with kbit_prepare: TRL SFTTrainer bf16=True casts embeddings/LM "
                                                               "head back to bf16 (norms stay fp32)")
    bnb_double_quant: bool = Field(default=True, description="bitsandbytes 4-bit double quantisation; False: load_in_4bit's "
                                                              "default, 4.5 bits")
    bnb_compute_fp32: bool = Field(default=False, description="bitsandbytes 4-bit computing in fp32 (BitsAndBytesConfig's "
                                                               "default compute dtype)")
    logits_upcast: bool | None = Field(
        default=None, description="whether the training loss casts the logits to fp32 first. None: the model family's HF "
                                  "implementation decides; False: the loss runs on the logits' own 16-bit dtype (a loss "
                                  "written in the training script: LLMs-from-scratch, ColossalAI's GPT benchmark); True: it "
                                  "upcasts. Autocast and fp32 training run the loss in fp32 whatever is stated")
    vocab_parallel_loss: bool = Field(
        default=False, description="the training loss is Megatron-LM's vocab_parallel_cross_entropy on "
                                   "output.float(): one fp32 copy of the 16-bit logits, softmax computed and saved in "
                                   "place in it (6 B per logit at the peak, split over TP ranks). False: a full-vocabulary "
                                   "loss as logits_upcast / the family's HF implementation say, or chunked_loss")
    output_kept: bool = Field(
        default=False, description="the training step keeps the model's output (its logits) alive through backward (a "
                                   "plain loop's `outputs = model(**batch)` then `outputs.loss.backward()`: milabench's "
                                   "Runner.step, nanoGPT's `logits, loss = model(X, Y)`), so the logits count at the "
                                   "loss's backward moment too. False: the step returns the loss alone (HF Trainer "
                                   "compute_loss, a Lightning training_step)")
    main_grads_at_step: bool = Field(
        default=False, description="with autocast false (a 16-bit model, fp32 master weights in the optimizer): the fp32 "
                                   "main gradients are made by the optimizer step and freed by the next zero_grad "
                                   "(Megatron-LM since 4fd6432, 2021-07-09, and megatron/core), so they count only in "
                                   "their excess over what backward frees. False: held beside backward (Megatron-LM "
                                   "before it; DeepSpeed's stage-0 FP16_Optimizer, whose step flattens fp32 copies)")
    fsdp_grads_to_cpu_per_unit: bool = Field(
        default=False, description="with sharding fsdp and offload cpu: each unit's gradient moves to its CPU buffer "
                                   "inside the unit's post-backward hook (fairscale's FSDP, fairseq's: `param.grad.data "
                                   "= param._cpu_grad`), so no gradient waits on the GPU until backward ends. False: "
                                   "torch FSDP, which keeps each GPU shard until backward ends")
    model_ema: bool = Field(
        default=False, description="full training keeps a model EMA on the GPU (timm ModelEma, DeiT's --model-ema): one "
                                   "more copy of the weights in the model's dtype. False: no EMA, or one kept on the CPU")
    dense_classes: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="a dense-prediction (semantic segmentation) head's classes: training's loss runs on "
                                  "per-pixel logits upsampled to the label map (mmsegmentation's decode heads). None: no "
                                  "such head (a vision model's loss is over its class token)")
    dense_label_pixels: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="with dense_classes: pixels of each image's label map the loss runs on (the training "
                                  "crop's height x width, e.g. 512 x 512 = 262144)")
    dense_loss_heads: Annotated[int, Field(ge=1)] = Field(
        default=1, description="with dense_classes: losses computed at label resolution per image (the decode head "
                               "plus each auxiliary head, e.g. SETR's 3 auxiliary heads: 4)")

    @model_validator(mode="after")
    def _check(self) -> "VramRequest":
        if self.mode == Mode.qlora and self.precision not in (None, Precision.int4, Precision.nf4):
            raise InputError(Note.of(ErrorCode.qlora_precision, precision=self.precision))
        if self.tp * self.pp > self.gpus:
            raise InputError(Note.of(ErrorCode.tp_pp_over_gpus, tp_pp=self.tp * self.pp, gpus=self.gpus))
        # settings that qualify another one: alone they would be silently ignored
        four_bit = self.mode == Mode.qlora or self.precision in (Precision.int4, Precision.nf4)
        if self.ac_option is not None and self.checkpointing != Checkpointing.selective:
            raise InputError(Note.of(ErrorCode.field_needs, field="ac_option", needs="checkpointing=selective"))
        if self.kbit_recast_bf16 and not self.kbit_prepare:
            raise InputError(Note.of(ErrorCode.field_needs, field="kbit_recast_bf16", needs="kbit_prepare"))
        if self.logits_upcast is not None and (self.mode == Mode.inference or self.chunked_loss):
            needs = "chunked_loss=false" if self.chunked_loss else "mode=full|lora|qlora|pretrain"
            raise InputError(Note.of(ErrorCode.field_needs, field="logits_upcast", needs=needs))
        if self.vocab_parallel_loss and (self.mode == Mode.inference or self.chunked_loss
                                         or self.logits_upcast is not None):
            needs = ("mode=full|lora|qlora|pretrain" if self.mode == Mode.inference else
                     "chunked_loss=false" if self.chunked_loss else "logits_upcast=None")
            raise InputError(Note.of(ErrorCode.field_needs, field="vocab_parallel_loss", needs=needs))
        if self.output_kept and (self.mode == Mode.inference or self.chunked_loss or self.vocab_parallel_loss):
            needs = ("mode=full|lora|qlora|pretrain" if self.mode == Mode.inference else
                     "chunked_loss=false" if self.chunked_loss else "vocab_parallel_loss=false")
            raise InputError(Note.of(ErrorCode.field_needs, field="output_kept", needs=needs))
        if (self.dense_classes is None) != (self.dense_label_pixels is None):
            field, needs = (("dense_classes", "dense_label_pixels") if self.dense_label_pixels is None
                            else ("dense_label_pixels", "dense_classes"))
            raise InputError(Note.of(ErrorCode.field_needs, field=field, needs=needs))
        if self.dense_loss_heads != 1 and self.dense_classes is None:
            raise InputError(Note.of(ErrorCode.field_needs, field="dense_loss_heads", needs="dense_classes"))
        if self.main_grads_at_step and (self.autocast is not False or self.master_weights != MasterWeights.fp32
                                        or self.mode not in (Mode.full, Mode.pretrain)
                                        or self.precision != Precision.fp16
                                        or self.sharding not in (Sharding.none, Sharding.ddp)):
            # the fp16 half-model layout only (bf16's gradients accumulate in the fp32 buffer the step reads)
            raise InputError(Note.of(ErrorCode.field_needs, field="main_grads_at_step",
                                     needs="mode=full|pretrain, precision=fp16, master_weights=fp32, autocast=false, "
                                           "sharding=none|ddp"))
        if self.fsdp_grads_to_cpu_per_unit and (self.sharding != Sharding.fsdp or self.offload != Offload.cpu):
            raise InputError(Note.of(ErrorCode.field_needs, field="fsdp_grads_to_cpu_per_unit",
                                     needs="sharding=fsdp, offload=cpu"))
        if (not self.bnb_double_quant or self.bnb_compute_fp32) and not four_bit:
            field = "bnb_double_quant" if not self.bnb_double_quant else "bnb_compute_fp32"
            raise InputError(Note.of(ErrorCode.field_needs, field=field, needs="precision=nf4|int4|mode=qlora"))
        return self

    @property
    def effective_precision(self) -> Precision:
        if self.precision is not None:
            return self.precision
        return Precision.nf4 if self.mode == Mode.qlora else Precision.bf16


class GpuFit(BaseModel):
    gpu: str
    usable_gib: float
    fits: bool
    headroom_gib: float = Field(description="usable minus needed per GPU; negative when it does not fit")


class MemoryPart(BaseModel):
    """One component of the per-GPU memory: what it is, its precision, how many GiB."""

    component: Component
    precision: str | None = Field(default=None, description="storage precision (a Precision value), when it has one")
    gib: float = Field(description="GiB per GPU")


class VramEstimate(BaseModel):
    model: str
    mode: Mode
    precision: Precision
    gpus: int
    per_gpu_gib: float
    reclaimable_gib: float = Field(default=0.0, description="cached blocks the allocator keeps reserved on top of "
                                   "per_gpu_gib and releases when memory runs short (FSDP's gradient stream pool): in "
                                   "a measured max_memory_reserved, not in what the job needs")
    total_gib: float
    breakdown: list[MemoryPart] = Field(description="components in the order they were added; render with "
                                        "tools.messages.render_component(component, precision, lang)")
    assumptions: list[Note]
    fits: dict[str, bool] = Field(default_factory=dict, description="catalog GPU key -> fits")
    fit_details: list[GpuFit] = Field(default_factory=list)
    formula: list[Note] = Field(default_factory=list, description="the formulas used, with their citations")

    @computed_field(description="component code -> GiB per GPU (the flat numeric view; units in the key)")
    @property
    def breakdown_gib(self) -> dict[str, float]:
        return {p.component.value: p.gib for p in self.breakdown}


# ------------------------------------------------------------------ training time


class TrainTimeRequest(Strict):
    mode: Mode = Mode.full
    precision: Precision | None = None
    tokens: float = Field(gt=0, description="dataset tokens per epoch")
    epochs: float = Field(default=1.0, gt=0)
    gpus: int = Field(default=1, gt=0)
    mfu: float | None = Field(default=None, gt=0, le=1)
    checkpointing: Checkpointing = Checkpointing.none
    deadline_hours: float | None = Field(default=None, gt=0)



class TrainTimeEstimate(BaseModel):
    model: str
    gpu: str
    gpus: int
    flops: float
    peak_tflops_per_gpu: float
    mfu: float
    mfu_source: Note = Field(description="where the MFU figure comes from (tools.mfu.MfuCode)")
    hours: float
    days: float
    gpu_hours: float
    gpus_for_deadline: int | None = None
    assumptions: list[Note]


# ------------------------------------------------------------------ money


class FxSource(str, Enum):
    """Where a rate comes from, for the message catalog (`term.fx_source.<value>`)."""

    builtin = "builtin"  # knowledge.settings' built-in default
    configured = "configured"  # GPU_ADVISOR_USD_CNY


class FxCode(NoteCode):
    rate = "fx.rate"  # usd (1), cny (CNY for that 1 USD), as_of, source (FxSource value) or source_text (a citation)


class ExchangeRate(Strict):
    usd_cny: float = Field(gt=0, description="CNY per USD")
    as_of: dt.date | None = Field(default=None, description="the rate's date; None: not given (a configured rate without one)")
    source: str = Field(default="", description="a citation for the rate (free text, shown as written)")
    source_code: FxSource | None = Field(default=None, description="the kind of source, rendered per language")
    today: dt.date | None = Field(default=None, description="the date the rate is aged against (GPU_ADVISOR_TODAY); None: no age shown")

    def convert(self, amount: float, src: Currency, dst: Currency) -> float:
        if src == dst:
            return amount
        return amount * self.usd_cny if src == Currency.USD else amount / self.usd_cny

    def note(self) -> Note:
        """The rate as a note: '1 USD = 7.1 CNY (…, 2025-11-28)' / '1 美元 = 7.1 元（…，2025-11-28）'."""
        age: dict[str, Any] = {}
        if self.today is not None and self.as_of is not None:  # aged like a price (issue 12): months, stale or fresh
            from tools.price_age import rate_age

            a = rate_age(self, self.today)
            age = {"months": a.months, "state": a.state.value}
        return Note.of(
            FxCode.rate, usd=1, cny=self.usd_cny, as_of=self.as_of.isoformat() if self.as_of else None,
            source=self.source_code, source_text=None if self.source_code else self.source, **age,
        )

    @property
    def text(self) -> str:
        """English, for logs and reports; surfaces render `note()` in the reader's language."""
        from tools.messages import render

        return render(self.note(), "en")

    @model_serializer(mode="wrap")
    def _serialise(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        """With a language in the context (``--json --lang zh``), the rate also carries its `text`."""
        data = handler(self)
        ctx = info.context if isinstance(info.context, dict) else {}
        if ctx.get("lang") in ("en", "zh") and isinstance(data, dict):
            from tools.messages import render

            data["text"] = render(self.note(), ctx["lang"])
        return data


class CostRequest(Strict):
    hours: float | None = Field(default=None, gt=0, description="None: one month (730 h)")
    billing: Billing = Billing.on_demand
    currency: Currency = Currency.USD
    instances: int = Field(default=1, gt=0, description="how many of the instance (nodes)")
    checkpoint_interval_hours: float = Field(default=1.0, gt=0)
    spot_interruptions_per_day: float = Field(default=1.0, ge=0)
    restart_overhead_hours: float = Field(
        default=0.25, ge=0, description="spot: paid time to get a new instance running and reload the checkpoint"
    )
    hours_per_day: float | None = Field(default=None, gt=0, le=24, description="schedule instead of `hours`")
    days: float | None = Field(default=None, gt=0, description="schedule length; None: one month (730/24 days)")
    today: dt.date | None = Field(default=None, description="the date prices are aged against (GPU_ADVISOR_TODAY); None: no age")



class CostLine(BaseModel):
    billing: Billing
    price_per_hour: float | None = Field(description="in the requested currency; None = unknown")
    native_price: float | None
    native_currency: Currency | None
    native_per: str | None
    total: float | None
    expected_total: float | None = Field(default=None, description="spot: with expected rework after interruptions")
    price_as_of: str | None = Field(description="ISO date, or None when the source has none")
    price_grade: PriceGrade | None
    source: str | None
    billed_hours: float | None = Field(default=None, description="hours paid for: whole terms for monthly/yearly")
    converted: bool = Field(default=False, description="price converted from another currency")
    age: Note | None = Field(default=None, description="the price's age (fresh, stale, undated) against the request's today")
    covers: Note | None = Field(default=None, description="what the price covers and what is extra, when the source says")
    note: Note | None = Field(default=None, description="a remark on this line (tools.cost.CostCode)")


class CostEstimate(BaseModel):
    provider: str
    instance: str
    region: str
    gpu: str
    gpu_count: float
    hours: float
    billing: Billing
    currency: Currency
    total: float | None = Field(description="for `billing`; None when that price is unknown")
    price_as_of: str | None
    lines: list[CostLine] = Field(description="every billing mode side by side")
    exchange_rate: ExchangeRate | None = Field(description="stated whenever a figure was converted")
    assumptions: list[Note]
    instances: int = 1


# ------------------------------------------------------------------ recommender


class ServingLoad(Strict):
    """The load a serving deployment must carry (recommend --mode inference): one load shape, lengths, targets.

    With a load the recommender keeps instances that hold the weights plus the KV cache for it, estimates
    throughput and latency on each (tools.serving), drops those that miss the targets as near-misses, and
    ranks by the monthly cost of meeting the load.
    """

    concurrency: int | None = Field(default=None, gt=0, description="concurrent users (closed loop)")
    requests_per_day: float | None = Field(default=None, gt=0, description="requests a day (busiest hour: peak_factor)")
    request_rate: float | None = Field(default=None, gt=0, description="requests per second (Poisson)")
    peak_factor: float | None = Field(default=None, ge=1, description="requests_per_day only; default 3")
    input_len: int | None = Field(default=None, gt=0, description="prompt tokens (default 1,024)")
    output_len: int | None = Field(default=None, gt=0, description="generated tokens (default 256)")
    ttft_ms: float | None = Field(default=None, gt=0, description="target time to first token (p50)")
    min_tokens_per_user: float | None = Field(default=None, gt=0, description="target tok/s each user sees")
    weights: WeightFormat | None = Field(default=None, description="None: bf16, with FP8 / INT4 variants proposed beside")
    engine: Engine = Engine.vllm
    traffic: Traffic | None = Field(default=None, description="stand-in lengths when none are given: chat = ShareGPT's means")
    vllm_engine: VllmEngine | None = Field(default=None, description="vLLM engine generation (None: the estimator's default, V1)")
    vllm_sampler: SamplerWarmup | None = Field(default=None, description="vLLM profile run's sampler warm-up (None: the generation's)")
    engine_version: str | None = Field(default=None, max_length=40, description="the engine release as published "
                                       "(\"0.11.0\"): vLLM's KV-pool rules by release (tools/kv_pool.py)")
    async_scheduling: bool | None = Field(default=None, description="vLLM V1 async scheduling (default from v0.14; "
                                          "None: not stated, the engine's defaults as the constants were fitted)")

    @model_validator(mode="after")
    def _check(self) -> "ServingLoad":
        from tools.recommend_codes import RecommendError

        given = [k for k in ("concurrency", "requests_per_day", "request_rate") if getattr(self, k) is not None]
        if len(given) > 1:
            raise InputError(Note.of(RecommendError.serving_one_load, given=given))
        if self.peak_factor is not None and self.requests_per_day is None:
            raise InputError(Note.of(RecommendError.serving_peak_factor))
        return self

    def load(self) -> Load | None:
        """The estimator's load shape (None: one user at a time, the estimator's stated default)."""
        if self.concurrency is not None:
            return Load(kind=LoadKind.concurrency, value=self.concurrency)
        if self.request_rate is not None:
            return Load(kind=LoadKind.request_rate, value=self.request_rate)
        if self.requests_per_day is not None:
            return Load(kind=LoadKind.requests_per_day, value=self.requests_per_day, peak_factor=self.peak_factor)
        return None


class RecommendRequest(Strict):
    vram: VramRequest = Field(default_factory=VramRequest)
    required_gib: float | None = Field(default=None, gt=0, description="a raw memory need instead of a model")
    budget: float | None = Field(default=None, gt=0)
    currency: Currency | None = Field(default=None, description="None: CNY for region cn, else USD")
    period: str = Field(default="month", pattern="^(hour|month|job)$")
    region: RegionScope = RegionScope.any
    providers: list[str] = Field(default_factory=list)
    billing: Billing | None = Field(default=None, description="None: on-demand, plus what is cheaper")
    max_gpus: int = Field(default=8, gt=0, description="per the whole job, nodes included")
    tokens: float | None = Field(default=None, gt=0)
    epochs: float = Field(default=1.0, gt=0)
    gpu: str | None = Field(default=None, description="restrict to one GPU model")
    top_k: int = Field(default=5, gt=0, description="priced options to return; up to as many unpriced ones follow them")
    hours_per_month: float = Field(default=730.0, gt=0, le=744)
    mfu: float | None = Field(default=None, gt=0, le=1, description="override the per-GPU-class MFU for time to finish")
    serving: ServingLoad | None = Field(default=None, description="a serving load (mode inference): serving-aware ranking")
    deadline_hours: float | None = Field(default=None, gt=0, description="training: finish within this many hours "
                                         "(needs tokens); slower options become near-misses, clusters are tried")



class Option(BaseModel):
    provider: str
    instance: str
    region: str
    china_mainland: bool
    gpu: str
    gpu_count: float
    nodes: int
    per_gpu_gib: float = Field(description="memory needed per GPU")
    gpu_usable_gib: float
    headroom_gib: float
    price_per_hour: float | None
    monthly_cost: float | None
    job_cost: float | None
    job_hours: float | None
    throughput_tps: float | None = Field(default=None, description="training throughput, tokens per second (with tokens)")
    currency: Currency
    billing: Billing
    price_grade: PriceGrade | None
    price_as_of: str | None
    price_source: str | None
    interconnect: Note = Field(description="NVLink / PCIe inside the machine, InfiniBand or network speed between")
    reasons: list[Note] = Field(description="why this option (tools.recommend_codes.RecommendCode option.*)")
    warnings: list[Note] = Field(default_factory=list)
    total_gpus: int | None = Field(default=None, description="GPUs the job uses: gpu_count × nodes (× copies)")
    layout: Note | None = Field(default=None, description="how the job is spread, e.g. ZeRO-3 across 8 GPUs (layout.*)")
    # ---- the price: kind and age (issue 12)
    price_age_state: str | None = Field(default=None, description="fresh (≤ 12 months) | stale | undated; None: unpriced")
    price_age_months: int | None = Field(default=None, description="whole months since the price's date")
    price_as_of_label: str | None = Field(default=None, description="'2026-07-20', or '2026-10' for a month-level date")
    price_age: Note | None = Field(default=None, description="the price's date and age (tools.price_age)")
    price_covers: Note | None = Field(default=None, description="what the price includes and what is extra")
    price_source_url: str | None = None
    within_budget: bool | None = Field(default=None, description="None: no budget or no price; False: the cheapest "
                                       "priced option, shown because nothing priced fits the budget")
    over_budget_fraction: float | None = Field(default=None, description="how far over the budget (0.25 = 25 %)")
    fit_problems: list[str] = Field(default_factory=list, description="memory | interconnect | host | software | interruption: "
                                    "what ranks it lower within the 10 % cost band")
    # ---- serving (with RecommendRequest.serving)
    weights: str | None = Field(default=None, description="served weight format (a WeightFormat value)")
    copies: int = Field(default=1, description="instances (× nodes) behind a load balancer to carry the load")
    instances: int = Field(default=1, description="machines paid for: nodes × copies")
    output_tok_s: float | None = Field(default=None, description="output tokens/s at the load, all copies")
    ttft_ms: float | None = None
    tpot_ms: float | None = None
    e2e_ms: float | None = None
    tokens_per_user_s: float | None = None
    req_s: float | None = None
    max_concurrency: int | None = Field(default=None, description="sequences the deployment holds at once, all copies")
    cost_per_million_output_tokens_at_load: float | None = Field(default=None, description="in `currency`")
    cost_per_million_output_tokens_at_max: float | None = None
    tp: int | None = None
    pp: int | None = None


class Rejection(BaseModel):
    provider: str
    instance: str
    gpu: str
    gpu_count: float
    reason: Note = Field(description="why not (tools.recommend_codes.RecommendCode reject.* / host.thin)")
    region: str | None = None
    kind: str | None = Field(default=None, description="fit | budget | billing | bf16 | fp8 | host | pcie | network | export | "
                             "region | software | fractional | latency | throughput | estimate")


class Recommendation(BaseModel):
    options: list[Option]
    rejected: list[Rejection]
    vram: VramEstimate | None
    currency: Currency
    exchange_rate: ExchangeRate
    assumptions: list[Note]
    suggestions: list[Suggestion] = Field(default_factory=list, description="when nothing fits: what would")
    notices: list[Note] = Field(default_factory=list, description="read first: e.g. nothing priced fits the budget")
    quantised: list[Option] = Field(default_factory=list, description="serving: the best option with each quantised "
                                    "weight format (FP8, INT4 AWQ), beside the bf16 options, with the quality caveat")
    prices_aged_on: dt.date | None = Field(default=None, description="the day price ages are counted to")
