"""Serving held-out round 10 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 12",
commit de149b1; committed unplaced, placed in cf34381), read by no fitter, evaluated once on the estimator of commit
ab3ed60 (no serving code or constant changed between the freeze and that run); that evaluation is kept verbatim
(ROUND10_EVALUATION) and benchmarks/serving.md is the report of this commit. Reported pooled and per source, the two
dennislee22 KV cases as the round's KV reading, the blog's prompt lengths read as its collector read them (decided at
the freeze). Spent since its evaluation was printed and read: labelled "held out, round 10 (spent)" when round 11 was
placed, printed after round 11 (rendered since by the function that renders round 11, `PooledRound`; its frozen text
and live figures unchanged). The checks every placed round shares (digests, the collector's README text, whole-source split, no
erratum, no fitter, every case estimated) run from the registry in tests/test_held_out_rounds.py.

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

SECTION = "# Round 10 (held out): collector's report"
EVALUATION = "## Round 10: its one evaluation (2026-12-03, the estimator of commit ab3ed60)"
KV_FILE = "heldout10_dennislee22_vllm_a100.yaml"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def rows(cat):
    return SC.evaluate(cat)


@pytest.fixture(scope="module")
def r10(rows):
    return [r for r in rows if r.split == SC.Split.heldout10]


@pytest.mark.parametrize("file, cases, figures, by_metric", [
    (SC.ROUND10_BLOG_FILE, 11, 44, {"output_tok_s": 11, "req_s": 11, "tpot_ms": 11, "e2e_ms": 11}),
    (KV_FILE, 3, 4, {"kv_cache_gib": 2, "tpot_ms": 1, "output_tok_s": 1}),
])
def test_the_two_sources_as_their_collector_describes_them(r10, file, cases, figures, by_metric):
    """The README's table: the blog 11 cases of 44 figures, dennislee22 3 of 4; no TTFT anywhere in the round."""
    sel = [r for r in r10 if r.file == file]
    assert (len({r.case.id for r in sel}), len(sel)) == (cases, figures)
    assert {m: sum(r.metric.value == m for r in sel) for m in by_metric} == by_metric
    assert not [r for r in r10 if r.metric == SC.Metric.ttft_ms]


def test_the_blogs_lengths_are_read_as_its_collector_read_them(r10):
    """evalscope's 5,000-10,000 prompt-length filter read as characters: every blog case carries input_len 1,900 tokens
    (the collector's estimate) and 2,000 output tokens; the report says so where it gives the round's targets and in
    the round's caveats (decided at the freeze)."""
    blog = [r.case for r in r10 if r.file == SC.ROUND10_BLOG_FILE]
    assert {(c.input_len, c.output_len) for c in blog} == {(1900, 2000)}
    assert {r.statistic for r in r10 if r.file == SC.ROUND10_BLOG_FILE and r.metric == SC.Metric.tpot_ms} == {"approx"}
    caveats = " ".join(SC.ROUND10_CAVEATS)
    assert "read as the collector read them" in caveats and "**characters**" in caveats and "1,900" in caveats


@pytest.mark.parametrize("label, stats", [
    ("held out, round 10 (spent)", ("mean", "approx")),  # pooled
    ("held out, round 10 (spent), source timwang_vllm_sglang_h100", ("mean", "approx")),  # per source: 11 of the 14
    ("held out, round 10 (spent), source dennislee22_vllm_a100", ("mean",)),
])
def test_round_ten_targets_are_given_pooled_and_per_source_with_latency_per_statistic(rows, label, stats):
    lines = SC.round10_targets(rows)
    assert any(line.startswith(f"- {label}, throughput: ") for line in lines)
    i = next(k for k, line in enumerate(lines) if line.startswith(f"- {label}, latency: "))
    for k, stat in enumerate(stats, start=1):
        assert lines[i + k].startswith(f"  - of which {stat} figures")


def test_the_kv_reading_is_dennislee22s_two_pools_compared_per_gpu(cat, rows, r10):
    """The round's KV reading is its two KV cases (decided at the freeze), both dennislee22's Qwen2.5-32B start-up pools
    on A100-80GB (TP 1 and TP 2), compared as printed: per GPU, the estimator's pool; the blog has no KV line."""
    kv = [r for r in r10 if r.metric.category == "kv"]
    assert {(r.case.tp, r.measured) for r in kv} == {(1, 9.70), (2, 8.22)}
    assert {r.file for r in kv} == {KV_FILE} and {r.case.model for r in kv} == {"qwen2.5-32b"}
    for r in kv:
        est = SC.estimate_serving(cat.model(r.case.model), cat.gpu(r.case.gpu), SC.request_for(r.case),
                                  allow_no_fit=True, scheduling=SC.scheduling_for(r.case))
        assert r.predicted == est.kv_cache_gib  # the per-GPU pool, not the sum over the TP group
    lines = SC.round10_targets(rows)
    assert any(line.startswith("- held out, round 10 (spent), KV capacity: 0/2 within 5 %") for line in lines)
    assert not any("source timwang_vllm_sglang_h100, KV capacity" in line for line in lines)
    assert not any(r.split == SC.Split.heldout10 for r in SC.evaluate(cat, round10=False))


def test_no_fitter_reads_round_ten(cat):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert SC.Split.heldout10 not in splits
    read = {f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)} | {f for f, _c in SC.tp_fit_cases(cat)}
    assert read and not any(f.startswith("heldout10_") for f in read)


@pytest.mark.parametrize("said", [
    "- held out, round 10, throughput: median error 9.3% over 23 figures — target ≤ 25 %: **met**.",
    "- held out, round 10, latency: median error 15.1% over 23 figures — target ≤ 25 %: **met**.",
    "- held out, round 10, KV capacity: 0/2 within 5 % (max 345.1%) — target every case: **missed**: "
    "`dennislee-vllm0101-a100-qwen25-32b-tp1-kv` kv_cache_gib -15.7%, `dennislee-vllm0101-2xa100-qwen25-32b-tp2-kv` "
    "kv_cache_gib 345.1%.",
    "- held out, round 10, source timwang_vllm_sglang_h100, throughput: median error 9.1% over 22 figures — target "
    "≤ 25 %: **met**.",
    "- held out, round 10, source timwang_vllm_sglang_h100, latency: median error 13.2% over 22 figures — target "
    "≤ 25 %: **met**.",
    "- held out, round 10, source dennislee22_vllm_a100, throughput: median error 23.4% over 1 figures — target ≤ 25 %: "
    "**met**.",
    "- held out, round 10, source dennislee22_vllm_a100, latency: median error 19.5% over 1 figures — target ≤ 25 %: "
    "**met**.",
    "| round 10, pooled | 14 | 9.3% (-8.8%) · 23 | 23/23 | 23/23 | 2364.7% | 15.1% (+11.3%) · 23 | 16/23 | 20/23 | "
    "46.7% | 0/2 (naive 0/2) |",
    "| timwang_vllm_sglang_h100 | tpot_ms | approx | 11 | 15.1% (+15.1%) · 11 | 8/11 | 10/11 | 46.7% | 0/11 |",
    "| timwang_vllm_sglang_h100 | e2e_ms | mean | 11 | 11.3% (+11.3%) · 11 | 7/11 | 9/11 | 48.6% | 0/11 |",
    "| dennislee22_vllm_a100 | kv_cache_gib | single | 2 | 180.4% (+164.7%) · 2 | 0/2 | 1/2 | 202.3% | 0/2 |",
])
def test_the_one_evaluation_is_kept_verbatim(said):
    """ROUND10_EVALUATION is that run's output (2026-12-03 11:45 UTC, the estimator of ab3ed60): its headline lines."""
    assert said in SC.ROUND10_EVALUATION


def test_the_readme_records_the_one_evaluations_headline():
    text = README.read_text(encoding="utf-8")
    assert text.index("\n" + SECTION + "\n") < text.index("\n" + EVALUATION + "\n")
    readme = text.split(EVALUATION, 1)[1]
    for said in ("9.3 % over 23 figures", "15.1 % over 23 figures", "9.1 % over 22", "13.2 % over 22",
                 "23.4 % over 1", "19.5 % over 1", "-15.7 % (9.70 → 8.18 GiB)", "+345.1 % (8.22 → 36.59 GiB per GPU)",
                 "Read as the collector read it", "ROUND10_EVALUATION"):
        assert said in readme, said


def test_the_report_prints_the_frozen_evaluation_and_is_current(cat, rows):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 10 (spent) follows
    round 11 (spent since round 12 was placed) in the targets (pooled, then per source), before round 9 (spent); its one evaluation is printed as frozen,
    and its live figures, labelled "(spent)", under ROUND10_SINCE_HEADING: since the formula round on spent data
    (tests/test_serving_case_rules.py) they move — dennislee's A100-80GB KV pools, by the profiler-generation rule and
    the A100 80GB's logged torch total."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 10: its one evaluation")
    since = text.index(SC.ROUND10_SINCE_HEADING)
    assert "\n".join(SC.ROUND10_EVALUATION) in text[start:since]
    live = [*SC.round10_targets(rows), "", *SC.findings_round10(rows)]
    frozen = SC._relabelled_as_spent(SC.Split.heldout10, SC.ROUND10_EVALUATION)
    assert live != frozen  # only the KV lines moved (dennislee's pools)
    def not_kv(lines):
        return [x for x in lines if not any(k in x for k in ("KV capacity", "| kv |", "kv_cache", "KV within"))]
    assert not_kv(live) == not_kv(frozen)
    assert "\n".join(SC.round10_targets(rows)) in text[since:text.index("### Round 9: its one evaluation")]
    targets = text.split("## Targets", 1)[1].split("### Round 12: its one evaluation", 1)[0]
    assert "read as its collector read them" in targets
    assert (targets.index("- held out, round 11 (spent), ") < targets.index("- held out, round 10 (spent), ")
            < targets.index("- held out, round 10 (spent), source dennislee22_vllm_a100, ")
            < targets.index("- held out, round 10 (spent), source timwang_vllm_sglang_h100, ")
            < targets.index("- held out, round 9 (spent), ") < targets.index("- held out, round 8 (spent), "))
    assert "| held out, round 10 (spent) | latency |" in text and "| held out 10 (spent) | [timwang-" in text
    assert "- held out, round 10, " not in text.replace("\n".join(SC.ROUND10_EVALUATION), "")  # relabelled outside it
    assert "held out, round 10" not in SC.report(cat, round10=False)
