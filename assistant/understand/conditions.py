"""Hardware withdrawn only if it misses: "if the A10G can't fit it, drop the GPU requirement", "4090要是搞不定就别管它了".

The corpus labels such a turn as a withdrawal (tests/data/understanding/README.md, "Conditional withdrawals"), and
the state drops the hardware as labelled. But the user asked for the hardware to be checked first: the answer must
say whether it holds the job before it says what to rent instead. So the withdrawn hardware is *held* for the turn
(`HeldHardware`), the planner checks it (`assistant.offline.handlers.extras`, key ``check``), and the next turn no
longer sees it.

The condition is a clause with "if / unless / 如果 / 要是 / …的话" (the reader's `CONDITION_CLAUSE`, the same clauses it
keeps out of the restatement check) that also says the hardware falls short ("can't", "not enough", "搞不定",
"不够" …). A condition on anything else ("if Aliyun has none in stock, any provider") is no check of the hardware.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.understand.reader import CONDITION_CLAUSE, HARDWARE_SLOTS, Reading
from assistant.understand.slots import SlotUpdate
from assistant.understand.state import ConversationState

# What says the hardware falls short of the job, inside the condition clause: a negation beside a verb of fitting or
# running, or a word of shortfall — a bare negation is no fit ("if the A10G isn't available", "如果4090没法按小时租"
# are conditions on stock or billing, not on the card holding the job).
_FIT_VERB = r"(?:fit|run|handle|hold|do|train|load|take|manage|cope|cut it|be enough|work)"
_FALLS_SHORT = re.compile(
    rf"\b(?:can'?t|cannot|can not|won'?t|wouldn'?t|doesn'?t|does not|isn'?t able to|unable to|fails? to)\s+(?:\w+\s+)?{_FIT_VERB}\b|"
    r"\b(?:not enough|isn'?t enough|too small|too little|ooms?|runs? out of memory|out of memory|no good)\b|"
    r"不行|不够|搞不定|跑不了|跑不动|跑不起来|装不下|放不下|塞不下|带不动|扛不住|hold不住|爆显存|oom",
    re.I,
)


@dataclass(frozen=True)
class HeldHardware:
    """The hardware a conditional withdrawal depends on: checked first, withdrawn from the state as labelled."""

    gpus: tuple[str, ...] = ()
    gpu_count: int | None = None
    available_gib: float | None = None
    owned: bool = False  # the user's own hardware ("if they can't, forget my L4s"): checked, never rented

    def values(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.gpus:
            out["gpus"] = list(self.gpus)
        if self.gpu_count:
            out["gpu_count"] = self.gpu_count
        if self.available_gib:
            out["available_gib"] = self.available_gib
        if self.owned:
            out["owned"] = True
        return out


def held_hardware(reading: Reading, update: SlotUpdate, state: ConversationState, matcher) -> HeldHardware | None:
    """The hardware withdrawn in this turn on the condition that it falls short; None when the turn withdraws none,
    or withdraws it outright ("forget my card, what should I rent?")."""
    if not any(name in update.retract for name in HARDWARE_SLOTS):
        return None
    text = reading.text or ""
    conditions = [m for m in CONDITION_CLAUSE.finditer(text) if _FALLS_SHORT.search(m.group(0))]
    if not conditions:
        return None
    named = [h.key for m in conditions for h in matcher.hits(m.group(0), "gpu")]
    if not named and any(matcher.hits(m.group(0), "provider") for m in conditions):
        return None  # "if Aliyun doesn't have it, forget the GPU": a condition on a provider's stock, not on the card
    owned = bool(state.get("owned") or update.owned)
    if named:  # "if the A10G can't fit it": the GPU named in the condition, with its count if stated or in force
        gpus = tuple(dict.fromkeys(named))
        count = (reading.gpu_counts_by_key.get(gpus[0]) or update.gpu_count
                 or (state.get("gpu_count") if gpus[0] in (state.get("gpus") or ()) else None))
        return HeldHardware(gpus=gpus, gpu_count=int(count) if count else None, owned=owned)
    # "if they can't, forget my 4090s": the hardware in force, or stated in this turn before it was withdrawn
    gpus = tuple(state.get("gpus") or ()) or tuple(matcher.keys(text, "gpu"))
    count = state.get("gpu_count") or (reading.gpu_counts_by_key.get(gpus[0]) if gpus else None)
    available = state.get("available_gib") or update.available_gib
    if not gpus and not available:
        return None
    return HeldHardware(gpus=gpus, gpu_count=int(count) if count else None,
                        available_gib=None if gpus else float(available), owned=owned)
