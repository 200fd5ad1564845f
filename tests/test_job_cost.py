"""What a training job costs on a named GPU and provider: a cost question that states a training run (epochs or a
dataset) times the job and prices its hours, not a month of the machine; when the provider has no priced offer of
that GPU the answer says the offer is missing (the workload fits), and the alternatives are priced as the same job.
The real Advisor, catalog and tools."""

from __future__ import annotations

import re

import pytest

from assistant.advisor import Advisor
from knowledge.catalog import load_catalog
from knowledge.settings import Settings
from tools.recommend import recommend
from tools.schemas import RecommendRequest, VramRequest


@pytest.fixture(scope="module")
def advisor():
    return Advisor()


@pytest.mark.parametrize("question", [
    "在autodl上租4090做qwen2.5-7b的lora微调，3个epoch，大概多少钱",
    "how much to lora finetune llama 3 8b on an A100 for 2 epochs on runpod?",
])
def test_a_cost_question_with_epochs_times_and_prices_the_job(advisor, question):
    a = advisor.ask(question)
    names = [c.name for c in a.tool_calls]
    assert "estimate_train_time" in names
    rec = next(c for c in a.tool_calls if c.name == "recommend_config")
    assert rec.args.get("tokens"), "the pick is priced as the timed job"
    assert not re.search(r"730(\.0)? (hours|小时)", a.answer), "not a month of the machine"


def test_a_provider_without_the_gpu_says_the_offer_is_missing(advisor):
    a = advisor.ask("在autodl上租4090做qwen2.5-7b的lora微调，3个epoch，大概多少钱")
    assert "缺的是报价" in a.answer and "AutoDL" in a.answer
    assert "目录里没有能放下这个任务的配置" not in a.answer  # the workload fits: that is not the problem
    assert "整个任务" in a.answer.split("可行的替代方案")[1]  # alternatives priced as the same job


def test_suggestions_price_a_sized_training_job_as_a_job():
    settings = Settings.load()
    cat = load_catalog(settings)
    req = RecommendRequest(vram=VramRequest(mode="lora"), gpu="RTX-4090", providers=["autodl"], tokens=1e8)
    rec = recommend(cat, cat.model("qwen2.5-7b"), req, settings.exchange_rate)
    assert not rec.options and rec.suggestions
    bests = [s.outcome.params["best"] for s in rec.suggestions if s.outcome.params.get("best")]
    assert bests and all(b.params["period"] == "job" for b in bests)


@pytest.mark.parametrize("text, expected", [
    ("finetune qwen2.5-7b with lora on 100k samples of 1k tokens, 3 epochs", (1e5, 1000)),
    ("~20k examples avg 800 tokens", (2e4, 800)),
    ("10万条数据，每条约500 token", (1e5, 500)),
    ("5000条对话，平均长度1k token", (5000, 1000)),
    ("1.5w条sft数据 平均 2k tokens", (15000, 2000)),
    ("20k rows, each about 300 tokens", (2e4, 300)),
    ("I have 50k instruction pairs", (5e4, None)),  # no length: no token count
    ("batch of 256 samples", (None, None)),  # a batch, not a dataset
    ("512 samples per step", (None, None)),
    ("global batch size 1024 samples", (None, None)),
    ("8 samples, 4k tokens each", (None, None)),  # too few to be a dataset
])
def test_a_dataset_stated_as_examples_and_their_length(text, expected):
    from assistant.understand.patterns import dataset_examples

    assert dataset_examples(text) == expected


def test_examples_times_length_is_the_data_every_calculator_takes(advisor):
    a = Advisor().ask("LoRA fine-tune Llama-3.1-8B on 20k examples avg 800 tokens, how long on one H100?")
    time = next(c for c in a.tool_calls if c.name == "estimate_train_time")
    assert time.args["tokens"] == pytest.approx(16e6)
    assert "20,000 examples × 800 tokens" in a.answer
    zh = Advisor().ask("用一张A100做qwen2.5-7b的lora，10万条数据每条约500 token，要训多久")
    assert next(c for c in zh.tool_calls if c.name == "estimate_train_time").args["tokens"] == pytest.approx(5e7)
    assert "100,000 条 × 每条 500 token" in zh.answer


def test_a_tiny_job_is_not_sent_to_the_biggest_cluster():
    """Every job pays one start-up (rec.job_start): a 16M-token LoRA goes to one GPU, not eight B200s for a minute."""
    settings = Settings.load()
    cat = load_catalog(settings)
    rec = recommend(cat, cat.model("llama-3.1-8b"), RecommendRequest(vram=VramRequest(mode="lora"), tokens=16e6),
                    settings.exchange_rate)
    assert rec.options[0].total_gpus == 1
    assert any(n.code == "rec.job_start" for n in rec.assumptions)
