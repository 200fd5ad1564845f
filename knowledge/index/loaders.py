"""Read Markdown, text, HTML and PDF files into `SourceDoc`s.

A file that cannot be read (permissions, not UTF-8, broken PDF) raises
`SkipFile` with a message that names it and says how to fix it; the builder
turns that into a warning and indexes the rest.
"""

from __future__ import annotations

import html.parser
import re
from pathlib import Path
from typing import Any

import yaml

from knowledge.index.documents import SourceDoc, detect_lang

MARKDOWN = {".md", ".markdown"}
TEXT = {".txt", ".text"}
HTML = {".html", ".htm"}
PDF = {".pdf"}
SUPPORTED = MARKDOWN | TEXT | HTML | PDF

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_LANG_SUFFIX = re.compile(r"\.(zh|en|zh-cn|zh_cn)$", re.I)


class SkipFile(Exception):
    """This file is left out of the index; the message says why and what to do."""


def supported(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED


def read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as err:
        raise SkipFile(f"skipped {path}: cannot read it ({err.strerror or err}); check its permissions") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SkipFile(f"skipped {path}: not UTF-8 text; re-save it as UTF-8") from None


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """YAML between leading '---' lines, and the body after it."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError:
        return {}, text
    if not isinstance(meta, dict):
        return {}, text
    return meta, text[match.end():]


def _slug(text: str) -> str:
    return re.sub(r"[^\w\-]+", "-", text.strip().lower()).strip("-") or "doc"


def _first_heading(body: str) -> str | None:
    for line in body.splitlines():
        m = re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", line)
        if m:
            return m.group(1)
    return None


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if str(v).strip()]
    return [str(value)]


def load_markdown(path: Path, default_id: str) -> SourceDoc:
    meta, body = split_front_matter(read_text(path))
    stem = _LANG_SUFFIX.sub("", path.stem)
    lang = str(meta.get("lang") or "").strip().lower()
    if not lang:
        suffix = _LANG_SUFFIX.search(path.stem)
        lang = suffix.group(1).lower() if suffix else ""
    lang = "zh" if lang.startswith("zh") else "en" if lang.startswith("en") else detect_lang(body)
    return SourceDoc(
        doc_id=str(meta.get("id") or default_id or _slug(stem)),
        title=str(meta.get("title") or _first_heading(body) or stem),
        lang=lang,
        text=body,
        source=str(path),
        topics=_as_list(meta.get("topics")),
        derived_from=", ".join(_as_list(meta.get("derived_from"))),
    )


def load_text(path: Path, default_id: str) -> SourceDoc:
    body = read_text(path)
    return SourceDoc(doc_id=default_id, title=path.stem, lang=detect_lang(body), text=body, source=str(path))


class _HTMLToMarkdown(html.parser.HTMLParser):
    """Keeps headings as '#' lines and block elements as paragraphs; drops scripts and styles."""

    BLOCKS = {"p", "div", "li", "tr", "br", "section", "article", "table", "ul", "ol", "pre", "blockquote"}
    SKIP = {"script", "style", "noscript", "template", "svg"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.title = ""
        self._in_title = False
        self._skip = 0
        self._heading: int | None = None

    def _flush(self) -> None:
        text = " ".join("".join(self.current).split())
        if text:
            prefix = "#" * self._heading + " " if self._heading else ""
            self.lines.append(prefix + text)
        self.current = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in self.SKIP:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self._heading = int(tag[1])
        elif tag in self.BLOCKS:
            self._flush()
        elif tag in ("td", "th"):
            self.current.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self._heading = None
        elif tag in self.BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
            return
        self.current.append(data)


def load_html(path: Path, default_id: str) -> SourceDoc:
    parser = _HTMLToMarkdown()
    parser.feed(read_text(path))
    parser.close()
    parser._flush()
    body = "\n\n".join(parser.lines)
    title = " ".join(parser.title.split()) or _first_heading(body) or path.stem
    return SourceDoc(doc_id=default_id, title=title, lang=detect_lang(body), text=body, source=str(path))


def load_pdf(path: Path, default_id: str) -> SourceDoc:
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:  # pragma: no cover - pypdf is a dependency
        raise SkipFile(f"skipped {path}: PDF support needs pypdf (pip install pypdf)") from None
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            raise SkipFile(f"skipped {path}: the PDF is encrypted; save an unprotected copy")
        pages = [page.extract_text() or "" for page in reader.pages]
        info_title = (reader.metadata.title if reader.metadata else None) or ""
    except SkipFile:
        raise
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as err:
        raise SkipFile(f"skipped {path}: not a readable PDF ({err.__class__.__name__}); re-export it") from None
    # PDFs have no headings we can trust: each page becomes a section so citations say where.
    body = "\n\n".join(f"## Page {n}\n\n{text.strip()}" for n, text in enumerate(pages, 1) if text.strip())
    if not body:
        raise SkipFile(f"skipped {path}: no extractable text (a scanned PDF?); run OCR first")
    return SourceDoc(
        doc_id=default_id, title=str(info_title).strip() or path.stem, lang=detect_lang(body), text=body, source=str(path)
    )


def load_file(path: Path, default_id: str) -> SourceDoc:
    """Read one supported file; raises SkipFile when it cannot be used."""
    suffix = path.suffix.lower()
    if suffix in MARKDOWN:
        doc = load_markdown(path, default_id)
    elif suffix in TEXT:
        doc = load_text(path, default_id)
    elif suffix in HTML:
        doc = load_html(path, default_id)
    elif suffix in PDF:
        doc = load_pdf(path, default_id)
    else:
        raise SkipFile(f"skipped {path}: unsupported file type '{suffix}' (use {', '.join(sorted(SUPPORTED))})")
    if not doc.text.strip():
        raise SkipFile(f"skipped {path}: the file is empty")
    return doc


def user_doc_id(path: Path, root: Path) -> str:
    """Stable id for a user's file: 'local:' + its path under the folder they named."""
    try:
        rel = path.relative_to(root) if root.is_dir() else Path(path.name)
    except ValueError:
        rel = Path(path.name)
    parts = [_slug(p) for p in rel.with_suffix("").parts]
    return "local:" + "/".join(parts)
