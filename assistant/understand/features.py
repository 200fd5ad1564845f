"""The features the frame model reads: cue families, stated slots, the conversation so far, the k-NN vote.

A fixed, named list (`FEATURE_NAMES`) so that the trained weights in
`data/frame_model.json` line up with it; a test fails when they do not.
"""

from __future__ import annotations

import numpy as np

from assistant.understand.reader import Reading
from assistant.understand.slots import Frame
from assistant.understand.state import ConversationState

FRAMES = [f for f in Frame]
CUES = ["feasibility", "memory", "recommend", "time", "deadline", "cost", "serving", "spec", "compare", "filter",
        "guidance", "chitchat", "howmany", "cheapest", "offtopic", "pasted_only", "troubleshoot", "howto", "normal", "method"]
SLOTS = ["model", "model_name", "params", "mode", "precision", "gpus", "gpu_count", "available_gib", "features",
         "min_memory_gb", "budget", "billing", "hours", "hours_per_day", "deadline", "region", "providers", "instance",
         "concurrency", "users", "requests_per_day", "request_rate", "input_len", "output_len", "ttft_ms",
         "tokens_per_s_per_user", "tokens", "epochs", "seq_len", "batch_size", "lora_rank", "retract"]
MODES = ["inference", "full", "lora", "qlora", "pretrain", "finetune"]
EXTRA = ["topic_switch", "oom", "two_gpus", "elliptical", "short", "question_mark", "in_domain", "training_words", "workload_in_state",
         "hardware_in_state", "turn_gt_0", "zh", "task_words", "long_text", "unknown_gpu", "unknown_model", "pasted",
         "inference_and_load", "hardware_and_workload", "domain_weak", "domain_strong", "setup_known", "calc_question",
         "setup_calc_no_why", "bias"]
HASH_BUCKETS = 4096  # character 1-3-grams of the turn's own words, hashed (language-agnostic bag of words)
FEATURE_NAMES = (
    [f"cue:{c}" for c in CUES]
    + [f"qcue:{c}" for c in CUES]
    + [f"slot:{s}" for s in SLOTS]
    + [f"mode:{m}" for m in MODES]
    + [f"prev:{f.value}" for f in FRAMES]
    + [f"prev_ell:{f.value}" for f in FRAMES]
    + [f"knn:{f.value}" for f in FRAMES]
    + EXTRA
    + [f"h{i}" for i in range(HASH_BUCKETS)]
)
INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}
import re as _re

_OOM = _re.compile(r"\boom\b|out of memory|cuda out of mem|爆显存|显存不足|显存不够|OutOfMemory", _re.I)
LOAD = ("concurrency", "users", "requests_per_day", "request_rate", "ttft_ms", "tokens_per_s_per_user")
# Cue families of a question a calculator answers (a fit, memory, a time, a price, a deployment's figures, a property,
# a count); and those of one it cannot (why it fails, how to do it, which method to use)
CALC_CUES = frozenset({"feasibility", "memory", "time", "deadline", "cost", "serving", "spec", "howmany", "normal"})
# those that ask for the figure itself: "显存" or "is this normal" alone also come with reports of a failure
ASKING_CALC_CUES = frozenset({"feasibility", "time", "deadline", "cost", "serving", "spec", "howmany"})
ADVICE_CUES = frozenset({"troubleshoot", "howto", "method"})


def setup_known(r: Reading, state: ConversationState) -> bool:
    """A workload (a model or a size) and hardware (a GPU, memory or an instance), in this turn or in force."""
    u = r.update
    workload = bool(u.model or u.params or u.model_name) or state.has("model") or state.has("params") or state.has("model_name")
    hardware = bool(u.gpus or u.available_gib or u.instance) or state.has("gpus") or state.has("available_gib") or state.has("instance")
    return workload and hardware


def asks_calculator(r: Reading) -> bool:
    """The asking sentence asks what a calculator answers, and nothing only advice can answer."""
    return bool(r.question_cues & ASKING_CALC_CUES) and not r.question_cues & ADVICE_CUES


def featurize(r: Reading, state: ConversationState, knn: dict[Frame, float] | None) -> np.ndarray:
    x = np.zeros(len(FEATURE_NAMES), dtype=np.float32)

    def on(name: str, value: float = 1.0) -> None:
        x[INDEX[name]] = value

    for c in r.cues:
        if f"cue:{c}" in INDEX:
            on(f"cue:{c}")
    for c in r.question_cues:
        if f"qcue:{c}" in INDEX:
            on(f"qcue:{c}")
    stated = r.update.stated()
    for s in SLOTS:
        if s in stated:
            on(f"slot:{s}")
    mode = r.update.mode.value if r.update.mode else None
    if mode:
        on(f"mode:{mode}")
    if state.frame is not None:
        on(f"prev:{state.frame.value}")
        if r.elliptical:
            on(f"prev_ell:{state.frame.value}")
    if knn:
        for frame, w in knn.items():
            on(f"knn:{frame.value}", w)
    own = r.split.own
    on("two_gpus", float(len(r.update.gpus or []) >= 2))
    on("elliptical", float(r.elliptical))
    on("short", float(len(own) < (40 if r.language == "en" else 16)))
    on("question_mark", float("?" in own or "？" in own))
    on("in_domain", float(r.in_domain))
    on("training_words", float(r.training))
    on("workload_in_state", float(state.has("model") or state.has("params") or state.has("model_name")))
    on("hardware_in_state", float(state.has("gpus") or state.has("available_gib") or state.has("instance")))
    on("turn_gt_0", float(state.turn > 0))
    on("zh", float(r.language == "zh"))
    on("task_words", float(r.task_words))
    on("long_text", float(len(own) > 160))
    on("unknown_gpu", float(r.unknown_gpu is not None))
    on("unknown_model", float(r.unknown_model is not None))
    on("pasted", float(bool(r.split.pasted)))
    state_mode = mode or getattr(state.get("mode"), "value", state.get("mode"))
    on("inference_and_load", float(state_mode == "inference" and any(s in stated for s in LOAD)))
    on("hardware_and_workload", float(bool(r.update.gpus or r.update.available_gib) and bool(r.update.model or r.update.params)))
    known = setup_known(r, state)
    on("setup_known", float(known))
    on("calc_question", float(bool(r.question_cues & CALC_CUES)))
    on("setup_calc_no_why", float(known and asks_calculator(r)))
    on("domain_weak", float(r.domain_evidence == 1))
    on("domain_strong", float(r.domain_evidence >= 3))
    on("topic_switch", float(r.topic_switch))
    on("oom", float(bool(_OOM.search(own))))
    on("bias")
    base = INDEX["h0"]
    for gram in _grams(own or r.text):
        x[base + (_stable_hash(gram) % HASH_BUCKETS)] = 1.0
    return x


def _grams(text: str) -> set[str]:
    """Word unigrams and bigrams for Latin text, character unigrams and bigrams for CJK runs; numbers collapsed."""
    low = _re.sub(r"\d+(?:\.\d+)?", "0", text.lower()[:400])
    low = _re.sub(r"\ue000([a-z])\d+\ue001", r" <\1> ", low)
    out: set[str] = set()
    words = _re.findall(r"[a-z0<>][a-z0-9<>'+\-]*", low)
    out.update(words)
    out.update(f"{a} {b}" for a, b in zip(words, words[1:]))
    for run in _re.findall(r"[\u4e00-\u9fff]+", low):
        out.update(run)
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


def _stable_hash(gram: str) -> int:
    import zlib

    return zlib.crc32(gram.encode("utf-8"))
