"""The unit of a typed tool result's field, from its name (the project's convention: units in field names).

`key_unit("per_gpu_gib")` is GiB, `key_unit("price_per_hour")` money per hour (the currency is the
nearest `currency` field: the walker in `evidence.py` looks it up), `key_unit("ttft_ms")` ms,
`key_unit("output_tok_s")` token/s, `key_unit("cost_per_million_output_tokens_at_load")` money per
million tokens, `key_unit("mfu")` a fraction shown as %. A name that tells no unit gives None, and its
numbers back nothing: `batch_size`, `tp`, `rank`, `launch_year`, `compute_capability`, `concurrency`.

A key is split into words at "_"; words before "per" name what is counted, words after it the
period or the denominator (`hours_per_day` is hours, `vcpu_per_gpu` is nothing, `price_per_hour`
is money per hour). Durations are read from plural words and suffixes (`hours`, `days`, `_h`, `_ms`),
never from a singular label (`launch_year`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["KeyUnit", "key_unit"]


@dataclass(frozen=True, slots=True)
class KeyUnit:
    """What a field's name says about its numbers: value × factor is in `unit`."""

    unit: str  # canonical (assistant.verify.units); for money "money" until the currency is looked up
    factor: float = 1.0
    period: str | None = None  # money: hour | day | week | month | year | "hours" (from the `hours` it covers)
    #                            | "sibling" (from a `period` / `per` field beside it) | None (a total)
    currency: str | None = None  # money whose name says its currency (usd, cny, usd_cny)


_MEMORY = {"gib": "GiB", "mib": "MiB", "tib": "TiB", "kib": "KiB", "gb": "GB", "mb": "MB", "tb": "TB", "kb": "KB",
           "bytes": "B"}
_CURRENCY = {"cny": "CNY", "rmb": "CNY", "yuan": "CNY", "usd": "USD"}
_MONEY_WORDS = {"price", "cost", "total", "amount", "budget", "fee", "spend", "spent", "monthly", "hourly", "daily",
                "yearly", "rent"}
_PERIOD_WORDS = {"hour": "hour", "hourly": "hour", "hr": "hour", "h": "hour", "month": "month", "monthly": "month",
                 "mo": "month", "day": "day", "daily": "day", "week": "week", "weekly": "week", "year": "year",
                 "yearly": "year", "annual": "year"}
_DURATIONS = {"hours": ("hour", 1.0), "hrs": ("hour", 1.0), "days": ("hour", 24.0), "weeks": ("hour", 168.0),
              "months": ("hour", 730.0), "years": ("hour", 8760.0), "minutes": ("hour", 1 / 60),
              "mins": ("hour", 1 / 60), "seconds": ("ms", 1000.0), "secs": ("ms", 1000.0), "ms": ("ms", 1.0)}
_DURATION_SUFFIXES = {"h": ("hour", 1.0), "min": ("hour", 1 / 60), "s": ("ms", 1000.0), "sec": ("ms", 1000.0),
                      "ms": ("ms", 1.0)}
_FRACTIONS = {"mfu", "fraction", "ratio", "utilization", "utilisation", "util", "share", "efficiency"}
_PERCENTS = {"pct", "percent", "percentage"}
_TOKEN_WORDS = {"tok", "toks", "token", "tokens"}
_REQUEST_WORDS = {"req", "reqs", "request", "requests", "queries"}
_LENGTHS = {"seq", "input", "output", "model", "prompt", "context", "generation", "target"}
_PER_MILLION_TOKENS = re.compile(r"(?:^|_)per_(?P<n>1m|million|m|mtok|1k|thousand|k|token)(?:_[a-z]+)?_?(?:tokens?|tok)?(?:_|$)")


def _words(key: str) -> list[str]:
    return [w for w in re.split(r"[_\-\s.]+", key.lower()) if w]


@lru_cache(maxsize=4096)
def key_unit(key: str) -> KeyUnit | None:
    """The unit a JSON key names, or None. See the module docstring for the rules."""
    low = key.lower().replace("-", "_")
    words = _words(low)
    if not words or words[0].isdigit():
        return None
    if words[0] == "per":  # per_gpu_gib: GiB per GPU
        num, den = words[2:], words[1:2]
    elif "per" in words:
        cut = words.index("per")
        num, den = words[:cut], words[cut + 1 :]
    else:
        num, den = words, []
    wset = set(words)

    money_named = bool(wset & _MONEY_WORDS) or bool(wset & set(_CURRENCY))
    m = _PER_MILLION_TOKENS.search(low)
    if m and money_named and (wset & _TOKEN_WORDS or m.group("n") == "mtok"):
        scale = {"1k": 1e3, "thousand": 1e3, "k": 1e3, "token": 1e6}.get(m.group("n"), 1.0)
        return KeyUnit("money/Mtok", scale, None, _named_currency(words))

    currencies = [_CURRENCY[w] for w in words if w in _CURRENCY]
    if len(currencies) >= 2:  # an exchange rate: usd_cny = CNY per USD
        return KeyUnit("money", 1.0, None, currencies[-1])

    # rates before counts: total_tok_s, tokens_per_user_s, req_s, requests_per_day
    if wset & _TOKEN_WORDS and (words[-1] in ("s", "sec", "second") or den in (["s"], ["second"], ["sec"])):
        return KeyUnit("token/s")
    if "tps" in wset or low.endswith("tokens_per_user"):
        return KeyUnit("token/s")
    if wset & {"rps", "qps"} or (wset & _REQUEST_WORDS and words[-1] in ("s", "sec", "second")):
        return KeyUnit("req/s")
    if wset & _REQUEST_WORDS and den:
        per = {"day": 1 / 86400, "hour": 1 / 3600, "minute": 1 / 60, "min": 1 / 60, "second": 1.0, "s": 1.0}.get(den[0])
        if per is not None:
            return KeyUnit("req/s", per)
    if "request" in wset and "rate" in wset:
        return KeyUnit("req/s")

    for w in num:
        if w in _MEMORY:
            return KeyUnit(_MEMORY[w])
    if "gbps" in wset:
        return KeyUnit("Gb/s" if "network" in wset else "GB/s")  # network links are quoted in bits (400 Gbps)
    if "tbps" in wset:
        return KeyUnit("TB/s")
    if "tflops" in wset:
        return KeyUnit("TFLOPS")
    if "pflops" in wset:
        return KeyUnit("TFLOPS", 1000.0)
    if "tops" in wset:
        return KeyUnit("TOPS")
    if wset & {"w", "watts", "watt"}:
        return KeyUnit("W")
    if "gpu" in num and wset & {"hours", "hour", "h"}:
        return KeyUnit("GPU-hour")
    if wset & {"gpus", "ngpus"} & set(num) or ("gpu" in num and "count" in num):
        return KeyUnit("GPU")  # before money: total_gpus is a count
    if set(num) & {"nodes", "instances"} or ("node" in num and "count" in num):
        return KeyUnit("node")

    if "age" in wset:  # price_age_months: how old a price is, a duration (never money)
        for w in num:
            if w in _DURATIONS:
                unit, factor = _DURATIONS[w]
                return KeyUnit(unit, factor)
        return None
    if set(num) & _MONEY_WORDS or set(num) & set(_CURRENCY):
        return KeyUnit("money", 1.0, _money_period(num, den), _named_currency(num))

    for w in num:
        if w in _DURATIONS:
            unit, factor = _DURATIONS[w]
            return KeyUnit(unit, factor)
    if len(words) > 1 and words[-1] in _DURATION_SUFFIXES and not den:
        unit, factor = _DURATION_SUFFIXES[words[-1]]
        return KeyUnit(unit, factor)
    if wset & _FRACTIONS:
        return KeyUnit("%", 100.0)
    if wset & _PERCENTS:
        return KeyUnit("%")
    if set(num) & _TOKEN_WORDS or ("window" in num) or (set(num) & {"len", "length"} and set(num) & _LENGTHS) \
            or (num[-1:] == ["context"] and (len(num) == 1 or num[0] in ("max", "min", "shorten", "model", "prompt"))):
        return KeyUnit("token")
    if set(num) & {"params", "parameters"}:
        return KeyUnit("param")
    if "flops" in num or "flop" in num:
        return KeyUnit("FLOP")
    return None


def _named_currency(words: list[str]) -> str | None:
    for w in words:
        if w in _CURRENCY:
            return _CURRENCY[w]
    return None


def _money_period(num: list[str], den: list[str]) -> str | None:
    for w in den + num:
        if w in _PERIOD_WORDS:
            return _PERIOD_WORDS[w]
    if set(num) & {"total", "expected"}:
        return "hours"
    return "sibling"
