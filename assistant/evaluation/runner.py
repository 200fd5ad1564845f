"""Run golden items through the real `Advisor` and aggregate the scores.

Each item gets a fresh `Advisor` (one conversation), its turns are asked in
order and the last answer is scored; heavy resources (index, catalog,
embedding model) are shared by all Advisors, so a fresh one is cheap. Items
run on a thread pool: two workers for the offline brain (these machines have
two cores), one for an LLM brain unless told otherwise (rate limits).

An Advisor that raises does not stop the run: the item fails with the error
as its reason, and the report counts it under `errors`.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Protocol, Sequence

from pydantic import BaseModel, Field

from assistant.answer import Answer
from assistant.evaluation.golden import GoldenItem
from assistant.evaluation.scorer import CheckResult, failures, score_answer
from knowledge.settings import Settings


class AskingAdvisor(Protocol):
    def ask(self, text: str) -> Answer: ...


class ItemResult(BaseModel):
    id: str
    lang: str
    category: str
    passed: bool
    failures: list[str] = Field(description="'check: reason' for each failed check")
    checks: list[CheckResult] = Field(default_factory=list)
    question: str = Field(description="the scored (last) turn")
    turns: int = 1
    answer: str = ""
    answer_language: str = ""
    tools: list[str] = Field(default_factory=list, description="tools called during the scored turn")
    citations: list[dict[str, Any]] = Field(default_factory=list)
    recommendation: dict[str, Any] | None = None
    unbacked: list[str] = Field(default_factory=list, description="unbacked numbers over all turns")
    latency_s: float = Field(description="seconds for the scored turn")
    total_s: float = Field(description="seconds for all turns")
    brain: str = ""
    error: str | None = None
    judge: dict[str, Any] | None = None
    source_file: str = ""


class GroupStats(BaseModel):
    total: int
    passed: int
    score: float


class EvalReport(BaseModel):
    score: float = Field(description="fraction of items passed, 0-1")
    passed: int
    total: int
    unbacked_numbers: int = Field(description="numbers in answers (all turns) that the verifier could not back")
    errors: int = Field(description="items whose Advisor raised")
    by_category: dict[str, GroupStats]
    by_language: dict[str, GroupStats]
    tool_call_accuracy: float | None = Field(description="expected tool names that were called / expected ones")
    citation_hit_rate: float | None = Field(description="items with sources_any whose answer cited one of them")
    latency_p50_s: float
    latency_p95_s: float
    warmup_s: float | None = None
    duration_s: float
    brain: str
    workers: int
    exchange_rate: str
    golden: list[str]
    command: str = ""
    started: str
    judge: dict[str, Any] | None = None
    items: list[ItemResult]

    @property
    def failed(self) -> list[ItemResult]:
        return [i for i in self.items if not i.passed]


# ------------------------------------------------------------------ one item


def _citation(c: Any) -> dict[str, Any]:
    return {"marker": c.marker, "doc_id": c.doc_id, "title": c.title, "section": c.section}


_REC_KEYS = ("provider", "instance", "region", "gpu", "gpu_count", "nodes", "monthly_cost", "job_cost",
             "price_per_hour", "currency", "billing", "price_grade")


def run_item(item: GoldenItem, make_advisor: Callable[[], AskingAdvisor], settings: Settings,
             judge: Any = None) -> ItemResult:
    start = time.perf_counter()
    unbacked: list[str] = []
    answer: Answer | None = None
    latency = 0.0
    try:
        advisor = make_advisor()
        for n, turn in enumerate(item.turns, start=1):
            t0 = time.perf_counter()
            answer = advisor.ask(turn)
            latency = time.perf_counter() - t0
            prefix = f"turn {n}: " if len(item.turns) > 1 else ""
            unbacked += [f"{prefix}{c.text or c.value} ({c.unit})" for c in answer.unbacked]
    except Exception as err:  # noqa: BLE001 - one broken item must not stop the run; it is reported
        message = f"{err.__class__.__name__}: {err}".strip()
        return ItemResult(
            id=item.id, lang=item.lang, category=item.category, passed=False,
            failures=[f"error: the advisor raised {message}"], question=item.turns[-1], turns=len(item.turns),
            answer=answer.answer if answer else "", unbacked=unbacked, latency_s=round(latency, 4),
            total_s=round(time.perf_counter() - start, 4), error=message, source_file=item.source_file,
        )
    assert answer is not None
    checks = score_answer(item, answer, settings.exchange_rate, latin=_latin_counter(settings))
    rec = answer.recommendation
    result = ItemResult(
        id=item.id, lang=item.lang, category=item.category,
        passed=all(c.passed for c in checks), failures=failures(checks), checks=checks,
        question=item.turns[-1], turns=len(item.turns), answer=answer.answer, answer_language=answer.language,
        tools=[c.name for c in answer.tool_calls], citations=[_citation(c) for c in answer.citations],
        recommendation={k: rec.get(k) for k in _REC_KEYS if k in rec} if rec else None,
        unbacked=unbacked, latency_s=round(latency, 4), total_s=round(time.perf_counter() - start, 4),
        brain=answer.brain, source_file=item.source_file,
    )
    if judge is not None:
        result.judge = judge.judge(item.turns[-1], answer).model_dump()
    return result


# ------------------------------------------------------------------ aggregates


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0-100); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _groups(items: list[ItemResult], key: Callable[[ItemResult], str]) -> dict[str, GroupStats]:
    out: dict[str, list[bool]] = {}
    for i in items:
        out.setdefault(key(i), []).append(i.passed)
    return {
        k: GroupStats(total=len(v), passed=sum(v), score=round(sum(v) / len(v), 4))
        for k, v in sorted(out.items())
    }


def _tool_accuracy(items: list[GoldenItem], results: list[ItemResult]) -> float | None:
    expected = hit = 0
    for item, r in zip(items, results):
        for t in item.expect.tools:
            expected += 1
            hit += any(t.casefold() in called.casefold() for called in r.tools)
    return round(hit / expected, 4) if expected else None


def _citation_hits(items: list[GoldenItem], results: list[ItemResult]) -> float | None:
    asked = [(i, r) for i, r in zip(items, results) if i.expect.sources_any]
    if not asked:
        return None
    hits = sum(any(c["doc_id"] in i.expect.sources_any for c in r.citations) for i, r in asked)
    return round(hits / len(asked), 4)


def aggregate(items: list[GoldenItem], results: list[ItemResult], **meta: Any) -> EvalReport:
    latencies = [r.latency_s for r in results if r.error is None]
    passed = sum(r.passed for r in results)
    judged = [r.judge["score"] for r in results if r.judge and r.judge.get("score") is not None]
    judge_meta = meta.pop("judge_meta", None)
    return EvalReport(
        score=round(passed / len(results), 4) if results else 0.0,
        passed=passed,
        total=len(results),
        unbacked_numbers=sum(len(r.unbacked) for r in results),
        errors=sum(r.error is not None for r in results),
        by_category=_groups(results, lambda r: r.category),
        by_language=_groups(results, lambda r: r.lang),
        tool_call_accuracy=_tool_accuracy(items, results),
        citation_hit_rate=_citation_hits(items, results),
        latency_p50_s=round(percentile(latencies, 50), 4),
        latency_p95_s=round(percentile(latencies, 95), 4),
        judge={**(judge_meta or {}), "mean_faithfulness": round(sum(judged) / len(judged), 4) if judged else None,
               "judged": len(judged)} if judge_meta else None,
        items=results,
        **meta,
    )


# ------------------------------------------------------------------ the run


def default_workers(settings: Settings) -> int:
    return 2 if settings.llm == "offline" else 1


def _default_factory(settings: Settings) -> Callable[[], AskingAdvisor]:
    from assistant import Advisor  # the lead's agent (issue 4); imported late so loading files stays light

    return lambda: Advisor(settings=settings)


def run_eval(
    items: list[GoldenItem],
    settings: Settings,
    *,
    workers: int | None = None,
    make_advisor: Callable[[], AskingAdvisor] | None = None,
    judge: Any = None,
    warm_up: bool = True,
    golden: Sequence[str] = (),
    command: str = "",
    progress: Callable[[ItemResult], None] | None = None,
) -> EvalReport:
    """Ask every item, score it, aggregate. Items come back in input order."""
    make_advisor = make_advisor or _default_factory(settings)
    workers = max(1, workers or default_workers(settings))
    started = dt.datetime.now(dt.timezone.utc)
    t0 = time.perf_counter()
    warmup_s = None
    if warm_up and items:
        # Load the shared index/catalog/model once, outside the timed items, so p95 is not the cold start.
        w0 = time.perf_counter()
        try:
            make_advisor().ask("H100 memory?")
        except Exception:  # noqa: BLE001 - the items themselves will report the failure
            pass
        warmup_s = round(time.perf_counter() - w0, 3)

    def one(item: GoldenItem) -> ItemResult:
        r = run_item(item, make_advisor, settings, judge)
        if progress:
            progress(r)
        return r

    if workers == 1:
        results = [one(i) for i in items]
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="eval") as pool:
            results = list(pool.map(one, items))
    return aggregate(
        items, results,
        warmup_s=warmup_s,
        duration_s=round(time.perf_counter() - t0, 3),
        brain=settings.llm,
        workers=workers,
        exchange_rate=settings.exchange_rate.text,
        golden=list(golden),
        command=command,
        started=started.isoformat(timespec="seconds"),
        judge_meta=getattr(judge, "meta", None),
    )


def _latin_counter(settings):
    """The language check knows the names of the catalog this run uses (a user catalog adds names)."""
    from assistant.evaluation.latin_words import counter_for
    from knowledge.catalog import load_catalog

    return counter_for(load_catalog(settings))
