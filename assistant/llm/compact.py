"""What the LLM reads of a tool result, and of a tool's schema: the figures, notes and reasons, compactly.

The typed result stays whole for the verifier, the UI and the trace; the model gets a compact JSON
view of it. Ollama's OpenAI endpoint defaults to a 4k context and cuts the start of a longer prompt,
and every provider bills by the token, so a request carries no provenance strings, no formula text,
no duplicated fields and no long tails of lists (see the benchmark in the module's tests: the flagship
question fits in 12 KB per request).

Rules, in order: drop empty values and the keys in `DROP_KEYS`; render `Note` values ({code, params})
in the user's language; cap lists (`LIST_CAPS`, else `MAX_LIST`) and long strings (passages at a
sentence end); round floats to what a person would print (4 significant digits, whole numbers from
1,000 on); serialise without spaces.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

# provenance and explanation text the UI shows from the typed result; duplicates of other fields
DROP_KEYS = frozenset(
    {
        "formula",  # estimate_vram: the derivation, for the trace
        "fits",  # estimate_vram: the same as fit_details
        "source",
        "price_source",
        "source_url",
        "software_source",
        "mfu_source",  # provenance (the UI shows it)
        "aliases",
        "origin",
        "as_of_precision",
        "as_of_inferred",
        "covers",
        "source_status",
        "price_age",  # restates price_as_of
        "layout",  # restated in the option's reasons
        "truncated",  # search_guidance bookkeeping
    }
)
LIST_CAPS = {"options": 3, "rejected": 3, "passages": 4, "instances": 3, "lines": 4, "fit_details": 6}
LIST_FLOORS = {"options": 3, "passages": 2, "reasons": 3}  # kept however tight the room: the answer's table
MAX_LIST = 10
MAX_TEXT = 450  # characters of a passage
MAX_FIELD_TEXT = 240  # any other string field


def round_figure(x: float) -> float | int:
    """4 significant digits, whole numbers from 1,000 on: 29.371 → 29.37, 1814.05 → 1814; 2.1e-06, 4.2e22 stay."""
    if not math.isfinite(x) or x == 0:
        return x
    if 1000 <= abs(x) < 1e15:
        return int(round(x))
    rounded = float(f"{x:.4g}")
    return int(rounded) if rounded.is_integer() else rounded


_BREAK = re.compile(r"[\s;，；、]|,(?!\d)")  # "20,006" is one figure


def clip_text(text: str, limit: int) -> str:
    """At most about `limit` characters, cut at a sentence end or a word break, never inside a number."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("。"), cut.rfind("\n"))
    if end > limit // 2:
        return cut[: end + 1].rstrip() + " …"
    breaks = [m.start() for m in _BREAK.finditer(text) if m.start() < limit]  # look past the cut: "20,|006"
    if breaks and breaks[-1] > limit // 3:
        return cut[: breaks[-1]].rstrip(" ,;，；、") + " …"
    while cut and (cut[-1].isdigit() or cut[-1] in ".,"):  # one long token: do not leave half a figure
        cut = cut[:-1]
    return cut.rstrip() + " …"


def _render_note(value: dict[str, Any], lang: str) -> str | None:
    try:
        from tools.messages import has_code, render
        from tools.notes import Note

        if not has_code(value["code"]):
            return None
        return render(Note.model_validate(value), lang)
    except Exception:  # a note we cannot render stays as code + params
        return None


@dataclass(frozen=True)
class _Level:
    """How hard to compact: list caps scaled by `lists`, passages cut at `text`, other strings at `field`."""

    lists: float
    text: int
    field: int


# tried in order until the view fits the room left in the request
LEVELS = (_Level(1.0, MAX_TEXT, MAX_FIELD_TEXT), _Level(0.67, 300, 160), _Level(0.34, 200, 100), _Level(0.0, 120, 60))
TEXT_KEYS = frozenset({"text", "passage", "error"})  # a tool error tells the model how to fix its call
SHORT_KEYS = frozenset({"title"})  # a passage's title: the doc_id is what gets cited


def _compact(value: Any, lang: str, level: _Level, key: str = "") -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return round_figure(value)
    if isinstance(value, str):
        limit = level.text if key in TEXT_KEYS else level.field // 2 if key in SHORT_KEYS else level.field
        return clip_text(value, limit)
    if isinstance(value, dict):
        if set(value) == {"code", "params"} and isinstance(value.get("code"), str):
            text = _render_note(value, lang)
            if text is not None:
                return clip_text(text, level.field)
        out = {}
        for k, v in value.items():
            if k in DROP_KEYS or v is None or v == "" or v == [] or v == {}:
                continue
            out[k] = _compact(v, lang, level, k)
        return out
    if isinstance(value, (list, tuple)):
        cap = LIST_CAPS.get(key, MAX_LIST)
        cap = max(min(cap, LIST_FLOORS.get(key, 1)), round(cap * level.lists))
        items = [_compact(v, lang, level, key) for v in value[:cap]]
        if len(value) > cap:
            items.append(f"… {len(value) - cap} more")
        return _hoist_common(items)
    return value


def _hoist_common(items: list[Any]) -> Any:
    """Sentences every record of a list repeats (a conversion note on each option) are said once."""
    records = [i for i in items if isinstance(i, dict)]
    if len(records) < 2 or len(records) != len([i for i in items if not isinstance(i, str)]):
        return items
    common: dict[str, list[str]] = {}
    for field in {k for r in records for k, v in r.items() if isinstance(v, list)}:
        lists = [r.get(field) for r in records]
        if not all(isinstance(v, list) for v in lists):
            continue
        shared = [s for s in lists[0] if isinstance(s, str) and all(s in v for v in lists[1:])]
        if shared:
            common[field] = shared
            for r in records:
                r[field] = [s for s in r[field] if s not in shared]
                if not r[field]:
                    del r[field]
    if not common:
        return items
    return {"same_for_all": common, "items": items}


def compact_tool_result(name: str, result: Any, lang: str = "en", max_bytes: int | None = None) -> str:
    """The model's view of one tool result (a dict, or anything JSON-able) as compact JSON text.

    With `max_bytes`, lists get shorter and strings are cut until the view fits (or the hardest level is
    reached): the loop passes the room left in the request so that a request stays near its target.
    """
    if hasattr(result, "model_dump"):
        result = result.model_dump(mode="json")
    text = ""
    for level in LEVELS:
        text = json.dumps(_compact(result, lang, level), ensure_ascii=False, separators=(",", ":"), default=str)
        # measured as it travels: a JSON string inside the request (quotes escaped), in UTF-8 bytes
        if max_bytes is None or len(json.dumps(text, ensure_ascii=False).encode()) <= max_bytes:
            break
    return text


# ------------------------------------------------------------------ tool schemas

_DUP_ENUM_DESCRIPTION = re.compile(r"^[\w\-]+(\s*\|\s*[\w\-]+)+$")  # "inference | full | lora" beside an enum


def _compact_schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_compact_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    any_of = node.get("anyOf")
    if isinstance(any_of, list):  # Optional[X] → X: an omitted argument is the same as null to our tools
        kept = [n for n in any_of if n != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(any_of):
            node.pop("anyOf")
            node = {**kept[0], **node}
    node.pop("title", None)
    if node.get("default", 0) is None:
        node.pop("default")
    if node.get("exclusiveMinimum") == 0:  # "> 0": the tool says so in its error message if the model misses it
        node.pop("exclusiveMinimum")
    if "enum" in node and node.get("type") == "string":  # the enum says it
        node.pop("type")
    if node.get("additionalProperties") is False:  # our side rejects unknown arguments by name anyway
        node.pop("additionalProperties")
    description = node.get("description")
    if "enum" in node and isinstance(description, str) and _DUP_ENUM_DESCRIPTION.match(description.strip()):
        node.pop("description")
    return {k: (_compact_schema(v) if k != "enum" else v) for k, v in node.items()}


def compact_tool_schema(tool: Any) -> dict[str, Any]:
    """A tool's OpenAI function schema without titles, null branches and restated enums (same arguments)."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    spec = convert_to_openai_tool(tool)
    fn = dict(spec["function"])
    params = fn.get("parameters")
    if isinstance(params, dict):
        properties = {k: _compact_schema(v) for k, v in (params.get("properties") or {}).items()}
        fn["parameters"] = {
            **{k: v for k, v in params.items() if k not in ("title", "properties")},
            "properties": properties,
        }
    return {"type": "function", "function": fn}
