"""The KV-cache pool an inference engine allocates per GPU, term by term, by the engine's own sizing rule.

Pure functions on typed inputs (`KvPoolInputs` → `KvPoolTerms`, GiB per GPU). The shape-dependent terms (the profile
run's forward pass and sampler warm-up) are computed by the caller from the model (tools/serving_perf.py
`forward_peak_bytes`, `sampler_peak_bytes`); this module applies each engine's rule to them. Every term names the
engine source it comes from; where a deployment does not state a setting, the engine's default applies (the defaults
and their sources are in tools/serving_profiles.py).

vLLM (the pool the log prints as "Available KV cache memory: X GiB"; V0: "the rest of the memory reserved for KV
Cache is X GiB")::

    pool = gpu_memory_utilization × total − weights − non-torch − NCCL (where charged) − activation peak

* total: `torch.cuda.mem_get_info()[1]` (V0 vllm/worker/worker.py `determine_num_available_blocks`; V1
  vllm/v1/worker/gpu_worker.py `init_device`: `requested_memory = init_snapshot.total_memory ×
  gpu_memory_utilization`), not the memory free at start.
* activation peak: the torch allocator's peak during `profile_run` above the weights — one forward pass of
  max_num_batched_tokens dummy tokens, then (V1: on the last pipeline rank, vllm/v1/worker/gpu_model_runner.py
  `profile_run` → `_dummy_sampler_run`; V0: on the driver rank, vllm/worker/model_runner.py `profile_run` with
  top-k = vocab − 1, top-p 0.99) the sampler over min(max_num_seqs, max_num_batched_tokens) rows × the vocabulary.
  The two run one after the other: the larger peak counts (`max`). V0 with TP > 1 sizes every rank by the smallest
  pool (the driver's, which samples); V1 sizes every rank by the smallest too (vllm/v1/core/kv_cache_utils.py).
* non-torch: memory outside torch's allocator — the CUDA context, cuBLAS/cuBLASLt workspaces and the loaded kernel
  modules. How much of it the pool is charged depends on the profiler generation:
  - the whole of it (NON_TORCH_GIB[1], fitted on the calibration logs) where the profiler counts every byte the device
    has in use outside torch: V0 before 0.7 (0.6.3 and earlier: `init_gpu_memory − free`; 0.6.4: the "Memory
    profiling results" line, e.g. vLLM #10360's non_torch_memory=0.44GiB on one RTX A6000) and V1 0.8.x
    (vllm/v1/worker/gpu_worker.py `determine_available_memory`: `non_torch_allocations = total − free − torch
    allocated`, every process's memory on the device: vLLM PR #19312, "V1's memory profiling incorrectly counts
    memory used by other processes as non_torch_allocations");
  - only what grew since the baseline snapshot (NON_TORCH_SINCE_BASELINE_GIB) where the profiler is vllm/utils
    `memory_profiling(baseline_snapshot, weights_memory)`: `non_torch_increase = (after_profile −
    baseline).non_torch_memory`, with non-torch = (total − free) − `torch.cuda.memory_reserved()`. The context and
    whatever existed at the snapshot are not charged ("init_non_torch_memory = func() # cuda context memory", vLLM PR
    #11809). V0 from 0.7 (PR #10511, "overhaul memory profiling", merged 2024-12 for 0.6.5, measured the increase
    against `allocated_bytes`, which counts the allocator's unreleased blocks as non-torch; PR #11809, 2025-01, for
    0.7.0, measures against `memory_reserved`) and V1 from 0.9 (PR #19312, "Reuse V0's memory_profiling util for gpu
    worker memory profiling", 2025-06). The logs print that increase: 0.05 GiB (OCI, 0.7.x, one A10), 0.07 GiB
    (kolyangg, 0.10.2, one H100), 0.16 GiB (PR #12126, one H100, a vision model).
* NCCL: the communicators' buffers with TP/PP > 1 (and vLLM's custom all-reduce buffers over NVLink): charged where
  they are created after the memory baseline. V0 ≥ 0.6.4 (`memory_profiling` with the `baseline_snapshot` of
  `init_device`, taken before `init_worker_distributed_environment`) and V1 before 0.11 (V1 0.8.x:
  `non_torch_allocations = (total − free) − torch allocated`, every process's memory on the device; 0.9-0.10:
  `memory_profiling` with `init_snapshot` taken before the distributed init) charge them. From vLLM 0.11.0 (PR
  #25359, merged 2025-09-22: "init_worker_distributed_environment() now runs before memory snapshot") the NCCL
  buffers are allocated before `init_snapshot`, so they come out of the (1 − gpu_memory_utilization) headroom, not
  the pool (vLLM PR #45517, 2026-06, describes the same order: "silently shifts the NCCL workspace cost outside the
  user's GMU budget").
* CUDA graphs: captured after the pool is sized (V0 `_warm_up_model`, V1 `compile_or_warm_up_model`), so they too come
  out of the headroom — until vLLM 0.21.0, which subtracts `profile_cudagraph_memory()`'s estimate
  (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, added off in PR #30515, "default since v0.21.0" in the start-up log). That
  estimate (the first two graphs of each mode, extrapolated linearly over the capture sizes: vLLM issue #45178) has no
  sourced size per model here; `cudagraph_gib` is an input (0 unless given).
* Blocks: the pool is cut into blocks of 16 tokens (V0 `num_gpu_blocks = int(available // cache_block_size)`; V1
  `kv_cache_utils.get_num_blocks`: available // page size // layers); "GPU KV cache size: N tokens" = blocks × 16
  (tools/serving_perf.py `pool_tokens`).

SGLang (python/sglang/srt/model_executor/model_runner.py `profile_max_num_token`; `init_torch_distributed` measures
`min_per_gpu_memory` after the distributed init)::

    pool = free after loading − free at init × (1 − mem_fraction_static)
         = mem_fraction_static × (total − context − NCCL) − weights

`total_gpu_memory` there is the memory free after the CUDA context and NCCL are set up, not the card's total: what
those hold before the snapshot costs the pool only mem_fraction_static of it. Activations and CUDA graphs live in the
(1 − mem_fraction_static) share.

TensorRT-LLM (tensorrt_llm/llmapi/llm_args.py KvCacheConfig.free_gpu_memory_fraction): the fraction of the memory free
after the weights, the runtime buffers and the activations. llama.cpp / transformers: the stated share of the card
minus the weights and a compute buffer.
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from tools.domain import Strict
from tools.serving_profiles import VllmEngine

# vLLM releases (0, minor) at which a pool term changed (see the module docstring for the sources).
VLLM_NCCL_BEFORE_SNAPSHOT_FROM = (0, 11)  # PR #25359: NCCL buffers allocated before the memory baseline
VLLM_CUDAGRAPH_ESTIMATE_FROM = (0, 21)  # VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on by default
# Per engine generation, the first release whose profiler charges only the non-torch memory that grew since its
# baseline snapshot (vllm/utils `memory_profiling`): V0 PR #10511 + #11809 (0.7.0), V1 PR #19312 (0.9).
VLLM_NON_TORCH_SINCE_BASELINE_FROM = {VllmEngine.v0: (0, 7), VllmEngine.v1: (0, 9)}


class PoolRule(str, Enum):
    """Which engine's sizing rule applies."""

    vllm = "vllm"  # gpu_memory_utilization × total − the profiled non-KV memory
    sglang = "sglang"  # mem_fraction_static × the memory free at init − the weights
    trtllm = "trtllm"  # free_gpu_memory_fraction × the memory free after weights and activations
    context = "context"  # llama.cpp / transformers: the share of the card − weights − a compute buffer


class KvPoolInputs(Strict):
    """What one GPU's pool depends on, in GiB per GPU (the most loaded rank)."""

    rule: PoolRule
    total_gib: float = Field(gt=0, description="memory PyTorch sees (torch.cuda.mem_get_info total)")
    fraction: float = Field(gt=0, le=1, description="gpu_memory_utilization / mem_fraction_static / free fraction "
                                                   "(the stated value, else the engine's default)")
    weights_gib: float = Field(ge=0, description="weights on this GPU")
    non_torch_gib: float = Field(ge=0, description="cuBLAS workspaces, kernel modules, CUDA context (NON_TORCH_GIB[1])")
    non_torch_growth_gib: float | None = Field(default=None, ge=0, description="vLLM: the part of it that grows after "
                                               "the profiler's baseline snapshot (NON_TORCH_SINCE_BASELINE_GIB); "
                                               "None: the whole non_torch_gib is charged whatever the release")
    nccl_gib: float = Field(default=0.0, ge=0, description="NCCL / custom all-reduce buffers (0 on one GPU)")
    forward_gib: float = Field(default=0.0, ge=0, description="the profile run's forward-pass peak above the weights")
    sampler_gib: float = Field(default=0.0, ge=0, description="the profile run's sampler warm-up peak")
    buffer_gib: float = Field(default=0.0, ge=0, description="a fixed compute / logits buffer (llama.cpp, TRT-LLM)")
    cudagraph_gib: float = Field(default=0.0, ge=0, description="vLLM ≥ 0.21: the CUDA-graph estimate it subtracts")
    vllm_engine: VllmEngine | None = None
    vllm_release: tuple[int, int] | None = Field(default=None, description="(0, minor); None: not stated")


class KvPoolTerms(Strict):
    """The pool and the terms it was cut from, GiB per GPU."""

    budget_gib: float  # what the rule shares out: fraction × total (TRT-LLM: the memory it ends up using)
    weights_gib: float
    non_torch_gib: float  # non-torch memory charged to the pool, NCCL included where charged
    nccl_charged: bool
    activation_gib: float
    cudagraph_gib: float
    pool_gib: float


def nccl_charged(engine: VllmEngine | None, release: tuple[int, int] | None) -> bool:
    """Whether vLLM counts the NCCL buffers against the pool: V0, and V1 before 0.11 (PR #25359); an unstated V1
    release keeps the charge (the calibration logs' engines, and the smaller pool)."""
    if engine == VllmEngine.v0 or release is None:
        return True
    return release < VLLM_NCCL_BEFORE_SNAPSHOT_FROM


def non_torch_since_baseline(engine: VllmEngine | None, release: tuple[int, int] | None) -> bool:
    """Whether vLLM's profiler charges only the non-torch memory that grew since its baseline snapshot (vllm/utils
    `memory_profiling`: V0 from 0.7, V1 from 0.9) rather than all of it; an unstated release or engine keeps the whole
    charge (the calibration logs' rule, and the smaller pool)."""
    if engine is None or release is None:
        return False
    return release >= VLLM_NON_TORCH_SINCE_BASELINE_FROM[engine]


def vllm_pool(i: KvPoolInputs) -> KvPoolTerms:
    """vLLM: gpu_memory_utilization × total − weights − non-torch − NCCL (where charged) − activation − CUDA graphs."""
    charged = nccl_charged(i.vllm_engine, i.vllm_release)
    growth = i.non_torch_growth_gib is not None and non_torch_since_baseline(i.vllm_engine, i.vllm_release)
    base = i.non_torch_growth_gib if growth else i.non_torch_gib
    non_torch = base + (i.nccl_gib if charged else 0.0)
    activation = max(i.forward_gib, i.sampler_gib)
    graphs = i.cudagraph_gib if (i.vllm_release or (0, 0)) >= VLLM_CUDAGRAPH_ESTIMATE_FROM else 0.0
    budget = i.fraction * i.total_gib
    pool = budget - i.weights_gib - non_torch - activation - graphs
    return KvPoolTerms(budget_gib=budget, weights_gib=i.weights_gib, non_torch_gib=non_torch, nccl_charged=charged,
                       activation_gib=activation, cudagraph_gib=graphs, pool_gib=pool)


def sglang_pool(i: KvPoolInputs) -> KvPoolTerms:
    """SGLang: mem_fraction_static × (total − context − NCCL, the memory free at init) − weights."""
    charged = i.fraction * (i.non_torch_gib + i.nccl_gib)  # what exists before its snapshot costs the pool f × it
    budget = i.fraction * i.total_gib
    pool = budget - charged - i.weights_gib
    return KvPoolTerms(budget_gib=budget, weights_gib=i.weights_gib, non_torch_gib=charged,
                       nccl_charged=i.nccl_gib > 0, activation_gib=0.0, cudagraph_gib=0.0, pool_gib=pool)


def trtllm_pool(i: KvPoolInputs) -> KvPoolTerms:
    """TensorRT-LLM: free_gpu_memory_fraction × (total − weights − non-torch − NCCL − activations and logits)."""
    non_torch = i.non_torch_gib + i.nccl_gib
    activation = i.forward_gib + i.buffer_gib
    free = i.total_gib - i.weights_gib - non_torch - activation
    pool = free * i.fraction
    return KvPoolTerms(budget_gib=i.weights_gib + non_torch + activation + pool, weights_gib=i.weights_gib,
                       non_torch_gib=non_torch, nccl_charged=i.nccl_gib > 0, activation_gib=activation,
                       cudagraph_gib=0.0, pool_gib=pool)


def context_pool(i: KvPoolInputs) -> KvPoolTerms:
    """llama.cpp / transformers: fraction × total − weights − compute buffer − non-torch (one process, no NCCL)."""
    budget = i.fraction * i.total_gib
    pool = budget - i.weights_gib - i.buffer_gib - i.non_torch_gib
    return KvPoolTerms(budget_gib=budget, weights_gib=i.weights_gib, non_torch_gib=i.non_torch_gib,
                       nccl_charged=False, activation_gib=i.buffer_gib, cudagraph_gib=0.0, pool_gib=pool)


_RULES = {PoolRule.vllm: vllm_pool, PoolRule.sglang: sglang_pool, PoolRule.trtllm: trtllm_pool,
          PoolRule.context: context_pool}


def kv_pool(i: KvPoolInputs) -> KvPoolTerms:
    """The pool per GPU by `i.rule` (the engine's own sizing rule)."""
    return _RULES[i.rule](i)


__all__ = ["KvPoolInputs", "KvPoolTerms", "PoolRule", "VLLM_CUDAGRAPH_ESTIMATE_FROM", "VLLM_NCCL_BEFORE_SNAPSHOT_FROM",
           "VLLM_NON_TORCH_SINCE_BASELINE_FROM", "context_pool", "kv_pool", "nccl_charged", "non_torch_since_baseline",
           "sglang_pool", "trtllm_pool", "vllm_pool"]
