"""Serving: throughput, latency, concurrency and cost per million tokens on a named GPU, or the pick for a load.

With a GPU in the state the serving estimator answers (`estimate_serving`: the
fewest GPUs that carry the load unless a count is given, priced at the cheapest
offer of that GPU); without one, the serving-aware recommender picks what to rent.
"""

from __future__ import annotations

import re

from typing import Any

from assistant.offline.blocks import Bullets, Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Plan, Results, search, tail
from assistant.offline.handlers.recommend import compose_recommendation, recommend_plan
from assistant.offline.workload import AssumeCode, model_args, serving_concurrency
from assistant.understand.slots import Frame
from tools.notes import Note, NoteCode

SERVING_TOPIC = ("inference serving KV cache throughput latency quantization vLLM", "推理部署 KV cache 吞吐 延迟 量化 vLLM")
WEIGHTS = {"bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "int8": "int8", "int4": "int4", "nf4": "int4",
           "q4_k_m": "q4_k_m", "q5_k_m": "q5_k_m", "q8_0": "q8_0"}


class ServeCode(NoteCode):
    lead = "serve.lead"
    lead_nofit = "serve.lead_nofit"
    latency = "serve.latency"
    cost = "serve.cost"
    cost_unpriced = "serve.cost_unpriced"
    memory = "serve.memory"
    nearest = "serve.nearest"


# Latin-only word edges: "\b" fails where Chinese touches the name ("H100上sglang跑")
_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
ENGINES = [  # engine names in the user's words (the serving estimator has a profile for each)
    ("llamacpp", rf"llama\.?cpp|{_L}ollama{_R}|{_L}gguf{_R}|lm ?studio|koboldcpp"),
    ("sglang", rf"{_L}sglang{_R}"),
    ("trtllm", rf"tensorrt[- ]?llm|{_L}trt[- ]?llm{_R}|{_L}trtllm{_R}|triton"),
    ("transformers", rf"{_L}transformers{_R}|{_L}hf generate{_R}|{_L}tgi{_R}"),
    ("vllm", rf"{_L}vllm{_R}"),
]
# chat traffic with no lengths given: the estimator takes ShareGPT's mean lengths (sourced in tools/serving_profiles.py)
CHAT_TRAFFIC = r"chat traffic|chatbot|conversational|对话类|对话流量|聊天|客服"
MAX_THROUGHPUT = (r"max(?:imum)? throughput|peak throughput|flat[- ]out|at full (?:load|tilt)|fully (?:loaded|saturated)|saturat|"
                  r"最大吞吐|峰值吞吐|吞吐上限|极限吞吐|满载|满负荷|跑满|打满")


# a stated vLLM release or engine generation ("vllm 0.6.3", "vLLM v0.11", "V0 engine"): its KV-pool profile run differs
VLLM_VERSION = (r"(?<![A-Za-z0-9])vllm[\s\-_=:(]*(?:版本|version|ver\.?)?[\s:=]*(v?0\.\d+(?:\.\d+)?)"
                r"|(?<![A-Za-z0-9])(V[01])(?![A-Za-z0-9_.])\s*(?:engine|引擎)|VLLM_USE_V1\s*=\s*([01])")


def _vllm_version(question: str) -> str | None:
    m = re.search(VLLM_VERSION, question, re.I)
    if not m:
        return None
    if m.group(3) is not None:
        return "V1" if m.group(3) == "1" else "V0"
    return m.group(1) or m.group(2).upper()


def _engine(question: str) -> str | None:
    for engine, pattern in ENGINES:
        if re.search(pattern, question, re.I):
            return engine
    return None


def serving_args(ctx: TurnContext, plan: Plan) -> dict[str, Any]:
    """The estimator's arguments: the model, the load, and what only the estimator takes (the vLLM generation,
    the traffic kind that stands in for unstated lengths); the recommender gets the load alone."""
    args = {**model_args(ctx, plan.defaults), **load_args(ctx, plan)}
    if (re.search(CHAT_TRAFFIC, ctx.question, re.I)
            and not (ctx.has("input_len") or ctx.has("output_len") or ctx.has("seq_len"))):
        args["traffic"] = "chat"
    version = _vllm_version(ctx.question)
    if version and args.get("engine") in (None, "vllm"):
        args["vllm_version"] = version
    return args


def load_args(ctx: TurnContext, plan: Plan) -> dict[str, Any]:
    """The serving load as stated (users, requests, lengths, latency targets), engine and weights."""
    d = plan.defaults
    args: dict[str, Any] = {}
    engine = _engine(ctx.question)
    if engine:
        args["engine"] = engine
    if re.search(MAX_THROUGHPUT, ctx.question, re.I) and not (ctx.has("concurrency") or ctx.has("users")
                                                                 or ctx.has("requests_per_day") or ctx.has("request_rate")):
        args["max_throughput"] = True
    p = ctx.get("precision")
    if p in WEIGHTS:
        args["weights"] = WEIGHTS[p]
    if ctx.has("requests_per_day"):
        args["requests_per_day"] = float(ctx.get("requests_per_day"))
    elif ctx.has("request_rate"):
        args["request_rate"] = float(ctx.get("request_rate"))
    elif ctx.has("concurrency") or ctx.has("users"):
        args["concurrency"] = serving_concurrency(ctx, d)
    elif not args.get("max_throughput"):
        from assistant.offline.workload import AskCode

        d.question = d.question or Note.of(AskCode.load)  # the estimator assumes one user at a time and says so
    output = ctx.get("output_len")
    if output:
        args["output_len"] = int(output)
    if ctx.has("input_len"):
        args["input_len"] = int(ctx.get("input_len"))
    elif ctx.has("seq_len"):
        # a "4k context" is the longest prompt + answer one sequence holds
        args["input_len"] = max(1, int(ctx.get("seq_len")) - int(output or 256))
        args.setdefault("output_len", 256)
    if ctx.has("ttft_ms"):
        args["ttft_ms"] = float(ctx.get("ttft_ms"))
    if ctx.has("tokens_per_s_per_user"):
        args["min_tokens_per_user"] = float(ctx.get("tokens_per_s_per_user"))
    return args


class ServingHandler:
    frame = Frame.serving

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        if ctx.gpu:
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
