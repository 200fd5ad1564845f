"""Model shape arithmetic the memory and time estimators share.

* `model_from_params`: a standard decoder shape for a bare parameter count
  ("a 13B model"), interpolated between published Llama shapes; with `kind=vision`
  a vision transformer's ("a 22M-param ViT"), between published ViT/DeiT shapes.
* `family_kind`: the model kind a published family implies (a ViT family is a vision model).
* `vit_tokens`: the tokens a ViT sees per image (patches + class token).
* `shape_of`: the numbers the formulas need (layers, hidden, heads, KV heads,
  head_dim, intermediate, vocab), falling back to the assumed shape when the
  catalog entry lacks them.
* `split_params`: how many parameters sit in linear layers (quantisable, LoRA
  targets) vs embeddings/norms (kept in 16 bits by bitsandbytes, GPTQ, AWQ).
* `lora_trainable_params`: adapter size from rank × target modules × shape.
* `layer_style`: what a family's reference implementation saves beyond the GEMM shapes (norm kind,
  dropout masks, fp32 softmax, whether FlashAttention exists for it).
* `embedding_params` / `largest_module_params` / `outside_block_params`: the modules sharded trainers treat
  specially.
* `is_vision_transformer`: a ViT whose blocks are counted tensor by tensor.

Pure functions, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.domain import AttentionType, LoraTargets, ModelKind, ModelSpec
from tools.errors import ErrorCode, InputError
from tools.notes import Note
from tools.vram_codes import VramCode

# Published decoder shapes (params, layers, hidden) that a bare count is
# interpolated between, in log(params). Sources: each model's config.json /
# paper table — GPT-3 paper Table 2.1 (Brown et al. 2020) for 125M/1.3B/2.7B,
# LLaMA paper Table 2 (Touvron et al. 2023) for 7B/13B/33B/65B, Llama 2 70B
# config (80 layers, 8192 hidden) and Llama 3.1 405B config (126 layers, 16384).
SHAPE_ANCHORS: tuple[tuple[float, int, int], ...] = (
    (125e6, 12, 768),
    (1.3e9, 24, 2048),
    (2.7e9, 32, 2560),
    (6.7e9, 32, 4096),
    (13.0e9, 40, 5120),
    (32.5e9, 60, 6656),
    (65.2e9, 80, 8192),
    (70e9, 80, 8192),
    (405e9, 126, 16384),
)
ASSUMED_HEAD_DIM = 128  # every Llama shape above uses 128-wide heads (GPT-3 small ones use 64; immaterial)
ASSUMED_KV_HEADS = 8  # GQA-8 as in Llama 3, Llama 2 70B, Mistral, Qwen2.5 ≥ 7B
ASSUMED_VOCAB = 32000  # Llama/Llama 2 tokenizer
ASSUMED_MLP_RATIO = 3.5  # SwiGLU width / hidden: Llama 2 70B, Llama 3, Mistral 7B (14336/4096, 28672/8192)
# Any shape is at least this small: below GPT-3 Small the anchors are extrapolated down to these floors.
MIN_LAYERS, MIN_HIDDEN = 2, 128


def _interp_shape(params: float) -> tuple[int, int]:
    """Layers and hidden size for `params`, log-linear between anchors, non-decreasing in params."""
    logs = [math.log(p) for p, _, _ in SHAPE_ANCHORS]
    x = math.log(params)
    # find the segment (extrapolate with the end segments' slopes)
    if x <= logs[0]:
        i = 0
    elif x >= logs[-1]:
        i = len(logs) - 2
    else:
        i = max(j for j in range(len(logs) - 1) if logs[j] <= x)
    (p0, l0, h0), (p1, l1, h1) = SHAPE_ANCHORS[i], SHAPE_ANCHORS[i + 1]
    t = (x - logs[i]) / (logs[i + 1] - logs[i])
    layers = l0 + t * (l1 - l0)
    hidden = h0 + t * (h1 - h0)
    # floor keeps the mapping monotone; rounding hidden to 128 keeps heads whole
    return max(MIN_LAYERS, int(math.floor(layers))), max(MIN_HIDDEN, int(math.floor(hidden / 128.0)) * 128)


def model_from_params(params: float, name: str | None = None, kind: ModelKind = ModelKind.decoder) -> ModelSpec:
    """A standard model for a bare parameter count, with `assumed_shape=True`.

    A decoder (the default): layers and hidden size interpolate published Llama/GPT-3 shapes (see
    SHAPE_ANCHORS); attention is GQA with 8 KV heads of width 128 (the
    Llama 3 / Mistral / Qwen2.5 design), vocabulary 32,000 with untied
    embeddings, and a SwiGLU MLP whose width makes the total equal `params`.
    `kind=ModelKind.vision`: a vision transformer (`_vit_from_params`: published ViT/DeiT shapes).
    """
    if not (isinstance(params, (int, float)) and math.isfinite(params) and params > 0):
        raise InputError(Note.of(ErrorCode.params_not_positive, value=repr(params)))
    if kind == ModelKind.vision:
        return _vit_from_params(float(params), name)
    layers, hidden = _interp_shape(params)
    heads = max(1, hidden // ASSUMED_HEAD_DIM)
    kv_heads = min(heads, ASSUMED_KV_HEADS)
    # A fixed MLP ratio (not solved from params) keeps every derived size
    # non-decreasing in the parameter count; `params` stays the weight total.
    intermediate = int(round(ASSUMED_MLP_RATIO * hidden / 256.0)) * 256 or 256
    label = name or _params_label(params)
    return ModelSpec(
        key=label,
        name=label,
        family="assumed-decoder",
        kind=ModelKind.decoder,
        params=float(params),
        num_layers=layers,
        hidden_size=hidden,
        num_attention_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=ASSUMED_HEAD_DIM,
        attention=AttentionType.gqa if kv_heads < heads else AttentionType.mha,
        intermediate_size=intermediate,
        vocab_size=ASSUMED_VOCAB,
        assumed_shape=True,
        source=(
            "assumed: standard decoder interpolated from published shapes "
            "(GPT-3 Table 2.1; LLaMA Table 2; Llama 2 70B / Llama 3.1 405B configs)"
        ),
    )


# Published vision-transformer shapes (params with the 1000-class head, layers, width), interpolated in log(params) for
# a bare count ("a 22M-param ViT"): DeiT-Ti/S/B (Touvron et al. 2021, "Training data-efficient image transformers",
# Table 1: 5M/22M/86M, widths 192/384/768, 12 layers, 3/6/12 heads) and ViT-L/H (Dosovitskiy et al. 2021, Table 1:
# 24 layers x 1024 and 32 x 1280, 307M/632M); every one has 64-wide heads and an MLP of 4 x width.
VIT_ANCHORS: tuple[tuple[float, int, int], ...] = (
    (5.7e6, 12, 192),
    (22.0e6, 12, 384),
    (86.6e6, 12, 768),
    (304.3e6, 24, 1024),
    (632.0e6, 32, 1280),
)
VIT_HEAD_DIM = 64  # DeiT and ViT: width / heads = 64 for every published size above
VIT_MLP_RATIO = 4  # timm/torchvision VisionTransformer mlp_ratio 4
VIT_CLASSES = 1000  # ImageNet-1k head
VIT_PATCH = 16  # ViT-*/16, DeiT-*/16: the usual patch size


def _vit_from_params(params: float, name: str | None) -> ModelSpec:
    """A vision transformer for a bare parameter count: layers and width log-linear between `VIT_ANCHORS` (the end
    segments extrapolated), width rounded down to whole 64-wide heads (at least one), MLP 4 x width."""
    logs = [math.log(p) for p, _, _ in VIT_ANCHORS]
    x = math.log(params)
    i = 0 if x <= logs[0] else len(logs) - 2 if x >= logs[-1] else max(j for j in range(len(logs) - 1) if logs[j] <= x)
    (_, l0, h0), (_, l1, h1) = VIT_ANCHORS[i], VIT_ANCHORS[i + 1]
    t = (x - logs[i]) / (logs[i + 1] - logs[i])
    layers = max(1, int(math.floor(l0 + t * (l1 - l0))))
    hidden = max(VIT_HEAD_DIM, int(math.floor((h0 + t * (h1 - h0)) / VIT_HEAD_DIM)) * VIT_HEAD_DIM)
    label = name or _params_label(params)
    return ModelSpec(
        key=label, name=label, family="vit", kind=ModelKind.vision, params=float(params), num_layers=layers,
        hidden_size=hidden, num_attention_heads=hidden // VIT_HEAD_DIM, num_kv_heads=hidden // VIT_HEAD_DIM,
        head_dim=VIT_HEAD_DIM, intermediate_size=VIT_MLP_RATIO * hidden, vocab_size=VIT_CLASSES, assumed_shape=True,
        source="assumed: vision transformer interpolated from published shapes (DeiT Table 1; ViT Table 1)",
    )


def vit_tokens(image_size: int, patch_size: int = VIT_PATCH) -> int:
    """Tokens a ViT sees per square image: (image_size // patch_size)² patches + the class token (timm/torchvision
    PatchEmbed: a stride-`patch_size` convolution; 224 px at /16 = 196 + 1 = 197). Both sizes are positive pixels."""
    return (image_size // patch_size) ** 2 + 1


def shape_assumption(model: ModelSpec) -> Note:
    if model.kind == ModelKind.vision:
        return Note.of(VramCode.shape_assumed, model=model.name, params=model.params, layers=model.num_layers,
                       hidden=model.hidden_size, heads=model.num_attention_heads, vision=True)
    return Note.of(
        VramCode.shape_assumed, model=model.name, params=model.params, layers=model.num_layers, hidden=model.hidden_size,
        heads=model.num_attention_heads, kv_heads=model.num_kv_heads, vocab=model.vocab_size,
    )


def _params_label(params: float) -> str:
    if params >= 1e9:
        return f"{params / 1e9:.3g}B"  # a name for a size alone: "13B (LoRA fine-tuning) needs …"
    return f"{params / 1e6:.3g}M"


@dataclass(frozen=True)
class Shape:
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    gated_mlp: bool  # SwiGLU/GeGLU: 3 MLP matrices instead of 2
    tied_embeddings: bool
    experts: int  # 1 for dense
    active_experts: int  # experts each token passes through (1 for dense)
    from_params: bool  # True when any number was assumed
    encoder_decoder: bool = False  # T5-style: `layers` = encoder + decoder layers, half each

    @property
    def decoder_layers(self) -> int:
        """Layers with a cross-attention block (encoder-decoder models only)."""
        return self.layers // 2 if self.encoder_decoder else 0


def shape_of(model: ModelSpec) -> Shape:
    """The numbers the formulas need; missing ones come from `model_from_params`."""
    base = None
    if model.num_layers is None or model.hidden_size is None:
        base = model_from_params(model.params)
    layers = model.num_layers or base.num_layers
    hidden = model.hidden_size or base.hidden_size
    heads = model.num_attention_heads or (base.num_attention_heads if base else max(1, hidden // ASSUMED_HEAD_DIM))
    head_dim = model.head_dim or max(1, hidden // heads)
    if model.attention == AttentionType.mqa:
        kv_heads = 1
    else:
        kv_heads = model.num_kv_heads or (heads if model.attention == AttentionType.mha else min(heads, ASSUMED_KV_HEADS))
    vocab = model.vocab_size or ASSUMED_VOCAB
    experts = model.moe_experts or 1
    attn = _attention_params(hidden, heads, kv_heads, head_dim)
    inter = model.intermediate_size or (base.intermediate_size if base else 4 * hidden)
    if experts > 1:
        # Some configs give the dense layers' width as intermediate_size (DeepSeek-V3:
        # 18,432 dense vs 2,048 per expert). When experts × that width overshoots the
        # published total, take the per-expert width the total implies (gated MLPs).
        implied = (model.params - 2 * vocab * hidden - layers * attn) / (3 * hidden * experts * layers)
        if implied > 0 and layers * 3 * hidden * inter * experts > 1.2 * model.params:
            inter = max(1, int(round(implied)))
    active = (model.moe_active_experts or 1) if model.moe_experts else 1
    if (model.assumed_shape and model.kind != ModelKind.vision) or base is not None:
        # the assumed decoder is SwiGLU with untied embeddings by construction
        return Shape(layers, hidden, heads, kv_heads, head_dim, inter, vocab, True, False, experts, active, True)
    enc_dec = model.kind == ModelKind.encoder_decoder
    # T5-style decoder layers carry a second (cross-)attention block: half the layers count it twice
    attn_blocks = layers * 1.5 if enc_dec else layers
    # Gated MLP or not, tied embeddings or not: neither is in ModelSpec, so pick
    # the combination whose parameter total lands closest to the published count.
    best = None
    for gated in (True, False):
        for tied in (False, True):
            mlp = (3 if gated else 2) * hidden * inter * experts
            total = attn_blocks * attn + layers * mlp + (1 if tied else 2) * vocab * hidden
            err = abs(total - model.params)
            if best is None or err < best[0]:
                best = (err, gated, tied)
    _, gated, tied = best
    return Shape(layers, hidden, heads, kv_heads, head_dim, inter, vocab, gated, tied, experts, active, False, enc_dec)


def layer_params(s: Shape) -> float:
    """Parameters of the largest transformer layer (attention + MLP, all experts) from the shape.

    For an encoder-decoder model that is a decoder layer: self-attention, cross-attention and MLP.
    """
    attn = _attention_params(s.hidden, s.heads, s.kv_heads, s.head_dim)
    return float(attn * (2 if s.encoder_decoder else 1) + (3 if s.gated_mlp else 2) * s.hidden * s.intermediate * s.experts)


def embedding_params(s: Shape) -> float:
    """Parameters of the input embedding plus an untied LM head (the modules outside the transformer layers)."""
    return float((1 if s.tied_embeddings else 2) * s.vocab * s.hidden)


def largest_module_params(s: Shape) -> float:
    """The largest single module's parameters: the embedding table or the widest linear layer (all experts' MLP
    is several modules, so one expert matrix counts)."""
    return float(max(s.vocab * s.hidden, s.hidden * s.intermediate, s.hidden * s.heads * s.head_dim))


# --- what a family's reference implementation keeps for backward beyond the GEMM shapes ---------------------
@dataclass(frozen=True)
class LayerStyle:
    """Per-family facts of the Hugging Face reference implementation that change the saved activations."""

    norm: str  # "rms" (RMSNorm that upcasts to fp32 and keeps that copy) | "layer" (nn.LayerNorm: keeps its input)
    dropout: bool  # the config's default dropout is > 0, so each dropout keeps a 1-byte mask
    fp32_softmax: bool  # eager attention upcasts the scores to fp32 for the softmax (and keeps that output)
    eager_only: bool  # no FlashAttention / SDPA kernel for the family in HF transformers
    fp32_logits: bool = True  # the training loss upcasts the logits to fp32 first (else it runs in their own dtype)
    shift_copy: bool = True  # the loss reads a shifted .contiguous() copy of the logits (a causal LM's next-token loss)


# BertConfig (hidden_dropout_prob = attention_probs_dropout_prob = 0.1), RobertaConfig, DistilBertConfig
# (dropout 0.1) and GPT2Config (resid/attn/embd_pdrop 0.1): nn.LayerNorm, softmax in the input dtype.
_LAYERNORM_DROPOUT = {"bert", "roberta", "xlm-roberta", "distilbert", "deberta", "gpt2", "starcoder", "gpt_bigcode"}
# T5Config / flan-t5 (dropout_rate 0.1): T5LayerNorm computes the variance in fp32 and multiplies in fp32
# (an RMS norm with an fp32 copy), T5Attention runs softmax(scores.float()); relative position bias has no
# FlashAttention/SDPA path in HF transformers (T5 is eager-only).
_T5 = {"t5", "flan-t5", "mt5", "umt5", "t5-v1.1", "ul2"}
# LayerNorm families without dropout by default (OPTConfig dropout 0.1 aside, rarely fine-tuned here)
_LAYERNORM = {"opt", "bloom", "falcon", "gpt-neox", "phi", "whisper", "vit"}
# Where the training loss runs on the logits in their own dtype. HF transformers' causal-LM loss upcasts
# (loss_utils.ForCausalLMLoss: `logits = logits.float()`; LlamaForCausalLM did `logits.float()` in the model before
# 4.45), and so does ChatGLM's remote code (`lm_logits.to(torch.float32)`). Qwen (v1)'s remote code does not
# (modeling_qwen.py QWenLMHeadModel.forward: `lm_logits = self.lm_head(hidden_states)`, then CrossEntropyLoss on the
# shifted copy), nor does T5ForConditionalGeneration (`loss_fct(lm_logits.view(-1, ...), labels.view(-1))`).
_LOSS_IN_LOGITS_DTYPE = {"qwen"} | _T5


def layer_style(model: ModelSpec) -> LayerStyle:
    """The family's style; Llama-style decoders (LlamaRMSNorm with fp32 upcast, dropout 0.0, eager attention
    with softmax(dtype=float32)) are the default."""
    family = model.family.lower()
    fp32_logits = family not in _LOSS_IN_LOGITS_DTYPE
    if family in _T5:
        return LayerStyle(norm="rms", dropout=True, fp32_softmax=True, eager_only=True, fp32_logits=fp32_logits)
    if model.kind == ModelKind.encoder:
        # A masked-LM head (BertForMaskedLM, RobertaForMaskedLM, ...: transformers models/bert/modeling_bert.py
        # `loss_fct = CrossEntropyLoss(); masked_lm_loss = loss_fct(prediction_scores.view(-1, self.config.vocab_size),
        # labels.view(-1))`, in 4.49 and 5.x alike) scores every position in place: no `.float()` upcast and no shifted
        # copy (the labels are -100 where no token is masked, so the logits and log-softmax still cover all positions)
        return LayerStyle(norm="layer", dropout=True, fp32_softmax=False, eager_only=False, fp32_logits=False,
                          shift_copy=False)
    if family in _LAYERNORM_DROPOUT:
        return LayerStyle(norm="layer", dropout=True, fp32_softmax=False, eager_only=False)
    if family in _LAYERNORM:
        return LayerStyle(norm="layer", dropout=False, fp32_softmax=False, eager_only=False)
    return LayerStyle(norm="rms", dropout=False, fp32_softmax=True, eager_only=False, fp32_logits=fp32_logits)


# Vision transformers whose blocks are torchvision's EncoderBlock / timm's Block / HF's ViTLayer: pre-norm nn.LayerNorm,
# multi-head self-attention over patches + class token, a GELU MLP of width 4h, no dropout by default. Their saved
# tensors are counted block by block (tools/vram.py `_vit_token_bytes`), not from the catalog's measured profile.
_VISION_TRANSFORMERS = {"vit"}


def family_kind(family: str) -> ModelKind:
    """The kind of model a published family name implies: a vision-transformer family (`_VISION_TRANSFORMERS`: its
    blocks run over image patches, its head over the class token) is a vision model; every other family a decoder, the
    kind a bare shape has always been read as."""
    return ModelKind.vision if family.lower() in _VISION_TRANSFORMERS else ModelKind.decoder


def is_vision_transformer(model: ModelSpec) -> bool:
    """A vision transformer whose block shape the catalog gives (layers, hidden size, heads, MLP width)."""
    return (model.kind == ModelKind.vision and model.family.lower() in _VISION_TRANSFORMERS
            and None not in (model.num_layers, model.hidden_size, model.num_attention_heads, model.intermediate_size))


def outside_block_params(model: ModelSpec, s: Shape) -> float:
    """Parameters outside the transformer blocks: for a vision transformer the patch embedding, the class token, the
    position embedding, the final norm and the head (what an FSDP root unit holds when the blocks are wrapped); for a
    language model the input embedding plus an untied LM head (`embedding_params`)."""
    if is_vision_transformer(model):
        return max(0.0, model.params - s.layers * layer_params(s))
    return embedding_params(s)


def _attention_params(hidden: int, heads: int, kv_heads: int, head_dim: int) -> int:
    # q and o: hidden × heads·head_dim each; k and v: hidden × kv_heads·head_dim each
    return 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim


def split_params(model: ModelSpec) -> tuple[float, float]:
    """(linear-layer params, other params: embeddings, LM head, norms).

    Quantisers (bitsandbytes LLM.int8/NF4, GPTQ, AWQ) replace only the
    transformer blocks' nn.Linear layers; the embeddings and LM head stay in
    16 bits. Non-decoder models: everything counts as linear.
    """
    if model.kind not in (ModelKind.decoder, ModelKind.encoder, ModelKind.encoder_decoder):
        return model.params, 0.0
    s = shape_of(model)
    embed = (1 if s.tied_embeddings else 2) * s.vocab * s.hidden
    # never more than half the model (shapes that do not add up must not make weights shrink)
    other = min(float(embed), model.params / 2)
    return model.params - other, other


def lora_trainable_params(model: ModelSpec, rank: int, targets: LoraTargets) -> float:
    """LoRA adapter parameters: r × (d_in + d_out) for every targeted matrix.

    attention: q, k, v, o projections; all-linear (PEFT's "all-linear"): also
    the MLP's gate/up/down (or fc1/fc2), for every expert of an MoE layer.
    The LM head is never targeted (PEFT excludes it from "all-linear").
    """
    s = shape_of(model)
    q_out = s.heads * s.head_dim
    kv_out = s.kv_heads * s.head_dim
    attention = rank * (
        (s.hidden + q_out)  # q_proj
        + 2 * (s.hidden + kv_out)  # k_proj, v_proj
        + (q_out + s.hidden)  # o_proj
    )
    # encoder-decoder: the decoder half of the layers adapts its cross-attention q, k, v, o too
    total = attention * (s.layers + s.decoder_layers)
    if targets == LoraTargets.all_linear:
        n_mlp = 3 if s.gated_mlp else 2
        total += rank * n_mlp * (s.hidden + s.intermediate) * s.experts * s.layers
    return float(total)
