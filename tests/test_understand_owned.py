"""A GPU the user says they have is theirs to check, not a constraint on what to rent (SlotUpdate.owned)."""

from __future__ import annotations

import pytest

from assistant.understand import Understanding
from assistant.understand.state import ConversationState
from knowledge.catalog import load_catalog
from knowledge.settings import Settings


@pytest.fixture(scope="module")
def understanding() -> Understanding:
    return Understanding(load_catalog(Settings.load()))


@pytest.mark.parametrize("text, owned", [
    ("I have one 4090. What should I rent to lora Qwen2.5-32B?", True),
    ("we've got 2x a100 at the lab, what else should we rent?", True),
    ("can my 4090 run llama 3 8b?", True),
    ("我手上有两张3090，想微调qwen2.5-14b，租什么卡？", True),
    ("我们实验室的A100能全量微调7B吗", True),
    ("I have $500, should I rent 2 A100s?", None),  # the money is theirs, the A100s are to rent
    ("what should I rent, A100 or H100?", None),
    ("rent 4 4090s for me", None),
    ("预算有2w，租4张4090够吗", None),
    ("should my team rent H100s for lora qwen2.5-32b?", None),  # review: a gap reaching a rent word is no ownership
    ("my budget for an H100 is $2/h", None),
    ("我的预算租A100够吗", None),
    ("we use 8 H100s on AWS", None),
])
def test_owned_is_read_only_where_the_cue_reaches_the_gpu(understanding, text, owned):
    assert understanding.read(text).update.owned is owned


def test_gpus_named_later_without_the_cue_are_no_longer_owned(understanding):
    state = ConversationState()
    for text in ("I have a 4090, can it lora qwen2.5-7b?", "ok and what about renting an A100 instead?"):
        state = understanding.turn(text, state).state
    assert state.get("gpus") == ["A100-80GB"] and not state.has("owned")


def test_withdrawing_the_owned_card_withdraws_the_ownership(understanding):
    state = ConversationState()
    for text in ("I have a 4090, can it lora qwen2.5-7b?", "forget my card. what should I rent, 4 GPUs max?"):
        state = understanding.turn(text, state).state
    assert not state.has("gpus") and not state.has("owned")


def test_what_to_rent_for_training_after_a_serving_question_is_a_recommendation(understanding):
    # newcomer check: after a serving question, "what should I rent to lora …" was read as a fit check only
    first = understanding.turn("部署一个 7B 模型，每天 10 万次请求，用什么卡最划算？", ConversationState())
    turn = understanding.turn("I have one 4090. What should I rent to lora finetune Qwen2.5-32B?", first.state)
    assert turn.decision.frame.value == "recommend" and turn.state.get("owned") is True
