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

from tools.domain import HOURS_PER_MONTH, HOURS_PER_YEAR, Billing, Instance, Price
from tools.errors import InputError
from tools.money import convert
from tools.schemas import CostEstimate, CostLine, CostRequest, ExchangeRate

TERM_HOURS = {Billing.monthly: HOURS_PER_MONTH, Billing.yearly: HOURS_PER_YEAR}
# Float noise guard: 730.0000001 h is still one month.
_EPS = 1e-9


def request_hours(request: CostRequest) -> tuple[float, str]:
    """Hours to price and how they were chosen (an assumption line)."""
    if request.hours is not None:
        return request.hours, f"{request.hours:,.4g} h as given"
    if request.hours_per_day is not None:
        days = request.days if request.days is not None else HOURS_PER_MONTH / 24
        hours = request.hours_per_day * days
        return hours, f"schedule {request.hours_per_day:g} h/day × {days:g} days = {hours:g} h"
    if request.days is not None:
        hours = 24 * request.days
        return hours, f"{request.days:g} days around the clock = {hours:g} h"
    return HOURS_PER_MONTH, f"one month = {HOURS_PER_MONTH:g} h (8760 h / 12), no hours or schedule given"


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
            note="no price in the catalog: check the provider's console",
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
            note = f"{term_name}ly term shown per month ({per_hour * HOURS_PER_MONTH:,.2f} per month)"
        elif paid > hours + _EPS:
            note = f"paid in whole {term_name}s: {hours:g} h is billed as {paid:g} h"
    if billing == Billing.spot:
        spot_hours = spot_paid_hours(
            hours,
            request.spot_interruptions_per_day,
            request.checkpoint_interval_hours,
            request.restart_overhead_hours,
        )
        if spot_hours is None:
            note = (
                f"{request.spot_interruptions_per_day:g} interruptions/day each losing "
                f"{request.checkpoint_interval_hours / 2 + request.restart_overhead_hours:g} h: "
                "the job never finishes; checkpoint more often"
            )
        else:
            expected_total = per_hour * spot_hours * request.instances
            note = f"expected {spot_hours - hours:.2f} h of rework after interruptions ({spot_hours:.2f} h paid)"
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
        raise InputError("estimate_cost needs a CostRequest")
    hours, hours_text = request_hours(request)
    per_month_view = request.hours is None and request.hours_per_day is None and request.days is None
    lines = [_line(instance, b, hours, request, fx, per_month_view) for b in Billing]
    chosen = next(line for line in lines if line.billing == request.billing)
    assumptions = [f"Hours: {hours_text}."]
    if request.instances > 1:
        assumptions.append(f"{request.instances} instances (nodes) billed together.")
    spot = next(line for line in lines if line.billing == Billing.spot)
    if spot.price_per_hour is not None:
        assumptions.append(
            "Spot expected cost = price × hours / (1 − λ·w), "
            f"λ = {request.spot_interruptions_per_day:g} interruptions/day ÷ 24, "
            f"w = checkpoint interval {request.checkpoint_interval_hours:g} h ÷ 2 "
            f"+ restart overhead {request.restart_overhead_hours:g} h lost per interruption."
        )
    if any(line.billing in TERM_HOURS and line.price_per_hour is not None for line in lines):
        assumptions.append(
            "Monthly/yearly terms: shown per month (yearly ÷ 12)."
            if per_month_view
            else "Monthly/yearly terms are paid whole: hours round up to 730 h months / 8760 h years."
        )
    converted = any(line.converted for line in lines)
    if converted:
        assumptions.append(f"Converted at {fx.text}.")
    if chosen.price_per_hour is None:
        assumptions.append(
            f"No {request.billing.value} price for {instance.provider}/{instance.instance} in the catalog: "
            "total is unknown (check the provider's console)."
        )
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
        exchange_rate=fx.text if converted else None,
        assumptions=assumptions,
        price_age=f"as of {price_as_of}" if price_as_of else "date unknown",
        instances=request.instances,
    )
