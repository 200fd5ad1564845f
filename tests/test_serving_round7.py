"""Serving held-out round 7 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 8",
commit 25bfbbc, before the round-7 calibration commit ad82352), read by no fitter, evaluated once; that evaluation is
kept verbatim (ROUND7_EVALUATION) and benchmarks/serving.md is the report of this commit. Reported per source and
pooled, pooled with and without its ROCm / MI300X file (decided at the freeze). Spent since the change after it
(443df97) read it: labelled "held out, round 7 (spent)", printed after round 8.

Real files, the real estimator and catalog; no mocks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "serving"
README = DATA / "README.md"
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)

EVALUATION = "### Round 7: its one evaluation (2026-12-02, after commit ad82352)"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def test_round_seven_is_reported_pooled_without_rocm_and_per_statistic(cat):
    rows = [r for r in SC.evaluate(cat) if r.split == SC.Split.heldout7]
    assert {r.statistic for r in rows if r.metric.category == "latency"} == {"mean", "median"}
    lines = SC.round7_targets(rows)
    assert any(line.startswith(f"- {SC.ROUND7_WITHOUT_ROCM}, latency: ") for line in lines)
    assert any(line.startswith("  - of which median figures") for line in lines)
    assert not any(r.split == SC.Split.heldout7 for r in SC.evaluate(cat, round7=False))


def test_the_one_evaluation_is_kept_verbatim_and_recorded_in_the_readme():
    """ROUND7_EVALUATION is that run's output; its headline figures are the ones README "Round 7: its one evaluation"
    reports."""
    frozen = "\n".join(SC.ROUND7_EVALUATION)
    for said in ("- held out, round 7, throughput: median error 45.1% over 8 figures — target ≤ 25 %: **missed**.",
                 "- held out, round 7, latency: median error 38.6% over 36 figures — target ≤ 25 %: **missed**.",
                 "- held out, round 7 without the ROCm file, latency: median error 47.3% over 4 figures — target ≤ 25 %: "
                 "**missed**.",
                 "Round 7: 38 cases, 44 figures from 4 files",
                 "| rocm_vllm_dev_docker | 32 | — | — | — | — | 38.6% (-38.6%) · 32 | 6/32 | 32/32 | 80.2% | — |",
                 "| round 7 without the ROCm file, pooled | 6 | 45.1% (+1.1%) · 8 | 3/8 | 6/8 | 154.7% | "
                 "47.3% (+47.3%) · 4 | 2/4 | 2/4 | 61.3% | — |"):
        assert said in frozen
    readme = README.read_text(encoding="utf-8").split(EVALUATION, 1)[1]
    assert "45.1 % over 8 figures" in readme and "38.6 % over 36 figures" in readme and "**missed**" in readme
    assert "47.3 % over 4 figures" in readme and "ROUND7_EVALUATION" in readme


def test_the_report_prints_the_frozen_evaluation_and_is_current(cat):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 7 (spent) follows round
    8 in the targets (pooled, then without its ROCm file) and its one evaluation is printed as frozen."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 7: its one evaluation")
    assert "\n".join(SC.ROUND7_EVALUATION) in text[start:text.index(SC.ROUND7_SINCE_HEADING)]
    targets = text.split("## Targets", 1)[1].split("### Round 7: its one evaluation", 1)[0]
    assert (targets.index("- held out, round 8 (spent), ") < targets.index("- held out, round 7 (spent), ")
            < targets.index(f"- {SC.ROUND7_WITHOUT_ROCM}, ") < targets.index("- held out, round 6 (spent), "))
    assert SC.ROUND7_WITHOUT_ROCM == "held out, round 7 (spent) without the ROCm file"
    assert "| held out, round 7 (spent) | latency |" in text and "| held out 7 (spent) | [rocmdevdocker-" in text
    assert "- held out, round 7, " not in text.replace("\n".join(SC.ROUND7_EVALUATION), "")  # relabelled outside it
    assert "held out, round 7" not in SC.report(cat, round7=False)
