"""What an answer may draw its numbers from, as typed figures: value, canonical unit, money period.

Tool results arrive as the calculators' pydantic results or their JSON form
(`model_dump(mode="json")`, as `ToolCallRecord.result` carries them); a model is dumped on the way in.
Only numbers become figures, and only numbers whose unit their key (or the key of the dict or list
holding them) names — see `keys.py`; money takes its currency from the nearest `currency` field
(`native_currency` for `native_*`) and its period from its name, a `period` / `per` field beside it,
or the `hours` a total covers (730 h = a month). String leaves back nothing: dates, ids, versions,
names, formula text and rendered note text. A typed note (`{"code", "params"}`) is evidence through
its params; the `params` dict itself names no unit. A dict with `doc_id` and `text` inside a result
(what search_guidance returns) is a passage: its figures with a unit written beside them, labelled
`passage:<doc_id>`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from assistant.answer import ToolCallRecord
from assistant.verify.keys import KeyUnit, key_unit
from assistant.verify.reader import read_cached, unit_and_period
from assistant.verify.units import PERIODS

__all__ = ["CatalogFact", "Evidence", "EvidencePassage", "Figure", "RANK", "jsonable", "text_figures"]

# Which source a label names first when several back a claim.
RANK = {"tool": 0, "catalog": 1, "passage": 2, "user": 3, "pasted": 4}
_HOURS_PERIOD = {1.0: "hour", 24.0: "day", 168.0: "week", 730.0: "month", 8760.0: "year"}


@dataclass(slots=True)
class Figure:
    """One evidence figure: `value` (a magnitude) in canonical `unit`."""

    value: float
    unit: str
    label: str
    half: float = 0.0  # half the shown step, for figures read from text; 0 for typed numbers
    rank: int = 0
    per: str | None = None  # money: hour | day | week | month | year; None = a total or not said
    any_per: bool = False  # the user's own money without a period: backs a claim of any period
    order: int = 0


class CatalogFact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str = Field(description="e.g. 'A100-80GB.memory_gb'")
    value: float
    unit: str = Field(default="", description="as written: GB, GiB, TFLOPS, GB/s, CNY/hour ...; '' = from the key")


class EvidencePassage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc_id: str
    text: str


def jsonable(value: Any) -> Any:
    """A pydantic result (or a structure holding some) in its JSON form; anything else unchanged."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


class Evidence(BaseModel):
    """What an answer may draw numbers from. Build once per answer; do not mutate after use."""

    model_config = ConfigDict(extra="forbid")

    tool_results: dict[str, Any] = Field(default_factory=dict, description="tool name -> result (pydantic or JSON)")
    tool_args: dict[str, Any] = Field(default_factory=dict, description="tool name -> the arguments it was called with")
    catalog_facts: list[CatalogFact] = Field(default_factory=list)
    passages: list[EvidencePassage] = Field(default_factory=list)

    _figures: list[Figure] | None = PrivateAttr(default=None)
    _index: Any = PrivateAttr(default=None)

    @field_validator("tool_results", "tool_args", mode="before")
    @classmethod
    def _dump_models(cls, value: Any) -> Any:
        return {k: jsonable(v) for k, v in value.items()} if isinstance(value, dict) else value

    @field_validator("catalog_facts", mode="before")
    @classmethod
    def _facts_from_tuples(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return [
                {"key": f[0], "value": f[1], "unit": f[2] if len(f) > 2 else ""} if isinstance(f, (list, tuple)) else f
                for f in value
            ]
        return value

    @field_validator("passages", mode="before")
    @classmethod
    def _passages_from_objects(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            out = []
            for p in value:
                if isinstance(p, (list, tuple)):
                    out.append({"doc_id": p[0], "text": p[1]})
                elif hasattr(p, "doc_id") and hasattr(p, "text") and not isinstance(p, EvidencePassage):
                    out.append({"doc_id": p.doc_id, "text": p.text})  # knowledge.passages.Passage, Citation
                else:
                    out.append(p)
            return out
        return value

    @classmethod
    def from_tool_calls(
        cls,
        tool_calls: Iterable[ToolCallRecord | dict[str, Any]],
        passages: Iterable[Any] = (),
        catalog_facts: Iterable[Any] = (),
    ) -> Evidence:
        """From the agent's tool-call records (results as JSON or pydantic); a tool called twice becomes 'name', 'name#2'."""
        results: dict[str, Any] = {}
        args: dict[str, Any] = {}
        for call in tool_calls:
            record = call if isinstance(call, ToolCallRecord) else ToolCallRecord.model_validate(call)
            name, i = record.name, 2
            while name in results:
                name, i = f"{record.name}#{i}", i + 1
            results[name] = record.result
            args[name] = record.args
        return cls(tool_results=results, tool_args=args, catalog_facts=list(catalog_facts), passages=list(passages))

    def figures(self) -> list[Figure]:
        """Every evidence figure, typed. Built once."""
        if self._figures is None:
            self._figures = _evidence_figures(self)
        return self._figures

    def numbers(self) -> list[tuple[str, float, str | None]]:
        """Every evidence figure as (label, value, canonical unit): for debugging and tests."""
        return [(f.label, f.value, f.unit) for f in self.figures()]


# ------------------------------------------------------------------ gathering


def text_figures(text: str, label: str, rank: int, *, keep_names: bool, any_per: bool = False) -> list[Figure]:
    """Figures written with a unit in a text (a passage, the user's words): bare numbers are not evidence."""
    return [Figure(abs(q.value), q.unit, label, q.step / 2, rank, q.per, any_per and q.per is None)
            for q in read_cached(text, keep_names, False)]


def _evidence_figures(ev: Evidence) -> list[Figure]:
    out: list[Figure] = []
    for name, result in ev.tool_results.items():
        _walk(result, [], [], f"tool:{name}:", out)
    for name, args in ev.tool_args.items():
        if args:
            _walk(args, ["args"], [], f"tool:{name}:", out)
    for fact in ev.catalog_facts:
        fig = _fact_figure(fact)
        if fig is not None:
            out.append(fig)
    for p in ev.passages:
        out += text_figures(p.text, f"passage:{p.doc_id}", RANK["passage"], keep_names=False)
    for i, f in enumerate(out):
        f.order = i
    return out


def _fact_figure(fact: CatalogFact) -> Figure | None:
    if not math.isfinite(fact.value):
        return None
    label = f"catalog:{fact.key}"
    if fact.unit:
        parsed = unit_and_period(fact.unit)
        if parsed is None:
            return None
        unit, factor, per = parsed
        return Figure(abs(fact.value) * factor, unit, label, 0.0, RANK["catalog"], per)
    ku = key_unit(fact.key.rsplit(".", 1)[-1])
    if ku is None or ku.unit.startswith("money"):
        return None  # money needs its currency said
    return Figure(abs(fact.value) * ku.factor, ku.unit, label, 0.0, RANK["catalog"])


def _is_passage(node: dict) -> bool:
    """A retrieved passage inside a tool result (search_guidance): cite it as a passage."""
    return isinstance(node.get("doc_id"), str) and isinstance(node.get("text"), str)


def _is_note(node: dict) -> bool:
    return isinstance(node.get("code"), str) and isinstance(node.get("params"), dict)


# The string params of a tool's note that quote a cited source (tools/serving_profiles.py QUALITY): the only
# strings that back a number, as a retrieved passage does.
CITED_TEXT_PARAMS = frozenset({"source", "reference"})


def _kind_key(node: dict) -> str | None:
    """A typed change or load ({"kind": "set_gpus", "value": 2}): its value's unit is named by its kind."""
    kind = node.get("kind")
    return kind if isinstance(kind, str) and "value" in node else None


def _walk(node: Any, path: list[str], parents: list[dict], prefix: str, out: list[Figure]) -> None:
    if isinstance(node, dict):
        if _is_passage(node):
            out += text_figures(node["text"], f"passage:{node['doc_id']}", RANK["passage"], keep_names=False)
            return
        parents.append(node)
        note = _is_note(node)
        kind = _kind_key(node)
        for key, value in node.items():
            if kind is not None and key == "value":  # set_gpus -> GPUs, raise_budget -> money, request_rate -> req/s
                path.append("value")
                _visit(value, kind, path, parents, prefix, out)
                path.pop()
                continue
            if note and key == "params":  # the note's params dict names no unit (it is not a parameter count)
                parents.append(value)
                path.append("params")
                for k, v in value.items():
                    if k in CITED_TEXT_PARAMS and isinstance(v, str):
                        # a study's own figures quoted with its citation ("AWQ … Table 4: 7B 5.47 → 5.60, 70B …"):
                        # catalog data copied from the cited source, read as a passage is
                        out += text_figures(v, f"source:{node['code']}", RANK["passage"], keep_names=False)
                        continue
                    path.append(str(k))
                    _visit(v, str(k), path, parents, prefix, out)
                    path.pop()
                path.pop()
                parents.pop()
                continue
            path.append(str(key))
            _visit(value, str(key), path, parents, prefix, out)
            path.pop()
        parents.pop()
    elif isinstance(node, (list, tuple)):
        for i, value in enumerate(node):
            path.append(str(i))
            _walk(value, path, parents, prefix, out)
            path.pop()


def _visit(value: Any, key: str, path: list[str], parents: list[dict], prefix: str, out: list[Figure]) -> None:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return  # strings never back a number: dates, ids, names, formulas, rendered text
    if isinstance(value, (int, float)):
        fig = _leaf(float(value), key, parents, prefix + ".".join(path))
        if fig is not None:
            out.append(fig)
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                              for v in value):
        for i, v in enumerate(value):  # a list of numbers takes the unit of the key holding it
            path.append(str(i))
            fig = _leaf(float(v), key, parents, prefix + ".".join(path))
            if fig is not None:
                out.append(fig)
            path.pop()
    elif isinstance(value, dict) and not _is_passage(value) and not _is_note(value) and key_unit(key) is not None:
        parents.append(value)  # breakdown_gib.weights: the unit is on the key holding the dict
        for k, v in value.items():
            path.append(str(k))
            if isinstance(v, (int, float)) and not isinstance(v, bool):  # children are named by what, not the unit
                fig = _leaf(float(v), key, parents, prefix + ".".join(path))
                if fig is not None:
                    out.append(fig)
            else:
                _visit(v, str(k), path, parents, prefix, out)
            path.pop()
        parents.pop()
    else:
        _walk(value, path, parents, prefix, out)


def _leaf(value: float, key: str, parents: list[dict], label: str) -> Figure | None:
    if not math.isfinite(value):
        return None
    ku = key_unit(key)
    if ku is None:
        return None
    if ku.unit.startswith("money"):
        return _money(value, key, ku, parents, label)
    return Figure(abs(value) * ku.factor, ku.unit, label, 0.0, RANK["tool"])


def _money(value: float, key: str, ku: KeyUnit, parents: list[dict], label: str) -> Figure | None:
    native = key.lower().startswith("native_")
    own = parents[-1].get(f"{key}_currency") if parents else None  # budget + budget_currency (tool arguments)
    currency = ku.currency or (own.upper() if isinstance(own, str) else None) \
        or _nearest(parents, "native_currency" if native else "currency", stop_first=native)
    if currency not in ("CNY", "USD"):
        return None  # money whose currency nothing says backs nothing
    if ku.unit == "money/Mtok":
        return Figure(abs(value) * ku.factor, f"{currency}/Mtok", label, 0.0, RANK["tool"])
    per: str | None
    if ku.period in PERIODS or ku.period is None:
        per = ku.period
    elif ku.period == "hours":
        hours = _nearest(parents, "hours", numeric=True)
        per = _HOURS_PERIOD.get(float(hours)) if hours is not None else None
    else:  # "sibling"
        field = "native_per" if native else None
        per = None
        parent = parents[-1] if parents else {}
        for name in ([field] if field else ["period", "per", "billing_period"]):
            v = parent.get(name)
            if isinstance(v, str) and v in PERIODS:
                per = v
                break
    return Figure(abs(value), currency, label, 0.0, RANK["tool"], per)


def _nearest(parents: list[dict], field: str, *, numeric: bool = False, stop_first: bool = False) -> Any:
    """The value of `field` in the nearest enclosing dict that has one."""
    for d in reversed(parents):
        v = d.get(field)
        if numeric:
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return v
        elif isinstance(v, str):
            return v.upper()
        if stop_first:
            return None
    return None
