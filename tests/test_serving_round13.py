"""Serving held-out round 13 (issue 11): frozen by digest (held_out_freezes.md, "Session 14, second freeze", 74b8f1d),
placed byte-identical in 816e237 and evaluated once on the estimator of 816e237; that evaluation is kept verbatim
(ROUND13_EVALUATION). As decided at the freeze: a KV reading of its 7 KV cases (every case within 5 %) in full, per
source and one per source (cssnoeasy's 4 are one table), then its 5 throughput/latency cases pooled, with no per-source
line. The checks every placed round shares (digests, the collector's text, whole-source split, no erratum, no fitter,
every case estimated) run from the registry in tests/test_held_out_rounds.py; benchmarks/serving.md being current is
checked by tests/test_serving_round12.py. Only the frozen text is checked here: nothing is re-estimated.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "tests" / "data" / "serving" / "README.md"
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)

LABEL = "held out, round 13"
EVALUATION = "## Round 13: its one evaluation (2026-12-04, the estimator of commit 816e237)"
CSSNOEASY = "`cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16"


def test_the_reading_is_the_one_decided_at_the_freeze():
    """The KV lines lead (in full, by case, the 3 sources, one per source), then throughput and latency pooled only."""
    spec = SC.ROUND13
    assert (spec.kv_first, spec.kv_one_per_source, spec.pooled_only) == (True, True, True)
    assert spec.apart == () and spec.kv_without == () and spec.lead_file == SC.ROUND13_CSSNOEASY_FILE
    assert not (SC.ROUND12.pooled_only or SC.ROUND11.pooled_only or SC.ROUND10.pooled_only)  # they print as before
    starts = [f"- {LABEL}, KV capacity: 10/14 ", "  - by case: 5/7 cases",
              *[f"- {LABEL}, source {s}, KV capacity: " for s in (
                  "cssnoeasy_vllm_a100_pcie_qwen3_32b", "faradawn_bench3_h200", "kagaho_vllm_l40s_tp2")],
              f"- {LABEL}, KV capacity, one per source (3 sources; ", f"- {LABEL}, throughput: ",
              f"- {LABEL}, latency: ", "  - of which mean figures", ""]
    ev = SC.ROUND13_EVALUATION
    assert [line[:len(s)] for line, s in zip(ev, starts)] == starts
    assert not any(line.startswith(f"- {LABEL}, source ") and "KV capacity" not in line for line in ev)


@pytest.mark.parametrize("said", [
    f"- {LABEL}, KV capacity: 10/14 within 5 % (max 5.1%) — target every case: **missed**: {CSSNOEASY}-kv-mml8192` "
    f"kv_cache_gib -5.1%, {CSSNOEASY}-kv-mml8192` kv_cache_tokens -5.1%, {CSSNOEASY}-fp8kv-kv-mml8192` kv_cache_gib "
    f"-5.1%, {CSSNOEASY}-fp8kv-kv-mml8192` kv_cache_tokens -5.1%.",
    "  - by case: 5/7 cases with each of their KV figures (GiB and tokens) within 5 %.",
    f"- {LABEL}, source faradawn_bench3_h200, KV capacity: 4/4 within 5 % (max 1.6%) — target every case: **met**.",
    f"- {LABEL}, source kagaho_vllm_l40s_tp2, KV capacity: 2/2 within 5 % (max 0.5%) — target every case: **met**.",
    f"- {LABEL}, KV capacity, one per source (3 sources; a source is within when each of its KV figures is): 2/3 "
    "sources within 5 % — target every case: **missed**: cssnoeasy_vllm_a100_pcie_qwen3_32b (max 5.1%).",
    f"- {LABEL}, throughput: median error 10.8% over 5 figures — target ≤ 25 %: **met**.",
    f"- {LABEL}, latency: median error 17.7% over 6 figures — target ≤ 25 %: **met**.",
    "| round 13 | kv | single | 14 | 0.9% (-0.4%) · 14 | 10/14 | 14/14 | 5.1% | 6/14 |",
    "| faradawn_bench3_h200 | ttft_ms | mean | 3 | 32.0% (-32.0%) · 3 | 1/3 | 3/3 | 96.3% | 0/3 |",
])
def test_the_one_evaluation_is_kept_verbatim(said):
    """ROUND13_EVALUATION is that run's output (2026-12-04 20:07 UTC, the estimator of 816e237): its headline lines."""
    assert said in SC.ROUND13_EVALUATION


def test_the_readme_records_the_one_evaluations_headline():
    text = README.read_text(encoding="utf-8")
    readme = text.split("\n" + EVALUATION + "\n", 1)[1]
    for said in ("10/14 figures, 5/7 cases, max 5.1 %", "2/3 sources", "10.8 %: **met**", "17.7 %: **met**",
                 "**The TensorRT-LLM settings the", "ROUND13_EVALUATION", "9.57 → 9.09 GiB (-5.1 %)"):
        assert said in readme, said


def test_the_report_prints_the_frozen_evaluation_first():
    """Round 13 leads the targets (its KV reading first), before round 12 (spent); its frozen text in its section."""
    text = (ROOT / "benchmarks" / "serving.md").read_text(encoding="utf-8")
    start, since = text.index("### Round 13: its one evaluation"), text.index(SC.ROUND13_SINCE_HEADING)
    assert "\n".join(SC.ROUND13_EVALUATION) in text[start:since] and start < text.index("### Round 12: its one ")
    targets = text.split("## Targets", 1)[1].split("### Round 13: its one evaluation", 1)[0]
    assert "read as the collector mapped them" in targets
    assert (targets.index(f"- {LABEL}, KV capacity: ") < targets.index(f"- {LABEL}, KV capacity, one per source")
            < targets.index(f"- {LABEL}, throughput: ") < targets.index("- held out, round 12 (spent), "))
