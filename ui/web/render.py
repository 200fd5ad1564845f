"""Markdown pieces from an `Answer`: tool steps, sources, the options table.

Pure functions (Answer → str) so the web app, the export and the tests share
them. Every figure shown is copied from a tool result; this module only
rounds and lays out. Text that came from documents or users is escaped where
it lands inside our own Markdown structure (table cells, headings), and the
browser-side sanitizer (Gradio's `sanitize_html`) handles the rest.
"""

from __future__ import annotations

import html
import json
from typing import Any

from assistant.answer import Answer, Citation, ToolCallRecord
from tools.messages import formatter, render

PANEL_ROWS = 6  # options shown in the side panel and charts; the export and the answer list them all
PREVIEW_CHARS = 280  # passage preview under a citation: enough to judge relevance
DETAIL_JSON_CHARS = 1500  # a tool result inside its collapsible step; the full JSON is in `--json`

LABELS = {
    "en": {
        "rank": "#",
        "provider": "Provider",
        "instance": "Instance",
        "gpu": "GPUs",
        "region": "Region",
        "memory": "Need / usable per GPU",
        "memory_short": "Need/usable GiB",
        "hour": "Per hour",
        "month": "Per month",
        "job": "Whole job",
        "billing": "Billing",
        "as_of": "Price as of",
        "sources": "Sources",
        "tool": "Tool",
        "steps": "{n} tool call(s)",
        "arguments": "Arguments",
        "result": "Result",
        "no_options": "No recommendation yet: ask which server to rent for a model.",
        "more": "{n} more in the answer and the export",
    },
    "zh": {
        "rank": "#",
        "provider": "云厂商",
        "instance": "实例",
        "gpu": "GPU",
        "region": "地域",
        "memory": "每卡需要 / 可用",
        "memory_short": "需要/可用 GiB",
        "hour": "每小时",
        "month": "每月",
        "job": "整个任务",
        "billing": "计费",
        "as_of": "价格日期",
        "sources": "参考资料",
        "tool": "工具",
        "steps": "{n} 次工具调用",
        "arguments": "参数",
        "result": "结果",
        "no_options": "还没有推荐：问一下某个模型该租什么服务器。",
        "more": "另有 {n} 个见回答和导出文件",
    },
}


def labels(language: str) -> dict[str, str]:
    return LABELS.get(language, LABELS["en"])


# ---------------------------------------------------------------- small formatting


def num(value: Any, digits: int = 1) -> str:
    """A figure for people; None is 'unknown', never 0."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        if float(value).is_integer():
            return f"{int(value):,}"
        return f"{value:,.{digits}f}"
    return str(value)


def money(value: Any, currency: str | None) -> str:
    if value is None:
        return "unknown"
    symbol = {"USD": "$", "CNY": "¥"}.get(currency or "", "")
    digits = 0 if abs(value) >= 1000 else 2  # cents matter on hourly prices, not on monthly bills
    text = f"{value:,.{digits}f}"
    return f"{symbol}{text}" if symbol else f"{text} {currency or ''}".strip()


def cell(text: Any) -> str:
    """Safe inside a Markdown table cell: no HTML, no column breaks, one line."""
    s = html.escape(str(text), quote=False)
    return s.replace("|", "\\|").replace("\n", " ").strip()


# ---------------------------------------------------------------- tool steps


def tool_summary(call: ToolCallRecord) -> str:
    """One line that says what the tool found (shown next to the step title)."""
    r = call.result
    if not isinstance(r, dict):
        return _clip(str(r), 120)
    if r.get("error"):
        return f"error: {_clip(str(r['error']), 160)}"
    name = call.name
    try:
        if name == "search_guidance":
            titles = [p.get("title", "") for p in r.get("passages", [])]
            return f"{len(titles)} passage(s)" + (": " + "; ".join(_clip(t, 40) for t in titles[:3]) if titles else "")
        if name == "estimate_vram":
            fits = [k for k, ok in (r.get("fits") or {}).items() if ok]
            text = f"{num(r.get('per_gpu_gib'))} GiB per GPU × {num(r.get('gpus'))} ({r.get('mode')}, {r.get('precision')})"
            return text + (f"; fits {', '.join(fits[:5])}" if fits else "; fits none of the GPUs checked")
        if name == "estimate_train_time":
            return (
                f"{num(r.get('hours'))} h ≈ {num(r.get('days'))} days, {num(r.get('gpu_hours'), 0)} GPU-hours "
                f"on {num(r.get('gpus'))}× {r.get('gpu')}"
            )
        if name == "estimate_cost":
            return (
                f"{r.get('provider')}/{r.get('instance')}: {money(r.get('total'), r.get('currency'))} "
                f"for {num(r.get('hours'))} h {r.get('billing')} ({formatter('en').as_of(r.get('price_as_of'))})"
            )
        if name == "recommend_config":
            options, rejected = r.get("options") or [], r.get("rejected") or []
            text = f"{len(options)} option(s), {len(rejected)} near-miss(es)"
            if options:
                top = options[0]
                text += f"; top: {top.get('provider')}/{top.get('instance')} {money(top.get('monthly_cost'), top.get('currency'))}/month"
            return text
        if name == "lookup_catalog":
            if "instances" in r:
                return f"{len(r['instances'])} instance row(s)"
            return str(r.get("name") or r.get("key") or "record found")
    except (TypeError, ValueError, AttributeError):
        pass  # an unexpected shape: fall back to the raw JSON below
    return _clip(json.dumps(r, ensure_ascii=False), 120)


def tool_detail(call: ToolCallRecord, language: str = "en") -> str:
    """The inside of a tool step: arguments and (a clipped) result as JSON blocks."""
    lab = labels(language)
    args = json.dumps(call.args, ensure_ascii=False, indent=1)
    result = json.dumps(_slim(call.result), ensure_ascii=False, indent=1)
    return (
        f"**{lab['arguments']}**\n```json\n{_fence_safe(args)}\n```\n"
        f"**{lab['result']}**\n```json\n{_fence_safe(_clip(result, DETAIL_JSON_CHARS))}\n```"
    )


def tool_steps(answer: Answer) -> list[dict[str, Any]]:
    """The tool calls as Gradio 'thought' messages: one folded parent, one child per call.

    Nesting keeps the chat to one block (and one set of message buttons) for
    all the steps; each child opens to its arguments and result.
    """
    if not answer.tool_calls:
        return []
    lab = labels(answer.language)
    names = [c.name for c in answer.tool_calls]
    log = ", ".join(f"{n} ×{names.count(n)}" if names.count(n) > 1 else n for n in dict.fromkeys(names))
    parent: dict[str, Any] = {"title": f"🔧 {lab['steps'].format(n=len(names))}", "id": "tools", "log": log, "status": "done"}
    steps = [{"role": "assistant", "content": "", "metadata": parent}]
    for i, call in enumerate(answer.tool_calls):
        metadata: dict[str, Any] = {
            "title": f"🔧 {call.name}", "log": tool_summary(call), "status": "done", "id": f"tool-{i}", "parent_id": "tools",
        }
        seconds = answer.timings.get(f"tool:{call.name}")
        if seconds is not None and names.count(call.name) == 1:
            metadata["duration"] = round(seconds, 3)
        steps.append({"role": "assistant", "content": tool_detail(call, answer.language), "metadata": metadata})
    return steps


def _slim(result: Any) -> Any:
    """Passages are shown under Sources; keep the JSON step short."""
    if isinstance(result, dict) and isinstance(result.get("passages"), list):
        return {**result, "passages": [{k: v for k, v in p.items() if k != "text"} for p in result["passages"]]}
    return result


def _fence_safe(text: str) -> str:
    return text.replace("```", "ʼʼʼ")  # a passage must not close our code fence


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ---------------------------------------------------------------- citations


def citation_line(c: Citation) -> str:
    section = f" — {cell(c.section)}" if c.section else ""
    return f"**[{c.marker}] {cell(c.title)}**{section} `{cell(c.doc_id)}`"


def citations_markdown(citations: list[Citation]) -> str:
    """Each source with a short preview of the passage (quoted, escaped)."""
    blocks = []
    for c in citations:
        preview = " ".join((c.text or "").split())
        quote = f"\n> {html.escape(_clip(preview, PREVIEW_CHARS), quote=False)}" if preview else ""
        blocks.append(citation_line(c) + quote)
    return "\n\n".join(blocks)


def sources_step(answer: Answer) -> dict[str, Any] | None:
    if not answer.citations:
        return None
    return {
        "role": "assistant",
        "content": citations_markdown(answer.citations),
        "metadata": {"title": f"📚 {labels(answer.language)['sources']} ({len(answer.citations)})", "status": "done"},
    }


# ---------------------------------------------------------------- recommendation


def recommend_args(answer: Answer) -> dict[str, Any]:
    """The arguments of the last successful recommend_config call (budget, period…)."""
    for call in reversed(answer.tool_calls):
        if call.name == "recommend_config" and isinstance(call.result, dict) and not call.result.get("error"):
            return call.args
    return {}


def cost_period(answer: Answer) -> str:
    period = recommend_args(answer).get("period") or "month"
    return period if period in ("hour", "month", "job") else "month"


def option_cost(option: dict[str, Any], period: str) -> float | None:
    key = {"hour": "price_per_hour", "month": "monthly_cost", "job": "job_cost"}[period]
    return option.get(key)


def gpu_text(option: dict[str, Any], language: str = "en") -> str:
    count = option.get("total_gpus") or option.get("gpu_count")
    nodes = option.get("nodes") or 1
    text = f"{num(count)}× {option.get('gpu')}"
    if nodes <= 1:
        return text
    return text + (f"（{nodes} 台）" if language == "zh" else f" ({nodes} nodes)")


def note_texts(notes: list[Any] | None, language: str) -> list[str]:
    """Notes as the recommender returned them (JSON `{code, params}`), in the answer's language."""
    return [render(n, language) for n in notes or [] if isinstance(n, dict) and "code" in n]


def options_table(answer: Answer, compact: bool = False) -> str:
    """The ranked options as a Markdown table (empty string when there are none).

    `compact` is the side panel's narrow version: the first PANEL_ROWS options,
    provider folded into the instance cell, region and billing left to the
    caption, and only the cost columns that matter.
    """
    if not answer.options:
        return ""
    options = answer.options[:PANEL_ROWS] if compact else answer.options
    lab = labels(answer.language)
    period = cost_period(answer)
    if compact:
        cost_cols = [period]
        headers = [lab["rank"], lab["instance"], lab["gpu"], lab["memory_short"], *[lab[c] for c in cost_cols], lab["as_of"]]
    else:
        cost_cols = ["hour", "month"] + (["job"] if period == "job" else [])
        headers = [lab["rank"], lab["provider"], lab["instance"], lab["gpu"], lab["region"], lab["memory"]]
        headers += [lab[c] for c in cost_cols] + [lab["billing"], lab["as_of"]]
    rows = []
    f = formatter(answer.language)
    for n, o in enumerate(options, 1):
        cur = o.get("currency")
        costs = [money(option_cost(o, c), cur) for c in cost_cols]
        memory = f"{num(o.get('per_gpu_gib'))} / {num(o.get('gpu_usable_gib'))}" + ("" if compact else " GiB")
        as_of = cell(o.get("price_as_of") or f.as_of(None))
        gpus = cell(gpu_text(o, answer.language))
        if compact:
            rows.append([str(n), cell(f"{o.get('provider')} · {o.get('instance')}"), gpus, memory, *costs, as_of])
        else:
            rows.append([
                str(n), cell(o.get("provider")), cell(o.get("instance")), gpus, cell(o.get("region")),
                memory, *costs, cell(f.term("billing", o.get("billing"))), as_of,
            ])
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def recommendation_panel(answer: Answer | None) -> str:
    """The side panel's Markdown: the table plus why the top option won."""
    if answer is None or not answer.options:
        lang = answer.language if answer else "en"
        return f"_{labels(lang)['no_options']}_"
    parts = [options_table(answer, compact=True), _caption(answer)]
    top = answer.recommendation or answer.options[0]
    reasons = [cell(r) for r in note_texts(top.get("reasons"), answer.language)][:4]
    warnings = [cell(w) for w in note_texts(top.get("warnings"), answer.language)][:3]
    if reasons:
        parts.append("\n".join(f"- {r}" for r in reasons))
    if warnings:
        parts.append("\n".join(f"- ⚠ {w}" for w in warnings))
    return "\n\n".join(parts)


def _caption(answer: Answer) -> str:
    lab = labels(answer.language)
    shown = answer.options[:PANEL_ROWS]
    f = formatter(answer.language)
    billing = ("、" if answer.language == "zh" else ", ").join(sorted({f.term("billing", o.get("billing")) for o in shown}))
    regions = " / ".join(dict.fromkeys(str(o.get("region")) for o in shown))  # region names may contain commas
    text = f"{lab['billing']}: {cell(billing)} · {lab['region']}: {cell(regions)}"
    more = len(answer.options) - len(shown)
    if more > 0:
        text += " · " + lab["more"].format(n=more)
    return f"<sub>{text}</sub>"


# ---------------------------------------------------------------- streaming


def chunks(text: str, size: int = 120) -> list[str]:
    """Growing prefixes of `text` cut at line or word ends, for a streamed reply."""
    if not text:
        return [""]
    out, pos = [], 0
    while pos < len(text):
        end = min(len(text), pos + size)
        if end < len(text):
            cut = max(text.rfind("\n", pos, end), text.rfind(" ", pos, end))
            if cut > pos:
                end = cut + 1
        out.append(text[:end])
        pos = end
    return out
