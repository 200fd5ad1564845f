"""The thirteenth held-out round of issue 11's kinds (published_memory_heldout_kinds13.yaml, "new kinds 13"): 3 rows of
one source (pytorch/ao's low-bit optimizer benchmark: timm ViT-H/14, bf16 autocast, batch 8, torch fused AdamW,
bitsandbytes AdamW8bit, torchao AdamW8bit), evaluated once on the code as the file was frozen (74b8f1d; no VRAM formula
changed up to the evaluation's 816e237). Decided at the freeze: one reading of its 3 rows. The digest and README-text
checks are the registry's (tests/test_held_out_rounds.py); only this round's 3 rows are estimated here.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.helpers.held_out import load_accuracy_bench

NAME = "published_memory_heldout_kinds13.yaml"
AT_EVAL_ERRORS = {  # estimate / figure - 1 at the one evaluation, to 0.1 %
    "torchao-vith14-bf16amp-adamw-fused-4070tis-b8": -0.082,
    "torchao-vith14-bf16amp-bnb-adamw8bit-4070tis-b8": -0.026,
    "torchao-vith14-bf16amp-ao-adamw8bit-4070tis-b8": -0.026,
}


@pytest.fixture(scope="module")
def bench():
    return load_accuracy_bench("accuracy_bench_heldout13")


@pytest.fixture(scope="module")
def held(bench):
    from knowledge.catalog import load_catalog

    data = bench.load_memory(bench.HELDOUT_KINDS13_FILE, bench.load_errata())
    return bench.evaluate_memory(load_catalog(), data, set_name="new kinds 13")[0]


def test_one_new_source_in_a_set_of_its_own_and_no_erratum(bench):
    repo = lambda url: re.sub(r"/blob/.*", "", url)  # noqa: E731
    earlier = {repo(r["source"]) for k, paths in bench.MEMORY_SETS.items() if k != "new kinds 13" for p in paths
               for r in bench.load_yaml(p)["rows"] + bench.load_yaml(p).get("bounds", [])}
    rows = bench.load_yaml(bench.HELDOUT_KINDS13_FILE)["rows"]
    assert [r["id"] for r in rows] == list(AT_EVAL_ERRORS) and {r["split"] for r in rows} == {"holdout"}
    assert {repo(r["source"]) for r in rows} == {"https://github.com/pytorch/ao"} and not earlier & {repo(rows[0]["source"])}
    assert [r["workload"]["optimizer"] for r in rows] == ["adamw", "adamw8bit", "adamw8bit"]
    assert bench.MEMORY_SETS["new kinds 13"] == bench.HELDOUT_OF_SET["new kinds 13"] == (bench.HELDOUT_KINDS13_FILE,)
    assert not [e for e in bench.load_errata() if e["file"] == NAME]


def test_the_round_was_evaluated_once_and_its_figures_are_the_recorded_ones(bench, held):
    """2.6 % / 8.2 %, 3 of 3 within 35 %, none refused; 'before' (74b8f1d) equals the evaluation to 0.01 GiB."""
    assert set(bench.ROUND13_AT_EVAL_GIB) == set(bench.BASELINE13_GIB) == {r.id for r in held}
    then = {r.id: bench.ROUND13_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in held}
    assert {k: round(e, 3) for k, e in then.items()} == AT_EVAL_ERRORS
    s = bench._summary(list(then.values()))
    assert (round(s[0], 3), round(s[1], 3)) == bench.ROUND13_HELDOUT_FIRST_EVAL == (0.026, 0.082)
    for r in held:
        assert abs(bench.ROUND13_AT_EVAL_GIB[r.id] - bench.BASELINE13_GIB[r.id]) <= 0.005 + 1e-9, r.id
    frozen = "\n".join(bench.ROUND13_HELDOUT_READING_AT_EVAL)
    assert ("all 3 rows: median 2.6% (target met), max 8.2% (target met); 3 of 3 rows within 35%; 3 of 3 under their "
            "figure; no row refused by the estimator") in frozen
    assert "Per source:" not in frozen and "By kind:" not in frozen  # one reading, decided at the freeze


def test_the_frozen_reading_is_what_the_reading_gives_on_the_evaluations_estimates(bench, held):
    at_eval = [replace(r, ours_gib=bench.ROUND13_AT_EVAL_GIB[r.id], refused=None) for r in held]
    assert bench._heldout_reading(at_eval, [], bench.ROUND13) == list(bench.ROUND13_HELDOUT_READING_AT_EVAL)


def test_the_readme_evaluation_quotes_the_recorded_figures(bench):
    readme = (bench.DATA / "published_memory_README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Evaluation (thirteenth round)"):]
    assert "| all 3 (in full) | 2.6 % | 8.2 % | 3 of 3 | 3 of 3 | both met |" in section
    assert "`torchao-vith14-bf16amp-adamw-fused-4070tis-b8` 11.06 / 12.05 (-8.2 %)" in section
    assert "ROUND13_HELDOUT_READING_AT_EVAL" in section and "Decided at these freezes" in section
