"""`gpu-advisor eval`: run the golden Q&A set through the advisor and score it.

Exit codes: 0 done (and at or above --min-score), 1 under --min-score or over
--max-unbacked, 2 a malformed golden file or bad flag (nothing is run).
"""

from __future__ import annotations

import argparse
import shlex
import sys

from ui.output import format_table, print_json

EXIT_BELOW = 1


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; give a fraction such as 0.95") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a fraction between 0 and 1 (95 % is 0.95)")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def _workers(text: str) -> int:
    value = _count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("needs at least 1 worker")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval",
        help="score the advisor on the golden Q&A set",
        description="Run golden conversations through the advisor (the same path a chat takes), check each answer "
                    "and report what failed and why. With no --golden, the built-in set.",
    )
    p.add_argument("--golden", action="extend", nargs="+", metavar="PATH",
                   help="golden YAML file(s) or folder(s) (default: the built-in set)")
    p.add_argument("--llm", metavar="PROVIDER:MODEL", help="brain to evaluate (default: configured, usually offline)")
    p.add_argument("--only", action="extend", nargs="+", metavar="ID", help="run only these item ids (or patterns: 'mem-*')")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--report", metavar="FILE.md|FILE.html", help="also write a report for people")
    p.add_argument("--min-score", type=_fraction, metavar="X", help="exit 1 when the pass rate (0-1) is below X")
    p.add_argument("--max-unbacked", type=_count, metavar="N", help="exit 1 when more than N numbers are unbacked")
    p.add_argument("--workers", type=_workers, metavar="N", help="items in parallel (default: 2 offline, 1 with an LLM)")
    p.add_argument("--judge", nargs="?", const="configured", metavar="PROVIDER:MODEL",
                   help="add an LLM-as-judge faithfulness score (default model: the configured LLM)")
    p.set_defaults(func=run)


def command_text(args: argparse.Namespace) -> str:
    """The command line that reproduces this run, for the top of the report."""
    parts = ["gpu-advisor", "eval"]
    for path in args.golden or []:
        parts += ["--golden", path]
    if args.llm:
        parts += ["--llm", args.llm]
    for only in args.only or []:
        parts += ["--only", only]
    if args.json:
        parts.append("--json")
    if args.report:
        parts += ["--report", args.report]
    if args.min_score is not None:
        parts += ["--min-score", f"{args.min_score:g}"]
    if args.max_unbacked is not None:
        parts += ["--max-unbacked", str(args.max_unbacked)]
    if args.workers:
        parts += ["--workers", str(args.workers)]
    if args.judge:
        parts += ["--judge"] + ([] if args.judge == "configured" else [args.judge])
    return shlex.join(parts)


def _progress(total: int):
    done = 0

    def show(result) -> None:
        nonlocal done
        done += 1
        mark = "ok  " if result.passed else "FAIL"
        print(f"[{done}/{total}] {mark} {result.id} ({result.latency_s * 1000:.0f} ms)", file=sys.stderr, flush=True)

    return show


def _summary(report) -> str:
    from assistant.evaluation.report import group_rows, headline_rows

    lines = [format_table(["measure", "value"], headline_rows(report)), ""]
    lines += [format_table(["category", "passed", "rate"], group_rows(report.by_category)), ""]
    lines += [format_table(["language", "passed", "rate"], group_rows(report.by_language)), ""]
    failed = report.failed
    lines.append(f"Failed items: {len(failed)}")
    for item in failed:
        lines.append(f"  {item.id} ({item.lang}, {item.category})")
        lines += [f"    - {f}" for f in item.failures]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from assistant.evaluation.golden import load_golden, select
    from assistant.evaluation.report import report_format, write_report
    from assistant.evaluation.runner import run_eval
    from knowledge.settings import Settings

    # Everything that can be wrong with the input is checked before the first question is asked.
    settings = Settings.load(llm=args.llm)
    items = select(load_golden(args.golden), args.only)
    if args.report:
        report_format(args.report)
    judge = None
    if args.judge:
        from assistant.evaluation.judge import make_judge

        judge = make_judge(settings, None if args.judge == "configured" else args.judge)

    report = run_eval(
        items, settings,
        workers=args.workers, judge=judge,
        golden=[str(p) for p in args.golden or []],
        command=command_text(args),
        progress=_progress(len(items)),
    )
    if args.json:
        print_json(report)
    else:
        print(_summary(report))
    if args.report:
        path = write_report(report, args.report)
        print(f"report written to {path}", file=sys.stderr)
    if args.min_score is not None and report.score < args.min_score:
        print(f"gpu-advisor: pass rate {report.score:.3f} is below --min-score {args.min_score:g}", file=sys.stderr)
        return EXIT_BELOW
    if args.max_unbacked is not None and report.unbacked_numbers > args.max_unbacked:
        print(f"gpu-advisor: {report.unbacked_numbers} unbacked numbers, more than --max-unbacked "
              f"{args.max_unbacked}", file=sys.stderr)
        return EXIT_BELOW
    return 0
