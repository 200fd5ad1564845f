"""Two small inline-SVG bar charts from the ranked options.

Hand-written SVG instead of a plotting library: nothing is fetched from a CDN,
the output is a string the tests can read, and every label is escaped here
(the SVG goes into a `gr.HTML`, which does not sanitize). The figures are the
recommender's own; the charts only scale bars.
"""

from __future__ import annotations

import html
from typing import Any

from tools.messages import formatter
from ui.web.render import ProviderNames, gpu_text, money, num, option_cost, provider_label, provider_names

WIDTH = 640
LABEL_W = 220  # left column for "provider · instance"
LABEL_COLS = 32  # what fits in LABEL_W at 12 px: Latin letters count one column, CJK two
VALUE_W = 150  # right column for the figure
ROW_H = 30
BAR_H = 16
TOP = 34

NEED = "#4f46e5"  # indigo: memory needed
USABLE = "#e0e7ff"  # light indigo: the GPU's usable memory
UNDER = "#16a34a"  # within budget
OVER = "#dc2626"  # over budget
NEUTRAL = "#0891b2"  # no budget to compare with
BUDGET = "#b45309"

TITLES = {
    "en": {
        "memory": "Memory per GPU: needed vs usable",
        "cost": {"hour": "Cost per hour", "month": "Cost per month", "job": "Cost of the whole job"},
        "budget": "budget",
        "unknown": "price unknown",
        "other_currency": "budget is in {cur}: compare in the table",
    },
    "zh": {
        "memory": "每卡显存：需要 / 可用",
        "cost": {"hour": "每小时费用", "month": "每月费用", "job": "整个任务费用"},
        "budget": "预算",
        "unknown": "价格未知",
        "other_currency": "预算以 {cur} 计：请在表格中比较",
    },
}


def _t(language: str) -> dict[str, Any]:
    return TITLES.get(language, TITLES["en"])


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _cols(text: str) -> int:
    return sum(2 if "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" else 1 for ch in text)


def _fit(text: str, cols: int) -> str:
    """`text` cut to `cols` display columns, with an ellipsis when cut."""
    if _cols(text) <= cols:
        return text
    out, used = "", 0
    for ch in text:
        w = _cols(ch)
        if used + w > cols - 1:
            break
        out, used = out + ch, used + w
    return out.rstrip() + "…"


def _label(option: dict[str, Any], language: str, names: ProviderNames) -> str:
    """'恒源云 · rtx-3090-1x': the provider's display name is shortened first, so the instance stays readable."""
    instance = str(option.get("instance"))
    room = LABEL_COLS - _cols(instance) - 3
    if room < 6:
        return _fit(f"{provider_label(option, language, names)} · {instance}", LABEL_COLS)
    return f"{_fit(provider_label(option, language, names), room)} · {instance}"


def _frame(title: str, rows: int, body: list[str], extra_h: int = 0) -> str:
    height = TOP + rows * ROW_H + 12 + extra_h
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'role="img" aria-label="{_esc(title)}" class="ga-chart" style="max-width:{WIDTH}px;font-family:inherit">'
        f"<title>{_esc(title)}</title>"
        f'<text x="0" y="18" font-size="14" font-weight="600" fill="currentColor">{_esc(title)}</text>'
        + "".join(body)
        + "</svg>"
    )


def memory_chart(options: list[dict[str, Any]], language: str = "en", names: ProviderNames | None = None) -> str:
    """Per option: memory needed per GPU as a bar over the GPU's usable memory."""
    if not options:
        return ""
    t = _t(language)
    names = names if names is not None else provider_names()
    scale_max = max(max(o.get("gpu_usable_gib") or 0, o.get("per_gpu_gib") or 0) for o in options) or 1.0
    plot_w = WIDTH - LABEL_W - VALUE_W
    body = []
    for i, o in enumerate(options):
        y = TOP + i * ROW_H
        need, usable = o.get("per_gpu_gib") or 0.0, o.get("gpu_usable_gib") or 0.0
        usable_w = plot_w * usable / scale_max
        need_w = plot_w * min(need, scale_max) / scale_max
        body.append(
            f'<text x="0" y="{y + 12}" font-size="12" fill="currentColor">{_esc(_label(o, language, names))}</text>'
            f'<text x="0" y="{y + 26}" font-size="11" fill="#6b7280">{_esc(gpu_text(o, language))}</text>'
            f'<rect x="{LABEL_W}" y="{y + 2}" width="{usable_w:.1f}" height="{BAR_H}" rx="3" fill="{USABLE}"/>'
            f'<rect x="{LABEL_W}" y="{y + 2}" width="{need_w:.1f}" height="{BAR_H}" rx="3" fill="{NEED}"/>'
            f'<text x="{WIDTH - VALUE_W + 8}" y="{y + 15}" font-size="12" fill="currentColor">'
            f"{_esc(num(need, language=language))} / {_esc(num(usable, language=language))} GiB</text>"
        )
    return _frame(t["memory"], len(options), body)


def cost_chart(
    options: list[dict[str, Any]],
    period: str = "month",
    budget: float | None = None,
    budget_currency: str | None = None,
    language: str = "en",
    names: ProviderNames | None = None,
) -> str:
    """Per option: its cost for `period`, with the budget as a dashed line when in the same currency."""
    if not options:
        return ""
    t = _t(language)
    names = names if names is not None else provider_names()
    currency = options[0].get("currency")
    costs = [option_cost(o, period) for o in options]
    comparable = budget is not None and (budget_currency in (None, currency))
    known = [c for c in costs if c is not None]
    scale_max = max(known + ([budget] if comparable else []) or [1.0]) * 1.05
    plot_w = WIDTH - LABEL_W - VALUE_W
    body = []
    for i, (o, cost) in enumerate(zip(options, costs)):
        y = TOP + i * ROW_H
        body.append(f'<text x="0" y="{y + 15}" font-size="12" fill="currentColor">{_esc(_label(o, language, names))}</text>')
        if cost is None:
            body.append(
                f'<text x="{LABEL_W}" y="{y + 15}" font-size="12" fill="#6b7280" font-style="italic">{_esc(t["unknown"])}</text>'
            )
            continue
        color = (OVER if cost > budget else UNDER) if comparable else NEUTRAL
        body.append(
            f'<rect x="{LABEL_W}" y="{y + 2}" width="{plot_w * cost / scale_max:.1f}" height="{BAR_H}" rx="3" fill="{color}"/>'
            f'<text x="{WIDTH - VALUE_W + 8}" y="{y + 15}" font-size="12" fill="currentColor">{_esc(money(cost, currency, language))}</text>'
        )
    extra = 0
    if comparable:
        x = LABEL_W + plot_w * budget / scale_max
        bottom = TOP + len(options) * ROW_H
        body.append(
            f'<line x1="{x:.1f}" y1="{TOP - 6}" x2="{x:.1f}" y2="{bottom}" stroke="{BUDGET}" stroke-width="2" stroke-dasharray="5 4"/>'
            f'<text x="{x:.1f}" y="{bottom + 14}" font-size="11" text-anchor="middle" fill="{BUDGET}">'
            f'{_esc(t["budget"])} {_esc(money(budget, currency, language))}</text>'
        )
        extra = 16
    elif budget is not None:
        bottom = TOP + len(options) * ROW_H
        body.append(
            f'<text x="0" y="{bottom + 14}" font-size="11" fill="{BUDGET}">'
            f'{_esc(t["other_currency"].format(cur=formatter(language).term("currency", budget_currency)))}</text>'
        )
        extra = 16
    return _frame(t["cost"][period], len(options), body, extra)
