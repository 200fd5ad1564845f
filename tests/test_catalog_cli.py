"""`gpu-advisor catalog ...` through the real CLI entry point (main)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["catalog", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv, expect_in_out",
    [
        (("gpus",), ["H100", "79.7", "L40S", "45.0", "Ascend-910B"]),      # usable GiB shown
        (("models",), ["llama-2-13b", "13.02B", "deepseek-v3", "671.03B", "37.00B", "mla"]),
        (("providers",), ["aws-china", "阿里云", "CNY", "marketplace"]),
        (("instances", "--provider", "aws", "--gpu", "H100"), ["aws/p5.48xlarge", "55.04 USD", "NVLink, IB/RDMA 3200G", "2026-07-20"]),
        (("instances", "--provider", "alibaba", "--gpu", "A10"), ["ecs.gn7i-c8g1.2xlarge", "cn-mainland (CN)", "no sourced price"]),
        (("show", "llama-13b"), ["num_attention_heads", "40", "huggingface.co/huggyllama/llama-13b"]),
        (("show", "L40S"), ["usable_memory_gib", "44.99", "46068"]),
        (("show", "aws-china"), ["亚马逊云科技", "priced_instances"]),
        (("show", "aws/p4d.24xlarge"), ["A100-40GB", "21.9576 USD/hour", "official list price", "as of 2026-07-20"]),
        (("show", "gcp/a3-highgpu-8g/us-central1"), ["none sourced", "SUSPECT"]),
    ],
)
def test_tables(capsys, argv, expect_in_out):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    for text in expect_in_out:
        assert text in out, text


def test_region_filter_keeps_mainland_offers_only(capsys):
    code, out, _ = run(capsys, "instances", "--region", "cn", "--json")
    rows = json.loads(out)
    assert code == 0 and rows
    assert all(r["region"]["china_mainland"] for r in rows)
    assert {r["provider"] for r in rows} >= {"aws-china", "alibaba", "tencent", "huawei", "vast"}
    code, out, _ = run(capsys, "instances", "--region", "intl", "--provider", "vast", "--json")
    assert all(not r["region"]["china_mainland"] for r in json.loads(out))


def test_gpus_filtered_by_provider(capsys):
    code, out, _ = run(capsys, "gpus", "--provider", "aws-china", "--json")
    assert code == 0
    assert {g["key"] for g in json.loads(out)} == {"A10G", "T4", "V100-16GB", "M60", "K80"}


def test_instances_json_has_ids_ages_and_nulls(capsys):
    code, out, _ = run(capsys, "instances", "--provider", "runpod", "--gpu", "L40S", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 4
    one = next(r for r in rows if r["instance"] == "1x_L40S_SECURE")
    assert one["ram_gib"] is None  # RunPod's source has no host RAM
    prices = {p["billing"]: p for p in one["prices"]}
    assert prices["on_demand"]["amount"] == 0.86 and prices["spot"]["amount"] == 0.43
    assert prices["on_demand"]["as_of"] is None  # no date in the source: null (the tables say "date unknown")
    assert prices["on_demand"]["id"] == "runpod/1x_L40S_SECURE/all-25-datacenters/on_demand"
    assert prices["on_demand"]["grade"] == "official list price"


def test_show_json_for_each_kind(capsys):
    for name, key in (("RTX 4090", "RTX-4090"), ("Qwen2.5-7B-Instruct", "qwen2.5-7b"), ("腾讯云", "tencent")):
        code, out, _ = run(capsys, "show", name, "--json")
        assert code == 0 and json.loads(out)["key"] == key


@pytest.mark.parametrize(
    "argv, pattern",
    [
        (("show", "lama-13"), "Unknown catalog entry 'lama-13'. Did you mean: llama-13b, llama-2-13b"),
        (("instances", "--gpu", "H1OO"), "Unknown GPU 'H1OO'. Did you mean: H100"),
        (("instances", "--provider", "awz"), "Unknown provider 'awz'. Did you mean: aws"),
        (("show",), "give a name"),
    ],
)
def test_unknown_names_exit_2_with_suggestions(capsys, argv, pattern):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert pattern in err
    assert err.strip().count("\n") == 0 and "Traceback" not in err


def test_bad_choice_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["catalog", "gpuz"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_console_script_runs_as_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "ui.cli", "catalog", "show", "H800", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["china_variant"] is True and data["nvlink_bandwidth_gbps"] == 400
