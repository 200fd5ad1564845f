"""Server mode: index into and search a real `chroma run` server that this test starts and stops."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from index_helpers import write_corpus
from knowledge.index import store
from knowledge.index.service import build_index, get_retriever
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


def test_index_and_search_through_the_server(chroma_server, tmp_path):
    port, server_path = chroma_server
    settings = Settings.load(data_dir=tmp_path / "data", chroma_host="127.0.0.1", chroma_port=port)
    docs = write_corpus(tmp_path / "docs")
    report = build_index(settings, docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    assert report.embedded == 12 and "127.0.0.1" in report.location
    assert not (Path(settings.index_dir) / "chroma").exists()  # nothing embedded locally

    # the vectors live on the server
    client = store.open_client(settings)
    names = {c.name for c in client.list_collections()}
    assert store.COLLECTION_PREFIX + "minilm" in names
    assert store.collection(client, "minilm").count() >= 5

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
