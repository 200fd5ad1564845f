"""Serving held-out round 7 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 8",
commit 25bfbbc, before the round-7 calibration commit ad82352), read by no fitter, evaluated once; that evaluation is
kept verbatim (ROUND7_EVALUATION) and benchmarks/serving.md is the report of this commit. Reported per source and
pooled, pooled with and without its ROCm / MI300X file (decided at the freeze). Spent since the change after it
(443df97) read it: labelled "held out, round 7 (spent)", printed after round 8.

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

ROUND7_FILES = {  # as recorded in held_out_freezes.md (session 8), by helper-74
    "heldout7_rocm_vllm_dev_docker.yaml": "c42c3ff6a9dd9024738a353f0e54a8da098a86fb08e8c8ccee2f17d58289a818",
    "heldout7_vllm_blog_fp8_kvcache.yaml": "2c2d8ef1b829c001b325d751062e877a9f02811a1d9d177ee4708198f1ce4e6f",
    "heldout7_hf_deepseek_v3_awq_card.yaml": "ed5c1dc44817199c491c2c8e05203f3df60007570acbdc73694b5c2ed9976832",
    "heldout7_sglang_pr_6121.yaml": "7bace4a0ee7d22577836f4ab3eaa0306d1f3e9061a2791cd0f0d48c4802769f7",
}
README_ROUND7 = "a40892192e344ae9e4ee2d9b28e21fa21a540508c4a11a36ab6797d297fa5cf1"
SECTION = "## Round 7: a seventh held-out set (frozen 2026-12-02, issue 11) — short of its aim"
EVALUATION = "### Round 7: its one evaluation (2026-12-02, after commit ad82352)"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def test_round_seven_is_placed_byte_identical_to_its_freeze_record():
    """All four files: the digest in held_out_freezes.md, the one in README.md and the file's own agree; nothing else is
    named heldout7_*; each is read as round 7."""
    recorded = freeze_digests(r"\|\s*`tests/data/serving/(heldout7_[^`]+\.yaml)`\s*", session="8")
    assert recorded == ROUND7_FILES
    readme = readme_digests(README)
    placed = sorted(p.name for p in DATA.glob("heldout7_*.yaml"))
    assert placed == sorted(ROUND7_FILES)
    for name in placed:
        assert readme[name] == recorded[name] == SC.sha256(DATA / name), f"{name}: corrections go to errata.yaml"
        assert SC.split_of(DATA / name) == SC.Split.heldout7


def test_the_collectors_text_is_merged_unchanged():
    """README "Round 7" up to its evaluation is README_round7.md byte for byte (the digest in the freeze record)."""
    assert freeze_digests(r"`(README_round7\.md)`", session="8") == {"README_round7.md": README_ROUND7}
    text = README.read_text(encoding="utf-8")
    i = text.index("\n" + SECTION + "\n") + 1
    j = text.index("\n" + EVALUATION + "\n", i) + 1
    section = text[i:j].rstrip("\n") + "\n"
    assert hashlib.sha256(section.encode("utf-8")).hexdigest() == README_ROUND7


def test_round_seven_is_38_cases_of_44_figures_held_out_by_whole_source_and_no_erratum_touches_it():
    cases = [(f, c) for f, _h, _s, c in SC.load_cases() if f.startswith("heldout7_")]
    assert len(cases) == 38 and sum(len(c.measured) for _f, c in cases) == 44
    by_cat = [m.metric.category for _f, c in cases for m in c.measured]
    assert (by_cat.count("latency"), by_cat.count("throughput"), by_cat.count("kv")) == (36, 8, 0)  # as README says
    assert sum(f == SC.ROUND7_ROCM_FILE for f, _c in cases) == 32
    ids = {c.id for _f, c in cases}
    assert not [e for e in SC.load_errata() if e.case in ids]
    others = [(s.family, c.url) for f, _h, s, c in SC.load_cases() if not f.startswith("heldout7_")]
    mine = [(s.family, c.url) for f, _h, s, c in SC.load_cases() if f.startswith("heldout7_")]
    assert not ({fam for fam, _u in mine} & {fam for fam, _u in others})  # held out by whole source
    assert not ({u for _f, u in mine} & {u for _f, u in others})


def test_no_fitter_reads_round_seven(cat):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert SC.Split.heldout7 not in splits
    read = {f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)} | {f for f, _c in SC.tp_fit_cases(cat)}
    assert read and not any(f.startswith("heldout7_") for f in read)


def test_every_case_gets_a_prediction_or_a_stated_reason(cat):
    """Each round-7 case is estimated as the benchmark estimates it; every figure gets a finite positive prediction,
    and a case the estimator refuses would name its reason (none does: the report would not run)."""
    from tools.errors import InputError

    refused = {}
    for f, _h, _s, case in SC.load_cases():
        if not f.startswith("heldout7_"):
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
