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
from tools.messages import formatter
from ui.output import add_lang_arg, fmt, print_json, print_table, resolve_lang, to_jsonable

LISTS = ("gpus", "models", "providers", "instances")

HEADERS = {
    "en": {
        "gpus": ["GPU", "vendor", "memory GB", "usable GiB", "BF16 TFLOPS", "BF16", "FP8", "GPU link", "China"],
        "models": ["model", "kind", "params", "active", "layers", "hidden", "heads/kv", "attention", "context"],
        "providers": ["provider", "name", "kind", "currency", "instances", "priced"],
        "instances": ["instance", "region", "GPU", "GPUs", "vCPU", "RAM GiB", "interconnect", "on-demand/h", "spot/h",
                      "monthly/yearly", "price grade", "as of"],
        "unpriced": "{n} of {total} instances have no sourced price: fits are still shown by the advisor as "
                    "'price unknown -- check the console'.",
        "no_prices": "none sourced -- check the console", "source": "source",
        "china_variant": "China variant", "restricted": "restricted",
        "grade": {"official list price": "official", "marketplace sample (changes hourly)": "marketplace",
                  "third-party report": "third-party", "user-supplied": "user"},
    },
    "zh": {
        "gpus": ["GPU", "厂商", "显存 GB", "可用 GiB", "BF16 TFLOPS", "BF16", "FP8", "卡间互联", "中国"],
        "models": ["模型", "类型", "参数量", "激活参数", "层数", "隐藏维度", "注意力头/KV 头", "注意力", "上下文"],
        "providers": ["云厂商", "名称", "类型", "币种", "实例数", "有价格"],
        "instances": ["实例", "地域", "GPU", "卡数", "vCPU", "内存 GiB", "互联", "按量/小时", "竞价/小时",
                      "包月/包年", "价格来源", "价格日期"],
        "unpriced": "{total} 个实例中有 {n} 个没有有来源的价格：顾问仍会列出放得下的实例，标注为“价格未知，请查控制台”。",
        "no_prices": "没有有来源的价格，请查控制台", "source": "来源",
        "china_variant": "中国特供版", "restricted": "受限",
        "grade": {"official list price": "官方", "marketplace sample (changes hourly)": "市场",
                  "third-party report": "第三方", "user-supplied": "用户"},
    },
}


def _h(lang: str) -> dict:
    return HEADERS["zh" if lang == "zh" else "en"]


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
    add_lang_arg(p)
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
    settings = Settings.load()
    lang = resolve_lang(args, settings)
    catalog = load_catalog(settings)
    provider = catalog.provider(args.provider).key if args.provider else None
    gpu = catalog.gpu(args.gpu).key if args.gpu else None
    instances = filter_instances(catalog.instances, provider, gpu, RegionScope(args.region))
    if args.what == "show":
        return show(catalog, args.name, as_json=args.json, lang=lang)
    lister = {"gpus": list_gpus, "models": list_models, "providers": list_providers, "instances": list_instances}[args.what]
    lister(catalog, instances, filtered=bool(provider or gpu or args.region != "any"), as_json=args.json, lang=lang)
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


def list_gpus(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool, lang: str = "en") -> None:
    keys = {i.gpu for i in instances} if filtered else set(catalog.gpus)
    gpus = sorted((g for g in catalog.gpus.values() if g.key in keys), key=lambda g: (-g.usable_memory_gib, g.key))
    if as_json:
        print_json(gpus)
        return
    rows = [
        (g.key, g.vendor, g.memory_gb, g.usable_memory_gib, fmt(g.bf16_tflops, lang=lang), fmt(g.bf16_supported, lang=lang),
         fmt(g.fp8_supported, lang=lang), _link(g), _china(g, lang))
        for g in gpus
    ]
    print_table(_h(lang)["gpus"], rows)


def list_models(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool, lang: str = "en") -> None:
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
    print_table(_h(lang)["models"], rows)


def list_providers(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool, lang: str = "en") -> None:
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
    def name(p: Provider) -> str:
        if lang == "zh" and p.name_zh:
            return f"{p.name_zh}（{p.name}）"
        return p.name + (f" ({p.name_zh})" if p.name_zh else "")

    rows = [
        (p.key, name(p), p.kind, p.home_currency.value, counts.get(p.key, [0, 0])[0], counts.get(p.key, [0, 0])[1])
        for p in providers
    ]
    print_table(_h(lang)["providers"], rows)


def list_instances(catalog: Catalog, instances: list[Instance], filtered: bool, as_json: bool, lang: str = "en") -> None:
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
            fmt(i.vcpus, lang=lang), fmt(i.ram_gib, lang=lang), _interconnect(i), _price(od, lang), _price(spot, lang), _term(term),
            _grade(ref, lang), (ref.as_of.isoformat() if ref and ref.as_of else (formatter(lang).as_of(None) if ref else "-")),
        ))
    print_table(_h(lang)["instances"], rows)
    unpriced = sum(1 for i in instances if not i.prices)
    if unpriced:
        print(_h(lang)["unpriced"].format(n=unpriced, total=len(instances)))


def instance_json(i: Instance) -> dict[str, Any]:
    data = to_jsonable(i)
    data["key"] = i.key
    for p, raw in zip(i.prices, data["prices"]):
        raw["id"] = f"{i.key}/{p.billing.value}"
        raw["per_hour"] = round(p.per_hour, 6)
    return data


# ------------------------------------------------------------------ show


def show(catalog: Catalog, name: str, as_json: bool, lang: str = "en") -> int:
    gpu = catalog.find_gpu(name)
    if gpu:
        return _show_record(gpu, as_json, extra={"instances": sum(1 for i in catalog.instances if i.gpu == gpu.key)}, lang=lang)
    model = catalog.find_model(name)
    if model:
        return _show_record(model, as_json, lang=lang)
    provider = _find_provider(catalog, name)
    if provider:
        mine = [i for i in catalog.instances if i.provider == provider.key]
        extra = {"instances": len(mine), "priced_instances": sum(1 for i in mine if i.prices)}
        return _show_record(provider, as_json, extra=extra, lang=lang)
    if "/" in name:
        found = _find_instances(catalog, name)
        if found:
            if as_json:
                print_json([instance_json(i) for i in found])
            else:
                for n, inst in enumerate(found):
                    if n:
                        print()
                    _print_fields(instance_json(inst), lang)
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


def _show_record(record: GPU | ModelSpec | Provider, as_json: bool, extra: dict[str, Any] | None = None,
                 lang: str = "en") -> int:
    data = {**to_jsonable(record), **(extra or {})}
    if as_json:
        print_json(data)
    else:
        _print_fields(data, lang)
    return 0


def _print_fields(data: dict[str, Any], lang: str = "en") -> None:
    f, h = formatter(lang), _h(lang)
    width = max(len(k) for k in data)
    for key, value in data.items():
        if key == "prices":
            print(f"{key:<{width}}  {h['no_prices'] if not value else ''}")
            for p in value:
                print(f"{'':<{width}}  - {f.term('billing', p['billing'])}: {p['amount']:g} {p['currency']}/{p['per']} "
                      f"({f.term('grade', p['grade'])}; {f.as_of(p.get('as_of'))}; {h['source']}: {p['source']})")
            continue
        if isinstance(value, dict):
            value = "; ".join(f"{k}: {_plain(v, lang)}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value) or "-"
        print(f"{key:<{width}}  {_plain(value, lang)}")


# ------------------------------------------------------------------ cell formats


def _plain(value: Any, lang: str = "en") -> str:
    """Field values as written in the data: no thousands separators, None as 'unknown'."""
    if isinstance(value, bool) or value is None:
        return fmt(value, lang=lang)
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


def _china(g: GPU, lang: str = "en") -> str:
    h = _h(lang)
    if g.china_variant:
        return h["china_variant"] + (f" ({h['restricted']})" if g.restricted_in_china else "")
    return h["restricted"] if g.restricted_in_china else "-"


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


def _price(p, lang: str = "en") -> str:
    if p is None:
        return fmt(None, lang=lang)
    unit = "" if p.per == "hour" else f" (/{p.per})"
    return f"{p.per_hour:,.4g} {p.currency.value}{unit}"


def _term(p) -> str:
    if p is None:
        return "-"
    return f"{p.amount:,.6g} {p.currency.value}/{p.per}"


def _grade(p, lang: str = "en") -> str:
    if p is None:
        return "-"
    return _h(lang)["grade"].get(p.grade.value, p.grade.value)
