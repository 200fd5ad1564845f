"""Per-GPU memory for a job spread over N GPUs, cached per GPU count.

The recommender asks "how much memory does each GPU need if the job runs on
this instance's N GPUs (× nodes)?" for hundreds of instances but only a handful
of distinct N, so every `estimate_vram` call is cached by (strategy, N).

Strategy, in this order:
1. The user chose a sharding / tensor / pipeline layout: keep it, with N GPUs.
2. One GPU holds the whole job: every GPU keeps a full copy (data parallel for
   training, replicas for inference); per-GPU memory is the single-GPU figure.
3. Otherwise shard the model over the N GPUs: ZeRO-3 for training (the common
   DeepSpeed/FSDP choice), tensor parallel within a node and pipeline parallel
   across nodes for inference (the vLLM layout). The plan says so.

A raw memory need (`required_gib`) is assumed to split evenly over the GPUs
when one GPU does not hold it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.domain import Mode, ModelSpec, Sharding
from tools.errors import InputError
from tools.schemas import VramEstimate, VramRequest
from tools.vram import estimate_vram

TRAINING_MODES = (Mode.full, Mode.lora, Mode.qlora, Mode.pretrain)
SHARDING_NAMES = {
    Sharding.zero3: "ZeRO-3",
    Sharding.fsdp: "FSDP",
    Sharding.zero2: "ZeRO-2",
    Sharding.zero1: "ZeRO-1",
    Sharding.ddp: "DDP",
}


@dataclass(frozen=True)
class Plan:
    """How a job is laid out on `gpus` GPUs and what each GPU needs."""

    per_gpu_gib: float
    gpus: int
    sharded: bool  # the model itself is split across GPUs: needs a fast interconnect
    how: str  # human-readable layout, e.g. "ZeRO-3 across 8 GPUs"
    estimate: VramEstimate | None = None
    error: str | None = None  # the estimator refused this layout


class MemoryPlanner:
    """Caches `estimate_vram` per (strategy, GPU count) for one recommender run."""

    def __init__(self, model: ModelSpec | None, base: VramRequest, required_gib: float | None):
        if model is None and required_gib is None:
            raise InputError("Give a model (--model/--params/--config) or a raw memory need (required_gib).")
        self.model = model
        self.base = base
        self.required_gib = required_gib
        self.training = base.mode in TRAINING_MODES
        self.user_layout = base.sharding not in (Sharding.none, Sharding.ddp) or base.tp > 1 or base.pp > 1
        self._cache: dict[tuple, Plan] = {}
        self.calls = 0  # estimate_vram calls, for the performance test

    # -------------------------------------------------------------- estimates

    def _run(self, key: tuple, request_update: dict, gpus: int, sharded: bool, how: str) -> Plan:
        if key in self._cache:
            return self._cache[key]
        assert self.model is not None
        self.calls += 1
        try:
            request = VramRequest(**{**self.base.model_dump(), **request_update})
            est = estimate_vram(self.model, request)
            plan = Plan(est.per_gpu_gib, gpus, sharded, how, est)
        except InputError as err:
            plan = Plan(float("inf"), gpus, sharded, how, None, str(err))
        self._cache[key] = plan
        return plan

    def single(self) -> Plan:
        """The job on one GPU (the user's own layout when they gave one)."""
        if self.model is None:
            return Plan(self.required_gib or 0.0, 1, False, "one GPU")
        if self.user_layout:
            return self._user(self.base.gpus)
        return self._run(("single",), {"gpus": 1, "tp": 1, "pp": 1}, 1, False, "the whole job on one GPU")

    def _user(self, gpus: int) -> Plan:
        tp, pp = self.base.tp, self.base.pp
        if tp * pp > gpus:  # the user's layout needs more GPUs than this machine has: fall back to plain sharding
            tp, pp = 1, 1
        parts = []
        if self.base.sharding not in (Sharding.none,):
            parts.append(SHARDING_NAMES.get(self.base.sharding, self.base.sharding.value))
        if tp > 1:
            parts.append(f"tensor parallel {tp}")
        if pp > 1:
            parts.append(f"pipeline parallel {pp}")
        how = f"{' + '.join(parts) or 'as requested'} across {gpus} GPU{'s' if gpus > 1 else ''}"
        sharded = gpus > 1 and (self.base.sharding in (Sharding.zero3, Sharding.fsdp) or tp > 1 or pp > 1)
        return self._run(("user", gpus, tp, pp), {"gpus": gpus, "tp": tp, "pp": pp}, gpus, sharded, how)

    # -------------------------------------------------------------- public

    def for_gpus(self, gpus: int, per_node: int, usable_gib: float) -> Plan:
        """Per-GPU need on `gpus` GPUs in nodes of `per_node`, for a GPU with `usable_gib`."""
        if self.model is None:
            need = float(self.required_gib or 0.0)
            if gpus == 1:
                return Plan(need, 1, False, "the whole need on one GPU")
            if need <= usable_gib:
                return Plan(need, gpus, False, f"one GPU holds the whole need (a full copy on each of {gpus} GPUs)")
            return Plan(need / gpus, gpus, True, f"the {need:.1f} GiB need split evenly across {gpus} GPUs (assumed)")
        if self.user_layout:
            return self._user(gpus)
        one = self.single()
        if gpus == 1 or one.per_gpu_gib <= usable_gib:
            if gpus == 1:
                return one
            copy = "data parallel, a full copy per GPU" if self.training else "a full replica per GPU"
            return Plan(one.per_gpu_gib, gpus, False, f"one GPU holds the job ({copy} on {gpus} GPUs)", one.estimate)
        # no GPU-specific number here: the plan is cached per GPU count and shared by every GPU model
        why = f"one GPU does not hold it (it needs {one.per_gpu_gib:.1f} GiB)"
        if self.training:
            return self._run(
                ("zero3", gpus), {"gpus": gpus, "sharding": Sharding.zero3, "tp": 1, "pp": 1}, gpus, True,
                f"ZeRO-3 across {gpus} GPUs because {why}",
            )
        nodes = max(1, gpus // per_node)
        tp, pp = (per_node, nodes) if per_node * nodes == gpus else (gpus, 1)
        layout = f"tensor parallel {tp}" + (f" × pipeline parallel {pp}" if pp > 1 else "")
        return self._run(
            ("tp", gpus, tp, pp), {"gpus": gpus, "tp": tp, "pp": pp, "sharding": Sharding.none}, gpus, True,
            f"{layout} because {why}",
        )
