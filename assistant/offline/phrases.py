"""Every sentence the offline brain can say, in English and Chinese.

Templates hold no numbers of their own: every figure is a format field filled
from a tool result, so the verifier can back it.
"""

from __future__ import annotations

P: dict[str, dict[str, str]] = {
    "rec_direct": {
        "en": "**Recommendation:** rent {count}× {gpu} — {provider} `{instance}` ({region}), about {monthly} per month ({billing}, {grade}, {age}). "
        "It needs {need} per GPU against {have} usable ({headroom} headroom).",
        "zh": "**推荐：** 租用 {count}× {gpu} —— {provider} `{instance}`（{region}），每月约 {monthly}（{billing}，{grade}，{age}）。"
        "每卡需要 {need}，可用 {have}（余量 {headroom}）。",
    },
    "rec_direct_unpriced": {
        "en": "**Recommendation:** {count}× {gpu} — {provider} `{instance}` ({region}) fits ({need} needed per GPU, {have} usable), "
        "but its price is unknown in our catalog: check the provider's console.",
        "zh": "**推荐：** {count}× {gpu} —— {provider} `{instance}`（{region}）放得下（每卡需要 {need}，可用 {have}），"
        "但目录中没有它的价格，请到云厂商控制台查询。",
    },
    "rec_job": {
        "en": "For the whole job ({hours} of training) it costs about {job}.",
        "zh": "整个任务（约 {hours} 训练时间）费用约 {job}。",
    },
    "within_budget": {"en": "That is within your budget.", "zh": "在你的预算之内。"},
    "table_head": {
        "en": "| # | Provider | Instance | GPUs | Memory per GPU (need / usable) | {period} cost | Price | Why |\n|---|---|---|---|---|---|---|---|",
        "zh": "| # | 云厂商 | 实例 | GPU | 每卡显存（需要 / 可用） | {period}费用 | 价格来源 | 理由 |\n|---|---|---|---|---|---|---|---|",
    },
    "period_month": {"en": "Monthly", "zh": "每月"},
    "period_job": {"en": "Job", "zh": "整个任务"},
    "period_hour": {"en": "Hourly", "zh": "每小时"},
    "unknown_price": {"en": "unknown — check the console", "zh": "未知，请查控制台"},
    "breakdown": {"en": "**Memory breakdown** (per GPU, {mode}, {precision}): {parts}; total {total}.", "zh": "**显存构成**（每卡，{mode}，{precision}）：{parts}；合计 {total}。"},
    "rejected": {"en": "**Considered but not chosen:**", "zh": "**考虑过但未选：**"},
    "assumptions": {"en": "**Assumptions** (tell me if they are wrong):", "zh": "**假设**（如不符合请告诉我）："},
    "caveats": {"en": "**Caveats from the guidance:**", "zh": "**注意事项（来自指南）：**"},
    "sources": {"en": "**Sources:**", "zh": "**参考：**"},
    "infeasible": {
        "en": "**Not feasible as asked:** nothing in the catalog fits this workload{budget_part}. {why}",
        "zh": "**按当前条件不可行：** 目录中没有能满足该任务{budget_part}的配置。{why}",
    },
    "budget_part": {"en": " within your budget", "zh": "且在预算内"},
    "nearest": {"en": "**What would work instead:**", "zh": "**可行的替代方案：**"},
    "vram_direct": {
        "en": "**{model}** ({mode}, {precision}) needs about **{per_gpu} per GPU**{over_gpus} ({total} in total).",
        "zh": "**{model}**（{mode}，{precision}）大约需要 **每卡 {per_gpu}**{over_gpus}（合计 {total}）。",
    },
    "over_gpus": {"en": " over {gpus} GPUs", "zh": "，分布在 {gpus} 张卡上"},
    "fits_on": {"en": "Fits on: {fits}.", "zh": "放得下的 GPU：{fits}。"},
    "fits_none": {"en": "It does not fit on any single common GPU: use several GPUs with sharding, or LoRA/QLoRA.", "zh": "单张常见 GPU 都放不下：需要多卡分片，或改用 LoRA/QLoRA。"},
    "too_small": {"en": "Too small: {nofit}.", "zh": "放不下：{nofit}。"},
    "time_direct": {
        "en": "Training **{model}** ({mode}) on {gpus}× {gpu} takes about **{hours}** ({days}), i.e. {gpu_hours} GPU-hours, "
        "at {mfu} model FLOPs utilisation.",
        "zh": "在 {gpus}× {gpu} 上训练 **{model}**（{mode}）大约需要 **{hours}**（{days}），即 {gpu_hours} 卡时，"
        "按 {mfu} 的算力利用率（MFU）估算。",
    },
    "time_flops": {"en": "Compute: {flops} FLOPs.", "zh": "计算量：{flops} FLOPs。"},
    "deadline": {"en": "To finish within your deadline you need about {n} GPUs.", "zh": "要在期限内完成，大约需要 {n} 张卡。"},
    "cost_direct": {
        "en": "**{provider} `{instance}`** ({count}× {gpu}, {region}) costs **{total}** for {hours} ({billing}, {grade}, {age}).",
        "zh": "**{provider} `{instance}`**（{count}× {gpu}，{region}）{hours} 的费用为 **{total}**（{billing}，{grade}，{age}）。",
    },
    "cost_unknown": {
        "en": "**{provider} `{instance}`** ({count}× {gpu}): the {billing} price is unknown in our catalog — check the provider's console.",
        "zh": "**{provider} `{instance}`**（{count}× {gpu}）：目录中没有{billing}价格，请到云厂商控制台查询。",
    },
    "cost_lines": {"en": "Billing modes side by side:", "zh": "各计费方式对比："},
    "fx": {"en": "Converted at {rate}.", "zh": "汇率：{rate}。"},
    "spec_gpu": {
        "en": "**{name}** ({architecture}, {form}): {memory} {mtype} ({usable} usable), memory bandwidth {bw}; dense tensor throughput: {bf16} at FP16/BF16, {fp8} at FP8; "
        "BF16: {bf16s}, FP8: {fp8s}; interconnect: {link}; TDP {tdp}.",
        "zh": "**{name}**（{architecture}，{form}）：显存 {memory} {mtype}（可用 {usable}），显存带宽 {bw}；稠密算力：FP16/BF16 为 {bf16}，FP8 为 {fp8}；"
        "BF16：{bf16s}，FP8：{fp8s}；互联：{link}；功耗 {tdp}。",
    },
    "spec_export": {"en": "Export note: {note}", "zh": "出口管制说明：{note}"},
    "spec_model": {
        "en": "**{name}**: {params} parameters, {layers} layers, hidden size {hidden}, {heads} attention heads ({kv} KV heads, {attn}), context {ctx}.",
        "zh": "**{name}**：{params} 参数，{layers} 层，隐藏维度 {hidden}，{heads} 个注意力头（{kv} 个 KV 头，{attn}），上下文 {ctx}。",
    },
    "spec_source": {"en": "Source: {source}.", "zh": "来源：{source}。"},
    "concept_intro": {"en": "Here is what our guidance says:", "zh": "根据我们的选型指南："},
    "concept_none": {
        "en": "I could not find guidance on that in our documents. I can help with choosing GPU servers: memory, training time, cost and providers.",
        "zh": "我们的文档里没有找到相关内容。我可以帮你选择 GPU 服务器：显存、训练时间、费用和云厂商。",
    },
    "offtopic": {
        "en": "I can only help with choosing and sizing GPU servers for AI training and inference — for example: "
        "“What should I rent to fine-tune LLaMA-13B?” or “How much memory does Qwen2.5-7B need for inference?”",
        "zh": "我只能帮你选择和估算用于 AI 训练和推理的 GPU 服务器，比如：“微调 LLaMA-13B 应该租什么机器？”或“Qwen2.5-7B 推理需要多少显存？”",
    },
    "greeting": {
        "en": "Hello! Tell me your model, task (inference, LoRA, full fine-tune, pretraining) and budget, and I will recommend a GPU server and show the numbers.",
        "zh": "你好！告诉我模型、任务（推理、LoRA、全量微调、预训练）和预算，我会推荐合适的 GPU 服务器并给出计算依据。",
    },
    "injection": {
        "en": "I can't change my rules or reveal my instructions or keys. ",
        "zh": "我不能更改规则，也不能透露系统指令或密钥。",
    },
    "negative": {
        "en": "“{value}” is not a valid size: sizes, counts and budgets must be positive numbers. Please restate it with a positive size, or name the model.",
        "zh": "“{value}”不是有效的数值：规模、数量和预算都必须是正数。请用正数重新描述，或直接给出模型名称。",
    },
    "unknown_model": {
        "en": "I don't know the model “{name}”.{suggest} You can also give its parameter count and I'll assume a standard decoder shape.",
        "zh": "我不认识模型“{name}”（未知模型）。{suggest}你也可以直接给出参数量，我会按标准解码器结构估算。",
    },
    "unknown_gpu": {
        "en": "I don't know the GPU “{name}”: it is not in our catalog.{suggest} Ask `gpu-advisor catalog gpus` for the full list.",
        "zh": "我不认识 GPU“{name}”，它不在我们的目录中。{suggest}可以用 `gpu-advisor catalog gpus` 查看完整列表。",
    },
    "did_you_mean": {"en": " Did you mean: {names}?", "zh": "你是不是指：{names}？"},
    "tool_error": {"en": "I could not compute that: {error}", "zh": "无法计算：{error}"},
    "question_model": {"en": "**Question:** which model (or how many parameters) will you use? That decides the memory more than anything else.",
                       "zh": "**问题：** 你要用哪个模型（或多少参数）？这是决定显存的最关键因素。"},
    "question_mode": {"en": "**Question:** LoRA, QLoRA or full fine-tuning? Full fine-tuning needs several times the memory of LoRA.",
                      "zh": "**问题：** 你打算用 LoRA、QLoRA 还是全量微调？全量微调的显存需求是 LoRA 的数倍。"},
    "question_budget": {"en": "**Question:** what is your budget (per month or for the whole job), and in which currency?",
                        "zh": "**问题：** 你的预算是多少（每月还是整个任务），用什么币种？"},
    "question_tokens": {"en": "**Question:** how many tokens is your dataset (and how many epochs)? Time scales linearly with it.",
                        "zh": "**问题：** 你的数据集有多少 token（训练几个 epoch）？训练时间与之成正比。"},
    "assume_model": {"en": "a 7B-parameter model (standard decoder shape)", "zh": "7B 参数模型（标准解码器结构）"},
    "assume_mode": {"en": "task: {value}", "zh": "任务：{value}"},
    "assume_gpu": {"en": "GPU: {value}", "zh": "GPU：{value}"},
    "assume_serving": {"en": "serving {value} concurrent sequences (KV cache for each)", "zh": "同时服务 {value} 个请求（各自占用 KV cache）"},
    "assume_gpus": {"en": "one GPU", "zh": "单卡"},
    "assume_tokens": {"en": "a fine-tuning set of about 100 million tokens", "zh": "约 1 亿 token 的微调数据集"},
    "caveat_spot": {"en": "Spot capacity can be reclaimed at any time: save checkpoints regularly and use an auto-restart script.",
                    "zh": "竞价实例随时可能被回收：务必定期保存检查点，并配置自动重启脚本。"},
    "caveat_multi": {"en": "This option spreads the model over several GPUs: prefer NVLink/NVSwitch-connected GPUs, PCIe-only links slow sharded training.",
                     "zh": "该方案把模型分布在多张卡上：优先选择 NVLink/NVSwitch 互联的机器，仅 PCIe 互联会拖慢分片训练。"},
    "caveat_bf16": {"en": "{gpu} has no BF16 support: train in FP16 with loss scaling, or pick an Ampere-or-newer GPU.",
                    "zh": "{gpu} 不支持 BF16：需要用 FP16 + loss scaling，或改选 Ampere 及更新架构的 GPU。"},
    "caveat_verify": {"en": "After renting, confirm the GPU model with nvidia-smi and run a short PyTorch benchmark before the real job.",
                      "zh": "开通后先用 nvidia-smi 确认显卡型号，再跑一个简短的 PyTorch 基准测试，然后再开始正式任务。"},
    "caveat_marketplace": {"en": "Marketplace prices are single samples that change hourly.", "zh": "算力市场的价格只是某一时刻的报价，随时变化。"},
    "caveat_china": {"en": "For mainland China, our catalog has no public list prices for Alibaba, Tencent or Huawei Cloud: check their consoles.",
                     "zh": "国内阿里云、腾讯云、华为云在我们的目录中没有公开标价，请到控制台查询实时价格。"},
    "no_bf16": {"en": "no", "zh": "否"},
    "yes": {"en": "yes", "zh": "是"},
    "no": {"en": "no", "zh": "否"},
    "supported": {"en": "supported", "zh": "支持"},
    "not_supported": {"en": "not supported (no native support)", "zh": "不支持"},
    "unknown": {"en": "unknown", "zh": "未知"},
    "date_unknown": {"en": "date unknown", "zh": "日期未知"},
    "as_of": {"en": "as of {date}", "zh": "{date} 数据"},
}

MODE_NAMES = {
    "inference": {"en": "inference", "zh": "推理"},
    "full": {"en": "full fine-tune", "zh": "全量微调"},
    "lora": {"en": "LoRA", "zh": "LoRA 微调"},
    "qlora": {"en": "QLoRA", "zh": "QLoRA 微调"},
    "pretrain": {"en": "pretraining", "zh": "预训练"},
}
BILLING_NAMES = {
    "on_demand": {"en": "on-demand", "zh": "按量付费"},
    "spot": {"en": "spot", "zh": "竞价实例"},
    "monthly": {"en": "monthly subscription", "zh": "包月"},
    "yearly": {"en": "yearly reservation", "zh": "包年"},
}
GRADE_NAMES = {
    "official list price": {"en": "official list price", "zh": "官方标价"},
    "user-supplied": {"en": "your negotiated price", "zh": "用户提供价格"},
    "third-party report": {"en": "third-party report", "zh": "第三方报价"},
    "marketplace sample (changes hourly)": {"en": "marketplace sample, changes hourly", "zh": "市场报价，随时变化"},
}


def say(key: str, lang: str, **fields: object) -> str:
    return P[key][lang].format(**fields)


def name_of(table: dict[str, dict[str, str]], value: str | None, lang: str) -> str:
    if value is None:
        return P["unknown"][lang]
    return table.get(value, {}).get(lang, value)
