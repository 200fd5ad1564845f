"""`gpu-advisor recommend`: which instance to rent for a workload, ranked by cost, with near-misses.

    gpu-advisor recommend --model llama-13b --mode lora --budget 20000 --currency CNY --period month
    gpu-advisor recommend --params 70e9 --mode full --tokens 1e9 --epochs 3 --max-gpus 32 --json
    gpu-advisor recommend --required-gib 60 --region cn
"""

from __future__ import annotations

import argparse

from tools.domain import Billing, Currency, RegionScope
from tools.errors import InputError
from tools.messages import formatter, render, render_suggestion
from tools.schemas import Recommendation, RecommendRequest, VramRequest
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
    add_time_args(p)
    add_flag(p, "--gpu", metavar="NAME", help="only this GPU model")
    p.add_argument("--top", type=positive_int, default=5, metavar="K", help="options to show (default 5)")
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
    request = RecommendRequest(
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
    )
    return model, request


def run(args: argparse.Namespace) -> int:
    from tools.recommend import recommend

    settings, catalog = settings_and_catalog()
    lang = resolve_lang(args, settings)
    model, request = build_request(args, catalog)
    result = recommend(catalog, model, request, settings.exchange_rate)
    if args.json:
        print_json(result, lang=lang)
    else:
        print(render_recommendation(result, lang))
    return 0


def render_recommendation(rec: Recommendation, lang: str = "en") -> str:
    f = formatter(lang)
    cur = rec.currency.value
    out = []
    if rec.vram is not None:
        out.append(label("workload", lang, model=rec.vram.model, mode=f.term("mode", rec.vram.mode),
                         precision=rec.vram.precision.value, gib=f.gib(rec.vram.per_gpu_gib)))
    if rec.options:
        rows = []
        for n, o in enumerate(rec.options, 1):
            shape = f"{o.nodes}×{o.gpu_count:g}×{o.gpu}" if o.nodes > 1 else f"{o.gpu_count:g}×{o.gpu}"
            priced = o.price_per_hour is not None
            rows.append([
                n,
                f"{o.provider}/{o.instance}",
                o.region,
                shape,
                f"{o.per_gpu_gib:.1f}/{o.gpu_usable_gib:.1f}",
                f.money(o.price_per_hour, cur, table=True),
                f.money(o.monthly_cost, cur, table=True),
                f.money(o.job_cost, cur, table=True) if o.job_cost is not None else ("" if o.job_hours is None else f.money(None, cur)),
                _grade(o, lang),
                o.price_as_of or (f.as_of(None) if priced else ""),
            ])
        headers = [label(k, lang) for k in ("rank", "instance", "region", "gpus", "need_usable", "per_hour", "per_month",
                                             "job", "price", "as_of")]
        out.append(format_table(headers, rows))
        for n, o in enumerate(rec.options, 1):
            out.append(f"{n}. {o.provider}/{o.instance}")
            out.extend(f"   - {render(r, lang, surface='cli')}" for r in o.reasons)
            out.extend(f"   ! {render(w, lang, surface='cli')}" for w in o.warnings)
    else:
        out.append(label("nothing_fits", lang))
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
