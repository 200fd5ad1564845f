"""Aggregates and reports, from hand-built item results (no advisor needed)."""

from __future__ import annotations

import json

import pytest

from assistant.evaluation.golden import parse_items
from assistant.evaluation.report import report_format, to_html, to_markdown, write_report
from assistant.evaluation.runner import ItemResult, aggregate, percentile
from tools.errors import InputError

ITEMS = parse_items(
    [
        {"id": "a", "lang": "en", "category": "memory", "turns": ["q1"],
         "expect": {"tools": ["estimate_vram", "search_guidance"], "sources_any": ["vram"]}},
        {"id": "b", "lang": "zh", "category": "memory", "turns": ["q2"],
         "expect": {"tools": ["recommend"], "sources_any": ["billing-modes"]}},
        {"id": "c", "lang": "zh", "category": "off-topic", "turns": ["q3", "q4"], "expect": {}},
    ],
    "inline",
)


def result(id_, passed, tools, cited, latency, unbacked=(), error=None, failures=()):
    item = next(i for i in ITEMS if i.id == id_)
    return ItemResult(
        id=id_, lang=item.lang, category=item.category, passed=passed, failures=list(failures),
        question=item.turns[-1], turns=len(item.turns), answer="answer <b>x</b> | pipe",
        tools=list(tools), citations=[{"marker": 1, "doc_id": d, "title": d, "section": ""} for d in cited],
        unbacked=list(unbacked), latency_s=latency, total_s=latency, error=error,
    )


@pytest.fixture
def report():
    results = [
        result("a", True, ["estimate_vram", "search_guidance"], ["vram"], 0.10),
        result("b", False, ["estimate_vram"], ["vram"], 0.30, unbacked=["18 GB (GB)"],
               failures=["tools: expected tool(s) recommend to be called; called: estimate_vram"]),
        result("c", True, [], [], 0.20),
    ]
    return aggregate(ITEMS, results, warmup_s=1.5, duration_s=2.0, brain="offline", workers=2,
                     exchange_rate="1 USD = 7.1 CNY", golden=["g.yaml"], command="gpu-advisor eval --golden g.yaml",
                     started="2026-11-30T00:00:00+00:00")


def test_aggregates(report):
    assert report.score == pytest.approx(2 / 3, abs=1e-4)
    assert (report.passed, report.total, report.unbacked_numbers, report.errors) == (2, 3, 1, 0)
    assert report.by_category["memory"].passed == 1 and report.by_category["memory"].total == 2
    assert report.by_language["zh"].score == 0.5
    # expected tool names: estimate_vram ✓, search_guidance ✓, recommend ✗ → 2/3
    assert report.tool_call_accuracy == pytest.approx(0.6667, abs=1e-4)
    # items with sources_any: a cites vram ✓, b cites vram but expects billing-modes ✗ → 1/2
    assert report.citation_hit_rate == 0.5
    assert report.latency_p50_s == 0.2 and report.latency_p95_s == 0.3


def test_json_has_the_documented_top_level(report):
    data = json.loads(report.model_dump_json())
    assert {"score", "unbacked_numbers", "by_category", "items"} <= set(data)
    item = data["items"][1]
    assert {"id", "lang", "category", "passed", "failures", "answer", "tools", "citations", "latency_s"} <= set(item)
    assert item["failures"] == ["tools: expected tool(s) recommend to be called; called: estimate_vram"]


@pytest.mark.parametrize("values, q, expected", [([], 50, 0.0), ([3.0], 95, 3.0), ([1, 2, 3, 4], 50, 2), ([1, 2, 3, 4], 95, 4)])
def test_percentile_nearest_rank(values, q, expected):
    assert percentile(values, q) == expected


def test_markdown_starts_with_the_command_and_lists_failures(report):
    md = to_markdown(report)
    assert md.splitlines()[2:5] == ["```", "gpu-advisor eval --golden g.yaml", "```"]
    assert "| pass rate | 66.7 % (2/3) |" in md
    assert "### ✗ `b` (zh, memory)" in md
    assert "- tools: expected tool(s) recommend to be called; called: estimate_vram" in md
    assert "> answer &lt;b>x&lt;/b> | pipe" in md  # quoted answers cannot inject HTML
    assert "## Unbacked numbers (1)\n\n- `b`: 18 GB (GB)" in md


def test_html_escapes_answers(report):
    page = to_html(report)
    assert "answer &lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert page.startswith("<!doctype html>")


def test_write_report_by_extension(report, tmp_path):
    assert write_report(report, tmp_path / "r.md").read_text(encoding="utf-8").startswith("# Golden Q&A evaluation")
    assert "<table>" in write_report(report, tmp_path / "r.html").read_text(encoding="utf-8")
    with pytest.raises(InputError, match=r"--report .*r\.txt: use a \.md or \.html file name"):
        report_format(tmp_path / "r.txt")


def test_failed_checks_table_counts_checks_and_lone_failures(report):
    from assistant.evaluation.report import check_rows

    # item b fails only its tools check: one item fails it, and one would pass if that check were fixed
    assert check_rows(report) == [("tools", "1", "1")]
    md = to_markdown(report)
    assert "## Failed checks" in md and "| tools | 1 | 1 |" in md
    assert "<h2>Failed checks</h2>" in to_html(report)
