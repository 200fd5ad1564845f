"""The serving benchmark's data (tests/data/serving/): schema, sources, coverage, and the frozen held-out split."""

from __future__ import annotations

import hashlib
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
    return dict(re.findall(r"\|\s*`(heldout\d*_[^`]+\.yaml)`\s*\|\s*`([0-9a-f]{64})`\s*\|", text))


def test_heldout_files_match_the_frozen_hashes():
    """Every held-out file here has its hash in README.md and matches it; every spent round's file is here. A fresh
    round may be listed before its files are placed (its collector freezes it elsewhere; the lead places it)."""
    frozen = _frozen_hashes()
    files = sorted(p.name for p in DATA.glob("*heldout*.yaml"))
    assert files and set(files) <= set(frozen)
    for name in files:
        assert SC.sha256(DATA / name) == frozen[name], f"{name} changed after the freeze: put corrections in errata.yaml"
    spent = [n for n in frozen if SC.split_of(DATA / n) in SC.SPENT]
    assert spent and all((DATA / n).exists() for n in spent)


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


FREEZES = ROOT / "tests" / "data" / "held_out_freezes.md"


def _freeze_record(pattern: str) -> dict[str, str]:
    """name → sha256 from the freeze record's rows whose quoted name matches `pattern` (one group: the name)."""
    return dict(re.findall(pattern + r"[^|]*\|\s*`([0-9a-f]{64})`\s*\|", FREEZES.read_text(encoding="utf-8")))


def _readme_section(start: str, end: str | None) -> str:
    """README.md from the line `start` up to the line `end` (or the end of the file), as its collector delivered it
    (the blank line before the next heading is the README's, not the collector's)."""
    text = (DATA / "README.md").read_text(encoding="utf-8")
    i = text.index("\n" + start + "\n") + 1
    j = text.index("\n" + end + "\n", i) + 1 if end else len(text)
    return text[i:j].rstrip("\n") + "\n"


def test_round_four_is_placed_byte_identical_to_its_freeze_record():
    """Round 4 (README "Round 4"): two collectors froze its seven files by digest in held_out_freezes.md before the
    recalibration they test was committed; the lead placed them unchanged. README records the same digests and both
    collectors' texts verbatim; round 4 shares no source or document with any other file."""
    recorded = _freeze_record(r"\|\s*`tests/data/serving/(heldout4_[^`]+\.yaml)`\s*")
    frozen = _frozen_hashes()
    round4 = sorted(p.name for p in DATA.glob("heldout4_*.yaml"))
    assert len(recorded) == 7 and round4 == sorted(recorded)
    assert SC.ROUND4_FIRST_BATCH < set(round4)  # the report's batch 1; the other four are batch 2
    for name in round4:
        assert frozen[name] == recorded[name], f"{name}: README and held_out_freezes.md disagree"
        assert SC.sha256(DATA / name) == recorded[name], f"{name} changed after the freeze: corrections go to errata"
        assert SC.split_of(DATA / name) == SC.Split.heldout4
    texts = _freeze_record(r"`(README_round4b?\.md)`")
    assert set(texts) == {"README_round4.md", "README_round4b.md"}
    first = "## Round 4: a fourth held-out set (frozen 2026-12-01, issue 11)"
    second = "### Round 4, second batch: KV capacity and the GPUs the first batch lacked (frozen 2026-12-01, issue 11)"
    after = "### Round 4: its one evaluation (2026-12-01, after commit ff21276)"
    for name, section in (("README_round4.md", _readme_section(first, second)),
                          ("README_round4b.md", _readme_section(second, after))):
        assert hashlib.sha256(section.encode("utf-8")).hexdigest() == texts[name], f"README's copy of {name} changed"
    r4 = [(s.family, c.url) for f, _h, s, c in CASES if f.startswith("heldout4_")]
    rest = [(s.family, c.url) for f, _h, s, c in CASES if not f.startswith("heldout4_")]
    assert len(r4) == 99
    assert not ({fam for fam, _u in r4} & {fam for fam, _u in rest})
    assert not ({u for _fam, u in r4} & {u for _fam, u in rest})


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
            text = c.lengths + (c.command or "")
            # vLLM's client needs --ignore-eos (or the request field ignore_eos a custom client sends); SGLang's
            # bench_serving ignores EOS unless --disable-ignore-eos
            pinned = ("--ignore-eos" in text or "ignore_eos" in text
                      or ("sglang.bench_serving" in text and "--disable-ignore-eos" not in text))
            assert c.load.kind == SC.CaseLoadKind.concurrency and pinned, c.id


def test_heldout_cases_keep_independent_arrivals():
    """Rounds 1 and 2 were frozen before the `arrivals` field existed: they keep its default. Round 3 could state it."""
    early = (SC.Split.heldout1, SC.Split.heldout2)
    assert all(c.arrivals == SC.Arrivals.independent for f, h, _s, c in CASES if h and SC.split_of(DATA / f) in early)


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


def test_the_fitters_read_the_calibration_files_only_and_the_report_labels_each_round(cat):
    """Rounds 1-5 are spent (reported, labelled so) but `--calibrate` still reads the calibration files only
    (FIT_SPLITS), `--calibrate-moe` and `--calibrate-tp` the calibration files and rounds 1-4 (SPENT; round 5 holds no
    run either fitter reads); rounds 5-13 (read by no fitter) are never among them."""
    assert SC.FIT_SPLITS == (SC.Split.calibration,)
    assert set(SC.SPENT) == {SC.Split.heldout1, SC.Split.heldout2, SC.Split.heldout3, SC.Split.heldout4}
    assert set(SC.MOE_FIT_SPLITS) == {SC.Split.calibration, *SC.SPENT} == set(SC.TP_FIT_SPLITS)
    for fitted_splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS):
        assert not {SC.Split.heldout5, SC.Split.heldout6, SC.Split.heldout7, SC.Split.heldout8,
                    SC.Split.heldout9, SC.Split.heldout10, SC.Split.heldout11,
                    SC.Split.heldout12, SC.Split.heldout13} & set(fitted_splits)
    fitted = {f for f, _c in SC.fit_cases()}
    assert fitted and all(SC.split_of(DATA / f) == SC.Split.calibration for f in fitted)
    for file, held, _s, _c in CASES:
        assert held == (SC.split_of(DATA / file) != SC.Split.calibration), file
    rows = SC.evaluate(cat, round2=False, round3=False, round4=False, round5=False, round6=False, round7=False,
                       round8=False, round9=False, round10=False, round11=False, round12=False, round13=False)
    assert {r.split for r in rows} == {SC.Split.calibration, SC.Split.heldout1}
    text = SC.report(cat, round2=False, round3=False, round4=False, round5=False, round6=False, round7=False,
                     round8=False, round9=False, round10=False, round11=False, round12=False, round13=False)
    full = SC.report(cat)
    assert "| held out, round 3 (spent) | throughput |" in full
    assert "| held out, round 4 (spent) | throughput |" in full and "### Round 4: its one evaluation" in full
    # its one evaluation's figures stay as that run printed them, beside the live tables of this estimator
    assert "- held out, round 4, throughput: median error 38.2% over 66 figures" in full
    assert "### Round 4 (spent) with this commit's estimator" in full
    # round 5 is spent: labelled so, its one evaluation kept as that run printed it
    assert "- held out, round 5 (spent), throughput: median error" in full and "### Round 5: its one evaluation" in full
    assert "- held out, round 5, throughput: median error 31.3% over 3 figures" in full
    # round 6 is spent since its one evaluation: labelled so, its evaluation kept as that run printed it
    assert "- held out, round 6 (spent), throughput: median error" in full
    assert "- held out, round 6, throughput: median error 30.7% over 8 figures" in full
    # round 7 is spent since its one evaluation (the change after it, 443df97, read it): labelled so, printed after 8
    assert "- held out, round 7 (spent), throughput: median error" in full
    assert "- held out, round 7, throughput: median error 45.1% over 8 figures" in full
    # round 8 is spent since its one evaluation (the change after it, ab3ed60, read it): labelled so, printed after 9
    assert "- held out, round 8 (spent), throughput: median error" in full
    assert "- held out, round 8, throughput: median error 10.1% over 16 figures" in full
    # round 9 is spent since its one evaluation (printed and read since): labelled so, printed after round 10
    assert "- held out, round 9 (spent), throughput: median error" in full
    assert "- held out, round 9, throughput: median error 9.5% over 15 figures" in full
    # round 10 is spent since its one evaluation (printed and read since): labelled so, printed after round 11
    assert "- held out, round 10 (spent), throughput: median error" in full
    assert "- held out, round 10, throughput: median error 9.3% over 23 figures" in full
    # round 11 is spent since its one evaluation (printed and read since): labelled so, printed after round 12
    assert "- held out, round 11 (spent), throughput: median error" in full
    assert "- held out, round 11, throughput: median error 22.7% over 31 figures" in full
    # round 12 is spent since its one evaluation (printed and read since): labelled so, printed after round 13
    assert "- held out, round 12 (spent), throughput: median error" in full
    assert "- held out, round 12, throughput: median error 23.7% over 6 figures" in full
    targets = full.split("## Targets", 1)[1].split("### Round 6: its one evaluation", 1)[0]
    assert targets.index("held out, round 6 (spent), ") < targets.index("held out, round 5 (spent), ")
    assert "held out, round 1 (spent)" in text and "not evaluated in this run" in text
    # the computed tables leave the unread rounds out (the hand-written recalibration tables keep their figures)
    assert "| held out, round 2 (spent) | latency |" not in text and "| held out, round 4 (spent) | throughput |" not in text
    assert "### Round 4: its one evaluation" not in text and "### Round 6: its one evaluation" not in text


@pytest.mark.parametrize(
    "name, split",
    [
        ("heldout_blog_vllm_rtx4090.yaml", "heldout1"),  # round 1 files carry no number
        ("heldout2_vllm_issue_20469.yaml", "heldout2"),
        ("heldout3_some_source.yaml", "heldout3"),  # round 3: spent since its one evaluation
        ("heldout4_some_source.yaml", "heldout4"),  # round 4: spent since its one evaluation
        ("heldout5_some_source.yaml", "heldout5"),  # round 5: spent since its one evaluation
        ("heldout6_some_source.yaml", "heldout6"),  # round 6: its own split, the held-out test
        ("gpustack_qwen3_14b.yaml", "calibration"),
    ],
)
def test_split_by_file_name(name, split):
    assert SC.split_of(DATA / name) == SC.Split(split)


@pytest.mark.parametrize("name", ["heldout14_x.yaml", "x_heldout.yaml"])
def test_an_unknown_round_is_an_error_not_a_silent_calibration_file(name):
    with pytest.raises(ValueError, match="held-out file|has no Split"):
        SC.split_of(DATA / name)


def test_round_two_prefix_cache_errata_leave_tpot_and_e2e():
    """Tenstorrent's runs share prompt prefixes between runs and repeat each run's first prompt, with vLLM V1's
    default prefix cache: their TTFTs leave the comparison by erratum; every other figure stays as frozen."""
    frozen = SC.CaseFile(**yaml.safe_load((DATA / "heldout2_tenstorrent_gpu_reference.yaml").read_text(encoding="utf-8")))
    loaded = {c.id: c for f, _h, _s, c in CASES if f == "heldout2_tenstorrent_gpu_reference.yaml"}
    assert len(loaded) == len(frozen.cases) == 21
    for case in frozen.cases:
        kept = [m for m in case.measured if m.metric != SC.Metric.ttft_ms]
        assert loaded[case.id].measured == kept, case.id
    errata = [e for e in SC.load_errata() if e.case in loaded]
    assert len(errata) == 21 and all("prefix caching" in e.reason and "_set_default_args_v1" in e.reason
                                     for e in errata)
    issue = [c for f, _h, _s, c in CASES if f == "heldout2_vllm_issue_20469.yaml"]
    assert [m.metric for m in issue[0].measured] == [SC.Metric.ttft_ms]  # one run of 30 prompts: left as frozen


def test_a_placed_round_six_is_reported_as_the_held_out_test_and_never_fitted(cat, tmp_path, monkeypatch):
    """With `heldout6_*` files beside the others, the report leads with round 6's targets (latency also per statistic)
    and no fitter's case list changes. Stand-ins: a copy of the calibration TTFT source (means and medians), one of a
    calibration throughput source and one of round 4's TP-over-PCIe source, renamed as round-6 files (no real round-6
    file is read)."""
    import shutil

    for name in ("lambda_vllm_benchmark.yaml", "heldout2_vllm_issue_20469.yaml", "heldout3_benhamm_sglang_b200.yaml",
                 "heldout4_iog_llm_inference_benchmarks.yaml", "heldout5_vllm_issue_17788.yaml"):
        shutil.copy(DATA / name, tmp_path / name)
    for source, stand_in in (("blog_vllm_a100_40gb.yaml", "heldout6_stand_in.yaml"),
                             ("calibration_ttft.yaml", "heldout6_ttft_stand_in.yaml"),
                             ("heldout4_iog_llm_inference_benchmarks.yaml", "heldout6_tp_stand_in.yaml")):
        raw = yaml.safe_load((DATA / source).read_text(encoding="utf-8"))
        for case in raw["cases"]:
            case["id"] = "r6-" + case["id"]
        (tmp_path / stand_in).write_text(yaml.safe_dump(raw), encoding="utf-8")
    monkeypatch.setattr(SC, "DATA", tmp_path)
    monkeypatch.setattr(SC, "ERRATA", tmp_path / "errata.yaml")
    assert {f for f, _c in SC.fit_cases()} == {"lambda_vllm_benchmark.yaml"}
    assert {f for f, _c in SC.moe_fit_cases(cat)} == {"heldout3_benhamm_sglang_b200.yaml"}  # a spent round's MoE run
    assert {f for f, _c in SC.tp_fit_cases(cat)} == {"heldout4_iog_llm_inference_benchmarks.yaml"}  # spent, not round 6
    text = SC.report(cat)
    targets = text.split("## Targets", 1)[1].split("### Round 6: its one evaluation", 1)[0]
    assert "Round 6 (latency also per statistic: its sources publish medians):" in targets
    assert targets.index("held out, round 6 (spent), ") < targets.index("held out, round 5 (spent), ")
    assert targets.index("held out, round 5 (spent), ") < targets.index("held out, round 4 (spent), ")
    assert "  - of which mean figures" in targets and "  - of which median figures" in targets
    assert "| held out, round 6 (spent) | throughput |" in text and "| held out 6 (spent) | [r6-" in text
    assert "| latency | ttft_ms | median |" not in text and "| ttft_ms | median |" in text  # by metric and statistic
    assert "held out, round 6" not in SC.report(cat, round6=False)


def test_round_five_is_placed_byte_identical_to_its_freeze_record():
    """Round 5 (README "Round 5"): frozen by digest in held_out_freezes.md before the round-4 recalibration was
    committed, placed unchanged; README records the same digests and the collector's text verbatim."""
    recorded = _freeze_record(r"\|\s*`tests/data/serving/(heldout5_[^`]+\.yaml)`\s*")
    frozen = _frozen_hashes()
    round5 = sorted(p.name for p in DATA.glob("heldout5_*.yaml"))
    assert len(recorded) == 2 and round5 == sorted(recorded)
    for name in round5:
        assert frozen[name] == recorded[name] == SC.sha256(DATA / name), name
        assert SC.split_of(DATA / name) == SC.Split.heldout5
    texts = _freeze_record(r"`(README_round5\.md)`")
    section = _readme_section("## Round 5: a fifth held-out set (frozen 2026-12-01, issue 11) — short of its aim",
                              "### Round 5: its one evaluation (2026-12-01, after commit 7b81be3)")
    assert hashlib.sha256(section.encode("utf-8")).hexdigest() == texts["README_round5.md"]
