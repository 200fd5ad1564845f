"""Accuracy of the VRAM and training-time estimators against published figures.

Reads tests/data/published_memory.yaml and tests/data/published_gpu_hours.yaml
(measurements and GPU-hours that no one on this project wrote), runs our
estimators on each row's configuration, and prints a Markdown report with the
error per row, split into the rows our constants were calibrated on and the
held-out rows, beside the rules of thumb people use today:

* "16 bytes per parameter" (mixed-precision Adam, ZeRO paper §3.1) — training rows;
* `accelerate estimate-memory` (huggingface/accelerate commands/estimate.py:
  "Training using Adam" = max of its per-component sizes: 16 B/param for
  float32, 8 B/param for float16; inference = the dtype's total size);
* the LLaMA-Factory README hardware table (Full AMP 18x GB, pure bf16 8x,
  LoRA 2x, QLoRA-8 x, QLoRA-4 x/2; listed columns for 7/14/30/70B);
* the serving rule "parameters × bytes × 1.2" — inference rows.

Run: python benchmarks/accuracy.py > benchmarks/accuracy.md
"""

from __future__ import annotations

import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.catalog import Catalog  # noqa: E402
from tools.domain import GB, GIB, Mode, ModelSpec, Precision, Strict  # noqa: E402
from tools.schemas import TrainTimeRequest, VramRequest  # noqa: E402
from tools.train_time import estimate_train_time  # noqa: E402
from tools.vram import estimate_vram  # noqa: E402
from tools.vram_codes import Component  # noqa: E402
from tools.vram_shape import model_from_params  # noqa: E402

MEMORY_FILE = ROOT / "tests" / "data" / "published_memory.yaml"
HOURS_FILE = ROOT / "tests" / "data" / "published_gpu_hours.yaml"
UNIT_BYTES = {"GB": GB, "GiB": GIB, "MiB": 2**20, "MB": 1000**2}
OVERHEAD_LINES = (Component.cuda_context.value, Component.fragmentation.value)  # breakdown_gib keys
TARGET_MEDIAN, TARGET_MAX, TARGET_HOURS = 0.15, 0.35, 0.25
SIZES_LLAMA_FACTORY = {  # README columns, GB: method → {size in B: GB}
    "full_amp": {7: 120, 14: 240, 30: 600, 70: 1200},
    "full_pure": {7: 60, 14: 120, 30: 300, 70: 600},
    "lora": {7: 16, 14: 32, 30: 64, 70: 160},
    "qlora8": {7: 10, 14: 20, 30: 40, 70: 80},
    "qlora4": {7: 6, 14: 12, 30: 24, 70: 48},
}
PER_B_LLAMA_FACTORY = {"full_amp": 18, "full_pure": 8, "lora": 2, "qlora8": 1, "qlora4": 0.5}  # the `x`B column


class Quantity(Strict):
    value: float = Field(gt=0)
    unit: str = Field(pattern="^(GB|GiB|MiB|MB)$")


class MemoryRow(Strict):
    id: str
    kind: str | None = None  # workload kind the row stands for (new-kinds files), for the per-kind summary
    source: str
    locator: str
    model: str | None = None
    params: float | None = Field(default=None, gt=0)
    workload: VramRequest
    assumed: str | None = None
    measured: Quantity
    measure: str = Field(pattern="^(allocated|device)$")
    split: str = Field(pattern="^(calibration|holdout)$")


class BoundRow(Strict):
    id: str
    kind: str | None = None
    source: str
    locator: str | None = None
    model: str
    workload: VramRequest
    assumed: str | None = None
    max: Quantity


class MemoryFile(Strict):
    rows: list[MemoryRow]
    bounds: list[BoundRow] = Field(default_factory=list)


class HoursRow(Strict):
    id: str
    model: str | None = None
    params: float | None = Field(default=None, gt=0)
    tokens: float = Field(gt=0)
    gpu: str
    gpu_hours: float = Field(gt=0)
    split: str = Field(pattern="^(calibration|holdout)$")
    scope: str | None = None
    note: str | None = None
    source: str


class HoursFile(Strict):
    rows: list[HoursRow]


def load_yaml(path: Path) -> dict[str, Any]:
    """Read a published-figures file, validated (unknown keys and bad values are errors)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    schema = MemoryFile if path.name.startswith("published_memory") else HoursFile
    return schema.model_validate(data).model_dump(mode="json", exclude_none=True, exclude_unset=True)


def to_gib(q: dict[str, Any]) -> float:
    return q["value"] * UNIT_BYTES[q["unit"]] / GIB


def resolve_model(catalog: Catalog, row: dict[str, Any]) -> ModelSpec:
    if "params" in row:
        return model_from_params(float(row["params"]))
    return catalog.model(row["model"])


# ------------------------------------------------------------------ rules of thumb (GiB)


def rule_16_bytes(model: ModelSpec, req: VramRequest) -> float | None:
    return model.params * 16 / GIB if req.mode in (Mode.full, Mode.pretrain) else None


def rule_accelerate(model: ModelSpec, req: VramRequest) -> float | None:
    p = req.effective_precision
    if req.mode == Mode.inference:
        return model.params * p.bytes_per_param / GIB
    if req.mode in (Mode.full, Mode.pretrain):
        per_param = 16 if p in (Precision.fp32, Precision.tf32) else 8
        return model.params * per_param / GIB
    return None


def rule_llama_factory(model: ModelSpec, req: VramRequest) -> float | None:
    p = req.effective_precision
    if req.mode in (Mode.full, Mode.pretrain):
        if p in (Precision.fp32, Precision.tf32):
            return None
        method = "full_pure" if req.master_weights.value == "none" else "full_amp"
    elif req.mode == Mode.qlora or p in (Precision.nf4, Precision.int4):
        method = "qlora4"
    elif req.mode == Mode.lora:
        method = "qlora8" if p == Precision.int8 else "lora"
    else:
        return None
    x = model.params / 1e9
    nearest = min(SIZES_LLAMA_FACTORY[method], key=lambda size: abs(math.log(size / x)))
    if abs(math.log(nearest / x)) <= math.log(1.25):
        gb = SIZES_LLAMA_FACTORY[method][nearest]
    else:
        gb = PER_B_LLAMA_FACTORY[method] * x
    return gb * GB / GIB


def rule_serving(model: ModelSpec, req: VramRequest) -> float | None:
    if req.mode != Mode.inference:
        return None
    return model.params * req.effective_precision.bytes_per_param * 1.2 / GIB


RULES = {
    "16 B/param": rule_16_bytes,
    "accelerate": rule_accelerate,
    "LLaMA-Factory": rule_llama_factory,
    "params×bytes×1.2": rule_serving,
}


# ------------------------------------------------------------------ memory


@dataclass
class MemoryResult:
    id: str
    split: str
    measure: str
    measured_gib: float
    ours_gib: float
    rules: dict[str, float | None]
    source: str

    @property
    def error(self) -> float:
        return self.ours_gib / self.measured_gib - 1

    def rule_error(self, name: str) -> float | None:
        v = self.rules[name]
        return None if v is None else v / self.measured_gib - 1


def evaluate_memory(catalog: Catalog, data: dict[str, Any] | None = None) -> tuple[list[MemoryResult], list[dict]]:
    data = data or load_yaml(MEMORY_FILE)
    results = []
    for row in data["rows"]:
        model = resolve_model(catalog, row)
        req = VramRequest(**row["workload"])
        est = estimate_vram(model, req)
        ours = est.per_gpu_gib
        if row["measure"] == "allocated":
            ours -= sum(est.breakdown_gib.get(k, 0.0) for k in OVERHEAD_LINES)
        # rules of thumb give the job's total; spread it evenly over the GPUs for per-GPU rows
        rules = {name: (None if (v := fn(model, req)) is None else v / req.gpus) for name, fn in RULES.items()}
        results.append(MemoryResult(
            id=row["id"], split=row["split"], measure=row["measure"], measured_gib=to_gib(row["measured"]),
            ours_gib=ours, rules=rules, source=row["source"],
        ))
    bounds = []
    for row in data.get("bounds", []):
        model = resolve_model(catalog, row)
        est = estimate_vram(model, VramRequest(**row["workload"]))
        limit = to_gib(row["max"])
        bounds.append({"id": row["id"], "ours_gib": est.per_gpu_gib, "max_gib": limit,
                       "holds": est.per_gpu_gib <= limit, "source": row["source"]})
    return results, bounds


# ------------------------------------------------------------------ GPU-hours


@dataclass
class HoursResult:
    id: str
    split: str
    published: float
    ours: float
    mfu_used: float
    implied_mfu: float
    scope: str | None
    note: str | None
    source: str

    @property
    def error(self) -> float:
        return self.ours / self.published - 1


def evaluate_hours(catalog: Catalog, data: dict[str, Any] | None = None) -> list[HoursResult]:
    data = data or load_yaml(HOURS_FILE)
    out = []
    for row in data["rows"]:
        model = resolve_model(catalog, row)
        gpu = catalog.gpu(row["gpu"])
        # pre-training at scale: many nodes; GPU-hours do not depend on the count for NVLink-class GPUs
        est = estimate_train_time(model, gpu, TrainTimeRequest(mode="pretrain", tokens=row["tokens"], gpus=1024))
        implied = est.mfu * est.gpu_hours / row["gpu_hours"]
        out.append(HoursResult(row["id"], row["split"], row["gpu_hours"], est.gpu_hours, est.mfu, implied,
                               row.get("scope"), row.get("note"), row["source"]))
    return out


# ------------------------------------------------------------------ report


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.0%}"


def _summary(errors: list[float]) -> tuple[float, float, int] | None:
    if not errors:
        return None
    absolute = [abs(e) for e in errors]
    return statistics.median(absolute), max(absolute), len(errors)


def render(mem: list[MemoryResult], bounds: list[dict], hours: list[HoursResult]) -> str:
    lines = ["# Accuracy benchmark", "",
             "Generated by `python benchmarks/accuracy.py` from `tests/data/published_memory.yaml` and "
             "`tests/data/published_gpu_hours.yaml` (published measurements; sources per row in those files). "
             "Error = estimate / published − 1. *allocated* rows compare with our figure without the CUDA-context "
             "and allocator lines (the source measured `torch.cuda.max_memory_allocated`); *device* rows compare "
             "the whole per-GPU figure.", "",
             "## GPU memory", "",
             "| row | split | measure | published GiB | ours GiB | ours err | " + " | ".join(RULES) + " |",
             "|---|---|---|---:|---:|---:|" + "---:|" * len(RULES)]
    for r in mem:
        rule_cells = " | ".join(_pct(r.rule_error(n)) for n in RULES)
        lines.append(f"| {r.id} | {r.split} | {r.measure} | {r.measured_gib:.2f} | {r.ours_gib:.2f} | "
                     f"{_pct(r.error)} | {rule_cells} |")
    lines += ["", "### Summary (absolute error: median / max / rows)", "",
              "| estimator | calibration | holdout | all |", "|---|---|---|---|"]

    def cell(errors: list[float]) -> str:
        s = _summary(errors)
        return "—" if s is None else f"{s[0]:.1%} / {s[1]:.1%} / {s[2]}"

    def split_errors(fn, split: str | None) -> list[float]:
        return [e for r in mem if split in (None, r.split) and (e := fn(r)) is not None]

    lines.append("| **ours** | " + " | ".join(cell(split_errors(lambda r: r.error, s))
                                            for s in ("calibration", "holdout", None)) + " |")
    for name in RULES:
        lines.append(f"| {name} | " + " | ".join(cell(split_errors(lambda r, n=name: r.rule_error(n), s))
                                               for s in ("calibration", "holdout", None)) + " |")
    ours_all = _summary([r.error for r in mem])
    hold = _summary([r.error for r in mem if r.split == "holdout"])
    lines += ["", f"Targets: median ≤ {TARGET_MEDIAN:.0%}, none worse than {TARGET_MAX:.0%}. "
              f"All rows: median {ours_all[0]:.1%}, max {ours_all[1]:.1%} → "
              f"{'met' if ours_all[0] <= TARGET_MEDIAN and ours_all[1] <= TARGET_MAX else 'NOT met'}; "
              f"held-out rows: median {hold[0]:.1%}, max {hold[1]:.1%}.", ""]
    if bounds:
        lines += ["### Published bounds", "", "| bound | ours GiB | limit GiB | holds |", "|---|---:|---:|---|"]
        for b in bounds:
            lines.append(f"| {b['id']} | {b['ours_gib']:.2f} | {b['max_gib']:.2f} | {'yes' if b['holds'] else 'NO'} |")
        lines.append("")

    lines += ["## Training GPU-hours", "",
              "| run | split | published GPU-h | ours GPU-h | err | MFU used | implied MFU | note |",
              "|---|---|---:|---:|---:|---:|---:|---|"]
    for h in hours:
        lines.append(f"| {h.id} | {h.split} | {h.published:,.0f} | {h.ours:,.0f} | {_pct(h.error)} | "
                     f"{h.mfu_used:.2f} | {h.implied_mfu:.3f} | {h.scope or h.note or ''} |")
    calib = [h for h in hours if h.split == "calibration"]
    core = [h for h in hours if h.split == "holdout" and not h.scope]
    scoped = [h for h in hours if h.scope]
    lines += ["", f"Calibration (LLaMA-1, A100): median implied MFU {statistics.median(h.implied_mfu for h in calib):.3f} "
              f"→ the Ampere NVLink default in tools/mfu.py."]
    for label, group in (("calibration", calib), ("held-out, same scope", core), ("held-out, wider scope", scoped)):
        s = _summary([h.error for h in group])
        if s:
            within = sum(abs(h.error) <= TARGET_HOURS for h in group)
            lines.append(f"- {label}: median |err| {s[0]:.1%}, max {s[1]:.1%}; {within}/{s[2]} within ±{TARGET_HOURS:.0%}")
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    from knowledge.catalog import load_catalog

    catalog = load_catalog()
    mem, bounds = evaluate_memory(catalog)
    hours = evaluate_hours(catalog)
    sys.stdout.write(render(mem, bounds, hours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
