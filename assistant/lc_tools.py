"""The advisor's tools as LangChain tools: schema + call; the typed result travels as the tool's artifact.

Thin by design (ARCHITECTURE.md): every number comes from `tools/` or the
catalog; these wrappers only resolve names and pick what to compute. Each tool
returns `(content, artifact)` (`response_format="content_and_artifact"`): the
artifact is the calculator's pydantic result, which the offline brain and the
verifier read; the content is its JSON for an LLM. A tool never raises into the
agent loop: bad arguments come back as `{"error": …, "error_note": {code, params}}`
so the brain can correct itself or explain the problem in the user's language.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Literal

from langchain_core.tools import BaseTool, StructuredTool, ToolException
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
from tools.catalog_query import Offer
from tools.errors import AdvisorError, InputError, error_note
from tools.fit import FitReport, fit_report, target_for_gpu, target_for_memory
from tools.schemas import (CostEstimate, CostRequest, RecommendRequest, ServingLoad, TrainTimeEstimate, TrainTimeRequest, VramEstimate,
                           VramRequest)
from tools.serving_profiles import Engine, EngineScheduling, WeightFormat, vllm_async_scheduling
from tools.serving_types import Traffic

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
    target_len: int | None = Field(default=None, gt=0, description="encoder-decoder models (T5, BART): the decoder's "
                                   "target tokens; None = the same as seq_len")
    lora_rank: int = Field(default=16, gt=0)
    lora_targets: LoraTargets = LoraTargets.all_linear
    optimizer: Optimizer = Optimizer.adamw
    gpus: int = Field(default=1, gt=0, description="GPUs the job is spread over")
    sharding: Sharding = Sharding.none
    checkpointing: Checkpointing | None = None
    kbit_prepare: bool = Field(default=False, description="QLoRA/LoRA on a bitsandbytes base through PEFT's "
                               "prepare_model_for_kbit_training (HF Trainer/TRL on one GPU): fp32 embeddings and stream")
    autocast: bool | None = Field(default=None, description="torch autocast around forward and loss; True for HF "
                                  "Trainer bf16=True over bf16 weights, False for a plain loop, None = inferred")
    foreach_step: bool = Field(default=False, description="torch's foreach AdamW step (HF adamw_torch, torch >= 2): "
                               "one more optimizer-state-sized buffer during the step")


class FitTargetArgs(_Args):
    gpu: str | None = Field(default=None, description="a GPU name, e.g. 'RTX-4090'")
    available_gib: float | None = Field(default=None, gt=0, description="memory per GPU the user has, when no GPU is named")
    count: int = Field(default=1, gt=0)


class VramArgs(WorkloadArgs):
    check_gpus: list[str] = Field(default_factory=list, description="GPU names to check the fit on; empty = common GPUs")
    fit_targets: list[FitTargetArgs] = Field(default_factory=list, description="the user's hardware: fit, margin, cheapest change")
    also_gpus: list[int] = Field(default_factory=list, description="also estimate the job sharded over these GPU counts")


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
    instance: str | None = Field(default=None, description="'provider/instance', e.g. 'aws/p4d.24xlarge'")
    gpu: str | None = Field(default=None, description="a GPU name instead of an instance: the cheapest offer is priced")
    gpus: int = Field(default=1, gt=0, description="with gpu: how many GPUs")
    hours: float | None = Field(default=None, gt=0, description="None = one month (730 h)")
    billing: Billing = Billing.on_demand
    currency: Currency = Currency.USD
    region: str | None = Field(default=None, description="region name; None = the cheapest listed")
    region_scope: RegionScope = Field(default=RegionScope.any, description="with gpu: cn | intl | any")
    providers: list[str] = Field(default_factory=list, description="with gpu: only these providers")


MAX_OFFERS_SHOWN = 10


class GpuCostEstimate(CostEstimate):
    """A GPU priced at its cheapest offer, with each provider's cheapest offer of the same GPU count."""

    offers: list[Offer] = Field(default_factory=list, description="each provider's cheapest offer, cheapest first")
    providers_total: int = Field(default=0, ge=0, description="how many providers list this GPU count (offers shows the cheapest few)")


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
    deadline_hours: float | None = Field(default=None, gt=0, description="training: finish within this many hours (needs tokens)")
    # serving load (mode inference): the recommender prices the machines that carry it
    concurrency: int | None = Field(default=None, gt=0, description="serving: concurrent users")
    requests_per_day: float | None = Field(default=None, gt=0, description="serving: requests per day")
    request_rate: float | None = Field(default=None, gt=0, description="serving: requests per second")
    peak_factor: float | None = Field(default=None, ge=1, description="serving: busiest hour ÷ daily average")
    input_len: int | None = Field(default=None, gt=0, description="serving: prompt tokens per request")
    output_len: int | None = Field(default=None, gt=0, description="serving: generated tokens per request")
    ttft_ms: float | None = Field(default=None, gt=0, description="serving: target time to first token")
    min_tokens_per_user: float | None = Field(default=None, gt=0, description="serving: tokens/s each user must see")
    weights: WeightFormat | None = Field(default=None, description="serving weights; None: bf16 with FP8/INT4 beside")
    engine: Engine = Engine.vllm
    vllm_version: str | None = Field(default=None, max_length=40,
                                     description="serving: the vLLM release or engine as the user wrote it ('0.6.3', 'V0')")
    traffic: Traffic | None = Field(default=None, description="serving: chat = ShareGPT's typical lengths when none are given")


SERVING_KEYS = ("concurrency", "requests_per_day", "request_rate", "peak_factor", "input_len", "output_len", "ttft_ms",
                "min_tokens_per_user", "weights", "traffic")


def vllm_fields(version: str | None) -> dict[str, Any]:
    """The estimator's vLLM settings for a release or engine generation as the user wrote it ('0.6.3', 'V0')."""
    if not version:
        return {}
    from tools.serving_profiles import vllm_rules
    from tools.serving_types import VllmEngine

    rules = vllm_rules(version)
    if rules:  # the release itself too: which start-up memory rules apply changes by release (tools/kv_pool.py)
        return {"vllm_engine": rules[0], "vllm_sampler": rules[1], "engine_version": version}
    generation = re.search(r"(?<![A-Za-z0-9])[vV]([01])(?![A-Za-z0-9_.])", version)
    if generation:  # the engine generation alone ("V0", "V1 engine"): its default warm-up
        return {"vllm_engine": VllmEngine(f"v{generation.group(1)}")}
    raise ToolException(f"vllm_version {version!r}: expected a release such as '0.6.3' or 'V0'/'V1'")


class SearchArgs(_Args):
    query: str = Field(description="what to look up in the guidance documents")
    k: int = Field(default=4, gt=0, le=10)
    lang: Literal["zh", "en"] | None = Field(default=None, description="preferred language of passages")


class LookupArgs(_Args):
    kind: Literal["gpu", "model", "provider", "instance"]
    name: str


class CompareArgs(_Args):
    gpus: list[str] = Field(min_length=2, max_length=6, description="GPU names to put side by side")
    currency: Currency = Currency.USD
    region: RegionScope = RegionScope.any


class FilterArgs(_Args):
    features: list[Literal["fp8", "bf16", "fp4", "nvlink", "infiniband", "tensor_cores", "int8"]] = Field(default_factory=list)
    min_memory_gb: float | None = Field(default=None, gt=0)
    currency: Currency = Currency.USD
    region: RegionScope = RegionScope.any
    rentable_only: bool = Field(default=False, description="only GPUs with a priced offer")


class ServingArgs(_Args):
    model: str | None = None
    params: float | None = Field(default=None, gt=0)
    gpu: str = Field(description="GPU name, e.g. 'L40S'")
    gpus: int | None = Field(default=None, gt=0, description="None: solve for the fewest GPUs that carry the load")
    weights: str = Field(default="bf16", description="bf16 | fp16 | fp8 | int8 | int4 | q4_k_m | q5_k_m | q8_0")
    engine: str = Field(default="vllm", description="vllm | sglang | trtllm | llamacpp | transformers")
    vllm_version: str | None = Field(default=None, max_length=40,
                                     description="the vLLM release or engine as the user wrote it ('0.6.3', 'V0'): "
                                     "sets the engine generation and the KV-pool profile run; None: current vLLM (V1)")
    traffic: Traffic | None = Field(default=None, description="chat: ShareGPT's typical lengths when input_len/output_len are not given")
    concurrency: int | None = Field(default=None, gt=0)
    requests_per_day: float | None = Field(default=None, gt=0)
    request_rate: float | None = Field(default=None, gt=0, description="requests per second")
    max_throughput: bool = Field(default=False, description="as many requests as the engine runs at once")
    input_len: int | None = Field(default=None, gt=0)
    output_len: int | None = Field(default=None, gt=0)
    ttft_ms: float | None = Field(default=None, gt=0)
    min_tokens_per_user: float | None = Field(default=None, gt=0)
    instance: str | None = Field(default=None, description="'provider/instance' to price; default: the cheapest offer")
    providers: list[str] = Field(default_factory=list, description="price only offers from these providers")
    currency: Currency = Currency.USD
    region: RegionScope = RegionScope.any


class VramResult(VramEstimate):
    """estimate_vram's artifact: the estimate, plus the fit on the user's hardware and sharded variants when asked."""

    fit: FitReport | None = None
    layouts: list[dict[str, Any]] = Field(default_factory=list, description="[{gpus, layout, per_gpu_gib}]")


class TrainTimeResult(TrainTimeEstimate):
    at_deadline: TrainTimeEstimate | None = Field(default=None, description="the estimate on gpus_for_deadline GPUs")


class SearchResultOut(BaseModel):
    query: str
    truncated: bool
    passages: list[dict[str, Any]]


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
        target_len=args.target_len,
        lora_rank=args.lora_rank,
        lora_targets=args.lora_targets,
        optimizer=args.optimizer,
        gpus=args.gpus,
        sharding=args.sharding,
        checkpointing=args.checkpointing,
        kbit_prepare=args.kbit_prepare,
        autocast=args.autocast,
        foreach_step=args.foreach_step,
    )


class ToolBox:
    """The tools bound to one set of shared resources. Each method takes validated args, returns a typed result."""

    def __init__(self, resources: Resources):
        self.res = resources

    def search_guidance(self, args: SearchArgs) -> SearchResultOut:
        # one search at a time: the first one may build the index, and a query takes milliseconds
        with self.res.search_lock:
            result = self.res.retriever.search(args.query, k=args.k, lang=args.lang)
        return SearchResultOut(
            query=result.query,
            truncated=result.truncated,
            passages=[
                {"doc_id": h.doc_id, "title": h.title, "section": h.section, "lang": h.lang, "text": h.text,
                 "source": getattr(h, "source", "")}
                for h in result.hits
            ],
        )

    def estimate_vram(self, args: VramArgs) -> VramResult:
        from tools.vram import estimate_vram

        cat = self.res.catalog
        model = resolve_model(cat, args.model, args.params)
        names = args.check_gpus or [g for g in COMMON_GPUS if cat.find_gpu(g)]
        gpus = [cat.gpu(n) for n in names]
        request = vram_request(args)
        est = estimate_vram(model, request, gpus)
        out = VramResult(**est.model_dump())
        if args.fit_targets:
            targets = [target_for_gpu(cat.gpu(t.gpu), t.count) if t.gpu else target_for_memory(t.available_gib or 1.0, t.count)
                       for t in args.fit_targets]
            out.fit = fit_report(model, request, targets)
        if est.gpus == 1:
            for n in sorted(set(args.also_gpus)):
                if n <= 1:
                    continue
                sharded = {"gpus": n, "tp": n, "sharding": Sharding.none} if args.mode == Mode.inference else {"gpus": n, "sharding": Sharding.zero3}
                try:
                    e = estimate_vram(model, request.model_copy(update=sharded))
                except InputError:
                    continue
                out.layouts.append({"gpus": n, "layout": "tensor parallel" if args.mode == Mode.inference else "ZeRO-3",
                                    "per_gpu_gib": e.per_gpu_gib})
        return out

    def estimate_train_time(self, args: TrainTimeArgs) -> TrainTimeResult:
        from tools.train_time import estimate_train_time

        cat = self.res.catalog
        model = resolve_model(cat, args.model, args.params)
        gpu = cat.gpu(args.gpu)
        req = TrainTimeRequest(mode=args.mode, precision=args.precision, tokens=args.tokens, epochs=args.epochs,
                               gpus=args.gpus, mfu=args.mfu, deadline_hours=args.deadline_hours)
        est = estimate_train_time(model, gpu, req)
        out = TrainTimeResult(**est.model_dump())
        if est.gpus_for_deadline and est.gpus_for_deadline != args.gpus:
            out.at_deadline = estimate_train_time(model, gpu, req.model_copy(update={"gpus": est.gpus_for_deadline, "deadline_hours": None}))
        return out

    def estimate_cost(self, args: CostArgs):
        from tools.catalog_query import offers
        from tools.cost import estimate_cost

        cat = self.res.catalog
        if args.instance:
            rows = cat.instances_named(args.instance)
        elif args.gpu:
            gpu = cat.gpu(args.gpu)
            found = offers(cat, gpu.key, args.currency, self.res.fx, region=args.region_scope, min_count=args.gpus)
            if args.providers:
                wanted = {cat.provider(p).key for p in args.providers}
                found = [o for o in found if o.provider in wanted] or found
            exact = [o for o in found if o.gpu_count == args.gpus] or found
            if not exact:
                raise InputError(f"No priced instance with {args.gpus} × {gpu.key} in the catalog.")
            best = min(exact, key=lambda o: o.price_per_gpu_hour * o.gpu_count)
            rows = [i for i in cat.instances_named(f"{best.provider}/{best.instance}") if i.region.name == best.region]
        else:
            raise InputError("Name an instance ('provider/instance') or a GPU to price.")
        if args.region:
            rows = [r for r in rows if r.region.name == args.region] or rows
        req = CostRequest(hours=args.hours, billing=args.billing, currency=args.currency, today=self.res.settings.today_date)
        estimates = [estimate_cost(r, req, self.res.fx) for r in rows]
        priced = [e for e in estimates if e.total is not None]
        chosen = min(priced, key=lambda e: e.total) if priced else estimates[0]
        if args.gpu and not args.instance:
            # "which providers offer H100s?": the cheapest offer of each provider beside the one priced in full
            by_provider: dict[str, Any] = {}
            for o in sorted(exact, key=lambda o: o.price_per_gpu_hour):
                by_provider.setdefault(o.provider, o)
            return GpuCostEstimate(**chosen.model_dump(), offers=list(by_provider.values())[:MAX_OFFERS_SHOWN],
                                   providers_total=len(by_provider))
        return chosen

    def recommend_config(self, args: RecommendArgs):
        from tools.recommend import recommend

        cat = self.res.catalog
        model = None if args.required_gib and not (args.model or args.params) else resolve_model(cat, args.model, args.params)
        budget = args.budget
        if budget and args.budget_currency and args.currency and args.budget_currency != args.currency:
            budget = self.res.fx.convert(budget, args.budget_currency, args.currency)
        req = RecommendRequest(
            vram=vram_request(args), required_gib=args.required_gib, budget=budget, currency=args.currency or args.budget_currency,
            period=args.period, region=args.region, providers=[cat.provider(p).key for p in args.providers], billing=args.billing,
            max_gpus=args.max_gpus, tokens=args.tokens, epochs=args.epochs, gpu=cat.gpu(args.gpu).key if args.gpu else None,
            serving=self._serving_load(args), deadline_hours=args.deadline_hours,
        )
        result = recommend(cat, model, req, self.res.fx, today=self.res.settings.today_date)
        result.rejected = result.rejected[:MAX_REJECTED_SHOWN]
        return result

    @staticmethod
    def _serving_load(args: RecommendArgs) -> ServingLoad | None:
        given = {k: getattr(args, k) for k in SERVING_KEYS if getattr(args, k) is not None}
        vllm = vllm_fields(args.vllm_version) if args.engine == Engine.vllm else {}
        if not (given or vllm) or args.mode != "inference":
            return None
        if vllm and vllm_async_scheduling(args.vllm_version):  # a stated release from v0.14: async by default
            vllm["async_scheduling"] = True
        return ServingLoad(**given, engine=args.engine, **vllm)

    def lookup_catalog(self, args: LookupArgs):
        cat = self.res.catalog
        if args.kind == "gpu":
            return cat.gpu(args.name)
        if args.kind == "model":
            return cat.model(args.name)
        if args.kind == "provider":
            provider = cat.provider(args.name)
            families = sorted({i.family or i.instance for i in cat.instances if i.provider == provider.key})
            return {**provider.model_dump(mode="json"), "instance_families": families}
        return {"instances": [r.model_dump(mode="json") for r in cat.instances_named(args.name)]}

    def compare_gpus(self, args: CompareArgs):
        from tools.catalog_query import compare_gpus

        cat = self.res.catalog
        return compare_gpus(cat, [cat.gpu(g).key for g in args.gpus], args.currency, self.res.fx, args.region)

    def filter_catalog(self, args: FilterArgs):
        from tools.catalog_query import filter_gpus

        return filter_gpus(self.res.catalog, list(args.features), args.min_memory_gb, args.currency, self.res.fx, args.region,
                           args.rentable_only)

    def estimate_serving(self, args: ServingArgs):
        from tools.catalog_query import offers
        from tools.serving import estimate_on_instance, estimate_serving
        from tools.serving_types import Load, LoadKind, ServingRequest

        cat = self.res.catalog
        model = resolve_model(cat, args.model, args.params)
        gpu = cat.gpu(args.gpu)
        if args.requests_per_day:
            load = Load(kind=LoadKind.requests_per_day, value=args.requests_per_day)
        elif args.request_rate:
            load = Load(kind=LoadKind.request_rate, value=args.request_rate)
        elif args.concurrency:
            load = Load(kind=LoadKind.concurrency, value=args.concurrency)
        elif args.max_throughput:
            load = Load(kind=LoadKind.max_throughput)
        else:
            load = None
        vllm = vllm_fields(args.vllm_version)
        # a stated vLLM release from v0.14 schedules asynchronously by default, as the benchmark reads its cases
        # (benchmarks/serving.py `scheduling_for`); unstated: the engine's defaults as the constants were fitted
        is_async = vllm_async_scheduling(args.vllm_version) if args.vllm_version and args.engine == Engine.vllm else None
        scheduling = EngineScheduling(async_scheduling=is_async) if is_async else None
        req = ServingRequest(weights=args.weights, engine=args.engine, gpus=args.gpus, input_len=args.input_len,
                             output_len=args.output_len, load=load, ttft_ms=args.ttft_ms, min_tokens_per_user=args.min_tokens_per_user,
                             traffic=args.traffic, **vllm)
        if args.instance:
            inst = cat.instances_named(args.instance)[0]
            return estimate_on_instance(model, gpu, inst, req, self.res.fx, currency=args.currency, scheduling=scheduling)
        est = estimate_serving(model, gpu, req, scheduling=scheduling)
        # price the deployment at the cheapest offer of this GPU (per GPU-hour × GPUs), saying which
        found = offers(cat, gpu.key, args.currency, self.res.fx, region=args.region,
                       providers=[cat.provider(p).key for p in args.providers] or None)
        if found:
            priced = estimate_serving(model, gpu, req.model_copy(update={
                "gpus": est.gpus, "price_per_hour": found[0].price_per_gpu_hour * est.gpus, "currency": args.currency}),
                scheduling=scheduling)
            priced.instance = f"{found[0].provider}/{found[0].instance}/{found[0].region}"
            return priced
        return est


DESCRIPTIONS: dict[str, tuple[type[_Args], str]] = {
    "search_guidance": (SearchArgs, "Search the GPU-rental guidance documents (Chinese and English). Returns passages with doc_id, title, "
                        "section to cite as [n]. Use for concepts, trade-offs and caveats."),
    "estimate_vram": (VramArgs, "Estimate GPU memory (GiB) for a model and workload: per-GPU and total, a breakdown by component, "
                      "assumptions, which GPUs it fits with headroom; with fit_targets, the fit on the user's hardware and the "
                      "cheapest change that makes it fit."),
    "estimate_train_time": (TrainTimeArgs, "Estimate training time (hours, days, GPU-hours) from FLOPs ≈ 6·N·D on a GPU model and "
                            "count; with deadline_hours also the GPUs needed to finish in time."),
    "estimate_cost": (CostArgs, "Price an instance ('provider/instance'), or the cheapest offer of a GPU × count, for some hours or a "
                      "month in CNY or USD, every billing mode side by side, with the price's source and date. Unknown prices are null."),
    "recommend_config": (RecommendArgs, "Recommend rentable GPU servers for a workload: enumerates catalog instances, keeps what fits "
                         "in memory and budget, prices them, ranks by cost, lists rejected near-misses and what would make it feasible."),
    "lookup_catalog": (LookupArgs, "Look up a catalog record: a GPU's specs, a model's architecture, a provider, or an instance's prices."),
    "compare_gpus": (CompareArgs, "Put GPUs side by side: memory, bandwidth, dense BF16/FP8 compute, NVLink, and the cheapest price "
                     "per GPU-hour in the catalog."),
    "filter_catalog": (FilterArgs, "List catalog GPUs that have every given feature (fp8, bf16, nvlink, …) and at least min_memory_gb."),
    "estimate_serving": (ServingArgs, "Estimate LLM serving on a GPU: throughput (tok/s, req/s), latency (TTFT, per-token), the KV "
                         "cache and max concurrency, GPUs needed for a load, and cost per million output tokens."),
}


def _jsonable(result: Any) -> dict[str, Any]:
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json")
    return result


def run_tool(box: ToolBox, name: str, raw_args: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """Validate, call, and turn every expected failure into {'error': …}. Returns (JSON form, typed artifact)."""
    schema, _ = DESCRIPTIONS[name]
    try:
        args = schema.model_validate(raw_args)
        result = getattr(box, name)(args)
        return _jsonable(result), result
    except ValidationError as err:
        from assistant.llm.tool_errors import tool_argument_error

        note = error_note(err)
        out = {"error": tool_argument_error(name, err, schema)}
        if note is not None:
            out["error_note"] = note.model_dump(mode="json")
        return out, None
    except AdvisorError as err:
        out = {"error": str(err)}
        note = error_note(err)
        if note is not None:
            out["error_note"] = note.model_dump(mode="json")
        return out, None
    except Exception as err:  # a tool failure must reach the brain as a message, never crash the loop
        log.exception("tool %s failed", name)
        return {"error": f"{name} failed unexpectedly ({type(err).__name__}); try again or rephrase"}, None


def get_tools(resources: Resources | None = None) -> list[BaseTool]:
    """The advisor's tools for any LangChain agent (content: JSON text; artifact: the typed result)."""
    box = ToolBox(resources or Resources.shared())

    def make(name: str) -> BaseTool:
        schema, description = DESCRIPTIONS[name]

        def call(**kwargs: Any) -> tuple[str, Any]:
            data, artifact = run_tool(box, name, kwargs)
            return json.dumps(data, ensure_ascii=False), artifact if artifact is not None else data

        return StructuredTool.from_function(func=call, name=name, description=description, args_schema=schema,
                                            response_format="content_and_artifact")

    return [make(name) for name in DESCRIPTIONS]
