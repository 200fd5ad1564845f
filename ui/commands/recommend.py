"""`gpu-advisor recommend`: which instance to rent for a workload, ranked by cost, with near-misses.

    gpu-advisor recommend --model llama-13b --mode lora --budget 20000 --currency CNY --period month
    gpu-advisor recommend --params 70e9 --mode full --tokens 1e9 --epochs 3 --max-gpus 32 --json
    gpu-advisor recommend --required-gib 60 --region cn
    gpu-advisor recommend --model qwen2.5-72b --mode inference --concurrency 50 --input-len 4096 --output-len 512
    gpu-advisor recommend --model qwen2.5-7b --requests-per-day 100000 --ttft-ms 800 --currency CNY

With a serving load (--concurrency, --requests-per-day or --request-rate; lengths, latency targets, --weights)
the ranking is serving-aware: instances that hold the weights and the KV cache for the load and meet the
targets, ranked by the monthly cost of meeting it, with throughput, latency and cost per million output tokens
on each, and FP8 / INT4 variants beside bf16 when no --weights is given.
"""

from __future__ import annotations

import argparse

from tools.domain import Billing, Currency, Mode, RegionScope
from tools.errors import InputError
from tools.messages import formatter, render, render_suggestion
from tools.schemas import Option, Recommendation, RecommendRequest, ServingLoad, VramRequest
from tools.serving_profiles import Engine, WeightFormat
from ui.commands.cost import add_flag, add_time_args, has_model, positive_float, positive_int, settings_and_catalog, workload
from ui.output import add_lang_arg, format_table, label, print_json, resolve_lang


def register(subparsers: argparse._SubParsersAction) -> None:
    from ui.commands._workload import add_workload_args

    p = subparsers.add_parser(
        "recommend",
        help="rank the instances that fit a workload and budget",
        description="Fit the workload on every catalog instance (sharding over its GPUs or across nodes when one GPU "
        "is not enough), price it, rank by cost, and list near-misses and what would make it fit.",
    )
    add_workload_args(p)
    p.add_argument("--required-gib", type=positive_float, metavar="GiB",
                   help="a raw memory need instead of a model (total GiB)")
    p.add_argument("--budget", type=positive_float, metavar="AMOUNT", help="in --currency, per --period")
    p.add_argument("--currency", choices=[c.value for c in Currency], help="default: CNY for --region cn, else USD")
    p.add_argument("--period", choices=["hour", "month", "job"], default="month", help="what the budget covers")
    p.add_argument("--region", choices=[r.value for r in RegionScope], default=RegionScope.any.value,
                   help="cn = mainland China, intl = elsewhere, any (default)")
    p.add_argument("--provider", action="append", default=[], metavar="NAME", help="only this provider (repeatable)")
    p.add_argument("--billing", choices=[b.value for b in Billing], help="default: on-demand where listed")
    p.add_argument("--hours", type=positive_float, metavar="H", help="hours per month of use (default 730)")
    p.add_argument("--max-gpus", type=positive_int, default=8, metavar="N", help="GPUs for the whole job, nodes included")
    p.add_argument("--deadline-hours", type=positive_float, default=None, metavar="H",
                   help="training: finish within H hours (needs --tokens); slower options become near-misses")
    add_time_args(p)
    add_flag(p, "--gpu", metavar="NAME", help="only this GPU model")
    serving = p.add_argument_group("serving load (with --mode inference: serving-aware ranking)")
    load = serving.add_mutually_exclusive_group()
    load.add_argument("--concurrency", type=positive_int, default=None, metavar="N", help="N concurrent users (closed loop)")
    load.add_argument("--requests-per-day", type=positive_float, default=None, metavar="N", help="requests per day")
    load.add_argument("--request-rate", type=positive_float, default=None, metavar="R", help="requests per second")
    serving.add_argument("--peak-factor", type=positive_float, default=None, metavar="F",
                         help="busiest hour ÷ daily average, with --requests-per-day (default 3)")
    serving.add_argument("--input-len", type=positive_int, default=None, metavar="TOKENS", help="prompt tokens (default 1024)")
    serving.add_argument("--output-len", type=positive_int, default=None, metavar="TOKENS",
                         help="generated tokens (default 256)")
    serving.add_argument("--ttft-ms", type=positive_float, default=None, metavar="MS", help="target time to first token")
    serving.add_argument("--min-tokens-per-user", type=positive_float, default=None, metavar="TOK_S",
                         help="target output tokens/s each user sees")
    serving.add_argument("--weights", choices=[w.value for w in WeightFormat], default=None,
                         help="served weight format (default bf16, with fp8 and int4 variants shown beside)")
    serving.add_argument("--engine", choices=[e.value for e in Engine], default=None, help="default vllm")
    p.add_argument("--top", type=positive_int, default=5, metavar="K", help="priced options to show (default 5); up to as many unpriced ones follow them")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_lang_arg(p)
    p.set_defaults(func=run)


def build_request(args: argparse.Namespace, catalog):
    """(model or None, RecommendRequest) from the parsed flags."""
    if has_model(args):
        model, vram = workload(args, catalog)
    elif args.required_gib is not None:
        model, vram = None, VramRequest()
    else:
        raise InputError("Give a workload: --model NAME, --params 13e9, --config PATH or --required-gib GiB.")
    if args.hours is not None and args.hours > 744:
        raise InputError(f"--hours is hours of use per month: {args.hours:g} is more than a month (≤ 744).")
    serving = serving_from_args(args)
    if serving is not None and args.required_gib is not None and not has_model(args):
        raise InputError("Serving flags need --model, --params or --config, not --required-gib.")
    request = RecommendRequest(
        serving=serving,
        vram=vram,
        required_gib=args.required_gib,
        budget=args.budget,
        currency=args.currency,
        period=args.period,
        region=args.region,
        providers=args.provider,
        billing=args.billing,
        max_gpus=args.max_gpus,
        tokens=args.tokens,
        epochs=args.epochs or 1.0,
        gpu=args.gpu,
        top_k=args.top,
        hours_per_month=args.hours or 730.0,
        mfu=args.mfu,
        deadline_hours=args.deadline_hours,
    )
    return model, request


SERVING_FLAGS = ("concurrency", "requests_per_day", "request_rate", "peak_factor", "input_len", "output_len", "ttft_ms",
                 "min_tokens_per_user", "weights", "engine")


def serving_from_args(args: argparse.Namespace) -> ServingLoad | None:
    """The serving load when any serving flag is given (then the mode must be inference, the default)."""
    given = {k: getattr(args, k, None) for k in SERVING_FLAGS if getattr(args, k, None) is not None}
    if not given:
        return None
    mode = getattr(args, "mode", None)
    if mode not in (None, Mode.inference.value):
        flags = ", ".join("--" + k.replace("_", "-") for k in given)
        raise InputError(f"{flags} describe a serving load: use them with --mode inference, not --mode {mode}.")
    return ServingLoad(**given)


def run(args: argparse.Namespace) -> int:
    from tools.recommend import recommend

    settings, catalog = settings_and_catalog()
    lang = resolve_lang(args, settings)
    model, request = build_request(args, catalog)
    result = recommend(catalog, model, request, settings.exchange_rate, today=settings.today_date)
    if args.json:
        print_json(result, lang=lang)
    else:
        print(render_recommendation(result, lang))
    return 0


# Column headers of the serving columns (the shared ones are ui.output.LABELS).
SERVING_LABELS = {
    "en": {"copies": "copies", "weights": "weights", "tok_s": "out tok/s", "ttft": "TTFT ms", "tpot": "TPOT ms",
           "per_m": "per 1M out tok", "age": "price age", "quantised": "Quantised variants (beside bf16):"},
    "zh": {"copies": "份数", "weights": "权重", "tok_s": "输出 token/秒", "ttft": "首 token 毫秒", "tpot": "每 token 毫秒",
           "per_m": "每百万输出 token", "age": "价格新旧", "quantised": "量化方案（与 bf16 对比）："},
}


def _slabel(key: str, lang: str) -> str:
    return SERVING_LABELS["zh" if lang == "zh" else "en"][key]


def _age(o: Option, lang: str) -> str:
    from tools.messages import render as _render

    if o.price_age is None:
        return ""
    from tools.notes import Note

    state = _render(Note.of("price_age.state", state=o.price_age_state), lang) if o.price_age_state else ""
    if o.price_as_of_label is None:
        return state
    return f"{o.price_as_of_label} ({state})" if lang != "zh" else f"{o.price_as_of_label}（{state}）"


def _table(options: list[Option], rec: Recommendation, lang: str, start: int = 1) -> str:
    f = formatter(lang)
    cur = rec.currency.value
    serving = any(o.output_tok_s is not None for o in options)
    rows = []
    for n, o in enumerate(options, start):
        shape = f"{o.nodes}×{o.gpu_count:g}×{o.gpu}" if o.nodes > 1 else f"{o.gpu_count:g}×{o.gpu}"
        row = [n, f"{o.provider}/{o.instance}", o.region, shape, f"{o.per_gpu_gib:.1f}/{o.gpu_usable_gib:.1f}"]
        if serving:
            row += [o.copies, o.weights or "", f"{o.output_tok_s:,.0f}" if o.output_tok_s is not None else "",
                    f"{o.ttft_ms:,.0f}" if o.ttft_ms is not None else "", f"{o.tpot_ms:,.1f}" if o.tpot_ms is not None else "",
                    f.money(o.cost_per_million_output_tokens_at_load, cur, table=True) if o.price_per_hour is not None else
                    f.money(None, cur)]
        row += [
            f.money(o.price_per_hour, cur, table=True),
            f.money(o.monthly_cost, cur, table=True),
        ]
        if not serving:
            row.append(f.money(o.job_cost, cur, table=True) if o.job_cost is not None
                       else ("" if o.job_hours is None else f.money(None, cur)))
        row += [_grade(o, lang), _age(o, lang) if o.price_per_hour is not None else ""]
        rows.append(row)
    headers = [label(k, lang) for k in ("rank", "instance", "region", "gpus", "need_usable")]
    if serving:
        headers += [_slabel(k, lang) for k in ("copies", "weights", "tok_s", "ttft", "tpot", "per_m")]
    headers += [label(k, lang) for k in ("per_hour", "per_month")]
    if not serving:
        headers.append(label("job", lang))
    headers += [label("price", lang), _slabel("age", lang)]
    return format_table(headers, rows)


def _details(options: list[Option], lang: str, start: int = 1) -> list[str]:
    out = []
    for n, o in enumerate(options, start):
        out.append(f"{n}. {o.provider}/{o.instance}")
        out.extend(f"   - {render(r, lang, surface='cli')}" for r in o.reasons)
        out.extend(f"   ! {render(w, lang, surface='cli')}" for w in o.warnings)
    return out


def render_recommendation(rec: Recommendation, lang: str = "en") -> str:
    f = formatter(lang)
    out = [f"!! {render(n, lang, surface='cli')}" for n in rec.notices]
    if rec.vram is not None:
        out.append(label("workload", lang, model=rec.vram.model, mode=f.term("mode", rec.vram.mode),
                         precision=rec.vram.precision.value, gib=f.gib(rec.vram.per_gpu_gib)))
    if rec.options:
        out.append(_table(rec.options, rec, lang))
        out.extend(_details(rec.options, lang))
    else:
        out.append(label("nothing_fits", lang))
    if rec.quantised:
        out += ["", _slabel("quantised", lang), _table(rec.quantised, rec, lang, start=len(rec.options) + 1)]
        out.extend(_details(rec.quantised, lang, start=len(rec.options) + 1))
    if rec.rejected:
        out += ["", label("near_misses", lang)]
        out.append(format_table(
            [label("instance", lang), label("gpus", lang), label("why_not", lang)],
            [[f"{r.provider}/{r.instance}", f"{r.gpu_count:g}×{r.gpu}", render(r.reason, lang, surface="cli")]
             for r in rec.rejected],
        ))
    if rec.suggestions:
        out += ["", label("would_work", lang)]
        out.extend(f"- {render_suggestion(s, lang, surface='cli')}" for s in rec.suggestions)
    out.append("")
    out.extend(f"- {render(a, lang, surface='cli')}" for a in rec.assumptions)
    return "\n".join(out)


def _grade(o, lang: str) -> str:
    if o.price_grade is None:
        return label("unknown", lang)
    return label(f"grade_short.{o.price_grade.value}", lang)
