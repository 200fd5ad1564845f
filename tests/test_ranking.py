"""Ranking rules of the recommender (issue 12), table-driven over small inline catalogs.

Each table row is a tiny catalog (two or three instances, a comment on why) and the order or label the
rule demands. A raw memory need (`required_gib`) keeps these tests about ranking, not memory estimates.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tools.catalog import Catalog
from tools.domain import (
    GPU,
    Billing,
    CostPart,
    Currency,
    DatePrecision,
    Instance,
    Price,
    PriceCovers,
    PriceGrade,
    Provider,
    Region,
)
from tools.messages import render
from tools.recommend import recommend
from tools.recommend_rank import band_row
from tools.schemas import ExchangeRate, RecommendRequest, VramRequest

FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="test rate")
TODAY = dt.date(2026, 12, 1)
FRESH = dt.date(2026, 7, 20)  # 4 months before TODAY
STALE = dt.date(2024, 11, 6)  # 24 months before TODAY
OFFICIAL, MARKET, THIRD = PriceGrade.official, PriceGrade.marketplace, PriceGrade.third_party


def gpu(key: str, usable_gib: float = 79.0, *, nvlink: bool = True) -> GPU:
    return GPU(key=key, name=key, vendor="NVIDIA", architecture="test", form_factor="SXM", memory_gb=usable_gib + 1,
               usable_memory_gib=usable_gib, bf16_tflops=300, fp16_tflops=300, bf16_supported=True, fp8_supported=False,
               nvlink=nvlink, source="test")


GPUS = {g.key: g for g in (gpu("BIG", 79.0), gpu("MID", 47.5), gpu("SMALL", 23.6, nvlink=False))}


def price(amount, *, billing=Billing.on_demand, as_of=FRESH, grade=OFFICIAL, currency="USD", per="hour", **kw) -> Price:
    return Price(billing=billing, amount=amount, currency=currency, per=per, source="test source", as_of=as_of,
                 grade=grade, **kw)


def inst(name: str, prices=(), *, g="BIG", count=1, cn=False, vcpus=32, ram=256) -> Instance:
    provider, _, instance = name.partition("/")
    return Instance(provider=provider, instance=instance, gpu=g, gpu_count=count, vcpus=vcpus, ram_gib=ram,
                    region=Region(name="cn-x" if cn else "us-x", china_mainland=cn), prices=list(prices), source="test")


def catalog(*instances: Instance) -> Catalog:
    providers = {i.provider: Provider(key=i.provider, name=i.provider, kind="gpu-cloud") for i in instances}
    return Catalog(gpus=GPUS, providers=providers, instances=list(instances))


def run(cat: Catalog, need_gib: float = 20.0, **kw):
    return recommend(cat, None, RecommendRequest(required_gib=need_gib, **kw), FX, today=TODAY)


def names(rec) -> list[str]:
    return [f"{o.provider}/{o.instance}" for o in rec.options]


def codes(notes) -> list[str]:
    return [n.code for n in notes]


# ------------------------------------------------------------------ cost, then fit / freshness / grade in a band


@pytest.mark.parametrize(
    "instances, need_gib, expected, factor",
    [
        # outside the 10 % band cost wins whatever the grade: a marketplace sample 50 % cheaper than an official price
        ([inst("off/a", [price(2.0)]), inst("mkt/b", [price(1.0, grade=MARKET)])], 20, ["mkt/b", "off/a"], None),
        # outside the band cost wins over fit: 20 GiB on SMALL (23.6 usable, 15 % headroom fine) vs BIG at 3× the price
        ([inst("big/a", [price(3.0)]), inst("small/b", [price(1.0)], g="SMALL")], 20, ["small/b", "big/a"], None),
        # inside the band fit decides: 22 GiB leaves SMALL 1.6 GiB (< 10 % of 23.6), BIG is 5 % dearer
        ([inst("small/a", [price(1.00)], g="SMALL"), inst("big/b", [price(1.05)])], 22, ["big/b", "small/a"], "fit"),
        # inside the band freshness decides: a fresh price 8 % dearer beats a 24-month-old one
        ([inst("old/a", [price(1.00, as_of=STALE)]), inst("new/b", [price(1.08)])], 20, ["new/b", "old/a"], "freshness"),
        # ... and an undated price ranks after a dated one
        ([inst("nodate/a", [price(1.00, as_of=None)]), inst("dated/b", [price(1.05, as_of=STALE)])], 20,
         ["dated/b", "nodate/a"], "freshness"),
        # inside the band, same freshness: the grade decides (official before a marketplace sample)
        ([inst("mkt/a", [price(1.00, grade=MARKET)]), inst("off/b", [price(1.09)])], 20, ["off/b", "mkt/a"], "grade"),
        # a third-party report ranks after an official price, before a marketplace sample
        ([inst("mkt/a", [price(1.00, grade=MARKET)]), inst("third/b", [price(1.02, grade=THIRD)]),
          inst("off/c", [price(1.04)])], 20, ["off/c", "third/b", "mkt/a"], "grade"),
        # a thin host (12 vCPU per high-end GPU) is a fit problem inside the band
        ([inst("thin/a", [price(1.00)], vcpus=12), inst("ok/b", [price(1.05)])], 20, ["ok/b", "thin/a"], "fit"),
        # a spot-only price (the user named no billing) can be reclaimed mid-job: a fit problem inside the band
        ([inst("spot/a", [price(1.00, billing=Billing.spot)]), inst("od/b", [price(1.06)])], 20, ["od/b", "spot/a"], "fit"),
        # ... outside the band a spot-only price 30 % cheaper still leads (with its warning)
        ([inst("spot/a", [price(0.70, billing=Billing.spot)]), inst("od/b", [price(1.00)])], 20, ["spot/a", "od/b"], None),
        # just outside the band (11 % dearer) the better fit does not move up
        ([inst("small/a", [price(1.00)], g="SMALL"), inst("big/b", [price(1.11)])], 22, ["small/a", "big/b"], None),
    ],
)
def test_cost_band_rules(instances, need_gib, expected, factor):
    rec = run(catalog(*instances), need_gib)
    assert names(rec) == expected
    first = rec.options[0]
    band = [n for n in first.reasons if n.code == "rank.band"]
    if factor is None:
        assert band == []
    else:
        (note,) = band
        assert note.params["factor"] == factor and 0 < note.params["cheaper_fraction"] < 0.10
        assert note.params["provider"] == rec.options[-1].provider
        assert "within the cost band" in render(note, "en") and "成本相近" in render(note, "zh")
        # the chat table's row says it short, from the same params (assistant/offline/handlers/rental.row_notes)
        row = band_row(note)
        assert row.code == "rank.band_row" and row.params == note.params
        assert render(row, "en").startswith(f"ahead of {note.params['provider']}'s ") and "之前" in render(row, "zh")


def test_fit_problems_are_labelled():
    rec = run(catalog(inst("small/a", [price(1.0)], g="SMALL"), inst("thin/b", [price(3.0)], vcpus=12)), 22)
    by = {o.provider: o for o in rec.options}
    assert by["small"].fit_problems == ["memory"] and "rank.fit_problems" in codes(by["small"].warnings)
    assert by["thin"].fit_problems == ["host"]


def test_mainland_offers_first_for_cny_then_by_cost():
    cat = catalog(inst("us/cheap", [price(0.5)]), inst("cn1/dear", [price(30.0, currency="CNY")], cn=True),
                  inst("cn2/cheap", [price(10.0, currency="CNY")], cn=True))
    rec = run(cat, currency="CNY")
    # mainland offers first (a CNY budget or region cn), each group by cost
    assert names(rec) == ["cn2/cheap", "cn1/dear", "us/cheap"]


# ------------------------------------------------------------------ the budget is a hard constraint


@pytest.mark.parametrize(
    "instances, budget, period, top, within",
    [
        # the cheaper of two priced options is within $1,000/month: it is first
        ([inst("a/one", [price(1.0)]), inst("b/two", [price(2.0)])], 1000, "month", "a/one", True),
        # an unpriced instance never comes first, even when the only priced one is dearer
        ([inst("dark/x"), inst("b/two", [price(1.2)])], 1000, "month", "b/two", True),
        # nothing priced fits $500/month: the cheapest priced one ($730/month) is shown first, marked over budget
        ([inst("dark/x"), inst("a/one", [price(1.0)]), inst("b/two", [price(2.0)])], 500, "month", "a/one", False),
        # an hourly budget compares the hourly price
        ([inst("a/one", [price(1.5)]), inst("b/two", [price(0.9)])], 1.0, "hour", "b/two", True),
    ],
)
def test_budget_top_pick_priced_and_within(instances, budget, period, top, within):
    rec = run(catalog(*instances), budget=budget, period=period)
    first = rec.options[0]
    assert f"{first.provider}/{first.instance}" == top
    assert first.price_per_hour is not None and first.within_budget is within
    priced = [o.price_per_hour is not None for o in rec.options]
    assert priced == sorted(priced, reverse=True)  # every priced option before every unpriced one
    cost = first.monthly_cost if period == "month" else first.price_per_hour
    if within:
        assert cost <= budget and rec.notices == []
        assert "option.within_budget" in codes(first.reasons)
    else:
        assert cost > budget and first.over_budget_fraction == pytest.approx(cost / budget - 1)
        (notice,) = rec.notices
        assert notice.code == "rank.none_within_budget" and notice.params["cost"] == pytest.approx(cost)
        assert "rank.over_budget" in codes(first.reasons)
        assert render(notice, "en").startswith("No priced option fits the $500.00/month budget")
        assert [o for o in rec.options if o.price_per_hour is not None] == [first]  # only the cheapest is shown
        assert rec.suggestions  # and what would work


def test_over_budget_options_are_near_misses():
    rec = run(catalog(inst("a/one", [price(1.0)]), inst("b/two", [price(2.0)])), budget=1000)
    assert names(rec) == ["a/one"]
    (miss,) = [r for r in rec.rejected if r.instance == "two"]
    assert miss.kind == "budget" and miss.reason.params["cost"] == pytest.approx(2.0 * 730)


@pytest.mark.parametrize(
    "instances, notice",
    [
        # spot asked for, only on-demand listed: say so, then the unpriced option (never silently first)
        ((inst("od/a", [price(1.0)]), inst("dark/x")), {"billing": "spot", "instances": 1, "unpriced": 1}),
        ((inst("od/a", [price(1.0)]),), {"billing": "spot", "instances": 1, "unpriced": 0}),
        # a spot price exists: no notice
        ((inst("sp/a", [price(0.4, billing=Billing.spot)]), inst("dark/x")), None),
    ],
)
def test_no_price_in_the_requested_billing_is_said(instances, notice):
    rec = run(catalog(*instances), billing=Billing.spot)
    found = [n.params for n in rec.notices if n.code == "rank.no_price_in_billing"]
    assert found == ([] if notice is None else [notice])


# ------------------------------------------------------------------ the real cost: billing that covers the need


MONTHLY_CHEAP = inst("t/box", [price(10.0, currency="CNY"), price(4600.0, billing=Billing.monthly, currency="CNY", per="month")],
                     cn=True)


@pytest.mark.parametrize(
    "kw, billing, cost_field, cost",
    [
        # a month of use: the monthly subscription (¥4,600) is cheaper than on-demand × 730 h (¥7,300)
        ({}, Billing.monthly, "monthly_cost", 4600.0),
        # 200 hours a month: on-demand × 200 h (¥2,000) is cheaper than a whole month's subscription
        ({"hours_per_month": 200}, Billing.on_demand, "monthly_cost", 2000.0),
        # an hourly budget: the hourly rate, on demand
        ({"budget": 20, "period": "hour"}, Billing.on_demand, "price_per_hour", 10.0),
        # the user names the billing: that one, no comparison
        ({"billing": "on_demand"}, Billing.on_demand, "monthly_cost", 7300.0),
    ],
)
def test_cheapest_billing_that_covers_the_need(kw, billing, cost_field, cost):
    rec = run(catalog(MONTHLY_CHEAP), currency="CNY", **kw)
    (o,) = rec.options
    assert o.billing == billing and getattr(o, cost_field) == pytest.approx(cost)
    chosen = [n for n in o.reasons if n.code == "rank.billing_chosen"]
    if kw.get("billing") or kw.get("period") == "hour":
        assert chosen == []
    else:
        (note,) = chosen
        assert note.params["billing"] == billing.value and note.params["cost"] == pytest.approx(cost)
        (other,) = note.params["compared"]
        assert other.params["billing"] != billing.value and other.params["cost"] > cost
        assert "is the cheapest billing for a month of use" in render(note, "en")


@pytest.mark.parametrize(
    "billing, warned",
    [
        (None, True),  # spot is the only price listed: used, with a warning that it can be interrupted
        ("spot", False),  # the user asked for spot: no warning
    ],
)
def test_spot_only_price_is_used_with_a_warning(billing, warned):
    rec = run(catalog(inst("s/spot", [price(0.5, billing=Billing.spot)])), billing=billing)
    (o,) = rec.options
    assert o.billing == Billing.spot and ("rank.spot_only" in codes(o.warnings)) is warned
    assert ("interruption" in o.fit_problems) is warned  # asked for spot: not a problem of this option


def test_monthly_price_changes_the_ranking():
    # on-demand, box a is cheaper (¥9/h vs ¥10/h), but b's monthly subscription (¥4,600) beats a's ¥6,570/month
    cat = catalog(inst("a/box", [price(9.0, currency="CNY")], cn=True), MONTHLY_CHEAP)
    assert names(run(cat, currency="CNY")) == ["t/box", "a/box"]


def test_job_pays_whole_monthly_terms_when_cheaper():
    # a 1,000-hour job: on-demand ¥10 × (1,000 h + the 0.25 h paid start, rec.job_start) = ¥10,002.5; two monthly
    # terms = ¥9,200
    from tools.recommend_rank import job_cost
    from tools.schemas import CostRequest

    assert job_cost(10.0, 1000, Billing.on_demand, CostRequest()) == pytest.approx(10_002.5)
    assert job_cost(4600 / 730, 1000, Billing.monthly, CostRequest()) == pytest.approx(9200)


def test_rank_basis_is_stated():
    rec = run(catalog(inst("a/one", [price(1.0)])))
    (basis,) = [n for n in rec.assumptions if n.code == "rank.basis"]
    # a USD answer for any region lists offers outside mainland China first
    assert basis.params == {"need": "month", "band_fraction": 0.10, "headroom_fraction": 0.10, "mainland_first": False,
                            "mainland_last": True}
    assert "within 10% of the cheapest" in render(basis, "en")


@pytest.mark.parametrize(
    "kw, expected",
    [
        # a CNY answer: mainland offers first, each group by cost
        ({"currency": "CNY"}, ["cn2/cheap", "cn1/dear", "us2/cheap", "us1/dear"]),
        # a USD answer for any region: offers outside mainland China first (mainland platforms bill in CNY)
        ({"currency": "USD"}, ["us2/cheap", "us1/dear", "cn2/cheap", "cn1/dear"]),
        # a USD answer for region cn: mainland only, by cost
        ({"currency": "USD", "region": "cn"}, ["cn2/cheap", "cn1/dear"]),
    ],
)
def test_region_groups_follow_the_answer_currency(kw, expected):
    cat = catalog(inst("us1/dear", [price(3.0)]), inst("us2/cheap", [price(2.0)]),
                  inst("cn1/dear", [price(10.0, currency="CNY")], cn=True), inst("cn2/cheap", [price(5.0, currency="CNY")], cn=True))
    assert names(run(cat, **kw)) == expected


# ------------------------------------------------------------------ price kind and age on every option


@pytest.mark.parametrize(
    "p, state, months, label, text",
    [
        # dated to the day, 4 months old: fresh
        (price(1.0), "fresh", 4, "2026-07-20", "as of 2026-07-20 (4 months old)"),
        # 24 months old: stale
        (price(1.0, as_of=STALE), "stale", 24, "2024-11-06", "stale"),
        # no date: undated
        (price(1.0, as_of=None), "undated", None, None, "date unknown"),
        # a month-level date our own inference gives: "about 2026-10 (inferred)"
        (price(1.0, as_of=dt.date(2026, 10, 1), as_of_precision=DatePrecision.approximate, as_of_inferred=True),
         "fresh", 2, "2026-10", "about 2026-10 (inferred)"),
    ],
)
def test_each_option_labels_price_kind_and_age(p, state, months, label, text):
    rec = run(catalog(inst("a/one", [p])))
    (o,) = rec.options
    assert o.price_grade == p.grade and o.price_age_state == state and o.price_age_months == months
    assert o.price_as_of_label == label and text in render(o.price_age, "en")
    priced = next(n for n in o.reasons if n.code == "option.price")
    assert text in render(priced, "en")  # the reason line carries the age
    assert rec.prices_aged_on == TODAY


def test_what_the_price_covers_is_shown():
    covers = PriceCovers(includes=[CostPart.compute], excludes=[CostPart.data_disk, CostPart.bandwidth])
    rec = run(catalog(inst("a/one", [price(1.0, covers=covers, source_url="https://example.org/prices")])))
    (o,) = rec.options
    assert o.price_covers.code == "price_age.covers" and o.price_source_url == "https://example.org/prices"


def test_unpriced_options_have_no_age():
    rec = run(catalog(inst("dark/x")))
    (o,) = rec.options
    assert o.price_age is None and o.price_age_state is None and o.within_budget is None


# ------------------------------------------------------------------ fractional GPUs


@pytest.mark.parametrize(
    "mode, offered",
    [
        ("inference", True),  # a vGPU slice may serve a small model (memory only, no serving load)
        ("lora", False),  # never offered for training
        ("full", False),
    ],
)
def test_fractional_gpus_never_for_training(mode, offered):
    from tools.vram_shape import model_from_params

    slice_ = inst("v/slice", [price(0.3)], g="MID", count=0.25)
    rec = recommend(catalog(slice_, inst("a/one", [price(1.0)])), model_from_params(0.1e9),
                    RecommendRequest(vram=VramRequest(mode=mode)), FX, today=TODAY)
    assert ("v/slice" in names(rec)) is offered
    if not offered:
        (miss,) = [r for r in rec.rejected if r.instance == "slice"]
        assert miss.kind == "fractional" and miss.reason.params == {"fraction": 0.25, "gpu": "MID", "training": True}
        assert "not offered for training" in render(miss.reason, "en")


def test_currency_of_a_converted_fresh_price():
    rec = run(catalog(inst("a/one", [price(1.0)])), currency="CNY")
    (o,) = rec.options
    assert o.currency == Currency.CNY and o.price_per_hour == pytest.approx(7.1)
