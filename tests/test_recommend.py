"""Recommender over small inline catalogs: fit, checks, pricing, ranking, near-misses, suggestions."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from tools.catalog import Catalog
from tools.domain import GPU, Billing, Currency, Instance, Price, PriceGrade, Provider, Region
from tools.errors import InputError, UnknownNameError
from tools.messages import formatter, render, render_suggestion
from tools.money import money
from tools.notes import ChangeKind
from tools.recommend import recommend
from tools.schemas import ExchangeRate, RecommendRequest, VramRequest
from tools.vram import estimate_vram, model_from_params

FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="test rate")
JULY = dt.date(2026, 7, 20)
NOV24 = dt.date(2024, 11, 6)


def gpu(key, memory_gb, usable_gib, *, bf16=True, nvlink=True, tflops=312.0, restricted=False):
    return GPU(
        key=key, name=key, vendor="NVIDIA", architecture="test", form_factor="SXM" if nvlink else "PCIe",
        memory_gb=memory_gb, usable_memory_gib=usable_gib, bf16_tflops=tflops if bf16 else None,
        fp16_tflops=tflops, fp32_tflops=tflops / 16, bf16_supported=bf16, fp8_supported=False, nvlink=nvlink,
        restricted_in_china=restricted, source="test",
    )


GPUS = {
    g.key: g
    for g in [
        gpu("A100-80GB", 80, 79.15, restricted=True),  # export-restricted for mainland China
        gpu("H800", 80, 79.1),  # China variant, sold there
        gpu("V100-16GB", 16, 15.77, bf16=False, tflops=125),  # no BF16
        gpu("L4", 24, 22.0, nvlink=False, tflops=121),  # PCIe only
        gpu("RTX-4090", 24, 23.6, nvlink=False, tflops=165),  # consumer, PCIe only
    ]
}


def price(amount, currency="USD", billing=Billing.on_demand, as_of=JULY, grade=PriceGrade.official, per="hour"):
    return Price(billing=billing, amount=amount, currency=currency, per=per, source="test", as_of=as_of, grade=grade)


def inst(provider, name, gpu_key, count, prices=(), *, vcpus=None, ram=None, cn=False, region="us-east-1",
         nvlink=None, ib=None):
    return Instance(
        provider=provider, instance=name, gpu=gpu_key, gpu_count=count, vcpus=vcpus, ram_gib=ram,
        region=Region(name=region, china_mainland=cn), prices=list(prices), nvlink=nvlink, infiniband=ib,
        source="test",
    )


INSTANCES = [
    # 8×A100 with NVLink + EFA; 12 vCPU/GPU is under the 16 guidance (marked, not rejected)
    inst("aws", "p4de.24xlarge", "A100-80GB", 8, [price(27.4471)], vcpus=96, ram=1152, nvlink=True, ib=True),
    # one A100, official price, healthy host
    inst("lambda", "gpu_1x_a100", "A100-80GB", 1, [price(1.79), price(0.9, billing=Billing.spot)], vcpus=30, ram=200),
    # marketplace sample: cheapest, but ranked after official prices
    inst("vast", "1x-RTX-4090", "RTX-4090", 1, [price(0.35, grade=PriceGrade.marketplace, as_of=None)], vcpus=16, ram=64),
    # mainland China, official CNY price (AWS China style)
    inst("aws-china", "p3.2xlarge", "V100-16GB", 1, [price(36.078, "CNY", as_of=NOV24)], vcpus=8, ram=61, cn=True,
         region="cn-north-1"),
    # mainland China, no price (Alibaba style), A100 = export-restricted GPU on an existing fleet
    inst("alibaba", "ecs.gn7e-c16g1.4xlarge", "A100-80GB", 1, vcpus=16, ram=125, cn=True, region="cn-beijing"),
    # mainland China, 8×H800, no price
    inst("alibaba", "h800-8x", "H800", 8, vcpus=128, ram=1024, cn=True, region="cn-beijing", nvlink=True, ib=True),
    # 4×L4 over PCIe
    inst("gcp", "g2-standard-48", "L4", 4, [price(4.0)], vcpus=48, ram=192, nvlink=False),
    # 8×A100 on a starved host (4 vCPU/GPU < half the guidance): rejected as thin
    inst("thin", "a100-8x", "A100-80GB", 8, [price(10.0)], vcpus=32, ram=1024, nvlink=True),
    # 8×A100 without InfiniBand: cannot join a multi-node cluster
    inst("noib", "a100-8x-eth", "A100-80GB", 8, [price(20.0)], vcpus=128, ram=1024, nvlink=True, ib=False),
]
PROVIDERS = {
    k: Provider(key=k, name=k, kind="gpu-cloud")
    for k in ["aws", "lambda", "vast", "aws-china", "alibaba", "gcp", "thin", "noib"]
}
CAT = Catalog(gpus=GPUS, providers=PROVIDERS, instances=INSTANCES)

M7 = model_from_params(7e9, "7B")
M13 = model_from_params(13e9, "13B")
M70 = model_from_params(70e9, "70B")


def req(**kw) -> RecommendRequest:
    vram = kw.pop("vram", {})
    return RecommendRequest(vram=VramRequest(**vram), **kw)


def names(rec) -> list[str]:
    return [f"{o.provider}/{o.instance}" for o in rec.options]


def rejected(rec, instance) -> list:
    """The near-miss notes of `instance` (code + params)."""
    return [r.reason for r in rec.rejected if r.instance == instance]


def codes(notes) -> list[str]:
    return [n.code for n in notes]


def params(notes, code: str) -> dict:
    """The params of the note with `code` among `notes` (it must be there)."""
    found = [n.params for n in notes if n.code == code]
    assert found, f"{code} not in {codes(notes)}"
    return found[0]


def english(notes) -> str:
    return " | ".join(render(n, "en") for n in notes)


# ------------------------------------------------------------------ fit and ranking


def test_lora_7b_ranks_by_cost_whatever_the_grade_then_unknown():
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}), FX)
    # by monthly cost, whatever the grade (issue 12: official prices no longer rank before marketplace samples):
    # the marketplace 4090 ($256) first, then $1,307 < $2,920 < $14,600 < $20,036; then the unknown-price
    # instances (fewest GPUs first); the thin-host 8×A100 and the V100 (16 GiB needed) are near-misses
    assert names(rec) == [
        "vast/1x-RTX-4090",
        "lambda/gpu_1x_a100",
        "gcp/g2-standard-48",
        "noib/a100-8x-eth",
        "aws/p4de.24xlarge",
        "alibaba/ecs.gn7e-c16g1.4xlarge",
        "alibaba/h800-8x",
    ]
    assert rec.options[0].price_grade == PriceGrade.marketplace
    unknown = rec.options[5:]
    assert all(o.price_per_hour is None and o.monthly_cost is None and o.job_cost is None for o in unknown)
    assert all("option.unpriced" in codes(o.reasons) for o in unknown)
    assert "fits; price unknown — check the console" in english(unknown[0].reasons)
    assert rec.currency == Currency.USD


def test_monthly_cost_and_reason_numbers_come_from_values():
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}), FX)
    top = next(o for o in rec.options if o.instance == "gpu_1x_a100")
    assert top.price_per_hour == pytest.approx(1.79)
    assert top.monthly_cost == pytest.approx(1.79 * 730)  # 1306.7
    per_gpu = estimate_vram(M7, VramRequest(mode="lora")).per_gpu_gib
    assert top.per_gpu_gib == pytest.approx(per_gpu, abs=0.01)
    fit = params(top.reasons, "option.fit")
    assert fit["needed_gib"] == pytest.approx(per_gpu, abs=1e-3) and fit["usable_gib"] == pytest.approx(79.15)
    priced = params(top.reasons, "option.price")
    assert priced["monthly"] == pytest.approx(1.79 * 730) and priced["currency"] == "USD"
    assert priced["grade"] == PriceGrade.official.value and priced["as_of"] == "2026-07-20" == top.price_as_of
    assert params(top.reasons, "option.cheaper_spot")["price_per_hour"] == pytest.approx(0.9)
    text = english(top.reasons)  # the numbers in the words are those values
    assert f"{per_gpu:.1f} GiB per GPU" in text
    assert money(1.79 * 730, Currency.USD) in text  # "$1,307"
    assert "as of 2026-07-20" in text
    assert f"spot {formatter('en').money(0.9, 'USD', 'hour')} is cheaper" in text


def test_unknown_price_listed_as_unknown_never_zero():
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, providers=["alibaba"]), FX)
    assert names(rec) == ["alibaba/ecs.gn7e-c16g1.4xlarge", "alibaba/h800-8x"]
    for o in rec.options:
        assert o.price_per_hour is None and o.monthly_cost is None and o.price_grade is None
        assert o.price_as_of is None
    data = rec.model_dump(mode="json")
    assert data["options"][0]["monthly_cost"] is None  # JSON null, not 0


def test_cny_budget_lists_mainland_offers_first():
    # a raw 12 GiB need fits every GPU here, V100-16GB included
    rec = recommend(CAT, None, req(required_gib=12, currency="CNY"), FX)
    assert rec.currency == Currency.CNY
    first = rec.options[0]
    assert first.provider == "aws-china" and first.china_mainland
    assert first.price_per_hour == pytest.approx(36.078)  # native CNY, not converted
    assert first.monthly_cost == pytest.approx(36.078 * 730)
    assert "option.converted" not in codes(first.reasons)
    second = rec.options[1]
    assert not second.china_mainland
    converted = params(second.reasons, "option.converted")
    assert converted["from_currency"] == "USD" and converted["rate"].params["cny"] == 7.1
    assert "converted from USD at 1 USD = 7.1 CNY" in english(second.reasons)
    assert second.instance == "1x-RTX-4090"  # the cheapest outside mainland China: $0.35/h
    assert second.price_per_hour == pytest.approx(0.35 * 7.1)


def test_region_cn_only_mainland_and_restricted_gpus():
    rec = recommend(CAT, None, req(required_gib=30, region="cn"), FX)
    assert rec.currency == Currency.CNY  # default for region cn
    assert {o.provider for o in rec.options} == {"alibaba"}
    gn7e = next(o for o in rec.options if o.instance == "ecs.gn7e-c16g1.4xlarge")
    assert params(gn7e.warnings, "warn.export_fleet") == {"gpu": "A100-80GB"}
    # an international A100 that would fit is a near-miss: export-restricted in mainland China
    export = [r for r in rec.rejected if r.gpu == "A100-80GB" and r.kind == "export"]
    assert export and export[0].reason.code == "reject.export"
    assert "export-restricted in mainland China" in render(export[0].reason, "en")
    assert "受出口管制" in render(export[0].reason, "zh")


def test_region_intl_excludes_mainland():
    rec = recommend(CAT, None, req(required_gib=12, region="intl"), FX)
    assert not any(o.china_mainland for o in rec.options)


# ------------------------------------------------------------------ sharding, interconnect, host


def test_sharded_when_one_gpu_does_not_fit_and_says_so():
    rec = recommend(CAT, M13, req(vram={"mode": "full"}), FX)
    p4de = next(o for o in rec.options if o.instance == "p4de.24xlarge")
    z3 = estimate_vram(M13, VramRequest(mode="full", gpus=8, sharding="zero3")).per_gpu_gib
    assert p4de.per_gpu_gib == pytest.approx(z3, abs=0.01)
    single = estimate_vram(M13, VramRequest(mode="full")).per_gpu_gib
    assert p4de.layout.code == "layout.zero3"
    assert p4de.layout.params == {"gpus": 8, "single_gpu_gib": pytest.approx(single, abs=1e-3)}
    assert "ZeRO-3 across 8 GPUs because one GPU does not hold it" in render(p4de.layout, "en")
    assert p4de.total_gpus == 8 and p4de.nodes == 1
    # the thin host (4 vCPU per A100) is a near-miss, the mildly thin p4de is marked
    assert params(rejected(rec, "a100-8x"), "host.thin")["vcpu_per_gpu"] == 4
    thin = params(p4de.warnings, "host.thin")
    assert thin["vcpu_per_gpu"] == 12 and thin["min_vcpu"] == 16 and thin["ram_gb_per_gpu"] is None
    assert "thin host: 12 vCPU per GPU < 16" in english(p4de.warnings)


@pytest.mark.parametrize(
    "model, mode, expect_l4",
    [
        # 7B LoRA fits one L4 (16 GiB < 22 GiB): plain data parallel, not sharded, so PCIe is fine
        (M7, "lora", "option"),
        # 13B LoRA does not fit one L4: ZeRO-3 over 4 PCIe L4s while clean A100 options exist → rejected
        (M13, "lora", "rejected"),
    ],
)
def test_pcie_only_sharded_training(model, mode, expect_l4):
    rec = recommend(CAT, model, req(vram={"mode": mode}), FX)
    if expect_l4 == "option":
        assert "gcp/g2-standard-48" in names(rec)
    else:
        assert "gcp/g2-standard-48" not in names(rec)
        layout = params(rejected(rec, "g2-standard-48"), "reject.pcie")["layout"]
        assert layout.code == "layout.zero3" and "single_gpu_gib" not in layout.params  # the layout, not why
        assert "PCIe only: ZeRO-3 across 4 GPUs without NVLink" in english(rejected(rec, "g2-standard-48"))


def test_pcie_only_kept_and_marked_slow_when_nothing_else():
    rec = recommend(CAT, M13, req(vram={"mode": "lora"}, gpu="L4"), FX)
    assert names(rec) == ["gcp/g2-standard-48"]
    assert params(rec.options[0].warnings, "warn.pcie_slow")["layout"].code == "layout.zero3"
    assert "slow: PCIe only" in english(rec.options[0].warnings)


def test_bf16_requested_rejects_v100():
    rec = recommend(CAT, None, req(required_gib=12, vram={"precision": "bf16"}), FX)
    assert "aws-china/p3.2xlarge" not in names(rec)
    assert params(rejected(rec, "p3.2xlarge"), "reject.bf16") == {"gpu": "V100-16GB"}
    assert "no BF16 on V100-16GB" in english(rejected(rec, "p3.2xlarge"))


def test_default_precision_keeps_v100_with_fp16_warning():
    small = model_from_params(1e9, "1B")
    rec = recommend(CAT, small, req(vram={"mode": "lora"}, providers=["aws-china"]), FX)
    assert names(rec) == ["aws-china/p3.2xlarge"]
    assert params(rec.options[0].warnings, "warn.no_bf16") == {"gpu": "V100-16GB"}
    assert "fp16 mixed precision" in english(rec.options[0].warnings)


# ------------------------------------------------------------------ budget, jobs, clusters


def test_over_budget_is_a_near_miss_with_numbers():
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, budget=1500), FX)  # $1,500/month
    assert "aws/p4de.24xlarge" not in names(rec)
    reasons = rejected(rec, "p4de.24xlarge")
    over = params(reasons, "reject.budget")
    assert over["cost"] == pytest.approx(27.4471 * 730) and over["budget"] == 1500 and over["period"] == "month"
    assert over["over_fraction"] == pytest.approx(27.4471 * 730 / 1500 - 1)
    assert render(reasons[0], "en").startswith(f"over budget: {money(27.4471 * 730, Currency.USD)}/month > $1,500")
    assert all(o.monthly_cost is None or o.monthly_cost <= 1500 for o in rec.options)


def test_budget_per_hour():
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, budget=2, period="hour"), FX)
    assert all(o.price_per_hour is None or o.price_per_hour <= 2 for o in rec.options)
    assert "lambda/gpu_1x_a100" in names(rec)


def test_job_cost_from_training_time_and_ranked_by_it():
    from tools.schemas import TrainTimeRequest
    from tools.train_time import estimate_train_time

    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, tokens=1e9, epochs=2), FX)
    lam = next(o for o in rec.options if o.instance == "gpu_1x_a100")
    # the same time estimate_train_time gives for the same question (its defaults), so one answer shows one time
    tte = estimate_train_time(M7, GPUS["A100-80GB"], TrainTimeRequest(mode="lora", tokens=1e9, epochs=2))
    assert lam.job_hours == pytest.approx(tte.hours)
    assert lam.job_cost == pytest.approx(1.79 * (tte.hours + 0.25))  # with its paid start-up (rec.job_start)
    priced = [o for o in rec.options if o.job_cost is not None]
    # by job cost; an option may outrank a cheaper one only within the 10 % band (and says why)
    for i, o in enumerate(priced):
        for later in priced[i + 1:]:
            assert later.job_cost >= o.job_cost / 1.10 - 1e-9
            if later.job_cost < o.job_cost:
                assert "rank.band" in codes(o.reasons)
    timing = params(lam.reasons, "option.time")
    assert timing["hours"] == pytest.approx(tte.hours) and timing["job_cost"] == pytest.approx(lam.job_cost)
    assert lam.throughput_tps == pytest.approx(2e9 / (tte.hours * 3600)) == timing["throughput_tps"]
    assert "time to finish ≈" in english(lam.reasons)


def test_job_budget_needs_tokens():
    with pytest.raises(InputError, match="--tokens") as info:
        recommend(CAT, M7, req(vram={"mode": "lora"}, budget=100, period="job"), FX)
    assert info.value.note.code == "error.job_budget_needs_tokens"
    assert "--" not in render(info.value.note, "en")  # the chat form asks, it names no flag


SAME_COST = Catalog(gpus=GPUS, providers={"p": Provider(key="p", name="p", kind="gpu-cloud")}, instances=[
    # one A100's price per GPU on each box: a job whose time scales with the count costs the same on all three
    inst("p", "a100x1", "A100-80GB", 1, [price(1.79)], vcpus=32, ram=200),
    inst("p", "a100x2", "A100-80GB", 2, [price(3.58)], vcpus=64, ram=400, nvlink=True),
    inst("p", "a100x8", "A100-80GB", 8, [price(14.32)], vcpus=256, ram=1600, nvlink=True, ib=True),
    # a month on two H800s costs what a month on one A100 does (named to sort first without the rule)
    inst("p", "aa-h800x2", "H800", 2, [price(1.79)], vcpus=64, ram=400, nvlink=True),
])


@pytest.mark.parametrize("need, order, factor", [
    # a sized job: the same GPU-hours, so the run that finishes sooner (names sort the other way: a100x1 first);
    # eight GPUs pay eight times the start-up (rec.job_start), which puts that box below both
    ({"vram": {"mode": "lora"}, "tokens": 1e9}, ["a100x2", "a100x1", "a100x8"], "sooner"),
    # a month of use: the same cost, so the machine with fewer GPUs (names sort the other way)
    ({"required_gib": 20}, ["a100x1", "aa-h800x2"], "size"),
])
def test_at_the_same_cost_the_sooner_job_or_the_smaller_machine_goes_first(need, order, factor):
    rec = recommend(SAME_COST, M7 if "vram" in need else None, req(**need), FX)
    shown = [o.instance for o in rec.options if o.instance in order]
    assert shown == order
    pairs = list(zip(order, order[1:]))[:1] if factor == "sooner" else list(zip(order, order[1:]))
    for above, below in pairs:
        band = params(next(o for o in rec.options if o.instance == above).reasons, "rank.band")
        assert band["instance"] == below and band["factor"] == factor
    assert "which costs the same" in english(next(o for o in rec.options if o.instance == order[0]).reasons)


def test_multi_node_cluster_needs_infiniband():
    # 70B full fine-tune: 8 GPUs are not enough (~145 GiB each with ZeRO-3); 16 or more are
    rec = recommend(CAT, M70, req(vram={"mode": "full"}, max_gpus=32, region="intl"), FX)
    clusters = [o for o in rec.options if o.nodes > 1]
    assert clusters and all(o.provider == "aws" for o in clusters)
    c = clusters[0]
    assert c.total_gpus == c.nodes * 8 and c.price_per_hour == pytest.approx(27.4471 * c.nodes)
    network = params(rejected(rec, "a100-8x-eth"), "reject.network")
    assert network["gpus_per_node"] == 8 and network["nodes"] >= 2
    assert "InfiniBand/RDMA" in english(rejected(rec, "a100-8x-eth"))
    assert "rec.multi_node" in codes(rec.assumptions)


def test_70b_full_finetune_for_500_usd_month_has_no_options_but_suggestions():
    rec = recommend(CAT, M70, req(vram={"mode": "full"}, budget=500, currency="USD"), FX)
    assert rec.options == []
    assert rec.rejected  # does-not-fit near-misses
    assert any(r.reason.code == "reject.fit" for r in rec.rejected)
    changes = [(s.change.kind, s.change.value) for s in rec.suggestions if s.change]
    assert (ChangeKind.set_mode, "lora") in changes and (ChangeKind.set_mode, "qlora") in changes
    # QLoRA (~44 GiB) fits one A100; its cheapest priced option is lambda at $1,307/month > $500
    qlora = next(s for s in rec.suggestions if s.change and s.change.value == "qlora")
    assert qlora.outcome.code == "suggest.over_budget"
    assert qlora.outcome.params["best"].params["cost"] == pytest.approx(1.79 * 730)
    text = "\n".join(render_suggestion(s, "en") for s in rec.suggestions)
    assert "QLoRA" in text and "LoRA" in text and "--" not in text  # advice, not flags
    assert money(1.79 * 730, Currency.USD) in text
    cli = "\n".join(render_suggestion(s, "en", surface="cli") for s in rec.suggestions)
    assert "--mode qlora: fits, but over your $500.00 budget" in cli


def test_raw_need_and_suggestion_for_region():
    # 30 GiB in region cn with only AWS China: nothing there; every region works
    rec = recommend(CAT, None, req(required_gib=30, region="cn", providers=["aws-china"]), FX)
    assert rec.options == []
    # every region with AWS China only has no 30 GiB GPU either; without the provider filter Alibaba's A100 holds it
    (drop,) = rec.suggestions
    assert drop.change.kind == ChangeKind.drop_providers and drop.outcome.code == "suggest.fits_on"
    assert drop.outcome.params["best"].params["instance"] == "ecs.gn7e-c16g1.4xlarge"
    assert render_suggestion(drop, "en").startswith("Drop the provider filter: fits on alibaba/ecs.gn7e-c16g1.4xlarge")
    assert render_suggestion(drop, "en", "cli").startswith("(no --provider): fits on")


# ------------------------------------------------------------------ input errors


def test_unknown_provider_suggests():
    with pytest.raises(UnknownNameError, match="Did you mean: lambda"):
        recommend(CAT, M7, req(providers=["lamda"]), FX)


def test_needs_model_or_memory():
    with pytest.raises(InputError, match="raw memory need") as info:
        recommend(CAT, None, req(), FX)
    assert info.value.note.code == "error.no_workload"


@pytest.mark.parametrize("budget", [0, -5, float("nan")])
def test_budget_must_be_positive(budget):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="budget"):
        req(budget=budget)


# ------------------------------------------------------------------ performance


def _big_catalog(n: int) -> Catalog:
    rows = []
    for i in range(n):
        base = INSTANCES[i % len(INSTANCES)]
        rows.append(base.model_copy(update={"instance": f"{base.instance}-{i}"}))
    return Catalog(gpus=GPUS, providers=PROVIDERS, instances=rows)


@pytest.mark.parametrize("mode, tokens", [("lora", None), ("full", 1e9)])
def test_under_150_ms_on_800_instances(mode, tokens):
    big = _big_catalog(800)
    request = req(vram={"mode": mode}, tokens=tokens, max_gpus=32)
    recommend(big, M13, request, FX)  # warm imports
    best = min(_timed(big, request) for _ in range(3))
    assert best < 1.5, f"{best * 1000:.0f} ms"  # regression guard at 10x the 150 ms target (busy CI hosts)


def _timed(cat, request) -> float:
    t0 = time.perf_counter()
    recommend(cat, M13, request, FX)
    return time.perf_counter() - t0


def test_requested_billing_missing_is_a_near_miss_not_unknown():
    # only lambda lists a spot price; the others are priced on demand only (near-misses),
    # alibaba lists nothing at all (still "price unknown")
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, billing="spot"), FX)
    priced = [o for o in rec.options if o.price_per_hour is not None]
    assert [o.instance for o in priced] == ["gpu_1x_a100"]
    assert priced[0].billing == Billing.spot and priced[0].price_per_hour == pytest.approx(0.9)
    assert params(rejected(rec, "p4de.24xlarge"), "reject.billing") == {"billing": "spot", "listed": ["on_demand"]}
    assert "no spot price in the catalog (listed: on-demand)" in english(rejected(rec, "p4de.24xlarge"))
    assert {o.provider for o in rec.options if o.price_per_hour is None} == {"alibaba"}


def test_spot_job_cost_includes_expected_rework():
    from tools.cost import spot_paid_hours

    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, billing="spot", tokens=1e9), FX)
    lam = rec.options[0]
    # defaults: 1 interruption/day, checkpoint every 1 h, 0.25 h restart → paid = h / (1 − 0.75/24), plus the first
    # start (rec.job_start, the same 0.25 h)
    assert lam.job_cost == pytest.approx(0.9 * (spot_paid_hours(lam.job_hours, 1, 1, 0.25) + 0.25))
    assert lam.job_cost == pytest.approx(0.9 * (lam.job_hours / (1 - 0.75 / 24) + 0.25))
    assert params(rec.assumptions, "rec.spot_rework") == {"interruptions_per_day": 1, "checkpoint_hours": 1,
                                                          "restart_hours": 0.25}
    assert "expected rework" in english(rec.assumptions)


def test_hours_per_month_schedule():
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, hours_per_month=200), FX)
    lam = next(o for o in rec.options if o.instance == "gpu_1x_a100")
    assert lam.monthly_cost == pytest.approx(1.79 * 200)
    assert params(rec.assumptions, "rec.monthly_hours") == {"hours": 200}
    assert "× 200 h" in english(rec.assumptions)


def test_instance_priced_in_one_region_not_repeated_as_unknown():
    # the same lambda instance in a second region without a price
    other_region = INSTANCES[1].model_copy(update={"region": Region(name="us-west-1"), "prices": []})
    cat = Catalog(gpus=GPUS, providers=PROVIDERS, instances=INSTANCES + [other_region])
    rec = recommend(cat, M7, req(vram={"mode": "lora"}), FX)
    lam = [o for o in rec.options if o.instance == "gpu_1x_a100"]
    assert len(lam) == 1 and lam[0].price_per_hour == pytest.approx(1.79)


# ------------------------------------------------------------------ a training time limit


def test_a_time_limit_keeps_only_options_that_finish_and_says_how_slow_the_rest_are():
    # 7B LoRA on 1B tokens within 10 h: one A100 takes ~62 h, an 8×A100 box ~7.8 h
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, tokens=1e9, deadline_hours=10, period="job"), FX)
    assert rec.options and all(o.job_hours is None or o.job_hours <= 10 for o in rec.options)
    assert all(o.gpu_count == 8 for o in rec.options)
    slow = params(rejected(rec, "gpu_1x_a100"), "reject.deadline")
    assert slow["deadline_hours"] == 10 and slow["hours"] > 10
    assert slow["over_fraction"] == pytest.approx(slow["hours"] / 10 - 1)
    assert "too slow" in english(rejected(rec, "gpu_1x_a100"))
    # without the limit the single A100 is the cheaper job and comes first among official prices
    free = recommend(CAT, M7, req(vram={"mode": "lora"}, tokens=1e9, period="job"), FX)
    assert "lambda/gpu_1x_a100" in names(free)


def test_a_time_limit_one_machine_misses_is_met_by_a_cluster_of_rdma_machines_only():
    # 5B tokens within 10 h: one 8×A100 box takes ~39 h; four InfiniBand boxes ~9.7 h; the Ethernet box never joins
    rec = recommend(CAT, M7, req(vram={"mode": "lora"}, tokens=5e9, deadline_hours=10, period="job", max_gpus=64), FX)
    priced = [o for o in rec.options if o.price_per_hour is not None]
    assert [(o.provider, o.nodes) for o in priced] == [("aws", 4)]
    assert priced[0].job_hours <= 10 and priced[0].total_gpus == 32
    assert "rec.multi_node_deadline" in codes(rec.assumptions)
    assert not rejected(rec, "p4de.24xlarge")  # its cluster is the option, so its single box is no near-miss
    assert "reject.deadline" in codes(rejected(rec, "a100-8x-eth"))
    # the same limit with the default 8-GPU cap: no cluster, nothing priced, and the too-slow boxes are said
    capped = recommend(CAT, M7, req(vram={"mode": "lora"}, tokens=5e9, deadline_hours=10, period="job"), FX)
    assert not [o for o in capped.options if o.price_per_hour is not None]
    assert "reject.deadline" in codes(rejected(capped, "p4de.24xlarge"))


def test_a_time_limit_needs_the_job_size():
    with pytest.raises(InputError) as info:
        recommend(CAT, M7, req(vram={"mode": "lora"}, deadline_hours=10), FX)
    assert info.value.note.code == "error.deadline_needs_tokens"
