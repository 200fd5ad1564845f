"""The near-earlier list of a newly frozen understanding split: ids and cosines only, computed by the lead before anyone
but its writer reads the file (tests/data/held_out_freezes.md records each list; only the reading without it counts).

A conversation is listed when one of its turns is within multilingual-E5 cosine 0.95 of an earlier turn (dev, every
placed split, the golden set, and any extra file, e.g. a split written at the same time) or its source URL is already
cited by one of those files.

    .venv/bin/python scripts/near_earlier.py NEW.yaml "held-out 12" [EXTRA_EARLIER.yaml ...]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import yaml  # noqa: E402

from assistant.understand.bank import embed  # noqa: E402

NEAR = 0.95  # the cosine the freeze record uses since session 12
TEXT_CHARS = 400  # as the k-NN bank embeds a turn
CORPUS = ROOT / "tests" / "data" / "understanding"
GOLDEN = ROOT / "assistant" / "evaluation" / "golden"


def earlier_turns(extra: list[Path]) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    """(file, id, text) of every earlier turn, and each cited source URL with where it is first cited."""
    turns: list[tuple[str, str, str]] = []
    sources: dict[str, str] = {}
    for path in sorted((CORPUS / "dev").glob("*.yaml")) + sorted(CORPUS.glob("heldout*.yaml")) + extra:
        for conv in yaml.safe_load(path.read_text(encoding="utf-8")):
            source = (conv.get("source") or "").strip()
            if source and source != "written":
                sources.setdefault(source, f"{path.name}:{conv['id']}")
            turns.extend((path.name, conv["id"], turn["text"]) for turn in conv["turns"])
    for path in sorted(GOLDEN.glob("*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            turns.extend(("golden", item["id"], text) for text in item.get("turns", []))
    return turns, sources


def unit_vectors(texts: list[str]) -> np.ndarray:
    vectors = embed([t[:TEXT_CHARS] for t in texts]).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def near_earlier(new: list[dict], turns: list[tuple[str, str, str]], sources: dict[str, str]) -> list[str]:
    earlier = unit_vectors([text for _, _, text in turns])
    listed = []
    for conv in new:
        why = []
        source = (conv.get("source") or "").strip()
        if source in sources:
            why.append("source already cited")
        for row in unit_vectors([turn["text"] for turn in conv["turns"]]) @ earlier.T:
            why.extend(f"cos {row[j]:.3f} vs {turns[j][0]}:{turns[j][1]}" for j in np.where(row >= NEAR)[0][:3])
        if why:
            listed.append(f"{conv['id']} ({'; '.join(dict.fromkeys(why))})")
    return listed


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    new_path, label, extra = Path(argv[0]), argv[1], [Path(p) for p in argv[2:]]
    new = yaml.safe_load(new_path.read_text(encoding="utf-8"))
    listed = near_earlier(new, *earlier_turns(extra))
    print(f"- {label}, {len(listed)} of {len(new)} conversations: " + "; ".join(listed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
