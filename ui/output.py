"""Plain-text tables and JSON for the CLI. No third-party formatting."""

from __future__ import annotations

import json
import sys
from typing import Any, Iterable, Sequence

from pydantic import BaseModel


def to_jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value


def print_json(value: Any, stream=None) -> None:
    stream = stream or sys.stdout
    json.dump(to_jsonable(value), stream, ensure_ascii=False, indent=2)
    stream.write("\n")


def fmt(value: Any, digits: int = 1) -> str:
    """Numbers rounded for people; None is shown as 'unknown', never as 0 or -1."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _width(text: str) -> int:
    # CJK characters take two terminal columns
    return sum(2 if "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" else 1 for ch in text)


def format_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    cells = [[str(h) for h in headers]] + [[c if isinstance(c, str) else fmt(c) for c in row] for row in rows]
    widths = [max(_width(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append("  ".join(c + " " * (widths[i] - _width(c)) for i, c in enumerate(row)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def print_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], stream=None) -> None:
    (stream or sys.stdout).write(format_table(headers, rows) + "\n")
