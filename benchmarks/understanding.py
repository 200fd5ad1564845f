"""How well the reading layer understands real questions: frames, slots, routing, state — training data and live held-out apart.

    .venv/bin/python benchmarks/understanding.py > benchmarks/understanding.md

The corpus registry (`assistant/evaluation/splits.py`) says which files are which:

* **dev CV** over the training corpus — the dev files and, from session 9 on, the retired held-out splits (1-6; 7-8
  from session 13; 9-12 from session 14; 13-14 from session 15; errata applied): 5-fold cross-validation by conversation — the frame models are retrained without the fold, and the k-NN
  vote never sees the turn's own conversation (leave-one-out);
* **live held-out splits** (written blind, frozen before the changes they test, never in the bank; errata applied):
  the shipped models and bank, trained on the whole training corpus. Scored once, at the end of their session; a
  split whose registry entry names conversations to leave out (`Split.without`, listed by id in the freeze record
  before it was scored) is read in full and without them.

Targets (held-out): frame ≥ 95 %, slot micro-F1 ≥ 95 % and every slot ≥ 90 %, routing ≥ 95 %.
Also timed: reading (slots + cues) and the k-NN step per turn.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from assistant.evaluation.splits import Registry  # noqa: E402
from assistant.evaluation.understanding import Conversation, Scores, evaluate, load_corpus  # noqa: E402
from assistant.understand import Understanding, clean_update  # noqa: E402
from assistant.understand.bank import K, ExampleBank  # noqa: E402
from assistant.understand.features import featurize  # noqa: E402
from assistant.understand.frames import FrameDecider  # noqa: E402
from assistant.understand.model import FrameModel  # noqa: E402
from assistant.understand.state import ConversationState  # noqa: E402

FOLDS = 5


def table(rows: list[list[str]], header: list[str]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def summary(name: str, scores: dict[str, Scores]) -> list[list[str]]:
    out = []
    for lang in ("en", "zh", "all"):
        s = scores[lang]
        out.append([name, lang, str(s.turns), str(s.conversations), f"{s.frame_accuracy:.1%}", f"{s.slots.f1:.1%}",
                    f"{s.routing_accuracy:.1%}", f"{s.state_accuracy:.1%}"])
    return out


def cross_validated_dev(u: Understanding, groups: dict[str, list[Conversation]], bank: ExampleBank) -> dict[str, dict[str, Scores]]:
    """Retrain the frame models without each fold; score the fold with its own models. The folds run over every
    training conversation at once; the scores come per group (dev files, retired splits) and pooled ("all")."""
    dev = [c for convs in groups.values() for c in convs]
    bank = _Remembered(bank.examples, bank.vectors)  # each turn's vote is embedded once, not again in its fold
    rows = []
    for conv in dev:
        state = ConversationState()
        for n, turn in enumerate(conv.turns):
            r = u.read(turn.text)
            knn = bank.distribution(r.text, exclude=conv.id)
            rows.append((conv.id, r, state, turn.frame, knn))
            update = clean_update(r, turn.frame).model_copy(update={"starts_fresh": turn.slots.starts_fresh})
            state = state.advance(update, turn.frame, pasted_slots=r.pasted_slots)
    ids = sorted({c.id for c in dev})
    fold_of = {c: i % FOLDS for i, c in enumerate(ids)}
    x_fast = np.stack([featurize(r[1], r[2], None) for r in rows])
    x_full = np.stack([featurize(r[1], r[2], r[4]) for r in rows])
    y = [r[3] for r in rows]
    merged: dict[str, dict[str, Scores]] = {}
    for fold in range(FOLDS):
        train = np.array([fold_of[r[0]] != fold for r in rows])
        fast = FrameModel.train(x_fast[train], [f for f, t in zip(y, train) if t])
        full = FrameModel.train(x_full[train], [f for f, t in zip(y, train) if t])
        fold_u = Understanding.__new__(Understanding)
        fold_u.reader = u.reader
        fold_u.decider = FrameDecider(bank, fast, full)
        for group, convs in groups.items():
            part = evaluate(fold_u, [c for c in convs if fold_of[c.id] == fold], leave_one_out=True, keep_failures=False)
            merged[group] = part if group not in merged else _merge(merged[group], part)
    pooled = {lang: Scores() for lang in ("en", "zh", "all")}
    for group in groups:
        _merge(pooled, merged[group])
    merged["all"] = pooled
    return merged


class _Remembered(ExampleBank):
    """The bank, remembering each (text, excluded conversation)'s vote: the folds replay turns whose vote the
    feature pass already computed (the same E5 query, the same neighbours)."""

    def __init__(self, examples, vectors):
        super().__init__(examples, vectors)
        self._seen: dict[tuple[str, str | None], dict] = {}

    def distribution(self, text: str, *, exclude: str | None = None, k: int = K) -> dict:
        key = (text, exclude)
        if key not in self._seen:
            self._seen[key] = super().distribution(text, exclude=exclude, k=k)
        return self._seen[key]


def _merge(a: dict[str, Scores], b: dict[str, Scores]) -> dict[str, Scores]:
    for lang in a:
        x, y = a[lang], b[lang]
        x.turns += y.turns
        x.frames_right += y.frames_right
        x.conversations += y.conversations
        x.routes_right += y.routes_right
        x.states_right += y.states_right
        x.slots.tp += y.slots.tp
        x.slots.fp += y.slots.fp
        x.slots.fn += y.slots.fn
        for k, v in y.per_slot.items():
            x.per_slot[k].tp += v.tp
            x.per_slot[k].fp += v.fp
            x.per_slot[k].fn += v.fn
        for k, v in y.confusion.items():
            x.confusion[k] += v
    return a


def per_frame(scores: Scores) -> list[list[str]]:
    totals: dict[str, int] = {}
    right: dict[str, int] = {}
    for (expected, read), n in scores.confusion.items():
        totals[expected] = totals.get(expected, 0) + n
        right[expected] = right.get(expected, 0) + (n if expected == read else 0)
    return [[f, str(totals[f]), f"{right[f] / totals[f]:.1%}"] for f in sorted(totals)]


def load_corpus_dev(registry: Registry) -> list[Conversation]:
    return load_corpus(registry.dev_files())


def timings(u: Understanding, conversations: list[Conversation]) -> tuple[float, float, float]:
    texts = [t.text for c in conversations for t in c.turns][:300]
    read_ms, knn_ms = [], []
    for text in texts:
        t = time.perf_counter()
        r = u.read(text)
        read_ms.append((time.perf_counter() - t) * 1000)
        if u.decider.bank is not None and r.text.strip():
            t = time.perf_counter()
            u.decider.bank.distribution(r.text)
            knn_ms.append((time.perf_counter() - t) * 1000)
    return statistics.median(read_ms), float(np.percentile(read_ms, 95)), statistics.median(knn_ms) if knn_ms else 0.0


# Every scoring of a held-out split, in order (they were never tuned on; changes between runs came from dev failures,
# reviews of the diff, or corpus growth). Kept here so that a regenerated report keeps its record.
HISTORY = """History of held-out scores (never tuned on; every change between runs was made on dev failures, the review of the diff, or corpus growth):
split 1, session 3 — first run frame 88.0 %, slot micro-F1 93.4 %, routing 91.3 %, state 72.1 %; after two frame rules 88.4 / 93.4 / 91.8 / 72.1 %; after the serving-length, per-day and duration reader fixes 88.4 / 93.8 / 91.8 / 73.2 %.
split 1, session 4 — scored four times: after dev batch 1 and the first reader/frame fixes 90.0 / 94.0 / 92.3 / 74.3 %; after two more dev-driven frame rules 90.8 / 94.0 / 93.4 / 74.3 %; at the end (dev batch 2, reader fixes from dev CV, review fixes) 90.4 / 94.8 / 92.9 / 76.5 %; once more after a dev-turn rewording: unchanged.
split 1 had been scored this often while the reader changed, so session 5 had a second split written blind (`heldout2.yaml`: a writer who never saw the reader, the first split, the golden set or the dev files) and frozen before anyone scored it.
session 5 — both splits scored twice, at the end: (1) after dev batches 3 and 4 (+520 conversations), the reader changes driven by dev CV failures and the review mends (commit da715b5): split 2 86.7 / 93.8 / 86.4 / 73.4 %, split 1 93.2 / 94.8 / 96.2 / 76.5 %; (2) after two changes from the newcomer check ("and for 80 users?" after "40 concurrent" keeps the load's kind; "LoRA, or should I drop to QLoRA?" computes LoRA) and a bank rebuild: split 2 unchanged.
split 2 was scored at the end of session 5 and its confusions studied, so session 6 had a third split written blind (`heldout3.yaml`, the same writer's rules as split 2's), frozen (e350430) before the session's reader changes were committed.
session 6 — all three splits scored once, at the end (code of commit 773eaa0), after dev batch 5 (+231 conversations), the bank rebuild and the reader changes driven by dev CV failures, the golden set and the review of the diff (70443e2, 89e7bca, 5b41a39): the table above; split 3's first and only scoring. One earlier run was started before the last reader changes and killed before it printed anything (no figure seen).
split 3 was scored at the end of session 6 and its confusions studied, so session 7 had a fourth split written blind (`heldout4.yaml`, the same rules), frozen by digest (4459fed) before the session's reader changes were committed.
session 7 — all four splits scored once, at the end (code of commit e336150: the dev batch's commit 50cf363, one more dev conversation removed as overlapping split 4 (6203f54), then split 4 placed), after dev batch 6 (+122 conversations); figures: split 4 84.3 / 91.1 / 84.3 / 62.9 %, split 3 84.1 → 86.5 % frame, split 2 86.3 → 87.1 %, split 1 93.6 % unchanged; the speed section ran on a busy machine (helpers running), the bank rebuild, the reader changes driven by dev CV failures (8d231ec) and the owned-hardware slot (51706fb): the table above; split 4's first and only scoring.
split 4 was scored at the end of session 7, so session 8 had two splits written blind at the same time by two writers (`heldout5.yaml`, `heldout6.yaml`), frozen by digest (5d94b48, 87069ad) before the session's reader changes were committed; 17 conversations of split 6 near split 5 (shared source URL or E5 cosine ≥ 0.95) were listed before either was scored, and split 6 is also read without them.
session 8 — all six splits scored once, at the end (code of commit dd369a3), after the reader round (4955ed2: features for a stated setup with a calculator question, the 'normal' and 'method' cue families, the one-GPU spec rule, slot families for ttft_ms, request_rate, retract, hours, lengths, concurrency — from dev CV failures and the spent splits 1-4's confusions), dev batch 7 (+121 conversations) and the bank rebuild: split 5 87.6 / 93.9 / 88.0 / 74.3 %, split 6 87.0 / 93.9 / 86.5 / 73.5 % (without its 17 near split 5: 87.3 / 93.9 / 86.9 / 73.2 %), split 4 84.3 → 87.3 % frame, split 3 86.5 → 87.5 %, split 2 87.1 → 89.3 %, split 1 93.6 → 94.0 %; splits 5 and 6's first and only scoring. The speed section ran on a busy machine (the golden evaluation and helpers running).
session 8, second run at the end (code of a9ca352), after the review's reader mends (3b2dcb8: N x M hours, 随便用 as permission, a price per second, a seen latency, a TTFT target word — from the review of the diff, not from any held-out turn): every figure unchanged but split 5's state 74.3 → 74.6 % (English slots 94.0 → 94.1 %); the speed section again on a busy machine (CI running).
session 9 — splits 1-6 retired into training (the corpus registry, `assistant/evaluation/splits.py`): the k-NN bank and the frame models now learn from them, errata applied, and dev CV covers dev + retired 1-6; their rows above are their readings as held-out splits, at their own scorings, and are no longer printed as held-out. Splits 7 and 8, written blind in session 9, are the live ones.
split 6 was scored at the end of session 8, so session 9 had two splits written blind at the same time by two writers (`heldout7.yaml`, `heldout8.yaml`), frozen by digest (d8253ec) before the session's reader changes (147a11e) were committed; before either was scored, 47 conversations of split 7 whose source post dev or splits 1-6 already cite, and 8 conversations of split 8 near split 7 (shared source URL or E5 cosine ≥ 0.95), were listed by id: split 7 is also read without its 47 (only that reading counts as a measurement), split 8 without its 8.
session 9 — splits 7 and 8 scored once, at the end (code of commit 147a11e, 2026-12-02), after the reader round (time/deadline cue families, 'is this time plausible' cues, host RAM / measured usage / quoted requirements are no available_gib) and the retirement of splits 1-6 into the bank and the frame models (4,514 training turns): split 7 82.0 / 91.5 / 82.8 / 66.1 % (without its 47 whose source earlier corpora cite, the reading that counts: 82.7 / 91.6 / 82.8 / 67.8 %), split 8 87.7 / 90.1 / 87.8 / 56.4 % (without its 8 near split 7: 86.9 / 90.0 / 87.3 / 55.5 %), dev CV 90.1 / 93.9 / 90.3 / 72.1 %; splits 7 and 8's first and only scoring. The speed section ran on a busy machine (a full test suite running).
split 8 was scored at the end of session 9; sessions 10 and 11 committed nothing, so session 12 had two splits written blind at the same time by two writers (`heldout9.yaml`, `heldout10.yaml`), frozen by digest (8ec8907, 14fcfe2) and committed unplaced before the session's reader changes (b9fe282, bbe1b38, tuned on dev and the spent splits 7-8); before either was read or scored, 33 conversations of split 9 and 39 of split 10 near earlier data (a source URL the corpus already cites, or a turn within E5 cosine 0.95 of a dev, split 1-8 or golden turn; for split 10 also a split-9 turn or source) were listed by id (ba6e0e2): each split is also read without its list, and only that reading counts as a measurement.
session 13 — splits 7 and 8 retired into training (registry status "retired"): the bank and the frame models were rebuilt on dev + splits 1-8 (5,034 training turns) and dev CV covers them; their rows above are their readings as held-out splits at the end of session 9. Splits 9 and 10, placed byte-identical in cf34381, are the live ones.
session 13 — splits 9 and 10 scored once, at the end (code of commit cf34381 with this session's uncommitted registry change and bank rebuild: splits 7-8 retired, 9-10 registered live; no reader, frame or planner change after cf34381; 2026-12-03): split 9 without its 33 near earlier data, the reading that counts, 88.3 / 85.0 / 87.2 / 38.3 % (frame / slots / routing / state; in full 91.5 / 89.5 / 88.8 / 53.8 %), split 10 without its 39, the reading that counts, 75.0 / 87.6 / 79.4 / 41.2 % (in full 86.3 / 92.4 / 90.4 / 61.6 %), dev CV (dev + retired 1-8, 5,034 turns) 90.0 / 93.7 / 90.4 / 71.3 %; targets 95 % missed; no erratum; splits 9 and 10's first and only scoring. The speed section ran on a busy shared 2-core machine (other helpers running).
split 10 was scored in session 13, so session 13 had two splits written blind at the same time by two writers (`heldout11.yaml`, `heldout12.yaml`), frozen by digest (8640aae) and committed unplaced before that session's later reader change (8e856e5, tuned on the training corpus and the spent splits 9-10); before either was read or scored, 34 conversations of split 11 and 41 of split 12 near earlier data (a source URL the corpus already cites, or a turn within E5 cosine 0.95 of a dev, split 1-10 or golden turn; for split 11 also a split-12 turn or source) were listed by id (3acc7bb): each split is also read without its list, and only that reading counts as a measurement.
session 14 — splits 9 and 10 retired into training (registry status "retired"): the bank and the frame models were rebuilt on dev + splits 1-10 (5,253 training turns) and dev CV covers them; their rows above are their readings as held-out splits in session 13. Splits 11 and 12, placed byte-identical in 8771c3b, are the live ones.
session 14 — splits 11 and 12 scored once (code of commit cb198d3, whose reader, frame and routing code is that of 8e856e5, with this session's uncommitted registry change and bank rebuild: splits 9-10 retired, 11-12 registered live; 2026-12-03): split 11 without its 34 near earlier data, the reading that counts, 89.5 / 90.0 / 85.4 / 45.8 % (frame / slots / routing / state; in full 91.0 / 92.8 / 87.8 / 56.1 %), split 12 without its 41, the reading that counts, 84.1 / 89.7 / 87.0 / 54.3 % (in full 85.6 / 91.8 / 87.4 / 58.6 %), dev CV (dev + retired 1-10, 5,253 turns) 90.4 / 93.8 / 90.7 / 71.7 %; targets 95 % missed; no erratum; splits 11 and 12's first and only scoring. The speed section ran on a busy shared 2-core machine (other helpers running).
split 12 was scored in session 14, so session 14 had two splits written blind at the same time by two writers (`heldout13.yaml`, `heldout14.yaml`; helpers 118, 119), frozen by digest (b6da2bd) and committed unplaced before that session's reader change (1592372, tuned on the training corpus and the spent splits 11-12); before either was read or scored, 52 conversations of split 13 and 34 of split 14 near earlier data (a source URL the corpus already cites, or a turn within E5 cosine 0.95 of a dev, split 1-12 or golden turn, or of a turn of the other split) were listed by id (b6da2bd): each split is also read without its list, and only that reading counts as a measurement.
session 14 — splits 11 and 12 retired into training (registry status "retired"): the bank and the frame models were rebuilt on dev + splits 1-12 (5,514 training turns) and dev CV covers them; their rows above are their readings as held-out splits earlier in session 14. Splits 13 and 14, placed byte-identical in 795c5d9, are the live ones.
session 14 — splits 13 and 14 scored once (code of commit 795c5d9, whose reader, frame and routing code is that of 1592372, with this session's uncommitted registry change and bank rebuild: splits 11-12 retired, 13-14 registered live; 2026-12-03): split 13 without its 52 near earlier data, the reading that counts, 87.5 / 91.2 / 85.7 / 57.1 % (frame / slots / routing / state; in full 92.3 / 93.4 / 91.7 / 68.5 %), split 14 without its 34, the reading that counts, 77.4 / 91.2 / 78.9 / 60.5 % (in full 83.3 / 90.5 / 83.3 / 54.2 %), dev CV (dev + retired 1-12, 5,514 turns) 90.4 / 93.8 / 90.6 / 71.8 %; targets 95 % missed; no erratum; splits 13 and 14's first and only scoring. The speed section ran on a busy shared 2-core machine (other helpers running).
session 14's second freeze (74b8f1d, made before splits 13 and 14 were placed or scored) had two more splits written blind at the same time by two writers (`heldout15.yaml`, `heldout16.yaml`; helpers 122, 123), frozen by digest and committed unplaced before that session's reader change (1592372, tuned on the training corpus and the spent splits 11-12); before either was read or scored, 32 conversations of split 15 and 47 of split 16 near earlier data (a source URL the corpus already cites, or a turn within E5 cosine 0.95 of a dev, split 1-14 or golden turn, or of a turn of the other split) were listed by id (02e5544): each split is also read without its list, and only that reading counts as a measurement.
session 15 — splits 13 and 14 retired into training (registry status "retired"): the bank and the frame models were rebuilt on dev + splits 1-14 (5,802 training turns) and dev CV covers them; their rows above are their readings as held-out splits in session 14. Splits 15 and 16, placed byte-identical in 816e237, are the live ones.
session 15 — splits 15 and 16 scored once (code of commit 816e237, whose reader, frame and routing code is that of 1592372, with this branch's registry change and bank rebuild of 42ff940: splits 13-14 retired, 15-16 registered live; 2026-12-04): split 15 without its 32 near earlier data, the reading that counts, 88.6 / 90.6 / 89.7 / 51.7 % (frame / slots / routing / state; in full 91.2 / 92.6 / 90.2 / 65.6 %), split 16 without its 47, the reading that counts, 85.1 / 88.4 / 92.5 / 45.0 % (in full 88.6 / 91.1 / 94.3 / 60.9 %), dev CV (dev + retired 1-14, 5,802 turns) 90.2 / 93.7 / 90.4 / 71.4 %; targets 95 % missed; no erratum; splits 15 and 16's first and only scoring. The speed section ran on a busy shared 2-core machine (other helpers running)."""


def _describe(split) -> str:
    text = f"{split.name} (`{split.file}`: {split.note})"
    if split.without is not None:
        text += f", also read {split.without.label} ({len(split.without.ids)} conversations left out: {split.without.why})"
    return text


def main() -> int:
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    registry = Registry()
    retired = registry.retired()
    groups = {"dev": load_corpus_dev(registry),
              "retired " + ", ".join(sp.name.removeprefix("held-out ") for sp in retired): [c for sp in retired for c in registry.load_split(sp)]}
    heldouts = [reading for sp in registry.live() for reading in registry.readings(sp)]
    u = Understanding(load_catalog(Settings.load()))
    bank = u.decider.bank
    cv = cross_validated_dev(u, groups, bank)
    dev_scores = cv["all"]
    if "--dev-only" in sys.argv:  # while tuning: the live held-out splits are scored once, at the end
        heldouts = [(name, conv[:0]) for name, conv in heldouts]
    held = [(name, evaluate(u, conv, leave_one_out=False, keep_failures=False)) for name, conv in heldouts]
    print("# Understanding benchmark\n")
    print("Generated by `benchmarks/understanding.py`. **dev CV**: 5-fold cross-validation by conversation (k-NN")
    print("leave-one-out) over the training corpus of the registry (`assistant/evaluation/splits.py`): the dev files and,")
    print("from session 9 on, the retired held-out splits (1-6 from session 9, 7-8 from session 13, 9-12 from session 14,")
    print("13-14 from session 15; written blind in sessions 2-14, each scored once, 1-12 studied since; errata applied), read per group and pooled. Their")
    print("scorings as held-out splits are kept in the history below. **Live held-out splits** (frozen before the changes they test, never in the bank,")
    print("errata applied): the shipped models and bank, trained on the whole training corpus"
          + (": " + "; ".join(_describe(sp) for sp in registry.live()) + "." if heldouts else "; none registered now."))
    print("Targets on held-out: frame ≥ 95 %, slot micro-F1 ≥ 95 % and every slot ≥ 90 %, routing ≥ 95 %.\n")
    rows = []
    for group in groups:
        rows += summary(f"dev CV: {group}", cv[group])
    rows += summary("dev CV: all", dev_scores)
    for name, scores in held:
        rows += summary(name, scores)
    print(table(rows, ["split", "lang", "turns", "conversations", "frame", "slot micro-F1", "routing", "state"]))
    print("\n## Per-slot F1\n")
    names = sorted(set(dev_scores["all"].per_slot).union(*(set(s["all"].per_slot) for _, s in held)))
    rows = []
    for n in names:
        cells = [n]
        for scores in [dev_scores] + [s for _, s in held]:
            c = scores["all"].per_slot.get(n)
            cells.append(f"{c.f1:.1%} ({c.tp + c.fn})" if c else "—")
        rows.append(cells)
    print(table(rows, ["slot", "dev CV F1 (labelled)"] + [f"{name} F1 (labelled)" for name, _ in held]))
    print("\n## Frame confusions (dev CV, all, expected → read)\n")
    conf = sorted(((k, v) for k, v in dev_scores["all"].confusion.items() if k[0] != k[1]), key=lambda kv: -kv[1])[:15]
    print(table([[f"{a} → {b}", str(v)] for (a, b), v in conf], ["confusion", "turns"]))
    print("\n## Frame accuracy per expected frame (dev CV, all)\n")
    print(table(per_frame(dev_scores["all"]), ["frame", "turns", "read right"]))
    for name, scores in held:
        print(f"\n## Frame confusions ({name}, expected → read)\n")
        conf = sorted(((k, v) for k, v in scores["all"].confusion.items() if k[0] != k[1]), key=lambda kv: -kv[1])[:15]
        print(table([[f"{a} → {b}", str(v)] for (a, b), v in conf], ["confusion", "turns"]) if conf else "none")
    p50, p95, knn = timings(u, groups["dev"])
    print("\n## Speed\n")
    print(table([["read a turn (slots + cues)", f"{p50:.2f} ms", f"{p95:.2f} ms"], ["k-NN vote (E5 query + bank)", f"{knn:.1f} ms", "—"]],
                ["step", "p50", "p95"]))
    print("\n" + HISTORY)
    return 0


if __name__ == "__main__":
    sys.exit(main())
