"""One index writer at a time, and a clear refusal when the index cannot be written.

* Embedded: an OS file lock on `<data_dir>/index.lock` (filelock). The OS drops
  it when the holder exits or is killed, so a crashed run never blocks the next.
  Who holds it is written beside it (`index.lock.json`) for the waiting message.
* Chroma server: the same local lock, plus a lock record on the server: the
  `gpu_advisor_writer_lock` collection, created exclusively (creating a name
  that exists fails), whose metadata names the holder and a heartbeat the
  holder refreshes while it writes. A server index is single-writer: another
  machine's run waits for the record to go. A record whose holder stopped
  beating for `SERVER_LOCK_STALE_S`, or whose process on this machine is gone,
  is stale and removed (and said so).
Readers take no lock: they read the last complete generation (see store.py).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import time
from pathlib import Path
from typing import Callable

from tools.errors import ConfigError

LOCK_NAME = "index.lock"
LOCK_WAIT_S = 900.0  # a full first build takes about a minute on 2 cores; a slow machine, several
SERVER_LOCK = "gpu_advisor_writer_lock"
SERVER_LOCK_STALE_S = 600.0  # no heartbeat for this long: the holder is gone
HEARTBEAT_S = 20.0
POLL_S = 0.5

Notify = Callable[[str], None]


def _holder() -> dict:
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "started": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's live process
    return True


def _writable_message(target: Path, err: OSError) -> str:
    return (f"cannot write the index at {target} ({err.strerror or err.__class__.__name__}): make it writable, or set "
            "GPU_ADVISOR_DATA_DIR to a folder you can write; searching a read-only index still works")


def ensure_writable(settings) -> None:
    """ConfigError naming the first folder or file of the index this process cannot write. Deletes nothing."""
    from knowledge.index.manifest import MANIFEST_NAME
    from knowledge.index.paths import PATHS_BACKUP_SUFFIX, PATHS_NAME

    data_dir = Path(settings.data_dir)
    index_dir = Path(settings.index_dir)
    folders = {data_dir: [PATHS_NAME, PATHS_NAME + PATHS_BACKUP_SUFFIX, LOCK_NAME, LOCK_NAME + ".json"],
               index_dir: [MANIFEST_NAME]}
    if not getattr(settings, "chroma_host", None):
        folders[index_dir / "chroma"] = ["chroma.sqlite3"]
    for folder, names in folders.items():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ConfigError(_writable_message(folder, err)) from None
        probe = folder / f".write-probe.{os.getpid()}.tmp"  # a killed run's is removed by the next one
        try:
            with open(probe, "w"):
                pass
            probe.unlink()
        except OSError as err:
            raise ConfigError(_writable_message(folder, err)) from None
        for name in names:
            if (folder / name).is_file():
                try:
                    with open(folder / name, "ab"):  # opens for writing, changes nothing
                        pass
                except OSError as err:
                    raise ConfigError(_writable_message(folder / name, err)) from None


class WriterLock:
    """`with WriterLock(settings, notify):` — waits (saying so) while another run writes, up to `timeout` s."""

    def __init__(self, settings, notify: Notify, timeout: float = LOCK_WAIT_S):
        self.settings = settings
        self.notify = notify
        self.timeout = timeout
        self.path = Path(settings.data_dir) / LOCK_NAME
        self.info_path = self.path.with_name(LOCK_NAME + ".json")
        self._file = None
        self._server = None  # (client, holder token) while held
        self._beat = 0.0

    # ------------------------------------------------------------------ local
    def __enter__(self) -> "WriterLock":
        from filelock import FileLock, Timeout

        deadline = time.monotonic() + self.timeout
        self._file = FileLock(str(self.path), thread_local=False)
        try:
            self._file.acquire(timeout=0)
        except Timeout:
            self.notify(f"index: {self._describe_local()} is updating the index; waiting for it to finish…")
            try:
                self._file.acquire(timeout=max(0.0, deadline - time.monotonic()), poll_interval=POLL_S)
            except Timeout:
                raise ConfigError(f"{self._describe_local()} still holds {self.path} after {self.timeout:.0f} s; "
                                  "try again when it has finished") from None
        except OSError as err:
            raise ConfigError(_writable_message(self.path, err)) from None
        try:
            self.info_path.write_text(json.dumps(_holder()), encoding="utf-8")
            if getattr(self.settings, "chroma_host", None):
                self._acquire_server(deadline)
        except BaseException:
            self._file.release()
            raise
        return self

    def _describe_local(self) -> str:
        try:
            info = json.loads(self.info_path.read_text(encoding="utf-8"))
            return f"another index run (pid {info['pid']}, since {info['started']})"
        except (OSError, ValueError, KeyError, TypeError):
            return "another index run"

    def __exit__(self, *exc) -> None:
        try:
            self._release_server()
        finally:
            if self._file is not None:
                self._file.release()
                self._file = None

    # ------------------------------------------------------------------ server
    def _acquire_server(self, deadline: float) -> None:
        from knowledge.index import store

        client = store.open_client(self.settings)
        token = f"{socket.gethostname()}:{os.getpid()}:{time.time_ns()}"
        said = False
        while True:
            meta = {**_holder(), "holder": token, "heartbeat": time.time()}
            try:
                client.create_collection(SERVER_LOCK, embedding_function=None, metadata=meta)
                self._server = (client, token)
                self._beat = time.monotonic()
                return
            except Exception as err:  # it exists (or a concurrent create won): look at who holds it
                failure = err
            held = store.get(client, SERVER_LOCK)
            if held is None:  # released meanwhile, or the server refuses to create it
                if time.monotonic() > deadline:
                    raise ConfigError(f"cannot take the writer lock on the Chroma server ({failure.__class__.__name__}: "
                                      f"{str(failure)[:120]})")
                time.sleep(0.1)
                continue
            info = dict(held.metadata or {})
            if self._stale(info):
                self.notify(f"index: removing a stale writer lock on the Chroma server ({self._who(info)})")
                again = store.get(client, SERVER_LOCK)
                if again is not None and (again.metadata or {}).get("holder") == info.get("holder"):
                    store.drop(client, SERVER_LOCK)
                continue
            if not said:
                self.notify(f"index: {self._who(info)} is writing the index on the Chroma server (one writer at a "
                            "time); waiting for it to finish…")
                said = True
            if time.monotonic() > deadline:
                raise ConfigError(f"{self._who(info)} still holds the writer lock on the Chroma server "
                                  f"{self.settings.chroma_host}:{self.settings.chroma_port} after {self.timeout:.0f} s; "
                                  "try again when it has finished")
            time.sleep(POLL_S)

    @staticmethod
    def _who(info: dict) -> str:
        return f"an index run on {info.get('host', '?')} (pid {info.get('pid', '?')}, since {info.get('started', '?')})"

    @staticmethod
    def _stale(info: dict) -> bool:
        try:
            beat = float(info.get("heartbeat", 0))
        except (TypeError, ValueError):
            beat = 0.0
        if time.time() - beat > SERVER_LOCK_STALE_S:
            return True
        if info.get("host") == socket.gethostname():
            try:
                return not _alive(int(info.get("pid")))
            except (TypeError, ValueError):
                return True
        return False

    def heartbeat(self) -> None:
        """Server mode: tell other machines this run is alive (cheap; rate-limited)."""
        if self._server is None or time.monotonic() - self._beat < HEARTBEAT_S:
            return
        from knowledge.index import store

        client, token = self._server
        held = store.get(client, SERVER_LOCK)
        if held is not None and (held.metadata or {}).get("holder") == token:
            held.modify(metadata={**(held.metadata or {}), "heartbeat": time.time()})
        self._beat = time.monotonic()

    def _release_server(self) -> None:
        if self._server is None:
            return
        from knowledge.index import store

        client, token = self._server
        self._server = None
        try:
            held = store.get(client, SERVER_LOCK)
            if held is not None and (held.metadata or {}).get("holder") == token:
                store.drop(client, SERVER_LOCK)
        except Exception:
            pass  # the server went away: the record turns stale and the next writer removes it
