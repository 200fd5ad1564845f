"""Ninth formula round of the VRAM estimator (issue 11), on spent data only.

The eighth held-out round (spent since its one evaluation) showed three things this round reads from the frameworks'
code: a published `params` + `shape` was always built as a decoder, so vision rows never reached the per-block ViT
count; `flash_attention: false` on a ViT was read as SDPA's math backend, while the rows ran explicit attention (timm
0.3.2's `Attention`, torch 1.x's `nn.MultiheadAttention` returning its weights), whose softmax runs in fp32 under
autocast; and DeiT keeps a model EMA on the GPU. Expectations are derived from the code; one test measures the explicit
block on the CPU.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from knowledge.catalog import load_catalog
from tools.domain import ModelKind
from tools.messages import render
from tools.schemas import VramRequest
from tools.vram import estimate_vram
from tools.vram_codes import Component, VramCode
from tools.vram_shape import family_kind, is_vision_transformer, model_from_params, shape_of, vit_tokens

GIB = 2**30


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def bench():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "accuracy.py"
    spec = importlib.util.spec_from_file_location("accuracy_bench_round9", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("family", "kind"), [
    ("vit", ModelKind.vision),  # the eighth round's DeiT / Segmenter shapes
    ("ViT", ModelKind.vision),  # families are compared case-insensitively, as layer_style does
    ("llama", ModelKind.decoder),  # every LLM shape stays what it was read as
    ("gpt2", ModelKind.decoder),
    ("opt", ModelKind.decoder),  # the DeepSpeedExamples row: a layer style, still a decoder
])
def test_a_family_implies_its_kind(family, kind):
    assert family_kind(family) == kind


DEIT_S = {"id": "x", "params": 22050664, "shape": {"family": "vit", "layers": 12, "hidden": 384, "heads": 6,
                                                   "intermediate": 1536, "vocab": 1000}}


def test_a_vit_shape_row_is_estimated_as_a_vision_transformer(bench, catalog):
    model = bench.resolve_model(catalog, DEIT_S)
    assert model.kind == ModelKind.vision and is_vision_transformer(model)
    req = VramRequest(mode="full", precision="fp16", autocast=True, batch_size=128, seq_len=197, checkpointing="none",
                      flash_attention=False)
    est = estimate_vram(model, req)
    assert any(n.code == VramCode.vit_blocks for n in est.assumptions)
    assert Component.logits.value not in est.breakdown_gib  # the class token's 1000 logits, not 197 x 128 of them


def test_a_shape_can_still_say_decoder_explicitly(bench, catalog):
    """`RowShape.kind` overrides the family's kind: the same shape stated as a decoder reads as before the round."""
    row = {**DEIT_S, "shape": {**DEIT_S["shape"], "kind": "decoder"}}
    model = bench.resolve_model(catalog, row)
    assert model.kind == ModelKind.decoder and not is_vision_transformer(model)
    est = estimate_vram(model, VramRequest(mode="full", batch_size=2, seq_len=197, checkpointing="none"))
    assert est.breakdown_gib[Component.logits.value] > 0


@pytest.mark.parametrize(("params", "layers", "hidden", "heads"), [
    (5.7e6, 12, 192, 3),  # DeiT-Ti (DeiT Table 1)
    (22.0e6, 12, 384, 6),  # DeiT-S
    (86.6e6, 12, 768, 12),  # DeiT-B = ViT-B/16
    (304.3e6, 24, 1024, 16),  # ViT-L/16 (ViT Table 1)
    (632.0e6, 32, 1280, 20),  # ViT-H/14: 1280 / 64-wide heads (the paper's 16 heads are 80 wide)
])
def test_a_bare_count_vit_hits_published_shapes(params, layers, hidden, heads):
    m = model_from_params(params, kind=ModelKind.vision)
    assert (m.num_layers, m.hidden_size, m.num_attention_heads, m.intermediate_size) == (layers, hidden, heads,
                                                                                         4 * hidden)
    assert m.kind == ModelKind.vision and m.family == "vit" and m.assumed_shape and is_vision_transformer(m)
    s = shape_of(m)
    assert not s.gated_mlp and not s.from_params  # a GELU MLP, fitted to the count, not the assumed decoder's SwiGLU


def test_a_bare_count_vit_grows_with_its_count_and_says_its_shape():
    sizes = [model_from_params(p, kind=ModelKind.vision) for p in (3e6, 10e6, 40e6, 150e6, 450e6, 1e9)]
    assert [m.num_layers for m in sizes] == sorted(m.num_layers for m in sizes)
    assert [m.hidden_size for m in sizes] == sorted(m.hidden_size for m in sizes)
    m = model_from_params(22e6, kind=ModelKind.vision)
    est = estimate_vram(m, VramRequest(mode="full", precision="fp32", batch_size=8, seq_len=vit_tokens(224)))
    note = next(n for n in est.assumptions if n.code == VramCode.shape_assumed)
    assert note.params["vision"] is True and note.params["hidden"] == 384
    assert "DeiT/ViT" in render(note, "en") and "视觉 Transformer" in render(note, "zh")
    decoder = estimate_vram(model_from_params(13e9), VramRequest())
    assert "Llama" in render(next(n for n in decoder.assumptions if n.code == VramCode.shape_assumed), "en")


@pytest.mark.parametrize(("image", "patch", "tokens"), [
    (224, 16, 197),  # ImageNet crops: 14 x 14 patches + class token
    (384, 16, 577),
    (512, 16, 1025),  # the Segmenter/SETR ADE20K crops
    (640, 16, 1601),
    (768, 16, 2305),  # SETR's Cityscapes crops
    (224, 14, 257),  # ViT-H/14
])
def test_vit_tokens(image, patch, tokens):
    assert vit_tokens(image, patch) == tokens


# ViT-B/16: h = 768, 12 heads of 64, MLP 3072, 12 blocks
H, HEADS, LAYERS = 768, 12, 12
NORM_STATS = 2 * 2 * 4  # two LayerNorms' fp32 mean and rstd per token; explicit attention keeps no log-sum-exp


@pytest.mark.parametrize(("workload", "per_token"), [
    # fp32 (the mmsegmentation rows): 4 (ln_1 in) + 4 (qkv in) + 16 (the matmuls' q, k, v copies and the
    # out-projection's input copy) + 4 (ln_2 in) + 4 (fc1 in) + 32 (GELU in, fc2 in) = 64 B per unit of width, and the
    # fp32 softmax output per score
    ({"precision": "fp32"}, lambda s: 64 * H + 4 * HEADS * s),
    # fp16 autocast over fp32 weights (the DeiT rows): stream and LayerNorm inputs fp32, the rest 16-bit: 36, and per
    # score the fp32 softmax (autocast's fp32 list) + the 16-bit cast the second matmul keeps: 4 + 2
    ({"precision": "fp16", "master_weights": "fp32", "autocast": True}, lambda s: 36 * H + 6 * HEADS * s),
    # pure bf16: 32, the softmax in bf16 and itself the matmul's input: 2
    ({"precision": "bf16", "master_weights": "none", "autocast": False}, lambda s: 32 * H + 2 * HEADS * s),
])
@pytest.mark.parametrize("tokens", [197, 1025])
def test_explicit_attention_bytes_per_token(catalog, workload, per_token, tokens):
    model = catalog.models["vit-b-16"]
    est = estimate_vram(model, VramRequest(mode="full", batch_size=2, seq_len=tokens, checkpointing="none",
                                           flash_attention=False, **workload))
    note = next(n for n in est.assumptions if n.code == VramCode.vit_blocks)
    assert note.params["attention"] == "explicit"
    assert note.params["bytes_per_token"] == per_token(tokens) + NORM_STATS


def test_autocast_makes_the_explicit_scores_three_times_the_16bit_ones(catalog):
    """The DeiT-B finding: under autocast the explicit softmax keeps 4 + 2 B per score where SDPA's math backend kept
    its 16-bit output (2 B): at batch 128 x 197 tokens that is 2.7 GiB more over the 12 blocks."""
    model = catalog.models["vit-b-16"]
    kw = dict(mode="full", precision="fp16", autocast=True, batch_size=128, seq_len=197, checkpointing="none")
    explicit = estimate_vram(model, VramRequest(flash_attention=False, **kw)).breakdown_gib[Component.activations.value]
    flash = estimate_vram(model, VramRequest(flash_attention=True, **kw)).breakdown_gib[Component.activations.value]
    # explicit - flash per token per block: 6 B per score less the flash path's log-sum-exp (4 B per head)
    expected = (6 * HEADS * 197 - 4 * HEADS) * 197 * 128 * LAYERS / GIB
    assert explicit - flash == pytest.approx(expected, abs=0.002)


def _timm_explicit_block_saved(dtype_name: str) -> tuple[float, float, int]:
    """(bytes per token per unit of width outside the score matrices, bytes per score element, heads) that autograd
    saves in a pre-norm block with timm 0.3.2's explicit Attention (qkv Linear, reshape/permute, `(q @ k^T) * scale`,
    softmax, dropout 0.0, `attn @ v`, transpose/reshape, proj) and its GELU Mlp; parameters left out."""
    torch = pytest.importorskip("torch")
    nn = torch.nn
    h, heads, m, s, b = 96, 4, 384, 17, 2

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv, self.proj, self.attn_drop = nn.Linear(h, 3 * h), nn.Linear(h, h), nn.Dropout(0.0)
            self.scale = (h // heads) ** -0.5

        def forward(self, x):
            B, N, C = x.shape
            qkv = self.qkv(x).reshape(B, N, 3, heads, C // heads).permute(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            attn = ((q @ k.transpose(-2, -1)) * self.scale).softmax(dim=-1)
            x = (self.attn_drop(attn) @ v).transpose(1, 2).reshape(B, N, C)
            return self.proj(x)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.norm2 = nn.LayerNorm(h, eps=1e-6), nn.LayerNorm(h, eps=1e-6)
            self.attn = Attention()
            self.mlp = nn.Sequential(nn.Linear(h, m), nn.GELU(), nn.Dropout(0.0), nn.Linear(m, h), nn.Dropout(0.0))

        def forward(self, x):
            x = x + self.attn(self.norm1(x))
            return x + self.mlp(self.norm2(x))

    dtype = getattr(torch, dtype_name)
    block = Block().train().to(dtype)
    params = {p.untyped_storage().data_ptr() for p in block.parameters()}
    shapes = {tuple(p.shape) for p in block.parameters()} | {tuple(p.shape)[::-1] for p in block.parameters()}
    saved: dict[int, tuple[int, tuple]] = {}
    keep = []

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params and tuple(t.shape) not in shapes:
            saved.setdefault(st.data_ptr(), (st.nbytes(), tuple(t.shape)))
            keep.append(t)
        return None

    def unpack(_):  # backward never runs
        raise AssertionError

    x = torch.randn(b, s, h, dtype=dtype, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        block(x)
    scores = sum(n for n, shape in saved.values() if shape[-2:] == (s, s))
    rest = sum(n for n, _ in saved.values()) - scores
    return rest / (b * s) / h, scores / (b * s * heads * s), h


@pytest.mark.parametrize(("dtype", "per_h", "per_score"), [
    ("float32", 64, 4),  # the estimator's fp32 explicit count
    ("bfloat16", 32, 2),  # pure 16-bit
])
def test_the_explicit_count_matches_timms_block_rebuilt_from_torch_nn(dtype, per_h, per_score):
    """Up to the per-token LayerNorm statistics, whose dtype the CPU kernels choose. (CPU autocast keeps softmax in
    bf16, unlike CUDA's fp32 list, so the autocast case is checked against the list above, not measured here.)"""
    rest, score, _ = _timm_explicit_block_saved(dtype)
    assert rest == pytest.approx(per_h, abs=0.75)
    assert score == pytest.approx(per_score, abs=1e-9)


@pytest.mark.parametrize(("workload", "bytes_per_param", "precision"), [
    ({"precision": "fp16", "master_weights": "fp32"}, 4, "fp32"),  # DeiT: AMP over fp32 weights, an fp32 copy
    ({"precision": "fp32"}, 4, "fp32"),
    ({"precision": "bf16", "master_weights": "none"}, 2, "bf16"),  # a 16-bit model's copy is 16-bit
])
def test_model_ema_keeps_one_more_copy_of_the_weights(catalog, workload, bytes_per_param, precision):
    model = catalog.models["vit-b-16"]
    kw = dict(mode="full", batch_size=8, seq_len=197, checkpointing="none", **workload)
    on = estimate_vram(model, VramRequest(model_ema=True, **kw))
    off = estimate_vram(model, VramRequest(**kw))
    part = next(p for p in on.breakdown if p.component == Component.ema_weights)
    assert part.gib == pytest.approx(model.params * bytes_per_param / GIB, abs=0.001) and part.precision == precision
    assert Component.ema_weights.value not in off.breakdown_gib
    assert on.per_gpu_gib > off.per_gpu_gib
    note = next(n for n in on.assumptions if n.code == VramCode.model_ema)
    assert "EMA" in render(note, "en") and "指数滑动平均" in render(note, "zh")


def test_model_ema_is_full_training_only(catalog):
    model = catalog.models["llama-3.1-8b"]
    est = estimate_vram(model, VramRequest(mode="lora", model_ema=True, batch_size=1, seq_len=512))
    assert Component.ema_weights.value not in est.breakdown_gib
    assert Component.ema_weights.value not in estimate_vram(model, VramRequest(mode="full")).breakdown_gib


@pytest.fixture(scope="module")
def report_and_rows(bench, catalog):
    mem, bounds = bench.evaluate_all_memory(catalog)
    return bench.render(mem, bounds, bench.evaluate_hours(catalog), bench.load_errata()), mem


def test_the_ninth_round_moved_only_the_eighth_rounds_vision_rows(bench, report_and_rows):
    report, mem = report_and_rows
    mem = [r for r in mem if r.set not in ("new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12",
                                           "new kinds 13")]  # their own readings
    assert sum(n for _, _, n in bench.BEFORE_ROUND9.values()) == bench.BEFORE_ROUND9_ALL[2] == len(mem) == 418
    reading = report[report.index("### Reading the ninth formula round (calibration only)"):]
    reading = reading[:reading.index("\n### ", 10)]
    moved = [line.split(" | ")[0].removeprefix("| ") for line in reading.split("Every row the round moved:")[1]
             .split("The ten largest")[0].splitlines() if line.startswith("| ") and "---" not in line][1:]
    # the ninth round's own after-state: the tenth round (dense-head fields stated by errata on the seven
    # mmsegmentation rows) moved those rows since, so they read at that round's frozen estimates (AFTER_ROUND9_GIB), and
    # the twelfth formula round moved the Megatron-DeepSpeed rows, read at the eleventh's after-state (AFTER_ROUND11_GIB)
    kinds8 = {r.id: replace(r, ours_gib=bench.AFTER_ROUND9_GIB.get(r.id, bench.AFTER_ROUND11_GIB.get(r.id, r.ours_gib)))
              for r in mem if r.set == "new kinds 8"}
    assert moved and set(moved) <= set(kinds8)
    assert all(kinds8[i].kind.startswith("vision") for i in moved)
    # the three DeiT rows and every mmsegmentation row that was not routed already (catalog keys at fp32 move by the
    # explicit count; the Segmenter-Linear ViT-S row lands within 0.005 GiB of its decoder reading)
    assert {"mesa-deit-b-amp-b128", "mesa-deit-s-amp-b128", "mesa-deit-ti-amp-b128"} <= set(moved)
    for r in kinds8.values():
        then = bench.ROUND8_AT_EVAL_GIB[r.id]
        assert (r.id in moved) == (abs(r.ours_gib - then) > 0.005 + 1e-9), r.id
    after = bench._summary([r.error for r in kinds8.values()])
    assert f"| published_memory_heldout_kinds8.yaml | 30.3% / 62.6% / 16 | {after[0]:.1%} / {after[1]:.1%} / 16 |" \
        in reading
    for rid, err in bench.BEFORE_ROUND9_TOP:
        assert f"| {rid} | {bench._pct(err)} |" in reading


def test_every_deit_row_now_reaches_the_vit_count(bench, catalog):
    data = bench.load_memory(bench.HELDOUT_KINDS8_FILE, bench.load_errata())
    for row in (r for r in data["rows"] if r.get("shape", {}).get("family") == "vit"):
        model = bench.resolve_model(catalog, row)
        est = estimate_vram(model, VramRequest(**row["workload"]))
        note = next(n for n in est.assumptions if n.code == VramCode.vit_blocks)
        assert note.params["attention"] == "explicit", row["id"]  # every one states flash_attention: false
