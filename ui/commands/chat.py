"""`gpu-advisor chat`: a terminal conversation with history."""

from __future__ import annotations

import argparse
import sys

from tools.errors import InputError
from ui.commands.ask import add_brain_args

EXIT_WORDS = {"exit", "quit", ":q", "退出"}


def register(sub) -> None:
    p = sub.add_parser("chat", help="a terminal conversation (history kept; 'exit' to leave)")
    add_brain_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from assistant import Advisor
    from knowledge.settings import Settings

    advisor = Advisor(Settings.load(llm=args.llm))
    interactive = sys.stdin.isatty()
    if interactive:
        print("GPU Advisor — ask in English or Chinese; 'exit' to leave, 'reset' to start over.")
    while True:
        try:
            line = input("you> " if interactive else "")
        except EOFError:
            return 0
        text = line.strip()
        if text.lower() in EXIT_WORDS:
            return 0
        if text.lower() == "reset":
            advisor.reset()
            continue
        if not text:
            continue
        try:
            answer = advisor.ask(text)
        except InputError as err:
            print(f"error: {err}")
            continue
        print(answer.answer)
        print()
