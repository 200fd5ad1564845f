"""A withdrawal names what is in force (assistant.understand.retract_in_force), table-driven."""

from __future__ import annotations

import pytest

from assistant.understand import retract_in_force
from assistant.understand.names import NameMatcher
from assistant.understand.reader import Reader
from assistant.understand.slots import Deadline, Frame, Money, SlotUpdate
from assistant.understand.state import ConversationState
from knowledge.catalog import load_catalog

IN_FORCE = ConversationState().advance(
    SlotUpdate(deadline=Deadline(hours=72.0), budget=Money(amount=2.0, currency="USD", per="hour")), Frame.recommend)

CASES = [
    # "no rush" in a question that set no deadline withdraws nothing
    (ConversationState(), ["deadline"], []),
    # the deadline in force is withdrawn
    (IN_FORCE, ["deadline"], ["deadline"]),
    # only the one in force stays: the budget was set, no billing was
    (IN_FORCE, ["budget", "billing"], ["budget"]),
    # "不限厂商" / "any provider is fine" is retract: [providers] even with none stated (README, session 8)
    (IN_FORCE, ["budget", "providers"], ["budget", "providers"]),
    (ConversationState(), ["providers"], ["providers"]),
    # hardware is hardware_in_force's to trim ("forget my card" with none in force still withdraws the GPU)
    (ConversationState(), ["gpus"], ["gpus"]),
]


@pytest.mark.parametrize("state,retract,kept", CASES)
def test_retract_in_force(state, retract, kept):
    assert retract_in_force(SlotUpdate(retract=retract), state).retract == kept


@pytest.mark.parametrize(
    "text, withdrawn",
    [
        ("4090要是搞不定就别管它们了", True),  # the README's conditional withdrawal: the pronoun is the GPU just named
        ("Qwen2.5-7B LoRA，4090要是搞不定就别管它了，推荐一个", True),
        ("if they can't do it, forget the GPUs, what should I rent instead?", True),
        ("这个报错别管它了，先说能不能跑", False),  # no GPU named before the pronoun: not the hardware
        ("4090上跑的时候报错了，别管它了", False),  # the GPU is named in an earlier clause: "it" is the error
        ("forget them, what about the budget?", False),
    ],
)
def test_a_pronoun_withdraws_the_gpu_named_before_it(text, withdrawn):
    update = Reader(NameMatcher(load_catalog())).read(text).update
    assert ("gpus" in update.retract) is withdrawn, update.retract



HARDWARE = {"gpus", "gpu_count", "available_gib"}  # "drop the GPUs" withdraws whichever hardware is in force


@pytest.mark.parametrize(
    "text, withdrawn",
    [
        ("drop the GPUs and the budget, what's cheapest?", HARDWARE | {"budget"}),  # one dismissal, a list of topics
        ("forget the budget and the provider", {"budget", "providers"}),
        ("forget the budget, the region and the provider", {"budget", "region", "providers"}),
        ("budget and deadline don't matter", {"budget", "deadline"}),  # the dismissal after the list
        ("预算和卡型都不限，推荐一个", {"budget", "gpus"}),
        ("别管预算和厂商了", {"budget", "providers"}),
        ("I have 4 A100s and the budget doesn't matter", {"budget"}),  # a GPU the user has is not joined backwards
        ("ignore the budget, the GPU must be an A100", {"budget"}),  # a comma starts a new statement here
        ("forget the budget", {"budget"}),
    ],
)
def test_topics_listed_with_a_withdrawn_one_are_withdrawn_with_it(text, withdrawn):
    update = Reader(NameMatcher(load_catalog())).read(text).update
    assert set(update.retract) == withdrawn, update.retract


@pytest.mark.parametrize("text", ["eh, drop the gpu count, and spot is ok", "and on spot, any provider?"])
def test_a_value_beside_a_withdrawal_is_no_topic_of_it(text):
    """"spot" names a billing choice, not the billing constraint: listed beside a withdrawal it is kept."""
    assert "billing" not in Reader(NameMatcher(load_catalog())).read(text).update.retract
