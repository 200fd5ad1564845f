"""One handler per frame, registered in a table: a new question type touches one module and its tests."""

from __future__ import annotations

from assistant.offline.handlers.base import Cited, Env, Handler, Outcome, Plan, Results, ToolCall
from assistant.offline.handlers.catalog import ComparisonHandler, CostHandler, FilterHandler, SpecHandler
from assistant.offline.handlers.memory import FeasibilityHandler, MemoryHandler
from assistant.offline.handlers.recommend import RecommendHandler
from assistant.offline.handlers.serving import ServingHandler
from assistant.offline.handlers.talk import ChitchatHandler, GuidanceHandler, OutOfScopeHandler
from assistant.offline.handlers.training import DeadlineHandler, TrainTimeHandler
from assistant.understand.slots import Frame

HANDLERS: dict[Frame, Handler] = {
    h.frame: h
    for h in (
        FeasibilityHandler(), MemoryHandler(), RecommendHandler(), TrainTimeHandler(), DeadlineHandler(), CostHandler(),
        ServingHandler(), SpecHandler(), ComparisonHandler(), FilterHandler(), GuidanceHandler(), ChitchatHandler(),
        OutOfScopeHandler(),
    )
}

__all__ = ["HANDLERS", "Cited", "Env", "Handler", "Outcome", "Plan", "Results", "ToolCall"]
