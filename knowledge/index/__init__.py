"""Guidance index: chunking, embeddings, Chroma storage, hybrid (BM25 + dense) retrieval.

Public API (imported lazily so that `import knowledge.index` loads no model):

* `build_index(settings=None, paths=(), rebuild=False)` -> BuildReport
* `remove_path(settings, path)` -> BuildReport
* `get_retriever(settings=None)` -> HybridRetriever with `.search(query, k, lang, doc_ids, topics)`
* `search_guidance(query, k=5, lang=None, ...)` -> list[Passage]
* `GuidanceRetriever` — a LangChain `BaseRetriever` over the same retriever
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "build_index",
    "remove_path",
    "indexed_paths",
    "get_retriever",
    "search_guidance",
    "GuidanceRetriever",
    "BuildReport",
    "HybridRetriever",
    "Tuning",
]

_WHERE = {
    "build_index": "knowledge.index.service",
    "remove_path": "knowledge.index.service",
    "indexed_paths": "knowledge.index.service",
    "get_retriever": "knowledge.index.service",
    "search_guidance": "knowledge.index.service",
    "GuidanceRetriever": "knowledge.index.langchain_retriever",
    "BuildReport": "knowledge.index.indexer",
    "HybridRetriever": "knowledge.index.hybrid",
    "Tuning": "knowledge.index.hybrid",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'knowledge.index' has no attribute {name!r}")
