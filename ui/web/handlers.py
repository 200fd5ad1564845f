"""The web app's event handlers: chat (streamed), the /chat API, settings, reset, export, feedback.

Bound to one app's settings, advisor factory, feedback log and export folder
(`WebApp`); every per-user thing lives in the `Session` Gradio keeps per
browser or API client. Errors are converted here, at the edge: a bad question
becomes its one-line message, anything else a friendly apology in the chat
(the traceback goes to the server log), and the server keeps serving.
"""

from __future__ import annotations

import logging
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Callable, Iterator

import gradio as gr

from assistant.answer import Answer
from knowledge.settings import Settings
from tools.errors import AdvisorError, ConfigError, InputError
from ui.web import render
from ui.web.charts import cost_chart, memory_chart
from ui.web.export import write_export
from ui.web.feedback import FeedbackLog, FeedbackRecord, clip, top_option_ref
from ui.web.session import (
    BILLING_CHOICES, CURRENCY_CHOICES, LANGUAGE_CHOICES, REGION_CHOICES, AdvisorFactory, Preferences, Session, idle_ttl_s,
)

log = logging.getLogger("gpu_advisor.web")

PROGRESS_EVERY_S = 1.0  # how often the "working…" step updates its clock

ERROR_TEXT = {
    "en": "Sorry — something went wrong while answering ({kind}). The advisor is still running: please try again or rephrase the question.",
    "zh": "抱歉，回答时出错了（{kind}）。服务仍在运行：请重试，或换个说法再问。",
}
SETTINGS_NOTE = "Applies to this conversation from the next question: {text}."

# What the handlers say themselves (toasts, the pending step, the comment box), per language
SAY = {
    "en": {
        "working": "⏳ Working…", "no_export": "Ask a question first: there is nothing to export yet.",
        "no_comment": "Write a comment first.", "comment_saved": "Thanks — your comment was saved.",
        "up": "Thanks for the 👍 — saved.", "down": "Thanks for the 👎 — saved. A comment (Feedback, right) helps us fix it.",
        "removed": "Feedback removed.",
    },
    "zh": {
        "working": "⏳ 正在计算…", "no_export": "先问一个问题：现在还没有可导出的推荐。",
        "no_comment": "请先写下意见。", "comment_saved": "谢谢，意见已保存。",
        "up": "谢谢你的 👍，已保存。", "down": "谢谢你的 👎，已保存。在右侧“反馈”里写几句意见能帮我们改进。",
        "removed": "已撤销评价。",
    },
}


def chrome_language(setting: str | None, answered: str | None, browser: str | None) -> str | None:
    """The language of the page's own words: the setting (en|zh), else the last answer's, else the browser's;
    None while none is known (the first page load of a browser that says neither)."""
    if setting in ("en", "zh"):
        return setting
    if answered in ("en", "zh"):
        return answered
    tag = (browser or "").strip().lower()
    if tag.startswith("zh"):
        return "zh"
    if tag.startswith("en"):
        return "en"
    return None


def say_lang(session: "Session", text: str = "") -> str:
    """The language the page speaks to this session: `chrome_language` without a browser, else the text's."""
    answer = session.last_answer
    chosen = chrome_language(getattr(getattr(session, "prefs", None), "language", None),
                             answer.language if answer is not None else None, None)
    if chosen is not None:
        return chosen
    if text:
        from assistant.understand.language import language_of

        return "zh" if language_of(text) == "zh" else "en"
    return "en"
# the page still shows a conversation the server forgot (idle longer than the TTL, or the tab reconnected)
FRESH_START = {
    "en": "_This conversation was idle for a while, so I started a fresh one: repeat any detail from earlier that matters._",
    "zh": "_这个对话闲置较久，已重新开始：之前提到的细节如仍需要，请再说一次。_",
}


def default_factory(settings: Settings) -> AdvisorFactory:
    def make(brain: str):
        from assistant import Advisor

        return Advisor(settings, llm=None if brain == (settings.llm or "offline") else brain)

    return make


def brain_choices(settings: Settings) -> list[str]:
    configured = (settings.llm or "offline").strip()
    return ["offline"] if configured == "offline" else [configured, "offline"]


def default_preferences(settings: Settings) -> Preferences:
    return Preferences(
        brain=brain_choices(settings)[0],
        currency=settings.currency.value if settings.currency else "auto",
        region=settings.region.value,
        billing="auto",
        language=settings.lang if settings.lang in ("en", "zh") else "auto",
    )


def _language(text: str) -> str:
    from assistant.understand import language_of

    return language_of(text)


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(c.get("text", "") for c in content if isinstance(c, dict) and c.get("type") == "text")
    return ""


class WebApp:
    """Event handlers bound to one app's settings, advisor factory, feedback log and export folder."""

    def __init__(
        self,
        settings: Settings,
        advisor_factory: AdvisorFactory | None = None,
        feedback_path: Path | None = None,
        export_dir: Path | None = None,
        session_ttl_s: float | None = None,
    ):
        self.settings = settings
        self.factory = advisor_factory or default_factory(settings)
        self.defaults = default_preferences(settings)
        self.feedback = FeedbackLog(feedback_path or settings.resolved_feedback_path)
        self.export_dir = Path(export_dir or tempfile.mkdtemp(prefix="gpu-advisor-export-"))
        self.session_ttl_s = idle_ttl_s(session_ttl_s)
        # the open sessions by Gradio session hash, to close one on unload; weak: Gradio's State owns them
        self._live: weakref.WeakValueDictionary[str, Session] = weakref.WeakValueDictionary()
        self._live_lock = threading.Lock()
        self.drop_ui_state: Callable[[str], None] | None = None  # set by the app: forget Gradio's copy of a session

    def session(self, session: Session | None, request: gr.Request | None = None) -> Session:
        if session is not None:
            return session
        key = getattr(request, "session_hash", None) if request is not None else None
        session = Session(self.factory, self.defaults.model_copy(), key=key)
        if key:
            with self._live_lock:
                self._live[key] = session
        return session

    # ------------------------------------------------------------ session lifetime

    def live_sessions(self) -> int:
        """Sessions whose conversation the server still holds."""
        with self._live_lock:
            return sum(1 for s in self._live.values() if not s.closed)

    def expire(self, session: Session | None) -> None:
        """Gradio's `delete_callback` for the session State: idle longer than the TTL (or deleted with its tab)."""
        if isinstance(session, Session):
            self._end(session.key, session)

    async def unload(self, request: gr.Request) -> None:
        """`demo.unload`: the tab or API client disconnected; its conversation is not kept. A coroutine so that
        Gradio runs it on the event loop, like its State sweeper (`expire`), where its queue lives."""
        key = getattr(request, "session_hash", None)
        if key:
            with self._live_lock:
                session = self._live.get(key)
            self._end(key, session)

    def _end(self, key: str | None, session: Session | None) -> None:
        if session is not None:
            session.close()
        if not key:
            return
        with self._live_lock:
            if self._live.get(key) is session:
                self._live.pop(key, None)
        if self.drop_ui_state is not None:
            self.drop_ui_state(key)

    # ------------------------------------------------------------ chat (streamed, for the page)

    def respond(self, message: str, history: list[dict[str, Any]], session: Session | None,
                request: gr.Request = None) -> Iterator[tuple]:
        text = (message or "").strip()
        history = list(history or [])
        if not text:
            yield history, "", session, gr.skip(), gr.skip()
            return
        forgotten = session is None and any(m.get("role") == "assistant" for m in history)
        session = self.session(session, request)
        _, clause = session.prepare(text)
        user = {"role": "user", "content": text + (f"\n\n*{clause.strip()}*" if clause else "")}
        pending = {"role": "assistant", "content": "", "metadata": {"title": SAY[say_lang(session, text)]["working"], "status": "pending"}}
        yield history + [user, pending], "", session, gr.skip(), gr.skip()

        holder: dict[str, Any] = {}
        worker = threading.Thread(target=self._ask_into, args=(session, text, holder), daemon=True)
        start = time.perf_counter()
        worker.start()
        while worker.is_alive():
            worker.join(PROGRESS_EVERY_S)
            if worker.is_alive():
                waited = {**pending, "metadata": {**pending["metadata"], "log": f"{time.perf_counter() - start:.0f} s"}}
                yield history + [user, waited], gr.skip(), gr.skip(), gr.skip(), gr.skip()

        if "error" in holder:
            reply = {"role": "assistant", "content": holder["error"]}
            yield history + [user, reply], "", session, gr.skip(), gr.skip()
            return

        answer: Answer = holder["answer"]
        base = history + [user] + render.tool_steps(answer)
        if forgotten:
            base.append({"role": "assistant", "content": FRESH_START["zh" if answer.language == "zh" else "en"]})
        for prefix in render.chunks(answer.answer):
            yield base + [{"role": "assistant", "content": prefix}], gr.skip(), gr.skip(), gr.skip(), gr.skip()
        final = base + [{"role": "assistant", "content": answer.answer}]
        sources = render.sources_step(answer)
        if sources:
            final.append(sources)
        yield final, "", session, *self.panels(answer)

    def _ask_into(self, session: Session, text: str, holder: dict[str, Any]) -> None:
        try:
            holder["answer"] = session.ask(text)
        except Exception as err:  # the edge: any failure becomes a friendly line, the server keeps serving
            holder["error"] = self.friendly_error(err, text)

    def friendly_error(self, err: Exception, text: str) -> str:
        if isinstance(err, (InputError, ConfigError)):
            return f"⚠️ {err}"
        if isinstance(err, AdvisorError):
            return f"⚠️ {err}"
        log.exception("answering failed")
        return "⚠️ " + ERROR_TEXT[_language(text)].format(kind=type(err).__name__)

    def panels(self, answer: Answer | None) -> tuple[str, str]:
        """(recommendation Markdown, charts HTML) for the side panel."""
        if answer is None or not answer.options:
            return render.recommendation_panel(answer), ""
        args = render.recommend_args(answer)
        budget_currency = args.get("budget_currency") or args.get("currency")
        shown = answer.options[: render.PANEL_ROWS]
        charts = memory_chart(shown, answer.language) + cost_chart(
            shown,
            period=render.cost_period(answer),
            budget=args.get("budget"),
            budget_currency=budget_currency,
            language=answer.language,
        )
        return render.recommendation_panel(answer), charts

    # ------------------------------------------------------------ API endpoints

    def chat_api(self, message: str, session: Session | None, request: gr.Request = None) -> tuple[str, Session]:
        """Ask the advisor; returns the final answer text. History is kept per client session."""
        text = (message or "").strip()
        session = self.session(session, request)
        if not text:
            raise gr.Error("The message is empty: ask about a model, a GPU, a budget or a provider.")
        holder: dict[str, Any] = {}
        self._ask_into(session, text, holder)
        if "error" in holder:
            raise gr.Error(holder["error"].removeprefix("⚠️ "))
        return holder["answer"].answer, session

    def apply_settings(self, brain: str, currency: str, region: str, billing: str, language: str = "auto",
                       session: Session | None = None, request: gr.Request = None):
        session = self.session(session, request)
        choices = brain_choices(self.settings)
        language = language or "auto"
        for name, value, allowed in (
            ("brain", brain, choices),
            ("currency", currency, CURRENCY_CHOICES),
            ("region", region, REGION_CHOICES),
            ("billing", billing, BILLING_CHOICES),
            ("language", language, LANGUAGE_CHOICES),
        ):
            if value not in allowed:
                raise gr.Error(f"{name} must be one of {', '.join(allowed)} (got {value!r}).")
        session.prefs = Preferences(brain=brain, currency=currency, region=region, billing=billing, language=language)
        text = f"brain {brain}, currency {currency}, region {region}, billing {billing}, language {language}"
        return SETTINGS_NOTE.format(text=text), session

    def reset(self, session: Session | None, request: gr.Request = None):
        session = self.session(session, request)
        session.reset()
        return [], session, render.recommendation_panel(None), "", gr.update(value=None, visible=False)

    def export(self, session: Session | None, request: gr.Request = None):
        """The last recommendation as a Markdown file (None before the first answer)."""
        session = self.session(session, request)
        if session.last_answer is None:
            gr.Warning(SAY[say_lang(session)]["no_export"])
            return None, session
        path = write_export(session.last_answer, session.last_question or "", self.export_dir / session.id)
        return str(path), session

    def comment(self, comment: str, session: Session | None, request: gr.Request = None):
        """Store a comment (and the last thumbs rating, if any) about the last answer."""
        session = self.session(session, request)
        text = (comment or "").strip()
        if not text:
            return SAY[say_lang(session)]["no_comment"], comment, session
        answer = session.last_answer
        self.feedback.append(
            FeedbackRecord(
                session=session.id,
                rating=session.last_rating,
                comment=clip(text, 2000),
                question=clip(session.last_question),
                answer=clip(answer.answer) if answer else None,
                brain=answer.brain if answer else None,
                recommendation=top_option_ref(answer.recommendation) if answer else None,
            )
        )
        return SAY[say_lang(session)]["comment_saved"], "", session

    def like(self, history: list[dict[str, Any]], session: Session | None, data: gr.LikeData, request: gr.Request = None):
        session = self.session(session, request)
        liked = data.liked
        rating = "up" if liked is True else "down" if liked is False else None
        index = data.index if isinstance(data.index, int) else None
        history = history or []
        question = None
        if index is not None:
            for m in reversed(history[: index + 1]):
                if m.get("role") == "user":
                    question = _message_text(m)
                    break
        answer_text = _message_text(history[index]) if index is not None and index < len(history) else None
        session.last_rating = rating
        answer = session.last_answer
        self.feedback.append(
            FeedbackRecord(
                session=session.id,
                rating=rating,
                question=clip(question),
                answer=clip(answer_text),
                brain=answer.brain if answer else None,
                message_index=index,
                recommendation=top_option_ref(answer.recommendation) if answer else None,
            )
        )
        said = SAY[say_lang(session)]
        note = said.get(rating or "", said["removed"])
        gr.Info(note, duration=4)  # the Feedback panel may be folded: say it where the user is looking
        return note, session
