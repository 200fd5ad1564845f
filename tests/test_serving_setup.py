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
    # "80 users" replaces "40 concurrent users" (one load at a time); sglang drops vLLM's release
    assert seen == [("vllm", "0.6.3", "chat", 40, None), ("vllm", "0.6.3", "chat", None, 80),
                    ("sglang", None, "chat", None, 80)]


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
