"""The index never silently loses data: crashes, lost passages, a read-only data dir, two writers, a damaged path list.

Real processes and real Chroma throughout (embedded here; the server-mode twins are in
test_chroma_server.py). A worker (`tests/index_helpers.py`) is killed with SIGKILL at each
named point of a run (`GPU_ADVISOR_TEST_KILL_AT`, knowledge/index/hooks.py): search must then
answer exactly as before, and running the same command again must finish the job and leave no
leftovers. The small corpus is built once per module; every test works on a copy of it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from index_helpers import (
    NOTE_DOC_ID,
    NOTE_QUERY,
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
from knowledge.index.hooks import KILL_POINTS
from knowledge.index.locking import WriterLock
from knowledge.index.manifest import read_manifest
from knowledge.index.service import build_index, get_retriever, indexed_paths
from knowledge.settings import Settings
from tools.errors import ConfigError

pytestmark = pytest.mark.slow

NOTE_EN = "# Team quota\n\n## Limit\n\nEach team may hold at most sixteen H100 GPUs at once; ask two weeks ahead for more.\n"


@dataclass
class Site:
    settings: Settings
    docs: Path
    notes: Path  # a folder with one Chinese note (E5 embeds it: no torch import in the worker)

    def build(self, *paths, **kw):
        kw.setdefault("notify", lambda m: None)
        return build_index(self.settings, list(paths), docs_dir=self.docs, include_cards=False, progress=False, **kw)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The small corpus (12 chunks: 7 in MiniLM, 5 Chinese ones in E5), indexed once."""
    root = tmp_path_factory.mktemp("integrity")
    docs = write_corpus(root / "docs")
    build_index(Settings.load(data_dir=root / "data"), docs_dir=docs, include_cards=False, progress=False,
                notify=lambda m: None)
    return root


@pytest.fixture(scope="module")
def expected(template, tmp_path_factory) -> dict[str, dict]:
    """What search answers before a run that adds the note, and after it (built the normal way)."""
    root = tmp_path_factory.mktemp("reference")
    shutil.copytree(template / "data", root / "data")
    return reference_answers(Settings.load(data_dir=root / "data"), template / "docs", notes_folder(root / "notes"))


@pytest.fixture
def site(template, tmp_path) -> Site:
    shutil.copytree(template / "data", tmp_path / "data")
    return Site(Settings.load(data_dir=tmp_path / "data"), template / "docs", notes_folder(tmp_path / "notes"))


def _no_debris(settings) -> None:
    """Nothing a killed run left: no stray collections, segment folders or temp files."""
    assert leftovers(settings) == set()
    assert store.remove_orphan_segments(settings) == 0
    assert not list(Path(settings.index_dir).glob(".*.tmp")) and not list(Path(settings.data_dir).glob(".*.tmp"))


# ---------------------------------------------------------------------- SIGKILL at every point


# (kill point, --rebuild): every point while adding a user's folder, and the case, a killed --rebuild
SCENARIOS = [(point, False) for point in KILL_POINTS] + [("embedded-batch", True)]


@pytest.mark.parametrize("point, rebuild", SCENARIOS, ids=[f"{p}{'-rebuild' if r else ''}" for p, r in SCENARIOS])
def test_a_killed_run_leaves_the_index_as_it_was_and_the_next_run_finishes(site, expected, point, rebuild):
    assert answers(fresh_reader(site.settings), QUERIES) == expected["before"]
    pointer = live_pointer(site.settings)

    killed = run_worker(site.settings, site.docs, site.notes, kill=point, rebuild=rebuild)
    assert killed.returncode == -signal.SIGKILL, killed.stderr  # the point was reached
    reader = fresh_reader(site.settings)
    if point == "pointer-written":  # complete when it went live: the note is in, the old generation not yet dropped
        assert answers(reader, QUERIES) == expected["after"] and note_found(reader)
        assert live_pointer(site.settings).generation == pointer.generation + 1
    else:  # the same passages as before the run, nothing half-written
        assert answers(reader, QUERIES) == expected["before"] and not note_found(reader)
        assert live_pointer(site.settings) == pointer

    said: list[str] = []
    again = site.build(site.notes, rebuild=rebuild, notify=said.append)  # the user runs the command again
    reader = fresh_reader(site.settings)
    assert answers(reader, QUERIES) == expected["after"] and note_found(reader)
    assert indexed_paths(site.settings) == [str(site.notes.resolve())]
    _no_debris(site.settings)
    if rebuild:
        assert (again.embedded, again.copied) == (13, 0)
    else:  # what the killed run embedded is reused: at most the note's one chunk is embedded again
        assert again.embedded == (0 if point in ("embedded-batch", "manifest-temp", "pointer-written") else 1)
        assert again.chunks == 13 and not again.rebuilt
    interrupted = any("interrupted index run" in m for m in said)
    assert interrupted == (point in ("collections-created", "copied", "embedded-batch", "manifest-temp"))


# ---------------------------------------------------------------------- lost passages


def _empty(settings, backend):
    col = live_collection(settings, backend)
    col.delete(ids=col.get(include=[])["ids"])


def _lose_one(settings, backend):
    col = live_collection(settings, backend)
    col.delete(ids=col.get(limit=1, include=[])["ids"])


def _drop(settings, backend):
    store.drop(store.open_client(settings), live_pointer(settings).collections[backend])


def _delete_store(settings, backend):
    shutil.rmtree(store.local_path(settings))
    store.forget_local_clients()  # what the next process sees: no Chroma folder at all


@pytest.mark.parametrize(
    "damage, backend, message",
    [
        (_empty, "e5", r"e5: 0 of 5 passages"),  # the case: Chinese store emptied, manifest intact
        (_empty, "minilm", r"minilm: 0 of 7 passages"),
        (_lose_one, "minilm", r"minilm: 6 of 7 passages"),
        (_drop, "e5", r"e5: collection gpu_advisor_chunks_e5_g\d+_\w+ is missing, 5 passages expected"),
        (_delete_store, "minilm", r"is missing"),  # `rm -rf index/chroma`, manifest left behind
    ],
    ids=["emptied-e5", "emptied-minilm", "one-lost", "collection-dropped", "store-deleted"],
)
def test_lost_passages_are_never_an_empty_index(site, damage, backend, message):
    before = answers(fresh_reader(site.settings), QUERIES)
    damage(site.settings, backend)
    # a reader that may not repair refuses to answer from a partial index ("no passages found" was the bug)
    with pytest.raises(ConfigError, match=rf"the search index lost passages \(.*{message}.*\); run `gpu-advisor index"):
        fresh_reader(site.settings).search(QUERIES[0])
    said: list[str] = []
    retriever = get_retriever(site.settings, notify=said.append, docs_dir=site.docs, include_cards=False)
    assert answers(retriever, QUERIES) == before  # rebuilt
    assert any(m.startswith("index: the search index lost passages") and "rebuilding it" in m for m in said), said
    assert fresh_reader(site.settings).search(QUERIES[0]).hits  # and the repair is on disk
    _no_debris(site.settings)


def test_the_indexer_says_what_it_repairs(site):
    _empty(site.settings, "e5")
    report = site.build()
    assert report.rebuilt and report.embedded == 5 and report.copied == 0  # minilm's collection is kept as it is
    assert any("the e5 collection holds 0 of 5 passages" in n for n in report.notices)


# ---------------------------------------------------------------------- copy, don't re-embed; no-change writes nothing


def test_unchanged_vectors_are_copied_and_a_no_change_run_writes_nothing(site, tmp_path):
    old = live_pointer(site.settings)
    english = notes_folder(tmp_path / "en-notes", "quota.md", NOTE_EN)
    report = site.build(english)
    new = live_pointer(site.settings)
    assert (report.embedded, report.copied, report.chunks) == (1, 7, 13)  # one new chunk; MiniLM's 7 copied
    assert new.generation == old.generation + 1
    assert new.collections["e5"] == old.collections["e5"] and new.collections["minilm"] != old.collections["minilm"]
    manifest = Path(site.settings.index_dir) / "manifest.json"
    stamp = (manifest.read_bytes(), manifest.stat().st_mtime_ns)
    again = site.build()
    assert (again.embedded, again.copied, again.removed, again.files_read) == (0, 0, 0, 0)
    assert (manifest.read_bytes(), manifest.stat().st_mtime_ns) == stamp  # readers have nothing to reload
    _no_debris(site.settings)


# ---------------------------------------------------------------------- two writers, readers meanwhile


def _collect(stream, lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


def test_two_writers_at_once_both_finish_and_keep_both_folders(site, tmp_path):
    reader = fresh_reader(site.settings)
    before = answers(reader, QUERIES)
    first_generation = reader.view().lexical.generation
    a = notes_folder(tmp_path / "team-a")
    b = notes_folder(tmp_path / "team-b", "gpu-days.zh.md", "# 机时\n\n## 周末\n\n周末的训练任务优先使用竞价实例并每半小时保存检查点。\n")
    lock = WriterLock(site.settings, notify=lambda m: None)
    with lock:  # a third writer (this test) holds the lock: both workers must wait, deterministically
        procs = [run_worker(site.settings, site.docs, folder, background=True) for folder in (a, b)]
        errs: list[list[str]] = [[], []]
        threads = [threading.Thread(target=_collect, args=(p.stderr, e), daemon=True) for p, e in zip(procs, errs)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while not all(any("waiting for it to finish" in line for line in e) for e in errs):
            assert time.monotonic() < deadline, errs
            assert all(p.poll() is None for p in procs), errs  # neither may fail instead of waiting
            time.sleep(0.1)
        assert answers(reader, QUERIES) == before  # readers take no lock: they keep answering
    seen: list[BaseException] = []

    def keep_reading():  # while the two write one after the other, every answer is a complete one
        try:
            while any(p.poll() is None for p in procs):
                assert reader.search(QUERIES[1], k=3).hits[0].doc_id == "vram"
                time.sleep(0.05)  # leave the writers the CPU
        except BaseException as err:  # surfaced below
            seen.append(err)

    watcher = threading.Thread(target=keep_reading)
    watcher.start()
    for p in procs:
        p.wait(timeout=120)
    watcher.join()
    for t in threads:
        t.join()
    assert [p.returncode for p in procs] == [0, 0], errs
    assert not any("Traceback" in line for e in errs for line in e)
    assert not seen, seen
    expected = sorted(str(f.resolve()) for f in (a, b))
    assert indexed_paths(site.settings) == expected
    assert sorted(read_manifest(site.settings.index_dir).user_paths) == expected  # no folder dropped
    hits = {h.source for h in reader.search("团队配额 周末 竞价实例 检查点 机时", k=10).hits}
    assert {str((a / "quota.zh.md").resolve()), str((b / "gpu-days.zh.md").resolve())} <= hits
    # the running reader moved to the new generation, BM25 included
    assert reader.view().lexical.generation == live_pointer(site.settings).generation == first_generation + 2
    _no_debris(site.settings)


def test_a_writer_that_cannot_get_the_lock_says_who_holds_it(site):
    said: list[str] = []
    with WriterLock(site.settings, notify=lambda m: None):
        with pytest.raises(ConfigError, match=rf"another index run \(pid {os.getpid()}, since .+\) still holds "
                                              r".*index\.lock after 0 s; try again when it has finished"):
            site.build(site.notes, lock_timeout=0.3, notify=said.append)
    assert len(said) == 1 and said[0].startswith(f"index: another index run (pid {os.getpid()}") and "waiting" in said[0]
    assert indexed_paths(site.settings) == []  # nothing was changed by the run that gave up


# ---------------------------------------------------------------------- a damaged list of the user's paths


@pytest.mark.parametrize(
    "damage, origin",
    [
        (lambda d: (d / "indexed_paths.json").write_text("{ not json"), "indexed_paths.json.bak"),
        (lambda d: [(d / n).write_text("\x00") for n in ("indexed_paths.json", "indexed_paths.json.bak")], "manifest.json"),
        (lambda d: (d / "indexed_paths.json").unlink(), "indexed_paths.json.bak"),
    ],
    ids=["damaged", "damaged-with-its-backup", "deleted"],
)
def test_a_damaged_path_list_never_drops_the_users_notes(site, damage, origin):
    site.build(site.notes)
    data = Path(site.settings.data_dir)
    damage(data)
    report = site.build()
    assert any(f"restored 1 path(s) from" in w and origin in w and str(site.notes.resolve()) in w
               for w in report.warnings), report.warnings
    assert report.removed == 0 and report.chunks == 13 and note_found(fresh_reader(site.settings))
    assert indexed_paths(site.settings) == [str(site.notes.resolve())]
    assert site.build().warnings == []  # repaired on disk


# ---------------------------------------------------------------------- a read-only data dir


def _readonly_mode() -> str | None:
    if os.geteuid() != 0:
        return "chmod"
    if shutil.which("unshare") is None:
        return None
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            'd=$(mktemp -d) && mount --bind "$d" "$d" && mount -o remount,ro,bind "$d"'],
                           capture_output=True)
    return "mount" if probe.returncode == 0 else None  # root ignores chmod: a read-only bind mount instead


def _cli_readonly(mode: str, data: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_ADVISOR_DATA_DIR": str(data)}
    cmd = [sys.executable, "-m", "ui.cli", *argv]
    if mode == "mount":  # a private mount namespace: the read-only view exists only for this command
        cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"', "sh", str(data), *cmd]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1])


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def test_a_read_only_data_dir_is_searched_and_never_deleted(site):
    mode = _readonly_mode()
    if mode is None:
        pytest.skip("cannot make a read-only folder here: running as root without mount namespaces")
    site.build(site.notes)
    data = Path(site.settings.data_dir)
    expected = [h.chunk_id for h in fresh_reader(site.settings).search(NOTE_QUERY, k=3).hits]
    snapshot = _snapshot(data)
    if mode == "chmod":
        for p in [data, *data.rglob("*")]:
            p.chmod(p.stat().st_mode & ~0o222)
    try:
        found = _cli_readonly(mode, data, "search", NOTE_QUERY, "--k", "3", "--json")
        listed = _cli_readonly(mode, data, "index", "--list")
        index = _cli_readonly(mode, data, "index", str(site.notes))
    finally:
        if mode == "chmod":
            for p in [data, *data.rglob("*")]:
                p.chmod(p.stat().st_mode | 0o200)
    assert found.returncode == 0, found.stderr
    assert [h["doc_id"] for h in json.loads(found.stdout)["hits"]][0] == NOTE_DOC_ID
    assert len(json.loads(found.stdout)["hits"]) == len(expected)
    assert found.stderr.strip().splitlines() == [
        f"index: {data / 'index' / 'chroma'} is read-only; searching a private copy of it "
        "(updating the index needs write access)"
    ]
    assert listed.returncode == 0 and listed.stdout.strip() == str(site.notes.resolve()), listed.stderr
    assert index.returncode == 2 and "Traceback" not in index.stderr
    (line,) = index.stderr.strip().splitlines()
    assert line.startswith(f"gpu-advisor: error: cannot write the index at {data}") and "GPU_ADVISOR_DATA_DIR" in line
    assert _snapshot(data) == snapshot  # nothing deleted, nothing written


# ---------------------------------------------------------------------- upgrading a format-1 index


def test_a_format_1_index_is_upgraded_without_re_embedding(site):
    """Format 1 kept one unversioned collection per backend; its vectors are copied, then it is dropped."""
    before = answers(fresh_reader(site.settings), QUERIES)
    client = store.open_client(site.settings)
    for backend, name in live_pointer(site.settings).collections.items():
        store.get(client, name).modify(name=store.COLLECTION_PREFIX + backend)  # the old layout's names
    manifest = Path(site.settings.index_dir) / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"format_version": 2', '"format_version": 1'))
    said: list[str] = []
    retriever = get_retriever(site.settings, notify=said.append, docs_dir=site.docs, include_cards=False)
    assert answers(retriever, QUERIES) == before
    assert any("index format 1 differs from this version's 2" in m for m in said), said
    assert {s.name for s in store.list_ours(client)} == set(live_pointer(site.settings).collections.values())
    assert site.build().embedded == 0
