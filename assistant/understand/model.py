"""The frame model: multinomial logistic regression over `features.FEATURE_NAMES`.

Trained on the development corpus by `scripts/build_frame_bank.py` (the k-NN
feature of each training turn is computed without its own conversation, as it
would be for a new question), stored as JSON in `data/frame_model.json` with
the hash of the corpus it was trained on. Prediction is one matrix product.
Training is plain full-batch gradient descent with L2 (no third-party solver),
so the weights are reproducible from the corpus.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from assistant.understand.features import FEATURE_NAMES, FRAMES
from assistant.understand.slots import Frame

MODEL_PATH = Path(__file__).with_name("data") / "frame_model.json"  # with the k-NN vote
FAST_MODEL_PATH = Path(__file__).with_name("data") / "frame_model_fast.json"  # without it
L2 = float(__import__("os").environ.get("GA_FRAME_L2", "1e-3"))
STEPS = 1500
LEARNING_RATE = 0.5


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class FrameModel:
    def __init__(self, weights: np.ndarray, corpus_hash: str = ""):
        if weights.shape != (len(FEATURE_NAMES), len(FRAMES)):
            raise ValueError("frame model does not match the feature list: rebuild with scripts/build_frame_bank.py")
        self.weights = weights.astype(np.float32)
        self.corpus_hash = corpus_hash

    @classmethod
    def train(cls, x: np.ndarray, y: list[Frame], *, corpus_hash: str = "", sample_weight: np.ndarray | None = None) -> "FrameModel":
        n, d = x.shape
        k = len(FRAMES)
        target = np.zeros((n, k), dtype=np.float64)
        for i, frame in enumerate(y):
            target[i, FRAMES.index(frame)] = 1.0
        sw = np.ones(n) if sample_weight is None else sample_weight
        sw = sw / sw.sum()
        w = np.zeros((d, k), dtype=np.float64)
        m = np.zeros_like(w)
        v = np.zeros_like(w)
        try:  # the hashed n-gram features are sparse: a sparse matrix makes training ~50x faster (dev-time only)
            from scipy.sparse import csr_matrix

            xd = csr_matrix(x.astype(np.float64))
            xt = xd.T.tocsr()
        except ImportError:
            xd = x.astype(np.float64)
            xt = xd.T
        for step in range(1, STEPS + 1):  # Adam on the weighted cross-entropy + L2
            p = _softmax(np.asarray(xd @ w))
            grad = np.asarray(xt @ ((p - target) * sw[:, None])) + L2 * w
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad * grad
            w -= LEARNING_RATE * 0.1 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        return cls(w, corpus_hash)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        return _softmax((x[None, :] if x.ndim == 1 else x) @ self.weights)

    def predict(self, x: np.ndarray) -> tuple[Frame, float]:
        p = self.probabilities(x)[0]
        i = int(np.argmax(p))
        return FRAMES[i], float(p[i])

    # ------------------------------------------------------------------ storage

    def save(self, path: Path = MODEL_PATH) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "features": FEATURE_NAMES,
            "frames": [f.value for f in FRAMES],
            "corpus_hash": self.corpus_hash,
            "weights": [[round(float(v), 5) for v in row] for row in self.weights],
        }
        path.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> "FrameModel | None":
        if not path.exists():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["features"] != FEATURE_NAMES or data["frames"] != [f.value for f in FRAMES]:
            return None  # stale: the feature list changed since training
        return cls(np.asarray(data["weights"], dtype=np.float32), data.get("corpus_hash", ""))
