"""What the chat front ends (web app, Slack) say about a turn: tool-step summaries, the brain, region names.

These are not notes a calculator returns: the surfaces build the params from a tool's JSON result
(`ui.web.render.tool_summary`) and render them here, so each sentence exists once per language.
Figures arrive already formatted by the surface (``per_gpu_gib="18.4"``, ``cost="¥554.80"``): the
web panel's rounding is the surface's, the words are this table's.

``term.region_id.<id>``: a catalog region id in words where the id is our placeholder for a place rather than
a cloud's own region code (``cn-mainland`` -> 中国大陆); real codes (``us-east-1``) are shown as they are.
English keeps the id, as the consoles and the answer text write it.
"""

from __future__ import annotations

from typing import Any

from tools.messages.format import Formatter


def _texts(items: Any) -> list[str]:
    return [str(t) for t in (items or [])]


def _search(p: dict[str, Any], f: Formatter) -> str:
    titles = _texts(p.get("titles"))
    if f.zh:
        return f"{p.get('count')} 段资料" + ("：" + "；".join(titles) if titles else "")
    return f.count(p.get("count"), "passage") + (": " + "; ".join(titles) if titles else "")


def _vram(p: dict[str, Any], f: Formatter) -> str:
    fits = _texts(p.get("fits"))
    mode = p.get("mode")
    if f.zh:
        head = f"每卡 {p.get('per_gpu_gib')} GiB × {p.get('gpus')}（{f.term('mode', mode)}，{p.get('precision')}）"
        return head + ("；放得下：" + "、".join(fits) if fits else "；所查的 GPU 都放不下")
    head = f"{p.get('per_gpu_gib')} GiB per GPU × {p.get('gpus')} ({mode}, {p.get('precision')})"
    return head + ("; fits " + ", ".join(fits) if fits else "; fits none of the GPUs checked")


def _recommend(p: dict[str, Any], f: Formatter) -> str:
    if f.zh:
        text = f"{p.get('options')} 个方案，{p.get('rejected')} 个未入选"
        return text + (f"；首选：{p['top']} {p.get('cost')}/月" if p.get("top") else "")
    text = f"{f.count(p.get('options'), 'option')}, {f.count(p.get('rejected'), 'near-miss', 'near-misses')}"
    return text + (f"; top: {p['top']} {p.get('cost')}/month" if p.get("top") else "")


# catalog region ids that name a place in words (knowledge/catalog/data/instances.csv)
_REGION_IDS = {
    "cn-mainland": "中国大陆",
    "overseas": "中国大陆以外",
    "beijing-a": "北京 A 区",
    "cn-north-1": "北京（cn-north-1）",
    "cn-northwest-1": "宁夏（cn-northwest-1）",
    "all-regions": "所有地域",
    "all-25-datacenters": "全部 25 个数据中心",
    "unspecified": "未注明",
    "default": "默认地域",
}

MESSAGES: dict = {
    # a tool step's one-line summary (web app: the folded step's title line)
    "ui.tool.error": ("error: {error}", "出错：{error}"),
    "ui.tool.search": (_search, _search),
    "ui.tool.vram": (_vram, _vram),
    "ui.tool.train_time": (
        "{hours} h ≈ {days} days, {gpu_hours} GPU-hours on {gpus}× {gpu}",
        "{hours} 小时 ≈ {days} 天，{gpus}× {gpu} 共 {gpu_hours} 卡时",
    ),
    "ui.tool.cost": (
        "{where}: {total} for {hours} h {billing:billing} ({as_of:as_of})",
        "{where}：{billing:billing} {hours} 小时共 {total}（{as_of:as_of}）",
    ),
    "ui.tool.recommend": (_recommend, _recommend),
    "ui.tool.catalog_rows": ("{count:count:instance row}", "{count} 行实例数据"),
    "ui.tool.catalog_found": ("record found", "找到记录"),
    # which brain answered (Answer.brain): the offline one in words; an LLM spec ("deepseek:deepseek-chat") stays as is
    "ui.brain.offline": ("offline", "离线"),
    **{f"term.region_id.{rid}": (rid, zh) for rid, zh in _REGION_IDS.items()},
}
