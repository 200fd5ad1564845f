"""Numbers as people type them, turned into digits before the slot patterns run.

`normalise(text)` returns the text with full-width forms folded (NFKC), English
number words ("two hundred", "a couple of", "dual") and Chinese numerals
("两张", "一万五", "十万次") written as digits. Arabic numbers keep their own
suffixes ("2w", "1.5万", "50B", "4k"), which `value_of` reads with the
multiplier that fits the context (a "k" of context is 1024).

Pure functions, no catalog, no I/O.
"""

from __future__ import annotations

import math
import re
import unicodedata

# ------------------------------------------------------------------ English words

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000, "trillion": 1e12}
_SPECIAL = {"a couple of": 2, "a couple": 2, "couple of": 2, "a pair of": 2, "a dozen": 12, "dozen": 12,
            "single": 1, "dual": 2, "quad": 4, "twin": 2, "a single": 1}
_WORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
_WORDS_RE = re.compile(rf"\b(?:(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*)\b", re.I)
_SPECIAL_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _SPECIAL), key=len, reverse=True)) + r")\b", re.I)
# "1.5 million", "2 billion": a digit followed by a scale word
_DIGIT_SCALE_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(hundred|thousand|million|billion|trillion)\b", re.I)


def _words_value(words: str) -> float | None:
    total, current, seen = 0.0, 0.0, False
    for w in re.split(r"[\s-]+", words.lower()):
        if w == "and" or not w:
            continue
        seen = True
        if w in _UNITS:
            current += _UNITS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = (current or 1) * 100
        elif w in _SCALES:
            total += (current or 1) * _SCALES[w]
            current = 0
        else:
            return None
    return total + current if seen else None


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _english(text: str) -> str:
    text = _DIGIT_SCALE_RE.sub(lambda m: _fmt(float(m.group(1)) * _SCALES[m.group(2).lower()]), text)
    text = _SPECIAL_RE.sub(lambda m: str(_SPECIAL[m.group(1).lower()]), text)

    def words(m: re.Match) -> str:
        raw = m.group(0)
        # "one" alone is too often a pronoun ("the cheapest one"); keep it unless a count follows
        if raw.lower() == "one":
            after = text[m.end() : m.end() + 12].lower()
            if not re.match(r"\s*(gpu|card|node|machine|a100|h100|4090|epoch|hour|day|week|month|year|user|person|people|request|session|x\b|\ue000)", after):
                return raw
        v = _words_value(raw)
        return _fmt(v) if v is not None else raw

    return _WORDS_RE.sub(words, text)


# ------------------------------------------------------------------ Chinese numerals

_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_SMALL = {"十": 10, "百": 100, "千": 1000}
_ZH_LARGE = {"万": 10_000, "亿": 100_000_000}
_ZH_RUN = re.compile(r"[零〇一二两俩三四五六七八九十百千万亿]+")
# counters and units after which a lone numeral is a number ("两张", "三天", "一个月")
_ZH_COUNTERS = "张块台个卡天小时周星期月年轮次人位名倍遍万千百亿元美刀毛分秒"
# words where the characters are not a number
_ZH_IDIOMS = ("一下", "一起", "一些", "一样", "一直", "一般", "一点", "一定", "统一", "唯一", "一切", "一旦", "万一", "千万别",
              "千万不", "一致", "一体", "一边", "一方面", "一口气", "一次性", "同一", "第一", "一律", "百分", "十分", "万能",
              "一键", "一步", "一条", "一份", "一套", "一项", "一种", "一样", "一部分", "一会", "一下子", "千卡")


def _zh_value(run: str) -> float | None:
    """一万五 -> 15000, 十万 -> 100000, 两 -> 2, 三百二十 -> 320, 一二 -> None (not a number)."""
    if not run:
        return None
    # "一万五" / "两万五" / "三千五": a trailing digit after a unit is one tenth of that unit
    tail = re.fullmatch(r"(.+?)([万千百亿])([一二两三四五六七八九])", run)
    if tail and not re.search(r"[十百千万亿]", tail.group(3)):
        head = _zh_value(tail.group(1) + tail.group(2))
        if head is None:
            return None
        unit = {"万": 10_000, "千": 1000, "百": 100, "亿": 100_000_000}[tail.group(2)]  # "一百二" is 120
        return head + _ZH_DIGITS[tail.group(3)] * unit / 10
    total, section, digit = 0.0, 0.0, None
    for ch in run:
        if ch in _ZH_DIGITS:
            if digit is not None:  # "一二": two digits in a row is not a numeral
                return None
            digit = _ZH_DIGITS[ch]
        elif ch in _ZH_SMALL:
            section += (1 if digit is None else digit) * _ZH_SMALL[ch]
            digit = None
        elif ch in _ZH_LARGE:
            section += digit or 0
            total = (total + (section or 1)) * _ZH_LARGE[ch] if ch == "亿" else total + (section or 1) * _ZH_LARGE[ch]
            section, digit = 0.0, None
    return total + section + (digit or 0)


def _chinese(text: str) -> str:
    out, last = [], 0
    for m in _ZH_RUN.finditer(text):
        run = m.group(0)
        s, e = m.span()
        context = text[max(0, s - 2) : e + 3]
        if any(idiom in context and idiom[0] in run for idiom in _ZH_IDIOMS):
            continue
        after = text[e : e + 1]
        before = text[s - 1 : s] if s else ""
        # a run right after digits is a multiplier of those digits ("2万", "1.5亿"): leave it to value_of
        if before and (before.isdigit() or before == "."):
            continue
        if len(run) == 1 and run in "万亿千百十":
            continue  # a lone unit is not a number
        if len(run) == 1 and after and after not in _ZH_COUNTERS and not after.isascii():
            continue
        if len(run) == 1 and not after:
            continue
        if all(ch in "十百千万亿" for ch in run) and text[:s].rstrip()[-1:].isdigit():
            continue  # "2 万亿": units of the number before them, read by value_of
        nxt = text[e : e + 1]
        if len(run) > 2 and run[-1] in "一两" and run[-2] in "百千万亿" and nxt and nxt in _ZH_COUNTERS:
            # "三千一个月", "一万五一个月", "两万两个月": the number, then 一/两 + a counter glued to it
            run, e = run[:-1], e - 1
            after = text[e : e + 1]
        elif len(run) > 2 and run[-1] in "一两" and _zh_value(run) is None and nxt and nxt in _ZH_COUNTERS:
            run, e = run[:-1], e - 1
            after = text[e : e + 1]
        v = _zh_value(run)
        if v is None:
            continue
        out.append(text[last:s])
        # never glue digits to a Latin token: "p4de.24xlarge一个月" must not become "p4de.24xlarge1个月"
        pad_before = " " if before and before.isascii() and before.isalnum() else ""
        pad_after = " " if after and after.isascii() and after.isalnum() else ""
        out.append(pad_before + _fmt(v) + pad_after)
        last = e
    out.append(text[last:])
    return "".join(out)


_SINGLE_DOUBLE = re.compile(r"(单|双)(?=[张块台卡路机节]|\s*(?:gpu|GPU|显卡))")


_CJK_COMMA_IN_DIGITS = re.compile(r"(?<=\d)[，、](?=\d)")


def normalise(text: str) -> str:
    """Full-width folded, number words and Chinese numerals as digits ('单卡' -> '1卡', '双卡' -> '2卡').

    A Chinese comma is a clause break, never a thousands separator: between digits ("max_length 1024，10个epoch") it
    folds to ", ", so that the two numbers are not read as one ("1024,10")."""
    text = _CJK_COMMA_IN_DIGITS.sub(", ", text)
    text = unicodedata.normalize("NFKC", text)
    text = _english(text)
    text = _SINGLE_DOUBLE.sub(lambda m: (" 1" if m.group(1) == "单" else " 2"), text)
    return _chinese(text)


# ------------------------------------------------------------------ values

NUMBER = r"\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"
MULTIPLIERS = {
    "k": 1e3, "K": 1e3, "千": 1e3, "w": 1e4, "W": 1e4, "万": 1e4, "m": 1e6, "M": 1e6, "百万": 1e6, "千万": 1e7,
    "b": 1e9, "B": 1e9, "亿": 1e8, "十亿": 1e9, "百亿": 1e10, "千亿": 1e11, "万亿": 1e12, "t": 1e12, "T": 1e12,
}


def parse_number(raw: str) -> float | None:
    """'20,000' / '1.5' / '1e12' -> float; None when it overflows or is not finite."""
    try:
        v = float(raw.replace(",", ""))
    except (ValueError, OverflowError):
        return None
    return v if math.isfinite(v) else None


def value_of(raw: str, multiplier: str | None = None, *, context_k: bool = False) -> float | None:
    """A number with its multiplier ('2', 'w' -> 20000). `context_k`: 'k' means 1024 (context lengths)."""
    v = parse_number(raw)
    if v is None:
        return None
    if multiplier:
        if context_k and multiplier in ("k", "K"):
            return v * 1024
        factor = MULTIPLIERS.get(multiplier)
        if factor is None:
            return None
        v *= factor
    return v if math.isfinite(v) and v < 1e30 else None
