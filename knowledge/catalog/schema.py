"""Row schemas of the catalog files and their ids.

GPU, model and provider rows are validated straight into the domain records
(`tools.domain.GPU`, `ModelSpec`, `Provider`). Instances and prices are flat
rows here (one CSV line each) and are joined into `tools.domain.Instance` by
the loader: an instance row is one (provider, instance, region); a price row
is one (provider, instance, region, billing) -- that 4-part id is what a user
file repeats to override a built-in price.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from pydantic import Field, field_validator, model_validator

from tools.domain import (
    GPU,
    Billing,
    CostPart,
    Currency,
    DatePrecision,
    ModelSpec,
    PriceCovers,
    PriceGrade,
    Provider,
    Strict,
)

# Short names accepted in files for the price grades (the enum values are the
# long labels shown to people).
GRADE_NAMES = {
    "official": PriceGrade.official,
    "official list price": PriceGrade.official,
    "marketplace": PriceGrade.marketplace,
    "marketplace sample": PriceGrade.marketplace,
    "marketplace sample (changes hourly)": PriceGrade.marketplace,
    "third-party": PriceGrade.third_party,
    "third_party": PriceGrade.third_party,
    "third-party report": PriceGrade.third_party,
    "user": PriceGrade.user,
    "user-supplied": PriceGrade.user,
}


class InstanceRow(Strict):
    provider: str = Field(min_length=1)
    instance: str = Field(min_length=1, pattern=r"^[^/\s]+$", description="no '/' or spaces: it is part of ids")
    region: str = Field(min_length=1, pattern=r"^[^/]+$")
    china_mainland: bool = False
    family: str | None = None
    gpu: str = Field(min_length=1, description="GPU catalog key")
    gpu_count: float = Field(gt=0, description="fractions are vGPU slices (memory = fraction x GPU memory)")
    vcpus: int | None = Field(default=None, gt=0)
    ram_gib: float | None = Field(default=None, gt=0)
    local_disk_gb: float | None = Field(default=None, ge=0)
    nvlink: bool | None = Field(default=None, description="GPU-to-GPU NVLink/NVSwitch-class link; null: n/a or unknown")
    infiniband: bool | None = Field(default=None, description="InfiniBand/RDMA-class (EFA, RoCE) between nodes")
    network_gbps: float | None = Field(default=None, gt=0)
    source: str = Field(min_length=1)
    notes: str | None = None

    @property
    def id(self) -> str:
        return f"{self.provider}/{self.instance}/{self.region}"


class PriceRow(Strict):
    provider: str = Field(min_length=1)
    instance: str = Field(min_length=1)
    region: str = Field(min_length=1, pattern=r"^[^/]+$")
    billing: Billing
    amount: float = Field(ge=0)
    currency: Currency
    per: str = Field(default="hour", pattern="^(hour|month|year)$")
    source: str = Field(min_length=1)
    as_of: dt.date | None = Field(
        default=None, description="YYYY-MM-DD; YYYY-MM (month precision); ~YYYY-MM (approximate: 'about')"
    )
    as_of_precision: DatePrecision | None = None
    as_of_inferred: bool = False
    source_url: str | None = Field(default=None, pattern=r"^https?://\S+$")
    includes: list[CostPart] | None = Field(default=None, description="what the price pays for; e.g. compute+system_disk")
    excludes: list[CostPart] | None = Field(default=None, description="billed separately, e.g. data_disk+bandwidth")
    system_disk_gb: float | None = Field(default=None, ge=0)
    data_disk_gb: float | None = Field(default=None, ge=0)
    grade: PriceGrade | None = None
    china_mainland: bool | None = Field(
        default=None, description="only for a price in a region the catalog lacks: the new region's flag"
    )
    notes: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _partial_dates(cls, data: Any) -> Any:
        """'2026-10' -> 2026-10-01 with month precision; '~2026-10' -> approximate (unless given)."""
        if not isinstance(data, dict) or not isinstance(data.get("as_of"), str):
            return data
        text = data["as_of"].strip()
        m = re.fullmatch(r"(~|about\s+)?(\d{4})-(\d{2})", text)
        if not m:
            if text.startswith("~"):
                return {**data, "as_of": text[1:].strip(), "as_of_precision": data.get("as_of_precision") or "approximate"}
            return data
        precision = "approximate" if m.group(1) else "month"
        return {**data, "as_of": f"{m.group(2)}-{m.group(3)}-01", "as_of_precision": data.get("as_of_precision") or precision}

    @field_validator("includes", "excludes", mode="before")
    @classmethod
    def _parts(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [v.strip() for v in re.split(r"[+;,]", value) if v.strip()]
        return value

    @model_validator(mode="after")
    def _precision_needs_date(self) -> "PriceRow":
        if self.as_of is None and (self.as_of_precision is not None or self.as_of_inferred):
            raise ValueError("as_of_precision / as_of_inferred need an as_of date")
        return self

    @property
    def covers(self) -> PriceCovers | None:
        if self.includes is None and self.excludes is None and self.system_disk_gb is None and self.data_disk_gb is None:
            return None
        return PriceCovers(
            includes=self.includes if self.includes is not None else [CostPart.compute],
            excludes=self.excludes or [],
            system_disk_gb=self.system_disk_gb,
            data_disk_gb=self.data_disk_gb,
        )

    @field_validator("billing", mode="before")
    @classmethod
    def _billing_alias(cls, value: Any) -> Any:
        return value.strip().lower().replace("-", "_") if isinstance(value, str) else value

    @field_validator("currency", mode="before")
    @classmethod
    def _currency_upper(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().upper()
            if value == "RMB":
                return "CNY"
        return value

    @field_validator("grade", mode="before")
    @classmethod
    def _grade_alias(cls, value: Any) -> Any:
        if isinstance(value, str):
            key = value.strip().lower()
            if key in GRADE_NAMES:
                return GRADE_NAMES[key]
            raise ValueError(f"unknown grade '{value}'; use one of: official, marketplace, third-party, user-supplied")
        return value

    @property
    def id(self) -> str:
        return f"{self.provider}/{self.instance}/{self.region}/{self.billing.value}"

    @property
    def instance_id(self) -> str:
        return f"{self.provider}/{self.instance}/{self.region}"


# kind -> (row model, id of a validated row)
ROW_MODELS: dict[str, type[Strict]] = {
    "gpus": GPU,
    "models": ModelSpec,
    "providers": Provider,
    "instances": InstanceRow,
    "prices": PriceRow,
}


def row_id(kind: str, row: Any) -> str:
    if kind in ("gpus", "models", "providers"):
        return row.key
    return row.id


def raw_id(kind: str, data: dict[str, Any]) -> str:
    """Best-effort id of a row that failed validation, for the error message."""
    if kind in ("gpus", "models", "providers"):
        return str(data.get("key", "?"))
    parts = [str(data.get(f, "?")) for f in ("provider", "instance", "region")]
    if kind == "prices":
        parts.append(str(data.get("billing", "?")))
    return "/".join(parts)
