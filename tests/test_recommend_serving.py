"""Serving-aware recommendations (issue 11): instances that carry a load, ranked by the monthly cost of meeting it.

Small inline catalogs of real GPU and model records (the built-in catalog's, with their sources) and invented
instances and prices; each expectation is checked against the serving estimator itself, so the recommender adds
only the choice: which deployment, how many copies, what it costs, what misses and why.
"""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest

from knowledge.catalog import load_catalog, load_software_rules
from knowledge.settings import Settings
from tools.catalog import Catalog
from tools.domain import Billing, Instance, Price, PriceGrade, Provider, Region
from tools.errors import InputError
from tools.messages import render
from tools.recommend import recommend
from tools.recommend_serving import KV_MARGIN
from tools.schemas import ExchangeRate, RecommendRequest, ServingLoad, VramRequest
from tools.serving import estimate_serving
from tools.serving_types import Load, LoadKind, ServingRequest

FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="test rate")
TODAY = dt.date(2026, 12, 1)


@pytest.fixture(scope="module")
def real():
    return load_catalog(Settings.load())


def inst(name: str, gpu: str, count: int, per_hour: float | None, *, nvlink=True) -> Instance:
    provider, _, instance = name.partition("/")
    prices = [] if per_hour is None else [Price(billing=Billing.on_demand, amount=per_hour, currency="USD", source="test",
                                                as_of=dt.date(2026, 7, 1), grade=PriceGrade.official)]
    return Instance(provider=provider, instance=instance, gpu=gpu, gpu_count=count, vcpus=32 * count, ram_gib=256 * count,
                    nvlink=nvlink, infiniband=False, region=Region(name="r"), prices=prices, source="test")


def catalog(real, *instances: Instance) -> Catalog:
    gpus = {i.gpu: real.gpus[i.gpu] for i in instances}
    providers = {i.provider: Provider(key=i.provider, name=i.provider, kind="gpu-cloud") for i in instances}
    return Catalog(gpus=gpus, providers=providers, instances=list(instances), software_rules=load_software_rules())


def serve(cat, model, *, max_gpus=8, budget=None, **load):
    request = RecommendRequest(serving=ServingLoad(**load), max_gpus=max_gpus, budget=budget, currency="USD")
    return recommend(cat, model, request, FX, today=TODAY)


def names(options) -> list[str]:
    return [f"{o.provider}/{o.instance}" for o in options]


# ------------------------------------------------------------------ numbers on each option


def test_option_numbers_are_the_estimators(real):
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("a/l40s", "L40S", 1, 1.0))
    rec = serve(cat, model, concurrency=8, input_len=2048, output_len=256)
    (o,) = rec.options
    est = estimate_serving(model, real.gpu("L40S"), ServingRequest(gpus=1, gpus_per_node=1, nodes=1, input_len=2048,
                                                                   output_len=256, load=Load(kind=LoadKind.concurrency, value=8)))
    assert o.copies == 1 and o.weights == "bf16"
    assert o.output_tok_s == pytest.approx(est.output_tok_s) and o.ttft_ms == pytest.approx(est.ttft_ms)
    assert o.tpot_ms == pytest.approx(est.tpot_ms) and o.max_concurrency == est.max_concurrency
    # cost per million output tokens at the load = the hourly price over the tokens served in an hour
    assert o.cost_per_million_output_tokens_at_load == pytest.approx(1.0 / (est.output_tok_s * 3600) * 1e6)
    assert o.cost_per_million_output_tokens_at_max == pytest.approx(1.0 / (est.max_output_tok_s * 3600) * 1e6)
    assert o.monthly_cost == pytest.approx(730.0) and o.per_gpu_gib == pytest.approx(round(est.per_gpu_gib, 2))
    serving = next(n for n in o.reasons if n.code == "serve_rec.option")
    assert serving.params["output_tok_s"] == pytest.approx(round(est.output_tok_s, 1))
    assert "per million output tokens at the load" in render(serving, "en") and "每百万输出 token" in render(serving, "zh")
    assert rec.vram is None  # memory is per option (weights + KV for the load), not the batch-1 estimate
    assert {"serve_rec.basis", "serving.load_closed_loop", "serving.engine_profile"} <= {a.code for a in rec.assumptions}


# ------------------------------------------------------------------ the load decides what fits and how many copies


def test_copies_carry_a_load_one_machine_cannot(real):
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("a/l40s", "L40S", 1, 1.0))
    one = estimate_serving(model, real.gpu("L40S"), ServingRequest(gpus=1, input_len=8000, output_len=500,
                                                                   load=Load(kind=LoadKind.concurrency, value=1)))
    users = one.max_concurrency * 2 + 1  # more than two machines' KV caches hold
    rec = serve(cat, model, concurrency=users, input_len=8000, output_len=500)
    (o,) = rec.options
    assert o.copies == 3 and o.total_gpus == 3
    assert o.max_concurrency >= users and o.monthly_cost == pytest.approx(3 * 730.0)
    assert o.layout.code == "serve_rec.layout" and o.layout.params["copies"] == 3
    assert render(o.layout, "en").startswith("3 copies × 1 GPU")


@pytest.mark.parametrize(
    "max_gpus, load, kind, code",
    [
        # the KV cache for the load does not fit and no copy is allowed (one GPU in all)
        (1, {"concurrency": 400, "input_len": 8000, "output_len": 500}, "fit", "serve_rec.reject_kv"),
        # a TTFT target no deployment meets
        (8, {"concurrency": 4, "ttft_ms": 1}, "latency", "serve_rec.reject_targets"),
        # a per-user speed target no deployment meets
        (8, {"concurrency": 4, "min_tokens_per_user": 10_000}, "latency", "serve_rec.reject_targets"),
        # more short requests per second than eight copies' front ends serve
        (8, {"request_rate": 2000, "input_len": 64, "output_len": 16}, "throughput", "serve_rec.reject_saturated"),
    ],
)
def test_what_misses_the_load_is_a_near_miss_with_why(real, max_gpus, load, kind, code):
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("a/l40s", "L40S", 1, 1.0))
    rec = serve(cat, model, max_gpus=max_gpus, **load)
    assert rec.options == []
    (miss,) = [r for r in rec.rejected if r.instance == "l40s"]
    assert miss.kind == kind and miss.reason.code == code
    assert render(miss.reason, "en") and render(miss.reason, "zh")


def test_targets_met_are_kept_and_missed_ones_dropped(real):
    # long prompts: time to first token is prefill-bound, and the H100's dense peak is 2.7× the L40S's
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("fast/h100", "H100", 1, 3.0), inst("slow/l40s", "L40S", 1, 1.0, nvlink=False))
    load = {"concurrency": 1, "input_len": 8000, "output_len": 128}
    loose = {o.provider: o for o in serve(cat, model, **load).options}
    target = (loose["fast"].ttft_ms + loose["slow"].ttft_ms) / 2  # what the H100 meets and the A10G does not
    rec = serve(cat, model, ttft_ms=target, **load)
    assert names(rec.options) == ["fast/h100"]
    (miss,) = [r for r in rec.rejected if r.instance == "l40s"]
    assert miss.kind == "latency" and miss.reason.params["target_ms"] == target


def test_ranked_by_the_monthly_cost_of_meeting_the_load(real):
    # one L40S costs less per hour than one H100 but needs three copies for this load; one H100 carries it
    model = real.model("qwen2.5-7b")
    load = {"input_len": 8000, "output_len": 500}
    h100 = estimate_serving(model, real.gpu("H100"), ServingRequest(gpus=1, load=Load(kind=LoadKind.concurrency, value=1), **load))
    users = math.floor(h100.max_concurrency / (1 + KV_MARGIN))  # all one H100 holds with its margin: more than two L40S copies hold
    cat = catalog(real, inst("cheap/l40s", "L40S", 1, 1.0), inst("big/h100", "H100", 1, 2.5))
    rec = serve(cat, model, concurrency=users, **load)
    by = {o.provider: o for o in rec.options}
    assert by["cheap"].copies >= 3 and by["big"].copies == 1
    assert by["big"].monthly_cost < by["cheap"].monthly_cost
    assert names(rec.options)[0] == "big/h100"


def test_budget_applies_to_the_cost_of_meeting_the_load(real):
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("a/l40s", "L40S", 1, 1.0))
    rec = serve(cat, model, budget=1000, concurrency=8)  # one machine, $730/month
    assert rec.options[0].within_budget is True
    over = serve(cat, model, budget=500, concurrency=8)
    assert over.options[0].within_budget is False and over.notices[0].code == "rank.none_within_budget"


# ------------------------------------------------------------------ quantised variants beside bf16


def test_fp8_and_int4_proposed_beside_bf16_with_quality_caveats(real):
    # Qwen2.5-72B: bf16 weights (~136 GiB) need four H100s; FP8 fits two; INT4 AWQ (~40 GiB) one A100
    model = real.model("qwen2.5-72b")
    cat = catalog(real, inst("h4/h100x4", "H100", 4, 16.0), inst("h2/h100x2", "H100", 2, 8.0),
                  inst("a/a100", "A100-80GB", 1, 1.5))
    rec = serve(cat, model, concurrency=4, input_len=1024, output_len=256)
    assert names(rec.options) == ["h4/h100x4"] and rec.options[0].weights == "bf16"
    variants = {o.weights: o for o in rec.quantised}
    assert set(variants) == {"fp8", "int4"}
    assert variants["fp8"].gpu == "H100" and variants["fp8"].gpu_count == 2  # FP8 runs natively on Hopper, not the A100
    assert variants["int4"].gpu == "A100-80GB" and variants["int4"].monthly_cost == pytest.approx(1.5 * 730)
    for weights, o in variants.items():
        note = o.reasons[0]
        assert note.code == "serve_rec.variant" and note.params["base_cost"] == pytest.approx(16.0 * 730)
        assert note.params["cost"] < note.params["base_cost"]
        caveats = [w.code for w in o.warnings]
        assert ("serving.quality_recovery" if weights == "fp8" else "serving.quality_perplexity") in caveats
    assert any(a.code == "serve_rec.variants" for a in rec.assumptions)


def test_no_variants_when_the_weights_are_named(real):
    model = real.model("qwen2.5-72b")
    cat = catalog(real, inst("h4/h100x4", "H100", 4, 16.0), inst("h2/h100x2", "H100", 2, 8.0))
    rec = serve(cat, model, concurrency=4, weights="bf16")
    assert rec.quantised == [] and [o.weights for o in rec.options] == ["bf16"]
    fp8 = serve(cat, model, concurrency=4, weights="fp8")
    assert names(fp8.options)[0] == "h2/h100x2" and fp8.options[0].weights == "fp8"


def test_a_gpu_without_bandwidth_cannot_be_estimated(real):
    model = real.model("qwen2.5-7b")
    missing = [k for k, g in real.gpus.items() if not g.memory_bandwidth_gbps and g.stack and g.stack.value == "cuda"
               and (g.cc or 0) >= 8.0]
    if not missing:
        pytest.skip("every modern GPU in the catalog has a bandwidth")
    cat = catalog(real, inst("x/nobw", missing[0], 1, 1.0))
    rec = serve(cat, model, concurrency=1)
    (miss,) = rec.rejected
    assert miss.kind == "estimate" and miss.reason.code == "serving.error.no_bandwidth"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "build, match",
    [
        (lambda m: RecommendRequest(vram=VramRequest(mode="lora"), serving=ServingLoad(concurrency=4)),
         "A serving load applies to inference, not LoRA."),
        (lambda m: RecommendRequest(required_gib=10, serving=ServingLoad(concurrency=4)), "needs a model"),
    ],
)
def test_serving_load_needs_inference_and_a_model(real, build, match):
    model = real.model("qwen2.5-7b")
    request = build(model)
    with pytest.raises(InputError, match="--") as info:  # the CLI form names the flags
        recommend(real, model if request.required_gib is None else None, request, FX, today=TODAY)
    assert match in render(info.value.note, "en") and "--" not in render(info.value.note, "en")


@pytest.mark.parametrize(
    "fields, match",
    [
        ({"concurrency": 4, "request_rate": 2.0}, "Give one of --concurrency, --requests-per-day, --request-rate"),
        ({"concurrency": 4, "peak_factor": 2.0}, "--peak-factor applies to --requests-per-day only"),
        ({"concurrency": 0}, "greater than 0"),
    ],
)
def test_serving_load_validation(fields, match):
    with pytest.raises(ValueError, match=match):
        ServingLoad(**fields)


# ------------------------------------------------------------------ CLI


def _cli(capsys, *argv):
    from ui.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_recommend_with_a_serving_load(capsys):
    code, out, err = _cli(capsys, "recommend", "--model", "qwen2.5-7b", "--mode", "inference", "--concurrency", "8",
                          "--input-len", "2048", "--output-len", "256", "--region", "cn", "--json")
    assert code == 0, err
    data = json.loads(out)
    priced = [o for o in data["options"] if o["price_per_hour"] is not None]
    assert priced
    for o in priced:
        assert {"output_tok_s", "ttft_ms", "tpot_ms", "cost_per_million_output_tokens_at_load", "copies", "weights"} <= set(o)
        assert o["cost_per_million_output_tokens_at_load"] == pytest.approx(
            o["price_per_hour"] / (o["output_tok_s"] * 3600) * 1e6)
    code, out, _ = _cli(capsys, "recommend", "--model", "qwen2.5-7b", "--requests-per-day", "100000", "--top", "2")
    assert code == 0 and "out tok/s" in out and "per 1M out tok" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--model", "qwen2.5-7b", "--mode", "lora", "--concurrency", "8"], "--mode inference"),
        (["--required-gib", "10", "--concurrency", "8"], "--required-gib"),
        (["--model", "qwen2.5-7b", "--concurrency", "8", "--peak-factor", "2"], "--peak-factor"),
        (["--model", "qwen2.5-7b", "--concurrency", "8", "--request-rate", "2"], "not allowed with"),
    ],
)
def test_cli_bad_serving_flags_exit_2(capsys, argv, message):
    code, _, err = _cli(capsys, "recommend", *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_copies_guess_uses_the_load(real):
    # 2.5 × what one machine holds: the first guess is three copies, and three are enough
    model = real.model("qwen2.5-7b")
    one = estimate_serving(model, real.gpu("L40S"), ServingRequest(gpus=1, input_len=8000, output_len=500,
                                                                   load=Load(kind=LoadKind.concurrency, value=1)))
    users = math.ceil(one.max_concurrency * 2.5)
    rec = serve(catalog(real, inst("a/l40s", "L40S", 1, 1.0)), model, concurrency=users, input_len=8000, output_len=500)
    assert rec.options[0].copies == 3


# ------------------------------------------------------------------ the KV pool keeps a margin over the load


@pytest.mark.parametrize("spare, carried", [(0, False), (-1, False), (None, True)])
def test_a_kv_pool_that_holds_exactly_the_load_is_a_near_miss(real, spare, carried):
    """One machine whose KV pool holds N sequences: a load of N (or N + 1) leaves no margin and is refused with why,
    a load with KV_MARGIN of spare sequences is carried."""
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("a/l40s", "L40S", 1, 1.0))
    one = estimate_serving(model, real.gpu("L40S"), ServingRequest(gpus=1, input_len=8000, output_len=500,
                                                                   load=Load(kind=LoadKind.concurrency, value=1)))
    holds = one.max_concurrency
    assert holds >= 20  # large enough for the margin to be whole sequences
    users = holds - spare if spare is not None else math.floor(holds / (1 + KV_MARGIN))
    rec = serve(cat, model, max_gpus=1, concurrency=users, input_len=8000, output_len=500)
    if carried:
        (o,) = rec.options
        assert o.max_concurrency >= users + math.floor(users * KV_MARGIN)
        return
    assert rec.options == []
    (miss,) = [r for r in rec.rejected if r.instance == "l40s"]
    code = "serve_rec.reject_kv_margin" if users <= holds else "serve_rec.reject_kv"
    assert miss.kind == "fit" and miss.reason.code == code
    assert "margin" in render(miss.reason, "en") or code == "serve_rec.reject_kv"
    assert render(miss.reason, "zh")


def test_copies_are_added_for_the_margin(real):
    model = real.model("qwen2.5-7b")
    cat = catalog(real, inst("a/l40s", "L40S", 1, 1.0))
    one = estimate_serving(model, real.gpu("L40S"), ServingRequest(gpus=1, input_len=8000, output_len=500,
                                                                   load=Load(kind=LoadKind.concurrency, value=1)))
    rec = serve(cat, model, max_gpus=4, concurrency=one.max_concurrency, input_len=8000, output_len=500)
    (o,) = rec.options
    assert o.copies == 2 and o.max_concurrency >= one.max_concurrency * 1.1
    basis = next(a for a in rec.assumptions if a.code == "serve_rec.basis")
    assert "10% more sequences" in render(basis, "en") and "10%" in render(basis, "zh")
