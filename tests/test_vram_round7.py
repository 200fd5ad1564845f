"""Seventh formula round of the VRAM estimator (issue 11): torch FSDP's CPU offload keeps every unit's reduce-scattered
gradient shard on the GPU until backward ends, allocated on FSDP's post-backward stream.

Each expectation is derived from the framework's code (torch/distributed/fsdp/_runtime_utils.py `_reduce_grad`,
`_accumulate_sharded_grad`, `_offload_grad`; _flat_param.py `prepare_gradient_for_optim`; the caching allocator's
per-stream pools), not from a published figure. PEFT's fp32 LM head after k-bit preparation, the round's other change,
is tested in tests/test_vram_round6.py (test_the_lm_head_left_in_fp32_by_kbit_preparation_makes_fp32_logits)."""

from __future__ import annotations

import pytest

from tools.domain import GIB
from tools.schemas import VramRequest
from tools.vram import ALLOCATOR_SLACK, SHARDED_TRANSIENT_SLACK, TRANSIENT, estimate_vram
from tools.vram_codes import Component
from tools.vram_shape import lora_trainable_params, model_from_params

MODEL = model_from_params(1.0e9)
N = MODEL.params
OFFLOAD = dict(gpus=2, sharding="fsdp", offload="cpu", batch_size=1, checkpointing="full")


def _estimate(**kw):
    return estimate_vram(MODEL, VramRequest(**{**OFFLOAD, **kw}))


def _staged_gib(e) -> float:
    """The live part (in the breakdown and per_gpu_gib) and the stream's pool (reclaimable, beside them)."""
    return e.breakdown_gib.get(Component.grad_shards_staged.value, 0.0) + e.reclaimable_gib


@pytest.mark.parametrize(("kw", "bytes_per_param"), [
    # fp32 training without a MixedPrecision policy: the shard is cast back to the fp32 flat parameter's dtype
    ({"mode": "pretrain", "precision": "fp32"}, 4),
    # FSDP mixed precision over fp32 flat parameters (HF/accelerate's layout): reduced in 16-bit, cast back to fp32
    ({"mode": "full", "precision": "bf16"}, 4),
    # bf16 weights, no master copy (universal-llm-trainer, Lambda's 405B guide): the shard stays 2 B
    ({"mode": "full", "precision": "bf16", "master_weights": "none"}, 2),
])
def test_the_whole_gradient_shard_is_on_the_gpu_at_the_end_of_backward(kw, bytes_per_param):
    e = _estimate(seq_len=128, **kw)
    assert _staged_gib(e) == pytest.approx(N * bytes_per_param / 2 / GIB, abs=2e-3)
    note = next(n for n in e.assumptions if n.code == "vram.offload_grad_staging")
    assert note.params["staged_gib"] == pytest.approx(N * bytes_per_param / 2 / GIB, abs=1e-3)


def test_lora_stages_only_the_adapters_gradient_shard():
    e = _estimate(mode="lora", precision="bf16", lora_rank=16, lora_targets="all-linear", seq_len=128)
    trainable = lora_trainable_params(MODEL, 16, "all-linear")
    assert _staged_gib(e) == pytest.approx(trainable * 4 / 2 / GIB, abs=2e-3)  # PEFT's fp32 adapters


@pytest.mark.parametrize(("seq_len", "live_share"), [
    (128, "some"),   # short samples: the loss's moment holds less than the shards and the root unit at the end
    (8192, "none"),  # long samples: the checkpointed inputs outweigh them; the shards only keep their stream's pool
])
def test_the_shards_count_live_only_beyond_what_the_loss_moment_holds(seq_len, live_share):
    e = _estimate(mode="pretrain", precision="fp32", seq_len=seq_len)
    b = e.breakdown_gib
    transient = sum(v for k, v in b.items() if Component(k) in TRANSIENT)
    staged = _staged_gib(e)
    live = b.get(Component.grad_shards_staged.value, 0.0)
    # the root unit is whole until backward ends: it is live beside the shards
    assert live == pytest.approx(max(0.0, min(staged, staged + b[Component.gathered_embeddings.value] - transient)),
                                 abs=2e-3)
    assert e.reclaimable_gib == pytest.approx(staged - live, abs=2e-3)
    assert e.per_gpu_gib == pytest.approx(sum(b.values()), abs=5e-3)  # reserve given back: not in what the job needs
    assert (0 < live < staged) if live_share == "some" else live == 0.0


def test_the_pool_is_reserve_so_the_slack_is_not_counted_on_it():
    e = _estimate(mode="full", precision="bf16", master_weights="none", seq_len=8192)
    b = e.breakdown_gib
    assert e.reclaimable_gib > 0
    assert e.per_gpu_gib == pytest.approx(sum(b.values()), abs=5e-3)  # the pool is beside per_gpu_gib, not in it
    tensors = sum(v for k, v in b.items() if k not in ("fragmentation", "cuda_context"))
    transient = sum(v for k, v in b.items() if Component(k) in TRANSIENT)
    assert b["fragmentation"] == pytest.approx(ALLOCATOR_SLACK * tensors + SHARDED_TRANSIENT_SLACK * transient,
                                               abs=3e-3)


@pytest.mark.parametrize("kw", [
    {"offload": "none"},                   # FSDP without offload: the shards are the gradients, counted as such
    {"sharding": "zero3"},                 # DeepSpeed's offload moves its own gradient partitions
    {"sharding": "zero2"},
])
def test_only_fsdp_with_cpu_offload_stages_the_shards(kw):
    e = _estimate(mode="full", precision="bf16", seq_len=128, **kw)
    assert _staged_gib(e) == 0.0
    assert all(n.code != "vram.offload_grad_staging" for n in e.assumptions)


def test_a_card_short_only_by_the_reclaimable_pool_still_fits():
    """The caching allocator releases its cached blocks and retries when a cudaMalloc fails, so the pool never makes a
    job not fit: the fit check compares per_gpu_gib alone (Lambda's 405B run filled 80 GB cards and ran)."""
    from tools.domain import GPU

    e = _estimate(mode="full", precision="bf16", master_weights="none", seq_len=8192)
    card = GPU(key="X", name="X", vendor="NVIDIA", architecture="Hopper", form_factor="SXM5", memory_gb=80,
               usable_memory_gib=round(e.per_gpu_gib + e.reclaimable_gib / 2, 3), bf16_tflops=989, fp16_tflops=989,
               fp32_tflops=67, bf16_supported=True, fp8_supported=True, nvlink=True, source="inline")
    again = estimate_vram(MODEL, VramRequest(**{**OFFLOAD, "mode": "full", "precision": "bf16", "master_weights": "none",
                                                "seq_len": 8192}), [card])
    assert again.fits == {"X": True}
