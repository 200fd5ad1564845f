"""A withdrawal names what is in force (assistant.understand.retract_in_force), table-driven."""

from __future__ import annotations

import pytest

from assistant.understand import retract_in_force
from assistant.understand.slots import Deadline, Frame, Money, SlotUpdate
from assistant.understand.state import ConversationState

IN_FORCE = ConversationState().advance(
    SlotUpdate(deadline=Deadline(hours=72.0), budget=Money(amount=2.0, currency="USD", per="hour")), Frame.recommend)

CASES = [
    # "no rush" in a question that set no deadline withdraws nothing
    (ConversationState(), ["deadline"], []),
    # the deadline in force is withdrawn
    (IN_FORCE, ["deadline"], ["deadline"]),
    # only the one in force stays: the budget was set, no provider was
    (IN_FORCE, ["budget", "providers"], ["budget"]),
    # hardware is hardware_in_force's to trim ("forget my card" with none in force still withdraws the GPU)
    (ConversationState(), ["gpus"], ["gpus"]),
]


@pytest.mark.parametrize("state,retract,kept", CASES)
def test_retract_in_force(state, retract, kept):
    assert retract_in_force(SlotUpdate(retract=retract), state).retract == kept
