"""A measured figure of the user's own run, asked whether it is normal (frames._measured_question), table-driven.

The corpus README labels a measured deployment figure `serving` even when the turn asks why; a measured training
duration asked about is `train_time`. Failures, memory figures and two GPUs side by side are not this family.
Tested on the rule itself, so the shipped frame model cannot hide a broken rule.
"""

from __future__ import annotations

import pytest

from assistant.understand.frames import _facts, _measured_question
from assistant.understand.names import NameMatcher
from assistant.understand.reader import Reader
from assistant.understand.slots import Frame
from assistant.understand.state import ConversationState


@pytest.fixture(scope="module")
def reader():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return Reader(NameMatcher(load_catalog(Settings.load())))


CASES = [
    # a training duration measured on the user's run
    ("full finetune of qwen2.5-7b on 4 A100s took 30 hours, is that normal?", Frame.train_time),
    ("单卡4090 lora微调llama-3-8b，一个epoch要5小时，正常吗", Frame.train_time),
    ("the trainer eta says 120 hours for mistral-7b qlora on one 3090. is that really right?", Frame.train_time),
    # a deployment's measured speed
    ("vllm serving qwen2.5-14b on an L40S gives 9 tok/s, is that expected?", Frame.serving),
    ("用vllm部署qwen2.5-32b推理，每个请求要20秒才返回，这正常吗", Frame.serving),
    # however it is asked (session 8: every such turn in dev and the spent splits is labelled serving)
    ("serving qwen2.5-7b with vllm on an L4 and it crawls at 3 tok/s. what gives?", Frame.serving),
    ("用vllm部署qwen2.5-14b，每个请求要15秒才出来，这是为啥", Frame.serving),
    # not this family
    ("lora on llama-3-8b OOMs after 3 hours on my 4090, is that normal?", None),  # a failure to explain
    ("qwen2.5-7b lora at 20GB of vram on a 3090, is that normal?", None),  # a memory figure
    ("A100 is 3 hours per epoch and H100 1 hour for the same llama-3-8b lora, normal?", None),  # two GPUs: a comparison
    ("lora on llama-3-8b takes 3 hours per epoch on a 4090", None),  # nothing asked about the figure
    ("is it normal to use lora for llama-3-8b?", None),  # no figure
    ("lora on llama-3-8b took 3 restarts to converge, is that normal?", None),  # review: a count is no duration
    ("the calculator says 4 GPUs are needed for llama-3-8b full finetune, is that normal?", None),
    ("用了 4 张卡微调llama-3-8b还很慢，正常吗", None),
]


@pytest.mark.parametrize("text,frame", CASES, ids=[c[0][:40] for c in CASES])
def test_measured_question(reader, text, frame):
    r = reader.read(text)
    assert _measured_question(r, _facts(r, ConversationState())) == frame
