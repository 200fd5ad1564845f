"""What the index holds, kept as JSON beside it (the user's list of paths is in paths.py).

* `<index_dir>/manifest.json` — format version, embedding models, for each
  source file its size/mtime and chunk ids (so a no-change re-index reads no
  file), and the *pointer*: which versioned collection holds each backend's
  vectors and how many records it must have. It is written last, after the
  new collections are complete: until it is renamed into place readers keep
  using the previous generation (embedded mode; on a Chroma server the pointer
  is also kept on the server, see store.py).
It also lists the user's paths of that build, from which a damaged path list
is restored. Written atomically (temp file + fsync + rename): a crash leaves the old one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from knowledge.index.hooks import kill_point

# Bump when chunking, metadata or collection layout changes: old indexes are rebuilt
# (their vectors are still copied where the chunk ids match: ids are content hashes).
# 2: versioned collections named by the manifest's pointer.
FORMAT_VERSION = 2
MANIFEST_NAME = "manifest.json"
TEMP_NAMES = (MANIFEST_NAME, "indexed_paths.json", "indexed_paths.json.bak", "write-probe")  # ours, in remove_temp_files


class ManifestError(Exception):
    """The manifest is unreadable or from another format version."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SourceEntry(_Strict):
    mtime_ns: int = 0
    size: int = 0
    # [chunk_id, backend, lang] for each chunk the source produced
    chunks: list[tuple[str, str, str]] = Field(default_factory=list)
    docs: list[str] = Field(default_factory=list, description="'doc_id|lang' of its documents")


class Pointer(_Strict):
    """The live generation: one collection per backend and the record count each must hold."""

    generation: int = 0
    collections: dict[str, str] = Field(default_factory=dict, description="backend -> collection name")
    counts: dict[str, int] = Field(default_factory=dict, description="backend -> records in that collection")
    backends: dict[str, str] = Field(default_factory=dict, description="backend name -> model fingerprint")
    updated: str = ""
    writer: str = Field(default="", description="host:pid of the run that wrote it")


class Manifest(_Strict):
    format_version: int = FORMAT_VERSION
    backends: dict[str, str] = Field(default_factory=dict, description="backend name -> model fingerprint")
    languages: dict[str, str] = Field(default_factory=dict, description="chunk language -> backend")
    sources: dict[str, SourceEntry] = Field(default_factory=dict)
    generation: int = 0
    collections: dict[str, str] = Field(default_factory=dict, description="backend -> live collection name")
    counts: dict[str, int] = Field(default_factory=dict, description="backend -> records the collection holds")
    user_paths: list[str] = Field(default_factory=list, description="the indexed paths of this build")
    updated: str = ""
    writer: str = ""

    def chunk_count(self) -> int:
        return sum(len(s.chunks) for s in self.sources.values())

    def pointer(self) -> Pointer:
        return Pointer(generation=self.generation, collections=dict(self.collections), counts=dict(self.counts),
                       backends=dict(self.backends), updated=self.updated, writer=self.writer)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(str(folder), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, text: str, hook: str | None = None) -> None:
    """Write `text` to `path` so a reader sees the old file or the new one, never half of either."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if hook:
            kill_point(hook)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)  # the rename itself survives a power cut


def remove_temp_files(folder: Path, names: tuple[str, ...] = TEMP_NAMES) -> int:
    """Temp files a killed index writer left (`.<name>.*.tmp`, only ours); returns how many were removed."""
    removed = 0
    for leftover in [p for name in names for p in Path(folder).glob(f".{name}.*.tmp")]:
        try:
            leftover.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def manifest_path(index_dir: Path) -> Path:
    return Path(index_dir) / MANIFEST_NAME


def read_manifest(index_dir: Path) -> Manifest | None:
    """None when there is no index yet; ManifestError when there is one we cannot trust."""
    path = manifest_path(index_dir)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as err:
        raise ManifestError(f"{path} is unreadable ({err.__class__.__name__})") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        raise ManifestError(f"{path} is unreadable ({err.__class__.__name__})") from None
    version = data.get("format_version") if isinstance(data, dict) else None
    if version != FORMAT_VERSION:
        raise ManifestError(f"index format {version!r} differs from this version's {FORMAT_VERSION}")
    try:
        return Manifest.model_validate(data)
    except ValidationError as err:
        raise ManifestError(f"{path} is malformed ({err.error_count()} problem(s))") from None


def write_manifest(index_dir: Path, manifest: Manifest) -> None:
    manifest.updated = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    atomic_write(manifest_path(index_dir), manifest.model_dump_json(indent=1), hook="manifest-temp")
