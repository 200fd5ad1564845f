"""The serving estimator (tools/serving.py): formulas, load shapes, the inverse solve, errors, notes and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tools.domain import GIB, Billing, Currency
from tools.errors import InputError
from tools.messages import has_code, render
from tools.serving import estimate_on_instance, estimate_serving, layouts, valid_tp
from tools.serving_codes import CaveatCode, ServingCode, ServingError
from tools.kv_cache import KvCode
from tools.serving_perf import expert_fraction, touched_fraction, weight_bytes
from tools.serving_profiles import BITS_PER_WEIGHT, PROFILES, TORCH_VISIBLE_FRACTION, Engine, WeightFormat
from tools.serving_types import Load, LoadKind, ServingRequest


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def fx():
    from knowledge.settings import Settings

    return Settings.load().exchange_rate


def conc(n: int) -> Load:
    return Load(kind=LoadKind.concurrency, value=n)


# ------------------------------------------------------------------ weight formats


@pytest.mark.parametrize(
    "fmt, bits",
    [
        (WeightFormat.bf16, 16.0),
        (WeightFormat.fp8, 8.0),
        (WeightFormat.int4, 4.16),  # 4 bits + fp16 scale + 4-bit zero per group of 128
        (WeightFormat.q4_k_m, 4.90),  # llama-quantize: 4.58 GiB for Llama-3-8B (8.03 B)
        (WeightFormat.q5_k_m, 5.70),  # 5.33 GiB
        (WeightFormat.q8_0, 8.52),  # 7.96 GiB
        (WeightFormat.q4_0, 4.64),  # 4.34 GiB
    ],
)
def test_bits_per_weight(fmt, bits):
    assert BITS_PER_WEIGHT[fmt] == pytest.approx(bits, abs=0.01)


def test_gguf_size_matches_llama_quantize(cat):
    m = cat.model("llama-3-8b")
    assert weight_bytes(m, WeightFormat.q4_k_m) / GIB == pytest.approx(4.58, abs=0.01)


def test_awq_keeps_embeddings_in_16_bits(cat):
    m = cat.model("llama-3-8b")
    all_int4 = m.params * BITS_PER_WEIGHT[WeightFormat.int4] / 8
    assert weight_bytes(m, WeightFormat.int4) > all_int4  # embeddings + LM head (2 × 128256 × 4096) at 2 bytes


# ------------------------------------------------------------------ MoE


@pytest.mark.parametrize(
    "experts, active, batch, expected",
    [
        (8, 2, 1, 0.25),  # one token: exactly k of E
        (8, 2, 2, 1 - 0.75**2),  # E·(1 − (1 − k/E)^B) / E
        (128, 8, 1, 8 / 128),
        (128, 8, 64, 1 - (1 - 8 / 128) ** 64),  # 98.4 % of Qwen3's experts at batch 64
        (256, 8, 1000, 1.0),  # a big batch touches all of them
    ],
)
def test_touched_experts(experts, active, batch, expected):
    assert touched_fraction(experts, active, batch) == pytest.approx(expected, abs=1e-9)


def test_expert_fraction(cat):
    m = cat.model("qwen3-30b-a3b")
    e, k = m.moe_experts, m.moe_active_experts
    per_expert = (m.params - m.active_params) / (e - k)
    assert expert_fraction(m) == pytest.approx(e * per_expert / m.params)
    assert expert_fraction(cat.model("llama-3-8b")) == 0.0


def test_moe_decode_reads_fewer_weights_at_batch_one(cat):
    m = cat.model("qwen3-30b-a3b")
    one = estimate_serving(m, cat.gpu("H100"), ServingRequest(gpus=1, input_len=100, output_len=100))
    assert one.decode.weights_ms < 0.2 * one.weights_gib * GIB / (cat.gpu("H100").memory_bandwidth_gbps * 1e6)
    assert any(n.code == ServingCode.moe.value for n in one.assumptions)


# ------------------------------------------------------------------ memory


def test_vllm_pool_by_hand(cat):
    """79.22 GiB visible × 0.9 − 14.96 GiB weights − 0.4 GiB − the profile run's peak (vLLM V1 on an H100).

    The peak is the larger of the forward pass over the 8,192-token step (3 hidden + 3 intermediate bf16 values per
    token in the MLP) and the fused sampler warm-up of 1,024 sequences (14 B per logit, beside the hidden states).
    """
    m, g = cat.model("llama-3-8b"), cat.gpu("H100")
    est = estimate_serving(m, g, ServingRequest(gpus=1, input_len=1000, output_len=100))
    forward = 8192 * (3 * 4096 + 3 * 14336) * 2
    sampler = 1024 * 128256 * 14 + 8192 * 4096 * 2
    activation = max(forward, sampler) / GIB
    pool = 79.22 * 0.9 - m.params * 2 / GIB - 0.4 - activation  # torch's total in vLLM PR #10511's H100 log
    assert est.kv_cache_gib == pytest.approx(pool, rel=1e-6)
    assert est.kv_cache_tokens == int(pool * GIB / (128 * 1024) // 16 * 16)  # whole 16-token blocks


def test_sglang_uses_its_static_fraction(cat):
    m, g = cat.model("llama-3-8b"), cat.gpu("H100")
    est = estimate_serving(m, g, ServingRequest(gpus=1, engine=Engine.sglang, input_len=1000, output_len=100))
    assert est.usable_gib == pytest.approx(79.22 * 0.88)


@pytest.mark.parametrize(("gpu", "visible"), [
    ("H100", 79.22),  # vLLM PR #10511 start-up log: total_gpu_memory 79.22GiB
    ("L4", 22.04),  # PyTorch OOM message on AWS g6 (ddiiwoong blog): total capacity 22.04 GiB
    ("A10G", 22.06),  # the same post, AWS g5: 22.06 GiB
    ("L40S", 44.42),  # vLLM #15815 start-up log: total_gpu_memory (44.42GiB)
    ("A100-80GB", 79.25),  # vLLM 0.26.1rc1 log on an A100-SXM4-80GB: "Free memory on device (78.84/79.25 GiB)"
    ("H200", 140.4 * TORCH_VISIBLE_FRACTION),  # no cited log: the catalog's nvidia-smi figure × the fraction
])
def test_vllm_sizes_its_pool_from_what_torch_sees(cat, gpu, visible):
    """vLLM's budget is torch.cuda.mem_get_info()'s total × gpu_memory_utilization: the catalog's torch_visible_gib
    where a log shows it, else the derived figure (issue 11, round 6 preparation)."""
    g = cat.gpu(gpu)
    assert (g.torch_visible_gib is None) == (gpu == "H200")
    est = estimate_serving(cat.model("llama-3.1-8b"), g, ServingRequest(gpus=1, input_len=1000, output_len=100))
    assert est.usable_gib == pytest.approx(visible * 0.9, rel=1e-9)
    memory = next(n for n in est.assumptions if n.code == ServingCode.memory_vllm.value)
    assert memory.params["visible_gib"] == pytest.approx(visible, abs=0.005)


def test_fp8_kv_doubles_tokens(cat):
    m, g = cat.model("llama-3.1-8b"), cat.gpu("H100")
    a = estimate_serving(m, g, ServingRequest(gpus=1))
    b = estimate_serving(m, g, ServingRequest(gpus=1, kv_precision="fp8"))
    assert b.kv_cache_tokens == pytest.approx(2 * a.kv_cache_tokens, rel=1e-3)
    assert any(n.code == CaveatCode.kv_fp8.value for n in b.caveats)


# ------------------------------------------------------------------ loads


def test_request_rate_and_requests_per_day_agree(cat):
    m, g = cat.model("qwen2.5-7b"), cat.gpu("L40S")
    per_day = estimate_serving(m, g, ServingRequest(gpus=1, load=Load(kind=LoadKind.requests_per_day, value=86_400)))
    rate = estimate_serving(m, g, ServingRequest(gpus=1, load=Load(kind=LoadKind.request_rate, value=3.0)))
    assert per_day.req_s == pytest.approx(rate.req_s)  # 86,400 a day × peak factor 3 = 3 req/s
    note = next(n for n in per_day.assumptions if n.code == ServingCode.peak_factor.value)
    assert note.params["peak_factor"] == 3.0 and note.params["default"] is True


def test_saturated_rate(cat):
    m, g = cat.model("qwen2.5-7b"), cat.gpu("L4")
    est = estimate_serving(m, g, ServingRequest(gpus=1, load=Load(kind=LoadKind.request_rate, value=500.0)))
    assert est.saturated and not est.ok
    assert est.req_s <= est.max_req_s * 1.0001
    assert any(n.code == CaveatCode.saturated.value for n in est.caveats)


def test_static_batch(cat):
    m, g = cat.model("llama-3-8b"), cat.gpu("A100-80GB")
    est = estimate_serving(m, g, ServingRequest(gpus=1, input_len=512, output_len=128, load=Load(kind=LoadKind.batch, value=8)))
    assert est.concurrency == 8
    assert est.e2e_ms == pytest.approx(est.ttft_ms + 127 * est.decode.step_ms)


def test_default_load_and_lengths_are_stated(cat):
    est = estimate_serving(cat.model("llama-3-8b"), cat.gpu("H100"), ServingRequest(gpus=1))
    codes = [n.code for n in est.assumptions]
    assert ServingCode.load_default.value in codes and ServingCode.lengths_default.value in codes
    assert (est.input_len, est.output_len) == (1024, 256)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "concurrency"}, "needs a value"),
        ({"kind": "concurrency", "value": 2.5}, "whole number"),
        ({"kind": "request_rate", "value": 1, "peak_factor": 2}, "requests_per_day only"),
        ({"kind": "batch", "value": 0}, "greater than 0"),
        ({"kind": "max_throughput", "value": 10.5}, "whole number"),  # a burst is a count of prompts
        ({"kind": "request_rate", "value": 2, "arrivals": "together"}, "concurrency only"),
        ({"kind": "concurrency", "value": 2, "arrivals": "in_step"}, "independent"),  # unknown pattern named
    ],
)
def test_load_validation(kwargs, message):
    with pytest.raises(ValidationError, match=message):
        Load(**kwargs)


# ------------------------------------------------------------------ time to first token: waves, bursts, traffic


def _plan(cat, model="llama-3-8b", gpu="H100", engine="vllm", in_len=1024, out_len=128):
    from tools.serving import Layout
    from tools.serving_perf import make_plan

    req = ServingRequest(gpus=1, engine=engine, input_len=in_len, output_len=out_len)
    return make_plan(cat.model(model), cat.gpu(gpu), req, Layout(gpus=1, tp=1, pp=1, replicas=1, nodes=1), in_len, out_len)


@pytest.mark.parametrize(
    "in_len, prompts, mean_step_share",
    [
        (1024, 1, 1.0),  # one prompt: its first token comes with the end of its own prefill
        (1024, 8, 1.0),  # 8 × 1,024 = one 8,192-token step (H100 budget): every prompt waits for the whole wave
        (1024, 16, 0.75),  # two steps: half the prompts end with the first, half with the second → (1 + 2) / 2 of 2
        (2048, 16, 0.625),  # four steps of two prompts each → (1 + 2 + 3 + 4) / 4 of 4
    ],
)
def test_wave_first_token_by_chunks(cat, in_len, prompts, mean_step_share):
    from tools.serving_perf import prefill_ms, wave_first_token_ms

    p = _plan(cat, in_len=in_len)
    assert p.batched_tokens == 8192  # vLLM V1's step budget on an H100
    assert wave_first_token_ms(p, prompts) == pytest.approx(prefill_ms(p, in_len, prompts) * mean_step_share)


@pytest.mark.parametrize("engine", ["vllm", "sglang", "trtllm", "llamacpp"])
def test_one_user_finds_the_engine_idle(cat, engine):
    """A closed loop of one: the first token comes with the prefill step (the step that finishes the prompt samples
    it) and nothing is in flight to wait for; each later token is one decode step."""
    m, g = cat.model("llama-3.1-8b"), cat.gpu("H100")
    weights = "q4_k_m" if engine == "llamacpp" else "bf16"
    one = estimate_serving(m, g, ServingRequest(gpus=1, engine=engine, weights=weights, input_len=2048, output_len=128,
                                                load=conc(1)))
    overhead = PROFILES[Engine(engine)].request_overhead_ms
    assert one.queue_ms == 0
    assert one.ttft_ms == pytest.approx(overhead + one.prefill_ms)
    assert one.e2e_ms == pytest.approx(one.ttft_ms + 127 * one.decode.step_ms)
    assert one.tpot_ms == pytest.approx(one.decode.step_ms)
    two = estimate_serving(m, g, ServingRequest(gpus=1, engine=engine, weights=weights, input_len=2048, output_len=128,
                                                load=conc(2)))
    # two users: the other one's decode step is in flight when a request arrives (half a step on average)
    assert two.ttft_ms >= overhead + two.prefill_ms + two.decode.step_ms / 2


def test_users_in_step_wait_for_their_wave(cat):
    """A fixed-length benchmark loop: the N requests arrive together, so each TTFT holds the whole wave's prefill."""
    m, g = cat.model("llama-3-8b"), cat.gpu("H100")

    def est(users, arrivals):
        load = Load(kind=LoadKind.concurrency, value=users, arrivals=arrivals)
        return estimate_serving(m, g, ServingRequest(gpus=1, input_len=1024, output_len=128, load=load))

    one_apart, one_together = est(1, "independent"), est(1, "together")
    assert one_together.ttft_ms == pytest.approx(one_apart.ttft_ms)  # one user: nothing to wait for either way
    apart, together = est(8, "independent"), est(8, "together")
    assert together.ttft_ms > 2 * apart.ttft_ms  # 8 prompts prefilled as one step vs one prompt and a short queue
    assert together.output_tok_s == pytest.approx(apart.output_tok_s)  # the same work per cycle: throughput unchanged
    note = next(n for n in together.assumptions if n.code == ServingCode.queueing.value)
    assert note.params["arrivals"] == "together" and note.params["concurrency"] == 8


def test_burst_ttft_holds_the_queue_for_a_slot(cat):
    """1,000 prompts at once on a pool that holds far fewer: most requests wait for a slot, TTFT ≫ the sustained one."""
    m, g = cat.model("qwen3-14b"), cat.gpu("H100")

    def est(value):
        load = Load(kind=LoadKind.max_throughput, value=value)
        return estimate_serving(m, g, ServingRequest(gpus=1, input_len=3996, output_len=200, load=load))

    sustained, small, big = est(None), est(500), est(1000)
    assert sustained.ttft_ms < small.ttft_ms < big.ttft_ms
    assert big.output_tok_s == pytest.approx(sustained.output_tok_s)  # a big burst runs at the maximum throughput
    # the queue: 1,000 − first wave requests served at the maximum rate, half of them ahead on average
    first = big.kv_cache_tokens // 3996
    assert big.ttft_ms > (1000 - first) ** 2 / 1000 / 2 / big.req_s * 1e3
    note = next(n for n in big.assumptions if n.code == ServingCode.queueing.value)
    assert note.params["arrivals"] == "burst" and note.params["requests"] == 1000


@pytest.mark.parametrize(
    "engine, more_than_max_batch",
    [
        ("vllm", True),  # admits on the prompt's blocks and preempts later
        ("sglang", True),  # reserves 0.7 of the output beside the prompt
        ("trtllm", False),  # GUARANTEED_NO_EVICT: prompt + whole output, the same as the whole-sequence cap
    ],
)
def test_first_wave_follows_the_engines_admission_rule(cat, engine, more_than_max_batch):
    from tools.serving_perf import admitted_at_once, max_batch

    p = _plan(cat, model="qwen3-14b", engine=engine, in_len=3996, out_len=2000)
    assert (admitted_at_once(p) > max_batch(p)) is more_than_max_batch
    assert admitted_at_once(p) >= max_batch(p)


def test_burst_reaches_the_engine_no_faster_than_its_front_end(cat):
    """vLLM's front end takes request_cpu_ms per request: 1,000 short prompts arrive over 1,000 × that."""
    p = PROFILES[Engine.vllm]
    load = Load(kind=LoadKind.max_throughput, value=1000)
    est = estimate_serving(cat.model("qwen3-14b"), cat.gpu("H100"), ServingRequest(gpus=1, input_len=128, output_len=4, load=load))
    assert est.ttft_ms >= p.request_overhead_ms + 999 / 2 * p.request_cpu_ms


def test_chat_traffic_stands_in_for_missing_lengths(cat):
    from tools.serving_types import TRAFFIC_LENGTHS, Traffic

    m, g = cat.model("qwen3-14b"), cat.gpu("H100")
    est = estimate_serving(m, g, ServingRequest(gpus=1, traffic="chat"))
    assert (est.input_len, est.output_len) == TRAFFIC_LENGTHS[Traffic.chat][:2] == (217, 202)
    note = next(n for n in est.assumptions if n.code == ServingCode.lengths_default.value)
    assert note.params["traffic"] == "chat" and "ShareGPT" in note.params["source"]
    given = estimate_serving(m, g, ServingRequest(gpus=1, traffic="chat", input_len=4000))
    assert (given.input_len, given.output_len) == (4000, 202)  # a given length wins; the other still comes from chat
    both = estimate_serving(m, g, ServingRequest(gpus=1, traffic="chat", input_len=100, output_len=50))
    assert not any(n.code == ServingCode.lengths_default.value for n in both.assumptions)


def test_sglang_fp8_h100_chat_max_throughput_matches_gpustack(cat):
    """Regression (golden srv-zh-h100-sglang-fp8): SGLang, Qwen3-14B-FP8, one H100, chat traffic, maximum throughput.

    GPUStack measured 10,426 total / 5,020 output tok/s on ShareGPT (tests/data/serving/gpustack_qwen3_14b.yaml). The
    chat answer said 3,182 because it ran vLLM at the default 1,024 / 256 tokens; with the engine and chat lengths the
    estimate is within 25 % of both figures.
    """
    req = ServingRequest(gpus=1, engine="sglang", weights="fp8", traffic="chat", load=Load(kind=LoadKind.max_throughput))
    est = estimate_serving(cat.model("qwen3-14b"), cat.gpu("H100"), req)
    assert est.total_tok_s == pytest.approx(10_426, rel=0.25)
    assert est.output_tok_s == pytest.approx(5_020, rel=0.25)
    default = estimate_serving(cat.model("qwen3-14b"), cat.gpu("H100"), req.model_copy(update={"traffic": None}))
    assert default.output_tok_s < 0.6 * est.output_tok_s  # 1,024 / 256: longer sequences, a smaller batch


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_new_ttft_notes_render(cat, lang):
    """The wave, burst and chat-traffic forms of the queueing and lengths notes, in both languages (the message
    table's runs in tests/test_serving_messages.py reach only their plain forms)."""
    import re

    m, g = cat.model("qwen3-14b"), cat.gpu("H100")
    runs = [
        ServingRequest(gpus=1, traffic="chat", load=Load(kind=LoadKind.max_throughput, value=1000)),
        ServingRequest(gpus=1, input_len=256, output_len=128, load=Load(kind=LoadKind.concurrency, value=8,
                                                                        arrivals="together")),
    ]
    notes = [n for req in runs for n in estimate_serving(m, g, req).assumptions
             if n.code in (ServingCode.queueing.value, ServingCode.lengths_default.value)]
    assert {n.params.get("arrivals") for n in notes} >= {"burst", "together"}
    for note in notes:
        text = render(note, lang)
        assert text.strip() and "{" not in text and "None" not in text, (note.code, text)
        if lang == "zh":  # Latin words only inside code spans, params and the serving terms (M/D/1, ms, token, E2E)
            bare = re.sub(r"`[^`]+`|M/D/1|E2E|token|ms|[0-9.,]+", " ", text)
            for v in note.params.values():
                bare = bare.replace(str(v), " ")
            assert not re.search(r"[A-Za-z]{2,}", bare), text


# ------------------------------------------------------------------ layouts and errors


def test_valid_tp(cat):
    m = cat.model("llama-3-8b")  # 32 heads, 8 KV heads
    assert [tp for tp in range(1, 17) if valid_tp(m, tp)] == [1, 2, 4, 8, 16]


def test_layouts_split_replicas_tp_pp(cat):
    req = ServingRequest()
    got = {(l.replicas, l.tp, l.pp) for l in layouts(cat.model("llama-3-8b"), 8, req)}
    assert {(8, 1, 1), (4, 2, 1), (2, 4, 1), (1, 8, 1)} <= got


@pytest.mark.parametrize(
    "model, gpu, kwargs, code",
    [
        ("llama-3-8b", "H100", {"gpus": 3, "tp": 2}, ServingError.tp_not_dividing_gpus),  # 2 does not divide 3
        ("llama-3-8b", "H100", {"gpus": 3, "tp": 3}, ServingError.tp_not_dividing_heads),  # 3 ∤ 32 heads
        ("llama-3.1-405b", "RTX-4090", {"gpus": 1}, ServingError.weights_fit_nowhere),
        ("bert-large", "H100", {"gpus": 1}, ServingError.not_decoder),
        ("llama-3-8b", "H100", {"gpus": 16, "nodes": 1}, ServingError.nodes_mismatch),
    ],
)
def test_errors(cat, model, gpu, kwargs, code):
    with pytest.raises(InputError) as info:
        estimate_serving(cat.model(model), cat.gpu(gpu), ServingRequest(**kwargs))
    assert info.value.note is not None and info.value.note.code == code.value
    assert str(info.value)  # one English line for the CLI


def test_error_names_the_fix(cat):
    with pytest.raises(InputError, match=r"raise --gpus|--weights fp8"):
        estimate_serving(cat.model("llama-3.1-405b"), cat.gpu("RTX-4090"), ServingRequest(gpus=1))


def test_kv_short_gives_fits_false_and_the_nearest_layout(cat):
    m, g = cat.model("llama-3.1-70b"), cat.gpu("H100")
    req = ServingRequest(gpus=2, weights="fp8", input_len=8000, output_len=1000, load=conc(200))
    est = estimate_serving(m, g, req)
    assert est.weights_fit and not est.fits
    assert 0 < est.max_concurrency < 200
    assert est.nearest_layout is not None and est.nearest_layout.gpus > 2
    assert any(n.code == CaveatCode.kv_short.value for n in est.caveats)


def test_inverse_solve(cat):
    """The 72B question from the issue: 50 users with 4k context."""
    m, g = cat.model("qwen2.5-72b"), cat.gpu("H100")
    est = estimate_serving(m, g, ServingRequest(input_len=4096, output_len=512, load=conc(50)))
    assert est.ok and est.gpus >= 2 and est.max_concurrency >= 50
    assert est.gpus == est.replicas * est.tp * est.pp
    assert any(n.code == ServingCode.layout_solved.value for n in est.assumptions)
    smaller = estimate_serving(m, g, ServingRequest(gpus=est.gpus - 1, input_len=4096, output_len=512, load=conc(50)),
                               allow_no_fit=True) if est.gpus > 1 else None
    assert smaller is None or not smaller.ok


def test_solve_meets_latency_targets(cat):
    m, g = cat.model("llama-3.1-8b"), cat.gpu("L4")
    est = estimate_serving(m, g, ServingRequest(input_len=2000, output_len=300, load=conc(32), min_tokens_per_user=20,
                                                ttft_ms=2000))
    assert est.meets_tokens_per_user and est.meets_ttft


def test_targets_missed_are_caveats(cat):
    est = estimate_serving(cat.model("llama-3.1-8b"), cat.gpu("L4"),
                           ServingRequest(gpus=1, load=conc(1), min_tokens_per_user=500, ttft_ms=1))
    codes = [n.code for n in est.caveats]
    assert CaveatCode.misses_tokens_per_user.value in codes and CaveatCode.misses_ttft.value in codes
    assert est.nearest_layout is None or est.nearest_layout.gpus > 1


# ------------------------------------------------------------------ cost


def test_cost_per_million(cat):
    est = estimate_serving(cat.model("qwen2.5-7b"), cat.gpu("L40S"),
                           ServingRequest(gpus=1, load=conc(16), price_per_hour=2.0, currency=Currency.USD))
    assert est.cost_per_million_output_tokens_at_load == pytest.approx(2.0 / (est.output_tok_s * 3600) * 1e6)
    assert est.cost_per_million_output_tokens_at_max == pytest.approx(2.0 / (est.max_output_tok_s * 3600) * 1e6)
    assert est.cost_per_million_output_tokens_at_max <= est.cost_per_million_output_tokens_at_load


def test_estimate_on_instance(cat, fx):
    row = next(i for i in cat.instances if i.gpu == "H100" and i.gpu_count == 8 and i.price(Billing.on_demand))
    est = estimate_on_instance(cat.model("llama-3.1-70b"), cat.gpu("H100"), row, ServingRequest(load=conc(64)), fx)
    price = row.price(Billing.on_demand)
    assert est.gpus == 8 and est.instance == row.key
    assert est.price_per_hour == pytest.approx(price.per_hour) and est.currency == price.currency
    assert est.cost_per_million_output_tokens_at_load == pytest.approx(price.per_hour / (est.output_tok_s * 3600) * 1e6)
    cny = estimate_on_instance(cat.model("llama-3.1-70b"), cat.gpu("H100"), row, ServingRequest(load=conc(64)), fx,
                               currency=Currency.CNY)
    assert cny.price_per_hour == pytest.approx(fx.convert(price.per_hour, price.currency, Currency.CNY))


def test_instance_too_small_is_a_near_miss_not_an_error(cat, fx):
    row = next(i for i in cat.instances if i.gpu == "L40S" and i.gpu_count == 1)
    est = estimate_on_instance(cat.model("llama-3.1-405b"), cat.gpu("L40S"), row, ServingRequest(), fx)
    assert not est.weights_fit and not est.fits


# ------------------------------------------------------------------ caveats and notes


@pytest.mark.parametrize(
    "weights, gpu, code, needle",
    [
        ("fp8", "H100", CaveatCode.quality_recovery, "arXiv:2411.02355"),
        ("int8", "H100", CaveatCode.quality_recovery, "arXiv:2411.02355"),
        ("int4", "H100", CaveatCode.quality_perplexity, "AWQ"),
        ("q4_k_m", "RTX-4090", CaveatCode.quality_perplexity, "llama-quantize"),
    ],
)
def test_quantised_formats_state_their_quality_cost(cat, weights, gpu, code, needle):
    est = estimate_serving(cat.model("llama-3.1-8b"), cat.gpu(gpu), ServingRequest(gpus=1, weights=weights))
    note = next(n for n in est.caveats if n.code == code.value)
    assert needle in render(note, "en") and needle in render(note, "zh")


def test_fp8_without_fp8_tensor_cores(cat):
    est = estimate_serving(cat.model("llama-3.1-8b"), cat.gpu("A100-80GB"), ServingRequest(gpus=1, weights="fp8"))
    assert any(n.code == CaveatCode.fp8_weight_only.value for n in est.caveats)


@pytest.mark.parametrize("gpu, expected", [("V100-32GB", True), ("T4", True), ("A100-80GB", False), ("H100", False)])
def test_bf16_weights_on_a_card_without_bf16_are_served_in_fp16(cat, gpu, expected):
    est = estimate_serving(cat.model("qwen2.5-3b"), cat.gpu(gpu), ServingRequest(gpus=1, weights="bf16"))
    assert any(n.code == CaveatCode.bf16_as_fp16.value for n in est.caveats) is expected
    if expected:
        fp16 = estimate_serving(cat.model("qwen2.5-3b"), cat.gpu(gpu), ServingRequest(gpus=1, weights="fp16"))
        assert est.per_gpu_gib == fp16.per_gpu_gib and est.output_tok_s == fp16.output_tok_s  # same memory, same speed


def test_every_code_has_both_languages():
    for enum in (ServingCode, CaveatCode, ServingError, KvCode):
        for code in enum:
            assert has_code(code.value), code


@pytest.mark.parametrize("engine", [e.value for e in Engine])
def test_every_emitted_note_renders(cat, engine):
    est = estimate_serving(cat.model("qwen3-30b-a3b"), cat.gpu("H100"),
                           ServingRequest(gpus=2, engine=engine, weights="fp8", load=conc(8), ttft_ms=1))
    for note in est.assumptions + est.caveats:
        en, zh = render(note, "en"), render(note, "zh")
        assert en and zh and "{" not in en and "{" not in zh
    assert est.calibrated == PROFILES[Engine(engine)].calibrated
    if not est.calibrated:
        assert any(n.code == ServingCode.engine_uncalibrated.value for n in est.assumptions)


def test_result_is_plain_json(cat):
    est = estimate_serving(cat.model("llama-3-8b"), cat.gpu("H100"), ServingRequest(gpus=1))
    data = est.model_dump(mode="json", context={"lang": "zh"})
    assert data["assumptions"][0]["text"] and math.isfinite(data["output_tok_s"])


# ------------------------------------------------------------------ properties

MODELS = ["llama-3-8b", "qwen2.5-7b", "qwen3-30b-a3b", "mistral-7b"]
GPUS = ["H100", "A100-80GB", "L40S", "RTX-4090"]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), engine=st.sampled_from(["vllm", "sglang", "trtllm"]),
       in_len=st.integers(16, 4096), out_len=st.integers(2, 1024), users=st.integers(2, 512))
def test_more_concurrency_never_below_batch_one(cat, model, gpu, engine, in_len, out_len, users):
    base = dict(gpus=1, engine=engine, input_len=in_len, output_len=out_len)
    one = estimate_serving(cat.model(model), cat.gpu(gpu), ServingRequest(**base, load=conc(1)), allow_no_fit=True)
    many = estimate_serving(cat.model(model), cat.gpu(gpu), ServingRequest(**base, load=conc(users)), allow_no_fit=True)
    assert many.total_tok_s >= one.total_tok_s * (1 - 1e-9)


@FAST
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), factor=st.floats(1.0, 4.0), users=st.integers(1, 64))
def test_more_bandwidth_never_slows_decode(cat, model, gpu, factor, users):
    g = cat.gpu(gpu)
    faster = g.model_copy(update={"memory_bandwidth_gbps": g.memory_bandwidth_gbps * factor})
    req = ServingRequest(gpus=1, input_len=512, output_len=128, load=conc(users))
    slow = estimate_serving(cat.model(model), g, req, allow_no_fit=True)
    fast = estimate_serving(cat.model(model), faster, req, allow_no_fit=True)
    assert fast.decode.step_ms <= slow.decode.step_ms * (1 + 1e-9)
    assert fast.tpot_ms <= slow.tpot_ms * (1 + 1e-9)


@FAST
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), out_len=st.integers(1, 2000), extra=st.integers(1, 2000),
       users=st.integers(1, 64))
def test_longer_outputs_never_cost_less_per_request(cat, model, gpu, out_len, extra, users):
    def cost_per_request(n: int) -> float:
        est = estimate_serving(cat.model(model), cat.gpu(gpu),
                               ServingRequest(gpus=1, input_len=256, output_len=n, load=conc(users), price_per_hour=1.0,
                                              currency=Currency.USD), allow_no_fit=True)
        return 1.0 / (est.req_s * 3600)  # price per hour ÷ requests served per hour

    assert cost_per_request(out_len + extra) >= cost_per_request(out_len) * (1 - 1e-9)


def test_llamacpp_splits_layers_not_tensors(cat):
    """llama.cpp's default --split-mode layer: one pipeline stage per GPU, each token passes every stage."""
    est = estimate_serving(cat.model("llama-3-70b"), cat.gpu("RTX-3090"),
                           ServingRequest(gpus=2, engine="llamacpp", weights="q4_k_m"))
    assert (est.tp, est.pp) == (1, 2)
    one_gpu_time = est.weights_gib * 2 * GIB / (cat.gpu("RTX-3090").memory_bandwidth_gbps * 1e6)
    assert est.decode.weights_ms >= one_gpu_time * 0.99  # no speed-up from the second GPU
    assert any(n.code == ServingCode.pp_latency.value for n in est.assumptions)
