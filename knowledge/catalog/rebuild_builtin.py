"""Rebuild the BUILT-IN instances.csv and prices.csv from the shared reference data.

Developer tool, never imported at run time (the product reads only
``knowledge/catalog/data/``). Run it when ``shared/data`` changes:

    python -m knowledge.catalog.rebuild_builtin --shared ../shared/data

(Not to be confused with ``gpu-advisor catalog refresh``, the user command that
fetches current public prices into ``<data dir>/catalog-refreshed/``.)

Inputs: ``cloud_gpu_prices.csv``, ``cn_cloud_gpu_prices.csv`` and
``cn_gpu_prices_sourced.csv`` (Chinese clouds and rental marketplaces; a copy of
the last is kept in ``knowledge/catalog/sources/`` so the tests can check every
imported price against the row it came from). Every correction of the source
rows is made here, in code, with the reason next to it, so a rebuild re-applies
them and a reviewer can audit them in one place. GPUs, models and providers are
curated by hand in the YAML files.
"""

from __future__ import annotations

import argparse
import csv
import re
import shutil
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent / "data"
SOURCES_DIR = Path(__file__).resolve().parent / "sources"

# Marketplaces and aggregators hold single sampled offers that change hourly.
MARKETPLACES = {"vast", "lium", "shadeform", "primeintellect", "hyperbolic", "mithril"}
# Accelerators that are not GPUs (need the Neuron / SynapseAI stacks); the
# calculators model CUDA/ROCm GPUs, so these offers are left out.
NOT_GPUS = {"Inferentia", "Inferentia2", "INFERENTIA", "Trainium", "Gaudi", "Gaudi2"}
# Shared-data GPU names that differ from our catalog keys.
GPU_KEYS = {
    "T4G": "T4",  # NVIDIA T4G = a T4 on an AWS Graviton (Arm) host
    "V100": "V100-16GB",
    "RTX3090": "RTX-3090",
    "RTX5070": "RTX-5070",
    "RTX4060": "RTX-4060-Ti",
    "RTX3060": "RTX-3060",
    "RTX5880-Ada": "RTX-5880-Ada",
}
PCIE_SIBLING = {"A100-80GB": "A100-80GB-PCIe", "A100-40GB": "A100-40GB-PCIe", "A800-80GB": "A800-80GB-PCIe", "H100": "H100-PCIe"}
# GPUs with an NVLink-class fabric when several sit in one server (SXM/OAM parts).
NVLINK_GPUS = {
    "H100", "H200", "H800", "H20", "A100-80GB", "A100-40GB", "A800-80GB", "V100-16GB", "V100-32GB", "B200", "B300",
    "GB200", "GB300", "MI300X", "MI250X", "MI355X", "Ascend-910B", "ALI-GN8V-96GB",
}

KARPENTER = "github.com/aws/karpenter-provider-aws website/content/en/docs/reference/instance-types.md (network bandwidth, EFA, local NVMe)"
# (provider, instance) -> interconnect facts: infiniband/RDMA-class, GPU network Gbps, local disk GB, source
NETWORK: dict[tuple[str, str], tuple[bool | None, float | None, float | None, str]] = {
    ("aws", "p3.8xlarge"): (False, 10, None, KARPENTER),
    ("aws", "p3.16xlarge"): (False, 25, None, KARPENTER),
    ("aws", "p3dn.24xlarge"): (True, 100, 1800, KARPENTER + "; EFA x1"),
    ("aws", "p4d.24xlarge"): (True, 400, 8000, KARPENTER + "; EFA x4"),
    ("aws", "p4de.24xlarge"): (True, 400, 8000, KARPENTER + "; EFA x4"),
    ("aws", "p5.4xlarge"): (True, None, 3800, KARPENTER + "; EFA x1"),
    ("aws", "p5.48xlarge"): (True, 3200, 30400, KARPENTER + "; EFA x32"),
    ("aws", "p5en.48xlarge"): (True, 3200, 30400, KARPENTER + "; EFA x16"),
    ("aws", "p6-b200.48xlarge"): (True, 3200, 30400, KARPENTER + "; EFA x8"),
    ("azure", "Standard_ND96asr_v4"): (True, 1600, None, "learn.microsoft.com ND A100 v4-series: 8 x 200 Gb/s HDR InfiniBand per VM, GPUDirect RDMA"),
    ("azure", "Standard_ND96amsr_A100_v4"): (True, 1600, None, "learn.microsoft.com NDm A100 v4-series: 8 x 200 Gb/s HDR InfiniBand per VM (not re-verified offline)"),
    ("azure", "Standard_ND96isr_H100_v5"): (True, 3200, None, "learn.microsoft.com ND H100 v5-series: 8 x 400 Gb/s NDR InfiniBand (3.2 Tb/s per VM), GPUDirect RDMA"),
    ("azure", "Standard_ND96isr_H200_v5"): (True, 3200, None, "learn.microsoft.com ND H200 v5-series: 8 x 400 Gb/s NDR InfiniBand (not re-verified offline)"),
    ("azure", "Standard_ND96isr_MI300X_v5"): (True, 3200, 1000, "MicrosoftDocs/azure-docs nd-mi300x-v5-series.md: InfiniBand 8x400 Gigabit NDR, GPUDirect RDMA; temp SSD 1000 GiB"),
    ("azure", "Standard_ND40rs_v2"): (True, 100, None, "learn.microsoft.com NDv2-series: 100 Gb/s EDR InfiniBand (not re-verified offline)"),
    ("azure", "Standard_NC24rs_v3"): (True, None, None, "learn.microsoft.com NCv3-series: the 'r' size has RDMA-capable InfiniBand (not re-verified offline)"),
    ("gcp", "a3-highgpu-8g"): (None, 800, None, "cloud.google.com GPU machine types: A3 High 8 GPUs = 800 Gbps GPU NICs with GPUDirect-TCPX (TCP, not RDMA) (not re-verified offline)"),
    ("gcp", "a3-megagpu-8g"): (None, 1600, None, "cloud.google.com GPU machine types: A3 Mega = 8 x 200 Gbps GPU NICs with GPUDirect-TCPXO (not RDMA) (not re-verified offline)"),
    ("gcp", "a3-ultragpu-8g"): (True, 3200, None, "cloud.google.com GPU machine types: A3 Ultra = 3,200 Gbps GPU-to-GPU RDMA (RoCE) (not re-verified offline)"),
    ("gcp", "a4-highgpu-8g"): (True, 3200, None, "cloud.google.com GPU machine types: A4 = 3,200 Gbps GPU-to-GPU RDMA (RoCE) (not re-verified offline)"),
    ("oci", "BM.GPU.H100.8"): (True, 3200, None, "OCI bare-metal GPU shapes: 8 x 400 Gb/s RDMA cluster networking (not re-verified offline)"),
    ("oci", "BM.GPU.H200.8"): (True, 3200, None, "OCI bare-metal GPU shapes: 8 x 400 Gb/s RDMA cluster networking (not re-verified offline)"),
    ("oci", "BM.GPU4.8"): (True, 1600, None, "OCI bare-metal GPU shapes: 8 x 200 Gb/s RDMA cluster networking (not re-verified offline)"),
    ("oci", "BM.GPU.A100-v2.8"): (True, 1600, None, "OCI bare-metal GPU shapes: 8 x 200 Gb/s RDMA cluster networking (not re-verified offline)"),
    ("nebius", "gpu-h100-sxm_8gpu-128vcpu-1600gb"): (True, 3200, None, "Nebius docs: 8-GPU hosts on NVIDIA Quantum-2 InfiniBand, 3.2 Tbit/s per host (not re-verified offline)"),
    ("nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb"): (True, 3200, None, "Nebius docs: 8-GPU hosts on NVIDIA Quantum-2 InfiniBand, 3.2 Tbit/s per host (not re-verified offline)"),
    ("nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb"): (True, 3200, None, "Nebius docs: 8-GPU hosts on InfiniBand, 3.2 Tbit/s per host (not re-verified offline)"),
}

# (provider, instance) -> corrected GPU key, with the reason
GPU_FIX = {
    ("aws", "p3dn.24xlarge"): ("V100-32GB", "GPU corrected from V100-16GB: p3dn has 32 GB V100s (karpenter instance-types.md: instance-gpu-memory 32768)"),
    ("azure", "Standard_NC24ads_A100_v4"): ("A100-80GB-PCIe", "GPU corrected to the PCIe A100 80GB: the NC A100 v4 series uses PCIe cards (Microsoft size docs)"),
    ("azure", "Standard_NC48ads_A100_v4"): ("A100-80GB-PCIe", "GPU corrected to the PCIe A100 80GB: the NC A100 v4 series uses PCIe cards (Microsoft size docs)"),
    ("azure", "Standard_NC96ads_A100_v4"): ("A100-80GB-PCIe", "GPU corrected to the PCIe A100 80GB: the NC A100 v4 series uses PCIe cards (Microsoft size docs)"),
    ("azure", "Standard_NC40ads_H100_v5"): ("H100-NVL", "GPU corrected to H100 NVL 94GB (NCads H100 v5 series; shared/data README caveat 8)"),
    ("azure", "Standard_NCC40ads_H100_v5"): ("H100-NVL", "GPU corrected to H100 NVL 94GB (NCCads H100 v5 series; shared/data README caveat 8)"),
    ("azure", "Standard_NC80adis_H100_v5"): ("H100-NVL", "GPU corrected to H100 NVL 94GB, an NVLink-bridged pair (NCads H100 v5 series; shared/data README caveat 8)"),
    ("vast", "1x-RTX_3060_Ti-32-65536"): ("RTX-3060-Ti", "GPU corrected: the offer is an 8 GB RTX 3060 Ti, not a 12 GB RTX 3060"),
}

INSTANCE_COLUMNS = [
    "provider", "instance", "region", "china_mainland", "family", "gpu", "gpu_count", "vcpus", "ram_gib",
    "local_disk_gb", "nvlink", "infiniband", "network_gbps", "source", "notes",
]
PRICE_COLUMNS = [
    "provider", "instance", "region", "billing", "amount", "currency", "per", "grade", "as_of", "as_of_precision",
    "as_of_inferred", "source", "source_url", "includes", "excludes", "system_disk_gb", "data_disk_gb", "notes",
]


def _num(text: str) -> float | None:
    text = (text or "").strip()
    if not text:
        return None
    value = float(text)
    return int(value) if value.is_integer() else value


def _as_of(text: str) -> str:
    text = (text or "").strip()
    return text if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) else ""  # "n/a (...)" -> unknown


def _family(provider: str, instance: str) -> str:
    if provider in ("aws", "aws-china"):
        return instance.split(".")[0]
    if provider == "gcp":
        return "-".join(instance.split("-")[:2])
    return ""


def _grade(provider: str) -> str:
    return "marketplace" if provider in MARKETPLACES else "official"


class Writer:
    def __init__(self) -> None:
        self.instances: dict[tuple[str, str, str], dict] = {}
        self.prices: list[dict] = []
        self.dropped: list[str] = []
        self.corrections: list[str] = []
        self.unpriced: list[str] = []

    def instance(self, row: dict) -> None:
        key = (row["provider"], row["instance"], row["region"])
        if key in self.instances:
            raise SystemExit(f"duplicate instance {key}")
        self.instances[key] = {c: row.get(c, "") for c in INSTANCE_COLUMNS}

    def merge_instance(self, row: dict, keep_notes: str = "") -> None:
        """Replace an instance row another input already wrote (same id), keeping `keep_notes`."""
        key = (row["provider"], row["instance"], row["region"])
        merged = {c: row.get(c, "") for c in INSTANCE_COLUMNS}
        if keep_notes:
            merged["notes"] = "; ".join(n for n in (keep_notes, merged["notes"]) if n)
        self.instances[key] = merged

    def price(self, row: dict) -> None:
        self.prices.append({c: row.get(c, "") for c in PRICE_COLUMNS})

    def write(self, out_dir: Path, header: str) -> None:
        with open(out_dir / "instances.csv", "w", newline="", encoding="utf-8") as fh:
            fh.write(header)
            w = csv.DictWriter(fh, INSTANCE_COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerows(sorted(self.instances.values(), key=lambda r: (r["provider"], r["instance"], r["region"])))
        with open(out_dir / "prices.csv", "w", newline="", encoding="utf-8") as fh:
            fh.write(header)
            w = csv.DictWriter(fh, PRICE_COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerows(sorted(self.prices, key=lambda r: (r["provider"], r["instance"], r["region"], r["billing"])))


def _interconnect(provider: str, instance: str, gpu: str, count: float) -> dict:
    out: dict = {}
    if count >= 2:
        if gpu in NVLINK_GPUS:
            out["nvlink"] = "true"
        elif gpu == "H100-NVL" and count == 2:
            out["nvlink"] = "true"  # NVL cards ship as NVLink-bridged pairs
        elif "nvlink" in instance.lower():
            out["nvlink"] = "true"  # provider names the NVLink bridges in the instance name
        else:
            out["nvlink"] = "false"
    net = NETWORK.get((provider, instance))
    if net:
        ib, gbps, disk, _ = net
        out["infiniband"] = "" if ib is None else str(ib).lower()
        out["network_gbps"] = "" if gbps is None else gbps
        out["local_disk_gb"] = "" if disk is None else disk
    return out


def _source(provider: str, instance: str, base: str) -> str:
    net = NETWORK.get((provider, instance))
    extra = f"; interconnect: {net[3]}" if net else ""
    return base + extra


def convert_cloud(path: Path, w: Writer) -> None:
    for r in csv.DictReader(open(path, encoding="utf-8")):
        provider, instance, gpu = r["cloud"], r["instance_type"], r["gpu_model"]
        if gpu in NOT_GPUS:
            w.dropped.append(f"{provider}/{instance}: {gpu} is not a GPU")
            continue
        notes = [r["notes"]] if r["notes"] else []
        gpu = GPU_KEYS.get(gpu, gpu)
        if r["gpu_model"] == "T4G":
            notes.append("NVIDIA T4G: a T4 on an AWS Graviton2 (Arm) host -- x86-only software will not run")
        if re.search(r"pcie?(?![a-z])|_pci_|-pci_|pci_", instance.lower()) and gpu in PCIE_SIBLING:
            w.corrections.append(f"{provider}/{instance}: {gpu} -> {PCIE_SIBLING[gpu]} (instance name says PCIe)")
            notes.append(f"GPU mapped to the PCIe part: the shared data listed {gpu} but the instance name says PCIe")
            gpu = PCIE_SIBLING[gpu]
        fix = GPU_FIX.get((provider, instance))
        if fix:
            gpu = fix[0]
            notes.append(fix[1])
            w.corrections.append(f"{provider}/{instance}: {fix[1]}")
        count = float(r["gpu_count"])
        vcpus, ram = _num(r["vcpus"]), _num(r["memory_gib"])
        region = r["region"].strip().lstrip(", ").strip()
        china = provider == "vast" and bool(re.search(r"(^|, )CN,", region))
        if provider == "vast":
            vcpus, ram = None, None  # catalog placeholders (32 vCPU / 64 GiB), shared/data README caveat 4
            notes.append("vCPU/RAM unknown (the source's 32/64 are placeholders)")
        od, spot = _num(r["price_on_demand_usd_per_hour"]), _num(r["price_spot_usd_per_hour"])
        currency_ok = True
        # --- corrections of prices (shared/data README "Known gaps") ---------
        if "SUSPECT" in r["notes"]:
            w.corrections.append(f"{provider}/{instance}/{region}: SUSPECT GCP price dropped")
            notes.append("PRICE DROPPED: the source's price for this region was flagged SUSPECT (GPU part <60% of the median over regions, likely a SKU mismatch); see the other region's row or cloud.google.com")
            od = spot = None
        if "CHECK:" in r["notes"]:
            notes.append("VERIFY before quoting: this cheapest-region price is <75% of us-central1's in the source (two price levels)")
        if provider == "runpod" and gpu == "L40S" and od is not None and spot is not None and spot > od:
            od, spot = spot, od  # README caveat 3: L40S columns swapped in the v7 catalog
            w.corrections.append(f"{provider}/{instance}: L40S on-demand/spot swapped back")
            notes.append("on-demand and spot were swapped in the source catalog (spot > on-demand); swapped back here")
        if spot is not None and od is not None and spot >= od:
            w.corrections.append(f"{provider}/{instance}: spot >= on-demand -> spot dropped")
            notes.append("spot price dropped: the source lists spot >= on-demand")
            spot = None
        if provider in ("scaleway", "seeweb"):
            currency_ok = False
            listed = f"{od}" if od is not None else "n/a"
            cur = "EUR (Scaleway bills in EUR)" if provider == "scaleway" else "unstated currency (Italian provider, likely EUR)"
            notes.append(f"PRICE NOT IMPORTED: the source lists {listed}/h in {cur} but records it as USD; check the provider's price page")
            w.corrections.append(f"{provider}/{instance}: EUR-as-USD price not imported")
        if instance.startswith("n1 + "):
            instance, vcpus, ram, od, spot = _gcp_n1(instance, r, notes)
            w.corrections.append(f"gcp/{instance}: GPU-only price + n1-standard host price")
        row = dict(
            provider=provider, instance=instance, region=region, china_mainland="true" if china else "false",
            family=_family(provider, instance), gpu=gpu, gpu_count=_num(r["gpu_count"]), vcpus=vcpus or "", ram_gib=ram or "",
            source=_source(provider, instance, r["source"]), notes="; ".join(n for n in notes if n),
        )
        row.update(_interconnect(provider, instance, gpu, count))
        w.instance(row)
        if not currency_ok:
            continue
        for billing, amount in (("on_demand", od), ("spot", spot)):
            if amount is None:
                continue
            w.price(dict(provider=provider, instance=instance, region=region, billing=billing, amount=amount, currency="USD",
                         per="hour", grade=_grade(provider), as_of=_as_of(r["as_of"]), source=r["source"]))


def _gcp_n1(name: str, r: dict, notes: list[str]):
    """GCP T4/V100/P100/P4 attach to N1 VMs; the source gives the GPU-only price and, in notes, the host's."""
    m = re.search(r"e\.g\. (n1-standard-(\d+)) = \$([\d.]+)/h in this region; total \$([\d.]+)/h", r["notes"])
    if not m:
        raise SystemExit(f"cannot parse GCP N1 host price: {r['notes']}")
    host, n, total = m.group(1), int(m.group(2)), float(m.group(4))
    count = int(float(r["gpu_count"]))
    gpu = r["instance_type"].split("x ")[1].split(" ")[0]
    instance = f"{host}+{count}x{gpu}"
    notes[:] = [
        f"price = {count} x {gpu} GPU (source) + {host} host (${m.group(3)}/h, from the source's notes); "
        f"{host} = {n} vCPU / {n * 3.75:g} GiB (N1 standard: 3.75 GiB per vCPU); spot not given for the host, so not listed"
    ]
    return instance, n, n * 3.75, total, None


def convert_cn(path: Path, w: Writer) -> None:
    for r in csv.DictReader(open(path, encoding="utf-8")):
        provider = r["provider"]
        if provider.startswith("vast"):
            continue  # the same offers are in cloud_gpu_prices.csv (imported there, with region flags)
        instance, gpu_text = r["instance_type"], r["gpu_model"]
        if gpu_text in NOT_GPUS:
            w.dropped.append(f"{provider}/{instance}: {gpu_text} is not a GPU")
            continue
        if instance == "(family)" or not r["gpu_count"]:
            w.dropped.append(f"{provider}/{r['family']} {instance}: no instance size in the source")
            continue
        gpu = _cn_gpu(gpu_text)
        notes = [r["notes"]] if r["notes"] else []
        if provider == "aws-china":
            region, china, source = "cn-north-1", True, r["source"] + " + website/content/en/*/reference/instance-types.md (specs)"
        else:
            overseas = "overseas" in r["notes"].lower() or r["family"] in ("gn8v", "gn8is")
            region, china = ("overseas", False) if overseas else ("cn-mainland", True)
            source = r["source"]
            if provider == "alibaba" and r["family"] in ("gn8v", "gn8is"):
                notes.append("family doc: only in some overseas regions")
            if provider == "huawei":
                notes.append("flavor spec from Open Telekom Cloud (Huawei-stack) docs; Huawei Cloud China region not confirmed in the source")
            notes.append("no official price found in public sources: fits; price unknown -- check the console / price calculator")
        count = float(r["gpu_count"])
        row = dict(
            provider=provider, instance=instance, region=region, china_mainland="true" if china else "false",
            family=r["family"], gpu=gpu, gpu_count=_num(r["gpu_count"]), vcpus=_num(r["vcpus"]) or "",
            ram_gib=_num(r["memory_gib"]) or "", source=source, notes="; ".join(n for n in notes if n),
        )
        if count < 1 and provider == "alibaba":
            row["notes"] = (row["notes"] + "; " if row["notes"] else "") + f"vGPU slice: {r['gpu_memory_gb_per_gpu']} GB of GPU memory"
        row.update(_interconnect(provider, instance, gpu, count))
        w.instance(row)
        cny = _num(r["price_cny_per_hour"])
        if cny is not None:
            w.price(dict(provider=provider, instance=instance, region=region, billing="on_demand", amount=cny, currency="CNY",
                         per="hour", grade=_grade(provider), as_of=_as_of(r["as_of"]), source=r["source"]))


def _cn_gpu(text: str) -> str:
    if text.startswith("unnamed Hopper"):
        return "ALI-GN8V-96GB"
    if text.startswith("unnamed Blackwell"):
        return "ALI-GN9GC-72GB"
    if text.startswith("A16"):
        return "A16"
    if text.startswith("A10 ("):
        return "A10"
    key = text.split(" ")[0]
    return GPU_KEYS.get(key, key)


# ------------------------------------------------------------------ cn_gpu_prices_sourced.csv
# Chinese clouds and GPU-rental marketplaces from public sources (shared/data/cn_gpu_prices_sourced.md
# explains each source and its traps). What is NOT imported, and why, is printed as "dropped".

CN_SOURCED = "cn_gpu_prices_sourced.csv"

# Source provider name -> our key (providers.yaml). The marketplace keys are the ones the
# understanding corpus already uses (tests/data/understanding/README.md).
CN_PROVIDERS = {
    "Tencent Cloud": "tencent",
    "恒源云 (gpushare)": "gpushare",
    "算家云 (suanjiayun)": "suanjiayun",
    "矩池云 (matpool)": "matpool",
    "晨涧云 (chenjianyun)": "chenjianyun",
    "优云智算 (UCloud Compshare)": "compshare",
    "AutoDL": "autodl",
    "共绩算力 (Gongji compute)": "gongjiyun",
}
CN_GPUS = {
    "A100 40GB (NVLink)": "A100-40GB",
    "V100 32GB (NVLink)": "V100-32GB",
    "Tesla P40 24GB": "P40",
    "Tesla T4 16GB": "T4",
    "Tesla T4 vGPU (1/4 card, 4GB)": "T4",
    "Tesla T4 vGPU (1/2 card, 8GB)": "T4",
    "Tesla P4 8GB": "P4",
    "Tesla M40 24GB": "M40",
    "RTX 3090 24GB": "RTX-3090",
    "RTX 4090D 24GB": "RTX-4090-D",
    "RTX 4090 24GB": "RTX-4090",
    "RTX A6000 48GB": "RTX-A6000",
    "RTX 5090 32GB": "RTX-5090",
    "A800 80GB": "A800-80GB",  # form factor (SXM or PCIe) not stated by the source; one GPU, so no link claim
    "H20 96GB": "H20",
}
# Two snapshots of Tencent's price overview page (both undated, most likely about 2021-22).
TENCENT_NEWER = "8ec072968ccbe6d60a8de2a7d57b4739a6814542"
TENCENT_OLDER = "02785b13caa52f79e260bbf03a1760b11d8a7a07"
TENCENT_REGION = "cn-mainland"  # the page gives mainland-China reference prices ("buy page prevails")
TENCENT_UNDATED = "undated historical list price (the page lists GT4/GN10Xp/GI3X, so about 2021-22); the live page no longer publishes a table"
# Tencent's table covers CPU + RAM + GPU only: system/data disks and public bandwidth are extra (the page says so).
TENCENT_EXCLUDES = ["system_disk", "data_disk", "bandwidth"]
# The aggregator's view carries no date; cn_gpu_prices_sourced.md dates it "probably about 2026-10-20" by matching its
# H100 row to a dated API example -- that is OUR inference, so month-level, approximate, inferred.
AGGREGATOR_AS_OF = "2026-10"
AUTODL_REGION = "beijing-a"  # 北京A区 in the console screenshot


def _cn_key(gpu_key: str, count: float) -> str:
    """Synthesised instance id for a marketplace offer: 'rtx-4090-1x'."""
    return f"{gpu_key.lower()}-{count:g}x"


def _range(note: str) -> tuple[str, str] | None:
    m = re.search(r"Range listed ([\d.]+)-([\d.]+)", note)
    return (m.group(1), m.group(2)) if m else None


def convert_cn_sourced(path: Path, w: Writer) -> None:
    rows = list(csv.DictReader(open(path, encoding="utf-8")))
    tencent = [r for r in rows if r["provider"] == "Tencent Cloud"]
    _convert_tencent(tencent, w)
    for r in rows:
        if r["provider"] == "Tencent Cloud":
            continue
        key = CN_PROVIDERS.get(r["provider"])
        if key is None:
            why = ("an 'as low as' floor from a news article, platform not named: not an offer anyone can rent"
                   if r["provider"].startswith("unattributed") else
                   "priced in platform credits (DCU), not CNY; the CNY cost depends on the pack bought"
                   if "DCU" in r["currency"] else "provider not modelled")
            w.dropped.append(f"{r['provider']} {r['gpu']} {r['price']} {r['currency']}: {why}")
            continue
        if r["gpu"] not in CN_GPUS:
            w.dropped.append(f"{key} '{r['product']}': {r['gpu']} is not a GPU offer (recorded in the provider's notes)")
            continue
        _convert_marketplace(key, r, w)


def _convert_tencent(rows: list[dict], w: Writer) -> None:
    by_key: dict[tuple[str, str], dict[str, dict]] = {}
    for r in rows:
        snapshot = "newer" if TENCENT_NEWER in r["source_url"] else "older" if TENCENT_OLDER in r["source_url"] else None
        if snapshot is None:
            raise SystemExit(f"unknown Tencent snapshot: {r['source_url']}")
        by_key.setdefault((r["instance"], r["billing"]), {})[snapshot] = r
    instances: dict[str, dict] = {}
    unpriced: dict[str, list[str]] = {}
    for (instance, billing), snaps in sorted(by_key.items()):
        spec = snaps.get("newer") or snaps["older"]
        instances.setdefault(instance, spec)
        newer, older = snaps.get("newer"), snaps.get("older")
        ranged = _range(newer["note"]) if newer and not newer["price"] else None
        unit = "CNY/h" if billing == "on_demand" else "CNY/month"
        # A range is never turned into a price: use the newer snapshot's single price, else the older
        # snapshot's own single price for the same instance (a separate, priced row of the source), else none.
        chosen = newer if newer and newer["price"] else older if older and older["price"] else None
        if chosen is None:
            lo, hi = ranged or ("?", "?")
            unpriced.setdefault(instance, []).append(f"{billing} {lo}-{hi} {unit}")
            w.unpriced.append(f"tencent/{instance} {billing}: only a range {lo}-{hi} {unit} in the source")
            continue
        notes = [TENCENT_UNDATED]
        if billing == "on_demand":
            notes.append("on-demand may be tiered (later hours at 50 % / 34 % of the first step): this is the first, highest step")
        else:
            notes.append("monthly list price as given (Tencent's monthly is about 39-66 % of 730 x hourly; never derived)")
        if chosen is older and ranged:
            notes.append(f"from the older snapshot of the page; the newer snapshot lists a range {ranged[0]}-{ranged[1]} {unit} "
                         "(likely by region/zone)")
        ssd = re.search(r"about (\d+) CNY/month including that SSD", chosen["note"])
        excludes = list(TENCENT_EXCLUDES)
        if ssd:
            excludes.append("local_ssd")
            notes.append(f"the instance forces a fixed local SSD, billed on top; the page estimates about {ssd.group(1)} CNY/month including it")
        commit = TENCENT_NEWER[:7] if chosen is newer else TENCENT_OLDER[:7]
        w.price(dict(
            provider="tencent", instance=instance, region=TENCENT_REGION, billing=billing, amount=_num(chosen["price"]),
            currency="CNY", per="hour" if billing == "on_demand" else "month", grade="official", as_of="",
            source=f"Tencent Cloud GPU price overview (价格总览), official docs mirror tencentyun/qcloud-documents @{commit}; per instance",
            source_url=chosen["source_url"], includes="compute", excludes="+".join(excludes), notes="; ".join(notes),
        ))
    for instance, r in instances.items():
        gpu = CN_GPUS[r["gpu"]]
        count = float(r["gpu_count"])
        notes = []
        if count < 1:
            notes.append(f"vGPU slice: {count:g} of a T4 ({r['gpu'].split(', ')[-1].rstrip(')')} of GPU memory)")
        if instance in unpriced:
            notes.append("no single list price: the page lists only a range (" + "; ".join(unpriced[instance])
                         + "), likely by region/zone; price unknown -- check the console / price calculator")
        commit = TENCENT_NEWER[:7] if TENCENT_NEWER in r["source_url"] else TENCENT_OLDER[:7]
        row = dict(
            provider="tencent", instance=instance, region=TENCENT_REGION, china_mainland="true",
            family=instance.split(".")[0], gpu=gpu, gpu_count=_num(r["gpu_count"]), vcpus=_num(r["vcpu"]) or "",
            ram_gib=_num(r["ram_gb"]) or "", source=f"Tencent Cloud GPU price overview (价格总览) @{commit} (instance specs); {r['source_url']}",
            notes="; ".join(notes),
        )
        row.update(_interconnect("tencent", instance, gpu, count))
        existing = w.instances.get(("tencent", instance, TENCENT_REGION))
        if existing:  # listed before from the TI-ONE spec list, unpriced: keep its facts, drop "no price found"
            keep = "; ".join(n for n in existing["notes"].split("; ") if n and "no official price found" not in n
                             and not n.startswith("fits; price unknown"))
            w.merge_instance(row, keep_notes=keep)
            w.corrections.append(f"tencent/{instance}: specs and price from the official price overview")
        else:
            w.instance(row)


def _convert_marketplace(key: str, r: dict, w: Writer) -> None:
    gpu = CN_GPUS[r["gpu"]]
    count = float(r["gpu_count"])
    if count != 1:
        raise SystemExit(f"{key}: marketplace rows are single-GPU listings, got {count}")
    # One GPU only: each source row is ONE listing priced per GPU-hour (the aggregator's cheapest seller of the day,
    # one console screenshot, one article); none says a multi-GPU host exists at that price, so 2x/4x/8x are not invented.
    instance = _cn_key(gpu, count)
    region = AUTODL_REGION if key == "autodl" else "cn-mainland"
    aggregator = "brian8808/gpu-price-index" in r["source_url"]
    price = dict(provider=key, instance=instance, region=region, billing="on_demand", currency="CNY", per="hour",
                 source_url=r["source_url"], grade="third-party" if r["grade"] == "third_party" else "marketplace")
    notes: list[str] = []
    if aggregator:
        price.update(as_of=AGGREGATOR_AS_OF, as_of_precision="approximate", as_of_inferred="true", amount=_num(r["price"]),
                     source="brian8808/gpu-price-index (Hugging Face dataset): an aggregator's daily cheapest per-GPU "
                            "listing across platforms, held by this provider that day; not seen first-hand")
        notes.append("the cheapest listing that day (a floor, one seller), not a typical price")
        tail = r["note"].split("so the snapshot is probably about that date.")[-1].strip()
        if tail:
            notes.append(tail.rstrip("."))
        notes.append("date: undated view, about 2026-10 by our inference (its H100 row matches a dated 2026-10-20 example)")
    elif key == "autodl":
        # The screenshot shows 1.58 CNY/h with 1.66 struck through: 1.66 is the listed price, 1.58 a member/promotion
        # discount that a new user does not get, so the listed price is the one imported.
        m = re.search(r"with ([\d.]+) CNY/hour struck through", r["note"])
        listed = float(m.group(1)) if m else _num(r["price"])
        price.update(amount=listed, as_of=r["source_date"], as_of_precision="day",
                     source="AutoDL console screenshot of a running pay-as-you-go instance (github.com/bestchains/HackTheAI)",
                     includes="compute+system_disk+data_disk", system_disk_gb=25, data_disk_gb=50, excludes="data_disk+bandwidth")
        notes.append(f"listed price; the screenshot shows {r['price']} CNY/h after a discount (member level or promotion)")
        notes.append("25 GB system disk + 50 GB free data disk included; more disk and network billed separately")
        notes.append("prices vary by region/zone and host; a mid-2023 screenshot, a historical anchor")
        if listed != _num(r["price"]):
            w.corrections.append(f"autodl/{instance}: listed {listed} imported, not the discounted {r['price']}")
    else:
        price.update(amount=_num(r["price"]), as_of=r["source_date"], source=f"third-party article ({r['source_url']})")
        notes.append("a price stated in a deployment walkthrough that reads like platform promotion; unverified, undated")
    price["notes"] = "; ".join(notes)
    w.price(price)
    w.instance(dict(
        provider=key, instance=instance, region=region, china_mainland="true", family="", gpu=gpu, gpu_count=1,
        vcpus=_num(r["vcpu"]) or "", ram_gib=_num(r["ram_gb"]) or "", source=price["source"] + f"; {r['source_url']}",
        notes="synthesised id: one GPU, the configuration the source prices (per GPU-hour); host vCPU/RAM "
              + ("from the screenshot" if r["vcpu"] else "not in the source"),
    ))


HEADER = """# Generated by `python -m knowledge.catalog.rebuild_builtin` from shared/data (cloud_gpu_prices.csv,
# cn_cloud_gpu_prices.csv, cn_gpu_prices_sourced.csv); corrections are listed in knowledge/catalog/rebuild_builtin.py.
# Do not edit by hand: put overrides in a file under GPU_ADVISOR_CATALOG_DIR instead.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, required=True, help="the shared/data folder")
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    args = ap.parse_args(argv)
    w = Writer()
    convert_cloud(args.shared / "cloud_gpu_prices.csv", w)
    convert_cn(args.shared / "cn_cloud_gpu_prices.csv", w)
    convert_cn_sourced(args.shared / CN_SOURCED, w)
    w.write(args.out, HEADER)
    if args.out == OUT_DIR:  # keep the source beside the data it produced (tests check every price against it)
        SOURCES_DIR.mkdir(exist_ok=True)
        shutil.copyfile(args.shared / CN_SOURCED, SOURCES_DIR / CN_SOURCED)
    print(f"{len(w.instances)} instances, {len(w.prices)} prices written to {args.out}")
    print(f"dropped {len(w.dropped)}:", *w.dropped, sep="\n  ")
    print(f"corrections {len(w.corrections)}:", *w.corrections, sep="\n  ")
    print(f"left unpriced {len(w.unpriced)}:", *w.unpriced, sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
