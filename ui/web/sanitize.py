"""Markdown that shows what was written but cannot run, load or hide anything when someone opens it.

The exported recommendation (`ui.web.export`) quotes the user's question and our
answer, which may echo the user's words. Opened in a Markdown viewer that passes
raw HTML through (many editors' previews, wikis, some ticket systems), a
`<script>` or `<img onerror=…>` typed into the question would run. `safe_markdown`
keeps the text a reader sees and removes what a renderer would act on:

- raw HTML: every `<` that could open a tag, a comment, a declaration, a
  processing instruction or an autolink (`<` + letter, `/`, `!`, `?`) becomes
  `&lt;`, which every CommonMark renderer shows as "<". A few presentational tags
  without attributes (`<sub>`, `<br>` …, see `KEPT_TAGS`) are kept: our own panel
  captions use `<sub>`. This is applied inside code spans too: whether a backtick
  opens a code span depends on the renderer (escapes, run lengths), and guessing
  wrong would let a tag through; the cost is "&lt;" shown inside code.
- links, inline or as reference definitions, keep their syntax only when the
  target is a web or mail address, an anchor or a relative path; any other scheme
  (`javascript:`, `data:`, `vbscript:`, `file:` …), or a target spelled with an
  entity or a percent escape where the scheme would be, loses it. Every image
  loses it: an image from the question would be fetched from someone's server as
  soon as the file is viewed.
- control characters (C0 and C1, except tab and newline; CR LF becomes LF) and
  the bidirectional embedding/override/isolate controls (U+202A–U+202E,
  U+2066–U+2069, "Trojan Source", CVE-2021-42574) are removed; lone surrogates
  (which cannot be written as UTF-8) become U+FFFD.

Pure and idempotent: `safe_markdown(safe_markdown(x)) == safe_markdown(x)`.
"""

from __future__ import annotations

import re

KEPT_TAGS = ("sub", "sup", "br", "b", "i", "em", "strong", "code", "kbd")
_KEPT = re.compile(r"</?(?:" + "|".join(KEPT_TAGS) + r")\s*/?>", re.IGNORECASE)
_OPENER = re.compile(r"<(?=[A-Za-z/!?])")
# a link target kept as a link: web and mail addresses, in-page anchors, relative paths (no scheme, no entity)
_SAFE_TARGET = r"(?:https?://|mailto:|#|\.{0,2}/|[\w.~-]+(?=[/#?)\s]|$))"
# [text](target — the "](" is what makes it a link; the target may sit in <…> (already escaped to &lt;)
_INLINE_LINK = re.compile(r"\]\(\s*+(?:<|&lt;)?+\s*+(?!" + _SAFE_TARGET + ")")  # possessive: no backtracking
# [ref]: target — a reference definition (up to 3 spaces of indent, possibly inside quotes)
_REFERENCE = re.compile(r"^((?:\s{0,3}>)*\s{0,3})\[(?=[^\]\n]*\]:\s*+(?:<|&lt;)?+\s*+(?!" + _SAFE_TARGET + "))",
                        re.MULTILINE)
_IMAGE = re.compile(r"(?<!\\)!\[")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def safe_markdown(text: str) -> str:
    """`text` with raw HTML, script/data links, images and invisible controls neutralised (see the module doc)."""
    text = _SURROGATE.sub("\ufffd", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROLS.sub("", text)
    text = _escape_tags(text)
    text = _INLINE_LINK.sub(lambda m: "]\\(" + m.group(0)[2:], text)  # "]\\(" is no longer a link
    text = _REFERENCE.sub(lambda m: m.group(1) + "\\[", text)
    return _IMAGE.sub("!\\[", text)


def _escape_tags(text: str) -> str:
    out, pos = [], 0
    for m in _OPENER.finditer(text):
        if m.start() < pos:
            continue
        kept = _KEPT.match(text, m.start())
        if kept:
            out.append(text[pos:kept.end()])
            pos = kept.end()
            continue
        out.append(text[pos:m.start()] + "&lt;")
        pos = m.start() + 1
    out.append(text[pos:])
    return "".join(out)
