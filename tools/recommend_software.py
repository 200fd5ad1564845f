"""Software support as fit conditions: which GPUs the recommender offers, and with which caveats.

The rules are data with their sources (`Catalog.software_rules`, loaded from
knowledge/catalog/support/software.yaml into `tools.domain.SoftwareRule`); this module only
applies them, once per GPU model per run:

* `exclude` (Kepler/Maxwell below compute capability 6.0, AMD MI25-class): never offered for the
  workloads in the rule's scope; the instance becomes a near-miss with the rule as its reason;
* `exclude_unless_named` (Pascal for LLM work): the same, unless the user named this GPU;
* `caveat` (pre-Turing PyTorch wheels, no FlashAttention-2, Ascend ports): offered with a warning
  that names the rule (rendered per rule key in tools/messages/recommend.py);
* `requires` (BF16 ≥ 8.0, FP8 ≥ 8.9): a feature the GPU lacks; the recommender's precision checks
  and the serving variants ask `lacks(gpu, feature)`.

LLM work (the scope `llm`) is a decoder or encoder-decoder model; a raw memory need with no
model is not known to be one, so only `any`-scope rules apply to it.

Fractional GPUs (vGPU slices) are a separate fit condition: never offered for training, and not
for serving-aware recommendations (the serving estimate needs whole GPUs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tools.domain import GPU, ModelKind, ModelSpec, SoftwareEffect, SoftwareRule, SoftwareStack, software_rules_for
from tools.notes import Note
from tools.recommend_codes import SoftwareCode

LLM_KINDS = (ModelKind.decoder, ModelKind.encoder_decoder)


@dataclass(frozen=True)
class Verdict:
    """What the rules say about one GPU for this workload."""

    exclude: SoftwareRule | None  # the first rule that keeps the GPU out (None: offered)
    caveats: tuple[SoftwareRule, ...] = ()
    lacks: frozenset[str] = field(default_factory=frozenset)  # features of `requires` rules the GPU lacks


def is_llm(model: ModelSpec | None) -> bool:
    return model is not None and model.kind in LLM_KINDS


# Names a rule's message shows (package, build and architecture names, as the rule's sources write them).
RULE_NAMES: dict[str, dict] = {
    "pre-turing-wheels": {"wheel": "cu126", "min_arch": "Turing"},  # pytorch/pytorch#172352, v2.8.0 release notes
    "flash-attention-2": {"min_arch": "Ampere"},  # Dao-AILab/flash-attention README
    "ascend-ports": {"ports": ["torch_npu", "vLLM-Ascend", "MindIE"], "stack_name": "CANN"},  # Ascend/pytorch, vllm-ascend
}


def _params(rule: SoftwareRule, gpu: GPU) -> dict:
    return {"rule": rule.key, "gpu": gpu.key, "cc": gpu.cc, "stack": gpu.stack.value if gpu.stack else None,
            **RULE_NAMES.get(rule.key, {})}


class SoftwareChecker:
    """The rules applied per GPU model, cached for one recommender run."""

    def __init__(self, rules: list[SoftwareRule], *, llm: bool, named_gpu: str | None):
        self.rules = rules
        self.llm = llm
        self.named_gpu = named_gpu
        self._cache: dict[str, Verdict] = {}

    def verdict(self, gpu: GPU) -> Verdict:
        if gpu.key not in self._cache:
            exclude = None
            caveats: list[SoftwareRule] = []
            lacks: set[str] = set()
            for rule in software_rules_for(gpu, self.rules, llm=self.llm):
                if rule.effect == SoftwareEffect.exclude or (
                    rule.effect == SoftwareEffect.exclude_unless_named and gpu.key != self.named_gpu
                ):
                    exclude = exclude or rule
                elif rule.effect == SoftwareEffect.caveat:
                    caveats.append(rule)
                elif rule.effect == SoftwareEffect.requires and rule.feature:
                    lacks.add(rule.feature)
            self._cache[gpu.key] = Verdict(exclude, tuple(caveats), frozenset(lacks))
        return self._cache[gpu.key]

    def reject_note(self, gpu: GPU) -> Note:
        rule = self.verdict(gpu).exclude
        assert rule is not None
        return Note.of(SoftwareCode.reject, **_params(rule, gpu),
                       unless_named=rule.effect == SoftwareEffect.exclude_unless_named)

    def warnings(self, gpu: GPU) -> list[Note]:
        return [Note.of(SoftwareCode.warn, **_params(rule, gpu)) for rule in self.verdict(gpu).caveats]

    def lacks(self, gpu: GPU, feature: str) -> bool:
        return feature in self.verdict(gpu).lacks


def fractional_note(fraction: float, gpu: GPU, *, training: bool) -> Note:
    return Note.of(SoftwareCode.reject_fractional, fraction=fraction, gpu=gpu.key, training=training)


# Quantised serving formats worth proposing beside bf16, by what the GPU runs natively. Source: vLLM
# "Quantization — Supported Hardware" (https://docs.vllm.ai/en/v0.14.0/features/quantization/): FP8 W8A8 on
# Ada (8.9), Hopper (9.0) and AMD GPUs; AWQ on Turing (7.5) and newer NVIDIA GPUs, not Volta, not AMD.
FP8_MIN_CC = 8.9
AWQ_MIN_CC = 7.5


def proposes_fp8(gpu: GPU, checker: SoftwareChecker) -> bool:
    if not gpu.fp8_supported or checker.lacks(gpu, "fp8"):
        return False
    return gpu.stack == SoftwareStack.rocm or gpu.cc_at_least(FP8_MIN_CC)


def proposes_int4(gpu: GPU) -> bool:
    return gpu.stack == SoftwareStack.cuda and gpu.cc_at_least(AWQ_MIN_CC)
