"""The training-time estimator (`tools.train_time.TimeCode`) and MFU sources (`tools.mfu.MfuCode`)."""

from __future__ import annotations

from tools.messages.format import Formatter


def _fill(template: str, p: dict, f: Formatter) -> str:
    from tools.messages.format import fill

    return fill(template, p, f.lang)


def _mfu(en_template: str, zh_template: str):
    """An MFU source (its figures are params) with the scaling factor applied on top, when there is one."""

    def render_en(p: dict, f: Formatter) -> str:
        en = _fill(en_template, p, f)
        if p.get("multi_gpu_factor"):
            return en + f"; ×{f.g(p['multi_gpu_factor'])} for multi-GPU all-reduce without NVLink (assumed)"
        if p.get("multi_node_factor"):
            return en + (f"; ×{f.g(p['multi_node_factor'])} beyond one node (Megatron-LM: {f.pct(p['scaling_efficiency_fraction'])} "
                         f"scaling efficiency on {p['scaling_gpus']} GPUs)")
        return en

    def render_zh(p: dict, f: Formatter) -> str:
        zh = _fill(zh_template, p, f)
        if p.get("multi_gpu_factor"):
            return zh + f"；多卡无 NVLink 的 all-reduce 再乘 {f.g(p['multi_gpu_factor'])}（假设）"
        if p.get("multi_node_factor"):
            return zh + (f"；超过单台机器再乘 {f.g(p['multi_node_factor'])}（Megatron-LM：{p['scaling_gpus']} 卡扩展效率 "
                         f"{f.pct(p['scaling_efficiency_fraction'])}）")
        return zh

    return render_en, render_zh


MESSAGES: dict = {
    "time.flops_full": ("`6·N·D` (forward `2·N·D` + backward `4·N·D`)", "`6·N·D`（前向 `2·N·D` + 反向 `4·N·D`）"),
    "time.flops_full_recompute": ("`8·N·D`: `6·N·D` plus a recomputed forward (full activation checkpointing)",
                                  "`8·N·D`：`6·N·D` 再加一次重算的前向（完整激活检查点）"),
    "time.flops_lora": ("`4·N·D`: LoRA — forward `2·N·D` + activation-gradient backward `2·N·D`, no gradients for frozen weights",
                        "`4·N·D`：LoRA —— 前向 `2·N·D` + 激活梯度反向 `2·N·D`，冻结权重不算梯度"),
    "time.flops_lora_recompute": (
        "`6·N·D`: LoRA (forward 2 + activation-gradient backward 2, no frozen-weight gradients) + 2 recomputed forward",
        "`6·N·D`：LoRA（前向 2 + 激活梯度反向 2，冻结权重不算梯度）+ 重算前向 2",
    ),
    "time.moe_active": ("MoE: {active_params:big} active of {params:big} parameters count",
                        "MoE：按 {params:big} 参数中激活的 {active_params:big} 计算"),
    "time.epochs": ("{tokens:big} tokens × {epochs:g} epochs", "{tokens:big} token × {epochs:g} 个 epoch"),
    "time.dequantised": ("{precision} weights are dequantised: matmuls run at bf16/fp16 rate",
                         "{precision} 权重会反量化：矩阵乘按 bf16/fp16 算力计"),
    "time.compute_precision": ("compute precision {precision} assumed", "假设计算精度为 {precision}"),
    "time.mfu": ("MFU {mfu:.2f}: {source}", "MFU {mfu:.2f}：{source}"),
    "time.qlora_factor": ("QLoRA dequantisation: ×{factor:g} runtime vs 16-bit LoRA (Raschka 2023: +{runtime_increase_fraction:pct})",
                          "QLoRA 反量化：运行时间是 16 bit LoRA 的 {factor:g} 倍（Raschka 2023：+{runtime_increase_fraction:pct}）"),
    "time.lora_no_recompute": ("no activation recomputation counted; with gradient checkpointing on, add `2·N·D`",
                               "未计激活重算；如果开启梯度检查点，再加 `2·N·D`"),
    "time.deadline": ("{gpus} × {gpu} finish within {deadline_hours:g} h", "{gpus} 张 {gpu} 可在 {deadline_hours:g} 小时内完成"),
    "mfu.given": ("given", "用户指定"),
    "mfu.ampere_nvlink": _mfu(
        "LLaMA paper Table 15: {gpus:int} A100-80GB at {mfu_low:pct}-{mfu_high:pct} MFU by `6ND`; median {mfu_median:g}",
        "LLaMA 论文表 15：{gpus:int} 张 A100-80GB 按 `6ND` 计 MFU 为 {mfu_low:pct}-{mfu_high:pct}，中位数 {mfu_median:g}",
    ),
    "mfu.hopper_nvlink": _mfu("Llama 3 paper Table 4: {mfu_low:pct}-{mfu_high:pct} BF16 MFU on {gpus_min:int}-{gpus_max:int} H100",
                              "Llama 3 论文表 4：{gpus_min:int}-{gpus_max:int} 张 H100 上 BF16 MFU 为 {mfu_low:pct}-{mfu_high:pct}"),
    "mfu.volta_nvlink": _mfu("Megatron-LM (Shoeybi et al. 2019): {sustained_tflops:g} TFLOPs per V100 = {mfu_measured:pct} of peak",
                             "Megatron-LM（Shoeybi et al. 2019）：每张 V100 {sustained_tflops:g} TFLOPs，即峰值的 {mfu_measured:pct}"),
    "mfu.pcie": _mfu("assumed: no published MFU table for PCIe/workstation GPUs; ~{below_nvlink_fraction:pct} below NVLink-class",
                     "假设值：PCIe/工作站 GPU 没有公开的 MFU 数据；比 NVLink 机型低约 {below_nvlink_fraction:pct}"),
    "mfu.consumer": _mfu("assumed: consumer GPUs (no NVLink, smaller caches, power-limited clocks)",
                         "假设值：消费级 GPU（无 NVLink，缓存较小，功耗限制频率）"),
    "mfu.other": _mfu("assumed: non-NVIDIA accelerator, less mature training software stack",
                      "假设值：非 NVIDIA 加速卡，训练软件栈不够成熟"),
}
