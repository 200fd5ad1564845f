"""`gpu-advisor vram` and `gpu-advisor train-time` through the real CLI dispatcher and catalog."""

from __future__ import annotations

import json

import pytest

from tools.errors import InputError
from ui.cli import main
from ui.commands._workload import parse_params


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own usage errors exit from inside parse_args
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# ------------------------------------------------------------------ parameter counts


@pytest.mark.parametrize(
    "text, value",
    [
        ("13e9", 13e9),
        ("13B", 13e9),
        ("7b", 7e9),
        ("130亿", 13e9),  # 亿 = 10^8
        ("1.5万亿", 1.5e12),  # 万亿 = 10^12
        ("350M", 350e6),
        ("13,000,000,000", 13e9),
        ("70 billion", 70e9),
        ("7B params", 7e9),
        ("70亿参数", 7e9),
    ],
)
def test_parse_params(text, value):
    assert parse_params(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["abc", "-5", "nan", "inf", "0", "13X", "", "1e400", "12"])
def test_parse_params_rejects(text):
    with pytest.raises(InputError):
        parse_params(text)


# ------------------------------------------------------------------ vram


def test_vram_json_keys_for_raw_params(capsys):
    data = run_json(capsys, "vram", "--params", "7B", "--mode", "lora")
    for key in ("per_gpu_gib", "total_gib", "breakdown", "breakdown_gib", "fits", "assumptions"):
        assert key in data
    assert "weights_frozen" in data["breakdown_gib"]  # keyed by component code, GiB per GPU
    assert data["per_gpu_gib"] == pytest.approx(sum(data["breakdown_gib"].values()), abs=0.01)
    assert {"component": "weights_frozen", "precision": "bf16"}.items() <= data["breakdown"][0].items()
    # every note is {code, params, text}, the text in the requested language (default en)
    shape = next(a for a in data["assumptions"] if a["code"] == "vram.shape_assumed")
    assert set(shape) == {"code", "params", "text"} and "shape assumed" in shape["text"]
    assert shape["params"]["layers"] == 32
    assert all(isinstance(v, bool) for v in data["fits"].values())


def test_vram_chinese_param_count(capsys):
    data = run_json(capsys, "vram", "--params", "130亿")
    assert data["model"] == "13B"
    # bf16 inference: 13e9 × 2 B = 24.2 GiB of weights
    assert data["breakdown_gib"]["weights"] == pytest.approx(13e9 * 2 / 2**30, abs=1e-3)
    assert data["breakdown"][0] == {"component": "weights", "precision": "bf16", "gib": data["breakdown_gib"]["weights"]}


def test_vram_catalog_model_and_fits(capsys):
    data = run_json(capsys, "vram", "--model", "llama-2-7b", "--mode", "inference", "--precision", "bf16")
    # 6,738,415,616 params × 2 B = 12.55 GiB
    assert data["breakdown_gib"]["weights"] == pytest.approx(12.551, abs=1e-3)
    assert data["fits"]["A100-80GB"] is True
    assert data["fits"]["T4"] is False  # 16 GB card, ~14.6 GiB usable < 14.7 GiB needed


def test_vram_gpu_filter(capsys):
    data = run_json(capsys, "vram", "--model", "llama-2-13b", "--mode", "qlora", "--gpu", "RTX-4090", "--gpu", "T4")
    assert set(data["fits"]) == {"RTX-4090", "T4"}


def test_vram_table_output(capsys):
    code, out, _ = run_cli(capsys, "vram", "--model", "llama-2-13b", "--mode", "lora")
    assert code == 0
    assert "component" in out and "total per GPU" in out and "Assumptions:" in out
    assert "A100-80GB" in out and "headroom GiB" in out


def test_vram_target_len_sets_the_decoder_tokens(capsys):
    """--target-len: an encoder-decoder's decoder runs over the targets (FLAN-T5 summaries: 512 in, 129 out)."""
    argv = ("vram", "--model", "flan-t5-xl", "--mode", "full", "--seq-len", "512", "--batch-size", "8")
    same = run_json(capsys, *argv)
    short = run_json(capsys, *argv, "--target-len", "129")
    note = next(a for a in short["assumptions"] if a["code"] == "vram.encoder_decoder")
    assert note["params"]["target_tokens"] == 129 and note["params"]["target_assumed"] is False
    assert "129 target tokens" in note["text"]
    default = next(a for a in same["assumptions"] if a["code"] == "vram.encoder_decoder")
    assert default["params"]["target_assumed"] is True and "no target length given" in default["text"]
    assert short["breakdown_gib"]["logits"] < same["breakdown_gib"]["logits"]
    assert short["per_gpu_gib"] < same["per_gpu_gib"]
    zh = run_json(capsys, *argv, "--target-len", "129", "--lang", "zh")
    assert "解码器目标 129 个 token" in next(a["text"] for a in zh["assumptions"] if a["code"] == "vram.encoder_decoder")


def test_vram_round3_flags_reach_the_request(capsys):
    """--kbit-prepare, --autocast/--no-autocast, --foreach-step: the setups the request states (issue 11, round 3)."""
    qlora = ("vram", "--model", "llama-2-7b", "--mode", "qlora", "--seq-len", "2048")
    plain, prepared = run_json(capsys, *qlora), run_json(capsys, *qlora, "--kbit-prepare")
    assert prepared["breakdown_gib"]["weights_frozen"] > plain["breakdown_gib"]["weights_frozen"]
    assert any(a["code"] == "vram.kbit_prepare" for a in prepared["assumptions"])
    full = ("vram", "--model", "qwen-7b", "--mode", "full", "--master-weights", "none", "--seq-len", "2048")
    on, off = run_json(capsys, *full, "--autocast"), run_json(capsys, *full, "--no-autocast")
    assert on["breakdown_gib"]["logits"] > off["breakdown_gib"]["logits"]
    step = run_json(capsys, *full, "--foreach-step")
    assert step["breakdown_gib"]["optimizer_step"] > 0 and step["per_gpu_gib"] > off["per_gpu_gib"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--params", "7B", "--target-len", "0"], "--target-len: 0 must be at least 1"),
        (["--params", "-5"], "Cannot read parameter count '-5'"),
        (["--params", "nan"], "Cannot read parameter count 'nan'"),
        (["--params", "0"], "positive finite"),
        (["--params", "7B", "--mode", "qlora", "--precision", "fp16"], "QLoRA keeps the base model in 4 bits"),
        (["--params", "7B", "--batch-size", "0"], "--batch-size: 0 must be at least 1"),
        (["--params", "7B", "--seq-len", "-3"], "--seq-len: -3 must be at least 1"),
        (["--params", "7B", "--mode", "full", "--precision", "int4"], "needs 16- or 32-bit weights"),
        (["--params", "7B", "--gpus", "2", "--tp", "4"], "tp × pp = 4 is more than --gpus 2"),
        (["--model", "lama-2-7"], "Unknown model 'lama-2-7'. Did you mean: llama-2-7b"),
        (["--model", "llama-2-7b", "--gpu", "A10O"], "Unknown GPU 'A10O'. Did you mean"),
        ([], "Say which model"),
    ],
)
def test_vram_bad_input_is_one_line_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "vram", *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# ------------------------------------------------------------------ train-time


def test_train_time_json_keys_and_values(capsys):
    data = run_json(capsys, "train-time", "--params", "7B", "--tokens", "1e12", "--gpu", "A100-80GB",
                    "--gpus", "8", "--mfu", "0.4", "--deadline-hours", "500")
    for key in ("flops", "hours", "days", "gpu_hours", "mfu", "gpus"):
        assert key in data
    # 6 × 7e9 × 1e12 = 4.2e22 FLOPs; 8 × 312e12 × 0.4 FLOP/s → 11,685.5 h; 93,483.8 GPU-h
    assert data["flops"] == pytest.approx(4.2e22)
    assert data["hours"] == pytest.approx(4.2e22 / (8 * 312e12 * 0.4) / 3600, rel=1e-6)
    assert data["gpu_hours"] == pytest.approx(8 * data["hours"])
    assert data["days"] == pytest.approx(data["hours"] / 24)
    assert data["gpus_for_deadline"] == 187  # 93,483.8 GPU-h / 500 h → 186.97
    assert data["mfu"] == 0.4 and data["gpus"] == 8


def test_train_time_catalog_model_default_mfu(capsys):
    data = run_json(capsys, "train-time", "--model", "llama-7b", "--tokens", "1T", "--gpu", "A100-80GB",
                    "--gpus", "2048")
    assert data["mfu"] == pytest.approx(0.47)
    # LLaMA paper Table 15: 82,432 GPU-hours; we are within 10 %
    assert data["gpu_hours"] == pytest.approx(82_432, rel=0.10)


def test_train_time_table(capsys):
    code, out, _ = run_cli(capsys, "train-time", "--params", "7B", "--tokens", "1e9", "--gpu", "H100")
    assert code == 0 and "GPU-hours" in out and "MFU" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--params", "7B", "--tokens", "1e9", "--gpu", "A100-80GB", "--mfu", "1.5"], "--mfu 1.5 is above 1"),
        (["--params", "7B", "--tokens", "-1", "--gpu", "A100-80GB"], "token count"),
        (["--params", "7B", "--tokens", "1e9", "--gpu", "A100-80GB", "--gpus", "0"], "must be at least 1"),
        (["--params", "7B", "--tokens", "1e9", "--gpu", "H1OO"], "Unknown GPU 'H1OO'. Did you mean"),
        (["--params", "7B", "--tokens", "1e9", "--gpu", "A100-80GB", "--mode", "inference"], "training mode"),
        (["--params", "7B", "--tokens", "1e9", "--gpu", "A100-80GB", "--deadline-hours", "nan"], "positive finite"),
    ],
)
def test_train_time_bad_input(capsys, argv, message):
    code, out, err = run_cli(capsys, "train-time", *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err



def test_no_logits_upcast_shrinks_the_loss_of_a_16bit_pretraining_run(capsys):
    base = ["vram", "--model", "gpt2", "--mode", "pretrain", "--precision", "bf16", "--no-autocast", "--batch-size", "8",
            "--seq-len", "1024"]
    hf = run_json(capsys, *base)
    own = run_json(capsys, *base, "--no-logits-upcast")
    assert own["breakdown_gib"]["logits"] < hf["breakdown_gib"]["logits"]
    code, _, err = run_cli(capsys, "vram", "--model", "gpt2", "--mode", "inference", "--no-logits-upcast")
    assert code == 2 and "logits_upcast" in err and "Traceback" not in err


def test_vocab_parallel_loss_flag_splits_the_loss_over_tensor_parallel_ranks(capsys):
    base = ["vram", "--model", "gpt2", "--mode", "pretrain", "--precision", "fp16", "--gpus", "8", "--tp", "2",
            "--sharding", "ddp", "--no-autocast"]
    plain = run_json(capsys, *base)
    megatron = run_json(capsys, *base, "--vocab-parallel-loss")
    assert megatron["breakdown_gib"]["logits"] < plain["breakdown_gib"]["logits"]
    code, _, err = run_cli(capsys, "vram", "--model", "gpt2", "--mode", "inference", "--vocab-parallel-loss")
    assert code == 2 and "vocab_parallel_loss" in err and "Traceback" not in err
