"""Issue 11, fourth formula round: the recomputed layer after the loss, torchtitan's selective checkpointing options.

The round's fields (`ac_option`, `grads_to_none`, `kbit_recast_bf16`, `bnb_double_quant`, `bnb_compute_fp32`) are
VramRequest's own: every request here goes through the real schema and its checks.
"""

from __future__ import annotations

import pytest
from pytest import approx

from tools.domain import GIB, AttentionType, ModelKind, ModelSpec
from tools.messages import render
from tools.schemas import VramRequest
from tools.vram import _op_sac_token_bytes, HALF, estimate_vram
from tools.vram_shape import shape_of


Round4Request = VramRequest  # the name the tests below were written with


# Llama 3.1 8B's shape (meta-llama/Llama-3.1-8B config.json)
LLAMA31_8B = ModelSpec(
    key="llama-3.1-8b-test", name="Llama 3.1 8B (test)", family="llama", kind=ModelKind.decoder, params=8.03e9,
    num_layers=32, hidden_size=4096, num_attention_heads=32, num_kv_heads=8, head_dim=128,
    attention=AttentionType.gqa, intermediate_size=14336, vocab_size=128256, source="test",
)
TOKENS = 2 * 8192  # torchtitan's local batch 2 × seq_len 8192


def said(e, code):
    return next(n.params for n in e.assumptions if n.code == code)


def test_op_sac_keeps_every_other_matmul_and_the_flash_output():
    # torchtitan parallelize_llama.py (9dec370): wq, wv, w1, w2 outputs (the 1st, 3rd, 5th and 7th mm) in bf16, the
    # flash kernel's output (4096) and fp32 log-sum-exp (32 heads × 4 B), the layer input held by the wrapper
    expected = 2 * (4096 + 1024 + 14336 + 4096) + 2 * 4096 + 4 * 32 + 2 * 4096
    assert expected == 63_616
    assert _op_sac_token_bytes(shape_of(LLAMA31_8B), HALF, 1, flash=True) == expected
    # eager attention's matmuls are bmm, not in the save list: only the mm outputs and the input stay
    assert _op_sac_token_bytes(shape_of(LLAMA31_8B), HALF, 1, flash=False) == expected - 2 * 4096 - 4 * 32


def _titan(**kw):
    base = dict(mode="pretrain", precision="bf16", batch_size=2, seq_len=8192, gpus=8, sharding="fsdp",
                checkpointing="selective", flash_attention=True, autocast=False, foreach_step=True)
    return estimate_vram(LLAMA31_8B, Round4Request(**(base | kw)))


def test_op_sac_replaces_the_unrecomputed_layers():
    plain, op = _titan(), _titan(ac_option="op")
    # without the option, "selective" under flash attention drops nothing: every activation stays
    assert plain.breakdown_gib["activations"] > 90
    assert op.breakdown_gib["activations_checkpointed"] == approx(63_616 * TOKENS * 32 / GIB, abs=1e-3)
    assert "activations" not in op.breakdown_gib
    assert said(op, "vram.sac_op") == {"bytes_per_token": 63_616, "layers": 32,
                                       "framework": "torchtitan"}
    assert "63,616" in render(next(n for n in op.assumptions if n.code == "vram.sac_op"), "en")
    assert "torchtitan" in render(next(n for n in op.assumptions if n.code == "vram.sac_op"), "zh")


@pytest.mark.parametrize(
    "every, wrapped",
    [
        (2, 16),  # selective_ac_option "2": layers 2, 4, …, 32 keep only their input
        (3, 10),  # 32 // 3 layers are wrapped
        (32, 1),  # one layer of 32
    ],
)
def test_layer_sac_checkpoints_every_nth_layer(every, wrapped):
    full_layer = _titan(checkpointing="none").breakdown_gib["activations"] / 32
    e = _titan(ac_option=every)
    kept = (32 - wrapped) * full_layer + wrapped * 2 * TOKENS * 4096 / GIB
    assert e.breakdown_gib["activations_checkpointed"] == approx(kept, rel=1e-3)
    assert said(e, "vram.sac_layers") == {"every": every, "checkpointed_layers": wrapped, "layers": 32,
                                          "framework": "torchtitan"}


def test_layer_sac_every_layer_is_full_recomputation_and_options_need_selective():
    # N = 1 wraps every layer: what checkpointing "full" counts, without the option
    assert _titan(ac_option=1).breakdown_gib == _titan(checkpointing="full").breakdown_gib
    # the option refines "selective" only: with full recomputation it is a clear error, never silently ignored
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="ac_option only applies with checkpointing=selective"):
        _titan(checkpointing="full", ac_option="op")
    with pytest.raises(ValidationError, match="kbit_recast_bf16 only applies with kbit_prepare"):
        VramRequest(mode="qlora", kbit_recast_bf16=True)
    with pytest.raises(ValidationError, match="bnb_double_quant only applies with precision=nf4"):
        VramRequest(mode="inference", precision="bf16", bnb_double_quant=False)
    VramRequest(mode="inference", precision="nf4", bnb_double_quant=False, bnb_compute_fp32=True)  # where they apply


def test_recomputed_layer_is_held_after_the_loss_buffers_regression():
    """Round 3's fms-acceleration LoRA rows (+7 … +22%): the loss buffers and the recomputed layer were summed."""
    e = _titan(checkpointing="full")
    b = e.breakdown_gib
    # Llama 3.1's 128k vocabulary: the loss buffers (14 B per logit) dwarf one layer, so no recomputed layer counts
    assert b["logits"] == approx(14 * TOKENS * 128256 / GIB, abs=1e-3)
    assert "activations_recomputed" not in b
    assert said(e, "vram.recompute_after_loss") == {"loss_larger": True}
    # a short vocabulary and eager attention: the layer (with its score-sized gradients) is the larger, and only its
    # excess over the loss buffers adds
    small = ModelSpec(**(LLAMA31_8B.model_dump() | {"key": "small-vocab", "vocab_size": 1000}))
    eager = estimate_vram(small, Round4Request(mode="full", master_weights="none", batch_size=1, seq_len=4096,
                                               checkpointing="full", flash_attention=False))
    assert eager.breakdown_gib["activations_recomputed"] > 0
    assert said(eager, "vram.recompute_after_loss") == {"loss_larger": False}


Round4AllFields = VramRequest


MISTRAL_7B = ModelSpec(  # mistralai/Mistral-7B-v0.1 config.json
    key="mistral-7b-test", name="Mistral 7B (test)", family="mistral", kind=ModelKind.decoder, params=7.24e9,
    num_layers=32, hidden_size=4096, num_attention_heads=32, num_kv_heads=8, head_dim=128,
    attention=AttentionType.gqa, intermediate_size=14336, vocab_size=32000, source="test",
)
FMS_FULL = dict(mode="full", precision="bf16", master_weights="none", seq_len=4096, checkpointing="full",
                flash_attention=True, autocast=False, foreach_step=True)


def _fms(**kw):
    e = estimate_vram(MISTRAL_7B, Round4AllFields(**(FMS_FULL | kw)))
    return e, e.per_gpu_gib - e.breakdown_gib["fragmentation"] - e.breakdown_gib["cuda_context"]


def test_freed_gradients_make_the_step_the_peak_whatever_the_batch():
    """fms-acceleration's full fine-tunes of Mistral 7B peak at the same 67.46 GiB allocated at batch 4 and 8 (HF
    Trainer frees the gradients after each step, torch 2.4.1): bf16 weights + gradients + moments + the foreach sqrt
    buffer = 10 B per parameter, while backward holds the activations and loss buffers without the gradients."""
    (_, b4), (_, b8) = _fms(batch_size=4, grads_to_none=True), _fms(batch_size=8, grads_to_none=True)
    assert b4 == approx(b8) == approx(10 * 7.24e9 / GIB, rel=1e-3)
    # held gradients (torch 1.x zero_grad) add them to the larger backward of batch 8
    (_, held4), (_, held8) = _fms(batch_size=4), _fms(batch_size=8)
    assert held8 > held4 > b4 - 0.01


def test_freed_gradients_count_beyond_the_short_lived_tensors_only():
    e, _ = _fms(batch_size=8, grads_to_none=True)
    b = e.breakdown_gib
    transient = b["activations_checkpointed"] + b.get("activations_recomputed", 0.0) + b["logits"]
    grads, buffer = 2 * 7.24e9 / GIB, 2 * 7.24e9 / GIB
    # peak = states + max(transient, gradients + buffer): what the step phase holds beyond backward's peak
    counted = b.get("gradients", 0.0) + b.get("optimizer_step", 0.0)
    assert counted == approx(max(0.0, grads + buffer - transient), abs=2e-3)
    params = next(n.params for n in e.assumptions if n.code == "vram.grads_after_backward")
    assert params["gradients_gib"] == approx(grads, abs=1e-3)
    # DeepSpeed keeps its gradient buffers: stated or not, nothing changes there
    ds = dict(FMS_FULL, gpus=2, sharding="zero2", master_weights="fp32")
    assert estimate_vram(MISTRAL_7B, Round4AllFields(**ds, grads_to_none=True)).breakdown_gib == \
        estimate_vram(MISTRAL_7B, Round4AllFields(**ds)).breakdown_gib


def test_trl_recast_keeps_the_fp32_stream_but_not_the_fp32_embeddings():
    kw = dict(mode="qlora", seq_len=4096, batch_size=4, checkpointing="full", kbit_prepare=True, autocast=True)
    prepared = estimate_vram(MISTRAL_7B, Round4AllFields(**kw)).breakdown_gib
    recast_e = estimate_vram(MISTRAL_7B, Round4AllFields(**kw, kbit_recast_bf16=True))
    recast = recast_e.breakdown_gib
    plain = estimate_vram(MISTRAL_7B, Round4AllFields(**(kw | {"kbit_prepare": False}))).breakdown_gib
    assert recast["weights_frozen"] == approx(plain["weights_frozen"])  # embeddings and LM head back in bf16
    assert prepared["weights_frozen"] - recast["weights_frozen"] == approx(2 * 2 * 32000 * 4096 / GIB, rel=1e-3)
    assert "autocast_copies" not in recast and "autocast_copies" in prepared
    # the norms stay fp32, so the checkpointed layer inputs are fp32 either way: 4 GiB more than bf16 at 16k tokens
    assert recast["activations_checkpointed"] - plain["activations_checkpointed"] == approx(4.0, rel=1e-3)
    assert any(n.code == "vram.kbit_recast_bf16" for n in recast_e.assumptions)


@pytest.mark.parametrize(
    "fields, bits, dequant_bytes",
    [
        ({}, 4 + 8 / 64 + 32 / (64 * 256), 2),  # QLoRA's NF4 with double quantisation, bf16 compute
        ({"bnb_double_quant": False}, 4.5, 2),  # an fp32 absmax per block of 64
        ({"bnb_double_quant": False, "bnb_compute_fp32": True}, 4.5, 6),  # load_in_4bit=True alone: + the fp32 cast
    ],
)
def test_bnb_4bit_inference_weights_and_dequantised_matrix(fields, bits, dequant_bytes):
    e = estimate_vram(MISTRAL_7B, Round4AllFields(mode="inference", precision="nf4", seq_len=80, **fields))
    note = next(n.params for n in e.assumptions if n.code in ("vram.weights_nf4", "vram.weights_bnb4_no_dq"))
    assert note["bits_per_weight"] == approx(bits, abs=1e-3)
    # the prompt's matmuls dequantise the largest matrix (4096 × 14336) at a time
    assert e.breakdown_gib["dequant_buffer"] == approx(dequant_bytes * 4096 * 14336 / GIB, abs=1e-3)
    # GPTQ/AWQ int4 kernels dequantise inside the kernel: no buffer
    gptq = estimate_vram(MISTRAL_7B, Round4AllFields(mode="inference", precision="int4"))
    assert "dequant_buffer" not in gptq.breakdown_gib
