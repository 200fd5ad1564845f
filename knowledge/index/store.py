"""Chroma access: an embedded PersistentClient, or a shared server via HttpClient.

Collections are created with `embedding_function=None` and every write passes
`embeddings=`: Chroma's default embedding function would download a model.

Generations. Vectors are never rewritten in place: each index run that changes
anything writes a new set of collections (`gpu_advisor_chunks_<backend>_g<N>_<token>`),
copying unchanged vectors from the live ones, and only then moves the *pointer*
(which collection is live per backend, and how many records each must hold).
Embedded, the pointer is the manifest file (written last, atomically); on a
server it is the metadata of the `gpu_advisor_index_pointer` collection, one
atomic update. A run killed before the pointer moves leaves the live
generation untouched; its half-written collections are reused as a vector
cache by the next run and then dropped.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from pydantic import ValidationError

from knowledge.index.manifest import Pointer
from tools.errors import ConfigError

COLLECTION_PREFIX = "gpu_advisor_chunks_"  # + backend name ('minilm', 'e5') [+ _g<generation>_<token>]
POINTER_COLLECTION = "gpu_advisor_index_pointer"  # server mode: its metadata is the pointer
BATCH = 256  # records per Chroma write; keeps HTTP bodies small
_NAME = re.compile(rf"^{COLLECTION_PREFIX}(?P<backend>[a-z0-9]+)(?:_g(?P<gen>\d+)_(?P<token>[0-9a-f]+))?$")
_BUSY_RETRY_S = 10.0


class IndexCorrupt(Exception):
    """The on-disk index cannot be opened; the builder moves it aside and rebuilds it."""


class IndexIncomplete(Exception):
    """The pointer names collections that are missing or hold fewer records than it says."""


def _chroma_settings():
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)


def server_mode(settings) -> bool:
    return bool(getattr(settings, "chroma_host", None))


def local_path(settings) -> Path:
    return Path(settings.index_dir) / "chroma"


def describe(settings) -> str:
    if server_mode(settings):
        return f"Chroma server {settings.chroma_host}:{settings.chroma_port}"
    return f"{local_path(settings)}"


def _is_access_problem(err: BaseException) -> bool:
    """Cannot write or open for lack of permission or a read-only disk: not damage, never a reason to delete."""
    if isinstance(err, PermissionError) or (isinstance(err, OSError) and err.errno in (13, 30)):
        return True
    text = str(err).lower()
    return any(s in text for s in ("readonly", "read-only", "permission denied", "unable to open database",
                                   "operation not permitted"))


def _is_busy(err: BaseException) -> bool:
    text = str(err).lower()
    return "database is locked" in text or "database is busy" in text


def writable(path: Path) -> bool:
    """Whether this process can create files in the folder `path` (and write the files directly in it)."""
    path = Path(path)
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-probe.", suffix=".tmp", dir=str(path))
        os.close(fd)
        os.unlink(probe)
        for child in path.iterdir():
            if child.is_file():
                with open(child, "ab"):
                    pass
    except OSError:
        return False
    return True


def open_client(settings):
    """PersistentClient under `<index_dir>/chroma`, or HttpClient when GPU_ADVISOR_CHROMA_HOST is set."""
    if server_mode(settings):
        return _http_client(settings)
    path = local_path(settings)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(f"cannot create the index folder {path} ({err.strerror}); make {path.parent} writable "
                          "or set GPU_ADVISOR_DATA_DIR to a folder you can write") from None
    return _persistent_client(path)


def open_reader(settings) -> tuple[Any, Path | None]:
    """A client for searching, and the private copy it reads when the index folder is read-only (else None).

    Chroma cannot open a database it may not write, so a read-only index is
    copied to a temporary folder (it is small) and read there; nothing in the
    original is changed. The caller deletes the copy.
    """
    if server_mode(settings):
        return _http_client(settings), None
    path = local_path(settings)
    if not path.is_dir() or writable(path):
        return open_client(settings), None
    copy = Path(tempfile.mkdtemp(prefix="gpu-advisor-index-copy-"))
    try:
        shutil.copytree(path, copy / "chroma", copy_function=shutil.copyfile)
        for folder, _, files in os.walk(copy / "chroma"):  # copytree keeps the folders' read-only modes
            os.chmod(folder, 0o700)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o600)
    except OSError as err:
        shutil.rmtree(copy, ignore_errors=True)
        raise ConfigError(f"cannot read the index at {path} ({err.strerror}); check its permissions") from None
    return _persistent_client(copy / "chroma"), copy


def _http_client(settings):
    import chromadb

    try:
        client = chromadb.HttpClient(host=settings.chroma_host, port=int(settings.chroma_port),
                                     settings=_chroma_settings())
        client.heartbeat()
    except Exception as err:  # connection refused, DNS, TLS: all say the same to a user
        raise ConfigError(
            f"cannot reach the Chroma server at {settings.chroma_host}:{settings.chroma_port} "
            f"({err.__class__.__name__}); start it (`chroma run --path DIR --port {settings.chroma_port}`) "
            "or unset GPU_ADVISOR_CHROMA_HOST to use the local index"
        ) from None
    return client


def _persistent_client(path: Path):
    import chromadb

    deadline = time.monotonic() + _BUSY_RETRY_S
    while True:
        try:
            client = chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
            client.list_collections()
            return client
        except Exception as err:  # a damaged sqlite file or segment raises many different things
            forget_local_clients()
            if _is_access_problem(err):
                raise ConfigError(
                    f"cannot open the index at {path} ({str(err)[:120]}); make it writable, or set "
                    "GPU_ADVISOR_DATA_DIR to a folder you can write"
                ) from None
            if _is_busy(err) and time.monotonic() < deadline:
                time.sleep(0.2)
                continue
            if _is_busy(err):
                raise ConfigError(f"the index at {path} stayed locked by another process for "
                                  f"{_BUSY_RETRY_S:.0f} s; try again") from None
            raise IndexCorrupt(f"{path}: {err.__class__.__name__}: {str(err)[:200]}") from None


def forget_local_clients() -> None:
    """The embedded client caches one System per path: forget them so the next open reads the disk afresh."""
    try:
        from chromadb.api.shared_system_client import SharedSystemClient

        SharedSystemClient.clear_system_cache()
    except Exception:
        pass


def move_aside_local(settings) -> Path | None:
    """Move a damaged embedded Chroma folder to `chroma.damaged` (replacing an older one); returns where."""
    if server_mode(settings):
        return None
    path = local_path(settings)
    if not path.exists():
        return None
    target = path.with_name("chroma.damaged")
    forget_local_clients()
    shutil.rmtree(target, ignore_errors=True)
    try:
        os.replace(path, target)
    except OSError as err:
        raise ConfigError(f"the index at {path} is damaged and cannot be moved aside ({err.strerror}); "
                          f"delete it by hand and run `gpu-advisor index`") from None
    return target


def remove_orphan_segments(settings) -> int:
    """Embedded: delete segment folders no collection uses any more; returns how many.

    Chroma 1.x drops a collection from its catalog but leaves its HNSW folder on
    disk (chroma-core/chroma#5259), so every generation would leave one behind.
    A folder is removed only when its name is a segment id that Chroma's own
    `segments` table no longer lists. Call it under the writer lock.
    """
    if server_mode(settings):
        return 0  # the server's disk is its operator's (see README: `chops db clean`)
    import sqlite3
    import uuid

    path = local_path(settings)
    try:
        with sqlite3.connect(f"file:{path / 'chroma.sqlite3'}?mode=ro", uri=True, timeout=5) as db:
            known = {row[0] for row in db.execute("SELECT id FROM segments")}
    except sqlite3.Error:
        return 0  # an unknown layout: leave everything where it is
    removed = 0
    for child in path.iterdir():
        if not child.is_dir() or child.name in known:
            continue
        try:
            uuid.UUID(child.name)
        except ValueError:
            continue
        shutil.rmtree(child, ignore_errors=True)
        removed += 1
    return removed


# ---------------------------------------------------------------------- collections


@dataclass
class Stored:
    """One of our collections as listed: which backend and generation, which model made its vectors."""

    name: str
    backend: str
    generation: int  # -1: an unversioned collection from format 1
    fingerprint: str | None
    col: Any


def versioned_name(backend: str, generation: int) -> str:
    return f"{COLLECTION_PREFIX}{backend}_g{generation}_{secrets.token_hex(3)}"


def list_ours(client) -> list[Stored]:
    """Every chunk collection in the store (live, leftovers of killed runs, format-1 ones), newest first."""
    out = []
    try:
        cols = client.list_collections()
    except Exception as err:
        raise IndexCorrupt(f"cannot list collections: {err.__class__.__name__}: {str(err)[:200]}") from None
    for col in cols:
        match = _NAME.match(col.name)
        if not match:
            continue
        meta = col.metadata or {}
        out.append(Stored(col.name, match["backend"], int(match["gen"]) if match["gen"] else -1,
                          meta.get("embedding_model"), col))
    return sorted(out, key=lambda s: -s.generation)


def get(client, name: str):
    """The named collection, or None when it does not exist."""
    try:
        return client.get_collection(name, embedding_function=None)
    except Exception as err:
        if err.__class__.__name__ in ("NotFoundError", "InvalidCollectionException", "ValueError"):
            return None
        raise IndexCorrupt(f"collection {name}: {err.__class__.__name__}: {str(err)[:200]}") from None


def create(client, name: str, backend: str, fingerprint: str, generation: int):
    """A new, empty collection (cosine space), tagged with its backend, model fingerprint and generation."""
    return client.create_collection(
        name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}},
        metadata={"embedding_model": fingerprint, "backend": backend, "generation": generation},
    )


def fingerprint(col) -> str | None:
    """The embedding model a collection's vectors came from (None for one made elsewhere)."""
    return (col.metadata or {}).get("embedding_model")


def drop(client, name: str) -> bool:
    try:
        client.delete_collection(name)
        return True
    except Exception:
        return False  # not there: nothing to drop


def count(col) -> int:
    try:
        return int(col.count())
    except Exception as err:
        raise IndexCorrupt(f"{col.name}: {err.__class__.__name__}: {str(err)[:200]}") from None


def all_ids(col) -> set[str]:
    if col is None:
        return set()
    try:
        return set(col.get(include=[])["ids"])
    except Exception as err:  # a damaged segment shows up on first read
        raise IndexCorrupt(f"{col.name}: {err.__class__.__name__}: {str(err)[:200]}") from None


def load_records(col) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """Every record's id, document and metadata (for BM25 and filters)."""
    if col is None:
        return [], [], []
    try:
        got = col.get(include=["documents", "metadatas"])
    except Exception as err:  # a damaged segment shows up on first read
        if err.__class__.__name__ == "NotFoundError":
            raise IndexIncomplete(f"collection {col.name} is gone") from None
        raise IndexCorrupt(f"{col.name}: {err.__class__.__name__}: {str(err)[:200]}") from None
    return list(got["ids"]), list(got["documents"] or []), list(got["metadatas"] or [])


def copy_records(src, dst, ids: Sequence[str], metadata: dict[str, dict] | None = None, on_batch=None) -> int:
    """Copy records (vector, text, metadata) from `src` to `dst`; `metadata` overrides a record's metadata.

    Returns how many were copied (ids `src` lacks are skipped).
    """
    copied = 0
    ids = list(ids)
    for start in range(0, len(ids), BATCH):
        got = src.get(ids=ids[start:start + BATCH], include=["embeddings", "documents", "metadatas"])
        if not got["ids"]:
            continue
        metas = [(metadata or {}).get(cid) or meta for cid, meta in zip(got["ids"], got["metadatas"])]
        dst.add(ids=list(got["ids"]), embeddings=np.asarray(got["embeddings"], dtype=np.float32),
                documents=list(got["documents"]), metadatas=metas)
        copied += len(got["ids"])
        if on_batch:
            on_batch()
    return copied


def upsert(col, ids: Sequence[str], vectors: np.ndarray, documents: Sequence[str], metadatas: Sequence[dict]) -> None:
    for start in range(0, len(ids), BATCH):
        end = start + BATCH
        col.upsert(
            ids=list(ids[start:end]),
            embeddings=np.asarray(vectors[start:end], dtype=np.float32),
            documents=list(documents[start:end]),
            metadatas=list(metadatas[start:end]),
        )


def delete(col, ids: Iterable[str]) -> None:
    ids = list(ids)
    for start in range(0, len(ids), BATCH):
        col.delete(ids=ids[start:start + BATCH])


def verify(client, pointer: Pointer) -> dict[str, Any]:
    """The live collections the pointer names; IndexIncomplete when one is missing or short of records."""
    cols = {}
    problems = []
    for backend, name in pointer.collections.items():
        col = get(client, name)
        expected = pointer.counts.get(backend, 0)
        have = count(col) if col is not None else None
        if have is None:
            problems.append(f"{backend}: collection {name} is missing ({expected} passages expected)")
        elif have != expected:
            problems.append(f"{backend}: {have} of {expected} passages")
        cols[backend] = col
    if problems:
        raise IndexIncomplete("the index lost passages (" + "; ".join(problems) + ")")
    return cols


# ---------------------------------------------------------------------- server pointer


def read_pointer(client) -> Pointer | None:
    """Server mode: the live generation, or None when the server holds no index of ours."""
    col = get(client, POINTER_COLLECTION)
    if col is None:
        return None
    raw = (col.metadata or {}).get("pointer")
    if not raw:
        return None
    try:
        return Pointer.model_validate(json.loads(raw))
    except (ValueError, ValidationError):
        return None  # unreadable: treated as no index; the next build writes a good one


def write_pointer(client, pointer: Pointer) -> None:
    """Server mode: one metadata update makes the new generation live for every reader."""
    metadata = {"pointer": pointer.model_dump_json(), "generation": pointer.generation}
    col = get(client, POINTER_COLLECTION)
    if col is None:
        try:
            client.create_collection(POINTER_COLLECTION, embedding_function=None, metadata=metadata)
            return
        except Exception:
            col = get(client, POINTER_COLLECTION)  # created meanwhile: update it below
            if col is None:
                raise
    col.modify(metadata=metadata)
