"""Short generated cards for the catalog: one per GPU, one per provider instance family.

A spec question ("H100 显存多大", "what is in an AWS p5") then retrieves a
passage whose numbers come straight from catalog rows, with their source.
Ids: `gpu:<GPU key>` and `instances:<provider>:<family>`; each card exists in
English and Chinese so either question language finds it.
"""

from __future__ import annotations

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


def gpu_card_en(g: GPU) -> str:
    mem = _join([f"{_num(g.memory_gb)} GB", g.memory_type], " ")
    lines = [
        f"{g.name} ({g.vendor} {g.architecture}, {g.form_factor}): {mem} memory "
        f"({_num(g.usable_memory_gib)} GiB usable as reported by nvidia-smi)"
        + (f", {_num(g.memory_bandwidth_gbps)} GB/s memory bandwidth" if g.memory_bandwidth_gbps else "")
        + ".",
    ]
    compute = _join(
        [
            f"BF16 {_num(g.bf16_tflops)} TFLOPS dense" if g.bf16_tflops else None,
            f"FP16 {_num(g.fp16_tflops)} TFLOPS" if g.fp16_tflops and g.fp16_tflops != g.bf16_tflops else None,
            f"FP8 {_num(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else None,
            f"TF32 {_num(g.tf32_tflops)} TFLOPS" if g.tf32_tflops else None,
            f"FP32 {_num(g.fp32_tflops)} TFLOPS" if g.fp32_tflops else None,
            f"INT8 {_num(g.int8_tops)} TOPS" if g.int8_tops else None,
        ],
        ", ",
    )
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
        lines.append(g.interconnect_note.rstrip(".") + ".")
    if g.china_variant:
        lines.append("China export variant" + (f": {g.export_note}" if g.export_note else "") + ".")
    elif g.restricted_in_china:
        lines.append("Cannot be sold into mainland China under US export rules" + (f" ({g.export_note})" if g.export_note else "") + ".")
    if g.consumer:
        lines.append("Consumer card (GeForce class).")
    if g.aliases:
        lines.append(f"Also called: {', '.join(g.aliases)}.")
    if g.notes:
        lines.append(g.notes.rstrip(".") + ".")
    lines.append(f"Source: {g.source}" + (f" (as of {g.as_of.isoformat()})" if g.as_of else "") + ".")
    return "\n".join(lines)


def gpu_card_zh(g: GPU) -> str:
    mem = _join([f"{_num(g.memory_gb)} GB", g.memory_type], " ")
    lines = [
        f"{g.name}（{g.vendor} {g.architecture} 架构，{g.form_factor}）：显存 {mem}"
        f"（nvidia-smi 显示可用约 {_num(g.usable_memory_gib)} GiB）"
        + (f"，显存带宽 {_num(g.memory_bandwidth_gbps)} GB/s" if g.memory_bandwidth_gbps else "")
        + "。",
    ]
    compute = _join(
        [
            f"BF16 稠密算力 {_num(g.bf16_tflops)} TFLOPS" if g.bf16_tflops else None,
            f"FP16 {_num(g.fp16_tflops)} TFLOPS" if g.fp16_tflops and g.fp16_tflops != g.bf16_tflops else None,
            f"FP8 {_num(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else None,
            f"TF32 {_num(g.tf32_tflops)} TFLOPS" if g.tf32_tflops else None,
            f"FP32 {_num(g.fp32_tflops)} TFLOPS" if g.fp32_tflops else None,
            f"INT8 {_num(g.int8_tops)} TOPS" if g.int8_tops else None,
        ],
        "，",
    )
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
        lines.append("中国特供（出口管制）版本" + (f"：{g.export_note}" if g.export_note else "") + "。")
    elif g.restricted_in_china:
        lines.append("受美国出口管制，不能销售到中国大陆" + (f"（{g.export_note}）" if g.export_note else "") + "。")
    if g.consumer:
        lines.append("消费级显卡（GeForce 系列）。")
    if g.aliases:
        lines.append(f"别名：{'、'.join(g.aliases)}。")
    lines.append(f"来源：{g.source}" + (f"（截至 {g.as_of.isoformat()}）" if g.as_of else "") + "。")
    return "\n".join(lines)


def _family(i: Instance) -> str:
    return i.family or i.instance


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
    if zh:
        return f"{i.instance}（{i.region.name}）{billing.value} 价格 {amount} {p.currency.value}/{per}（{p.grade.value}，{p.age_text}，来源 {p.source}）"
    return f"{i.instance} in {i.region.name}: {amount} {p.currency.value}/{per} {billing.value} ({p.grade.value}, {p.age_text}, source {p.source})"


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
        mem = f" {_num(gpu.memory_gb)} GB" if gpu else ""
        if zh:
            parts = [
                f"{i.instance}：{count} 张 {gname}{mem}",
                f"{i.vcpus} 核 vCPU" if i.vcpus else None,
                f"内存 {_num(i.ram_gib)} GiB" if i.ram_gib else None,
                f"本地盘 {_num(i.local_disk_gb)} GB" if i.local_disk_gb else None,
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
                f"{_num(i.local_disk_gb)} GB local disk" if i.local_disk_gb else None,
                f"{_num(i.network_gbps)} Gbps network" if i.network_gbps else None,
                "NVLink" if i.nvlink else None,
                "InfiniBand/RDMA" if i.infiniband else None,
            ]
            lines.append("- " + _join(parts, ", "))
    regions = sorted({i.region.name for i in rows})
    prices = [_price_text(rows, b, zh) for b in (Billing.on_demand, Billing.spot, Billing.monthly)]
    if zh:
        head = f"{pname} {family} 实例系列（GPU 云服务器）："
        tail = [f"地域：{'、'.join(regions[:8])}" + ("等" if len(regions) > 8 else "") + "。"]
        tail += [f"最低价：{p}。" for p in prices if p]
    else:
        head = f"{pname} {family} instance family (GPU cloud servers):"
        tail = [f"Regions: {', '.join(regions[:8])}" + (" and more" if len(regions) > 8 else "") + "."]
        tail += [f"Lowest price: {p}." for p in prices if p]
    sources = sorted({i.source for i in rows})
    tail.append(("来源：" if zh else "Source: ") + "; ".join(sources[:3]))
    return "\n".join([head, *lines, *tail])


def cards_from_catalog(catalog: Catalog) -> list[SourceDoc]:
    docs: list[SourceDoc] = []
    for g in sorted(catalog.gpus.values(), key=lambda g: g.key):
        for lang, text, title in (
            ("en", gpu_card_en(g), f"{g.name} GPU specifications"),
            ("zh", gpu_card_zh(g), f"{g.name} 显卡参数"),
        ):
            docs.append(SourceDoc(f"gpu:{g.key}", title, lang, text, SOURCE, GPU_TOPICS + [g.key], derived_from=g.source))
    families: dict[tuple[str, str], list[Instance]] = defaultdict(list)
    for i in catalog.instances:
        families[(i.provider, _family(i))].append(i)
    for (provider_key, family), rows in sorted(families.items()):
        provider = catalog.providers.get(provider_key)
        pname = provider.name if provider else provider_key
        doc_id = f"instances:{provider_key}:{family}"
        for lang in ("en", "zh"):
            zh = lang == "zh"
            title = f"{(provider.name_zh or pname) if (zh and provider) else pname} {family} " + ("实例" if zh else "instances")
            docs.append(
                SourceDoc(doc_id, title, lang, instance_card(provider, family, rows, catalog.gpus, zh), SOURCE,
                          INSTANCE_TOPICS + [provider_key], derived_from=rows[0].source)
            )
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
