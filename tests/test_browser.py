"""A person in a real browser: headless Chromium types a question and sees the answer and the table.

Uses Debian's `chromium` + `chromium-driver` (installed by scripts/test.sh);
Selenium is pointed at /usr/bin/chromedriver so it downloads nothing. The
screenshot is saved to test-artifacts/web-chat.png (gitignored) for people to
look at. The question carries a script and an onerror handler: neither may
run or reach the page as a tag.
"""

from __future__ import annotations

import json
import shutil
import socket
import tempfile
import time
from pathlib import Path

import pytest

from knowledge.settings import Settings
from ui.web.app import build_app, launch

pytestmark = pytest.mark.slow

CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

QUESTION = (
    "Which GPU should I rent to fine-tune Qwen2.5-7B with LoRA? "
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def browser():
    if not CHROMEDRIVER.exists() or not CHROMIUM.exists():
        pytest.skip("headless Chromium not installed: apt-get install chromium chromium-driver (scripts/test.sh does it)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="ga-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
        "--window-size=1440,1100", "--lang=en-US",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    demo = build_app(Settings.load(feedback_path=tmp / "feedback.jsonl"), export_dir=tmp / "exports")
    port = free_port()
    launch(demo, "127.0.0.1", port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/", tmp / "feedback.jsonl"
    finally:
        demo.close()


def test_a_person_asks_and_sees_answer_table_and_chart(browser, app_url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    url, feedback = app_url
    browser.get(url)
    box = WebDriverWait(browser, 60).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#ga-input textarea")))
    box.send_keys(QUESTION)
    browser.find_element(By.CSS_SELECTOR, "#ga-send").click()

    WebDriverWait(browser, 300).until(EC.presence_of_element_located((By.CSS_SELECTOR, "#ga-recommendation table")))
    WebDriverWait(browser, 60).until(
        # the answer's lead ("Rent 1× …") and its memory figure have streamed into the chat
        lambda d: "Rent " in d.find_element(By.CSS_SELECTOR, "#ga-chat").text and "GiB" in d.find_element(By.CSS_SELECTOR, "#ga-chat").text
        and d.find_elements(By.CSS_SELECTOR, "#ga-charts svg")
    )
    time.sleep(1.0)  # let the last streamed frame settle before the picture
    chat = browser.find_element(By.CSS_SELECTOR, "#ga-chat")
    # show the start of the answer (tool steps, recommendation) rather than its end
    browser.execute_script("document.querySelector('#ga-chat .bot-row').scrollIntoView({block: 'start'}); window.scrollTo(0, 0);")
    time.sleep(0.3)
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "web-chat.png"))

    # the answer and its evidence are on the page
    assert "recommend_config" in chat.text  # a tool step
    assert browser.find_elements(By.CSS_SELECTOR, "#ga-recommendation table tbody tr")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#ga-charts svg")) == 2  # memory and cost charts

    # nothing from the question ran or became a tag
    assert browser.execute_script("return window.__pwned") is None
    assert not chat.find_elements(By.CSS_SELECTOR, "script, img[onerror]")
    assert "Which GPU should I rent to fine-tune Qwen2.5-7B" in chat.text

    # nothing was fetched from anywhere but our server (no CDN, no fonts, no analytics)
    requested = set()
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.add(message["params"]["request"]["url"])
    outside = [u for u in requested if u.startswith(("http:", "https:", "ws:", "wss:")) and not u.startswith(url.rstrip("/"))]
    assert outside == []

    # thumbs up on the answer lands in the feedback file
    likes = browser.find_elements(By.CSS_SELECTOR, '#ga-chat button[aria-label="Like"], #ga-chat button[title="Like"]')
    assert likes, "no like button on the answer"
    likes[-1].click()
    WebDriverWait(browser, 30).until(lambda d: feedback.exists() and '"rating": "up"' in feedback.read_text(encoding="utf-8"))
    record = json.loads(feedback.read_text(encoding="utf-8").splitlines()[-1])
    assert record["rating"] == "up" and record["question"].startswith("Which GPU should I rent")


def _text(browser, selector: str) -> str:
    return browser.execute_script(f"const e = document.querySelector({json.dumps(selector)}); return e ? e.innerText : ''")


def _wait_settled(browser, selector: str, seconds: float = 1.5, timeout: float = 300) -> str:
    """The element's text once it has stopped changing (the streamed answer is complete)."""
    last, since, end = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < end:
        text = _text(browser, selector)
        if text != last:
            last, since = text, time.monotonic()
        elif time.monotonic() - since >= seconds and "⏳" not in text:
            return text
        time.sleep(0.25)
    raise AssertionError(f"{selector} kept changing")


def test_a_chinese_conversation_gets_a_chinese_page_and_keeps_its_recommendation(browser, app_url):
    """Regression (issue 10, docs/screenshots): English buttons and headings around a Chinese answer, instance ids
    broken character by character in the chat's table, and a panel emptied by a yes/no follow-up."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    url, _ = app_url
    browser.get(url)  # a new page: a new session (this browser says en-US, so the page starts in English)
    WebDriverWait(browser, 60).until(lambda d: _text(d, "#ga-send") == "Send")

    def ask(question: str) -> None:
        box = WebDriverWait(browser, 60).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#ga-input textarea")))
        box.send_keys(question)
        browser.find_element(By.CSS_SELECTOR, "#ga-send").click()
        WebDriverWait(browser, 300).until(lambda d: _text(d, "#ga-send") == "发送" or "⏳" in _text(d, "#ga-chat"))
        _wait_settled(browser, "#ga-chat")
        _wait_settled(browser, "#ga-recommendation", seconds=1.0)

    ask("想微调 Qwen2.5-7B，LoRA，预算每月 5000 元，租什么卡？")
    WebDriverWait(browser, 30).until(lambda d: _text(d, "#ga-send") == "发送")
    assert _text(browser, "#ga-panel-title") == "推荐配置"
    assert _text(browser, "#ga-export") == "⬇ 导出推荐（Markdown）"
    assert "帮你挑选" in _text(browser, "#ga-header")
    chrome = browser.execute_script("return document.body.innerText")
    for english in ("Recommendation", "Send", "Export recommendation", "Settings for this conversation", "Feedback",
                    "New conversation", "No recommendation yet"):
        assert english not in chrome, english
    # identifiers in tables stay on one line: each code span is one line box, in the chat and in the panel
    broken = browser.execute_script(
        "return [...document.querySelectorAll('#ga-chat td code, #ga-recommendation td code')]"
        ".filter(c => c.getClientRects().length > 1).map(c => c.innerText)"
    )
    counted = browser.execute_script("return document.querySelectorAll('#ga-chat td code, #ga-recommendation td code').length")
    assert counted >= 6 and broken == []
    # a table wider than its message scrolls inside it instead of squeezing or overflowing the page
    assert browser.execute_script("return getComputedStyle(document.querySelector('#ga-chat table')).overflowX") == "auto"

    ask("24G 的卡够吗")
    panel = _text(browser, "#ga-recommendation")
    assert panel.startswith("↩ 第 1 问的推荐"), panel[:80]
    assert browser.find_elements(By.CSS_SELECTOR, "#ga-recommendation table tbody tr")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#ga-charts svg")) == 2

    browser.find_element(By.CSS_SELECTOR, "#ga-new-chat").click()  # a new conversation starts with an empty panel
    WebDriverWait(browser, 30).until(lambda d: _text(d, "#ga-recommendation").startswith("还没有推荐"))
