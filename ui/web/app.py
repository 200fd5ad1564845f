"""The Gradio Blocks app: chat, settings panel, recommendation panel, feedback, export.

Presentation only: every answer comes from `assistant.Advisor` (one per
browser session, held in a `gr.State`); this module streams it into the chat
as collapsible tool steps, the answer text and its sources, and fills the side
panel from the same `Answer`. Nothing is fetched from the internet: system
fonts, inline SVG charts, analytics off.

API (gradio_client): `/chat` (message -> final answer text, history kept per
client session), `/settings`, `/reset`, `/feedback`, `/export`.
"""

from __future__ import annotations

import logging
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import gradio as gr

from assistant.answer import Answer
from knowledge.settings import Settings
from tools.errors import AdvisorError, ConfigError, InputError
from ui.web import render
from ui.web.charts import cost_chart, memory_chart
from ui.web.export import write_export
from ui.web.feedback import FeedbackLog, FeedbackRecord, clip, top_option_ref
from ui.web.session import BILLING_CHOICES, CURRENCY_CHOICES, REGION_CHOICES, AdvisorFactory, Preferences, Session

log = logging.getLogger("gpu_advisor.web")

TITLE = "GPU Advisor"
CONCURRENCY = 4  # answers computed at once; the rest wait in Gradio's queue
QUEUE_MAX = 256  # waiting requests beyond this are refused with "too busy" instead of piling up
PROGRESS_EVERY_S = 1.0  # how often the "working…" step updates its clock

EXAMPLES = [
    "我想用 LoRA 微调 Qwen2.5-7B，预算每月 5000 元，租哪家国内的 GPU 服务器？",
    "Which GPU should I rent to fine-tune Llama-3-8B with QLoRA on a $500/month budget?",
    "部署 Llama-2-70B 做 FP16 推理需要多少显存？推荐什么实例？",
    "How long does full fine-tuning of a 7B model on 2B tokens take on 8× A100-80GB, and what does it cost?",
    "A100 和 H100 做训练怎么选？",
    "Is spot billing worth it for a week-long training run?",
]

SYSTEM_FONTS = [
    "ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "Noto Sans", "Noto Sans CJK SC",
    "PingFang SC", "Microsoft YaHei", "Helvetica Neue", "Arial", "sans-serif",
]
MONO_FONTS = ["ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "Liberation Mono", "monospace"]

CSS = """
.gradio-container {max-width: 1440px !important; margin: auto;}
#ga-header h1 {margin-bottom: 0.1em;}
#ga-header p {margin-top: 0; color: var(--body-text-color-subdued);}
#ga-recommendation table {font-size: 0.85em;}
#ga-recommendation td, #ga-recommendation th {padding: 4px 6px;}
#ga-recommendation td:nth-child(n+3) {white-space: nowrap;}
#ga-recommendation td:nth-child(2) {word-break: break-all; min-width: 8em;}
#ga-chat table {display: block; overflow-x: auto; font-size: 0.9em;}
#ga-chat td, #ga-chat th {word-break: normal; overflow-wrap: normal; min-width: 3.5em; padding: 4px 8px;}
#ga-chat td:nth-child(-n+6) {white-space: nowrap;}
.ga-chart {display: block; margin: 8px 0 4px 0;}
#ga-send {min-width: 90px;}
"""

HEADER = f"""# 🖥️ {TITLE}
Which GPU server to rent for AI training and inference — in English or 中文. Every number comes from a calculator or \
a cited document; open the 🔧 steps to see how."""

PLACEHOLDER = """### Ask about a model, a budget or a GPU
*e.g.* “Which GPU should I rent to fine-tune Llama-3-8B with QLoRA?” · “部署 Qwen2.5-72B 推理需要几张卡？”"""

ERROR_TEXT = {
    "en": "Sorry — something went wrong while answering ({kind}). The advisor is still running: please try again or rephrase the question.",
    "zh": "抱歉，回答时出错了（{kind}）。服务仍在运行：请重试，或换个说法再问。",
}
SETTINGS_NOTE = {
    "applied": "Applies to this conversation from the next question: {text}.",
    "brain_error": "Brain {brain!r} is not available ({error}); staying on {current}.",
}


def theme() -> gr.themes.Base:
    # plain strings are system font names: no @font-face, nothing downloaded
    return gr.themes.Soft(primary_hue="indigo", neutral_hue="slate", font=SYSTEM_FONTS, font_mono=MONO_FONTS)


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
    )


def _language(text: str) -> str:
    from assistant.understanding import language_of

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
    ):
        self.settings = settings
        self.factory = advisor_factory or default_factory(settings)
        self.defaults = default_preferences(settings)
        self.feedback = FeedbackLog(feedback_path or settings.resolved_feedback_path)
        self.export_dir = Path(export_dir or tempfile.mkdtemp(prefix="gpu-advisor-export-"))

    def session(self, session: Session | None) -> Session:
        return session if session is not None else Session(self.factory, self.defaults.model_copy())

    # ------------------------------------------------------------ chat (streamed, for the page)

    def respond(self, message: str, history: list[dict[str, Any]], session: Session | None) -> Iterator[tuple]:
        text = (message or "").strip()
        history = list(history or [])
        if not text:
            yield history, "", session, gr.skip(), gr.skip()
            return
        session = self.session(session)
        _, clause = session.prepare(text)
        user = {"role": "user", "content": text + (f"\n\n*{clause.strip()}*" if clause else "")}
        pending = {"role": "assistant", "content": "", "metadata": {"title": "⏳ Working…", "status": "pending"}}
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

    def chat_api(self, message: str, session: Session | None) -> tuple[str, Session]:
        """Ask the advisor; returns the final answer text. History is kept per client session."""
        text = (message or "").strip()
        session = self.session(session)
        if not text:
            raise gr.Error("The message is empty: ask about a model, a GPU, a budget or a provider.")
        holder: dict[str, Any] = {}
        self._ask_into(session, text, holder)
        if "error" in holder:
            raise gr.Error(holder["error"].removeprefix("⚠️ "))
        return holder["answer"].answer, session

    def apply_settings(self, brain: str, currency: str, region: str, billing: str, session: Session | None):
        session = self.session(session)
        choices = brain_choices(self.settings)
        for name, value, allowed in (
            ("brain", brain, choices),
            ("currency", currency, CURRENCY_CHOICES),
            ("region", region, REGION_CHOICES),
            ("billing", billing, BILLING_CHOICES),
        ):
            if value not in allowed:
                raise gr.Error(f"{name} must be one of {', '.join(allowed)} (got {value!r}).")
        session.prefs = Preferences(brain=brain, currency=currency, region=region, billing=billing)
        text = f"brain {brain}, currency {currency}, region {region}, billing {billing}"
        return SETTINGS_NOTE["applied"].format(text=text), session

    def reset(self, session: Session | None):
        session = self.session(session)
        session.reset()
        return [], session, render.recommendation_panel(None), "", gr.update(value=None, visible=False)

    def export(self, session: Session | None):
        """The last recommendation as a Markdown file (None before the first answer)."""
        session = self.session(session)
        if session.last_answer is None:
            gr.Warning("Ask a question first: there is nothing to export yet.")
            return None, session
        path = write_export(session.last_answer, session.last_question or "", self.export_dir / session.id)
        return str(path), session

    def comment(self, comment: str, session: Session | None):
        """Store a comment (and the last thumbs rating, if any) about the last answer."""
        session = self.session(session)
        text = (comment or "").strip()
        if not text:
            return "Write a comment first.", comment, session
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
        return "Thanks — your comment was saved.", "", session

    def like(self, history: list[dict[str, Any]], session: Session | None, data: gr.LikeData):
        session = self.session(session)
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
        thanks = {"up": "Thanks for the 👍 — saved.", "down": "Thanks for the 👎 — saved. A comment (Feedback, right) helps us fix it."}
        note = thanks.get(rating, "Feedback removed.")
        gr.Info(note, duration=4)  # the Feedback panel may be folded: say it where the user is looking
        return note, session


def build_app(
    settings: Settings | None = None,
    *,
    advisor_factory: AdvisorFactory | None = None,
    feedback_path: Path | None = None,
    export_dir: Path | None = None,
) -> gr.Blocks:
    """The whole page, queue enabled. Launch it with `launch(demo, ...)` (theme and CSS are launch options in Gradio 6)."""
    settings = settings or Settings.load()
    web = WebApp(settings, advisor_factory, feedback_path, export_dir)
    prefs = web.defaults
    with gr.Blocks(title=TITLE, analytics_enabled=False, fill_width=True) as demo:
        session = gr.State(None)
        gr.Markdown(HEADER, elem_id="ga-header")
        with gr.Row(equal_height=False):
            with gr.Column(scale=3, min_width=420):
                chatbot = gr.Chatbot(
                    elem_id="ga-chat",
                    label="Conversation",
                    show_label=False,
                    height=640,
                    layout="panel",
                    placeholder=PLACEHOLDER,
                    sanitize_html=True,
                    allow_tags=False,
                    feedback_options=("Like", "Dislike"),
                    buttons=["copy", "copy_all"],
                    latex_delimiters=[],
                    group_consecutive_messages=True,
                )
                with gr.Row():
                    message = gr.Textbox(
                        elem_id="ga-input",
                        show_label=False,
                        placeholder="Ask which GPU server to rent…  /  问问该租什么 GPU 服务器…",
                        lines=1,
                        max_lines=6,
                        scale=8,
                        autofocus=True,
                    )
                    send = gr.Button("Send", variant="primary", elem_id="ga-send", scale=1)
                gr.Examples(EXAMPLES, inputs=[message], label="Examples · 示例")
                new_chat = gr.Button("New conversation", size="sm", variant="secondary")
            with gr.Column(scale=2, min_width=360):
                with gr.Group():
                    gr.Markdown("### Recommendation", padding=True)
                    rec = gr.Markdown(render.recommendation_panel(None), elem_id="ga-recommendation", padding=True)
                    charts = gr.HTML("", elem_id="ga-charts", padding=True)
                with gr.Row():
                    export_btn = gr.Button("⬇ Export recommendation (Markdown)", size="sm", elem_id="ga-export")
                export_file = gr.File(label="Recommendation.md", visible=False, interactive=False, elem_id="ga-export-file")
                with gr.Accordion("Settings for this conversation", open=False, elem_id="ga-settings"):
                    brain = gr.Radio(brain_choices(settings), value=prefs.brain, label="Brain")
                    currency = gr.Dropdown(CURRENCY_CHOICES, value=prefs.currency, label="Default currency")
                    region = gr.Dropdown(REGION_CHOICES, value=prefs.region, label="Region (cn = mainland China)")
                    billing = gr.Dropdown(BILLING_CHOICES, value=prefs.billing, label="Billing")
                    settings_note = gr.Markdown("_Changes apply from the next question._", label="status")
                with gr.Accordion("Feedback", open=False, elem_id="ga-feedback"):
                    gr.Markdown("Rate answers with 👍/👎 in the chat; add a comment about the last answer here.")
                    comment = gr.Textbox(label="Comment", lines=2, max_lines=6)
                    comment_btn = gr.Button("Send comment", size="sm")
                    feedback_note = gr.Markdown("", label="status")
        # API-only twin of the chat: message in, final answer text out (hidden from the page)
        api_message = gr.Textbox(visible=False, label="message")
        api_answer = gr.Textbox(visible=False, label="answer")
        api_trigger = gr.Button(visible=False)

        gr.on(
            triggers=[message.submit, send.click],
            fn=web.respond,
            inputs=[message, chatbot, session],
            outputs=[chatbot, message, session, rec, charts],
            api_visibility="private",
            concurrency_limit=CONCURRENCY,
            concurrency_id="advisor",
            show_progress="hidden",
        )
        api_trigger.click(
            web.chat_api,
            inputs=[api_message, session],
            outputs=[api_answer, session],
            api_name="chat",
            api_description="Ask the GPU advisor; returns the final answer text (Markdown). History is kept per client session.",
            concurrency_limit=CONCURRENCY,
            concurrency_id="advisor",
        )
        gr.on(
            triggers=[brain.change, currency.change, region.change, billing.change],
            fn=web.apply_settings,
            inputs=[brain, currency, region, billing, session],
            outputs=[settings_note, session],
            api_name="settings",
            api_description="Session settings: brain, currency (auto|CNY|USD), region (any|cn|intl), billing.",
            queue=False,
        )
        new_chat.click(
            web.reset,
            inputs=[session],
            outputs=[chatbot, session, rec, charts, export_file],
            api_name="reset",
            api_description="Start a new conversation in this session.",
        )
        # the chat's own 🗑 button: what the user no longer sees, the advisor must not remember
        chatbot.clear(web.reset, inputs=[session], outputs=[chatbot, session, rec, charts, export_file], api_visibility="private")
        export_btn.click(
            web.export,
            inputs=[session],
            outputs=[export_file, session],
            api_name="export",
            api_description="The last recommendation as a Markdown file.",
        ).then(lambda f: gr.update(visible=f is not None), inputs=[export_file], outputs=[export_file], api_visibility="private")
        comment_btn.click(
            web.comment,
            inputs=[comment, session],
            outputs=[feedback_note, comment, session],
            api_name="feedback",
            api_description="Store a comment about the last answer (JSONL feedback log).",
        )
        chatbot.like(web.like, inputs=[chatbot, session], outputs=[feedback_note, session], api_visibility="private")
    demo.queue(default_concurrency_limit=CONCURRENCY, max_size=QUEUE_MAX)
    demo.web = web  # the handlers, for tests and for whoever embeds the app
    return demo


def launch(
    demo: gr.Blocks, host: str = "127.0.0.1", port: int = 7860, *, prevent_thread_lock: bool = False, quiet: bool = False
):
    """Start the server with our theme and CSS (Gradio 6 takes them at launch)."""
    return demo.launch(
        server_name=host,
        server_port=port,
        prevent_thread_lock=prevent_thread_lock,
        quiet=quiet,
        show_error=False,  # a failing request already shows our friendly line; tracebacks stay in the log
        theme=theme(),
        css=CSS,
        footer_links=["api"],
        share=False,
        inbrowser=False,
        ssr_mode=False,
        mcp_server=False,
        pwa=False,
    )

