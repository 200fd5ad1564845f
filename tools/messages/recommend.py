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
        billing, grade, age = f.term("billing", p["billing"]), f.term("grade", p["grade"]), f.as_of(p.get("as_of"))
        nodes = p.get("nodes") or 1
        if zh:
            return f"{hourly} {billing}" + (f"（{nodes} 节点）" if nodes > 1 else "") + f"，每月 {monthly.removesuffix('/月')}，{grade}，{age}"
        return f"{hourly} {billing}" + (f" ({nodes} nodes)" if nodes > 1 else "") + f", {monthly}, {grade}, {age}"

    return render


def _time(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        tps, job = p.get("throughput_tps"), p.get("job_cost")
        if zh:
            text = f"完成时间约 {f.hours(p['hours'])}（{f.days(p['days'])}），{_gpus(p['gpus'], True)}，MFU {p['mfu']:.2f}"
            text += f"，约每秒 {f.int(tps)} token" if tps else ""
            if job is not None:
                text += f"；任务费用 {f.money(job, p.get('currency'))}" + ("（含竞价实例的预期返工）" if p.get("spot") else "")
            return text
        text = f"time to finish ≈ {f.hours(p['hours'])} ({f.days(p['days'])}) on {_gpus(p['gpus'], False)} at MFU {p['mfu']:.2f}"
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
        where, shape, need = f"{p['provider']}/{p['instance']}", _shape(p, f), f.gib(p["needed_gib"])
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


MESSAGES: dict = {
    # reasons
    "option.fit": (_fit(False), _fit(True)),
    "option.price": (_price(False), _price(True)),
    "option.converted": ("converted from {from_currency:currency} at {rate}", "由{from_currency:currency}按 {rate} 换算"),
    "option.cheaper_spot": ("spot {price_per_hour:money_h} is cheaper but can be interrupted",
                            "竞价实例 {price_per_hour:money_h} 更便宜，但可能被回收"),
    "option.unpriced": ("fits; price unknown — check the console", "放得下；价格未知，请到控制台查询"),
    "option.time": (_time(False), _time(True)),
    "option.mainland": ("mainland China region ({region})", "中国大陆地域（{region}）"),
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
    "reject.pcie": ("PCIe only: {layout} without NVLink is slow for training (options with NVLink or a single GPU exist)",
                    "仅 PCIe：{layout}，没有 NVLink，训练较慢（已有 NVLink 或单卡方案）"),
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
    "rec.billing_default": ("Billing: on-demand where listed (else monthly, yearly, spot, in that order).",
                            "计费：优先按量付费（没有则依次用包月、包年、竞价实例）。"),
    "rec.monthly_hours": ("Monthly cost = hourly price × {hours:g} h.", "每月费用 = 小时单价 × {hours:g} 小时。"),
    "rec.no_time_inference": ("Time to finish is for training jobs; not estimated for inference.",
                              "完成时间只对训练任务估算，推理不估算。"),
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
    # suggestion outcomes
    "suggest.option": (_option(False), _option(True)),
    "suggest.raise_budget": ("the cheapest fitting option is {best}.", "放得下的最便宜方案是 {best}。"),
    "suggest.fits": (_fits(False), _fits(True)),
    "suggest.over_budget": (_over(False), _over(True)),
    "suggest.fits_on": ("fits on {best}.", "可以放在 {best} 上。"),
    "suggest.none": (_none(False), _none(True)),
}
