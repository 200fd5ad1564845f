"""The KV cache: bytes per token per layer and for whole sequences, one function for every estimator.

Per layer and token the cache holds (element size ``kv_bytes``: 2 for bf16/fp16, 1 for fp8):

* **MHA / GQA / MQA**: K and V, ``2 × kv_heads × head_dim`` elements. Under tensor parallelism the KV
  heads are split over the ranks, but every rank keeps at least one: ``ceil(kv_heads / tp)`` per GPU
  (vLLM and SGLang replicate a KV head when ``tp > kv_heads``).
* **MLA** (DeepSeek-V2/V3): one compressed latent plus the decoupled RoPE key,
  ``kv_lora_rank + qk_rope_head_dim`` elements (DeepSeek-V2 paper §2.1.3; vLLM stores the latent,
  576 values for V3), replicated on every TP rank rather than split.
* **Sliding-window layers** keep at most ``sliding_window`` tokens; full-attention layers keep all.
  Which layers slide comes from ``ModelSpec.layer_types`` (Hugging Face ``config.json`` values
  ``'full_attention'`` / ``'sliding_attention'``). Without it, a set ``sliding_window`` means what the
  model's own Hugging Face config class means: Gemma-2 alternates, starting with a sliding layer
  (``Gemma2Config``: layer *i* slides when *i* is even); Gemma-3 slides five layers in six
  (``Gemma3TextConfig``, ``sliding_window_pattern = 6``); every other family (Mistral 7B v0.1 …)
  applies the window to all layers (``MistralConfig``).

Pipeline stages split the layers into contiguous, near-equal groups (vLLM's ``get_pp_indices``);
a GPU holds its stage's layers, and the figures below are for the most loaded stage.

Pure functions, no I/O; `tools/vram.py` and `tools/serving.py` both call `kv_cache`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tools.domain import AttentionType, ModelSpec
from tools.notes import Note, NoteCode

FULL = "full_attention"
SLIDING = "sliding_attention"

# Families whose Hugging Face config class gives a layer pattern when `layer_types` is absent:
# name -> a layer is sliding when pattern(i) is True.
_GEMMA2 = {"gemma-2", "gemma2"}
_GEMMA3 = {"gemma-3", "gemma3", "gemma3_text"}
GEMMA3_PATTERN = 6  # Gemma3TextConfig.sliding_window_pattern: five local layers, then one global


class KvCode(NoteCode):
    """What the KV-cache size assumed (rendered by tools/messages/serving.py)."""

    mla = "kv.mla"  # kv_lora_rank, rope_dim, layers
    heads = "kv.heads"  # attention (mha/gqa/mqa), kv_heads, head_dim, kv_heads_per_gpu, tp
    sliding = "kv.sliding"  # window_tokens, sliding_layers, layers, pattern ('all' | 'alternating' | 'five_in_six' | 'config')
    layer_types_ignored = "kv.layer_types_ignored"  # given, layers
    shape_assumed = "kv.shape_assumed"  # model


@dataclass(frozen=True)
class KvCache:
    """The cache for `batch` sequences of `tokens` each, on the most loaded GPU."""

    bytes_per_gpu: float
    bytes_per_token_per_layer: float = field(metadata={"unit": "bytes, one full-attention layer, per GPU"})
    layers_per_gpu: int
    sliding_layers_per_gpu: int
    tokens: int
    batch: int
    notes: tuple[Note, ...] = ()

    @property
    def bytes_per_token(self) -> float:
        """Average bytes per cached token per sequence on this GPU (sliding layers make it fall with length)."""
        return self.bytes_per_gpu / (self.tokens * self.batch) if self.tokens and self.batch else 0.0


def layer_types(model: ModelSpec) -> tuple[list[str], Note | None]:
    """Each layer's attention kind, and a note on where the pattern came from (None: all full)."""
    n = model.num_layers or 0
    if model.layer_types:
        kinds = [SLIDING if str(t).lower().startswith("sliding") else FULL for t in model.layer_types]
        if len(kinds) == n or not n:
            sliding = sum(k == SLIDING for k in kinds)
            note = Note.of(KvCode.sliding, window_tokens=model.sliding_window, sliding_layers=sliding, layers=len(kinds),
                           pattern="config") if sliding and model.sliding_window else None
            if not model.sliding_window:  # a pattern without a window: nothing is capped
                kinds = [FULL] * len(kinds)
            return kinds, note
        ignored = Note.of(KvCode.layer_types_ignored, given=len(kinds), layers=n)
        return [FULL] * n, ignored
    if not model.sliding_window:
        return [FULL] * n, None
    family = model.family.lower()
    if family in _GEMMA2:
        kinds, pattern = [SLIDING if i % 2 == 0 else FULL for i in range(n)], "alternating"
    elif family in _GEMMA3:
        kinds, pattern = [FULL if (i + 1) % GEMMA3_PATTERN == 0 else SLIDING for i in range(n)], "five_in_six"
    else:
        kinds, pattern = [SLIDING] * n, "all"
    sliding = sum(k == SLIDING for k in kinds)
    return kinds, Note.of(KvCode.sliding, window_tokens=model.sliding_window, sliding_layers=sliding, layers=n,
                          pattern=pattern)


def stage_layers(n_layers: int, pp: int) -> list[range]:
    """Contiguous layer groups for `pp` pipeline stages, the remainder on the last stages (vLLM)."""
    pp = max(1, min(pp, n_layers)) if n_layers else 1
    base, extra = divmod(n_layers, pp)
    out, start = [], 0
    for stage in range(pp):
        size = base + (1 if stage >= pp - extra else 0)
        out.append(range(start, start + size))
        start += size
    return out


def bytes_per_token_per_layer(model: ModelSpec, kv_bytes: float = 2.0, tp: int = 1) -> tuple[float, Note]:
    """K+V bytes one token takes in one full-attention layer on one GPU, and the note saying why."""
    if model.attention == AttentionType.mla and model.kv_lora_rank:
        rope = model.qk_rope_head_dim or 0
        elements = model.kv_lora_rank + rope  # one latent + RoPE key; not split over TP ranks
        return float(elements * kv_bytes), Note.of(KvCode.mla, kv_lora_rank=model.kv_lora_rank, rope_dim=rope,
                                                   layers=model.num_layers)
    heads, kv_heads, head_dim = _heads(model)
    per_gpu = math.ceil(kv_heads / max(1, tp))  # each rank keeps at least one KV head
    kind = model.attention.value if model.attention != AttentionType.mla else "mha"
    if kv_heads == 1 and heads > 1:
        kind = "mqa"
    note = Note.of(KvCode.heads, attention=kind, kv_heads=kv_heads, head_dim=head_dim, kv_heads_per_gpu=per_gpu,
                   tp=tp)
    return float(2 * per_gpu * head_dim * kv_bytes), note  # 2: K and V


def _heads(model: ModelSpec) -> tuple[int, int, int]:
    if model.num_attention_heads and model.hidden_size:
        heads = model.num_attention_heads
        head_dim = model.head_dim or model.hidden_size // heads
    else:
        from tools.vram_shape import shape_of  # assumed decoder shape for a bare parameter count

        s = shape_of(model)
        return s.heads, s.kv_heads, s.head_dim
    if model.attention == AttentionType.mqa:
        kv = 1
    elif model.attention == AttentionType.mha:
        kv = model.num_kv_heads or heads
    else:
        kv = model.num_kv_heads or heads
    return heads, kv, head_dim


def kv_cache(model: ModelSpec, tokens: int, batch: int = 1, tp: int = 1, pp: int = 1,
             kv_bytes: float = 2.0) -> KvCache:
    """The KV cache of `batch` sequences of `tokens` tokens each on the most loaded GPU.

    Args:
        model: the model (layer count, heads, head_dim, attention type, sliding window / layer types).
        tokens: tokens per sequence held in the cache (prompt + generated so far).
        batch: concurrent sequences.
        tp: tensor-parallel degree (KV heads split over ranks; MLA latent replicated).
        pp: pipeline stages (layers split into contiguous groups).
        kv_bytes: bytes per element: 2 for bf16/fp16, 1 for fp8.
    """
    notes: list[Note] = []
    n_layers = model.num_layers
    if not n_layers:
        from tools.vram_shape import shape_of

        n_layers = shape_of(model).layers
        notes.append(Note.of(KvCode.shape_assumed, model=model.name))
    per_layer, why = bytes_per_token_per_layer(model, kv_bytes, tp)
    notes.append(why)
    kinds, pattern_note = layer_types(model)
    if len(kinds) != n_layers:
        kinds = [FULL] * n_layers
    if pattern_note is not None:
        notes.append(pattern_note)
    window = model.sliding_window or tokens
    kept = {FULL: tokens, SLIDING: min(tokens, window)}
    best = None
    for stage in stage_layers(n_layers, pp):
        stage_kinds = [kinds[i] for i in stage]
        total = sum(kept[k] for k in stage_kinds) * per_layer * batch
        if best is None or total > best[0]:
            best = (total, len(stage_kinds), sum(k == SLIDING for k in stage_kinds))
    assert best is not None
    total, layers, sliding = best
    return KvCache(
        bytes_per_gpu=float(total),
        bytes_per_token_per_layer=per_layer,
        layers_per_gpu=layers,
        sliding_layers_per_gpu=sliding,
        tokens=tokens,
        batch=batch,
        notes=tuple(notes),
    )


def kv_cache_bytes(model: ModelSpec, tokens: int, batch: int = 1, tp: int = 1, pp: int = 1,
                   kv_bytes: float = 2.0) -> float:
    """Bytes of KV cache on the most loaded GPU (see `kv_cache`)."""
    return kv_cache(model, tokens, batch, tp, pp, kv_bytes).bytes_per_gpu


def max_sequences(model: ModelSpec, pool_bytes: float, tokens: int, tp: int = 1, pp: int = 1,
                  kv_bytes: float = 2.0) -> float:
    """How many sequences of `tokens` tokens fit in a per-GPU pool of `pool_bytes` (fractional)."""
    one = kv_cache_bytes(model, tokens, 1, tp, pp, kv_bytes)
    return pool_bytes / one if one > 0 else 0.0
