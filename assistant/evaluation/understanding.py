"""Scoring the reading layer on the understanding corpus: frames, slots, state and routing.

`load_corpus(paths)` validates the YAML files of tests/data/understanding/ into
typed conversations (a label that does not validate is an error naming the id);
`evaluate(understanding, conversations, leave_one_out=True)` replays each
conversation turn by turn through `Understanding.turn` (excluding the
conversation itself from the k-NN bank when `leave_one_out`) and scores:

* frame accuracy per turn;
* slot micro-F1 over every labelled slot of every turn (a wrong value is a false
  positive and a false negative), and F1 per slot; numbers match within 3 %,
  model names without case or separators, lists as sets;
* routing: the first tool for the last turn's frame and state;
* state: the expected state after the last turn, slot by slot.
"""

from __future__ import annotations

import math
from enum import Enum
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assistant.understand.slots import FirstCall, Frame, SlotUpdate

REL_TOL = 0.03
# Slots added after the corpus schema was frozen with its held-out splits: no label carries them, so scoring them
# would count every correct reading as a false positive. The reader's tests check them (tests/test_serving_setup.py).
UNSCORED = ("engine", "vllm_version", "traffic", "owned", "examples", "example_tokens")
IGNORED_IN_STATE = ("retract", "starts_fresh", "pasted", "pasted_instruction", *UNSCORED)


class CorpusTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    frame: Frame
    slots: SlotUpdate = Field(default_factory=SlotUpdate)


def _numeric_slots() -> frozenset[str]:
    """The SlotUpdate fields whose value is a plain number (int or float, optional)."""
    out = set()
    for name, info in SlotUpdate.model_fields.items():
        args = getattr(info.annotation, "__args__", (info.annotation,))
        if args and all(a in (int, float, type(None)) for a in args) and any(a in (int, float) for a in args):
            out.add(name)
    return frozenset(out)


NUMERIC_SLOTS = _numeric_slots()
_NUMBER_TEXT = re.compile(r"^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$")


def numeric_state(state: dict[str, Any]) -> dict[str, Any]:
    """An expected state is a free dict, so YAML's own typing reaches the scorer: PyYAML (YAML 1.1) reads '1.4e+10' as
    a number but '7.0e9' and '7e9', whose exponent has no sign, as strings. A number written as text in a
    numeric slot (`params`, `hours`, `seq_len` …) is read as its number; every other value is left as written."""
    out = {}
    for key, value in state.items():
        if key in NUMERIC_SLOTS and isinstance(value, str) and _NUMBER_TEXT.match(value):
            number = float(value)
            value = int(number) if number.is_integer() and SlotUpdate.model_fields[key].annotation in (int, int | None) else number
        out[key] = value
    return out


class CorpusExpect(BaseModel):
    model_config = ConfigDict(extra="forbid")

    state: dict[str, Any] = Field(default_factory=dict)
    first_call: FirstCall

    @field_validator("state")
    @classmethod
    def _numbers(cls, state: dict[str, Any]) -> dict[str, Any]:
        return numeric_state(state)


class Conversation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    lang: str = Field(pattern="^(en|zh|mixed)$")
    source: str
    note: str | None = None
    turns: list[CorpusTurn] = Field(min_length=1)
    expect: CorpusExpect


class CorpusError(ValueError):
    pass


def load_corpus(paths: Iterable[Path]) -> list[Conversation]:
    out: list[Conversation] = []
    seen: set[str] = set()
    for path in paths:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
        if not isinstance(data, list):
            raise CorpusError(f"{path}: expected a list of conversations")
        for i, raw in enumerate(data):
            try:
                conv = Conversation.model_validate(raw)
            except ValidationError as err:
                ident = raw.get("id") if isinstance(raw, dict) else i
                raise CorpusError(f"{path}: conversation {ident}: {err.errors()[0]['loc']}: {err.errors()[0]['msg']}") from None
            if conv.id in seen:
                raise CorpusError(f"{path}: duplicate id {conv.id}")
            seen.add(conv.id)
            out.append(conv)
    return out


def corpus_files(root: Path, split: str) -> list[Path]:
    if split == "heldout":
        return [root / "heldout.yaml"]
    return sorted((root / "dev").glob("*.yaml"))


# ------------------------------------------------------------------ comparing values


def _compact(s: str) -> str:
    return re.sub(r"[\s\-_./]+", "", str(s).lower())


def same_value(expected: Any, got: Any) -> bool:
    if isinstance(expected, BaseModel):
        expected = expected.model_dump(mode="json", exclude_none=True)
    if isinstance(got, BaseModel):
        got = got.model_dump(mode="json", exclude_none=True)
    if isinstance(expected, Enum):
        expected = expected.value
    if isinstance(got, Enum):
        got = got.value
    if isinstance(expected, bool) or isinstance(got, bool):
        return bool(expected) == bool(got)
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        if expected == got:
            return True
        return math.isclose(float(expected), float(got), rel_tol=REL_TOL)
    if isinstance(expected, dict) and isinstance(got, dict):
        keys = {k for k, v in expected.items() if v is not None} | {k for k, v in got.items() if v is not None}
        return all(same_value(expected.get(k), got.get(k)) for k in keys)
    if isinstance(expected, list) and isinstance(got, list):
        return sorted(map(_compact, expected)) == sorted(map(_compact, got)) if all(isinstance(x, str) for x in expected + got) else expected == got
    if isinstance(expected, str) and isinstance(got, str):
        return _compact(expected) == _compact(got)
    return expected == got


def _labelled(update: SlotUpdate) -> dict[str, Any]:
    return {k: v for k, v in update.model_dump(mode="json", exclude_defaults=True).items() if k not in UNSCORED}


# ------------------------------------------------------------------ scoring


@dataclass
class SlotCounts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def f1(self) -> float:
        denom = 2 * self.tp + self.fp + self.fn
        return 1.0 if denom == 0 else 2 * self.tp / denom


@dataclass
class Scores:
    turns: int = 0
    frames_right: int = 0
    conversations: int = 0
    routes_right: int = 0
    states_right: int = 0
    slots: SlotCounts = field(default_factory=SlotCounts)
    per_slot: dict[str, SlotCounts] = field(default_factory=lambda: defaultdict(SlotCounts))
    confusion: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    failures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def frame_accuracy(self) -> float:
        return self.frames_right / self.turns if self.turns else 1.0

    @property
    def routing_accuracy(self) -> float:
        return self.routes_right / self.conversations if self.conversations else 1.0

    @property
    def state_accuracy(self) -> float:
        return self.states_right / self.conversations if self.conversations else 1.0


def _count(scores: Scores, expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    wrong = []
    for name in set(expected) | set(got):
        e, g = expected.get(name), got.get(name)
        if e is not None and g is not None and same_value(e, g):
            scores.slots.tp += 1
            scores.per_slot[name].tp += 1
            continue
        if g is not None:
            scores.slots.fp += 1
            scores.per_slot[name].fp += 1
        if e is not None:
            scores.slots.fn += 1
            scores.per_slot[name].fn += 1
        wrong.append(name)
    return wrong


def evaluate(understanding, conversations: list[Conversation], *, leave_one_out: bool = True, keep_failures: bool = True) -> dict[str, Scores]:
    """Scores by language ('en', 'zh', 'all'); 'mixed' conversations count as zh."""
    from assistant.offline.routing import first_call
    from assistant.understand.state import ConversationState

    by_lang: dict[str, Scores] = {"en": Scores(), "zh": Scores(), "all": Scores()}
    for conv in conversations:
        lang = "en" if conv.lang == "en" else "zh"
        buckets = (by_lang[lang], by_lang["all"])
        state = ConversationState()
        for n, turn in enumerate(conv.turns):
            tr = understanding.turn(turn.text, state, exclude=conv.id if leave_one_out else None)
            state = tr.state
            got = _labelled(tr.update)
            expected = _labelled(turn.slots)
            for s in buckets:
                s.turns += 1
                s.confusion[(turn.frame.value, tr.frame.value)] += 1
                if tr.frame == turn.frame:
                    s.frames_right += 1
            wrong: list[str] = []
            for s in buckets:
                wrong = _count(s, expected, got)
            if keep_failures and (wrong or tr.frame != turn.frame):
                by_lang["all"].failures.append(
                    {"id": f"{conv.id}#{n}", "text": turn.text[:160], "frame": (turn.frame.value, tr.frame.value, tr.decision.how),
                     "slots": {k: (expected.get(k), got.get(k)) for k in wrong}}
                )
        route = first_call(state.frame, state)
        state_values = {k: v for k, v in state.values().items() if k not in IGNORED_IN_STATE}
        expected_state = {k: v for k, v in conv.expect.state.items() if k not in IGNORED_IN_STATE}
        state_ok = set(state_values) == set(expected_state) and all(same_value(expected_state[k], state_values[k]) for k in expected_state)
        for s in buckets:
            s.conversations += 1
            s.routes_right += route == conv.expect.first_call
            s.states_right += state_ok
        if keep_failures and route != conv.expect.first_call:
            by_lang["all"].failures.append({"id": conv.id, "route": (conv.expect.first_call, route)})
    return by_lang
