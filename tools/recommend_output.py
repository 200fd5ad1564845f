"""Records and output of the recommender: candidates, near-misses, options with reasons, assumptions.

Every number in a reason string is formatted from the candidate's computed
values (memory plan, price, training-time estimate), never typed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tools.cost import TERM_HOURS
from tools.domain import GPU, Billing, Currency, Instance, Price, RegionScope
from tools.money import money
from tools.recommend_host import interconnect_text
from tools.recommend_memory import MemoryPlanner, Plan
from tools.schemas import CostRequest, ExchangeRate, Option, RecommendRequest, Rejection, TrainTimeEstimate

MAX_REJECTED = 12  # near-misses shown, interleaved across reasons
SPOT_DEFAULTS = CostRequest()  # interruptions/day, checkpoint interval, restart overhead for job cost on spot


@dataclass
class Candidate:
    """An instance (× nodes) whose GPUs hold the job, being priced and checked."""

    inst: Instance
    gpu: GPU
    nodes: int
    plan: Plan
    usable_gib: float
    price: Price | None = None
    billing: Billing = Billing.on_demand
    per_hour: float | None = None  # all nodes, in the answer currency
    monthly: float | None = None
    job_hours: float | None = None
    job_cost: float | None = None
    converted: bool = False
    train: TrainTimeEstimate | None = None
    warnings: list[str] = field(default_factory=list)
    slow: bool = False
    cheaper: str | None = None

    @property
    def total_gpus(self) -> int:
        return self.plan.gpus


@dataclass
class Miss:
    """A near-miss: why an instance was rejected, and how near it came."""

    inst: Instance
    gpu: str
    kind: str
    reason: str
    score: float  # smaller = nearer to working


def period_cost(c: Candidate, period: str) -> float | None:
    return {"hour": c.per_hour, "month": c.monthly, "job": c.job_cost}[period]


def period_text(period: str) -> str:
    return {"hour": "/h", "month": "/month", "job": " for the job"}[period]


def near_misses(misses: list[Miss]) -> list[Miss]:
    """A few of each kind, nearest first, round-robin across kinds, one per (provider, GPU, count)."""
    by_kind: dict[str, list[Miss]] = {}
    for m in sorted(misses, key=lambda m: (m.score, m.inst.provider, m.inst.instance)):
        by_kind.setdefault(m.kind, []).append(m)
    seen: set[tuple] = set()
    out: list[Miss] = []
    queues = [iter(v) for v in by_kind.values()]
    while queues and len(out) < MAX_REJECTED:
        still = []
        for q in queues:
            for m in q:
                key = (m.kind, m.inst.provider, m.gpu, m.inst.gpu_count)
                if key in seen:
                    continue
                seen.add(key)
                out.append(m)
                still.append(q)
                break
            if len(out) == MAX_REJECTED:
                break
        queues = still
    return out


# ------------------------------------------------------------------ output


def option(c: Candidate, request: RecommendRequest, currency: Currency, fx: ExchangeRate, prefer_cn: bool) -> Option:
    inst, gpu, plan = c.inst, c.gpu, c.plan
    headroom = c.usable_gib - plan.per_gpu_gib
    reasons = []
    shape = f"{c.nodes} nodes × {inst.gpu_count:g} × {gpu.key}" if c.nodes > 1 else f"{inst.gpu_count:g} × {gpu.key}"
    reasons.append(
        f"{shape}: needs {plan.per_gpu_gib:.1f} GiB per GPU of {c.usable_gib:.1f} GiB usable "
        f"({headroom:.1f} GiB headroom); {plan.how}"
    )
    if c.price is not None and c.per_hour is not None:
        grade = c.price.grade.value
        reasons.append(
            f"{money(c.per_hour, currency)}/h {c.billing.value.replace('_', '-')}"
            + (f" ({c.nodes} nodes)" if c.nodes > 1 else "")
            + f", {money(c.monthly, currency)}/month, {grade}, {c.price.age_text}"
        )
        if c.converted:
            reasons.append(f"converted from {c.price.currency.value} at {fx.text}")
        if c.cheaper:
            reasons.append(c.cheaper)
    else:
        reasons.append("fits; price unknown — check the console")
    if c.train is not None:
        tokens_per_s = request.tokens * request.epochs / (c.train.hours * 3600) if c.train.hours > 0 else None
        tps = f", about {tokens_per_s:,.0f} tokens/s" if tokens_per_s else ""
        job = f"; job cost {money(c.job_cost, currency)}" if c.job_cost is not None else ""
        if c.billing == Billing.spot and c.job_cost is not None:
            job += " incl. expected spot rework"
        reasons.append(
            f"time to finish ≈ {c.train.hours:,.1f} h ({c.train.days:,.1f} days) on {c.train.gpus} GPU{'s' if c.train.gpus > 1 else ''} "
            f"at MFU {c.train.mfu:.2f}{tps}{job}"
        )
    if prefer_cn and inst.region.china_mainland:
        reasons.append(f"mainland China region ({inst.region.name})")
    if request.budget is not None and c.per_hour is not None:
        cost = period_cost(c, request.period)
        if cost is not None:
            reasons.append(
                f"within budget: {money(cost, currency)}{period_text(request.period)} ≤ {money(request.budget, currency)}"
            )
    return Option(
        provider=inst.provider,
        instance=inst.instance,
        region=inst.region.name,
        china_mainland=inst.region.china_mainland,
        gpu=gpu.key,
        gpu_count=inst.gpu_count,
        nodes=c.nodes,
        per_gpu_gib=round(plan.per_gpu_gib, 2),
        gpu_usable_gib=c.usable_gib,
        headroom_gib=round(headroom, 2),
        price_per_hour=c.per_hour,
        monthly_cost=c.monthly,
        job_cost=c.job_cost,
        job_hours=c.job_hours,
        currency=currency,
        billing=c.billing,
        price_grade=c.price.grade if c.price else None,
        price_as_of=c.price.as_of.isoformat() if c.price and c.price.as_of else None,
        price_source=c.price.source if c.price else None,
        interconnect=interconnect_text(inst, gpu),
        reasons=reasons,
        warnings=list(c.warnings),
        total_gpus=c.total_gpus,
        layout=plan.how,
        price_age=(c.price.age_text if c.price else None),
    )


def rejection(m: Miss) -> Rejection:
    return Rejection(
        provider=m.inst.provider,
        instance=m.inst.instance,
        gpu=m.gpu,
        gpu_count=m.inst.gpu_count,
        reason=m.reason,
        region=m.inst.region.name,
        kind=m.kind,
    )


def assumptions_for(
    request: RecommendRequest,
    currency: Currency,
    planner: MemoryPlanner,
    timing: bool,
    fx: ExchangeRate,
    chosen: list[Candidate],
) -> list[str]:
    out = []
    if request.currency is None:
        out.append(f"Currency {currency.value}: the default for region {request.region.value}.")
    if request.vram.gpus != 1 and not planner.user_layout:
        out.append("The recommender sizes the GPU count itself: --gpus is ignored without --sharding/--tp/--pp.")
    if request.billing is None:
        out.append("Billing: on-demand where listed (else monthly, yearly, spot, in that order).")
    if request.billing not in TERM_HOURS:
        out.append(f"Monthly cost = hourly price × {request.hours_per_month:g} h.")
    if request.tokens is not None and not timing:
        out.append("Time to finish is for training jobs; not estimated for inference.")
    if timing and any(c.billing == Billing.spot for c in chosen):
        out.append(
            f"Spot job cost includes expected rework: {SPOT_DEFAULTS.spot_interruptions_per_day:g} interruption/day, "
            f"checkpoint every {SPOT_DEFAULTS.checkpoint_interval_hours:g} h, "
            f"{SPOT_DEFAULTS.restart_overhead_hours:g} h restart (see tools.cost)."
        )
    if any(c.converted for c in chosen):
        out.append(f"Prices converted at {fx.text}.")
    if request.region == RegionScope.cn:
        out.append("Region cn: only instances in mainland-China regions are considered.")
    if any(c.per_hour is None for c in chosen):
        out.append("Instances without a catalog price are listed after priced ones: check the provider's console.")
    return out
