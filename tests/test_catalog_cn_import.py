"""The Chinese prices imported from cn_gpu_prices_sourced.csv keep their URL, grade and date state.

The source file is kept in the repo (knowledge/catalog/sources/, copied by rebuild_builtin), so every
row is checked against the catalog: what was imported, and what was deliberately not (ranges,
"as low as" floors, credit prices).
"""

from __future__ import annotations

import csv
import datetime as dt

import pytest

from knowledge.catalog import load_catalog
from knowledge.catalog.rebuild_builtin import CN_GPUS, CN_PROVIDERS, SOURCES_DIR
from knowledge.settings import Settings
from tools.domain import Billing, Currency, DatePrecision, PriceGrade
from tools.price_age import AgeState, price_age

SOURCE = SOURCES_DIR / "cn_gpu_prices_sourced.csv"
ROWS = list(csv.DictReader(open(SOURCE, encoding="utf-8")))
MARKETPLACES = ["autodl", "gpushare", "matpool", "suanjiayun", "chenjianyun", "compshare", "gongjiyun"]


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(Settings(catalog_dir=None))


def _prices(catalog, provider):
    return [(i, p) for i in catalog.instances if i.provider == provider for p in i.prices]


def test_the_source_copy_is_the_one_described():
    assert len(ROWS) == 108 and sum(1 for r in ROWS if r["price"]) == 78


def test_every_imported_price_comes_from_a_source_row_with_the_same_url_and_grade(catalog):
    by_url = {}
    for r in ROWS:
        by_url.setdefault(r["source_url"], []).append(r)
    n = 0
    for key in ["tencent", *MARKETPLACES]:
        for inst, p in _prices(catalog, key):
            n += 1
            assert p.source_url in by_url, inst.key
            rows = by_url[p.source_url]
            assert any(CN_PROVIDERS.get(r["provider"]) == key and CN_GPUS.get(r["gpu"]) == inst.gpu for r in rows), inst.key
            grades = {r["grade"] for r in rows}
            expected = {"official": PriceGrade.official, "marketplace_sample": PriceGrade.marketplace,
                        "third_party": PriceGrade.third_party}
            assert p.grade in {expected[g] for g in grades}, inst.key
            assert p.currency == Currency.CNY
    assert n == 62 + 10  # Tencent 62; marketplaces: 8 aggregator rows + the AutoDL screenshot + the 共绩算力 article


# (provider, instance id, billing, amount, grade, as_of, precision, inferred): one row per kind of date state
CASES = [
    # Tencent: official list price, undated (historical, about 2021-22), per instance, monthly kept as listed
    ("tencent", "GT4.41XLARGE948", Billing.on_demand, 237.51, PriceGrade.official, None, None, False),
    ("tencent", "GT4.41XLARGE948", Billing.monthly, 114016, PriceGrade.official, None, None, False),
    # the newer snapshot lists a range; the older snapshot's own single price is used
    ("tencent", "GN8.14XLARGE448", Billing.on_demand, 123.52, PriceGrade.official, None, None, False),
    # aggregator sample: about 2026-10, our inference
    ("gpushare", "rtx-3090-1x", Billing.on_demand, 0.76, PriceGrade.marketplace, dt.date(2026, 10, 1), DatePrecision.approximate, True),
    ("suanjiayun", "rtx-4090-d-1x", Billing.on_demand, 1.14, PriceGrade.marketplace, dt.date(2026, 10, 1), DatePrecision.approximate, True),
    ("compshare", "h20-1x", Billing.on_demand, 7.5, PriceGrade.marketplace, dt.date(2026, 10, 1), DatePrecision.approximate, True),
    # first-hand screenshot with a day: the listed (struck-through) price, not the member discount
    ("autodl", "rtx-3090-1x", Billing.on_demand, 1.66, PriceGrade.marketplace, dt.date(2023, 6, 30), DatePrecision.day, False),
    # third-party article, undated
    ("gongjiyun", "rtx-4090-1x", Billing.on_demand, 1.68, PriceGrade.third_party, None, None, False),
]


@pytest.mark.parametrize("provider, instance, billing, amount, grade, as_of, precision, inferred", CASES,
                         ids=[f"{c[0]}/{c[1]}/{c[2].value}" for c in CASES])
def test_date_state_and_grade(catalog, provider, instance, billing, amount, grade, as_of, precision, inferred):
    inst = next(i for i in catalog.instances if i.provider == provider and i.instance == instance)
    p = inst.price(billing)
    assert (p.amount, p.grade, p.as_of, p.precision, p.as_of_inferred) == (amount, grade, as_of, precision, inferred)
    assert p.source_url and p.source_url.startswith("https://")
    assert inst.region.china_mainland


def test_monthly_is_never_derived_from_hourly(catalog):
    # Tencent monthly is 39-66 % of 730 x hourly: both are imported as listed
    for inst in (i for i in catalog.instances if i.provider == "tencent" and i.prices):
        od, mo = inst.price(Billing.on_demand), inst.price(Billing.monthly)
        assert od and mo, inst.key
        assert 0.35 < mo.amount / (730 * od.amount) < 0.70, inst.key


def test_ranges_floors_and_credits_never_become_prices(catalog):
    # "as low as" figures of an unnamed platform: no A100/A800 offer carries them
    a100_cny = {p.amount for i in catalog.instances if i.gpu.startswith(("A100", "A800")) for p in i.prices
                if p.currency == Currency.CNY}
    floors = [float(r["price"]) for r in ROWS if r["provider"].startswith("unattributed")]
    assert len(floors) == 3 and not a100_cny & set(floors)
    ranged = [r for r in ROWS if r["provider"] == "Tencent Cloud" and not r["price"]]
    assert len(ranged) == 30
    gn10x4 = next(i for i in catalog.instances if i.key == "tencent/GN10X.4XLARGE80/cn-mainland")
    assert gn10x4.prices == []
    assert not any(i.provider == "aladdinedu" for i in catalog.instances)


def test_vgpu_slices_are_fractional_gpu_counts(catalog):
    quarter = next(i for i in catalog.instances if i.key == "tencent/GN7.LARGE20/cn-mainland")
    half = next(i for i in catalog.instances if i.key == "tencent/GN7.2XLARGE40/cn-mainland")
    assert (quarter.gpu, quarter.gpu_count, half.gpu_count) == ("T4", 0.25, 0.5)
    assert quarter.price(Billing.on_demand).amount == 3.39


@pytest.mark.parametrize("key", MARKETPLACES)
def test_marketplaces_are_providers_of_their_own(catalog, key):
    p = catalog.providers[key]
    assert (p.kind, p.china_mainland, p.home_currency) == ("marketplace", True, Currency.CNY)
    assert p.name_zh
    mine = [i for i in catalog.instances if i.provider == key]
    assert mine and all(i.gpu_count == 1 and i.instance.endswith("-1x") for i in mine)
    assert all(i.prices and i.prices[0].per == "hour" for i in mine)


def test_what_the_price_covers(catalog):
    gn2 = next(i for i in catalog.instances if i.key == "tencent/GN2.7XLARGE56/cn-mainland").price(Billing.monthly)
    assert "local_ssd" in {x.value for x in gn2.covers.excludes}
    autodl = next(i for i in catalog.instances if i.key == "autodl/rtx-3090-1x/beijing-a").price(Billing.on_demand)
    assert (autodl.covers.system_disk_gb, autodl.covers.data_disk_gb) == (25, 50)
    assert not autodl.covers.compute_only
    # the aggregator says nothing about disks: nothing is recorded (not invented)
    assert next(i for i in catalog.instances if i.key == "gpushare/rtx-3090-1x/cn-mainland").prices[0].covers is None


def test_ages_against_an_injected_today(catalog):
    today = dt.date(2026, 12, 1)
    states = {i.provider: price_age(i.prices[0], today).state for i in catalog.instances
              if i.provider in ("tencent", "gpushare", "autodl") and i.prices}
    assert states == {"tencent": AgeState.undated, "gpushare": AgeState.fresh, "autodl": AgeState.stale}
