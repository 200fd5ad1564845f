"""The labelled retrieval set against the built-in index (the session's shared one).

Floors sit a little under the committed benchmark (benchmarks/retrieval.md:
hybrid recall@5 0.97, MRR 0.93) so a regression fails here before it ships.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

from knowledge.index.service import get_retriever
from knowledge.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from retrieval import doc_ranking, load_queries, scores  # noqa: E402

QUERIES = Path(__file__).parent / "data" / "retrieval_queries.yaml"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def results():
    retriever = get_retriever(Settings.load())
    out = []
    for q in load_queries(QUERIES):
        ranking = doc_ranking(retriever.search(q.query, k=20).hits)
        out.append((q, scores(ranking, q.relevant)))
    return out


def test_labelled_set_is_big_enough():
    queries = load_queries(QUERIES)
    assert len(queries) >= 80
    assert sum(q.lang == "zh" for q in queries) >= 35


@pytest.mark.parametrize("lang", ["all", "en", "zh"])
def test_hybrid_recall_and_mrr_floors(results, lang):
    rows = [s for q, s in results if lang == "all" or q.lang == lang]
    recall = statistics.fmean(r for r, _, _ in rows)
    mrr = statistics.fmean(m for _, m, _ in rows)
    assert recall >= 0.93, f"{lang}: recall@5 {recall:.3f}"
    assert mrr >= 0.85, f"{lang}: MRR {mrr:.3f}"


@pytest.mark.parametrize(
    "ranking, relevant, expected",
    [
        (["a", "b", "c"], ["b"], (1.0, 0.5, 1 / 1.5849625007211563)),  # found second: MRR 1/2, nDCG 1/log2(3)
        (["a", "b"], ["b", "z"], (0.5, 0.5, (1 / 1.5849625007211563) / (1 + 1 / 1.5849625007211563))),
        (["x", "y", "z", "w", "v", "b"], ["b"], (0.0, 1 / 6, 0.0)),  # sixth: outside @5, inside MRR@10
    ],
)
def test_metric_definitions(ranking, relevant, expected):
    assert scores(ranking, relevant) == pytest.approx(expected)
