"""Errors split by audience (see STYLE.md §6).

* `InputError`: the user asked for something impossible or unknown. The CLI
  prints its message as one line and exits 2; tools return it to the brain.
* `ConfigError`: a developer or operator misconfigured something (bad catalog
  file, bad env var). Also one line, naming file/row/field.
* `RetryableError`: the model (LLM) called a tool wrongly and should retry.

An `InputError` raised by a calculator or a catalog lookup carries a `note`
(an `ErrorCode` and its params, e.g. an unknown model with the closest names),
so a chat can say it in the user's language; its `str()` is the English CLI
form of that note (it may name flags: "Use --mode lora for a 16-bit base"),
for the CLI and logs. `error_note(err)` finds the note, also inside a pydantic
`ValidationError` raised by a request model's validator.

Convert them to exit codes or chat messages only at the edges (ui/).
"""

from __future__ import annotations



from pydantic import ValidationError

from tools.notes import Note, NoteCode



class ErrorCode(NoteCode):
    """Errors that reach users: what is wrong and how to fix it."""

    unknown_name = "error.unknown_name"  # kind (name_kind term), name, suggestions: [names]
    qlora_precision = "error.qlora_precision"  # precision
    tp_pp_over_gpus = "error.tp_pp_over_gpus"  # tp_pp, gpus
    gpus_not_multiple = "error.gpus_not_multiple"  # gpus, tp_pp
    full_needs_16bit = "error.full_needs_16bit"  # mode, precision
    offload_inference = "error.offload_inference"
    offload_needs_sharding = "error.offload_needs_sharding"
    no_peak = "error.no_peak"  # precision, gpu, available (the precisions the catalog has a peak for)
    deadline_positive = "error.deadline_positive"
    deadline_too_many = "error.deadline_too_many"  # deadline_hours, max_gpus, gpu
    no_workload = "error.no_workload"
    job_budget_needs_tokens = "error.job_budget_needs_tokens"
    deadline_needs_tokens = "error.deadline_needs_tokens"
    job_budget_needs_training = "error.job_budget_needs_training"
    params_not_positive = "error.params_not_positive"  # value (as given)
    field_needs = "error.field_needs"  # field, needs: a request field that means nothing without another setting


def _render_en(note: Note) -> str:
    from tools.messages import render  # lazy: the catalog imports tools.notes, not this module

    return render(note, "en", surface="cli")


class AdvisorError(Exception):
    """Base of every error we raise on purpose."""


class InputError(AdvisorError, ValueError):
    """Bad user input. `message` is a Note (calculators) or, at the edges, an English line."""

    def __init__(self, message: "str | Note", *, suggestions: list[str] | None = None):
        self.suggestions = list(suggestions or [])
        self.note: Note | None = message if isinstance(message, Note) else None
        if self.note is not None:
            text = _render_en(self.note)
        else:
            text = str(message)
            if self.suggestions:
                text = f"{text} Did you mean: {', '.join(self.suggestions)}?"
        super().__init__(text)


class UnknownNameError(InputError):
    """An unknown GPU / model / provider / instance name, with the closest known ones."""

    def __init__(self, kind: str, name: str, suggestions: list[str]):
        self.kind = kind
        self.name = name
        super().__init__(Note.of(ErrorCode.unknown_name, kind=kind, name=name, suggestions=list(suggestions)))
        self.suggestions = list(suggestions)


class ConfigError(AdvisorError):
    pass


class RetryableError(AdvisorError):
    pass


def error_note(err: BaseException) -> Note | None:
    """The note behind an error: an InputError's own, or the first one inside a ValidationError."""
    if isinstance(err, InputError):
        return err.note
    if isinstance(err, ValidationError):
        for e in err.errors():
            cause = (e.get("ctx") or {}).get("error")
            if isinstance(cause, InputError) and cause.note is not None:
                return cause.note
    return None


def flatten_validation_error(err: ValidationError, prefix: str = "") -> str:
    """One readable line per field: `batch_size: Input should be greater than 0`."""
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "input"
        parts.append(f"{prefix}{loc}: {e['msg']}")
    return "; ".join(parts)
