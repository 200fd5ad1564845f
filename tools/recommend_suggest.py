"""When nothing fits: re-run the recommender with one change at a time and say what works.

Every suggestion is verified: it is a `Suggestion` whose `change` is what to
change (a `Change`, shown as flags on the CLI and as advice in the chat) and
whose `outcome` is a note with the re-run's own numbers (its best option). A
change that fits but still misses the budget says so with the cheapest cost,
which also tells the user how much budget the change needs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tools.catalog import Catalog
from tools.domain import Checkpointing, Currency, Mode, ModelSpec, Precision, RegionScope
from tools.notes import Change, ChangeKind, Note, Suggestion
from tools.recommend_codes import RecommendCode as C
from tools.recommend_memory import TRAINING_MODES
from tools.schemas import ExchangeRate, RecommendRequest
from tools.serving_profiles import WeightFormat

if TYPE_CHECKING:
    from tools.schemas import Option, Recommendation

BIG_CLUSTER_GPUS = 64  # multi-node suggestion: up to 8 nodes of 8 GPUs


def _changes(model: ModelSpec | None, request: RecommendRequest) -> list[tuple[Change, dict]]:
    """(the change, the update to the request) for every change worth trying, cheapest edit first."""
    vram = request.vram
    out: list[tuple[Change, dict]] = []

    def vram_change(change: Change, **update) -> None:
        out.append((change, {"vram": vram.model_copy(update=update)}))

    if model is not None:
        if vram.mode in (Mode.full, Mode.pretrain):
            vram_change(Change.of(ChangeKind.set_mode, Mode.lora), mode=Mode.lora, precision=vram.precision)
        if vram.mode in (Mode.full, Mode.pretrain, Mode.lora):
            vram_change(Change.of(ChangeKind.set_mode, Mode.qlora), mode=Mode.qlora, precision=None)
        if vram.mode in TRAINING_MODES and vram.checkpointing not in (None, Checkpointing.full):
            vram_change(Change.of(ChangeKind.set_checkpointing, Checkpointing.full), checkpointing=Checkpointing.full)
        if vram.batch_size > 1:
            vram_change(Change.of(ChangeKind.set_batch_size, 1), batch_size=1)
        serving = request.serving
        if serving is None:
            if vram.mode == Mode.inference and vram.precision is not None and vram.precision.bytes_per_param > 1:
                vram_change(Change.of(ChangeKind.set_precision, Precision.int8), precision=Precision.int8)
            if vram.mode == Mode.inference and vram.precision is None:
                vram_change(Change.of(ChangeKind.set_precision, Precision.int4), precision=Precision.int4)
        elif serving.weights in (WeightFormat.bf16, WeightFormat.fp16):
            # a named 16-bit format: the quantised ones were not tried (without one they are shown beside)
            for fmt in (WeightFormat.fp8, WeightFormat.int4):
                out.append((Change.of(ChangeKind.set_weights, fmt), {"serving": serving.model_copy(update={"weights": fmt})}))
    if request.region != RegionScope.any:
        out.append((Change.of(ChangeKind.widen_region, RegionScope.any), {"region": RegionScope.any}))
    if request.providers:
        out.append((Change.of(ChangeKind.drop_providers), {"providers": []}))
    if request.gpu:
        out.append((Change.of(ChangeKind.drop_gpu_filter), {"gpu": None}))
    if request.billing is not None:
        out.append((Change.of(ChangeKind.drop_billing), {"billing": None}))
    if request.max_gpus < BIG_CLUSTER_GPUS:
        out.append((Change.of(ChangeKind.set_max_gpus, BIG_CLUSTER_GPUS), {"max_gpus": BIG_CLUSTER_GPUS}))
    return out


def _period_cost(option: "Option", period: str) -> float | None:
    return {"hour": option.price_per_hour, "month": option.monthly_cost, "job": option.job_cost}[period]


def _describe(best: "Option", period: str) -> Note:
    """An option in one line: where, what, memory per GPU and its cost for the period (None: price unknown)."""
    return Note.of(
        C.suggest_option, provider=best.provider, instance=best.instance, nodes=best.nodes, gpu_count=best.gpu_count,
        gpu=best.gpu, needed_gib=best.per_gpu_gib, cost=_period_cost(best, period), currency=best.currency, period=period,
    )


def _first_priced(rec: "Recommendation") -> "Option | None":
    """The best priced option within the budget (not the over-budget one shown when none fits)."""
    return next((o for o in rec.options if o.price_per_hour is not None and o.within_budget is not False), None)


def suggestions(
    catalog: Catalog, model: ModelSpec | None, request: RecommendRequest, fx: ExchangeRate, currency: Currency,
    *, today=None, cache: dict | None = None,
) -> list[Suggestion]:
    """Verified suggestions for a request that had no options (each one a re-run of `recommend`)."""
    from functools import partial

    from tools.recommend import recommend as _recommend
    from tools.recommend_memory import TRAINING_MODES
    from tools.recommend_rank import need_of

    recommend = partial(_recommend, today=today, _cache=cache)

    # what the answer prices: a training job of known size by its whole cost, as the ranking does (need_of)
    period = need_of(request, request.vram.mode in TRAINING_MODES)
    out: list[Suggestion] = []
    request = request.model_copy(update={"currency": currency})
    baseline: float | None = None  # cheapest fitting cost with no change but the budget
    if request.budget is not None:
        best = _first_priced(recommend(catalog, model, request.model_copy(update={"budget": None}), fx, suggest=False))
        if best is not None:
            baseline = _period_cost(best, period)
            # rounded up to a whole unit of money, so the budget it names does hold the option
            change = Change.of(ChangeKind.raise_budget, math.ceil(baseline), currency) if baseline is not None else None
            out.append(Suggestion(change=change, outcome=Note.of(C.suggest_raise_budget, best=_describe(best, period))))
    for change, update in _changes(model, request):
        changed = request.model_copy(update=update)
        try:
            rec = recommend(catalog, model, changed, fx, suggest=False)
        except ValueError:  # InputError/ValidationError: the change is invalid for this workload
            continue
        priced = _first_priced(rec)
        if priced is not None:
            n = sum(1 for o in rec.options if o.price_per_hour is not None)
            outcome = Note.of(C.suggest_fits, options=n, budget=request.budget is not None, best=_describe(priced, period))
            out.append(Suggestion(change=change, outcome=outcome))
            continue
        free_best = None
        if request.budget is not None:
            free = recommend(catalog, model, changed.model_copy(update={"budget": None}), fx, suggest=False)
            free_best = _first_priced(free)
            cost = _period_cost(free_best, period) if free_best is not None else None
            if cost is not None and baseline is not None and cost >= baseline:
                free_best = None  # no cheaper than raising the budget alone: nothing new to say
        if free_best is not None:
            outcome = Note.of(
                C.suggest_over_budget, budget=request.budget, currency=currency, best=_describe(free_best, period),
                also=_describe(rec.options[0], period) if rec.options else None,
            )
            out.append(Suggestion(change=change, outcome=outcome))
        elif rec.options:
            out.append(Suggestion(change=change, outcome=Note.of(C.suggest_fits_on, best=_describe(rec.options[0], period))))
    if not out:
        tried = list(dict.fromkeys(change.kind.value for change, _ in _changes(model, request)))
        out.append(Suggestion(change=None, outcome=Note.of(C.suggest_none, tried=tried)))
    return out
