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

from typing import Callable

from tools.catalog import Catalog
from tools.cost import TERM_HOURS, spot_paid_hours
from tools.domain import (
    Billing,
    Checkpointing,
    Currency,
    GPU,
    Instance,
    Mode,
    ModelSpec,
    Precision,
    Price,
    PriceGrade,
    RegionScope,
)
from tools.errors import ErrorCode, InputError
from tools.money import convert, default_currency
from tools.notes import Note
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
from tools.schemas import ExchangeRate, Recommendation, RecommendRequest, TrainTimeEstimate, TrainTimeRequest
from tools.train_time import estimate_train_time

# Default billing falls back in this order when a provider lists no on-demand price.
BILLING_FALLBACK = (Billing.on_demand, Billing.monthly, Billing.yearly, Billing.spot)
GRADE_RANK = {PriceGrade.official: 0, PriceGrade.user: 0, PriceGrade.third_party: 1, PriceGrade.marketplace: 2}
MAX_NODES = 64


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
            checkpointing = vram.checkpointing or Checkpointing.full  # the VRAM default for training
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


def _pick_price(inst: Instance, billing: Billing | None) -> tuple[Price | None, Billing]:
    if billing is not None:
        return inst.price(billing), billing
    for b in BILLING_FALLBACK:
        p = inst.price(b)
        if p is not None:
            return p, b
    return None, Billing.on_demand


def _job_cost(per_hour: float, hours: float, billing: Billing) -> float | None:
    if billing == Billing.spot:
        paid = spot_paid_hours(
            hours,
            SPOT_DEFAULTS.spot_interruptions_per_day,
            SPOT_DEFAULTS.checkpoint_interval_hours,
            SPOT_DEFAULTS.restart_overhead_hours,
        )
        return None if paid is None else per_hour * paid
    term = TERM_HOURS.get(billing)
    if term is not None:
        whole_terms = -(-hours // term) or 1.0  # ceil; a job pays at least one term
        return per_hour * whole_terms * term
    return per_hour * hours


def _usable(inst: Instance, gpu: GPU) -> float:
    # a fractional GPU (vGPU slice) gets its share of the card's memory
    return gpu.usable_memory_gib * min(inst.gpu_count, 1.0)


# ------------------------------------------------------------------ main


def recommend(
    catalog: Catalog,
    model: ModelSpec | None,
    request: RecommendRequest,
    fx: ExchangeRate,
    *,
    suggest: bool = True,
) -> Recommendation:
    """Rank the catalog's instances for a workload, with near-misses and, when nothing fits, what would.

    Args:
        catalog: GPUs and priced instances (knowledge.catalog.load_catalog()).
        model: the model to run, or None with `request.required_gib` (a raw memory need).
        request: workload (vram), budget/period/currency, region, providers, billing, max GPUs, tokens × epochs.
        fx: the configured exchange rate; every converted figure states it.
        suggest: when nothing fits, re-run with one change at a time to say what would (internal flag).

    Returns:
        Recommendation: options (priced first, then "price unknown"), rejected near-misses, the base
        VRAM estimate, the currency, the rate, assumptions and suggestions.
    """
    currency = request.currency or default_currency(request.region)
    if model is None and request.required_gib is None:
        raise InputError(Note.of(ErrorCode.no_workload))
    if request.period == "job" and request.tokens is None:
        raise InputError(Note.of(ErrorCode.job_budget_needs_tokens))
    if request.period == "job" and request.vram.mode == Mode.inference:
        raise InputError(Note.of(ErrorCode.job_budget_needs_training))
    providers = {catalog.provider(p).key for p in request.providers}
    gpu_only = catalog.gpu(request.gpu).key if request.gpu else None
    prefer_cn = request.region == RegionScope.cn or currency == Currency.CNY

    planner = MemoryPlanner(model, request.vram, request.required_gib)
    timer = _JobTimer(model, request)
    assumptions: list[Note] = []
    misses: list[Miss] = []
    fitting: list[Candidate] = []
    unplaced: list[tuple[Instance, GPU]] = []  # in scope, whole-number GPUs, did not fit on one machine
    skipped_unknown_gpu = 0
    any_single_fit = False

    for inst in catalog.instances:
        if providers and inst.provider not in providers:
            continue
        gpu = catalog.gpus.get(inst.gpu)
        if gpu is None:
            skipped_unknown_gpu += 1
            continue
        if gpu_only and gpu.key != gpu_only:
            continue
        if inst.gpu_count > request.max_gpus:
            continue
        usable = _usable(inst, gpu)
        gpus = max(1, int(inst.gpu_count))
        plan = planner.for_gpus(gpus, gpus, usable)
        fits = plan.per_gpu_gib <= usable
        if not in_region(inst, request.region):
            if fits:
                misses.append(_region_miss(inst, gpu, request.region))
            continue
        if not fits:
            misses.append(_fit_miss(inst, gpu, plan, usable))
            if inst.gpu_count >= 1 and inst.gpu_count == int(inst.gpu_count):
                unplaced.append((inst, gpu))
            continue
        any_single_fit = True
        fitting.append(Candidate(inst, gpu, 1, plan, usable))

    if not any_single_fit and request.max_gpus > 1:
        clustered = _clusters(unplaced, planner, request, misses, assumptions)
        fitting.extend(clustered)
        # an instance that fits as a cluster (or would, given RDMA) is no longer a "does not fit" near-miss
        placed = {id(c.inst) for c in clustered} | {id(m.inst) for m in misses if m.kind == "network"}
        misses = [m for m in misses if not (m.kind == "fit" and id(m.inst) in placed)]

    options: list[Candidate] = []
    for c in fitting:
        if _price_and_check(c, request, currency, fx, timer, misses):
            options.append(c)

    options = _drop_slow_if_clean_exists(options, misses)
    priced = sorted((c for c in options if c.per_hour is not None), key=_rank_key(request, prefer_cn))
    unknown = sorted(
        (c for c in options if c.per_hour is None),
        key=lambda c: (prefer_cn and not c.inst.region.china_mainland, c.total_gpus, c.inst.provider, c.inst.instance),
    )
    # an instance priced in one region is not repeated as "price unknown" from another region
    priced_names = {(c.inst.provider, c.inst.instance) for c in priced}
    unknown = [c for c in unknown if (c.inst.provider, c.inst.instance) not in priced_names]
    chosen = _dedupe(priced, request.top_k) + _dedupe(unknown, request.top_k)

    if skipped_unknown_gpu:
        assumptions.append(Note.of(C.skipped_unknown_gpu, instances=skipped_unknown_gpu))
    assumptions.extend(assumptions_for(request, currency, planner, timer.enabled, fx, chosen))
    result = Recommendation(
        options=[option(c, request, currency, fx, prefer_cn) for c in chosen],
        rejected=[rejection(m) for m in near_misses(misses)],
        vram=planner.single().estimate,
        currency=currency,
        exchange_rate=fx,
        assumptions=assumptions,
    )
    if suggest and not any(o.price_per_hour is not None for o in result.options):
        from tools.recommend_suggest import suggestions

        result.suggestions = suggestions(catalog, model, request, fx, currency)
    return result


# ------------------------------------------------------------------ steps


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
) -> list[Candidate]:
    """Smallest multi-node cluster of each instance type that holds the job (nodes × GPUs ≤ max_gpus)."""
    out: list[Candidate] = []
    for inst, gpu in unplaced:
        per_node = int(inst.gpu_count)
        usable = _usable(inst, gpu)
        for nodes in range(2, min(MAX_NODES, request.max_gpus // per_node) + 1):
            plan = planner.for_gpus(nodes * per_node, per_node, usable)
            if plan.per_gpu_gib > usable:
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


def _price_and_check(
    c: Candidate,
    request: RecommendRequest,
    currency: Currency,
    fx: ExchangeRate,
    timer: _JobTimer,
    misses: list[Miss],
) -> bool:
    """Fill price, time and warnings; False (and a near-miss recorded) when the candidate is rejected."""
    inst, gpu = c.inst, c.gpu

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

    if request.region == RegionScope.cn and gpu.restricted_in_china:
        c.warnings.append(Note.of(C.warn_export_fleet, gpu=gpu.key))
    if c.plan.sharded and c.plan.gpus > 1 and request.vram.mode in TRAINING_MODES and not has_nvlink(inst, gpu):
        c.slow = True
        c.warnings.append(Note.of(C.warn_pcie_slow, layout=c.plan.layout))
    if c.nodes == 1 and inst.gpu_count < 1:
        c.warnings.append(Note.of(C.warn_vgpu, fraction=inst.gpu_count, gpu=gpu.key, usable_gib=round(c.usable_gib, 3)))

    price, billing = _pick_price(inst, request.billing)
    if price is None and inst.prices:
        # priced, but not in the requested mode: a near-miss, not "price unknown"
        listed = [p.billing for p in inst.prices]
        return reject("billing", why(C.reject_billing, billing=billing, listed=listed), 0.6)
    c.price, c.billing = price, billing
    if price is not None:
        per_hour, c.converted = convert(price.per_hour, price.currency, currency, fx)
        c.per_hour = per_hour * c.nodes
        c.monthly = c.per_hour * (request.hours_per_month if billing not in TERM_HOURS else 730.0)
        if request.billing is None and billing == Billing.on_demand:
            spot = inst.price(Billing.spot)
            if spot is not None and spot.per_hour < price.per_hour:
                spot_h, _ = convert(spot.per_hour, spot.currency, currency, fx)
                c.cheaper = Note.of(C.option_cheaper_spot, price_per_hour=spot_h * c.nodes, currency=currency)
    tte = timer.estimate(gpu, c.total_gpus)
    if isinstance(tte, Note):
        c.warnings.append(Note.of(C.warn_no_time, error=tte))
    elif tte is not None:
        c.train = tte
        c.job_hours = tte.hours
        if c.per_hour is not None:
            c.job_cost = _job_cost(c.per_hour, tte.hours, billing)

    if request.budget is not None and price is not None:
        cost = period_cost(c, request.period)
        if cost is not None and cost > request.budget:
            over = cost / request.budget - 1
            reason = why(C.reject_budget, cost=cost, budget=request.budget, currency=currency,
                         period=request.period, over_fraction=over)
            return reject("budget", reason, over)
    return True


def _drop_slow_if_clean_exists(options: list[Candidate], misses: list[Miss]) -> list[Candidate]:
    """PCIe-only sharded training is rejected when an option without that problem exists."""
    if not any(c.slow for c in options) or all(c.slow for c in options):
        return options
    kept = []
    for c in options:
        if c.slow:
            misses.append(Miss(c.inst, c.gpu.key, "pcie", why(C.reject_pcie, layout=c.plan.layout), 0.3))
        else:
            kept.append(c)
    return kept


def _rank_period(request: RecommendRequest) -> str:
    return "job" if request.tokens is not None and request.vram.mode in TRAINING_MODES else "month"


def _rank_key(request: RecommendRequest, prefer_cn: bool):
    period = _rank_period(request)

    def key(c: Candidate):
        grade = GRADE_RANK.get(c.price.grade, 3) if c.price else 3
        cost = period_cost(c, period)
        return (
            prefer_cn and not c.inst.region.china_mainland,
            grade,
            c.slow,
            cost if cost is not None else float("inf"),
            c.inst.provider,
            c.inst.instance,
        )

    return key


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

