"""`gpu-advisor search "query" [--k 5] [--json]`: what the guidance index finds for a question."""

from __future__ import annotations

import argparse
import sys

from ui.commands._workload import positive_int
from ui.output import print_json

PREVIEW_CHARS = 300


def register(sub) -> None:
    p = sub.add_parser("search", help="search the guidance index (Chinese or English)")
    p.add_argument("query", nargs="+", help="the question or keywords")
    p.add_argument("--k", "-k", type=positive_int, default=5, help="passages to return (default 5)")
    p.add_argument("--lang", choices=["zh", "en"], default=None, help="only passages in this language")
    p.add_argument("--doc", action="append", default=None, metavar="DOC_ID", help="only this doc id (repeatable)")
    p.add_argument("--topic", action="append", default=None, metavar="TOPIC", help="only this topic (repeatable)")
    p.add_argument("--json", action="store_true", help="JSON: {query, truncated, hits: [...]}")
    p.set_defaults(func=run)


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from knowledge.index.hybrid import HybridRetriever
    from knowledge.index.service import get_retriever
    from knowledge.settings import Settings

    query = " ".join(args.query)
    # Validate before loading anything: an empty query must fail fast with one line.
    HybridRetriever.check_query(query)
    retriever = get_retriever(Settings.load(), notify=_say)
    result = retriever.search(query, k=args.k, lang=args.lang, doc_ids=args.doc, topics=args.topic)
    if result.truncated:
        print(f"note: the query was longer than the embedding window and was truncated to: {result.query[:80]}…",
              file=sys.stderr)
    if args.json:
        print_json(
            {
                "query": result.query,
                "truncated": result.truncated,
                "hits": [
                    {"doc_id": h.doc_id, "title": h.title, "section": h.section, "lang": h.lang,
                     "score": h.score, "text": h.text}
                    for h in result.hits
                ],
            }
        )
        return 0
    if not result.hits:
        print("no passages found")
        return 0
    for n, h in enumerate(result.hits, 1):
        where = f"{h.title} > {h.section}" if h.section else h.title
        text = " ".join(h.text.split())
        if len(text) > PREVIEW_CHARS:
            text = text[:PREVIEW_CHARS] + "…"
        print(f"{n}. [{h.doc_id}] ({h.lang}, score {h.score:.4f}) {where}\n   {text}")
    return 0
