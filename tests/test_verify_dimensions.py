"""A claim is backed only by a typed figure of the same dimension, within the rounding it shows.

One row per dimension and rule: a typed tool result (the fields our calculators return), a claim, and
the label that must back it (None: it must stay unbacked). Tolerances worked by hand: "29 GiB" covers
28.5-29.5; 29.37 GiB = 31.54 GB; 491.66 ms = 0.49 s; "16.5" covers 16.45-16.55.
"""

from __future__ import annotations

import pytest

from assistant.verifier import Evidence, verify_numbers

SERVING = {  # the shape of tools.serving_types.ServingEstimate (a few fields)
    "gpus": 8, "nodes": 1, "per_gpu_gib": 28.33, "kv_cache_gib": 51.27, "kv_cache_tokens": 1344032,
    "kv_bytes_per_token": 40960.0, "output_tok_s": 925.79, "total_tok_s": 15738.4, "tokens_per_user_s": 19.12,
    "req_s": 3.6164, "ttft_ms": 491.66, "tpot_ms": 52.29, "e2e_ms": 13826.1, "max_concurrency": 308,
    "decode": {"weights_ms": 7.23, "step_ms": 14.79, "bound": "memory"},
    "price_per_hour": 55.04, "currency": "USD", "cost_per_million_output_tokens_at_load": 16.5145,
    "cost_per_million_output_tokens_at_max": 13.96, "concurrency": 50.0, "tp": 8, "input_len": 4096,
}
CATALOG_GPU = {"key": "H100", "memory_gb": 80.0, "usable_memory_gib": 79.23, "memory_bandwidth_gbps": 3350.0,
               "bf16_tflops": 989.4, "int8_tops": 1979.0, "tdp_w": 700.0, "launch_year": 2022,
               "compute_capability": 9.0, "nvlink_bandwidth_gbps": 900.0}
INSTANCE = {"instances": [{"provider": "aws", "instance": "p5.48xlarge", "gpu_count": 8, "network_gbps": 3200,
                           "ram_gib": 2048, "price": {"amount": 55.04, "currency": "USD", "per": "hour"}}]}
TRAIN = {"hours": 76.8, "days": 3.2, "gpu_hours": 614.4, "mfu": 0.4, "flops": 7.8e19, "gpus": 8,
         "peak_tflops_per_gpu": 989.0}
OPTION = {"currency": "CNY", "options": [{"monthly_cost": 8745.4, "price_per_hour": 11.98, "job_cost": 5321.0,
                                          "job_hours": 444.2, "throughput_tps": 40591.0, "gpu_count": 1.0}]}
MODEL = {"name": "llama-13b", "params": 13e9, "active_params": 13e9, "max_context": 4096, "num_layers": 40}

EVIDENCE = Evidence(tool_results={
    "estimate_serving": SERVING, "lookup_catalog": CATALOG_GPU, "lookup_catalog#2": INSTANCE,
    "estimate_train_time": TRAIN, "recommend_config": OPTION, "lookup_catalog#3": MODEL,
})
S, G, I, T, R, M = ("tool:estimate_serving:", "tool:lookup_catalog:", "tool:lookup_catalog#2:instances.0.",
                    "tool:estimate_train_time:", "tool:recommend_config:options.0.", "tool:lookup_catalog#3:")

ROWS = [
    # --- memory: exact conversion, and the same digits (GiB written as GB)
    ("29 GiB per GPU", None),  # 28.33 rounds to 28
    ("28 GiB per GPU", S + "per_gpu_gib"),
    ("30.4 GB per GPU", S + "per_gpu_gib"),  # 28.33 GiB = 30.42 GB
    ("28.3 GB per GPU", S + "per_gpu_gib"),  # the GiB figure called GB
    ("40 KiB per token", S + "kv_bytes_per_token"),  # 40,960 bytes
    ("80 GB of HBM3", G + "memory_gb"),
    ("2 TiB of RAM", I + "ram_gib"),  # 2,048 GiB
    ("81 GB", None),  # nothing is 81 GB
    # --- money per period: currency and period must both agree
    ("$55.04/h", S + "price_per_hour"),
    ("$55 per hour", S + "price_per_hour"),
    ("$55.04/month", None),  # an hourly price is not a monthly one
    ("¥55.04/h", None),  # never the other currency
    ("¥8,745/月", R + "monthly_cost"),
    ("约 ¥0.87万/月", R + "monthly_cost"),
    ("¥11.98/小时", R + "price_per_hour"),
    ("¥11.98/月", None),
    ("¥5,321 for the job", R + "job_cost"),  # a total: no period in the claim
    ("¥5,321/month", None),  # the job cost has no period
    # --- money per million tokens
    ("$16.51 per 1M output tokens", S + "cost_per_million_output_tokens_at_load"),
    ("$16.5/1M tokens", S + "cost_per_million_output_tokens_at_load"),
    ("$0.0165 per 1K tokens", S + "cost_per_million_output_tokens_at_load"),  # 16.5 per 1M
    ("$13.96 per million tokens", S + "cost_per_million_output_tokens_at_max"),
    ("¥16.51 每百万 token", None),  # the figure is in USD
    ("$16.51/hour", None),  # money per token is not money per hour
    ("$55.04 per 1M tokens", None),  # the hourly price is not a token price
    # --- time: ms to days
    ("TTFT 492 ms", S + "ttft_ms"),
    ("TTFT 0.49 s", S + "ttft_ms"),  # 491.66 ms
    ("TPOT 52 ms", S + "tpot_ms"),
    ("13.8 s end to end", S + "e2e_ms"),
    ("a 15 ms decode step", S + "decode.step_ms"),
    ("TTFT 600 ms", None),
    ("about 77 hours", T + "hours"),
    ("3.2 days", T + "hours"),
    ("77 ms", None),  # 77 hours is not 77 ms
    # --- counts
    ("8 GPUs", S + "gpus"),
    ("1 node", S + "nodes"),
    ("614 GPU-hours", T + "gpu_hours"),
    ("a 13B model", M + "params"),
    ("4096 tokens of context", S + "input_len"),
    ("1.34M tokens of KV cache", S + "kv_cache_tokens"),
    ("7.8e19 FLOPs", T + "flops"),
    ("308 GPUs", None),  # max_concurrency counts sequences, not GPUs
    ("50 GPUs", None),  # the load (concurrency 50) is not a GPU count
    # --- rates
    ("926 tok/s", S + "output_tok_s"),
    ("15.7k tokens/s in all", S + "total_tok_s"),
    ("19 tokens per second per user", S + "tokens_per_user_s"),
    ("约每秒 40,591 token", R + "throughput_tps"),
    ("3.6 req/s", S + "req_s"),
    ("3.62 QPS", S + "req_s"),
    ("926 req/s", None),  # a token rate is not a request rate
    ("3.6 tok/s", None),
    # --- bandwidth (bytes and bits), compute, power, percentages
    ("3.35 TB/s", G + "memory_bandwidth_gbps"),
    ("3,350 GB/s", G + "memory_bandwidth_gbps"),
    ("900 GB/s NVLink", G + "nvlink_bandwidth_gbps"),
    ("3,200 Gbps of EFA", I + "network_gbps"),
    ("400 GB/s of EFA", I + "network_gbps"),  # 3,200 Gb/s = 400 GB/s exactly
    ("3,200 GB/s of EFA", None),  # bits are not bytes
    ("989 TFLOPS", G + "bf16_tflops"),
    ("1,979 TOPS", G + "int8_tops"),
    ("700 W", G + "tdp_w"),
    ("40% MFU", T + "mfu"),  # a fraction shown as a percentage
    ("45% MFU", None),
    # --- fields whose name tells no unit back nothing
    ("2022 GPUs", None),  # launch_year
    ("9 GPUs", None),  # compute_capability 9.0
    ("40 nodes", None),  # num_layers
]


@pytest.mark.parametrize("claim, label", ROWS, ids=[r[0] for r in ROWS])
def test_dimension(claim, label):
    (c,) = verify_numbers(claim, EVIDENCE)
    assert c.backed_by == label


def test_the_price_record_carries_its_period():
    ev = Evidence(tool_results={"lookup_catalog": INSTANCE})
    assert verify_numbers("$55.04/h", ev)[0].backed_by == "tool:lookup_catalog:instances.0.price.amount"
    assert verify_numbers("$55.04/month", ev)[0].backed_by is None
