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
from tools.errors import ErrorCode, InputError
from tools.notes import Note
from tools.recommend_codes import RecommendCode as C
from tools.schemas import VramEstimate, VramRequest
from tools.vram import estimate_vram

TRAINING_MODES = (Mode.full, Mode.lora, Mode.qlora, Mode.pretrain)
REASON_PARAM = "single_gpu_gib"  # in a layout note: what one GPU would need (why the job is sharded)


@dataclass(frozen=True)
class Plan:
    """How a job is laid out on `gpus` GPUs and what each GPU needs."""

    per_gpu_gib: float
    gpus: int
    sharded: bool  # the model itself is split across GPUs: needs a fast interconnect
    how: Note  # the layout (layout.*), e.g. ZeRO-3 across 8 GPUs, with the single-GPU need when that is why
    estimate: VramEstimate | None = None
    error: Note | None = None  # the estimator refused this layout (an ErrorCode note)

    @property
    def layout(self) -> Note:
        """The layout alone, without the reason behind it (for 'PCIe only: … without NVLink')."""
        return self.how.without(REASON_PARAM)


class MemoryPlanner:
    """Caches `estimate_vram` per (strategy, GPU count) for one recommender run."""

    def __init__(self, model: ModelSpec | None, base: VramRequest, required_gib: float | None):
        if model is None and required_gib is None:
            raise InputError(Note.of(ErrorCode.no_workload))
        self.model = model
        self.base = base
        self.required_gib = required_gib
        self.training = base.mode in TRAINING_MODES
        self.user_layout = base.sharding not in (Sharding.none, Sharding.ddp) or base.tp > 1 or base.pp > 1
        self._cache: dict[tuple, Plan] = {}
        self.calls = 0  # estimate_vram calls, for the performance test

    # -------------------------------------------------------------- estimates

    def _run(self, key: tuple, request_update: dict, gpus: int, sharded: bool, how: Note) -> Plan:
        if key in self._cache:
            return self._cache[key]
        assert self.model is not None
        self.calls += 1
        try:
            request = VramRequest(**{**self.base.model_dump(), **request_update})
            est = estimate_vram(self.model, request)
            plan = Plan(est.per_gpu_gib, gpus, sharded, how, est)
        except InputError as err:
            if err.note is None:  # every calculator error carries a note; anything else is a bug
                raise
            plan = Plan(float("inf"), gpus, sharded, how, None, err.note)
        self._cache[key] = plan
        return plan

    def single(self) -> Plan:
        """The job on one GPU (the user's own layout when they gave one)."""
        if self.model is None:
            return Plan(self.required_gib or 0.0, 1, False, Note.of(C.layout_need_one_gpu))
        if self.user_layout:
            return self._user(self.base.gpus)
        return self._run(("single",), {"gpus": 1, "tp": 1, "pp": 1}, 1, False, Note.of(C.layout_one_gpu))

    def _user(self, gpus: int) -> Plan:
        tp, pp = self.base.tp, self.base.pp
        if tp * pp > gpus:  # the user's layout needs more GPUs than this machine has: fall back to plain sharding
            tp, pp = 1, 1
        how = Note.of(C.layout_user, sharding=self.base.sharding, tp=tp, pp=pp, gpus=gpus)
        sharded = gpus > 1 and (self.base.sharding in (Sharding.zero3, Sharding.fsdp) or tp > 1 or pp > 1)
        return self._run(("user", gpus, tp, pp), {"gpus": gpus, "tp": tp, "pp": pp}, gpus, sharded, how)

    # -------------------------------------------------------------- public

    def for_gpus(self, gpus: int, per_node: int, usable_gib: float) -> Plan:
        """Per-GPU need on `gpus` GPUs in nodes of `per_node`, for a GPU with `usable_gib`."""
        if self.model is None:
            need = float(self.required_gib or 0.0)
            if gpus == 1:
                return Plan(need, 1, False, Note.of(C.layout_need_one_gpu))
            if need <= usable_gib:
                return Plan(need, gpus, False, Note.of(C.layout_need_replicated, gpus=gpus))
            return Plan(need / gpus, gpus, True, Note.of(C.layout_need_split, needed_gib=need, gpus=gpus))
        if self.user_layout:
            return self._user(gpus)
        one = self.single()
        if gpus == 1 or one.per_gpu_gib <= usable_gib:
            if gpus == 1:
                return one
            how = Note.of(C.layout_replicas, gpus=gpus, training=self.training)
            return Plan(one.per_gpu_gib, gpus, False, how, one.estimate)
        # no GPU-specific number here: the plan is cached per GPU count and shared by every GPU model
        why = {REASON_PARAM: round(one.per_gpu_gib, 3)}
        if self.training:
            return self._run(
                ("zero3", gpus), {"gpus": gpus, "sharding": Sharding.zero3, "tp": 1, "pp": 1}, gpus, True,
                Note.of(C.layout_zero3, gpus=gpus, **why),
            )
        nodes = max(1, gpus // per_node)
        tp, pp = (per_node, nodes) if per_node * nodes == gpus else (gpus, 1)
        return self._run(
            ("tp", gpus, tp, pp), {"gpus": gpus, "tp": tp, "pp": pp, "sharding": Sharding.none}, gpus, True,
            Note.of(C.layout_tensor_parallel, tp=tp, pp=pp, gpus=gpus, **why),
        )
