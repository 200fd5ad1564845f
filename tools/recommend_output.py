"""Records and output of the recommender: candidates, near-misses, options with reasons, assumptions.

Every reason is a `Note` whose numbers are the candidate's computed values
(memory plan, price, training-time estimate), never typed in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from tools.cost import TERM_HOURS
from tools.domain import GPU, Billing, Currency, Instance, Price, RegionScope
from tools.notes import Note
from tools.recommend_codes import RecommendCode as C
from tools.recommend_host import interconnect
from tools.recommend_memory import MemoryPlanner, Plan
from tools.price_age import covers_note, price_age
from tools.recommend_codes import RankCode, ServeRecCode
from tools.recommend_rank import TIGHT_HEADROOM, billing_note
from tools.schemas import CostRequest, ExchangeRate, Option, RecommendRequest, Rejection, TrainTimeEstimate
from tools.serving_perf import cost_per_million
from tools.serving_profiles import WeightFormat
from tools.serving_types import ServingEstimate

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
    warnings: list[Note] = field(default_factory=list)
    slow: bool = False
    cheaper: Note | None = None  # a cheaper spot price, when on-demand was chosen by default
    # ranking (tools.recommend_rank)
    compared: list[tuple[Billing, float]] = field(default_factory=list)  # billings priced for the need, when ≥ 2
    slow_link: bool = False  # serving: tensor parallel over PCIe
    thin_host: bool = False
    software_caveat: bool = False
    interruptible: bool = False  # priced at spot only because no other price is listed (the user named no billing)
    problems: list[str] = field(default_factory=list)
    band: Note | None = None  # ranked above a cheaper option of its 10 % band, and why
    age_rank: int | None = None  # fresh 0, stale 1, undated 2 (cached for the sort)
    over_budget: float | None = None  # the fraction over the budget, for the cheapest-over-budget fallback
    # serving (tools.recommend_serving)
    serving: ServingEstimate | None = None  # one copy
    copies: int = 1
    weights: WeightFormat | None = None

    @property
    def total_gpus(self) -> int:
        return self.plan.gpus

    @property
    def scale(self) -> int:
        """Machines paid for: nodes × copies."""
        return self.nodes * self.copies


@dataclass
class Miss:
    """A near-miss: why an instance was rejected, and how near it came.

    Thousands of instances miss and a dozen are shown, so the reason may be a `why(...)`
    that builds its note only when the near-miss is returned.
    """

    inst: Instance
    gpu: str
    kind: str
    reason: "Note | Callable[[], Note]"
    score: float  # smaller = nearer to working

    def note(self) -> Note:
        return self.reason if isinstance(self.reason, Note) else self.reason()


def why(code: C, **params: Any) -> Callable[[], Note]:
    """A near-miss reason built on demand: `why(C.reject_fit, needed_gib=…)`."""
    return partial(Note.of, code, **params)


def period_cost(c: Candidate, period: str) -> float | None:
    return {"hour": c.per_hour, "month": c.monthly, "job": c.job_cost}[period]


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


def option(c: Candidate, request: RecommendRequest, currency: Currency, fx: ExchangeRate, prefer_cn: bool,
           today: dt.date, need: str = "month") -> Option:
    inst, gpu, plan = c.inst, c.gpu, c.plan
    headroom = c.usable_gib - plan.per_gpu_gib
    age = price_age(c.price, today) if c.price is not None and c.per_hour is not None else None
    reasons = [
        Note.of(
            C.option_fit, nodes=c.nodes, gpu_count=inst.gpu_count, gpu=gpu.key, needed_gib=round(plan.per_gpu_gib, 3),
            usable_gib=round(c.usable_gib, 3), headroom_gib=round(headroom, 3), layout=plan.how,
        )
    ]
    if c.price is not None and c.per_hour is not None:
        reasons.append(Note.of(
            C.option_price, price_per_hour=c.per_hour, monthly=c.monthly, currency=currency, billing=c.billing,
            nodes=c.nodes, copies=c.copies, grade=c.price.grade, as_of=c.price.as_of.isoformat() if c.price.as_of else None,
            age=age.note() if age is not None else None,
        ))
        chosen = billing_note(c, need, currency)
        if chosen is not None:
            reasons.append(chosen)
        if c.converted:
            reasons.append(Note.of(C.option_converted, from_currency=c.price.currency, rate=fx.note()))
        if c.cheaper:
            reasons.append(c.cheaper)
    else:
        reasons.append(Note.of(C.option_unpriced))
    tokens_per_s = None
    if c.train is not None:
        tokens_per_s = request.tokens * request.epochs / (c.train.hours * 3600) if c.train.hours > 0 else None
        reasons.append(Note.of(
            C.option_time, hours=c.train.hours, days=c.train.days, gpus=c.train.gpus, mfu=c.train.mfu,
            throughput_tps=tokens_per_s, job_cost=c.job_cost, currency=currency,
            spot=c.billing == Billing.spot and c.job_cost is not None,
        ))
    est = c.serving
    out_tok_s = est.output_tok_s * c.copies if est is not None else None
    at_load = cost_per_million(c.per_hour, out_tok_s) if est is not None else None
    at_max = cost_per_million(c.per_hour, est.max_output_tok_s * c.copies) if est is not None else None
    if est is not None:
        reasons.append(Note.of(
            ServeRecCode.option, weights=est.weights, output_tok_s=round(out_tok_s or 0.0, 1),
            ttft_ms=round(est.ttft_ms, 1), tpot_ms=round(est.tpot_ms, 2), tokens_per_user_s=round(est.tokens_per_user_s, 1),
            max_concurrency=est.max_concurrency * c.copies, copies=c.copies,
            cost_per_million_output_tokens_at_load=at_load, currency=currency if at_load is not None else None,
        ))
    if prefer_cn and inst.region.china_mainland:
        reasons.append(Note.of(C.option_mainland, region=inst.region.name))
    within = None
    if request.budget is not None and c.per_hour is not None:
        cost = period_cost(c, request.period)
        if c.over_budget is not None:
            within = False
            reasons.append(Note.of(RankCode.over_budget, cost=cost, budget=request.budget, currency=currency,
                                   period=request.period, over_fraction=c.over_budget))
        elif cost is not None:
            within = True
            reasons.append(Note.of(C.option_within_budget, cost=cost, budget=request.budget, currency=currency,
                                   period=request.period))
    if c.band is not None:
        reasons.append(c.band)
    warnings = list(c.warnings)
    if c.problems and "memory" in c.problems:
        warnings.append(Note.of(RankCode.fit_problems, problems=["memory"], headroom_fraction=TIGHT_HEADROOM))
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
        throughput_tps=tokens_per_s,
        currency=currency,
        billing=c.billing,
        price_grade=c.price.grade if c.price else None,
        price_as_of=c.price.as_of.isoformat() if c.price and c.price.as_of else None,
        price_source=c.price.source if c.price else None,
        interconnect=interconnect(inst, gpu),
        reasons=reasons,
        warnings=warnings,
        total_gpus=c.total_gpus,
        layout=plan.how,
        price_age_state=age.state.value if age is not None else None,
        price_age_months=age.months if age is not None else None,
        price_as_of_label=age.as_of_label if age is not None else None,
        price_age=age.note() if age is not None else None,
        price_covers=covers_note(c.price) if c.price is not None and c.per_hour is not None else None,
        price_source_url=c.price.source_url if c.price is not None else None,
        within_budget=within,
        over_budget_fraction=c.over_budget,
        fit_problems=list(c.problems),
        weights=est.weights.value if est is not None else None,
        copies=c.copies,
        instances=c.scale,
        output_tok_s=out_tok_s,
        ttft_ms=est.ttft_ms if est is not None else None,
        tpot_ms=est.tpot_ms if est is not None else None,
        e2e_ms=est.e2e_ms if est is not None else None,
        tokens_per_user_s=est.tokens_per_user_s if est is not None else None,
        req_s=est.req_s * c.copies if est is not None else None,
        max_concurrency=est.max_concurrency * c.copies if est is not None else None,
        cost_per_million_output_tokens_at_load=at_load,
        cost_per_million_output_tokens_at_max=at_max,
        tp=est.tp if est is not None else None,
        pp=est.pp if est is not None else None,
    )


def rejection(m: Miss) -> Rejection:
    return Rejection(
        provider=m.inst.provider,
        instance=m.inst.instance,
        gpu=m.gpu,
        gpu_count=m.inst.gpu_count,
        reason=m.note(),
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
) -> list[Note]:
    out = []
    if request.currency is None:
        out.append(Note.of(C.currency_default, currency=currency, region=request.region))
    if request.vram.gpus != 1 and not planner.user_layout:
        out.append(Note.of(C.gpus_ignored))
    if request.billing is None:
        out.append(Note.of(C.billing_default))
    if request.billing not in TERM_HOURS and not timing:  # a timed job is priced by its hours, not by a month
        out.append(Note.of(C.monthly_hours, hours=request.hours_per_month))
    if request.tokens is not None and not timing:
        out.append(Note.of(C.no_time_inference))
    if timing:
        out.append(Note.of(C.job_start, hours=SPOT_DEFAULTS.restart_overhead_hours))
    if timing and any(c.billing == Billing.spot for c in chosen):
        out.append(Note.of(
            C.spot_rework, interruptions_per_day=SPOT_DEFAULTS.spot_interruptions_per_day,
            checkpoint_hours=SPOT_DEFAULTS.checkpoint_interval_hours, restart_hours=SPOT_DEFAULTS.restart_overhead_hours,
        ))
    if any(c.converted for c in chosen):
        out.append(Note.of(C.converted, rate=fx.note()))
    if request.region == RegionScope.cn:
        out.append(Note.of(C.region_cn))
    if any(c.per_hour is None for c in chosen):
        out.append(Note.of(C.unpriced_last))
    return out
