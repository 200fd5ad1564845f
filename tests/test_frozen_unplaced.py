"""Held-out sets frozen but not yet placed (tests/data/frozen_unplaced/): each file is byte-identical to its row in
tests/data/held_out_freezes.md, every file there has a row, and nothing that tunes or measures reads them — no module,
script or benchmark names the folder and the k-NN bank holds none of their turns. The session that places a set moves
its entry from UNPLACED to the round registries and scores it once.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from assistant.understand.bank import BANK_JSONL
from tests.helpers.held_out import frozen_digest, sha256

ROOT = Path(__file__).resolve().parents[1]
UNPLACED = ROOT / "tests" / "data" / "frozen_unplaced"

# path under UNPLACED → (the freeze record's set label, the name its row gives)
ENTRIES: dict[str, tuple[str, str]] = {
    "session15/u17/heldout17.yaml": ("understanding held-out 17", "heldout17.yaml"),
    "session15/u17/README_heldout17.md": ("understanding held-out 17", "README_heldout17.md"),
    "session15/u18/heldout18.yaml": ("understanding held-out 18", "heldout18.yaml"),
    "session15/u18/README_heldout18.md": ("understanding held-out 18", "README_heldout18.md"),
    "session15/v14/published_memory_heldout_kinds14.yaml": ("VRAM round 14", "published_memory_heldout_kinds14.yaml"),
    "session15/v14/README_round14.md": ("VRAM round 14", "README_round14.md"),
    "session15/s14/heldout14_vllm_pr_20665.yaml": ("serving round 14", "heldout14_vllm_pr_20665.yaml"),
    "session15/s14/heldout14_vllm_issue_12330.yaml": ("serving round 14", "heldout14_vllm_issue_12330.yaml"),
    "session15/s14/heldout14_lmcache_issue_1739.yaml": ("serving round 14", "heldout14_lmcache_issue_1739.yaml"),
    "session15/s14/heldout14_grazdev_vllm_a10g.yaml": ("serving round 14", "heldout14_grazdev_vllm_a10g.yaml"),
    "session15/s14/heldout14_inferencex_issue_870.yaml": ("serving round 14", "heldout14_inferencex_issue_870.yaml"),
    "session15/s14/README_round14.md": ("serving round 14", "README_round14.md"),
}


def test_every_unplaced_file_is_the_one_frozen():
    for path, (label, name) in sorted(ENTRIES.items()):
        assert sha256(UNPLACED / path) == frozen_digest(label, name), f"{path}: a frozen file is never edited"


def test_every_unplaced_file_has_an_entry():
    # the folder is absent (git keeps no empty folders) when nothing waits unplaced
    assert sorted(str(p.relative_to(UNPLACED)) for p in UNPLACED.rglob("*") if p.is_file()) == sorted(ENTRIES)


def test_nothing_that_tunes_or_measures_names_the_folder():
    readers = [p for top in ("assistant", "tools", "knowledge", "benchmarks", "scripts", "ui")
               for p in (ROOT / top).rglob("*.py") if "frozen_unplaced" in p.read_text(encoding="utf-8")]
    assert not readers


def test_the_bank_holds_no_unplaced_conversation():
    """By id: a short follow-up can recur word for word in another writer's split ("and with qlora instead?"), which
    the freeze's near-duplicate list handles; a bank row of an unplaced conversation would be a leak. With no
    understanding set waiting unplaced it holds trivially; placed splits are checked by the live-split bank test
    (tests/test_understanding_corpus.py)."""
    ids = {conv["id"] for path in ENTRIES if path.endswith(".yaml") and "/u" in path
           for conv in yaml.safe_load((UNPLACED / path).read_text(encoding="utf-8"))}
    bank = {json.loads(line)["id"].split("#")[0] for line in BANK_JSONL.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert bank and not ids & bank
