"""Accuracy of the VRAM and training-time estimators against published figures.

Reads tests/data/published_memory*.yaml and tests/data/published_gpu_hours.yaml
(measurements and GPU-hours that no one on this project wrote), runs our
estimators on each row's configuration, and prints a Markdown report with the
error per row, split into the rows our constants were calibrated on and the
held-out rows, for the first set and for issue 11's workload kinds (whose
held-out file was frozen before the formulas changed; its digest is in
tests/data/published_memory_README.md), beside the estimate before that work
(`BASELINE_GIB`) and the rules of thumb people use today:

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

DATA = ROOT / "tests" / "data"
MEMORY_FILE = DATA / "published_memory.yaml"
# issue 11's workload kinds: calibration part, and the held-out part frozen before any formula changed
KINDS_FILE = DATA / "published_memory_kinds.yaml"
HELDOUT_KINDS_FILE = DATA / "published_memory_heldout_kinds.yaml"
ERRATA_FILE = DATA / "published_memory_errata.yaml"
MEMORY_SETS = {"first set": (MEMORY_FILE,), "new kinds": (KINDS_FILE, HELDOUT_KINDS_FILE)}
HOURS_FILE = DATA / "published_gpu_hours.yaml"
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
# Our per-GPU estimate of every row and bound (GiB, compared as the row's `measure` says) before issue 11's work on
# the workload kinds: tools/vram.py at commit 39c8c59, computed by this script then and frozen here so the report
# shows before and after side by side.
BASELINE_GIB = {
    "litgpt-llama2-7b-lora-mb1": 20.01,
    "litgpt-llama2-7b-lora-mb2": 27.41,
    "litgpt-llama2-7b-qlora-mb1": 11.14,
    "litgpt-llama2-13b-lora-mb1": 35.84,
    "litgpt-llama2-13b-qlora-mb1": 18.43,
    "litgpt-llama2-7b-infer-bf16": 12.59,
    "litgpt-llama2-13b-infer-bf16": 24.31,
    "litgpt-llama2-7b-infer-nf4dq": 3.64,
    "litgpt-llama2-13b-infer-nf4dq": 6.77,
    "litgpt-llama2-70b-infer-nf4dq": 33.91,
    "hf-bert-large-fp32-b4": 13.85,
    "hf-bert-large-fp32-b1": 7.95,
    "hf-bert-large-fp32-b1-ckpt": 6.11,
    "hf-bert-large-fp16-b4": 10.57,
    "hf-bert-large-fp16-b1-ckpt": 6.7,
    "hf-bert-large-adafactor-b4": 12.54,
    "hf-bert-large-adafactor-b1-ckpt-fp16": 5.39,
    "hf-bert-large-8bit-b4": 11.89,
    "hf-bert-large-8bit-b1-ckpt-fp16": 4.74,
    "torchtune-llama31-8b-lora-4090": 18.73,
    "torchtune-llama31-8b-qlora-4090": 9.3,
    "torchtune-llama31-70b-lora-8xa100": 28.15,
    "unsloth-hf-llama31-8b-qlora-16gb": 12.89,
    "unsloth-hf-llama31-8b-qlora-40gb": 34.35,
    "unsloth-hf-llama31-8b-qlora-80gb": 70.1,
    "unsloth-hf-llama33-70b-qlora-80gb": 67.6,
    "qlora-paper-65b-48gb": 42.12,
    "peft-llama2-70b-qlora-fsdp-offload-2gpu": 10.71,
    "peft-llama2-70b-qlora-fsdp-2gpu": 29.3,
    "peft-llama2-70b-qlora-zero3-2gpu": 29.3,
    "peft-llama2-70b-lora-zero3-8gpu": 55.71,
    "llamarecipes-llama2-7b-lora-fsdp-4gpu": 13.25,
    "schmid-llama3-70b-qlora-fsdp-offload-4gpu": 12.6,
    "qwen-7b-lora-256": 19.0,
    "qwen-7b-lora-2048": 23.51,
    "qwen-7b-lora-8192": 38.99,
    "qwen-7b-qlora-256": 9.69,
    "qwen-7b-qlora-2048": 14.2,
    "qwen-7b-qlora-8192": 29.68,
    "qwen-14b-lora-2048": 37.91,
    "qwen-14b-qlora-2048": 19.75,
    "qwen-72b-lora-zero3-4gpu-256": 43.75,
    "qwen-72b-lora-zero3-4gpu-2048": 50.47,
    "qwen-72b-lora-zero3-4gpu-8192": 73.49,
    "qwen-72b-qlora-2048": 62.03,
    "qwen-7b-full-zero3-2gpu-256": 62.59,
    "qwen-7b-full-zero3-2gpu-1024": 64.53,
    "schmid-flan-t5-xxl-zero3-8xa100-b8": 28.04,
    "schmid-flan-t5-xxl-zero3-offload-8xa100-b48": 30.03,
    "schmid-flan-t5-xxl-zero3-offload-4xa10g-b24": 15.77,
    "schmid-flan-t5-xl-zero3-8xa100-b72": 36.02,
    "schmid-flan-t5-xl-zero3-offload-fp32-4xv100-b8": 5.69,
    "schmid-flan-t5-xl-zero3-fp32-8xv100-b1": 7.11,
    "schmid-flan-t5-xl-zero3-offload-fp32-8xv100-b8": 5.69,
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


class Erratum(Strict):
    file: str
    id: str
    field: str = Field(pattern="^(measured|measure|workload|max)$")
    was: Any
    now: Any
    reason: str


class ErrataFile(Strict):
    errata: list[Erratum] = Field(default_factory=list)


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


def load_errata(path: Path = ERRATA_FILE) -> list[dict[str, Any]]:
    """Corrections to frozen files (they are never edited)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [e.model_dump(mode="json") for e in ErrataFile.model_validate(data).errata]


def load_memory(path: Path, errata: list[dict[str, Any]]) -> dict[str, Any]:
    """A memory file with its errata applied (each must find the value it corrects)."""
    data = load_yaml(path)
    for e in (e for e in errata if e["file"] == path.name):
        row = next((r for r in data["rows"] + data.get("bounds", []) if r["id"] == e["id"]), None)
        if row is None or row.get(e["field"]) != e["was"]:
            raise ValueError(f"{path.name}: erratum for {e['id']}.{e['field']} does not match the file")
        row[e["field"]] = e["now"]
    return data


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
    set: str = "first set"
    kind: str | None = None
    before_gib: float | None = None

    @property
    def error(self) -> float:
        return self.ours_gib / self.measured_gib - 1

    @property
    def before_error(self) -> float | None:
        return None if self.before_gib is None else self.before_gib / self.measured_gib - 1

    def rule_error(self, name: str) -> float | None:
        v = self.rules[name]
        return None if v is None else v / self.measured_gib - 1


def evaluate_all_memory(catalog: Catalog) -> tuple[list[MemoryResult], list[dict]]:
    """Every memory file of `MEMORY_SETS`, errata applied, each row tagged with its set."""
    errata = load_errata()
    results, bounds = [], []
    for name, paths in MEMORY_SETS.items():
        for path in paths:
            mem, bnd = evaluate_memory(catalog, load_memory(path, errata), set_name=name)
            results += mem
            bounds += bnd
    return results, bounds


def evaluate_memory(catalog: Catalog, data: dict[str, Any] | None = None,
                    set_name: str = "first set") -> tuple[list[MemoryResult], list[dict]]:
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
            ours_gib=ours, rules=rules, source=row["source"], set=set_name, kind=row.get("kind"),
            before_gib=BASELINE_GIB.get(row["id"]),
        ))
    bounds = []
    for row in data.get("bounds", []):
        model = resolve_model(catalog, row)
        est = estimate_vram(model, VramRequest(**row["workload"]))
        limit = to_gib(row["max"])
        split = ("holdout" if row["id"] in _heldout_ids() else "calibration") if set_name == "new kinds" else "—"
        bounds.append({"id": row["id"], "ours_gib": est.per_gpu_gib, "max_gib": limit,
                       "holds": est.per_gpu_gib <= limit, "source": row["source"], "set": set_name,
                       "split": split, "before_gib": BASELINE_GIB.get(row["id"])})
    return results, bounds


def _heldout_ids() -> set[str]:
    data = load_yaml(HELDOUT_KINDS_FILE)
    return {r["id"] for r in data["rows"] + data.get("bounds", [])}


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


def _memory_table(rows: list[MemoryResult], with_kind: bool) -> list[str]:
    head = "| row | " + ("kind | " if with_kind else "") + "split | measure | published GiB | before GiB | ours GiB | " \
           "before err | ours err | " + " | ".join(RULES) + " |"
    lines = [head, "|---|" + ("---|" if with_kind else "") + "---|---|---:|---:|---:|---:|---:|" + "---:|" * len(RULES)]
    for r in rows:
        rule_cells = " | ".join(_pct(r.rule_error(n)) for n in RULES)
        before = "n/a" if r.before_gib is None else f"{r.before_gib:.2f}"
        lines.append(f"| {r.id} | " + (f"{r.kind or ''} | " if with_kind else "") + f"{r.split} | {r.measure} | "
                     f"{r.measured_gib:.2f} | {before} | {r.ours_gib:.2f} | {_pct(r.before_error)} | {_pct(r.error)} | "
                     f"{rule_cells} |")
    return lines


def render(mem: list[MemoryResult], bounds: list[dict], hours: list[HoursResult],
           errata: list[dict[str, Any]] | None = None) -> str:
    first = [r for r in mem if r.set == "first set"]
    kinds = [r for r in mem if r.set == "new kinds"]
    lines = ["# Accuracy benchmark", "",
             "Generated by `python benchmarks/accuracy.py` from `tests/data/published_memory.yaml` (the first set), "
             "`tests/data/published_memory_kinds.yaml` and `tests/data/published_memory_heldout_kinds.yaml` (issue 11's "
             "workload kinds: calibration, and held-out frozen before any formula changed) and "
             "`tests/data/published_gpu_hours.yaml` (published measurements; sources per row in those files). "
             "Error = estimate / published − 1. *allocated* rows compare with our figure without the CUDA-context "
             "and allocator lines (the source measured `torch.cuda.max_memory_allocated`); *device* rows compare "
             "the whole per-GPU figure. *before* is the estimate of tools/vram.py at commit 39c8c59, before the "
             "work on the kinds (`BASELINE_GIB`).", "",
             "## GPU memory", "",
             "### First set", ""]
    lines += _memory_table(first, with_kind=False)
    lines += ["", "### New kinds (issue 11)", ""]
    lines += _memory_table(kinds, with_kind=True)
    columns = (("first set", "calibration"), ("first set", "holdout"), ("new kinds", "calibration"),
               ("new kinds", "holdout"), (None, None))
    lines += ["", "### Summary (absolute error: median / max / rows)", "",
              "| estimator | first set: calibration | first set: held-out | new kinds: calibration | "
              "new kinds: held-out | all |", "|---|---|---|---|---|---|"]

    def cell(errors: list[float]) -> str:
        s = _summary(errors)
        return "—" if s is None else f"{s[0]:.1%} / {s[1]:.1%} / {s[2]}"

    def errors(fn, set_name: str | None, split: str | None) -> list[float]:
        return [e for r in mem if set_name in (None, r.set) and split in (None, r.split) and (e := fn(r)) is not None]

    estimators = [("ours, before", lambda r: r.before_error), ("**ours**", lambda r: r.error)]
    estimators += [(name, lambda r, n=name: r.rule_error(n)) for name in RULES]
    for label, fn in estimators:
        lines.append(f"| {label} | " + " | ".join(cell(errors(fn, st, sp)) for st, sp in columns) + " |")
    ours_first, ours_all = _summary([r.error for r in first]), _summary([r.error for r in mem])
    hold = _summary([r.error for r in first if r.split == "holdout"])
    kinds_hold = _summary([r.error for r in kinds if r.split == "holdout"])
    met = ours_first[0] <= TARGET_MEDIAN and ours_first[1] <= TARGET_MAX
    lines += ["", f"Targets: median ≤ {TARGET_MEDIAN:.0%}, none worse than {TARGET_MAX:.0%}. First set: median "
              f"{ours_first[0]:.1%}, max {ours_first[1]:.1%} → {'met' if met else 'NOT met'} (held-out rows: median "
              f"{hold[0]:.1%}, max {hold[1]:.1%}). New kinds, held-out: median {kinds_hold[0]:.1%}, max "
              f"{kinds_hold[1]:.1%}. All rows: median {ours_all[0]:.1%}, max {ours_all[1]:.1%}.", ""]
    lines += ["Reading the new kinds: the held-out file was evaluated once, after the formula changes were settled on the "
              "calibration rows. Two changes came after that evaluation: for a property test (more GPUs never need "
              "more per GPU), gradient reduce buckets now count on one GPU too (the five Q-LoRA rows of the Qwen "
              "table run DeepSpeed ZeRO-2 on one GPU: +0.07-0.29 GiB); and the unsharded churn fraction was "
              "recomputed exactly on its three calibration rows (0.11, first set as 0.13 by a rounding slip). "
              "Held-out at the first evaluation: median 9.0%, max 47.3%. "
              "FLAN-T5 bounds: the runs padded targets to 129 tokens, "
              "but `VramRequest` has no target length, so the decoder side is taken at the 512 input tokens (said in "
              "the estimate's assumptions); that is why three of them do not hold. "
              "torchtune-llama31-70b-lora-8xa100 (first set) moved from +2% to +16% when the FSDP root unit "
              "(embeddings and LM head, 4.2 GB in 16-bit for Llama 3.1 70B) began to count as HF/accelerate wrap it; "
              "torchtune can shard those two separately (`custom_sharded_layers`). The BERT-large fp32 rows lost a "
              "point or two when the activation count followed the reference implementation (66h + 9·a·s bytes per "
              "token in fp32 instead of 80h + 10·a·s); the fp16 AMP row gained 11 points.", ""]
    lines += ["### New kinds, by kind (median absolute error)", "",
              "| kind | split | rows | before | ours |", "|---|---|---:|---:|---:|"]
    for kind in sorted({r.kind or "" for r in kinds}):
        for split in ("calibration", "holdout"):
            group = [r for r in kinds if (r.kind or "") == kind and r.split == split]
            if group:
                b = statistics.median(abs(r.before_error) for r in group if r.before_error is not None)
                a = statistics.median(abs(r.error) for r in group)
                lines.append(f"| {kind} | {split} | {len(group)} | {b:.1%} | {a:.1%} |")
    lines.append("")
    if bounds:
        lines += ["### Published bounds", "", "| bound | set | split | before GiB | ours GiB | limit GiB | holds |",
                  "|---|---|---|---:|---:|---:|---|"]
        for b in bounds:
            before = "n/a" if b.get("before_gib") is None else f"{b['before_gib']:.2f}"
            lines.append(f"| {b['id']} | {b.get('set', 'first set')} | {b.get('split', '—')} | {before} | "
                         f"{b['ours_gib']:.2f} | {b['max_gib']:.2f} | {'yes' if b['holds'] else 'NO'} |")
        lines.append("")
    lines += ["### Errata", ""]
    if errata:
        lines += [f"- {e['file']} {e['id']}.{e['field']}: {e['was']} → {e['now']} ({e['reason']})" for e in errata]
    else:
        lines.append("None: every frozen file is read as written.")
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
    mem, bounds = evaluate_all_memory(catalog)
    hours = evaluate_hours(catalog)
    sys.stdout.write(render(mem, bounds, hours, load_errata()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
