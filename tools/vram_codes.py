"""Codes of the memory estimator: its assumptions (`VramCode`), formulas (`FormulaCode`) and the
components of the per-GPU breakdown (`Component`). Rendered by tools/messages/vram.py."""

from __future__ import annotations

from enum import Enum

from tools.notes import Note, NoteCode


class Component(str, Enum):
    """A slice of the per-GPU memory; its precision travels beside it (`MemoryPart.precision`)."""

    weights = "weights"  # the model's weights at the storage precision (inference, full training)
    weights_frozen = "weights_frozen"  # LoRA/QLoRA: the frozen base
    adapter_weights = "adapter_weights"  # LoRA adapters
    adapter_gradients = "adapter_gradients"
    gradients = "gradients"
    gradient_partition = "gradient_partition"  # the fp32 gradients the optimizer updates from: DeepSpeed ZeRO-1's
    # partition, Megatron-LM's fp32 main gradients of a 16-bit model
    optimizer_states = "optimizer_states"
    master_weights = "master_weights"  # fp32 master copy (DeepSpeed; HF/AMP's fp32 params)
    autocast_copies = "autocast_copies"  # HF/AMP 16-bit copies of the weights for forward/backward
    fp8_copies = "fp8_copies"  # Transformer Engine fp8 weight copies
    dequant_buffer = "dequant_buffer"  # bitsandbytes: one matrix dequantised for the matmul
    ddp_buckets = "ddp_buckets"  # DDP all-reduce bucket copy of the gradients
    gathered_layers = "gathered_layers"  # ZeRO-3/FSDP: layers gathered for compute
    gathered_embeddings = "gathered_embeddings"  # FSDP root unit / DeepSpeed's largest module, held whole
    comm_buckets = "comm_buckets"  # ZeRO reduce buckets / FSDP's unsharded gradient of one unit
    activations = "activations"
    activations_checkpointed = "activations_checkpointed"  # full recomputation: the saved layer inputs
    activations_recomputed = "activations_recomputed"  # full recomputation: one layer's working set
    working_set = "working_set"  # inference: one layer's forward working set + last-position logits
    kv_cache = "kv_cache"
    logits = "logits"  # training: logits + loss of the output layer
    optimizer_step = "optimizer_step"  # foreach Adam's step buffer beyond what the step frees (activations, logits)
    grad_shards_staged = "grad_shards_staged"  # FSDP CPU offload: gradient shards on the GPU until backward ends,
    # beyond what the loss's moment holds
    ema_weights = "ema_weights"  # model EMA: a copy of the weights kept on the GPU (timm ModelEma)
    fragmentation = "fragmentation"  # caching-allocator slack
    cuda_context = "cuda_context"  # CUDA context + framework

    def note(self, precision: str | None = None) -> Note:
        return Note(code=f"component.{self.value}", params={"precision": precision})


class VramCode(NoteCode):
    """Assumptions the memory estimate states (params in the comments)."""

    weights_nf4 = "vram.weights_nf4"  # precision, bits_per_weight, embedding_params
    weights_int4 = "vram.weights_int4"  # precision, bits_per_weight, embedding_params
    weights_8bit = "vram.weights_8bit"  # precision, bits_per_weight, embedding_params
    weights_bnb4_no_dq = "vram.weights_bnb4_no_dq"  # precision, bits_per_weight, embedding_params
    dequant_inference = "vram.dequant_inference"  # bytes_per_weight (of the one matrix dequantised for a matmul)
    precision_default = "vram.precision_default"  # precision
    precision_default_qlora = "vram.precision_default_qlora"  # precision
    seq_len_default = "vram.seq_len_default"  # seq_len
    seq_len_model_max = "vram.seq_len_model_max"  # seq_len
    seq_len_over_max = "vram.seq_len_over_max"  # seq_len, model, max_context
    checkpointing_default = "vram.checkpointing_default"
    checkpointing_default_vit = "vram.checkpointing_default_vit"  # a vision transformer: none (timm/torchvision recipes)
    batch_default_training = "vram.batch_default_training"  # batch_size
    batch_default_inference = "vram.batch_default_inference"  # batch_size
    shape_assumed = "vram.shape_assumed"  # model, params (its count, which the model's name may show), layers, hidden, heads, kv_heads, vocab
    shape_missing = "vram.shape_missing"  # model
    inference_tp = "vram.inference_tp"  # gpus, tp
    sharding_ignored = "vram.sharding_ignored"  # sharding
    moe_active = "vram.moe_active"  # active_params, params
    moe_resident = "vram.moe_resident"  # experts
    overhead = "vram.overhead"  # context_gib, slack_fraction
    offload_ram = "vram.offload_ram"  # cpu_gib
    profile_inference = "vram.profile_inference"  # reference, source, batch_size
    profile_inference_working_set = "vram.profile_inference_working_set"  # batch_size, element_bytes (the compute
    # dtype's, the fp32 measurement scaled to it; the measured input is the profile's inference_reference)
    profile_training = "vram.profile_training"  # reference, source, batch_size
    profile_no_checkpointing = "vram.profile_no_checkpointing"
    encoder_no_kv = "vram.encoder_no_kv"
    encoder_head = "vram.encoder_head"
    sliding_window = "vram.sliding_window"  # window_tokens, seq_len, sliding_layers, layers
    kv_mla = "vram.kv_mla"  # kv_lora_rank, rope_dim
    kv_heads = "vram.kv_heads"  # attention, kv_heads, head_dim, tokens, batch_size
    ddp_assumed = "vram.ddp_assumed"  # dp
    lora_adapters = "vram.lora_adapters"  # rank, targets, trainable_params, trainable_fraction, adapter_precision, pure_half
    fp32_training = "vram.fp32_training"
    pure_half = "vram.pure_half"  # precision
    deepspeed_layout = "vram.deepspeed_layout"  # stage (zero1 | zero2 | zero3)
    amp_layout = "vram.amp_layout"
    half_model_layout = "vram.half_model_layout"  # precision (the model's 16-bit format; fp32 master copy in the optimizer),
    # fp32_grad_buffer (bool: bf16's gradients accumulate in one fp32 buffer, Megatron-LM's rule)
    main_grads_at_step = "vram.main_grads_at_step"  # main_gib (the fp32 main gradients the step makes), counted_gib
    # (of them, beyond what backward's short-lived tensors held)
    offload_grads_per_unit = "vram.offload_grads_per_unit"  # fairscale FSDP: each unit's gradient moves to the CPU
    # as its backward ends (no staging)
    ddp_after_backward = "vram.ddp_after_backward"  # a 16-bit model's gradient all-reduce runs after backward
    # (Megatron-LM, DeepSpeed stage 0): its copy counts only beyond what backward freed
    fp8_training = "vram.fp8_training"
    cpu_offload = "vram.cpu_offload"  # params_too, fsdp
    ddp_buckets = "vram.ddp_buckets"
    sharded = "vram.sharded"  # sharding, dp, tp, pp
    model_parallel = "vram.model_parallel"  # ranks
    adamw = "vram.adamw"  # half
    adamw8bit = "vram.adamw8bit"
    adamw8bit_embeddings = "vram.adamw8bit_embeddings"  # embedding_params
    adafactor = "vram.adafactor"
    sgd = "vram.sgd"  # half
    pipeline_activations = "vram.pipeline_activations"
    logits = "vram.logits"  # bytes_per_logit, chunked, fp32_loss, upcast_stated (bool, only when the request states it),
    # vocab_parallel (True, only when the request states Megatron's vocab_parallel_cross_entropy)
    dropout_masks = "vram.dropout_masks"  # family
    amp_activations = "vram.amp_activations"
    eager_only = "vram.eager_only"  # model
    encoder_decoder = "vram.encoder_decoder"  # encoder_layers, decoder_layers, seq_len (encoder), target_tokens (decoder), target_assumed
    gathered_embeddings = "vram.gathered_embeddings"  # sharding (zero3 | fsdp), params, with_grads
    comm_buckets = "vram.comm_buckets"  # sharding, grad_params (gradient elements the buffers hold)
    transient_fragmentation = "vram.transient_fragmentation"  # slack_fraction, sharded
    kbit_recast_bf16 = "vram.kbit_recast_bf16"  # trainer ("TRL SFTTrainer", which recasts embeddings/LM head to bf16)
    kbit_prepare = "vram.kbit_prepare"  # upcast_params (the non-quantised weights PEFT upcasts to fp32)
    autocast_stated = "vram.autocast_stated"  # autocast (bool, as the request states it)
    foreach_step = "vram.foreach_step"  # buffer_bytes_per_param, over_transient (bool: the step sets the peak)
    grads_after_backward = "vram.grads_after_backward"  # gradients_gib (their size), counted_gib (beyond short-lived)
    offload_grad_staging = "vram.offload_grad_staging"  # staged_gib (the gradient shard on the GPU at the end of
    # backward), live_gib (of it, beyond what the loss's moment holds; the rest is the post-backward stream's pool)
    sac_op = "vram.sac_op"  # bytes_per_token (kept per token per layer), layers, framework (whose policy: "torchtitan")
    sac_layers = "vram.sac_layers"  # every (N), checkpointed_layers, layers, framework ("torchtitan")
    recompute_after_loss = "vram.recompute_after_loss"  # loss_larger (bool: the loss buffers are the larger of the two)
    vit_blocks = "vram.vit_blocks"  # bytes_per_token (one block), layers, tokens (per image), checkpointed (bool),
    # attention ("flash" | "mem_efficient": the SDPA backend the dtype implies; "explicit": flash_attention false, the
    # scores materialised by an explicit softmax)
    model_ema = "vram.model_ema"  # params (the copied weights), precision (the copy's dtype)
    vit_checkpointing_as_none = "vram.vit_checkpointing_as_none"  # checkpointing (the stated value): counted as none
    vit_inference = "vram.vit_inference"  # bytes_per_token (one block's working set), tokens (per image)
    model_ema_ignored = "vram.model_ema_ignored"  # mode: a model EMA is a full-training copy; not counted for this mode
    dense_logits = "vram.dense_logits"  # classes, pixels (per label map), heads (losses at that resolution), maps
    # (fp32 classes x pixels tensors held at the peak, all images)
    dense_logits_ignored = "vram.dense_logits_ignored"  # reason: "inference" | "not_vision" (counted for a vision
    # transformer's training only)
    mlm_head = "vram.mlm_head"  # bytes_per_logit, vocab, tokens (scored per sequence), output_kept (logits held
    # through backward): an encoder's masked-LM head scores every position, no upcast and no shifted copy


class FormulaCode(NoteCode):
    """The formulas behind an estimate, with their citations (`VramEstimate.formula`)."""

    profile = "formula.profile"  # source
    kv_cache = "formula.kv_cache"
    activations = "formula.activations"  # inputs, norm, masks, qkv, mlp, scores (bytes; 0: none), cross (bool)
    flash = "formula.flash"
    recompute = "formula.recompute"  # stream (bytes per saved element)
    logits = "formula.logits"  # bytes_per_logit, fused_bytes
    vit_blocks = "formula.vit_blocks"  # stream, compute (bytes per element), recompute (bool)
