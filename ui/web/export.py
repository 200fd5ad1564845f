"""The recommendation as a Markdown document someone can paste into a ticket.

Everything in it is copied from the `Answer`: the question, the answer text,
the options table, the top option's reasons and price source, the sources.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from assistant.answer import Answer
from tools.messages import formatter, render
from tools.notes import Note
from ui.web.render import citation_line, gpu_text, money, note_texts, num, options_table, provider_names, region_label, where
from ui.web.sanitize import safe_markdown

TITLES = {
    "en": ("GPU Advisor recommendation", "Question", "Answer", "Options", "Top option", "Sources", "Generated"),
    "zh": ("GPU Advisor 推荐", "问题", "回答", "候选配置", "首选", "参考资料", "生成时间"),
}
FACTS = {
    "en": {
        "memory": "memory per GPU: {need} needed of {usable} usable (headroom {headroom})",
        "price": "price: {hour}/hour, {month}/month ({billing}; {grade}; {age})",
        "source": "price source: {source}", "brain": "brain", "grade_unknown": "grade unknown",
        "top": "**{where}** ({region}): {gpus}",
    },
    "zh": {
        "memory": "每卡显存：需要 {need}，可用 {usable}（余量 {headroom}）",
        "price": "价格：每小时 {hour}，每月 {month}（{billing}；{grade}；{age}）",
        "source": "价格来源：{source}", "brain": "回答引擎", "grade_unknown": "价格来源未知",
        "top": "**{where}**（{region}）：{gpus}",
    },
}


def recommendation_markdown(answer: Answer, question: str, now: dt.datetime | None = None) -> str:
    lang = answer.language if answer.language in TITLES else "en"
    title, q_h, a_h, opt_h, top_h, src_h, gen = TITLES[lang]
    t, f = FACTS[lang], formatter(lang)
    when = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
    brain = render(Note(code="ui.brain.offline"), lang) if answer.brain == "offline" else answer.brain
    between = "；" if lang == "zh" else " · "
    parts = [f"# {title}", f"_{gen}{sep(lang)}{when}{between}{t['brain']}{sep(lang)}{brain}_", f"## {q_h}", _quote(question),
             f"## {a_h}", answer.answer]
    top = answer.recommendation
    names = provider_names()
    if top:
        cur = top.get("currency")
        grade = f.term("grade", top["price_grade"]) if top.get("price_grade") else t["grade_unknown"]

        def n(value):  # GiB, or 'unknown' without a unit
            return num(value, language=lang) if value is None else f"{num(value, language=lang)} GiB"

        facts = [
            "- " + t["top"].format(where=where(top, lang, names), region=region_label(top.get("region"), lang),
                                   gpus=gpu_text(top, lang)),
            "- " + t["memory"].format(need=n(top.get("per_gpu_gib")), usable=n(top.get("gpu_usable_gib")),
                                      headroom=n(top.get("headroom_gib"))),
            "- " + t["price"].format(hour=money(top.get("price_per_hour"), cur, lang),
                                     month=money(top.get("monthly_cost"), cur, lang),
                                     billing=f.term("billing", top.get("billing")), grade=grade,
                                     age=f.as_of(top.get("price_as_of"))),
        ]
        if top.get("price_source"):
            facts.append("- " + t["source"].format(source=top["price_source"]))
        facts += [f"- {r}" for r in note_texts(top.get("reasons"), lang)]
        facts += [f"- ⚠ {w}" for w in note_texts(top.get("warnings"), lang)]
        parts += [f"## {top_h}", "\n".join(facts)]
    table = options_table(answer, names=names)
    if table:
        parts += [f"## {opt_h}", table]
    if answer.citations:
        lines = []
        for c in answer.citations:
            lines.append(f"- {citation_line(c)}")
        parts += [f"## {src_h}", "\n".join(lines)]
    return "\n\n".join(parts) + "\n"


def sep(lang: str) -> str:
    return "：" if lang == "zh" else ": "


def export_filename(answer: Answer) -> str:
    top = answer.recommendation or {}
    stem = "-".join(str(top.get(k, "")) for k in ("provider", "instance") if top.get(k)) or "answer"
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-") or "answer"
    return f"gpu-advisor-{stem}.md"


def write_export(answer: Answer, question: str, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / export_filename(answer)
    # the question (and answers that echo it) may carry markup: a permissive Markdown viewer must not run or load it
    path.write_text(safe_markdown(recommendation_markdown(answer, question)), encoding="utf-8")
    return path


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in text.splitlines() or [""])
