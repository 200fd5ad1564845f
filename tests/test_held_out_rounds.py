"""What every placed held-out round must keep, checked over one registry of rounds (issue 11's serving rounds 7-13 and
VRAM rounds 7-13): each file byte-identical to its freeze record (tests/data/held_out_freezes.md) and to the digest its
README quotes, the collector's README text merged unchanged, no erratum on it, no fitter reading it, and (serving)
every case estimated. A round's own reading and frozen evaluation stay in its own module (tests/test_serving_round*.py,
tests/test_vram_*heldout*.py); adding a round adds one registry entry here.

Real files, the real estimators and catalog; no mocks.
"""

from __future__ import annotations

import hashlib
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.held_out import freeze_digests, frozen_digest, load_accuracy_bench, readme_digests, sha256

ROOT = Path(__file__).resolve().parents[1]
SERVING_DATA = ROOT / "tests" / "data" / "serving"
SERVING_README = SERVING_DATA / "README.md"
VRAM_README = ROOT / "tests" / "data" / "published_memory_README.md"
sys.path.insert(0, str(ROOT / "benchmarks"))
import serving as SC  # noqa: E402  (benchmarks/serving.py)


@dataclass(frozen=True)
class ServingRound:
    number: int
    session: str  # the freeze record's "## Session N" section
    files: dict[str, str]  # name → sha256, as the collector delivered them
    readme_digest: str  # the collector's README text
    section: str  # its heading in tests/data/serving/README.md
    evaluation: str  # the lead's heading that follows it
    cases: int
    figures: int
    by_category: dict[str, int]
    largest_file: tuple[str, int]  # the file a reporting split sets apart, and its cases

    @property
    def prefix(self) -> str:
        return f"heldout{self.number}_"

    @property
    def split(self):
        return getattr(SC.Split, f"heldout{self.number}")


SERVING_ROUNDS = [
    ServingRound(
        7, "8", {  # by helper-74
            "heldout7_rocm_vllm_dev_docker.yaml": "c42c3ff6a9dd9024738a353f0e54a8da098a86fb08e8c8ccee2f17d58289a818",
            "heldout7_vllm_blog_fp8_kvcache.yaml": "2c2d8ef1b829c001b325d751062e877a9f02811a1d9d177ee4708198f1ce4e6f",
            "heldout7_hf_deepseek_v3_awq_card.yaml": "ed5c1dc44817199c491c2c8e05203f3df60007570acbdc73694b5c2ed9976832",
            "heldout7_sglang_pr_6121.yaml": "7bace4a0ee7d22577836f4ab3eaa0306d1f3e9061a2791cd0f0d48c4802769f7",
        }, "a40892192e344ae9e4ee2d9b28e21fa21a540508c4a11a36ab6797d297fa5cf1",
        "## Round 7: a seventh held-out set (frozen 2026-12-02, issue 11) — short of its aim",
        "### Round 7: its one evaluation (2026-12-02, after commit ad82352)",
        38, 44, {"latency": 36, "throughput": 8, "kv": 0}, (SC.ROUND7_ROCM_FILE, 32)),
    ServingRound(
        8, "8", {  # by helper-81
            "heldout8_waynehacking8_trtllm_triton_serving.yaml":
                "ed27553e07c1248e562c511832cfa72064f632156a889f0c230c48fdc68839f1",
            "heldout8_ggml_ci_v100.yaml": "24e2862771e0764b55d5cebb01490b5a5ebcd9b626c584cd235ae39db9c5898f",
            "heldout8_cbroker1_trtllm_a6000.yaml": "b57f63663dbc21dac154d42190a16904c7e882123cbbc1fd131a03bc5687afc5",
            "heldout8_llama_cpp_rs_readme.yaml": "f13e298f7f084395415a4d294368955ff6fc81c9ed77b1b22c57e7087f8736cb",
            "heldout8_ray_enablement_llm_serving.yaml": "8c93f6780fa0a968c4b3a35a663426679307ebb076a908e5a69699195e430fe9",
        }, "ecdbd7771bce28b274f97b155a7b938ee8ed46a6d79fae1b3b647cbd215a4511",
        "## Round 8: an eighth held-out set (frozen 2026-12-02, issue 11) — short of its KV aim",
        "### Round 8: its one evaluation (2026-12-02, after commit 443df97)",
        17, 35, {"throughput": 16, "latency": 18, "kv": 1}, (SC.ROUND8_MAXQ_FILE, 7)),
    ServingRound(
        9, "9", {  # by helper-90
            "heldout9_sgl_cookbook.yaml": "80f6cc649be3758834b55d354f1ea7b1cd76cbed2a33250cc7837e0b8ded6c7d",
            "heldout9_vllm_issue_17469.yaml": "dc1e478148dd64b9c55c08171ca5a783521b44fdd48a0dc04d9374074e850b31",
        }, "8591199c4683c313fe41641078c5035498a6f6ae4ff2b94f33c24f44686810ca",
        "## Round 9: a ninth held-out set (frozen 2026-12-02, issue 11) — short of its source and KV aims",
        "### Round 9: its one evaluation (2026-12-02, after commit ab3ed60)",
        16, 59, {"throughput": 15, "latency": 43, "kv": 1}, (SC.ROUND9_COOKBOOK_FILE, 15)),
    ServingRound(
        10, "12", {  # by helper-105
            "heldout10_timwang_vllm_sglang_h100.yaml": "4272a725df0e58307fa17f2b725d72269a533e8d145bebe2476f25ed86d55e31",
            "heldout10_dennislee22_vllm_a100.yaml": "a26c4dbc4589f68e0d8a4cc866976f258567c5248d59c9e944ad279b2c9cdce5",
        }, "3227f87c22cb09cd8e753c57f6db040d0086ecf7a1c8c51c51853e128629e235",
        "# Round 10 (held out): collector's report",
        "## Round 10: its one evaluation (2026-12-03, the estimator of commit ab3ed60)",
        14, 48, {"throughput": 23, "latency": 23, "kv": 2}, (SC.ROUND10_BLOG_FILE, 11)),
    ServingRound(
        11, "13", {  # by helper-113
            "heldout11_livinfly_vllm_a100_pcie_40gb.yaml":
                "e7a5e17756eff33ecfaec812fd1710254c76cca1bad6a49caaf0fc67148ff37e",
            "heldout11_klsatorlac2_vllm_t4.yaml": "a653b15fb98e208c1665a06f25ed8192850c0b0f5fe5a5b2bae2abbb8571e783",
            "heldout11_jan_trtllm_vs_llamacpp.yaml": "03654dd4ab3c3139d43a8278890a35a54db1c8173cc9d550115a1ae9f0c3b9ad",
        }, "df0b4e018e64fcda6bffc52c3ad253218896c8efaccf5480ed7e13e2ddf2bccc",
        "# Round 11: a held-out set of published serving measurements (collector's report)",
        "## Round 11: its one evaluation (2026-12-03, the estimator of commit ab3ed60)",
        27, 52, {"throughput": 31, "latency": 21, "kv": 0}, (SC.ROUND11_LIVINFLY_FILE, 13)),
    ServingRound(
        12, "14", {  # by helper-120
            "heldout12_tokenkaki_vllm_a100_40gb.yaml": "0ea0482ff29fa84731126d3a548d2b40620573f456f21e2042a88123fce9dd56",
            "heldout12_vllm_pr_17122.yaml": "b8cf4c008ce3cb68f7b8371d8fa5100543c5e81721ac55e68a0e58d930ad9264",
            "heldout12_sridhar1804_local_ai_rtx3090.yaml": "aa0b17dc97960b5fe3ef115a01388ec318922cf30138c73e9e77eb9e58a7a1e1",
            "heldout12_demo_env_l4_vllm.yaml": "f2af65d0cd3c542dc1005345007a237f2d8eab42a913c42062999636824f6bc1",
            "heldout12_kolyangg_mlops_h100_qwen3_30b_a3b.yaml":
                "13ceaf14b185be7fd75b42fecaada422d79189442e5788ca07c7710b8e8fe0d9",
            "heldout12_lukejyk_autoscientists_a100_80gb.yaml":
                "4534c4beb670acdfd9647101b62f126a07a229686d2d3b2aa87551ab3acc9d79",
            "heldout12_kumaxxp_duo_talk_rtx_a5000.yaml": "e203a8413eb7835ba27761a7279f0d8f456c51bce3de288f415f2b3ce9333675",
        }, "1ae88f67fa3f16a841c7fc43c7e46b486dabedbaee362ca116e672d94e0c661b",
        "# Held-out round 12 (serving estimator) — collector's notes",
        "## Round 12: its one evaluation (2026-12-03, the estimator of commit 795c5d9)",
        16, 33, {"throughput": 8, "latency": 6, "kv": 19}, (SC.ROUND12_TOKENKAKI_FILE, 10)),
    ServingRound(
        13, "14, second freeze", {  # by helper-124
            "heldout13_cssnoeasy_vllm_a100_pcie_qwen3_32b.yaml":
                "735fd4cb0198bb0de546cd026752bf5af5eb11d17382917462b60f99e5bb91f0",
            "heldout13_faradawn_bench3_h200.yaml": "4be1e07ddb28554f4aa4537933844083a5eba2d44f41211a94aae51f76225ed0",
            "heldout13_kagaho_vllm_l40s_tp2.yaml": "d00bf049d380d65a09cd93bb420aa1cdd1e67a21c38d3c5f76dd749bb42b4471",
        }, "c65199c7d2ed7844e92cec46b4d177a70d5a77e00324fee39c241863fd969d06",
        "# Round 13 (held out, KV capacity) — collector's report",
        "## Round 13: its one evaluation (2026-12-04, the estimator of commit 816e237)",
        12, 25, {"throughput": 5, "latency": 6, "kv": 14}, (SC.ROUND13_CSSNOEASY_FILE, 6)),
]


@dataclass(frozen=True)
class VramRound:
    number: int
    ordinal: str  # as the README's headings spell it
    digest: str
    readme_digest: str
    heading: str

    @property
    def name(self) -> str:
        return f"published_memory_heldout_kinds{self.number}.yaml"

    @property
    def label(self) -> str:
        return f"VRAM round {self.number}"


VRAM_ROUNDS = [
    VramRound(7, "seventh", "c8cf5fcd1a8ef50866a05cbad35976595d2479e7e32e8272ac05ee67392d5e3f",
              "22d3217d21fc8704909a62aa8d838af5546674b7cbb8999cd1bb05334a8f4971",
              '## Seventh round of the weak kinds ("new kinds 7")'),
    VramRound(8, "eighth", "7969199a4f01c4dd2365255b1e8a4f821065ebd37ef3fa889b2ef62f14abbbdf",
              "d6277066038fdb93bd0eb38d81078169e5c0afe4188fdb5ea3a9257c2bf415a2",
              '## Eighth round of the weak kinds ("new kinds 8")'),
    VramRound(9, "ninth", "b656919faa0adb4da0f6f5f93c13e7ed19e4466afc6b4817ffddad9534cbbbed",
              "ef3fe23bc9d1fa0f82853af3878a25ee61b1a1536209401932fa4251899ff49d",
              '## Ninth round of the weak kinds ("new kinds 9")'),
    VramRound(10, "tenth", "82e1ec49c7522ecc83cc07799b4cbd79cdc683a542e94a295dc6316fbadaad93",
              "3a90ae069aafbf732f7e61c91993262c700399dca081880c0ef7af660e98d687",
              '# Round 10 held-out collection ("new kinds 10") — collector\'s notes'),
    VramRound(11, "eleventh", "be6ca9db03567425b042a51e0bc3b0c5aa8cc8a4055576eb3f511e2ac31cd067",
              "6c19a6e8cd5b596ec2377c83811f94b11db94f9b830526c38d0de4c64c62299a",
              '# Round 11 ("new kinds 11") — held-out published GPU-memory rows: collector\'s notes'),
    VramRound(12, "twelfth", "0d0c9df22fdaa11c64b5feaeaa0b9fab3ec18067582f5ab8bc80406e8bc58d9e",
              "75eb22768db8491663732ff5a3073b99651825b8f3ab54166d96feba4b731458",
              '# Round 12 held-out published GPU-memory figures ("new kinds 12")'),
    VramRound(13, "thirteenth", "b77dbf811ce3b34c0c51344ecc19e60ef7f2d0108900ed50ebe265b0e4bbce4a",
              "5e6aac4144a4ab4d783e19ba54521f0a0c35f55c820e755cfc179e7243d3f1b7",
              '# Round 13 (held-out, "new kinds 13") - collector\'s notes'),
]

serving_rounds = pytest.mark.parametrize("rnd", SERVING_ROUNDS, ids=lambda r: f"serving{r.number}")
vram_rounds = pytest.mark.parametrize("rnd", VRAM_ROUNDS, ids=lambda r: f"vram{r.number}")


@pytest.fixture(scope="module")
def cat():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.fixture(scope="module")
def serving_cases():
    """Every serving case file, parsed once for the module (each parse reads ~450 cases)."""
    return SC.load_cases()


@pytest.fixture(scope="module")
def fitted_files(cat):
    """The case files any serving fitter reads."""
    return {f for f, _c in SC.fit_cases()} | {f for f, _c in SC.moe_fit_cases(cat)} | {f for f, _c in SC.tp_fit_cases(cat)}


@pytest.fixture(scope="module")
def bench():
    return load_accuracy_bench("accuracy_bench_held_out_rounds")


def test_the_registry_is_every_placed_round():
    """A round placed without a registry entry would escape these checks."""
    placed = {int(m.group(1)) for p in SERVING_DATA.glob("heldout*_*.yaml")
              if (m := re.match(r"heldout(\d+)_", p.name)) and int(m.group(1)) >= 7}
    assert placed == {r.number for r in SERVING_ROUNDS}
    placed = {int(m.group(1)) for p in (ROOT / "tests" / "data").glob("published_memory_heldout_kinds*.yaml")
              if (m := re.fullmatch(r"published_memory_heldout_kinds(\d+)\.yaml", p.name)) and int(m.group(1)) >= 7}
    assert placed == {r.number for r in VRAM_ROUNDS}


@serving_rounds
def test_a_serving_round_is_placed_byte_identical_to_its_freeze_record(rnd):
    """Every file: the digest in held_out_freezes.md, the one in README.md and the file's own agree; nothing else has
    the round's prefix; each is read as its round."""
    recorded = freeze_digests(rf"\|\s*`tests/data/serving/({rnd.prefix}[^`]+\.yaml)`\s*", session=rnd.session)
    assert recorded == rnd.files
    readme = readme_digests(SERVING_README)
    placed = sorted(p.name for p in SERVING_DATA.glob(f"{rnd.prefix}*.yaml"))
    assert placed == sorted(rnd.files)
    for name in placed:
        assert readme[name] == recorded[name] == SC.sha256(SERVING_DATA / name), f"{name}: corrections go to errata.yaml"
        assert SC.split_of(SERVING_DATA / name) == rnd.split


@serving_rounds
def test_a_serving_collectors_text_is_merged_unchanged(rnd):
    """The README's round section up to the lead's evaluation is the delivered README_roundN.md byte for byte (its
    digest in the freeze record's serving row; a VRAM round's README text of the same name has its own row)."""
    assert frozen_digest(f"serving round {rnd.number}", f"README_round{rnd.number}.md") == rnd.readme_digest
    text = SERVING_README.read_text(encoding="utf-8")
    i = text.index("\n" + rnd.section + "\n") + 1
    j = text.index("\n" + rnd.evaluation + "\n", i) + 1
    section = text[i:j].rstrip("\n") + "\n"
    assert hashlib.sha256(section.encode("utf-8")).hexdigest() == rnd.readme_digest


@serving_rounds
def test_a_serving_round_is_held_out_by_whole_source_and_no_erratum_touches_it(serving_cases, rnd):
    cases = [(f, c) for f, _h, _s, c in serving_cases if f.startswith(rnd.prefix)]
    assert (len(cases), sum(len(c.measured) for _f, c in cases)) == (rnd.cases, rnd.figures)
    by_cat = [m.metric.category for _f, c in cases for m in c.measured]
    assert {k: by_cat.count(k) for k in rnd.by_category} == rnd.by_category  # as its README says
    largest, count = rnd.largest_file
    assert sum(f == largest for f, _c in cases) == count
    ids = {c.id for _f, c in cases}
    assert not [e for e in SC.load_errata() if e.case in ids]
    others = [(s.family, c.url) for f, _h, s, c in serving_cases if not f.startswith(rnd.prefix)]
    mine = [(s.family, c.url) for f, _h, s, c in serving_cases if f.startswith(rnd.prefix)]
    assert not ({fam for fam, _u in mine} & {fam for fam, _u in others})
    assert not ({u for _f, u in mine} & {u for _f, u in others})


@serving_rounds
def test_no_fitter_reads_a_serving_round(fitted_files, rnd):
    for splits in (SC.FIT_SPLITS, SC.MOE_FIT_SPLITS, SC.TP_FIT_SPLITS, SC.SPENT):
        assert rnd.split not in splits
    assert fitted_files and not any(f.startswith(rnd.prefix) for f in fitted_files)


@serving_rounds
def test_every_serving_case_gets_a_prediction_or_a_stated_reason(cat, serving_cases, rnd):
    """Each case is estimated as the benchmark estimates it; every figure gets a finite positive prediction, and a case
    the estimator refuses would name its reason (none does: the report would not run)."""
    from tools.errors import InputError

    refused = {}
    for f, _h, _s, case in serving_cases:
        if not f.startswith(rnd.prefix):
            continue
        try:
            est = SC.estimate_serving(cat.model(case.model), cat.gpu(case.gpu), SC.request_for(case),
                                      allow_no_fit=True, scheduling=SC.scheduling_for(case))
        except InputError as e:
            refused[case.id] = str(e)
            assert str(e).strip(), case.id  # a refusal states its reason
            continue
        for m in case.measured:
            value = SC.predicted(est, m.metric)
            assert math.isfinite(value) and value > 0, (case.id, m.metric)
    assert not refused, refused


@vram_rounds
def test_a_vram_file_is_the_one_the_freeze_record_names(bench, rnd):
    """Byte-identical to the delivered file: its digest is the record's and the README's digest line."""
    path = getattr(bench, f"HELDOUT_KINDS{rnd.number}_FILE")
    assert path.name == rnd.name
    assert sha256(path) == frozen_digest(rnd.label, rnd.name) == rnd.digest
    readme = VRAM_README.read_text(encoding="utf-8")
    assert re.search(rf"sha256\s+([0-9a-f]{{64}})\s+{re.escape(rnd.name)}", readme).group(1) == rnd.digest


@vram_rounds
def test_a_vram_readme_text_is_merged_as_delivered(rnd):
    """The collector's README_roundN.md stands in published_memory_README.md byte for byte, from its heading (once,
    level unchanged) to the lead's "Evaluation (Nth round)" section, which follows it after one blank line; the
    serving round of the same number has its own README digest, which the lookup must not take."""
    readme = VRAM_README.read_text(encoding="utf-8")
    assert readme.count(rnd.heading) == 1
    start = readme.index(rnd.heading)
    end = readme.index(f"### Evaluation ({rnd.ordinal} round)", start)
    text = readme[start:end]
    assert text.endswith("\n\n")  # the delivered text, then the blank line before the lead's section
    assert hashlib.sha256(text[:-1].encode("utf-8")).hexdigest() == \
        frozen_digest(rnd.label, f"README_round{rnd.number}.md") == rnd.readme_digest
    assert rnd.readme_digest != frozen_digest(f"serving round {rnd.number}", f"README_round{rnd.number}.md")


@vram_rounds
def test_only_the_benchmark_names_a_vram_round(rnd):
    """No estimator or calibration module reads a held-out file: only benchmarks/accuracy.py names it."""
    named = [p for p in list((ROOT / "tools").rglob("*.py")) + list((ROOT / "knowledge").rglob("*.py"))
             + list((ROOT / "benchmarks").glob("*.py"))
             if f"heldout_kinds{rnd.number}" in p.read_text(encoding="utf-8") and p.name != "accuracy.py"]
    assert not named
