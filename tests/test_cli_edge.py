"""The CLI's edge (ui/cli.py run_command): whatever a command raises becomes one line on stderr and an exit status —
never a traceback (guide: bad input gets a clear error; a bug, too, reaches the user as one line)."""

from __future__ import annotations

import argparse

import pytest

from tools.errors import InputError
from ui.cli import EXIT_INTERNAL, EXIT_USAGE, run_command


def _raising(exc: BaseException):
    def command(args: argparse.Namespace) -> int:
        raise exc

    return command


@pytest.mark.parametrize("exc, status, words", [
    (TypeError("float() argument must be a string or a real number, not 'NoneType'"), EXIT_INTERNAL, "internal error (TypeError"),
    (KeyError("options"), EXIT_INTERNAL, "internal error (KeyError"),
    (InputError("Give a workload."), EXIT_USAGE, "error: Give a workload."),
])
def test_a_failure_is_one_line_and_a_status(capsys, monkeypatch, exc, status, words):
    monkeypatch.delenv("GPU_ADVISOR_DEBUG", raising=False)
    assert run_command(_raising(exc), argparse.Namespace()) == status
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_DEBUG", "1")
    with pytest.raises(TypeError):
        run_command(_raising(TypeError("boom")), argparse.Namespace())


def test_a_command_that_succeeds_returns_its_status():
    assert run_command(lambda args: None, argparse.Namespace()) == 0
    assert run_command(lambda args: 3, argparse.Namespace()) == 3
