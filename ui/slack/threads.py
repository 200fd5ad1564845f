"""One conversation (one `Advisor`) per Slack thread.

Keyed by (channel, thread root ts): a follow-up in the thread continues the
same conversation; a new top-level message starts a new one. Bounded LRU with
an idle timeout so a long-running bot does not grow without limit; the heavy
resources (catalog, index, embedder) are shared by all advisors anyway.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Callable, Generic, TypeVar

T = TypeVar("T")

DEFAULT_MAX_THREADS = 2000
DEFAULT_IDLE_S = 7 * 24 * 3600.0  # a week without a message: the thread is forgotten


class ThreadStore(Generic[T]):
    def __init__(
        self,
        factory: Callable[[], T],
        max_threads: int = DEFAULT_MAX_THREADS,
        idle_s: float = DEFAULT_IDLE_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.factory = factory
        self.max_threads = max_threads
        self.idle_s = idle_s
        self.clock = clock
        self._items: OrderedDict[tuple[str, str], tuple[T, float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, channel: str, thread_ts: str) -> T:
        key = (channel, thread_ts)
        now = self.clock()
        with self._lock:
            item = self._items.pop(key, None)
            if item is not None and now - item[1] > self.idle_s:
                item = None
            value = item[0] if item is not None else self.factory()
            self._items[key] = (value, now)
            while len(self._items) > self.max_threads:
                self._items.popitem(last=False)
            return value

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: tuple[str, str]) -> bool:
        return key in self._items
