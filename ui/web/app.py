"""The Gradio Blocks app: chat, settings panel, recommendation panel, feedback, export.

Presentation only: every answer comes from `assistant.Advisor` (one per
browser session, held in a `gr.State`); this module streams it into the chat
as collapsible tool steps, the answer text and its sources, and fills the side
panel from the same `Answer`. Nothing is fetched from the internet: system
fonts, inline SVG charts, analytics off.

API (gradio_client): `/chat` (message -> final answer text, history kept per
client session), `/settings`, `/reset`, `/feedback`, `/export`. The handlers
live in `ui.web.handlers`; this module is the layout, the wiring and `Page`, the
page's own layer around them: its words (`CHROME`) follow the conversation's
language, and the side panel keeps the last recommendation when a follow-up has
none. Those are private events chained after the public ones, so the API's
signatures do not change.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import gradio as gr

from assistant.answer import Answer
from knowledge.settings import Settings
from ui.web import render
from ui.web.export import write_export
from ui.web.handlers import SETTINGS_NOTE, WebApp, brain_choices, chrome_language  # noqa: F401 (chrome_language: used here and by tests)
from ui.web.session import BILLING_LABELS, CURRENCY_LABELS, LANGUAGE_LABELS, REGION_LABELS, AdvisorFactory, Session

TITLE = "GPU Advisor"
CONCURRENCY = 4  # answers computed at once; the rest wait in Gradio's queue
QUEUE_MAX = 256  # waiting requests beyond this are refused with "too busy" instead of piling up
MAX_UPLOAD_BYTES = 0  # the app takes no files: Gradio's upload route refuses every non-empty file (HTTP 413)
# Gradio keeps a copy of the page's config per session (about 60 KiB here) until this many newer sessions
# push it out; ours are dropped when the session ends, so this is only the backstop for sessions still open
STATE_SESSION_CAPACITY = 2000

EXAMPLES = [
    "我想用 LoRA 微调 Qwen2.5-7B，预算每月 5000 元，租哪家国内的 GPU 服务器？",
    "Which GPU should I rent to fine-tune Llama-3-8B with QLoRA on a $500/month budget?",
    "部署 Llama-2-70B 做 FP16 推理需要多少显存？推荐什么实例？",
    "How long does full fine-tuning of a 7B model on 2B tokens take on 8× A100-80GB, and what does it cost?",
    "A100 和 H100 做训练怎么选？",
    "Spot vs on-demand for a week-long training run: what are the risks?",
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
/* the side panel: provider over instance id in one narrow column; ids never break, other cells wrap
   at spaces and hyphens so the six columns fit the panel's width; the table scrolls if they cannot */
#ga-recommendation table {display: block; width: fit-content; max-width: 100%; overflow-x: auto; font-size: 0.85em;}
#ga-recommendation td, #ga-recommendation th {padding: 4px 6px; vertical-align: top; overflow-wrap: break-word;}
#ga-recommendation td:nth-child(3), #ga-recommendation td:nth-child(n+5) {white-space: nowrap;}
#ga-recommendation td code {white-space: nowrap; font-size: 0.95em;}
/* tables in answers: the table scrolls sideways inside its message, cells wrap at word boundaries
   (Chinese between characters) but no column drops below a few characters, identifiers in code
   spans never break, and the last column (the reasons, usually) keeps a readable width */
#ga-chat table {display: block; width: fit-content; max-width: 100%; overflow-x: auto; font-size: 0.9em;}
#ga-chat td, #ga-chat th {white-space: normal; word-break: normal; overflow-wrap: break-word; vertical-align: top;
  min-width: 5em; padding: 4px 8px;}
#ga-chat td code, #ga-chat th code {white-space: nowrap;}
#ga-chat td:last-child {min-width: 12em;}
/* the table box itself draws nothing: the cells have the borders (Gradio's prose style pads and frames the table) */
#ga-recommendation table, #ga-chat table {padding: 0; border: 0;}
.ga-chart {display: block; margin: 8px 0 4px 0;}
#ga-send {min-width: 90px;}
"""

# ---------------------------------------------------------------- page chrome per language
#
# The page's own words follow the conversation: the language setting when it is en or zh, else the
# language of the last answer, else the browser's language; before any of those is known the
# header and the placeholders are bilingual. Element ids never change with the language.

HEADER = f"""# 🖥️ {TITLE}
Which GPU server to rent for AI training and inference — in English or 中文. Every number comes from a calculator or \\
a cited document; open the 🔧 steps to see how."""

PLACEHOLDER = """### Ask about a model, a budget or a GPU
*e.g.* “Which GPU should I rent to fine-tune Llama-3-8B with QLoRA?” · “部署 Qwen2.5-72B 推理需要几张卡？”"""

INPUT_PLACEHOLDER = "Ask which GPU server to rent…  /  问问该租什么 GPU 服务器…"

CHROME: dict[str, dict[str, str]] = {
    "en": {
        "header": f"""# 🖥️ {TITLE}
Which GPU server to rent for AI training and inference. Every number comes from a calculator or a cited document; \\
open the 🔧 steps to see how.""",
        "placeholder": """### Ask about a model, a budget or a GPU
*e.g.* “Which GPU should I rent to fine-tune Llama-3-8B with QLoRA?” · “How many GPUs to serve Qwen2.5-72B?”""",
        "input": "Ask which GPU server to rent…",
        "send": "Send",
        "examples": "Examples",
        "new_chat": "New conversation",
        "panel": "### Recommendation",
        "export": "⬇ Export recommendation (Markdown)",
        "export_file": "Recommendation.md",
        "settings": "Settings for this conversation",
        "brain": "Brain",
        "currency": "Currency",
        "region": "Region",
        "billing": "Billing",
        "language": "Answer language",
        "settings_hint": "_Changes apply from the next question._",
        "feedback": "Feedback",
        "feedback_intro": "Rate answers with 👍/👎 in the chat; add a comment about the last answer here.",
        "comment": "Comment",
        "comment_send": "Send comment",
    },
    "zh": {
        "header": f"""# 🖥️ {TITLE}
帮你挑选做 AI 训练和推理该租的 GPU 服务器，中文、英文都可以问。每个数字都来自计算器或引用的资料；展开 🔧 步骤可以看到怎么算的。""",
        "placeholder": """### 问问模型、预算或 GPU
*例如*：“想用 QLoRA 微调 Llama-3-8B，该租什么 GPU？” · “部署 Qwen2.5-72B 推理需要几张卡？”""",
        "input": "问问该租什么 GPU 服务器…",
        "send": "发送",
        "examples": "示例",
        "new_chat": "新对话",
        "panel": "### 推荐配置",
        "export": "⬇ 导出推荐（Markdown）",
        "export_file": "推荐配置.md",
        "settings": "本对话的设置",
        "brain": "回答引擎",
        "currency": "币种",
        "region": "地区",
        "billing": "计费方式",
        "language": "回答语言",
        "settings_hint": "_修改从下一个问题起生效。_",
        "feedback": "反馈",
        "feedback_intro": "在对话里用 👍/👎 给回答打分；对最后一个回答的意见写在这里。",
        "comment": "意见",
        "comment_send": "提交意见",
    },
}

BRAIN_LABELS = {"en": {"offline": "Offline (built in, no network)"}, "zh": {"offline": "离线（内置，不联网）"}}
# the settings' choices in Chinese, by the value sent over the API (English labels: ui.web.session)
CHOICE_LABELS_ZH = {
    "currency": {"auto": "随问题", "CNY": "人民币 ¥", "USD": "美元 $"},
    "region": {"any": "不限地区", "cn": "中国大陆（cn）", "intl": "中国大陆以外（intl）"},
    "billing": {"auto": "由顾问决定", "on_demand": "按量付费", "spot": "竞价实例（可被回收）", "monthly": "包月",
                "yearly": "包年 / 预留"},
    "language": {"auto": "跟随问题", "en": "English", "zh": "中文"},
}
# how the settings note names each value (the page's note; the /settings API returns the handler's English one)
NOTE_ZH = {
    "head": "从下一个问题起对本对话生效：{text}。",
    "names": {"brain": "回答引擎", "currency": "币种", "region": "地区", "billing": "计费", "language": "回答语言"},
}
SETTING_LABELS = {"currency": CURRENCY_LABELS, "region": REGION_LABELS, "billing": BILLING_LABELS, "language": LANGUAGE_LABELS}


def choice_labels(dimension: str, lang: str | None) -> list[tuple[str, str]]:
    """A settings dropdown's (label, value) pairs in the page's language."""
    zh = CHOICE_LABELS_ZH[dimension] if lang == "zh" else {}
    return [(zh.get(value, label), value) for label, value in SETTING_LABELS[dimension]]


def brain_labels(brains: list[str], lang: str | None) -> list[tuple[str, str]]:
    words = BRAIN_LABELS["zh" if lang == "zh" else "en"]
    return [(words.get(b, b), b) for b in brains]


def chrome_text(lang: str | None) -> dict[str, str]:
    """The page's words in `lang`; None: English labels with the bilingual header and placeholders."""
    if lang in CHROME:
        return CHROME[lang]
    return {**CHROME["en"], "header": HEADER, "placeholder": PLACEHOLDER, "input": INPUT_PLACEHOLDER, "examples": "Examples · 示例"}


def settings_note_text(prefs: Any, lang: str | None) -> str:
    """The note under the settings for the session's current settings, in the page's language."""
    values = {d: getattr(prefs, d) for d in ("brain", "currency", "region", "billing", "language")}
    if lang != "zh":  # the handler's own wording, so the page and the /settings API say the same
        return SETTINGS_NOTE.format(text=", ".join(f"{d} {v}" for d, v in values.items()))
    words = {d: dict((v, label) for label, v in choice_labels(d, "zh")) for d in SETTING_LABELS}
    words["brain"] = dict((v, label) for label, v in brain_labels([values["brain"]], "zh"))
    text = "，".join(f"{NOTE_ZH['names'][d]} {words[d].get(v, v)}" for d, v in values.items())
    return NOTE_ZH["head"].format(text=text)


# ---------------------------------------------------------------- the panel across turns


@dataclass
class Shown:
    """The recommendation the panel shows: the answer that had it, its question, and which question it was."""

    answer: Answer
    question: str
    turn: int


class PanelMemory:
    """Per conversation, the last answer that had a recommendation.

    A follow-up answered without one (a yes/no check, a guidance question) keeps that recommendation
    in the side panel, labelled as from the earlier question, instead of blanking it; the export
    writes what the panel shows. A new conversation (the 🗑 or "New conversation" button, a session
    that ended) starts empty. Keyed weakly by the `Session`, so it ends with it.
    """

    def __init__(self) -> None:
        self._shown: weakref.WeakKeyDictionary[Session, Shown] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def after_answer(self, session: Session) -> Shown | None:
        """Record the session's last answer; the earlier recommendation the panel should show instead, if any."""
        answer = session.last_answer
        with self._lock:
            if answer is None or session.turns <= 1:  # the first answer of a conversation: nothing earlier counts
                self._shown.pop(session, None)
            if answer is None:
                return None
            if answer.options:
                self._shown[session] = Shown(answer, session.last_question or "", session.turns)
                return None
            if render.ran_recommender(answer):  # the recommender ran and nothing fits: say so, forget the old one
                self._shown.pop(session, None)
                return None
            return self._shown.get(session)

    def shown(self, session: Session | None) -> Shown | None:
        """What the panel shows now: the last answer when it has options, else the kept earlier one."""
        if session is None or session.last_answer is None:
            return None
        if session.last_answer.options:
            return Shown(session.last_answer, session.last_question or "", session.turns)
        with self._lock:
            return self._shown.get(session)

    def forget(self, session: Session | None) -> None:
        if session is not None:
            with self._lock:
                self._shown.pop(session, None)


def in_language(answer: Answer, lang: str) -> Answer:
    """The same answer labelled with another language: its table and notes re-render from codes."""
    return answer if answer.language == lang else answer.model_copy(update={"language": lang})


# the page components whose words follow the language, in the order the chrome handlers return their updates
CHROME_SLOTS = (
    "header", "chatbot", "message", "send", "examples", "new_chat", "panel_title", "export", "export_file",
    "settings", "brain", "currency", "region", "billing", "language", "settings_note",
    "feedback", "feedback_intro", "comment", "comment_send",
)


class Page:
    """The page's handlers around `WebApp`'s: the side panel across turns and the chrome in the conversation's language.

    The chrome handlers return one `gr.update` per `CHROME_SLOTS` entry (all `gr.skip()` when nothing
    changes), then the new chrome state `{"lang", "browser", "noted"}`. They are private events chained
    after the public ones, so `/settings`, `/reset` and `/export` keep their signatures.
    """

    def __init__(self, web: WebApp, brains: list[str]):
        self.web = web
        self.brains = brains
        self.memory = PanelMemory()
        self.start_lang = chrome_language(web.defaults.language, None, None)  # GPU_ADVISOR_LANG=zh: Chinese at once

    def initial_state(self) -> dict[str, Any]:
        return {"lang": self.start_lang, "browser": None, "noted": False}

    # ------------------------------------------------------------ chrome

    def chrome_updates(self, state: dict[str, Any] | None, lang: str | None, sess: Session | None, *,
                       noted: bool = False) -> list:
        """The updates that show the page in `lang`; `noted`: the settings note describes the session's settings."""
        state = dict(state or self.initial_state())
        noted = noted or bool(state.get("noted"))
        if lang is None or (lang == state.get("lang") and noted == bool(state.get("noted"))):
            return [gr.skip()] * len(CHROME_SLOTS) + [state]
        w = chrome_text(lang)
        note = settings_note_text(sess.prefs, lang) if noted and sess is not None else w["settings_hint"]
        state.update(lang=lang, noted=noted)
        by_slot = {
            "header": gr.update(value=w["header"]), "chatbot": gr.update(placeholder=w["placeholder"]),
            "message": gr.update(placeholder=w["input"]), "send": gr.update(value=w["send"]),
            "examples": gr.update(label=w["examples"]), "new_chat": gr.update(value=w["new_chat"]),
            "panel_title": gr.update(value=w["panel"]), "export": gr.update(value=w["export"]),
            "export_file": gr.update(label=w["export_file"]), "settings": gr.update(label=w["settings"]),
            "brain": gr.update(choices=brain_labels(self.brains, lang), label=w["brain"]),
            **{d: gr.update(choices=choice_labels(d, lang), label=w[d]) for d in SETTING_LABELS},
            "settings_note": gr.update(value=note), "feedback": gr.update(label=w["feedback"]),
            "feedback_intro": gr.update(value=w["feedback_intro"]), "comment": gr.update(label=w["comment"]),
            "comment_send": gr.update(value=w["comment_send"]),
        }
        return [by_slot[slot] for slot in CHROME_SLOTS] + [state]

    @staticmethod
    def _answered(sess: Session | None) -> str | None:
        return sess.last_answer.language if sess is not None and sess.last_answer is not None else None

    def after_answer(self, sess: Session | None, setting: str, state: dict[str, Any] | None) -> list:
        """Chained after the chat: the page follows the answer's language (unless the setting forces one)."""
        lang = chrome_language(setting, self._answered(sess), (state or {}).get("browser"))
        return self.chrome_updates(state, lang, sess)

    def after_settings(self, sess: Session | None, setting: str, state: dict[str, Any] | None) -> list:
        """Chained after a successful `/settings`: the language setting switches the page; the note says what is set."""
        state = state or self.initial_state()
        lang = chrome_language(setting, self._answered(sess), state.get("browser")) or state.get("lang")
        updates = self.chrome_updates(state, lang, sess, noted=True)
        if lang == "zh" and sess is not None:  # the handler has just written its English note: say it in Chinese
            updates[CHROME_SLOTS.index("settings_note")] = gr.update(value=settings_note_text(sess.prefs, "zh"))
        return updates

    def on_load(self, browser: str, state: dict[str, Any] | None) -> list:
        """Page load: the browser's language (`navigator.language`) until a setting or an answer says otherwise;
        the chrome updates, then the empty panel's line."""
        state = {**(state or self.initial_state()), "browser": (browser or "")[:35]}
        lang = chrome_language(self.web.defaults.language, None, state["browser"])
        return [*self.chrome_updates(state, lang, None), render.recommendation_panel(None, language=lang or "en")]

    # ------------------------------------------------------------ chat, reset, export

    def respond(self, message: str, history: list[dict[str, Any]], session: Session | None,
                request: gr.Request = None) -> Iterator[tuple]:
        """`WebApp.respond`'s stream, with the panel kept on the last recommendation across follow-ups."""
        for history_, box, sess, panel, plots in self.web.respond(message, history, session, request):
            if isinstance(panel, str) and isinstance(sess, Session):  # the final frame of an answer
                earlier = self.memory.after_answer(sess)
                if earlier is not None and sess.last_answer is not None:
                    shown = in_language(earlier.answer, sess.last_answer.language)
                    panel, plots = render.recommendation_panel(shown, earlier=earlier.turn), self.web.panels(shown)[1]
            yield history_, box, sess, panel, plots

    def reset(self, session: Session | None, state: dict[str, Any] | None = None, request: gr.Request = None):
        """`WebApp.reset` (the same outputs), forgetting the kept panel; the empty panel in the page's language."""
        self.memory.forget(session)
        history, session, _, plots, file = self.web.reset(session, request)
        lang = (state or {}).get("lang") or "en"
        return history, session, render.recommendation_panel(None, language=lang), plots, file

    def export(self, session: Session | None, request: gr.Request = None):
        """What the panel shows, as a Markdown file: the last recommendation, even from an earlier question."""
        session = self.web.session(session, request)
        shown = self.memory.shown(session)
        if shown is None or shown.answer is session.last_answer:
            return self.web.export(session, request)
        path = write_export(shown.answer, shown.question, self.web.export_dir / session.id)
        return str(path), session


def theme() -> gr.themes.Base:
    # plain strings are system font names: no @font-face, nothing downloaded
    return gr.themes.Soft(primary_hue="indigo", neutral_hue="slate", font=SYSTEM_FONTS, font_mono=MONO_FONTS)


def build_app(
    settings: Settings | None = None,
    *,
    advisor_factory: AdvisorFactory | None = None,
    feedback_path: Path | None = None,
    export_dir: Path | None = None,
    session_ttl_s: float | None = None,
) -> gr.Blocks:
    """The whole page, queue enabled. Launch it with `launch(demo, ...)` (theme and CSS are launch options in Gradio 6).

    `session_ttl_s`: seconds an idle conversation is kept (default `GPU_ADVISOR_WEB_SESSION_TTL`, else 30 minutes).
    """
    settings = settings or Settings.load()
    web = WebApp(settings, advisor_factory, feedback_path, export_dir, session_ttl_s=session_ttl_s)
    prefs = web.defaults
    brains = brain_choices(settings)
    page = Page(web, brains)
    start_lang = page.start_lang
    words = chrome_text(start_lang)
    with gr.Blocks(title=TITLE, analytics_enabled=False, fill_width=True) as demo:
        # idle longer than the TTL (since its last event): Gradio deletes the value and calls `web.expire`
        session = gr.State(None, time_to_live=web.session_ttl_s, delete_callback=web.expire)
        # the page's language as shown now, and the browser's (read once on load)
        chrome = gr.State(page.initial_state())
        header = gr.Markdown(words["header"], elem_id="ga-header")
        with gr.Row(equal_height=False):
            with gr.Column(scale=3, min_width=420):
                chatbot = gr.Chatbot(
                    elem_id="ga-chat",
                    label="Conversation",
                    show_label=False,
                    height=640,
                    layout="panel",
                    placeholder=words["placeholder"],
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
                        placeholder=words["input"],
                        lines=1,
                        max_lines=6,
                        scale=8,
                        autofocus=True,
                    )
                    send = gr.Button(words["send"], variant="primary", elem_id="ga-send", scale=1)
                examples = gr.Examples(EXAMPLES, inputs=[message], label=words["examples"])
                new_chat = gr.Button(words["new_chat"], size="sm", variant="secondary", elem_id="ga-new-chat")
            with gr.Column(scale=2, min_width=360):
                with gr.Group():
                    panel_title = gr.Markdown(words["panel"], padding=True, elem_id="ga-panel-title")
                    rec = gr.Markdown(render.recommendation_panel(None, language=start_lang or "en"), elem_id="ga-recommendation",
                                      padding=True)
                    charts = gr.HTML("", elem_id="ga-charts", padding=True)
                with gr.Row():
                    export_btn = gr.Button(words["export"], size="sm", elem_id="ga-export")
                export_file = gr.File(label=words["export_file"], visible=False, interactive=False, elem_id="ga-export-file")
                with gr.Accordion(words["settings"], open=False, elem_id="ga-settings") as settings_box:
                    brain = gr.Radio(brain_labels(brains, start_lang), value=prefs.brain, label=words["brain"])
                    currency = gr.Dropdown(choice_labels("currency", start_lang), value=prefs.currency, label=words["currency"])
                    region = gr.Dropdown(choice_labels("region", start_lang), value=prefs.region, label=words["region"])
                    billing = gr.Dropdown(choice_labels("billing", start_lang), value=prefs.billing, label=words["billing"])
                    language = gr.Dropdown(choice_labels("language", start_lang), value=prefs.language, label=words["language"])
                    settings_note = gr.Markdown(words["settings_hint"], label="status")
                with gr.Accordion(words["feedback"], open=False, elem_id="ga-feedback") as feedback_box:
                    feedback_intro = gr.Markdown(words["feedback_intro"])
                    comment = gr.Textbox(label=words["comment"], lines=2, max_lines=6)
                    comment_btn = gr.Button(words["comment_send"], size="sm", elem_id="ga-comment-send")
                    feedback_note = gr.Markdown("", label="status")
        # API-only twin of the chat: message in, final answer text out (hidden from the page)
        api_message = gr.Textbox(visible=False, label="message")
        api_answer = gr.Textbox(visible=False, label="answer")
        api_trigger = gr.Button(visible=False)
        browser_lang = gr.Textbox(visible=False, label="browser language")

        components = {
            "header": header, "chatbot": chatbot, "message": message, "send": send, "examples": examples.dataset,
            "new_chat": new_chat, "panel_title": panel_title, "export": export_btn, "export_file": export_file,
            "settings": settings_box, "brain": brain, "currency": currency, "region": region, "billing": billing,
            "language": language, "settings_note": settings_note, "feedback": feedback_box,
            "feedback_intro": feedback_intro, "comment": comment, "comment_send": comment_btn,
        }
        chrome_outputs = [components[slot] for slot in CHROME_SLOTS] + [chrome]

        demo.load(
            page.on_load, inputs=[browser_lang, chrome], outputs=[*chrome_outputs, rec],
            js="(tag, state) => [navigator.language || '', state]", api_visibility="private", queue=False,
        )
        gr.on(
            triggers=[message.submit, send.click],
            fn=page.respond,
            inputs=[message, chatbot, session],
            outputs=[chatbot, message, session, rec, charts],
            api_visibility="private",
            concurrency_limit=CONCURRENCY,
            concurrency_id="advisor",
            show_progress="hidden",
        ).then(page.after_answer, inputs=[session, language, chrome], outputs=chrome_outputs, api_visibility="private",
               queue=False, show_progress="hidden")
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
            triggers=[brain.change, currency.change, region.change, billing.change, language.change],
            fn=web.apply_settings,
            inputs=[brain, currency, region, billing, language, session],
            outputs=[settings_note, session],
            api_name="settings",
            api_description="Session settings: brain, currency (auto|CNY|USD), region (any|cn|intl), billing, language (auto|en|zh).",
            queue=False,
        ).success(page.after_settings, inputs=[session, language, chrome], outputs=chrome_outputs,
                  api_visibility="private", queue=False, show_progress="hidden")
        new_chat.click(
            page.reset,
            inputs=[session, chrome],
            outputs=[chatbot, session, rec, charts, export_file],
            api_name="reset",
            api_description="Start a new conversation in this session.",
        )
        # the chat's own 🗑 button: what the user no longer sees, the advisor must not remember
        chatbot.clear(page.reset, inputs=[session, chrome], outputs=[chatbot, session, rec, charts, export_file],
                      api_visibility="private")
        export_btn.click(
            page.export,
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
        demo.unload(web.unload)  # the tab or API client disconnected: its conversation ends now
    demo.queue(default_concurrency_limit=CONCURRENCY, max_size=QUEUE_MAX)
    web.drop_ui_state = lambda key: forget_gradio_session(demo, key)
    demo.web = web  # the handlers, for tests and for whoever embeds the app
    demo.page = page  # the page's own handlers (panel across turns, chrome per language), for tests
    return demo


def forget_gradio_session(demo: gr.Blocks, key: str) -> bool:
    """Drop Gradio's own records of an ended session: its copy of the page config (~60 KiB here) and,
    when no event of it is pending, its queue's message queue and event-id set (~3.5 KiB).

    Gradio deletes a session's State values on expiry but keeps the `SessionState` in
    `demo.state_holder.session_data` until `state_session_capacity` newer sessions push it
    out (gradio-app/gradio#13756 leaves it to that bound), and its queue keeps a message queue
    per session in an LRU of 2,000. There is no public call for this; tests/test_web_limits.py
    checks the attribute names, so a Gradio upgrade that moves them fails a test instead of
    leaking quietly. Runs on the server's event loop (unload and Gradio's State sweeper both do),
    where the queue mutates these too. True when the session's page copy was dropped.
    """
    holder = getattr(demo, "state_holder", None)
    data = getattr(holder, "session_data", None)
    if data is None:
        return False
    with holder.lock:
        dropped = data.pop(key, None) is not None
        getattr(holder, "time_last_used", {}).pop(key, None)
    queue = getattr(demo, "_queue", None)
    pending = getattr(queue, "pending_event_ids_session", None)
    messages = getattr(queue, "pending_messages_per_session", None)
    if isinstance(pending, dict) and messages is not None and not pending.get(key):
        pending.pop(key, None)  # an event still running keeps both: its client may still be streaming
        messages.pop(key, None)
    return dropped


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
        max_file_size=MAX_UPLOAD_BYTES,
        state_session_capacity=STATE_SESSION_CAPACITY,
        inbrowser=False,
        ssr_mode=False,
        mcp_server=False,
        pwa=False,
    )

