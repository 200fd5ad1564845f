"""The web app's pure pieces: tool steps, sources, options table, charts, export, feedback, preferences.

Fast tests on hand-built `Answer`s (the real model class); the server tests in
test_web_app.py drive the same code through Gradio with the real Advisor.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import threading

import pytest

from assistant.answer import Answer, Citation, ToolCallRecord
from tools.domain import Provider
from ui.web import render
from ui.web.charts import cost_chart, memory_chart
from ui.web.export import export_filename, recommendation_markdown, write_export
from ui.web.feedback import FeedbackLog, FeedbackRecord
from ui.web.session import Preferences, Session


def option(provider="aliyun", instance="gn7i", need=18.4, usable=22.2, hour=10.1, month=7373.0, **kw):
    base = dict(
        provider=provider, instance=instance, region="cn-beijing", china_mainland=True, gpu="A10", gpu_count=1, nodes=1,
        per_gpu_gib=need, gpu_usable_gib=usable, headroom_gib=usable - need, price_per_hour=hour, monthly_cost=month,
        job_cost=None, job_hours=None, currency="CNY", billing="on_demand", price_grade="official list price",
        price_as_of="2025-11-01", price_source="https://example.test/prices",
        interconnect={"code": "link.interconnect", "params": {"gpus_linked": None, "infiniband": False, "network_gbps": None}},
        # notes as the recommender's JSON carries them: {code, params}
        reasons=[
            {"code": "option.fit", "params": {"nodes": 1, "gpu_count": 1, "gpu": "A10", "needed_gib": need, "usable_gib": usable,
                                               "headroom_gib": usable - need, "layout": {"code": "layout.one_gpu", "params": {}}}},
            {"code": "option.mainland", "params": {"region": "cn-beijing"}},
        ],
        warnings=[{"code": "warn.no_bf16", "params": {"gpu": "A10"}}], total_gpus=1,
    )
    return {**base, **kw}


def answer(options=None, language="en", budget=None, budget_currency=None, period="month", **kw) -> Answer:
    options = [option()] if options is None else options
    args = {"model": "qwen2.5-7b", "mode": "lora", "period": period}
    if budget is not None:
        args["budget"] = budget
    if budget_currency:
        args["budget_currency"] = budget_currency
    calls = [
        ToolCallRecord(name="estimate_vram", args={"model": "qwen2.5-7b"},
                       result={"per_gpu_gib": 18.4, "gpus": 1, "mode": "lora", "precision": "bf16", "fits": {"A10": True, "T4": False}}),
        ToolCallRecord(name="recommend_config", args=args, result={"options": options, "rejected": []}),
    ]
    return Answer(
        answer=kw.pop("text", "**Rent aliyun/gn7i** [1]."),
        language=language,
        tool_calls=calls,
        citations=[Citation(marker=1, doc_id="lora-guide", title="LoRA <b>memory</b>", section="Sizing", lang="en",
                            text="LoRA freezes the base weights <script>alert(1)</script> and trains adapters.")],
        recommendation=options[0] if options else None,
        options=options,
        timings={"tool:estimate_vram": 0.012, "total": 0.2},
        **kw,
    )


# ---------------------------------------------------------------- tool steps


# display names as the catalog gives them (real `Provider` records; the built-in catalog is checked below)
NAMES = {
    "gpushare": Provider(key="gpushare", name="Gpushare (恒源云)", name_zh="恒源云", kind="marketplace", home_currency="CNY"),
    "runpod": Provider(key="runpod", name="RunPod (Secure Cloud)", kind="gpu-cloud"),
    "aws": Provider(key="aws", name="Amazon Web Services (AWS)", name_zh="亚马逊云科技", kind="hyperscaler"),
}


@pytest.mark.parametrize(
    "call, en, zh",
    [
        # VRAM: per-GPU figure, count, mode/precision, and which GPUs fit
        (ToolCallRecord(name="estimate_vram", args={}, result={"per_gpu_gib": 18.4, "gpus": 2, "mode": "lora", "precision": "bf16",
                                                                 "fits": {"A10": True, "T4": False}}),
         "18.4 GiB per GPU × 2 (lora, bf16); fits A10", "每卡 18.4 GiB × 2（LoRA 微调，bf16）；放得下：A10"),
        # VRAM: nothing fits
        (ToolCallRecord(name="estimate_vram", args={}, result={"per_gpu_gib": 90, "gpus": 1, "mode": "full", "precision": "bf16",
                                                                 "fits": {"A10": False}}),
         "90 GiB per GPU × 1 (full, bf16); fits none of the GPUs checked", "每卡 90 GiB × 1（全参数微调，bf16）；所查的 GPU 都放不下"),
        # a tool error is shown as such, not as a result (the error text itself is the tool's)
        (ToolCallRecord(name="estimate_cost", args={}, result={"error": "Unknown instance 'p9'. Did you mean: p4d?"}),
         "error: Unknown instance 'p9'. Did you mean: p4d?", "出错：Unknown instance 'p9'. Did you mean: p4d?"),
        # recommendation: counts and the top option by display name, its monthly cost (≥ 1000: no cents)
        (ToolCallRecord(name="recommend_config", args={}, result={"options": [option(provider="gpushare")], "rejected": [{"x": 1}]}),
         "1 option, 1 near-miss; top: Gpushare (恒源云) · gn7i ¥7,373/month", "1 个方案，1 个未入选；首选：恒源云 · gn7i ¥7,373/月"),
        # recommendation: a provider the catalog lacks is shown by its id; nothing found: no 'top'
        (ToolCallRecord(name="recommend_config", args={}, result={"options": [option()], "rejected": []}),
         "1 option, 0 near-misses; top: aliyun · gn7i ¥7,373/month", "1 个方案，0 个未入选；首选：aliyun · gn7i ¥7,373/月"),
        (ToolCallRecord(name="recommend_config", args={}, result={"options": [], "rejected": []}),
         "0 options, 0 near-misses", "0 个方案，0 个未入选"),  # English plurals: 1 option, 0/2 options
        # search: passage count and titles
        (ToolCallRecord(name="search_guidance", args={}, result={"passages": [{"title": "Spot"}, {"title": "NVLink"}]}),
         "2 passages: Spot; NVLink", "2 段资料：Spot；NVLink"),
        (ToolCallRecord(name="search_guidance", args={}, result={"passages": [{"title": "Spot"}]}), "1 passage: Spot", "1 段资料：Spot"),
        # cost: where, total, hours, billing in words, the price's date
        (ToolCallRecord(name="estimate_cost", args={}, result={"provider": "aws", "instance": "p4d.24xlarge", "total": 3277.0,
                                                                 "currency": "USD", "hours": 100, "billing": "on_demand",
                                                                 "price_as_of": "2025-11-01"}),
         "Amazon Web Services (AWS) · p4d.24xlarge: $3,277 for 100 h on-demand (as of 2025-11-01)",
         "亚马逊云科技 · p4d.24xlarge：按量付费 100 小时共 $3,277（2025-11-01 数据）"),
        # cost without a price: unknown in words, never 0
        (ToolCallRecord(name="estimate_cost", args={}, result={"provider": "runpod", "instance": "x", "total": None, "currency": "USD",
                                                                 "hours": 730, "billing": "spot", "price_as_of": None}),
         "RunPod (Secure Cloud) · x: unknown for 730 h spot (date unknown)",
         "RunPod (Secure Cloud) · x：竞价实例 730 小时共 价格未知（日期未知）"),
        # training time
        (ToolCallRecord(name="estimate_train_time", args={}, result={"hours": 12.5, "days": 0.5, "gpu_hours": 100.2, "gpus": 8,
                                                                       "gpu": "A100-80GB"}),
         "12.5 h ≈ 0.5 days, 100 GPU-hours on 8× A100-80GB", "12.5 小时 ≈ 0.5 天，8× A100-80GB 共 100 卡时"),
        # catalog rows
        (ToolCallRecord(name="lookup_catalog", args={}, result={"instances": [{}, {}]}), "2 instance rows", "2 行实例数据"),
        (ToolCallRecord(name="lookup_catalog", args={}, result={"instances": [{}]}), "1 instance row", "1 行实例数据"),
        # unknown tool shape: clipped JSON, the same in both languages
        (ToolCallRecord(name="mystery", args={}, result={"a": 1}), '{"a": 1}', '{"a": 1}'),
    ],
)
def test_tool_summary(call, en, zh):
    assert render.tool_summary(call, "en", NAMES) == en
    assert render.tool_summary(call, "zh", NAMES) == zh


def test_tool_summary_in_chinese_has_no_english_words():
    """Regression (issue 10): the steps of a Chinese answer said 'option(s)', 'passage(s)', 'GiB per GPU', 'error'."""
    steps = render.tool_steps(answer(language="zh"))
    logs = [s["metadata"]["log"] for s in steps[1:]]
    assert logs == ["每卡 18.4 GiB × 1（LoRA 微调，bf16）；放得下：A10", "1 个方案，0 个未入选；首选：aliyun · gn7i ¥7,373/月"]


def test_tool_steps_are_folded_thoughts_nested_under_one_parent():
    steps = render.tool_steps(answer())
    assert [s["metadata"]["title"] for s in steps] == ["🔧 2 tool calls", "🔧 estimate_vram", "🔧 recommend_config"]
    one = answer().model_copy(update={"tool_calls": answer().tool_calls[:1]})
    assert render.tool_steps(one)[0]["metadata"]["title"] == "🔧 1 tool call"
    assert render.tool_steps(one.model_copy(update={"language": "zh"}))[0]["metadata"]["title"] == "🔧 1 次工具调用"
    assert steps[0]["metadata"]["log"] == "estimate_vram, recommend_config"
    assert [s["metadata"].get("parent_id") for s in steps] == [None, "tools", "tools"]
    assert all(s["metadata"]["status"] == "done" for s in steps)
    assert steps[1]["metadata"]["duration"] == 0.012  # timings['tool:estimate_vram']
    assert "duration" not in steps[2]["metadata"]  # no timing recorded for it
    assert '"model": "qwen2.5-7b"' in steps[1]["content"]
    assert render.tool_steps(answer().model_copy(update={"tool_calls": []})) == []


def test_tool_detail_cannot_close_its_code_fence():
    call = ToolCallRecord(name="search_guidance", args={"query": "```<script>"}, result={"passages": []})
    detail = render.tool_detail(call)
    assert detail.count("```") == 4  # two fences, each opened and closed by us


# ---------------------------------------------------------------- sources & table


def test_sources_step_escapes_titles_and_previews():
    step = render.sources_step(answer())
    assert step["metadata"]["title"] == "📚 Sources (1)"
    assert "&lt;b&gt;memory&lt;/b&gt;" in step["content"]
    assert "<script>" not in step["content"] and "&lt;script&gt;" in step["content"]
    assert step["content"].startswith("**[1] LoRA")


def test_options_table_rows_and_escaping():
    opts = [option(), option(provider="evil|<img src=x onerror=alert(1)>", instance="x", hour=None, month=None)]
    table = render.options_table(answer(opts))
    lines = table.splitlines()
    assert len(lines) == 2 + 2  # header, separator, two rows
    header_cols = lines[0].count(" | ")
    assert all(line.count(" | ") == header_cols for line in lines[2:])  # '|' in data is escaped
    assert "<img" not in table and "\\|&lt;img" in table
    assert "¥10.10" in lines[2] and "¥7,373" in lines[2]
    assert "unknown" in lines[3]  # no price: unknown, never 0


def test_compact_table_in_chinese_uses_chinese_headers():
    table = render.options_table(answer(language="zh"), compact=True)
    lines = table.splitlines()
    assert lines[0] == "| # | 实例 | GPU | 需要/可用 GiB | 每月 | 价格日期 |"
    # the provider's name over its instance id (as code: the page never breaks an id)
    assert lines[2] == "| 1 | aliyun<br>`gn7i` | 1× A10 | 18.4 / 22.2 | ¥7,373 | 2025-11-01 |"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("rtx-3090-1x", "`rtx-3090-1x`"),  # an id as code
        ("a|b", "`a\\|b`"),  # a pipe would end the table cell, even inside code
        ("x`y", "x`y"),  # a backtick would end the code span: plain (escaped) text instead
        ("<img src=x>", "&lt;img src=x&gt;"),  # markup: plain escaped text, never a tag
        ("", ""),
    ],
)
def test_code_cell(text, expected):
    assert render.code_cell(text) == expected


@pytest.mark.parametrize(
    "opt, lang, expected",
    [
        # the Chinese name in a Chinese answer, the English one otherwise
        ({"provider": "gpushare"}, "zh", "恒源云"),
        ({"provider": "gpushare"}, "en", "Gpushare (恒源云)"),
        # no Chinese name: the English one in both
        ({"provider": "runpod"}, "zh", "RunPod (Secure Cloud)"),
        # a provider the catalog lacks (a user's own id): the id
        ({"provider": "my-lab"}, "zh", "my-lab"),
        # names carried by the result itself win over the catalog
        ({"provider": "gpushare", "provider_zh": "恒源", "provider_name": "GPUShare"}, "zh", "恒源"),
        ({"provider": "gpushare", "provider_zh": "恒源", "provider_name": "GPUShare"}, "en", "GPUShare"),
        # a bare key works too
        ("aws", "zh", "亚马逊云科技"),
    ],
)
def test_provider_label(opt, lang, expected):
    assert render.provider_label(opt, lang, NAMES) == expected


@pytest.mark.parametrize(
    "key, zh",
    [
        # the providers of the screenshot conversation (docs/screenshots), from the built-in catalog
        ("gpushare", "恒源云"), ("suanjiayun", "算家云"), ("autodl", "AutoDL 算力云"), ("gongjiyun", "共绩算力"), ("alibaba", "阿里云"),
    ],
)
def test_provider_label_from_the_builtin_catalog(key, zh):
    assert render.provider_label({"provider": key}, "zh") == zh
    assert render.provider_label({"provider": key}, "en") not in (key, zh)  # the English name, not the id


@pytest.mark.parametrize(
    "region, en, zh",
    [
        ("cn-mainland", "cn-mainland", "中国大陆"),  # our placeholder for "somewhere in mainland China": words in Chinese
        ("beijing-a", "beijing-a", "北京 A 区"),  # AutoDL's zone, as its console names it
        ("us-east-1", "us-east-1", "us-east-1"),  # a cloud's own region code stays as it is
        (None, "unknown", "未知"),
    ],
)
def test_region_label(region, en, zh):
    assert render.region_label(region, "en") == en and render.region_label(region, "zh") == zh


def test_the_panel_and_the_answer_name_every_region_alike():
    """One mapping of region ids to words (Formatter.region): the panel's cell is the prose's text without code marks."""
    from knowledge.catalog import load_catalog
    from tools.messages import formatter

    regions = {i.region.name for i in load_catalog().instances}
    assert len(regions) > 50
    for lang in ("en", "zh"):
        prose = {r: formatter(lang).region(r) for r in regions}
        assert {r: render.region_label(r, lang) for r in regions} == {r: t.strip("`") for r, t in prose.items()}
    # a cloud's own code: code in Chinese prose, plain text in a table cell
    assert (formatter("zh").region("us-east-1"), render.region_label("us-east-1", "zh")) == ("`us-east-1`", "us-east-1")
    assert formatter("zh").region("us-east-1", code=False) == "us-east-1"  # the cell form the panel asks for


@pytest.mark.parametrize(
    "value, en, zh",
    [
        (None, "unknown", "未知"),  # missing: unknown, never 0
        (True, "yes", "是"),
        (18.44, "18.4", "18.4"),
        (1234, "1,234", "1,234"),
    ],
)
def test_num_per_language(value, en, zh):
    assert render.num(value) == en and render.num(value, language="zh") == zh


@pytest.mark.parametrize(
    "value, currency, en, zh",
    [
        (None, "CNY", "unknown", "价格未知"),  # the chart's words for a missing price
        (554.8, "CNY", "¥554.80", "¥554.80"),  # cents below 1000
        (7373.0, "CNY", "¥7,373", "¥7,373"),  # tables keep digits (no 万)
        (12.5, "EUR", "12.50 EUR", "12.50 EUR"),
    ],
)
def test_money_per_language(value, currency, en, zh):
    assert render.money(value, currency) == en and render.money(value, currency, "zh") == zh


@pytest.mark.parametrize(
    "lang, row, caption",
    [
        # Chinese punctuation between the caption's parts (；), not the English " · "
        ("zh", "| 1 | 恒源云<br>`rtx-3090-1x` | 1× A10 | 18.4 / 22.2 | 价格未知 | 2025-11-01 |",
         "<sub>计费：按量付费；地域：中国大陆</sub>"),
        ("en", "| 1 | Gpushare (恒源云)<br>`rtx-3090-1x` | 1× A10 | 18.4 / 22.2 | unknown | 2025-11-01 |",
         "<sub>Billing: on-demand · Region: cn-mainland</sub>"),
    ],
)
def test_panel_names_providers_and_regions_in_the_answers_language(lang, row, caption):
    """Regression (issue 10): the panel showed 'gpushare · rtx-3090-1x', 'unknown', '计费: …' and 'cn-mainland'."""
    a = answer([option(provider="gpushare", instance="rtx-3090-1x", region="cn-mainland", month=None)], language=lang)
    panel = render.recommendation_panel(a, names=NAMES)
    assert row in panel.splitlines()
    assert caption in panel


def test_full_table_names_providers_and_regions():
    a = answer([option(provider="gpushare", instance="rtx-3090-1x", region="cn-mainland")], language="zh")
    row = render.options_table(a, names=NAMES).splitlines()[2]
    assert row.startswith("| 1 | 恒源云 | rtx-3090-1x | 1× A10 | 中国大陆 | 18.4 / 22.2 GiB |")


def test_panel_shows_the_first_rows_and_says_how_many_more():
    panel = render.recommendation_panel(answer([option(instance=f"i{n}") for n in range(9)]))
    assert panel.count("| aliyun<br>`i") == render.PANEL_ROWS == 6
    assert "3 more in the answer and the export" in panel


def test_panel_caption_in_chinese_lists_regions_and_the_rest_with_chinese_punctuation():
    opts = [option(instance=f"i{n}", region=r) for n, r in enumerate(["cn-mainland", "beijing-a"] * 4)]
    panel = render.recommendation_panel(answer(opts, language="zh"), names=NAMES)
    assert "<sub>计费：按量付费；地域：中国大陆、北京 A 区；另有 2 个候选，见回答和导出文件</sub>" in panel


def test_panel_renders_the_top_options_notes_in_the_answers_language():
    en = render.recommendation_panel(answer())
    assert "- mainland China region (cn-beijing)" in en and "- ⚠ no BF16 on A10" in en
    zh = render.recommendation_panel(answer(language="zh"))
    assert "- 中国大陆地域（`cn-beijing`）" in zh and "- ⚠ A10 不支持 BF16" in zh
    assert "每卡需要 18.4 GiB" in zh and "needs" not in zh
    assert "计费：按量付费" in zh  # billing in words, not the enum value


def test_panel_without_options_says_so():
    assert "No recommendation yet" in render.recommendation_panel(None)
    assert render.recommendation_panel(None, language="zh") == "_还没有推荐：问一下某个模型该租什么服务器。_"
    no_recommender = answer(options=[]).model_copy(update={"tool_calls": []})
    assert render.recommendation_panel(no_recommender).startswith("_No recommendation")


def test_panel_when_the_recommender_found_nothing_says_that_rather_than_not_yet():
    """The recommender ran and every option was rejected: 'no recommendation yet' would be wrong."""
    assert render.recommendation_panel(answer(options=[])) == "_No option met the requirements this time: the answer says why._"
    assert render.recommendation_panel(answer(options=[], language="zh")) == "_这次没有符合条件的配置：原因见回答。_"


@pytest.mark.parametrize(
    "lang, first_line",
    [
        ("zh", "_↩ 第 2 问的推荐（这一轮的回答没有新的推荐）_"),
        ("en", "_↩ From question 2 (this answer has no new recommendation)_"),
    ],
)
def test_panel_of_an_earlier_question_says_so_first(lang, first_line):
    panel = render.recommendation_panel(answer(language=lang), names=NAMES, earlier=2)
    lines = panel.splitlines()
    assert lines[0] == first_line and lines[2].startswith("| # |")
    assert render.recommendation_panel(answer(language=lang), names=NAMES).startswith("| # |")  # the latest: no such line


def test_chunks_are_growing_prefixes_ending_with_the_whole_text():
    text = "word " * 100 + "\n| a | b |\n|---|---|\n"
    parts = render.chunks(text, size=50)
    assert parts[-1] == text
    assert all(text.startswith(p) for p in parts)
    assert all(len(a) < len(b) for a, b in zip(parts, parts[1:]))


# ---------------------------------------------------------------- charts


def test_memory_chart_bars_are_proportional():
    svg = memory_chart([option(need=20, usable=80), option(instance="b", need=40, usable=40)])
    widths = [float(w) for w in re.findall(r'<rect x="220" y="\d+" width="([\d.]+)"', svg)]
    # plot width 640-220-150 = 270 px; scale max = 80 GiB
    assert widths == [270.0, 67.5, 135.0, 135.0]  # usable 80, need 20, usable 40, need 40
    assert "20 / 80 GiB" in svg and "<title>Memory per GPU: needed vs usable</title>" in svg


def test_cost_chart_budget_line_and_colours():
    svg = cost_chart([option(month=5000), option(instance="b", month=9000)], budget=8000, budget_currency="CNY")
    assert 'stroke-dasharray' in svg and "budget ¥8,000" in svg
    assert svg.count('fill="#16a34a"') == 1 and svg.count('fill="#dc2626"') == 1  # one under, one over budget


def test_cost_chart_budget_in_other_currency_is_not_drawn_as_a_line():
    svg = cost_chart([option(month=5000)], budget=800, budget_currency="USD")
    assert "stroke-dasharray" not in svg and "budget is in USD" in svg


def test_cost_chart_unknown_price_and_escaped_labels():
    svg = cost_chart([option(provider="<script>", month=None)])
    assert "price unknown" in svg and "<script>" not in svg and "&lt;script&gt;" in svg


@pytest.mark.parametrize(
    "opt, lang, label",
    [
        # display names, not 'gpushare/rtx-3090-1x'
        (option(provider="gpushare", instance="rtx-3090-1x"), "zh", "恒源云 · rtx-3090-1x"),
        (option(provider="gpushare", instance="rtx-3090-1x"), "en", "Gpushare (恒源云) · rtx-3090-1x"),
        # a long name is shortened first, so the instance stays whole
        (option(provider="runpod", instance="1x_RTX4000-Ada_SECURE"), "en", "RunPod… · 1x_RTX4000-Ada_SECURE"),
        # an instance id too long for the column: the whole label is cut
        (option(provider="aws", instance="x" * 40), "en", "Amazon Web Services (AWS) · xxx…"),
    ],
)
def test_chart_labels_use_display_names(opt, lang, label):
    for svg in (memory_chart([opt], lang, NAMES), cost_chart([opt], language=lang, names=NAMES)):
        assert f">{label}</text>" in svg


def test_charts_in_chinese_have_no_english_words():
    svg = cost_chart([option(provider="gpushare", month=None)], budget=800, budget_currency="USD", language="zh", names=NAMES)
    assert "价格未知" in svg and "预算以 美元 计：请在表格中比较" in svg
    assert not re.search(r">[^<]*\b(unknown|budget|USD)\b[^<]*<", svg)
    memory = memory_chart([option(provider="gpushare")], "zh", NAMES)
    assert "<title>每卡显存：需要 / 可用</title>" in memory
    assert not re.search(r">[^<]*\b(vs|GPU|per)\b[^<]*<", memory.replace("1× A10", ""))


def test_charts_follow_the_answer_period():
    svg = cost_chart([option(hour=10.5)], period="hour")
    assert "Cost per hour" in svg and "¥10.50" in svg


# ---------------------------------------------------------------- export


def test_export_markdown_contains_question_table_reasons_and_sources():
    md = recommendation_markdown(answer(), "Which GPU for Qwen2.5-7B?", now=dt.datetime(2026, 1, 2, tzinfo=dt.timezone.utc))
    assert md.startswith("# GPU Advisor recommendation\n")
    assert "_Generated: 2026-01-02T00:00:00+00:00 · brain: offline_" in md
    assert "> Which GPU for Qwen2.5-7B?" in md
    assert "**aliyun · gn7i** (cn-beijing): 1× A10" in md
    assert "18.4 GiB needed of 22.2 GiB usable (headroom 3.8 GiB)" in md
    assert "price source: https://example.test/prices" in md
    assert "| # | Provider | Instance |" in md
    assert "[1] LoRA" in md
    assert "- 1 × A10: needs 18.4 GiB per GPU of 22.2 GiB usable (3.8 GiB headroom); the whole job on one GPU" in md
    assert "- ⚠ no BF16 on A10: training runs in fp16 mixed precision" in md
    assert "(on-demand; official list price; as of 2025-11-01)" in md


def test_export_in_chinese_renders_the_notes_in_chinese():
    md = recommendation_markdown(answer(language="zh"), "Qwen2.5-7B 租什么卡？", now=dt.datetime(2026, 1, 2, tzinfo=dt.timezone.utc))
    assert md.startswith("# GPU Advisor 推荐\n")
    assert "_生成时间：2026-01-02T00:00:00+00:00；回答引擎：离线_" in md
    assert "- 每卡显存：需要 18.4 GiB，可用 22.2 GiB（余量 3.8 GiB）" in md
    assert "（按量付费；官方刊例价；2025-11-01 数据）" in md
    assert "- ⚠ A10 不支持 BF16：训练将使用 fp16 混合精度" in md
    assert "needs" not in md and "headroom" not in md


def test_export_in_chinese_names_the_provider_and_region_in_chinese():
    """Regression (issue 10): the Chinese export said '**gpushare/rtx-3090-1x** (cn-mainland)：' and 'unknown'."""
    top = option(provider="gpushare", instance="rtx-3090-1x", region="cn-mainland", headroom_gib=None)
    md = recommendation_markdown(answer([top], language="zh"), "租什么卡？")
    assert "- **恒源云 · rtx-3090-1x**（中国大陆）：1× A10" in md  # the built-in catalog's name_zh
    assert "（余量 未知）" in md and "unknown" not in md
    assert "gpushare/" not in md and "(cn-mainland)" not in md


def test_export_file_name_is_safe(tmp_path):
    a = answer([option(provider="../../etc", instance="p4d 24x/large")])
    assert export_filename(a) == "gpu-advisor-..-..-etc-p4d-24x-large.md"
    path = write_export(a, "q", tmp_path / "s1")
    assert path.parent == tmp_path / "s1" and path.read_text(encoding="utf-8").startswith("# GPU Advisor")


# ---------------------------------------------------------------- feedback


def test_feedback_lines_from_many_threads_stay_whole(tmp_path):
    log = FeedbackLog(tmp_path / "deep" / "feedback.jsonl")

    def write(n):
        for i in range(50):
            log.append(FeedbackRecord(session=f"s{n}", rating="up", comment="好" * 500, message_index=i))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = (tmp_path / "deep" / "feedback.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 200
    assert all(json.loads(line)["comment"] == "好" * 500 for line in lines)


def test_feedback_record_rejects_unknown_fields_and_bad_ratings():
    with pytest.raises(ValueError, match="rating"):
        FeedbackRecord(session="s", rating="meh")
    with pytest.raises(ValueError, match="Extra inputs"):
        FeedbackRecord(session="s", stars=5)


# ---------------------------------------------------------------- preferences


@pytest.mark.parametrize(
    "prefs, conveyed, changed, note_en, note_zh",
    [
        # nothing changed from a fresh conversation: no note
        ({}, {}, {}, "", ""),
        # three set at once
        ({"currency": "CNY", "region": "cn", "billing": "spot"}, {},
         {"currency": "CNY", "region": "cn", "billing": "spot"},
         "(settings: CNY, China mainland, spot)", "（设置：人民币，国内，竞价）"),
        # already conveyed earlier in this conversation: not repeated
        ({"currency": "CNY"}, {"currency": "CNY"}, {}, "", ""),
        # back to 'any region' after cn: said explicitly so it overrides the earlier turn
        ({"region": "any"}, {"region": "cn"}, {"region": "any"}, "(settings: any region)", "（设置：不限地区）"),
        # the answer language is a setting too
        ({"language": "zh"}, {}, {"language": "zh"}, "(settings: answers in Chinese)", "（设置：用中文回答）"),
    ],
)
def test_settings_changes_and_their_note(prefs, conveyed, changed, note_en, note_zh):
    from ui.web.session import BASELINE, changes, settings_note

    got = changes(Preferences(**prefs), {**BASELINE, **conveyed})
    assert got == changed
    assert settings_note(got, "en") == note_en and settings_note(got, "zh") == note_zh


class _RecordingAdvisor:
    """Stands in for Advisor at the factory seam: records what it was asked and the typed preferences it got."""

    def __init__(self, brain):
        self.brain, self.history, self.asked, self.preferences = brain, [], [], []

    def ask(self, text):
        self.asked.append(text)
        self.history.append(text)
        return answer(text=f"{self.brain}: {text}")

    def set_preferences(self, **typed):
        self.preferences.append({k: v for k, v in typed.items() if v is not None})

    def reset(self):
        self.history.clear()


def test_session_sends_typed_settings_once_and_keeps_history_across_brain_switch():
    made = []

    def factory(brain):
        made.append(_RecordingAdvisor(brain))
        return made[-1]

    s = Session(factory, Preferences())
    s.ask("Which GPU for Llama-3-8B?")
    s.prefs = Preferences(currency="CNY")
    s.ask("and the price?")
    s.ask("and monthly?")
    # the question text is never changed; the setting reaches the advisor as a typed value, once
    assert made[0].asked == ["Which GPU for Llama-3-8B?", "and the price?", "and monthly?"]
    assert made[0].preferences == [{"currency": "CNY"}]
    s.prefs = Preferences(brain="deepseek:deepseek-chat", currency="CNY")
    s.ask("again")
    assert len(made) == 2 and made[1].brain == "deepseek:deepseek-chat"
    assert made[1].history[:3] == made[0].history  # the conversation continues on the new brain
    s.reset()
    assert made[1].history == [] and s.last_answer is None
