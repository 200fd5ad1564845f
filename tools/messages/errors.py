"""Errors that reach users (`tools.errors.ErrorCode`). The ``.cli`` forms name the flags; the chat forms never do."""

from __future__ import annotations

from tools.messages.format import Formatter


def _unknown(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        kind = f.term("name_kind", p.get("kind"))
        names = p.get("suggestions") or []
        if zh:
            text = f"未知的{kind}“{p.get('name')}”。"
            return text + (f"你是不是指：{f.list(names)}？" if names else "")
        text = f"Unknown {kind} '{p.get('name')}'."
        return text + (f" Did you mean: {', '.join(str(n) for n in names)}?" if names else "")

    return render


def _no_peak(zh: bool, cli: bool):
    """Names the precisions the catalog does have a sourced peak for on this GPU (`available`), not a generic list."""
    def render(p: dict, f: Formatter) -> str:
        gpu, precision, available = p.get("gpu"), p.get("precision"), list(p.get("available") or [])
        if zh:
            text = f"目录中没有 {gpu} 的 {precision} 稠密峰值算力来源"
            if not available:
                return text + "，也没有其他精度的来源：无法估算这张卡上的时间。"
            return text + (f"；请用 --precision {'/'.join(available)}。" if cli else f"；该卡只有 {f.list(available)} 的数据，可以按它估算。")
        text = f"No sourced dense {precision} peak for {gpu}"
        if not available:
            return text + " nor for any other precision: no time can be estimated on this GPU."
        return text + (f"; pass --precision {'/'.join(available)}." if cli
                       else f"; the catalog has one only for {f.list(available)}, which can be used instead.")

    return render


MESSAGES: dict = {
    "error.unknown_name": (_unknown(False), _unknown(True)),
    "error.qlora_precision": (
        "QLoRA keeps the base model in 4 bits: precision must be nf4 or int4, not {precision}. Use LoRA for a 16-bit base.",
        "QLoRA 的底座模型是 4 bit：精度必须是 nf4 或 int4，而不是 {precision}。16 bit 底座请用 LoRA。",
    ),
    "error.qlora_precision.cli": (
        "QLoRA keeps the base model in 4 bits: precision must be nf4 or int4, not {precision}. "
        "Use --mode lora for a 16-bit base.",
        "QLoRA 的底座模型是 4 bit：--precision 必须是 nf4 或 int4，而不是 {precision}。16 bit 底座请用 --mode lora。",
    ),
    "error.field_needs": ("{field} only applies with {needs}: drop it, or add that.",
                          "{field} 只在 {needs} 时才有意义：去掉它，或加上后者。"),
    "error.tp_pp_over_gpus": ("tensor × pipeline parallel = {tp_pp} is more than the {gpus} GPUs given.",
                              "张量并行 × 流水线并行 = {tp_pp}，超过了给定的 {gpus} 张卡。"),
    "error.tp_pp_over_gpus.cli": ("tp × pp = {tp_pp} is more than --gpus {gpus}.", "tp × pp = {tp_pp} 超过了 --gpus {gpus}。"),
    "error.gpus_not_multiple": ("{gpus} GPUs is not a multiple of tp × pp = {tp_pp}; pick a multiple.",
                                "{gpus} 张卡不是 tp × pp = {tp_pp} 的整数倍，请选整数倍。"),
    "error.gpus_not_multiple.cli": ("--gpus {gpus} is not a multiple of tp × pp = {tp_pp}; pick a multiple.",
                                    "--gpus {gpus} 不是 tp × pp = {tp_pp} 的整数倍，请选整数倍。"),
    "error.full_needs_16bit": (
        "{mode:mode} trains every weight, which needs 16- or 32-bit weights, not {precision}. "
        "Use QLoRA for a 4-bit base, LoRA with int8 weights, or bf16.",
        "{mode:mode}要训练全部权重，需要 16 或 32 bit 权重，不能用 {precision}。4-bit 底座请用 QLoRA，"
        "或用 int8 权重的 LoRA，或改用 bf16。",
    ),
    "error.full_needs_16bit.cli": (
        "--mode {mode} trains every weight, which needs 16- or 32-bit weights, not {precision}. "
        "Use --mode qlora for a 4-bit base, --mode lora --precision int8, or --precision bf16.",
        "--mode {mode} 要训练全部权重，需要 16 或 32 bit 权重，不能用 {precision}。请用 --mode qlora（4-bit 底座）、"
        "--mode lora --precision int8 或 --precision bf16。",
    ),
    "error.offload_inference": (
        "CPU offload is modelled for training only (DeepSpeed ZeRO-Offload / FSDP CPU offload).",
        "CPU offload 只对训练建模（DeepSpeed ZeRO-Offload / FSDP CPU offload）。",
    ),
    "error.offload_inference.cli": (
        "--offload cpu is modelled for training only (DeepSpeed ZeRO-Offload / FSDP CPU offload). Use --offload none.",
        "--offload cpu 只对训练建模（DeepSpeed ZeRO-Offload / FSDP CPU offload），请用 --offload none。",
    ),
    "error.offload_needs_sharding": (
        "CPU offload needs a sharded optimizer: ZeRO-2 (ZeRO-Offload), ZeRO-3 or FSDP.",
        "CPU offload 需要分片的优化器：ZeRO-2（ZeRO-Offload）、ZeRO-3 或 FSDP。",
    ),
    "error.offload_needs_sharding.cli": (
        "--offload cpu needs a sharded optimizer: use --sharding zero2 (ZeRO-Offload), zero3 or fsdp.",
        "--offload cpu 需要分片的优化器：请用 --sharding zero2（ZeRO-Offload）、--sharding zero3 或 --sharding fsdp。",
    ),
    "error.no_peak": (_no_peak(False, False), _no_peak(True, False)),
    "error.no_peak.cli": (_no_peak(False, True), _no_peak(True, True)),
    "error.deadline_positive": ("A deadline must be a positive number of hours.", "期限必须是正的小时数。"),
    "error.deadline_positive.cli": ("A deadline must be a positive number of hours (--deadline-hours 500).",
                                    "期限必须是正的小时数（--deadline-hours 500）。"),
    "error.deadline_too_many": (
        "Finishing in {deadline_hours:g} h would need more than {max_gpus:int} {gpu} GPUs; extend the deadline.",
        "要在 {deadline_hours:g} 小时内完成需要超过 {max_gpus:int} 张 {gpu}，请放宽期限。",
    ),
    "error.no_workload": ("Name a model (or its parameter count), or give a raw memory need in GiB.",
                          "请给出模型名称（或参数量），或者直接给出所需显存（GiB）。"),
    "error.no_workload.cli": ("Give a model (--model, --params or --config) or a raw memory need in GiB.",
                              "请给出模型（--model、--params 或 --config）或所需显存（GiB）。"),
    "error.job_budget_needs_tokens": ("A budget per job needs the job's size: how many tokens (and epochs)?",
                                      "按整个任务计算预算需要知道任务规模：数据有多少 token（训练几个 epoch）？"),
    "error.job_budget_needs_tokens.cli": ("A budget per job needs the job's size: give --tokens (and --epochs).",
                                          "按整个任务计算预算需要任务规模：请给出 --tokens（以及 --epochs）。"),
    "error.deadline_needs_tokens": ("A time limit needs the job's size: how many training tokens (and epochs)?",
                                    "要按截止时间选配置，需要知道任务规模：训练数据有多少 token（几个 epoch）？"),
    "error.deadline_needs_tokens.cli": ("A time limit needs the job's size: give --tokens (and --epochs).",
                                        "要按截止时间选配置，需要任务规模：请给出 --tokens（以及 --epochs）。"),
    "error.job_budget_needs_training": (
        "A budget per job needs a training job (full fine-tuning, LoRA, QLoRA or pretraining), or use a monthly budget.",
        "按整个任务计算预算需要是训练任务（全参数微调、LoRA、QLoRA 或预训练），否则请按月给预算。",
    ),
    "error.job_budget_needs_training.cli": (
        "A budget per job needs a training job: use --mode full/lora/qlora/pretrain, or --period month.",
        "按整个任务计算预算需要训练任务：请用 --mode full/lora/qlora/pretrain，或 --period month。",
    ),
    "error.params_not_positive": ("The parameter count must be a positive number, got {value}.",
                                  "参数量必须是正数，收到的是 {value}。"),
}
