"""Every number in an answer must be backed: match each claimed quantity to its evidence.

`verify_numbers(answer, evidence, user_texts)` reads the answer with the
quantity reader (`assistant.quantities`) and labels each quantity with where it came from:
`tool:<name>:<path>` (a tool result, or `tool:<name>:args.<key>` for an
argument), `catalog:<key>`, `passage:<doc_id>`, `user`, or None (unbacked).

Matching rules (the README repeats them):
- Only quantities with a unit are claims; bare numbers ("batch size 8", "CUDA 12.1",
  "[1]") are not checked. Digits inside names are not claims (see quantities.py).
- Numbers the user wrote back themselves (`user`): read from the user's turns with
  names kept ("LLaMA-13B" -> 13e9 params) and by the same matching rules.
- A claim matches an evidence figure when, after unit conversion, the two differ by at
  most the largest of: half the claim's last shown digit ("45 GiB" covers 44.5–45.5,
  "¥1.2万" covers ±500, "20,000" is read as 2 significant figures: ±500); half the
  evidence's own shown digit (for figures read from text); 0.5 % relative; 0.05 in
  the claim's written unit (rounding to 1 decimal). A claim marked approximate
  (~, ≈, 约, about, 左右) may differ by 10 %.
- Conversions: memory GB/GiB/MB/TB exactly (1 GiB = 1.0737 GB) and also by the same
  figure, because people write "GB" for a GiB figure; time through hours (days ×24,
  weeks ×168, months ×730); fractions to % (MFU 0.45 backs "45 %"); TB/s ↔ GB/s;
  Gb/s (bits) ↔ GB/s exactly or by the same figure. CNY ↔ USD is never converted:
  the evidence must hold the converted figure (the cost tools return both).
  Rates are not converted either ($3/hr never backs $2,190/month): tools return totals.
- Evidence units come from JSON key names (`per_gpu_gib`, `memory_bandwidth_gbps`,
  `hours`, `monthly_cost` + the nearest `currency`, `mfu`, `gpu_count`), from the
  parent key when the leaf has none (`breakdown_gib.weights`), and from the text for
  string leaves and passages (a passage inside a tool result, a dict with `doc_id` and
  `text` as search_guidance returns, counts as `passage:<doc_id>`). A tool figure whose
  unit its key does not tell backs a claim in any unit with the same value (and, when
  it is an exact fraction, a percentage); negative figures match by magnitude (a
  headroom of -3.2 GiB backs "3.2 GiB short"). Passages back with units only.
- When several figures match, a tool beats the catalog beats a passage; a figure with
  a known unit beats one without; an exact conversion beats a loose one.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from assistant.answer import NumberClaim, ToolCallRecord
from assistant.quantities import Reading, conversion_factors, parse_unit, read_cached, read_quantities

__all__ = ["CatalogFact", "Evidence", "EvidencePassage", "restate_evidence", "unbacked", "verify_numbers"]

_REL_TOL = 0.005  # 0.5 %: tools round to 1-2 decimals, writers to 2-3 significant figures
_APPROX_REL_TOL = 0.10  # "~30 GB" for 27.4 GiB is fair; "~30 GB" for 20 GB is not


class CatalogFact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str = Field(description="e.g. 'A100-80GB.memory_gb'")
    value: float
    unit: str = Field(default="", description="as written: GB, GiB, TFLOPS, GB/s, CNY/hour ...; '' = unknown")


class EvidencePassage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc_id: str
    text: str


class Evidence(BaseModel):
    """What an answer may draw numbers from. Build once per answer; do not mutate after use."""

    model_config = ConfigDict(extra="forbid")

    tool_results: dict[str, Any] = Field(default_factory=dict, description="tool name -> JSON-able result")
    tool_args: dict[str, Any] = Field(default_factory=dict, description="tool name -> the arguments it was called with")
    catalog_facts: list[CatalogFact] = Field(default_factory=list)
    passages: list[EvidencePassage] = Field(default_factory=list)

    _index: _Index | None = PrivateAttr(default=None)

    @field_validator("catalog_facts", mode="before")
    @classmethod
    def _facts_from_tuples(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return [
                {"key": f[0], "value": f[1], "unit": f[2] if len(f) > 2 else ""} if isinstance(f, (list, tuple)) else f
                for f in value
            ]
        return value

    @field_validator("passages", mode="before")
    @classmethod
    def _passages_from_objects(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            out = []
            for p in value:
                if isinstance(p, (list, tuple)):
                    out.append({"doc_id": p[0], "text": p[1]})
                elif hasattr(p, "doc_id") and hasattr(p, "text") and not isinstance(p, EvidencePassage):
                    out.append({"doc_id": p.doc_id, "text": p.text})  # knowledge.passages.Passage, Citation
                else:
                    out.append(p)
            return out
        return value

    @classmethod
    def from_tool_calls(
        cls,
        tool_calls: Iterable[ToolCallRecord | dict[str, Any]],
        passages: Iterable[Any] = (),
        catalog_facts: Iterable[Any] = (),
    ) -> Evidence:
        """From the agent's tool-call records; a tool called twice becomes 'name', 'name#2'."""
        results: dict[str, Any] = {}
        args: dict[str, Any] = {}
        for call in tool_calls:
            record = call if isinstance(call, ToolCallRecord) else ToolCallRecord.model_validate(call)
            name, i = record.name, 2
            while name in results:
                name, i = f"{record.name}#{i}", i + 1
            results[name] = record.result
            args[name] = record.args
        return cls(tool_results=results, tool_args=args, catalog_facts=list(catalog_facts), passages=list(passages))

    def numbers(self) -> list[tuple[str, float, str | None]]:
        """Every evidence figure as (label, value, canonical unit or None): for debugging and tests."""
        return [(e.label, e.value, e.unit) for e in self.index().entries]

    def index(self) -> _Index:
        if self._index is None:
            self._index = _Index.build(_evidence_figures(self))
        return self._index


# ------------------------------------------------------------------ evidence figures


@dataclass(slots=True)
class _Figure:
    value: float  # magnitude, in `unit`
    unit: str | None  # canonical; None = the key did not say
    label: str
    half: float  # half the shown step (text figures); 0 for JSON numbers
    rank: int  # 0 tool, 1 catalog, 2 passage, 3 user
    order: int = 0


def _evidence_figures(ev: Evidence) -> list[_Figure]:
    figures: list[_Figure] = []
    for name, result in ev.tool_results.items():
        _walk(result, [], [], f"tool:{name}:", figures)
    for name, args in ev.tool_args.items():
        if args:
            _walk(args, ["args"], [], f"tool:{name}:", figures)
    for fact in ev.catalog_facts:
        parsed = parse_unit(fact.unit) if fact.unit else None
        unit, factor = parsed if parsed else (None, 1.0)
        if math.isfinite(fact.value):
            figures.append(_Figure(abs(fact.value) * factor, unit, f"catalog:{fact.key}", 0.0, 1))
    for p in ev.passages:
        for q in read_cached(p.text, True, False):  # units only: prose is full of unrelated bare numbers
            figures.append(_Figure(abs(q.value), q.unit, f"passage:{p.doc_id}", q.step / 2, 2))
    return figures


def _is_passage(node: dict) -> bool:
    """A retrieved passage inside a tool result (search_guidance): cite it as a passage."""
    return isinstance(node.get("doc_id"), str) and isinstance(node.get("text"), str)


def _walk(node: Any, path: list[str], parents: list[dict], prefix: str, out: list[_Figure]) -> None:
    if isinstance(node, dict):
        if _is_passage(node):
            for q in read_cached(node["text"], True, False):
                out.append(_Figure(abs(q.value), q.unit, f"passage:{node['doc_id']}", q.step / 2, 2))
            return
        parents.append(node)
        for key, value in node.items():
            path.append(str(key))
            _walk(value, path, parents, prefix, out)
            path.pop()
        parents.pop()
    elif isinstance(node, (list, tuple)):
        for i, value in enumerate(node):
            path.append(str(i))
            _walk(value, path, parents, prefix, out)
            path.pop()
    elif isinstance(node, bool) or node is None:
        return
    elif isinstance(node, (int, float)):
        if math.isfinite(node):
            unit, factor = _unit_from_keys(path, parents)
            out.append(_Figure(abs(node) * factor, unit, prefix + ".".join(path), 0.0, 0))
    elif isinstance(node, str):
        if any(ch.isdigit() for ch in node) and len(node) < 4000:
            label = prefix + ".".join(path)
            for q in read_cached(node, True, True):
                out.append(_Figure(abs(q.value), q.unit or None, label, q.step / 2, 0))


_MEMORY_KEYS = {"gib": "GiB", "mib": "MiB", "tib": "TiB", "gb": "GB", "mb": "MB", "tb": "TB"}
_RATE_KEYS = {"gbps": ("GB/s", 1.0), "tbps": ("TB/s", 1.0), "tflops": ("TFLOPS", 1.0), "pflops": ("TFLOPS", 1000.0),
              "tops": ("TOPS", 1.0), "w": ("W", 1.0), "watts": ("W", 1.0)}
_MONEY_WORDS = {"price", "cost", "total", "amount", "budget", "fee", "spend", "spent", "monthly", "hourly"}
_TIME_KEYS = {"hours": 1.0, "hour": 1.0, "hrs": 1.0, "days": 24.0, "day": 24.0, "weeks": 168.0,
              "minutes": 1 / 60, "seconds": 1 / 3600}
_TIME_SUFFIXES = {"_h": 1.0, "_min": 1 / 60, "_s": 1 / 3600, "_sec": 1 / 3600}  # job_h, latency_s


def _key_unit(key: str, parent: dict | None, parents: list[dict]) -> tuple[str | None, float] | None:
    """The unit a JSON key names (project convention: units in field names), or None."""
    toks = set(key.lower().replace("-", "_").split("_"))
    if "usd" in toks and "cny" in toks:
        return None  # an exchange rate
    for tok, unit in _MEMORY_KEYS.items():
        if tok in toks:
            return unit, 1.0
    if "network" in toks and "gbps" in toks:
        return "Gb/s", 1.0  # network links are quoted in bits (400 Gbps EFA)
    for tok, unit_factor in _RATE_KEYS.items():
        if tok in toks:
            return unit_factor
    if toks & {"cny", "rmb", "yuan"}:
        return "CNY", 1.0
    if "usd" in toks:
        return "USD", 1.0
    if "gpu" in toks and toks & {"hours", "hour", "h"}:
        return "GPU-hour", 1.0
    if "gpus" in toks or ("gpu" in toks and "count" in toks) or "ngpus" in toks:
        return "GPU", 1.0  # before money: total_gpus is a count
    if toks & {"nodes", "instances"}:
        return "node", 1.0
    if toks & _MONEY_WORDS:
        return _currency(key, parent, parents), 1.0
    for tok, factor in _TIME_KEYS.items():
        if tok in toks:
            return "hour", factor
    for suffix, factor in _TIME_SUFFIXES.items():
        if key.lower().endswith(suffix):
            return "hour", factor
    if toks & {"mfu", "fraction", "ratio", "utilization", "util", "share"}:
        return "%", 100.0
    if toks & {"pct", "percent", "percentage"}:
        return "%", 1.0
    if toks & {"tokens", "token"}:
        return "token", 1.0
    if toks & {"params", "parameters"}:
        return "param", 1.0
    return None


def _currency(key: str, parent: dict | None, parents: list[dict]) -> str | None:
    """The currency of a money field: its own sibling first, then the nearest enclosing one."""
    field = "native_currency" if key.startswith("native_") else "currency"
    for d in ([parent] if parent is not None else []) + parents[::-1]:
        value = d.get(field)
        if isinstance(value, str) and value.upper() in ("CNY", "USD"):
            return value.upper()
        if field == "native_currency":
            break
    return None


def _unit_from_keys(path: list[str], parents: list[dict]) -> tuple[str | None, float]:
    """Unit of a numeric leaf: from its key, else from the nearest ancestor key that names one."""
    keys = [(k, i) for i, k in enumerate(path) if not k.isdigit()]
    if not keys:
        return None, 1.0
    leaf_key = path[-1]
    if not leaf_key.isdigit():
        found = _key_unit(leaf_key, parents[-1] if parents else None, parents)
        if found is not None:
            return found
    for key, _ in reversed(keys[:-1] if not leaf_key.isdigit() else keys):
        found = _key_unit(key, None, parents)
        if found is not None:
            return found
    return None, 1.0


# ------------------------------------------------------------------ index and matching


_Plan = list[tuple[list[float], list[_Figure], float, float, bool, bool]]


class _Index:
    """Figures grouped by unit (and by the size of their rounding) and sorted by value,
    so that each claim costs a few bisections over figures near its value."""

    def __init__(self, entries: list[_Figure]) -> None:
        self.entries = entries
        # (unit, rounding bucket) -> (sorted values, figures, largest half-step in the group)
        self.groups: dict[tuple[str | None, int], tuple[list[float], list[_Figure], float]] = {}
        self._plans: dict[str, _Plan] = {}

    @classmethod
    def build(cls, figures: list[_Figure]) -> _Index:
        for i, f in enumerate(figures):
            f.order = i
        index = cls(figures)
        by_key: dict[tuple[str | None, int], list[_Figure]] = {}
        for f in figures:
            bucket = -99 if f.half <= 0 else math.floor(math.log10(f.half))
            by_key.setdefault((f.unit, bucket), []).append(f)
        for key, group in by_key.items():
            group.sort(key=lambda f: f.value)
            index.groups[key] = ([f.value for f in group], group, max(f.half for f in group))
        return index

    def _plan(self, claim_unit: str) -> _Plan:
        """For a claim unit: each group that can back it, with each conversion factor."""
        plan = self._plans.get(claim_unit)
        if plan is None:
            plan = []
            for (unit, _), (values, group, max_half) in self.groups.items():
                if unit is None:
                    plan.append((values, group, max_half, 1.0, False, True))
                    if claim_unit == "%" and max_half == 0:  # an exact fraction (0.45) backs "45 %"
                        plan.append((values, group, 0.0, 100.0, False, True))
                    continue
                for f, loose in conversion_factors(unit, claim_unit):
                    plan.append((values, group, max_half, f, loose, False))
            self._plans[claim_unit] = plan
        return plan

    def best(self, q: Reading) -> _Figure | None:
        rel = _APPROX_REL_TOL if q.approx else _REL_TOL
        claim_tol = max(q.step / 2, 0.05 * q.scale)
        value = q.value
        reach = max(claim_tol, rel * abs(value)) * 1.0001 + 1e-12
        best: tuple[tuple, _Figure] | None = None
        for values, group, max_half, f, loose, unknown in self._plan(q.unit):
            target = value / f  # the claim in the evidence's unit
            radius = reach / f + max_half
            lo = bisect_left(values, target - radius)
            hi = bisect_right(values, target + radius, lo)
            for fig in group[lo:hi]:
                ev = fig.value * f
                tol = max(claim_tol, fig.half * f, rel * max(abs(value), ev))
                if abs(value - ev) <= tol * (1 + 1e-9) + 1e-12:
                    key = (unknown, fig.rank, loose, fig.order)
                    if best is None or key < best[0]:
                        best = (key, fig)
        return best[1] if best else None


def _user_indexes(user_texts: Iterable[str]) -> tuple[_Index, _Index]:
    with_unit, bare = [], []
    for text in user_texts:
        for q in read_quantities(text, keep_names=True, include_bare=True):
            fig = _Figure(abs(q.value), q.unit or None, "user", q.step / 2, 3)
            (with_unit if q.unit else bare).append(fig)
    return _Index.build(with_unit), _Index.build(bare)


def verify_numbers(answer_text: str, evidence: Evidence, user_texts: list[str] | tuple[str, ...] = ()) -> list[NumberClaim]:
    """Each quantity claimed in the answer, with what backs it (None = unbacked)."""
    claims = read_quantities(answer_text)
    if not claims:
        return []
    index = evidence.index()
    user_typed, user_bare = _user_indexes(user_texts)
    out = []
    for q in claims:
        if user_typed.best(q) is not None:
            backed: str | None = "user"
        else:
            fig = index.best(q)
            backed = fig.label if fig is not None else ("user" if user_bare.best(q) is not None else None)
        out.append(NumberClaim(value=q.value, unit=q.unit, text=q.text, backed_by=backed))
    return out


def unbacked(claims: Iterable[NumberClaim]) -> list[NumberClaim]:
    """The claims nothing backs."""
    return [c for c in claims if c.backed_by is None]


# ------------------------------------------------------------------ restating for a regeneration


def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def _restate_lines(node: Any, path: list[str], parents: list[dict], lines: list[str], limit: int) -> None:
    if len(lines) >= limit:
        return
    if isinstance(node, dict):
        if _is_passage(node):
            lines.append(f"  {'.'.join(path)} = passage {node['doc_id']} ({node.get('title', '')})")
            return
        parents.append(node)
        for key, value in node.items():
            path.append(str(key))
            _restate_lines(value, path, parents, lines, limit)
            path.pop()
        parents.pop()
    elif isinstance(node, (list, tuple)):
        for i, value in enumerate(node[:5]):  # the top few options say enough; the rest is noise
            path.append(str(i))
            _restate_lines(value, path, parents, lines, limit)
            path.pop()
        if len(node) > 5:
            lines.append(f"  {'.'.join(path)}: … {len(node) - 5} more")
    elif node is None:
        return
    elif isinstance(node, bool):
        lines.append(f"  {'.'.join(path)} = {str(node).lower()}")
    elif isinstance(node, (int, float)):
        unit, factor = _unit_from_keys(path, parents)
        shown = _fmt(node)
        if unit and factor == 1.0:
            shown += f" {unit}"
        lines.append(f"  {'.'.join(path)} = {shown}")
    else:
        text = str(node).replace("\n", " ")
        lines.append(f"  {'.'.join(path)} = {text[:157] + '…' if len(text) > 160 else text}")


def restate_evidence(evidence: Evidence, max_lines_per_tool: int = 120) -> str:
    """The tool results (and catalog facts) as compact text for the LLM's second try."""
    parts = ["Tool results — every number in the answer must be one of these (rounded or converted), "
             "a catalog fact below, a number in a cited passage, or one the user wrote:"]
    for name, result in evidence.tool_results.items():
        parts.append(f"[{name}]")
        lines: list[str] = []
        if isinstance(result, (dict, list, tuple)):
            _restate_lines(result, [], [], lines, max_lines_per_tool)
        else:
            lines.append(f"  {str(result)[:400]}")
        if len(lines) >= max_lines_per_tool:
            lines = lines[:max_lines_per_tool] + ["  …"]
        parts.extend(lines)
    if evidence.catalog_facts:
        parts.append("[catalog]")
        parts.extend(f"  {f.key} = {_fmt(f.value)}{' ' + f.unit if f.unit else ''}" for f in evidence.catalog_facts)
    return "\n".join(parts)
