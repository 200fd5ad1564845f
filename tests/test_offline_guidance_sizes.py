"""Guidance caveats are quoted only from sections written for the workload's size class and model kind."""

from __future__ import annotations

import pytest

from assistant.offline.guidance import about_other_mode, best_sentence, kinds_written_for, size_classes, written_for


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


@pytest.mark.parametrize("heading, kinds", [
    ("Image generation (Stable Diffusion)", {"diffusion"}),
    ("图像生成（Stable Diffusion）", {"diffusion"}),
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", {"decoder"}),
    ("13B 以上大模型预训练（LLaMA-13B 及更大）", {"decoder"}),
    ("Small model training (ResNet, BERT-base)", {"vision", "encoder"}),
    ("Inference and serving", set()),
    ("LoRA and QLoRA", set()),
])
def test_kinds_written_for(heading, kinds):
    assert kinds_written_for(heading) == kinds


@pytest.mark.parametrize("section, params, kind, quoted", [
    ("Image generation (Stable Diffusion)", 7.6e9, "decoder", False),  # SD's 12 GB advice is not about an LLM
    ("Image generation (Stable Diffusion)", 2.6e9, "diffusion", True),
    ("Image generation (Stable Diffusion)", 7e9, None, True),  # a stated size, kind unknown: nothing to contradict
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", 3.5e9, "diffusion", False),
    ("Fine-tuning a 7B LLM (LLaMA-7B class)", 7.6e9, "decoder", True),
    ("Small model training (ResNet, BERT-base)", 0.11e9, "encoder", True),
    ("Small model training (ResNet, BERT-base)", 0.5e9, "decoder", False),
    ("Inference and serving", 70e9, "decoder", True),
])
def test_written_for_kind(section, params, kind, quoted):
    assert written_for({"title": "scenarios", "section": section}, params, kind) is quoted


@pytest.mark.parametrize("sentence, mode, other", [
    ("7B 模型全参数微调时，光权重、梯度和 Adam 状态就约 112 GB。", "lora", True),
    ("Full fine-tuning a 7B model needs about 112 GB for weights, gradients and Adam states.", "qlora", True),
    ("Full fine-tuning a 7B model needs about 112 GB for weights, gradients and Adam states.", "full", False),
    ("LoRA gets close to full fine-tuning quality on most instruction tasks.", "lora", False),  # names its own mode
    ("LoRA trains a few million adapter weights.", "full", False),  # a full fine-tune may still hear LoRA's savings
    ("LoRA trains a few million adapter weights.", "inference", True),
    ("预训练需要多机多卡和 InfiniBand。", "full", True),
    ("Serving engines reserve a fixed fraction of GPU memory.", "lora", False),  # no mode named
    ("Full fine-tuning needs sharding.", None, False),  # mode unknown: nothing to contradict
])
def test_about_other_mode(sentence, mode, other):
    assert about_other_mode(sentence, mode) is other


def test_best_sentence_skips_another_modes_caveat():
    passage = {"text": "Full fine-tuning a 7B model needs about 112 GB of GPU memory for weights and Adam states. "
                       "A 24 GB card is enough for a 7B model with LoRA or QLoRA and a short context."}
    question = "which 24 GB card for 7B fine-tuning memory"
    assert best_sentence(passage, question, "lora").startswith("A 24 GB card")
    assert best_sentence(passage, question, "full").startswith("Full fine-tuning")
