"""Read catalog files into plain rows, remembering where each row came from.

A catalog file is either
* YAML: a mapping of kind -> list of rows, e.g. ``gpus: [{key: H100, ...}]``
  (kinds: gpus, models, providers, instances, prices); or
* CSV: one kind per file, named by its stem (``prices.csv``,
  ``prices-negotiated.csv``, ``instances.csv`` ...), first line = header.

Every row keeps a `Where` (file, row number, line) so that a validation error
can name the exact place to fix. Empty CSV cells and YAML nulls mean "not
given" and are dropped, so the record's default (usually "unknown") applies.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import yaml

from tools.errors import ConfigError

KINDS = ("gpus", "models", "providers", "instances", "prices")
SUFFIXES = (".yaml", ".yml", ".csv")

try:  # libyaml is ~10x faster; fall back to the pure-Python loader
    _BaseLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _BaseLoader = yaml.SafeLoader


class _YamlLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loading, except that an impossible unquoted date (``as_of: 2025-13-45``) stays text.

    PyYAML turns anything shaped like a date into `datetime.date` and raises a bare
    ValueError for impossible ones, which would escape as a traceback; kept as text,
    the row's validation names the file, row, line and field instead.
    """


def _timestamp_or_text(loader: Any, node: Any) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError:
        return loader.construct_scalar(node)


_YamlLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)


@dataclass(frozen=True)
class Where:
    """Location of one row: `prices.csv row 12 (line 13)`."""

    path: Path
    row: int  # 1-based among the rows of its kind in this file
    line: int | None = None

    def __str__(self) -> str:
        line = f" (line {self.line})" if self.line else ""
        return f"{self.path} row {self.row}{line}"


@dataclass(frozen=True)
class RawRow:
    kind: str
    data: dict[str, Any]
    where: Where


def catalog_files(directory: Path) -> list[Path]:
    """The catalog files of a directory, sorted so that loading is deterministic."""
    if not directory.is_dir():
        raise ConfigError(f"{directory}: catalog directory does not exist; create it or unset GPU_ADVISOR_CATALOG_DIR")
    return sorted(p for p in directory.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)


def read_rows(path: Path) -> Iterator[RawRow]:
    if path.suffix.lower() == ".csv":
        yield from _read_csv(path)
    else:
        yield from _read_yaml(path)


def _kind_of_csv(path: Path) -> str:
    stem = path.stem.lower()
    for kind in KINDS:
        if stem == kind or stem.startswith(kind + "-") or stem.startswith(kind + "_"):
            return kind
    raise ConfigError(
        f"{path}: cannot tell what this CSV holds; name it after its kind "
        f"({', '.join(k + '.csv' for k in KINDS)}, or e.g. prices-negotiated.csv)"
    )


def _read_csv(path: Path) -> Iterator[RawRow]:
    kind = _kind_of_csv(path)
    text = _read_text(path)
    # Lines starting with '#' before the header are comments (sources, licences).
    lines = text.splitlines(keepends=True)
    skipped = 0
    while skipped < len(lines) and lines[skipped].lstrip().startswith("#"):
        skipped += 1
    reader = csv.DictReader(io.StringIO("".join(lines[skipped:])))
    if not reader.fieldnames:
        return
    header = [h.strip() for h in reader.fieldnames]
    if len(set(header)) != len(header):
        raise ConfigError(f"{path} line {skipped + 1}: duplicate column names in the header")
    n = 0
    for record in reader:
        n += 1
        line = skipped + reader.line_num
        if None in record:  # more cells than header columns
            raise ConfigError(f"{path} row {n} (line {line}): more cells than header columns ({len(header)})")
        data = {k.strip(): v.strip() for k, v in record.items() if v is not None and v.strip() != ""}
        if not data:
            continue  # blank line
        yield RawRow(kind, data, Where(path, n, line))


def _read_yaml(path: Path) -> Iterator[RawRow]:
    text = _read_text(path)
    try:
        # Parse once: keep the node tree (for line numbers) and construct the data from it.
        loader = _YamlLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or err.__class__.__name__
        raise ConfigError(f"{path}{where}: not valid YAML ({problem})") from None
    if data is None:
        return
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of kind -> list of rows (kinds: {', '.join(KINDS)})")
    unknown = [k for k in data if k not in KINDS]
    if unknown:
        raise ConfigError(f"{path}: unknown section(s) {', '.join(map(str, unknown))}; known: {', '.join(KINDS)}")
    lines = _row_lines(node)
    for kind in KINDS:
        rows = data.get(kind)
        if rows is None:
            continue
        if not isinstance(rows, list):
            raise ConfigError(f"{path}: section '{kind}' must be a list of rows")
        for i, row in enumerate(rows):
            where = Where(path, i + 1, lines.get(kind, [])[i] if i < len(lines.get(kind, [])) else None)
            if not isinstance(row, dict):
                raise ConfigError(f"{where}: each {kind} row must be a mapping of field: value")
            yield RawRow(kind, {str(k): v for k, v in row.items() if v is not None}, where)


def _row_lines(node: Any) -> dict[str, list[int]]:
    """1-based line of each list item, per section, from the YAML node tree."""
    out: dict[str, list[int]] = {}
    if not isinstance(node, yaml.MappingNode):
        return out
    for key_node, value_node in node.value:
        if isinstance(value_node, yaml.SequenceNode):
            out[str(key_node.value)] = [item.start_mark.line + 1 for item in value_node.value]
    return out


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; save it as UTF-8") from None
    except OSError as err:
        raise ConfigError(f"{path}: cannot read ({err.strerror})") from None
