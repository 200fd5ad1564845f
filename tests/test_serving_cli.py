"""`gpu-advisor serving` through the real CLI dispatcher and catalog."""

from __future__ import annotations

import json

import pytest

from tools.domain import Billing
from ui.cli import main

REQUIRED_KEYS = {
    "output_tok_s", "total_tok_s", "req_s", "ttft_ms", "tpot_ms", "e2e_ms", "max_concurrency", "kv_cache_gib",
    "kv_cache_tokens", "bound", "per_gpu_gib", "fits", "gpus", "tp", "nodes", "price_per_hour",
    "cost_per_million_output_tokens_at_load", "cost_per_million_output_tokens_at_max", "currency", "assumptions",
}


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["serving", *argv])
    except SystemExit as exc:  # argparse's own usage errors exit from inside parse_args
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_json_has_the_keys(capsys):
    data = run_json(capsys, "--model", "qwen2.5-7b", "--gpu", "L40S", "--gpus", "1", "--concurrency", "8")
    assert REQUIRED_KEYS <= set(data)
    assert data["gpus"] == 1 and data["fits"] is True and data["bound"] in ("memory", "compute")
    assert data["price_per_hour"] is None and data["cost_per_million_output_tokens_at_load"] is None  # no instance
    assert all({"code", "params", "text"} <= set(n) for n in data["assumptions"])


def test_instance_prices_it(capsys):
    data = run_json(capsys, "--model", "qwen2.5-7b", "--instance", "aws/g6e.xlarge", "--concurrency", "8")
    assert data["price_per_hour"] > 0 and data["currency"] == "USD"
    assert data["cost_per_million_output_tokens_at_load"] == pytest.approx(
        data["price_per_hour"] / (data["output_tok_s"] * 3600) * 1e6)
    assert data["cost_per_million_output_tokens_at_max"] <= data["cost_per_million_output_tokens_at_load"]
    assert data["instance"].startswith("aws/g6e.xlarge/")


def test_instance_in_cny(capsys):
    data = run_json(capsys, "--model", "qwen2.5-7b", "--instance", "aws/g6e.xlarge", "--max-throughput", "--currency",
                    "CNY")
    assert data["currency"] == "CNY" and data["cost_per_million_output_tokens_at_max"] > 0


def test_solves_the_gpu_count_when_not_given(capsys):
    data = run_json(capsys, "--model", "qwen2.5-72b", "--gpu", "H100", "--concurrency", "50", "--input-len", "4096",
                    "--output-len", "512")
    assert data["gpus"] >= 2 and data["fits"] is True
    assert any(n["code"] == "serving.layout_solved" for n in data["assumptions"])


def test_fits_false_with_nearest_layout(capsys):
    data = run_json(capsys, "--model", "llama-3.1-70b", "--gpu", "H100", "--gpus", "2", "--weights", "fp8",
                    "--concurrency", "200", "--input-len", "8000", "--output-len", "1000")
    assert data["fits"] is False and 0 < data["max_concurrency"] < 200
    assert data["nearest_layout"]["gpus"] > 2
    assert any(n["code"] == "serving.kv_short" for n in data["caveats"])


def test_precision_is_an_alias_of_weights(capsys):
    a = run_json(capsys, "--model", "llama-3.1-8b", "--gpu", "H100", "--gpus", "1", "--precision", "fp8")
    b = run_json(capsys, "--model", "llama-3.1-8b", "--gpu", "H100", "--gpus", "1", "--weights", "fp8")
    assert a["weights"] == b["weights"] == "fp8" and a["output_tok_s"] == b["output_tok_s"]
    assert any(n["code"] == "serving.quality_recovery" for n in a["caveats"])


@pytest.mark.parametrize(
    "flags, value",
    [
        (["--requests-per-day", "100000"], None),
        (["--requests-per-day", "100000", "--peak-factor", "5"], 5.0),
        (["--request-rate", "2.5"], None),
        (["--batch-size", "16"], None),
        (["--max-throughput"], None),
    ],
)
def test_load_shapes(capsys, flags, value):
    data = run_json(capsys, "--model", "qwen2.5-7b", "--gpu", "A100-80GB", "--gpus", "1", *flags)
    assert data["output_tok_s"] > 0 and data["ttft_ms"] > 0
    if value is not None:
        assert data["load"]["peak_factor"] == value


@pytest.mark.parametrize(
    "where",
    [
        ["--gpu", "H100", "--gpus", "1"],
        ["--instance", "aws/p5.48xlarge"],
    ],
)
def test_max_throughput_stays_inside_the_kv_pool(capsys, where):
    """The reviewer's commands: 898 sequences in a pool of 808 (77.4 of 71.3 GiB) came back with fits=True."""
    data = run_json(capsys, "--model", "qwen2.5-7b", *where, "--max-throughput")
    assert data["fits"] is True and data["saturated"] is False
    assert data["per_gpu_gib"] <= data["usable_gib"]
    assert data["concurrency"] * data["replicas"] == data["max_concurrency"]


def test_chinese_table(capsys):
    code, out, err = run_cli(capsys, "--model", "qwen2.5-7b", "--gpu", "RTX-4090", "--gpus", "1", "--concurrency", "4",
                             "--lang", "zh")
    assert code == 0, err
    assert "首 token 延迟" in out and "假设：" in out and "负载：4 个并发用户" in out


def test_english_table(capsys):
    code, out, err = run_cli(capsys, "--model", "llama-3-8b", "--gpu", "H100", "--gpus", "1")
    assert code == 0, err
    assert "time to first token" in out and "Assumptions:" in out and "load: 1 user at a time" in out


def test_json_notes_in_chinese(capsys):
    data = run_json(capsys, "--model", "qwen2.5-7b", "--gpu", "L40S", "--gpus", "1", "--lang", "zh")
    assert any("负载" in n["text"] for n in data["assumptions"])


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--model", "llama-3-8b", "--gpu", "H100", "--gpus", "3", "--tp", "2"], "--tp 2"),  # TP does not divide GPUs
        (["--model", "llama-3-8b", "--gpu", "H100", "--gpus", "3", "--tp", "3"], "attention heads"),  # nor the heads
        (["--model", "llama-3.1-405b", "--gpu", "RTX-4090", "--gpus", "1"], "does not fit"),  # weights fit nowhere
        (["--model", "llama-3-8b", "--gpu", "H100", "--input-len", "0"], "must be at least 1"),  # zero length
        (["--model", "llama-3-8b", "--gpu", "H100", "--output-len", "0"], "must be at least 1"),
        (["--model", "llama-3-8b", "--gpu", "H100", "--peak-factor", "2"], "--requests-per-day only"),
        (["--model", "llama-3-8b", "--gpu", "H100", "--concurrency", "4", "--max-throughput"], "not allowed"),
        (["--model", "llama-3-8b"], "Say which GPU"),
        (["--model", "lama-3-8b", "--gpu", "H100"], "Did you mean"),
        (["--model", "llama-3-8b", "--gpu", "H100", "--gpu-memory-utilization", "1.5"], "between 0 and 1"),
        (["--model", "llama-3-8b", "--gpu", "H100", "--weights", "int3"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_instance_gpu_mismatch(capsys):
    code, _out, err = run_cli(capsys, "--model", "qwen2.5-7b", "--instance", "aws/g6e.xlarge", "--gpu", "H100")
    assert code == 2 and "L40S" in err


def test_params_and_config_paths(capsys, tmp_path):
    data = run_json(capsys, "--params", "13B", "--gpu", "A100-80GB", "--gpus", "1")
    assert data["weights_fit"] is True
    config = tmp_path / "config.json"
    config.write_text(json.dumps({
        "model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
        "num_key_value_heads": 8, "vocab_size": 128256, "intermediate_size": 8192, "max_position_embeddings": 131072,
    }))
    data = run_json(capsys, "--config", str(config), "--gpu", "L4", "--gpus", "1", "--concurrency", "4")
    assert data["output_tok_s"] > 0


def test_billing_flag(capsys):
    data = run_json(capsys, "--model", "qwen2.5-7b", "--instance", "aws/g6e.xlarge", "--billing", Billing.on_demand.value)
    assert data["price_per_hour"] > 0


@pytest.mark.parametrize(
    "flags, kv_gib",
    [
        # vllm-project/vllm#10517: vLLM 0.6 (V0, no chunked prefill) on an RTX 3090 logged 3.81 GiB of KV cache
        (["--vllm-engine", "v0"], 3.81),
        # the same on current vLLM (V1: the profile run takes one 2,048-token chunk, fused sampler)
        ([], 5.42),
        # V1 with chunked prefill switched off profiles the whole context: a smaller pool than V1's default
        (["--no-chunked-prefill"], None),
    ],
)
def test_the_vllm_engine_generation_sizes_the_pool(capsys, flags, kv_gib):
    base = ["--model", "llama-3.1-8b", "--gpu", "RTX-3090", "--gpus", "1", "--input-len", "19000",
            "--output-len", "1000", "--max-model-len", "20000"]
    data = run_json(capsys, *base, *flags)
    if kv_gib is None:
        assert data["kv_cache_gib"] < run_json(capsys, *base)["kv_cache_gib"]
    else:
        assert data["kv_cache_gib"] == pytest.approx(kv_gib, rel=0.02)
