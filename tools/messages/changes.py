"""Change kinds: advice in the chat (en, zh) and flags on the CLI (`change.<kind>.cli`, language-free)."""

from __future__ import annotations

from tools.messages.format import Formatter

MODE_EN = {"inference": "inference", "full": "full fine-tuning", "lora": "LoRA", "qlora": "QLoRA (a 4-bit base)", "pretrain": "pretraining"}
MODE_ZH = {"inference": "推理", "full": "全参数微调", "lora": "LoRA", "qlora": "QLoRA（4-bit 底座）", "pretrain": "预训练"}
REGION_EN = {"any": "every region", "cn": "mainland China", "intl": "outside mainland China"}
REGION_ZH = {"any": "所有地区", "cn": "中国大陆", "intl": "中国大陆以外"}


def _v(p: dict, table: dict) -> str:
    return table.get(str(p.get("value")), str(p.get("value")))


MESSAGES: dict = {
    "change.set_mode": (lambda p, f: f"use {_v(p, MODE_EN)}", lambda p, f: f"改用 {_v(p, MODE_ZH)}"),
    "change.set_mode.cli": ("--mode {value}", "--mode {value}"),
    "change.set_precision": ("use {value} weights", "权重改用 {value}"),
    "change.set_precision.cli": ("--precision {value}", "--precision {value}"),
    "change.set_weights": ("serve {value} weights", "推理权重改用 {value}"),
    "change.set_weights.cli": ("--weights {value}", "--weights {value}"),
    "change.set_kv_precision": ("store the KV cache in {value}", "KV cache 改用 {value}"),
    "change.set_kv_precision.cli": ("--kv-precision {value}", "--kv-precision {value}"),
    "change.set_checkpointing": ("turn on {value} gradient checkpointing", "开启 {value} 梯度检查点"),
    "change.set_checkpointing.cli": ("--checkpointing {value}", "--checkpointing {value}"),
    "change.set_batch_size": ("use batch size {value} with gradient accumulation", "改用 batch size {value} 加梯度累积"),
    "change.set_batch_size.cli": ("--batch-size {value}", "--batch-size {value}"),
    "change.set_max_gpus": ("allow up to {value} GPUs (a multi-node cluster)", "允许最多 {value} 张卡（多机集群）"),
    "change.set_max_gpus.cli": ("--max-gpus {value}", "--max-gpus {value}"),
    "change.set_gpus": ("spread the job over {value} GPUs", "把任务分到 {value} 张卡上"),
    "change.set_gpus.cli": ("--gpus {value}", "--gpus {value}"),
    "change.shorten_context": ("shorten the context to {value:int} tokens", "把上下文缩短到 {value:int} token"),
    "change.shorten_context.cli": ("--seq-len {value}", "--seq-len {value}"),
    "change.widen_region": (lambda p, f: f"search {_v(p, REGION_EN)}", lambda p, f: f"把范围扩大到{_v(p, REGION_ZH)}"),
    "change.widen_region.cli": ("--region {value}", "--region {value}"),
    "change.drop_providers": ("drop the provider filter", "不限云厂商"),
    "change.drop_providers.cli": ("(no --provider)", "(no --provider)"),
    "change.drop_gpu_filter": ("allow any GPU model", "不限 GPU 型号"),
    "change.drop_gpu_filter.cli": ("(no --gpu)", "(no --gpu)"),
    "change.drop_billing": ("allow any billing mode", "不限计费方式"),
    "change.drop_billing.cli": ("(no --billing)", "(no --billing)"),
    "change.set_billing": ("use {value} billing", "改用 {value} 计费"),
    "change.set_billing.cli": ("--billing {value}", "--billing {value}"),
    "change.raise_budget": ("raise the budget to {value:money}", "把预算提高到 {value:money}"),
    "change.raise_budget.cli": ("--budget {value:.0f}", "--budget {value:.0f}"),
    "change.lower_concurrency": ("serve at most {value} concurrent requests", "把并发降到 {value}"),
    "change.lower_concurrency.cli": ("--concurrency {value}", "--concurrency {value}"),
    "change.set_engine": ("use the {value} engine", "改用 {value} 推理引擎"),
    "change.set_engine.cli": ("--engine {value}", "--engine {value}"),
}

# What a change does, without its value (the list of what was tried when nothing helped)
MESSAGES.update({
    "term.change.set_mode": ("another training mode (LoRA, QLoRA)", "换训练方式（LoRA、QLoRA）"),
    "term.change.set_precision": ("lower-precision weights", "更低精度的权重"),
    "term.change.set_weights": ("another weight format", "换一种权重格式"),
    "term.change.set_kv_precision": ("a lower-precision KV cache", "更低精度的 KV cache"),
    "term.change.set_checkpointing": ("gradient checkpointing", "梯度检查点"),
    "term.change.set_batch_size": ("a smaller batch", "更小的 batch"),
    "term.change.set_max_gpus": ("a multi-node cluster", "多机集群"),
    "term.change.set_gpus": ("more GPUs", "更多的卡"),
    "term.change.shorten_context": ("a shorter context", "更短的上下文"),
    "term.change.widen_region": ("every region", "所有地区"),
    "term.change.drop_providers": ("any provider", "不限云厂商"),
    "term.change.drop_gpu_filter": ("any GPU model", "不限 GPU 型号"),
    "term.change.drop_billing": ("any billing mode", "不限计费方式"),
    "term.change.set_billing": ("another billing mode", "换计费方式"),
    "term.change.raise_budget": ("a larger budget", "更高的预算"),
    "term.change.lower_concurrency": ("fewer concurrent requests", "更低的并发"),
    "term.change.set_engine": ("another serving engine", "换推理引擎"),
})

_ = Formatter  # templates receive a Formatter as their second argument
