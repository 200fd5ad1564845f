"""Serving: throughput, latency, concurrency and cost per million tokens on a named GPU, or the pick for a load.

With a GPU in the state the serving estimator answers (`estimate_serving`: the
fewest GPUs that carry the load unless a count is given, priced at the cheapest
offer of that GPU); without one, the serving-aware recommender picks what to rent.
"""

from __future__ import annotations

from typing import Any

from assistant.offline.blocks import Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Plan, Results, search, tail
from assistant.offline.handlers.rental import compose_recommendation, recommend_plan
from assistant.offline.handlers.serving_load import load_args
from assistant.offline.workload import model_args
from assistant.understand.slots import Frame
from tools.domain import ModelKind
from tools.notes import Note, NoteCode

SERVING_TOPIC = ("inference serving KV cache throughput latency quantization vLLM", "推理部署 KV cache 吞吐 延迟 量化 vLLM")
class ServeCode(NoteCode):
    lead = "serve.lead"
    lead_nofit = "serve.lead_nofit"
    latency = "serve.latency"
    cost = "serve.cost"
    cost_unpriced = "serve.cost_unpriced"
    memory = "serve.memory"
    nearest = "serve.nearest"
    by_memory = "serve.by_memory"  # model, kind: not a text-generation model, so the pick is sized by memory


def serving_args(ctx: TurnContext, plan: Plan) -> dict[str, Any]:
    """The estimator's arguments: the model and the load as stated (`load_args`)."""
    return {**model_args(ctx, plan.defaults), **load_args(ctx, plan)}


class ServingHandler:
    frame = Frame.serving

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        key = ctx.get("model") if ctx.has("model") else (ctx.family_members[0] if ctx.family_members else None)
        model = env.catalog.models.get(key) if key else None  # a family ("Stable Diffusion") by its first member
        if model is not None and model.kind != ModelKind.decoder and not ctx.gpu:
            # the serving estimator times token generation; an image, speech or encoder service is still something to
            # rent: the recommender sizes it by inference memory, and the answer says why no tokens/s come with it
            recommend_plan(ctx, plan)
            plan.data["by_memory"] = (model.name, model.kind.value)
        elif ctx.gpu:
            args = serving_args(ctx, plan)
            args["gpu"] = ctx.gpu
            if ctx.has("gpu_count"):
                args["gpus"] = int(ctx.get("gpu_count"))
            if ctx.has("instance"):
                args["instance"] = ctx.get("instance")
            args["currency"] = ctx.answer_currency()
            if ctx.get("region"):
                args["region"] = ctx.get("region")
            if ctx.has("providers"):
                args["providers"] = ctx.get("providers")
            plan.call("estimate_serving", "serve", **args)
            plan.data["serving"] = True
        else:
            recommend_plan(ctx, plan, serving=True)
        en, zh = SERVING_TOPIC
        search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_serve")
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        if plan.data.get("by_memory"):
            name, kind = plan.data["by_memory"]
            return compose_recommendation(ctx, plan, results, cited, env,
                                          lead_extra=[Note.of(ServeCode.by_memory, model=name, kind=kind)])
        if not plan.data.get("serving"):
            return compose_recommendation(ctx, plan, results, cited, env)
        out = Composition()
        s = results.get("serve")
        if s is None or s.error:
            out.add(Para([s.error_note or Note.of(AnswerCode.tool_error, error=s.error)] if s else []))
            return out
        r = s.result
        model = env.model_name(r["model"])
        common = dict(model=model, gpu=r["gpu"], gpus=r["gpus"], tp=r["tp"], replicas=r["replicas"], weights=r["weights"])
        if r.get("fits"):
            out.add(Lead([Note.of(ServeCode.lead, output_tok_s=r["output_tok_s"], req_s=r["req_s"], concurrency=r["concurrency"],
                                  max_concurrency=r["max_concurrency"], total_tok_s=r.get("total_tok_s"),
                                  max_output_tok_s=r.get("max_output_tok_s"), **common)]))
        else:
            out.add(Lead([Note.of(ServeCode.lead_nofit, max_concurrency=r["max_concurrency"], concurrency=r["concurrency"], **common)]))
            nearest = r.get("nearest_layout")
            if nearest:
                out.add(Para([Note.of(ServeCode.nearest, gpus=nearest["gpus"], tp=nearest["tp"], gpu=r["gpu"])]))
        out.add(Para([Note.of(ServeCode.latency, ttft_ms=r["ttft_ms"], tpot_ms=r["tpot_ms"], e2e_ms=r["e2e_ms"],
                              tokens_per_user_s=r["tokens_per_user_s"], input_len=r["input_len"], output_len=r["output_len"])]))
        if r.get("cost_per_million_output_tokens_at_load") is not None:
            out.add(Para([Note.of(ServeCode.cost, at_load=r["cost_per_million_output_tokens_at_load"],
                                  at_max=r.get("cost_per_million_output_tokens_at_max"), currency=r.get("currency"),
                                  price_per_hour=r.get("price_per_hour"), instance=r.get("instance"))]))
        else:
            out.add(Para([Note.of(ServeCode.cost_unpriced)]))
        out.add(Para([Note.of(ServeCode.memory, weights_gib=r["weights_gib"], kv_cache_gib=r["kv_cache_gib"],
                              kv_cache_tokens=r["kv_cache_tokens"], per_gpu_gib=r["per_gpu_gib"], usable_gib=r["usable_gib"])]))
        caveats = [Note.model_validate(c) for c in r.get("caveats", [])[:3]]
        notes = [Note.model_validate(a) for a in r.get("assumptions", [])[:4]]
        out.add(*tail(ctx, plan, results, cited, tool_notes=notes, caveats=caveats))
        return out
