"""The evidence restated as compact text, for an LLM's second try after unbacked numbers."""

from __future__ import annotations

from typing import Any

from assistant.verify.evidence import Evidence
from assistant.verify.keys import key_unit

__all__ = ["restate_evidence"]



def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def _unit_text(key: str, parents: list[dict], holder: str | None) -> str:
    """The unit a figure is in, as the verifier reads its key: ' GiB', ' USD/hour', ' ms'; '' when none."""
    ku = key_unit(key) or (key_unit(holder) if holder else None)
    if ku is None or ku.factor != 1.0:
        return ""  # fractions (mfu 0.4) and converted units are restated as the tool gave them
    if ku.unit.startswith("money"):
        currency = ku.currency
        for d in reversed(parents):
            if currency:
                break
            c = d.get("native_currency" if key.startswith("native_") else "currency")
            currency = c if isinstance(c, str) else None
        if not currency:
            return ""
        if ku.unit == "money/Mtok":
            return f" {currency} per 1M tokens"
        per = ku.period if ku.period in ("hour", "day", "week", "month", "year") else None
        if ku.period == "hours":  # a total over `hours`: 730 h is a month
            hours = next((d["hours"] for d in reversed(parents) if isinstance(d.get("hours"), (int, float))), None)
            per = {1: "hour", 24: "day", 168: "week", 730: "month", 8760: "year"}.get(hours) if hours else None
        if ku.period == "sibling" and parents:
            p = parents[-1].get("native_per" if key.startswith("native_") else "period") or parents[-1].get("per")
            per = p if isinstance(p, str) else None
        return f" {currency}/{per}" if per else f" {currency}"
    return f" {ku.unit}"


def _is_passage(node: dict) -> bool:
    return isinstance(node.get("doc_id"), str) and isinstance(node.get("text"), str)


def _lines(node: Any, path: list[str], parents: list[dict], lines: list[str], limit: int, holder: str | None) -> None:
    """`holder`: the key of the dict or list that holds `node` (None for a note's params: they name no unit)."""
    if len(lines) >= limit:
        return
    if isinstance(node, dict):
        if _is_passage(node):
            lines.append(f"  {'.'.join(path)} = passage {node['doc_id']} ({node.get('title', '')})")
            return
        parents.append(node)
        is_note = isinstance(node.get("code"), str) and isinstance(node.get("params"), dict)
        here = path[-1] if path and not path[-1].isdigit() else holder
        for key, value in node.items():
            if is_note and key == "text":
                continue  # a rendered note: its numbers are its params, restated beside it
            path.append(str(key))
            if is_note and key == "params":
                parents.append(value)
                for k, v in value.items():
                    path.append(str(k))
                    _lines(v, path, parents, lines, limit, None)
                    path.pop()
                parents.pop()
            else:
                _lines(value, path, parents, lines, limit, here)
            path.pop()
        parents.pop()
    elif isinstance(node, (list, tuple)):
        here = path[-1] if path and not path[-1].isdigit() else holder
        for i, value in enumerate(node[:5]):  # the top few options say enough; the rest is noise
            path.append(str(i))
            _lines(value, path, parents, lines, limit, here)
            path.pop()
        if len(node) > 5:
            lines.append(f"  {'.'.join(path)}: … {len(node) - 5} more")
    elif node is None:
        return
    elif isinstance(node, bool):
        lines.append(f"  {'.'.join(path)} = {str(node).lower()}")
    elif isinstance(node, (int, float)):
        key = path[-1] if path else ""
        unit = _unit_text(key, parents, holder if key_unit(key) is None else None)
        lines.append(f"  {'.'.join(path)} = {_fmt(node)}{unit}")
    else:
        text = str(node).replace("\n", " ")
        lines.append(f"  {'.'.join(path)} = {text[:157] + '…' if len(text) > 160 else text}")


def restate_evidence(evidence: Evidence, max_lines_per_tool: int = 120) -> str:
    """The tool results (and catalog facts) as compact text for the LLM's second try."""
    parts = ["Tool results — every number in the answer must be one of these figures (rounded, or converted to "
             "another unit of the same kind), a catalog fact below, a number with its unit in a cited passage, or "
             "one the user wrote. Numbers inside text fields (dates, names, ids, formulas) are not figures; "
             "money keeps its currency and period (never convert CNY ↔ USD or hourly ↔ monthly yourself):"]
    for name, result in evidence.tool_results.items():
        parts.append(f"[{name}]")
        lines: list[str] = []
        if isinstance(result, (dict, list, tuple)):
            _lines(result, [], [], lines, max_lines_per_tool, None)
        else:
            lines.append(f"  {str(result)[:400]}")
        if len(lines) >= max_lines_per_tool:
            lines = lines[:max_lines_per_tool] + ["  …"]
        parts.extend(lines)
    if evidence.catalog_facts:
        parts.append("[catalog]")
        parts.extend(f"  {f.key} = {_fmt(f.value)}{' ' + f.unit if f.unit else ''}" for f in evidence.catalog_facts)
    return "\n".join(parts)
