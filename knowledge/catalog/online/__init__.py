"""`gpu-advisor catalog refresh`: fetch current public, key-free list prices into `<data dir>/catalog-refreshed/`.

The one networked part of the product, imported only by that command. Sources (each documented in
``knowledge/catalog/README.md`` "Refreshing prices"):

* ``aws`` and ``aws-china``: the AWS Price List Bulk API offer files (EC2, on-demand, Linux, shared tenancy);
* ``azure``: the Azure Retail Prices API (Virtual Machines, pay-as-you-go and spot, Linux).

No GPU marketplace publishes a key-free offer search that we could find (Vast.ai's and RunPod's APIs need an
API key; the Chinese marketplaces have none), so marketplace samples come only from the built-in data.
"""

from knowledge.catalog.online.refresh import PROVIDERS, RefreshReport, SourceUrls, refresh

__all__ = ["PROVIDERS", "RefreshReport", "SourceUrls", "refresh"]
