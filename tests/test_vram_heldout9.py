"""The ninth held-out round of issue 11's kinds (published_memory_heldout_kinds9.yaml, "new kinds 9"): placed
byte-identical to its freeze record and evaluated once, after the tenth formula round (commit 9362a05).

The file and its README text were frozen by digest (tests/data/held_out_freezes.md, "Session 9", commit b3fa46a) before
that round's changes were committed; the rows' 'before' (BASELINE9_GIB) is the estimate of the code as the file was
frozen, and the evaluation's own estimates are ROUND9_AT_EVAL_GIB. Decided at the freeze: the round is one small
vision-only source (open-mmlab/mmaction2: 4 TSN ResNet-50 rows, 2 TimeSformer ViT-B/16 rows), never a reading of the
LLM kinds. A row the estimator refuses is printed as refused and counted as a miss.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers.held_out import load_accuracy_bench

ROOT = Path(__file__).resolve().parents[1]
NAME = "published_memory_heldout_kinds9.yaml"
READING = "### Reading the ninth round's held-out evaluation"
SINCE = "#### Since the evaluation (ninth round)"
KINDS = {"vision-cnn-full-ddp": 4, "vision-video-full-ddp": 2}


@pytest.fixture(scope="module")
def bench():
    return load_accuracy_bench("accuracy_bench_heldout9")


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
    return [r for r in results[0] if r.set == "new kinds 9"]


def _readme(bench) -> str:
    return (bench.DATA / "published_memory_README.md").read_text(encoding="utf-8")


def test_no_erratum_touches_the_file(bench):
    """The one evaluation was a measurement of the file as frozen: no erratum names it, in the record or as loaded."""
    assert not [e for e in bench.load_errata() if e["file"] == NAME]
    assert "heldout_kinds9" not in bench.ERRATA_FILE.read_text(encoding="utf-8")
    as_read = bench.load_memory(bench.HELDOUT_KINDS9_FILE, bench.load_errata())
    assert as_read == bench.load_yaml(bench.HELDOUT_KINDS9_FILE)


def test_the_round_holds_out_one_new_vision_source_in_a_set_of_its_own(bench):
    """Every row is held out, vision-only, grade C, from one repository no earlier file cites; the set is its own."""
    repo = lambda url: re.sub(r"/blob/[^/]+/", "/blob/*/", url).split("/blob/")[0]  # noqa: E731
    earlier = set()
    for paths in (v for k, v in bench.MEMORY_SETS.items() if k != "new kinds 9"):
        for path in paths:
            data = bench.load_yaml(path)
            earlier |= {repo(r["source"]) for r in data["rows"] + data.get("bounds", [])}
    data = bench.load_yaml(bench.HELDOUT_KINDS9_FILE)
    rows = data["rows"]
    assert len(rows) == 6 and not data.get("bounds")
    assert {r["split"] for r in rows} == {"holdout"} and {r["grade"] for r in rows} == {"C"}
    assert {k: sum(r["kind"] == k for r in rows) for k in KINDS} == KINDS
    assert {repo(r["source"]) for r in rows} == {"https://github.com/open-mmlab/mmaction2"}
    assert not {repo(r["source"]) for r in rows} & earlier, "held-out sources must be new"
    assert bench.MEMORY_SETS["new kinds 9"] == bench.HELDOUT_OF_SET["new kinds 9"] == (bench.HELDOUT_KINDS9_FILE,)


def test_no_fitter_or_calibration_reads_the_file(bench):
    """Only benchmarks/accuracy.py names the file; no formula round's calibration record holds it."""
    named = [p for p in list((ROOT / "tools").rglob("*.py")) + list((ROOT / "knowledge").rglob("*.py"))
             + list((ROOT / "benchmarks").glob("*.py"))
             if "heldout_kinds9" in p.read_text(encoding="utf-8") and p.name != "accuracy.py"]
    assert not named
    for record in (bench.BEFORE_ROUND9, bench.BEFORE_ROUND10):
        assert NAME not in record
    assert bench.BEFORE_ROUND10_ALL[2] == 418


def test_the_formula_round_readings_keep_to_the_rows_they_read(bench, results, report):
    """The ninth and tenth formula rounds read 418 spent rows; the six held-out rows, placed after them, are not counted
    in their 'all' rows nor in their largest residuals (nor are the tenth held-out round's 12, placed later)."""
    mem = [r for r in results[0] if r.set not in ("new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12",
                                                  "new kinds 13")]
    assert len(mem) == 418 and len(results[0]) == 459
    for heading in ("### Reading the ninth formula round (calibration only)",
                    "### Reading the tenth formula round (calibration only)"):
        reading = report[report.index(heading):]
        reading = reading[:reading.index("\n### ", 10)]
        assert re.search(r"\| all \| [^|]+ / 418 \| [^|]+ / 418 \|", reading), heading
        assert "mmaction2-" not in reading, heading


def test_every_row_carries_the_estimate_of_the_code_it_was_frozen_against(bench, held):
    """Every row has its 'before' (BASELINE9_GIB: commit b3fa46a, computed once at the evaluation) and the tenth round
    moved none of them beyond that table's 0.01 GiB rounding."""
    assert [r.id for r in held] == [r["id"] for r in bench.load_yaml(bench.HELDOUT_KINDS9_FILE)["rows"]]
    assert set(bench.BASELINE9_GIB) == {r.id for r in held} and all(r.before_gib is not None for r in held)
    before = bench._summary([r.before_error for r in held])
    assert (round(before[0], 3), round(before[1], 3), before[2]) == (0.011, 0.338, 6)
    for r in held:
        assert abs(bench.ROUND9_AT_EVAL_GIB[r.id] - bench.BASELINE9_GIB[r.id]) <= 0.005 + 1e-9, r.id


def test_the_round_was_evaluated_once_and_its_figures_are_the_recorded_ones(bench, held):
    """The one evaluation (6 rows: median 1.1 %, max 33.7 %, 6 of 6 within 35 %, none refused) is recorded with its
    per-row estimates; the two TimeSformer rows are the farthest, the four TSN rows within 1.2 %."""
    assert set(bench.ROUND9_AT_EVAL_GIB) == {r.id for r in held}
    then = {r.id: bench.ROUND9_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in held}
    at_eval = bench._summary(list(then.values()))
    assert bench.ROUND9_HELDOUT_FIRST_EVAL == (0.011, 0.337)
    assert (round(at_eval[0], 3), round(at_eval[1], 3)) == bench.ROUND9_HELDOUT_FIRST_EVAL
    assert sum(abs(e) <= bench.TARGET_MAX for e in then.values()) == 6
    assert all(e < 0 for e in then.values())
    by_kind = {k: bench._summary([then[r.id] for r in held if r.kind == k]) for k in KINDS}
    cnn_max, video_median = by_kind["vision-cnn-full-ddp"][1], by_kind["vision-video-full-ddp"][0]
    assert (round(cnn_max, 3), round(video_median, 3)) == (0.012, 0.284)
    frozen = "\n".join(bench.ROUND9_HELDOUT_READING_AT_EVAL)
    said = "At this evaluation: median 1.1% (target met), max 33.7% (target met); 6 of 6 rows within 35%"
    assert said in frozen and "no row refused by the estimator" in frozen
    assert "never as a reading of the LLM kinds" in frozen


def test_the_frozen_reading_is_what_the_reading_gives_on_the_evaluations_estimates(bench, held):
    """`_round9_heldout_reading` on the rows at `ROUND9_AT_EVAL_GIB` (no erratum, as at the evaluation) gives the frozen
    text back line for line: the constant is that evaluation's output, not an edited copy."""
    at_eval = [replace(r, ours_gib=bench.ROUND9_AT_EVAL_GIB[r.id], refused=None) for r in held]
    assert bench._round9_heldout_reading(at_eval, []) == list(bench.ROUND9_HELDOUT_READING_AT_EVAL)


def test_the_reading_is_printed_as_at_its_evaluation_and_the_live_figures_apart(bench, held, report):
    """The report's ninth-round held-out reading is the frozen text, byte for byte, up to the live section; today's
    figures are printed under "Since the evaluation (ninth round)", each moved row beside its estimate then."""
    frozen = "\n".join(bench.ROUND9_HELDOUT_READING_AT_EVAL)
    assert frozen.startswith(READING) and report.count(READING) == 1
    start, live = report.index(READING), report.index(SINCE)
    assert report[start:live] == frozen + "\n\n"
    now = bench._summary([r.error for r in held])
    since = report[live:report.index("\n### ", live)]
    assert f"Now: median {now[0]:.1%}, max {now[1]:.1%}" in since
    assert "(at the evaluation: median 1.1%, max 33.7%)" in since
    assert "By kind (CNN vs ViT video):" in since
    for r in held:
        e_then = bench.ROUND9_AT_EVAL_GIB[r.id] / r.measured_gib - 1
        row = f"| {r.id} | {r.kind} | {r.measure} | {bench._pct(e_then)} | {bench._pct(r.error)} |"
        assert (row in since) == (abs(r.ours_gib - bench.ROUND9_AT_EVAL_GIB[r.id]) > 0.005 + 1e-9), r.id
    assert "### New kinds 9 (issue 11, ninth round; held-out)" in report
    assert "new kinds 9: held-out (spent) |" in report  # spent since the tenth held-out round was placed


def test_the_readme_evaluation_quotes_the_recorded_figures(bench):
    readme = _readme(bench)
    section = readme[readme.index("### Evaluation (ninth round)"):]
    assert "| all 6 | 1.1 % | 33.7 % | 6 of 6 | 6 of 6 | 1.1 % / 33.8 % / 6 of 6 |" in section
    assert "ROUND9_HELDOUT_READING_AT_EVAL" in section and "never as a reading of the LLM kinds" in section


REFUSED = [
    # full training on 4-bit weights: the estimator refuses (full_needs_16bit)
    ({"mode": "full", "precision": "int4", "batch_size": 8}, "needs 16- or 32-bit weights"),
    # CPU offload without a sharded optimizer (offload_needs_sharding)
    ({"mode": "full", "precision": "fp32", "offload": "cpu", "sharding": "ddp", "gpus": 8},
     "needs a sharded optimizer"),
    # 8 GPUs that tensor parallelism 3 does not divide (gpus_not_multiple)
    ({"mode": "full", "precision": "fp32", "gpus": 8, "tp": 3}, "not a multiple of tp × pp = 3"),
]


@pytest.mark.parametrize(("workload", "said"), REFUSED)
def test_a_refused_row_is_printed_as_refused_and_counted_as_a_miss(bench, catalog, workload, said):
    """A row the estimator refuses (an InputError) keeps its place: evaluate_memory returns it with the reason, its
    error is unbounded, and the reading and the row table print it as refused, a miss, beside an estimated row."""
    base = {"split": "holdout", "measure": "allocated", "measured": {"value": 8344, "unit": "MiB"},
            "source": "https://github.com/o/r/blob/abc/README.md", "kind": "vision-cnn-full-ddp", "grade": "C",
            "model": "resnet-50"}
    ok = dict(base, id="estimated", workload={"mode": "full", "precision": "fp32", "optimizer": "sgd",
                                              "batch_size": 96, "gpus": 8, "sharding": "ddp"})
    bad = dict(base, id="refused-row", workload=workload)
    mem, _ = bench.evaluate_memory(catalog, {"rows": [ok, bad]}, set_name="new kinds 9")
    assert [r.id for r in mem] == ["estimated", "refused-row"]
    estimated, refused = mem
    assert estimated.refused is None and math.isfinite(estimated.ours_gib)
    assert refused.refused and said in refused.refused and math.isinf(refused.error)
    rows = [replace(r, before_gib=1.0) for r in mem]
    reading = "\n".join(bench._round9_heldout_reading(rows, []))
    assert "1 refused by the estimator, each counted as a miss (refused-row)" in reading
    assert "| refused-row | vision-cnn-full-ddp | allocated | 8.15 | 1.00 | refused | -88% | " \
           f"miss (refused: {refused.refused}) |" in reading
    # the refusal is a miss: it never counts within the target, and it is the row over it that the text names first
    within = int(abs(estimated.error) <= bench.TARGET_MAX)
    assert f"{within} of 2 rows within 35%" in reading
    assert f"Rows over the max target: refused-row (vision-cnn-full-ddp, miss (refused: {refused.refused})" in reading
    table = "\n".join(bench._memory_table(rows, with_kind=True, with_grade=True))
    assert f"| refused | -88% | miss (refused: {refused.refused}) |" in table
