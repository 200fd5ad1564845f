"""How old a price (or the exchange rate) is: fresh, stale or undated, against an injectable today.

Pure: no clock is read here. Callers pass ``today`` -- ``Settings.today_date`` (env
``GPU_ADVISOR_TODAY``, default the real date), so tests never rot.

* fresh: at most 12 months old; stale: more than 12 months; undated: the source gives no date.
* A month-level or approximate date ("2026-10", "about 2026-10") is given the benefit of the
  doubt: it counts from the LAST day of that month.
* Display pieces are typed: `PriceAge.note()` etc. return `tools.notes.Note` values whose en/zh
  text lives in `tools/messages/price_age.py`; nothing here builds a sentence.

Helpers for the ranking code: `price_age(price, today)`, `freshness_rank(age)` (sort key),
`rate_age(rate, today)` (the rate's own note is `ExchangeRate.note()`, code `fx.rate`, which carries this
age as `months` / `state`), `covers_note(price)`, `source_note(price, provider, today)`.
"""

from __future__ import annotations

import calendar
import datetime as dt
from enum import Enum
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from tools.domain import DatePrecision, Price, Provider
from tools.notes import Note


class ExchangeRate(Protocol):
    """What the rate helpers read (`tools.schemas.ExchangeRate` has it)."""

    usd_cny: float
    as_of: dt.date

FRESH_MONTHS = 12  # a price up to 12 months old is "fresh"; older is "stale" (issue 12)


class AgeState(str, Enum):
    fresh = "fresh"
    stale = "stale"
    undated = "undated"


class PriceAge(BaseModel):
    """The age of one dated (or undated) figure, as of `today`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    state: AgeState
    months: int | None  # whole months elapsed (None when undated)
    as_of: dt.date | None
    precision: DatePrecision | None  # None when undated
    inferred: bool = False
    today: dt.date

    @property
    def as_of_label(self) -> str | None:
        if self.as_of is None:
            return None
        return self.as_of.isoformat() if self.precision == DatePrecision.day else self.as_of.strftime("%Y-%m")

    def _params(self) -> dict:
        return {
            "state": self.state.value,
            "as_of": self.as_of_label,
            "date_precision": self.precision.value if self.precision else None,
            "inferred": self.inferred,
            "months": self.months,
        }

    def note(self) -> Note:
        """'as of 2026-07-20 (4 months old)' / 'about 2026-10 (inferred), 1 month old' / 'date unknown'."""
        return Note.of("price_age.summary", **self._params())

    def date_note(self) -> Note:
        """Only the date: '2026-07-20', '2026-10', 'about 2026-10 (inferred)', 'date unknown'."""
        return Note.of("price_age.date", **self._params())

    def state_note(self) -> Note:
        """Only the state: 'fresh' / 'stale' / 'undated' (table cells)."""
        return Note.of("price_age.state", state=self.state.value)


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` plus whole months, clamped to the month's last day (2024-02-29 + 12 = 2025-02-28)."""
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _month_end(day: dt.date) -> dt.date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def months_between(start: dt.date, end: dt.date) -> int:
    """Whole months from `start` to `end`: the largest n with add_months(start, n) <= end (0 for a future date)."""
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if months > 0 and add_months(start, months) > end:
        months -= 1
    return max(0, months)


def date_age(
    as_of: dt.date | None,
    today: dt.date,
    *,
    precision: DatePrecision | None = None,
    inferred: bool = False,
    fresh_months: int = FRESH_MONTHS,
) -> PriceAge:
    """The age state of a date as of `today`; `precision` None with a date means day."""
    if as_of is None:
        return PriceAge(state=AgeState.undated, months=None, as_of=None, precision=None, inferred=False, today=today)
    precision = precision or DatePrecision.day
    if precision == DatePrecision.day:
        latest = as_of
        months = months_between(as_of, today)
    else:  # month-level: the figure may be from any day of that month; count from its last day
        latest = _month_end(as_of)
        months = max(0, (today.year - as_of.year) * 12 + (today.month - as_of.month))
    state = AgeState.stale if today > add_months(latest, fresh_months) else AgeState.fresh
    return PriceAge(state=state, months=months, as_of=as_of, precision=precision, inferred=inferred, today=today)


def price_age(price: Price, today: dt.date) -> PriceAge:
    return date_age(price.as_of, today, precision=price.precision, inferred=price.as_of_inferred)


# Sort key: fresher first; within a state, younger first; undated last.
_STATE_RANK = {AgeState.fresh: 0, AgeState.stale: 1, AgeState.undated: 2}


def freshness_rank(age: PriceAge) -> tuple[int, int]:
    """A sort key for ranking by price age: (state, months); fresh < stale < undated."""
    return (_STATE_RANK[age.state], age.months if age.months is not None else 10**6)


# ---------------------------------------------------------------- exchange rate


def rate_age(rate: ExchangeRate, today: dt.date) -> PriceAge:
    """The USD/CNY rate gets the same treatment as a price (its `as_of` is a day)."""
    return date_age(rate.as_of, today, precision=DatePrecision.day)


# ---------------------------------------------------------------- what the price covers and where it comes from


def covers_note(price: Price) -> Note | None:
    """'compute only; system disk, data disk and bandwidth are extra' -- None when the source says nothing."""
    c = price.covers
    if c is None:
        return None
    return Note.of(
        "price_age.covers",
        includes=[p.value for p in c.includes],
        excludes=[p.value for p in c.excludes],
        system_disk_gb=c.system_disk_gb,
        data_disk_gb=c.data_disk_gb,
        compute_only=c.compute_only,
    )


def source_note(price: Price, provider: Provider, today: dt.date) -> Note:
    """One line: where a price comes from and how old it is (for the pick in a chat answer)."""
    age = price_age(price, today)
    return Note.of(
        "price_age.source",
        provider=provider.name,
        provider_zh=provider.name_zh,
        grade=price.grade.name,  # PriceGrade member name: official | user | third_party | marketplace
        origin=price.origin.value,
        source=price.source,  # the source named in words; surfaces link `source_url`
        source_url=price.source_url,
        **age._params(),
    )


__all__ = [
    "FRESH_MONTHS", "AgeState", "PriceAge", "add_months", "covers_note", "date_age", "freshness_rank",
    "months_between", "price_age", "rate_age", "source_note",
]
