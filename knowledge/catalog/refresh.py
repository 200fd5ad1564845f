"""Regenerate instances.csv and prices.csv from the shared reference data.

Developer tool, never imported at run time (the product reads only
``knowledge/catalog/data/``). Run it when ``shared/data`` is refreshed:

    python -m knowledge.catalog.refresh --shared ../shared/data

Every correction of the source rows is made here, in code, with the reason
next to it (see CORRECTIONS and the functions below), so a refresh re-applies
them and a reviewer can audit them in one place. GPUs, models and providers
are curated by hand in the YAML files.
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent / "data"

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
PRICE_COLUMNS = ["provider", "instance", "region", "billing", "amount", "currency", "per", "grade", "as_of", "source", "notes"]


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

    def instance(self, row: dict) -> None:
        key = (row["provider"], row["instance"], row["region"])
        if key in self.instances:
            raise SystemExit(f"duplicate instance {key}")
        self.instances[key] = {c: row.get(c, "") for c in INSTANCE_COLUMNS}

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


HEADER = """# Generated by `python -m knowledge.catalog.refresh` from shared/data (cloud_gpu_prices.csv,
# cn_cloud_gpu_prices.csv); corrections are listed in knowledge/catalog/refresh.py.
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
    w.write(args.out, HEADER)
    print(f"{len(w.instances)} instances, {len(w.prices)} prices written to {args.out}")
    print(f"dropped {len(w.dropped)}:", *w.dropped, sep="\n  ")
    print(f"corrections {len(w.corrections)}:", *w.corrections, sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
