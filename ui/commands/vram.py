"""`gpu-advisor vram`: GPU memory for a workload, by component, and which GPUs fit it."""

from __future__ import annotations

import argparse

from tools.catalog import Catalog
from tools.vram import estimate_vram
from ui.commands._workload import add_workload_args, workload_from_args
from ui.output import format_table, print_json

# GPUs the table shows by default (catalog keys; missing ones are skipped).
COMMON_GPUS = (
    "T4", "L4", "A10", "A10G", "RTX-3090", "RTX-4090", "V100-32GB", "A100-40GB", "L20", "L40S", "RTX-A6000",
    "A100-80GB", "A800-80GB", "H20", "H800", "H100", "H200", "MI300X", "Ascend-910B",
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "vram",
        help="GPU memory a model needs (per GPU, by component) and which GPUs it fits",
        description="Estimate GPU memory for inference, full fine-tuning, LoRA, QLoRA or pretraining.",
    )
    add_workload_args(parser)
    parser.add_argument("--gpu", action="append", default=None, metavar="NAME",
                        help="check the fit on this GPU only (repeatable; default: every catalog GPU)")
    parser.add_argument("--json", action="store_true", help="machine-readable output (GiB, unknown = null)")
    parser.set_defaults(func=run)


def load_catalog_or_none() -> Catalog | None:
    """The catalog when its package exists; --params still works without one."""
    try:
        from knowledge.catalog import load_catalog
    except ImportError:
        return None
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog_or_none()
    model, request = workload_from_args(args, catalog)
    if args.gpu:
        gpus = [catalog.gpu(name) for name in args.gpu] if catalog else []
    else:
        gpus = sorted(catalog.gpus.values(), key=lambda g: (g.usable_memory_gib, g.key)) if catalog else []
    est = estimate_vram(model, request, gpus)
    if args.json:
        print_json(est)  # `fits` covers every catalog GPU (or the --gpu ones)
        return 0
    if not args.gpu:  # the table shows the GPUs people rent most; --json lists all
        est = est.model_copy(update={"fit_details": [f for f in est.fit_details if f.gpu in COMMON_GPUS]})
    print(f"{model.name} — {est.mode.value}, {est.precision.value}, {est.gpus} GPU(s)")
    rows = [(name, f"{gib:,.2f}") for name, gib in est.breakdown_gib.items()]
    rows.append(("total per GPU", f"{est.per_gpu_gib:,.2f}"))
    if est.gpus > 1:
        rows.append((f"total over {est.gpus} GPUs", f"{est.total_gib:,.2f}"))
    print(format_table(["component", "GiB per GPU"], rows))
    if est.fit_details:
        print()
        fit_rows = [
            (f.gpu, f"{f.usable_gib:,.1f}", "yes" if f.fits else "no", f"{f.headroom_gib:+,.1f}")
            for f in est.fit_details
        ]
        print(format_table(["GPU", "usable GiB", "fits", "headroom GiB"], fit_rows))
    print()
    print("Assumptions:")
    for a in est.assumptions:
        print(f"  - {a}")
    print(f"Formula: {est.formula}")
    return 0
