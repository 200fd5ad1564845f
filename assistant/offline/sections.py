"""A retrieved passage's whole section, with its lists and tables, read from the guidance file it came from.

Retrieval returns chunks cut to the embedding window; a guidance answer shows the
section the chunk belongs to, whole (a lead-in sentence without its list answers
nothing). Markdown files are split by headings once and cached; a passage from
another format (PDF, HTML) is shown as retrieved.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

MAX_SECTION_CHARS = 2400  # a section longer than this is cut at a paragraph boundary
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


@lru_cache(maxsize=128)
def _sections(path: str, mtime: float) -> dict[str, str]:
    """heading text -> the section's body (down to the next heading of the same or a higher level)."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    text = re.sub(r"^---\n.*?\n---\n", "", text, count=1, flags=re.S)  # front matter
    lines = text.splitlines()
    heads = [(i, len(m.group(1)), m.group(2)) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    out: dict[str, str] = {}
    for n, (i, level, title) in enumerate(heads):
        end = len(lines)
        for j, lvl, _ in heads[n + 1 :]:
            if lvl <= level:
                end = j
                break
        # the body down to the first sub-heading keeps the section's own text; sub-sections follow when short
        out.setdefault(title.strip(), "\n".join(lines[i + 1 : end]).strip())
    return out


def whole_section(passage: dict) -> str:
    """The full text of the passage's section, or the passage text when the file cannot be read."""
    source = passage.get("source") or ""
    section = (passage.get("section") or "").split(">")[-1].strip()
    text = passage.get("text", "")
    if source.endswith(".md") and section:
        path = Path(source)
        try:
            body = _sections(str(path), path.stat().st_mtime).get(section)
        except OSError:
            body = None
        if body:
            text = body
    return _cut(text)


def _cut(text: str) -> str:
    if len(text) <= MAX_SECTION_CHARS:
        return text
    paragraphs = re.split(r"\n\s*\n", text)
    out, size = [], 0
    for p in paragraphs:
        if size + len(p) > MAX_SECTION_CHARS and out:
            break
        out.append(p)
        size += len(p) + 2
    return "\n\n".join(out)


def first_sentence(text: str) -> str | None:
    """The section's own first sentence when it is a statement (not a heading, list or table): a direct answer."""
    for para in re.split(r"\n\s*\n", text):
        para = para.strip()
        if not para or para[0] in "#|-*>" or re.match(r"\d+[.)]\s", para):
            continue
        m = re.match(r"(.+?(?:[。！？]|[.!?](?=\s|$)))", para.replace("\n", " "))
        sentence = (m.group(1) if m else para).strip()
        if sentence.endswith(("：", ":")):
            return None  # a lead-in to a list is no answer on its own
        return sentence if len(sentence) >= 8 else None
    return None
