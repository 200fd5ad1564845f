"""Build and update the index incrementally, one new generation per change.

The collections are the truth about what is embedded; the manifest remembers,
per source file, its size/mtime and chunk ids so that a no-change run reads no
file, and it holds the pointer to the live collections. Each run (under the
writer lock, see locking.py):

1. opens the store (a damaged local one is moved aside and rebuilt, and said
   so) and checks every live collection's count against the pointer: an
   emptied or deleted collection is rebuilt, and said so;
2. lists sources: built-in docs, catalog cards, the user's indexed paths;
3. re-reads only files whose size/mtime changed (or whose chunks went missing),
   chunks them, and hashes each chunk (chunk ids are content hashes);
4. when the set of chunks differs from the live one, writes a new generation
   of collections: vectors it already has (live collections, or leftovers of
   an interrupted run) are copied, only new chunks are embedded;
5. moves the pointer (the manifest, written atomically; on a server also the
   server's pointer), then drops every collection the pointer does not name.
A crash before step 5 leaves the previous generation live and untouched; the
next run reuses what the crashed one embedded and drops its leftovers.
`GPU_ADVISOR_TEST_KILL_AT` (hooks.py) kills a run at the named points for tests.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
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
from knowledge.index.hooks import kill_point
from knowledge.index.loaders import SkipFile, load_file, supported, user_doc_id, _LANG_SUFFIX
from knowledge.index.manifest import (
    FORMAT_VERSION,
    Manifest,
    ManifestError,
    Pointer,
    SourceEntry,
    read_manifest,
    remove_temp_files,
    write_manifest,
)
from tools.errors import AdvisorError, ConfigError

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
    copied: int = 0  # vectors copied unchanged into this run's new generation
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
    generation: int = 0  # the live generation after this run

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




def _writer() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class _State:
    """What a run found when it opened the store."""

    client: object
    manifest: Manifest  # this machine's manifest (sources); a fresh one when missing or untrusted
    pointer: Pointer | None  # the live generation, None when there is none
    live: dict[str, object]  # backend -> live collection (None: none usable)
    present: dict[str, set[str]]  # backend -> ids the live collection holds
    cache: dict[str, list]  # backend -> other collections with vectors of the same model (leftovers, format 1)
    stale: list[str]  # names of every chunk collection that is not live
    first_generation: int  # the next generation number


class Indexer:
    """One build run. Takes the shared dense backends (see service.backends_for); the caller holds the writer lock."""

    def __init__(self, settings, backends: dict, layout: dict[str, str], notify: Notify | None = None,
                 progress: bool | None = None, docs_dir: Path | None = None, include_cards: bool = True,
                 heartbeat: Callable[[], None] | None = None):
        self.settings = settings
        self.backends = backends  # name -> Embedder
        self.layout = layout  # chunk language -> backend name
        self.notify = notify or _stderr
        self.progress = sys.stderr.isatty() if progress is None else progress
        self.docs_dir = docs_dir
        self.include_cards = include_cards
        self.heartbeat = heartbeat or (lambda: None)
        self.server = store.server_mode(settings)

    # ------------------------------------------------------------------ open
    def _open(self, report: BuildReport, rebuild: bool) -> _State:
        """Client, manifest, live collections and the ids they hold; a damaged local store is moved aside."""
        index_dir = Path(self.settings.index_dir)
        remove_temp_files(index_dir)  # a manifest write that was killed before its rename
        remove_temp_files(Path(self.settings.data_dir))
        try:
            return self._open_once(report, rebuild)
        except store.IndexCorrupt as err:
            if self.server:
                raise ConfigError(f"the Chroma server's collections are unreadable ({err}); "
                                  "ask its operator, or unset GPU_ADVISOR_CHROMA_HOST") from None
            moved = store.move_aside_local(self.settings)
            self._say(report, f"index at {store.local_path(self.settings)} is damaged ({err}); "
                              f"moved it to {moved} and rebuilding it")
            report.rebuilt = True
            return self._open_once(report, rebuild=True)

    def _open_once(self, report: BuildReport, rebuild: bool) -> _State:
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
        if self.server:
            pointer = store.read_pointer(client)
            if pointer is None and manifest is not None and manifest.generation > 0:
                self._say(report, "the Chroma server holds no index (its collections were deleted or reset); "
                                  "rebuilding it from this machine's sources")
                report.rebuilt = True
        else:
            pointer = manifest.pointer() if manifest is not None and manifest.generation > 0 else None
        fingerprints = {name: emb.fingerprint for name, emb in self.backends.items()}
        stored = store.list_ours(client)
        live: dict[str, object] = {}
        present: dict[str, set[str]] = {}
        for name in self.backends:
            col_name = pointer.collections.get(name) if pointer else None
            col = store.get(client, col_name) if col_name else None
            if col_name and col is None:
                self._say(report, f"the live {name} collection {col_name} is missing (deleted?); rebuilding it")
                report.rebuilt = True
            if col is not None and store.fingerprint(col) != fingerprints[name]:
                if not rebuild:
                    self._say(report, f"embedding model changed ({store.fingerprint(col) or 'unknown'} -> "
                                      f"{fingerprints[name]}); re-embedding")
                    report.rebuilt = True
                col = None  # its vectors mean nothing to this model
            ids = store.all_ids(col) if col is not None else set()
            expected = pointer.counts.get(name) if pointer and col is not None else None
            if expected is not None and len(ids) != expected:
                self._say(report, f"the {name} collection holds {len(ids)} of {expected} passages (it was emptied "
                                  "or damaged); re-embedding the missing ones")
                report.rebuilt = True
            live[name] = col
            present[name] = ids
        if self.server and pointer is None:
            # A server index from before generations (or whose pointer was lost): adopt its newest
            # collections as live so that a colleague's passages in them are carried forward.
            for name in self.backends:
                if live[name] is None:
                    adopt = next((s for s in stored if s.backend == name and s.fingerprint == fingerprints[name]), None)
                    if adopt is not None:
                        live[name], present[name] = adopt.col, store.all_ids(adopt.col)
        live_names = {c.name for c in live.values() if c is not None}
        cache = {name: [s.col for s in stored if s.backend == name and s.name not in live_names
                        and s.fingerprint == fingerprints[name]] for name in self.backends}
        interrupted = [s for s in stored if pointer is not None and s.name not in live_names
                       and s.generation > pointer.generation]
        if interrupted:
            self._say(report, f"found {len(interrupted)} collection(s) left by an interrupted index run; "
                              "reusing their vectors, then removing them")
        newest = max([s.generation for s in stored] + [pointer.generation if pointer else 0, 0])
        if rebuild:
            report.rebuilt = True
        return _State(client=client, manifest=manifest or Manifest(), pointer=pointer, live=live, present=present,
                      cache=cache, stale=[s.name for s in stored if s.name not in live_names],
                      first_generation=newest + 1)

    def _say(self, report: BuildReport, message: str) -> None:
        report.notices.append(message)
        self.notify(f"index: {message}")

    def _backend_for(self, lang: str) -> str:
        return self.layout.get(lang) or self.layout.get("en") or next(iter(self.backends))

    # ------------------------------------------------------------------ run
    def run(self, user_paths: Sequence[str], rebuild: bool = False) -> BuildReport:
        started = time.perf_counter()
        report = BuildReport(location=store.describe(self.settings))
        state = self._open(report, rebuild)
        manifest, present = state.manifest, state.present
        report.seconds_by_stage["open"] = time.perf_counter() - started
        mark = time.perf_counter()

        sources = _builtin_sources(self.docs_dir) + _user_sources(user_paths, report)
        desired: dict[str, SourceEntry] = {}
        fresh: dict[str, Chunk] = {}  # chunk_id -> chunk, for sources re-read this run
        placement: dict[str, str] = {}  # chunk_id -> backend, for every desired chunk
        reuse = not rebuild

        for src in sources:
            self.heartbeat()  # reading a big folder of PDFs takes a while: other machines must not think us dead
            stat = _stat(src.path)
            if stat is None:
                report.warnings.append(f"skipped {src.path}: cannot read it; check that it exists and is readable")
                continue
            old = manifest.sources.get(src.key)
            if reuse and old and (old.mtime_ns, old.size) == stat and self._reusable(old, present):
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
            self._cards(manifest, desired, fresh, placement, present, report, reuse)
        report.seconds_by_stage["read"] = time.perf_counter() - mark

        # -- what each backend's collection must hold
        wanted: dict[str, set[str]] = {name: set() for name in self.backends}
        for cid, backend in placement.items():
            wanted[backend].add(cid)
        removed = {name: present[name] - wanted[name] for name in self.backends}
        if self.server:
            # On a shared server, only chunks of built-in docs, cards and this machine's own files are ours
            # to remove: a colleague's indexed folder is theirs. Theirs are carried into each new generation.
            owned = set(manifest.sources) | set(desired)
            for name in self.backends:
                theirs = removed[name] - self._owned(state.live[name], removed[name], owned)
                wanted[name] |= theirs
                removed[name] -= theirs

        named = state.pointer.collections if state.pointer else {}
        pointer_counts = state.pointer.counts if state.pointer else {}
        changed = {name for name in self.backends
                   if rebuild or wanted[name] != present[name]
                   or (state.live[name] is None and (wanted[name] or name in named))  # missing or other model
                   or (state.live[name] is not None and pointer_counts.get(name) != len(present[name]))}
        retired = set(state.pointer.collections) - set(self.backends) if state.pointer else set()
        fingerprints = {name: emb.fingerprint for name, emb in self.backends.items()}
        if changed or retired or state.pointer is None or state.pointer.backends != fingerprints:
            pointer = self._write_generation(state, changed, wanted, fresh, report, rebuild)
            report.removed = sum(len(removed[name]) for name in changed)
        else:
            pointer = state.pointer
        report.generation = pointer.generation

        mark = time.perf_counter()
        manifest.sources = desired
        manifest.format_version = FORMAT_VERSION
        manifest.backends = fingerprints
        manifest.languages = dict(self.layout)
        manifest.user_paths = list(user_paths)
        manifest.generation = pointer.generation
        if self._manifest_differs(manifest, pointer):
            manifest.collections, manifest.counts = dict(pointer.collections), dict(pointer.counts)
            manifest.writer = pointer.writer
            write_manifest(Path(self.settings.index_dir), manifest)
        if pointer is not state.pointer and not self.server:
            kill_point("pointer-written")
        # -- the new generation is live: drop the old one and whatever killed runs left
        live_now = set(pointer.collections.values())
        for name in state.stale + [c.name for c in state.live.values() if c is not None]:
            if name not in live_now:
                store.drop(state.client, name)
        store.remove_orphan_segments(self.settings)
        report.seconds_by_stage["manifest"] = time.perf_counter() - mark

        report.chunks = len(placement)
        report.unchanged = report.chunks - report.embedded
        report.documents = len({d for e in desired.values() for d in e.docs})
        report.seconds = time.perf_counter() - started
        return report

    def _manifest_differs(self, manifest: Manifest, pointer: Pointer) -> bool:
        """Whether the manifest on disk must be rewritten (a no-change run writes nothing)."""
        try:
            on_disk = read_manifest(Path(self.settings.index_dir))
        except ManifestError:
            return True
        if on_disk is None:
            return True
        return (on_disk.sources != manifest.sources or on_disk.backends != manifest.backends
                or on_disk.languages != manifest.languages or on_disk.user_paths != manifest.user_paths
                or on_disk.collections != pointer.collections or on_disk.counts != pointer.counts
                or on_disk.generation != pointer.generation)

    def _write_generation(self, state: _State, changed: set[str], wanted: dict[str, set[str]],
                          fresh: dict[str, Chunk], report: BuildReport, rebuild: bool) -> Pointer:
        """New collections for the changed backends (copy what exists, embed the rest), then the pointer."""
        generation = state.first_generation
        fingerprints = {name: emb.fingerprint for name, emb in self.backends.items()}
        targets = {}
        for name in sorted(changed):
            targets[name] = store.create(state.client, store.versioned_name(name, generation), name,
                                         fingerprints[name], generation)
        kill_point("collections-created")
        to_embed: dict[str, list[Chunk]] = {}
        mark = time.perf_counter()
        for name, target in targets.items():
            remaining = set(wanted[name])
            # --rebuild re-embeds what this machine has the sources of; anything else (a colleague's
            # passages on a shared server) can only be copied
            sources = [state.live[name]] if state.live[name] is not None else []
            if rebuild:
                remaining_copy = {cid for cid in remaining if cid not in fresh}
            else:
                sources += state.cache[name]
                remaining_copy = remaining
            for src in sources:
                have = state.present[name] if src is state.live[name] else store.all_ids(src)
                ids = sorted(remaining_copy & have)
                if not ids:
                    continue
                metadata = {cid: fresh[cid].metadata() for cid in ids if cid in fresh}
                copied = store.copy_records(src, target, ids, metadata, on_batch=self.heartbeat)
                report.copied += copied
                remaining -= set(ids)
                remaining_copy -= set(ids)
            chunks = [fresh[cid] for cid in remaining if cid in fresh]
            chunks.sort(key=lambda c: (c.embed_text, c.chunk_id))  # twins (same head line) land in one batch
            to_embed[name] = chunks
            wanted[name] -= remaining - {c.chunk_id for c in chunks}  # lost with no source: cannot be kept
        report.seconds_by_stage["copy"] = time.perf_counter() - mark
        kill_point("copied")
        self._embed(targets, to_embed, report)

        collections, counts = {}, {}
        for name in self.backends:
            if name in targets:
                got = store.count(targets[name])
                if got != len(wanted[name]):
                    raise AdvisorError(f"index: the new {name} collection holds {got} of {len(wanted[name])} passages; "
                                       "the live index is unchanged; run `gpu-advisor index` again")
                collections[name], counts[name] = targets[name].name, got
            elif state.live[name] is not None:
                collections[name], counts[name] = state.live[name].name, len(state.present[name])
        pointer = Pointer(generation=generation, collections=collections, counts=counts, backends=fingerprints,
                          updated=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), writer=_writer())
        if self.server:
            store.write_pointer(state.client, pointer)
            kill_point("pointer-written")  # live for every reader; this machine's manifest not yet written
        return pointer

    def _owned(self, col, ids: set[str], owned_sources: set[str]) -> set[str]:
        """The ids among `ids` that come from built-in docs, cards or this machine's own files."""
        if not ids or col is None:
            return ids
        got = col.get(ids=sorted(ids), include=["metadatas"])
        theirs = set()
        for cid, meta in zip(got["ids"], got["metadatas"] or []):
            source = (meta or {}).get("source", "")
            if not (source == CARD_SOURCE or source.startswith(BUILTIN_PREFIX) or source in owned_sources):
                theirs.add(cid)
        return ids - theirs

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

    def _cards(self, manifest, desired, fresh, placement, present, report, reuse: bool) -> None:
        docs, warning = load_cards(self.settings)
        if warning:
            report.warnings.append(warning)
        if not docs:
            return
        # All cards are one source keyed by a digest of their text: an unchanged catalog is not re-chunked.
        digest = int(content_hash([(d.doc_id, d.lang, d.title, d.text, d.topics) for d in docs])[:15], 16)
        old = manifest.sources.get(CARD_SOURCE)
        if reuse and old and old.mtime_ns == digest and self._reusable(old, present):
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
                    # written batch by batch into the new generation: a killed run's work is reused next time
                    store.upsert(cols[name], [c.chunk_id for c in batch], vectors, [c.text for c in batch],
                                 [c.metadata() for c in batch])
                    report.embedded += len(batch)
                    report.embedded_by_backend[name] = report.embedded_by_backend.get(name, 0) + len(batch)
                    kill_point("embedded-batch")
                    self.heartbeat()
                    if bar:
                        bar.update(len(batch))
                report.seconds_by_stage[f"embed:{name}"] = time.perf_counter() - mark
        finally:
            if bar:
                bar.close()
