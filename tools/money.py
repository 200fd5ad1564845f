"""Currency helpers: convert at the configured rate and format amounts for people.

Every figure that crosses currencies is converted with one `ExchangeRate`, and
whoever shows it must also show the rate and its date (`fx.note()`, rendered by
tools.messages). These helpers return whether a conversion happened so that
callers can say so.
"""

from __future__ import annotations

from tools.domain import Currency, RegionScope
from tools.schemas import ExchangeRate

SYMBOL = {Currency.CNY: "¥", Currency.USD: "$"}


def default_currency(region: RegionScope | str | None) -> Currency:
    """CNY for mainland China, USD otherwise (issue 2 §3)."""
    return Currency.CNY if RegionScope(region or "any") == RegionScope.cn else Currency.USD


def convert(amount: float | None, src: Currency, dst: Currency, fx: ExchangeRate) -> tuple[float | None, bool]:
    """(amount in `dst`, whether it was converted). None (unknown) stays None, never 0."""
    if amount is None:
        return None, False
    if src == dst:
        return amount, False
    return fx.convert(amount, src, dst), True


def money(amount: float | None, currency: Currency, digits: int | None = None) -> str:
    """'$1,234.50', '¥8,760' ; None -> 'unknown'.

    Hourly prices below 10 keep more digits ('$0.526/h'), large totals none.
    """
    if amount is None:
        return "unknown"
    if digits is None:
        digits = 3 if abs(amount) < 10 else 2 if abs(amount) < 1000 else 0
    return f"{SYMBOL[Currency(currency)]}{amount:,.{digits}f}"
