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
mixed precision, DeepSpeed ZeRO    2       2      4 master + 8       16   (ZeRO paper §3.1: 2+2+12)
pure 16-bit (--master-weights none) 2      2      4 (bf16 m, v)      8
fp32 / tf32                        4       4      8                  16
LoRA adapters (PEFT, fp32)         4       4      8                  16   (frozen base: weights only)
=================================  ======  =====  =================  =====

8-bit Adam 2 B, Adafactor 4 B, SGD momentum 4 B replace the optimizer column. Every constant is commented where it is used and
every default that was assumed is listed in `VramEstimate.assumptions`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from tools.domain import (
    GIB,
    AttentionType,
    Checkpointing,
    GPU,
    LoraTargets,
    MasterWeights,
    Mode,
    ModelKind,
    ModelSpec,
    Offload,
    Optimizer,
    Precision,
    Sharding,
)
from tools.errors import InputError
from tools.schemas import GpuFit, VramEstimate, VramRequest
from tools.vram_shape import (
    Shape,
    layer_params,
    lora_trainable_params,
    model_from_params,
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

# --- activations (Korthikanti et al. 2022, "Reducing Activation Recomputation
# in Large Transformer Models", arXiv:2205.05198, §4.1 eq. 1-2) --------------
# The paper counts, per layer and 16-bit activations, 34·s·b·h + 5·a·s²·b bytes
# for a GPT block: attention 11sbh (QKV input 2, Q and K 4, V 2, output-proj
# input 2, dropout mask 1) + 5as²b (scores 2, softmax 2, dropout mask 1), MLP
# 19sbh (input 2, 4h-wide GEMM output 8, GeLU output 8, dropout mask 1),
# layer norms 4sbh. We apply the same term-by-term count to the actual shape:
# Q at heads·head_dim, K and V at kv_heads·head_dim (GQA/MQA), an MLP of width
# i (gated SwiGLU: gate, activation, up and product = 4 tensors of 2·i bytes;
# plain: 2), no dropout masks (dropout 0 in current LLM recipes), and norms
# whose fp32 upcast is also saved (HF/LitGPT RMSNorm: 2 + 4 bytes per element).
# With tensor parallelism t the GEMM-internal tensors split over t (eq. 2).
# FlashAttention never materialises the a·s² scores (and selective
# recomputation recomputes them), so that term drops out.
NORM_BYTES = 2 + 4  # per hidden element per norm: 16-bit input + saved fp32 upcast
ATTENTION_SCORE_BYTES = 5  # × a·s per token: scores 2, softmax 2, dropout mask 1 (Korthikanti)
# Output layer, bytes per logit (s·b·V of them). Korthikanti §4.3 counts 4
# (Megatron's fused vocab-parallel cross-entropy). HF Trainer's default loss
# keeps the bf16 logits (2), upcasts them to fp32 (4), saves log-softmax's fp32
# output (4) and builds an fp32 gradient (4) during backward: ~14. Chunked or
# fused losses (torchtune, LitGPT, Unsloth, Liger) keep about the bf16 logits
# and one fp32 chunk: ~4. Calibrated on tests/data/published_memory.yaml.
LOGITS_BYTES_HF = 14
LOGITS_BYTES_CHUNKED = 4
# Full recomputation keeps only each layer's input: 2·s·b·h bytes (16-bit).
CHECKPOINT_BYTES = 2


@dataclass
class _Acc:
    """Breakdown under construction: component → bytes per GPU."""

    parts: dict[str, float] = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)
    cpu_bytes: float = 0.0

    def add(self, name: str, value: float) -> None:
        if value > 0:
            self.parts[name] = self.parts.get(name, 0.0) + value

    def say(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)


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


def _frozen_weight_bytes(model: ModelSpec, p: Precision, mode: Mode, acc: _Acc) -> float:
    """Bytes of the whole model stored at precision `p` (quantised formats: linear layers only)."""
    if not _is_quantised(p):
        return model.params * weight_bytes_per_param(p)
    linear, other = split_params(model)
    bits = weight_bytes_per_param(p, mode) * 8
    acc.say(
        f"{p.value} weights: {bits:.3f} bits per linear-layer weight incl. quantisation constants "
        + (
            "(bitsandbytes 4-bit, blocksize 64, double quantisation as in the QLoRA paper)"
            if bits < 4.14
            else "(GPTQ/AWQ group size 128: fp16 scale + 4-bit zero per group)"
            if bits < 5
            else "(per-row/per-tensor scales negligible)"
        )
        + f"; embeddings/LM head ({other / 1e9:.2f}B params) kept in 16-bit"
    )
    return linear * bits / 8 + other * 2.0


def _defaults(model: ModelSpec, req: VramRequest, acc: _Acc) -> tuple[Precision, int, Checkpointing]:
    training = req.mode != Mode.inference
    p = req.effective_precision
    if req.precision is None:
        acc.say(f"precision {p.value} assumed" + (" (QLoRA 4-bit base, bf16 compute)" if req.mode == Mode.qlora else ""))
    if req.seq_len is None:
        seq = DEFAULT_SEQ_LEN
        if model.max_context and model.max_context < seq:
            seq = model.max_context
            acc.say(f"sequence length {seq} assumed (the model's maximum context)")
        else:
            acc.say(f"sequence length {seq} assumed")
    else:
        seq = req.seq_len
        if model.max_context and seq > model.max_context:
            acc.say(f"sequence length {seq} exceeds {model.name}'s max context {model.max_context} (needs RoPE scaling)")
    if req.checkpointing is None:
        ckpt = Checkpointing.full if training else Checkpointing.none
        if training:
            acc.say("gradient checkpointing full assumed (HF gradient_checkpointing=True)")
    else:
        ckpt = req.checkpointing
    if "batch_size" not in req.model_fields_set:
        acc.say("batch size 1 assumed" + (" (micro-batch per GPU)" if training else " (one sequence)"))
    return p, seq, ckpt


def _validate(req: VramRequest, p: Precision) -> None:
    if req.mode in (Mode.full, Mode.pretrain) and p in (Precision.int8, Precision.int4, Precision.nf4):
        raise InputError(
            f"--mode {req.mode.value} trains every weight, which needs 16- or 32-bit weights, not {p.value}. "
            "Use --mode qlora for a 4-bit base, --mode lora --precision int8, or --precision bf16."
        )
    if req.offload == Offload.cpu and req.mode == Mode.inference:
        raise InputError("--offload cpu is modelled for training only (DeepSpeed ZeRO-Offload / FSDP CPU offload). Use --offload none.")
    if req.offload == Offload.cpu and req.sharding in (Sharding.none, Sharding.ddp):
        raise InputError(
            "--offload cpu needs a sharded optimizer: use --sharding zero2 (ZeRO-Offload), zero3 or fsdp."
        )
    if req.gpus % (req.tp * req.pp):
        raise InputError(f"--gpus {req.gpus} is not a multiple of tp × pp = {req.tp * req.pp}; pick a multiple.")


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
        acc.say(shape_assumption(model))
    shape = shape_of(model) if model.activation_profile is None or model.num_layers else None
    if shape is not None and shape.from_params and not model.assumed_shape:
        acc.say(f"{model.name}: layer count/hidden size missing in the catalog; a standard decoder shape was assumed")

    tp, pp = request.tp, request.pp
    if request.mode == Mode.inference:
        if request.gpus > 1 and tp * pp == 1:
            tp = request.gpus
            acc.say(f"inference over {request.gpus} GPUs assumed tensor-parallel (tp={tp}, as vLLM --tensor-parallel-size)")
        if request.sharding not in (Sharding.none, Sharding.ddp):
            acc.say(f"--sharding {request.sharding.value} ignored for inference (no optimizer or gradients to shard)")
    dp = request.gpus // (tp * pp)
    mp = tp * pp  # model-parallel degree: every weight lives on exactly one of the tp×pp ranks
    if model.moe_experts and model.active_params:
        acc.say(f"MoE: {model.active_params / 1e9:,.1f}B of {model.params / 1e9:,.1f}B parameters active per token "
                "(compute and activations); all experts' weights are resident")

    if request.mode == Mode.inference:
        _inference(model, shape, request, p, seq, tp, pp, acc)
    else:
        _training(model, shape, request, p, seq, ckpt, tp, pp, dp, mp, acc)

    tensors = sum(acc.parts.values())
    acc.add("allocator fragmentation", tensors * ALLOCATOR_SLACK)
    acc.add("CUDA context + framework", CUDA_CONTEXT_GIB * GIB)
    acc.say(
        f"CUDA context + framework {CUDA_CONTEXT_GIB} GiB per GPU and {ALLOCATOR_SLACK:.0%} allocator "
        "fragmentation on top of the tensors (PyTorch caching allocator)"
    )
    if acc.cpu_bytes > 0:
        acc.say(f"CPU offload: about {acc.cpu_bytes / GIB:,.1f} GiB of host RAM per GPU moved off the GPU")

    per_gpu = sum(acc.parts.values()) / GIB
    breakdown = {k: round(v / GIB, 3) for k, v in acc.parts.items()}
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
        total_gib=round(per_gpu * request.gpus, 3),
        breakdown_gib=breakdown,
        assumptions=acc.assumptions,
        fits={f.gpu: f.fits for f in fit_details},
        fit_details=fit_details,
        formula=_formula_text(model, request, ckpt),
    )


# ------------------------------------------------------------------ inference


def _inference(model: ModelSpec, shape: Shape | None, req: VramRequest, p: Precision, seq: int,
               tp: int, pp: int, acc: _Acc) -> None:
    mp = tp * pp
    acc.add(f"weights ({p.value})", _frozen_weight_bytes(model, p, req.mode, acc) / mp)
    if model.moe_experts:
        acc.say(f"MoE: all {model.moe_experts} experts' weights resident on the GPUs")
    act_bytes = 4 if p in (Precision.fp32, Precision.tf32) else 2  # quantised weights compute in 16-bit
    b = req.batch_size
    if model.activation_profile is not None:
        prof = model.activation_profile
        acc.add("activations", prof.bytes_per_sample * b)
        acc.say(f"activations from the measured profile ({prof.reference}; {prof.source}) × batch {b}; "
                "measured for training, so an upper bound for inference")
        return
    assert shape is not None
    # Nothing is kept for a backward pass: one layer's forward working set, plus the logits: generation computes them
    # for the last position only (vLLM; HF generate with logits_to_keep=1), in fp32: b·V·4 bytes.
    working = _layer_activation_bytes(shape, seq, b, tp, req.flash_attention, False) * act_bytes / 2
    acc.add("activations (one layer working set + logits)", working + b * shape.vocab * 4)
    if model.kind == ModelKind.encoder:
        acc.say("encoder model: no KV cache")
        return
    acc.add(f"KV cache ({'fp32' if act_bytes == 4 else '16-bit'})", _kv_cache_bytes(model, shape, seq, b, tp, pp, act_bytes, acc))


def _kv_cache_bytes(model: ModelSpec, s: Shape, seq: int, b: int, tp: int, pp: int, elem: int, acc: _Acc) -> float:
    tokens = seq
    if model.sliding_window and model.sliding_window < seq:
        tokens = model.sliding_window
        acc.say(f"sliding window {model.sliding_window}: KV cache holds {tokens} tokens, not {seq}")
    layers = math.ceil(s.layers / pp)
    if model.attention == AttentionType.mla and model.kv_lora_rank:
        # MLA caches one compressed latent (kv_lora_rank) plus the decoupled RoPE
        # key (qk_rope_head_dim) per token per layer (DeepSeek-V2 paper §2.1.3);
        # the latent is not split across TP ranks (vLLM replicates it).
        per_token_layer = model.kv_lora_rank + (model.qk_rope_head_dim or 0)
        acc.say(f"KV cache: MLA latent {model.kv_lora_rank} + RoPE key {model.qk_rope_head_dim or 0} per token per layer")
    else:
        # K and V: 2 × kv_heads × head_dim per token per layer; heads split over
        # TP ranks, but each rank needs at least one (GQA/MQA replicate below 1).
        kv_heads_per_gpu = math.ceil(s.kv_heads / tp)
        per_token_layer = 2 * kv_heads_per_gpu * s.head_dim
        kind = {AttentionType.mqa: "MQA", AttentionType.gqa: "GQA", AttentionType.mha: "MHA"}.get(model.attention, "MHA")
        acc.say(f"KV cache: {kind}, 2 × {s.kv_heads} KV heads × {s.head_dim} per token per layer, {tokens} tokens × batch {b}")
    return float(per_token_layer) * layers * tokens * b * elem


# ------------------------------------------------------------------ training


def _training(model: ModelSpec, shape: Shape | None, req: VramRequest, p: Precision, seq: int,
              ckpt: Checkpointing, tp: int, pp: int, dp: int, mp: int, acc: _Acc) -> None:
    sh = req.sharding
    if req.gpus > 1 and dp > 1 and sh == Sharding.none:
        sh = Sharding.ddp
        acc.say(f"{dp}-way data parallel assumed replicated (DDP); use --sharding zero2/zero3/fsdp to shard")
    shard_opt = dp if sh in (Sharding.zero1, Sharding.zero2, Sharding.zero3, Sharding.fsdp) else 1
    shard_grad = dp if sh in (Sharding.zero2, Sharding.zero3, Sharding.fsdp) else 1
    shard_param = dp if sh in (Sharding.zero3, Sharding.fsdp) else 1
    offload = req.offload == Offload.cpu
    fp32 = p in (Precision.fp32, Precision.tf32)
    pure_half = not fp32 and req.master_weights == MasterWeights.none
    deepspeed = sh in (Sharding.zero1, Sharding.zero2, Sharding.zero3)

    def put(name: str, nbytes: float, shards: int, offloadable: bool) -> None:
        per_gpu = nbytes / mp / shards
        if offload and offloadable:
            acc.cpu_bytes += per_gpu
        else:
            acc.add(name, per_gpu)

    if req.mode in (Mode.lora, Mode.qlora):
        trainable = lora_trainable_params(model, req.lora_rank, req.lora_targets)
        # PEFT keeps adapters in fp32 (autocast_adapter_dtype); pure 16-bit runs
        # (--master-weights none: LitGPT bf16-true, torchtune dtype=bf16, the QLoRA
        # repo's --bf16) store them, their gradients and Adam states in bf16.
        a_bytes, a_name = (2, "16-bit") if pure_half else (4, "fp32")
        acc.say(
            f"LoRA rank {req.lora_rank} on {'q,k,v,o' if req.lora_targets == LoraTargets.attention else 'all linear layers'}"
            f" → {trainable / 1e6:,.1f}M trainable params ({trainable / model.params:.2%}); adapters in {a_name}"
            + (" (PEFT default)" if not pure_half else " (--master-weights none)")
        )
        base = _frozen_weight_bytes(model, p, req.mode, acc)
        put(f"weights (frozen base, {p.value})", base, shard_param, offload and shard_param > 1)
        put(f"adapter weights ({a_name})", trainable * a_bytes, shard_param, offload and shard_param > 1)
        put(f"gradients (adapters, {a_name})", trainable * a_bytes, shard_grad, True)
        put("optimizer states", trainable * _opt_bytes(req.optimizer, pure_half, acc), shard_opt, True)
        if req.mode == Mode.qlora or p in (Precision.int4, Precision.nf4):
            # bitsandbytes dequantises one weight matrix at a time to bf16 for the matmul
            largest = (shape.hidden * max(shape.intermediate, shape.hidden)) if shape else 0
            acc.add("dequantisation buffer", 2 * largest / tp)
        grad_bytes = trainable * a_bytes
    else:
        n = model.params
        if fp32:
            acc.say("fp32 training: weights, gradients and optimizer states all fp32 (4 B/param each)")
            put("weights (fp32)", n * 4, shard_param, offload and shard_param > 1)
            grad_bytes = n * 4
            put("gradients (fp32)", grad_bytes, shard_grad, True)
            put("optimizer states", n * _opt_bytes(req.optimizer, False, acc), shard_opt, True)
        elif pure_half:
            acc.say(f"pure {p.value if p != Precision.fp8 else 'bf16'} training (--master-weights none): weights, gradients "
                    "and optimizer states in 16-bit, no fp32 master copy")
            put("weights (16-bit)", n * 2, shard_param, offload and shard_param > 1)
            grad_bytes = n * 2
            put("gradients (16-bit)", grad_bytes, shard_grad, True)
            put("optimizer states", n * _opt_bytes(req.optimizer, True, acc), shard_opt, True)
        elif deepspeed:
            # ZeRO paper (Rajbhandari et al. 2020, §3.1): mixed-precision Adam holds
            # 2Ψ (fp16 params) + 2Ψ (fp16 grads) + KΨ optimizer states with K = 12
            # (fp32 params 4 + momentum 4 + variance 4) = 16 bytes/param.
            acc.say("mixed precision, DeepSpeed layout (ZeRO paper §3.1): 16-bit weights 2 + 16-bit grads 2 + fp32 master 4 "
                    "+ optimizer states per param")
            put("weights (16-bit)", n * 2, shard_param, offload and shard_param > 1)
            grad_bytes = n * 2
            put("gradients (16-bit)", grad_bytes, shard_grad, True)
            put("master weights (fp32)", n * 4, shard_opt, True)
            put("optimizer states", n * _opt_bytes(req.optimizer, False, acc), shard_opt, True)
        else:
            # HF Trainer / torch AMP / FSDP mixed precision: the model's own params
            # are fp32 (4) with fp32 gradients (4); autocast holds 16-bit copies of
            # the weights (2) for the forward/backward. HF "Model training anatomy":
            # 18 bytes/param with AdamW = 4+2 (model) + 4 (grads) + 8 (optimizer).
            acc.say("mixed precision, HF Trainer/torch AMP layout (HF 'model memory anatomy'): fp32 weights 4 + 16-bit "
                    "autocast copies 2 + fp32 grads 4 + optimizer states per param")
            put("weights (fp32 master)", n * 4, shard_param, offload and shard_param > 1)
            if shard_param == 1:
                acc.add("weights (16-bit autocast copies)", n * 2 / mp)
            grad_bytes = n * 4
            put("gradients (fp32)", grad_bytes, shard_grad, True)
            put("optimizer states", n * _opt_bytes(req.optimizer, False, acc), shard_opt, True)
        if p == Precision.fp8:
            # Transformer Engine keeps an fp8 copy (and transpose) of each weight for the GEMMs
            acc.add("weights (fp8 copies, Transformer Engine)", n * 1 / mp / shard_param)
            acc.say("fp8 training: bf16 mixed precision plus Transformer Engine fp8 weight copies; activations kept 16-bit")

    if offload:
        acc.say("CPU offload: optimizer states, fp32 master weights and gradients on the CPU"
                + (" ; parameters too (ZeRO-3/FSDP), only the gathered layers on the GPU" if shard_param > 1 else ""))
    if sh == Sharding.ddp and dp > 1:
        # torch DDP copies gradients into all-reduce buckets unless
        # gradient_as_bucket_view=True (PyTorch DDP docs): one more gradient-sized buffer.
        acc.add("DDP gradient buckets", grad_bytes / mp)
        acc.say("DDP keeps a gradient-sized all-reduce bucket copy (gradient_as_bucket_view=False, the PyTorch default)")
    if shard_param > 1 and shape is not None:
        # ZeRO-3/FSDP all-gather one layer at a time and prefetch the next: 2 layers' params
        # at the compute width (16-bit; the quantised size for a 4/8-bit LoRA base)
        width = weight_bytes_per_param(p, req.mode) if req.mode in (Mode.lora, Mode.qlora) and _is_quantised(p) else 2.0
        acc.add("gathered layers (ZeRO-3/FSDP)", 2 * layer_params(shape) * width / mp)
    if sh != Sharding.none and sh != Sharding.ddp:
        acc.say(f"{sh.value} over {dp} data-parallel ranks"
                + (f", tp={tp}" if tp > 1 else "") + (f", pp={pp}" if pp > 1 else ""))
    if mp > 1:
        acc.say(f"weights/gradients/optimizer split over tp×pp = {mp} model-parallel ranks")

    _training_activations(model, shape, req, p, seq, ckpt, tp, pp, acc)


def _opt_bytes(opt: Optimizer, half: bool, acc: _Acc) -> float:
    """Optimizer state bytes per trainable parameter."""
    if opt == Optimizer.adamw:
        # Adam keeps two moments (m, v): 2 × 4 B in fp32, 2 × 2 B in pure 16-bit training
        acc.say("AdamW: 2 states (m, v) per param" + (" in 16-bit" if half else " in fp32 (8 B)"))
        return 4.0 if half else 8.0
    if opt == Optimizer.adamw8bit:
        # bitsandbytes 8-bit Adam: m and v as 1-byte blockwise-quantised codes (Dettmers et al. 2022)
        acc.say("8-bit AdamW (bitsandbytes): 2 B/param of optimizer states")
        return 2.0
    if opt == Optimizer.adafactor:
        # HF "Methods and tools for efficient training on a single GPU": Adafactor
        # "uses slightly more than 4 bytes" per param (factored second moment + update buffers)
        acc.say("Adafactor: 4 B/param assumed (HF single-GPU training guide: 'slightly more than 4 bytes')")
        return 4.0
    # SGD with momentum: one momentum buffer in the parameter dtype
    acc.say("SGD with momentum: one state per param" + (" in 16-bit" if half else " in fp32 (4 B)"))
    return 2.0 if half else 4.0


def _layer_activation_bytes(s: Shape, seq: int, b: int, tp: int, flash: bool, selective: bool) -> float:
    """Bytes one transformer layer keeps for backward (16-bit), per Korthikanti eq. 1-2 applied to `s`."""
    h, i = s.hidden, s.intermediate
    q_dim, kv_dim = s.heads * s.head_dim, s.kv_heads * s.head_dim
    replicated = 2 * h + 2 * h + 2 * NORM_BYTES * h  # attention and MLP inputs, two norms
    attention = 2 * q_dim + 2 * 2 * kv_dim + 2 * q_dim  # Q, K, V, output-projection input
    mlp = (4 if s.gated_mlp else 2) * 2 * i * s.active_experts
    per_token = replicated + (attention + mlp) / tp
    if not (flash or selective):
        per_token += ATTENTION_SCORE_BYTES * s.heads * seq / tp
    return float(seq) * b * per_token


def _training_activations(model: ModelSpec, shape: Shape | None, req: VramRequest, p: Precision, seq: int,
                          ckpt: Checkpointing, tp: int, pp: int, acc: _Acc) -> None:
    b = req.batch_size
    scale = 2.0 if p in (Precision.fp32, Precision.tf32) else 1.0  # fp32 activations are twice the 16-bit ones
    if model.activation_profile is not None:
        prof = model.activation_profile
        acc.add("activations", prof.bytes_per_sample * b)
        acc.say(f"activations from the measured profile ({prof.reference}; {prof.source}) × batch {b}")
        if ckpt != Checkpointing.none:
            acc.say("gradient checkpointing not modelled for profiled (non-transformer) models")
        return
    assert shape is not None
    layer = _layer_activation_bytes(shape, seq, b, tp, req.flash_attention, ckpt == Checkpointing.selective)
    # With 1F1B pipeline schedules the first stage holds pp micro-batches of L/pp
    # layers: L layers' worth regardless of pp (Korthikanti et al. §4.2.3).
    layers = shape.layers
    if pp > 1:
        acc.say("pipeline parallel (1F1B): first stage holds activations of pp micro-batches = all layers' worth")
    if ckpt == Checkpointing.full:
        acc.add("activations (checkpointed layer inputs)", CHECKPOINT_BYTES * seq * b * shape.hidden * layers * scale)
        acc.add("activations (one layer recomputed)", layer * scale)
    else:
        acc.add("activations", layer * layers * scale)
    if model.kind == ModelKind.encoder and req.mode != Mode.pretrain:
        acc.say("encoder model: small task head assumed (no vocabulary logits; MLM pretraining would add them)")
        return
    per_logit = LOGITS_BYTES_CHUNKED if req.chunked_loss else LOGITS_BYTES_HF
    acc.say(f"output layer: {per_logit} B per logit × seq × batch × vocab "
            + ("(chunked/fused loss)" if req.chunked_loss else "(HF Trainer default loss: full fp32 logits; --chunked-loss for torchtune/LitGPT/Unsloth)"))
    acc.add("logits + loss (output layer)", per_logit * seq * b * shape.vocab / tp)


def _formula_text(model: ModelSpec, req: VramRequest, ckpt: Checkpointing) -> str:
    if model.activation_profile is not None:
        return "activations = measured bytes per sample × batch (" + model.activation_profile.source + ")"
    if req.mode == Mode.inference:
        base = ("KV cache = 2 · layers · kv_heads · head_dim · tokens · batch · bytes (MLA: (kv_lora_rank + "
                "qk_rope_head_dim) · layers · tokens · batch · bytes); ")
    else:
        base = ""
    attn = "" if req.flash_attention or ckpt == Checkpointing.selective else " + 5·a·s/t"
    act = ("activations per layer = s·b·(4h + 12h [two norms, fp32 upcast] + (4·q_dim + 4·kv_dim + 8i [gated MLP] or 4i)/t"
           f"{attn}) bytes — Korthikanti et al. 2022 (arXiv:2205.05198) eq. 1-2 counted term by term for the model's "
           "shape (GQA, SwiGLU), no dropout masks")
    if req.flash_attention:
        act += "; FlashAttention removes the 5·a·s² attention-score term"
    if req.mode != Mode.inference and ckpt == Checkpointing.full:
        act += "; full recomputation keeps 2·s·b·h per layer + one layer's working set"
    if req.mode != Mode.inference:
        act += (f"; output layer {LOGITS_BYTES_CHUNKED if req.chunked_loss else LOGITS_BYTES_HF}·s·b·V "
                "(4 in Korthikanti §4.3 for a fused loss)")
    return base + act
