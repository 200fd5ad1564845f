"""The capability table beside a frame's own answer (assistant/offline/handlers/extras.py): which turns get a recommendation
under their verdict, and that it is planned for the verdict's workload, unbound by the hardware the verdict checks."""

from __future__ import annotations

import pytest

from assistant.offline.context import TurnContext
from assistant.offline.handlers.extras import applicable, plan_extras
from assistant.offline.handlers.memory import FeasibilityHandler, MemoryHandler

BUDGET = {"amount": 20000.0, "currency": "CNY", "per": "month"}


def ctx(frame: str, **slots) -> TurnContext:
    return TurnContext(frame=frame, slots=slots, lang="zh", stated=list(slots))


@pytest.mark.parametrize(
    "frame, slots, keys",
    [
        ("feasibility", {"model": "qwen2.5-14b", "gpus": ["RTX-4090"], "gpu_count": 4, "budget": BUDGET}, ["rec"]),
        ("memory", {"model": "qwen2.5-14b", "budget": BUDGET}, ["rec"]),
        ("feasibility", {"model": "qwen2.5-14b", "gpus": ["RTX-4090"]}, []),  # no budget: the verdict alone
        ("feasibility", {"gpus": ["RTX-4090"], "budget": BUDGET}, []),  # no workload: nothing to size
        ("recommend", {"model": "qwen2.5-14b", "budget": BUDGET}, []),  # the frame's own answer is the recommendation
        ("serving", {"model": "qwen2.5-14b", "budget": BUDGET}, []),
    ],
)
def test_which_turns_get_what(frame, slots, keys):
    assert [e.key for e in applicable(ctx(frame, **slots))] == keys


@pytest.mark.parametrize("handler", [FeasibilityHandler(), MemoryHandler()])
def test_the_recommendation_sizes_the_verdicts_job_on_any_hardware(handler):
    turn = ctx("feasibility", model="llama-3-70b", mode="inference", gpus=["RTX-4090"], gpu_count=2, budget=BUDGET)
    plan = handler.plan(turn, env=None)
    calls = {c.key: c for c in plan.calls}
    assert {"main", "rec"} <= set(calls)
    rec = calls["rec"].args
    assert "gpu" not in rec and "max_gpus" not in rec  # what to rent instead is not bound to the 4090s
    assert rec["budget"] == 20000.0 and rec["budget_currency"] == "CNY" and rec["period"] == "month"
    for key in ("model", "mode", "batch_size", "seq_len", "precision"):
        assert rec.get(key) == calls["main"].args.get(key), key  # one job in one answer
    assert sum(c.name == "search_guidance" for c in plan.calls) == 2  # the verdict's searches, none of its own


def test_no_budget_no_recommendation_call():
    plan = FeasibilityHandler().plan(ctx("feasibility", model="qwen2.5-14b", gpus=["RTX-4090"]), env=None)
    assert [c.name for c in plan.calls if c.name != "search_guidance"] == ["estimate_vram"]
    plan = TurnContext(frame="feasibility", slots={"model": "x"})
    plan_extras(plan, FeasibilityHandler().estimate_plan(plan, env=None))  # no budget: a no-op, no error


@pytest.mark.parametrize(
    "slots, timed",
    [
        ({"model": "qwen2.5-7b", "mode": "lora", "gpus": ["RTX-4090"], "tokens": 5e7}, True),
        ({"model": "qwen2.5-7b", "mode": "lora", "gpus": ["RTX-4090"], "gpu_count": 2, "tokens": 5e7, "epochs": 3}, True),
        ({"model": "qwen2.5-7b", "mode": "lora", "tokens": 5e7}, False),  # no hardware: no time on it
        ({"model": "qwen2.5-7b", "mode": "inference", "gpus": ["RTX-4090"], "tokens": 5e7}, False),  # nothing to train
    ],
)
def test_the_data_size_and_the_hardware_add_how_long_training_takes(slots, timed):
    plan = FeasibilityHandler().plan(ctx("feasibility", **slots), env=None)
    calls = {c.key: c for c in plan.calls}
    assert ("time" in calls) is timed
    if timed:
        t = calls["time"].args
        assert (t["gpu"], t["gpus"], t["tokens"], t["mode"]) == ("RTX-4090", slots.get("gpu_count", 1), 5e7, "lora")
        assert t.get("epochs") == slots.get("epochs")


def test_a_recommendation_for_someone_with_memory_first_checks_it():
    from assistant.offline.handlers.recommend import RecommendHandler

    turn = ctx("recommend", model="qwen2.5-14b", mode="lora", available_gib=12.0, budget=BUDGET)
    calls = {c.key: c for c in RecommendHandler().plan(turn, env=None).calls}
    check = calls["check"].args
    assert check["fit_targets"] == [{"available_gib": 12.0, "count": 1}]
    assert {k: check.get(k) for k in ("model", "mode", "seq_len")} == {k: calls["rec"].args.get(k) for k in ("model", "mode", "seq_len")}
    earlier = TurnContext(frame="recommend", slots=turn.slots, stated=["budget"])  # the 12 GB was said turns ago
    assert "check" not in {c.key for c in RecommendHandler().plan(earlier, env=None).calls}


def _results(*targets):
    from assistant.offline.handlers.base import Outcome, Results

    main = Outcome(name="estimate_vram", key="main", args={}, result={"fit": {"targets": [
        {"fits": fits, "target": {"gpu": gpu}} for gpu, fits in targets]}})
    return Results([main])


@pytest.mark.parametrize("targets, no, timed_on", [
    ([("RTX-4090", False)], True, None),
    ([("RTX-4090", False), ("A100-80GB", True)], False, "A100-80GB"),  # one of two holds it: not "rent instead"
    ([("A100-80GB", True)], False, "A100-80GB"),
    ([], False, "RTX-4090"),  # no hardware verdict (a memory question): nothing contradicts the time
])
def test_the_verdict_that_decides_what_is_added(targets, no, timed_on):
    from assistant.offline.handlers.extras import _fits_on, _verdict_no

    results = _results(*targets)
    assert _verdict_no(results) is no
    for gpu in ("RTX-4090", "A100-80GB"):
        assert _fits_on(results, gpu) is (timed_on == gpu or not targets)
