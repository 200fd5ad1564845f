"""The advisor's tools as LangChain tools: schema + call + JSON result.

Thin by design (ARCHITECTURE.md): every number comes from `tools/` or the
catalog; these wrappers only resolve names and serialise. A tool never raises
into the agent loop: bad arguments come back as `{"error": "..."}` so the brain
(LLM or offline) can correct itself or explain the problem to the user.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Literal

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.resources import Resources
from tools.catalog import Catalog
from tools.domain import (
    Billing,
    Checkpointing,
    Currency,
    LoraTargets,
    Mode,
    ModelSpec,
    Optimizer,
    Precision,
    RegionScope,
    Sharding,
)
from tools.errors import AdvisorError, InputError, flatten_validation_error
from tools.schemas import CostRequest, RecommendRequest, TrainTimeRequest, VramRequest

MAX_REJECTED_SHOWN = 8
log = logging.getLogger(__name__)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkloadArgs(_Args):
    model: str | None = Field(default=None, description="model name from the catalog, e.g. 'llama-2-13b', 'Qwen2.5-7B'")
    params: float | None = Field(default=None, gt=0, description="raw parameter count, e.g. 13e9, when the model is unnamed")
    mode: Mode = Field(default=Mode.inference, description="inference | full | lora | qlora | pretrain")
    precision: Precision | None = Field(default=None, description="bf16 default; nf4 for qlora")
    batch_size: int = Field(default=1, gt=0)
    seq_len: int | None = Field(default=None, gt=0)
    lora_rank: int = Field(default=16, gt=0)
    lora_targets: LoraTargets = LoraTargets.all_linear
    optimizer: Optimizer = Optimizer.adamw
    gpus: int = Field(default=1, gt=0, description="GPUs the job is spread over")
    sharding: Sharding = Sharding.none
    checkpointing: Checkpointing | None = None


class VramArgs(WorkloadArgs):
    check_gpus: list[str] = Field(default_factory=list, description="GPU names to check the fit on; empty = common GPUs")


class TrainTimeArgs(_Args):
    model: str | None = None
    params: float | None = Field(default=None, gt=0)
    gpu: str = Field(description="GPU name, e.g. 'A100-80GB'")
    gpus: int = Field(default=1, gt=0)
    tokens: float = Field(gt=0, description="dataset tokens per epoch")
    epochs: float = Field(default=1.0, gt=0)
    mode: Mode = Mode.full
    precision: Precision | None = None
    mfu: float | None = Field(default=None, gt=0, le=1)
    deadline_hours: float | None = Field(default=None, gt=0)


class CostArgs(_Args):
    instance: str = Field(description="'provider/instance', e.g. 'aws/p4d.24xlarge'")
    hours: float | None = Field(default=None, gt=0, description="None = one month (730 h)")
    billing: Billing = Billing.on_demand
    currency: Currency = Currency.USD
    region: str | None = Field(default=None, description="region name; None = the cheapest listed")


class RecommendArgs(WorkloadArgs):
    required_gib: float | None = Field(default=None, gt=0, description="raw memory need instead of a model")
    budget: float | None = Field(default=None, gt=0)
    budget_currency: Currency | None = Field(default=None, description="currency the budget is in; default: `currency`")
    currency: Currency | None = Field(default=None, description="currency of the answer; CNY for region cn, else USD")
    period: Literal["hour", "month", "job"] = "month"
    region: RegionScope = RegionScope.any
    providers: list[str] = Field(default_factory=list)
    billing: Billing | None = None
    max_gpus: int = Field(default=8, gt=0)
    tokens: float | None = Field(default=None, gt=0)
    epochs: float = Field(default=1.0, gt=0)
    gpu: str | None = None


class SearchArgs(_Args):
    query: str = Field(description="what to look up in the guidance documents")
    k: int = Field(default=4, gt=0, le=10)
    lang: Literal["zh", "en"] | None = Field(default=None, description="preferred language of passages")


class LookupArgs(_Args):
    kind: Literal["gpu", "model", "provider", "instance"]
    name: str


COMMON_GPUS = ["RTX-4090", "A10", "L40S", "A100-40GB", "A100-80GB", "H100", "H200", "H20", "Ascend-910B", "T4", "V100-32GB"]


def resolve_model(catalog: Catalog, model: str | None, params: float | None) -> ModelSpec:
    """A catalog model by name, or a standard decoder shape for a raw parameter count."""
    if model:
        return catalog.model(model)
    if params:
        from tools.vram import model_from_params

        return model_from_params(params)
    raise InputError("Name a model (e.g. 'llama-2-13b') or give a parameter count (e.g. 13e9).")


def vram_request(args: WorkloadArgs) -> VramRequest:
    return VramRequest(
        mode=args.mode,
        precision=args.precision,
        batch_size=args.batch_size,
        seq_len=args.seq_len,
        lora_rank=args.lora_rank,
        lora_targets=args.lora_targets,
        optimizer=args.optimizer,
        gpus=args.gpus,
        sharding=args.sharding,
        checkpointing=args.checkpointing,
    )


class ToolBox:
    """The six tools bound to one set of shared resources."""

    def __init__(self, resources: Resources):
        self.res = resources

    # each method takes validated args and returns a JSON-able dict

    def search_guidance(self, args: SearchArgs) -> dict[str, Any]:
        # one search at a time: the first one may build the index, and a query takes milliseconds
        with self.res.search_lock:
            result = self.res.retriever.search(args.query, k=args.k, lang=args.lang)
        return {
            "query": result.query,
            "truncated": result.truncated,
            "passages": [
                {"doc_id": h.doc_id, "title": h.title, "section": h.section, "lang": h.lang, "text": h.text}
                for h in result.hits
            ],
        }

    def estimate_vram(self, args: VramArgs) -> dict[str, Any]:
        from tools.vram import estimate_vram

        cat = self.res.catalog
        model = resolve_model(cat, args.model, args.params)
        names = args.check_gpus or [g for g in COMMON_GPUS if cat.find_gpu(g)]
        gpus = [cat.gpu(n) for n in names]
        return estimate_vram(model, vram_request(args), gpus).model_dump(mode="json")

    def estimate_train_time(self, args: TrainTimeArgs) -> dict[str, Any]:
        from tools.train_time import estimate_train_time

        cat = self.res.catalog
        model = resolve_model(cat, args.model, args.params)
        req = TrainTimeRequest(
            mode=args.mode,
            precision=args.precision,
            tokens=args.tokens,
            epochs=args.epochs,
            gpus=args.gpus,
            mfu=args.mfu,
            deadline_hours=args.deadline_hours,
        )
        return estimate_train_time(model, cat.gpu(args.gpu), req).model_dump(mode="json")

    def estimate_cost(self, args: CostArgs) -> dict[str, Any]:
        from tools.cost import estimate_cost

        rows = self.res.catalog.instances_named(args.instance)
        if args.region:
            rows = [r for r in rows if r.region.name == args.region] or rows
        req = CostRequest(hours=args.hours, billing=args.billing, currency=args.currency)
        estimates = [estimate_cost(r, req, self.res.fx) for r in rows]
        priced = [e for e in estimates if e.total is not None]
        best = min(priced, key=lambda e: e.total) if priced else estimates[0]
        return best.model_dump(mode="json")

    def recommend_config(self, args: RecommendArgs) -> dict[str, Any]:
        from tools.recommend import recommend

        cat = self.res.catalog
        model = None if args.required_gib and not (args.model or args.params) else resolve_model(cat, args.model, args.params)
        budget = args.budget
        if budget and args.budget_currency and args.currency and args.budget_currency != args.currency:
            budget = self.res.fx.convert(budget, args.budget_currency, args.currency)
        req = RecommendRequest(
            vram=vram_request(args),
            required_gib=args.required_gib,
            budget=budget,
            currency=args.currency or args.budget_currency,
            period=args.period,
            region=args.region,
            providers=[cat.provider(p).key for p in args.providers],
            billing=args.billing,
            max_gpus=args.max_gpus,
            tokens=args.tokens,
            epochs=args.epochs,
            gpu=cat.gpu(args.gpu).key if args.gpu else None,
        )
        result = recommend(cat, model, req, self.res.fx).model_dump(mode="json")
        result["rejected"] = result["rejected"][:MAX_REJECTED_SHOWN]
        return result

    def lookup_catalog(self, args: LookupArgs) -> dict[str, Any]:
        cat = self.res.catalog
        if args.kind == "gpu":
            return cat.gpu(args.name).model_dump(mode="json")
        if args.kind == "model":
            return cat.model(args.name).model_dump(mode="json")
        if args.kind == "provider":
            provider = cat.provider(args.name)
            families = sorted({i.family or i.instance for i in cat.instances if i.provider == provider.key})
            return {**provider.model_dump(mode="json"), "instance_families": families}
        rows = cat.instances_named(args.name)
        return {"instances": [r.model_dump(mode="json") for r in rows]}


DESCRIPTIONS: dict[str, tuple[type[_Args], str]] = {
    "search_guidance": (
        SearchArgs,
        "Search the GPU-rental guidance documents (Chinese and English). Returns passages with doc_id, title, section "
        "to cite as [n]. Use for concepts, trade-offs and caveats.",
    ),
    "estimate_vram": (
        VramArgs,
        "Estimate GPU memory (GiB) for a model and workload: per-GPU and total, a breakdown by component, "
        "assumptions, and which GPUs it fits with headroom.",
    ),
    "estimate_train_time": (
        TrainTimeArgs,
        "Estimate training time (hours, days, GPU-hours) from FLOPs ≈ 6·N·D on a GPU model and count; "
        "with deadline_hours also the GPUs needed to finish in time.",
    ),
    "estimate_cost": (
        CostArgs,
        "Price an instance ('provider/instance') for some hours or a month in CNY or USD, every billing mode "
        "side by side, with the price's source and date. Unknown prices are null.",
    ),
    "recommend_config": (
        RecommendArgs,
        "Recommend rentable GPU servers for a workload: enumerates catalog instances, keeps what fits in memory and "
        "budget, prices them, ranks by cost, lists rejected near-misses and what would make it feasible.",
    ),
    "lookup_catalog": (
        LookupArgs,
        "Look up a catalog record: a GPU's specs, a model's architecture, a provider, or an instance's prices.",
    ),
}


def run_tool(box: ToolBox, name: str, raw_args: dict[str, Any]) -> dict[str, Any]:
    """Validate, call, and turn every expected failure into {'error': ...}."""
    schema, _ = DESCRIPTIONS[name]
    try:
        args = schema.model_validate(raw_args)
        return getattr(box, name)(args)
    except ValidationError as err:
        return {"error": f"invalid arguments for {name}: {flatten_validation_error(err)}"}
    except AdvisorError as err:
        return {"error": str(err)}
    except Exception as err:  # a tool failure must reach the brain as a message, never crash the loop
        log.exception("tool %s failed", name)
        return {"error": f"{name} failed unexpectedly ({type(err).__name__}); try again or rephrase"}


def get_tools(resources: Resources | None = None) -> list[BaseTool]:
    """The advisor's tools for any LangChain agent (results are JSON strings)."""
    box = ToolBox(resources or Resources.shared())

    def make(name: str) -> BaseTool:
        schema, description = DESCRIPTIONS[name]

        def call(**kwargs: Any) -> str:
            return json.dumps(run_tool(box, name, kwargs), ensure_ascii=False)

        return StructuredTool.from_function(func=call, name=name, description=description, args_schema=schema)

    return [make(name) for name in DESCRIPTIONS]
