"""Load the built-in catalog, the refreshed prices and the user's catalog files into a `Catalog`.

Three layers, each overriding the one before:

1. built-in: the files shipped in ``knowledge/catalog/data/``;
2. refreshed: ``<data dir>/catalog-refreshed/`` written by ``gpu-advisor
   catalog refresh`` (public list prices fetched on a networked machine; their
   own grades, dated the day of the refresh);
3. user: every ``*.yaml|*.yml|*.csv`` in ``settings.catalog_dir``
   (``GPU_ADVISOR_CATALOG_DIR``) -- a team's negotiated price is never
   overwritten by a refresh.

A row with the id of a row in an earlier layer replaces it (GPUs, models and
providers by ``key``; instances by ``provider/instance/region``; prices by
``provider/instance/region/billing``); other rows are added. User prices are
always graded "user-supplied". Every price records its layer (`Price.origin`).

Any invalid row stops the load with one `ConfigError` line naming the file,
the row (and line) and the field. The result is cached per set of files and
their modification times, so CLI commands pay for parsing once per process.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rapidfuzz import fuzz, process

from knowledge.catalog.files import KINDS, RawRow, Where, catalog_files, read_rows
from knowledge.catalog.software import load_software_rules
from knowledge.catalog.schema import ROW_MODELS, InstanceRow, PriceRow, raw_id, row_id
from knowledge.settings import Settings
from tools.catalog import Catalog
from tools.domain import GPU, Instance, ModelSpec, Price, PriceGrade, PriceOrigin, Provider, Region
from tools.errors import ConfigError

BUILTIN_DIR = Path(__file__).resolve().parent / "data"
REFRESHED_DIRNAME = "catalog-refreshed"  # under the data dir; written by `gpu-advisor catalog refresh`

BUILTIN = "built-in"
REFRESHED = "refreshed"
USER = "user"
_ORIGIN = {BUILTIN: PriceOrigin.built_in, REFRESHED: PriceOrigin.refreshed, USER: PriceOrigin.user}


def refreshed_dir(settings: Settings) -> Path:
    """Where `gpu-advisor catalog refresh` writes and the loader reads the refreshed layer."""
    return Path(settings.data_dir).expanduser() / REFRESHED_DIRNAME


@dataclass
class _Entry:
    record: Any
    where: Where
    layer: str


def load_catalog(settings: Settings | None = None) -> Catalog:
    """The catalog for these settings (built-in data + `settings.catalog_dir`).

    Cached: repeated calls with unchanged files return the same object, so
    treat it as read-only.
    """
    settings = settings if settings is not None else Settings.load()
    user_dir = Path(settings.catalog_dir).expanduser().resolve() if settings.catalog_dir else None
    refreshed = refreshed_dir(settings).resolve()
    return _load_cached(
        _fingerprint(BUILTIN_DIR),
        _fingerprint(refreshed) if refreshed.is_dir() else None,
        _fingerprint(user_dir) if user_dir else None,
    )


def clear_cache() -> None:
    _load_cached.cache_clear()


# ------------------------------------------------------------------ caching

_Fingerprint = tuple[str, tuple[tuple[str, int, int], ...]]


def _fingerprint(directory: Path) -> _Fingerprint:
    files = catalog_files(directory)
    stamps = []
    for path in files:
        st = path.stat()
        stamps.append((path.name, st.st_mtime_ns, st.st_size))
    return (str(directory), tuple(stamps))


@functools.lru_cache(maxsize=8)
def _load_cached(builtin: _Fingerprint, refreshed: _Fingerprint | None, user: _Fingerprint | None) -> Catalog:
    layers = [(BUILTIN, Path(builtin[0]))]
    if refreshed is not None:
        layers.append((REFRESHED, Path(refreshed[0])))
    if user is not None:
        layers.append((USER, Path(user[0])))
    return build_catalog(layers)


# ------------------------------------------------------------------ building


def build_catalog(layers: list[tuple[str, Path]]) -> Catalog:
    """Parse, validate, merge and join the layers (later layers override)."""
    merged: dict[str, dict[str, _Entry]] = {kind: {} for kind in KINDS}
    for layer, directory in layers:
        seen: dict[str, dict[str, Where]] = {kind: {} for kind in KINDS}
        for path in catalog_files(directory):
            for raw in read_rows(path):
                record = _validate(raw, layer)
                rid = row_id(raw.kind, record)
                first = seen[raw.kind].get(rid)
                if first is not None:
                    raise ConfigError(f"{raw.where}: duplicate {_singular(raw.kind)} id '{rid}' (first defined at {first})")
                seen[raw.kind][rid] = raw.where
                merged[raw.kind][rid] = _Entry(record, raw.where, layer)

    gpus: dict[str, GPU] = {k: e.record for k, e in merged["gpus"].items()}
    models: dict[str, ModelSpec] = {k: e.record for k, e in merged["models"].items()}
    providers: dict[str, Provider] = {k: e.record for k, e in merged["providers"].items()}
    for key, entry in merged["models"].items():
        _check_model(entry.record, entry.where)
    for key, entry in merged["gpus"].items():
        _check_gpu(entry.record, entry.where)

    instances: dict[str, InstanceRow] = {}
    where_of: dict[str, Where] = {}
    for iid, entry in merged["instances"].items():
        row: InstanceRow = entry.record
        _check_ref(entry.where, "provider", row.provider, providers)
        _check_ref(entry.where, "gpu", row.gpu, gpus)
        instances[iid] = row
        where_of[iid] = entry.where

    prices: dict[str, list[Price]] = {}
    notes: dict[str, list[str]] = {}
    for pid, entry in merged["prices"].items():
        row: PriceRow = entry.record
        iid = row.instance_id
        if iid not in instances:
            template = _template_instance(row, instances, entry)
            instances[iid] = template
            where_of[iid] = entry.where
        prices.setdefault(iid, []).append(
            Price(
                billing=row.billing,
                amount=row.amount,
                currency=row.currency,
                per=row.per,
                source=row.source,
                as_of=row.as_of,
                grade=row.grade,
                as_of_precision=row.as_of_precision,
                as_of_inferred=row.as_of_inferred,
                source_url=row.source_url,
                covers=row.covers,
                origin=_ORIGIN[entry.layer],
                notes=row.notes,
            )
        )
        if row.notes:
            notes.setdefault(iid, []).append(f"{row.billing.value} price: {row.notes}")

    out: list[Instance] = []
    for iid, row in instances.items():
        extra = notes.get(iid, [])
        note = "; ".join([n for n in [row.notes, *extra] if n]) or None
        out.append(
            Instance(
                provider=row.provider,
                instance=row.instance,
                family=row.family,
                gpu=row.gpu,
                gpu_count=row.gpu_count,
                vcpus=row.vcpus,
                ram_gib=row.ram_gib,
                local_disk_gb=row.local_disk_gb,
                nvlink=row.nvlink,
                infiniband=row.infiniband,
                network_gbps=row.network_gbps,
                region=Region(name=row.region, china_mainland=row.china_mainland),
                prices=sorted(prices.get(iid, []), key=lambda p: list(p.billing.__class__).index(p.billing)),
                source=row.source,
                notes=note,
            )
        )
    return Catalog(gpus=gpus, models=models, providers=providers, instances=out, software_rules=load_software_rules())


def _validate(raw: RawRow, layer: str) -> Any:
    model = ROW_MODELS[raw.kind]
    data = dict(raw.data)
    if raw.kind == "models" and "activation_profile" in data and isinstance(data["activation_profile"], dict):
        data["activation_profile"] = dict(data["activation_profile"])
    try:
        record = model.model_validate(data)
    except ValidationError as err:
        raise ConfigError(f"{raw.where}: {_singular(raw.kind)} '{raw_id(raw.kind, raw.data)}': {_fields(err)}") from None
    if raw.kind == "prices":
        record = _grade(record, raw, layer)
    return record


def _grade(row: PriceRow, raw: RawRow, layer: str) -> PriceRow:
    if layer == USER:
        if row.grade not in (None, PriceGrade.user):
            raise ConfigError(
                f"{raw.where}: price '{row.id}': grade: prices in user catalog files are always "
                f"'user-supplied'; remove the grade field (got '{raw.data.get('grade')}')"
            )
        return row.model_copy(update={"grade": PriceGrade.user})
    if row.grade is None:
        raise ConfigError(
            f"{raw.where}: price '{row.id}': grade: missing; built-in prices need one of official, marketplace, third-party"
        )
    return row


def _template_instance(row: PriceRow, instances: dict[str, InstanceRow], entry: _Entry) -> InstanceRow:
    """A price for a region the catalog lacks: copy the instance's specs into that region.

    Only user files may do this (a negotiated price in another region);
    built-in prices must point at a listed instance row.
    """
    same = [r for r in instances.values() if r.provider == row.provider and r.instance == row.instance]
    if not same:
        names = sorted({f"{r.provider}/{r.instance}" for r in instances.values()})
        close = _closest(f"{row.provider}/{row.instance}", names)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise ConfigError(
            f"{entry.where}: price '{row.id}': instance: no instance '{row.provider}/{row.instance}' in the catalog; "
            f"add an instances row for it first.{hint}"
        )
    if entry.layer != USER:
        regions = ", ".join(sorted(r.region for r in same))
        raise ConfigError(
            f"{entry.where}: price '{row.id}': region: '{row.region}' is not a listed region of "
            f"{row.provider}/{row.instance} (listed: {regions})"
        )
    base = same[0]
    china = row.china_mainland if row.china_mainland is not None else base.china_mainland
    return base.model_copy(
        update={
            "region": row.region,
            "china_mainland": china,
            "notes": f"region added by a user price file ({entry.where.path.name}); specs copied from {base.id}",
        }
    )


# ------------------------------------------------------------------ checks


def _check_ref(where: Where, field: str, value: str, known: dict[str, Any]) -> None:
    if value in known:
        return
    close = _closest(value, list(known))
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    raise ConfigError(f"{where}: {field}: unknown {field} '{value}'; add it to the catalog or fix the name.{hint}")


def _check_gpu(gpu: GPU, where: Where) -> None:
    # GPU memory is sold in binary units in practice ("80GB" HBM = 80 GiB), and
    # nvidia-smi shows a little less; usable > sold means a unit mix-up (MiB, GB).
    if gpu.usable_memory_gib > gpu.memory_gb + 0.01:
        raise ConfigError(
            f"{where}: gpu '{gpu.key}': usable_memory_gib: {gpu.usable_memory_gib} exceeds memory_gb "
            f"{gpu.memory_gb}; give usable memory in GiB (MiB / 1024)"
        )


def _check_model(m: ModelSpec, where: Where) -> None:
    def bad(field: str, msg: str) -> ConfigError:
        return ConfigError(f"{where}: model '{m.key}': {field}: {msg}")

    if m.num_kv_heads and m.num_attention_heads and m.num_attention_heads % m.num_kv_heads:
        raise bad("num_kv_heads", f"{m.num_kv_heads} does not divide num_attention_heads {m.num_attention_heads}")
    if (m.moe_experts is None) != (m.moe_active_experts is None):
        raise bad("moe_active_experts", "give both moe_experts and moe_active_experts, or neither")
    if m.moe_experts and m.moe_active_experts and m.moe_active_experts > m.moe_experts:
        raise bad("moe_active_experts", "more active experts than experts")
    if m.active_params and m.active_params > m.params:
        raise bad("active_params", "larger than params")
    if m.attention.value == "mla" and not m.kv_lora_rank:
        raise bad("kv_lora_rank", "MLA attention needs the compressed KV size (kv_lora_rank)")


def _closest(name: str, choices: list[str], limit: int = 3) -> list[str]:
    if not choices:
        return []
    return [c for c, score, _ in process.extract(name, choices, scorer=fuzz.WRatio, limit=limit) if score >= 50]


def _fields(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "row"
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field (check the spelling; see the file format in knowledge/catalog/README.md)"
        elif e["type"] == "missing":
            msg = "required field is missing"
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def _singular(kind: str) -> str:
    return {"gpus": "gpu", "models": "model", "providers": "provider", "instances": "instance", "prices": "price"}[kind]
