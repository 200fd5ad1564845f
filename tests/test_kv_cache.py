"""The KV-cache function against hand-computed sizes (tools/kv_cache.py).

Hand computations (bytes per token, all layers):
* Llama-3-8B, GQA: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 131,072 B = 128 KiB in bf16.
* DeepSeek-V3, MLA: (kv_lora_rank 512 + rope 64) × 61 layers × 2 B = 70,272 B, the same on every TP rank.
* Gemma-2-9B: 42 layers, 21 sliding (window 4,096) alternating with 21 global; 8 KV heads × 256 × 2 × 2 B = 8,192 B
  per token per layer. At 8k: 21 × 8,192 × 8,192 + 21 × 4,096 × 8,192; at 32k: 21 × 32,768 × 8,192 + 21 × 4,096 × 8,192.
"""

from __future__ import annotations

import pytest

from tools.domain import AttentionType, ModelSpec
from tools.kv_cache import FULL, SLIDING, KvCode, kv_cache, kv_cache_bytes, layer_types, max_sequences, stage_layers
from tools.messages import render
from tools.vram_shape import model_from_params


@pytest.fixture(scope="module")
def models(request):
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def _spec(**kw) -> ModelSpec:
    base = dict(key="t", name="T", family="test", params=1e9, num_layers=12, hidden_size=1024, num_attention_heads=8,
                num_kv_heads=8, head_dim=128, attention=AttentionType.gqa, source="test")
    base.update(kw)
    return ModelSpec(**base)


@pytest.mark.parametrize(
    "key, tokens, kv_bytes, tp, expected",
    [
        ("llama-3-8b", 1, 2, 1, 128 * 1024),  # 32 × 8 × 128 × 2 × 2 B = 128 KiB per token in bf16
        ("llama-3-8b", 1, 1, 1, 64 * 1024),  # fp8 KV: half
        ("llama-3-8b", 1, 2, 2, 64 * 1024),  # TP 2: 4 KV heads per GPU
        ("llama-3-8b", 1, 2, 16, 16 * 1024),  # TP 16 > 8 KV heads: each GPU keeps one head (replicated)
        ("llama-3-8b", 8192, 2, 1, 8192 * 128 * 1024),  # linear in tokens: 1 GiB at 8k
        ("deepseek-v3", 1, 2, 1, (512 + 64) * 61 * 2),  # MLA latent + RoPE key: 70,272 B
        ("deepseek-v3", 1, 2, 8, (512 + 64) * 61 * 2),  # not split over TP ranks
        ("gemma-2-9b", 4096, 2, 1, 42 * 4096 * 8192),  # within the window every layer holds every token
        ("gemma-2-9b", 8192, 2, 1, 21 * 8192 * 8192 + 21 * 4096 * 8192),  # 2,113,929,216 B
        ("gemma-2-9b", 32768, 2, 1, 21 * 32768 * 8192 + 21 * 4096 * 8192),  # 6,341,787,648 B
        ("mistral-7b", 8192, 2, 1, 32 * 4096 * 4096),  # v0.1: window 4,096 on every layer
        ("qwen2.5-7b", 1, 2, 1, 28 * 4 * 128 * 2 * 2),  # 4 KV heads: 56 KiB
    ],
)
def test_hand_computed_sizes(models, key, tokens, kv_bytes, tp, expected):
    assert kv_cache_bytes(models.model(key), tokens, 1, tp, 1, kv_bytes) == expected


def test_batch_multiplies(models):
    m = models.model("llama-3-8b")
    assert kv_cache_bytes(m, 1000, batch=7) == 7 * kv_cache_bytes(m, 1000)


@pytest.mark.parametrize(
    "n, pp, sizes",
    [
        (32, 1, [32]),
        (32, 2, [16, 16]),
        (32, 3, [10, 11, 11]),  # the remainder goes to the last stages, as vLLM's get_pp_indices does
        (61, 4, [15, 15, 15, 16]),
    ],
)
def test_stage_layers(n, pp, sizes):
    stages = stage_layers(n, pp)
    assert [len(s) for s in stages] == sizes
    assert stages[0].start == 0 and stages[-1].stop == n


def test_pipeline_halves_layers_per_gpu(models):
    m = models.model("llama-3-8b")
    assert kv_cache(m, 100, pp=2).layers_per_gpu == 16
    assert kv_cache_bytes(m, 100, pp=2) == kv_cache_bytes(m, 100) / 2


def test_alternating_gemma2_pattern_from_family(models):
    kinds, note = layer_types(models.model("gemma-2-9b"))
    assert kinds[:4] == [SLIDING, FULL, SLIDING, FULL]  # Gemma2Config: even layers slide
    assert kinds.count(SLIDING) == 21
    assert note is not None and note.code == KvCode.sliding.value and note.params["pattern"] == "alternating"


def test_gemma3_pattern_five_in_six():
    m = _spec(family="gemma-3", sliding_window=1024)
    kinds, note = layer_types(m)
    assert kinds == [SLIDING] * 5 + [FULL] + [SLIDING] * 5 + [FULL]
    assert note.params["pattern"] == "five_in_six"


def test_explicit_layer_types_win():
    types = ["full_attention", "sliding_attention"] * 6
    m = _spec(sliding_window=512, layer_types=types)
    assert kv_cache_bytes(m, 2048) == (6 * 2048 + 6 * 512) * 2 * 8 * 128 * 2


def test_layer_types_of_the_wrong_length_are_ignored_with_a_note():
    m = _spec(sliding_window=512, layer_types=["sliding_attention"] * 5)
    kv = kv_cache(m, 2048)
    assert kv.bytes_per_gpu == 12 * 2048 * 2 * 8 * 128 * 2  # all full
    assert any(n.code == KvCode.layer_types_ignored.value for n in kv.notes)


def test_no_window_no_capping():
    m = _spec(layer_types=["sliding_attention"] * 12)  # a pattern without a window caps nothing
    assert kv_cache_bytes(m, 4096) == 12 * 4096 * 2 * 8 * 128 * 2


def test_mqa_keeps_one_head_per_gpu():
    m = _spec(attention=AttentionType.mqa, num_kv_heads=1)
    assert kv_cache_bytes(m, 1, tp=4) == 12 * 1 * 128 * 2 * 2


def test_assumed_shape_from_a_parameter_count():
    m = model_from_params(13e9)
    per_token = kv_cache_bytes(m, 1)
    assert per_token == m.num_layers * 8 * 128 * 2 * 2  # the assumed decoder is GQA-8, head_dim 128


def test_max_sequences(models):
    m = models.model("llama-3-8b")
    pool = 10 * kv_cache_bytes(m, 4096) + 1
    assert max_sequences(m, pool, 4096) == pytest.approx(10.0, abs=1e-6)


def test_notes_render_in_both_languages(models):
    for key, tokens in (("gemma-2-9b", 8192), ("deepseek-v3", 10), ("llama-3-8b", 10)):
        for note in kv_cache(models.model(key), tokens, tp=2).notes:
            en, zh = render(note, "en"), render(note, "zh")
            assert en and zh and en != zh
