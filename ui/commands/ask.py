"""`gpu-advisor ask "question"`: one answer, as text or JSON."""

from __future__ import annotations

import argparse
import sys

from ui.output import print_json


def add_brain_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--llm", default=None, help="offline (default) or PROVIDER:MODEL, e.g. deepseek:deepseek-chat")


def register(sub) -> None:
    p = sub.add_parser("ask", help="ask the advisor one question")
    p.add_argument("question", nargs="+", help="the question, in Chinese or English")
    add_brain_args(p)
    p.add_argument("--json", action="store_true", help="machine-readable answer")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from assistant import Advisor
    from knowledge.settings import Settings

    advisor = Advisor(Settings.load(llm=args.llm))
    answer = advisor.ask(" ".join(args.question))
    if args.json:
        print_json(answer)
    else:
        sys.stdout.write(answer.answer + "\n")
        if answer.brain.startswith("offline (fallback"):
            sys.stderr.write(f"note: {answer.brain}\n")
    return 0
