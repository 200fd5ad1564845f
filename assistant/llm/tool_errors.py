"""Tool-argument errors in the project's words, for the model to correct its call.

LangChain's own message is a validation dump ("1 validation error for VramArgs\\nparams\\n  Input should be
a valid number, unable to parse string as a number [type=float_parsing, input_value='thirteen billion',
input_type=str]\\n    For further information visit https://errors.pydantic.dev/…"). A model corrects
itself better, and spends fewer tokens, on one line per argument that says what is expected, with the
example from the argument's own description: "params must be a number like 13e9 (got 'thirteen billion')".
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError

_EXAMPLE = re.compile(r"e\.g\.\s*([^,;)]+(?:,\s*'[^']*')*)")
_EXPECTED_TYPE = {
    "float_parsing": "a number",
    "float_type": "a number",
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text",
    "bool_parsing": "true or false",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
}


def _example(schema: type[BaseModel] | None, field: str) -> str | None:
    info = (schema.model_fields.get(field) if schema is not None else None) if field else None
    description = getattr(info, "description", None) or ""
    m = _EXAMPLE.search(description)
    return m.group(1).strip() if m else None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _line(error: dict[str, Any], tool: str, schema: type[BaseModel] | None) -> str:
    loc = [str(p) for p in error.get("loc", ())]
    field = ".".join(loc) or "arguments"
    top = loc[0] if loc else ""
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    got = f" (got {_shown(error['input'])})" if "input" in error and kind != "missing" else ""
    example = _example(schema, top)
    if kind == "extra_forbidden":
        known = ", ".join(schema.model_fields) if schema is not None else ""
        return f"{field} is not an argument of {tool}" + (f"; it takes: {known}" if known else "")
    if kind == "missing":
        return f"{field} is required" + (f", e.g. {example}" if example else "")
    if kind in ("enum", "literal_error"):
        expected = str(ctx.get("expected", "")).replace("'", "")
        return f"{field} must be one of {expected}{got}"
    if kind in _EXPECTED_TYPE:
        like = f" like {example}" if example else ""
        return f"{field} must be {_EXPECTED_TYPE[kind]}{like}{got}"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        words = {
            "greater_than": "greater than",
            "greater_than_equal": "at least",
            "less_than": "less than",
            "less_than_equal": "at most",
        }[kind]
        bound = next(iter(ctx.values()), "")
        return f"{field} must be {words} {bound}{got}"
    message = str(error.get("msg", "is not valid"))
    return f"{field}: {message[0].lower() + message[1:] if message else 'is not valid'}{got}"


def tool_argument_error(tool: str, err: ValidationError, schema: type[BaseModel] | None = None) -> str:
    """One sentence per wrong argument, e.g. "params must be a number like 13e9 (got 'thirteen billion')"."""
    lines = [_line(e, tool, schema) for e in err.errors(include_url=False)]
    return f"{tool}: " + "; ".join(lines) + ". Fix the arguments and call it again."
