"""Thumbs up/down and comments, appended to a local JSONL file.

One JSON object per line so the file can be tailed, grepped and loaded with
`pandas.read_json(lines=True)`. Writes are serialised by a lock owned by the
log object (one per app, not per process) and each record is a single
`write` of one line in append mode, so concurrent sessions never interleave.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_COMMENT_CHARS = 2000
MAX_TEXT_CHARS = 4000  # the question/answer copied into the record, enough to reproduce it


class FeedbackRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ts: str = Field(default_factory=lambda: dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"))
    session: str
    rating: Literal["up", "down"] | None = None
    comment: str | None = Field(default=None, max_length=MAX_COMMENT_CHARS)
    question: str | None = None
    answer: str | None = None
    brain: str | None = None
    message_index: int | None = None
    recommendation: dict[str, Any] | None = Field(default=None, description="provider, instance, region of the top option")


class FeedbackLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock = threading.Lock()

    def append(self, record: FeedbackRecord) -> None:
        line = json.dumps(record.model_dump(mode="json", exclude_none=True), ensure_ascii=False) + "\n"
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(line)

    def read(self) -> list[dict[str, Any]]:
        """All records (for tests and quick looks)."""
        if not self.path.is_file():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]


def clip(text: str | None, limit: int = MAX_TEXT_CHARS) -> str | None:
    if text is None:
        return None
    return text if len(text) <= limit else text[: limit - 1] + "…"


def top_option_ref(recommendation: dict[str, Any] | None) -> dict[str, Any] | None:
    if not recommendation:
        return None
    return {k: recommendation.get(k) for k in ("provider", "instance", "region", "gpu", "gpu_count")}
