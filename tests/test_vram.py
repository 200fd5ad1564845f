"""VRAM estimator against hand-computed values on a small inline model.

The test model (no catalog needed) is a Llama-style decoder whose parameter
count equals its shape exactly, so every expected figure below is worked out
by hand from the shape in the comment beside it:

  layers L=16, hidden h=2048, 16 heads × 128, 4 KV heads (GQA), SwiGLU i=8192,
  vocab V=32768, untied embeddings
  attention params/layer = 2·h·(16·128) + 2·h·(4·128) = 8,388,608 + 2,097,152 = 10,485,760
  MLP params/layer       = 3·h·i = 50,331,648
  embeddings + LM head   = 2·V·h = 134,217,728
  P = 16·(10,485,760 + 50,331,648) + 134,217,728 = 1,107,296,256 (= 1.03125 GiB of params)
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tools.domain import GIB, GPU, ActivationProfile, AttentionType, ModelKind, ModelSpec
from tools.errors import InputError, error_note
from tools.messages import render
from tools.notes import Note
from tools.schemas import VramRequest
from tools.vram_codes import Component
from tools.vram import CUDA_CONTEXT_GIB, NF4_BITS, estimate_vram
from tools.vram_shape import lora_trainable_params, model_from_params

P = 1_107_296_256
PG = P / GIB  # 1.03125: parameters in Gi-units, so "4 bytes/param" = 4 × PG GiB
TOKENS = 1024

# Per token per layer, pure 16-bit, FlashAttention (see tools/vram.py):
#   replicated 2h + 2h + 2·6h (norms with fp32 upcast) = 16h = 32,768
#   attention 2·q + 2·2·kv + 2·q = 4·2048 + 4·512 = 10,240
#   MLP (gated) 4 tensors × 2·i = 65,536
LAYER_TOKEN_BYTES = 32_768 + 10_240 + 65_536  # 108,544
LAYER_BYTES = LAYER_TOKEN_BYTES * TOKENS  # one layer, seq 1024, batch 1: 111,149,056
# AMP over fp32 weights (HF Trainer default for full training): the residual stream is fp32 and each linear layer
# keeps its own 16-bit cast of its input:
#   attention: q, k, v casts 3·2h + norm (fp32 input 4 + fp32 copy 4) 8h = 14h; MLP: gate, up casts 2·2h + norm 8h = 12h
#   → 26h = 53,248; the GEMM tensors as in 16-bit: 10,240 + 65,536
AMP_TOKEN_BYTES = 53_248 + 10_240 + 65_536  # 129,024
# fp32: stream 4, GEMMs 4: attention input 4h + norm (input 4 + copy 4) 8h, MLP input 4h + norm 8h = 24h = 49,152;
#   attention 4·q + 8·kv + 4·q = 20,480; MLP 4 tensors × 4·i = 131,072
FP32_TOKEN_BYTES = 49_152 + 20_480 + 131_072  # 200,704
E = 32768 * 2048  # input embedding table: 67,108,864 params


def make_model(**changes) -> ModelSpec:
    base = dict(
        key="test-1b", name="Test 1B", family="test", params=P, num_layers=16, hidden_size=2048,
        num_attention_heads=16, num_kv_heads=4, head_dim=128, attention=AttentionType.gqa,
        intermediate_size=8192, vocab_size=32768, max_context=8192, source="inline test model",
    )
    base.update(changes)
    return ModelSpec(**base)


def gpu(key: str, usable: float) -> GPU:
    return GPU(key=key, name=key, vendor="NVIDIA", architecture="Ampere", form_factor="SXM4", memory_gb=usable,
               usable_memory_gib=usable, bf16_tflops=312, bf16_supported=True, fp8_supported=False, nvlink=True,
               source="inline")


def gib(value_bytes: float) -> float:
    return value_bytes / GIB


def est(model=None, **req):
    return estimate_vram(model or make_model(), VramRequest(**req))


def approx(x: float):
    return pytest.approx(x, abs=1.5e-3)  # breakdown is rounded to 3 decimals


def parts(e) -> dict[tuple[str, str | None], float]:
    """(component, precision) -> GiB per GPU: what each line is and in which precision it is stored."""
    return {(p.component.value, p.precision): p.gib for p in e.breakdown}


def codes(e) -> list[str]:
    return [a.code for a in e.assumptions]


def said(e, code: str) -> dict:
    """The params of the assumption with `code` (it must be there)."""
    found = [a.params for a in e.assumptions if a.code == code]
    assert found, f"{code} not in {codes(e)}"
    return found[0]


# ------------------------------------------------------------------ weights, optimizer, gradients


@pytest.mark.parametrize(
    "request_kwargs, expected",
    [
        # inference bf16: 2 B/param
        ({"mode": "inference", "precision": "bf16"}, {("weights", "bf16"): 2 * PG}),
        # inference fp32: 4 B/param
        ({"mode": "inference", "precision": "fp32"}, {("weights", "fp32"): 4 * PG}),
        # HF AMP layout (no DeepSpeed): fp32 weights 4 + autocast copies 2 + fp32 grads 4 + Adam 8 = 18 B/param
        ({"mode": "full", "precision": "bf16"},
         {("master_weights", "fp32"): 4 * PG, ("autocast_copies", "bf16"): 2 * PG,
          ("gradients", "fp32"): 4 * PG, ("optimizer_states", None): 8 * PG}),
        # pure bf16 (--master-weights none): 2 + 2 + Adam states in bf16 4
        ({"mode": "full", "precision": "bf16", "master_weights": "none"},
         {("weights", "bf16"): 2 * PG, ("gradients", "bf16"): 2 * PG, ("optimizer_states", None): 4 * PG}),
        # fp32 training: 4 + 4 + 8
        ({"mode": "pretrain", "precision": "fp32"},
         {("weights", "fp32"): 4 * PG, ("gradients", "fp32"): 4 * PG, ("optimizer_states", None): 8 * PG}),
        # optimizers: 8-bit Adam 2 B (but 8 B for the embedding table, which HF Trainer keeps in 32-bit states),
        # Adafactor 4 B, SGD momentum 4 B (fp32)
        ({"mode": "full", "optimizer": "adamw8bit"}, {("optimizer_states", None): gib(2 * P + 6 * E)}),
        ({"mode": "full", "optimizer": "adafactor"}, {("optimizer_states", None): 4 * PG}),
        ({"mode": "full", "optimizer": "sgd"}, {("optimizer_states", None): 4 * PG}),
        # ZeRO-2 over 4 GPUs (DeepSpeed layout, ZeRO paper 2+2+12, gradients held in fp32 for the update as the
        # DeepSpeed memory docs say): weights 2 replicated, grads 4/4, fp32 master 4/4, Adam 8/4
        ({"mode": "full", "gpus": 4, "sharding": "zero2"},
         {("weights", "bf16"): 2 * PG, ("gradients", "fp32"): 4 * PG / 4, ("master_weights", "fp32"): 4 * PG / 4,
          ("optimizer_states", None): 8 * PG / 4}),
        # ZeRO-1 over 4: whole 16-bit gradients, the fp32 gradient partition, master and optimizer sharded
        ({"mode": "full", "gpus": 4, "sharding": "zero1"},
         {("weights", "bf16"): 2 * PG, ("gradients", "bf16"): 2 * PG, ("gradient_partition", "fp32"): PG,
          ("master_weights", "fp32"): PG, ("optimizer_states", None): 2 * PG}),
        # ZeRO-3 over 4: 2 + 4 + 4 + 8 = 18 B/param over the GPUs (DeepSpeed memory docs) + 2 gathered layers of
        # 16-bit params (layer params 60,817,408 × 2 layers × 2 B = 243,269,632 B) + the largest module (the
        # embedding, 67,108,864 params) gathered with its 16-bit gradient: × 4 B
        ({"mode": "full", "gpus": 4, "sharding": "zero3"},
         {("weights", "bf16"): 2 * PG / 4, ("gradients", "fp32"): 4 * PG / 4,
          ("gathered_layers", "bf16"): gib(243_269_632), ("gathered_embeddings", "bf16"): gib(4 * E)}),
        # FSDP over 4 with the HF AMP layout: fp32 params/grads sharded, Adam sharded
        ({"mode": "full", "gpus": 4, "sharding": "fsdp"},
         {("master_weights", "fp32"): PG, ("gradients", "fp32"): PG, ("optimizer_states", None): 2 * PG}),
        # DDP over 2: replicated, plus a gradient-sized all-reduce bucket copy (4 B/param fp32 grads)
        ({"mode": "full", "gpus": 2, "sharding": "ddp"},
         {("gradients", "fp32"): 4 * PG, ("ddp_buckets", None): 4 * PG, ("optimizer_states", None): 8 * PG}),
        # tensor parallel 2 × pipeline 2 over 4 GPUs: every model-state term / 4
        ({"mode": "full", "gpus": 4, "tp": 2, "pp": 2},
         {("master_weights", "fp32"): PG, ("gradients", "fp32"): PG, ("optimizer_states", None): 2 * PG}),
        # inference split over 4 GPUs: tensor parallel assumed, weights / 4
        ({"mode": "inference", "gpus": 4}, {("weights", "bf16"): 2 * PG / 4}),
        # fp16 asked for: the 16-bit tensors are fp16, not bf16
        ({"mode": "full", "precision": "fp16", "master_weights": "none"}, {("weights", "fp16"): 2 * PG}),
    ],
)
def test_model_state_components(request_kwargs, expected):
    e = est(**request_kwargs)
    b = parts(e)
    for key, value in expected.items():
        assert b[key] == approx(value), key
        assert e.breakdown_gib[key[0]] == b[key]  # the flat view, keyed by component code


def test_zero3_cpu_offload_leaves_only_gathered_layers_and_activations():
    b = est(mode="full", gpus=4, sharding="zero3", offload="cpu").breakdown_gib
    model_state = {"weights", "master_weights", "autocast_copies", "gradients", "optimizer_states"}
    assert not model_state & set(b)
    assert b["gathered_layers"] == approx(gib(243_269_632))


def test_zero2_cpu_offload_keeps_16bit_weights_only():
    e = est(mode="full", gpus=2, sharding="zero2", offload="cpu")
    assert parts(e)[("weights", "bf16")] == approx(2 * PG)
    assert "optimizer_states" not in e.breakdown_gib
    # host RAM per GPU: fp32 grads 4/2 + master 4/2 + Adam 8/2 = 8 B/param
    assert said(e, "vram.offload_ram")["cpu_gib"] == approx(8 * PG)
    assert said(e, "vram.cpu_offload") == {"params_too": False, "fsdp": False}


# ------------------------------------------------------------------ LoRA / QLoRA


def test_lora_trainable_params_by_hand():
    m = make_model()
    # all-linear, r=16, per layer: q 16·(2048+2048) + k,v 2·16·(2048+512) + o 16·(2048+2048)
    #   + gate/up/down 3·16·(2048+8192) = 65,536 + 81,920 + 65,536 + 491,520 = 704,512; × 16 layers
    assert lora_trainable_params(m, 16, "all-linear") == 11_272_192
    # attention only: 212,992 per layer × 16
    assert lora_trainable_params(m, 16, "attention") == 3_407_872


def test_lora_components():
    e = est(mode="lora", lora_rank=16)
    b = parts(e)
    assert b[("weights_frozen", "bf16")] == approx(2 * PG)
    assert b[("adapter_weights", "fp32")] == approx(gib(11_272_192 * 4))
    assert b[("adapter_gradients", "fp32")] == approx(gib(11_272_192 * 4))
    assert b[("optimizer_states", None)] == approx(gib(11_272_192 * 8))
    assert "gradients" not in e.breakdown_gib  # frozen base: no weight gradients
    assert said(e, "vram.lora_adapters")["trainable_params"] == 11_272_192


def test_lora_pure_half_keeps_adapters_in_16_bit():
    b = parts(est(mode="lora", lora_rank=16, master_weights="none"))
    assert b[("adapter_weights", "bf16")] == approx(gib(11_272_192 * 2))
    assert b[("optimizer_states", None)] == approx(gib(11_272_192 * 4))


def test_qlora_base_weights_nf4_with_16bit_embeddings():
    e = est(mode="qlora")
    # linear layers: P − 2·V·h = 973,078,528 weights at 4 + 8/64 + 32/16384 bits; embeddings + head 16-bit
    expected = 973_078_528 * (4 + 8 / 64 + 32 / 16384) / 8 + 134_217_728 * 2
    assert parts(e)[("weights_frozen", "nf4")] == approx(gib(expected))
    assert said(e, "vram.weights_nf4") == {"precision": "nf4", "bits_per_weight": 4.127, "embedding_params": 134_217_728}
    assert NF4_BITS == pytest.approx(4.127, abs=1e-3)  # the QLoRA paper's 0.127 bits of constants


def test_inference_int4_uses_group128_constants():
    e = est(mode="inference", precision="int4")
    expected = 973_078_528 * (4 + 16 / 128 + 4 / 128) / 8 + 134_217_728 * 2
    assert parts(e)[("weights", "int4")] == approx(gib(expected))
    assert said(e, "vram.weights_int4")["bits_per_weight"] == 4.156


# ------------------------------------------------------------------ activations, KV cache


@pytest.mark.parametrize(
    "request_kwargs, token_bytes, logit_bytes",
    [
        # pure bf16 (LitGPT bf16-true style): 16-bit stream and GEMMs; the model upcasts its logits: forward holds the
        # bf16 logits, their fp32 copy, the shifted copy and log-softmax's output, 2 + 4 + 2·4 (backward 3·4 = 12)
        ({"master_weights": "none"}, LAYER_TOKEN_BYTES, 14),
        # HF AMP over fp32 weights (the default layout): fp32 stream, a 16-bit cast per linear layer
        ({}, AMP_TOKEN_BYTES, 14),
        # fp32 everywhere: `.float()` copies nothing, so forward 4 + 2·4 and backward 3·4 tie at 12
        ({"precision": "fp32"}, FP32_TOKEN_BYTES, 12),
        # DeepSpeed casts the model to 16-bit: like pure bf16
        ({"gpus": 2, "sharding": "zero2"}, LAYER_TOKEN_BYTES, 14),
    ],
)
def test_training_activations_no_checkpointing(request_kwargs, token_bytes, logit_bytes):
    e = est(mode="full", seq_len=TOKENS, checkpointing="none", **request_kwargs)
    assert e.breakdown_gib["activations"] == approx(gib(16 * token_bytes * TOKENS))
    # HF default loss: logit_bytes B per logit × 1024 × 32768
    assert e.breakdown_gib["logits"] == approx(gib(logit_bytes * TOKENS * 32768))
    assert said(e, "vram.logits") == {"bytes_per_logit": logit_bytes, "chunked": False, "fp32_loss": True}


@pytest.mark.parametrize(
    "family, request_kwargs, logit_bytes",
    [
        # Qwen (v1) computes its loss on the logits as they are; DeepSpeed runs no autocast: backward's log-softmax
        # output and two gradients, 3·2, over forward's 2 + 2·2 (the logits are freed before backward)
        ("qwen", {"mode": "qlora", "sharding": "zero2"}, 6),
        ("qwen", {"mode": "full", "gpus": 2, "sharding": "zero3"}, 6),
        # pure 16-bit training runs no autocast either
        ("qwen", {"mode": "lora", "master_weights": "none"}, 6),
        # HF Trainer mixed precision (fp32 adapters): autocast puts cross_entropy on fp32, 2 + 3·4
        ("qwen", {"mode": "lora"}, 14),
        ("qwen", {"mode": "lora", "gpus": 2, "sharding": "fsdp"}, 14),
        # a family whose model upcasts (HF ForCausalLMLoss `logits.float()`) is fp32 under DeepSpeed too
        ("test", {"mode": "qlora", "sharding": "zero2"}, 14),
        # a fused/chunked loss keeps about the 16-bit logits and one fp32 chunk, whatever the rest
        ("qwen", {"mode": "lora", "chunked_loss": True}, 4),
        # autocast stated (issue 11, round 3): HF Trainer bf16=True over bf16 weights autocasts (ms-swift full rows)
        ("qwen", {"mode": "full", "master_weights": "none", "autocast": True}, 14),
        # ... and a plain loop over fp32 adapters runs no autocast: the loss stays in the logits' dtype
        ("qwen", {"mode": "lora", "autocast": False}, 6),
        # DeepSpeed runs no autocast of its own, but a stated one wins
        ("qwen", {"mode": "qlora", "sharding": "zero2", "autocast": True}, 14),
        # fp32 training keeps fp32 logits whatever is stated
        ("qwen", {"mode": "full", "precision": "fp32", "autocast": True}, 12),
    ],
)
def test_loss_bytes_follow_the_loss_dtype(family, request_kwargs, logit_bytes):
    e = est(make_model(family=family), seq_len=TOKENS, **request_kwargs)
    assert said(e, "vram.logits")["bytes_per_logit"] == logit_bytes
    assert e.breakdown_gib["logits"] == approx(gib(logit_bytes * TOKENS * 32768))


def test_amp_is_said():
    assert "vram.amp_activations" in codes(est(mode="full"))
    assert "vram.amp_activations" not in codes(est(mode="full", master_weights="none"))


def test_training_activations_full_checkpointing():
    b = est(mode="full", seq_len=TOKENS, checkpointing="full", chunked_loss=True).breakdown_gib
    # AMP: each layer's fp32 input, 4·s·h per layer
    assert b["activations_checkpointed"] == approx(gib(4 * TOKENS * 2048 * 16))
    assert b["logits"] == approx(gib(4 * TOKENS * 32768))
    # the recomputed layer and the loss buffers are held one after the other: the larger of the two counts
    assert b.get("activations_recomputed", 0.0) + b["logits"] == approx(gib(max(AMP_TOKEN_BYTES, 4 * 32768) * TOKENS))
    pure = est(mode="full", master_weights="none", seq_len=TOKENS, checkpointing="full").breakdown_gib
    assert pure["activations_checkpointed"] == approx(gib(2 * TOKENS * 2048 * 16))
    assert pure.get("activations_recomputed", 0.0) + pure["logits"] == approx(gib(max(LAYER_BYTES, 14 * 32768 * TOKENS)))


@pytest.mark.parametrize(
    "family, request_kwargs, score_bytes",
    [
        # Llama-style eager: softmax(dtype=float32) kept (4) + its 16-bit cast for P·V (2), no dropout
        ("test", {"master_weights": "none"}, 6),
        # the same under AMP (softmax on autocast's fp32 list)
        ("test", {}, 6),
        # Llama-style in fp32: the softmax output itself feeds P·V
        ("test", {"precision": "fp32"}, 4),
        # BERT in pure 16-bit (Korthikanti's count): softmax 2 + dropout mask 1 + dropout output 2
        ("bert", {"master_weights": "none", "precision": "fp16"}, 5),
        # BERT under AMP: fp32 softmax 4 + mask 1 + 16-bit cast of the dropout output 2
        ("bert", {"precision": "fp16"}, 7),
        # BERT in fp32: 4 + 1 + 4
        ("bert", {"precision": "fp32"}, 9),
    ],
)
def test_eager_attention_adds_the_score_term_of_the_implementation(family, request_kwargs, score_bytes):
    model = make_model(family=family)
    kw = dict(mode="full", seq_len=TOKENS, checkpointing="none", **request_kwargs)
    with_fa = est(model, **kw).breakdown_gib["activations"]
    eager = est(model, flash_attention=False, **kw).breakdown_gib["activations"]
    # bytes · a · s per token per layer: score_bytes · 16 heads · 1024 · 1024 tokens · 16 layers
    assert eager - with_fa == approx(gib(score_bytes * 16 * TOKENS * TOKENS * 16))
    selective = est(model, **{**kw, "checkpointing": "selective"}, flash_attention=False).breakdown_gib["activations"]
    assert selective == approx(with_fa)  # selective recomputation drops the same term


def test_t5_has_no_flash_attention_and_keeps_dropout_masks():
    t5 = make_model(family="t5")
    kw = dict(mode="full", master_weights="none", seq_len=TOKENS, checkpointing="none")
    e = est(t5, **kw)  # FlashAttention requested (the default)
    assert said(e, "vram.eager_only") == {"model": "Test 1B"}
    assert said(e, "vram.dropout_masks") == {"family": "t5"}
    llama_eager = est(make_model(), flash_attention=False, **kw).breakdown_gib["activations"]
    # T5: softmax(scores.float()) 4 + mask 1 + dropout output 2 = 7 vs Llama's 6 per score element, and two
    # 1-byte residual dropout masks per token: (1 · 16 · 1024 + 2 · 2048) per token per layer
    assert e.breakdown_gib["activations"] - llama_eager == approx(gib((16 * TOKENS + 2 * 2048) * TOKENS * 16))


def test_tensor_parallel_splits_gemm_activations():
    b = est(mode="full", master_weights="none", seq_len=TOKENS, checkpointing="none", gpus=2, tp=2).breakdown_gib
    # replicated 32,768 + (10,240 + 65,536) / 2 = 70,656 B per token per layer
    assert b["activations"] == approx(gib(70_656 * TOKENS * 16))


@pytest.mark.parametrize(
    "model_changes, request_kwargs, expected_bytes",
    [
        # GQA: 2 (K,V) × 4 heads × 128 × 16 layers × 1024 tokens × 2 B
        ({}, {}, 2 * 4 * 128 * 16 * 1024 * 2),
        # MHA: 16 KV heads
        ({"num_kv_heads": 16, "attention": "mha"}, {}, 2 * 16 * 128 * 16 * 1024 * 2),
        # MQA: one KV head regardless of num_kv_heads
        ({"attention": "mqa"}, {}, 2 * 1 * 128 * 16 * 1024 * 2),
        # MLA: (kv_lora_rank 512 + rope 64) per token per layer, no ×2
        ({"attention": "mla", "kv_lora_rank": 512, "qk_rope_head_dim": 64}, {}, (512 + 64) * 16 * 1024 * 2),
        # sliding window 256 caps the cached tokens
        ({"sliding_window": 256}, {}, 2 * 4 * 128 * 16 * 256 * 2),
        # batch 3 → 3 sequences cached
        ({}, {"batch_size": 3}, 3 * 2 * 4 * 128 * 16 * 1024 * 2),
        # TP 2: 2 of the 4 KV heads per GPU
        ({}, {"gpus": 2}, 2 * 2 * 128 * 16 * 1024 * 2),
        # TP 8 > 4 KV heads: each GPU still holds one head (replicated)
        ({}, {"gpus": 8}, 2 * 1 * 128 * 16 * 1024 * 2),
        # fp32 model: fp32 cache
        ({}, {"precision": "fp32"}, 2 * 4 * 128 * 16 * 1024 * 4),
    ],
)
def test_kv_cache(model_changes, request_kwargs, expected_bytes):
    e = est(make_model(**model_changes), mode="inference", seq_len=1024, **request_kwargs)
    kv = [p for p in e.breakdown if p.component == Component.kv_cache]
    assert [p.gib for p in kv] == [approx(gib(expected_bytes))]
    assert kv[0].precision == ("fp32" if request_kwargs.get("precision") == "fp32" else "bf16")


def test_inference_total_by_hand():
    e = est(mode="inference", seq_len=1024)
    weights = P * 2
    kv = 2 * 4 * 128 * 16 * 1024 * 2
    working = LAYER_BYTES + 32768 * 4  # one layer + last-token fp32 logits
    tensors = weights + kv + working
    expected = gib(tensors * 1.05) + CUDA_CONTEXT_GIB  # 5 % allocator slack + context
    assert e.per_gpu_gib == pytest.approx(expected, abs=1e-3)
    assert e.total_gib == e.per_gpu_gib
    assert sum(e.breakdown_gib.values()) == pytest.approx(e.per_gpu_gib, abs=5e-3)


def test_moe_all_experts_resident_active_ones_compute():
    moe = make_model(params=P, moe_experts=8, moe_active_experts=2, active_params=P / 4)
    e = est(moe, mode="inference")
    assert parts(e)[("weights", "bf16")] == approx(2 * PG)
    assert said(e, "vram.moe_resident") == {"experts": 8}


def test_encoder_has_no_kv_cache_and_no_vocab_logits_in_finetuning():
    enc = make_model(kind=ModelKind.encoder, attention="mha", num_kv_heads=16)
    assert "kv_cache" not in est(enc, mode="inference").breakdown_gib
    assert "logits" not in est(enc, mode="full").breakdown_gib


def test_activation_profile_replaces_the_transformer_formula():
    prof = ActivationProfile(bytes_per_sample=0.5 * GIB, reference="224x224, fp16 AMP", source="test")
    vision = ModelSpec(key="vis", name="Vis", family="t", kind=ModelKind.vision, params=25e6,
                       activation_profile=prof, source="inline")
    e = est(vision, mode="full", batch_size=8)
    assert e.breakdown_gib["activations"] == approx(4.0)  # 0.5 GiB × 8
    assert [n.code for n in e.formula] == ["formula.profile"] and e.formula[0].params == {"source": "test"}


# ------------------------------------------------------------------ defaults, fits, formula


def test_defaults_are_listed_as_assumptions():
    e = est(mode="full")
    assert said(e, "vram.precision_default") == {"precision": "bf16"}
    assert said(e, "vram.seq_len_default") == {"seq_len": 2048}
    assert said(e, "vram.checkpointing_default") == {}
    assert said(e, "vram.batch_default_training") == {"batch_size": 1}
    assert "Korthikanti" in render(e.formula[0], "en")  # the activation formula, with its citation


def test_short_context_model_caps_default_sequence():
    e = est(make_model(max_context=512), mode="inference")
    assert said(e, "vram.seq_len_model_max") == {"seq_len": 512}
    assert render(Note.of("vram.seq_len_model_max", seq_len=512), "en") == "sequence length 512 assumed (the model's maximum context)"


def test_fits_and_headroom():
    e = estimate_vram(make_model(), VramRequest(mode="inference", seq_len=1024), [gpu("small", 3.0), gpu("big", 4.0)])
    assert e.fits == {"small": False, "big": True}
    big = next(f for f in e.fit_details if f.gpu == "big")
    assert big.headroom_gib == pytest.approx(4.0 - e.per_gpu_gib, abs=0.01)


def test_more_gpus_report_total_over_all_gpus():
    e = est(mode="full", gpus=4, sharding="zero3")
    assert e.total_gib == pytest.approx(4 * e.per_gpu_gib, abs=1e-2)


# ------------------------------------------------------------------ bad input


def test_full_training_of_4bit_weights_is_an_input_error():
    with pytest.raises(InputError, match="needs 16- or 32-bit weights") as info:
        est(mode="full", precision="int4")
    assert info.value.note == Note.of("error.full_needs_16bit", mode="full", precision="int4")
    assert "4-bit 底座请用 QLoRA" in render(info.value.note, "zh")  # the chat can say it in Chinese, without flags


def test_qlora_with_fp16_is_rejected():
    with pytest.raises(ValidationError, match="QLoRA keeps the base model in 4 bits") as info:
        VramRequest(mode="qlora", precision="fp16")
    assert error_note(info.value) == Note.of("error.qlora_precision", precision="fp16")  # found inside pydantic's error


def test_offload_needs_sharding():
    with pytest.raises(InputError, match="needs a sharded optimizer") as info:
        est(mode="full", offload="cpu")
    assert info.value.note.code == "error.offload_needs_sharding"


def test_offload_for_inference_is_rejected():
    with pytest.raises(InputError, match="training only") as info:
        est(mode="inference", offload="cpu", sharding="zero3", gpus=2)
    assert info.value.note.code == "error.offload_inference"


def test_gpus_must_be_a_multiple_of_tp_times_pp():
    with pytest.raises(InputError, match="not a multiple of tp × pp = 4") as info:
        est(mode="full", gpus=6, tp=4)
    assert info.value.note == Note.of("error.gpus_not_multiple", gpus=6, tp_pp=4)


# ------------------------------------------------------------------ raw parameter counts


@pytest.mark.parametrize(
    "params, layers, hidden",
    [
        (6.7e9, 32, 4096),  # LLaMA-7B anchor
        (13.0e9, 40, 5120),  # LLaMA-13B anchor
        (32.5e9, 60, 6656),  # LLaMA-33B anchor
        (70e9, 80, 8192),  # Llama 2 70B anchor
        (405e9, 126, 16384),  # Llama 3.1 405B anchor
    ],
)
def test_model_from_params_hits_published_shapes(params, layers, hidden):
    m = model_from_params(params)
    assert (m.num_layers, m.hidden_size) == (layers, hidden)
    assert m.assumed_shape and m.num_kv_heads == 8 and m.params == params


def test_model_from_params_interpolates_between_anchors():
    m = model_from_params(10e9)  # between 6.7B (32, 4096) and 13B (40, 5120)
    assert 32 <= m.num_layers <= 40 and 4096 <= m.hidden_size <= 5120
    assert m.hidden_size % 128 == 0


def test_assumed_shape_is_said():
    e = estimate_vram(model_from_params(13e9), VramRequest())
    m = model_from_params(13e9)
    assert said(e, "vram.shape_assumed") == {"model": m.name, "params": 13e9, "layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 8,
                                              "vocab": 32000}
    assert "shape assumed from the parameter count" in render(e.assumptions[codes(e).index("vram.shape_assumed")], "en")


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf")])
def test_model_from_params_rejects_non_positive(bad):
    with pytest.raises(ValueError, match="positive"):
        model_from_params(bad)


# ------------------------------------------------------------------ sharded trainers: what they gather and buffer


@pytest.mark.parametrize(
    "request_kwargs, expected",
    [
        # FSDP root unit (embeddings + LM head, untied: 2·V·h params) whole in 16-bit for a frozen base
        ({"mode": "lora", "gpus": 4, "sharding": "fsdp"}, {("gathered_embeddings", "bf16"): gib(2 * E * 2)}),
        # ... and with its 16-bit gradient in full training
        ({"mode": "full", "gpus": 4, "sharding": "fsdp"}, {("gathered_embeddings", "bf16"): gib(2 * E * 4)}),
        # ZeRO-3: the largest module (the V·h embedding, larger than any h·i matrix), frozen: 2 B
        ({"mode": "lora", "gpus": 4, "sharding": "zero3"}, {("gathered_embeddings", "bf16"): gib(E * 2)}),
        # FSDP full training: one layer's unsharded 16-bit gradient (60,817,408 params) until its reduce-scatter
        ({"mode": "full", "gpus": 4, "sharding": "fsdp"}, {("comm_buckets", "bf16"): gib(60_817_408 * 2)}),
        # FSDP LoRA: one layer's adapters (11,272,192 / 16 layers) in 16-bit
        ({"mode": "lora", "gpus": 4, "sharding": "fsdp"}, {("comm_buckets", "bf16"): gib(11_272_192 / 16 * 2)}),
        # DeepSpeed: two reduce buckets of hidden² (HF "auto") 16-bit elements
        ({"mode": "full", "gpus": 4, "sharding": "zero2"}, {("comm_buckets", "bf16"): gib(2 * 2048 * 2048 * 2)}),
    ],
)
def test_sharded_gathers_and_buffers(request_kwargs, expected):
    b = parts(est(**request_kwargs))
    for key, value in expected.items():
        assert b[key] == approx(value), key


def test_unsharded_runs_gather_nothing():
    b = est(mode="full", gpus=2, sharding="zero1").breakdown_gib
    assert "gathered_layers" not in b and "gathered_embeddings" not in b
    assert "comm_buckets" in b  # ZeRO-1 still reduces gradients through buckets
    assert "comm_buckets" not in est(mode="full").breakdown_gib


def test_fsdp_offload_pins_a_cpu_gradient_buffer_for_frozen_shards():
    e = est(mode="lora", gpus=4, sharding="fsdp", offload="cpu")
    base_shard = 2 * P / 4  # bf16 base, one GPU's shard
    adapters = 11_272_192 * (4 + 4 + 8) / 4  # fp32 adapter weights, grads and Adam states, sharded
    assert said(e, "vram.offload_ram")["cpu_gib"] == approx(gib(2 * base_shard + adapters))
    assert said(e, "vram.cpu_offload") == {"params_too": True, "fsdp": True}
    assert "weights_frozen" not in e.breakdown_gib


@pytest.mark.parametrize(
    "request_kwargs, churn",
    [
        ({"mode": "full"}, 0.22),  # unsharded training
        ({"mode": "full", "gpus": 4, "sharding": "zero3"}, 0.28),  # sharded parameters: gathers on side streams
        ({"mode": "lora", "gpus": 2, "sharding": "fsdp"}, 0.28),
    ],
)
def test_short_lived_tensors_fragment_more(request_kwargs, churn):
    e = est(seq_len=TOKENS, **request_kwargs)
    b = e.breakdown_gib
    transient = sum(v for k, v in b.items() if k in {
        "activations", "activations_checkpointed", "activations_recomputed", "logits", "gathered_layers",
        "gathered_embeddings", "comm_buckets", "dequant_buffer"})
    tensors = sum(v for k, v in b.items() if k not in ("fragmentation", "cuda_context"))
    assert b["fragmentation"] == pytest.approx(0.05 * tensors + churn * transient, abs=3e-3)
    assert said(e, "vram.transient_fragmentation")["slack_fraction"] == churn


def test_inference_keeps_the_base_slack_only():
    e = est(mode="inference", seq_len=TOKENS)
    tensors = sum(v for k, v in e.breakdown_gib.items() if k not in ("fragmentation", "cuda_context"))
    assert e.breakdown_gib["fragmentation"] == pytest.approx(0.05 * tensors, abs=2e-3)
    assert "vram.transient_fragmentation" not in codes(e)


def test_8bit_adam_keeps_32bit_states_for_the_embedding_table():
    e = est(mode="full", optimizer="adamw8bit")
    assert said(e, "vram.adamw8bit_embeddings") == {"embedding_params": E}
    # LoRA adapters are no nn.Embedding: 2 B for all of them
    lora = est(mode="lora", lora_rank=16, optimizer="adamw8bit")
    assert lora.breakdown_gib["optimizer_states"] == approx(gib(11_272_192 * 2))
    assert "vram.adamw8bit_embeddings" not in codes(lora)


# ------------------------------------------------------------------ encoder-decoder


def make_t5(**changes) -> ModelSpec:
    """A T5-shaped inline model: 4 layers = 2 encoder + 2 decoder, h=512, 8 heads × 64, gated MLP i=1024, V=4096,
    untied. Params = embeddings 2·V·h + attention blocks (2 enc + 2·2 dec) · 4h² + MLPs 4 · 3·h·i
    = 4,194,304 + 6 · 1,048,576 + 4 · 1,572,864 = 16,777,216 (norms left out)."""
    base = dict(key="t5-test", name="T5 test", family="t5", kind=ModelKind.encoder_decoder, params=16_777_216,
                num_layers=4, hidden_size=512, num_attention_heads=8, num_kv_heads=8, head_dim=64, attention="mha",
                intermediate_size=1024, vocab_size=4096, source="inline test model")
    base.update(changes)
    return ModelSpec(**base)


def test_encoder_decoder_counts_cross_attention_and_says_so():
    e = est(make_t5(), mode="full", master_weights="none", seq_len=256, checkpointing="none")
    assert said(e, "vram.encoder_decoder") == {"encoder_layers": 2, "decoder_layers": 2, "seq_len": 256,
                                               "target_tokens": 256, "target_assumed": True}
    assert "vram.eager_only" in codes(e)
    h, c = 512, 2
    # per token: attention block: input 2h + mask h + norm 6h; split 4·q + 4·kv (q = kv = h); scores (4 + 1 + 2)·a·s
    attn = (2 * h + h + 6 * h) + (4 * h + 4 * h) + 7 * 8 * 256
    mlp = (2 * h + h + 6 * h) + 4 * c * 1024
    encoder, decoder = attn + mlp, 2 * attn + mlp  # a decoder layer adds the cross-attention block
    assert e.breakdown_gib["activations"] == approx(gib((2 * encoder + 2 * decoder) * 256))


def test_encoder_decoder_decoder_runs_over_the_target_length():
    """Regression (issue 11): the FLAN-T5 runs padded targets to 129 tokens; the decoder was taken at the inputs'."""
    T = 64
    e = est(make_t5(), mode="full", master_weights="none", seq_len=256, target_len=T, checkpointing="none")
    assert said(e, "vram.encoder_decoder") == {"encoder_layers": 2, "decoder_layers": 2, "seq_len": 256,
                                               "target_tokens": T, "target_assumed": False}
    h, c = 512, 2
    mlp = (2 * h + h + 6 * h) + 4 * c * 1024
    encoder = (2 * h + h + 6 * h) + (4 * h + 4 * h) + 7 * 8 * 256 + mlp  # over the 256 input tokens
    # decoder layer: self-attention and MLP over T tokens; cross-attention per target token: input 2h + mask h +
    # norm 6h, Q and the output-projection input 2·2h, scores over the 256 encoder tokens 7·a·256; per encoder
    # token its K and V 2·2h
    self_attn = (2 * h + h + 6 * h) + (4 * h + 4 * h) + 7 * 8 * T
    cross = ((2 * h + h + 6 * h) + 4 * h + 7 * 8 * 256) * T + 4 * h * 256
    decoder = (self_attn + mlp) * T + cross
    assert e.breakdown_gib["activations"] == approx(gib(2 * encoder * 256 + 2 * decoder))
    # the LM head runs over the target tokens; T5 computes its loss on the 16-bit logits (no autocast here): 3·2
    assert e.breakdown_gib["logits"] == approx(gib(6 * T * 4096))
    # shorter targets never need more memory, and None means "the same as the input"
    same = est(make_t5(), mode="full", master_weights="none", seq_len=256, checkpointing="none")
    assert e.per_gpu_gib < same.per_gpu_gib
    assert est(make_t5(), mode="full", master_weights="none", seq_len=256, target_len=256,
               checkpointing="none").per_gpu_gib == same.per_gpu_gib


def test_target_len_is_ignored_for_decoder_only_models():
    assert est(mode="lora", seq_len=512, target_len=16).per_gpu_gib == est(mode="lora", seq_len=512).per_gpu_gib


def test_target_len_must_be_positive():
    with pytest.raises(ValidationError, match="target_len"):
        VramRequest(target_len=0)


def test_encoder_decoder_lora_adapts_cross_attention_too():
    # attention q, k, v, o: r · 4 · (h + h) per block; 2 encoder blocks + 2 · 2 decoder blocks
    assert lora_trainable_params(make_t5(), 8, "attention") == 8 * 4 * 1024 * 6


# ------------------------------------------------------------------ KV cache through tools/kv_cache.py


KV_FULL_TOKEN_LAYER = 2 * 4 * 128 * 2  # K and V, 4 KV heads × 128, bf16: 2,048 B per token per layer


@pytest.mark.parametrize(
    "model_changes, full_layers, sliding_layers",
    [
        # Mistral-style: a set window applies to every layer
        ({"sliding_window": 256}, 0, 16),
        # Gemma-2 (Gemma2Config): sliding on even layers, full on odd ones
        ({"family": "gemma-2", "sliding_window": 256}, 8, 8),
        # a config's own layer_types: three sliding, then one full, repeated
        ({"sliding_window": 256, "layer_types": (["sliding_attention"] * 3 + ["full_attention"]) * 4}, 4, 12),
    ],
)
def test_kv_cache_per_layer_windows(model_changes, full_layers, sliding_layers):
    e = est(make_model(**model_changes), mode="inference", seq_len=1024)
    expected = KV_FULL_TOKEN_LAYER * (full_layers * 1024 + sliding_layers * 256)
    assert e.breakdown_gib["kv_cache"] == approx(gib(expected))
    assert said(e, "vram.sliding_window") == {"window_tokens": 256, "seq_len": 1024, "sliding_layers": sliding_layers,
                                              "layers": 16}


def test_kv_cache_window_longer_than_the_sequence_is_not_said():
    e = est(make_model(family="gemma-2", sliding_window=4096), mode="inference", seq_len=1024)
    assert e.breakdown_gib["kv_cache"] == approx(gib(KV_FULL_TOKEN_LAYER * 16 * 1024))
    assert "vram.sliding_window" not in codes(e)


def test_kv_cache_layer_types_that_do_not_match_are_said():
    e = est(make_model(sliding_window=256, layer_types=["sliding_attention"] * 3), mode="inference", seq_len=1024)
    assert e.breakdown_gib["kv_cache"] == approx(gib(KV_FULL_TOKEN_LAYER * 16 * 1024))  # all layers full
    assert said(e, "kv.layer_types_ignored") == {"given": 3, "layers": 16}


# ------------------------------------------------------------------ round 3 (issue 11): setups the request now states


def test_kbit_prepare_upcasts_the_non_quantised_weights_and_the_stream():
    """PEFT prepare_model_for_kbit_training: the 16-bit embeddings/LM head become fp32 (+2 B each), the residual
    stream follows the fp32 embedding output (checkpointed layer inputs 4 B instead of 2), each 4-bit linear layer
    keeps a 16-bit cast of its input (the AMP element sizes), and autocast keeps a 16-bit cast of the fp32 LM head."""
    kw = dict(mode="qlora", seq_len=TOKENS, batch_size=4, checkpointing="full")
    plain, prep = est(**kw).breakdown_gib, est(**kw, kbit_prepare=True)
    b = prep.breakdown_gib
    embeddings = 2 * E  # untied input embedding + LM head of the test model
    assert b["weights_frozen"] - plain["weights_frozen"] == approx(gib(2 * embeddings))
    assert b["activations_checkpointed"] == approx(2 * plain["activations_checkpointed"])
    assert b["activations_checkpointed"] == approx(gib(4 * TOKENS * 4 * 2048 * 16))
    # the recomputed layer (AMP sizes) is held after the loss buffers are freed: the larger of the two counts
    assert b.get("activations_recomputed", 0.0) + b["logits"] >= plain.get("activations_recomputed", 0.0) + plain["logits"]
    assert b["autocast_copies"] == approx(gib(2 * E))  # HF mixed precision: autocast inferred on for fp32 adapters
    assert said(prep, "vram.kbit_prepare") == {"upcast_params": embeddings}
    assert "autocast_copies" not in est(**kw, kbit_prepare=True, autocast=False).breakdown_gib


@pytest.mark.parametrize(
    "request_kwargs",
    [
        # a 16-bit base: nothing is quantised, so nothing to prepare
        {"mode": "lora", "precision": "bf16"},
        # full fine-tuning has no k-bit base
        {"mode": "full"},
    ],
)
def test_kbit_prepare_changes_nothing_without_a_quantised_base(request_kwargs):
    kw = dict(seq_len=TOKENS, **request_kwargs)
    assert est(**kw, kbit_prepare=True).breakdown_gib == est(**kw).breakdown_gib
    assert "vram.kbit_prepare" not in codes(est(**kw, kbit_prepare=True))


def test_foreach_step_buffer_is_the_part_above_what_backward_frees():
    """torch's foreach AdamW: torch._foreach_sqrt(exp_avg_sqs) builds a state-sized tensor during the step, when
    activations and logits are freed: the peak is states + max(transient, buffer)."""
    kw = dict(mode="full", master_weights="none", seq_len=TOKENS, checkpointing="full")
    plain = est(**kw).breakdown_gib
    e = est(**kw, foreach_step=True)
    transient = plain["activations_checkpointed"] + plain.get("activations_recomputed", 0.0) + plain["logits"]
    assert e.breakdown_gib["optimizer_step"] == approx(2 * PG - transient)  # bf16 moments: 2 B/param
    assert said(e, "vram.foreach_step") == {"buffer_bytes_per_param": 2.0, "over_transient": True}
    # fp32 states (HF AMP layout): 4 B/param
    amp = est(mode="full", seq_len=TOKENS, checkpointing="full", foreach_step=True)
    assert said(amp, "vram.foreach_step")["buffer_bytes_per_param"] == 4.0


@pytest.mark.parametrize(
    "request_kwargs",
    [
        # DeepSpeed steps with its own (fused) optimizer
        {"mode": "full", "gpus": 2, "sharding": "zero2"},
        # 8-bit Adam's step is bitsandbytes' kernel
        {"mode": "full", "optimizer": "adamw8bit"},
        # the states live on the CPU
        {"mode": "full", "gpus": 2, "sharding": "fsdp", "offload": "cpu"},
    ],
)
def test_foreach_step_adds_nothing_where_torch_does_not_step(request_kwargs):
    kw = dict(seq_len=TOKENS, **request_kwargs)
    assert "optimizer_step" not in est(**kw, foreach_step=True).breakdown_gib


def test_foreach_step_below_a_long_backward_adds_nothing():
    """LoRA's adapter states are tiny: the buffer never exceeds what backward holds, so the peak is unchanged."""
    e = est(mode="lora", seq_len=TOKENS, foreach_step=True)
    assert e.breakdown_gib.get("optimizer_step", 0.0) == 0.0
    assert said(e, "vram.foreach_step")["over_transient"] is False
    assert e.per_gpu_gib == est(mode="lora", seq_len=TOKENS).per_gpu_gib
