"""The physics of one serving layout: memory pool, decode step, prefill, and the load on top.

Decode step (one token for every sequence in the batch, per replica)::

    t_mem     = weights touched / (weight-read bandwidth × format factor)
                + the batch's KV cache / (bandwidth × efficiency)
    weight-read bandwidth = min(bandwidth × efficiency, SMs × clock × bytes in flight per SM and cycle)

    t_compute = 2 · (N_layers,active + N_head) · B / (tp · peak · decode_mfu)

The second term of the weight-read bandwidth is memory-level parallelism (Little's law): a decode step's matrix-vector
kernels keep a bounded number of bytes in flight per SM, so a GPU with fast HBM for its SM count (H20, and the A100's
2 TB/s on 108 SMs at 1.41 GHz) cannot reach its bandwidth efficiency on them (tools/serving_profiles.py
`WEIGHT_READ_PARALLELISM`, with the sources). It is applied at every batch: the weight term matters most at small ones.

"Weights touched" leaves out an untied input-embedding table: the embedding is a lookup (vLLM's
VocabParallelEmbedding runs F.embedding), so a step reads one row per token, not the table; the LM head is a matmul
over the vocabulary and is read and multiplied every step (with tied embeddings it is the same table).
    t_step    = pp · max(t_mem, t_compute) per stage  +  step overhead  +  layers · per-layer launch overhead
                +  layers · the MoE kernel chain's fixed time (MoE models; vLLM and SGLang's Triton fused MoE)
                +  B · per-sequence CPU time (scheduling, sampling)  +  2 · layers all-reduces (tp > 1)

MoE layers read only the experts the batch touches: of E experts with k per token, a batch of B tokens
touches E · (1 − (1 − k/E)^B) per layer (each expert missed by every token with probability
(1 − k/E)^B), so the expert bytes scale by 1 − (1 − k/E)^B; the attention and shared weights are read
in full. Pipeline stages split the batch into `pp` micro-batches: capacity grows, per-token latency
does not (each token still passes every stage).

Prefill of one prompt of L tokens: 2 · N_layers,active · L + 2 · N_head (+ 2 · layers · L² · q_dim for causal
attention, at half the MFU where vLLM has no FlashAttention-2: below SM 8.0, tools/serving_profiles.py
`NO_FA2_BELOW_CC`) FLOPs at the prefill MFU, and at least one read of the weights per chunk of the engine's step budget. The
LM head runs for the sampled position only: vLLM V1 computes logits at one index per scheduled request
(vllm/v1/worker/gpu_model_runner.py, `logits_indices = query_start_loc[1:] - 1`), not for every prompt token, and the
embedding is a lookup with no FLOPs; counting both at every token overstated the prefill FLOPs of Qwen3-14B by
12 %, Llama-3-8B by 15 %, Qwen3-30B-A3B by 23 % and (tied embeddings) Qwen2.5-0.5B by 38 %.

Queueing model. Prefills share the GPU with decode steps. Over a long run the GPU spends
B · t_prefill + L_out · t_step to finish B requests, so a replica with B sequences in flight completes
λ = B / (L_out · t_step + B · t_prefill + t_request) requests per ms (t_request: the engine's per-request
work outside the GPU). A new request waits for the prefills ahead of it as in an M/D/1 queue — Poisson
arrivals, a deterministic prefill time, utilisation ρ = λ · t_prefill, mean wait ρ · t_prefill / (2(1 − ρ)) —
and half a decode step for the scheduler to pick it up: TTFT = t_request + wait + t_prefill + t_step / 2.
Closed loops (N users) use the same formula with λ from the throughput. The step that finishes a prompt
samples its first token (vLLM V1's model runner discards the samples of partial prefill chunks and keeps the
one of the final chunk; SGLang and TensorRT-LLM return the prefill's token likewise), so a request's life is
t_request + its prefill + (L_out − 1) decode steps, with the other users' prefills in between:
E2E = t_request + B · t_prefill + (L_out − 1) · t_step, λ = B / E2E (Little's law), TPOT = (E2E − TTFT) /
(L_out − 1). One user alone (a closed loop of one, or a batch) finds the engine idle: the client sends the next
request only after the last one finished, so there is no step in flight to wait for and TTFT = t_request +
t_prefill (the half step applies only where other requests keep the engine busy).

Requests that arrive together. A benchmark's closed loop with fixed lengths (`vllm bench serve
--max-concurrency N --ignore-eos`) starts all N requests at t = 0; they finish on the same step and the
next N arrive together again, so every wave of N prompts is prefilled at once. The engine packs the wave's
N · L_in tokens into steps of its token budget (vLLM's max_num_batched_tokens, SGLang's chunked prefill
size, TensorRT-LLM's max_num_tokens); a prompt's first token comes with the step that finishes it, so the
mean TTFT is t_request + the wave's prefill × (mean step a prompt finishes in) / (steps). A burst
(`--request-rate inf --num-prompts M`, every prompt at t = 0) adds the queue for a slot: the first
min(M, B) prompts form the first wave (and reach the engine no faster than its front end admits them, one
per `request_cpu_ms`); the rest are admitted one by one as slots free, at the burst's service rate λ,
the j-th after E2E + j / λ. The mean over the M requests is the burst's TTFT.
For a request rate, B solves B = λ · E2E(B); when that needs more than the KV pool holds, or ρ ≥ 1,
the layout is saturated. Every batch, the maximum-throughput one included, is capped at the whole
sequences (input + output tokens) the pool holds. Short requests can be bound by the engine's front end
instead of the GPU: one request costs `request_cpu_ms` on its single API/scheduler thread, so a replica
serves at most 1/that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.domain import GIB, GPU, ModelSpec, SoftwareStack
from tools.errors import InputError
from tools.kv_cache import kv_cache
from tools.kv_pool import KvPoolInputs, KvPoolTerms, PoolRule, kv_pool
from tools.notes import Note
from tools.serving_codes import CaveatCode, ServingCode, ServingError
from tools.serving_profiles import (
    Engine,
    ACTIVATION_BYTES,
    ADMISSION_OUTPUT_RESERVE,
    ALLREDUCE_LATENCY_US,
    BITS_PER_WEIGHT,
    FORMAT_BANDWIDTH_FACTOR,
    FP32_LANES_PER_SM,
    LLAMACPP_COMPUTE_BUFFER_GIB,
    NON_TORCH_GIB,
    NON_TORCH_SINCE_BASELINE_GIB,
    PCIE_ALLREDUCE_SHARE,
    PCIE_GBPS,
    PIPELINE_HOP_MS,
    PROFILES,
    SAMPLER_BYTES_PER_LOGIT,
    SGLANG_CHUNK,
    SGLANG_MAX_RUNNING,
    SGLANG_MEM_FRACTION,
    TORCH_VISIBLE_FRACTION,
    TRTLLM_MAX_BATCH,
    TRTLLM_LOGIT_BYTES,
    TRTLLM_MAX_TOKENS,
    V0_CHUNKED_ABOVE_TOKENS,
    V0_CHUNKED_BUDGET,
    V0_MAX_SEQS,
    V0_MIN_BATCHED_TOKENS,
    VLLM_BATCHED_TOKENS,
    VLLM_BATCHED_TOKENS_IN_PROCESS,
    VLLM_BIG_GPU_GIB,
    VLLM_MAX_SEQS,
    WEIGHT_READ_PARALLELISM,
    EngineProfile,
    EngineScheduling,
    MemoryRule,
    SamplerWarmup,
    VllmEngine,
    WeightFormat,
    compute_precision,
    kv_dtype,
    kv_element_bytes,
    legacy_int4_kernel,
    linear_only,
    peak_tflops,
    prefill_attention_efficiency,
    vllm_release,
)
from tools.serving_types import (
    DEFAULT_PEAK_FACTOR,
    SECONDS_PER_DAY,
    Layout,
    Load,
    LoadKind,
    ServingRequest,
    StepTime,
)
from tools.vram_shape import shape_of, split_params

BLOCK_TOKENS = 16  # vLLM's default KV block size


# ------------------------------------------------------------------ weights


def weight_bytes(model: ModelSpec, fmt: WeightFormat) -> float:
    """Bytes of all the weights as served (all experts of an MoE model are resident)."""
    bits = BITS_PER_WEIGHT[fmt]
    if linear_only(fmt):
        linear, other = split_params(model)
        return linear * bits / 8 + other * 2  # embeddings and LM head stay in 16 bits
    return model.params * bits / 8


def embedding_split(model: ModelSpec, fmt: WeightFormat) -> tuple[float, float, float]:
    """(input-embedding table bytes, its parameters, LM-head parameters) of a decoder as served.

    The input embedding is a lookup (vLLM's VocabParallelEmbedding runs F.embedding): a step reads the rows of its
    tokens, not the table, and does no matmul with it. The LM head is a matmul over the vocabulary; with tied embeddings
    it is the same table, so the table is read once per step as the head and nothing is left over. The vocabulary and
    hidden size come from the model's shape (tools/vram_shape.py decides tied or untied from the published total);
    never more than half the model, as `split_params` bounds it. Bytes at the format's storage rate: 16 bits for
    linear-only formats (AWQ/GPTQ/FP8/INT8 keep embeddings in 16 bits), the whole-file rate for GGUF.
    """
    s = shape_of(model)
    tables = 1 if s.tied_embeddings else 2
    table = min(float(s.vocab * s.hidden), model.params / 2 / tables)
    head = table
    if s.tied_embeddings:
        return 0.0, 0.0, head
    bits = 16.0 if linear_only(fmt) or not fmt.quantised else BITS_PER_WEIGHT[fmt]
    return table * bits / 8, table, head


def expert_fraction(model: ModelSpec) -> float:
    """Share of the parameters in routed experts: E · (P − A) / (E − k) over P (0 for dense models)."""
    e, k = model.moe_experts, model.moe_active_experts
    if not e or not k or e <= k or not model.active_params:
        return 0.0
    per_expert = (model.params - model.active_params) / (e - k)  # one expert, all layers
    return min(1.0, max(0.0, e * per_expert / model.params))


def touched_fraction(experts: int, active: int, tokens: float) -> float:
    """Expected share of E experts that a batch of `tokens` tokens routes to: 1 − (1 − k/E)^B."""
    if experts <= 0 or active <= 0:
        return 1.0
    return 1.0 - (1.0 - active / experts) ** max(1.0, tokens)


# ------------------------------------------------------------------ one layout, fixed quantities


@dataclass
class Plan:
    """Everything fixed once model, GPU, request and layout are known."""

    model: ModelSpec
    gpu: GPU
    req: ServingRequest
    layout: Layout
    profile: EngineProfile
    in_len: int
    out_len: int
    context_len: int
    kv_dtype: str
    kv_bytes: float
    weights_total: float  # bytes, whole model
    weights_gpu: float  # bytes on one GPU
    expert_share: float
    n_active: float
    embed_bytes_gpu: float  # the input-embedding table on one GPU: resident, never read whole by a step (0 when tied)
    linear_active: float  # parameters a token multiplies by inside the transformer layers (active experts for MoE)
    head_params: float  # the LM head's parameters (vocabulary × hidden): one matmul per sampled position
    layers: int
    hidden: int
    intermediate: int
    q_dim: int
    vocab: int
    peak: float | None  # TFLOPS of the format's matmuls, per GPU
    bandwidth: float  # bytes/ms on one GPU at the engine's efficiency (16-bit kernels)
    weight_bandwidth: float  # bytes/ms a decode step's weight reads reach: `bandwidth`, capped by memory parallelism
    format_factor: float
    # memory (per GPU)
    visible_gib: float
    usable_gib: float
    non_torch_gib: float
    activation_gib: float
    pool_gib: float
    batched_tokens: int
    max_num_seqs: int
    memory_note: Note
    kv_memo: dict | None = None
    pool_terms: KvPoolTerms | None = None  # the pool's terms (tools/kv_pool.py)
    scheduler_steps: int = 1  # decode steps per scheduler call (vLLM --num-scheduler-steps; 1: every step)
    cpu_overlap: bool = False  # the per-sequence CPU work runs beside the GPU's (vLLM async scheduling)
    attention_efficiency: float = 1.0  # the prompt attention's share of the prefill MFU (< 1: no FlashAttention-2)
    legacy_int4: bool = False  # int4 on vLLM below SM 8.0: no Marlin kernel, weights read no faster than 16-bit


# engines that run on NVIDIA's CUDA stack only (vLLM, SGLang and llama.cpp have ROCm builds)
CUDA_ONLY_ENGINES = frozenset({Engine.trtllm})


def make_plan(model: ModelSpec, gpu: GPU, req: ServingRequest, layout: Layout, in_len: int, out_len: int,
              scheduling: EngineScheduling | None = None) -> Plan:
    if req.engine in CUDA_ONLY_ENGINES and gpu.stack is not None and gpu.stack != SoftwareStack.cuda:
        # TensorRT-LLM builds CUDA engines only (NVIDIA/TensorRT-LLM: "NVIDIA GPUs"): no estimate on ROCm or CANN
        raise InputError(Note.of(ServingError.engine_stack, engine=req.engine.value, gpu=gpu.key, stack=gpu.stack.value))
    profile = PROFILES[req.engine]
    s = shape_of(model)
    dtype = kv_dtype(req.kv_precision, gpu)
    total = weight_bytes(model, req.weights)
    shards = layout.tp * layout.pp
    embed_bytes, embed_params, head = embedding_split(model, req.weights)
    peak = peak_tflops(req.weights, gpu)
    bw = (gpu.memory_bandwidth_gbps or 0.0) * 1e9 / 1e3 * profile.bandwidth_efficiency  # bytes per ms
    cap = weight_read_cap_gbps(gpu)
    weight_bw = bw if cap is None else min(bw, cap * 1e9 / 1e3)
    context = req.max_model_len or (in_len + out_len)
    factor = FORMAT_BANDWIDTH_FACTOR[req.weights]
    legacy = legacy_int4_kernel(req.engine, req.weights, gpu)
    if legacy:  # the decode step takes as long as the 16-bit model's weight read (serving_profiles MARLIN_FROM_CC)
        factor = total / weight_bytes(model, WeightFormat.fp16)
    plan = Plan(
        model=model, gpu=gpu, req=req, layout=layout, profile=profile, in_len=in_len, out_len=out_len,
        context_len=context, kv_dtype=dtype, kv_bytes=kv_element_bytes(dtype), weights_total=total,
        weights_gpu=total / shards, expert_share=expert_fraction(model), n_active=model.compute_params,
        embed_bytes_gpu=embed_bytes / shards, linear_active=max(0.0, model.compute_params - embed_params - head),
        head_params=head,
        layers=s.layers, hidden=s.hidden, intermediate=s.intermediate, q_dim=s.heads * s.head_dim, vocab=s.vocab,
        peak=peak, bandwidth=bw, weight_bandwidth=weight_bw, format_factor=factor,
        visible_gib=visible_gib(gpu), usable_gib=0.0, non_torch_gib=0.0,
        activation_gib=0.0, pool_gib=0.0, batched_tokens=0, max_num_seqs=0, memory_note=Note.of(ServingCode.kv_dtype),
        scheduler_steps=(scheduling or EngineScheduling()).scheduler_steps(req.engine, req.vllm_engine),
        cpu_overlap=(scheduling or EngineScheduling()).overlaps_cpu(req.engine, req.vllm_engine, layout.pp),
        attention_efficiency=prefill_attention_efficiency(req.engine, gpu), legacy_int4=legacy,
    )
    _size_memory(plan)
    return plan


def visible_gib(gpu: GPU) -> float:
    """Total memory PyTorch sees on one GPU (`torch.cuda.mem_get_info`, what vLLM and SGLang size their pools from):
    the catalog's figure read from an engine log where one is cited, else TORCH_VISIBLE_FRACTION × nvidia-smi's."""
    return gpu.torch_visible_gib or gpu.usable_memory_gib * TORCH_VISIBLE_FRACTION


def sm_ghz(gpu: GPU) -> float | None:
    """SMs × boost clock in GHz, from the FP32 peak: TFLOPS × 1000 / (2 × FP32 lanes per SM); None when unknown."""
    cc = gpu.cc
    lanes = None if cc is None else FP32_LANES_PER_SM.get(round(cc, 1))
    if not gpu.fp32_tflops or not lanes:
        return None
    return gpu.fp32_tflops * 1e3 / (2 * lanes)


def weight_read_cap_gbps(gpu: GPU) -> float | None:
    """GB/s a decode step's matrix-vector kernels can read: SMs × GHz × bytes in flight per SM and cycle."""
    cycles = sm_ghz(gpu)
    return None if cycles is None else cycles * WEIGHT_READ_PARALLELISM["bytes_per_sm_clock"]


def weight_read_note(p: Plan) -> Note | None:
    """The memory-parallelism cap, stated when it binds (below the engine's bandwidth efficiency)."""
    cycles = sm_ghz(p.gpu)
    if cycles is None or p.weight_bandwidth >= p.bandwidth * (1 - 1e-9):
        return None
    peak = p.gpu.memory_bandwidth_gbps or 0.0
    return Note.of(ServingCode.weight_read_cap, gpu=p.gpu.key, cap_gb_s=round(p.weight_bandwidth * 1e3 / 1e9),
                   bandwidth_gb_s=peak, cap_share=round(p.weight_bandwidth * 1e3 / 1e9 / peak, 3),
                   sm_ghz=round(cycles), bytes_per_sm_clock=WEIGHT_READ_PARALLELISM["bytes_per_sm_clock"])


def _big_gpu(gpu: GPU) -> bool:
    """vLLM's rule: ≥ 70 GiB and not an A100 gets the larger step budget."""
    return gpu.usable_memory_gib >= VLLM_BIG_GPU_GIB and "a100" not in gpu.key.lower() and "a800" not in gpu.key.lower()


def forward_peak_bytes(model: ModelSpec, tokens: int, tp: int = 1) -> float:
    """Activation peak of one forward pass over `tokens` tokens on one GPU, in bytes (weights and KV cache apart).

    Two hidden-size tensors live through every layer: the residual stream and the layer's input. On top of them
    the largest transient is the attention block's or the MLP's (vLLM's layers, ACTIVATION_BYTES per value):

    * attention: the fused QKV projection, q/tp + 2·kv/tp (every rank keeps at least one KV head), the attention
      output q/tp and o_proj's output h;
    * dense MLP: gate_up 2I/tp (I/tp without a gate), the activation I/tp, down_proj's output h;
    * MoE: the fused-MoE caches of the k experts a token visits, k · 3I/tp, and their k down outputs k · h, plus
      the sum h.

    Llama-3.1-8B (h 4,096, I 14,336): the MLP, 3 × 4,096 + 3 × 14,336 = 55,296 values = 110,592 B per token.
    """
    s = shape_of(model)
    h = s.hidden
    q = s.heads * s.head_dim / tp
    kv = math.ceil(s.kv_heads / tp) * s.head_dim
    attention = 2 * h + (q + 2 * kv) + q + h
    widths = (3 if s.gated_mlp else 2) * s.intermediate / tp
    if s.experts > 1:
        mlp = 2 * h + s.active_experts * (widths + h) + h
    else:
        mlp = 2 * h + widths + h
    return float(tokens) * max(attention, mlp) * ACTIVATION_BYTES


def sampler_peak_bytes(model: ModelSpec, tokens: int, sequences: int, sampler: SamplerWarmup) -> float:
    """vLLM's sampler warm-up after the forward pass: `sequences` rows over the vocabulary (SAMPLER_BYTES_PER_LOGIT
    each), beside the forward pass's hidden states of all `tokens` tokens, in bytes."""
    s = shape_of(model)
    return float(sequences) * s.vocab * SAMPLER_BYTES_PER_LOGIT[sampler] + float(tokens) * s.hidden * ACTIVATION_BYTES


def vllm_profile_batch(req: ServingRequest, context: int, big: bool) -> tuple[int, int, bool]:
    """(tokens, max_num_seqs, chunked prefill) of vLLM's scheduler, which its profile run uses.

    V0 without chunked prefill runs max(max_model_len, 2048) tokens; V0 chunks by itself above a 32K context (a
    2048-token budget). V1 always chunks, at its step budget (8192 on ≥ 70 GiB GPUs that are not A100s, else 2048,
    through the OpenAI server; 16384 / 8192 in process, the LLM class: VLLM_BATCHED_TOKENS_IN_PROCESS); with chunked
    prefill off it too needs the whole context in one step.
    """
    size = "big" if big else "other"
    if req.vllm_engine == VllmEngine.v0:
        chunked = req.chunked_prefill if req.chunked_prefill is not None else context > V0_CHUNKED_ABOVE_TOKENS
        default = V0_CHUNKED_BUDGET if chunked else max(context, V0_MIN_BATCHED_TOKENS)
        seqs = req.max_num_seqs or V0_MAX_SEQS
    else:
        chunked = req.chunked_prefill is not False
        budget = (VLLM_BATCHED_TOKENS_IN_PROCESS if req.in_process else VLLM_BATCHED_TOKENS)[size]
        default = budget if chunked else max(context, budget)
        seqs = req.max_num_seqs or VLLM_MAX_SEQS[size]
    return req.max_batched_tokens or default, seqs, chunked


def _size_memory(p: Plan) -> None:
    """The KV pool per GPU by the engine's own rule: the terms here, the rule in tools/kv_pool.py (with the sources)."""
    req, gpu, prof = p.req, p.gpu, p.profile
    tp_world = p.layout.tp * p.layout.pp
    weights_gib = p.weights_gpu / GIB
    base = NON_TORCH_GIB[1]  # CUDA context, cuBLAS workspaces, kernel modules: every GPU
    nccl = 0.0 if tp_world == 1 else NON_TORCH_GIB[_link(gpu)[0]] - base  # + NCCL buffers by link
    big = _big_gpu(gpu)
    forward = sampled = buffer = 0.0
    profile: dict[str, object] = {}  # what vLLM's profile run assumed, for the memory note
    engine, release = None, vllm_release(req.engine_version)
    growth = None  # vLLM only: the non-torch memory its profiler sees grow after the baseline (by release, kv_pool)
    if req.engine.value == "vllm":
        batched, seqs, chunked = vllm_profile_batch(req, p.context_len, big)
        sampler = req.vllm_sampler or (SamplerWarmup.sort if req.vllm_engine == VllmEngine.v0 else SamplerWarmup.fused)
        warmup = min(seqs, batched)  # one sampled token per dummy sequence
        forward = forward_peak_bytes(p.model, batched, p.layout.tp) / GIB
        sampled = sampler_peak_bytes(p.model, batched, warmup, sampler) / GIB
        engine, growth = req.vllm_engine, NON_TORCH_SINCE_BASELINE_GIB
        profile = dict(vllm_engine=req.vllm_engine.value, chunked_prefill=chunked, sampler=sampler.value,
                       warmup_sequences=warmup)
        rule, fraction = PoolRule.vllm, req.gpu_memory_utilization or prof.default_memory_fraction
    elif req.engine.value == "sglang":
        batched = req.max_batched_tokens or SGLANG_CHUNK["big" if gpu.memory_gb >= 25 else "small"]
        seqs = req.max_num_seqs or SGLANG_MAX_RUNNING
        rule = PoolRule.sglang
        fraction = req.gpu_memory_utilization or next(f for n, f in SGLANG_MEM_FRACTION if tp_world >= n)
    elif req.engine.value == "trtllm":
        batched = req.max_batched_tokens or TRTLLM_MAX_TOKENS
        seqs = req.max_num_seqs or TRTLLM_MAX_BATCH
        forward = forward_peak_bytes(p.model, batched, p.layout.tp) / GIB
        buffer = seqs * p.vocab * TRTLLM_LOGIT_BYTES / GIB
        rule, fraction = PoolRule.trtllm, req.gpu_memory_utilization or prof.default_memory_fraction
    else:  # llama.cpp / transformers: one prompt batch of 512 (llama.cpp -ub), few parallel slots
        batched = req.max_batched_tokens or 512
        seqs = req.max_num_seqs or 256
        buffer, nccl = LLAMACPP_COMPUTE_BUFFER_GIB, 0.0
        rule, fraction = PoolRule.context, req.gpu_memory_utilization or prof.default_memory_fraction
    terms = kv_pool(KvPoolInputs(rule=rule, total_gib=p.visible_gib, fraction=fraction, weights_gib=weights_gib,
                                 non_torch_gib=base, non_torch_growth_gib=growth, nccl_gib=nccl, forward_gib=forward, sampler_gib=sampled,
                                 buffer_gib=buffer, vllm_engine=engine, vllm_release=release))
    non_torch, activation = terms.non_torch_gib, terms.activation_gib
    if rule == PoolRule.vllm:
        note = Note.of(ServingCode.memory_vllm, memory_fraction=fraction, visible_gib=round(p.visible_gib, 2),
                       non_torch_gib=round(non_torch, 2), activation_gib=round(activation, 2), batched_tokens=batched,
                       **profile)
    elif rule == PoolRule.sglang:
        note = Note.of(ServingCode.memory_sglang, memory_fraction=fraction, visible_gib=round(p.visible_gib, 2),
                       non_torch_gib=round(non_torch, 2))
    elif rule == PoolRule.trtllm:
        note = Note.of(ServingCode.memory_trtllm, memory_fraction=fraction, visible_gib=round(p.visible_gib, 2),
                       activation_gib=round(activation, 2))
    else:
        note = Note.of(ServingCode.memory_context, engine=req.engine.value, buffer_gib=activation + non_torch)
    p.usable_gib, p.non_torch_gib, p.activation_gib = terms.budget_gib, non_torch, activation
    p.pool_gib, p.batched_tokens, p.max_num_seqs, p.memory_note = terms.pool_gib, batched, seqs, note
    p.pool_terms = terms


# ------------------------------------------------------------------ KV capacity


def seq_kv_bytes(p: Plan, tokens: int) -> float:
    """KV bytes one sequence of `tokens` tokens takes on the most loaded GPU (memoised per plan)."""
    n = max(1, int(tokens))
    if p.kv_memo is None:
        p.kv_memo = {}
    if n not in p.kv_memo:
        p.kv_memo[n] = kv_cache(p.model, n, 1, p.layout.tp, p.layout.pp, p.kv_bytes).bytes_per_gpu
    return p.kv_memo[n]


def pool_tokens(p: Plan) -> int:
    """Tokens the pool holds, as the engine reports it: blocks × 16 (vLLM), or sequences of the context
    length × that length when sliding-window layers make the per-token cost depend on length."""
    pool = max(0.0, p.pool_gib) * GIB
    one = seq_kv_bytes(p, p.context_len)
    if one <= 0:
        return 0
    per_token_flat = seq_kv_bytes(p, 1)
    if abs(one - per_token_flat * p.context_len) < 1e-6 * one:  # no sliding layers: the plain per-token cost
        tokens = pool / per_token_flat
        if p.req.engine.value == "vllm":
            tokens = math.floor(tokens / BLOCK_TOKENS) * BLOCK_TOKENS
        return int(tokens)
    return int(pool / one * p.context_len)


def max_sequences(p: Plan, tokens: int) -> int:
    """Whole sequences of `tokens` tokens the pool holds, capped by the engine's sequence limit."""
    one = seq_kv_bytes(p, tokens)
    if one <= 0 or p.pool_gib <= 0:
        return 0
    return int(min(p.max_num_seqs, math.floor(p.pool_gib * GIB / one)))


# ------------------------------------------------------------------ time


def _link(gpu: GPU) -> tuple[str, float]:
    """Interconnect name and per-GPU all-reduce bandwidth in bytes/ms."""
    if gpu.nvlink and gpu.nvlink_bandwidth_gbps:
        return "nvlink", gpu.nvlink_bandwidth_gbps / 2 * 1e9 / 1e3  # one direction
    return "pcie", PCIE_GBPS.get(gpu.pcie_gen or 4, PCIE_GBPS[4]) * PCIE_ALLREDUCE_SHARE["share"] * 1e9 / 1e3


def allreduce_ms(p: Plan, tokens: float) -> float:
    """Two all-reduces per layer (attention out, MLP out) of tokens × hidden 16-bit values, ring algorithm."""
    tp = p.layout.tp
    if tp <= 1:
        return 0.0
    link, bw = _link(p.gpu)
    per_call = ALLREDUCE_LATENCY_US[link] / 1e3 + tokens * p.hidden * 2 * 2 * (tp - 1) / tp / bw
    return 2 * (p.layers / p.layout.pp) * per_call * p.layout.pp  # every stage's layers, in sequence


def step_time(p: Plan, batch: float, context: float) -> StepTime:
    """One decode step for `batch` sequences holding `context` tokens each, per replica."""
    pp = p.layout.pp
    micro = max(1.0, batch / pp)  # sequences per pipeline micro-batch
    experts = p.model.moe_experts or 0
    touched = touched_fraction(experts, p.model.moe_active_experts or 0, micro) if experts else 1.0
    # the layers' weights (routed experts only as far as the batch touches them) and the LM head; the input embedding
    # table is looked up row by row, not read
    stage_weights = p.weights_gpu * (1 - p.expert_share + p.expert_share * touched) - p.embed_bytes_gpu
    weights_ms = stage_weights / (p.weight_bandwidth * p.format_factor) if p.bandwidth else math.inf
    kv_ms = micro * seq_kv_bytes(p, int(context)) / p.bandwidth if p.bandwidth else math.inf
    compute_ms = None
    if p.peak:
        flops = 2 * (p.linear_active + p.head_params) * micro / (p.layout.tp * pp)  # every token samples: the head runs
        compute_ms = flops / (p.peak * 1e12 * p.profile.decode_mfu) * 1e3
    memory_ms = weights_ms + kv_ms
    stage = max(memory_ms, compute_ms or 0.0)
    # MoE layers add the fused-MoE kernel chain's fixed time per layer (EngineProfile.moe_layer_overhead_us)
    moe_us = p.profile.moe_layer_overhead_us if experts > 1 else 0.0
    fixed = (p.profile.step_overhead_ms + p.layers * (p.profile.layer_overhead_us + moe_us) / 1e3
             + allreduce_ms(p, micro) + (pp - 1) * PIPELINE_HOP_MS)
    seq_cpu = batch * p.profile.seq_overhead_us / 1e3  # the engine's CPU work per sequence and step
    if p.cpu_overlap:  # async scheduling: the next step's CPU work runs during this step's GPU work (serving_profiles)
        step_ms = max(pp * stage + fixed, seq_cpu)
    else:
        step_ms = pp * stage + fixed + seq_cpu
    bound = "compute" if compute_ms is not None and compute_ms > memory_ms else "memory"
    return StepTime(weights_ms=weights_ms * pp, kv_ms=kv_ms * pp, compute_ms=None if compute_ms is None else compute_ms * pp,
                    overhead_ms=step_ms - pp * stage, step_ms=step_ms, bound=bound)


def prefill_ms(p: Plan, tokens: float, sequences: float = 1.0) -> float:
    """Prompt processing of `sequences` prompts of `tokens` tokens each (one replica)."""
    total = tokens * sequences
    attention = 2 * p.layers * tokens * tokens * p.q_dim * sequences  # causal: half of 4·L²·d per layer
    # the layers' matmuls for every prompt token; the LM head only where a token is sampled: vLLM V1 computes logits
    # for one position per scheduled request (gpu_model_runner.py: `logits_indices = query_start_loc[1:] - 1`, then
    # `compute_logits(hidden_states[logits_indices])`), SGLang and TensorRT-LLM keep only the last token's hidden state
    # likewise; the embedding is a lookup
    flops = 2 * p.linear_active * total + 2 * p.head_params * sequences + attention
    chunks = max(1, math.ceil(total / max(1, p.batched_tokens)))
    read = p.weights_gpu - p.embed_bytes_gpu
    weights_ms = chunks * read / (p.bandwidth * p.format_factor) * p.layout.pp if p.bandwidth else 0.0
    compute = 0.0
    if p.peak:  # the attention FLOPs at the attention kernel's share of the MFU (below SM 8.0 vLLM has no FA2)
        effective = flops - attention + attention / p.attention_efficiency
        compute = effective / (p.layout.tp * p.peak * 1e12 * p.profile.prefill_mfu) * 1e3
    return max(compute, weights_ms) + chunks * p.profile.step_overhead_ms + allreduce_ms(p, total)


# ------------------------------------------------------------------ the load


@dataclass
class Operating:
    """Where one replica runs under a load."""

    batch: float
    step: StepTime
    prefill: float
    ttft: float
    tpot: float
    e2e: float
    req_per_ms: float
    queue: float
    saturated: bool


def wave_first_token_ms(p: Plan, prompts: float) -> float:
    """Mean time from the arrival of `prompts` prompts together to their first tokens (one replica).

    The engine packs the wave's tokens into steps of its token budget (`batched_tokens`); prompt i (0-based) ends in
    step ceil((i + 1) · L_in / budget) and gets its first token when that step does. The wave's prefill time is shared
    evenly between its steps.
    """
    n = max(1, round(prompts))
    total = prefill_ms(p, p.in_len, n)
    budget = max(1, p.batched_tokens)
    steps = max(1, math.ceil(n * p.in_len / budget))
    ends = sum(min(steps, math.ceil((i + 1) * p.in_len / budget)) for i in range(n)) / n  # mean step a prompt ends in
    return total * ends / steps


def group_rounding_ms(p: Plan, step_ms: float) -> float:
    """Multi-step scheduling (`scheduler_steps` N > 1): a request's tokens come back once per group of N decode steps and
    it leaves the batch when its group ends, so its last token waits (N − 1) / 2 steps on average past the step that
    made it (lengths not aligned to N). 0 without multi-step or without decode steps."""
    n = p.scheduler_steps
    return (n - 1) / 2 * step_ms if n > 1 and p.out_len > 1 else 0.0


def closed_loop(p: Plan, batch: float, arrival_per_ms: float | None = None, together: bool = False) -> Operating:
    """Steady state with `batch` sequences in flight (see the module docstring); `together`: the users' requests
    arrive together and stay in step, so each waits for its wave's prefill instead of queueing at random.

    Multi-step scheduling (vLLM `--num-scheduler-steps N`, `p.scheduler_steps`; tools/serving_profiles.py
    `EngineScheduling` has the code it is read from): the scheduler runs only when the running group of N decode steps
    ends, so a request that arrives while the engine is busy waits for the rest of that group — N · t_step / 2 on
    average (Poisson arrivals see the group at a uniform point) — instead of half a step and the M/D/1 queue; the
    prompts that arrived during the group (λ · N · t_step besides its own, on average) are prefilled together in one
    step, and its first token comes back with that step. Its last token comes back when its group ends
    (`group_rounding_ms`). The wait for the group is time in the system: it is in E2E too.
    """
    context = p.in_len + p.out_len / 2  # mean tokens held while decoding
    step = step_time(p, batch, context)
    t_p = prefill_ms(p, p.in_len)
    multi = p.scheduler_steps > 1 and not together and (batch > 1 or arrival_per_ms is not None)
    group = p.scheduler_steps * step.step_ms if multi else 0.0
    e2e = (max(0, p.out_len - 1) * step.step_ms + batch * t_p + p.profile.request_overhead_ms + group / 2
           + group_rounding_ms(p, step.step_ms))
    rate = batch / e2e
    cpu = p.profile.request_cpu_ms
    if cpu > 0 and rate > 1 / cpu:  # the front end admits one request per request_cpu_ms at most
        rate = 1 / cpu
        e2e = batch / rate
    lam = arrival_per_ms if arrival_per_ms is not None else rate
    rho = lam * t_p
    saturated = rho >= 1
    wait = rho * t_p / (2 * (1 - rho)) if rho < 1 else math.inf
    if together and batch > 1:
        wave = wave_first_token_ms(p, batch)  # the whole wave arrives at once: no decode step is running
        wait = max(0.0, wave - t_p)
        ttft = p.profile.request_overhead_ms + wave
    elif batch <= 1 and arrival_per_ms is None:  # one user: the engine is idle when the request arrives
        wait = 0.0
        ttft = p.profile.request_overhead_ms + t_p
    elif multi:
        if not saturated:  # the rest of the running group, then one prefill step for every prompt that arrived in it
            wait = group / 2 + prefill_ms(p, p.in_len, 1 + lam * group) - t_p
        ttft = p.profile.request_overhead_ms + t_p + wait
    else:
        ttft = p.profile.request_overhead_ms + t_p + step.step_ms / 2 + wait
    if math.isinf(ttft):
        ttft = e2e
    tpot = max(step.step_ms, (e2e - ttft) / (p.out_len - 1)) if p.out_len > 1 else step.step_ms
    return Operating(batch, step, t_p, ttft, tpot, e2e, rate, 0.0 if math.isinf(wait) else wait, saturated)


def admitted_at_once(p: Plan) -> int:
    """Requests the engine admits before any finishes: its sequence cap, or the prompts (plus the share of the output
    it reserves, ADMISSION_OUTPUT_RESERVE) that the KV pool holds. More than `max_batch` for engines that admit on the
    prompt and preempt later (vLLM) — the steady batch stays the whole sequences the pool holds."""
    reserve = ADMISSION_OUTPUT_RESERVE.get(p.req.engine.value, 1.0)
    one = seq_kv_bytes(p, max(1, round(p.in_len + reserve * p.out_len)))
    if one <= 0 or p.pool_gib <= 0:
        return 0
    return int(min(p.max_num_seqs, math.floor(p.pool_gib * GIB / one)))


def burst(p: Plan, steady: Operating, requests: float) -> Operating:
    """`requests` prompts sent at once to one replica whose steady state is `steady`.

    The first wave (the prompts the engine admits at once: `admitted_at_once`) is prefilled as it reaches the engine,
    no faster than the front end admits requests (one per `request_cpu_ms`); the rest wait for a slot, admitted one by
    one at the steady service rate once the first requests finish (after E2E: every request is taken at the mean
    length), and then see the steady state's own TTFT. The result's TTFT is the mean over all the requests; throughput
    and per-token latency are the steady state's.
    """
    n = max(1.0, float(requests))
    first = min(n, float(admitted_at_once(p)))
    overhead = p.profile.request_overhead_ms
    front_end = (first - 1) / 2 * p.profile.request_cpu_ms + steady.prefill  # mean arrival at the engine + prefill
    wave = max(wave_first_token_ms(p, first), front_end)
    later = n - first
    queued = steady.e2e + max(0.0, later - 1) / (2 * steady.req_per_ms) + (steady.ttft - overhead) if later > 0 else 0.0
    ttft = overhead + (first * wave + later * queued) / n
    e2e = ttft + max(0, p.out_len - 1) * steady.tpot
    return Operating(steady.batch, steady.step, steady.prefill, ttft, steady.tpot, e2e, steady.req_per_ms,
                     ttft - overhead - steady.prefill, steady.saturated)


def static_batch(p: Plan, batch: int) -> Operating:
    """A batch started together: one batched prefill, then L_out decode steps at the full batch."""
    step = step_time(p, batch, p.in_len + p.out_len / 2)
    t_p = prefill_ms(p, p.in_len, batch)
    ttft = p.profile.request_overhead_ms + t_p
    e2e = ttft + max(0, p.out_len - 1) * step.step_ms + group_rounding_ms(p, step.step_ms)
    rate = batch / e2e
    if p.profile.request_cpu_ms > 0:
        rate = min(rate, 1 / p.profile.request_cpu_ms)
    tpot = max(step.step_ms, (e2e - ttft) / (p.out_len - 1)) if p.out_len > 1 else step.step_ms
    return Operating(batch, step, t_p, ttft, tpot, e2e, rate, 0.0, False)


def open_loop(p: Plan, arrival_per_ms: float, cap: int) -> Operating:
    """Poisson arrivals at λ per ms: B solves B = λ · E2E(B); saturated above `cap` or when ρ ≥ 1."""
    batch = 1.0
    for _ in range(200):
        op = closed_loop(p, batch, arrival_per_ms)
        new = max(1.0, arrival_per_ms * op.e2e)
        if abs(new - batch) < 1e-6 * max(1.0, batch):
            batch = new
            break
        if new > cap:
            batch = float(cap)
            break
        batch = new
    op = closed_loop(p, min(batch, float(max(1, cap))), arrival_per_ms)
    if batch >= cap and arrival_per_ms > op.req_per_ms * (1 + 1e-9):
        op.saturated = True
    return op


def max_batch(p: Plan) -> int:
    """The engine's largest batch: its sequence cap, or the whole sequences the pool holds at their full length.

    The full length, not the mean context held while decoding: the scheduler admits a request only while KV blocks
    are free, so a batch whose sequences could not all reach input + output tokens would be preempted on the way
    (vLLM recomputes them), and the memory and concurrency the estimate shows would exceed the pool. TensorRT-LLM's
    default GUARANTEED_NO_EVICT policy reserves exactly this: prompt + maximum output per admitted request
    (nvidia.github.io/TensorRT-LLM performance-tuning-guide/useful-runtime-flags.html, "Capacity Scheduler Policy").
    """
    return max(0, max_sequences(p, p.in_len + p.out_len))


# ------------------------------------------------------------------ notes


def load_notes(load: Load, default_used: bool) -> list[Note]:
    kind = load.kind
    if default_used:
        return [Note.of(ServingCode.load_default, concurrency=int(load.value or 1))]
    if kind == LoadKind.requests_per_day:
        factor = load.peak_factor or DEFAULT_PEAK_FACTOR
        rate = load.value / SECONDS_PER_DAY * factor  # type: ignore[operator]
        return [Note.of(ServingCode.peak_factor, requests_per_day=load.value, peak_factor=factor,
                        request_rate_req_s=round(rate, 4), default=load.peak_factor is None)]
    if kind == LoadKind.request_rate:
        return [Note.of(ServingCode.load_open_loop, request_rate_req_s=load.value)]
    if kind == LoadKind.batch:
        return [Note.of(ServingCode.load_batch, batch_size=int(load.value or 1))]
    if kind == LoadKind.concurrency:
        return [Note.of(ServingCode.load_closed_loop, concurrency=int(load.value or 1))]
    return []


def arrival_rate_per_s(load: Load) -> float | None:
    if load.kind == LoadKind.request_rate:
        return float(load.value)  # type: ignore[arg-type]
    if load.kind == LoadKind.requests_per_day:
        return float(load.value) / SECONDS_PER_DAY * (load.peak_factor or DEFAULT_PEAK_FACTOR)  # type: ignore[arg-type]
    return None


def quality_caveats(req: ServingRequest, gpu: GPU, dtype: str) -> list[Note]:
    from tools.serving_profiles import FP8_KV_SOURCE, QUALITY

    out: list[Note] = []
    q = QUALITY.get(req.weights)
    if q is not None:
        if q.measure == "accuracy_recovery":
            out.append(Note.of(CaveatCode.quality_recovery, weights=req.weights.value, low_pct=round(q.low * 100, 1),
                               high_pct=round(q.high * 100, 1), reference=q.reference, source=q.source))
        else:
            out.append(Note.of(CaveatCode.quality_perplexity, weights=req.weights.value, low=q.low, high=q.high,
                               reference=q.reference, source=q.source))
    if req.weights == WeightFormat.bf16 and not gpu.bf16_supported:
        out.append(Note.of(CaveatCode.bf16_as_fp16, gpu=gpu.key, compute_capability=gpu.cc))
    if req.weights == WeightFormat.fp8 and compute_precision(req.weights, gpu).value != "fp8":
        out.append(Note.of(CaveatCode.fp8_weight_only, gpu=gpu.key))
    if dtype == "fp8":
        out.append(Note.of(CaveatCode.kv_fp8, source=FP8_KV_SOURCE))
    return out


def cost_per_million(price_per_hour: float | None, output_tok_s: float) -> float | None:
    if price_per_hour is None or output_tok_s <= 0:
        return None
    return price_per_hour / (output_tok_s * 3600) * 1e6


__all__ = [
    "Operating", "Plan", "admitted_at_once", "burst", "closed_loop", "cost_per_million", "expert_fraction", "forward_peak_bytes",
    "group_rounding_ms", "make_plan",
    "max_batch", "max_sequences", "open_loop", "pool_tokens", "prefill_ms", "sampler_peak_bytes", "static_batch",
    "sm_ghz", "step_time", "touched_fraction", "vllm_profile_batch", "wave_first_token_ms", "weight_bytes",
    "weight_read_cap_gbps", "weight_read_note",
]
