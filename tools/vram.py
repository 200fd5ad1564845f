"""GPU memory estimator: how many GiB each GPU needs for a workload.

`estimate_vram(model, request, gpus)` adds up, per GPU:

* weights — bytes per parameter of the storage precision; 4-bit and 8-bit
  formats quantise only the transformer blocks' linear layers (embeddings and
  LM head stay 16-bit), plus the quantisation constants;
* for training, gradients and optimizer states of the trainable parameters
  (the whole model, or the LoRA adapters), with the mixed-precision layout of
  the framework implied by the sharding (HF Trainer/torch AMP or DeepSpeed);
* activations (Korthikanti et al. 2022) or, for inference, one layer's working
  set plus the KV cache by attention type;
* the CUDA context and framework overhead;

then divides what tensor/pipeline parallelism and ZeRO/FSDP shard, and moves
what CPU offload moves.

Model-state bytes per trainable parameter (AdamW):

=================================  ======  =====  =================  =====
layout                             weights grads  optimizer          total
=================================  ======  =====  =================  =====
mixed precision, HF Trainer/AMP    4 + 2   4      8                  18   (HF "model memory anatomy")
mixed precision, DeepSpeed ZeRO-3  2       4      4 master + 8       18   (DeepSpeed memory docs; ZeRO paper 2+2+12)
16-bit model, fp32 master in optim. 2 + 4  2 + 4  8                  20   (Megatron-LM --fp16; autocast stated off)
pure 16-bit (--master-weights none) 2      2      4 (bf16 m, v)      8
fp32 / tf32                        4       4      8                  16
LoRA adapters (PEFT, fp32)         4       4      8                  16   (frozen base: weights only)
=================================  ======  =====  =================  =====

8-bit Adam 2 B (8 B for embedding tables, which HF Trainer keeps in 32-bit states), Adafactor 4 B, SGD
momentum 4 B replace the optimizer column. DeepSpeed holds the gradient partition it hands the optimizer
in fp32 (its "Memory Requirements" docs: 18 B/param under ZeRO-3); ZeRO-1 also keeps the whole 16-bit
gradient.

Activations are counted per tensor a layer keeps for backward (Korthikanti et al. 2022, applied to the
family's reference implementation, `tools.vram_shape.layer_style`): the residual-stream and GEMM element
sizes follow the precision regime (pure 16-bit; AMP over fp32 weights, where norms, softmax and the
residual stream stay fp32 and every linear layer casts its own input; fp32), dropout masks are 1 byte,
eager attention keeps its softmax in fp32 where the implementation upcasts. Encoder-decoder models count
the decoder's cross-attention, the decoder over `target_len` tokens (default: the input length). The loss
keeps fp32 copies of the logits only where the model upcasts them or autocast runs it, and counts the larger of
what it holds in forward (the logits and their copies) and at the start of backward (log-softmax's output and two
gradients), since the step function frees the logits before backward (`_logit_bytes`). Sharded trainers add what
they gather (ZeRO-3/FSDP layers, the FSDP root unit or DeepSpeed's largest module) and their communication
buckets. The KV cache is `tools.kv_cache.kv_cache` (GQA/MQA, MLA, per-layer sliding windows). Three framework facts count only when the
request states them (defaults keep the estimate as it was): `autocast` (HF Trainer's bf16=True autocasts over 16-bit
weights too, so the loss is fp32), `foreach_step` (torch's multi-tensor AdamW builds a state-sized buffer during the
step, after backward freed the activations) and `kbit_prepare` (PEFT's prepare_model_for_kbit_training upcasts the
non-quantised weights of a bitsandbytes base to fp32, and the residual stream with them). Under recomputation the loss
buffers and the recomputed layer are held one after the other, so the larger counts; torchtitan's op-level and
layer-level selective checkpointing count when the request states `ac_option` (`_op_sac_token_bytes`), and so do
freed gradients (`grads_to_none`), TRL's bf16 recast after the k-bit upcast and bitsandbytes' quantisation options
(VramRequest fields, each checked there against the setting it qualifies), and whether a loss written in the
training script upcasts the logits (`logits_upcast`), and Megatron-LM's vocabulary-parallel loss, in place over one
fp32 copy of the logits (`vocab_parallel_loss`). Under torch FSDP with CPU offload the gradient shards stay on the
GPU until backward ends, in the post-backward stream's pool (`_offload_grad_staging`), unless fairscale's FSDP moves
each unit's gradient to the CPU as its backward ends (`fsdp_grads_to_cpu_per_unit`); a 16-bit model with its fp32
masters in the optimizer (Megatron-LM) all-reduces after backward, keeps bf16 gradients in one fp32 buffer, and, when
stated, makes its fp32 main gradients at the step (`main_grads_at_step`, `_after_backward_copies`); PEFT's k-bit preparation
leaves the LM head in fp32, so without autocast its logits are fp32 (`head_fp32`). A vision transformer's training
activations are counted block by block, each saved tensor in its own dtype (`_vit_token_bytes`), not taken from the
catalog's measured profile; without a fused attention kernel its scores are an explicit softmax, fp32 under autocast
(`_vit_explicit_attention_bytes`), a model EMA kept on the GPU counts once stated (`_model_ema`), and so does a
segmentation head's per-pixel loss at the label map's resolution (`_dense_logits`). Every constant is
commented where it is used and every default that was assumed is listed in `VramEstimate.assumptions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from tools.domain import (
    GIB,
    AttentionType,
    Checkpointing,
    GPU,
    MasterWeights,
    Mode,
    ModelKind,
    ModelSpec,
    Offload,
    Optimizer,
    Precision,
    Sharding,
)
from tools.errors import ErrorCode, InputError
from tools.kv_cache import SLIDING, kv_cache
from tools.kv_cache import layer_types as kv_layer_types
from tools.notes import Note
from tools.schemas import GpuFit, MemoryPart, VramEstimate, VramRequest
from tools.vram_codes import Component, FormulaCode, VramCode
from tools.vram_shape import (
    LayerStyle,
    Shape,
    is_vision_transformer,
    largest_module_params,
    layer_params,
    layer_style,
    lora_trainable_params,
    model_from_params,
    outside_block_params,
    shape_assumption,
    shape_of,
    split_params,
)

__all__ = ["estimate_vram", "model_from_params", "DEFAULT_SEQ_LEN", "weight_bytes_per_param"]

DEFAULT_SEQ_LEN = 2048

# --- quantised storage (bits per weight of a quantised linear layer) ---------
# NF4 / FP4 (bitsandbytes, QLoRA): 4-bit codes in blocks of 64 with one absmax
# per block; with double quantisation the absmax is 8-bit plus an fp32 constant
# per 256 blocks: 8/64 + 32/(64·256) = 0.127 extra bits per weight (QLoRA paper,
# Dettmers et al. 2023, §3 "Double Quantization": 0.5 → 0.127 bits/param).
NF4_BITS = 4.0 + 8 / 64 + 32 / (64 * 256)
# Without double quantisation (bitsandbytes' own default, and transformers' BitsAndBytesConfig(load_in_4bit=True):
# bnb_4bit_use_double_quant False, bnb_4bit_quant_type "fp4") each block of 64 keeps an fp32 absmax: 4 + 32/64 bits.
NF4_NO_DQ_BITS = 4.0 + 32 / 64
# INT4 for inference (GPTQ/AWQ, group size 128): an fp16 scale and a 4-bit zero
# point per 128 weights: 4 + 16/128 + 4/128 = 4.156 bits.
INT4_BITS = 4.0 + 16 / 128 + 4 / 128
# INT8 (LLM.int8 / weight-only int8): one fp16/fp32 scale per row, negligible.
INT8_BITS = 8.0
FP8_BITS = 8.0  # per-tensor scales, negligible

# --- runtime overhead ----------------------------------------------------------
# CUDA context + cuBLAS/cuDNN workspaces + PyTorch caching-allocator slack per GPU.
# With CUDA lazy module loading (default since CUDA 11.7 / PyTorch 2) the context
# is ~0.3-0.5 GiB; HF "Model training anatomy" measured 1.3 GB with eager
# loading. We take 0.75 GiB per GPU and add ALLOCATOR_SLACK of the tensors.
CUDA_CONTEXT_GIB = 0.75
# PyTorch's caching allocator fragments: reserved exceeds allocated by a few
# percent in steady training/inference (what nvidia-smi and "peak reserved" show).
ALLOCATOR_SLACK = 0.05
# Training allocates and frees activations, logits and gradients of many sizes every step; the allocator's block
# splitting and rounding leave more of that churn reserved than of the tensors allocated once. Median over the
# calibration rows measured on the device with sizeable short-lived tensors (tests/data/published_memory.yaml:
# hf-bert-large-fp32-b4 0.28, unsloth-hf-llama31-8b-qlora-40gb 0.22, -80gb 0.18, after the 5% base slack). Recomputed
# by the same recipe in the fourth round, once the recomputed layer stopped counting on top of the loss buffers (the
# Unsloth rows' short-lived tensors shrank; they were 0.11 and 0.07, median 0.11, under the summed count):
TRANSIENT_SLACK = 0.22
# With sharded parameters (ZeRO-3, FSDP) the gathers and reduce-scatters run on their own CUDA streams, and the
# caching allocator keeps a block freed on one stream from the others until they synchronise, so the short-lived
# tensors fragment far more (the PyTorch FSDP docs' reason for limit_all_gathers). llama-recipes PR #41 (FSDP + LoRA,
# Llama 2 7B, 4x A100, limit_all_gathers) published 19.36 GB peak reserved for 15.22 GB peak active; beyond the 5%
# base slack of our 14.2 GiB of tensors that is 0.28 of the 11.1 GiB of short-lived ones in our breakdown of the run,
# and the median over the five rows of tests/data/published_memory_kinds.yaml is the same 0.28.
SHARDED_TRANSIENT_SLACK = 0.28
# What lives only within a step (the rest, weights/gradients/optimizer states, is allocated once and stays put).
TRANSIENT = frozenset({
    Component.activations, Component.activations_checkpointed, Component.activations_recomputed, Component.logits,
    Component.gathered_layers, Component.gathered_embeddings, Component.comm_buckets, Component.dequant_buffer,
})

# --- activations (Korthikanti et al. 2022, "Reducing Activation Recomputation
# in Large Transformer Models", arXiv:2205.05198, §4.1 eq. 1-2) --------------
# The paper counts, per layer and 16-bit activations, 34·s·b·h + 5·a·s²·b bytes
# for a GPT block: attention 11sbh (QKV input 2, Q and K 4, V 2, output-proj
# input 2, dropout mask 1) + 5as²b (softmax output 2, dropout mask 1, dropout
# output 2), MLP 19sbh (input 2, 4h-wide GEMM output 8, GeLU output 8, dropout
# mask 1), layer norms 4sbh. We apply the same tensor-by-tensor count to the
# actual shape and to the family's reference implementation (`layer_style`):
# Q at heads·head_dim, K and V at kv_heads·head_dim (GQA/MQA), an MLP of width
# i (gated SwiGLU: gate, activation, up and product = 4 tensors of i; plain: 2),
# dropout masks only where the family's config has dropout (BERT/T5/GPT-2: 0.1;
# Llama-style: 0.0), and norms by kind (below). Element sizes follow the
# precision regime (`_Regime`). With tensor parallelism t the GEMM-internal
# tensors split over t (eq. 2). FlashAttention never materialises the a·s²
# scores (and selective recomputation recomputes them), so that term drops out.
# A check on BERT-base in fp32 (HF notebooks examples/benchmark.ipynb, PyTorchBenchmark: +414 MiB of device memory
# per added layer at batch 8 × 512, forward + backward, no optimizer): less the layer's 27 MiB of fp32 weights that
# is 387 MiB of activations; this count gives 66h + 9·a·s bytes per token = 414 MiB (+7%).
RMS_UPCAST_BYTES = 4  # RMSNorm (LlamaRMSNorm, T5LayerNorm) keeps an fp32 copy of its input besides the input
DROPOUT_MASK_BYTES = 1  # torch dropout keeps a bool mask per element
FP32 = 4  # bytes of an fp32 element (the softmax output where the implementation upcasts)


@dataclass(frozen=True)
class _Regime:
    """Element sizes of the saved activations under one precision regime."""

    stream: int  # the residual stream: layer inputs/outputs and what the norms keep
    compute: int  # GEMM inputs and outputs
    cast_per_linear: bool  # AMP over fp32 weights: each linear layer keeps its own 16-bit cast of its input
    label: str  # "half" | "amp" | "fp32"


# Pure 16-bit (LitGPT bf16-true, torchtune, DeepSpeed's fp16/bf16 modes, LoRA/QLoRA on a 16-bit base).
HALF = _Regime(stream=2, compute=2, cast_per_linear=False, label="half")
# torch AMP over fp32 weights (HF Trainer fp16=True/bf16=True on an fp32 model): the embeddings and norms are fp32,
# so the residual stream is fp32; layer_norm and softmax are on autocast's fp32 list (PyTorch "Automatic Mixed
# Precision package" docs, "CUDA Ops that can autocast to float32"); linear layers run in 16-bit, and autocast caches
# casts only of leaf tensors (the weights), so each linear layer keeps its own 16-bit copy of its activation input.
AMP = _Regime(stream=4, compute=2, cast_per_linear=True, label="amp")
FULL32 = _Regime(stream=4, compute=4, cast_per_linear=False, label="fp32")


# Output layer, bytes per logit (s·b·V of them). Korthikanti §4.3 counts 4
# (Megatron's fused vocab-parallel cross-entropy). Chunked or fused losses (torchtune, LitGPT, Unsloth, Liger) keep
# about the bf16 logits and one fp32 chunk: ~4. Calibrated on tests/data/published_memory.yaml.
LOGITS_BYTES_CHUNKED = 4
# A full-vocabulary loss (`_logit_bytes`) is held at two moments that never overlap, and the larger counts:
# * forward, as the loss is computed: the logits in the compute dtype, their fp32 copy where the loss upcasts
#   (HF transformers ForCausalLMLoss `logits = logits.float()`), the shifted `.contiguous()` copy the loss reads
#   (`shift_logits = logits[..., :-1, :].contiguous()`: the HF causal-LM heads of older transformers releases, Qwen
#   (v1)'s remote code, ColossalAI's GPTLMLoss; today's transformers/loss/loss_utils.py ForCausalLMLoss pads and shifts
#   the labels instead, one copy fewer, which a request cannot tell apart) and log-softmax's output (torch
#   cross_entropy = nll_loss(log_softmax(x))): `LOSS_FORWARD_COPIES` loss-sized tensors beside the logits;
# * backward, at the loss: log-softmax's saved output, the gradient nll_loss's backward builds, and the gradient
#   log-softmax's backward builds from them (`_log_softmax_backward_data`) before either is freed:
#   `LOSS_BACKWARD_COPIES` loss-sized tensors. The logits and the copies are no longer held then: autograd saves none of
#   them (the cast and the slice save no input, log-softmax saves its result), and the step function returns the loss
#   alone (HF Trainer `compute_loss` returns `loss` unless `return_outputs`; a Lightning `training_step`; a plain loop's
#   `calc_loss_batch`), so its locals, the model's output among them, are freed before `loss.backward()`. (A loop that
#   keeps the output through backward, as nanoGPT's `logits, loss = model(X, Y)` does, holds the logits too.)
# The loss-sized tensors are fp32 when the model upcasts the logits (`layer_style(...).fp32_logits`), when torch
# autocast runs the loss (cross_entropy / log_softmax / nll_loss are on autocast's fp32 list: PyTorch AMP docs, "CUDA
# Ops that can autocast to float32"), or in fp32 training. Autocast runs under HF Trainer/accelerate mixed precision
# over fp32 master weights or fp32 adapters, but not under DeepSpeed (transformers Trainer: "deepspeed and SageMaker
# Model Parallel manage their own half precision", so no autocast context) nor in pure 16-bit training. So: the HF default
# over 16-bit logits max(2 + 4 + 2·4, 3·4) = 14 B per logit; a loss in the logits' own 16-bit dtype (Qwen (v1) and T5
# under DeepSpeed, a plain bf16 loop) max(2 + 2·2, 3·2) = 6; fp32 training max(4 + 2·4, 3·4) = 12.
LOSS_FORWARD_COPIES = 2
LOSS_BACKWARD_COPIES = 3
# Full recomputation keeps only each layer's input: s·b·h elements of the residual stream per layer.


@dataclass
class _Acc:
    """Breakdown under construction: component → bytes per GPU (and its precision)."""

    parts: dict[Component, float] = field(default_factory=dict)
    precisions: dict[Component, str | None] = field(default_factory=dict)
    assumptions: list[Note] = field(default_factory=list)
    cpu_bytes: float = 0.0
    regime: "_Regime | None" = None  # the activations' element sizes, once known
    logit_bytes: int | None = None  # bytes per logit of the output layer and loss, once known (training)
    sharded_params: bool = False  # ZeRO-3 / FSDP: parameters gathered on side streams
    reclaimable: float = 0.0  # bytes the caching allocator keeps reserved beside the parts and gives back under pressure

    def add(self, component: Component, value: float, precision: "Precision | str | None" = None) -> None:
        if value > 0:
            self.parts[component] = self.parts.get(component, 0.0) + value
            self.precisions.setdefault(component, getattr(precision, "value", precision))

    def say(self, code: VramCode, **params) -> None:
        note = Note.of(code, **params)
        if note not in self.assumptions:
            self.assumptions.append(note)


def weight_bytes_per_param(precision: Precision, mode: Mode = Mode.inference) -> float:
    """Storage bytes per quantised-or-not linear-layer weight."""
    p = precision
    if p in (Precision.fp32, Precision.tf32):
        return 4.0
    if p in (Precision.fp16, Precision.bf16):
        return 2.0
    if p == Precision.fp8:
        return FP8_BITS / 8
    if p == Precision.int8:
        return INT8_BITS / 8
    if p == Precision.nf4 or (p == Precision.int4 and mode in (Mode.qlora, Mode.lora)):
        return NF4_BITS / 8  # bitsandbytes 4-bit (nf4 or fp4) with double quantisation
    return INT4_BITS / 8  # int4 inference: GPTQ/AWQ group-128


def _is_quantised(p: Precision) -> bool:
    return p in (Precision.fp8, Precision.int8, Precision.int4, Precision.nf4)


def _model_ema(req: VramRequest) -> bool:
    """A model EMA kept on the GPU, as `VramRequest.model_ema` states: full training and pre-training only (other
    modes say it is not counted: `VramCode.model_ema_ignored`)."""
    return req.model_ema and req.mode in (Mode.full, Mode.pretrain)


def _kbit_upcasts(req: VramRequest, p: Precision) -> bool:
    """PEFT's prepare_model_for_kbit_training upcasts the non-quantised weights: stated, for LoRA/QLoRA over a
    bitsandbytes 4/8-bit base (its fp32 cast skips GPTQ/AQLM/EETQ/HQQ/torchao bases; fp8 is none of bitsandbytes')."""
    return req.kbit_prepare and req.mode in (Mode.lora, Mode.qlora) and _is_quantised(p) and p != Precision.fp8


def _bnb_4bit(p: Precision, mode: Mode) -> bool:
    """The weights are bitsandbytes 4-bit (NF4/FP4): nf4, or int4 for LoRA/QLoRA (`weight_bytes_per_param`)."""
    return p == Precision.nf4 or (p == Precision.int4 and mode in (Mode.qlora, Mode.lora))


def _double_quant(req: VramRequest) -> bool:
    """bitsandbytes double quantisation, as stated by `VramRequest.bnb_double_quant` (default on: the QLoRA paper's)."""
    return req.bnb_double_quant


def _frozen_weight_bytes(model: ModelSpec, p: Precision, mode: Mode, acc: _Acc, double_quant: bool = True) -> float:
    """Bytes of the whole model stored at precision `p` (quantised formats: linear layers only)."""
    if not _is_quantised(p):
        return model.params * weight_bytes_per_param(p)
    linear, other = split_params(model)
    bits = weight_bytes_per_param(p, mode) * 8
    if _bnb_4bit(p, mode) and not double_quant:
        bits = NF4_NO_DQ_BITS
        acc.say(VramCode.weights_bnb4_no_dq, precision=p, bits_per_weight=round(bits, 3), embedding_params=other)
        return linear * bits / 8 + other * 2.0
    # bitsandbytes 4-bit (blocksize 64, double quantisation), GPTQ/AWQ group-128, or 8-bit with negligible scales
    code = VramCode.weights_nf4 if bits < 4.14 else VramCode.weights_int4 if bits < 5 else VramCode.weights_8bit
    acc.say(code, precision=p, bits_per_weight=round(bits, 3), embedding_params=other)
    return linear * bits / 8 + other * 2.0


def _dequant_bytes_per_weight(req: VramRequest) -> float:
    """Bytes per element of the weight bitsandbytes dequantises for one 4-bit matmul (bnb autograd/_functions.py
    MatMul4Bit.forward: `F.dequantize_4bit(B, quant_state).to(A.dtype)`): the 16-bit dequantised matrix, and beside it
    its fp32 cast when the compute dtype is fp32 (transformers' BitsAndBytesConfig default: bnb_4bit_compute_dtype
    None → torch.float32), as `VramRequest.bnb_compute_fp32` states (asked of tools/schemas.py this round; False until
    then)."""
    return 2.0 + (FP32 if req.bnb_compute_fp32 else 0.0)


def _defaults(model: ModelSpec, req: VramRequest, acc: _Acc) -> tuple[Precision, int, Checkpointing]:
    training = req.mode != Mode.inference
    p = req.effective_precision
    if req.precision is None:
        acc.say(VramCode.precision_default_qlora if req.mode == Mode.qlora else VramCode.precision_default, precision=p)
    if req.seq_len is None:
        seq = DEFAULT_SEQ_LEN
        if model.max_context and model.max_context < seq:
            seq = model.max_context
            acc.say(VramCode.seq_len_model_max, seq_len=seq)
        else:
            acc.say(VramCode.seq_len_default, seq_len=seq)
    else:
        seq = req.seq_len
        if model.max_context and seq > model.max_context:
            acc.say(VramCode.seq_len_over_max, seq_len=seq, model=model.name, max_context=model.max_context)
    if req.checkpointing is None:
        # LLM fine-tuning recipes turn checkpointing on; vision-transformer ones (timm train.py's
        # --grad-checkpointing, torchvision's references, DeiT) leave it off
        vit = is_vision_transformer(model)
        ckpt = Checkpointing.full if training and not vit else Checkpointing.none
        if training:
            acc.say(VramCode.checkpointing_default_vit if vit else VramCode.checkpointing_default)
    else:
        ckpt = req.checkpointing
    if req.model_ema and req.mode not in (Mode.full, Mode.pretrain):
        acc.say(VramCode.model_ema_ignored, mode=req.mode.value)
    if req.dense_classes is not None and (not training or not is_vision_transformer(model)):
        # the per-pixel loss is counted for a vision transformer's training only (`_dense_logits`)
        acc.say(VramCode.dense_logits_ignored, reason="inference" if not training else "not_vision")
    if "batch_size" not in req.model_fields_set:
        acc.say(VramCode.batch_default_training if training else VramCode.batch_default_inference, batch_size=1)
    return p, seq, ckpt


def _validate(req: VramRequest, p: Precision) -> None:
    if req.mode in (Mode.full, Mode.pretrain) and p in (Precision.int8, Precision.int4, Precision.nf4):
        raise InputError(Note.of(ErrorCode.full_needs_16bit, mode=req.mode, precision=p))
    if req.offload == Offload.cpu and req.mode == Mode.inference:
        raise InputError(Note.of(ErrorCode.offload_inference))
    if req.offload == Offload.cpu and req.sharding in (Sharding.none, Sharding.ddp):
        raise InputError(Note.of(ErrorCode.offload_needs_sharding))
    if req.gpus % (req.tp * req.pp):
        raise InputError(Note.of(ErrorCode.gpus_not_multiple, gpus=req.gpus, tp_pp=req.tp * req.pp))


def estimate_vram(model: ModelSpec, request: VramRequest, gpus: Iterable[GPU] = ()) -> VramEstimate:
    """Estimate GPU memory per GPU for running or training `model` as `request` says.

    Args:
        model: the model (catalog entry, HF config, or `model_from_params`).
        request: mode, precision, batch, sequence, sharding and the rest.
        gpus: catalog GPUs to check the estimate against (usable GiB).

    Returns:
        per-GPU and total GiB, a breakdown by component, every assumption,
        and which of `gpus` it fits with the headroom left.
    """
    acc = _Acc()
    p, seq, ckpt = _defaults(model, request, acc)
    _validate(request, p)
    if model.assumed_shape:
        acc.assumptions.append(shape_assumption(model))
    shape = shape_of(model) if model.activation_profile is None or model.num_layers else None
    if shape is not None and shape.from_params and not model.assumed_shape:
        acc.say(VramCode.shape_missing, model=model.name)

    flash = request.flash_attention
    if shape is not None and model.activation_profile is None:
        if flash and layer_style(model).eager_only:
            # HF transformers has no FlashAttention/SDPA kernel for the family (T5's relative position bias)
            flash = False
            acc.say(VramCode.eager_only, model=model.name)
    # An encoder-decoder's decoder tokens (T5's targets, padded to the labels' length): `target_len`, else seq_len too,
    # an upper bound for summarisation-style jobs (said by vram.encoder_decoder).
    dec_seq = request.target_len or seq
    if shape is not None and model.activation_profile is None and shape.encoder_decoder:
        acc.say(VramCode.encoder_decoder, encoder_layers=shape.layers - shape.decoder_layers,
                decoder_layers=shape.decoder_layers, seq_len=seq, target_tokens=dec_seq,
                target_assumed=request.target_len is None)

    tp, pp = request.tp, request.pp
    if request.mode == Mode.inference:
        if request.gpus > 1 and tp * pp == 1:
            tp = request.gpus
            acc.say(VramCode.inference_tp, gpus=request.gpus, tp=tp)
        if request.sharding not in (Sharding.none, Sharding.ddp):
            acc.say(VramCode.sharding_ignored, sharding=request.sharding)
    dp = request.gpus // (tp * pp)
    mp = tp * pp  # model-parallel degree: every weight lives on exactly one of the tp×pp ranks
    if model.moe_experts and model.active_params:
        acc.say(VramCode.moe_active, active_params=model.active_params, params=model.params)

    if request.mode == Mode.inference:
        _inference(model, shape, request, p, seq, tp, pp, flash, acc)
    else:
        _training(model, shape, request, p, seq, dec_seq, ckpt, tp, pp, dp, mp, flash, acc)

    tensors = sum(acc.parts.values())  # the reclaimable pool is reserve already: no slack on it
    slack = tensors * ALLOCATOR_SLACK
    if request.mode != Mode.inference:
        churn = SHARDED_TRANSIENT_SLACK if acc.sharded_params else TRANSIENT_SLACK
        slack += churn * sum(v for c, v in acc.parts.items() if c in TRANSIENT)
        acc.say(VramCode.transient_fragmentation, slack_fraction=churn, sharded=acc.sharded_params)
    acc.add(Component.fragmentation, slack)
    acc.add(Component.cuda_context, CUDA_CONTEXT_GIB * GIB)
    acc.say(VramCode.overhead, context_gib=CUDA_CONTEXT_GIB, slack_fraction=ALLOCATOR_SLACK)
    if acc.cpu_bytes > 0:
        acc.say(VramCode.offload_ram, cpu_gib=round(acc.cpu_bytes / GIB, 3))

    # The stream's pool is reserve the allocator gives back when a cudaMalloc fails: what a measured
    # max_memory_reserved shows, not what the job needs; a card without it still runs the job (Lambda's 405B run)
    reclaimable = acc.reclaimable / GIB
    per_gpu = sum(acc.parts.values()) / GIB
    breakdown = [MemoryPart(component=c, precision=acc.precisions.get(c), gib=round(v / GIB, 3)) for c, v in acc.parts.items()]
    fit_details = [
        GpuFit(gpu=g.key, usable_gib=g.usable_memory_gib, fits=per_gpu <= g.usable_memory_gib,
               headroom_gib=round(g.usable_memory_gib - per_gpu, 2))
        for g in gpus
    ]
    return VramEstimate(
        model=model.key,
        mode=request.mode,
        precision=p,
        gpus=request.gpus,
        per_gpu_gib=round(per_gpu, 3),
        reclaimable_gib=round(reclaimable, 3),
        total_gib=round(per_gpu * request.gpus, 3),
        breakdown=breakdown,
        assumptions=acc.assumptions,
        fits={f.gpu: f.fits for f in fit_details},
        fit_details=fit_details,
        formula=_formula(model, shape, request, ckpt, flash, acc.regime, acc.logit_bytes),
    )


# ------------------------------------------------------------------ inference


def _inference(model: ModelSpec, shape: Shape | None, req: VramRequest, p: Precision, seq: int,
               tp: int, pp: int, flash: bool, acc: _Acc) -> None:
    mp = tp * pp
    acc.add(Component.weights, _frozen_weight_bytes(model, p, req.mode, acc, _double_quant(req)) / mp, p)
    if model.moe_experts:
        acc.say(VramCode.moe_resident, experts=model.moe_experts)
    if p == Precision.nf4 and shape is not None:
        # bitsandbytes 4-bit inference: a prompt of more than one token goes through MatMul4Bit, which dequantises
        # the whole weight for the matmul (bnb autograd/_functions.py matmul_4bit: only a single-token input takes
        # the gemv_4bit kernel), one matrix at a time, as in training
        largest = shape.hidden * max(shape.intermediate, shape.hidden)
        acc.add(Component.dequant_buffer, _dequant_bytes_per_weight(req) * largest / tp, Precision.bf16)
        acc.say(VramCode.dequant_inference, bytes_per_weight=_dequant_bytes_per_weight(req))
    reg = acc.regime = _regime(p, amp=False)  # quantised weights compute in 16-bit
    act_precision = Precision.fp32 if reg is FULL32 else _half(p)
    b = req.batch_size
    if shape is not None and is_vision_transformer(model):
        # a ViT's measured profile is a training one; in eval mode nothing is kept for backward, so at most one
        # block's tensors are live at a time — bounded by what that block would keep for backward
        # (`_vit_token_bytes`), plus the residual stream it reads; the head runs over the class token alone
        per_token = _vit_token_bytes(shape, reg, tp, flash, seq)
        acc.add(Component.working_set, (per_token + reg.stream * shape.hidden) * seq * b, act_precision)
        acc.say(VramCode.vit_inference, bytes_per_token=round(per_token), tokens=seq)
        return
    if model.activation_profile is not None:
        prof = model.activation_profile
        if prof.inference_bytes_per_sample is not None:
            # an eval-mode forward keeps nothing for backward: what is alive at once, measured on the architecture in
            # fp32 (measure_activations.py `inference_per_sample`), every tensor in the compute dtype (2 B in 16-bit)
            scale = reg.compute / FP32
            acc.add(Component.working_set, prof.inference_bytes_per_sample * scale * b, act_precision)
            acc.say(VramCode.profile_inference_working_set, batch_size=b, element_bytes=reg.compute)
            return
        acc.add(Component.activations, prof.bytes_per_sample * b)
        acc.say(VramCode.profile_inference, reference=prof.reference, source=prof.source, batch_size=b)
        return
    assert shape is not None
    # Nothing is kept for a backward pass: one layer's forward working set (eval mode: no dropout), plus the logits:
    # generation computes them for the last position only (vLLM; HF generate with logits_to_keep=1), in fp32: b·V·4.
    style = layer_style(model)
    eval_style = LayerStyle(norm=style.norm, dropout=False, fp32_softmax=style.fp32_softmax, eager_only=style.eager_only)
    _, working = _layers_activation_bytes(shape, eval_style, reg, seq, b, tp, scores=not flash)
    acc.add(Component.working_set, working + b * shape.vocab * 4, act_precision)
    if model.kind == ModelKind.encoder:
        acc.say(VramCode.encoder_no_kv)
        return
    acc.add(Component.kv_cache, _kv_cache_bytes(model, shape, seq, b, tp, pp, reg.compute, acc), act_precision)


def _kv_cache_bytes(model: ModelSpec, s: Shape, seq: int, b: int, tp: int, pp: int, elem: int, acc: _Acc) -> float:
    """The shared KV-cache function (tools/kv_cache.py), with this estimator's notes."""
    kv = kv_cache(model, seq, b, tp, pp, kv_bytes=elem)
    for note in kv.notes:
        if note.code == "kv.layer_types_ignored":  # a config's layer pattern that does not match its layer count
            acc.assumptions.append(note)
    if model.attention == AttentionType.mla and model.kv_lora_rank:
        # MLA caches one compressed latent (kv_lora_rank) plus the decoupled RoPE key (qk_rope_head_dim) per token
        # per layer (DeepSeek-V2 paper §2.1.3); the latent is not split across TP ranks (vLLM replicates it).
        acc.say(VramCode.kv_mla, kv_lora_rank=model.kv_lora_rank, rope_dim=model.qk_rope_head_dim or 0)
    else:
        # K and V: 2 × kv_heads × head_dim per token per layer; heads split over TP ranks, but each rank needs at
        # least one (GQA/MQA replicate below 1).
        kind = {AttentionType.mqa: "MQA", AttentionType.gqa: "GQA", AttentionType.mha: "MHA"}.get(model.attention, "MHA")
        acc.say(VramCode.kv_heads, attention=kind, kv_heads=s.kv_heads, head_dim=s.head_dim, tokens=seq, batch_size=b)
    window = model.sliding_window
    if window and window < seq:
        kinds, _ = kv_layer_types(model)
        sliding = sum(k == SLIDING for k in kinds)
        if sliding:
            # sliding layers keep the last `window` tokens, full-attention layers all of them (Gemma-2 alternates)
            acc.say(VramCode.sliding_window, window_tokens=window, seq_len=seq, sliding_layers=sliding, layers=len(kinds))
    return kv.bytes_per_gpu


# ------------------------------------------------------------------ training


def _training(model: ModelSpec, shape: Shape | None, req: VramRequest, p: Precision, seq: int, dec_seq: int,
              ckpt: Checkpointing, tp: int, pp: int, dp: int, mp: int, flash: bool, acc: _Acc) -> None:
    sh = req.sharding
    if req.gpus > 1 and dp > 1 and sh == Sharding.none:
        sh = Sharding.ddp
        acc.say(VramCode.ddp_assumed, dp=dp)
    shard_opt = dp if sh in (Sharding.zero1, Sharding.zero2, Sharding.zero3, Sharding.fsdp) else 1
    shard_grad = dp if sh in (Sharding.zero2, Sharding.zero3, Sharding.fsdp) else 1
    shard_param = dp if sh in (Sharding.zero3, Sharding.fsdp) else 1
    # ZeRO-3/FSDP gather parameters for compute and can offload them, on any number of GPUs (DeepSpeed's memory
    # docs give ZeRO-3 with offload_param the largest layer alone on the GPU, one GPU included)
    params_gathered = sh in (Sharding.zero3, Sharding.fsdp)
    offload = req.offload == Offload.cpu
    fp32 = p in (Precision.fp32, Precision.tf32)
    pure_half = not fp32 and req.master_weights == MasterWeights.none
    deepspeed = sh in (Sharding.zero1, Sharding.zero2, Sharding.zero3)
    # A 16-bit model whose fp32 master copy lives inside the optimizer, stated as fp32 master weights with no autocast
    # over unsharded parameters outside DeepSpeed: without autocast fp32 weights would compute in fp32, so the model
    # itself is 16-bit (Megatron-LM --fp16/--bf16: FP16Module casts the model, FP16OptimizerWithFP16Params keeps
    # `main_param = param.detach().clone().float()` and copies the 16-bit gradients into fp32 `main_param.grad` buffers
    # that zero_grad never frees, megatron/optimizer/optimizer.py at 8aa4619 lines 172 and 221-235; apex amp O2 and
    # DeepSpeed's stage-0 FP16_Optimizer keep the same copies)
    half_model = p in (Precision.fp16, Precision.bf16) and not pure_half and sh in (Sharding.none, Sharding.ddp) \
        and req.autocast is False
    amp = False  # torch AMP over fp32 weights without FSDP (which casts the gathered weights to 16-bit itself)
    main_grads_at_step = 0.0  # a 16-bit model's fp32 main gradients, made by the optimizer step (`half_model`)

    half = _half(p)  # the 16-bit format of "16-bit" tensors: fp16 when asked for, else bf16

    def put(component: Component, nbytes: float, shards: int, offloadable: bool, precision: "Precision | str | None") -> None:
        per_gpu = nbytes / mp / shards
        if offload and offloadable:
            acc.cpu_bytes += per_gpu
        else:
            acc.add(component, per_gpu, precision)

    if req.mode in (Mode.lora, Mode.qlora):
        trainable = lora_trainable_params(model, req.lora_rank, req.lora_targets)
        # PEFT keeps adapters in fp32 (autocast_adapter_dtype); pure 16-bit runs
        # (--master-weights none: LitGPT bf16-true, torchtune dtype=bf16, the QLoRA
        # repo's --bf16) store them, their gradients and Adam states in bf16.
        a_bytes, a_precision = (2, half) if pure_half else (4, Precision.fp32)
        acc.say(
            VramCode.lora_adapters, rank=req.lora_rank, targets=req.lora_targets, trainable_params=trainable,
            trainable_fraction=trainable / model.params, adapter_precision=a_precision, pure_half=pure_half,
        )
        base = _frozen_weight_bytes(model, p, req.mode, acc, _double_quant(req))
        kbit_upcast = _kbit_upcasts(req, p)
        # TRL's SFTTrainer with bf16=True on a single-GPU 4-bit base casts the embeddings and LM head back to bf16
        # after PEFT's upcast and keeps the norms fp32 (trl v0.13.0 sft_trainer.py lines 227-233 and
        # trl/trainer/utils.py peft_module_casting_to_bf16), as `VramRequest.kbit_recast_bf16` states (a field asked of
        # tools/schemas.py this round; False until then)
        recast = kbit_upcast and req.kbit_recast_bf16
        if kbit_upcast and recast:
            acc.say(VramCode.kbit_recast_bf16, trainer="TRL SFTTrainer")
        elif kbit_upcast:
            # PEFT prepare_model_for_kbit_training (peft/utils/other.py): "cast all non INT8 parameters to fp32" (every
            # fp16/bf16 parameter that is not a bitsandbytes Params4bit/Int8Params: embeddings, LM head, norms) for
            # bitsandbytes bases (GPTQ, AQLM, EETQ, HQQ are skipped). Those 16-bit weights become 4 B: +2 B each.
            _, upcast = split_params(model)
            base += upcast * 2.0
            acc.say(VramCode.kbit_prepare, upcast_params=upcast)
        if kbit_upcast:
            # The fp32 embedding output (or, recast, the fp32 norms) makes the residual stream fp32 (LlamaRMSNorm
            # returns weight(fp32) × x, fp32 by type promotion), and
            # bitsandbytes' Linear4bit/Linear8bitLt cast each input to the 16-bit compute dtype for the matmul and the
            # output back to the input's dtype (bnb nn/modules.py: x.to(compute_dtype) … out.to(inp_dtype)): the AMP
            # element sizes (fms-acceleration's framework_plugin_bnb.py avoids this "constantly downcasted" path).
            amp = True
        put(Component.weights_frozen, base, shard_param, offload and params_gathered, p)
        if offload and sh == Sharding.fsdp:
            # FSDP allocates a pinned CPU gradient buffer the size of every offloaded shard, frozen ones included
            # (torch FlatParamHandle: flat_param._cpu_grad = torch.zeros_like(flat_param._local_shard).pin_memory())
            acc.cpu_bytes += base / mp / shard_param
        put(Component.adapter_weights, trainable * a_bytes, shard_param, offload and params_gathered, a_precision)
        put(Component.adapter_gradients, trainable * a_bytes, shard_grad, True, a_precision)
        put(Component.optimizer_states, trainable * _opt_bytes(req.optimizer, pure_half, acc), shard_opt, True, None)
        if req.mode == Mode.qlora or p in (Precision.int4, Precision.nf4):
            # bitsandbytes dequantises one weight matrix at a time to bf16 for the matmul
            largest = (shape.hidden * max(shape.intermediate, shape.hidden)) if shape else 0
            acc.add(Component.dequant_buffer, _dequant_bytes_per_weight(req) * largest / tp, Precision.bf16)
        grad_bytes = trainable * a_bytes
        trainable_params = trainable
    else:
        n = trainable_params = model.params
        # HF Trainer's 8-bit Adam keeps 32-bit states for nn.Embedding weights (transformers Trainer.create_optimizer:
        # GlobalOptimManager.register_module_override(module, "weight", {"optim_bits": 32}) for every nn.Embedding)
        embed = _input_embedding_params(shape) if req.optimizer == Optimizer.adamw8bit and shape is not None \
            and not is_vision_transformer(model) else 0.0  # a ViT's position embedding is an nn.Parameter
        if fp32:
            acc.say(VramCode.fp32_training)
            put(Component.weights, n * 4, shard_param, offload and params_gathered, Precision.fp32)
            grad_bytes = n * 4
            put(Component.gradients, grad_bytes, shard_grad, True, Precision.fp32)
            put(Component.optimizer_states, _opt_state_bytes(req.optimizer, False, n, embed, acc), shard_opt, True, None)
        elif pure_half:
            acc.say(VramCode.pure_half, precision=half)
            put(Component.weights, n * 2, shard_param, offload and params_gathered, half)
            grad_bytes = n * 2
            put(Component.gradients, grad_bytes, shard_grad, True, half)
            put(Component.optimizer_states, _opt_state_bytes(req.optimizer, True, n, embed, acc), shard_opt, True, None)
        elif half_model:
            # 2 (16-bit weights) + 2 (16-bit gradients) + 4 (fp32 master) + 4 (fp32 main gradients) + optimizer states;
            # the activations keep the 16-bit element sizes (no autocast casts anything)
            fp32_buffer = p == Precision.bf16
            acc.say(VramCode.half_model_layout, precision=half, fp32_grad_buffer=fp32_buffer)
            put(Component.weights, n * 2, shard_param, False, half)
            if fp32_buffer:
                # Megatron-LM --bf16 turns accumulate_allreduce_grads_in_fp32 on (megatron/arguments.py at d63c254,
                # lines 166-173: "bfloat16 requires gradient accumulation and all-reduce to be done in fp32"), so the
                # local DDP's contiguous gradient buffer (megatron/model/distributed.py MemoryBuffer, `param.main_grad`)
                # is fp32, backward's param_hook adds each 16-bit .grad into it and frees it (`param.grad = None`), and
                # the optimizer's `main_param.grad = model_param.main_grad.float()` (optimizer.py line 623) is that
                # buffer itself (.float() of an fp32 tensor copies nothing): one persistent fp32 gradient, 4 B
                grad_bytes = n * 4
                put(Component.gradients, grad_bytes, shard_grad, True, Precision.fp32)
            else:
                # fp16: the contiguous buffer is fp16 (2 B, persistent: zero_grad_buffer zeroes it in place) and the
                # optimizer keeps fp32 main gradients (4 B). Stated (`VramRequest.main_grads_at_step`): they are made
                # from the buffer at the step (`main_grad.float()`) and freed by the next iteration's
                # optimizer.zero_grad() (set_to_none=True over fp32_from_float16_groups since 4fd6432, 2021-07-09,
                # "fixed zero_grad for fp32_from_float16_groups"), so they count after backward (`_main_grads_at_step`);
                # otherwise beside it (Megatron-LM before that commit allocates them once, `torch.empty_like`, and
                # never frees them: optimizer.py at 8aa4619 lines 221-235)
                grad_bytes = n * 2
                put(Component.gradients, grad_bytes, shard_grad, True, half)
                if req.main_grads_at_step:
                    main_grads_at_step = n * 4 / mp / shard_opt
                else:
                    put(Component.gradient_partition, n * 4, shard_opt, True, Precision.fp32)
            put(Component.master_weights, n * 4, shard_opt, True, Precision.fp32)
            put(Component.optimizer_states, _opt_state_bytes(req.optimizer, False, n, embed, acc), shard_opt, True, None)
        elif deepspeed:
            # ZeRO paper (Rajbhandari et al. 2020, §3.1): mixed-precision Adam holds 2Ψ (fp16 params) + 2Ψ (fp16
            # grads) + KΨ optimizer states with K = 12 (fp32 params 4 + momentum 4 + variance 4). DeepSpeed's
            # "Memory Requirements" docs (docs/code-docs/source/memory.rst) add that the gradients "are converted
            # into fp32 before doing the weight updates" over the whole partition: ZeRO-3 needs 18 B/param over the
            # GPUs (fp32 params 4 + fp32 grads 4 + Adam 8 + 16-bit params 2). So the gradient partition is counted
            # at 4 B; ZeRO-1 (gradients not partitioned) also keeps the whole 16-bit gradient.
            acc.say(VramCode.deepspeed_layout, stage=sh)
            put(Component.weights, n * 2, shard_param, offload and params_gathered, half)
            grad_bytes = n * 2
            if sh == Sharding.zero1:
                put(Component.gradients, grad_bytes, 1, True, half)
                put(Component.gradient_partition, n * 4, shard_opt, True, Precision.fp32)
            else:
                put(Component.gradients, n * 4, shard_grad, True, Precision.fp32)
            put(Component.master_weights, n * 4, shard_opt, True, Precision.fp32)
            put(Component.optimizer_states, _opt_state_bytes(req.optimizer, False, n, embed, acc), shard_opt, True, None)
        else:
            # HF Trainer / torch AMP / FSDP mixed precision: the model's own params
            # are fp32 (4) with fp32 gradients (4); autocast holds 16-bit copies of
            # the weights (2) for the forward/backward. HF "Model training anatomy":
            # 18 bytes/param with AdamW = 4+2 (model) + 4 (grads) + 8 (optimizer).
            acc.say(VramCode.amp_layout)
            put(Component.master_weights, n * 4, shard_param, offload and params_gathered, Precision.fp32)
            # Only outside ZeRO-3/FSDP: FSDP casts and gathers the 16-bit parameters unit by unit on one GPU too
            # (torch FSDP runs NO_SHARD at world size 1, _init_utils.py `_init_process_group_state`, and its
            # MixedPrecision casts each FlatParameter as it unshards it; fairscale's FSDP `_rebuild_full_params` casts
            # each unit's fp32 shard with `_cast_fp32_param_shards_to_fp16` and frees the 16-bit copy after the unit
            # has run), so there is no whole-model autocast copy, and the activations keep the 16-bit sizes of a model
            # that computes in 16-bit (the same count as on several GPUs)
            if not params_gathered:
                acc.add(Component.autocast_copies, n * 2 / mp, half)
                amp = True
            grad_bytes = n * 4
            put(Component.gradients, grad_bytes, shard_grad, True, Precision.fp32)
            put(Component.optimizer_states, _opt_state_bytes(req.optimizer, False, n, embed, acc), shard_opt, True, None)
        if p == Precision.fp8:
            # Transformer Engine keeps an fp8 copy (and transpose) of each weight for the GEMMs
            acc.add(Component.fp8_copies, n * 1 / mp / shard_param, Precision.fp8)
            acc.say(VramCode.fp8_training)
        if _model_ema(req):
            # A model EMA on the GPU (timm 0.3.2 timm/utils/model_ema.py ModelEma: `self.ema = deepcopy(model)`, moved
            # to `device` only when one is given; DeiT main.py builds it with device='cpu' only under
            # --model-ema-force-cpu, so with --model-ema, on by default, it stays on the model's GPU) holds every weight
            # once more in the model's own dtype (fp32 under AMP and fp32 training, 16-bit for a 16-bit model), updated
            # in place after each step and never sharded: a plain module beside the wrapped one.
            ema_precision = Precision.fp32 if (fp32 or not (pure_half or half_model or deepspeed)) else half
            acc.add(Component.ema_weights, n * (4.0 if ema_precision == Precision.fp32 else 2.0) / mp, ema_precision)
            acc.say(VramCode.model_ema, params=n, precision=ema_precision)

    if offload:
        acc.say(VramCode.cpu_offload, params_too=params_gathered, fsdp=sh == Sharding.fsdp)
    coalesced = 0.0  # a 16-bit model's gradient all-reduce copy, made after backward (`_after_backward_copies`)
    if sh == Sharding.ddp and dp > 1 and half_model:
        # Megatron-LM's local DDP runs its all-reduce after forward_backward_func returns (training.py train_step:
        # `optimizer.reduce_model_grads`), not during backward: in place over its contiguous gradient buffer
        # (megatron/model/distributed.py at d63c254, allreduce_gradients: `torch.distributed.all_reduce(buffer_.data,
        # ...)`), or, without contiguous buffers, over a coalesced copy of the 16-bit gradients (`coalesced =
        # _flatten_dense_tensors(grads)`), freed before the step; DeepSpeed's stage-0 engine likewise all-reduces
        # flattened buckets after backward (`buffered_allreduce_fallback`). So no bucket is held at the backward peak;
        # the copy, at most the 16-bit gradient, counts only in its excess over what backward freed
        coalesced = grad_bytes / mp
        acc.say(VramCode.ddp_after_backward)
    elif sh == Sharding.ddp and dp > 1:
        # torch DDP copies gradients into all-reduce buckets unless
        # gradient_as_bucket_view=True (PyTorch DDP docs): one more gradient-sized buffer.
        acc.add(Component.ddp_buckets, grad_bytes / mp)
        acc.say(VramCode.ddp_buckets)
    if params_gathered and shape is not None:
        acc.sharded_params = True
        _gathered(model, shape, req, p, sh, tp, mp, half, acc)
    if sh in (Sharding.zero1, Sharding.zero2, Sharding.zero3, Sharding.fsdp) and shape is not None:
        _comm_buckets(shape, sh, trainable_params, tp, mp, half, acc, fp32=fp32 and req.mode in (Mode.full, Mode.pretrain))
    if sh != Sharding.none and sh != Sharding.ddp:
        acc.say(VramCode.sharded, sharding=sh, dp=dp, tp=tp, pp=pp)
    if mp > 1:
        acc.say(VramCode.model_parallel, ranks=mp)

    # torch autocast runs the forward (and so the loss) under HF Trainer / accelerate mixed precision: 16-bit compute
    # over fp32 master weights or fp32 adapters, without DeepSpeed (which casts the model and runs no autocast)
    autocast = not fp32 and not pure_half and not deepspeed
    if req.autocast is not None and not fp32:
        # stated: HF Trainer's bf16/fp16=True autocasts the forward over 16-bit weights too (accelerate's
        # prepare_model wraps model.forward in torch.autocast whenever mixed precision is set, whatever the
        # parameters' dtype; ms-swift select_dtype passes bf16=True for a bf16 model); a plain loop does not
        autocast = req.autocast
        acc.say(VramCode.autocast_stated, autocast=autocast)
    recast = req.kbit_recast_bf16  # the LM head back in bf16: autocast needs no copy of it
    if autocast and req.kbit_prepare and not recast and req.mode in (Mode.lora, Mode.qlora) and _is_quantised(p) \
            and shape is not None:
        # autocast casts the upcast fp32 LM head to 16-bit for its matmul, and autograd keeps that copy for the input's
        # gradient (the weight is frozen, so autocast's cast cache, which holds only leaves that require grad, misses)
        acc.add(Component.autocast_copies, shape.vocab * shape.hidden * 2.0 / tp, half)
    _training_activations(model, shape, req, p, seq, dec_seq, ckpt, tp, pp, flash, _regime(p, amp), autocast, acc)
    foreach = req.foreach_step and req.optimizer == Optimizer.adamw and not deepspeed and not offload
    # Stated (VramRequest.grads_to_none, asked of tools/schemas.py this round): the trainer frees the gradients after
    # each step (torch >= 2.0: Module.zero_grad / Optimizer.zero_grad default set_to_none=True; HF Trainer calls
    # model.zero_grad() after optimizer.step(); torchtitan optimizers.zero_grad()), so backward starts without them
    # and each .grad is allocated as its layer's backward ends (AccumulateGrad) while the activations are freed.
    # DeepSpeed keeps its own gradient buffers, so it never applies there.
    grads_freed = req.grads_to_none and not deepspeed \
        and req.mode in (Mode.full, Mode.pretrain)
    if foreach or grads_freed:
        buffer = trainable_params / mp / shard_opt * (2.0 if pure_half else 4.0) if foreach else 0.0
        _after_backward(buffer, 2.0 if pure_half else 4.0, foreach, grads_freed, acc)
    if main_grads_at_step > 0 or coalesced > 0:
        _after_backward_copies(main_grads_at_step, coalesced, acc)
    if offload and sh == Sharding.fsdp and grad_bytes > 0 and req.fsdp_grads_to_cpu_per_unit:
        # Stated (`VramRequest.fsdp_grads_to_cpu_per_unit`): fairscale's FSDP (fairscale/nn/data_parallel/
        # fully_sharded_data_parallel.py `_post_reduction_hook`, and at world size 1 `_post_backward_hook` calls it
        # directly) copies each unit's reduced gradient into the pinned `_cpu_grad` and repoints it there
        # (`param.grad.data = param._cpu_grad`) as the unit's backward ends: only the unit in flight is on the GPU,
        # which `comm_buckets` already counts
        acc.say(VramCode.offload_grads_per_unit)
    elif offload and sh == Sharding.fsdp and grad_bytes > 0:
        _offload_grad_staging(grad_bytes / mp / shard_grad, acc)


def _after_backward_copies(main: float, coalesced: float, acc: _Acc) -> None:
    """What a 16-bit model's trainer allocates once backward has freed the activations: the gradient all-reduce's
    coalesced copy (`coalesced`, `VramCode.ddp_after_backward`), then, freed before it, the fp32 main gradients the step
    makes (`main`, stated by `VramRequest.main_grads_at_step`): Megatron-LM's Float16OptimizerWithFloat16Params.step
    makes them (`_copy_model_grads_to_main_grads`: `main_param.grad = model_param.main_grad.float()`,
    megatron/optimizer/optimizer.py at d63c254 line 623) after forward_backward_func and the all-reduce, and train_step's
    `optimizer.zero_grad()` frees them (set_to_none=True over fp32_from_float16_groups, line 581) before the next
    forward. The two never coexist, so the larger of them, beyond what the step already holds there
    (`optimizer_step`), counts only in its excess over backward's short-lived tensors (activations, logits)."""
    transient = sum(v for c, v in acc.parts.items() if c in TRANSIENT)
    already = acc.parts.get(Component.optimizer_step, 0.0)
    after = max(main, coalesced)
    counted = max(0.0, max(0.0, after + already - transient) - already)
    if main > 0:
        acc.add(Component.gradient_partition, counted, Precision.fp32)
        acc.say(VramCode.main_grads_at_step, main_gib=round(main / GIB, 3), counted_gib=round(counted / GIB, 3))
    else:
        acc.add(Component.ddp_buckets, counted)


def _offload_grad_staging(staged: float, acc: _Acc) -> None:
    """FSDP's CPU offload keeps each unit's reduce-scattered gradient shard on the GPU until backward ends.

    torch FSDP (FullyShardedDataParallel, the FlatParameter implementation) with CPUOffload(offload_params=True), read
    in torch 2.13.0 (this project's venv), torch/distributed/fsdp/_runtime_utils.py, the same code paths as the
    pytorch/pytorch copies of 2.1-2.5 in the code index: `_post_backward_hook` runs `_reduce_grad` inside
    `state._device_handle.stream(state._post_backward_stream)` (line 755); `_get_reduce_scatter_tensors` allocates the
    shard there (`new_sharded_grad = torch.empty_like(chunks[0])`, line 901), `_cast_grad_to_param_dtype` casts it to
    the parameter's dtype (line 1048), `_accumulate_sharded_grad` keeps it as `flat_param._saved_grad_shard` (line 926)
    and `_offload_grad` only copies it into the pinned `_cpu_grad` (line 985). The GPU shard is dropped at the end of
    backward, by `_finalize_params` → `FlatParamHandle.prepare_gradient_for_optim` (_flat_param.py line 1720:
    `delattr(flat_param, "_saved_grad_shard")`). So at the end of backward the GPU holds the whole gradient shard
    (`staged`: trainable params / dp in the parameter's dtype) beside the root unit, while the activations, freed as
    backward goes, are gone: the sum of a growing and a shrinking term peaks at its ends, and the live tensors count
    only in their excess over what the loss's moment holds. The shards are allocated on the post-backward stream, whose
    cached blocks the caching allocator keeps for that stream (c10/cuda/CUDACachingAllocator.cpp
    DeviceCachingAllocator::get_free_block: `if (it == pool.blocks.end() || (*it)->stream != p.stream()) return
    false;`, a free block serves only an allocation on its own stream), so the blocks the activations free on the
    compute stream cannot serve them, and both stay reserved from step to step: the rest of the shard counts as that
    stream's pool (`_Acc.reclaimable` → `VramEstimate.reclaimable_gib`, reserved memory, not allocated). The allocator returns cached blocks when a cudaMalloc
    fails (`release_cached_blocks` and retry), so on a card that would run out the pool shrinks instead."""
    transient = sum(v for c, v in acc.parts.items() if c in TRANSIENT)
    live_end = staged + acc.parts.get(Component.gathered_embeddings, 0.0)  # the root unit stays whole until then
    excess = max(0.0, live_end - transient)
    live = min(staged, excess)
    acc.add(Component.grad_shards_staged, live, None)
    acc.reclaimable += staged - live
    acc.say(VramCode.offload_grad_staging, staged_gib=round(staged / GIB, 3), live_gib=round(live / GIB, 3))


def _after_backward(buffer: float, state_bytes: float, foreach: bool, grads_freed: bool, acc: _Acc) -> None:
    """What the optimizer step holds once backward has freed the short-lived tensors, against what backward holds.

    torch's multi-tensor Adam/AdamW step (torch/optim/adam.py _multi_tensor_adam): `exp_avg_sq_sqrt =
    torch._foreach_sqrt(device_exp_avg_sqs)` allocates a new tensor for every second moment of the GPU's optimizer
    partition (`buffer`), in the state dtype, before the in-place div/add/addcdiv. The step runs after backward, when
    activations, logits and gathered layers are freed, so the peak is states + max(what backward holds transiently,
    that buffer): only the excess over the short-lived tensors counts. When the gradients are freed after every step
    (`grads_freed`), backward holds them only as the activations go (the sum of a growing and a shrinking term peaks at
    its ends: all activations and no gradient at the loss, all gradients at the step), so the peak is states +
    max(short-lived tensors, gradients + buffer): the gradients count only in their excess over the short-lived tensors.
    """
    transient = sum(v for c, v in acc.parts.items() if c in TRANSIENT)
    grads = acc.parts.get(Component.gradients, 0.0)
    if grads_freed and grads > 0:
        excess = max(0.0, grads + buffer - transient)  # what the step phase holds beyond the backward phase
        shown = min(grads, excess)
        acc.parts[Component.gradients] = shown
        if shown <= 0:
            del acc.parts[Component.gradients]
        acc.add(Component.optimizer_step, excess - shown, None)
        acc.say(VramCode.grads_after_backward, gradients_gib=round(grads / GIB, 3), counted_gib=round(shown / GIB, 3))
    else:
        acc.add(Component.optimizer_step, max(0.0, buffer - transient), None)
    if foreach:
        acc.say(VramCode.foreach_step, buffer_bytes_per_param=state_bytes,
                over_transient=(grads if grads_freed else 0.0) + buffer > transient)


def _gathered(model: ModelSpec, shape: Shape, req: VramRequest, p: Precision, sh: Sharding, tp: int, mp: int,
              half: Precision, acc: _Acc) -> None:
    """What ZeRO-3 / FSDP hold unsharded on each GPU while they compute."""
    # ZeRO-3/FSDP all-gather one layer at a time and prefetch the next (FSDP BACKWARD_PRE; DeepSpeed's
    # stage3_prefetch_bucket_size): 2 layers' params at the compute width (16-bit; the quantised size for a
    # 4/8-bit LoRA base, whose packed storage is what is gathered)
    quantised_base = req.mode in (Mode.lora, Mode.qlora) and _is_quantised(p)
    # fp32 training gathers fp32: without a MixedPrecision policy FSDP all-gathers the flat parameter in its own dtype
    # (torch/distributed/fsdp/_flat_param.py FlatParamHandle: `_full_param_padded` and the unsharded gradient are
    # allocated like flat_param; the reduce-scatter runs in the gradient's dtype), and ZeRO-3 over an fp32 model
    # gathers its fp32 partitions
    dense = FP32 if p in (Precision.fp32, Precision.tf32) else 2.0
    dense_precision = Precision.fp32 if dense == FP32 else half
    width = weight_bytes_per_param(p, req.mode) if quantised_base else dense
    acc.add(Component.gathered_layers, 2 * layer_params(shape) * width / mp, p if quantised_base else dense_precision)
    # The embeddings stay 16-bit under every quantiser; in full training their gradient is computed whole too.
    trainable = req.mode in (Mode.full, Mode.pretrain)
    per_param = dense + (dense if trainable else 0.0)
    if sh == Sharding.fsdp:
        # FSDP's root unit holds what no wrapped decoder layer does: the embeddings, the final norm and the LM head
        # (HF/accelerate TRANSFORMER_BASED_WRAP). The root is gathered at the start of forward and, being the root,
        # not freed before backward (torch.distributed.fsdp._runtime_utils._post_forward_reshard:
        # free_unsharded_flat_param = not state._is_root and …), so it is whole for the entire step. A vision
        # transformer wrapped per EncoderBlock (transformer_auto_wrap_policy) leaves the patch embedding, class token,
        # position embedding, final norm and head to the root: what lies outside the blocks.
        params = outside_block_params(model, shape)
    else:
        # DeepSpeed ZeRO-3: largest_layer_memory = 4 × largest_layer_params, "2 bytes fp16 params are gathered and
        # 2 bytes fp16 grads are computed" (DeepSpeed "Memory Requirements" docs); for an LLM the largest module is
        # the embedding table or the LM head; for a vision transformer (no vocabulary) the widest linear layer.
        params = float(shape.hidden * max(shape.intermediate, 3 * shape.hidden)) if is_vision_transformer(model) \
            else largest_module_params(shape)
    acc.add(Component.gathered_embeddings, params * per_param / tp, dense_precision)
    acc.say(VramCode.gathered_embeddings, sharding=sh, params=params, with_grads=trainable)


def _comm_buckets(shape: Shape, sh: Sharding, trainable: float, tp: int, mp: int, half: Precision, acc: _Acc,
                  fp32: bool = False) -> None:
    """Gradient communication buffers of sharded data parallelism (16-bit, fp32 in fp32 training; never more than the
    trainable params)."""
    if sh == Sharding.fsdp:
        # FSDP reduce-scatters each unit's gradient: one decoder layer's unsharded 16-bit gradient while the next
        # layer computes (torch FSDP post-backward hook: the unsharded grad lives until its reduce-scatter ends)
        elements = min(layer_params(shape), trainable / shape.layers)
    else:
        # DeepSpeed reduces gradients through buckets of reduce_bucket_size elements; HF Trainer's "auto" sets it to
        # hidden_size² (transformers integrations/deepspeed.py) and overlap_comm (on in the HF/PEFT example configs)
        # double-buffers them: 2 buckets
        elements = min(2 * shape.hidden * shape.hidden, trainable)
    acc.add(Component.comm_buckets, elements * (FP32 if fp32 else 2) / mp, Precision.fp32 if fp32 else half)
    acc.say(VramCode.comm_buckets, sharding=sh, grad_params=elements)


def _input_embedding_params(shape: Shape) -> float:
    """Parameters of the input embedding table (vocab × hidden): the nn.Embedding a trainer sees."""
    return float(shape.vocab * shape.hidden)


def _opt_state_bytes(opt: Optimizer, half: bool, params: float, embedding: float, acc: _Acc) -> float:
    """Optimizer-state bytes for `params` trainable parameters, `embedding` of them in an nn.Embedding."""
    if opt == Optimizer.adamw8bit and embedding > 0:
        acc.say(VramCode.adamw8bit_embeddings, embedding_params=embedding)
        # the embedding's states: AdamW's two fp32 moments, 2 × 4 B
        return (params - embedding) * _opt_bytes(opt, half, acc) + embedding * 8.0
    return params * _opt_bytes(opt, half, acc)


def _opt_bytes(opt: Optimizer, half: bool, acc: _Acc) -> float:
    """Optimizer state bytes per trainable parameter."""
    if opt == Optimizer.adamw:
        # Adam keeps two moments (m, v): 2 × 4 B in fp32, 2 × 2 B in pure 16-bit training
        acc.say(VramCode.adamw, half=half)
        return 4.0 if half else 8.0
    if opt == Optimizer.adamw8bit:
        # bitsandbytes 8-bit Adam: m and v as 1-byte blockwise-quantised codes (Dettmers et al. 2022)
        acc.say(VramCode.adamw8bit)
        return 2.0
    if opt == Optimizer.adafactor:
        # HF "Methods and tools for efficient training on a single GPU": Adafactor
        # "uses slightly more than 4 bytes" per param (factored second moment + update buffers)
        acc.say(VramCode.adafactor)
        return 4.0
    # SGD with momentum: one momentum buffer in the parameter dtype
    acc.say(VramCode.sgd, half=half)
    return 2.0 if half else 4.0


def _score_bytes(style: LayerStyle, reg: _Regime) -> int:
    """Bytes eager attention keeps per a·s score element: the softmax output (fp32 where the implementation
    or autocast upcasts it), the dropout mask, and the tensor the P·V matmul keeps when it is not the
    softmax output itself (a dropout output or a 16-bit cast).

    Korthikanti's 16-bit GPT block: 2 + 1 + 2 = 5; HF BERT under AMP: 4 + 1 + 2 = 7; BERT in fp32: 4 + 1 + 4 = 9;
    HF Llama eager (softmax(dtype=float32).to(dtype), no dropout): 4 + 0 + 2 = 6; T5 (softmax(scores.float())): 7.
    """
    soft = FP32 if (style.fp32_softmax or reg.cast_per_linear or reg.compute == FP32) else reg.compute
    mask = DROPOUT_MASK_BYTES if style.dropout else 0
    feed = reg.compute if (style.dropout or soft != reg.compute) else 0
    return soft + mask + feed


def _token_bytes(s: Shape, style: LayerStyle, reg: _Regime, seq: int, tp: int, scores: bool) -> float:
    """Bytes one layer (attention + MLP) keeps for backward per token (Korthikanti eq. 1-2, tensor by tensor)."""
    h, i = s.hidden, s.intermediate
    q_dim, kv_dim = s.heads * s.head_dim, s.kv_heads * s.head_dim
    c, mask = reg.compute, (DROPOUT_MASK_BYTES if style.dropout else 0)
    norm = reg.stream + (RMS_UPCAST_BYTES if style.norm == "rms" else 0)  # LayerNorm keeps just its input
    # attention: its input (one shared 16-bit tensor, or under AMP a cast per q/k/v projection), the residual
    # dropout mask and the norm are replicated over TP ranks; Q, K, V and the output-projection input split
    attn_repl = (3 if reg.cast_per_linear else 1) * c * h + mask * h + norm * h
    attn_split = c * (q_dim + 2 * kv_dim) + c * q_dim
    # MLP: its input (under AMP one cast per input projection: gate and up, or fc1), mask, norm; the wide tensors
    n_in = (2 if s.gated_mlp else 1) if reg.cast_per_linear else 1
    mlp_repl = n_in * c * h + mask * h + norm * h
    mlp_split = (4 if s.gated_mlp else 2) * c * i * s.active_experts
    per_token = attn_repl + mlp_repl + (attn_split + mlp_split) / tp
    if scores:
        per_token += _score_bytes(style, reg) * s.heads * seq / tp
    return per_token


def _cross_bytes(s: Shape, style: LayerStyle, reg: _Regime, dec_seq: int, enc_seq: int, tp: int, scores: bool) -> float:
    """Bytes a decoder layer's cross-attention block keeps for one sequence: per decoder token its input, mask and
    norm, Q and the output-projection input, the scores over the encoder's tokens; per encoder token K and V."""
    h = s.hidden
    q_dim, kv_dim = s.heads * s.head_dim, s.kv_heads * s.head_dim
    c, mask = reg.compute, (DROPOUT_MASK_BYTES if style.dropout else 0)
    norm = reg.stream + (RMS_UPCAST_BYTES if style.norm == "rms" else 0)
    per_dec = (2 if reg.cast_per_linear else 1) * c * h + mask * h + norm * h + 2 * c * q_dim / tp
    if scores:
        per_dec += _score_bytes(style, reg) * s.heads * enc_seq / tp
    return per_dec * dec_seq + 2 * c * kv_dim / tp * enc_seq


def _layers_activation_bytes(s: Shape, style: LayerStyle, reg: _Regime, seq: int, b: int, tp: int,
                             scores: bool, dec_seq: int | None = None) -> tuple[float, float]:
    """(all layers, the largest single layer) bytes kept for backward at sequence `seq` and micro-batch `b`;
    an encoder-decoder's decoder layers run over `dec_seq` tokens (default: `seq`) with cross-attention to `seq`."""
    plain = _token_bytes(s, style, reg, seq, tp, scores) * seq * b
    if not s.encoder_decoder:
        return plain * s.layers, plain
    dec_seq = dec_seq or seq
    decoder = (_token_bytes(s, style, reg, dec_seq, tp, scores) * dec_seq
               + _cross_bytes(s, style, reg, dec_seq, seq, tp, scores)) * b
    return plain * (s.layers - s.decoder_layers) + decoder * s.decoder_layers, max(plain, decoder)


def _regime(p: Precision, amp: bool) -> _Regime:
    if p in (Precision.fp32, Precision.tf32):
        return FULL32
    return AMP if amp else HALF


def _training_activations(model: ModelSpec, shape: Shape | None, req: VramRequest, p: Precision, seq: int,
                          dec_seq: int, ckpt: Checkpointing, tp: int, pp: int, flash: bool, reg: _Regime,
                          autocast: bool, acc: _Acc) -> None:
    b = req.batch_size
    if shape is not None and is_vision_transformer(model):
        _vit_activations(shape, seq, b, ckpt, tp, flash, reg, p, acc)
        _dense_logits(req, acc)
        return
    if model.activation_profile is not None:
        prof = model.activation_profile
        acc.add(Component.activations, prof.bytes_per_sample * b)
        acc.say(VramCode.profile_training, reference=prof.reference, source=prof.source, batch_size=b)
        if ckpt != Checkpointing.none:
            acc.say(VramCode.profile_no_checkpointing)
        return
    assert shape is not None
    style = layer_style(model)
    if style.dropout:
        acc.say(VramCode.dropout_masks, family=model.family)
    if reg is AMP:
        acc.say(VramCode.amp_activations)
    option = _ac_option(req) if ckpt == Checkpointing.selective else None
    if option == 1:  # every layer wrapped in checkpoint_wrapper: full recomputation's count
        ckpt, option = Checkpointing.full, None
    # torch op-level / layer-level selective checkpointing recompute the scores with everything else they drop, so
    # they keep no score tensor whatever the attention kernel; Korthikanti's selective recomputation drops exactly them
    scores = not (flash or ckpt == Checkpointing.selective)
    every, largest = _layers_activation_bytes(shape, style, reg, seq, b, tp, scores, dec_seq)
    if option is not None and not shape.encoder_decoder:
        # the layer's full working set is what its recomputation rebuilds in backward (scores under eager attention)
        _, largest = _layers_activation_bytes(shape, style, reg, seq, b, tp, not flash, dec_seq)
    # With 1F1B pipeline schedules the first stage holds pp micro-batches of L/pp
    # layers: L layers' worth regardless of pp (Korthikanti et al. §4.2.3).
    if pp > 1:
        acc.say(VramCode.pipeline_activations)
    acc.regime = reg
    act = Precision.fp32 if reg is FULL32 else _half(p)
    logits = 0.0
    if model.kind == ModelKind.encoder and req.mode != Mode.pretrain:
        acc.say(VramCode.encoder_head)
    else:
        upcast = req.logits_upcast  # None: the family's HF loss decides
        # PEFT's prepare_model_for_kbit_training casts every fp16/bf16 parameter that is not a Params4bit to fp32, the
        # LM head included (bitsandbytes leaves the output embedding unquantised), for bitsandbytes bases (peft
        # 5d602fdbf src/peft/utils/other.py lines 197-209: "cast all non INT8 parameters to fp32"; its docstring: "Add
        # the upcasting of the lm head to fp32"). The head's input is fp32 too (LlamaRMSNorm returns
        # `self.weight * hidden_states.to(input_dtype)` with an fp32 weight), and transformers' causal-LM forward runs
        # `logits = self.lm_head(hidden_states[:, slice_indices, :])` with no cast (models/llama/modeling_llama.py
        # LlamaForCausalLM.forward, read in the code index's copies; 4.49, the sixth round's rows' version, was not
        # read itself): with no autocast (which would run the matmul in 16-bit) and no recast of the head to bf16
        # (TRL's peft_module_casting_to_bf16) the logits are fp32, and so is the loss over them.
        head_fp32 = _kbit_upcasts(req, p) and not req.kbit_recast_bf16 and not autocast
        per_logit, fp32_loss = _logit_bytes(style, reg, autocast, req.chunked_loss, upcast, req.vocab_parallel_loss,
                                            head_fp32=head_fp32, output_kept=req.output_kept)
        if model.kind == ModelKind.encoder and not (req.vocab_parallel_loss or req.chunked_loss):
            # a masked-LM head scores every position (`layer_style`: no upcast, no shifted copy)
            acc.say(VramCode.mlm_head, bytes_per_logit=per_logit, vocab=shape.vocab, tokens=seq,
                    output_kept=req.output_kept)
        acc.logit_bytes = per_logit
        stated = {} if upcast is None or req.chunked_loss else {"upcast_stated": upcast}
        if req.vocab_parallel_loss:
            stated = {"vocab_parallel": True}
        acc.say(VramCode.logits, bytes_per_logit=per_logit, chunked=req.chunked_loss, fp32_loss=fp32_loss, **stated)
        out_tokens = dec_seq if shape.encoder_decoder else seq  # the LM head runs over the decoder's tokens
        logits = per_logit * out_tokens * b * shape.vocab / tp
    if option is not None and not shape.encoder_decoder:
        tokens = seq * b
        if option == "op":
            # torchtitan's op-level selective AC (torchtitan/parallelisms/parallelize_llama.py at 9dec370, _save_list
            # and _custom_policy): every layer keeps what the policy saves; the rest is recomputed in backward
            saved = _op_sac_token_bytes(shape, reg, tp, flash) * tokens * shape.layers
            acc.say(VramCode.sac_op, bytes_per_token=round(saved / tokens / shape.layers), layers=shape.layers,
                    framework="torchtitan")
        else:
            # torchtitan's layer-level selective AC, selective_ac_option N (parallelize_llama.py at 9dec370: a layer is
            # wrapped in checkpoint_wrapper when its running count % N == 0): every N-th layer keeps only its input,
            # the others keep all their activations
            wrapped = shape.layers // option
            per_layer = every / shape.layers
            saved = per_layer * (shape.layers - wrapped) + reg.stream * tokens * shape.hidden * wrapped
            acc.say(VramCode.sac_layers, every=option, checkpointed_layers=wrapped, layers=shape.layers,
                    framework="torchtitan")
        acc.add(Component.activations_checkpointed, saved, act)
        # backward recomputes one layer at a time after the loss buffers are freed (as for full recomputation below)
        acc.add(Component.activations_recomputed, max(0.0, largest - logits), act)
        acc.say(VramCode.recompute_after_loss, loss_larger=logits >= largest)
    elif ckpt == Checkpointing.full:
        # each layer's input (one residual-stream tensor), plus an encoder-decoder's encoder output that every
        # decoder layer's cross-attention reads; then one layer recomputed.
        if shape.encoder_decoder:  # encoder layers and the encoder output over seq, decoder layers over dec_seq
            kept_tokens = (shape.layers - shape.decoder_layers + 1) * seq + shape.decoder_layers * dec_seq
        else:
            kept_tokens = shape.layers * seq
        acc.add(Component.activations_checkpointed, reg.stream * kept_tokens * b * shape.hidden, act)
        # The loss buffers and the recomputed layer are held one after the other: autograd runs the loss's nodes
        # (nll_loss, log_softmax, the fp32 cast, the LM head) first and frees each node's saved tensors and the
        # logit-sized gradients as it goes (torch/csrc/autograd/engine.cpp: saved variables released after a node runs
        # unless retain_graph), and only then reaches the last checkpointed layer, whose unpack hook recomputes it
        # (torch/utils/checkpoint.py, _checkpoint_hook.unpack). So only the recomputed layer's excess over the loss
        # buffers adds to the peak (the larger of the two counts).
        # The recomputed layer's own backward holds, beside its saved tensors, the gradients it computes; those of
        # eager attention are score-sized (the P·V matmul's grad of the probabilities, the grad through the fp32 cast,
        # the softmax's backward result) while the softmax's saved output is still held: counted as one more score-sized
        # set of the saved element sizes (the per-token gradients of a layer are small beside the layer).
        if scores:
            largest += _score_bytes(style, reg) * shape.heads * seq * seq * b / tp
        acc.add(Component.activations_recomputed, max(0.0, largest - logits), act)
        acc.say(VramCode.recompute_after_loss, loss_larger=logits >= largest)
    else:
        acc.add(Component.activations, every, act)
    acc.add(Component.logits, logits)


def _vit_activations(s: Shape, seq: int, b: int, ckpt: Checkpointing, tp: int, flash: bool, reg: _Regime,
                     p: Precision, acc: _Acc) -> None:
    """A vision transformer's saved tensors, block by block (`_vit_token_bytes`), for `seq` tokens (patches + class
    token) per image. Under full recomputation (torch.utils.checkpoint around each block: Lightning's
    `activation_checkpointing=EncoderBlock`, timm's `set_grad_checkpointing`) each block keeps only its input, one
    residual-stream tensor, and backward recomputes one block at a time. Outside the blocks only the final LayerNorm's
    input is kept per token (the patch-embedding convolution's input, 3·16² values per patch, and the head over the
    class token alone are left out: under 1 % of one block). The classification loss runs over the class token's few
    logits: not counted."""
    tokens = seq * b
    per_block = _vit_token_bytes(s, reg, tp, flash, seq) * tokens
    final_norm = reg.stream * s.hidden * tokens
    act = Precision.fp32 if reg is FULL32 else _half(p)
    acc.regime = reg
    if ckpt == Checkpointing.full:
        acc.add(Component.activations_checkpointed, reg.stream * s.hidden * tokens * s.layers + final_norm, act)
        acc.add(Component.activations_recomputed, per_block, act)
    else:
        if ckpt not in (Checkpointing.none, Checkpointing.full):  # selective: no ViT recipe's policy is known
            acc.say(VramCode.vit_checkpointing_as_none, checkpointing=ckpt.value)
        acc.add(Component.activations, per_block * s.layers + final_norm, act)
    acc.say(VramCode.vit_blocks, bytes_per_token=round(per_block / tokens), layers=s.layers, tokens=seq,
            checkpointed=ckpt == Checkpointing.full, attention="flash" if flash and reg.compute != FP32
            else "mem_efficient" if flash else "explicit")


def _dense_logits(req: VramRequest, acc: _Acc) -> None:
    """A dense-prediction head's per-pixel loss, as `VramRequest.dense_classes` / `dense_label_pixels` /
    `dense_loss_heads` state it (a semantic-segmentation head on a vision transformer: mmsegmentation's decode heads).

    mmsegmentation 0.x `BaseDecodeHead.losses` (mmseg/models/decode_heads/decode_head.py, the version of the
    mmsegmentation rows; read in the code index's copies of it) runs `seg_logit = resize(input=seg_logit,
    size=seg_label.shape[2:], mode='bilinear', ...)`, then `self.loss_decode(seg_logit, seg_label, ...)` and
    `accuracy(seg_logit, seg_label)`, under `@force_fp32(apply_to=('seg_logit',))`: the logits are fp32 at the label's
    resolution whatever the head computed them at. `CrossEntropyLoss` (mmseg/models/losses/cross_entropy_loss.py) calls
    `F.cross_entropy(pred, label, reduction='none', ...)`, which is `nll_loss(log_softmax(input, 1), ...)` (torch 1.x
    torch/nn/functional.py): log_softmax saves its fp32 output (classes x pixels) for backward; the upsampled logits
    themselves are freed when `losses` returns (bilinear upsampling's backward needs only the sizes). Each head with a
    loss (the decode head and every auxiliary head: `auxiliary_head` in the configs; SETR's has three) keeps its own
    saved output until backward reaches it; backward starts at the losses while every block's activations are still
    held, and for the head it runs first it makes nll_loss's input gradient and log_softmax's result gradient, both of
    the logits' size, beside the saved output: (heads + 2) fp32 tensors of classes x pixels per image at the peak. The
    heads' own feature maps (1x1 convolutions, SyncBN, upsampling to 1/4 of the crop) and Segmenter's mask-transformer
    layers are not counted: no field states them."""
    if req.dense_classes is None:
        return
    maps = (req.dense_loss_heads + 2) * req.batch_size  # saved log-softmax outputs + the two gradients of one head
    per_map = FP32 * req.dense_classes * req.dense_label_pixels
    acc.add(Component.logits, maps * per_map, Precision.fp32)
    acc.say(VramCode.dense_logits, classes=req.dense_classes, pixels=req.dense_label_pixels,
            heads=req.dense_loss_heads, maps=maps)


def _vit_token_bytes(s: Shape, reg: _Regime, tp: int, flash: bool, seq: int) -> float:
    """Bytes one vision-transformer block keeps for backward per token, tensor by tensor, in each tensor's own dtype.

    torchvision's EncoderBlock (torchvision/models/vision_transformer.py: `x = ln_1(input)`, `self_attention(x, x, x,
    need_weights=False)`, `x = x + input`, `y = mlp(ln_2(x))`, `return x + y`; MLPBlock = Linear, GELU, Dropout, Linear,
    Dropout; dropout 0.0) runs torch's `F.multi_head_attention_forward`: `_in_projection_packed` computes one packed
    projection over the batch-first input seen transposed (matmul folds it into a contiguous copy, which the matmul
    saves) and makes `proj.unflatten(-1, (3, E))...contiguous()`, whose q, k, v views `scaled_dot_product_attention`
    saves with its output and its fp32 log-sum-exp (one per head and query); `attn_output.permute(2, 0, 1, 3)
    .contiguous()` feeds `out_proj`. Saved per token: ln_1's input (the residual stream), the projection's input, q/k/v
    (3·q_dim), the attention output, ln_2's input (the stream again), fc1's input, GELU's input and fc2's input (i
    each); LayerNorm keeps only per-token mean and rstd besides its input, and dropout with p = 0 returns its input
    (ATen `_dropout_impl`: `if (p == 0 || !train ...) return input`), keeping no mask. The element sizes follow the
    regime: fp32 everywhere (68h bytes per token for h = hidden, i = 4h); pure 16-bit (32h); under torch autocast
    (`AMP`) layer_norm is on autocast's fp32 list and linear, GELU's 16-bit input and SDPA (`KERNEL_CUDA(
    scaled_dot_product_attention, lower_precision_fp)`, aten/src/ATen/autocast_mode.cpp) run in 16-bit, so the two
    LayerNorm inputs and the residual stream are fp32 (the fp32 residual plus a 16-bit branch promotes to fp32) and the
    rest 16-bit, each linear keeping its own 16-bit cast of its input (36h). The SDPA backend decides one copy: the
    flash kernel (16-bit only) writes its output in the query's memory order (flash_api.cpp `out =
    torch::empty_like(q_padded)`), so the permute is already contiguous and out_proj saves a view of the attention
    output; the memory-efficient kernel, which runs fp32, allocates it batch-major (attention.cu
    `_efficient_attention_forward`: `at::empty({B, M, num_heads, Kv})`), so the permute copies (+1 tensor of q_dim);
    `flash_attention: false` is explicit attention (`_vit_explicit_attention_bytes`). Checked against the block rebuilt
    from torch.nn on the CPU (tests/test_vram_vit.py)."""
    h, i = s.hidden, s.intermediate
    q_dim = s.heads * s.head_dim
    c = reg.compute
    if flash:
        flash_kernel = c != FP32  # FlashAttention needs fp16/bf16; fp32 takes the memory-efficient kernel
        attention = 3 * c * q_dim + c * q_dim + FP32 * s.heads  # q, k, v; the output; the log-sum-exp per head
        if not flash_kernel:
            attention += c * q_dim  # out_proj's input: the permuted copy of a batch-major output
    else:
        attention = _vit_explicit_attention_bytes(s, reg, seq)
    replicated = reg.stream * h + c * h + reg.stream * h + c * h  # ln_1 in, in_proj in, ln_2 in, fc1 in
    norm_stats = 2 * 2 * FP32  # each LayerNorm's fp32 mean and rstd per token
    return replicated + norm_stats + (attention + 2 * c * i) / tp


def _vit_explicit_attention_bytes(s: Shape, reg: _Regime, seq: int) -> float:
    """Bytes per token the attention of a vision-transformer block keeps when it computes the scores explicitly
    (`flash_attention: false`): timm's `Attention` before `fused_attn` existed (timm 0.3.2, the DeiT/Mesa rows'
    version, timm/models/vision_transformer.py `Attention.forward`: `qkv = self.qkv(x).reshape(B, N, 3, H, C // H)
    .permute(2, 0, 3, 1, 4)`, `attn = (q @ k.transpose(-2, -1)) * self.scale`, `attn.softmax(dim=-1)`, `attn_drop`
    (p 0.0), `(attn @ v).transpose(1, 2).reshape(B, N, C)`, `proj`; HubHop/deit-mesa c5551a8 models.py, the Mesa rows'
    code, scales q before its first matmul, the same tensors), and torch 1.x's
    `F.multi_head_attention_forward` (`bmm(q, k.transpose(1, 2))`, `softmax`, `dropout`, `bmm(weights, v)`: the path
    nn.MultiheadAttention takes when it returns the weights, as mmcv's MultiheadAttention asks in the mmsegmentation
    rows). The matmuls save contiguous copies of q, k and v (the permuted views are reshaped into bmm's batch), the
    out-projection saves the transposed output's copy: 4 q-sized tensors, no log-sum-exp and no kernel output. Per score
    element (heads × seq per token): the softmax output, which softmax's backward and the second matmul both read; its
    dtype is fp32 under torch autocast, where softmax is on the fp32 list and its 16-bit input is upcast ("CUDA Ops that
    can autocast to float32": softmax, in torch 1.6's autocast and since; the matmuls are on the 16-bit list), and then
    the second matmul keeps its own 16-bit cast of it (4 + 2 B); in fp32 and pure 16-bit training the output is in the
    compute dtype (4, or 2 B) and is itself the matmul's input. Measured on the CPU through saved_tensors_hooks
    (tests/test_vram_vit.py: 64h + 4 B per score in fp32, 32h + 2 in bf16; CPU autocast keeps softmax in bf16, so the
    CUDA autocast case is the fp32 list's reading). torch 2.x's nn.MultiheadAttention with need_weights=True keeps one
    more q-sized tensor (68h in fp32, measured the same way), and SDPA's math backend two more (72h): neither is told
    apart by the request."""
    q_dim = s.heads * s.head_dim
    c = reg.compute
    soft = FP32 if (reg.cast_per_linear or c == FP32) else c  # softmax's output dtype (fp32 list under autocast)
    cast = c if soft != c else 0  # the second matmul's 16-bit cast of an fp32 softmax output
    return 4 * c * q_dim + (soft + cast) * s.heads * seq


def _ac_option(req: VramRequest) -> "str | int | None":
    """torchtitan's `selective_ac_option` as the request states it: "op", or N (checkpoint every N-th layer); None:
    `checkpointing` alone decides (`VramRequest.ac_option`; the schema allows it with selective checkpointing only)."""
    option = req.ac_option
    if option is None or option == "op":
        return option
    return int(option)


def _op_sac_token_bytes(s: Shape, reg: _Regime, tp: int, flash: bool) -> float:
    """Bytes per token one layer keeps under torchtitan's op-level selective AC (parallelize_llama.py at 9dec370).

    `_custom_policy` saves the outputs of the ops in `_save_list` except every second `aten.mm` (`mm_count % 2 == 0`
    is recomputed), counting the layer's matmuls in forward order: attention wq, wk, wv, wo, then the MLP's w1, w3, w2
    (torchtitan's FeedForward: w2(silu(w1(x)) * w3(x))), or fc1, fc2 for a plain MLP. So wq, wv, w1 and w2 are kept
    (the 1st, 3rd, 5th and 7th). `_scaled_dot_product_flash_attention` / `_efficient_attention` are saved whole: the
    attention output and its fp32 log-sum-exp per head. The layer's input is held by checkpoint_wrapper itself.
    """
    h, i = s.hidden, s.intermediate * s.active_experts
    q_dim, kv_dim = s.heads * s.head_dim, s.kv_heads * s.head_dim
    widths = [q_dim, kv_dim, kv_dim, h] + ([i, i, h] if s.gated_mlp else [i, h])  # matmul outputs, forward order
    kept = sum(w for n, w in enumerate(widths, start=1) if n % 2 == 1)
    attention = (reg.compute * q_dim + FP32 * s.heads) if flash else 0.0  # output + logsumexp (fp32, one per head)
    return reg.stream * h + (reg.compute * kept + attention) / tp


def _half(p: Precision) -> Precision:
    """The 16-bit format tensors are kept in: fp16 when that is the precision, else bf16."""
    return Precision.fp16 if p == Precision.fp16 else Precision.bf16


def _logit_bytes(style: LayerStyle, reg: _Regime, autocast: bool, chunked: bool,
                 upcast_stated: bool | None = None, vocab_parallel: bool = False,
                 head_fp32: bool = False, output_kept: bool = False) -> tuple[int, bool]:
    """(bytes per logit the output layer and its loss hold at the larger of their two moments, whether the loss runs in
    fp32): forward, the logits in the compute dtype (fp32 from an fp32 LM head: `head_fp32`) + their fp32 copy where
    the loss upcasts + `LOSS_FORWARD_COPIES` loss-sized tensors; backward, `LOSS_BACKWARD_COPIES` loss-sized tensors
    (HF: 14; a 16-bit loss: 6; fp32: 12), the logits once more at the backward moment where the step keeps its output
    through backward (`output_kept`); a masked-LM head (no upcast, no shifted copy: `LayerStyle.shift_copy`) under
    autocast 10 (`_autocast_loss_bytes`) and in fp32 12, or 12 and 16 with the output kept."""
    if chunked:
        return LOGITS_BYTES_CHUNKED, True
    if vocab_parallel:
        # Megatron-LM's loss (megatron/model/gpt_model.py at 8aa4619 line 60:
        # `mpu.vocab_parallel_cross_entropy(output.float(), labels)`; megatron/mpu/cross_entropy.py): forward holds the
        # 16-bit logits and their fp32 copy, in which the max is subtracted, exp taken and the softmax divided in place
        # (`sub_`, `torch.exp(..., out=exp_logits)`, `div_`) and saved for backward; backward turns that saved softmax
        # into the gradient in place (`grad_input = softmax`, `mul_`) and the `.float()` casts it back to a 16-bit
        # gradient: 16-bit + fp32 at both moments (6 B per logit; 4 in fp32 training, where `.float()` returns the
        # logits themselves). The logits are vocab-parallel, so the caller's split over TP ranks applies.
        return FP32 + (reg.compute if reg.compute != FP32 else 0), True
    # stated: a loss written in the training script decides, not the family's current HF implementation
    # (LLMs-from-scratch ch05/10_llm-training-speed/01_opt_single_gpu.py calc_loss_batch: cross_entropy on the bf16
    # logits; ColossalAI-Pytorch-lightning benchmark/gpt/model.py GPTLMLoss on GPT2LMHeadModel's fp16 logits)
    model_upcasts = style.fp32_logits if upcast_stated is None else upcast_stated
    compute = FP32 if head_fp32 else reg.compute  # the logits' dtype: the head's compute dtype
    shift = 1 if style.shift_copy else 0  # the shifted .contiguous() copy of a causal LM's loss (`LOSS_FORWARD_COPIES`)
    held = compute if output_kept else 0  # the logits themselves, kept through backward by the step (`output_kept`)
    if model_upcasts or compute == FP32:
        # `logits.float()` (a new tensor only over 16-bit logits), then cross_entropy in fp32
        upcast = FP32 if compute != FP32 else 0
        forward = compute + upcast + (shift + 1) * FP32
        return max(forward, LOSS_BACKWARD_COPIES * FP32 + held), True
    if autocast and not style.shift_copy:
        # a masked-LM head's cross_entropy under autocast (`_autocast_loss_bytes`): log-softmax in the logits' dtype,
        # nll_loss over an fp32 copy of it. The same ATen path serves a causal LM that does not upcast (Qwen (v1), T5)
        # under autocast, but its rows keep the earlier count (below) until a round checks them: the 45 Qwen rows of
        # the calibration files would move by up to -15 points (benchmarks/accuracy.md, formula round 11)
        return _autocast_loss_bytes(compute, shift, held), True
    if autocast:
        # the earlier count for an autocast loss over logits the model does not upcast: an fp32 copy, then the loss
        # tensors in fp32 (`LOSS_FORWARD_COPIES`, `LOSS_BACKWARD_COPIES`)
        return max(compute + FP32 + (shift + 1) * FP32, LOSS_BACKWARD_COPIES * FP32 + held), True
    forward = compute + (shift + 1) * compute  # a loss in the logits' own 16-bit dtype
    return max(forward, LOSS_BACKWARD_COPIES * compute + held), False


def _autocast_loss_bytes(compute: int, shift: int, held: int) -> int:
    """Bytes per logit of torch cross_entropy under CUDA autocast over 16-bit logits that the model does not upcast.

    ATen's `cross_entropy_loss` (aten/src/ATen/native/LossNLL.cpp) runs `at::nll_loss_nd(at::log_softmax(self,
    class_dim, self.scalar_type()), ...)`: it passes the logits' own dtype to log_softmax, and autocast's
    fp32_set_opt_dtype policy for log_softmax (aten/src/ATen/autocast_mode.h: "if the output type is already set,
    don't touch it, otherwise, set it to at::kFloat") leaves it so, so log-softmax runs and saves its output in the
    16-bit dtype; nll_loss is on autocast's fp32 list (AT_FORALL_FP32), so autocast casts that output to an fp32 copy,
    which nll_loss_forward saves for its backward (tools/autograd/derivatives.yaml: `self: nll_loss_backward(grad,
    self, ...)`). Forward holds the logits, the shifted copy where the loss shifts, log-softmax's output and the fp32
    copy; backward starts with nll_loss's fp32 input gradient beside both saved tensors (log-softmax's own 16-bit
    gradient comes after the fp32 copy and gradient are freed: 3 x 16-bit then), plus the logits where the step keeps
    them (`held`): 2 + 4 + 4 = 10 B over 16-bit logits, 12 B held."""
    forward = compute + shift * compute + compute + FP32
    backward = compute + 2 * FP32 + held
    return max(forward, backward, 3 * compute + held)


def _formula(model: ModelSpec, shape: Shape | None, req: VramRequest, ckpt: Checkpointing, flash: bool,
             reg: "_Regime | None", logit_bytes: int | None) -> list[Note]:
    """Which formulas the estimate used (rendered with their citations by tools/messages/vram.py)."""
    if req.mode != Mode.inference and shape is not None and is_vision_transformer(model):
        return [Note.of(FormulaCode.vit_blocks, stream=(reg or HALF).stream, compute=(reg or HALF).compute,
                        recompute=ckpt == Checkpointing.full)]
    if model.activation_profile is not None:
        return [Note.of(FormulaCode.profile, source=model.activation_profile.source)]
    out = [Note.of(FormulaCode.kv_cache)] if req.mode == Mode.inference else []
    reg = reg or HALF
    style = layer_style(model)
    dropout = style.dropout and req.mode != Mode.inference
    gated = shape.gated_mlp if shape is not None else True
    scores = not (flash or ckpt == Checkpointing.selective)
    score = _score_bytes(LayerStyle(style.norm, dropout, style.fp32_softmax, style.eager_only), reg) if scores else 0
    inputs = reg.compute * ((3 + (2 if gated else 1)) if reg.cast_per_linear else 2)
    out.append(Note.of(
        FormulaCode.activations, inputs=inputs, norm=reg.stream + (RMS_UPCAST_BYTES if style.norm == "rms" else 0),
        masks=2 * DROPOUT_MASK_BYTES if dropout else 0, qkv=2 * reg.compute, mlp=(4 if gated else 2) * reg.compute,
        scores=score, cross=bool(shape is not None and shape.encoder_decoder),
    ))
    if flash:
        out.append(Note.of(FormulaCode.flash))
    if req.mode != Mode.inference and ckpt == Checkpointing.full:
        out.append(Note.of(FormulaCode.recompute, stream=reg.stream))
    if req.mode != Mode.inference and logit_bytes is not None:
        out.append(Note.of(FormulaCode.logits, bytes_per_logit=logit_bytes, fused_bytes=LOGITS_BYTES_CHUNKED))
    return out
