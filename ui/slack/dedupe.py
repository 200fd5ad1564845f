"""Never answer the same Slack message twice.

Slack re-delivers an event (with `X-Slack-Retry-Num`) when it did not see our
acknowledgement in time, and the same user message can arrive under two event
types (an `app_mention` that is also a `message.im`). Each delivery is checked
against every key it carries — event_id, client_msg_id, channel+ts — and is
processed only if none was seen before. Keys expire after `ttl_s` (Slack stops
retrying after about an hour) and the table is bounded.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Iterable

DEFAULT_TTL_S = 2 * 3600.0  # Slack's retries span minutes; two hours is a wide margin
DEFAULT_MAX_KEYS = 50_000  # about 5 MB at most; oldest keys are dropped first


class Deduper:
    def __init__(self, ttl_s: float = DEFAULT_TTL_S, max_keys: int = DEFAULT_MAX_KEYS, clock: Callable[[], float] = time.monotonic):
        self.ttl_s = ttl_s
        self.max_keys = max_keys
        self.clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, keys: Iterable[str | None]) -> bool:
        """True (and remember the keys) if none of `keys` was seen; False for a duplicate."""
        keys = [k for k in keys if k]
        if not keys:
            return True  # nothing to recognise it by: process it
        now = self.clock()
        with self._lock:
            self._expire(now)
            if any(k in self._seen for k in keys):
                return False
            for k in keys:
                self._seen[k] = now
            while len(self._seen) > self.max_keys:
                self._seen.popitem(last=False)
            return True

    def _expire(self, now: float) -> None:
        while self._seen:
            key, at = next(iter(self._seen.items()))
            if now - at <= self.ttl_s:
                break
            self._seen.popitem(last=False)


def event_keys(body: dict[str, Any], event: dict[str, Any]) -> list[str]:
    """Everything that identifies one user message across deliveries and event types."""
    keys = []
    if body.get("event_id"):
        keys.append(f"event:{body['event_id']}")
    if event.get("client_msg_id"):
        keys.append(f"msg:{event['client_msg_id']}")
    if event.get("channel") and event.get("ts"):
        keys.append(f"ts:{event['channel']}:{event['ts']}")
    return keys
