"""The built-in catalog: counts, provenance, the shared-data corrections, key facts.

Expected numbers are the published figures (nvidia-smi totals, HF configs,
list prices) so a data edit that breaks them fails here.
"""

from __future__ import annotations

import time

import pytest
from pydantic import ValidationError

from knowledge.catalog import load_catalog
from knowledge.catalog.loader import BUILTIN_DIR, build_catalog
from knowledge.settings import Settings
from tools.domain import GPU, AttentionType, Billing, Currency, DatePrecision, ModelKind, PriceGrade, PriceOrigin


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(Settings(catalog_dir=None))


def test_counts_meet_the_issue(catalog):
    assert len(catalog.gpus) >= 25
    assert len(catalog.models) >= 40
    assert len(catalog.providers) >= 12
    assert len(catalog.instances) >= 600


def test_exact_counts_of_the_rebuilt_data(catalog):
    # knowledge/catalog/rebuild_builtin.py from shared/data (cloud + CN + CN sourced): a change here is a data change
    assert len(catalog.gpus) == 66  # + Tesla P40 and M40 for Tencent GN8 / GN2
    assert len(catalog.providers) == 39  # + 7 Chinese marketplaces, AladdinEdu, Baidu, Volcano Engine
    assert len(catalog.instances) == 776
    assert sum(len(i.prices) for i in catalog.instances) == 837
    assert sum(1 for i in catalog.instances if i.prices) == 690


def test_build_is_fast_enough_for_the_cli():
    t = time.perf_counter()
    build_catalog([("built-in", BUILTIN_DIR)])
    assert time.perf_counter() - t < 0.3 * 10  # regression guard at 10x the 300 ms target (busy CI hosts)


def test_cached_load_returns_the_same_object(catalog):
    assert load_catalog(Settings(catalog_dir=None)) is catalog


def test_every_price_has_source_grade_and_a_real_date_or_none(catalog):
    n = 0
    for inst in catalog.instances:
        for p in inst.prices:
            n += 1
            assert p.source.strip(), inst.key
            assert isinstance(p.grade, PriceGrade)
            assert p.grade != PriceGrade.user  # built-in data has no user prices
            assert p.amount > 0, inst.key
            assert p.origin == PriceOrigin.built_in
            if p.as_of is None:
                assert p.age_text == "date unknown" and p.precision is None and not p.as_of_inferred
            elif p.precision == DatePrecision.day:
                assert p.age_text == f"as of {p.as_of.isoformat()}"
            else:  # month-level dates are stored as the 1st and shown as the month
                assert p.as_of.day == 1 and p.as_of_label == p.as_of.strftime("%Y-%m"), inst.key
    assert n >= 800


@pytest.mark.parametrize("provider", ["alibaba", "huawei"])
def test_no_invented_chinese_cloud_prices(catalog, provider):
    # The public sources hold no official price for these clouds: every instance is listed unpriced.
    mine = [i for i in catalog.instances if i.provider == provider]
    assert mine, provider
    assert all(not i.prices for i in mine)
    assert all("price unknown" in (i.notes or "") for i in mine)


def test_tencent_prices_are_official_undated_and_ranges_stay_unpriced(catalog):
    # Tencent's own (historical, undated) price page: official, no date, its URL on every price;
    # the one instance the page lists only as a range has no price and says so.
    mine = [i for i in catalog.instances if i.provider == "tencent"]
    assert len(mine) == 32
    priced = [i for i in mine if i.prices]
    assert len(priced) == 31 and sum(len(i.prices) for i in mine) == 62
    for i in priced:
        for p in i.prices:
            assert (p.grade, p.as_of, p.currency) == (PriceGrade.official, None, Currency.CNY), i.key
            assert p.source_url.startswith("https://github.com/tencentyun/qcloud-documents/blob/"), i.key
            assert p.covers.compute_only and {"system_disk", "data_disk", "bandwidth"} <= {x.value for x in p.covers.excludes}
    unpriced = [i for i in mine if not i.prices]
    assert [i.instance for i in unpriced] == ["GN10X.4XLARGE80"]
    assert "price unknown" in unpriced[0].notes and "32.79-36.49" in unpriced[0].notes


def test_required_providers_present(catalog):
    for key in ["aws", "gcp", "azure", "lambda", "runpod", "oci", "nebius", "aws-china", "alibaba", "tencent", "huawei", "vast",
                "autodl", "gpushare", "matpool", "suanjiayun", "chenjianyun", "compshare", "gongjiyun", "aladdinedu", "baidu",
                "volcengine"]:
        assert key in catalog.providers, key
    assert catalog.provider("阿里云").key == "alibaba"
    assert catalog.provider("腾讯云").key == "tencent"
    for zh, key in (("恒源云", "gpushare"), ("矩池云", "matpool"), ("算家云", "suanjiayun"), ("晨涧云", "chenjianyun"),
                    ("优云智算", "compshare"), ("共绩算力", "gongjiyun"), ("百度智能云", "baidu"), ("火山引擎", "volcengine")):
        assert catalog.provider(zh).key == key


def test_instance_and_price_ids_unique(catalog):
    keys = [i.key for i in catalog.instances]
    assert len(keys) == len(set(keys))
    for inst in catalog.instances:
        billings = [p.billing for p in inst.prices]
        assert len(billings) == len(set(billings)), inst.key


def test_every_instance_refers_to_catalog_gpu_and_provider(catalog):
    for inst in catalog.instances:
        assert inst.gpu in catalog.gpus
        assert inst.provider in catalog.providers


# ------------------------------------------------------------------ GPUs

@pytest.mark.parametrize(
    "name, key, usable_gib",
    [
        ("H100", "H100", 81559 / 1024),              # nvidia-smi "81559MiB"
        ("H100 PCIe", "H100-PCIe", 81559 / 1024),
        ("H200", "H200", 143771 / 1024),
        ("A100 80GB", "A100-80GB", 81251 / 1024),    # usable; newer drivers print 81920 incl. reserved
        ("A100 40GB", "A100-40GB", 40536 / 1024),
        ("L40S", "L40S", 46068 / 1024),              # ECC on: "about 45 GiB"
        ("RTX 4090", "RTX-4090", 24564 / 1024),
        ("A10", "A10", 23028 / 1024),
        ("T4", "T4", 15109 / 1024),
        ("V100 16GB", "V100-16GB", 16160 / 1024),
        ("L4", "L4", 23034 / 1024),
        ("H20", "H20", 97871 / 1024),
        ("B200", "B200", 183359 / 1024),
    ],
)
def test_usable_memory_is_what_nvidia_smi_reports(catalog, name, key, usable_gib):
    gpu = catalog.gpu(name)
    assert gpu.key == key
    assert gpu.usable_memory_gib == pytest.approx(usable_gib, abs=0.01)
    assert gpu.usable_memory_gib < gpu.memory_gb


def test_issue_gpu_list_present(catalog):
    for name in ["A100 40GB", "A100 80GB", "H100", "V100 16GB", "V100 32GB", "RTX 3090", "RTX 4090", "L40S", "A10", "T4",
                 "H800", "Ascend 910B", "H200", "H20", "A800", "L20", "L40", "L4", "A10G", "A30", "RTX 6000 Ada",
                 "RTX A6000", "MI300X", "V100 PCIe", "A800 PCIe"]:
        assert catalog.find_gpu(name) is not None, name


def test_export_flags(catalog):
    for key in ["H800", "H20", "A800-80GB", "L20"]:
        assert catalog.gpus[key].china_variant, key
    for key in ["H100", "H200", "A100-80GB", "B200", "MI300X", "H800", "A800-80GB"]:
        assert catalog.gpus[key].restricted_in_china, key
        assert catalog.gpus[key].export_note, key
    assert not catalog.gpus["L20"].restricted_in_china
    assert catalog.gpus["RTX-4090"].consumer and not catalog.gpus["H100"].consumer


def test_gpu_interconnect_and_precision_flags(catalog):
    h100, l40s, t4, h800 = (catalog.gpus[k] for k in ("H100", "L40S", "T4", "H800"))
    assert h100.nvlink and h100.nvlink_bandwidth_gbps == 900
    assert h800.nvlink_bandwidth_gbps == 400
    assert not l40s.nvlink and l40s.fp8_supported
    assert not t4.bf16_supported and t4.bf16_tflops is None
    assert h100.bf16_tflops == pytest.approx(989.4)  # dense, not the 1979 sparse headline


# ------------------------------------------------------------------ models

@pytest.mark.parametrize(
    "alias, key",
    [
        ("llama-13b", "llama-13b"), ("LLaMA-13B", "llama-13b"), ("llama2-13b", "llama-2-13b"),
        ("Llama-2-13b-hf", "llama-2-13b"), ("Meta-Llama-3-8B", "llama-3-8b"), ("Qwen2.5-72B-Instruct", "qwen2.5-72b"),
        ("mixtral 8x7b", "mixtral-8x7b"), ("DeepSeek-R1", "deepseek-v3"), ("chatglm3", "chatglm3-6b"),
        ("bert-base-uncased", "bert-base"), ("SDXL", "sdxl"), ("ResNet50", "resnet-50"),
    ],
)
def test_model_aliases(catalog, alias, key):
    assert catalog.model(alias).key == key


def test_issue_model_list_present(catalog):
    wanted = ["llama-7b", "llama-13b", "llama-33b", "llama-65b", "llama-2-7b", "llama-2-13b", "llama-2-70b",
              "llama-3-8b", "llama-3-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "qwen-7b", "qwen-14b",
              "qwen-72b", "qwen2.5-0.5b", "qwen2.5-72b", "qwen3-8b", "mistral-7b", "mixtral-8x7b", "mixtral-8x22b",
              "deepseek-llm-7b", "deepseek-llm-67b", "deepseek-v2-lite", "deepseek-v3", "chatglm3-6b", "glm-4-9b",
              "baichuan2-7b", "baichuan2-13b", "yi-6b", "yi-34b", "gemma-2-9b", "phi-3-mini", "starcoder", "bert-base",
              "bert-large", "t5-base", "flan-t5-xxl", "gpt2", "resnet-50", "vit-b-16", "vit-l-16", "sd-1.5", "sdxl",
              "whisper-large-v3"]
    missing = [k for k in wanted if k not in catalog.models]
    assert not missing


def test_deepseek_v3_moe_and_mla(catalog):
    m = catalog.model("deepseek-v3")
    assert m.attention == AttentionType.mla
    assert (m.kv_lora_rank, m.qk_rope_head_dim) == (512, 64)
    assert (m.moe_experts, m.moe_active_experts) == (256, 8)
    assert m.params == pytest.approx(671e9, rel=0.001)
    assert m.active_params == pytest.approx(37e9)
    assert m.compute_params == m.active_params


def test_sliding_window_and_gqa(catalog):
    assert catalog.model("mistral-7b").sliding_window == 4096
    assert catalog.model("gemma-2-9b").sliding_window == 4096
    assert catalog.model("llama-2-70b").attention == AttentionType.gqa
    assert catalog.model("starcoder").attention == AttentionType.mqa
    assert catalog.model("llama-2-7b").attention == AttentionType.mha


def test_non_transformers_have_activation_profiles(catalog):
    for key in ["resnet-50", "vit-b-16", "vit-l-16", "sd-1.5", "sdxl", "whisper-large-v3"]:
        m = catalog.models[key]
        assert m.kind in (ModelKind.vision, ModelKind.diffusion, ModelKind.speech)
        assert m.activation_profile is not None and m.activation_profile.bytes_per_sample > 0
        assert "224" in m.activation_profile.reference or "512" in m.activation_profile.reference or \
            "1024" in m.activation_profile.reference or "30 s" in m.activation_profile.reference
    # ResNet-50 at 224x224, fp32: 81.9 MiB of saved activations per image (measured on the meta device)
    assert catalog.models["resnet-50"].activation_profile.bytes_per_sample == 85909504
    assert catalog.models["resnet-50"].params == 25557032


# ------------------------------------------------------------------ corrections of shared/data

def test_runpod_l40s_columns_swapped_back(catalog):
    inst = next(i for i in catalog.instances if i.key == "runpod/1x_L40S_SECURE/all-25-datacenters")
    assert inst.price(Billing.on_demand).amount == pytest.approx(0.86)
    assert inst.price(Billing.spot).amount == pytest.approx(0.43)


def test_gcp_suspect_region_prices_dropped_check_rows_flagged(catalog):
    suspect = [i for i in catalog.instances if i.provider == "gcp" and i.instance.startswith("a3-highgpu") and i.region.name == "us-central1"]
    assert len(suspect) == 4 and all(not i.prices for i in suspect)
    checked = next(i for i in catalog.instances if i.key == "gcp/a3-megagpu-8g/europe-west1")
    assert checked.price(Billing.on_demand) is not None and "VERIFY" in checked.notes


@pytest.mark.parametrize("provider", ["scaleway", "seeweb"])
def test_eur_prices_are_not_presented_as_usd(catalog, provider):
    mine = [i for i in catalog.instances if i.provider == provider]
    assert mine and all(not i.prices for i in mine)
    assert all("PRICE NOT IMPORTED" in i.notes for i in mine)


def test_spot_never_above_on_demand(catalog):
    for inst in catalog.instances:
        od, spot = inst.price(Billing.on_demand), inst.price(Billing.spot)
        if od and spot:
            assert spot.amount < od.amount, inst.key


def test_non_gpu_accelerators_left_out(catalog):
    assert not [i for i in catalog.instances if i.instance.startswith(("inf1", "inf2", "trn1", "dl1"))]


def test_gcp_n1_rows_include_the_host(catalog):
    inst = next(i for i in catalog.instances if i.key == "gcp/n1-standard-8+1xT4/us-central1")
    assert inst.price(Billing.on_demand).amount == pytest.approx(0.73)  # $0.35 GPU + $0.38 n1-standard-8
    assert (inst.vcpus, inst.ram_gib) == (8, 30)


def test_aws_china_official_cny(catalog):
    inst = next(i for i in catalog.instances if i.key == "aws-china/p3.2xlarge/cn-north-1")
    p = inst.price(Billing.on_demand)
    assert (p.amount, p.currency, p.grade) == (36.078, Currency.CNY, PriceGrade.official)
    assert p.as_of.isoformat() == "2024-11-06"
    assert inst.region.china_mainland


def test_region_flags_for_marketplace_offers(catalog):
    cn = [i for i in catalog.instances if i.provider == "vast" and i.region.china_mainland]
    assert cn and all("CN" in i.region.name for i in cn)
    hk = next(i for i in catalog.instances if i.provider == "vast" and "HK" in i.region.name)
    assert not hk.region.china_mainland
    assert all(i.vcpus is None and i.ram_gib is None for i in catalog.instances if i.provider == "vast")
    gp = next(p for i in catalog.instances if i.provider == "vast" for p in i.prices)
    assert gp.grade == PriceGrade.marketplace


def test_interconnect_facts(catalog):
    p5 = next(i for i in catalog.instances if i.key == "aws/p5.48xlarge/us-east-1")
    assert (p5.nvlink, p5.infiniband, p5.network_gbps) == (True, True, 3200)
    p4d = next(i for i in catalog.instances if i.key == "aws/p4d.24xlarge/us-east-1")
    assert (p4d.infiniband, p4d.network_gbps) == (True, 400)
    nd = next(i for i in catalog.instances if i.instance == "Standard_ND96isr_H100_v5")
    assert nd.infiniband and nd.network_gbps == 3200
    g5 = next(i for i in catalog.instances if i.key == "aws/g5.48xlarge/us-east-1")
    assert g5.nvlink is False
    single = next(i for i in catalog.instances if i.key == "aws/g5.xlarge/us-east-1")
    assert single.nvlink is None  # not applicable to one GPU


def test_gpu_corrections(catalog):
    assert next(i for i in catalog.instances if i.instance == "p3dn.24xlarge").gpu == "V100-32GB"
    assert next(i for i in catalog.instances if i.instance == "Standard_NC40ads_H100_v5").gpu == "H100-NVL"
    assert next(i for i in catalog.instances if i.instance == "Standard_NC24ads_A100_v4").gpu == "A100-80GB-PCIe"


def test_no_name_or_alias_points_at_two_entries(catalog):
    # NameIndex keeps the first owner of a normalised name, so a clash would silently shadow an entry.
    from tools.catalog import normalise_name

    for records in (catalog.gpus.values(), catalog.models.values(), catalog.providers.values()):
        owner: dict[str, str] = {}
        for r in records:
            names = [r.key, r.name, *getattr(r, "aliases", []), *([r.name_zh] if getattr(r, "name_zh", None) else [])]
            for n in names:
                k = normalise_name(n)
                assert owner.setdefault(k, r.key) == r.key, f"'{n}' names both {owner[k]} and {r.key}"


def test_ambiguous_short_names_ask_instead_of_guessing(catalog):
    # "A100" and "V100" come in two memory sizes: the lookup must not pick one silently.
    from tools.errors import UnknownNameError

    for name, expected in (("A100", {"A100-80GB", "A100-40GB"}), ("V100", {"V100-16GB", "V100-32GB"})):
        with pytest.raises(UnknownNameError) as info:
            catalog.gpu(name)
        assert expected <= set(info.value.suggestions)


def test_coverage_report_is_current():
    # benchmarks/catalog_coverage.md is generated; re-running it for the day it names must reproduce it
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    committed = (root / "benchmarks" / "catalog_coverage.md").read_text(encoding="utf-8")
    day = re.search(r"on (\d{4}-\d{2}-\d{2}) \(prices aged", committed).group(1)
    env = {**os.environ, "GPU_ADVISOR_TODAY": day}
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "catalog_coverage.py")], capture_output=True, text=True,
                         env=env, check=True, cwd=root).stdout
    assert out == committed, "stale: python benchmarks/catalog_coverage.py > benchmarks/catalog_coverage.md"


_SHARED = BUILTIN_DIR.parents[2].parent / "shared" / "data"


@pytest.mark.skipif(not (_SHARED / "cn_gpu_prices_sourced.csv").is_file(), reason="needs ../shared/data (developer checkout only)")
def test_rebuild_from_shared_data_reproduces_the_committed_files(tmp_path):
    from knowledge.catalog.rebuild_builtin import main as rebuild

    assert rebuild(["--shared", str(_SHARED), "--out", str(tmp_path)]) == 0
    for name in ("instances.csv", "prices.csv"):
        assert (tmp_path / name).read_text(encoding="utf-8") == (BUILTIN_DIR / name).read_text(encoding="utf-8"), name
    source = (BUILTIN_DIR.parent / "sources" / "cn_gpu_prices_sourced.csv").read_bytes()
    assert source == (_SHARED / "cn_gpu_prices_sourced.csv").read_bytes()


# torch's total memory per GPU as an engine log printed it (issue 11): each row is the log's figure, so an edit of the
# catalog value without a new source fails here. GPUs not listed carry none (the estimator derives theirs).
TORCH_VISIBLE_GIB = {
    "H100": 79.22,  # vLLM PR #10511 start-up log
    "A100-40GB": 39.38,  # PyTorch OOM message on Perlmutter's 40 GB A100s
    "A100-80GB": 79.25,  # vLLM 0.26.1rc1 log on an A100-SXM4-80GB (LukeJYK/AutoScientists)
    "A100-80GB-PCIe": 79.25,  # derived: the same die and nvidia-smi total as the SXM4 part
    "L40S": 44.42,  # vLLM issue #15815 start-up log
    "L4": 22.04,  # PyTorch OOM message on AWS g6 (ddiiwoong blog)
    "A10G": 22.06,  # PyTorch OOM message on AWS g5 (same post)
    "RTX-3090": 23.58,  # vLLM issue #10517 start-up log
    "RTX-A6000": 47.54,  # vLLM issue #10360 memory-profiling line
}


def test_torch_visible_memory_only_where_a_log_shows_it(catalog):
    have = {k: g.torch_visible_gib for k, g in catalog.gpus.items() if g.torch_visible_gib is not None}
    assert have == TORCH_VISIBLE_GIB


@pytest.mark.parametrize("key", sorted(TORCH_VISIBLE_GIB))
def test_torch_visible_memory_is_sourced_and_below_nvidia_smi(catalog, key):
    g = catalog.gpu(key)
    assert g.torch_visible_source and "http" in g.torch_visible_source and "grade:" in g.torch_visible_source
    # the driver keeps a little: torch sees at most what nvidia-smi shows, and not 3 % less (a unit mix-up would be)
    assert 0.97 * g.usable_memory_gib <= g.torch_visible_gib <= g.usable_memory_gib


@pytest.mark.parametrize(("key", "p2p"), [
    ("RTX-4090", False),  # NVIDIA's driver does not enable P2P on GeForce RTX 40 (NVIDIA/nccl #1127)
    ("H100", None),  # unknown where no source is cited (NVLink parts use NVLink, not PCIe P2P)
    ("A10G", None),
])
def test_peer_to_peer_flag_carries_its_source(catalog, key, p2p):
    g = catalog.gpu(key)
    assert g.p2p is p2p
    assert (g.p2p_source is not None) == (p2p is not None)


_GPU_BASE = dict(key="X", name="X", vendor="NVIDIA", architecture="Ada", form_factor="PCIe", memory_gb=24.0,
                 usable_memory_gib=23.99, bf16_supported=True, fp8_supported=True, nvlink=False, source="test")


@pytest.mark.parametrize("extra, error", [
    (dict(torch_visible_gib=24.5, torch_visible_source="a log"), "exceeds usable_memory_gib"),  # more than the driver has
    (dict(torch_visible_gib=23.5), "needs torch_visible_source"),
    (dict(p2p=False), "needs p2p_source"),
])
def test_gpu_rows_reject_unsourced_or_impossible_memory_facts(extra, error):
    with pytest.raises(ValidationError, match=error):
        GPU(**_GPU_BASE, **extra)
    # the same row with a source and a possible figure loads
    GPU(**_GPU_BASE, torch_visible_gib=23.5, torch_visible_source="a log", p2p=False, p2p_source="a driver note")
