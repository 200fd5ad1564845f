"""Price age: fresh (<= 12 months) / stale (> 12 months) / undated, against an injected today."""

from __future__ import annotations

import datetime as dt

import pytest

from knowledge.settings import DEFAULT_USD_CNY_AS_OF, Settings
from tools.domain import Billing, CostPart, Currency, DatePrecision, Price, PriceCovers, PriceGrade, Provider
from tools.messages import render
from tools.price_age import (
    AgeState,
    add_months,
    covers_note,
    date_age,
    freshness_rank,
    months_between,
    price_age,
    rate_age,
    source_note,
)

D = dt.date
DAY, MONTH, APPROX = DatePrecision.day, DatePrecision.month, DatePrecision.approximate

# (as_of, precision, today, state, months) -- one row per boundary
CASES = [
    (D(2025, 12, 1), DAY, D(2026, 12, 1), AgeState.fresh, 12),     # exactly 12 months: still fresh
    (D(2025, 12, 1), DAY, D(2026, 12, 2), AgeState.stale, 12),     # one day more: stale
    (D(2025, 11, 30), DAY, D(2026, 11, 29), AgeState.fresh, 11),   # a day short of 12 months
    (D(2024, 2, 29), DAY, D(2025, 2, 28), AgeState.fresh, 12),     # leap day + 12 months clamps to Feb 28
    (D(2024, 2, 29), DAY, D(2025, 3, 1), AgeState.stale, 12),
    (D(2026, 12, 1), DAY, D(2026, 12, 1), AgeState.fresh, 0),      # today
    (D(2027, 1, 1), DAY, D(2026, 12, 1), AgeState.fresh, 0),       # a future date is not a negative age
    (D(2025, 12, 1), MONTH, D(2026, 12, 31), AgeState.fresh, 12),  # month-level: counts from the month's last day
    (D(2025, 12, 1), MONTH, D(2027, 1, 1), AgeState.stale, 13),
    (D(2026, 10, 1), APPROX, D(2026, 12, 1), AgeState.fresh, 2),   # "about 2026-10"
    (D(2026, 10, 1), APPROX, D(2027, 10, 31), AgeState.fresh, 12),
    (D(2026, 10, 1), APPROX, D(2027, 11, 1), AgeState.stale, 13),
    (D(2024, 11, 6), DAY, D(2026, 12, 1), AgeState.stale, 24),     # AWS China's price list
    (None, None, D(2026, 12, 1), AgeState.undated, None),          # Tencent's undated historical list
]


@pytest.mark.parametrize("as_of, precision, today, state, months", CASES)
def test_state_at_the_boundaries(as_of, precision, today, state, months):
    age = date_age(as_of, today, precision=precision)
    assert (age.state, age.months) == (state, months)


def price(as_of=None, precision=None, inferred=False, **kw) -> Price:
    return Price(billing=Billing.on_demand, amount=1.0, currency=Currency.CNY, source="s", grade=PriceGrade.official,
                 as_of=as_of, as_of_precision=precision, as_of_inferred=inferred, **kw)


@pytest.mark.parametrize(
    "p, en, zh",
    [
        (price(D(2026, 7, 20)), "as of 2026-07-20 (4 months old)", "2026-07-20 的价格（4 个月前）"),
        (price(D(2026, 10, 1), APPROX, True), "about 2026-10 (inferred), 2 months old", "约 2026-10（推断），2 个月前"),
        (price(D(2026, 11, 1), MONTH), "as of 2026-11 (1 month old)", "2026-11 的价格（1 个月前）"),
        (price(D(2024, 11, 6)), "as of 2024-11-06, stale (24 months old)", "2024-11-06 的价格，已过时（24 个月前）"),
        (price(), "date unknown (the source gives no date)", "日期未知（来源未注明日期）"),
    ],
)
def test_rendered_in_both_languages(p, en, zh):
    age = price_age(p, D(2026, 12, 1))
    assert render(age.note(), "en") == en
    assert render(age.note(), "zh") == zh


def test_date_and_state_pieces():
    age = price_age(price(D(2026, 10, 1), APPROX, True), D(2026, 12, 1))
    assert render(age.date_note(), "en") == "about 2026-10 (inferred)"
    assert render(age.state_note(), "zh") == "较新"
    assert age.note().params["date_precision"] == "approximate"  # typed params, no sentence
    assert render(price_age(price(), D(2026, 12, 1)).state_note(), "en") == "undated"


def test_today_comes_from_settings_and_env(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2030-01-01")
    today = Settings.load().today_date
    assert today == D(2030, 1, 1)
    assert price_age(price(D(2026, 7, 20)), today).state == AgeState.stale


def test_the_builtin_exchange_rate_ages_like_a_price():
    """The rate's age rides on its own note (`fx.rate`: `months`, `state`), like a price's."""
    rate = Settings().exchange_rate
    assert rate.as_of == DEFAULT_USD_CNY_AS_OF == D(2025, 11, 28)
    assert rate_age(rate, D(2026, 11, 28)).state == AgeState.fresh
    assert rate_age(rate, D(2026, 11, 29)).state == AgeState.stale
    stale = Settings(today=D(2026, 12, 1)).exchange_rate.note()
    assert (stale.code, stale.params["months"], stale.params["state"]) == ("fx.rate", 12, "stale")
    assert render(stale, "en") == (
        "1 USD = 7.1 CNY (built-in default, PBOC central parity, approx.; set `GPU_ADVISOR_USD_CNY`, 2025-11-28, "
        "12 months old, stale)")
    fresh = Settings(today=D(2026, 6, 1)).exchange_rate.note()
    assert render(fresh, "zh") == (
        "1 美元 = 7.1 元（内置默认值，参考人民银行中间价，近似；可用 `GPU_ADVISOR_USD_CNY` 设置，2025-11-28，6 个月前）")


# (env, config file, flags, source, aged): an override is the user's (no age) even when it equals the built-in 7.10
RATE_SOURCES = [
    ({}, None, {}, "builtin", True),  # nothing set: the built-in rate, with its date's age
    pytest.param({"GPU_ADVISOR_USD_CNY": "7.10"}, None, {}, "configured", False,
                 id="env-equal-to-builtin"),
    pytest.param({"GPU_ADVISOR_USD_CNY": "7.25"}, None, {}, "configured", False,
                 id="env-other-value"),  # undated: "today" is not a date the user gave, so no "this month"
    pytest.param({}, "usd_cny: 7.1\n", {}, "configured", False, id="config-file"),
    pytest.param({}, None, {"usd_cny": 7.10}, "configured", False, id="flag"),
    # a dated override ages like a price: 2026-03-01 is 9 months before today
    ({"GPU_ADVISOR_USD_CNY": "7.10", "GPU_ADVISOR_USD_CNY_AS_OF": "2026-03-01"}, None, {}, "configured", True),
]


@pytest.mark.parametrize("env, config, flags, source, aged", RATE_SOURCES)
def test_a_users_rate_is_reported_as_theirs(monkeypatch, tmp_path, env, config, flags, source, aged):
    """Regression: GPU_ADVISOR_USD_CNY=7.10 was reported as the built-in rate, dated 2025-11-28 and stale."""
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(tmp_path / "config.yaml"))
    if config:
        (tmp_path / "config.yaml").write_text(config, encoding="utf-8")
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    note = Settings.load(**flags).exchange_rate.note()
    assert (note.params["source"], "months" in note.params, "state" in note.params) == (source, aged, aged)
    en, zh = render(note, "en"), render(note, "zh")
    if source == "configured":
        assert "configured in `GPU_ADVISOR_USD_CNY`" in en and "`GPU_ADVISOR_USD_CNY` 配置值" in zh
        assert "built-in" not in en and "内置" not in zh
    assert ("months old" in en or "this month" in en) == aged and ("个月前" in zh or "本月" in zh) == aged


def test_freshness_rank_orders_fresh_then_stale_then_undated():
    today = D(2026, 12, 1)
    ages = [price_age(p, today) for p in (price(), price(D(2024, 1, 1)), price(D(2026, 11, 1)), price(D(2026, 1, 1)))]
    ordered = sorted(ages, key=freshness_rank)
    assert [a.state for a in ordered] == [AgeState.fresh, AgeState.fresh, AgeState.stale, AgeState.undated]
    assert ordered[0].months < ordered[1].months


@pytest.mark.parametrize(
    "covers, en, zh",
    [
        (PriceCovers(excludes=[CostPart.system_disk, CostPart.data_disk, CostPart.bandwidth]),
         "compute only (GPU, CPU, RAM); system disk, data disk and bandwidth billed separately",
         "仅含算力（GPU、CPU、内存）；系统盘、数据盘、公网带宽另计"),
        (PriceCovers(includes=[CostPart.compute, CostPart.system_disk, CostPart.data_disk], system_disk_gb=25, data_disk_gb=50,
                     excludes=[CostPart.data_disk, CostPart.bandwidth]),
         "includes a 25 GB system disk and a 50 GB data disk; more data disk and bandwidth billed separately",
         "含算力及 25 GB 系统盘、50 GB 数据盘；更多数据盘、公网带宽另计"),
    ],
)
def test_what_the_price_covers(covers, en, zh):
    note = covers_note(price(covers=covers))
    assert (render(note, "en"), render(note, "zh")) == (en, zh)
    assert covers_note(price()) is None  # not recorded: nothing said


def test_source_line_names_provider_grade_source_and_age():
    p = price(D(2026, 10, 1), APPROX, True, source_url="https://huggingface.co/datasets/brian8808/gpu-price-index")
    p = p.model_copy(update={"grade": PriceGrade.marketplace})
    provider = Provider(key="gpushare", name="Gpushare (恒源云)", name_zh="恒源云", kind="marketplace")
    note = source_note(p, provider, D(2026, 12, 1))
    assert render(note, "en") == "Price source: Gpushare (恒源云), marketplace sample (s), about 2026-10 (inferred), 2 months old."
    # Chinese shows the source's link: the source's own description is English prose
    assert render(note, "zh") == "价格来源：恒源云 市场挂单样本（huggingface.co/datasets/brian8808），约 2026-10（推断），2 个月前。"
    assert note.params["source_url"] == "https://huggingface.co/datasets/brian8808/gpu-price-index"


@pytest.mark.parametrize("start, months, end", [(D(2025, 1, 31), 1, D(2025, 2, 28)), (D(2025, 11, 15), 14, D(2027, 1, 15))])
def test_add_months(start, months, end):
    assert add_months(start, months) == end
    assert months_between(start, end) == months


def test_precision_needs_a_date():
    from knowledge.catalog.schema import PriceRow

    with pytest.raises(ValueError, match="as_of_precision / as_of_inferred need an as_of date"):
        PriceRow(provider="a", instance="b", region="c", billing="spot", amount=1, currency="USD", source="s",
                 as_of_precision="month")


def test_every_rendering_is_backed_by_its_own_params():
    """The verifier can back each age / covers / source line by the note's params: templates add no figures."""
    from assistant.verifier import Evidence, unbacked, verify_numbers
    from knowledge.catalog import load_catalog

    catalog = load_catalog(Settings(catalog_dir=None))
    today = D(2026, 12, 1)
    notes = [Settings(today=today).exchange_rate.note()]
    for inst in catalog.instances:
        if inst.region.china_mainland or inst.provider in ("aws", "azure"):
            for p in inst.prices:
                age = price_age(p, today)
                notes += [age.note(), age.date_note(), age.state_note(),
                          source_note(p, catalog.providers[inst.provider], today)]
                notes += [n for n in [covers_note(p)] if n]
    assert len(notes) > 500
    # no orphan in the price-age table: every entry is said by tools.price_age (the rate's age is in fx.rate)
    from tools.messages.price_age import MESSAGES

    assert {n.code for n in notes} - {"fx.rate"} == set(MESSAGES)
    bad = []
    for note in notes:
        for lang in ("en", "zh"):
            text = render(note, lang)
            claims = unbacked(verify_numbers(text, Evidence(tool_results={"note": note.model_dump(mode="json")})))
            if claims:
                bad.append((note.code, lang, text, [c.text for c in claims]))
    assert bad == []
