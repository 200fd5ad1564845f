"""What a frame handler knows about the turn: the state, the frame, the language, what to say first.

Built once per turn by the Advisor from the understanding layer's `TurnReading`
and carried to the offline brain inside the turn's message (JSON), so the brain
never re-reads the conversation. Handlers read slots through the typed
accessors here.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from assistant.understand.slots import Frame
from tools.notes import Note

CONTEXT_KEY = "gpu_advisor_turn"


class TurnContext(BaseModel):
    frame: Frame
    slots: dict[str, Any] = Field(default_factory=dict, description="the conversation state's slot values")
    sources: dict[str, str] = Field(default_factory=dict, description="slot -> user | pasted | settings")
    lang: str = "en"
    currency: str | None = Field(default=None, description="answer currency from the settings; None: from the question")
    question: str = Field(default="", description="the user's own words this turn (hidden content and pasted text removed)")
    notices: list[Note] = Field(default_factory=list, description="said first: ignored pasted instructions, cut text, bad numbers")
    problems: list[Note] = Field(default_factory=list, description="input the calculators cannot take (answered instead of computing)")
    unknown_model: str | None = None
    workload_params: float | None = Field(default=None, description="the workload's total parameters (catalog model or stated)")
    workload_kind: str | None = Field(default=None, description="the catalog model's kind (tools.domain.ModelKind value); None: not known")
    unknown_gpu: str | None = None
    model_suggestions: list[str] = Field(default_factory=list)
    family_members: list[str] = Field(default_factory=list, description="catalog keys of the family named without a version, smallest first")
    family_names: list[str] = Field(default_factory=list, description="their display names, in the same order")
    gpu_suggestions: list[str] = Field(default_factory=list)
    training: bool = Field(default=False, description="the turn speaks of training (train, fine-tune, 微调 …)")
    cues: list[str] = Field(default_factory=list, description="cue families in the turn (a second question: 'what is X?')")
    confidence: float = 1.0
    turn: int = 1
    stated: list[str] = Field(default_factory=list, description="slots stated in this turn (the rest came from earlier turns)")
    held: dict[str, Any] = Field(default_factory=dict, description="hardware withdrawn only if it falls short "
                                 "('if the A10G can't fit it, drop the GPU'): gpus / gpu_count / available_gib, checked first")

    def get(self, name: str, default: Any = None) -> Any:
        value = self.slots.get(name)
        return default if value is None else value

    def has(self, name: str) -> bool:
        return self.slots.get(name) is not None

    @property
    def gpus(self) -> list[str]:
        return list(self.slots.get("gpus") or [])

    @property
    def gpu(self) -> str | None:
        gpus = self.gpus
        return gpus[0] if gpus else None

    @property
    def mode(self) -> str | None:
        return self.slots.get("mode")

    @property
    def budget(self) -> dict[str, Any] | None:
        return self.slots.get("budget")

    @property
    def has_workload(self) -> bool:
        return self.has("model") or self.has("params")

    def answer_currency(self) -> str:
        """Settings > the budget's currency > CNY for mainland China or a Chinese question > USD."""
        if self.currency:
            return self.currency
        budget = self.budget or {}
        if budget.get("currency"):
            return budget["currency"]
        if self.get("region") == "cn" or self.lang == "zh":
            return "CNY"
        return "USD"
