"""vLLM async scheduling (`--async-scheduling`, default on from vLLM 0.14) in the serving estimator (issue 11, round 9).

The mechanism (tools/serving_profiles.py `EngineScheduling.async_scheduling`, `vllm_async_scheduling`;
tools/serving_perf.py `step_time`): the engine core prepares step n + 1 while the GPU runs step n, so the per-sequence
CPU time of a decode step is hidden under the GPU's work — step = max(GPU work, CPU work) instead of their sum. vLLM's
v0.14.0 default excludes pipeline parallelism; only the V1 engine has it. Not stated: not applied.
Real catalog, real estimator, real data files; no mocks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from assistant.lc_tools import ServingArgs, ToolBox
from assistant.resources import Resources
from knowledge.settings import Settings
from tools.recommend_serving import ServingPlanner
from tools.schemas import ServingLoad
from tools.serving import estimate_serving, layouts
from tools.serving_perf import make_plan, step_time
from tools.serving_profiles import PROFILES, Engine, EngineScheduling, VllmEngine, WeightFormat, vllm_async_scheduling
from tools.serving_types import Load, LoadKind, ServingRequest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.mark.parametrize("version, expected", [
    ("0.18.0", True),  # round 8's Max-Q sweep: after the v0.14.0 default
    ("v0.14.0", True),  # the release that turned it on (PR #27614)
    ("0.13.0", False),  # the last release with it off by default
    ("0.8.5.post1", False),  # early V1 engine: the flag did not exist yet
    ("v0.7.1 (V0 engine, as the log prints it)", False),  # V0 has no async scheduling
    ("0.18 (V0 engine)", False),  # the text's engine overrides the release's default
    ("v0.23.0 (V1 engine)", True),  # wmx.dev's L4 sweep (calibration)
    ("0.27.1 (the version the post's troubleshooting section installs)", True),  # round 4's A10G sweep
    ("not stated", None),  # no release named: not applied
    ("main, 2024", None),  # a branch, not a release
])
def test_the_release_default(version, expected):
    assert vllm_async_scheduling(version) is expected


@pytest.mark.parametrize("stated, engine, vllm_engine, pp, expected", [
    (True, Engine.vllm, VllmEngine.v1, 1, True),  # the one case that overlaps
    (True, Engine.vllm, VllmEngine.v1, 2, False),  # pipeline parallel: vLLM leaves it off
    (True, Engine.vllm, VllmEngine.v0, 1, False),  # V0 engine: no such scheduler
    (True, Engine.sglang, None, 1, False),  # another engine: its own overlap scheduler is in its fitted constants
    (False, Engine.vllm, VllmEngine.v1, 1, False),  # --no-async-scheduling
    (None, Engine.vllm, VllmEngine.v1, 1, False),  # not stated: the fitted constants as they are
])
def test_which_deployments_overlap(stated, engine, vllm_engine, pp, expected):
    assert EngineScheduling(async_scheduling=stated).overlaps_cpu(engine, vllm_engine, pp) is expected


def _plan(cat, scheduling: EngineScheduling, pp: int = 1, gpus: int = 1):
    model, gpu = cat.model("llama-3.1-8b"), cat.gpu("H100")
    req = ServingRequest(engine=Engine.vllm, gpus=gpus, pp=pp, input_len=256, output_len=256, vllm_engine="v1",
                         load=Load(kind=LoadKind.concurrency, value=128))
    lay = next(lay for lay in layouts(model, gpus, req) if lay.pp == pp and lay.tp == gpus // pp)
    return make_plan(model, gpu, req, lay, 256, 256, scheduling)


@pytest.mark.parametrize("batch", [1, 16, 128, 1024])
def test_the_step_is_the_larger_of_gpu_and_cpu_work(cat, batch):
    """Async: step = max(GPU work, batch × seq_overhead_us); sync: their sum. Weight, KV and compute terms unchanged."""
    sync = step_time(_plan(cat, EngineScheduling()), batch, 384)
    over = step_time(_plan(cat, EngineScheduling(async_scheduling=True)), batch, 384)
    cpu_ms = batch * PROFILES[Engine.vllm].seq_overhead_us / 1e3
    gpu_ms = sync.step_ms - cpu_ms
    assert over.step_ms == pytest.approx(max(gpu_ms, cpu_ms))
    assert over.step_ms < sync.step_ms
    assert (over.weights_ms, over.kv_ms, over.compute_ms) == (sync.weights_ms, sync.kv_ms, sync.compute_ms)
    assert over.overhead_ms == pytest.approx(over.step_ms - max(over.weights_ms + over.kv_ms, over.compute_ms or 0.0))


def test_pipeline_parallel_keeps_the_sum(cat):
    """vLLM's default excludes PP: a stated async flag on a PP layout changes nothing."""
    sync = step_time(_plan(cat, EngineScheduling(), pp=2, gpus=2), 64, 384)
    over = step_time(_plan(cat, EngineScheduling(async_scheduling=True), pp=2, gpus=2), 64, 384)
    assert over.step_ms == sync.step_ms


def test_the_estimate_follows_the_step(cat):
    """At 128 users the decode step shrinks, so TPOT falls and throughput rises; one user moves by 0.1 ms at most."""
    model, gpu = cat.model("llama-3.1-8b"), cat.gpu("H100")

    def est(users: int, stated: bool | None):
        req = ServingRequest(engine=Engine.vllm, gpus=1, input_len=256, output_len=256, vllm_engine="v1",
                             load=Load(kind=LoadKind.concurrency, value=users))
        return estimate_serving(model, gpu, req, scheduling=EngineScheduling(async_scheduling=stated))

    assert est(128, True).tpot_ms < est(128, None).tpot_ms
    assert est(128, True).output_tok_s > est(128, None).output_tok_s
    assert est(1, True).tpot_ms == pytest.approx(est(1, None).tpot_ms, abs=0.1)


def test_the_flag_is_a_bool():
    with pytest.raises(ValidationError, match="async_scheduling"):
        EngineScheduling(async_scheduling="sometimes")


@pytest.mark.parametrize("case_id, expected", [
    ("wayne-sm120-vllm018-llama31-8b-bf16-c128-fixed256", True),  # vLLM 0.18: the release default
    ("ddiiwoong-adv-q25-14b-2xa10g-pp2-c32", True),  # stated on by the release; the plan drops it under PP
    ("vllm15815-q25-32b-2xl40s-tp2-10k", False),  # V0 0.7.1
    ("ddiiwoong-quant-q25-7b-bf16-l40s-c100", False),  # 0.8.5.post1: before the default
])
def test_the_benchmark_reads_the_release(case_id, expected):
    case = next(c for _f, _h, _s, c in SC.load_cases() if c.id == case_id)
    assert SC.scheduling_for(case).async_scheduling is expected


def test_the_serving_tool_applies_a_stated_releases_async_scheduling():
    """The product's tool reads a stated vLLM release as the benchmark reads a case's: v0.14+ schedules asynchronously
    (the step hides the per-sequence CPU time), an older release or none does not."""
    toolbox = ToolBox(Resources(Settings.load()))

    def tpot(version):
        args = ServingArgs(model="llama-3.1-8b", gpu="H100", gpus=1, concurrency=64, input_len=512, output_len=256,
                           vllm_version=version)
        return toolbox.estimate_serving(args).tpot_ms

    assert tpot("0.18.0") < tpot("0.10.0")
    assert tpot(None) == pytest.approx(tpot("0.10.0"), rel=0.05)


def test_the_recommenders_serving_fit_applies_a_stated_releases_async_scheduling():
    """The recommender's serving fit reads a stated vLLM release as the serving tool does (v0.14+: asynchronous)."""
    cat = Resources(Settings.load()).catalog
    model, gpu = cat.model("llama-3.1-8b"), cat.gpu("H100")

    def tpot(async_scheduling):
        load = ServingLoad(concurrency=64, input_len=512, output_len=256, async_scheduling=async_scheduling)
        return ServingPlanner(model, load, max_gpus=1).estimate(gpu, 1, 1, WeightFormat.bf16, 1).tpot_ms

    assert tpot(True) < tpot(None)
