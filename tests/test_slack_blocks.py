"""Slack pieces without a server: mrkdwn conversion, Block Kit limits, dedupe, threads, CLI checks."""

from __future__ import annotations

import pytest

from assistant.answer import Answer, Citation
from tools.errors import ConfigError
from ui.slack import blocks as bk
from ui.slack.app import api_base_url, clean_question
from ui.slack.dedupe import Deduper, event_keys
from ui.slack.threads import ThreadStore


def make_answer(text: str, citations: int = 2, language: str = "en", recommendation: dict | None = None) -> Answer:
    rec = recommendation if recommendation is not None else {
        "provider": "aws", "instance": "g5.2xlarge", "region": "us-east-1", "gpu": "A10G", "gpu_count": 1, "nodes": 1,
        "per_gpu_gib": 18.4, "gpu_usable_gib": 22.1, "price_per_hour": 1.212, "monthly_cost": 884.76, "job_cost": None,
        "currency": "USD", "billing": "on_demand", "price_grade": "official list price", "price_as_of": "2025-11-01",
        "total_gpus": 1,
    }
    return Answer(
        answer=text,
        language=language,
        citations=[Citation(marker=i, doc_id=f"doc-{i}", title=f"Title {i}", section="S") for i in range(1, citations + 1)],
        recommendation=rec or None,
        options=[rec] if rec else [],
    )


# ---------------------------------------------------------------- mrkdwn


@pytest.mark.parametrize(
    "markdown, mrkdwn",
    [
        ("**Rent this**", "*Rent this*"),  # bold is a single star in Slack
        ("*maybe*", "_maybe_"),  # Markdown italics → Slack italics
        ("## Options", "*Options*"),  # headings become bold lines
        ("- one\n- two", "• one\n• two"),  # bullets
        ("[docs](https://example.test/a?b=1&c=2)", "<https://example.test/a?b=1&amp;c=2|docs>"),  # links
        ("<@U123> & <script>", "&lt;@U123&gt; &amp; &lt;script&gt;"),  # no mentions or tags injected
        ("2 * 3 * 4", "2 * 3 * 4"),  # arithmetic stars are not italics
        ("```\nx < y\n```", "```\nx &lt; y\n```"),  # code kept, still escaped
    ],
)
def test_to_mrkdwn(markdown, mrkdwn):
    assert bk.to_mrkdwn(markdown) == mrkdwn


def test_tables_become_aligned_preformatted_text():
    md = "| # | Provider | 月费 |\n|---|---|---|\n| 1 | **aws** | $884 |\n| 2 | a\\|b | ¥1 |"
    out = bk.to_mrkdwn(md)
    assert out.startswith("```\n") and out.endswith("\n```")
    rows = out.splitlines()[1:-1]
    assert rows[0] == "#  Provider  月费"  # CJK counts two columns
    assert rows[1] == "1  aws       $884"
    assert rows[2] == "2  a|b       ¥1"


# ---------------------------------------------------------------- splitting & limits


def test_split_text_respects_the_limit_and_keeps_everything():
    text = "\n\n".join(f"Paragraph {i} " + "word " * 150 for i in range(30))
    parts = bk.split_text(text, limit=3000)
    assert len(parts) > 1 and all(len(p) <= 3000 for p in parts)
    assert " ".join(" ".join(parts).split()) == " ".join(text.split())


def test_split_text_reopens_a_cut_code_block():
    text = "```\n" + "\n".join(f"row {i} " + "x" * 60 for i in range(120)) + "\n```"
    parts = bk.split_text(text, limit=3000)
    assert len(parts) >= 3
    assert all(p.count("```") % 2 == 0 for p in parts)  # each part renders as a closed code block
    assert all(len(p) <= 3000 for p in parts)


def test_one_huge_line_is_cut():
    parts = bk.split_text("x" * 7000, limit=3000)
    assert [len(p) for p in parts] == [2992, 2992, 1016]


def test_answer_blocks_fit_slack_limits_even_for_a_huge_answer():
    answer = make_answer("\n\n".join("para " + "word " * 500 for _ in range(80)), citations=25)
    blocks = bk.answer_blocks(answer)
    assert len(blocks) <= 50
    for b in blocks:
        if b["type"] == "section":
            assert len(b["text"]["text"]) <= 3000
            assert len(b.get("fields", [])) <= 10
        if b["type"] == "context":
            assert len(b["elements"]) <= 10
    assert any("answer shortened" in b["text"]["text"] for b in blocks if b["type"] == "section")
    assert sum(len(b["elements"]) for b in blocks if b["type"] == "context") == 25 + 1  # all sources + brain line


def test_answer_blocks_layout():
    blocks = bk.answer_blocks(make_answer("**Rent aws/g5.2xlarge** [1]."), asked_by="U42", question="which <gpu>?")
    kinds = [b["type"] for b in blocks]
    assert kinds == ["context", "section", "divider", "section", "context", "context"]
    assert blocks[0]["elements"][0]["text"] == "Asked by <@U42>: which &lt;gpu&gt;?"
    assert blocks[1]["text"]["text"] == "*Rent aws/g5.2xlarge* [1]."
    rec = blocks[3]
    assert rec["text"]["text"] == "*Recommended: Amazon Web Services (AWS) / g5.2xlarge*"  # the catalog's display name
    fields = {f["text"].split("\n")[0]: f["text"].split("\n")[1] for f in rec["fields"]}
    assert fields["*GPUs*"] == "1× A10G"
    assert fields["*Memory per GPU*"] == "18.4 of 22.1 GiB"
    assert fields["*Per hour*"] == "$1.21" and fields["*Per month*"] == "$884.76"
    assert fields["*Billing*"] == "on-demand" and fields["*Price*"] == "official list price, as of 2025-11-01"
    assert blocks[4]["elements"][0]["text"] == "[1] Title 1 — S"  # doc ids are for machines


def test_recommendation_fields_in_chinese():
    blocks = bk.answer_blocks(make_answer("**推荐 aws/g5.2xlarge** [1]。", language="zh"))
    fields = {f["text"].split("\n")[0]: f["text"].split("\n")[1] for f in blocks[2]["fields"]}
    assert fields["*每卡显存*"] == "需要 18.4 GiB，可用 22.1 GiB"
    assert fields["*计费*"] == "按量付费" and fields["*价格*"] == "官方刊例价，2025-11-01 数据"


GPUSHARE = {
    "provider": "gpushare", "instance": "rtx-3090-1x", "region": "cn-mainland", "gpu": "RTX-3090", "gpu_count": 1, "nodes": 1,
    "per_gpu_gib": 21.9, "gpu_usable_gib": 23.7, "price_per_hour": 0.76, "monthly_cost": None, "job_cost": None,
    "currency": "CNY", "billing": "on_demand", "price_grade": None, "price_as_of": "2026-10-01", "total_gpus": 1,
}


@pytest.mark.parametrize(
    "lang, title, region, month, price",
    [
        # Regression (issue 10): '*推荐: gpushare / rtx-3090-1x*', region 'cn-mainland', 'unknown'
        ("zh", "*推荐：恒源云 / rtx-3090-1x*", "中国大陆", "价格未知", "价格来源未知，2026-10-01 数据"),
        ("en", "*Recommended: Gpushare (恒源云) / rtx-3090-1x*", "cn-mainland", "unknown", "grade unknown, as of 2026-10-01"),
    ],
)
def test_recommendation_fields_name_the_provider_and_region(lang, title, region, month, price):
    rec = bk.recommendation_fields(make_answer("x", language=lang, recommendation=GPUSHARE))
    fields = {f["text"].split("\n")[0]: f["text"].split("\n")[1] for f in rec["fields"]}
    assert rec["text"]["text"] == title
    region_label, month_label, price_label = {"zh": ("*地域*", "*每月*", "*价格*"), "en": ("*Region*", "*Per month*", "*Price*")}[lang]
    assert fields[region_label] == region and fields[month_label] == month and fields[price_label] == price


@pytest.mark.parametrize(
    "brain, lang, line",
    [
        ("offline", "zh", "大脑：离线"),  # the offline brain in words
        ("offline", "en", "brain: offline"),
        ("deepseek:deepseek-chat", "zh", "大脑：deepseek:deepseek-chat"),  # an LLM spec is a name: as it is
    ],
)
def test_brain_line(brain, lang, line):
    answer = make_answer("x", citations=0, language=lang, recommendation={}).model_copy(update={"brain": brain})
    assert bk.answer_blocks(answer)[-1]["elements"][0]["text"] == line


@pytest.mark.parametrize(
    "text, shown",
    [
        # Regression (issue 10): the offline brain lists its sources in the answer; context blocks repeated them
        ("推荐 [1][2]。\n\n**参考：**\n[1] Title 1 § S\n[2] Title 2 § S", []),
        # an LLM's answer has only the markers: the sources come as context lines, without doc ids
        ("Rent X [1][2].", ["[1] Title 1 — S", "[2] Title 2 — S"]),
        # only the ones the text does not list
        ("Rent X [1][2].\n\n[1] Title 1", ["[2] Title 2 — S"]),
    ],
)
def test_sources_are_shown_once(text, shown):
    blocks = bk.citation_blocks(make_answer(text))
    assert [e["text"] for b in blocks for e in b["elements"]] == shown


@pytest.mark.parametrize(
    "markdown, row",
    [
        # Regression (issue 10): preformatted text showed '`rtx-3090-1x`' with its backticks
        ("| 实例 |\n|---|\n| `rtx-3090-1x` |", "rtx-3090-1x"),
        ("| a |\n|---|\n| **aws** `g5` x |", "aws g5 x"),  # bold and code marks both go
        ("| a |\n|---|\n| 2 * 3 |", "2 * 3"),  # a lone star is text
    ],
)
def test_table_cells_lose_markdown_marks(markdown, row):
    assert bk.to_mrkdwn(markdown).splitlines()[2] == row


def test_no_recommendation_no_fields():
    blocks = bk.answer_blocks(make_answer("Spot saves money.", citations=0, recommendation={}))
    assert [b["type"] for b in blocks] == ["section", "context"]


def test_fallback_text_is_short():
    assert len(bk.fallback_text(make_answer("x " * 5000))) == 3000


# ---------------------------------------------------------------- dedupe & threads


def test_dedupe_by_any_shared_key_and_expiry():
    now = [0.0]
    d = Deduper(ttl_s=10, clock=lambda: now[0])
    assert d.first_time(["event:E1", "msg:M1"])
    assert not d.first_time(["event:E1"])  # a retry of the same event
    assert not d.first_time(["event:E2", "msg:M1"])  # same message under another event type
    assert d.first_time([])  # nothing to recognise: processed
    now[0] = 11.0
    assert d.first_time(["event:E1"])  # forgotten after the TTL


def test_dedupe_is_bounded():
    d = Deduper(max_keys=3)
    for i in range(5):
        assert d.first_time([f"k{i}"])
    assert d.first_time(["k0"])  # evicted, oldest first
    assert not d.first_time(["k4"])


def test_event_keys():
    body = {"event_id": "Ev1"}
    event = {"client_msg_id": "m-1", "channel": "C1", "ts": "1.2"}
    assert event_keys(body, event) == ["event:Ev1", "msg:m-1", "ts:C1:1.2"]


def test_thread_store_one_value_per_thread_lru_and_idle():
    now = [0.0]
    made = []
    store = ThreadStore(lambda: made.append(object()) or made[-1], max_threads=2, idle_s=100, clock=lambda: now[0])
    a = store.get("C1", "1.0")
    assert store.get("C1", "1.0") is a and len(made) == 1
    b = store.get("C1", "2.0")
    store.get("C2", "1.0")  # third thread evicts the least recently used (C1/1.0)
    assert ("C1", "1.0") not in store and store.get("C1", "2.0") is b
    now[0] = 200.0
    assert store.get("C1", "2.0") is not b  # idle too long: a fresh conversation


# ---------------------------------------------------------------- small helpers


@pytest.mark.parametrize(
    "url, expected",
    [
        (None, "https://slack.com/api/"),
        ("http://127.0.0.1:9/api", "http://127.0.0.1:9/api/"),
        ("https://proxy.corp/slack/api/", "https://proxy.corp/slack/api/"),
    ],
)
def test_api_base_url(url, expected):
    assert api_base_url(url) == expected


def test_clean_question_drops_mentions():
    assert clean_question("<@UBOT1>  which GPU for <@U2|bob> Llama?") == "which GPU for Llama?"
    assert clean_question("<@UBOT1>") == ""


@pytest.mark.parametrize(
    "env, message",
    [
        ({}, "SLACK_BOT_TOKEN is not set"),
        ({"SLACK_BOT_TOKEN": "hello"}, "does not look like a Slack token"),
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "HTTP mode needs SLACK_SIGNING_SECRET"),
        ({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xoxb-2"}, "app-level token"),
    ],
)
def test_slack_env_errors(monkeypatch, env, message):
    from ui.commands.slack import slack_env

    for key in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_API_URL"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError, match=message):
        slack_env()


def test_cli_without_token_is_one_line_exit_2(monkeypatch, capsys):
    from ui.cli import main

    monkeypatch.delenv("SLACK_BOT_TOKEN", raising=False)
    assert main(["slack"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "SLACK_BOT_TOKEN is not set" in err


def test_manifest_matches_the_bot():
    """slack/manifest.yaml subscribes to what the bot handles and grants what it calls."""
    from pathlib import Path

    import yaml

    from ui.slack.app import COMMAND
    from ui.slack.server import EVENTS_PATH

    manifest = yaml.safe_load((Path(__file__).resolve().parents[1] / "slack" / "manifest.yaml").read_text(encoding="utf-8"))
    assert [c["command"] for c in manifest["features"]["slash_commands"]] == [COMMAND]
    assert manifest["features"]["slash_commands"][0]["url"].endswith(EVENTS_PATH)
    assert manifest["settings"]["event_subscriptions"]["request_url"].endswith(EVENTS_PATH)
    assert set(manifest["settings"]["event_subscriptions"]["bot_events"]) == {"app_mention", "message.im"}
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "chat:write", "im:history", "commands"} <= scopes


@pytest.mark.parametrize(
    "header, row, table_head, note",
    [
        # a wide Chinese table: the last columns go below it, one line per row, Chinese punctuation
        ("| 云厂商 | 实例 | 每月费用 | 价格（类型，时间） | 理由 |", "| 恒源云 | `rtx-3090-1x` | ¥554.80 | 算力市场报价（随时变化），2026-10-01 | 中国大陆地域；显存余量不足可用显存的 10%，更长的序列或显存碎片可能导致显存不足 |",
         "云厂商  实例         每月费用  价格（类型，时间）", "• 恒源云 rtx-3090-1x —— 理由：中国大陆地域；显存余量不足"),
        # a narrow table stays whole
        ("| GPU | GiB |", "| A10 | 24 |", "GPU  GiB", None),
    ],
)
def test_wide_tables_move_their_last_columns_below(header, row, table_head, note):
    text = bk.to_mrkdwn(f"{header}\n|{'---|' * header.count('|')}\n{row}")
    pre, _, after = text.partition("```\n")[2].partition("\n```")
    assert pre.splitlines()[0] == table_head
    assert all(bk._display_width(line) <= bk.MAX_TABLE_WIDTH for line in pre.splitlines())
    if note is None:
        assert after.strip() == ""
    else:
        assert after.strip().startswith(note)
