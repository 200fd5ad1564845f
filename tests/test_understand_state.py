"""The conversation state, table-driven: one update per turn, retractions, fresh starts, settings vs typed values."""

from __future__ import annotations

import pytest

from assistant.understand.slots import Frame, Money, SlotUpdate
from assistant.understand.state import ConversationState, Preferences


def advance(state: ConversationState, frame: Frame = Frame.recommend, **slots) -> ConversationState:
    return state.advance(SlotUpdate(**slots), frame)


def test_follow_up_keeps_everything_else():
    s = advance(ConversationState(), model="llama-13b", mode="lora", budget=Money(amount=20000, currency="CNY", per="month"))
    s = advance(s, model="qwen2.5-14b")  # "and Qwen2.5-14B?"
    assert s.get("model") == "qwen2.5-14b"
    assert s.get("mode").value == "lora"
    assert s.get("budget").amount == 20000 and s.get("budget").per == "month"  # never becomes a $20k job budget


def test_retraction_removes_the_slot():
    s = advance(ConversationState(), budget=Money(amount=5000, currency="USD", per="month"), region="cn")
    s = advance(s, retract=["budget"])
    assert not s.has("budget") and s.get("region") == "cn"


def test_fresh_start_drops_earlier_slots_but_not_settings():
    s = ConversationState().with_preferences(Preferences(currency="CNY", region="cn"))
    s = advance(s, model="llama-13b", mode="full", gpu_count=4)
    s = advance(s, model="mistral-7b", mode="inference", starts_fresh=True)
    assert s.get("model") == "mistral-7b" and not s.has("gpu_count")
    assert s.get("region") == "cn" and s.currency.value == "CNY"


@pytest.mark.parametrize("typed_first", [True, False])
def test_the_latest_value_wins_typed_or_set(typed_first):
    s = ConversationState()
    if typed_first:
        s = advance(s, region="intl")
        s = s.with_preferences(Preferences(region="cn"))
        assert s.get("region") == "cn" and s.source("region") == "settings"
    else:
        s = s.with_preferences(Preferences(region="cn"))
        s = advance(s, region="intl")
        assert s.get("region") == "intl" and s.source("region") == "user"


def test_clearing_a_setting_keeps_typed_values():
    s = ConversationState().with_preferences(Preferences(billing="spot"))
    s = s.without_preferences(("billing",))
    assert not s.has("billing")
    s = advance(s, billing="monthly")
    s = s.without_preferences(("billing",))
    assert s.get("billing") == "monthly"  # the user said it; clearing the panel does not unsay it


def test_pasted_slots_are_tagged():
    s = ConversationState().advance(SlotUpdate(model="qwen2.5-14b", concurrency=20), Frame.serving, pasted_slots={"concurrency"})
    assert s.source("concurrency") == "pasted" and s.source("model") == "user"


def test_advance_cost_does_not_grow_with_the_conversation():
    import time

    s = ConversationState()
    for i in range(300):
        s = advance(s, gpu_count=(i % 8) + 1)
    t = time.perf_counter()
    for _ in range(100):
        s = advance(s, gpu_count=2)
    per_turn_ms = (time.perf_counter() - t) * 10
    # a 10x guard, not a speed target (benchmarks/understanding.md has those): a turn copies one small dict
    assert per_turn_ms < 5, per_turn_ms
    assert s.turn == 400
