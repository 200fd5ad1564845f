"""Golden Q&A files: the format, and a loader that rejects anything it does not understand.

A golden file is a YAML list of items (issue 6 §1; other teams write files in
this format, so it stays exactly so):

    - id: finetune-13b-cny
      lang: en                       # en | zh
      category: recommendation       # free text, groups the report
      turns: ["I want to fine-tune LLaMA-13B.", "What should I rent under ¥20k/month?"]
      expect:                        # every key optional
        tools: [recommend]
        numbers: [{about: LoRA memory, value: 30, unit: GB, rel_tol: 0.35}]
        mentions_any: [[LoRA, QLoRA]]
        mentions_none: ["8x H100"]
        first_sentence_any: [Yes, fits]  # the first sentence answers (feasibility items)
        gpus_any: [A100, L40S]
        max_monthly_cost: {value: 20000, currency: CNY}
        sources_any: [billing-modes]
        answer_lang: en

Validation is strict (pydantic, extra="forbid"): an unknown key, a wrong type,
an unknown unit or a duplicate id stops the whole run before any question is
asked, with one error naming the file, the item and the field.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any, Iterable, Literal, Sequence

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from rapidfuzz import process

from assistant.evaluation.units import KNOWN_UNITS, parse_unit
from tools.errors import InputError

BUILTIN_DIR = Path(__file__).with_name("golden")

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)


def _non_empty(values: Iterable[str], what: str) -> None:
    for v in values:
        if not v.strip():
            raise ValueError(f"{what} must not be empty strings")


class NumberExpect(_Strict):
    """A number with this unit must appear in the answer within `rel_tol` (a fraction)."""

    about: str | None = Field(default=None, description="what the number is, for the report")
    value: float = Field(gt=0)
    unit: str
    rel_tol: float = Field(default=0.10, gt=0, le=1)

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, unit: str) -> str:
        if parse_unit(unit) is None:
            raise ValueError(f"unknown unit {unit!r}; known: {', '.join(KNOWN_UNITS)}")
        return unit

    def describe(self) -> str:
        about = f" ({self.about})" if self.about else ""
        return f"≈{self.value:g} {self.unit} ±{self.rel_tol * 100:.0f} %{about}"


class MoneyLimit(_Strict):
    value: float = Field(gt=0)
    currency: Literal["CNY", "USD"]


class Expect(_Strict):
    tools: list[str] = Field(default_factory=list)
    numbers: list[NumberExpect] = Field(default_factory=list)
    mentions_any: list[list[str]] = Field(default_factory=list)
    mentions_none: list[str] = Field(default_factory=list)
    first_sentence_any: list[str] = Field(
        default_factory=list,
        description="the answer's first sentence mentions one of these (case-insensitive, '*' removed; a Latin "
        "alternative matches as a whole word, so 'No' does not match 'Note')",
    )
    gpus_any: list[str] = Field(default_factory=list)
    max_monthly_cost: MoneyLimit | None = None
    sources_any: list[str] = Field(default_factory=list)
    answer_lang: Literal["en", "zh"] | None = None

    @field_validator("tools", "mentions_none", "first_sentence_any", "gpus_any", "sources_any")
    @classmethod
    def _strings(cls, values: list[str]) -> list[str]:
        _non_empty(values, "entries")
        return values

    @field_validator("mentions_any", mode="before")
    @classmethod
    def _groups(cls, groups: Any) -> Any:
        if isinstance(groups, list):
            for g in groups:
                if not isinstance(g, list):
                    raise ValueError(
                        "each entry is a list of alternatives, e.g. [[LoRA, QLoRA], [A100]]; "
                        f"got {g!r}"
                    )
                if not g:
                    raise ValueError("an empty group can never match; remove it")
        return groups

    @field_validator("mentions_any")
    @classmethod
    def _group_strings(cls, groups: list[list[str]]) -> list[list[str]]:
        for g in groups:
            _non_empty(g, "alternatives")
        return groups

    @property
    def check_names(self) -> list[str]:
        """The checks this item asks for, in a stable order."""
        return [name for name in Expect.model_fields if getattr(self, name) not in (None, [])]


class GoldenItem(_Strict):
    id: str
    lang: Literal["en", "zh"]
    category: str = Field(min_length=1)
    turns: list[str] = Field(min_length=1)
    expect: Expect = Field(default_factory=Expect)
    source_file: str = Field(default="", exclude=True, description="set by the loader, not in files")

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError("use letters, digits and - _ . : only (no spaces), e.g. finetune-13b-cny")
        return value

    @field_validator("turns")
    @classmethod
    def _turns(cls, turns: list[str]) -> list[str]:
        _non_empty(turns, "turns")
        return turns


# ------------------------------------------------------------------ loading


class GoldenFileError(InputError):
    """A golden file that cannot be used; the message names file, item and field."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (YAML would keep the last silently)."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is given twice", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _field_hint(err: dict[str, Any]) -> str:
    """One field error as `expect.numbers.0.unit: message`, with close matches for unknown keys."""
    loc = ".".join(str(x) for x in err["loc"]) or "item"
    if err["type"] == "extra_forbidden":
        model: type[BaseModel] = GoldenItem
        for part in err["loc"][:-1]:
            if isinstance(part, str) and part in model.model_fields:
                annotation = model.model_fields[part].annotation
                inner = _model_in(annotation)
                if inner is not None:
                    model = inner
        known = [k for k in model.model_fields if k != "source_file"]
        close = [m for m, score, _ in process.extract(str(err["loc"][-1]), known, limit=2) if score >= 60]
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        return f"{loc}: unknown key; known keys: {', '.join(known)}.{hint}"
    msg = err["msg"].removeprefix("Value error, ")
    return f"{loc}: {msg}"


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def parse_items(data: Any, source: str) -> list[GoldenItem]:
    """Validate the YAML value of one golden file."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise GoldenFileError(f"{source}: expected a YAML list of items (- id: ...), got a {type(data).__name__}.")
    items: list[GoldenItem] = []
    for n, raw in enumerate(data, start=1):
        label = f"item {n}"
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            label += f" (id '{raw['id']}')"
        if not isinstance(raw, dict):
            raise GoldenFileError(f"{source}: {label}: expected a mapping with id, lang, category, turns, expect.")
        try:
            item = GoldenItem.model_validate(raw)
        except ValidationError as err:
            problems = "; ".join(_field_hint(e) for e in err.errors())
            raise GoldenFileError(f"{source}: {label}: {problems}") from None
        items.append(item.model_copy(update={"source_file": source}))
    return items


def load_file(path: Path) -> list[GoldenItem]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GoldenFileError(f"{path}: no such golden file.") from None
    except (UnicodeDecodeError, IsADirectoryError, PermissionError) as err:
        raise GoldenFileError(f"{path}: cannot read it ({err.__class__.__name__}).") from None
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise GoldenFileError(f"{path}:{where}: not valid YAML: {problem}.") from None
    return parse_items(data, str(path))


def golden_files(paths: Sequence[str | Path] | None = None) -> list[Path]:
    """The files to load: the given files, the YAML files in given folders, or the built-in set."""
    chosen = [Path(p) for p in paths] if paths else [BUILTIN_DIR]
    files: list[Path] = []
    for p in chosen:
        if p.is_dir():
            found = sorted([*p.glob("*.yaml"), *p.glob("*.yml")])
            if not found:
                raise GoldenFileError(f"{p}: no *.yaml golden files in this folder.")
            files.extend(found)
        else:
            files.append(p)
    return files


def load_golden(paths: Sequence[str | Path] | None = None) -> list[GoldenItem]:
    """Every item of every file, validated; ids must be unique across files."""
    items: list[GoldenItem] = []
    where: dict[str, str] = {}
    for path in golden_files(paths):
        for item in load_file(path):
            if item.id in where:
                raise GoldenFileError(
                    f"{path}: id '{item.id}' is used twice (also in {where[item.id]}); ids must be unique."
                )
            where[item.id] = str(path)
            items.append(item)
    if not items:
        raise GoldenFileError("the golden files hold no items.")
    return items


def select(items: list[GoldenItem], only: Sequence[str] | None) -> list[GoldenItem]:
    """Items whose id matches one of `only` (exact ids or shell patterns like 'mem-*')."""
    if not only:
        return items
    ids = [i.id for i in items]
    chosen: set[str] = set()
    for pattern in only:
        matched = fnmatch.filter(ids, pattern) if any(c in pattern for c in "*?[") else (
            [pattern] if pattern in ids else []
        )
        if not matched:
            close = [m for m, score, _ in process.extract(pattern, ids, limit=3) if score >= 50]
            raise InputError(f"--only {pattern}: no golden item has this id.", suggestions=close)
        chosen.update(matched)
    return [i for i in items if i.id in chosen]
