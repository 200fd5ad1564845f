"""vLLM's KV pool: the profile run's activation peak, by engine generation (tools/serving_perf.py, serving_profiles.py).

vLLM sizes the pool as gpu_memory_utilization × memory − weights − non-torch − the torch peak of one profiling
forward pass over max_num_batched_tokens dummy tokens, or of the sampler warm-up after it, whichever is larger.
The golden figures are vLLM's own start-up logs: issue #10517 (RTX 3090, Llama-3.1-8B, V0, max_model_len 20,000:
``peak_torch_memory=17.06GiB`` after ``Loading model weights took 14.9888 GB``, ``kv_cache_size=3.81GiB``) and PR
#10511 (H100, Llama-3-8B, V0 at 8,192 tokens: ``PyTorch activation peak memory 1.26GiB`` at TP 1 and TP 2 alike).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tools.domain import GIB, AttentionType, ModelSpec
from tools.serving import estimate_serving
from tools.serving_codes import ServingCode
from tools.serving_perf import forward_peak_bytes, sampler_peak_bytes, vllm_profile_batch
from tools.serving_profiles import SamplerWarmup, VllmEngine, vllm_rules
from tools.serving_types import ServingRequest


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def _memory_note(est):
    return next(n for n in est.assumptions if n.code == ServingCode.memory_vllm.value)


def _capacity(cat, model, gpu, max_model_len, **kw):
    req = ServingRequest(gpus=1, input_len=max_model_len - 1, output_len=1, max_model_len=max_model_len, **kw)
    return estimate_serving(cat.model(model), cat.gpu(gpu), req, allow_no_fit=True)


# ------------------------------------------------------------------ the peak, by hand


def test_llama31_8b_profile_peak_at_20k_tokens_by_hand(cat):
    """V0 without chunked prefill profiles all 20,000 tokens: the MLP's gate_up (2 × 14,336), its activation (14,336)
    and down_proj output, residual and layer input (3 × 4,096) bf16 values per token = 2.06 GiB, above the sampler
    warm-up (256 × 128,256 logits × 39 B + the 20,000 hidden states = 1.35 GiB). vLLM logged 17.06 − 14.99 = 2.07."""
    m = cat.model("llama-3.1-8b")
    forward = forward_peak_bytes(m, 20_000)
    assert forward == 20_000 * (2 * 14336 + 14336 + 3 * 4096) * 2 == 2_211_840_000
    sampler = sampler_peak_bytes(m, 20_000, 256, SamplerWarmup.sort)
    assert sampler == 256 * 128256 * 39 + 20_000 * 4096 * 2
    est = _capacity(cat, "llama-3.1-8b", "RTX-3090", 20_000, vllm_engine="v0")
    note = _memory_note(est)
    assert note.params["batched_tokens"] == 20_000 and note.params["chunked_prefill"] is False
    assert note.params["activation_gib"] == pytest.approx(2.06)
    assert note.params["activation_gib"] == pytest.approx(17.06 - 14.9888, abs=0.02)  # the log's peak − weights
    assert est.kv_cache_gib == pytest.approx(3.81, rel=0.02)  # kv_cache_size=3.81GiB


def test_the_v0_sampler_peak_does_not_shrink_with_tp(cat):
    """PR #10511: 1.26 GiB at TP 1 and TP 2: the warm-up (256 × 128,256 logits), not the forward pass, sets the peak."""
    m, g = cat.model("llama-3-8b"), cat.gpu("H100")
    peaks = []
    for tp in (1, 2):
        req = ServingRequest(gpus=tp, tp=tp, input_len=8191, output_len=1, max_model_len=8192, vllm_engine="v0")
        peaks.append(_memory_note(estimate_serving(m, g, req)).params["activation_gib"])
    assert peaks == [1.26, 1.26]
    sampler = sampler_peak_bytes(m, 8192, 256, SamplerWarmup.sort)
    assert forward_peak_bytes(m, 8192, tp=2) < forward_peak_bytes(m, 8192, tp=1) < sampler
    assert sampler / GIB == pytest.approx(1.26, abs=0.005)


def test_attention_sets_the_peak_when_the_mlp_is_narrow():
    """q/tp + 2·kv/tp (QKV) + q/tp (attention output) + 3 hidden beat 3 hidden + 3 intermediate for a narrow MLP."""
    narrow = ModelSpec(key="narrow", name="Narrow", family="test", params=1e9, num_layers=8, hidden_size=1024,
                       num_attention_heads=32, num_kv_heads=32, head_dim=128, intermediate_size=512,
                       vocab_size=32000, attention=AttentionType.mha, source="test")
    assert forward_peak_bytes(narrow, 100) == 100 * (4096 + 2 * 4096 + 4096 + 3 * 1024) * 2


def test_moe_peak_counts_the_routed_experts(cat):
    """Qwen3-235B-A22B at TP 4: 8 experts × (3 × 1,536 / 4 + 4,096) + 3 × 4,096 values per token (fused-MoE caches)."""
    m = cat.model("qwen3-235b-a22b")
    assert forward_peak_bytes(m, 8192, tp=4) == 8192 * (3 * 4096 + 8 * (3 * 1536 / 4 + 4096)) * 2


# ------------------------------------------------------------------ which tokens the profile run holds


@pytest.mark.parametrize("engine,chunked,context,big,override,expected", [
    ("v0", None, 20_000, False, None, (20_000, 256, False)),  # #10517: the whole context in one step
    ("v0", None, 1_000, False, None, (2048, 256, False)),  # short contexts: at least 2,048
    ("v0", None, 35_000, False, None, (2048, 256, True)),  # above 32K V0 chunks by itself (#10517: 35k fits, 29k not)
    ("v0", False, 35_000, True, None, (35_000, 256, False)),  # chunked prefill turned off
    ("v0", None, 20_000, False, 8192, (8192, 256, False)),  # max_num_batched_tokens given
    ("v1", None, 20_000, False, None, (2048, 256, True)),  # V1 on a 24 GB GPU: the 2,048-token budget
    ("v1", None, 20_000, True, None, (8192, 1024, True)),  # V1 on an H100
    ("v1", False, 20_000, False, None, (20_000, 256, False)),  # V1 without chunked prefill
])
def test_profile_batch(engine, chunked, context, big, override, expected):
    req = ServingRequest(vllm_engine=engine, chunked_prefill=chunked, max_batched_tokens=override)
    assert vllm_profile_batch(req, context, big) == expected


@pytest.mark.parametrize("version,expected", [
    ("0.6.x (Dec 2024)", (VllmEngine.v0, SamplerWarmup.sort)),
    ("main, 2024-12-13 (between 0.6.4 and 0.6.5)", (VllmEngine.v0, SamplerWarmup.sort)),
    ("0.7.x (Feb 2025, V0 engine)", (VllmEngine.v0, SamplerWarmup.sort)),
    ("0.9.x (Jul 2025, V1 engine)", (VllmEngine.v1, SamplerWarmup.sort)),  # PyTorch sort until the Triton kernels
    ("v0.11.0", (VllmEngine.v1, SamplerWarmup.sort)),
    ("v0.19.0", (VllmEngine.v1, SamplerWarmup.fused)),
    ("as the post states: vllm=0.23.0 (bench metadata)", (VllmEngine.v1, SamplerWarmup.fused)),
    ("0.10.1 with VLLM_USE_V1=0, V0", (VllmEngine.v0, SamplerWarmup.sort)),
    ("not stated", None),
])
def test_vllm_rules_from_a_release(version, expected):
    assert vllm_rules(version) == expected


def test_unknown_engine_generation_is_one_clear_error():
    with pytest.raises(ValidationError, match="vllm_engine"):
        ServingRequest(vllm_engine="v2")


# ------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=st.sampled_from(["llama-3.1-8b", "qwen2.5-7b", "qwen3-30b-a3b", "mistral-7b"]),
       gpu=st.sampled_from(["RTX-3090", "A100-80GB", "H100", "L40S"]),
       lengths=st.lists(st.integers(min_value=1024, max_value=131_072), min_size=2, max_size=2, unique=True))
def test_v0_longer_context_never_gives_a_larger_pool(cat, model, gpu, lengths):
    """V0 without chunked prefill profiles max(max_model_len, 2048) tokens: a longer context never adds pool."""
    short, long = sorted(lengths)
    a = _capacity(cat, model, gpu, short, vllm_engine="v0", chunked_prefill=False)
    b = _capacity(cat, model, gpu, long, vllm_engine="v0", chunked_prefill=False)
    assert b.kv_cache_gib <= a.kv_cache_gib + 1e-12


@pytest.mark.parametrize("length", [4096, 20_000, 29_000, 65_536])
def test_v1_pool_does_not_depend_on_max_model_len(cat, length):
    """V1 always chunks: its profile run holds the step budget whatever the context (2,048 tokens on an RTX 3090)."""
    est = _capacity(cat, "llama-3.1-8b", "RTX-3090", length)
    note = _memory_note(est)
    assert (note.params["vllm_engine"], note.params["batched_tokens"], note.params["sampler"]) == ("v1", 2048, "fused")
    assert est.kv_cache_gib == pytest.approx(_capacity(cat, "llama-3.1-8b", "RTX-3090", 8192).kv_cache_gib)


def test_the_3090_question_by_engine(cat):
    """'3090 上 vLLM 跑 Llama-3.1-8B，max_model_len 2 万，KV cache 还剩多少': each rule, and what it assumed."""
    v0 = _capacity(cat, "llama-3.1-8b", "RTX-3090", 20_000, vllm_engine="v0")
    v1 = _capacity(cat, "llama-3.1-8b", "RTX-3090", 20_000)
    v1_sort = _capacity(cat, "llama-3.1-8b", "RTX-3090", 20_000, vllm_sampler="sort")
    assert v0.kv_cache_gib < v1_sort.kv_cache_gib < v1.kv_cache_gib
    assert _memory_note(v0).params["warmup_sequences"] == _memory_note(v1).params["warmup_sequences"] == 256
    assert v1.kv_cache_gib - v0.kv_cache_gib == pytest.approx(
        _memory_note(v0).params["activation_gib"] - _memory_note(v1).params["activation_gib"], abs=0.01)
