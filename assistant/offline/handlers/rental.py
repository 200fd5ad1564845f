"""A rental recommendation's plan (`recommend_plan`) and composition (`compose_recommendation`): the recommender's
pick first, then the table, the memory breakdown, near-misses and the tail.

The recommendation answer (handlers/recommend.py) is made of it, and so are the answers that add a rental to
theirs: serving questions that name no GPU (the recommender sizes the KV cache for the stated load), cost
questions without hardware, a time or fit answer's "what to rent instead" (handlers/extras.py). It imports no
handler, so each of them imports it at the top.
"""

from __future__ import annotations

from typing import Any

from assistant.offline.blocks import Bullets, Composition, Lead, Para, Table
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Plan, Results, search, tail
from assistant.offline.handlers.fit_notes import TOPIC, breakdown_note
from assistant.offline.handlers.serving_load import load_args
from assistant.offline.workload import (
    DEFAULT_FINETUNE_TOKENS,
    WORKLOAD_KEYS,
    AskCode,
    AssumeCode,
    budget_args,
    serving_concurrency,
    workload_args,
)
from tools.messages import render, render_change
from tools.messages.format import Formatter, provider_names
from tools.notes import Change, ChangeKind, Note, NoteCode
from tools.price_age import source_note
from tools.recommend_rank import band_row

MAX_ROWS = 5
DEADLINE_MAX_GPUS = 64  # a time limit may need several machines: up to eight 8-GPU nodes unless a count was stated
MAX_REJECTED = 3
WHY_CODES = ("option.time", "option.mainland", "option.cheaper_spot")
BAND_CODE = "rank.band"  # above a cheaper option of its cost band: the row says why (tools.recommend_rank.band_row)
BILLING_TOPIC = ("billing modes on-demand spot reserved cost control", "计费方式 按量付费 竞价实例 包年包月 成本控制")
SPOT_TOPIC = ("spot instances interruption checkpoint", "竞价实例 被回收 检查点 断点续训")
CHINA_TOPIC = ("Chinese cloud providers Alibaba Tencent Huawei Ascend", "国内云厂商 阿里云 腾讯云 华为云 昇腾")


class RecCode(NoteCode):
    lead = "rec.lead"
    lead_unpriced = "rec.lead_unpriced"
    within_budget = "rec.within_budget"
    over_budget = "rec.over_budget"
    price_line = "rec.price_line"
    job = "rec.job"
    infeasible = "rec.infeasible"
    infeasible_budget = "rec.infeasible_budget"
    infeasible_deadline = "rec.infeasible_deadline"  # deadline_hours, max_gpus
    infeasible_filters = "rec.infeasible_filters"  # gpu (or None), providers, providers_zh (display names)
    cheaper = "rec.cheaper"
    quantised = "rec.quantised"
    deploy = "rec.deploy"  # layout: the serving pick's replicas × TP (× PP) note
    every_option = "rec.every_option"  # notes: what every row of the table would repeat


class TableCode(NoteCode):
    provider = "table.provider"
    instance = "table.instance"
    gpus = "table.gpus"
    memory = "table.memory"
    cost_month = "table.cost_month"
    cost_hour = "table.cost_hour"
    cost_job = "table.cost_job"
    price = "table.price"
    why = "table.why"
    unknown_price = "table.unknown_price"
    need_usable = "table.need_usable"
    gpus_cell = "table.gpus_cell"


def recommend_plan(ctx: TurnContext, plan: Plan, *, serving: bool = False, hardware: bool = True,
                   searches: bool = True, workload: dict[str, Any] | None = None,
                   deadline_hours: float | None = None, job_tokens: float | None = None) -> dict[str, Any]:
    """The recommender's call for the state. ``hardware=False``: the GPU and count the user named are what another
    calculation checks (a feasibility verdict), not a constraint on what to rent instead; ``searches=False``: the
    answer it sits in brings its own passages; ``workload``: that calculation's workload arguments, so both parts of
    one answer size the same job (the verdict's batch, not a serving load of its own); ``deadline_hours``: a training
    time limit the pick must meet (options too slow become near-misses; clusters up to DEADLINE_MAX_GPUS);
    ``job_tokens``: the data another part of the answer timed (stated or assumed there), so the pick is priced as that
    whole job, not a month of the machine."""
    d = plan.defaults
    training = bool(ctx.training) and not serving
    if workload is not None:
        args = {k: v for k, v in workload.items() if k in WORKLOAD_KEYS}
    else:
        args = workload_args(ctx, d, training=training, inference_default=not training)
    currency = ctx.answer_currency()
    args["currency"] = currency
    is_training = args["mode"] != "inference"
    args.update(budget_args(ctx, d, currency, is_training))
    if job_tokens is not None and is_training and not ctx.has("tokens") and not args.get("budget"):
        args["tokens"] = float(job_tokens)  # assumed by the part that timed it, which says so
        if ctx.has("epochs"):
            args["epochs"] = float(ctx.get("epochs"))
    elif args.get("period") == "job" and not ctx.has("tokens"):
        args["tokens"] = DEFAULT_FINETUNE_TOKENS
        d.assume(Note.of(AssumeCode.tokens, tokens=DEFAULT_FINETUNE_TOKENS))
    if not ctx.budget:
        d.question = d.question or Note.of(AskCode.budget)
    region = ctx.get("region")
    if region:
        args["region"] = region
    if ctx.has("providers"):
        args["providers"] = ctx.get("providers")
    elif ctx.has("instance"):
        args["providers"] = [ctx.get("instance").split("/")[0]]
    if ctx.has("billing"):
        args["billing"] = ctx.get("billing")
    if ctx.has("gpu_count") and hardware:
        args["max_gpus"] = int(ctx.get("gpu_count"))
    if ctx.gpu and hardware:
        args["gpu"] = ctx.gpu
    if ctx.has("tokens") and is_training:
        args["tokens"] = float(ctx.get("tokens"))
        if ctx.has("epochs"):
            args["epochs"] = float(ctx.get("epochs"))
    if deadline_hours is not None and is_training:
        args["deadline_hours"] = deadline_hours
        args.setdefault("tokens", DEFAULT_FINETUNE_TOKENS)
        args.setdefault("period", "job")  # no budget set the period: the pick is the cheapest whole job in time
        if "max_gpus" not in args:
            args["max_gpus"] = DEADLINE_MAX_GPUS
    if serving and not is_training:
        load = load_args(ctx, plan)
        load.pop("max_throughput", None)  # a pick carries a load; the most it could carry is the estimator's question
        if not any(k in load for k in ("concurrency", "requests_per_day", "request_rate")):
            load["concurrency"] = serving_concurrency(ctx, d)
        args.update(load)
    elif not is_training and "batch_size" not in args and workload is None:
        args["batch_size"] = serving_concurrency(ctx, d)
    plan.call("recommend_config", "rec", **args)
    # A training job of known size is ranked by its whole cost (tools.recommend_rank.need_of): the answer shows that
    # cost, not a month of the pick, unless a budget set the period.
    plan.data["period"] = args.get("period") or ("job" if is_training and args.get("tokens") else "month")
    plan.data["budget"] = args.get("budget")
    plan.data["deadline"] = (args["deadline_hours"], args.get("max_gpus", 8)) if "deadline_hours" in args else None
    plan.data["budget_currency"] = args.get("budget_currency") or currency  # as the user said it; the tool converts
    plan.data["currency"] = currency
    if not searches:
        return args
    en, zh = TOPIC.get(args["mode"], TOPIC["inference"])
    if ctx.question.strip():  # the section nearest the user's own words first ("training ResNet or BERT-base")
        search(plan, ctx.question[:300], ctx.lang, k=1, key="guide_q")
    search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_mode")
    en, zh = SPOT_TOPIC if ctx.get("billing") == "spot" else BILLING_TOPIC
    search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_billing")
    if region == "cn" or (ctx.has("providers") and any(p in ("alibaba", "tencent", "huawei") for p in ctx.get("providers"))):
        en, zh = CHINA_TOPIC
        search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_cn")
    return args


def _period_cost(o: dict[str, Any], period: str) -> float | None:
    return {"hour": o.get("price_per_hour"), "month": o.get("monthly_cost"), "job": o.get("job_cost")}.get(period, o.get("monthly_cost"))


def _provider_names(env: Env, key: str) -> dict[str, Any]:
    p = env.provider(key)
    return {"provider": key, "provider_name": getattr(p, "name", None) or key, "provider_zh": getattr(p, "name_zh", None)}


def price_line(o: dict[str, Any], env: Env, lang: str) -> Note | None:
    """Where the pick's price comes from and how old it is (tools.price_age.source_note on the catalog price)."""
    for inst in env.catalog.instances:
        if inst.provider == o["provider"] and inst.instance == o["instance"] and inst.region.name == o["region"]:
            price = inst.price(o["billing"]) if hasattr(inst, "price") else None
            provider = env.provider(o["provider"])
            if price is not None and provider is not None:
                return source_note(price, provider, env.date())
    return None


def row_notes(o: dict[str, Any]) -> list[Note]:
    """What an option's 'why' cell says: why it sits above a cheaper row (the cost band's deciding factor, short),
    its first two ranking reasons and its first warning."""
    reasons = [Note.model_validate(r) for r in o.get("reasons", []) if isinstance(r, dict)]
    band = [band_row(r) for r in reasons if r.code == BAND_CODE][:1]
    why = [r for r in reasons if r.code in WHY_CODES][:2]
    return band + why + [Note.model_validate(w) for w in o.get("warnings", [])[:1]]


def shared_notes(options: list[dict[str, Any]]) -> list[Note]:
    """Notes every row would repeat (the int4 quality caveat on five int4 rows): said once, under the table."""
    if len(options) < 2:
        return []
    rows = [row_notes(o) for o in options]
    return [n for n in rows[0] if all(n in r for r in rows[1:])]


def option_row(o: dict[str, Any], period: str, lang: str, env: Env, skip: list[Note] | None = None) -> list:
    cost = _period_cost(o, period)
    cur = o.get("currency")
    cost_cell: Any = _money_cell(cost, cur, lang) if cost is not None else Note.of(TableCode.unknown_price)
    grade = render(Note(code=f"term.grade.{o.get('price_grade')}"), lang) if o.get("price_grade") else "—"
    age = Formatter(lang).date_or_unknown(o.get("price_as_of"))
    why = [n for n in row_notes(o) if n not in (skip or [])]
    with provider_names(env.display_names()):  # a note naming another option (rank.band_row) names its provider
        why_text = ("；" if lang == "zh" else "; ").join(render(n, lang) for n in why) or "—"
    name = _provider_names(env, o["provider"])
    provider = (name["provider_zh"] or name["provider_name"]) if lang == "zh" else name["provider_name"]
    return [provider, f"`{o['instance']}`", gpus_cell(o), Note.of(TableCode.need_usable, need=o["per_gpu_gib"], usable=o["gpu_usable_gib"]),
            cost_cell, f"{grade}{'，' if lang == 'zh' else ', '}{age}", why_text]


def gpus_cell(o: dict[str, Any]) -> Note:
    """The GPUs an option pays for, and the machines behind them when there are several (nodes × copies)."""
    machines = o.get("instances") or 1  # the tool's count (nodes × copies): a number the verifier can back
    return Note.of(TableCode.gpus_cell, total=o.get("total_gpus") or o["gpu_count"] * machines, gpu=o["gpu"],
                   instances=machines, per_machine=o["gpu_count"])


def _money_cell(amount: float, currency: str, lang: str) -> str:
    return Formatter(lang).money(amount, currency, table=True)


def compose_recommendation(ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env, *,
                           lead_extra: list | None = None, embedded: bool = False) -> Composition:
    """The pick, its table, the memory breakdown, near-misses and the answer's tail. ``embedded``: under another
    answer's verdict (which shows the same workload's breakdown and ends with its own tail): neither of those."""
    out = Composition()
    rec = results.get("rec")
    if rec is None or rec.error:
        out.add(Para([rec.error_note or Note.of(AnswerCode.tool_error, error=rec.error)] if rec else []))
        return out
    r = rec.result
    period = plan.data.get("period", "month")
    currency = r.get("currency") or plan.data.get("currency")
    options = r.get("options", [])
    priced = [o for o in options if o.get("price_per_hour") is not None]
    budget = plan.data.get("budget")
    deadline = plan.data.get("deadline")
    if not options and deadline and not budget:
        out.add(Lead([Note.of(RecCode.infeasible_deadline, deadline_hours=deadline[0], max_gpus=deadline[1])]))
        _suggestions(out, r, ctx.lang)
    elif not options:
        out.add(Lead([_filters_note(rec.args, r, env) if not budget and _only_filters_exclude(r)
                      else Note.of(RecCode.infeasible_budget if budget else RecCode.infeasible)]))
        _suggestions(out, r, ctx.lang)
    else:
        top = priced[0] if priced else options[0]
        names = _provider_names(env, top["provider"])
        common = dict(gpu=top["gpu"], gpu_count=top["gpu_count"], total_gpus=top.get("total_gpus"), instance=top["instance"],
                      region=top["region"], needed_gib=top["per_gpu_gib"], usable_gib=top["gpu_usable_gib"],
                      headroom_gib=top["headroom_gib"], **names)
        lead: list = []
        # The tool's notices (e.g. nothing priced fits the budget) come before the pick they qualify.
        lead.extend(Note.model_validate(n) for n in r.get("notices", []))
        over_budget = bool(budget) and top.get("within_budget") is False
        if over_budget:
            pass  # the tool's notice names the cheapest priced option and how far over it is
        elif top.get("price_per_hour") is not None:
            lead.append(Note.of(RecCode.lead, cost=_period_cost(top, period), currency=currency, per=period,
                                billing=top.get("billing"), **common))
            if budget and top.get("within_budget") is True:
                lead.append(Note.of(RecCode.within_budget, budget=budget, currency=plan.data.get("budget_currency") or currency,
                                    per=period))
        else:
            lead.append(Note.of(RecCode.lead_unpriced, **common))
        lead.extend(lead_extra or [])
        out.add(Lead(lead))
        line = price_line(top, env, ctx.lang) if top.get("price_per_hour") is not None else None
        if line is not None:
            out.add(Para([line]))
        served = [Note.model_validate(x) for x in top.get("reasons", [])
                  if isinstance(x, dict) and x.get("code") in ("serve_rec.option", "serve_rec.layout")]
        layout = top.get("layout")
        if served and isinstance(layout, dict) and layout.get("code") == "serve_rec.layout" and (
                (layout["params"].get("gpus") or 1) > 1 or (layout["params"].get("copies") or 1) > 1):
            # how to deploy several GPUs (replicas × TP × PP): the engine's --tensor-parallel-size follows from it
            served.insert(0, Note.of(RecCode.deploy, layout=Note.model_validate(layout)))
        if served:
            out.add(Para(served))  # what the pick does under the load: tokens/s, latency, cost per million tokens
        variants = []
        for q in r.get("quantised", []):
            note = next((Note.model_validate(x) for x in q.get("reasons", []) if isinstance(x, dict)
                         and x.get("code") == "serve_rec.variant"), None)
            if note is not None:
                variants.append(_offer_line(q['provider'], q['instance'], render(gpus_cell(q), ctx.lang),
                                            render(note, ctx.lang), env, ctx.lang))
        if variants:
            out.add(Bullets(Note.of(RecCode.quantised), variants))
        if top.get("job_cost") is not None and top.get("job_hours"):
            out.add(Para([Note.of(RecCode.job, hours=top["job_hours"], cost=top["job_cost"], currency=currency)]))
        header_cost = {"hour": TableCode.cost_hour, "job": TableCode.cost_job}.get(period, TableCode.cost_month)
        header = [Note.of(c) for c in (TableCode.provider, TableCode.instance, TableCode.gpus, TableCode.memory)] + [
            Note.of(header_cost), Note.of(TableCode.price), Note.of(TableCode.why)]
        shown = options[:MAX_ROWS]
        shared = shared_notes(shown)
        out.add(Table(header, [option_row(o, period, ctx.lang, env, skip=shared) for o in shown]))
        top_warnings = [Note.model_validate(w) for w in (priced[0] if priced else shown[0]).get("warnings", [])[:2]]
        # the top's warnings come as caveats anyway, except under another answer's verdict, which has its own tail
        said_below = shared if embedded else [n for n in shared if n not in top_warnings]
        if said_below:
            out.add(Para([Note.of(RecCode.every_option, notes=said_below)]))
        if not priced or over_budget:
            _suggestions(out, r, ctx.lang)
    if r.get("vram") and not embedded:
        note = breakdown_note(r["vram"], ctx.lang)
        if note:
            out.add(Para([note]))
    rejected = r.get("rejected", [])[:MAX_REJECTED]
    if rejected:
        items = [_offer_line(x['provider'], x['instance'], f"{x['gpu_count']:g}× {x['gpu']}",
                             render(Note.model_validate(x['reason']), ctx.lang), env, ctx.lang) for x in rejected]
        out.add(Bullets(Note.of(AnswerCode.rejected), items))
    caveats: list = []
    if options:
        top = priced[0] if priced else options[0]
        caveats = [Note.model_validate(w) for w in top.get("warnings", [])[:2]]
    tool_notes = [Note.model_validate(a) for a in r.get("assumptions", [])[:4]]
    if not embedded:
        out.add(*tail(ctx, plan, results, cited, tool_notes=tool_notes, caveats=caveats))
    return out


def _offer_line(provider: str, instance: str, gpus: str, text: str, env: Env, lang: str) -> str:
    """'Provider `instance` (GPUs): text', with Chinese punctuation in a Chinese answer."""
    name = _provider_label(provider, env, lang)
    if lang == "zh":
        return f"{name} `{instance}`（{gpus}）：{text}"
    return f"{name} `{instance}` ({gpus}): {text}"


def _provider_label(key: str, env: Env, lang: str) -> str:
    return env.provider_label(key, lang)


# Changes that relax a filter on where or what to rent, not the workload: when only these make something fit, the
# workload itself is fine and what is missing is an offer ("AutoDL has no RTX 4090 in the catalog").
FILTER_CHANGES = frozenset({ChangeKind.drop_providers, ChangeKind.drop_gpu_filter, ChangeKind.widen_region,
                            ChangeKind.drop_billing, ChangeKind.set_billing})


def _only_filters_exclude(r: dict[str, Any]) -> bool:
    changes = [s.get("change") for s in r.get("suggestions", [])]
    return bool(changes) and all(c and Change.model_validate(c).kind in FILTER_CHANGES for c in changes)


def _filters_note(args: dict[str, Any], r: dict[str, Any], env: Env) -> Note:
    providers = [_provider_names(env, k) for k in args.get("providers") or []]
    return Note.of(RecCode.infeasible_filters, gpu=args.get("gpu"), providers=[p["provider_name"] for p in providers],
                   providers_zh=[p["provider_zh"] or p["provider_name"] for p in providers])


def _suggestions(out: Composition, r: dict[str, Any], lang: str) -> None:
    items = []
    for s in r.get("suggestions", []):
        outcome = render(Note.model_validate(s["outcome"]), lang)
        change = s.get("change")
        items.append(f"**{render_change(Change.model_validate(change), lang)}**: {outcome}" if change else outcome)
    if items:
        out.add(Bullets(Note.of(AnswerCode.alternatives), items))
