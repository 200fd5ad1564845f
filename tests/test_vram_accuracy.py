"""The accuracy benchmark as a regression test: published figures, targets, committed report.

Data: tests/data/published_memory.yaml, tests/data/published_gpu_hours.yaml (with sources).
Report: benchmarks/accuracy.md must be what benchmarks/accuracy.py prints today.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("accuracy_bench", ROOT / "benchmarks" / "accuracy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog

    return load_catalog()


@pytest.fixture(scope="module")
def results(bench, catalog):
    mem, bounds = bench.evaluate_memory(catalog)
    return mem, bounds, bench.evaluate_hours(catalog)


def test_every_row_names_its_source(bench):
    for path in (bench.MEMORY_FILE, bench.HOURS_FILE):
        data = bench.load_yaml(path)
        for row in data["rows"]:
            assert row["source"].strip(), row["id"]


def test_unknown_keys_in_published_files_are_rejected(bench, tmp_path):
    bad = yaml.safe_load(bench.MEMORY_FILE.read_text(encoding="utf-8"))
    bad["rows"][0]["measurd"] = bad["rows"][0].pop("measured")
    path = tmp_path / "published_memory.yaml"
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(ValidationError, match="measurd"):
        bench.load_yaml(path)


def test_memory_targets(results):
    mem, _, _ = results
    errors = [abs(r.error) for r in mem]
    assert statistics.median(errors) <= 0.15
    assert max(errors) <= 0.35, max(mem, key=lambda r: abs(r.error)).id


def test_held_out_memory_rows_exist_and_meet_the_median_target(results):
    mem, _, _ = results
    held = [abs(r.error) for r in mem if r.split == "holdout"]
    assert len(held) >= 10
    assert statistics.median(held) <= 0.15


def test_published_bounds_hold(results):
    _, bounds, _ = results
    assert bounds and all(b["holds"] for b in bounds)


def test_gpu_hours_within_25_percent_for_same_scope_rows(results):
    _, _, hours = results
    same_scope = [h for h in hours if not h.scope]
    assert len(same_scope) >= 7
    worst = max(same_scope, key=lambda h: abs(h.error))
    assert abs(worst.error) <= 0.25, worst.id


def test_we_beat_the_rules_of_thumb(results):
    mem, _, _ = results
    ours = statistics.median(abs(r.error) for r in mem)
    for name in ("16 B/param", "accelerate", "LLaMA-Factory"):
        theirs = [abs(e) for r in mem if (e := r.rule_error(name)) is not None]
        assert ours < statistics.median(theirs), name


def test_committed_report_is_current(bench, results):
    mem, bounds, hours = results
    committed = (ROOT / "benchmarks" / "accuracy.md").read_text(encoding="utf-8")
    assert committed == bench.render(mem, bounds, hours), "run: python benchmarks/accuracy.py > benchmarks/accuracy.md"
