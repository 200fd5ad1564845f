"""Session 9's reader round, tested on the rules themselves (the shipped frame model cannot hide a broken rule).

Each family came from a class of errors on the spent splits 1-6 and dev CV (with the retired splits in it): the words
that ask whether a measured training time is what it should be, the time and time-limit cue phrasings, and memory
figures that are not the user's (host RAM, a measured usage, a documented requirement).
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


MEASURED = [
    # words that ask whether a measured training time is what it should be
    ("fine-tuning llama-2-7b lora on 8x A100 80GB finished in 40 minutes. is that plausible?", Frame.train_time),
    ("mistral-7b qlora on one 3090 says 30 hours per epoch, is that realistic?", Frame.train_time),
    ("单卡a800 qlora微调llama-3-8b，进度条说要450个小时，是不是哪里不对", Frame.train_time),
    ("4090上lora微调qwen2.5-7b，显示一个epoch要6小时，这个估计靠谱吗", Frame.train_time),
    # not this family
    ("is it realistic to lora llama-3-8b on a 3090?", None),  # no measured figure
    ("lora on llama-3-8b took 30 hours and then OOMed, is that plausible?", None),  # a failure
]


@pytest.mark.parametrize("text,frame", MEASURED, ids=[c[0][:40] for c in MEASURED])
def test_measured_time_asked_if_plausible(reader, text, frame):
    r = reader.read(text)
    assert _measured_question(r, _facts(r, ConversationState())) == frame


CUES = [
    ("roughly when will it finish?", "time"),
    ("2张A100跑qwen2.5-14b的lora，数据一亿token左右，估个时间", "time"),
    ("gotta finish this overnight", "deadline"),
    ("明天早上之前要交", "deadline"),
]


@pytest.mark.parametrize("text,cue", CUES, ids=[c[0][:30] for c in CUES])
def test_time_and_deadline_cue_families(reader, text, cue):
    assert cue in reader.read(text).cues


NOT_THE_USERS_MEMORY = [
    # host RAM: 内存 (not 显存) as the figure's own suffix, "system ram"
    ("llama3:70b在我的4090上（i9，64G内存）出字偏慢，怎么提速", None),
    ("all i've got is a 4090 and 32gb of system ram. can i even load starcoder on that?", None),
    # a measured usage or a documented requirement, not memory the user has
    ("GLM4-9B int4量化跑起来显存跟不量化一样占17G，正常应该占多少", None),
    ("whisper fine-tune on an A100: memory never goes past ~41GB, how do i use more of it?", None),
    ("mlx_lm.lora reports peak mem 8.3 gb, max seq 2048. leak or expected?", None),
    ("deepspeed's estimator said ~29GB per gpu for a 7b on 4 gpus but i see way more", None),
    ("deepseek-r1:70b is a 42GB download and i've got 64GB of vram across two cards", 64.0),  # the download skipped
    # still the user's memory
    ("笔记本只有6G显存，能跑chatglm-6b吗", 6.0),
    ("I have 48GB of VRAM, can I lora a 34b?", 48.0),
]


@pytest.mark.parametrize("text,gib", NOT_THE_USERS_MEMORY, ids=[c[0][:40] for c in NOT_THE_USERS_MEMORY])
def test_available_memory_is_the_users(reader, text, gib):
    assert reader.read(text).update.available_gib == gib
