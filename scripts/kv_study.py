"""KV-pool study: every spent KV-capacity case (calibration files, held-out rounds 1-10), measured vs estimated.

    python scripts/kv_study.py            # the table: case, measured, before (commit 8771c3b), after (this tree), error
    python scripts/kv_study.py --terms    # plus the pool's terms per GPU (weights, non-torch, activation, graphs)

"before" is the estimate of main at 8771c3b (scripts/kv_study_before.tsv, written by this script's predecessor on that
tree); "after" is the estimator in this tree, with the case's `engine_version` passed in the request (the field
benchmarks/serving.py `request_for` does not pass yet; `--no-version` leaves it out). Round 11 and later files
(heldout11_* …) are not read: they are not spent.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving as bench  # noqa: E402  (benchmarks/serving.py)

from tools.domain import GIB  # noqa: E402
from tools.serving import estimate_serving  # noqa: E402
from tools.serving_perf import make_plan, pool_tokens  # noqa: E402
from tools.serving_types import Layout  # noqa: E402

UNSPENT = re.compile(r"heldout(1[1-9]|[2-9]\d)_")  # round 11 on: not read


_ALL_FILES = bench.case_files


def spent_files() -> list[Path]:
    return [p for p in _ALL_FILES() if not UNSPENT.match(p.name)]


def kv_cases() -> list[tuple[str, object]]:
    bench.case_files = spent_files  # load_cases reads only these
    return [(f, c) for f, _h, _s, c in bench.load_cases()
            if any(m.metric.category == "kv" for m in c.measured)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--terms", action="store_true", help="print the pool's terms per GPU")
    ap.add_argument("--no-version", action="store_true",
                    help="leave the case's engine_version out of the request (as benchmarks/serving.py does today)")
    args = ap.parse_args(argv)
    catalog = bench.load_catalog()
    before = {}
    bpath = ROOT / "scripts" / "kv_study_before.tsv"
    if bpath.exists():
        for line in bpath.read_text().splitlines()[1:]:
            cid, metric, value = line.split("\t")
            before[(cid, metric)] = float(value)
    rows = []
    print("| split | case | engine | GPU × n (tp, pp) | metric | measured | before | err | after | err | terms (GiB/GPU) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for file, case in kv_cases():
        model, gpu = catalog.model(case.model), catalog.gpu(case.gpu)
        req = bench.request_for(case)
        if not args.no_version:  # the one field benchmarks/serving.py `request_for` does not pass yet
            req = req.model_copy(update={"engine_version": case.engine_version})
        est = estimate_serving(model, gpu, req, allow_no_fit=True, scheduling=bench.scheduling_for(case))
        lay = Layout(gpus=case.gpus, tp=case.tp, pp=case.pp, replicas=case.gpus // (case.tp * case.pp), nodes=1)
        plan = make_plan(model, gpu, req.model_copy(update={"gpus": case.gpus}), lay, est.input_len, est.output_len,
                         bench.scheduling_for(case))
        terms = getattr(plan, "pool_terms", None)
        tstr = (", ".join(f"{k.removesuffix('_gib')} {v:.2f}" for k, v in terms.model_dump().items()
                          if isinstance(v, float)) + f", nccl charged {terms.nccl_charged}" if terms else
                f"vis {plan.visible_gib:.2f} use {plan.usable_gib:.2f} w {plan.weights_gpu / GIB:.2f} "
                f"nt {plan.non_torch_gib:.2f} act {plan.activation_gib:.2f}")
        split = bench.split_of(bench.DATA / file).value
        for m in case.measured:
            if m.metric.category != "kv":
                continue
            after = bench.predicted(est, m.metric)
            b = before.get((case.id, m.metric.value))
            e_after = after / m.value - 1
            e_before = None if b is None else b / m.value - 1
            rows.append((split, case.id, m.metric.value, m.value, b, after, e_before, e_after))
            fmt = (lambda v: f"{v:,.0f}") if m.metric.value == "kv_cache_tokens" else (lambda v: f"{v:.2f}")
            print(f"| {split} | {case.id} | {case.engine.value} {case.engine_version} | {case.gpu} × {case.gpus} "
                  f"({case.tp}, {case.pp}) | {m.metric.value} | {fmt(m.value)} | "
                  f"{'—' if b is None else fmt(b)} | {'—' if e_before is None else f'{e_before:+.1%}'} | "
                  f"{fmt(after)} | {e_after:+.1%} |" + (f" {tstr} |" if args.terms else " |"))
    for label, idx in (("before", 6), ("after", 7)):
        errs = [abs(r[idx]) for r in rows if r[idx] is not None]
        if errs:
            within = sum(e <= 0.05 for e in errs)
            print(f"\n{label}: {within}/{len(errs)} figures within 5 %, median |error| {statistics.median(errs):.1%}, "
                  f"max {max(errs):.1%}", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
