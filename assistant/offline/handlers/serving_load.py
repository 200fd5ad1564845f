"""The serving load as the user stated it (users, requests, lengths, latency targets, engine, weights): the
arguments the serving estimator and the serving-aware recommender take alike."""

from __future__ import annotations

import re
from typing import Any

from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import Plan
from assistant.offline.workload import AskCode, serving_concurrency
from tools.notes import Note

WEIGHTS = {"bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "int8": "int8", "int4": "int4", "nf4": "int4",
           "q4_k_m": "q4_k_m", "q5_k_m": "q5_k_m", "q8_0": "q8_0"}
MAX_THROUGHPUT = (r"max(?:imum)? throughput|peak throughput|flat[- ]out|at full (?:load|tilt)|fully (?:loaded|saturated)|saturat|"
                  r"最大吞吐|峰值吞吐|吞吐上限|极限吞吐|满载|满负荷|跑满|打满")


def load_args(ctx: TurnContext, plan: Plan) -> dict[str, Any]:
    """The serving load as stated (users, requests, lengths, latency targets), engine, vLLM release, traffic kind
    and weights: the estimator and the serving-aware recommender take the same."""
    d = plan.defaults
    args: dict[str, Any] = {}
    # engine, vLLM release and traffic kind are slots: a follow-up ("and for 80 users?") keeps them
    engine = ctx.get("engine")
    if engine:
        args["engine"] = engine
    if ctx.get("vllm_version") and engine in (None, "vllm"):
        args["vllm_version"] = ctx.get("vllm_version")
    if ctx.get("traffic") and not (ctx.has("input_len") or ctx.has("output_len") or ctx.has("seq_len")):
        args["traffic"] = ctx.get("traffic")  # stand-in lengths only where none are stated
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
