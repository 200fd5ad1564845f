"""The runner with the real Advisor: turns in order, per-item results, JSON, report, exit codes."""

from __future__ import annotations

import json
import textwrap

import pytest

from assistant.evaluation.golden import load_golden
from assistant.evaluation.runner import run_eval
from knowledge.settings import Settings
from ui.cli import main

# Checks chosen to depend on the runner, not on how good the brain is: one item has none (passes),
# one asks for a string no answer contains (fails), one is a two-turn conversation (passes).
TINY = """\
- id: no-checks
  lang: en
  category: plumbing
  turns: ["What is the memory of an H100?"]
- id: impossible-mention
  lang: en
  category: plumbing
  turns: ["What is the memory of an A100?"]
  expect:
    mentions_any: [["zzz-this-string-never-appears-zzz"]]
- id: two-turns
  lang: zh
  category: conversation
  turns: ["H100 显存多大？", "那 A100 呢？"]
"""


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(textwrap.dedent(TINY), encoding="utf-8")
    return path


def test_advisor_errors_become_item_failures_not_a_crash(tiny):
    # A brain spec the agent rejects makes Advisor() raise ConfigError: each item records it, the run goes on.
    settings = Settings.load(llm="no-such-provider:model")
    report = run_eval(load_golden([tiny]), settings, warm_up=False, workers=1)
    assert report.total == 3 and report.passed == 0 and report.errors == 3
    assert all(i.error and i.error.startswith("ConfigError") for i in report.items)
    assert report.items[0].failures[0].startswith("error: the advisor raised ConfigError")


@pytest.mark.slow
def test_cli_runs_items_and_applies_min_score(tiny, tmp_path, capsys):
    report_path = tmp_path / "out" / "report.md"
    # 2 of 3 items pass: 0.667 is under 0.7 → exit 1, with the JSON and the report still written.
    code = main(["eval", "--golden", str(tiny), "--json", "--report", str(report_path), "--min-score", "0.7"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "below --min-score 0.7" in err
    data = json.loads(out)
    assert data["score"] == pytest.approx(2 / 3, abs=1e-3)
    assert isinstance(data["unbacked_numbers"], int)
    assert data["by_category"]["plumbing"] == {"total": 2, "passed": 1, "score": 0.5}
    items = {i["id"]: i for i in data["items"]}
    assert [i["id"] for i in data["items"]] == ["no-checks", "impossible-mention", "two-turns"]  # input order
    failed = items["impossible-mention"]
    assert failed["passed"] is False
    assert failed["failures"] == ["mentions_any: none of [zzz-this-string-never-appears-zzz] appears in the answer"]
    assert failed["answer"] and failed["latency_s"] > 0 and isinstance(failed["tools"], list)
    assert isinstance(failed["citations"], list)
    assert items["two-turns"]["turns"] == 2 and items["two-turns"]["question"] == "那 A100 呢？"
    md = report_path.read_text(encoding="utf-8")
    assert md.splitlines()[3].startswith("gpu-advisor eval --golden ")  # the command heads the report
    assert "impossible-mention" in md
    assert err.count("[") >= 3  # one progress line per item

    # At or above the threshold → exit 0.
    code = main(["eval", "--golden", str(tiny), "--only", "no-checks", "--min-score", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "pass rate" in out and "100.0 % (1/1)" in out
