"""How a GPU count is used when the user's hardware is checked (tools/fit.py): plain data parallel where a full copy
of the training job fits each GPU (sized as the recommender sizes such a box), ZeRO-3 only where it does not, tensor
parallel for inference, and a sharding the user named kept. Real catalog and estimator."""

from __future__ import annotations

import pytest

from knowledge.catalog import load_catalog
from knowledge.settings import Settings
from tools.domain import Mode, Sharding
from tools.fit import fit_report, target_for_gpu
from tools.recommend_memory import MemoryPlanner
from tools.schemas import VramRequest


@pytest.fixture(scope="module")
def cat():
    return load_catalog(Settings.load())


@pytest.mark.parametrize("model, gpu, count, request_fields, layout", [
    ("llama-3-8b", "H100", 8, dict(mode=Mode.lora), "ddp"),  # 22 GiB of 80: a copy per GPU
    ("llama-3-8b", "A100-40GB", 8, dict(mode=Mode.full), "zero3"),  # full fine-tune: no copy fits 40 GB
    ("llama-3-8b", "H100", 8, dict(mode=Mode.lora, sharding=Sharding.fsdp), "fsdp"),  # named: kept
    ("qwen2.5-72b", "H100", 4, dict(mode=Mode.inference), "tp"),
    ("llama-3-8b", "H100", 1, dict(mode=Mode.lora), "none"),
])
def test_the_layout_a_count_is_checked_with(cat, model, gpu, count, request_fields, layout):
    m = cat.model(model)
    report = fit_report(m, VramRequest(**request_fields), [target_for_gpu(cat.gpu(gpu), count)])
    fit = report.targets[0]
    assert fit.layout == layout
    if layout == "ddp":  # the single-GPU figure, the one the recommender shows for the same box
        assert fit.per_gpu_gib == pytest.approx(report.estimate.per_gpu_gib)
        planner = MemoryPlanner(m, VramRequest(**request_fields), None)
        assert planner.for_gpus(count, count, cat.gpu(gpu).usable_memory_gib).per_gpu_gib == pytest.approx(fit.per_gpu_gib)
