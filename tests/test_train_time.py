"""Training-time estimator and default MFU against hand-computed values (inline GPUs and models)."""

from __future__ import annotations

import pytest

from tools.domain import GPU, ModelSpec
from tools.errors import InputError
from tools.mfu import default_mfu, gpu_class
from tools.schemas import TrainTimeRequest
from tools.train_time import QLORA_TIME_FACTOR, estimate_train_time, gpus_for_deadline
from tools.messages import render
from tools.notes import Note


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
    assert e.peak_tflops_per_gpu == 312.0 and e.mfu == 0.4 and e.mfu_source == Note.of("mfu.given")
    assert Note.of("time.mfu", mfu=0.4, source=Note.of("mfu.given")) in e.assumptions


@pytest.mark.parametrize(
    "gpu, gpus, expected, code, factor",
    [
        (make_gpu(), 1, 0.47, "mfu.ampere_nvlink", None),  # A100 SXM: LLaMA-1 calibrated median
        (make_gpu(), 2048, 0.47, "mfu.ampere_nvlink", None),  # measured at 2,048 GPUs already
        (make_gpu("H100", "Hopper", "SXM5", 989.4, 989.4), 8, 0.40, "mfu.hopper_nvlink", None),  # Llama 3: 38-43 %
        (make_gpu("V100", "Volta", "SXM2", None, 125.0, bf16_supported=False), 8, 0.30, "mfu.volta_nvlink", None),
        # ×0.8 beyond a node (Megatron-LM)
        (make_gpu("V100", "Volta", "SXM2", None, 125.0, bf16_supported=False), 16, 0.24, "mfu.volta_nvlink",
         ("multi_node_factor", 0.8)),
        (make_gpu("L40S", "Ada Lovelace", "PCIe (dual-slot)", 362, 362), 1, 0.35, "mfu.pcie", None),  # PCIe assumed
        (make_gpu("L40S", "Ada Lovelace", "PCIe (dual-slot)", 362, 362), 2, 0.2975, "mfu.pcie",
         ("multi_gpu_factor", 0.85)),  # × 0.85 multi-GPU
        (make_gpu("RTX-4090", "Ada", "PCIe consumer card", 165, 165, consumer=True), 1, 0.30, "mfu.consumer", None),
        (make_gpu("MI300X", "CDNA 3", "OAM", 1307, 1307, vendor="AMD"), 8, 0.255, "mfu.other", ("multi_gpu_factor", 0.85)),
    ],
)
def test_default_mfu_table(gpu, gpus, expected, code, factor):
    mfu, source = default_mfu(gpu, gpus)
    assert mfu == pytest.approx(expected)
    assert source.code == code
    if factor:
        assert source.params[factor[0]] == factor[1]
    assert not ({"multi_gpu_factor", "multi_node_factor"} & set(source.params)) or factor
    assert render(source, "en") and render(source, "zh")


def test_mfu_sources_carry_their_figures():
    """The figures a source cites are params (so the verifier can back them), rendered with the citation."""
    _, source = default_mfu(make_gpu(), 8)
    assert source.params == {"gpus": 2048, "mfu_low": 0.44, "mfu_high": 0.51, "mfu_median": 0.47}
    assert render(source, "en") == "LLaMA paper Table 15: 2,048 A100-80GB at 44%-51% MFU by `6ND`; median 0.47"  # formulas are code in both languages


def test_gpu_classes():
    assert gpu_class(make_gpu()) == "ampere"
    assert gpu_class(make_gpu("H20", "Hopper", "SXM5 (HGX)", 148, 148)) == "hopper"
    assert gpu_class(make_gpu("A100-PCIe", "Ampere", "PCIe", 312, 312)) == "pcie"


def test_fp16_where_bf16_is_unsupported():
    v100 = make_gpu("V100", "Volta", "SXM2", None, 125.0, bf16_supported=False)
    e = estimate_train_time(make_model(), v100, TrainTimeRequest(tokens=1e9, mfu=0.5))
    assert e.peak_tflops_per_gpu == 125.0
    assert Note.of("time.compute_precision", precision="fp16") in e.assumptions
    assert render(Note.of("time.compute_precision", precision="fp16"), "en") == "compute precision fp16 assumed"


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
    with pytest.raises(InputError, match="No sourced dense bf16 peak for X") as info:
        estimate_train_time(make_model(), no_peak, TrainTimeRequest(tokens=1e9))
    assert info.value.note == Note.of("error.no_peak", precision="bf16", gpu="X", available=["fp32"])


@pytest.mark.parametrize("available, lang, cli, expected", [
    (["fp32"], "en", False, "No sourced dense bf16 peak for X; the catalog has one only for fp32, which can be used instead."),
    (["fp32"], "en", True, "No sourced dense bf16 peak for X; pass --precision fp32."),
    ([], "en", False, "No sourced dense bf16 peak for X nor for any other precision: no time can be estimated on this GPU."),
    (["fp16", "fp32"], "zh", False, "目录中没有 X 的 bf16 稠密峰值算力来源；该卡只有 fp16、fp32 的数据，可以按它估算。"),
    ([], "zh", True, "目录中没有 X 的 bf16 稠密峰值算力来源，也没有其他精度的来源：无法估算这张卡上的时间。"),
])
def test_missing_peak_names_the_precisions_the_card_has(available, lang, cli, expected):
    from tools.messages import render

    code = "error.no_peak.cli" if cli else "error.no_peak"
    assert render(Note.of(code, precision="bf16", gpu="X", available=available), lang) == expected


def test_impossible_deadline():
    with pytest.raises(InputError, match="more than 1,000,000") as info:
        gpus_for_deadline(make_model(1e12), A100, TrainTimeRequest(tokens=1e15), 0.001)
    assert info.value.note.code == "error.deadline_too_many" and info.value.note.params["max_gpus"] == 1_000_000


def test_request_validation():
    with pytest.raises(ValueError, match="greater than 0"):
        TrainTimeRequest(tokens=0)
    with pytest.raises(ValueError, match="less than or equal to 1"):
        TrainTimeRequest(tokens=1e9, mfu=1.5)
