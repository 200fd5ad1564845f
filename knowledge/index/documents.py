"""The records indexing passes around: a source document and its chunks.

Plain dataclasses inside the index; `knowledge.passages.Passage` is what leaves it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# CJK Unified Ideographs (+ extension A) and CJK punctuation / full-width forms.
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def detect_lang(text: str) -> str:
    """'zh' when Chinese carries the sentence, else 'en'.

    A Chinese word is about two characters, so Chinese wins when half its
    character count reaches the number of Latin words: "显存不足会导致OOM错误"
    and "A100 和 H100 哪个更适合训练" are Chinese, "How do I size 显存?" is not.
    """
    cjk = len(_CJK.findall(text))
    if cjk == 0:
        return "en"
    return "zh" if cjk / 2 >= len(_LATIN_WORD.findall(text)) else "en"


@dataclass
class SourceDoc:
    """One document in one language, as read from a file or generated from the catalog."""

    doc_id: str
    title: str
    lang: str
    text: str  # Markdown-ish body: '#' headings delimit sections
    source: str  # file path, or 'catalog'
    topics: list[str] = field(default_factory=list)
    derived_from: str = ""
    # What the dense model reads for every chunk of this document instead of the chunk itself.
    # Catalog cards set it to their English head line: a vector of a list of numbers finds
    # nothing, and the Chinese card shares the English one's vector (MiniLM cannot read Chinese).
    dense_text: str | None = None


@dataclass
class Chunk:
    chunk_id: str
    doc_id: str
    title: str
    section: str  # heading path, 'A > B'
    lang: str
    source: str
    text: str  # the passage as shown to people (no title prefix)
    topics: list[str] = field(default_factory=list)
    ord: int = 0  # position within its document
    content_hash: str = ""
    dense_text: str | None = None

    @property
    def embed_text(self) -> str:
        """What the dense model reads: title and section path first, so a chunk
        that says 'use spot with checkpoints' still knows it is about billing."""
        if self.dense_text:
            return self.dense_text
        head = self.title if not self.section else f"{self.title} > {self.section}"
        return f"{head}\n{self.text}"

    def metadata(self) -> dict:
        return {
            "doc_id": self.doc_id,
            "title": self.title,
            "section": self.section,
            "lang": self.lang,
            "source": self.source,
            "chunk_id": self.chunk_id,
            # Chroma rejects empty lists; '' stands for "no topics"
            "topics": list(self.topics) or [""],
            "ord": self.ord,
            "hash": self.content_hash,
        }

    @classmethod
    def from_metadata(cls, chunk_id: str, text: str, meta: dict) -> "Chunk":
        topics = meta.get("topics") or []
        if isinstance(topics, str):
            topics = [t for t in topics.split("|") if t]
        return cls(
            chunk_id=chunk_id,
            doc_id=str(meta.get("doc_id", "")),
            title=str(meta.get("title", "")),
            section=str(meta.get("section", "")),
            lang=str(meta.get("lang", "en")),
            source=str(meta.get("source", "")),
            text=text or "",
            topics=[t for t in topics if t],
            ord=int(meta.get("ord", 0) or 0),
            content_hash=str(meta.get("hash", "")),
        )
