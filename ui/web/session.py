"""One browser (or one API client) session: its Advisor, its panel settings, its last answer.

The settings panel reaches the Advisor as typed values (`Advisor.set_preferences`), never as
words in the question: a change is applied just before the next question, the most recently
stated value wins whether it was typed or set, and 'auto' hands a dimension back to the
question. The page shows a short note of what changed. The brain is a constructor argument:
switching it builds a new Advisor that keeps the conversation so far.

Lifetime: a session ends when its tab or API client disconnects (Gradio's unload, seen within
one heartbeat, 15 s by default) or after `GPU_ADVISOR_WEB_SESSION_TTL` seconds without an event
(default 30 minutes); `ui.web.handlers.WebApp` then closes it and Gradio's own per-session copy of
the page is dropped, so a finished session leaves nothing behind.
"""

from __future__ import annotations

import math
import os
import threading
import uuid
from typing import Callable

from pydantic import BaseModel, ConfigDict

from assistant.answer import Answer
from assistant.understand import language_of
from tools.errors import ConfigError

AUTO = "auto"

# (label shown in the panel, value sent over the API)
CURRENCY_LABELS = [("From the question", AUTO), ("CNY ¥", "CNY"), ("USD $", "USD")]
REGION_LABELS = [("Any region", "any"), ("Mainland China (cn)", "cn"), ("Outside mainland China (intl)", "intl")]
BILLING_LABELS = [("As the advisor sees fit", AUTO), ("On-demand", "on_demand"), ("Spot / preemptible", "spot"),
                  ("Monthly subscription", "monthly"), ("Yearly / reserved", "yearly")]
LANGUAGE_LABELS = [("Follow the question", AUTO), ("English", "en"), ("中文", "zh")]
CURRENCY_CHOICES = [v for _, v in CURRENCY_LABELS]
REGION_CHOICES = [v for _, v in REGION_LABELS]
BILLING_CHOICES = [v for _, v in BILLING_LABELS]
LANGUAGE_CHOICES = [v for _, v in LANGUAGE_LABELS]

# how the page shows a settings change under the question (display only; the advisor gets typed values)
NOTE_WORDS = {
    "en": {"currency": {"CNY": "CNY", "USD": "USD", AUTO: "currency from the question"},
           "region": {"cn": "China mainland", "intl": "outside mainland China", "any": "any region"},
           "billing": {"on_demand": "on-demand", "spot": "spot", "monthly": "monthly", "yearly": "yearly", AUTO: "any billing"},
           "language": {"en": "answers in English", "zh": "answers in Chinese", AUTO: "answer language from the question"}},
    "zh": {"currency": {"CNY": "人民币", "USD": "美元", AUTO: "币种随问题"},
           "region": {"cn": "国内", "intl": "海外", "any": "不限地区"},
           "billing": {"on_demand": "按量", "spot": "竞价", "monthly": "包月", "yearly": "包年", AUTO: "不限计费"},
           "language": {"en": "用英文回答", "zh": "用中文回答", AUTO: "语言随问题"}},
}


class Preferences(BaseModel):
    model_config = ConfigDict(extra="forbid")

    brain: str = "offline"
    currency: str = AUTO
    region: str = "any"
    billing: str = AUTO
    language: str = AUTO


# What a fresh conversation already "knows": nothing set about currency, billing or language, any region.
BASELINE = {"currency": AUTO, "region": "any", "billing": AUTO, "language": AUTO}
DIMENSIONS = ("currency", "region", "billing", "language")


def changes(prefs: Preferences, conveyed: dict[str, str]) -> dict[str, str]:
    """The settings that differ from what the advisor already has."""
    return {d: getattr(prefs, d) for d in DIMENSIONS if getattr(prefs, d) != conveyed.get(d)}


def settings_note(changed: dict[str, str], lang: str) -> str:
    """What the page shows under the question when settings changed ('' when nothing did)."""
    if not changed:
        return ""
    words = NOTE_WORDS["zh" if lang == "zh" else "en"]
    parts = [words[d].get(v, v) for d, v in changed.items()]
    return ("（设置：" + "，".join(parts) + "）") if lang == "zh" else ("(settings: " + ", ".join(parts) + ")")


AdvisorFactory = Callable[[str], object]  # brain spec -> an object with .ask(text) -> Answer, .history, .reset()


DEFAULT_IDLE_TTL_S = 30 * 60.0  # an idle conversation is forgotten after this (GPU_ADVISOR_WEB_SESSION_TTL)
TTL_ENV = "GPU_ADVISOR_WEB_SESSION_TTL"


def idle_ttl_s(value: float | str | None = None) -> float:
    """Seconds an idle web conversation is kept: the argument, else `GPU_ADVISOR_WEB_SESSION_TTL`, else 30 minutes."""
    source = "session_ttl_s" if value is not None else TTL_ENV
    raw = value if value is not None else os.environ.get(TTL_ENV)
    if raw is None or raw == "":
        return DEFAULT_IDLE_TTL_S
    try:
        ttl = float(raw)
    except ValueError:
        ttl = math.nan
    if not (math.isfinite(ttl) and ttl > 0):
        raise ConfigError(f"{source}={raw!r} is not a number of seconds above 0: use e.g. 1800 (30 minutes, the default).")
    return ttl


class Session:
    """Held in a `gr.State`: created on a session's first event, never shared.

    `key` is Gradio's session hash (one per browser tab or API client). `close()` drops
    the advisor and the last answer when the tab or client goes away or the session
    idles out; a closed session asked again starts a fresh conversation.
    """

    def __init__(self, factory: AdvisorFactory, prefs: Preferences, key: str | None = None):
        self.id = uuid.uuid4().hex[:12]
        self.key = key
        self.closed = False
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
            if old is not None:  # a new brain continues the same conversation
                self.advisor.history = list(old.history)
                if hasattr(old, "state"):
                    self.advisor.state = old.state
        return self.advisor

    def prepare(self, text: str) -> tuple[str, str]:
        """(the text sent to the advisor, the note the page shows for changed settings) — nothing is committed."""
        return text, settings_note(changes(self.prefs, self.conveyed), language_of(text))

    def ask(self, text: str) -> Answer:
        with self.lock:
            self.closed = False
            advisor = self._advisor()
            changed = changes(self.prefs, self.conveyed)
            if changed and hasattr(advisor, "set_preferences"):
                region = changed.get("region")
                advisor.set_preferences(
                    currency=changed.get("currency"), region=AUTO if region == "any" else region,
                    billing=changed.get("billing"), lang=changed.get("language"),
                )
            answer = advisor.ask(text)
            self.conveyed = {d: getattr(self.prefs, d) for d in DIMENSIONS}  # only once the advisor has heard it
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

    def close(self) -> None:
        """Forget the conversation (the advisor, its history, the last answer). Never blocks: a question being
        answered right now keeps its own reference and finishes."""
        self.closed = True
        self.advisor = None
        self.last_question = self.last_answer = None
        self.last_rating = None
        self.conveyed = dict(BASELINE)
        self.turns = 0
