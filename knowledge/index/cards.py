"""Short generated cards for the catalog: one per GPU, one per provider instance family.

A spec question ("H100 显存多大", "what is in an AWS p5") then retrieves a
passage whose numbers come straight from catalog rows, with their source.
Ids: `gpu:<GPU key>` and `instances:<provider>:<family>`; each card exists in
English and Chinese so either question language finds it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

from knowledge.index.documents import SourceDoc
from tools.catalog import Catalog
from tools.domain import GPU, Billing, Instance, Provider

SOURCE = "catalog"
GPU_TOPICS = ["gpu-models", "gpu-specs", "catalog"]
INSTANCE_TOPICS = ["providers", "instances", "pricing", "catalog"]


def _num(value: float | None, digits: int = 1) -> str | None:
    if value is None:
        return None
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def _join(parts: Iterable[str | None], sep: str) -> str:
    return sep.join(p for p in parts if p)


def short_source(source: str, limit: int = 90) -> str:
    """The first reference of a long provenance string: cards stay short, the catalog keeps the rest."""
    head = re.split(r"\s;\s|;\s*corroborated|\s\+\s|\s\(", source, maxsplit=1)[0].strip()
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


def _clip(text: str, limit: int) -> str:
    """Whole clauses up to `limit` characters (a long note keeps its first clause)."""
    text = text.strip().rstrip(".")
    if len(text) <= limit:
        return text
    kept = ""
    for clause in text.split("; "):
        if len(kept) + len(clause) + 2 > limit:
            break
        kept = f"{kept}; {clause}" if kept else clause
    return kept or text[: limit - 1].rstrip() + "…"


def _compute_clauses(g: GPU, bf16: str) -> list[str | None]:
    """Peak-compute clauses shared by both languages; only the BF16 wording differs."""
    return [
        bf16.format(_num(g.bf16_tflops)) if g.bf16_tflops else None,
        f"FP16 {_num(g.fp16_tflops)} TFLOPS" if g.fp16_tflops and g.fp16_tflops != g.bf16_tflops else None,
        f"FP8 {_num(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else None,
        f"TF32 {_num(g.tf32_tflops)} TFLOPS" if g.tf32_tflops else None,
        f"FP32 {_num(g.fp32_tflops)} TFLOPS" if g.fp32_tflops else None,
        f"INT8 {_num(g.int8_tops)} TOPS" if g.int8_tops else None,
    ]


def gpu_card_en(g: GPU) -> str:
    mem = _join([f"{_num(g.memory_gb)} GB", g.memory_type], " ")
    lines = [
        f"{g.name} ({g.vendor} {g.architecture}, {g.form_factor}): {mem} memory "
        f"({_num(g.usable_memory_gib)} GiB usable as reported by nvidia-smi)"
        + (f", {_num(g.memory_bandwidth_gbps)} GB/s memory bandwidth" if g.memory_bandwidth_gbps else "")
        + ".",
    ]
    compute = _join(_compute_clauses(g, bf16="BF16 {} TFLOPS dense"), ", ")
    if compute:
        lines.append(f"Peak compute: {compute}.")
    support = ["BF16 supported" if g.bf16_supported else "no BF16", "FP8 supported" if g.fp8_supported else "no FP8"]
    link = f"NVLink {_num(g.nvlink_bandwidth_gbps)} GB/s" if g.nvlink and g.nvlink_bandwidth_gbps else (
        "NVLink" if g.nvlink else "no NVLink (PCIe only)"
    )
    lines.append(
        _join(
            [
                ", ".join(support),
                link,
                f"PCIe Gen{g.pcie_gen}" if g.pcie_gen else None,
                f"TDP {_num(g.tdp_w)} W" if g.tdp_w else None,
                f"launched {g.launch_year}" if g.launch_year else None,
            ],
            "; ",
        )
        + "."
    )
    if g.interconnect_note:
        lines.append(_clip(g.interconnect_note, 160) + ".")
    if g.china_variant:
        lines.append("China-market export variant" + (f": {_clip(g.export_note, 200)}" if g.export_note else "") + ".")
    elif g.restricted_in_china:
        lines.append("Export-restricted for mainland China" + (f": {_clip(g.export_note, 200)}" if g.export_note else "") + ".")
    if g.consumer:
        lines.append("Consumer card (GeForce class).")
    if g.aliases:
        lines.append(f"Also called: {', '.join(g.aliases[:6])}.")
    if g.notes:
        lines.append(f"Note: {_clip(g.notes, 200)}.")
    lines.append(f"Source: {short_source(g.source)}" + (f" (as of {g.as_of.isoformat()})" if g.as_of else "") + ".")
    return "\n".join(lines)


def gpu_card_zh(g: GPU) -> str:
    mem = _join([f"{_num(g.memory_gb)} GB", g.memory_type], " ")
    lines = [
        f"{g.name}（{g.vendor} {g.architecture} 架构，{g.form_factor}）：显存 {mem}"
        f"（nvidia-smi 显示可用约 {_num(g.usable_memory_gib)} GiB）"
        + (f"，显存带宽 {_num(g.memory_bandwidth_gbps)} GB/s" if g.memory_bandwidth_gbps else "")
        + "。",
    ]
    compute = _join(_compute_clauses(g, bf16="BF16 稠密算力 {} TFLOPS"), "，")
    if compute:
        lines.append(f"峰值算力：{compute}。")
    link = f"NVLink 互联 {_num(g.nvlink_bandwidth_gbps)} GB/s" if g.nvlink and g.nvlink_bandwidth_gbps else (
        "支持 NVLink" if g.nvlink else "无 NVLink（仅 PCIe）"
    )
    lines.append(
        _join(
            [
                "支持 BF16" if g.bf16_supported else "不支持 BF16",
                "支持 FP8" if g.fp8_supported else "不支持 FP8",
                link,
                f"PCIe {g.pcie_gen}.0" if g.pcie_gen else None,
                f"功耗 {_num(g.tdp_w)} W" if g.tdp_w else None,
                f"{g.launch_year} 年发布" if g.launch_year else None,
            ],
            "；",
        )
        + "。"
    )
    if g.china_variant:
        lines.append("中国特供（出口管制）版本。")
    elif g.restricted_in_china:
        lines.append("受美国出口管制，不能销售到中国大陆。")
    if g.consumer:
        lines.append("消费级显卡（GeForce 系列）。")
    if g.aliases:
        lines.append(f"别名：{'、'.join(g.aliases[:6])}。")
    lines.append(f"来源：{short_source(g.source)}" + (f"（截至 {g.as_of.isoformat()}）" if g.as_of else "") + "。")
    return "\n".join(lines)


MAX_SIZES = 6  # instance sizes listed per card; the catalog command lists all


def _family(i: Instance) -> str:
    # Marketplaces name offers, not families: group their offers by GPU model instead.
    return i.family or i.gpu


def _price_text(inst: list[Instance], billing: Billing, zh: bool) -> str | None:
    best = None
    for i in inst:
        p = i.price(billing)
        if p is not None and (best is None or p.per_hour < best[1].per_hour):
            best = (i, p)
    if best is None:
        return None
    i, p = best
    amount = _num(p.amount, 2)
    per = {"hour": "小时" if zh else "hour", "month": "月" if zh else "month", "year": "年" if zh else "year"}[p.per]
    label = {Billing.on_demand: ("按量", "on-demand"), Billing.spot: ("竞价", "spot"),
             Billing.monthly: ("包月", "monthly"), Billing.yearly: ("包年", "yearly")}[billing]
    date = p.as_of.isoformat() if p.as_of else None
    if zh:
        return f"{label[0]} {amount} {p.currency.value}/{per}（{i.instance}，{i.region.name}" + (f"，{date}" if date else "") + "）"
    return f"{label[1]} {amount} {p.currency.value}/{per} ({i.instance}, {i.region.name}" + (f", {date}" if date else "") + ")"


def instance_card(provider: Provider | None, family: str, rows: list[Instance], gpus: dict[str, GPU], zh: bool) -> str:
    pname = (provider.name_zh or provider.name) if (provider and zh) else (provider.name if provider else rows[0].provider)
    lines: list[str] = []
    seen: set[str] = set()
    for i in sorted(rows, key=lambda r: (r.gpu_count, r.instance)):
        if i.instance in seen:
            continue
        seen.add(i.instance)
        gpu = gpus.get(i.gpu)
        gname = gpu.name if gpu else i.gpu
        count = _num(i.gpu_count)
        mem = f" {_num(gpu.memory_gb)} GB" if gpu and "GB" not in gpu.name.upper() else ""
        if zh:
            parts = [
                f"{i.instance}：{count} 张 {gname}{mem}",
                f"{i.vcpus} 核 vCPU" if i.vcpus else None,
                f"内存 {_num(i.ram_gib)} GiB" if i.ram_gib else None,
                f"网络 {_num(i.network_gbps)} Gbps" if i.network_gbps else None,
                "NVLink" if i.nvlink else None,
                "InfiniBand/RDMA" if i.infiniband else None,
            ]
            lines.append("- " + _join(parts, "，"))
        else:
            parts = [
                f"{i.instance}: {count}x {gname}{mem}",
                f"{i.vcpus} vCPU" if i.vcpus else None,
                f"{_num(i.ram_gib)} GiB RAM" if i.ram_gib else None,
                f"{_num(i.network_gbps)} Gbps network" if i.network_gbps else None,
                "NVLink" if i.nvlink else None,
                "InfiniBand/RDMA" if i.infiniband else None,
            ]
            lines.append("- " + _join(parts, ", "))
    if len(seen) > MAX_SIZES:
        more = len(seen) - MAX_SIZES
        lines = lines[:MAX_SIZES] + [f"- 另有 {more} 种规格" if zh else f"- and {more} more sizes"]
    regions = sorted({i.region.name for i in rows})
    prices = [p for p in (_price_text(rows, b, zh) for b in (Billing.on_demand, Billing.spot, Billing.monthly)) if p]
    if zh:
        head = f"{pname} {family} GPU 云服务器实例："
        tail = [f"地域：{'、'.join(regions[:6])}" + ("等" if len(regions) > 6 else "") + "。"]
        if prices:
            tail.append(f"最低价：{'；'.join(prices)}。")
    else:
        head = f"{pname} {family} GPU cloud instances:"
        tail = [f"Regions: {', '.join(regions[:6])}" + (" and more" if len(regions) > 6 else "") + "."]
        if prices:
            tail.append(f"Lowest prices: {'; '.join(prices)}.")
    ref = provider.price_page if provider and provider.price_page else short_source(rows[0].source)
    tail.append(("来源：" if zh else "Source: ") + ref)
    return "\n".join([head, *lines, *tail])


def _head(title: str, text: str) -> str:
    return f"{title}\n{text.splitlines()[0]}"


def cards_from_catalog(catalog: Catalog) -> list[SourceDoc]:
    """Two cards (en, zh) per GPU and per provider instance family; both embed the English head line."""
    docs: list[SourceDoc] = []
    for g in sorted(catalog.gpus.values(), key=lambda g: g.key):
        en_title, en_text = f"{g.name} GPU specifications", gpu_card_en(g)
        dense = _head(en_title, en_text)
        topics = GPU_TOPICS + [g.key]
        docs.append(SourceDoc(f"gpu:{g.key}", en_title, "en", en_text, SOURCE, topics, g.source, dense))
        docs.append(SourceDoc(f"gpu:{g.key}", f"{g.name} 显卡参数", "zh", gpu_card_zh(g), SOURCE, topics, g.source, dense))
    families: dict[tuple[str, str], list[Instance]] = defaultdict(list)
    for i in catalog.instances:
        families[(i.provider, _family(i))].append(i)
    for (provider_key, family), rows in sorted(families.items()):
        provider = catalog.providers.get(provider_key)
        pname = provider.name if provider else provider_key
        doc_id = f"instances:{provider_key}:{family}"
        topics = INSTANCE_TOPICS + [provider_key]
        en_title = f"{pname} {family} instances"
        en_text = instance_card(provider, family, rows, catalog.gpus, zh=False)
        dense = _head(en_title, en_text)
        zh_title = f"{(provider.name_zh or pname) if provider else pname} {family} 实例"
        docs.append(SourceDoc(doc_id, en_title, "en", en_text, SOURCE, topics, rows[0].source, dense))
        docs.append(SourceDoc(doc_id, zh_title, "zh", instance_card(provider, family, rows, catalog.gpus, zh=True),
                              SOURCE, topics, rows[0].source, dense))
    return docs


def load_cards(settings) -> tuple[list[SourceDoc], str | None]:
    """Cards from the configured catalog, or none and a warning when the catalog cannot be loaded."""
    try:
        from knowledge.catalog import load_catalog
    except ImportError as err:
        return [], f"catalog cards skipped: knowledge.catalog is not available ({err})"
    try:
        catalog = load_catalog(settings)
    except Exception as err:  # a broken user catalog must not stop guidance indexing
        return [], f"catalog cards skipped: {err}"
    return cards_from_catalog(catalog), None
