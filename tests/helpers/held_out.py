"""Reading the held-out freeze record and the digest tables, shared by the round tests (tests/test_*round*.py).

`tests/data/held_out_freezes.md` records each held-out file's sha256 the moment its collector delivered it; the round
tests compare the placed files, and the README tables that quote them, with that record.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
FREEZES = ROOT / "tests" / "data" / "held_out_freezes.md"
_DIGEST_CELL = r"[^|]*\|\s*`([0-9a-f]{64})`\s*\|"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def freeze_digests(pattern: str, session: str | None = None) -> dict[str, str]:
    """name → sha256 from the freeze record's rows whose text matches `pattern` (its first group is the name), within
    the "## Session N" section when `session` names one (a README text's file name recurs across sessions)."""
    text = FREEZES.read_text(encoding="utf-8")
    if session is not None:
        text = text.split(f"## Session {session}", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(pattern + _DIGEST_CELL, text))


def frozen_digest(set_label: str, what: str) -> str:
    """The sha256 recorded for `what` (a file name or path) in the row of the set `set_label` ("VRAM round 8")."""
    row = next(line for line in FREEZES.read_text(encoding="utf-8").splitlines()
               if set_label in line and re.search(rf"[`/(]{re.escape(what)}`", line))
    return re.search(r"`([0-9a-f]{64})`", row).group(1)


def readme_digests(readme: Path) -> dict[str, str]:
    """file → sha256 from a README's digest table (`| `heldoutN_x.yaml` | `<sha256>` |`)."""
    return dict(re.findall(r"\|\s*`(heldout\d*_[^`]+\.yaml)`\s*\|\s*`([0-9a-f]{64})`\s*\|", readme.read_text(encoding="utf-8")))


def load_accuracy_bench(name: str) -> ModuleType:
    """benchmarks/accuracy.py as a module of its own name (its dataclasses look their module up in sys.modules)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "accuracy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
