"""Checks of one answer against one golden item's `expect`.

Each check is a small pure function `(expect, answer, context) -> CheckResult`
whose failure reason says what was expected and what was found, so a report
reader can tell a wrong answer from a wrong expectation without re-running
anything. Numbers are read from the answer text with the same quantity
extractor the verifier uses (`assistant.quantities.extract_quantities`), so
"2万元", "¥20,000" and "20k CNY" are one amount.

`answer_lang: zh` is strict (issue 10): the answer must read as Chinese and keep at most
`MAX_LATIN_WORDS_ZH` Latin words besides names and established terms (`latin_words.py`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from pydantic import BaseModel

from assistant.answer import Answer
from assistant.evaluation.golden import Expect, GoldenItem, NumberExpect
from assistant.evaluation.latin_words import LatinWordCounter, default_counter
from assistant.evaluation.units import GIB_IN_GB, Unit, parse_unit
from tools.domain import Currency
from tools.schemas import ExchangeRate


class CheckResult(BaseModel):
    name: str
    passed: bool
    reason: str = ""


@dataclass(frozen=True)
class Found:
    """A quantity read from the answer, in its family's canonical unit."""

    value: float  # canonical (money: in `currency`)
    face: float  # as written, in its own unit
    unit: Unit
    text: str


# ------------------------------------------------------------------ text helpers


def fold(text: str) -> str:
    """Case- and width-insensitive form for substring checks (full-width Ａ100 = A100)."""
    return unicodedata.normalize("NFKC", text).casefold()


def squash_gpu(name: str) -> str:
    """GPU names compared without case, spaces, '-' or '_' (issue 6 §1)."""
    return re.sub(r"[\s\-_]+", "", fold(name))


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"\b[A-Za-z]+\b")
# English function words: frequent in any English prose, absent from technical tokens (A100, LoRA, GiB, p4d).
_EN_FUNCTION_WORDS = frozenset(
    "a an the of and or to in on at for from by with as into over under than that this these those it its "
    "is are was were be been has have had do does not no can will would should if when which what who how "
    "you your we our they their there per also but only more so".split()
)


def detect_language(text: str) -> str:
    """'zh' when CJK characters are at least as many as English function words, else 'en'.

    Both languages share the technical vocabulary (A100, LoRA, GiB, p4d.24xlarge, table headers),
    so those tokens count for neither. What tells them apart is prose: Chinese characters on one
    side, English function words ("the", "of", "is", ...) on the other. On the first full run of the
    golden set, English answers scored 0 CJK characters and Chinese answers at least 3.4 characters
    per English function word, so the 1 : 1 threshold leaves wide margins on both sides. An English
    answer that names 阿里云 once stays English; a Chinese question answered with pasted English
    passages reads as English.
    """
    cjk = len(_CJK.findall(text))
    function_words = sum(1 for w in _WORD.findall(text) if w.lower() in _EN_FUNCTION_WORDS)
    if cjk == 0 and function_words == 0:
        return "en" if _WORD.search(text) else "unknown"  # Latin script only, no prose to weigh
    return "zh" if cjk >= function_words else "en"


# ------------------------------------------------------------------ quantities


def _extractor() -> Callable[[str], list[Any]]:
    from assistant.quantities import extract_quantities  # the verifier's extractor (issue 4 §3)

    return extract_quantities


def found_quantities(text: str) -> list[Found]:
    found: list[Found] = []
    for q in _extractor()(text):
        unit = parse_unit(str(getattr(q, "unit", "")))
        if unit is None:
            continue
        value = float(q.value)
        written = getattr(q, "text", None) or f"{value:g} {q.unit}"
        found.append(Found(value=value * unit.factor, face=value, unit=unit, text=str(written).strip()))
    return found


_MAX_LISTED = 8  # figures named in a failure reason; the rest are counted


def _gb_or_gib(unit: Unit) -> bool:
    return unit.family == "memory" and (unit.factor == 1.0 or unit.factor == GIB_IN_GB)


def _matches(expected: NumberExpect, want: Unit, f: Found, fx: ExchangeRate) -> bool:
    target = expected.value * want.factor  # canonical
    candidates = [f.value]
    if want.currency is not None and f.unit.currency is not None:  # money, and money per million tokens
        src, dst = Currency(f.unit.currency), Currency(want.currency)
        candidates = [fx.convert(f.value, src, dst)]
    elif want.family == "memory" and _gb_or_gib(f.unit) and _gb_or_gib(want):
        # GB and GiB are also read at face value (see units.py): "16 GB" in a table and
        # "16 GiB" from a calculator name the same need, 7 % apart.
        candidates.append(f.face * want.factor)
    return any(abs(c - target) <= expected.rel_tol * abs(target) for c in candidates)


def check_numbers(expect: Expect, answer: Answer, fx: ExchangeRate) -> list[CheckResult]:
    results = []
    quantities = found_quantities(answer.answer) if expect.numbers else []
    for n in expect.numbers:
        want = parse_unit(n.unit)
        assert want is not None  # validated at load
        same_family = [f for f in quantities if f.unit.family == want.family]
        if any(_matches(n, want, f, fx) for f in same_family):
            results.append(CheckResult(name="numbers", passed=True, reason=f"found {n.describe()}"))
            continue
        if same_family:
            written = list(dict.fromkeys(f.text for f in same_family))
            seen = ", ".join(written[:_MAX_LISTED]) + (f" (+{len(written) - _MAX_LISTED} more)" if len(written) > _MAX_LISTED else "")
            reason = f"expected a number {n.describe()}, found {seen}"
        else:
            reason = f"expected a number {n.describe()}, found no {want.family} figure"
        results.append(CheckResult(name="numbers", passed=False, reason=reason))
    return results


# ------------------------------------------------------------------ the other checks


def check_tools(expect: Expect, answer: Answer) -> list[CheckResult]:
    called = [c.name for c in answer.tool_calls]
    missing = [t for t in expect.tools if not any(fold(t) in fold(c) for c in called)]
    if missing:
        return [CheckResult(name="tools", passed=False,
                            reason=f"expected tool(s) {', '.join(missing)} to be called; called: "
                                   f"{', '.join(called) or 'none'}")]
    return [CheckResult(name="tools", passed=True)]


def check_mentions_any(expect: Expect, answer: Answer) -> list[CheckResult]:
    text = fold(answer.answer)
    out = []
    for group in expect.mentions_any:
        ok = any(fold(alt) in text for alt in group)
        out.append(CheckResult(name="mentions_any", passed=ok,
                               reason="" if ok else f"none of [{', '.join(group)}] appears in the answer"))
    return out


def check_mentions_none(expect: Expect, answer: Answer) -> list[CheckResult]:
    text = fold(answer.answer)
    present = [m for m in expect.mentions_none if fold(m) in text]
    if present:
        return [CheckResult(name="mentions_none", passed=False,
                            reason=f"the answer mentions {', '.join(repr(p) for p in present)}, which it must not")]
    return [CheckResult(name="mentions_none", passed=True)]


# The first sentence ends at '.', '!' or '?' followed by white space or the end, at a full-width '。', '！' or '？'
# (Chinese puts no space after them), or at the first line break.
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]|\n")


def first_sentence(text: str) -> str:
    """The answer's first sentence, '*' removed (bold markers are not text)."""
    plain = text.replace("*", "").lstrip()
    end = _SENTENCE_END.search(plain)
    return (plain[: end.end()] if end else plain).strip()


def _mentions(alternative: str, text: str) -> bool:
    """`alternative` appears in folded `text`; a Latin end must not touch a letter or digit ("No" ≠ "Note")."""
    alt = fold(alternative)
    left = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", alt) else ""
    right = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", alt) else ""
    return re.search(left + re.escape(alt) + right, fold(text)) is not None


def check_first_sentence_any(expect: Expect, answer: Answer) -> list[CheckResult]:
    sentence = first_sentence(answer.answer)
    ok = any(_mentions(alt, sentence) for alt in expect.first_sentence_any)
    shown = sentence if len(sentence) <= 160 else sentence[:159] + "…"
    reason = "" if ok else f"the first sentence mentions none of [{', '.join(expect.first_sentence_any)}]: {shown!r}"
    return [CheckResult(name="first_sentence_any", passed=ok, reason=reason)]


def _top_gpu(rec: dict[str, Any] | None) -> str | None:
    if not rec:
        return None
    for key in ("gpu", "gpu_name", "gpu_model"):
        if rec.get(key):
            return str(rec[key])
    return None


def check_gpus_any(expect: Expect, answer: Answer) -> list[CheckResult]:
    gpu = _top_gpu(answer.recommendation)
    if gpu is None:
        return [CheckResult(name="gpus_any", passed=False,
                            reason=f"expected a top recommendation with one of {', '.join(expect.gpus_any)}; "
                                   "the answer has no recommendation")]
    ok = any(squash_gpu(g) in squash_gpu(gpu) for g in expect.gpus_any)
    reason = "" if ok else f"top recommendation's GPU is {gpu}, not one of {', '.join(expect.gpus_any)}"
    return [CheckResult(name="gpus_any", passed=ok, reason=reason)]


def check_max_monthly_cost(expect: Expect, answer: Answer, fx: ExchangeRate) -> list[CheckResult]:
    limit = expect.max_monthly_cost
    assert limit is not None
    rec = answer.recommendation
    label = f"{limit.value:,.0f} {limit.currency}/month"
    if not rec:
        return [CheckResult(name="max_monthly_cost", passed=False,
                            reason=f"expected a top recommendation costing at most {label}; "
                                   "the answer has no recommendation")]
    cost, currency = rec.get("monthly_cost"), rec.get("currency")
    if cost is None or currency not in ("CNY", "USD"):
        return [CheckResult(name="max_monthly_cost", passed=False,
                            reason=f"top recommendation {rec.get('provider')}/{rec.get('instance')} has an unknown "
                                   f"monthly price; expected at most {label}")]
    converted = fx.convert(float(cost), Currency(currency), Currency(limit.currency))
    ok = converted <= limit.value
    reason = (f"top recommendation costs {converted:,.0f} {limit.currency}/month "
              f"({float(cost):,.2f} {currency} at {fx.usd_cny:g} CNY/USD)")
    return [CheckResult(name="max_monthly_cost", passed=ok,
                        reason=reason if not ok else reason.replace("costs", "costs only"))]


def check_sources_any(expect: Expect, answer: Answer) -> list[CheckResult]:
    cited = [c.doc_id for c in answer.citations]
    ok = any(c in expect.sources_any for c in cited)
    reason = "" if ok else (f"expected a citation of {', '.join(expect.sources_any)}; cited: "
                            f"{', '.join(dict.fromkeys(cited)) or 'nothing'}")
    return [CheckResult(name="sources_any", passed=ok, reason=reason)]


MAX_LATIN_WORDS_ZH = 3  # issue 10: a Chinese answer keeps at most 3 Latin words besides names and terms
_MAX_WORDS_LISTED = 20


def check_answer_lang(expect: Expect, answer: Answer, latin: LatinWordCounter | None = None) -> list[CheckResult]:
    lang = detect_language(answer.answer)
    if lang != expect.answer_lang:
        return [CheckResult(name="answer_lang", passed=False,
                            reason=f"expected an answer in {expect.answer_lang}, it reads as {lang}")]
    if expect.answer_lang != "zh":
        return [CheckResult(name="answer_lang", passed=True)]
    words = (latin or default_counter()).leftover(answer.answer)
    if len(words) <= MAX_LATIN_WORDS_ZH:
        return [CheckResult(name="answer_lang", passed=True,
                            reason=f"{len(words)} Latin word(s) besides names and terms")]
    listed = ", ".join(words[:_MAX_WORDS_LISTED]) + (
        f" (+{len(words) - _MAX_WORDS_LISTED} more)" if len(words) > _MAX_WORDS_LISTED else "")
    return [CheckResult(name="answer_lang", passed=False,
                        reason=f"a Chinese answer with {len(words)} Latin words besides names and terms "
                               f"(at most {MAX_LATIN_WORDS_ZH}): {listed}")]


def score_answer(item: GoldenItem, answer: Answer, fx: ExchangeRate,
                 latin: LatinWordCounter | None = None) -> list[CheckResult]:
    """Every check the item asks for, in the order of the format.

    `latin` counts leftover Latin words for `answer_lang: zh`; default: the configured catalog's counter.
    """
    e = item.expect
    results: list[CheckResult] = []
    if e.tools:
        results += check_tools(e, answer)
    if e.numbers:
        results += check_numbers(e, answer, fx)
    if e.mentions_any:
        results += check_mentions_any(e, answer)
    if e.mentions_none:
        results += check_mentions_none(e, answer)
    if e.first_sentence_any:
        results += check_first_sentence_any(e, answer)
    if e.gpus_any:
        results += check_gpus_any(e, answer)
    if e.max_monthly_cost is not None:
        results += check_max_monthly_cost(e, answer, fx)
    if e.sources_any:
        results += check_sources_any(e, answer)
    if e.answer_lang is not None:
        results += check_answer_lang(e, answer, latin)
    return results


def failures(results: Iterable[CheckResult]) -> list[str]:
    return [f"{r.name}: {r.reason}" for r in results if not r.passed]
