"""What the stated workload adds beside the frame's own answer: a data table, not branches.

Issue 9's plan: a model always gets a memory estimate; with hardware, a verdict;
with a budget, a recommendation within it — "Qwen2.5-14B 全量微调，4 张 4090
能跑吗？不行的话预算每月2w租什么？" is a feasibility question whose answer goes on
to what to rent; with the data size and the hardware, how long training takes
on it (said only where the verdict is that it fits). The mirror: a recommendation
for someone who says what they have ("I have 24 GB — if that's not enough, what
should I rent?") first says whether that is enough. Each row names the frames it extends, the slots that must be
in the state, and the plan key its result comes back under; the handlers plan
and compose the rows that apply (`plan_extras`, `extra_blocks`).
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.offline.blocks import Block, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import Cited, Env, Plan, Results
from assistant.offline.handlers.fit_notes import verdict
from assistant.offline.handlers.rental import compose_recommendation, recommend_plan
from assistant.offline.handlers.training import time_lead
from assistant.offline.workload import WORKLOAD_KEYS
from assistant.understand.frames import TRAINING_MODE_VALUES
from assistant.understand.slots import Frame
from tools.notes import Note, NoteCode


class ExtraCode(NoteCode):
    rent_instead = "extra.rent_instead"  # the verdict was no: what to rent instead, within the budget
    rent_within = "extra.rent_within"  # the verdict was yes (or there was none): what to rent, within the budget
    rent_instead_any = "extra.rent_instead_any"  # the same, with no budget stated
    rent_any = "extra.rent_any"


def rent_intro(no: bool, budget: bool) -> Note:
    """The line that introduces a recommendation under a verdict."""
    if budget:
        return Note.of(ExtraCode.rent_instead if no else ExtraCode.rent_within)
    return Note.of(ExtraCode.rent_instead_any if no else ExtraCode.rent_any)


@dataclass(frozen=True)
class Extra:
    key: str  # the plan key of its result
    frames: frozenset[Frame]
    needs: tuple[str, ...]  # slots that must all be in the state
    stated: tuple[str, ...] = ()  # slots that must be stated in this very turn
    modes: frozenset[str] | None = None  # the frame's calculation must be for one of these modes (None: any)


EXTRAS: tuple[Extra, ...] = (
    Extra("rec", frozenset({Frame.feasibility, Frame.memory}), ("budget",)),
    Extra("time", frozenset({Frame.feasibility, Frame.memory}), ("tokens", "gpus"), modes=TRAINING_MODE_VALUES),
    Extra("check", frozenset({Frame.recommend}), ("available_gib",), stated=("available_gib",)),
    # "I have one 4090, what should I rent?": the card they own is checked first, and is no constraint on the rental
    Extra("check", frozenset({Frame.recommend}), ("owned", "gpus"), stated=("owned",)),
    # "if the A10G can't fit it, drop the GPU": the hardware withdrawn on that condition is checked first
    Extra("check", frozenset({Frame.recommend}), ("held",)),
)


def checked_first(frame: Frame, held: object) -> Frame:
    """A conditional withdrawal of the hardware asks what to rent should it fall short: a recommendation, with the
    verdict on the held hardware first (the ``check`` row above). A question about time, cost or serving keeps its
    frame."""
    if held and frame in (Frame.feasibility, Frame.memory):
        return Frame.recommend
    return frame


def applicable(ctx: TurnContext) -> list[Extra]:
    if not ctx.has_workload:
        return []
    return [e for e in EXTRAS if ctx.frame in e.frames and all(ctx.has(s) or (s == "held" and ctx.held) for s in e.needs)
            and all(s in ctx.stated for s in e.stated)]


def plan_extras(ctx: TurnContext, plan: Plan) -> None:
    main = next((c for c in plan.calls if c.key in ("main", "rec")), None)
    for extra in applicable(ctx):
        if extra.modes is not None and (main is None or main.args.get("mode") not in extra.modes):
            continue
        if extra.key == "rec":
            # The GPUs the user named are what the verdict checks; what to rent instead is not bound to them.
            recommend_plan(ctx, plan, hardware=False, searches=False, workload=main.args if main else None)
        elif extra.key == "time" and main is not None:
            args = {k: main.args[k] for k in ("model", "params", "mode", "precision") if k in main.args}
            args.update(gpu=ctx.gpu, gpus=int(ctx.get("gpu_count") or 1), tokens=float(ctx.get("tokens")))
            if ctx.has("epochs"):
                args["epochs"] = float(ctx.get("epochs"))
            plan.call("estimate_train_time", "time", **args)
        elif extra.key == "check" and main is not None and not any(c.key == "check" for c in plan.calls):
            args = {k: v for k, v in main.args.items() if k in WORKLOAD_KEYS}
            hardware = ctx.held or ctx.slots
            count = int(hardware.get("gpu_count") or 1)
            if hardware.get("available_gib"):
                args["fit_targets"] = [{"available_gib": float(hardware["available_gib"]), "count": count}]
            else:
                args["fit_targets"] = [{"gpu": gpu, "count": count} for gpu in hardware.get("gpus") or []]
            plan.call("estimate_vram", "check", **args)


def result_targets(results: Results, key: str = "main") -> list[dict]:
    main = results.get(key)
    if main is None or main.error:
        return []
    return (main.result.get("fit") or {}).get("targets") or []


def _verdict_no(results: Results) -> bool:
    """No hardware the user named holds the job (with one of two that fits, the answer is not "rent instead")."""
    targets = result_targets(results)
    return bool(targets) and not any(t.get("fits") for t in targets)


def _fits_on(results: Results, gpu: str | None) -> bool:
    """The verdict on the GPU the time estimate ran on: yes, or there was no hardware verdict at all."""
    targets = result_targets(results)
    return not targets or any(t.get("fits") and t.get("target", {}).get("gpu") == gpu for t in targets)


def extra_blocks(ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> tuple[list[Block], list[Note]]:
    """The blocks the extras add under the frame's answer, and the tool notes they bring to its tail."""
    blocks: list[Block] = []
    notes: list[Note] = []
    rec = results.get("rec")
    if rec is not None and not rec.error:
        no = _verdict_no(results)
        # A budget stated earlier in the conversation shows the alternative only where the verdict is no; one stated
        # with this question is part of what it asks. A recommendation not shown is marked so that the answer's
        # structured pick (Answer.recommendation, the web panel) does not show what the text does not say.
        if not (no or "budget" in ctx.stated):
            plan.data.setdefault("unshown", []).append("rec")
        else:
            blocks.append(Para([rent_intro(no, budget=True)]))
            blocks.extend(compose_recommendation(ctx, plan, results, cited, env, embedded=True).blocks)
            notes.extend(Note.model_validate(a) for a in rec.result.get("assumptions", [])[:2] if isinstance(a, dict))
    time = results.get("time")
    if time is not None and not time.error and _fits_on(results, time.args.get("gpu")):
        blocks.insert(0, Para([time_lead(time, env)]))
        notes.extend(Note.model_validate(a) for a in time.result.get("assumptions", [])[:1] if isinstance(a, dict))
    return blocks, notes


def check_lead(ctx: TurnContext, results: Results, env: Env) -> list[Note]:
    """The verdict on the memory the user has, said before the recommendation ('check' above), and the line that
    introduces the recommendation under it."""
    check = results.get("check")
    targets = result_targets(results, "check")
    if len(targets) != 1:
        return []
    lead = verdict(targets[0], env.model_name(check.result["model"]), check.result["mode"])
    return [lead, rent_intro(not targets[0].get("fits"), budget=bool(ctx.budget))]
