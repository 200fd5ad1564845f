"""Software support as a fit condition (issue 12): the catalog's sourced rules applied by the recommender.

Inline GPUs with real architectures (so compute capability is derived as for user files) and the real
rules file (knowledge/catalog/support/software.yaml, every rule with its source).
"""

from __future__ import annotations

import datetime as dt

import pytest

from knowledge.catalog import load_software_rules
from tools.catalog import Catalog
from tools.domain import GPU, Billing, Instance, Price, PriceGrade, Provider, Region
from tools.messages import render
from tools.recommend import recommend
from tools.schemas import ExchangeRate, RecommendRequest, VramRequest
from tools.vram_shape import model_from_params

FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="test rate")
TODAY = dt.date(2026, 12, 1)


def gpu(key: str, vendor: str, architecture: str, *, bf16: bool = True) -> GPU:
    return GPU(key=key, name=key, vendor=vendor, architecture=architecture, form_factor="PCIe", memory_gb=48,
               usable_memory_gib=44.0, bf16_tflops=100 if bf16 else None, fp16_tflops=100, bf16_supported=bf16,
               fp8_supported=False, nvlink=False, source="test")


GPUS = {g.key: g for g in (
    gpu("K80", "NVIDIA", "Kepler (GK210)", bf16=False),  # cc 3.0 (derived): no current PyTorch build
    gpu("M60", "NVIDIA", "Maxwell (GM204)", bf16=False),  # cc 5.2
    gpu("P40", "NVIDIA", "Pascal (GP102)", bf16=False),  # cc 6.1: Pascal, only when named
    gpu("V100", "NVIDIA", "Volta (GV100)", bf16=False),  # cc 7.0: cu126 wheels, no FlashAttention-2
    gpu("T4", "NVIDIA", "Turing (TU104)", bf16=False),  # cc 7.5: no FlashAttention-2
    gpu("A100", "NVIDIA", "Ampere (GA100)"),  # cc 8.0: no caveat
    gpu("MI25", "AMD", "Vega 10"),  # MI25-class: excluded by key
    gpu("Ascend-910B", "Huawei", "Da Vinci"),  # CANN: offered with the ports caveat
)}


def inst(g: str, amount: float) -> Instance:
    return Instance(provider=f"p-{g.lower()}", instance=f"{g.lower()}.1x", gpu=g, gpu_count=1, vcpus=32, ram_gib=256,
                    region=Region(name="r"), source="test",
                    prices=[Price(billing=Billing.on_demand, amount=amount, currency="USD", source="test",
                                  as_of=dt.date(2026, 7, 1), grade=PriceGrade.official)])


# cheapest first, so an obsolete GPU would be the top pick if it were offered
CAT = Catalog(gpus=GPUS, providers={f"p-{k.lower()}": Provider(key=f"p-{k.lower()}", name=k, kind="gpu-cloud") for k in GPUS},
              instances=[inst(k, 0.1 * (i + 1)) for i, k in enumerate(GPUS)], software_rules=load_software_rules())
M1 = model_from_params(1e9, "1B")  # a decoder: LLM work


def run(model=M1, **kw):
    vram = kw.pop("vram", {"mode": "lora"})
    return recommend(CAT, model, RecommendRequest(vram=VramRequest(**vram), **kw), FX, today=TODAY)


def offered(rec) -> list[str]:
    return [o.gpu for o in rec.options]


def software_rejects(rec) -> dict[str, str]:
    return {r.gpu: r.reason.params["rule"] for r in rec.rejected if r.kind == "software"}


@pytest.mark.parametrize(
    "kw, offered_gpus, rejected_rules",
    [
        # LLM LoRA: Kepler/Maxwell and MI25-class never, Pascal not unless named; V100, T4, A100, Ascend offered
        ({}, ["V100", "T4", "A100", "Ascend-910B"],
         {"K80": "cuda-pre-pascal", "M60": "cuda-pre-pascal", "P40": "pascal-llm", "MI25": "amd-pre-cdna"}),
        # LLM serving (inference) the same
        ({"vram": {"mode": "inference"}}, ["V100", "T4", "A100", "Ascend-910B"],
         {"K80": "cuda-pre-pascal", "M60": "cuda-pre-pascal", "P40": "pascal-llm", "MI25": "amd-pre-cdna"}),
        # the user names the P40: offered (with its caveats)
        ({"gpu": "P40"}, ["P40"], {}),
        # naming a K80 does not bring it back: no current PyTorch build runs on it
        ({"gpu": "K80"}, [], {"K80": "cuda-pre-pascal"}),
    ],
)
def test_obsolete_gpus_are_never_offered_for_llm_work(kw, offered_gpus, rejected_rules):
    rec = run(**kw)
    assert offered(rec) == offered_gpus
    assert software_rejects(rec) == rejected_rules


def test_a_raw_memory_need_is_not_known_llm_work():
    # no model: only rules of scope "any" apply (caveats), so the old cards stay, with warnings
    rec = recommend(CAT, None, RecommendRequest(required_gib=10), FX, today=TODAY)
    assert "K80" in offered(rec) and software_rejects(rec) == {}


@pytest.mark.parametrize(
    "gpu_key, rules",
    [
        ("V100", ["pre-turing-wheels", "flash-attention-2"]),  # cc 7.0: the cu126 wheels; no FlashAttention-2
        ("T4", ["flash-attention-2"]),  # cc 7.5: current wheels run; FlashAttention-2 needs Ampere
        ("A100", []),  # cc 8.0: nothing to say
        ("Ascend-910B", ["ascend-ports"]),  # CANN: the Ascend ports of CUDA-only code
    ],
)
def test_caveats_are_warnings(gpu_key, rules):
    (o,) = [o for o in run().options if o.gpu == gpu_key]
    assert [w.params["rule"] for w in o.warnings if w.code == "software.warn"] == rules
    assert ("software" in o.fit_problems) is bool(rules)


def test_caveat_and_reject_texts():
    rec = run()
    v100 = next(o for o in rec.options if o.gpu == "V100")
    wheels = next(w for w in v100.warnings if w.params.get("rule") == "pre-turing-wheels")
    assert render(wheels, "en") == ("V100 (compute capability 7.0): current default PyTorch CUDA wheels need Turing or "
                                    "newer; install the cu126 build")
    ascend = next(o for o in rec.options if o.gpu == "Ascend-910B")
    ports = next(w for w in ascend.warnings if w.code == "software.warn")
    assert "torch_npu, vLLM-Ascend, MindIE" in render(ports, "en") and "昇腾" in render(ports, "zh")
    k80 = next(r for r in rec.rejected if r.gpu == "K80")
    assert render(k80.reason, "en") == ("not offered for LLM training or serving: K80 (compute capability 3.0) has no "
                                        "current PyTorch build")
    p40 = next(r for r in rec.rejected if r.gpu == "P40")
    assert p40.reason.params["unless_named"] is True and "unless you name it" in render(p40.reason, "en")


def test_without_rules_nothing_is_filtered():
    # an inline catalog without rules (as older callers build them): every GPU is offered
    bare = Catalog(gpus=CAT.gpus, providers=CAT.providers, instances=CAT.instances)
    rec = recommend(bare, M1, RecommendRequest(vram=VramRequest(mode="lora")), FX, today=TODAY)
    assert len(rec.options) == 5 and software_rejects(rec) == {}  # top_k 5 of the 8
