"""The tenth held-out round of issue 11's kinds (published_memory_heldout_kinds10.yaml, "new kinds 10"): placed
byte-identical to its freeze record and evaluated once, on the code as the file was frozen.

The file and its README text were frozen by digest (tests/data/held_out_freezes.md, "Session 12", commit 1da0eee) after
the tenth formula round (commit 9362a05); no estimator file changed between the freeze and the evaluation, so the rows'
'before' (BASELINE10_GIB) and the evaluation's own estimates (ROUND10_AT_EVAL_GIB) are the same code's. Decided at the
freeze: one reading of the 12 rows and one per source (mila-iqia/milabench: 8 BERT-base rows; mli/transformers-
benchmarks: 4 Megatron-LM BERT-large / GPT-2 medium rows); it measures encoder and GPT-2-class training, never the
QLoRA+FSDP or T5-ZeRO kinds issue 11 names. A row the estimator refuses is printed as refused and counted as a miss.
The digest and README-text checks are the registry's (tests/test_held_out_rounds.py).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers.held_out import load_accuracy_bench

ROOT = Path(__file__).resolve().parents[1]
NAME = "published_memory_heldout_kinds10.yaml"
READING = "### Reading the tenth round's held-out evaluation"
SINCE = "#### Since the evaluation (tenth round)"
MILABENCH, MLI = "mila-iqia/milabench", "mli/transformers-benchmarks"
KINDS = {"encoder-amp-single-gpu": 5, "encoder-full-single-gpu": 3, "encoder-pretrain-single-gpu": 1,
         "pretrain-single-gpu": 1, "pretrain-ddp": 1, "pretrain-tp": 1}


@pytest.fixture(scope="module")
def bench():
    return load_accuracy_bench("accuracy_bench_heldout10")


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
    return [r for r in results[0] if r.set == "new kinds 10"]


def _readme(bench) -> str:
    return (bench.DATA / "published_memory_README.md").read_text(encoding="utf-8")


def test_no_erratum_touches_the_file(bench):
    """The one evaluation was a measurement of the file as frozen: no erratum named it then. The only errata on it are
    the eleventh formula round's, after the evaluation (spent data): each restates one milabench row's workload as
    masked-LM training (mode full -> pretrain) with the model output kept through backward, and changes nothing else;
    the Megatron rows are read as frozen."""
    errata = bench.ERRATA_FILE.read_text(encoding="utf-8")
    later = errata[errata.index("# Eleventh formula round"):]
    assert "heldout_kinds10" not in errata[:errata.index("# Eleventh formula round")]
    mine = [e for e in bench.load_errata() if e["file"] == NAME]
    assert {e["id"] for e in mine} == {r["id"] for r in bench.load_yaml(bench.HELDOUT_KINDS10_FILE)["rows"]
                                        if r["id"].startswith("milabench-")}
    for e in mine:
        assert f"id: {e['id']}" in later and e["field"] == "workload", e["id"]
        assert e["was"]["mode"] == "full" and e["now"]["mode"] == "pretrain" and e["now"]["output_kept"] is True
        assert {k: v for k, v in e["now"].items() if k not in ("mode", "output_kept")} == \
            {k: v for k, v in e["was"].items() if k != "mode"}, e["id"]
    as_read = bench.load_memory(bench.HELDOUT_KINDS10_FILE, bench.load_errata())
    frozen = bench.load_yaml(bench.HELDOUT_KINDS10_FILE)
    assert [r for r in as_read["rows"] if not r["id"].startswith("milabench-")] == \
        [r for r in frozen["rows"] if not r["id"].startswith("milabench-")]


def test_the_round_holds_out_two_new_sources_in_a_set_of_its_own(bench):
    """Every row is held out, from two repositories no earlier file cites (milabench 8 rows, grade B, device memory;
    mli/transformers-benchmarks 4 rows, grade C, allocated); encoder and GPT-2-class training only; the set is its own."""
    repo = lambda url: re.sub(r"/blob/[^/]+/", "/blob/*/", url).split("/blob/")[0]  # noqa: E731
    earlier = set()
    for paths in (v for k, v in bench.MEMORY_SETS.items() if k != "new kinds 10"):
        for path in paths:
            data = bench.load_yaml(path)
            earlier |= {repo(r["source"]) for r in data["rows"] + data.get("bounds", [])}
    data = bench.load_yaml(bench.HELDOUT_KINDS10_FILE)
    rows = data["rows"]
    assert len(rows) == 12 and not data.get("bounds")
    assert {r["split"] for r in rows} == {"holdout"}
    assert {k: sum(r["kind"] == k for r in rows) for k in KINDS} == KINDS
    by_repo = {}
    for r in rows:
        by_repo.setdefault(repo(r["source"]).removeprefix("https://github.com/"), []).append(r)
    assert {k: len(v) for k, v in by_repo.items()} == {MILABENCH: 8, MLI: 4}
    assert {(r["grade"], r["measure"]) for r in by_repo[MILABENCH]} == {("B", "device")}
    assert {(r["grade"], r["measure"]) for r in by_repo[MLI]} == {("C", "allocated")}
    assert not {repo(r["source"]) for r in rows} & earlier, "held-out sources must be new"
    # none of the weakest kinds the issue names: no QLoRA/LoRA, no FSDP/offload, no ZeRO, no T5
    for r in rows:
        w = r["workload"]
        assert w["mode"] in ("full", "pretrain") and w.get("sharding") in ("none", "ddp") and "offload" not in w, r["id"]
        assert r["model"] in ("bert-base", "bert-large", "gpt2-medium"), r["id"]
    assert bench.MEMORY_SETS["new kinds 10"] == bench.HELDOUT_OF_SET["new kinds 10"] == (bench.HELDOUT_KINDS10_FILE,)


def test_no_fitter_or_calibration_reads_the_file(bench):
    """Only benchmarks/accuracy.py names the file; no formula round's calibration record holds it."""
    named = [p for p in list((ROOT / "tools").rglob("*.py")) + list((ROOT / "knowledge").rglob("*.py"))
             + list((ROOT / "benchmarks").glob("*.py"))
             if "heldout_kinds10" in p.read_text(encoding="utf-8") and p.name != "accuracy.py"]
    assert not named
    for record in (bench.BEFORE_ROUND9, bench.BEFORE_ROUND10):
        assert NAME not in record
    assert bench.BEFORE_ROUND10_ALL[2] == 418


def test_the_formula_round_readings_keep_to_the_rows_they_read(bench, results, report):
    """The ninth and tenth formula rounds read 418 spent rows; the held-out rows of rounds 9 and 10, placed after them,
    are not counted in their 'all' rows nor in their largest residuals."""
    mem = [r for r in results[0] if r.set not in ("new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12",
                                                  "new kinds 13")]
    assert len(mem) == 418 and len(results[0]) == 459
    for heading in ("### Reading the ninth formula round (calibration only)",
                    "### Reading the tenth formula round (calibration only)"):
        reading = report[report.index(heading):]
        reading = reading[:reading.index("\n### ", 10)]
        assert re.search(r"\| all \| [^|]+ / 418 \| [^|]+ / 418 \|", reading), heading
        assert "milabench-" not in reading and "mli-megatron-" not in reading, heading


def test_every_row_carries_the_estimate_of_the_code_it_was_frozen_against(bench, held):
    """Every row has its 'before' (BASELINE10_GIB: commit 1da0eee, computed once at the evaluation); no formula changed
    between the freeze and the evaluation, so the evaluation's estimates are those to the table's 0.01 GiB rounding."""
    assert [r.id for r in held] == [r["id"] for r in bench.load_yaml(bench.HELDOUT_KINDS10_FILE)["rows"]]
    assert set(bench.BASELINE10_GIB) == {r.id for r in held} and all(r.before_gib is not None for r in held)
    before = bench._summary([r.before_error for r in held])
    assert (round(before[0], 3), round(before[1], 3), before[2]) == (0.321, 0.423, 12)
    for r in held:
        assert abs(bench.ROUND10_AT_EVAL_GIB[r.id] - bench.BASELINE10_GIB[r.id]) <= 0.005 + 1e-9, r.id


def test_the_round_was_evaluated_once_and_its_figures_are_the_recorded_ones(bench, held):
    """The one evaluation (12 rows: median 32.2 %, max 42.4 %, 8 of 12 within 35 %, none refused), pooled and per source
    as decided at the freeze: milabench's 8 BERT-base rows 34.8 % / 42.4 %, 4 of 8 within 35 %, all under; the 4
    Megatron-LM rows 2.0 % / 5.4 %, 4 of 4, all over."""
    assert set(bench.ROUND10_AT_EVAL_GIB) == {r.id for r in held}
    then = {r.id: bench.ROUND10_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in held}
    at_eval = bench._summary(list(then.values()))
    assert bench.ROUND10_HELDOUT_FIRST_EVAL == (0.322, 0.424)
    assert (round(at_eval[0], 3), round(at_eval[1], 3)) == bench.ROUND10_HELDOUT_FIRST_EVAL
    assert sum(abs(e) <= bench.TARGET_MAX for e in then.values()) == 8
    for repo, (med, mx, n, within, under) in {MILABENCH: (0.348, 0.424, 8, 4, 8), MLI: (0.020, 0.054, 4, 4, 0)}.items():
        errs = [then[r.id] for r in held if r.source.startswith(f"https://github.com/{repo}/")]
        s = bench._summary(errs)
        assert (round(s[0], 3), round(s[1], 3), s[2]) == (med, mx, n), repo
        assert sum(abs(e) <= bench.TARGET_MAX for e in errs) == within and sum(e < 0 for e in errs) == under, repo
    frozen = "\n".join(bench.ROUND10_HELDOUT_READING_AT_EVAL)
    said = "At this evaluation, all 12 rows: median 32.2% (target MISSED), max 42.4% (target MISSED); 8 of 12 rows within 35%"
    assert said in frozen and "no row refused by the estimator" in frozen
    assert "mila-iqia/milabench, 8 rows: median 34.8%, max 42.4% (neither met), 4 of 8 within 35%" in frozen
    assert "mli/transformers-benchmarks, 4 rows: median 2.0%, max 5.4% (both met), 4 of 4 within 35%" in frozen
    assert "it never measures the QLoRA+FSDP or T5-ZeRO kinds issue 11 names" in frozen


def test_the_frozen_reading_is_what_the_reading_gives_on_the_evaluations_estimates(bench, held):
    """`_round10_heldout_reading` on the rows at `ROUND10_AT_EVAL_GIB` (no erratum, as at the evaluation) gives the
    frozen text back line for line: the constant is that evaluation's output, not an edited copy."""
    at_eval = [replace(r, ours_gib=bench.ROUND10_AT_EVAL_GIB[r.id], refused=None) for r in held]
    assert bench._round10_heldout_reading(at_eval, []) == list(bench.ROUND10_HELDOUT_READING_AT_EVAL)


def test_the_reading_is_printed_as_at_its_evaluation_and_the_live_figures_apart(bench, held, report):
    """The report's tenth-round held-out reading is the frozen text, byte for byte, up to the live section; today's
    figures are printed under "Since the evaluation (tenth round)", each moved row beside its estimate then."""
    frozen = "\n".join(bench.ROUND10_HELDOUT_READING_AT_EVAL)
    assert frozen.startswith(READING) and report.count(READING) == 1
    start, live = report.index(READING), report.index(SINCE)
    assert report[start:live] == frozen + "\n\n"
    now = bench._summary([r.error for r in held])
    since = report[live:report.index("\n### ", live)]
    assert f"Now: median {now[0]:.1%}, max {now[1]:.1%}" in since
    assert "(at the evaluation: median 32.2%, max 42.4%)" in since
    assert "By source:" in since and "By kind:" in since
    for r in held:
        e_then = bench.ROUND10_AT_EVAL_GIB[r.id] / r.measured_gib - 1
        row = f"| {r.id} | {r.kind} | {r.measure} | {bench._pct(e_then)} | {bench._pct(r.error)} |"
        assert (row in since) == (abs(r.ours_gib - bench.ROUND10_AT_EVAL_GIB[r.id]) > 0.005 + 1e-9), r.id
    assert "### New kinds 10 (issue 11, tenth round; held-out)" in report
    assert "new kinds 10: held-out (spent) |" in report  # spent since the eleventh held-out round was placed
    assert "new kinds 9: held-out (spent) |" in report  # round 9 is spent since round 10's placing


def test_the_readme_evaluation_quotes_the_recorded_figures(bench):
    readme = _readme(bench)
    section = readme[readme.index("### Evaluation (tenth round)"):]
    assert "| all 12 | 32.2 % | 42.4 % | 8 of 12 | 8 of 12 | 32.1 % / 42.3 % / 8 of 12 |" in section
    assert "| 34.8 % | 42.4 % | 4 of 8 | 8 of 8 | 34.8 % / 42.3 % / 4 of 8 |" in section
    assert "| 2.0 % | 5.4 % | 4 of 4 | 0 of 4 | 2.0 % / 5.4 % / 4 of 4 |" in section
    assert "ROUND10_HELDOUT_READING_AT_EVAL" in section
    assert "never a reading of the\nQLoRA+FSDP or T5-ZeRO kinds" in section


REFUSED = [
    # full training on 4-bit weights: the estimator refuses (full_needs_16bit)
    ({"mode": "full", "precision": "int4", "batch_size": 8, "seq_len": 512}, "needs 16- or 32-bit weights"),
    # CPU offload without a sharded optimizer (offload_needs_sharding)
    ({"mode": "full", "precision": "fp32", "offload": "cpu", "sharding": "ddp", "gpus": 8, "seq_len": 512},
     "needs a sharded optimizer"),
]


@pytest.mark.parametrize(("workload", "said"), REFUSED)
def test_a_refused_row_is_printed_as_refused_and_counted_as_a_miss(bench, catalog, workload, said):
    """A row the estimator refuses (an InputError) keeps its place: evaluate_memory returns it with the reason, its
    error is unbounded, and the reading, pooled and per source, prints it as refused, a miss, beside an estimated row."""
    base = {"split": "holdout", "measure": "device", "measured": {"value": 9895, "unit": "MiB"},
            "source": "https://github.com/o/r/blob/abc/config.yaml", "kind": "encoder-amp-single-gpu", "grade": "B",
            "model": "bert-base"}
    ok = dict(base, id="estimated", workload={"mode": "full", "precision": "fp16", "master_weights": "fp32",
                                              "optimizer": "adamw", "batch_size": 16, "seq_len": 512, "gpus": 1})
    bad = dict(base, id="refused-row", workload=workload)
    mem, _ = bench.evaluate_memory(catalog, {"rows": [ok, bad]}, set_name="new kinds 10")
    assert [r.id for r in mem] == ["estimated", "refused-row"]
    estimated, refused = mem
    assert estimated.refused is None and math.isfinite(estimated.ours_gib)
    assert refused.refused and said in refused.refused and math.isinf(refused.error)
    rows = [replace(r, before_gib=1.0) for r in mem]
    reading = "\n".join(bench._round10_heldout_reading(rows, []))
    assert "1 refused by the estimator, each counted as a miss (refused-row)" in reading
    assert "| refused-row | encoder-amp-single-gpu | device | 9.66 | 1.00 | refused | -90% | " \
           f"miss (refused: {refused.refused}) |" in reading
    within = int(abs(estimated.error) <= bench.TARGET_MAX)
    assert f"{within} of 2 rows within 35%" in reading
    assert f"o/r, 2 rows: median inf%, max inf% (neither met), {within} of 2 within 35%" in reading
    assert f"Rows over the max target: refused-row (encoder-amp-single-gpu, miss (refused: {refused.refused}))" in reading
