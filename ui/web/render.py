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
from typing import Any, Mapping

from assistant.answer import Answer, Citation, ToolCallRecord
from tools.errors import AdvisorError
from tools.messages import formatter, render
from tools.notes import Note

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
        "steps": "{n} tool call",
        "steps_many": "{n} tool calls",
        "arguments": "Arguments",
        "result": "Result",
        "no_options": "No recommendation yet: ask which server to rent for a model.",
        "more": "{n} more in the answer and the export",
        "none_fit": "No option met the requirements this time: the answer says why.",
        "earlier": "↩ From question {turn} (this answer has no new recommendation)",
        "unknown": "unknown",
        "price_unknown": "unknown",
        "yes": "yes",
        "no": "no",
        "colon": ": ",
        "sep": " · ",  # between the caption's parts
        "list": " / ",  # between region names (which may contain commas)
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
        "steps_many": "{n} 次工具调用",  # Chinese has no plural
        "arguments": "参数",
        "result": "结果",
        "no_options": "还没有推荐：问一下某个模型该租什么服务器。",
        "more": "另有 {n} 个候选，见回答和导出文件",
        "none_fit": "这次没有符合条件的配置：原因见回答。",
        "earlier": "↩ 第 {turn} 问的推荐（这一轮的回答没有新的推荐）",
        "unknown": "未知",
        "price_unknown": "价格未知",
        "yes": "是",
        "no": "否",
        "colon": "：",
        "sep": "；",
        "list": "、",
    },
}


def labels(language: str) -> dict[str, str]:
    return LABELS.get(language, LABELS["en"])


# ---------------------------------------------------------------- small formatting


def num(value: Any, digits: int = 1, language: str = "en") -> str:
    """A figure for people; None is 'unknown' (未知), never 0."""
    if value is None:
        return labels(language)["unknown"]
    if isinstance(value, bool):
        return labels(language)["yes" if value else "no"]
    if isinstance(value, (int, float)):
        if float(value).is_integer():
            return f"{int(value):,}"
        return f"{value:,.{digits}f}"
    return str(value)


def money(value: Any, currency: str | None, language: str = "en") -> str:
    """An amount as tables show it (digits, no 万); None is 'unknown' / 价格未知, never 0."""
    if value is None:
        return labels(language)["price_unknown"]
    symbol = {"USD": "$", "CNY": "¥"}.get(currency or "", "")
    digits = 0 if abs(value) >= 1000 else 2  # cents matter on hourly prices, not on monthly bills
    text = f"{value:,.{digits}f}"
    return f"{symbol}{text}" if symbol else f"{text} {currency or ''}".strip()


# ---------------------------------------------------------------- names


ProviderNames = Mapping[str, Any]  # provider key -> a catalog `Provider` (name, name_zh)


def provider_names() -> ProviderNames:
    """The catalog's providers by key, for display names; {} when the catalog can't be read (ids are shown then).

    `load_catalog` is cached by file fingerprint, so this is the Advisor's own catalog object
    (same settings) and costs a few stat calls.
    """
    from knowledge.catalog.loader import load_catalog

    try:
        return load_catalog().providers
    except AdvisorError:
        return {}


def provider_label(option: Mapping[str, Any] | str | None, language: str = "en", names: ProviderNames | None = None) -> str:
    """A provider's display name: the Chinese one (恒源云) in a Chinese answer, else `name`; the id when unknown.

    `option` is an option/result dict (its `provider` key, or `provider_name` / `provider_zh` when the
    result carries them) or a provider key.
    """
    row: Mapping[str, Any] = option if isinstance(option, Mapping) else {"provider": option}
    key = row.get("provider")
    p = (names if names is not None else provider_names()).get(str(key)) if key is not None else None
    zh = row.get("provider_zh") or getattr(p, "name_zh", None)
    en = row.get("provider_name") or getattr(p, "name", None)
    if language == "zh" and zh:
        return str(zh)
    return str(en or key or "?")


def region_label(region: Any, language: str = "en") -> str:
    """A region id in words where the message tables have it (cn-mainland -> 中国大陆); else the id, as plain text.

    The answer's prose and this panel share one mapping (`tools.messages.format.Formatter.region`).
    """
    return formatter(language).region(region, code=False)


def where(option: Mapping[str, Any], language: str = "en", names: ProviderNames | None = None) -> str:
    """'恒源云 · rtx-3090-1x': provider display name and instance id."""
    return f"{provider_label(option, language, names)} · {option.get('instance')}"


def cell(text: Any) -> str:
    """Safe inside a Markdown table cell: no HTML, no column breaks, one line."""
    s = html.escape(str(text), quote=False)
    return s.replace("|", "\\|").replace("\n", " ").strip()


def code_cell(text: Any) -> str:
    """An identifier as inline code inside a table cell (the page keeps code spans whole: no break mid-id).

    Code spans show their text literally, so only the cell's column break is escaped; an id that
    could end the span (a backtick) or leave the line is shown as plain escaped text instead.
    """
    s = str(text).strip()
    if not s or "`" in s or "\n" in s or "<" in s:
        return cell(s)
    return "`" + s.replace("|", "\\|") + "`"


# ---------------------------------------------------------------- tool steps


def tool_summary(call: ToolCallRecord, language: str = "en", names: ProviderNames | None = None) -> str:
    """One line that says what the tool found (shown next to the step title), in the answer's language."""
    r = call.result
    if not isinstance(r, dict):
        return _clip(str(r), 120)

    def say(code: str, **params: Any) -> str:
        return render(Note(code=code, params=params), language)

    if r.get("error"):
        return say("ui.tool.error", error=_clip(str(r["error"]), 160))
    name = call.name

    def n(value: Any, digits: int = 1) -> str:
        return num(value, digits, language)

    try:
        if name == "search_guidance":
            titles = [p.get("title", "") for p in r.get("passages", [])]
            return say("ui.tool.search", count=len(titles), titles=[_clip(t, 40) for t in titles[:3]])
        if name == "estimate_vram":
            fits = [k for k, ok in (r.get("fits") or {}).items() if ok]
            return say("ui.tool.vram", per_gpu_gib=n(r.get("per_gpu_gib")), gpus=n(r.get("gpus")), mode=r.get("mode"),
                       precision=r.get("precision"), fits=fits[:5])
        if name == "estimate_train_time":
            return say("ui.tool.train_time", hours=n(r.get("hours")), days=n(r.get("days")), gpu_hours=n(r.get("gpu_hours"), 0),
                       gpus=n(r.get("gpus")), gpu=r.get("gpu"))
        if name == "estimate_cost":
            return say("ui.tool.cost", where=where(r, language, names), total=money(r.get("total"), r.get("currency"), language),
                       hours=n(r.get("hours")), billing=r.get("billing"), as_of=r.get("price_as_of"))
        if name == "recommend_config":
            options, rejected = r.get("options") or [], r.get("rejected") or []
            top = options[0] if options else None
            return say("ui.tool.recommend", options=len(options), rejected=len(rejected),
                       top=where(top, language, names) if top else None,
                       cost=money(top.get("monthly_cost"), top.get("currency"), language) if top else None)
        if name == "lookup_catalog":
            if "instances" in r:
                return say("ui.tool.catalog_rows", count=len(r["instances"]))
            return str(r.get("name") or r.get("key") or say("ui.tool.catalog_found"))
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
    sep = "、" if answer.language == "zh" else ", "
    log = sep.join(f"{n} ×{names.count(n)}" if names.count(n) > 1 else n for n in dict.fromkeys(names))
    steps_label = lab["steps" if len(names) == 1 else "steps_many"].format(n=len(names))
    parent: dict[str, Any] = {"title": f"🔧 {steps_label}", "id": "tools", "log": log, "status": "done"}
    steps = [{"role": "assistant", "content": "", "metadata": parent}]
    providers = provider_names()
    for i, call in enumerate(answer.tool_calls):
        metadata: dict[str, Any] = {
            "title": f"🔧 {call.name}", "log": tool_summary(call, answer.language, providers), "status": "done", "id": f"tool-{i}", "parent_id": "tools",
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
    text = f"{num(count, language=language)}× {option.get('gpu')}"
    if nodes <= 1:
        return text
    return text + (f"（{nodes} 台）" if language == "zh" else f" ({nodes} nodes)")


def note_texts(notes: list[Any] | None, language: str) -> list[str]:
    """Notes as the recommender returned them (JSON `{code, params}`), in the answer's language."""
    return [render(n, language) for n in notes or [] if isinstance(n, dict) and "code" in n]


def options_table(answer: Answer, compact: bool = False, names: ProviderNames | None = None) -> str:
    """The ranked options as a Markdown table (empty string when there are none).

    `compact` is the side panel's narrow version: the first PANEL_ROWS options,
    provider folded into the instance cell, region and billing left to the
    caption, and only the cost columns that matter. Providers are shown by
    display name (`provider_label`), regions in words (`region_label`).
    """
    if not answer.options:
        return ""
    lang = answer.language
    names = names if names is not None else provider_names()
    options = answer.options[:PANEL_ROWS] if compact else answer.options
    lab = labels(lang)
    period = cost_period(answer)
    if compact:
        cost_cols = [period]
        headers = [lab["rank"], lab["instance"], lab["gpu"], lab["memory_short"], *[lab[c] for c in cost_cols], lab["as_of"]]
    else:
        cost_cols = ["hour", "month"] + (["job"] if period == "job" else [])
        headers = [lab["rank"], lab["provider"], lab["instance"], lab["gpu"], lab["region"], lab["memory"]]
        headers += [lab[c] for c in cost_cols] + [lab["billing"], lab["as_of"]]
    rows = []
    f = formatter(lang)
    for n, o in enumerate(options, 1):
        cur = o.get("currency")
        costs = [money(option_cost(o, c), cur, lang) for c in cost_cols]
        memory = f"{num(o.get('per_gpu_gib'), language=lang)} / {num(o.get('gpu_usable_gib'), language=lang)}"
        memory += "" if compact else " GiB"
        as_of = cell(f.date_or_unknown(o.get("price_as_of")))
        gpus = cell(gpu_text(o, lang))
        if compact:  # the provider's name over its instance id: the narrow column wraps between them, never inside the id
            place = f"{cell(provider_label(o, lang, names))}<br>{code_cell(o.get('instance'))}"
            rows.append([str(n), place, gpus, memory, *costs, as_of])
        else:
            rows.append([
                str(n), cell(provider_label(o, lang, names)), cell(o.get("instance")), gpus, cell(region_label(o.get("region"), lang)),
                memory, *costs, cell(f.term("billing", o.get("billing"))), as_of,
            ])
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def ran_recommender(answer: Answer) -> bool:
    """The turn asked the recommender (successfully or not) and showed what it said: an empty panel then means
    "nothing fits" (an alternative computed beside a "yes" and not shown is not an answer to show)."""
    return any(call.name == "recommend_config" and call.shown for call in answer.tool_calls)


def recommendation_panel(answer: Answer | None, names: ProviderNames | None = None, *, earlier: int | None = None,
                         language: str = "en") -> str:
    """The side panel's Markdown: the table plus why the top option won.

    `earlier`: the panel shows the recommendation of that earlier question (numbered from 1) because
    the latest answer had none; a first line says so, in `answer.language` (pass the earlier answer
    re-labelled with the conversation's current language). `language`: of the empty panel's line
    when there is no answer (a new page, a new conversation).
    """
    if answer is None or not answer.options:
        lang = answer.language if answer else language
        key = "none_fit" if answer is not None and ran_recommender(answer) else "no_options"
        return f"_{labels(lang)[key]}_"
    parts = [options_table(answer, compact=True, names=names), _caption(answer)]
    if earlier is not None:
        parts.insert(0, f"_{cell(labels(answer.language)['earlier'].format(turn=earlier))}_")
    top = answer.recommendation or answer.options[0]
    reasons = [cell(r) for r in note_texts(top.get("reasons"), answer.language)][:4]
    warnings = [cell(w) for w in note_texts(top.get("warnings"), answer.language)][:3]
    if reasons:
        parts.append("\n".join(f"- {r}" for r in reasons))
    if warnings:
        parts.append("\n".join(f"- ⚠ {w}" for w in warnings))
    return "\n\n".join(parts)


def _caption(answer: Answer) -> str:
    lang = answer.language
    lab = labels(lang)
    shown = answer.options[:PANEL_ROWS]
    f = formatter(lang)
    billing = f.list(sorted({f.term("billing", o.get("billing")) for o in shown}))
    regions = lab["list"].join(dict.fromkeys(region_label(o.get("region"), lang) for o in shown))
    colon, sep = lab["colon"], lab["sep"]
    text = f"{lab['billing']}{colon}{cell(billing)}{sep}{lab['region']}{colon}{cell(regions)}"
    more = len(answer.options) - len(shown)
    if more > 0:
        text += sep + lab["more"].format(n=more)
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
