"""Cost calculator: hand-computed values, table-driven over inline instances."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tools.cost import estimate_cost, spot_paid_hours
from tools.domain import Billing, Currency, Instance, Price, PriceGrade, Region
from tools.messages import render
from tools.money import convert, default_currency, money
from tools.notes import Note
from tools.schemas import CostRequest, ExchangeRate

FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="test rate")
JULY = dt.date(2026, 7, 20)


def price(billing, amount, currency="USD", per="hour", as_of=JULY, grade=PriceGrade.official):
    return Price(billing=billing, amount=amount, currency=currency, per=per, source="test", as_of=as_of, grade=grade)


def inst(name, prices, gpu="A100-80GB", count=8, provider="p", region="r1", mainland=False):
    return Instance(
        provider=provider,
        instance=name,
        gpu=gpu,
        gpu_count=count,
        region=Region(name=region, china_mainland=mainland),
        prices=prices,
        source="test",
    )


# $2/h on demand, $1/h spot, ¥5000/month, ¥48000/year: covers all four modes and a conversion
ALL = inst(
    "all",
    [
        price(Billing.on_demand, 2.0),
        price(Billing.spot, 1.0),
        price(Billing.monthly, 5000, "CNY", per="month", as_of=None),
        price(Billing.yearly, 48000, "CNY", per="year", as_of=None),
    ],
)
# no price at all (Alibaba/Tencent/Huawei style)
UNPRICED = inst("bare", [])


def line(est, billing):
    return next(l for l in est.lines if l.billing == billing)


@pytest.mark.parametrize(
    "request_kwargs, billing, expected_total, expected_hours",
    [
        # 10 h on demand at $2/h
        ({"hours": 10}, Billing.on_demand, 20.0, 10),
        # no hours: one month of 730 h at $2/h
        ({}, Billing.on_demand, 1460.0, 730),
        # two nodes for 10 h
        ({"hours": 10, "instances": 2}, Billing.on_demand, 40.0, 10),
        # schedule 8 h/day × 22 days = 176 h at $2/h
        ({"hours_per_day": 8, "days": 22}, Billing.on_demand, 352.0, 176),
        # 100 h on a monthly term: one whole month ¥5000 = $704.225...
        ({"hours": 100}, Billing.monthly, 5000 / 7.1, 100),
        # 731 h spills into a second month: 2 × ¥5000
        ({"hours": 731}, Billing.monthly, 10000 / 7.1, 731),
        # exactly 730 h is still one month
        ({"hours": 730}, Billing.monthly, 5000 / 7.1, 730),
        # per-month view of a yearly term: ¥48000 / 12 = ¥4000
        ({"currency": "CNY"}, Billing.yearly, 4000.0, 730),
        # 100 h on a yearly term pays the whole year
        ({"hours": 100, "currency": "CNY"}, Billing.yearly, 48000.0, 100),
        # spot, no interruptions: plain price × hours
        ({"hours": 100, "spot_interruptions_per_day": 0}, Billing.spot, 100.0, 100),
        # spot, 2/day, checkpoint 1 h, restart 0.25 h: λ=1/12, w=0.75, P = 100/(1-0.0625) = 106.667
        ({"hours": 100, "spot_interruptions_per_day": 2}, Billing.spot, 100 / 0.9375, 100),
    ],
)
def test_totals(request_kwargs, billing, expected_total, expected_hours):
    est = estimate_cost(ALL, CostRequest(billing=billing, **request_kwargs), FX)
    assert est.hours == pytest.approx(expected_hours)
    assert est.total == pytest.approx(expected_total)


def test_spot_line_keeps_nominal_and_expected():
    est = estimate_cost(ALL, CostRequest(hours=100, billing=Billing.spot, spot_interruptions_per_day=2), FX)
    spot = line(est, Billing.spot)
    assert spot.total == pytest.approx(100.0)  # rent for the nominal hours
    assert spot.expected_total == pytest.approx(106.6667, rel=1e-4)
    assert spot.note.code == "cost.spot_rework"
    assert spot.note.params == {"rework_hours": pytest.approx(6.6667, rel=1e-4), "paid_hours": pytest.approx(106.6667, rel=1e-4)}
    assert "rework" in render(spot.note, "en") and "返工" in render(spot.note, "zh")
    formula = next(a for a in est.assumptions if a.code == "cost.spot_formula")
    assert formula.params == {"interruptions_per_day": 2, "checkpoint_hours": 1, "restart_hours": 0.25}
    assert "1 − λ·w" in render(formula, "en")


def test_spot_never_finishes_is_unknown():
    # 24 interruptions/day (λ = 1/h), each losing 2/2 + 0.5 = 1.5 h: λ·w = 1.5 ≥ 1
    req = CostRequest(
        hours=10, billing=Billing.spot, spot_interruptions_per_day=24, checkpoint_interval_hours=2,
        restart_overhead_hours=0.5,
    )
    est = estimate_cost(ALL, req, FX)
    assert est.total is None
    note = line(est, Billing.spot).note
    assert note.code == "cost.spot_never" and note.params == {"interruptions_per_day": 24, "lost_hours": 1.5}
    assert "never finishes" in render(note, "en")


@pytest.mark.parametrize(
    "args, expected",
    [
        ((100, 0, 1, 0.25), 100.0),  # no interruptions
        ((100, 2, 1, 0.25), 100 / (1 - (2 / 24) * 0.75)),  # the documented example
        ((24, 1, 4, 0), 24 / (1 - (1 / 24) * 2)),  # 4 h checkpoints lose 2 h each
        ((10, 24, 2, 0.5), None),  # λ·w = 1.5: never finishes
    ],
)
def test_spot_paid_hours(args, expected):
    got = spot_paid_hours(*args)
    assert got == (pytest.approx(expected) if expected is not None else None)


def test_conversion_is_stated():
    est = estimate_cost(ALL, CostRequest(hours=10, currency="CNY"), FX)
    assert est.total == pytest.approx(142.0)  # $20 × 7.1
    assert est.exchange_rate == FX  # the structured rate: usd_cny, as_of, source
    assert line(est, Billing.on_demand).converted
    converted = next(a for a in est.assumptions if a.code == "cost.converted")
    assert converted.params["rate"] == FX.note()
    assert "1 USD = 7.1 CNY (test rate, 2025-11-28)" in render(converted, "en")


def test_no_conversion_no_rate():
    only_usd = inst("usd", [price(Billing.on_demand, 2.0)])
    est = estimate_cost(only_usd, CostRequest(hours=10), FX)
    assert est.exchange_rate is None
    assert est.price_as_of == "2026-07-20"
    assert not any(a.code == "cost.converted" for a in est.assumptions)


def test_price_without_date_says_so():
    est = estimate_cost(ALL, CostRequest(hours=10, billing=Billing.monthly), FX)
    assert est.price_as_of is None  # the source has no date: None, which the surfaces show as "date unknown"
    assert render(Note.of("price.as_of", as_of=est.price_as_of), "en") == "date unknown"


def test_unknown_price_is_none_never_zero():
    est = estimate_cost(UNPRICED, CostRequest(hours=10), FX)
    assert est.total is None
    assert all(l.total is None and l.price_per_hour is None for l in est.lines)
    assert all(l.note.code == "cost.line_no_price" for l in est.lines)
    unknown = next(a for a in est.assumptions if a.code == "cost.no_price")
    assert unknown.params == {"billing": "on_demand", "provider": "p", "instance": "bare"}
    assert "total is unknown" in render(unknown, "en")


def test_missing_billing_mode_is_unknown_others_shown():
    od_only = inst("od", [price(Billing.on_demand, 3.0)])
    est = estimate_cost(od_only, CostRequest(hours=10, billing=Billing.spot), FX)
    assert est.total is None
    assert line(est, Billing.on_demand).total == pytest.approx(30.0)


@pytest.mark.parametrize("bad", [{"hours": 0}, {"hours": -1}, {"hours": float("nan")}, {"hours_per_day": 25}])
def test_bad_hours_rejected(bad):
    with pytest.raises(ValidationError, match="hours"):
        CostRequest(**bad)


@settings(max_examples=200, deadline=None)
@given(
    h1=st.floats(min_value=0.01, max_value=50_000),
    extra=st.floats(min_value=0, max_value=50_000),
    billing=st.sampled_from(list(Billing)),
    per_day=st.floats(min_value=0, max_value=10),
    ckpt=st.floats(min_value=0.05, max_value=4),
)
def test_longer_runs_never_cost_less(h1, extra, billing, per_day, ckpt):
    h2 = h1 + extra
    kw = {"billing": billing, "spot_interruptions_per_day": per_day, "checkpoint_interval_hours": ckpt}
    a = estimate_cost(ALL, CostRequest(hours=h1, **kw), FX).total
    b = estimate_cost(ALL, CostRequest(hours=h2, **kw), FX).total
    if a is None:  # spot that never finishes stays unknown whatever the length
        assert b is None
    else:
        assert b >= a * (1 - 1e-12)


def test_money_helpers():
    assert money(None, Currency.USD) == "unknown"
    assert money(1234.5, Currency.CNY) == "¥1,234"  # ≥ 1000: no decimals (banker's rounding of .5)
    assert money(0.5261, Currency.USD) == "$0.526"
    assert convert(None, Currency.USD, Currency.CNY, FX) == (None, False)
    assert convert(10, Currency.USD, Currency.CNY, FX) == (pytest.approx(71.0), True)
    assert default_currency("cn") == Currency.CNY
    assert default_currency("intl") == Currency.USD
