"""Serving-aware recommendations: which instances carry a load, how fast, and at what cost of meeting it.

For each instance type the recommender asks `ServingPlanner.fit(instance, gpu, weights)`:

1. the weights must fit the instance's GPUs (a cheap byte count first, then the estimator's memory
   plan); when they fit no single machine, the fewest RDMA-class nodes that hold them (pipeline
   stages across nodes, tensor parallel inside one);
2. the serving estimator (tools.serving: the best replicas × TP × PP split of the machine's GPUs)
   gives throughput, TTFT, TPOT, the KV pool and the concurrency it holds, for the load;
3. when one machine does not carry the load (the KV cache for it does not fit, the request rate
   saturates it, or a latency target is missed), the fewest copies of it behind a load balancer that
   do, each carrying an equal share (concurrent users ⌈N / copies⌉, request rates ÷ copies), within
   `max_gpus` GPUs in all. Copies do not talk to each other, so they need no fast network.

What does not carry the load is a near-miss with the numbers of the largest deployment tried.
Estimates are cached per (GPU model, GPUs per machine, machines, weights, copies): hundreds of
instances share a few dozen shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.domain import GIB, GPU, Instance, ModelSpec
from tools.errors import InputError
from tools.notes import Note
from tools.recommend_codes import RecommendCode, ServeRecCode
from tools.recommend_host import rdma_class
from tools.schemas import ServingLoad
from tools.serving import evaluate, layouts
from tools.serving_codes import ServingError
from tools.serving_perf import arrival_rate_per_s, weight_bytes
from tools.serving_profiles import EngineScheduling, WeightFormat
from tools.serving_types import Load, LoadKind, ServingEstimate, ServingRequest

MAX_NODES = 8  # pipeline stages across machines for weights no machine holds
# A deployment whose KV pool holds exactly the load's sequences at the stated lengths runs out of blocks as soon as
# requests run longer than those lengths, and vLLM then preempts the newest running sequences (recomputing them
# later: docs.vllm.ai "Optimization and Tuning", Preemption), which stalls those users. So a serving pick must hold
# a tenth more sequences than the load (whole sequences: a load under 10 has no margin).
KV_MARGIN = 0.1
LINEAR_STEPS = 4  # copies tried one by one after the first estimate of how many are needed, then doubling


@dataclass
class ServingFit:
    """The deployment on one instance type that carries the load, or why none does."""

    est: ServingEstimate | None  # per copy; None when nothing could be estimated
    copies: int
    nodes: int
    ok: bool
    kind: str = ""  # near-miss kind when not ok: fit | latency | throughput
    reason: Note | None = None
    score: float = 1.0


def _share(load: Load | None, copies: int) -> Load | None:
    """One copy's share of the load."""
    if load is None or copies == 1:
        return load
    if load.kind == LoadKind.concurrency:
        return Load(kind=load.kind, value=math.ceil(float(load.value) / copies))  # type: ignore[arg-type]
    if load.kind in (LoadKind.request_rate, LoadKind.requests_per_day):
        return Load(kind=load.kind, value=float(load.value) / copies, peak_factor=load.peak_factor)  # type: ignore[arg-type]
    return load


def _key(e: ServingEstimate) -> tuple:
    """The estimator's own preference between layouts (tools.serving._better): ok, fits, then throughput."""
    return (e.ok, e.fits, e.weights_fit, round(e.output_tok_s, 6), e.max_output_tok_s, -e.tpot_ms)


class ServingPlanner:
    """One recommender run's serving estimates, cached (see the module docstring)."""

    def __init__(self, model: ModelSpec, load: ServingLoad, max_gpus: int, cache: dict | None = None):
        self.model = model
        self.spec = load
        self.load = load.load()
        self.max_gpus = max_gpus
        self._cache: dict = cache if cache is not None else {}
        self._spec_key = (load.model_dump_json(), model.key, model.params)

    # -------------------------------------------------------------- one estimate

    def request(self, weights: WeightFormat, gpus: int, per_node: int, nodes: int, copies: int) -> ServingRequest:
        s = self.spec
        return ServingRequest(
            weights=weights, engine=s.engine, gpus=gpus, nodes=nodes, gpus_per_node=per_node,
            input_len=s.input_len, output_len=s.output_len, load=_share(self.load, copies), ttft_ms=s.ttft_ms,
            min_tokens_per_user=s.min_tokens_per_user, traffic=s.traffic,
            **({"vllm_engine": s.vllm_engine} if s.vllm_engine else {}),
            **({"vllm_sampler": s.vllm_sampler} if s.vllm_sampler else {}),
            **({"engine_version": s.engine_version} if s.engine_version else {}),
        )

    def estimate(self, gpu: GPU, per_node: int, nodes: int, weights: WeightFormat, copies: int) -> ServingEstimate | Note | None:
        """The best layout of `nodes` × `per_node` GPUs for one copy's share (a Note: the estimator refused)."""
        key = (gpu.key, per_node, nodes, weights, copies, self._spec_key)
        if key not in self._cache:
            gpus = per_node * nodes
            req = self.request(weights, gpus, per_node, nodes, copies)
            best: ServingEstimate | Note | None = None
            scheduling = EngineScheduling(async_scheduling=True) if self.spec.async_scheduling else None
            try:
                for lay in layouts(self.model, gpus, req):
                    est = evaluate(self.model, gpu, req, lay, scheduling)
                    if best is None or _key(est) > _key(best):  # type: ignore[arg-type]
                        best = est
            except InputError as err:
                if err.note is None:
                    raise
                best = err.note
            self._cache[key] = best
        return self._cache[key]

    # -------------------------------------------------------------- one instance type

    def weights_gib(self, weights: WeightFormat) -> float:
        return weight_bytes(self.model, weights) / GIB

    def fit(self, inst: Instance, gpu: GPU, weights: WeightFormat) -> ServingFit:
        per_node = int(inst.gpu_count)
        nodes = 1
        if not gpu.memory_bandwidth_gbps:  # no decode speed without it (the estimator's own refusal)
            return ServingFit(None, 1, 1, False, "estimate", Note.of(ServingError.no_bandwidth, gpu=gpu.key), 3.0)
        total_usable = gpu.usable_memory_gib * per_node
        if self.weights_gib(weights) > total_usable and not rdma_class(inst):  # no estimate needed to say no
            return self._no_weights(gpu, per_node, weights, None)
        est = self.estimate(gpu, per_node, 1, weights, 1)
        if isinstance(est, Note):
            return ServingFit(None, 1, 1, False, "fit", Note.of(RecommendCode.reject_fit_error, error=est), 10.0)
        if est is None or not est.weights_fit:
            found = None
            if rdma_class(inst):
                for n in range(2, min(MAX_NODES, self.max_gpus // per_node) + 1):
                    e = self.estimate(gpu, per_node, n, weights, 1)
                    if isinstance(e, ServingEstimate) and e.weights_fit:
                        found, nodes = e, n
                        break
            if found is None:
                return self._no_weights(gpu, per_node, weights, est)
            est = found
        if self._carries(est):
            return ServingFit(est, 1, nodes, True)
        most = max(1, self.max_gpus // (per_node * nodes))
        last, last_copies = est, 1
        for copies in self._copies_to_try(est, most):
            e = self.estimate(gpu, per_node, nodes, weights, copies)
            if not isinstance(e, ServingEstimate):
                break
            last, last_copies = e, copies
            if self._carries(e):
                return ServingFit(e, copies, nodes, True)
        return self._miss(last, last_copies)

    def margin_sequences(self, e: ServingEstimate) -> int:
        """The sequences one copy's KV pool must hold: its share of the load and `KV_MARGIN` more, whole."""
        wanted = e.concurrency * e.replicas
        return math.ceil(wanted - 1e-9) + math.floor(wanted * KV_MARGIN + 1e-9)

    def _carries(self, e: ServingEstimate) -> bool:
        """The copy carries its share with the KV margin: a concurrency or request-rate load only (a static batch or
        the maximum throughput asks for no margin)."""
        if not e.ok:
            return False
        if self.load is None or self.load.kind not in (LoadKind.concurrency, LoadKind.request_rate, LoadKind.requests_per_day):
            return True
        return e.max_concurrency >= self.margin_sequences(e)

    def _no_weights(self, gpu: GPU, per_node: int, weights: WeightFormat, est) -> ServingFit:
        need, usable = self.weights_gib(weights), gpu.usable_memory_gib * per_node
        if isinstance(est, ServingEstimate):  # what the engine leaves for weights + KV cache after its fraction and overhead
            usable = max(0.0, est.usable_gib - est.overhead_gib) * per_node
        reason = Note.of(ServeRecCode.reject_weights, weights=weights, weights_gib=round(need, 1),
                         usable_gib=round(usable, 1), gpus=per_node, gpu=gpu.key)
        return ServingFit(est if isinstance(est, ServingEstimate) else None, 1, 1, False, "fit", reason,
                          1.0 + need / max(usable, 1e-9))

    def _copies_to_try(self, est: ServingEstimate, most: int) -> list[int]:
        """Copies worth trying: the first guess from the load, a few one by one, then doubling, up to `most`."""
        guess = 2
        if self.load is not None and self.load.kind == LoadKind.concurrency and est.weights_fit and not est.fits:
            guess = max(2, math.ceil(float(self.load.value) / max(1, est.max_concurrency)))  # type: ignore[arg-type]
        elif est.saturated and est.max_req_s > 0:
            rate = arrival_rate_per_s(est.load) or est.req_s
            guess = max(2, math.ceil(rate / est.max_req_s))
        guess = min(guess, most)
        out = list(range(guess, min(most, guess + LINEAR_STEPS - 1) + 1))
        n = out[-1] if out else guess
        while n < most:
            n = min(most, n * 2)
            out.append(n)
        return [c for c in out if 2 <= c <= most]

    def _miss(self, e: ServingEstimate, copies: int) -> ServingFit:
        """Why the largest deployment tried misses: a request rate it cannot keep up with (the queue then fills
        the KV pool too, so saturation is named first), the KV cache for the load, or a latency target."""
        if e.saturated:
            rate = arrival_rate_per_s(self.load) if self.load is not None else None
            reason = Note.of(ServeRecCode.reject_saturated, request_rate_req_s=round(rate or e.req_s, 4),
                             max_req_s=round(e.max_req_s * copies, 4), copies=copies)
            return ServingFit(e, copies, e.nodes, False, "throughput", reason, 0.5)
        if not e.fits:
            wanted = int(self.load.value) if self.load and self.load.kind == LoadKind.concurrency else round(e.concurrency * e.replicas)
            reason = Note.of(ServeRecCode.reject_kv, concurrency=wanted, max_concurrency=e.max_concurrency * copies,
                             copies=copies)
            return ServingFit(e, copies, e.nodes, False, "fit", reason, 0.5)
        if e.ok:  # the load fits, its margin does not
            reason = Note.of(ServeRecCode.reject_kv_margin, needed=self.margin_sequences(e) * copies,
                             max_concurrency=e.max_concurrency * copies, margin_fraction=KV_MARGIN, copies=copies)
            return ServingFit(e, copies, e.nodes, False, "fit", reason, 0.25)
        s = self.spec
        reason = Note.of(ServeRecCode.reject_targets, ttft_ms=round(e.ttft_ms, 1), target_ms=s.ttft_ms,
                         tokens_per_user_s=round(e.tokens_per_user_s, 1), target_tok_s=s.min_tokens_per_user, copies=copies)
        over = max(e.ttft_ms / s.ttft_ms - 1 if s.ttft_ms else 0.0,
                   s.min_tokens_per_user / max(e.tokens_per_user_s, 1e-9) - 1 if s.min_tokens_per_user else 0.0)
        return ServingFit(e, copies, e.nodes, False, "latency", reason, over)
