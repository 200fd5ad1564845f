"""The conversation state: what is in force after each turn, advanced by one `SlotUpdate` per turn.

Each slot remembers where its value came from (the user's words, pasted
material, or the settings panel) and when, so the most recently stated value
wins whether it was typed or set. A new self-contained question about another
model starts fresh (settings survive); an elliptical follow-up ("and
Qwen2.5-14B?") keeps everything else. `advance` copies one small dict: the
cost of a turn does not grow with the length of the conversation.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.understand.slots import Frame, SlotUpdate

Source = Literal["user", "pasted", "settings"]
CONTROL_FIELDS = ("retract", "starts_fresh", "pasted", "pasted_instruction")


class SlotValue(BaseModel):
    model_config = ConfigDict(frozen=True)

    value: Any
    source: Source = "user"
    turn: int = 0


class Preferences(BaseModel):
    """What the settings panel (or configuration) chose; `None` = not set."""

    model_config = ConfigDict(extra="forbid")

    currency: Literal["CNY", "USD"] | None = None
    region: Literal["cn", "intl", "any"] | None = None
    billing: Literal["on_demand", "spot", "monthly", "yearly"] | None = None
    lang: Literal["en", "zh"] | None = None


_LOADS = ("concurrency", "users", "requests_per_day", "request_rate")
_REPLACES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("model", ("params", "model_name")),
    ("params", ("model",)),
    ("model_name", ("model",)),
    ("gpus", ("available_gib", "owned")),  # GPUs named without "I have" are not the user's own
    ("available_gib", ("gpus", "gpu_count", "owned")),
    # one serving load at a time: "and for 80 users?" after "40 concurrent users" is the load now
    *((load, tuple(o for o in _LOADS if o != load)) for load in _LOADS),
)


class ConversationState(BaseModel):
    model_config = ConfigDict(frozen=True)

    slots: dict[str, SlotValue] = Field(default_factory=dict)
    frame: Frame | None = None
    turn: int = 0
    currency: SlotValue | None = Field(default=None, description="answer currency chosen in the settings")
    lang: SlotValue | None = Field(default=None, description="answer language chosen in the settings")

    # ------------------------------------------------------------------ reading

    def get(self, name: str, default: Any = None) -> Any:
        v = self.slots.get(name)
        return default if v is None else v.value

    def source(self, name: str) -> Source | None:
        v = self.slots.get(name)
        return None if v is None else v.source

    def has(self, name: str) -> bool:
        return name in self.slots

    def values(self) -> dict[str, Any]:
        """Plain slot values (what the corpus calls the expected state)."""
        out: dict[str, Any] = {}
        for k, v in self.slots.items():
            value = v.value
            if isinstance(value, BaseModel):
                value = value.model_dump(mode="json", exclude_none=True)
            elif isinstance(value, Enum):
                value = value.value
            elif isinstance(value, list):
                value = [x.value if isinstance(x, Enum) else x for x in value]
            out[k] = value
        return out

    # ------------------------------------------------------------------ advancing

    def advance(self, update: SlotUpdate, frame: Frame, *, pasted_slots: set[str] | None = None) -> "ConversationState":
        turn = self.turn + 1
        slots = {} if update.starts_fresh else dict(self.slots)
        if update.starts_fresh:
            slots = {k: v for k, v in self.slots.items() if v.source == "settings"}
        pasted_slots = pasted_slots or set()
        for name in SlotUpdate.model_fields:
            if name in CONTROL_FIELDS:
                continue
            value = getattr(update, name)
            if value is None:
                continue
            slots[name] = SlotValue(value=value, source="pasted" if name in pasted_slots else "user", turn=turn)
        for name in update.retract:
            if getattr(update, name) is None:  # a value stated in the same turn is the new one ("forget my card, use 2 A100s")
                slots.pop(name, None)
        if "gpus" in update.retract and update.gpus is None:
            slots.pop("owned", None)  # "forget my card": what it said about the card goes with it
        # One workload and one piece of hardware at a time: what is named now replaces its alternatives
        # ("a 1.3B model" after Llama-3-70B; "on an A100" after "a 24GB card").
        if update.engine is not None and update.engine != self.get("engine") and update.vllm_version is None:
            slots.pop("vllm_version", None)  # "what about sglang?" after "vllm 0.6.3": the release was vLLM's
        for stated, replaced in _REPLACES:
            if getattr(update, stated) is not None:
                for name in replaced:
                    if getattr(update, name) is None:
                        slots.pop(name, None)
        return self.model_copy(update={"slots": slots, "frame": frame, "turn": turn})

    def with_currency(self, currency: str, source: Source = "user") -> "ConversationState":
        """The currency to answer in, asked for in words ("in CNY?") or set in the panel; the latest wins."""
        return self.model_copy(update={"currency": SlotValue(value=currency, source=source, turn=self.turn)})

    def with_preferences(self, prefs: Preferences) -> "ConversationState":
        """Settings are stated now: they replace older values, and later typed values replace them."""
        slots = dict(self.slots)
        turn = self.turn
        for name in ("region", "billing"):
            value = getattr(prefs, name)
            if value is None:
                continue
            if value == "any" and name == "region":
                slots.pop("region", None) if self.source("region") == "settings" else None
                slots["region"] = SlotValue(value="any", source="settings", turn=turn)
            else:
                slots[name] = SlotValue(value=value, source="settings", turn=turn)
        update: dict[str, Any] = {"slots": slots}
        if prefs.currency is not None:
            update["currency"] = SlotValue(value=prefs.currency, source="settings", turn=turn)
        if prefs.lang is not None:
            update["lang"] = SlotValue(value=prefs.lang, source="settings", turn=turn)
        return self.model_copy(update=update)

    def without_preferences(self, names: tuple[str, ...]) -> "ConversationState":
        """The panel went back to 'auto' for these: drop values that came from the settings."""
        slots = {k: v for k, v in self.slots.items() if not (k in names and v.source == "settings")}
        update: dict[str, Any] = {"slots": slots}
        if "currency" in names:
            update["currency"] = None
        if "lang" in names:
            update["lang"] = None
        return self.model_copy(update=update)
