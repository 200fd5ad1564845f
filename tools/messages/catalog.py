"""The registry: domain tables merged once, `render`, `render_change`, `render_suggestion`.

A domain module (`tools/messages/<domain>.py`) exports ``MESSAGES: dict[str, tuple[Template, Template]]``
(code -> (en, zh)). Every module of this package except `catalog` and `format` is a domain table, found
by name at first use (so a new domain touches only its own file). Codes must be unique across domains.

Conventions inside the tables:

* ``<code>.cli``: the CLI's form of a note (it may name flags, e.g. an error's "use --mode lora");
  `render(note, lang, surface="cli")` prefers it. The chat form (the plain code) never names a flag.
* ``term.<kind>.<value>``: an enum value in words (``term.billing.on_demand`` -> "on-demand" / "按量付费"),
  used by the ``{x:<kind>}`` format specs.
* ``component.<value>``: a memory-breakdown component (`tools.vram_codes.Component`).
* ``change.<kind>`` / ``change.<kind>.cli``: a `Change` as advice / as flags.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import Any, Mapping

from tools.messages.format import Template, fill
from tools.notes import Change, Note, Suggestion

_NOT_TABLES = {"catalog", "format"}
SURFACES = ("chat", "cli")


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


def term_pair(kind: str, value: str) -> tuple[Template, Template] | None:
    return _table().get(f"term.{kind}.{value}")


def _params(params: Mapping[str, Any], lang: str, surface: str) -> dict[str, Any]:
    """Nested notes in params are rendered first, so a template can embed them as text."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if isinstance(v, Note):
            out[k] = render(v, lang, surface)
        elif isinstance(v, list) and v and all(isinstance(x, Note) for x in v):
            out[k] = [render(x, lang, surface) for x in v]
        else:
            out[k] = v
    return out


def _pair(code: str, surface: str) -> tuple[Template, Template]:
    table = _table()
    if surface == "cli" and f"{code}.cli" in table:
        return table[f"{code}.cli"]
    try:
        return table[code]
    except KeyError:
        raise KeyError(f"no message for note code {code!r}: add it to a table in tools/messages/") from None


def _bare(value: Any) -> Any:
    """A note's JSON form without the rendered `text` (and a change's `flags`) that --json adds."""
    if isinstance(value, Mapping):
        return {k: _bare(v) for k, v in value.items() if k not in ("text", "flags")}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def note_from_json(data: Mapping[str, Any]) -> Note:
    """A Note from its JSON form (``{"code", "params"}``, with or without ``text``)."""
    return Note.model_validate({"code": data["code"], "params": _bare(data.get("params") or {})})


def render(note: Note | Mapping[str, Any], lang: str = "en", surface: str = "chat") -> str:
    """The note as a sentence in `lang` ('en' or 'zh') for `surface` ('chat' or 'cli').

    `note` may also be a note's JSON form (``{"code", "params"}``), as tool results carry it.
    An unknown code is a bug: KeyError names it.
    """
    if not isinstance(note, Note):
        note = note_from_json(note)
    en, zh = _pair(note.code, surface)
    return fill(zh if lang == "zh" else en, _params(note.params, lang, surface), lang)


def render_params(note: Note, lang: str, surface: str = "chat") -> dict[str, Any]:
    """`{code, params, text}` for --json output."""
    return {"code": note.code, "params": note.model_dump(mode="json")["params"], "text": render(note, lang, surface)}


def render_change(change: Change | Mapping[str, Any], lang: str = "en", surface: str = "chat") -> str:
    """Advice for the chat ('use QLoRA'), or the flags for the CLI ('--mode qlora')."""
    if not isinstance(change, Change):
        change = Change.model_validate({k: change.get(k) for k in ("kind", "value", "currency")})
    code = f"change.{change.kind.value}" + (".cli" if surface == "cli" else "")
    params = {"value": change.value, "currency": change.currency, "value_currency": change.currency}
    en, zh = _table()[code]
    return fill(zh if lang == "zh" else en, params, lang)


def render_suggestion(suggestion: Suggestion | Mapping[str, Any], lang: str = "en", surface: str = "chat") -> str:
    """'use QLoRA (a 4-bit base): 3 priced options fit; best …' — or, on the CLI, '--mode qlora: …'."""
    if not isinstance(suggestion, Suggestion):
        suggestion = Suggestion.model_validate(_bare(dict(suggestion)))
    outcome = render(suggestion.outcome, lang, surface)
    if suggestion.change is not None:
        sep = "：" if lang == "zh" else ": "
        outcome = render_change(suggestion.change, lang, surface) + sep + outcome
    return outcome[:1].upper() + outcome[1:] if lang != "zh" else outcome


def render_component(component: Any, precision: str | None = None, lang: str = "en") -> str:
    """A memory-breakdown label: 'weights (frozen base, bf16)' / '冻结底座权重（bf16）'."""
    value = getattr(component, "value", component)
    return render(Note(code=f"component.{value}", params={"precision": precision}), lang)
