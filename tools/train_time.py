"""Training-time estimator: FLOPs / (GPUs × dense peak × MFU).

FLOPs per token (Kaplan et al. 2020, arXiv:2001.08361 §2.1; Chinchilla
appendix): forward 2·N, backward 4·N (2·N for activation gradients, 2·N for
weight gradients) → 6·N·D for D tokens. Attention's s-dependent FLOPs are left
out, as in the MFU figures the defaults are calibrated on (tools/mfu.py).

* full recomputation re-runs the forward: 8·N·D;
* MoE: N is the active parameters per token;
* LoRA/QLoRA: the frozen weights need no weight-gradient GEMMs, so 4·N·D
  (forward 2·N·D + activation-gradient backward 2·N·D); the adapters' own
  FLOPs (< 1 % of N at rank 16) are ignored;
* QLoRA: bitsandbytes dequantises every 4-bit weight before each matmul; we
  take 39 % more runtime than 16-bit LoRA (Raschka, "Practical Tips for
  Finetuning LLMs Using LoRA", Ahead of AI, 2023: QLoRA "33 % memory savings
  at the cost of a 39 % increased runtime" on a 7B model).

Tokens are per epoch × epochs.
"""

from __future__ import annotations

import math

from tools.domain import GPU, Checkpointing, Mode, ModelSpec, Precision
from tools.errors import ErrorCode, InputError
from tools.mfu import MfuCode, default_mfu
from tools.notes import Note, NoteCode
from tools.schemas import TrainTimeEstimate, TrainTimeRequest

__all__ = ["estimate_train_time", "gpus_for_deadline", "default_mfu", "training_flops", "QLORA_TIME_FACTOR", "TimeCode"]


class TimeCode(NoteCode):
    """Assumptions of the training-time estimate (params in the comments)."""

    flops_full = "time.flops_full"  # 6·N·D
    flops_full_recompute = "time.flops_full_recompute"  # 8·N·D
    flops_lora = "time.flops_lora"  # 4·N·D
    flops_lora_recompute = "time.flops_lora_recompute"  # 6·N·D
    moe_active = "time.moe_active"  # active_params, params
    epochs = "time.epochs"  # tokens, epochs
    dequantised = "time.dequantised"  # precision
    compute_precision = "time.compute_precision"  # precision
    mfu = "time.mfu"  # mfu, source (an MfuCode note)
    qlora_factor = "time.qlora_factor"  # factor, runtime_increase_fraction
    lora_no_recompute = "time.lora_no_recompute"
    deadline = "time.deadline"  # gpus, gpu, deadline_hours

QLORA_TIME_FACTOR = 1.39
SECONDS_PER_HOUR = 3600.0
MAX_GPUS = 1_000_000  # a deadline that needs more is reported as impossible


def _flops_per_param_token(mode: Mode, ckpt: Checkpointing) -> tuple[float, TimeCode]:
    if mode in (Mode.lora, Mode.qlora):
        # LoRA: forward 2 + activation-gradient backward 2, no frozen-weight gradients (+ 2 recomputed forward)
        return (6.0, TimeCode.flops_lora_recompute) if ckpt == Checkpointing.full else (4.0, TimeCode.flops_lora)
    # full: forward 2 + backward 4 (+ 2 recomputed forward with full activation checkpointing)
    return (8.0, TimeCode.flops_full_recompute) if ckpt == Checkpointing.full else (6.0, TimeCode.flops_full)


def training_flops(model: ModelSpec, request: TrainTimeRequest) -> tuple[float, list[Note]]:
    """Total model FLOPs for the job and the assumptions behind them."""
    k, code = _flops_per_param_token(request.mode, request.checkpointing)
    n = model.compute_params
    d = request.tokens * request.epochs
    notes = [Note.of(code)]
    if model.active_params:
        notes.append(Note.of(TimeCode.moe_active, active_params=model.active_params, params=model.params))
    if request.epochs != 1:
        notes.append(Note.of(TimeCode.epochs, tokens=request.tokens, epochs=request.epochs))
    return k * n * d, notes


def _compute_precision(gpu: GPU, request: TrainTimeRequest, notes: list[Note]) -> Precision:
    p = request.precision
    if p is None or p in (Precision.int8, Precision.int4, Precision.nf4):
        if p is not None:
            notes.append(Note.of(TimeCode.dequantised, precision=p))
        p = Precision.bf16 if gpu.bf16_supported else Precision.fp16
        if request.precision is None:
            notes.append(Note.of(TimeCode.compute_precision, precision=p))
    return p


def _effective_rate(gpu: GPU, request: TrainTimeRequest, gpus: int, notes: list[Note] | None) -> tuple[float, float, Note, float]:
    """(sustained FLOP/s for `gpus`, mfu, mfu source, dense peak TFLOPS per GPU)."""
    scratch: list[Note] = []
    p = _compute_precision(gpu, request, notes if notes is not None else scratch)
    peak = gpu.peak_tflops(p)
    if not peak:
        available = [q.value for q in (Precision.fp16, Precision.bf16, Precision.fp32) if gpu.peak_tflops(q)]
        raise InputError(Note.of(ErrorCode.no_peak, precision=p, gpu=gpu.key, available=available))
    if request.mfu is not None:
        mfu, source = request.mfu, Note.of(MfuCode.given)
    else:
        mfu, source = default_mfu(gpu, gpus)
    rate = gpus * peak * 1e12 * mfu
    if request.mode == Mode.qlora:
        rate /= QLORA_TIME_FACTOR
    return rate, mfu, source, peak


def gpus_for_deadline(model: ModelSpec, gpu: GPU, request: TrainTimeRequest, deadline_hours: float | None = None) -> int:
    """Smallest GPU count that finishes within `deadline_hours` (default: request.deadline_hours).

    MFU may fall as GPUs are added (tools/mfu.py), so iterate until the count
    is self-consistent. Raises InputError when no count up to 1,000,000 does it.
    """
    deadline = deadline_hours if deadline_hours is not None else request.deadline_hours
    if deadline is None or not (deadline > 0 and math.isfinite(deadline)):
        raise InputError(Note.of(ErrorCode.deadline_positive))
    flops, _ = training_flops(model, request)
    n = 1
    for _ in range(64):
        rate, *_ = _effective_rate(gpu, request, n, None)
        per_gpu = rate / n
        need = max(1, math.ceil(flops / (per_gpu * deadline * SECONDS_PER_HOUR) - 1e-9))
        if need > MAX_GPUS:
            raise InputError(Note.of(ErrorCode.deadline_too_many, deadline_hours=deadline, max_gpus=MAX_GPUS, gpu=gpu.key))
        if need <= n:
            return n
        n = need
    return n


def estimate_train_time(model: ModelSpec, gpu: GPU, request: TrainTimeRequest) -> TrainTimeEstimate:
    """Wall-clock hours, days and GPU-hours to train `model` on `request.gpus` × `gpu`.

    Args:
        model: the model (its active parameters count for MoE).
        gpu: the catalog GPU (dense peak for the compute precision).
        request: mode, tokens, epochs, GPU count, MFU override, deadline.

    Returns:
        FLOPs, MFU used and its source, hours, days, GPU-hours and, when a
        deadline is given, the GPUs needed to meet it.
    """
    notes: list[Note] = []
    flops, flop_notes = training_flops(model, request)
    notes.extend(flop_notes)
    rate, mfu, source, peak = _effective_rate(gpu, request, request.gpus, notes)
    notes.append(Note.of(TimeCode.mfu, mfu=mfu, source=source))
    if request.mode == Mode.qlora:
        notes.append(Note.of(TimeCode.qlora_factor, factor=QLORA_TIME_FACTOR, runtime_increase_fraction=round(QLORA_TIME_FACTOR - 1, 4)))
    if request.mode in (Mode.lora, Mode.qlora) and request.checkpointing == Checkpointing.none:
        notes.append(Note.of(TimeCode.lora_no_recompute))
    seconds = flops / rate
    hours = seconds / SECONDS_PER_HOUR
    deadline_gpus = gpus_for_deadline(model, gpu, request) if request.deadline_hours else None
    if deadline_gpus is not None:
        notes.append(Note.of(TimeCode.deadline, gpus=deadline_gpus, gpu=gpu.key, deadline_hours=request.deadline_hours))
    return TrainTimeEstimate(
        model=model.key,
        gpu=gpu.key,
        gpus=request.gpus,
        flops=flops,
        peak_tflops_per_gpu=peak,
        mfu=mfu,
        mfu_source=source,
        hours=hours,
        days=hours / 24.0,
        gpu_hours=hours * request.gpus,
        gpus_for_deadline=deadline_gpus,
        assumptions=notes,
    )
