"""Kernels vLLM lacks below SM 8.0 (added after round 11's evaluation; tools/serving_profiles.py `NO_FA2_BELOW_CC`,
`MARLIN_FROM_CC`): the prompt's attention without FlashAttention-2 (vLLM falls back to xFormers on Volta and Turing)
and int4 checkpoints without the Marlin kernels (the legacy AWQ GEMM, no speed-up over 16-bit weights).

Real catalog GPUs and models, the real estimator; the expectations are computed by hand in each row's comment.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.serving import estimate_serving
from tools.serving_perf import make_plan, prefill_ms, step_time
from tools.serving_profiles import (
    NO_FA2_ATTENTION_EFFICIENCY,
    PROFILES,
    Engine,
    WeightFormat,
    flash_attention_2,
    legacy_int4_kernel,
    prefill_attention_efficiency,
)
from tools.serving_types import Layout, Load, LoadKind, ServingRequest

ONE = Layout(gpus=1, tp=1, pp=1, replicas=1, nodes=1)


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def _batch(n: int, **kw) -> ServingRequest:
    return ServingRequest(gpus=1, input_len=kw.pop("input_len", 11), output_len=kw.pop("output_len", 64),
                          load=Load(kind=LoadKind.batch, value=n), **kw)


@pytest.mark.parametrize(
    "engine, gpu, fmt, fa2, attention, legacy",
    [
        (Engine.vllm, "T4", WeightFormat.fp16, False, 0.5, False),  # SM 7.5: xFormers; fp16 has no int4 kernel
        (Engine.vllm, "T4", WeightFormat.int4, False, 0.5, True),  # SM 7.5 < 8.0: no AWQ-Marlin either
        (Engine.vllm, "V100-32GB", WeightFormat.int4, False, 0.5, True),  # SM 7.0 (Volta): the same fallbacks
        (Engine.vllm, "A100-80GB", WeightFormat.int4, True, 1.0, False),  # SM 8.0: FA2 and Marlin, as fitted
        (Engine.vllm, "RTX-4090", WeightFormat.fp16, True, 1.0, False),  # SM 8.9
        (Engine.vllm, "MI300X", WeightFormat.int4, True, 1.0, False),  # no CUDA capability: the constants as fitted
        (Engine.sglang, "T4", WeightFormat.int4, True, 1.0, False),  # only vLLM's selector is read
        (Engine.llamacpp, "T4", WeightFormat.q4_k_m, True, 1.0, False),
        (Engine.transformers, "T4", WeightFormat.fp16, True, 1.0, False),
    ],
)
def test_which_engine_and_gpu_lack_fa2_and_marlin(catalog, engine, gpu, fmt, fa2, attention, legacy):
    g = catalog.gpu(gpu)
    assert flash_attention_2(engine, g) is fa2
    assert prefill_attention_efficiency(engine, g) == attention
    assert legacy_int4_kernel(engine, fmt, g) is legacy


@pytest.mark.parametrize(
    "tokens, extra_ms",
    [
        # Qwen2.5-1.5B: 28 layers, q_dim 12 × 128 = 1536; causal attention 2 · 28 · L² · 1536 FLOPs; on a T4
        # (65 TFLOPS fp16) at vLLM's prefill MFU 0.55 = 35.75 TFLOPS; at half the MFU the attention takes as long
        # again: the extra time is 2 · 28 · L² · 1536 / 35.75e12 s
        (512, 0.6308),  # 2.2550e10 FLOPs
        (4096, 40.372),  # 1.4432e12
        (16384, 645.95),  # 2.3091e13
    ],
)
def test_prefill_attention_at_half_the_mfu_without_fa2(catalog, tokens, extra_ms):
    model, t4 = catalog.model("qwen2.5-1.5b"), catalog.gpu("T4")
    req = _batch(1, input_len=tokens, engine="vllm", weights="fp16")
    plan = make_plan(model, t4, req, ONE, tokens, 64)
    assert plan.attention_efficiency == NO_FA2_ATTENTION_EFFICIENCY
    with_fa2 = dataclasses.replace(plan, attention_efficiency=1.0)
    assert prefill_ms(plan, tokens) - prefill_ms(with_fa2, tokens) == pytest.approx(extra_ms, rel=2e-3)


def test_legacy_awq_reads_the_weights_no_faster_than_16_bit_and_marlin_keeps_its_factor(catalog):
    """Qwen2.5-1.5B (tied embeddings): int4 1.1475e9 B, fp16 3.0874e9 B. On a T4 (320 GB/s × 0.80 = 256 GB/s) both read
    their weights in 3.0874e9 / 2.56e8 = 12.06 ms; on an A100-80GB (Marlin, the fitted factor 0.7) int4 takes
    1.1475 / 3.0874 / 0.7 = 0.531 of the fp16 time."""
    model = catalog.model("qwen2.5-1.5b")
    steps = {}
    for gpu in ("T4", "A100-80GB"):
        for fmt in ("fp16", "int4"):
            plan = make_plan(model, catalog.gpu(gpu), _batch(16, engine="vllm", weights=fmt), ONE, 11, 64)
            steps[gpu, fmt] = step_time(plan, 16, 43).weights_ms
    assert steps["T4", "int4"] == pytest.approx(12.06, rel=2e-3)
    assert steps["T4", "int4"] == pytest.approx(steps["T4", "fp16"], rel=1e-9)
    assert steps["A100-80GB", "int4"] / steps["A100-80GB", "fp16"] == pytest.approx(0.531, rel=2e-3)


def test_awq_on_a_t4_is_no_faster_than_fp16_but_is_on_an_a100(catalog):
    model = catalog.model("qwen2.5-1.5b")
    tok = {}
    for gpu in ("T4", "A100-80GB"):
        for fmt in ("fp16", "int4"):
            # 1,024 output tokens: the decode steps, not the front end's 30 ms per request, bound the batch
            est = estimate_serving(model, catalog.gpu(gpu), _batch(16, output_len=1024, engine="vllm", weights=fmt))
            tok[gpu, fmt] = est.output_tok_s
    assert tok["T4", "int4"] <= tok["T4", "fp16"] * (1 + 1e-9)
    assert tok["A100-80GB", "int4"] > 1.2 * tok["A100-80GB", "fp16"]


def test_other_engines_on_a_t4_keep_the_fitted_attention_and_format_factor(catalog):
    model, t4 = catalog.model("qwen2.5-1.5b"), catalog.gpu("T4")
    for engine in ("sglang", "transformers"):
        plan = make_plan(model, t4, _batch(1, engine=engine, weights="int4"), ONE, 4096, 64)
        assert plan.attention_efficiency == 1.0 and not plan.legacy_int4
        assert plan.format_factor == 0.7


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(short=st.integers(min_value=1, max_value=16384), more=st.integers(min_value=0, max_value=16384))
def test_without_fa2_a_longer_prompt_never_prefills_faster_and_never_beats_fa2(catalog, short, more):
    model, t4 = catalog.model("qwen2.5-1.5b"), catalog.gpu("T4")
    plan = make_plan(model, t4, _batch(1, input_len=32768, engine="vllm", weights="fp16"), ONE, 32768, 64)
    with_fa2 = dataclasses.replace(plan, attention_efficiency=1.0)
    assert prefill_ms(plan, short + more) >= prefill_ms(plan, short)
    assert prefill_ms(plan, short) >= prefill_ms(with_fa2, short)


def test_the_attention_share_leaves_the_vllm_profile_untouched():
    """The fallback is a property of the GPU, not a refit: the vLLM profile's prefill MFU is what --calibrate gave."""
    assert PROFILES[Engine.vllm].prefill_mfu == 0.55

