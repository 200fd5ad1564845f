"""Split a document along its headings into chunks that fit the embedding window.

The bundled MiniLM reads 256 word pieces and silently drops the rest, so
every chunk is measured with the model's own tokenizer: title + section path
+ text + [CLS]/[SEP] stay within the window. Consecutive chunks of one
section share a sentence or two (`overlap_tokens`) so an answer that straddles
a cut is still found whole in one of them.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Callable

from knowledge.index.documents import Chunk, SourceDoc

TokenCounter = Callable[[str], int]  # word pieces, without special tokens

SPECIAL_TOKENS = 2  # [CLS] and [SEP]
DEFAULT_WINDOW = 256
DEFAULT_OVERLAP = 32
CHUNK_FORMAT = 1  # part of every chunk hash: bump when chunk metadata changes meaning, and all are re-embedded

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
# Sentence ends in either language; keeps the punctuation with its sentence.
_SENTENCE = re.compile(r"(?<=[。！？；!?;])|(?<=[.])\s+")


@dataclass
class Section:
    path: list[str]
    body: str


def split_sections(body: str, title: str = "") -> list[Section]:
    """Heading path + body for each run of text; '#' lines inside code fences are not headings."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    lines: list[str] = []
    in_fence = False
    # A document's only H1 is its title: repeating it in every section path adds nothing.
    h1_is_title = _count_h1(body) == 1

    def flush() -> None:
        text = "\n".join(lines).strip()
        if text:
            sections.append(Section([h for _, h in stack], text))
        lines.clear()

    for line in body.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING.match(line)
        if not match:
            lines.append(line)
            continue
        flush()
        level, heading = len(match.group(1)), match.group(2).strip()
        while stack and stack[-1][0] >= level:
            stack.pop()
        if level == 1 and (h1_is_title or _norm(heading) == _norm(title)):
            continue
        stack.append((level, heading))
    flush()
    return sections


def _count_h1(body: str) -> int:
    count, in_fence = 0, False
    for line in body.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("# "):
            count += 1
    return count


def _norm(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


def _blocks(text: str) -> list[str]:
    """Paragraphs, tables and lists: runs of non-blank lines."""
    return [b.strip() for b in re.split(r"\n\s*\n", text) if b.strip()]


def _sentences(text: str) -> list[str]:
    return [s for s in (p.strip() for p in _SENTENCE.split(text)) if s]


def _hard_split(text: str, budget: int, count: TokenCounter) -> list[str]:
    """Cut text with no usable boundary into pieces of at most `budget` tokens."""
    # words for spaced text, characters for Chinese (each CJK char is one word piece)
    units = re.findall(r"\S+\s*", text) if " " in text.strip() else list(text)
    out: list[str] = []
    start = 0
    while start < len(units):
        lo, hi = start + 1, len(units)
        while lo < hi:  # largest end with count(units[start:end]) <= budget
            mid = (lo + hi + 1) // 2
            if count("".join(units[start:mid])) <= budget:
                lo = mid
            else:
                hi = mid - 1
        out.append("".join(units[start:lo]).strip())
        start = lo
    return [p for p in out if p]


def _fit(text: str, budget: int, count: TokenCounter) -> list[str]:
    """Split a block into pieces within budget: by lines, then sentences, then hard cuts."""
    if count(text) <= budget:
        return [text]
    pieces: list[str] = []
    for splitter in (lambda t: t.splitlines(), _sentences):
        parts = [p for p in splitter(text) if p.strip()]
        if len(parts) > 1:
            for part in parts:
                pieces.extend(_fit(part, budget, count))
            return pieces
    return _hard_split(text, budget, count)


def _tail(text: str, max_tokens: int, count: TokenCounter) -> str:
    """The last sentences of text, up to max_tokens: the overlap carried into the next chunk."""
    tail = ""
    for sentence in reversed(_sentences(text.splitlines()[-1] if text.splitlines() else text)):
        candidate = f"{sentence} {tail}".strip()
        if count(candidate) > max_tokens:
            break
        tail = candidate
    return tail


def pack(body: str, budget: int, count: TokenCounter, overlap_tokens: int = DEFAULT_OVERLAP) -> list[str]:
    """Greedy packing of whole blocks into chunks of at most `budget` tokens."""
    units: list[str] = []
    for block in _blocks(body):
        units.extend(_fit(block, budget, count))
    chunks: list[str] = []
    current = ""
    for unit in units:
        candidate = f"{current}\n\n{unit}" if current else unit
        if not current or count(candidate) <= budget:
            current = candidate
            continue
        chunks.append(current)
        overlap = _tail(current, overlap_tokens, count) if overlap_tokens else ""
        with_overlap = f"{overlap}\n\n{unit}" if overlap else unit
        current = with_overlap if overlap and count(with_overlap) <= budget else unit
    if current:
        chunks.append(current)
    return chunks


def content_hash(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def chunk_document(
    doc: SourceDoc,
    count: TokenCounter,
    window: int = DEFAULT_WINDOW,
    overlap_tokens: int = DEFAULT_OVERLAP,
) -> list[Chunk]:
    """Chunks of `doc` whose embedded text (title > section + text) fits `window` word pieces."""
    doc_key = content_hash(doc.source, doc.doc_id, doc.lang)[:10]
    chunks: list[Chunk] = []
    seen: set[str] = set()
    for section in split_sections(doc.text, doc.title) or [Section([], doc.title)]:
        section_path = " > ".join(section.path)
        head = doc.title if not section_path else f"{doc.title} > {section_path}"
        head_tokens = count(head) + 1  # +1: the newline between head and text is free, but be safe
        if head_tokens > window // 4:
            # An absurd heading must not starve the text: keep its first quarter.
            head = _hard_split(head, window // 4, count)[0]
            section_path = head[len(doc.title) + 3:] if head.startswith(doc.title + " > ") else head
            head_tokens = count(head) + 1
        budget = window - SPECIAL_TOKENS - head_tokens
        for text in pack(section.body, budget, count, overlap_tokens):
            digest = content_hash(CHUNK_FORMAT, doc.doc_id, doc.title, section_path, doc.lang, doc.source,
                                  doc.topics, text, doc.dense_text)
            if digest in seen:  # the same paragraph twice in one document
                digest = content_hash(digest, len(chunks))
            seen.add(digest)
            chunks.append(
                Chunk(
                    chunk_id=f"{doc_key}-{digest[:16]}",
                    doc_id=doc.doc_id,
                    title=doc.title,
                    section=section_path,
                    lang=doc.lang,
                    source=doc.source,
                    text=text,
                    topics=list(doc.topics),
                    ord=len(chunks),
                    content_hash=digest,
                    dense_text=doc.dense_text,
                )
            )
    return chunks
