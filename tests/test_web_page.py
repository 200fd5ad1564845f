"""The page's own layer (ui.web.app): its words per language, and the side panel across turns.

Fast tests drive `Page` with scripted advisors through the app's factory seam (the same seam the
server tests use for fault injection); one slow test asks the real offline Advisor the screenshot
conversation (docs/screenshots) and checks what the panel shows after each turn.
"""

from __future__ import annotations

import re

import gradio as gr
import pytest

from assistant.answer import Answer, ToolCallRecord
from knowledge.settings import Settings
from ui.web.app import (
    CHROME, CHROME_SLOTS, Page, build_app, choice_labels, chrome_language, chrome_text, settings_note_text,
)
from ui.web.handlers import WebApp
from ui.web.session import BILLING_CHOICES, CURRENCY_CHOICES, LANGUAGE_CHOICES, REGION_CHOICES

SKIP = gr.skip()


@pytest.mark.parametrize(
    "setting, answered, browser, expected",
    [
        ("zh", "en", "en-US", "zh"),  # the setting wins over everything
        ("en", "zh", "zh-CN", "en"),
        ("auto", "zh", "en-US", "zh"),  # then the last answer's language
        ("auto", "en", "zh-CN", "en"),
        ("auto", None, "zh-CN", "zh"),  # then the browser's (navigator.language)
        ("auto", None, "zh-TW", "zh"),
        ("auto", None, "en-GB", "en"),
        ("auto", None, "fr-FR", None),  # a language we have no page for: the bilingual first page stays
        ("auto", None, None, None),
        (None, None, "", None),
    ],
)
def test_chrome_language(setting, answered, browser, expected):
    assert chrome_language(setting, answered, browser) == expected


# Latin words a Chinese page may keep: names and established terms (the rule for answers)
KEPT_LATIN = {"GPU", "Advisor", "AI", "Markdown", "QLoRA", "Llama-3-8B", "Qwen2.5-72B", "md", "English", "cn", "intl"}


def test_every_page_word_exists_in_both_languages_and_the_chinese_page_has_no_english():
    assert set(CHROME["en"]) == set(CHROME["zh"])
    for key, text in CHROME["zh"].items():
        words = set(re.findall(r"[A-Za-z][A-Za-z0-9.\-]*", text)) - KEPT_LATIN
        assert not words, f"{key}: {words}"
    for dimension, values in (("currency", CURRENCY_CHOICES), ("region", REGION_CHOICES), ("billing", BILLING_CHOICES),
                              ("language", LANGUAGE_CHOICES)):
        zh = choice_labels(dimension, "zh")
        assert [v for _, v in zh] == values == [v for _, v in choice_labels(dimension, "en")]  # the API values never change
        for label, _ in zh:
            assert not set(re.findall(r"[A-Za-z][A-Za-z0-9.\-]*", label)) - KEPT_LATIN, label


def test_the_first_page_is_bilingual_until_a_language_is_known():
    first = chrome_text(None)
    assert "中文" in first["header"] and "in English" in first["header"]
    assert "/  问问" in first["input"]
    assert first["send"] == "Send"  # buttons: English until the language is known


def test_the_settings_note_in_english_is_the_handlers_own_and_in_chinese_names_every_setting(tmp_path):
    web = WebApp(Settings.load(feedback_path=tmp_path / "f.jsonl"), export_dir=tmp_path)
    note, session = web.apply_settings("offline", "CNY", "cn", "spot", "zh", None)
    assert settings_note_text(session.prefs, "en") == note  # the page and the /settings API say the same in English
    assert settings_note_text(session.prefs, "zh") == (
        "从下一个问题起对本对话生效：回答引擎 离线（内置，不联网），币种 人民币 ¥，地区 中国大陆（cn），计费 竞价实例（可被回收），"
        "回答语言 中文。"
    )


class Scripted:
    """An advisor (the factory seam's shape) that answers from a script, in order."""

    def __init__(self, answers: list[Answer]):
        self.answers = list(answers)
        self.history: list = []

    def ask(self, text: str) -> Answer:
        return self.answers.pop(0)

    def reset(self) -> None:
        pass


def option(instance: str) -> dict:
    return {"provider": "gpushare", "instance": instance, "region": "cn-mainland", "gpu": "RTX-3090", "gpu_count": 1,
            "per_gpu_gib": 12.6, "gpu_usable_gib": 23.7, "price_per_hour": 0.76, "monthly_cost": 554.8, "currency": "CNY",
            "billing": "on_demand", "price_as_of": "2026-10-01", "reasons": [], "warnings": []}


def recommended(instance: str, language: str = "zh") -> Answer:
    opts = [option(instance)]
    call = ToolCallRecord(name="recommend_config", args={"period": "month"}, result={"options": opts, "rejected": []})
    return Answer(answer=f"租 {instance}", language=language, tool_calls=[call], recommendation=opts[0], options=opts)


def checked(language: str = "zh") -> Answer:  # a yes/no check: no recommender call
    call = ToolCallRecord(name="estimate_vram", args={}, result={"per_gpu_gib": 12.6})
    return Answer(answer="能。", language=language, tool_calls=[call])


def nothing_fits(language: str = "zh") -> Answer:  # the recommender ran and rejected everything
    call = ToolCallRecord(name="recommend_config", args={}, result={"options": [], "rejected": [{"x": 1}]})
    return Answer(answer="放不下。", language=language, tool_calls=[call])


def page_for(tmp_path, answers: list[Answer]) -> Page:
    script = Scripted(answers)
    web = WebApp(Settings.load(feedback_path=tmp_path / "f.jsonl"), advisor_factory=lambda brain: script, export_dir=tmp_path)
    return Page(web, ["offline"])


def turn(page: Page, text: str, session=None):
    """The last frame of one chat turn: (history, box, session, panel, charts)."""
    return list(page.respond(text, [], session))[-1]


@pytest.mark.parametrize(
    "script, panel_starts, has_charts",
    [
        # a follow-up without a recommendation keeps the last one, labelled with its question
        ([recommended("a-1x"), recommended("b-1x"), checked()], "_↩ 第 2 问的推荐（这一轮的回答没有新的推荐）_", True),
        # the conversation's language changed: the kept panel is re-rendered in it (notes are codes)
        ([recommended("a-1x"), checked("en")], "_↩ From question 1 (this answer has no new recommendation)_", True),
        # the recommender ran and nothing fits: say so; the old recommendation no longer applies
        ([recommended("a-1x"), nothing_fits()], "_这次没有符合条件的配置：原因见回答。_", False),
        # the first answer has none: nothing earlier to keep
        ([checked()], "_还没有推荐：问一下某个模型该租什么服务器。_", False),
        # a new recommendation replaces the kept one
        ([recommended("a-1x"), checked(), recommended("c-1x")], "| # |", True),
    ],
)
def test_the_panel_across_turns(tmp_path, script, panel_starts, has_charts):
    page = page_for(tmp_path, script)
    session = None
    for n in range(len(script)):
        _, _, session, panel, charts = turn(page, f"q{n + 1}", session)
    assert panel.startswith(panel_starts)
    assert ("<svg" in charts) is has_charts


def test_the_kept_recommendation_is_what_the_export_writes_and_a_new_conversation_forgets_it(tmp_path):
    page = page_for(tmp_path, [recommended("a-1x"), checked(), checked()])
    _, _, session, _, _ = turn(page, "想微调 Qwen2.5-7B，租什么卡？")
    _, _, session, panel, _ = turn(page, "24G 的卡够吗", session)
    assert "a-1x" in panel
    path, _ = page.export(session)
    text = open(path, encoding="utf-8").read()
    assert "> 想微调 Qwen2.5-7B，租什么卡？" in text and "a-1x" in text  # the panel's recommendation and its question
    history, session, empty, charts, _ = page.reset(session, {"lang": "zh"})
    assert history == [] and charts == "" and empty == "_还没有推荐：问一下某个模型该租什么服务器。_"
    _, _, session, panel, _ = turn(page, "24G 的卡够吗", session)  # the new conversation's first answer
    assert panel.startswith("_还没有推荐")


def test_chrome_updates_switch_the_page_and_skip_when_nothing_changes(tmp_path):
    page = page_for(tmp_path, [])
    updates = page.chrome_updates({"lang": "en", "browser": None, "noted": False}, "zh", None)
    by_slot = dict(zip(CHROME_SLOTS, updates))
    assert by_slot["send"] == gr.update(value="发送") and by_slot["panel_title"] == gr.update(value="### 推荐配置")
    assert by_slot["settings"] == gr.update(label="本对话的设置") and by_slot["chatbot"]["placeholder"].startswith("### 问问")
    assert by_slot["currency"]["choices"][0] == ("随问题", "auto")
    assert updates[-1]["lang"] == "zh"
    # the same language again, or none known: every component untouched
    assert updates[:-1] != [SKIP] * len(CHROME_SLOTS)
    assert page.chrome_updates(updates[-1], "zh", None)[:-1] == [SKIP] * len(CHROME_SLOTS)
    assert page.chrome_updates(updates[-1], None, None)[:-1] == [SKIP] * len(CHROME_SLOTS)


def test_the_language_setting_switches_the_page_and_its_note(tmp_path):
    page = page_for(tmp_path, [])
    state = page.initial_state()
    _, session = page.web.apply_settings("offline", "auto", "any", "auto", "zh", None)
    updates = page.after_settings(session, "zh", state)
    by_slot = dict(zip(CHROME_SLOTS, updates))
    assert by_slot["send"] == gr.update(value="发送")
    assert by_slot["settings_note"]["value"].startswith("从下一个问题起对本对话生效：")
    _, session = page.web.apply_settings("offline", "auto", "any", "auto", "en", session)
    back = dict(zip(CHROME_SLOTS, page.after_settings(session, "en", updates[-1])))
    assert back["send"] == gr.update(value="Send") and back["settings_note"]["value"].startswith("Applies to this conversation")


def test_page_load_follows_the_browser(tmp_path):
    page = page_for(tmp_path, [])
    *updates, empty = page.on_load("zh-CN", page.initial_state())
    assert dict(zip(CHROME_SLOTS, updates))["send"] == gr.update(value="发送")
    assert updates[-1]["browser"] == "zh-CN" and empty.startswith("_还没有推荐")
    *updates, empty = page.on_load("de-DE", page.initial_state())
    assert updates[:-1] == [SKIP] * len(CHROME_SLOTS) and empty.startswith("_No recommendation")


@pytest.mark.slow
def test_the_screenshot_conversation_keeps_its_recommendation_in_the_panel(tmp_path):
    """Regression (issue 10): turn 3 of docs/screenshots ("24G 的卡够吗", a yes/no check) emptied the panel."""
    demo = build_app(Settings.load(feedback_path=tmp_path / "f.jsonl"), export_dir=tmp_path)
    page: Page = demo.page
    session = None
    panels = []
    for question in ("想微调 Qwen2.5-7B，LoRA，预算每月 5000 元，租什么卡？", "换成 QLoRA 呢？", "24G 的卡够吗"):
        _, _, session, panel, charts = turn(page, question, session)
        panels.append((panel, charts))
    (first, _), (second, _), (third, charts) = panels
    assert first.startswith("| # | 实例 |") and second.startswith("| # | 实例 |")
    assert third.startswith("_↩ 第 2 问的推荐（这一轮的回答没有新的推荐）_")
    assert third.split("\n", 2)[2] == second  # the same table as turn 2, under the label
    assert "恒源云<br>`rtx-3090-1x`" in third and "<svg" in charts and "每月费用" in charts


def test_the_handlers_own_words_exist_in_both_languages_and_follow_the_session():
    from types import SimpleNamespace

    from ui.web.handlers import SAY, say_lang

    assert SAY["en"].keys() == SAY["zh"].keys()
    assert not any(re.search(r"[A-Za-z]{3,}", v) for v in SAY["zh"].values())  # no English left in Chinese
    fresh = SimpleNamespace(prefs=SimpleNamespace(language="auto"), last_answer=None)
    assert say_lang(fresh) == "en" and say_lang(fresh, "帮我推荐一张卡") == "zh"
    after_zh = SimpleNamespace(prefs=SimpleNamespace(language="auto"), last_answer=SimpleNamespace(language="zh"))
    assert say_lang(after_zh, "ok thanks") == "zh"  # the conversation's language, not one short reply's
    forced = SimpleNamespace(prefs=SimpleNamespace(language="en"), last_answer=SimpleNamespace(language="zh"))
    assert say_lang(forced) == "en"  # the setting wins
