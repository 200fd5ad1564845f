"""The LLM brain: provider presets and request options, and one LLM turn with its fallbacks.

`presets`: choosing the chat model for `PROVIDER:MODEL`; `turn`: running one question through the
LLM agent loop, checking its output and rewriting unbacked numbers, or saying why to fall back.
"""

from assistant.llm.presets import PRESETS, SYSTEM_PROMPT, Preset, brain_name, make_llm  # noqa: F401
