"""The recommender (`tools.recommend_codes.RecommendCode`): reasons, warnings, near-misses, layouts,
assumptions and suggestion outcomes."""

from __future__ import annotations

from tools.messages.format import Formatter


def _shape(p: dict, f: Formatter) -> str:
    """'2 nodes × 8 × H100' / '2 节点 × 8 × H100', or '8 × H100'."""
    one = f"{f.g(p['gpu_count'])} × {p['gpu']}"
    nodes = p.get("nodes") or 1
    if nodes > 1:
        return f"{nodes} 节点 × {one}" if f.zh else f"{nodes} nodes × {one}"
    return one


def _per(p: dict, f: Formatter, value: float | None, period: str | None) -> str:
    """A cost for a period in prose: '$1,307/month' / '¥1.2万/月'."""
    return f.money(value, p.get("currency"), period)


def _gpus(n: int, zh: bool) -> str:
    return f"{n} 张卡" if zh else f"{n} GPU{'s' if n != 1 else ''}"


# ------------------------------------------------------------------ reasons


def _fit(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        shape = _shape(p, f)
        if zh:
            return (f"{shape}：每卡需要 {f.gib(p['needed_gib'])}，可用 {f.gib(p['usable_gib'])}"
                    f"（余量 {f.gib(p['headroom_gib'])}）；{p['layout']}")
        return (f"{shape}: needs {f.gib(p['needed_gib'])} per GPU of {f.gib(p['usable_gib'])} usable "
                f"({f.gib(p['headroom_gib'])} headroom); {p['layout']}")

    return render


def _price(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        hourly = f.money(p["price_per_hour"], p["currency"], "hour")
        monthly = f.money(p["monthly"], p["currency"], "month")
        billing, grade = f.term("billing", p["billing"]), f.term("grade", p["grade"])
        age = p.get("age") or f.as_of(p.get("as_of"))  # the price's age note (rendered), else its date
        nodes, copies = p.get("nodes") or 1, p.get("copies") or 1
        if zh:
            scale = "，".join(x for x in (f"{nodes} 节点" if nodes > 1 else "", f"{copies} 份" if copies > 1 else "") if x)
            return f"{hourly} {billing}" + (f"（{scale}）" if scale else "") + f"，每月 {monthly.removesuffix('/月')}，{grade}，{age}"
        scale = ", ".join(x for x in (f"{nodes} nodes" if nodes > 1 else "", f"{copies} copies" if copies > 1 else "") if x)
        return f"{hourly} {billing}" + (f" ({scale})" if scale else "") + f", {monthly}, {grade}, {age}"

    return render


def _time(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        tps, job = p.get("throughput_tps"), p.get("job_cost")
        if zh:
            text = f"完成时间约 {f.hours_days(p['hours'])}，{_gpus(p['gpus'], True)}，MFU {p['mfu']:.2f}"
            text += f"，约每秒 {f.int(tps)} token" if tps else ""
            if job is not None:
                text += f"；任务费用 {f.money(job, p.get('currency'))}" + ("（含竞价实例的预期返工）" if p.get("spot") else "")
            return text
        text = f"time to finish ≈ {f.hours_days(p['hours'])} on {_gpus(p['gpus'], False)} at MFU {p['mfu']:.2f}"
        text += f", about {f.int(tps)} tokens/s" if tps else ""
        if job is not None:
            text += f"; job cost {f.money(job, p.get('currency'))}" + (" incl. expected spot rework" if p.get("spot") else "")
        return text

    return render


def _exact(p: dict, f: Formatter, value: float | None, period: str | None = None) -> str:
    """Money compared with a budget: digits, not 万, so ¥20,006 > ¥20,000 reads as it is."""
    return f.money(value, p.get("currency"), period, table=True)


def _within(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        cost, budget = _exact(p, f, p["cost"], p["period"]), _exact(p, f, p["budget"])
        return f"在预算内：{cost} ≤ {budget}" if zh else f"within budget: {cost} ≤ {budget}"

    return render


# ------------------------------------------------------------------ host, interconnect


def _host(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        problems = []
        if p.get("vcpu_per_gpu") is not None:
            v = f.g(p["vcpu_per_gpu"])
            problems.append(f"每卡 {v} 个 vCPU < {p['min_vcpu']}" if zh else f"{v} vCPU per GPU < {p['min_vcpu']}")
        if p.get("ram_gb_per_gpu") is not None:
            r = f"{float(p['ram_gb_per_gpu']):.0f}"
            problems.append(f"每卡内存 {r} GB < {p['min_ram_gb']} GB" if zh else f"{r} GB RAM per GPU < {p['min_ram_gb']} GB")
        if zh:
            return (f"主机配置偏弱：{'，'.join(problems)}（建议：每张高端 GPU 配 ≥ {p['min_vcpu']} 个 vCPU、"
                    f"≥ {p['min_ram_gb']} GB 内存）")
        return (f"thin host: {', '.join(problems)} (guidance: ≥ {p['min_vcpu']} vCPU and ≥ {p['min_ram_gb']} GB "
                "per high-end GPU)")

    return render


def _link(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        parts = []
        if p.get("gpus_linked") == "nvlink":
            parts.append("NVLink")
        elif p.get("gpus_linked") == "pcie":
            parts.append("仅 PCIe" if zh else "PCIe only")
        if p.get("infiniband"):
            parts.append("InfiniBand/RDMA")
        elif p.get("network_gbps"):
            parts.append(f"{f.g(p['network_gbps'])} Gbps 网络" if zh else f"{f.g(p['network_gbps'])} Gbps network")
        return ("，" if zh else ", ").join(parts) or ("单卡" if zh else "single GPU")

    return render


# ------------------------------------------------------------------ near-misses


def _region(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        cn = p.get("region") == "cn"
        if zh:
            return "放得下，但不在中国大陆" if cn else "放得下，但不在中国大陆以外"
        return "fits, but not in mainland China (region cn)" if cn else "fits, but not outside mainland China (region intl)"

    return render


def _billing_miss(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        billing, listed = f.term("billing", p["billing"]), f.terms("billing", p.get("listed"))
        return f"目录中没有{billing}价格（有：{listed}）" if zh else f"no {billing} price in the catalog (listed: {listed})"

    return render


def _budget_miss(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        cost, budget = _exact(p, f, p["cost"], p["period"]), _exact(p, f, p["budget"])
        over = f"{float(p['over_fraction']):.1%}"
        return f"超出预算：{cost} > {budget}（超出 {over}）" if zh else f"over budget: {cost} > {budget} ({over} over)"

    return render


def _network(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        if zh:
            return (f"{p['nodes']} 台 × {_gpus(p['gpus_per_node'], True)}放得下，但 {p['instance']} 没有 InfiniBand/RDMA 级网络："
                    "多机分片会非常慢")
        return (f"{p['nodes']} nodes × {_gpus(p['gpus_per_node'], False)} would hold it, but {p['instance']} has no "
                "InfiniBand/RDMA-class networking: multi-node sharding would be very slow")

    return render


# ------------------------------------------------------------------ layouts


def _because(p: dict, f: Formatter) -> str:
    need = p.get("single_gpu_gib")
    if need is None:
        return ""
    return f"，因为单卡放不下（需要 {f.gib(need)}）" if f.zh else f" because one GPU does not hold it (it needs {f.gib(need)})"


def _user_layout(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        parts = []
        if p.get("sharding") not in (None, "none"):
            parts.append(f.term("sharding", p["sharding"]))
        if (p.get("tp") or 1) > 1:
            parts.append(f"张量并行 {p['tp']}" if zh else f"tensor parallel {p['tp']}")
        if (p.get("pp") or 1) > 1:
            parts.append(f"流水线并行 {p['pp']}" if zh else f"pipeline parallel {p['pp']}")
        if zh:
            return f"{' + '.join(parts) or '按指定方式'}，共 {_gpus(p['gpus'], True)}"
        return f"{' + '.join(parts) or 'as requested'} across {_gpus(p['gpus'], False)}"

    return render


def _replicas(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        n = p["gpus"]
        if zh:
            return f"单卡放得下（数据并行，{n} 张卡每卡一份完整副本）" if p.get("training") else f"单卡放得下（{n} 张卡每卡一个完整副本）"
        copy = "data parallel, a full copy per GPU" if p.get("training") else "a full replica per GPU"
        return f"one GPU holds the job ({copy} on {n} GPUs)"

    return render


def _zero3(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        head = f"ZeRO-3 分到 {_gpus(p['gpus'], True)}上" if zh else f"ZeRO-3 across {_gpus(p['gpus'], False)}"
        return head + _because(p, f)

    return render


def _tensor(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        pp = (p.get("pp") or 1) > 1
        if zh:
            head = f"张量并行 {p['tp']}" + (f" × 流水线并行 {p['pp']}" if pp else "")
        else:
            head = f"tensor parallel {p['tp']}" + (f" × pipeline parallel {p['pp']}" if pp else "")
        return head + _because(p, f)

    return render


# ------------------------------------------------------------------ suggestions


def _option(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        where, shape, need = _where(p, f), _shape(p, f), f.gib(p["needed_gib"])
        if p.get("cost") is None:
            return (f"{where}（{shape}，每卡 {need}；价格未知，请查控制台）" if zh
                    else f"{where} ({shape}, {need} per GPU; price unknown — check the console)")
        cost = _per(p, f, p["cost"], p["period"])
        return f"{where}（{shape}，每卡 {need}），{cost}" if zh else f"{where} ({shape}, {need} per GPU) at {cost}"

    return render


def _fits(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        n, budget = p["options"], p.get("budget")
        if zh:
            return f"{n} 个有价格的方案可行" + ("且在预算内" if budget else "") + f"；最佳：{p['best']}。"
        verb = ("fit" if n > 1 else "fits") + (" the budget" if budget else "")
        return f"{n} priced option{'s' if n > 1 else ''} {verb}; best {p['best']}."

    return render


def _over(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        budget = f.money(p["budget"], p.get("currency"))
        if zh:
            return f"放得下，但超出 {budget} 的预算；最便宜的有价方案：{p['best']}" + (f"；另有 {p['also']}" if p.get("also") else "") + "。"
        return (f"fits, but over your {budget} budget; cheapest priced {p['best']}"
                + (f"; also {p['also']}" if p.get("also") else "") + ".")

    return render


def _none(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        tried = ("；" if zh else "; ").join(f.term("change", k) for k in p.get("tried") or [])
        if zh:
            return f"目录中没有单项改动能让它放得下（已尝试：{tried or '无可用改动'}）：请检查模型规模和序列长度。"
        return f"No single change makes this fit in the catalog (tried: {tried or 'no change applies'}): check the model size and sequence length."

    return render


# ------------------------------------------------------------------ ranking (RankCode)

_NEED = {
    "job": ("the job", "整个任务"),
    "month": ("a month of use", "按月使用"),
    "hour": ("an hour", "每小时"),
}
_NEED_PER = {"job": None, "month": "month", "hour": "hour"}


def _need_cost(p: dict, f: Formatter, value) -> str:
    return f.money(value, p.get("currency"), _NEED_PER.get(p.get("period") or "month"), table=True)


def _billing_chosen(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        billing, need = f.term("billing", p["billing"]), _NEED.get(p.get("period") or "month", _NEED["month"])[1 if zh else 0]
        others = ("；" if zh else "; ").join(p.get("compared") or [])
        cost = _need_cost(p, f, p["cost"])
        if zh:
            return f"{need}时{billing}最便宜：{cost}（{others}）"
        return f"{billing} is the cheapest billing for {need}: {cost} ({others})"

    return render


def _billing_cost(p: dict, f: Formatter) -> str:
    return f"{f.term('billing', p['billing'])}{'：' if f.zh else ': '}{_need_cost(p, f, p['cost'])}"


_FACTOR = {
    "fit": ("a better fit (memory headroom, interconnect, host, software support, no spot interruption)",
            "更合适（显存余量、互联、主机配置、软件支持、不会被竞价回收）"),
    "freshness": ("a fresher price", "价格更新"),
    "grade": ("a more trustworthy price source", "价格来源更可靠"),
    "sooner": ("finishing sooner", "跑得更快"),
    "size": ("fewer GPUs (easier to get and to grow)", "用卡更少（更容易租到，也便于以后扩容）"),
}


def _offer(p: dict, f: Formatter) -> str:
    """'the lambda offer of 1 × A100-80GB' / 'lambda 的 1 × A100-80GB' (the instance id stays in the params:
    ids such as 8B200.240V read as quantities)."""
    shape = _shape(p, f)
    return f"{f.provider(p['provider'])} 的 {shape}" if f.zh else f"{f.provider(p['provider'])}'s {shape}"


def _where(p: dict, f: Formatter) -> str:
    """'provider/instance' as the CLI takes it; with display names set (a chat answer), 'Name `instance`'."""
    shown = f.provider(p["provider"])
    return f"{p['provider']}/{p['instance']}" if shown == str(p["provider"]) else f"{shown} `{p['instance']}`"


def _band_text(factors: dict, en: str, zh_text: str, same_en: str, same_zh: str):
    """`rank.band` as a sentence or a table cell: the cheaper offer passed over, by how much, and the deciding factor;
    for the same-cost factors (sooner, size: within 1 %, `tools.recommend_rank.SAME_COST`) or an equal cost it says so."""
    def for_lang(zh: bool):
        def render(p: dict, f: Formatter) -> str:
            key = p.get("factor") or "fit"
            factor = factors.get(key, factors["fit"])[1 if zh else 0]
            same = key in ("sooner", "size") or p["cheaper_fraction"] <= 0
            text = (same_zh if zh else same_en) if same else (zh_text if zh else en)
            return text.format(other=_offer(p, f), pct=f.pct(p["cheaper_fraction"]), factor=factor)

        return render

    return for_lang


_FACTOR_SHORT = {
    "fit": ("better fit", "更合适"),
    "freshness": ("fresher price", "价格更新"),
    "grade": ("more trustworthy price source", "价格来源更可靠"),
    "sooner": ("same cost, sooner", "花费相同、更快"),
    "size": ("same cost, fewer GPUs", "花费相同、卡更少"),
}
_band = _band_text(_FACTOR, "ranked above {other}, which is only {pct} cheaper (within the cost band), for {factor}",
                   "排在 {other} 之前：后者只便宜 {pct}（在成本相近区间内），本方案{factor}",
                   "ranked above {other}, which costs the same, for {factor}",
                   "排在 {other} 之前：两者花费相同，本方案{factor}")
# in a table cell: 'ahead of Lium's 1 × RTX-4090 (3.4% cheaper): more trustworthy price source'
_band_row = _band_text(_FACTOR_SHORT, "ahead of {other} ({pct} cheaper): {factor}", "排在 {other}（便宜 {pct}）之前：{factor}",
                       "ahead of {other}: {factor}", "排在 {other} 之前：{factor}")


def _over_option(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        cost, budget = _exact(p, f, p["cost"], p["period"]), _exact(p, f, p["budget"])
        over = f.pct(p["over_fraction"])
        if zh:
            return f"超出预算：{cost} > {budget}（超出 {over}）——没有在预算内的有价方案，这是最便宜的有价方案"
        return f"over budget: {cost} > {budget} ({over} over) — no priced option fits the budget; this is the cheapest priced one"

    return render


def _none_within(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        budget = _exact(p, f, p["budget"], p["period"])
        cost, over, where = _exact(p, f, p["cost"], p["period"]), f.pct(p["over_fraction"]), _offer(p, f)
        if zh:
            return f"没有在 {budget} 预算内的有价方案：最便宜的有价方案是 {where}，{cost}（超出 {over}）。"
        return f"No priced option fits the {budget} budget: the cheapest priced one is {where} at {cost} ({over} over)."

    return render


def _basis(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        need = p.get("need") or "month"
        band, room = f.pct(p["band_fraction"]), f.pct(p["headroom_fraction"])
        if zh:
            what = {"job": "整个任务的费用", "hour": "每小时费用", "month": "每月费用"}[need]
            lead = "中国大陆的报价排在前面；" if p.get("mainland_first") else ("中国大陆以外的报价排在前面；" if p.get("mainland_last") else "")
            return (f"{lead}按{what}排序，计费方式取能覆盖该时长的最便宜一种；与最便宜方案相差 {band} 以内时，"
                    f"先看是否更合适（显存余量至少为可用显存的 {room}、互联、主机配置、软件支持、非竞价），再看价格是否较新、来源是否可靠；"
                    "差距更大时按费用排序。")
        what = {"job": "the cost of the job", "hour": "the cost per hour", "month": "the cost of a month of use"}[need]
        lead = ("Mainland-China offers first; " if p.get("mainland_first")
                else "offers outside mainland China first (mainland platforms bill in CNY); " if p.get("mainland_last") else "")
        text = (f"{lead}ranked by {what} at the cheapest billing that covers it; within {band} of the cheapest, a better "
                f"fit (memory headroom of at least {room} of usable memory, interconnect, host, software support, not spot-only) comes "
                "first, then a fresher price and a more trustworthy source; beyond that, cost decides.")
        return text[0].upper() + text[1:]

    return render


def _problems(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        room = f.pct(p.get("headroom_fraction") or 0.1)
        if zh:
            return f"显存余量不足可用显存的 {room}：更长的序列或显存碎片可能导致显存不足"
        return f"tight memory: headroom under {room} of usable memory; longer sequences or fragmentation may run out of memory"

    return render


# ------------------------------------------------------------------ software support (SoftwareCode)

_STACK = {"cuda": "CUDA", "rocm": "ROCm", "cann": "CANN"}


def _cc(p: dict, f: Formatter) -> str:
    if p.get("cc") is None:
        return ""
    cc = f"{float(p['cc']):.1f}"
    return f"（计算能力 {cc}）" if f.zh else f" (compute capability {cc})"


def _software_reject(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        gpu, cc, rule = p["gpu"], _cc(p, f), p.get("rule")
        if rule == "cuda-pre-pascal":
            return (f"不推荐用于大模型训练或推理：{gpu}{cc} 没有当前 PyTorch 版本可用" if zh
                    else f"not offered for LLM training or serving: {gpu}{cc} has no current PyTorch build")
        if rule == "amd-pre-cdna":
            return (f"不推荐用于大模型训练或推理：当前软件栈和 vLLM 已不支持 {gpu}" if zh
                    else f"not offered for LLM training or serving: {gpu} is outside current ROCm and vLLM support")
        if rule == "pascal-llm":
            return (f"除非指定这款卡，否则不推荐用于大模型：{gpu}{cc} 没有张量核心、不支持 BF16，低于 vLLM 的最低要求" if zh
                    else f"not offered for LLM work unless you name it: {gpu}{cc} has no tensor cores and no BF16, "
                    "and is below vLLM's minimum")
        return (f"按软件支持规则 {rule}，{gpu} 不推荐用于此任务" if zh
                else f"not offered for this workload: software-support rule {rule} ({gpu})")

    return render


def _software_warn(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        gpu, cc, rule = p["gpu"], _cc(p, f), p.get("rule")
        if rule == "pre-turing-wheels":
            wheel, arch = p.get("wheel") or "cu126", p.get("min_arch") or "Turing"
            return (f"{gpu}{cc}：当前默认的 PyTorch CUDA 安装包需要 {arch} 或更新的架构，请安装 {wheel} 版本" if zh
                    else f"{gpu}{cc}: current default PyTorch CUDA wheels need {arch} or newer; install the {wheel} build")
        if rule == "flash-attention-2":
            arch = p.get("min_arch") or "Ampere"
            return (f"{gpu}{cc} 不支持 FlashAttention-2（需要 {arch} 或更新的架构）：注意力更占显存、更慢，PyTorch 自带的实现仍可用" if zh
                    else f"{gpu}{cc}: no FlashAttention-2 (needs {arch} or newer): attention takes more memory and time; "
                    "PyTorch's built-in attention still works")
        if rule == "ascend-ports":
            ports = f.list(p.get("ports") or [])
            stack = p.get("stack_name") or "CANN"
            return (f"{gpu} 使用 {stack} 软件栈：仅支持 CUDA 的代码（FlashAttention、bitsandbytes、vLLM 的 CUDA 版）需要改用昇腾适配版：{ports}" if zh
                    else f"{gpu} runs {stack}: CUDA-only code (FlashAttention, bitsandbytes, vLLM's CUDA build) needs the "
                    f"Ascend ports: {ports}")
        return f"{gpu}：软件支持注意事项（{rule}）" if zh else f"{gpu}: software-support caveat ({rule})"

    return render


def _fractional(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        part = f"{p['gpu']} 的 {f.g(p['fraction'])} 切片（vGPU）" if zh else f"a {f.g(p['fraction'])} slice of a {p['gpu']} (vGPU)"
        if p.get("training"):
            return f"{part}：不推荐用于训练" if zh else f"{part}: not offered for training"
        return f"{part}：推理性能估算需要整卡" if zh else f"{part}: the serving estimate needs whole GPUs"

    return render


# ------------------------------------------------------------------ serving (ServeRecCode)


def _ms(f: Formatter, x) -> str:
    v = float(x)
    text = f"{v:,.0f}" if v >= 10 else f"{v:,.1f}"
    return f"{text} 毫秒" if f.zh else f"{text} ms"


def _tok_s(f: Formatter, x) -> str:
    v = float(x)
    text = f"{v:,.0f}" if v >= 10 else f"{v:,.1f}"
    return f"{text} token/秒" if f.zh else f"{text} tok/s"


def _serve_option(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        w, copies = p.get("weights"), p.get("copies") or 1
        cost = p.get("cost_per_million_output_tokens_at_load")
        if zh:
            text = (f"{w} 权重：此负载下输出 {_tok_s(f, p['output_tok_s'])}，首 token 延迟 {_ms(f, p['ttft_ms'])}，"
                    f"每个输出 token {_ms(f, p['tpot_ms'])}（每用户 {_tok_s(f, p['tokens_per_user_s'])}），"
                    f"最多同时容纳 {f.int(p['max_concurrency'])} 个序列")
            text += f"；{copies} 份部署" if copies > 1 else ""
            text += f"；此负载下每百万输出 token {f.money(cost, p.get('currency'))}" if cost is not None else ""
            return text
        text = (f"{w} weights: {_tok_s(f, p['output_tok_s'])} output at the load, time to first token "
                f"{_ms(f, p['ttft_ms'])}, {_ms(f, p['tpot_ms'])} per output token ({_tok_s(f, p['tokens_per_user_s'])} "
                f"per user), up to {f.int(p['max_concurrency'])} sequences at once")
        text += f"; {copies} copies" if copies > 1 else ""
        text += f"; {f.money(cost, p.get('currency'))} per million output tokens at the load" if cost is not None else ""
        return text

    return render


def _serve_layout(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        copies, nodes, pp = p.get("copies") or 1, p.get("nodes") or 1, p.get("pp") or 1
        if zh:
            text = f"{_gpus(p['gpus'], True)}：{p['replicas']} 个副本 × TP {p['tp']}" + (f" × PP {pp}，{nodes} 台机器" if pp > 1 or nodes > 1 else "")
            return (f"{copies} 份 × " if copies > 1 else "") + text
        text = f"{_gpus(p['gpus'], False)}: {f.count(p['replicas'], 'replica')} × TP {p['tp']}" + (
            f" × PP {pp} over {f.count(nodes, 'machine')}" if pp > 1 or nodes > 1 else "")
        return (f"{copies} copies × " if copies > 1 else "") + text

    return render


def _variant(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        per = p.get("period") or "month"
        cost = f.money(p.get("cost"), p.get("currency"), _NEED_PER.get(per), table=True)
        base = p.get("base_cost")
        base_text = f.money(base, p.get("currency"), _NEED_PER.get(per), table=True) if base is not None else None
        if zh:
            return f"改用 {p['weights']} 权重：{cost}" + (f"（bf16：{base_text}）" if base_text else "（bf16 没有可行方案）")
        return f"with {p['weights']} weights: {cost}" + (f" (bf16: {base_text})" if base_text else " (no bf16 option)")

    return render


def _serve_weights(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        if zh:
            return (f"放不下：{p['weights']} 权重共 {f.gib(p['weights_gib'])}，{f.g(p['gpus'])} × {p['gpu']} 留给权重和 "
                    f"KV cache 的只有 {f.gib(p['usable_gib'])}")
        return (f"does not fit: the {p['weights']} weights take {f.gib(p['weights_gib'])}, {f.g(p['gpus'])} × {p['gpu']} "
                f"leave {f.gib(p['usable_gib'])} for weights and KV cache")

    return render


def _serve_kv(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        copies = p.get("copies") or 1
        if zh:
            where = f"{copies} 份部署" if copies > 1 else "单机"
            return f"放不下此负载的 KV cache：需要 {f.int(p['concurrency'])} 个并发序列，{where}只能容纳 {f.int(p['max_concurrency'])} 个"
        where = f"{copies} copies" if copies > 1 else "one machine"
        return (f"the KV cache for the load does not fit: {f.int(p['concurrency'])} concurrent sequences wanted, "
                f"{f.int(p['max_concurrency'])} fit on {where}")

    return render


def _serve_kv_margin(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        copies = p.get("copies") or 1
        if zh:
            where = f"{copies} 份部署" if copies > 1 else "单机"
            return (f"KV cache 没有余量：{where}只能容纳 {f.int(p['max_concurrency'])} 个序列，而负载加 "
                    f"{f.pct(p['margin_fraction'])} 余量需要 {f.int(p['needed'])} 个（请求比设定长度更长时会被抢占）")
        where = f"{copies} copies" if copies > 1 else "one machine"
        return (f"no KV-cache margin: {f.int(p['max_concurrency'])} sequences fit on {where}, the load plus a "
                f"{f.pct(p['margin_fraction'])} margin needs {f.int(p['needed'])} (longer requests would be preempted)")

    return render


def _serve_saturated(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        copies = p.get("copies") or 1
        rate, most = f.g(p["request_rate_req_s"]), f.g(p["max_req_s"])
        if zh:
            where = f"{copies} 份部署" if copies > 1 else "单机"
            return f"吞吐不够：高峰每秒 {rate} 个请求，{where}最多每秒处理 {most} 个"
        where = f"{copies} copies" if copies > 1 else "one machine"
        return f"not enough throughput: {rate} requests/s at the peak, {where} serve at most {most} requests/s"

    return render


def _serve_targets(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        copies = p.get("copies") or 1
        parts = []
        if p.get("target_ms") is not None:
            parts.append(f"首 token 延迟 {_ms(f, p['ttft_ms'])}（目标 {_ms(f, p['target_ms'])}）" if zh
                         else f"time to first token {_ms(f, p['ttft_ms'])} (target {_ms(f, p['target_ms'])})")
        if p.get("target_tok_s") is not None:
            parts.append(f"每用户 {_tok_s(f, p['tokens_per_user_s'])}（目标 {_tok_s(f, p['target_tok_s'])}）" if zh
                         else f"{_tok_s(f, p['tokens_per_user_s'])} per user (target {_tok_s(f, p['target_tok_s'])})")
        if zh:
            where = f"{copies} 份部署" if copies > 1 else "单机"
            return f"达不到延迟目标（{where}）：" + "，".join(parts)
        where = f"{copies} copies" if copies > 1 else "one machine"
        return f"misses the latency targets on {where}: " + ", ".join(parts)

    return render


def _serve_basis(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        if zh:
            return (f"推理部署：只保留放得下权重和此负载 KV cache（另留 {f.pct(p.get('margin_fraction') or 0)} 的序列余量）、并满足延迟目标的实例，按满足该负载的每月费用排序；"
                    f"单机不够时，用多份同样的部署加负载均衡（合计最多 {p['max_gpus']} 张卡）。")
        return ("Serving: instances that hold the weights and the KV cache for the load (with "
                f"{f.pct(p.get('margin_fraction') or 0)} more sequences as margin) and meet the latency targets, "
                "ranked by the monthly cost of meeting the load; when one machine is not enough, copies of it behind a "
                f"load balancer (up to {p['max_gpus']} GPUs in all).")

    return render


def _serve_variants(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        formats = f.list(p.get("formats") or [])
        if zh:
            return f"同时列出量化方案（{formats}）及其典型精度损失，供与 bf16 对比。"
        return f"Quantised variants ({formats}) are listed beside bf16, each with its typical quality cost."

    return render


MESSAGES: dict = {
    # ranking
    "rank.billing_chosen": (_billing_chosen(False), _billing_chosen(True)),
    "rank.billing_cost": (_billing_cost, _billing_cost),
    "rank.band": (_band(False), _band(True)),
    "rank.band_row": (_band_row(False), _band_row(True)),
    "rank.over_budget": (_over_option(False), _over_option(True)),
    "rank.none_within_budget": (_none_within(False), _none_within(True)),
    "rank.no_price_in_billing": (
        lambda p, f: f"No instance that fits lists a {f.term('billing', p.get('billing'))} price here: "
        f"{f.g(p.get('instances'))} are priced only in other billing modes (see the near-misses)"
        + (", and the options below have no price in the catalog." if p.get("unpriced") else "."),
        lambda p, f: f"能放下的实例在这里都没有{f.term('billing', p.get('billing'))}价格：{f.g(p.get('instances'))} 个只有其他计费方式的价格（见未入选）"
        + ("，下面的方案在目录中没有价格。" if p.get("unpriced") else "。"),
    ),
    "rank.spot_only": ("only a spot price is listed: the instance can be interrupted (checkpoint training; keep a "
                       "fallback for serving)",
                       "只列出了竞价价格：实例可能被回收（训练要保存检查点，推理服务要有备用实例）"),
    "rank.basis": (_basis(False), _basis(True)),
    "rank.fit_problems": (_problems(False), _problems(True)),
    # software support
    "software.reject": (_software_reject(False), _software_reject(True)),
    "software.warn": (_software_warn(False), _software_warn(True)),
    "software.reject_fractional": (_fractional(False), _fractional(True)),
    # serving
    "serve_rec.option": (_serve_option(False), _serve_option(True)),
    "serve_rec.layout": (_serve_layout(False), _serve_layout(True)),
    "serve_rec.variant": (_variant(False), _variant(True)),
    "serve_rec.reject_weights": (_serve_weights(False), _serve_weights(True)),
    "serve_rec.reject_kv": (_serve_kv(False), _serve_kv(True)),
    "serve_rec.reject_kv_margin": (_serve_kv_margin(False), _serve_kv_margin(True)),
    "serve_rec.reject_saturated": (_serve_saturated(False), _serve_saturated(True)),
    "serve_rec.reject_targets": (_serve_targets(False), _serve_targets(True)),
    "serve_rec.basis": (_serve_basis(False), _serve_basis(True)),
    "serve_rec.variants": (_serve_variants(False), _serve_variants(True)),
    # errors
    "error.rec.serving_needs_inference": ("A serving load applies to inference, not {mode:mode}.",
                                          "推理负载只适用于推理，不适用于{mode:mode}。"),
    "error.rec.serving_needs_inference.cli": ("--concurrency, --requests-per-day, --request-rate and the other serving "
                                              "flags apply to --mode inference, not {mode}.",
                                              "--concurrency、--requests-per-day、--request-rate 等推理参数只适用于 "
                                              "--mode inference，不适用于 {mode}。"),
    "error.rec.serving_needs_model": ("A serving load needs a model (its weights and KV cache), not a raw memory need.",
                                      "推理负载需要指定模型（权重和 KV cache），不能只给显存需求。"),
    "error.rec.serving_needs_model.cli": ("Serving flags need --model, --params or --config, not --required-gib.",
                                          "推理参数需要 --model、--params 或 --config，不能用 --required-gib。"),
    "error.rec.serving_one_load": ("Give one serving load: concurrent users, requests per day or a request rate "
                                   "(given: {given:list}).",
                                   "只能给一种推理负载：并发用户数、每天请求数或每秒请求数（给了：{given:list}）。"),
    "error.rec.serving_one_load.cli": ("Give one of --concurrency, --requests-per-day, --request-rate.",
                                       "只能给 --concurrency、--requests-per-day、--request-rate 中的一个。"),
    "error.rec.serving_peak_factor": ("The peak factor applies to requests per day only.", "高峰系数只适用于每天请求数。"),
    "error.rec.serving_peak_factor.cli": ("--peak-factor applies to --requests-per-day only.",
                                          "--peak-factor 只适用于 --requests-per-day。"),

    # reasons
    "option.fit": (_fit(False), _fit(True)),
    "option.price": (_price(False), _price(True)),
    "option.converted": ("converted from {from_currency:currency} at {rate}", "由{from_currency:currency}按 {rate} 换算"),
    "option.cheaper_spot": ("spot {price_per_hour:money_h} is cheaper but can be interrupted",
                            "竞价实例 {price_per_hour:money_h} 更便宜，但可能被回收"),
    "option.unpriced": ("fits; price unknown — check the console", "放得下；价格未知，请到控制台查询"),
    "option.time": (_time(False), _time(True)),
    "option.mainland": ("mainland China region ({region})",
                        lambda p, f: "中国大陆地域" + ("" if p.get("region") in (None, "cn-mainland") else f"（{f.region(p.get('region'))}）")),
    "option.within_budget": (_within(False), _within(True)),
    # warnings
    "warn.no_bf16": ("no BF16 on {gpu}: training runs in fp16 mixed precision", "{gpu} 不支持 BF16：训练将使用 fp16 混合精度"),
    "warn.export_fleet": ("{gpu} is export-restricted for new sales into mainland China: this is the provider's existing "
                          "fleet; check availability in the console",
                          "{gpu} 受出口管制，不能新售到中国大陆：这是云厂商的存量机器，请在控制台确认是否有货"),
    "warn.pcie_slow": ("slow: PCIe only — {layout} without NVLink", "较慢：仅 PCIe 互联 —— {layout}，没有 NVLink"),
    "warn.vgpu": ("a {fraction:g} slice of a {gpu} (vGPU): {usable_gib:gib}", "{gpu} 的 {fraction:g} 切片（vGPU）：{usable_gib:gib}"),
    "warn.no_time": ("no time estimate: {error}", "无法估算时间：{error}"),
    # host and interconnect
    "host.thin": (_host(False), _host(True)),
    "link.interconnect": (_link(False), _link(True)),
    # near-misses
    "reject.export": ("fits, but export-restricted in mainland China: {gpu_name} cannot be sold into mainland China",
                      "放得下，但在中国大陆受出口管制：{gpu_name} 不能销售到中国大陆"),
    "reject.region": (_region(False), _region(True)),
    "reject.fit": ("does not fit: needs {needed_gib:gib} per GPU, {gpu} has {usable_gib:gib} usable "
                   "({short_gib:gib} short; {layout})",
                   "放不下：每卡需要 {needed_gib:gib}，{gpu} 可用 {usable_gib:gib}（差 {short_gib:gib}；{layout}）"),
    "reject.fit_error": ("does not fit: {error}", "放不下：{error}"),
    "reject.network": (_network(False), _network(True)),
    "reject.bf16": ("no BF16 on {gpu} (bf16 requested); fp16 would run", "{gpu} 不支持 BF16（要求 bf16）；改用 fp16 可以运行"),
    "reject.bf16.cli": ("no BF16 on {gpu} (bf16 requested); --precision fp16 would run",
                        "{gpu} 不支持 BF16（要求 bf16）；--precision fp16 可以运行"),
    "reject.fp8": ("no FP8 on {gpu} (fp8 requested)", "{gpu} 不支持 FP8（要求 fp8）"),
    "reject.billing": (_billing_miss(False), _billing_miss(True)),
    "reject.budget": (_budget_miss(False), _budget_miss(True)),
    "reject.deadline_untimed": ("cannot be checked against the {deadline_hours:hours} limit: {error}",
                                "无法核对 {deadline_hours:hours} 的期限：{error}"),
    "reject.deadline": (
        lambda p, f: f"too slow: about {f.hours(p['hours'])} > the {f.hours(p['deadline_hours'])} limit ({f.pct(p['over_fraction'])} over)",
        lambda p, f: f"太慢：约 {f.hours(p['hours'])}，超过 {f.hours(p['deadline_hours'])} 的期限（超出 {f.pct(p['over_fraction'])}）",
    ),
    "reject.pcie": ("PCIe only: {layout} without NVLink is slow for training (options with NVLink or a single GPU exist)",
                    "仅 PCIe：{layout}，没有 NVLink，训练较慢（已有 NVLink 或单卡方案）"),
    "reject.pcie_serving": ("PCIe only: {layout} splits the model over PCIe without NVLink (a priced option on one GPU or with NVLink exists)",
                            "仅 PCIe：{layout}，模型经 PCIe 切分、没有 NVLink（已有单卡或 NVLink 的有价方案）"),
    # layouts
    "layout.one_gpu": ("the whole job on one GPU", "整个任务放在单卡上"),
    "layout.need_one_gpu": ("the whole need on one GPU", "全部需求放在单卡上"),
    "layout.need_replicated": ("one GPU holds the whole need (a full copy on each of {gpus} GPUs)",
                               "单卡放得下全部需求（{gpus} 张卡各放一份）"),
    "layout.need_split": ("the {needed_gib:gib} need split evenly across {gpus} GPUs (assumed)",
                          "{needed_gib:gib} 的需求平均分到 {gpus} 张卡上（假设）"),
    "layout.user": (_user_layout(False), _user_layout(True)),
    "layout.replicas": (_replicas(False), _replicas(True)),
    "layout.zero3": (_zero3(False), _zero3(True)),
    "layout.tensor_parallel": (_tensor(False), _tensor(True)),
    # assumptions
    "rec.skipped_unknown_gpu": ("{instances} catalog instances skipped: their accelerator is not in the GPU catalog.",
                                "跳过了目录中的 {instances} 个实例：它们的加速卡不在 GPU 目录中。"),
    "rec.currency_default": ("Currency {currency}: the default for {region:region}.", "币种 {currency:currency}：{region:region}的默认币种。"),
    "rec.gpus_ignored": ("The recommender sizes the GPU count itself: a GPU count is only kept with a sharding or "
                         "tensor/pipeline-parallel layout.",
                         "推荐器自行决定卡数：只有同时指定分片或张量/流水线并行方式时，才沿用给定的卡数。"),
    "rec.gpus_ignored.cli": ("The recommender sizes the GPU count itself: --gpus is ignored without --sharding/--tp/--pp.",
                             "推荐器自行决定卡数：没有 --sharding/--tp/--pp 时忽略 --gpus。"),
    "rec.billing_default": ("Billing: the cheapest listed billing that covers the need (on-demand or a monthly "
                            "subscription for a month of use, whole monthly or yearly terms for a job); spot only when "
                            "asked for or when it is the only price.",
                            "计费：优先按量付费或包月中能覆盖所需时长、最便宜的一种（整个任务按整月或整年计）；"
                            "只有指定或只有竞价价格时才用竞价实例。"),
    "rec.monthly_hours": ("Monthly cost = hourly price × {hours:g} h.", "每月费用 = 小时单价 × {hours:g} 小时。"),
    "rec.no_time_inference": ("Time to finish is for training jobs; not estimated for inference.",
                              "完成时间只对训练任务估算，推理不估算。"),
    "rec.job_start": ("A job's cost includes {hours:g} h of paid start-up (booting the machines, setting up, loading the model).",
                      "任务费用含 {hours:g} 小时的付费启动时间（开机、配环境、加载模型）。"),
    "rec.spot_rework": ("Spot job cost includes expected rework: {interruptions_per_day:g} interruption/day, checkpoint every "
                        "{checkpoint_hours:g} h, {restart_hours:g} h restart.",
                        "竞价实例的任务费用含预期返工：每天 {interruptions_per_day:g} 次中断，每 {checkpoint_hours:g} 小时保存检查点，"
                        "重启 {restart_hours:g} 小时。"),
    "rec.converted": ("Prices converted at {rate}.", "价格按 {rate} 换算。"),
    "rec.region_cn": ("Region cn: only instances in mainland-China regions are considered.",
                      "地区限定中国大陆：只考虑中国大陆地域的实例。"),
    "rec.unpriced_last": ("Instances without a catalog price are listed after priced ones: check the provider's console.",
                          "目录中没有价格的实例排在有价格的之后：请到云厂商控制台查询。"),
    "rec.multi_node": ("No single machine holds this job: multi-node clusters listed (nodes × GPUs, InfiniBand/RDMA-class "
                       "networking required).",
                       "单台机器放不下这个任务：列出的是多机集群（节点数 × 卡数，需要 InfiniBand/RDMA 级网络）。"),
    "rec.multi_node_deadline": (
        lambda p, f: f"To finish within {f.hours(p['deadline_hours'])}, clusters of several machines are listed too (nodes × GPUs, "
        "InfiniBand/RDMA-class networking required; the time assumes the same utilisation across machines).",
        lambda p, f: f"为在 {f.hours(p['deadline_hours'])} 内完成，也列出了多机集群（节点数 × 卡数，需要 InfiniBand/RDMA 级网络；"
        "时间按多机同样的算力利用率估算）。"),
    # suggestion outcomes
    "suggest.option": (_option(False), _option(True)),
    "suggest.raise_budget": ("the cheapest fitting option is {best}.", "放得下的最便宜方案是 {best}。"),
    "suggest.fits": (_fits(False), _fits(True)),
    "suggest.over_budget": (_over(False), _over(True)),
    "suggest.fits_on": ("fits on {best}.", "可以放在 {best} 上。"),
    "suggest.none": (_none(False), _none(True)),
}
