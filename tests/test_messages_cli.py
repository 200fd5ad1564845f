"""The calculator commands in Chinese (`--lang zh`, `GPU_ADVISOR_LANG`) and their `--json` notes."""

from __future__ import annotations

import json
import re

import pytest

from ui.cli import main


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def notes_in(data) -> list[dict]:
    """Every {code, params, text} object in a JSON document."""
    found = []
    if isinstance(data, dict):
        if {"code", "params"} <= set(data):
            found.append(data)
        for v in data.values():
            found += notes_in(v)
    elif isinstance(data, list):
        for v in data:
            found += notes_in(v)
    return found


CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH = re.compile(r"\b(the|and|of|per|on|at|for|with|is|fits|needs|only|network|single)\b", re.I)


@pytest.mark.parametrize(
    "argv, chinese, english",
    [
        # memory: headers, components with their precision, assumptions
        (["vram", "--model", "llama-2-13b", "--mode", "lora"],
         ["组成部分", "每卡 GiB", "权重（冻结底座，bf16）", "LoRA 适配器权重（fp32）", "每卡合计", "假设：", "假设序列长度为 2048",
          "余量 GiB", "公式："],
         ["component", "Assumptions:", "frozen base", "sequence length"]),
        # training time: labels and the MFU source with its citation
        (["train-time", "--model", "llama-2-7b", "--tokens", "1e9", "--gpu", "A100-80GB", "--gpus", "8"],
         ["计算量（FLOPs）", "卡时", "假设计算精度为 bf16", "LLaMA 论文表 15"],
         ["GPU-hours", "compute precision", "paper Table"]),
        # cost: billing modes in words, dates, the month assumption
        (["cost", "--instance", "aws/p4d.24xlarge", "--hours", "100"],
         ["总价（按量付费）", "计费方式", "时长：按给定的 100 小时计。"],
         ["Total (", "Hours:", "on-demand"]),
        # recommend: the table, reasons and assumptions
        (["recommend", "--model", "llama-13b", "--mode", "lora", "--budget", "20000", "--currency", "CNY"],
         ["实例", "每卡 GiB 需要/可用", "每卡需要", "计费：优先按量付费"],
         ["needs", "Billing:", "headroom"]),
        # catalog listings
        (["catalog", "instances", "--provider", "alibaba", "--gpu", "A10"],
         ["实例", "地域", "价格来源", "没有有来源的价格"],
         ["no sourced price", "price grade"]),
    ],
)
def test_lang_zh_renders_tables_and_notes_in_chinese(capsys, argv, chinese, english):
    code, out, err = run_cli(capsys, *argv, "--lang", "zh")
    assert code == 0, err
    for text in chinese:
        assert text in out, text
    for text in english:
        assert text not in out, text


def test_lang_zh_suggestions_are_flags_on_the_cli(capsys):
    code, out, _ = run_cli(capsys, "recommend", "--params", "70e9", "--mode", "full", "--budget", "500",
                           "--currency", "USD", "--lang", "zh")
    assert code == 0
    assert "可行的替代方案：" in out
    assert re.search(r"^- --mode qlora：\d+ 个有价格的方案可行且在预算内；最佳：", out, re.M), out
    assert "Raise the budget" not in out and "What would work" not in out


@pytest.mark.parametrize(
    "argv",
    [
        ["vram", "--model", "qwen2.5-7b", "--mode", "qlora"],
        ["train-time", "--model", "llama-2-7b", "--tokens", "1e9", "--gpu", "H100"],
        ["cost", "--instance", "aws/p4d.24xlarge", "--currency", "CNY"],
        ["recommend", "--params", "70e9", "--mode", "full", "--budget", "500", "--currency", "USD"],
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_json_notes_carry_code_params_and_text_in_the_language(capsys, argv, lang):
    code, out, err = run_cli(capsys, *argv, "--json", "--lang", lang)
    assert code == 0, err
    data = json.loads(out)
    notes = notes_in(data)
    assert notes
    for n in notes:
        assert set(n) == {"code", "params", "text"}, n
        assert isinstance(n["params"], dict) and n["text"].strip()
        if lang == "en":
            assert not CJK.search(n["text"]), n["text"]
        else:  # Chinese, or only names and terms ("NVLink", "InfiniBand/RDMA")
            assert CJK.search(n["text"]) or not ENGLISH.search(n["text"]), n["text"]


def test_json_suggestion_change_has_advice_and_flags(capsys):
    _, out, _ = run_cli(capsys, "recommend", "--params", "70e9", "--mode", "full", "--budget", "500", "--currency", "USD",
                        "--json", "--lang", "zh")
    changes = [s["change"] for s in json.loads(out)["suggestions"] if s["change"]]
    qlora = next(c for c in changes if c["value"] == "qlora")
    assert qlora == {"kind": "set_mode", "value": "qlora", "currency": None, "text": "改用 QLoRA（4-bit 底座）",
                     "flags": "--mode qlora"}


def test_json_breakdown_has_component_codes_and_gib(capsys):
    _, out, _ = run_cli(capsys, "vram", "--model", "qwen2.5-7b", "--mode", "qlora", "--json", "--lang", "zh")
    data = json.loads(out)
    assert data["breakdown"][0]["component"] == "weights_frozen" and data["breakdown"][0]["precision"] == "nf4"
    assert set(data["breakdown_gib"]) == {p["component"] for p in data["breakdown"]}
    assert sum(data["breakdown_gib"].values()) == pytest.approx(data["per_gpu_gib"], abs=0.01)


@pytest.mark.parametrize("env, expect_zh", [("zh", True), ("en", False), ("auto", False)])
def test_gpu_advisor_lang_sets_the_default(capsys, monkeypatch, env, expect_zh):
    monkeypatch.setenv("GPU_ADVISOR_LANG", env)
    code, out, _ = run_cli(capsys, "vram", "--params", "7B")
    assert code == 0
    assert ("组成部分" in out) is expect_zh and ("component" in out) is not expect_zh
    code, out, _ = run_cli(capsys, "vram", "--params", "7B", "--lang", "en")  # the flag wins
    assert "component" in out


def test_errors_stay_one_english_line_on_the_cli(capsys):
    code, _, err = run_cli(capsys, "vram", "--params", "7B", "--mode", "full", "--precision", "int4", "--lang", "zh")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--mode full trains every weight" in err  # the CLI form names the flags
