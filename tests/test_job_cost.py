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
