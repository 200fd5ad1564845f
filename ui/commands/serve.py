"""`gpu-advisor serve`: the chat web app (Gradio) on http://127.0.0.1:7860."""

from __future__ import annotations

import argparse
import sys

from tools.errors import InputError
from ui.commands.ask import add_brain_args


def register(sub) -> None:
    p = sub.add_parser("serve", help="the chat web app (Gradio); open the printed URL in a browser")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for other machines; default 127.0.0.1)")
    p.add_argument("--port", type=int, default=7860, help="port (default 7860)")
    add_brain_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port} is not a TCP port: use 1-65535 (default 7860).")
    from knowledge.settings import Settings
    from ui.web.app import build_app, launch

    settings = Settings.load(llm=args.llm)
    demo = build_app(settings)
    print(f"GPU Advisor web app on http://{args.host}:{args.port}  (feedback → {settings.resolved_feedback_path}; Ctrl-C to stop)",
          file=sys.stderr)
    try:
        launch(demo, args.host, args.port, quiet=True)
    except OSError as err:  # port in use, address not available
        raise InputError(f"cannot listen on {args.host}:{args.port} ({err.strerror or err}); pick another --port.") from None
    return 0
