"""What a turn asks: high-precision cue rules first, then similarity to labelled examples.

`FrameDecider.decide(reading, state)` returns the frame with a confidence and
how it was decided. The rules are the corpus README's tie-breaks written as an
ordered table (`RULES`): each rule is a condition over the cue families found in
the turn (`lexicon.yaml` frame_cues) and its slots. When no rule fires, the
k-NN vote over the labelled example bank (multilingual E5, `bank.py`) decides;
when that is unsure too and the turn states a workload, the turn still gets a
calculation (memory, or a fit check when hardware is named). A follow-up that
only changes constraints keeps the previous frame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from assistant.understand.reader import Reading
from assistant.understand.slots import Frame
from assistant.understand.state import ConversationState

LOAD_SLOTS = ("concurrency", "users", "requests_per_day", "request_rate", "ttft_ms", "tokens_per_s_per_user", "output_len")
CONSTRAINT_SLOTS = ("budget", "region", "billing", "providers", "precision", "seq_len", "batch_size", "gpu_count", "gpus",
                    "available_gib", "epochs", "tokens", "deadline", "hours", "hours_per_day", "lora_rank", "mode", "model",
                    "params", "model_name", "instance", "concurrency", "users", "requests_per_day", "request_rate",
                    "input_len", "output_len", "ttft_ms", "tokens_per_s_per_user")
TRAINING_MODE_VALUES = frozenset({"full", "lora", "qlora", "pretrain", "finetune"})
KNN_CONFIDENT = 0.55  # share of the neighbours' similarity mass behind the winning frame


@dataclass(frozen=True)
class FrameDecision:
    frame: Frame
    confidence: float
    how: str  # "rule:<name>", "knn", "follow-up", "workload", "default"


@dataclass(frozen=True)
class Facts:
    """What the rules look at, computed once per turn."""

    cues: frozenset[str]
    stated: frozenset[str]  # slots stated in this turn
    gpus: int  # GPU models named in this turn
    hardware: bool  # a GPU or an amount of memory is named in this turn
    inference: bool
    training: bool
    workload: bool  # a model or a parameter count is in force
    in_domain: bool
    load: bool
    short: bool
    concept_only: bool  # this turn names no model, size, GPU, memory or quantity: at most concepts (mode, billing …)

    def has(self, *cues: str) -> bool:
        return any(c in self.cues for c in cues)


def _facts(r: Reading, state: ConversationState) -> Facts:
    u = r.update
    stated = frozenset(u.stated())
    mode = u.mode.value if u.mode else state.get("mode")
    mode = getattr(mode, "value", mode)
    workload = bool(u.model or u.params or u.model_name or state.has("model") or state.has("params") or state.has("model_name"))
    return Facts(
        cues=r.cues,
        stated=stated,
        gpus=len(u.gpus or []),
        hardware=bool(u.gpus or u.available_gib or u.instance),
        inference=mode == "inference",
        training=r.training or mode in TRAINING_MODE_VALUES,
        workload=workload,
        in_domain=r.in_domain,
        load=any(s in stated for s in LOAD_SLOTS),
        short=len(r.split.own) < (40 if r.language == "en" else 16),
        concept_only=not (stated - CONCEPT_SLOTS),
    )


def _other_use(f: Facts) -> bool:
    """A GPU asked about for something that is not AI work (gaming, mining, video editing: the off-topic cues),
    with no training, inference, model or memory/serving cue: naming a GPU does not make it our domain."""
    return f.has("offtopic") and not (f.training or f.inference or f.workload or f.has("memory", "serving"))


# Cue families that ask something of their own: a turn with one of these is not a bare constraint change
ASKING_CUES = frozenset({"feasibility", "memory", "recommend", "time", "deadline", "cost", "serving", "spec", "compare", "filter",
                         "guidance", "troubleshoot", "normal", "method", "chitchat", "offtopic"})
WORKLOAD_SLOTS = frozenset({"model", "params", "model_name"})


def _constraint_follow_up(r: Reading, state: ConversationState, f: Facts) -> bool:
    """Tie-break 5: a turn inside a conversation that only states constraints ("数据大概3亿token，跑2个epoch",
    "actually finance says we can go up to 8k a month", "手上现在有4张A100") and asks nothing of its own carries
    the frame of the question it modifies. A new workload, pasted material or a new topic is not such a turn."""
    if state.frame is None or state.frame in (Frame.chitchat, Frame.out_of_scope) or r.topic_switch or r.split.pasted:
        return False
    stated = f.stated - {"retract"}
    if r.display_currency and not stated - {"region", "billing"} and not (f.cues | r.question_cues) & (ASKING_CUES - {"cost"}):
        return True  # "gimme that in RMB", "后面报价都用美金写吧": the same answer in another currency
    if not (stated or "retract" in f.stated) or stated & WORKLOAD_SLOTS:
        return False
    # a deployment asking what to rent is still serving (tie-break 1): "卡不限了，你来推荐" after a serving question
    asking = ASKING_CUES - ({"recommend"} if state.frame == Frame.serving else set())
    if f.cues & asking or r.question_cues & asking:
        return False
    # a constraint that itself changes the question: a time limit (deadline), a serving load, memory now named
    # after a memory question (a fit check), a property list (a catalog filter)
    if "deadline" in stated and state.frame != Frame.deadline:
        return False
    if stated & set(LOAD_SLOTS) and state.frame != Frame.serving:
        return False
    if state.frame == Frame.memory and f.hardware:
        return False
    return not (stated & {"features", "min_memory_gb"} and state.frame != Frame.catalog_filter)


# Slots a concept question names without stating a workload ("when should I use spot?", "LoRA vs QLoRA?")
CONCEPT_SLOTS = frozenset({"mode", "billing", "precision", "features", "pasted"})


# The README's tie-breaks as an ordered table: (name, frame, condition). First match wins.
Rule = tuple[str, Frame, Callable[[Facts], bool]]
RULES: list[Rule] = [
    ("chitchat", Frame.chitchat, lambda f: f.has("chitchat") and not f.has("recommend", "memory", "feasibility", "serving", "cost", "guidance") and len(f.stated - {"pasted"}) == 0),
    ("off-topic", Frame.out_of_scope, lambda f: f.has("offtopic") and not f.training and not f.inference and not f.workload and not f.has("memory", "serving")),
    ("serving-load", Frame.serving, lambda f: (f.inference or f.has("serving")) and (f.load or f.has("serving")) and not (f.has("memory") and not f.load and not f.has("serving")) and not (f.has("feasibility") and f.hardware and not f.load)),
    ("filter", Frame.catalog_filter, lambda f: f.has("filter") and ("features" in f.stated or "min_memory_gb" in f.stated or f.gpus == 0) and not f.workload),
    ("compare", Frame.comparison, lambda f: f.gpus >= 2 and f.has("compare") and not f.has("feasibility")),
    ("feasibility", Frame.feasibility, lambda f: f.has("feasibility") and (f.workload or f.hardware or f.training or f.inference)),
    ("deadline", Frame.deadline, lambda f: ("deadline" in f.stated or f.has("deadline")) and (f.training or "tokens" in f.stated)),
    ("time", Frame.train_time, lambda f: f.has("time") and not f.inference),
    ("cost", Frame.cost, lambda f: f.has("cost") and not f.has("recommend") and ("budget" not in f.stated)),
    ("spec", Frame.spec, lambda f: f.has("spec") and not f.workload and not f.has("recommend", "memory")),
    ("memory", Frame.memory, lambda f: f.has("memory") and (f.workload or f.training or f.inference) and not f.has("recommend")),
    ("howmany-serve", Frame.serving, lambda f: f.inference and f.has("howmany", "recommend")),
    ("recommend", Frame.recommend, lambda f: f.has("recommend") or "budget" in f.stated or f.has("cheapest")),
    ("guidance", Frame.guidance, lambda f: f.has("guidance")),
]


# A figure measured on the user's own run, asked about ("takes 2 hours per epoch, is that normal?", "8张卡才6.4 tokens/s，
# 这正常吗"): the corpus README labels a measured deployment figure `serving` even when the turn asks why, and a measured
# training duration asked about is a training-time question (the answer is the estimate to compare it with)
_MEASURED_TIME = re.compile(
    r"\d[\d.]*\s*个?\s*(?:hours?|hrs?|h\b|days?|minutes?|mins?|s\s*/\s*(?:step|it)|seconds? (?:per|a) (?:step|iteration|epoch)|小时|天|分钟|秒\s*/\s*(?:step|步|it))",
    re.I)  # a duration needs its unit: "took 3 restarts", "says 4 GPUs are needed" are no measured time
_MEASURED_SPEED = re.compile(
    r"\d[\d.]*\s*(?:k\s*)?(?:tok(?:en)?s?\s*/\s*s(?:ec)?\b|t/s\b|tokens?\s+(?:per|a)\s+sec|tps\b|tokens?\s*/\s*秒|个?token每秒)"
    r"|(?:一条|每条|each request|every request|per request|一个请求|每个请求|每个要|一次回答)[^，。,.?？]{0,8}\d[\d.]*\s*(?:s\b|秒|分钟|minutes?|seconds?)", re.I)
_FAILED = re.compile(r"\boom|out of memory|爆显存|显存不足|显存不够|报错|error", re.I)
_ASKS_IF_NORMAL = re.compile(
    r"\bnormal\b|\bexpected\b|is (?:that|this|it) (?:really )?right|\bplausible\b|\brealistic\b|\breasonable\b|is something off"
    r"|正常|符合预期|合理吗|对吗|对不对|靠谱吗|是不是哪里不对|哪里不对", re.I)  # whether a figure is what it should be


def _measured_question(r: Reading, f: Facts) -> Frame | None:
    """A measured figure of the user's own run: a deployment's speed however asked, a training time asked whether
    it is normal — the frame of that figure."""
    own = r.split.own
    if f.gpus >= 2 or f.has("memory") or _FAILED.search(own):
        return None  # two GPUs measured side by side, or memory / a failure asked about: not this figure
    if (f.inference or "engine" in f.stated or f.has("serving")) and not f.training and _MEASURED_SPEED.search(own):
        # a deployment's measured speed is a serving question however it is asked ("crawls at ~6 tok/s, what gives?",
        # "响应要十几秒，这是为啥"): the answer is the estimate to compare it with (README, session 7)
        return Frame.serving
    if not _ASKS_IF_NORMAL.search(own):
        return None
    if f.training and not f.inference and f.workload and _MEASURED_TIME.search(own) and not _MEASURED_SPEED.search(own):
        return Frame.train_time
    return None


# question families that make a property word part of another question: how to, which method, side by side, which
# GPUs have it, what to rent, a price (a failure around it does not: "报错了，A100 是不是不支持 fp8" asks the property)
NOT_A_PROPERTY_QUESTION = frozenset({"howto", "method", "compare", "filter", "recommend", "cost"})
FAST_CONFIDENT = 0.85  # the model without the k-NN feature decides alone above this probability
LOW_CONFIDENCE = 0.40  # below this, a stated workload still gets a calculation
UNSURE = 0.60  # below this, a how/why question with nothing to compute is guidance


class FrameDecider:
    """Follow-ups keep their frame; otherwise the frame model (cues + slots, then + the k-NN vote when unsure).

    Without a trained model (a fresh checkout that has not run scripts/build_frame_bank.py) the
    ordered rules decide, with the k-NN vote when none fires.
    """

    def __init__(self, bank=None, fast=None, full=None):
        self.bank = bank  # assistant.understand.bank.ExampleBank or None
        self.fast = fast  # FrameModel without k-NN features
        self.full = full  # FrameModel with them

    def decide(self, r: Reading, state: ConversationState, *, exclude: str | None = None) -> FrameDecision:
        f = _facts(r, state)
        if r.split.only_overrides:
            return FrameDecision(Frame.chitchat, 1.0, "only a request to drop the rules")
        if state.frame is not None and r.elliptical and not f.has("chitchat", "offtopic", "guidance", "compare", "filter", "spec", "time", "cost", "deadline", "feasibility", "serving", "memory", "troubleshoot"):
            return FrameDecision(state.frame, 0.9, "follow-up")
        if _constraint_follow_up(r, state, f):
            return FrameDecision(state.frame, 0.85, "follow-up: only constraints, no question of its own")
        if self.fast is not None:
            from assistant.understand.features import featurize

            frame, p = self.fast.predict(featurize(r, state, None))
            how = "model"
            if p < FAST_CONFIDENT and self.full is not None and self.bank is not None and r.text.strip():
                knn = self.bank.distribution(r.text, exclude=exclude)
                frame, p = self.full.predict(featurize(r, state, knn))
                how = "model+knn"
            if (frame not in (Frame.out_of_scope, Frame.chitchat) and r.domain_evidence == 0 and not f.stated - {"pasted"}
                    and (state.frame in (None, Frame.out_of_scope, Frame.chitchat) or r.topic_switch)):
                # a new question with no GPU, model, cloud or AI word in it ("how do i speed up my python script?");
                # one addressed to the assistant about itself ("what can you do?") is chitchat
                if f.has("chitchat"):
                    return FrameDecision(Frame.chitchat, p, "about the assistant, nothing of the domain")
                return FrameDecision(Frame.out_of_scope, p, "nothing of the domain in a new question")
            if (p < LOW_CONFIDENCE and frame in (Frame.guidance, Frame.out_of_scope, Frame.chitchat) and (f.workload and f.has("memory", "feasibility"))
                    and not (frame == Frame.guidance and f.has("normal"))):
                # ("vram at 31.2/31.5 GB. normal??" asks whether a measured figure is expected: the guidance answer
                # computes the stated setup beside it, handlers/talk.py)
                if f.has("serving") and (f.inference or "engine" in f.stated) and not f.training:
                    # "3090上vllm跑llama3.1-8b … kv cache还剩多少G": a serving engine's memory is its KV pool
                    return FrameDecision(Frame.serving, p, "workload on a serving engine")
                return FrameDecision(Frame.feasibility if f.hardware else Frame.memory, p, "workload")
            if (p < UNSURE and not f.workload and not f.hardware and f.in_domain and f.has("guidance", "howto", "troubleshoot")
                    and frame not in (Frame.guidance, Frame.spec, Frame.catalog_filter, Frame.comparison)):
                return FrameDecision(Frame.guidance, p, "unsure: a question about how or why, nothing to compute")
            if (p < UNSURE and f.concept_only and f.in_domain and r.question_cues & {"guidance", "howto"}
                    and frame not in (Frame.guidance, Frame.spec, Frame.catalog_filter, Frame.comparison)):
                # "what's the difference between LoRA and QLoRA?" after a workload: a concept, not the workload again
                return FrameDecision(Frame.guidance, p, "unsure: a concept question naming no workload or hardware")
            if (p < UNSURE and frame == Frame.guidance and f.workload and f.hardware and "serving" in r.question_cues
                    and not r.question_cues & {"guidance", "troubleshoot", "howto"}):
                # "llama-3-8b on an h100 in vllm - how big is the kv cache pool?": a deployment's own figure, asked for
                # with nothing to explain — compute it
                return FrameDecision(Frame.serving, p, "unsure: a stated deployment's figure, nothing to explain")
            if (frame != Frame.spec and f.gpus == 1 and not f.workload and r.update.mode is None
                    and ("features" in f.stated or "spec" in r.question_cues) and not r.question_cues & NOT_A_PROPERTY_QUESTION):
                # one GPU and a property of it (FP8, NVLink, bandwidth, 显存多大, 支不支持), no workload to fit: a spec
                # ("do those cards support nvlink bridging?", "V100 是不是不支持 bf16"), whatever the failure around it
                return FrameDecision(Frame.spec, p, "one GPU's property, no workload")
            if frame == Frame.guidance and (measured := _measured_question(r, f)) is not None:
                return FrameDecision(measured, p, "a measured figure of the user's run (a deployment's speed, a training time asked if normal)")
            if frame == Frame.serving and r.update.mode is not None and r.update.mode.value in TRAINING_MODE_VALUES:
                # "can I lora qwen2.5-7b on my 4090 with 50M tokens?" right after a serving question: serving is
                # inference, and this turn states a training mode — the earlier frame does not carry over
                # ("I have one 4090. What should I rent to lora Qwen2.5-32B?" there asks what to rent)
                training = (Frame.train_time if f.has("time") else Frame.recommend if f.has("recommend")
                            else Frame.feasibility if f.hardware else Frame.memory)
                return FrameDecision(training, p, "a training mode stated: not serving")
            if frame in (Frame.feasibility, Frame.memory) and "troubleshoot" in r.question_cues and not f.has("howmany"):
                # "OOM on my 3090 with llama-7b LoRA — what am I doing wrong?": help with a failure; the guidance
                # answer still computes the stated setup (handlers/talk.py)
                return FrameDecision(Frame.guidance, p, "a failure to explain: guidance with the setup's numbers")
            if frame == Frame.out_of_scope and r.domain_evidence >= 2 and not _other_use(f):
                return FrameDecision(Frame.guidance, p, "in the domain: never out of scope")
            if frame == Frame.comparison and f.gpus < 2 and len(state.get("gpus") or []) < 2:
                if f.gpus and f.has("cost") and not f.workload:
                    return FrameDecision(Frame.cost, p, "one GPU and a price question: its offers")
                return FrameDecision(Frame.spec if f.gpus else Frame.guidance, p, "one GPU is no comparison")
            if frame == Frame.spec and not (f.gpus or f.workload or r.update.instance or r.update.providers or r.unknown_gpu):
                # "HBM3e是什么": nothing named to look up — a concept
                return FrameDecision(Frame.guidance, p, "a spec question naming nothing to look up")
            if frame == Frame.spec and f.gpus >= 2:
                return FrameDecision(Frame.comparison, p, "the specs of two GPUs side by side")
            if (frame == Frame.recommend and not f.inference and (f.training or "tokens" in f.stated)
                    and ("deadline" in f.stated or f.has("deadline")) and "deadline" not in r.update.retract):
                # "what do I rent so it's done by morning", "论文 ddl 下周五…自己租卡赶得上吗": a training time limit is
                # the deadline question, also when it asks what to rent (README tie-break 3 before 4); a turn that
                # withdraws the deadline ("不赶时间", "drop the deadline, cheapest way?") asks the cheapest pick
                return FrameDecision(Frame.deadline, p, "a training time limit: how many GPUs to meet it")
            if frame == Frame.recommend and not f.workload and f.gpus and "budget" not in f.stated:
                # "can I rent H100s in China?", "who offers H100?": nothing to size, so the GPU's offers or its card
                return FrameDecision(Frame.cost if f.has("cost") else Frame.spec, p, "a GPU named, no workload to size")
            if (frame in (Frame.memory, Frame.feasibility) and not f.workload and not f.hardware
                    and r.question_cues & {"guidance", "troubleshoot"}):
                return FrameDecision(Frame.guidance, p, "what memory depends on, no workload to size")
            if frame == Frame.memory and not f.workload and not f.training and not f.inference and f.gpus:
                return FrameDecision(Frame.spec, p, "memory of a GPU, no workload: a spec")
            return FrameDecision(frame, p, how)
        return self._rules(r, state, f, exclude)

    def _rules(self, r: Reading, state: ConversationState, f: Facts, exclude: str | None) -> FrameDecision:
        for name, frame, condition in RULES:
            if condition(f):
                return FrameDecision(frame, 0.95, f"rule:{name}")
        if self.bank is not None and r.text.strip():
            vote = self.bank.vote(r.text, exclude=exclude)
            if vote is not None and (vote.confidence >= KNN_CONFIDENT or not f.workload):
                return FrameDecision(vote.frame, vote.confidence, "knn")
        if f.workload or f.training or f.inference:
            if f.inference and f.load:
                return FrameDecision(Frame.serving, 0.5, "workload")
            return FrameDecision(Frame.feasibility if f.hardware else Frame.memory, 0.5, "workload")
        if state.frame is not None and f.stated - {"pasted", "pasted_instruction"}:
            return FrameDecision(state.frame, 0.5, "follow-up")
        return FrameDecision(Frame.guidance if f.in_domain else Frame.out_of_scope, 0.3, "default")
