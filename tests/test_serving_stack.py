"""The serving estimate on a software stack its constants were not fitted on says so (issue 11, after round 7).

Every measurement the engine efficiencies were fitted on ran on NVIDIA GPUs under CUDA
(tools/serving_profiles.py `CALIBRATED_STACKS`); the one published ROCm source checked (AMD's MI300X latency table,
tests/data/serving/heldout7_rocm_vllm_dev_docker.yaml) ran slower than estimated on every figure. An estimate on an
AMD GPU therefore carries `CaveatCode.stack_uncalibrated` — last among the caveats, so a surface that shows the first
few keeps the quality and capacity ones — and an estimate on a CUDA GPU does not. Numbers do not change.
"""

from __future__ import annotations

import pytest

from knowledge.catalog import load_catalog
from knowledge.settings import Settings
from tools.domain import SoftwareStack
from tools.errors import InputError
from tools.messages import render
from tools.serving import estimate_serving
from tools.serving_codes import CaveatCode
from tools.serving_types import ServingRequest


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(Settings.load())


def _stack_notes(est):
    return [n for n in est.caveats if n.code == CaveatCode.stack_uncalibrated]


@pytest.mark.parametrize(
    ("model", "gpu", "kw", "expected"),
    [
        # AMD on ROCm under vLLM (round 7's MI300X file): flagged, and the published check ran slower
        ("llama-3.1-70b", "MI300X", {"gpus": 8, "weights": "fp8"}, {"stack": "rocm", "engine": "vllm",
                                                                   "checked_slower": True}),
        # the same stack under SGLang: its constants were fitted on CUDA too, but no published SGLang-on-ROCm figure
        # was checked, so the caveat does not claim one
        ("qwen2.5-7b", "MI300X", {"gpus": 1, "engine": "sglang"}, {"stack": "rocm", "engine": "sglang",
                                                                  "checked_slower": False}),
        # an older AMD part, no catalog software_stack field needed: derived from the vendor
        ("qwen2.5-7b", "MI250X", {"gpus": 1}, {"stack": "rocm", "engine": "vllm", "checked_slower": True}),
        # NVIDIA under CUDA: the fitted stack, no caveat
        ("llama-3.1-70b", "H100", {"gpus": 8, "weights": "fp8"}, None),
        ("qwen2.5-7b", "L4", {"gpus": 1}, None),
        # an uncalibrated engine already says it is a prior (engine_uncalibrated): no second caveat
        ("qwen2.5-7b", "MI300X", {"gpus": 1, "engine": "transformers"}, None),
    ],
)
def test_stack_caveat(catalog, model, gpu, kw, expected):
    est = estimate_serving(catalog.model(model), catalog.gpu(gpu), ServingRequest(**kw), allow_no_fit=True)
    notes = _stack_notes(est)
    if expected is None:
        assert notes == []
        return
    assert len(notes) == 1
    assert notes[0].params == {"gpu": gpu, **expected}
    assert est.caveats[-1] == notes[0]  # last: the first caveats a surface shows stay the quality / capacity ones


def test_stack_caveat_changes_no_number(catalog):
    """The caveat is a statement, not a correction: the MI300X estimate is the one the constants give."""
    req = ServingRequest(gpus=8, weights="fp8")
    est = estimate_serving(catalog.model("llama-3.1-70b"), catalog.gpu("MI300X"), req)
    mi = catalog.gpu("MI300X")
    as_cuda = mi.model_copy(update={"software_stack": SoftwareStack.cuda})
    plain = estimate_serving(catalog.model("llama-3.1-70b"), as_cuda, req)
    assert _stack_notes(plain) == []
    assert (est.tpot_ms, est.ttft_ms, est.output_tok_s, est.kv_cache_gib) == (
        plain.tpot_ms, plain.ttft_ms, plain.output_tok_s, plain.kv_cache_gib)


@pytest.mark.parametrize(
    ("checked_slower", "lang", "phrase"),
    [
        (True, "en", "read these speeds as optimistic"),
        (False, "en", "read these speeds as unvalidated"),
        (True, "zh", "偏乐观"),
        (False, "zh", "未经验证"),
    ],
)
def test_stack_caveat_wording(checked_slower, lang, phrase):
    from tools.notes import Note

    note = Note.of(CaveatCode.stack_uncalibrated, gpu="Ascend-910B", stack="cann", engine="vllm",
                   checked_slower=checked_slower)
    text = render(note, lang)
    assert phrase in text
    assert "CANN" in text and "Ascend-910B" in text


@pytest.mark.parametrize(("gpu", "engine", "error"), [
    ("MI300X", "trtllm", "TensorRT-LLM runs on NVIDIA GPUs \\(CUDA\\) only; MI300X runs ROCm"),  # no ROCm build
    ("H100", "trtllm", None),  # its own stack: estimated
    ("MI300X", "vllm", None),  # vLLM has a ROCm build: estimated, with the caveat above
])
def test_an_engine_without_a_build_for_the_stack_is_a_clear_error(catalog, gpu, engine, error):
    req = ServingRequest(engine=engine, gpus=8 if gpu != "H100" else 1, weights="bf16")
    if error is None:
        assert estimate_serving(catalog.model("llama-3.1-8b"), catalog.gpu(gpu), req).output_tok_s > 0
        return
    with pytest.raises(InputError, match=error) as info:
        estimate_serving(catalog.model("llama-3.1-8b"), catalog.gpu(gpu), req)
    assert "请改用 vLLM 或 SGLang" in render(info.value.note, "zh")
