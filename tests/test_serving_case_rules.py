"""How benchmarks/serving.py turns a spent case into the estimator's request (formula round on spent data, session 16).

Each mechanism here is checked on the spent cases that motivated it (rounds 1-13 are spent), table-driven; the real
case files, the real estimator and catalog; no mocks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)

from tools.kv_pool import nccl_charged  # noqa: E402
from tools.serving_profiles import vllm_release  # noqa: E402


@pytest.fixture(scope="module")
def cases():
    return {c.id: c for _f, _held, _s, c in SC.load_cases()}


# ------------------------------------------------------------------ 1. the engine release reaches the estimator

@pytest.mark.parametrize(("case_id", "release", "charged"), [
    # vLLM 0.16.0, TP 2 over PCIe (round 13): from 0.11 the NCCL buffers come out of the headroom (PR #25359)
    ("kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192", (0, 16), False),
    # vLLM 0.7.1, V0, TP 2 (round 3): V0 charges them to the pool
    ("vllm15815-q25-32b-2xl40s-tp2-10k", (0, 7), True),
    # vLLM 0.9.2 on one GPU (round 12): V1 before 0.11 charges them
    ("tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960", (0, 9), True),
    # vLLM 0.19.0 (round 13)
    ("cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192", (0, 19), False),
])
def test_the_request_carries_the_cases_engine_release(cases, case_id, release, charged):
    case = cases[case_id]
    req = SC.request_for(case)
    assert req.engine_version is not None and case.engine_version.startswith(req.engine_version)
    assert vllm_release(req.engine_version) == release
    engine, _sampler = SC.vllm_case_rules(case)
    assert nccl_charged(engine, vllm_release(req.engine_version)) is charged


def test_every_vllm_case_passes_the_release_its_text_names(cases):
    """The request carries the text's first version number (ServingRequest bounds engine_version at 40 characters, and
    some texts say more: "not printed (vLLM main of 2025-04-24, a 0.8.5 development build …)"): the same release as
    the whole text names, for every vLLM case."""
    for case in (c for c in cases.values() if c.engine.value == "vllm"):
        req = SC.request_for(case)
        assert vllm_release(req.engine_version) == vllm_release(case.engine_version), case.id


@pytest.mark.parametrize(("text", "release"), [
    ("0.19.0 (stated in the report)", "0.19.0"),
    ("v0.7.1 (V0 engine, as the log prints it)", "v0.7.1"),
    ("not printed (vLLM main of 2025-04-24, a 0.8.5 development build)", "0.8.5"),
    ("0.26.1rc1.dev156+g0eec856cc (banner; V1 engine)", "0.26.1rc1.dev156+g0eec856cc"),
    ("not stated (V1 engine)", None),
])
def test_release_of_reads_the_first_version_number(cases, text, release):
    case = cases["kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192"].model_copy(update={"engine_version": text})
    assert SC.release_of(case) == release


# ------------------------------------------------------------------ 2. vLLM's non-torch memory by profiler generation

@pytest.fixture(scope="module")
def cat():
    return SC.load_catalog()


def _charged_non_torch(cat, case) -> float:
    from tools.serving import estimate_serving
    from tools.serving_codes import ServingCode

    est = estimate_serving(cat.model(case.model), cat.gpu(case.gpu), SC.request_for(case), allow_no_fit=True,
                           scheduling=SC.scheduling_for(case))
    note = next(n for n in est.assumptions if n.code == ServingCode.memory_vllm.value)
    return note.params["non_torch_gib"]


@pytest.mark.parametrize(("case_id", "printed"), [
    ("kolyangg-vllm0102-h100-qwen3-30b-a3b-2507-tp1-kv-mml6144", 0.07),  # V1 0.10.2: "0.07 GiB for non-torch memory"
    ("oci-aqua-llama31-8b-a10-131k-kv", 0.05),  # V0 0.7.x: "non_torch 0.05GiB"
    ("vllm15815-q25-32b-2xl40s-tp2-10k", 0.30),  # V0 0.7.1, TP 2 over PCIe: "non_torch_memory takes 0.30GiB"
    ("vllm-13061-r1-qwen14b-2x4090-tp2", 0.25),  # V0 0.7.x, TP 2 (issue text): "non_torch_memory takes 0.25GiB"
    ("vllm10360-rtxa6000-q25-32b-awq-4k", 0.44),  # V0 0.6.4.post1, the older profiler: "non_torch_memory=0.44GiB"
])
def test_the_charged_non_torch_memory_is_the_logs_within_a_fifth_of_a_gib(cat, cases, case_id, printed):
    """The spent logs that print their non-torch memory: the profilers that measure it since a baseline print 0.05-0.30
    GiB (what grew: cuBLAS workspaces, NCCL with TP), the 0.6.4 one 0.44 (everything). Charging the whole 0.40 to every
    release put the first four 0.33-0.50 GiB over."""
    assert _charged_non_torch(cat, cases[case_id]) == pytest.approx(printed, abs=0.2)


# ------------------------------------------------------------------ 3. the A100 80GB's torch-visible memory

@pytest.mark.parametrize(("case_id", "budget"), [
    # vLLM 0.26.1rc1 on an A100-SXM4-80GB (round 12): "Desired GPU memory utilization is (0.9, 71.33 GiB)"
    ("lukejyk-vllm0261rc1-a100-80gb-qwen3-coder-30b-a3b-tp1-kv-mml131072-mns16", 71.33),
    # the PCIe part (round 13, cssnoeasy, gmu 0.9): the same die and memory, the same budget (derived)
    ("cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192", 71.33),
])
def test_the_a100_80gb_budget_is_the_logged_one(cat, cases, case_id, budget):
    from tools.serving import estimate_serving

    case = cases[case_id]
    est = estimate_serving(cat.model(case.model), cat.gpu(case.gpu), SC.request_for(case), allow_no_fit=True,
                           scheduling=SC.scheduling_for(case))
    assert est.usable_gib == pytest.approx(budget, abs=0.01)  # was 0.9 × 79.35 × 0.9947 = 71.04


# ------------------------------------------------------------------ 4. in process (the LLM class) or the API server

@pytest.mark.parametrize(("command", "in_process"), [
    ("uv run vllm bench latency --model Qwen/Qwen3-8B --batch-size 1", True),  # tokenkaki (offline)
    ("uv run vllm bench throughput --backend vllm --model Qwen/Qwen3-8B", True),
    ("python3 benchmarks/benchmark_throughput.py --model meta-llama/Llama-3.1-8B", True),
    ("python -c 'llm = LLM(model=...); llm.generate(prompts)'", True),
    ("vllm serve Qwen/Qwen3-8B --port 8001", False),
    ("vllm bench serve --backend openai-chat --endpoint /v1/chat/completions", False),
    ("python3 bench_serving.py (SGLang's bench_serving) --backend vllm", False),  # a client against the server
    ("docker run rocm/vllm-dev", None),  # neither stated
    (None, None),
])
def test_in_process_is_read_from_the_command(cases, command, in_process):
    case = cases["kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192"].model_copy(update={"command": command})
    assert SC.in_process_of(case) is in_process


@pytest.mark.parametrize(("gpu", "in_process", "tokens"), [
    ("A100-40GB", False, 2048),  # the OpenAI server on a small (or A100) GPU
    ("A100-40GB", True, 8192),  # the LLM class on the same GPU
    ("H100", False, 8192),  # a ≥ 70 GiB GPU that is not an A100
    ("H100", True, 16384),
])
def test_vllm_v1_step_budget_by_usage_context(cat, gpu, in_process, tokens):
    """vllm/engine/arg_utils.py EngineArgs.get_batch_defaults: max_num_batched_tokens by UsageContext (LLM_CLASS
    16384 / 8192, OPENAI_API_SERVER 8192 / 2048); max_num_seqs the same for both."""
    from tools.serving import estimate_serving
    from tools.serving_codes import ServingCode
    from tools.serving_types import ServingRequest

    est = estimate_serving(cat.model("qwen3-8b"), cat.gpu(gpu), ServingRequest(gpus=1, input_len=128, output_len=64,
                                                                               in_process=in_process))
    note = next(n for n in est.assumptions if n.code == ServingCode.memory_vllm.value)
    assert note.params["batched_tokens"] == tokens


@pytest.mark.parametrize(("case_id", "printed"), [
    ("tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960", 2048),  # 0.9.2 server
    ("tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192", 8192),  # 0.9.2 `vllm bench latency`
    ("tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192", 8192),  # 0.19.1 `vllm bench throughput`
])
def test_the_spent_logs_budget_is_the_usage_contexts_default(cat, cases, case_id, printed):
    """The spent tokenkaki logs print the step budget each run used; without the stated figure the estimator now
    gives the same from the command alone (the server's default 2048 was applied to the offline runs before)."""
    from tools.serving import estimate_serving
    from tools.serving_codes import ServingCode

    case = cases[case_id]
    assert case.engine_args.max_batched_tokens == printed
    req = SC.request_for(case).model_copy(update={"max_batched_tokens": None})
    est = estimate_serving(cat.model(case.model), cat.gpu(case.gpu), req, allow_no_fit=True)
    note = next(n for n in est.assumptions if n.code == ServingCode.memory_vllm.value)
    assert note.params["batched_tokens"] == printed


# ------------------------------------------------------------------ 5. closed loops pinned by --ignore-eos run in waves

FARADAWN = "faradawn-vllm0112-h200-llama3-8b-tp1-c{}-128in-512out"


@pytest.mark.parametrize(("command", "lengths", "arrivals"), [
    ("vllm bench serve --max-concurrency 4 --ignore-eos --random-ids", "fixed: --random-input-len 128", "together"),
    ("benchmark_serving --max-concurrency 4 --ignore_eos", "fixed (synthetic)", "together"),
    ("vllm bench serve --max-concurrency 4 --ignore-eos", "ShareGPT V3 (its own output lengths)", "independent"),
    ("vllm bench serve --max-concurrency 4", "fixed: --random-input-len 128", "independent"),  # EOS may end early
    (None, "fixed: no --ignore-eos printed", "independent"),
])
def test_arrivals_are_read_from_the_command(cases, command, lengths, arrivals):
    case = cases[FARADAWN.format(4)].model_copy(update={"command": command, "lengths": lengths})
    assert SC.arrivals_of(case).value == arrivals


def test_a_case_that_states_together_keeps_it(cases):
    together = [c for c in cases.values() if c.arrivals.value == "together"]
    assert together and all(SC.arrivals_of(c.model_copy(update={"command": None})).value == "together"
                            for c in together)


def test_faradawns_waves_queue_their_prefills(cat, cases):
    """Round 13 (spent): 128 in / 512 out with --ignore-eos at 1, 4 and 8 users; the measured mean TTFT grows with the
    wave (30.51, 56.66, 75.61 ms) where independent arrivals predicted it flat (34.9, 38.5, 38.8 ms)."""
    from tools.serving import estimate_serving

    ttft = {}
    for n in (1, 4, 8):
        case = cases[FARADAWN.format(n)]
        est = estimate_serving(cat.model(case.model), cat.gpu(case.gpu), SC.request_for(case), allow_no_fit=True,
                               scheduling=SC.scheduling_for(case))
        ttft[n] = est.ttft_ms
    assert ttft[1] < ttft[4] < ttft[8] and ttft[8] > 1.4 * ttft[1]
    for n, measured in ((4, 56.66), (8, 75.61)):
        assert abs(ttft[n] / measured - 1) <= 0.25
