"""Hybrid retrieval on a small bilingual corpus: language preference, filters, bad input, adapters, threads."""

from __future__ import annotations

import threading

import pytest

from index_helpers import write_corpus
from knowledge.index.hybrid import HybridRetriever
from knowledge.index.service import backends_for, build_index, get_retriever, search_guidance
from knowledge.passages import Passage
from knowledge.settings import Settings
from tools.errors import InputError

pytestmark = pytest.mark.slow  # loads the embedding model once per session


@pytest.fixture(scope="module")
def retriever(tmp_path_factory):
    root = tmp_path_factory.mktemp("retrieval")
    settings = Settings.load(data_dir=root / "data")
    docs = write_corpus(root / "docs")
    build_index(settings, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    return get_retriever(settings, docs_dir=docs, include_cards=False)


@pytest.mark.parametrize(
    "query, doc_id, lang",
    [
        ("spot instances get reclaimed", "billing-modes", "en"),
        ("竞价实例会被回收吗", "billing-modes", "zh"),  # zh question: the zh version first
        ("CUDA out of memory error", "vram", "en"),
        ("训练时显存不足报错怎么办", "vram", "zh"),
        ("NVLink 和 PCIe 的区别", "network", "en"),  # only an English version exists: found across languages
        ("多机训练需要什么网络", "network", "en"),  # via the glossary: 多机 -> multi-node
    ],
)
def test_question_finds_topic_in_its_language(retriever, query, doc_id, lang):
    top = retriever.search(query, k=3).hits[0]
    assert (top.doc_id, top.lang) == (doc_id, lang)


def test_both_versions_match_question_language_first(retriever):
    zh = retriever.search("竞价实例 spot instances", k=5, doc_ids=["billing-modes"]).hits
    assert zh[0].lang == "zh"
    en = retriever.search("spot instances 竞价实例 checkpoint reclaim", k=5, doc_ids=["billing-modes"]).hits
    assert en[0].lang == "en"


def test_topics_come_before_second_chunks_of_the_same_topic(retriever):
    hits = retriever.search("memory", k=3).hits
    assert len({h.doc_id for h in hits}) == 3  # three topics, not three chunks of one


def test_filters(retriever):
    assert {h.lang for h in retriever.search("spot", k=10, lang="zh").hits} == {"zh"}
    assert {h.doc_id for h in retriever.search("memory", k=10, doc_ids=["network"]).hits} == {"network"}
    assert {h.doc_id for h in retriever.search("memory", k=10, topics=["oom"]).hits} == {"vram"}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"doc_ids": ["vrma"]}, r"unknown doc id 'vrma'\. Did you mean: vram"),
        ({"topics": ["biling"]}, r"unknown topic 'biling'\. Did you mean: billing"),
        ({"lang": "fr"}, r"unknown language 'fr': use zh or en"),
        ({"k": 0}, r"k must be a positive whole number"),
    ],
)
def test_bad_filters_are_input_errors(retriever, kwargs, message):
    with pytest.raises(InputError, match=message):
        retriever.search("memory", **kwargs)


@pytest.mark.parametrize("query", ["", "   ", "\n\t "])
def test_empty_query_is_an_input_error(retriever, query):
    with pytest.raises(InputError, match="empty query"):
        retriever.search(query)


def test_very_long_query_is_truncated_and_said_so(retriever):
    long = "How much GPU memory does training need? " * 200
    result = retriever.search(long, k=2)
    assert result.truncated is True
    assert len(result.query) < len(long)
    assert result.hits and result.hits[0].doc_id == "vram"
    assert retriever.search("How much GPU memory does training need?").truncated is False


def test_rerank_hook_reorders(retriever):
    def reverse(query: str, passages: list[Passage]) -> list[Passage]:
        assert query == "spot instances"
        return list(reversed(passages))

    plain = retriever.search("spot instances", k=20).hits
    reranked = retriever.search("spot instances", k=20, rerank=reverse).hits
    assert [h.chunk_id for h in reranked] == [h.chunk_id for h in reversed(plain)]


def test_passages_carry_citation_metadata(retriever):
    hit = retriever.search("checkpoint every 30 minutes", k=1, lang="en").hits[0]
    assert hit.doc_id == "billing-modes" and hit.title == "Billing modes"
    assert hit.section == "Checkpointing on spot" and hit.topics == ["billing", "spot"]
    assert hit.source.endswith("billing-modes.en.md") and hit.chunk_id and hit.score > 0


def test_langchain_retriever(retriever):
    from knowledge.index import GuidanceRetriever

    docs = GuidanceRetriever(retriever=retriever, k=2).invoke("显存不足")
    assert len(docs) == 2
    assert docs[0].metadata["doc_id"] == "vram" and docs[0].metadata["lang"] == "zh"
    assert "显存" in docs[0].page_content


def test_concurrent_searches_agree(retriever):
    queries = ["spot instances", "显存不足", "InfiniBand between nodes", "计费方式"]
    expected = {q: [h.chunk_id for h in retriever.search(q, k=3).hits] for q in queries}
    errors: list[BaseException] = []

    def worker():
        try:
            for _ in range(5):
                for q in queries:
                    assert [h.chunk_id for h in retriever.search(q, k=3).hits] == expected[q]
        except BaseException as err:  # surfaced below
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_check_query_needs_no_model():
    with pytest.raises(InputError, match="empty query"):
        HybridRetriever.check_query("  ")
    assert HybridRetriever.check_query(" a \n b ") == "a b"


def test_missing_index_is_built_on_first_use(tmp_path):
    settings = Settings.load(data_dir=tmp_path / "data")
    docs = write_corpus(tmp_path / "docs", {"vram.en.md": __import__("index_helpers").VRAM_EN})
    said: list[str] = []
    retriever = get_retriever(settings, notify=said.append, docs_dir=docs, include_cards=False)
    hits = retriever.search("out of memory", k=1).hits
    assert hits[0].doc_id == "vram"
    assert any("building it" in m for m in said)


def test_search_guidance_uses_the_shared_retriever(monkeypatch, retriever):
    passages = search_guidance("spot instances", k=2, settings=retriever.settings)
    assert passages and isinstance(passages[0], Passage)
    assert get_retriever(retriever.settings) is get_retriever(retriever.settings)
    assert backends_for(retriever.settings)[0]["minilm"] is backends_for(Settings.load())[0]["minilm"]


def test_damaged_index_found_at_search_time_is_rebuilt_and_said_so(tmp_path):
    settings = Settings.load(data_dir=tmp_path / "data")
    docs = write_corpus(tmp_path / "docs")
    build_index(settings, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    (settings.index_dir / "chroma" / "chroma.sqlite3").write_bytes(b"\0garbage" * 512)
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient.clear_system_cache()  # what a new process would open
    said: list[str] = []
    retriever = get_retriever(settings, notify=said.append, docs_dir=docs, include_cards=False)
    assert retriever.search("spot instances", k=1).hits[0].doc_id == "billing-modes"
    assert any("damaged" in m and "rebuilding" in m for m in said)
