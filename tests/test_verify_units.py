"""The quantity reader's serving units (issue 11) and money periods (issue 13 §1), and the golden scorer's table.

Expected values are worked out by hand from the text: 10 万次/天 = 100,000 / 86,400 = 1.157 req/s;
$1.2 per 1K tokens = $1,200 per 1M tokens; 0.3 s = 300 ms; 3.6 days = 86.4 h.
"""

from __future__ import annotations

import pytest

from assistant.evaluation.units import parse_unit as golden_unit
from assistant.quantities import extract_quantities, unit_and_period
from assistant.verify.units import UNIT_DIMENSION


def found(text: str) -> list[tuple[float, str, str | None]]:
    return [(round(q.value, 6), q.unit, q.per) for q in extract_quantities(text)]


READ = [
    # --- latency: canonical ms
    ("TTFT 250 ms", [(250, "ms", None)]),
    ("首 token 延迟 300 毫秒", [(300, "ms", None)]),
    ("p50 0.3 s", [(300, "ms", None)]),  # a bare s after a number is seconds
    ("2s per step", [(2000, "ms", None)]),
    ("120 milliseconds", [(120, "ms", None)]),
    # --- throughput: token/s
    ("926 tok/s", [(926, "token/s", None)]),
    ("15.7k tokens/s", [(15700, "token/s", None)]),
    ("25 t/s on a 4090", [(25, "token/s", None)]),
    ("about 40 tokens per second", [(40, "token/s", None)]),
    ("吞吐 926 tokens/秒", [(926, "token/s", None)]),
    ("约每秒 40,591 token", [(40591, "token/s", None)]),  # the period before the count
    # --- request rate: req/s
    ("3.6 req/s", [(3.6, "req/s", None)]),
    ("12 QPS", [(12, "req/s", None)]),
    ("50 RPS", [(50, "req/s", None)]),
    ("8 requests per second", [(8, "req/s", None)]),
    ("峰值 20 次/秒", [(20, "req/s", None)]),
    ("10 万次请求/天", [(round(1e5 / 86400, 6), "req/s", None)]),
    ("每天 10 万次请求", [(round(1e5 / 86400, 6), "req/s", None)]),  # the period before the count
    ("100,000 requests per day", [(round(1e5 / 86400, 6), "req/s", None)]),
    ("600 requests/min", [(10, "req/s", None)]),
    # --- money per million tokens
    ("$0.12/1M tokens", [(0.12, "USD/Mtok", None)]),  # the 1M is part of the unit, not a token count
    ("¥0.8 每百万 token", [(0.8, "CNY/Mtok", None)]),
    ("$16.51 per million output tokens", [(16.51, "USD/Mtok", None)]),
    ("0.8 元/百万 tokens", [(0.8, "CNY/Mtok", None)]),
    ("$1.2 per 1K tokens", [(1200, "USD/Mtok", None)]),  # per thousand, shown per million
    ("$0.000002 per token", [(2, "USD/Mtok", None)]),
    ("每百万 token 成本约 ¥0.8", [(0.8, "CNY/Mtok", None)]),  # the denominator before the amount
    ("cost per 1M tokens is $16.5", [(16.5, "USD/Mtok", None)]),
    ("每 1M token ¥2", [(2, "CNY/Mtok", None)]),
    ("$0.10–0.12/1M tokens", [(0.1, "USD/Mtok", None), (0.12, "USD/Mtok", None)]),  # a range shares the unit
    # --- money periods, after and before the amount
    ("$28 per hour", [(28, "USD", "hour")]),
    ("¥1.2万/月", [(12000, "CNY", "month")]),
    ("$3 a day", [(3, "USD", "day")]),
    ("每月预算 2万元", [(20000, "CNY", "month")]),
    ("每小时 ¥12", [(12, "CNY", "hour")]),
    ("monthly cost: ¥8,745", [(8745, "CNY", "month")]),
    ("¥8,745", [(8745, "CNY", None)]),  # no period said
    ("$2–3/hr", [(2, "USD", "hour"), (3, "USD", "hour")]),
    # --- memory, FLOPs, counts
    ("40 KiB per token", [(40, "KiB", None)]),
    ("512 KB", [(512, "KB", None)]),
    ("7.8e19 FLOPs", [(7.8e19, "FLOP", None)]),
    ("2023 台机器", [(2023, "node", None)]),  # a Chinese count word: not a year
    ("a 7b model", [(7e9, "param", None)]),  # a lower-case b is a parameter count too
    ("2090.7 seconds", [(round(2090.7 / 3600, 6), "hour", None)]),  # year-like digits with a decimal: a number
    # --- a table: headers give units and periods
    (
        "| GPU | $/1M tokens | Monthly cost | TTFT (ms) | Output tok/s |\n|---|---|---|---|---|\n"
        "| H100 | 16.5 | ¥8,745 | 492 | 926 |",
        [(16.5, "USD/Mtok", None), (8745, "CNY", "month"), (492, "ms", None), (926, "token/s", None)],
    ),
    ("| 型号 | 月费用（万元） |\n|---|---|\n| A100 | 1.2 |\n", [(12000, "CNY", "month")]),
]


@pytest.mark.parametrize("text, expected", READ, ids=[r[0][:40] for r in READ])
def test_reads(text, expected):
    assert found(text) == [(round(v, 6), u, p) for v, u, p in expected]


NOT_CLAIMS = [
    "the 1990s",  # a decade, not 1990 seconds
    "100s of GPUs",  # hundreds
    "1000 requests",  # a request count without a period is not a rate
    "per 1M tokens",  # a denominator
    "2026.7.20",  # a date with dots
    "2026/7",  # year and month
    "FLOPS",  # no number
    "max 32 concurrent requests",  # a count of requests, no period
    "kept on Llama 3.1 8B/70B/405B",  # a list of model sizes after a family name
    "Llama 2 7B, 13B",
    "**DeepSeek LLM 67B**",  # words of a model's name between its family and its size
    "Qwen2.5 Coder 32B Instruct",
    "Atlas 800T A2",  # a Huawei server, not 800e12 A2 cards
]


@pytest.mark.parametrize("text", NOT_CLAIMS)
def test_not_claims(text):
    assert found(text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("CNY/hour", ("CNY", 1.0, "hour")),
        ("USD/month", ("USD", 1.0, "month")),
        ("$/1M tokens", ("USD/Mtok", 1.0, None)),
        ("¥/1K tokens", ("CNY/Mtok", 1000.0, None)),
        ("ms", ("ms", 1.0, None)),
        ("tok/s", ("token/s", 1.0, None)),
        ("QPS", ("req/s", 1.0, None)),
        ("GiB", ("GiB", 1.0, None)),
        ("furlongs", None),
    ],
)
def test_unit_and_period(text, expected):
    assert unit_and_period(text) == expected


def test_every_reader_unit_has_a_golden_family():
    """The scorer reads answers with this reader: a canonical unit it cannot name would be ignored."""
    missing = [u for u in UNIT_DIMENSION if u != "B" and golden_unit(u) is None]  # bytes come from keys only
    assert missing == []


@pytest.mark.parametrize(
    "unit, family, factor, currency",
    [
        ("ms", "time", 1 / 3.6e6, None),  # canonical hours, like every duration
        ("s", "time", 1 / 3600, None),
        ("tok/s", "throughput", 1.0, None),
        ("QPS", "request_rate", 1.0, None),
        ("requests/day", "request_rate", 1 / 86400, None),
        ("$/1M tokens", "money_per_token", 1.0, "USD"),
        ("¥/百万 token", "money_per_token", 1.0, "CNY"),
        ("USD/Mtok", "money_per_token", 1.0, "USD"),
        ("Gbps", "network", 1.0, None),  # bits stay apart from bytes
        ("GB", "memory", 1.0, None),
    ],
)
def test_golden_units(unit, family, factor, currency):
    u = golden_unit(unit)
    assert u is not None and u.family == family and u.currency == currency
    assert u.factor == pytest.approx(factor)
