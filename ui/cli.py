"""`gpu-advisor` entry point: parse, dispatch, convert errors at the edge.

Each sub-command lives in `ui/commands/<name>.py` with `register(subparsers)`
(which sets `func` on its parser). Modules are imported lazily so that a
command that needs no embedding model starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from pydantic import ValidationError

from tools.errors import AdvisorError, ConfigError, InputError, flatten_validation_error

# Order is the order `--help` lists them.
COMMANDS = [
    "vram",
    "train_time",
    "cost",
    "serving",
    "recommend",
    "catalog",
    "index",
    "search",
    "ask",
    "chat",
    "serve",
    "slack",
    "eval",
]

EXIT_USAGE = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE (sysexits.h): an internal error, not the user's input


def quiet_third_parties() -> None:
    """No telemetry, no hub look-ups, no progress noise from libraries."""
    for key, value in {
        "ANONYMIZED_TELEMETRY": "False",  # Chroma
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "DO_NOT_TRACK": "1",
    }.items():
        os.environ.setdefault(key, value)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage errors: one line, exit 2
        self.exit(EXIT_USAGE, f"gpu-advisor: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gpu-advisor", description="Which GPU server to rent for AI training and inference.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"ui.commands.{name}")
        except ModuleNotFoundError as err:
            if err.name == f"ui.commands.{name}":
                continue  # not built yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    quiet_third_parties()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    return run_command(args.func, args)


def run_command(func, args: argparse.Namespace) -> int:
    """Run one command at the CLI's edge: every failure is one clear line on stderr and an exit status."""
    try:
        return int(func(args) or 0)
    except (InputError, ConfigError) as err:
        print(f"gpu-advisor: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except ValidationError as err:
        print(f"gpu-advisor: error: {flatten_validation_error(err)}", file=sys.stderr)
        return EXIT_USAGE
    except AdvisorError as err:
        print(f"gpu-advisor: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `gpu-advisor … | head`: the reader left, nothing to report
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except Exception as err:  # the edge: a bug is one line, never a traceback (GPU_ADVISOR_DEBUG=1 shows it)
        if os.environ.get("GPU_ADVISOR_DEBUG"):
            raise
        print(f"gpu-advisor: internal error ({type(err).__name__}: {err}). This is a bug: please report it with the "
              "command you ran; GPU_ADVISOR_DEBUG=1 prints the traceback.", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
