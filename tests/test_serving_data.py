"""The serving benchmark's data (tests/data/serving/): schema, sources, coverage, and the frozen held-out split."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "serving"


def _cases_module():
    spec = importlib.util.spec_from_file_location("serving_bench", ROOT / "benchmarks" / "serving.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["serving_bench"] = module
    spec.loader.exec_module(module)
    return module


SC = _cases_module()
CASES = SC.load_cases()


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


def test_every_case_has_a_source_url():
    for _file, _held, source, case in CASES:
        assert re.match(r"^https?://\S+$", case.url), case.id
        assert source.title and source.publisher
        assert all(m.what for m in case.measured)


def test_ids_are_unique():
    ids = [c.id for _f, _h, _s, c in CASES]
    assert len(ids) == len(set(ids))


def test_catalog_keys_exist_and_layouts_divide(cat):
    for _f, _h, _s, case in CASES:
        cat.gpu(case.gpu)
        cat.model(case.model)
        assert case.gpus % (case.tp * case.pp) == 0, case.id


def test_coverage():
    gpus = {c.gpu for _f, _h, _s, c in CASES}
    engines = {c.engine for _f, _h, _s, c in CASES}
    held = [c for _f, h, _s, c in CASES if h]
    metrics = {m.metric.category for _f, _h, _s, c in CASES for m in c.measured}
    loads = {c.load.kind.value for _f, _h, _s, c in CASES}
    assert len(CASES) >= 45 and len(gpus) >= 6 and len(engines) >= 3 and len(held) >= 15
    assert metrics == {"throughput", "latency", "kv"}
    assert {"concurrency", "max_throughput", "kv_capacity", "batch"} <= loads
    held_metrics = {m.metric.category for c in held for m in c.measured}
    assert held_metrics == {"throughput", "latency", "kv"}


def test_heldout_split_is_by_source():
    """No source family has cases on both sides unless its documents are split (GPUStack: by page, see README)."""
    sides: dict[str, set] = {}
    for _f, held, source, case in CASES:
        sides.setdefault(source.family, set()).add((held, case.url))
    for family, entries in sides.items():
        cal_urls = {u for h, u in entries if not h}
        held_urls = {u for h, u in entries if h}
        assert not (cal_urls & held_urls), family  # a document is never on both sides


def _frozen_hashes() -> dict[str, str]:
    text = (DATA / "README.md").read_text(encoding="utf-8")
    return dict(re.findall(r"\|\s*`(heldout_[^`]+\.yaml)`\s*\|\s*`([0-9a-f]{64})`\s*\|", text))


def test_heldout_files_match_the_frozen_hashes():
    frozen = _frozen_hashes()
    files = sorted(p.name for p in DATA.glob("*heldout*.yaml"))
    assert files and sorted(frozen) == files
    for name, digest in frozen.items():
        assert SC.sha256(DATA / name) == digest, f"{name} changed after the freeze: put corrections in errata.yaml"


def test_errata_target_real_cases_and_give_reasons():
    ids = {c.id for _f, _h, _s, c in CASES}
    for e in SC.load_errata():
        assert e.case in ids and len(e.reason) >= 10


def test_unknown_keys_are_rejected():
    raw = yaml.safe_load((DATA / "blog_vllm_a100_40gb.yaml").read_text(encoding="utf-8"))
    raw["cases"][0]["tokens_per_second"] = 1
    with pytest.raises(ValidationError, match="tokens_per_second"):
        SC.CaseFile(**raw)
