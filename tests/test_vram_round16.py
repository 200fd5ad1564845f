"""Sixteenth formula round of the VRAM estimator (spent data only): Megatron-LM's gradient layout and one-GPU FSDP.

Each expectation is derived from the framework's code, not from a published figure:
* Megatron-LM --bf16 forces `accumulate_allreduce_grads_in_fp32` (megatron/arguments.py at d63c254), so the gradient
  buffer is fp32 and the optimizer's main gradient is that buffer (`main_grad.float()` copies nothing);
* Megatron-LM --fp16 since 4fd6432 (2021-07-09) makes the fp32 main gradients at the step and frees them in
  zero_grad (`VramRequest.main_grads_at_step`): they count only beyond what backward's short-lived tensors held;
* Megatron-LM's local DDP and DeepSpeed's stage-0 engine all-reduce after backward (no bucket at the backward peak);
* FSDP casts and gathers the 16-bit parameters unit by unit on one GPU too (torch FSDP: NO_SHARD at world size 1;
  fairscale: `_cast_fp32_param_shards_to_fp16` per unit): no whole-model autocast copy;
* fairscale's FSDP moves each unit's gradient to the CPU in its post-backward hook (`param.grad.data =
  param._cpu_grad`), as `VramRequest.fsdp_grads_to_cpu_per_unit` states: no gradient staged until backward ends.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tools.domain import GIB
from tools.schemas import VramRequest
from tools.vram import TRANSIENT, estimate_vram
from tools.vram_codes import Component
from tools.vram_shape import model_from_params

MODEL = model_from_params(1.0e9)
N = MODEL.params
MEGATRON = dict(mode="pretrain", master_weights="fp32", autocast=False, flash_attention=False)


def _parts(e) -> dict[str, float]:
    return e.breakdown_gib


def _transient_gib(e) -> float:
    return sum(v for k, v in e.breakdown_gib.items() if Component(k) in TRANSIENT)


@pytest.mark.parametrize(("kw", "grad_bytes", "grad_precision"), [
    # --bf16: one persistent fp32 gradient buffer, which the optimizer reads as its main gradient
    ({"precision": "bf16"}, 4, "fp32"),
    # --fp16: the fp16 gradient buffer (the fp32 main gradients come apart: gradient_partition)
    ({"precision": "fp16"}, 2, "fp16"),
])
def test_megatron_gradient_buffer_dtype(kw, grad_bytes, grad_precision):
    e = estimate_vram(MODEL, VramRequest(**MEGATRON, **kw, batch_size=1, seq_len=256))
    part = next(p for p in e.breakdown if p.component == Component.gradients)
    assert part.gib == pytest.approx(N * grad_bytes / GIB, abs=2e-3)
    assert part.precision == grad_precision
    if kw["precision"] == "bf16":  # no second fp32 gradient beside the buffer
        assert Component.gradient_partition.value not in _parts(e)


@pytest.mark.parametrize(("kw", "expect"), [
    # not stated: the fp32 main gradients are held beside backward (Megatron-LM before 4fd6432): 4 B a parameter
    ({"batch_size": 1, "seq_len": 128, "checkpointing": "full"}, "whole"),
    # stated, small activations (full recomputation, 128 tokens): the step's main gradients exceed what backward freed
    ({"batch_size": 1, "seq_len": 128, "checkpointing": "full", "main_grads_at_step": True}, "excess"),
    # stated, activations far larger than 4 B a parameter: the step never reaches the backward peak
    ({"batch_size": 16, "seq_len": 2048, "checkpointing": "none", "main_grads_at_step": True}, "none"),
])
def test_fp16_main_gradients_count_beyond_backward_only_when_made_at_the_step(kw, expect):
    e = estimate_vram(MODEL, VramRequest(**MEGATRON, precision="fp16", **kw))
    counted = _parts(e).get(Component.gradient_partition.value, 0.0)
    main = N * 4 / GIB
    if expect == "whole":
        assert counted == pytest.approx(main, abs=2e-3)
    elif expect == "excess":
        assert counted == pytest.approx(main - _transient_gib(e), abs=5e-3)
        assert 0 < counted < main
    else:
        assert counted == 0.0
        note = next(n for n in e.assumptions if n.code == "vram.main_grads_at_step")
        assert note.params["counted_gib"] == 0.0


@pytest.mark.parametrize(("kw", "bucket"), [
    # torch DDP over the AMP layout: a gradient-sized bucket copy at the backward peak
    ({"mode": "pretrain", "precision": "bf16"}, True),
    # a 16-bit model (Megatron-LM's local DDP, DeepSpeed stage 0): the all-reduce runs after backward, whose
    # activations (16 x 2048 tokens) exceed the coalesced copy
    ({**MEGATRON, "precision": "fp16"}, False),
    ({**MEGATRON, "precision": "bf16"}, False),
])
def test_no_ddp_bucket_at_the_backward_peak_of_a_16bit_model(kw, bucket):
    e = estimate_vram(MODEL, VramRequest(**kw, gpus=4, sharding="ddp", batch_size=16, seq_len=2048,
                                         checkpointing="none"))
    assert (Component.ddp_buckets.value in _parts(e)) is bucket


def test_one_gpu_fsdp_casts_per_unit_like_many():
    """One-GPU FSDP (fairseq's 13B on one V100) holds no whole-model 16-bit copy and counts the same activations as
    on 8 GPUs."""
    kw = dict(mode="pretrain", precision="fp16", master_weights="fp32", autocast=False, sharding="fsdp",
              offload="cpu", batch_size=2, seq_len=512, checkpointing="full")
    one = estimate_vram(MODEL, VramRequest(gpus=1, **kw))
    eight = estimate_vram(MODEL, VramRequest(gpus=8, **kw))
    assert Component.autocast_copies.value not in _parts(one)
    for c in (Component.activations_checkpointed, Component.activations_recomputed, Component.logits):
        assert _parts(one).get(c.value) == pytest.approx(_parts(eight).get(c.value), abs=1e-3), c


@pytest.mark.parametrize(("gpus", "per_unit", "staged"), [
    (1, False, True),  # torch FSDP: the gradient waits on the GPU until backward ends
    (1, True, False),  # fairscale: moved to the CPU per unit
    (8, True, False),
])
def test_fairscale_moves_gradients_to_the_cpu_per_unit(gpus, per_unit, staged):
    e = estimate_vram(MODEL, VramRequest(mode="pretrain", precision="fp16", master_weights="fp32", autocast=False,
                                         sharding="fsdp", offload="cpu", gpus=gpus, batch_size=1, seq_len=256,
                                         fsdp_grads_to_cpu_per_unit=per_unit))
    held = _parts(e).get(Component.grad_shards_staged.value, 0.0) + e.reclaimable_gib
    assert (held > 0) is staged


@pytest.mark.parametrize("kw", [
    # the fp16 layout only: bf16's main gradient is the fp32 buffer itself
    dict(MEGATRON, precision="bf16", main_grads_at_step=True),
    # not a 16-bit model with fp32 masters inside the optimizer (autocast decides the AMP layout)
    dict(mode="pretrain", precision="fp16", main_grads_at_step=True),
    # FSDP's per-unit gradient move needs FSDP with CPU offload
    dict(mode="pretrain", sharding="fsdp", gpus=2, fsdp_grads_to_cpu_per_unit=True),
    dict(mode="pretrain", sharding="zero3", gpus=2, offload="cpu", fsdp_grads_to_cpu_per_unit=True),
])
def test_the_new_fields_refuse_the_settings_they_do_not_qualify(kw):
    with pytest.raises(ValidationError, match="(main_grads_at_step|fsdp_grads_to_cpu_per_unit) only applies with"):
        VramRequest(**kw)


def _profiled(inference_bytes: float | None):
    from tools.domain import ActivationProfile, ModelKind, ModelSpec

    profile = ActivationProfile(bytes_per_sample=10 * GIB, reference="training, fp32", source="test",
                                inference_bytes_per_sample=inference_bytes, inference_reference="eval, fp32")
    return ModelSpec(key="toy-audio", name="toy", family="whisper", kind=ModelKind.speech, params=1.0e9, source="test",
                     activation_profile=profile)


@pytest.mark.parametrize(("inference_bytes", "precision", "batch", "component", "gib"), [
    # measured eval-mode working set, fp32: taken as measured
    (0.5 * GIB, "fp32", 1, Component.working_set, 0.5),
    # 16-bit inference: every tensor at 2 B, half the fp32 measurement; per sample
    (0.5 * GIB, "fp16", 4, Component.working_set, 1.0),
    # no inference measurement: the training profile, as before
    (None, "fp16", 1, Component.activations, 10.0),
])
def test_inference_of_a_profiled_model_uses_its_eval_mode_working_set(inference_bytes, precision, batch, component,
                                                                      gib):
    e = estimate_vram(_profiled(inference_bytes), VramRequest(mode="inference", precision=precision, batch_size=batch))
    assert _parts(e)[component.value] == pytest.approx(gib, abs=1e-3)
