"""Screenshots of one Chinese conversation: the web app in headless Chromium, and the same answers as Slack Block Kit.

Run from the repository root (what `bash scripts/screenshots.sh` does):

    .venv/bin/python scripts/screenshots.py [--data-dir DIR] [--fresh] [--out docs/screenshots]

What it does, all on this machine (nothing is fetched; the Python side refuses non-loopback sockets and
Chromium resolves no host but 127.0.0.1):

1. starts the real Gradio app (`ui.web.app.build_app` + `launch`) on 127.0.0.1 with a free port, the offline
   brain and an isolated `GPU_ADVISOR_DATA_DIR` (default `$TMPDIR/gpu-advisor-screenshots`, kept between runs
   so the search index is built once; `--fresh` starts it again);
2. types each question of `QUESTIONS` into the page, waits for the answer, makes the chat tall enough to
   show that turn whole (scrolled to its question) and saves `web-zh-<n>.png` (chat + recommendation panel);
3. takes the `Answer` objects the web session produced (recorded by the advisor factory, the app's public
   seam) and turns them into Block Kit with the Slack bot's own `ui.slack.blocks.answer_blocks`, written to
   `slack-zh.json` as a thread: the first answer as the slash command posts it, the rest as thread replies;
4. renders that JSON as a small self-contained HTML page that looks roughly like Slack (`slack-zh.html`)
   and saves its picture (`slack-zh.png`).

Needs Debian's chromium + chromium-driver and the CJK and emoji fonts; missing ones are one line that says
the apt-get command, and nothing is installed from here.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

QUESTIONS = (
    "想微调 Qwen2.5-7B，LoRA，预算每月 5000 元，租什么卡？",  # a recommendation with a budget
    "换成 QLoRA 呢？",  # a follow-up that changes one thing
    "24G 的卡够吗",  # a yes/no question about the same workload
)
SLACK_USER = "U0SCREENSHOT"  # the Slack user id shown as the asker (no real person)
SLACK_CHANNEL = "gpu-advisor"

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
APT_LINE = "apt-get install -y chromium chromium-driver fontconfig fonts-noto-cjk fonts-noto-color-emoji"
CHROMIUM_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--disable-extensions",
    "--disable-default-apps", "--hide-scrollbars", "--lang=zh-CN", "--accept-lang=zh-CN,zh", "--force-device-scale-factor=1",
    # nothing but our own server resolves: a request to anywhere else fails instead of leaving the machine
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
)
WIDTH = 1440  # px: a common laptop width and the page's own maximum; the pictures stay readable and small
SLACK_WIDTH = 1280  # px: the Slack preview (a message pane is narrower than the whole window)
MAX_HEIGHT = 4800  # px: a turn taller than this is cut (the PNG would be too large to be useful)
ANSWER_TIMEOUT_S = 900  # the first question builds the search index when the data dir is new (minutes here)


# ---------------------------------------------------------------- prerequisites


def missing_prerequisites() -> str | None:
    """One line saying what is missing and how to get it, or None when everything is there."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        missing.append("fc-list (fontconfig)")
    else:
        zh = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True).stdout
        if "CJK" not in zh:
            missing.append("a CJK font (fonts-noto-cjk)")
        if "Emoji" not in subprocess.run([fc_list, ":", "family"], capture_output=True, text=True).stdout:
            missing.append("an emoji font (fonts-noto-color-emoji)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium in .venv")
    if not missing:
        return None
    return f"screenshots: missing {', '.join(missing)}; install with: {APT_LINE}"


def block_outside_network() -> None:
    """This process may open sockets to loopback only (the app, Chromium's driver); anything else fails."""
    import ipaddress

    real_connect = socket.socket.connect

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
            host = address[0]
            try:
                loopback = host in ("localhost", "") or ipaddress.ip_address(host).is_loopback
            except ValueError:
                loopback = False
            if not loopback:
                raise ConnectionRefusedError(f"screenshots may not reach the network ({address!r})")
        return real_connect(self, address)

    socket.socket.connect = connect


def isolate_environment(data_dir: Path) -> None:
    """A developer's GPU_ADVISOR_* settings and keys never reach the pictures: the offline brain, our data dir."""
    for key in list(os.environ):
        if key.startswith(("GPU_ADVISOR_", "SLACK_")) or key.endswith("_API_KEY"):
            del os.environ[key]
    os.environ.update({
        "GPU_ADVISOR_DATA_DIR": str(data_dir),
        "ANONYMIZED_TELEMETRY": "False",
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    })


# ---------------------------------------------------------------- Slack mrkdwn → HTML (the preview)

_PRE = re.compile(r"```(.*?)```", re.S)
_TOKEN = re.compile(r"`([^`\n]+)`|<([^<>\n]+)>")
_BOLD = re.compile(r"(?<![A-Za-z0-9*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![A-Za-z0-9*])")
_ITALIC = re.compile(r"(?<![A-Za-z0-9_])_(?!\s)([^_\n]+?)(?<!\s)_(?![A-Za-z0-9_])")
_STRIKE = re.compile(r"(?<![A-Za-z0-9~])~(?!\s)([^~\n]+?)(?<!\s)~(?![A-Za-z0-9~])")
_EMOJI = {"hourglass_flowing_sand": "⏳", "warning": "⚠️", "white_check_mark": "✅", "x": "❌"}


def slack_unescape(text: str) -> str:
    """Slack's three entities back to characters (`&amp;` last, so `&amp;lt;` stays `&lt;`)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _angle(inner: str) -> str:
    """`<…>`: a link, a user or channel mention, a special mention; anything else shown as typed."""
    target, _, label = inner.partition("|")
    if target.startswith("@"):
        return f'<span class="mention">@{html.escape(slack_unescape(label or target[1:]))}</span>'
    if target.startswith("#"):
        return f'<span class="mention">#{html.escape(slack_unescape(label or target[1:]))}</span>'
    if target.startswith("!"):
        return f'<span class="mention">@{html.escape(slack_unescape(label or target[1:].split("^")[0]))}</span>'
    url = slack_unescape(target)
    if re.match(r"(https?|mailto):", url):
        text = slack_unescape(label) if label else url
        return f'<a href="{html.escape(url, quote=True)}" rel="noreferrer">{html.escape(text)}</a>'
    return html.escape(slack_unescape(f"<{inner}>"))


def _inline(text: str) -> str:
    tokens: list[str] = []

    def keep(m: re.Match) -> str:
        if m.group(1) is not None:
            tokens.append(f"<code>{html.escape(slack_unescape(m.group(1)))}</code>")
        else:
            tokens.append(_angle(m.group(2)))
        return f"\x00{len(tokens) - 1}\x00"

    text = html.escape(slack_unescape(_TOKEN.sub(keep, text)), quote=True)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)
    text = _STRIKE.sub(r"<s>\1</s>", text)
    text = re.sub(r":([a-z0-9_+-]+):", lambda m: _EMOJI.get(m.group(1), m.group(0)), text)
    return re.sub(r"\x00(\d+)\x00", lambda m: tokens[int(m.group(1))], text)


def mrkdwn_html(text: str) -> str:
    """Slack mrkdwn as HTML, roughly as the Slack client shows it: ```pre```, `code`, *bold*, _italic_,
    ~strike~, <url|text> links, mentions; line breaks kept (the container is `white-space: pre-wrap`).
    Every character of the input is escaped; no tag or attribute of the input survives."""
    out, pos = [], 0
    for m in _PRE.finditer(text):
        out.append(_inline(text[pos : m.start()]))
        body = m.group(1).strip("\n")
        out.append(f"<pre>{html.escape(slack_unescape(body))}</pre>")
        pos = m.end()
    out.append(_inline(text[pos:]))
    return "".join(out)


def _text_html(obj: dict[str, Any] | None) -> str:
    if not obj:
        return ""
    if obj.get("type") == "plain_text":
        return html.escape(obj.get("text", ""))
    return mrkdwn_html(obj.get("text", ""))


def block_html(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "section":
        parts = []
        if block.get("text"):
            parts.append(f'<div class="mrkdwn">{_text_html(block["text"])}</div>')
        if block.get("fields"):
            cells = "".join(f'<div class="mrkdwn field">{_text_html(f)}</div>' for f in block["fields"])
            parts.append(f'<div class="fields">{cells}</div>')
        return f'<div class="block section">{"".join(parts)}</div>'
    if kind == "context":
        items = []
        for e in block.get("elements", []):
            if e.get("type") == "image":
                items.append(f'<span class="ctx-img" title="{html.escape(e.get("alt_text", ""), quote=True)}">▣</span>')
            else:
                items.append(f'<span class="mrkdwn">{_text_html(e)}</span>')
        return f'<div class="block context">{"".join(items)}</div>'
    if kind == "divider":
        return '<hr class="block divider">'
    if kind == "header":
        return f'<div class="block header">{_text_html(block.get("text"))}</div>'
    if kind == "table":  # Slack's table block: rows of cells (raw_text or rich_text)
        rows = []
        for r, row in enumerate(block.get("rows", [])):
            tag = "th" if r == 0 else "td"
            cells = "".join(f"<{tag}>{html.escape(_cell_text(c))}</{tag}>" for c in row)
            rows.append(f"<tr>{cells}</tr>")
        return f'<div class="block"><table class="table">{"".join(rows)}</table></div>'
    return f'<div class="block unsupported">[{html.escape(str(kind))} block]</div>'


def _cell_text(cell: dict[str, Any]) -> str:
    if "text" in cell:
        return str(cell["text"])
    words: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                words.append(node["text"])
            for child in node.get("elements", []):
                walk(child)

    walk(cell)
    return "".join(words)


PREVIEW_CSS = """
/* Slack's code font is a Latin monospace one, where × is one column wide (the bot pads tables that way); the CJK
   monospace font this preview needs for Chinese draws × full width, which would push the columns apart */
@font-face {font-family: "GA Mono Signs"; src: local("Noto Sans Mono"), local("DejaVu Sans Mono"); unicode-range: U+00D7;}
body {margin: 0; background: #fff; color: #1d1c1d; font: 15px/1.46668 "Lato", "Noto Sans", "Noto Sans CJK SC",
  "Noto Color Emoji", sans-serif;}
.top {background: #3f0e40; color: #fff; padding: 10px 20px; font-weight: 700; font-size: 17px;}
.top small {font-weight: 400; opacity: .75; margin-left: 10px; font-size: 13px;}
.note {color: #616061; font-size: 12px; padding: 6px 20px; border-bottom: 1px solid #ddd; background: #f8f8f8;}
.msg {display: flex; gap: 8px; padding: 8px 20px;}
.avatar {width: 36px; height: 36px; border-radius: 6px; flex: none; display: flex; align-items: center;
  justify-content: center; font-size: 20px; color: #fff;}
.bot .avatar {background: #4a154b;} .user .avatar {background: #2eb67d; font-size: 15px;}
.body {min-width: 0; flex: 1;}
.name {font-weight: 900;} .app {background: #e8e8e8; color: #616061; font-size: 10px; font-weight: 700;
  padding: 1px 3px; border-radius: 2px; margin-left: 4px; vertical-align: 1px;}
.time {color: #616061; font-size: 12px; margin-left: 6px;}
.thread {margin-left: 64px; border-left: 2px solid #e8e8e8;}
.replies {color: #1264a3; font-size: 13px; font-weight: 700; padding: 0 20px 6px 64px;}
.block {margin: 4px 0;}
.mrkdwn {white-space: pre-wrap; overflow-wrap: anywhere;}
.fields {display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin-top: 6px;}
.context {color: #616061; font-size: 12px; display: flex; flex-wrap: wrap; gap: 4px 12px;}
.divider {border: 0; border-top: 1px solid #ddd; margin: 10px 0;}
.header {font-size: 18px; font-weight: 900;}
pre {white-space: pre-wrap; overflow-wrap: anywhere; background: #f8f8f8; border: 1px solid #ddd; border-radius: 4px;
  padding: 8px; margin: 4px 0; font: 12px/1.5 "GA Mono Signs", "Noto Sans Mono CJK SC", "Noto Sans Mono", monospace;}
code {color: #c01343; background: #f6f6f6; border: 1px solid #e0e0e0; border-radius: 3px; padding: 0 3px;
  font: 12px "Noto Sans Mono CJK SC", "Noto Sans Mono", monospace;}
a {color: #1264a3; text-decoration: none;}
.mention {color: #1264a3; background: #e8f5fa; border-radius: 3px; padding: 0 2px;}
.table {border-collapse: collapse;} .table td, .table th {border: 1px solid #ddd; padding: 3px 6px;}
.unsupported {color: #b00; font-style: italic;}
"""


def slack_preview_html(messages: list[dict[str, Any]], *, channel: str = SLACK_CHANNEL, note: str = "") -> str:
    """A self-contained page (inline CSS, no script, no outside request) showing a Slack thread.

    `messages`: the root first, then the replies; each has `blocks` (a Block Kit message) and, for
    replies, the `question` the user typed in the thread, shown above the bot's answer.
    """
    def bot(blocks: list[dict[str, Any]], at: str) -> str:
        inner = "".join(block_html(b) for b in blocks)
        return (f'<div class="msg bot"><div class="avatar">🖥️</div><div class="body"><div><span class="name">'
                f'GPU Advisor</span><span class="app">APP</span><span class="time">{at}</span></div>{inner}</div></div>')

    def user(text: str, at: str) -> str:
        return (f'<div class="msg user"><div class="avatar">U</div><div class="body"><div><span class="name">'
                f'{html.escape(SLACK_USER)}</span><span class="time">{at}</span></div><div class="mrkdwn">'
                f'<span class="mention">@GPU Advisor</span> {html.escape(text)}</div></div></div>')

    parts = [f'<div class="top"># {html.escape(channel)}<small>Slack 预览（近似效果，由 scripts/screenshots.sh 生成）</small></div>']
    if note:
        parts.append(f'<div class="note">{html.escape(note)}</div>')
    if messages:
        parts.append(bot(messages[0]["blocks"], "10:00"))
        if len(messages) > 1:
            parts.append(f'<div class="replies">{len(messages) - 1} 条回复（线程）</div><div class="thread">')
            for n, m in enumerate(messages[1:], 1):
                parts.append(user(m.get("question", ""), f"10:{2 * n - 1:02d}"))
                parts.append(bot(m["blocks"], f"10:{2 * n:02d}"))
            parts.append("</div>")
    return (
        '<!doctype html>\n<html lang="zh-CN"><head><meta charset="utf-8">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>Slack 预览 · #{html.escape(channel)}</title><style>{PREVIEW_CSS}</style></head>\n<body>\n"
        + "\n".join(parts) + "\n</body></html>\n"
    )


def slack_messages(answers: list[Any], questions: Iterable[str]) -> list[dict[str, Any]]:
    """The thread as the Slack bot posts it: the slash command's answer (with who asked), then replies."""
    from ui.slack import blocks as bk

    messages = []
    for n, (answer, question) in enumerate(zip(answers, questions)):
        root = n == 0
        blocks = bk.answer_blocks(answer, asked_by=SLACK_USER, question=question) if root else bk.answer_blocks(answer)
        messages.append({"thread": "root" if root else "reply", "question": question,
                         "text": bk.fallback_text(answer), "blocks": blocks})
    return messages


# ---------------------------------------------------------------- the web app and the browser


def recording_factory(settings, answers: list[Any]):
    """The app's advisor factory (`ui.web.handlers.default_factory`'s shape) with every answer recorded."""
    from assistant import Advisor

    class RecordingAdvisor(Advisor):
        def ask(self, question: str):
            answer = super().ask(question)
            answers.append(answer)
            return answer

    def make(brain: str):
        return RecordingAdvisor(settings, llm=None if brain == (settings.llm or "offline") else brain)

    return make


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_browser(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={WIDTH},1000"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def _set_viewport(driver, height: int, width: int = WIDTH) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": int(height), "deviceScaleFactor": 1, "mobile": False})


def _wait(predicate, timeout: float, what: str, step: float = 0.5) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(step)
    raise SystemExit(f"screenshots: timed out after {timeout:.0f} s waiting for {what}")


def _wait_stable(driver, selector: str, seconds: float = 2.0, timeout: float = 120) -> None:
    """Until the element's text has not changed for `seconds` (the streamed answer has settled)."""
    last, since = None, time.monotonic()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = driver.execute_script(f"const e = document.querySelector({json.dumps(selector)}); return e ? e.innerText : ''")
        if text != last:
            last, since = text, time.monotonic()
        elif time.monotonic() - since >= seconds and "⏳" not in text:
            return
        time.sleep(0.25)
    raise SystemExit(f"screenshots: {selector} kept changing for {timeout:.0f} s")


# Make the chat exactly tall enough for the latest turn and scroll it to that turn's question: what a person
# with a tall window sees after scrolling up to their question. Returns the page height to capture.
_SHOW_LAST_TURN = """
const chat = document.querySelector('#ga-chat');
const wrap = [...chat.querySelectorAll('*')].filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowY))
  .sort((a, b) => b.scrollHeight - a.scrollHeight)[0];
const rows = wrap.querySelectorAll('.user-row');
const last = rows[rows.length - 1];
const top = last.getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop - 8;
const need = wrap.scrollHeight - top;
chat.style.height = 'auto'; chat.style.maxHeight = 'none';
wrap.style.height = need + 'px'; wrap.style.maxHeight = 'none';
wrap.scrollTop = top;
window.scrollTo(0, 0);
return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight);
"""


def capture_web(out: Path, questions: tuple[str, ...], answers: list[Any], settings, log) -> list[Path]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    from ui.web.app import build_app, launch

    work = Path(tempfile.mkdtemp(prefix="ga-screenshots-"))
    demo = build_app(settings, advisor_factory=recording_factory(settings, answers),
                     feedback_path=work / "feedback.jsonl", export_dir=work / "exports")
    port = free_port()
    launch(demo, "127.0.0.1", port, prevent_thread_lock=True, quiet=True)
    driver = start_browser(work / "profile")
    shots = []
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        for n, question in enumerate(questions, 1):
            box = WebDriverWait(driver, 60).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#ga-input textarea")))
            box.clear()
            box.send_keys(question)
            driver.find_element(By.CSS_SELECTOR, "#ga-send").click()
            start = time.monotonic()
            _wait(lambda: len(answers) >= n, ANSWER_TIMEOUT_S, f"the answer to {question!r}")
            _wait_stable(driver, "#ga-chat")
            _wait_stable(driver, "#ga-recommendation", seconds=1.0)
            log(f"turn {n}: answered in {time.monotonic() - start:.1f} s ({answers[-1].frame})")
            height = driver.execute_script(_SHOW_LAST_TURN)
            _set_viewport(driver, min(int(height), MAX_HEIGHT))
            time.sleep(0.8)  # layout after the resize
            height = driver.execute_script(_SHOW_LAST_TURN)  # the chat column may have re-wrapped
            _set_viewport(driver, min(int(height), MAX_HEIGHT))
            time.sleep(0.8)
            path = out / f"web-zh-{n}.png"
            driver.save_screenshot(str(path))
            shots.append(path)
            _set_viewport(driver, 1000)
    finally:
        driver.quit()
        demo.close()
        shutil.rmtree(work, ignore_errors=True)
    return shots


def capture_html(html_path: Path, png_path: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="ga-screenshots-"))
    driver = start_browser(work / "profile")
    try:
        driver.get(html_path.resolve().as_uri())
        _set_viewport(driver, 1000, SLACK_WIDTH)
        time.sleep(0.5)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        _set_viewport(driver, min(int(height), MAX_HEIGHT), SLACK_WIDTH)
        time.sleep(0.5)
        driver.save_screenshot(str(png_path))
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="where the files go")
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "gpu-advisor-screenshots",
                        help="GPU_ADVISOR_DATA_DIR for the app (kept between runs: the index is built once)")
    parser.add_argument("--fresh", action="store_true", help="empty the data dir first (rebuilds the index: minutes)")
    args = parser.parse_args(argv)

    problem = missing_prerequisites()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if args.fresh:
        shutil.rmtree(args.data_dir, ignore_errors=True)
    args.data_dir.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    isolate_environment(args.data_dir)
    block_outside_network()

    began = time.monotonic()

    def log(text: str) -> None:
        print(f"[{time.monotonic() - began:6.1f} s] {text}", file=sys.stderr, flush=True)

    from knowledge.settings import Settings

    settings = Settings.load()
    log(f"web app, data dir {args.data_dir} (a new one builds the search index first: minutes)")
    answers: list[Any] = []
    shots = capture_web(args.out, QUESTIONS, answers, settings, log)
    if len(answers) != len(QUESTIONS):
        raise SystemExit(f"screenshots: expected {len(QUESTIONS)} answers, the app produced {len(answers)}")
    not_zh = [q for q, a in zip(QUESTIONS, answers) if a.language != "zh"]
    if not_zh:
        raise SystemExit(f"screenshots: answered in another language than Chinese: {not_zh}")

    messages = slack_messages(answers, QUESTIONS)
    document = {
        "about": "Block Kit messages for the conversation in web-zh-*.png, made by ui.slack.blocks.answer_blocks "
                 "from the same Answer objects; regenerate with: bash scripts/screenshots.sh",
        "channel": SLACK_CHANNEL,
        "messages": messages,
    }
    json_path = args.out / "slack-zh.json"
    json_path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    html_path = args.out / "slack-zh.html"
    note = "每条消息的 Block Kit JSON 见 slack-zh.json（可粘贴到 Block Kit Builder）；此页只是近似预览。"
    html_path.write_text(slack_preview_html(messages, note=note), encoding="utf-8")
    png_path = args.out / "slack-zh.png"
    capture_html(html_path, png_path)

    for path in [*shots, json_path, html_path, png_path]:
        log(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} ({path.stat().st_size / 1024:.0f} KiB)")
    log("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
