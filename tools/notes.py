"""Typed notes: what the calculators say, as codes and parameters instead of sentences.

A `Note` is a reason, rejection, assumption, caveat or label: a code (a dotted
string from one of the domain enums, e.g. ``"host.thin"``) plus parameters whose
names carry their units (``vcpu_per_gpu``, ``needed_gib``, ``price_per_hour``
with a ``currency``). A `Change` is a suggestion the user can act on (use QLoRA,
add GPUs, shorten the context, widen the region). The CLI renders a `Change` as
flags, the chat as advice; both render a `Note` through
`tools.messages.render(note, lang)`. Calculators never render, and nobody parses
rendered text: read the code and the parameters.

Every domain defines its codes as a `NoteCode` enum next to its calculator
(`VramCode` in tools/vram_codes.py, `RecommendCode` in tools/recommend_codes.py …);
`NoteCode.__subclasses__()` is how the catalog test finds them all.

Serialising with a language in the context adds the rendered text, which is what
``--json`` prints::

    est.model_dump(mode="json", context={"lang": "zh"})
    # every note  -> {"code", "params", "text"}
    # every change -> {"kind", "value", "currency", "text" (advice), "flags" (CLI)}
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, SerializationInfo, SerializerFunctionWrapHandler, model_serializer
from typing_extensions import TypeAliasType

# A parameter is a plain JSON value: numbers with units in the parameter's name,
# strings that are names, ids or enum values (never sentences), lists of those,
# or nested notes (a rejection's cause, a suggestion's outcome).
Param = TypeAliasType("Param", 'Union[None, bool, int, float, str, list["Param"], "Note"]')


class NoteCode(str, Enum):
    """Base of every domain's code enum; a member's value is the dotted message code."""

    def __str__(self) -> str:  # f"{code}" is the code, not 'VramCode.x'
        return self.value


def _lang(info: SerializationInfo) -> str | None:
    ctx = info.context
    lang = ctx.get("lang") if isinstance(ctx, dict) else None
    return lang if lang in ("en", "zh") else None


class Note(BaseModel):
    """A code and its parameters. `params` values are numbers, names/ids/enum values, lists, or Notes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(description="dotted message code, e.g. 'host.thin'; rendered by tools.messages")
    params: dict[str, Param] = Field(default_factory=dict)

    @classmethod
    def of(cls, code: "str | Enum", **params: Any) -> "Note":
        """A note from a code enum member and keyword params (enum-valued params are stored as their values)."""
        return cls(code=code.value if isinstance(code, Enum) else code, params={k: _plain(v) for k, v in params.items()})

    def without(self, *names: str) -> "Note":
        """The same note with some params left out (a layout without the reason behind it)."""
        return Note(code=self.code, params={k: v for k, v in self.params.items() if k not in names})

    def __hash__(self) -> int:  # frozen models with dict fields are not hashable by default
        return hash((self.code, repr(sorted(self.params.items(), key=lambda kv: kv[0]))))

    @model_serializer(mode="wrap")
    def _serialise(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        data = handler(self)
        lang = _lang(info)
        if lang and isinstance(data, dict):
            from tools.messages import render  # lazy: the catalog imports this module

            data["text"] = render(self, lang)
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


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

    @classmethod
    def of(cls, kind: ChangeKind, value: Any = None, currency: Any = None) -> "Change":
        return cls(kind=kind, value=_plain(value), currency=_plain(currency))

    def as_note(self) -> Note:
        """The change as a note (code ``change.<kind>``), for lists of what was tried."""
        return Note(code=f"change.{self.kind.value}", params={"value": self.value, "currency": self.currency})

    @model_serializer(mode="wrap")
    def _serialise(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        data = handler(self)
        lang = _lang(info)
        if lang and isinstance(data, dict):
            from tools.messages import render_change

            data["text"] = render_change(self, lang, surface="chat")
            data["flags"] = render_change(self, lang, surface="cli")
        return data


class Suggestion(BaseModel):
    """A verified "what would work": the change, and what the re-run found (a Note with numbers)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    change: Change | None = Field(description="None: no single change helps (see the outcome note)")
    outcome: Note


Note.model_rebuild()
