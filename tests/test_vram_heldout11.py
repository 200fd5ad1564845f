"""The eleventh held-out round of issue 11's kinds (published_memory_heldout_kinds11.yaml, "new kinds 11"): placed
byte-identical to its freeze record and evaluated once, on the code as the file was frozen.

The file and its README text were frozen by digest (tests/data/held_out_freezes.md, "Session 13", commit 8640aae) after
the eleventh formula round (commit a305df8); no estimator file changed between the freeze and the evaluation (commit
8771c3b), so the rows' 'before' (BASELINE11_GIB) and the evaluation's own estimates (ROUND11_AT_EVAL_GIB) are the same
code's. Decided at the freeze: one reading of the 3 rows (one source, hpcaitech/ColossalAI's BERT example); they are
classifiers, not masked-LM, so they test the layers' count, not the eleventh formula round's masked-LM head. A row the
estimator refuses is printed as refused and counted as a miss. The digest and README-text checks are the registry's
(tests/test_held_out_rounds.py).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers.held_out import load_accuracy_bench

ROOT = Path(__file__).resolve().parents[1]
NAME = "published_memory_heldout_kinds11.yaml"
READING = "### Reading the eleventh round's held-out evaluation"
SINCE = "#### Since the evaluation (eleventh round)"
COLOSSALAI = "hpcaitech/ColossalAI"
KINDS = {"encoder-full-ddp": 1, "encoder-amp-ddp": 1, "encoder-zero1": 1}


@pytest.fixture(scope="module")
def bench():
    return load_accuracy_bench("accuracy_bench_heldout11")


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog

    return load_catalog()


@pytest.fixture(scope="module")
def results(bench, catalog):
    mem, bounds = bench.evaluate_all_memory(catalog)
    return mem, bounds, bench.evaluate_hours(catalog)


@pytest.fixture(scope="module")
def report(bench, results):
    mem, bounds, hours = results
    return bench.render(mem, bounds, hours, bench.load_errata())


@pytest.fixture(scope="module")
def held(results):
    return [r for r in results[0] if r.set == "new kinds 11"]


def _readme(bench) -> str:
    return (bench.DATA / "published_memory_README.md").read_text(encoding="utf-8")


def test_no_erratum_touches_the_file(bench):
    """The one evaluation was a measurement of the file as frozen: no erratum names it, in the record or as loaded."""
    assert not [e for e in bench.load_errata() if e["file"] == NAME]
    assert "heldout_kinds11" not in bench.ERRATA_FILE.read_text(encoding="utf-8")
    as_read = bench.load_memory(bench.HELDOUT_KINDS11_FILE, bench.load_errata())
    assert as_read == bench.load_yaml(bench.HELDOUT_KINDS11_FILE)


def test_the_round_holds_out_one_new_source_in_a_set_of_its_own(bench):
    """Every row is held out, from one repository no earlier file cites (its organisation's other repository,
    ColossalAI-Pytorch-lightning, is a spent source of its own); three BERT-base-shaped classifiers with a published
    shape, no LM head, allocated, grade B; the set is its own."""
    repo = lambda url: re.sub(r"/blob/[^/]+/", "/blob/*/", url).split("/blob/")[0]  # noqa: E731
    earlier = set()
    for paths in (v for k, v in bench.MEMORY_SETS.items() if k != "new kinds 11"):
        for path in paths:
            data = bench.load_yaml(path)
            earlier |= {repo(r["source"]) for r in data["rows"] + data.get("bounds", [])}
    data = bench.load_yaml(bench.HELDOUT_KINDS11_FILE)
    rows = data["rows"]
    assert len(rows) == 3 and not data.get("bounds")
    assert {r["split"] for r in rows} == {"holdout"}
    assert {k: sum(r["kind"] == k for r in rows) for k in KINDS} == KINDS
    assert {repo(r["source"]).removeprefix("https://github.com/") for r in rows} == {COLOSSALAI}
    assert {(r["grade"], r["measure"]) for r in rows} == {("B", "allocated")}
    assert not {repo(r["source"]) for r in rows} & earlier, "held-out sources must be new"
    for r in rows:
        w = r["workload"]
        assert "model" not in r and r["shape"]["kind"] == "encoder" and r["shape"]["vocab"] == 1000, r["id"]
        assert w["mode"] == "full" and "offload" not in w and (w["batch_size"], w["seq_len"], w["gpus"]) == (32, 512, 2)
        assert not w.get("output_kept") and not w.get("flash_attention"), r["id"]
    assert bench.MEMORY_SETS["new kinds 11"] == bench.HELDOUT_OF_SET["new kinds 11"] == (bench.HELDOUT_KINDS11_FILE,)


def test_no_fitter_or_calibration_reads_the_file(bench):
    """Only benchmarks/accuracy.py names the file; no formula round's calibration record holds it."""
    named = [p for p in list((ROOT / "tools").rglob("*.py")) + list((ROOT / "knowledge").rglob("*.py"))
             + list((ROOT / "benchmarks").glob("*.py"))
             if "heldout_kinds11" in p.read_text(encoding="utf-8") and p.name != "accuracy.py"]
    assert not named
    for record in (bench.BEFORE_ROUND9, bench.BEFORE_ROUND10):
        assert NAME not in record
    assert "new kinds 11" not in bench.BEFORE_ROUND11_SETS and bench.BEFORE_ROUND11_ALL[2] == 436
    assert not set(bench.BEFORE_ROUND11_GIB) & set(bench.BASELINE11_GIB)


def test_the_formula_round_readings_keep_to_the_rows_they_read(bench, results, report):
    """The ninth and tenth formula rounds read 418 spent rows and the eleventh 436; the eleventh held-out round's 3 rows,
    placed after them, are not counted in their 'all' rows nor in their largest residuals (nor are the twelfth held-out
    round's 17 and the thirteenth's 3, placed later)."""
    mem = [r for r in results[0] if r.set not in ("new kinds 11", "new kinds 12", "new kinds 13")]
    assert len(mem) == 436 and len(results[0]) == 459
    for heading, n in (("### Reading the ninth formula round (calibration only)", 418),
                       ("### Reading the tenth formula round (calibration only)", 418),
                       ("### Reading the eleventh formula round (spent data only: no fresh held-out set)", 436)):
        reading = report[report.index(heading):]
        reading = reading[:reading.index("\n### ", 10)]
        assert re.search(rf"\| all(?: rows)? \| [^|]+ / {n} \| [^|]+ / {n} \|", reading), heading
        assert "colossalai-bert-" not in reading, heading


def test_every_row_carries_the_estimate_of_the_code_it_was_frozen_against(bench, held):
    """Every row has its 'before' (BASELINE11_GIB: commit 8640aae, computed once at the evaluation); no formula changed
    between the freeze and the evaluation, so the evaluation's estimates are those to the table's 0.01 GiB rounding."""
    assert [r.id for r in held] == [r["id"] for r in bench.load_yaml(bench.HELDOUT_KINDS11_FILE)["rows"]]
    assert set(bench.BASELINE11_GIB) == {r.id for r in held} and all(r.before_gib is not None for r in held)
    before = bench._summary([r.before_error for r in held])
    assert (round(before[0], 3), round(before[1], 3), before[2]) == (0.020, 0.043, 3)
    for r in held:
        assert abs(bench.ROUND11_AT_EVAL_GIB[r.id] - bench.BASELINE11_GIB[r.id]) <= 0.005 + 1e-9, r.id


def test_the_round_was_evaluated_once_and_its_figures_are_the_recorded_ones(bench, held):
    """The one evaluation (3 rows: median 1.9 %, max 4.3 %, 3 of 3 within 35 %, none refused; both targets met): the
    DDP rows under (fp32 -1.9 %, fp16 autocast -4.3 %), the ZeRO-1 row over (+0.8 %)."""
    assert set(bench.ROUND11_AT_EVAL_GIB) == {r.id for r in held}
    then = {r.id: bench.ROUND11_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in held}
    at_eval = bench._summary(list(then.values()))
    assert bench.ROUND11_HELDOUT_FIRST_EVAL == (0.019, 0.043)
    assert (round(at_eval[0], 3), round(at_eval[1], 3)) == bench.ROUND11_HELDOUT_FIRST_EVAL
    assert at_eval[0] <= bench.TARGET_MEDIAN and at_eval[1] <= bench.TARGET_MAX
    assert {k: round(e, 3) for k, e in then.items()} == {
        "colossalai-bert-vocab1k-ddp-fp32-2gpu-b32": -0.019,
        "colossalai-bert-vocab1k-ddp-fp16-amp-2gpu-b32": -0.043,
        "colossalai-bert-vocab1k-lowlevelzero1-fp16-2gpu-b32": 0.008,
    }
    frozen = "\n".join(bench.ROUND11_HELDOUT_READING_AT_EVAL)
    said = "At this evaluation, all 3 rows: median 1.9% (target met), max 4.3% (target met); 3 of 3 rows within 35%"
    assert said in frozen and "no row refused by the estimator" in frozen and "Rows over the max target: none." in frozen
    assert "they are classifiers, not masked-LM, so they test the layers' count" in frozen
    assert "it never measures the QLoRA+FSDP or T5-ZeRO kinds issue 11 names" in frozen
    assert "Per source:" not in frozen and "By source:" not in frozen  # one reading, decided at the freeze


def test_the_frozen_reading_is_what_the_reading_gives_on_the_evaluations_estimates(bench, held):
    """`_round11_heldout_reading` on the rows at `ROUND11_AT_EVAL_GIB` (no erratum, as at the evaluation) gives the
    frozen text back line for line: the constant is that evaluation's output, not an edited copy."""
    at_eval = [replace(r, ours_gib=bench.ROUND11_AT_EVAL_GIB[r.id], refused=None) for r in held]
    assert bench._round11_heldout_reading(at_eval, []) == list(bench.ROUND11_HELDOUT_READING_AT_EVAL)


def test_the_shared_reading_gives_every_earlier_frozen_text_back(bench, results):
    """Rounds 10 and 11 share `_heldout_reading` (each a `HeldoutRound`): round 10's frozen text still comes back from
    its rows at its evaluation's estimates, byte for byte."""
    held10 = [r for r in results[0] if r.set == "new kinds 10"]
    at_eval = [replace(r, ours_gib=bench.ROUND10_AT_EVAL_GIB[r.id], refused=None) for r in held10]
    assert bench._round10_heldout_reading(at_eval, []) == list(bench.ROUND10_HELDOUT_READING_AT_EVAL)
    assert bench._heldout_reading(at_eval, [], bench.ROUND10) == list(bench.ROUND10_HELDOUT_READING_AT_EVAL)


def test_the_reading_is_printed_as_at_its_evaluation_and_the_live_figures_apart(bench, held, report):
    """The report's eleventh-round held-out reading is the frozen text, byte for byte, up to the live section; today's
    figures are printed under "Since the evaluation (eleventh round)", each moved row beside its estimate then."""
    frozen = "\n".join(bench.ROUND11_HELDOUT_READING_AT_EVAL)
    assert frozen.startswith(READING) and report.count(READING) == 1
    start, live = report.index(READING), report.index(SINCE)
    assert report[start:live] == frozen + "\n\n"
    now = bench._summary([r.error for r in held])
    since = report[live:report.index("\n### ", live)]
    assert f"Now: median {now[0]:.1%}, max {now[1]:.1%}" in since
    assert "(at the evaluation: median 1.9%, max 4.3%)" in since
    for r in held:
        e_then = bench.ROUND11_AT_EVAL_GIB[r.id] / r.measured_gib - 1
        row = f"| {r.id} | {r.kind} | {r.measure} | {bench._pct(e_then)} | {bench._pct(r.error)} |"
        assert (row in since) == (abs(r.ours_gib - bench.ROUND11_AT_EVAL_GIB[r.id]) > 0.005 + 1e-9), r.id
    assert "### New kinds 11 (issue 11, eleventh round; held-out)" in report
    assert "new kinds 11: held-out (spent) |" in report  # spent since the twelfth held-out round was placed
    assert "new kinds 10: held-out (spent) |" in report  # round 10 is spent since round 11's placing


def test_the_readme_evaluation_quotes_the_recorded_figures(bench):
    readme = _readme(bench)
    section = readme[readme.index("### Evaluation (eleventh round)"):]
    assert "| 1.9 % | 4.3 % | 3 of 3 | 2 of 3 | 2.0 % / 4.3 % / 3 of 3 |" in section
    assert "`colossalai-bert-vocab1k-ddp-fp32-2gpu-b32` -1.9 % (21.02 / 21.44)" in section
    assert "-4.3 % (15.56 / 16.26)" in section and "+0.8 % (11.38 / 11.29)" in section
    assert "ROUND11_HELDOUT_READING_AT_EVAL" in section
    assert "**test the layers' count, not the eleventh formula round's masked-LM head**" in section


REFUSED = [
    # full training on 4-bit weights: the estimator refuses (full_needs_16bit)
    ({"mode": "full", "precision": "int4", "batch_size": 32, "seq_len": 512, "gpus": 2, "sharding": "ddp"},
     "needs 16- or 32-bit weights"),
    # CPU offload without a sharded optimizer (offload_needs_sharding)
    ({"mode": "full", "precision": "fp32", "offload": "cpu", "sharding": "ddp", "gpus": 2, "seq_len": 512},
     "needs a sharded optimizer"),
]


@pytest.mark.parametrize(("workload", "said"), REFUSED)
def test_a_refused_row_is_printed_as_refused_and_counted_as_a_miss(bench, catalog, workload, said):
    """A row the estimator refuses (an InputError) keeps its place: evaluate_memory returns it with the reason, its
    error is unbounded, and the reading prints it as refused, a miss, beside an estimated row."""
    base = {"split": "holdout", "measure": "allocated", "measured": {"value": 21.44, "unit": "GiB"},
            "source": "https://github.com/o/r/blob/abc/README.md", "kind": "encoder-full-ddp", "grade": "B",
            "params": 86817034, "shape": {"family": "bert", "kind": "encoder", "layers": 12, "hidden": 768,
                                          "heads": 12, "intermediate": 3072, "vocab": 1000}}
    ok = dict(base, id="estimated", workload={"mode": "full", "precision": "fp32", "master_weights": "none",
                                              "optimizer": "adamw", "batch_size": 32, "seq_len": 512, "gpus": 2,
                                              "sharding": "ddp"})
    bad = dict(base, id="refused-row", workload=workload)
    mem, _ = bench.evaluate_memory(catalog, {"rows": [ok, bad]}, set_name="new kinds 11")
    assert [r.id for r in mem] == ["estimated", "refused-row"]
    estimated, refused = mem
    assert estimated.refused is None and math.isfinite(estimated.ours_gib)
    assert refused.refused and said in refused.refused and math.isinf(refused.error)
    rows = [replace(r, before_gib=1.0) for r in mem]
    reading = "\n".join(bench._round11_heldout_reading(rows, []))
    assert "1 refused by the estimator, each counted as a miss (refused-row)" in reading
    assert "| refused-row | encoder-full-ddp | allocated | 21.44 | 1.00 | refused | -95% | " \
           f"miss (refused: {refused.refused}) |" in reading
    within = int(abs(estimated.error) <= bench.TARGET_MAX)
    assert f"{within} of 2 rows within 35%" in reading
    assert f"Rows over the max target: refused-row (encoder-full-ddp, miss (refused: {refused.refused}))" in reading
