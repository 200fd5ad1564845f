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
        "guidance", "chitchat", "howmany", "cheapest", "offtopic", "pasted_only"]
SLOTS = ["model", "model_name", "params", "mode", "precision", "gpus", "gpu_count", "available_gib", "features",
         "min_memory_gb", "budget", "billing", "hours", "hours_per_day", "deadline", "region", "providers", "instance",
         "concurrency", "users", "requests_per_day", "request_rate", "input_len", "output_len", "ttft_ms",
         "tokens_per_s_per_user", "tokens", "epochs", "seq_len", "batch_size", "lora_rank", "retract"]
MODES = ["inference", "full", "lora", "qlora", "pretrain", "finetune"]
EXTRA = ["two_gpus", "elliptical", "short", "question_mark", "in_domain", "training_words", "workload_in_state",
         "hardware_in_state", "turn_gt_0", "zh", "task_words", "long_text", "unknown_gpu", "unknown_model", "pasted",
         "inference_and_load", "hardware_and_workload", "bias"]
FEATURE_NAMES = (
    [f"cue:{c}" for c in CUES]
    + [f"slot:{s}" for s in SLOTS]
    + [f"mode:{m}" for m in MODES]
    + [f"prev:{f.value}" for f in FRAMES]
    + [f"prev_ell:{f.value}" for f in FRAMES]
    + [f"knn:{f.value}" for f in FRAMES]
    + EXTRA
)
INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}
LOAD = ("concurrency", "users", "requests_per_day", "request_rate", "ttft_ms", "tokens_per_s_per_user")


def featurize(r: Reading, state: ConversationState, knn: dict[Frame, float] | None) -> np.ndarray:
    x = np.zeros(len(FEATURE_NAMES), dtype=np.float32)

    def on(name: str, value: float = 1.0) -> None:
        x[INDEX[name]] = value

    for c in r.cues:
        if f"cue:{c}" in INDEX:
            on(f"cue:{c}")
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
    on("bias")
    return x
