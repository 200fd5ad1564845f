"""The understanding corpus: labels validate, the held-out splits are frozen, a live split is never in the k-NN bank
(the retired ones are: they are training data since session 9), the bank is current."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
import yaml

from assistant.evaluation.splits import HELDOUT_SPLITS, Registry, Split, leaked_turns
from assistant.evaluation.understanding import load_corpus
from assistant.understand.bank import BANK_JSONL
from assistant.understand.model import MODEL_PATH, FrameModel
from tests.helpers.held_out import FREEZES, frozen_digest, sha256

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "understanding"
MARKETPLACES = {"autodl", "gpushare", "matpool", "suanjiayun", "chenjianyun", "compshare", "gongjiyun", "aladdinedu", "baidu", "volcengine"}
CONTROL = ("retract", "starts_fresh", "pasted", "pasted_instruction")


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


HELDOUT_FILES = [DATA / s.file for s in HELDOUT_SPLITS]


def _all_conversations():
    return load_corpus(sorted((DATA / "dev").glob("*.yaml"))) + load_corpus(HELDOUT_FILES)


@pytest.mark.parametrize("name, pattern", [
    ("heldout.yaml", r"sha256 at that commit:\s*`([0-9a-f]{64})`"),
    ("heldout2.yaml", r"`heldout2\.yaml`, the second held-out split.*?sha256: `([0-9a-f]{64})`"),
    ("heldout3.yaml", r"sha256 of the third held-out split: `([0-9a-f]{64})`"),
    ("heldout4.yaml", r"sha256 of the fourth held-out split: `([0-9a-f]{64})`"),
    ("heldout5.yaml", r"sha256 of the fifth held-out split: `([0-9a-f]{64})`"),
    ("heldout6.yaml", r"sha256 of the sixth held-out split: `([0-9a-f]{64})`"),
    ("heldout7.yaml", r"sha256 of the seventh held-out split: `([0-9a-f]{64})`"),
    ("heldout8.yaml", r"sha256 of the eighth held-out split: `([0-9a-f]{64})`"),
    ("heldout9.yaml", r"sha256 of the ninth held-out split: `([0-9a-f]{64})`"),
    ("heldout10.yaml", r"sha256 of the tenth held-out split: `([0-9a-f]{64})`"),
    ("heldout11.yaml", r"sha256 of the eleventh held-out split: `([0-9a-f]{64})`"),
    ("heldout12.yaml", r"sha256 of the twelfth held-out split: `([0-9a-f]{64})`"),
    ("heldout13.yaml", r"sha256 of the thirteenth held-out split: `([0-9a-f]{64})`"),
    ("heldout14.yaml", r"sha256 of the fourteenth held-out split: `([0-9a-f]{64})`"),
    ("heldout15.yaml", r"sha256 of the fifteenth held-out split: `([0-9a-f]{64})`"),
    ("heldout16.yaml", r"sha256 of the sixteenth held-out split: `([0-9a-f]{64})`"),
])
def test_heldout_is_frozen_as_recorded(name, pattern):
    recorded = re.search(pattern, (DATA / "README.md").read_text(encoding="utf-8"), re.S)
    assert recorded, f"the README must record {name}'s sha256"
    actual = hashlib.sha256((DATA / name).read_bytes()).hexdigest()
    assert actual == recorded.group(1), f"{name} changed after it was frozen: corrections go to errata.yaml"


@pytest.mark.parametrize("name, label, pattern", [
    # session 9's two blind splits: frozen by digest (d8253ec) before the session's reader changes, placed after them
    ("heldout7.yaml", "understanding held-out 7", r"sha256 of the seventh held-out split: `([0-9a-f]{64})`"),
    ("heldout8.yaml", "understanding held-out 8", r"sha256 of the eighth held-out split: `([0-9a-f]{64})`"),
    # session 12's two blind splits: frozen by digest (8ec8907, 14fcfe2) and committed unplaced, placed in cf34381
    ("heldout9.yaml", "understanding held-out 9", r"sha256 of the ninth held-out split: `([0-9a-f]{64})`"),
    ("heldout10.yaml", "understanding held-out 10", r"sha256 of the tenth held-out split: `([0-9a-f]{64})`"),
    # session 13's two blind splits: frozen by digest (8640aae) and committed unplaced, placed in 8771c3b
    ("heldout11.yaml", "understanding held-out 11", r"sha256 of the eleventh held-out split: `([0-9a-f]{64})`"),
    ("heldout12.yaml", "understanding held-out 12", r"sha256 of the twelfth held-out split: `([0-9a-f]{64})`"),
    # session 14's first two blind splits: frozen by digest (b6da2bd) and committed unplaced, placed in 795c5d9
    ("heldout13.yaml", "understanding held-out 13", r"sha256 of the thirteenth held-out split: `([0-9a-f]{64})`"),
    ("heldout14.yaml", "understanding held-out 14", r"sha256 of the fourteenth held-out split: `([0-9a-f]{64})`"),
    # session 14's second freeze: frozen by digest (74b8f1d) and committed unplaced, placed in 816e237
    ("heldout15.yaml", "understanding held-out 15", r"sha256 of the fifteenth held-out split: `([0-9a-f]{64})`"),
    ("heldout16.yaml", "understanding held-out 16", r"sha256 of the sixteenth held-out split: `([0-9a-f]{64})`"),
])
def test_placed_split_is_the_frozen_file(name, label, pattern):
    frozen = frozen_digest(label, name)
    assert sha256(DATA / name) == frozen, f"{name} is not the file frozen in tests/data/held_out_freezes.md"
    assert re.search(pattern, (DATA / "README.md").read_text(encoding="utf-8")).group(1) == frozen


def _freeze_ids(prefix: str) -> set[str]:
    """Conversation ids the session-9 freeze record lists for one split ("ho7-en-0001, 0002, …; ho7-zh-0001, …")."""
    text = FREEZES.read_text(encoding="utf-8").split("## Session 9", 1)[1].split("\n## ", 1)[0]
    ids = set()
    for head, first, rest in re.findall(rf"({prefix}-(?:en|zh))-(\d{{4}})((?:, \d{{4}})*)", text):
        ids |= {f"{head}-{n}" for n in [first, *re.findall(r"\d{4}", rest)]}
    return ids


@pytest.mark.parametrize("split_name, prefix, count", [
    ("held-out 7", "ho7", 47),  # conversations whose source post dev or splits 1-6 already cite
    ("held-out 8", "ho8", 8),  # conversations near held-out 7 (a shared source URL or E5 cosine >= 0.95)
])
def test_second_reading_drops_the_recorded_ids(split_name, prefix, count):
    # the registry's ids are the ones recorded before scoring, each a conversation of the split, and the second
    # reading drops exactly them (a misspelt id would be kept silently)
    registry = Registry()
    split = next(s for s in registry.splits if s.name == split_name)  # retired in session 13; the lists stay
    assert split.without is not None and split.without.ids == _freeze_ids(prefix)
    assert len(split.without.ids) == count
    (full_name, full), (part_name, part) = registry.readings(split)
    assert split.without.ids <= {c.id for c in full}
    assert (full_name, part_name) == (split_name, f"{split_name} {split.without.label}")
    assert {c.id for c in full} - {c.id for c in part} == split.without.ids


def _near_earlier_list(session: int | str, split: int) -> tuple[int, int | None, list[str]]:
    """The near-earlier list a freeze record gives for a split: its stated count, the split's stated size (session 13
    on: "41 of 87 conversations"; None before) and the ids listed ("- held-out 9, 33 conversations: ho9-en-0011 (cos
    0.960 vs …); ho9-en-0015 (source already cited); …"), not the ids of other splits that an entry cites as its
    neighbours ("vs held-out 9:ho9-en-0029", "vs heldout12.yaml:ho12-en-0012"). `session` is the section's heading
    after "## Session " (14, or "14, second freeze")."""
    text = FREEZES.read_text(encoding="utf-8").split(f"## Session {session} ", 1)[1].split("\n## ", 1)[0]
    line = next(l for l in text.splitlines() if l.startswith(f"- held-out {split}, "))
    head = re.match(rf"- held-out {split}, (\d+)(?: of (\d+))? conversations: ", line)
    total = int(head.group(2)) if head.group(2) else None
    return int(head.group(1)), total, re.findall(rf"(?:: |\); )(ho{split}-[a-z]+-\d{{4}}) \(", line)


@pytest.mark.parametrize("split_name, session, number, count, status", [
    ("held-out 9", 12, 9, 33, "retired"),  # a source the corpus cites, or a turn within E5 cosine 0.95 of dev, splits 1-8 or golden
    ("held-out 10", 12, 10, 39, "retired"),  # the same, and of a held-out-9 turn or source
    ("held-out 11", 13, 11, 34, "retired"),  # the same against dev, splits 1-10 or golden, and of a held-out-12 turn or source
    ("held-out 12", 13, 12, 41, "retired"),  # a source the corpus cites, or a turn within E5 cosine 0.95 of dev, splits 1-10 or golden
    ("held-out 13", 14, 13, 52, "retired"),  # the same against dev, splits 1-12 or golden, and of a held-out-14 turn
    ("held-out 14", 14, 14, 34, "retired"),  # the same against dev, splits 1-12 or golden, and of a held-out-13 turn
    ("held-out 15", "14, second freeze", 15, 32, "live"),  # the same against dev, splits 1-14 or golden, and of a held-out-16 turn
    ("held-out 16", "14, second freeze", 16, 47, "live"),  # the same against dev, splits 1-14 or golden, and of a held-out-15 turn
])
def test_split_is_read_without_its_near_earlier_list(split_name, session, number, count, status):
    # decided before the split was read or scored: only the reading without the list counts. The registry holds
    # exactly the ids the freeze record lists, each a conversation of its split (ho9-mx-*, ho10-mixed-*, ho12-mixed-*,
    # ho13-mixed-*, ho15-mixed-*, ho16-mixed-* included); 9-12 were retired in session 14, 13-14 in session 15, and
    # their lists stay
    registry = Registry()
    split = next(s for s in registry.splits if s.name == split_name)
    assert split.status == status
    stated, total, listed = _near_earlier_list(session, number)
    assert stated == count == len(listed) == len(set(listed))
    assert total is None or total == len(registry.load_split(split))
    assert split.without is not None and split.without.ids == set(listed)
    (full_name, full), (part_name, part) = registry.readings(split)
    assert split.without.ids <= {c.id for c in full}
    assert part_name == f"{split_name} {split.without.label}"
    assert {c.id for c in full} - {c.id for c in part} == split.without.ids


@pytest.mark.parametrize("name, label, heading", [
    ("README_heldout9.md", "understanding held-out 9", "# heldout9.yaml — held-out split 9 (understanding corpus)\n"),
    ("README_heldout10.md", "understanding held-out 10", "# Held-out split 10 (`heldout10.yaml`)\n"),
    ("README_heldout11.md", "understanding held-out 11", "# Held-out split 11 (`heldout11.yaml`)\n"),
    ("README_heldout12.md", "understanding held-out 12", "# Held-out split 12 (`heldout12.yaml`)\n"),
    ("README_heldout13.md", "understanding held-out 13", "# heldout13.yaml — held-out split 13 (understanding corpus)\n"),
    ("README_heldout14.md", "understanding held-out 14", "# heldout14.yaml — held-out split 14 (understanding corpus)\n"),
    ("README_heldout15.md", "understanding held-out 15", "# Held-out split 15 (`heldout15.yaml`)\n"),
    ("README_heldout16.md", "understanding held-out 16", "# Held-out split 16 (`heldout16.yaml`)\n"),
])
def test_a_writers_readme_is_merged_as_delivered(name, label, heading):
    """The writer's README stands in the corpus README byte for byte, from its heading (once) to the marker that
    closes it, after one blank line; its digest is the freeze record's row."""
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    assert readme.count(heading) == 1
    start = readme.index(heading)
    end = readme.index(f"<!-- end of {name} as delivered -->", start)
    text = readme[start:end]
    assert text.endswith("\n\n")
    assert hashlib.sha256(text[:-1].encode("utf-8")).hexdigest() == frozen_digest(label, name)


def test_corpus_size_and_mix():
    dev = load_corpus(sorted((DATA / "dev").glob("*.yaml")))
    held = load_corpus([DATA / "heldout.yaml"])
    turns = [t for c in dev + held for t in c.turns]
    zh = [t for c in dev + held if c.lang != "en" for t in c.turns]
    assert len(turns) >= 600 and len(zh) >= 250
    assert sum(len(c.turns) > 1 for c in dev + held) >= 50
    real = sum(c.source.startswith("http") for c in dev + held)
    assert real >= 0.5 * len(dev + held)
    assert sum(len(c.turns) for c in held) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout2.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout3.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout4.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout5.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout6.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout7.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout8.yaml"])) >= 200
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout9.yaml"])) == 117  # smaller splits, session 12
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout10.yaml"])) == 102
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout11.yaml"])) == 122  # session 13
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout12.yaml"])) == 139
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout13.yaml"])) == 168  # session 14
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout14.yaml"])) == 120
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout15.yaml"])) == 114  # session 14, second freeze
    assert sum(len(c.turns) for c in load_corpus([DATA / "heldout16.yaml"])) == 123


def test_labels_name_catalog_entries(catalog):
    providers = set(catalog.providers) | MARKETPLACES
    for conv in _all_conversations():
        for turn in conv.turns:
            s = turn.slots
            assert s.model is None or s.model in catalog.models, (conv.id, s.model)
            assert all(g in catalog.gpus for g in s.gpus or []), (conv.id, s.gpus)
            assert all(p in providers for p in s.providers or []), (conv.id, s.providers)


def _state(turns) -> dict:
    state: dict = {}
    for t in turns:
        slots = t.slots.model_dump(mode="json", exclude_defaults=True)
        if slots.get("starts_fresh"):
            state = {}
        state.update({k: v for k, v in slots.items() if k not in CONTROL})
        for k in slots.get("retract", []):
            state.pop(k, None)
    return state


def test_expected_states_follow_the_readme_rule():
    from assistant.evaluation.understanding import same_value

    for conv in load_corpus(sorted((DATA / "dev").glob("*.yaml"))):
        expected = {k: v for k, v in conv.expect.state.items() if k not in CONTROL}
        computed = _state(conv.turns)
        assert set(expected) == set(computed) and all(same_value(expected[k], computed[k]) for k in expected), conv.id


def _bank_rows() -> list[dict]:
    return [json.loads(line) for line in BANK_JSONL.read_text(encoding="utf-8").splitlines() if line.strip()]


# Bank rows that are earlier training turns whose short stock text recurs inside a live split's turn, written
# independently by its blind writer (the bank rows predate the split; none is one of its conversations): the text check
# must name exactly these, so that any other match still fails. All but ho10's ho3-en-0034#1 are in their split's
# near-earlier list. 9-12 are retired (session 14), 13-14 (session 15), and no longer checked; their rows stay as the
# record.
STOCK_TEXT_RECURRENCES = {
    "held-out 9": {"dev-en-2064#0"},  # "what can you actually help me with?" in ho9-en-0029 (listed, cos 0.980)
    "held-out 10": {"ho-en-106#1",  # "and with qlora instead?", word for word in ho10-en-0002 (listed, cos 1.000)
                    "ho3-en-0034#1"},  # "what would that cost" (20 characters) inside ho10-en-0003's longer follow-up
    "held-out 11": {"dev-en-3090#1",  # "actually any provider is fine" in ho11-en-0042 (listed, cos 1.000)
                    "ho9-en-0008#1"},  # "and with LoRA instead?" in ho11-en-0003 (listed, cos 1.000; held-out 9 retired)
    "held-out 13": {"dev-en-2064#0",  # "what can you actually help me with?" in ho13-en-0032 (listed, cos 0.980)
                    "ho9-en-0029#0",  # "hey! what can you actually help me with?", word for word in ho13-en-0032 (listed)
                    "dev-en3-0019#1",  # "and with lora instead of full?", word for word in ho13-en-0058 (listed, cos 1.000)
                    "ho3-en-0034#1"},  # "what would that cost" inside ho13-en-0051's "and what would that cost" (listed)
    "held-out 15": {"ho-en-042#0"},  # "does the L40S have NVLink?" inside ho15-en-0025's "cool. does the L40S …" (listed, cos 0.987)
    "held-out 16": {"dev-en-3058#0",  # "hey, what kind of stuff can you help with?", word for word in ho16-en-0021 (listed, cos 1.000)
                    "ho10-zh-0034#0"},  # "帮我写个python爬虫抓一下豆瓣电影top250", word for word in ho16-zh-0038 (listed, cos 1.000)
}


def test_no_live_split_in_the_bank():
    # every split registered live (none between sessions; the lead registers each new blind split) is checked
    registry = Registry()
    rows = _bank_rows()
    for split in registry.live():
        convs = registry.load_split(split)
        assert convs, f"{split.file} holds no conversation"
        ids = {c.id for c in convs}
        assert not [r["id"] for r in rows if r["id"].split("#", 1)[0] in ids], \
            f"{split.name} is in the bank: rebuild after registering it live"
        assert set(leaked_turns(rows, convs)) == STOCK_TEXT_RECURRENCES.get(split.name, set()), \
            f"{split.name}'s text is in the bank"


def test_a_live_split_put_into_the_bank_is_caught(tmp_path):
    # a temporary registry whose live split is held-out 5 (retired, so its turns are in the shipped bank): the same
    # check as above must name them — registering a split live is all it takes for the check to cover it
    (tmp_path / "dev").mkdir()
    five = next(s for s in HELDOUT_SPLITS if s.name == "held-out 5")
    (tmp_path / five.file).write_bytes((DATA / five.file).read_bytes())
    registry = Registry(tmp_path, (Split(five.name, five.file, "live", "a test"),))
    convs = registry.live_conversations()
    leaked = leaked_turns(_bank_rows(), convs)
    assert {f"{c.id}#{n}" for c in convs for n in range(len(c.turns))} <= set(leaked)  # every turn of it, by id
    # and by text alone: a copied question under another id is caught too
    row = {"id": "dev-en-9999#0", "text": convs[0].turns[0].text}
    assert leaked_turns([row], convs) == ["dev-en-9999#0"]
    assert leaked_turns([{"id": "dev-en-9999#0", "text": "thanks!"}], convs) == []  # a stock phrase is no copy


def test_retired_splits_are_training_data():
    registry = Registry()
    # the six splits of sessions 2-8 were scored and studied: session 9 retired them into training; session 13 retired
    # splits 7 and 8 (scored once at the end of session 9, studied in session 12) and registered 9 and 10 live;
    # session 14 retired 9 and 10 (scored once in session 13, studied in its reader round) and registered 11 and 12 live,
    # then retired 11 and 12 (scored once, studied in its reader round, 1592372) and registered 13 and 14 live;
    # session 15 retired 13 and 14 (scored once at the end of session 14) and registered 15 and 16 live
    assert {s.file for s in registry.retired()} >= {f"heldout{n}.yaml"
                                                    for n in ("", 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)}
    assert {s.file for s in registry.live()} == {"heldout15.yaml", "heldout16.yaml"}
    files = registry.training_files()
    assert all(registry.path(s) in files for s in registry.retired())
    assert not any(registry.path(s) in files for s in registry.live())
    ids = {row["id"].split("#", 1)[0] for row in _bank_rows()}
    training = registry.training_conversations()
    assert {c.id for c in training} == ids  # every dev and retired conversation, nothing else
    assert len(training) == len({c.id for c in training})  # ids unique across dev and the retired splits


def test_bank_and_models_are_current():
    sys.path.insert(0, str(ROOT / "scripts"))
    from build_frame_bank import corpus_hash, training_files

    model = FrameModel.load(MODEL_PATH)
    assert model is not None, "no frame model: run scripts/build_frame_bank.py"
    assert model.corpus_hash == corpus_hash(training_files()), "the training corpus changed: run scripts/build_frame_bank.py"


def test_errata_entries_name_heldout_turns():
    path = DATA / "errata.yaml"
    if not path.exists():
        return
    ids = {f"{c.id}#{n}" for c in load_corpus(HELDOUT_FILES) for n in range(len(c.turns))}
    ids |= {c.id for c in load_corpus(HELDOUT_FILES)}
    for fix in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
        assert fix["id"] in ids and fix.get("reason"), fix
