"""Frames and conversation handling through the shipped frame model, on unmistakable questions (not corpus copies)."""

from __future__ import annotations

import pytest

from assistant.understand import Understanding
from assistant.understand.slots import Frame
from assistant.understand.state import ConversationState


@pytest.fixture(scope="module")
def u():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return Understanding(load_catalog(Settings.load()))


CLEAR = [
    ("hello there", Frame.chitchat),
    ("谢谢你！", Frame.chitchat),
    ("what's a good recipe for dumplings?", Frame.out_of_scope),
    ("How much VRAM does Qwen2.5-32B need for bf16 inference?", Frame.memory),
    ("Qwen2.5-32B bf16 推理要多少显存？", Frame.memory),
    ("Can a single RTX 4090 run Llama-3-8B LoRA fine-tuning?", Frame.feasibility),
    ("4 张 3090 能全量微调 Qwen2.5-7B 吗？", Frame.feasibility),
    ("What should I rent to LoRA fine-tune Llama-2-13B for under $1,500 a month?", Frame.recommend),
    ("How long does pretraining a 1B model on 100B tokens take on 16 H100s?", Frame.train_time),
    ("We need to serve Qwen2.5-14B to 200 concurrent users with TTFT under 1 s. What throughput and cost per million tokens on L40S?", Frame.serving),
    ("每天 50 万次请求，部署 Llama-3-8B，用 L4 要几张卡，每百万 token 多少钱？", Frame.serving),
    ("H100 vs A100 for training a 7B model: which one?", Frame.comparison),
    ("Which GPUs in the catalog support FP8?", Frame.catalog_filter),
    ("What is gradient checkpointing and why does it save memory?", Frame.guidance),
    ("竞价实例被回收了怎么办？", Frame.guidance),
    # a GPU named for gaming, mining or video editing is not our domain (frames._other_use)
    ("best gpu for playing cyberpunk at 1440p with ray tracing, 4070 super or 7800 xt?", Frame.out_of_scope),
    ("挖矿现在还有搞头吗，4090挖啥币能回本", Frame.out_of_scope),
    # ... unless AI work is in the question too
    ("can a 4090 fine-tune a 7B model with LoRA and also play games?", Frame.feasibility),
    # a failure to explain, with the setup stated: guidance (whose answer computes the setup, handlers/talk.py)
    ("3090 24g, llama-7b lora, OOM at from_pretrained even with two 3090s. what am i doing wrong??", Frame.guidance),
]


@pytest.mark.parametrize("text,frame", CLEAR, ids=[c[0][:40] for c in CLEAR])
def test_clear_frames(u, text, frame):
    assert u.turn(text, ConversationState()).frame == frame


def test_elliptical_follow_up_keeps_frame_and_slots(u):
    s = u.turn("How much memory does Llama-2-13B need for LoRA fine-tuning?", ConversationState()).state
    tr = u.turn("and with QLoRA?", s)
    assert tr.frame == Frame.memory
    assert tr.state.get("model") == "llama-2-13b" and tr.state.get("mode").value == "qlora"


def test_new_question_about_another_model_starts_fresh(u):
    s = u.turn("Qwen2.5-7B LoRA on one A100, how long for 1B tokens?", ConversationState()).state
    tr = u.turn("How much VRAM does Mixtral-8x7B need to serve in int4?", s)
    assert tr.update.starts_fresh
    assert tr.state.get("model") == "mixtral-8x7b" and not tr.state.has("tokens")


def test_budget_survives_later_turns_with_its_currency_and_period(u):
    s = u.turn("I want to fine-tune LLaMA-13B, budget ¥20k/month", ConversationState()).state
    s = u.turn("with QLoRA", s).state
    s = u.turn("only Chinese clouds", s).state
    budget = s.get("budget")
    assert (budget.amount, budget.currency, budget.per) == (20000, "CNY", "month")


def test_forget_the_budget_retracts_it(u):
    s = u.turn("LoRA llama 13b under $2000 a month, what to rent?", ConversationState()).state
    s = u.turn("forget the budget, just the best value", s).state
    assert not s.has("budget")


# A turn that only states constraints carries the frame of the question it modifies (corpus README, tie-break 5);
# a constraint that changes the question (a time limit, a load, memory after a memory question) does not.
CARRIED = [
    ("What should I rent to LoRA fine-tune Qwen2.5-14B in China?", "数据大概3亿token，跑2个epoch", Frame.recommend),
    ("Serve Llama-3.1-8B to 50 concurrent users on L40S: throughput and cost per million tokens?",
     "actually finance says we can go up to 8k a month", Frame.serving),
    ("How much does an 8x A100 instance cost per hour on AWS?", "gimme that in RMB pls", Frame.cost),
    ("llama-3-8b 全参微调，下周五之前训完，数据20亿token，要几张H100", "手上现在有4张A100", Frame.deadline),
    # a deployment asking what to rent stays a serving question (tie-break 1)
    ("serve qwen2.5-14b to 50 concurrent users on 4090s, what throughput?", "卡不限了，你来推荐", Frame.serving),
]


@pytest.mark.parametrize("first,follow_up,frame", CARRIED, ids=[c[1][:30] for c in CARRIED])
def test_constraint_only_follow_up_keeps_the_frame(u, first, follow_up, frame):
    s = u.turn(first, ConversationState()).state
    assert s.frame == frame  # the question itself is read right, or the follow-up proves nothing
    assert u.turn(follow_up, s).frame == frame


def test_memory_named_after_a_memory_question_is_a_fit_check(u):
    s = u.turn("How much VRAM does Qwen2.5-7B need for LoRA?", ConversationState()).state
    assert u.turn("那16G的卡是不是更没戏了", s).frame == Frame.feasibility


@pytest.mark.parametrize("text,frame", [
    # one weak domain word ("train" in "train station") does not pull a question into the domain
    ("translate 'where is the train station' into japanese pls", Frame.out_of_scope),
    ("what's the weather like in seattle this weekend?", Frame.out_of_scope),
    # a new question with nothing of the domain in it, however it is phrased
    ("how do i make my excel macro run faster?", Frame.out_of_scope),
    ("how do I size a bloom filter for 10 million keys?", Frame.out_of_scope),
    # concepts of the domain stay in it (review: these were turned away once)
    ("what is flash attention?", Frame.guidance),
    ("HBM3e是什么", Frame.guidance),
    ("PCIe和SXM区别", Frame.guidance),
    ("how does 昇腾 work", Frame.guidance),
    # "any idea what X is" asks for X; it reports no failure
    ("any idea what the vram requirement is for a 7B with 4bit lora?", Frame.memory),
    ("Vue 的 computed 和 watch 怎么选", Frame.out_of_scope),
    # "normal??" asks whether a measured behaviour is expected: help, not a fit check
    ("RTX 5090, SDXL lora, 1024x1024, bf16, batch 4: 39 s per iteration and vram at 31.2/31.5 GB. normal??", Frame.guidance),
])
def test_domain_evidence_and_troubleshooting(u, text, frame):
    assert u.turn(text, ConversationState()).frame == frame


def test_a_bare_size_after_a_catalog_model_names_its_sibling(u):
    s = u.turn("VRAM for Qwen2.5-7B inference in bf16?", ConversationState()).state
    tr = u.turn("how about 32B?", s)
    assert tr.state.get("model") == "qwen2.5-32b" and not tr.state.has("params")
    assert tr.state.get("mode").value == "inference"  # the rest is kept
    # no sibling of that size in the family: the size stays a size
    tr = u.turn("and 70B?", s)
    assert tr.state.get("params") == 70e9 and not tr.state.has("model")


def test_learning_rate_is_not_a_price(u):
    tr = u.turn("what learning rate for Qwen2.5-7B LoRA on a 4090?", ConversationState())
    assert tr.frame != Frame.cost


@pytest.fixture(scope="module")
def unsure(u):
    """The frame decider with a real model that leans to guidance and is sure of nothing (p < LOW_CONFIDENCE for
    every turn): what the fallbacks for a stated workload decide."""
    import numpy as np

    from assistant.understand.features import FEATURE_NAMES, FRAMES, INDEX
    from assistant.understand.frames import LOW_CONFIDENCE, FrameDecider
    from assistant.understand.model import FrameModel

    w = np.zeros((len(FEATURE_NAMES), len(FRAMES)), dtype=np.float32)
    w[INDEX["bias"], FRAMES.index(Frame.guidance)] = 1.0
    model = FrameModel(w)
    assert model.predict(np.eye(1, len(FEATURE_NAMES), INDEX["bias"])[0])[1] < LOW_CONFIDENCE
    return FrameDecider(bank=None, fast=model, full=None)


@pytest.mark.parametrize("text,frame", [
    # a serving engine named with the workload: its memory question is about the KV pool
    ("A10上用vllm跑qwen2.5-7b，max_model_len 8192，KV cache还剩多少显存", Frame.serving),
    ("llama-3.1-8b on an L4 under vllm: how much memory is left for kv cache?", Frame.serving),
    # no engine, or training: the memory estimate
    ("qwen2.5-7b 在 A10 上显存够吗", Frame.feasibility),
    ("how much memory does a LoRA of llama-3.1-8b need, kv cache included?", Frame.memory),
    # a deployment's own figure asked for, nothing to explain: computed; a why about it stays guidance
    ("qwen2.5-7b on an L40S in vllm - how big is the kv cache pool, in tokens?", Frame.serving),
    ("why is the latency so bad for qwen2.5-7b on an L40S in vllm?", Frame.guidance),
])
def test_an_unsure_model_still_computes_the_stated_workload(u, unsure, text, frame):
    assert unsure.decide(u.reader.read(text), ConversationState()).frame == frame


@pytest.mark.parametrize("text,frame", [
    ("what can you do, exactly?", Frame.chitchat),  # about the assistant: chitchat, not out of scope
    ("how do i speed up my python script?", Frame.out_of_scope),
])
def test_a_new_question_with_nothing_of_the_domain(u, unsure, text, frame):
    assert unsure.decide(u.reader.read(text), ConversationState()).frame == frame


def test_a_training_question_after_a_serving_one_is_not_serving(u):
    """Newcomer check, session 6: the web chat answered "can I lora qwen2.5-7b on my 4090 with 50M tokens?" with a
    serving estimate because the previous turn served the same model to 50 users."""
    state = u.turn("部署qwen2.5-7b给50个人用，4k上下文，L40S要几张，每百万token多少钱", ConversationState()).state
    second = u.turn("can I lora qwen2.5-7b on my 4090 with 50M tokens of data?", state)
    assert second.decision.frame == Frame.feasibility
    assert getattr(second.state.get("mode"), "value", second.state.get("mode")) == "lora"


@pytest.mark.parametrize("text, frame", [
    # a training time limit asks how many GPUs meet it, also when it asks what to rent (tie-break 3 before 4)
    ("overnight job: mistral 7b qlora, 50M tokens, single epoch. what do i rent so it's done by morning?", Frame.deadline),
    ("论文 ddl 下周五，qwen2.5-7b lora 3000来条数据，自己租卡赶得上吗", Frame.deadline),
    ("demo is tomorrow morning and I need a qwen2.5-14b lora trained overnight, what do I rent?", Frame.deadline),
    # withdrawing the time limit asks for the cheapest pick
    ("llama-3.1-8b做sft，10亿token，不赶时间，用什么卡最划算", Frame.recommend),
    ("deadline 取消了，qwen2.5-7b 全参就按最省钱的方案来", Frame.recommend),
])
def test_a_training_time_limit_is_a_deadline_question(u, text, frame):
    assert u.turn(text, ConversationState()).decision.frame == frame
