"""The LLM brain: provider presets and request options, the agent loop, and one LLM turn with its fallbacks.

* `presets`: the provider table and the (provider, model pattern) quirk table; `make_llm(spec, settings)`.
* `clients`: the LangChain clients with the repairs each provider needs (reasoning_content echo, shapes).
* `loop`: model ↔ tools, bounded per question; the model reads compact results (`compact`), tool calls
  written as text are read (`textcalls`), argument errors come back in our words (`tool_errors`).
* `context`: the system prompt, the conversation state and the recent turns the model is sent.
* `turn`: one question: attempts, the forced-tool retry, citations, the one rewrite, the fallback reason.
"""

from assistant.llm.presets import PRESETS, PROVIDERS, QUIRKS, SYSTEM_PROMPT, Preset, brain_name, make_llm  # noqa: F401
