"""Serving held-out round 12 (issue 11): placed byte-identical to its freeze record (held_out_freezes.md, "Session 14",
commit b6da2bd; committed unplaced, placed in 795c5d9), read by no fitter, evaluated once on the estimator of commit
795c5d9 (after the KV-pool study 3cc6b94 and the SM 8.0 change 2acb8ec, both landed after the freeze); that evaluation
is kept verbatim (ROUND12_EVALUATION) and benchmarks/serving.md is the report of this commit. As decided at the freeze:
first of all a KV reading (all 10 KV-capacity cases against "every case within 5 %", in full, per source, one per source
— tokenkaki's 4 are one machine — and without the two cases whose GPU is known only from the repository, L4 and RTX
A5000), then the 6 throughput/latency cases (one source) pooled, the two 5 req/s runs' output tok/s read apart
(arrival-bound). Rendered by the function that renders rounds 10 and 11 (`PooledRound`, `kv_first`). Spent since its
evaluation was printed and read: labelled "held out, round 12 (spent)" when round 13 was placed, printed after round
13; its frozen text unchanged. The checks every placed round shares run from the registry in
tests/test_held_out_rounds.py; the digests and the every-case-estimated check are also here.

Real files, the real estimator and catalog; no mocks.
"""

from __future__ import annotations

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

SECTION = "# Held-out round 12 (serving estimator) — collector's notes"
EVALUATION = "## Round 12: its one evaluation (2026-12-03, the estimator of commit 795c5d9)"
FROZEN = "held out, round 12"  # the label its one evaluation printed
LABEL = "held out, round 12 (spent)"  # since round 13 was placed
APART = f"{LABEL}, the 5 req/s runs' output tok/s (read apart)"
WITHOUT_READING = "without the GPUs known only from the repository (L4 demo_env_l4, RTX A5000 kumaxxp)"
WITHOUT = f"{LABEL}, {WITHOUT_READING}"
FILES = {  # as frozen (held_out_freezes.md, "Session 14"), by helper-120
    "heldout12_tokenkaki_vllm_a100_40gb.yaml": "0ea0482ff29fa84731126d3a548d2b40620573f456f21e2042a88123fce9dd56",
    "heldout12_vllm_pr_17122.yaml": "b8cf4c008ce3cb68f7b8371d8fa5100543c5e81721ac55e68a0e58d930ad9264",
    "heldout12_sridhar1804_local_ai_rtx3090.yaml": "aa0b17dc97960b5fe3ef115a01388ec318922cf30138c73e9e77eb9e58a7a1e1",
    "heldout12_demo_env_l4_vllm.yaml": "f2af65d0cd3c542dc1005345007a237f2d8eab42a913c42062999636824f6bc1",
    "heldout12_kolyangg_mlops_h100_qwen3_30b_a3b.yaml":
        "13ceaf14b185be7fd75b42fecaada422d79189442e5788ca07c7710b8e8fe0d9",
    "heldout12_lukejyk_autoscientists_a100_80gb.yaml":
        "4534c4beb670acdfd9647101b62f126a07a229686d2d3b2aa87551ab3acc9d79",
    "heldout12_kumaxxp_duo_talk_rtx_a5000.yaml": "e203a8413eb7835ba27761a7279f0d8f456c51bce3de288f415f2b3ce9333675",
}


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def rows(cat):
    return SC.evaluate(cat)


@pytest.fixture(scope="module")
def r12(rows):
    return [r for r in rows if r.split == SC.Split.heldout12]


def test_the_files_are_placed_byte_identical_to_the_freeze_record():
    """Each file's sha256 is the freeze record's and the README table's; nothing else carries the round's prefix."""
    recorded = freeze_digests(r"\|\s*`tests/data/serving/(heldout12_[^`]+\.yaml)`\s*", session="14")
    assert recorded == FILES
    assert sorted(p.name for p in DATA.glob("heldout12_*.yaml")) == sorted(FILES)
    readme = readme_digests(README)
    for name, digest in FILES.items():
        assert SC.sha256(DATA / name) == readme[name] == digest, f"{name}: corrections go to errata.yaml"
        assert SC.split_of(DATA / name) == SC.Split.heldout12


@pytest.mark.parametrize("file, cases, by_metric", [
    (SC.ROUND12_TOKENKAKI_FILE, 10, {"kv_cache_gib": 4, "kv_cache_tokens": 4, "e2e_ms": 2, "req_s": 2,
                                     "total_tok_s": 2, "output_tok_s": 4, "ttft_ms": 2, "tpot_ms": 2}),
    ("heldout12_vllm_pr_17122.yaml", 1, {"kv_cache_tokens": 1}),
    ("heldout12_sridhar1804_local_ai_rtx3090.yaml", 1, {"kv_cache_gib": 1, "kv_cache_tokens": 1}),
    ("heldout12_demo_env_l4_vllm.yaml", 1, {"kv_cache_gib": 1, "kv_cache_tokens": 1}),
    ("heldout12_kolyangg_mlops_h100_qwen3_30b_a3b.yaml", 1, {"kv_cache_gib": 1, "kv_cache_tokens": 1}),
    ("heldout12_lukejyk_autoscientists_a100_80gb.yaml", 1, {"kv_cache_gib": 1, "kv_cache_tokens": 1}),
    ("heldout12_kumaxxp_duo_talk_rtx_a5000.yaml", 1, {"kv_cache_gib": 1, "kv_cache_tokens": 1}),
])
def test_the_seven_sources_as_their_collector_describes_them(r12, file, cases, by_metric):
    """The README's table: 16 cases, 10 of them KV capacity (9 with GiB and tokens, PR #17122 tokens only)."""
    sel = [r for r in r12 if r.file == file]
    assert len({r.case.id for r in sel}) == cases
    assert {m: sum(r.metric.value == m for r in sel) for m in by_metric} == by_metric
    assert len(sel) == sum(by_metric.values())


def test_every_case_gets_a_finite_positive_prediction(cat):
    """Every case is estimated as the benchmark estimates it; none is refused."""
    for file, _h, _s, case in SC.load_cases():
        if not file.startswith("heldout12_"):
            continue
        est = SC.estimate_serving(cat.model(case.model), cat.gpu(case.gpu), SC.request_for(case),
                                  allow_no_fit=True, scheduling=SC.scheduling_for(case))
        for m in case.measured:
            value = SC.predicted(est, m.metric)
            assert math.isfinite(value) and value > 0, (case.id, m.metric)


def test_the_kv_reading_leads_in_full_per_source_one_per_source_and_without_the_two(rows, r12):
    """Decided at the freeze: the KV lines come first — in full (19 figures of 10 cases), each of the 7 sources, one per
    source, and without the L4 and RTX A5000 cases (15 figures of 8 cases) — then the throughput and latency lines."""
    kv = [r for r in r12 if r.metric.category == "kv"]
    assert (len(kv), len({r.case.id for r in kv}), len({r.file for r in kv})) == (19, 10, 7)
    assert {r.case.load.kind for r in kv} == {SC.CaseLoadKind.kv_capacity}
    left_out = {r.case.gpu for r in kv if r.file in SC.ROUND12_GPU_FROM_REPOSITORY}
    assert left_out == {"L4", "RTX-A5000"}
    lines = SC.pooled_round_targets(SC.ROUND12, rows)
    starts = [f"- {LABEL}, KV capacity: ", "  - by case: ",
              *[f"- {LABEL}, source {SC.source_name(f)}, KV capacity: " for f in sorted({r.file for r in kv})],
              f"- {LABEL}, KV capacity, one per source (7 sources; ", f"- {WITHOUT}, KV capacity: ", "  - by case: ",
              f"- {LABEL}, throughput: ", f"- {LABEL}, latency: "]
    assert [line[:len(s)] for line, s in zip(lines, starts)] == starts
    assert "over 19 figures" not in lines[0] and "/19 within 5 %" in lines[0]
    assert "/15 within 5 %" in lines[len(starts) - 4] and "/8 cases" in lines[len(starts) - 3]
    assert "/10 cases" in lines[1]
    assert not any("KV capacity" in line for line in lines[len(starts) - 2:])  # the rest: throughput and latency only
    assert SC.ROUND11.kv_first is False and SC.ROUND10.kv_without == ()  # rounds 10-11 print as before


def test_the_5_req_s_runs_output_tok_s_is_read_apart(rows, r12):
    """Decided at the freeze: the two open-loop 5 req/s runs' output tok/s (arrival-bound) has its own line; the
    offline runs' output tok/s stays pooled (6 throughput figures: req/s, total and output tok/s of 2 runs)."""
    assert SC.ROUND12.apart == (SC.ROUND12_ARRIVAL_BOUND,)
    apart = [r for r in r12 if SC.ROUND12.read_apart(r)]
    assert len(apart) == 2 and {(r.metric, r.case.load.kind) for r in apart} == {
        (SC.Metric.output_tok_s, SC.CaseLoadKind.request_rate)}
    assert not SC.ROUND11_BATCH_WALL_TIMES.load  # round 11's group: every case of its file, as before
    lines = SC.pooled_round_targets(SC.ROUND12, rows)
    assert any(line.startswith(f"- {LABEL}, throughput: ") and "over 6 figures" in line for line in lines)
    assert any(line.startswith(f"- {LABEL}, latency: ") and "over 6 figures" in line for line in lines)
    assert any(line.startswith(f"- {APART}, throughput: ") and "over 2 figures" in line for line in lines)


def test_no_fitter_reads_round_twelve(cat):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert SC.Split.heldout12 not in splits
    read = ({f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)}
            | {f for f, _c in SC.tp_fit_cases(cat)})
    assert read and not any(f.startswith("heldout12_") for f in read)
    assert not any(r.split == SC.Split.heldout12 for r in SC.evaluate(cat, round12=False))


@pytest.mark.parametrize("said", [
    "- held out, round 12, KV capacity: 14/19 within 5 % (max 20.9%) — target every case: **missed**: "
    "`demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128` kv_cache_gib -9.3%, "
    "`demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128` kv_cache_tokens -9.4%, "
    "`sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_gib -5.1%, "
    "`sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_tokens -5.1%, "
    "`vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768` kv_cache_tokens 20.9%.",
    "  - by case: 7/10 cases with each of their KV figures (GiB and tokens) within 5 %.",
    "- held out, round 12, source tokenkaki_vllm_a100_40gb, KV capacity: 8/8 within 5 % (max 1.8%) — target every "
    "case: **met**.",
    "- held out, round 12, KV capacity, one per source (7 sources; a source is within when each of its KV figures is): "
    "4/7 sources within 5 % — target every case: **missed**: demo_env_l4_vllm (max 9.4%), sridhar1804_local_ai_rtx3090 "
    "(max 5.1%), vllm_pr_17122 (max 20.9%).",
    "  - by case: 6/8 cases with each of their KV figures (GiB and tokens) within 5 %.",
    "- held out, round 12, throughput: median error 23.7% over 6 figures — target ≤ 25 %: **met**.",
    "- held out, round 12, latency: median error 3.1% over 6 figures — target ≤ 25 %: **met**.",
    "- held out, round 12, the 5 req/s runs' output tok/s (read apart), throughput: median error 5.9% over 2 figures — "
    "target ≤ 25 %: **met**.",
    "| round 12, pooled | 16 | 23.7% (-23.7%) · 6 | 3/6 | 6/6 | 127.2% | 3.1% (+0.8%) · 6 | 5/6 | 6/6 | 27.1% | 14/19 "
    "(naive 2/19) |",
    "| round 12 | kv | single | 19 | 1.8% (-1.8%) · 19 | 14/19 | 19/19 | 9.0% | 2/19 |",
    "| tokenkaki_vllm_a100_40gb | ttft_ms | mean | 2 | 24.8% (+24.8%) · 2 | 1/2 | 2/2 | 83.4% | 0/2 |",
    "| vllm_pr_17122 | vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768 | kv_cache_tokens | single | 158,656 | "
    "191,792 | +20.9% | +31.8% |",
])
def test_the_one_evaluation_is_kept_verbatim(said):
    """ROUND12_EVALUATION is that run's output (2026-12-03 17:43 UTC, the estimator of 795c5d9): its headline lines."""
    assert said in SC.ROUND12_EVALUATION
    assert any(line.startswith(f"- {FROZEN}, {WITHOUT_READING}, KV capacity: 12/15 within 5 % (max 20.9%)")
               for line in SC.ROUND12_EVALUATION)


def test_the_readme_records_the_one_evaluations_headline():
    text = README.read_text(encoding="utf-8")
    assert text.index("\n" + SECTION + "\n") < text.index("\n" + EVALUATION + "\n")
    readme = text.split(EVALUATION, 1)[1]
    for said in ("14/19 figures, 7/10 cases, max 20.9 %", "4/7 sources", "12/15 figures, 6/8 cases",
                 "**first of all a KV reading**", "**the two 5 req/s runs' output tok/s is read apart**",
                 "23.7 %: **met**", "3.1 %: **met**", "5.9 %: **met**", "ROUND12_EVALUATION",
                 "191,792 tokens predicted against 158,656"):
        assert said in readme, said


def test_the_report_prints_the_frozen_evaluation_first_and_is_current(cat, rows):
    """benchmarks/serving.md is what `python benchmarks/serving.py` prints at this commit; round 12 (spent since round
    13 was placed) follows round 13 in the targets (its KV reading first), before round 11 (spent); its one evaluation
    is printed as frozen, and its live figures under ROUND12_SINCE_HEADING, labelled "(spent)" (at this commit the
    frozen ones relabelled)."""
    text = SC.report(cat)
    assert text == (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8"), \
        "benchmarks/serving.md is stale: run `python benchmarks/serving.py > benchmarks/serving.md`"
    start = text.index("### Round 12: its one evaluation")
    since = text.index(SC.ROUND12_SINCE_HEADING)
    assert "\n".join(SC.ROUND12_EVALUATION) in text[start:since]
    live = [*SC.pooled_round_targets(SC.ROUND12, rows), "", *SC.findings_pooled_round(SC.ROUND12, rows)]
    if live == SC._relabelled_as_spent(SC.Split.heldout12, SC.ROUND12_EVALUATION):
        assert "The same figures as its one evaluation above, now labelled" in \
            text[since:text.index("### Round 11: its one evaluation")]
    else:  # a later change moved them: printed under the heading
        assert "\n".join(SC.pooled_round_targets(SC.ROUND12, rows)) in \
            text[since:text.index("### Round 11: its one evaluation")]
    targets = text.split("## Targets", 1)[1].split("### Round 13: its one evaluation", 1)[0]
    assert "first of all a KV reading" in targets and "is read apart" in targets
    assert (targets.index("- held out, round 13, ") < targets.index(f"- {LABEL}, KV capacity: ") < targets.index(f"- {LABEL}, KV capacity, one per source")
            < targets.index(f"- {WITHOUT}, KV capacity: ") < targets.index(f"- {LABEL}, throughput: ")
            < targets.index(f"- {APART}, ") < targets.index("- held out, round 11 (spent), "))
    assert f"| {LABEL} | kv |" in text and "| held out 12 (spent) | [tokenkaki-" in text
    assert "Round 12 is spent since that evaluation" in text[since:text.index("### Round 11: its one evaluation")]
    assert f"- {FROZEN}, " not in text.replace("\n".join(SC.ROUND12_EVALUATION), "")  # relabelled outside it
    assert "held out, round 12" not in SC.report(cat, round12=False)
