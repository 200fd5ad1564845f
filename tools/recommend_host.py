"""Host, interconnect and region checks the recommender applies to an instance.

Thresholds are the seed guidance (shared/seeds, "每张高端GPU 配套 ≥ 16核CPU + ≥ 64GB 内存"):
≥ 16 vCPU and ≥ 64 GB RAM per high-end GPU. "High-end" = 40 GB or more memory
as sold (A100, H100/H800/H20, H200, L40S/L40/L20, A6000, MI300X …): the cards
whose data loaders and checkpoint saves starve a smaller host. A host below
half the guidance is rejected as thin; below the guidance it is marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.domain import GB, GIB, GPU, Instance, RegionScope
from tools.notes import Note
from tools.recommend_codes import RecommendCode

CPUS_PER_HIGH_END_GPU = 16  # seed guidance
RAM_GB_PER_HIGH_END_GPU = 64  # seed guidance, decimal GB as the seed writes it
HIGH_END_MEMORY_GB = 40  # memory as sold
SEVERE_FRACTION = 0.5  # below half the guidance a host is rejected, not just marked
RDMA_CLASS_GBPS = 200  # a network this fast is RDMA-class (EFA, GPUDirect-TCPX, RoCE) when the catalog has no IB flag


@dataclass(frozen=True)
class HostCheck:
    thin: bool  # below the guidance: marked
    severe: bool  # below half of it: rejected
    note: Note | None  # why, with the numbers (host.thin)


def check_host(instance: Instance, gpu: GPU) -> HostCheck:
    """Compare vCPU and RAM per GPU with the seed guidance (only for high-end GPUs)."""
    if gpu.memory_gb < HIGH_END_MEMORY_GB or instance.gpu_count < 1:
        return HostCheck(False, False, None)
    per_gpu_cpus = instance.vcpus / instance.gpu_count if instance.vcpus else None
    per_gpu_ram_gb = instance.ram_gib * GIB / GB / instance.gpu_count if instance.ram_gib else None
    thin_cpu = per_gpu_cpus is not None and per_gpu_cpus < CPUS_PER_HIGH_END_GPU
    thin_ram = per_gpu_ram_gb is not None and per_gpu_ram_gb < RAM_GB_PER_HIGH_END_GPU
    if not (thin_cpu or thin_ram):
        return HostCheck(False, False, None)
    severe = (thin_cpu and per_gpu_cpus < CPUS_PER_HIGH_END_GPU * SEVERE_FRACTION) or (
        thin_ram and per_gpu_ram_gb < RAM_GB_PER_HIGH_END_GPU * SEVERE_FRACTION
    )
    note = Note.of(
        RecommendCode.host_thin,
        vcpu_per_gpu=per_gpu_cpus if thin_cpu else None,
        ram_gb_per_gpu=round(per_gpu_ram_gb, 1) if thin_ram else None,
        min_vcpu=CPUS_PER_HIGH_END_GPU,
        min_ram_gb=RAM_GB_PER_HIGH_END_GPU,
    )
    return HostCheck(True, bool(severe), note)


def has_nvlink(instance: Instance, gpu: GPU) -> bool:
    """NVLink/NVSwitch inside the machine: the instance's flag, else the GPU model's."""
    return bool(instance.nvlink if instance.nvlink is not None else gpu.nvlink) and instance.gpu_count > 1


def interconnect(instance: Instance, gpu: GPU) -> Note:
    """NVLink or PCIe between the machine's GPUs (None: one GPU), and InfiniBand or the network speed between machines."""
    linked = ("nvlink" if has_nvlink(instance, gpu) else "pcie") if instance.gpu_count > 1 else None
    return Note.of(
        RecommendCode.interconnect, gpus_linked=linked, infiniband=bool(instance.infiniband),
        network_gbps=None if instance.infiniband else instance.network_gbps,
    )


def rdma_class(instance: Instance) -> bool:
    """Networking good enough to shard one job across nodes."""
    return bool(instance.infiniband) or (instance.network_gbps or 0) >= RDMA_CLASS_GBPS


def in_region(instance: Instance, region: RegionScope) -> bool:
    if region == RegionScope.cn:
        return instance.region.china_mainland
    if region == RegionScope.intl:
        return not instance.region.china_mainland
    return True
