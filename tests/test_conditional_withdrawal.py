"""Hardware withdrawn only if it falls short ("if the A10G can't fit it, drop the GPU requirement"): the state drops
it as the corpus labels it, the answer checks it first (assistant/understand/conditions.py, the ``check`` extra)."""

from __future__ import annotations

import pytest

from assistant import Advisor
from assistant.understand import ConversationState, Understanding
from knowledge.catalog import load_catalog


@pytest.fixture(scope="module")
def understanding() -> Understanding:
    return Understanding(load_catalog())


def held_after(understanding: Understanding, *turns: str):
    state = ConversationState()
    tr = None
    for turn in turns:
        tr = understanding.turn(turn, state)
        state = tr.state
    return tr


@pytest.mark.parametrize(
    "turns, gpus, count",
    [
        (["LoRA fine-tune Llama-3-8B. If the A10G can't fit it, drop the GPU requirement and tell me what to rent."],
         ("A10G",), None),
        (["Qwen2.5-7B LoRA，如果4090跑不了就不用管卡了，推荐一个"], ("RTX-4090",), None),
        # the hardware in force, when the condition names none
        (["LoRA Llama-3-8B on 2x L4, fits?", "if they can't do it, forget my L4s, what should I rent instead?"], ("L4",), 2),
        # the count stated with the GPU in the condition, or the count in force for that GPU
        (["LoRA Qwen2.5-14B. If 2 A10Gs can't fit it, drop the GPU requirement and tell me what to rent."], ("A10G",), 2),
        (["Qwen2.5-14B LoRA on 4 A10Gs?", "If the A10G can't fit it, drop the GPU requirement, what should I rent?"],
         ("A10G",), 4),
    ],
)
def test_the_hardware_a_withdrawal_depends_on_is_held(understanding, turns, gpus, count):
    tr = held_after(understanding, *turns)
    assert tr.held is not None and tr.held.gpus == gpus and tr.held.gpu_count == count, tr.held
    assert tr.state.get("gpus") is None  # the state drops it, as the corpus labels a conditional withdrawal


@pytest.mark.parametrize(
    "turn",
    [
        "forget my card, what should I rent for Qwen2.5-7B LoRA?",  # withdrawn outright
        "LoRA Llama-3-8B on an A10G. If Aliyun doesn't have it, forget the GPU, any provider is fine",  # stock, not fit
        "LoRA Llama-3-8B on an A10G, fits?",  # nothing withdrawn
        # conditions on stock or billing, not on the card holding the job
        "LoRA Llama-3-8B. If the A10G isn't available, drop the GPU requirement and tell me what to rent.",
        "LoRA Llama-3-8B. If you can't find an A10G, drop the GPU requirement.",
        "Qwen2.5-7B LoRA，如果4090没法按小时租就不用管卡了，推荐一个",
    ],
)
def test_nothing_is_held_without_a_condition_on_the_hardware(understanding, turn):
    """Each of these withdraws the GPU or names none in its condition (checked beside), and none is held."""
    assert held_after(understanding, turn).held is None


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, lead, gpu_words, intro",
    [
        ("LoRA fine-tune Llama-3-8B. If the A10G can't fit it, drop the GPU requirement and tell me what to rent.",
         "**Yes.**", "one A10G", "**What to rent for it:**"),
        ("LoRA fine-tune Llama-3-8B. If the T4 can't fit it, drop the GPU requirement and tell me what to rent.",
         "**No", "T4", "**What to rent instead:**"),
    ],
)
def test_the_held_gpu_is_checked_before_what_to_rent(question, lead, gpu_words, intro):
    advisor = Advisor()
    a = advisor.ask(question)
    assert not a.unbacked, a.unbacked
    first = a.answer.split("\n\n")[0]
    assert a.answer.startswith(lead) and gpu_words in first, first
    assert a.answer.index(intro) > len(first), a.answer[:400]
    names = [c.name for c in a.tool_calls]
    assert "estimate_vram" in names and "recommend_config" in names
    recs = [c for c in a.tool_calls if c.name == "recommend_config"]
    assert "gpu" not in recs[0].args  # what to rent instead is not bound to the card the user was ready to drop
    if lead == "**Yes.**":  # it holds the job: the condition is false, the requirement stands — rent that card
        assert len(recs) == 2 and recs[1].args["gpu"] == "A10G" and a.recommendation["gpu"] == "A10G"
        assert not recs[0].shown and "Rent 1× A10G" in a.answer
    else:
        assert len(recs) == 1 and a.recommendation["gpu"] != "T4"
    assert advisor.state.get("gpus") is None
    follow = advisor.ask("and with QLoRA?")  # the next turn no longer checks the dropped card
    assert "A10G" not in follow.answer.split("\n\n")[0] and "T4" not in follow.answer.split("\n\n")[0]


def test_the_users_own_card_is_held_as_owned(understanding):
    tr = held_after(understanding, "I have 2 L4s. LoRA Llama-3-8B on them?", "if they can't do it, forget my L4s, what should I rent?")
    assert tr.held is not None and tr.held.owned and tr.held.values()["owned"] is True
