"""The memory estimator: assumptions (`VramCode`), formulas (`FormulaCode`), breakdown components."""

from __future__ import annotations

from tools.messages.format import Formatter


def _p(p: dict, zh: bool) -> str:
    """' (bf16)' / '（bf16）' when the component has a precision."""
    if not p.get("precision"):
        return ""
    return f"（{p['precision']}）" if zh else f" ({p['precision']})"


def _component(en: str, zh: str, detail_en: str = "", detail_zh: str = ""):
    """A component label with its precision: 'weights (frozen base, bf16)' / '冻结底座权重（bf16）'."""

    def render_en(p: dict, f: Formatter) -> str:
        inside = ", ".join(x for x in (detail_en, p.get("precision") or "") if x)
        return f"{en} ({inside})" if inside else en

    def render_zh(p: dict, f: Formatter) -> str:
        inside = "，".join(x for x in (detail_zh, p.get("precision") or "") if x)
        return f"{zh}（{inside}）" if inside else zh

    return render_en, render_zh


COMPONENTS = {
    "component.weights": _component("weights", "权重"),
    "component.weights_frozen": _component("weights", "权重", "frozen base", "冻结底座"),
    "component.adapter_weights": _component("adapter weights", "LoRA 适配器权重"),
    "component.adapter_gradients": _component("gradients", "梯度", "adapters", "适配器"),
    "component.gradients": _component("gradients", "梯度"),
    "component.gradient_partition": _component("gradients", "梯度", "partition for the update", "用于更新的分片"),
    "component.optimizer_states": _component("optimizer states", "优化器状态"),
    "component.master_weights": _component("master weights", "主权重"),
    "component.autocast_copies": _component("weights", "权重", "autocast copies", "`autocast` 副本"),
    "component.fp8_copies": _component("weights", "权重", "fp8 copies, Transformer Engine", "Transformer Engine fp8 副本"),
    "component.dequant_buffer": _component("dequantisation buffer", "反量化缓冲区"),
    "component.ddp_buckets": _component("DDP gradient buckets", "DDP 梯度桶"),
    "component.gathered_layers": _component("gathered layers", "聚合中的层", "ZeRO-3/FSDP", "ZeRO-3/FSDP"),
    "component.gathered_embeddings": _component("embeddings and LM head", "词嵌入与输出层（`lm_head`）", "gathered whole",
                                                "完整聚合"),
    "component.comm_buckets": _component("gradient communication buffers", "梯度通信缓冲区"),
    "component.activations": _component("activations", "激活值"),
    "component.activations_checkpointed": _component("activations", "激活值", "checkpointed layer inputs", "检查点保存的层输入"),
    "component.activations_recomputed": _component("activations", "激活值", "one layer recomputed", "重算的一层"),
    "component.working_set": _component("activations", "激活值", "one layer working set + logits", "单层工作集 + logits"),
    "component.kv_cache": _component("KV cache", "KV cache"),
    "component.logits": _component("logits + loss", "logits 与损失", "output layer", "输出层"),
    "component.optimizer_step": _component("optimizer step buffer", "优化器更新缓冲区", "foreach Adam, beyond the freed "
                                           "activations", "多张量实现的 AdamW，超出已释放激活值的部分"),
    "component.grad_shards_staged": _component("gradient shards", "梯度分片", "FSDP CPU offload, held until backward "
                                               "ends", "FSDP CPU offload，保留到反向传播结束"),
    "component.ema_weights": _component("EMA weights", "指数滑动平均权重", "model EMA copy", "模型副本"),
    "component.fragmentation": _component("allocator fragmentation", "显存分配器碎片"),
    "component.cuda_context": _component("CUDA context + framework", "CUDA 上下文 + 框架"),
}


def _weights(scheme_en: str, scheme_zh: str):
    return (
        "{precision} weights: {bits_per_weight:.3f} bits per linear-layer weight incl. quantisation constants "
        f"({scheme_en}); embeddings/LM head ({{embedding_params:big}} params) kept in 16-bit",
        "{precision} 权重：线性层每个权重 {bits_per_weight:.3f} bit（含量化常数；" + scheme_zh
        + "）；词嵌入/输出层（{embedding_params:big} 参数）保持 16 bit",
    )


def _lora(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        targets = f.term("targets", p["targets"])
        a = p["adapter_precision"]
        if zh:
            why = "纯 16 bit 训练" if p.get("pure_half") else "PEFT 默认"
            return (f"LoRA 秩 {p['rank']}，作用于{targets} → 可训练参数 {f.big(p['trainable_params'])}"
                    f"（占 {f.pct(p['trainable_fraction'])}）；适配器为 {a}（{why}）")
        why = "pure 16-bit training" if p.get("pure_half") else "PEFT default"
        return (f"LoRA rank {p['rank']} on {targets} → {f.big(p['trainable_params'])} trainable params "
                f"({f.pct(p['trainable_fraction'])}); adapters in {a} ({why})")

    return render


def _sharded(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        extra = "".join(x for x in ((f", tp={p['tp']}" if (p.get("tp") or 1) > 1 else ""),
                                    (f", pp={p['pp']}" if (p.get("pp") or 1) > 1 else "")))
        name = f.term("sharding", p["sharding"])
        if zh:
            return f"{name}，{p['dp']} 个数据并行进程{extra}"
        return f"{name} over {p['dp']} data-parallel ranks{extra}"

    return render


def _logits(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        n = p["bytes_per_logit"]
        half_loss = not p.get("chunked") and p.get("fp32_loss") is False
        stated = p.get("upcast_stated")  # only where the request states whether the loss upcasts
        as_stated = stated is not None and not p.get("chunked") and p.get("fp32_loss") == stated
        if zh:
            if p.get("chunked"):
                how = "分块/融合损失函数"
            elif p.get("vocab_parallel"):
                how = ("按所述，Megatron-LM 的 `vocab_parallel_cross_entropy(output.float())`：16 bit logits 加一份 fp32 副本，"
                       "归一化概率原地计算并保存，按张量并行切分词表")
            elif as_stated:
                how = ("按所述，损失函数先把 logits 转为 fp32" if stated else
                       "按所述，损失函数直接在 16 bit logits 上计算（训练脚本自己写的损失函数，没有 `.float()`）")
            elif half_loss:
                how = ("损失函数直接在 16 bit logits 上计算：模型实现不把 logits 转为 fp32，且没有 autocast（DeepSpeed 或纯 16 bit 训练）；"
                       "分块损失函数约为 4 字节")
            else:
                how = "HF `Trainer` 默认损失函数：完整 fp32 logits；torchtune/LitGPT/Unsloth 的分块损失函数约为 4 字节"
            if not p.get("chunked") and not p.get("vocab_parallel"):
                how += "；取前向（logits 及其副本）与反向开始时（`log_softmax` 输出和两个梯度）两者中较大的一个"
            return f"输出层：每个 logit {n} 字节 × 序列长度 × batch × 词表（{how}）"
        if p.get("chunked"):
            how = "chunked/fused loss"
        elif p.get("vocab_parallel"):
            how = ("as stated, Megatron-LM's `vocab_parallel_cross_entropy(output.float())`: the 16-bit logits and one "
                   "fp32 copy, the softmax computed and saved in place, the vocabulary split over TP ranks")
        elif as_stated:
            how = ("as stated, the loss casts the logits to fp32 first" if stated else
                   "as stated, the loss runs on the logits in their own 16-bit dtype (a loss written in the training "
                   "script, no `.float()`)")
        elif half_loss:
            how = ("the loss runs on the 16-bit logits: the model's code does not upcast them and no autocast runs "
                   "(DeepSpeed or pure 16-bit training); a chunked loss keeps about 4 B")
        else:
            how = "HF Trainer default loss: full fp32 logits; a chunked loss as in torchtune/LitGPT/Unsloth keeps about 4 B"
        if not p.get("chunked") and not p.get("vocab_parallel"):
            how += "; the larger of what forward holds (the logits and their copies) and what backward starts with " \
                   "(log-softmax's output and two gradients)"
        return f"output layer: {n} B per logit × seq × batch × vocab ({how})"

    return render


def _encoder_decoder(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        enc, dec = p["encoder_layers"], p["decoder_layers"]
        seq, target = f.int(p["seq_len"]), f.int(p.get("target_tokens") or p["seq_len"])
        if zh:
            head = f"编码器-解码器：{enc} 层编码器 + {dec} 层解码器（每层含交叉注意力），"
            if p.get("target_assumed", True):
                return head + f"解码器一侧也按 {seq} 个 token 估算（未给出目标长度）"
            return head + f"编码器输入 {seq} 个 token，解码器目标 {target} 个 token"
        head = f"encoder-decoder: {enc} encoder + {dec} decoder layers (each with cross-attention), "
        if p.get("target_assumed", True):
            return head + f"the decoder side taken at {seq} tokens too (no target length given)"
        return head + f"{seq} input tokens in the encoder, {target} target tokens in the decoder"

    return render


def _deepspeed(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        stage = p.get("stage")
        whole = stage == "zero1"
        if zh:
            grads = "16 bit 梯度 2 + 更新用的 fp32 梯度分片 4" if whole else "梯度分片在更新时为 fp32（4）"
            return (f"混合精度，DeepSpeed 布局（ZeRO 论文 §3.1；DeepSpeed 显存需求文档）：每参数 16 bit 权重 2 + {grads} + "
                    "fp32 主权重 4 + 优化器状态")
        grads = ("16-bit grads 2 + an fp32 gradient partition 4 for the update" if whole
                 else "gradient partition in fp32 (4) for the update")
        return (f"mixed precision, DeepSpeed layout (ZeRO paper §3.1; DeepSpeed memory docs): 16-bit weights 2 + {grads} + "
                "fp32 master 4 + optimizer states per param")

    return render


def _gathered(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        n = f.big(p["params"])
        grads = p.get("with_grads")
        if p.get("sharding") == "fsdp":
            if zh:
                return (f"FSDP 根单元（词嵌入、最后的归一化层和输出层，{n} 参数）在整个训练步中保持完整聚合"
                        + ("，另有其 16 bit 梯度" if grads else ""))
            return (f"FSDP root unit (embeddings, final norm and LM head, {n} params) stays gathered for the whole step"
                    + (", plus its 16-bit gradient" if grads else ""))
        if zh:
            return (f"ZeRO-3 完整聚合最大的模块（{n} 参数，16 bit"
                    + ("，另有其 16 bit 梯度" if grads else "") + "；DeepSpeed 显存需求文档）")
        return (f"ZeRO-3 gathers the largest module whole ({n} params in 16-bit"
                + (", plus its 16-bit gradient" if grads else "") + "; DeepSpeed memory docs)")

    return render


def _buckets(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        n = f.big(p["grad_params"])
        if p.get("sharding") == "fsdp":
            if zh:
                return f"FSDP 在梯度归约分发之前保存一层完整的 16 bit 梯度（{n} 参数）"
            return f"FSDP holds one layer's unsharded 16-bit gradient ({n} params) until its reduce-scatter"
        if zh:
            return f"DeepSpeed 梯度归约缓冲区：{n} 参数的 16 bit 梯度（两个桶，每个为隐藏维度的平方，HF `Trainer` 的自动设置）"
        return f"DeepSpeed gradient reduce buckets: 16-bit gradients of {n} params (two buckets of hidden², HF Trainer's auto setting)"

    return render


def _optimizer(en_full: str, en_half: str, zh_full: str, zh_half: str):
    return (lambda p, f: en_half if p.get("half") else en_full, lambda p, f: zh_half if p.get("half") else zh_full)


ASSUMPTIONS = {
    "vram.weights_nf4": _weights("bitsandbytes 4-bit, blocksize 64, double quantisation as in the QLoRA paper",
                                 "bitsandbytes 4-bit，块大小 64，QLoRA 论文中的双重量化"),
    "vram.weights_bnb4_no_dq": _weights("bitsandbytes 4-bit, blocksize 64, no double quantisation (an fp32 absmax "
                                        "per block: load_in_4bit's default)",
                                        "bitsandbytes 4-bit，块大小 64，不做双重量化（每块一个 fp32 absmax：load_in_4bit 的默认设置）"),
    "vram.dequant_inference": ("bitsandbytes dequantises one weight matrix at a time for the prompt's matmuls "
                               "({bytes_per_weight:g} B per weight of the largest matrix)",
                               "bitsandbytes 在处理提示词的矩阵乘法时每次反量化一个权重矩阵（最大矩阵每个权重 {bytes_per_weight:g} B）"),
    "vram.weights_int4": _weights("GPTQ/AWQ group size 128: fp16 scale + 4-bit zero per group",
                                  "GPTQ/AWQ 分组 128：每组一个 fp16 缩放因子 + 4-bit 零点"),
    "vram.weights_8bit": _weights("per-row/per-tensor scales negligible", "逐行/逐张量的缩放因子可忽略"),
    "vram.precision_default": ("precision {precision} assumed", "假设精度为 {precision}"),
    "vram.precision_default_qlora": ("precision {precision} assumed (QLoRA 4-bit base, bf16 compute)",
                                     "假设精度为 {precision}（QLoRA 4-bit 底座，bf16 计算）"),
    "vram.seq_len_default": ("sequence length {seq_len} assumed", "假设序列长度为 {seq_len}"),
    "vram.seq_len_model_max": ("sequence length {seq_len} assumed (the model's maximum context)",
                               "假设序列长度为 {seq_len}（模型的最大上下文）"),
    "vram.seq_len_over_max": ("sequence length {seq_len} exceeds {model}'s max context {max_context} (needs RoPE scaling)",
                              "序列长度 {seq_len} 超过 {model} 的最大上下文 {max_context}（需要 RoPE 扩展）"),
    "vram.checkpointing_default_vit": ("no gradient checkpointing assumed (timm's and torchvision's ViT recipes leave it off)",
                                       "假设不开梯度检查点（常用的视觉 Transformer 训练方案默认不开）"),
    "vram.checkpointing_default": ("gradient checkpointing full assumed (HF gradient_checkpointing=True)",
                                   "假设开启完整梯度检查点（HF `gradient_checkpointing=True`）"),
    "vram.batch_default_training": ("batch size {batch_size} assumed (micro-batch per GPU)",
                                    "假设 batch size 为 {batch_size}（每卡 micro-batch）"),
    "vram.batch_default_inference": ("batch size {batch_size} assumed (one sequence)", "假设 batch size 为 {batch_size}（单条序列）"),
    "vram.shape_assumed": (
        lambda p, f: f"{p['model']}: vision-transformer shape assumed from the parameter count ({p['layers']} layers, "
        f"width {p['hidden']}, {p['heads']} heads, MLP 4 x width), interpolated from published DeiT/ViT shapes"
        if p.get("vision") else
        f"{p['model']}: shape assumed from the parameter count ({p['layers']} layers, hidden {p['hidden']}, "
        f"{p['heads']} heads, GQA {p['kv_heads']} KV heads, vocab {p['vocab']}), interpolated from published Llama shapes",
        lambda p, f: f"{p['model']}：视觉 Transformer 结构按参数量推断（{p['layers']} 层，宽度 {p['hidden']}，"
        f"{p['heads']} 个注意力头，MLP 为宽度的 4 倍），由已公开的 DeiT/ViT 结构插值得到"
        if p.get("vision") else
        f"{p['model']}：结构按参数量推断（{p['layers']} 层，隐藏维度 {p['hidden']}，{p['heads']} 个注意力头，"
        f"GQA {p['kv_heads']} 个 KV 头，词表 {p['vocab']}），由已公开的 Llama 结构插值得到",
    ),
    "vram.shape_missing": ("{model}: layer count/hidden size missing in the catalog; a standard decoder shape was assumed",
                           "{model}：目录中缺少层数/隐藏维度，按标准解码器结构估算"),
    "vram.inference_tp": ("inference over {gpus} GPUs assumed tensor-parallel (tp={tp}, as vLLM's tensor_parallel_size)",
                          "{gpus} 卡推理按张量并行估算（tp={tp}，同 vLLM 的张量并行设置）"),
    "vram.sharding_ignored": ("{sharding:sharding} sharding ignored for inference (no optimizer or gradients to shard)",
                              "推理不使用 {sharding:sharding} 分片（没有优化器状态和梯度可分）"),
    "vram.moe_active": ("MoE: {active_params:big} of {params:big} parameters active per token (compute and activations); "
                        "all experts' weights are resident",
                        "MoE：每个 token 激活 {params:big} 参数中的 {active_params:big}（计算量和激活值）；全部专家权重常驻显存"),
    "vram.moe_resident": ("MoE: all {experts} experts' weights resident on the GPUs", "MoE：全部 {experts} 个专家的权重常驻显存"),
    "vram.overhead": ("CUDA context + framework {context_gib:g} GiB per GPU and {slack_fraction:pct} allocator fragmentation "
                      "on top of the tensors (PyTorch caching allocator)",
                      "每卡另计 CUDA 上下文 + 框架 {context_gib:g} GiB，以及张量之外 {slack_fraction:pct} 的显存分配器碎片"
                      "（PyTorch 缓存分配器）"),
    "vram.offload_ram": ("CPU offload: about {cpu_gib:gib} of host RAM per GPU moved off the GPU",
                         "CPU offload：每卡约 {cpu_gib:gib} 移到主机内存"),
    "vram.profile_inference_working_set": (
        "inference working set from the catalog's measured eval-mode forward, at {element_bytes} B per element, "
        "× batch {batch_size}; nothing is kept for backward",
        "推理工作集取自目录中实测的评估模式前向传播，每个元素 {element_bytes} B，× batch {batch_size}；"
        "不为反向传播保留任何张量",
    ),
    "vram.profile_inference": ("activations from the measured profile ({reference}; {source}) × batch {batch_size}; "
                               "measured for training, so an upper bound for inference",
                               "激活值取自实测数据（每样本）× batch {batch_size}；该数据在训练时测得，推理时为上界"),
    "vram.profile_training": ("activations from the measured profile ({reference}; {source}) × batch {batch_size}",
                              "激活值取自实测数据（每样本）× batch {batch_size}"),
    "vram.profile_no_checkpointing": ("gradient checkpointing not modelled for profiled (non-transformer) models",
                                      "实测数据的（非 Transformer）模型不计梯度检查点"),
    "vram.encoder_no_kv": ("encoder model: no KV cache", "编码器模型：没有 KV cache"),
    "vram.encoder_head": ("encoder model: small task head assumed (no vocabulary logits; MLM pretraining would add them)",
                          "编码器模型：假设任务头很小（没有词表 logits；掩码语言模型（MLM）预训练会增加这部分）"),
    "vram.sliding_window": ("sliding window {window_tokens} on {sliding_layers} of {layers} layers: those layers cache "
                            "{window_tokens} tokens, not {seq_len}",
                            "{layers} 层中有 {sliding_layers} 层使用滑动窗口 {window_tokens}：这些层的 KV cache 只保存 "
                            "{window_tokens} 个 token，而不是 {seq_len} 个"),
    "vram.kv_mla": ("KV cache: MLA latent {kv_lora_rank} + RoPE key {rope_dim} per token per layer",
                    "KV cache：MLA，每层每个 token 存 {kv_lora_rank} 维潜向量 + {rope_dim} 维 RoPE 键"),
    "vram.kv_heads": ("KV cache: {attention}, 2 × {kv_heads} KV heads × {head_dim} per token per layer, "
                      "{tokens} tokens × batch {batch_size}",
                      "KV cache：{attention}，每层每个 token 2 × {kv_heads} 个 KV 头 × {head_dim} 维，{tokens} 个 token × batch {batch_size}"),
    "vram.ddp_assumed": ("{dp}-way data parallel assumed replicated (DDP); ZeRO-2, ZeRO-3 or FSDP would shard it",
                         "{dp} 路数据并行按完整副本（DDP）估算；ZeRO-2、ZeRO-3 或 FSDP 可以分片"),
    "vram.lora_adapters": (_lora(False), _lora(True)),
    "vram.fp32_training": ("fp32 training: weights, gradients and optimizer states all fp32 (4 B/param each)",
                           "fp32 训练：权重、梯度和优化器状态都是 fp32（每参数各 4 B）"),
    "vram.pure_half": ("pure {precision} training (no master weights): weights, gradients and optimizer states in 16-bit, "
                       "no fp32 master copy",
                       "纯 {precision} 训练（无主权重）：权重、梯度和优化器状态都是 16 bit，没有 fp32 主权重副本"),
    "vram.deepspeed_layout": (_deepspeed(False), _deepspeed(True)),
    "vram.amp_layout": ("mixed precision, HF Trainer/torch AMP layout (HF 'model memory anatomy'): fp32 weights 4 + 16-bit "
                        "autocast copies 2 + fp32 grads 4 + optimizer states per param",
                        "混合精度，HF `Trainer`/torch AMP 布局（HF 显存构成文档）：每参数 fp32 权重 4 + 16 bit `autocast` 副本 2 + "
                        "fp32 梯度 4 + 优化器状态"),
    "vram.half_model_layout": (
        lambda p, f: f"mixed precision, the model itself in {p['precision']} and its fp32 master copy inside the optimizer "
        "(Megatron-LM's fp16/bf16 training, no autocast): per param "
        + (f"{p['precision']} weights 2 + one fp32 gradient buffer 4 (bf16 gradients accumulate in fp32) + fp32 master 4"
           if p.get("fp32_grad_buffer") else
           f"{p['precision']} weights 2 + {p['precision']} gradient buffer 2 + fp32 master 4 (+ fp32 main grads 4 at the step)")
        + f" + optimizer states; activations in {p['precision']}",
        lambda p, f: f"混合精度，模型本身是 {p['precision']}，fp32 主权重副本在优化器里（Megatron-LM 的 fp16/bf16 训练，没有 "
        "`autocast`）：每参数 "
        + (f"{p['precision']} 权重 2 + 一份 fp32 梯度缓冲区 4（bf16 梯度以 fp32 累加）+ fp32 主权重 4"
           if p.get("fp32_grad_buffer") else
           f"{p['precision']} 权重 2 + {p['precision']} 梯度缓冲区 2 + fp32 主权重 4（更新时另有 fp32 主梯度 4）")
        + f" + 优化器状态；激活值为 {p['precision']}",
    ),
    "vram.main_grads_at_step": (
        "the fp32 main gradients ({main_gib:gib}) are made by the optimizer step and freed by the next zero_grad "
        "(Megatron-LM), after backward has freed the activations: {counted_gib:gib} of them adds to the peak",
        "fp32 主梯度（{main_gib:gib}）在优化器更新时生成、在下一次 `zero_grad` 时释放（Megatron-LM），此时反向传播已释放激活值："
        "其中 {counted_gib:gib} 计入峰值",
    ),
    "vram.offload_grads_per_unit": (
        "FSDP CPU offload (fairscale): each unit's gradient moves to the CPU as soon as its backward ends; only the "
        "unit in flight is on the GPU",
        "FSDP CPU offload（fairscale）：每个单元的梯度在其反向传播结束时立即移到 CPU；GPU 上只有正在处理的单元",
    ),
    "vram.ddp_after_backward": (
        "the gradient all-reduce runs after backward (Megatron-LM, DeepSpeed stage 0): its coalesced copy, at most the "
        "16-bit gradient (none for Megatron's in-place buffer), counts only beyond the activations backward freed",
        "梯度 all-reduce 在反向传播结束后进行（Megatron-LM、DeepSpeed 第 0 阶段）：合并拷贝最多与 16 bit 梯度一样大"
        "（Megatron 原地缓冲区则没有），只有超出反向已释放的激活值的部分计入峰值",
    ),
    "vram.fp8_training": ("fp8 training: bf16 mixed precision plus Transformer Engine fp8 weight copies; activations kept 16-bit",
                          "fp8 训练：bf16 混合精度，另加 Transformer Engine 的 fp8 权重副本；激活值保持 16 bit"),
    "vram.cpu_offload": (
        lambda p, f: "CPU offload: optimizer states, fp32 master weights and gradients on the CPU"
        + ("; parameters too (ZeRO-3/FSDP), only the gathered layers on the GPU" if p.get("params_too") else "")
        + ("; FSDP also pins a CPU gradient buffer the size of every shard, frozen ones included" if p.get("fsdp") else ""),
        lambda p, f: "CPU 卸载：优化器状态、fp32 主权重和梯度放在 CPU 上"
        + ("；参数也在 CPU 上（ZeRO-3/FSDP），GPU 上只有聚合中的层" if p.get("params_too") else "")
        + ("；FSDP 还会为每个分片（包括冻结参数的分片）在 CPU 上锁页分配同样大小的梯度缓冲区" if p.get("fsdp") else ""),
    ),
    "vram.ddp_buckets": ("DDP keeps a gradient-sized all-reduce bucket copy (gradient_as_bucket_view=False, the PyTorch default)",
                         "DDP 额外保存一份与梯度同样大小的 all-reduce 缓冲桶（`gradient_as_bucket_view=False`，PyTorch 默认）"),
    "vram.sharded": (_sharded(False), _sharded(True)),
    "vram.model_parallel": ("weights/gradients/optimizer split over tp×pp = {ranks} model-parallel ranks",
                            "权重/梯度/优化器状态切分到 tp×pp = {ranks} 个模型并行进程"),
    "vram.adamw": _optimizer("AdamW: 2 states (m, v) per param in fp32 (8 B)", "AdamW: 2 states (m, v) per param in 16-bit",
                             "AdamW：每参数 2 个状态（m、v），fp32（8 B）", "AdamW：每参数 2 个状态（m、v），16 bit"),
    "vram.adamw8bit": ("8-bit AdamW (bitsandbytes): 2 B/param of optimizer states", "8-bit AdamW（bitsandbytes）：优化器状态每参数 2 B"),
    "vram.adamw8bit_embeddings": (
        "8-bit AdamW keeps 32-bit states (8 B/param) for the embedding table's {embedding_params:big} params "
        "(HF Trainer registers every nn.Embedding with optim_bits=32)",
        "8-bit AdamW 对词嵌入表的 {embedding_params:big} 个参数保留 32 bit 状态（每参数 8 B；HF `Trainer` 把每个词嵌入层设为 "
        "`optim_bits=32`）",
    ),
    "vram.adafactor": ("Adafactor: 4 B/param assumed (HF single-GPU training guide: 'slightly more than 4 bytes')",
                       "Adafactor：按每参数 4 B 估算（HF 单卡训练指南：略多于 4 字节）"),
    "vram.sgd": _optimizer("SGD with momentum: one state per param in fp32 (4 B)", "SGD with momentum: one state per param in 16-bit",
                           "带动量的 SGD：每参数 1 个状态，fp32（4 B）", "带动量的 SGD：每参数 1 个状态，16 bit"),
    "vram.pipeline_activations": ("pipeline parallel (1F1B): first stage holds activations of pp micro-batches = all layers' worth",
                                  "流水线并行（1F1B）：第一段保存 pp 个 micro-batch 的激活值，相当于全部层"),
    "vram.logits": (_logits(False), _logits(True)),
    "vram.dropout_masks": ("{family} trains with dropout 0.1 (its config default): every dropout keeps a 1-byte mask "
                           "per element",
                           "{family} 训练时默认 dropout 为 0.1：每个 dropout 为每个元素保存 1 字节掩码"),
    "vram.amp_activations": ("AMP over fp32 weights: the residual stream, norms and softmax stay fp32 and every linear "
                             "layer keeps its own 16-bit copy of its input (autocast caches only weight casts)",
                             "fp32 权重上的 AMP：残差流、归一化和归一化指数函数保持 fp32，每个线性层各自保存一份输入的 16 bit 副本"
                             "（`autocast` 只缓存权重的转换）"),
    "vram.eager_only": ("{model}: no FlashAttention kernel in HF transformers (relative position bias), eager attention "
                        "with its attention-score term assumed",
                        "{model}：HF 的模型库中没有 FlashAttention 实现（相对位置偏置），按普通注意力计算，含注意力分数项"),
    "vram.encoder_decoder": (_encoder_decoder(False), _encoder_decoder(True)),
    "vram.gathered_embeddings": (_gathered(False), _gathered(True)),
    "vram.comm_buckets": (_buckets(False), _buckets(True)),
    "vram.transient_fragmentation": (
        lambda p, f: f"another {f.pct(p['slack_fraction'])} of the short-lived tensors (activations, logits"
        + (", gathered layers, buffers) for fragmentation, the gathers running on their own CUDA streams"
           if p.get("sharded") else ") for fragmentation of what each step allocates and frees"),
        lambda p, f: "短生命周期张量（激活值、logits" + ("、聚合中的层、缓冲区）另计 " if p.get("sharded") else "）另计 ")
        + f.pct(p["slack_fraction"]) + (" 的碎片（聚合在独立的 CUDA 流上进行）" if p.get("sharded") else " 的碎片（每步反复分配和释放）"),
    ),
    "vram.kbit_recast_bf16": (
        "PEFT prepare_model_for_kbit_training as {trainer} runs it with bf16: the embeddings and LM head are cast back "
        "to bf16, the norms stay fp32, so the residual stream is fp32 and each quantised linear layer keeps a 16-bit "
        "copy of its input",
        "{trainer} 在 bf16 下运行 PEFT `prepare_model_for_kbit_training`：词嵌入和 LM head 转回 bf16，归一化层保持 fp32，"
        "因此残差流为 fp32，每个量化线性层另存一份 16 bit 的输入副本",
    ),
    "vram.kbit_prepare": (
        "PEFT prepare_model_for_kbit_training: its {upcast_params:big} non-quantised weights (embeddings, LM head, norms) "
        "upcast to fp32, so the residual stream is fp32 too and each quantised linear layer keeps a 16-bit copy of its "
        "input",
        "PEFT `prepare_model_for_kbit_training`：{upcast_params:big} 个未量化的权重（词嵌入、LM head、归一化层）升为 fp32，"
        "因此残差流也是 fp32，每个量化线性层另存一份 16 bit 的输入副本",
    ),
    "vram.foreach_step": (
        lambda p, f: f"foreach Adam step (torch._foreach_sqrt of the second moments): {p['buffer_bytes_per_param']:g} B "
        "per trainable parameter more while the step runs, after the activations are freed"
        + ("; it sets the peak" if p.get("over_transient") else "; below the backward pass's peak"),
        lambda p, f: f"多张量实现的 AdamW 更新（对二阶矩做 `torch._foreach_sqrt`）：更新期间每个可训练参数多占 "
        f"{p['buffer_bytes_per_param']:g} B，此时激活值已释放" + ("；它决定峰值" if p.get("over_transient") else "；低于反向传播的峰值"),
    ),
    "vram.grads_after_backward": (
        "gradients freed after every step (`zero_grad` with `set_to_none`, torch's default since 2.0): backward allocates "
        "them as it frees the activations, so of their {gradients_gib:gib} only {counted_gib:gib} adds to the peak",
        "每步之后梯度被释放（`zero_grad` 的 `set_to_none`，torch 2.0 起的默认值）：反向传播一边释放激活值一边分配梯度，"
        "因此 {gradients_gib:gib} 梯度中只有 {counted_gib:gib} 计入峰值",
    ),
    "vram.offload_grad_staging": (
        "FSDP CPU offload: each unit's reduce-scattered gradient shard stays on the GPU until backward ends (the CPU "
        "copy is made beside it), {staged_gib:gib} per GPU; {live_gib:gib} of it adds to the peak beyond the freed "
        "activations, and the rest stays reserved by the allocator for FSDP's gradient stream",
        "FSDP CPU offload：每个单元归约分发后的梯度分片在 GPU 上保留到反向传播结束（CPU 副本另行拷贝），每卡 "
        "{staged_gib:gib}；其中 {live_gib:gib} 超出已释放的激活值、计入峰值，其余由显存分配器为 FSDP 的梯度流预留",
    ),
    "vram.sac_op": (
        lambda p, f: f"op-level selective checkpointing ({p['framework']}'s policy: the attention kernel's output and "
        f"every other matmul's output are kept, the rest recomputed): {p['bytes_per_token']:,} B per token in each of "
        f"the {p['layers']} layers",
        lambda p, f: f"算子级选择性检查点（{p['framework']} 的策略：保留注意力算子的输出和每隔一个矩阵乘法的输出，其余在反向时重算）："
        f"{p['layers']} 层中每层每个 token 保留 {p['bytes_per_token']:,} B",
    ),
    "vram.sac_layers": (
        lambda p, f: f"layer-level selective checkpointing ({p['framework']}): one layer in every {p['every']} is "
        f"recomputed ({p['checkpointed_layers']} of {p['layers']} keep only their input), the others keep all their "
        "activations",
        lambda p, f: f"层级选择性检查点（{p['framework']}）：每 {p['every']} 层中重算一层（{p['layers']} 层中有 "
        f"{p['checkpointed_layers']} 层只保留输入），其余层保留全部激活值",
    ),
    "vram.recompute_after_loss": (
        lambda p, f: "backward frees the loss buffers before it recomputes the last checkpointed layer, so the larger "
        "of the two counts" + (" (here the loss buffers)" if p.get("loss_larger") else " (here the recomputed layer)"),
        lambda p, f: "反向传播先释放损失函数的缓冲区，再重算最后一个检查点层，因此只计两者中较大的一个"
        + ("（此处为损失缓冲区）" if p.get("loss_larger") else "（此处为重算的层）"),
    ),
    "vram.vit_blocks": (
        lambda p, f: f"vision transformer: each of the {p['layers']} blocks keeps {p['bytes_per_token']:,} B per token "
        f"({p['tokens']} tokens per image: patches + class token), counted tensor by tensor in each tensor's dtype "
        f"(attention kernel: {_VIT_KERNEL_EN[p['attention']]})"
        + ("; with checkpointing each block keeps only its input and one block is recomputed at a time"
           if p.get("checkpointed") else ""),
        lambda p, f: f"视觉 Transformer：{p['layers']} 个编码层每层每个 token 保留 {p['bytes_per_token']:,} B"
        f"（每张图 {p['tokens']} 个 token：图块 + 类别 token），逐个张量按其数据类型计算（注意力算子："
        f"{_VIT_KERNEL_ZH[p['attention']]}）"
        + ("；使用梯度检查点时每个编码层只保留输入，每次重算一层" if p.get("checkpointed") else ""),
    ),
    "vram.vit_checkpointing_as_none": (
        lambda p, f: f"{p['checkpointing']} checkpointing is not modelled for a vision transformer: counted as no "
        "checkpointing (an upper bound)",
        lambda p, f: f"视觉 Transformer 未建模{ {'selective': '选择性'}.get(p['checkpointing'], p['checkpointing']) }梯度检查点：按不开检查点计算（上限）",
    ),
    "vram.vit_inference": (
        lambda p, f: f"vision transformer inference: nothing is kept for backward, so one block's working set is live "
        f"at a time, at most {p['bytes_per_token']:,} B per token ({p['tokens']} tokens per image: patches + class "
        f"token); the classification head runs over the class token alone",
        lambda p, f: f"视觉 Transformer 推理：不为反向传播保留任何张量，同一时刻只有一个编码层的工作集，每个 token 至多 "
        f"{p['bytes_per_token']:,} B（每张图 {p['tokens']} 个 token：图块 + 类别 token）；分类头只作用于类别 token",
    ),
    "vram.model_ema_ignored": (
        lambda p, f: f"model EMA not counted: it copies the weights a full training run updates; {p['mode']} training "
        "keeps none",
        lambda p, f: f"未计入模型权重的指数滑动平均：它复制的是全量训练更新的权重，{f.term('mode', p['mode'])}不保留",
    ),
    "vram.dense_logits": (
        lambda p, f: f"per-pixel loss of the segmentation head: {p['classes']} classes upsampled to the {p['pixels']:,}-"
        f"pixel label map in fp32, {f.count(p['heads'], 'loss', 'losses')} at that resolution; at the peak {p['maps']} such maps are held "
        "(each loss's saved log-softmax output, and the two gradients of the loss that backward runs first)",
        lambda p, f: f"分割头的逐像素损失：{p['classes']} 个类别的 logits 上采样到 {p['pixels']:,} 像素的标签图（fp32），"
        f"该分辨率上共 {p['heads']} 个损失；峰值时保留 {p['maps']} 张这样的图（每个损失保存的 log_softmax 输出，以及反向传播"
        "最先处理的那个损失的两个梯度）",
    ),
    "vram.mlm_head": (
        lambda p, f: f"masked-LM head: {p['vocab']:,} logits for each of the {p['tokens']:,} positions of a sequence, "
        f"{p['bytes_per_logit']} B per logit at the loss's peak (cross-entropy straight on the logits, no fp32 upcast "
        "and no shifted copy" + ("; the training step keeps the logits through backward" if p["output_kept"] else "")
        + ")",
        lambda p, f: f"掩码语言模型（MLM）头：每条序列的 {p['tokens']:,} 个位置各有 {p['vocab']:,} 个 logits，损失峰值时每个 "
        f"logit 占 {p['bytes_per_logit']} B（交叉熵直接作用于 logits，不先转为 fp32，也没有移位副本"
        + ("；训练步骤在反向传播期间一直保留 logits" if p["output_kept"] else "") + "）",
    ),
    "vram.dense_logits_ignored": (
        lambda p, f: "segmentation head's per-pixel loss not counted: "
        + ("inference computes no loss" if p["reason"] == "inference"
           else "it is counted on a vision transformer only"),
        lambda p, f: "未计入分割头的逐像素损失："
        + ("推理不计算损失" if p["reason"] == "inference" else "仅对视觉 Transformer 计入"),
    ),
    "vram.model_ema": (
        lambda p, f: f"model EMA on the GPU (timm's ModelEma, on by default in DeiT's recipe): one more copy of the "
        f"{p['params']:,.0f} weights in {p['precision']}, updated after every step",
        lambda p, f: f"GPU 上保留模型权重的指数滑动平均（视觉 Transformer 训练方案默认开启）：再保留一份 "
        f"{p['params']:,.0f} 个权重的 {p['precision']} 副本，每步更新",
    ),
    "vram.autocast_stated": (
        lambda p, f: "torch autocast around the forward and the loss, as stated (HF Trainer bf16/fp16=True): the loss "
        "runs in fp32" if p.get("autocast") else "no torch autocast, as stated (a plain training loop)",
        lambda p, f: "按所述，前向和损失函数在 torch `autocast` 下运行（HF `Trainer` 的 bf16/fp16=True）：损失函数以 fp32 计算"
        if p.get("autocast") else "按所述，不使用 torch `autocast`（普通训练循环）",
    ),
}

def _activations(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        masks = f" + {p['masks']}h [dropout]" if p.get("masks") else ""
        scores = f" + {p['scores']}·a·s/t" if p.get("scores") else ""
        body = (f"s·b·({p['inputs']}h + {2 * p['norm']}h [2 norms]{masks} + ({p['qkv']}·q_dim + {p['qkv']}·kv_dim + "
                f"{p['mlp']}i)/t{scores})")
        if zh:
            body = body.replace("[2 norms]", "[两个归一化层]")
            cross = "；解码器层另含一个交叉注意力块" if p.get("cross") else ""
            return (f"每层激活值 = {body} 字节 —— Korthikanti et al. 2022（arXiv:2205.05198）式 1-2，按模型结构和实现逐个张量计算"
                    f"{cross}")
        cross = "; decoder layers add a cross-attention block" if p.get("cross") else ""
        return (f"activations per layer = {body} bytes — Korthikanti et al. 2022 (arXiv:2205.05198) eq. 1-2 counted "
                f"tensor by tensor for the model's shape and implementation{cross}")

    return render


_VIT_KERNEL_EN = {"flash": "FlashAttention", "mem_efficient": "memory-efficient (fp32)",
                  "explicit": "explicit softmax, scores kept (fp32 under autocast)"}
_VIT_KERNEL_ZH = {"flash": "FlashAttention", "mem_efficient": "省显存算子（fp32）",
                  "explicit": "显式计算注意力，保留归一化后的分数（autocast 下为 fp32）"}


FORMULAS = {
    "formula.profile": ("activations = measured bytes per sample × batch ({source})", "激活值 = 实测每样本字节数 × batch"),
    "formula.kv_cache": ("KV cache = 2 · layers · kv_heads · head_dim · tokens · batch · bytes "
                         "(MLA: (kv_lora_rank + qk_rope_head_dim) · layers · tokens · batch · bytes)",
                         "KV cache = 2 · 层数 · kv_heads · head_dim · token 数 · batch · 字节数"
                         "（MLA：(`kv_lora_rank` + `qk_rope_head_dim`) · 层数 · token 数 · batch · 字节数）"),
    "formula.activations": (_activations(False), _activations(True)),
    "formula.flash": ("FlashAttention removes the a·s² attention-score term", "FlashAttention 去掉了 a·s² 注意力分数项"),
    "formula.recompute": ("full recomputation keeps {stream}·s·b·h per layer + one layer's working set",
                          "完整重算每层只保留 {stream}·s·b·h，外加一层的工作集"),
    "formula.vit_blocks": (
        lambda p, f: f"activations per block = the tensors autograd saves in torchvision's EncoderBlock (LayerNorm "
        f"inputs and residual stream {p['stream']} B, projections, attention and MLP {p['compute']} B per element)"
        + (" — checkpointed: block inputs + one block recomputed" if p.get("recompute") else ""),
        lambda p, f: f"每个编码层的激活值 = `torchvision.models.vision_transformer` 编码层中自动求导为反向保存的张量"
        f"（层归一化的输入与残差流每元素 {p['stream']} B，投影、注意力和 MLP 每元素 {p['compute']} B）"
        + ("——梯度检查点：各层的输入 + 重算一层" if p.get("recompute") else ""),
    ),
    "formula.logits": ("output layer {bytes_per_logit}·s·b·V ({fused_bytes} in Korthikanti §4.3 for a fused loss)",
                       "输出层 {bytes_per_logit}·s·b·V（融合损失函数为 {fused_bytes}，见 Korthikanti §4.3）"),
}

MESSAGES: dict = {**COMPONENTS, **ASSUMPTIONS, **FORMULAS}
