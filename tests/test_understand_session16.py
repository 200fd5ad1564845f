"""Session 16 reading rules, from the error classes of the spent held-out 11-14: table-driven.

Every phrasing here is written for the test (none is copied from a corpus file); each table is one mechanism: the
forms it covers and the near forms it must leave alone.
"""

from __future__ import annotations

import pytest

from assistant.understand import patterns as P
from assistant.understand.names import NameMatcher
from assistant.understand.numbers import normalise
from assistant.understand.reader import Reader


@pytest.fixture(scope="module")
def reader():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return Reader(NameMatcher(load_catalog(Settings.load())))


def stated(reader, text):
    return reader.read(text).update.stated()


# ------------------------------------------------------------------ GPU counts

# (text, gpu_count the turn states, or None)
COUNTS = [
    # counts set against each other: options, a change, a trial, a range — no one setup
    ("would 3 L40S or 6 L40S be cheaper for this job?", None),
    ("scaling the run from 4 to 12 H100s did not speed it up", None),
    ("is one A10 enough or should I get two?", None),
    ("两张A100够吗，还是得上4张", None),
    ("单张4090能跑，换成3张4090反而更慢了", None),
    ("tried 2 L4s and then 4 L4s, same OOM both times", None),
    ("2 or 3 A6000s for a week, which is the better deal?", None),
    ("tp4 gives 40 tok/s and tp8 gives 45, why so little?", None),  # two tensor-parallel sizes, no GPU count
    ("4x A100 box: run two replicas at tp=2 or one at tp=4?", 4),  # a GPU count written: the TP sizes are layouts
    # "trying to …" is a goal, not a trial of another count
    ("trying to serve mixtral on 2 A100s, what context fits?", 2),
    # a bare one card beside a multi-card setup describes a card of it
    ("每张卡16G，单卡跑不动，一共有6张", 6),
    ("3 GPUs here, one gpu has 24GB", 3),
    # a written total wins, over a node product too
    ("3 nodes, 24 L40S total, pretraining a 1B model", 24),
    ("2 nodes, 16 A100s total", 16),  # the plural before "total"
    ("两台服务器一共12张卡，能训34b吗", 12),
    # node multiplication written size-first
    ("how long on three 8x H100 nodes?", 24),
    ("would five 4-GPU nodes be enough?", 20),
    ("两台H800 x 8 部署", 16),
    ("two A100 machines, 16 gpus total", 16),  # "two A100 machines" counts machines
    ("what does one 8x L40S node cost a day?", 8),  # "8x" before a node: the GPUs in it
    ("we can get several 8x H100 nodes, is 405b training realistic?", None),  # nodes of unknown number
    # someone else's setup gives way to the user's own
    ("the authors used 32 V100s; I only have 2 V100s", 2),
    ("文章里用了16张A100，我们只有一台8卡A800", 8),
    # a resolution is no count
    ("SDXL at 1024x1024 on an A10, how many images a minute?", None),
    ("upscaling 768×768 frames on 2 4090s", 2),
    # plain counts stay as they were
    ("8x H100 for a 70b full finetune", 8),
    ("4张4090部署qwen2.5-32b", 4),
]


@pytest.mark.parametrize("text,count", COUNTS, ids=[c[0][:40] for c in COUNTS])
def test_gpu_count(reader, text, count):
    assert stated(reader, text).get("gpu_count") == count


# ------------------------------------------------------------------ hours in someone else's run

HOURS = [
    ("the paper fine-tuned it on 4 A100s for 3 days; how long would 2 A100s take?", None),
    ("原作者训了60小时，我用4090要多久", None),
    ("the authors needed 10 hours on 8 V100s. what would renting that cost?", 10.0),  # their run, priced: the job
    ("what would it take to reproduce the paper? they trained for 30 hours on 8 A100s", 30.0),
    ("I need 8 A100s for 20 hours, what does it cost?", 20.0),  # the user's own
]


@pytest.mark.parametrize("text,hours", HOURS, ids=[c[0][:40] for c in HOURS])
def test_hours_of_someone_elses_run(reader, text, hours):
    assert stated(reader, text).get("hours") == hours


def test_cents_an_hour_is_a_rate_not_an_hour(reader):
    s = stated(reader, "anything decent for 35 cents an hour?")
    assert s.get("hours") is None and s["budget"] == {"amount": pytest.approx(0.35), "currency": "USD", "per": "hour"}


# ------------------------------------------------------------------ latency target after a modal

TTFT = [
    ("first token latency needs to stay below 700 ms", 700.0),
    ("TTFT should be under 1.5 s for chat", 1500.0),
    ("首token延迟必须控制在300ms以内", 300.0),
    ("首字时间能不能压到400毫秒以内", 400.0),
]


@pytest.mark.parametrize("text,ms", TTFT, ids=[c[0][:40] for c in TTFT])
def test_ttft_after_modal(reader, text, ms):
    s = stated(reader, text)
    assert s.get("ttft_ms") == ms
    assert "budget" not in s and "model_name" not in s  # "300ms以内" is no money; "TTFT" is no model


@pytest.mark.parametrize("text", ["延迟300ms以内", "控制在800ms以内", "2秒以内出结果"])
def test_milliseconds_within_are_no_budget(text):
    assert not [a for a in P.money_amounts(normalise(text)) if a.budget_cue]


# ------------------------------------------------------------------ a restated budget

BUDGETS = [
    ("预算调到每月8千", {"amount": 8000.0, "currency": "CNY", "per": "month"}),
    ("预算降到5000以内吧", {"amount": 5000.0, "currency": "CNY"}),
    ("预算放宽到一个月 3 万", {"amount": 30000.0, "currency": "CNY", "per": "month"}),
    ("budget is now 1200 dollars a month", {"amount": 1200.0, "currency": "USD", "per": "month"}),
    ("let's make the budget $300 instead", {"amount": 300.0, "currency": "USD"}),
    ("总共三千块以内", {"amount": 3000.0, "currency": "CNY", "per": "job"}),
]


@pytest.mark.parametrize("text,budget", BUDGETS, ids=[c[0][:40] for c in BUDGETS])
def test_restated_budget(reader, text, budget):
    assert stated(reader, text).get("budget") == budget


# ------------------------------------------------------------------ precision: one of several

PRECISIONS = [
    # one the named card lacks, or one refused, gives way to the other named
    ("lora on a T4 with bf16 or fp16, whatever runs", "fp16"),
    ("V100 here, bf16 would be nice but otherwise fp16", "fp16"),
    ("no fp8 on the A100, so we quantise to int8", "int8"),
    ("910B不支持fp8的话就用int8吧", "int8"),
    # one switched to
    ("it OOMs in fp16, so I'll switch to int4", "int4"),
    # several set against each other, or each asked for: none
    ("is int8 actually slower than fp16 on an A10?", None),
    ("fp8 vs bf16 throughput on H100 for llama 70b", None),
    ("精度 fp16 / int8 都可以切换", None),
    ("分别按bf16和int4算一下显存", None),
    # a cache precision beside the weights'
    ("weights in bf16, kv cache in fp8, how much memory for 32k context?", "bf16"),
    # one quantisation named generally and exactly
    ("a 4-bit gguf, q4_k_m, of qwen2.5 14b", "q4_k_m"),
    # a lack never invents a precision: one named on a card without it stays
    ("can I run bf16 on a V100 at all?", "bf16"),
    ("serve llama-3-8b in fp16 on an L4", "fp16"),
]


@pytest.mark.parametrize("text,precision", PRECISIONS, ids=[c[0][:40] for c in PRECISIONS])
def test_precision_of_several(reader, text, precision):
    assert stated(reader, text).get("precision") == precision


# ------------------------------------------------------------------ distilled models

DISTILLED = [
    ("FooLab-R1-Distill-Qwen-14B on a single L40S", "FooLab-R1-Distill-Qwen-14B", 14e9),
    ("serve r1-distill-llama-8b on a T4", "r1-distill-llama-8b", 8e9),
    ("部署 DeepSeek-R1-Distill-Qwen-7B 要多少显存", "DeepSeek-R1-Distill-Qwen-7B", 7e9),
]


@pytest.mark.parametrize("text,name,params", DISTILLED, ids=[c[0][:40] for c in DISTILLED])
def test_distilled_model_is_its_own_name(reader, text, name, params):
    s = stated(reader, text)
    assert s.get("model_name") == name and s.get("params") == params and "model" not in s


def test_distilling_a_catalog_model_is_still_that_model(reader):
    assert stated(reader, "we want to distill qwen2.5-7b into something tiny").get("model") == "qwen2.5-7b"


# ------------------------------------------------------------------ a bare k-number after a context length

@pytest.fixture(scope="module")
def understanding():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    from assistant.understand import Understanding

    return Understanding(load_catalog(Settings.load()))


FOLLOW_UPS = [
    ("vram for qwen2.5-14b inference at 32k context?", "what about 4k?", 4096),
    ("qwen2.5-7b 跑 16k 上下文要多少显存", "那改成 64k 呢", 65536),
    ("vram for qwen2.5-14b inference at 32k context?", "and for 8k users?", 32768),  # a load, not a length
    ("qwen2.5-7b lora, budget 20k a month", "and 8k?", None),  # no length in force: the figure is not one
]


@pytest.mark.parametrize("first,follow_up,seq", FOLLOW_UPS, ids=[c[1][:30] for c in FOLLOW_UPS])
def test_bare_k_number_changes_the_length_in_force(understanding, first, follow_up, seq):
    from assistant.understand import ConversationState

    state = understanding.turn(first, ConversationState()).state
    state = understanding.turn(follow_up, state).state
    assert state.get("seq_len") == seq


# ------------------------------------------------------------------ epochs and typo-reach

@pytest.mark.parametrize("text,epochs", [
    ("把 qwen2.5-3b 从头训一遍要多久", None),  # doing it once, not an epoch count
    ("数据跑两遍就够了", 2.0),
    ("2个epoch大概多久", 2.0),  # no ASCII edge between "epoch" and a Chinese character
    ("一个epoch要跑多久", 1.0),
    ("4 epochs on 8 GPUs", 4.0),
])
def test_epochs(text, epochs):
    assert P.epochs(normalise(text)) == epochs


@pytest.mark.parametrize("text", [
    "what's the real difference between ZeRO-2 and ZeRO-3?",
    "any reference numbers for 4090 throughput?",
    "need this before the conference, what GPU?",
])
def test_real_words_near_a_keyword_are_no_typos(reader, text):
    assert "mode" not in stated(reader, text)


# ------------------------------------------------------------------ a GPU variant the catalog lacks

VARIANTS = [
    # (text, gpus, available_gib, gpu_count)
    ("my 4080 Super 16gb OOMs on sdxl", None, 16.0, None),  # a Super the catalog does not have
    ("on an RTX 4090 laptop with 16GB, can I run a 14b?", None, 16.0, None),
    ("three modded 48GB 4090s for qwen 72b awq?", None, 48.0, 3),
    ("一张 3060 6G 跑 7b 能行吗", None, 6.0, 1),  # a memory no 3060 in the catalog has
    ("4090 24G 跑 qwen2.5-14b", ["RTX-4090"], None, None),  # the card's own memory: the catalog card
    ("2x 3090 (48gb total) for a 34b lora", ["RTX-3090"], None, 2),  # a total is no card's memory
    ("A800 40G 四张", ["A800-80GB"], None, 4),  # a datacenter card with another memory is a SKU of it
    ("3060 Ti 8GB enough for sd 1.5?", ["RTX-3060-Ti"], None, None),  # the catalog has this variant
]


@pytest.mark.parametrize("text,gpus,gib,count", VARIANTS, ids=[c[0][:40] for c in VARIANTS])
def test_gpu_variant_the_catalog_lacks(reader, text, gpus, gib, count):
    s = stated(reader, text)
    assert (s.get("gpus"), s.get("available_gib"), s.get("gpu_count")) == (gpus, gib, count)
