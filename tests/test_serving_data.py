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
    return dict(re.findall(r"\|\s*`(heldout2?_[^`]+\.yaml)`\s*\|\s*`([0-9a-f]{64})`\s*\|", text))


def test_heldout_files_match_the_frozen_hashes():
    frozen = _frozen_hashes()
    files = sorted(p.name for p in DATA.glob("*heldout*.yaml"))
    assert files and sorted(frozen) == files
    for name, digest in frozen.items():
        assert SC.sha256(DATA / name) == digest, f"{name} changed after the freeze: put corrections in errata.yaml"


def test_round_two_is_frozen_and_held_out_by_whole_source():
    """Round 2 (README "Round 2"): its own files, their hashes recorded, no source shared with any other file."""
    frozen = _frozen_hashes()
    round2 = sorted(p.name for p in DATA.glob("heldout2_*.yaml"))
    assert round2 and all(name in frozen for name in round2)
    for name in round2:
        assert SC.sha256(DATA / name) == frozen[name], f"{name} changed after the freeze: put corrections in errata.yaml"
        assert SC.split_of(DATA / name) == SC.Split.heldout2
    r2 = [(s.family, c.url) for f, _h, s, c in CASES if f.startswith("heldout2_")]
    rest = [(s.family, c.url) for f, _h, s, c in CASES if not f.startswith("heldout2_")]
    assert not ({fam for fam, _u in r2} & {fam for fam, _u in rest})
    assert not ({u for _fam, u in r2} & {u for _fam, u in rest})
    assert SC.split_of(DATA / "heldout_blog_vllm_rtx4090.yaml") == SC.Split.heldout1
    assert SC.split_of(DATA / "calibration_ttft.yaml") == SC.Split.calibration


def test_errata_target_real_cases_and_give_reasons():
    ids = {c.id for _f, _h, _s, c in CASES}
    for e in SC.load_errata():
        assert e.case in ids and len(e.reason) >= 10


def test_unknown_keys_are_rejected():
    raw = yaml.safe_load((DATA / "blog_vllm_a100_40gb.yaml").read_text(encoding="utf-8"))
    raw["cases"][0]["tokens_per_second"] = 1
    with pytest.raises(ValidationError, match="tokens_per_second"):
        SC.CaseFile(**raw)


def test_a_document_is_on_one_side_only_across_files():
    """The TTFT file reuses calibration documents (GPUStack's Qwen3-14B pages, Lambda's results) under its own family:
    no page may feed both splits, whatever family a file files it under."""
    held = {c.url for _f, h, _s, c in CASES if h}
    cal = {c.url for _f, h, _s, c in CASES if not h}
    assert held and cal and not (held & cal)


def test_ttft_calibration_file():
    rows = [c for f, _h, _s, c in CASES if f == "calibration_ttft.yaml"]
    assert len(rows) >= 30 and all(any(m.metric == SC.Metric.ttft_ms for m in c.measured) for c in rows)
    engines = {c.engine.value for c in rows}
    assert {"vllm", "sglang", "trtllm"} <= engines
    for c in rows:
        if c.load.kind == SC.CaseLoadKind.max_throughput:  # a burst: how many prompts were sent at once
            assert c.load.value and float(c.load.value) == int(c.load.value), c.id
    for _f, _h, _s, c in CASES:  # lockstep only where the source pins the outputs
        if c.arrivals == SC.Arrivals.together:
            assert c.load.kind == SC.CaseLoadKind.concurrency and "--ignore-eos" in c.lengths + (c.command or ""), c.id


def test_heldout_cases_keep_independent_arrivals():
    assert all(c.arrivals == SC.Arrivals.independent for _f, h, _s, c in CASES if h)


def test_calibrate_ttft_reproduces_the_committed_overhead(cat, capsys):
    """`benchmarks/serving.py --calibrate-ttft` on today's calibration rows gives the constants in serving_profiles."""
    from tools.serving_profiles import PROFILES

    saved = dict(PROFILES)
    try:
        fitted = SC.calibrate_ttft(cat)
    finally:
        PROFILES.update(saved)
    assert set(fitted) == set(SC.TTFT_FITTED)
    assert all(PROFILES[e].request_overhead_ms == v for e, v in fitted.items())
    assert "stays" in capsys.readouterr().out  # the engines without short TTFT rows are named as priors


def test_round_two_stays_out_of_fits_and_apart_in_the_report(cat):
    """The fitters read the calibration split only (both held-out rounds are `held`); the report labels each round."""
    for file, held, _s, _c in CASES:
        assert held == (SC.split_of(DATA / file) != SC.Split.calibration), file
    rows = SC.evaluate(cat, round2=False)
    assert {r.split for r in rows} == {SC.Split.calibration, SC.Split.heldout1}
    text = SC.report(cat, round2=False)
    assert "held out, round 1 (spent)" in text and "not evaluated in this run" in text
    assert "held out, round 2 |" not in text
