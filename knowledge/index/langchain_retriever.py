"""LangChain adapter: the hybrid retriever as a `BaseRetriever` (thin: call + convert)."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from knowledge.passages import Passage


def passage_to_document(p: Passage) -> Document:
    return Document(
        page_content=p.text,
        id=p.chunk_id or None,
        metadata={
            "doc_id": p.doc_id,
            "title": p.title,
            "section": p.section,
            "lang": p.lang,
            "score": p.score,
            "chunk_id": p.chunk_id,
            "source": p.source,
            "topics": list(p.topics),
        },
    )


class GuidanceRetriever(BaseRetriever):
    """Finds guidance passages in Chinese or English; metadata carries `doc_id` to cite.

    `retriever` defaults to the shared one for `settings` (see knowledge.index.get_retriever).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retriever: Any = None
    settings: Any = None
    k: int = Field(default=5, ge=1)
    lang: str | None = None
    doc_ids: list[str] | None = None
    topics: list[str] | None = None

    def _hybrid(self):
        if self.retriever is None:
            from knowledge.index.service import get_retriever

            self.retriever = get_retriever(self.settings)
        return self.retriever

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        result = self._hybrid().search(query, k=self.k, lang=self.lang, doc_ids=self.doc_ids, topics=self.topics)
        return [passage_to_document(p) for p in result.hits]
