"""Serving held-out round 6 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, commit
ab34400, before the change it tests, 25f8506, was committed), read by no fitter, evaluated once; that evaluation is
kept verbatim (ROUND6_EVALUATION) and benchmarks/serving.md is the report of this commit.

Real files, the real estimator and catalog; no mocks.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from tests.helpers.held_out import freeze_digests, readme_digests
import yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "serving"
README = DATA / "README.md"
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)

ROUND6_FILES = {  # as recorded in held_out_freezes.md (session 7), by helper-68
    "heldout6_sglang_benchmark_dsv3.yaml": "b76182dc5462e4c0bbf2b15820a24b31a69368b8a9adcf2be9de19bc18112ed1",
    "heldout6_sglang_benchmark_vllm060.yaml": "460e10b93b1445a39d69a8ea4e9577a6ef157e9543eae7d50006d756edbe8cd0",
}
README_ROUND6 = "48ba3cd46397bbdb6bcad7d850f1e90af1230d70fa0a660b92d373dcec3ec600"
SECTION = "## Round 6: a sixth held-out set (frozen 2026-12-01, issue 11) — short of its aim"
EVALUATION = "### Round 6: its one evaluation (2026-12-02, after commit 25f8506)"


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def test_round_six_is_placed_byte_identical_to_itsfreeze_digests():
    """Both files: the digest in held_out_freezes.md, the one in README.md and the file's own agree; nothing else is
    named heldout6_*; each is read as round 6."""
    recorded = freeze_digests(r"\|\s*`tests/data/serving/(heldout6_[^`]+\.yaml)`\s*")
    assert recorded == ROUND6_FILES
    readme = readme_digests(README)
    placed = sorted(p.name for p in DATA.glob("heldout6_*.yaml"))
    assert placed == sorted(ROUND6_FILES)
    for name in placed:
        assert readme[name] == recorded[name] == SC.sha256(DATA / name), f"{name}: corrections go to errata.yaml"
        assert SC.split_of(DATA / name) == SC.Split.heldout6


def test_the_collectors_text_is_merged_unchanged():
    """README "Round 6" up to its evaluation is README_round6.md byte for byte (the digest in the freeze record)."""
    assert freeze_digests(r"`(README_round6\.md)`") == {"README_round6.md": README_ROUND6}
    text = README.read_text(encoding="utf-8")
    i = text.index("\n" + SECTION + "\n") + 1
    j = text.index("\n" + EVALUATION + "\n", i) + 1
    section = text[i:j].rstrip("\n") + "\n"
    assert hashlib.sha256(section.encode("utf-8")).hexdigest() == README_ROUND6


def test_round_six_is_ten_cases_of_32_figures_all_latency_medians_and_errata_only_state_its_flags():
    cases = [(f, c) for f, _h, _s, c in SC.load_cases() if f.startswith("heldout6_")]
    assert len(cases) == 10 and sum(len(c.measured) for _f, c in cases) == 32
    latency = [m for _f, c in cases for m in c.measured if m.metric.category == "latency"]
    assert len(latency) == 24 and {m.statistic for m in latency} == {"median"}
    assert not any(m.metric.category == "kv" for _f, c in cases for m in c.measured)
    ids = {c.id for _f, c in cases}
    errata = [e for e in SC.load_errata() if e.case in ids]
    assert len(errata) == 10 and {e.case for e in errata} == ids  # after its one evaluation: the flags the commands show
    frozen = {c["id"]: c for name in ROUND6_FILES
              for c in yaml.safe_load((DATA / name).read_text(encoding="utf-8"))["cases"]}
    flags = {"num_scheduler_steps", "enable_dp_attention"}
    for e in errata:
        case = frozen[e.case]
        assert e.field == "engine_args" and set(e.value) & flags, e.case
        assert {k: v for k, v in e.value.items() if k not in flags} == (case.get("engine_args") or {}), e.case
        if "num_scheduler_steps" in e.value:
            assert f"--num-scheduler-steps {e.value['num_scheduler_steps']}" in case["command"]
        if e.value.get("enable_dp_attention"):
            assert "--enable-dp-attention" in case["command"] and "--dp-size" not in case["command"]
    others = [(s.family, c.url) for f, _h, s, c in SC.load_cases() if not f.startswith("heldout6_")]
    mine = [(s.family, c.url) for f, _h, s, c in SC.load_cases() if f.startswith("heldout6_")]
    assert not ({fam for fam, _u in mine} & {fam for fam, _u in others})  # held out by whole source
    assert not ({u for _f, u in mine} & {u for _f, u in others})


def test_no_fitter_reads_round_six(cat):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert SC.Split.heldout6 not in splits
    read = {f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)} | {f for f, _c in SC.tp_fit_cases(cat)}
    assert read and not any(f.startswith("heldout6_") for f in read)


def test_round_six_latency_is_reported_per_statistic(cat):
    rows = [r for r in SC.evaluate(cat) if r.split == SC.Split.heldout6]
    assert {r.statistic for r in rows if r.metric.category == "latency"} == {"median"}
    lines = SC.targets(rows, SC.Split.heldout6, by_statistic=True)
    assert any(line.startswith("  - of which median figures") for line in lines)
    assert not any("of which mean figures" in line for line in lines)


def test_the_one_evaluation_is_kept_verbatim_and_recorded_in_the_readme():
    """ROUND6_EVALUATION is that run's output; its headline figures are the ones README "Round 6: its one evaluation"
    reports."""
    frozen = "\n".join(SC.ROUND6_EVALUATION)
    for said in ("- held out, round 6, throughput: median error 30.7% over 8 figures — target ≤ 25 %: **missed**.",
                 "- held out, round 6, latency: median error 73.1% over 24 figures — target ≤ 25 %: **missed**.",
                 "Round 6: 10 cases, 32 figures from 2 files",
                 "| sglang_benchmark_dsv3 | 4 | 51.7% (+51.7%) · 4 | 90.8% | 82.5% (-82.5%) · 12 | 96.3% | — |",
                 "| sglang_benchmark_vllm060 | 6 | 21.6% (-21.6%) · 4 | 172.8% | 33.9% (-13.5%) · 12 | 54.6% | — |"):
        assert said in frozen
    readme = README.read_text(encoding="utf-8").split(EVALUATION, 1)[1]
    assert "30.7 % over 8 figures" in readme and "73.1 % over 24 figures" in readme and "**missed**" in readme
    assert "ROUND6_EVALUATION" in readme


def test_the_report_prints_the_frozen_evaluation_and_is_current(cat):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 6 leads the targets,
    its one evaluation is printed as frozen, and rounds 5 and 6 are labelled spent."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 6: its one evaluation")
    assert "\n".join(SC.ROUND6_EVALUATION) in text[start:text.index(SC.ROUND6_SINCE_HEADING)]
    targets = text.split("## Targets", 1)[1].split("### Round 6: its one evaluation", 1)[0]
    assert targets.index("- held out, round 6 (spent), ") < targets.index("- held out, round 5 (spent), ")
    assert "| held out, round 5 (spent) | throughput |" in text and "| held out 6 (spent) | [sgldsv3-" in text
    # round 6 is spent: its live figures follow the frozen text under the "since" heading and differ from it
    since = text[text.index(SC.ROUND6_SINCE_HEADING):]
    assert "- held out, round 6 (spent), latency: median error" in since.split("### Round 5", 1)[0]
