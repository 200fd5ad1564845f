"""Sixth formula round of the VRAM estimator (issue 11): Megatron-LM's fp16 layout and its vocab-parallel loss.

Each expectation is derived from the framework's code (NVIDIA/Megatron-LM at 8aa4619), not from a published figure."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from tools.domain import GIB
from tools.schemas import VramRequest
from tools.vram import estimate_vram
from tools.vram_shape import model_from_params

MODEL = model_from_params(1.0e9)
N = MODEL.params
BASE = dict(mode="pretrain", precision="fp16", master_weights="fp32", batch_size=2, seq_len=2048, gpus=1,
            checkpointing="full", flash_attention=False)


def _parts(**kw) -> dict[str, float]:
    est = estimate_vram(MODEL, VramRequest(**{**BASE, **kw}))
    return {p.component.value: p.gib for p in est.breakdown}


@pytest.mark.parametrize(("kw", "expected"), [
    # autocast stated off over fp32 masters, unsharded: a 16-bit model, fp32 masters and main grads in the optimizer
    # (FP16OptimizerWithFP16Params): 2 + 2 + 4 + 4 + Adam 8
    ({"autocast": False}, {"weights": 2, "gradients": 2, "master_weights": 4, "gradient_partition": 4,
                           "optimizer_states": 8}),
    # autocast on (or inferred): the HF/AMP layout, fp32 weights + 16-bit autocast copies + fp32 grads
    ({"autocast": True}, {"master_weights": 4, "autocast_copies": 2, "gradients": 4, "optimizer_states": 8}),
    ({}, {"master_weights": 4, "autocast_copies": 2, "gradients": 4, "optimizer_states": 8}),
])
def test_model_state_bytes_per_param_by_layout(kw, expected):
    parts = _parts(**kw)
    for component, per_param in expected.items():
        assert parts[component] == pytest.approx(N * per_param / GIB, rel=1e-3), component
    assert "weights" not in parts or "autocast_copies" not in parts


def test_half_model_keeps_layer_inputs_at_two_bytes_not_amps_four():
    half, amp = _parts(autocast=False), _parts(autocast=True)
    assert half["activations_checkpointed"] == pytest.approx(amp["activations_checkpointed"] / 2, rel=1e-3)


@pytest.mark.parametrize(("tp", "precision", "per_logit"), [
    (1, "fp16", 6),   # 16-bit logits + their fp32 copy, softmax in place in the copy
    (4, "fp16", 6),   # the same per logit, over V/4 logits on each rank
    (1, "fp32", 4),   # fp32 training: .float() returns the logits themselves
])
def test_vocab_parallel_loss_bytes_per_logit(tp, precision, per_logit):
    kw = dict(autocast=False, vocab_parallel_loss=True, tp=tp, gpus=tp, precision=precision)
    if precision == "fp32":
        kw.pop("autocast")
    parts = _parts(**kw)
    logits = 2 * 2048 * MODEL.vocab_size / tp
    assert parts["logits"] == pytest.approx(per_logit * logits / GIB, abs=2e-3)


@pytest.mark.parametrize(("kw", "needs"), [
    ({"mode": "inference"}, "mode=full|lora|qlora|pretrain"),
    ({"chunked_loss": True}, "chunked_loss=false"),
    ({"logits_upcast": True}, "logits_upcast=None"),
])
def test_vocab_parallel_loss_alone_where_it_means_nothing_is_refused(kw, needs):
    with pytest.raises(ValidationError, match=rf"vocab_parallel_loss only applies with {re.escape(needs)}"):
        VramRequest(**{**BASE, "vocab_parallel_loss": True, **kw})


@pytest.mark.parametrize(("kw", "half_model"), [
    ({"autocast": False}, True),                                   # Megatron-LM --fp16: the stated combination
    ({"autocast": False, "gpus": 8, "sharding": "ddp"}, True),     # its data-parallel runs too
    ({"autocast": False, "gpus": 8, "sharding": "zero1"}, False),  # DeepSpeed ZeRO keeps its own layout
    ({"autocast": False, "gpus": 8, "sharding": "fsdp"}, False),   # FSDP: fp32 shards, 16-bit gathers
    ({"autocast": False, "master_weights": "none"}, False),        # pure 16-bit
    ({"autocast": False, "precision": "fp8"}, False),              # fp8 keeps its own layout
    ({"autocast": None}, False),                                   # inferred: HF Trainer / AMP
])
def test_half_model_layout_applies_only_to_what_the_request_states(kw, half_model):
    est = estimate_vram(MODEL, VramRequest(**{**BASE, **kw}))
    assert any(n.code == "vram.half_model_layout" for n in est.assumptions) is half_model


@pytest.mark.parametrize(("precision", "bytes_per_param"), [
    ("fp32", 4),  # no MixedPrecision policy: FSDP gathers the fp32 flat parameter as it is
    ("bf16", 2),  # FSDP mixed precision gathers 16-bit
])
def test_fsdp_gathers_layers_in_the_parameter_dtype(precision, bytes_per_param):
    from tools.vram_shape import layer_params, shape_of
    kw = dict(mode="pretrain", precision=precision, batch_size=1, seq_len=128, gpus=2, sharding="fsdp",
              checkpointing="none")
    parts = {p.component.value: p.gib for p in estimate_vram(MODEL, VramRequest(**kw)).breakdown}
    assert parts["gathered_layers"] == pytest.approx(2 * layer_params(shape_of(MODEL)) * bytes_per_param / GIB,
                                                     abs=2e-3)


@pytest.mark.parametrize("fields, per_logit", [
    # PEFT's k-bit preparation leaves the LM head in fp32: with no autocast the logits are fp32 (fp32 loss: 12 B)
    ({"kbit_prepare": True, "autocast": False}, 12),
    # ... whatever the loss does with them: a loss on the logits' own dtype is an fp32 loss here (universal-llm-trainer)
    ({"kbit_prepare": True, "autocast": False, "logits_upcast": False}, 12),
    # HF Trainer's bf16 autocast runs the head's matmul in bf16 and the loss upcasts (14 B)
    ({"kbit_prepare": True, "autocast": True}, 14),
    # TRL casts the head back to bf16: 16-bit logits again, a loss on them in their own dtype (6 B)
    ({"kbit_prepare": True, "kbit_recast_bf16": True, "autocast": False, "logits_upcast": False}, 6),
    # no k-bit preparation: the head stays 16-bit (6 B)
    ({"autocast": False, "logits_upcast": False}, 6),
])
def test_the_lm_head_left_in_fp32_by_kbit_preparation_makes_fp32_logits(fields, per_logit):
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    model = load_catalog(Settings.load()).model("llama-3.1-8b")
    e = estimate_vram(model, VramRequest(mode="qlora", seq_len=1024, **fields))
    assert next(n.params for n in e.assumptions if n.code == "vram.logits")["bytes_per_logit"] == per_logit
