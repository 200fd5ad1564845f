"""The understanding corpus: labels validate, the held-out split is frozen and never in the k-NN bank, the bank is current."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
import yaml

from assistant.evaluation.understanding import load_corpus
from assistant.understand.bank import BANK_JSONL
from assistant.understand.model import MODEL_PATH, FrameModel

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "understanding"
MARKETPLACES = {"autodl", "gpushare", "matpool", "suanjiayun", "chenjianyun", "compshare", "gongjiyun", "aladdinedu", "baidu", "volcengine"}
CONTROL = ("retract", "starts_fresh", "pasted", "pasted_instruction")


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


HELDOUT_FILES = [DATA / "heldout.yaml", DATA / "heldout2.yaml", DATA / "heldout3.yaml", DATA / "heldout4.yaml",
                 DATA / "heldout5.yaml", DATA / "heldout6.yaml"]


def _all_conversations():
    return load_corpus(sorted((DATA / "dev").glob("*.yaml"))) + load_corpus(HELDOUT_FILES)


@pytest.mark.parametrize("name, pattern", [
    ("heldout.yaml", r"sha256 at that commit:\s*`([0-9a-f]{64})`"),
    ("heldout2.yaml", r"`heldout2\.yaml`, the second held-out split.*?sha256: `([0-9a-f]{64})`"),
    ("heldout3.yaml", r"sha256 of the third held-out split: `([0-9a-f]{64})`"),
    ("heldout4.yaml", r"sha256 of the fourth held-out split: `([0-9a-f]{64})`"),
    ("heldout5.yaml", r"sha256 of the fifth held-out split: `([0-9a-f]{64})`"),
    ("heldout6.yaml", r"sha256 of the sixth held-out split: `([0-9a-f]{64})`"),
])
def test_heldout_is_frozen_as_recorded(name, pattern):
    recorded = re.search(pattern, (DATA / "README.md").read_text(encoding="utf-8"), re.S)
    assert recorded, f"the README must record {name}'s sha256"
    actual = hashlib.sha256((DATA / name).read_bytes()).hexdigest()
    assert actual == recorded.group(1), f"{name} changed after it was frozen: corrections go to errata.yaml"


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


def test_heldout_never_in_the_bank():
    held = {t.text[:400] for c in load_corpus(HELDOUT_FILES) for t in c.turns}
    assert len(held) > 400  # both splits were read
    bank = [json.loads(line) for line in BANK_JSONL.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert not any(row["id"].startswith(("ho-", "ho2-")) for row in bank)
    # short stock phrases ("thanks!", "在吗") occur in both by nature; a copied question is longer
    leaked = [row["text"][:60] for row in bank if len(row["text"]) >= 20 and any(row["text"][:200] in h for h in held)]
    assert not leaked, leaked


def test_bank_and_models_are_current():
    sys.path.insert(0, str(ROOT / "scripts"))
    from build_frame_bank import DEV, corpus_hash

    model = FrameModel.load(MODEL_PATH)
    assert model is not None, "no frame model: run scripts/build_frame_bank.py"
    assert model.corpus_hash == corpus_hash(sorted(DEV.glob("*.yaml"))), "the dev corpus changed: run scripts/build_frame_bank.py"


def test_errata_entries_name_heldout_turns():
    path = DATA / "errata.yaml"
    if not path.exists():
        return
    ids = {f"{c.id}#{n}" for c in load_corpus(HELDOUT_FILES) for n in range(len(c.turns))}
    ids |= {c.id for c in load_corpus(HELDOUT_FILES)}
    for fix in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
        assert fix["id"] in ids and fix.get("reason"), fix
