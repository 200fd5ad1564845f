"""The Latin-word counter behind strict `answer_lang: zh` (issue 10): what it removes and what it counts.

Most rows use a small explicit name list (as a catalog would give) with the committed term list, so each row
shows one rule; the last tests read the real catalog.
"""

from __future__ import annotations

from collections import Counter

import pytest

from assistant.evaluation.latin_words import (
    FUNCTION_WORDS,
    TERMS_PATH,
    LatinWordCounter,
    catalog_names,
    counter_for,
    load_terms,
)

NAMES = [
    "A100-80GB", "A100 80GB", "NVIDIA A100 SXM4 80GB", "NVIDIA", "A100",  # a GPU: key, alias, name, vendor, digit token
    "RTX-4090", "RTX 4090", "4090",
    "qwen2.5-7b", "Qwen2.5 7B", "qwen2.5",  # a model: key, name, first word of the key
    "llama-3-8b", "Llama 3 8B", "llama",
    "runpod", "RunPod (Secure Cloud)", "RunPod", "Secure Cloud",  # a provider and its parenthetical
    "aws", "Amazon Web Services (AWS)", "Amazon Web Services", "AWS", "Amazon",
    "tencent", "Tencent Cloud", "腾讯云",
    "p4d.24xlarge", "aws/p4d.24xlarge", "1x_H100-SXM_SECURE", "runpod/1x_H100-SXM_SECURE",  # instance ids
    "us-east-1", "US",  # regions
    "do", "is",  # names that are English function words: never used
]


@pytest.fixture(scope="module")
def counter() -> LatinWordCounter:
    return LatinWordCounter(NAMES, load_terms())


CASES = [
    # (text, leftover words) — one comment per row
    ("推荐 1× A100-80GB，每卡约 36.4 GiB。", []),  # a GPU key and a unit
    ("推荐 1× A100 80GB（NVIDIA A100 SXM4 80GB）。", []),  # alias and full name
    ("rtx4090 和 RTX-4090 与 rtx 4090 一样", []),  # separators and case written any way
    ("Qwen2.5-7B 和 Llama-3-8B 用 LoRA/QLoRA 微调", []),  # model names, two terms joined by '/'
    ("用 ZeRO-3 加 FSDP，bf16 混合精度，KV cache 8 GiB", []),  # term + version digit, multi-word term
    ("8x A100，80GB 显存，7B 模型，4k 上下文，20ms 延迟", []),  # number + unit/magnitude suffix
    ("RunPod 的 1x_H100-SXM_SECURE，AWS 的 p4d.24xlarge，us-east-1", []),  # provider, instance ids, region
    ("腾讯云和 Amazon Web Services (AWS)", []),  # Chinese provider name; name with parenthetical
    ("within budget，thin host", ["within", "budget", "thin", "host"]),  # English prose is counted
    ("按 on-demand 计费", ["on-demand"]),  # a hyphen compound is one word
    ("on-demand/spot 都可以", ["on-demand", "spot"]),  # '/' splits into parts
    ("费用 $2.99/h，按 hour 计", ["hour"]),  # a lone letter is a symbol; the English word "hour" is counted
    ("HF gradient_checkpointing=True", ["gradient_checkpointing", "True"]),  # bare identifiers count
    ("HF `gradient_checkpointing=True`", []),  # ... in a code span they do not
    ("```bash\ngpu-advisor vram --model llama-13b\n```\n见上", []),  # fenced code removed
    ("详见 https://github.com/hiyouga/LLaMA-Factory 和 www.example.com/a-b", []),  # URLs removed
    ("来源 huggingface.co/datasets/brian8808/gpu-price-index（市场样本）", []),  # ... also without a scheme
    ("用 llama.cpp 跑", []),  # a dotted term with no path is not taken for a URL, and it is a term
    ("| 选项 | GPU | 月费 |\n|---|---|---|\n| AWS p4d.24xlarge | 8× A100 | ¥113,000 |", []),  # table syntax
    ("**推荐：** <b>A100</b>&nbsp;", []),  # Markdown and HTML markup
    ("A100s 很多", ["A100s"]),  # a name never matches inside a longer token
    ("US 区域；us 不是名字", ["us"]),  # a short name matches only as the catalog writes it or in capitals
    ("do this", ["do", "this"]),  # a function word is never a name, though DigitalOcean's key is "do"
    ("It is the default", ["It", "is", "the", "default"]),
    ("e.g. 一个例子", ["e.g"]),  # abbreviation counted once, trailing dot stripped
    ("FLOPs ≈ 6 × N × D = 8.09e+22", []),  # single letters are symbols; scientific notation is a number
    ("用 nvidia-smi 看 VRAM 占用", []),  # a tool name and an acronym from the term list
    ("全中文的回答，没有拉丁字母。", []),
    ("", []),
]


@pytest.mark.parametrize("text, words", CASES)
def test_leftover_words(counter, text, words):
    assert counter.leftover(text) == words
    assert counter.count(text) == len(words)


# ------------------------------------------------------------------ the committed term list


def test_terms_file_is_clean():
    terms = load_terms()
    assert len(terms) >= 100, len(terms)
    dup = [t for t, n in Counter(t.lower() for t in terms).items() if n > 1]
    assert not dup, f"terms listed twice (matching ignores case): {dup}"
    assert not [t for t in terms if t.lower() in FUNCTION_WORDS], "an English function word is not a term"
    # a term is never an English prose word that a Chinese answer should translate
    prose = {"on-demand", "spot", "budget", "within", "fits", "weights", "monthly", "hourly", "price", "memory"}
    assert not prose & {t.lower() for t in terms}
    header = TERMS_PATH.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert "What belongs here" in header and "What does not belong" in header


@pytest.mark.parametrize("term", ["LoRA", "QLoRA", "NVLink", "InfiniBand", "vLLM", "bf16", "fp16", "FP8", "KV cache",
                                  "ZeRO-3", "FSDP", "GiB", "GB", "TFLOPS", "MFU", "GPU", "CPU", "CUDA"])
def test_brief_terms_are_listed(counter, term):
    # the established terms issue 10 names must stay in Latin script without counting
    assert counter.leftover(f"用 {term} 即可") == []


# ------------------------------------------------------------------ names read from the catalog


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog

    return load_catalog()


def test_catalog_names_cover_every_kind(catalog):
    names = set(catalog_names(catalog))
    gpu, model, provider, inst = (next(iter(catalog.gpus.values())), next(iter(catalog.models.values())),
                                  next(iter(catalog.providers.values())), catalog.instances[0])
    assert {gpu.key, gpu.name, *gpu.aliases} <= names
    assert {model.key, model.name, *model.aliases} <= names
    assert {provider.key, provider.name} <= names
    assert {inst.instance, f"{inst.provider}/{inst.instance}"} <= names
    assert "us-east-1" in names and "阿里云" in names


def test_catalog_names_leave_prose_words_out(catalog):
    # region names "default"/"overseas"/"unspecified" and parentheticals "(base)", "(uncased)" are words, not names
    counter = counter_for(catalog)
    text = "the default base model, overseas, unspecified, uncased"
    assert counter.leftover(text) == ["the", "default", "base", "model", "overseas", "unspecified", "uncased"]


def test_real_answer_with_catalog(catalog):
    counter = counter_for(catalog)
    text = ("**能。** Qwen2.5 14B（全参数微调）在 8× A800-80GB（ZeRO-3 分片）上每卡需要约 **36.4 GiB**。"
            "推荐 RunPod 1x_H100-SXM_SECURE 或阿里云 gn7i；Llama-3.1-8B-Instruct 也可。")
    assert counter.leftover(text) == []
    assert counter.leftover("GeForce 消费卡、Tesla 系列、Instinct 系列、Vast.ai 平台") == []  # brand words of GPU aliases
    assert counter_for(catalog) is counter  # built once per catalog
