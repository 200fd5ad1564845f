"""Does a workload fit the hardware the user has, by how much, and what is the cheapest change that makes it fit?

`fit_report(model, request, targets, gpus_by_key)` checks the memory estimate
against each target — a catalog GPU × count, or a raw amount of memory the user
says they have — and, for every target it does not fit, re-runs the estimator
with one change at a time, least disruptive first (`CHANGE_ORDER`), and reports
the first change that fits and every one that does.

"Least disruptive" follows what an engineer tries first: for training, the
adapter method before more GPUs (LoRA keeps quality close to full fine-tuning
for most instruction tuning, QLoRA adds 4-bit quantisation of the base), a
shorter context before a cluster; for inference, 8-bit then 4-bit weights
before more GPUs. Pure: no catalog, no I/O, no sentences.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from tools.domain import GPU, Mode, ModelSpec, Precision, Sharding
from tools.errors import InputError
from tools.notes import Change, ChangeKind
from tools.schemas import VramEstimate, VramRequest
from tools.vram import estimate_vram

MIN_CONTEXT = 512
MAX_GPUS_TRIED = 8  # one node; beyond that the recommender's cluster search answers


class FitTarget(BaseModel):
    gpu: str | None = Field(default=None, description="catalog GPU key; None with available_gib")
    count: int = Field(default=1, gt=0)
    available_gib: float | None = Field(default=None, gt=0, description="memory per GPU the user says they have")
    usable_gib: float = Field(gt=0, description="usable memory per GPU (nvidia-smi for catalog GPUs)")
    fp8: bool = Field(default=False, description="the GPU computes in FP8 (Ada, Hopper, Blackwell)")

    @property
    def label(self) -> str:
        return self.gpu or f"{self.available_gib:g} GB"


class FitChange(BaseModel):
    change: Change
    per_gpu_gib: float
    headroom_gib: float
    fits: bool


class TargetFit(BaseModel):
    target: FitTarget
    per_gpu_gib: float
    headroom_gib: float = Field(description="usable minus needed per GPU; negative when it does not fit")
    fits: bool
    layout: str = Field(description="none | ddp | zero3 | tp: how the count was used")
    estimate: VramEstimate | None = Field(default=None, description="the estimate on this target's layout (breakdown per GPU)")
    cheapest_change: FitChange | None = Field(default=None, description="the least disruptive change that fits")
    changes: list[FitChange] = Field(default_factory=list, description="every change tried, in order")


class FitReport(BaseModel):
    estimate: VramEstimate = Field(description="the workload as asked, on one GPU (or the user's count)")
    targets: list[TargetFit]

    @property
    def any_fits(self) -> bool:
        return any(t.fits for t in self.targets)


@dataclass(frozen=True)
class _Trial:
    change: Change
    update: dict


def _layout_request(request: VramRequest, count: int) -> tuple[VramRequest, str]:
    """The request spread over `count` GPUs the way people run it: ZeRO-3 for training, tensor parallel for inference."""
    if count <= 1:
        return request.model_copy(update={"gpus": 1, "tp": 1, "pp": 1}), "none"
    if request.mode == Mode.inference:
        return request.model_copy(update={"gpus": count, "tp": count, "pp": 1, "sharding": Sharding.none}), "tp"
    if request.sharding in (Sharding.none, Sharding.ddp):
        return request.model_copy(update={"gpus": count, "sharding": Sharding.zero3, "tp": 1, "pp": 1}), "zero3"
    return request.model_copy(update={"gpus": count}), request.sharding.value


def _trials(request: VramRequest, count: int, seq_len: int, fp8: bool) -> list[_Trial]:
    out: list[_Trial] = []
    mode = request.mode
    if mode in (Mode.full, Mode.pretrain):
        out.append(_Trial(Change.of(ChangeKind.set_mode, Mode.lora), {"mode": Mode.lora}))
    if mode in (Mode.full, Mode.pretrain, Mode.lora):
        out.append(_Trial(Change.of(ChangeKind.set_mode, Mode.qlora), {"mode": Mode.qlora, "precision": None}))
    if mode == Mode.inference:
        current = request.effective_precision
        for p in (Precision.fp8, Precision.int8, Precision.int4):
            if p == Precision.fp8 and not fp8:
                continue  # FP8 weights need FP8 tensor cores (Ada/Hopper); 8-bit integer weights run anywhere
            if p.bytes_per_param < current.bytes_per_param and not (p == Precision.int8 and current == Precision.fp8):
                out.append(_Trial(Change.of(ChangeKind.set_precision, p), {"precision": p}))
    if request.batch_size > 1:
        out.append(_Trial(Change.of(ChangeKind.set_batch_size, 1), {"batch_size": 1}))
    shorter = seq_len // 2
    if shorter >= MIN_CONTEXT:
        out.append(_Trial(Change.of(ChangeKind.shorten_context, shorter), {"seq_len": shorter}))
    n = count * 2
    while n <= MAX_GPUS_TRIED:
        out.append(_Trial(Change.of(ChangeKind.set_gpus, n), {"_gpus": n}))
        n *= 2
    return out


def _replicable(request: VramRequest, count: int) -> bool:
    """Training on `count` GPUs may run as plain data parallel (a full copy of the job per GPU): no sharding named.

    Why first: where one GPU holds the job, DDP is how it is run (no parameter gathering, the fastest step), and the
    recommender sizes such a box the same way, at the single-GPU figure (tools/recommend_memory.py `for_gpus`), so one
    answer shows one number; ZeRO-3 is the answer only when a copy does not fit."""
    return count > 1 and request.mode != Mode.inference and request.sharding in (Sharding.none, Sharding.ddp)


def _estimate(model: ModelSpec, request: VramRequest, count: int) -> tuple[VramEstimate, str]:
    laid_out, layout = _layout_request(request, count)
    return estimate_vram(model, laid_out), layout


def fit_report(model: ModelSpec, request: VramRequest, targets: list[FitTarget]) -> FitReport:
    """Fit of `request` on each target, and for each miss the changes that fit, least disruptive first."""
    base, _ = _estimate(model, request, 1)
    seq_len = request.seq_len or 2048
    out: list[TargetFit] = []
    for target in targets:
        try:
            est, layout = _estimate(model, request, target.count)
            if _replicable(request, target.count) and base.per_gpu_gib <= target.usable_gib:
                est, layout = base, "ddp"  # a full copy fits each GPU: data parallel, sized as the recommender sizes it
        except InputError:
            est, layout = base, "none"
        headroom = target.usable_gib - est.per_gpu_gib
        fit = TargetFit(target=target, per_gpu_gib=est.per_gpu_gib, headroom_gib=round(headroom, 2),
                        fits=headroom >= 0, layout=layout, estimate=est if layout != "none" else None)
        if not fit.fits:
            for trial in _trials(request, target.count, seq_len, target.fp8):
                update = dict(trial.update)
                count = update.pop("_gpus", target.count)
                try:
                    changed = request.model_copy(update=update)
                    VramRequest.model_validate(changed.model_dump())  # the combination must be valid
                    e, _ = _estimate(model, changed, count)
                except (InputError, ValueError):
                    continue
                h = target.usable_gib - e.per_gpu_gib
                fc = FitChange(change=trial.change, per_gpu_gib=e.per_gpu_gib, headroom_gib=round(h, 2), fits=h >= 0)
                fit.changes.append(fc)
                if fc.fits and fit.cheapest_change is None:
                    fit.cheapest_change = fc
        out.append(fit)
    return FitReport(estimate=base, targets=out)


def target_for_gpu(gpu: GPU, count: int = 1) -> FitTarget:
    return FitTarget(gpu=gpu.key, count=count, usable_gib=gpu.usable_memory_gib, fp8=gpu.fp8_supported)


def target_for_memory(available_gib: float, count: int = 1) -> FitTarget:
    """A card the user describes by its memory: its figure as GiB per GPU (cards sold as '24 GB' report 24 GiB)."""
    return FitTarget(available_gib=available_gib, count=count, usable_gib=available_gib)
