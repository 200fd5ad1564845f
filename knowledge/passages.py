"""What retrieval returns: a passage with everything needed to cite it."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Passage(BaseModel):
    doc_id: str = Field(description="the topic's stable id, shared by its zh and en versions")
    title: str
    section: str = Field(description="heading path, e.g. 'Spot instances > Checkpointing'")
    lang: str = Field(description="zh | en")
    text: str
    score: float = 0.0
    chunk_id: str = ""
    source: str = Field(default="", description="file path or 'catalog'")
    topics: list[str] = Field(default_factory=list)


class SearchResult(BaseModel):
    query: str
    truncated: bool = Field(description="the query was cut to the embedding window")
    hits: list[Passage]
