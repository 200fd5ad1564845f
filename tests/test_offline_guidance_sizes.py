"""Guidance caveats are quoted only from sections written for the workload's size class."""

from __future__ import annotations

import pytest

from assistant.offline.guidance import size_classes, written_for


@pytest.mark.parametrize("heading, expected", [
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", [(3.5e9, 14e9), (3.5e9, 14e9)]),
    ("Pre-training a 13B-plus LLM (LLaMA-13B and larger)", [(6.5e9, float("inf")), (6.5e9, float("inf"))]),
    ("13B 以上大模型预训练（LLaMA-13B 及更大）", [(6.5e9, float("inf")), (6.5e9, float("inf"))]),
    ("Parallelism strategies: DDP, FSDP, ZeRO", []),
    ("FP8 on H100: 3.35 TB/s", []),  # a bandwidth is no size class
    ("Serving a 1.5B model", [(0.75e9, 3e9)]),
])
def test_size_classes(heading, expected):
    assert size_classes(heading) == expected


@pytest.mark.parametrize("section, params, quoted", [
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", 32.8e9, False),  # the 24 GB-card advice is for 7B
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", 7.6e9, True),
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", None, True),  # no workload: nothing to contradict
    ("Pre-training a 13B-plus LLM (LLaMA-13B and larger)", 70e9, True),
    ("Pre-training a 13B-plus LLM (LLaMA-13B and larger)", 1.5e9, False),
    ("LoRA and QLoRA", 70e9, True),  # no size in the heading
])
def test_written_for(section, params, quoted):
    passage = {"title": "Recommended GPU server configurations by scenario: small models, 7B fine-tuning, 13B+ pre-training",
               "section": section}
    assert written_for(passage, params) is quoted
