"""Accuracy of the VRAM and training-time estimators against published figures.

Reads tests/data/published_memory*.yaml and tests/data/published_gpu_hours.yaml
(measurements and GPU-hours that no one on this project wrote), runs our
estimators on each row's configuration, and prints a Markdown report with the
error per row, split into the rows our constants were calibrated on and the
held-out rows, for the first set and for thirteen rounds on issue 11's workload
kinds (each round's held-out files were frozen before its formulas changed; the
digests are in tests/data/published_memory_README.md), beside the estimate
before each round (`BASELINE_GIB`, `BASELINE2_GIB`, `BASELINE3_GIB`,
`BASELINE4_GIB`, `BASELINE5_GIB`, `BASELINE6_GIB`, `BASELINE7_GIB`,
`BASELINE8_GIB`, `BASELINE9_GIB`, `BASELINE10_GIB`, `BASELINE11_GIB`,
`BASELINE12_GIB`, `BASELINE13_GIB`) and the rules of thumb people use today:

* "16 bytes per parameter" (mixed-precision Adam, ZeRO paper §3.1) — training rows;
* `accelerate estimate-memory` (huggingface/accelerate commands/estimate.py:
  "Training using Adam" = max of its per-component sizes: 16 B/param for
  float32, 8 B/param for float16; inference = the dtype's total size);
* the LLaMA-Factory README hardware table (Full AMP 18x GB, pure bf16 8x,
  LoRA 2x, QLoRA-8 x, QLoRA-4 x/2; listed columns for 7/14/30/70B);
* the serving rule "parameters × bytes × 1.2" — inference rows.

Run: python benchmarks/accuracy.py > benchmarks/accuracy.md
"""

from __future__ import annotations

import math
import re
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.catalog import Catalog  # noqa: E402
from tools.domain import GB, GIB, Mode, ModelKind, ModelSpec, Precision, Strict  # noqa: E402
from tools.errors import InputError  # noqa: E402
from tools.schemas import TrainTimeRequest, VramRequest  # noqa: E402
from tools.train_time import estimate_train_time  # noqa: E402
from tools.vram import estimate_vram  # noqa: E402
from tools.vram_codes import Component  # noqa: E402
from tools.vram_shape import family_kind, model_from_params  # noqa: E402

DATA = ROOT / "tests" / "data"
MEMORY_FILE = DATA / "published_memory.yaml"
# issue 11's workload kinds: calibration part, and the held-out part frozen before any formula changed
KINDS_FILE = DATA / "published_memory_kinds.yaml"
HELDOUT_KINDS_FILE = DATA / "published_memory_heldout_kinds.yaml"
# the second round on those kinds: calibration from sources already evaluated, held-out from sources new to the project
KINDS2_FILE = DATA / "published_memory_kinds2.yaml"
HELDOUT_KINDS2_FILE = DATA / "published_memory_heldout_kinds2.yaml"
# the third round: held-out only (sources new to the project); every earlier file, round 2's held-out included, calibrates
HELDOUT_KINDS3_FILE = DATA / "published_memory_heldout_kinds3.yaml"
# the fourth round: held-out only (sources new to the project); every earlier file, round 3's held-out included, calibrates
HELDOUT_KINDS4_FILE = DATA / "published_memory_heldout_kinds4.yaml"
# the fifth round: held-out only, in two batches collected apart under one split rule (sources new to the project, each
# batch's also new to the other) and frozen before the round's formula changes (tests/data/held_out_freezes.md); one set
# with one evaluation, its batches told apart in the reading; every earlier file, round 4's held-out included, calibrates
HELDOUT_KINDS5_FILE = DATA / "published_memory_heldout_kinds5.yaml"
HELDOUT_KINDS5B_FILE = DATA / "published_memory_heldout_kinds5b.yaml"
# the sixth round: held-out only (sources new to the project), frozen by digest before the sixth formula round
# (tests/data/held_out_freezes.md); every earlier file, round 5's two held-out files included, calibrates
HELDOUT_KINDS6_FILE = DATA / "published_memory_heldout_kinds6.yaml"
# the seventh round: held-out only (sources new to the project; vision rows only), frozen by digest before the seventh
# formula round (tests/data/held_out_freezes.md, commit ab34400); every earlier file, round 6's held-out included,
# calibrates; nothing fits or calibrates on this one
HELDOUT_KINDS7_FILE = DATA / "published_memory_heldout_kinds7.yaml"
# the eighth round: held-out only (sources new to the project; ViT/DeiT vision rows and LLM pre-training with ZeRO-3 /
# TP + ZeRO-2), frozen by digest before the eighth formula round (tests/data/held_out_freezes.md, commit 6b19e9c);
# every earlier file, round 7's held-out included, calibrates; nothing fits or calibrates on this one
HELDOUT_KINDS8_FILE = DATA / "published_memory_heldout_kinds8.yaml"
# the ninth round: held-out only, one source new to the project (open-mmlab/mmaction2's 0.x model zoo: TSN ResNet-50
# and TimeSformer ViT-B/16 video rows, vision only), frozen by digest (tests/data/held_out_freezes.md, Session 9, commit
# b3fa46a) before the tenth formula round (commit 9362a05); every earlier file, round 8's held-out included, calibrates;
# nothing fits or calibrates on this one. Decided at the freeze: reported as one small vision-only source, never as a
# reading of the LLM kinds
HELDOUT_KINDS9_FILE = DATA / "published_memory_heldout_kinds9.yaml"
# the tenth round: held-out only, two sources new to the project (mila-iqia/milabench's H100 scaling file: BERT-base
# masked-LM training at 512 tokens, fp16 AMP and fp32, one GPU, device memory; mli/transformers-benchmarks' notebook:
# Megatron-LM BERT-large and GPT-2 medium bf16 pre-training on one GPU, DDP 2 and TP 2, allocated, read off its charts),
# frozen by digest (tests/data/held_out_freezes.md, Session 12, commit 1da0eee) after the tenth formula round (commit
# 9362a05) and before any later formula change (none came); every earlier file, round 9's held-out included,
# calibrates; nothing fits or calibrates on this one. Decided at the freeze: one reading of the 12 rows and one per
# source; it measures encoder and GPT-2-class training, never the QLoRA+FSDP or T5-ZeRO kinds issue 11 names
HELDOUT_KINDS10_FILE = DATA / "published_memory_heldout_kinds10.yaml"
# the eleventh round: held-out only, one source new to the project (hpcaitech/ColossalAI examples/language/bert at
# a55fb00c1: a BERT-base-shaped BertForSequenceClassification with a 1,000-token vocabulary, batch 32 x 512 on each of 2
# GPUs, torch DDP fp32, DDP fp16 autocast and ColossalAI low-level ZeRO-1; allocated, grade B), frozen by digest
# (tests/data/held_out_freezes.md, Session 13, commit 8640aae) after the eleventh formula round (commit a305df8) and
# before any later formula change (none came); every earlier file, round 10's held-out included, calibrates; nothing
# fits or calibrates on this one. Decided at the freeze: one reading of its 3 rows; they are classifiers, not masked-LM,
# so they test the layers' count, not the eleventh formula round's masked-LM head
HELDOUT_KINDS11_FILE = DATA / "published_memory_heldout_kinds11.yaml"
# the twelfth round: held-out only, five sources new to the project (sfantao/lumi-megatron-lm-scripts and
# xduan7/scalable-transformer: Megatron-LM BERT masked-LM pre-training, 8 rows; facebookresearch/fairseq: 13B FSDP with
# CPU offload, 2; liguodongiot/llm-action: Megatron-LM GPT-2 medium DP/TP/PP and LLaMA-13B ZeRO-2 with CPU offload, 6;
# datawhalechina/self-llm: Qwen3-30B-A3B LoRA, 1), frozen by digest (tests/data/held_out_freezes.md, Session 14,
# commit b6da2bd) after the eleventh formula round (commit a305df8) and before any later formula change (none came);
# every earlier file, round 11's held-out included, calibrates; nothing fits or calibrates on this one. Decided at the
# freeze: one reading of the 17 rows, in full, per kind (the 8 masked-LM pre-training rows are the first held-out test
# of the eleventh formula round's masked-LM head) and per grade (the C rows apart)
HELDOUT_KINDS12_FILE = DATA / "published_memory_heldout_kinds12.yaml"
# the thirteenth round: held-out only, one source new to the project (pytorch/ao's low-bit optimizer README and its
# benchmark script: timm ViT-H/14 fine-tuned at 224 with bf16 autocast, batch 8, one RTX 4070 Ti SUPER, torch fused
# AdamW, bitsandbytes AdamW8bit and torchao AdamW8bit; 3 rows, allocated, grade B), frozen by digest
# (tests/data/held_out_freezes.md, Session 14, second freeze, commit 74b8f1d) after the eleventh formula round (commit
# a305df8) and before any later formula change (none came); every earlier file, round 12's held-out included,
# calibrates; nothing fits or calibrates on this one. Decided at the freeze: one reading of its 3 rows (one source,
# vision fine-tune with 8-bit optimizers)
HELDOUT_KINDS13_FILE = DATA / "published_memory_heldout_kinds13.yaml"
ERRATA_FILE = DATA / "published_memory_errata.yaml"
MEMORY_SETS = {"first set": (MEMORY_FILE,), "new kinds": (KINDS_FILE, HELDOUT_KINDS_FILE),
               "new kinds 2": (KINDS2_FILE, HELDOUT_KINDS2_FILE), "new kinds 3": (HELDOUT_KINDS3_FILE,),
               "new kinds 4": (HELDOUT_KINDS4_FILE,), "new kinds 5": (HELDOUT_KINDS5_FILE, HELDOUT_KINDS5B_FILE),
               "new kinds 6": (HELDOUT_KINDS6_FILE,), "new kinds 7": (HELDOUT_KINDS7_FILE,),
               "new kinds 8": (HELDOUT_KINDS8_FILE,), "new kinds 9": (HELDOUT_KINDS9_FILE,),
               "new kinds 10": (HELDOUT_KINDS10_FILE,), "new kinds 11": (HELDOUT_KINDS11_FILE,),
               "new kinds 12": (HELDOUT_KINDS12_FILE,), "new kinds 13": (HELDOUT_KINDS13_FILE,)}
HELDOUT_OF_SET = {"new kinds": (HELDOUT_KINDS_FILE,), "new kinds 2": (HELDOUT_KINDS2_FILE,),
                  "new kinds 3": (HELDOUT_KINDS3_FILE,), "new kinds 4": (HELDOUT_KINDS4_FILE,),
                  "new kinds 5": (HELDOUT_KINDS5_FILE, HELDOUT_KINDS5B_FILE), "new kinds 6": (HELDOUT_KINDS6_FILE,),
                  "new kinds 7": (HELDOUT_KINDS7_FILE,), "new kinds 8": (HELDOUT_KINDS8_FILE,),
                  "new kinds 9": (HELDOUT_KINDS9_FILE,), "new kinds 10": (HELDOUT_KINDS10_FILE,),
                  "new kinds 11": (HELDOUT_KINDS11_FILE,), "new kinds 12": (HELDOUT_KINDS12_FILE,),
                  "new kinds 13": (HELDOUT_KINDS13_FILE,)}
# The eighth round's stricter reading of its split rule, decided at the freeze (tests/data/held_out_freezes.md, Session
# 8) before any evaluation: sources in repositories whose issue threads an earlier round left out (round 5:
# deepspeedai/DeepSpeedExamples #123; round 6: deepspeedai/Megatron-DeepSpeed #239 and #330, of which the argonne-lcf
# fork's examples_deepspeed/rebase/README.md is a copy). Under round 7's reading (a repository's docs and its threads
# are separate sources) their rows stay; the round is reported with all its rows and without these ('source page'
# prefixes, as `_source_page` writes them).
ROUND8_STRICT_LEFT_OUT = ("deepspeedai/DeepSpeedExamples ", "argonne-lcf/Megatron-DeepSpeed examples_deepspeed/rebase/")
# the fifth round's two batches, as the reading names them
ROUND5_BATCHES = {"5": HELDOUT_KINDS5_FILE, "5b": HELDOUT_KINDS5B_FILE}
HOURS_FILE = DATA / "published_gpu_hours.yaml"
UNIT_BYTES = {"GB": GB, "GiB": GIB, "MiB": 2**20, "MB": 1000**2}
# what each `measure` leaves out of our per-GPU figure (breakdown_gib keys): allocated = tensors only; reserved =
# tensors + the caching allocator's reserve (torch.cuda.max_memory_reserved); device = everything
LEFT_OUT = {"allocated": (Component.cuda_context.value, Component.fragmentation.value),
            "reserved": (Component.cuda_context.value,), "device": ()}
TARGET_MEDIAN, TARGET_MAX, TARGET_HOURS = 0.15, 0.35, 0.25
SIZES_LLAMA_FACTORY = {  # README columns, GB: method → {size in B: GB}
    "full_amp": {7: 120, 14: 240, 30: 600, 70: 1200},
    "full_pure": {7: 60, 14: 120, 30: 300, 70: 600},
    "lora": {7: 16, 14: 32, 30: 64, 70: 160},
    "qlora8": {7: 10, 14: 20, 30: 40, 70: 80},
    "qlora4": {7: 6, 14: 12, 30: 24, 70: 48},
}
# Our per-GPU estimate of every row and bound (GiB, compared as the row's `measure` says) before issue 11's work on
# the workload kinds: tools/vram.py at commit 39c8c59, computed by this script then and frozen here so the report
# shows before and after side by side.
BASELINE_GIB = {
    "litgpt-llama2-7b-lora-mb1": 20.01,
    "litgpt-llama2-7b-lora-mb2": 27.41,
    "litgpt-llama2-7b-qlora-mb1": 11.14,
    "litgpt-llama2-13b-lora-mb1": 35.84,
    "litgpt-llama2-13b-qlora-mb1": 18.43,
    "litgpt-llama2-7b-infer-bf16": 12.59,
    "litgpt-llama2-13b-infer-bf16": 24.31,
    "litgpt-llama2-7b-infer-nf4dq": 3.64,
    "litgpt-llama2-13b-infer-nf4dq": 6.77,
    "litgpt-llama2-70b-infer-nf4dq": 33.91,
    "hf-bert-large-fp32-b4": 13.85,
    "hf-bert-large-fp32-b1": 7.95,
    "hf-bert-large-fp32-b1-ckpt": 6.11,
    "hf-bert-large-fp16-b4": 10.57,
    "hf-bert-large-fp16-b1-ckpt": 6.7,
    "hf-bert-large-adafactor-b4": 12.54,
    "hf-bert-large-adafactor-b1-ckpt-fp16": 5.39,
    "hf-bert-large-8bit-b4": 11.89,
    "hf-bert-large-8bit-b1-ckpt-fp16": 4.74,
    "torchtune-llama31-8b-lora-4090": 18.73,
    "torchtune-llama31-8b-qlora-4090": 9.3,
    "torchtune-llama31-70b-lora-8xa100": 28.15,
    "unsloth-hf-llama31-8b-qlora-16gb": 12.89,
    "unsloth-hf-llama31-8b-qlora-40gb": 34.35,
    "unsloth-hf-llama31-8b-qlora-80gb": 70.1,
    "unsloth-hf-llama33-70b-qlora-80gb": 67.6,
    "qlora-paper-65b-48gb": 42.12,
    "peft-llama2-70b-qlora-fsdp-offload-2gpu": 10.71,
    "peft-llama2-70b-qlora-fsdp-2gpu": 29.3,
    "peft-llama2-70b-qlora-zero3-2gpu": 29.3,
    "peft-llama2-70b-lora-zero3-8gpu": 55.71,
    "llamarecipes-llama2-7b-lora-fsdp-4gpu": 13.25,
    "schmid-llama3-70b-qlora-fsdp-offload-4gpu": 12.6,
    "qwen-7b-lora-256": 19.0,
    "qwen-7b-lora-2048": 23.51,
    "qwen-7b-lora-8192": 38.99,
    "qwen-7b-qlora-256": 9.69,
    "qwen-7b-qlora-2048": 14.2,
    "qwen-7b-qlora-8192": 29.68,
    "qwen-14b-lora-2048": 37.91,
    "qwen-14b-qlora-2048": 19.75,
    "qwen-72b-lora-zero3-4gpu-256": 43.75,
    "qwen-72b-lora-zero3-4gpu-2048": 50.47,
    "qwen-72b-lora-zero3-4gpu-8192": 73.49,
    "qwen-72b-qlora-2048": 62.03,
    "qwen-7b-full-zero3-2gpu-256": 62.59,
    "qwen-7b-full-zero3-2gpu-1024": 64.53,
    "schmid-flan-t5-xxl-zero3-8xa100-b8": 28.04,
    "schmid-flan-t5-xxl-zero3-offload-8xa100-b48": 30.03,
    "schmid-flan-t5-xxl-zero3-offload-4xa10g-b24": 15.77,
    "schmid-flan-t5-xl-zero3-8xa100-b72": 36.02,
    "schmid-flan-t5-xl-zero3-offload-fp32-4xv100-b8": 5.69,
    "schmid-flan-t5-xl-zero3-fp32-8xv100-b1": 7.11,
    "schmid-flan-t5-xl-zero3-offload-fp32-8xv100-b8": 5.69,
}
# Our per-GPU estimate of every row and bound of the second round's files (tests/data/published_memory_kinds2.yaml,
# tests/data/published_memory_heldout_kinds2.yaml) before the second round changed any formula: tools/vram.py at
# commit 0fc09c6 (the held-out rows computed once, after this round's formulas were settled), frozen here.
BASELINE2_GIB: dict[str, float] = {
    "qwen-7b-lora-512": 19.78,
    "qwen-7b-lora-1024": 21.2,
    "qwen-7b-lora-4096": 29.75,
    "qwen-7b-qlora-512": 10.55,
    "qwen-7b-qlora-1024": 11.97,
    "qwen-7b-qlora-4096": 20.52,
    "qwen-7b-full-zero3-2gpu-512": 74.51,
    "qwen-7b-lora-zero2-4gpu-256": 17.73,
    "qwen-7b-lora-zero2-4gpu-512": 18.44,
    "qwen-7b-lora-zero2-4gpu-1024": 19.87,
    "qwen-7b-lora-zero2-4gpu-2048": 22.72,
    "qwen-7b-lora-zero2-4gpu-4096": 28.42,
    "qwen-7b-lora-zero2-4gpu-8192": 39.81,
    "qwen-14b-lora-256": 33.13,
    "qwen-14b-lora-512": 33.89,
    "qwen-14b-lora-1024": 35.42,
    "qwen-14b-lora-4096": 44.62,
    "qwen-14b-lora-8192": 56.88,
    "qwen-14b-qlora-256": 15.09,
    "qwen-14b-qlora-512": 15.86,
    "qwen-14b-qlora-1024": 17.39,
    "qwen-14b-qlora-4096": 26.59,
    "qwen-14b-qlora-8192": 38.85,
    "qwen-72b-lora-zero3-4gpu-512": 49.55,
    "qwen-72b-lora-zero3-4gpu-1024": 51.98,
    "qwen-72b-lora-zero3-4gpu-4096": 66.56,
    "qwen-72b-qlora-256": 55.74,
    "qwen-72b-qlora-512": 56.8,
    "qwen-72b-qlora-1024": 58.92,
    "qwen-72b-qlora-4096": 71.64,
    "qwen-72b-qlora-8192": 88.6,
    "unsloth-hf-llama31-8b-qlora-12gb": 9.55,
    "unsloth-hf-llama31-8b-qlora-24gb": 21.4,
    "unsloth-hf-llama31-8b-qlora-48gb": 45.1,
    "swift-qwen-7b-lora-512": 16.66,
    "swift-qwen-7b-lora-1024": 18.08,
    "swift-qwen-7b-lora-2048": 20.93,
    "swift-qwen-7b-lora-4096": 26.63,
    "swift-qwen-7b-lora-8192": 38.03,
    "swift-qwen-14b-lora-512": 29.45,
    "swift-qwen-14b-lora-1024": 30.98,
    "swift-qwen-14b-lora-2048": 34.04,
    "swift-qwen-14b-lora-4096": 40.17,
    "swift-qwen-14b-lora-8192": 52.44,
    "swift-chatglm3-6b-lora-512": 13.04,
    "swift-chatglm3-6b-lora-1024": 13.77,
    "swift-chatglm3-6b-lora-2048": 15.25,
    "swift-chatglm3-6b-lora-4096": 18.19,
    "swift-chatglm3-6b-lora-8192": 24.09,
    "swift-yi-6b-lora-512": 12.69,
    "swift-yi-6b-lora-1024": 13.43,
    "swift-yi-6b-lora-2048": 14.9,
    "swift-yi-6b-lora-4096": 17.84,
    "swift-yi-6b-lora-8192": 23.73,
    "swift-yi-34b-lora-512": 68.74,
    "swift-yi-34b-lora-1024": 69.88,
    "swift-yi-34b-lora-2048": 72.17,
    "swift-yi-34b-lora-4096": 76.74,
    "swift-baichuan2-7b-lora-512": 16.03,
    "swift-baichuan2-7b-lora-1024": 17.25,
    "swift-baichuan2-7b-lora-2048": 19.7,
    "swift-baichuan2-7b-lora-4096": 24.58,
    "swift-baichuan2-7b-lora-8192": 34.35,
    "swift-baichuan2-13b-lora-512": 28.71,
    "swift-baichuan2-13b-lora-1024": 30.04,
    "swift-baichuan2-13b-lora-2048": 32.7,
    "swift-baichuan2-13b-lora-4096": 38.01,
    "swift-baichuan2-13b-lora-8192": 48.64,
    "swift-qwen-7b-gptq4-2048": 11.63,
    "swift-qwen-7b-gptq8-2048": 14.6,
    "swift-qwen-7b-bnb4-2048": 11.63,
    "swift-qwen-14b-gptq4-2048": 15.89,
    "swift-qwen-14b-gptq8-2048": 21.71,
    "swift-qwen-14b-bnb4-2048": 15.89,
    "swift-qwen-72b-gptq4-2048": 49.65,
    "swift-qwen-72b-gptq8-2048": 82.26,
    "swift-qwen-72b-bnb4-2048": 49.65,
    "swift-qwen-7b-full-512": 61.83,
    "swift-qwen-7b-full-1024": 63.25,
    "swift-qwen-7b-full-2048": 66.1,
    "swift-qwen-7b-full-4096": 71.8,
    "swift-qwen-7b-lora-2048-b2": 26.63,
    "swift-qwen-7b-lora-2048-b4": 38.03,
    "swift-qwen-7b-lora-2048-b8": 60.82,
    "swift-qwen-7b-lora-2048-fa-nockpt": 33.13,
    "swift-qwen-7b-lora-2048-eager-ckpt": 21.8,
    "swift-qwen-7b-lora-2048-eager-nockpt": 60.97,
    "swift-qwen-7b-lora-2048-r2-attn": 20.83,
    "swift-qwen-7b-lora-2048-r64-attn": 21.85,
    "swift-qwen-7b-lora-2048-r8-all": 21.11,
    "answerai-llama2-7b-qlora-fsdp-512": 4.12,
    "answerai-llama2-7b-qlora-fsdp-2048": 5.82,
    "answerai-llama2-7b-lora-fsdp-512": 9.45,
    "answerai-llama2-7b-lora-fsdp-2048": 11.15,
    "answerai-llama2-7b-qlora-fsdp-2048-b4": 12.64,
    "answerai-llama2-7b-qlora-fsdp-2048-b10": 26.29,
    "answerai-llama2-7b-lora-fsdp-2048-b4": 17.98,
    "answerai-llama2-7b-lora-fsdp-2048-b6": 22.52,
    "answerai-llama2-7b-qlora-ddp-2048-b8": 21.31,
    "answerai-llama2-7b-lora-ddp-2048-b4": 22.68,
    "answerai-yi-34b-qlora-fsdp-2048-b2": 25.12,
    "answerai-yi-34b-qlora-fsdp-offload-2048-b4": 24.35,
    "answerai-llama2-70b-qlora-fsdp-offload-2048-b2": 13.94,
    "answerai-llama2-7b-lora-fsdp-offload-2048-b10": 24.41,
    "answerai-llama2-7b-qlora-fsdp-offload-2048-b12": 28.32,
    "answerai-mistral-7b-qlora-fsdp-offload-2048-b12": 28.81,
    "answerai-mistral-7b-qlora-fsdp-offload-24576-b1": 28.81,
    "hfblog-t5-large-ddp-fp32-2gpu-b16": 28.73,
    "hfblog-t5-large-ddp-fp16-2gpu-b20": 28.94,
    "hfblog-t5-large-zero2-fp16-2gpu-b40": 29.89,
    "hfblog-t5-large-zero2-offload-fp16-2gpu-b50": 29.61,
    "hfblog-t5-3b-zero2-offload-fp16-1gpu-b20": 31.57,
    "hfblog-gpt2-xl-zero3-offload-fp16-2gpu-b16": 11.67,
}
# Our per-GPU estimate of every row of the third round's held-out file (tests/data/published_memory_heldout_kinds3.yaml)
# before the third round changed any formula: tools/vram.py as it stood when that file was frozen (commit 7b05840 plus
# the second round's uncommitted work), computed once, at the round's one evaluation, with the fields that code did not
# have yet (kbit_prepare, autocast, foreach_step) left out of each workload; frozen here.
BASELINE3_GIB: dict[str, float] = {
    "fms-mistral-7b-full-1gpu-b4": 67.85,
    "fms-mistral-7b-full-2gpu-b2": 36.12,
    "fms-mistral-7b-full-1gpu-b8": 81.75,
    "fms-mistral-7b-full-2gpu-b4": 43.07,
    "fms-mistral-7b-lora-1gpu-b4": 27.59,
    "fms-mistral-7b-lora-2gpu-b2": 15.1,
    "fms-mistral-7b-lora-1gpu-b8": 41.49,
    "fms-mistral-7b-lora-2gpu-b4": 22.05,
    "fms-mixtral-8x7b-lora-2gpu-b2": 57.32,
    "fms-mixtral-8x7b-lora-2gpu-b4": 65.14,
    "fms-mistral-7b-qlora-peft-1gpu-b4": 18.05,
    "fms-mistral-7b-qlora-peft-2gpu-b2": 9.78,
    "fms-mistral-7b-qlora-peft-1gpu-b8": 31.95,
    "fms-mistral-7b-qlora-peft-2gpu-b4": 16.73,
    "fms-mixtral-8x7b-qlora-peft-1gpu-b4": 38.76,
    "fms-mixtral-8x7b-qlora-peft-2gpu-b2": 21.32,
    "fms-mixtral-8x7b-qlora-peft-1gpu-b8": 54.41,
    "fms-mixtral-8x7b-qlora-peft-2gpu-b4": 29.14,
    "fms-llama2-70b-qlora-peft-2gpu-b2": 36.11,
    "fms-mistral-7b-qlora-accel-1gpu-b4": 18.05,
    "fms-mistral-7b-qlora-accel-2gpu-b2": 9.78,
    "fms-mistral-7b-qlora-accel-1gpu-b8": 31.95,
    "fms-mistral-7b-qlora-accel-2gpu-b4": 16.73,
    "fms-mixtral-8x7b-qlora-accel-1gpu-b4": 38.76,
    "fms-mixtral-8x7b-qlora-accel-2gpu-b2": 21.32,
    "fms-mixtral-8x7b-qlora-accel-1gpu-b8": 54.41,
    "fms-mixtral-8x7b-qlora-accel-2gpu-b4": 29.14,
    "fms-llama2-70b-qlora-accel-1gpu-b4": 68.18,
    "fms-llama2-70b-qlora-accel-2gpu-b2": 36.11,
    "fms-mistral-7b-gptq4-1gpu-b4": 18.05,
    "fms-mistral-7b-gptq4-2gpu-b2": 9.78,
    "fms-mistral-7b-gptq4-1gpu-b8": 31.95,
    "fms-mistral-7b-gptq4-2gpu-b4": 16.73,
    "fms-mixtral-8x7b-gptq4-1gpu-b4": 38.76,
    "fms-mixtral-8x7b-gptq4-2gpu-b2": 21.32,
    "fms-mixtral-8x7b-gptq4-1gpu-b8": 54.41,
    "fms-mixtral-8x7b-gptq4-2gpu-b4": 29.14,
    "fms-llama2-70b-gptq4-1gpu-b4": 68.18,
    "fms-llama2-70b-gptq4-2gpu-b2": 36.11,
    "peft-mmqa-llama32-3b-lora-r32": 24.71,
    "peft-mmqa-llama32-3b-lora-r64": 25.0,
    "peft-mmqa-llama32-3b-full": 43.27,
    "torchtitan-llama31-8b-fsdp-8gpu-b2": 189.31,
    "torchtitan-llama31-8b-fsdp-128gpu-b2": 174.59,
    "hfblog-octocoder-infer-bf16": 28.92,
    "hfblog-octocoder-infer-int8": 14.75,
    "hfblog-octocoder-infer-4bit": 7.89,
}
# Our per-GPU estimate of every row of the fourth round's held-out file (tests/data/published_memory_heldout_kinds4.yaml)
# before the fourth round changed any formula: the code as that file was frozen (commit 5d18c0a; the file was committed
# on top of it in 452577b), computed once, at the round's one evaluation, in a throwaway worktree of 5d18c0a with the
# file copied in, by that tree's own benchmarks/accuracy.py (load_memory with that tree's errata, none for this file;
# evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off; rounded to 0.01 GiB); frozen here.
BASELINE4_GIB: dict[str, float] = {
    "qwen25-sb-7b-bf16-in1": 14.72,
    "qwen25-sb-7b-gptqint8-in1": 8.65,
    "qwen25-sb-7b-gptqint4-in1": 5.73,
    "qwen25-sb-7b-bf16-in6144": 16.34,
    "qwen25-sb-7b-gptqint8-in6144": 10.27,
    "qwen25-sb-7b-gptqint4-in6144": 7.34,
    "qwen25-sb-7b-bf16-in14336": 18.5,
    "qwen25-sb-7b-gptqint8-in14336": 12.42,
    "qwen25-sb-7b-gptqint4-in14336": 9.5,
    "qwen25-sb-7b-bf16-in30720": 22.81,
    "qwen25-sb-7b-gptqint8-in30720": 16.73,
    "qwen25-sb-7b-gptqint4-in30720": 13.81,
    "qwen25-sb-14b-bf16-in1": 28.3,
    "qwen25-sb-14b-gptqint8-in1": 16.0,
    "qwen25-sb-14b-gptqint4-in1": 10.08,
    "qwen25-sb-14b-bf16-in6144": 30.67,
    "qwen25-sb-14b-gptqint8-in6144": 18.36,
    "qwen25-sb-14b-gptqint4-in6144": 12.45,
    "qwen25-sb-14b-bf16-in14336": 33.82,
    "qwen25-sb-14b-gptqint8-in14336": 21.52,
    "qwen25-sb-14b-gptqint4-in14336": 15.61,
    "qwen25-sb-14b-bf16-in30720": 40.14,
    "qwen25-sb-14b-gptqint8-in30720": 27.83,
    "qwen25-sb-14b-gptqint4-in30720": 21.92,
    "qwen25-sb-32b-bf16-in1": 62.15,
    "qwen25-sb-32b-gptqint8-in1": 33.09,
    "qwen25-sb-32b-gptqint4-in1": 19.13,
    "qwen25-sb-32b-bf16-in6144": 65.53,
    "qwen25-sb-32b-gptqint8-in6144": 36.46,
    "qwen25-sb-32b-gptqint4-in6144": 22.5,
    "qwen25-sb-32b-bf16-in14336": 70.03,
    "qwen25-sb-32b-gptqint8-in14336": 40.96,
    "qwen25-sb-32b-gptqint4-in14336": 27.0,
    "qwen25-sb-32b-bf16-in30720": 79.03,
    "qwen25-sb-32b-gptqint8-in30720": 49.97,
    "qwen25-sb-32b-gptqint4-in30720": 36.0,
    "qwen25-sb-72b-gptqint4-in1": 40.01,
    "qwen25-sb-72b-gptqint4-in6144": 44.2,
    "qwen25-sb-72b-gptqint4-in14336": 49.79,
    "deepseek-7b-infer-b1-s256": 13.05,
    "deepseek-7b-infer-b1-s512": 13.24,
    "deepseek-7b-infer-b1-s1024": 13.71,
    "deepseek-7b-infer-b1-s2048": 14.92,
    "deepseek-7b-infer-b1-s4096": 18.46,
    "deepseek-7b-infer-b2-s256": 13.22,
    "deepseek-7b-infer-b2-s512": 13.61,
    "deepseek-7b-infer-b2-s1024": 14.54,
    "deepseek-7b-infer-b2-s2048": 16.96,
    "deepseek-7b-infer-b2-s4096": 24.04,
    "deepseek-7b-infer-b4-s256": 13.57,
    "deepseek-7b-infer-b4-s512": 14.35,
    "deepseek-7b-infer-b4-s1024": 16.21,
    "deepseek-7b-infer-b4-s2048": 21.05,
    "deepseek-7b-infer-b8-s256": 14.26,
    "deepseek-7b-infer-b8-s512": 15.83,
    "deepseek-7b-infer-b8-s1024": 19.55,
    "deepseek-7b-infer-b8-s2048": 29.22,
    "deepseek-7b-infer-b16-s256": 15.65,
    "deepseek-7b-infer-b16-s512": 18.8,
    "deepseek-7b-infer-b16-s1024": 26.22,
    "glm4-9b-chat-bf16-in1000": 19.48,
    "glm4-9b-chat-bf16-in8000": 21.08,
    "glm4-9b-chat-bf16-in32000": 26.56,
    "glm4-9b-chat-bf16-in128000": 48.48,
    "glm4-9b-chat-int4-in1000": 7.67,
    "glm4-9b-chat-int4-in8000": 9.27,
    "glm4-9b-chat-int4-in32000": 14.75,
    "baichuan2-7b-load-fp16": 13.98,
    "baichuan2-7b-load-int8": 7.95,
    "baichuan2-7b-load-nf4": 5.03,
    "baichuan2-13b-load-fp16": 25.89,
    "baichuan2-13b-load-int8": 14.14,
    "baichuan2-13b-load-nf4": 8.46,
    "qwen2-7b-lf-lora-1024": 19.1,
    "qwen2-7b-lf-qlora-1024": 9.78,
    "cpl-gpt2-xl-ddp-amp-b6": 39.1,
    "cpl-gpt2-xl-zero3-b40": 46.61,
    "llmfs-gpt2-bf16-naive-attn-b8": 16.5,
    "llmfs-gpt2-bf16-flash-b8": 9.97,
}
# Our per-GPU estimate of every row of the fifth round's two held-out files (tests/data/published_memory_heldout_kinds5.yaml,
# 49 rows, and _kinds5b.yaml, 19 rows) before the fifth round changed any formula: the code as both were frozen (commit
# d820525, which both collectors wrote against; tools/ and knowledge/ are the same at dd1b485^ but for one prose file,
# tools/messages/advisor.py). Computed once, at the round's one evaluation, from `git archive d820525 tools knowledge
# benchmarks/accuracy.py tests/data/published_memory_errata.yaml` unpacked outside the repository with the two files
# copied in, by that tree's own benchmarks/accuracy.py (load_memory with that tree's errata, none for these files;
# evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off; rounded to 0.01 GiB); frozen here.
BASELINE5_GIB: dict[str, float] = {
    "dlperf-megatron-dp-1x1x1-2-1536x16": 12.88,
    "dlperf-megatron-dp-8x1x1-16-1536x16": 14.97,
    "dlperf-megatron-dp-16x1x1-32-1536x16": 14.97,
    "dlperf-megatron-dp-32x1x1-64-1536x16": 14.97,
    "dlperf-megatron-mp-1x1x1-8-768x12": 17.29,
    "dlperf-megatron-mp-1x8x1-16-1536x16": 9.69,
    "dlperf-megatron-mp-1x16x1-16-3072x16": 16.51,
    "dlperf-megatron-mp-1x32x1-16-3072x32": 22.01,
    "dlperf-megatron-2d-2x4x1-16-1536x16": 8.35,
    "dlperf-megatron-2d-4x2x1-16-1536x16": 9.79,
    "dlperf-megatron-2d-2x8x1-16-2304x24": 11.87,
    "dlperf-megatron-2d-4x8x1-32-2304x24": 11.87,
    "dlperf-megatron-dp-pp-8x1x4-512-1536x16": 6.36,
    "dlperf-megatron-mp-pp-1x8x4-512-2304x24": 15.01,
    "dlperf-megatron-2d-pp-2x4x4-512-2304x24": 10.84,
    "dlperf-megatron-2d-pp-2x8x2-512-2304x24": 9.64,
    "dlperf-ds-gpt2-zero0-8gpu": 13.71,
    "dlperf-ds-gpt2-zero1-8gpu": 9.98,
    "dlperf-ds-gpt2-zero0-16gpu": 13.71,
    "dlperf-ds-gpt2-zero1-16gpu": 9.86,
    "dlperf-ds-gpt2-zero0-32gpu": 13.71,
    "dlperf-ds-gpt2-zero1-32gpu": 9.8,
    "exllama-llama-7b-g128-2048": 4.98,
    "exllama-llama-13b-g128-2048": 8.76,
    "exllama-llama-33b-g128-2048": 19.95,
    "exllama-llama-33b-g32-act-1550": 19.07,
    "exllama-wizardlm-33b-nogroup-act-2048": 19.95,
    "exllama-llama-33b-g128-2516-4090": 22.62,
    "exllama-llama-33b-g128-9032-a6000": 56.02,
    "awq-vicuna-7b-gemv-b1-64": 3.67,
    "awq-vicuna-7b-gemv-b1-2048": 5.73,
    "awq-mistral-7b-gemm-b1-64": 3.89,
    "awq-mistral-7b-gemm-b1-2048": 5.25,
    "awq-mistral-7b-gemm-b8-64": 4.03,
    "awq-mistral-7b-gemm-b8-2048": 14.93,
    "awq-llama-2-13b-gemm-b1-64": 6.81,
    "awq-llama-2-13b-gemm-b1-2048": 9.7,
    "awq-llama-2-13b-gemm-b3-64": 6.94,
    "awq-llama-2-13b-gemm-b3-2048": 15.59,
    "premai-hf-mistral-7b-fp32": 29.44,
    "premai-hf-mistral-7b-fp16": 15.1,
    "premai-hf-mistral-7b-bnb-int8": 8.28,
    "premai-hf-mistral-7b-bnb-nf4": 5.09,
    "premai-awq-mistral-7b-int4": 6.26,
    "premai-hf-llama-2-7b-fp32": 27.9,
    "premai-hf-llama-2-7b-fp16": 14.34,
    "premai-hf-llama-2-7b-bnb-int8": 8.0,
    "premai-hf-llama-2-7b-bnb-nf4": 5.02,
    "premai-awq-llama-2-7b-int4": 6.76,
    "lit-fabric-fsdpguide-ddp": 22.55,
    "lit-fabric-fsdpguide-noshard": 22.55,
    "lit-fabric-fsdpguide-shardgradop": 9.54,
    "lit-fabric-fsdpguide-fullshard": 9.39,
    "lit-fabric-fsdpguide-fullshard-cpuoffload": 0.8,
    "lit-trainer-fsdpguide-ddp": 22.55,
    "lit-trainer-fsdpguide-noshard": 22.55,
    "lit-trainer-fsdpguide-shardgradop": 9.54,
    "lit-trainer-fsdpguide-fullshard": 9.39,
    "lit-trainer-fsdpguide-fullshard-cpuoffload": 0.8,
    "lit-tp-example-fabric-llama2-7b-tp2-fsdp2": 31.38,
    "lit-tp-example-trainer-llama2-7b-tp2-fsdp2": 33.37,
    "lit-tpguide-mlp201m-tp1": 3.75,
    "lit-tpguide-mlp201m-tp2": 1.88,
    "lit-tpguide-mlp201m-tp4": 0.94,
    "lit-tpguide-mlp201m-tp8": 0.47,
    "msch-bert-large-fp32-b4-s512": 10.2,
    "axolotl-llama2-7b-qlora-4096": 16.08,
    "axolotl-llama2-7b-lora8bit-4096": 18.57,
}
# Our per-GPU estimate of every row of the sixth round's held-out file (tests/data/published_memory_heldout_kinds6.yaml,
# 35 rows) before the sixth round changed any formula: the code as the file was frozen (commit da77df2, the freeze
# record; tools/ and knowledge/ there are those of commit 3004336, which the collector wrote against, but for the
# serving modules). Computed once, at the round's one evaluation, from `git archive da77df2 tools knowledge
# benchmarks/accuracy.py tests/data/published_memory_errata.yaml` unpacked outside the repository with the file copied
# in, by that tree's own benchmarks/accuracy.py (load_memory with that tree's errata, none for this file;
# evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off; rounded to 0.01 GiB); frozen here.
BASELINE6_GIB: dict[str, float] = {
    "ult-h100-llama31-8b-full": 81.99,
    "ult-h100-llama31-8b-lora": 36.03,
    "ult-h100-llama31-8b-qlora": 33.17,
    "ult-h100-llama31-70b-lora-fsdp-offload": 51.66,
    "ult-h100-llama2-13b-full-fsdp-offload": 17.03,
    "ult-h100-llama2-13b-lora": 38.41,
    "ult-h100-llama2-13b-qlora": 29.73,
    "ult-h100-phi3-mini-full": 38.67,
    "ult-h100-phi3-mini-lora": 15.24,
    "ult-h100-phi3-mini-qlora": 14.24,
    "ult-rtxpro6000-llama31-8b-full": 81.99,
    "ult-rtxpro6000-llama31-8b-lora": 36.03,
    "ult-rtxpro6000-llama31-8b-qlora": 33.17,
    "ult-rtxpro6000-llama31-70b-lora-fsdp-offload": 51.66,
    "ult-rtxpro6000-llama2-13b-full-fsdp-offload": 17.03,
    "ult-rtxpro6000-llama2-13b-lora": 38.41,
    "ult-rtxpro6000-llama2-13b-qlora": 29.73,
    "ult-rtxpro6000-phi3-mini-full": 38.67,
    "ult-rtxpro6000-phi3-mini-lora": 15.24,
    "ult-rtxpro6000-phi3-mini-qlora": 14.24,
    "ult-a100-llama31-8b-full": 81.99,
    "ult-a100-llama31-8b-lora": 36.03,
    "ult-a100-llama31-8b-qlora": 33.17,
    "ult-a100-llama31-70b-lora-fsdp-offload": 51.66,
    "ult-a100-llama2-13b-full-fsdp-offload": 17.03,
    "ult-a100-llama2-13b-lora": 38.41,
    "ult-a100-llama2-13b-qlora": 29.73,
    "ult-a100-phi3-mini-full": 38.67,
    "ult-a100-phi3-mini-lora": 15.24,
    "ult-a100-phi3-mini-qlora": 14.24,
    "ult-a100-qwen3-8b-full": 84.15,
    "ult-a100-qwen3-8b-lora": 39.74,
    "ult-a100-qwen3-8b-qlora": 37.93,
    "lambda-dtg-llama31-405b-fsdp-offload-64xh100-allocated": 56.07,
    "lambda-dtg-llama31-405b-fsdp-offload-64xh100-reserved": 74.57,
}
# Our per-GPU estimate of every row of the seventh round's held-out file
# (tests/data/published_memory_heldout_kinds7.yaml, 20 rows) before the seventh formula round changed any formula: the
# code as the file was frozen (commit ab34400, the freeze record; tools/ and knowledge/ there are those of e4b5c28,
# which the collector wrote against, but for message and train-time modules). Computed once, at the round's one
# evaluation, from `git archive ab34400 tools knowledge benchmarks/accuracy.py tests/data/published_memory_errata.yaml`
# unpacked outside the repository with the file copied in, by that tree's own benchmarks/accuracy.py (load_memory with
# that tree's errata, none for this file; evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off;
# rounded to 0.01 GiB); frozen here.
BASELINE7_GIB: dict[str, float] = {
    "pmo-vit-l-16-fp32-b64": 32.90,
    "pmo-vit-l-16-fp16-mixed-b64": 33.50,
    "pmo-vit-l-16-bf16-true-b64": 30.52,
    "pmo-vit-l-16-bf16-true-b16": 9.42,
    "pmo-vit-l-16-bf16-true-b4-accum4": 4.14,
    "pmo-vit-l-16-fsdp4-fp32-b64": 31.17,
    "pmo-vit-l-16-fsdp4-offload-fp32-b64": 29.98,
    "vft-vit-l-16-fp32-b32": 18.83,
    "vft-vit-l-16-fp16-mixed-b32": 19.43,
    "vft-vit-l-16-bf16-mixed-b32": 19.43,
    "vft-vit-l-16-fp16-true-b32": 16.45,
    "vft-vit-l-16-bf16-true-b32": 16.45,
    "vft-vit-b-16-fp32-b16": 4.01,
    "vft-vit-b-16-fp16-mixed-b16": 4.18,
    "vft-vit-b-16-bf16-mixed-b16": 4.18,
    "vft-vit-b-16-fp16-true-b16": 3.33,
    "vft-vit-b-16-bf16-true-b16": 3.33,
    "cvpr-vit-b-16-fp32-b16": 4.01,
    "cvpr-vit-b-16-bf16-mixed-b16": 4.18,
    "cvpr-vit-b-16-ddp4-bf16-mixed-b16": 4.52,
}
# Our per-GPU estimate of every row of the eighth round's held-out file
# (tests/data/published_memory_heldout_kinds8.yaml, 16 rows) before the eighth formula round changed any formula: the
# code as the file was frozen (commit 6b19e9c, the freeze record; its tools/ differ from 0cd16d5's, which the collector
# wrote against, in serving and recommendation modules only). Computed once, at the round's one evaluation, from
# `git archive 6b19e9c tools knowledge benchmarks/accuracy.py tests/data/published_memory_errata.yaml` unpacked outside
# the repository with the file copied in, by that tree's own benchmarks/accuracy.py (load_memory with that tree's
# errata, none for this file; evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off; rounded to
# 0.01 GiB); frozen here.
BASELINE8_GIB: dict[str, float] = {
    "mesa-deit-b-amp-b128": 18.19,
    "mesa-deit-s-amp-b128": 7.02,
    "mesa-deit-ti-amp-b128": 3.59,
    "mmseg-segmenter-vit-t-mask-512-ddp8-b1": 0.45,
    "mmseg-segmenter-vit-s-linear-512-ddp8-b1": 0.89,
    "mmseg-segmenter-vit-s-mask-512-ddp8-b1": 1.09,
    "mmseg-segmenter-vit-b-mask-512-ddp8-b1": 1.42,
    "mmseg-segmenter-vit-l-mask-640-ddp8-b1": 4.88,
    "dsx-bf16-master-baseline-6.86b-zero3-4gpu-b1-s512": 30.59,
    "pttut-vit-l-16-fp32-adam-foreach-b1": 5.67,
    "mmseg-setr-naive-vit-l-512-ddp8-b2": 5.23,
    "mmseg-setr-naive-vit-l-768-cityscapes-ddp8-b1": 4.88,
    "alcf-mds-llama-5.9b-gqa8-tp2-zero2-8xa100-b8-s4096-allocated": 27.78,
    "alcf-mds-llama-5.9b-gqa8-tp2-zero2-8xa100-b8-s4096-reserved": 31.63,
    "mds-gpt3-1.3b-tp2-dp8-fp16-ds-ckpt-16xv100-b2-s2048": 14.65,
    "mds-gpt3-1.3b-tp2-dp8-fp16-megatron-recompute-16xv100-b2-s2048": 14.65,
}
# Our per-GPU estimate of every row of the ninth round's held-out file
# (tests/data/published_memory_heldout_kinds9.yaml, 6 rows) before the tenth formula round changed any formula: the code
# as the file was frozen (commit b3fa46a, the freeze record). Computed once, at the round's one evaluation, from
# `git archive b3fa46a tools knowledge benchmarks/accuracy.py tests/data/published_memory_errata.yaml` unpacked outside
# the repository with the file copied in, by that tree's own benchmarks/accuracy.py (load_memory with that tree's
# errata, none for this file; evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off; no row refused;
# rounded to 0.01 GiB); frozen here.
BASELINE9_GIB: dict[str, float] = {
    "mmaction2-tsn-r50-1x1x3-k400-ddp8-b96": 8.06,
    "mmaction2-tsn-r50-video-1x1x8-k400-ddp8-b256": 20.86,
    "mmaction2-tsn-r50-1x1x8-hmdb51-ddp8-b256": 20.86,
    "mmaction2-tsn-r50-video-1x1x8-diving48-ddp8-b64": 5.50,
    "mmaction2-timesformer-jointst-vit-b-8f-ddp8-b7": 16.60,
    "mmaction2-timesformer-spaceonly-vit-b-8f-ddp8-b64": 9.59,
}
# Our per-GPU estimate of every row of the tenth round's held-out file
# (tests/data/published_memory_heldout_kinds10.yaml, 12 rows) with the code as the file was frozen (commit 1da0eee, the
# freeze record; no file under tools/ or knowledge/, nor benchmarks/accuracy.py or the errata, changed between it and
# the evaluation's commit cf34381, so it is also the evaluation's code). Computed once, at the round's one evaluation,
# from `git archive 1da0eee tools knowledge benchmarks/accuracy.py tests/data` unpacked outside the repository with the
# file copied in, by that tree's own benchmarks/accuracy.py (load_memory with that tree's errata, none for this file;
# evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off, the reclaimable pools added to device rows;
# no row refused; rounded to 0.01 GiB); frozen here.
BASELINE10_GIB: dict[str, float] = {
    "milabench-bert-base-fp16-amp-h100-b16": 6.42,
    "milabench-bert-base-fp16-amp-h100-b64": 17.67,
    "milabench-bert-base-fp16-amp-h100-b136": 34.55,
    "milabench-bert-base-fp32-h100-b16": 8.35,
    "milabench-bert-base-fp32-h100-b64": 26.03,
    "milabench-bert-base-fp16-amp-h100-b1": 3.13,
    "milabench-bert-base-fp16-amp-h100-b104": 27.04,
    "milabench-bert-base-fp32-h100-b128": 49.60,
    "mli-megatron-bert-large-bf16-1gpu-b16": 21.49,
    "mli-megatron-gpt2-medium-bf16-1gpu-b5": 21.41,
    "mli-megatron-gpt2-medium-bf16-ddp2-b5": 22.06,
    "mli-megatron-gpt2-medium-bf16-tp2-b10": 19.27,
}
# Our per-GPU estimate of every row of the eleventh round's held-out file
# (tests/data/published_memory_heldout_kinds11.yaml, 3 rows) with the code as the file was frozen (commit 8640aae, the
# freeze record; no file under tools/ that the VRAM estimate imports, nor knowledge/, benchmarks/accuracy.py or the
# errata, changed between it and the evaluation's commit 8771c3b, so it is also the evaluation's code). Computed once,
# at the round's one evaluation, from `git archive 8640aae tools knowledge benchmarks/accuracy.py tests/data` unpacked
# outside the repository with the file copied in, by that tree's own benchmarks/accuracy.py (load_memory with that
# tree's errata, none for this file; evaluate_memory: estimate_vram, then the row's LEFT_OUT lines taken off; no row
# refused; rounded to 0.01 GiB); frozen here.
BASELINE11_GIB: dict[str, float] = {
    "colossalai-bert-vocab1k-ddp-fp32-2gpu-b32": 21.02,
    "colossalai-bert-vocab1k-ddp-fp16-amp-2gpu-b32": 15.56,
    "colossalai-bert-vocab1k-lowlevelzero1-fp16-2gpu-b32": 11.38,
}
# Our per-GPU estimate of every row of the twelfth round's held-out file
# (tests/data/published_memory_heldout_kinds12.yaml, 17 rows) with the code as the file was frozen (commit b6da2bd, the
# freeze record; between it and the evaluation's commit 795c5d9 no VRAM formula changed: tools/ changed only in the
# serving modules, of which tools/schemas.py imports serving_profiles and serving_types for enums and request fields
# the VRAM estimate does not read, and knowledge/, benchmarks/accuracy.py and the errata not at all; the 17 estimates
# of the two trees are identical to the last bit). Computed once, at the round's one evaluation, from `git archive
# b6da2bd tools knowledge benchmarks/accuracy.py tests/data` unpacked outside the repository with the file copied in,
# by that tree's own benchmarks/accuracy.py (load_memory with that tree's errata, none for this file; evaluate_memory:
# estimate_vram, then the row's LEFT_OUT lines taken off, the reclaimable pools added to device rows; no row refused;
# rounded to 0.01 GiB); frozen here.
BASELINE12_GIB: dict[str, float] = {
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-1xp100-mb16": 10.66,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-2xp100-dp2-mb16": 10.92,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-4xp100-dp4-mb16": 10.92,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-16xa100-dp16-mb32": 19.05,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-1xa100-mb4": 7.84,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-8xa100-tp2-pp2-dp2-mb4": 2.88,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-16xa100-tp2-pp2-dp4-mb4": 2.88,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-128xa100-tp2-pp2-dp32-mb4": 2.88,
    "fairseq-fsdp-gpt3-13b-cpuoffload-1xv100-b8x2048": 75.18,
    "fairseq-fsdp-gpt3-13b-cpuoffload-8xv100-b8x2048": 25.08,
    "llmaction-megatron-gpt2-345m-fp16-4dp-mb1": 10.23,
    "llmaction-megatron-gpt2-345m-fp16-tp2-pp2-sp-mb4": 8.04,
    "llmaction-megatron-gpt2-345m-fp16-tp4-sp-mb2": 3.48,
    "llmaction-megatron-gpt2-345m-fp16-pp4-mb2": 7.57,
    "llmaction-alpaca-llama13b-zero2-offload-fp16-1xh800-b2": 27.41,
    "llmaction-alpaca-llama13b-zero2-offload-fp16-8xh800-b2": 27.41,
    "selfllm-qwen3-30b-a3b-lora-r8-bf16-1xh20-b16": 83.95,
}
# Our per-GPU estimate of every row of the thirteenth round's held-out file
# (tests/data/published_memory_heldout_kinds13.yaml, 3 rows) with the code as the file was frozen (commit 74b8f1d, the
# freeze record; between it and the evaluation's commit 816e237 no VRAM formula changed: tools/ changed only in the
# serving modules, the fit report's data-parallel layout (tools/fit.py, which the benchmark does not call) and the
# advisor's messages, of which tools/schemas.py gained a serving-load field the VRAM estimate does not read;
# knowledge/ and the errata not at all, benchmarks/accuracy.py only in round 12's reading; the 3 estimates of the two
# trees are identical to the last bit). Computed once, at the round's one evaluation, from `git archive 74b8f1d tools
# knowledge benchmarks/accuracy.py tests/data` unpacked outside the repository with the file copied in, by that tree's
# own benchmarks/accuracy.py (load_memory with that tree's errata, none for this file; evaluate_memory: estimate_vram,
# then the row's LEFT_OUT lines taken off; no row refused; rounded to 0.01 GiB); frozen here.
BASELINE13_GIB: dict[str, float] = {
    "torchao-vith14-bf16amp-adamw-fused-4070tis-b8": 11.06,
    "torchao-vith14-bf16amp-bnb-adamw8bit-4070tis-b8": 7.54,
    "torchao-vith14-bf16amp-ao-adamw8bit-4070tis-b8": 7.54,
}
PER_B_LLAMA_FACTORY = {"full_amp": 18, "full_pure": 8, "lora": 2, "qlora8": 1, "qlora4": 0.5}  # the `x`B column


class Quantity(Strict):
    value: float = Field(gt=0)
    unit: str = Field(pattern="^(GB|GiB|MiB|MB)$")


class RowShape(Strict):
    """A published shape for a `params` row whose model is not in the catalog: the layers follow `family`'s reference
    implementation (tools.vram_shape.layer_style), and the estimate reads this shape instead of assuming one. A vision
    transformer's `vocab` is its classifier's classes (its head runs on the class token only)."""

    family: str
    kind: ModelKind | None = Field(default=None, description="what kind of model the shape is; None: the kind the "
                                   "family implies (tools.vram_shape.family_kind: a vision-transformer family such as "
                                   "vit is a vision model, every other a decoder, as before the ninth formula round)")
    layers: int = Field(gt=0)
    hidden: int = Field(gt=0)
    heads: int = Field(gt=0)
    intermediate: int = Field(gt=0)
    vocab: int = Field(gt=0, description="as the run pads it")


class MemoryRow(Strict):
    id: str
    kind: str | None = None  # workload kind the row stands for (new-kinds files), for the per-kind summary
    source: str
    locator: str
    model: str | None = None
    params: float | None = Field(default=None, gt=0)
    shape: RowShape | None = None  # with `params`: the published shape (sixth round; given to frozen rows by errata)
    workload: VramRequest
    assumed: str | None = None
    measured: Quantity
    measure: str = Field(pattern="^(allocated|reserved|device)$")
    split: str = Field(pattern="^(calibration|holdout)$")
    grade: str | None = Field(default=None, pattern="^[ABC]$")  # second-round files: see published_memory_README.md


class BoundRow(Strict):
    id: str
    kind: str | None = None
    source: str
    locator: str | None = None
    model: str
    workload: VramRequest
    assumed: str | None = None
    max: Quantity
    grade: str | None = Field(default=None, pattern="^[ABC]$")


class MemoryFile(Strict):
    rows: list[MemoryRow]
    bounds: list[BoundRow] = Field(default_factory=list)


class Erratum(Strict):
    file: str
    id: str
    field: str = Field(pattern="^(measured|measure|workload|max|shape)$")
    was: Any
    now: Any
    reason: str


class ErrataFile(Strict):
    errata: list[Erratum] = Field(default_factory=list)


class HoursRow(Strict):
    id: str
    model: str | None = None
    params: float | None = Field(default=None, gt=0)
    tokens: float = Field(gt=0)
    gpu: str
    gpu_hours: float = Field(gt=0)
    split: str = Field(pattern="^(calibration|holdout)$")
    scope: str | None = None
    note: str | None = None
    source: str


class HoursFile(Strict):
    rows: list[HoursRow]


def load_yaml(path: Path) -> dict[str, Any]:
    """Read a published-figures file, validated (unknown keys and bad values are errors)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    schema = MemoryFile if path.name.startswith("published_memory") else HoursFile
    return schema.model_validate(data).model_dump(mode="json", exclude_none=True, exclude_unset=True)


def load_errata(path: Path = ERRATA_FILE) -> list[dict[str, Any]]:
    """Corrections to frozen files (they are never edited)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [e.model_dump(mode="json") for e in ErrataFile.model_validate(data).errata]


def load_memory(path: Path, errata: list[dict[str, Any]]) -> dict[str, Any]:
    """A memory file with its errata applied (each must find the value it corrects)."""
    data = load_yaml(path)
    for e in (e for e in errata if e["file"] == path.name):
        row = next((r for r in data["rows"] + data.get("bounds", []) if r["id"] == e["id"]), None)
        if row is None or row.get(e["field"]) != e["was"]:
            raise ValueError(f"{path.name}: erratum for {e['id']}.{e['field']} does not match the file")
        row[e["field"]] = e["now"]
    return data


def to_gib(q: dict[str, Any]) -> float:
    return q["value"] * UNIT_BYTES[q["unit"]] / GIB


def resolve_model(catalog: Catalog, row: dict[str, Any]) -> ModelSpec:
    if "params" in row and row.get("shape"):
        shape = RowShape.model_validate(row["shape"])  # an erratum's shape is validated here
        label = f"{shape.layers}x{shape.hidden} {shape.family}-style ({row['params']:.4g} params)"
        kind = shape.kind or family_kind(shape.family)  # ninth formula round: a vit shape is a vision transformer
        return ModelSpec(key=label, name=label, family=shape.family, kind=kind, params=float(row["params"]),
                         num_layers=shape.layers, hidden_size=shape.hidden, num_attention_heads=shape.heads,
                         num_kv_heads=shape.heads, head_dim=shape.hidden // shape.heads,
                         intermediate_size=shape.intermediate, vocab_size=shape.vocab,
                         source="the row's published shape")
    if "params" in row:
        return model_from_params(float(row["params"]))
    return catalog.model(row["model"])


# ------------------------------------------------------------------ rules of thumb (GiB)


def rule_16_bytes(model: ModelSpec, req: VramRequest) -> float | None:
    return model.params * 16 / GIB if req.mode in (Mode.full, Mode.pretrain) else None


def rule_accelerate(model: ModelSpec, req: VramRequest) -> float | None:
    p = req.effective_precision
    if req.mode == Mode.inference:
        return model.params * p.bytes_per_param / GIB
    if req.mode in (Mode.full, Mode.pretrain):
        per_param = 16 if p in (Precision.fp32, Precision.tf32) else 8
        return model.params * per_param / GIB
    return None


def rule_llama_factory(model: ModelSpec, req: VramRequest) -> float | None:
    p = req.effective_precision
    if req.mode in (Mode.full, Mode.pretrain):
        if p in (Precision.fp32, Precision.tf32):
            return None
        method = "full_pure" if req.master_weights.value == "none" else "full_amp"
    elif req.mode == Mode.qlora or p in (Precision.nf4, Precision.int4):
        method = "qlora4"
    elif req.mode == Mode.lora:
        method = "qlora8" if p == Precision.int8 else "lora"
    else:
        return None
    x = model.params / 1e9
    nearest = min(SIZES_LLAMA_FACTORY[method], key=lambda size: abs(math.log(size / x)))
    if abs(math.log(nearest / x)) <= math.log(1.25):
        gb = SIZES_LLAMA_FACTORY[method][nearest]
    else:
        gb = PER_B_LLAMA_FACTORY[method] * x
    return gb * GB / GIB


def rule_serving(model: ModelSpec, req: VramRequest) -> float | None:
    if req.mode != Mode.inference:
        return None
    return model.params * req.effective_precision.bytes_per_param * 1.2 / GIB


RULES = {
    "16 B/param": rule_16_bytes,
    "accelerate": rule_accelerate,
    "LLaMA-Factory": rule_llama_factory,
    "params×bytes×1.2": rule_serving,
}


# ------------------------------------------------------------------ memory


@dataclass
class MemoryResult:
    id: str
    split: str
    measure: str
    measured_gib: float
    ours_gib: float
    rules: dict[str, float | None]
    source: str
    set: str = "first set"
    kind: str | None = None
    before_gib: float | None = None
    grade: str | None = None
    # the estimator's refusal (an InputError's English line): the row has no estimate (ours_gib is infinite), so it
    # counts as a miss everywhere, its error unbounded in every median and max, and the tables print it as refused
    refused: str | None = None

    @property
    def error(self) -> float:
        return self.ours_gib / self.measured_gib - 1

    @property
    def before_error(self) -> float | None:
        return None if self.before_gib is None else self.before_gib / self.measured_gib - 1

    def rule_error(self, name: str) -> float | None:
        v = self.rules[name]
        return None if v is None else v / self.measured_gib - 1


def evaluate_all_memory(catalog: Catalog) -> tuple[list[MemoryResult], list[dict]]:
    """Every memory file of `MEMORY_SETS`, errata applied, each row tagged with its set."""
    errata = load_errata()
    results, bounds = [], []
    for name, paths in MEMORY_SETS.items():
        for path in paths:
            mem, bnd = evaluate_memory(catalog, load_memory(path, errata), set_name=name)
            results += mem
            bounds += bnd
    return results, bounds


def evaluate_memory(catalog: Catalog, data: dict[str, Any] | None = None,
                    set_name: str = "first set") -> tuple[list[MemoryResult], list[dict]]:
    data = data or load_yaml(MEMORY_FILE)
    results = []
    for row in data["rows"]:
        model = resolve_model(catalog, row)
        req = VramRequest(**row["workload"])
        refused = None
        try:
            est = estimate_vram(model, req)
        except InputError as err:  # a refusal is a miss, never a dropped row
            ours, refused = math.inf, str(err)
        else:
            ours = est.per_gpu_gib
            ours -= sum(est.breakdown_gib.get(k, 0.0) for k in LEFT_OUT[row["measure"]])
            if row["measure"] != "allocated":  # reserved and device figures include the allocator's reclaimable pools
                ours += est.reclaimable_gib
        # rules of thumb give the job's total; spread it evenly over the GPUs for per-GPU rows
        rules = {name: (None if (v := fn(model, req)) is None else v / req.gpus) for name, fn in RULES.items()}
        results.append(MemoryResult(
            id=row["id"], split=row["split"], measure=row["measure"], measured_gib=to_gib(row["measured"]),
            ours_gib=ours, rules=rules, source=row["source"], set=set_name, kind=row.get("kind"),
            before_gib=_baseline(set_name).get(row["id"]), grade=row.get("grade"), refused=refused,
        ))
    bounds = []
    for row in data.get("bounds", []):
        model = resolve_model(catalog, row)
        est = estimate_vram(model, VramRequest(**row["workload"]))
        limit = to_gib(row["max"])
        split = ("holdout" if row["id"] in _heldout_ids(set_name) else "calibration") \
            if set_name in HELDOUT_OF_SET else "—"
        bounds.append({"id": row["id"], "ours_gib": est.per_gpu_gib, "max_gib": limit,
                       "holds": est.per_gpu_gib <= limit, "source": row["source"], "set": set_name,
                       "split": split, "before_gib": _baseline(set_name).get(row["id"]), "grade": row.get("grade")})
    return results, bounds


def _file_ids(path: Path) -> set[str]:
    data = load_yaml(path)
    return {r["id"] for r in data["rows"] + data.get("bounds", [])}


def _heldout_ids(set_name: str) -> set[str]:
    return set().union(*(_file_ids(path) for path in HELDOUT_OF_SET[set_name]))


def _baseline(set_name: str) -> dict[str, float]:
    """The frozen 'before' estimates: the first round's (39c8c59) for its sets, the second round's (0fc09c6) for its,
    the third's to thirteenth's as each round's held-out files were frozen."""
    return {"new kinds 2": BASELINE2_GIB, "new kinds 3": BASELINE3_GIB, "new kinds 4": BASELINE4_GIB,
            "new kinds 5": BASELINE5_GIB, "new kinds 6": BASELINE6_GIB, "new kinds 7": BASELINE7_GIB,
            "new kinds 8": BASELINE8_GIB, "new kinds 9": BASELINE9_GIB,
            "new kinds 10": BASELINE10_GIB, "new kinds 11": BASELINE11_GIB,
            "new kinds 12": BASELINE12_GIB, "new kinds 13": BASELINE13_GIB}.get(set_name, BASELINE_GIB)


# ------------------------------------------------------------------ GPU-hours


@dataclass
class HoursResult:
    id: str
    split: str
    published: float
    ours: float
    mfu_used: float
    implied_mfu: float
    scope: str | None
    note: str | None
    source: str

    @property
    def error(self) -> float:
        return self.ours / self.published - 1


def evaluate_hours(catalog: Catalog, data: dict[str, Any] | None = None) -> list[HoursResult]:
    data = data or load_yaml(HOURS_FILE)
    out = []
    for row in data["rows"]:
        model = resolve_model(catalog, row)
        gpu = catalog.gpu(row["gpu"])
        # pre-training at scale: many nodes; GPU-hours do not depend on the count for NVLink-class GPUs
        est = estimate_train_time(model, gpu, TrainTimeRequest(mode="pretrain", tokens=row["tokens"], gpus=1024))
        implied = est.mfu * est.gpu_hours / row["gpu_hours"]
        out.append(HoursResult(row["id"], row["split"], row["gpu_hours"], est.gpu_hours, est.mfu, implied,
                               row.get("scope"), row.get("note"), row["source"]))
    return out


# ------------------------------------------------------------------ report


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.0%}"


def _summary(errors: list[float]) -> tuple[float, float, int] | None:
    if not errors:
        return None
    absolute = [abs(e) for e in errors]
    return statistics.median(absolute), max(absolute), len(errors)


def _memory_table(rows: list[MemoryResult], with_kind: bool, with_grade: bool = False) -> list[str]:
    head = "| row | " + ("kind | " if with_kind else "") + ("grade | " if with_grade else "") + \
           "split | measure | published GiB | before GiB | ours GiB | before err | ours err | " + " | ".join(RULES) + " |"
    lines = [head, "|---|" + ("---|" if with_kind else "") + ("---|" if with_grade else "")
             + "---|---|---:|---:|---:|---:|---:|" + "---:|" * len(RULES)]
    for r in rows:
        rule_cells = " | ".join(_pct(r.rule_error(n)) for n in RULES)
        before = "n/a" if r.before_gib is None else f"{r.before_gib:.2f}"
        ours, err = ("refused", f"miss (refused: {r.refused})") if r.refused else (f"{r.ours_gib:.2f}", _pct(r.error))
        lines.append(f"| {r.id} | " + (f"{r.kind or ''} | " if with_kind else "") + (f"{r.grade or ''} | " if with_grade else "")
                     + f"{r.split} | {r.measure} | {r.measured_gib:.2f} | {before} | {ours} | "
                     f"{_pct(r.before_error)} | {err} | {rule_cells} |")
    return lines


# What was seen when (issue 11). Round 1: its held-out file (published_memory_heldout_kinds.yaml) before this project's
# second round, as benchmarks/accuracy.md at commit 0fc09c6 reported it. Round 2: its held-out file at its one
# evaluation, after the second round's formulas were settled on the calibration rows.
ROUND1_HELDOUT_AT_0FC09C6 = (0.085, 0.458)  # median, max absolute error over its 15 measured rows
ROUND2_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.137, 0.639)  # 73 rows; 13.0% / 63.9% before the round
# Round 3: its held-out file at its one evaluation (2026-12-01), after the third round's changes were settled.
ROUND3_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.133, 1.606)  # 47 rows; 12.4% / 160.6% before the round
# ... and by source at that evaluation (benchmarks/accuracy.md of the third round): rows, median, max. The file is spent
# since; the fourth round's formula changes were read on it as calibration.
ROUND3_BY_SOURCE_FIRST_EVAL: dict[str, tuple[int, float, float]] = {
    "foundation-model-stack/fms-acceleration": (39, 0.125, 0.277),
    "huggingface/peft": (3, 0.495, 0.498),
    "pytorch/torchtitan": (2, 1.452, 1.606),
    "huggingface/blog": (3, 0.031, 0.173),
}


# Round 4: its held-out file (published_memory_heldout_kinds4.yaml) at its one evaluation (2026-12-01), after the fourth
# round's formula changes (commit 3574251) were settled on calibration rows only; no erratum touches the file.
ROUND4_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.062, 0.835)  # 79 rows; 6.2% / 88.2% before the round
# ... by source page and by kind at that evaluation (rows, median, max), as benchmarks/accuracy.md of the fourth round
# reported them, and the rows over the max target then (id, error, error before the round). The file is spent since:
# the fifth round read its misses as calibration, so its figures after that round are "now" columns beside these.
ROUND4_BY_SOURCE_FIRST_EVAL: dict[str, tuple[int, float, float]] = {
    "QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst": (39, 0.062, 0.243),
    "deepseek-ai/DeepSeek-LLM README.md": (21, 0.131, 0.297),
    "THUDM/GLM-4 basic_demo/README_en.md": (7, 0.047, 0.135),
    "baichuan-inc/Baichuan2 README_EN.md": (6, 0.002, 0.006),
    "QwenLM/Qwen2.5 examples/llama-factory/finetune-zh.md": (2, 0.029, 0.042),
    "hpcaitech/ColossalAI-Pytorch-lightning benchmark/gpt/README.md": (2, 0.310, 0.601),
    "rasbt/LLMs-from-scratch ch05/10_llm-training-speed/README.md": (2, 0.694, 0.835),
}
ROUND4_BY_KIND_FIRST_EVAL: dict[str, tuple[int, float, float]] = {
    "inference": (39, 0.063, 0.297), "inference-quantised": (34, 0.054, 0.243), "lora-single-gpu": (1, 0.017, 0.017),
    "pretrain-ddp": (1, 0.018, 0.018), "pretrain-single-gpu": (2, 0.694, 0.835), "pretrain-zero3": (1, 0.601, 0.601),
    "qlora": (1, 0.042, 0.042),
}
# Round 5: its two held-out files (published_memory_heldout_kinds5.yaml, _kinds5b.yaml) at their one evaluation
# (2026-12-01), after the fifth round's formula changes (commit dd1b485) were settled on calibration rows only; no
# erratum touches either file. Median, max absolute error over the 68 rows (batch 5: 7.8% / 155.2% over 49; batch 5b:
# 2.4% / 87.7% over 19); 7.6% / 155.1% before the round (BASELINE5_GIB, rounded to 0.01 GiB: the round moved no row).
ROUND5_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.076, 1.552)
# Round 6: its held-out file (published_memory_heldout_kinds6.yaml) at its one evaluation (2026-12-01), after the sixth
# round's formula changes (commit 4d3abab) were settled on calibration rows only; no erratum touches the file. Median,
# max absolute error over the 35 rows (universal-llm-trainer 12.9% / 41.0% over 33, Lambda's guide 8.3% / 13.8% over 2);
# 12.9% / 41.0% before the round (BASELINE6_GIB, rounded to 0.01 GiB: the round moved no row). tests/test_vram_accuracy.py
# compares it with the rows' figures now: a later change that moves them must keep this record and say so in the report.
ROUND6_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.129, 0.410)
# Round 7: its held-out file (published_memory_heldout_kinds7.yaml, 20 vision rows) at its one evaluation (2026-12-02),
# after the seventh round's formula changes (commit eac0da8) were settled on spent rows only; no erratum touches the
# file. Median, max absolute error over the 20 rows: 70.0% / 438.9%, 6 of 20 within 35%; 70.0% / 433.8% before the round
# (BASELINE7_GIB: the round moved one row, the FSDP + CPU-offload row, by its gradient-shard pool). The set is
# vision-only: it does not test the round's QLoRA and LLM FSDP-offload changes. tests/test_vram_round7_heldout.py
# compares it with the rows' figures now: a later change that moves them must keep this record and say so in the report.
ROUND7_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.700, 4.389)
# Round 8: its held-out file (published_memory_heldout_kinds8.yaml, 16 rows: 11 vision, 5 LLM pre-training) at its one
# evaluation (2026-12-02), after the eighth round's formula changes (commit 1ed6d8f) were settled on spent rows only; no
# erratum touches the file. Median, max absolute error over the 16 rows: 30.3% / 62.6%, 11 of 16 within 35%; over the 13
# rows of the stricter reading decided at the freeze (`ROUND8_STRICT_LEFT_OUT`): 33.7% / 62.6%, 8 of 13 within 35%.
# Before the round (BASELINE8_GIB): 21.7% / 79.7% (9 of 16), 46.3% / 79.7% (6 of 13). tests/test_vram_round8_heldout.py
# compares them with the rows' figures at the evaluation (ROUND8_AT_EVAL_GIB) and the report.
ROUND8_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.303, 0.626)
ROUND8_STRICT_FIRST_EVAL: tuple[float, float] | None = (0.337, 0.626)
# Round 9: its held-out file (published_memory_heldout_kinds9.yaml, 6 vision rows of one source) at its one evaluation
# (2026-12-02), after the tenth formula round's changes (commit 9362a05) were settled on spent rows only; no erratum
# touches the file. Median, max absolute error over the 6 rows: 1.1% / 33.7%, 6 of 6 within 35%, none refused; before
# the round (BASELINE9_GIB) 1.1% / 33.8%, 6 of 6. One vision-only source: not a reading of the LLM kinds.
# tests/test_vram_heldout9.py compares it with the rows' figures at the evaluation (ROUND9_AT_EVAL_GIB).
ROUND9_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.011, 0.337)
# Round 10: its held-out file (published_memory_heldout_kinds10.yaml, 12 rows of two sources: milabench BERT-base, 8;
# mli/transformers-benchmarks Megatron BERT-large / GPT-2 medium, 4) at its one evaluation (2026-12-03), on the code as
# the file was frozen (no formula changed since commit 9362a05); no erratum touches the file. Median, max absolute error
# over the 12 rows: 32.2% / 42.4%, 8 of 12 within 35%, none refused; milabench (8 rows) 34.8% / 42.4%, 4 of 8;
# mli/transformers-benchmarks (4 rows) 2.0% / 5.4%, 4 of 4; before (BASELINE10_GIB, the same code) the same to its 0.01
# GiB rounding. Encoder and GPT-2-class training only: no reading of the QLoRA+FSDP or T5-ZeRO kinds.
# tests/test_vram_heldout10.py compares it with the rows' figures at the evaluation (ROUND10_AT_EVAL_GIB).
ROUND10_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.322, 0.424)
# Round 11: its held-out file (published_memory_heldout_kinds11.yaml, 3 rows of one source: ColossalAI's BERT-base-shaped
# classifier, vocabulary 1,000, on 2 GPUs: DDP fp32, DDP fp16 autocast, low-level ZeRO-1) at its one evaluation
# (2026-12-03), on the code as the file was frozen (no formula changed since commit a305df8); no erratum touches the
# file. Median, max absolute error over the 3 rows: 1.9% / 4.3%, 3 of 3 within 35%, none refused; before
# (BASELINE11_GIB, the same code) the same to its 0.01 GiB rounding. Classifiers, not masked-LM: a reading of the
# layers' count, not of the eleventh formula round's masked-LM head. tests/test_vram_heldout11.py compares it with the
# rows' figures at the evaluation (ROUND11_AT_EVAL_GIB).
ROUND11_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.019, 0.043)
# Round 12: its held-out file (published_memory_heldout_kinds12.yaml, 17 rows of five sources: 8 Megatron-LM BERT
# masked-LM pre-training rows, 9 of FSDP + CPU offload, Megatron-LM GPT-2 medium parallelism, ZeRO-2 + CPU offload and
# MoE LoRA) at its one evaluation (2026-12-03), on the code as the file was frozen (no VRAM formula changed since
# commit a305df8); no erratum touches the file. Median, max absolute error over the 17 rows: 13.5% / 234.9% (max
# target missed), 11 of 17 within 35%, none refused; without the 3 C rows 12.6% / 234.9%; before (BASELINE12_GIB,
# the same code) the same to its 0.01 GiB rounding. tests/test_vram_heldout12.py compares it with the rows' figures at
# the evaluation (ROUND12_AT_EVAL_GIB).
ROUND12_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.135, 2.349)
# Round 13: its held-out file (published_memory_heldout_kinds13.yaml, 3 rows of one source: pytorch/ao's ViT-H/14
# fine-tune with bf16 autocast, batch 8, torch fused AdamW, bitsandbytes AdamW8bit, torchao AdamW8bit) at its one
# evaluation (2026-12-04), on the code as the file was frozen (no VRAM formula changed since commit a305df8); no erratum
# touches the file. Median, max absolute error over the 3 rows: 2.6% / 8.2% (both targets met), 3 of 3 within 35%,
# none refused; before (BASELINE13_GIB, the same code) the same to its 0.01 GiB rounding.
# tests/test_vram_heldout13.py compares it with the rows' figures at the evaluation (ROUND13_AT_EVAL_GIB).
ROUND13_HELDOUT_FIRST_EVAL: tuple[float, float] | None = (0.026, 0.082)
ROUND4_OVER_MAX_FIRST_EVAL: tuple[tuple[str, str, float, float], ...] = (
    ("llmfs-gpt2-bf16-flash-b8", "pretrain-single-gpu", 0.83496, 0.6897),
    ("cpl-gpt2-xl-zero3-b40", "pretrain-zero3", 0.6009, 0.8820),
    ("llmfs-gpt2-bf16-naive-attn-b8", "pretrain-single-gpu", 0.5540, 0.4268),
)


# The calibration summary just before the fourth formula round (tools/vram.py at commit 5d18c0a, errata as then):
# (set, split) → (median, max, rows) of the absolute error, as benchmarks/accuracy.md reported it.
BEFORE_ROUND4: dict[tuple[str, str], tuple[float, float, int]] = {
    ("first set", "calibration"): (0.021, 0.135, 8), ("first set", "holdout"): (0.079, 0.257, 18),
    ("new kinds", "calibration"): (0.036, 0.197, 5), ("new kinds", "holdout"): (0.042, 0.207, 15),
    ("new kinds 2", "calibration"): (0.061, 0.184, 34), ("new kinds 2", "holdout"): (0.121, 0.639, 73),
    ("new kinds 3", "holdout"): (0.133, 1.606, 47),
}

# The calibration summary just before the fifth formula round (tools/vram.py at commit d820525, errata as then): every
# file is calibration now, round 4's held-out file included (spent since its one evaluation).
BEFORE_ROUND5: dict[tuple[str, str], tuple[float, float, int]] = {
    ("first set", "calibration"): (0.020, 0.135, 8), ("first set", "holdout"): (0.068, 0.157, 18),
    ("new kinds", "calibration"): (0.058, 0.307, 5), ("new kinds", "holdout"): (0.050, 0.218, 15),
    ("new kinds 2", "calibration"): (0.053, 0.159, 34), ("new kinds 2", "holdout"): (0.118, 0.651, 73),
    ("new kinds 3", "holdout"): (0.031, 0.602, 47), ("new kinds 4", "holdout"): (0.062, 0.835, 79),
}
# ... and every row's estimate then (GiB, compared as the row's measure says), computed by this script on that commit,
# for the fifth round's list of the largest residuals before and after.
BEFORE_ROUND5_GIB: dict[str, float] = {
    "litgpt-llama2-7b-lora-mb1": 20.012,
    "litgpt-llama2-7b-lora-mb2": 27.410,
    "litgpt-llama2-7b-qlora-mb1": 11.145,
    "litgpt-llama2-13b-lora-mb1": 35.839,
    "litgpt-llama2-13b-qlora-mb1": 18.433,
    "litgpt-llama2-7b-infer-bf16": 12.593,
    "litgpt-llama2-13b-infer-bf16": 24.307,
    "litgpt-llama2-7b-infer-nf4dq": 3.727,
    "litgpt-llama2-13b-infer-nf4dq": 6.901,
    "litgpt-llama2-70b-infer-nf4dq": 34.345,
    "hf-bert-large-fp32-b4": 14.191,
    "hf-bert-large-fp32-b1": 8.030,
    "hf-bert-large-fp32-b1-ckpt": 6.166,
    "hf-bert-large-fp16-b4": 12.463,
    "hf-bert-large-fp16-b1-ckpt": 6.784,
    "hf-bert-large-adafactor-b4": 12.885,
    "hf-bert-large-adafactor-b1-ckpt-fp16": 5.478,
    "hf-bert-large-8bit-b4": 12.415,
    "hf-bert-large-8bit-b1-ckpt-fp16": 5.008,
    "torchtune-llama31-8b-lora-4090": 17.965,
    "torchtune-llama31-8b-qlora-4090": 8.533,
    "torchtune-llama31-70b-lora-8xa100": 30.548,
    "unsloth-hf-llama31-8b-qlora-16gb": 13.494,
    "unsloth-hf-llama31-8b-qlora-40gb": 37.134,
    "unsloth-hf-llama31-8b-qlora-80gb": 76.537,
    "unsloth-hf-llama33-70b-qlora-80gb": 69.407,
    "peft-llama2-70b-qlora-fsdp-offload-2gpu": 12.650,
    "peft-llama2-70b-qlora-fsdp-2gpu": 31.239,
    "peft-llama2-70b-qlora-zero3-2gpu": 30.843,
    "peft-llama2-70b-lora-zero3-8gpu": 58.652,
    "llamarecipes-llama2-7b-lora-fsdp-4gpu": 13.818,
    "schmid-llama3-70b-qlora-fsdp-offload-4gpu": 19.457,
    "qwen-7b-lora-256": 19.077,
    "qwen-7b-lora-2048": 24.141,
    "qwen-7b-lora-8192": 41.503,
    "qwen-7b-qlora-256": 9.587,
    "qwen-7b-qlora-2048": 12.719,
    "qwen-7b-qlora-8192": 23.457,
    "qwen-14b-lora-2048": 38.509,
    "qwen-14b-qlora-2048": 18.287,
    "qwen-72b-lora-zero3-4gpu-256": 47.918,
    "qwen-72b-lora-zero3-4gpu-2048": 53.528,
    "qwen-72b-lora-zero3-4gpu-8192": 72.761,
    "qwen-72b-qlora-2048": 60.873,
    "qwen-7b-full-zero3-2gpu-256": 73.343,
    "qwen-7b-full-zero3-2gpu-1024": 74.749,
    "qwen-7b-lora-512": 19.800,
    "qwen-7b-lora-1024": 21.247,
    "qwen-7b-lora-4096": 29.928,
    "qwen-7b-qlora-512": 10.034,
    "qwen-7b-qlora-1024": 10.929,
    "qwen-7b-qlora-4096": 16.298,
    "qwen-7b-full-zero3-2gpu-512": 73.812,
    "qwen-7b-lora-zero2-4gpu-256": 17.473,
    "qwen-7b-lora-zero2-4gpu-512": 17.920,
    "qwen-7b-lora-zero2-4gpu-1024": 18.815,
    "qwen-7b-lora-zero2-4gpu-2048": 20.604,
    "qwen-7b-lora-zero2-4gpu-4096": 24.184,
    "qwen-7b-lora-zero2-4gpu-8192": 31.342,
    "qwen-14b-lora-256": 33.128,
    "qwen-14b-lora-512": 33.897,
    "qwen-14b-lora-1024": 35.434,
    "qwen-14b-lora-4096": 44.658,
    "qwen-14b-lora-8192": 56.956,
    "qwen-14b-qlora-256": 14.841,
    "qwen-14b-qlora-512": 15.333,
    "qwen-14b-qlora-1024": 16.318,
    "qwen-14b-qlora-4096": 22.226,
    "qwen-14b-qlora-8192": 30.104,
    "qwen-72b-lora-zero3-4gpu-512": 48.720,
    "qwen-72b-lora-zero3-4gpu-1024": 50.323,
    "qwen-72b-lora-zero3-4gpu-4096": 59.939,
    "qwen-72b-qlora-256": 55.516,
    "qwen-72b-qlora-512": 56.282,
    "qwen-72b-qlora-1024": 57.812,
    "qwen-72b-qlora-4096": 66.995,
    "qwen-72b-qlora-8192": 79.238,
    "unsloth-hf-llama31-8b-qlora-12gb": 9.553,
    "unsloth-hf-llama31-8b-qlora-24gb": 21.375,
    "unsloth-hf-llama31-8b-qlora-48gb": 45.014,
    "swift-qwen-7b-lora-512": 16.679,
    "swift-qwen-7b-lora-1024": 18.126,
    "swift-qwen-7b-lora-2048": 21.020,
    "swift-qwen-7b-lora-4096": 26.808,
    "swift-qwen-7b-lora-8192": 38.383,
    "swift-qwen-14b-lora-512": 29.450,
    "swift-qwen-14b-lora-1024": 30.988,
    "swift-qwen-14b-lora-2048": 34.062,
    "swift-qwen-14b-lora-4096": 40.211,
    "swift-qwen-14b-lora-8192": 52.509,
    "swift-chatglm3-6b-lora-512": 12.989,
    "swift-chatglm3-6b-lora-1024": 13.679,
    "swift-chatglm3-6b-lora-2048": 15.060,
    "swift-chatglm3-6b-lora-4096": 17.821,
    "swift-chatglm3-6b-lora-8192": 23.342,
    "swift-yi-6b-lora-512": 12.658,
    "swift-yi-6b-lora-1024": 13.359,
    "swift-yi-6b-lora-2048": 14.762,
    "swift-yi-6b-lora-4096": 17.567,
    "swift-yi-6b-lora-8192": 23.178,
    "swift-yi-34b-lora-512": 68.659,
    "swift-yi-34b-lora-1024": 69.722,
    "swift-yi-34b-lora-2048": 71.849,
    "swift-yi-34b-lora-4096": 76.103,
    "swift-baichuan2-7b-lora-512": 16.036,
    "swift-baichuan2-7b-lora-1024": 17.260,
    "swift-baichuan2-7b-lora-2048": 19.709,
    "swift-baichuan2-7b-lora-4096": 24.607,
    "swift-baichuan2-7b-lora-8192": 34.402,
    "swift-baichuan2-13b-lora-512": 28.698,
    "swift-baichuan2-13b-lora-1024": 30.011,
    "swift-baichuan2-13b-lora-2048": 32.639,
    "swift-baichuan2-13b-lora-4096": 37.894,
    "swift-baichuan2-13b-lora-8192": 48.403,
    "swift-qwen-7b-gptq4-2048": 11.727,
    "swift-qwen-7b-gptq8-2048": 14.687,
    "swift-qwen-7b-bnb4-2048": 11.727,
    "swift-qwen-14b-gptq4-2048": 15.927,
    "swift-qwen-14b-gptq8-2048": 21.731,
    "swift-qwen-14b-bnb4-2048": 15.927,
    "swift-qwen-72b-gptq4-2048": 49.547,
    "swift-qwen-72b-gptq8-2048": 82.114,
    "swift-qwen-72b-bnb4-2048": 49.547,
    "swift-qwen-7b-full-512": 75.757,
    "swift-qwen-7b-full-1024": 76.007,
    "swift-qwen-7b-full-2048": 76.509,
    "swift-qwen-7b-full-4096": 77.511,
    "swift-qwen-7b-lora-2048-b2": 26.808,
    "swift-qwen-7b-lora-2048-b4": 38.383,
    "swift-qwen-7b-lora-2048-b8": 61.533,
    "swift-qwen-7b-lora-2048-fa-nockpt": 34.831,
    "swift-qwen-7b-lora-2048-eager-ckpt": 21.020,
    "swift-qwen-7b-lora-2048-eager-nockpt": 65.311,
    "swift-qwen-7b-lora-2048-r2-attn": 20.922,
    "swift-qwen-7b-lora-2048-r64-attn": 21.939,
    "swift-qwen-7b-lora-2048-r8-all": 21.201,
    "answerai-llama2-7b-qlora-fsdp-512": 3.998,
    "answerai-llama2-7b-qlora-fsdp-2048": 5.349,
    "answerai-llama2-7b-lora-fsdp-512": 9.330,
    "answerai-llama2-7b-lora-fsdp-2048": 10.681,
    "answerai-llama2-7b-qlora-fsdp-2048-b4": 10.753,
    "answerai-llama2-7b-qlora-fsdp-2048-b10": 21.562,
    "answerai-llama2-7b-lora-fsdp-2048-b4": 16.085,
    "answerai-llama2-7b-lora-fsdp-2048-b6": 19.688,
    "answerai-llama2-7b-qlora-ddp-2048-b8": 19.212,
    "answerai-llama2-7b-lora-ddp-2048-b4": 21.623,
    "answerai-yi-34b-qlora-fsdp-2048-b2": 23.542,
    "answerai-yi-34b-qlora-fsdp-offload-2048-b4": 21.190,
    "answerai-llama2-70b-qlora-fsdp-offload-2048-b2": 11.923,
    "answerai-llama2-7b-lora-fsdp-offload-2048-b10": 19.679,
    "answerai-llama2-7b-qlora-fsdp-offload-2048-b12": 22.650,
    "answerai-mistral-7b-qlora-fsdp-offload-2048-b12": 22.704,
    "answerai-mistral-7b-qlora-fsdp-offload-24576-b1": 22.704,
    "fms-mistral-7b-full-1gpu-b4": 67.444,
    "fms-mistral-7b-full-2gpu-b2": 33.722,
    "fms-mistral-7b-full-1gpu-b8": 67.444,
    "fms-mistral-7b-full-2gpu-b4": 33.722,
    "fms-mistral-7b-lora-1gpu-b4": 24.528,
    "fms-mistral-7b-lora-2gpu-b2": 13.565,
    "fms-mistral-7b-lora-1gpu-b8": 35.364,
    "fms-mistral-7b-lora-2gpu-b4": 18.983,
    "fms-mixtral-8x7b-lora-2gpu-b2": 54.910,
    "fms-mixtral-8x7b-lora-2gpu-b4": 60.328,
    "fms-mistral-7b-qlora-peft-1gpu-b4": 18.990,
    "fms-mistral-7b-qlora-peft-2gpu-b2": 8.248,
    "fms-mistral-7b-qlora-peft-1gpu-b8": 33.826,
    "fms-mistral-7b-qlora-peft-2gpu-b4": 13.666,
    "fms-mixtral-8x7b-qlora-peft-1gpu-b4": 37.949,
    "fms-mixtral-8x7b-qlora-peft-2gpu-b2": 18.912,
    "fms-mixtral-8x7b-qlora-peft-1gpu-b8": 52.785,
    "fms-mixtral-8x7b-qlora-peft-2gpu-b4": 24.330,
    "fms-llama2-70b-qlora-peft-2gpu-b2": 33.076,
    "fms-mistral-7b-qlora-accel-1gpu-b4": 14.990,
    "fms-mistral-7b-qlora-accel-2gpu-b2": 8.248,
    "fms-mistral-7b-qlora-accel-1gpu-b8": 25.826,
    "fms-mistral-7b-qlora-accel-2gpu-b4": 13.666,
    "fms-mixtral-8x7b-qlora-accel-1gpu-b4": 33.949,
    "fms-mixtral-8x7b-qlora-accel-2gpu-b2": 18.912,
    "fms-mixtral-8x7b-qlora-accel-1gpu-b8": 44.785,
    "fms-mixtral-8x7b-qlora-accel-2gpu-b4": 24.330,
    "fms-llama2-70b-qlora-accel-1gpu-b4": 62.114,
    "fms-llama2-70b-qlora-accel-2gpu-b2": 33.076,
    "fms-mistral-7b-gptq4-1gpu-b4": 14.990,
    "fms-mistral-7b-gptq4-2gpu-b2": 8.248,
    "fms-mistral-7b-gptq4-1gpu-b8": 25.826,
    "fms-mistral-7b-gptq4-2gpu-b4": 13.666,
    "fms-mixtral-8x7b-gptq4-1gpu-b4": 33.949,
    "fms-mixtral-8x7b-gptq4-2gpu-b2": 18.912,
    "fms-mixtral-8x7b-gptq4-1gpu-b8": 44.785,
    "fms-mixtral-8x7b-gptq4-2gpu-b4": 24.330,
    "fms-llama2-70b-gptq4-1gpu-b4": 62.114,
    "fms-llama2-70b-gptq4-2gpu-b2": 33.076,
    "peft-mmqa-llama32-3b-lora-r32": 26.430,
    "peft-mmqa-llama32-3b-lora-r64": 26.717,
    "peft-mmqa-llama32-3b-full": 38.710,
    "torchtitan-llama31-8b-fsdp-8gpu-b2": 96.359,
    "torchtitan-llama31-8b-fsdp-128gpu-b2": 85.316,
    "hfblog-octocoder-infer-bf16": 28.917,
    "hfblog-octocoder-infer-int8": 14.748,
    "hfblog-octocoder-infer-4bit": 9.392,
    "qwen25-sb-7b-bf16-in1": 14.725,
    "qwen25-sb-7b-gptqint8-in1": 8.648,
    "qwen25-sb-7b-gptqint4-in1": 5.728,
    "qwen25-sb-7b-bf16-in6144": 16.342,
    "qwen25-sb-7b-gptqint8-in6144": 10.265,
    "qwen25-sb-7b-gptqint4-in6144": 7.345,
    "qwen25-sb-7b-bf16-in14336": 18.498,
    "qwen25-sb-7b-gptqint8-in14336": 12.421,
    "qwen25-sb-7b-gptqint4-in14336": 9.501,
    "qwen25-sb-7b-bf16-in30720": 22.810,
    "qwen25-sb-7b-gptqint8-in30720": 16.733,
    "qwen25-sb-7b-gptqint4-in30720": 13.813,
    "qwen25-sb-14b-bf16-in1": 28.301,
    "qwen25-sb-14b-gptqint8-in1": 15.996,
    "qwen25-sb-14b-gptqint4-in1": 10.084,
    "qwen25-sb-14b-bf16-in6144": 30.669,
    "qwen25-sb-14b-gptqint8-in6144": 18.363,
    "qwen25-sb-14b-gptqint4-in6144": 12.450,
    "qwen25-sb-14b-bf16-in14336": 33.825,
    "qwen25-sb-14b-gptqint8-in14336": 21.519,
    "qwen25-sb-14b-gptqint4-in14336": 15.607,
    "qwen25-sb-14b-bf16-in30720": 40.137,
    "qwen25-sb-14b-gptqint8-in30720": 27.831,
    "qwen25-sb-14b-gptqint4-in30720": 21.919,
    "qwen25-sb-32b-bf16-in1": 62.153,
    "qwen25-sb-32b-gptqint8-in1": 33.090,
    "qwen25-sb-32b-gptqint4-in1": 19.126,
    "qwen25-sb-32b-bf16-in6144": 65.528,
    "qwen25-sb-32b-gptqint8-in6144": 36.465,
    "qwen25-sb-32b-gptqint4-in6144": 22.500,
    "qwen25-sb-32b-bf16-in14336": 70.028,
    "qwen25-sb-32b-gptqint8-in14336": 40.965,
    "qwen25-sb-32b-gptqint4-in14336": 27.000,
    "qwen25-sb-32b-bf16-in30720": 79.028,
    "qwen25-sb-32b-gptqint8-in30720": 49.965,
    "qwen25-sb-32b-gptqint4-in30720": 36.000,
    "qwen25-sb-72b-gptqint4-in1": 40.011,
    "qwen25-sb-72b-gptqint4-in6144": 44.201,
    "qwen25-sb-72b-gptqint4-in14336": 49.787,
    "deepseek-7b-infer-b1-s256": 13.046,
    "deepseek-7b-infer-b1-s512": 13.242,
    "deepseek-7b-infer-b1-s1024": 13.706,
    "deepseek-7b-infer-b1-s2048": 14.915,
    "deepseek-7b-infer-b1-s4096": 18.458,
    "deepseek-7b-infer-b2-s256": 13.219,
    "deepseek-7b-infer-b2-s512": 13.612,
    "deepseek-7b-infer-b2-s1024": 14.540,
    "deepseek-7b-infer-b2-s2048": 16.958,
    "deepseek-7b-infer-b2-s4096": 24.044,
    "deepseek-7b-infer-b4-s256": 13.567,
    "deepseek-7b-infer-b4-s512": 14.353,
    "deepseek-7b-infer-b4-s1024": 16.209,
    "deepseek-7b-infer-b4-s2048": 21.045,
    "deepseek-7b-infer-b8-s256": 14.261,
    "deepseek-7b-infer-b8-s512": 15.835,
    "deepseek-7b-infer-b8-s1024": 19.547,
    "deepseek-7b-infer-b8-s2048": 29.218,
    "deepseek-7b-infer-b16-s256": 15.651,
    "deepseek-7b-infer-b16-s512": 18.800,
    "deepseek-7b-infer-b16-s1024": 26.221,
    "glm4-9b-chat-bf16-in1000": 19.480,
    "glm4-9b-chat-bf16-in8000": 21.078,
    "glm4-9b-chat-bf16-in32000": 26.558,
    "glm4-9b-chat-bf16-in128000": 48.475,
    "glm4-9b-chat-int4-in1000": 7.669,
    "glm4-9b-chat-int4-in8000": 9.267,
    "glm4-9b-chat-int4-in32000": 14.746,
    "baichuan2-7b-load-fp16": 13.982,
    "baichuan2-7b-load-int8": 7.950,
    "baichuan2-7b-load-nf4": 5.114,
    "baichuan2-13b-load-fp16": 25.886,
    "baichuan2-13b-load-int8": 14.143,
    "baichuan2-13b-load-nf4": 8.588,
    "qwen2-7b-lf-lora-1024": 19.098,
    "qwen2-7b-lf-qlora-1024": 9.788,
    "cpl-gpt2-xl-ddp-amp-b6": 37.693,
    "cpl-gpt2-xl-zero3-b40": 39.650,
    "llmfs-gpt2-bf16-naive-attn-b8": 17.971,
    "llmfs-gpt2-bf16-flash-b8": 10.827,
}


def _before_after_rows(before_round: dict, mem: list[MemoryResult]) -> list[str]:
    """One table row per (set, split): median / max / rows before a formula round and now."""
    rows = []
    for (set_name, split), before in before_round.items():
        now = _summary([r.error for r in mem if r.set == set_name and r.split == split])
        rows.append(f"| {set_name} | {split} | {before[0]:.1%} / {before[1]:.1%} / {before[2]} | "
                    f"{now[0]:.1%} / {now[1]:.1%} / {now[2]} |")
    return rows


def _round4_reading(mem: list[MemoryResult]) -> list[str]:
    """The fourth formula round: what changed, and every earlier file before and after (all of them calibration)."""
    lines = ["Reading the fourth round (formulas only; every row of the first set and of new kinds 1-3 is calibration "
             "now; the round's held-out rows, collected apart, were evaluated once after it: \"Reading the fourth "
             "round's held-out evaluation\" below). Adopted, counted for every request: (1) under "
             "full recomputation the loss buffers and the recomputed layer are held one after the other (autograd "
             "runs the loss's nodes and frees their saved tensors before it reaches the last checkpointed layer, "
             "whose unpack hook recomputes it), so the larger of the two counts, not their sum; the recomputed layer "
             "carries its own backward's score-sized gradients under eager attention (one more set of the saved "
             "score bytes); the unsharded churn fraction, recomputed by its recipe on its three rows under that "
             "count, is 0.22 (was 0.11). (2) bitsandbytes 4-bit inference dequantises one weight matrix for the "
             "prompt's matmuls (MatMul4Bit; only a one-token input takes gemv_4bit), as training already counted. "
             "(3) errata state the foreach AdamW step on the fms-acceleration full fine-tunes and the torchtitan rows, "
             "which ran it (HF Trainer's adamw_torch on torch 2.4.1; torchtitan's foreach = not fused). Adopted, "
             "counted when the request states them, through five VramRequest fields (errata in "
             "tests/data/published_memory_errata.yaml state them on the frozen rows whose runs used them): `ac_option`, torchtitan's op-level selective checkpointing "
             "(`_save_list` and `_custom_policy` in parallelize_llama.py at 9dec370: wq, wv, w1, w2 and the "
             "flash-attention output with its log-sum-exp kept, the layer input held by the wrapper: 63,616 B per "
             "token per layer for Llama 3.1 8B) or every N-th layer checkpointed; `grads_to_none`, gradients freed "
             "after each step (torch >= 2.0 zero_grad default), so backward holds them only as the activations go "
             "and the peak is states + max(short-lived tensors, gradients + step buffer): the fms full fine-tunes "
             "come out at 0.0% at batch 4 and 8 alike; `kbit_recast_bf16`, TRL's SFTTrainer casting the embeddings "
             "and LM head back to bf16 after PEFT's upcast (peft_module_casting_to_bf16; the norms stay fp32, so the "
             "stream stays fp32: the 4.0 / 8.0 GiB the rows show); `bnb_double_quant` and `bnb_compute_fp32`, "
             "load_in_4bit's defaults (4.5 bits per weight, the dequantised matrix cast to fp32). Calibration before "
             "the round → after, median / max / rows:", "",
             "| set | split | before the round | after |", "|---|---|---|---|"]
    lines += _before_after_rows(BEFORE_ROUND4, mem)
    lines += ["", "Not adopted: the PEFT k-bit upcast is not over-counted once (1) holds and TRL's recast is stated (the "
              "fms Q-LoRA rows through PEFT: -1 to -6%); PEFT's MetaMathQA rows stay +24 to +60% (their batches are "
              "padded to the batch's longest sample, far below the 768-token cap the rows state: a length, not a "
              "formula); Baichuan2-13B's ALiBi bias (its remote code caches a heads × s × s mask in the activations' "
              "dtype and adds a batch × heads × s × s copy when a padding mask is passed: 2.5 GiB at 4096 tokens, "
              "10 GiB at 8192) accounts for part of its ms-swift rows' extra over Baichuan2-7B (3.0 and 16.4 GiB), "
              "but Baichuan2-7B (RoPE) misses by 9.6 / 11.1 GiB itself, so the miss is not ALiBi's alone; it needs a "
              "ModelSpec field naming the materialised bias (reported, not changed). torch AdamW's foreach default is "
              "not made the request's default: HF Trainer's default optim was transformers' per-parameter adamw_hf "
              "until huggingface/transformers PR #25109 (2023) and is adamw_torch_fused from torch 2.8 on (PR #37358), "
              "and neither builds the buffer, so the versions decide and the request states it.", ""]
    return lines


def _source_page(url: str) -> str:
    """A source's repository and page, without the commit: 'owner/repo path/to/page'."""
    return re.sub(r"/blob/[^/]+/", " ", url).removeprefix("https://github.com/")


def _round4_heldout_reading(kinds4: list[MemoryResult]) -> list[str]:
    """The fourth round's held-out file at its one evaluation (frozen figures), by source and by kind, against the
    targets, beside its figures now (spent: the fifth round read it as calibration)."""
    if not kinds4:
        return []
    rec = ROUND4_HELDOUT_FIRST_EVAL
    now, before = _summary([r.error for r in kinds4]), _summary([r.before_error for r in kinds4])

    def ok(s: tuple[float, ...]) -> str:
        med, mx = s[-2] <= TARGET_MEDIAN, s[-1] <= TARGET_MAX
        return "both met" if med and mx else "median met, max NOT met" if med else \
            "max met, median NOT met" if mx else "neither met"

    groups = _by_source_and_kind(kinds4)
    inference = sum(r.kind in ("inference", "inference-quantised") for r in kinds4)
    touched = sorted({e["id"] for e in load_errata() if e["file"] == HELDOUT_KINDS4_FILE.name})
    lines = ["### Reading the fourth round's held-out evaluation", "",
             f"`tests/data/published_memory_heldout_kinds4.yaml` ({now[2]} rows from {len(groups['source'])} pages of "
             "sources new to the project, frozen before the fourth round changed a formula; no erratum touched it at "
             "its evaluation), evaluated once, after the round's formula changes were settled on calibration rows "
             f"only. Targets: median ≤ {TARGET_MEDIAN:.0%}, max ≤ {TARGET_MAX:.0%}. At that one evaluation: median "
             f"{rec[0]:.1%}, max {rec[1]:.1%} → {ok(rec)} ({before[0]:.1%} / {before[1]:.1%} with the code as the "
             "file was frozen). The set is inference-heavy, as its collector reported: "
             f"{inference} of {now[2]} rows are inference or quantised inference. Rows over the max target then: "
             + ", ".join(f"{i} ({k}, {e:+.0%}; {b:+.0%} before)" for i, k, e, b in ROUND4_OVER_MAX_FIRST_EVAL)
             + ". The file is spent since: the fifth round read its misses as calibration"
             + (f" (errata after the evaluation: {', '.join(touched)})" if touched else "")
             + f", so the \"now\" columns (median {now[0]:.1%}, max {now[1]:.1%}) test nothing. By source:", "",
             "| source | rows | at the evaluation: median | max | before: median | before: max | targets then | "
             "now: median | now: max |",
             "|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    for src, rs in groups["source"].items():
        a, b = _summary([r.error for r in rs]), _summary([r.before_error for r in rs])
        n, e_med, e_max = ROUND4_BY_SOURCE_FIRST_EVAL[src]
        lines.append(f"| {src} | {n} | {e_med:.1%} | {e_max:.1%} | {b[0]:.1%} | {b[1]:.1%} | {ok((e_med, e_max))} | "
                     f"{a[0]:.1%} | {a[1]:.1%} |")
    lines += ["", "By kind:", "", "| kind | rows | at the evaluation: median | max | before: median | before: max | "
              "targets then | now: median | now: max |", "|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    for kind, rs in sorted(groups["kind"].items()):
        a, b = _summary([r.error for r in rs]), _summary([r.before_error for r in rs])
        n, e_med, e_max = ROUND4_BY_KIND_FIRST_EVAL[kind]
        lines.append(f"| {kind} | {n} | {e_med:.1%} | {e_max:.1%} | {b[0]:.1%} | {b[1]:.1%} | {ok((e_med, e_max))} | "
                     f"{a[0]:.1%} | {a[1]:.1%} |")
    lines.append("")
    return lines


def _round5_reading(mem: list[MemoryResult]) -> list[str]:
    """The fifth formula round (calibration only): what changed, every file before and after, the largest residuals."""
    pending = "logits_upcast" not in VramRequest.model_fields
    lines = ["### Reading the fifth round (calibration only)", "",
             "Every file is calibration in this round (round 4's held-out file is spent); the fifth round's held-out "
             "rows, aimed at pre-training and multi-GPU training, were collected apart and evaluated once after it "
             "(\"Reading the fifth round's held-out evaluation\" below). "
             "Adopted, for every request: the output layer's loss is held at two moments that never overlap, and "
             "the larger counts (`_logit_bytes` in tools/vram.py). In forward, as the loss is computed: the logits, "
             "their fp32 copy where the loss upcasts (HF `ForCausalLMLoss`: `logits.float()`), the shifted "
             "`.contiguous()` copy the loss reads (HF causal-LM heads of transformers before its loss_utils, Qwen "
             "(v1), ColossalAI's GPTLMLoss) and log-softmax's output. At the start of backward: log-softmax's saved "
             "output, nll_loss's gradient and log-softmax's gradient; the logits and their copies are gone by then, "
             "since autograd saves none of them (the cast and the slice save no input, log-softmax saves its result) "
             "and the step function returns the loss alone (HF Trainer `compute_loss` without `return_outputs`, a "
             "Lightning `training_step`, LLMs-from-scratch's `calc_loss_batch`; llama-recipes PR #41 measured the "
             "gain of \"not keeping logits alive\"). So the HF default over 16-bit logits stays max(2 + 4 + 2·4, 3·4) "
             "= 14 B per logit; a loss in the logits' own 16-bit dtype drops from 2 + 3·2 = 8 to max(2 + 2·2, 3·2) = 6 "
             "(Qwen (v1) and T5 under DeepSpeed, a plain bf16 loop); fp32 training from 16 to 12. Stated through "
             "errata (an existing field): LLMs-from-scratch's loop frees its gradients before every step "
             "(`optimizer.zero_grad()`, set_to_none by default on PyTorch 2.6), `grads_to_none` on its two rows. "
             "Calibration before the round → after, median / max / rows:", "",
             "| set | split | before the round | after |", "|---|---|---|---|"]
    lines += _before_after_rows(BEFORE_ROUND5, mem)
    before_err = {r.id: BEFORE_ROUND5_GIB[r.id] / r.measured_gib - 1 for r in mem if r.id in BEFORE_ROUND5_GIB}
    top_before = sorted(before_err.items(), key=lambda kv: -abs(kv[1]))[:10]
    top_now = sorted((r for r in mem if r.id in BEFORE_ROUND5_GIB), key=lambda r: -abs(r.error))[:10]
    lines += ["", "The ten largest residuals before the round and after it:", "",
              "| before: row | error | after: row | error |", "|---|---:|---|---:|"]
    for (bid, be), r in zip(top_before, top_now):
        lines.append(f"| {bid} | {_pct(be)} | {r.id} | {_pct(r.error)} |")
    lines += ["", "Why the pre-training rows missed, read from the runs' code (ColossalAI-Pytorch-lightning "
              "benchmark/gpt/model.py at 6a82b80; LLMs-from-scratch ch05/10_llm-training-speed/01_opt_single_gpu.py "
              "at 28c65cd): both compute the loss in the script, on the 16-bit logits, with no `.float()` "
              "(ColossalAI calls GPT2LMHeadModel without labels and applies its own `GPTLMLoss`; the book's "
              "`calc_loss_batch` runs `cross_entropy(logits.flatten(0, 1), …)` on bf16 logits), while the estimate "
              "takes the gpt2 family's current HF loss, which upcasts: 14 B per logit over 40 × 1024 × 50,257 logits "
              "is 26.8 GiB of the ZeRO-3 row's 39.7 GiB. Neither row can say so: "
              + ("a request field `logits_upcast` (False: the loss runs on the logits' own dtype; None: the family's "
                 "HF implementation) is asked of tools/schemas.py, and tools/vram.py already reads it; with it and "
                 "the 6 B loss the ZeRO-3 row reads -0.5%, the book's rows +13% (SDPA) and +20% (eager), measured "
                 "on a request carrying the field (the errata wait for the field). " if pending else
                 "`VramRequest.logits_upcast` states it, and errata give the four rows `logits_upcast: false`. ")
              + "Nothing else was changed for them: ZeRO-3's gathered layers and buckets (DeepSpeed defaults through "
              "Lightning's DeepSpeedStrategy) are under 0.5 GiB of the 24.8 GiB peak, and at batch 40 with full "
              "recomputation the recomputed layer (eager scores included) is about as large as the 6 B loss, which "
              "the estimate already holds one after the other; the book's eager-attention rows differ from its SDPA "
              "rows by 5.66 GiB reserved, against 5.63 GiB of saved scores (12 layers × 8 × 12 heads × 1024² × 5 B: "
              "softmax output, dropout mask, dropout output), so the score term holds at 1k tokens; what stays over "
              "is the churn allowance (0.22 of the short-lived tensors), which this loop may not need (below).", "",
              "Not adopted: (a) dropping the churn allowance for fixed-shape pre-training (torchtitan's two rows and "
              "the book's would each land within 5%, but Answer.AI's DDP rows, which train on fixed-length dummy "
              "samples and report peak reserved memory too, need it: without it they read about -20% and -15% "
              "instead of -8% and -2%; so the fixed shape alone does not explain it; torchtitan's FSDP2, whose docs "
              "say it avoids FSDP1's record_stream, would take the unsharded allowance instead of the sharded one "
              "(+12% / +22%), but the request cannot tell FSDP2 from FSDP1); (b) 12 B per logit where the labels, "
              "not the logits, are shifted "
              "(torchtitan, transformers' current ForCausalLMLoss): the request cannot say which loss version ran, "
              "and the HF rows that calibrate the 14 B fall with it (fms-acceleration's LoRA, Q-LoRA and GPTQ-LoRA "
              "rows "
              "from 0…-8% to -2…-15%, Unsloth's HF rows by 3 to 12 points, while torchtitan's would go from +17/+27% "
              "to +11/+20%); (c) counting "
              "SDPA's saved output beside the out-projection's contiguous copy (torch SDPA paths transpose and copy, "
              "FlashAttention-2's (batch, seq, heads, dim) output is reshaped as a view): the request's "
              "`flash_attention` does not tell the two apart, and the term is 2h of about 34h bytes per token per "
              "layer; (d) the Qwen README's ZeRO-2 multinode LoRA rows move from -13/-14% to -19/-22% at 4096-8192 "
              "tokens (totals over 4 GPUs on 2 nodes, grade B), while its single-GPU Q-LoRA rows of the same model "
              "and lengths, also without autocast, now grow as measured (+11.0 GiB from 256 to 8192 tokens against "
              "+11.2 measured; +13.9 before).", ""]
    return lines


# Every row the sixth round moved (beyond 0.2 points): its error at commit 3004336, before the round.
BEFORE_ROUND6_MOVED = {
    "dlperf-megatron-dp-1x1x1-2-1536x16": -0.0817,
    "dlperf-megatron-dp-8x1x1-16-1536x16": 0.0261,
    "dlperf-megatron-dp-16x1x1-32-1536x16": 0.0565,
    "dlperf-megatron-dp-32x1x1-64-1536x16": 0.0565,
    "dlperf-megatron-mp-1x1x1-8-768x12": 0.8047,
    "dlperf-megatron-mp-1x8x1-16-1536x16": -0.218,
    "dlperf-megatron-mp-1x16x1-16-3072x16": 0.3915,
    "dlperf-megatron-mp-1x32x1-16-3072x32": 1.5515,
    "dlperf-megatron-2d-2x4x1-16-1536x16": -0.0611,
    "dlperf-megatron-2d-4x2x1-16-1536x16": 0.0402,
    "dlperf-megatron-2d-2x8x1-16-2304x24": -0.186,
    "dlperf-megatron-2d-4x8x1-32-2304x24": -0.1901,
    "dlperf-megatron-dp-pp-8x1x4-512-1536x16": -0.087,
    "dlperf-megatron-mp-pp-1x8x4-512-2304x24": 0.0818,
    "dlperf-megatron-2d-pp-2x4x4-512-2304x24": 0.1076,
    "dlperf-megatron-2d-pp-2x8x2-512-2304x24": -0.0642,
    "dlperf-ds-gpt2-zero0-8gpu": -0.0875,
    "dlperf-ds-gpt2-zero0-16gpu": -0.0845,
    "dlperf-ds-gpt2-zero0-32gpu": -0.0845,
    "lit-fabric-fsdpguide-fullshard-cpuoffload": -0.7104,
    "lit-trainer-fsdpguide-fullshard-cpuoffload": -0.7067,
    "lit-tp-example-fabric-llama2-7b-tp2-fsdp2": 0.877,
}


def _round6_reading(mem: list[MemoryResult]) -> list[str]:
    """The sixth formula round (calibration only): what changed and why, every file before and after, each row it
    moved, the largest residuals, what was not adopted. The sixth round's held-out rows (new kinds 6), frozen before it
    and evaluated after it, are not part of it: they have their own reading (and so, later, do the seventh round's)."""
    mem = [r for r in mem if r.set not in ("new kinds 6", "new kinds 7", "new kinds 8", "new kinds 9", "new kinds 10",
                                           "new kinds 11", "new kinds 12", "new kinds 13")]
    file_of = {i: path.name for paths in MEMORY_SETS.values() for path in paths for i in _file_ids(path)}
    by_id = {r.id: r for r in mem}
    lines = ["### Reading the sixth round (calibration only)", "",
             "Every file is calibration in this round: round 5's two held-out files are spent since their one "
             "evaluation (recorded above as it was generated then); a sixth held-out round was collected apart, "
             "frozen before the round and not seen by it, and evaluated once after it (\"Reading the sixth round's "
             "held-out evaluation\" below). Adopted, each read from the framework's code and checked on all rows at once:", "",
             "1. A 16-bit model whose fp32 master copy lives inside the optimizer, stated as `master_weights: fp32` "
             "with `autocast: false` over unsharded parameters outside DeepSpeed ZeRO-1/2/3 (without autocast, fp32 "
             "weights would compute in fp32, so the model itself is 16-bit): Megatron-LM --fp16 at 8aa4619 "
             "(megatron/model/module.py FP16Module; megatron/optimizer/optimizer.py FP16OptimizerWithFP16Params: "
             "`param.detach().clone().float()` masters, and `_copy_model_grads_to_main_grads` into fp32 "
             "`main_param.grad` buffers that its zero_grad never frees). Per parameter 2 + 2 + 4 + 4 B + Adam 8, the "
             "activations at 16-bit element sizes (the layer inputs kept under full recomputation 2 B, not AMP's 4), "
             "the local DDP's coalesced copy of the 16-bit gradients 2 B (megatron/model/distributed.py "
             "`_flatten_dense_tensors`). Only DLPerf's rows state that combination (the `tools/vram.py` branch "
             "`half_model`). DeepSpeed's stage-0 fp16 optimizer of DLPerf's ZeRO-0 rows (DeepSpeed 7d4d742, "
             "deepspeed/runtime/fp16/fused_optimizer.py FP16_Optimizer: flat fp16 weights, `clone().float()` flat "
             "masters, fp32 flat gradients built at the step and freed after it) is the same layout but for those "
             "gradients, which it holds only during the step; the request does not tell the two apart, and for "
             "GPT-2 small they are 0.46 GiB of 15 GiB.",
             "2. `VramRequest.vocab_parallel_loss`: Megatron's `vocab_parallel_cross_entropy(output.float())` "
             "(megatron/model/gpt_model.py line 60; megatron/mpu/cross_entropy.py: `sub_`, `exp(out=)`, `div_` in the "
             "fp32 copy, saved for backward; backward in place, then cast back to a 16-bit gradient): 16-bit logits + "
             "fp32 copy at both moments, 6 B per logit over the TP-split vocabulary. Errata state it on DLPerf's 16 "
             "Megatron-LM rows (DLPerf's script passes no --fp16-lm-cross-entropy). DLPerf's DeepSpeed rows run "
             "DeepSpeedExamples' older Megatron-LM (a79272c), whose loss clones the fp32 copy and exponentiates out of "
             "place (mpu/cross_entropy.py: `logits = vocab_parallel_logits.clone()`, `exp_logits = logits.exp()`): "
             "2 + 4 + 4 + 4 = 14 B in forward, what the gpt2 family's count already gives, so they state nothing.",
             "3. A published `shape` for `params` rows (benchmarks/accuracy.py `RowShape`: family, layers, hidden, "
             "heads, MLP width, padded vocabulary), read by `resolve_model` instead of the assumed decoder; errata give "
             "DLPerf's 15 `params` rows the shapes their locators publish (16 × 1536, 16 and 32 × 3072, 24 × 2304 "
             "where 19 × 1536, 28 × 2304, 32 × 3072 and 26 × 2176 were assumed), Megatron's GPT block (GELU 4h, "
             "LayerNorm, dropout 0.1: family gpt2) and the vocabulary their `params` imply (50,304 to 53,248, "
             "--make-vocab-size-divisible-by 128 × TP).",
             "4. fp32 training under FSDP or ZeRO-3 gathers fp32: without a MixedPrecision policy FSDP all-gathers the "
             "flat parameter, builds the unsharded gradient and reduce-scatters it in the parameter's dtype "
             "(torch/distributed/fsdp/_flat_param.py FlatParamHandle), so the gathered layers, the root unit and the "
             "gradient buffers count 4 B, not 16-bit's 2 (Lightning's FSDP guides, the FLAN-T5 fp32 ZeRO-3 bounds).",
             "5. An erratum on `lit-tp-example-fabric-llama2-7b-tp2-fsdp2`'s measure: at 0c8a193, the commit that wrote "
             "the README's 17.95 GB, examples/fabric/tensor_parallel/train.py line 72 printed "
             "`torch.cuda.max_memory_reserved()`; 987c2c4 switched the print to max_memory_allocated and left the "
             "figure. Read as reserved memory it is further from the estimate, not nearer; the same run's code says why "
             "(below, (c)).", "",
             "Calibration before the round (commit 3004336) → after, median / max / rows:", "",
             "| file | before the round | after |", "|---|---|---|"]
    lines += _formula_round_tables(mem, file_of, by_id, BEFORE_ROUND6, (0.062, 1.552, 347), BEFORE_ROUND6_MOVED,
                                   BEFORE_ROUND6_TOP)
    megatron = [r for r in mem if r.id.startswith("dlperf-megatron")]
    m_now = _summary([r.error for r in megatron])
    m_before = _summary([BEFORE_ROUND6_MOVED.get(r.id, r.error) for r in megatron])
    lines += ["", f"What it shows. DLPerf's Megatron-LM page (16 rows, grade C, nvidia-smi read): median "
              f"{m_before[0]:.1%} → {m_now[0]:.1%}, max {m_before[1]:.1%} → {m_now[1]:.1%}. The "
              "data-parallel rows without pipeline stages, the TP-2 row and the GPT-2-small row sit within 6% (GPT-2 "
              "small: +80% → -2%, its 14 B loss over 8 × 2,048 × 50k logits was most of the estimate); the "
              "pipeline-parallel rows and the TP 4, 8 and 16 rows now read 16-49% under, and the TP 32 row 48% "
              "over. That row's figure (8.63 GiB) is below what the published configuration holds by "
              "Megatron's code before any recomputation: 32 checkpointed layer inputs of 16 × 2,048 × 3,072 in fp16 "
              "(6.0 GiB, replicated on every TP rank: mpu/random.py CheckpointFunction saves `args` whole unless "
              "--distribute-checkpointed-activations) and 20 B per parameter of its 3.8B / 32 (2.2 GiB); the 3,072 "
              "shapes' scripts are not committed, so whether they distributed the checkpoints is unknown. With the "
              "code-true element sizes the TP 4-16 rows hold more than the estimate, and no term found in the code "
              "read this round makes up the gap (Megatron's attention keeps its fp16 scores twice during forward, "
              "`matmul_result` then `attention_scores`, which the recomputed layer's count about covers; NCCL's "
              "buffers are a few hundred MiB per communicator); the rows disagree in sign at TP 16 and TP 32, which "
              "no single missing term explains. DeepSpeed's ZeRO-0 rows move from -9% to -21% with the 16-bit "
              "activations their engine runs (no checkpointing: the layers' saved tensors dominate), a residual the "
              "round leaves open. Lightning's FSDP + CPU-offload rows gain the fp32 root unit and gathered layers "
              "(-71% → -47%).", "",
              "Not adopted: (a) `grads_to_none` on the Megatron rows (MegatronOptimizer.zero_grad(set_to_none=True) "
              "frees the 16-bit gradients before each step, training.py line 587): true of the code, but with the "
              "TP rows' missing term unknown its effect cannot be checked on them, and it moves 14 of the 16 rows "
              "further from their figures; it waits until that term is found; (b) what FSDP1 keeps on the GPU with "
              "`CPUOffload(offload_params=True)` beyond the gathered units (the guide's 1B demo Transformer is "
              "64 nn.TransformerEncoder/DecoderLayer units of 12.6-16.8M parameters and an untied 33,278-word "
              "embedding and decoder in the root unit, while the estimate assumes a 22 × 1,792 decoder for its count): "
              "FlatParamHandle.pre_unshard copies each shard to the GPU for the all-gather and drops it at reshard, "
              "and the reduce-scattered gradient is copied to its pinned `_cpu_grad`; nothing read accounts for the "
              "2.8 GiB the guide reports, and the row schema's `shape` cannot yet describe an nn.Transformer "
              "encoder-decoder; (c) the Fabric TP example (+100% as reserved; the Trainer example of the same model, "
              "layout and batch reads -2%) measured a run whose optimizer held nothing: at 0c8a193 train.py builds "
              "`torch.optim.AdamW(model.parameters(), foreach=True)` inside `fabric.init_module(empty_init=True)`, "
              "over the meta-device parameters, before `fabric.setup(model, optimizer)` replaces them with sharded "
              "DTensors (Fabric's `_validate_setup` refused meta-device optimizers only for FSDPStrategy, not for "
              "ModelParallelStrategy), so AdamW kept no states and never stepped the real parameters; 9455871 "
              "(#19852) moved the optimizer after `fabric.setup` and left the README's figure. The missing AdamW "
              "states alone are 8 B × 6.7B / 4 = 12.5 GiB per GPU. The request cannot state a run without optimizer "
              "states, so no erratum can make the row mean what ran; it stays, flagged here, for the lead to keep or "
              "leave out.", ""]
    return lines


def _targets_met(med: float, mx: float) -> str:
    ok_med, ok_max = med <= TARGET_MEDIAN, mx <= TARGET_MAX
    return "both met" if ok_med and ok_max else "median met, max NOT met" if ok_med else \
        "max met, median NOT met" if ok_max else "neither met"


# The fifth round's held-out reading as generated at its one evaluation (commit 3004336), frozen when the sixth formula
# round made both files calibration (spent): its figures are that evaluation's, not the code's now.
ROUND5_HELDOUT_READING_AT_EVAL = (
    "### Reading the fifth round's held-out evaluation",
    '',
    "The fifth round's held-out set, 68 rows from 12 pages of 7 sources new to the project, collected apart in two batches under one split rule (batch 5 (`published_memory_heldout_kinds5.yaml`): 49 rows; batch 5b (`published_memory_heldout_kinds5b.yaml`): 19 rows) and frozen by digest (tests/data/held_out_freezes.md) before the fifth round changed a formula (commit dd1b485), was evaluated once, after that round's changes were settled on calibration rows only; no erratum touches either file. The two batches are one set with one evaluation: the same round, rule, freeze and targets; they are told apart below. Targets: median ≤ 15%, max ≤ 35%. At this evaluation: median 7.6% (target met), max 155.2% (target MISSED); 62 of 68 rows within 35%. Before the round (the code as the files were frozen, commit d820525: `BASELINE5_GIB`): median 7.6%, max 155.1%, 62 of 68 within 35%. The round's formula changes moved no row of this set beyond the 0.01 GiB rounding of `BASELINE5_GIB` (its loss changes reach 16-bit losses of families that keep their dtype, which no row here is, the new `logits_upcast` field, which no row states, and fp32 training's logits, a few MiB in these rows' samples of 1 to 35 tokens), so the before/after differences in the tables are that rounding. The set holds 38 pre-training rows, 27 inference or quantised-inference rows and 3 fine-tuning rows. Rows over the max target: dlperf-megatron-mp-1x32x1-16-3072x32 (pretrain-tp, +155%; +155% before), lit-tp-example-fabric-llama2-7b-tp2-fsdp2 (pretrain-tp-dp, +88%; +88% before), dlperf-megatron-mp-1x1x1-8-768x12 (pretrain-single-gpu, +80%; +80% before), lit-fabric-fsdpguide-fullshard-cpuoffload (pretrain-fsdp-offload, -71%; -71% before), lit-trainer-fsdpguide-fullshard-cpuoffload (pretrain-fsdp-offload, -71%; -71% before), dlperf-megatron-mp-1x16x1-16-3072x16 (pretrain-tp, +39%; +39% before).",
    '',
    'By batch:',
    '',
    '| batch | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| 5 | 49 | 7.8% | 155.2% | median met, max NOT met | 7.8% | 155.1% | median met, max NOT met |',
    '| 5b | 19 | 2.4% | 87.7% | median met, max NOT met | 2.4% | 87.7% | median met, max NOT met |',
    '',
    'By source page:',
    '',
    '| source page | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| Oneflow-Inc/DLPerf Megatron-LM/README.md | 16 | 8.4% | 155.2% | median met, max NOT met | 8.4% | 155.1% | median met, max NOT met |',
    '| Oneflow-Inc/DLPerf DeepSpeed/Megatron-LM/README.md | 6 | 18.3% | 28.2% | max met, median NOT met | 18.3% | 28.2% | max met, median NOT met |',
    '| turboderp/exllama README.md | 7 | 1.9% | 22.4% | both met | 1.8% | 22.4% | both met |',
    '| casper-hansen/AutoAWQ README.md | 10 | 9.2% | 19.6% | both met | 9.2% | 19.6% | both met |',
    '| premAI-io/benchmarks README.md | 10 | 2.6% | 18.9% | both met | 2.6% | 18.9% | both met |',
    '| Lightning-AI/pytorch-lightning docs/source-fabric/advanced/model_parallel/fsdp.rst | 5 | 16.9% | 71.0% | neither met | 17.0% | 71.0% | neither met |',
    '| Lightning-AI/pytorch-lightning docs/source-pytorch/advanced/model_parallel/fsdp.rst | 5 | 17.0% | 70.7% | neither met | 17.0% | 70.6% | neither met |',
    '| Lightning-AI/pytorch-lightning examples/fabric/tensor_parallel/README.md | 1 | 87.7% | 87.7% | neither met | 87.7% | 87.7% | neither met |',
    '| Lightning-AI/pytorch-lightning examples/pytorch/tensor_parallel/README.md | 1 | 2.4% | 2.4% | both met | 2.4% | 2.4% | both met |',
    '| Lightning-AI/pytorch-lightning docs/source-fabric/advanced/model_parallel/tp.rst | 4 | 1.0% | 16.1% | both met | 0.8% | 15.9% | both met |',
    '| mscherrmann/mscherrmann.github.io assets/jupyter/testGPUMemoryBertTraining.ipynb | 1 | 1.1% | 1.1% | both met | 1.1% | 1.1% | both met |',
    '| axolotl-ai-cloud/axolotl examples/llama-2/README.md | 2 | 0.9% | 1.5% | both met | 0.9% | 1.6% | both met |',
    '',
    'By kind:',
    '',
    '| kind | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| encoder-full-single-gpu | 1 | 1.1% | 1.1% | both met | 1.1% | 1.1% | both met |',
    '| inference | 4 | 2.3% | 3.1% | both met | 2.3% | 3.1% | both met |',
    '| inference-quantised | 23 | 5.7% | 22.4% | both met | 5.6% | 22.4% | both met |',
    '| lora-quantised | 1 | 0.3% | 0.3% | both met | 0.3% | 0.3% | both met |',
    '| pretrain-ddp | 10 | 7.0% | 19.7% | both met | 7.1% | 19.7% | both met |',
    '| pretrain-fsdp | 2 | 8.5% | 16.9% | both met | 8.5% | 17.0% | both met |',
    '| pretrain-fsdp-offload | 2 | 70.9% | 71.0% | neither met | 70.8% | 71.0% | neither met |',
    '| pretrain-pp | 4 | 8.4% | 10.8% | both met | 8.4% | 10.8% | both met |',
    '| pretrain-single-gpu | 3 | 8.2% | 80.5% | median met, max NOT met | 8.2% | 80.5% | median met, max NOT met |',
    '| pretrain-tp | 6 | 18.9% | 155.2% | neither met | 18.8% | 155.1% | neither met |',
    '| pretrain-tp-dp | 6 | 12.4% | 87.7% | median met, max NOT met | 12.3% | 87.7% | median met, max NOT met |',
    '| pretrain-zero1 | 3 | 28.0% | 28.2% | max met, median NOT met | 28.0% | 28.2% | max met, median NOT met |',
    '| pretrain-zero2 | 2 | 17.2% | 17.3% | max met, median NOT met | 17.2% | 17.3% | max met, median NOT met |',
    '| qlora-kbit-prepare | 1 | 1.5% | 1.5% | both met | 1.6% | 1.6% | both met |',
    '',
    'By grade:',
    '',
    '| grade | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| A | 13 | 7.8% | 87.7% | median met, max NOT met | 7.8% | 87.7% | median met, max NOT met |',
    '| B | 21 | 4.6% | 71.0% | median met, max NOT met | 4.6% | 71.0% | median met, max NOT met |',
    '| C | 34 | 7.3% | 155.2% | median met, max NOT met | 7.3% | 155.1% | median met, max NOT met |',
)

# The sixth round's held-out reading as generated at its one evaluation (commit 773eaa0, the code of 4d3abab), frozen
# when the seventh formula round made the file calibration (spent): its figures are that evaluation's, not the code's
# now; the live figures are printed after it, under "Since the evaluation (sixth round)" (`_round6_since_evaluation`).
ROUND6_HELDOUT_READING_AT_EVAL = (
    "### Reading the sixth round's held-out evaluation",
    '',
    "The sixth round's held-out set (`published_memory_heldout_kinds6.yaml`), 35 rows from 2 pages of 2 sources new to the project, frozen by digest (tests/data/held_out_freezes.md, commit da77df2) before the sixth round changed a formula (commit 4d3abab), was evaluated once, after that round's changes were settled on calibration rows only; no erratum touches the file. It holds 27 single-GPU fine-tuning rows (full, LoRA, QLoRA) at long sequence and 8 rows with FSDP + CPU parameter offload, all on catalog models (5 kinds; by measure: reserved 34, allocated 1). Targets: median ≤ 15%, max ≤ 35%. At this evaluation: median 12.9% (target met), max 41.0% (target MISSED); 32 of 35 rows within 35%. Before the round (the code as the file was frozen, commit da77df2: `BASELINE6_GIB`): median 12.9%, max 41.0%, 32 of 35 within 35%. The round's formula changes moved no row of this set beyond the 0.01 GiB rounding of `BASELINE6_GIB` (its 16-bit-model layout needs `master_weights: fp32` with `autocast: false`, and these rows train without master weights; no row states `vocab_parallel_loss` or gives `params`, which the published shapes are for; the fp32 FSDP gathers are for fp32 training, and the FSDP rows here train in bf16), so the before/after differences in the tables are that rounding. Rows over the max target: ult-h100-llama2-13b-full-fsdp-offload (full-sharded-offload, -41%; -41% before), ult-rtxpro6000-llama2-13b-full-fsdp-offload (full-sharded-offload, -41%; -41% before), ult-a100-llama2-13b-full-fsdp-offload (full-sharded-offload, -41%; -41% before).",
    '',
    'By source page:',
    '',
    '| source page | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| ljm565/universal-llm-trainer docs/gpu_test.md | 33 | 12.9% | 41.0% | median met, max NOT met | 12.9% | 41.0% | median met, max NOT met |',
    '| LambdaLabsML/distributed-training-guide 10-training-llama-405b/README.md | 2 | 8.3% | 13.8% | both met | 8.3% | 13.8% | both met |',
    '',
    'By kind:',
    '',
    '| kind | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| full-sharded-offload | 5 | 41.0% | 41.0% | neither met | 41.0% | 41.0% | neither met |',
    '| full-single-gpu | 7 | 3.8% | 12.9% | both met | 3.8% | 12.9% | both met |',
    '| lora-long-seq | 10 | 4.1% | 9.4% | both met | 4.1% | 9.4% | both met |',
    '| lora-sharded-offload | 3 | 14.7% | 15.9% | both met | 14.7% | 16.0% | both met |',
    '| qlora-kbit-prepare | 10 | 25.8% | 27.2% | max met, median NOT met | 25.8% | 27.2% | max met, median NOT met |',
    '',
    'By grade:',
    '',
    '| grade | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| B | 2 | 8.3% | 13.8% | both met | 8.3% | 13.8% | both met |',
    '| C | 33 | 12.9% | 41.0% | median met, max NOT met | 12.9% | 41.0% | median met, max NOT met |',
)

# The sixth formula round (calibration only), "before": the code of commit 3004336 (the working tree as the round began),
# every file: (median |err|, max |err|, rows), and its ten largest residuals. Measured by `python benchmarks/accuracy.py`
# at that commit; the "after" figures are computed live.
BEFORE_ROUND6 = {
    "published_memory.yaml": (0.049, 0.157, 26), "published_memory_kinds.yaml": (0.058, 0.307, 5),
    "published_memory_heldout_kinds.yaml": (0.053, 0.218, 15), "published_memory_kinds2.yaml": (0.060, 0.216, 34),
    "published_memory_heldout_kinds2.yaml": (0.118, 0.651, 73), "published_memory_heldout_kinds3.yaml": (0.031, 0.602, 47),
    "published_memory_heldout_kinds4.yaml": (0.061, 0.297, 79), "published_memory_heldout_kinds5.yaml": (0.078, 1.552, 49),
    "published_memory_heldout_kinds5b.yaml": (0.024, 0.877, 19),
}
def _formula_round_tables(mem, file_of, by_id, before_files, before_all, moved, before_top) -> list[str]:
    """A formula round's calibration before → after per file and overall, every row it moved, and the ten largest
    residuals before and after (the tables each round's reading prints under its text)."""
    lines = []
    for name, (b_med, b_max, n) in before_files.items():
        a = _summary([r.error for r in mem if file_of.get(r.id) == name])
        lines.append(f"| {name} | {b_med:.1%} / {b_max:.1%} / {n} | {a[0]:.1%} / {a[1]:.1%} / {a[2]} |")
    a, (b_med, b_max, n) = _summary([r.error for r in mem]), before_all
    lines.append(f"| all | {b_med:.1%} / {b_max:.1%} / {n} | {a[0]:.1%} / {a[1]:.1%} / {a[2]} |")
    lines += ["", "Every row the round moved:", "", "| row | measure | before | after |", "|---|---|---:|---:|"]
    for rid, before in moved.items():
        r = by_id[rid]
        lines.append(f"| {rid} | {r.measure} | {_pct(before)} | {_pct(r.error)} |")
    top_now = sorted(mem, key=lambda r: -abs(r.error))[:10]
    lines += ["", "The ten largest residuals before the round and after it:", "",
              "| before: row | error | after: row | error |", "|---|---:|---|---:|"]
    for (bid, be), r in zip(before_top, top_now):
        lines.append(f"| {bid} | {_pct(be)} | {r.id} | {_pct(r.error)} |")
    return lines


BEFORE_ROUND6_TOP = (
    ("dlperf-megatron-mp-1x32x1-16-3072x32", 1.552), ("lit-tp-example-fabric-llama2-7b-tp2-fsdp2", 0.877),
    ("dlperf-megatron-mp-1x1x1-8-768x12", 0.805), ("lit-fabric-fsdpguide-fullshard-cpuoffload", -0.710),
    ("lit-trainer-fsdpguide-fullshard-cpuoffload", -0.707), ("swift-chatglm3-6b-lora-8192", -0.651),
    ("peft-mmqa-llama32-3b-lora-r32", 0.602), ("peft-mmqa-llama32-3b-lora-r64", 0.598),
    ("swift-qwen-7b-bnb4-2048", -0.508), ("swift-yi-6b-lora-8192", -0.471),
)

# The breakdowns of a held-out round's one evaluation: (title, group key, column name, row order)
HELDOUT_GROUP_TABLES = (("By source page", "source", "source page", None),
                        ("By kind", "kind", "kind", sorted), ("By grade", "grade", "grade", sorted))


def _group_tables(groups: dict[str, dict[str, list[MemoryResult]]], tables: tuple,
                  before: str = "before", within: bool = False) -> list[str]:
    """One table per breakdown: rows, median and max against the targets, now and `before` (each row's before_gib);
    with `within`, also how many rows are within the max target, now and before (the eighth round on)."""
    lines: list[str] = []
    share = f" within {TARGET_MAX:.0%} |" if within else ""
    for label, key, column, order in tables:
        items = groups[key].items()
        lines += [f"{label}:", "", f"| {column} | rows | median | max |{share} targets | {before}: median | "
                  f"{before}: max |{share and f' {before}:' + share} targets {before} |",
                  "|---|---:|---:|---:|" + ("---:|" if within else "") + "---|---:|---:|" + ("---:|" if within else "")
                  + "---|"]
        for name, rs in (order(items) if order else items):
            a, b = _summary([r.error for r in rs]), _summary([r.before_error for r in rs])
            n_now = f" {sum(abs(r.error) <= TARGET_MAX for r in rs)} of {a[2]} |" if within else ""
            n_before = f" {sum(abs(r.before_error) <= TARGET_MAX for r in rs)} of {b[2]} |" if within else ""
            lines.append(f"| {name} | {a[2]} | {a[0]:.1%} | {a[1]:.1%} |{n_now} {_targets_met(a[0], a[1])} | "
                         f"{b[0]:.1%} | {b[1]:.1%} |{n_before} {_targets_met(b[0], b[1])} |")
        lines.append("")
    return lines


def _round5_heldout_reading(kinds5: list[MemoryResult]) -> list[str]:
    """The fifth round's held-out files at their one evaluation: overall, by batch, source page, kind and grade, against
    the targets, beside the estimate with the code as the files were frozen (`BASELINE5_GIB`)."""
    if not kinds5:
        return []
    now, before = _summary([r.error for r in kinds5]), _summary([r.before_error for r in kinds5])
    batch_of = {i: name for name, path in ROUND5_BATCHES.items() for i in _file_ids(path)}
    groups: dict[str, dict[str, list[MemoryResult]]] = {"batch": {}, "source": {}, "kind": {}, "grade": {}}
    for r in kinds5:
        groups["batch"].setdefault(batch_of[r.id], []).append(r)
        groups["source"].setdefault(_source_page(r.source), []).append(r)
        groups["kind"].setdefault(r.kind or "", []).append(r)
        groups["grade"].setdefault(r.grade or "", []).append(r)
    repos = {page.split(" ")[0] for page in groups["source"]}
    names = {path.name for path in ROUND5_BATCHES.values()}
    touched = sorted({e["id"] for e in load_errata() if e["file"] in names})
    over = sorted((r for r in kinds5 if abs(r.error) > TARGET_MAX), key=lambda r: -abs(r.error))
    pretrain = sum((r.kind or "").startswith("pretrain") for r in kinds5)
    inference = sum((r.kind or "").startswith("inference") for r in kinds5)
    within = sum(abs(r.error) <= TARGET_MAX for r in kinds5)
    within_before = sum(abs(r.before_error) <= TARGET_MAX for r in kinds5)
    moved = [r for r in kinds5 if abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # BASELINE5_GIB is rounded to 0.01
    said = lambda ok: "met" if ok else "MISSED"  # noqa: E731
    batches = "; ".join(f"batch {b} (`{ROUND5_BATCHES[b].name}`): {len(rs)} rows" for b, rs in groups["batch"].items())
    lines = ["### Reading the fifth round's held-out evaluation", "",
             f"The fifth round's held-out set, {now[2]} rows from {len(groups['source'])} pages of {len(repos)} "
             f"sources new to the project, collected apart in two batches under one split rule ({batches}) and frozen "
             "by digest (tests/data/held_out_freezes.md) before the fifth round changed a formula (commit dd1b485), "
             "was evaluated once, after that round's changes were settled on calibration rows only; "
             + ("no erratum touches either file. " if not touched else
                f"errata touch {', '.join(touched)}. ")
             + "The two batches are one set with one evaluation: the same round, rule, freeze and targets; they are "
             "told apart below. "
             f"Targets: median ≤ {TARGET_MEDIAN:.0%}, max ≤ {TARGET_MAX:.0%}. At this evaluation: median "
             f"{now[0]:.1%} (target {said(now[0] <= TARGET_MEDIAN)}), max {now[1]:.1%} (target "
             f"{said(now[1] <= TARGET_MAX)}); {within} of {now[2]} rows within {TARGET_MAX:.0%}. Before the round "
             f"(the code as the files were frozen, commit d820525: `BASELINE5_GIB`): median {before[0]:.1%}, max "
             f"{before[1]:.1%}, {within_before} of {now[2]} within {TARGET_MAX:.0%}. "
             + ("The round's formula changes moved no row of this set beyond the 0.01 GiB rounding of `BASELINE5_GIB` "
                "(its loss changes reach 16-bit losses of families that keep their dtype, which no row here is, the "
                "new `logits_upcast` field, which no row states, and fp32 training's logits, a few MiB in these rows' "
                "samples of 1 to 35 tokens), so the before/after differences in the tables are that rounding. "
                if not moved else
                f"The round's formula changes moved {len(moved)} of {now[2]} rows by more than 0.01 GiB. ")
             + f"The set holds {pretrain} "
             f"pre-training rows, {inference} inference or quantised-inference rows and "
             f"{now[2] - pretrain - inference} fine-tuning rows. Rows over the max target: "
             + (", ".join(f"{r.id} ({r.kind}, {_pct(r.error)}; {_pct(r.before_error)} before)" for r in over)
                if over else "none") + ".", ""]
    return lines + _group_tables(groups, (("By batch", "batch", "batch", None),) + HELDOUT_GROUP_TABLES)


def _by_source_and_kind(rows: list[MemoryResult]) -> dict[str, dict[str, list[MemoryResult]]]:
    """A held-out round's rows by source page and by kind (the groups its reading tabulates)."""
    groups: dict[str, dict[str, list[MemoryResult]]] = {"source": {}, "kind": {}}
    for r in rows:
        groups["source"].setdefault(_source_page(r.source), []).append(r)
        groups["kind"].setdefault(r.kind or "", []).append(r)
    return groups


def _moved_rows_table(moved: list[MemoryResult]) -> list[str]:
    """The rows that moved since a round's evaluation: their error then and now (nothing when none moved)."""
    if not moved:
        return []
    return (["| row | kind | measure | at the evaluation | now |", "|---|---|---|---:|---:|"]
            + [f"| {r.id} | {r.kind} | {r.measure} | {_pct(r.before_error)} | {_pct(r.error)} |" for r in moved] + [""])


def _round6_since_evaluation(kinds6: list[MemoryResult]) -> list[str]:
    """The sixth round's held-out file now, after its one evaluation (frozen above as `ROUND6_HELDOUT_READING_AT_EVAL`):
    the live figures beside the evaluation's. At the evaluation the estimate equalled `BASELINE6_GIB` (the code as the
    file was frozen) to its 0.01 GiB rounding, so that table is the "at the evaluation" column here."""
    if not kinds6:
        return []
    now, then = _summary([r.error for r in kinds6]), ROUND6_HELDOUT_FIRST_EVAL
    groups = _by_source_and_kind(kinds6)
    within = sum(abs(r.error) <= TARGET_MAX for r in kinds6)
    moved = [r for r in kinds6 if abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # BASELINE6_GIB is rounded to 0.01
    lines = ["#### Since the evaluation (sixth round)", "",
             f"`{HELDOUT_KINDS6_FILE.name}` is spent since its one evaluation (recorded above as it was generated "
             "then): the seventh formula round read its misses as calibration, so the figures below test nothing. "
             f"Now: median {now[0]:.1%}, max {now[1]:.1%}; {within} of {now[2]} rows within {TARGET_MAX:.0%} (at the "
             f"evaluation: median {then[0]:.1%}, max {then[1]:.1%}). "
             + (f"Rows moved since the evaluation, {len(moved)} of {now[2]} (beyond the 0.01 GiB rounding of "
                "`BASELINE6_GIB`, the evaluation's estimate):" if moved else
                "No row has moved since the evaluation beyond the 0.01 GiB rounding of `BASELINE6_GIB`."), ""]
    lines += _moved_rows_table(moved)
    return lines + _group_tables(groups, HELDOUT_GROUP_TABLES[:2], before="at the evaluation")


# The seventh formula round (calibration only), "before": the code of commit e4b5c28 (the working tree as the round
# began, round 6's evaluation included), every file: (median |err|, max |err|, rows), each row the round moved (beyond
# 0.01 GiB) with its error then, and the ten largest residuals. Measured by `python benchmarks/accuracy.py` at that
# commit; the "after" figures are computed live.
BEFORE_ROUND7 = {
    "published_memory.yaml": (0.049, 0.157, 26), "published_memory_kinds.yaml": (0.058, 0.307, 5),
    "published_memory_heldout_kinds.yaml": (0.053, 0.218, 15), "published_memory_kinds2.yaml": (0.060, 0.216, 34),
    "published_memory_heldout_kinds2.yaml": (0.118, 0.651, 73), "published_memory_heldout_kinds3.yaml": (0.031, 0.602, 47),
    "published_memory_heldout_kinds4.yaml": (0.061, 0.297, 79), "published_memory_heldout_kinds5.yaml": (0.078, 0.489, 49),
    "published_memory_heldout_kinds5b.yaml": (0.024, 0.996, 19),
    "published_memory_heldout_kinds6.yaml": (0.129, 0.410, 35),
}
BEFORE_ROUND7_ALL = (0.067, 0.996, 382)
BEFORE_ROUND7_MOVED = {
    "peft-llama2-70b-qlora-fsdp-offload-2gpu": -0.3070,
    "schmid-llama3-70b-qlora-fsdp-offload-4gpu": -0.0504,
    "answerai-yi-34b-qlora-fsdp-offload-2048-b4": -0.0779,
    "answerai-llama2-70b-qlora-fsdp-offload-2048-b2": -0.2009,
    "answerai-llama2-7b-lora-fsdp-offload-2048-b10": -0.1327,
    "answerai-llama2-7b-qlora-fsdp-offload-2048-b12": 0.0121,
    "answerai-mistral-7b-qlora-fsdp-offload-2048-b12": 0.0073,
    "answerai-mistral-7b-qlora-fsdp-offload-24576-b1": 0.0073,
    "lit-fabric-fsdpguide-fullshard-cpuoffload": -0.4686,
    "lit-trainer-fsdpguide-fullshard-cpuoffload": -0.4619,
    "ult-h100-llama31-8b-qlora": -0.2580,
    "ult-h100-llama31-70b-lora-fsdp-offload": -0.1595,
    "ult-h100-llama2-13b-full-fsdp-offload": -0.4101,
    "ult-h100-llama2-13b-qlora": -0.1599,
    "ult-h100-phi3-mini-qlora": -0.2719,
    "ult-rtxpro6000-llama31-8b-qlora": -0.2580,
    "ult-rtxpro6000-llama31-70b-lora-fsdp-offload": -0.1465,
    "ult-rtxpro6000-llama2-13b-full-fsdp-offload": -0.4101,
    "ult-rtxpro6000-llama2-13b-qlora": -0.1599,
    "ult-rtxpro6000-phi3-mini-qlora": -0.2719,
    "ult-a100-llama31-8b-qlora": -0.2580,
    "ult-a100-llama31-70b-lora-fsdp-offload": -0.1465,
    "ult-a100-llama2-13b-full-fsdp-offload": -0.4101,
    "ult-a100-llama2-13b-qlora": -0.1599,
    "ult-a100-phi3-mini-qlora": -0.2719,
    "ult-a100-qwen3-8b-qlora": -0.2316,
    "lambda-dtg-llama31-405b-fsdp-offload-64xh100-reserved": 0.0279,
}
BEFORE_ROUND7_TOP = (
    ("lit-tp-example-fabric-llama2-7b-tp2-fsdp2", 0.996), ("swift-chatglm3-6b-lora-8192", -0.651),
    ("peft-mmqa-llama32-3b-lora-r32", 0.602), ("peft-mmqa-llama32-3b-lora-r64", 0.598),
    ("swift-qwen-7b-bnb4-2048", -0.508), ("dlperf-megatron-mp-1x8x1-16-1536x16", -0.489),
    ("dlperf-megatron-mp-1x32x1-16-3072x32", 0.479), ("swift-yi-6b-lora-8192", -0.471),
    ("swift-qwen-14b-bnb4-2048", -0.470), ("lit-fabric-fsdpguide-fullshard-cpuoffload", -0.469),
)


def _round7_reading(mem: list[MemoryResult]) -> list[str]:
    """The seventh formula round (calibration only): what changed and why, every file before and after, each row it
    moved, the largest residuals, what was not adopted. Every file it read is spent, round 6's held-out file included;
    the seventh held-out round (new kinds 7), collected apart, frozen before it and evaluated once after it, is not part
    of it: it has its own reading (and so, later, does the eighth round's)."""
    mem = [r for r in mem if r.set not in ("new kinds 7", "new kinds 8", "new kinds 9", "new kinds 10", "new kinds 11",
                                           "new kinds 12", "new kinds 13")]
    file_of = {i: path.name for paths in MEMORY_SETS.values() for path in paths for i in _file_ids(path)}
    by_id = {r.id: r for r in mem}
    lines = ["### Reading the seventh formula round (calibration only)", "",
             "Every file is calibration in this round: round 6's held-out file is spent since its one evaluation "
             "(recorded above as it was generated then). A seventh held-out round was collected apart while this "
             "round ran (sought for QLoRA, FSDP/ZeRO offload and Megatron tensor parallelism, it holds ViT full "
             "fine-tuning only); it was not seen by it and is evaluated once after it (\"Reading the seventh round's "
             "held-out evaluation\" below). Adopted, each read from the framework's code and checked on all rows at "
             "once:", "",
             "1. PEFT's k-bit preparation leaves the LM head in fp32 (peft 5d602fdbf src/peft/utils/other.py "
             "prepare_model_for_kbit_training lines 197-209: every fp16/bf16 parameter that is not a Params4bit is "
             "cast to fp32, and bitsandbytes leaves the output embedding unquantised), and its input is fp32 "
             "(LlamaRMSNorm returns `self.weight * hidden_states.to(input_dtype)` with an fp32 weight); transformers' "
             "causal-LM forward applies `self.lm_head` without a cast (LlamaForCausalLM.forward, read in the code "
             "index's copies). Without "
             "autocast and without TRL's bf16 recast the logits are therefore fp32, and so is any loss over them: "
             "12 B per logit, not a 16-bit loss's 6 (`tools/vram.py` `head_fp32`, the lead's patch "
             "kbit_head_fp32.patch). Only universal-llm-trainer's ten QLoRA rows state k-bit preparation without "
             "autocast; fms-acceleration's PEFT-prepared rows run under HF Trainer's autocast and do not move.",
             "2. torch FSDP's CPU offload keeps every unit's reduce-scattered gradient shard on the GPU until backward "
             "ends (`tools/vram.py` `_offload_grad_staging`; torch/distributed/fsdp/_runtime_utils.py read at torch "
             "2.13.0, the same paths as the index's 2.1-2.5 copies: `_reduce_grad` allocates the shard on the "
             "post-backward stream, `_accumulate_sharded_grad` keeps it as `_saved_grad_shard`, `_offload_grad` only "
             "copies it into the pinned `_cpu_grad`; _flat_param.py `prepare_gradient_for_optim` deletes it when "
             "backward ends). The shard, trainable parameters / data-parallel degree in the parameter's dtype, grows "
             "while the activations shrink, so it adds to the allocated peak only beyond what the loss's moment holds, "
             "the root unit being whole beside it (`Component.grad_shards_staged`); the rest stays reserved in the "
             "post-backward stream's pool, which the caching allocator does not lend to the compute stream "
             "(c10/cuda/CUDACachingAllocator.cpp get_free_block: a cached block serves only its own stream): "
             "reported beside the per-GPU need as `VramEstimate.reclaimable_gib` (the allocator "
             "releases cached blocks and retries when a cudaMalloc fails, so the pool never decides a fit) and added to "
             "reserved and device figures only. Full-parameter rows gain the whole shard (Llama 2 13B in bf16 on 2 GPUs: "
             "12.1 GiB); LoRA rows only their adapters' shard.", "",
             "Calibration before the round (commit e4b5c28) → after, median / max / rows:", "",
             "| file | before the round | after |", "|---|---|---|"]
    lines += _formula_round_tables(mem, file_of, by_id, BEFORE_ROUND7, BEFORE_ROUND7_ALL, BEFORE_ROUND7_MOVED,
                                   BEFORE_ROUND7_TOP)
    offload = [r for r in mem if (r.kind or "").endswith("offload") and r.id in BEFORE_ROUND7_MOVED]
    o_now, o_before = _summary([r.error for r in offload]), _summary([BEFORE_ROUND7_MOVED[r.id] for r in offload])
    qlora = [r for r in mem if r.kind == "qlora-kbit-prepare" and r.id in BEFORE_ROUND7_MOVED]
    q_now, q_before = _summary([r.error for r in qlora]), _summary([BEFORE_ROUND7_MOVED[r.id] for r in qlora])
    lines += ["", f"What it shows. The {o_now[2]} FSDP + CPU-offload rows the round moved: median {o_before[0]:.1%} → "
              f"{o_now[0]:.1%}, max {o_before[1]:.1%} → {o_now[1]:.1%}. The three Llama 2 13B full fine-tunes "
              "(reserved) and Lightning's two fp32 guide rows (allocated), which sat at -41% and -47%, are now within "
              "2% of their figures, one by the pool and the other by the live shard, from one count. The Llama 3.1 "
              "405B reserved row moves from +3% to +19%: on 64 GPUs its shard (11.8 GiB) is below the loss's moment, "
              "so it adds only as the pool, and the run filled its 80 GB cards (the guide's own note: without the "
              "cache a larger batch fitted), where the allocator releases cached blocks and retries rather than "
              "fail, so a reserved figure at capacity can sit below the pools' sum; its allocated twin does not "
              "move. The LoRA/QLoRA offload rows move by their adapters' shard, 0.2-0.8 GiB, each toward its figure "
              f"but Answer.AI's three QLoRA rows near +1%, which go to +1-2%. The ten QLoRA rows of universal-llm-trainer: "
              f"median {q_before[0]:.1%} → {q_now[0]:.1%}, max {q_before[1]:.1%} → {q_now[1]:.1%} (every row was "
              "under; the 128k and 152k vocabularies of Llama 3.1 and Qwen 3 now read +8% and +13%, Llama 2 and "
              "Phi-3 with their 32k vocabularies -11% and -8%).", "",
              "Not adopted: (a) the same per-stream pool for FSDP without offload when the gradients are freed every "
              "step (`grads_to_none`): the shards are then allocated on the post-backward stream too, but FSDP2 "
              "(torchtitan, Lightning's TP × FSDP2 examples) reduce-scatters through its own streams and copies, which "
              "were not read, and no FSDP1 row measures reserved memory with freed gradients, so it cannot be "
              "checked; the request does not tell FSDP1 from FSDP2 either (the staging above is FSDP1's: FSDP2's "
              "CPUOffloadPolicy was not read); (b) Megatron-LM's tensor-parallel rows (DLPerf, -49% to +48%): no "
              "term found in Megatron's code this round explains rows that disagree in sign; (c) DLPerf's DeepSpeed "
              "ZeRO-0 rows (-20/-21%): its stage-0 fp16 optimizer's flat fp32 gradients live only during the step, "
              "after the activations are freed, and 0.5 GiB would not close 3 GiB; nothing else was established; "
              "(d) the Fabric TP example (+100%): its optimizer held no states (the sixth round's reading), and the "
              "request cannot state an optimizer without states (`Optimizer` in tools/domain.py has no such value), "
              "so no erratum can make the row mean what ran.", ""]
    return lines


# Round 7's held-out rows as estimated at its one evaluation (the code of eac0da8, by that code's benchmarks/accuracy.py
# evaluate_memory, rounded to 0.001 GiB): the "at the evaluation" column of "Since the evaluation (seventh round)".
# BASELINE7_GIB is the code as the file was frozen (ab34400); the two differ in one row, the FSDP + CPU-offload row
# (29.98 -> 30.27 GiB).
ROUND7_AT_EVAL_GIB: dict[str, float] = {
    "pmo-vit-l-16-fp32-b64": 32.903,
    "pmo-vit-l-16-fp16-mixed-b64": 33.498,
    "pmo-vit-l-16-bf16-true-b64": 30.522,
    "pmo-vit-l-16-bf16-true-b16": 9.416,
    "pmo-vit-l-16-bf16-true-b4-accum4": 4.140,
    "pmo-vit-l-16-fsdp4-fp32-b64": 31.173,
    "pmo-vit-l-16-fsdp4-offload-fp32-b64": 30.266,
    "vft-vit-l-16-fp32-b32": 18.832,
    "vft-vit-l-16-fp16-mixed-b32": 19.427,
    "vft-vit-l-16-bf16-mixed-b32": 19.427,
    "vft-vit-l-16-fp16-true-b32": 16.451,
    "vft-vit-l-16-bf16-true-b32": 16.451,
    "vft-vit-b-16-fp32-b16": 4.011,
    "vft-vit-b-16-fp16-mixed-b16": 4.181,
    "vft-vit-b-16-bf16-mixed-b16": 4.181,
    "vft-vit-b-16-fp16-true-b16": 3.334,
    "vft-vit-b-16-bf16-true-b16": 3.334,
    "cvpr-vit-b-16-fp32-b16": 4.011,
    "cvpr-vit-b-16-bf16-mixed-b16": 4.181,
    "cvpr-vit-b-16-ddp4-bf16-mixed-b16": 4.519,
}


# The seventh round's held-out reading as generated at its one evaluation (commit 47c706b, the code of eac0da8), frozen
# when the eighth formula round made the file calibration (spent): its figures are that evaluation's, not the code's
# now; the live figures are printed after it, under "Since the evaluation (seventh round)" (`_round7_since_evaluation`).
ROUND7_HELDOUT_READING_AT_EVAL = (
    "### Reading the seventh round's held-out evaluation",
    '',
    "The seventh round's held-out set (`published_memory_heldout_kinds7.yaml`), 20 rows from 4 pages of 3 sources new to the project, frozen by digest (tests/data/held_out_freezes.md, commit ab34400) before the seventh round changed a formula (commit eac0da8), was evaluated once, after that round's changes were settled on spent rows only; no erratum touches the file. It is vision-only: full fine-tuning of torchvision's ViT-L/16 and ViT-B/16, 17 rows on one GPU and 3 on 4 GPUs (FSDP, FSDP + CPU offload, DDP), all on catalog models (4 kinds; by measure: reserved 20), so it does not test the round's two changes (PEFT's fp32 LM head after k-bit preparation, FSDP CPU offload's staged gradient shards on LLMs). Targets: median ≤ 15%, max ≤ 35%. At this evaluation: median 70.0% (target MISSED), max 438.9% (target MISSED); 6 of 20 rows within 35%; 0 of 20 under their figure. Before the round (the code as the file was frozen, commit ab34400: `BASELINE7_GIB`): median 70.0%, max 433.8%, 6 of 20 within 35%. The round's formula changes moved 1 of 20 rows by more than 0.01 GiB: pmo-vit-l-16-fsdp4-offload-fp32-b64 (+434% → +439%, 29.98 → 30.27 GiB) (FSDP CPU offload's gradient-shard pool, added to reserved figures; no other row states offload or k-bit preparation). Rows over the max target: pmo-vit-l-16-fsdp4-offload-fp32-b64 (vision-full-sharded-offload, +439%; +434% before), pmo-vit-l-16-fsdp4-fp32-b64 (vision-full-sharded, +408%; +408% before), pmo-vit-l-16-bf16-true-b64 (vision-full-single-gpu, +137%; +137% before), vft-vit-l-16-fp16-true-b32 (vision-full-single-gpu, +110%; +110% before), vft-vit-l-16-bf16-true-b32 (vision-full-single-gpu, +110%; +110% before), pmo-vit-l-16-fp16-mixed-b64 (vision-full-single-gpu, +98%; +98% before), vft-vit-b-16-fp16-true-b16 (vision-full-single-gpu, +85%; +84% before), vft-vit-b-16-bf16-true-b16 (vision-full-single-gpu, +84%; +83% before), pmo-vit-l-16-bf16-true-b16 (vision-full-single-gpu, +78%; +78% before), vft-vit-l-16-bf16-mixed-b32 (vision-full-single-gpu, +70%; +70% before), vft-vit-l-16-fp16-mixed-b32 (vision-full-single-gpu, +70%; +70% before), vft-vit-b-16-fp16-mixed-b16 (vision-full-single-gpu, +48%; +48% before), vft-vit-b-16-bf16-mixed-b16 (vision-full-single-gpu, +48%; +48% before), cvpr-vit-b-16-bf16-mixed-b16 (vision-full-single-gpu, +48%; +48% before).",
    '',
    'By source page:',
    '',
    '| source page | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| rasbt/pytorch-memory-optim logs.md | 7 | 97.5% | 438.9% | neither met | 97.5% | 433.8% | neither met |',
    '| rasbt/ViT-finetuning-scripts precision-benchmarks/torchvision-vit16-large/README.md | 5 | 70.4% | 109.5% | neither met | 70.4% | 109.5% | neither met |',
    '| rasbt/ViT-finetuning-scripts precision-benchmarks/torchvision-vit16-small/README.md | 5 | 48.2% | 84.5% | neither met | 48.1% | 84.3% | neither met |',
    '| rasbt/cvpr2023 logs.md | 3 | 18.6% | 47.7% | neither met | 18.7% | 47.6% | neither met |',
    '',
    'By kind:',
    '',
    '| kind | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| vision-full-ddp | 1 | 18.6% | 18.6% | max met, median NOT met | 18.7% | 18.7% | max met, median NOT met |',
    '| vision-full-sharded | 1 | 407.9% | 407.9% | neither met | 407.9% | 407.9% | neither met |',
    '| vision-full-sharded-offload | 1 | 438.9% | 438.9% | neither met | 433.8% | 433.8% | neither met |',
    '| vision-full-single-gpu | 17 | 69.6% | 137.1% | neither met | 69.6% | 137.1% | neither met |',
    '',
    'By grade:',
    '',
    '| grade | rows | median | max | targets | before: median | before: max | targets before |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    '| A | 20 | 70.0% | 438.9% | neither met | 70.0% | 433.8% | neither met |',
)


def _round7_since_evaluation(kinds7: list[MemoryResult]) -> list[str]:
    """The seventh round's held-out file now, after its one evaluation (frozen above as `ROUND7_HELDOUT_READING_AT_EVAL`):
    the live figures beside the evaluation's estimates (`ROUND7_AT_EVAL_GIB`)."""
    if not kinds7:
        return []
    at_eval = [replace(r, before_gib=ROUND7_AT_EVAL_GIB[r.id]) for r in kinds7]
    now, then = _summary([r.error for r in at_eval]), ROUND7_HELDOUT_FIRST_EVAL
    groups = _by_source_and_kind(at_eval)
    within = sum(abs(r.error) <= TARGET_MAX for r in at_eval)
    moved = [r for r in at_eval if abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # ROUND7_AT_EVAL_GIB: 0.001 GiB
    lines = ["#### Since the evaluation (seventh round)", "",
             f"`{HELDOUT_KINDS7_FILE.name}` is spent since its one evaluation (recorded above as it was generated "
             "then): the eighth formula round read its misses as calibration, so the figures below test nothing. "
             f"Now: median {now[0]:.1%}, max {now[1]:.1%}; {within} of {now[2]} rows within {TARGET_MAX:.0%} (at the "
             f"evaluation: median {then[0]:.1%}, max {then[1]:.1%}). "
             + (f"Rows moved since the evaluation, {len(moved)} of {now[2]} (by more than 0.005 GiB from "
                "`ROUND7_AT_EVAL_GIB`, the evaluation's estimate):" if moved else
                "No row has moved since the evaluation by more than 0.005 GiB (`ROUND7_AT_EVAL_GIB`)."), ""]
    lines += _moved_rows_table(moved)
    return lines + _group_tables(groups, HELDOUT_GROUP_TABLES[:2], before="at the evaluation")


# The eighth formula round (calibration only), "before": the code of commit 0cd16d5 (the working tree as the round
# began, round 7's evaluation included), every file: (median |err|, max |err|, rows), and its ten largest residuals.
# Measured by `python benchmarks/accuracy.py` at that commit (no row had moved since round 7's evaluation, so the 20 ViT
# rows' errors then are `ROUND7_AT_EVAL_GIB`'s); the "after" figures are computed live.
BEFORE_ROUND8 = {
    "published_memory.yaml": (0.049, 0.157, 26), "published_memory_kinds.yaml": (0.058, 0.296, 5),
    "published_memory_heldout_kinds.yaml": (0.053, 0.218, 15), "published_memory_kinds2.yaml": (0.060, 0.216, 34),
    "published_memory_heldout_kinds2.yaml": (0.118, 0.651, 73), "published_memory_heldout_kinds3.yaml": (0.031, 0.602, 47),
    "published_memory_heldout_kinds4.yaml": (0.061, 0.297, 79), "published_memory_heldout_kinds5.yaml": (0.078, 0.489, 49),
    "published_memory_heldout_kinds5b.yaml": (0.013, 0.996, 19),
    "published_memory_heldout_kinds6.yaml": (0.076, 0.191, 35),
    "published_memory_heldout_kinds7.yaml": (0.700, 4.389, 20),
}
BEFORE_ROUND8_ALL = (0.069, 4.389, 402)
BEFORE_ROUND8_TOP = (
    ("pmo-vit-l-16-fsdp4-offload-fp32-b64", 4.389), ("pmo-vit-l-16-fsdp4-fp32-b64", 4.079),
    ("pmo-vit-l-16-bf16-true-b64", 1.371), ("vft-vit-l-16-fp16-true-b32", 1.095),
    ("vft-vit-l-16-bf16-true-b32", 1.095), ("lit-tp-example-fabric-llama2-7b-tp2-fsdp2", 0.996),
    ("pmo-vit-l-16-fp16-mixed-b64", 0.975), ("vft-vit-b-16-fp16-true-b16", 0.845),
    ("vft-vit-b-16-bf16-true-b16", 0.836), ("pmo-vit-l-16-bf16-true-b16", 0.777),
)


def _round8_reading(mem: list[MemoryResult]) -> list[str]:
    """The eighth formula round (calibration only): what changed and why, every file before and after, each row it
    moved, the largest residuals, what was not adopted. Every file it read is spent, round 7's held-out file included;
    the eighth held-out round (new kinds 8), collected apart, frozen before it and evaluated once after it, is not part
    of it: it has its own reading."""
    mem = [r for r in mem if r.set not in ("new kinds 8", "new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12",
                                           "new kinds 13")]
    file_of = {i: path.name for paths in MEMORY_SETS.values() for path in paths for i in _file_ids(path)}
    by_id = {r.id: r for r in mem}
    vit = [r for r in mem if r.set == "new kinds 7"]
    moved = {r.id: ROUND7_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in vit
             if abs(r.ours_gib - ROUND7_AT_EVAL_GIB[r.id]) > 0.005}
    single = [r for r in vit if (r.kind or "").endswith("-single-gpu")]
    by_precision: dict[str, list[MemoryResult]] = {}
    for r in single:
        label = "fp32" if "fp32" in r.id else "16-bit autocast over fp32 weights" if "mixed" in r.id else "pure 16-bit"
        by_precision.setdefault(label, []).append(r)
    lines = ["### Reading the eighth formula round (calibration only)", "",
             "Every file is calibration in this round: round 7's held-out file is spent since its one evaluation "
             "(recorded above as it was generated then). An eighth held-out round was collected apart while this round "
             "ran; it was not seen by it and is evaluated once after it (\"Reading the eighth round's held-out "
             "evaluation\" below). Adopted, read from the frameworks' code and checked on all rows at once:", "",
             "1. A vision transformer's activations are counted block by block, each saved tensor in its own dtype "
             "(`tools/vram.py` `_vit_token_bytes`, `_vit_activations`; `tools/vram_shape.py` `is_vision_transformer`), "
             "instead of the catalog's measured profile (HF ViTModel, eager attention, fp32), which was used unchanged "
             "in fp32, under autocast, in pure 16-bit and with checkpointing. torchvision's EncoderBlock "
             "(torchvision/models/vision_transformer.py) through torch's `F.multi_head_attention_forward` "
             "(`_in_projection_packed`: one packed projection and its contiguous q/k/v copy, saved by "
             "`scaled_dot_product_attention` with its output and fp32 log-sum-exp; the output permuted for out_proj) "
             "saves per token ln_1's input, the projection's input, q/k/v, the attention output, ln_2's input, fc1's "
             "input and the GELU's input and output (4h each): 68h bytes in fp32 (the memory-efficient kernel's "
             "batch-major output adds the permuted copy), 32h in pure 16-bit (FlashAttention writes the output in the "
             "query's order: no copy), 36h under autocast (layer_norm on autocast's fp32 list, so LayerNorm inputs and "
             "the residual stream stay fp32; linear, GELU and SDPA, `KERNEL_CUDA(scaled_dot_product_attention, "
             "lower_precision_fp)`, in 16-bit, each linear keeping its own 16-bit cast). Dropout with p = 0 keeps no "
             "mask (ATen `_dropout_impl` returns its input). With torch.utils.checkpoint around each block "
             "(Lightning's `activation_checkpointing=EncoderBlock`) each block keeps only its input and one block is "
             "recomputed at a time. tests/test_vram_vit.py rebuilds the block from torch.nn and measures what autograd "
             "saves on the CPU (fp32, bf16, bf16 autocast): the count matches. The FSDP root unit of a ViT wrapped per "
             "block is what lies outside the blocks (patch embedding, class token, position embedding, final norm, "
             "head: 2.3M parameters for ViT-L/16; `outside_block_params`), not a vocabulary the model does not have.",
             "", "Calibration before the round (commit 0cd16d5) → after, median / max / rows:", "",
             "| file | before the round | after |", "|---|---|---|"]
    lines += _formula_round_tables(mem, file_of, by_id, BEFORE_ROUND8, BEFORE_ROUND8_ALL, moved, BEFORE_ROUND8_TOP)
    llm = [r for r in mem if r.set != "new kinds 7"]
    lines += ["", f"What it shows. Only the {len(moved)} ViT rows moved; none of the {len(llm)} language-model rows "
              "did (the new count reaches vision transformers only). On one GPU, by precision (median / max |error|, the "
              "signed range):", "", "| precision | rows | before | after | after: range |", "|---|---:|---|---|---|"]
    for label, rs in by_precision.items():
        a, b = _summary([r.error for r in rs]), _summary([moved[r.id] for r in rs])
        lo, hi = min(r.error for r in rs), max(r.error for r in rs)
        lines.append(f"| {label} | {a[2]} | {b[0]:.1%} / {b[1]:.1%} | {a[0]:.1%} / {a[1]:.1%} | {_pct(lo)} … "
                     f"{_pct(hi)} |")
    multi = [r for r in vit if r not in single]
    lines += ["", "On 4 GPUs: " + ", ".join(f"{r.id} {_pct(moved[r.id])} → {_pct(r.error)}" for r in multi) + ".", "",
              "Not adopted: (a) the FSDP rows (FULL_SHARD, activation checkpointing, fp32, 64 images per GPU; with and "
              "without CPU offload) now read under their figures: the count gives 3.3 and 2.4 GiB of tensors per GPU "
              "(sharded states, 24 block inputs, one recomputed block, two gathered units) against 6.1 and 5.6 GiB "
              "reserved, and the 3 GiB gap is nearly the same with the states offloaded, so it is neither the sharded "
              "states nor the offload path; nothing read in torch FSDP (use_orig_params, Fabric's joint "
              "setup of model and optimizer, non-reentrant checkpoint_wrapper) was found to hold it. (b) The DDP row "
              "(ViT-B/16, bf16 autocast, 4 GPUs) sits 18% under: DDP's bucket copy of the fp32 gradients is counted, "
              "and what else holds the 1 GB over the same configuration on one GPU (cvpr2023 "
              "`04_fabric-vit-mixed-precision.py` → `05_fabric-vit-mixed-ddp.py`: 3.04 → 4.09 GB) was not established. "
              "(c) The "
              "single-GPU rows still carry the allocator allowance on short-lived tensors (`TRANSIENT_SLACK`), which "
              "was calibrated on language-model rows; whether a ViT's fixed-size tensors fragment less was not read "
              "from the allocator's code, so it stays. (d) The largest language-model residuals are those of the "
              "seventh round (its \"Not adopted\"): no new mechanism was read for them this round.", ""]
    return lines


def _round8_strict(kinds8: list[MemoryResult]) -> list[MemoryResult]:
    """The eighth round's rows under the stricter reading of its split rule (`ROUND8_STRICT_LEFT_OUT`)."""
    return [r for r in kinds8 if not _source_page(r.source).startswith(ROUND8_STRICT_LEFT_OUT)]


def _round8_groups(rows: list[MemoryResult]) -> dict[str, dict[str, list[MemoryResult]]]:
    """The eighth round's breakdowns: source (a repository, as the split rule counts sources), kind, the kind's family
    (vision or LLM pre-training) and grade."""
    groups: dict[str, dict[str, list[MemoryResult]]] = {"source": {}, "kind": {}, "family": {}, "grade": {}}
    for r in rows:
        groups["source"].setdefault(_source_page(r.source).split(" ")[0], []).append(r)
        groups["kind"].setdefault(r.kind or "", []).append(r)
        family = "vision" if (r.kind or "").startswith("vision") else "LLM pre-training"
        groups["family"].setdefault(family, []).append(r)
        groups["grade"].setdefault(r.grade or "", []).append(r)
    return groups


ROUND8_GROUP_TABLES = (("By source", "source", "source", None), ("By kind", "kind", "kind", sorted),
                       ("By family (vision vs LLM pre-training)", "family", "family", sorted),
                       ("By grade", "grade", "grade", sorted))


# Round 8's held-out rows as estimated at its one evaluation (the code of 1ed6d8f, by this benchmarks/accuracy.py's
# evaluate_memory, rounded to 0.001 GiB): the "at the evaluation" column of "Since the evaluation (eighth round)".
# BASELINE8_GIB is the code as the file was frozen (6b19e9c); the two differ in the five rows the eighth formula round
# moved (the catalog ViT-B/16 and ViT-L/16 rows: its per-block vision-transformer count).
ROUND8_AT_EVAL_GIB: dict[str, float] = {
    "mesa-deit-b-amp-b128": 11.531,
    "mesa-deit-s-amp-b128": 7.025,
    "mesa-deit-ti-amp-b128": 3.588,
    "mmseg-segmenter-vit-t-mask-512-ddp8-b1": 0.453,
    "mmseg-segmenter-vit-s-linear-512-ddp8-b1": 0.893,
    "mmseg-segmenter-vit-s-mask-512-ddp8-b1": 1.094,
    "mmseg-segmenter-vit-b-mask-512-ddp8-b1": 2.490,
    "mmseg-segmenter-vit-l-mask-640-ddp8-b1": 10.848,
    "dsx-bf16-master-baseline-6.86b-zero3-4gpu-b1-s512": 30.590,
    "pttut-vit-l-16-fp32-adam-foreach-b1": 5.669,
    "mmseg-setr-naive-vit-l-512-ddp8-b2": 10.930,
    "mmseg-setr-naive-vit-l-768-cityscapes-ddp8-b1": 15.947,
    "alcf-mds-llama-5.9b-gqa8-tp2-zero2-8xa100-b8-s4096-allocated": 27.780,
    "alcf-mds-llama-5.9b-gqa8-tp2-zero2-8xa100-b8-s4096-reserved": 31.634,
    "mds-gpt3-1.3b-tp2-dp8-fp16-ds-ckpt-16xv100-b2-s2048": 14.654,
    "mds-gpt3-1.3b-tp2-dp8-fp16-megatron-recompute-16xv100-b2-s2048": 14.654,
}


# The eighth round's held-out reading as generated at its one evaluation (the code of 1ed6d8f), frozen at once: its
# figures are that evaluation's, not the code's now; the live figures are printed after it, under "Since the evaluation
# (eighth round)" (`_round8_since_evaluation`).
ROUND8_HELDOUT_READING_AT_EVAL = (
    "### Reading the eighth round's held-out evaluation",
    "",
    "The eighth round's held-out set (`published_memory_heldout_kinds8.yaml`), 16 rows from 5 sources new to the project, frozen by digest (tests/data/held_out_freezes.md, commit 6b19e9c) before the eighth round changed a formula (commit 1ed6d8f), was evaluated once, after that round's changes were settled on spent rows only; no erratum touches the file. It holds 11 vision rows (ViT/DeiT classifiers on one GPU, ViT-backbone segmentation with DDP on 8 GPUs) and 5 LLM pre-training rows (ZeRO-3; tensor parallel with ZeRO-2 or data parallel); by measure: allocated 15, reserved 1. Decided at the freeze, before any evaluation: the round is reported with all 16 rows and with the 13 rows other than the 3 from repositories whose issue threads an earlier round left out (dsx-bf16-master-baseline-6.86b-zero3-4gpu-b1-s512, mds-gpt3-1.3b-tp2-dp8-fp16-ds-ckpt-16xv100-b2-s2048, mds-gpt3-1.3b-tp2-dp8-fp16-megatron-recompute-16xv100-b2-s2048). Targets: median ≤ 15%, max ≤ 35%. At this evaluation, all 16 rows: median 30.3% (target MISSED), max 62.6% (target MISSED); 11 of 16 rows within 35%; 13 of 16 under their figure (before the round: median 21.7%, max 79.7%, 9 of 16 within 35%). The 13 rows: median 33.7% (target MISSED), max 62.6% (target MISSED); 8 of 13 rows within 35%; 11 of 13 under their figure (before the round: median 46.3%, max 79.7%, 6 of 13 within 35%). The before figures are the code as the file was frozen (commit 6b19e9c: `BASELINE8_GIB`). The round's formula changes moved 5 of 16 rows by more than 0.01 GiB: mesa-deit-b-amp-b128 (+5% → -33%, 18.19 → 11.53 GiB), mmseg-segmenter-vit-b-mask-512-ddp8-b1 (-66% → -41%, 1.42 → 2.49 GiB), mmseg-segmenter-vit-l-mask-640-ddp8-b1 (-71% → -34%, 4.88 → 10.85 GiB), mmseg-setr-naive-vit-l-512-ddp8-b2 (-72% → -41%, 5.23 → 10.93 GiB), mmseg-setr-naive-vit-l-768-cityscapes-ddp8-b1 (-80% → -34%, 4.88 → 15.95 GiB). Rows over the max target: mmseg-segmenter-vit-t-mask-512-ddp8-b1 (vision-seg-full-ddp, -63%; -63% before), mmseg-segmenter-vit-s-linear-512-ddp8-b1 (vision-seg-full-ddp, -50%; -50% before), mmseg-segmenter-vit-s-mask-512-ddp8-b1 (vision-seg-full-ddp, -46%; -46% before), mmseg-segmenter-vit-b-mask-512-ddp8-b1 (vision-seg-full-ddp, -41%; -66% before), mmseg-setr-naive-vit-l-512-ddp8-b2 (vision-seg-full-ddp, -41%; -72% before).",
    "",
    "All 16 rows.",
    "",
    "By source:",
    "",
    "| source | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| zhuang-group/Mesa | 3 | 15.0% | 33.3% | 3 of 3 | both met | 11.9% | 15.0% | 3 of 3 | both met |",
    "| open-mmlab/mmsegmentation | 7 | 40.7% | 62.6% | 2 of 7 | neither met | 66.2% | 79.7% | 0 of 7 | neither met |",
    "| deepspeedai/DeepSpeedExamples | 1 | 2.5% | 2.5% | 1 of 1 | both met | 2.5% | 2.5% | 1 of 1 | both met |",
    "| pytorch/tutorials | 1 | 1.5% | 1.5% | 1 of 1 | both met | 1.5% | 1.5% | 1 of 1 | both met |",
    "| argonne-lcf/Megatron-DeepSpeed | 4 | 9.0% | 27.4% | 4 of 4 | both met | 9.0% | 27.4% | 4 of 4 | both met |",
    "",
    "By kind:",
    "",
    "| kind | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| pretrain-tp-dp | 2 | 8.8% | 16.1% | 2 of 2 | both met | 8.8% | 16.1% | 2 of 2 | both met |",
    "| pretrain-tp-zero2 | 2 | 14.6% | 27.4% | 2 of 2 | both met | 14.6% | 27.4% | 2 of 2 | both met |",
    "| pretrain-zero3 | 1 | 2.5% | 2.5% | 1 of 1 | both met | 2.5% | 2.5% | 1 of 1 | both met |",
    "| vision-full-single-gpu | 4 | 13.4% | 33.3% | 4 of 4 | both met | 8.6% | 15.0% | 4 of 4 | both met |",
    "| vision-seg-full-ddp | 7 | 40.7% | 62.6% | 2 of 7 | neither met | 66.2% | 79.7% | 0 of 7 | neither met |",
    "",
    "By family (vision vs LLM pre-training):",
    "",
    "| family | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| LLM pre-training | 5 | 2.5% | 27.4% | 5 of 5 | both met | 2.5% | 27.4% | 5 of 5 | both met |",
    "| vision | 11 | 34.5% | 62.6% | 6 of 11 | neither met | 50.0% | 79.7% | 4 of 11 | neither met |",
    "",
    "By grade:",
    "",
    "| grade | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| B | 5 | 2.5% | 27.4% | 5 of 5 | both met | 2.5% | 27.4% | 5 of 5 | both met |",
    "| C | 11 | 34.5% | 62.6% | 6 of 11 | neither met | 50.0% | 79.7% | 4 of 11 | neither met |",
    "",
    "The 13 rows (without dsx-bf16-master-baseline-6.86b-zero3-4gpu-b1-s512, mds-gpt3-1.3b-tp2-dp8-fp16-ds-ckpt-16xv100-b2-s2048, mds-gpt3-1.3b-tp2-dp8-fp16-megatron-recompute-16xv100-b2-s2048).",
    "",
    "By source:",
    "",
    "| source | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| zhuang-group/Mesa | 3 | 15.0% | 33.3% | 3 of 3 | both met | 11.9% | 15.0% | 3 of 3 | both met |",
    "| open-mmlab/mmsegmentation | 7 | 40.7% | 62.6% | 2 of 7 | neither met | 66.2% | 79.7% | 0 of 7 | neither met |",
    "| pytorch/tutorials | 1 | 1.5% | 1.5% | 1 of 1 | both met | 1.5% | 1.5% | 1 of 1 | both met |",
    "| argonne-lcf/Megatron-DeepSpeed | 2 | 14.6% | 27.4% | 2 of 2 | both met | 14.6% | 27.4% | 2 of 2 | both met |",
    "",
    "By kind:",
    "",
    "| kind | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| pretrain-tp-zero2 | 2 | 14.6% | 27.4% | 2 of 2 | both met | 14.6% | 27.4% | 2 of 2 | both met |",
    "| vision-full-single-gpu | 4 | 13.4% | 33.3% | 4 of 4 | both met | 8.6% | 15.0% | 4 of 4 | both met |",
    "| vision-seg-full-ddp | 7 | 40.7% | 62.6% | 2 of 7 | neither met | 66.2% | 79.7% | 0 of 7 | neither met |",
    "",
    "By family (vision vs LLM pre-training):",
    "",
    "| family | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| LLM pre-training | 2 | 14.6% | 27.4% | 2 of 2 | both met | 14.6% | 27.4% | 2 of 2 | both met |",
    "| vision | 11 | 34.5% | 62.6% | 6 of 11 | neither met | 50.0% | 79.7% | 4 of 11 | neither met |",
    "",
    "By grade:",
    "",
    "| grade | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| B | 2 | 14.6% | 27.4% | 2 of 2 | both met | 14.6% | 27.4% | 2 of 2 | both met |",
    "| C | 11 | 34.5% | 62.6% | 6 of 11 | neither met | 50.0% | 79.7% | 4 of 11 | neither met |",
)


def _round8_since_evaluation(kinds8: list[MemoryResult]) -> list[str]:
    """The eighth round's held-out file now, after its one evaluation (frozen above as `ROUND8_HELDOUT_READING_AT_EVAL`):
    the live figures beside the evaluation's estimates (`ROUND8_AT_EVAL_GIB`), all rows and the stricter reading's."""
    if not kinds8:
        return []
    at_eval = [replace(r, before_gib=ROUND8_AT_EVAL_GIB[r.id]) for r in kinds8]
    strict = _round8_strict(at_eval)
    (now, then), (now13, then13) = ((_summary([r.error for r in rs]), _summary([r.before_error for r in rs]))
                                    for rs in (at_eval, strict))
    within = sum(abs(r.error) <= TARGET_MAX for r in at_eval)
    within13 = sum(abs(r.error) <= TARGET_MAX for r in strict)
    moved = [r for r in at_eval if abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # ROUND8_AT_EVAL_GIB: 0.001 GiB
    lines = ["#### Since the evaluation (eighth round)", "",
             f"`{HELDOUT_KINDS8_FILE.name}` was evaluated once (recorded above as it was generated then); the "
             "figures below are the code's now, beside the evaluation's estimates (`ROUND8_AT_EVAL_GIB`). Once a "
             "formula round reads the file's misses they test nothing. "
             f"Now: median {now[0]:.1%}, max {now[1]:.1%}; {within} of {now[2]} rows within {TARGET_MAX:.0%} (at the "
             f"evaluation: median {then[0]:.1%}, max {then[1]:.1%}); the {now13[2]} rows of the stricter reading: "
             f"median {now13[0]:.1%}, max {now13[1]:.1%}; {within13} of {now13[2]} within {TARGET_MAX:.0%} (at the "
             f"evaluation: median {then13[0]:.1%}, max {then13[1]:.1%}). "
             + (f"Rows moved since the evaluation, {len(moved)} of {now[2]} (by more than 0.005 GiB from "
                "`ROUND8_AT_EVAL_GIB`, the evaluation's estimate):" if moved else
                "No row has moved since the evaluation by more than 0.005 GiB (`ROUND8_AT_EVAL_GIB`)."), ""]
    lines += _moved_rows_table(moved)
    return lines + _group_tables(_round8_groups(at_eval), (ROUND8_GROUP_TABLES[0], ROUND8_GROUP_TABLES[2]),
                                 before="at the evaluation", within=True)


# The ninth formula round's "before" (commit 11b0c28, the code the eighth held-out round was evaluated on): every file's
# median / max |error| and rows then (the eighth round's rows at `ROUND8_AT_EVAL_GIB`, every other row as it still
# reads: the round moved none of them), the overall figure and the ten largest residuals, frozen here.
BEFORE_ROUND9 = {
    "published_memory.yaml": (0.049, 0.157, 26), "published_memory_kinds.yaml": (0.058, 0.296, 5),
    "published_memory_heldout_kinds.yaml": (0.053, 0.218, 15), "published_memory_kinds2.yaml": (0.060, 0.216, 34),
    "published_memory_heldout_kinds2.yaml": (0.118, 0.651, 73), "published_memory_heldout_kinds3.yaml": (0.031, 0.602, 47),
    "published_memory_heldout_kinds4.yaml": (0.061, 0.297, 79), "published_memory_heldout_kinds5.yaml": (0.078, 0.489, 49),
    "published_memory_heldout_kinds5b.yaml": (0.013, 0.996, 19),
    "published_memory_heldout_kinds6.yaml": (0.076, 0.191, 35),
    "published_memory_heldout_kinds7.yaml": (0.063, 0.434, 20),
    "published_memory_heldout_kinds8.yaml": (0.303, 0.626, 16),
}
BEFORE_ROUND9_ALL = (0.065, 0.996, 418)
BEFORE_ROUND9_TOP = (
    ("lit-tp-example-fabric-llama2-7b-tp2-fsdp2", 0.996), ("swift-chatglm3-6b-lora-8192", -0.651),
    ("mmseg-segmenter-vit-t-mask-512-ddp8-b1", -0.626), ("peft-mmqa-llama32-3b-lora-r32", 0.602),
    ("peft-mmqa-llama32-3b-lora-r64", 0.598), ("swift-qwen-7b-bnb4-2048", -0.508),
    ("mmseg-segmenter-vit-s-linear-512-ddp8-b1", -0.498), ("dlperf-megatron-mp-1x8x1-16-1536x16", -0.489),
    ("dlperf-megatron-mp-1x32x1-16-3072x32", 0.479), ("swift-yi-6b-lora-8192", -0.471),
)


def _round9_reading(mem: list[MemoryResult]) -> list[str]:
    """The ninth formula round (calibration only: every file is spent, the eighth round's held-out file included since
    its one evaluation): what changed and why, every file before and after, each row it moved, the largest residuals,
    what was not adopted."""
    # the ninth round's own after-state: the rows the tenth round moved read at its frozen estimates; the ninth to
    # thirteenth held-out rounds (new kinds 9 to 13), frozen after this round, have their own readings
    mem = [replace(r, ours_gib=AFTER_ROUND9_GIB[r.id]) if r.id in AFTER_ROUND9_GIB else r for r in mem
           if r.set not in ("new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12", "new kinds 13")]
    file_of = {i: path.name for paths in MEMORY_SETS.values() for path in paths for i in _file_ids(path)}
    by_id = {r.id: r for r in mem}
    kinds8 = [r for r in mem if r.set == "new kinds 8"]
    moved = {r.id: ROUND8_AT_EVAL_GIB[r.id] / r.measured_gib - 1 for r in kinds8
             if abs(r.ours_gib - ROUND8_AT_EVAL_GIB[r.id]) > 0.005 + 1e-9}
    mesa = [r for r in kinds8 if r.id.startswith("mesa-")]
    gap = {r.id: (r.measured_gib - r.ours_gib) for r in mesa}
    lines = ["### Reading the ninth formula round (calibration only)", "",
             "Every file is calibration in this round: the eighth round's held-out file is spent since its one "
             "evaluation (recorded above as it was generated then), and its misses are what this round read. No new "
             "data source. Adopted, read from the frameworks' code and checked on all rows at once:", "",
             "1. A published shape can say what kind of model it is. `resolve_model` built every `params` + `shape` "
             "row as a decoder (ModelSpec's default kind), so the eighth round's per-block ViT count never reached the "
             "DeiT-S/Ti and Segmenter ViT-T/S rows, which were counted as language models with a loss over every token. "
             "`RowShape.kind` (default: the kind the family implies, `tools.vram_shape.family_kind`: a vision-"
             "transformer family such as `vit` is a vision model, any other a decoder, as before) now decides it; the "
             "frozen rows state `family: vit` and their `assumed` text names the architecture (deit_small_patch16_224, "
             "ViT-Ti/16 ...), so no erratum is needed. For a bare count (\"a 22M-param ViT at 224px\"), "
             "`model_from_params(params, kind=ModelKind.vision)` interpolates published DeiT/ViT shapes (DeiT Table 1, "
             "ViT Table 1: 64-wide heads, MLP 4 x width) and `vit_tokens(224)` gives the 197 tokens.",
             "2. `flash_attention: false` on a vision transformer is explicit attention "
             "(`_vit_explicit_attention_bytes`), as timm 0.3.2's `Attention` (the DeiT/Mesa rows' version: "
             "`(q @ k.transpose(-2, -1)) * self.scale`, `softmax`, `attn @ v`) and torch 1.x's "
             "`F.multi_head_attention_forward` with the weights returned (the mmsegmentation rows) compute it: the "
             "matmuls keep contiguous copies of q, k and v and the out-projection the transposed output's copy (4 "
             "q-sized tensors, no log-sum-exp), and per score the softmax output, fp32 under torch autocast (softmax is "
             "on autocast's fp32 list, the matmuls on its 16-bit list) plus the second matmul's 16-bit cast of it (4 + "
             "2 B), in the compute dtype otherwise. Measured on the CPU (tests/test_vram_round9.py): 64h + 4 B per "
             "score in fp32, 32h + 2 in bf16. It replaces the eighth round's reading of the flag as SDPA's math "
             "backend (72h in fp32), which no row ran.", "",
             "Counted when the request states it: `model_ema` (timm's ModelEma, DeiT's `--model-ema`, on by default: "
             "`deepcopy(model)` left on the model's GPU), one more copy of the weights in the model's dtype "
             "(`_model_ema`; the field is `VramRequest.model_ema` in tools/schemas.py, off by default). No frozen row "
             "states it (an erratum on the eighth round's file would have to say it).", "",
             "Calibration before the round (commit 11b0c28) → after, median / max / rows:", "",
             "| file | before the round | after |", "|---|---|---|"]
    lines += _formula_round_tables(mem, file_of, by_id, BEFORE_ROUND9, BEFORE_ROUND9_ALL, moved, BEFORE_ROUND9_TOP)
    others = [r for r in mem if r.set != "new kinds 8"]
    lines += ["", f"What it shows. Only {len(moved)} of the eighth round's vision rows moved; none of the {len(others)} "
              "rows of the earlier files did (the kind reaches `vit` shapes only, the explicit path the ViT rows that state "
              "`flash_attention: false`, and every earlier ViT row states FlashAttention/SDPA). Routed to the "
              "ViT count, DeiT-S and DeiT-Ti read further under their figures than as decoders (whose per-token loss "
              "over 1000 classes happened to fill part of the gap), and DeiT-B moved up by the fp32 softmax and its "
              "16-bit cast. The three DeiT rows now miss by "
              + ", ".join(f"{gap[r.id]:.2f} GiB" for r in mesa)
              + " (B, S, Ti: " + " / ".join(f"{gap[r.id] * GIB / (197 * 128 * 12):,.0f}" for r in mesa)
              + " B per token per block, about 18 B per unit of width at every size: a per-token tensor set of the "
              "blocks, not the scores, which grow with the heads).", "",
              "Not adopted: (a) what holds the DeiT rows' 18h bytes per token per block was not established from code: "
              "timm 0.3.2's drop-path (`x.div(keep_prob) * random_tensor`) would keep its 16-bit branch outputs only if "
              "torch 1.7's autograd saved both operands of a multiplication whatever requires grad (not read), 4h at "
              "most; GELU is not on torch 1.7's autocast fp32 list; and whether the baseline ran timm's DeiT or Mesa's "
              "`models.py` with its custom modules (`ms.Linear`, `ms.GELU`, `ms.Softmax`) and the policy off is not "
              "said. (b) The mmsegmentation rows are fp32, where the explicit softmax is fp32 already, so torch 1.x "
              "`nn.MultiheadAttention`'s fp32 weights add nothing the count lacked; the explicit count is smaller than "
              "the math backend's (64h against 72h), so they read a little further under. Their gap still grows with "
              "the crop (the segmentation heads and the 150-class logits upsampled to the crop, no field states "
              "them). (c) DeiT's model EMA is modelled but not stated by the Mesa rows (no erratum on a file whose "
              "reading is frozen at its evaluation without one); it is 0.02-0.32 GiB of their 1.0-4.0 GiB gaps.", ""]
    return lines


# The tenth formula round's "before" (the code of commit 1e69346, the ninth round's after-state): every file's
# median / max |error| and rows, the overall figure and the ten largest residuals, measured by
# `python benchmarks/accuracy.py` at that commit and frozen here. `AFTER_ROUND9_GIB`: that code's estimates (GiB, as
# evaluate_memory gives them, rounded to 0.001) for the rows the tenth round moved, the only rows that state its new
# request fields; the ninth round's reading uses them so that it stays what that round measured.
BEFORE_ROUND10 = dict(BEFORE_ROUND9, **{"published_memory_heldout_kinds8.yaml": (0.261, 0.683, 16)})
BEFORE_ROUND10_ALL = (0.065, 0.996, 418)
BEFORE_ROUND10_TOP = (
    ("lit-tp-example-fabric-llama2-7b-tp2-fsdp2", 0.996), ("mmseg-segmenter-vit-t-mask-512-ddp8-b1", -0.683),
    ("swift-chatglm3-6b-lora-8192", -0.651), ("peft-mmqa-llama32-3b-lora-r32", 0.602),
    ("peft-mmqa-llama32-3b-lora-r64", 0.598), ("mmseg-segmenter-vit-s-mask-512-ddp8-b1", -0.531),
    ("swift-qwen-7b-bnb4-2048", -0.508), ("mmseg-segmenter-vit-s-linear-512-ddp8-b1", -0.498),
    ("dlperf-megatron-mp-1x8x1-16-1536x16", -0.489), ("dlperf-megatron-mp-1x32x1-16-3072x32", 0.479),
)
AFTER_ROUND9_GIB = {
    "mmseg-segmenter-vit-t-mask-512-ddp8-b1": 0.383, "mmseg-segmenter-vit-s-linear-512-ddp8-b1": 0.893,
    "mmseg-segmenter-vit-s-mask-512-ddp8-b1": 0.953, "mmseg-segmenter-vit-b-mask-512-ddp8-b1": 2.419,
    "mmseg-segmenter-vit-l-mask-640-ddp8-b1": 10.553, "mmseg-setr-naive-vit-l-512-ddp8-b2": 10.553,
    "mmseg-setr-naive-vit-l-768-cityscapes-ddp8-b1": 15.521,
}
DENSE_FIELDS = ("dense_classes", "dense_label_pixels", "dense_loss_heads")


def _round10_reading(mem: list[MemoryResult]) -> list[str]:
    """The tenth formula round (calibration only): what changed and why, every file before and after, each row it
    moved, the largest residuals, what was not adopted. The ninth held-out round (new kinds 9), collected apart, frozen
    before it and evaluated once after it, is not part of it: it has its own reading; so has the tenth held-out round
    (new kinds 10), frozen after it."""
    mem = [r for r in mem if r.set not in ("new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12", "new kinds 13")]
    file_of = {i: path.name for paths in MEMORY_SETS.values() for path in paths for i in _file_ids(path)}
    by_id = {r.id: r for r in mem}
    moved = {rid: gib / by_id[rid].measured_gib - 1 for rid, gib in AFTER_ROUND9_GIB.items()
             if abs(by_id[rid].ours_gib - gib) > 0.005 + 1e-9}
    seg = [by_id[rid] for rid in AFTER_ROUND9_GIB]
    lit = {k: by_id[k] for k in ("lit-tp-example-fabric-llama2-7b-tp2-fsdp2", "lit-tp-example-trainer-llama2-7b-tp2-fsdp2")}
    swift = {k: by_id[k] for k in ("swift-qwen-7b-bnb4-2048", "swift-qwen-7b-gptq4-2048")}
    lines = ["### Reading the tenth formula round (calibration only)", "",
             "Every file is calibration in this round (the eighth round's held-out file is spent since its one "
             "evaluation; the ninth held-out round is being collected apart and was not seen). No new data source. "
             "Adopted, read from the frameworks' code and checked on all rows at once:", "",
             "1. A dense-prediction head's per-pixel loss (`_dense_logits` in tools/vram.py), counted when the request "
             "states it through three new `VramRequest` fields: `dense_classes`, `dense_label_pixels` (the label map's "
             "height x width) and `dense_loss_heads` (the decode head plus each auxiliary head). mmsegmentation 0.x "
             "`BaseDecodeHead.losses` (mmseg/models/decode_heads/decode_head.py) resizes every head's logits to the "
             "label map (`resize(input=seg_logit, size=seg_label.shape[2:], mode='bilinear')`) under "
             "`@force_fp32(apply_to=('seg_logit',))` and calls `CrossEntropyLoss` = `F.cross_entropy(pred, label, "
             "reduction='none')` = `nll_loss(log_softmax(x))`: each head's loss keeps its fp32 log-softmax output "
             "(classes x pixels) until backward reaches it, and backward, which starts at the losses while every "
             "block's activations are still held, makes nll_loss's input gradient and log-softmax's gradient of the "
             "same size for the head it runs first: (heads + 2) fp32 maps per image at the peak, the same three-tensor "
             "backward moment the LLM loss count uses. Segmenter has one decode head "
             "(`_base_/models/segmenter_vit-b16_mask.py`: no `auxiliary_head`), SETR-Naive a decode head and three "
             "auxiliary `SETRUPHead`s (`_base_/models/setr_naive.py`, loss_weight 0.4 each). Errata in "
             "tests/data/published_memory_errata.yaml (\"Tenth formula round\") state the three fields on the seven "
             "mmsegmentation rows of the eighth round's file, read from each row's config (ADE20K: 150 classes, 512 or "
             "640 crops; Cityscapes: 19 classes, 768 crops); each only adds the fields. A request that states a dense "
             "head for inference or a model that is not a vision transformer gets `vram.dense_logits_ignored`.", "",
             "Calibration before the round (commit 1e69346) → after, median / max / rows:", "",
             "| file | before the round | after |", "|---|---|---|"]
    lines += _formula_round_tables(mem, file_of, by_id, BEFORE_ROUND10, BEFORE_ROUND10_ALL, moved, BEFORE_ROUND10_TOP)
    lines += ["", f"What it shows. Only the {len(moved)} mmsegmentation rows moved (the only rows that state the "
              "fields); no other row of any file did. They read "
              + ", ".join(f"{r.error:+.0%}" for r in seg)
              + " (ViT-T, ViT-S linear, ViT-S, ViT-B, ViT-L 640, SETR 512 x 2, SETR Cityscapes 768), from -35 … -68 % "
              "before: the per-pixel maps were most of the small models' gap and little of the large ones', so what "
              "is left is a nearly constant third of the figure at every size ("
              + ", ".join(f"{(r.measured_gib - r.ours_gib):.2f}" for r in seg)
              + " GiB still missing), a share of the backbone rather than of the crop.", "",
              "Not adopted (no mechanism read from the frameworks' code at the rows' versions in this round):", "",
              "- (a) The rest of the mmsegmentation gap: the heads' own maps (SETR's 1x1 convolutions with SyncBN and "
              "ReLU at 256-512 channels upsampled to a quarter of the crop, four heads; Segmenter's two mask-transformer "
              "layers over the patch tokens and 150 class embeddings) need head-shape fields that no config read this "
              "round was turned into; torch 1.x's `nn.MultiheadAttention` returns the head-averaged weights "
              "(`attn_output_weights.sum(dim=1) / num_heads`), a temporary of which autograd saves nothing (the backward of a sum and of a division by a number needs no tensor).",
              f"- (b) `lit-tp-example-fabric-llama2-7b-tp2-fsdp2` ({lit['lit-tp-example-fabric-llama2-7b-tp2-fsdp2'].error:+.0%}): "
              "the Trainer example of the same configuration (TP 2 x FSDP2 2, Llama 2 7B, batch 8 x 128, reserved) "
              f"reads {lit['lit-tp-example-trainer-llama2-7b-tp2-fsdp2'].measured_gib:.2f} GiB, where the same "
              f"estimate ({lit['lit-tp-example-trainer-llama2-7b-tp2-fsdp2'].ours_gib:.2f} GiB) is "
              f"{lit['lit-tp-example-trainer-llama2-7b-tp2-fsdp2'].error:+.0%}: two figures a factor of two apart for one "
              "stated configuration; no count serves both.",
              f"- (c) `swift-qwen-7b-bnb4-2048` ({swift['swift-qwen-7b-bnb4-2048'].error:+.0%}) and its GPTQ twin "
              f"({swift['swift-qwen-7b-gptq4-2048'].error:+.0%}) get one estimate "
              f"({swift['swift-qwen-7b-bnb4-2048'].ours_gib:.2f} GiB) for figures "
              f"{swift['swift-qwen-7b-bnb4-2048'].measured_gib - swift['swift-qwen-7b-gptq4-2048'].measured_gib:.2f} GiB "
              "apart; ms-swift at 97e4d198b does not call PEFT's `prepare_model_for_kbit_training` (third round), so "
              "PEFT's fp32 upcast is not it, and bitsandbytes' one dequantised matrix is counted; what else the bnb path "
              "holds was not read this round.",
              "- (d) `swift-chatglm3-6b-lora-8192` / `swift-yi-6b-lora-8192` (-65 / -47 %): which attention path "
              "ChatGLM3's remote code took at batch 1 (SDPA's causal kernel or the torch < 2 explicit branch, whose "
              "bytes per score the gap's s² growth matches) is still not established, and the caching allocator's "
              "reserve over a dataset of mixed lengths is not modelled (third round, 2a and 2c).",
              "- (e) `peft-mmqa-llama32-3b-lora-r32/64` (+60 %): the run pads each batch to its own longest sample "
              "(MetaMathQA's are far shorter than the 768-token cap the rows state): a length the rows do not state, "
              "not a tensor the count adds.",
              "- (f) `dlperf-megatron-mp-*` (-49 … +48 %): tensor parallelism 8-32 on V100-16GB read through nvidia-smi "
              "(grade C); the error climbs with the TP degree (TP 8 -49 %, TP 16 -16 %, TP 32 +48 %), which no "
              "Megatron-LM 8aa4619 mechanism read this round explains.",
              "- (g) The DeiT rows' ~18 B per unit of width per token per block: torch 1.7's autograd codegen was not "
              "read, so whether drop-path's multiplication saves its 16-bit branch output stays open.", ""]
    return lines


# ------------------------------------------------------------------ the ninth held-out round (new kinds 9)

# The ninth round's breakdowns: the source's pages (one repository, two model-zoo READMEs) and the kind, a 2D CNN
# (TSN ResNet-50) against a video transformer (TimeSformer ViT-B/16)
ROUND9_GROUP_TABLES = (("By source page", "source", "source page", None),
                       ("By kind (CNN vs ViT video)", "kind", "kind", sorted))


# The eleventh formula round (spent data only; no fresh held-out set exists for it): the estimates of the eight
# milabench rows before it (commit 1253609, the code of the tenth round's evaluation, without the round's errata) and
# every set's median / max |error| / rows before it (the same commit; no row outside those eight moved).
BEFORE_ROUND11_GIB = {
    "milabench-bert-base-fp16-amp-h100-b1": 3.133, "milabench-bert-base-fp16-amp-h100-b16": 6.417,
    "milabench-bert-base-fp16-amp-h100-b64": 17.668, "milabench-bert-base-fp16-amp-h100-b104": 27.044,
    "milabench-bert-base-fp16-amp-h100-b136": 34.545, "milabench-bert-base-fp32-h100-b16": 8.347,
    "milabench-bert-base-fp32-h100-b64": 26.028, "milabench-bert-base-fp32-h100-b128": 49.602,
}
BEFORE_ROUND11_SETS = {
    "first set": (0.049, 0.157, 26), "new kinds": (0.055, 0.296, 20), "new kinds 2": (0.078, 0.651, 107),
    "new kinds 3": (0.031, 0.602, 47), "new kinds 4": (0.061, 0.297, 79), "new kinds 5": (0.063, 0.996, 68),
    "new kinds 6": (0.076, 0.191, 35), "new kinds 7": (0.063, 0.434, 20), "new kinds 8": (0.250, 0.345, 16),
    "new kinds 9": (0.011, 0.337, 6), "new kinds 10": (0.322, 0.424, 12),
}
BEFORE_ROUND11_ALL = (0.067, 0.996, 436)


def _round11_reading(mem: list[MemoryResult]) -> list[str]:
    """The eleventh formula round, read on spent data only: the masked-LM head of an encoder, every set before and
    after, each row it moved by source. The tenth held-out round's frozen reading is unchanged; no fresh held-out set
    measures this change; the eleventh held-out round (new kinds 11), frozen after it, has its own reading."""
    mem = [r for r in mem if r.set not in ("new kinds 11", "new kinds 12", "new kinds 13")]
    by_id = {r.id: r for r in mem}
    lines = ["### Reading the eleventh formula round (spent data only: no fresh held-out set)", "",
             "Every figure below is a reading on spent data: the calibration files and every held-out round, the "
             "tenth included, have been evaluated before this change, and no held-out set was frozen for it, so "
             "nothing here is a held-out measurement of the change. The tenth round's reading at its evaluation "
             "(its own section) is frozen and unchanged; its live figures are printed under \"Since the evaluation\".", "",
             "Adopted, read from the frameworks' code (tools/vram.py `_logit_bytes`, `_autocast_loss_bytes`; "
             "tools/vram_shape.py `layer_style`):", "",
             "1. An encoder trained with a masked-LM head (mode pretrain for an encoder: HF BertForMaskedLM and the "
             "like) holds vocabulary-size logits for every position: `loss_fct(prediction_scores.view(-1, V), "
             "labels.view(-1))` over all 512 positions, with no `.float()` upcast and no shifted copy "
             "(`LayerStyle.shift_copy` False; `vram.mlm_head`). Until this round such a row counted no logits at all "
             "when its mode was full (`vram.encoder_head`), which was most of the milabench gap: 15.6 M logits per "
             "sequence for BERT-base at 512 tokens.",
             "2. Under CUDA autocast the loss of a model that does not upcast runs ATen's `cross_entropy_loss`, which "
             "calls `log_softmax(self, class_dim, self.scalar_type())`: the dtype is set, so autocast's "
             "fp32_set_opt_dtype policy leaves log-softmax in 16-bit; nll_loss, on the fp32 list, saves an fp32 cast "
             "of it. At the start of backward: 2 (log-softmax output) + 4 (fp32 copy) + 4 (nll_loss's gradient) = "
             "10 B per logit, not the 14 of the HF causal-LM count. Applied to the masked-LM head only; the same "
             "path serves Qwen (v1) and T5 under autocast, but it would move 45 Qwen calibration rows (the ms-swift "
             "ones down by up to 15 points, already under), so those keep the earlier count until a round checks "
             "them.",
             "3. `VramRequest.output_kept` (new): a step that keeps the model output through backward (milabench's "
             "Runner.step: `outputs = self.model(**data)`, then `scale(outputs.loss).backward()`) holds the logits "
             "at the loss's backward moment too: 12 B per logit under fp16 autocast, 16 in fp32. Checked on the CPU "
             "with transformers 5.24's BertForMaskedLM in fp32 (a dispatch-mode count of live tensors): four "
             "logit-sized fp32 tensors at `_log_softmax_backward_data`, one fewer when the output is freed.", "",
             "Errata (tests/data/published_memory_errata.yaml, \"Eleventh formula round\") state on the eight spent "
             "milabench rows that they train BertForMaskedLM (mode full -> pretrain) and keep the output "
             "(output_kept: true); nothing else changes. The layers' own count (42h bytes per token and layer under "
             "AMP with SDPA) was re-derived tensor by tensor and is unchanged.", "",
             "Each set before the round (commit 1253609) -> now, median / max |error| / rows (spent data):", "",
             "| set | before the round | now |", "|---|---|---|"]
    for name, (med, mx, n) in BEFORE_ROUND11_SETS.items():
        now = _summary([r.error for r in mem if r.set == name])
        cell = "—" if now is None else f"{now[0]:.1%} / {now[1]:.1%} / {now[2]}"
        lines.append(f"| {name} | {med:.1%} / {mx:.1%} / {n} | {cell} |")
    now = _summary([r.error for r in mem])
    lines.append(f"| all rows | {BEFORE_ROUND11_ALL[0]:.1%} / {BEFORE_ROUND11_ALL[1]:.1%} / {BEFORE_ROUND11_ALL[2]} | "
                 f"{now[0]:.1%} / {now[1]:.1%} / {now[2]} |")
    rows = [by_id[k] for k in BEFORE_ROUND11_GIB if k in by_id]
    lines += ["", "The rows it moved (all of them milabench's, tenth round, spent; no other row of any file moved by "
              "more than 0.005 GiB):", "", "| row | measured GiB | before | now |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.id} | {r.measured_gib:.2f} | {_pct(BEFORE_ROUND11_GIB[r.id] / r.measured_gib - 1)} | "
                     f"{_pct(r.error)} |")
    mila = _summary([r.error for r in rows])
    mli = _summary([r.error for r in mem if r.set == "new kinds 10" and r.id not in BEFORE_ROUND11_GIB])
    if mila and mli:
        lines += ["", f"Round 10 by source now (spent): mila-iqia/milabench median {mila[0]:.1%}, max {mila[1]:.1%} "
                  "(34.8% / 42.4% at the evaluation); mli/transformers-benchmarks "
                  f"median {mli[0]:.1%}, max {mli[1]:.1%} (unchanged). What it shows: the miss was the masked-LM "
                  "head, not the layers; the rows are now over (the per-sequence growth we count is 104-110% of the "
                  "measured one in fp16 and 110-114% in fp32), the excess being about the transient slack the estimator "
                  "charges on the logit buffers (0.05 + 0.22 of them; their measured reserve here is nearer 0.1-0.2). "
                  "The batch-1 row stays under (-16%): its peak is the optimizer step. Not adopted: a different "
                  "slack for these rows (a fit), the MLM head's transform (dense + GELU + LayerNorm: about 10h bytes "
                  "per token, under 1% of a row) and the embeddings' LayerNorm and dropout (5h)."]
    return lines + [""]


# The twelfth formula round (session 16, spent data only; no fresh held-out set measures it): `AFTER_ROUND11_GIB` is
# the code's estimates before it (commit e686e50, the eleventh formula round's after-state: no formula changed between),
# GiB as evaluate_memory gives them rounded to 0.001, for every row it moved; the readings of the earlier formula rounds
# (`_round4_reading` … `_round11_reading`) read those rows at these figures so that each stays what its round measured.
# `BEFORE_ROUND12F_SETS` / `_ALL`: every set's median / max |error| / rows at that commit.
AFTER_ROUND11_GIB = {
    "dlperf-megatron-dp-8x1x1-16-1536x16": 14.311, "dlperf-megatron-dp-16x1x1-32-1536x16": 14.311,
    "dlperf-megatron-dp-32x1x1-64-1536x16": 14.311, "dlperf-megatron-2d-2x4x1-16-1536x16": 6.64,
    "dlperf-megatron-2d-4x2x1-16-1536x16": 8.884, "dlperf-megatron-2d-2x8x1-16-2304x24": 9.107,
    "dlperf-megatron-2d-4x8x1-32-2304x24": 9.107, "dlperf-megatron-dp-pp-8x1x4-512-1536x16": 5.699,
    "dlperf-megatron-2d-pp-2x4x4-512-2304x24": 8.209, "dlperf-megatron-2d-pp-2x8x2-512-2304x24": 6.886,
    "dlperf-ds-gpt2-zero0-8gpu": 11.925, "dlperf-ds-gpt2-zero0-16gpu": 11.925, "dlperf-ds-gpt2-zero0-32gpu": 11.925,
    "mds-gpt3-1.3b-tp2-dp8-fp16-ds-ckpt-16xv100-b2-s2048": 14.654,
    "mds-gpt3-1.3b-tp2-dp8-fp16-megatron-recompute-16xv100-b2-s2048": 14.654,
    "mli-megatron-bert-large-bf16-1gpu-b16": 21.493, "mli-megatron-gpt2-medium-bf16-1gpu-b5": 21.405,
    "mli-megatron-gpt2-medium-bf16-ddp2-b5": 22.065, "mli-megatron-gpt2-medium-bf16-tp2-b10": 19.273,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-2xp100-dp2-mb16": 10.916,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-4xp100-dp4-mb16": 10.916,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-16xa100-dp16-mb32": 19.049,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-8xa100-tp2-pp2-dp2-mb4": 2.882,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-16xa100-tp2-pp2-dp4-mb4": 2.882,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-128xa100-tp2-pp2-dp32-mb4": 2.882,
    "fairseq-fsdp-gpt3-13b-cpuoffload-1xv100-b8x2048": 75.18, "llmaction-megatron-gpt2-345m-fp16-4dp-mb1": 10.228,
}
BEFORE_ROUND12F_SETS = {
    "first set": (0.049, 0.157, 26), "new kinds": (0.055, 0.296, 20), "new kinds 2": (0.078, 0.651, 107),
    "new kinds 3": (0.031, 0.602, 47), "new kinds 4": (0.061, 0.297, 79), "new kinds 5": (0.063, 0.996, 68),
    "new kinds 6": (0.076, 0.191, 35), "new kinds 7": (0.063, 0.434, 20), "new kinds 8": (0.250, 0.345, 16),
    "new kinds 9": (0.011, 0.337, 6), "new kinds 10": (0.082, 0.164, 12), "new kinds 11": (0.019, 0.043, 3),
    "new kinds 12": (0.135, 2.349, 17), "new kinds 13": (0.026, 0.082, 3),
}
BEFORE_ROUND12F_ALL = (0.064, 2.349, 459)


def _as_of_round11(mem: list[MemoryResult]) -> list[MemoryResult]:
    """The rows as the eleventh formula round left them: the rows the twelfth moved at their frozen estimates."""
    return [replace(r, ours_gib=AFTER_ROUND11_GIB[r.id]) if r.id in AFTER_ROUND11_GIB else r for r in mem]


def _round12f_reading(mem: list[MemoryResult]) -> list[str]:
    """The twelfth formula round, read on spent data only: every set before and after (calibration and held-out
    apart), each row it moved."""
    by_id = {r.id: r for r in mem}
    lines = ["### Reading the twelfth formula round (session 16; spent data only: no fresh held-out set)", "",
             "Every figure below is a reading on spent data: every file has been evaluated before this change and no "
             "held-out set was frozen for it, so nothing here is a held-out measurement of it. The held-out rounds' "
             "readings at their evaluations stay frozen; their live figures are under \"Since the evaluation\".", "",
             "Adopted, read from the frameworks' code (tools/vram.py `_training`, `_after_backward_copies`):", "",
             "1. A 16-bit model with fp32 masters in the optimizer (the `half_model` layout: Megatron-LM --fp16/--bf16) "
             "under bf16 keeps one persistent fp32 gradient buffer: Megatron-LM turns accumulate_allreduce_grads_in_fp32 "
             "on for bf16 (megatron/arguments.py at d63c254), so `main_param.grad = model_param.main_grad.float()` is "
             "the buffer itself (4 B a parameter, not 2 + 4).",
             "2. Its gradient all-reduce runs after backward (Megatron-LM's local DDP, in place over the contiguous "
             "buffer or over a coalesced copy; DeepSpeed stage 0's flattened buckets): no DDP bucket at the backward "
             "peak; the copy counts only beyond what backward freed (`vram.ddp_after_backward`).",
             "3. `VramRequest.main_grads_at_step` (new, default off): under fp16 the fp32 main gradients are made at "
             "the step and freed by zero_grad (Megatron-LM since 4fd6432, 2021-07-09), so they count only beyond "
             "backward's short-lived tensors. Off, they are held beside backward, as Megatron-LM kept them before that "
             "commit (optimizer.py at 8aa4619). No spent row states it (its version is not in the request), so it "
             "moves none of them.",
             "4. FSDP on one GPU casts and gathers the 16-bit parameters per unit, as on many (torch FSDP runs NO_SHARD "
             "at world size 1; fairscale casts each unit's fp32 shard): no whole-model autocast copy, and the "
             "activations of a model computing in 16-bit.",
             "5. `VramRequest.fsdp_grads_to_cpu_per_unit` (new, default off): fairscale's FSDP moves each unit's "
             "gradient to the CPU in its post-backward hook (`param.grad.data = param._cpu_grad`), so nothing is staged "
             "until backward ends. No spent row states it.", "",
             "Each set before the round (commit e686e50) -> now, median / max |error| / rows (spent data):", "",
             "| set | split of its rows | before the round | now |", "|---|---|---|---|"]
    for name, (med, mx, n) in BEFORE_ROUND12F_SETS.items():
        rows = [r for r in mem if r.set == name]
        now = _summary([r.error for r in rows])
        splits = "/".join(sorted({r.split for r in rows}))
        cell = "—" if now is None else f"{now[0]:.1%} / {now[1]:.1%} / {now[2]}"
        lines.append(f"| {name} | {splits} | {med:.1%} / {mx:.1%} / {n} | {cell} |")
    now = _summary([r.error for r in mem])
    lines.append(f"| all rows | | {BEFORE_ROUND12F_ALL[0]:.1%} / {BEFORE_ROUND12F_ALL[1]:.1%} / "
                 f"{BEFORE_ROUND12F_ALL[2]} | {now[0]:.1%} / {now[1]:.1%} / {now[2]} |")
    cal = [r for r in mem if r.split == "calibration"]
    held = [r for r in mem if r.split != "calibration"]
    cal_before = _summary([(AFTER_ROUND11_GIB.get(r.id, r.ours_gib)) / r.measured_gib - 1 for r in cal])
    held_before = _summary([(AFTER_ROUND11_GIB.get(r.id, r.ours_gib)) / r.measured_gib - 1 for r in held])
    for label, before, rows in (("calibration rows", cal_before, cal), ("held-out rows (all spent)", held_before, held)):
        now = _summary([r.error for r in rows])
        if before and now:
            lines.append(f"| {label} | | {before[0]:.1%} / {before[1]:.1%} / {before[2]} | "
                         f"{now[0]:.1%} / {now[1]:.1%} / {now[2]} |")
    lines += ["", "The rows it moved (no other row of any file moved by more than 0.005 GiB):", "",
              "| row | set | measured GiB | before GiB | now GiB | before | now |", "|---|---|---:|---:|---:|---:|---:|"]
    for key, then in AFTER_ROUND11_GIB.items():
        r = by_id.get(key)
        if r is not None:
            lines.append(f"| {r.id} | {r.set} | {r.measured_gib:.2f} | {then:.2f} | {r.ours_gib:.2f} | "
                         f"{_pct(then / r.measured_gib - 1)} | {_pct(r.error)} |")
    lines += ["", "What it shows. The Megatron-LM rows that were over move toward their figures (lumi DP 2 and 4 "
              "+5% -> +3%, mli +0 to +5% -> -1%, llm-action DP 4 +20% -> +13%, Megatron-DeepSpeed's Megatron path "
              "+16% -> +7%; with `main_grads_at_step` stated, which their Megatron-LM versions would justify, lumi "
              "-2%, llm-action -3 to +9%, Megatron-DeepSpeed -3%), and DLPerf's DP 8/16/32 rows now "
              "read like its one-GPU row (-6 to -9% against -5%: the published peaks do not grow by a gradient-sized "
              "bucket from one GPU to 32). The rows already under go further under: DLPerf's TP and PP rows (grade C, "
              "nvidia-smi) and xduan7's TP 2 x PP 2 rows (-42 to -55%), whose gap is outside the tensors (their "
              "evaluation's reading), and DeepSpeed's stage-0 rows, whose FP16_Optimizer step flattens fp32 copies that "
              "are not counted. fairseq's one-GPU FSDP row goes from +235% to +126%: what is left is the whole fp32 "
              "gradient that torch FSDP would stage on the GPU, which fairscale moves to the CPU unit by unit "
              "(`fsdp_grads_to_cpu_per_unit`, not stated by the row; stated, the row reads +11.7%, as the 8-GPU row does, "
              "and the source's figure is the same on 1 and 8 GPUs)."]
    return lines + [""]


def _round9_error_cell(r: MemoryResult) -> str:
    """A row's error, or its refusal (a miss) with the estimator's reason."""
    return f"miss (refused: {r.refused})" if r.refused else _pct(r.error)


def _round9_heldout_reading(kinds9: list[MemoryResult], touched: list[str]) -> list[str]:
    """The ninth round's held-out file at its one evaluation: overall against the targets, every row, by source page and
    by kind, beside the code as the file was frozen (`BASELINE9_GIB`). `touched`: the ids errata correct. Generated
    once, at the evaluation, and frozen as `ROUND9_HELDOUT_READING_AT_EVAL`; a refused row is printed with its reason
    and counted as a miss."""
    now, before = _summary([r.error for r in kinds9]), _summary([r.before_error for r in kinds9])
    groups = _by_source_and_kind(kinds9)
    repos = {page.split(" ")[0] for page in groups["source"]}
    refused = [r for r in kinds9 if r.refused]
    within = sum(abs(r.error) <= TARGET_MAX for r in kinds9)
    within_before = sum(abs(r.before_error) <= TARGET_MAX for r in kinds9)
    under = sum(r.error < 0 for r in kinds9)
    moved = [r for r in kinds9 if not r.refused and abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # 0.01 GiB
    over = sorted((r for r in kinds9 if abs(r.error) > TARGET_MAX), key=lambda r: -abs(r.error))
    measures = ", ".join(f"{m} {sum(r.measure == m for r in kinds9)}" for m in sorted({r.measure for r in kinds9}))
    grades = ", ".join(f"{g} {sum(r.grade == g for r in kinds9)}" for g in sorted({r.grade or "" for r in kinds9}))
    cnn = sum((r.kind or "").startswith("vision-cnn") for r in kinds9)
    said = lambda ok: "met" if ok else "MISSED"  # noqa: E731
    lines = ["### Reading the ninth round's held-out evaluation", "",
             f"The ninth round's held-out set (`{HELDOUT_KINDS9_FILE.name}`), {now[2]} rows from {len(repos)} source "
             f"new to the project ({', '.join(sorted(repos))}: {len(groups['source'])} pages of its 0.x model zoo), "
             "frozen by digest (tests/data/held_out_freezes.md, commit b3fa46a) before the tenth formula round changed "
             "a formula (commit 9362a05), was evaluated once, after that round's changes were settled on spent rows "
             "only; " + ("no erratum touches the file. " if not touched else f"errata touch {', '.join(touched)}. ")
             + f"It is vision-only: {cnn} TSN rows (a 2D ResNet-50 on every sampled frame) and {now[2] - cnn} "
             "TimeSformer rows (a ViT-B/16 over 8-frame clips, joint space-time attention over 1,569 tokens or "
             f"space-only over 197), fp32 SGD with DDP on 8 GPUs; by measure: {measures}; by grade: {grades}. Decided "
             "at the freeze, before any evaluation: the round is reported as one small vision-only source, never as a "
             "reading of the LLM kinds (it holds no language-model, LoRA/QLoRA, encoder, T5 or Megatron row). "
             f"Targets: median ≤ {TARGET_MEDIAN:.0%}, max ≤ {TARGET_MAX:.0%}. At this evaluation: median "
             f"{now[0]:.1%} (target {said(now[0] <= TARGET_MEDIAN)}), max {now[1]:.1%} (target "
             f"{said(now[1] <= TARGET_MAX)}); {within} of {now[2]} rows within {TARGET_MAX:.0%}; {under} of {now[2]} "
             "under their figure; "
             + (f"{len(refused)} refused by the estimator, each counted as a miss "
                f"({', '.join(r.id for r in refused)}). "
                if refused else "no row refused by the estimator. ")
             + f"Before the round (the code as the file was frozen, commit b3fa46a: `BASELINE9_GIB`): median "
             f"{before[0]:.1%}, max {before[1]:.1%}, {within_before} of {now[2]} within {TARGET_MAX:.0%}. "
             + (f"The round's formula changes moved {len(moved)} of {now[2]} rows by more than 0.01 GiB: "
                + ", ".join(f"{r.id} ({_pct(r.before_error)} → {_pct(r.error)}, {r.before_gib:.2f} → "
                            f"{r.ours_gib:.2f} GiB)" for r in moved) + ". " if moved else
                "The round's formula changes moved no row of this set beyond the 0.01 GiB rounding of "
                "`BASELINE9_GIB` (they count a dense head's per-pixel loss, which no row here states). ")
             + "Rows over the max target: "
             + (", ".join(f"{r.id} ({r.kind}, {_round9_error_cell(r)}; {_pct(r.before_error)} before)" for r in over)
                if over else "none") + ".", "",
             "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in kinds9:
        est = "refused" if r.refused else f"{r.ours_gib:.2f}"
        lines.append(f"| {r.id} | {r.kind} | {r.measure} | {r.measured_gib:.2f} | {r.before_gib:.2f} | {est} | "
                     f"{_pct(r.before_error)} | {_round9_error_cell(r)} |")
    return lines + [""] + _group_tables(groups, ROUND9_GROUP_TABLES, within=True)[:-1]


# Round 9's held-out rows as estimated at its one evaluation (2026-12-02, the code of 9362a05, by this
# benchmarks/accuracy.py's evaluate_memory, rounded to 0.001 GiB; no row refused): the "at the evaluation" column of
# "Since the evaluation (ninth round)". BASELINE9_GIB is the code as the file was frozen (b3fa46a); the tenth formula
# round moved none of these rows (the two differ by BASELINE9_GIB's 0.01 GiB rounding only).
ROUND9_AT_EVAL_GIB: dict[str, float] | None = {
    "mmaction2-tsn-r50-1x1x3-k400-ddp8-b96": 8.062,
    "mmaction2-tsn-r50-video-1x1x8-k400-ddp8-b256": 20.864,
    "mmaction2-tsn-r50-1x1x8-hmdb51-ddp8-b256": 20.864,
    "mmaction2-tsn-r50-video-1x1x8-diving48-ddp8-b64": 5.501,
    "mmaction2-timesformer-jointst-vit-b-8f-ddp8-b7": 16.601,
    "mmaction2-timesformer-spaceonly-vit-b-8f-ddp8-b64": 9.586,
}

# The ninth round's held-out reading as generated at its one evaluation (`_round9_heldout_reading`, the code of
# 9362a05), frozen at once: its figures are that evaluation's, not the code's now; the live figures are printed after
# it, under "Since the evaluation (ninth round)" (`_round9_since_evaluation`). tests/test_vram_heldout9.py checks that
# `_round9_heldout_reading` on the rows at `ROUND9_AT_EVAL_GIB` gives this text back.
ROUND9_HELDOUT_READING_AT_EVAL: tuple[str, ...] | None = (
    "### Reading the ninth round's held-out evaluation",
    "",
    "The ninth round's held-out set (`published_memory_heldout_kinds9.yaml`), 6 rows from 1 source new to the project (open-mmlab/mmaction2: 2 pages of its 0.x model zoo), frozen by digest (tests/data/held_out_freezes.md, commit b3fa46a) before the tenth formula round changed a formula (commit 9362a05), was evaluated once, after that round's changes were settled on spent rows only; no erratum touches the file. It is vision-only: 4 TSN rows (a 2D ResNet-50 on every sampled frame) and 2 TimeSformer rows (a ViT-B/16 over 8-frame clips, joint space-time attention over 1,569 tokens or space-only over 197), fp32 SGD with DDP on 8 GPUs; by measure: allocated 6; by grade: C 6. Decided at the freeze, before any evaluation: the round is reported as one small vision-only source, never as a reading of the LLM kinds (it holds no language-model, LoRA/QLoRA, encoder, T5 or Megatron row). Targets: median ≤ 15%, max ≤ 35%. At this evaluation: median 1.1% (target met), max 33.7% (target met); 6 of 6 rows within 35%; 6 of 6 under their figure; no row refused by the estimator. Before the round (the code as the file was frozen, commit b3fa46a: `BASELINE9_GIB`): median 1.1%, max 33.8%, 6 of 6 within 35%. The round's formula changes moved no row of this set beyond the 0.01 GiB rounding of `BASELINE9_GIB` (they count a dense head's per-pixel loss, which no row here states). Rows over the max target: none.",
    "",
    "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    "| mmaction2-tsn-r50-1x1x3-k400-ddp8-b96 | vision-cnn-full-ddp | allocated | 8.15 | 8.06 | 8.06 | -1% | -1% |",
    "| mmaction2-tsn-r50-video-1x1x8-k400-ddp8-b256 | vision-cnn-full-ddp | allocated | 21.05 | 20.86 | 20.86 | -1% | -1% |",
    "| mmaction2-tsn-r50-1x1x8-hmdb51-ddp8-b256 | vision-cnn-full-ddp | allocated | 21.03 | 20.86 | 20.86 | -1% | -1% |",
    "| mmaction2-tsn-r50-video-1x1x8-diving48-ddp8-b64 | vision-cnn-full-ddp | allocated | 5.57 | 5.50 | 5.50 | -1% | -1% |",
    "| mmaction2-timesformer-jointst-vit-b-8f-ddp8-b7 | vision-video-full-ddp | allocated | 25.06 | 16.60 | 16.60 | -34% | -34% |",
    "| mmaction2-timesformer-spaceonly-vit-b-8f-ddp8-b64 | vision-video-full-ddp | allocated | 12.45 | 9.59 | 9.59 | -23% | -23% |",
    "",
    "By source page:",
    "",
    "| source page | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| open-mmlab/mmaction2 configs/recognition/tsn/README.md | 4 | 1.0% | 1.2% | 4 of 4 | both met | 1.0% | 1.2% | 4 of 4 | both met |",
    "| open-mmlab/mmaction2 configs/recognition/timesformer/README.md | 2 | 28.4% | 33.7% | 2 of 2 | max met, median NOT met | 28.4% | 33.8% | 2 of 2 | max met, median NOT met |",
    "",
    "By kind (CNN vs ViT video):",
    "",
    "| kind | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| vision-cnn-full-ddp | 4 | 1.0% | 1.2% | 4 of 4 | both met | 1.0% | 1.2% | 4 of 4 | both met |",
    "| vision-video-full-ddp | 2 | 28.4% | 33.7% | 2 of 2 | max met, median NOT met | 28.4% | 33.8% | 2 of 2 | max met, median NOT met |",
)


def _round9_since_evaluation(kinds9: list[MemoryResult]) -> list[str]:
    """The ninth round's held-out file now, after its one evaluation (frozen above as `ROUND9_HELDOUT_READING_AT_EVAL`):
    the live figures beside the evaluation's estimates (`ROUND9_AT_EVAL_GIB`)."""
    if not kinds9 or ROUND9_AT_EVAL_GIB is None:
        return []
    at_eval = [replace(r, before_gib=ROUND9_AT_EVAL_GIB[r.id]) for r in kinds9]
    now, then = _summary([r.error for r in at_eval]), _summary([r.before_error for r in at_eval])
    within = sum(abs(r.error) <= TARGET_MAX for r in at_eval)
    moved = [r for r in at_eval if r.refused or abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # at 0.001 GiB
    lines = ["#### Since the evaluation (ninth round)", "",
             f"`{HELDOUT_KINDS9_FILE.name}` was evaluated once (recorded above as it was generated then); the "
             "figures below are the code's now, beside the evaluation's estimates (`ROUND9_AT_EVAL_GIB`). Once a "
             "formula round reads the file's misses they test nothing. "
             f"Now: median {now[0]:.1%}, max {now[1]:.1%}; {within} of {now[2]} rows within {TARGET_MAX:.0%} (at the "
             f"evaluation: median {then[0]:.1%}, max {then[1]:.1%}). "
             + (f"Rows moved since the evaluation, {len(moved)} of {now[2]} (by more than 0.005 GiB from "
                "`ROUND9_AT_EVAL_GIB`, the evaluation's estimate):" if moved else
                "No row has moved since the evaluation by more than 0.005 GiB (`ROUND9_AT_EVAL_GIB`)."), ""]
    lines += _moved_rows_table(moved)
    return lines + _group_tables(_by_source_and_kind(at_eval), ROUND9_GROUP_TABLES, before="at the evaluation",
                                 within=True)


# ------------------------------------------------------------------ the tenth held-out round (new kinds 10)

# The tenth round's breakdowns, as decided at its freeze (tests/data/held_out_freezes.md, Session 12): one reading of
# the 12 rows, one per source (a repository: milabench's one scaling file, mli/transformers-benchmarks' one notebook),
# and the kinds
ROUND10_GROUP_TABLES = (("By source", "source", "source", None), ("By kind", "kind", "kind", sorted))


def _round10_groups(rows: list[MemoryResult]) -> dict[str, dict[str, list[MemoryResult]]]:
    """A held-out round's rows (the tenth on) by source (the repository: all its files one source), by kind and by
    grade; each round's `tables` name the breakdowns its reading prints."""
    groups: dict[str, dict[str, list[MemoryResult]]] = {"source": {}, "kind": {}, "grade": {}}
    for r in rows:
        groups["source"].setdefault(_source_page(r.source).split(" ")[0], []).append(r)
        groups["kind"].setdefault(r.kind or "", []).append(r)
        groups["grade"].setdefault(r.grade or "", []).append(r)
    return groups


@dataclass(frozen=True)
class HeldoutRound:
    """What a held-out round's one-evaluation reading and its "Since the evaluation" section say that differs from
    round to round (rounds 10 on: `_heldout_reading`, `_heldout_since_evaluation`)."""

    ordinal: str  # "tenth", as the headings spell it
    file: Path
    frozen: str  # how the file was frozen and on which code it was evaluated, as the reading's first sentence says it
    scope: Callable[[list[MemoryResult]], str]  # rows → what they measure and what the freeze decided (ends ". ")
    baseline: str  # the constant of the code as the file was frozen ("BASELINE10_GIB")
    baseline_commit: str
    at_eval: str  # the constant of the evaluation's estimates ("ROUND10_AT_EVAL_GIB")
    tables: tuple  # the breakdowns (`_group_tables`) of `_round10_groups`
    per_source: bool  # the reading states each source's figures (decided at the round's freeze)
    # rows the reading states apart, as decided at the freeze: (row attribute, its value, what those rows are), e.g.
    # ("grade", "C", "…"): the figures without them and theirs on their own (the twelfth round on)
    apart: tuple[str, str, str] | None = None


def _counts(rows: list[MemoryResult], attr: str) -> str:
    """'allocated 4, device 8': how many rows have each value of `attr` (measure, grade)."""
    values = [getattr(r, attr) or "" for r in rows]
    return ", ".join(f"{v} {values.count(v)}" for v in sorted(set(values)))


def _heldout_reading(rows: list[MemoryResult], touched: list[str], rnd: HeldoutRound) -> list[str]:
    """A held-out round's file at its one evaluation (rounds 10 on): all its rows against the targets, each source apart
    where the freeze decided so, every row and the round's breakdowns, beside the code as the file was frozen (its
    baseline constant). `touched`: the ids errata correct. Generated once, at the evaluation, and frozen; a refused row
    is printed with its reason and counted as a miss."""
    now, before = _summary([r.error for r in rows]), _summary([r.before_error for r in rows])
    groups = _round10_groups(rows)
    refused = [r for r in rows if r.refused]
    within = sum(abs(r.error) <= TARGET_MAX for r in rows)
    within_before = sum(abs(r.before_error) <= TARGET_MAX for r in rows)
    under = sum(r.error < 0 for r in rows)
    moved = [r for r in rows if not r.refused and abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # 0.01 GiB
    over = sorted((r for r in rows if abs(r.error) > TARGET_MAX), key=lambda r: -abs(r.error))
    said = lambda ok: "met" if ok else "MISSED"  # noqa: E731

    def source_said(repo: str, rs: list[MemoryResult]) -> str:
        s = _summary([r.error for r in rs])
        n = sum(abs(r.error) <= TARGET_MAX for r in rs)
        return (f"{repo}, {s[2]} rows: median {s[0]:.1%}, max {s[1]:.1%} ({_targets_met(s[0], s[1])}), {n} of {s[2]} "
                f"within {TARGET_MAX:.0%}, {sum(r.error < 0 for r in rs)} of {s[2]} under their figure")

    def apart_said() -> str:
        attr, value, what = rnd.apart
        rest = [r for r in rows if getattr(r, attr) != value]
        them = [r for r in rows if getattr(r, attr) == value]
        s, t = _summary([r.error for r in rest]), _summary([r.error for r in them])
        n_s = sum(abs(r.error) <= TARGET_MAX for r in rest)
        n_t = sum(abs(r.error) <= TARGET_MAX for r in them)
        return (f"Per {attr}, the {value} rows apart ({what}): without them, {s[2]} rows ({attr} "
                f"{_counts(rest, attr)}): median {s[0]:.1%} (target {said(s[0] <= TARGET_MEDIAN)}), max {s[1]:.1%} "
                f"(target {said(s[1] <= TARGET_MAX)}), {n_s} of {s[2]} within {TARGET_MAX:.0%}; the {t[2]} {value} "
                f"rows on their own: median {t[0]:.1%}, max {t[1]:.1%} ({_targets_met(t[0], t[1])}), {n_t} of {t[2]} "
                f"within {TARGET_MAX:.0%}. ")

    n_sources = len(groups["source"])
    lines = [f"### Reading the {rnd.ordinal} round's held-out evaluation", "",
             f"The {rnd.ordinal} round's held-out set (`{rnd.file.name}`), {now[2]} rows from {n_sources} "
             f"source{'s' if n_sources != 1 else ''} new to the project ({', '.join(groups['source'])}), "
             f"{rnd.frozen}; "
             + ("no erratum touches the file. " if not touched else f"errata touch {', '.join(touched)}. ")
             + rnd.scope(rows)
             + f"Targets: median ≤ {TARGET_MEDIAN:.0%}, max ≤ {TARGET_MAX:.0%}. At this evaluation, all {now[2]} rows: "
             f"median {now[0]:.1%} (target {said(now[0] <= TARGET_MEDIAN)}), max {now[1]:.1%} (target "
             f"{said(now[1] <= TARGET_MAX)}); {within} of {now[2]} rows within {TARGET_MAX:.0%}; {under} of {now[2]} "
             "under their figure; "
             + (f"{len(refused)} refused by the estimator, each counted as a miss "
                f"({', '.join(r.id for r in refused)}). "
                if refused else "no row refused by the estimator. ")
             + ("Per source: " + "; ".join(source_said(repo, rs) for repo, rs in groups["source"].items()) + ". "
                if rnd.per_source else "")
             + (apart_said() if rnd.apart else "")
             + f"Before (the code as the file was frozen, commit {rnd.baseline_commit}: `{rnd.baseline}`): median "
             f"{before[0]:.1%}, max {before[1]:.1%}, {within_before} of {now[2]} within {TARGET_MAX:.0%}; "
             + (f"{len(moved)} of {now[2]} rows moved by more than 0.01 GiB since the freeze: "
                + ", ".join(f"{r.id} ({_pct(r.before_error)} → {_pct(r.error)}, {r.before_gib:.2f} → "
                            f"{r.ours_gib:.2f} GiB)" for r in moved) + ". " if moved else
                "no formula changed between the freeze and the evaluation, so no row differs from it beyond the "
                f"0.01 GiB rounding of `{rnd.baseline}`. ")
             + "Rows over the max target: "
             + (", ".join(f"{r.id} ({r.kind}, {_round9_error_cell(r)})" for r in over) if over else "none") + ".",
             "",
             "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        est = "refused" if r.refused else f"{r.ours_gib:.2f}"
        lines.append(f"| {r.id} | {r.kind} | {r.measure} | {r.measured_gib:.2f} | {r.before_gib:.2f} | {est} | "
                     f"{_pct(r.before_error)} | {_round9_error_cell(r)} |")
    return lines + ([""] + _group_tables(groups, rnd.tables, within=True)[:-1] if rnd.tables else [])


def _heldout_since_evaluation(rows: list[MemoryResult], rnd: HeldoutRound,
                              at_eval_gib: dict[str, float] | None) -> list[str]:
    """A held-out round's file now, after its one evaluation (its reading frozen): the live figures beside the
    evaluation's estimates (`at_eval_gib`, the round's `at_eval` constant), all rows and the round's breakdowns."""
    if not rows or at_eval_gib is None:
        return []
    at_eval = [replace(r, before_gib=at_eval_gib[r.id]) for r in rows]
    now, then = _summary([r.error for r in at_eval]), _summary([r.before_error for r in at_eval])
    within = sum(abs(r.error) <= TARGET_MAX for r in at_eval)
    moved = [r for r in at_eval if r.refused or abs(r.ours_gib - r.before_gib) > 0.005 + 1e-9]  # at 0.001 GiB
    lines = [f"#### Since the evaluation ({rnd.ordinal} round)", "",
             f"`{rnd.file.name}` was evaluated once (recorded above as it was generated then); the "
             f"figures below are the code's now, beside the evaluation's estimates (`{rnd.at_eval}`). Once a "
             "formula round reads the file's misses they test nothing. "
             f"Now: median {now[0]:.1%}, max {now[1]:.1%}; {within} of {now[2]} rows within {TARGET_MAX:.0%} (at the "
             f"evaluation: median {then[0]:.1%}, max {then[1]:.1%}). "
             + (f"Rows moved since the evaluation, {len(moved)} of {now[2]} (by more than 0.005 GiB from "
                f"`{rnd.at_eval}`, the evaluation's estimate):" if moved else
                f"No row has moved since the evaluation by more than 0.005 GiB (`{rnd.at_eval}`)."), ""]
    lines += _moved_rows_table(moved)
    return lines + _group_tables(_round10_groups(at_eval), rnd.tables, before="at the evaluation", within=True)


def _round10_scope(rows: list[MemoryResult]) -> str:
    """What the tenth round's rows measure, and what its freeze decided."""
    kind_n = lambda k: sum(r.kind == k for r in rows)  # noqa: E731
    encoders = sum((r.kind or "").startswith("encoder") for r in rows)
    return (f"It measures encoder and GPT-2-class training only: {encoders} BERT rows "
            f"({kind_n('encoder-amp-single-gpu') + kind_n('encoder-full-single-gpu')} of milabench's BERT-base "
            f"masked-LM at 512 tokens on one H100, {kind_n('encoder-amp-single-gpu')} in fp16 autocast and "
            f"{kind_n('encoder-full-single-gpu')} in fp32, device memory; {kind_n('encoder-pretrain-single-gpu')} "
            f"Megatron-LM BERT-large at 512 tokens in bf16) and {len(rows) - encoders} Megatron-LM GPT-2 medium rows "
            "(bf16 at 1,024 tokens: one GPU, DDP over 2 and TP 2 without sequence parallelism); by measure: "
            f"{_counts(rows, 'measure')}; by grade: {_counts(rows, 'grade')}. Decided at the freeze, before any "
            "evaluation: the round is read once over its rows and once per source, and it never measures the "
            "QLoRA+FSDP or T5-ZeRO kinds issue 11 names (it holds no QLoRA, LoRA, FSDP, CPU-offload, ZeRO or T5 row). ")


ROUND10 = HeldoutRound(
    "tenth", HELDOUT_KINDS10_FILE,
    "frozen by digest (tests/data/held_out_freezes.md, Session 12, commit 1da0eee) after the tenth formula round "
    "(commit 9362a05) and before any later formula change, was evaluated once, on the code as the file was frozen (no "
    "estimator file changed between the freeze and the evaluation, commit cf34381)",
    _round10_scope, "BASELINE10_GIB", "1da0eee", "ROUND10_AT_EVAL_GIB", ROUND10_GROUP_TABLES, per_source=True)


def _round10_heldout_reading(kinds10: list[MemoryResult], touched: list[str]) -> list[str]:
    """The tenth round's held-out file at its one evaluation: all 12 rows against the targets, each source apart, every
    row, by source and by kind, beside the code as the file was frozen (`BASELINE10_GIB`, which is also the evaluation's
    code). `touched`: the ids errata correct. Generated once, at the evaluation, and frozen as
    `ROUND10_HELDOUT_READING_AT_EVAL`; a refused row is printed with its reason and counted as a miss."""
    return _heldout_reading(kinds10, touched, ROUND10)


# Round 10's held-out rows as estimated at its one evaluation (2026-12-03, the code of cf34381 = the code of 1da0eee for
# every estimator file, by this benchmarks/accuracy.py's evaluate_memory, at the estimator's 0.001 GiB; no row refused):
# the "at the evaluation" column of "Since the evaluation (tenth round)".
ROUND10_AT_EVAL_GIB: dict[str, float] | None = {
    "milabench-bert-base-fp16-amp-h100-b16": 6.417,
    "milabench-bert-base-fp16-amp-h100-b64": 17.668,
    "milabench-bert-base-fp16-amp-h100-b136": 34.545,
    "milabench-bert-base-fp32-h100-b16": 8.347,
    "milabench-bert-base-fp32-h100-b64": 26.028,
    "milabench-bert-base-fp16-amp-h100-b1": 3.133,
    "milabench-bert-base-fp16-amp-h100-b104": 27.044,
    "milabench-bert-base-fp32-h100-b128": 49.602,
    "mli-megatron-bert-large-bf16-1gpu-b16": 21.493,
    "mli-megatron-gpt2-medium-bf16-1gpu-b5": 21.405,
    # as evaluate_memory returned it (the estimator's 27.174 GiB less its 0.75 GiB CUDA-context and 4.359 GiB
    # fragmentation lines, in binary floating point): written as 22.065 it would print 22.07 where the evaluation
    # printed 22.06
    "mli-megatron-gpt2-medium-bf16-ddp2-b5": 22.064999999999998,
    "mli-megatron-gpt2-medium-bf16-tp2-b10": 19.273,
}

# The tenth round's held-out reading as generated at its one evaluation (`_round10_heldout_reading`, the code of
# cf34381), frozen at once: its figures are that evaluation's, not the code's now; the live figures are printed after
# it, under "Since the evaluation (tenth round)" (`_round10_since_evaluation`). tests/test_vram_heldout10.py checks that
# `_round10_heldout_reading` on the rows at `ROUND10_AT_EVAL_GIB` gives this text back.
ROUND10_HELDOUT_READING_AT_EVAL: tuple[str, ...] | None = (
    "### Reading the tenth round's held-out evaluation",
    "",
    "The tenth round's held-out set (`published_memory_heldout_kinds10.yaml`), 12 rows from 2 sources new to the project (mila-iqia/milabench, mli/transformers-benchmarks), frozen by digest (tests/data/held_out_freezes.md, Session 12, commit 1da0eee) after the tenth formula round (commit 9362a05) and before any later formula change, was evaluated once, on the code as the file was frozen (no estimator file changed between the freeze and the evaluation, commit cf34381); no erratum touches the file. It measures encoder and GPT-2-class training only: 9 BERT rows (8 of milabench's BERT-base masked-LM at 512 tokens on one H100, 5 in fp16 autocast and 3 in fp32, device memory; 1 Megatron-LM BERT-large at 512 tokens in bf16) and 3 Megatron-LM GPT-2 medium rows (bf16 at 1,024 tokens: one GPU, DDP over 2 and TP 2 without sequence parallelism); by measure: allocated 4, device 8; by grade: B 8, C 4. Decided at the freeze, before any evaluation: the round is read once over its rows and once per source, and it never measures the QLoRA+FSDP or T5-ZeRO kinds issue 11 names (it holds no QLoRA, LoRA, FSDP, CPU-offload, ZeRO or T5 row). Targets: median ≤ 15%, max ≤ 35%. At this evaluation, all 12 rows: median 32.2% (target MISSED), max 42.4% (target MISSED); 8 of 12 rows within 35%; 8 of 12 under their figure; no row refused by the estimator. Per source: mila-iqia/milabench, 8 rows: median 34.8%, max 42.4% (neither met), 4 of 8 within 35%, 8 of 8 under their figure; mli/transformers-benchmarks, 4 rows: median 2.0%, max 5.4% (both met), 4 of 4 within 35%, 0 of 4 under their figure. Before (the code as the file was frozen, commit 1da0eee: `BASELINE10_GIB`): median 32.1%, max 42.3%, 8 of 12 within 35%; no formula changed between the freeze and the evaluation, so no row differs from it beyond the 0.01 GiB rounding of `BASELINE10_GIB`. Rows over the max target: milabench-bert-base-fp16-amp-h100-b136 (encoder-amp-single-gpu, -42%), milabench-bert-base-fp16-amp-h100-b104 (encoder-amp-single-gpu, -42%), milabench-bert-base-fp16-amp-h100-b64 (encoder-amp-single-gpu, -39%), milabench-bert-base-fp32-h100-b128 (encoder-full-single-gpu, -36%).",
    "",
    "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    "| milabench-bert-base-fp16-amp-h100-b16 | encoder-amp-single-gpu | device | 9.66 | 6.42 | 6.42 | -34% | -34% |",
    "| milabench-bert-base-fp16-amp-h100-b64 | encoder-amp-single-gpu | device | 29.15 | 17.67 | 17.67 | -39% | -39% |",
    "| milabench-bert-base-fp16-amp-h100-b136 | encoder-amp-single-gpu | device | 59.93 | 34.55 | 34.55 | -42% | -42% |",
    "| milabench-bert-base-fp32-h100-b16 | encoder-full-single-gpu | device | 12.05 | 8.35 | 8.35 | -31% | -31% |",
    "| milabench-bert-base-fp32-h100-b64 | encoder-full-single-gpu | device | 39.40 | 26.03 | 26.03 | -34% | -34% |",
    "| milabench-bert-base-fp16-amp-h100-b1 | encoder-amp-single-gpu | device | 3.79 | 3.13 | 3.13 | -18% | -17% |",
    "| milabench-bert-base-fp16-amp-h100-b104 | encoder-amp-single-gpu | device | 46.24 | 27.04 | 27.04 | -42% | -42% |",
    "| milabench-bert-base-fp32-h100-b128 | encoder-full-single-gpu | device | 77.11 | 49.60 | 49.60 | -36% | -36% |",
    "| mli-megatron-bert-large-bf16-1gpu-b16 | encoder-pretrain-single-gpu | allocated | 21.13 | 21.49 | 21.49 | +2% | +2% |",
    "| mli-megatron-gpt2-medium-bf16-1gpu-b5 | pretrain-single-gpu | allocated | 20.93 | 21.41 | 21.41 | +2% | +2% |",
    "| mli-megatron-gpt2-medium-bf16-ddp2-b5 | pretrain-ddp | allocated | 20.93 | 22.06 | 22.06 | +5% | +5% |",
    "| mli-megatron-gpt2-medium-bf16-tp2-b10 | pretrain-tp | allocated | 19.18 | 19.27 | 19.27 | +0% | +1% |",
    "",
    "By source:",
    "",
    "| source | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| mila-iqia/milabench | 8 | 34.8% | 42.4% | 4 of 8 | neither met | 34.8% | 42.3% | 4 of 8 | neither met |",
    "| mli/transformers-benchmarks | 4 | 2.0% | 5.4% | 4 of 4 | both met | 2.0% | 5.4% | 4 of 4 | both met |",
    "",
    "By kind:",
    "",
    "| kind | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| encoder-amp-single-gpu | 5 | 39.4% | 42.4% | 2 of 5 | neither met | 39.4% | 42.3% | 2 of 5 | neither met |",
    "| encoder-full-single-gpu | 3 | 33.9% | 35.7% | 2 of 3 | neither met | 33.9% | 35.7% | 2 of 3 | neither met |",
    "| encoder-pretrain-single-gpu | 1 | 1.7% | 1.7% | 1 of 1 | both met | 1.7% | 1.7% | 1 of 1 | both met |",
    "| pretrain-ddp | 1 | 5.4% | 5.4% | 1 of 1 | both met | 5.4% | 5.4% | 1 of 1 | both met |",
    "| pretrain-single-gpu | 1 | 2.3% | 2.3% | 1 of 1 | both met | 2.3% | 2.3% | 1 of 1 | both met |",
    "| pretrain-tp | 1 | 0.5% | 0.5% | 1 of 1 | both met | 0.5% | 0.5% | 1 of 1 | both met |",
)


def _round10_since_evaluation(kinds10: list[MemoryResult]) -> list[str]:
    """The tenth round's held-out file now, after its one evaluation (frozen above as
    `ROUND10_HELDOUT_READING_AT_EVAL`): the live figures beside the evaluation's estimates (`ROUND10_AT_EVAL_GIB`), all
    rows and each source."""
    return _heldout_since_evaluation(kinds10, ROUND10, ROUND10_AT_EVAL_GIB)


# ------------------------------------------------------------------ the eleventh held-out round (new kinds 11)


def _round11_scope(rows: list[MemoryResult]) -> str:
    """What the eleventh round's rows measure, and what its freeze decided."""
    kind_n = lambda k: sum(r.kind == k for r in rows)  # noqa: E731
    return (f"It measures encoder training only: {len(rows)} rows of one ColossalAI example, "
            "BertForSequenceClassification with the BERT-base shape, a 1,000-token vocabulary and a 10-class head on "
            "the pooled token (no LM head), eager attention, HybridAdam, batch 32 x 512 on each of 2 GPUs: torch DDP "
            f"in fp32 ({kind_n('encoder-full-ddp')}), torch DDP with fp16 autocast ({kind_n('encoder-amp-ddp')}) "
            f"and ColossalAI's low-level ZeRO stage 1 over an fp16 model ({kind_n('encoder-zero1')}); by measure: "
            f"{_counts(rows, 'measure')}; by grade: {_counts(rows, 'grade')}. Decided at the freeze, before any "
            "evaluation: the round is one reading of its rows (one source); they are classifiers, not masked-LM, so "
            "they test the layers' count, not the eleventh formula round's masked-LM head, and it never measures the "
            "QLoRA+FSDP or T5-ZeRO kinds issue 11 names (it holds no QLoRA, LoRA, FSDP, CPU-offload, T5 or "
            "masked-LM row). ")


# One reading of the 3 rows, decided at the freeze (tests/data/held_out_freezes.md, Session 13): one source, one kind
# a row, so no breakdown
ROUND11 = HeldoutRound(
    "eleventh", HELDOUT_KINDS11_FILE,
    "frozen by digest (tests/data/held_out_freezes.md, Session 13, commit 8640aae) after the eleventh formula round "
    "(commit a305df8) and before any later formula change, was evaluated once, on the code as the file was frozen (no "
    "estimator file changed between the freeze and the evaluation, commit 8771c3b)",
    _round11_scope, "BASELINE11_GIB", "8640aae", "ROUND11_AT_EVAL_GIB", (), per_source=False)


def _round11_heldout_reading(kinds11: list[MemoryResult], touched: list[str]) -> list[str]:
    """The eleventh round's held-out file at its one evaluation: its 3 rows against the targets and every row, beside
    the code as the file was frozen (`BASELINE11_GIB`, which is also the evaluation's code). Generated once, at the
    evaluation, and frozen as `ROUND11_HELDOUT_READING_AT_EVAL`."""
    return _heldout_reading(kinds11, touched, ROUND11)


# Round 11's held-out rows as estimated at its one evaluation (2026-12-03, the code of 8771c3b = the code of 8640aae for
# every estimator file, by this benchmarks/accuracy.py's evaluate_memory, at the estimator's 0.001 GiB; no row refused):
# the "at the evaluation" column of "Since the evaluation (eleventh round)".
ROUND11_AT_EVAL_GIB: dict[str, float] | None = {
    "colossalai-bert-vocab1k-ddp-fp32-2gpu-b32": 21.023,
    "colossalai-bert-vocab1k-ddp-fp16-amp-2gpu-b32": 15.56,
    "colossalai-bert-vocab1k-lowlevelzero1-fp16-2gpu-b32": 11.378,
}

# The eleventh round's held-out reading as generated at its one evaluation (`_round11_heldout_reading`, the code of
# 8771c3b), frozen at once: its figures are that evaluation's, not the code's now; the live figures are printed after
# it, under "Since the evaluation (eleventh round)" (`_round11_since_evaluation`). tests/test_vram_heldout11.py checks
# that `_round11_heldout_reading` on the rows at `ROUND11_AT_EVAL_GIB` gives this text back.
ROUND11_HELDOUT_READING_AT_EVAL: tuple[str, ...] | None = (
    "### Reading the eleventh round's held-out evaluation",
    "",
    "The eleventh round's held-out set (`published_memory_heldout_kinds11.yaml`), 3 rows from 1 source new to the project (hpcaitech/ColossalAI), frozen by digest (tests/data/held_out_freezes.md, Session 13, commit 8640aae) after the eleventh formula round (commit a305df8) and before any later formula change, was evaluated once, on the code as the file was frozen (no estimator file changed between the freeze and the evaluation, commit 8771c3b); no erratum touches the file. It measures encoder training only: 3 rows of one ColossalAI example, BertForSequenceClassification with the BERT-base shape, a 1,000-token vocabulary and a 10-class head on the pooled token (no LM head), eager attention, HybridAdam, batch 32 x 512 on each of 2 GPUs: torch DDP in fp32 (1), torch DDP with fp16 autocast (1) and ColossalAI's low-level ZeRO stage 1 over an fp16 model (1); by measure: allocated 3; by grade: B 3. Decided at the freeze, before any evaluation: the round is one reading of its rows (one source); they are classifiers, not masked-LM, so they test the layers' count, not the eleventh formula round's masked-LM head, and it never measures the QLoRA+FSDP or T5-ZeRO kinds issue 11 names (it holds no QLoRA, LoRA, FSDP, CPU-offload, T5 or masked-LM row). Targets: median ≤ 15%, max ≤ 35%. At this evaluation, all 3 rows: median 1.9% (target met), max 4.3% (target met); 3 of 3 rows within 35%; 2 of 3 under their figure; no row refused by the estimator. Before (the code as the file was frozen, commit 8640aae: `BASELINE11_GIB`): median 2.0%, max 4.3%, 3 of 3 within 35%; no formula changed between the freeze and the evaluation, so no row differs from it beyond the 0.01 GiB rounding of `BASELINE11_GIB`. Rows over the max target: none.",
    "",
    "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    "| colossalai-bert-vocab1k-ddp-fp32-2gpu-b32 | encoder-full-ddp | allocated | 21.44 | 21.02 | 21.02 | -2% | -2% |",
    "| colossalai-bert-vocab1k-ddp-fp16-amp-2gpu-b32 | encoder-amp-ddp | allocated | 16.26 | 15.56 | 15.56 | -4% | -4% |",
    "| colossalai-bert-vocab1k-lowlevelzero1-fp16-2gpu-b32 | encoder-zero1 | allocated | 11.29 | 11.38 | 11.38 | +1% | +1% |",
)


def _round11_since_evaluation(kinds11: list[MemoryResult]) -> list[str]:
    """The eleventh round's held-out file now, after its one evaluation (frozen above as
    `ROUND11_HELDOUT_READING_AT_EVAL`): the live figures beside the evaluation's estimates (`ROUND11_AT_EVAL_GIB`)."""
    return _heldout_since_evaluation(kinds11, ROUND11, ROUND11_AT_EVAL_GIB)


# ------------------------------------------------------------------ the twelfth held-out round (new kinds 12)


def _round12_scope(rows: list[MemoryResult]) -> str:
    """What the twelfth round's rows measure, and what its freeze decided."""
    kind_n = lambda k: sum(r.kind == k for r in rows)  # noqa: E731
    src_n = lambda prefix: sum(r.id.startswith(prefix) for r in rows)  # noqa: E731
    mlm = kind_n("encoder-pretrain-mlm")
    megatron_gpt2 = kind_n("pretrain-ddp") + kind_n("pretrain-tp-pp") + kind_n("pretrain-tp") + kind_n("pretrain-pp")
    return (f"It measures encoder masked-LM pre-training and training at scale: {mlm} Megatron-LM BERT masked-LM "
            f"pre-training rows with the full-vocabulary head ({src_n('lumi-')} of sfantao/lumi-megatron-lm-scripts: "
            "the BERT-base shape with a 64,000-token vocabulary at 512 tokens in fp16, micro-batch 16 on 1, 2 and 4 "
            f"P100s and 32 on 16 A100s, allocated; {src_n('xduan7-')} of xduan7/scalable-transformer: BERT-large with "
            "the cased vocabulary at 512 tokens in fp16 with full recomputation, micro-batch 4 on one A100 and at TP 2 "
            f"x PP 2 with DP 2, 4 and 32, device memory) and {len(rows) - mlm} rows of the brief's fourth kind "
            f"(fairseq's 13B GPT-3-shaped LM with fairscale FSDP and CPU offload on 1 and 8 V100s, "
            f"{kind_n('pretrain-fsdp-offload')}; Megatron-LM GPT-2 medium at 1,024 tokens in fp16 with DP 4, TP 2 x PP "
            f"2 and TP 4 with sequence parallelism, and PP 4, {megatron_gpt2}; LLaMA-13B full fine-tuning with "
            f"DeepSpeed ZeRO-2 and CPU optimizer offload on 1 and 8 H800s, {kind_n('full-zero2-offload')}; "
            f"Qwen3-30B-A3B LoRA on one H20, {kind_n('lora-moe-single-gpu')}); by measure: {_counts(rows, 'measure')}; "
            f"by grade: {_counts(rows, 'grade')}. Decided at the freeze, before any evaluation: the round is one "
            f"reading of its {len(rows)} rows, in full, per kind (the {mlm} masked-LM pre-training rows are the first "
            "held-out test of the eleventh formula round's masked-LM head) and per grade, the C rows apart; it holds "
            "no QLoRA+FSDP or T5-ZeRO row. ")


# One reading of the 17 rows, in full, per kind and per grade with the C rows apart, decided at the freeze
# (tests/data/held_out_freezes.md, Session 14, "Decided at these freezes"): no per-source reading
ROUND12_GROUP_TABLES = (("By kind", "kind", "kind", sorted), ("By grade", "grade", "grade", sorted))
ROUND12 = HeldoutRound(
    "twelfth", HELDOUT_KINDS12_FILE,
    "frozen by digest (tests/data/held_out_freezes.md, Session 14, commit b6da2bd) after the eleventh formula round "
    "(commit a305df8) and before any later formula change, was evaluated once, on the code as the file was frozen (no "
    "VRAM formula changed between the freeze and the evaluation, commit 795c5d9: both trees give the same estimates)",
    _round12_scope, "BASELINE12_GIB", "b6da2bd", "ROUND12_AT_EVAL_GIB", ROUND12_GROUP_TABLES, per_source=False,
    apart=("grade", "C", "llm-action's nvidia-smi snapshots of LLaMA-13B under ZeRO-2 with CPU offload, self-llm's "
                         "“约 85GB” for Qwen3-30B-A3B LoRA"))


# Round 12's held-out rows as estimated at its one evaluation (2026-12-03, the code of 795c5d9, whose VRAM estimates
# equal those of b6da2bd, by this benchmarks/accuracy.py's evaluate_memory, as it returned them in binary floating
# point; no row refused): the "at the evaluation" column of "Since the evaluation (twelfth round)".
ROUND12_AT_EVAL_GIB: dict[str, float] | None = {
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-1xp100-mb16": 10.664000000000001,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-2xp100-dp2-mb16": 10.916,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-4xp100-dp4-mb16": 10.916,
    "lumi-megatron-bert-base-v64k-mlm-sop-fp16-16xa100-dp16-mb32": 19.049,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-1xa100-mb4": 7.838,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-8xa100-tp2-pp2-dp2-mb4": 2.882,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-16xa100-tp2-pp2-dp4-mb4": 2.882,
    "xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-128xa100-tp2-pp2-dp32-mb4": 2.882,
    "fairseq-fsdp-gpt3-13b-cpuoffload-1xv100-b8x2048": 75.18,
    "fairseq-fsdp-gpt3-13b-cpuoffload-8xv100-b8x2048": 25.082,
    "llmaction-megatron-gpt2-345m-fp16-4dp-mb1": 10.228000000000002,
    "llmaction-megatron-gpt2-345m-fp16-tp2-pp2-sp-mb4": 8.04,
    "llmaction-megatron-gpt2-345m-fp16-tp4-sp-mb2": 3.4829999999999997,
    "llmaction-megatron-gpt2-345m-fp16-pp4-mb2": 7.571000000000001,
    "llmaction-alpaca-llama13b-zero2-offload-fp16-1xh800-b2": 27.407,
    "llmaction-alpaca-llama13b-zero2-offload-fp16-8xh800-b2": 27.407,
    "selfllm-qwen3-30b-a3b-lora-r8-bf16-1xh20-b16": 83.952,
}

# The twelfth round's held-out reading as generated at its one evaluation (`_heldout_reading(rows, touched, ROUND12)`,
# the code of 795c5d9), frozen at once: its figures are that evaluation's, not the code's now; the live figures are
# printed after it, under "Since the evaluation (twelfth round)". tests/test_vram_heldout12.py checks that
# `_heldout_reading` on the rows at `ROUND12_AT_EVAL_GIB` gives this text back.
ROUND12_HELDOUT_READING_AT_EVAL: tuple[str, ...] | None = (
    "### Reading the twelfth round's held-out evaluation",
    "",
    "The twelfth round's held-out set (`published_memory_heldout_kinds12.yaml`), 17 rows from 5 sources new to the project (sfantao/lumi-megatron-lm-scripts, xduan7/scalable-transformer, facebookresearch/fairseq, liguodongiot/llm-action, datawhalechina/self-llm), frozen by digest (tests/data/held_out_freezes.md, Session 14, commit b6da2bd) after the eleventh formula round (commit a305df8) and before any later formula change, was evaluated once, on the code as the file was frozen (no VRAM formula changed between the freeze and the evaluation, commit 795c5d9: both trees give the same estimates); no erratum touches the file. It measures encoder masked-LM pre-training and training at scale: 8 Megatron-LM BERT masked-LM pre-training rows with the full-vocabulary head (4 of sfantao/lumi-megatron-lm-scripts: the BERT-base shape with a 64,000-token vocabulary at 512 tokens in fp16, micro-batch 16 on 1, 2 and 4 P100s and 32 on 16 A100s, allocated; 4 of xduan7/scalable-transformer: BERT-large with the cased vocabulary at 512 tokens in fp16 with full recomputation, micro-batch 4 on one A100 and at TP 2 x PP 2 with DP 2, 4 and 32, device memory) and 9 rows of the brief's fourth kind (fairseq's 13B GPT-3-shaped LM with fairscale FSDP and CPU offload on 1 and 8 V100s, 2; Megatron-LM GPT-2 medium at 1,024 tokens in fp16 with DP 4, TP 2 x PP 2 and TP 4 with sequence parallelism, and PP 4, 4; LLaMA-13B full fine-tuning with DeepSpeed ZeRO-2 and CPU optimizer offload on 1 and 8 H800s, 2; Qwen3-30B-A3B LoRA on one H20, 1); by measure: allocated 10, device 7; by grade: A 4, B 10, C 3. Decided at the freeze, before any evaluation: the round is one reading of its 17 rows, in full, per kind (the 8 masked-LM pre-training rows are the first held-out test of the eleventh formula round's masked-LM head) and per grade, the C rows apart; it holds no QLoRA+FSDP or T5-ZeRO row. Targets: median ≤ 15%, max ≤ 35%. At this evaluation, all 17 rows: median 13.5% (target met), max 234.9% (target MISSED); 11 of 17 rows within 35%; 7 of 17 under their figure; no row refused by the estimator. Per grade, the C rows apart (llm-action's nvidia-smi snapshots of LLaMA-13B under ZeRO-2 with CPU offload, self-llm's “约 85GB” for Qwen3-30B-A3B LoRA): without them, 14 rows (grade A 4, B 10): median 12.6% (target met), max 234.9% (target MISSED), 10 of 14 within 35%; the 3 C rows on their own: median 53.8%, max 59.3% (neither met), 1 of 3 within 35%. Before (the code as the file was frozen, commit b6da2bd: `BASELINE12_GIB`): median 13.5%, max 234.9%, 11 of 17 within 35%; no formula changed between the freeze and the evaluation, so no row differs from it beyond the 0.01 GiB rounding of `BASELINE12_GIB`. Rows over the max target: fairseq-fsdp-gpt3-13b-cpuoffload-1xv100-b8x2048 (pretrain-fsdp-offload, +235%), llmaction-alpaca-llama13b-zero2-offload-fp16-8xh800-b2 (full-zero2-offload, -59%), llmaction-alpaca-llama13b-zero2-offload-fp16-1xh800-b2 (full-zero2-offload, -54%), xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-8xa100-tp2-pp2-dp2-mb4 (encoder-pretrain-mlm, -52%), xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-16xa100-tp2-pp2-dp4-mb4 (encoder-pretrain-mlm, -43%), xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-128xa100-tp2-pp2-dp32-mb4 (encoder-pretrain-mlm, -39%).",
    "",
    "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    "| lumi-megatron-bert-base-v64k-mlm-sop-fp16-1xp100-mb16 | encoder-pretrain-mlm | allocated | 10.35 | 10.66 | 10.66 | +3% | +3% |",
    "| lumi-megatron-bert-base-v64k-mlm-sop-fp16-2xp100-dp2-mb16 | encoder-pretrain-mlm | allocated | 10.35 | 10.92 | 10.92 | +6% | +5% |",
    "| lumi-megatron-bert-base-v64k-mlm-sop-fp16-4xp100-dp4-mb16 | encoder-pretrain-mlm | allocated | 10.35 | 10.92 | 10.92 | +6% | +5% |",
    "| lumi-megatron-bert-base-v64k-mlm-sop-fp16-16xa100-dp16-mb32 | encoder-pretrain-mlm | allocated | 18.64 | 19.05 | 19.05 | +2% | +2% |",
    "| xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-1xa100-mb4 | encoder-pretrain-mlm | device | 8.23 | 7.84 | 7.84 | -5% | -5% |",
    "| xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-8xa100-tp2-pp2-dp2-mb4 | encoder-pretrain-mlm | device | 6.03 | 2.88 | 2.88 | -52% | -52% |",
    "| xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-16xa100-tp2-pp2-dp4-mb4 | encoder-pretrain-mlm | device | 5.07 | 2.88 | 2.88 | -43% | -43% |",
    "| xduan7-megatron-bert-large-cased-mlm-fp16-ckpt-128xa100-tp2-pp2-dp32-mb4 | encoder-pretrain-mlm | device | 4.73 | 2.88 | 2.88 | -39% | -39% |",
    "| fairseq-fsdp-gpt3-13b-cpuoffload-1xv100-b8x2048 | pretrain-fsdp-offload | allocated | 22.45 | 75.18 | 75.18 | +235% | +235% |",
    "| fairseq-fsdp-gpt3-13b-cpuoffload-8xv100-b8x2048 | pretrain-fsdp-offload | allocated | 22.45 | 25.08 | 25.08 | +12% | +12% |",
    "| llmaction-megatron-gpt2-345m-fp16-4dp-mb1 | pretrain-ddp | allocated | 8.49 | 10.23 | 10.23 | +20% | +20% |",
    "| llmaction-megatron-gpt2-345m-fp16-tp2-pp2-sp-mb4 | pretrain-tp-pp | allocated | 7.08 | 8.04 | 8.04 | +14% | +14% |",
    "| llmaction-megatron-gpt2-345m-fp16-tp4-sp-mb2 | pretrain-tp | allocated | 3.01 | 3.48 | 3.48 | +16% | +16% |",
    "| llmaction-megatron-gpt2-345m-fp16-pp4-mb2 | pretrain-pp | allocated | 7.46 | 7.57 | 7.57 | +1% | +1% |",
    "| llmaction-alpaca-llama13b-zero2-offload-fp16-1xh800-b2 | full-zero2-offload | device | 59.36 | 27.41 | 27.41 | -54% | -54% |",
    "| llmaction-alpaca-llama13b-zero2-offload-fp16-8xh800-b2 | full-zero2-offload | device | 67.31 | 27.41 | 27.41 | -59% | -59% |",
    "| selfllm-qwen3-30b-a3b-lora-r8-bf16-1xh20-b16 | lora-moe-single-gpu | device | 85.00 | 83.95 | 83.95 | -1% | -1% |",
    "",
    "By kind:",
    "",
    "| kind | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| encoder-pretrain-mlm | 8 | 5.5% | 52.2% | 5 of 8 | median met, max NOT met | 5.5% | 52.2% | 5 of 8 | median met, max NOT met |",
    "| full-zero2-offload | 2 | 56.6% | 59.3% | 0 of 2 | neither met | 56.6% | 59.3% | 0 of 2 | neither met |",
    "| lora-moe-single-gpu | 1 | 1.2% | 1.2% | 1 of 1 | both met | 1.2% | 1.2% | 1 of 1 | both met |",
    "| pretrain-ddp | 1 | 20.4% | 20.4% | 1 of 1 | max met, median NOT met | 20.5% | 20.5% | 1 of 1 | max met, median NOT met |",
    "| pretrain-fsdp-offload | 2 | 123.3% | 234.9% | 1 of 2 | neither met | 123.3% | 234.9% | 1 of 2 | neither met |",
    "| pretrain-pp | 1 | 1.4% | 1.4% | 1 of 1 | both met | 1.4% | 1.4% | 1 of 1 | both met |",
    "| pretrain-tp | 1 | 15.7% | 15.7% | 1 of 1 | max met, median NOT met | 15.6% | 15.6% | 1 of 1 | max met, median NOT met |",
    "| pretrain-tp-pp | 1 | 13.5% | 13.5% | 1 of 1 | both met | 13.5% | 13.5% | 1 of 1 | both met |",
    "",
    "By grade:",
    "",
    "| grade | rows | median | max | within 35% | targets | before: median | before: max | before: within 35% | targets before |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    "| A | 4 | 14.6% | 20.4% | 4 of 4 | both met | 14.6% | 20.5% | 4 of 4 | both met |",
    "| B | 10 | 8.6% | 234.9% | 6 of 10 | median met, max NOT met | 8.6% | 234.9% | 6 of 10 | median met, max NOT met |",
    "| C | 3 | 53.8% | 59.3% | 1 of 3 | neither met | 53.8% | 59.3% | 1 of 3 | neither met |",
)


# ------------------------------------------------------------------ the thirteenth held-out round (new kinds 13)


def _round13_scope(rows: list[MemoryResult]) -> str:
    """What the thirteenth round's rows measure, and what its freeze decided."""
    kind_n = lambda k: sum(r.kind == k for r in rows)  # noqa: E731
    return (f"It measures a vision fine-tune with 8-bit optimizers only: {len(rows)} rows of one table (pytorch/ao's "
            "low-bit optimizer README and its benchmark script), timm ViT-H/14 with a 45-class head (630.8M parameters "
            "by the collector's count) fine-tuned at 224 x 224 (257 tokens) with bf16 autocast over fp32 weights, "
            f"batch 8, on one RTX 4070 Ti SUPER: torch's fused AdamW ({kind_n('vision-amp')}) and the 8-bit AdamWs of "
            f"bitsandbytes and torchao ({kind_n('vision-8bit-adam')}), both read as `adamw8bit`; by measure: "
            f"{_counts(rows, 'measure')}; by grade: {_counts(rows, 'grade')}. Decided at the freeze, before any "
            f"evaluation: the round is one reading of its {len(rows)} rows (one source, a vision fine-tune with 8-bit "
            "optimizers); it holds no encoder, QLoRA+FSDP or T5-ZeRO row. ")


# One reading of the 3 rows, decided at the freeze (tests/data/held_out_freezes.md, Session 14, second freeze): one
# source, so no breakdown
ROUND13 = HeldoutRound(
    "thirteenth", HELDOUT_KINDS13_FILE,
    "frozen by digest (tests/data/held_out_freezes.md, Session 14, second freeze, commit 74b8f1d) after the eleventh "
    "formula round (commit a305df8) and before any later formula change, was evaluated once, on the code as the file "
    "was frozen (no VRAM formula changed between the freeze and the evaluation, commit 816e237: both trees give the "
    "same estimates)",
    _round13_scope, "BASELINE13_GIB", "74b8f1d", "ROUND13_AT_EVAL_GIB", (), per_source=False)


# Round 13's held-out rows as estimated at its one evaluation (2026-12-04, the code of 816e237, whose VRAM estimates
# equal those of 74b8f1d, by this benchmarks/accuracy.py's evaluate_memory, as it returned them in binary floating
# point; no row refused): the "at the evaluation" column of "Since the evaluation (thirteenth round)".
ROUND13_AT_EVAL_GIB: dict[str, float] | None = {
    "torchao-vith14-bf16amp-adamw-fused-4070tis-b8": 11.062999999999999,
    "torchao-vith14-bf16amp-bnb-adamw8bit-4070tis-b8": 7.538,
    "torchao-vith14-bf16amp-ao-adamw8bit-4070tis-b8": 7.538,
}

# The thirteenth round's held-out reading as generated at its one evaluation (`_heldout_reading(rows, touched,
# ROUND13)`, the code of 816e237), frozen at once: its figures are that evaluation's, not the code's now; the live
# figures are printed after it, under "Since the evaluation (thirteenth round)". tests/test_vram_heldout13.py checks
# that `_heldout_reading` on the rows at `ROUND13_AT_EVAL_GIB` gives this text back.
ROUND13_HELDOUT_READING_AT_EVAL: tuple[str, ...] | None = (
    "### Reading the thirteenth round's held-out evaluation",
    "",
    "The thirteenth round's held-out set (`published_memory_heldout_kinds13.yaml`), 3 rows from 1 source new to the project (pytorch/ao), frozen by digest (tests/data/held_out_freezes.md, Session 14, second freeze, commit 74b8f1d) after the eleventh formula round (commit a305df8) and before any later formula change, was evaluated once, on the code as the file was frozen (no VRAM formula changed between the freeze and the evaluation, commit 816e237: both trees give the same estimates); no erratum touches the file. It measures a vision fine-tune with 8-bit optimizers only: 3 rows of one table (pytorch/ao's low-bit optimizer README and its benchmark script), timm ViT-H/14 with a 45-class head (630.8M parameters by the collector's count) fine-tuned at 224 x 224 (257 tokens) with bf16 autocast over fp32 weights, batch 8, on one RTX 4070 Ti SUPER: torch's fused AdamW (1) and the 8-bit AdamWs of bitsandbytes and torchao (2), both read as `adamw8bit`; by measure: allocated 3; by grade: B 3. Decided at the freeze, before any evaluation: the round is one reading of its 3 rows (one source, a vision fine-tune with 8-bit optimizers); it holds no encoder, QLoRA+FSDP or T5-ZeRO row. Targets: median ≤ 15%, max ≤ 35%. At this evaluation, all 3 rows: median 2.6% (target met), max 8.2% (target met); 3 of 3 rows within 35%; 3 of 3 under their figure; no row refused by the estimator. Before (the code as the file was frozen, commit 74b8f1d: `BASELINE13_GIB`): median 2.6%, max 8.2%, 3 of 3 within 35%; no formula changed between the freeze and the evaluation, so no row differs from it beyond the 0.01 GiB rounding of `BASELINE13_GIB`. Rows over the max target: none.",
    "",
    "| row | kind | measure | published GiB | before GiB | estimate GiB | before err | error |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    "| torchao-vith14-bf16amp-adamw-fused-4070tis-b8 | vision-amp | allocated | 12.05 | 11.06 | 11.06 | -8% | -8% |",
    "| torchao-vith14-bf16amp-bnb-adamw8bit-4070tis-b8 | vision-8bit-adam | allocated | 7.74 | 7.54 | 7.54 | -3% | -3% |",
    "| torchao-vith14-bf16amp-ao-adamw8bit-4070tis-b8 | vision-8bit-adam | allocated | 7.74 | 7.54 | 7.54 | -3% | -3% |",
)


def render(mem: list[MemoryResult], bounds: list[dict], hours: list[HoursResult],
           errata: list[dict[str, Any]] | None = None) -> str:
    first = [r for r in mem if r.set == "first set"]
    kinds = [r for r in mem if r.set == "new kinds"]
    kinds2 = [r for r in mem if r.set == "new kinds 2"]
    kinds3 = [r for r in mem if r.set == "new kinds 3"]
    kinds4 = [r for r in mem if r.set == "new kinds 4"]
    kinds5 = [r for r in mem if r.set == "new kinds 5"]
    kinds6 = [r for r in mem if r.set == "new kinds 6"]
    kinds7 = [r for r in mem if r.set == "new kinds 7"]
    kinds8 = [r for r in mem if r.set == "new kinds 8"]
    kinds9 = [r for r in mem if r.set == "new kinds 9"]
    kinds10 = [r for r in mem if r.set == "new kinds 10"]
    kinds11 = [r for r in mem if r.set == "new kinds 11"]
    kinds12 = [r for r in mem if r.set == "new kinds 12"]
    kinds13 = [r for r in mem if r.set == "new kinds 13"]
    lines = ["# Accuracy benchmark", "",
             "Generated by `python benchmarks/accuracy.py` from `tests/data/published_memory.yaml` (the first set), "
             "`tests/data/published_memory_kinds.yaml` and `tests/data/published_memory_heldout_kinds.yaml` (issue 11's "
             "workload kinds: calibration, and held-out frozen before any formula changed), "
             "`tests/data/published_memory_kinds2.yaml` and `tests/data/published_memory_heldout_kinds2.yaml` (the "
             "second round on those kinds: calibration from sources already evaluated, held-out from sources new to "
             "the project, frozen before this round changed a formula), "
             "`tests/data/published_memory_heldout_kinds3.yaml` (the third round: held-out only, every source new to "
             "the project, frozen before this round changed a formula; every earlier file calibrates; spent since its "
             "one evaluation, calibration for the fourth round), "
             "`tests/data/published_memory_heldout_kinds4.yaml` (the fourth round: held-out only, every source new to "
             "the project, frozen before this round changed a formula, evaluated once after it; spent since, "
             "calibration for the fifth round), "
             "`tests/data/published_memory_heldout_kinds5.yaml` and `tests/data/published_memory_heldout_kinds5b.yaml` "
             "(the fifth round, in two batches: held-out only, every source new to the project, frozen before this "
             "round changed a formula, evaluated once after it; spent since, calibration for the sixth round), "
             "`tests/data/published_memory_heldout_kinds6.yaml` (the sixth round: held-out only, every source new to "
             "the project, frozen before this round changed a formula, evaluated once after it; spent since, "
             "calibration for the seventh round), "
             "`tests/data/published_memory_heldout_kinds7.yaml` (the seventh round: held-out only, every source new "
             "to the project, vision rows only, frozen before this round changed a formula, evaluated once after it; "
             "spent since, calibration for the eighth round), "
             "`tests/data/published_memory_heldout_kinds8.yaml` (the eighth round: held-out only, every source new "
             "to the project, vision and LLM pre-training rows, frozen before this round changed a formula, evaluated "
             "once after it; spent since, calibration for the ninth and tenth formula rounds), "
             "`tests/data/published_memory_heldout_kinds9.yaml` (the ninth round: held-out only, one source new to "
             "the project, vision rows only, frozen before the tenth formula round changed a formula, evaluated once "
             "after it; spent since its one evaluation), "
             "`tests/data/published_memory_heldout_kinds10.yaml` (the tenth round: held-out only, two sources new to "
             "the project, encoder and GPT-2-class training rows, frozen after the tenth formula round with no formula "
             "changed since, evaluated once; spent since, calibration for the eleventh formula round), "
             "`tests/data/published_memory_heldout_kinds11.yaml` (the eleventh round: held-out only, one source new "
             "to the project, three encoder classifier training rows, frozen after the eleventh formula round with no "
             "formula changed since, evaluated once; spent since its one evaluation), "
             "`tests/data/published_memory_heldout_kinds12.yaml` (the twelfth round: held-out only, five sources new "
             "to the project, encoder masked-LM pre-training and training at scale, frozen after the eleventh formula "
             "round with no formula changed since, evaluated once; spent since its one evaluation), "
             "`tests/data/published_memory_heldout_kinds13.yaml` (the thirteenth round: held-out only, one source new "
             "to the project, a ViT-H fine-tune with fused AdamW and two 8-bit AdamWs, frozen after the eleventh "
             "formula round with no formula changed since, evaluated once) "
             "and `tests/data/published_gpu_hours.yaml` (published measurements; sources per row in those files). "
             "Error = estimate / published − 1. *allocated* rows compare with our figure without the CUDA-context "
             "and allocator lines (the source measured `torch.cuda.max_memory_allocated`); *reserved* rows without "
             "the CUDA-context line (`torch.cuda.max_memory_reserved`); *device* rows compare the whole per-GPU "
             "figure. *before* is the estimate of tools/vram.py at commit 39c8c59, before the work on the kinds "
             "(`BASELINE_GIB`), for the first set and the new kinds; at commit 0fc09c6, before the second round "
             "(`BASELINE2_GIB`), for new kinds 2; as the third round's held-out file was frozen (`BASELINE3_GIB`), "
             "for new kinds 3; as the fourth round's held-out file was frozen, commit 5d18c0a (`BASELINE4_GIB`), for "
             "new kinds 4; as the fifth round's held-out files were frozen, commit d820525 (`BASELINE5_GIB`), for "
             "new kinds 5; as the sixth round's held-out file was frozen, commit da77df2 (`BASELINE6_GIB`), for new "
             "kinds 6; as the seventh round's held-out file was frozen, commit ab34400 (`BASELINE7_GIB`), for new "
             "kinds 7; as the eighth round's held-out file was frozen, commit 6b19e9c (`BASELINE8_GIB`), for new "
             "kinds 8; as the ninth round's held-out file was frozen, commit b3fa46a (`BASELINE9_GIB`), for new "
             "kinds 9; as the tenth round's held-out file was frozen, commit 1da0eee (`BASELINE10_GIB`, the "
             "evaluation's code too), for new kinds 10; as the eleventh round's held-out file was frozen, commit "
             "8640aae (`BASELINE11_GIB`, the evaluation's code too), for new kinds 11; as the twelfth round's held-out "
             "file was frozen, commit b6da2bd (`BASELINE12_GIB`, the evaluation's estimates too), for new kinds 12; "
             "as the thirteenth round's held-out file was frozen, commit 74b8f1d (`BASELINE13_GIB`, the evaluation's "
             "estimates too), for new kinds 13. Grades (new kinds 2 to 13): A "
             "measured with a named method and a committed configuration, B a measured table read with the project's "
             "defaults, C a fits/limit statement (in rounds 4 to 6, 8 to 10 and 12 also a figure whose measure or "
             "setting is our reading).",
             "", "## GPU memory", "",
             "### First set", ""]
    lines += _memory_table(first, with_kind=False)
    lines += ["", "### New kinds (issue 11)", ""]
    lines += _memory_table(kinds, with_kind=True)
    lines += ["", "### New kinds 2 (issue 11, second round)", ""]
    lines += _memory_table(kinds2, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 3 (issue 11, third round; held-out spent)", ""]
    lines += _memory_table(kinds3, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 4 (issue 11, fourth round; held-out spent)", ""]
    lines += _memory_table(kinds4, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 5 (issue 11, fifth round, batches 5 and 5b; held-out spent)", ""]
    lines += _memory_table(kinds5, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 6 (issue 11, sixth round; held-out spent)", ""]
    lines += _memory_table(kinds6, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 7 (issue 11, seventh round; held-out spent)", ""]
    lines += _memory_table(kinds7, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 8 (issue 11, eighth round; held-out)", ""]
    lines += _memory_table(kinds8, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 9 (issue 11, ninth round; held-out)", ""]
    lines += _memory_table(kinds9, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 10 (issue 11, tenth round; held-out)", ""]
    lines += _memory_table(kinds10, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 11 (issue 11, eleventh round; held-out)", ""]
    lines += _memory_table(kinds11, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 12 (issue 11, twelfth round; held-out)", ""]
    lines += _memory_table(kinds12, with_kind=True, with_grade=True)
    lines += ["", "### New kinds 13 (issue 11, thirteenth round; held-out)", ""]
    lines += _memory_table(kinds13, with_kind=True, with_grade=True)
    columns = (("first set", "calibration"), ("first set", "holdout"), ("new kinds", "calibration"),
               ("new kinds", "holdout"), ("new kinds 2", "calibration"), ("new kinds 2", "holdout"),
               ("new kinds 3", "holdout"), ("new kinds 4", "holdout"), ("new kinds 5", "holdout"),
               ("new kinds 6", "holdout"), ("new kinds 7", "holdout"), ("new kinds 8", "holdout"),
               ("new kinds 9", "holdout"), ("new kinds 10", "holdout"), ("new kinds 11", "holdout"),
               ("new kinds 12", "holdout"), ("new kinds 13", "holdout"), (None, None))
    lines += ["", "### Summary (absolute error: median / max / rows)", "",
              "The held-out columns of rounds 2, 3 and 4 are spent: their misses were studied for the next round, so "
              "their figures after it no longer test a formula (each one evaluation is quoted in the readings below; "
              "round 4's: median 6.2%, max 83.5%). The fifth round's held-out column is spent too since its one "
              "evaluation (median 7.6%, max 155.2%, recorded in its reading below); the sixth round read its misses "
              "as calibration, so its figures now test nothing. The sixth round's held-out column is spent as well since its "
              "one evaluation (median 12.9%, max 41.0%, recorded in its reading below): the seventh formula round "
              "read its misses as calibration. The seventh round's held-out column is spent too since its one "
              "evaluation (median 70.0%, max 438.9%, recorded in its reading below): the eighth formula round read its "
              "misses as calibration. The eighth round's held-out column is spent as well since its one evaluation "
              "(median 30.3%, max 62.6%, recorded in its reading below): the ninth formula round read its misses as "
              "calibration. The ninth round's held-out column is spent as well since its one evaluation (median "
              "1.1%, max 33.7%, recorded in its reading below; one vision-only source): its misses are known, and a "
              "formula round may read them as calibration. The tenth round's held-out column is spent as well since "
              "its one evaluation (median 32.2%, max 42.4%, recorded in its reading below): the eleventh formula round "
              "read its misses as calibration. The eleventh round's held-out column is spent as well since its one "
              "evaluation (median 1.9%, max 4.3%, recorded in its reading below): its misses are known, and a formula "
              "round may read them as calibration. The twelfth round's held-out column is spent as well since its one "
              "evaluation (median 13.5%, max 234.9%, recorded in its reading below): its misses are known, and a "
              "formula round may read them as calibration. The thirteenth round's held-out column is that round's one "
              "evaluation: its rows (one source: a timm ViT-H/14 fine-tune with bf16 autocast under torch's fused "
              "AdamW and the 8-bit AdamWs of bitsandbytes and torchao; none of the QLoRA+FSDP or T5-ZeRO kinds), "
              "collected apart, were frozen after the eleventh formula round with no formula changed since, and first "
              "estimated at that evaluation.", "",
              "| estimator | first set: calibration | first set: held-out | new kinds: calibration | "
              "new kinds: held-out | new kinds 2: calibration | new kinds 2: held-out (spent) | "
              "new kinds 3: held-out (spent) | new kinds 4: held-out (spent) | new kinds 5: held-out (spent) | "
              "new kinds 6: held-out (spent) | new kinds 7: held-out (spent) | new kinds 8: held-out (spent) | "
              "new kinds 9: held-out (spent) | new kinds 10: held-out (spent) | new kinds 11: held-out (spent) | "
              "new kinds 12: held-out (spent) | new kinds 13: held-out | all |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def cell(errors: list[float]) -> str:
        s = _summary(errors)
        return "—" if s is None else f"{s[0]:.1%} / {s[1]:.1%} / {s[2]}"

    def errors(fn, set_name: str | None, split: str | None) -> list[float]:
        return [e for r in mem if set_name in (None, r.set) and split in (None, r.split) and (e := fn(r)) is not None]

    estimators = [("ours, before", lambda r: r.before_error), ("**ours**", lambda r: r.error)]
    estimators += [(name, lambda r, n=name: r.rule_error(n)) for name in RULES]
    for label, fn in estimators:
        lines.append(f"| {label} | " + " | ".join(cell(errors(fn, st, sp)) for st, sp in columns) + " |")
    ours_first, ours_all = _summary([r.error for r in first]), _summary([r.error for r in mem])
    hold = _summary([r.error for r in first if r.split == "holdout"])
    kinds_hold = _summary([r.error for r in kinds if r.split == "holdout"])
    kinds2_hold = _summary([r.error for r in kinds2 if r.split == "holdout"])
    kinds3_hold = _summary([r.error for r in kinds3 if r.split == "holdout"])
    kinds4_hold = _summary([r.error for r in kinds4 if r.split == "holdout"])
    kinds5_hold = _summary([r.error for r in kinds5 if r.split == "holdout"])
    kinds6_hold = _summary([r.error for r in kinds6 if r.split == "holdout"])
    kinds7_hold = _summary([r.error for r in kinds7 if r.split == "holdout"])
    kinds8_hold = _summary([r.error for r in kinds8 if r.split == "holdout"])
    kinds8_strict = _summary([r.error for r in _round8_strict(kinds8)])
    kinds9_hold = _summary([r.error for r in kinds9 if r.split == "holdout"])
    kinds10_hold = _summary([r.error for r in kinds10 if r.split == "holdout"])
    kinds10_by_source = {repo: _summary([r.error for r in rs])
                         for repo, rs in _round10_groups([r for r in kinds10 if r.split == "holdout"])["source"].items()}
    kinds11_hold = _summary([r.error for r in kinds11 if r.split == "holdout"])
    kinds12_hold = _summary([r.error for r in kinds12 if r.split == "holdout"])
    kinds12_ab = _summary([r.error for r in kinds12 if r.split == "holdout" and r.grade != "C"])
    kinds13_hold = _summary([r.error for r in kinds13 if r.split == "holdout"])
    met = ours_first[0] <= TARGET_MEDIAN and ours_first[1] <= TARGET_MAX

    def verdict(s: tuple[float, float, int]) -> str:
        return "met" if s[0] <= TARGET_MEDIAN and s[1] <= TARGET_MAX else "NOT met"

    lines += ["", f"Targets: median ≤ {TARGET_MEDIAN:.0%}, none worse than {TARGET_MAX:.0%}. First set: median "
              f"{ours_first[0]:.1%}, max {ours_first[1]:.1%} → {'met' if met else 'NOT met'} (held-out rows: median "
              f"{hold[0]:.1%}, max {hold[1]:.1%}). New kinds, held-out: median {kinds_hold[0]:.1%}, max "
              f"{kinds_hold[1]:.1%} → {verdict(kinds_hold)}. New kinds 2, held-out: median {kinds2_hold[0]:.1%}, "
              f"max {kinds2_hold[1]:.1%} → {verdict(kinds2_hold)} (spent). New kinds 3, held-out: median "
              f"{kinds3_hold[0]:.1%}, max {kinds3_hold[1]:.1%} → {verdict(kinds3_hold)} (spent). New kinds 4, held-out: "
              f"median {kinds4_hold[0]:.1%}, max {kinds4_hold[1]:.1%} → {verdict(kinds4_hold)} (spent). New kinds 5, "
              f"held-out: median {kinds5_hold[0]:.1%}, max {kinds5_hold[1]:.1%} → {verdict(kinds5_hold)} (spent; at its one evaluation "
              f"{ROUND5_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND5_HELDOUT_FIRST_EVAL[1]:.1%}). "
              + ("" if kinds6_hold is None else f"New kinds 6, held-out: median {kinds6_hold[0]:.1%}, max "
                 f"{kinds6_hold[1]:.1%} → {verdict(kinds6_hold)} (spent; at its one evaluation "
                 f"{ROUND6_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND6_HELDOUT_FIRST_EVAL[1]:.1%}). ")
              + ("" if kinds7_hold is None else f"New kinds 7, held-out (vision only): median {kinds7_hold[0]:.1%}, "
                 f"max {kinds7_hold[1]:.1%} → {verdict(kinds7_hold)} (spent; at its one evaluation "
                 f"{ROUND7_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND7_HELDOUT_FIRST_EVAL[1]:.1%}). ")
              + ("" if kinds8_hold is None else f"New kinds 8, held-out: median {kinds8_hold[0]:.1%}, max "
                 f"{kinds8_hold[1]:.1%} → {verdict(kinds8_hold)} (the {kinds8_strict[2]} rows of the stricter "
                 f"reading: median {kinds8_strict[0]:.1%}, max {kinds8_strict[1]:.1%} → {verdict(kinds8_strict)}; "
                 f"spent; at its one evaluation {ROUND8_HELDOUT_FIRST_EVAL[0]:.1%} / "
                 f"{ROUND8_HELDOUT_FIRST_EVAL[1]:.1%}). ")
              + ("" if kinds9_hold is None else f"New kinds 9, held-out (one vision-only source): median "
                 f"{kinds9_hold[0]:.1%}, max {kinds9_hold[1]:.1%} → {verdict(kinds9_hold)} (spent; at its one "
                 f"evaluation {ROUND9_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND9_HELDOUT_FIRST_EVAL[1]:.1%}). ")
              + ("" if kinds10_hold is None else f"New kinds 10, held-out (encoder and GPT-2-class training; no "
                 f"QLoRA+FSDP or T5-ZeRO row): median {kinds10_hold[0]:.1%}, max {kinds10_hold[1]:.1%} → "
                 f"{verdict(kinds10_hold)}; per source: "
                 + "; ".join(f"{repo} {s[0]:.1%} / {s[1]:.1%} over {s[2]} rows → {verdict(s)}"
                             for repo, s in kinds10_by_source.items())
                 + ("" if ROUND10_HELDOUT_FIRST_EVAL is None else f" (spent; at its one evaluation "
                    f"{ROUND10_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND10_HELDOUT_FIRST_EVAL[1]:.1%})") + ". ")
              + ("" if kinds11_hold is None else f"New kinds 11, held-out (one source, BERT-base-shaped classifiers; "
                 f"no masked-LM, QLoRA+FSDP or T5-ZeRO row): median {kinds11_hold[0]:.1%}, max {kinds11_hold[1]:.1%} "
                 f"→ {verdict(kinds11_hold)}"
                 + ("" if ROUND11_HELDOUT_FIRST_EVAL is None else f" (spent; at its one evaluation "
                    f"{ROUND11_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND11_HELDOUT_FIRST_EVAL[1]:.1%})") + ". ")
              + ("" if kinds12_hold is None else f"New kinds 12, held-out (five sources; 8 masked-LM pre-training "
                 f"rows; no QLoRA+FSDP or T5-ZeRO row): median {kinds12_hold[0]:.1%}, max {kinds12_hold[1]:.1%} "
                 f"→ {verdict(kinds12_hold)}; without the C rows: median {kinds12_ab[0]:.1%}, max "
                 f"{kinds12_ab[1]:.1%} over {kinds12_ab[2]} rows → {verdict(kinds12_ab)}"
                 + ("" if ROUND12_HELDOUT_FIRST_EVAL is None else f" (spent; at its one evaluation "
                    f"{ROUND12_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND12_HELDOUT_FIRST_EVAL[1]:.1%})") + ". ")
              + ("" if kinds13_hold is None else f"New kinds 13, held-out (one source, a ViT-H fine-tune with fused "
                 f"AdamW and two 8-bit AdamWs; no QLoRA+FSDP or T5-ZeRO row): median {kinds13_hold[0]:.1%}, max "
                 f"{kinds13_hold[1]:.1%} → {verdict(kinds13_hold)}"
                 + ("" if ROUND13_HELDOUT_FIRST_EVAL is None else f" (at its one evaluation "
                    f"{ROUND13_HELDOUT_FIRST_EVAL[0]:.1%} / {ROUND13_HELDOUT_FIRST_EVAL[1]:.1%})") + ". ")
              + "All rows: median "
              f"{ours_all[0]:.1%}, max {ours_all[1]:.1%}.", ""]
    r1 = ROUND1_HELDOUT_AT_0FC09C6
    lines += ["Reading the new kinds: the held-out file was evaluated once, after the formula changes were settled on the "
              "calibration rows. Two changes came after that evaluation: for a property test (more GPUs never need "
              "more per GPU), gradient reduce buckets now count on one GPU too (the five Q-LoRA rows of the Qwen "
              "table run DeepSpeed ZeRO-2 on one GPU: +0.07-0.29 GiB); and the unsharded churn fraction was "
              "recomputed exactly on its three calibration rows (0.11, first set as 0.13 by a rounding slip). "
              "Held-out at the first evaluation: median 9.0%, max 47.3%; at the end of that round (commit 0fc09c6): "
              f"median {r1[0]:.1%}, max {r1[1]:.1%}. "
              "torchtune-llama31-70b-lora-8xa100 (first set) moved from +2% to +16% when the FSDP root unit "
              "(embeddings and LM head, 4.2 GB in 16-bit for Llama 3.1 70B) began to count as HF/accelerate wrap it; "
              "torchtune can shard those two separately (`custom_sharded_layers`). The BERT-large fp32 rows lost a "
              "point or two when the activation count followed the reference implementation (66h + 9·a·s bytes per "
              "token in fp32 instead of 80h + 10·a·s); the fp16 AMP row gained 11 points.", ""]
    r2 = ROUND2_HELDOUT_FIRST_EVAL
    lines += ["Reading the second round: its held-out file was frozen (digest in tests/data/published_memory_README.md) "
              "before any formula changed, and evaluated once, after two changes were settled on calibration rows "
              "and the frameworks' code: (1) the loss's three logit-sized tensors are fp32 only where the model "
              "upcasts its logits or torch autocast runs the loss (HF Trainer/accelerate mixed precision without "
              "DeepSpeed); Qwen (v1)'s remote code and T5 compute the loss on the 16-bit logits, so under DeepSpeed "
              "or pure 16-bit training they keep 2 + 3·2 = 8 B per logit instead of 14 (fp32 training: 4 + 3·4 = 16); "
              "(2) `VramRequest.target_len` sets an encoder-decoder's decoder tokens, and the seven FLAN-T5 bounds "
              "of the first round's held-out file get the runs' 129 target tokens through errata (the file stays as "
              "frozen). The first round's held-out rows share a source (the Qwen README) with this round's "
              f"calibration rows, so their figures after this round (median {kinds_hold[0]:.1%}, max "
              f"{kinds_hold[1]:.1%}; {r1[0]:.1%} / {r1[1]:.1%} before it) no longer test a formula: only the new "
              "held-out file does" + ("" if r2 is None else
                                      f" (at its one evaluation: median {r2[0]:.1%}, max {r2[1]:.1%})") + ". "
              "What that evaluation showed: Answer.AI's FSDP rows (grade A, peak reserved) sit within ±17% but for "
              "the Q-LoRA rows at batch 10 and 12 (+25 to +28%, three of them with CPU offload); SWIFT's rows "
              "(`max_memory_reserved` over a dataset of mixed lengths) are mostly under, most at long sequence on "
              "ChatGLM3, Yi and Baichuan2 and with a bitsandbytes 4-bit base (-47 to -51%), plausibly because the "
              "caching allocator keeps blocks for every length the run met; its full-parameter rows load bf16 weights under HF Trainer, which still runs "
              "autocast, so the loss there is fp32 although the row's layout is pure 16-bit (the rule above gives "
              "it 8 B per logit). The T5 bounds take both lengths at their 128-token maximum, while the runs padded "
              "each batch to its longest sample, and none of the five holds; the GPT-2 XL bound holds. The second "
              "round's formula changes moved the held-out median from "
              f"{_summary([r.before_error for r in kinds2 if r.split == 'holdout'])[0]:.1%} to "
              + ("" if r2 is None else f"{r2[0]:.1%}") + ": they did not help the sources it holds. That file is now "
              "spent: the third round read its misses against the frameworks' code "
              "(tests/data/published_memory_README.md, \"Why round 2's held-out rows missed\") and uses it as "
              f"calibration; after the third round it reads median {kinds2_hold[0]:.1%}, max {kinds2_hold[1]:.1%}, "
              "the change being its four full-parameter rows, which now state (errata) the autocast and the foreach "
              "AdamW step their framework ran; a figure that no longer tests anything.", ""]
    r3 = ROUND3_HELDOUT_FIRST_EVAL
    per_source: dict[str, list[MemoryResult]] = {}
    for r in kinds3:
        per_source.setdefault(re.sub(r"/blob/.*", "", r.source).removeprefix("https://github.com/"), []).append(r)
    lines += ["Reading the third round: its held-out file (47 rows from four sources new to the project) was frozen "
              "(digest in tests/data/published_memory_README.md) before any formula changed, with two request fields "
              "added first so that its rows could state their setup, and evaluated once, after three changes settled "
              "on the frameworks' code and the calibration rows: `autocast` (HF Trainer's bf16=True autocasts over "
              "16-bit weights: the loss is fp32), `foreach_step` (torch's multi-tensor AdamW builds a state-sized "
              "buffer during the step) and `kbit_prepare` (PEFT's prepare_model_for_kbit_training upcasts a "
              "bitsandbytes base's non-quantised weights, and the residual stream, to fp32); each counts only when "
              "the request states it. At that one evaluation: median "
              + ("" if r3 is None else f"{r3[0]:.1%}, max {r3[1]:.1%}")
              + f" ({_summary([r.before_error for r in kinds3])[0]:.1%} / "
              f"{_summary([r.before_error for r in kinds3])[1]:.1%} before the round). By source (\"now\": after "
              "the fourth round's formula changes, read on this spent file as calibration):", "",
              "| source | rows | at the evaluation: median | max | before: median | before: max | now: median | now: max |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for src, rs in per_source.items():
        a, b = _summary([r.error for r in rs]), _summary([r.before_error for r in rs])
        n, e_med, e_max = ROUND3_BY_SOURCE_FIRST_EVAL[src]
        lines.append(f"| {src} | {n} | {e_med:.1%} | {e_max:.1%} | {b[0]:.1%} | {b[1]:.1%} | {a[0]:.1%} | {a[1]:.1%} |")
    lines += ["", "What that evaluation showed (seen after it, so not tested by it): torchtitan's op-level selective "
              "checkpointing (recompute every other matmul and the cheap ops) has no counterpart in the request; read "
              "as Korthikanti's selective recomputation, which keeps every tensor but the attention scores, its two "
              "rows come out +130% and +161%. PEFT's MetaMathQA rows (+38 to +50%) took each batch at max_seq_length "
              "768, but the batches are padded to their own longest sample and MetaMathQA's are much shorter: 768 is "
              "a cap, not the length. On fms-acceleration's rows the full fine-tunes peak at the same 67.5 GiB at "
              "batch 4 and 8: the optimizer step sets the peak, 10 B/param = bf16 weights, gradients, moments and "
              "the foreach buffer (HF Trainer's adamw_torch), which the frozen rows do not state; the single-GPU "
              "LoRA, Q-LoRA and GPTQ-LoRA rows are over by 7 to 22% at 16-32k tokens per step, where the loss "
              "buffers (32k vocabulary) and the recomputed layer, which backward holds one after the other, are "
              "counted together; PEFT's k-bit upcast adds 4.0 GiB at batch 4 and 8.0 GiB at batch 8 over the plugin "
              "that skips it (exactly the extra 2 B of the fp32 stream over 32 checkpointed layer inputs: 4.0 and "
              "8.0 GiB), and the estimate adds 5.4 and 10.0 GiB, so those rows go from -6/-7% to +22% because their base was already +18/+21%. The "
              "blog's OctoCoder inference rows hold within 3% but the 4-bit one (-17%: bitsandbytes' load_in_4bit "
              "default is fp4 without double quantisation, 4.5 bits, and computes in fp32). These are the next "
              "round's hypotheses, to be tested on rows frozen before they change a formula.", ""]
    then = _as_of_round11(mem)  # each earlier formula round's reading stays what that round measured
    lines += _round4_reading(then)
    lines += _round4_heldout_reading(kinds4)
    lines += _round5_reading(then)
    lines += list(ROUND5_HELDOUT_READING_AT_EVAL) + [""]
    lines += _round6_reading(then)
    lines += list(ROUND6_HELDOUT_READING_AT_EVAL) + [""]
    lines += _round6_since_evaluation(kinds6)
    lines += _round7_reading(then)
    lines += list(ROUND7_HELDOUT_READING_AT_EVAL) + [""]
    lines += _round7_since_evaluation(kinds7)
    lines += _round8_reading(then)
    lines += list(ROUND8_HELDOUT_READING_AT_EVAL) + [""]
    lines += _round8_since_evaluation(kinds8)
    lines += _round9_reading(then)
    lines += _round10_reading(then)
    lines += _round11_reading(then)
    lines += _round12f_reading(mem)
    if kinds9:
        touched9 = sorted({e["id"] for e in errata or [] if e["file"] == HELDOUT_KINDS9_FILE.name})
        reading9 = (ROUND9_HELDOUT_READING_AT_EVAL if ROUND9_HELDOUT_READING_AT_EVAL is not None
                    else _round9_heldout_reading(kinds9, touched9))
        lines += list(reading9) + [""]
        lines += _round9_since_evaluation(kinds9)
    if kinds10:
        touched10 = sorted({e["id"] for e in errata or [] if e["file"] == HELDOUT_KINDS10_FILE.name})
        reading10 = (ROUND10_HELDOUT_READING_AT_EVAL if ROUND10_HELDOUT_READING_AT_EVAL is not None
                     else _round10_heldout_reading(kinds10, touched10))
        lines += list(reading10) + [""]
        lines += _round10_since_evaluation(kinds10)
    if kinds11:
        touched11 = sorted({e["id"] for e in errata or [] if e["file"] == HELDOUT_KINDS11_FILE.name})
        reading11 = (ROUND11_HELDOUT_READING_AT_EVAL if ROUND11_HELDOUT_READING_AT_EVAL is not None
                     else _round11_heldout_reading(kinds11, touched11))
        lines += list(reading11) + [""]
        lines += _round11_since_evaluation(kinds11)
    if kinds12:
        touched12 = sorted({e["id"] for e in errata or [] if e["file"] == HELDOUT_KINDS12_FILE.name})
        reading12 = (ROUND12_HELDOUT_READING_AT_EVAL if ROUND12_HELDOUT_READING_AT_EVAL is not None
                     else _heldout_reading(kinds12, touched12, ROUND12))
        lines += list(reading12) + [""]
        lines += _heldout_since_evaluation(kinds12, ROUND12, ROUND12_AT_EVAL_GIB)
    if kinds13:
        touched13 = sorted({e["id"] for e in errata or [] if e["file"] == HELDOUT_KINDS13_FILE.name})
        reading13 = (ROUND13_HELDOUT_READING_AT_EVAL if ROUND13_HELDOUT_READING_AT_EVAL is not None
                     else _heldout_reading(kinds13, touched13, ROUND13))
        lines += list(reading13) + [""]
        lines += _heldout_since_evaluation(kinds13, ROUND13, ROUND13_AT_EVAL_GIB)
    lines += ["### New kinds, by kind (median absolute error)", "",
              "| set | kind | split | rows | before | ours |", "|---|---|---|---:|---:|---:|"]
    # held-out files whose one evaluation is past and whose misses were studied
    spent = {"new kinds 2", "new kinds 3", "new kinds 4", "new kinds 5", "new kinds 6", "new kinds 7", "new kinds 8",
             "new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12"}
    for set_name, group_rows in (("new kinds", kinds), ("new kinds 2", kinds2), ("new kinds 3", kinds3),
                                 ("new kinds 4", kinds4), ("new kinds 5", kinds5), ("new kinds 6", kinds6),
                                 ("new kinds 7", kinds7), ("new kinds 8", kinds8), ("new kinds 9", kinds9),
                                 ("new kinds 10", kinds10), ("new kinds 11", kinds11), ("new kinds 12", kinds12),
                                 ("new kinds 13", kinds13)):
        for kind in sorted({r.kind or "" for r in group_rows}):
            for split in ("calibration", "holdout"):
                group = [r for r in group_rows if (r.kind or "") == kind and r.split == split]
                if group:
                    befores = [abs(r.before_error) for r in group if r.before_error is not None]
                    b = f"{statistics.median(befores):.1%}" if befores else "n/a"
                    a = statistics.median(abs(r.error) for r in group)
                    shown = f"{split} (spent)" if split == "holdout" and set_name in spent else split
                    lines.append(f"| {set_name} | {kind} | {shown} | {len(group)} | {b} | {a:.1%} |")
    lines.append("")
    if bounds:
        lines += ["### Published bounds", "", "| bound | set | split | before GiB | ours GiB | limit GiB | holds |",
                  "|---|---|---|---:|---:|---:|---|"]
        for b in bounds:
            before = "n/a" if b.get("before_gib") is None else f"{b['before_gib']:.2f}"
            lines.append(f"| {b['id']} | {b.get('set', 'first set')} | {b.get('split', '—')} | {before} | "
                         f"{b['ours_gib']:.2f} | {b['max_gib']:.2f} | {'yes' if b['holds'] else 'NO'} |")
        lines.append("")
    lines += ["### Errata", ""]
    if errata:
        lines += [f"- {e['file']} {e['id']}.{e['field']}: {e['was']} → {e['now']} ({e['reason']})" for e in errata]
    else:
        lines.append("None: every frozen file is read as written.")
    lines.append("")

    lines += ["## Training GPU-hours", "",
              "| run | split | published GPU-h | ours GPU-h | err | MFU used | implied MFU | note |",
              "|---|---|---:|---:|---:|---:|---:|---|"]
    for h in hours:
        lines.append(f"| {h.id} | {h.split} | {h.published:,.0f} | {h.ours:,.0f} | {_pct(h.error)} | "
                     f"{h.mfu_used:.2f} | {h.implied_mfu:.3f} | {h.scope or h.note or ''} |")
    calib = [h for h in hours if h.split == "calibration"]
    core = [h for h in hours if h.split == "holdout" and not h.scope]
    scoped = [h for h in hours if h.scope]
    lines += ["", f"Calibration (LLaMA-1, A100): median implied MFU {statistics.median(h.implied_mfu for h in calib):.3f} "
              f"→ the Ampere NVLink default in tools/mfu.py."]
    for label, group in (("calibration", calib), ("held-out, same scope", core), ("held-out, wider scope", scoped)):
        s = _summary([h.error for h in group])
        if s:
            within = sum(abs(h.error) <= TARGET_HOURS for h in group)
            lines.append(f"- {label}: median |err| {s[0]:.1%}, max {s[1]:.1%}; {within}/{s[2]} within ±{TARGET_HOURS:.0%}")
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    from knowledge.catalog import load_catalog

    catalog = load_catalog()
    mem, bounds = evaluate_all_memory(catalog)
    hours = evaluate_hours(catalog)
    sys.stdout.write(render(mem, bounds, hours, load_errata()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
