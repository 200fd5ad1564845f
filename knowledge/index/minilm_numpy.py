"""The bundled all-MiniLM-L6-v2 forward pass in NumPy, for query embedding.

Why: a query is one short sequence, and importing sentence-transformers (torch,
transformers, scikit-learn) costs 6–8 s of a cold `gpu-advisor ask` on these
machines, far more than the forward pass itself. This module reads the same
`model.safetensors` (sha256-checked by the caller) and reproduces the
sentence-transformers pipeline of that model exactly: BERT (6 layers, 384
hidden, 12 heads, exact-erf GELU) → mean pooling over the attention mask →
L2 normalisation, at most 256 word pieces. Index building keeps using
sentence-transformers (batched, faster per text); a test checks both paths give
the same vectors (cosine ≥ 0.9999).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length


def _erf(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return erf(x)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class NumpyMiniLM:
    def __init__(self, model_dir: Path):
        self.model_dir = Path(model_dir)
        self._lock = threading.Lock()
        self._weights: dict[str, np.ndarray] | None = None
        self._tokenizer = None
        config = json.loads((self.model_dir / "config.json").read_text())
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])

    @staticmethod
    def supports(model_dir: Path) -> bool:
        """Only the exact pipeline this module implements: BERT → mean pooling → normalise."""
        try:
            modules = json.loads((model_dir / "modules.json").read_text())
            pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
            config = json.loads((model_dir / "config.json").read_text())
        except (OSError, ValueError):
            return False
        types = [m["type"].rsplit(".", 1)[-1] for m in modules]
        return (
            types == ["Transformer", "Pooling", "Normalize"]
            and pooling.get("pooling_mode_mean_tokens") is True
            and not any(pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens"))
            and config.get("model_type") == "bert"
            and config.get("hidden_act") == "gelu"
            and config.get("position_embedding_type", "absolute") == "absolute"
        )

    def _load(self) -> tuple[dict[str, np.ndarray], object]:
        with self._lock:
            if self._weights is None:
                from safetensors.numpy import load_file
                from tokenizers import Tokenizer

                weights = load_file(str(self.model_dir / "model.safetensors"))
                # linear layers as (in, out), contiguous: `h @ W.T` on a view re-packs W on every call
                for name in [n for n in weights if n.startswith("encoder.") and n.endswith(".weight") and weights[n].ndim == 2]:
                    weights[name] = np.ascontiguousarray(weights[name].T)
                self._weights = weights
                tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
                tok.enable_truncation(MAX_TOKENS)
                tok.no_padding()
                self._tokenizer = tok
            return self._weights, self._tokenizer

    def encode(self, text: str) -> np.ndarray:
        w, tok = self._load()
        ids = np.asarray(tok.encode(text).ids, dtype=np.int64)
        n = len(ids)
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        d = x.shape[-1] // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def linear(h: np.ndarray, name: str) -> np.ndarray:
                return h @ w[p + name + ".weight"] + w[p + name + ".bias"]

            q = linear(x, "attention.self.query").reshape(n, self.heads, d).transpose(1, 0, 2)
            k = linear(x, "attention.self.key").reshape(n, self.heads, d).transpose(1, 0, 2)
            v = linear(x, "attention.self.value").reshape(n, self.heads, d).transpose(1, 0, 2)
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)  # one unpadded sequence: no mask needed
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attn = (scores / scores.sum(-1, keepdims=True)) @ v
            attn = attn.transpose(1, 0, 2).reshape(n, -1)
            x = _layer_norm(
                linear(attn, "attention.output.dense") + x,
                w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], self.eps,
            )
            h = linear(x, "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / np.sqrt(2.0)))  # BERT's exact GELU
            x = _layer_norm(
                linear(h, "output.dense") + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps
            )
        pooled = x.mean(0)
        return (pooled / max(np.linalg.norm(pooled), 1e-12)).astype(np.float32)
