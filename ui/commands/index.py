"""`gpu-advisor index [PATH ...] [--remove PATH]`: build or update the guidance index."""

from __future__ import annotations

import argparse
import sys

from ui.output import print_json


def register(sub) -> None:
    p = sub.add_parser(
        "index",
        help="build/update the search index (built-in guidance, catalog cards, your own docs)",
        description="Index the built-in guidance and catalog cards, plus any Markdown, text, HTML or PDF files "
        "or folders you name. Paths stay indexed (and are re-checked on every run) until --remove. "
        "Updates are atomic: searches keep using the last complete index until the new one is written, "
        "and a run that is interrupted loses nothing. One run writes at a time; a second one waits.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="a file or folder of your own guidance to add")
    p.add_argument("--remove", action="append", default=[], metavar="PATH", help="stop indexing a path added earlier")
    p.add_argument("--rebuild", action="store_true", help="re-embed everything from scratch")
    p.add_argument("--list", action="store_true", help="list the paths you have added, then exit")
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.set_defaults(func=run)


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from knowledge.index.paths import read_paths
    from knowledge.index.service import build_index, indexed_paths, remove_path
    from knowledge.settings import Settings

    settings = Settings.load()
    if args.list:
        paths, warning = read_paths(settings.data_dir, settings.index_dir)
        if warning:
            print(f"warning: {warning}", file=sys.stderr)
        for path in paths:
            print(path)
        return 0
    if args.remove and args.paths:
        from tools.errors import InputError

        raise InputError("give either paths to add or --remove PATH, not both in one run")
    if args.remove:
        report = None
        for path in args.remove:
            report = remove_path(settings, path, notify=_say, rebuild=args.rebuild)
            args.rebuild = False
    else:
        report = build_index(settings, args.paths, rebuild=args.rebuild, notify=_say)
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "documents": report.documents,
                "chunks": report.chunks,
                "embedded": report.embedded,
                "copied": report.copied,
                "unchanged": report.unchanged,
                "removed": report.removed,
                "rebuilt": report.rebuilt,
                "generation": report.generation,
                "seconds": round(report.seconds, 2),
                "location": report.location,
                "paths": indexed_paths(settings),
                "warnings": report.warnings,
                "notices": report.notices,
            }
        )
    else:
        print(report.summary())
    return 0
