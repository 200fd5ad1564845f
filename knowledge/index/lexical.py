"""BM25 over both languages: jieba words for Chinese, lightly stemmed words for English.

MiniLM cannot read Chinese, so this index carries Chinese queries. One index
holds both languages: Chinese and English tokens rarely collide, and the
shared ones (A100, OOM, FP8, NVLink) should match across languages anyway.
"""

from __future__ import annotations

import logging
import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import yaml

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
# Latin words keep inner digits/dots/plus ("a100", "fp8", "1.5", "c++"); CJK runs handled separately.
_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+|[a-z0-9]+(?:[.+][a-z0-9]+)*\+*")

EN_STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being below between both but
    by can could did do does doing down during each few for from further had has have having he her here hers him his
    how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over
    own same she should so some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your yours one get
    need want use using used much many like should""".split()
)
ZH_STOPWORDS = frozenset(
    """的 了 是 在 和 与 及 或 也 都 就 而 又 把 被 让 给 对 从 向 到 为 以 之 其 这 那 这个 那个 这些 那些 一个 一些 我 我们
    你 你们 他 她 它 他们 吗 呢 吧 啊 呀 么 什么 怎么 怎样 如何 哪个 哪些 哪 为什么 多少 是否 可以 能 能否 应该 需要 要 会 有 没有
    还是 还 请问 请 一下 时候 时 中 上 下 里 后 前 等 比较 更 最 很 非常 可能 如果 因为 所以 但是 但 并 且 而且 个 种 些 吗？""".split()
)

_KEEP_S = frozenset("bus status corpus virus focus bonus campus nexus versus plus gas always perhaps".split())

_jieba_lock = threading.Lock()


def _glossary_path() -> Path:
    return Path(__file__).with_name("glossary.yaml")


@lru_cache(maxsize=1)
def glossary() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(Chinese term, English equivalents) pairs, longest Chinese term first."""
    data = yaml.safe_load(_glossary_path().read_text(encoding="utf-8")) or {}
    pairs = [(zh, tuple(en if isinstance(en, list) else [en])) for zh, en in data.items()]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


@lru_cache(maxsize=1)
def _segmenter():
    """A private jieba Tokenizer (not jieba's global one) that knows our domain words."""
    import jieba

    jieba.setLogLevel(logging.WARNING)  # otherwise it prints "Building prefix dict..." to stderr
    tok = jieba.Tokenizer()
    tok.initialize()
    for zh, _ in glossary():
        if len(zh) >= 2:
            tok.add_word(zh, freq=20000)
    return tok


def segment_zh(text: str) -> list[str]:
    """jieba search-mode words (long words also yield their parts: 竞价实例 → 竞价, 实例, 竞价实例)."""
    tok = _segmenter()
    with _jieba_lock:  # jieba's tokenizer caches per instance; cheap to serialise
        return [w for w in tok.cut_for_search(text, HMM=True) if w.strip()]


def stem(word: str) -> str:
    """Light English stemming: plurals and -ing/-ed, enough for 'checkpoints' ~ 'checkpointing'."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, repl, min_len in (
        ("ies", "y", 5),
        ("sses", "ss", 5),
        ("ing", "", 6),
        ("ed", "", 5),
        ("es", "", 5),
        ("s", "", 4),
    ):
        if word.endswith(suffix) and len(word) >= min_len:
            if suffix == "s" and (word.endswith(("ss", "is")) or word in _KEEP_S):
                return word
            if suffix == "es" and not word.endswith(("ches", "shes", "xes", "sses")):
                continue
            return word[: len(word) - len(suffix)] + repl
    return word


def tokenize(text: str) -> list[str]:
    """Index/query tokens for mixed Chinese-English text."""
    tokens: list[str] = []
    for match in _TOKEN.finditer(text.lower()):
        piece = match.group(0)
        if _CJK_RUN.fullmatch(piece):
            tokens.extend(w for w in segment_zh(piece) if w not in ZH_STOPWORDS)
        elif piece not in EN_STOPWORDS:
            tokens.append(stem(piece))
    return tokens


def expand_query(text: str) -> tuple[list[str], list[str]]:
    """Glossary translations of the query's terms: (English for a Chinese query, Chinese for an English one).

    Lets a Chinese question reach an English-only passage and the reverse, and
    gives the English-only MiniLM something to read for a Chinese question.
    """
    lowered = text.lower()
    english: list[str] = []
    chinese: list[str] = []
    remaining = text
    for zh, ens in glossary():
        if zh in remaining:
            english.extend(ens)
            remaining = remaining.replace(zh, " ")
        for en in ens:
            if re.search(rf"(?<![a-z0-9]){re.escape(en.lower())}(?![a-z0-9])", lowered):
                chinese.append(zh)
                break
    return list(dict.fromkeys(english)), list(dict.fromkeys(chinese))


class LexicalIndex:
    """bm25s over pre-tokenised chunks; scores are read-only after build, so searches may run in parallel.

    Versioned like the dense side: it is built from exactly the records of the
    collections one pointer names, never persisted on its own, and carries that
    pointer's `generation`, so BM25 and the vectors always answer from the same
    complete generation (a reader that sees the pointer move rebuilds both).
    """

    def __init__(self, texts: Sequence[str], generation: int = 0):
        import bm25s

        self.generation = generation
        self.size = len(texts)
        self._bm25 = bm25s.BM25(k1=1.2, b=0.75)
        corpus = [tokenize(t) or ["\u2400"] for t in texts]  # an empty document still needs a token
        if corpus:
            self._bm25.index(corpus, show_progress=False)

    def scores(self, tokens: Iterable[str]) -> np.ndarray:
        tokens = list(dict.fromkeys(tokens))
        if not tokens or not self.size:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(tokens), dtype=np.float32)
