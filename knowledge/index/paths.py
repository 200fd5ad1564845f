"""The user's list of indexed paths: `<data_dir>/indexed_paths.json`, never silently forgotten.

It lives outside the index folder so moving a damaged index aside never loses
it. Every write updates a copy beside it (`indexed_paths.json.bak`), and each
complete build's manifest lists the paths it indexed; a damaged or missing
list is restored from those, with a warning naming the restored paths, and the
damaged file is kept as `indexed_paths.json.damaged`. Readers only read;
writers (under the index lock) repair and register.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel, ConfigDict, Field

from knowledge.index.hooks import kill_point
from knowledge.index.manifest import ManifestError, atomic_write, manifest_path, read_manifest
from tools.errors import ConfigError, InputError

PATHS_NAME = "indexed_paths.json"
PATHS_BACKUP_SUFFIX = ".bak"
DAMAGED_SUFFIX = ".damaged"


class IndexedPaths(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = 1
    paths: list[str] = Field(default_factory=list)


def normalise_path(raw: str | os.PathLike) -> str:
    return str(Path(raw).expanduser().resolve())


def paths_file(data_dir: Path) -> Path:
    return Path(data_dir) / PATHS_NAME


def paths_backup(data_dir: Path) -> Path:
    return Path(data_dir) / (PATHS_NAME + PATHS_BACKUP_SUFFIX)


def _parse_paths(path: Path) -> list[str]:
    """The paths in one file; raises ValueError (or OSError) when it cannot be trusted."""
    return IndexedPaths.model_validate_json(path.read_text(encoding="utf-8")).paths


def _recover(data_dir: Path, index_dir: Path | None) -> tuple[list[str], list[str]]:
    """Paths from the backup copy and the last complete build's manifest, and where they came from."""
    found: list[str] = []
    origins: list[str] = []
    backup = paths_backup(data_dir)
    try:
        from_backup = _parse_paths(backup)
    except (OSError, UnicodeDecodeError, ValueError):
        from_backup = []
    if from_backup:
        found += from_backup
        origins.append(str(backup))
    if index_dir is not None:
        try:
            manifest = read_manifest(Path(index_dir))
        except ManifestError:
            manifest = None
        if manifest and manifest.user_paths:
            found += manifest.user_paths
            origins.append(str(manifest_path(Path(index_dir))))
    return list(dict.fromkeys(found)), origins


def _restored(paths: list[str], origins: list[str]) -> str:
    if not paths:
        return "no backup or index manifest lists any path to restore: re-add yours with `gpu-advisor index PATH`"
    return (f"restored {len(paths)} path(s) from {' and '.join(origins)}: {', '.join(paths)} "
            "(`gpu-advisor index --remove PATH` forgets one)")


def read_paths(data_dir: Path, index_dir: Path | None = None) -> tuple[list[str], str | None]:
    """The user's indexed paths, and a warning when they had to be restored.

    Reads only. A damaged or missing `indexed_paths.json` is answered from its
    backup and from the manifest of the last complete build (`index_dir`); the
    warning says which paths came back from where. `repair_paths` writes them.
    """
    paths, warning, _ = _read_paths(Path(data_dir), index_dir)
    return paths, warning


def _read_paths(data_dir: Path, index_dir: Path | None) -> tuple[list[str], str | None, bool]:
    """(paths, warning, damaged): `damaged` when the file exists but cannot be trusted."""
    path = paths_file(data_dir)
    try:
        return _parse_paths(path), None, False
    except FileNotFoundError:
        paths, origins = _recover(data_dir, index_dir)
        if not paths:
            return [], None, False  # nothing was ever indexed
        return paths, f"{path} is missing; {_restored(paths, origins)}", False
    except PermissionError:  # not damage: the file is fine, this user may not read it
        paths, origins = _recover(data_dir, index_dir)
        return paths, f"{path} cannot be read (permission denied); {_restored(paths, origins)}", False
    except (OSError, UnicodeDecodeError, ValueError) as err:
        paths, origins = _recover(data_dir, index_dir)
        kept = path.with_name(path.name + DAMAGED_SUFFIX)
        return paths, (f"{path} is unreadable ({err.__class__.__name__}); the damaged file is kept as {kept}; "
                       f"{_restored(paths, origins)}"), True


def repair_paths(data_dir: Path, index_dir: Path | None = None) -> tuple[list[str], str | None]:
    """For writers (under the index lock): `read_paths`, then keep the damaged file and write the restored list."""
    data_dir = Path(data_dir)
    paths, warning, damaged = _read_paths(data_dir, index_dir)
    if damaged:
        path = paths_file(data_dir)
        try:
            os.replace(path, path.with_name(path.name + DAMAGED_SUFFIX))
        except OSError as err:
            raise ConfigError(f"cannot move the damaged {path} aside ({err.strerror}); make {data_dir} writable") from None
    if warning:
        write_paths(data_dir, paths)
    elif paths and not paths_backup(data_dir).exists():
        write_paths(data_dir, paths)  # an older version wrote no backup: start one
    return paths, warning


def write_paths(data_dir: Path, paths: list[str]) -> None:
    """The list, then its backup copy: at every moment one of the two is whole."""
    text = IndexedPaths(paths=sorted(dict.fromkeys(paths))).model_dump_json(indent=1)
    for target in (paths_file(data_dir), paths_backup(data_dir)):
        try:
            atomic_write(target, text)
        except OSError as err:
            raise ConfigError(
                f"cannot write {target} ({err.strerror or err.__class__.__name__}); make {Path(data_dir)} writable "
                "or set GPU_ADVISOR_DATA_DIR to a folder you can write"
            ) from None


# ---------------------------------------------------------------------- changing the list (caller holds the lock)


def missing_paths(paths: Sequence[str | os.PathLike]) -> None:
    """InputError naming the paths that do not exist (checked before anything is locked or written)."""
    missing = [str(p) for p in paths if not Path(p).expanduser().exists()]
    if missing:
        raise InputError(
            f"cannot index {', '.join(missing)}: no such file or folder; give an existing Markdown, text, HTML or PDF "
            "file, or a folder of them"
        )


def register_paths(settings, paths: Sequence[str | os.PathLike], current: list[str]) -> list[str]:
    """Add paths to the user's list (validated first); returns the full list."""
    missing_paths(paths)
    added = [normalise_path(p) for p in paths]
    new = list(dict.fromkeys(current + added))
    if new != current:
        write_paths(Path(settings.data_dir), new)
        kill_point("paths-written")
    return new


def check_removable(path: str | os.PathLike, current: list[str]) -> str:
    """The normalised path; InputError listing the indexed ones when it is not among them."""
    target = normalise_path(path)
    if target not in current:
        listed = f"indexed paths: {', '.join(current)}" if current else "no user paths are indexed"
        raise InputError(f"{path} is not an indexed path ({listed}); give one of them exactly as listed.")
    return target


def unregister_path(settings, path: str | os.PathLike, current: list[str]) -> list[str]:
    target = check_removable(path, current)
    remaining = [p for p in current if p != target]
    write_paths(Path(settings.data_dir), remaining)
    kill_point("paths-written")
    return remaining
