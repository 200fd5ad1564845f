"""CI gate (issue 6 §4): the built-in golden set with the offline brain passes ≥ 95 % with zero unbacked numbers.

Same as `gpu-advisor eval --min-score 0.95 --max-unbacked 0`. On failure the message lists every failed item
and its reasons, so the brain can be fixed without re-running anything. Do not weaken the golden
expectations to make this pass: they come from published sources.
"""

from __future__ import annotations

import pytest

from assistant.evaluation.golden import load_golden
from assistant.evaluation.runner import run_eval
from knowledge.settings import Settings

MIN_SCORE = 0.95


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_builtin_golden_set_offline_brain():
    settings = Settings.load(llm="offline")
    report = run_eval(load_golden(), settings)
    failed = "\n".join(f"- {i.id}: " + "; ".join(i.failures) for i in report.items if not i.passed)
    unbacked = "\n".join(f"- {i.id}: {', '.join(i.unbacked)}" for i in report.items if i.unbacked)
    summary = (
        f"pass rate {report.score:.3f} ({report.passed}/{report.total}, gate {MIN_SCORE}); "
        f"advisor errors {report.errors}; unbacked numbers {report.unbacked_numbers} (gate 0)\n"
        f"failed items:\n{failed or '- none'}\nunbacked numbers:\n{unbacked or '- none'}"
    )
    assert report.errors == 0 and report.unbacked_numbers == 0 and report.score >= MIN_SCORE, summary
