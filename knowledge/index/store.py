"""Chroma access: an embedded PersistentClient, or a shared server via HttpClient.

Collections are created with `embedding_function=None` and every write passes
`embeddings=`: Chroma's default embedding function would download a model.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from tools.errors import ConfigError

COLLECTION_PREFIX = "gpu_advisor_chunks_"  # + backend name ('minilm', 'e5')
BATCH = 256  # records per Chroma write; keeps HTTP bodies small


class IndexCorrupt(Exception):
    """The on-disk index cannot be opened; the builder wipes and rebuilds it."""


def _chroma_settings():
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)


def server_mode(settings) -> bool:
    return bool(getattr(settings, "chroma_host", None))


def describe(settings) -> str:
    if server_mode(settings):
        return f"Chroma server {settings.chroma_host}:{settings.chroma_port}"
    return f"{settings.index_dir / 'chroma'}"


def open_client(settings):
    """PersistentClient under `<index_dir>/chroma`, or HttpClient when GPU_ADVISOR_CHROMA_HOST is set."""
    import chromadb

    if server_mode(settings):
        try:
            client = chromadb.HttpClient(
                host=settings.chroma_host, port=int(settings.chroma_port), settings=_chroma_settings()
            )
            client.heartbeat()
        except Exception as err:  # connection refused, DNS, TLS: all say the same to a user
            raise ConfigError(
                f"cannot reach the Chroma server at {settings.chroma_host}:{settings.chroma_port} "
                f"({err.__class__.__name__}); start it (`chroma run --path DIR --port {settings.chroma_port}`) "
                "or unset GPU_ADVISOR_CHROMA_HOST to use the local index"
            ) from None
        return client
    path = Path(settings.index_dir) / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    try:
        client = chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
        client.list_collections()
    except Exception as err:  # a damaged sqlite file or segment raises many different things
        raise IndexCorrupt(f"{path}: {err.__class__.__name__}: {str(err)[:200]}") from None
    return client


def wipe_local(settings) -> None:
    """Delete the embedded Chroma folder (never the user's list of indexed paths)."""
    if server_mode(settings):
        return
    shutil.rmtree(Path(settings.index_dir) / "chroma", ignore_errors=True)
    try:  # the embedded client caches one System per path: forget it so the next open is fresh
        from chromadb.api.shared_system_client import SharedSystemClient

        SharedSystemClient.clear_system_cache()
    except Exception:
        pass


def collection(client, backend: str, create: bool = True, fingerprint: str | None = None):
    """The backend's collection; created (cosine space, tagged with the model fingerprint) when asked."""
    name = COLLECTION_PREFIX + backend
    try:
        if create:
            metadata = {"embedding_model": fingerprint} if fingerprint else None
            return client.get_or_create_collection(
                name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}, metadata=metadata
            )
        return client.get_collection(name, embedding_function=None)
    except Exception as err:
        if not create and err.__class__.__name__ in ("NotFoundError", "InvalidCollectionException", "ValueError"):
            return None
        raise IndexCorrupt(f"collection {name}: {err.__class__.__name__}: {str(err)[:200]}") from None


def fingerprint(col) -> str | None:
    """The embedding model a collection's vectors came from (None for one made elsewhere)."""
    return (col.metadata or {}).get("embedding_model")


def drop(client, backend: str) -> None:
    try:
        client.delete_collection(COLLECTION_PREFIX + backend)
    except Exception:
        pass  # not there: nothing to drop


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
        raise IndexCorrupt(f"{col.name}: {err.__class__.__name__}: {str(err)[:200]}") from None
    return list(got["ids"]), list(got["documents"] or []), list(got["metadatas"] or [])


def upsert(col, ids: Sequence[str], vectors: np.ndarray, documents: Sequence[str], metadatas: Sequence[dict]) -> None:
    for start in range(0, len(ids), BATCH):
        end = start + BATCH
        col.upsert(
            ids=list(ids[start:end]),
            embeddings=np.asarray(vectors[start:end], dtype=np.float32),
            documents=list(documents[start:end]),
            metadatas=list(metadatas[start:end]),
        )


def update_metadata(col, ids: Sequence[str], metadatas: Sequence[dict]) -> None:
    for start in range(0, len(ids), BATCH):
        col.update(ids=list(ids[start:start + BATCH]), metadatas=list(metadatas[start:start + BATCH]))


def delete(col, ids: Iterable[str]) -> None:
    ids = list(ids)
    for start in range(0, len(ids), BATCH):
        col.delete(ids=ids[start:start + BATCH])
