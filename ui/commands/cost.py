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
from tools.money import money
from tools.schemas import CostEstimate, CostRequest, TrainTimeRequest
from ui.commands._workload import positive_int
from ui.output import format_table, print_json


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


def _job_hours(args, catalog, instance, nodes: int) -> tuple[float, list[str]]:
    """Hours of a training job on this instance's GPUs (× nodes), from the training-time estimate."""
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
    note = (
        f"Job: {model.name}, {vram.mode.value}, {args.tokens:,.0f} tokens × {args.epochs or 1:g} epoch(s) on {gpus} × "
        f"{gpu.key} at MFU {tte.mfu:.2f} ({tte.mfu_source}) = {tte.hours:,.1f} h."
    )
    return tte.hours, [note]


def estimate_for(args: argparse.Namespace, catalog, fx) -> tuple[CostEstimate, list[CostEstimate]]:
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
    best, others = estimate_for(args, catalog, settings.exchange_rate)
    if args.json:
        data = best.model_dump(mode="json")
        data["other_regions"] = [
            {"region": e.region, "total": e.total, "currency": e.currency.value, "price_as_of": e.price_as_of}
            for e in others
        ]
        print_json(data)
        return 0
    print(render(best, others))
    return 0


def render(est: CostEstimate, others: list[CostEstimate] | None = None) -> str:
    cur = est.currency
    nodes = f"{est.instances} × " if est.instances > 1 else ""
    chosen = next(line for line in est.lines if line.billing == est.billing)
    billing = est.billing.value.replace("_", "-")
    age = f"price {est.price_age}" if chosen.price_per_hour is not None else f"no {billing} price in the catalog"
    head = (
        f"{est.provider}/{est.instance} ({est.region}): {nodes}{est.gpu_count:g} × {est.gpu}, {est.hours:,.1f} h\n"
        f"Total ({billing}): {money(est.total, cur)} — {age}"
    )
    rows = []
    for line in est.lines:
        rows.append(
            [
                line.billing.value.replace("_", "-"),
                money(line.price_per_hour, cur) + ("/h" if line.price_per_hour is not None else ""),
                money(line.total, cur),
                money(line.expected_total, cur) if line.billing == Billing.spot and line.price_per_hour is not None else "",
                line.price_as_of or ("date unknown" if line.price_per_hour is not None else ""),
                line.price_grade.value if line.price_grade else "",
                line.note or "",
            ]
        )
    table = format_table(["billing", "price", "total", "expected (spot)", "as of", "grade", "note"], rows)
    out = [head, "", table, ""]
    out.extend(f"- {a}" for a in est.assumptions)
    if others:
        out.append("Other regions: " + "; ".join(f"{e.region} {money(e.total, e.currency)}" for e in others))
    return "\n".join(out)
