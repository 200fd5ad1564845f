"""Test hook: kill the indexer at a named point, to prove a crash anywhere loses nothing.

`GPU_ADVISOR_TEST_KILL_AT=<point>` makes an index run send itself SIGKILL when
it reaches that point: no cleanup handler, no `finally`, no flush runs, exactly
as when the machine loses power or the OOM killer strikes. Nothing reads the
variable unless it is set; it is not a setting and not for users.
tests/test_index_integrity.py runs every point below in a real process against
real Chroma and checks that search answers as before and the next run repairs.
"""

from __future__ import annotations

import os
import signal

KILL_ENV = "GPU_ADVISOR_TEST_KILL_AT"

# In the order a run reaches them.
KILL_POINTS = (
    "locked",  # the writer lock is held, nothing read or written yet
    "paths-written",  # indexed_paths.json has the new path, the index does not have it yet
    "collections-created",  # the new generation's collections exist, empty
    "copied",  # unchanged vectors copied into the new generation, nothing embedded yet
    "embedded-batch",  # the first batch of new vectors is written
    "manifest-temp",  # the new manifest is on disk under its temporary name, not yet renamed
    "pointer-written",  # the new generation is live (pointer written); old collections not yet dropped
)


def kill_point(name: str) -> None:
    """SIGKILL this process when GPU_ADVISOR_TEST_KILL_AT names `name` (a no-op otherwise)."""
    if os.environ.get(KILL_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
