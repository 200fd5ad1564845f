"""The Slack bot end to end: the real Bolt app over HTTP, signed requests, a fake Slack Web API.

The bot runs exactly as `gpu-advisor slack` runs it in HTTP mode (uvicorn +
Bolt's signature verification), with the real offline Advisor. Requests are
signed with Slack's algorithm (HMAC-SHA256 over `v0:timestamp:body`); what the
bot posts is read back from the fake Web API on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import logging
import re
import socket
import time
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from slack_sdk.signature import SignatureVerifier

from helpers.fake_slack_api import BOT_ID, BOT_USER_ID, TEAM_ID, FakeSlackAPI
from ui.slack.app import create_app
from ui.slack.server import HTTPServer

pytestmark = pytest.mark.slow

SECRET = "test-signing-secret"
TOKEN = "xoxb-test-token"
ACK_LIMIT_S = 3.0  # Slack's deadline for the HTTP response
_ids = itertools.count(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sign(body: bytes, timestamp: int, secret: str = SECRET) -> str:
    base = b"v0:" + str(timestamp).encode() + b":" + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def test_signing_matches_slacks_reference_implementation():
    body, ts = b'{"a":1}', int(time.time())
    assert SignatureVerifier(SECRET).is_valid(body=body, timestamp=str(ts), signature=sign(body, ts))


class Bot:
    """A running bot and the fake Slack it talks to."""

    def __init__(self, fake: FakeSlackAPI, server: HTTPServer, port: int):
        self.fake, self.server = fake, server
        self.url = f"http://127.0.0.1:{port}/slack/events"

    def post(self, body: bytes, content_type: str, *, timestamp: int | None = None, secret: str = SECRET,
             headers: dict[str, str] | None = None) -> tuple[int, str, float]:
        ts = int(time.time()) if timestamp is None else timestamp
        request = urllib.request.Request(self.url, data=body, method="POST", headers={
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": str(ts),
            "X-Slack-Signature": sign(body, ts, secret),
            **(headers or {}),
        })
        start = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:
                return resp.status, resp.read().decode(), time.monotonic() - start
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode(), time.monotonic() - start

    def event(self, event: dict, *, event_id: str | None = None, **kw) -> tuple[int, str, float]:
        body = {
            "token": "legacy", "team_id": TEAM_ID, "api_app_id": "AFAKE", "type": "event_callback",
            "event_id": event_id or f"Ev{next(_ids):06d}", "event_time": int(time.time()), "event": event,
            "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}],
        }
        return self.post(json.dumps(body).encode(), "application/json", **kw)

    def command(self, text: str, channel: str = "CGENERAL", **kw) -> tuple[int, str, float]:
        form = {
            "token": "legacy", "team_id": TEAM_ID, "channel_id": channel, "channel_name": "general",
            "user_id": "UASKER", "user_name": "asker", "command": "/gpu-advisor", "text": text,
            "response_url": self.fake.response_url(f"cmd{next(_ids)}"), "trigger_id": f"trig{next(_ids)}",
        }
        return self.post(urlencode(form).encode(), "application/x-www-form-urlencoded", **kw)


def mention(text: str, channel: str = "CGENERAL", ts: str | None = None, thread_ts: str | None = None) -> dict:
    ts = ts or f"1710000000.{next(_ids):06d}"
    event = {"type": "app_mention", "user": "UASKER", "text": f"<@{BOT_USER_ID}> {text}", "ts": ts, "channel": channel,
             "event_ts": ts, "client_msg_id": f"msg-{ts}"}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def dm(text: str, **extra) -> dict:
    ts = f"1710000000.{next(_ids):06d}"
    return {"type": "message", "channel_type": "im", "channel": "DASKER", "user": "UASKER", "text": text, "ts": ts,
            "event_ts": ts, "client_msg_id": f"msg-{ts}", **extra}


def answered(fake: FakeSlackAPI, placeholder_ts: str) -> dict:
    fake.wait_for(lambda f: any(c.params.get("ts") == placeholder_ts for c in f.calls_to("chat.update")), timeout_s=480)
    return next(c.params for c in fake.calls_to("chat.update") if c.params.get("ts") == placeholder_ts)


def placeholder_for(fake: FakeSlackAPI, thread_ts: str) -> dict:
    fake.wait_for(lambda f: any(c.params.get("thread_ts") == thread_ts for c in f.calls_to("chat.postMessage")), timeout_s=30)
    return next(c for c in fake.calls_to("chat.postMessage") if c.params.get("thread_ts") == thread_ts)


def posted_ts(call) -> str:
    return call.response["ts"]


def all_text(update: dict) -> str:
    parts = [update.get("text") or ""]
    for b in update.get("blocks") or []:
        if b.get("text"):
            parts.append(b["text"]["text"])
        parts += [f["text"] for f in b.get("fields", [])]
        parts += [e.get("text", "") for e in b.get("elements", [])]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def bot():
    from assistant import Advisor

    with FakeSlackAPI(token=TOKEN, not_member={"CSECRET"}) as fake:
        app = create_app(bot_token=TOKEN, signing_secret=SECRET, advisor_factory=Advisor, api_url=fake.url)
        assert fake.calls == []  # offline start: no auth.test in App()
        port = free_port()
        server = HTTPServer(app, "127.0.0.1", port).start()
        try:
            yield Bot(fake, server, port)
        finally:
            server.stop()


def test_mention_is_acked_fast_and_answered_in_its_thread(bot):
    event = mention("Which GPU should I rent to fine-tune Llama-3-8B with LoRA?")
    status, _, seconds = bot.event(event)
    assert status == 200 and seconds < ACK_LIMIT_S
    thinking = placeholder_for(bot.fake, event["ts"])
    assert thinking.params["channel"] == "CGENERAL" and "Thinking" in thinking.params["text"]
    assert thinking.token == TOKEN
    update = answered(bot.fake, posted_ts(thinking))
    blocks = update["blocks"]
    assert 0 < len(blocks) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in blocks if b["type"] == "section")
    assert any(b.get("fields") for b in blocks), "recommendation as fields"
    text = all_text(update)
    # the offline brain lists its sources in the answer, so they are shown once, there (ui/slack/blocks.citation_blocks)
    assert re.search(r"^\[1\] \S", text, re.M), "citations"
    assert not any(b["type"] == "context" and b["elements"][0]["text"].startswith("[1]") for b in blocks), "sources twice"
    assert "GiB" in text and "LoRA" in text and "*Recommended:" in text
    assert len(bot.fake.calls_to("auth.test")) == 1  # the token was checked on the first request, once


def test_follow_up_in_the_thread_continues_the_conversation(bot):
    first = mention("How much GPU memory does Qwen2.5-7B need for inference?")
    bot.event(first)
    answered(bot.fake, posted_ts(placeholder_for(bot.fake, first["ts"])))
    follow = mention("and for QLoRA fine-tuning?", thread_ts=first["ts"])
    status, _, _ = bot.event(follow)
    assert status == 200
    in_thread = lambda f: [c for c in f.calls_to("chat.postMessage") if c.params.get("thread_ts") == first["ts"]]  # noqa: E731
    bot.fake.wait_for(lambda f: len(in_thread(f)) == 2, timeout_s=30)
    thinking = in_thread(bot.fake)[1]
    update = answered(bot.fake, posted_ts(thinking))
    text = all_text(update).lower()
    assert re.search(r"qwen2\.5[- ]7b", text)  # the model (id or display name) came from the first turn only
    assert "qlora" in text


def test_direct_message_is_answered_in_a_thread(bot):
    event = dm("部署 Qwen2.5-7B 推理需要多少显存？")
    status, _, seconds = bot.event(event)
    assert status == 200 and seconds < ACK_LIMIT_S
    thinking = placeholder_for(bot.fake, event["ts"])
    assert thinking.params["channel"] == "DASKER" and "思考" in thinking.params["text"]
    update = answered(bot.fake, posted_ts(thinking))
    assert "GiB" in all_text(update)


def test_retries_and_duplicates_are_not_answered_twice(bot):
    event = mention("Which GPU for Llama-2-13b inference?")
    status, _, _ = bot.event(event, event_id="EvRETRY1")
    assert status == 200
    thinking = placeholder_for(bot.fake, event["ts"])
    for n in (1, 2):  # Slack's retries carry the same event_id
        status, _, seconds = bot.event(event, event_id="EvRETRY1",
                                       headers={"X-Slack-Retry-Num": str(n), "X-Slack-Retry-Reason": "http_timeout"})
        assert status == 200 and seconds < ACK_LIMIT_S
    # the same message delivered again under a new event id (e.g. as message.im too): still one answer
    bot.event(event, event_id="EvRETRY2")
    answered(bot.fake, posted_ts(thinking))
    time.sleep(1.0)
    assert [c.params.get("thread_ts") for c in bot.fake.calls_to("chat.postMessage")].count(event["ts"]) == 1


def test_slash_command_posts_in_channel_then_updates(bot):
    status, body, seconds = bot.command("What does an A100-80GB cost per month on AWS?")
    assert status == 200 and seconds < ACK_LIMIT_S and body == ""
    asked = lambda c: "A100-80GB cost" in (c.params.get("text") or "")  # noqa: E731
    bot.fake.wait_for(lambda f: any(asked(c) for c in f.calls_to("chat.postMessage")), 30)
    root = next(c for c in bot.fake.calls_to("chat.postMessage") if asked(c))
    assert root.params["channel"] == "CGENERAL" and "thread_ts" not in root.params
    assert root.params["text"].startswith("Asked by <@UASKER>: What does an A100-80GB cost")
    assert root.params["text"].endswith("_Thinking…_ :hourglass_flowing_sand:")
    update = answered(bot.fake, posted_ts(root))
    assert update["blocks"][0]["elements"][0]["text"].startswith("Asked by <@UASKER>")


def test_slash_command_in_a_channel_without_the_bot_answers_via_response_url(bot):
    status, _, _ = bot.command("How much VRAM for Llama-2-7B inference?", channel="CSECRET")
    assert status == 200
    bot.fake.wait_for(lambda f: bool(f.calls_to("response_url")), timeout_s=480)
    reply = bot.fake.calls_to("response_url")[0].params
    assert reply["response_type"] == "in_channel" and "GiB" in all_text(reply)


def test_empty_mention_gets_help(bot):
    event = mention("")
    bot.event(event)
    help_post = placeholder_for(bot.fake, event["ts"])
    assert "Ask me which GPU server to rent" in help_post.params["text"]


def test_empty_slash_command_gets_help_in_the_ack(bot):
    status, body, _ = bot.command("   ")
    assert status == 200 and "Ask me which GPU server to rent" in body


@pytest.mark.parametrize(
    "extra",
    [
        {"bot_id": BOT_ID},  # our own message echoed back
        {"bot_id": "BOTHER", "subtype": "bot_message"},  # another bot
        {"subtype": "message_changed"},  # an edit, not a new question
    ],
)
def test_bot_messages_and_edits_are_ignored(bot, extra):
    event = dm("Which GPU for Llama-3-8B?", **extra)
    status, _, _ = bot.event(event)
    assert status == 200
    time.sleep(1.0)
    assert not any(c.params.get("thread_ts") == event["ts"] for c in bot.fake.calls_to("chat.postMessage"))


@pytest.mark.parametrize(
    "case",
    ["wrong secret", "stale timestamp", "future timestamp", "tampered body"],
)
def test_unverified_requests_get_401_and_nothing_is_posted(bot, case):
    before = len(bot.fake.calls)
    event = mention("Which GPU for Llama-3-8B?")
    if case == "wrong secret":
        status, _, _ = bot.event(event, secret="not-the-secret")
    elif case == "stale timestamp":
        status, _, _ = bot.event(event, timestamp=int(time.time()) - 6 * 60)  # outside the 5-minute window
    elif case == "future timestamp":
        status, _, _ = bot.event(event, timestamp=int(time.time()) + 6 * 60)
    else:
        body = json.dumps({"type": "event_callback", "event": event}).encode()
        ts = int(time.time())
        request = urllib.request.Request(bot.url, data=body.replace(b"Llama", b"LLAMA"), method="POST", headers={
            "Content-Type": "application/json", "X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": sign(body, ts)})
        try:
            urllib.request.urlopen(request, timeout=10)
            status = 200
        except urllib.error.HTTPError as err:
            status = err.code
    assert status == 401
    time.sleep(0.5)
    assert len(bot.fake.calls) == before


def test_slash_command_unsigned_gets_401(bot):
    before = len(bot.fake.calls)
    assert bot.command("hi", secret="wrong")[0] == 401
    assert len(bot.fake.calls) == before


class _BrokenAdvisor:
    """Fault injection at the factory seam: the advisor blows up."""

    def ask(self, text):
        raise RuntimeError("index corrupted")


def test_a_failure_becomes_an_apology_in_the_thread():
    with FakeSlackAPI(token=TOKEN) as fake:
        app = create_app(bot_token=TOKEN, signing_secret=SECRET, advisor_factory=_BrokenAdvisor, api_url=fake.url)
        port = free_port()
        server = HTTPServer(app, "127.0.0.1", port).start()
        try:
            b = Bot(fake, server, port)
            event = mention("Which GPU for Llama-3-8B?")
            assert b.event(event)[0] == 200
            update = answered(fake, posted_ts(placeholder_for(fake, event["ts"])))
            assert update["text"] == "Sorry, I couldn't answer that (RuntimeError). Please try again in a moment or rephrase the question."
            assert "index corrupted" not in update["text"]  # no internals in the channel
        finally:
            server.stop()


def test_a_bad_token_is_reported_once_clearly_and_nothing_is_posted(caplog):
    with FakeSlackAPI(token=TOKEN) as fake:
        app = create_app(bot_token="xoxb-revoked", signing_secret=SECRET, advisor_factory=_BrokenAdvisor, api_url=fake.url)
        port = free_port()
        server = HTTPServer(app, "127.0.0.1", port).start()
        try:
            b = Bot(fake, server, port)
            with caplog.at_level(logging.INFO):
                for _ in range(2):
                    assert b.event(mention("Which GPU?"))[0] == 200
                time.sleep(0.5)
            assert [c.method for c in fake.calls] == ["auth.test"]  # checked once, nothing posted
            lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
            assert len(lines) == 1 and lines[0].startswith("Slack rejected SLACK_BOT_TOKEN (invalid_auth)")
        finally:
            server.stop()


class _SlowAdvisor:
    """The factory seam again: an advisor that takes longer than Slack's 3-second deadline."""

    def ask(self, text):
        time.sleep(5)
        raise RuntimeError("too slow anyway")


def test_a_burst_of_slow_questions_is_still_acked_within_3_seconds():
    with FakeSlackAPI(token=TOKEN) as fake:
        app = create_app(bot_token=TOKEN, signing_secret=SECRET, advisor_factory=_SlowAdvisor, api_url=fake.url)
        port = free_port()
        server = HTTPServer(app, "127.0.0.1", port).start()
        try:
            b = Bot(fake, server, port)
            # more than Bolt's 5 listener threads and our 8 workers: the acks must not wait for answers
            results = [b.command(f"question {i}") for i in range(12)]
            assert all(status == 200 for status, _, _ in results)
            assert max(seconds for _, _, seconds in results) < ACK_LIMIT_S
            fake.wait_for(lambda f: len(f.calls_to("chat.update")) == 12, timeout_s=60)  # every one got its apology
        finally:
            server.stop()
