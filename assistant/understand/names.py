"""Catalog names in free text: one Aho-Corasick automaton per catalog, built once.

Every model, GPU, provider and instance name (key, display name, aliases, and
the short family forms people type: "A100", "4090", "910B") is compacted —
lower case, spaces/dashes/underscores/slashes removed — and put in one
automaton. The text is compacted the same way, keeping a map back to the
original positions, so "Llama 2 13B", "llama-2-13b" and "llama213b" match
one entry. Two guards keep it precise:

* a match never starts or ends inside a longer token ("A10" in "A100",
  "T4" in "GT4"); a plural "s" ("A100s") and count prefixes ("8xA100") are
  allowed at the edges;
* a short name written without separators ("A100", "T4", "H20") must appear
  without separators too: "a 100 dollars" is not an A100.

Overlaps resolve longest first. Scanning a turn is O(len(text)).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import ahocorasick
import yaml

from tools.catalog import Catalog

SEPARATORS = " \t\n\r-_/:"  # ":" as in ollama tags ("qwen2.5:14b")
MIN_FLEXIBLE = 5  # compact names at least this long may have separators inserted anywhere
LEXICON_PATH = Path(__file__).with_name("lexicon.yaml")


_CONTINUES = re.compile(r"[-_][A-Za-z][A-Za-z0-9.]*(?:[-_][A-Za-z0-9.]+)*?[-_]?\d+(?:\.\d+)?[bB](?![A-Za-z0-9])")


@dataclass(frozen=True)
class NameHit:
    kind: str  # model | gpu | provider | instance
    key: str  # catalog key ('provider/instance' for instances)
    start: int  # span in the original text
    end: int
    surface: str


def compact(text: str) -> tuple[str, list[int], list[bool]]:
    """Lower-cased text without separators; original index of each kept char; whether a separator preceded it."""
    out: list[str] = []
    index: list[int] = []
    sep_before: list[bool] = []
    pending = False
    for i, ch in enumerate(text):
        if ch in SEPARATORS:
            pending = True
            continue
        out.append(ch.lower())
        index.append(i)
        sep_before.append(pending)
        pending = False
    return "".join(out), index, sep_before


def _alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _family_forms(key: str, name: str) -> set[str]:
    """Short forms people type for a GPU: 'A100-80GB' -> 'A100', 'A100 80G'; 'RTX-4090' -> '4090'; 'Ascend-910B' -> '910B'."""
    forms: set[str] = set()
    base = re.sub(r"(?i)^(nvidia|amd|huawei)\s+", "", name)
    for text in (key, base):
        t = re.sub(r"(?i)[-\s]?(sxm\d?|pcie|nvl)$", "", text)
        m = re.match(r"(?i)^(.*?)[-\s]?(\d+)\s?gb?$", t)
        if m and m.group(1):
            forms.add(m.group(1))  # A100
            forms.add(f"{m.group(1)} {m.group(2)}G")  # A100 80G
            forms.add(f"{m.group(1)} {m.group(2)}GB")
        forms.add(t)
        stripped = re.sub(r"(?i)^(rtx|geforce rtx|tesla|quadro|ascend|instinct|radeon pro)[-\s]+", "", t)
        if stripped != t and re.search(r"\d", stripped) and len(stripped) >= 4:
            forms.add(stripped)  # 4090, 910B, A6000
    return {f for f in forms if f}


def _family_default_rank(gpu) -> tuple:
    """Which variant a bare family name means: SXM over PCIe/NVL, then the largest memory."""
    k = gpu.key.lower()
    form_penalty = 1 if ("pcie" in k or "nvl" in k) else 0
    return (form_penalty, -gpu.memory_gb)


class NameMatcher:
    """All catalog names of one catalog in one automaton (build once, share between conversations)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        lexicon = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8")) or {}
        entries: dict[str, tuple[str, str, bool]] = {}  # compact name -> (kind, key, strict)
        priority: dict[str, int] = {}

        def add(kind: str, key: str, name: str, rank: int = 0) -> None:
            c, _, _ = compact(name)
            if len(c) < 2:
                return
            strict = not any(s in name for s in SEPARATORS) and len(c) < MIN_FLEXIBLE
            # an explicit name (rank 0) beats a generated family form (rank 1) for the same string
            if c not in entries or rank < priority[c]:
                entries[c] = (kind, key, strict)
                priority[c] = rank

        for m in catalog.models.values():
            for n in (m.key, m.name, *m.aliases):
                add("model", m.key, n)
        families: dict[str, list] = {}
        for g in catalog.gpus.values():
            for n in (g.key, g.name, *g.aliases):
                add("gpu", g.key, n)
            for f in _family_forms(g.key, g.name):
                families.setdefault(compact(f)[0], []).append((f, g))
        for forms in families.values():
            f, g = min(forms, key=lambda fg: _family_default_rank(fg[1]))
            add("gpu", g.key, f, rank=1)
        for p in catalog.providers.values():
            for n in (p.key, p.name, p.name_zh):
                if n and (len(n) >= 3 or not n.isascii()):  # "do" (DigitalOcean) is an English word
                    add("provider", p.key, n)
        for key, aliases in (lexicon.get("provider_aliases") or {}).items():
            for n in aliases:
                add("provider", key, str(n), rank=1)
        gpu_compacts = {c for c, (kind, _, _) in entries.items() if kind == "gpu"}
        self.instance_keys: dict[str, list[str]] = {}  # one instance id offered by several providers (aws / aws-china)
        for i in catalog.instances:
            c = compact(i.instance)[0]
            # an instance named like a GPU ("H100" at a marketplace) would shadow the GPU
            if c in gpu_compacts or len(c) < 5 or not re.search(r"[.\-_]", i.instance):
                continue
            add("instance", f"{i.provider}/{i.instance}", i.instance)
            keys = self.instance_keys.setdefault(c, [])
            if f"{i.provider}/{i.instance}" not in keys:
                keys.append(f"{i.provider}/{i.instance}")
            short = re.sub(r"^(?:Standard_|standard-)", "", i.instance)
            if short != i.instance and len(compact(short)[0]) >= 6:
                add("instance", f"{i.provider}/{i.instance}", short)  # Azure ids are written without "Standard_"
        self._entries = entries
        self._auto = ahocorasick.Automaton()
        for c, value in entries.items():
            self._auto.add_word(c, (c, *value))
        self._auto.make_automaton()

    # ------------------------------------------------------------------ scanning

    def scan(self, text: str) -> list[NameHit]:
        """Non-overlapping names in `text`, longest first, in text order."""
        comp, index, sep_before = compact(text)
        candidates: list[tuple[int, int, str, str, bool]] = []
        for end, (c, kind, key, strict) in self._auto.iter(comp):
            start = end - len(c) + 1
            if strict and any(sep_before[start + 1 : end + 1]):
                continue
            o_start, o_end = index[start], index[end] + 1
            if not self._left_ok(text, o_start) or not self._right_ok(text, o_end):
                continue
            candidates.append((o_start, o_end, kind, key, strict))
        candidates.sort(key=lambda c: (-(c[1] - c[0]), c[0]))
        taken: list[tuple[int, int, str, str, bool]] = []
        for cand in candidates:
            if all(cand[1] <= t[0] or cand[0] >= t[1] for t in taken):
                taken.append(cand)
        taken.sort()
        # "DeepSeek-R1-Distill-Qwen-32B" is not DeepSeek-R1: a model name that continues into another size is another model
        taken = [c for c in taken if not (c[2] == "model" and _CONTINUES.match(text, c[1]))]
        return [NameHit(kind, key, s, e, text[s:e]) for s, e, kind, key, _ in taken]

    @staticmethod
    def _left_ok(text: str, start: int) -> bool:
        if start == 0 or not _alnum(text[start - 1]):
            return True
        # "8xA100", "2×4090": a count prefix glued to the name
        return text[start - 1] in "xX" and start >= 2 and text[start - 2].isdigit()

    @staticmethod
    def _right_ok(text: str, end: int) -> bool:
        if end >= len(text):
            return True
        ch = text[end]
        if ch == "." and end + 1 < len(text) and text[end + 1].isdigit():
            return False  # "qwen2" inside "qwen2.5"
        if not _alnum(ch):
            return True
        nxt = text[end + 1] if end + 1 < len(text) else ""
        if ch in "sS" and not _alnum(nxt):
            return True  # plural: "A100s"
        if ch in "xX*" and nxt.isdigit():
            return True  # "A100x8"
        return False

    def instance_choices(self, hit: NameHit) -> list[str]:
        """Every provider's key for the instance id a hit names (first: the one the automaton returned)."""
        keys = self.instance_keys.get(compact(hit.surface)[0]) or []
        return [hit.key, *[k for k in keys if k != hit.key]]

    def hits(self, text: str, kind: str) -> list[NameHit]:
        return [h for h in self.scan(text) if h.kind == kind]

    def keys(self, text: str, kind: str) -> list[str]:
        return list(dict.fromkeys(h.key for h in self.hits(text, kind)))

    def all_names(self, kinds: Iterable[str] = ("model", "gpu", "provider", "instance")) -> dict[str, tuple[str, str]]:
        """compact name -> (kind, key), for tests and fuzzy fallbacks."""
        wanted = set(kinds)
        return {c: (kind, key) for c, (kind, key, _) in self._entries.items() if kind in wanted}
