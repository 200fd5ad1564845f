"""Build and update the index incrementally.

The collections are the truth about what is embedded; the manifest only
remembers, per source file, its size/mtime and chunk ids so that a no-change
run reads no file. Each run:

1. opens the store (a damaged one is wiped and rebuilt, and said so);
2. lists sources: built-in docs, catalog cards, the user's indexed paths;
3. re-reads only files whose size/mtime changed (or whose chunks went missing),
   chunks them, and hashes each chunk;
4. embeds only chunk ids the collection lacks, deletes ids no source produces;
5. writes the manifest atomically.
A crash anywhere leaves a state the next run repairs by the same diff.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from knowledge.index import store
from knowledge.index.cards import SOURCE as CARD_SOURCE
from knowledge.index.cards import load_cards
from knowledge.index.chunking import chunk_document, content_hash
from knowledge.index.documents import Chunk, SourceDoc
from knowledge.index.loaders import SkipFile, load_file, supported, user_doc_id, _LANG_SUFFIX
from knowledge.index.manifest import (
    FORMAT_VERSION,
    Manifest,
    ManifestError,
    SourceEntry,
    read_manifest,
    read_paths,
    write_manifest,
    write_paths,
)
from tools.errors import ConfigError, InputError

Notify = Callable[[str], None]
PROGRESS_MIN_CHUNKS = 24  # below this a progress bar is noise
EMBED_BATCH = 64


def builtin_docs_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "docs"


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class BuildReport:
    documents: int = 0
    chunks: int = 0
    embedded: int = 0  # chunks (re-)embedded this run
    removed: int = 0
    unchanged: int = 0
    files_read: int = 0
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    rebuilt: bool = False
    seconds: float = 0.0
    embedded_by_backend: dict[str, int] = field(default_factory=dict)
    seconds_by_stage: dict[str, float] = field(default_factory=dict)  # open, read, embed:<backend>, write
    location: str = ""

    def summary(self) -> str:
        return (
            f"indexed {self.documents} documents, {self.chunks} chunks "
            f"({self.embedded} embedded, {self.unchanged} unchanged, {self.removed} removed) "
            f"in {self.seconds:.1f} s -> {self.location}"
        )


BUILTIN_PREFIX = "knowledge/docs/"


@dataclass
class _Source:
    key: str
    path: Path
    default_id: str = ""
    display: str = ""  # the passage's `source`; machine-independent for built-in docs


def _builtin_sources(docs_dir: Path | None) -> list[_Source]:
    root = builtin_docs_dir() if docs_dir is None else Path(docs_dir)
    if not root.is_dir():
        return []
    out = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and supported(path) and not path.name.startswith((".", "_")) and path.name.lower() != "readme.md":
            stem = _LANG_SUFFIX.sub("", path.stem)
            rel = path.relative_to(root).as_posix()
            # Same source string (so same chunk ids) on every machine: a shared server holds one copy.
            out.append(_Source(f"builtin:{rel}", path, stem, display=BUILTIN_PREFIX + rel))
    return out


def _user_sources(paths: Iterable[str], report: BuildReport) -> list[_Source]:
    out: dict[str, _Source] = {}
    for raw in paths:
        root = Path(raw)
        if not root.exists():
            report.warnings.append(
                f"{root} no longer exists: its passages were removed; `gpu-advisor index --remove {root}` forgets it"
            )
            continue
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if any(part.startswith(".") for part in path.relative_to(root).parts) if root.is_dir() else False:
                continue  # hidden folders (.git) and editor temp files
            if not supported(path):
                if root.is_file():
                    report.warnings.append(f"skipped {path}: unsupported file type '{path.suffix}' (use .md, .txt, .html or .pdf)")
                continue
            key = str(path.resolve())
            out.setdefault(key, _Source(key, path, user_doc_id(path, root), display=key))
    return list(out.values())


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def normalise_path(raw: str | os.PathLike) -> str:
    return str(Path(raw).expanduser().resolve())


class Indexer:
    """One build run. Takes the shared dense backends (see service.backends_for)."""

    def __init__(self, settings, backends: dict, layout: dict[str, str], notify: Notify | None = None,
                 progress: bool | None = None, docs_dir: Path | None = None, include_cards: bool = True):
        self.settings = settings
        self.backends = backends  # name -> Embedder
        self.layout = layout  # chunk language -> backend name
        self.notify = notify or _stderr
        self.progress = sys.stderr.isatty() if progress is None else progress
        self.docs_dir = docs_dir
        self.include_cards = include_cards

    # ------------------------------------------------------------------ open
    def _open(self, report: BuildReport, rebuild: bool):
        """Client, collections, manifest and the ids each collection holds; a damaged local store is rebuilt."""
        try:
            return self._open_once(report, rebuild)
        except store.IndexCorrupt as err:
            if store.server_mode(self.settings):
                raise ConfigError(f"the Chroma server's collections are unreadable ({err}); "
                                  "ask its operator, or unset GPU_ADVISOR_CHROMA_HOST") from None
            self._say(report, f"index at {self.settings.index_dir} is damaged ({err}); rebuilding it")
            store.wipe_local(self.settings)
            (Path(self.settings.index_dir) / "manifest.json").unlink(missing_ok=True)
            report.rebuilt = True
            return self._open_once(report, rebuild=True)

    def _open_once(self, report: BuildReport, rebuild: bool):
        index_dir = Path(self.settings.index_dir)
        client = store.open_client(self.settings)
        try:
            manifest = read_manifest(index_dir)
        except ManifestError as err:
            # Chunk ids are content hashes, so re-reading every source finds which
            # stored vectors are still valid: nothing valid is re-embedded.
            self._say(report, f"{err}; rebuilding the index from its sources")
            manifest = None
            report.rebuilt = True
        fingerprints = {name: emb.fingerprint for name, emb in self.backends.items()}
        cols = {}
        for name, emb in self.backends.items():
            col = store.collection(client, name, create=False)
            stored = store.fingerprint(col) if col is not None else None
            if col is not None and (rebuild or stored != fingerprints[name]):
                if not rebuild:
                    self._say(report, f"embedding model changed ({stored or 'unknown'} -> {fingerprints[name]}); "
                                      "re-embedding")
                    report.rebuilt = True
                store.drop(client, name)
            cols[name] = store.collection(client, name, fingerprint=fingerprints[name])
        if rebuild:
            report.rebuilt = True
            manifest = None
        for name in (manifest.backends if manifest else {}):
            if name not in self.backends:  # a backend switched off (e.g. GPU_ADVISOR_ZH_DENSE=minilm)
                store.drop(client, name)
        manifest = manifest or Manifest()
        manifest.backends = fingerprints
        manifest.languages = dict(self.layout)
        present = {name: store.all_ids(col) for name, col in cols.items()}
        return client, cols, manifest, present

    def _say(self, report: BuildReport, message: str) -> None:
        report.notices.append(message)
        self.notify(f"index: {message}")

    def _backend_for(self, lang: str) -> str:
        return self.layout.get(lang) or self.layout.get("en") or next(iter(self.backends))

    # ------------------------------------------------------------------ run
    def run(self, user_paths: Sequence[str], rebuild: bool = False) -> BuildReport:
        started = time.perf_counter()
        report = BuildReport(location=store.describe(self.settings))
        client, cols, manifest, present = self._open(report, rebuild)
        report.seconds_by_stage["open"] = time.perf_counter() - started
        mark = time.perf_counter()

        sources = _builtin_sources(self.docs_dir) + _user_sources(user_paths, report)
        desired: dict[str, SourceEntry] = {}
        fresh: dict[str, Chunk] = {}  # chunk_id -> chunk, for sources re-read this run
        placement: dict[str, str] = {}  # chunk_id -> backend, for every desired chunk

        for src in sources:
            stat = _stat(src.path)
            if stat is None:
                report.warnings.append(f"skipped {src.path}: cannot read it; check that it exists and is readable")
                continue
            old = manifest.sources.get(src.key)
            if old and (old.mtime_ns, old.size) == stat and self._reusable(old, present):
                self._keep(src.key, old, desired, placement)
                continue
            try:
                doc = load_file(src.path, src.default_id)
            except SkipFile as err:
                report.warnings.append(str(err))
                continue
            if src.display:
                doc.source = src.display
            report.files_read += 1
            entry = self._chunk([doc], fresh, placement)
            entry.mtime_ns, entry.size = stat
            desired[src.key] = entry

        if self.include_cards:
            self._cards(manifest, desired, fresh, placement, present, report)

        report.seconds_by_stage["read"] = time.perf_counter() - mark
        # -- diff against what the collections hold
        to_embed: dict[str, list[Chunk]] = {name: [] for name in cols}
        for cid, backend in placement.items():
            if cid not in present.get(backend, set()):
                chunk = fresh.get(cid)
                if chunk is None:  # kept sources are only kept when all their chunks are present
                    continue
                to_embed[backend].append(chunk)
        for chunks in to_embed.values():  # twins (same head line) land in one batch
            chunks.sort(key=lambda c: (c.embed_text, c.chunk_id))
        stale = {name: present[name] - {c for c, b in placement.items() if b == name} for name in cols}
        if store.server_mode(self.settings):
            owned = set(manifest.sources) | set(desired)
            stale = {name: self._owned(cols[name], ids, owned) for name, ids in stale.items()}

        for name, ids in stale.items():
            if ids:
                store.delete(cols[name], ids)
                report.removed += len(ids)
        self._embed(cols, to_embed, report)

        mark = time.perf_counter()
        manifest.sources = desired
        manifest.format_version = FORMAT_VERSION
        manifest.generation += 1
        write_manifest(Path(self.settings.index_dir), manifest)
        report.seconds_by_stage["manifest"] = time.perf_counter() - mark

        report.chunks = len(placement)
        report.unchanged = report.chunks - report.embedded
        report.documents = len({d for e in desired.values() for d in e.docs})
        report.seconds = time.perf_counter() - started
        return report

    @staticmethod
    def _owned(col, ids: set[str], owned_sources: set[str]) -> set[str]:
        """On a shared server, delete only chunks of built-in docs, cards and this machine's own files:
        a colleague's indexed folder is theirs to remove."""
        if not ids:
            return ids
        got = col.get(ids=sorted(ids), include=["metadatas"])
        keep_out = set()
        for cid, meta in zip(got["ids"], got["metadatas"] or []):
            source = (meta or {}).get("source", "")
            if not (source == CARD_SOURCE or source.startswith(BUILTIN_PREFIX) or source in owned_sources):
                keep_out.add(cid)
        return ids - keep_out

    def _reusable(self, entry: SourceEntry, present: dict[str, set[str]]) -> bool:
        """An unchanged source is skipped only if its chunks are all where the current layout puts them."""
        return all(b == self._backend_for(lang) and cid in present.get(b, ()) for cid, b, lang in entry.chunks)

    @staticmethod
    def _keep(key: str, entry: SourceEntry, desired: dict, placement: dict) -> None:
        desired[key] = entry
        for cid, b, _ in entry.chunks:
            placement[cid] = b

    def _chunk(self, docs: list[SourceDoc], fresh: dict, placement: dict) -> SourceEntry:
        # Chunks are measured with MiniLM's tokenizer: its 256-piece window is the tightest.
        counter = self.backends["minilm"].count_tokens if "minilm" in self.backends else next(
            iter(self.backends.values())).count_tokens
        window = min(getattr(emb, "window", 256) for emb in self.backends.values())
        entry = SourceEntry()
        for doc in docs:
            # Cards embed their English head line whatever their language: MiniLM reads it best.
            slot = "card" if doc.source == CARD_SOURCE else doc.lang
            backend = self._backend_for(slot)
            for c in chunk_document(doc, counter, window=window):
                fresh[c.chunk_id] = c
                placement[c.chunk_id] = backend
                entry.chunks.append((c.chunk_id, backend, slot))
            entry.docs.append(f"{doc.doc_id}|{doc.lang}")
        return entry

    def _cards(self, manifest, desired, fresh, placement, present, report) -> None:
        docs, warning = load_cards(self.settings)
        if warning:
            report.warnings.append(warning)
        if not docs:
            return
        # All cards are one source keyed by a digest of their text: an unchanged catalog is not re-chunked.
        digest = int(content_hash([(d.doc_id, d.lang, d.title, d.text, d.topics) for d in docs])[:15], 16)
        old = manifest.sources.get(CARD_SOURCE)
        if old and old.mtime_ns == digest and self._reusable(old, present):
            self._keep(CARD_SOURCE, old, desired, placement)
            return
        entry = self._chunk(docs, fresh, placement)
        entry.mtime_ns, entry.size = digest, len(docs)
        desired[CARD_SOURCE] = entry

    def _embed(self, cols: dict, to_embed: dict[str, list[Chunk]], report: BuildReport) -> None:
        total = sum(len(v) for v in to_embed.values())
        if not total:
            return
        bar = None
        if self.progress and total >= PROGRESS_MIN_CHUNKS:
            from tqdm import tqdm

            bar = tqdm(total=total, desc="embedding", unit="chunk", file=sys.stderr, leave=False)
        try:
            for name, chunks in to_embed.items():
                mark = time.perf_counter()
                emb = self.backends[name]
                for start in range(0, len(chunks), EMBED_BATCH):
                    batch = chunks[start:start + EMBED_BATCH]
                    # zh and en cards share one head line: embed each distinct text once
                    unique = list(dict.fromkeys(c.embed_text for c in batch))
                    by_text = dict(zip(unique, emb.embed_documents(unique)))
                    vectors = np.stack([by_text[c.embed_text] for c in batch])
                    # written batch by batch: an interrupted run keeps what it finished
                    store.upsert(cols[name], [c.chunk_id for c in batch], vectors, [c.text for c in batch],
                                 [c.metadata() for c in batch])
                    report.embedded += len(batch)
                    report.embedded_by_backend[name] = report.embedded_by_backend.get(name, 0) + len(batch)
                    if bar:
                        bar.update(len(batch))
                report.seconds_by_stage[f"embed:{name}"] = time.perf_counter() - mark
        finally:
            if bar:
                bar.close()


def register_paths(settings, paths: Sequence[str | os.PathLike], report_warnings: list[str]) -> list[str]:
    """Add paths to the user's list (validated first); returns the full list."""
    current, warning = read_paths(Path(settings.data_dir))
    if warning:
        report_warnings.append(warning)
    missing = [str(p) for p in paths if not Path(p).expanduser().exists()]
    if missing:
        raise InputError(
            f"cannot index {', '.join(missing)}: no such file or folder; give an existing Markdown, text, HTML or PDF "
            "file, or a folder of them"
        )
    added = [normalise_path(p) for p in paths]
    new = list(dict.fromkeys(current + added))
    if new != current:
        write_paths(Path(settings.data_dir), new)
    return new


def unregister_path(settings, path: str | os.PathLike) -> list[str]:
    current, _ = read_paths(Path(settings.data_dir))
    target = normalise_path(path)
    if target not in current:
        listed = f"indexed paths: {', '.join(current)}" if current else "no user paths are indexed"
        raise InputError(f"{path} is not an indexed path ({listed}); give one of them exactly as listed.")
    remaining = [p for p in current if p != target]
    write_paths(Path(settings.data_dir), remaining)
    return remaining
