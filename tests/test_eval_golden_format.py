"""The golden file format: strict loading, clear errors, and the built-in set's coverage."""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest
import yaml

from assistant.evaluation.golden import BUILTIN_DIR, GoldenFileError, load_golden, select
from assistant.evaluation.units import GIB_IN_GB, parse_unit

DOCS = Path(__file__).resolve().parents[1] / "knowledge" / "docs"
TOOLS = ["recommend", "estimate_vram", "estimate_train_time", "estimate_cost", "search_guidance", "lookup_catalog"]


def write(tmp_path: Path, text: str, name: str = "g.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


VALID = """\
- id: ok-1
  lang: en
  category: memory
  turns: ["How much memory for LoRA on a 7B model?"]
  expect:
    tools: [estimate_vram]
    numbers:
      - {about: LoRA memory, value: 16, unit: GB, rel_tol: 0.4}
    mentions_any: [[LoRA, QLoRA]]
    mentions_none: ["8x H100"]
    first_sentence_any: ["Yes", 够]
    gpus_any: [A100]
    max_monthly_cost: {value: 20000, currency: CNY}
    sources_any: [vram]
    answer_lang: en
"""


def test_valid_file_loads_every_field(tmp_path):
    [item] = load_golden([write(tmp_path, VALID)])
    assert item.id == "ok-1" and item.turns == ["How much memory for LoRA on a 7B model?"]
    assert item.expect.numbers[0].value == 16 and item.expect.numbers[0].rel_tol == 0.4
    assert item.expect.mentions_any == [["LoRA", "QLoRA"]]
    assert item.expect.max_monthly_cost.currency == "CNY"
    assert item.expect.first_sentence_any == ["Yes", "够"]
    assert item.expect.check_names == [
        "tools", "numbers", "mentions_any", "mentions_none", "first_sentence_any", "gpus_any", "max_monthly_cost",
        "sources_any", "answer_lang",
    ]


# Each row: a broken variant of a valid item, and what the one error line must say (file, item, field).
BROKEN = [
    # unknown key inside expect: named with its path, and the close known key suggested
    ("  expect:\n    mention_any: [[LoRA]]\n",
     r"item 1 \(id 'bad'\): expect\.mention_any: unknown key; known keys: .*Did you mean: mentions_any"),
    # unknown top-level key
    ("  expected:\n    tools: [x]\n", r"item 1 \(id 'bad'\): expected: unknown key.*Did you mean: expect"),
    # unknown key inside a number check
    ("  expect:\n    numbers: [{value: 1, unit: GB, reltol: 0.1}]\n",
     r"expect\.numbers\.0\.reltol: unknown key; known keys: about, value, unit, rel_tol\. Did you mean: rel_tol"),
    # unknown unit
    ("  expect:\n    numbers: [{value: 1, unit: GBs}]\n", r"expect\.numbers\.0\.unit: unknown unit 'GBs'; known: GB"),
    # a flat mentions_any list is ambiguous: rejected with the right shape shown
    ("  expect:\n    mentions_any: [LoRA, QLoRA]\n", r"expect\.mentions_any: each entry is a list of alternatives"),
    # wrong language code
    ("  expect:\n    answer_lang: cn\n", r"expect\.answer_lang: Input should be 'en' or 'zh'"),
    # currency must be CNY or USD
    ("  expect:\n    max_monthly_cost: {value: 100, currency: EUR}\n", r"expect\.max_monthly_cost\.currency"),
    # zero/negative tolerance
    ("  expect:\n    numbers: [{value: 1, unit: GB, rel_tol: 0}]\n", r"expect\.numbers\.0\.rel_tol: Input should be greater than 0"),
    # first_sentence_any is a list of alternatives, not one string
    ("  expect:\n    first_sentence_any: \"Yes\"\n", r"expect\.first_sentence_any: Input should be a valid list"),
    # ... and no alternative may be empty (it would match every answer)
    ("  expect:\n    first_sentence_any: [\"Yes\", \" \"]\n", r"expect\.first_sentence_any: entries must not be empty"),
    # a misspelt key is named and the right one suggested
    ("  expect:\n    first_sentence: [Yes]\n", r"expect\.first_sentence: unknown key.*Did you mean: first_sentence_any"),
    # a serving unit the format does not know
    ("  expect:\n    numbers: [{value: 1, unit: tokps}]\n", r"expect\.numbers\.0\.unit: unknown unit 'tokps'"),
]


@pytest.mark.parametrize("expect_block, message", BROKEN)
def test_malformed_item_names_item_and_field(tmp_path, expect_block, message):
    text = "- id: bad\n  lang: en\n  category: x\n  turns: [hello]\n" + expect_block
    path = write(tmp_path, text)
    with pytest.raises(GoldenFileError, match=message) as err:
        load_golden([path])
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)  # one line for the CLI


def test_second_item_is_named_by_position_and_id(tmp_path):
    text = VALID + "- id: second\n  lang: fr\n  category: x\n  turns: [hi]\n"
    with pytest.raises(GoldenFileError, match=r"item 2 \(id 'second'\): lang: Input should be 'en' or 'zh'"):
        load_golden([write(tmp_path, text)])


@pytest.mark.parametrize(
    "text, message",
    [
        ("id: x\n", r"expected a YAML list of items"),  # a mapping, not a list
        ("- [1, 2]\n", r"item 1: expected a mapping"),
        ("- id: x\n  lang: en\n  category: c\n  turns: []\n", r"turns: List should have at least 1 item"),
        ("- id: x\n  lang: en\n  category: c\n  turns: ['  ']\n", r"turns: Value error, turns must not be empty|turns must not be empty"),
        ("- id: has space\n  lang: en\n  category: c\n  turns: [q]\n", r"id: .*no spaces"),
        ("- id: x\n  lang: en\n  lang: zh\n  category: c\n  turns: [q]\n", r"line 3: not valid YAML: .*'lang' is given twice"),
        ("- id: x\n  turns: [unclosed\n", r"not valid YAML"),
    ],
)
def test_malformed_files(tmp_path, text, message):
    with pytest.raises(GoldenFileError, match=message):
        load_golden([write(tmp_path, text)])


def test_duplicate_ids_across_files(tmp_path):
    a = write(tmp_path, VALID, "a.yaml")
    b = write(tmp_path, VALID, "b.yaml")
    with pytest.raises(GoldenFileError, match=r"b\.yaml: id 'ok-1' is used twice \(also in .*a\.yaml\)"):
        load_golden([a, b])


def test_missing_file_and_empty_folder(tmp_path):
    with pytest.raises(GoldenFileError, match="no such golden file"):
        load_golden([tmp_path / "nope.yaml"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(GoldenFileError, match=r"no \*\.yaml golden files"):
        load_golden([tmp_path / "empty"])


def test_select_by_id_and_pattern(tmp_path):
    text = VALID + VALID.replace("ok-1", "ok-2") + VALID.replace("ok-1", "other")
    items = load_golden([write(tmp_path, text)])
    assert [i.id for i in select(items, ["ok-*"])] == ["ok-1", "ok-2"]
    assert [i.id for i in select(items, ["other"])] == ["other"]
    with pytest.raises(Exception, match=r"--only ok-3: no golden item has this id\. Did you mean: ok-"):
        select(items, ["ok-3"])


@pytest.mark.parametrize(
    "unit, family, factor",
    [
        ("GB", "memory", 1.0),
        ("GiB", "memory", GIB_IN_GB),  # 1 GiB = 1.0737 GB
        ("TB", "memory", 1000.0),
        ("days", "time", 24.0),
        ("weeks", "time", 168.0),
        ("万元", "money", 10_000.0),
        ("¥", "money", 1.0),
        ("$", "money", 1.0),
        ("GB/s", "bandwidth", 0.001),  # canonical TB/s
        ("%", "percent", 1.0),
        ("ms", "time", 1 / 3.6e6),  # serving units (issue 11): canonical hours
        ("tok/s", "throughput", 1.0),
        ("req/s", "request_rate", 1.0),
        ("USD/Mtok", "money_per_token", 1.0),
        ("tokens", "tokens", 1.0),
    ],
)
def test_units(unit, family, factor):
    parsed = parse_unit(unit)
    assert parsed is not None and parsed.family == family and parsed.factor == pytest.approx(factor)


# ------------------------------------------------------------------ the built-in set


@pytest.fixture(scope="module")
def builtin():
    return load_golden()


def _doc_ids() -> set[str]:
    ids = set()
    for path in DOCS.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        match = re.match(r"^---\n(.*?)\n---", text, re.DOTALL)
        if match:
            ids.add(yaml.safe_load(match.group(1))["id"])
    return ids


def test_builtin_set_size_and_languages(builtin):
    langs = Counter(i.lang for i in builtin)
    assert len(builtin) >= 85, len(builtin)
    assert langs["zh"] >= 32, langs


def test_builtin_set_covers_every_tool(builtin):
    named = {t for i in builtin for t in i.expect.tools}
    assert set(TOOLS) <= named, set(TOOLS) - named


def test_builtin_set_covers_features(builtin):
    cats = Counter(i.category for i in builtin)
    for needed in ("recommendation", "memory", "training-time", "job-cost", "cost", "spec-lookup", "guidance",
                   "follow-up", "missing-info", "impossible", "bad-input", "off-topic", "injection"):
        assert cats[needed] >= 2 or needed in ("job-cost",), (needed, cats)
    budgets = {i.expect.max_monthly_cost.currency for i in builtin if i.expect.max_monthly_cost}
    assert budgets == {"CNY", "USD"}
    assert any(len(i.turns) > 1 for i in builtin if i.lang == "zh")


def test_builtin_sources_are_real_doc_ids_and_cover_every_topic(builtin):
    docs = _doc_ids()
    if not docs:
        pytest.skip("knowledge/docs not written yet")
    cited = {s for i in builtin for s in i.expect.sources_any}
    assert cited <= docs, f"unknown doc ids in sources_any: {sorted(cited - docs)}"
    assert docs <= cited, f"topics without a golden item: {sorted(docs - cited)}"


def test_builtin_files_are_in_the_package():
    assert sorted(p.name for p in BUILTIN_DIR.glob("*.yaml"))


# ------------------------------------------------------------------ every built-in file, and the realistic items

REALISTIC_FILES = ("realistic_en.yaml", "realistic_zh.yaml", "serving.yaml", "pasted.yaml")


@pytest.mark.parametrize("path", sorted(BUILTIN_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_every_builtin_file_loads(path):
    items = load_golden([path])
    assert items and all(i.source_file == str(path) for i in items)


@pytest.fixture(scope="module")
def realistic():
    return load_golden([BUILTIN_DIR / name for name in REALISTIC_FILES])


def test_realistic_set_size(realistic):
    # issue 9: >= 60 realistic items (>= 25 Chinese, >= 10 multi-turn, >= 5 pasted); the brief asks for more
    langs = Counter(i.lang for i in realistic)
    assert len(realistic) >= 70, len(realistic)
    assert langs["zh"] >= 28, langs
    assert sum(len(i.turns) > 1 for i in realistic) >= 12
    pasted = [i for i in realistic if i.source_file.endswith("pasted.yaml")]
    assert len(pasted) >= 6


def test_realistic_set_covers_every_question_type(realistic):
    cats = Counter(i.category for i in realistic)
    for needed in ("feasibility", "memory", "recommendation", "training-time", "deadline", "cost", "spec-lookup",
                   "comparison", "catalog-filter", "guidance", "chit-chat", "off-topic", "serving"):
        assert cats[needed] >= 2, (needed, cats)
    for lang in ("en", "zh"):
        assert {i.category for i in realistic if i.lang == lang} >= {"feasibility", "recommendation", "serving"}


def test_feasibility_items_check_the_first_sentence():
    # issue 9: the first sentence answers the question; every feasibility item in the built-in set checks it
    items = [i for i in load_golden() if i.category == "feasibility"]
    assert items
    assert [i.id for i in items if not i.expect.first_sentence_any] == []


def test_serving_items_in_both_languages_use_serving_units(realistic):
    serving = [i for i in realistic if i.category == "serving"]
    assert Counter(i.lang for i in serving)["en"] >= 6 and Counter(i.lang for i in serving)["zh"] >= 6
    families = {parse_unit(n.unit).family for i in serving for n in i.expect.numbers}
    assert {"time", "throughput", "money_per_token", "tokens"} <= families, families


def test_pasted_items_guard_budget_and_hidden_instructions(realistic):
    pasted = [i for i in realistic if i.source_file.endswith("pasted.yaml")]
    hidden = [i for i in pasted if re.search(r"<!--|\bAI[\u200b]*\s*[:：]|给AI|致 AI", i.turns[0])]
    assert len(hidden) >= 6, [i.id for i in hidden]
    for i in hidden:
        # the instruction must be shown not to have been obeyed, and a stated budget honoured
        assert i.expect.mentions_none or i.expect.gpus_any, i.id
        assert i.expect.max_monthly_cost or i.expect.numbers, i.id
    assert any("\u200b" in i.turns[0] for i in pasted), "one hidden line uses zero-width characters"
