"""What the model is sent of the conversation: the system prompt, the conversation state and recent turns.

The history grows with every turn, the model's context does not (and Ollama cuts the start of what
does not fit: the system prompt first). The model gets the last `MAX_HISTORY_TURNS` question/answer
pairs, earlier answers cut to `MAX_EARLIER_ANSWER_CHARS`, and the conversation state the
understanding layer keeps (`state_summary`), so facts from older turns are not lost with them.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from assistant.llm.compact import clip_text
from assistant.llm.loop import message_text

MAX_HISTORY_TURNS = 3
MAX_EARLIER_ANSWER_CHARS = 1200

STATE_HEADING = {
    "en": "What the user has told us so far in this conversation (use it; it may come from turns not shown):",
    "zh": "本次对话中用户已经告诉我们的信息（请使用；可能来自未显示的早先对话）：",
}


def model_context(
    system_prompt: str, messages: list[BaseMessage], state_summary: str = "", lang: str = "en"
) -> list[BaseMessage]:
    """[system (+ state), recent turns, this question] for the model; `messages` ends with the question."""
    *history, question = messages
    turns = [m for m in history if isinstance(m, HumanMessage) or (isinstance(m, AIMessage) and not m.tool_calls)]
    kept = turns[-2 * MAX_HISTORY_TURNS :]
    while kept and not isinstance(kept[0], HumanMessage):
        kept = kept[1:]
    recent: list[BaseMessage] = [
        AIMessage(content=clip_text(message_text(m), MAX_EARLIER_ANSWER_CHARS)) if isinstance(m, AIMessage) else m
        for m in kept
    ]
    system = system_prompt
    if state_summary.strip():
        system = f"{system}\n\n{STATE_HEADING.get(lang, STATE_HEADING['en'])}\n{state_summary.strip()}"
    return [SystemMessage(content=system), *recent, question]
