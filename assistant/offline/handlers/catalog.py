"""Answers from the catalog: one record (spec), GPUs side by side (comparison), GPUs with a property (filter), costs."""

from __future__ import annotations

import re
from typing import Any

from assistant.offline.blocks import Bullets, Composition, Lead, Para, Table
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Plan, Results, search, tail
from assistant.offline.handlers.rental import TableCode, compose_recommendation, recommend_plan
from assistant.offline.handlers.talk import GuidanceHandler
from assistant.offline.handlers.training import TrainTimeHandler
from assistant.offline.workload import AssumeCode
from assistant.understand.slots import Frame
from tools.messages import render
from tools.messages.format import Formatter
from tools.notes import Note, NoteCode
from tools.schemas import ExchangeRate


class SpecCode(NoteCode):
    gpu = "spec.gpu"
    link_nvlink = "spec.link_nvlink"
    link_pcie = "spec.link_pcie"
    feature_yes = "spec.feature_yes"
    feature_no = "spec.feature_no"
    source = "spec.source"
    export = "spec.export"
    export_restricted = "spec.export_restricted"
    china_variant = "spec.china_variant"
    model = "spec.model"
    instance = "spec.instance"
    price = "spec.price"


class CmpCode(NoteCode):
    lead = "cmp.lead"
    memory_more = "cmp.memory_more"
    memory_same = "cmp.memory_same"
    compute = "cmp.compute"
    bandwidth = "cmp.bandwidth"
    link = "cmp.link"
    compute_same = "cmp.compute_same"
    bandwidth_same = "cmp.bandwidth_same"
    price = "cmp.price"
    price_none = "cmp.price_none"
    header_spec = "cmp.header_spec"
    row_memory = "cmp.row_memory"
    row_bandwidth = "cmp.row_bandwidth"
    row_bf16 = "cmp.row_bf16"
    row_fp8 = "cmp.row_fp8"
    row_link = "cmp.row_link"
    row_price = "cmp.row_price"
    yes = "cmp.yes"
    no = "cmp.no"
    job_cost = "cmp.job_cost"  # gpu, gpu_hours, tokens_text, model, cost, currency, provider: the stated job's GPU-hours priced
    job_time = "cmp.job_time"  # gpu, gpu_hours, tokens_text, model: no priced offer of that GPU
    job_cheaper = "cmp.job_cheaper"  # gpu: the one whose GPU-hours for the job cost less
    serve_cost = "cmp.serve_cost"  # model, gpu, gpus, tp, output_tok_s, cost, currency, at ('load' | 'max')
    serve_unpriced = "cmp.serve_unpriced"  # model, gpu, gpus, tp, output_tok_s
    serve_cheaper = "cmp.serve_cheaper"  # gpu: the lower cost per million output tokens


COMPARED_JOBS = 2  # the job is timed and priced on the first two GPUs compared
TRAINING_MODES = ("full", "lora", "qlora", "pretrain", "finetune")


class FilterCode(NoteCode):
    lead = "filter.lead"
    none = "filter.none"
    what = "filter.what"


class CostCode(NoteCode):
    lead = "cost.lead"
    unknown = "cost.unknown"
    lines = "cost.lines"
    line = "cost.line"
    offers = "cost.offers"
    offers_lead = "cost.offers_lead"
    per_gpu_hour = "cost.per_gpu_hour"


FEATURE_FIELDS = {"fp8": "fp8_supported", "bf16": "bf16_supported", "nvlink": "nvlink"}


def _link(r: dict[str, Any]) -> Note:
    if r.get("nvlink"):
        return Note.of(SpecCode.link_nvlink, gbps=r.get("nvlink_bandwidth_gbps"))
    return Note.of(SpecCode.link_pcie)


class SpecHandler:
    frame = Frame.spec

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        if ctx.has("instance"):
            plan.call("lookup_catalog", "spec", kind="instance", name=ctx.get("instance"))
        elif ctx.gpu:
            plan.call("lookup_catalog", "spec", kind="gpu", name=ctx.gpu)
        elif ctx.has("model"):
            plan.call("lookup_catalog", "spec", kind="model", name=ctx.get("model"))
        elif ctx.has("providers"):
            plan.call("lookup_catalog", "spec", kind="provider", name=ctx.get("providers")[0])
        search(plan, ctx.question[:300] or "GPU specs", ctx.lang, k=2, key="guide")
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        spec = results.get("spec")
        if spec is None:
            return GuidanceHandler().compose(ctx, plan, results, cited, env)
        if spec.error:
            out.add(Para([spec.error_note or Note.of(AnswerCode.tool_error, error=spec.error)]))
            return out
        r = spec.result
        kind = spec.args.get("kind")
        if kind == "gpu":
            lead: list = []
            for feature in ctx.get("features") or []:
                field = FEATURE_FIELDS.get(feature)
                if field is not None:
                    lead.append(Note.of(SpecCode.feature_yes if r.get(field) else SpecCode.feature_no, gpu=r["key"], feature=feature))
            facts = Note.of(SpecCode.gpu, name=r["name"], architecture=r["architecture"], form_factor=r["form_factor"],
                            memory_gb=r["memory_gb"], memory_type=r.get("memory_type"), usable_gib=r["usable_memory_gib"],
                            bandwidth_gbps=r.get("memory_bandwidth_gbps"), bf16_tflops=r.get("bf16_tflops") or r.get("fp16_tflops"),
                            fp8_tflops=r.get("fp8_tflops"), link=_link(r), tdp_w=r.get("tdp_w"))
            if lead:
                out.add(Lead(lead))  # the yes/no first, then the card
                out.add(Para([facts]))
            else:
                out.add(Lead([facts]))
            if ctx.lang == "zh":
                # the catalog's notes and citations are English text: a Chinese answer states the typed facts
                if r.get("restricted_in_china"):
                    out.add(Para([Note.of(SpecCode.export_restricted, gpu=r["key"])]))
                if r.get("china_variant"):
                    out.add(Para([Note.of(SpecCode.china_variant, gpu=r["key"])]))
            elif r.get("export_note"):
                out.add(Para([Note.of(SpecCode.export, note=r["export_note"])]))
            out.add(Para([Note.of(SpecCode.source, source=_source_label(r.get("source"), ctx.lang))]))
        elif kind == "model":
            f = Formatter(ctx.lang)
            out.add(Lead([Note.of(SpecCode.model, name=r["name"], params_text=f.big(r["params"]), layers=r.get("num_layers") or "?",
                                  hidden=r.get("hidden_size") or "?", heads=r.get("num_attention_heads") or "?",
                                  kv_heads=r.get("num_kv_heads") or r.get("num_attention_heads") or "?",
                                  attention=str(r.get("attention", "")).upper(), context=r.get("max_context") or "?")]))
            out.add(Para([Note.of(SpecCode.source, source=_source_label(r.get("source"), ctx.lang))]))
        elif kind == "instance":
            items = []
            for inst in r.get("instances", [])[:3]:
                prices = [Note.of(SpecCode.price, billing=p["billing"], amount=p["amount"], currency=p["currency"], per=p["per"])
                          for p in inst.get("prices", [])]
                link = "NVLink" if inst.get("nvlink") else ("InfiniBand" if inst.get("infiniband") else "PCIe")
                items.append(Note.of(SpecCode.instance, provider=inst["provider"], instance=inst["instance"], region=inst["region"]["name"],
                                     gpu_count=inst["gpu_count"], gpu=inst["gpu"], vcpus=inst.get("vcpus"), ram_gib=inst.get("ram_gib"),
                                     link=link, prices=("; " if ctx.lang != "zh" else "；").join(_render_all(prices, ctx.lang))))
            out.add(Lead(items[:1]))
            if len(items) > 1:
                out.add(Bullets(None, items[1:]))
        else:
            out.add(Lead([f"**{r.get('name')}**" + (f"（{r['name_zh']}）" if r.get("name_zh") else "")]))
        out.add(*tail(ctx, plan, results, cited, max_caveat_passages=1))
        return out


def _source_label(source: str | None, lang: str) -> str:
    """A citation for the reader: its links. The catalog's source text is English provenance notes whose own
    figures ("nvidia-smi total 81559 MiB") are not claims of the answer."""
    if not source:
        return ""
    links = re.findall(r"(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[^\s,;)]*)?", source)
    links = [l for l in links if not re.fullmatch(r"[\d.]+", l)]
    sep = "；" if lang == "zh" else "; "
    fallback = "目录数据（英文来源）" if lang == "zh" else "catalog data"
    return sep.join(("https://" + l if not l.startswith("http") else l) for l in links[:3]) or fallback


def _render_all(notes: list[Note], lang: str) -> list[str]:
    return [render(n, lang) for n in notes]


class ComparisonHandler:
    frame = Frame.comparison

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        gpus = ctx.gpus
        currency = ctx.answer_currency()
        if len(gpus) >= 2:
            plan.call("compare_gpus", "cmp", gpus=gpus[:4], currency=currency, region=ctx.get("region") or "any")
            if ctx.has_workload and (ctx.training or ctx.mode in TRAINING_MODES):
                # "A100 vs H100 for training a 7B model — which is cheaper per token?": the same job timed on one GPU
                # of each (GPU-hours barely depend on the count) and priced at each GPU's cheapest offer (follow_up)
                from assistant.offline.handlers.training import train_args

                args = train_args(ctx, plan, env, assume_gpu=False)
                for n, gpu in enumerate(gpus[:COMPARED_JOBS]):
                    plan.call("estimate_train_time", f"cmp_time{n}", **{**args, "gpu": gpu, "gpus": 1})
                plan.data["cmp_currency"] = currency
            elif ctx.has_workload and ctx.workload_kind in (None, "decoder") and (
                    ctx.mode == "inference" or any(ctx.has(k) for k in ("users", "concurrency", "requests_per_day", "request_rate"))):
                # "H100 vs H200 for serving llama 70b": the same deployment estimated on each, cost per million tokens
                from assistant.offline.handlers.serving import serving_args

                args = serving_args(ctx, plan)
                for n, gpu in enumerate(gpus[:COMPARED_JOBS]):
                    plan.call("estimate_serving", f"cmp_serve{n}", **{**args, "gpu": gpu, "currency": currency})
        elif gpus:
            plan.call("lookup_catalog", "spec", kind="gpu", name=gpus[0])
        search(plan, ctx.question[:300] or "GPU comparison", ctx.lang, k=2, key="guide")
        return plan

    def follow_up(self, ctx: TurnContext, plan: Plan, results: Results, env: Env) -> None:
        """Each timed job priced: its GPU-hours at the cheapest offer of one such GPU."""
        for n in range(COMPARED_JOBS):
            t = results.get(f"cmp_time{n}")
            if t is not None and not t.error and t.result.get("gpu_hours"):
                plan.call("estimate_cost", f"cmp_cost{n}", gpu=t.args["gpu"], gpus=1, hours=t.result["gpu_hours"],
                          currency=plan.data.get("cmp_currency") or ctx.answer_currency())

    def _job_lines(self, ctx: TurnContext, results: Results, env: Env) -> list[Note]:
        """The stated job on each compared GPU: GPU-hours, their cost, and which costs less (no ratio: the tools
        give none)."""
        lines: list[Note] = []
        priced: list[tuple[float, str]] = []
        f = Formatter(ctx.lang)
        for n in range(COMPARED_JOBS):
            t = results.get(f"cmp_time{n}")
            if t is None or t.error:
                continue
            gpu, tokens = t.args["gpu"], t.args["tokens"] * t.args.get("epochs", 1)
            common = dict(gpu=gpu, gpu_hours=t.result["gpu_hours"], tokens_text=f.big(tokens),
                          model=env.model_name(t.result.get("model")) if t.result.get("model") else None)
            c = results.get(f"cmp_cost{n}")
            if c is not None and not c.error and c.result.get("total") is not None:
                lines.append(Note.of(CmpCode.job_cost, cost=c.result["total"], currency=c.result["currency"],
                                     provider=env.provider_label(c.result["provider"], ctx.lang), **common))
                priced.append((c.result["total"], gpu))
            else:
                lines.append(Note.of(CmpCode.job_time, **common))
        if len(priced) == COMPARED_JOBS and priced[0][0] != priced[1][0]:
            lines.append(Note.of(CmpCode.job_cheaper, gpu=min(priced)[1]))
        served: list[tuple[float, str]] = []
        for n in range(COMPARED_JOBS):
            s = results.get(f"cmp_serve{n}")
            if s is None or s.error:
                continue
            r = s.result
            # with no load stated the estimate is one user at a time: the fair price of a card is at its full load
            at = "load" if any(k in s.args for k in ("concurrency", "requests_per_day", "request_rate")) else "max"
            cost = r.get(f"cost_per_million_output_tokens_at_{at}")
            common = dict(model=env.model_name(r.get("model")), gpu=r["gpu"], gpus=r["gpus"], tp=r["tp"],
                          output_tok_s=r["max_output_tok_s"] if at == "max" and r.get("max_output_tok_s") else r["output_tok_s"])
            if cost is not None:
                lines.append(Note.of(CmpCode.serve_cost, cost=cost, currency=r.get("currency"), at=at, **common))
                served.append((cost, r["gpu"]))
            else:
                lines.append(Note.of(CmpCode.serve_unpriced, at=at, **common))
        if len(served) == COMPARED_JOBS and served[0][0] != served[1][0]:
            lines.append(Note.of(CmpCode.serve_cheaper, gpu=min(served)[1]))
        return lines

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        cmp = results.get("cmp")
        if cmp is None:
            return SpecHandler().compose(ctx, plan, results, cited, env)
        out = Composition()
        if cmp.error:
            out.add(Para([cmp.error_note or Note.of(AnswerCode.tool_error, error=cmp.error)]))
            return out
        gpus = cmp.result["gpus"]
        a, b = gpus[0], gpus[1]
        verdicts: list[Note] = []
        if abs(a["memory_gb"] - b["memory_gb"]) < 0.5:
            verdicts.append(Note.of(CmpCode.memory_same, gb=a["memory_gb"]))
        else:
            w, l = (a, b) if a["memory_gb"] > b["memory_gb"] else (b, a)
            verdicts.append(Note.of(CmpCode.memory_more, winner=w["key"], winner_gb=w["memory_gb"], loser_gb=l["memory_gb"]))
        if a.get("bf16_tflops") and b.get("bf16_tflops"):
            w, l = (a, b) if a["bf16_tflops"] >= b["bf16_tflops"] else (b, a)
            if w["bf16_tflops"] / l["bf16_tflops"] < 1.05:
                verdicts.append(Note.of(CmpCode.compute_same, tflops=w["bf16_tflops"]))
            else:
                verdicts.append(Note.of(CmpCode.compute, winner=w["key"], ratio=round(w["bf16_tflops"] / l["bf16_tflops"], 1),
                                        winner_tflops=w["bf16_tflops"], loser_tflops=l["bf16_tflops"]))
        if a.get("memory_bandwidth_gbps") and b.get("memory_bandwidth_gbps"):
            w, l = (a, b) if a["memory_bandwidth_gbps"] >= b["memory_bandwidth_gbps"] else (b, a)
            if w["memory_bandwidth_gbps"] / l["memory_bandwidth_gbps"] < 1.05:
                verdicts.append(Note.of(CmpCode.bandwidth_same, gbps=w["memory_bandwidth_gbps"]))
            else:
                verdicts.append(Note.of(CmpCode.bandwidth, ratio=round(w["memory_bandwidth_gbps"] / l["memory_bandwidth_gbps"], 1),
                                        winner_gbps=w["memory_bandwidth_gbps"], loser_gbps=l["memory_bandwidth_gbps"]))
        if "nvlink" in (ctx.get("features") or []):
            verdicts[:0] = [Note.of(CmpCode.link, gpu=g["key"], nvlink=g["nvlink"], gbps=g.get("nvlink_bandwidth_gbps"))
                            for g in (a, b)]
        for g in (a, b):
            c = g.get("cheapest")
            verdicts.append(Note.of(CmpCode.price, gpu=g["key"], price_per_gpu_hour=c["price_per_gpu_hour"], currency=c["currency"], provider=env.provider_label(c["provider"], ctx.lang))
                            if c else Note.of(CmpCode.price_none, gpu=g["key"]))
        out.add(Lead([Note.of(CmpCode.lead, a=a["key"], b=b["key"], verdicts=verdicts)]))
        jobs = self._job_lines(ctx, results, env)
        if jobs:
            out.add(Para(jobs))
        f = Formatter(ctx.lang)
        yes, no = Note.of(CmpCode.yes), Note.of(CmpCode.no)
        unknown = "未知" if ctx.lang == "zh" else "unknown"
        rows = [
            [Note.of(CmpCode.row_memory)] + [f"{f.g(g['memory_gb'])} GB ({f.gib(g['usable_gib'])})" for g in gpus],
            [Note.of(CmpCode.row_bandwidth)] + [f.gbps(g["memory_bandwidth_gbps"]) if g.get("memory_bandwidth_gbps") else unknown for g in gpus],
            [Note.of(CmpCode.row_bf16)] + [f.tflops(g["bf16_tflops"]) if g.get("bf16_tflops") else unknown for g in gpus],
            [Note.of(CmpCode.row_fp8)] + [(f.tflops(g["fp8_tflops"]) if g.get("fp8_tflops") else yes) if g["fp8_supported"] else no for g in gpus],
            [Note.of(CmpCode.row_link)] + [(f"NVLink {f.gbps(g['nvlink_bandwidth_gbps'])}" if g.get("nvlink_bandwidth_gbps") else yes)
                                           if g["nvlink"] else no for g in gpus],
            [Note.of(CmpCode.row_price)] + [f.money(g["cheapest"]["price_per_gpu_hour"], g["cheapest"]["currency"], "hour") if g.get("cheapest") else "—" for g in gpus],
        ]
        out.add(Table([Note.of(CmpCode.header_spec)] + [g["key"] for g in gpus], rows))
        out.add(*tail(ctx, plan, results, cited, max_caveat_passages=2))
        return out


class FilterHandler:
    frame = Frame.catalog_filter

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        args: dict[str, Any] = {"features": ctx.get("features") or [], "currency": ctx.answer_currency(), "region": ctx.get("region") or "any"}
        if ctx.has("min_memory_gb"):
            args["min_memory_gb"] = float(ctx.get("min_memory_gb"))
        elif "available_gib" in ctx.stated:  # "which 24GB cards support FP8"; not the card of an earlier question
            args["min_memory_gb"] = float(ctx.get("available_gib"))
        plan.call("filter_catalog", "filter", **args)
        search(plan, ctx.question[:300] or "GPU features", ctx.lang, k=2, key="guide")
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        res = results.get("filter")
        if res is None or res.error:
            out.add(Para([res.error_note or Note.of(AnswerCode.tool_error, error=res.error)] if res else []))
            return out
        r = res.result
        what = Note.of(FilterCode.what, features=r.get("features"), min_memory_gb=r.get("min_memory_gb"), region=r.get("region"))
        matches = r.get("matches", [])
        if not matches:
            out.add(Lead([Note.of(FilterCode.none, what=what)]))
        else:
            out.add(Lead([Note.of(FilterCode.lead, count=r.get("matching_gpus") or len(matches), what=what, gpus=[m["key"] for m in matches[:40]])]))
            f = Formatter(ctx.lang)
            unknown = "未知" if ctx.lang == "zh" else "unknown"
            rows = [[g["key"], f"{f.g(g['memory_gb'])} GB", f.tflops(g["bf16_tflops"]) if g.get("bf16_tflops") else unknown,
                     f.money(g["cheapest"]["price_per_gpu_hour"], g["cheapest"]["currency"], "hour")
                     + f" ({env.provider_label(g['cheapest']['provider'], ctx.lang)})" if g.get("cheapest") else "—"]
                    for g in matches[:12]]
            out.add(Table(["GPU", Note.of(CmpCode.row_memory), Note.of(CmpCode.row_bf16), Note.of(CmpCode.row_price)], rows))
        out.add(*tail(ctx, plan, results, cited, max_caveat_passages=1))
        return out


PROVIDERS_QUERY = {  # (Chinese?, mainland China?) → the guidance query for "who offers this GPU, how do they compare"
    (False, False): "GPU cloud providers compared: international hyperscalers AWS, Google Cloud, Azure; GPU clouds and marketplaces",
    (False, True): "GPU cloud providers compared: Chinese clouds Alibaba Cloud, Tencent Cloud, Huawei; GPU rental marketplaces",
    (True, False): "GPU 云服务商对比：国际三大云 AWS、Google Cloud、Azure；GPU 专业云与算力市场",
    (True, True): "GPU 云服务商对比：国内云 阿里云、腾讯云、华为云；GPU 租用平台与算力市场",
}


class CostHandler:
    frame = Frame.cost

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        currency = ctx.answer_currency()
        hours = ctx.get("hours")
        if hours is None and ctx.has("hours_per_day"):
            hours = float(ctx.get("hours_per_day")) * 730.0 / 24.0
        if self._is_job(ctx):
            # "what would it cost to pretrain a 7B on 1T tokens on p4de?": the job's time sets the hours to pay for
            return TrainTimeHandler().plan(ctx, env)
        if ctx.has("instance") or ctx.gpu:
            args: dict[str, Any] = {"currency": currency}
            if ctx.has("instance"):
                args["instance"] = ctx.get("instance")
            else:
                args["gpu"] = ctx.gpu
                args["gpus"] = int(ctx.get("gpu_count") or 1)
                if ctx.has("providers"):
                    args["providers"] = ctx.get("providers")
                if ctx.get("region"):
                    args["region_scope"] = ctx.get("region")
            if hours:
                args["hours"] = float(hours)
            else:
                plan.defaults.assume(Note.of(AssumeCode.month_hours, hours=730))
            if ctx.has("billing"):
                args["billing"] = ctx.get("billing")
            plan.call("estimate_cost", "cost", **args)
            if ctx.has("instance"):
                search(plan, "计费方式 按量付费 竞价实例 包年包月" if ctx.lang == "zh" else "billing modes on-demand spot reserved",
                       ctx.lang, k=2, key="guide")
            else:
                # a GPU's price across the catalog: the answer lists each provider's offer, so the guidance to
                # quote is how the kinds of provider differ (hyperscalers, GPU clouds, marketplaces, Chinese clouds)
                search(plan, PROVIDERS_QUERY[(ctx.lang == "zh", ctx.get("region") == "cn")], ctx.lang, k=2, key="guide")
        else:
            recommend_plan(ctx, plan)
        return plan

    @staticmethod
    def _offers_table(ctx: TurnContext, c: dict[str, Any], out: Composition, env: Env) -> None:
        f = Formatter(ctx.lang)
        sep = "，" if ctx.lang == "zh" else ", "
        rows = [[env.provider_label(o["provider"], ctx.lang), f"`{o['instance']}`", f"{f.g(o['gpu_count'])}× {c['gpu']}",
                 f.money(o["price_per_gpu_hour"], o["currency"], "hour", table=True),
                 render(Note(code=f"term.grade.{o['grade']}"), ctx.lang) + sep
                 + f.date_or_unknown(o.get("as_of"))] for o in c["offers"]]
        out.add(Para([Note.of(CostCode.offers, gpu=c["gpu"], count=len(rows), total=c.get("providers_total") or len(rows))]))
        out.add(Table([Note.of(TableCode.provider), Note.of(TableCode.instance), Note.of(TableCode.gpus),
                       Note.of(CostCode.per_gpu_hour), Note.of(TableCode.price)], rows))

    @staticmethod
    def _is_job(ctx: TurnContext) -> bool:
        # a stated dataset, or epochs of a training run ("3 个 epoch 的 LoRA 大概多少钱"): a job of that size, timed
        # (its data assumed when only epochs are stated) and priced by its hours, not a month of the machine
        sized = ctx.has("tokens") or (ctx.has("epochs") and bool(ctx.training))
        return sized and (ctx.has("model") or ctx.has("params")) and bool(ctx.has("instance") or ctx.gpu)

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        if results.get("time"):
            return TrainTimeHandler().compose(ctx, plan, results, cited, env)
        if results.get("rec"):
            return compose_recommendation(ctx, plan, results, cited, env)
        out = Composition()
        cost = results.get("cost")
        if cost is None or cost.error:
            out.add(Para([cost.error_note or Note.of(AnswerCode.tool_error, error=cost.error)] if cost else []))
            return out
        c = cost.result
        common = dict(provider=env.provider_label(c["provider"], ctx.lang), instance=c["instance"], gpu_count=c["gpu_count"], gpu=c["gpu"], region=c["region"],
                      billing=c["billing"], currency=c["currency"])
        offers = c.get("offers") or []
        f = Formatter(ctx.lang)
        # "who offers the H100?" (a GPU, no hours): the providers are the answer, the cheapest one's bill the detail
        by_providers = len(offers) > 1 and not ctx.has("hours") and not ctx.has("hours_per_day")
        head = Note.of(CostCode.unknown, **common) if c.get("total") is None else Note.of(CostCode.lead, total=c["total"], hours=c["hours"], **common)
        if by_providers:
            first = offers[0]
            out.add(Lead([Note.of(CostCode.offers_lead, total=c.get("providers_total") or len(offers), gpu=c["gpu"],
                                  provider=env.provider_label(first["provider"], ctx.lang), price=first["price_per_gpu_hour"],
                                  currency=first["currency"], kind=render(Note(code=f"term.grade.{first['grade']}"), ctx.lang),
                                  age_text=f.date_or_unknown(first.get("as_of")))]))
        else:
            out.add(Lead([head]))
        if by_providers:
            self._offers_table(ctx, c, out, env)
            out.add(Para([head]))
        items = []
        for line in c.get("lines", []):
            # the price's age in words (fresh, stale, undated) when the tool aged it; else its date
            age = (render(Note.model_validate(line["age"]), ctx.lang) if line.get("age")
                   else f.date_or_unknown(line.get("price_as_of")))
            items.append(Note.of(CostCode.line, billing=line["billing"], total=line.get("total"), price_per_hour=line.get("price_per_hour"),
                                 currency=c["currency"], age_text=age))
        out.add(Bullets(Note.of(CostCode.lines), items))
        chosen = next((line for line in c.get("lines", []) if line["billing"] == c["billing"]), None)
        if chosen and chosen.get("covers"):  # what the price includes and what is billed on top
            out.add(Para([Note.model_validate(chosen["covers"])]))
        if len(offers) > 1 and not by_providers:
            self._offers_table(ctx, c, out, env)
        if c.get("exchange_rate"):
            out.add(Para([ExchangeRate.model_validate(c["exchange_rate"]).note()]))
        out.add(*tail(ctx, plan, results, cited, tool_notes=[Note.model_validate(a) for a in c.get("assumptions", [])[:3]]))
        return out
