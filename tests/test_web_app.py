"""The web app served for real: Gradio on a free port, driven over HTTP with gradio_client.

The real offline Advisor answers; the tests check what a script (or a person)
sees: answers, follow-ups that remember, settings that change the answer,
sessions that never mix, export, feedback, and errors that leave the server up.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from pathlib import Path

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from knowledge.settings import Settings
from ui.web.app import build_app, launch
from ui.web.handlers import WebApp

pytestmark = pytest.mark.slow

PUBLIC_ENDPOINTS = {"/chat", "/settings", "/reset", "/export", "/feedback"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(tmp: Path, **kw):
    settings = Settings.load(feedback_path=tmp / "feedback.jsonl")
    demo = build_app(settings, export_dir=tmp / "exports", **kw)
    port = free_port()
    launch(demo, "127.0.0.1", port, prevent_thread_lock=True, quiet=True)
    return demo, f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("web")
    demo, url = serve(tmp)
    try:
        yield url, tmp
    finally:
        demo.close()


def mentions(text: str, model: str) -> bool:
    """The answer names the model, by id ("qwen2.5-7b") or display name ("Qwen2.5 7B")."""
    pattern = r"(?<![\w.])" + re.escape(model.lower()).replace("\\-", "[- ]") + r"(?![\w.])"
    return re.search(pattern, text.lower()) is not None


def client(url: str, download_to: Path | None = None) -> Client:
    return Client(url, verbose=False, download_files=str(download_to) if download_to else False)


def test_only_the_intended_endpoints_are_public(server):
    url, _ = server
    api = client(url).view_api(return_format="dict", print_info=False)
    assert set(api["named_endpoints"]) == PUBLIC_ENDPOINTS
    assert not api["unnamed_endpoints"]
    chat = api["named_endpoints"]["/chat"]
    assert [p["label"] for p in chat["parameters"]] == ["message"]


def test_ask_then_follow_up_keeps_the_conversation(server):
    url, _ = server
    c = client(url)
    first = c.predict("How much GPU memory does Qwen2.5-7B need for inference?", api_name="/chat")
    assert "GiB" in first and mentions(first, "Qwen2.5-7B")
    follow = c.predict("and for QLoRA fine-tuning?", api_name="/chat")
    assert mentions(follow, "Qwen2.5-7B")  # the model came only from the first turn
    assert "qlora" in follow.lower()


def test_settings_change_applies_to_the_session(server):
    url, _ = server
    question = "Which GPU should I rent to serve Llama-2-13b for inference?"
    default = client(url).predict(question, api_name="/chat")
    c = client(url)
    note = c.predict("offline", "CNY", "cn", "auto", api_name="/settings")
    assert "currency CNY, region cn" in note
    changed = c.predict(question, api_name="/chat")
    assert "¥" in changed and "¥" not in default


def test_two_concurrent_sessions_do_not_mix(server):
    url, _ = server
    models = {"a": "Qwen2.5-7B", "b": "Llama-2-13b"}
    answers: dict[str, list[str]] = {}

    def converse(key: str) -> None:
        c = client(url)
        answers[key] = [
            c.predict(f"How much GPU memory does {models[key]} need for inference?", api_name="/chat"),
            c.predict("and for LoRA fine-tuning?", api_name="/chat"),
        ]

    threads = [threading.Thread(target=converse, args=(k,)) for k in models]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=400)
    for key, other in (("a", "b"), ("b", "a")):
        follow = answers[key][1]
        assert mentions(follow, models[key])
        assert not mentions(follow, models[other])


def test_export_and_feedback(server):
    url, tmp = server
    c = client(url, download_to=tmp / "downloads")  # the export comes over HTTP, as a script would get it
    question = "Which GPU should I rent to fine-tune Llama-2-7b with LoRA?"
    c.predict(question, api_name="/chat")
    path = c.predict(api_name="/export")
    assert Path(path).is_relative_to(tmp / "downloads")
    text = Path(path).read_text(encoding="utf-8")
    assert text.startswith("# GPU Advisor recommendation") and f"> {question}" in text
    assert "| # | Provider | Instance |" in text
    status, box = c.predict("Great, but show spot prices too", api_name="/feedback")
    assert status.startswith("Thanks") and box == ""
    records = [json.loads(line) for line in (tmp / "feedback.jsonl").read_text(encoding="utf-8").splitlines()]
    mine = [r for r in records if r.get("comment") == "Great, but show spot prices too"]
    assert len(mine) == 1 and mine[0]["question"] == question and mine[0]["recommendation"]["provider"]


def test_export_before_any_answer_returns_nothing(server):
    url, _ = server
    assert client(url).predict(api_name="/export") is None


def test_empty_message_is_a_clear_error(server):
    url, _ = server
    with pytest.raises(AppError, match="The message is empty"):
        client(url).predict("   ", api_name="/chat")


def test_reset_forgets_the_conversation(server):
    url, _ = server
    c = client(url)
    c.predict("How much GPU memory does Qwen2.5-7B need for inference?", api_name="/chat")
    c.predict(api_name="/reset")
    assert c.predict(api_name="/export") is None


class _FlakyAdvisor:
    """Fault injection at the factory seam: the first question fails, later ones go to the real Advisor."""

    failures = 0

    def __init__(self, brain: str):
        from assistant import Advisor

        self.real = Advisor(llm=brain)
        self.history = self.real.history

    def ask(self, text):
        if _FlakyAdvisor.failures == 0:
            _FlakyAdvisor.failures += 1
            raise RuntimeError("disk full at /secret/path")
        return self.real.ask(text)

    def reset(self):
        self.real.reset()


def test_a_failing_request_is_friendly_and_the_server_keeps_serving(tmp_path):
    _FlakyAdvisor.failures = 0
    demo, url = serve(tmp_path, advisor_factory=_FlakyAdvisor)
    try:
        c = client(url)
        with pytest.raises(AppError) as err:
            c.predict("How much GPU memory does Qwen2.5-7B need for inference?", api_name="/chat")
        assert "something went wrong while answering (RuntimeError)" in str(err.value)
        assert "/secret/path" not in str(err.value)
        assert "GiB" in c.predict("How much GPU memory does Qwen2.5-7B need for inference?", api_name="/chat")
    finally:
        demo.close()


def test_the_page_stream_shows_steps_answer_sources_and_panel(tmp_path):
    """The chat handler itself (what the browser receives), step by step."""
    web = WebApp(Settings.load(feedback_path=tmp_path / "f.jsonl"), export_dir=tmp_path)
    frames = list(web.respond("我想用 LoRA 微调 Qwen2.5-7B，预算每月 5000 元，租哪家国内的 GPU 服务器？", [], None))
    first_history = frames[0][0]
    assert first_history[0]["role"] == "user" and first_history[1]["metadata"]["status"] == "pending"
    history, box, session, panel, charts = frames[-1]
    titles = [m.get("metadata", {}).get("title", "") for m in history]
    assert "🔧 recommend_config" in titles
    assert any(t.startswith("📚 ") for t in titles)
    answer_messages = [m for m in history if m["role"] == "assistant" and not m.get("metadata")]
    assert answer_messages[-1]["content"] == session.last_answer.answer
    assert len(frames) > 3  # streamed, not one lump
    assert panel.startswith("| # | 实例 |") and "<svg" in charts and "预算" in charts


def test_a_failing_request_in_the_page_becomes_a_chat_message(tmp_path):
    _FlakyAdvisor.failures = 0
    web = WebApp(Settings.load(feedback_path=tmp_path / "f.jsonl"), advisor_factory=_FlakyAdvisor, export_dir=tmp_path)
    history, *_ = list(web.respond("Which GPU for Qwen2.5-7B?", [], None))[-1]
    assert history[-1]["content"].startswith("⚠️ Sorry — something went wrong while answering (RuntimeError)")
