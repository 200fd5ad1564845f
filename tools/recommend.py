"""Configuration recommender: filter → fit → price → rank, with near-misses and suggestions.

`recommend(catalog, model, request, fx, today=...)` walks every catalog instance once:

1. scope: provider / GPU filters, `max_gpus`, region (cn = mainland China
   instances only, intl = the rest, any = all);
2. software support (tools.recommend_software, the catalog's sourced rules): GPUs
   that current frameworks do not run for LLM work (compute capability < 6.0,
   MI25-class; Pascal unless the user names it) are near-misses; caveats
   (pre-Turing wheels, no FlashAttention-2, Ascend ports) become warnings.
   Fractional GPUs (vGPU slices) are never offered for training;
3. fit: per-GPU memory on the instance's own GPUs (`MemoryPlanner`: the
   single-GPU estimate when one GPU holds the job, else ZeRO-3 / tensor parallel
   over the instance's GPUs) against the GPU's usable GiB; when no single
   machine holds the job, multi-node clusters of up to `max_gpus` GPUs, which
   need InfiniBand/RDMA-class networking. With a serving load
   (`request.serving`) the fit is the serving estimator's instead
   (tools.recommend_serving): the weights plus the KV cache for the load, the
   latency targets met, with copies of the machine when one is not enough;
4. checks: BF16/FP8 when explicitly requested, export restrictions for region
   cn, thin hosts (seed guidance), PCIe-only sharded training (slow);
5. price (tools.recommend_rank): the requested billing, else the cheapest
   listed billing that covers the need (the job; a month of use; an hour),
   converted at the configured rate; job cost from the training-time estimate
   (spot with the expected rework, see tools.cost);
6. budget, a hard constraint: over-budget offers are near-misses; when no
   priced offer fits, the cheapest priced one is shown first with its overshoot
   and a notice says so;
7. rank: priced mainland offers first for a CNY budget or region cn; then the
   real cost, with fit quality, price freshness and grade reordering options
   only within a 10 % cost band. Instances that fit but have no price follow as
   "fits; price unknown — check the console", never first.

Near-misses (over budget, does not fit, obsolete GPU, vGPU slice for training,
no BF16, PCIe only, thin host, export-restricted, no RDMA across nodes, outside
the region, a serving target missed) are returned with the reason, a few of
each kind. When nothing priced fits, `tools.recommend_suggest` re-runs the
recommender with one change at a time and reports what works. Serving loads
with no weight format named also get the best FP8 and INT4 (AWQ) options
beside the bf16 ones (`Recommendation.quantised`), each with its quality caveat.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable

from tools.catalog import Catalog
from tools.domain import (
    Billing,
    Checkpointing,
    Currency,
    GPU,
    Instance,
    Mode,
    ModelKind,
    ModelSpec,
    Precision,
    RegionScope,
)
from tools.errors import ErrorCode, InputError
from tools.money import convert, default_currency
from tools.notes import Note
from tools.recommend_codes import RankCode, RecommendError, ServeRecCode
from tools.recommend_codes import RecommendCode as C
from tools.recommend_host import check_host, has_nvlink, in_region, rdma_class
from tools.recommend_memory import TRAINING_MODES, MemoryPlanner, Plan
from tools.recommend_output import (
    SPOT_DEFAULTS,
    Candidate,
    Miss,
    assumptions_for,
    near_misses,
    option,
    period_cost,
    rejection,
    why,
)
from tools.recommend_rank import COST_BAND, TIGHT_HEADROOM, fit_problems, job_cost, monthly_of, need_of, pick_price, rank
from tools.recommend_serving import KV_MARGIN, ServingPlanner
from tools.recommend_software import SoftwareChecker, fractional_note, is_llm, proposes_fp8, proposes_int4
from tools.schemas import ExchangeRate, Recommendation, RecommendRequest, TrainTimeEstimate, TrainTimeRequest
from tools.serving_codes import ServingCode, ServingError
from tools.serving_profiles import WeightFormat
from tools.train_time import estimate_train_time

MAX_NODES = 64
# serving-estimate assumptions worth repeating on the recommendation (the pick's)
SERVING_ASSUMPTIONS = {c.value for c in (ServingCode.lengths_default, ServingCode.load_default, ServingCode.peak_factor,
                                         ServingCode.load_closed_loop, ServingCode.load_open_loop,
                                         ServingCode.engine_profile, ServingCode.engine_uncalibrated)}


# ------------------------------------------------------------------ helpers


class _JobTimer:
    """Training time per (GPU, GPU count), cached; None when no tokens or inference."""

    def __init__(self, model: ModelSpec | None, request: RecommendRequest):
        self.model = model
        self.request = request
        self.enabled = model is not None and request.tokens is not None and request.vram.mode in TRAINING_MODES
        self._cache: dict[tuple[str, int], TrainTimeEstimate | Note] = {}

    def estimate(self, gpu: GPU, gpus: int) -> TrainTimeEstimate | Note | None:
        """The estimate, or the note of the error that prevented it (e.g. no sourced peak for the precision)."""
        if not self.enabled:
            return None
        key = (gpu.key, gpus)
        if key not in self._cache:
            vram = self.request.vram
            precision = vram.precision
            if precision is None and vram.mode != Mode.qlora and not gpu.bf16_supported:
                precision = Precision.fp16  # the default bf16 runs as fp16 mixed precision on V100/T4
            # Time counts recomputation only when the user states checkpointing, as estimate_train_time does:
            # the default MFUs are calibrated by 6ND (LLaMA Table 15), so the runs' recomputation is already in
            # them, and one answer must not show two training times (the memory side still assumes checkpoints).
            checkpointing = vram.checkpointing or Checkpointing.none
            try:
                self._cache[key] = estimate_train_time(
                    self.model,
                    gpu,
                    TrainTimeRequest(
                        mode=vram.mode,
                        precision=precision,
                        tokens=self.request.tokens,
                        epochs=self.request.epochs,
                        gpus=gpus,
                        mfu=self.request.mfu,
                        checkpointing=checkpointing,
                    ),
                )
            except InputError as err:
                if err.note is None:
                    raise
                self._cache[key] = err.note
        return self._cache[key]


def _usable(inst: Instance, gpu: GPU) -> float:
    # a fractional GPU (vGPU slice) gets its share of the card's memory
    return gpu.usable_memory_gib * min(inst.gpu_count, 1.0)


class _Run:
    """What one recommender run shares between its steps."""

    def __init__(self, catalog: Catalog, model: ModelSpec | None, request: RecommendRequest, fx: ExchangeRate,
                 today: dt.date, cache: dict | None):
        self.request = request
        self.fx = fx
        self.today = today
        self.currency = request.currency or default_currency(request.region)
        self.training = request.vram.mode in TRAINING_MODES
        self.need = need_of(request, self.training)
        self.providers = {catalog.provider(p).key for p in request.providers}
        self.gpu_only = catalog.gpu(request.gpu).key if request.gpu else None
        self.prefer_cn = request.region == RegionScope.cn or self.currency == Currency.CNY
        # a USD answer for any region: offers outside mainland China first (mainland platforms bill in CNY and
        # most need a mainland real-name account); a CNY budget or region cn: mainland offers first
        self.mainland = "first" if self.prefer_cn else ("last" if request.region == RegionScope.any else "any")
        self.software = SoftwareChecker(catalog.software_rules, llm=is_llm(model), named_gpu=self.gpu_only)
        self.planner = MemoryPlanner(model, request.vram, request.required_gib)
        self.timer = _JobTimer(model, request)
        self.cache = cache if cache is not None else {}  # serving estimates, shared with the suggestion re-runs
        self.serving = None
        self.formats: list[WeightFormat] = []
        if request.serving is not None:
            assert model is not None
            self.serving = ServingPlanner(model, request.serving, request.max_gpus, self.cache)
            self.formats = [request.serving.weights or WeightFormat.bf16]
            if request.serving.weights is None:
                self.formats += [WeightFormat.fp8, WeightFormat.int4]

    def proposes(self, fmt: WeightFormat, gpu: GPU) -> bool:
        """FP8 where the GPU runs it natively, INT4 AWQ where vLLM's kernels run."""
        return proposes_fp8(gpu, self.software) if fmt == WeightFormat.fp8 else proposes_int4(gpu)


def _check_request(model: ModelSpec | None, request: RecommendRequest) -> None:
    if model is None and request.required_gib is None:
        raise InputError(Note.of(ErrorCode.no_workload))
    if request.period == "job" and request.tokens is None:
        raise InputError(Note.of(ErrorCode.job_budget_needs_tokens))
    if request.period == "job" and request.vram.mode == Mode.inference:
        raise InputError(Note.of(ErrorCode.job_budget_needs_training))
    if request.deadline_hours is not None and (request.tokens is None or request.vram.mode == Mode.inference):
        raise InputError(Note.of(ErrorCode.deadline_needs_tokens))
    if request.serving is not None:
        if request.vram.mode != Mode.inference:
            raise InputError(Note.of(RecommendError.serving_needs_inference, mode=request.vram.mode))
        if model is None:
            raise InputError(Note.of(RecommendError.serving_needs_model))
        if model.kind != ModelKind.decoder:
            raise InputError(Note.of(ServingError.not_decoder, model=model.name, kind=model.kind.value))


# ------------------------------------------------------------------ main


def recommend(
    catalog: Catalog,
    model: ModelSpec | None,
    request: RecommendRequest,
    fx: ExchangeRate,
    *,
    today: dt.date | None = None,
    suggest: bool = True,
    _cache: dict | None = None,
) -> Recommendation:
    """Rank the catalog's instances for a workload, with near-misses and, when nothing fits, what would.

    Args:
        catalog: GPUs, priced instances and software-support rules (knowledge.catalog.load_catalog()).
        model: the model to run, or None with `request.required_gib` (a raw memory need).
        request: workload (vram), budget/period/currency, region, providers, billing, max GPUs, tokens × epochs,
            and for serving a load (`request.serving`).
        fx: the configured exchange rate; every converted figure states it.
        today: the day price ages are counted to (Settings.today_date); None: the real date.
        suggest: when nothing priced fits, re-run with one change at a time to say what would (internal flag).

    Returns:
        Recommendation: options (priced first, ranked by real cost; then "price unknown"), rejected
        near-misses, the base VRAM estimate, the currency, the rate, assumptions, notices and suggestions,
        and for serving the quantised variants.
    """
    _check_request(model, request)
    run = _Run(catalog, model, request, fx, today or dt.date.today(), _cache)
    assumptions: list[Note] = []
    misses: list[Miss] = []
    fitting: list[Candidate] = []
    scoped: list[tuple[Instance, GPU]] = []  # serving: in scope and supported, for the quantised variants
    unplaced: list[tuple[Instance, GPU]] = []  # in scope, whole-number GPUs, did not fit on one machine
    skipped_unknown_gpu = 0
    any_single_fit = False

    for inst in catalog.instances:
        if run.providers and inst.provider not in run.providers:
            continue
        gpu = catalog.gpus.get(inst.gpu)
        if gpu is None:
            skipped_unknown_gpu += 1
            continue
        if run.gpu_only and gpu.key != run.gpu_only:
            continue
        if inst.gpu_count > request.max_gpus:
            continue
        usable = _usable(inst, gpu)
        gpus = max(1, int(inst.gpu_count))
        if not in_region(inst, request.region):
            plan = run.planner.for_gpus(gpus, gpus, usable)
            if plan.per_gpu_gib <= usable:
                misses.append(_region_miss(inst, gpu, request.region))
            continue
        if run.software.verdict(gpu).exclude is not None:
            misses.append(Miss(inst, gpu.key, "software", run.software.reject_note(gpu), 2.0))
            continue
        if inst.gpu_count < 1 and (run.training or run.serving is not None):
            misses.append(Miss(inst, gpu.key, "fractional",
                               fractional_note(inst.gpu_count, gpu, training=run.training), 1.5))
            continue
        if run.serving is not None:
            scoped.append((inst, gpu))
            c = _serving_candidate(run, inst, gpu, run.formats[0], misses)
            if c is not None:
                fitting.append(c)
            continue
        plan = run.planner.for_gpus(gpus, gpus, usable)
        if plan.per_gpu_gib > usable:
            misses.append(_fit_miss(inst, gpu, plan, usable))
            if inst.gpu_count >= 1 and inst.gpu_count == int(inst.gpu_count):
                unplaced.append((inst, gpu))
            continue
        any_single_fit = True
        fitting.append(Candidate(inst, gpu, 1, plan, usable))
        faster = _deadline_cluster(run, inst, gpu, usable)
        if faster is not None:
            fitting.append(faster)

    if run.serving is None and not any_single_fit and request.max_gpus > 1:
        clustered = _clusters(unplaced, run.planner, request, misses, assumptions, run.timer)
        fitting.extend(clustered)
        # an instance that fits as a cluster (or would, given RDMA) is no longer a "does not fit" near-miss
        placed = {id(c.inst) for c in clustered} | {id(m.inst) for m in misses if m.kind == "network"}
        misses = [m for m in misses if not (m.kind == "fit" and id(m.inst) in placed)]

    if request.deadline_hours is not None and any(c.nodes > 1 for c in fitting) \
            and not any(n.code == C.multi_node for n in assumptions):
        # a time limit's clusters of machines that each hold the job
        assumptions.append(Note.of(C.multi_node_deadline, deadline_hours=request.deadline_hours))
    priced, unknown, over = _price_and_rank(run, fitting, misses)
    # one machine of a type whose cluster meets the time limit is no "too slow" near-miss: the cluster is the option
    clustered_in_time = {id(c.inst) for c in priced + unknown if c.nodes > 1}
    misses = [m for m in misses if not (m.kind == "deadline" and id(m.inst) in clustered_in_time)]
    notices: list[Note] = []
    if request.budget is not None and not priced and over:
        cheapest = min(over, key=lambda c: period_cost(c, request.period) or float("inf"))
        cost = period_cost(cheapest, request.period) or 0.0
        cheapest.over_budget = cost / request.budget - 1
        misses = [m for m in misses if not (m.kind == "budget" and m.inst is cheapest.inst)]
        priced = [cheapest]
        notices.append(Note.of(RankCode.none_within_budget, budget=request.budget, currency=run.currency,
                               period=request.period, provider=cheapest.inst.provider, instance=cheapest.inst.instance,
                               gpu_count=cheapest.inst.gpu_count, gpu=cheapest.gpu.key, nodes=cheapest.nodes,
                               cost=cost, over_fraction=cheapest.over_budget))
    if not priced and request.billing is not None:
        # "spot in mainland China": offers exist but none lists this billing; say so before unpriced options
        listed_elsewhere = sum(1 for m in misses if m.kind == "billing")
        if listed_elsewhere:
            notices.append(Note.of(RankCode.no_price_in_billing, billing=request.billing, instances=listed_elsewhere,
                                   unpriced=len(unknown)))
    chosen = _dedupe(priced, request.top_k) + _dedupe(unknown, request.top_k)
    options = [option(c, request, run.currency, fx, run.prefer_cn, run.today, run.need) for c in chosen]

    base = priced[0] if priced and priced[0].over_budget is None else None
    quantised = [v for fmt in run.formats[1:] if (v := _variant(run, fmt, scoped, base)) is not None]

    if skipped_unknown_gpu:
        assumptions.append(Note.of(C.skipped_unknown_gpu, instances=skipped_unknown_gpu))
    assumptions.extend(assumptions_for(request, run.currency, run.planner, run.timer.enabled, fx, chosen))
    assumptions.append(Note.of(RankCode.basis, need=run.need, band_fraction=COST_BAND, headroom_fraction=TIGHT_HEADROOM,
                               mainland_first=run.mainland == "first", mainland_last=run.mainland == "last"))
    if run.serving is not None:
        assumptions.append(Note.of(ServeRecCode.basis, max_gpus=request.max_gpus, margin_fraction=KV_MARGIN))
        top = next((c for c in chosen if c.serving is not None), None)
        if top is not None:
            assumptions.extend(n for n in top.serving.assumptions if n.code in SERVING_ASSUMPTIONS)
        if quantised:
            assumptions.append(Note.of(ServeRecCode.variants, formats=[o.weights for o in quantised]))
    result = Recommendation(
        options=options,
        rejected=[rejection(m) for m in near_misses(misses)],
        vram=None if run.serving is not None else run.planner.single().estimate,
        currency=run.currency,
        exchange_rate=fx,
        assumptions=assumptions,
        notices=notices,
        quantised=quantised,
        prices_aged_on=run.today,
    )
    if suggest and not any(o.price_per_hour is not None and o.within_budget is not False for o in result.options):
        from tools.recommend_suggest import suggestions

        result.suggestions = suggestions(catalog, model, request, fx, run.currency, today=run.today, cache=run.cache)
    return result


# ------------------------------------------------------------------ steps


def _serving_candidate(run: _Run, inst: Instance, gpu: GPU, fmt: WeightFormat, misses: list[Miss]) -> Candidate | None:
    """The deployment of `fmt` weights on this instance type that carries the load, or a near-miss."""
    assert run.serving is not None
    f = run.serving.fit(inst, gpu, fmt)
    if not f.ok or f.est is None:
        if f.reason is not None:
            misses.append(Miss(inst, gpu.key, f.kind, f.reason, f.score))
        return None
    est = f.est
    how = Note.of(ServeRecCode.layout, copies=f.copies, gpus=est.gpus, tp=est.tp, pp=est.pp, nodes=est.nodes,
                  replicas=est.replicas)
    plan = Plan(per_gpu_gib=est.per_gpu_gib, gpus=est.gpus * f.copies, sharded=est.tp * est.pp > 1, how=how)
    c = Candidate(inst, gpu, f.nodes, plan, est.usable_gib, serving=est, copies=f.copies, weights=fmt)
    c.slow_link = est.tp > 1 and not has_nvlink(inst, gpu)
    c.warnings.extend(est.caveats)
    return c


def _variant(run: _Run, fmt: WeightFormat, scoped: list[tuple[Instance, GPU]], base: Candidate | None) -> "Option | None":
    """The best option with `fmt` weights, when it costs less than the bf16 pick (or bf16 has none)."""
    base_cost = period_cost(base, run.need) if base is not None else None
    cands = []
    for inst, gpu in scoped:
        if not run.proposes(fmt, gpu):
            continue
        floor = _price_floor(run, inst)
        if base_cost is not None and (floor is None or floor >= base_cost):
            continue  # one machine of it already costs as much as the bf16 pick: no estimate needed
        c = _serving_candidate(run, inst, gpu, fmt, [])
        if c is not None:
            cands.append(c)
    best, _, _ = _price_and_rank(run, cands, [])
    if not best or (base_cost is not None and (period_cost(best[0], run.need) or float("inf")) >= base_cost):
        return None
    c = best[0]
    opt = option(c, run.request, run.currency, run.fx, run.prefer_cn, run.today, run.need)
    opt.reasons.insert(0, Note.of(ServeRecCode.variant, weights=fmt, cost=period_cost(c, run.need), base_cost=base_cost,
                                  currency=run.currency, period=run.need))
    return opt


def _price_floor(run: _Run, inst: Instance) -> float | None:
    """The least one machine of `inst` costs for the need (None: unpriced)."""
    price, billing, _ = pick_price(inst, run.request, run.need, currency=run.currency, fx=run.fx, scale=1,
                                   job_hours=None, spot_defaults=SPOT_DEFAULTS)
    if price is None:
        return None
    per_hour, _ = convert(price.per_hour, price.currency, run.currency, run.fx)
    return per_hour if run.need == "hour" else monthly_of(per_hour, billing, run.request.hours_per_month)


def _price_and_rank(run: _Run, cands: list[Candidate], misses: list[Miss]):
    """(priced ranked, unpriced sorted, over budget) for one list of fitting candidates."""
    options: list[Candidate] = []
    over: list[Candidate] = []
    for c in cands:
        verdict = _price_and_check(c, run, misses)
        if verdict is True:
            options.append(c)
        elif verdict == "budget":
            over.append(c)
    options = _drop_slow_if_clean_exists(options, misses)
    for c in options:
        c.problems = fit_problems(c)
    priced = rank([c for c in options if c.per_hour is not None], run.need, run.mainland, run.today, period_cost)
    unknown = sorted(
        (c for c in options if c.per_hour is None),
        key=lambda c: (_group(run.mainland, c), c.total_gpus, c.inst.provider, c.inst.instance),
    )
    # an instance priced in one region is not repeated as "price unknown" from another region
    priced_names = {(c.inst.provider, c.inst.instance) for c in priced}
    unknown = [c for c in unknown if (c.inst.provider, c.inst.instance) not in priced_names]
    return priced, unknown, over


def _group(mainland: str, c: Candidate) -> int:
    """0 for the region group listed first (see _Run.mainland), 1 for the other."""
    if mainland == "first":
        return 0 if c.inst.region.china_mainland else 1
    if mainland == "last":
        return 1 if c.inst.region.china_mainland else 0
    return 0


def _region_miss(inst: Instance, gpu: GPU, region: RegionScope) -> Miss:
    if region == RegionScope.cn and gpu.restricted_in_china:
        return Miss(inst, gpu.key, "export", why(C.reject_export, gpu=gpu.key, gpu_name=gpu.name), 0.2)
    return Miss(inst, gpu.key, "region", why(C.reject_region, region=region), 0.5)


def _fit_miss(inst: Instance, gpu: GPU, plan: Plan, usable: float) -> Miss:
    if plan.error:
        return Miss(inst, gpu.key, "fit", why(C.reject_fit_error, error=plan.error), 10.0)
    short = plan.per_gpu_gib - usable
    reason = why(
        C.reject_fit, needed_gib=round(plan.per_gpu_gib, 3), gpu=gpu.key, usable_gib=round(usable, 3),
        short_gib=round(short, 3), layout=plan.how,
    )
    return Miss(inst, gpu.key, "fit", reason, plan.per_gpu_gib / usable - 1)


def _clusters(
    unplaced: list[tuple[Instance, GPU]],
    planner: MemoryPlanner,
    request: RecommendRequest,
    misses: list[Miss],
    assumptions: list[Note],
    timer: "_JobTimer | None" = None,
) -> list[Candidate]:
    """Smallest multi-node cluster of each instance type that holds the job (nodes × GPUs ≤ max_gpus) and, with a
    time limit, finishes within it (else the smallest that holds it, which the limit makes a near-miss)."""
    out: list[Candidate] = []
    for inst, gpu in unplaced:
        per_node = int(inst.gpu_count)
        usable = _usable(inst, gpu)
        for nodes in range(2, min(MAX_NODES, request.max_gpus // per_node) + 1):
            plan = planner.for_gpus(nodes * per_node, per_node, usable)
            if plan.per_gpu_gib > usable:
                continue
            if request.deadline_hours is not None and timer is not None and rdma_class(inst):
                tte = timer.estimate(gpu, nodes * per_node)
                last = nodes == min(MAX_NODES, request.max_gpus // per_node)
                if isinstance(tte, TrainTimeEstimate) and tte.hours > request.deadline_hours and not last:
                    continue
            if not rdma_class(inst):
                reason = why(C.reject_network, nodes=nodes, gpus_per_node=per_node, instance=inst.instance)
                misses.append(Miss(inst, gpu.key, "network", reason, 0.3))
            else:
                out.append(Candidate(inst, gpu, nodes, plan, usable))
            break
    if out:
        assumptions.append(Note.of(C.multi_node))
    return out


def _deadline_cluster(run: _Run, inst: Instance, gpu: GPU, usable: float) -> Candidate | None:
    """Where one machine holds the job but is too slow for the time limit: the fewest machines of the same type
    that finish in time (RDMA-class networking only, as for clusters that hold what one machine cannot), within
    max_gpus. The single machine stays a candidate; the limit then makes it a near-miss that says by how much."""
    request = run.request
    if request.deadline_hours is None or not run.timer.enabled or not rdma_class(inst):
        return None
    per_node = int(inst.gpu_count)
    if per_node < 1 or per_node != inst.gpu_count:
        return None
    single = run.timer.estimate(gpu, per_node)
    if not isinstance(single, TrainTimeEstimate) or single.hours <= request.deadline_hours:
        return None
    for nodes in range(2, min(MAX_NODES, request.max_gpus // per_node) + 1):
        tte = run.timer.estimate(gpu, nodes * per_node)
        if isinstance(tte, TrainTimeEstimate) and tte.hours <= request.deadline_hours:
            plan = run.planner.for_gpus(nodes * per_node, per_node, usable)
            return Candidate(inst, gpu, nodes, plan, usable) if plan.per_gpu_gib <= usable else None
    return None


def _price_and_check(c: Candidate, run: _Run, misses: list[Miss]) -> "bool | str":
    """Fill price, time and warnings; True when kept, False or "budget" (a near-miss recorded) when rejected."""
    inst, gpu, request, currency = c.inst, c.gpu, run.request, run.currency

    def reject(kind: str, reason: "Note | Callable[[], Note]", score: float) -> bool:
        misses.append(Miss(inst, gpu.key, kind, reason, score))
        return False

    wanted = request.vram.precision
    if wanted == Precision.bf16 and not gpu.bf16_supported:
        return reject("bf16", why(C.reject_bf16, gpu=gpu.key), 0.1)
    if wanted == Precision.fp8 and not gpu.fp8_supported:
        return reject("fp8", why(C.reject_fp8, gpu=gpu.key), 0.1)
    if wanted is None and request.vram.mode in TRAINING_MODES and not gpu.bf16_supported:
        c.warnings.append(Note.of(C.warn_no_bf16, gpu=gpu.key))

    host = check_host(inst, gpu)
    if host.severe and host.note is not None:
        return reject("host", host.note, 0.4)
    if host.thin and host.note is not None:
        c.warnings.append(host.note)
        c.thin_host = True
    software = run.software.warnings(gpu)
    if software:
        c.warnings.extend(software)
        c.software_caveat = True

    if request.region == RegionScope.cn and gpu.restricted_in_china:
        c.warnings.append(Note.of(C.warn_export_fleet, gpu=gpu.key))
    if c.plan.sharded and c.plan.gpus > 1 and not has_nvlink(inst, gpu):
        if request.vram.mode in TRAINING_MODES:
            c.slow = True
            c.warnings.append(Note.of(C.warn_pcie_slow, layout=c.plan.layout))
        else:  # tensor parallel inference over PCIe: works, but each layer's all-reduce crosses PCIe (a fit problem)
            c.slow_link = True
    if c.nodes == 1 and inst.gpu_count < 1:
        c.warnings.append(Note.of(C.warn_vgpu, fraction=inst.gpu_count, gpu=gpu.key, usable_gib=round(c.usable_gib, 3)))

    tte = run.timer.estimate(gpu, c.total_gpus)
    if isinstance(tte, Note) and request.deadline_hours is not None:
        # an option that cannot be timed cannot be shown to meet the limit: a near-miss that says why
        return reject("deadline", why(C.reject_deadline_untimed, error=tte, deadline_hours=request.deadline_hours), 5.0)
    if isinstance(tte, Note):
        c.warnings.append(Note.of(C.warn_no_time, error=tte))
    elif tte is not None:
        c.train = tte
        c.job_hours = tte.hours
        limit = request.deadline_hours
        if limit is not None and tte.hours > limit:
            over = tte.hours / limit - 1
            return reject("deadline", why(C.reject_deadline, hours=tte.hours, deadline_hours=limit, over_fraction=over), over)

    price, billing, compared = pick_price(inst, request, run.need, currency=currency, fx=run.fx, scale=c.scale,
                                          job_hours=c.job_hours, spot_defaults=SPOT_DEFAULTS)
    if price is None and inst.prices:
        # priced, but not in the requested mode: a near-miss, not "price unknown"
        listed = [p.billing for p in inst.prices]
        return reject("billing", why(C.reject_billing, billing=billing, listed=listed), 0.6)
    c.price, c.billing, c.compared = price, billing, compared
    if price is not None and billing == Billing.spot and request.billing is None:
        c.warnings.append(Note.of(RankCode.spot_only))
        c.interruptible = True
    if price is not None:
        per_hour, c.converted = convert(price.per_hour, price.currency, currency, run.fx)
        c.per_hour = per_hour * c.scale
        c.monthly = monthly_of(c.per_hour, billing, request.hours_per_month)
        if request.billing is None and billing == Billing.on_demand:
            spot = inst.price(Billing.spot)
            if spot is not None and spot.per_hour < price.per_hour:
                spot_h, _ = convert(spot.per_hour, spot.currency, currency, run.fx)
                c.cheaper = Note.of(C.option_cheaper_spot, price_per_hour=spot_h * c.scale, currency=currency)
        if c.job_hours is not None:
            c.job_cost = job_cost(c.per_hour, c.job_hours, billing, SPOT_DEFAULTS)

    if request.budget is not None and price is not None:
        cost = period_cost(c, request.period)
        if cost is not None and cost > request.budget:
            over = cost / request.budget - 1
            reason = why(C.reject_budget, cost=cost, budget=request.budget, currency=currency,
                         period=request.period, over_fraction=over)
            reject("budget", reason, over)
            return "budget"
    return True


def _drop_slow_if_clean_exists(options: list[Candidate], misses: list[Miss]) -> list[Candidate]:
    """PCIe-only sharded training is rejected when an option without that problem exists; so is a model split by
    tensor parallelism across more than two GPUs over PCIe when a priced option holds it on one GPU or over NVLink.

    Why serving too: every layer's all-reduce then crosses PCIe (through host memory on GeForce cards, which have
    no peer-to-peer), the deployment has more parts to fail, and the saving over one larger card is small — a
    senior engineer shards that wide only when no single card or NVLink box will do. Two cards over PCIe stay
    (the common two-card rig: half the all-reduce partners, and 3090 pairs can take an NVLink bridge); they rank
    by cost with the slow link as a fit problem. Only priced clean options count, so the rule never puts an
    unpriced instance first.
    """
    def split_wide(c: Candidate) -> bool:  # tensor parallel over PCIe across more than two GPUs
        return c.slow_link and not c.slow and (c.serving.tp if c.serving is not None else c.plan.gpus) > 2

    kept = options
    if any(not c.slow for c in kept):
        kept = _reject(kept, misses, lambda c: c.slow, C.reject_pcie)
    if any(not c.slow_link and c.per_hour is not None for c in kept):
        kept = _reject(kept, misses, split_wide, C.reject_pcie_serving)
    return kept


def _reject(options: list[Candidate], misses: list[Miss], slow, code) -> list[Candidate]:
    """The options for which `slow` holds become PCIe near-misses with `code`; the rest stay."""
    for c in options:
        if slow(c):
            misses.append(Miss(c.inst, c.gpu.key, "pcie", why(code, layout=c.plan.layout), 0.3))
    return [c for c in options if not slow(c)]


def _dedupe(cands: list[Candidate], k: int) -> list[Candidate]:
    """Best per (provider, GPU, GPU count, nodes): five sizes of the same box are not five options."""
    seen, out = set(), []
    for c in cands:
        key = (c.inst.provider, c.gpu.key, c.inst.gpu_count, c.nodes)
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
        if len(out) == k:
            break
    return out
