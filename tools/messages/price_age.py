"""Price age, what a price covers and where it comes from (codes from tools.price_age; the rate's age is in `fx.rate`).

Params (see `tools.price_age.PriceAge`): ``state`` fresh|stale|undated, ``as_of`` '2026-07-20' or '2026-10'
(None: undated), ``date_precision`` day|month|approximate, ``inferred`` (the date is our inference),
``months`` whole months elapsed.
"""

from __future__ import annotations

import re

from typing import Any

from tools.messages.format import Formatter

STATE = {"fresh": ("fresh", "较新"), "stale": ("stale", "已过时"), "undated": ("undated", "无日期")}
PART = {
    "compute": ("compute", "算力"),
    "system_disk": ("system disk", "系统盘"),
    "data_disk": ("data disk", "数据盘"),
    "local_ssd": ("the fixed local SSD", "固定本地 SSD"),
    "bandwidth": ("bandwidth", "公网带宽"),
}
GRADE = {
    "official": ("official list price", "官方刊例价"),
    "user": ("your own price", "你提供的价格"),
    "third_party": ("third-party report", "第三方报道"),
    "marketplace": ("marketplace sample", "市场挂单样本"),
}


def _zh(f: Formatter) -> int:
    return 1 if f.zh else 0


def _date(p: dict[str, Any], f: Formatter) -> str:
    if not p.get("as_of"):
        return f.date_or_unknown(None)
    text = str(p["as_of"])
    if p.get("date_precision") == "approximate":
        text = f"约 {text}" if f.zh else f"about {text}"
    if p.get("inferred"):
        text += "（推断）" if f.zh else " (inferred)"
    return text


def _months(n: Any, f: Formatter) -> str:
    n = int(n or 0)
    if f.zh:
        return "本月" if n == 0 else f"{n} 个月前"
    return "this month" if n == 0 else f"{n} month old" if n == 1 else f"{n} months old"


def _summary(p: dict[str, Any], f: Formatter) -> str:
    state = p.get("state")
    if state == "undated" or not p.get("as_of"):
        return f.date_or_unknown(None) + ("（来源未注明日期）" if f.zh else " (the source gives no date)")
    date = _date(p, f)
    age = _months(p.get("months"), f)
    if p.get("date_precision") == "approximate":  # "about 2026-10 (inferred), 2 months old"
        if state == "stale":
            return f"{date}，已过时（{age}）" if f.zh else f"{date}, stale ({age})"
        return f"{date}，{age}" if f.zh else f"{date}, {age}"
    lead = f"{date} 的价格" if f.zh else f"as of {date}"
    if state == "stale":
        return f"{lead}，已过时（{age}）" if f.zh else f"{lead}, stale ({age})"
    return f"{lead}（{age}）" if f.zh else f"{lead} ({age})"


def _parts(names: list[str], f: Formatter) -> str:
    words = [PART.get(n, (n, n))[_zh(f)] for n in names]
    if f.zh:
        return "、".join(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _covers(p: dict[str, Any], f: Formatter) -> str:
    includes = [n for n in p.get("includes") or [] if n != "compute"]
    excludes = list(p.get("excludes") or [])
    sizes = {"system_disk": p.get("system_disk_gb"), "data_disk": p.get("data_disk_gb")}
    if f.zh:
        head = "仅含算力（GPU、CPU、内存）" if not includes else "含算力及 " + "、".join(
            (f"{f.g(sizes[n])} GB " if sizes.get(n) else "") + PART.get(n, (n, n))[1] for n in includes)
        more = [("更多" if n in includes else "") + PART.get(n, (n, n))[1] for n in excludes]
        tail = "；" + "、".join(more) + (" 另计" if more and more[-1][-1].isascii() else "另计") if excludes else ""
        return head + tail
    if not includes:
        head = "compute only (GPU, CPU, RAM)"
    else:
        head = "includes " + _parts_sized(includes, sizes, f)
    if excludes:
        more = [("more " + PART[n][0]) if n in includes else PART.get(n, (n, n))[0] for n in excludes]
        tail = "; " + (more[0] if len(more) == 1 else ", ".join(more[:-1]) + " and " + more[-1]) + " billed separately"
    else:
        tail = ""
    return head + tail


def _parts_sized(names: list[str], sizes: dict[str, Any], f: Formatter) -> str:
    words = [(f"a {f.g(sizes[n])} GB " if sizes.get(n) else "") + PART.get(n, (n, n))[0] for n in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _short_url(url: str | None) -> str | None:
    """'github.com/tencentyun/qcloud-documents' for a long link: the site and the first two path parts."""
    if not url:
        return None
    m = re.match(r"^[a-z]+://([^/?#]+)((?:/[^/?#]+){0,2})", url)
    return (m.group(1) + m.group(2)) if m else url


def _source(p: dict[str, Any], f: Formatter) -> str:
    provider = (p.get("provider_zh") or p.get("provider")) if f.zh else p.get("provider")
    grade = GRADE.get(str(p.get("grade")), (str(p.get("grade")), str(p.get("grade"))))[_zh(f)]
    if f.zh:
        # the source is cited in English words; a Chinese reader gets its link (or just the kind of price)
        where = _short_url(p.get("source_url"))
        return f"价格来源：{provider} {grade}" + (f"（{where}）" if where else "") + f"，{_summary(p, f)}。"
    where = p.get("source") or _short_url(p.get("source_url"))
    return f"Price source: {provider}, {grade} ({where}), {_summary(p, f)}."


MESSAGES: dict = {
    "price_age.state": (lambda p, f: STATE.get(str(p.get("state")), (str(p.get("state")),) * 2)[0],
                        lambda p, f: STATE.get(str(p.get("state")), (str(p.get("state")),) * 2)[1]),
    "price_age.date": (_date, _date),
    "price_age.summary": (_summary, _summary),
    "price_age.covers": (_covers, _covers),
    "price_age.source": (_source, _source),
}
