"""Serving estimator and KV cache: every note code in English and Chinese (tools/serving_codes.py, tools/kv_cache.py)."""

from __future__ import annotations

from typing import Any

from tools.messages.format import Formatter
from tools.serving_profiles import AWQ, FP8_KV_SOURCE, KURTIC, LLAMA_QUANTIZE_SOURCE
from tools.serving_types import TRAFFIC_LENGTHS, Traffic

ENGINE = {"vllm": "vLLM", "sglang": "SGLang", "trtllm": "TensorRT-LLM", "llamacpp": "llama.cpp",
          "transformers": "Hugging Face transformers"}
LOAD_EN = {"batch": "static batch", "concurrency": "concurrent users", "request_rate": "request rate",
           "requests_per_day": "requests per day", "max_throughput": "maximum throughput"}
LOAD_ZH = {"batch": "静态批", "concurrency": "并发用户", "request_rate": "请求速率", "requests_per_day": "每日请求",
           "max_throughput": "最大吞吐"}
PATTERN_EN = {"all": "every layer", "alternating": "every other layer (Gemma-2: local, global, local …)",
              "five_in_six": "five layers in six (Gemma-3)", "config": "the layers config.json marks as sliding"}
PATTERN_ZH = {"all": "全部层", "alternating": "隔层（Gemma-2：局部、全局交替）", "five_in_six": "每 6 层中的 5 层（Gemma-3）",
              "config": "`config.json` 标为滑动窗口的层"}


# The studies behind the quality caveats (tools/serving_profiles.py), cited in Chinese as a short reference
# (method or first author, identifier, table) instead of the English title. Keyed by the source the note carries;
# a source missing here is shown as it is.
SOURCE_ZH = {
    KURTIC: "Kurtic 等 2024，arXiv:2411.02355",
    AWQ: "AWQ 论文（arXiv:2306.00978）表 4：Llama-2 困惑度 FP16 → INT4（每组 128）7B 5.47 → 5.60，70B 3.32 → 3.41",
    LLAMA_QUANTIZE_SOURCE: "llama.cpp `tools/quantize/quantize.cpp` 中的 `QUANT_OPTIONS`（即 `llama-quantize` 打印的表）："
                           "Llama-3-8B 上的文件大小与困惑度增量",
    FP8_KV_SOURCE: "vLLM 文档：量化 KV cache（`fp8_e4m3`，按张量缩放）",
    TRAFFIC_LENGTHS[Traffic.chat][2]: "`vllm bench serve` 抽样的 `ShareGPT` V3 对话的平均长度（`GPUStack` 性能实验室 1,000 条"
                                      "提示的统计）",
}
TRAFFIC_EN = {"chat": "chat traffic"}
TRAFFIC_ZH = {"chat": "对话类流量"}


def _source_zh(p: dict[str, Any]) -> str:
    source = str(p.get("source") or "")
    return SOURCE_ZH.get(source, source)


def _memory_vllm(p: dict[str, Any], f: Formatter) -> str:
    engine = str(p.get("vllm_engine") or "v1").upper()
    tokens, seqs = f.int(p["batched_tokens"]), p.get("warmup_sequences")
    sort = p.get("sampler") == "sort"
    if f.zh:
        step = f"{tokens} token 的一步" + ("（分块预填充）" if p.get("chunked_prefill") else "（整段上下文，不分块）")
        warm = "" if seqs is None else f"与 {f.int(seqs)} 条序列的采样预热" + ("（对整个词表排序）" if sort else "")
        return (f"KV 池（vLLM {engine} 规则）：可见显存 {f.gib(p['visible_gib'])} × `gpu_memory_utilization` "
                f"{p['memory_fraction']} − 权重 − {f.gib(p['non_torch_gib'])} CUDA/NCCL − 启动时显存剖析的峰值 "
                f"{f.gib(p['activation_gib'])}：{step}的一次前向{warm}，取较大者")
    step = f"one forward pass over a {tokens}-token step" + (
        " (chunked prefill)" if p.get("chunked_prefill") else " (the whole context, unchunked)")
    warm = "" if seqs is None else f" and a sampler warm-up over {f.int(seqs)} sequences" + (
        " (full-vocabulary sort)" if sort else "")
    return (f"KV pool (vLLM {engine} rule): {f.gib(p['visible_gib'])} visible × gpu_memory_utilization "
            f"{p['memory_fraction']} − weights − {f.gib(p['non_torch_gib'])} CUDA/NCCL − {f.gib(p['activation_gib'])} "
            f"profile-run peak: the larger of {step}{warm}")


def _engine(p: dict[str, Any]) -> str:
    return ENGINE.get(str(p.get("engine")), str(p.get("engine")))


def _pct(x: Any) -> str:
    return f"{float(x) * 100:.0f}%"


def _decode(p: dict[str, Any], f: Formatter) -> str:
    compute = "?" if p.get("compute_ms") is None else f.ms(p["compute_ms"])
    if f.zh:
        bound = "带宽受限" if p.get("bound") == "memory" else "算力受限"
        return (f"每个解码步：读权重 {f.ms(p['weights_ms'])} + 读 KV cache {f.ms(p['kv_ms'])}（访存），算力项 {compute}，"
                f"取较大者，再加固定开销 {f.ms(p['overhead_ms'])}，共 {f.ms(p['step_ms'])}（{bound}）")
    bound = "memory-bound" if p.get("bound") == "memory" else "compute-bound"
    return (f"decode step: weights {f.ms(p['weights_ms'])} + KV cache {f.ms(p['kv_ms'])} read (memory term), compute "
            f"term {compute}, the larger of the two plus {f.ms(p['overhead_ms'])} overhead = {f.ms(p['step_ms'])} "
            f"({bound})")


def _moe(p: dict[str, Any], f: Formatter) -> str:
    us = p.get("moe_layer_overhead_us")
    if f.zh:
        tail = "" if not us else f"；每个 MoE 层每步另加融合 MoE 内核链的固定耗时 {f.g(us)} 微秒"
        return (f"MoE：{f.g(p['batch_tokens'])} 个 token 的解码批每层触及 {f.g(p['experts'])} 个专家中的 "
                f"{f.g(p['touched_experts'])} 个（E·(1 − (1 − k/E)^B)，k = {f.g(p['active_experts'])}），只读取这些专家{tail}")
    tail = "" if not us else f"; each MoE layer adds {f.g(us)} µs per step for the fused-MoE kernel chain"
    return (f"MoE: a decode batch of {f.g(p['batch_tokens'])} tokens touches {f.g(p['touched_experts'])} of "
            f"{f.g(p['experts'])} experts per layer (E·(1 − (1 − k/E)^B), k = {f.g(p['active_experts'])}); only those "
            f"are read{tail}")


STACK_NAME = {"cuda": "CUDA", "rocm": "ROCm", "cann": "CANN"}


def _stack(p: dict[str, Any], f: Formatter) -> str:
    """An estimate on a software stack the engine's constants were not fitted on (CaveatCode.stack_uncalibrated)."""
    stack = STACK_NAME.get(str(p["stack"]), str(p["stack"]))
    engine = ENGINE.get(str(p["engine"]), str(p["engine"]))
    if f.zh:
        tail = ("；在已核对的 `" + stack + "` 公开实测中，解码都比估算慢，请把这里的速度视为偏乐观"
                if p.get("checked_slower") else "；请把这里的速度当作未经验证的估算")
        return (f"{engine} 的效率常数只用 NVIDIA GPU（CUDA）上的实测拟合过，{p['gpu']} 使用 `{stack}` 软件栈，"
                f"没有一条拟合数据覆盖它{tail}")
    tail = ("; on the published " + stack + " measurements checked, decoding was slower than estimated: read these "
            "speeds as optimistic" if p.get("checked_slower") else ": read these speeds as unvalidated")
    return (f"{engine}'s efficiency constants were fitted on measurements from NVIDIA GPUs (CUDA) only; {p['gpu']} runs "
            f"the {stack} software stack, which none of them covers{tail}")


def _peak(p: dict[str, Any], f: Formatter) -> str:
    if f.zh:
        tail = "（默认值）" if p.get("default") else ""
        return (f"每天 {f.int(p['requests_per_day'])} 次请求，最忙时段按日均的 {f.g(p['peak_factor'])} 倍{tail}计："
                f"{f.req_s(p['request_rate_req_s'])}")
    tail = " (default)" if p.get("default") else ""
    return (f"{f.int(p['requests_per_day'])} requests per day; the busiest hour runs at {f.g(p['peak_factor'])}× the "
            f"daily average{tail}: {f.req_s(p['request_rate_req_s'])}")


def _weights(p: dict[str, Any], f: Formatter) -> str:
    if f.zh:
        part = "（仅线性层量化，词嵌入层和输出层保持 16 位）" if p.get("linear_only") else ""
        return f"权重 {p['weights']}：每参数 {f.g(p['bits_per_weight'])} 位{part}，共 {f.gib(p['weights_gib'])}"
    part = " (linear layers only; embeddings and LM head stay 16-bit)" if p.get("linear_only") else ""
    return f"weights {p['weights']}: {f.g(p['bits_per_weight'])} bits per weight{part}, {f.gib(p['weights_gib'])} in all"


def _heads(p: dict[str, Any], f: Formatter) -> str:
    kind = str(p.get("attention", "gqa")).upper()
    if f.zh:
        tp = f"，TP {p['tp']} 后每卡 {p['kv_heads_per_gpu']} 个 KV 头" if (p.get("tp") or 1) > 1 else ""
        return f"KV cache：{kind}，每层每 token 存 K、V 各 {p['kv_heads']} 个头 × {p['head_dim']} 维{tp}"
    tp = f", {p['kv_heads_per_gpu']} per GPU at TP {p['tp']}" if (p.get("tp") or 1) > 1 else ""
    return f"KV cache: {kind}, K and V of {p['kv_heads']} KV heads × {p['head_dim']} per token per layer{tp}"


def _sliding(p: dict[str, Any], f: Formatter) -> str:
    pattern = str(p.get("pattern"))
    if f.zh:
        return (f"滑动窗口 {f.int(p['window_tokens'])}：{PATTERN_ZH.get(pattern, pattern)}（{p['sliding_layers']}/{p['layers']} 层）"
                f"最多只缓存 {f.int(p['window_tokens'])} 个 token")
    return (f"sliding window {f.int(p['window_tokens'])}: {PATTERN_EN.get(pattern, pattern)} ({p['sliding_layers']} of "
            f"{p['layers']} layers) keeps at most {f.int(p['window_tokens'])} tokens")


def _profile(p: dict[str, Any], f: Formatter) -> str:
    if f.zh:
        return (f"{_engine(p)} 效率参数（在 {p['cases']} 条实测上拟合）：带宽利用率 {_pct(p['bandwidth_share'])}，"
                f"每步开销 {f.ms(p['step_overhead_ms'])}，预填充 MFU {_pct(p['prefill_mfu'])}，"
                f"大批量解码 MFU {_pct(p['decode_mfu'])}")
    return (f"{_engine(p)} efficiencies, fitted on {p['cases']} measurements: {_pct(p['bandwidth_share'])} of peak "
            f"bandwidth, {f.ms(p['step_overhead_ms'])} per step, prefill MFU {_pct(p['prefill_mfu'])}, large-batch "
            f"decode MFU {_pct(p['decode_mfu'])}")


def _quality_recovery(p: dict[str, Any], f: Formatter) -> str:
    if f.zh:
        return (f"{p['weights']} 量化的质量代价：在 {p['reference']} 上保留 bf16 准确率的 {f.g(p['low_pct'])}%–"
                f"{f.g(p['high_pct'])}%（{_source_zh(p)}）")
    return (f"quality cost of {p['weights']}: {f.g(p['low_pct'])}–{f.g(p['high_pct'])}% of the bf16 accuracy kept on "
            f"{p['reference']} ({p['source']})")


def _quality_ppl(p: dict[str, Any], f: Formatter) -> str:
    span = f.g(p["low"]) if p["low"] == p["high"] else f"{f.g(p['low'])}–{f.g(p['high'])}"
    if f.zh:
        return f"{p['weights']} 量化的质量代价：{p['reference']} 困惑度上升 {span}（{_source_zh(p)}）"
    return f"quality cost of {p['weights']}: perplexity up by {span} on {p['reference']} ({p['source']})"


def _lengths(p: dict[str, Any], f: Formatter) -> str:
    traffic = p.get("traffic")
    if f.zh:
        head = f"长度：输入 {f.int(p['input_tokens'])} token，输出 {f.int(p['output_tokens'])} token"
        if traffic:
            return f"{head}（未给长度，按{TRAFFIC_ZH.get(str(traffic), str(traffic))}的典型长度：{_source_zh(p)}）"
        return f"{head}（默认值）"
    head = f"lengths: {f.int(p['input_tokens'])} prompt tokens, {f.int(p['output_tokens'])} generated"
    if traffic:
        return f"{head} (none given: typical of {TRAFFIC_EN.get(str(traffic), str(traffic))}, {p['source']})"
    return f"{head} (defaults)"


def _queue(p: dict[str, Any], f: Formatter) -> str:
    arrivals = p.get("arrivals")
    if arrivals == "together":
        if f.zh:
            return (f"排队模型：{p['concurrency']} 个用户的请求同时到达并保持同步（定长基准测试的闭环），每个请求要等整批"
                    f"预填充完成，平均比单独预填充多等 {f.ms(p['wait_ms'])}；端到端延迟由利特尔定律得出")
        return (f"queueing: the {p['concurrency']} users' requests arrive together and stay in step (a fixed-length "
                f"benchmark loop), so each waits for its wave's prefill, {f.ms(p['wait_ms'])} beyond its own on average; "
                f"E2E from Little's law")
    if arrivals == "burst":
        if f.zh:
            return (f"排队模型：{f.int(p['requests'])} 个请求同时发出：第一批按前端接收的速度预填充，其余等空出的位置，"
                    f"首 token 前平均等待 {f.ms(p['wait_ms'])}")
        return (f"queueing: {f.int(p['requests'])} requests sent at once: the first wave is prefilled as the front end "
                f"admits it, the rest wait for a free slot; mean wait before the first token {f.ms(p['wait_ms'])}")
    if p.get("scheduler_steps"):
        n = p["scheduler_steps"]
        if f.zh:
            return (f"排队模型：vLLM 多步调度，调度器每 {n} 个解码步才运行一次：新请求要等正在运行的这组步数结束，"
                    f"再与这期间到达的提示一起预填充，首 token 前平均等待 {f.ms(p['wait_ms'])}；输出按组返回；"
                    f"端到端延迟由利特尔定律得出")
        return (f"queueing: vLLM multi-step scheduling, the scheduler runs once per {n} decode steps: a new request waits "
                f"for the running group to end and is prefilled with the prompts that arrived meanwhile; mean wait "
                f"before the first token {f.ms(p['wait_ms'])}; tokens come back a group at a time; E2E from Little's law")
    if f.zh:
        return (f"排队模型：预填充按 M/D/1 排队（泊松到达、预填充时间固定），预填充占 GPU {_pct(p['prefill_share'])}，"
                f"平均等待 {f.ms(p['wait_ms'])}；端到端延迟由利特尔定律得出")
    return (f"queueing: prefills queue as M/D/1 (Poisson arrivals, fixed prefill time), prefill takes "
            f"{_pct(p['prefill_share'])} of the GPU, mean wait {f.ms(p['wait_ms'])}; E2E from Little's law")


MESSAGES: dict = {
    # ---- KV cache (tools/kv_cache.py)
    "kv.mla": ("KV cache: MLA stores one latent of {kv_lora_rank} + a RoPE key of {rope_dim} values per token per "
               "layer, the same on every TP rank",
               "KV cache：MLA 每层每 token 只存 {kv_lora_rank} 维潜向量 + {rope_dim} 维 RoPE 键，各 TP 卡都存一份"),
    "kv.heads": (lambda p, f: _heads(p, f), lambda p, f: _heads(p, f)),
    "kv.sliding": (lambda p, f: _sliding(p, f), lambda p, f: _sliding(p, f)),
    "kv.layer_types_ignored": ("layer_types lists {given} layers but the model has {layers}: every layer counted as full "
                               "attention", "`layer_types` 给了 {given} 层，但模型有 {layers} 层：按全部全局注意力计算"),
    "kv.shape_assumed": ("{model}: layer count assumed from the parameter count", "{model}：层数按参数量推算"),
    # ---- assumptions
    "serving.lengths_default": (_lengths, _lengths),
    "serving.load_default": ("load: {concurrency} user at a time (no load given)", "负载：同时 {concurrency} 个用户（未给负载）"),
    "serving.peak_factor": (_peak, _peak),
    "serving.load_closed_loop": ("load: {concurrency} concurrent users, each sending the next request when the last one "
                                 "ends (closed loop)", "负载：{concurrency} 个并发用户，每个请求结束后立即发下一个（闭环）"),
    "serving.load_open_loop": ("load: requests arriving at {request_rate_req_s:req_s} (Poisson)",
                               "负载：请求以 {request_rate_req_s:req_s} 到达（泊松）"),
    "serving.load_batch": ("load: a static batch of {batch_size} requests started together",
                           "负载：{batch_size} 个请求组成静态批同时开始"),
    "serving.load_max": ("maximum throughput: {concurrency} sequences decoding together (engine limit or KV pool)",
                         "最大吞吐：同时解码 {concurrency} 条序列（引擎上限或 KV 池容量）"),
    "serving.queueing": (_queue, _queue),
    "serving.weights": (_weights, _weights),
    "serving.engine_profile": (_profile, _profile),
    "serving.no_flash_attention_2": ("vLLM on {gpu} (compute capability {compute_capability}) has no FlashAttention-2: "
                                     "the prompt's attention is timed at {attention_share:pct} of the fitted prefill "
                                     "efficiency", "{gpu}（计算能力 {compute_capability}）上 vLLM 没有 FlashAttention-2："
                                     "提示词的注意力按拟合预填充效率的 {attention_share:pct} 计时"),
    "serving.engine_uncalibrated": (lambda p, f: f"{_engine(p)}: no published measurements in the calibration set; "
                                    "efficiencies are priors, not fitted",
                                    lambda p, f: f"{_engine(p)}：校准集中没有该引擎的公开实测，效率参数是先验值，未经拟合"),
    "serving.format_uncalibrated": ("{weights} kernels: assumed {kernel_share:pct} of the 16-bit kernels' bandwidth (no "
                                    "measurement to fit it)", "{weights} 内核：假定带宽效率为 16 位内核的 {kernel_share:pct}（无实测可拟合）"),
    "serving.memory_vllm": (_memory_vllm, _memory_vllm),
    "serving.memory_sglang": ("KV pool (SGLang rule): {visible_gib:gib} visible × mem_fraction_static {memory_fraction} − "
                              "weights − {non_torch_gib:gib} CUDA/NCCL",
                              "KV 池（SGLang 规则）：可见显存 {visible_gib:gib} × `mem_fraction_static` {memory_fraction} − 权重 − "
                              "{non_torch_gib:gib} CUDA/NCCL"),
    "serving.memory_trtllm": ("KV pool (TensorRT-LLM rule): {memory_fraction:pct} of the memory left after weights and "
                              "{activation_gib:gib} of activations ({visible_gib:gib} visible)",
                              "KV 池（TensorRT-LLM 规则）：权重和 {activation_gib:gib} 激活之后剩余显存的 {memory_fraction:pct}"
                              "（可见显存 {visible_gib:gib}）"),
    "serving.memory_context": (lambda p, f: f"{_engine(p)}: the KV cache takes what the weights and a "
                               f"{f.gib(p['buffer_gib'])} compute buffer leave", lambda p, f: f"{_engine(p)}：KV cache 使用权重和 "
                               f"{f.gib(p['buffer_gib'])} 计算缓冲之外的显存"),
    "serving.max_seqs": (lambda p, f: f"{_engine(p)} runs at most {f.int(p['max_num_seqs'])} sequences at once",
                         lambda p, f: f"{_engine(p)} 同时最多运行 {f.int(p['max_num_seqs'])} 条序列"),
    "serving.kv_dtype": ("KV cache stored in {kv_dtype} ({bytes_per_element:g} bytes per value)",
                         "KV cache 以 {kv_dtype} 存储（每个值 {bytes_per_element:g} 字节）"),
    "serving.moe": (_moe, _moe),
    "serving.decode": (_decode, _decode),
    "serving.weight_read_cap": ("{gpu}: a decode step reads the weights at {cap_gb_s:gbps} at most "
                                "({cap_share:pct} of its {bandwidth_gb_s:gbps}): its matrix-vector kernels keep about "
                                "{bytes_per_sm_clock:g} bytes in flight per SM and clock cycle, over {sm_ghz:int} SM·GHz "
                                "(from its FP32 peak)",
                                "{gpu}：解码步读取权重最多 {cap_gb_s:gbps}（其 {bandwidth_gb_s:gbps} 的 {cap_share:pct}）："
                                "矩阵-向量内核每个 SM 每个时钟周期约有 {bytes_per_sm_clock:g} 字节在途，共 {sm_ghz:int} "
                                "`SM·GHz`（由 FP32 峰值推出）"),
    "serving.prefill": ("prefill of {input_tokens:int} tokens: {prefill_ms:ms} (2·N_active FLOPs per token + causal "
                        "attention at MFU {mfu:pct} of {peak_tflops:tflops})",
                        "{input_tokens:int} token 的预填充：{prefill_ms:ms}（每 token `2·N_active` FLOPs 加因果注意力，"
                        "按 {peak_tflops:tflops} 的 {mfu:pct} MFU）"),
    "serving.compute_unknown": ("{gpu}: no {precision} tensor peak in the catalog; the compute terms are left out (decode "
                                "and prefill treated as memory-bound)",
                                "{gpu}：目录中没有 {precision} 张量峰值算力，计算项被忽略（解码与预填充按访存受限计）"),
    "serving.compute_precision": ("{weights} weights: matmuls at {precision} ({peak_tflops:tflops} dense peak per GPU)",
                                  "{weights} 权重：矩阵乘按 {precision} 计算（每卡稠密峰值 {peak_tflops:tflops}）"),
    "serving.layout": ("layout: {gpus} GPUs = {replicas:count:replica} × TP {tp} × PP {pp}, {nodes:count:node}",
                       "布局：{gpus} 张卡 = {replicas} 个副本 × TP {tp} × PP {pp}，{nodes} 台机器"),
    "serving.layout_solved": ("GPU count solved for the load: the fewest GPUs that carry it ({gpus} = {replicas} × TP "
                              "{tp} × PP {pp}, up to {gpus_per_node} per node)",
                              "按负载求解卡数：能承载负载的最少卡数（{gpus} = {replicas} × TP {tp} × PP {pp}，每台最多 "
                              "{gpus_per_node} 张）"),
    "serving.tp_comm": ("TP {tp} over {link}: two all-reduces per layer, {allreduce_ms:ms} per decode step",
                        "TP {tp} 走 {link}：每层两次 all-reduce，每个解码步 {allreduce_ms:ms}"),
    "serving.burst_lengths": ("a burst of {requests:int} requests: every request is taken at the mean lengths "
                              "({input_tokens:int} / {output_tokens:int} tokens); a short run lasts as long as its longest "
                              "replies, which finish at a small batch, so with lengths that vary (chat data) it delivers "
                              "less throughput than this",
                              "一次同时发出 {requests:int} 个请求：每个请求都按平均长度（输入 {input_tokens:int} / 输出 "
                              "{output_tokens:int} 个 token）计算；短时运行的时长由最长的回复决定（它们在小批量下收尾），"
                              "长度不一的数据（对话）实测吞吐会低于此值"),
    "serving.pp_latency": ("PP {pp}: pipeline stages add capacity, not speed; each token still passes every stage",
                           "PP {pp}：流水线并行增加容量而不提速，每个 token 仍要经过所有阶段"),
    "serving.price": ("price: {price_per_hour:money_h} for {instance} ({as_of:as_of})",
                      "价格：{instance} {price_per_hour:money_h}（{as_of:as_of}）"),
    "serving.no_price": ("no price in the catalog for this instance and billing: costs unknown",
                         "目录中没有该实例此计费方式的价格：成本未知"),
    "serving.cost_at_load": ("cost per million output tokens = {price_per_hour:money_h} ÷ (tokens served per hour); at "
                             "the load {output_tok_s:tok_s}", "每百万输出 token 成本 = {price_per_hour:money_h} ÷ 每小时生成的 token；"
                             "此负载下 {output_tok_s:tok_s}"),
    # ---- caveats
    "serving.quality_recovery": (_quality_recovery, _quality_recovery),
    "serving.quality_perplexity": (_quality_ppl, _quality_ppl),
    "serving.kv_fp8": ("fp8 KV cache halves KV memory; accuracy impact is small but model-dependent ({source})",
                       lambda p, f: f"fp8 KV cache 让 KV 显存减半；精度影响小但因模型而异（{_source_zh(p)}）"),
    "serving.fp8_weight_only": ("{gpu} has no FP8 tensor cores: fp8 weights run weight-only (dequantised to 16-bit), "
                                "saving memory but not compute",
                                "{gpu} 没有 FP8 张量核心：fp8 权重只能按仅权重量化运行（反量化为 16 位），省显存不省算力"),
    "serving.kv_short": ("the KV cache holds {max_concurrency} sequences of this length ({kv_cache_tokens:int} tokens), not "
                         "the {concurrency} the load needs", "KV cache 只能容纳 {max_concurrency} 条这种长度的序列"
                         "（{kv_cache_tokens:int} token），负载需要 {concurrency} 条"),
    "serving.saturated": ("the load ({request_rate_req_s:req_s}) is more than this layout serves at most "
                          "({max_req_s:req_s}): the queue grows without bound",
                          "负载（{request_rate_req_s:req_s}）超过此布局的最大处理能力（{max_req_s:req_s}）：队列会无限增长"),
    "serving.misses_ttft": ("time to first token {ttft_ms:ms} misses the {target_ms:ms} target",
                            "首 token 延迟 {ttft_ms:ms}，未达到 {target_ms:ms} 的目标"),
    "serving.misses_tokens_per_user": ("each user sees {tokens_per_user_s:tok_s}, under the {target_tok_s:tok_s} target",
                                       "每个用户 {tokens_per_user_s:tok_s}，低于 {target_tok_s:tok_s} 的目标"),
    "serving.stack_uncalibrated": (_stack, _stack),
    "serving.bf16_as_fp16": ("{gpu} (compute capability {compute_capability}) has no bf16: the weights are served in "
                             "fp16 (vLLM's `dtype=half`, which `dtype=auto` picks there), the same memory; a model trained in "
                             "bf16 can overflow fp16 on rare activations",
                             "{gpu}（计算能力 {compute_capability}）不支持 bf16：权重按 fp16 加载（vLLM 的 `dtype=half`，"
                             "`dtype=auto` 会自动选它），显存占用相同；bf16 训练的模型在 fp16 下偶尔会有激活值溢出"),
    "serving.int4_no_marlin": ("on {gpu} (compute capability {compute_capability}) vLLM has no Marlin kernel for AWQ/GPTQ "
                               "int4 (it needs {needs}): the weights take a quarter of the memory but decode no faster than "
                               "16-bit ones", "{gpu}（计算能力 {compute_capability}）上 vLLM 没有 AWQ/GPTQ int4 的 Marlin "
                               "内核（需要 {needs}）：权重显存降到四分之一，但解码不比 16 位权重快"),
    "serving.beyond_context": ("{tokens:int} tokens per request is more than {model}'s {max_context_tokens:int}-token context",
                               "每个请求 {tokens:int} token，超过 {model} 的 {max_context_tokens:int} token 上下文"),
    # ---- errors (chat form; `.cli` names the flags)
    "serving.error.engine_stack": (
        lambda p, f: f"{ENGINE.get(p['engine'], p['engine'])} runs on NVIDIA GPUs (CUDA) only; {p['gpu']} runs "
        f"{STACK_NAME.get(p['stack'], p['stack'])}: use vLLM or SGLang there.",
        lambda p, f: f"{ENGINE.get(p['engine'], p['engine'])} 只支持 NVIDIA GPU（CUDA）；{p['gpu']} 使用 "
        f"`{STACK_NAME.get(p['stack'], p['stack'])}` 软件栈：请改用 vLLM 或 SGLang。",
    ),
    "serving.error.no_bandwidth": ("{gpu} has no memory bandwidth in the catalog, so its decode speed cannot be estimated.",
                                   "目录中没有 {gpu} 的显存带宽，无法估算解码速度。"),
    "serving.error.tp_gpus": ("Tensor parallel {tp} × pipeline {pp} does not divide {gpus} GPUs.",
                              "张量并行 {tp} × 流水线 {pp} 不能整除 {gpus} 张卡。"),
    "serving.error.tp_gpus.cli": ("--tp {tp} × --pp {pp} does not divide --gpus {gpus}: use a --tp that divides the GPU "
                                  "count.", "--tp {tp} × --pp {pp} 不能整除 --gpus {gpus}：请用能整除卡数的 --tp。"),
    "serving.error.tp_heads": ("Tensor parallel {tp} does not divide {model}'s {heads} attention heads.",
                               "张量并行 {tp} 不能整除 {model} 的 {heads} 个注意力头。"),
    "serving.error.tp_heads.cli": ("--tp {tp} does not divide {model}'s {heads} attention heads: use a divisor of {heads}.",
                                   "--tp {tp} 不能整除 {model} 的 {heads} 个注意力头：请用 {heads} 的因数。"),
    "serving.error.weights_fit_nowhere": ("{model} in {weights} ({weights_gib:gib} per GPU) with room for one "
                                          "{tokens:int}-token request does not fit on {gpus} × {gpu} ({usable_gib:gib} "
                                          "usable each) in any layout: use more GPUs, a larger GPU or quantised weights.",
                                          "{model}（{weights}，每卡 {weights_gib:gib}）加一个 {tokens:int} token 请求的 KV "
                                          "在 {gpus} × {gpu}（每卡可用 {usable_gib:gib}）上的任何布局都放不下："
                                          "请增加卡数、换更大显存的卡或使用量化权重。"),
    "serving.error.weights_fit_nowhere.cli": ("{model} in {weights} ({weights_gib:gib} per GPU) with room for one "
                                              "{tokens:int}-token request does not fit on {gpus} × {gpu} ({usable_gib:gib} "
                                              "usable each) in any layout: raise --gpus, pick a larger --gpu, or try "
                                              "--weights fp8 / int4.",
                                              "{model}（{weights}，每卡 {weights_gib:gib}）加一个 {tokens:int} token 请求的 KV "
                                              "在 {gpus} × {gpu}（每卡可用 {usable_gib:gib}）上放不下：请增大 --gpus、"
                                              "换更大的 --gpu，或试试 --weights fp8 / int4。"),
    "serving.error.no_layout": ("{model} in {weights} does not fit on up to {max_gpus} × {gpu}.",
                                "{model}（{weights}）在最多 {max_gpus} 张 {gpu} 上都放不下。"),
    "serving.error.nodes": ("{gpus} GPUs do not fit on {nodes:count:node} of {gpus_per_node}.",
                            "{gpus} 张卡放不进 {nodes} 台每台 {gpus_per_node} 卡的机器。"),
    "serving.error.nodes.cli": ("--gpus {gpus} does not fit on --nodes {nodes} of {gpus_per_node} GPUs each.",
                                "--gpus {gpus} 放不进 --nodes {nodes}（每台 {gpus_per_node} 张卡）。"),
    "serving.error.not_decoder": ("{model} is a {kind} model; the serving estimate covers text-generation (decoder) models.",
                                  "{model} 是 {kind} 模型；推理服务估算只支持文本生成（仅解码器）模型。"),
}

_ = (LOAD_EN, LOAD_ZH)  # load names for surfaces that label the load shape
