"""Software support as data: compute capability (given or derived), software stack, and the sourced rules."""

from __future__ import annotations

import textwrap

import pytest

from knowledge.catalog import load_catalog
from knowledge.catalog.loader import BUILTIN, USER, build_catalog
from knowledge.catalog.software import load_software_rules
from knowledge.settings import Settings
from tools.domain import GPU, SoftwareEffect, SoftwareStack, derive_compute_capability, software_rules_for
from tools.errors import ConfigError


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(Settings(catalog_dir=None))


# (vendor, architecture as a user file might write it, derived compute capability)
DERIVE = [
    ("NVIDIA", "Hopper", 9.0),
    ("NVIDIA", "Ampere", 8.0),              # bare generation: its lowest capability (GA100)
    ("NVIDIA", "Ampere (GA100)", 8.0),
    ("NVIDIA", "Ampere (GA102)", 8.6),      # the chip code decides
    ("NVIDIA", "Ada Lovelace (AD104)", 8.9),
    ("NVIDIA", "Blackwell", 10.0),
    ("NVIDIA", "Blackwell Ultra", 10.3),
    ("NVIDIA", "Blackwell (GB202)", 12.0),  # GeForce / RTX PRO Blackwell
    ("NVIDIA", "Turing (TU102)", 7.5),
    ("NVIDIA", "Volta", 7.0),
    ("NVIDIA", "Pascal", 6.0),
    ("NVIDIA", "Pascal (GP102)", 6.1),
    ("NVIDIA", "Maxwell (GM200)", 5.2),
    ("NVIDIA", "Kepler", 3.0),
    ("NVIDIA", "something new", None),      # unknown: not guessed
    ("AMD", "CDNA 3", None),                # not CUDA
    ("Huawei", "Da Vinci (NPU)", None),
]


@pytest.mark.parametrize("vendor, arch, cc", DERIVE)
def test_compute_capability_derivation(vendor, arch, cc):
    assert derive_compute_capability(vendor, arch) == cc


def test_every_catalog_gpu_has_a_stack_and_a_source(catalog):
    for g in catalog.gpus.values():
        assert g.software_stack is not None, g.key
        assert g.software_source and ("http" in g.software_source), g.key
        assert g.stack == {"NVIDIA": SoftwareStack.cuda, "AMD": SoftwareStack.rocm, "Huawei": SoftwareStack.cann}[g.vendor]
        if g.stack == SoftwareStack.cuda:
            assert g.cc is not None, g.key
        else:
            assert g.cc is None, g.key


def test_derivation_never_claims_more_than_the_catalog_value(catalog):
    # The fallback for user files must be conservative: same generation, never a higher capability.
    for g in catalog.gpus.values():
        if g.compute_capability is None:
            continue
        derived = derive_compute_capability(g.vendor, g.architecture)
        assert derived is not None and derived <= g.compute_capability, g.key
        assert int(derived) == int(g.compute_capability) or g.compute_capability >= 10, g.key  # Blackwell 10.x/12.0


@pytest.mark.parametrize("key, cc", [("K80", 3.7), ("M40", 5.2), ("P40", 6.1), ("P100", 6.0), ("V100-32GB", 7.0), ("T4", 7.5),
                                     ("A100-80GB", 8.0), ("A10", 8.6), ("RTX-4090", 8.9), ("H100", 9.0), ("B200", 10.0),
                                     ("RTX-5090", 12.0)])
def test_published_compute_capabilities(catalog, key, cc):
    # developer.nvidia.com/cuda-gpus and /cuda-legacy-gpus
    assert catalog.gpus[key].cc == cc and not catalog.gpus[key].cc_derived


def test_a_user_gpu_file_without_the_new_fields_still_loads(tmp_path):
    d = tmp_path / "cat"
    d.mkdir()
    (d / "g.yaml").write_text(textwrap.dedent("""\
        gpus:
          - {key: OLD1, name: Old card, vendor: NVIDIA, architecture: Ampere (GA102), form_factor: PCIe, memory_gb: 24,
             usable_memory_gib: 22.5, bf16_supported: true, fp8_supported: false, nvlink: false, source: s}
          - {key: NEW1, name: New card, vendor: NVIDIA, architecture: Hopper, form_factor: SXM, memory_gb: 80,
             usable_memory_gib: 79, bf16_supported: true, fp8_supported: true, nvlink: true, source: s,
             compute_capability: 9.0, software_stack: cuda}
        """), encoding="utf-8")
    c = build_catalog([(USER, d)])
    old, new = c.gpus["OLD1"], c.gpus["NEW1"]
    assert (old.cc, old.cc_derived, old.stack) == (8.6, True, SoftwareStack.cuda)
    assert (new.cc, new.cc_derived) == (9.0, False)


def test_a_bad_stack_is_one_line(tmp_path):
    d = tmp_path / "cat"
    d.mkdir()
    (d / "g.yaml").write_text("gpus:\n  - {key: X, name: X, vendor: NVIDIA, architecture: Hopper, form_factor: SXM, memory_gb: 80,"
                              " usable_memory_gib: 79, bf16_supported: true, fp8_supported: true, nvlink: true, source: s,"
                              " software_stack: opencl}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"g\.yaml row 1 \(line 2\): gpu 'X': software_stack: Input should be 'cuda', 'rocm' or 'cann'"):
        build_catalog([(BUILTIN, d)])


# (GPU key, LLM work?, rule keys that apply) -- the issue's rules, one row per class of card
RULES = [
    ("K80", True, ["cuda-pre-pascal", "pre-turing-wheels", "bf16", "fp8", "flash-attention-2"]),  # Kepler: excluded
    ("M60", True, ["cuda-pre-pascal", "pre-turing-wheels", "bf16", "fp8", "flash-attention-2"]),  # Maxwell: excluded
    ("P40", True, ["pascal-llm", "pre-turing-wheels", "bf16", "fp8", "flash-attention-2"]),       # Pascal: unless named
    ("V100-32GB", True, ["pre-turing-wheels", "bf16", "fp8", "flash-attention-2"]),               # cu126 caveat
    ("T4", True, ["bf16", "fp8", "flash-attention-2"]),
    ("A100-80GB", True, ["fp8"]),
    ("RTX-4090", True, []),
    ("MI25", True, ["amd-pre-cdna"]),
    ("MI300X", True, []),
    ("Ascend-910B", True, ["ascend-ports"]),
    ("K80", False, ["pre-turing-wheels", "bf16", "fp8", "flash-attention-2"]),  # LLM-only exclusions do not apply
]


@pytest.mark.parametrize("key, llm, expected", RULES, ids=[f"{r[0]}-{'llm' if r[1] else 'other'}" for r in RULES])
def test_rules_that_apply(catalog, key, llm, expected):
    rules = load_software_rules()
    assert [r.key for r in software_rules_for(catalog.gpus[key], rules, llm=llm)] == expected


def test_every_rule_has_a_source_url_and_the_issue_thresholds():
    rules = {r.key: r for r in load_software_rules()}
    assert all(r.source.startswith("https://") for r in rules.values())
    assert (rules["cuda-pre-pascal"].effect, rules["cuda-pre-pascal"].below_compute_capability) == (SoftwareEffect.exclude, 6.0)
    assert rules["pascal-llm"].effect == SoftwareEffect.exclude_unless_named
    assert rules["pre-turing-wheels"].below_compute_capability == 7.5 and "172352" in rules["pre-turing-wheels"].source
    assert (rules["bf16"].below_compute_capability, rules["fp8"].below_compute_capability) == (8.0, 8.9)
    assert rules["flash-attention-2"].effect == SoftwareEffect.caveat  # a caveat, not a filter


def test_a_rule_without_a_matcher_matches_nothing():
    from tools.domain import SoftwareRule

    rule = SoftwareRule(key="x", effect=SoftwareEffect.caveat, source="https://example.org")
    gpu = GPU(key="G", name="G", vendor="NVIDIA", architecture="Hopper", form_factor="SXM", memory_gb=80, usable_memory_gib=79,
              bf16_supported=True, fp8_supported=True, nvlink=True, source="s")
    assert not rule.matches(gpu)
