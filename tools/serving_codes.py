"""Codes of the serving estimator: what it assumed, what to watch for, and its errors.

Rendered in English and Chinese by tools/messages/serving.py. Parameter names carry units
(`_ms`, `_gib`, `_tok_s`, `_req_s`); enum-valued params are stored as their values.
"""

from __future__ import annotations

from tools.notes import NoteCode


class ServingCode(NoteCode):
    """Assumptions and formulas a serving estimate states (params in the comments)."""

    lengths_default = "serving.lengths_default"  # input_tokens, output_tokens; traffic, source when a traffic kind's
    # typical lengths stood in
    load_default = "serving.load_default"  # concurrency
    peak_factor = "serving.peak_factor"  # requests_per_day, peak_factor, request_rate_req_s, default (bool)
    load_closed_loop = "serving.load_closed_loop"  # concurrency
    load_open_loop = "serving.load_open_loop"  # request_rate_req_s
    load_batch = "serving.load_batch"  # batch_size
    load_max = "serving.load_max"  # concurrency (the most the engine runs at once)
    queueing = "serving.queueing"  # prefill_share (of the GPU's time), wait_ms, arrivals ('independent' | 'together' |
    # 'burst'); concurrency (together), requests (burst); scheduler_steps (vLLM multi-step scheduling: a new prompt
    # waits for the running group of N decode steps)
    burst_lengths = "serving.burst_lengths"  # requests, input_tokens, output_tokens: a burst's requests are all taken at
    # the mean lengths; a finite run's length set by its longest replies (a length distribution) is not modelled
    weights = "serving.weights"  # weights (WeightFormat value), bits_per_weight, weights_gib, linear_only
    engine_profile = "serving.engine_profile"  # engine, bandwidth_share, step_overhead_ms, prefill_mfu, decode_mfu, cases
    engine_uncalibrated = "serving.engine_uncalibrated"  # engine
    format_uncalibrated = "serving.format_uncalibrated"  # weights, kernel_share
    memory_vllm = "serving.memory_vllm"  # memory_fraction, visible_gib, non_torch_gib, activation_gib, batched_tokens,
    # vllm_engine, chunked_prefill, sampler, warmup_sequences
    memory_sglang = "serving.memory_sglang"  # memory_fraction, visible_gib, non_torch_gib
    memory_trtllm = "serving.memory_trtllm"  # memory_fraction, visible_gib, activation_gib
    memory_context = "serving.memory_context"  # engine, buffer_gib
    max_seqs = "serving.max_seqs"  # engine, max_num_seqs
    kv_dtype = "serving.kv_dtype"  # kv_dtype, bytes_per_element
    moe = "serving.moe"  # experts, active_experts, touched_experts, batch_tokens; moe_layer_overhead_us where the
    # engine's MoE layers pay a fixed time per step (vLLM, SGLang)
    decode = "serving.decode"  # weights_ms, kv_ms, compute_ms, overhead_ms, step_ms, bound
    weight_read_cap = "serving.weight_read_cap"  # gpu, cap_gb_s, bandwidth_gb_s, cap_share, sm_ghz, bytes_per_sm_clock:
    # small-batch decode reads the weights below the engine's bandwidth efficiency (memory-level parallelism per SM)
    prefill = "serving.prefill"  # input_tokens, prefill_ms, mfu, peak_tflops
    compute_unknown = "serving.compute_unknown"  # gpu, precision
    compute_precision = "serving.compute_precision"  # weights, precision, peak_tflops
    layout = "serving.layout"  # gpus, tp, pp, nodes, replicas
    layout_solved = "serving.layout_solved"  # gpus, tp, pp, nodes, replicas, gpus_per_node
    tp_comm = "serving.tp_comm"  # tp, link ('nvlink'|'pcie'), allreduce_ms
    pp_latency = "serving.pp_latency"  # pp
    price = "serving.price"  # price_per_hour, currency, instance, as_of
    no_price = "serving.no_price"
    cost_at_load = "serving.cost_at_load"  # price_per_hour, currency, output_tok_s
    no_flash_attention_2 = "serving.no_flash_attention_2"  # gpu, compute_capability, attention_share: vLLM below SM 8.0
    # times the prompt's attention at that share of the fitted prefill efficiency (tools/serving_profiles.py)


class CaveatCode(NoteCode):
    """What the user should know before acting on the numbers."""

    quality_recovery = "serving.quality_recovery"  # weights, low_pct, high_pct, reference, source
    quality_perplexity = "serving.quality_perplexity"  # weights, low, high, reference, source
    kv_fp8 = "serving.kv_fp8"  # source
    fp8_weight_only = "serving.fp8_weight_only"  # gpu
    bf16_as_fp16 = "serving.bf16_as_fp16"  # gpu, compute_capability: no bf16 below SM 8.0, the engine serves the
    # weights in fp16 (vLLM refuses an explicit bfloat16 there and names --dtype half; `auto` picks fp16)
    kv_short = "serving.kv_short"  # concurrency, max_concurrency, kv_cache_tokens
    saturated = "serving.saturated"  # request_rate_req_s, max_req_s
    misses_ttft = "serving.misses_ttft"  # ttft_ms, target_ms
    misses_tokens_per_user = "serving.misses_tokens_per_user"  # tokens_per_user_s, target_tok_s
    beyond_context = "serving.beyond_context"  # tokens, max_context_tokens, model
    int4_no_marlin = "serving.int4_no_marlin"  # gpu, compute_capability, needs: vLLM's AWQ/GPTQ Marlin kernels need SM 8.0;
    # below it int4 weights save memory but decode no faster than 16-bit ones
    stack_uncalibrated = "serving.stack_uncalibrated"  # gpu, stack (SoftwareStack value), engine, checked_slower (bool:
    # a published measurement on that stack and engine ran slower than estimated): the engine's constants were fitted on CUDA only


class ServingError(NoteCode):
    """Bad input to the serving estimator (InputError notes); `.cli` forms name the flags."""

    no_bandwidth = "serving.error.no_bandwidth"  # gpu
    tp_not_dividing_gpus = "serving.error.tp_gpus"  # tp, pp, gpus
    tp_not_dividing_heads = "serving.error.tp_heads"  # tp, heads, model
    weights_fit_nowhere = "serving.error.weights_fit_nowhere"  # model, weights, gpu, gpus, weights_gib, usable_gib, tokens
    no_layout = "serving.error.no_layout"  # model, weights, gpu, max_gpus
    nodes_mismatch = "serving.error.nodes"  # nodes, gpus, gpus_per_node
    not_decoder = "serving.error.not_decoder"  # model, kind
    engine_stack = "serving.error.engine_stack"  # engine, gpu, stack: the engine does not run on the GPU's software stack
