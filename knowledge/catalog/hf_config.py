"""Build a `ModelSpec` from a Hugging Face ``config.json``.

Handles the decoder families users bring (llama, mistral, mixtral, qwen/qwen2/
qwen3 incl. MoE, deepseek_v2/v3 with MLA, gemma/gemma2, phi3, chatglm,
baichuan, yi, gpt2, gpt_bigcode) plus BERT- and T5-style encoders. Configs
rarely state a parameter count, so it is computed from the shape
(`count_params`), which the catalog tests check against published counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.domain import AttentionType, ModelKind, ModelSpec
from tools.errors import InputError


def model_from_hf_config(path: str | Path) -> ModelSpec:
    """Read ``config.json`` (or a folder holding one) into a `ModelSpec`.

    Raises `InputError` with one line naming the file and what is missing
    when the file is not a usable model config.
    """
    p = Path(path).expanduser()
    if p.is_dir():
        p = p / "config.json"
    if not p.is_file():
        raise InputError(f"{p}: no such file; give the path of a Hugging Face config.json or of its model folder.")
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"{p}: not a JSON file ({err.__class__.__name__}); expected a Hugging Face config.json.") from None
    if not isinstance(raw, dict):
        raise InputError(f"{p}: expected a JSON object (a Hugging Face config.json).")
    name = str(raw.get("_name_or_path") or (p.parent.name if p.name == "config.json" else p.stem))
    shape = shape_from_config(raw, where=str(p))
    total, active = count_params(shape)
    return ModelSpec(
        key=f"hf:{name}",
        name=name,
        family=shape.model_type,
        kind=shape.kind,
        aliases=[],
        params=float(total),
        active_params=float(active) if shape.experts else None,
        num_layers=shape.layers,
        hidden_size=shape.hidden,
        num_attention_heads=shape.heads,
        num_kv_heads=shape.kv_heads,
        head_dim=shape.head_dim,
        attention=shape.attention,
        kv_lora_rank=shape.kv_lora_rank,
        qk_rope_head_dim=shape.qk_rope_head_dim,
        sliding_window=shape.sliding_window,
        layer_types=shape.layer_types,
        intermediate_size=shape.intermediate,
        vocab_size=shape.vocab,
        max_context=shape.max_context,
        moe_experts=shape.experts,
        moe_active_experts=shape.experts_per_token,
        source=f"Hugging Face config {p} (parameters computed from the shape)",
    )


@dataclass
class Shape:
    """Everything `count_params` needs, normalised across config dialects."""

    model_type: str
    kind: ModelKind
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    max_context: int | None = None
    gated_mlp: bool = True  # SwiGLU/GeGLU: 3 matrices; classic MLP: 2
    tied_embeddings: bool = False
    qkv_bias: bool = False
    mlp_bias: bool = False
    learned_positions: int = 0  # GPT-2/BERT absolute position table rows
    experts: int | None = None
    experts_per_token: int | None = None
    moe_intermediate: int | None = None
    shared_experts: int = 0
    shared_intermediate: int | None = None
    first_dense_layers: int = 0
    kv_lora_rank: int | None = None
    q_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    qk_nope_head_dim: int | None = None
    v_head_dim: int | None = None
    sliding_window: int | None = None
    layer_types: list[str] | None = None  # per-layer attention kind ('full_attention' / 'sliding_attention')
    decoder_layers: int = 0  # encoder-decoder only
    attention: AttentionType = AttentionType.mha


def _get(cfg: dict[str, Any], *names: str) -> Any:
    for n in names:
        if cfg.get(n) is not None:
            return cfg[n]
    return None


def shape_from_config(raw: dict[str, Any], where: str = "config") -> Shape:
    cfg = raw.get("text_config") if isinstance(raw.get("text_config"), dict) else raw
    mtype = str(_get(cfg, "model_type") or _get(raw, "model_type") or "unknown").lower()
    hidden = _get(cfg, "hidden_size", "n_embd", "d_model", "dim")
    layers = _get(cfg, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
    heads = _get(cfg, "num_attention_heads", "n_head", "num_heads", "n_heads")
    vocab = _get(cfg, "vocab_size", "padded_vocab_size")
    missing = [n for n, v in (("hidden_size", hidden), ("num_hidden_layers", layers), ("num_attention_heads", heads), ("vocab_size", vocab)) if v is None]
    if missing:
        raise InputError(
            f"{where}: not a usable model config: missing {', '.join(missing)} "
            "(expected a Hugging Face config.json of a transformer model)."
        )
    try:
        hidden, layers, heads, vocab = int(hidden), int(layers), int(heads), int(vocab)
    except (TypeError, ValueError):
        raise InputError(f"{where}: hidden_size, num_hidden_layers, num_attention_heads and vocab_size must be integers.") from None
    if min(hidden, layers, heads, vocab) <= 0:
        raise InputError(f"{where}: hidden_size, num_hidden_layers, num_attention_heads and vocab_size must be positive.")

    kind = ModelKind.decoder
    if mtype in ("bert", "roberta", "xlm-roberta", "deberta", "deberta-v2", "distilbert"):
        kind = ModelKind.encoder
    if mtype in ("t5", "mt5", "umt5", "bart", "mbart") or raw.get("is_encoder_decoder"):
        kind = ModelKind.encoder_decoder

    kv = _get(cfg, "num_key_value_heads", "num_kv_heads", "n_head_kv")
    if mtype == "chatglm" and cfg.get("multi_query_attention"):
        kv = cfg.get("multi_query_group_num")
    if mtype == "gpt_bigcode" and cfg.get("multi_query", True):
        kv = 1
    kv = int(kv) if kv else heads
    head_dim = int(_get(cfg, "head_dim", "kv_channels", "d_kv") or hidden // heads)

    inter = _get(cfg, "intermediate_size", "ffn_hidden_size", "n_inner", "d_ff", "ffn_dim")
    act = str(_get(cfg, "hidden_act", "activation_function", "feed_forward_proj", "hidden_activation") or "silu").lower()
    gated = mtype not in ("gpt2", "gpt_bigcode", "bert", "roberta", "xlm-roberta", "gpt_neox", "opt", "bloom", "falcon")
    if kind == ModelKind.encoder_decoder:
        gated = "gated" in act
    if mtype == "qwen" and inter:
        inter = int(inter) // 2  # Qwen v1 lists w1+w2 together (22016 = 2 x 11008)
    inter = int(inter) if inter else 4 * hidden

    experts = _get(cfg, "num_local_experts", "n_routed_experts", "num_experts", "moe_num_experts")
    experts = int(experts) if experts else None
    top_k = _get(cfg, "num_experts_per_tok", "moe_topk", "num_selected_experts") if experts else None
    moe_inter = _get(cfg, "moe_intermediate_size") if experts else None
    if experts and not moe_inter:
        moe_inter = inter  # Mixtral: each expert is a full-size MLP
    shared = int(_get(cfg, "n_shared_experts") or 0) if experts else 0
    shared_inter = _get(cfg, "shared_expert_intermediate_size")
    if shared == 0 and shared_inter:
        shared = 1  # Qwen2-MoE: one shared expert of its own width

    sliding = _get(cfg, "sliding_window")
    if mtype in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe") and not cfg.get("use_sliding_window", False):
        sliding = None  # Qwen configs carry a window that is switched off
    max_ctx = _get(cfg, "max_position_embeddings", "seq_length", "n_positions", "max_sequence_length", "n_ctx")
    # Per-layer attention kinds as transformers writes them (Gemma-2/3, Qwen2/3, GPT-OSS …): the KV cache keeps
    # `sliding_window` tokens in the sliding layers only (tools/kv_cache.py).
    layer_types = cfg.get("layer_types")
    if layer_types is not None and not (
        isinstance(layer_types, list) and all(isinstance(t, str) for t in layer_types)
    ):
        raise InputError(f"{where}: layer_types must be a list of names such as 'full_attention' and "
                         "'sliding_attention'.")

    shape = Shape(
        model_type=mtype,
        kind=kind,
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv,
        head_dim=head_dim,
        intermediate=inter,
        vocab=vocab,
        max_context=int(max_ctx) if max_ctx else None,
        gated_mlp=gated,
        tied_embeddings=_tied(raw, cfg, mtype),
        qkv_bias=bool(cfg.get("attention_bias") or mtype in ("qwen2", "qwen2_moe", "qwen", "gpt2", "gpt_bigcode", "bert") or cfg.get("add_qkv_bias")),
        mlp_bias=mtype in ("gpt2", "gpt_bigcode", "bert"),
        learned_positions=int(max_ctx) if mtype in ("gpt2", "gpt_bigcode", "bert", "roberta") and max_ctx else 0,
        experts=experts,
        experts_per_token=int(top_k) if top_k else None,
        moe_intermediate=int(moe_inter) if moe_inter else None,
        shared_experts=shared,
        shared_intermediate=int(shared_inter) if shared_inter else None,
        first_dense_layers=int(_get(cfg, "first_k_dense_replace") or 0) if experts else 0,
        kv_lora_rank=_get(cfg, "kv_lora_rank"),
        q_lora_rank=_get(cfg, "q_lora_rank"),
        qk_rope_head_dim=_get(cfg, "qk_rope_head_dim"),
        qk_nope_head_dim=_get(cfg, "qk_nope_head_dim"),
        v_head_dim=_get(cfg, "v_head_dim"),
        sliding_window=int(sliding) if sliding else None,
        layer_types=list(layer_types) if layer_types else None,
        decoder_layers=int(_get(cfg, "num_decoder_layers") or layers) if kind == ModelKind.encoder_decoder else 0,
    )
    if shape.kv_lora_rank:
        shape.attention = AttentionType.mla
    elif shape.kv_heads == 1 and heads > 1:
        shape.attention = AttentionType.mqa
    elif shape.kv_heads < heads:
        shape.attention = AttentionType.gqa
    return shape


# Families whose weights share the input embedding with the output head when
# the config does not say (HF PretrainedConfig's own default is True, but the
# llama/qwen2/mistral config classes default to False).
_TIED_BY_DEFAULT = {"gpt2", "gpt_bigcode", "bert", "roberta", "xlm-roberta", "gemma", "gemma2", "gemma3_text"}


def _tied(raw: dict[str, Any], cfg: dict[str, Any], mtype: str) -> bool:
    for c in (cfg, raw):
        if c.get("tie_word_embeddings") is not None:
            return bool(c["tie_word_embeddings"])
    if mtype in ("t5", "mt5"):
        return not str(cfg.get("feed_forward_proj", "relu")).startswith("gated")  # T5 v1.0 ties, v1.1/FLAN does not
    return mtype in _TIED_BY_DEFAULT


def count_params(s: Shape) -> tuple[int, int]:
    """(total, active-per-token) parameters of a transformer shape.

    Embeddings count once, plus an untied output head; norms and biases are
    included where the family has them, so results land within ~1% of the
    published counts (see tests/test_catalog_hf_config.py).
    """
    h = s.hidden
    embed = s.vocab * h + s.learned_positions * h
    head = 0 if s.tied_embeddings else s.vocab * h

    if s.kind == ModelKind.encoder_decoder:
        inner = s.heads * s.head_dim
        attn = 4 * h * inner
        mlp = (3 if s.gated_mlp else 2) * h * s.intermediate
        enc = s.layers * (attn + mlp + 2 * h)
        dec = s.decoder_layers * (2 * attn + mlp + 3 * h)
        total = embed + head + enc + dec + 2 * h
        return total, total

    if s.kv_lora_rank:  # MLA (DeepSeek-V2/V3)
        nope, rope, v = s.qk_nope_head_dim or 128, s.qk_rope_head_dim or 64, s.v_head_dim or 128
        q = (h * s.q_lora_rank + s.q_lora_rank + s.q_lora_rank * s.heads * (nope + rope)) if s.q_lora_rank else h * s.heads * (nope + rope)
        kv = h * (s.kv_lora_rank + rope) + s.kv_lora_rank + s.kv_lora_rank * s.heads * (nope + v)
        attn = q + kv + s.heads * v * h
    else:
        q_out = s.heads * s.head_dim
        kv_out = s.kv_heads * s.head_dim
        attn = h * (q_out + 2 * kv_out) + q_out * h
        if s.qkv_bias:
            attn += q_out + 2 * kv_out
    n_mat = 3 if s.gated_mlp else 2
    dense_mlp = n_mat * h * s.intermediate + (s.intermediate + h if s.mlp_bias else 0)
    norms = 2 * h

    if not s.experts:
        per_layer = attn + dense_mlp + norms
        total = embed + head + s.layers * per_layer + h
        return total, total

    expert = 3 * h * (s.moe_intermediate or s.intermediate)
    shared = s.shared_experts * 3 * h * (s.shared_intermediate or s.moe_intermediate or s.intermediate) if s.shared_experts else 0
    router = h * s.experts
    moe_layers = s.layers - s.first_dense_layers
    dense_part = s.first_dense_layers * (attn + dense_mlp + norms)
    moe_part = moe_layers * (attn + norms + router + shared + s.experts * expert)
    total = embed + head + dense_part + moe_part + h
    inactive = moe_layers * (s.experts - (s.experts_per_token or s.experts)) * expert
    return total, total - inactive


def params_b(total: float) -> str:
    """Human form: 6.74B, 494M."""
    return f"{total / 1e9:.2f}B" if total >= 1e9 else f"{total / 1e6:.0f}M"


__all__ = ["model_from_hf_config", "count_params", "shape_from_config", "Shape", "params_b"]
