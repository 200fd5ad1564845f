"""The message catalog: every Note code and Change in English and Chinese, rendered by one pure function.

`render(note, lang, surface="chat"|"cli")` -> the sentence for a `tools.notes.Note`;
`render_change(change, lang, surface="chat"|"cli")` -> advice or CLI flags for a `Change`;
`render_suggestion(suggestion, lang, surface)` -> "advice: outcome";
`render_component(component, precision, lang)` -> a memory-breakdown label.
Every layer may call these (the CLI, the offline brain, the web panel, Slack, the export);
calculators never do. Tables live one module per domain (`tools/messages/<domain>.py`), each a
dict ``code -> (en, zh)`` where a template is a format string over the note's params with the
typed format specs of `tools.messages.format` (``{needed_gib:gib}``, ``{cost:money}``,
``{billing:billing}`` …) or a callable ``(params, formatter) -> str`` when the sentence needs
logic (plurals, optional parts).
"""

from __future__ import annotations

from tools.messages.catalog import (  # noqa: F401
    all_codes,
    has_code,
    note_from_json,
    render,
    render_change,
    render_component,
    render_params,
    render_suggestion,
)
from tools.messages.format import Formatter, formatter  # noqa: F401

__all__ = [
    "Formatter", "all_codes", "formatter", "has_code", "note_from_json", "render", "render_change", "render_component",
    "render_params", "render_suggestion",
]
