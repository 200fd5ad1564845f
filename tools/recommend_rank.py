"""Ranking by the user's real cost, with fit quality, price freshness and grade inside a 10 % band.

The need (what is being paid for):

* ``job`` — a training job with a known token count: the job's cost from its training time;
* ``hour`` — an hourly budget: the hourly rate;
* ``month`` — anything else (a monthly budget, no budget, serving): one month of use.

Billing: when the user names none, every listed billing that covers the need is priced and the
cheapest is used, and the option says which (a month-long need uses a monthly subscription where
one is listed and it is cheaper than on-demand × hours of use; a job pays whole terms of a monthly
or yearly price). Spot is used only when asked for or when it is the only price listed (it can be
interrupted); a cheaper spot price is mentioned beside an on-demand pick.

Order: cheapest first; within 10 % of the cheapest option not yet placed (a band), fewer fit
problems first (memory headroom under 10 % of usable, a slow interconnect, a thin host, a software
caveat, a spot-only price the user did not ask for), then fresher prices (fresh < stale < undated, `tools.price_age`), then the price grade
(official and user-supplied < third-party < marketplace sample), then cost — where two costs are the same
within 1 % (`SAME_COST`: a job whose time scales with the GPU count costs the same on 2 or 8 of one GPU), a job
that finishes sooner first (the time is free), and for any other need fewer GPUs first (the same month of serving on
a smaller machine is easier to get and to grow). Outside the band cost wins. Each option that outranks a cheaper one in its band says why (`rank.band`); a table row says it
short (`band_row`: `rank.band_row`, the same params).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import TYPE_CHECKING

from tools.cost import TERM_HOURS, spot_paid_hours
from tools.domain import Billing, Currency, Instance, Price, PriceGrade
from tools.money import convert
from tools.notes import Note, NoteCode
from tools.price_age import AgeState, price_age
from tools.recommend_codes import RankCode
from tools.schemas import ExchangeRate, RecommendRequest

if TYPE_CHECKING:
    from tools.recommend_output import Candidate

COST_BAND = 0.10  # issue 12: within 10 % of the cheapest, fit quality, freshness and grade decide
SAME_COST = 0.01  # two costs within 1 % are the same cost: the smaller machine goes first
TIGHT_HEADROOM = 0.10  # headroom under 10 % of usable memory: longer sequences or fragmentation can OOM
GRADE_RANK = {PriceGrade.official: 0, PriceGrade.user: 0, PriceGrade.third_party: 1, PriceGrade.marketplace: 2}
STATE_RANK = {AgeState.fresh: 0, AgeState.stale: 1, AgeState.undated: 2}
# The old fallback order when a provider lists none of the billings that cover the need.
BILLING_FALLBACK = (Billing.on_demand, Billing.monthly, Billing.yearly, Billing.spot)
# Billings that cover each need, compared by cost when the user names none.
COVERING = {
    "hour": (Billing.on_demand,),
    "month": (Billing.on_demand, Billing.monthly),
    "job": (Billing.on_demand, Billing.monthly, Billing.yearly),
}


def need_of(request: RecommendRequest, training: bool) -> str:
    if request.tokens is not None and training:
        return "job"
    return "hour" if request.period == "hour" else "month"


def job_cost(per_hour: float, hours: float, billing: Billing, spot_defaults) -> float | None:
    """The job's cost: (hours + one paid start) × rate; spot with the expected rework; monthly/yearly in whole terms.

    The start (booting the machines, the environment, loading the model) is paid like a spot restart
    (`restart_overhead_hours`): without it a one-minute job looks as cheap on eight B200s as on one card, and the
    cheapest job would always be the biggest cluster."""
    start = spot_defaults.restart_overhead_hours
    if billing == Billing.spot:
        paid = spot_paid_hours(hours, spot_defaults.spot_interruptions_per_day, spot_defaults.checkpoint_interval_hours,
                               spot_defaults.restart_overhead_hours)
        return None if paid is None else per_hour * (paid + start)
    term = TERM_HOURS.get(billing)
    if term is not None:
        whole_terms = -(-(hours + start) // term) or 1.0  # ceil; a job pays at least one term
        return per_hour * whole_terms * term
    return per_hour * (hours + start)


def monthly_of(per_hour: float, billing: Billing, hours_per_month: float) -> float:
    """A month of use: hours of use × rate on demand or spot, the whole term's twelfth / month otherwise."""
    return per_hour * (hours_per_month if billing not in TERM_HOURS else 730.0)


def _cost(per_hour: float, billing: Billing, need: str, request: RecommendRequest, job_hours: float | None,
          spot_defaults) -> float | None:
    if need == "job":
        return None if job_hours is None else job_cost(per_hour, job_hours, billing, spot_defaults)
    if need == "hour":
        return per_hour
    return monthly_of(per_hour, billing, request.hours_per_month)


def pick_price(inst: Instance, request: RecommendRequest, need: str, *, currency: Currency, fx: ExchangeRate,
               scale: float, job_hours: float | None, spot_defaults) -> tuple[Price | None, Billing, list[tuple[Billing, float]]]:
    """(price, billing, [(billing, cost) compared]) — the requested billing, else the cheapest that covers the need.

    `scale` multiplies the price (nodes × copies). The comparison list holds every covering billing that
    was priced (two or more: the option says which was cheaper).
    """
    if request.billing is not None:
        return inst.price(request.billing), request.billing, []
    compared: list[tuple[Billing, float, Price]] = []
    for b in COVERING[need]:
        p = inst.price(b)
        if p is None:
            continue
        per_hour, _ = convert(p.per_hour, p.currency, currency, fx)
        cost = _cost(per_hour * scale, b, need, request, job_hours, spot_defaults)
        if cost is not None:
            compared.append((b, cost, p))
    if compared:
        b, _, p = min(compared, key=lambda x: (x[1], BILLING_FALLBACK.index(x[0])))
        return p, b, [(x[0], x[1]) for x in compared] if len(compared) > 1 else []
    for b in BILLING_FALLBACK:
        p = inst.price(b)
        if p is not None:
            return p, b, []
    return None, Billing.on_demand, []


def billing_note(c: "Candidate", need: str, currency: Currency) -> Note | None:
    if not c.compared:
        return None
    chosen = next(cost for b, cost in c.compared if b == c.billing)
    others = [Note.of(RankCode.billing_cost, billing=b, cost=cost, currency=currency, period=need)
              for b, cost in c.compared if b != c.billing]
    return Note.of(RankCode.billing_chosen, billing=c.billing, period=need, cost=chosen, currency=currency, compared=others)


# ------------------------------------------------------------------ fit quality, freshness, order


def fit_problems(c: "Candidate") -> list[str]:
    """What makes a fitting option worse than another at the same cost (order of the names is fixed)."""
    out = []
    if c.usable_gib > 0 and (c.usable_gib - c.plan.per_gpu_gib) < TIGHT_HEADROOM * c.usable_gib:
        out.append("memory")
    if c.slow or c.nodes > 1 or c.slow_link:
        out.append("interconnect")
    if c.thin_host:
        out.append("host")
    if c.software_caveat:
        out.append("software")
    if c.interruptible:  # spot used only because nothing else is listed: it can be reclaimed mid-job
        out.append("interruption")
    return out


def age_of(c: "Candidate", today: dt.date):
    return price_age(c.price, today) if c.price is not None else None


def _band_key(c: "Candidate", cost: float, today: dt.date, need: str) -> tuple:
    if c.age_rank is None:
        age = age_of(c, today)
        c.age_rank = STATE_RANK[age.state] if age is not None else 3
    state = c.age_rank
    grade = GRADE_RANK.get(c.price.grade, 3) if c.price is not None else 3
    at_same_cost = c.job_hours if need == "job" and c.job_hours is not None else c.total_gpus * c.copies
    return (len(c.problems), state, grade, _cost_step(cost), at_same_cost, cost,
            c.inst.provider, c.inst.instance, c.inst.region.name)


def _cost_step(cost: float) -> float:
    """The cost on a 1 % logarithmic grid, so that costs equal up to rounding compare equal (and then size decides)."""
    return math.floor(math.log(cost) / math.log1p(SAME_COST)) if 0 < cost < math.inf else cost


# the band key's positions that can put an option above a cheaper one, and the factor each one names ("size": at
# the same cost, the shorter job or, for other needs, fewer GPUs)
FACTORS = ("fit", "freshness", "grade", None, "size")


class BandCode(NoteCode):
    """How a table row says `rank.band` (the chat answer's 'why' cell): the same params, said short."""

    row = "rank.band_row"  # provider, instance, gpu_count, gpu, nodes, cheaper_fraction, factor (as rank.band)


def band_row(band: Note) -> Note:
    """The short, row-sized form of a `rank.band` note: the cheaper option below, how much cheaper, which factor."""
    return Note(code=BandCode.row.value, params=dict(band.params))


def rank(cands: list["Candidate"], need: str, mainland: str, today: dt.date, period_cost) -> list["Candidate"]:
    """Cheapest first; within a 10 % band, fit quality, then freshness, then grade (see the module docstring).

    `mainland`: "first" (a CNY answer or region cn: mainland-China offers first), "last" (a USD answer for any
    region: offers outside mainland China first) or "any" (one group).
    """
    def cost(c: "Candidate") -> float:
        v = period_cost(c, need)
        return float("inf") if v is None else v

    inside = [c for c in cands if c.inst.region.china_mainland]
    outside = [c for c in cands if not c.inst.region.china_mainland]
    groups = {"first": [inside, outside], "last": [outside, inside]}.get(mainland, [list(cands)])
    out: list["Candidate"] = []
    for group in groups:
        pending = sorted(group, key=lambda c: (cost(c), c.inst.provider, c.inst.instance, c.inst.region.name))
        while pending:
            lead = cost(pending[0])
            n = next((i for i, c in enumerate(pending) if cost(c) > lead * (1 + COST_BAND)), len(pending))
            band, pending = pending[:n], pending[n:]
            band.sort(key=lambda c: _band_key(c, cost(c), today, need))
            _explain(band, cost, today, need)
            out.extend(band)
    return out


def _explain(band: list["Candidate"], cost, today: dt.date, need: str) -> None:
    """An option placed above a cheaper one of its band says which factor put it there; so does one placed above
    another of the same cost (the faster job, or the smaller machine: `FACTORS`' "size")."""
    for i, c in enumerate(band):
        below = [d for d in band[i + 1:] if cost(d) <= cost(c)]
        if not below:
            continue
        d = min(below, key=cost)
        kc, kd = _band_key(c, cost(c), today, need), _band_key(d, cost(d), today, need)
        factor = next((FACTORS[j] for j in range(len(FACTORS)) if kc[j] != kd[j]), None)
        if factor is None:
            continue
        factor = "sooner" if factor == "size" and need == "job" else factor
        c.band = Note.of(RankCode.band, provider=d.inst.provider, instance=d.inst.instance, gpu_count=d.inst.gpu_count,
                         gpu=d.gpu.key, nodes=d.nodes, cheaper_fraction=1 - cost(d) / cost(c), factor=factor)
