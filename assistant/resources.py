"""Heavy, shareable resources: settings, catalog, retriever.

One `Resources` per distinct configuration is shared by every `Advisor`
(a web server holds many conversations): the embedding model, the index and
the catalog are loaded once. Loading is lazy and thread-safe.
"""

from __future__ import annotations

import threading
from functools import cached_property

from knowledge.settings import Settings
from tools.catalog import Catalog
from tools.schemas import ExchangeRate

_shared: dict[str, "Resources"] = {}


def _single_threaded_torch() -> None:
    """One intra-op thread per query embedding.

    A query is a single short sequence: on a busy 2-core machine two OpenMP
    threads spin against each other (measured 160 ms-1 s per query vs 23 ms
    with one), and a server runs several conversations in parallel anyway.
    """
    import sys

    torch = sys.modules.get("torch")  # the bundled model embeds queries in NumPy: don't import torch for this
    if torch is not None:
        torch.set_num_threads(1)
_shared_lock = threading.Lock()


class Resources:
    def __init__(self, settings: Settings):
        self.settings = settings
        self._lock = threading.RLock()
        self._graphs: dict[str, object] = {}
        self.search_lock = threading.Lock()

    @classmethod
    def shared(cls, settings: Settings | None = None) -> "Resources":
        settings = settings or Settings.load()
        key = settings.model_dump_json(exclude={"llm_api_key"})
        with _shared_lock:
            if key not in _shared:
                _shared[key] = cls(settings)
            return _shared[key]

    @cached_property
    def catalog(self) -> Catalog:
        from knowledge.catalog import load_catalog

        with self._lock:
            return load_catalog(self.settings)

    @cached_property
    def understanding(self):
        """The reader, frame model and example bank for this catalog (compiled once, shared by conversations)."""
        from assistant.understand import Understanding

        with self._lock:
            return Understanding(self.catalog)

    @property
    def fx(self) -> ExchangeRate:
        return self.settings.exchange_rate

    @cached_property
    def retriever(self):
        from knowledge.index import get_retriever

        _single_threaded_torch()
        with self._lock:
            return get_retriever(self.settings)

    @cached_property
    def tools(self):
        from assistant.lc_tools import get_tools

        return get_tools(self)

    def graph(self, key: str, make_model, system_prompt: str | None = None):
        """The compiled agent loop for one brain, built once and shared (graphs are stateless)."""
        with self._lock:
            if key not in self._graphs:
                from langchain.agents import create_agent

                self._graphs[key] = create_agent(make_model(), self.tools, system_prompt=system_prompt)
            return self._graphs[key]
