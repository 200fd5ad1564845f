"""Errors split by audience (see STYLE.md §6).

* `InputError`: the user asked for something impossible or unknown. The CLI
  prints its message as one line and exits 2; tools return it to the brain.
* `ConfigError`: a developer or operator misconfigured something (bad catalog
  file, bad env var). Also one line, naming file/row/field.
* `RetryableError`: the model (LLM) called a tool wrongly and should retry.

Convert them to exit codes or chat messages only at the edges (ui/).
"""

from __future__ import annotations

from pydantic import ValidationError


class AdvisorError(Exception):
    """Base of every error we raise on purpose."""


class InputError(AdvisorError, ValueError):
    def __init__(self, message: str, *, suggestions: list[str] | None = None):
        self.suggestions = list(suggestions or [])
        if self.suggestions:
            message = f"{message} Did you mean: {', '.join(self.suggestions)}?"
        super().__init__(message)


class UnknownNameError(InputError):
    """An unknown GPU / model / provider / instance name, with the closest known ones."""

    def __init__(self, kind: str, name: str, suggestions: list[str]):
        self.kind = kind
        self.name = name
        super().__init__(f"Unknown {kind} '{name}'.", suggestions=suggestions)


class ConfigError(AdvisorError):
    pass


class RetryableError(AdvisorError):
    pass


def flatten_validation_error(err: ValidationError, prefix: str = "") -> str:
    """One readable line per field: `batch_size: Input should be greater than 0`."""
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "input"
        parts.append(f"{prefix}{loc}: {e['msg']}")
    return "; ".join(parts)
