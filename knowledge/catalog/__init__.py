"""The catalog: GPUs, models, providers, instances and prices as validated records.

* `load_catalog(settings)` -> `tools.catalog.Catalog`: built-in data < the refreshed layer
  (``<data dir>/catalog-refreshed/``, written by ``gpu-advisor catalog refresh``) < the user's files in
  ``GPU_ADVISOR_CATALOG_DIR``; cached per set of files.
* `load_software_rules()` -> the sourced software-support rules (`tools.domain.SoftwareRule`).
* `model_from_hf_config(path)` -> `ModelSpec` from a Hugging Face config.json.

Data files live in ``knowledge/catalog/data/``; the file format is described
in ``knowledge/catalog/README.md``. The built-in data is rebuilt by the developer
script ``python -m knowledge.catalog.rebuild_builtin``.
"""

from knowledge.catalog.hf_config import model_from_hf_config
from knowledge.catalog.loader import BUILTIN_DIR, clear_cache, load_catalog, refreshed_dir
from knowledge.catalog.software import load_software_rules

__all__ = ["load_catalog", "load_software_rules", "model_from_hf_config", "clear_cache", "refreshed_dir", "BUILTIN_DIR"]
