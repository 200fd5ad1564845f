"""AWS and AWS China on-demand list prices from the AWS Price List Bulk API (no key, no account).

Documented at https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-the-aws-price-list-bulk-api.html
(China: https://docs.amazonaws.cn/en_us/awsaccountbilling/latest/aboutv2/using-the-aws-price-list-bulk-api.html):

1. ``GET {base}/offers/v1.0/{partition}/AmazonEC2/current/region_index.json`` -> ``regions[code].currentVersionUrl``
   (a JSON offer file path; the same path ending in ``.csv`` is the CSV form).
2. ``GET {base}{currentVersionUrl with .csv}``: five metadata rows (FormatVersion, Disclaimer, Publication Date,
   Version, OfferCode), then a header row with SKU, OfferTermCode, RateCode, TermType, PriceDescription,
   EffectiveDate, StartingRange, EndingRange, Unit, PricePerUnit, Currency, ... Instance Type, ... Tenancy,
   Operating System, License Model, Pre Installed S/W, CapacityStatus, ... Region Code
   (https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-service-price-list-file-for-services.html).

Kept: TermType OnDemand, Unit Hrs, Tenancy Shared, Operating System Linux, Pre Installed S/W NA, CapacityStatus Used
(the plain on-demand instance-hour) for the instance types the catalog already lists. Spot prices are not in the
bulk files (they need the EC2 API with credentials), so none are written.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass, field
from typing import Iterator

from knowledge.catalog.online.http import SourceError, get_json, get_lines

PARTITIONS = {"aws": "aws", "aws-china": "cn"}
CHINA_REGIONS = {"cn-north-1", "cn-northwest-1"}
# EBS volumes and data transfer are charged separately from the instance-hour (https://aws.amazon.com/ec2/pricing/on-demand/).
EXCLUDES = "system_disk+data_disk+bandwidth"


@dataclass
class OfferRow:
    instance: str
    region: str
    amount: float
    currency: str
    description: str


@dataclass
class AwsResult:
    rows: list[OfferRow] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # region -> CSV URL
    versions: dict[str, str] = field(default_factory=dict)  # region -> "Version (Publication Date)"
    warnings: list[str] = field(default_factory=list)


def region_index_url(base: str, provider: str) -> str:
    return f"{base.rstrip('/')}/offers/v1.0/{PARTITIONS[provider]}/AmazonEC2/current/region_index.json"


def fetch(base: str, provider: str, regions: list[str], instance_types: set[str], timeout: float) -> AwsResult:
    index = get_json(region_index_url(base, provider), timeout)
    known = index.get("regions") if isinstance(index, dict) else None
    if not isinstance(known, dict):
        raise SourceError(f"{provider}: region_index.json has no 'regions' mapping (not the documented format)")
    out = AwsResult()
    for region in regions:
        entry = known.get(region)
        path = entry.get("currentVersionUrl") if isinstance(entry, dict) else None
        if not path:
            out.warnings.append(f"{provider}: region {region} is not in the price list's region index")
            continue
        url = base.rstrip("/") + (path[:-5] + ".csv" if path.endswith(".json") else path)
        out.sources[region] = url
        version, rows = _read_offer_csv(get_lines(url, timeout), region, instance_types, url)
        out.versions[region] = version
        out.rows.extend(rows)
    return out


def _read_offer_csv(lines: Iterator[str], region: str, wanted: set[str], url: str) -> tuple[str, list[OfferRow]]:
    meta: dict[str, str] = {}
    head: list[str] = []
    for line in lines:
        head.append(line)
        if len(head) == 6:
            break
    if len(head) < 6:
        raise SourceError(f"{url}: fewer than six lines (not an offer file)")
    for cells in csv.reader(head[:5]):
        if len(cells) >= 2:
            meta[cells[0]] = cells[1]
    header = next(csv.reader(head[5:6]))
    col = {name: i for i, name in enumerate(header)}
    needed = ["TermType", "Unit", "PricePerUnit", "Currency", "Instance Type", "Tenancy", "Operating System"]
    missing = [c for c in needed if c not in col]
    if missing:
        raise SourceError(f"{url}: columns {', '.join(missing)} missing (not the documented offer-file format)")

    def quick(source: Iterator[str]) -> Iterator[str]:
        # cheap text test before CSV parsing: most of a regional EC2 file is reserved terms and other OSes
        for text in source:
            if '"OnDemand"' in text and '"Linux"' in text and '"Shared"' in text:
                yield text

    def cell(cells: list[str], name: str) -> str:
        i = col.get(name)
        return cells[i] if i is not None and i < len(cells) else ""

    found: dict[str, OfferRow] = {}
    for cells in csv.reader(quick(lines)):
        itype = cell(cells, "Instance Type")
        if itype not in wanted:
            continue
        if (cell(cells, "TermType"), cell(cells, "Unit"), cell(cells, "Tenancy"), cell(cells, "Operating System")) != (
            "OnDemand", "Hrs", "Shared", "Linux"
        ):
            continue
        if cell(cells, "Pre Installed S/W") not in ("", "NA") or cell(cells, "CapacityStatus") not in ("", "Used"):
            continue
        if cell(cells, "License Model") not in ("", "No License required"):
            continue
        if cell(cells, "Region Code") not in ("", region):
            continue
        try:
            amount = float(cell(cells, "PricePerUnit"))
        except ValueError:
            raise SourceError(f"{url}: PricePerUnit {cell(cells, 'PricePerUnit')!r} is not a number") from None
        if amount <= 0:
            continue
        row = OfferRow(itype, region, amount, cell(cells, "Currency"), cell(cells, "PriceDescription"))
        prev = found.get(itype)
        if prev is None or (cell(cells, "operation") or cell(cells, "Operation")) == "RunInstances":
            found[itype] = row
    version = meta.get("Version", "?")
    published = meta.get("Publication Date", "")
    return (f"{version} (published {published})" if published else version), list(found.values())


def as_of_note(today: dt.date, version: str) -> str:
    return f"fetched {today.isoformat()}; offer file version {version}"
