"""`gpu-advisor vram`: GPU memory for a workload, by component, and which GPUs fit it."""

from __future__ import annotations

import argparse

from tools.catalog import Catalog
from tools.messages import formatter, render, render_component
from tools.vram import estimate_vram
from ui.commands._workload import add_workload_args, workload_from_args
from ui.output import add_lang_arg, format_table, label, print_json, resolve_lang

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
    add_lang_arg(parser)
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
    lang = resolve_lang(args)
    model, request = workload_from_args(args, catalog)
    if args.gpu:
        gpus = [catalog.gpu(name) for name in args.gpu] if catalog else []
    else:
        gpus = sorted(catalog.gpus.values(), key=lambda g: (g.usable_memory_gib, g.key)) if catalog else []
    est = estimate_vram(model, request, gpus)
    if args.json:
        print_json(est, lang=lang)  # `fits` covers every catalog GPU (or the --gpu ones)
        return 0
    if not args.gpu:  # the table shows the GPUs people rent most; --json lists all
        est = est.model_copy(update={"fit_details": [f for f in est.fit_details if f.gpu in COMMON_GPUS]})
    print(render_table(model.name, est, lang))
    return 0


def render_table(model_name: str, est, lang: str = "en") -> str:
    f = formatter(lang)
    out = [label("vram_head", lang, model=model_name, mode=f.term("mode", est.mode), precision=est.precision.value,
                 gpus=est.gpus)]
    rows = [(render_component(p.component, p.precision, lang), f"{p.gib:,.2f}") for p in est.breakdown]
    rows.append((label("total_per_gpu", lang), f"{est.per_gpu_gib:,.2f}"))
    if est.gpus > 1:
        rows.append((label("total_over", lang, gpus=est.gpus), f"{est.total_gib:,.2f}"))
    out.append(format_table([label("component", lang), label("gib_per_gpu", lang)], rows))
    if est.fit_details:
        fit_rows = [
            (d.gpu, f"{d.usable_gib:,.1f}", label("yes" if d.fits else "no", lang), f"{d.headroom_gib:+,.1f}")
            for d in est.fit_details
        ]
        out += ["", format_table([label("gpu", lang), label("usable_gib", lang), label("fits", lang),
                                  label("headroom_gib", lang)], fit_rows)]
    out += ["", label("assumptions", lang)]
    out += [f"  - {render(a, lang, surface='cli')}" for a in est.assumptions]
    sep = "；" if lang == "zh" else "; "
    out.append(f"{label('formula', lang)} {sep.join(render(n, lang, surface='cli') for n in est.formula)}")
    return "\n".join(out)
