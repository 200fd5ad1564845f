"""Run the refresh sources and write the refreshed layer (`<data dir>/catalog-refreshed/`).

One pair of files per provider, ``instances-<provider>.csv`` and ``prices-<provider>.csv`` (the catalog's own
CSV format, so the loader reads them like any catalog file), plus ``manifest.json`` (when, from where, how
many). Files are written aside and renamed into place only after the new layer loads cleanly on top of the
built-in data, so a failed or partial source never leaves a broken catalog; a provider that fails keeps its
previous files. Prices are dated the day of the refresh (`today`) and graded official list price.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping

from knowledge.catalog.online import aws, azure
from knowledge.catalog.online.http import SourceError, Unreachable
from knowledge.catalog.rebuild_builtin import INSTANCE_COLUMNS, PRICE_COLUMNS
from tools.catalog import Catalog
from tools.domain import Instance
from tools.errors import ConfigError

PROVIDERS = ("aws", "aws-china", "azure")
MANIFEST = "manifest.json"


@dataclass
class SourceUrls:
    """Where each source lives; the environment can point them elsewhere (a mirror, or a test server)."""

    aws: str = "https://pricing.us-east-1.amazonaws.com"
    aws_china: str = "https://pricing.cn-north-1.amazonaws.com.cn"
    azure: str = "https://prices.azure.com"
    aws_regions: list[str] | None = None  # None: the regions the built-in catalog lists for AWS
    aws_china_regions: list[str] = field(default_factory=lambda: ["cn-north-1", "cn-northwest-1"])
    timeout_s: float = 60.0

    ENV = {
        "aws": "GPU_ADVISOR_REFRESH_AWS_URL",
        "aws_china": "GPU_ADVISOR_REFRESH_AWS_CHINA_URL",
        "azure": "GPU_ADVISOR_REFRESH_AZURE_URL",
        "aws_regions": "GPU_ADVISOR_REFRESH_AWS_REGIONS",
        "aws_china_regions": "GPU_ADVISOR_REFRESH_AWS_CHINA_REGIONS",
        "timeout_s": "GPU_ADVISOR_REFRESH_TIMEOUT",
    }

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "SourceUrls":
        env = os.environ if env is None else env
        out = cls()
        for name, var in cls.ENV.items():
            value = env.get(var, "").strip()
            if not value:
                continue
            if name.endswith("regions"):
                setattr(out, name, [r.strip() for r in value.split(",") if r.strip()])
            elif name == "timeout_s":
                try:
                    out.timeout_s = float(value)
                except ValueError:
                    raise ConfigError(f"{var}: '{value}' is not a number of seconds") from None
                if out.timeout_s <= 0:
                    raise ConfigError(f"{var}: must be positive")
            else:
                if not value.startswith(("http://", "https://")):
                    raise ConfigError(f"{var}: '{value}' is not an http(s) URL")
                setattr(out, name, value)
        return out


@dataclass
class ProviderResult:
    provider: str
    status: str  # ok | unreachable | failed | empty
    instances: int = 0
    prices: int = 0
    regions: list[str] = field(default_factory=list)
    message: str | None = None
    warnings: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


@dataclass
class RefreshReport:
    out_dir: Path
    today: dt.date
    results: list[ProviderResult]

    @property
    def offline(self) -> bool:
        """Nothing could be reached at all."""
        return bool(self.results) and all(r.status == "unreachable" for r in self.results)

    @property
    def ok(self) -> bool:
        return all(r.status == "ok" for r in self.results)

    def to_json(self) -> dict:
        return {"out_dir": str(self.out_dir), "today": self.today.isoformat(), "results": [asdict(r) for r in self.results]}


def refresh(builtin: Catalog, out_dir: Path, providers: list[str], urls: SourceUrls, today: dt.date) -> RefreshReport:
    results = []
    for provider in providers:
        try:
            instances, prices, result = _collect(builtin, provider, urls, today)
        except Unreachable as err:
            results.append(ProviderResult(provider, "unreachable", message=str(err)))
            continue
        except SourceError as err:
            results.append(ProviderResult(provider, "failed", message=str(err)))
            continue
        if not prices:
            result.status, result.message = "empty", "the source listed none of the catalog's instance types; nothing written"
            results.append(result)
            continue
        try:
            _write_layer(builtin, out_dir, provider, instances, prices)
        except ConfigError as err:  # the new rows do not load: keep the previous files
            result.status, result.message = "failed", f"the fetched rows do not load ({err}); previous files kept"
            results.append(result)
            continue
        _write_manifest(out_dir, provider, today, result)
        results.append(result)
    return RefreshReport(out_dir=out_dir, today=today, results=results)


# ------------------------------------------------------------------ per source


def _collect(builtin: Catalog, provider: str, urls: SourceUrls, today: dt.date):
    mine = [i for i in builtin.instances if i.provider == provider]
    templates: dict[str, Instance] = {}
    for inst in mine:
        templates.setdefault(inst.instance, inst)
    known = {(i.instance, i.region.name): i for i in mine}
    instances: dict[tuple[str, str], dict] = {}
    prices: list[dict] = []
    result = ProviderResult(provider, "ok")

    def add_instance(name: str, region: str, china: bool) -> None:
        if (name, region) in instances:
            return
        built = known.get((name, region))
        base = built or templates[name]
        row = _instance_row(base, region, china)
        if built is None:
            row["notes"] = f"region added by catalog refresh; specs copied from {base.key}"
        instances[(name, region)] = row

    if provider in ("aws", "aws-china"):
        base = urls.aws if provider == "aws" else urls.aws_china
        regions = (urls.aws_regions if provider == "aws" else urls.aws_china_regions) or sorted({i.region.name for i in mine})
        got = aws.fetch(base, provider, regions, set(templates), urls.timeout_s)
        result.warnings += got.warnings
        result.sources = list(got.sources.values())
        for r in got.rows:
            china = r.region in aws.CHINA_REGIONS
            add_instance(r.instance, r.region, china)
            prices.append(dict(
                provider=provider, instance=r.instance, region=r.region, billing="on_demand", amount=r.amount,
                currency=r.currency, per="hour", grade="official", as_of=today.isoformat(), as_of_precision="day",
                source=f"AWS Price List Bulk API, AmazonEC2 offer file {got.versions.get(r.region, '?')}",
                source_url=got.sources[r.region], includes="compute", excludes=aws.EXCLUDES,
                notes=f"fetched by gpu-advisor catalog refresh on {today.isoformat()}: {r.description}".strip(": "),
            ))
    elif provider == "azure":
        got = azure.fetch(urls.azure, sorted(templates), urls.timeout_s)
        result.warnings += got.warnings
        result.sources = got.urls[:3] + ([f"... {len(got.urls) - 3} more pages"] if len(got.urls) > 3 else [])
        for r in got.rows:
            add_instance(r.sku, r.region, False)
            prices.append(dict(
                provider=provider, instance=r.sku, region=r.region, billing=r.billing, amount=r.amount,
                currency=r.currency, per="hour", grade="official", as_of=today.isoformat(), as_of_precision="day",
                source=f"Azure Retail Prices API ({r.product}; effective {r.effective[:10]})",
                source_url=f"{urls.azure.rstrip('/')}/api/retail/prices", includes="compute", excludes=azure.EXCLUDES,
                notes=f"fetched by gpu-advisor catalog refresh on {today.isoformat()}"
                + ("; spot: can be evicted at any time" if r.billing == "spot" else ""),
            ))
    else:  # pragma: no cover - the command checks the name first
        raise SourceError(f"{provider}: no refresh source")
    result.instances = len(instances)
    result.prices = len(prices)
    result.regions = sorted({row["region"] for row in instances.values()})
    return list(instances.values()), prices, result


def _instance_row(i: Instance, region: str, china: bool) -> dict:
    def b(v: bool | None) -> str:
        return "" if v is None else str(v).lower()

    def n(v: float | int | None) -> str:
        return "" if v is None else f"{v:g}" if isinstance(v, float) else str(v)

    return dict(
        provider=i.provider, instance=i.instance, region=region, china_mainland=b(china), family=i.family or "",
        gpu=i.gpu, gpu_count=n(i.gpu_count), vcpus=n(i.vcpus), ram_gib=n(i.ram_gib), local_disk_gb=n(i.local_disk_gb),
        nvlink=b(i.nvlink), infiniband=b(i.infiniband), network_gbps=n(i.network_gbps), source=i.source,
        notes=i.notes or "",
    )


# ------------------------------------------------------------------ writing


HEADER = "# Written by `gpu-advisor catalog refresh` ({today}); replaced by the next refresh. Put your own\n" \
         "# prices in GPU_ADVISOR_CATALOG_DIR instead: that layer ranks above this one.\n"


def _write_csv(path: Path, columns: list[str], rows: list[dict], today: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        fh.write(HEADER.format(today=today))
        w = csv.DictWriter(fh, columns, lineterminator="\n")
        w.writeheader()
        w.writerows(sorted(({c: r.get(c, "") for c in columns} for r in rows),
                           key=lambda r: (r["provider"], r["instance"], r["region"], r.get("billing", ""))))


def _write_layer(builtin_catalog: Catalog, out_dir: Path, provider: str, instances: list[dict], prices: list[dict]) -> None:
    """Write aside, check the whole refreshed layer loads over the built-in data, then rename into place."""
    from knowledge.catalog.loader import BUILTIN, BUILTIN_DIR, REFRESHED, build_catalog

    out_dir.mkdir(parents=True, exist_ok=True)
    names = {"instances": f"instances-{provider}.csv", "prices": f"prices-{provider}.csv"}
    today = prices[0]["as_of"]
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=".staging-") as tmp:
        stage = Path(tmp)
        for existing in out_dir.iterdir():
            if existing.is_file() and existing.suffix == ".csv" and existing.name not in names.values():
                shutil.copy2(existing, stage / existing.name)
        _write_csv(stage / names["instances"], INSTANCE_COLUMNS, instances, today)
        _write_csv(stage / names["prices"], PRICE_COLUMNS, prices, today)
        build_catalog([(BUILTIN, BUILTIN_DIR), (REFRESHED, stage)])  # raises ConfigError on a bad row
        for name in names.values():
            os.replace(stage / name, out_dir / name)


def _write_manifest(out_dir: Path, provider: str, today: dt.date, result: ProviderResult) -> None:
    path = out_dir / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, json.JSONDecodeError):
        data = {}
    data[provider] = {
        "refreshed": today.isoformat(), "instances": result.instances, "prices": result.prices,
        "regions": result.regions, "sources": result.sources, "warnings": result.warnings,
    }
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
