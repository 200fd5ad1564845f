"""The KV-pool rules of tools/kv_pool.py, term by term, against figures worked by hand (GiB per GPU)."""

from __future__ import annotations

import pytest

from tools.domain import GIB
from tools.kv_pool import KvPoolInputs, PoolRule, kv_pool, nccl_charged, non_torch_since_baseline
from tools.serving import estimate_serving
from tools.serving_profiles import Engine, VllmEngine, vllm_release
from tools.serving_types import ServingRequest

V0, V1 = VllmEngine.v0, VllmEngine.v1


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def _inputs(**kw) -> KvPoolInputs:
    base = dict(rule=PoolRule.vllm, total_gib=80.0, fraction=0.9, weights_gib=15.0, non_torch_gib=0.4, nccl_gib=0.0,
                forward_gib=0.2, sampler_gib=0.5, vllm_engine=V1, vllm_release=(0, 9))
    base.update(kw)
    return KvPoolInputs(**base)


# (what, inputs, pool by hand)
CASES = [
    ("vLLM V1 0.9, one GPU: 0.9 × 80 − 15 − 0.4 − max(0.2, 0.5)", _inputs(), 72 - 15 - 0.4 - 0.5),
    ("the forward pass's peak when it is the larger", _inputs(forward_gib=1.5), 72 - 15 - 0.4 - 1.5),
    ("V1 0.9, TP 2: NCCL's 2.1 GiB created after the baseline, charged", _inputs(nccl_gib=2.1), 72 - 15 - 2.5 - 0.5),
    ("V1 0.10 charges it too", _inputs(nccl_gib=2.1, vllm_release=(0, 10)), 72 - 15 - 2.5 - 0.5),
    ("V1 0.11: NCCL before the snapshot (PR #25359), not charged", _inputs(nccl_gib=2.1, vllm_release=(0, 11)),
     72 - 15 - 0.4 - 0.5),
    ("V0 charges NCCL whatever the release", _inputs(nccl_gib=0.35, vllm_engine=V0, vllm_release=(0, 11)),
     72 - 15 - 0.75 - 0.5),
    ("an unstated V1 release keeps the charge", _inputs(nccl_gib=0.35, vllm_release=None), 72 - 15 - 0.75 - 0.5),
    ("CUDA-graph estimate ignored before 0.21", _inputs(cudagraph_gib=0.5, vllm_release=(0, 20)), 72 - 15 - 0.4 - 0.5),
    ("CUDA-graph estimate subtracted from 0.21", _inputs(cudagraph_gib=0.5, vllm_release=(0, 21)),
     72 - 15 - 0.4 - 0.5 - 0.5),
    # the non-torch memory by profiler generation: releases whose profiler measures it since a baseline snapshot
    # (vllm/utils memory_profiling: V0 from 0.7, V1 from 0.9) charge only what grew (0.07 GiB), older ones the whole
    ("V1 0.9, one GPU, growth since the baseline: 0.07", _inputs(non_torch_growth_gib=0.07), 72 - 15 - 0.07 - 0.5),
    ("V1 0.8: the whole non-torch (total − free − torch allocated)",
     _inputs(non_torch_growth_gib=0.07, vllm_release=(0, 8)), 72 - 15 - 0.4 - 0.5),
    ("V0 0.7: growth since the baseline", _inputs(non_torch_growth_gib=0.07, vllm_engine=V0, vllm_release=(0, 7)),
     72 - 15 - 0.07 - 0.5),
    ("V0 0.6: the whole", _inputs(non_torch_growth_gib=0.07, vllm_engine=V0, vllm_release=(0, 6)), 72 - 15 - 0.4 - 0.5),
    ("an unstated release: the whole", _inputs(non_torch_growth_gib=0.07, vllm_release=None), 72 - 15 - 0.4 - 0.5),
    ("V1 0.10, TP 2: the growth and NCCL (created after the baseline)",
     _inputs(non_torch_growth_gib=0.07, nccl_gib=2.1, vllm_release=(0, 10)), 72 - 15 - 0.07 - 2.1 - 0.5),
    ("the growth rule leaves SGLang's snapshot alone",
     _inputs(rule=PoolRule.sglang, non_torch_growth_gib=0.07), 0.9 * (80 - 0.4) - 15),
    # SGLang: mem_fraction_static × (total − what exists at its snapshot) − weights; the llms-in-clouds QwQ-32B log
    # (4× L4, mem_fraction_static 0.85) printed 2.84 GiB of K + V per rank with these inputs
    ("SGLang, 4× L4 over PCIe", _inputs(rule=PoolRule.sglang, total_gib=22.04, fraction=0.85, weights_gib=15.26,
                                        nccl_gib=0.35), 0.85 * (22.04 - 0.75) - 15.26),
    ("SGLang ignores the profile-run terms", _inputs(rule=PoolRule.sglang, forward_gib=9.0, sampler_gib=9.0),
     0.9 * (80 - 0.4) - 15),
    ("TensorRT-LLM: 0.9 × (80 − 15 − 0.4 − 1.0 − 0.5)", _inputs(rule=PoolRule.trtllm, forward_gib=1.0, buffer_gib=0.5),
     0.9 * (80 - 15 - 0.4 - 1.0 - 0.5)),
    ("llama.cpp: 1.0 × 24 − 5 − 0.5 − 0.4", _inputs(rule=PoolRule.context, total_gib=24.0, fraction=1.0,
                                                     weights_gib=5.0, buffer_gib=0.5), 24 - 5 - 0.5 - 0.4),
]


@pytest.mark.parametrize(("what", "inputs", "pool"), CASES, ids=[c[0] for c in CASES])
def test_pool_by_hand(what, inputs, pool):
    assert kv_pool(inputs).pool_gib == pytest.approx(pool, abs=1e-9)


def test_terms_add_up():
    t = kv_pool(_inputs(nccl_gib=2.1, cudagraph_gib=0.3, vllm_release=(0, 21)))
    assert t.budget_gib - t.weights_gib - t.non_torch_gib - t.activation_gib - t.cudagraph_gib == pytest.approx(t.pool_gib)
    assert not t.nccl_charged and t.non_torch_gib == pytest.approx(0.4)


@pytest.mark.parametrize(("text", "release"), [
    ("0.6.4.post1", (0, 6)), ("v0.11.0", (0, 11)), ("vllm 0.28.0 (V1 engine)", (0, 28)), ("0.9.x (Jul 2025)", (0, 9)),
    ("main, 2024-12-13", None), (None, None),
])
def test_vllm_release(text, release):
    assert vllm_release(text) == release


@pytest.mark.parametrize(("engine", "release", "charged"), [
    (V0, (0, 7), True), (V1, (0, 8), True), (V1, (0, 10), True), (V1, (0, 11), False), (V1, (0, 28), False),
    (V1, None, True),
])
def test_nccl_charged(engine, release, charged):
    assert nccl_charged(engine, release) is charged


@pytest.mark.parametrize(("engine", "release", "since_baseline"), [
    (V0, (0, 6), False),  # 0.6.4: every non-torch byte on the device (vLLM #10360's non_torch_memory=0.44GiB)
    (V0, (0, 7), True),  # PR #10511 (memory_profiling) + PR #11809 (against memory_reserved), in 0.7.0
    (V1, (0, 8), False),  # V1 0.8: total − free − torch allocated (PR #19312: counts other processes too)
    (V1, (0, 9), True),  # PR #19312: V1 reuses memory_profiling
    (V1, (0, 19), True),
    (V1, None, False),  # an unstated release: the calibration logs' rule
    (None, (0, 19), False),  # no vLLM engine
])
def test_non_torch_since_baseline(engine, release, since_baseline):
    assert non_torch_since_baseline(engine, release) is since_baseline


def test_llama3_8b_one_a100_80gb_v1(cat):
    """Llama-3-8B on one A100-80GB, vLLM V1 at gpu_memory_utilization 0.9 and its defaults.

    A100s get the small step budget (vllm/engine/arg_utils.py: max_num_batched_tokens 2048, max_num_seqs 256). The
    torch total is the catalog's logged 79.25 GiB (a vLLM log on an A100-SXM4-80GB; the nvidia-smi figure × 0.9947
    gave 78.93). Weights: 8,030,261,248 parameters × 2 B. Forward pass, 2,048 tokens × the MLP's (3 × 4,096 + 3 ×
    14,336) bf16 values = 0.211 GiB; fused sampler warm-up, 256 rows × 128,256 logits × 14 B + 2,048 × 4,096 × 2 B of
    hidden states = 0.444 GiB (the larger). No release stated: the whole non-torch 0.40 GiB. Pool = 71.33 − 14.96 −
    0.40 − 0.44 = 55.52 GiB; 32 layers × 8 KV heads × 128 × 2 × 2 B = 128 KiB per token.
    """
    m, g = cat.model("llama-3-8b"), cat.gpu("A100-80GB")
    est = estimate_serving(m, g, ServingRequest(gpus=1, input_len=1000, output_len=100, gpu_memory_utilization=0.9))
    total = 79.25
    weights = 8_030_261_248 * 2 / GIB
    forward = 2048 * (3 * 4096 + 3 * 14336) * 2 / GIB
    sampler = (256 * 128256 * 14 + 2048 * 4096 * 2) / GIB
    pool = 0.9 * total - weights - 0.4 - max(forward, sampler)
    assert pool == pytest.approx(55.52, abs=0.01)
    assert est.kv_cache_gib == pytest.approx(pool, rel=1e-6)
    assert est.kv_cache_tokens == int(pool * GIB / (128 * 1024) // 16 * 16)


def test_release_moves_only_multi_gpu_vllm_pools(cat):
    """Naming vLLM 0.11 charges only the non-torch memory that grew since the profiler's baseline (0.4 − 0.07 GiB
    more pool on every GPU) and, on two GPUs, drops NCCL's charge too (H100s: NVLink, 2.5 − 0.4 GiB)."""
    m, g = cat.model("llama-3-8b"), cat.gpu("H100")
    one = [estimate_serving(m, g, ServingRequest(gpus=1, tp=1, input_len=1000, output_len=100, engine_version=v))
           for v in (None, "0.11.0")]
    two = [estimate_serving(m, g, ServingRequest(gpus=2, tp=2, input_len=1000, output_len=100, engine_version=v))
           for v in (None, "0.11.0")]
    assert one[1].kv_cache_gib - one[0].kv_cache_gib == pytest.approx(0.4 - 0.07)
    assert two[1].kv_cache_gib - two[0].kv_cache_gib == pytest.approx(2.5 - 0.4 + 0.4 - 0.07)


def test_sglang_fraction_applies_to_memory_free_at_init(cat):
    """SGLang's budget: mem_fraction_static (0.88 at TP 1) × (79.22 GiB − the 0.4 GiB held before its snapshot)."""
    m, g = cat.model("llama-3-8b"), cat.gpu("H100")
    est = estimate_serving(m, g, ServingRequest(gpus=1, engine=Engine.sglang, input_len=1000, output_len=100))
    assert est.usable_gib == pytest.approx(0.88 * 79.22)  # the static share; 0.88 × 0.4 of it is the context's
    assert est.kv_cache_gib == pytest.approx(0.88 * (79.22 - 0.4) - 8_030_261_248 * 2 / GIB)
