"""`gpu-advisor catalog refresh [--provider aws|aws-china|azure] [--region cn|intl] [--json]`.

Fetches current public, key-free list prices (AWS Price List Bulk API for AWS and AWS China, Azure Retail
Prices API) into ``<data dir>/catalog-refreshed/``, dated today and graded official list price. That layer
ranks above the built-in data and below your own ``GPU_ADVISOR_CATALOG_DIR`` files. The only command that
uses the network: offline it says so in one line and exits 2. Exit 1 when some source failed (the others
are written; a failed provider keeps its previous files).

Sources can be redirected (a mirror, a proxy, a test server): GPU_ADVISOR_REFRESH_AWS_URL,
GPU_ADVISOR_REFRESH_AWS_CHINA_URL, GPU_ADVISOR_REFRESH_AZURE_URL; regions with
GPU_ADVISOR_REFRESH_AWS_REGIONS / GPU_ADVISOR_REFRESH_AWS_CHINA_REGIONS (comma-separated); timeout per
request with GPU_ADVISOR_REFRESH_TIMEOUT (seconds).
"""

from __future__ import annotations

import argparse
import json
import sys

EXIT_OK, EXIT_PARTIAL, EXIT_OFFLINE = 0, 1, 2


def _err(text: str) -> None:
    print(f"gpu-advisor: error: {text}", file=sys.stderr)


def run_refresh(args: argparse.Namespace) -> int:
    from knowledge.catalog.loader import BUILTIN, BUILTIN_DIR, build_catalog, clear_cache, refreshed_dir
    from knowledge.catalog.online import PROVIDERS, SourceUrls, refresh
    from knowledge.settings import Settings

    if getattr(args, "name", None):
        _err(f"catalog refresh takes no name (got '{args.name}'); use --provider {'|'.join(PROVIDERS)}")
        return EXIT_OFFLINE
    settings = Settings.load()
    builtin = build_catalog([(BUILTIN, BUILTIN_DIR)])
    providers = _providers(builtin, getattr(args, "provider", None), getattr(args, "region", "any"), PROVIDERS)
    if isinstance(providers, str):
        _err(providers)
        return EXIT_OFFLINE
    report = refresh(builtin, refreshed_dir(settings), providers, SourceUrls.from_env(), settings.today_date)
    clear_cache()
    if report.offline:
        reasons = "; ".join(r.message or r.provider for r in report.results)
        _err(f"offline: catalog refresh needs the network and reached no price source ({reasons}); the catalog is unchanged")
        return EXIT_OFFLINE
    if getattr(args, "json", False):
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for r in report.results:
            if r.status == "ok":
                regions = ", ".join(r.regions[:6]) + (f" and {len(r.regions) - 6} more" if len(r.regions) > 6 else "")
                print(f"{r.provider}: {r.prices} prices for {r.instances} instances in {regions} "
                      f"(official list price, as of {report.today.isoformat()}) -> {report.out_dir}")
            for w in r.warnings:
                print(f"{r.provider}: note: {w}")
    for r in report.results:
        if r.status != "ok":
            _err(f"{r.provider}: {r.message}")
    return EXIT_OK if report.ok else EXIT_PARTIAL


def _providers(catalog, name: str | None, region: str, refreshable: tuple[str, ...]) -> list[str] | str:
    """The providers to refresh, or the one-line error for an unknown / unrefreshable one."""
    from tools.errors import InputError

    if not name:
        if region == "cn":
            return ["aws-china"]
        if region == "intl":
            return [p for p in refreshable if p != "aws-china"]
        return list(refreshable)
    try:
        key = catalog.provider(name).key
    except InputError:
        key = name.strip().lower()
    if key not in refreshable:
        return (f"catalog refresh: no public key-free price source for '{name}' "
                f"(refreshable: {', '.join(refreshable)}; marketplaces need an API key or publish none)")
    return [key]
