"""Plain-text tables and JSON for the CLI, in English or Chinese. No third-party formatting.

`--lang en|zh` (default: `GPU_ADVISOR_LANG` when it is en or zh, else en) picks the language of
the table headers (`label`), of every note (`tools.messages.render`) and of the `text` that
`--json` adds to each note: ``{code, params, text}``; changes get ``text`` (advice) and
``flags`` (what to type).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterable, Sequence

from pydantic import BaseModel

LANGS = ("en", "zh")

# Table headers and short labels of the calculator commands, per language.
LABELS: dict[str, dict[str, str]] = {
    "en": {
        "yes": "yes", "no": "no", "unknown": "unknown", "assumptions": "Assumptions:", "formula": "Formula:",
        # vram
        "component": "component", "gib_per_gpu": "GiB per GPU", "total_per_gpu": "total per GPU",
        "total_over": "total over {gpus} GPUs", "gpu": "GPU", "usable_gib": "usable GiB", "fits": "fits",
        "headroom_gib": "headroom GiB", "vram_head": "{model} — {mode}, {precision}, {gpus} GPU(s)",
        # train-time
        "value": "value", "model": "model", "gpus": "GPUs", "flops": "FLOPs", "peak": "dense peak per GPU",
        "mfu": "MFU", "hours": "hours", "days": "days", "gpu_hours": "GPU-hours", "gpus_for": "GPUs for {hours} h",
        # cost
        "billing": "billing", "price": "price", "total": "total", "expected": "expected (spot)", "as_of": "as of",
        "grade": "grade", "note": "note", "cost_head": "{where} ({region}): {nodes}{count} × {gpu}, {hours}",
        "cost_total": "Total ({billing}): {total} — {age}", "price_age": "price {age}",
        "no_price": "no {billing} price in the catalog", "other_regions": "Other regions: ",
        # recommend
        "workload": "Workload: {model}, {mode}, {precision}: {gib} on one GPU", "rank": "#", "instance": "instance",
        "region": "region", "need_usable": "GiB/GPU need/usable", "per_hour": "per hour", "per_month": "per month",
        "job": "job", "nothing_fits": "No instance in the catalog fits this request.", "near_misses": "Near-misses:",
        "why_not": "why not", "would_work": "What would work:",
        "grade_short.official list price": "official", "grade_short.user-supplied": "user",
        "grade_short.third-party report": "3rd-party", "grade_short.marketplace sample (changes hourly)": "marketplace",
    },
    "zh": {
        "yes": "是", "no": "否", "unknown": "未知", "assumptions": "假设：", "formula": "公式：",
        "component": "组成部分", "gib_per_gpu": "每卡 GiB", "total_per_gpu": "每卡合计",
        "total_over": "{gpus} 张卡合计", "gpu": "GPU", "usable_gib": "可用 GiB", "fits": "放得下",
        "headroom_gib": "余量 GiB", "vram_head": "{model} —— {mode}，{precision}，{gpus} 张卡",
        "value": "数值", "model": "模型", "gpus": "GPU", "flops": "计算量（FLOPs）", "peak": "每卡稠密峰值",
        "mfu": "MFU", "hours": "小时", "days": "天", "gpu_hours": "卡时", "gpus_for": "{hours} 小时内完成所需卡数",
        "billing": "计费方式", "price": "单价", "total": "总价", "expected": "预期（竞价）", "as_of": "价格日期",
        "grade": "价格来源", "note": "说明", "cost_head": "{where}（{region}）：{nodes}{count} × {gpu}，{hours}",
        "cost_total": "总价（{billing}）：{total} —— {age}", "price_age": "价格：{age}",
        "no_price": "目录中没有{billing}价格", "other_regions": "其他地域：",
        "workload": "任务：{model}，{mode}，{precision}：单卡需要 {gib}", "rank": "#", "instance": "实例",
        "region": "地域", "need_usable": "每卡 GiB 需要/可用", "per_hour": "每小时", "per_month": "每月",
        "job": "整个任务", "nothing_fits": "目录中没有满足该请求的实例。", "near_misses": "考虑过但未选：",
        "why_not": "原因", "would_work": "可行的替代方案：",
        "grade_short.official list price": "官方", "grade_short.user-supplied": "用户",
        "grade_short.third-party report": "第三方", "grade_short.marketplace sample (changes hourly)": "市场",
    },
}


def label(key: str, lang: str = "en", **fields: Any) -> str:
    text = LABELS["zh" if lang == "zh" else "en"].get(key) or LABELS["en"].get(key, key)
    return text.format(**fields) if fields else text


def add_lang_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGS, default=None,
                        help="language of tables, notes and --json text: en (default) or zh; default from GPU_ADVISOR_LANG")


def resolve_lang(args: argparse.Namespace, settings: Any = None) -> str:
    """--lang, else GPU_ADVISOR_LANG (Settings.lang) when it is en or zh, else en."""
    lang = getattr(args, "lang", None)
    if lang in LANGS:
        return lang
    if settings is None:
        try:
            from knowledge.settings import Settings

            settings = Settings.load()
        except Exception:  # no usable settings: the CLI's own default
            return "en"
    value = getattr(settings, "lang", None)
    return value if value in LANGS else "en"


def to_jsonable(value: Any, lang: str | None = None) -> Any:
    """JSON values; with `lang`, every note also carries its `text` (and every change its `flags`)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", context={"lang": lang} if lang else None)
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v, lang) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v, lang) for k, v in value.items()}
    return value


def print_json(value: Any, stream=None, lang: str | None = None) -> None:
    stream = stream or sys.stdout
    json.dump(to_jsonable(value, lang), stream, ensure_ascii=False, indent=2)
    stream.write("\n")


def fmt(value: Any, digits: int = 1, lang: str = "en") -> str:
    """Numbers rounded for people; None is shown as 'unknown', never as 0 or -1."""
    if value is None:
        return label("unknown", lang)
    if isinstance(value, bool):
        return label("yes" if value else "no", lang)
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _width(text: str) -> int:
    # CJK characters take two terminal columns
    return sum(2 if "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" else 1 for ch in text)


def format_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    cells = [[str(h) for h in headers]] + [[c if isinstance(c, str) else fmt(c) for c in row] for row in rows]
    widths = [max(_width(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append("  ".join(c + " " * (widths[i] - _width(c)) for i, c in enumerate(row)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def print_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], stream=None) -> None:
    (stream or sys.stdout).write(format_table(headers, rows) + "\n")
