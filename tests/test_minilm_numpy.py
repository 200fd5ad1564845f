"""The NumPy query encoder gives the same vectors as sentence-transformers for the bundled MiniLM."""

from __future__ import annotations

import numpy as np
import pytest

from knowledge.index.embeddings import SentenceTransformerEmbedder, bundled_model_dir
from knowledge.index.minilm_numpy import NumpyMiniLM

TEXTS = [
    "spot instances checkpoint",  # short English
    "竞价实例被回收怎么办",  # Chinese: mostly unknown word pieces, must still match
    "How much GPU memory does Qwen2.5-7B need for inference with a batch of 8 and 4096 tokens of context?",
    "memory " * 400,  # longer than the 256-piece window: both truncate the same way
    "x",
]


@pytest.fixture(scope="module")
def reference():
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(bundled_model_dir()), device="cpu")
    model.max_seq_length = 256
    return model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)


def test_bundled_model_is_supported():
    assert NumpyMiniLM.supports(bundled_model_dir())


def test_same_vectors_as_sentence_transformers(reference):
    fast = NumpyMiniLM(bundled_model_dir())
    for text, ref in zip(TEXTS, reference):
        vec = fast.encode(text)
        assert vec.shape == (384,) and vec.dtype == np.float32
        assert float(np.dot(vec, ref)) >= 0.9999, text[:40]


def test_queries_use_the_numpy_path_until_torch_is_loaded(reference):
    embedder = SentenceTransformerEmbedder()
    vec = embedder.embed_query(TEXTS[0])
    assert embedder._numpy_query_model() is not None
    assert float(np.dot(vec, reference[0])) >= 0.9999
    embedder.embed_documents(["an index build loads the torch model"])
    assert embedder._numpy_query_model() is None  # then the loaded model answers queries
    assert float(np.dot(embedder.embed_query(TEXTS[0]), reference[0])) >= 0.9999


def test_other_pipelines_are_not_claimed(tmp_path):
    (tmp_path / "modules.json").write_text('[{"type": "sentence_transformers.models.Transformer"}]')
    assert not NumpyMiniLM.supports(tmp_path)
    assert not NumpyMiniLM.supports(tmp_path / "missing")
