"""Serving estimator: throughput, latency, concurrency and cost per million tokens for LLM inference.

Public API (pure functions, pydantic in and out):

* `estimate_serving(model, gpu, request) -> ServingEstimate` — one model on GPUs of one type. With
  `request.gpus` set it evaluates that many GPUs (the best tensor/pipeline/replica layout unless `tp`/`pp`
  are given); without it, it solves for the fewest GPUs (and the layout and nodes) that carry the load
  and meet the latency targets.
* `estimate_on_instance(model, gpu, instance, request, fx, ...) -> ServingEstimate` — the same on one
  catalog instance (its GPU count per node, `request.nodes` of them), priced from the catalog: cost per
  million output tokens at the stated load and at maximum throughput. Weights that do not fit give an
  estimate with ``weights_fit=False`` instead of an error, so a recommender can list it as a near-miss.

The physics (memory pool, decode step, prefill, queueing model) is in `tools/serving_perf.py`, the engine
profiles and weight formats with their sources in `tools/serving_profiles.py`, the KV cache in
`tools/kv_cache.py`. Every default is stated as a `Note` in `assumptions`; quality costs of quantised
formats and unmet targets are `caveats`.
"""

from __future__ import annotations

import math

from tools.domain import GIB, GPU, Billing, Currency, Instance, ModelKind, ModelSpec
from tools.errors import InputError
from tools.kv_cache import kv_cache
from tools.money import convert
from tools.notes import Note
from tools.schemas import ExchangeRate
from tools.serving_codes import CaveatCode, ServingCode, ServingError
from tools.serving_perf import (
    Plan,
    arrival_rate_per_s,
    burst,
    closed_loop,
    cost_per_million,
    load_notes,
    make_plan,
    max_batch,
    max_sequences,
    open_loop,
    pool_tokens,
    quality_caveats,
    seq_kv_bytes,
    static_batch,
    weight_read_note,
)
from tools.serving_profiles import (
    BITS_PER_WEIGHT,
    CALIBRATED_STACKS,
    FORMAT_FACTOR_CALIBRATED,
    MARLIN_FROM_CC,
    STACK_CHECKED_SLOWER,
    Engine,
    EngineScheduling,
    compute_precision,
    flash_attention_2,
    legacy_int4_kernel,
    linear_only,
    prefill_attention_efficiency,
)
from tools.serving_types import (
    DEFAULT_CONCURRENCY,
    DEFAULT_INPUT_LEN,
    DEFAULT_OUTPUT_LEN,
    TRAFFIC_LENGTHS,
    Arrivals,
    Layout,
    Load,
    LoadKind,
    ServingEstimate,
    ServingRequest,
)
from tools.vram_shape import shape_of

__all__ = ["EngineScheduling", "Layout", "Load", "LoadKind", "ServingEstimate", "ServingRequest",
           "estimate_on_instance", "estimate_serving", "layouts", "valid_tp"]


# ------------------------------------------------------------------ layouts


# llama.cpp (`--split-mode layer`, its default) and transformers (`device_map="auto"`) spread layers over GPUs.
LAYER_SPLIT_ENGINES = (Engine.llamacpp, Engine.transformers)


def _heads(model: ModelSpec) -> tuple[int, int]:
    s = shape_of(model)
    return s.heads, s.kv_heads


def valid_tp(model: ModelSpec, tp: int) -> bool:
    """vLLM/SGLang need the attention heads to split evenly, and KV heads to split or replicate evenly."""
    heads, kv = _heads(model)
    return heads % tp == 0 and (kv % tp == 0 or tp % kv == 0)


def layouts(model: ModelSpec, gpus: int, req: ServingRequest) -> list[Layout]:
    """Every replicas × tp × pp split of `gpus` GPUs (TP inside one node; fixed tp/pp when given)."""
    per_node = req.gpus_per_node
    nodes = math.ceil(gpus / per_node)
    layer_split = req.engine in LAYER_SPLIT_ENGINES  # no tensor parallelism: layers spread over the GPUs
    out = []
    for tp in range(1, gpus + 1):
        if gpus % tp or tp > per_node or (req.tp and tp != req.tp) or not valid_tp(model, tp):
            continue
        if layer_split and tp > 1:
            continue
        for pp in range(1, gpus // tp + 1):
            if (gpus // tp) % pp or (req.pp and pp != req.pp):
                continue
            if pp > 1 and not req.pp and not layer_split and tp < min(per_node, gpus):
                continue  # pipeline stages only once a stage fills a node (or when asked for)
            out.append(Layout(gpus=gpus, tp=tp, pp=pp, replicas=gpus // (tp * pp), nodes=nodes))
    return out


def _gpu_counts(req: ServingRequest) -> list[int]:
    """GPU counts the solver tries: 1-8 GPUs on one server, then whole servers."""
    per_node = req.gpus_per_node
    counts = list(range(1, min(per_node, req.max_gpus) + 1))
    n = per_node * 2
    while n <= req.max_gpus:
        counts.append(n)
        n += per_node
    return counts


# ------------------------------------------------------------------ one layout


def _lengths(req: ServingRequest) -> tuple[int, int, list[Note]]:
    """The request's lengths; a missing one from its traffic kind's typical lengths, else the defaults."""
    notes = []
    default_in, default_out, source = DEFAULT_INPUT_LEN, DEFAULT_OUTPUT_LEN, None
    if req.traffic is not None:
        default_in, default_out, source = TRAFFIC_LENGTHS[req.traffic]
    in_len = req.input_len or default_in
    out_len = req.output_len or default_out
    if req.input_len is None or req.output_len is None:
        extra = {} if source is None else {"traffic": req.traffic.value, "source": source}  # type: ignore[union-attr]
        notes.append(Note.of(ServingCode.lengths_default, input_tokens=in_len, output_tokens=out_len, **extra))
    return in_len, out_len, notes


def _load(req: ServingRequest) -> tuple[Load, bool]:
    if req.load is None:
        return Load(kind=LoadKind.concurrency, value=DEFAULT_CONCURRENCY), True
    return req.load, False


def evaluate(model: ModelSpec, gpu: GPU, req: ServingRequest, layout: Layout,
             scheduling: EngineScheduling | None = None) -> ServingEstimate:
    """Throughput, latency, memory and cost on one layout (no solving, no errors for a poor fit)."""
    in_len, out_len, length_notes = _lengths(req)
    load, default_load = _load(req)
    plan = make_plan(model, gpu, req, layout, in_len, out_len, scheduling)
    reps = layout.replicas
    cap = max_sequences(plan, in_len + out_len)  # whole sequences per replica at their full length
    weights_fit = cap >= 1
    biggest = max(1, max_batch(plan))  # = cap: no load (max throughput too) runs more sequences than the pool holds
    # the most the layout serves in the load's own shape: a static batch of `biggest` for batch jobs (one batched
    # prefill), continuous batching at `biggest` sequences otherwise
    op_max = static_batch(plan, biggest) if load.kind == LoadKind.batch else closed_loop(plan, biggest)
    fits = weights_fit
    wait_extra = 0.0
    if load.kind == LoadKind.max_throughput and load.burst:
        per = load.burst / reps  # a burst: the prompts sent at once, shared by the replicas
        op = burst(plan, op_max if per >= biggest else closed_loop(plan, per, together=True), per)
    elif load.kind == LoadKind.max_throughput:
        op = op_max
    elif load.kind == LoadKind.batch:
        per = math.ceil(float(load.value) / reps)  # type: ignore[arg-type]
        fits = weights_fit and per <= cap
        op = static_batch(plan, max(1, min(per, cap or 1)))
    elif load.kind == LoadKind.concurrency:
        per = float(load.value) / reps  # type: ignore[arg-type]
        fits = weights_fit and math.ceil(per) <= cap
        op = closed_loop(plan, max(1.0, min(per, float(cap or 1))), together=load.arrivals == Arrivals.together)
        if per > op.batch:  # users beyond the pool wait for a free slot (Little's law on the waiting line)
            wait_extra = (per - op.batch) / op.req_per_ms
    else:
        rate = arrival_rate_per_s(load) / reps / 1e3  # type: ignore[operator]
        op = open_loop(plan, rate, max(1, cap))
        fits = weights_fit and not (op.saturated and op.batch >= cap)
    served_per_ms = op.req_per_ms
    if load.kind in (LoadKind.request_rate, LoadKind.requests_per_day):
        arrival = arrival_rate_per_s(load) / reps / 1e3  # type: ignore[operator]
        served_per_ms = min(op.req_per_ms, arrival) if op.saturated else arrival  # it keeps up: every request served
    req_s = served_per_ms * 1e3 * reps
    out_tok_s = req_s * out_len
    ttft = op.ttft + wait_extra
    e2e = op.e2e + wait_extra
    max_req_s = op_max.req_per_ms * 1e3 * reps if weights_fit else 0.0
    kv_one = seq_kv_bytes(plan, in_len + out_len)
    overhead = plan.non_torch_gib + plan.activation_gib
    per_gpu = plan.weights_gpu / GIB + overhead + op.batch * kv_one / GIB
    meets_ttft = None if req.ttft_ms is None else ttft <= req.ttft_ms
    tokens_per_user = 1e3 / op.tpot if op.tpot > 0 else 0.0
    meets_tpu = None if req.min_tokens_per_user is None else tokens_per_user >= req.min_tokens_per_user
    currency = req.currency if req.price_per_hour is not None else None
    est = ServingEstimate(
        model=model.name, gpu=gpu.key, engine=req.engine, weights=req.weights, kv_dtype=plan.kv_dtype,
        calibrated=plan.profile.calibrated, gpus=layout.gpus, tp=layout.tp, pp=layout.pp, nodes=layout.nodes,
        replicas=reps, input_len=in_len, output_len=out_len, load=load, concurrency=round(op.batch, 3),
        weights_gib=plan.weights_gpu / GIB, overhead_gib=overhead, per_gpu_gib=per_gpu, usable_gib=plan.usable_gib,
        kv_cache_gib=max(0.0, plan.pool_gib), kv_cache_tokens=pool_tokens(plan),
        kv_bytes_per_token=kv_one / (in_len + out_len), max_concurrency=cap * reps, weights_fit=weights_fit, fits=fits,
        output_tok_s=out_tok_s, total_tok_s=req_s * (in_len + out_len), req_s=req_s, ttft_ms=ttft, tpot_ms=op.tpot,
        e2e_ms=e2e, tokens_per_user_s=tokens_per_user, prefill_ms=op.prefill, queue_ms=op.queue + wait_extra,
        decode=op.step, bound=op.step.bound, saturated=op.saturated, max_output_tok_s=max_req_s * out_len,
        max_total_tok_s=max_req_s * (in_len + out_len), max_req_s=max_req_s, meets_ttft=meets_ttft,
        meets_tokens_per_user=meets_tpu, price_per_hour=req.price_per_hour, currency=currency,
        cost_per_million_output_tokens_at_load=cost_per_million(req.price_per_hour, out_tok_s),
        cost_per_million_output_tokens_at_max=cost_per_million(req.price_per_hour, max_req_s * out_len),
    )
    est.assumptions = _assumptions(model, gpu, req, plan, est, length_notes, load_notes(load, default_load))
    est.caveats = _caveats(model, gpu, req, plan, est)
    return est


def _assumptions(model: ModelSpec, gpu: GPU, req: ServingRequest, plan: Plan, est: ServingEstimate,
                 length_notes: list[Note], load_notes_: list[Note]) -> list[Note]:
    prof = plan.profile
    notes = [*length_notes, *load_notes_]
    notes.append(Note.of(ServingCode.weights, weights=req.weights.value, bits_per_weight=round(BITS_PER_WEIGHT[req.weights], 2),
                         weights_gib=round(plan.weights_total / GIB, 2), linear_only=linear_only(req.weights)))
    if prof.calibrated:
        notes.append(Note.of(ServingCode.engine_profile, engine=req.engine.value, bandwidth_share=prof.bandwidth_efficiency,
                             step_overhead_ms=prof.step_overhead_ms, prefill_mfu=prof.prefill_mfu,
                             decode_mfu=prof.decode_mfu, cases=prof.cases))
    else:
        notes.append(Note.of(ServingCode.engine_uncalibrated, engine=req.engine.value))
    if req.weights.quantised and req.weights not in FORMAT_FACTOR_CALIBRATED:
        notes.append(Note.of(ServingCode.format_uncalibrated, weights=req.weights.value, kernel_share=plan.format_factor))
    notes.append(plan.memory_note)
    notes.append(Note.of(ServingCode.max_seqs, engine=req.engine.value, max_num_seqs=plan.max_num_seqs))
    notes.append(Note.of(ServingCode.kv_dtype, kv_dtype=plan.kv_dtype, bytes_per_element=plan.kv_bytes))
    notes.extend(kv_cache(model, est.input_len + est.output_len, 1, est.tp, est.pp, plan.kv_bytes).notes)
    if model.moe_experts and model.moe_active_experts:
        from tools.serving_perf import touched_fraction

        micro = max(1.0, est.concurrency / est.pp)
        touched = touched_fraction(model.moe_experts, model.moe_active_experts, micro) * model.moe_experts
        extra = {"moe_layer_overhead_us": prof.moe_layer_overhead_us} if prof.moe_layer_overhead_us else {}
        notes.append(Note.of(ServingCode.moe, experts=model.moe_experts, active_experts=model.moe_active_experts,
                             touched_experts=round(touched, 1), batch_tokens=round(micro, 1), **extra))
    d = est.decode
    capped = weight_read_note(plan)
    if capped is not None:
        notes.append(capped)
    notes.append(Note.of(ServingCode.decode, weights_ms=round(d.weights_ms, 3), kv_ms=round(d.kv_ms, 3),
                         compute_ms=None if d.compute_ms is None else round(d.compute_ms, 3),
                         overhead_ms=round(d.overhead_ms, 3), step_ms=round(d.step_ms, 3), bound=d.bound))
    if plan.peak:
        precision = compute_precision(req.weights, gpu).value
        notes.append(Note.of(ServingCode.compute_precision, weights=req.weights.value, precision=precision,
                             peak_tflops=plan.peak))
        notes.append(Note.of(ServingCode.prefill, input_tokens=est.input_len, prefill_ms=round(est.prefill_ms, 2),
                             mfu=prof.prefill_mfu, peak_tflops=plan.peak))
        if not flash_attention_2(req.engine, gpu):
            notes.append(Note.of(ServingCode.no_flash_attention_2, gpu=gpu.key, compute_capability=gpu.cc,
                                 attention_share=prefill_attention_efficiency(req.engine, gpu)))
    else:
        notes.append(Note.of(ServingCode.compute_unknown, gpu=gpu.key, precision=compute_precision(req.weights, gpu).value))
    notes.append(Note.of(ServingCode.layout, gpus=est.gpus, tp=est.tp, pp=est.pp, nodes=est.nodes, replicas=est.replicas))
    if est.tp > 1:
        from tools.serving_perf import _link, allreduce_ms

        notes.append(Note.of(ServingCode.tp_comm, tp=est.tp, link=_link(gpu)[0], allreduce_ms=round(allreduce_ms(plan, 1), 3)))
    if est.pp > 1:
        notes.append(Note.of(ServingCode.pp_latency, pp=est.pp))
    if est.load.kind != LoadKind.batch:
        rho = (est.req_s / est.replicas) * est.prefill_ms / 1e3
        arrivals = "burst" if est.load.burst else est.load.arrivals.value
        extra = {"requests": est.load.burst} if est.load.burst else {}
        if arrivals == Arrivals.together.value:
            extra = {"concurrency": int(est.load.value or 1)}
        elif plan.scheduler_steps > 1 and arrivals == Arrivals.independent.value:
            extra = {"scheduler_steps": plan.scheduler_steps}  # vLLM multi-step: a new prompt waits for the group
        notes.append(Note.of(ServingCode.queueing, prefill_share=round(min(rho, 1.0), 3), wait_ms=round(est.queue_ms, 2),
                             arrivals=arrivals, **extra))
        if est.load.burst:  # a finite run: its duration is set by its slowest requests, which one mean length cannot show
            notes.append(Note.of(ServingCode.burst_lengths, requests=est.load.burst, input_tokens=est.input_len,
                                 output_tokens=est.output_len))
    if est.load.kind == LoadKind.max_throughput:
        notes.append(Note.of(ServingCode.load_max, concurrency=round(est.concurrency)))
    return notes


def _caveats(model: ModelSpec, gpu: GPU, req: ServingRequest, plan: Plan, est: ServingEstimate) -> list[Note]:
    out = quality_caveats(req, gpu, plan.kv_dtype)
    if legacy_int4_kernel(req.engine, req.weights, gpu):
        out.append(Note.of(CaveatCode.int4_no_marlin, gpu=gpu.key, compute_capability=gpu.cc, needs=MARLIN_FROM_CC))
    if est.weights_fit and not est.fits:
        wanted = est.load.value if est.load.kind in (LoadKind.batch, LoadKind.concurrency) else _rate_needs(est)
        out.append(Note.of(CaveatCode.kv_short, concurrency=wanted, max_concurrency=est.max_concurrency,
                           kv_cache_tokens=est.kv_cache_tokens))
    if est.saturated:
        out.append(Note.of(CaveatCode.saturated, request_rate_req_s=round(arrival_rate_per_s(est.load) or est.req_s, 4),
                           max_req_s=round(est.max_req_s, 4)))
    if est.meets_ttft is False:
        out.append(Note.of(CaveatCode.misses_ttft, ttft_ms=round(est.ttft_ms, 1), target_ms=req.ttft_ms))
    if est.meets_tokens_per_user is False:
        out.append(Note.of(CaveatCode.misses_tokens_per_user, tokens_per_user_s=round(est.tokens_per_user_s, 1),
                           target_tok_s=req.min_tokens_per_user))
    if model.max_context and est.input_len + est.output_len > model.max_context:
        out.append(Note.of(CaveatCode.beyond_context, tokens=est.input_len + est.output_len,
                           max_context_tokens=model.max_context, model=model.name))
    stack = gpu.stack
    if plan.profile.calibrated and stack is not None and stack not in CALIBRATED_STACKS:
        # the engine's constants were fitted on CUDA GPUs only (tools/serving_profiles.py CALIBRATED_STACKS); last, so
        # that a surface showing the first few caveats keeps the quality and capacity ones
        out.append(Note.of(CaveatCode.stack_uncalibrated, gpu=gpu.key, stack=stack.value, engine=req.engine.value,
                           checked_slower=(stack, req.engine) in STACK_CHECKED_SLOWER))
    return out


def _rate_needs(est: ServingEstimate) -> int:
    """Sequences a request rate keeps in flight (Little's law at the full pool's latency): more than the pool holds."""
    rate = arrival_rate_per_s(est.load) or est.req_s
    return max(est.max_concurrency + 1, math.ceil(rate * est.e2e_ms / 1e3 - 1e-9))


def _better(a: ServingEstimate, b: ServingEstimate | None) -> bool:
    """Prefer a layout that is ok, then fits, then the most throughput at the load, then the most capacity."""
    if b is None:
        return True
    ka = (a.ok, a.fits, a.weights_fit, round(a.output_tok_s, 6), a.max_output_tok_s, -a.tpot_ms)
    kb = (b.ok, b.fits, b.weights_fit, round(b.output_tok_s, 6), b.max_output_tok_s, -b.tpot_ms)
    return ka > kb


def _best_of(model: ModelSpec, gpu: GPU, req: ServingRequest, gpus: int,
             scheduling: EngineScheduling | None = None) -> ServingEstimate | None:
    best = None
    for lay in layouts(model, gpus, req):
        est = evaluate(model, gpu, req, lay, scheduling)
        if _better(est, best):
            best = est
    return best


# ------------------------------------------------------------------ validation


def _check(model: ModelSpec, gpu: GPU, req: ServingRequest) -> ServingRequest:
    if model.kind != ModelKind.decoder:
        raise InputError(Note.of(ServingError.not_decoder, model=model.name, kind=model.kind.value))
    if not gpu.memory_bandwidth_gbps:
        raise InputError(Note.of(ServingError.no_bandwidth, gpu=gpu.key))
    if req.tp and not valid_tp(model, req.tp):
        heads, _ = _heads(model)
        raise InputError(Note.of(ServingError.tp_not_dividing_heads, tp=req.tp, heads=heads, model=model.name))
    gpus = req.gpus
    if gpus is None and req.nodes:
        gpus = req.nodes * req.gpus_per_node
    if gpus is not None:
        if req.nodes and gpus > req.nodes * req.gpus_per_node:
            raise InputError(Note.of(ServingError.nodes_mismatch, nodes=req.nodes, gpus=gpus, gpus_per_node=req.gpus_per_node))
        shard = (req.tp or 1) * (req.pp or 1)
        if gpus % shard:
            raise InputError(Note.of(ServingError.tp_not_dividing_gpus, tp=req.tp or 1, pp=req.pp or 1, gpus=gpus))
    return req.model_copy(update={"gpus": gpus})


# ------------------------------------------------------------------ entry points


def estimate_serving(model: ModelSpec, gpu: GPU, request: ServingRequest, *, allow_no_fit: bool = False,
                     scheduling: EngineScheduling | None = None) -> ServingEstimate:
    """Serve `model` on GPUs of type `gpu` under `request` (see the module docstring).

    `scheduling`: scheduler options the deployment states (vLLM `--num-scheduler-steps`, vLLM V1 `--async-scheduling`;
    SGLang DP attention, recorded only); None: the engine's defaults as the constants were fitted (async scheduling
    off).

    Raises `InputError` (a `ServingError` note) for bad input, and — unless `allow_no_fit` — when the
    weights fit on no layout of the given GPUs. When only the KV cache for the load does not fit, the
    estimate has ``fits=False``, the `max_concurrency` that does fit, and `nearest_layout`.
    """
    req = _check(model, gpu, request)
    if req.gpus is not None:
        est = _best_of(model, gpu, req, req.gpus, scheduling)
        if est is None:  # no valid split at all (tp/pp given that no layout of these GPUs allows)
            raise InputError(Note.of(ServingError.tp_not_dividing_gpus, tp=req.tp or 1, pp=req.pp or 1, gpus=req.gpus))
        if not est.weights_fit and not allow_no_fit:
            raise InputError(Note.of(ServingError.weights_fit_nowhere, model=model.name, weights=req.weights.value,
                                     gpu=gpu.key, gpus=req.gpus, weights_gib=round(est.weights_gib, 1),
                                     usable_gib=round(est.usable_gib, 1), tokens=est.input_len + est.output_len))
        if not est.ok:
            est.nearest_layout = _solve(model, gpu, req, start=req.gpus + 1, scheduling=scheduling)[1]
        return est
    est, _ = _solve(model, gpu, req, start=1, scheduling=scheduling)
    if est is None:
        raise InputError(Note.of(ServingError.no_layout, model=model.name, weights=req.weights.value, gpu=gpu.key,
                                 max_gpus=req.max_gpus))
    est.assumptions.append(Note.of(ServingCode.layout_solved, gpus=est.gpus, tp=est.tp, pp=est.pp, nodes=est.nodes,
                                   replicas=est.replicas, gpus_per_node=req.gpus_per_node))
    return est


def _solve(model: ModelSpec, gpu: GPU, req: ServingRequest, start: int,
           scheduling: EngineScheduling | None = None) -> tuple[ServingEstimate | None, Layout | None]:
    """The fewest GPUs (≥ start) whose best layout is ok; else the largest layout whose weights fit."""
    fallback = None
    for n in _gpu_counts(req):
        if n < start:
            continue
        trial = req.model_copy(update={"gpus": n, "nodes": None})
        est = _best_of(model, gpu, trial, n, scheduling)
        if est is None:
            continue
        if est.ok:
            return est, est.layout
        if est.weights_fit:
            fallback = est
    return fallback, None


def estimate_on_instance(model: ModelSpec, gpu: GPU, instance: Instance, request: ServingRequest, fx: ExchangeRate,
                         billing: Billing = Billing.on_demand, currency: Currency | None = None,
                         scheduling: EngineScheduling | None = None) -> ServingEstimate:
    """Serve on `request.nodes` (default 1) of one catalog instance, priced in `currency` (default: the price's).

    The layout is the best split of the instance's GPUs for the load; cost per million output tokens is
    the instance price over the tokens served at the load and at maximum throughput.
    """
    if instance.gpu_count < 1 or float(instance.gpu_count) != int(instance.gpu_count):
        raise InputError(Note.of(ServingError.tp_not_dividing_gpus, tp=1, pp=1, gpus=instance.gpu_count))
    per_node = int(instance.gpu_count)
    nodes = request.nodes or 1
    price = instance.price(billing)
    per_hour = cur = None
    if price is not None:
        cur = currency or price.currency
        per_hour, _ = convert(price.per_hour * nodes, price.currency, cur, fx)
    req = request.model_copy(update={"gpus": per_node * nodes, "nodes": nodes, "gpus_per_node": per_node,
                                     "price_per_hour": per_hour, "currency": cur})
    est = estimate_serving(model, gpu, req, allow_no_fit=True, scheduling=scheduling)
    est.instance = instance.key
    if price is not None:
        est.assumptions.append(Note.of(ServingCode.price, price_per_hour=round(per_hour or 0.0, 4), currency=cur,
                                       instance=instance.key, as_of=price.as_of.isoformat() if price.as_of else None))
        est.assumptions.append(Note.of(ServingCode.cost_at_load, price_per_hour=round(per_hour or 0.0, 4), currency=cur,
                                       output_tok_s=round(est.output_tok_s, 1)))
    else:
        est.assumptions.append(Note.of(ServingCode.no_price))
    return est
