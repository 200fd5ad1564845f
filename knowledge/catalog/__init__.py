"""The catalog: GPUs, models, providers, instances and prices as validated records.

* `load_catalog(settings)` -> `tools.catalog.Catalog` (built-in data plus the
  user's files in ``GPU_ADVISOR_CATALOG_DIR``; cached per set of files).
* `model_from_hf_config(path)` -> `ModelSpec` from a Hugging Face config.json.

Data files live in ``knowledge/catalog/data/``; the file format is described
in ``knowledge/catalog/README.md``.
"""

from knowledge.catalog.hf_config import model_from_hf_config
from knowledge.catalog.loader import BUILTIN_DIR, clear_cache, load_catalog

__all__ = ["load_catalog", "model_from_hf_config", "clear_cache", "BUILTIN_DIR"]
