"""Reports for people: Markdown (committed as benchmarks/eval_report.md) and HTML.

Both are rendered from the same sections: the command that produced the
report, the headline numbers, per-category and per-language pass rates, every
failed item with its reasons and answer, and a table of all items.
"""

from __future__ import annotations

import html
from pathlib import Path

from assistant.evaluation.runner import EvalReport, GroupStats, ItemResult
from tools.errors import InputError


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x * 100:.1f} %"


def headline_rows(r: EvalReport) -> list[tuple[str, str]]:
    rows = [
        ("pass rate", f"{_pct(r.score)} ({r.passed}/{r.total})"),
        ("unbacked numbers", str(r.unbacked_numbers)),
        ("advisor errors", str(r.errors)),
        ("tool-call accuracy", _pct(r.tool_call_accuracy)),
        ("citation hit rate", _pct(r.citation_hit_rate)),
        ("latency p50 / p95 (scored turn)", f"{r.latency_p50_s * 1000:.0f} ms / {r.latency_p95_s * 1000:.0f} ms"),
        ("warm-up (first load)", "n/a" if r.warmup_s is None else f"{r.warmup_s:.1f} s"),
        ("wall time", f"{r.duration_s:.1f} s on {r.workers} worker(s)"),
        ("brain", r.brain),
        ("exchange rate", r.exchange_rate),
    ]
    if r.judge:
        rows.append(("LLM judge: mean faithfulness",
                     f"{r.judge.get('mean_faithfulness')} over {r.judge.get('judged')} items ({r.judge.get('model')})"))
    return rows


def group_rows(groups: dict[str, GroupStats]) -> list[tuple[str, str, str]]:
    return [(name, f"{g.passed}/{g.total}", _pct(g.score)) for name, g in groups.items()]


def check_rows(r: EvalReport) -> list[tuple[str, str, str]]:
    """Per check: items that failed it, and items that failed it and nothing else (what one fix would gain)."""
    failed: dict[str, int] = {}
    alone: dict[str, int] = {}
    for i in r.items:
        if i.passed:
            continue
        names = sorted({f.split(":", 1)[0] for f in i.failures}) or ["unknown"]  # failures read "check: reason"
        for n in names:
            failed[n] = failed.get(n, 0) + 1
        if len(names) == 1:
            alone[names[0]] = alone.get(names[0], 0) + 1
    return [(n, str(failed[n]), str(alone.get(n, 0))) for n in sorted(failed, key=lambda n: (-failed[n], n))]


def _one_line(text: str, limit: int = 0) -> str:
    flat = " ".join(text.split())
    return flat if not limit or len(flat) <= limit else flat[: limit - 1] + "…"


# ------------------------------------------------------------------ Markdown


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _md_table(headers: list[str], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _md_failed(i: ItemResult) -> str:
    parts = [f"### ✗ `{i.id}` ({i.lang}, {i.category})", "", f"**Asked** (turn {i.turns}): {_one_line(i.question)}", ""]
    parts += [f"- {_one_line(f)}" for f in i.failures]
    parts += ["", f"Tools: {', '.join(i.tools) or 'none'} · cited: "
              f"{', '.join(dict.fromkeys(c['doc_id'] for c in i.citations)) or 'nothing'} · "
              f"top pick: {_rec(i)} · {i.latency_s * 1000:.0f} ms"]
    if i.answer:
        # inside <details>, raw HTML in an answer would render: neutralise '<'
        quoted = "\n".join("> " + line.replace("<", "&lt;") for line in i.answer.strip().splitlines()[:40])
        parts += ["", "<details><summary>answer</summary>", "", quoted, "", "</details>"]
    return "\n".join(parts)


def _rec(i: ItemResult) -> str:
    r = i.recommendation
    if not r:
        return "none"
    count = r.get("gpu_count")
    count_text = f"{count:g}× " if isinstance(count, (int, float)) else ""
    cost = r.get("monthly_cost")
    cost_text = f", {cost:,.0f} {r.get('currency')}/month" if isinstance(cost, (int, float)) else ", price unknown"
    return f"{r.get('provider')}/{r.get('instance')} ({count_text}{r.get('gpu')}{cost_text})"


def to_markdown(r: EvalReport) -> str:
    out = ["# Golden Q&A evaluation", ""]
    if r.command:
        out += ["```", r.command, "```", ""]
    out += [f"Run {r.started} over {', '.join(r.golden) or 'the built-in golden set'}.", ""]
    out += [_md_table(["measure", "value"], headline_rows(r)), ""]
    out += ["## By category", "", _md_table(["category", "passed", "rate"], group_rows(r.by_category)), ""]
    out += ["## By language", "", _md_table(["language", "passed", "rate"], group_rows(r.by_language)), ""]
    if r.failed:
        out += ["## Failed checks", "", _md_table(["check", "items failing it", "items failing only it"], check_rows(r)), ""]
    failed = r.failed
    out += [f"## Failed items ({len(failed)})", ""]
    out += [_md_failed(i) + "\n" for i in failed] or ["None.", ""]
    with_unbacked = [i for i in r.items if i.unbacked]
    out += [f"## Unbacked numbers ({r.unbacked_numbers})", ""]
    out += [f"- `{i.id}`: {', '.join(i.unbacked)}" for i in with_unbacked] or ["None."]
    out += ["", "## All items", ""]
    rows = [
        (f"`{i.id}`", i.lang, i.category, "✓" if i.passed else "✗", f"{i.latency_s * 1000:.0f}",
         ", ".join(i.tools) or "–", ", ".join(dict.fromkeys(c["doc_id"] for c in i.citations)) or "–",
         str(len(i.unbacked)))
        for i in r.items
    ]
    out += [_md_table(["id", "lang", "category", "pass", "ms", "tools", "cited", "unbacked"], rows), ""]
    return "\n".join(out)


# ------------------------------------------------------------------ HTML


def _h(text: object) -> str:
    return html.escape(str(text))


def _html_table(headers: list[str], rows: list[tuple[str, ...]], raw_cols: set[int] = frozenset()) -> str:
    head = "".join(f"<th>{_h(x)}</th>" for x in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{c if n in raw_cols else _h(c)}</td>" for n, c in enumerate(row)) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_CSS = """body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;
text-align:left;vertical-align:top}th{background:#f3f3f3}.fail{color:#b00020}.pass{color:#1b7f3b}
pre{white-space:pre-wrap;background:#f7f7f7;padding:.5rem}details{margin:.25rem 0 1rem}"""


def to_html(r: EvalReport) -> str:
    parts = ["<!doctype html><html lang=en><head><meta charset=utf-8>",
             "<title>Golden Q&amp;A evaluation</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Golden Q&amp;A evaluation</h1>"]
    if r.command:
        parts.append(f"<pre>{_h(r.command)}</pre>")
    parts.append(f"<p>Run {_h(r.started)} over {_h(', '.join(r.golden) or 'the built-in golden set')}.</p>")
    parts.append(_html_table(["measure", "value"], headline_rows(r)))
    parts.append("<h2>By category</h2>" + _html_table(["category", "passed", "rate"], group_rows(r.by_category)))
    parts.append("<h2>By language</h2>" + _html_table(["language", "passed", "rate"], group_rows(r.by_language)))
    if r.failed:
        parts.append("<h2>Failed checks</h2>" + _html_table(["check", "items failing it", "items failing only it"],
                                                            check_rows(r)))
    parts.append(f"<h2>Failed items ({len(r.failed)})</h2>")
    for i in r.failed:
        reasons = "".join(f"<li>{_h(f)}</li>" for f in i.failures)
        parts.append(
            f"<h3 class=fail>✗ {_h(i.id)} ({_h(i.lang)}, {_h(i.category)})</h3>"
            f"<p><b>Asked</b> (turn {i.turns}): {_h(i.question)}</p><ul>{reasons}</ul>"
            f"<p>Tools: {_h(', '.join(i.tools) or 'none')} · top pick: {_h(_rec(i))}</p>"
            f"<details><summary>answer</summary><pre>{_h(i.answer)}</pre></details>"
        )
    unbacked = "".join(f"<li>{_h(i.id)}: {_h(', '.join(i.unbacked))}</li>" for i in r.items if i.unbacked)
    parts.append(f"<h2>Unbacked numbers ({r.unbacked_numbers})</h2>" + (f"<ul>{unbacked}</ul>" if unbacked else "<p>None.</p>"))
    rows = [
        (i.id, i.lang, i.category, "<span class=pass>✓</span>" if i.passed else "<span class=fail>✗</span>",
         f"{i.latency_s * 1000:.0f}", ", ".join(i.tools) or "–", str(len(i.unbacked)))
        for i in r.items
    ]
    parts.append("<h2>All items</h2>" + _html_table(["id", "lang", "category", "pass", "ms", "tools", "unbacked"],
                                                   rows, raw_cols={3}))
    parts.append("</body></html>")
    return "\n".join(parts)


def report_format(path: str | Path) -> str:
    """'md' or 'html' from the file name; anything else is an input error (checked before a run)."""
    suffix = Path(path).suffix.lower()
    if suffix in (".md", ".markdown"):
        return "md"
    if suffix in (".html", ".htm"):
        return "html"
    raise InputError(f"--report {path}: use a .md or .html file name.")


def write_report(r: EvalReport, path: str | Path) -> Path:
    path = Path(path)
    text = to_markdown(r) if report_format(path) == "md" else to_html(r)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
