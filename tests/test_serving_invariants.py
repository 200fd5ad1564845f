"""What a serving estimate shows agrees with itself at every load shape.

The engine's scheduler admits a sequence only while the KV pool has room for it, so no load — maximum
throughput included — runs more sequences than the pool holds at their full length: the memory per GPU stays
within the usable memory, the sequences within `max_concurrency`, and `fits` / `saturated` (and their
caveats) say what the numbers say. A reviewer found max throughput running 898 sequences in a pool of 808
(77.4 GiB per GPU of 71.3 GiB usable) with ``fits=True``; every row below would have caught it.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.domain import GIB, Billing
from tools.serving import estimate_on_instance, estimate_serving
from tools.serving_codes import CaveatCode
from tools.serving_perf import arrival_rate_per_s
from tools.serving_types import Load, LoadKind, ServingEstimate, ServingRequest

TOL = 1e-9


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def fx():
    from knowledge.settings import Settings

    return Settings.load().exchange_rate


def caveat(est: ServingEstimate, code: CaveatCode):
    return next((n for n in est.caveats if n.code == code.value), None)


def check_consistent(est: ServingEstimate) -> None:
    """Every invariant the estimate must keep; one assertion message per broken one."""
    seqs = est.concurrency * est.replicas
    kv_gib = est.per_gpu_gib - est.weights_gib - est.overhead_gib  # the KV cache this load holds, per GPU
    if est.fits:
        assert est.weights_fit
    if est.weights_fit:  # the batch is capped by the pool at every load, whether the load fits or not
        assert est.per_gpu_gib <= est.usable_gib * (1 + TOL), f"{est.per_gpu_gib:.2f} GiB > {est.usable_gib:.2f} usable"
        assert seqs <= est.max_concurrency * (1 + TOL), f"{seqs} sequences > capacity {est.max_concurrency}"
        assert kv_gib <= est.kv_cache_gib * (1 + TOL) + 1e-9, f"KV {kv_gib:.2f} GiB > pool {est.kv_cache_gib:.2f}"
        assert est.req_s <= est.max_req_s * (1 + TOL), f"{est.req_s} req/s at load > {est.max_req_s} at max"
        assert est.output_tok_s <= est.max_output_tok_s * (1 + TOL)
    kind = est.load.kind
    if kind == LoadKind.max_throughput and est.weights_fit:
        assert est.fits and not est.saturated
        assert seqs == est.max_concurrency  # the whole pool (or the engine's max_num_seqs), not more
        assert est.output_tok_s == pytest.approx(est.max_output_tok_s, rel=1e-9)
    if kind in (LoadKind.batch, LoadKind.concurrency):
        assert est.fits == (est.weights_fit and est.load.value <= est.max_concurrency)
        assert not est.saturated
    rate = arrival_rate_per_s(est.load)
    if rate is not None and est.weights_fit:
        assert est.saturated == (rate > est.max_req_s * (1 + 1e-6)), (rate, est.max_req_s, est.saturated)
        if not est.saturated:
            assert est.fits and est.req_s == pytest.approx(rate, rel=1e-9)  # every request served
        if not est.fits:
            assert est.saturated  # a rate the pool cannot hold is also more than the layout serves
    short = caveat(est, CaveatCode.kv_short)
    assert (short is not None) == (est.weights_fit and not est.fits)
    if short is not None:
        assert short.params["concurrency"] > short.params["max_concurrency"] == est.max_concurrency
    sat = caveat(est, CaveatCode.saturated)
    assert (sat is not None) == est.saturated
    if sat is not None:
        assert sat.params["request_rate_req_s"] > sat.params["max_req_s"]


# ------------------------------------------------------------------ the table

DEPLOYMENTS = [
    pytest.param("qwen2.5-7b", "H100", "vllm", "bf16", "auto", 1, 1024, 256, id="qwen7b-h100-kv-bound"),
    pytest.param("qwen2.5-7b", "H100", "vllm", "bf16", "auto", 8, 1024, 256, id="qwen7b-8xh100-replicas"),
    pytest.param("llama-3.1-8b", "H200", "vllm", "bf16", "auto", 1, 128, 128, id="llama8b-h200-max-num-seqs-bound"),
    pytest.param("llama-3.1-8b", "L4", "vllm", "bf16", "auto", 1, 2048, 512, id="llama8b-l4-small-pool"),
    pytest.param("llama-3.1-8b", "H100", "vllm", "bf16", "fp8", 1, 20000, 2000, id="llama8b-h100-fp8-kv-long"),
    pytest.param("llama-3.1-70b", "H100", "vllm", "fp8", "auto", 2, 8000, 1000, id="llama70b-2xh100-tp"),
    pytest.param("qwen2.5-72b", "H100", "vllm", "bf16", "auto", 4, 4096, 512, id="qwen72b-4xh100"),
    pytest.param("qwen3-30b-a3b", "H100", "sglang", "bf16", "auto", 1, 4096, 1024, id="qwen3-moe-sglang"),
    pytest.param("gemma-2-9b", "A100-80GB", "vllm", "bf16", "auto", 1, 32000, 500, id="gemma-sliding-window-32k"),
    pytest.param("mistral-7b", "L40S", "trtllm", "bf16", "auto", 1, 1024, 256, id="mistral-l40s-trtllm"),
    pytest.param("qwen2.5-14b", "RTX-4090", "vllm", "int4", "auto", 2, 2000, 300, id="qwen14b-awq-2x4090"),
    pytest.param("llama-3-70b", "RTX-3090", "llamacpp", "q4_k_m", "auto", 2, 512, 128, id="llama70b-gguf-layer-split"),
]

LOADS = [
    pytest.param(Load(kind=LoadKind.max_throughput), id="max"),
    pytest.param(Load(kind=LoadKind.batch, value=8), id="batch-8"),
    pytest.param(Load(kind=LoadKind.batch, value=5000), id="batch-5000"),
    pytest.param(Load(kind=LoadKind.concurrency, value=16), id="users-16"),
    pytest.param(Load(kind=LoadKind.concurrency, value=5000), id="users-5000"),
    pytest.param(Load(kind=LoadKind.request_rate, value=0.5), id="rate-0.5"),
    pytest.param(Load(kind=LoadKind.request_rate, value=2000), id="rate-2000"),
    pytest.param(Load(kind=LoadKind.requests_per_day, value=20_000), id="day-20k"),
    pytest.param(Load(kind=LoadKind.requests_per_day, value=100_000_000), id="day-100M"),
]


@pytest.mark.parametrize("load", LOADS)
@pytest.mark.parametrize("model, gpu, engine, weights, kv, gpus, in_len, out_len", DEPLOYMENTS)
def test_estimate_agrees_with_itself(cat, model, gpu, engine, weights, kv, gpus, in_len, out_len, load):
    req = ServingRequest(gpus=gpus, engine=engine, weights=weights, kv_precision=kv, input_len=in_len,
                         output_len=out_len, load=load)
    est = estimate_serving(cat.model(model), cat.gpu(gpu), req)
    check_consistent(est)


# ------------------------------------------------------------------ the reviewer's cases, by hand


def test_max_throughput_is_limited_by_the_kv_pool(cat):
    """Qwen2.5-7B on one H100 at 1,024 + 256 tokens: the pool, not vLLM's max_num_seqs (1,024), sets the batch."""
    est = estimate_serving(cat.model("qwen2.5-7b"), cat.gpu("H100"),
                           ServingRequest(gpus=1, load=Load(kind=LoadKind.max_throughput)))
    whole = est.kv_cache_tokens // (est.input_len + est.output_len)  # whole sequences of 1,280 tokens
    assert est.max_concurrency == whole < 1024
    assert est.concurrency == whole and est.fits and not est.saturated
    assert est.per_gpu_gib <= est.usable_gib
    assert est.per_gpu_gib == pytest.approx(
        est.weights_gib + est.overhead_gib + whole * est.kv_bytes_per_token * 1280 / GIB, rel=1e-9)


def test_max_throughput_is_limited_by_max_num_seqs(cat):
    """Short requests on an H200: the pool holds thousands, vLLM runs 1,024 (its max_num_seqs on a big GPU)."""
    req = ServingRequest(gpus=1, input_len=128, output_len=128, load=Load(kind=LoadKind.max_throughput))
    est = estimate_serving(cat.model("llama-3.1-8b"), cat.gpu("H200"), req)
    assert est.kv_cache_tokens // 256 > 1024
    assert est.concurrency == est.max_concurrency == 1024


def test_max_throughput_on_an_instance(cat, fx):
    row = next(i for i in cat.instances if i.key.startswith("aws/p5.48xlarge/") and i.price(Billing.on_demand))
    est = estimate_on_instance(cat.model("qwen2.5-7b"), cat.gpu("H100"), row,
                               ServingRequest(load=Load(kind=LoadKind.max_throughput)), fx)
    assert est.gpus == 8
    check_consistent(est)
    assert est.cost_per_million_output_tokens_at_max == pytest.approx(est.cost_per_million_output_tokens_at_load)


def test_rate_beyond_the_pool_names_what_it_needs(cat):
    """A saturated rate says how many sequences it would keep in flight, more than the pool holds."""
    est = estimate_serving(cat.model("qwen2.5-7b"), cat.gpu("H100"),
                           ServingRequest(gpus=1, load=Load(kind=LoadKind.request_rate, value=40)))
    assert est.saturated and not est.fits
    short = caveat(est, CaveatCode.kv_short)
    assert short.params["concurrency"] == math.ceil(40 * est.e2e_ms / 1e3) > est.max_concurrency


def test_static_batch_maximum_is_a_static_batch(cat):
    """A batch job's maximum is the largest static batch, so a batch of the pool's size is never above it."""
    m, g = cat.model("qwen2.5-7b"), cat.gpu("H100")
    est = estimate_serving(m, g, ServingRequest(gpus=1, load=Load(kind=LoadKind.batch, value=5000)))
    assert not est.fits and est.concurrency == est.max_concurrency
    assert est.req_s == pytest.approx(est.max_req_s, rel=1e-9)


# ------------------------------------------------------------------ property over the rest

MODELS = ["llama-3-8b", "qwen2.5-7b", "qwen3-30b-a3b", "mistral-7b", "gemma-2-9b", "qwen2.5-14b"]
GPUS = ["H100", "H200", "A100-80GB", "L40S", "RTX-4090", "L4"]
LOAD_ST = st.one_of(
    st.just(Load(kind=LoadKind.max_throughput)),
    st.integers(1, 20_000).map(lambda n: Load(kind=LoadKind.batch, value=n)),
    st.integers(1, 20_000).map(lambda n: Load(kind=LoadKind.concurrency, value=n)),
    st.floats(0.01, 5_000).map(lambda r: Load(kind=LoadKind.request_rate, value=r)),
    st.floats(100, 1e9).map(lambda n: Load(kind=LoadKind.requests_per_day, value=n)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), engine=st.sampled_from(["vllm", "sglang", "trtllm"]),
       gpus=st.sampled_from([1, 2]), in_len=st.integers(16, 32_000), out_len=st.integers(2, 4096), load=LOAD_ST)
def test_any_estimate_agrees_with_itself(cat, model, gpu, engine, gpus, in_len, out_len, load):
    req = ServingRequest(gpus=gpus, engine=engine, input_len=in_len, output_len=out_len, load=load)
    check_consistent(estimate_serving(cat.model(model), cat.gpu(gpu), req, allow_no_fit=True))
