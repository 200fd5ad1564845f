"""What the offline brain says around the calculators' results: leads, titles, assumptions, questions, notices.

Codes are defined by the modules that emit them (assistant/offline/…: `AnswerCode`,
`AssumeCode`, `AskCode`); their renderings live here, one pair per code.
Templates hold no numbers of their own: every figure is a parameter.
"""

from __future__ import annotations

from tools.messages.format import Formatter

MODE_EN = {"inference": "inference", "full": "full fine-tuning", "lora": "LoRA fine-tuning", "qlora": "QLoRA fine-tuning",
           "pretrain": "pretraining", "finetune": "fine-tuning"}
MODE_ZH = {"inference": "推理", "full": "全参数微调", "lora": "LoRA 微调", "qlora": "QLoRA 微调", "pretrain": "预训练",
           "finetune": "微调"}
BILLING_EN = {"on_demand": "on-demand", "spot": "spot", "monthly": "monthly", "yearly": "yearly"}
BILLING_ZH = {"on_demand": "按量付费", "spot": "竞价实例", "monthly": "包月", "yearly": "包年"}
PER_EN = {"hour": "per hour", "month": "per month", "job": "for the whole job", "day": "per day", "year": "per year"}
PER_ZH = {"hour": "每小时", "month": "每月", "job": "整个任务", "day": "每天", "year": "每年"}
WEEKDAY_ZH = {"monday": "周一", "tuesday": "周二", "wednesday": "周三", "thursday": "周四", "friday": "周五", "saturday": "周六", "sunday": "周日"}
FEATURE_EN = {"fp8": "FP8", "bf16": "BF16", "fp4": "FP4", "nvlink": "NVLink", "infiniband": "InfiniBand", "tensor_cores": "tensor cores", "int8": "INT8"}


SLOT_EN = {"model": "the model", "model_name": "the model", "params": "the model size", "mode": "the method", "precision": "the precision",
           "gpus": "the GPU", "gpu_count": "the GPU count", "available_gib": "the GPU memory", "budget": "the budget",
           "billing": "the billing", "region": "the region", "providers": "the providers", "instance": "the instance",
           "tokens": "the data size", "epochs": "the epochs", "seq_len": "the context length", "batch_size": "the batch size",
           "concurrency": "the concurrency", "users": "the number of users", "requests_per_day": "the requests per day",
           "request_rate": "the request rate", "input_len": "the prompt length", "output_len": "the answer length",
           "ttft_ms": "the latency target", "tokens_per_s_per_user": "the speed target", "deadline": "the deadline",
           "hours": "the hours", "hours_per_day": "the hours per day", "lora_rank": "the LoRA rank", "features": "the features",
           "engine": "the serving engine", "vllm_version": "the vLLM version", "traffic": "the kind of traffic", "owned": "that the GPUs are your own", "examples": "the number of examples", "example_tokens": "the length of an example",
           "min_memory_gb": "the memory floor"}
SLOT_ZH = {"model": "模型", "model_name": "模型", "params": "模型规模", "mode": "训练方式", "precision": "精度", "gpus": "GPU 型号",
           "gpu_count": "卡数", "available_gib": "显存", "budget": "预算", "billing": "计费方式", "region": "地区",
           "providers": "云厂商", "instance": "实例", "tokens": "数据量", "epochs": "轮数", "seq_len": "上下文长度",
           "batch_size": "批大小", "concurrency": "并发", "users": "用户数", "requests_per_day": "日请求量",
           "request_rate": "请求速率", "input_len": "输入长度", "output_len": "输出长度", "ttft_ms": "首 token 延迟要求",
           "tokens_per_s_per_user": "每用户速度要求", "deadline": "截止时间", "hours": "使用时长", "hours_per_day": "每天使用时长",
           "lora_rank": "LoRA rank", "features": "特性", "engine": "推理引擎", "vllm_version": "vLLM 版本", "traffic": "流量类型", "owned": "显卡是你自己的", "examples": "样本条数", "example_tokens": "每条样本的长度",
           "min_memory_gb": "显存下限"}


def _flops(x) -> str:
    """8.09×10²² rather than 8.09e+22: an exponent reads as a word to a Chinese reader."""
    v = float(x or 0)
    if v <= 0:
        return "0"
    exp = int(f"{v:e}".split("e")[1])
    mant = v / 10**exp
    sup = str(exp).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mant:.2f}×10{sup}"


def _mode(p: dict, f: Formatter, key: str = "mode") -> str:
    v = str(p.get(key) or "")
    return (MODE_ZH if f.zh else MODE_EN).get(v, v)


def _seq(p: dict, f: Formatter) -> str:
    """The sequence length the user stated, echoed beside the mode (assumed lengths are listed under assumptions)."""
    if not p.get("seq_len"):
        return ""
    return f"，序列长度 {f.int(p['seq_len'])}" if f.zh else f", {f.int(p['seq_len'])}-token sequences"


# The catalog describes a GPU's architecture and board in English words (knowledge/catalog/data/gpus.yaml);
# a Chinese answer translates those words and keeps the names (Ampere, SXM5, NVL72, Atlas 800T A2).
_CATALOG_WORDS_ZH = (
    ("OAM-like module", "类 OAM 模组"), ("Da Vinci", "达芬奇"), ("per Alibaba doc profile", "据阿里云文档"),
    ("per Alibaba doc", "据阿里云文档"), ("Grace CPU", "Grace CPU"), ("consumer card", "消费级显卡"),
    ("server / workstation", "服务器/工作站"), ("workstation / server", "工作站/服务器"), ("workstation", "工作站"),
    ("dual-GPU board", "双 GPU 板卡"), ("quad-GPU board", "四 GPU 板卡"), ("dual-slot", "双槽"),
    ("single-slot", "单槽"), ("low profile", "半高"), ("passive", "被动散热"), ("NVLink-bridged pairs", "两卡 NVLink 桥接"),
    ("SXM-class", "SXM 级"), ("Superchip", "超级芯片"), (", ", "，"), (" (", "（"), ("(", "（"), (")", "）"),
)


def catalog_words(text: object, f: Formatter) -> str:
    """A catalog description (architecture, form factor) in the answer's language."""
    out = str(text or "")
    if f.zh:
        for en, zh in _CATALOG_WORDS_ZH:
            out = out.replace(en, zh)
    return out


def _billing(p: dict, f: Formatter) -> str:
    v = str(p.get("billing") or "")
    return (BILLING_ZH if f.zh else BILLING_EN).get(v, v)


def _per(p: dict, f: Formatter) -> str:
    v = str(p.get("per") or "")
    return (PER_ZH if f.zh else PER_EN).get(v, v)


def _list(items, f: Formatter) -> str:
    items = [str(i) for i in (items or [])]
    return ("、" if f.zh else ", ").join(items)


def _gpus(p: dict, f: Formatter) -> str:
    n = p.get("count") or 1
    return f"{f.g(n)}× {p.get('gpu')}" if n != 1 else str(p.get("gpu"))


def _count(p: dict, f: Formatter, key: str = "gpus") -> str:
    return f.g(p.get(key) or 1)


def _cost_phrase(p: dict, f: Formatter) -> str:
    per = p.get("per") or "month"
    amount = p.get("cost")
    cur = p.get("currency")
    spec = {"hour": "hour", "month": "month", "job": "job", "day": "day"}.get(per)
    money = f.money(amount, cur, spec)
    if f.zh:
        return {"hour": f"每小时约 {f.money(amount, cur)}", "month": f"每月约 {f.money(amount, cur)}",
                "job": f"整个任务约 {f.money(amount, cur)}"}.get(per, f"约 {money}")
    return {"hour": f"about {f.money(amount, cur)} per hour", "month": f"about {f.money(amount, cur)} per month",
            "job": f"about {f.money(amount, cur)} for the whole job"}.get(per, f"about {money}")


def _rec_lead(p: dict, f: Formatter) -> str:
    where = str(p.get("provider_zh") if f.zh and p.get("provider_zh") else p.get("provider_name") or p.get("provider"))
    gpus = f"{f.g(p.get('total_gpus') or p.get('gpu_count') or 1)}× {p.get('gpu')}"
    if f.zh:
        return (f"**推荐：租 {gpus}** —— {where} `{p.get('instance')}`（{f.region(p.get('region'))}），{_cost_phrase(p, f)}"
                f"（{_billing(p, f)}）。每卡需要 {f.gib(p.get('needed_gib'))}，可用 {f.gib(p.get('usable_gib'))}"
                f"（余量 {f.gib(p.get('headroom_gib'))}）。")
    return (f"**Rent {gpus}** — {where} `{p.get('instance')}` ({p.get('region')}), {_cost_phrase(p, f)} "
            f"({_billing(p, f)}). It needs {f.gib(p.get('needed_gib'))} per GPU of {f.gib(p.get('usable_gib'))} usable "
            f"({f.gib(p.get('headroom_gib'))} headroom).")


def _rec_unpriced(p: dict, f: Formatter) -> str:
    gpus = f"{f.g(p.get('total_gpus') or p.get('gpu_count') or 1)}× {p.get('gpu')}"
    where = p.get("provider_zh") if f.zh and p.get("provider_zh") else p.get("provider_name") or p.get("provider")
    if f.zh:
        return (f"**{gpus} 放得下** —— {where} `{p.get('instance')}`（{f.region(p.get('region'))}），每卡需要 {f.gib(p.get('needed_gib'))}，"
                f"可用 {f.gib(p.get('usable_gib'))}；但目录里没有它的价格，请到控制台查询。")
    return (f"**{gpus} fits** — {where} `{p.get('instance')}` ({p.get('region')}), {f.gib(p.get('needed_gib'))} per GPU of "
            f"{f.gib(p.get('usable_gib'))} usable; its price is not in our catalog: check the provider's console.")


def _feas_yes(p: dict, f: Formatter) -> str:
    target = _target(p, f)
    total = p.get("total_gib")
    if f.zh:
        return (f"**能。** {p.get('model')}（{_mode(p, f)}）在{_spaced(target)}上每卡需要约 **{f.gib(p.get('needed_gib'))}**"
                + (f"（合计 {f.gib(total)}）" if total else "") + f"，可用 {f.gib(p.get('usable_gib'))}，还剩 {f.gib(p.get('headroom_gib'))}。")
    return (f"**Yes.** {p.get('model')} ({_mode(p, f)}) needs about **{f.gib(p.get('needed_gib'))} per GPU** on {target}"
            + (f" ({f.gib(total)} in total)" if total else "") + f", which has {f.gib(p.get('usable_gib'))} usable: {f.gib(p.get('headroom_gib'))} to spare.")


def _feas_no(p: dict, f: Formatter) -> str:
    target = _target(p, f)
    total = p.get("total_gib")
    if f.zh:
        return (f"**按现在的设置放不下。** {p.get('model')}（{_mode(p, f)}）每卡需要约 **{f.gib(p.get('needed_gib'))}**"
                + (f"（合计 {f.gib(total)}）" if total else "") + f"，{_spaced(target, lead=False)}只有 {f.gib(p.get('usable_gib'))} 可用，差 {f.gib(p.get('short_gib'))}。")
    return (f"**No — it does not fit as asked.** {p.get('model')} ({_mode(p, f)}) needs about **{f.gib(p.get('needed_gib'))} per GPU**"
            + (f" ({f.gib(total)} in total)" if total else "") + f"; {target} has {f.gib(p.get('usable_gib'))} usable, {f.gib(p.get('short_gib'))} short.")


def _spaced(text: str, *, lead: bool = True) -> str:
    """Chinese puts a space between CJK and Latin text, none between CJK characters: "在 RTX-4090 上", "在一张卡上"."""
    import re

    head = " " if lead and re.match(r"[A-Za-z0-9]", text) else ""
    tail = " " if re.search(r"[A-Za-z0-9)]$", text) else ""
    return f"{head}{text}{tail}"


def _gpu_hours(p: dict, f: Formatter) -> str:
    """GPU-hours as a person says them: whole hours from ten up, one decimal below."""
    x = p.get("gpu_hours") or 0
    return f.int(x) if x >= 10 else f.g(round(x, 1))


def _target(p: dict, f: Formatter) -> str:
    count = p.get("count") or 1
    if p.get("gpu"):
        name = f"{f.g(count)}× {p['gpu']}" if count > 1 else (f"一张 {p['gpu']}" if f.zh else f"one {p['gpu']}")
    else:
        mem = f"{f.g(p.get('available_gib'))} GB"
        name = (f"{f.g(count)} 张 {mem} 显存的卡" if count > 1 else f"{mem} 显存的卡") if f.zh else (
            f"{f.g(count)}× {mem} cards" if count > 1 else f"a {mem} card")
    layout = p.get("layout")
    if layout == "zero3":
        name += "（ZeRO-3 分片）" if f.zh else " (ZeRO-3 sharding)"
    elif layout == "tp":
        name += "（张量并行）" if f.zh else " (tensor parallel)"
    elif layout == "ddp":
        name += "（数据并行，每卡一份完整副本）" if f.zh else " (data parallel, a full copy per GPU)"
    return name


MESSAGES: dict = {
    # ------------------------------------------------------------ titles
    "answer.assumptions": ("**Assumptions** (tell me if they are wrong):", "**假设**（如不符合请告诉我）："),
    "answer.caveats": ("**Caveats:**", "**注意事项：**"),
    "guide.your_setup": ("**For your setup**, the estimate says:", "**按你的配置**估算："),
    "answer.sources": ("**Sources:**", "**参考：**"),
    "answer.rejected": ("**Considered but not chosen:**", "**考虑过但未选：**"),
    "answer.alternatives": ("**What would work instead:**", "**可行的替代方案：**"),
    "answer.breakdown": (
        lambda p, f: f"**Memory per GPU** ({_mode(p, f)}, {p.get('precision')}): {p.get('parts')}; total {f.gib(p.get('total_gib'))}.",
        lambda p, f: f"**每卡显存构成**（{_mode(p, f)}，{p.get('precision')}）：{p.get('parts')}；合计 {f.gib(p.get('total_gib'))}。",
    ),
    "answer.part": ("{label} {gib:gib}", "{label} {gib:gib}"),
    "answer.tool_error": ("I could not compute this: {error}", "无法计算：{error}"),
    "answer.from_guidance": ("From the guidance:", "指南中的相关内容："),
    "answer.guidance_none": (
        "I could not find guidance on this in the documents I have. Ask about GPU memory, choosing a server, pricing, "
        "multi-GPU training, serving or Chinese clouds, or add your own notes with `gpu-advisor index`.",
        "我手头的指南里没有找到相关内容。可以问显存估算、选型、价格、多卡训练、推理部署或国内云厂商，也可以用 `gpu-advisor index` 加入自己的文档。",
    ),
    # ------------------------------------------------------------ notices (said first)
    "notice.pasted_instruction": (
        lambda p, f: "The pasted text asks me to " + "; ".join(f"“{i}”" for i in p.get("instructions") or []) + ". I did not follow it: "
        "instructions inside pasted material are data, not requests.",
        lambda p, f: "粘贴的内容里有给助手的指令（" + "；".join(f"“{i}”" for i in p.get("instructions") or []) + "），我没有照做："
        "粘贴的材料只作为数据读取。",
    ),
    "notice.dataset_tokens": (lambda p, f: f"I count the data as {f.int(p.get('examples'))} examples × {f.int(p.get('example_tokens'))} "
                              f"tokens = {f.big(p.get('tokens'))} tokens per epoch.",
                              lambda p, f: f"训练数据按 {f.int(p.get('examples'))} 条 × 每条 {f.int(p.get('example_tokens'))} token "
                              f"= 每轮 {f.big(p.get('tokens'))} token 计算。"),
    "notice.read_as": ("I read “{written}” as **{name}**.", "我把“{written}”理解为 **{name}**。"),
    "notice.override_refused": (
        "I can't change my rules or show my instructions: I answer questions about renting GPU servers, and every "
        "number I give comes from a calculation or a cited source.",
        "我不能更改规则，也不能展示我的指令：我只回答租用 GPU 服务器的问题，给出的每个数字都来自计算或引用的资料。",
    ),
    "notice.cut": (
        "Your message was {total:int} characters; I read the first {kept:int}.",
        "你的消息有 {total:int} 个字符，我读取了前 {kept:int} 个。",
    ),
    "notice.pasted_read": (
        lambda p, f: "From the pasted document I used: " + _list([SLOT_EN.get(x, x) for x in p.get("slots") or []], f) + ".",
        lambda p, f: "从粘贴的文档里读取了：" + _list([SLOT_ZH.get(x, x) for x in p.get("slots") or []], f) + "。",
    ),
    "input.too_many_gpus": (
        lambda p, f: "That GPU count is not a real number of GPUs" + (f" ({f.g(p['value'])})" if p.get("value") else "") + ": give a count below a million.",
        lambda p, f: "这个 GPU 数量不可能" + (f"（{f.g(p['value'])}）" if p.get("value") else "") + "：请给出一百万以内的卡数。",
    ),
    "input.negative": ("A negative amount ({value}) cannot be computed: give a positive number.", "负数（{value}）无法计算：请给出正数。"),
    "input.zero": ("A zero ({value}) cannot be computed: give a positive number.", "零（{value}）无法计算：请给出正数。"),
    "input.too_large": ("The number {value} is too large to be meant: give a realistic figure.", "数字 {value} 过大，不像是实际数值：请给出合理的数字。"),
    "input.unknown_model": (
        lambda p, f: f"I don't know the model '{p.get('name')}'." + (f" Did you mean: {_list(p.get('suggestions'), f)}?" if p.get("suggestions") else "")
        + " Give its parameter count (e.g. 13B) and I will size it from that.",
        lambda p, f: f"我不认识模型“{p.get('name')}”。" + (f"你是指：{_list(p.get('suggestions'), f)}？" if p.get("suggestions") else "")
        + "告诉我它的参数量（例如 13B），我就按参数量来估算。",
    ),
    "input.unknown_gpu": (
        lambda p, f: f"I don't know the GPU '{p.get('name')}'." + (f" Did you mean: {_list(p.get('suggestions'), f)}?" if p.get("suggestions") else ""),
        lambda p, f: f"我不认识 GPU“{p.get('name')}”。" + (f"你是指：{_list(p.get('suggestions'), f)}？" if p.get("suggestions") else ""),
    ),
    # ------------------------------------------------------------ chit-chat, out of scope
    "chat.greeting": (
        "Hi! I help you choose a GPU server to rent for training or serving AI models: memory needed, whether it fits, "
        "cost per month or per job, time to train, serving throughput, and which provider to pick. Tell me the model "
        "and what you want to do with it (and a budget, if you have one).",
        "你好！我可以帮你选租用的 GPU 服务器：估算显存、判断放不放得下、每月或整个任务的费用、训练时长、推理吞吐，以及选哪家云。"
        "告诉我模型和要做什么（有预算的话也说一下）。",
    ),
    "chat.thanks": ("You're welcome — ask again any time.", "不客气，随时再问。"),
    "chat.out_of_scope": (
        "I only answer questions about renting GPU servers for AI training and inference (memory, cost, speed, providers). "
        "That question is outside what I can help with.",
        "我只回答租用 GPU 服务器做 AI 训练和推理的问题（显存、费用、速度、云厂商）。这个问题不在我能帮忙的范围内。",
    ),
    # ------------------------------------------------------------ memory
    "memory.lead": (
        lambda p, f: f"**{p.get('model')}** ({_mode(p, f)}, {p.get('precision')}{_seq(p, f)}) needs about **{f.gib(p.get('per_gpu_gib'))} per GPU**"
        + (f" over {f.g(p.get('gpus'))} GPUs ({f.gib(p.get('total_gib'))} in total)." if (p.get("gpus") or 1) > 1 else "."),
        lambda p, f: f"**{p.get('model')}**（{_mode(p, f)}，{p.get('precision')}{_seq(p, f)}）大约需要 **每卡 {f.gib(p.get('per_gpu_gib'))}**"
        + (f"，分布在 {f.g(p.get('gpus'))} 张卡上（合计 {f.gib(p.get('total_gib'))}）。" if (p.get("gpus") or 1) > 1 else "。"),
    ),
    "memory.fits_on": (lambda p, f: "Fits on one: " + _list(p.get("gpus"), f) + ".", lambda p, f: "单卡放得下：" + _list(p.get("gpus"), f) + "。"),
    "memory.too_small": (lambda p, f: "Too small: " + _list(p.get("gpus"), f) + ".", lambda p, f: "放不下：" + _list(p.get("gpus"), f) + "。"),
    "memory.fits_none": (
        "It fits on no single common GPU; below is what a multi-GPU layout or a lighter method needs.",
        "单张常见 GPU 都放不下；下面是多卡或更省显存的做法所需的显存。",
    ),
    "memory.gpu_fit": ("{gpu} ({usable_gib:gib}, {headroom_gib:gib} to spare)", "{gpu}（{usable_gib:gib}，余 {headroom_gib:gib}）"),
    "memory.gpu_nofit": ("{gpu} ({usable_gib:gib})", "{gpu}（{usable_gib:gib}）"),
    "memory.sharded": (
        lambda p, f: f"On {f.g(p.get('gpus'))} GPUs ({p.get('layout')}) it needs {f.gib(p.get('per_gpu_gib'))} per GPU.",
        lambda p, f: f"分到 {f.g(p.get('gpus'))} 张卡上（{ {'tensor parallel': '张量并行'}.get(p.get('layout'), p.get('layout')) }）每卡需要 {f.gib(p.get('per_gpu_gib'))}。",
    ),
    # ------------------------------------------------------------ feasibility
    "feas.yes": (_feas_yes, _feas_yes),
    "feas.no": (_feas_no, _feas_no),
    "feas.change": (
        lambda p, f: (f"On {p['on']}, the cheapest change that makes it fit: " if p.get("on") else "The cheapest change that makes it fit: ")
        + f"**{p.get('change')}** — then it needs {f.gib(p.get('needed_gib'))} per GPU ({f.gib(p.get('headroom_gib'))} to spare).",
        lambda p, f: (f"{p['on']} 上能放下的最省事的改法：" if p.get("on") else "能放下的最省事的改法：")
        + f"**{p.get('change')}**，这样每卡需要 {f.gib(p.get('needed_gib'))}（余 {f.gib(p.get('headroom_gib'))}）。",
    ),
    "feas.other_changes": (lambda p, f: "Also fits: " + _list(p.get("changes"), f) + ".", lambda p, f: "这些改法也能放下：" + _list(p.get("changes"), f) + "。"),
    "feas.change_item": ("{change} ({needed_gib:gib} per GPU)", "{change}（每卡 {needed_gib:gib}）"),
    "feas.nothing": (
        "No single change I tried makes it fit on this hardware (LoRA/QLoRA, lower precision, shorter context, up to 8 GPUs): "
        "it needs a bigger GPU or a multi-node cluster.",
        "我试过的单项改动（LoRA/QLoRA、降低精度、缩短上下文、最多 8 张卡）都放不下：需要更大显存的卡或多机集群。",
    ),
    "feas.target_yes": (lambda p, f: f"{_target(p, f)}: fits ({f.gib(p.get('needed_gib'))} of {f.gib(p.get('usable_gib'))})",
                        lambda p, f: f"{_target(p, f)}：放得下（{f.gib(p.get('needed_gib'))} / {f.gib(p.get('usable_gib'))}）"),
    "feas.target_no": (lambda p, f: f"{_target(p, f)}: does not fit ({f.gib(p.get('needed_gib'))} needed, {f.gib(p.get('usable_gib'))} usable)",
                       lambda p, f: f"{_target(p, f)}：放不下（需要 {f.gib(p.get('needed_gib'))}，可用 {f.gib(p.get('usable_gib'))}）"),
    "feas.some": (
        lambda p, f: "**" + _list(p.get("fit"), f) + " fits; " + _list(p.get("nofit"), f) + " does not.**",
        lambda p, f: "**" + _list(p.get("fit"), f) + " 放得下，" + _list(p.get("nofit"), f) + " 放不下。**",
    ),
    # ------------------------------------------------------------ beside a verdict (assistant/offline/handlers/extras.py)
    "extra.rent_instead": ("**What to rent instead, within your budget:**", "**不行的话，按你的预算可以租：**"),
    "extra.rent_within": ("**What to rent for it, within your budget:**", "**按你的预算，可以租：**"),
    "extra.rent_instead_any": ("**What to rent instead:**", "**不行的话，可以租：**"),
    "extra.rent_any": ("**What to rent for it:**", "**可以租：**"),
    # ------------------------------------------------------------ recommendation
    "rec.lead": (_rec_lead, _rec_lead),
    "rec.lead_unpriced": (_rec_unpriced, _rec_unpriced),
    "rec.every_option": (lambda p, f: "Every option above: " + "; ".join(p.get("notes") or []) + ".",
                         lambda p, f: "以上每个方案都是：" + "；".join(p.get("notes") or []) + "。"),
    "rec.deploy": ("Deploy it as {layout}.", "部署方式：{layout}。"),
    "rec.quantised": ("With quantised weights (cheaper; check the quality caveat):", "改用量化权重（更便宜；注意精度影响）："),
    "rec.within_budget": (
        lambda p, f: f"That is within your budget of {f.money(p.get('budget'), p.get('currency'))} {_per(p, f)}.",
        lambda p, f: f"在你{_per(p, f)} {f.money(p.get('budget'), p.get('currency'))} 的预算之内。",
    ),
    "rec.over_budget": (
        lambda p, f: f"**Nothing priced fits your budget of {f.money(p.get('budget'), p.get('currency'))} {_per(p, f)}.** The cheapest priced "
        f"option that fits the job is {f.money(p.get('cost'), p.get('currency'))} {_per(p, f)}, {f.pct(p.get('over'))} over budget:",
        lambda p, f: f"**{_per(p, f)} {f.money(p.get('budget'), p.get('currency'))} 的预算内没有有价格的可选配置。**能放下的最便宜的有价配置"
        f"{_per(p, f)} {f.money(p.get('cost'), p.get('currency'))}，超出预算 {f.pct(p.get('over'))}：",
    ),
    "rec.price_line": (
        lambda p, f: f"Price source: {p.get('grade_text')}, {p.get('age_text')}" + (f" — {p.get('source')}" if p.get("source") else "") + ".",
        lambda p, f: f"价格来源：{p.get('grade_text')}，{p.get('age_text')}" + (f"——{p.get('source')}" if p.get("source") else "") + "。",
    ),
    "rec.job": (
        lambda p, f: f"The whole job takes about {f.hours_days(p.get('hours'))} and costs about {f.money(p.get('cost'), p.get('currency'))}.",
        lambda p, f: f"整个任务大约需要 {f.hours_days(p.get('hours'))}，费用约 {f.money(p.get('cost'), p.get('currency'))}。",
    ),
    "rec.infeasible": (
        "**Not feasible as asked:** nothing in the catalog holds this workload.",
        "**按当前条件不可行：** 目录里没有能放下这个任务的配置。",
    ),
    "rec.infeasible_deadline": (
        lambda p, f: f"**Nothing in the catalog finishes this within {f.hours(p.get('deadline_hours'))}** on up to {f.int(p.get('max_gpus'))} GPUs "
        "(machines that hold the job are too slow, or have no sourced speed to check).",
        lambda p, f: f"**目录里没有能在 {f.hours(p.get('deadline_hours'))} 内完成的配置**（最多 {f.int(p.get('max_gpus'))} 张卡；"
        "放得下的机器都太慢，或缺少可核对速度的数据）。",
    ),
    "rec.infeasible_filters": (
        lambda p, f: "**No priced offer in the catalog matches what you asked for**"
        + (f" ({p.get('gpu') or 'any GPU'} at {' or '.join(p.get('providers'))})" if p.get("providers") else
           (f" ({p.get('gpu')})" if p.get("gpu") else "")) + ": the workload fits, the offer is missing.",
        lambda p, f: "**目录里没有符合你条件的有价配置**"
        + (f"（{' 或 '.join(p.get('providers_zh') or p.get('providers'))} 的 {p.get('gpu') or '任意 GPU'}）" if p.get("providers") else
           (f"（{p.get('gpu')}）" if p.get("gpu") else "")) + "：任务本身放得下，缺的是报价。",
    ),
    "rec.infeasible_budget": (
        "**Not feasible as asked:** nothing in the catalog holds this workload within your budget.",
        "**按当前条件不可行：** 目录里没有既放得下、又在预算之内的配置。",
    ),
    "rec.cheaper": ("A cheaper way: {text}", "更便宜的做法：{text}"),
    "table.provider": ("Provider", "云厂商"),
    "table.instance": ("Instance", "实例"),
    "table.gpus": ("GPUs", "GPU"),
    "table.memory": ("Memory per GPU (need / usable)", "每卡显存（需要 / 可用）"),
    "table.cost_month": ("Monthly cost", "每月费用"),
    "table.cost_hour": ("Hourly cost", "每小时费用"),
    "table.cost_job": ("Job cost", "整个任务费用"),
    "table.price": ("Price (kind, age)", "价格（类型，时间）"),
    "table.why": ("Why", "理由"),
    "table.unknown_price": ("unknown — check the console", "未知，请查控制台"),
    "table.need_usable": ("{need:gib} / {usable:gib}", "{need:gib} / {usable:gib}"),
    # The GPUs an option pays for; an option of several machines (nodes or load-balanced copies) says how many of
    # the instance, or '4x-RTX_3060' read beside '8× RTX-3060' looks like a wrong count.
    "table.gpus_cell": (
        lambda p, f: f"{f.g(p.get('total'))}× {p.get('gpu')}" + (
            f" on {f.g(p.get('instances'))} instances of {f.g(p.get('per_machine'))}" if (p.get("instances") or 1) > 1 else ""),
        lambda p, f: f"{f.g(p.get('total'))}× {p.get('gpu')}" + (
            f"，{f.g(p.get('instances'))} 台 × 每台 {f.g(p.get('per_machine'))} 卡" if (p.get("instances") or 1) > 1 else ""),
    ),
    # ------------------------------------------------------------ training time
    "time.lead": (
        lambda p, f: f"Training **{p.get('model')}** ({_mode(p, f)}) on {f.g(p.get('gpus'))}× {p.get('gpu')} takes about **{f.hours_days(p.get('hours'))}**, "
        f"i.e. {f.int(p.get('gpu_hours'))} GPU-hours at {f.pct(p.get('mfu'))} model FLOPs utilisation.",
        lambda p, f: f"在 {f.g(p.get('gpus'))}× {p.get('gpu')} 上训练 **{p.get('model')}**（{_mode(p, f)}）大约需要 **{f.hours_days(p.get('hours'))}**"
        f"，即 {f.int(p.get('gpu_hours'))} 卡时，按 {f.pct(p.get('mfu'))} 的算力利用率（MFU）估算。",
    ),
    "time.as_stated": ("Compute time alone, were memory no limit:", "只看算力、不考虑显存的话："),
    "time.with_change": ("With that change:", "这样改之后："),
    "time.flops": (lambda p, f: f"Compute: {_flops(p.get('flops'))} FLOPs ({p.get('tokens_text')} tokens).", lambda p, f: f"计算量：{_flops(p.get('flops'))} FLOPs（{p.get('tokens_text')} token）。"),
    "time.deadline_lead": (
        lambda p, f: f"**You need {f.int(p.get('needed'))}× {p.get('gpu')}** to finish within {f.hours(p.get('deadline_hours'))}: "
        f"on {f.int(p.get('needed'))} GPUs the run takes about {f.hours(p.get('hours_needed'))}.",
        lambda p, f: f"**需要 {f.int(p.get('needed'))} 张 {p.get('gpu')}** 才能在 {f.hours(p.get('deadline_hours'))} 内完成："
        f"用 {f.int(p.get('needed'))} 张卡大约需要 {f.hours(p.get('hours_needed'))}。",
    ),
    "time.deadline_pick": (
        lambda p, f: f"It finishes in about {f.hours_days(p.get('hours'))}, within your {f.hours(p.get('deadline_hours'))} limit.",
        lambda p, f: f"大约 {f.hours_days(p.get('hours'))} 跑完，在 {f.hours(p.get('deadline_hours'))} 的期限之内。",
    ),
    "time.deadline_ok": (
        lambda p, f: f"**{f.g(p.get('gpus'))}× {p.get('gpu')} is enough** to finish within {f.hours(p.get('deadline_hours'))}: the run takes about {f.hours(p.get('hours'))}.",
        lambda p, f: f"**{f.g(p.get('gpus'))}× {p.get('gpu')} 就够了**，能在 {f.hours(p.get('deadline_hours'))} 内完成：大约需要 {f.hours(p.get('hours'))}。",
    ),
    # ------------------------------------------------------------ cost
    "cost.offers": (
        lambda p, f: f"The cheapest {p.get('gpu')} offer of each provider"
        + (f" (the {f.g(p.get('count'))} cheapest of {f.g(p.get('total'))} providers):" if (p.get("total") or 0) > (p.get("count") or 0)
           else f" ({f.g(p.get('count'))} providers):"),
        lambda p, f: f"各厂商最便宜的 {p.get('gpu')} 报价"
        + (f"（共 {f.g(p.get('total'))} 家，列出最便宜的 {f.g(p.get('count'))} 家）：" if (p.get("total") or 0) > (p.get("count") or 0)
           else f"（{f.g(p.get('count'))} 家）："),
    ),
    "cost.offers_lead": (
        lambda p, f: f"**{f.g(p.get('total'))} providers** in the catalog list the {p.get('gpu')}; the cheapest per GPU-hour is "
        f"**{p.get('provider')}** at **{f.money(p.get('price'), p.get('currency'), 'hour')}** ({p.get('kind')}, {p.get('age_text')}).",
        lambda p, f: f"目录中有 **{f.g(p.get('total'))} 家厂商**提供 {p.get('gpu')}；按每卡每小时计最便宜的是 **{p.get('provider')}**，"
        f"**{f.money(p.get('price'), p.get('currency'), 'hour')}**（{p.get('kind')}，{p.get('age_text')}）。",
    ),
    "cost.per_gpu_hour": ("Per GPU-hour", "每卡每小时"),
    "cost.lead": (
        lambda p, f: f"**{p.get('provider')} `{p.get('instance')}`** ({f.g(p.get('gpu_count'))}× {p.get('gpu')}, {p.get('region')}) costs about "
        f"**{f.money(p.get('total'), p.get('currency'))}** for {f.hours(p.get('hours'))} {_billing(p, f)}.",
        lambda p, f: f"**{p.get('provider')} `{p.get('instance')}`**（{f.g(p.get('gpu_count'))}× {p.get('gpu')}，{f.region(p.get('region'))}）"
        f"{_billing(p, f)}用 {f.hours(p.get('hours'))} 约 **{f.money(p.get('total'), p.get('currency'))}**。",
    ),
    "cost.unknown": (
        lambda p, f: f"**{p.get('provider')} `{p.get('instance')}`** ({f.g(p.get('gpu_count'))}× {p.get('gpu')}): its {_billing(p, f)} price is not in our catalog — check the provider's console.",
        lambda p, f: f"**{p.get('provider')} `{p.get('instance')}`**（{f.g(p.get('gpu_count'))}× {p.get('gpu')}）：目录里没有它的{_billing(p, f)}价格，请到控制台查询。",
    ),
    "cost.lines": ("Every billing mode:", "各种计费方式："),
    "cost.line": (
        lambda p, f: f"{_billing(p, f)}: {f.money(p.get('total'), p.get('currency')) if p.get('total') is not None else ('unknown' if not f.zh else '未知')}"
        + (f" ({f.money(p.get('price_per_hour'), p.get('currency'), 'hour')}, {p.get('age_text')})" if p.get("price_per_hour") is not None else ""),
        lambda p, f: f"{_billing(p, f)}：{f.money(p.get('total'), p.get('currency')) if p.get('total') is not None else '未知'}"
        + (f"（{f.money(p.get('price_per_hour'), p.get('currency'), 'hour')}，{p.get('age_text')}）" if p.get("price_per_hour") is not None else ""),
    ),
    # ------------------------------------------------------------ catalog
    "spec.gpu": (
        lambda p, f: f"**{p.get('name')}** ({p.get('architecture')}, {p.get('form_factor')}): {f.g(p.get('memory_gb'))} GB {p.get('memory_type') or ''} "
        f"({f.gib(p.get('usable_gib'))} usable), " + (f"{f.gbps(p['bandwidth_gbps'])} memory bandwidth, " if p.get("bandwidth_gbps") else "")
        + (f"{f.tflops(p['bf16_tflops'])} dense BF16/FP16" if p.get("bf16_tflops") else "BF16/FP16 throughput not sourced")
        + (f", {f.tflops(p['fp8_tflops'])} FP8" if p.get("fp8_tflops") else "") + f"; {p.get('link')}" + (f"; {f.g(p['tdp_w'])} W" if p.get("tdp_w") else "") + ".",
        lambda p, f: f"**{p.get('name')}**（{catalog_words(p.get('architecture'), f)}，{catalog_words(p.get('form_factor'), f)}）：{f.g(p.get('memory_gb'))} GB {p.get('memory_type') or ''}"
        f"（可用 {f.gib(p.get('usable_gib'))}），" + (f"显存带宽 {f.gbps(p['bandwidth_gbps'])}，" if p.get("bandwidth_gbps") else "")
        + (f"稠密 BF16/FP16 算力 {f.tflops(p['bf16_tflops'])}" if p.get("bf16_tflops") else "BF16/FP16 算力无来源数据")
        + (f"，FP8 {f.tflops(p['fp8_tflops'])}" if p.get("fp8_tflops") else "") + f"；{p.get('link')}" + (f"；功耗 {f.g(p['tdp_w'])} W" if p.get("tdp_w") else "") + "。",
    ),
    "spec.link_nvlink": (lambda p, f: "NVLink" + (f" {f.gbps(p['gbps'])}" if p.get("gbps") else ""), lambda p, f: "NVLink" + (f" {f.gbps(p['gbps'])}" if p.get("gbps") else "")),
    "spec.link_pcie": ("no NVLink (PCIe only)", "没有 NVLink（仅 PCIe）"),
    "spec.feature_yes": (lambda p, f: f"**Yes — the {p.get('gpu')} supports {FEATURE_EN.get(p.get('feature'), p.get('feature'))}.**",
                         lambda p, f: f"**支持：{p.get('gpu')} 支持 {FEATURE_EN.get(p.get('feature'), p.get('feature'))}。**"),
    "spec.feature_no": (lambda p, f: f"**No — the {p.get('gpu')} does not support {FEATURE_EN.get(p.get('feature'), p.get('feature'))}.**",
                        lambda p, f: f"**不支持：{p.get('gpu')} 不支持 {FEATURE_EN.get(p.get('feature'), p.get('feature'))}。**"),
    "spec.source": ("Source: {source}.", "来源：{source}。"),
    "spec.export_restricted": ("The {gpu} is export-restricted: no new sales into mainland China without a US licence.",
                               "{gpu} 受美国出口管制：没有许可证不能向中国大陆新售。"),
    "spec.china_variant": ("The {gpu} is a China-market variant made to meet US export rules.", "{gpu} 是为符合美国出口规定而推出的中国特供版。"),
    "spec.export": ("Export note: {note}", "出口管制说明：{note}"),
    "spec.model": (
        lambda p, f: f"**{p.get('name')}**: {p.get('params_text')} parameters, {p.get('layers')} layers, hidden size {p.get('hidden')}, "
        f"{p.get('heads')} attention heads ({p.get('kv_heads')} KV heads, {p.get('attention')}), context {p.get('context')} tokens.",
        lambda p, f: f"**{p.get('name')}**：{p.get('params_text')} 参数，{p.get('layers')} 层，隐藏维度 {p.get('hidden')}，"
        f"{p.get('heads')} 个注意力头（KV 头 {p.get('kv_heads')} 个，{p.get('attention')}），上下文 {p.get('context')} token。",
    ),
    "spec.instance": (
        lambda p, f: f"**{p.get('provider')} `{p.get('instance')}`** ({p.get('region')}): {f.g(p.get('gpu_count'))}× {p.get('gpu')}, "
        f"{p.get('vcpus') or '?'} vCPU, {f.gib(p['ram_gib']) if p.get('ram_gib') else '? GiB'} RAM; {p.get('link')} — {p.get('prices') or ('no price in the catalog')}.",
        lambda p, f: f"**{p.get('provider')} `{p.get('instance')}`**（{f.region(p.get('region'))}）：{f.g(p.get('gpu_count'))}× {p.get('gpu')}，"
        f"{p.get('vcpus') or '?'} vCPU，内存 {f.gib(p['ram_gib']) if p.get('ram_gib') else '? GiB'}；{p.get('link')} —— {p.get('prices') or '目录中无价格'}。",
    ),
    "spec.price": (lambda p, f: f"{_billing(p, f)} {f.money(p.get('amount'), p.get('currency'), p.get('per'))}",
                   lambda p, f: f"{_billing(p, f)} {f.money(p.get('amount'), p.get('currency'), p.get('per'))}"),
    "cmp.lead": (
        lambda p, f: f"**{p.get('a')} vs {p.get('b')}:** " + " ".join(p.get("verdicts") or []).rstrip(";.") + ".",
        lambda p, f: f"**{p.get('a')} 对比 {p.get('b')}：**" + "".join(p.get("verdicts") or []).rstrip("；。") + "。",
    ),
    "cmp.memory_more": (lambda p, f: f"the {p.get('winner')} has more memory ({f.g(p.get('winner_gb'))} GB vs {f.g(p.get('loser_gb'))} GB);",
                        lambda p, f: f"{p.get('winner')} 显存更大（{f.g(p.get('winner_gb'))} GB 对 {f.g(p.get('loser_gb'))} GB）；"),
    "cmp.memory_same": (lambda p, f: f"both have {f.g(p.get('gb'))} GB;", lambda p, f: f"两者都是 {f.g(p.get('gb'))} GB 显存；"),
    "cmp.compute": (lambda p, f: f"the {p.get('winner')} has {f.g(p.get('ratio'))}× the dense BF16 compute ({f.tflops(p.get('winner_tflops'))} vs {f.tflops(p.get('loser_tflops'))});",
                    lambda p, f: f"{p.get('winner')} 的稠密 BF16 算力是对方的 {f.g(p.get('ratio'))} 倍（{f.tflops(p.get('winner_tflops'))} 对 {f.tflops(p.get('loser_tflops'))}）；"),
    "cmp.compute_same": ("the same dense BF16 compute ({tflops:tflops});", "稠密 BF16 算力相同（{tflops:tflops}）；"),
    "cmp.bandwidth_same": ("the same memory bandwidth ({gbps:gbps});", "显存带宽相同（{gbps:gbps}）；"),
    "cmp.link": (
        lambda p, f: (f"the {p['gpu']} has NVLink at {f.gbps(p['gbps'])};" if p.get("nvlink") and p.get("gbps") else
                      f"the {p['gpu']} has NVLink;" if p.get("nvlink") else f"the {p['gpu']} has no NVLink (PCIe only);"),
        lambda p, f: (f"{p['gpu']} 的 NVLink 带宽为 {f.gbps(p['gbps'])}；" if p.get("nvlink") and p.get("gbps") else
                      f"{p['gpu']} 支持 NVLink；" if p.get("nvlink") else f"{p['gpu']} 没有 NVLink（仅 PCIe）；"),
    ),
    "cmp.bandwidth": (lambda p, f: f"{f.g(p.get('ratio'))}× the memory bandwidth ({f.gbps(p.get('winner_gbps'))} vs {f.gbps(p.get('loser_gbps'))});",
                      lambda p, f: f"显存带宽是对方的 {f.g(p.get('ratio'))} 倍（{f.gbps(p.get('winner_gbps'))} 对 {f.gbps(p.get('loser_gbps'))}）；"),
    "cmp.price": (lambda p, f: f"the cheapest listed {p.get('gpu')} is {f.money(p.get('price_per_gpu_hour'), p.get('currency'), 'hour')} per GPU ({p.get('provider')});",
                  lambda p, f: f"{p.get('gpu')} 最便宜的报价为每卡 {f.money(p.get('price_per_gpu_hour'), p.get('currency'), 'hour')}（{p.get('provider')}）；"),
    "cmp.price_none": (lambda p, f: f"no priced {p.get('gpu')} in the catalog;", lambda p, f: f"目录里没有 {p.get('gpu')} 的价格；"),
    "cmp.job_cost": (
        lambda p, f: f"{p.get('model') or 'The job'} on {p.get('tokens_text')} tokens takes about "
                     f"{_gpu_hours(p, f)} GPU-hours on {p.get('gpu')}: about {f.money(p.get('cost'), p.get('currency'))} "
                     f"at the cheapest listed price ({p.get('provider')}, on-demand).",
        lambda p, f: f"{p.get('model') or '这个任务'}训练 {p.get('tokens_text')} token，在 {p.get('gpu')} 上约需 "
                     f"{_gpu_hours(p, f)} 卡时：按最便宜的报价（{p.get('provider')}，按量）约 {f.money(p.get('cost'), p.get('currency'))}。"),
    "cmp.job_time": (
        lambda p, f: f"{p.get('model') or 'The job'} on {p.get('tokens_text')} tokens takes about {f.g(p.get('gpu_hours'))} "
                     f"GPU-hours on {p.get('gpu')} (no priced offer in the catalog).",
        lambda p, f: f"{p.get('model') or '这个任务'}训练 {p.get('tokens_text')} token，在 {p.get('gpu')} 上约需 "
                     f"{_gpu_hours(p, f)} 卡时（目录里没有价格）。"),
    "cmp.serve_cost": (
        lambda p, f: f"{p.get('model')} on {f.g(p.get('gpus'))}× {p.get('gpu')} (TP {f.g(p.get('tp'))}): "
                     f"{f.tok_s(p.get('output_tok_s'))} output {'at the load' if p.get('at') == 'load' else 'at full load'}, "
                     f"{f.money(p.get('cost'), p.get('currency'))} per million output tokens at the cheapest listed price.",
        lambda p, f: f"{p.get('model')} 在 {f.g(p.get('gpus'))}× {p.get('gpu')}（TP {f.g(p.get('tp'))}）上："
                     f"{'此负载下' if p.get('at') == 'load' else '满负载时'}输出 {f.tok_s(p.get('output_tok_s'))}，"
                     f"按最便宜的报价每百万输出 token {f.money(p.get('cost'), p.get('currency'))}。"),
    "cmp.serve_unpriced": (
        lambda p, f: f"{p.get('model')} on {f.g(p.get('gpus'))}× {p.get('gpu')} (TP {f.g(p.get('tp'))}): "
                     f"{f.tok_s(p.get('output_tok_s'))} output {'at the load' if p.get('at') == 'load' else 'at full load'} (no priced offer).",
        lambda p, f: f"{p.get('model')} 在 {f.g(p.get('gpus'))}× {p.get('gpu')}（TP {f.g(p.get('tp'))}）上："
                     f"{'此负载下' if p.get('at') == 'load' else '满负载时'}输出 {f.tok_s(p.get('output_tok_s'))}（没有价格）。"),
    "cmp.serve_cheaper": ("Per million output tokens the {gpu} costs less.", "按每百万输出 token 算，{gpu} 更便宜。"),
    "cmp.job_cheaper": ("For this job the {gpu} costs less per token.", "这个任务用 {gpu} 每 token 更便宜。"),
    "cmp.header_spec": ("Spec", "指标"),
    "cmp.row_memory": ("Memory", "显存"),
    "cmp.row_bandwidth": ("Memory bandwidth", "显存带宽"),
    "cmp.row_bf16": ("Dense BF16/FP16", "稠密 BF16/FP16"),
    "cmp.row_fp8": ("FP8", "FP8"),
    "cmp.row_link": ("NVLink", "NVLink"),
    "cmp.row_price": ("Cheapest per GPU-hour", "每卡时最低价"),
    "cmp.row_fit": ("Your workload", "你的任务"),
    "cmp.yes": ("yes", "有"),
    "cmp.no": ("no", "无"),
    "filter.lead": (
        lambda p, f: f"**{f.g(p.get('count'))} GPUs in the catalog** {p.get('what')}: " + _list(p.get("gpus"), f) + ".",
        lambda p, f: f"**目录中有 {f.g(p.get('count'))} 款 GPU** {p.get('what')}：" + _list(p.get("gpus"), f) + "。",
    ),
    "filter.none": (lambda p, f: f"No GPU in the catalog {p.get('what')}.", lambda p, f: f"目录中没有{p.get('what')}的 GPU。"),
    "filter.what": (
        lambda p, f: " and ".join(filter(None, [("support " + _list([FEATURE_EN.get(x, x) for x in p.get("features") or []], f)) if p.get("features") else "",
                                                (f"have at least {f.g(p.get('min_memory_gb'))} GB") if p.get("min_memory_gb") else "",
                                                {"cn": "are rentable in mainland China", "intl": "are rentable outside mainland China"}.get(p.get("region") or "", "")])) or "match",
        lambda p, f: "且".join(filter(None, [("支持 " + _list([FEATURE_EN.get(x, x) for x in p.get("features") or []], f)) if p.get("features") else "",
                                            (f"显存至少 {f.g(p.get('min_memory_gb'))} GB") if p.get("min_memory_gb") else "",
                                            {"cn": "在中国大陆有租用报价", "intl": "在中国大陆以外有租用报价"}.get(p.get("region") or "", "")])) or "符合条件",
    ),
    # ------------------------------------------------------------ serving (codes in assistant/offline/handlers/serving.py)
    "serve.lead": (
        lambda p, f: f"**{f.g(p.get('gpus'))}× {p.get('gpu')} serves {p.get('model')} ({p.get('weights')})** at about "
        f"**{f.tok_s(p.get('output_tok_s'))} output** ({f.req_s(p.get('req_s'))}) with {f.g(round(p.get('concurrency') or 0))} requests in flight; "
        f"it holds up to {f.int(p.get('max_concurrency'))} sequences of this length at once.",
        lambda p, f: f"**{f.g(p.get('gpus'))}× {p.get('gpu')} 部署 {p.get('model')}（{p.get('weights')}）**，约 **{f.tok_s(p.get('output_tok_s'))} 输出**"
        f"（{f.req_s(p.get('req_s'))}），同时处理 {f.g(round(p.get('concurrency') or 0))} 个请求；这个长度的序列最多能同时容纳 {f.int(p.get('max_concurrency'))} 个"
        + (f"，满载（引擎最大批次）时输出约 {f.tok_s(p.get('max_output_tok_s'))}" if p.get("max_output_tok_s") else "") + "。",
    ),
    "serve.lead_nofit": (
        lambda p, f: f"**{f.g(p.get('gpus'))}× {p.get('gpu')} is not enough for this load:** the KV cache holds only {f.int(p.get('max_concurrency'))} "
        f"sequences of this length, and the load needs {f.g(round(p.get('concurrency') or 0))}.",
        lambda p, f: f"**{f.g(p.get('gpus'))}× {p.get('gpu')} 撑不住这个负载：** KV cache 只能容纳 {f.int(p.get('max_concurrency'))} 个这个长度的序列，"
        f"而负载需要 {f.g(round(p.get('concurrency') or 0))} 个。",
    ),
    "serve.by_memory": ("{model} is a {kind} model: throughput and cost per token are estimated for text generation "
                        "only, so this pick is sized by inference memory.",
                        "{model} 是 {kind} 模型：吞吐和每 token 成本只对文本生成模型估算，所以这个方案按推理显存选型。"),
    "serve.nearest": (lambda p, f: f"The nearest layout that works: {f.g(p.get('gpus'))}× {p.get('gpu')} (tensor parallel {f.g(p.get('tp'))}).",
                      lambda p, f: f"最接近的可行方案：{f.g(p.get('gpus'))}× {p.get('gpu')}（张量并行 {f.g(p.get('tp'))}）。"),
    "serve.latency": (
        lambda p, f: f"Latency: time to first token {f.ms(p.get('ttft_ms'))}, {f.ms(p.get('tpot_ms'))} per output token "
        f"({f.tok_s(p.get('tokens_per_user_s'))} per user), {f.ms(p.get('e2e_ms'))} per request of {f.int(p.get('input_len'))} in / {f.int(p.get('output_len'))} out tokens.",
        lambda p, f: f"延迟：首 token {f.ms(p.get('ttft_ms'))}，每个输出 token {f.ms(p.get('tpot_ms'))}（每用户 {f.tok_s(p.get('tokens_per_user_s'))}），"
        f"每个请求（输入 {f.int(p.get('input_len'))} / 输出 {f.int(p.get('output_len'))} token）共 {f.ms(p.get('e2e_ms'))}。",
    ),
    "serve.cost": (
        lambda p, f: f"Cost: {f.money(p.get('at_load'), p.get('currency'))} per million output tokens at this load"
        + (f", {f.money(p.get('at_max'), p.get('currency'))} at maximum throughput" if p.get("at_max") is not None else "")
        + (f" ({f.money(p.get('price_per_hour'), p.get('currency'), 'hour')} for the deployment)" if p.get("price_per_hour") is not None else "") + ".",
        lambda p, f: f"成本：这个负载下每百万输出 token {f.money(p.get('at_load'), p.get('currency'))}"
        + (f"，满负载时 {f.money(p.get('at_max'), p.get('currency'))}" if p.get("at_max") is not None else "")
        + (f"（整套部署 {f.money(p.get('price_per_hour'), p.get('currency'), 'hour')}）" if p.get("price_per_hour") is not None else "") + "。",
    ),
    "serve.cost_unpriced": ("No price for this GPU in the catalog, so no cost per token.", "目录里没有这款 GPU 的价格，无法给出每 token 成本。"),
    "serve.memory": (
        lambda p, f: f"Memory per GPU: weights {f.gib(p.get('weights_gib'))}, KV cache pool {f.gib(p.get('kv_cache_gib'))} "
        f"({f.int(p.get('kv_cache_tokens'))} tokens); {f.gib(p.get('per_gpu_gib'))} needed of {f.gib(p.get('usable_gib'))} usable.",
        lambda p, f: f"每卡显存：权重 {f.gib(p.get('weights_gib'))}，KV cache 池 {f.gib(p.get('kv_cache_gib'))}（{f.int(p.get('kv_cache_tokens'))} token）；"
        f"需要 {f.gib(p.get('per_gpu_gib'))}，可用 {f.gib(p.get('usable_gib'))}。",
    ),
    # ------------------------------------------------------------ assumptions (codes in assistant/offline/workload.py)
    "assume.model": (lambda p, f: f"model size: {f.big(p.get('params'))} parameters (no model named)", lambda p, f: f"模型大小：{f.big(p.get('params'))} 参数（未指定模型）"),
    "assume.mode_finetune": (lambda p, f: f"fine-tuning method: {_mode(p, f)} (the method was not said)", lambda p, f: f"微调方式：{_mode(p, f)}（未说明方式）"),
    "assume.mode_small_full": (lambda p, f: f"training method: {_mode(p, f)} (the method was not said; a model this small is usually trained whole)",
                               lambda p, f: f"训练方式：{_mode(p, f)}（未说明方式；这么小的模型通常整体训练）"),
    "assume.mode_default": (lambda p, f: f"workload: {_mode(p, f)}", lambda p, f: f"任务类型：{_mode(p, f)}"),
    "assume.gpu": ("GPU: {gpu}", "GPU：{gpu}"),
    "assume.gpus": ("GPU count: {gpus}", "GPU 数量：{gpus}"),
    "assume.tokens": (lambda p, f: f"training data: {f.big(p.get('tokens'))} tokens (a typical instruction-tuning set)", lambda p, f: f"训练数据：{f.big(p.get('tokens'))} token（典型的指令微调数据量）"),
    "assume.budget_period": (lambda p, f: f"budget period: {_per(p, f)} (not said)", lambda p, f: f"预算周期：{_per(p, f)}（未说明）"),
    "assume.budget_currency": ("budget currency: {currency} (not said)", "预算币种：{currency}（未说明）"),
    "assume.budget_per_day": ("a daily budget of {amount_per_day:money} is {amount_per_hour:money_h} for a machine that runs all day",
                              "每天 {amount_per_day:money} 的预算，对全天运行的机器相当于 {amount_per_hour:money_h}"),
    "assume.budget_per_year": ("a yearly budget of {amount_per_year:money} is {amount_per_month:money_m}", "每年 {amount_per_year:money} 的预算相当于 {amount_per_month:money_m}"),
    "assume.serving_batch": (lambda p, f: f"serving load: {f.count(p.get('concurrency'), 'concurrent request')} (no load given)",
                             "推理负载：{concurrency} 个并发请求（未给出负载）"),
    "assume.users": (lambda p, f: f"{f.g(p.get('users'))} users ≈ {f.g(p.get('concurrency'))} concurrent requests (about 1 in {f.g(p.get('ratio'))} has a request in flight)",
                     lambda p, f: f"{f.g(p.get('users'))} 个用户约等于 {f.g(p.get('concurrency'))} 个并发请求（约每 {f.g(p.get('ratio'))} 人中有 1 个请求在处理）"),
    "assume.gguf": ("{format} weights sized as {as}", "{format} 权重按 {as} 估算"),
    "assume.deadline_weekday": (lambda p, f: f"“by {p.get('weekday', '').capitalize()}” = until the end of {p.get('weekday', '').capitalize()} {p.get('date')}, {f.hours(p.get('hours'))} from now",
                                lambda p, f: f"“{WEEKDAY_ZH.get(p.get('weekday'), p.get('weekday'))}前” = 到{WEEKDAY_ZH.get(p.get('weekday'), p.get('weekday'))}（{p.get('date')}）结束，从现在起 {f.hours(p.get('hours'))}"),
    "assume.deadline_unsized": (lambda p, f: f"no length of the time limit stated: {f.hours(p.get('hours'))} assumed (overnight)",
                                lambda p, f: f"没有给出具体时长：按 {f.hours(p.get('hours'))}（一个晚上）估算"),
    "assume.deadline_date": (lambda p, f: f"the deadline {p.get('date')} = until the end of that day, {f.hours(p.get('hours'))} from now",
                             lambda p, f: f"截止日期 {p.get('date')} = 到当天结束，从现在起 {f.hours(p.get('hours'))}"),
    "assume.unknown_model_size": (lambda p, f: f"{p.get('name')} is not in the catalog: sized from its name as a standard {f.big(p.get('params'))}-parameter decoder",
                                  lambda p, f: f"{p.get('name')} 不在目录中：按名字里的规模，当作标准的 {f.big(p.get('params'))} 参数解码器模型估算"),
    "assume.family_member": (lambda p, f: f"“{p.get('family')}” without a version: sized as {p.get('model')}, its smallest version"
                             + (f" ({_list(p.get('others'), f)} {'needs' if len(p.get('others')) == 1 else 'need'} more)" if p.get("others") else ""),
                             lambda p, f: f"“{p.get('family')}”未指明版本：按最小的 {p.get('model')} 估算"
                             + (f"（{_list(p.get('others'), f)} 需要更多）" if p.get("others") else "")),
    "assume.family_size": (lambda p, f: f"“{p.get('family')}” without a size: sized as a {f.big(p.get('params'))}-parameter model",
                           lambda p, f: f"“{p.get('family')}”未指明规模：按 {f.big(p.get('params'))} 参数估算"),
    "assume.month_hours": ("one month = {hours:g} hours", "一个月按 {hours:g} 小时计"),
    # ------------------------------------------------------------ the one question
    "ask.model": ("Which model (or how many parameters)? That changes every figure here.", "具体是哪个模型（或多少参数）？这会改变这里的所有数字。"),
    "ask.mode": ("LoRA, QLoRA or full fine-tuning? Full fine-tuning needs several times the memory.", "用 LoRA、QLoRA 还是全参数微调？全参数微调需要数倍的显存。"),
    "ask.budget": ("What is your budget (per month or per hour)? I can then rank only what you can afford.", "预算是多少（每月或每小时）？这样我只列出负担得起的配置。"),
    "ask.tokens": ("How many tokens (or examples × length) is your dataset? The time and the job cost scale with it.", "数据集有多少 token（或样本数 × 长度）？时间和费用都与它成正比。"),
    "ask.deadline": ("By when exactly (in hours or a date)? The GPU count and the pick follow the limit.",
                     "具体多长时间内要完成（小时数或日期）？卡数和推荐配置都取决于这个期限。"),
    "ask.gpu": ("Which GPU (and how many) do you have in mind?", "你打算用哪种 GPU、几张？"),
    "ask.load": ("How many concurrent users or requests per day, and how long are prompts and answers? That sizes the KV cache and the GPU count.",
                 "有多少并发用户或每天多少请求、输入输出多长？这决定 KV cache 和卡数。"),
}
