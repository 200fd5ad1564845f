"""Issue 11, fifth formula round: the output layer's loss is held at two moments that never overlap (forward: the
logits and their copies; backward: log-softmax's output and two gradients), and the larger counts; a request may state
whether the loss upcasts the logits (a loss written in the training script)."""

from __future__ import annotations

import re

import pytest

from tools.domain import GIB, ModelKind, ModelSpec
from tools.messages import render
from tools.notes import Note
from tools.schemas import VramRequest
from tools.vram import AMP, FULL32, HALF, _logit_bytes, estimate_vram
from tools.vram_shape import layer_style


def _model(family: str) -> ModelSpec:
    return ModelSpec(key=f"{family}-test", name=f"{family} test", family=family, kind=ModelKind.decoder,
                     params=1.1e9, num_layers=16, hidden_size=2048, num_attention_heads=16, num_kv_heads=16,
                     head_dim=128, intermediate_size=5632, vocab_size=32768, source="test shape")


GPT2, QWEN, LLAMA = (layer_style(_model(f)) for f in ("gpt2", "qwen", "llama"))


@pytest.mark.parametrize("style, reg, autocast, chunked, stated, expected", [
    # HF's causal-LM loss over bf16 logits: forward holds 2 + 4 (fp32 copy) + 4 (shifted copy) + 4 (log-softmax);
    # backward 3·4 = 12: the forward moment is the larger
    (LLAMA, HALF, False, False, None, (14, True)),
    # under AMP the logits are 16-bit too: the same count
    (LLAMA, AMP, True, False, None, (14, True)),
    # Qwen (v1) keeps the loss in the logits' dtype: forward 2 + 2 + 2, backward 3·2 (the logits are gone by then)
    (QWEN, HALF, False, False, None, (6, False)),
    # autocast puts cross_entropy on fp32 whatever the model does
    (QWEN, HALF, True, False, None, (14, True)),
    # fp32 training: `.float()` copies nothing, forward 4 + 4 + 4 and backward 3·4 tie
    (LLAMA, FULL32, False, False, None, (12, True)),
    # a chunked/fused loss, whatever the rest
    (QWEN, HALF, True, True, None, (4, True)),
    # stated: a loss written in the training script on the 16-bit logits (ColossalAI's GPTLMLoss, LLMs-from-scratch's
    # calc_loss_batch) overrides the gpt2 family's upcasting HF loss ...
    (GPT2, HALF, False, False, False, (6, False)),
    # ... but not autocast, which still runs the loss in fp32 (ColossalAI's DDP row: Lightning precision=16)
    (GPT2, HALF, True, False, False, (14, True)),
    # ... and a stated upcast makes a family that keeps its dtype upcast
    (QWEN, HALF, False, False, True, (14, True)),
    # fp32 training stays fp32 whatever is stated
    (GPT2, FULL32, False, False, False, (12, True)),
])
def test_loss_bytes_are_the_larger_of_the_forward_and_backward_moments(style, reg, autocast, chunked, stated, expected):
    assert _logit_bytes(style, reg, autocast, chunked, stated) == expected


def test_a_16bit_loss_never_holds_more_than_an_upcast_one():
    for reg in (HALF, AMP):
        half, _ = _logit_bytes(QWEN, reg, False, False, False)
        upcast, _ = _logit_bytes(QWEN, reg, False, False, True)
        assert half < upcast


def test_the_16bit_loss_of_a_deepspeed_run_holds_6_bytes_per_logit():
    """Regression (round 5): Qwen (v1) under DeepSpeed ZeRO-3 kept 2 + 3·2 = 8 B per logit, as if the trainer held the
    logits through backward; HF Trainer's compute_loss returns the loss alone, so backward starts without them."""
    tokens = 2048
    e = estimate_vram(_model("qwen"), VramRequest(mode="full", gpus=2, sharding="zero3", seq_len=tokens))
    assert e.breakdown_gib["logits"] == pytest.approx(6 * tokens * 32768 / GIB, abs=1e-3)
    assert next(n.params for n in e.assumptions if n.code == "vram.logits")["bytes_per_logit"] == 6


def test_without_a_stated_upcast_the_family_decides_and_nothing_is_said():
    req = VramRequest(mode="pretrain", seq_len=1024)
    assert req.logits_upcast is None
    e = estimate_vram(_model("gpt2"), req)
    logits = next(n.params for n in e.assumptions if n.code == "vram.logits")
    assert "upcast_stated" not in logits and logits["bytes_per_logit"] == 14


@pytest.mark.parametrize("params, en, zh", [
    # stated: a loss in the script, on the 16-bit logits
    ({"bytes_per_logit": 6, "chunked": False, "fp32_loss": False, "upcast_stated": False},
     "as stated, the loss runs on the logits in their own 16-bit dtype", "按所述，损失函数直接在 16 bit logits 上计算"),
    # stated upcast
    ({"bytes_per_logit": 14, "chunked": False, "fp32_loss": True, "upcast_stated": True},
     "as stated, the loss casts the logits to fp32 first", "按所述，损失函数先把 logits 转为 fp32"),
    # stated no upcast, but autocast runs the loss in fp32: the statement is not what decided
    ({"bytes_per_logit": 14, "chunked": False, "fp32_loss": True, "upcast_stated": False},
     "HF Trainer default loss", "HF `Trainer` 默认损失函数"),
    # not stated: the family's implementation, both moments named
    ({"bytes_per_logit": 6, "chunked": False, "fp32_loss": False},
     "the larger of what forward holds", "两者中较大的一个"),
])
def test_the_loss_note_says_what_decided_in_both_languages(params, en, zh):
    note = Note(code="vram.logits", params=params)
    assert en in render(note, "en")
    assert zh in render(note, "zh")
    assert f"{params['bytes_per_logit']} B per logit" in render(note, "en")


# GPT-2 XL as ColossalAI's benchmark builds it (transformers' GPT2Config: 48 layers, 1600 wide, 25 heads, 50,257 tokens)
GPT2_XL = ModelSpec(key="gpt2-xl-test", name="GPT-2 XL test", family="gpt2", kind=ModelKind.decoder, params=1.5576e9,
                    num_layers=48, hidden_size=1600, num_attention_heads=25, num_kv_heads=25, head_dim=64,
                    intermediate_size=6400, vocab_size=50257, source="test shape")


def test_colossalai_zero3_row_with_its_own_16bit_loss():
    """cpl-gpt2-xl-zero3-b40: GPTLMLoss on GPT2LMHeadModel's fp16 logits (model.py at 6a82b80), DeepSpeed ZeRO-3 on
    4 GPUs at batch 40 × 1024: 6 B per logit, 11.50 GiB, where the family's upcasting loss gave 14 B (26.84 GiB)."""
    req = VramRequest(mode="pretrain", precision="fp16", batch_size=40, seq_len=1024, gpus=4, sharding="zero3",
                      checkpointing="full", flash_attention=False, autocast=False, logits_upcast=False)
    e = estimate_vram(GPT2_XL, req)
    assert e.breakdown_gib["logits"] == pytest.approx(6 * 40 * 1024 * 50257 / GIB, abs=1e-3)
    logits = next(n.params for n in e.assumptions if n.code == "vram.logits")
    assert logits["upcast_stated"] is False and logits["fp32_loss"] is False


@pytest.mark.parametrize("fields, needs", [
    ({"mode": "inference", "logits_upcast": False}, "mode=full|lora|qlora|pretrain"),
    ({"mode": "lora", "chunked_loss": True, "logits_upcast": True}, "chunked_loss=false"),
])
def test_logits_upcast_alone_would_be_ignored_so_it_is_refused(fields, needs):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=f"logits_upcast only applies with {re.escape(needs)}"):
        VramRequest(**fields)
    assert VramRequest(mode="pretrain", logits_upcast=False).logits_upcast is False
