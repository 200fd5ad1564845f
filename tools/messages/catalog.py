"""The registry: domain tables merged once, `render` and `render_change`.

A domain module (`tools/messages/<domain>.py`) exports ``MESSAGES: dict[str, tuple[Template, Template]]``
(code -> (en, zh)). Every module of this package except `catalog` and `format` is a domain table, found
by name at first use (so a new domain touches only its own file). Codes must be unique across domains.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import Any

from tools.messages.format import Template, fill
from tools.notes import Change, Note

_NOT_TABLES = {"catalog", "format"}


def _domains() -> list[str]:
    import tools.messages as package

    return sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name not in _NOT_TABLES and not m.name.startswith("_"))


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[Template, Template]]:
    merged: dict[str, tuple[Template, Template]] = {}
    for name in _domains():
        module = importlib.import_module(f"tools.messages.{name}")
        for code, pair in module.MESSAGES.items():
            if code in merged:
                raise RuntimeError(f"message code {code!r} is defined twice (tools/messages/{name}.py)")
            merged[code] = pair
    return merged


def all_codes() -> list[str]:
    return sorted(_table())


def has_code(code: str) -> bool:
    return code in _table()


def _params(note: Note, lang: str) -> dict[str, Any]:
    """Nested notes in params are rendered first, so a template can embed them as text."""
    out: dict[str, Any] = {}
    for k, v in note.params.items():
        if isinstance(v, Note):
            out[k] = render(v, lang)
        elif isinstance(v, list) and v and all(isinstance(x, Note) for x in v):
            out[k] = [render(x, lang) for x in v]
        else:
            out[k] = v
    return out


def render(note: Note, lang: str = "en") -> str:
    """The note as a sentence in `lang` ('en' or 'zh'). An unknown code is a bug: KeyError names it."""
    try:
        en, zh = _table()[note.code]
    except KeyError:
        raise KeyError(f"no message for note code {note.code!r}: add it to a table in tools/messages/") from None
    return fill(zh if lang == "zh" else en, _params(note, lang), lang)


def render_params(note: Note, lang: str) -> dict[str, Any]:
    """`{code, params, text}` for --json output."""
    return {"code": note.code, "params": note.model_dump(mode="json")["params"], "text": render(note, lang)}


def render_change(change: Change, lang: str = "en", surface: str = "chat") -> str:
    """Advice for the chat ('use QLoRA'), or the flags for the CLI ('--mode qlora')."""
    code = f"change.{change.kind.value}" + (".cli" if surface == "cli" else "")
    params = {"value": change.value, "currency": change.currency, "value_currency": change.currency}
    en, zh = _table()[code]
    return fill(zh if lang == "zh" else en, params, lang)
