"""Typed notes: what the calculators say, as codes and parameters instead of sentences.

A `Note` is a reason, rejection, assumption, caveat or breakdown label: a code
(a dotted string from one of the domain enums, e.g. ``"host.thin"``) plus
parameters whose names carry their units (``vcpu_per_gpu``, ``needed_gib``,
``price_per_hour`` with a ``currency``). A `Change` is a suggestion the user can
act on (use QLoRA, add GPUs, shorten the context, widen the region). The CLI
renders a `Change` as flags, the chat as advice; both render a `Note` through
`tools.messages.render(note, lang)`. Calculators never render, and nobody
parses rendered text: read the code and the parameters.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType

# A parameter is a plain JSON value: numbers with units in the parameter's name,
# strings that are names, ids or enum values (never sentences), lists of those,
# or nested notes (a rejection's cause, a suggestion's outcome).
Param = TypeAliasType("Param", 'Union[None, bool, int, float, str, list["Param"], "Note"]')


class Note(BaseModel):
    """A code and its parameters. `params` values are numbers, names/ids/enum values, lists, or Notes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(description="dotted message code, e.g. 'host.thin'; rendered by tools.messages")
    params: dict[str, Param] = Field(default_factory=dict)

    @classmethod
    def of(cls, code: "str | Enum", **params: Any) -> "Note":
        return cls(code=code.value if isinstance(code, Enum) else code, params=params)

    def __hash__(self) -> int:  # frozen models with dict fields are not hashable by default
        return hash((self.code, repr(sorted(self.params.items(), key=lambda kv: kv[0]))))


class ChangeKind(str, Enum):
    """Something the user can change; the CLI shows it as flags, the chat as advice."""

    set_mode = "set_mode"  # value: Mode value
    set_precision = "set_precision"  # value: Precision value (weights)
    set_weights = "set_weights"  # value: serving WeightFormat value
    set_kv_precision = "set_kv_precision"  # value: fp8 …
    set_checkpointing = "set_checkpointing"  # value: Checkpointing value
    set_batch_size = "set_batch_size"  # value: int
    set_max_gpus = "set_max_gpus"  # value: int
    set_gpus = "set_gpus"  # value: int (GPUs for the job)
    shorten_context = "shorten_context"  # value: int (tokens)
    widen_region = "widen_region"  # value: RegionScope value
    drop_providers = "drop_providers"  # value: None
    drop_gpu_filter = "drop_gpu_filter"  # value: None
    drop_billing = "drop_billing"  # value: None
    set_billing = "set_billing"  # value: Billing value
    raise_budget = "raise_budget"  # value: amount in the request's currency
    lower_concurrency = "lower_concurrency"  # value: int
    set_engine = "set_engine"  # value: serving engine


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ChangeKind
    value: Union[None, bool, int, float, str] = None
    currency: str | None = Field(default=None, description="for money values (raise_budget)")


class Suggestion(BaseModel):
    """A verified "what would work": the change, and what the re-run found (a Note with numbers)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    change: Change | None = Field(description="None: no single change helps (see the outcome note)")
    outcome: Note


Note.model_rebuild()
