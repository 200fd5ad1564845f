"""A second round of tool calls planned from the first's results (assistant/offline/brain.py `follow_ups`): where
nothing named holds the job, the time answer also times the cheapest change that makes it fit, on the same hardware."""

from __future__ import annotations

import pytest

from assistant import Advisor
from assistant.offline.handlers.base import Outcome, Results
from assistant.offline.handlers.training import changed_time_args

TIME_ARGS = {"model": "qwen2.5-14b", "mode": "full", "gpu": "RTX-4090", "gpus": 2, "tokens": 5e7}


def results(fits: bool, change: dict | None, stated: dict | None = None) -> Results:
    target = {"target": {"gpu": "RTX-4090", "count": 2}, "fits": fits}
    if change is not None:
        target["cheapest_change"] = {"change": change, "per_gpu_gib": 15.0, "headroom_gib": 9.0, "fits": True}
    return Results([Outcome("estimate_train_time", "time", {**TIME_ARGS, **(stated or {})}, {"hours": 1.0}),
                    Outcome("estimate_vram", "fit", {}, {"fit": {"targets": [target]}})])


@pytest.mark.parametrize(
    "fits, change, expected, stated",
    [
        (False, {"kind": "set_mode", "value": "qlora"}, {**TIME_ARGS, "mode": "qlora"}, None),
        # a stated precision is the full job's: QLoRA is timed as tools.fit tries it (4-bit base, 16-bit compute)
        (False, {"kind": "set_mode", "value": "qlora"}, {**TIME_ARGS, "mode": "qlora"}, {"precision": "fp32"}),
        (False, {"kind": "set_gpus", "value": 8}, {**TIME_ARGS, "gpus": 8}, None),
        (False, {"kind": "shorten_context", "value": 1024}, None, None),  # the time model does not see the context
        (False, None, None, None),  # nothing makes it fit
        (True, {"kind": "set_mode", "value": "qlora"}, None, None),  # it fits as stated: the stated time is the answer
    ],
)
def test_which_changes_are_timed(fits, change, expected, stated):
    assert changed_time_args(results(fits, change, stated)) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, intro, mode_words",
    [
        ("How long to fully fine-tune Qwen2.5-14B on 50M tokens with my 2 RTX 4090s?",
         "With that change:", "(QLoRA fine-tuning)"),
        ("用两张4090全量微调Qwen2.5-14B，5000万token要多久？", "这样改之后：", "（QLoRA 微调）"),
    ],
)
def test_the_change_that_makes_it_fit_is_timed_too(question, intro, mode_words):
    a = Advisor().ask(question)
    assert not a.unbacked, a.unbacked
    times = [c for c in a.tool_calls if c.name == "estimate_train_time"]
    assert [c.args["mode"] for c in times] == ["full", "qlora"]  # the stated job, then the change, once each
    assert times[1].args["gpus"] == 2 and times[1].args["gpu"] == "RTX-4090"
    at = a.answer.index(intro)
    assert a.answer.index(mode_words) > at > a.answer.index("QLoRA")  # after the verdict that proposes it
