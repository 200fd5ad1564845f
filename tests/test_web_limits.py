"""The web app's limits: no uploads, sessions that end leave nothing behind, Markdown that cannot run.

Real Gradio servers on 127.0.0.1 driven by gradio_client and httpx; the Markdown
sanitiser is checked row by row and through a real CommonMark renderer with raw
HTML switched on (what a permissive previewer does).
"""

from __future__ import annotations

import socket
import time
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from gradio_client import Client
from markdown_it import MarkdownIt

from assistant.answer import Answer
from knowledge.settings import Settings
from tools.errors import ConfigError
from ui.web.app import build_app, forget_gradio_session, launch
from ui.web.export import recommendation_markdown, write_export
from ui.web.handlers import FRESH_START, WebApp
from ui.web.sanitize import safe_markdown
from ui.web.session import DEFAULT_IDLE_TTL_S, TTL_ENV, idle_ttl_s

# ---------------------------------------------------------------- safe_markdown, row by row

ROWS = [
    # (input, output, why)
    ("<script>alert(1)</script>", "&lt;script>alert(1)&lt;/script>", "a script tag"),
    ('<img src=x onerror="alert(1)">', '&lt;img src=x onerror="alert(1)">', "an event handler"),
    ("<SCRIPT>x</SCRIPT>", "&lt;SCRIPT>x&lt;/SCRIPT>", "tag names are case-insensitive"),
    ("<scr<script>ipt>", "&lt;scr&lt;script>ipt>", "a nested split tag"),
    ("<!-- hidden -->", "&lt;!-- hidden -->", "a comment hides text"),
    ("<?php x ?> <!DOCTYPE html> <![CDATA[x]]>", "&lt;?php x ?> &lt;!DOCTYPE html> &lt;!\\[CDATA[x]]>", "PI, declaration, CDATA"),
    ("<javascript:alert(1)>", "&lt;javascript:alert(1)>", "an autolink with a script scheme"),
    ("`<script>`", "`&lt;script>`", "inside code too: whether it is code depends on the renderer"),
    ("x < 5, a <= b, 3<4", "x < 5, a <= b, 3<4", "a '<' that cannot open a tag stays"),
    ("<sub>note</sub> <br> <BR/> <b>bold</b>", "<sub>note</sub> <br> <BR/> <b>bold</b>", "bare presentational tags stay"),
    ("<sub onclick=x>y</sub> <body>", "&lt;sub onclick=x>y</sub> &lt;body>", "a kept tag with attributes, a lookalike"),
    ("[x](javascript:alert(1))", "[x]\\(javascript:alert(1))", "a script link loses its link syntax"),
    ("[x](JaVaScRiPt:alert(1))", "[x]\\(JaVaScRiPt:alert(1))", "schemes are case-insensitive"),
    ("[x](&#106;avascript:alert(1))", "[x]\\(&#106;avascript:alert(1))", "an entity where the scheme is"),
    ("[x](<data:text/html,x>)", "[x]\\(&lt;data:text/html,x>)", "an angle-bracket target"),
    ("[x]( file:///etc/passwd)", "[x]\\( file:///etc/passwd)", "a file link"),
    ("> [r]: vbscript:x", "> \\[r]: vbscript:x", "a reference definition, inside a quote"),
    ("[docs](https://example.com/a) [a](#top) [b](docs/a.md) [m](mailto:a@b.c)",
     "[docs](https://example.com/a) [a](#top) [b](docs/a.md) [m](mailto:a@b.c)", "web, anchor, relative, mail links stay"),
    ("[r]:   https://example.com", "[r]:   https://example.com", "a web reference definition stays"),
    ("![pixel](https://tracker.example/p.png)", "!\\[pixel](https://tracker.example/p.png)", "an image would be fetched"),
    ("a\x00b\x07c\x1bd\x7fe\x9bf", "abcdef", "C0 and C1 controls"),
    ("tab\tand\nnewline", "tab\tand\nnewline", "tab and newline stay"),
    ("one\r\ntwo\rthree", "one\ntwo\nthree", "CR LF and CR become LF"),
    ("price \u202e001$\u202c ok \u2066x\u2069", "price 001$ ok x", "bidi overrides and isolates (Trojan Source)"),
    ("bad \ud800 surrogate", "bad \ufffd surrogate", "a lone surrogate cannot be written as UTF-8"),
    ("&lt;script&gt; &amp;", "&lt;script&gt; &amp;", "entities already render as text"),
    ("我想用 LoRA 微调 Qwen2.5-7B，预算每月 5000 元。**粗体** _x_", "我想用 LoRA 微调 Qwen2.5-7B，预算每月 5000 元。**粗体** _x_",
     "Chinese and Markdown emphasis untouched"),
    ("| a | b |\n|---|---|\n| 1 | 2 |", "| a | b |\n|---|---|\n| 1 | 2 |", "tables untouched"),
]


@pytest.mark.parametrize("text, expected, why", ROWS, ids=[r[2] for r in ROWS])
def test_safe_markdown(text, expected, why):
    out = safe_markdown(text)
    assert out == expected
    assert safe_markdown(out) == out  # idempotent


SAFE_TAGS = {"p", "a", "code", "pre", "blockquote", "em", "strong", "sub", "sup", "br", "b", "i", "kbd", "h1", "h2", "h3",
             "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "hr"}


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))

    def handle_comment(self, data):
        self.found.append(("!--", {}))


def rendered_tags(markdown: str) -> list[tuple[str, dict]]:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")  # raw HTML passes, like a permissive previewer
    md.validateLink = lambda url: True  # and no link filtering of its own
    parser = _Tags()
    parser.feed(md.render(markdown))
    return parser.found


@pytest.mark.parametrize("text", [r[0] for r in ROWS], ids=[r[2] for r in ROWS])
def test_rendered_safe_markdown_has_no_active_html(text):
    for tag, attrs in rendered_tags(safe_markdown(text)):
        assert tag in SAFE_TAGS, tag
        assert not [k for k in attrs if k.startswith("on") or k in ("src", "style")]
        href = attrs.get("href", "")
        assert href == "" or href.startswith(("https://", "http://", "mailto:", "#", "docs/")), href


def test_the_renderer_check_can_fail():
    """The same renderer on the raw rows finds what the sanitiser removes."""
    tags = {t for r in ROWS for t, _ in rendered_tags(r[0])}
    assert {"script", "img", "!--", "body"} <= tags
    hrefs = [a.get("href", "") for t, a in rendered_tags("[x](javascript:alert(1))") if t == "a"]
    assert hrefs == ["javascript:alert(1)"]


QUESTION = 'Which GPU for Qwen2.5-7B? <script>window.__pwned=1</script><img src=x onerror="alert(2)"> [x](javascript:alert(3))'


def test_safe_markdown_over_an_export_document():
    """What `write_export` writes."""
    answer = Answer(answer="You asked about <img src=x onerror=alert(4)>: **16 GiB**.", language="en")
    doc = safe_markdown(recommendation_markdown(answer, QUESTION))
    assert "<script" not in doc and "<img" not in doc and "](javascript:" not in doc
    assert "> Which GPU for Qwen2.5-7B? &lt;script>window.__pwned=1&lt;/script>" in doc
    assert "**16 GiB**" in doc
    assert all(tag in SAFE_TAGS for tag, _ in rendered_tags(doc))


def test_the_exported_file_has_no_raw_html(tmp_path):
    answer = Answer(answer="**16 GiB**", language="en")
    text = write_export(answer, QUESTION, tmp_path).read_text(encoding="utf-8")
    assert "<script" not in text and "<img" not in text
    assert "> Which GPU for Qwen2.5-7B? &lt;script>window.__pwned=1&lt;/script>" in text  # shown, as text


# ---------------------------------------------------------------- the idle TTL setting


@pytest.mark.parametrize(
    "argument, env, expected",
    [
        (None, None, DEFAULT_IDLE_TTL_S),  # nothing set: 30 minutes
        (None, "60", 60.0),  # the environment
        (5, "60", 5.0),  # the argument wins
        (None, "", DEFAULT_IDLE_TTL_S),  # set but empty: the default
        (0.5, None, 0.5),
    ],
)
def test_idle_ttl_setting(monkeypatch, argument, env, expected):
    if env is None:
        monkeypatch.delenv(TTL_ENV, raising=False)
    else:
        monkeypatch.setenv(TTL_ENV, env)
    assert idle_ttl_s(argument) == expected


@pytest.mark.parametrize("argument, env", [(None, "abc"), (None, "0"), (None, "-5"), (None, "inf"), (None, "nan"), (0, None)])
def test_a_bad_idle_ttl_is_one_clear_error(monkeypatch, argument, env):
    monkeypatch.delenv(TTL_ENV, raising=False)
    if env is not None:
        monkeypatch.setenv(TTL_ENV, env)
    with pytest.raises(ConfigError, match="is not a number of seconds above 0: use e.g. 1800"):
        idle_ttl_s(argument)


# ---------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(tmp: Path, **kw):
    demo = build_app(Settings.load(feedback_path=tmp / "feedback.jsonl"), export_dir=tmp / "exports", **kw)
    port = free_port()
    launch(demo, "127.0.0.1", port, prevent_thread_lock=True, quiet=True)
    return demo, f"http://127.0.0.1:{port}/"


def client(url: str) -> Client:
    return Client(url, verbose=False, download_files=False)


def wait_until(predicate, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("GRADIO_HEARTBEAT_INTERVAL", "0.3")  # disconnects seen in 0.3 s instead of 15 (read per heartbeat)
    demo, url = serve(tmp_path_factory.mktemp("limits"))
    try:
        yield demo, url
    finally:
        demo.close()
        mp.undo()


@pytest.mark.parametrize("size", [10, 2 * 1024 * 1024])
def test_uploads_are_refused(server, size):
    _, url = server
    files = {"files": ("big.bin", b"\0" * size, "application/octet-stream")}
    response = httpx.post(url + "gradio_api/upload", files=files, timeout=30)
    assert response.status_code == 413, response.text
    assert "maximum allowed size of 0 bytes" in response.text


def test_the_gradio_names_we_rely_on_exist(server):
    demo, _ = server
    holder = demo.state_holder
    assert hasattr(holder, "session_data") and hasattr(holder, "time_last_used") and hasattr(holder, "lock")
    assert isinstance(demo._queue.pending_event_ids_session, dict)
    assert hasattr(demo._queue.pending_messages_per_session, "pop")
    assert forget_gradio_session(demo, "no-such-session") is False


def test_closed_clients_leave_nothing_on_the_server(server):
    demo, url = server
    web = demo.web
    clients = [client(url) for _ in range(4)]
    for c in clients:
        assert c.predict("hi", api_name="/chat").startswith("Hi")
    hashes = {c.session_hash for c in clients}
    assert hashes <= set(demo.state_holder.session_data)
    assert web.live_sessions() >= 4
    for c in clients:
        c.close()
    queue = demo._queue
    held = lambda: (hashes & set(demo.state_holder.session_data), hashes & set(queue.pending_messages_per_session),  # noqa: E731
                    hashes & set(queue.pending_event_ids_session), web.live_sessions())
    assert wait_until(lambda: held() == (set(), set(), set(), 0)), f"still held: {held()}"


def test_an_open_client_keeps_its_session(server):
    demo, url = server
    c = client(url)
    try:
        c.predict("hi", api_name="/chat")
        time.sleep(1.0)  # several heartbeats
        assert c.session_hash in demo.state_holder.session_data
        assert demo.web.live_sessions() >= 1
    finally:
        c.close()


def test_an_idle_session_is_forgotten_after_the_ttl(tmp_path):
    demo, url = serve(tmp_path, session_ttl_s=1.0)
    try:
        web = demo.web
        c = client(url)
        c.predict("hi", api_name="/chat")
        session = web._live[c.session_hash]
        assert session.advisor is not None and session.turns == 1
        # Gradio sweeps expired State every second
        assert wait_until(lambda: session.closed and c.session_hash not in demo.state_holder.session_data, 15)
        assert session.advisor is None and session.last_answer is None
        assert web.live_sessions() == 0
        assert c.predict("hi", api_name="/chat").startswith("Hi")  # the client goes on, in a fresh session
        assert web._live[c.session_hash] is not session and web.live_sessions() == 1
        c.close()
    finally:
        demo.close()


def test_the_page_says_when_the_server_forgot_the_conversation(tmp_path):
    web = WebApp(Settings.load(feedback_path=tmp_path / "f.jsonl"), export_dir=tmp_path)
    shown = [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "earlier answer"}]
    history, *_ = list(web.respond("hi", shown, None))[-1]
    assert FRESH_START["en"] in [m["content"] for m in history]
    fresh, *_ = list(web.respond("hi", [], None))[-1]
    assert FRESH_START["en"] not in [m["content"] for m in fresh]
