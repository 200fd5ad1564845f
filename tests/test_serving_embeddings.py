"""Issue 11, round-2 recalibration: the input embedding is a lookup and the LM head runs where a token is sampled.

vLLM's VocabParallelEmbedding runs F.embedding (a step reads one row per token, not the table), and vLLM V1 computes
logits at one position per scheduled request (vllm/v1/worker/gpu_model_runner.py, `logits_indices =
query_start_loc[1:] - 1`). The numbers below are worked from the catalog's shapes by hand.
"""

from __future__ import annotations

import pytest

from tools.domain import GIB
from tools.serving import Layout
from tools.serving_perf import embedding_split, make_plan, prefill_ms, step_time, weight_bytes
from tools.serving_profiles import WeightFormat
from tools.serving_types import ServingRequest


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def _plan(cat, model, gpu="H100", weights="bf16", in_len=1024, out_len=128, tp=1):
    req = ServingRequest(gpus=tp, tp=tp, weights=weights, input_len=in_len, output_len=out_len)
    lay = Layout(gpus=tp, tp=tp, pp=1, replicas=1, nodes=1)
    return make_plan(cat.model(model), cat.gpu(gpu), req, lay, in_len, out_len)


@pytest.mark.parametrize(
    "model, fmt, table_params, table_bytes",
    [
        # Llama-3-8B: untied, vocabulary 128,256 × hidden 4,096 = 525.3 M parameters, 1.05 GB at 16 bits
        ("llama-3-8b", "bf16", 128_256 * 4_096, 128_256 * 4_096 * 2),
        # AWQ keeps the embedding in 16 bits (only the layers' linear weights are 4-bit)
        ("llama-3-8b", "int4", 128_256 * 4_096, 128_256 * 4_096 * 2),
        # Qwen3-14B: untied, 151,936 × 5,120
        ("qwen3-14b", "bf16", 151_936 * 5_120, 151_936 * 5_120 * 2),
        # Qwen2.5-0.5B ties the head to the embedding: the table is read every step as the head, nothing is left out
        ("qwen2.5-0.5b", "bf16", 0, 0),
    ],
)
def test_the_embedding_table_left_out_of_a_step(cat, model, fmt, table_params, table_bytes):
    m = cat.model(model)
    b, params, head = embedding_split(m, WeightFormat(fmt))
    assert params == pytest.approx(table_params)
    assert b == pytest.approx(table_bytes)
    assert head > 0  # the head is a matmul either way


def test_decode_reads_every_weight_but_the_untied_embedding(cat):
    """Llama-3-8B on one H100 at batch 1: the weights part of a step is (16.06 GB − 1.05 GB) over the bandwidth."""
    p = _plan(cat, "llama-3-8b")
    step = step_time(p, 1, 1)
    read = weight_bytes(cat.model("llama-3-8b"), WeightFormat.bf16) - 128_256 * 4_096 * 2
    assert step.weights_ms == pytest.approx(read / p.weight_bandwidth)
    tied = _plan(cat, "qwen2.5-0.5b")
    assert step_time(tied, 1, 1).weights_ms == pytest.approx(tied.weights_gpu / tied.weight_bandwidth)


def test_tensor_parallel_shards_the_table_too(cat):
    one, two = _plan(cat, "llama-3-8b"), _plan(cat, "llama-3-8b", tp=2)
    assert two.embed_bytes_gpu == pytest.approx(one.embed_bytes_gpu / 2)


@pytest.mark.parametrize("in_len", [128, 2048, 16_000])
def test_prefill_counts_the_head_once_per_prompt(cat, in_len):
    """Compute-bound prefill FLOPs: 2 · (layers' parameters) per prompt token + 2 · head once + causal attention."""
    p = _plan(cat, "qwen3-14b", in_len=in_len)
    m = cat.model("qwen3-14b")
    table = 151_936 * 5_120
    layers = m.params - 2 * table
    attention = 2 * p.layers * in_len * in_len * p.q_dim
    flops = 2 * layers * in_len + 2 * table + attention
    compute = flops / (p.peak * 1e12 * p.profile.prefill_mfu) * 1e3
    chunks = -(-in_len // p.batched_tokens)
    memory = chunks * (p.weights_gpu - p.embed_bytes_gpu) / (p.bandwidth * p.format_factor)
    assert prefill_ms(p, in_len) == pytest.approx(max(compute, memory) + chunks * p.profile.step_overhead_ms)


def test_the_head_runs_for_each_sequence_of_a_batched_prefill(cat):
    """Eight prompts prefilled together sample eight tokens: the head's FLOPs scale with the sequences."""
    p = _plan(cat, "qwen3-14b", in_len=4096)
    one, eight = prefill_ms(p, 4096, 1), prefill_ms(p, 4096, 8)
    assert eight == pytest.approx(8 * (one - p.profile.step_overhead_ms) + 4 * p.profile.step_overhead_ms, rel=1e-9)


def test_moe_keeps_its_expert_discount_and_drops_the_table(cat):
    """Qwen3-30B-A3B at batch 1: the untied 151,936 × 2,048 table leaves the step; the experts are still 8 of 128."""
    p = _plan(cat, "qwen3-30b-a3b", gpu="A100-80GB")
    step = step_time(p, 1, 1)
    touched = p.weights_gpu * (1 - p.expert_share + p.expert_share * 8 / 128)
    assert step.weights_ms == pytest.approx((touched - 151_936 * 2_048 * 2) / p.weight_bandwidth)
    assert step.weights_ms * p.weight_bandwidth / GIB < 7.0  # a few GiB per token, not the 57 GiB of all experts
