"""Choosing what to quote from retrieved guidance: whole sections for guidance answers, one sentence for caveats."""

from __future__ import annotations

import re

# ASCII full stops end a sentence only before whitespace: "55.74 USD" and "e.g." stay whole
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])\s*|\x01\s*")


def sentences(text: str) -> list[str]:
    text = re.sub(r"^#+ .*$", "", text, flags=re.M)  # headings are titles, not content
    text = re.sub(r"^\|.*\|\s*$", "", text, flags=re.M)  # table rows do not stand alone
    text = re.sub(r"([:：])[ \t]*$", "\\1\x01", text, flags=re.M)  # a lead-in ends where its list or table starts
    text = text.replace("**", "").replace("__", "")
    text = re.sub(r"(?:^|\s*\n)\s*(?:[-*•]|\d+[.)])\s+", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return [s.strip() for s in _SENTENCE_RE.split(text) if len(s.strip()) > 8]


def terms(text: str) -> set[str]:
    low = text.lower()
    words = set(re.findall(r"[a-z][a-z0-9+\-]{2,}", low))
    for run in re.findall(r"[\u4e00-\u9fff]+", low):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words


def best_sentence(passage: dict, question: str) -> str | None:
    """The passage's sentence sharing most words with the question; never a lead-in that ends with a colon."""
    q = terms(question)
    candidates = [s for s in sentences(passage.get("text", "")) if not s.rstrip().endswith((":", "："))]
    if not candidates:
        return None
    return max(candidates, key=lambda s: len(q & terms(s)))


def relevance(passage: dict, question: str) -> int:
    return len(terms(question) & terms(passage.get("title", "") + " " + passage.get("section", "") + " " + passage.get("text", "")))
