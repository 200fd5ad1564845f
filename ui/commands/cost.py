"""`gpu-advisor cost`: what one catalog instance costs, every billing mode side by side.

    gpu-advisor cost --instance aws/p4d.24xlarge --hours 100
    gpu-advisor cost --instance aws/p5.48xlarge --model llama-2-13b --mode full --tokens 2e9 --epochs 3
    gpu-advisor cost --instance aws-china/g5.xlarge --billing spot --currency USD --json

Hours come from --hours, a schedule (--hours-per-day × --days), a training job
(--model/--params/--config with --tokens: the training-time estimate on the
instance's GPUs), or default to one month (730 h).
"""

from __future__ import annotations

import argparse
import math

from tools.domain import Billing, Checkpointing, Currency, Mode
from tools.errors import InputError
from tools.messages import formatter, render
from tools.notes import Note
from tools.schemas import CostEstimate, CostRequest, TrainTimeRequest
from ui.commands._workload import positive_int
from ui.output import add_lang_arg, format_table, label, print_json, resolve_lang


# ------------------------------------------------------------------ flag types (shared with recommend)


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a positive number")
    return value


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text} must be zero or more")
    return value


def add_flag(parser: argparse.ArgumentParser, *flags: str, **kwargs) -> None:
    """Add a flag unless the shared workload flags already define it (e.g. --tokens)."""
    if any(f in parser._option_string_actions for f in flags):
        return
    parser.add_argument(*flags, **kwargs)


def token_count(text: str) -> float:
    from ui.commands._workload import parse_params

    try:
        return parse_params(text)  # same units as parameter counts: 1e9, 300B, 10亿
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err).replace("parameter count", "token count").replace("Parameter count", "Token count")) from None


def add_time_args(parser: argparse.ArgumentParser) -> None:
    add_flag(parser, "--tokens", type=token_count, metavar="N", help="dataset tokens per epoch (a training job): 1e9, 300B, 10亿")
    add_flag(parser, "--epochs", type=positive_float, default=None, metavar="N", help="epochs (default 1)")
    add_flag(parser, "--mfu", type=positive_float, metavar="X", help="model FLOPs utilisation 0-1 (default per GPU class)")


def settings_and_catalog():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    settings = Settings.load()
    return settings, load_catalog(settings)


def workload(args: argparse.Namespace, catalog):
    from ui.commands._workload import workload_from_args

    return workload_from_args(args, catalog)


def has_model(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) for name in ("model", "params", "config"))


# ------------------------------------------------------------------ command


def register(subparsers: argparse._SubParsersAction) -> None:
    from ui.commands._workload import add_workload_args

    p = subparsers.add_parser(
        "cost",
        help="price one instance: on-demand, spot, monthly, yearly side by side",
        description="Cost of renting one catalog instance for some hours, a schedule, a training job or a month "
        "(730 h). Spot includes the expected rework after interruptions. Every price shows its date.",
    )
    p.add_argument("--instance", required=True, metavar="PROVIDER/INSTANCE[/REGION]", help="e.g. aws/p4d.24xlarge")
    p.add_argument("--hours", type=positive_float, metavar="H", help="hours to rent (default: one month, 730 h)")
    p.add_argument("--hours-per-day", type=positive_float, metavar="H", help="schedule: hours per day (≤ 24)")
    p.add_argument("--days", type=positive_float, metavar="D", help="schedule: days (default 730/24 with --hours-per-day)")
    p.add_argument("--billing", choices=[b.value for b in Billing], default=Billing.on_demand.value)
    p.add_argument("--currency", choices=[c.value for c in Currency], help="default: the price's own currency")
    p.add_argument("--nodes", type=positive_int, default=1, metavar="N", help="instances billed together (default 1)")
    p.add_argument("--interruptions-per-day", type=non_negative_float, metavar="N",
                   help="spot: expected interruptions per day (default 1)")
    p.add_argument("--checkpoint-hours", type=positive_float, metavar="H",
                   help="spot: hours between checkpoints (default 1)")
    p.add_argument("--restart-hours", type=non_negative_float, metavar="H",
                   help="spot: paid hours to restart after an interruption (default 0.25)")
    add_workload_args(p)
    add_time_args(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_lang_arg(p)
    p.set_defaults(func=run)


def _rows_for(catalog, name: str):
    parts = name.strip().split("/")
    region = None
    if len(parts) >= 3:
        name, region = "/".join(parts[:2]), "/".join(parts[2:])
    rows = catalog.instances_named(name)
    if region:
        chosen = [r for r in rows if r.region.name.lower() == region.lower()]
        if not chosen:
            raise InputError(
                f"{name} is not listed in region '{region}'.", suggestions=sorted({r.region.name for r in rows})
            )
        rows = chosen
    return rows


def _job_hours(args, catalog, instance, nodes: int) -> tuple[float, list[Note]]:
    """Hours of a training job on this instance's GPUs (× nodes), from the training-time estimate."""
    from tools.cost import job_note
    from tools.train_time import estimate_train_time

    model, vram = workload(args, catalog)
    if vram.mode == Mode.inference:
        raise InputError("A job cost needs a training mode: add --mode full, lora, qlora or pretrain.")
    gpu = catalog.gpu(instance.gpu)
    if instance.gpu_count < 1:
        raise InputError(f"{instance.provider}/{instance.instance} is a GPU slice ({instance.gpu_count:g}); pick a whole GPU.")
    gpus = int(instance.gpu_count) * nodes
    tte = estimate_train_time(
        model,
        gpu,
        TrainTimeRequest(
            mode=vram.mode,
            precision=vram.precision,
            tokens=args.tokens,
            epochs=args.epochs or 1.0,
            gpus=gpus,
            mfu=getattr(args, "mfu", None),
            checkpointing=vram.checkpointing or Checkpointing.full,
        ),
    )
    return tte.hours, [job_note(model.name, vram.mode, args.tokens, args.epochs or 1.0, gpus, tte)]


def estimate_for(args: argparse.Namespace, catalog, fx, today=None) -> tuple[CostEstimate, list[CostEstimate]]:
    """The headline estimate (cheapest priced region) and the other regions'."""
    from tools.cost import estimate_cost

    rows = _rows_for(catalog, args.instance)
    if has_model(args) != (args.tokens is not None):
        raise InputError("A job cost needs both a model (--model/--params/--config) and --tokens.")
    if args.tokens is not None and (args.hours or args.hours_per_day or args.days):
        raise InputError("Give either --hours/--hours-per-day/--days or a job (--model ... --tokens), not both.")
    currency = Currency(args.currency) if args.currency else None
    estimates, notes_for = [], {}
    for row in rows:
        hours, notes = (None, [])
        if args.tokens is not None:
            hours, notes = _job_hours(args, catalog, row, args.nodes)
        row_currency = currency or _native_currency(row, Billing(args.billing))
        kwargs = {
            "hours": hours or args.hours,
            "hours_per_day": args.hours_per_day,
            "days": args.days,
            "billing": args.billing,
            "currency": row_currency,
            "instances": args.nodes,
            "today": today,
        }
        for flag, field in (
            ("interruptions_per_day", "spot_interruptions_per_day"),
            ("checkpoint_hours", "checkpoint_interval_hours"),
            ("restart_hours", "restart_overhead_hours"),
        ):
            if getattr(args, flag) is not None:
                kwargs[field] = getattr(args, flag)
        est = estimate_cost(row, CostRequest(**kwargs), fx)
        est.assumptions[:0] = notes
        estimates.append(est)
    priced = [e for e in estimates if e.total is not None]
    best = min(priced, key=lambda e: e.total) if priced else estimates[0]
    return best, [e for e in estimates if e is not best]


def _native_currency(row, billing: Billing) -> Currency:
    price = row.price(billing) or (row.prices[0] if row.prices else None)
    return price.currency if price else Currency.USD


def run(args: argparse.Namespace) -> int:
    settings, catalog = settings_and_catalog()
    lang = resolve_lang(args, settings)
    best, others = estimate_for(args, catalog, settings.exchange_rate, today=settings.today_date)
    if args.json:
        data = best.model_dump(mode="json", context={"lang": lang})
        data["other_regions"] = [
            {"region": e.region, "total": e.total, "currency": e.currency.value, "price_as_of": e.price_as_of}
            for e in others
        ]
        print_json(data)
        return 0
    print(render_estimate(best, others, lang))
    return 0


def render_estimate(est: CostEstimate, others: list[CostEstimate] | None = None, lang: str = "en") -> str:
    f = formatter(lang)
    cur = est.currency.value
    chosen = next(line for line in est.lines if line.billing == est.billing)
    billing = f.term("billing", est.billing)
    if chosen.price_per_hour is not None:
        age = label("price_age", lang, age=render(chosen.age, lang) if chosen.age else f.as_of(est.price_as_of))
    else:
        age = label("no_price", lang, billing=billing)
    head = label("cost_head", lang, where=f"{est.provider}/{est.instance}", region=est.region,
                 nodes=f"{est.instances} × " if est.instances > 1 else "", count=f.g(est.gpu_count), gpu=est.gpu,
                 hours=f.hours(est.hours))
    total = label("cost_total", lang, billing=billing, total=f.money(est.total, cur, table=True), age=age)
    rows = []
    for line in est.lines:
        priced = line.price_per_hour is not None
        rows.append(
            [
                f.term("billing", line.billing),
                f.money(line.price_per_hour, cur, "hour" if priced else None, table=True),
                f.money(line.total, cur, table=True),
                f.money(line.expected_total, cur, table=True) if line.billing == Billing.spot and priced else "",
                (line.price_as_of or f.as_of(None)) if priced else "",
                f.term("grade", line.price_grade) if line.price_grade else "",
                render(line.note, lang, surface="cli") if line.note else "",
            ]
        )
    headers = [label(k, lang) for k in ("billing", "price", "total", "expected", "as_of", "grade", "note")]
    out = [head, total, "", format_table(headers, rows), ""]
    out.extend(f"- {render(a, lang, surface='cli')}" for a in est.assumptions)
    if chosen.covers is not None:  # what the price includes and what is extra (disks, bandwidth)
        out.append(f"- {render(chosen.covers, lang, surface='cli')}")
    if others:
        sep = "；" if lang == "zh" else "; "
        out.append(label("other_regions", lang)
                   + sep.join(f"{e.region} {f.money(e.total, e.currency.value, table=True)}" for e in others))
    return "\n".join(out)
