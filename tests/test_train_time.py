"""Training-time estimator and default MFU against hand-computed values (inline GPUs and models)."""

from __future__ import annotations

import pytest

from tools.domain import GPU, ModelSpec
from tools.errors import InputError
from tools.mfu import default_mfu, gpu_class
from tools.schemas import TrainTimeRequest
from tools.train_time import QLORA_TIME_FACTOR, estimate_train_time, gpus_for_deadline


def make_gpu(key="A100-80GB", arch="Ampere", form="SXM4", bf16=312.0, fp16=312.0, vendor="NVIDIA",
             consumer=False, bf16_supported=True) -> GPU:
    return GPU(key=key, name=key, vendor=vendor, architecture=arch, form_factor=form, memory_gb=80,
               usable_memory_gib=79.3, bf16_tflops=bf16, fp16_tflops=fp16, fp32_tflops=19.5, tf32_tflops=156,
               bf16_supported=bf16_supported, fp8_supported=False, nvlink="SXM" in form, consumer=consumer,
               source="inline")


def make_model(params=1e9, active=None) -> ModelSpec:
    return ModelSpec(key="m", name="m", family="t", params=params, active_params=active, source="inline")


A100 = make_gpu()
# 6·N·D with N = D = 1e9 on one A100 (312 TFLOPS) at MFU 0.5:
# 6e18 / (312e12 × 0.5) = 38,461.54 s = 10.6838 h
BASE_HOURS = 6e18 / (312e12 * 0.5) / 3600


@pytest.mark.parametrize(
    "request_kwargs, model, factor",
    [
        ({}, make_model(), 1.0),  # full fine-tune: 6·N·D
        ({"mode": "pretrain"}, make_model(), 1.0),
        ({"checkpointing": "full"}, make_model(), 8 / 6),  # recomputed forward: 8·N·D
        ({"mode": "lora"}, make_model(), 4 / 6),  # no weight gradients for frozen weights: 4·N·D
        ({"mode": "lora", "checkpointing": "full"}, make_model(), 6 / 6),  # 4·N·D + 2·N·D recompute
        ({"mode": "qlora"}, make_model(), 4 / 6 * QLORA_TIME_FACTOR),  # + dequantisation
        ({"epochs": 3}, make_model(), 3.0),  # tokens × epochs
        ({}, make_model(params=8e9, active=1e9), 1.0),  # MoE: active params count
        ({"gpus": 4}, make_model(), 1 / 4),  # wall clock splits over GPUs (NVLink class: same MFU)
    ],
)
def test_hours_by_hand(request_kwargs, model, factor):
    req = TrainTimeRequest(tokens=1e9, mfu=0.5, **request_kwargs)
    e = estimate_train_time(model, A100, req)
    assert e.hours == pytest.approx(BASE_HOURS * factor, rel=1e-9)
    assert e.days == pytest.approx(e.hours / 24)
    assert e.gpu_hours == pytest.approx(e.hours * req.gpus)


def test_flops_field():
    e = estimate_train_time(make_model(7e9), A100, TrainTimeRequest(tokens=1e12, mfu=0.4))
    assert e.flops == pytest.approx(6 * 7e9 * 1e12)
    assert e.peak_tflops_per_gpu == 312.0 and e.mfu == 0.4 and e.mfu_source == "given (--mfu)"


@pytest.mark.parametrize(
    "gpu, gpus, expected",
    [
        (make_gpu(), 1, 0.47),  # A100 SXM: LLaMA-1 calibrated median
        (make_gpu(), 2048, 0.47),  # measured at 2,048 GPUs already
        (make_gpu("H100", "Hopper", "SXM5", 989.4, 989.4), 8, 0.40),  # Llama 3 paper 38-43 %
        (make_gpu("V100", "Volta", "SXM2", None, 125.0, bf16_supported=False), 8, 0.30),  # Megatron-LM
        (make_gpu("V100", "Volta", "SXM2", None, 125.0, bf16_supported=False), 16, 0.24),  # ×0.8 beyond a node
        (make_gpu("L40S", "Ada Lovelace", "PCIe (dual-slot)", 362, 362), 1, 0.35),  # PCIe assumed
        (make_gpu("L40S", "Ada Lovelace", "PCIe (dual-slot)", 362, 362), 2, 0.2975),  # × 0.85 multi-GPU
        (make_gpu("RTX-4090", "Ada", "PCIe consumer card", 165, 165, consumer=True), 1, 0.30),
        (make_gpu("MI300X", "CDNA 3", "OAM", 1307, 1307, vendor="AMD"), 8, 0.255),
    ],
)
def test_default_mfu_table(gpu, gpus, expected):
    mfu, source = default_mfu(gpu, gpus)
    assert mfu == pytest.approx(expected)
    assert source


def test_gpu_classes():
    assert gpu_class(make_gpu()) == "ampere"
    assert gpu_class(make_gpu("H20", "Hopper", "SXM5 (HGX)", 148, 148)) == "hopper"
    assert gpu_class(make_gpu("A100-PCIe", "Ampere", "PCIe", 312, 312)) == "pcie"


def test_fp16_where_bf16_is_unsupported():
    v100 = make_gpu("V100", "Volta", "SXM2", None, 125.0, bf16_supported=False)
    e = estimate_train_time(make_model(), v100, TrainTimeRequest(tokens=1e9, mfu=0.5))
    assert e.peak_tflops_per_gpu == 125.0
    assert "compute precision fp16 assumed" in e.assumptions


def test_gpus_for_deadline_by_hand():
    # 6e18 FLOPs at 312e12 × 0.5 per GPU = 10.68 GPU-hours → 2 h needs ceil(5.34) = 6 GPUs
    req = TrainTimeRequest(tokens=1e9, mfu=0.5, deadline_hours=2)
    assert gpus_for_deadline(make_model(), A100, req) == 6
    e = estimate_train_time(make_model(), A100, req)
    assert e.gpus_for_deadline == 6


def test_gpus_for_deadline_accounts_for_mfu_drop_on_pcie():
    pcie = make_gpu("L40S", "Ada Lovelace", "PCIe", 362, 362)
    # one GPU at 0.35: 6e18/(362e12·0.35)/3600 = 13.15 h; with 2+ GPUs MFU 0.2975 → 15.48 GPU-h → 4 h needs 4
    assert gpus_for_deadline(make_model(), pcie, TrainTimeRequest(tokens=1e9), 4.0) == 4


def test_missing_peak_is_an_input_error():
    no_peak = make_gpu("X", bf16=None, fp16=None)
    with pytest.raises(InputError, match="No sourced dense bf16 peak for X"):
        estimate_train_time(make_model(), no_peak, TrainTimeRequest(tokens=1e9))


def test_impossible_deadline():
    with pytest.raises(InputError, match="more than 1,000,000"):
        gpus_for_deadline(make_model(1e12), A100, TrainTimeRequest(tokens=1e15), 0.001)


def test_request_validation():
    with pytest.raises(ValueError, match="greater than 0"):
        TrainTimeRequest(tokens=0)
    with pytest.raises(ValueError, match="less than or equal to 1"):
        TrainTimeRequest(tokens=1e9, mfu=1.5)
