"""Serving held-out round 9 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 9",
commit e101d9f, before the round-9 calibration commit ab3ed60), read by no fitter, evaluated once; that evaluation is
kept verbatim (ROUND9_EVALUATION) and benchmarks/serving.md is the report of this commit. Reported pooled, per source
and per page of the SGLang cookbook (Llama 3.1 on 8× A100, Qwen3 on 8× B200), decided at the freeze.

Real files, the real estimator and catalog; no mocks.
"""

from __future__ import annotations

import hashlib
import math
import sys
from pathlib import Path

import pytest

from tests.helpers.held_out import freeze_digests, readme_digests

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "serving"
README = DATA / "README.md"
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)

ROUND9_FILES = {  # as recorded in held_out_freezes.md (session 9), by helper-90
    "heldout9_sgl_cookbook.yaml": "80f6cc649be3758834b55d354f1ea7b1cd76cbed2a33250cc7837e0b8ded6c7d",
    "heldout9_vllm_issue_17469.yaml": "dc1e478148dd64b9c55c08171ca5a783521b44fdd48a0dc04d9374074e850b31",
}
README_ROUND9 = "8591199c4683c313fe41641078c5035498a6f6ae4ff2b94f33c24f44686810ca"
SECTION = "## Round 9: a ninth held-out set (frozen 2026-12-02, issue 11) — short of its source and KV aims"
EVALUATION = "### Round 9: its one evaluation (2026-12-02, after commit ab3ed60)"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def rows(cat):
    return SC.evaluate(cat)


def test_round_nine_is_placed_byte_identical_to_its_freeze_record():
    """Both files: the digest in held_out_freezes.md, the one in README.md and the file's own agree; nothing else is
    named heldout9_*; each is read as round 9."""
    recorded = freeze_digests(r"\|\s*`tests/data/serving/(heldout9_[^`]+\.yaml)`\s*", session="9")
    assert recorded == ROUND9_FILES
    readme = readme_digests(README)
    placed = sorted(p.name for p in DATA.glob("heldout9_*.yaml"))
    assert placed == sorted(ROUND9_FILES)
    for name in placed:
        assert readme[name] == recorded[name] == SC.sha256(DATA / name), f"{name}: corrections go to errata.yaml"
        assert SC.split_of(DATA / name) == SC.Split.heldout9


def test_the_collectors_text_is_merged_unchanged():
    """README "Round 9" up to its evaluation is README_round9.md byte for byte (the digest in the freeze record's
    serving row; VRAM round 9's README text has its own row and digest)."""
    assert freeze_digests(r"\|\s*serving round 9\s*\|\s*README section text \(`(README_round9\.md)`\)", session="9") == \
        {"README_round9.md": README_ROUND9}
    text = README.read_text(encoding="utf-8")
    i = text.index("\n" + SECTION + "\n") + 1
    j = text.index("\n" + EVALUATION + "\n", i) + 1
    section = text[i:j].rstrip("\n") + "\n"
    assert hashlib.sha256(section.encode("utf-8")).hexdigest() == README_ROUND9


def test_round_nine_is_16_cases_of_59_figures_held_out_by_whole_source_and_no_erratum_touches_it():
    cases = [(f, c) for f, _h, _s, c in SC.load_cases() if f.startswith("heldout9_")]
    assert len(cases) == 16 and sum(len(c.measured) for _f, c in cases) == 59
    by_cat = [m.metric.category for _f, c in cases for m in c.measured]
    assert (by_cat.count("throughput"), by_cat.count("latency"), by_cat.count("kv")) == (15, 43, 1)  # as README says
    cook = [c for f, c in cases if f == SC.ROUND9_COOKBOOK_FILE]
    assert len(cook) == 15 and sum(len(c.measured) for c in cook) == 58
    ids = {c.id for _f, c in cases}
    assert not [e for e in SC.load_errata() if e.case in ids]
    others = [(s.family, c.url) for f, _h, s, c in SC.load_cases() if not f.startswith("heldout9_")]
    mine = [(s.family, c.url) for f, _h, s, c in SC.load_cases() if f.startswith("heldout9_")]
    assert not ({fam for fam, _u in mine} & {fam for fam, _u in others})  # held out by whole source
    assert not ({u for _f, u in mine} & {u for _f, u in others})


def test_no_fitter_reads_round_nine(cat):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert SC.Split.heldout9 not in splits
    read = {f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)} | {f for f, _c in SC.tp_fit_cases(cat)}
    assert read and not any(f.startswith("heldout9_") for f in read)


def test_every_case_gets_a_prediction_or_a_stated_reason(cat):
    """Each round-9 case is estimated as the benchmark estimates it; every figure gets a finite positive prediction,
    and a case the estimator refuses would name its reason (none does: the report would not run)."""
    from tools.errors import InputError

    refused = {}
    for f, _h, _s, case in SC.load_cases():
        if not f.startswith("heldout9_"):
            continue
        try:
            est = SC.estimate_serving(cat.model(case.model), cat.gpu(case.gpu), SC.request_for(case),
                                      allow_no_fit=True, scheduling=SC.scheduling_for(case))
        except InputError as e:
            refused[case.id] = str(e)
            assert str(e).strip(), case.id  # a refusal states its reason
            continue
        for m in case.measured:
            value = SC.predicted(est, m.metric)
            assert math.isfinite(value) and value > 0, (case.id, m.metric)
    assert not refused, refused


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
    "held out, round 9",  # pooled
    "held out, round 9, source sgl_cookbook",  # per source: 15 of the 16 cases
    "held out, round 9, cookbook Llama3.1 page (llama-3.1-70b, A100-80GB × 8)",  # per page
    "held out, round 9, cookbook Qwen3 page (qwen3-235b-a22b, B200 × 8)",
])
def test_round_nine_targets_are_given_pooled_per_source_and_per_page_with_latency_per_statistic(rows, label):
    lines = SC.round9_targets(rows)
    assert any(line.startswith(f"- {label}, throughput: ") for line in lines)
    i = next(k for k, line in enumerate(lines) if line.startswith(f"- {label}, latency: "))
    assert lines[i + 1].startswith("  - of which mean figures")  # every round-9 latency figure is a mean


def test_the_kv_case_is_its_own_source_and_the_unread_round_leaves_no_line(cat, rows):
    lines = SC.round9_targets(rows)
    assert any(line.startswith("- held out, round 9, source vllm_issue_17469, KV capacity: ") for line in lines)
    assert not any(line.startswith("- held out, round 9, source vllm_issue_17469, throughput") for line in lines)
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


def test_the_report_prints_the_frozen_evaluation_first_and_is_current(cat, rows):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 9 leads the targets
    (pooled, per source, per page), before round 8 (spent); its one evaluation is printed as frozen, and at this commit
    the live figures are the frozen ones (a later change that moves them prints them under ROUND9_SINCE_HEADING)."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 9: its one evaluation")
    since = text.index(SC.ROUND9_SINCE_HEADING)
    assert "\n".join(SC.ROUND9_EVALUATION) in text[start:since]
    assert [*SC.round9_targets(rows), "", *SC.findings_round9(rows)] == SC.ROUND9_EVALUATION
    assert "The same figures as its one evaluation above" in text[since:text.index("### Round 8: its one evaluation")]
    targets = text.split("## Targets", 1)[1].split("### Round 9: its one evaluation", 1)[0]
    assert (targets.index("- held out, round 9, ") < targets.index("- held out, round 9, source sgl_cookbook, ")
            < targets.index("- held out, round 9, cookbook Llama3.1 page ")
            < targets.index("- held out, round 8 (spent), ") < targets.index("- held out, round 7 (spent), "))
    assert "| held out, round 9 | latency |" in text and "| held out 9 | [sglcb-sgl056-" in text
    assert "held out, round 9" not in SC.report(cat, round9=False)
