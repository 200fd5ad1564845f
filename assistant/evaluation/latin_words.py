"""The Latin-script words left in an answer after removing a closed list of names and terms (issue 10).

A Chinese answer may keep names (A100-80GB, Qwen2.5-7B, p4d.24xlarge, RunPod, us-east-1), established terms
(LoRA, NVLink, vLLM, bf16, KV cache, GiB), URLs and code; every other Latin word is English left untranslated.
What is removed, and nothing else:

* **catalog names, read from the catalog**: GPU keys, names, aliases and the tokens of their keys and names that
  carry a digit (H100, SXM5, A6000) plus the first word of each GPU name and alias (NVIDIA, GeForce, Tesla,
  Instinct); model keys, names, aliases,
  the first word of each key (llama, qwen2.5, mixtral) and its tokens with a digit; provider keys, names (also
  without their parenthetical, e.g. "Amazon Web Services"), Chinese names and first words (Alibaba, Tencent);
  instance ids (with and without the provider prefix, Azure ids also without "Standard_"), instance families and
  region names. A name matches with its separators (space, '-', '_', '.') written any way ("RTX 4090" =
  "RTX-4090" = "rtx4090"), without case, and never inside a longer Latin token. Short all-letter names (three
  letters or fewer: AWS, US, yi) match only as the catalog writes them or in capitals, and a name that is an
  English function word ("do", "is", "as") or a plain lower-case word from a parenthetical or region ("base",
  "default") is never used: those would hide exactly the words this counter exists to find;
* **the committed term list** `terms.txt` (see its header for what belongs there), matched the same way; a term
  followed by a version digit (ZeRO-3, HBM3e) or preceded by a number (80GB, 7B, 4k, 8x) counts as the term;
* **URLs** (with a scheme, or a host and path such as github.com/org/repo) and the identifiers that stand for one
  (arXiv:2411.02355, doi:10.1145/3600006.3613165), **code** (fenced blocks and `inline spans`), **HTML tags and
  entities and Markdown syntax** (`*`, table pipes and rules), which are not words;
* **a gloss**: the original English of a Chinese term, in parentheses right after it, "可用区（Availability Zone，AZ）"
  or "连续批处理 (continuous batching)". The reader has the Chinese; the gloss only names the source term. A gloss
  is at most four Latin words in one or two comma-separated parts, nothing else inside the parentheses, and it
  must follow a Chinese character (Markdown emphasis or a space may sit between); "按 on-demand 计费", an English
  parenthetical after Latin text, or one holding a Chinese word still count.

A word is a run of ASCII letters, digits and the joiners `_ ' . + / -` that holds at least one letter and is
longer than one letter (a lone letter is a symbol: N and D in 6·N·D; numbers like 8.09e+22 are numbers); a
compound joined by '/' counts per part ("LoRA/QLoRA" is two terms), any other compound once ("on-demand" is one
English word). The counter is built once per catalog (one Aho-Corasick automaton over names and terms) and is
pure afterwards: `leftover(text)` returns the words in text order.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import ahocorasick

TERMS_PATH = Path(__file__).with_name("terms.txt")

# English function words (the scorer's language detector uses the same idea): never a name here, or a name
# such as DigitalOcean's key "do" would erase the very words that show an answer is English.
FUNCTION_WORDS = frozenset(
    "a an the of and or to in on at for from by with as into over under than that this these those it its "
    "is are was were be been has have had do does not no can will would should if when which what who how "
    "you your we our they their there per also but only more so".split()
)

_SEPARATORS = frozenset(" \t\r\n\u00a0-_.")
_ALNUM = re.compile(r"[A-Za-z0-9]")
_LETTER = re.compile(r"[A-Za-z]")
_PLAIN_LOWER = re.compile(r"^[a-z]+$")
_SHORT_LETTERS = re.compile(r"^[A-Za-z]{1,3}$")

_FENCED = re.compile(r"(```|~~~).*?(?:\1|\Z)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]{}，。；、）】》]+", re.IGNORECASE)
# A URL written without its scheme: host.tld/path (huggingface.co/datasets/..., github.com/org/repo).
_BARE_URL = re.compile(
    r"(?<![\w.@-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|ai|co|cn|dev|edu|gov|me|app|sh|info)/[^\s<>()\[\]{}，。；、）】》]*",
    re.IGNORECASE,
)
# An identifier that names a paper the way a URL does: arXiv:2411.02355 (arXiv:2306.00978v5), doi:10.1145/...
_PAPER_ID = re.compile(r"(?<![\w.])(?:arXiv:\s?\d{4}\.\d{4,5}(?:v\d+)?|doi:\s?10\.\d{4,9}/[^\s<>()\[\]{}，。；、）】》]+)",
                       re.IGNORECASE)
_GLOSS_WORDS = r"[A-Za-z][A-Za-z0-9'’.\-]*(?:[ \t]+[A-Za-z0-9][A-Za-z0-9'’.\-]*)*"
# A Chinese character, optional space or emphasis left by markup removal, then (English) or （English，EN）.
_GLOSS = re.compile(
    rf"(?<=[\u3400-\u4dbf\u4e00-\u9fff])[ \t]{{0,4}}(?P<gloss>[（(][ \t]*{_GLOSS_WORDS}(?:[ \t]*[，,][ \t]*{_GLOSS_WORDS})?[ \t]*[)）])"
)
GLOSS_MAX_WORDS = 4
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>|<!--.*?(?:-->|\Z)", re.DOTALL)
_ENTITY = re.compile(r"&[A-Za-z]+;|&#\d+;")
_MARKUP = re.compile(r"[*|`]")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_'’.+/\-]*")
_NUMBER_SUFFIX = re.compile(r"^\d+(?:[.,]\d+)*(?P<suffix>[A-Za-z][A-Za-z/]*)$")
_TERM_VERSION = re.compile(r"^(?P<base>[A-Za-z][A-Za-z.]*?)-?\d+(?:\.\d+)?[A-Za-z]?$")
_NUMBER = re.compile(r"^[\d.,]+(?:e[+-]?\d+)?$", re.IGNORECASE)  # 1,024 · 2.5 · 8.09e+22


def load_terms(path: Path = TERMS_PATH) -> list[str]:
    """The committed term list: one term per line, '#' comments and blank lines skipped."""
    terms = []
    for line in path.read_text(encoding="utf-8").splitlines():
        term = line.split("#", 1)[0].strip()
        if term:
            terms.append(term)
    return terms


# ------------------------------------------------------------------ names from the catalog


def _split_parenthetical(name: str) -> list[str]:
    """'Amazon Web Services (AWS)' -> the name, 'Amazon Web Services', and 'AWS'; commas split the parenthetical."""
    out = [name]
    match = re.match(r"^(.*?)\s*[(（](.*)[)）]\s*$", name)
    if match:
        out.append(match.group(1))
        out += [p.strip() for p in re.split(r"[,，]", match.group(2)) if p.strip()]
    return out


def _first_word(name: str) -> str:
    return re.split(r"[\s(（]", name.strip(), maxsplit=1)[0]


def _digit_tokens(name: str) -> list[str]:
    return [t for t in re.split(r"[\s\-_/(),]+", name) if any(c.isdigit() for c in t) and _LETTER.search(t)]


def catalog_names(catalog: Any) -> list[str]:
    """Every name the counter removes, read from a `tools.catalog.Catalog` (see the module docstring)."""
    names: list[str] = []
    loose: list[str] = []  # parentheticals and regions: a plain lower-case word there is prose, not a name
    for g in catalog.gpus.values():
        names += [g.key, g.name, *g.aliases, g.vendor, _first_word(g.name), *(_first_word(a) for a in g.aliases)]
        names += _digit_tokens(g.key) + _digit_tokens(g.name)
        for n in (g.name, *g.aliases):
            loose += _split_parenthetical(n)[1:]
    for m in catalog.models.values():
        names += [m.key, m.name, *m.aliases, m.family, re.split(r"-", m.key, maxsplit=1)[0]]
        names += _digit_tokens(m.key)
        loose += _split_parenthetical(m.name)[1:]
    for p in catalog.providers.values():
        names += [p.key, p.name, _first_word(p.name)]
        if p.name_zh:
            names.append(p.name_zh)
        loose += _split_parenthetical(p.name)[1:]
    for i in catalog.instances:
        names += [i.instance, f"{i.provider}/{i.instance}"]
        short = re.sub(r"^(?:Standard_|standard-)", "", i.instance)
        if short != i.instance:
            names.append(short)
        if i.family:
            names.append(i.family)
        loose.append(i.region.name)
        loose += [p.strip() for p in i.region.name.split(",") if p.strip()]
    kept = [n for n in names if n and n.strip()]
    kept += [n for n in loose if n and n.strip() and not _PLAIN_LOWER.match(n.strip())]
    return [n.strip() for n in dict.fromkeys(kept)]


# ------------------------------------------------------------------ the counter


def _compact(text: str) -> tuple[str, list[int]]:
    """Text without separators, ASCII lower-cased, and for each kept character its index in `text`."""
    chars: list[str] = []
    index: list[int] = []
    for n, ch in enumerate(text):
        if ch in _SEPARATORS:
            continue
        chars.append(ch.lower() if ch.isascii() else ch)
        index.append(n)
    return "".join(chars), index


@dataclass(frozen=True)
class _Entry:
    compact: str
    exact: frozenset[str] | None  # case-sensitive forms for short names; None = any case


def _entry(phrase: str, *, is_name: bool) -> _Entry | None:
    phrase = phrase.strip()
    if not phrase or phrase.lower() in FUNCTION_WORDS:
        return None
    compact, _ = _compact(phrase)
    if not compact:
        return None
    exact = None
    if is_name and _SHORT_LETTERS.match(phrase):
        exact = frozenset({phrase, phrase.upper(), phrase.capitalize()} if phrase.islower() else {phrase, phrase.upper()})
    return _Entry(compact, exact)


class LatinWordCounter:
    """Counts the Latin words an answer keeps besides names and terms. Build once per catalog; then pure."""

    def __init__(self, names: Iterable[str], terms: Iterable[str]):
        self._terms = {t.lower() for t in terms}
        entries: dict[str, list[_Entry]] = {}
        for phrase, is_name in [*((n, True) for n in names), *((t, False) for t in self._terms)]:
            entry = _entry(phrase, is_name=is_name)
            if entry is not None:
                entries.setdefault(entry.compact, []).append(entry)
        self._auto = ahocorasick.Automaton()
        for compact, group in entries.items():
            exact = None if any(e.exact is None for e in group) else frozenset().union(*(e.exact for e in group))
            self._auto.add_word(compact, (compact, exact))
        self._auto.make_automaton()

    @classmethod
    def from_catalog(cls, catalog: Any, terms_path: Path = TERMS_PATH) -> LatinWordCounter:
        return cls(catalog_names(catalog), load_terms(terms_path))

    # -------------------------------------------------------------- removal

    @staticmethod
    def strip_markup(text: str) -> str:
        """Code, URLs, HTML and Markdown syntax replaced by spaces (they are not words)."""
        for pattern in (_FENCED, _INLINE_CODE, _HTML_TAG, _URL, _BARE_URL, _PAPER_ID, _ENTITY, _MARKUP):
            text = pattern.sub(" ", text)
        return text

    @staticmethod
    def strip_glosses(text: str) -> str:
        """Each gloss (see the module docstring) replaced by spaces; run after `strip_markup`."""

        def blank(m: re.Match[str]) -> str:
            words = re.findall(r"[A-Za-z0-9][A-Za-z0-9'’.\-]*", m.group("gloss"))
            if len(words) > GLOSS_MAX_WORDS:
                return m.group(0)
            return m.group(0)[: m.start("gloss") - m.start()] + " " * len(m.group("gloss"))

        return _GLOSS.sub(blank, text)

    def _blank_names(self, text: str) -> str:
        comp, index = _compact(text)
        spans: list[tuple[int, int]] = []
        for end, (compact, exact) in self._auto.iter(comp):
            start = end - len(compact) + 1
            o_start, o_end = index[start], index[end] + 1
            if o_start > 0 and _ALNUM.match(text[o_start - 1]):
                continue  # inside a longer token on the left
            if o_end < len(text) and _ALNUM.match(text[o_end]):
                continue  # ... or on the right
            if exact is not None and text[o_start:o_end] not in exact:
                continue
            spans.append((o_start, o_end))
        spans.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
        taken: list[tuple[int, int]] = []
        for s in spans:
            if all(s[1] <= t[0] or s[0] >= t[1] for t in taken):
                taken.append(s)
        chars = list(text)
        for s, e in taken:
            chars[s:e] = " " * (e - s)
        return "".join(chars)

    def _is_known(self, token: str) -> bool:
        low = token.lower()
        if low in self._terms or _NUMBER.match(token):
            return True
        m = _NUMBER_SUFFIX.match(token)
        if m and m.group("suffix").lower() in self._terms:
            return True  # 80GB, 7B, 4k, 8x, 20ms
        m = _TERM_VERSION.match(token)
        if m and m.group("base").lower() in self._terms:
            return True  # ZeRO-3, HBM3e, PCIe5
        if "/" in token:
            parts = [p for p in token.split("/") if p]
            return bool(parts) and all(self._is_known(p) or not _LETTER.search(p) for p in parts)
        return False

    def _words(self, token: str) -> list[str]:
        token = token.strip("_'’.+/-")
        if not token or not _LETTER.search(token) or self._is_known(token):
            return []
        if len(token) == 1:
            return []  # a single letter is a symbol (N and D in 6·N·D), not a word
        if "/" in token:  # "LoRA/QLoRA": each part on its own
            return [w for part in token.split("/") for w in self._words(part)]
        return [token]

    def leftover(self, text: str) -> list[str]:
        """The Latin words of `text` that are neither names nor terms, in text order."""
        cleaned = self._blank_names(self.strip_glosses(self.strip_markup(text)))
        return [w for tok in _TOKEN.findall(cleaned) for w in self._words(tok)]

    def count(self, text: str) -> int:
        return len(self.leftover(text))


# ------------------------------------------------------------------ the default counter

_LOCK = threading.Lock()
_BUILT: dict[int, tuple[Any, LatinWordCounter]] = {}


def counter_for(catalog: Any) -> LatinWordCounter:
    """The counter for this catalog object, built on first use (the catalog loader caches catalogs the same way)."""
    with _LOCK:
        hit = _BUILT.get(id(catalog))
        if hit is None or hit[0] is not catalog:
            hit = (catalog, LatinWordCounter.from_catalog(catalog))
            _BUILT.clear()  # one catalog at a time: a changed catalog replaces the old counter
            _BUILT[id(catalog)] = hit
        return hit[1]


def default_counter() -> LatinWordCounter:
    """The counter for the configured catalog (built-in data plus GPU_ADVISOR_CATALOG_DIR), as the advisor loads it."""
    from knowledge.catalog import load_catalog

    return counter_for(load_catalog())
