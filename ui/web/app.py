"""The Gradio Blocks app: chat, settings panel, recommendation panel, feedback, export.

Presentation only: every answer comes from `assistant.Advisor` (one per
browser session, held in a `gr.State`); this module streams it into the chat
as collapsible tool steps, the answer text and its sources, and fills the side
panel from the same `Answer`. Nothing is fetched from the internet: system
fonts, inline SVG charts, analytics off.

API (gradio_client): `/chat` (message -> final answer text, history kept per
client session), `/settings`, `/reset`, `/feedback`, `/export`. The handlers
live in `ui.web.handlers`; this module is the layout and the wiring.
"""

from __future__ import annotations

from pathlib import Path

import gradio as gr

from knowledge.settings import Settings
from ui.web import render
from ui.web.handlers import WebApp, brain_choices
from ui.web.session import BILLING_LABELS, CURRENCY_LABELS, LANGUAGE_LABELS, REGION_LABELS, AdvisorFactory

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

BRAIN_LABELS = {"offline": "Offline (built in, no network)"}


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
    with gr.Blocks(title=TITLE, analytics_enabled=False, fill_width=True) as demo:
        # idle longer than the TTL (since its last event): Gradio deletes the value and calls `web.expire`
        session = gr.State(None, time_to_live=web.session_ttl_s, delete_callback=web.expire)
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
                    brain = gr.Radio(
                        [(BRAIN_LABELS.get(b, b), b) for b in brain_choices(settings)], value=prefs.brain, label="Brain"
                    )
                    currency = gr.Dropdown(CURRENCY_LABELS, value=prefs.currency, label="Currency")
                    region = gr.Dropdown(REGION_LABELS, value=prefs.region, label="Region")
                    billing = gr.Dropdown(BILLING_LABELS, value=prefs.billing, label="Billing")
                    language = gr.Dropdown(LANGUAGE_LABELS, value=prefs.language, label="Answer language")
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
            triggers=[brain.change, currency.change, region.change, billing.change, language.change],
            fn=web.apply_settings,
            inputs=[brain, currency, region, billing, language, session],
            outputs=[settings_note, session],
            api_name="settings",
            api_description="Session settings: brain, currency (auto|CNY|USD), region (any|cn|intl), billing, language (auto|en|zh).",
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
        demo.unload(web.unload)  # the tab or API client disconnected: its conversation ends now
    demo.queue(default_concurrency_limit=CONCURRENCY, max_size=QUEUE_MAX)
    web.drop_ui_state = lambda key: forget_gradio_session(demo, key)
    demo.web = web  # the handlers, for tests and for whoever embeds the app
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

