"""The recommendation as a Markdown document someone can paste into a ticket.

Everything in it is copied from the `Answer`: the question, the answer text,
the options table, the top option's reasons and price source, the sources.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from assistant.answer import Answer
from ui.web.render import citation_line, gpu_text, money, num, options_table

TITLES = {
    "en": ("GPU Advisor recommendation", "Question", "Answer", "Options", "Top option", "Sources", "Generated"),
    "zh": ("GPU Advisor 推荐", "问题", "回答", "候选配置", "首选", "参考资料", "生成时间"),
}


def recommendation_markdown(answer: Answer, question: str, now: dt.datetime | None = None) -> str:
    title, q_h, a_h, opt_h, top_h, src_h, gen = TITLES.get(answer.language, TITLES["en"])
    when = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
    parts = [f"# {title}", f"_{gen}: {when} · brain: {answer.brain}_", f"## {q_h}", _quote(question), f"## {a_h}", answer.answer]
    top = answer.recommendation
    if top:
        cur = top.get("currency")
        facts = [
            f"- **{top.get('provider')}/{top.get('instance')}** ({top.get('region')}): {gpu_text(top)}",
            f"- memory per GPU: {num(top.get('per_gpu_gib'))} GiB needed of {num(top.get('gpu_usable_gib'))} GiB usable "
            f"(headroom {num(top.get('headroom_gib'))} GiB)",
            f"- price: {money(top.get('price_per_hour'), cur)}/hour, {money(top.get('monthly_cost'), cur)}/month "
            f"({top.get('billing')}; {top.get('price_grade') or 'grade unknown'}; {top.get('price_age') or top.get('price_as_of') or 'date unknown'})",
        ]
        if top.get("price_source"):
            facts.append(f"- price source: {top['price_source']}")
        facts += [f"- {r}" for r in top.get("reasons") or []]
        facts += [f"- ⚠ {w}" for w in top.get("warnings") or []]
        parts += [f"## {top_h}", "\n".join(facts)]
    table = options_table(answer)
    if table:
        parts += [f"## {opt_h}", table]
    if answer.citations:
        lines = []
        for c in answer.citations:
            lines.append(f"- {citation_line(c)}")
        parts += [f"## {src_h}", "\n".join(lines)]
    return "\n\n".join(parts) + "\n"


def export_filename(answer: Answer) -> str:
    top = answer.recommendation or {}
    stem = "-".join(str(top.get(k, "")) for k in ("provider", "instance") if top.get(k)) or "answer"
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-") or "answer"
    return f"gpu-advisor-{stem}.md"


def write_export(answer: Answer, question: str, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / export_filename(answer)
    path.write_text(recommendation_markdown(answer, question), encoding="utf-8")
    return path


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in text.splitlines() or [""])
