"""What the index holds, kept as JSON beside it, and the user's list of indexed paths.

Two files, on purpose:
* `<data_dir>/indexed_paths.json` — the folders and files a user asked for. It
  lives outside the index folder so wiping a corrupt index never loses it.
* `<index_dir>/manifest.json` — format version, embedding models, and for each
  source file its size/mtime and chunk ids, so a no-change re-index reads no file.
Both are written atomically (temp file + rename): a crash leaves the old one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

# Bump when chunking, metadata or collection layout changes: old indexes are rebuilt.
FORMAT_VERSION = 1
MANIFEST_NAME = "manifest.json"
PATHS_NAME = "indexed_paths.json"


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


class Manifest(_Strict):
    format_version: int = FORMAT_VERSION
    backends: dict[str, str] = Field(default_factory=dict, description="backend name -> model fingerprint")
    languages: dict[str, str] = Field(default_factory=dict, description="chunk language -> backend")
    sources: dict[str, SourceEntry] = Field(default_factory=dict)
    generation: int = 0
    updated: str = ""

    def chunk_count(self) -> int:
        return sum(len(s.chunks) for s in self.sources.values())


class IndexedPaths(_Strict):
    version: int = 1
    paths: list[str] = Field(default_factory=list)


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def manifest_path(index_dir: Path) -> Path:
    return Path(index_dir) / MANIFEST_NAME


def read_manifest(index_dir: Path) -> Manifest | None:
    """None when there is no index yet; ManifestError when there is one we cannot trust."""
    path = manifest_path(index_dir)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
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
    atomic_write(manifest_path(index_dir), manifest.model_dump_json(indent=1))


def paths_file(data_dir: Path) -> Path:
    return Path(data_dir) / PATHS_NAME


def read_paths(data_dir: Path) -> tuple[list[str], str | None]:
    """The user's indexed paths, and a warning when the file had to be ignored."""
    path = paths_file(data_dir)
    if not path.exists():
        return [], None
    try:
        return IndexedPaths.model_validate_json(path.read_text(encoding="utf-8")).paths, None
    except (OSError, UnicodeDecodeError, ValidationError, ValueError) as err:
        # Keep the damaged file for the user to inspect; never overwrite it silently.
        backup = path.with_suffix(".json.damaged")
        try:
            os.replace(path, backup)
        except OSError:
            backup = path
        return [], f"{path} was unreadable ({err.__class__.__name__}); moved to {backup}: re-add your paths with `gpu-advisor index PATH`"


def write_paths(data_dir: Path, paths: list[str]) -> None:
    atomic_write(paths_file(data_dir), IndexedPaths(paths=sorted(dict.fromkeys(paths))).model_dump_json(indent=1))
