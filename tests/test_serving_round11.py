"""Serving held-out round 11 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 13",
commit 8640aae; committed unplaced, placed in 8771c3b), read by no fitter, evaluated once on the estimator of commit
ab3ed60 (no serving code or constant changed between the freeze and that run); that evaluation is kept verbatim
(ROUND11_EVALUATION) and benchmarks/serving.md is the report of this commit. Reported pooled and per source (Livinfly
carries 13 of the 27 cases), no KV reading (no KV case), KLsatorlac2's E2E figures (whole offline-batch wall times)
read apart (decided at the freeze). Rendered by the function that renders round 10 (`PooledRound`). Spent since its
evaluation was printed and read (the SM 8.0 change 2acb8ec read it): labelled "held out, round 11 (spent)" when round 12
was placed, printed after round 12; its frozen text unchanged. The checks every
placed round shares (digests, the collector's README text, whole-source split, no erratum, no fitter, every case
estimated) run from the registry in tests/test_held_out_rounds.py.

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

SECTION = "# Round 11: a held-out set of published serving measurements (collector's report)"
EVALUATION = "## Round 11: its one evaluation (2026-12-03, the estimator of commit ab3ed60)"
JAN_FILE = "heldout11_jan_trtllm_vs_llamacpp.yaml"
LABEL = "held out, round 11 (spent)"  # since round 12 was placed
APART = f"{LABEL}, KLsatorlac2's batch wall times (read apart)"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def rows(cat):
    return SC.evaluate(cat)


@pytest.fixture(scope="module")
def r11(rows):
    return [r for r in rows if r.split == SC.Split.heldout11]


@pytest.mark.parametrize("file, cases, figures, by_metric", [
    (SC.ROUND11_LIVINFLY_FILE, 13, 27, {"output_tok_s": 13, "ttft_ms": 5, "tpot_ms": 5, "req_s": 4}),
    (SC.ROUND11_KLS_FILE, 12, 23, {"output_tok_s": 12, "e2e_ms": 11}),
    (JAN_FILE, 2, 2, {"decode_tok_s": 2}),
])
def test_the_three_sources_as_their_collector_describes_them(r11, file, cases, figures, by_metric):
    """The README's table: Livinfly 13 cases of 27 figures, KLsatorlac2 12 of 23, Jan 2 of 2; no KV figure anywhere."""
    sel = [r for r in r11 if r.file == file]
    assert (len({r.case.id for r in sel}), len(sel)) == (cases, figures)
    assert {m: sum(r.metric.value == m for r in sel) for m in by_metric} == by_metric
    assert len(sel) == sum(by_metric.values())
    assert not [r for r in r11 if r.metric.category == "kv"]


def test_klsatorlac2s_batch_wall_times_are_read_apart(rows, r11):
    """Decided at the freeze: KLsatorlac2's E2E figures are whole offline-batch wall times, reported apart. They are the
    one group read apart (their own target line), out of the pooled and per-source latency lines; KLsatorlac2's
    throughput figures stay pooled."""
    assert SC.ROUND11.apart == (SC.ROUND11_BATCH_WALL_TIMES,) and SC.ROUND10.apart == ()
    apart = [r for r in r11 if SC.ROUND11.read_apart(r)]
    assert len(apart) == 11 and {(r.file, r.metric) for r in apart} == {(SC.ROUND11_KLS_FILE, SC.Metric.e2e_ms)}
    assert {r.statistic for r in apart} == {"single"}
    lines = SC.pooled_round_targets(SC.ROUND11, rows)
    assert any(line.startswith(f"- {LABEL}, throughput: ") and "over 31 figures" in line for line in lines)
    assert any(line.startswith(f"- {LABEL}, latency: ") and "over 10 figures" in line for line in lines)
    assert any(line.startswith(f"- {APART}, latency: ") and "over 11 figures" in line for line in lines)
    assert any(line.startswith(f"- {LABEL}, source klsatorlac2_vllm_t4, throughput: ") and
               "over 12 figures" in line for line in lines)
    assert not any(line.startswith(f"- {LABEL}, source klsatorlac2_vllm_t4, latency") for line in lines)
    caveats = " ".join(SC.ROUND11_CAVEATS)
    assert "**whole offline-batch wall times**" in caveats and "**read apart**" in caveats


@pytest.mark.parametrize("label, stats", [
    (LABEL, ("mean",)),  # pooled (the batch wall times read apart)
    (f"{LABEL}, source livinfly_vllm_a100_pcie_40gb", ("mean",)),  # per source: 13 of the 27 cases
    (APART, ("single",)),
])
def test_round_eleven_targets_are_given_pooled_and_per_source_with_latency_per_statistic(rows, label, stats):
    lines = SC.pooled_round_targets(SC.ROUND11, rows)
    i = next(k for k, line in enumerate(lines) if line.startswith(f"- {label}, latency: "))
    for k, stat in enumerate(stats, start=1):
        assert lines[i + k].startswith(f"  - of which {stat} figures")


def test_there_is_no_kv_reading_and_the_unread_round_leaves_no_line(cat, rows):
    lines = SC.pooled_round_targets(SC.ROUND11, rows)
    assert lines and not any("KV capacity" in line for line in lines)
    assert "KV capacity: no figure in this round." in SC.findings_pooled_round(SC.ROUND11, rows)[0]
    assert not any(r.split == SC.Split.heldout11 for r in SC.evaluate(cat, round11=False))


def test_no_fitter_reads_round_eleven(cat):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert SC.Split.heldout11 not in splits
    read = ({f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)}
            | {f for f, _c in SC.tp_fit_cases(cat)})
    assert read and not any(f.startswith("heldout11_") for f in read)


@pytest.mark.parametrize("said", [
    "- held out, round 11, throughput: median error 22.7% over 31 figures — target ≤ 25 %: **met**.",
    "- held out, round 11, latency: median error 29.4% over 10 figures — target ≤ 25 %: **missed**.",
    "- held out, round 11, source jan_trtllm_vs_llamacpp, throughput: median error 24.6% over 2 figures — target "
    "≤ 25 %: **met**.",
    "- held out, round 11, source klsatorlac2_vllm_t4, throughput: median error 48.0% over 12 figures — target "
    "≤ 25 %: **missed**.",
    "- held out, round 11, source livinfly_vllm_a100_pcie_40gb, throughput: median error 8.2% over 17 figures — "
    "target ≤ 25 %: **met**.",
    "- held out, round 11, source livinfly_vllm_a100_pcie_40gb, latency: median error 29.4% over 10 figures — target "
    "≤ 25 %: **missed**.",
    "- held out, round 11, KLsatorlac2's batch wall times (read apart), latency: median error 32.6% over 11 "
    "figures — target ≤ 25 %: **missed**.",
    "| round 11, pooled | 27 | 22.7% (+22.7%) · 31 | 17/31 | 25/31 | 137.9% | 29.4% (-29.4%) · 10 | 4/10 | 10/10 | "
    "72.7% | — |",
    "| KLsatorlac2's batch wall times (read apart) | 11 | — | — | — | — | 32.6% (-32.6%) · 11 | 3/11 | 10/11 | "
    "72.9% | — |",
    "| livinfly_vllm_a100_pcie_40gb | ttft_ms | mean | 5 | 32.2% (-32.2%) · 5 | 2/5 | 5/5 | 79.8% | 0/5 |",
    "| livinfly_vllm_a100_pcie_40gb | tpot_ms | mean | 5 | 26.7% (-26.7%) · 5 | 2/5 | 5/5 | 57.6% | 0/5 |",
    "| klsatorlac2_vllm_t4 | kls-vllm085v0-t4-qwen25-1.5b-fp16-p16384-o64-bs1 | output_tok_s | single | 11.11 | "
    "22.67 | +104.1% | +312.7% |",
])
def test_the_one_evaluation_is_kept_verbatim(said):
    """ROUND11_EVALUATION is that run's output (2026-12-03 14:34 UTC, the estimator of ab3ed60): its headline lines."""
    assert said in SC.ROUND11_EVALUATION


def test_the_readme_records_the_one_evaluations_headline():
    text = README.read_text(encoding="utf-8")
    assert text.index("\n" + SECTION + "\n") < text.index("\n" + EVALUATION + "\n")
    readme = text.split(EVALUATION, 1)[1]
    for said in ("22.7 % over 31 figures", "29.4 % over 10 figures", "8.2 % over 17", "48.0 % over 12",
                 "24.6 % over 2", "32.6 % over 11", "**KLsatorlac2's E2E figures are read apart**",
                 "**no KV reading**", "+104.1 % (11.11 → 22.67)", "ROUND11_EVALUATION"):
        assert said in readme, said


def test_the_report_prints_the_frozen_evaluation_first_and_is_current(cat, rows):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 11 (spent since round
    12 was placed) follows round 12 (spent since round 13 was placed) in the targets (pooled, then per source, then the
    figures read apart), before round 10 (spent); its one evaluation is printed as frozen, and its live figures (moved by the SM 8.0 change) under
    ROUND11_SINCE_HEADING, labelled "(spent)"."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 11: its one evaluation")
    since = text.index(SC.ROUND11_SINCE_HEADING)
    assert "\n".join(SC.ROUND11_EVALUATION) in text[start:since]
    live = [*SC.pooled_round_targets(SC.ROUND11, rows), "", *SC.findings_pooled_round(SC.ROUND11, rows)]
    # since the SM 8.0 kernel fallbacks (tests/test_serving_turing.py) the live figures move: printed under the heading
    assert live != SC.ROUND11_EVALUATION
    assert "\n".join(SC.pooled_round_targets(SC.ROUND11, rows)) in text[since:text.index("### Round 10: its one evaluation")]
    targets = text.split("## Targets", 1)[1].split("### Round 11: its one evaluation", 1)[0]
    assert "reported apart from the throughput figures" in targets and "no KV reading" in targets
    assert (targets.index("- held out, round 12 (spent), ") < targets.index(f"- {LABEL}, ")
            < targets.index(f"- {LABEL}, source jan_trtllm_vs_llamacpp, ")
            < targets.index(f"- {LABEL}, source klsatorlac2_vllm_t4, ")
            < targets.index(f"- {LABEL}, source livinfly_vllm_a100_pcie_40gb, ")
            < targets.index(f"- {APART}, ") < targets.index("- held out, round 10 (spent), "))
    assert f"| {LABEL} | latency |" in text and "| held out 11 (spent) | [livinfly-" in text
    assert "Round 11 is spent since that evaluation" in text[since:text.index("### Round 10: its one evaluation")]
    assert "- held out, round 11, " not in text.replace("\n".join(SC.ROUND11_EVALUATION), "")  # relabelled outside it
    assert "held out, round 11" not in SC.report(cat, round11=False)
