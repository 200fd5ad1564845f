"""Azure pay-as-you-go and spot VM prices from the Azure Retail Prices API (unauthenticated).

Documented at https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/azure-retail-prices:
``GET {base}/api/retail/prices?api-version=2023-01-01-preview&$filter=...`` returns
``{"BillingCurrency", "CustomerEntityId", "CustomerEntityType", "Items": [...], "NextPageLink", "Count"}``;
each item has currencyCode, retailPrice, unitPrice, armRegionName, location, effectiveStartDate, meterId,
meterName, productName, skuName, serviceName, serviceFamily, unitOfMeasure ("1 Hour"), type
("Consumption" | "Reservation" | "DevTestConsumption"), isPrimaryMeterRegion and armSkuName. Pages hold up to
100 items; ``NextPageLink`` is the next page (null on the last). USD prices are Microsoft's retail prices.

Kept: type Consumption, unit "1 Hour", Linux (productName not ending in "Windows"); skuName/meterName with
"Spot" -> spot, "Low Priority" skipped, else pay-as-you-go (on_demand); the latest effectiveStartDate per
SKU/region/billing. Azure China (prices.azure.cn, a downloadable CSV) is not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from knowledge.catalog.online.http import SourceError, get_json

API_VERSION = "2023-01-01-preview"
CHUNK = 10  # SKUs per $filter (keeps the URL short)
MAX_PAGES = 200  # a guard against a server that never stops paging
# Managed disks and bandwidth are billed separately from the VM hour (Azure Linux VM pricing page).
EXCLUDES = "system_disk+data_disk+bandwidth"


@dataclass
class VmPrice:
    sku: str
    region: str
    billing: str  # on_demand | spot
    amount: float
    currency: str
    effective: str
    product: str


@dataclass
class AzureResult:
    rows: list[VmPrice] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def first_url(base: str, skus: list[str]) -> str:
    names = " or ".join(f"armSkuName eq '{s}'" for s in skus)
    flt = f"serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and ({names})"
    return f"{base.rstrip('/')}/api/retail/prices?api-version={API_VERSION}&$filter={quote(flt)}"


def _same_host(base: str, link: str) -> str:
    """NextPageLink is absolute (https://prices.azure.com/...); follow its path and query on our configured base."""
    parts = urlsplit(link)
    return base.rstrip("/") + parts.path + (f"?{parts.query}" if parts.query else "")


def fetch(base: str, skus: list[str], timeout: float) -> AzureResult:
    out = AzureResult()
    best: dict[tuple[str, str, str], VmPrice] = {}
    for i in range(0, len(skus), CHUNK):
        url: str | None = first_url(base, skus[i:i + CHUNK])
        pages = 0
        while url:
            pages += 1
            if pages > MAX_PAGES:
                raise SourceError(f"prices.azure.com: more than {MAX_PAGES} pages for one query")
            out.urls.append(url)
            page = get_json(url, timeout)
            items = page.get("Items") if isinstance(page, dict) else None
            if not isinstance(items, list):
                raise SourceError("Azure Retail Prices: response has no 'Items' list (not the documented format)")
            for item in items:
                row = _row(item)
                if row is None:
                    continue
                key = (row.sku, row.region, row.billing)
                if key not in best or row.effective > best[key].effective:
                    best[key] = row
            link = page.get("NextPageLink")
            url = _same_host(base, link) if link else None
    out.rows = sorted(best.values(), key=lambda r: (r.sku, r.region, r.billing))
    return out


def _row(item: dict) -> VmPrice | None:
    if not isinstance(item, dict):
        raise SourceError("Azure Retail Prices: an item is not an object")
    if item.get("type") != "Consumption" or item.get("unitOfMeasure") != "1 Hour":
        return None
    product = str(item.get("productName", ""))
    names = f"{item.get('skuName', '')} {item.get('meterName', '')}"
    if product.endswith("Windows") or "Low Priority" in names:
        return None
    try:
        amount = float(item.get("retailPrice"))
    except (TypeError, ValueError):
        raise SourceError(f"Azure Retail Prices: retailPrice {item.get('retailPrice')!r} is not a number") from None
    if amount <= 0 or not item.get("armSkuName") or not item.get("armRegionName"):
        return None
    return VmPrice(
        sku=str(item["armSkuName"]), region=str(item["armRegionName"]), billing="spot" if "Spot" in names else "on_demand",
        amount=amount, currency=str(item.get("currencyCode", "USD")), effective=str(item.get("effectiveStartDate", "")),
        product=product,
    )
