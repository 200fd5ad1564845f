"""One browser (or one API client) session: its Advisor, its panel settings, its last answer.

The settings panel reaches the Advisor the honest way, through the words of
the question: when the user changes currency, region or billing, the next
question gets a short clause such as "(preferences: CNY, China mainland,
spot)" — words the advisor's own fact reader understands, and which later
turns override just as if the user had typed them. The Advisor keeps what was
said for the rest of the conversation, so the clause is sent once per change,
and not for a dimension the question already speaks about (the user's own
words win). The brain is a constructor argument: switching it builds a new
Advisor that keeps the conversation so far.
"""

from __future__ import annotations

import re
import threading
import uuid
from typing import Callable

from pydantic import BaseModel, ConfigDict

from assistant.answer import Answer
from assistant.understanding import BILLING_WORDS, CURRENCY_WORDS, REGION_WORDS, language_of

AUTO = "auto"

# (label shown in the panel, value sent over the API)
CURRENCY_LABELS = [("From the question", AUTO), ("CNY ¥", "CNY"), ("USD $", "USD")]
REGION_LABELS = [("Any region", "any"), ("Mainland China (cn)", "cn"), ("Outside mainland China (intl)", "intl")]
BILLING_LABELS = [("As the advisor sees fit", AUTO), ("On-demand", "on_demand"), ("Spot / preemptible", "spot"),
                  ("Monthly subscription", "monthly"), ("Yearly / reserved", "yearly")]
CURRENCY_CHOICES = [v for _, v in CURRENCY_LABELS]
REGION_CHOICES = [v for _, v in REGION_LABELS]
BILLING_CHOICES = [v for _, v in BILLING_LABELS]

# words the advisor's fact reader maps back to the same value (assistant/understanding.py tables)
CLAUSE_WORDS = {
    "en": {
        "currency": {"CNY": "CNY", "USD": "USD"},
        "region": {"cn": "China mainland", "intl": "international", "any": "any region"},
        "billing": {"on_demand": "on-demand", "spot": "spot", "monthly": "monthly subscription", "yearly": "yearly"},
    },
    "zh": {
        "currency": {"CNY": "人民币", "USD": "美元"},
        "region": {"cn": "国内", "intl": "海外", "any": "不限地区"},
        "billing": {"on_demand": "按量", "spot": "竞价", "monthly": "包月", "yearly": "包年"},
    },
}
DIMENSION_WORDS = {"currency": CURRENCY_WORDS, "region": REGION_WORDS, "billing": BILLING_WORDS}


class Preferences(BaseModel):
    model_config = ConfigDict(extra="forbid")

    brain: str = "offline"
    currency: str = AUTO
    region: str = "any"
    billing: str = AUTO


# What a fresh conversation already "knows": nothing said about currency or billing, any region.
BASELINE = {"currency": AUTO, "region": "any", "billing": AUTO}


def mentions(text: str, dimension: str) -> bool:
    low = text.lower()
    return any(re.search(w, low) for _, words in DIMENSION_WORDS[dimension] for w in words)


def preference_clause(text: str, prefs: Preferences, conveyed: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The clause to append to `text` (may be ''), and the conveyed state after sending it."""
    words = CLAUSE_WORDS[language_of(text)]
    parts, after = [], dict(conveyed)
    for dim in ("currency", "region", "billing"):
        value = getattr(prefs, dim)
        if value == conveyed.get(dim):
            continue
        after[dim] = value
        if value == AUTO or mentions(text, dim):
            continue  # nothing to say, or the question already says it
        parts.append(words[dim][value])
    if not parts:
        return "", after
    if language_of(text) == "zh":
        return "（偏好：" + "，".join(parts) + "）", after
    return " (preferences: " + ", ".join(parts) + ")", after


AdvisorFactory = Callable[[str], object]  # brain spec -> an object with .ask(text) -> Answer, .history, .reset()


class Session:
    """Held in a `gr.State`: created on a session's first event, never shared."""

    def __init__(self, factory: AdvisorFactory, prefs: Preferences):
        self.id = uuid.uuid4().hex[:12]
        self.factory = factory
        self.prefs = prefs
        self.conveyed = dict(BASELINE)
        self.advisor = None
        self.brain = prefs.brain
        self.last_question: str | None = None
        self.last_answer: Answer | None = None
        self.turns = 0
        self.last_rating: str | None = None  # the last 👍/👎, attached to a later comment
        self.lock = threading.Lock()

    def __deepcopy__(self, memo):  # gr.State deep-copies values in some paths; a session is one object
        return self

    def _advisor(self):
        if self.advisor is None or self.brain != self.prefs.brain:
            old = self.advisor
            self.advisor = self.factory(self.prefs.brain)
            self.brain = self.prefs.brain
            if old is not None:
                self.advisor.history = list(old.history)  # a new brain continues the same conversation
        return self.advisor

    def prepare(self, text: str) -> tuple[str, str]:
        """(the text sent to the advisor, the clause added) — without committing the conveyed state."""
        clause, _ = preference_clause(text, self.prefs, self.conveyed)
        return text + clause, clause

    def ask(self, text: str) -> Answer:
        with self.lock:
            clause, conveyed = preference_clause(text, self.prefs, self.conveyed)
            answer = self._advisor().ask(text + clause)
            self.conveyed = conveyed  # only once the advisor has heard it
            self.last_question, self.last_answer = text, answer
            self.turns += 1
            return answer

    def reset(self) -> None:
        with self.lock:
            if self.advisor is not None:
                self.advisor.reset()
            self.conveyed = dict(BASELINE)
            self.last_question = self.last_answer = None
            self.last_rating = None
            self.turns = 0
