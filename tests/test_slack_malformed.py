"""Signed but malformed Slack requests: HTTP 400 with one line saying why, never 500, nothing posted.

The real Bolt app behind the real HTTP server (`ui.slack.server`), requests signed
with Slack's algorithm, the local fake Web API recording every call. Before the fix,
each row below answered 500 (Bolt's body parser raised) or 200 with a traceback in a
worker (the listener read a field that was not there).
"""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.fake_slack_api import BOT_USER_ID, TEAM_ID, FakeSlackAPI
from test_slack import SECRET, TOKEN, sign
from tools.errors import InputError
from ui.slack.app import create_app
from ui.slack.server import MAX_BODY_BYTES, HTTPServer, malformed, Malformed

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Refuses:
    """The factory seam: every question gets the advisor's one-line error, which quotes it (no traceback is logged)."""

    def ask(self, text):
        raise InputError(f"refused: {text[:40]}")


class Bot:
    def __init__(self, fake: FakeSlackAPI, port: int):
        self.fake = fake
        self.url = f"http://127.0.0.1:{port}/slack/events"

    def post(self, body: bytes, content_type: str = JSON, *, signed: bool = True, timestamp: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, str]:
        ts = timestamp if timestamp is not None else str(int(time.time()))
        sig = sign(body, ts) if signed else "v0=" + "0" * 64  # sign() formats the timestamp as given
        request = urllib.request.Request(self.url, data=body, method="POST", headers={
            "Content-Type": content_type, "X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sig, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()


@pytest.fixture(scope="module")
def bot():
    with FakeSlackAPI(token=TOKEN) as fake:
        app = create_app(bot_token=TOKEN, signing_secret=SECRET, advisor_factory=_Refuses, api_url=fake.url)
        port = free_port()
        server = HTTPServer(app, "127.0.0.1", port).start()
        try:
            yield Bot(fake, port)
        finally:
            server.stop()


def envelope(event, **top) -> bytes:
    body = {"token": "legacy", "team_id": TEAM_ID, "api_app_id": "AFAKE", "type": "event_callback",
            "event_id": f"Ev{time.monotonic_ns()}", "event": event,
            "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}], **top}
    return json.dumps(body).encode()


MENTION = {"type": "app_mention", "user": "UASKER", "text": f"<@{BOT_USER_ID}> which GPU?", "channel": "CMAL",
           "ts": "1710000000.000001"}

MALFORMED = [
    # (body, content type, what the 400 says)
    (b"not json", JSON, "the body is not JSON"),
    (b"\xff\xfe{}", JSON, "the body is not UTF-8"),  # undecodable bytes: Bolt's .decode() raised
    (b"\xff\xfe", FORM, "the body is not UTF-8"),
    (b"", JSON, "the body is empty"),
    (b"[1, 2]", JSON, "JSON but not an object \\(got list\\)"),
    (b'"text"', JSON, "JSON but not an object \\(got str\\)"),
    (b"{}", JSON, "the payload has no `type`"),
    (b'{"type": 7}', JSON, "the payload has no `type`"),
    (b"[" * 100_000 + b"]" * 100_000, JSON, "nested too deeply|not an object"),  # deep nesting: RecursionError
    (b'{"type": "url_verification"}', JSON, "without a string `challenge`"),  # Bolt echoed {"challenge": null}
    (b'{"type": "event_callback"}', JSON, "without an `event` object"),
    (envelope("x"), JSON, "payload.event must be an object"),
    (envelope({"type": "app_mention", "text": "hi"}), JSON, "app_mention event without a string `channel`"),
    (envelope({**MENTION, "ts": 1710000000.5}), JSON, "payload.event.ts must be a string"),
    (envelope({**MENTION, "text": 5}), JSON, "payload.event.text must be a string"),  # the worker's regex raised
    (envelope({**MENTION, "channel": ["C1"]}), JSON, "payload.event.channel must be a string id"),  # unhashable key
    (envelope({**MENTION, "thread_ts": {}}), JSON, "payload.event.thread_ts must be a string"),
    (envelope({"type": "message", "channel_type": "im", "text": "hi"}), JSON, "message event without a string `channel`"),
    (envelope(MENTION, authorizations="x"), JSON, "payload.authorizations must be a list of objects"),  # Bolt: 'str'.get
    (envelope(MENTION, authorizations=[{"team_id": 5}]), JSON, "payload.authorizations\\[0\\].team_id must be a string"),
    (envelope(MENTION, event_id=["Ev1"]), JSON, "payload.event_id must be a string"),
    (envelope(MENTION, team={"id": 3}), JSON, "payload.team must be a string id"),
    (b"payload=notjson", FORM, "the form field `payload` is not JSON"),
    (b"payload=%5B1%5D", FORM, "the form field `payload` is JSON but not an object"),
    (b"payload=%7B%7D", FORM, "the payload has no `type`"),
    (b"command=%2Fgpu-advisor&text=which+GPU", FORM, "the slash command has no channel_id"),  # KeyError in the worker
    (b"just=a&form=body", FORM, "neither a slash command nor an interactive payload"),
]


@pytest.mark.parametrize("body, content_type, reason", MALFORMED, ids=[f"{i:02d}" for i in range(len(MALFORMED))])
def test_signed_malformed_body_gets_400_and_one_line(bot, body, content_type, reason):
    status, text = bot.post(body, content_type)
    assert status == 400, text
    error = json.loads(text)["error"]
    assert error.startswith("malformed Slack request: ") and "\n" not in error
    with pytest.raises(Malformed, match=reason):
        malformed(body, content_type)


def test_nothing_was_posted_for_the_malformed_bodies(bot):
    before = len(bot.fake.calls)
    for body, content_type, _ in MALFORMED:
        assert bot.post(body, content_type)[0] == 400
    # a well-formed mention after them is answered (with the refusal): when that is there, anything the
    # malformed ones could have started would have posted too
    event = {**MENTION, "channel": "CSENTINEL", "ts": f"1710000001.{time.monotonic_ns() % 10**6:06d}",
             "text": f"<@{BOT_USER_ID}> hi"}
    assert bot.post(envelope(event))[0] == 200
    bot.fake.wait_for(lambda f: any(c.params.get("channel") == "CSENTINEL" for c in f.calls_to("chat.update")), 120)
    channels = {c.params.get("channel") for c in bot.fake.calls[before:] if c.method.startswith("chat.")}
    assert channels == {"CSENTINEL"}


@pytest.mark.parametrize(
    "body, content_type, signed, timestamp",
    [
        (b"not json", JSON, False, None),  # the signature is checked before the body is read: unsigned junk is 401
        (b"\xff\xfe", JSON, False, None),
        # correctly signed over a timestamp that is not a whole number of seconds: slack_sdk's int() raised (500)
        (envelope(MENTION), JSON, True, "abc"),
        (envelope(MENTION), JSON, True, "1.7e9"),
        (envelope(MENTION), JSON, True, ""),
        (envelope(MENTION), JSON, True, str(int(time.time()) - 301)),  # just outside the 5-minute window
    ],
)
def test_unsigned_or_badly_stamped_requests_get_401(bot, body, content_type, signed, timestamp):
    assert bot.post(body, content_type, signed=signed, timestamp=timestamp)[0] == 401


def test_a_body_over_the_limit_gets_413(bot):
    body = b'{"type": "event_callback", "pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    assert bot.post(body)[0] == 413


def test_well_formed_requests_still_pass(bot):
    status, text = bot.post(b'{"type": "url_verification", "challenge": "c-123"}')
    assert status == 200 and json.loads(text) == {"challenge": "c-123"}
    assert bot.post(b"ssl_check=1&token=legacy", FORM)[0] == 200
    # an interaction we have no listener for is Bolt's "unhandled" 404, not a 400
    assert bot.post(urlencode({"payload": json.dumps({"type": "block_actions", "team": None})}).encode(), FORM)[0] == 404


def test_a_slash_command_mentioning_payload_reaches_the_advisor(bot):
    """Bolt parses any form body containing the letters "payload" as an interactive payload, finds none and
    drops the command as unhandled (404); the server hands Bolt its own parse of the form."""
    form = {"token": "legacy", "team_id": TEAM_ID, "channel_id": "CPAYLOAD", "user_id": "UASKER",
            "command": "/gpu-advisor", "text": "max payload for Qwen2.5-7B?",
            "response_url": bot.fake.response_url("payload"), "trigger_id": "trig-payload"}
    status, _ = bot.post(urlencode(form).encode(), FORM)
    assert status == 200
    root = lambda f: [c for c in f.calls_to("chat.postMessage") if c.params.get("channel") == "CPAYLOAD"]  # noqa: E731
    bot.fake.wait_for(lambda f: bool(root(f)), 30)
    ts = root(bot.fake)[0].response["ts"]
    bot.fake.wait_for(lambda f: any(c.params.get("ts") == ts for c in f.calls_to("chat.update")), 30)
    update = next(c.params for c in bot.fake.calls_to("chat.update") if c.params.get("ts") == ts)
    assert update["text"] == ":warning: refused: max payload for Qwen2.5-7B?"  # the advisor got the question


# ---------------------------------------------------------------- fuzz: any signed JSON body

SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12)
ANY_JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                        max_leaves=12)
FIELD_NAMES = ["type", "event", "channel", "ts", "text", "user", "team", "team_id", "thread_ts", "authorizations",
               "event_id", "enterprise", "message", "item", "channel_type", "subtype", "bot_id", "response_urls",
               "is_ext_shared_channel", "user_team", "challenge"]
TYPES = st.sampled_from(["event_callback", "app_mention", "message", "url_verification", "block_actions", "view_submission"])


def slackish(depth: int = 2):
    value = ANY_JSON | TYPES
    if depth:
        value = value | slackish(depth - 1) | st.lists(slackish(depth - 1), max_size=2)
    return st.dictionaries(st.sampled_from(FIELD_NAMES), value, max_size=8)


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=slackish() | ANY_JSON)
def test_fuzz_any_signed_json_body_is_never_a_500(bot, caplog, body):
    raw = json.dumps(body).encode()
    with caplog.at_level(logging.ERROR):
        status, text = bot.post(raw)
        time.sleep(0.005)  # a listener that raises does so in a worker right after the ack
    assert status in (200, 400, 404), text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and "auth.test" not in r.getMessage()]
