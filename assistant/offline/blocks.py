"""An answer as typed blocks, and the one renderer that turns them into Markdown in a language.

Handlers build blocks out of `Note`s (rendered through `tools.messages`), catalog
names and retrieved guidance text (already in the reader's language); no handler
writes a sentence itself. `render(blocks, lang)` is the only place that joins them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from tools.messages import render as render_note
from tools.notes import Note

Inline = Union[Note, str]  # a note, or verbatim text (a name, an id, a guidance sentence)


def text_of(item: Inline, lang: str) -> str:
    return render_note(item, lang) if isinstance(item, Note) else str(item)


@dataclass
class Lead:
    """The direct answer: the first sentence(s), in bold where they carry the figure."""

    items: list[Inline]


@dataclass
class Para:
    items: list[Inline]


@dataclass
class Bullets:
    title: Inline | None
    items: list[Inline]


@dataclass
class Table:
    header: list[Inline]
    rows: list[list[Inline]]


@dataclass
class Section:
    """A guidance section rendered whole (lists and tables kept), with its citation marker."""

    title: str
    body: str
    marker: int


@dataclass
class Sources:
    items: list[tuple[int, str, str, str]]  # (marker, doc_id, title, section)


Block = Union[Lead, Para, Bullets, Table, Section, Sources]


@dataclass
class Composition:
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block | None) -> None:
        self.blocks.extend(b for b in blocks if b is not None)


def _cell(item: Inline, lang: str) -> str:
    return text_of(item, lang).replace("|", "/").replace("\n", " ")


def render(blocks: list[Block], lang: str) -> str:
    sep = "" if lang == "zh" else " "
    parts: list[str] = []
    for b in blocks:
        if isinstance(b, Lead):
            parts.append(sep.join(text_of(i, lang) for i in b.items))
        elif isinstance(b, Para):
            parts.append(sep.join(text_of(i, lang) for i in b.items))
        elif isinstance(b, Bullets):
            if not b.items:
                continue
            lines = [text_of(b.title, lang)] if b.title is not None else []
            lines += [f"- {text_of(i, lang)}" for i in b.items]
            parts.append("\n".join(lines))
        elif isinstance(b, Table):
            if not b.rows:
                continue
            head = "| " + " | ".join(_cell(h, lang) for h in b.header) + " |"
            rule = "|" + "---|" * len(b.header)
            rows = ["| " + " | ".join(_cell(c, lang) for c in row) + " |" for row in b.rows]
            parts.append("\n".join([head, rule, *rows]))
        elif isinstance(b, Section):
            parts.append(f"**{b.title}** [{b.marker}]\n\n{b.body.strip()}")
        elif isinstance(b, Sources):
            if b.items:
                title = render_note(Note(code="answer.sources"), lang)
                # the title and section are in the passage's language; the doc id is for machines (Answer.citations)
                parts.append("\n".join([title, *(f"[{n}] {t}" + (f" § {sec}" if (sec := s.split('>')[-1].strip()) else "")
                                               for n, doc, t, s in b.items)]))
    return "\n\n".join(p for p in parts if p.strip())
