"""`gpu-advisor eval` on bad input: exit 2, one clear line, nothing asked (no progress line, no report)."""

from __future__ import annotations

import textwrap

import pytest

from ui.cli import main

GOOD = """\
- id: good
  lang: en
  category: memory
  turns: ["How much memory for LoRA on a 7B model?"]
  expect:
    tools: [estimate_vram]
"""


@pytest.fixture
def golden(tmp_path):
    def make(text: str):
        path = tmp_path / "golden.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return str(path)

    return make


def run(capsys, *argv):
    try:
        code = main(["eval", *argv])
    except SystemExit as stop:  # argparse's own flag errors exit from inside parse_args
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_nothing_ran(out: str, err: str, report) -> None:
    assert out == ""
    assert "[1/" not in err  # the per-item progress line: no item was asked
    assert not report.exists()
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_malformed_second_item_stops_everything(golden, capsys, tmp_path):
    path = golden(GOOD + "- id: bad\n  lang: en\n  category: x\n  turns: [hi]\n  expect:\n    mention_any: [[a]]\n")
    report = tmp_path / "report.md"
    code, out, err = run(capsys, "--golden", path, "--report", str(report), "--json")
    assert code == 2
    assert "item 2 (id 'bad'): expect.mention_any: unknown key" in err
    assert "Did you mean: mentions_any" in err
    assert_nothing_ran(out, err, report)


def test_unknown_unit_in_numbers(golden, capsys, tmp_path):
    path = golden(GOOD.replace("    tools: [estimate_vram]\n", "    numbers: [{value: 16, unit: gigs}]\n"))
    report = tmp_path / "report.md"
    code, out, err = run(capsys, "--golden", path, "--report", str(report))
    assert code == 2
    assert "item 1 (id 'good'): expect.numbers.0.unit: unknown unit 'gigs'" in err
    assert_nothing_ran(out, err, report)


def test_yaml_syntax_error(golden, capsys, tmp_path):
    path = golden("- id: x\n  turns: [unclosed\n")
    code, out, err = run(capsys, "--golden", path)
    assert code == 2 and "not valid YAML" in err
    assert_nothing_ran(out, err, tmp_path / "none.md")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--only", "goood"], r"--only goood: no golden item has this id\. Did you mean: good\?"),
        (["--report", "REPORT.txt"], r"--report REPORT\.txt: use a \.md or \.html file name"),
        (["--min-score", "95"], r"95 is not a fraction between 0 and 1"),
        (["--judge"], r"--judge needs an LLM"),
        (["--workers", "0"], r"needs at least 1 worker"),
    ],
)
def test_bad_flags_exit_2_before_running(golden, capsys, tmp_path, argv, message):
    import re

    code, out, err = run(capsys, "--golden", golden(GOOD), *argv)
    assert code == 2
    assert re.search(message, err), err
    assert_nothing_ran(out, err, tmp_path / "REPORT.txt")
