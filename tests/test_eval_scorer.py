"""Each check of the scorer on hand-written answers that must pass and must fail.

Expected values are computed by hand in the comments; the exchange rate is fixed
at 7.10 CNY per USD so money conversions are exact.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from assistant.answer import Answer, Citation, ToolCallRecord
from assistant.evaluation.golden import parse_items
from assistant.evaluation.scorer import detect_language, score_answer
from tools.schemas import ExchangeRate

FX = ExchangeRate(usd_cny=7.10, as_of=dt.date(2025, 11, 28), source="test")


def item(expect: dict[str, Any], lang: str = "en"):
    [golden] = parse_items([{"id": "t", "lang": lang, "category": "test", "turns": ["q"], "expect": expect}], "test")
    return golden


def answer(text: str = "", tools=(), cited=(), rec: dict[str, Any] | None = None) -> Answer:
    return Answer(
        answer=text, language="en",
        tool_calls=[ToolCallRecord(name=n, args={}, result={}) for n in tools],
        citations=[Citation(marker=n, doc_id=d, title=d, section="") for n, d in enumerate(cited, 1)],
        recommendation=rec,
    )


def check(expect: dict[str, Any], ans: Answer) -> tuple[bool, list[str]]:
    results = score_answer(item(expect), ans, FX)
    assert results, "every given check yields a result"
    return all(r.passed for r in results), [r.reason for r in results if not r.passed]


def num(value, unit, rel_tol, about=None):
    n = {"value": value, "unit": unit, "rel_tol": rel_tol}
    if about:
        n["about"] = about
    return {"numbers": [n]}


# ------------------------------------------------------------------ numbers

NUMBER_CASES = [
    # (expectation, answer text, passes) — one comment per row
    (num(30, "GB", 0.35), "LoRA needs about 28 GB per GPU.", True),  # 28 within 19.5..40.5
    (num(30, "GB", 0.35), "It needs 18 GB or 42 GB.", False),  # both outside ±35 %
    (num(30, "GB", 0.05), "It needs 27.9 GiB.", True),  # 27.9 GiB = 29.96 GB
    (num(16, "GB", 0.02), "LoRA-16 needs 16 GiB.", True),  # exact 17.18 GB is 7 % off; face value 16 accepted
    (num(16, "GiB", 0.02), "About 17.2 GB.", True),  # 17.2 GB = 16.02 GiB
    (num(1200, "GB", 0.1), "The full fine-tune needs 1.2 TB of GPU memory.", True),  # 1.2 TB = 1200 GB
    (num(6, "GB", 0.5), "QLoRA needs about 6000 MB.", True),  # 6000 MB = 6 GB
    (num(21, "days", 0.05), "It takes about 3 weeks.", True),  # 3 weeks = 504 h = 21 days
    (num(21, "days", 0.05), "Roughly 504 hours of wall time.", True),  # 504 h = 21 days
    (num(21, "days", 0.05), "Roughly 21 hours.", False),  # 21 h is not 21 days
    (num(88, "days", 0.4), "需要约 2,112 小时（88 天）。", True),  # Chinese time units
    (num(2197.2, "USD", 0.01), "About ¥15,600 per month.", True),  # ¥15,600 / 7.10 = $2,197.18
    (num(15600, "CNY", 0.01), "About $2,197 per month.", True),  # $2,197 × 7.10 = ¥15,598.70
    (num(15000, "CNY", 0.01), "每月约 1.5万元。", True),  # 1.5万元 = 15,000 CNY
    (num(20000, "CNY", 0.001), "预算 2万 元每月", True),  # 2万 = 20,000
    (num(2, "万元", 0.001), "总价 ¥20,000。", True),  # expected unit 万元 = 10,000 CNY
    (num(20000, "CNY", 0.05), "总价 ¥2,000。", False),  # an order of magnitude off
    (num(2195.76, "USD", 0.001), "100 hours cost $2,195.76 in total.", True),
    (num(16, "GB", 0.5), "It takes 16 hours.", False),  # wrong family: no memory figure at all
    (num(8, "GPUs", 0.01), "共 8 张 A100。", True),  # 8 张 = 8 GPUs
    (num(8, "GPUs", 0.01), "Rent 8x A100 80GB.", True),
    (num(70, "%", 0.01), "利用率低于 70% 说明有数据瓶颈。", True),
    (num(2.0, "TB/s", 0.05), "A100 80GB: 2,039 GB/s.", True),  # 2,039 GB/s = 2.039 TB/s
    (num(3.35, "TB/s", 0.03), "H100 SXM has 3.35 TB/s of bandwidth.", True),
    (num(312, "TFLOPS", 0.05), "312 TFLOPS dense BF16.", True),
    (num(82432, "GPU-hours", 0.5), "about 82,432 GPU-hours", True),
    (num(82432, "hours", 0.5), "about 82,432 GPU-hours", False),  # GPU-hours are not wall-clock hours
    (num(10, "Gbps", 0.01), "at least 10 Gbps between nodes", True),
    (num(10, "GB/s", 0.01), "at least 10 Gbps between nodes", False),  # bits are not bytes
    (num(80, "GB", 0.1), "Rent an A100-80GB.", False),  # digits inside a GPU name are not a claim
]


@pytest.mark.parametrize("expect, text, passes", NUMBER_CASES)
def test_numbers(expect, text, passes):
    ok, reasons = check(expect, answer(text))
    assert ok is passes, reasons


def test_number_failure_reason_lists_what_was_found():
    ok, reasons = check(num(30, "GB", 0.35, about="LoRA memory"), answer("It needs 18 GB or 42 GB."))
    assert not ok
    assert reasons == ["expected a number ≈30 GB ±35 % (LoRA memory), found 18 GB, 42 GB"]


def test_number_failure_reason_when_family_absent():
    _, reasons = check(num(16, "GB", 0.5), answer("It takes 16 hours."))
    assert reasons == ["expected a number ≈16 GB ±50 %, found no memory figure"]


def test_each_number_is_checked_separately():
    expect = {"numbers": [{"value": 2681.29, "unit": "USD", "rel_tol": 0.03}, {"value": 545.09, "unit": "USD", "rel_tol": 0.03}]}
    ok, reasons = check(expect, answer("On demand $2,681.29 a month; spot $900 a month."))
    assert not ok and len(reasons) == 1 and reasons[0].startswith("expected a number ≈545.09 USD ±3 %")


# ------------------------------------------------------------------ tools, mentions


@pytest.mark.parametrize(
    "tools, called, passes",
    [
        (["recommend"], ["search_guidance", "recommend_config"], True),  # substring of the real tool name
        (["estimate_vram", "search_guidance"], ["estimate_vram"], False),
        (["lookup_catalog"], [], False),
    ],
)
def test_tools(tools, called, passes):
    ok, reasons = check({"tools": tools}, answer("x", tools=called))
    assert ok is passes
    if not passes:
        assert reasons[0].startswith("expected tool(s)") and ("called: none" in reasons[0] or "estimate_vram" in reasons[0])


@pytest.mark.parametrize(
    "groups, text, passes",
    [
        ([["LoRA", "QLoRA"]], "Use lora with rank 16.", True),  # case-insensitive
        ([["LoRA"]], "用 ＬｏＲＡ 微调", True),  # full-width letters fold to ASCII
        ([["LoRA"], ["A100", "L40S"]], "Use LoRA on an H100.", False),  # second group unmet
        ([["可用区"]], "所有节点放在同一个可用区。", True),
    ],
)
def test_mentions_any(groups, text, passes):
    ok, reasons = check({"mentions_any": groups}, answer(text))
    assert ok is passes
    if not passes:
        assert reasons == ["none of [A100, L40S] appears in the answer"]


def test_mentions_none():
    assert check({"mentions_none": ["8x H100"]}, answer("Rent 2x A100."))[0]
    ok, reasons = check({"mentions_none": ["8x H100", "sk-"]}, answer("Rent 8X H100 now."))
    assert not ok and reasons == ["the answer mentions '8x H100', which it must not"]


# ------------------------------------------------------------------ recommendation checks


@pytest.mark.parametrize(
    "wanted, gpu, passes",
    [
        (["A100"], "A100-80GB", True),
        (["a100 80gb"], "A100-80GB", True),  # case, spaces and dashes ignored
        (["RTX 4090"], "RTX-4090", True),
        (["RTX A6000"], "RTX-A6000", True),
        (["A100", "L40S"], "L4", False),
        (["H100"], "H100-NVL", True),
    ],
)
def test_gpus_any(wanted, gpu, passes):
    ok, reasons = check({"gpus_any": wanted}, answer("x", rec={"gpu": gpu, "provider": "p", "instance": "i"}))
    assert ok is passes
    if not passes:
        assert reasons == [f"top recommendation's GPU is {gpu}, not one of {', '.join(wanted)}"]


def test_gpus_any_without_recommendation_fails():
    ok, reasons = check({"gpus_any": ["A100"]}, answer("no table"))
    assert not ok and "the answer has no recommendation" in reasons[0]


@pytest.mark.parametrize(
    "limit, rec, passes",
    [
        ({"value": 20000, "currency": "CNY"}, {"monthly_cost": 2000.0, "currency": "USD"}, True),  # $2,000 = ¥14,200
        ({"value": 20000, "currency": "CNY"}, {"monthly_cost": 3000.0, "currency": "USD"}, False),  # $3,000 = ¥21,300
        ({"value": 1000, "currency": "USD"}, {"monthly_cost": 7100.0, "currency": "CNY"}, True),  # ¥7,100 = $1,000
        ({"value": 1000, "currency": "USD"}, {"monthly_cost": 7200.0, "currency": "CNY"}, False),  # ¥7,200 = $1,014
        ({"value": 1000, "currency": "USD"}, {"monthly_cost": None, "currency": "USD"}, False),  # unknown price fails
    ],
)
def test_max_monthly_cost(limit, rec, passes):
    ok, reasons = check({"max_monthly_cost": limit}, answer("x", rec={"provider": "p", "instance": "i", "gpu": "A100", **rec}))
    assert ok is passes, reasons
    if rec["monthly_cost"] is None:
        assert "unknown monthly price" in reasons[0]
    elif not passes:
        assert reasons[0].startswith("top recommendation costs")


def test_max_monthly_cost_without_recommendation_fails():
    ok, reasons = check({"max_monthly_cost": {"value": 5000, "currency": "CNY"}}, answer("x"))
    assert not ok and "no recommendation" in reasons[0]


def test_sources_any():
    assert check({"sources_any": ["billing-modes", "cost-control"]}, answer("x", cited=["vram", "cost-control"]))[0]
    ok, reasons = check({"sources_any": ["billing-modes"]}, answer("x", cited=["vram", "vram"]))
    assert not ok and reasons == ["expected a citation of billing-modes; cited: vram"]


# ------------------------------------------------------------------ language

ZH = "推荐租用 1× A100 80GB（RunPod 1x_A100-80GB_SECURE），LoRA 微调 LLaMA-13B 需要约 30 GB 显存，月费约 ¥8,500。"
EN = "Rent one A100 80GB on RunPod: a LoRA fine-tune of LLaMA-13B needs about 30 GB; Alibaba Cloud (阿里云) has no public price."


MIXED = "**按当前条件不可行：** 目录中没有能满足该任务且在预算内的配置。does not fit: needs 145.3 GiB per GPU."
PASTED = ("显存不够？ Gradient checkpointing trades compute for memory: it stores only the inputs of each layer "
          "and recomputes the rest in the backward pass, which is the cheapest way to fit a larger batch.")


@pytest.mark.parametrize(
    "text, lang",
    [
        (ZH, "zh"),
        (EN, "en"),
        ("", "unknown"),
        ("| GPU | 显存 |\n|---|---|\n| A100 | 80GB |", "zh"),  # technical tokens count for neither language
        (MIXED, "zh"),  # Chinese answer with an untranslated clause: still mostly Chinese
        (PASTED, "en"),  # a Chinese question answered with a pasted English passage reads as English
        ("H100: 80 GB, 3.35 TB/s", "en"),  # Latin script only
    ],
)
def test_detect_language(text, lang):
    assert detect_language(text) == lang


def test_answer_lang_check():
    assert check({"answer_lang": "zh"}, answer(ZH))[0]
    ok, reasons = check({"answer_lang": "zh"}, answer(EN))
    assert not ok and reasons == ["expected an answer in zh, it reads as en"]


def test_item_with_no_checks_passes_trivially():
    assert score_answer(item({}), answer("anything"), FX) == []


def test_long_failure_reasons_are_capped():
    text = ", ".join(f"{n} GB" for n in range(1, 13))  # twelve memory figures, none near 100
    _, reasons = check(num(100, "GB", 0.1), answer(text))
    assert reasons == ["expected a number ≈100 GB ±10 %, found 1 GB, 2 GB, 3 GB, 4 GB, 5 GB, 6 GB, 7 GB, 8 GB (+4 more)"]


# ------------------------------------------------------------------ first sentence

FIRST_SENTENCE_CASES = [
    # (alternatives, answer text, passes) — one comment per row
    (["Yes"], "**Yes.** It needs about 17.4 GiB per GPU on a 24 GB card.", True),  # bold removed
    (["No", "not"], "Mistral-7B needs 17.4 GiB. No, wait.", False),  # the verdict comes in the second sentence
    (["No"], "Note that it needs 48 GiB.", False),  # "No" is a whole word: not inside "Note"
    (["No"], "No — it needs 48 GiB, the card has 24.", True),
    (["fits"], "At 2.5 GiB per layer it fits on one A100-80GB.", True),  # "2.5" is not a sentence end
    (["fits"], "It needs p4d.24xlarge-class memory. It fits.", False),  # ". " ends the first sentence
    (["能"], "**能。** Qwen2.5 14B 每卡需要约 36.4 GiB。", True),
    (["不能", "不够"], "需要约 240 GB 显存。不够。", False),  # "。" ends the sentence without a space
    (["不够"], "4 张 4090 不够：全参微调需要约 240 GB。", True),
    (["Yes"], "\n\n  Yes, with QLoRA.\nMore text.", True),  # leading blank lines skipped
    (["Yes"], "It depends on the context length\nYes for 2k.", False),  # a line break ends the first sentence
    (["YES"], "yes, it fits.", True),  # case-insensitive
    (["够"], "", False),  # an empty answer has no verdict
]


@pytest.mark.parametrize("alternatives, text, passes", FIRST_SENTENCE_CASES)
def test_first_sentence_any(alternatives, text, passes):
    ok, reasons = check({"first_sentence_any": alternatives}, answer(text))
    assert ok is passes, reasons


def test_first_sentence_failure_reason_quotes_the_sentence():
    _, reasons = check({"first_sentence_any": ["Yes", "No"]}, answer("Mistral-7B needs 17.4 GiB. Yes."))
    assert reasons == ["the first sentence mentions none of [Yes, No]: 'Mistral-7B needs 17.4 GiB.'"]


# ------------------------------------------------------------------ strict Chinese answers

ZH_LEFTOVERS = "推荐 1× A100 80GB，within budget，thin host，on-demand 价格。"  # within, budget, thin, host, on-demand


def test_answer_lang_zh_fails_on_english_words_and_names_them():
    ok, reasons = check({"answer_lang": "zh"}, answer(ZH_LEFTOVERS))
    assert not ok
    assert reasons == ["a Chinese answer with 5 Latin words besides names and terms (at most 3): "
                       "within, budget, thin, host, on-demand"]


def test_answer_lang_zh_allows_three_words():
    ok, _ = check({"answer_lang": "zh"}, answer("推荐 1× A100 80GB，within budget，thin 价格。"))  # 3 words
    assert ok


def test_answer_lang_en_is_not_counted():
    # the counter applies to Chinese answers only; an English answer is judged by its language alone
    assert check({"answer_lang": "en"}, answer(EN))[0]


# ------------------------------------------------------------------ money per million tokens

@pytest.mark.parametrize(
    "expect, text, passes",
    [
        (num(0.0783, "USD/Mtok", 0.5), "About $0.08 per 1M output tokens at full load.", True),
        (num(7.37, "USD/Mtok", 0.05), "约 ¥52.3/百万 token。", True),  # ¥52.3 / 7.10 = $7.37 per million
        (num(7.37, "USD/Mtok", 0.05), "About $7.37 per hour.", False),  # an hourly price is not a per-token cost
        (num(7.6, "ms", 0.5), "TPOT ≈ 7.6 ms at 10 concurrent requests.", True),
        (num(130.58, "tok/s", 0.4), "about 120 tok/s for one user", True),
    ],
)
def test_serving_units(expect, text, passes):
    ok, reasons = check(expect, answer(text))
    assert ok is passes, reasons
