"""Serving held-out round 9 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 9",
commit e101d9f, before the round-9 calibration commit ab3ed60), read by no fitter, evaluated once; that evaluation is
kept verbatim (ROUND9_EVALUATION) and benchmarks/serving.md is the report of this commit. Reported pooled, per source
and per page of the SGLang cookbook (Llama 3.1 on 8× A100, Qwen3 on 8× B200), decided at the freeze. Spent since its
evaluation was printed and read: labelled "held out, round 9 (spent)" when round 10 was placed, printed after round 10.

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

EVALUATION = "### Round 9: its one evaluation (2026-12-02, after commit ab3ed60)"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def rows(cat):
    return SC.evaluate(cat)


@pytest.mark.parametrize("page, model, gpu, cases, figures", [
    ("Llama3.1 page (llama-3.1-70b, A100-80GB × 8)", "llama-3.1-70b", "A100-80GB", 6, 24),  # Llama 3.1 on 8× A100
    ("Qwen3 page (qwen3-235b-a22b, B200 × 8)", "qwen3-235b-a22b", "B200", 9, 34),  # Qwen3-235B-A22B on 8× B200
])
def test_the_cookbook_is_split_into_its_two_pages(rows, page, model, gpu, cases, figures):
    """The pages decided at the freeze: one URL a page, each a single model on a single GPU type."""
    pages = dict(SC._round9_pages([r for r in rows if r.split == SC.Split.heldout9]))
    assert len(pages) == 2
    sel = pages[page]
    assert {r.case.model for r in sel} == {model} and {r.case.gpu for r in sel} == {gpu}
    assert (len({r.case.id for r in sel}), len(sel)) == (cases, figures)


@pytest.mark.parametrize("label", [
    "held out, round 9 (spent)",  # pooled
    "held out, round 9 (spent), source sgl_cookbook",  # per source: 15 of the 16 cases
    "held out, round 9 (spent), cookbook Llama3.1 page (llama-3.1-70b, A100-80GB × 8)",  # per page
    "held out, round 9 (spent), cookbook Qwen3 page (qwen3-235b-a22b, B200 × 8)",
])
def test_round_nine_targets_are_given_pooled_per_source_and_per_page_with_latency_per_statistic(rows, label):
    lines = SC.round9_targets(rows)
    assert any(line.startswith(f"- {label}, throughput: ") for line in lines)
    i = next(k for k, line in enumerate(lines) if line.startswith(f"- {label}, latency: "))
    assert lines[i + 1].startswith("  - of which mean figures")  # every round-9 latency figure is a mean


def test_the_kv_case_is_its_own_source_and_the_unread_round_leaves_no_line(cat, rows):
    lines = SC.round9_targets(rows)
    assert any(line.startswith("- held out, round 9 (spent), source vllm_issue_17469, KV capacity: ") for line in lines)
    assert not any(line.startswith("- held out, round 9 (spent), source vllm_issue_17469, throughput") for line in lines)
    assert not any(r.split == SC.Split.heldout9 for r in SC.evaluate(cat, round9=False))


@pytest.mark.parametrize("said", [
    "- held out, round 9, throughput: median error 9.5% over 15 figures — target ≤ 25 %: **met**.",
    "- held out, round 9, latency: median error 15.6% over 43 figures — target ≤ 25 %: **met**.",
    "- held out, round 9, KV capacity: 0/1 within 5 % (max 17.7%) — target every case: **missed**: "
    "`vllm-issue17469-v085-4xa10-qwen3-30b-a3b-tp4-kv-mml8192` kv_cache_tokens -17.7%.",
    "- held out, round 9, cookbook Llama3.1 page (llama-3.1-70b, A100-80GB × 8), throughput: median error 24.6% over 6 "
    "figures — target ≤ 25 %: **met**.",
    "- held out, round 9, cookbook Llama3.1 page (llama-3.1-70b, A100-80GB × 8), latency: median error 24.2% over 18 "
    "figures — target ≤ 25 %: **met**.",
    "- held out, round 9, cookbook Qwen3 page (qwen3-235b-a22b, B200 × 8), throughput: median error 8.5% over 9 "
    "figures — target ≤ 25 %: **met**.",
    "- held out, round 9, cookbook Qwen3 page (qwen3-235b-a22b, B200 × 8), latency: median error 8.1% over 25 "
    "figures — target ≤ 25 %: **met**.",
    "| round 9, pooled | 16 | 9.5% (+8.5%) · 15 | 12/15 | 14/15 | 155.6% | 15.6% (-5.7%) · 43 | 30/43 | 32/43 | "
    "68.9% | 0/1 (naive 0/1) |",
    "| sgl_cookbook | ttft_ms | mean | 13 | 75.9% (-49.9%) · 13 | 2/13 | 4/13 | 92.7% | 0/13 |",
    "| vllm_issue_17469 | kv_cache_tokens | single | 1 | 17.7% (-17.7%) · 1 | 0/1 | 1/1 | 32.4% | 0/1 |",
])
def test_the_one_evaluation_is_kept_verbatim(said):
    """ROUND9_EVALUATION is that run's output (2026-12-02 05:36 UTC, the estimator of ab3ed60): its headline lines."""
    assert said in SC.ROUND9_EVALUATION


def test_the_readme_records_the_one_evaluations_headline():
    readme = README.read_text(encoding="utf-8").split(EVALUATION, 1)[1]
    for said in ("9.5 % over 15 figures", "15.6 % over 43 figures", "24.6 % over 6", "24.2 % over 18",
                 "8.5 % over 9", "8.1 % over 25", "-17.7 % (198,784 → 163,632 tokens)", "ROUND9_EVALUATION"):
        assert said in readme, said


def test_the_report_prints_the_frozen_evaluation_and_is_current(cat, rows):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 9 (spent) follows round
    10 (spent since round 11 was placed) in the targets (pooled, per source, per page), before round 8 (spent); its one evaluation is printed as frozen,
    and at this commit the live figures are the frozen ones relabelled "(spent)" (a later change that moves them prints
    them under ROUND9_SINCE_HEADING)."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 9: its one evaluation")
    since = text.index(SC.ROUND9_SINCE_HEADING)
    assert "\n".join(SC.ROUND9_EVALUATION) in text[start:since]
    assert [*SC.round9_targets(rows), "", *SC.findings_round9(rows)] == SC._relabelled_round9(SC.ROUND9_EVALUATION)
    assert "The same figures as its one evaluation above, now labelled" in \
        text[since:text.index("### Round 8: its one evaluation")]
    targets = text.split("## Targets", 1)[1].split("### Round 12: its one evaluation", 1)[0]
    assert (targets.index("- held out, round 10 (spent), ") < targets.index("- held out, round 9 (spent), ")
            < targets.index("- held out, round 9 (spent), source sgl_cookbook, ")
            < targets.index("- held out, round 9 (spent), cookbook Llama3.1 page ")
            < targets.index("- held out, round 8 (spent), ") < targets.index("- held out, round 7 (spent), "))
    assert "| held out, round 9 (spent) | latency |" in text and "| held out 9 (spent) | [sglcb-sgl056-" in text
    assert "- held out, round 9, " not in text.replace("\n".join(SC.ROUND9_EVALUATION), "")  # relabelled outside it
    assert "held out, round 9" not in SC.report(cat, round9=False)
