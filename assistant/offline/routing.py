"""The first tool the planner calls for a frame, given the state: a data table, not branches.

Each row: frame -> (tool when the condition on the state holds, tool otherwise).
The understanding corpus labels `first_call` with the same rules
(tests/data/understanding/README.md), so routing accuracy measures this table.
"""

from __future__ import annotations

from typing import Callable

from assistant.understand.slots import FirstCall, Frame
from assistant.understand.state import ConversationState


def _hardware(state: ConversationState) -> bool:
    return state.has("gpus") or state.has("instance")


ROUTES: dict[Frame, tuple[FirstCall, Callable[[ConversationState], bool] | None, FirstCall | None]] = {
    Frame.feasibility: ("estimate_vram", None, None),
    Frame.memory: ("estimate_vram", None, None),
    Frame.recommend: ("recommend_config", None, None),
    Frame.train_time: ("estimate_train_time", None, None),
    Frame.deadline: ("estimate_train_time", None, None),
    Frame.cost: ("estimate_cost", _hardware, "recommend_config"),
    Frame.serving: ("estimate_serving", lambda s: s.has("gpus"), "recommend_config"),
    Frame.spec: ("lookup_catalog", None, None),
    Frame.comparison: ("compare_gpus", None, None),
    Frame.catalog_filter: ("filter_catalog", None, None),
    Frame.guidance: ("search_guidance", None, None),
    Frame.chitchat: ("none", None, None),
    Frame.out_of_scope: ("none", None, None),
}


def first_call(frame: Frame, state: ConversationState) -> FirstCall:
    tool, condition, otherwise = ROUTES[frame]
    if condition is None or condition(state):
        return tool
    return otherwise or tool
