"""Back each quantity an answer claims with an evidence figure of the same dimension.

A claim matches a figure when the figure converts into the claim's unit (`units.conversion_factors`:
exact factors, and for memory also the same digits, GiB read as GB), money is in the same currency
and — when the claim names a period — in the same period, and the two differ by at most the largest of
half the claim's last shown digit, half the figure's own shown digit (figures read from text), and
0.5 % (10 % when the claim is marked approximate: ~, ≈, 约, about, 左右). When several figures match,
a tool result beats a catalog fact beats a passage beats the user's words beats a pasted text; an
exact conversion beats a loose one; then the first in the evidence.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable

from assistant.answer import NumberClaim
from assistant.verify.evidence import RANK, Evidence, Figure, text_figures
from assistant.verify.reader import Reading, read_quantities
from assistant.verify.units import conversion_factors

__all__ = ["FigureIndex", "unbacked", "verify_numbers"]

REL_TOL = 0.005  # 0.5 %: tools round to 1-2 decimals, writers to 2-3 significant figures
APPROX_REL_TOL = 0.10  # "~30 GB" for 27.4 GiB is fair; "~30 GB" for 20 GB is not

_Plan = list[tuple[list[float], list[Figure], float, float, bool]]


class FigureIndex:
    """Figures grouped by unit (and by the size of their rounding) and sorted by value, so that each
    claim costs a few bisections over the figures near its value."""

    def __init__(self, figures: list[Figure], *, exact_only: bool = False) -> None:
        # a figure read from "1e400" is inf: it can back nothing, and it cannot be bucketed
        figures = [f for f in figures if math.isfinite(f.value) and math.isfinite(f.half)]
        self.figures = figures
        self.exact_only = exact_only  # pasted texts: no loose (GiB-as-GB) readings
        by_key: dict[tuple[str, int], list[Figure]] = {}
        for f in figures:
            bucket = -99 if f.half <= 0 else math.floor(math.log10(f.half))
            by_key.setdefault((f.unit, bucket), []).append(f)
        self.groups: dict[tuple[str, int], tuple[list[float], list[Figure], float]] = {}
        for key, group in by_key.items():
            group.sort(key=lambda f: f.value)
            self.groups[key] = ([f.value for f in group], group, max(f.half for f in group))
        self._plans: dict[str, _Plan] = {}

    def _plan(self, claim_unit: str) -> _Plan:
        """For a claim unit: each group that can back it, with each conversion factor."""
        plan = self._plans.get(claim_unit)
        if plan is None:
            plan = []
            for (unit, _), (values, group, max_half) in self.groups.items():
                for f, loose in conversion_factors(unit, claim_unit):
                    if not (loose and self.exact_only):
                        plan.append((values, group, max_half, f, loose))
            self._plans[claim_unit] = plan
        return plan

    def best(self, q: Reading) -> Figure | None:
        rel = APPROX_REL_TOL if q.approx else REL_TOL
        claim_half = q.step / 2
        value = abs(q.value)
        reach = max(claim_half, rel * value) * 1.0001 + 1e-12
        best: tuple[tuple, Figure] | None = None
        for values, group, max_half, f, loose in self._plan(q.unit):
            target = value / f  # the claim in the figure's unit
            radius = max(reach / f + max_half, rel * target / (1 - rel)) * 1.0001
            lo = bisect_left(values, target - radius)
            hi = bisect_right(values, target + radius, lo)
            for fig in group[lo:hi]:
                if q.per is not None and fig.per != q.per and not fig.any_per:
                    continue  # "$28 per hour" is not "$28 per month"
                ev = fig.value * f
                tol = max(claim_half, fig.half * f, rel * max(value, ev))
                if abs(value - ev) <= tol * (1 + 1e-9) + 1e-12:
                    key = (fig.rank, loose, fig.order)
                    if best is None or key < best[0]:
                        best = (key, fig)
        return best[1] if best else None


def _index_of(evidence: Evidence) -> FigureIndex:
    if evidence._index is None:
        evidence._index = FigureIndex(evidence.figures())
    return evidence._index


def _user_figures(user_texts: Iterable[str], pasted_texts: Iterable[str]) -> tuple[list[Figure], list[Figure]]:
    own = [f for text in user_texts for f in text_figures(text, "user", RANK["user"], keep_names=True, any_per=True)]
    pasted = [f for text in pasted_texts for f in text_figures(text, "pasted", RANK["pasted"], keep_names=False)]
    return own, pasted


def verify_numbers(
    answer_text: str,
    evidence: Evidence,
    user_texts: list[str] | tuple[str, ...] = (),
    *,
    pasted_texts: list[str] | tuple[str, ...] = (),
) -> list[NumberClaim]:
    """Each quantity claimed in the answer, with what backs it (None = unbacked).

    user_texts: what the user wrote in their own words (every turn so far); their figures with a unit
        back claims by the same rules (names kept: "LLaMA-13B" backs "13B"), labelled `user`; their
        money without a period backs a claim of any period ("预算 2万" backs "¥20k/month").
    pasted_texts: documents the user pasted (a price list, a log, a config): a figure there backs only
        a claim that repeats it — same dimension, an exact conversion at most, the period it was
        written with — and is labelled `pasted`, never `tool:`/`catalog:`; typed tool results win
        over it, so a catalog price or spec is never backed by a paste. See the README.
    """
    claims = read_quantities(answer_text)
    if not claims:
        return []
    index = _index_of(evidence)
    own, pasted = _user_figures(user_texts, pasted_texts)
    user_index = FigureIndex(own) if own else None
    pasted_index = FigureIndex(pasted, exact_only=True) if pasted else None
    out = []
    for q in claims:
        fig = index.best(q)
        if fig is None and user_index is not None:
            fig = user_index.best(q)
        if fig is None and pasted_index is not None:
            fig = pasted_index.best(q)
        out.append(NumberClaim(value=q.value, unit=q.unit, text=q.text, backed_by=fig.label if fig else None))
    return out


def unbacked(claims: Iterable[NumberClaim]) -> list[NumberClaim]:
    """The claims nothing backs."""
    return [c for c in claims if c.backed_by is None]
