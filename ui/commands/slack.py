"""`gpu-advisor slack`: the Slack bot (Socket Mode with SLACK_APP_TOKEN, else HTTP on --port)."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from tools.errors import ConfigError, InputError
from ui.commands.ask import add_brain_args

SETUP_HINT = "see the README section 'Slack bot' (app manifest: slack/manifest.yaml)"


def register(sub) -> None:
    p = sub.add_parser(
        "slack",
        help="the Slack bot (env: SLACK_BOT_TOKEN; SLACK_APP_TOKEN for Socket Mode, else SLACK_SIGNING_SECRET + HTTP)",
    )
    p.add_argument("--port", type=int, default=3000, help="HTTP mode: port for /slack/events (default 3000)")
    p.add_argument("--host", default="0.0.0.0", help="HTTP mode: address to listen on (default 0.0.0.0)")
    add_brain_args(p)
    p.set_defaults(func=run)


def slack_env() -> dict[str, str | None]:
    env = {k: (os.environ.get(k) or "").strip() or None for k in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_API_URL")}
    if not env["SLACK_BOT_TOKEN"]:
        raise ConfigError(f"SLACK_BOT_TOKEN is not set: export the app's Bot User OAuth Token (xoxb-…); {SETUP_HINT}.")
    if not env["SLACK_BOT_TOKEN"].startswith("xox"):
        raise ConfigError("SLACK_BOT_TOKEN does not look like a Slack token (it starts with xoxb-); check for a typo.")
    if env["SLACK_APP_TOKEN"] and not env["SLACK_APP_TOKEN"].startswith("xapp-"):
        raise ConfigError("SLACK_APP_TOKEN must be an app-level token (xapp-…) with connections:write, for Socket Mode.")
    if not env["SLACK_APP_TOKEN"] and not env["SLACK_SIGNING_SECRET"]:
        raise ConfigError(
            "HTTP mode needs SLACK_SIGNING_SECRET (Basic Information → App Credentials) to verify requests; "
            f"or set SLACK_APP_TOKEN (xapp-…) for Socket Mode; {SETUP_HINT}."
        )
    return env


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port} is not a TCP port: use 1-65535 (default 3000).")
    env = slack_env()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("gpu_advisor").setLevel(logging.INFO)  # ours: duplicates skipped, token problems; libraries: warnings
    from assistant import Advisor
    from knowledge.settings import Settings
    from ui.slack.app import api_base_url, create_app
    from ui.slack.server import HTTPServer, run_socket_mode

    settings = Settings.load(llm=args.llm)
    socket_mode = bool(env["SLACK_APP_TOKEN"])
    app = create_app(
        bot_token=env["SLACK_BOT_TOKEN"],
        signing_secret=env["SLACK_SIGNING_SECRET"],
        advisor_factory=lambda: Advisor(settings),
        api_url=env["SLACK_API_URL"],
        socket_mode=socket_mode,
    )
    api = api_base_url(env["SLACK_API_URL"])
    if socket_mode:
        print(f"GPU Advisor Slack bot: Socket Mode (Web API {api}); Ctrl-C to stop", file=sys.stderr)
        run_socket_mode(app, env["SLACK_APP_TOKEN"])
    else:
        print(f"GPU Advisor Slack bot: HTTP on http://{args.host}:{args.port}/slack/events (Web API {api}); Ctrl-C to stop",
              file=sys.stderr)
        try:
            HTTPServer(app, args.host, args.port).run()
        except OSError as err:
            raise InputError(f"{err}; is the port in use? pick another --port.") from None
    return 0
