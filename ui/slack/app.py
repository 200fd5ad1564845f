"""The Bolt app: mentions, direct messages and `/gpu-advisor`, answered in a thread.

- Acknowledge first: Bolt acks events before our listener runs, and the slash
  command calls `ack()` on its first line; the answer is posted afterwards
  ("thinking…", then `chat.update` in place), so Slack's 3-second limit never
  depends on how long the advisor takes.
- One `Advisor` per thread (`threads.ThreadStore`); duplicates and retries are
  dropped by `dedupe.Deduper`; bot messages (ours included) are ignored.
- Offline start: the token is checked with `auth.test` on the first request,
  not at start-up; a bad token is reported once, in one line that says how to
  fix it. Every other failure becomes a short apology in the thread.
"""

from __future__ import annotations

import logging
import re
import threading
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Callable

from slack_bolt import App
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from assistant.understand import language_of
from tools.errors import AdvisorError
from ui.slack import blocks as bk
from ui.slack.dedupe import Deduper, event_keys
from ui.slack.threads import ThreadStore

log = logging.getLogger("gpu_advisor.slack")

COMMAND = "/gpu-advisor"
WORKERS = 8  # answers computed at once; more wait in the pool (Bolt's own 5 listener threads stay free to ack)
DEFAULT_API_URL = "https://slack.com/api/"
AUTH_ERRORS = {"invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive", "no_permission"}
CHANNEL_ERRORS = {"not_in_channel", "channel_not_found", "is_archived"}
MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
USER_FACING_AUTH_ERROR = "GPU Advisor can't use its Slack token right now; please ask the app's admin to check SLACK_BOT_TOKEN."

AdvisorFactory = Callable[[], Any]  # -> an object with .ask(text) -> Answer


def api_base_url(url: str | None) -> str:
    """`SLACK_API_URL` like Slack's own `https://slack.com/api/` (a trailing slash is added if missing)."""
    url = (url or DEFAULT_API_URL).strip()
    return url if url.endswith("/") else url + "/"


def clean_question(text: str) -> str:
    """The question without the bot's @mention (and any other mention tokens)."""
    return " ".join(MENTION.sub(" ", text or "").split())


class TokenCheck:
    """`authorize` for Bolt: `auth.test` once, on the first request that needs it.

    Bolt's default would call `auth.test` in `App()` and fail at start-up without
    network; this defers it, caches the result, and logs one clear line for a
    rejected token (a transient network failure is retried on the next request).
    """

    def __init__(self, client: WebClient, token: str):
        self.client = client
        self.token = token
        self.result: AuthorizeResult | None = None
        self.rejected: str | None = None
        self._lock = threading.Lock()

    def authorize(self, enterprise_id: str | None, team_id: str | None, user_id: str | None) -> AuthorizeResult | None:
        with self._lock:
            if self.result is not None or self.rejected is not None:
                return self.result
            try:
                response = self.client.auth_test(token=self.token)
            except SlackApiError as err:
                code = err.response.get("error", "unknown_error")
                if code in AUTH_ERRORS:
                    self.rejected = code
                    log.error(
                        "Slack rejected SLACK_BOT_TOKEN (%s): set it to the app's Bot User OAuth Token (xoxb-…) from "
                        "api.slack.com/apps → OAuth & Permissions, reinstall the app if it was revoked, and restart.",
                        code,
                    )
                else:
                    log.error("Slack auth.test failed (%s); will retry on the next request.", code)
                return None
            except OSError as err:  # connection refused, DNS, TLS: the API is unreachable
                log.error("Cannot reach the Slack Web API at %s (%s); check SLACK_API_URL / network.", self.client.base_url, err)
                return None
            self.result = AuthorizeResult.from_auth_test_response(
                auth_test_response=response, bot_token=self.token, user_token=None
            )
            return self.result


class SlackAdvisor:
    """The listeners' logic, kept apart from Bolt's registration so each step is readable."""

    def __init__(self, advisor_factory: AdvisorFactory, deduper: Deduper | None = None, threads: ThreadStore | None = None,
                 executor: Executor | None = None):
        self.threads = threads or ThreadStore(advisor_factory)
        self.deduper = deduper or Deduper()
        # the slow part runs here, not in Bolt's small listener pool, so a burst of questions never delays an ack
        self.executor = executor or ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="gpu-advisor-slack")

    def _submit(self, fn: Callable, *args: Any) -> None:
        def run() -> None:
            try:
                fn(*args)
            except Exception:  # a bug in posting must not vanish inside the pool
                log.exception("Slack handler failed")

        self.executor.submit(run)

    # ------------------------------------------------------------ events

    def on_mention(self, body: dict[str, Any], event: dict[str, Any], client: WebClient) -> None:
        if _from_a_bot(event):
            return
        self._answer_event(body, event, client)

    def on_message(self, body: dict[str, Any], event: dict[str, Any], client: WebClient) -> None:
        if event.get("channel_type") != "im" or _from_a_bot(event) or event.get("subtype"):
            return  # edits, joins, bot posts, channel chatter: not questions for us
        self._answer_event(body, event, client)

    def _answer_event(self, body: dict[str, Any], event: dict[str, Any], client: WebClient) -> None:
        if not self.deduper.first_time(event_keys(body, event)):
            log.info("duplicate delivery of %s ignored", body.get("event_id"))
            return
        self._submit(self._answer_new_event, event, client)

    def _answer_new_event(self, event: dict[str, Any], client: WebClient) -> None:
        channel = event["channel"]
        thread_ts = event.get("thread_ts") or event["ts"]
        question = clean_question(event.get("text", ""))
        if not question:
            self._post(client, channel=channel, thread_ts=thread_ts, text=bk.help_text())
            return
        self.answer(client, channel, thread_ts, question)

    # ------------------------------------------------------------ slash command

    def on_command(self, ack: Callable, command: dict[str, Any], client: WebClient, respond: Callable) -> None:
        question = " ".join((command.get("text") or "").split())
        if not question:
            ack(text=bk.help_text())
            return
        ack()
        self._submit(self._answer_command, question, command, client, respond)

    def _answer_command(self, question: str, command: dict[str, Any], client: WebClient, respond: Callable) -> None:
        channel, user = command["channel_id"], command.get("user_id", "")
        lang = language_of(question)
        asked = bk.text_for(lang)["asked"].format(user=bk.escape(user), question=bk.escape(question[:500]))
        try:
            posted = client.chat_postMessage(channel=channel, text=f"{asked}\n{bk.thinking_text(lang)}")
        except SlackApiError as err:
            if err.response.get("error") not in CHANNEL_ERRORS:
                self._report(err)
                return
            # not a member of this channel (or a DM with someone else): answer through the command's response_url
            answer, failure = self._ask(("respond", command.get("response_url") or channel), question)
            if failure:
                respond(text=failure, response_type="ephemeral")
            else:
                respond(text=bk.fallback_text(answer), blocks=bk.answer_blocks(answer, asked_by=user, question=question),
                        response_type="in_channel")
            return
        # the posted message is the thread root: follow-up mentions in its thread continue this conversation
        self._finish(client, channel, posted["ts"], posted["ts"], question, asked_by=user)

    # ------------------------------------------------------------ the answer

    def answer(self, client: WebClient, channel: str, thread_ts: str, question: str) -> None:
        placeholder = self._post(client, channel=channel, thread_ts=thread_ts, text=bk.thinking_text(language_of(question)))
        if placeholder is None:
            return
        self._finish(client, channel, thread_ts, placeholder["ts"], question)

    def _finish(self, client: WebClient, channel: str, thread_ts: str, message_ts: str, question: str, asked_by: str | None = None) -> None:
        answer, failure = self._ask((channel, thread_ts), question)
        if failure:
            self._update(client, channel, message_ts, failure, None)
            return
        self._update(client, channel, message_ts, bk.fallback_text(answer), bk.answer_blocks(answer, asked_by=asked_by, question=question))

    def _ask(self, key: tuple[str, str], question: str):
        """(answer, None) or (None, apology text)."""
        try:
            return self.threads.get(*key).ask(question), None
        except AdvisorError as err:  # bad input, unknown name: the message already says what to do
            return None, f":warning: {bk.escape(str(err))}"
        except Exception as err:  # the edge: never silence, never a traceback in the channel
            log.exception("answering in %s failed", key)
            return None, bk.apology_text(language_of(question), type(err).__name__)

    def _post(self, client: WebClient, **kwargs: Any):
        try:
            return client.chat_postMessage(**kwargs)
        except SlackApiError as err:
            self._report(err)
            return None

    def _update(self, client: WebClient, channel: str, ts: str, text: str, blocks: list | None) -> None:
        try:
            client.chat_update(channel=channel, ts=ts, text=text, blocks=blocks or [])
            return
        except SlackApiError as err:
            if blocks is None or err.response.get("error") in AUTH_ERRORS:
                self._report(err)
                return
            log.warning("chat.update with blocks failed (%s); sending plain text", err.response.get("error"))
        try:  # blocks rejected (e.g. invalid_blocks): the plain text still gets the answer across
            client.chat_update(channel=channel, ts=ts, text=text, blocks=[])
        except SlackApiError as err:
            self._report(err)

    def _report(self, err: SlackApiError) -> None:
        code = err.response.get("error", "unknown_error")
        if code in AUTH_ERRORS:
            log.error("Slack rejected SLACK_BOT_TOKEN (%s): check the Bot User OAuth Token (xoxb-…) and restart.", code)
        elif code == "missing_scope":
            log.error("The Slack app lacks a scope (%s): add the scopes in slack/manifest.yaml and reinstall.",
                      err.response.get("needed", "see the manifest"))
        else:
            log.error("Slack API call failed: %s", code)


class _QuietTokenNotes(logging.Filter):
    """Bolt lines that would only confuse an operator here: that it ignores SLACK_BOT_TOKEN from the
    environment (by design: the token goes through `TokenCheck`), and its generic "installation not found"
    after `TokenCheck` already logged the one clear line about the token."""

    NOTES = (
        "As you gave `client` as well",
        "As `installation_store` or `authorize` has been used",
        "Although the app should be installed into this workspace",
    )

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.NOTES)


def _bolt_logger() -> logging.Logger:
    logger = logging.getLogger("gpu_advisor.slack.bolt")
    if not any(isinstance(f, _QuietTokenNotes) for f in logger.filters):
        logger.addFilter(_QuietTokenNotes())
    return logger


def _from_a_bot(event: dict[str, Any]) -> bool:
    return bool(event.get("bot_id") or event.get("bot_profile") or event.get("subtype") == "bot_message")


def create_app(
    *,
    bot_token: str,
    signing_secret: str | None,
    advisor_factory: AdvisorFactory,
    api_url: str | None = None,
    socket_mode: bool = False,
) -> App:
    """A Bolt app that starts offline (no `auth.test` until the first request).

    `signing_secret` is required in HTTP mode (requests are verified with it,
    5-minute replay window); Socket Mode needs none.
    """
    # the app's client carries no token: each request gets one from `authorize` (Bolt's multi-team path)
    client = WebClient(base_url=api_base_url(api_url))
    check = TokenCheck(client, bot_token)

    # Bolt injects listener arguments by parameter name, so it gets plain functions (not bound methods)
    def authorize(enterprise_id, team_id, user_id):
        return check.authorize(enterprise_id, team_id, user_id)

    app = App(
        client=client,
        signing_secret=signing_secret,
        authorize=authorize,
        request_verification_enabled=not socket_mode,
        user_facing_authorize_error_message=USER_FACING_AUTH_ERROR,
        process_before_response=False,  # ack first, work in Bolt's listener threads
        logger=_bolt_logger(),
    )
    bot = SlackAdvisor(advisor_factory)

    @app.event("app_mention")
    def on_mention(body, event, client):
        bot.on_mention(body, event, client)

    @app.event("message")
    def on_message(body, event, client):
        bot.on_message(body, event, client)

    @app.command(COMMAND)
    def on_command(ack, command, client, respond):
        bot.on_command(ack, command, client, respond)

    app.advisor = bot  # for tests and embedding
    app.signing_secret = None if socket_mode else signing_secret  # `server.asgi_app` checks signatures before parsing
    app.token_check = check
    return app
