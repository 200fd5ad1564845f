"""Block Kit messages from an `Answer`, within Slack's limits.

Limits (api.slack.com/reference/block-kit): a message has at most 50 blocks;
a section's text at most 3000 characters; a section at most 10 fields of 2000
characters; a context block at most 10 elements. The answer's Markdown is
turned into Slack mrkdwn (bold `*x*`, links `<url|text>`, tables as
preformatted text) with `& < >` escaped, so nothing in a question or a
document can become a mention or a link Slack would act on.
"""

from __future__ import annotations

import re
from typing import Any

from assistant.answer import Answer
from tools.messages import formatter, render
from tools.notes import Note
from ui.web.render import ProviderNames, provider_label, provider_names, region_label

MAX_BLOCKS = 50
MAX_SECTION_CHARS = 3000
MAX_FIELDS = 10
MAX_FIELD_CHARS = 2000
MAX_CONTEXT_ELEMENTS = 10
MAX_FALLBACK_CHARS = 3000  # the notification text; Slack truncates message text far above this

TEXT = {
    "en": {
        "thinking": "_Thinking…_ :hourglass_flowing_sand:",
        "apology": "Sorry, I couldn't answer that ({kind}). Please try again in a moment or rephrase the question.",
        "help": "Ask me which GPU server to rent, e.g. `which GPU should I rent to fine-tune Llama-3-8B with LoRA?`",
        "top": "Recommended",
        "gpus": "GPUs",
        "memory": "Memory per GPU",
        "hour": "Per hour",
        "month": "Per month",
        "job": "Whole job",
        "billing": "Billing",
        "price": "Price",
        "region": "Region",
        "asked": "Asked by <@{user}>: {question}",
        "truncated": "_(answer shortened to fit Slack; ask `gpu-advisor ask` or the web app for the full text)_",
        "brain": "brain: {brain}",
        "memory_of": "{need} of {usable} GiB",
        "nodes": " ({nodes} nodes)",
        "grade_unknown": "grade unknown",
        "unknown": "unknown",
        "price_unknown": "unknown",
        "colon": ": ",
        "sep": ", ",
    },
    "zh": {
        "thinking": "_思考中…_ :hourglass_flowing_sand:",
        "apology": "抱歉，这个问题没能回答（{kind}）。请稍后重试或换个说法。",
        "help": "问我该租什么 GPU 服务器，例如：`用 LoRA 微调 Qwen2.5-7B 该租什么卡？`",
        "top": "推荐",
        "gpus": "GPU",
        "memory": "每卡显存",
        "hour": "每小时",
        "month": "每月",
        "job": "整个任务",
        "billing": "计费",
        "price": "价格",
        "region": "地域",
        "asked": "<@{user}> 提问：{question}",
        "truncated": "_（回答较长已截断；完整内容请用 `gpu-advisor ask` 或网页版）_",
        "brain": "大脑：{brain}",
        "memory_of": "需要 {need} GiB，可用 {usable} GiB",
        "nodes": "（{nodes} 台）",
        "grade_unknown": "价格来源未知",
        "unknown": "未知",
        "price_unknown": "价格未知",
        "colon": "：",
        "sep": "，",
    },
}


def text_for(language: str) -> dict[str, str]:
    return TEXT.get(language, TEXT["en"])


# ---------------------------------------------------------------- Markdown → mrkdwn


def escape(text: str) -> str:
    """Slack's three control characters; everything else is literal."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![*\w])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![*\w])")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def to_mrkdwn(markdown: str) -> str:
    out: list[str] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("```"):
            block = [line.strip()[:3]]
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(escape(lines[i]))
                i += 1
            block.append("```")
            out.append("\n".join(block))
            i += 1
            continue
        if line.lstrip().startswith("|"):
            table = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                table.append(lines[i])
                i += 1
            out.append(_table(table))
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def _inline(line: str) -> str:
    m = _HEADING.match(line)
    if m:
        return f"*{_spans(escape(m.group(1)))}*".replace("**", "*")
    bullet = _BULLET.match(line)
    if bullet:
        line = bullet.group(1) + "• " + line[bullet.end() :]
    return _spans(escape(line))


def _spans(text: str) -> str:
    links: list[str] = []

    def keep_link(m: re.Match) -> str:
        links.append(f"<{m.group(2)}|{m.group(1)}>")
        return f"\x00{len(links) - 1}\x00"

    text = _LINK.sub(keep_link, text)
    text = _BOLD.sub(lambda m: "\x01" + (m.group(1) or m.group(2)) + "\x01", text)
    text = _ITALIC.sub(lambda m: "_" + m.group(1) + "_", text)
    text = text.replace("\x01", "*")
    return re.sub(r"\x00(\d+)\x00", lambda m: links[int(m.group(1))], text)


def _table(lines: list[str]) -> str:
    """A Markdown table as aligned preformatted text (Slack has no tables in mrkdwn)."""
    rows = []
    for line in lines:
        if _TABLE_SEP.match(line):
            continue
        inner = re.sub(r"^\s*\||(?<!\\)\|\s*$", "", line)
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]
        rows.append([_plain_cell(c) for c in cells])
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    # Columns that would make a row wider than a message pane move below the table, one line per row
    # ("1. 恒源云: 中国大陆地域…"): wrapped preformatted rows lose their alignment.
    moved: list[int] = []
    while len(rows[0]) - len(moved) > 2 and _row_width(rows, [c for c in range(width) if c not in moved]) > MAX_TABLE_WIDTH:
        moved.insert(0, max(c for c in range(width) if c not in moved))
    kept = [c for c in range(width) if c not in moved]
    widths = {c: max(_display_width(r[c]) for r in rows) for c in kept}
    text = "\n".join(
        "  ".join(r[c] + " " * (widths[c] - _display_width(r[c])) for c in kept).rstrip() for r in rows
    )
    out = "```\n" + escape(text) + "\n```"
    notes = []
    zh = any(_display_width(ch) == 2 for ch in "".join(rows[0]))  # a Chinese header: Chinese punctuation
    colon, semi, dash = ("：", "；", " —— ") if zh else (": ", "; ", " — ")
    for r in rows[1:]:
        extra = semi.join(f"{rows[0][c]}{colon}{r[c]}" if rows[0][c] else r[c] for c in moved if r[c])
        if extra:
            notes.append(f"• {escape(r[0])} {escape(r[1]) if len(kept) > 1 else ''}".rstrip() + dash + escape(extra))
    return out + ("\n" + "\n".join(notes) if notes else "")


MAX_TABLE_WIDTH = 100  # display columns: about what a Slack message pane shows unwrapped


def _row_width(rows: list[list[str]], columns: list[int]) -> int:
    return sum(max(_display_width(r[c]) for r in rows) for c in columns) + 2 * (len(columns) - 1)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _plain_cell(text: str) -> str:
    """A table cell without Markdown marks: preformatted text would show `**` and backticks literally."""
    return _CODE_SPAN.sub(r"\1", re.sub(r"\*\*(.+?)\*\*", r"\1", text))


def _display_width(text: str) -> int:
    return sum(2 if "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" else 1 for ch in text)


# ---------------------------------------------------------------- splitting


def split_text(text: str, limit: int = MAX_SECTION_CHARS) -> list[str]:
    """Pieces of at most `limit` characters, cut at paragraph, then line, then word ends;
    a code block cut in two is closed and reopened so both halves render."""
    budget = limit - 8  # room to close/reopen a ``` fence
    pieces: list[str] = []
    current = ""
    for para in _units(text, budget):
        candidate = f"{current}\n\n{para}" if current else para
        if len(candidate) <= budget:
            current = candidate
        else:
            if current:
                pieces.append(current)
            current = para
    if current:
        pieces.append(current)
    return _balance_fences(pieces)


def _units(text: str, budget: int) -> list[str]:
    units = []
    for para in re.split(r"\n{2,}", text.strip()):
        if len(para) <= budget:
            units.append(para)
            continue
        line_acc = ""
        for line in para.split("\n"):
            while len(line) > budget:  # one enormous line: cut at a space if there is one
                cut = line.rfind(" ", 0, budget)
                cut = cut if cut > budget // 2 else budget
                if line_acc:
                    units.append(line_acc)
                    line_acc = ""
                units.append(line[:cut])
                line = line[cut:].lstrip()
            candidate = f"{line_acc}\n{line}" if line_acc else line
            if len(candidate) <= budget:
                line_acc = candidate
            else:
                units.append(line_acc)
                line_acc = line
        if line_acc:
            units.append(line_acc)
    return [u for u in units if u.strip()]


def _balance_fences(pieces: list[str]) -> list[str]:
    out, carry = [], False
    for piece in pieces:
        if carry:
            piece = "```\n" + piece
        carry = piece.count("```") % 2 == 1
        out.append(piece + "\n```" if carry else piece)
    return out


# ---------------------------------------------------------------- messages


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _field(label: str, value: str) -> dict[str, str]:
    return {"type": "mrkdwn", "text": f"*{escape(label)}*\n{escape(value)}"[:MAX_FIELD_CHARS]}


def _money(value: Any, currency: str | None, language: str = "en") -> str:
    if value is None:
        return text_for(language)["price_unknown"]
    symbol = {"USD": "$", "CNY": "¥"}.get(currency or "", "")
    digits = 0 if abs(value) >= 1000 else 2
    return f"{symbol}{value:,.{digits}f}" + ("" if symbol else f" {currency or ''}".rstrip())


def _num(value: Any, language: str = "en") -> str:
    if value is None:
        return text_for(language)["unknown"]
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.1f}"


def brain_label(brain: str, language: str) -> str:
    """'offline' in words (离线); an LLM spec ('deepseek:deepseek-chat') is a name and stays as it is."""
    return render(Note(code="ui.brain.offline"), language) if brain == "offline" else brain


def recommendation_fields(answer: Answer, names: ProviderNames | None = None) -> dict[str, Any] | None:
    top = answer.recommendation
    if not top:
        return None
    lang = answer.language
    t = text_for(lang)
    f = formatter(lang)
    cur = top.get("currency")
    count = top.get("total_gpus") or top.get("gpu_count")
    nodes = top.get("nodes") or 1
    fields = [
        _field(t["gpus"], f"{_num(count, lang)}× {top.get('gpu')}" + (t["nodes"].format(nodes=nodes) if nodes > 1 else "")),
        _field(t["memory"], t["memory_of"].format(need=_num(top.get("per_gpu_gib"), lang), usable=_num(top.get("gpu_usable_gib"), lang))),
        _field(t["hour"], _money(top.get("price_per_hour"), cur, lang)),
        _field(t["month"], _money(top.get("monthly_cost"), cur, lang)),
    ]
    if top.get("job_cost") is not None:
        fields.append(_field(t["job"], _money(top.get("job_cost"), cur, lang)))
    grade = f.term("grade", top["price_grade"]) if top.get("price_grade") else t["grade_unknown"]
    fields += [
        _field(t["billing"], f.term("billing", top.get("billing"))),
        _field(t["region"], region_label(top.get("region"), lang)),
        _field(t["price"], t["sep"].join([grade, f.as_of(top.get("price_as_of"))])),
    ]
    provider = provider_label(top, lang, names)
    title = f"*{escape(t['top'])}{t['colon']}{escape(provider)} / {escape(str(top.get('instance')))}*"
    return {"type": "section", "text": {"type": "mrkdwn", "text": title}, "fields": fields[:MAX_FIELDS]}


def citation_blocks(answer: Answer) -> list[dict[str, Any]]:
    """The sources as context lines, `[n] title — section`, except those the answer text already lists.

    The offline brain ends its answer with the source list (`[n] title § section`); an LLM's answer has
    only the `[n]` markers, so its sources come here. Doc ids are for machines (`Answer.citations`).
    """
    elements = []
    for c in answer.citations:
        if f"[{c.marker}] {c.title}" in answer.answer:
            continue
        section = f" — {c.section}" if c.section else ""
        elements.append({"type": "mrkdwn", "text": escape(f"[{c.marker}] {c.title}{section}")[:MAX_SECTION_CHARS]})
    return [
        {"type": "context", "elements": elements[i : i + MAX_CONTEXT_ELEMENTS]}
        for i in range(0, len(elements), MAX_CONTEXT_ELEMENTS)
    ]


def answer_blocks(answer: Answer, *, asked_by: str | None = None, question: str | None = None) -> list[dict[str, Any]]:
    """The answer message: (who asked), answer text, recommendation fields, sources, brain."""
    t = text_for(answer.language)
    head: list[dict[str, Any]] = []
    if asked_by and question:
        asked = t["asked"].format(user=escape(asked_by), question=escape(question[:500]))
        head.append({"type": "context", "elements": [{"type": "mrkdwn", "text": asked[:MAX_SECTION_CHARS]}]})
    tail: list[dict[str, Any]] = []
    rec = recommendation_fields(answer)
    if rec:
        tail += [{"type": "divider"}, rec]
    tail += citation_blocks(answer)
    brain = brain_label(answer.brain, answer.language)
    tail.append({"type": "context", "elements": [{"type": "mrkdwn", "text": escape(t["brain"].format(brain=brain))}]})
    tail = tail[: MAX_BLOCKS - len(head) - 2]  # keep at least one answer section and the truncation note
    room = MAX_BLOCKS - len(head) - len(tail)
    body = [_section(p) for p in split_text(to_mrkdwn(answer.answer))] or [_section(" ")]
    if len(body) > room:
        body = body[: room - 1] + [_section(t["truncated"])]
    return head + body + tail


def fallback_text(answer: Answer) -> str:
    """The plain `text` Slack shows in notifications and where blocks can't render."""
    text = to_mrkdwn(answer.answer)
    return text if len(text) <= MAX_FALLBACK_CHARS else text[: MAX_FALLBACK_CHARS - 1] + "…"


def thinking_text(language: str) -> str:
    return text_for(language)["thinking"]


def apology_text(language: str, kind: str) -> str:
    return text_for(language)["apology"].format(kind=kind)


def help_text(language: str = "en") -> str:
    return text_for(language)["help"]
