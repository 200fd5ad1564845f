"""`gpu-advisor catalog`: list and look up what the catalog knows.

    gpu-advisor catalog gpus [--provider aws] [--region cn]
    gpu-advisor catalog models
    gpu-advisor catalog providers
    gpu-advisor catalog instances --gpu H100 --region intl --json
    gpu-advisor catalog show A100-80GB        # a GPU, model, provider or PROVIDER/INSTANCE

Filters narrow every listing: --provider and --gpu take forgiving names
(unknown ones exit 2 with the closest known names), --region cn keeps
mainland-China offers, intl the others. Unknown values print as "unknown".
"""

from __future__ import annotations

import argparse
from typing import Any, Iterable

from tools.catalog import Catalog, normalise_name
from tools.domain import GPU, Instance, ModelSpec, Provider, RegionScope
from tools.errors import UnknownNameError
from ui.output import fmt, print_json, print_table, to_jsonable

LISTS = ("gpus", "models", "providers", "instances")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "catalog",
        help="list GPUs, models, providers and instances, or show one entry",
        description=__doc__.split("\n\n")[0],
        epilog="examples: catalog gpus --region cn | catalog instances --provider aws --gpu H100 | catalog show llama-2-13b",
    )
    p.add_argument("what", choices=[*LISTS, "show", "refresh"],
                   help="what to list, 'show NAME', or 'refresh' (fetch current public prices; the one networked command)")
    p.add_argument("name", nargs="?", help="with 'show': a GPU, model, provider or PROVIDER/INSTANCE")
    p.add_argument("--provider", help="only this provider (key or name, e.g. aws, 阿里云)")
    p.add_argument("--gpu", help="only instances with this GPU (e.g. H100, 'A100 80GB')")
    p.add_argument("--region", choices=[r.value for r in RegionScope], default="any",
                   help="cn = mainland China offers, intl = the rest (default any)")
    p.add_argument("--json", action="store_true", help="machine-readable output (unknown values as null)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    if args.what == "refresh":
        from ui.commands.catalog_refresh import run_refresh

        return run_refresh(args)
    if args.what == "show" and not args.name:
        raise UnknownNameError("entry", "", ["give a name: catalog show A100-80GB"])
    if args.what != "show" and args.name:
        raise UnknownNameError("option", args.name, [f"catalog show {args.name}"])
    catalog = load_catalog(Settings.load())
    provider = catalog.provider(args.provider).key if args.provider else None
    gpu = catalog.gpu(args.gpu).key if args.gpu else None
    instances = filter_instances(catalog.instances, provider, gpu, RegionScope(args.region))
    if args.what == "show":
        return show(catalog, args.name, as_json=args.json)
    lister = {"gpus": list_gpus, "models": list_models, "providers": list_providers, "instances": list_instances}[args.what]
    lister(catalog, instances, filtered=bool(provider or gpu or args.region != "any"), as_json=args.json)
    return 0


def filter_instances(instances: Iterable[Instance], provider: str | None, gpu: str | None, region: RegionScope) -> list[Instance]:
    out = []
    for i in instances:
        if provider and i.provider != provider:
            continue
        if gpu and i.gpu != gpu:
            continue
        if region == RegionScope.cn and not i.region.china_mainland:
            continue
        if region == RegionScope.intl and i.region.china_mainland:
            continue
        out.append(i)
    return out


# ------------------------------------------------------------------ listings


def list_gpus(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool) -> None:
    keys = {i.gpu for i in instances} if filtered else set(catalog.gpus)
    gpus = sorted((g for g in catalog.gpus.values() if g.key in keys), key=lambda g: (-g.usable_memory_gib, g.key))
    if as_json:
        print_json(gpus)
        return
    rows = [
        (g.key, g.vendor, g.memory_gb, g.usable_memory_gib, g.bf16_tflops, fmt(g.bf16_supported), fmt(g.fp8_supported),
         _link(g), _china(g))
        for g in gpus
    ]
    print_table(["GPU", "vendor", "memory GB", "usable GiB", "BF16 TFLOPS", "BF16", "FP8", "GPU link", "China"], rows)


def list_models(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool) -> None:
    models = sorted(catalog.models.values(), key=lambda m: (m.family, m.params))
    if as_json:
        print_json(models)
        return
    rows = [
        (m.key, m.kind.value, _billions(m.params), _billions(m.active_params) if m.active_params else "-",
         m.num_layers, m.hidden_size, _heads(m), m.attention.value + (f" w{m.sliding_window}" if m.sliding_window else ""),
         m.max_context)
        for m in models
    ]
    print_table(["model", "kind", "params", "active", "layers", "hidden", "heads/kv", "attention", "context"], rows)


def list_providers(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool) -> None:
    counts: dict[str, list[int]] = {}
    for i in instances:
        c = counts.setdefault(i.provider, [0, 0])
        c[0] += 1
        c[1] += 1 if i.prices else 0
    providers = [p for p in catalog.providers.values() if not filtered or p.key in counts]
    if as_json:
        print_json([{**to_jsonable(p), "instances": counts.get(p.key, [0, 0])[0], "priced_instances": counts.get(p.key, [0, 0])[1]}
                    for p in providers])
        return
    rows = [
        (p.key, p.name + (f" ({p.name_zh})" if p.name_zh else ""), p.kind, p.home_currency.value,
         counts.get(p.key, [0, 0])[0], counts.get(p.key, [0, 0])[1])
        for p in providers
    ]
    print_table(["provider", "name", "kind", "currency", "instances", "priced"], rows)


def list_instances(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool) -> None:
    instances = sorted(instances, key=lambda i: (i.provider, i.gpu, i.gpu_count, i.instance, i.region.name))
    if as_json:
        print_json([instance_json(i) for i in instances])
        return
    rows = []
    for i in instances:
        od, spot = i.price(_billing("on_demand")), i.price(_billing("spot"))
        term = i.price(_billing("monthly")) or i.price(_billing("yearly"))
        ref = od or spot or (i.prices[0] if i.prices else None)
        rows.append((
            f"{i.provider}/{i.instance}", i.region.name + (" (CN)" if i.region.china_mainland else ""), i.gpu, _count(i.gpu_count),
            i.vcpus, i.ram_gib, _interconnect(i), _price(od), _price(spot), _term(term),
            _grade(ref), (ref.as_of.isoformat() if ref and ref.as_of else ("date unknown" if ref else "-")),
        ))
    print_table(["instance", "region", "GPU", "GPUs", "vCPU", "RAM GiB", "interconnect", "on-demand/h", "spot/h", "monthly/yearly",
                 "price grade", "as of"], rows)
    unpriced = sum(1 for i in instances if not i.prices)
    if unpriced:
        print(f"{unpriced} of {len(instances)} instances have no sourced price: fits are still shown by the advisor as "
              "'price unknown -- check the console'.")


def instance_json(i: Instance) -> dict[str, Any]:
    data = to_jsonable(i)
    data["key"] = i.key
    for p, raw in zip(i.prices, data["prices"]):
        raw["id"] = f"{i.key}/{p.billing.value}"
        raw["age"] = p.age_text
        raw["per_hour"] = round(p.per_hour, 6)
    return data


# ------------------------------------------------------------------ show


def show(catalog: Catalog, name: str, as_json: bool) -> int:
    gpu = catalog.find_gpu(name)
    if gpu:
        return _show_record(gpu, as_json, extra={"instances": sum(1 for i in catalog.instances if i.gpu == gpu.key)})
    model = catalog.find_model(name)
    if model:
        return _show_record(model, as_json)
    provider = _find_provider(catalog, name)
    if provider:
        mine = [i for i in catalog.instances if i.provider == provider.key]
        return _show_record(provider, as_json, extra={"instances": len(mine), "priced_instances": sum(1 for i in mine if i.prices)})
    if "/" in name:
        found = _find_instances(catalog, name)
        if found:
            if as_json:
                print_json([instance_json(i) for i in found])
            else:
                for n, inst in enumerate(found):
                    if n:
                        print()
                    _print_fields(instance_json(inst))
            return 0
    raise UnknownNameError("catalog entry", name, _closest_anywhere(catalog, name))


def _find_provider(catalog: Catalog, name: str) -> Provider | None:
    try:
        return catalog.provider(name) if normalise_name(name) else None
    except UnknownNameError:
        return None


def _find_instances(catalog: Catalog, name: str) -> list[Instance]:
    try:
        return catalog.instances_named(name)
    except UnknownNameError:
        pass
    # PROVIDER/INSTANCE/REGION: one region only
    head, _, region = name.rpartition("/")
    try:
        return [i for i in catalog.instances_named(head) if i.region.name == region]
    except UnknownNameError:
        return []


def _closest_anywhere(catalog: Catalog, name: str, limit: int = 4) -> list[str]:
    """Closest keys over GPUs, models, providers and instances, best first."""
    from rapidfuzz import fuzz, process

    norm = normalise_name(name)
    scored: dict[str, float] = {}
    for index in (catalog._gpu_names, catalog._model_names, catalog._provider_names, catalog._instance_names):
        names = list(index._by_norm)
        if not norm or not names:
            continue
        for match, score, _ in process.extract(norm, names, scorer=fuzz.WRatio, limit=limit):
            key = index._by_norm[match]
            if score >= 50 and score > scored.get(key, 0):
                scored[key] = score
    return [k for k, _ in sorted(scored.items(), key=lambda kv: -kv[1])][:limit]


def _show_record(record: GPU | ModelSpec | Provider, as_json: bool, extra: dict[str, Any] | None = None) -> int:
    data = {**to_jsonable(record), **(extra or {})}
    if as_json:
        print_json(data)
    else:
        _print_fields(data)
    return 0


def _print_fields(data: dict[str, Any]) -> None:
    width = max(len(k) for k in data)
    for key, value in data.items():
        if key == "prices":
            print(f"{key:<{width}}  {'none sourced -- check the console' if not value else ''}")
            for p in value:
                print(f"{'':<{width}}  - {p['billing']}: {p['amount']:g} {p['currency']}/{p['per']} "
                      f"({p['grade']}; {p['age']}; source: {p['source']})")
            continue
        if isinstance(value, dict):
            value = "; ".join(f"{k}: {_plain(v)}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value) or "-"
        print(f"{key:<{width}}  {_plain(value)}")


# ------------------------------------------------------------------ cell formats


def _plain(value: Any) -> str:
    """Field values as written in the data: no thousands separators, None as 'unknown'."""
    if isinstance(value, bool) or value is None:
        return fmt(value)
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e15 else f"{value:.4g}"
    return str(value)


def _billions(n: float | None) -> str:
    if n is None:
        return "unknown"
    return f"{n / 1e9:.2f}B" if n >= 1e9 else f"{n / 1e6:.0f}M"


def _heads(m: ModelSpec) -> str:
    if not m.num_attention_heads:
        return "-"
    return f"{m.num_attention_heads}/{m.num_kv_heads or m.num_attention_heads}"


def _link(g: GPU) -> str:
    if g.nvlink:
        return f"NVLink {g.nvlink_bandwidth_gbps:g} GB/s" if g.nvlink_bandwidth_gbps else "NVLink-class"
    return "PCIe"


def _china(g: GPU) -> str:
    if g.china_variant:
        return "China variant" + (" (restricted)" if g.restricted_in_china else "")
    return "restricted" if g.restricted_in_china else "-"


def _count(n: float) -> str:
    return f"{n:g}" if n >= 1 else f"{n:.3g} (vGPU)"


def _interconnect(i: Instance) -> str:
    parts = []
    if i.gpu_count > 1:
        parts.append({True: "NVLink", False: "PCIe", None: "unknown"}[i.nvlink])
    if i.infiniband:
        parts.append(f"IB/RDMA {i.network_gbps:g}G" if i.network_gbps else "IB/RDMA")
    elif i.network_gbps:
        parts.append(f"net {i.network_gbps:g}G")
    return ", ".join(parts) or "-"


def _billing(name: str):
    from tools.domain import Billing

    return Billing(name)


def _price(p) -> str:
    if p is None:
        return "unknown"
    unit = "" if p.per == "hour" else f" (/{p.per})"
    return f"{p.per_hour:,.4g} {p.currency.value}{unit}"


def _term(p) -> str:
    if p is None:
        return "-"
    return f"{p.amount:,.6g} {p.currency.value}/{p.per}"


def _grade(p) -> str:
    if p is None:
        return "-"
    return {"official list price": "official", "marketplace sample (changes hourly)": "marketplace",
            "third-party report": "third-party", "user-supplied": "user"}[p.grade.value]
