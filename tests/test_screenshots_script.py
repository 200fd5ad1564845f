"""scripts/screenshots.py's Slack preview: Block Kit mrkdwn → HTML, Chinese kept, everything escaped.

No browser here: the preview renderer is pure. The blocks in the round-trip test come from the Slack
bot's own `ui.slack.blocks.answer_blocks`, as in the script.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from assistant.answer import Answer, Citation
from ui.slack.blocks import answer_blocks

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "screenshots.py"


@pytest.fixture(scope="module")
def shots():
    spec = importlib.util.spec_from_file_location("screenshots_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("mrkdwn", "expected"),
    [
        # bold next to Chinese punctuation, as the answer's first line is written
        ("*推荐：租 1× RTX-3090* —— 恒源云", "<b>推荐：租 1× RTX-3090</b> —— 恒源云"),
        # inline code keeps instance ids literal, underscores included (no italics inside)
        ("`massedcompute_RTX6000Ada` 超出预算", "<code>massedcompute_RTX6000Ada</code> 超出预算"),
        # code inside bold
        ("*推荐 `rtx-3090-1x`*", "<b>推荐 <code>rtx-3090-1x</code></b>"),
        # a link: Slack's &amp; in the URL becomes one escaped & in the href
        ("<https://example.com/a?b=1&amp;c=2|价格来源>",
         '<a href="https://example.com/a?b=1&amp;c=2" rel="noreferrer">价格来源</a>'),
        # a quote in a URL cannot end the attribute
        ('<https://x.test/"onmouseover=alert(1)|链接>',
         '<a href="https://x.test/&quot;onmouseover=alert(1)" rel="noreferrer">链接</a>'),
        # only http(s)/mailto become links; anything else is shown as typed
        ("<javascript:alert(1)|点我>", "&lt;javascript:alert(1)|点我&gt;"),
        # Slack-escaped markup from a question stays text
        ("&lt;script&gt;alert(1)&lt;/script&gt; 提问", "&lt;script&gt;alert(1)&lt;/script&gt; 提问"),
        # a literal "&lt;" typed by the user (sent as &amp;lt;) stays those four characters
        ("&amp;lt;b&amp;gt;", "&amp;lt;b&amp;gt;"),
        # quotes are escaped too
        ('" onmouseover="x', "&quot; onmouseover=&quot;x"),
        # a user mention, as the slash command's context line has it
        ("<@U0SCREENSHOT> 提问：换成 QLoRA 呢？", '<span class="mention">@U0SCREENSHOT</span> 提问：换成 QLoRA 呢？'),
        # italics and an emoji shortcode (the "thinking" line)
        ("_思考中…_ :hourglass_flowing_sand:", "<i>思考中…</i> ⏳"),
        # a table as preformatted text: no formatting inside, backticks literal, markup escaped
        ("```\n云厂商  实例\n恒源云  `rtx-3090-1x` *x* &lt;b&gt;\n```",
         "<pre>云厂商  实例\n恒源云  `rtx-3090-1x` *x* &lt;b&gt;</pre>"),
        # strike, and a bullet line as blocks.py writes it
        ("• ~旧价格~ ¥554.80", "• <s>旧价格</s> ¥554.80"),
    ],
)
def test_mrkdwn_to_html(shots, mrkdwn, expected):
    assert shots.mrkdwn_html(mrkdwn) == expected


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ({"type": "divider"}, '<hr class="block divider">'),
        ({"type": "header", "text": {"type": "plain_text", "text": "推荐 <b>"}}, '<div class="block header">推荐 &lt;b&gt;</div>'),
        ({"type": "context", "elements": [{"type": "mrkdwn", "text": "大脑：offline"}]},
         '<div class="block context"><span class="mrkdwn">大脑：offline</span></div>'),
        # Slack's table block: the first row is the header
        ({"type": "table", "rows": [[{"type": "raw_text", "text": "云厂商"}], [{"type": "raw_text", "text": "恒源云<"}]]},
         '<div class="block"><table class="table"><tr><th>云厂商</th></tr><tr><td>恒源云&lt;</td></tr></table></div>'),
        # an unknown block is shown, never dropped silently
        ({"type": "video"}, '<div class="block unsupported">[video block]</div>'),
    ],
)
def test_block_to_html(shots, block, expected):
    assert shots.block_html(block) == expected


def test_preview_of_real_blocks_keeps_chinese_and_runs_nothing(shots):
    question = '想微调 Qwen2.5-7B，租什么卡？<script>window.x=1</script><img src=x onerror="y()">'
    answer = Answer(
        answer="**推荐：租 1× RTX-3090** —— 恒源云 `rtx-3090-1x`\n\n"
               "| 云厂商 | 实例 |\n|---|---|\n| 恒源云 | `rtx-3090-1x` |\n\n- 每月费用 = 小时单价 × 730 小时。",
        language="zh",
        citations=[Citation(marker=1, doc_id="vram", title="显存（VRAM）需要多大", section="不同任务需要多少显存")],
        recommendation={"provider": "恒源云", "instance": "rtx-3090-1x", "gpu": "RTX-3090", "gpu_count": 1,
                        "per_gpu_gib": 21.9, "gpu_usable_gib": 23.7, "price_per_hour": 0.76, "monthly_cost": 554.8,
                        "currency": "CNY", "billing": "on_demand", "region": "cn-mainland", "price_grade": None,
                        "price_as_of": "2026-10-01"},
    )
    root = {"blocks": answer_blocks(answer, asked_by="U0SCREENSHOT", question=question), "question": question}
    reply = {"blocks": answer_blocks(answer), "question": "换成 QLoRA 呢？<b>"}
    page = shots.slack_preview_html([root, reply])

    body = page.split("<body>", 1)[1]
    assert "<script" not in page and "<img" not in body and "onerror=\"" not in body
    assert "&lt;script&gt;window.x=1&lt;/script&gt;" in body  # the question is shown, as text
    assert "换成 QLoRA 呢？&lt;b&gt;" in body
    assert "<b>推荐：租 1× RTX-3090</b>" in body
    assert "<pre>云厂商" in body and "每月费用 = 小时单价 × 730 小时。" in body
    assert "1 条回复（线程）" in body
    assert "显存（VRAM）需要多大" in body and "¥554.80" in body
    assert "default-src 'none'" in page  # the page may fetch nothing
    assert not re.search(r"(src|href)=\"(?!https?:)", body)  # no local or script URLs anywhere
