"""Server mode: index into and search a real `chroma run` server that this module starts and stops.

Each test starts from an empty server. The integrity checks of test_index_integrity.py run here
against the server too: a worker killed at several points leaves the live generation (named by
the server's pointer) untouched, the next run finishes and removes the leftovers and the dead
writer's lock record; a reader whose collections were dropped under it reopens the new ones.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from index_helpers import (
    QUERIES,
    answers,
    fresh_reader,
    leftovers,
    live_collection,
    live_pointer,
    note_found,
    notes_folder,
    reference_answers,
    run_worker,
    write_corpus,
)
from knowledge.index import store
from knowledge.index.locking import SERVER_LOCK
from knowledge.index.service import build_index, get_retriever, indexed_paths
from knowledge.settings import Settings
from tools.errors import ConfigError

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    chroma = Path(sys.executable).parent / "chroma"
    if not chroma.exists():
        pytest.fail(f"the chroma CLI is missing at {chroma}; pip install chromadb")
    path = tmp_path_factory.mktemp("chroma-server")
    port = _free_port()
    proc = subprocess.Popen(
        [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"chroma run did not start on port {port}")
            time.sleep(0.2)
    yield port, path
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(autouse=True)
def empty_server(request):
    """Every test starts from an empty server (the module shares one)."""
    if "chroma_server" not in request.fixturenames:
        yield
        return
    port, _ = request.getfixturevalue("chroma_server")
    import chromadb

    client = chromadb.HttpClient(host="127.0.0.1", port=port, settings=store._chroma_settings())
    for col in client.list_collections():
        client.delete_collection(col.name)
    yield


def test_index_and_search_through_the_server(chroma_server, tmp_path):
    port, server_path = chroma_server
    settings = Settings.load(data_dir=tmp_path / "data", chroma_host="127.0.0.1", chroma_port=port)
    docs = write_corpus(tmp_path / "docs")
    report = build_index(settings, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    assert report.embedded == 12 and "127.0.0.1" in report.location
    assert not (Path(settings.index_dir) / "chroma").exists()  # nothing embedded locally

    # the vectors live on the server, in the collections its pointer names
    pointer = live_pointer(settings)
    assert set(pointer.collections) >= {"minilm"} and sum(pointer.counts.values()) == 12
    assert live_collection(settings, "minilm").count() == pointer.counts["minilm"] >= 5

    again = build_index(settings, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    assert (again.embedded, again.unchanged) == (0, 12)

    retriever = get_retriever(settings, docs_dir=docs, include_cards=False)
    top = retriever.search("竞价实例会被回收吗", k=1).hits[0]
    assert (top.doc_id, top.lang) == ("billing-modes", "zh")
    assert retriever.search("CUDA out of memory", k=1).hits[0].doc_id == "vram"


def test_unreachable_server_is_a_clear_config_error(tmp_path):
    port = _free_port()  # nothing listens there
    settings = Settings.load(data_dir=tmp_path / "data", chroma_host="127.0.0.1", chroma_port=port)
    with pytest.raises(ConfigError, match=rf"cannot reach the Chroma server at 127.0.0.1:{port}.*chroma run"):
        build_index(settings, docs_dir=tmp_path, include_cards=False, progress=False)


def test_a_shared_server_keeps_a_colleagues_documents(chroma_server, tmp_path):
    """Two machines, one server: each indexes the built-in docs; one also adds its team folder.
    The other machine's runs must neither duplicate the built-in docs nor delete that folder."""
    port, _ = chroma_server
    docs = write_corpus(tmp_path / "docs")
    team = tmp_path / "team"
    team.mkdir()
    (team / "quota.md").write_text("# Quota\n\nEach team may hold at most 16 H100 GPUs.\n", "utf-8")
    alice = Settings.load(data_dir=tmp_path / "alice", chroma_host="127.0.0.1", chroma_port=port)
    bob = Settings.load(data_dir=tmp_path / "bob", chroma_host="127.0.0.1", chroma_port=port)
    kw = dict(docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    build_index(alice, [team], **kw)

    report = build_index(bob, **kw)
    assert (report.embedded, report.removed) == (0, 0)  # same chunk ids for the built-in docs: nothing to do
    top = get_retriever(bob, docs_dir=docs, include_cards=False).search("how many H100 may a team hold", k=1).hits[0]
    assert top.doc_id == "local:quota"  # Bob finds Alice's guidance through the shared server


# ---------------------------------------------------------------------- integrity on a server


@dataclass
class _Snapshot:
    """The small corpus indexed on the server once: its records, pointer and the builder's manifest."""

    docs: Path
    collections: list[tuple[str, dict, dict]]  # (name, metadata, records with embeddings)
    pointer: object
    manifest: str
    expected: dict


def _wipe(port: int) -> None:
    import chromadb

    client = chromadb.HttpClient(host="127.0.0.1", port=port, settings=store._chroma_settings())
    for col in client.list_collections():
        client.delete_collection(col.name)


@pytest.fixture(scope="module")
def snapshot(chroma_server, tmp_path_factory) -> _Snapshot:
    """Build once, then restore per test: the E5 embedding of the corpus is the slow part of a build."""
    port, _ = chroma_server
    root = tmp_path_factory.mktemp("server-base")
    docs = write_corpus(root / "docs")
    _wipe(port)
    settings = Settings.load(data_dir=root / "data", chroma_host="127.0.0.1", chroma_port=port)
    build_index(settings, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    client = store.open_client(settings)
    pointer = live_pointer(settings)
    cols = []
    for name in pointer.collections.values():
        col = store.get(client, name)
        cols.append((name, dict(col.metadata), col.get(include=["embeddings", "documents", "metadatas"])))
    manifest = (Path(settings.index_dir) / "manifest.json").read_text()
    # what a normal run that adds the note leaves (the kill tests must end in the same state)
    expected = reference_answers(settings, docs, notes_folder(root / "notes"))
    return _Snapshot(docs, cols, pointer, manifest, expected)


@pytest.fixture
def expected(snapshot):
    return snapshot.expected


def _server_site(port, tmp_path, snap: _Snapshot):
    """The snapshot restored on an empty server, with this machine's manifest from the build."""
    _wipe(port)
    settings = Settings.load(data_dir=tmp_path / "data", chroma_host="127.0.0.1", chroma_port=port)
    client = store.open_client(settings)
    for name, metadata, records in snap.collections:
        col = client.create_collection(name, embedding_function=None, metadata=metadata,
                                       configuration={"hnsw": {"space": "cosine"}})
        col.add(ids=records["ids"], embeddings=records["embeddings"], documents=records["documents"],
                metadatas=records["metadatas"])
    store.write_pointer(client, snap.pointer)
    Path(settings.index_dir).mkdir(parents=True)
    (Path(settings.index_dir) / "manifest.json").write_text(snap.manifest)
    return settings, snap.docs, notes_folder(tmp_path / "notes")


@pytest.mark.parametrize("point", ["copied", "embedded-batch", "pointer-written"])
def test_a_killed_run_on_the_server_loses_nothing(chroma_server, snapshot, tmp_path, expected, point):
    settings, docs, notes = _server_site(chroma_server[0], tmp_path, snapshot)
    pointer = live_pointer(settings)
    assert answers(fresh_reader(settings), QUERIES) == expected["before"]  # the server answers as an embedded index

    killed = run_worker(settings, docs, notes, kill=point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    client = store.open_client(settings)
    assert store.get(client, SERVER_LOCK) is not None  # the dead writer's lock record is still there
    reader = fresh_reader(settings)
    if point == "pointer-written":  # the server's pointer moved (this machine's manifest did not): complete
        assert answers(reader, QUERIES) == expected["after"] and note_found(reader)
    else:
        assert answers(reader, QUERIES) == expected["before"] and live_pointer(settings) == pointer

    said: list[str] = []
    again = build_index(settings, [notes], docs_dir=docs, include_cards=False, progress=False, notify=said.append)
    assert any("removing a stale writer lock on the Chroma server" in m for m in said), said  # its pid is gone
    assert answers(fresh_reader(settings), QUERIES) == expected["after"] and note_found(fresh_reader(settings))
    assert again.embedded == (1 if point == "copied" else 0)  # what the killed run embedded is reused
    assert leftovers(settings) == set() and store.get(client, SERVER_LOCK) is None
    assert indexed_paths(settings) == [str(notes.resolve())]


def test_a_reader_whose_generation_was_dropped_reopens_the_new_one(chroma_server, snapshot, tmp_path):
    settings, docs, notes = _server_site(chroma_server[0], tmp_path, snapshot)
    reader = fresh_reader(settings)
    reader.server_recheck_s = 3600  # it will not look at the server's pointer on its own during this test
    assert not note_found(reader)
    assert run_worker(settings, docs, notes).returncode == 0  # another process moves the pointer, drops the old
    assert note_found(reader)  # its dropped collections are noticed on the first query and the new ones opened
    assert reader.view().lexical.generation == live_pointer(settings).generation


def test_an_emptied_server_collection_is_rebuilt_and_said_so(chroma_server, snapshot, tmp_path, expected):
    settings, docs, _ = _server_site(chroma_server[0], tmp_path, snapshot)
    col = live_collection(settings, "e5")
    col.delete(ids=col.get(include=[])["ids"])
    with pytest.raises(ConfigError, match=r"the search index lost passages \(e5: 0 of 5 passages\)"):
        fresh_reader(settings).search("显存不足")
    said: list[str] = []
    retriever = get_retriever(settings, notify=said.append, docs_dir=docs, include_cards=False)
    assert answers(retriever, QUERIES) == expected["before"]
    assert any("lost passages" in m and "rebuilding" in m for m in said)


def test_another_machines_live_lock_is_waited_for_then_reported(chroma_server, snapshot, tmp_path):
    settings, docs, notes = _server_site(chroma_server[0], tmp_path, snapshot)
    client = store.open_client(settings)
    client.create_collection(SERVER_LOCK, embedding_function=None, metadata={
        "holder": "gpu-box-7:4242:1", "host": "gpu-box-7", "pid": 4242, "started": "2026-11-30T10:00:00+00:00",
        "heartbeat": time.time()})  # a colleague's run, alive and beating
    said: list[str] = []
    with pytest.raises(ConfigError, match=r"an index run on gpu-box-7 \(pid 4242, since 2026-11-30T10:00:00\+00:00\) "
                                          r"still holds the writer lock on the Chroma server .* after 1 s"):
        build_index(settings, [notes], docs_dir=docs, include_cards=False, progress=False, notify=said.append,
                    lock_timeout=1.0)
    assert any("one writer at a time" in m and "waiting" in m for m in said)
    assert store.get(client, SERVER_LOCK).metadata["host"] == "gpu-box-7"  # a live lock is never broken
    assert indexed_paths(settings) == []


def test_a_format_1_server_index_keeps_a_colleagues_passages(chroma_server, tmp_path):
    """Before generations, a server held one collection per backend and no pointer: the first new
    run adopts those, so Alice's folder survives Bob's upgrade."""
    port, _ = chroma_server
    docs = write_corpus(tmp_path / "docs")
    team = notes_folder(tmp_path / "team")
    alice = Settings.load(data_dir=tmp_path / "alice", chroma_host="127.0.0.1", chroma_port=port)
    bob = Settings.load(data_dir=tmp_path / "bob", chroma_host="127.0.0.1", chroma_port=port)
    kw = dict(docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    build_index(alice, [team], **kw)
    client = store.open_client(alice)
    for backend, name in live_pointer(alice).collections.items():
        store.get(client, name).modify(name=store.COLLECTION_PREFIX + backend)
    store.drop(client, store.POINTER_COLLECTION)  # the old layout had none

    report = build_index(bob, **kw)
    assert (report.embedded, report.removed) == (0, 0)
    assert note_found(fresh_reader(bob))  # Alice's note, carried into the new generation
    assert leftovers(bob) == set()
