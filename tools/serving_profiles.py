"""What the serving estimator knows about weight formats and inference engines, each with its source.

* `WeightFormat`: how the served weights are stored, with real bits per weight. GGUF types use the
  effective rate of a whole Llama-3-8B file as llama.cpp's own ``llama-quantize --help`` lists it
  (tools/quantize/quantize.cpp ``QUANT_OPTIONS``: Q4_K_M 4.58 GiB, Q5_K_M 5.33 GiB, Q8_0 7.96 GiB,
  Q4_0 4.34 GiB for 8.03 B parameters → 4.90 / 5.70 / 8.52 / 4.64 bits per weight, embeddings and
  output tensor included). AWQ/GPTQ int4 use group size 128: 4 bits + one fp16 scale and one packed
  4-bit zero per 128 weights = 4.16 bits, on the linear layers only; embeddings and LM head stay in
  16 bits (AutoAWQ, GPTQModel, vLLM's Marlin kernels). FP8 / INT8 quantise the linear layers too.
* `Engine` and `EngineProfile`: each engine's efficiencies and memory rules. The efficiencies are
  fitted on the calibration half of ``tests/data/serving/`` by ``benchmarks/serving.py --calibrate``
  (the held-out half is never used for fitting); the memory rules are read from each engine's source.
* `QUALITY`: the typical accuracy cost of each weight format, with the study it comes from.

Pure data, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from pydantic import Field

from tools.domain import GPU, Precision, SoftwareStack, Strict


class WeightFormat(str, Enum):
    """How the served weights are stored (separate from the training `Precision`)."""

    bf16 = "bf16"
    fp16 = "fp16"
    fp8 = "fp8"  # W8A8 FP8 (E4M3) on Ada/Hopper; weight-only (Marlin W8A16) on older GPUs
    int8 = "int8"  # W8A8 INT8 (SmoothQuant-style)
    int4 = "int4"  # AWQ / GPTQ, weight-only, group size 128
    q4_k_m = "q4_k_m"  # GGUF (llama.cpp)
    q5_k_m = "q5_k_m"
    q8_0 = "q8_0"
    q4_0 = "q4_0"

    @property
    def gguf(self) -> bool:
        return self in (WeightFormat.q4_k_m, WeightFormat.q5_k_m, WeightFormat.q8_0, WeightFormat.q4_0)

    @property
    def quantised(self) -> bool:
        return self not in (WeightFormat.bf16, WeightFormat.fp16)


# Bits per weight. GGUF: whole-file rate (all tensors) from llama-quantize's Llama-3-8B sizes (GiB × 2^30 × 8
# / 8.03e9); others: the linear layers' rate, the rest of the model kept at 16 bits (see `linear_only`).
BITS_PER_WEIGHT: dict[WeightFormat, float] = {
    WeightFormat.bf16: 16.0,
    WeightFormat.fp16: 16.0,
    WeightFormat.fp8: 8.0,
    WeightFormat.int8: 8.0,
    WeightFormat.int4: 4.0 + 16 / 128 + 4 / 128,  # 4-bit weights + fp16 scale + 4-bit zero per group of 128
    WeightFormat.q4_k_m: 4.58 * 2**30 * 8 / 8.03e9,  # 4.90
    WeightFormat.q5_k_m: 5.33 * 2**30 * 8 / 8.03e9,  # 5.70
    WeightFormat.q8_0: 7.96 * 2**30 * 8 / 8.03e9,  # 8.52 (34 bytes per block of 32)
    WeightFormat.q4_0: 4.34 * 2**30 * 8 / 8.03e9,  # 4.64 (18 bytes per block of 32, output tensor in Q6_K)
}
LLAMA_QUANTIZE_SOURCE = (
    "llama.cpp tools/quantize/quantize.cpp QUANT_OPTIONS (the table llama-quantize prints): sizes and perplexity "
    "increase on Llama-3-8B"
)


def linear_only(fmt: WeightFormat) -> bool:
    """True when only the transformer blocks' linear layers are quantised (embeddings, LM head at 16 bits)."""
    return fmt.quantised and not fmt.gguf


def compute_precision(fmt: WeightFormat, gpu: GPU) -> Precision:
    """The precision the matmuls run at: FP8/INT8 natively where the GPU has the units, else 16-bit."""
    sixteen = Precision.bf16 if gpu.bf16_supported and gpu.bf16_tflops else Precision.fp16
    if fmt == WeightFormat.fp8 and gpu.fp8_supported and gpu.fp8_tflops:
        return Precision.fp8
    if fmt == WeightFormat.int8 and gpu.int8_tops:
        return Precision.int8
    if fmt == WeightFormat.fp16:
        return Precision.fp16
    return sixteen


def peak_tflops(fmt: WeightFormat, gpu: GPU) -> float | None:
    """Dense tensor peak for the format's matmuls (INT8 from int8_tops); None when the catalog lacks it."""
    p = compute_precision(fmt, gpu)
    if p == Precision.int8:
        return gpu.int8_tops
    return gpu.peak_tflops(p) or gpu.fp16_tflops or gpu.bf16_tflops


class KvPrecision(str, Enum):
    auto = "auto"  # the model's activation dtype: bf16 where the GPU has it, else fp16
    bf16 = "bf16"
    fp16 = "fp16"
    fp8 = "fp8"


def kv_dtype(kv: KvPrecision, gpu: GPU) -> str:
    if kv == KvPrecision.auto:
        return "bf16" if gpu.bf16_supported else "fp16"
    return kv.value


def kv_element_bytes(dtype: str) -> float:
    return 1.0 if dtype == "fp8" else 2.0


class Engine(str, Enum):
    vllm = "vllm"
    sglang = "sglang"
    trtllm = "trtllm"
    llamacpp = "llamacpp"
    transformers = "transformers"


class MemoryRule(str, Enum):
    """How an engine sizes its KV pool."""

    fraction_of_total = "fraction_of_total"  # vLLM: total × gpu_memory_utilization − weights − activations − non-torch
    static_fraction = "static_fraction"  # SGLang: total × mem_fraction_static − weights (− non-torch)
    fraction_of_free = "fraction_of_free"  # TRT-LLM: kv_cache_free_gpu_mem_fraction × memory free after weights
    context = "context"  # llama.cpp / transformers: what the context holds, no pre-allocated pool


@dataclass(frozen=True)
class EngineProfile:
    """Efficiencies (fitted) and memory rules (from the engine's source) of one engine."""

    engine: Engine
    name: str
    bandwidth_efficiency: float  # achieved / peak memory bandwidth on 16-bit weight reads in decode
    step_overhead_ms: float  # fixed cost of one decode step (scheduler, sampling)
    layer_overhead_us: float  # per layer and step: kernel launches not hidden by CUDA graphs (llama.cpp, eager PyTorch)
    seq_overhead_us: float  # per sequence and step on the CPU: scheduling, sampling, detokenising
    prefill_mfu: float  # achieved / dense peak on prompt processing
    decode_mfu: float  # achieved / dense peak when a large decode batch is compute-bound
    request_overhead_ms: float  # per request outside the GPU (HTTP, tokenise, detokenise): TTFT and E2E
    request_cpu_ms: float  # per request on the engine's single front-end/scheduler thread: caps a replica at 1/x req/s
    memory_rule: MemoryRule
    default_memory_fraction: float  # vLLM gpu_memory_utilization, SGLang mem_fraction_static (TP 1), TRT free fraction
    calibrated: bool  # True when the calibration split holds measurements of this engine
    # per MoE layer and decode step: the fixed time of the fused-MoE kernel chain (router, top-k, expert alignment, two
    # grouped GEMMs, activation, combine) beyond a dense MLP's, which a small batch does not hide (see PROFILES)
    moe_layer_overhead_us: float = 0.0
    cases: int = 0  # calibration measurements the efficiencies were fitted on
    sources: tuple[str, ...] = field(default_factory=tuple)


# ---------------------------------------------------------------- memory rules (from the engines' source)

# Total memory PyTorch sees (torch.cuda.mem_get_info) vs the catalog's nvidia-smi figure: 79.22 GiB on an
# H100 (vLLM PR #10511 log) vs 79.65, 23.58 vs 23.70 on an RTX 3090 (vLLM issue #10517 log), 39.38 vs 39.59
# on an A100-40GB (vLLM issue #16570 log): the driver keeps about 0.5 %. Since 2026-12-02 (issue 11) the catalog
# carries the logged figure itself (`GPU.torch_visible_gib`, with its source) where a log shows one: the fraction is
# only the fallback for the other GPUs (serving_perf.visible_gib). It is not uniform: 22.04 of 22.49 GiB on an L4
# and 22.06 of 22.49 on an A10G (PyTorch OOM messages), 44.42 of 44.99 on an L40S (vLLM #15815), 98-99 %.
TORCH_VISIBLE_FRACTION = 0.9947

# vLLM ≥ 0.9 defaults (vllm/engine/arg_utils.py get_batch_defaults, OpenAI server): GPUs with ≥ 70 GiB that are
# not A100s get max_num_batched_tokens 8192 and max_num_seqs 1024, all others 2048 and 256.
VLLM_BIG_GPU_GIB = 70.0
VLLM_BATCHED_TOKENS = {"big": 8192, "other": 2048}
VLLM_MAX_SEQS = {"big": 1024, "other": 256}
# The same table's in-process column (UsageContext.LLM_CLASS: the LLM class behind LLM.generate, `vllm bench
# throughput` and `vllm bench latency`): max_num_batched_tokens 16384 on the big GPUs and 8192 on the others, the same
# max_num_seqs. The spent tokenkaki logs show it: on one A100-40GB the 0.9.2 server prints 2048, both offline engines
# (0.9.2 and 0.19.1) 8192.
VLLM_BATCHED_TOKENS_IN_PROCESS = {"big": 16384, "other": 8192}
# SGLang (python/sglang/srt/server_args.py): mem_fraction_static 0.88 / 0.87 / 0.85 / 0.81 / 0.79 for TP 1 / 2 /
# 4 / 8 / 16; chunked_prefill_size 8192 (2048 below 25 GB).
SGLANG_MEM_FRACTION = ((16, 0.79), (8, 0.81), (4, 0.85), (2, 0.87), (1, 0.88))
SGLANG_CHUNK = {"big": 8192, "small": 2048}
SGLANG_MAX_RUNNING = 4096  # assumed cap on running requests; SGLang admits until the KV pool is full
# TensorRT-LLM LLM API / trtllm-serve: max_batch_size 2048, max_num_tokens 8192, kv_cache_free_gpu_mem_fraction
# 0.9 (tensorrt_llm/llmapi/llm_args.py; docs/source/performance/perf-overview.md).
TRTLLM_MAX_BATCH = 2048
TRTLLM_MAX_TOKENS = 8192

# Share of a request's output tokens an engine must find free in the KV pool, beside its prompt, before it admits the
# request (the burst's first wave: tools/serving_perf.py `burst`). vLLM allocates blocks only for the tokens a step
# computes (V1: vllm/v1/core/sched/scheduler.py, `kv_cache_manager.allocate_slots(request, num_new_tokens)`; V0 adds a
# 1 % watermark) and preempts when decoding runs out; SGLang reserves max_new_tokens × new_token_ratio, which starts
# at 0.7 (python/sglang/srt/managers/schedule_policy.py PrefillAdder, SGLANG_INIT_NEW_TOKEN_RATIO) and decays;
# TensorRT-LLM's default GUARANTEED_NO_EVICT capacity scheduler reserves the whole output; llama.cpp's slots hold
# their whole context.
ADMISSION_OUTPUT_RESERVE = {"vllm": 0.0, "sglang": 0.7, "trtllm": 1.0, "llamacpp": 1.0, "transformers": 1.0}

# Memory outside the KV pool, per GPU: CUDA context and cuBLAS workspaces (non-torch), fitted on the calibration
# logs (vLLM PR #10511, issues #10517, #13061, #21348) by `benchmarks/serving.py --calibrate-memory`. More than one
# GPU adds NCCL's buffers: large over NVLink (NVLink/NVLS channels, vLLM's custom all-reduce buffers), small over
# PCIe, where GPUs without peer-to-peer access get neither (vLLM disables its custom all-reduce there).
NON_TORCH_GIB = {1: 0.4, "nvlink": 2.5, "pcie": 0.75}
# vLLM releases whose profiler charges only the non-torch memory that grew after its baseline snapshot (V0 from 0.7,
# V1 from 0.9: tools/kv_pool.py `non_torch_since_baseline`, with the sources) charge this instead of NON_TORCH_GIB[1]
# on every GPU (the CUDA context is in the baseline): the median of the increases such logs print on one GPU, 0.05 GiB
# (OCI Data Science troubleshooting page, 0.7.x, one A10: "non_torch 0.05GiB"), 0.07 GiB (kolyangg/mlops, 0.10.2, one
# H100: "0.07 GiB for non-torch memory") and 0.16 GiB (vLLM PR #12126, one H100: "non_torch_memory takes 0.16GiB").
NON_TORCH_SINCE_BASELINE_GIB = 0.07

# ---------------------------------------------------------------- vLLM's profile run (the activation peak)
#
# vLLM sizes the pool as gpu_memory_utilization × total − weights − non-torch − the torch peak of one profiling
# forward pass plus a sampler warm-up (V0: vllm/worker/worker.py determine_num_available_blocks and
# vllm/worker/model_runner.py profile_run; V1: vllm/v1/worker/gpu_worker.py determine_available_memory and
# vllm/v1/worker/gpu_model_runner.py profile_run / _dummy_sampler_run). CUDA graphs are captured afterwards.
#
# * The forward pass runs max_num_batched_tokens dummy tokens. V0 without chunked prefill: max(max_model_len, 2048)
#   (vllm/config.py SchedulerConfig), so a longer context shrinks the pool; V0 turns chunked prefill on by itself
#   above a 32K context, with a 2048-token budget (512 before 0.7). V1 always chunks: the step budget
#   (VLLM_BATCHED_TOKENS). Its peak is read off the model shape in tools/serving_perf.py `forward_peak_bytes`.
# * The sampler warm-up draws one token for min(max_num_seqs, tokens) dummy sequences with top-k = vocab − 1 and
#   top-p < 1 over the whole vocabulary, after the forward pass (the two peaks do not add up). V1 samples on every
#   rank; V0 on the first only, and its pool is the smallest rank's: the same figure either way.


class VllmEngine(str, Enum):
    """The vLLM engine generation that sizes the pool: its profile run differs."""

    v1 = "v1"  # the V1 engine: the default from vLLM 0.8, the only one from 0.11
    v0 = "v0"  # the V0 engine: vLLM ≤ 0.7 (and VLLM_USE_V1=0 up to 0.10)


class SamplerWarmup(str, Enum):
    """How the profile run's sampler warm-up applies top-k / top-p over the vocabulary."""

    sort = "sort"  # PyTorch: sort every row (vLLM V0, and V1 until the Triton top-k/top-p kernels)
    fused = "fused"  # a top-k/top-p kernel without a sort (Triton or FlashInfer; current vLLM V1)


ACTIVATION_BYTES = 2  # the activations between the matmuls are bf16/fp16 (FP8/INT8 formats quantise only GEMM inputs)
V0_MIN_BATCHED_TOKENS = 2048  # V0 without chunked prefill: max(max_model_len, 2048)
V0_CHUNKED_ABOVE_TOKENS = 32768  # V0 enables chunked prefill by default above this max_model_len (engine/arg_utils.py)
V0_CHUNKED_BUDGET = 2048  # V0's chunked-prefill step budget (SchedulerConfig, vLLM 0.7; 0.6.x: 512)
V0_MAX_SEQS = 256  # V0's max_num_seqs on every GPU
# Bytes the sampler warm-up holds per logit (sequences × vocabulary) at its peak:
# * sort: bf16 logits 2 + their fp32 copy 4 + the sorted values 4 and int64 indices 8 + the sort's scratch, the
#   top-k/top-p masks and the softmax/cumsum rows of the PyTorch path. 39: vLLM PR #10511's log shows a 1.26 GiB
#   activation peak for Llama-3-8B at TP 1 and TP 2 alike (the forward pass halves under TP 2, the sampler does
#   not): (1.26 − 8,192 × 4,096 × 2 B of hidden states) / (256 × 128,256 logits) = 39 B; vLLM PR #32558 measures
#   the PyTorch top-k/top-p at 1.25 GB for 256 × 131,072 logits (37 B).
# * fused: bf16 logits 2 + fp32 logits 4 + the probabilities 4 + the exponential noise of the draw 4
#   (vllm/v1/sample/sampler.py random_sample); the Triton kernel (vLLM PR #33538) filters in place.
SAMPLER_BYTES_PER_LOGIT = {SamplerWarmup.sort: 39.0, SamplerWarmup.fused: 14.0}
# vLLM releases whose V1 sampler warm-up still sorted: the Triton top-k/top-p kernels (PR #33538, merged 2026-02)
# replaced the PyTorch sort from about 0.16; FlashInfer's sampler was off by default before it (PR #32558).
V1_SORT_BEFORE = (0, 16)
TRTLLM_LOGIT_BYTES = 4  # TensorRT-LLM: the fp32 logits of max_batch_size sequences beside the forward pass


def vllm_release(version: str | None) -> tuple[int, int] | None:
    """The (0, minor) release a vLLM version text names ("0.6.4", "v0.11.0", "0.9.x (V1 engine)"); None when none."""
    m = None if version is None else re.search(r"\b[vV]?0\.(\d+)", version)
    return None if m is None else (0, int(m.group(1)))


def vllm_rules(version: str) -> tuple[VllmEngine, SamplerWarmup] | None:
    """The engine generation and sampler warm-up of a vLLM release written as "0.6.4", "v0.11.0", "0.9.x (V1 engine)".

    None when the text names no 0.x release. "V0"/"V1 engine" in the text overrides the release's default engine.
    """
    m = re.search(r"\b[vV]?0\.(\d+)", version)
    if not m:
        return None
    minor = int(m.group(1))
    engine = VllmEngine.v0 if minor <= 7 else VllmEngine.v1
    if re.search(r"\bV0\b", version):
        engine = VllmEngine.v0
    elif re.search(r"\bV1\b", version):
        engine = VllmEngine.v1
    sort = engine == VllmEngine.v0 or (0, minor) < V1_SORT_BEFORE
    return engine, SamplerWarmup.sort if sort else SamplerWarmup.fused


# vLLM's async scheduling (`--async-scheduling`, vLLM PR #19970; default on since v0.14.0, PR #27614): the engine core
# schedules step n + 1 and prepares its inputs while the GPU runs step n, and the sampled tokens of step n feed step
# n + 1 on the GPU (vllm/v1/engine/core.py `step_with_batch_queue`, a batch queue of depth 2). The v0.14.0 release notes:
# "Async scheduling enabled by default (#27614): Overlaps engine core scheduling with GPU execution", excluding
# "pipeline parallel, CPU backend, non-MTP/Eagle spec decoding" (github.com/vllm-project/vllm/releases/tag/v0.14.0,
# quoted in OpenBMB/UltraRAG PR #259). Only the V1 engine has it.
VLLM_ASYNC_SCHEDULING_FROM = (0, 14)


def vllm_async_scheduling(version: str) -> bool | None:
    """Whether a vLLM release written as "0.18.0", "v0.23.0 (V1 engine)" schedules asynchronously by default.

    None when the text names no 0.x release; False for the V0 engine and releases before VLLM_ASYNC_SCHEDULING_FROM.
    """
    m = re.search(r"\b[vV]?0\.(\d+)", version)
    rules = vllm_rules(version)
    if m is None or rules is None:
        return None
    return rules[0] == VllmEngine.v1 and (0, int(m.group(1))) >= VLLM_ASYNC_SCHEDULING_FROM


# ---------------------------------------------------------------- scheduler options a deployment states


class EngineScheduling(Strict):
    """Scheduler options a deployment states beside its request; None: not stated (the engine's default).

    * `num_scheduler_steps` — vLLM 0.6-0.8 `--num-scheduler-steps N` (multi-step scheduling, V0 engine; vLLM PR #7000,
      released in 0.6.0): the scheduler runs once per N decode steps. vllm/engine/llm_engine.py `step()` calls
      `scheduler.schedule()` only when `not self._has_remaining_steps(seq_group_metadata_list)`, "so that the scheduler
      is only called again when the current batch has completed"; a waiting prompt therefore joins at the end of the
      running group of N steps. Without chunked prefill a prompt runs as one step of its own
      (vllm/sequence.py `SequenceGroup.init_multi_step_from_lookahead_slots`: a prefill has 0 lookahead slots, so
      `num_steps = 1`), and its first token is returned after it; decode tokens come back once per group (the outputs
      of a group are processed when its last step ends). The estimator's effect: tools/serving_perf.py `closed_loop`.
      The flag's other effect, one scheduling and input preparation per N steps (the CPU time the V0 engine spent per
      step), is not applied again: the vLLM profile's per-step and per-sequence costs were fitted mostly on engines
      whose per-step CPU work is already small (V1: a persistent batch, detokenising in the front-end process; 0.6
      runs with this flag); dividing them by N was measured and made the decode step 20-35 % too fast on round 6
      (benchmarks/serving.md, "Since round 6's evaluation").
    * `async_scheduling` — vLLM V1 `--async-scheduling` (default on from v0.14.0; VLLM_ASYNC_SCHEDULING_FROM says
      where that is read): the engine core's CPU work for the next step (scheduling, input preparation, output
      processing) runs while the GPU executes the current one, so the per-sequence CPU time of the step
      (EngineProfile.seq_overhead_us) is hidden under the GPU's work instead of added to it: a decode step takes
      max(GPU work, CPU work) (tools/serving_perf.py `step_time`). vLLM leaves it off under pipeline parallelism.
      None: not stated, not applied (the constants were fitted on engines that ran it off).
    * `dp_attention`, `dp_size` — SGLang `--enable-dp-attention` / `--dp-size N`: stated for the record; not modelled
      (benchmarks/serving.md, "Since round 6's evaluation", says why).
    """

    num_scheduler_steps: int | None = Field(default=None, gt=0, description="vLLM --num-scheduler-steps (V0, 0.6-0.8)")
    async_scheduling: bool | None = Field(default=None, description="vLLM V1 --async-scheduling (default from 0.14)")
    dp_attention: bool | None = Field(default=None, description="SGLang --enable-dp-attention")
    dp_size: int | None = Field(default=None, gt=0, description="SGLang --dp-size (with dp_attention)")

    def scheduler_steps(self, engine: "Engine", vllm_engine: "VllmEngine | None" = None) -> int:
        """Decode steps per scheduler call: the stated N on vLLM's V0 engine, else 1 (the V1 engine, vLLM >= 0.8's
        default, has no multi-step scheduling — vllm/v1/core/sched/scheduler.py schedules every step — and other
        engines have no such flag)."""
        if engine == Engine.vllm and vllm_engine != VllmEngine.v1 and self.num_scheduler_steps:
            return self.num_scheduler_steps
        return 1

    def overlaps_cpu(self, engine: "Engine", vllm_engine: "VllmEngine | None", pp: int) -> bool:
        """Whether the per-sequence CPU work of a decode step overlaps the GPU's: vLLM's V1 engine with async
        scheduling stated on, without pipeline parallelism (which the v0.14.0 default excludes)."""
        return engine == Engine.vllm and vllm_engine == VllmEngine.v1 and bool(self.async_scheduling) and pp == 1


LLAMACPP_COMPUTE_BUFFER_GIB = 0.5  # llama.cpp CUDA compute buffer at the default batch (-b 2048, -ub 512)

# ---------------------------------------------------------------- decode weight reads: memory-level parallelism
#
# A small-batch decode step reads every weight once in matrix-vector (or skinny-GEMM) kernels. By Little's law a
# kernel's bandwidth is the bytes it keeps in flight over the memory latency (Volkov, "Understanding Latency Hiding on
# GPUs", UC Berkeley EECS-2016-143, ch. 4), and those bytes are held per SM (its warps' outstanding loads), so such a
# kernel reads at most SMs × clock × (bytes in flight per SM and cycle): a GPU whose HBM is fast for its SM count
# cannot fill it at batch 1. The H20 is the extreme case (4.0 TB/s on 78 SMs, about 2.6× the bytes per SM-cycle of an
# H100): the Qwen3 speed benchmark's SGLang table on it (tests/data/serving/heldout3_qwen_speed_benchmark.yaml) reads
# the weights of Qwen3-8B … 32B at about 1.4 TB/s, proportional to their size (not to their layer count), and the
# same page's Transformers table reaches at least 1.7 TB/s on Qwen3-32B BF16. The A100-80GB (2.0 TB/s on 108 SMs at
# 1.41 GHz) sits near the limit, GDDR cards far below it. Large-batch decode and prefill run tensor-core GEMMs and
# attention kernels that keep far more in flight; the cap applies to the decode weight reads only
# (tools/serving_perf.py `weight_read_cap_gbps`).
#
# SMs × clock comes from the catalog's FP32 peak: FP32 TFLOPS = SMs × FP32 lanes per SM × 2 × GHz, the lanes per SM
# by compute capability from the CUDA C++ Programming Guide ("Arithmetic Instructions", throughput of 32-bit
# floating-point add / multiply / multiply-add per clock cycle per multiprocessor: 64 on 7.x and 8.0, 128 on 8.6, 8.7,
# 8.9, 9.0, 10.x and 12.x). A GPU without an FP32 peak or a compute capability gets no cap.
FP32_LANES_PER_SM: dict[float, int] = {7.0: 64, 7.2: 64, 7.5: 64, 8.0: 64, 8.6: 128, 8.7: 128, 8.9: 128, 9.0: 128,
                                       10.0: 128, 10.3: 128, 12.0: 128}
# Bytes a decode matrix-vector kernel keeps in flight per SM and clock cycle (at the FP32 peak's boost clock).
# Fitted 2026-12-01 by `python benchmarks/serving.py --calibrate` with the shared decode-step constants, on the same
# low-concurrency calibration runs (grid 7 … 14); see benchmarks/serving.md, "Rounds 1-3 spent".
WEIGHT_READ_PARALLELISM: dict[str, float] = {"bytes_per_sm_clock": 10.0}


# ---------------------------------------------------------------- interconnect

# One small all-reduce (2-8 GPUs). PCIe: fitted with PCIE_ALLREDUCE_SHARE below (was a 25 µs prior before round 4).
ALLREDUCE_LATENCY_US = {"nvlink": 10.0, "pcie": 60.0}
PCIE_GBPS = {3: 12.0, 4: 25.0, 5: 50.0}  # achieved unidirectional GB/s, per GPU (a peer-to-peer DMA copy)
# Share of PCIE_GBPS a decode step's all-reduce reaches between GPUs without NVLink. Over NVLink vLLM and SGLang run their
# own one-shot/two-shot custom all-reduce; without it they fall back to NCCL: vLLM's CustomAllreduce
# (vllm/distributed/device_communicators/custom_all_reduce.py) disables itself on more than two GPUs that are not fully
# NVLink-connected ("Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs") and
# wherever the P2P check fails (`gpu_p2p_access_check`: "your platform lacks GPU P2P capability"), SGLang's port does the
# same. NCCL's ring then moves every hop through PCIe and, between GPUs whose path crosses the CPU's host bridge (AWS
# g5/g6 `nvidia-smi topo`: PHB / NODE) or that have no P2P at all (GeForce RTX 40), through host memory (NCCL's SHM
# transport: two copies per hop), far below a P2P copy's rate. Fitted by `python benchmarks/serving.py --calibrate-tp`
# on the TP decode runs between PCIe-only GPUs of the calibration files and the spent rounds (2026-12-01, issue 11, after
# round 4: the ddiiwoong blog's A10G TP 2/4 sweeps and IOG's RTX 4090 / H100 PCIe TP 2/4 runs, each source weighted
# once); see benchmarks/serving.md, "Round 4 spent". The TP runs' TPOT grows with the batch (A10G, Qwen2.5-7B TP 4: +1 ms
# per step over the model at 1 user, +8 ms at 32) where the same GPU at TP 1 does not: a cost per byte, not per call.
# The PCIe entry of ALLREDUCE_LATENCY_US is fitted with it (the same runs at one user).
PCIE_ALLREDUCE_SHARE = {"share": 0.2}  # 5 GB/s on PCIe 4.0 (scan: 50-60 µs with 0.15-0.2 within 0.006 of the best)
PIPELINE_HOP_MS = 0.05  # one activation hand-off between pipeline stages in decode

# ---------------------------------------------------------------- weight formats: kernel efficiency

# Bandwidth efficiency of each format's decode kernels relative to 16-bit ones (dequantising costs time):
# fitted on the calibration split where it holds the format, else a prior (noted as uncalibrated).
FORMAT_BANDWIDTH_FACTOR: dict[WeightFormat, float] = {
    WeightFormat.bf16: 1.0,
    WeightFormat.fp16: 1.0,
    WeightFormat.fp8: 1.1,  # fitted (Hopper FP8 / Marlin W8A16 kernels; calibration grid capped at 1.1)
    WeightFormat.int8: 0.9,  # prior
    WeightFormat.int4: 0.7,  # fitted on one AWQ run (vLLM, A100): the weakest-supported factor
    WeightFormat.q4_k_m: 1.05,  # fitted (llama.cpp MMVQ)
    WeightFormat.q5_k_m: 0.95,  # prior
    WeightFormat.q8_0: 0.95,  # prior
    WeightFormat.q4_0: 1.05,  # fitted (llama.cpp MMVQ)
}
FORMAT_FACTOR_CALIBRATED: frozenset[WeightFormat] = frozenset(
    {WeightFormat.fp8, WeightFormat.int4, WeightFormat.q4_k_m, WeightFormat.q4_0}
)

# ---------------------------------------------------------------- kernels a GPU generation lacks (since round 11)
#
# FlashAttention-2 runs on SM 8.0 and newer only. vLLM's attention selector falls back below that:
# vllm/platforms/cuda.py `get_attn_backend_cls` (0.8.x, the V0 path): `if not cls.has_device_capability(80):
# # Volta and Turing NVIDIA GPUs. logger.info("Cannot use FlashAttention-2 backend for Volta and Turing GPUs.");
# target_backend = _Backend.XFORMERS` (earlier releases: vllm/attention/selector.py, the same message; engine logs on
# T4/V100 print it, then "Using XFormers backend."). xFormers' memory-efficient (cutlass) prefill kernel is a
# FlashAttention-1-class kernel; FlashAttention-2 is "around 2x" faster than FlashAttention, which reaches "25-40 % of
# the theoretical maximum FLOPs/s" against FA2's 50-73 % (Dao 2023, arXiv:2307.08691, abstract). The vLLM prefill MFU
# was fitted on FA2 GPUs (every calibration vLLM run is SM 8.0+), so below SM 8.0 the prompt's attention FLOPs run at
# half that MFU; the linear layers' GEMMs (cuBLAS) keep it. Decode attention is vLLM's own paged-attention kernel on
# every GPU and is unchanged.
NO_FA2_BELOW_CC = 8.0
NO_FA2_ATTENTION_EFFICIENCY = 0.5  # FA1-class kernel vs FA2: Dao 2023's "around 2x"

# AWQ / GPTQ int4 in vLLM take the Marlin kernels only from SM 8.0: vllm/model_executor/layers/quantization/
# awq_marlin.py `AWQMarlinConfig.get_min_capability` returns 80 (gptq_marlin.py likewise), while the plain `awq` method
# runs from 75. Below SM 8.0 a checkpoint stays on the legacy AWQ GEMM (awq.py: the fused `awq_gemm` for fewer than
# 256 tokens, `awq_dequantize` + an fp16 matmul above), which vLLM itself flags at start-up: "awq quantization is not
# fully optimized yet. The speed can be slower than non-quantized models." (vllm/config.py `_verify_quantization`:
# `awq` is not in `optimized_quantization_methods`). So the fitted int4 factor (a Marlin run on an A100) does not
# apply there: the decode step reads the weights no faster than the 16-bit model's (no speed-up from the smaller
# file; the weights still take the int4 bytes in memory).
MARLIN_FROM_CC = 8.0


def flash_attention_2(engine: "Engine", gpu: GPU) -> bool:
    """Whether the engine's prefill attention runs FlashAttention-2 (False: vLLM on a CUDA GPU below SM 8.0, which
    falls back to xFormers). Other engines and unknown capabilities: True (the constants as fitted)."""
    cc = gpu.cc
    return not (engine == Engine.vllm and cc is not None and cc < NO_FA2_BELOW_CC - 1e-9)


def prefill_attention_efficiency(engine: "Engine", gpu: GPU) -> float:
    """The prompt attention's share of the prefill MFU: 1 with FlashAttention-2, NO_FA2_ATTENTION_EFFICIENCY without."""
    return 1.0 if flash_attention_2(engine, gpu) else NO_FA2_ATTENTION_EFFICIENCY


def legacy_int4_kernel(engine: "Engine", fmt: WeightFormat, gpu: GPU) -> bool:
    """vLLM serving an int4 (AWQ/GPTQ) checkpoint on a CUDA GPU below SM 8.0: no Marlin kernel, the legacy GEMM."""
    cc = gpu.cc
    return engine == Engine.vllm and fmt == WeightFormat.int4 and cc is not None and cc < MARLIN_FROM_CC - 1e-9

# ---------------------------------------------------------------- engines (efficiencies: see benchmarks/serving.md)

# Fitted 2026-12-01 by `python benchmarks/serving.py --calibrate` on the calibration split of tests/data/serving/
# (the held-out files were frozen first). CUDA-graph engines share the decode-step constants (bandwidth efficiency,
# step overhead), fitted on their low-concurrency runs; prefill/decode MFU, per-sequence CPU cost and the front-end
# cap per engine on their own runs. llama.cpp's MFUs are priors (its data are batch-1 decode).
#
# request_overhead_ms — the time a request spends outside the GPU before its first token (HTTP, chat template and
# tokenisation, the hop to the engine process, detokenising and streaming the first chunk) — is fitted alone by
# `python benchmarks/serving.py --calibrate-ttft` on the calibration TTFT rows (tests/data/serving/
# calibration_ttft.yaml), the other constants held as above, where an engine has TTFT rows under one second:
# vLLM 25 ms (2026-12-02, 21 rows, 9 under 1 s: wmx.dev's L4 sweep with vLLM 0.23 and Lambda's 10-prompt bursts
# with vLLM 0.6; the scan is flat from 20 to 30 ms). SGLang (10 ms) and TensorRT-LLM (15 ms) stay priors: their
# calibration TTFTs are GPUStack's bursts, seconds to minutes of queue that a few ms do not move. Refitted by the
# same rule after one user stopped waiting for half a decode step (tools/serving_perf.py closed_loop, read from
# vLLM's V1 scheduler and model runner; 2026-12-01, issue 11 round 2, before round 2 was evaluated): still 25 ms
# (mean |log error| 0.221; 30 ms 0.226, 20 ms 0.234). Round-1 held-out rows are spent but not fitted on.
#
# Refitted 2026-12-01 (issue 11, after round 2's one evaluation; rounds 1 and 2 spent, the fit still on the calibration
# files only) because the step model changed: a decode step no longer reads an untied input-embedding table and a
# prefill runs the LM head once per prompt (tools/serving_perf.py `embedding_split`). With ~5 % fewer bytes per step
# for untied models the shared bandwidth efficiency went 0.85 → 0.80; the rest moved with it (vLLM prefill MFU
# 0.50 → 0.55, front end 25 → 30 ms; SGLang per-sequence 80 → 100 µs, front end 1 → 7.5 ms; TensorRT-LLM prefill MFU
# 0.75 → 0.70, decode MFU 0.35 → 0.40; llama.cpp step 1.25 → 1.5 ms), and `--calibrate-ttft` by its unchanged rule gave
# vLLM 30 ms (mean |log error| 0.201; 25 ms 0.213, 40 ms 0.215). These values are a fixed point of `--calibrate`.
#
# 2026-12-01 (issue 11, after round 3's one evaluation; rounds 1-3 spent): the decode weight reads are capped by memory
# parallelism (WEIGHT_READ_PARALLELISM, fitted with the shared decode constants; the values below stayed a fixed point
# of `--calibrate`), and MoE models pay `moe_layer_overhead_us` per layer and step in vLLM and SGLang: the fixed time of
# the Triton fused-MoE kernel chain at small batch (router GEMM, top-k softmax, moe_align_block_size, two fused_moe
# grouped GEMMs over expert blocks padded to BLOCK_SIZE_M, activation, weighted sum:
# vllm/model_executor/layers/fused_moe/fused_moe.py; SGLang's fused_moe_triton is its port). 60 µs, fitted by
# `python benchmarks/serving.py --calibrate-moe` on every vLLM/SGLang MoE run at ≤ 16 users of the calibration files
# and the spent rounds, each source weighted once (the calibration files have none: the value rests on Tenstorrent's
# A100 runs, the Qwen3 speed benchmark on H20 and one SGLang B200 row; the scan is flat from 40 to 80 µs).
# TensorRT-LLM (its own MoE kernels), llama.cpp and transformers keep 0: no data.
PROFILES: dict[Engine, EngineProfile] = {
    Engine.vllm: EngineProfile(
        engine=Engine.vllm, name="vLLM", bandwidth_efficiency=0.8, step_overhead_ms=1.0, layer_overhead_us=0.0,
        seq_overhead_us=100.0, prefill_mfu=0.55, decode_mfu=0.35, request_overhead_ms=30.0, request_cpu_ms=30.0,
        memory_rule=MemoryRule.fraction_of_total, default_memory_fraction=0.9, calibrated=True,
        moe_layer_overhead_us=60.0, cases=36,
        sources=("vllm/engine/arg_utils.py (batch defaults)", "vllm/v1/worker/gpu_worker.py (KV sizing)"),
    ),
    Engine.sglang: EngineProfile(
        engine=Engine.sglang, name="SGLang", bandwidth_efficiency=0.8, step_overhead_ms=1.0, layer_overhead_us=0.0,
        seq_overhead_us=100.0, prefill_mfu=0.25, decode_mfu=0.7, request_overhead_ms=10.0, request_cpu_ms=7.5,
        memory_rule=MemoryRule.static_fraction, default_memory_fraction=0.88, calibrated=True,
        moe_layer_overhead_us=60.0, cases=14,
        sources=("python/sglang/srt/server_args.py (mem_fraction_static, chunked_prefill_size)",),
    ),
    Engine.trtllm: EngineProfile(
        engine=Engine.trtllm, name="TensorRT-LLM", bandwidth_efficiency=0.8, step_overhead_ms=1.0,
        layer_overhead_us=0.0, seq_overhead_us=0.0, prefill_mfu=0.7, decode_mfu=0.4, request_overhead_ms=15.0,
        request_cpu_ms=1.0, memory_rule=MemoryRule.fraction_of_free, default_memory_fraction=0.9, calibrated=True,
        cases=29, sources=("tensorrt_llm/llmapi/llm_args.py (KvCacheConfig.free_gpu_memory_fraction 0.9)",
                           "docs/source/performance/perf-overview.md"),
    ),
    Engine.llamacpp: EngineProfile(
        engine=Engine.llamacpp, name="llama.cpp", bandwidth_efficiency=0.9, step_overhead_ms=1.5,
        layer_overhead_us=60.0, seq_overhead_us=0.0, prefill_mfu=0.35, decode_mfu=0.3, request_overhead_ms=5.0,
        request_cpu_ms=0.0, memory_rule=MemoryRule.context, default_memory_fraction=1.0, calibrated=True, cases=27,
        sources=("llama-bench tg (batch 1) as published",),
    ),
    Engine.transformers: EngineProfile(
        engine=Engine.transformers, name="Hugging Face transformers", bandwidth_efficiency=0.6, step_overhead_ms=5.0,
        layer_overhead_us=150.0, seq_overhead_us=0.0, prefill_mfu=0.35, decode_mfu=0.3, request_overhead_ms=0.0,
        request_cpu_ms=0.0, memory_rule=MemoryRule.context, default_memory_fraction=0.9, calibrated=False,
        sources=("prior: eager PyTorch generate() launches every kernel from Python each step",),
    ),
}


# ---------------------------------------------------------------- software stacks the constants were fitted on
#
# Every measurement the efficiencies above were fitted on (the calibration files by `--calibrate` / `--calibrate-ttft`,
# the spent rounds too by `--calibrate-moe` / `--calibrate-tp`) ran on NVIDIA GPUs under CUDA. The one published ROCm
# source checked so far, AMD's ROCm/vllm fork `docs/dev-docker/README.md` at commit 040de12 (its Latency Measurements
# table: vLLM 0.10.0 for ROCm, 8x MI300X, Llama-3.1 70B / 405B FP8; tests/data/serving/heldout7_rocm_vllm_dev_docker.yaml,
# spent since round 7's one evaluation), measured every one of its 32 batch latencies above the estimate: about 4 ms
# per decode step more than estimated on the 70B at TP 8 whatever the batch (1-64), 9-22 ms on the 405B. No mechanism
# read from the ROCm code path accounts for it yet (benchmarks/serving.md, "Since round 7's evaluation": vLLM's custom
# all-reduce at TP 8 on CDNA takes 6-16 µs a call for decode-sized messages, measured on MI355X in vLLM PR #39080, far
# below 47-72 µs per layer; HIP-graph replay's cost per kernel is measured only on RDNA GPUs, ROCm/rocm-systems issue
# #10834), so no ROCm constant is fitted on that one source; an estimate on a stack outside this set says so
# instead (tools/serving.py `_caveats`, CaveatCode.stack_uncalibrated), and `STACK_CHECKED_SLOWER` names the (stack,
# engine) pairs where a published measurement showed the estimate too fast (that page is vLLM's only).
CALIBRATED_STACKS: frozenset[SoftwareStack] = frozenset({SoftwareStack.cuda})
STACK_CHECKED_SLOWER: frozenset[tuple[SoftwareStack, Engine]] = frozenset({(SoftwareStack.rocm, Engine.vllm)})


# ---------------------------------------------------------------- quality cost of quantisation


@dataclass(frozen=True)
class QualityCost:
    """The typical accuracy cost of serving a format instead of bf16, as a published study measured it."""

    format: WeightFormat
    measure: str  # 'accuracy_recovery' | 'perplexity_increase'
    low: float
    high: float
    reference: str  # which model(s) the figure is for
    source: str


KURTIC = ("Kurtic et al. 2024, \"Give Me BF16 or Give Me Death\"? Accuracy-Performance Trade-Offs in LLM "
          "Quantization, arXiv:2411.02355 (ACL 2025): 500k evaluations on Llama 3.1 8B/70B/405B")
AWQ = ("Lin et al. 2024, AWQ: Activation-aware Weight Quantization, MLSys 2024 (arXiv:2306.00978), Table 4: "
       "Llama-2 perplexity (WikiText-2) FP16 vs INT4 g128: 7B 5.47 → 5.60, 70B 3.32 → 3.41")

QUALITY: dict[WeightFormat, QualityCost] = {
    # accuracy_recovery: quantised score / bf16 score on the paper's benchmark suite
    WeightFormat.fp8: QualityCost(WeightFormat.fp8, "accuracy_recovery", 0.99, 1.0, "Llama 3.1 8B-405B", KURTIC),
    WeightFormat.int8: QualityCost(WeightFormat.int8, "accuracy_recovery", 0.97, 0.99, "Llama 3.1 8B-405B", KURTIC),
    WeightFormat.int4: QualityCost(WeightFormat.int4, "perplexity_increase", 0.09, 0.13, "Llama-2 7B-70B", AWQ),
    # perplexity_increase: added WikiText perplexity on Llama-3-8B, from llama-quantize's own table
    WeightFormat.q4_k_m: QualityCost(WeightFormat.q4_k_m, "perplexity_increase", 0.1754, 0.1754, "Llama-3-8B",
                                     LLAMA_QUANTIZE_SOURCE),
    WeightFormat.q5_k_m: QualityCost(WeightFormat.q5_k_m, "perplexity_increase", 0.0569, 0.0569, "Llama-3-8B",
                                     LLAMA_QUANTIZE_SOURCE),
    WeightFormat.q8_0: QualityCost(WeightFormat.q8_0, "perplexity_increase", 0.0026, 0.0026, "Llama-3-8B",
                                   LLAMA_QUANTIZE_SOURCE),
    WeightFormat.q4_0: QualityCost(WeightFormat.q4_0, "perplexity_increase", 0.4685, 0.4685, "Llama-3-8B",
                                   LLAMA_QUANTIZE_SOURCE),
}
FP8_KV_SOURCE = ("vLLM docs, Quantized KV Cache (FP8 E4M3): halves KV memory; per-tensor scales, small accuracy "
                 "impact that depends on the model")
