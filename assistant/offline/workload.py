"""From the conversation state to calculator arguments, with every default stated as a typed note.

Each slot becomes an argument here (what the stated workload adds beside a
frame's own answer is the data table in handlers/extras.py). A default the user
did not give becomes an `Assumption` note that the answer lists, with the one
question that would change the answer most.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.offline.context import TurnContext
from tools.notes import Note, NoteCode

DEFAULT_PARAMS = 7e9  # the size people ask about most
DEFAULT_FINETUNE_TOKENS = 1e8  # ~50k examples × 2k tokens: a typical instruction-tuning set
DEFAULT_TRAIN_GPU = "A100-80GB"
DEFAULT_SERVING_CONCURRENCY = 8  # a server holds several requests' KV caches at once
USERS_PER_CONCURRENT = 10  # of N people using a chat tool, about one in ten has a request in flight (stated)
GGUF_AS = {"q4_k_m": "int4", "q5_k_m": "int4", "q8_0": "int8"}  # for the memory estimate; the serving tool has their bits


class AssumeCode(NoteCode):
    model = "assume.model"  # params
    mode_finetune = "assume.mode_finetune"  # mode (the method assumed for "fine-tune")
    mode_default = "assume.mode_default"  # mode
    mode_small_full = "assume.mode_small_full"  # mode (training a model under SMALL_MODEL_PARAMS, no method said)
    gpu = "assume.gpu"  # gpu
    gpus = "assume.gpus"  # gpus
    tokens = "assume.tokens"  # tokens
    budget_period = "assume.budget_period"  # per
    budget_currency = "assume.budget_currency"  # currency
    budget_per_day = "assume.budget_per_day"  # amount_per_day, amount_per_hour, currency
    budget_per_year = "assume.budget_per_year"  # amount_per_year, amount_per_month, currency
    serving_batch = "assume.serving_batch"  # concurrency
    users = "assume.users"  # users, concurrency, ratio
    gguf = "assume.gguf"  # format, as
    deadline_weekday = "assume.deadline_weekday"  # weekday, date, hours
    deadline_date = "assume.deadline_date"  # date, hours
    deadline_unsized = "assume.deadline_unsized"  # hours: a limit with no length ("overnight", "by tomorrow", "明早")
    unknown_model_size = "assume.unknown_model_size"  # name, params
    family_member = "assume.family_member"  # family, model, others (display names)
    family_size = "assume.family_size"  # family, params: an LLM family named without a size
    month_hours = "assume.month_hours"  # hours


class AskCode(NoteCode):
    model = "ask.model"
    mode = "ask.mode"
    budget = "ask.budget"
    tokens = "ask.tokens"
    gpu = "ask.gpu"
    load = "ask.load"
    deadline = "ask.deadline"


@dataclass
class Defaults:
    """What a plan assumed, in the order the answer states it, and the one question to ask."""

    assumptions: list[Note] = field(default_factory=list)
    question: Note | None = None

    def assume(self, note: Note, ask: Note | None = None) -> None:
        if note not in self.assumptions:
            self.assumptions.append(note)
        if ask is not None and self.question is None:
            self.question = ask


def model_args(ctx: TurnContext, d: Defaults) -> dict[str, Any]:
    if ctx.has("model"):
        return {"model": ctx.get("model")}
    if ctx.has("params"):
        if ctx.has("model_name"):
            d.assume(Note.of(AssumeCode.unknown_model_size, name=ctx.get("model_name"), params=ctx.get("params")))
        return {"params": float(ctx.get("params"))}
    if ctx.family_members:  # "train Stable Diffusion": its smallest member, the others named, and the question asked
        names = ctx.family_names or ctx.family_members
        d.assume(Note.of(AssumeCode.family_member, family=ctx.get("model_name"), model=names[0], others=names[1:]), Note.of(AskCode.model))
        return {"model": ctx.family_members[0]}
    if ctx.has("model_name"):  # "Llama 推理要多少显存": the family is said, its size is not
        d.assume(Note.of(AssumeCode.family_size, family=ctx.get("model_name"), params=DEFAULT_PARAMS), Note.of(AskCode.model))
        return {"params": DEFAULT_PARAMS}
    d.assume(Note.of(AssumeCode.model, params=DEFAULT_PARAMS), Note.of(AskCode.model))
    return {"params": DEFAULT_PARAMS}


SMALL_MODEL_PARAMS = 1e9  # below this a training question with no method is full training, not LoRA


def mode_of(ctx: TurnContext, d: Defaults, *, training: bool | None = None, inference_default: bool = True) -> str:
    mode = ctx.mode
    wants_training = training if training is not None else bool(ctx.training)
    small = bool(ctx.workload_params and ctx.workload_params < SMALL_MODEL_PARAMS)
    if small and (mode == "finetune" or (mode is None and wants_training)):
        # ResNet, BERT-base, GPT-2: trained in full (adapters are for models too large to train whole)
        d.assume(Note.of(AssumeCode.mode_small_full, mode="full"), Note.of(AskCode.mode))
        return "full"
    if mode == "finetune":
        d.assume(Note.of(AssumeCode.mode_finetune, mode="lora"), Note.of(AskCode.mode))
        return "lora"
    if mode:
        return mode
    if wants_training or not inference_default:
        d.assume(Note.of(AssumeCode.mode_finetune, mode="lora"), Note.of(AskCode.mode))
        return "lora"
    d.assume(Note.of(AssumeCode.mode_default, mode="inference"))
    return "inference"


def precision_arg(ctx: TurnContext, d: Defaults, mode: str) -> str | None:
    p = ctx.get("precision")
    if p is None:
        return None
    if p in GGUF_AS:
        d.assume(Note.of(AssumeCode.gguf, format=p, **{"as": GGUF_AS[p]}))
        return GGUF_AS[p]
    if mode == "qlora" and p not in ("int4", "nf4"):
        return None
    if mode in ("full", "pretrain") and p in ("int8", "int4", "nf4"):
        return None
    return p


# the arguments `workload_args` can emit: what another calculation for the same job copies from a call's arguments
WORKLOAD_KEYS = ("model", "params", "mode", "precision", "seq_len", "batch_size", "lora_rank")


def workload_args(ctx: TurnContext, d: Defaults, *, training: bool | None = None, inference_default: bool = True) -> dict[str, Any]:
    args = model_args(ctx, d)
    mode = mode_of(ctx, d, training=training, inference_default=inference_default)
    args["mode"] = mode
    precision = precision_arg(ctx, d, mode)
    if precision:
        args["precision"] = precision
    for slot, arg in (("seq_len", "seq_len"), ("batch_size", "batch_size"), ("lora_rank", "lora_rank")):
        if ctx.has(slot):
            args[arg] = int(ctx.get(slot))
    return args


def serving_concurrency(ctx: TurnContext, d: Defaults) -> int:
    """Concurrent sequences to size the KV cache for: stated, or read from users (stated ratio), or the default."""
    if ctx.has("concurrency"):
        return int(ctx.get("concurrency"))
    if ctx.has("users"):
        c = max(1, round(int(ctx.get("users")) / USERS_PER_CONCURRENT))
        d.assume(Note.of(AssumeCode.users, users=int(ctx.get("users")), concurrency=c, ratio=USERS_PER_CONCURRENT))
        return c
    # 8 sequences is an LLM server's KV-cache assumption; an image, speech or encoder model serves a request at a time
    # unless told otherwise (its activations grow with the batch)
    default = DEFAULT_SERVING_CONCURRENCY if ctx.workload_kind in (None, "decoder") else 1
    d.assume(Note.of(AssumeCode.serving_batch, concurrency=default), Note.of(AskCode.load))
    return default


def budget_args(ctx: TurnContext, d: Defaults, currency: str, training: bool) -> dict[str, Any]:
    """Budget, its currency and the recommender's period (hour | month | job)."""
    budget = ctx.budget
    if not budget:
        return {}
    amount = float(budget["amount"])
    cur = budget.get("currency")
    if not cur:
        cur = currency
        d.assume(Note.of(AssumeCode.budget_currency, currency=cur))
    per = budget.get("per")
    if per is None:
        per = "month"
        d.assume(Note.of(AssumeCode.budget_period, per="month"))
    if per == "day":
        d.assume(Note.of(AssumeCode.budget_per_day, amount_per_day=amount, amount_per_hour=amount / 24, currency=cur))
        amount, per = amount / 24, "hour"
    elif per == "year":
        d.assume(Note.of(AssumeCode.budget_per_year, amount_per_year=amount, amount_per_month=amount / 12, currency=cur))
        amount, per = amount / 12, "month"
    elif per == "job" and not (training and ctx.has("tokens")):
        if not training:
            per = "month"
            d.assume(Note.of(AssumeCode.budget_period, per="month"))
    return {"budget": amount, "budget_currency": cur, "period": per}


def deadline_hours(ctx: TurnContext, d: Defaults, now) -> float | None:
    """A stated time limit in hours: a duration, or a weekday/date counted from now to the end of that day (the
    assumption says which day and how many hours, so a user who meant the morning can say so)."""
    import datetime as dt

    deadline = ctx.get("deadline") or {}
    if deadline.get("hours"):
        return float(deadline["hours"])
    today = now.date()
    names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    if deadline.get("weekday") in names:
        # the next such day: "by Friday" said on a Friday is next week's
        target = today + dt.timedelta(days=(names.index(deadline["weekday"]) - today.weekday()) % 7 or 7)
        hours = _hours_to_end_of(target, now)
        d.assume(Note.of(AssumeCode.deadline_weekday, weekday=deadline["weekday"], date=target.isoformat(), hours=hours))
        return hours
    if deadline.get("date"):
        raw = deadline["date"]
        try:
            if len(raw) == 5:  # MM-DD: this year, or next year when already past
                target = dt.date(today.year, int(raw[:2]), int(raw[3:]))
                if target < today:
                    target = dt.date(today.year + 1, target.month, target.day)
            else:
                target = dt.date.fromisoformat(raw)
        except ValueError:
            return None
        if target < today:
            return None
        hours = _hours_to_end_of(target, now)
        d.assume(Note.of(AssumeCode.deadline_date, date=target.isoformat(), hours=hours))
        return hours
    return None


def _hours_to_end_of(day, now) -> float:
    import datetime as dt

    return (dt.datetime.combine(day + dt.timedelta(days=1), dt.time()) - now).total_seconds() / 3600.0
