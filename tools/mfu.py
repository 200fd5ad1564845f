"""Default model-FLOPs utilisation (MFU) by GPU class and scale, with sources.

MFU here is *model* FLOPs (6·N per token, attention excluded) over the dense
peak of the compute precision — the convention the published figures below
use, so time = 6·N·D / (GPUs × peak × MFU) reproduces them.

Published anchors (6·N·D / (GPU-hours × 3600 × dense BF16 peak)):
* LLaMA (Touvron et al. 2023, arXiv:2302.13971, Table 15; 2,048 A100-80GB):
  7B 0.44, 13B 0.51, 33B 0.46, 65B 0.48 — the Ampere NVLink default 0.47 is
  their median, checked on the held-out Llama 2 rows
  (benchmarks/accuracy.md).
* Llama 3 (Dubey et al. 2024, arXiv:2407.21783, Table 4; 8k-16k H100):
  38-43 % BF16 MFU → Hopper/Blackwell NVLink default 0.40.
* Megatron-LM (Shoeybi et al. 2019, arXiv:1909.08053 §5.1; V100): one GPU
  sustains 39 TFLOPs = 30 % of peak → Volta 0.30.
PCIe-only, workstation and consumer cards have no comparable published table:
their defaults are assumptions (lower, because gradient all-reduce crosses
PCIe instead of NVLink) and are labelled as such. Always overridable (--mfu).
"""

from __future__ import annotations

from tools.domain import GPU
from tools.notes import Note, NoteCode


class MfuCode(NoteCode):
    """Where an MFU figure comes from (rendered with its citation by tools/messages/train_time.py)."""

    given = "mfu.given"  # the user gave it
    ampere_nvlink = "mfu.ampere_nvlink"  # LLaMA paper Table 15
    hopper_nvlink = "mfu.hopper_nvlink"  # Llama 3 paper Table 4
    volta_nvlink = "mfu.volta_nvlink"  # Megatron-LM; param multi_node_factor when beyond one node
    pcie = "mfu.pcie"  # assumed; param multi_gpu_factor when several GPUs
    consumer = "mfu.consumer"  # assumed; multi_gpu_factor
    other = "mfu.other"  # assumed; multi_gpu_factor


# (mfu, source, the source's own figures) per class; the figures travel as the note's params
AMPERE_NVLINK = (0.47, MfuCode.ampere_nvlink,  # LLaMA paper Table 15: 2,048 A100-80GB at 44-51 % MFU by 6ND; median 0.47
                 {"gpus": 2048, "mfu_low": 0.44, "mfu_high": 0.51, "mfu_median": 0.47})
HOPPER_NVLINK = (0.40, MfuCode.hopper_nvlink,  # Llama 3 paper Table 4: 38-43 % BF16 MFU on 8,192-16,384 H100
                 {"gpus_min": 8192, "gpus_max": 16384, "mfu_low": 0.38, "mfu_high": 0.43})
VOLTA_NVLINK = (0.30, MfuCode.volta_nvlink,  # Megatron-LM (Shoeybi et al. 2019): 39 TFLOPs per V100 = 30 % of peak
                {"sustained_tflops": 39, "mfu_measured": 0.30})
PCIE_DATACENTER = (0.35, MfuCode.pcie,  # assumed: no published MFU table for PCIe/workstation GPUs; ~20 % below NVLink
                   {"below_nvlink_fraction": 0.20})
CONSUMER = (0.30, MfuCode.consumer, {})  # assumed: no NVLink, smaller caches, power-limited clocks
OTHER_ACCELERATOR = (0.30, MfuCode.other, {})  # assumed: non-NVIDIA accelerator, less mature training software stack
VOLTA_MULTI_NODE_FACTOR = 0.8  # Megatron-LM: 76 % weak-scaling efficiency at 512 V100
VOLTA_SCALING = {"scaling_efficiency_fraction": 0.76, "scaling_gpus": 512}

# More than one node adds inter-node all-reduce; the NVLink-class anchors were
# measured on thousands of GPUs already, so the factor applies to the others only.
PCIE_MULTI_GPU_FACTOR = 0.85  # assumed: all-reduce over PCIe/Ethernet costs ~15 %
SINGLE_NODE_GPUS = 8


def gpu_class(gpu: GPU) -> str:
    arch = gpu.architecture.lower()
    form = gpu.form_factor.lower()
    if gpu.vendor.lower() != "nvidia":
        return "other"
    if gpu.consumer or "consumer" in form:
        return "consumer"
    nvlink_class = any(t in form for t in ("sxm", "hgx", "superchip", "oam"))
    if not nvlink_class:
        return "pcie"
    if "volta" in arch:
        return "volta"
    if "ampere" in arch:
        return "ampere"
    return "hopper"  # Hopper, Blackwell and later NVLink parts


def default_mfu(gpu: GPU, gpus: int = 1) -> tuple[float, Note]:
    """Default MFU for `gpus` of `gpu`, and where the figure comes from (an `MfuCode` note)."""
    cls = gpu_class(gpu)
    mfu, code, figures = {
        "ampere": AMPERE_NVLINK,
        "hopper": HOPPER_NVLINK,
        "volta": VOLTA_NVLINK,
        "pcie": PCIE_DATACENTER,
        "consumer": CONSUMER,
        "other": OTHER_ACCELERATOR,
    }[cls]
    params: dict = dict(figures)
    if cls in ("pcie", "consumer", "other") and gpus > 1:
        mfu *= PCIE_MULTI_GPU_FACTOR
        params["multi_gpu_factor"] = PCIE_MULTI_GPU_FACTOR
    elif cls == "volta" and gpus > SINGLE_NODE_GPUS:
        mfu *= VOLTA_MULTI_NODE_FACTOR
        params.update(multi_node_factor=VOLTA_MULTI_NODE_FACTOR, **VOLTA_SCALING)
    return round(mfu, 4), Note.of(code, **params)
