"""`gpu-advisor serving`: throughput, latency, concurrency and cost per million tokens for serving a model.

    gpu-advisor serving --model qwen2.5-72b --gpu H100 --concurrency 50 --input-len 4096
    gpu-advisor serving --model llama-3.1-8b --gpu L40S --gpus 1 --requests-per-day 100000 --weights fp8
    gpu-advisor serving --model qwen2.5-7b --instance aws/g6e.xlarge --max-throughput --currency CNY --json

Without --gpus the fewest GPUs (and the TP/PP/replica layout) that carry the load are solved for.
"""

from __future__ import annotations

import argparse

from tools.domain import Billing, Currency
from tools.errors import InputError
from tools.messages import render, render_params
from tools.serving import estimate_on_instance, estimate_serving
from tools.serving_codes import ServingError
from tools.notes import Note
from tools.serving_profiles import Engine, KvPrecision, SamplerWarmup, VllmEngine, WeightFormat
from tools.serving_types import Load, LoadKind, ServingEstimate, ServingRequest
from ui.commands._workload import add_model_args, model_from_args, positive_int
from ui.output import format_table, print_json

WEIGHTS = [w.value for w in WeightFormat]

LABELS = {
    "en": {
        "head": "{model} on {gpus} × {gpu} ({engine}, {weights} weights, KV {kv}) — {layout}",
        "layout": "{replicas} replica(s) × TP {tp} × PP {pp}, {nodes} node(s)",
        "metric": "metric", "value": "value",
        "output_tok_s": "output tokens/s", "total_tok_s": "total tokens/s", "req_s": "requests/s",
        "ttft_ms": "time to first token", "tpot_ms": "time per output token", "e2e_ms": "end-to-end latency",
        "tokens_per_user_s": "tokens/s per user", "concurrency": "sequences decoding together (per replica)",
        "max_concurrency": "max concurrency (KV cache)", "kv_cache": "KV cache per GPU", "per_gpu": "memory per GPU (load)",
        "bound": "decode bound", "fits": "fits", "max_output_tok_s": "max output tokens/s",
        "cost_load": "cost / 1M output tokens at this load", "cost_max": "cost / 1M output tokens at max throughput",
        "price": "price", "nearest": "nearest layout that works: {gpus} GPUs ({replicas} × TP {tp} × PP {pp})",
        "assumptions": "Assumptions:", "caveats": "Caveats:", "yes": "yes", "no": "no", "unknown": "unknown",
        "memory": "memory", "compute": "compute",
    },
    "zh": {
        "head": "{model} 部署在 {gpus} × {gpu}（{engine}，{weights} 权重，KV {kv}）— {layout}",
        "layout": "{replicas} 个副本 × TP {tp} × PP {pp}，{nodes} 台机器",
        "metric": "指标", "value": "数值",
        "output_tok_s": "输出 token/秒", "total_tok_s": "总 token/秒", "req_s": "请求/秒",
        "ttft_ms": "首 token 延迟", "tpot_ms": "每个输出 token 时间", "e2e_ms": "端到端延迟",
        "tokens_per_user_s": "每用户 token/秒", "concurrency": "同时解码的序列数（每副本）",
        "max_concurrency": "最大并发（KV cache）", "kv_cache": "每卡 KV cache", "per_gpu": "每卡显存（此负载）",
        "bound": "解码瓶颈", "fits": "放得下", "max_output_tok_s": "最大输出 token/秒",
        "cost_load": "此负载下每百万输出 token 成本", "cost_max": "最大吞吐时每百万输出 token 成本",
        "price": "价格", "nearest": "可行的最近布局：{gpus} 张卡（{replicas} × TP {tp} × PP {pp}）",
        "assumptions": "假设：", "caveats": "注意：", "yes": "是", "no": "否", "unknown": "未知",
        "memory": "访存", "compute": "算力",
    },
}


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a positive number")
    return value


def _fraction(text: str) -> float:
    value = _rate(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"{text} must be a fraction between 0 and 1")
    return value


def _factor(text: str) -> float:
    value = _rate(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1 (the peak hour is never below the average)")
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serving",
        help="LLM serving: throughput, latency, max concurrency and cost per million tokens",
        description="Estimate serving throughput, latency (TTFT, TPOT), the KV cache and the concurrency it holds, "
        "and cost per million output tokens, for a model on GPUs or a catalog instance. Omit --gpus to solve for "
        "the GPU count and layout that carry the load.",
    )
    add_model_args(p)
    p.add_argument("--weights", "--precision", dest="weights", choices=WEIGHTS, default=None,
                   help="served weight format (default bf16); int4 = AWQ/GPTQ; q4_k_m/q5_k_m/q8_0/q4_0 = GGUF")
    p.add_argument("--kv-precision", choices=[k.value for k in KvPrecision], default=None, help="KV cache dtype (default auto)")
    p.add_argument("--gpu", metavar="NAME", help="catalog GPU, e.g. H100, L40S, RTX-4090 (or give --instance)")
    p.add_argument("--gpus", type=positive_int, default=None, help="GPU count (default: solved for the load)")
    p.add_argument("--tp", type=positive_int, default=None, help="tensor-parallel degree (default: best for the load)")
    p.add_argument("--pp", type=positive_int, default=None, help="pipeline stages (default 1; more across nodes)")
    p.add_argument("--nodes", type=positive_int, default=None, help="servers (default: as the GPU count needs)")
    p.add_argument("--gpus-per-node", type=positive_int, default=None, help="GPUs per server (default 8, or the instance's)")
    p.add_argument("--engine", choices=[e.value for e in Engine], default=None, help="default vllm")
    p.add_argument("--gpu-memory-utilization", type=_fraction, default=None,
                   help="vLLM gpu_memory_utilization / SGLang mem_fraction_static (default: the engine's)")
    p.add_argument("--input-len", type=positive_int, default=None, help="prompt tokens (default 1024)")
    p.add_argument("--output-len", type=positive_int, default=None, help="generated tokens (default 256)")
    p.add_argument("--max-model-len", type=positive_int, default=None, help="engine context limit (default in + out)")
    p.add_argument("--max-num-seqs", type=positive_int, default=None, help="engine limit: sequences per step")
    p.add_argument("--max-num-batched-tokens", type=positive_int, default=None, help="engine limit: tokens per step")
    p.add_argument("--vllm-engine", choices=[e.value for e in VllmEngine], default=None,
                   help="vLLM engine generation that sizes the KV pool (default v1; v0 = vLLM ≤ 0.7)")
    chunk = p.add_mutually_exclusive_group()
    chunk.add_argument("--chunked-prefill", dest="chunked_prefill", action="store_true", default=None,
                       help="vLLM chunked prefill on (default: the engine's)")
    chunk.add_argument("--no-chunked-prefill", dest="chunked_prefill", action="store_false",
                       help="vLLM chunked prefill off: the profile run takes the whole context")
    p.add_argument("--engine-version", default=None, metavar="RELEASE",
                   help="the engine release, e.g. 0.11.0: vLLM's KV-pool rules by release (default: as fitted)")
    p.add_argument("--vllm-sampler", choices=[x.value for x in SamplerWarmup], default=None,
                   help="vLLM sampler warm-up at start-up (default: sort on v0, fused on current v1)")
    load = p.add_mutually_exclusive_group()
    load.add_argument("--batch-size", type=positive_int, default=None, help="a static batch of N requests")
    load.add_argument("--concurrency", type=positive_int, default=None, help="N concurrent users (closed loop)")
    load.add_argument("--request-rate", type=_rate, default=None, metavar="R", help="requests per second (Poisson)")
    load.add_argument("--requests-per-day", type=_rate, default=None, metavar="N", help="requests per day")
    load.add_argument("--max-throughput", action="store_true", help="as many requests as the engine runs at once")
    p.add_argument("--peak-factor", type=_factor, default=None,
                   help="with --requests-per-day: busiest hour ÷ daily average (default 3)")
    p.add_argument("--traffic", choices=["chat"], default=None,
                   help="typical lengths when --input-len/--output-len are not given (chat: ShareGPT's means)")
    p.add_argument("--ttft-ms", type=_rate, default=None, help="target time to first token, ms")
    p.add_argument("--min-tokens-per-user", type=_rate, default=None, help="target tokens/s each user sees")
    p.add_argument("--instance", metavar="PROVIDER/INSTANCE[/REGION]", help="price on a catalog instance, e.g. aws/p5.48xlarge")
    p.add_argument("--billing", choices=[b.value for b in Billing], default=Billing.on_demand.value)
    p.add_argument("--currency", choices=[c.value for c in Currency], default=None, help="default: the price's currency")
    p.add_argument("--lang", choices=["en", "zh"], default="en", help="language of the table and notes")
    p.add_argument("--json", action="store_true", help="machine-readable output (GiB, ms; unknown = null)")
    p.set_defaults(func=run)


def _load(args: argparse.Namespace) -> Load | None:
    if args.peak_factor is not None and args.requests_per_day is None:
        raise InputError("--peak-factor applies to --requests-per-day only.")
    if args.batch_size is not None:
        return Load(kind=LoadKind.batch, value=args.batch_size)
    if args.concurrency is not None:
        return Load(kind=LoadKind.concurrency, value=args.concurrency)
    if args.request_rate is not None:
        return Load(kind=LoadKind.request_rate, value=args.request_rate)
    if args.requests_per_day is not None:
        return Load(kind=LoadKind.requests_per_day, value=args.requests_per_day, peak_factor=args.peak_factor)
    if args.max_throughput:
        return Load(kind=LoadKind.max_throughput)
    return None


def request_from_args(args: argparse.Namespace) -> ServingRequest:
    given = {
        "weights": args.weights, "kv_precision": args.kv_precision, "engine": args.engine, "gpus": args.gpus,
        "tp": args.tp, "pp": args.pp, "nodes": args.nodes, "gpus_per_node": args.gpus_per_node,
        "gpu_memory_utilization": args.gpu_memory_utilization, "input_len": args.input_len,
        "output_len": args.output_len, "max_model_len": args.max_model_len, "load": _load(args),
        "ttft_ms": args.ttft_ms, "min_tokens_per_user": args.min_tokens_per_user,
        "currency": args.currency, "max_num_seqs": args.max_num_seqs, "max_batched_tokens": args.max_num_batched_tokens,
        "vllm_engine": args.vllm_engine, "chunked_prefill": args.chunked_prefill, "vllm_sampler": args.vllm_sampler,
        "traffic": args.traffic, "engine_version": args.engine_version,
    }
    return ServingRequest(**{k: v for k, v in given.items() if v is not None})


def _instance(catalog, name: str, billing: Billing):
    """The instance row: the named region, else the cheapest priced region (as `gpu-advisor cost` picks)."""
    parts = name.strip().split("/")
    region = "/".join(parts[2:]) if len(parts) >= 3 else None
    rows = catalog.instances_named("/".join(parts[:2]))
    if region:
        chosen = [r for r in rows if r.region.name.lower() == region.lower()]
        if not chosen:
            raise InputError(f"{'/'.join(parts[:2])} is not listed in region '{region}'.",
                             suggestions=sorted({r.region.name for r in rows}))
        rows = chosen
    priced = [r for r in rows if r.price(billing) is not None]
    return min(priced, key=lambda r: r.price(billing).per_hour) if priced else rows[0]


def estimate_from_args(args: argparse.Namespace) -> ServingEstimate:
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    request = request_from_args(args)  # flags first: cheaper and clearer than a catalog load
    settings = Settings.load()
    catalog = load_catalog(settings)
    model = model_from_args(args, catalog)
    if args.instance:
        billing = Billing(args.billing)
        row = _instance(catalog, args.instance, billing)
        gpu = catalog.gpu(row.gpu)
        if args.gpu and catalog.gpu(args.gpu).key != gpu.key:
            raise InputError(f"{row.provider}/{row.instance} has {gpu.key} GPUs, not {args.gpu}; drop --gpu or pick another instance.")
        if args.gpus:
            raise InputError("--instance sets the GPUs; use --nodes for more than one server.")
        est = estimate_on_instance(model, gpu, row, request, settings.exchange_rate, billing,
                                   Currency(args.currency) if args.currency else None)
        if not est.weights_fit:
            raise InputError(Note.of(ServingError.weights_fit_nowhere, model=model.name, weights=est.weights.value,
                                     gpu=gpu.key, gpus=est.gpus, weights_gib=round(est.weights_gib, 1),
                                     usable_gib=round(est.usable_gib, 1), tokens=est.input_len + est.output_len))
        return est
    if not args.gpu:
        raise InputError("Say which GPU: --gpu NAME (e.g. --gpu H100) or --instance PROVIDER/INSTANCE.")
    return estimate_serving(model, catalog.gpu(args.gpu), request)


def to_json(est: ServingEstimate, lang: str) -> dict:
    data = est.model_dump(mode="json", exclude={"assumptions", "caveats"})
    data["assumptions"] = [render_params(n, lang) for n in est.assumptions]
    data["caveats"] = [render_params(n, lang) for n in est.caveats]
    data["load"] = {"kind": est.load.kind.value, "value": est.load.value, "peak_factor": est.load.peak_factor}
    return data


def run(args: argparse.Namespace) -> int:
    est = estimate_from_args(args)
    if args.json:
        print_json(to_json(est, args.lang))
        return 0
    print(render_table(est, args.lang))
    return 0


def _money(x: float | None, currency, lang: str) -> str:
    from tools.messages import formatter

    return formatter(lang).money(x, currency.value if currency else None)


def render_table(est: ServingEstimate, lang: str = "en") -> str:
    from tools.messages import formatter

    L, f = LABELS[lang], formatter(lang)
    layout = L["layout"].format(replicas=est.replicas, tp=est.tp, pp=est.pp, nodes=est.nodes)
    head = L["head"].format(model=est.model, gpus=est.gpus, gpu=est.gpu, engine=est.engine.value, weights=est.weights.value,
                            kv=est.kv_dtype, layout=layout)
    yes_no = lambda b: L["yes"] if b else L["no"]  # noqa: E731
    rows = [
        (L["output_tok_s"], f.tok_s(est.output_tok_s)),
        (L["total_tok_s"], f.tok_s(est.total_tok_s)),
        (L["req_s"], f.req_s(est.req_s)),
        (L["ttft_ms"], f.ms(est.ttft_ms)),
        (L["tpot_ms"], f.ms(est.tpot_ms)),
        (L["e2e_ms"], f.ms(est.e2e_ms)),
        (L["tokens_per_user_s"], f.tok_s(est.tokens_per_user_s)),
        (L["concurrency"], f.g(est.concurrency)),
        (L["max_concurrency"], f.int(est.max_concurrency)),
        (L["kv_cache"], f"{f.gib(est.kv_cache_gib)} ({f.int(est.kv_cache_tokens)} tokens)"),
        (L["per_gpu"], f"{f.gib(est.per_gpu_gib)} / {f.gib(est.usable_gib)}"),
        (L["bound"], L[est.bound]),
        (L["fits"], yes_no(est.fits)),
        (L["max_output_tok_s"], f.tok_s(est.max_output_tok_s)),
    ]
    if est.price_per_hour is not None:
        rows.append((L["price"], f.money(est.price_per_hour, est.currency.value if est.currency else None, "hour")))
        rows.append((L["cost_load"], _money(est.cost_per_million_output_tokens_at_load, est.currency, lang)))
        rows.append((L["cost_max"], _money(est.cost_per_million_output_tokens_at_max, est.currency, lang)))
    out = [head, "", format_table([L["metric"], L["value"]], rows)]
    if est.nearest_layout is not None:
        n = est.nearest_layout
        out += ["", L["nearest"].format(gpus=n.gpus, replicas=n.replicas, tp=n.tp, pp=n.pp)]
    if est.caveats:
        out += ["", L["caveats"], *[f"  - {render(n, lang, surface='cli')}" for n in est.caveats]]
    out += ["", L["assumptions"], *[f"  - {render(n, lang, surface='cli')}" for n in est.assumptions]]
    return "\n".join(out)
