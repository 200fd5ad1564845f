"""Optional LLM-as-judge: how faithful an answer is to its own evidence (RAGAS-style).

Faithfulness = supported claims / claims. The judge model lists the factual
claims of the answer and marks each as supported or not by the evidence the
advisor had: the tool results and the cited passages. It never runs offline
by default; `gpu-advisor eval --judge` asks for it, and only when an LLM is
configured. A judge failure (timeout, unparsable reply) is recorded on the
item, never fails the run: the rule checks stay the gate.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel

from assistant.answer import Answer
from knowledge.settings import Settings
from tools.errors import ConfigError

_MAX_EVIDENCE_CHARS = 12_000

PROMPT = """You check whether an assistant's answer is faithful to its evidence.

Evidence (tool results as JSON, then retrieved passages):
<evidence>
{evidence}
</evidence>

Question: {question}

Answer:
<answer>
{answer}
</answer>

List every factual claim of the answer (numbers, names, recommendations, facts about hardware or prices).
For each, say whether the evidence supports it. Claims that only restate the question are supported.
Reply with JSON only, no prose: {{"claims": [{{"claim": "...", "supported": true}}]}}"""


class JudgeVerdict(BaseModel):
    score: float | None
    claims: int = 0
    supported: int = 0
    unsupported: list[str] = []
    error: str | None = None


def evidence_text(answer: Answer, limit: int = _MAX_EVIDENCE_CHARS) -> str:
    parts = [f"[tool {c.name}] {json.dumps(c.result, ensure_ascii=False, default=str)}" for c in answer.tool_calls]
    parts += [f"[{c.marker}] {c.doc_id} / {c.section}: {c.text}" for c in answer.citations if c.text]
    text = "\n".join(parts) or "(no evidence)"
    return text if len(text) <= limit else text[:limit] + "\n…(truncated)"


def parse_verdict(content: str) -> JudgeVerdict:
    """Read the judge's JSON reply (tolerates a code fence or text around it)."""
    match = re.search(r"\{.*\}", content, re.DOTALL)
    if not match:
        return JudgeVerdict(score=None, error="the judge's reply holds no JSON object")
    try:
        data = json.loads(match.group(0))
        claims = [c for c in data["claims"] if isinstance(c, dict)]
    except (json.JSONDecodeError, KeyError, TypeError):
        return JudgeVerdict(score=None, error="the judge's reply is not {\"claims\": [...]}")
    if not claims:
        return JudgeVerdict(score=None, error="the judge found no claims")
    supported = [c for c in claims if c.get("supported") is True]
    return JudgeVerdict(
        score=round(len(supported) / len(claims), 4),
        claims=len(claims),
        supported=len(supported),
        unsupported=[str(c.get("claim", "")) for c in claims if c.get("supported") is not True],
    )


class Judge:
    """Wraps any LangChain chat model; `meta` goes into the report."""

    def __init__(self, model: Any, name: str):
        self.model = model
        self.meta = {"model": name, "method": "faithfulness = supported claims / claims (RAGAS-style)"}

    def judge(self, question: str, answer: Answer) -> JudgeVerdict:
        prompt = PROMPT.format(evidence=evidence_text(answer), question=question, answer=answer.answer)
        try:
            reply = self.model.invoke(prompt)
        except Exception as err:  # noqa: BLE001 - a judge outage is reported per item, never fatal
            return JudgeVerdict(score=None, error=f"{err.__class__.__name__}: {err}")
        content = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
        return parse_verdict(content)


def make_judge(settings: Settings, spec: str | None = None) -> Judge:
    """A judge on `spec` (PROVIDER:MODEL) or the configured LLM; an error when there is none."""
    spec = spec or settings.llm
    if not spec or spec == "offline":
        raise ConfigError(
            "--judge needs an LLM: pass --judge PROVIDER:MODEL or set GPU_ADVISOR_LLM (the offline brain cannot judge)."
        )
    judge_settings = settings.model_copy(update={"llm": spec})
    return Judge(_chat_model(judge_settings), spec)


def _chat_model(settings: Settings) -> Any:
    """The same chat-model factory the LLM brain uses (provider presets, keys from the environment)."""
    from assistant.llm import make_llm

    return make_llm(settings.llm, settings)
