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
