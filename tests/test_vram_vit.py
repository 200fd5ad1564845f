"""Eighth formula round of the VRAM estimator (issue 11): a vision transformer's activations, block by block.

The seventh held-out round (spent since its evaluation) found the catalog's measured ViT profile (HF ViTModel, eager
attention, fp32) used unchanged in fp32, under autocast, in pure 16-bit and with checkpointing. The estimator now counts
what autograd saves in torchvision's EncoderBlock tensor by tensor, in each tensor's dtype (tools/vram.py
`_vit_token_bytes`); the expectations below are derived from the framework's code, and the last test measures the block
itself, rebuilt from torch.nn as torchvision writes it, on the CPU.
"""

from __future__ import annotations

import pytest

from knowledge.catalog import load_catalog
from tools.schemas import VramRequest
from tools.vram import estimate_vram
from tools.vram_codes import Component, VramCode
from tools.vram_shape import is_vision_transformer, layer_params, outside_block_params, shape_of

GIB = 2**30


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _part(est, component: Component) -> float:
    return est.breakdown_gib.get(component.value, 0.0) * GIB


# ViT-L/16: h = 1024, 16 heads of 64, MLP 4096, 24 blocks, 197 tokens (196 patches + class token)
H, HEADS, I, LAYERS, TOKENS = 1024, 16, 4096, 24, 197
STATS = 2 * 2 * 4 + 4 * HEADS  # two LayerNorms' fp32 mean and rstd, the attention's fp32 log-sum-exp per head


@pytest.mark.parametrize(("workload", "per_token", "kernel"), [
    # fp32: every saved tensor 4 B; the memory-efficient kernel's batch-major output makes out_proj's input a copy:
    # 4 (ln_1 in) + 4 (in_proj in) + 12 (q, k, v) + 4 (output) + 4 (its permuted copy) + 4 (ln_2 in) + 4 (fc1 in)
    # + 16 (GELU in) + 16 (fc2 in) = 68 B per hidden unit
    ({"precision": "fp32"}, 68 * H + STATS, "mem_efficient"),
    # pure bf16 (Lightning 'bf16-true'): 2 B each, FlashAttention writes its output in the query's order (no copy): 32
    ({"precision": "bf16", "master_weights": "none", "autocast": False}, 32 * H + STATS, "flash"),
    # fp16 autocast over fp32 weights (Lightning '16-mixed'): LayerNorm inputs and the residual stream fp32 (4 + 4),
    # each linear's 16-bit cast of its input (2 + 2), q/k/v, output and the MLP tensors in 16-bit (6 + 2 + 16): 36
    ({"precision": "fp16", "master_weights": "fp32", "autocast": True}, 36 * H + STATS, "flash"),
    # pure bf16 with explicit attention (ninth round: timm's pre-fused Attention, torch 1.x's weights path): q, k, v
    # and the out-projection's input are the matmuls' copies (the same 8 B per unit of width as the kernel's q, k, v
    # and output), no log-sum-exp, + the bf16 softmax output (2 B × heads × s)
    ({"precision": "bf16", "master_weights": "none", "autocast": False, "flash_attention": False},
     32 * H + STATS - 4 * HEADS + 2 * HEADS * TOKENS, "explicit"),
])
def test_block_bytes_per_token_follow_each_tensors_dtype(catalog, workload, per_token, kernel):
    model = catalog.models["vit-l-16"]
    assert is_vision_transformer(model)
    b = 8
    est = estimate_vram(model, VramRequest(mode="full", batch_size=b, seq_len=TOKENS, checkpointing="none",
                                           **workload))
    note = next(n for n in est.assumptions if n.code == VramCode.vit_blocks)
    assert note.params["bytes_per_token"] == per_token and note.params["attention"] == kernel
    stream = 2 if workload.get("master_weights") == "none" else 4
    expected = per_token * TOKENS * b * LAYERS + stream * H * TOKENS * b  # + the final LayerNorm's input
    assert _part(est, Component.activations) == pytest.approx(expected, rel=1e-3)
    assert Component.logits.value not in est.breakdown_gib  # the class token's few logits are not counted


def test_the_round7_finding_precision_and_checkpointing_now_scale_the_activations(catalog):
    """Round 7 (spent): the measured profile gave 22.16 GiB at batch 64 in fp32, under AMP, in pure 16-bit and with
    checkpointing alike. Now pure bf16 keeps 32/68 of fp32's block tensors, and checkpointing keeps each block's input
    plus one block."""
    model = catalog.models["vit-l-16"]
    kw = dict(mode="full", batch_size=64, seq_len=TOKENS, checkpointing="none")
    fp32 = _part(estimate_vram(model, VramRequest(precision="fp32", **kw)), Component.activations)
    half = _part(estimate_vram(model, VramRequest(precision="bf16", master_weights="none", autocast=False, **kw)),
                 Component.activations)
    assert half / fp32 == pytest.approx((32 * H + STATS + 2 * H / LAYERS) / (68 * H + STATS + 4 * H / LAYERS), rel=1e-3)
    ckpt = estimate_vram(model, VramRequest(precision="fp32", **{**kw, "checkpointing": "full"}))
    tokens = 64 * TOKENS
    assert Component.activations.value not in ckpt.breakdown_gib
    assert _part(ckpt, Component.activations_checkpointed) == pytest.approx(4 * H * tokens * (LAYERS + 1), rel=1e-3)
    assert _part(ckpt, Component.activations_recomputed) == pytest.approx((68 * H + STATS) * tokens, rel=1e-3)
    assert not [n for n in ckpt.assumptions if n.code == VramCode.profile_no_checkpointing]


def test_the_fsdp_root_unit_of_a_vit_is_what_lies_outside_its_blocks(catalog):
    """Wrapped per EncoderBlock, the root unit holds the patch embedding, class token, position embedding, final norm
    and head (2.3M of ViT-L/16's 304.3M parameters), not a vocabulary a ViT does not have; fp32 full training gathers it
    with its gradient (4 + 4 B)."""
    model = catalog.models["vit-l-16"]
    s = shape_of(model)
    outside = outside_block_params(model, s)
    assert outside == pytest.approx(model.params - LAYERS * (4 * H * H + 2 * H * I))
    assert layer_params(s) == 4 * H * H + 2 * H * I and 2.0e6 < outside < 2.5e6
    est = estimate_vram(model, VramRequest(mode="full", precision="fp32", gpus=4, sharding="fsdp", batch_size=64,
                                           seq_len=TOKENS, checkpointing="full"))
    assert _part(est, Component.gathered_embeddings) == pytest.approx(outside * 8, abs=0.0005 * GIB)  # GiB to 0.001


@pytest.mark.parametrize("key", ["resnet-50", "sd-1.5"])
def test_other_profiled_models_keep_their_measured_profile(catalog, key):
    model = catalog.models[key]
    assert not is_vision_transformer(model)
    est = estimate_vram(model, VramRequest(mode="full", batch_size=4, checkpointing="none"))
    assert _part(est, Component.activations) == pytest.approx(model.activation_profile.bytes_per_sample * 4, rel=1e-3)
    assert any(n.code == VramCode.profile_training for n in est.assumptions)


def _saved_bytes_of_rebuilt_block(dtype_name: str, autocast: bool) -> tuple[float, int]:
    """Bytes per token autograd saves in torchvision's EncoderBlock (rebuilt from torch.nn exactly as
    torchvision/models/vision_transformer.py writes it: ln_1, nn.MultiheadAttention(batch_first=True,
    need_weights=False), dropout, residual, ln_2, Linear-GELU-Dropout-Linear-Dropout, residual), parameters and
    autocast's weight casts left out; and the hidden size."""
    torch = pytest.importorskip("torch")
    nn = torch.nn
    h, heads, m, s, b = 96, 4, 384, 17, 2

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1 = nn.LayerNorm(h, eps=1e-6)
            self.self_attention = nn.MultiheadAttention(h, heads, dropout=0.0, batch_first=True)
            self.dropout = nn.Dropout(0.0)
            self.ln_2 = nn.LayerNorm(h, eps=1e-6)
            self.mlp = nn.Sequential(nn.Linear(h, m), nn.GELU(), nn.Dropout(0.0), nn.Linear(m, h), nn.Dropout(0.0))

        def forward(self, inp):
            x = self.ln_1(inp)
            x, _ = self.self_attention(query=x, key=x, value=x, need_weights=False)
            x = self.dropout(x) + inp
            return x + self.mlp(self.ln_2(x))

    dtype = getattr(torch, dtype_name)
    block = Block().train().to(dtype)
    weight_shapes = {tuple(p.shape) for p in block.parameters()} | {tuple(p.shape)[::-1] for p in block.parameters()}
    param_ptrs = {p.untyped_storage().data_ptr() for p in block.parameters()}
    sizes: dict[int, int] = {}
    keep = []

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in param_ptrs and tuple(t.shape) not in weight_shapes:
            sizes.setdefault(st.data_ptr(), st.nbytes())
            keep.append(t)
        return None

    def unpack(_):  # backward never runs
        raise AssertionError

    x = torch.randn(b, s, h, dtype=dtype, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack), \
            torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        block(x)
    return sum(sizes.values()) / (b * s), h


@pytest.mark.parametrize(("dtype", "autocast", "bytes_per_h"), [
    ("float32", False, 64),  # the CPU kernel keeps the query's order: 68 less the memory-efficient kernel's copy
    ("bfloat16", False, 32),
    ("float32", True, 36),  # CPU autocast's lists put layer_norm in fp32 and linear / SDPA in 16-bit, as on CUDA
])
def test_the_count_matches_the_block_rebuilt_from_torch_nn(dtype, autocast, bytes_per_h):
    """What the block saves, per token, divided by h: the estimator's count (`_vit_token_bytes`) with the flash-style
    output layout, up to the small per-token statistics (mean, rstd, log-sum-exp), whose dtype the CPU kernels choose."""
    per_token, h = _saved_bytes_of_rebuilt_block(dtype, autocast)
    assert per_token / h == pytest.approx(bytes_per_h, abs=0.75)


@pytest.fixture(scope="module")
def bench():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "accuracy.py"
    spec = importlib.util.spec_from_file_location("accuracy_bench_round8", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def report_and_rows(bench, catalog):
    mem, bounds = bench.evaluate_all_memory(catalog)
    return bench.render(mem, bounds, bench.evaluate_hours(catalog), bench.load_errata()), mem


def test_the_eighth_round_moved_only_the_vit_rows_and_reports_every_file_before_and_after(bench, report_and_rows):
    """The round's 'before' (commit 0cd16d5) is the seventh evaluation's estimate for the ViT rows (ROUND7_AT_EVAL_GIB)
    and adds up to the 402 spent rows; the report prints every file before and after, every moved row and the ten
    largest residuals; no language-model row moved."""
    report, mem = report_and_rows
    later = ("new kinds 8", "new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12",
             "new kinds 13")  # held-out 8-13: their own readings
    mem = [r for r in mem if r.set not in later]
    assert sum(n for _, _, n in bench.BEFORE_ROUND8.values()) == bench.BEFORE_ROUND8_ALL[2] == len(mem) == 402
    vit = [r for r in mem if r.set == "new kinds 7"]
    then = [bench.ROUND7_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in vit]
    med, mx, n = bench.BEFORE_ROUND8["published_memory_heldout_kinds7.yaml"]
    assert (round(bench._summary(then)[0], 3), round(bench._summary(then)[1], 3), len(then)) == (med, mx, n)
    reading = report[report.index("### Reading the eighth formula round (calibration only)"):]
    reading = reading[:reading.index("\n### ", 10)]
    assert "| all | 6.9% / 438.9% / 402 |" in reading
    moved_rows = [line.split(" | ")[0].removeprefix("| ") for line in reading.split("Every row the round moved:")[1]
                  .split("The ten largest")[0].splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert sorted(moved_rows) == sorted(r.id for r in vit)
    after = bench._summary([r.error for r in vit])
    assert after[1] < 0.5 and after[0] < 0.1  # ViT rows: +408/+439 % at most before, now within ±43 %
    assert f"| published_memory_heldout_kinds7.yaml | 70.0% / 438.9% / 20 | {after[0]:.1%} / {after[1]:.1%} / 20 |" \
        in reading
    for rid, err in bench.BEFORE_ROUND8_TOP:
        assert f"| {rid} | {bench._pct(err)} |" in reading
