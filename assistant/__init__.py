"""Orchestration: the Advisor (conversation), agent loop, brains, verifier, evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.advisor import Advisor


def __getattr__(name: str):
    # lazy: `import assistant` must not load LangChain for commands that don't need it
    if name == "Advisor":
        from assistant.advisor import Advisor

        return Advisor
    if name == "get_tools":
        from assistant.lc_tools import get_tools

        return get_tools
    raise AttributeError(name)
