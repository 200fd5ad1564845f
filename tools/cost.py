"""Cost calculator: price × hours for every billing mode, side by side.

Rules (each one is also written into `CostEstimate.assumptions`):

* **Hours.** `request.hours` when given (e.g. a training-time estimate), else a
  schedule (`hours_per_day` × `days`, days defaulting to 730/24), else one month
  of 730 h (8760 h / 12, the cloud convention).
* **On demand.** price per hour × hours × instances.
* **Monthly / yearly terms.** For a given number of hours you pay whole terms:
  ceil(hours / 730) months or ceil(hours / 8760) years. With no hours (the
  per-month view) a term is shown as its per-month equivalent (yearly / 12).
* **Spot.** Nominal cost is price × hours. The expected cost adds the rework
  after interruptions, restarting from the last checkpoint:

      λ = interruptions_per_day / 24                      (interruptions per paid hour)
      w = checkpoint_interval_hours / 2 + restart_overhead_hours
                                                         (paid hours lost per interruption:
                                                          half an interval of work on average,
                                                          interruptions being uniform in time,
                                                          plus getting a new instance running)
      paid_hours = hours / (1 − λ·w)                      (interruptions also strike the rework:
                                                          P = H + λ·P·w)

  When λ·w ≥ 1 the job never finishes on spot and the expected cost is unknown.
  `total` for spot is this expected cost: the price of getting `hours` of work done.
* **Currency.** Prices stay in the provider's currency until the end and are
  converted at the configured `ExchangeRate`; `exchange_rate` is set whenever a
  figure was converted.
* **Unknown prices** give `None` (shown as "unknown"), never 0.
"""

from __future__ import annotations

import math

from tools.domain import HOURS_PER_MONTH, HOURS_PER_YEAR, Billing, Instance, Mode, Price
from tools.notes import Note, NoteCode
from tools.money import convert
from tools.price_age import covers_note, price_age
from tools.schemas import CostEstimate, CostLine, CostRequest, ExchangeRate, TrainTimeEstimate

TERM_HOURS = {Billing.monthly: HOURS_PER_MONTH, Billing.yearly: HOURS_PER_YEAR}
# Float noise guard: 730.0000001 h is still one month.
_EPS = 1e-9


class CostCode(NoteCode):
    """Assumptions and line remarks of the cost calculator (params in the comments)."""

    hours_given = "cost.hours_given"  # hours
    hours_schedule = "cost.hours_schedule"  # hours_per_day, days, hours
    hours_days = "cost.hours_days"  # days, hours
    hours_month = "cost.hours_month"  # hours, year_hours, months
    instances = "cost.instances"  # instances
    spot_formula = "cost.spot_formula"  # interruptions_per_day, checkpoint_hours, restart_hours
    terms_per_month = "cost.terms_per_month"
    terms_whole = "cost.terms_whole"  # month_hours, year_hours
    converted = "cost.converted"  # rate (an fx.rate note)
    no_price = "cost.no_price"  # billing, provider, instance
    job = "cost.job"  # model, mode, tokens, epochs, gpus, gpu, mfu, mfu_source (note), hours — the CLI's job cost
    # remarks on one billing line (CostLine.note)
    line_no_price = "cost.line_no_price"
    term_per_month = "cost.term_per_month"  # term (month|year), monthly, currency
    term_whole = "cost.term_whole"  # term, hours, billed_hours
    spot_never = "cost.spot_never"  # interruptions_per_day, lost_hours
    spot_rework = "cost.spot_rework"  # rework_hours, paid_hours


def job_note(model_name: str, mode: "Mode", tokens: float, epochs: float, gpus: int, estimate: "TrainTimeEstimate") -> Note:
    """How a job's hours were found (the cost CLI states it first): model, mode, tokens × epochs, GPUs, MFU."""
    return Note.of(
        CostCode.job, model=model_name, mode=mode, tokens=tokens, epochs=epochs, gpus=gpus, gpu=estimate.gpu,
        mfu=estimate.mfu, mfu_source=estimate.mfu_source, hours=estimate.hours,
    )


def request_hours(request: CostRequest) -> tuple[float, Note]:
    """Hours to price and how they were chosen (an assumption note)."""
    if request.hours is not None:
        return request.hours, Note.of(CostCode.hours_given, hours=request.hours)
    if request.hours_per_day is not None:
        days = request.days if request.days is not None else HOURS_PER_MONTH / 24
        hours = request.hours_per_day * days
        return hours, Note.of(CostCode.hours_schedule, hours_per_day=request.hours_per_day, days=days, hours=hours)
    if request.days is not None:
        hours = 24 * request.days
        return hours, Note.of(CostCode.hours_days, days=request.days, hours=hours)
    return HOURS_PER_MONTH, Note.of(CostCode.hours_month, hours=HOURS_PER_MONTH, year_hours=HOURS_PER_YEAR, months=12)


def spot_paid_hours(
    work_hours: float,
    interruptions_per_day: float,
    checkpoint_interval_hours: float,
    restart_overhead_hours: float,
) -> float | None:
    """Expected paid hours to finish `work_hours` of work on spot (None: never finishes).

    See the module docstring: P = H / (1 − λ·w) with λ per hour and w the
    hours lost per interruption (half a checkpoint interval + restart).
    """
    rate_per_hour = interruptions_per_day / 24
    lost_per_interruption = checkpoint_interval_hours / 2 + restart_overhead_hours
    waste_fraction = rate_per_hour * lost_per_interruption
    if waste_fraction >= 1:
        return None
    return work_hours / (1 - waste_fraction)


def billed_hours(billing: Billing, hours: float, per_month_view: bool) -> float:
    """Hours actually paid for in a billing mode (terms are paid whole)."""
    term = TERM_HOURS.get(billing)
    if term is None or per_month_view:
        return hours
    return math.ceil(hours / term - _EPS) * term


def _line(
    instance: Instance,
    billing: Billing,
    hours: float,
    request: CostRequest,
    fx: ExchangeRate,
    per_month_view: bool,
) -> CostLine:
    price: Price | None = instance.price(billing)
    if price is None:
        return CostLine(
            billing=billing,
            price_per_hour=None,
            native_price=None,
            native_currency=None,
            native_per=None,
            total=None,
            price_as_of=None,
            price_grade=None,
            source=None,
            note=Note.of(CostCode.line_no_price),
        )
    per_hour, converted = convert(price.per_hour, price.currency, request.currency, fx)
    assert per_hour is not None
    paid = billed_hours(billing, hours, per_month_view)
    total = per_hour * paid * request.instances
    note = None
    expected_total = None
    if billing in TERM_HOURS:
        term_name = "month" if billing == Billing.monthly else "year"
        if per_month_view:
            note = Note.of(CostCode.term_per_month, term=term_name, monthly=per_hour * HOURS_PER_MONTH, currency=request.currency)
        elif paid > hours + _EPS:
            note = Note.of(CostCode.term_whole, term=term_name, hours=hours, billed_hours=paid)
    if billing == Billing.spot:
        spot_hours = spot_paid_hours(
            hours,
            request.spot_interruptions_per_day,
            request.checkpoint_interval_hours,
            request.restart_overhead_hours,
        )
        if spot_hours is None:
            note = Note.of(
                CostCode.spot_never, interruptions_per_day=request.spot_interruptions_per_day,
                lost_hours=request.checkpoint_interval_hours / 2 + request.restart_overhead_hours,
            )
        else:
            expected_total = per_hour * spot_hours * request.instances
            note = Note.of(CostCode.spot_rework, rework_hours=spot_hours - hours, paid_hours=spot_hours)
    return CostLine(
        billing=billing,
        price_per_hour=per_hour,
        native_price=price.amount,
        native_currency=price.currency,
        native_per=price.per,
        total=total,
        expected_total=expected_total,
        price_as_of=price.as_of.isoformat() if price.as_of else None,
        price_grade=price.grade,
        source=price.source,
        billed_hours=paid,
        converted=converted,
        note=note,
        age=price_age(price, request.today).note() if request.today is not None else None,
        covers=covers_note(price),
    )


def headline_total(line: CostLine) -> float | None:
    """The figure quoted as `total`: the expected cost for spot, else the billed cost."""
    return line.expected_total if line.billing == Billing.spot else line.total


def estimate_cost(instance: Instance, request: CostRequest, fx: ExchangeRate) -> CostEstimate:
    """Cost of renting `instance` for the requested hours, every billing mode side by side.

    Args:
        instance: a catalog instance (one region) with its prices.
        request: hours (or schedule), billing mode of the headline, currency, instances,
            spot interruption assumptions.
        fx: the configured exchange rate, stated whenever a price was converted.

    Returns:
        A CostEstimate whose `total` is for `request.billing` (None when that price is
        unknown), with `lines` for on-demand, spot, monthly and yearly.
    """
    if not isinstance(request, CostRequest):  # pragma: no cover - typed callers
        raise TypeError("estimate_cost needs a CostRequest")
    hours, hours_note = request_hours(request)
    per_month_view = request.hours is None and request.hours_per_day is None and request.days is None
    lines = [_line(instance, b, hours, request, fx, per_month_view) for b in Billing]
    chosen = next(line for line in lines if line.billing == request.billing)
    assumptions = [hours_note]
    if request.instances > 1:
        assumptions.append(Note.of(CostCode.instances, instances=request.instances))
    spot = next(line for line in lines if line.billing == Billing.spot)
    if spot.price_per_hour is not None:
        assumptions.append(Note.of(
            CostCode.spot_formula, interruptions_per_day=request.spot_interruptions_per_day,
            checkpoint_hours=request.checkpoint_interval_hours, restart_hours=request.restart_overhead_hours,
        ))
    if any(line.billing in TERM_HOURS and line.price_per_hour is not None for line in lines):
        assumptions.append(
            Note.of(CostCode.terms_per_month)
            if per_month_view
            else Note.of(CostCode.terms_whole, month_hours=HOURS_PER_MONTH, year_hours=HOURS_PER_YEAR)
        )
    converted = any(line.converted for line in lines)
    if converted:
        assumptions.append(Note.of(CostCode.converted, rate=fx.note()))
    if chosen.price_per_hour is None:
        assumptions.append(Note.of(CostCode.no_price, billing=request.billing, provider=instance.provider,
                                   instance=instance.instance))
    price_as_of = chosen.price_as_of
    return CostEstimate(
        provider=instance.provider,
        instance=instance.instance,
        region=instance.region.name,
        gpu=instance.gpu,
        gpu_count=instance.gpu_count,
        hours=hours,
        billing=request.billing,
        currency=request.currency,
        total=headline_total(chosen),
        price_as_of=price_as_of,
        lines=lines,
        exchange_rate=fx if converted else None,
        assumptions=assumptions,
        instances=request.instances,
    )
