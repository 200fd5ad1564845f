"""The agent's answer: the same fields in Python, JSON, the web UI and Slack."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ToolCallRecord(BaseModel):
    name: str
    args: dict[str, Any]
    result: Any = Field(description="the tool's JSON result, or {'error': message}")
    shown: bool = Field(default=True, description="False: computed beside the answer but not shown in it (an "
                                                  "alternative under a 'yes'); the UI treats it as not asked")


class Citation(BaseModel):
    marker: int = Field(description="the n of [n] in the answer text")
    doc_id: str
    title: str
    section: str
    lang: str = ""
    text: str = Field(default="", description="the passage, for previews")


class NumberClaim(BaseModel):
    value: float
    unit: str
    text: str = Field(description="as written in the answer")
    backed_by: str | None = Field(description="tool:<name>, catalog:<key>, passage:<doc_id>; None = unbacked")


class Answer(BaseModel):
    answer: str
    language: str = Field(description="zh | en")
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    recommendation: dict[str, Any] | None = Field(default=None, description="top option as the recommender returned it")
    options: list[dict[str, Any]] = Field(default_factory=list, description="all ranked options, for tables and charts")
    numbers: list[NumberClaim] = Field(default_factory=list)
    brain: str = "offline"
    frame: str | None = Field(default=None, description="what the question asked, as the understanding layer read it")
    reasoning: str = Field(default="", description="an LLM's own reasoning (<think>, reasoning_content), for the trace only")
    timings: dict[str, float] = Field(default_factory=dict)

    @property
    def unbacked(self) -> list[NumberClaim]:
        return [n for n in self.numbers if n.backed_by is None]
