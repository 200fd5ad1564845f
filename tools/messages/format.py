"""Numbers, money, units and dates as each language writes them.

Used by the message templates through typed format specs, e.g.
``"{needed_gib:gib} per GPU"`` or ``"{monthly:money_m}"``. A money spec reads the
currency from the parameter ``<name>_currency`` or else ``currency``. Chinese prose
writes large amounts with 万 (``¥1.5万``), tables keep digits (``¥15,000``): the
spec ``money_t`` is the table form. Names, ids and established terms (LoRA,
NVLink, bf16, KV cache) are never translated.

Enum values passed as params are rendered by term specs: ``{billing:billing}``
looks up the message ``term.billing.<value>`` ("on-demand" / "按量付费"), and the
same for ``mode``, ``grade``, ``region``, ``sharding``, ``optimizer``,
``name_kind`` … (`TERM_KINDS`). ``{as_of:as_of}`` is a price or rate date
("as of 2026-07-20" / "2026-07-20 数据", None: "date unknown"); ``{names:list}``
joins a list ("a, b" / "a、b"). A count of things is ``{replicas:count:replica}`` ("1 replica",
"2 replicas"; ``{n:count:near-miss:near-misses}`` where the plural is not one + "s"): English only,
Chinese has no plural and its template writes the measure word ("{replicas} 个副本").
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Iterator, Mapping

import math
import string
from typing import Any, Callable

SYMBOL = {"CNY": "¥", "USD": "$"}
PER = {
    "en": {"hour": "/h", "day": "/day", "month": "/month", "year": "/year", "job": " for the job", None: ""},
    "zh": {"hour": "/小时", "day": "/天", "month": "/月", "year": "/年", "job": "（整个任务）", None: ""},
}


def _sig3(x: float) -> str:
    """Three significant figures without an exponent: 6,260 / 62.6 / 6.26."""
    if abs(x) >= 100:
        return f"{round(x):,}"
    return f"{x:.3g}"


def _digits(x: float) -> int:
    return 3 if abs(x) < 10 else 2 if abs(x) < 1000 else 0


# Provider display names for what is rendered now: key -> (name, name_zh). A surface that has the catalog (the
# offline brain, around one answer) sets them; unset, notes show the provider key, as the CLI does (`--provider`).
PROVIDER_NAMES: ContextVar[Mapping[str, tuple[str, str | None]] | None] = ContextVar("provider_names", default=None)


@contextlib.contextmanager
def provider_names(names: Mapping[str, tuple[str, str | None]]) -> Iterator[None]:
    token = PROVIDER_NAMES.set(names)
    try:
        yield
    finally:
        PROVIDER_NAMES.reset(token)


class Formatter:
    """Formatting for one language ('en' or 'zh')."""

    def __init__(self, lang: str):
        self.lang = "zh" if lang == "zh" else "en"

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    # -------------------------------------------------------------- numbers

    def g(self, x: Any) -> str:
        if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
            return f"{int(x):,}"
        if isinstance(x, (int, float)):
            return f"{x:,.4g}" if abs(x) < 1e6 else f"{x:,.0f}"
        return str(x)

    def int(self, x: Any) -> str:
        return f"{round(float(x)):,}"

    def fixed1(self, x: Any) -> str:
        return f"{float(x):,.1f}"

    def pct(self, fraction: Any) -> str:
        v = float(fraction) * 100
        return f"{v:.0f}%" if abs(v - round(v)) < 0.05 or abs(v) >= 10 else f"{v:.1f}%"

    def big(self, x: Any) -> str:
        """Token and parameter counts: 1.2T / 50B / 300M, or 1.2 万亿 / 500 亿 / 3 亿 in Chinese."""
        v = float(x)
        if self.zh:
            for unit, name in ((1e12, "万亿"), (1e8, "亿"), (1e4, "万")):
                if abs(v) >= unit:
                    return f"{_sig3(v / unit)}{name}"
            return self.g(v)
        for unit, name in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
            if abs(v) >= unit:
                return f"{_sig3(v / unit)}{name}"
        return self.g(v)

    # -------------------------------------------------------------- units

    def gib(self, x: Any) -> str:
        return f"{float(x):,.1f} GiB"

    def gb(self, x: Any) -> str:
        return f"{float(x):,.4g} GB"

    def hours(self, x: Any) -> str:
        v = float(x)
        return f"{v:,.1f} 小时" if self.zh else f"{v:,.1f} h"

    def days(self, x: Any) -> str:
        v = float(x)
        return f"{v:,.1f} 天" if self.zh else f"{v:,.1f} days"

    def hours_days(self, x: Any) -> str:
        """A job's duration as a reader wants it: minutes under an hour ('25 min', not '0.4 h'; seconds under a
        minute), hours under a day,
        and from a day on the hours with the days beside them ('62.3 h (2.6 days)'), never '(0.0 days)'."""
        v = float(x)
        if v < 1:
            minutes = round(v * 60)
            if minutes < 1:  # seconds, to two figures: a rounded-up '1 min' would be a figure no param backs
                seconds = f"{v * 3600:.2g}"
                return f"{seconds} 秒" if self.zh else f"{seconds} s"
            return f"{minutes} 分钟" if self.zh else f"{minutes} min"
        if v < 24:
            return self.hours(v)
        return f"{self.hours(v)}（{self.days(v / 24)}）" if self.zh else f"{self.hours(v)} ({self.days(v / 24)})"

    def ms(self, x: Any) -> str:
        v = float(x)
        return f"{v:,.0f} ms" if v >= 10 else f"{v:,.1f} ms"

    def tok_s(self, x: Any) -> str:
        v = float(x)
        return f"{v:,.0f} tok/s" if v >= 10 else f"{v:,.1f} tok/s"

    def req_s(self, x: Any) -> str:
        return f"{float(x):,.2f} req/s"

    def tflops(self, x: Any) -> str:
        return f"{float(x):,.1f} TFLOPS"

    def gbps(self, x: Any) -> str:
        return f"{float(x):,.0f} GB/s"

    def date(self, iso: Any) -> str:
        return str(iso)

    def date_or_unknown(self, value: Any) -> str:
        """A date as the source gives it ('2026-07-20', '2026-10'); 'date unknown' / '日期未知' when it has none."""
        if not value:
            return "日期未知" if self.zh else "date unknown"
        return str(value)

    def as_of(self, iso: Any) -> str:
        if not iso:
            return self.date_or_unknown(iso)
        return f"{iso} 数据" if self.zh else f"as of {iso}"

    def count(self, n: Any, one: str, many: str | None = None) -> str:
        """'1 replica' / '2 replicas' / '0 replicas'; `many` where the plural is not `one` + 's' ('near-misses').

        Chinese has no plural: there the word is written as given ('2 个副本' from `count(2, "个副本")`).
        """
        text = self.g(n)
        if self.zh:
            return f"{text} {one}"
        single = isinstance(n, (int, float)) and not isinstance(n, bool) and float(n) == 1
        return f"{text} {one if single else (many or one + 's')}"

    def list(self, items: Any) -> str:
        return ("、" if self.zh else ", ").join(str(i) for i in (items or []))

    def term(self, kind: str, value: Any) -> str:
        """An enum value in this language (`term.<kind>.<value>`); unknown values are shown as they are."""
        if value is None:
            return "未知" if self.zh else "unknown"
        from tools.messages.catalog import term_pair  # lazy: the catalog imports this module

        raw = value.value if hasattr(value, "value") else value
        pair = term_pair(kind, str(raw))
        if pair is None:
            return str(raw)
        return fill(pair[1] if self.zh else pair[0], {}, self.lang)

    def provider(self, key: Any) -> str:
        """A provider's display name (Chinese name in Chinese) where the surface set them, else its key."""
        names = PROVIDER_NAMES.get()
        entry = names.get(str(key)) if names else None
        if entry is None:
            return str(key)
        name, zh = entry
        return (zh or name) if self.zh else name

    def region(self, value: Any, *, code: bool = True) -> str:
        """A catalog region: in Chinese our placeholders in words (cn-mainland → 中国大陆, beijing-a → 北京 A 区)
        and a cloud's own code as code (`cn-beijing`); in English the id as the consoles write it.

        The one mapping of region ids to words: prose uses it as is, table cells and Slack fields pass
        ``code=False`` (a cloud's own code as plain text: a cell has no room for code marks)."""
        if value is None:
            return "未知" if self.zh else "unknown"
        if not self.zh:
            return str(value)
        from tools.messages.catalog import term_pair  # lazy: the catalog imports this module

        pair = term_pair("region_id", str(value))
        if pair is not None:
            return pair[1]
        return f"`{value}`" if code else str(value)

    def terms(self, kind: str, values: Any) -> str:
        return self.list([self.term(kind, v) for v in (values or [])])

    # -------------------------------------------------------------- money

    def money(self, x: Any, currency: str | None, per: str | None = None, *, table: bool = False) -> str:
        if x is None:
            return "未知" if self.zh else "unknown"
        v = float(x)
        sym = SYMBOL.get(str(currency or "USD"), "")
        if self.zh and not table and abs(v) >= 10_000 and math.isfinite(v):
            text = f"{sym}{v / 10_000:,.2f}".rstrip("0").rstrip(".") + "万"
        else:
            digits = _digits(v)
            if digits == 3 and abs(v * 100 - round(v * 100)) < 1e-6:
                digits = 2  # a price quoted in cents stays in cents: $1.00/h, not $1.000/h
            text = f"{sym}{v:,.{digits}f}"
        return text + PER[self.lang].get(per, "")


_MONEY_SPECS = {
    "money": (None, False), "money_t": (None, True),
    "money_h": ("hour", False), "money_ht": ("hour", True),
    "money_d": ("day", False), "money_m": ("month", False), "money_mt": ("month", True),
    "money_y": ("year", False), "money_job": ("job", False),
}
_SIMPLE_SPECS = ("g", "int", "fixed1", "pct", "big", "gib", "gb", "hours", "days", "ms", "tok_s", "req_s", "tflops", "gbps", "date")
# enum-valued params: `{billing:billing}` renders term.billing.<value>
TERM_KINDS = ("billing", "mode", "grade", "region", "sharding", "optimizer", "targets", "name_kind", "period", "term",
              "fx_source", "currency", "change")


class _TemplateFormatter(string.Formatter):
    """`{name:spec}` with our specs; plain Python specs still work (`{x:.1f}`)."""

    def __init__(self, f: Formatter, params: dict[str, Any]):
        self.f = f
        self.params = params
        self._field = ""

    def get_field(self, field_name, args, kwargs):  # remember which param a spec applies to (for its currency)
        self._field = field_name.split(".")[0].split("[")[0]
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value: Any, spec: str) -> str:
        if spec in _MONEY_SPECS:
            per, table = _MONEY_SPECS[spec]
            currency = self.params.get(f"{self._field}_currency") or self.params.get("currency")
            return self.f.money(value, currency, per, table=table)
        if spec in _SIMPLE_SPECS:
            return "?" if value is None else getattr(self.f, spec)(value)
        if spec in TERM_KINDS:
            return self.f.term(spec, value)
        if spec == "as_of":
            return self.f.as_of(value)
        if spec == "list":
            return self.f.list(value)
        if spec.startswith("count:"):  # {replicas:count:replica} / {n:count:near-miss:near-misses}
            one, _, many = spec.removeprefix("count:").partition(":")
            return "?" if value is None else self.f.count(value, one, many or None)
        if spec == "zh_name":  # a name with a Chinese form in `<field>_zh` (provider names)
            return str(self.params.get(f"{self._field}_zh") or value) if self.f.zh else str(value)
        if value is None:
            return "?"
        return super().format_field(value, spec)


Template = str | Callable[[dict[str, Any], Formatter], str]


def fill(template: Template, params: dict[str, Any], lang: str) -> str:
    f = Formatter(lang)
    if callable(template):
        return template(params, f)
    return _TemplateFormatter(f, params).format(template, **params)


def formatter(lang: str) -> Formatter:
    return Formatter(lang)
