"""Questions answered from the catalog itself: GPUs side by side, GPUs with a property, the cheapest offer of a GPU.

Pure functions over a `Catalog` and an exchange rate; typed results, no sentences.
A GPU's "cheapest offer" is the lowest price per GPU-hour over the priced
instances that carry it (on-demand, else any listed billing), with its grade and
date so the answer can say what kind of price it is.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tools.catalog import Catalog
from tools.domain import GPU, Billing, Currency, Instance, PriceGrade, RegionScope
from tools.money import convert
from tools.schemas import ExchangeRate

FEATURES = ("fp8", "bf16", "fp4", "nvlink", "infiniband", "tensor_cores", "int8")
TENSOR_CORE_ARCHS = ("volta", "turing", "ampere", "ada", "hopper", "blackwell")  # NVIDIA; CDNA/Ascend have matrix units too


class Offer(BaseModel):
    provider: str
    instance: str
    region: str
    gpu_count: float
    price_per_gpu_hour: float = Field(description="price per GPU-hour in `currency`")
    currency: Currency
    billing: Billing
    grade: PriceGrade
    as_of: str | None = None


class GpuFacts(BaseModel):
    key: str
    name: str
    vendor: str
    architecture: str
    memory_gb: float
    usable_gib: float
    memory_bandwidth_gbps: float | None = None
    bf16_tflops: float | None = None
    fp8_tflops: float | None = None
    bf16_supported: bool
    fp8_supported: bool
    nvlink: bool
    nvlink_bandwidth_gbps: float | None = None
    tdp_w: float | None = None
    cheapest: Offer | None = Field(default=None, description="lowest price per GPU-hour in the catalog")
    offers: int = Field(default=0, description="priced instances carrying this GPU")


class GpuComparison(BaseModel):
    gpus: list[GpuFacts]
    currency: Currency


class GpuFilter(BaseModel):
    features: list[str] = Field(default_factory=list)
    min_memory_gb: float | None = None
    region: RegionScope = RegionScope.any
    matches: list[GpuFacts]
    matching_gpus: int = Field(default=0, description="how many GPUs match (the answer states this count)")
    currency: Currency


def has_feature(gpu: GPU, feature: str) -> bool:
    if feature == "fp8":
        return gpu.fp8_supported
    if feature == "bf16":
        return gpu.bf16_supported
    if feature == "nvlink":
        return gpu.nvlink
    if feature == "fp4":
        return gpu.architecture.lower().startswith("blackwell")
    if feature == "tensor_cores":
        return gpu.vendor.lower() == "nvidia" and gpu.architecture.lower().split()[0] in TENSOR_CORE_ARCHS
    if feature == "int8":
        return gpu.int8_tops is not None
    return False


def _in_region(inst: Instance, region: RegionScope) -> bool:
    if region == RegionScope.cn:
        return inst.region.china_mainland
    if region == RegionScope.intl:
        return not inst.region.china_mainland
    return True


def offers(catalog: Catalog, gpu_key: str, currency: Currency, fx: ExchangeRate, *, region: RegionScope = RegionScope.any,
           min_count: float = 0, billing: Billing | None = None, providers: list[str] | None = None) -> list[Offer]:
    """Priced instances carrying `gpu_key`, cheapest per GPU-hour first; `providers`: only these."""
    out: list[Offer] = []
    for inst in catalog.instances:
        if inst.gpu != gpu_key or inst.gpu_count < min_count or not _in_region(inst, region):
            continue
        if providers and inst.provider not in providers:
            continue
        candidates = [inst.price(billing)] if billing else [inst.price(Billing.on_demand)] or []
        price = next((p for p in candidates if p is not None), None)
        if price is None and billing is None:
            price = next((p for p in inst.prices if p.billing != Billing.spot), None)
        if price is None:
            continue
        per_hour, _ = convert(price.per_hour, price.currency, currency, fx)
        out.append(Offer(provider=inst.provider, instance=inst.instance, region=inst.region.name, gpu_count=inst.gpu_count,
                         price_per_gpu_hour=per_hour / inst.gpu_count, currency=currency, billing=price.billing, grade=price.grade,
                         as_of=price.as_of.isoformat() if price.as_of else None))
    return sorted(out, key=lambda o: (o.price_per_gpu_hour, o.provider, o.instance))


def gpu_facts(catalog: Catalog, gpu: GPU, currency: Currency, fx: ExchangeRate, region: RegionScope = RegionScope.any) -> GpuFacts:
    found = offers(catalog, gpu.key, currency, fx, region=region)
    return GpuFacts(
        key=gpu.key, name=gpu.name, vendor=gpu.vendor, architecture=gpu.architecture, memory_gb=gpu.memory_gb,
        usable_gib=gpu.usable_memory_gib, memory_bandwidth_gbps=gpu.memory_bandwidth_gbps,
        bf16_tflops=gpu.bf16_tflops or gpu.fp16_tflops, fp8_tflops=gpu.fp8_tflops, bf16_supported=gpu.bf16_supported,
        fp8_supported=gpu.fp8_supported, nvlink=gpu.nvlink, nvlink_bandwidth_gbps=gpu.nvlink_bandwidth_gbps, tdp_w=gpu.tdp_w,
        cheapest=found[0] if found else None, offers=len(found),
    )


def compare_gpus(catalog: Catalog, keys: list[str], currency: Currency, fx: ExchangeRate,
                 region: RegionScope = RegionScope.any) -> GpuComparison:
    gpus = [catalog.gpu(k) for k in dict.fromkeys(keys)]
    return GpuComparison(gpus=[gpu_facts(catalog, g, currency, fx, region) for g in gpus], currency=currency)


def filter_gpus(catalog: Catalog, features: list[str], min_memory_gb: float | None, currency: Currency, fx: ExchangeRate,
                region: RegionScope = RegionScope.any, rentable_only: bool = False) -> GpuFilter:
    """GPUs with every feature and at least `min_memory_gb`, biggest memory first; `rentable_only`: priced in the region."""
    matches: list[GpuFacts] = []
    for gpu in catalog.gpus.values():
        if any(not has_feature(gpu, f) for f in features):
            continue
        if min_memory_gb is not None and gpu.memory_gb + 0.5 < min_memory_gb:
            continue
        facts = gpu_facts(catalog, gpu, currency, fx, region)
        if (rentable_only or region != RegionScope.any) and facts.cheapest is None:
            continue
        matches.append(facts)
    matches.sort(key=lambda g: (-g.memory_gb, g.key))
    return GpuFilter(features=list(features), min_memory_gb=min_memory_gb, region=region, matches=matches,
                     matching_gpus=len(matches), currency=currency)
