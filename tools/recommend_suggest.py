"""When nothing fits: re-run the recommender with one change at a time and say what works.

Every suggestion is verified: it names the change (with the CLI flag), and the
numbers in it come from the re-run's own best option. A change that fits but
still misses the budget says so with the cheapest cost, which also tells the
user how much budget the change needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tools.catalog import Catalog
from tools.domain import Checkpointing, Currency, Mode, ModelSpec, Precision, RegionScope
from tools.money import money
from tools.recommend_memory import TRAINING_MODES
from tools.schemas import ExchangeRate, RecommendRequest

if TYPE_CHECKING:
    from tools.schemas import Option, Recommendation

BIG_CLUSTER_GPUS = 64  # multi-node suggestion: up to 8 nodes of 8 GPUs


def _changes(model: ModelSpec | None, request: RecommendRequest) -> list[tuple[str, dict]]:
    """(label with flag, update to the request) for every change worth trying, cheapest edit first."""
    vram = request.vram
    out: list[tuple[str, dict]] = []

    def vram_change(label: str, **update) -> None:
        out.append((label, {"vram": vram.model_copy(update=update)}))

    if model is not None:
        if vram.mode in (Mode.full, Mode.pretrain):
            vram_change("use LoRA (--mode lora)", mode=Mode.lora, precision=vram.precision)
        if vram.mode in (Mode.full, Mode.pretrain, Mode.lora):
            vram_change("use QLoRA, a 4-bit base (--mode qlora)", mode=Mode.qlora, precision=None)
        if vram.mode in TRAINING_MODES and vram.checkpointing not in (None, Checkpointing.full):
            vram_change("turn on full gradient checkpointing (--checkpointing full)", checkpointing=Checkpointing.full)
        if vram.batch_size > 1:
            vram_change("use batch size 1 with gradient accumulation (--batch-size 1)", batch_size=1)
        if vram.mode == Mode.inference and vram.precision is not None and vram.precision.bytes_per_param > 1:
            vram_change("serve 8-bit weights (--precision int8)", precision=Precision.int8)
        if vram.mode == Mode.inference and vram.precision is None:
            vram_change("serve 4-bit weights (--precision int4)", precision=Precision.int4)
    if request.region != RegionScope.any:
        out.append(("search every region (--region any)", {"region": RegionScope.any}))
    if request.providers:
        out.append(("drop the provider filter", {"providers": []}))
    if request.gpu:
        out.append(("allow any GPU model (drop --gpu)", {"gpu": None}))
    if request.billing is not None:
        out.append(("allow any billing mode (drop --billing)", {"billing": None}))
    if request.max_gpus < BIG_CLUSTER_GPUS:
        out.append((f"allow a multi-node cluster (--max-gpus {BIG_CLUSTER_GPUS})", {"max_gpus": BIG_CLUSTER_GPUS}))
    return out


def _describe(best: "Option", period: str) -> str:
    where = f"{best.provider}/{best.instance}"
    shape = f"{best.nodes} × {best.gpu_count:g} × {best.gpu}" if best.nodes > 1 else f"{best.gpu_count:g} × {best.gpu}"
    if best.price_per_hour is None:
        return f"{where} ({shape}, {best.per_gpu_gib:.1f} GiB per GPU; price unknown — check the console)"
    cost = {"hour": best.price_per_hour, "month": best.monthly_cost, "job": best.job_cost}[period]
    unit = {"hour": "/h", "month": "/month", "job": " for the job"}[period]
    return f"{where} ({shape}, {best.per_gpu_gib:.1f} GiB per GPU) at {money(cost, best.currency)}{unit}"


def _first_priced(rec: "Recommendation") -> "Option | None":
    return next((o for o in rec.options if o.price_per_hour is not None), None)


def _period_cost(option: "Option", period: str) -> float | None:
    return {"hour": option.price_per_hour, "month": option.monthly_cost, "job": option.job_cost}[period]


def suggestions(
    catalog: Catalog, model: ModelSpec | None, request: RecommendRequest, fx: ExchangeRate, currency: Currency
) -> list[str]:
    """Verified suggestions for a request that had no options (each one a re-run of `recommend`)."""
    from tools.recommend import recommend

    period = request.period
    out: list[str] = []
    request = request.model_copy(update={"currency": currency})
    baseline: float | None = None  # cheapest fitting cost with no change but the budget
    if request.budget is not None:
        best = _first_priced(recommend(catalog, model, request.model_copy(update={"budget": None}), fx, suggest=False))
        if best is not None:
            baseline = _period_cost(best, period)
            out.append(f"Raise the budget: the cheapest fitting option is {_describe(best, period)}.")
    for label, update in _changes(model, request):
        label = label[0].upper() + label[1:]
        changed = request.model_copy(update=update)
        try:
            rec = recommend(catalog, model, changed, fx, suggest=False)
        except ValueError:  # InputError/ValidationError: the change is invalid for this workload
            continue
        priced = _first_priced(rec)
        if priced is not None:
            n = sum(1 for o in rec.options if o.price_per_hour is not None)
            verb = ("fit" if n > 1 else "fits") + (" the budget" if request.budget is not None else "")
            out.append(f"{label}: {n} priced option{'s' if n > 1 else ''} {verb}; best {_describe(priced, period)}.")
            continue
        free_best = None
        if request.budget is not None:
            free = recommend(catalog, model, changed.model_copy(update={"budget": None}), fx, suggest=False)
            free_best = _first_priced(free)
            cost = _period_cost(free_best, period) if free_best is not None else None
            if cost is not None and baseline is not None and cost >= baseline:
                free_best = None  # no cheaper than raising the budget alone: nothing new to say
        if free_best is not None:
            text = (
                f"{label}: fits, but over your {money(request.budget, currency)} budget; "
                f"cheapest priced {_describe(free_best, period)}"
            )
            if rec.options:
                text += f"; also {_describe(rec.options[0], period)}"
            out.append(text + ".")
        elif rec.options:
            out.append(f"{label}: fits on {_describe(rec.options[0], period)}.")
    if not out:
        tried = "; ".join(label for label, _ in _changes(model, request)) or "no change applies"
        out.append(f"No single change makes this fit in the catalog (tried: {tried}): check the model size and sequence length.")
    return out
