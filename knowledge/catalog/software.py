"""Software-support rules (`knowledge/catalog/support/software.yaml`) as `tools.domain.SoftwareRule` records.

Kept beside the catalog but outside `Catalog` (that record lives in `tools/catalog.py`): the
recommender gets them as an argument, e.g.
``software_rules_for(gpu, load_software_rules(), llm=True)``. A bad rule is one `ConfigError`
line naming the file, row and field, like any catalog file.
"""

from __future__ import annotations

import functools
from pathlib import Path

from pydantic import ValidationError

from knowledge.catalog.files import Where, _row_lines, _YamlLoader
from tools.domain import SoftwareRule
from tools.errors import ConfigError

SOFTWARE_FILE = Path(__file__).resolve().parent / "support" / "software.yaml"


def load_software_rules(path: Path = SOFTWARE_FILE) -> list[SoftwareRule]:
    """The rules in file order (cached per path and modification time)."""
    st = path.stat()
    return list(_load(str(path), st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=4)
def _load(path: str, _mtime: int, _size: int) -> tuple[SoftwareRule, ...]:
    text = Path(path).read_text(encoding="utf-8")
    loader = _YamlLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise ConfigError(f"{path}: expected a mapping with a 'rules' list")
    lines = _row_lines(node).get("rules", [])
    out: list[SoftwareRule] = []
    seen: set[str] = set()
    for i, row in enumerate(data["rules"]):
        where = Where(Path(path), i + 1, lines[i] if i < len(lines) else None)
        try:
            rule = SoftwareRule.model_validate(row)
        except ValidationError as err:
            fields = "; ".join(f"{'.'.join(str(x) for x in e['loc']) or 'row'}: {e['msg']}" for e in err.errors())
            raise ConfigError(f"{where}: software rule '{row.get('key', '?') if isinstance(row, dict) else '?'}': {fields}") from None
        if rule.key in seen:
            raise ConfigError(f"{where}: duplicate software rule '{rule.key}'")
        seen.add(rule.key)
        out.append(rule)
    return tuple(out)
