"""Session 14 reading rules (helper-127), from the spent held-out 11/12 error classes: table-driven."""

import pytest

from assistant.evaluation.understanding import numeric_state
from assistant.understand import patterns as P
from assistant.understand.numbers import normalise


@pytest.mark.parametrize("state, expected", [
    ({"params": "7.0e9"}, {"params": 7.0e9}),
    ({"seq_len": "4096", "gpu_count": "2"}, {"seq_len": 4096, "gpu_count": 2}),
    ({"model": "7e9", "model_name": "13"}, {"model": "7e9", "model_name": "13"}),  # text slots stay text
    ({"hours": "abc"}, {"hours": "abc"}),  # not a number: left as written
])
def test_numeric_string_in_numeric_slot(state, expected):
    assert numeric_state(state) == expected


@pytest.mark.parametrize("text, seq", [
    ("序列长度要到 32k", 32768),
    ("长度设 1024", 1024),
    ("max-model-len 已经压到 4096 了", 4096),
    ("vLLM refuses max_model_len above 8192", 8192),
    ("seq len 2048", 2048),
])
def test_seq_len_setting_chain(text, seq):
    assert P.seq_len(normalise(text)) == seq


@pytest.mark.parametrize("text, bs", [("batch 设 1", 1), ("bs 能开到 4 吗", 4), ("bs 降到 2 的话", 2), ("每卡 batch 只能开到 4", 4), ("batch size 8", 8)])
def test_batch_setting_chain(text, bs):
    assert P.batch_size(normalise(text)) == bs


@pytest.mark.parametrize("text, conc", [("客户端并发开到 1000", 1000), ("单并发下 793ms", 1), ("并发数为 20", 20)])
def test_concurrency(text, conc):
    assert P.load(normalise(text)).concurrency == conc


def test_chinese_comma_between_numbers_is_no_thousands_separator():
    assert P.seq_len(normalise("max_length 1024，10个epoch")) == 1024
    assert P.epochs(normalise("max_length 1024，10个epoch")) == 10
