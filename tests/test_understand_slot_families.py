"""Slot families the reader missed as whole groups of phrasings (issue 9), table-driven.

Each table is one family: the forms people write it in, and the near forms that must not be read as it. The
phrasings here are written for the test, not copied from the understanding corpus.
"""

from __future__ import annotations

import pytest

from assistant.understand.names import NameMatcher
from assistant.understand.reader import Reader


@pytest.fixture(scope="module")
def reader():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return Reader(NameMatcher(load_catalog(Settings.load())))


CNY_MONTH = {"currency": "CNY", "per": "month"}

# (text, slots that must be stated with these values)
STATED = [
    # budget: the period written before the amount, with 万/w/千 or closed by 以内
    ("每月1.2万以内，租什么卡跑qwen2.5-14b推理", {"budget": {"amount": 12000.0, **CNY_MONTH}}),
    ("预算别超过每月3w", {"budget": {"amount": 30000.0, **CNY_MONTH}}),
    ("经费每个月最多5千", {"budget": {"amount": 5000.0, **CNY_MONTH}}),
    ("- 费用：每月9000以内", {"budget": {"amount": 9000.0, **CNY_MONTH}}),
    ("每月2-3w，长期做sft", {"budget": {"amount": 30000.0, **CNY_MONTH}}),  # a range: its upper bound
    # per-user speed: "+", "each", "every stream", and the Chinese order with 每秒 first
    ("every user should see 30+ tokens a second", {"tokens_per_s_per_user": 30.0}),
    ("15 tok/s each would be fine", {"tokens_per_s_per_user": 15.0}),
    ("keep each stream above 12 tok/s", {"tokens_per_s_per_user": 12.0}),
    ("每个人每秒至少25个token", {"tokens_per_s_per_user": 25.0}),
    ("每个用户不低于18 token每秒", {"tokens_per_s_per_user": 18.0}),
    # deadline: "N max", a Chinese length closed by 内, must / hard stop, the end of a month
    ("continued pretraining of a 1B model, 20B tokens, 10 days max", {"deadline": {"hours": 240.0}}),
    ("那如果放宽到5天内呢", {"deadline": {"hours": 120.0}}),
    ("两周之内要出结果", {"deadline": {"hours": 336.0}}),
    ("we must have the checkpoint within 36 hours", {"deadline": {"hours": 36.0}}),
    ("hard stop on nov 20, 4 H100s, enough?", {"deadline": {"date": "11-20"}}),
    ("the run has to be finished by the end of october", {"deadline": {"date": "10-31"}}),
    ("要是11月底前必须训完，要几张卡", {"deadline": {"date": "11-30"}}),
    ("ddl放宽到两周", {"deadline": {"hours": 336.0}}),  # the limit moved to a new length
    ("about 20 hours till the review, 1B tokens of lora on llama-3-8b", {"deadline": {"hours": 20.0}}),
    ("算了，截止日期不卡了", {"retract": ["deadline"]}),
    # region: "不限地区" is region any, not a withdrawal; "US or EU", a Chinese datacenter
    ("地区不限，哪便宜去哪", {"region": "any"}),
    ("只看 US or EU 的机房", {"region": "intl"}),
    ("lora on a 14b in a chinese data center, which card?", {"region": "cn"}),
    # withdrawals: a named GPU or provider dropped, the Chinese "not needed" phrasings
    ("forget the A6000s, what would you rent instead", {"retract": ["gpus", "gpu_count", "available_gib"]}),
    ("forget runpod, whoever is cheapest", {"retract": ["providers"]}),
    ("阿里云也不是非用不可", {"retract": ["providers"]}),
    ("经费批下来了，预算不用考虑了", {"retract": ["budget"]}),
    ("钱的事先放一边，先看能不能跑", {"retract": ["budget"]}),
    ("never mind the deadline — how long on 16 cards?", {"retract": ["deadline"], "gpu_count": 16}),
    # a named GPU swapped for another restates the hardware, it withdraws nothing
    ("drop the H100, use 2 A100s", {"gpu_count": 2}),
    # a generic "my card" with new hardware still withdraws what the new hardware does not restate
    ("forget my card, use 4 L40S", {"retract": ["available_gib"], "gpu_count": 4}),
]


@pytest.mark.parametrize("text,expected", STATED, ids=[c[0][:40] for c in STATED])
def test_family_is_read(reader, text, expected):
    stated = reader.read(text).update.stated()
    for name, value in expected.items():
        assert stated.get(name) == value, (name, stated)


# (text, slots that must NOT be stated)
NOT_STATED = [
    ("每天10万次请求，每月多少钱", ["budget"]),  # a daily load after 每天 is no money
    ("每天8小时，跑一个月", ["budget"]),  # hours a day are no money
    ("租3天内多少钱", ["deadline"]),  # a length that is priced, not a limit
    ("首字延迟1秒内", ["deadline"]),  # a latency target, not a training limit
    ("benchmark gives 1677 output tok/s", ["tokens_per_s_per_user"]),  # a measured aggregate rate
    ("A100 or H100 都可以", ["retract"]),  # two GPUs allowed: no withdrawal
    ("drop the H100, use 2 A100s", ["retract"]),
    ("4090都可以吗", ["retract"]),  # a question, not a withdrawal
    ("不限地区", ["retract"]),  # region any
    ("每天1万以内的请求，用什么卡", ["budget"]),  # review: a count after its bound word is no money
    ("每天500以内的用户", ["budget"]),
    ("每月 2w 左右 token 的量", ["budget"]),
    ("用 A100 都可以", ["retract"]),  # one GPU allowed: no withdrawal
]


@pytest.mark.parametrize("text,absent", NOT_STATED, ids=[c[0][:40] for c in NOT_STATED])
def test_family_near_forms_are_not_read(reader, text, absent):
    stated = reader.read(text).update.stated()
    for name in absent:
        assert name not in stated, (name, stated)


def test_two_gpus_allowed_are_not_withdrawn(reader):
    # "A or B 都行" allows both: the GPUs stay stated and nothing is withdrawn
    stated = reader.read("A100或者L40S都行，lora训llama-3.1-8b").update.stated()
    assert stated.get("gpus") == ["A100-80GB", "L40S"] and "retract" not in stated, stated

