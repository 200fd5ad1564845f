"""`gpu-advisor train-time`: hours, days and GPU-hours to train, and GPUs for a deadline."""

from __future__ import annotations

import argparse
import math

from tools.domain import Checkpointing, Mode, Precision
from tools.errors import InputError
from tools.messages import render
from tools.schemas import TrainTimeRequest
from tools.train_time import estimate_train_time
from ui.commands._workload import positive_int, add_model_args, model_from_args, parse_params
from ui.commands.vram import load_catalog_or_none
from ui.output import add_lang_arg, format_table, label, print_json, resolve_lang


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a positive finite number")
    return value


def _tokens(text: str) -> float:
    try:
        return parse_params(text)  # same units: 1e12, 1T, 300B, 3000亿
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err).replace("parameter count", "token count")) from None


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "train-time",
        help="hours, days and GPU-hours to train; GPUs needed for a deadline",
        description="Training time from FLOPs ≈ 6·N·D over GPUs × dense peak × MFU.",
    )
    add_model_args(parser)
    parser.add_argument("--tokens", type=_tokens, required=True, help="training tokens per epoch: 1e12, 1T, 300B")
    parser.add_argument("--epochs", type=_positive_float, default=1.0, help="default 1")
    parser.add_argument("--gpu", required=True, metavar="NAME", help="catalog GPU, e.g. A100-80GB, H100")
    parser.add_argument("--gpus", type=positive_int, default=1, help="GPU count (default 1)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=Mode.full.value,
                        help="full (default), pretrain, lora, qlora")
    parser.add_argument("--precision", choices=[p.value for p in Precision], default=None,
                        help="compute precision (default bf16, fp16 where bf16 is unsupported)")
    parser.add_argument("--checkpointing", choices=[c.value for c in Checkpointing], default=Checkpointing.none.value,
                        help="full adds a recomputed forward (8·N·D); default none")
    parser.add_argument("--mfu", type=_positive_float, default=None, help="model FLOPs utilisation 0-1 (default per GPU class)")
    parser.add_argument("--deadline-hours", type=_positive_float, default=None, help="also report GPUs needed to finish in time")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_lang_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.mode == Mode.inference.value:
        raise InputError("train-time needs a training mode: --mode full, pretrain, lora or qlora.")
    if args.mfu is not None and args.mfu > 1:
        raise InputError(f"--mfu {args.mfu:g} is above 1; give a fraction such as 0.4 (40 %).")
    catalog = load_catalog_or_none()
    if catalog is None:
        raise InputError("No GPU catalog is available (knowledge.catalog missing); cannot look up --gpu.")
    gpu = catalog.gpu(args.gpu)
    model = model_from_args(args, catalog)
    request = TrainTimeRequest(
        mode=args.mode,
        precision=args.precision,
        tokens=args.tokens,
        epochs=args.epochs,
        gpus=args.gpus,
        mfu=args.mfu,
        checkpointing=args.checkpointing,
        deadline_hours=args.deadline_hours,
    )
    est = estimate_train_time(model, gpu, request)
    lang = resolve_lang(args)
    if args.json:
        print_json(est, lang=lang)
        return 0
    rows = [
        (label("model", lang), model.name),
        (label("gpus", lang), f"{est.gpus} × {gpu.key}"),
        (label("flops", lang), f"{est.flops:.3e}"),
        (label("peak", lang), f"{est.peak_tflops_per_gpu:,.1f} TFLOPS"),
        (label("mfu", lang), f"{est.mfu:.2f}"),
        (label("hours", lang), f"{est.hours:,.1f}"),
        (label("days", lang), f"{est.days:,.2f}"),
        (label("gpu_hours", lang), f"{est.gpu_hours:,.0f}"),
    ]
    if est.gpus_for_deadline is not None:
        rows.append((label("gpus_for", lang, hours=f"{args.deadline_hours:g}"), f"{est.gpus_for_deadline:,}"))
    print(format_table(["", label("value", lang)], rows))
    print()
    print(label("assumptions", lang))
    for a in est.assumptions:
        print(f"  - {render(a, lang, surface='cli')}")
    return 0
