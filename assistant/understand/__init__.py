"""Understanding a user's turn: text -> `SlotUpdate` + frame, and the conversation state it advances.

`Understanding(catalog)` is built once per catalog (it compiles the name
automaton and loads the example bank) and shared; `Understanding.turn(text,
state)` reads one turn and returns the new state with what was read. Nothing
here re-reads earlier turns: the state carries what they said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.understand.bank import ExampleBank
from assistant.understand.conditions import HeldHardware, held_hardware
from assistant.understand.frames import FrameDecider, FrameDecision
from assistant.understand.language import language_of
from assistant.understand.model import FAST_MODEL_PATH, MODEL_PATH, FrameModel
from assistant.understand.names import NameMatcher
from assistant.understand.patterns import bare_k_length
from assistant.understand.reader import HARDWARE_SLOTS, Reader, Reading
from assistant.understand.slots import Frame, SlotUpdate
from assistant.understand.state import ConversationState, Preferences

__all__ = ["clean_update", "ConversationState", "Frame", "Preferences", "SlotUpdate", "TurnReading", "Understanding", "language_of"]

# Frames whose turns state no billing: a question *about* spot is not a request for spot.
_TOPIC_ONLY = {Frame.guidance: ("billing",), Frame.chitchat: (), Frame.out_of_scope: ()}
_FILTER_ONLY = ("features", "min_memory_gb")


@dataclass(frozen=True)
class TurnReading:
    reading: Reading
    decision: FrameDecision
    update: SlotUpdate  # what the turn states, after frame-dependent clean-up and the fresh-start decision
    state: ConversationState  # after this turn
    held: HeldHardware | None = None  # hardware withdrawn only if it falls short: checked first (conditions.py)

    @property
    def frame(self) -> Frame:
        return self.decision.frame


class Understanding:
    def __init__(self, catalog, *, bank: object | None = "default", models: tuple | None = None):

        self.reader = Reader(NameMatcher(catalog))
        if bank == "default":
            self.decider = FrameDecider(ExampleBank.load(), FrameModel.load(FAST_MODEL_PATH), FrameModel.load(MODEL_PATH))
        else:
            self.decider = FrameDecider(bank, *(models or (None, None)))

    def read(self, text: str) -> Reading:
        return self.reader.read(text)

    def turn(self, text: str, state: ConversationState, *, exclude: str | None = None) -> TurnReading:
        reading = self.reader.read(text)
        return self.advance(reading, state, exclude=exclude)

    def advance(self, reading: Reading, state: ConversationState, *, exclude: str | None = None) -> TurnReading:
        decision = self.decider.decide(reading, state, exclude=exclude)
        update = same_family_size(clean_update(reading, decision.frame), state, self.reader.matcher.catalog)
        update = retract_in_force(hardware_in_force(update, state), state)
        update = update.model_copy(update={"starts_fresh": starts_fresh(reading, update, state, decision.frame)})
        update = same_load_kind(update, state)
        update = same_length(update, reading, state)
        held = held_hardware(reading, update, state, self.reader.matcher)
        new_state = state.advance(update, decision.frame, pasted_slots=reading.pasted_slots)
        if reading.display_currency:
            new_state = new_state.with_currency(reading.display_currency)
        return TurnReading(reading, decision, update, new_state, held)


def clean_update(reading: Reading, frame: Frame) -> SlotUpdate:
    """Frame-dependent slot rules: topic words in a guidance question, filter properties outside a filter question."""
    u = reading.update
    drop: dict[str, None] = {}
    for name in _TOPIC_ONLY.get(frame, ()):
        drop[name] = None
    if frame not in (Frame.catalog_filter, Frame.spec, Frame.comparison):
        drop["features"] = None
    if frame != Frame.catalog_filter:
        drop["min_memory_gb"] = None
    elif u.min_memory_gb:
        drop["available_gib"] = None  # "GPUs with at least 48GB" is a floor, not the user's card
    if frame in (Frame.catalog_filter, Frame.spec) and u.precision is not None and not u.model and not u.params:
        drop["precision"] = None  # "which GPUs support FP8", "910B fp16 TFLOPS?" ask for a property, not a precision
    if frame in (Frame.spec, Frame.comparison, Frame.catalog_filter) and u.available_gib and u.gpus:
        drop["available_gib"] = None  # "is the 5090 32GB or 24GB?" asks about the card's memory
    return u.model_copy(update=drop) if drop else u


def same_load_kind(update: SlotUpdate, state: ConversationState) -> SlotUpdate:
    """"and for 80 users?" after "40 concurrent users": the follow-up changes the number of the load in force, so the
    80 are concurrent too (not 80 people of whom a tenth are active)."""
    if update.users and not update.concurrency and state.has("concurrency") and not update.starts_fresh:
        return update.model_copy(update={"concurrency": update.users, "users": None})
    return update


def same_length(update: SlotUpdate, reading: Reading, state: ConversationState) -> SlotUpdate:
    """"and at 8k?", "那 8k 呢", "那改成16k呢" after a context length: an elliptical follow-up whose only figure is a bare
    k-number changes the length in force (a k of context is 1024)."""
    if not reading.elliptical or not state.has("seq_len") or update.seq_len or update.starts_fresh:
        return update
    if any(v is not None for k, v in update.model_dump(exclude_defaults=True).items() if k not in ("retract",)):
        return update  # the turn states something else: the figure is that
    length = bare_k_length(reading.text)
    return update.model_copy(update={"seq_len": length}) if length else update


def hardware_in_force(update: SlotUpdate, state: ConversationState) -> SlotUpdate:
    """"forget my card" withdraws whichever hardware the user had stated (the reader cannot know which): a GPU, its
    count, or the memory they have; with none in force it withdraws the GPU."""
    if not all(name in update.retract for name in HARDWARE_SLOTS):
        return update
    keep = [n for n in update.retract if n not in HARDWARE_SLOTS or state.has(n)]
    if not any(n in keep for n in HARDWARE_SLOTS):
        keep.append("gpus")
    return update.model_copy(update={"retract": keep})


ALWAYS_WITHDRAWN = ("providers",)


def retract_in_force(update: SlotUpdate, state: ConversationState) -> SlotUpdate:
    """A withdrawal names what is in force: "no rush" or "不限厂商" in a question that set no deadline or provider
    withdraws nothing (the state is the same either way; the turn states no `retract`). The hardware slots are
    hardware_in_force's (a "forget my card" with none in force still withdraws the GPU). "不限厂商" / "any provider is
    fine" is the README's `retract: [providers]` even when no provider was stated (session 8): it says the answer may
    name any provider, which a later turn's provider must not narrow silently."""
    keep = [n for n in update.retract if n in HARDWARE_SLOTS or n in ALWAYS_WITHDRAWN or state.has(n)]
    return update if keep == list(update.retract) else update.model_copy(update={"retract": keep})


def same_family_size(update: SlotUpdate, state: ConversationState, catalog) -> SlotUpdate:
    """"and 14B?" after Qwen2.5-7B is Qwen2.5-14B: a bare size after a catalog model names its sibling of that size,
    when the catalog has one (else the size stays a size)."""
    current = state.get("model")
    if not update.params or update.model or update.model_name or not current or current not in catalog.models:
        return update
    family = catalog.models[current].family
    for m in catalog.models.values():
        # the size in its name ("qwen2.5-14b" for "14B", whose count is 14.7e9), else its count within 10 %
        named = _size_in_name(m.key)
        if m.family == family and (named == update.params if named else abs(m.params / update.params - 1) <= 0.1):
            if m.key == current:
                return update.model_copy(update={"params": None})  # the size restated: nothing new
            return update.model_copy(update={"model": m.key, "params": None})
    return update


_SIZE_IN_NAME = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])")


def _size_in_name(key: str) -> float | None:
    m = _SIZE_IN_NAME.search(key)
    return float(m.group(1)) * 1e9 if m else None


def starts_fresh(reading: Reading, update: SlotUpdate, state: ConversationState, frame: Frame) -> bool:
    """A new self-contained question about another model: a different model (or size) and a full question."""
    if state.turn == 0:
        return False
    if reading.topic_switch:
        return True
    if reading.elliptical:
        return False
    new_model = update.model or update.model_name or (update.params if not update.model else None)
    if not new_model:
        return False
    old = state.get("model") or state.get("model_name") or state.get("params")
    if old is None or old == new_model:
        return False
    return reading.task_words and frame not in (Frame.chitchat, Frame.out_of_scope)
