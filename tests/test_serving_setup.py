"""The engine, vLLM release and traffic kind a serving turn states are slots the conversation carries.

Table-driven over the real reader (assistant/understand/serving_setup.py through `Understanding`), then the real
advisor: a follow-up that changes only the load keeps the vLLM release the first turn named, and the serving-aware
recommender sizes its KV pool by it (issue 11: the recommender ignored a stated release).
"""

from __future__ import annotations

import pytest

from assistant.understand import serving_setup


@pytest.mark.parametrize("text, engine, version, traffic", [
    ("serve qwen2.5-14b on vllm 0.6.3 for 40 users", "vllm", "0.6.3", None),
    ("H100上sglang跑qwen2.5-72b，50并发", "sglang", None, None),
    ("ollama跑qwen2.5 7b够不够", "llamacpp", None, None),
    ("用V0引擎部署", "vllm", "V0", None),  # only vLLM has a V0 engine
    ("VLLM_USE_V1=0, 20 users", "vllm", "V0", None),
    ("sglang 0.4 with vllm 0.6.3 numbers as a reference", "sglang", None, None),  # the release was vLLM's, not SGLang's
    ("a customer-support chatbot on 2x 4090", None, None, "chat"),
    ("部署qwen2.5-7b做客服，对话类流量", None, None, "chat"),
    ("batch summarisation of 1M documents", None, None, None),
    ("qwen2.5 v0.5 release notes", None, None, None),
    # regressions from the review of the diff
    ("I fine-tuned qwen2.5-7b with transformers and peft", None, None, None),  # a training library, no serving
    ("triton inference server with vllm backend", "vllm", None, None),
    ("no chatbot, offline batch jobs", None, None, None),
    ("不是聊天，是批量摘要", None, None, None),
    ("vllm==0.8.5 with V0 engine", "vllm", "0.8.5 V0", None),  # the generation overrides the release's default
])
def test_the_setup_a_turn_states(text, engine, version, traffic):
    assert serving_setup.read(text) == serving_setup.ServingSetup(engine=engine, vllm_version=version, traffic=traffic)


@pytest.fixture(scope="module")
def understanding():
    from assistant.understand import Understanding
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return Understanding(load_catalog(Settings.load()))


def test_the_state_carries_the_release_until_another_engine_is_named(understanding):
    from assistant.understand.state import ConversationState

    state = ConversationState()
    turns = ["serve Qwen2.5-14B on vllm 0.6.3 for 40 concurrent users, chatbot traffic",
             "and for 80 users?",
             "what about sglang?"]
    seen = []
    for text in turns:
        result = understanding.turn(text, state)
        state = result.state
        seen.append((state.get("engine"), state.get("vllm_version"), state.get("traffic"),
                     state.get("concurrency"), state.get("users")))
    # "and for 80 users?" after "40 concurrent users" changes the number of the load in force: 80 concurrent;
    # sglang drops vLLM's release
    assert seen == [("vllm", "0.6.3", "chat", 40, None), ("vllm", "0.6.3", "chat", 80, None),
                    ("sglang", None, "chat", 80, None)]


def test_users_after_users_stay_users_and_a_new_load_kind_replaces_the_old(understanding):
    from assistant.understand.state import ConversationState

    state = ConversationState()
    for text in ["serve Qwen2.5-7B for a team of 30 people", "and for 60 users?", "what about 5 requests per second?"]:
        state = understanding.turn(text, state).state
    assert (state.get("users"), state.get("concurrency"), state.get("request_rate")) == (None, None, 5)


def test_restating_the_engine_keeps_its_release(understanding):
    from assistant.understand.state import ConversationState

    state = ConversationState()
    for text in ["serve qwen2.5-7b on vllm 0.6.3 for 40 users", "with vllm how many users fit on one H100?"]:
        state = understanding.turn(text, state).state
    assert (state.get("engine"), state.get("vllm_version")) == ("vllm", "0.6.3")


@pytest.mark.parametrize("turns, gone, kept", [
    # "forget my card" withdraws whichever hardware is in force
    (["qwen2.5-14b lora on my 24GB card?", "forget my card, what's the cheapest to rent?"], ["available_gib"], ["model"]),
    (["qwen2.5-14b lora on 2 RTX 4090s?", "forget my cards, what would you rent?"], ["gpus", "gpu_count"], ["model"]),
    # a value stated beside the withdrawal is the new one
    (["qwen2.5-14b lora, budget $300 a month", "forget the budget, budget is now $500"], [], ["budget"]),
])
def test_withdrawals_in_the_state(understanding, turns, gone, kept):
    from assistant.understand.state import ConversationState

    state = ConversationState()
    for text in turns:
        state = understanding.turn(text, state).state
    assert not any(state.has(n) for n in gone), state.values()
    assert all(state.has(n) for n in kept), state.values()
    if "budget" in kept:
        assert state.get("budget").amount == 500


def test_the_recommender_sizes_the_kv_pool_by_the_vllm_generation():
    """ServingLoad's vLLM generation reaches the estimator: V0's profile run holds the whole context, a smaller pool."""
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings
    from tools.recommend_serving import ServingPlanner
    from tools.schemas import ServingLoad

    cat = load_catalog(Settings.load())
    model, gpu = cat.model("llama-3.1-8b"), cat.gpu("RTX-3090")
    pools = {}
    for engine in ("v0", "v1"):
        planner = ServingPlanner(model, ServingLoad(concurrency=4, input_len=19744, output_len=256, vllm_engine=engine), 8)
        est = planner.estimate(gpu, 1, 1, planner.spec.weights or "bf16", 1)
        pools[engine] = est.kv_cache_gib
    assert pools["v0"] < pools["v1"], pools


@pytest.mark.slow
def test_a_follow_up_pick_keeps_the_release_and_the_recommender_uses_it():
    from assistant import Advisor

    advisor = Advisor()
    advisor.ask("serve Qwen2.5-14B to 40 concurrent users with 4k context on vllm 0.6.3, what should I rent?")
    answer = advisor.ask("and for 20 users?")
    rec = [c for c in answer.tool_calls if c.name == "recommend_config"]
    # the release carried over; the load is the new one (20 users, mapped to concurrency by the stated assumption)
    assert rec and rec[0].args.get("vllm_version") == "0.6.3" and rec[0].args.get("concurrency") not in (None, 40), rec
    assert answer.recommendation is not None and not answer.unbacked
