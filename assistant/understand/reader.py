"""One user turn -> a `Reading`: the typed `SlotUpdate`, the cue words found, the language, what was pasted.

The reader is deterministic and reads a turn once: pasted material is split off
and stripped of hidden content (`pasted.py`), numbers are normalised
(`numbers.py`), catalog names are found by one automaton (`names.py`) and
replaced by placeholders, and the slot patterns (`patterns.py`) and the word
tables (`lexicon.yaml`) fill the update. Slots stated in pasted material count
as the user's, but are listed in `Reading.pasted_slots` so that nothing pasted
can back a catalog price or spec. The frame is decided afterwards
(`frames.py`), because some slots depend on it (a question *about* spot states
no billing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from assistant.understand import patterns as P
from assistant.understand import serving_setup
from assistant.understand.language import language_of
from assistant.understand.names import LEXICON_PATH, NameHit, NameMatcher, compact
from assistant.understand.numbers import normalise
from assistant.understand.pasted import SplitTurn, split_turn
from assistant.understand.slots import Deadline, Money, SlotUpdate
from tools.notes import Note

_PLACEHOLDER = {"model": "m", "gpu": "g", "provider": "p", "instance": "i"}
FUZZY_WORDS = {  # Latin keywords a typo should still reach (edit distance 1, or 2 for long words)
    "finetune": "finetune", "finetuning": "finetune", "fine-tune": "finetune", "inference": "inference",
    "pretrain": "pretrain", "pretraining": "pretrain", "deploy": "inference", "deployment": "inference",
    "serving": "inference", "quantization": "quant", "quantized": "quant",
}
_MODEL_LIKE = re.compile(
    r"(?<![A-Za-z0-9_.\-/])((?:[A-Za-z][A-Za-z0-9.]*[-_/])+[A-Za-z0-9.]*?(\d+(?:\.\d+)?)\s?[bB](?:[-_][A-Za-z0-9.]+)*"
    r"|[A-Z][A-Za-z]*\d*(?:[.][0-9]+)?\s(?:[A-Z][A-Za-z0-9]*\s)?(\d+(?:\.\d+)?)[bB])(?![A-Za-z0-9_])"
)
# a model-like identifier after a verb that takes a model, or before 模型 / model / checkpoint
_MODEL_ID = re.compile(
    r"(?:(?:fine-?tun\w*|finetun\w*|train\w*|pretrain\w*|serv\w*|deploy\w*|run\w*|load\w*|host\w*|quantiz\w*|infer\w*|"
    r"微调|训练|训|部署|推理|跑|加载|启动|用|起了?)\s*(?:the\s+|a\s+|an\s+|my\s+|our\s+|一个|个)?"
    r"(?P<id>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*(?:-[A-Za-z0-9]+)*)(?![A-Za-z0-9_])"
    r"|(?P<id2>[A-Z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+)(?=\s*(?:的)?\s*(?:模型|model\b|checkpoint|权重)))"
)
# A name in subject position of a workload verb ("how much vram does chandra need", "can InfiniteTalk run on a 4090",
# "FireRedASR 能跑在 910B 上吗"): the sentence asks about it, so even a lower-case word the catalog lacks is a model.
_MODEL_SUBJECT = re.compile(
    r"\b(?i:does|do|can|could|will|would|should|is)\s+(?P<id>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*)(?:'s)?\s+"
    r"(?i:(?:model\s+)?(?:needs?|requires?|takes?|eats?|uses?|run|fit|train|work|support)\b)"
    r"|^\s*(?P<id3>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*)\s*(?:能|可以|在|完整|如果|的训练|的推理|推理|训练|部署|要|需要|大概|一般)"
    # the object of a workload verb before where it runs ("train neuralrecon on a 3090", "run photomaker on an rtx
    # 3060"), and a name before its own training ("scGPT-style pretraining took", "caduceus pretraining was")
    r"|\b(?i:train|retrain|run|deploy|serve|finetune|fine-tune|pretrain)\s+(?P<id4>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*)\s+(?i:on|across|with)\s"
    r"|(?:^|[.!?]\s+)(?P<id5>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*?)(?i:-style)?(?:'s)?\s+(?i:pre-?training|pretrain|training)\s+(?i:took|takes|was|is|runs|ran|estimates)\b"
)
# what stands in that position without being a model ("can it run", "does training need", "will this fit")
_NOT_SUBJECTS = {"it", "this", "that", "these", "those", "they", "i", "you", "we", "he", "she", "one", "mine", "yours",
                 "everything", "anything", "something", "nothing", "someone", "anyone", "there", "what", "which", "who",
                 "lora", "qlora", "inference", "training", "finetuning", "the", "a", "an", "my", "our", "your", "any",
                 "gpu", "card", "model", "vram", "memory", "cpu", "ram", "code", "script", "job", "run", "server",
                 "people", "anybody", "everybody", "also", "still", "even", "just", "really", "then", "them", "faster",
                 "locally", "here", "model", "models", "both", "all", "each", "full", "my", "stage", "inference", "their",
                 "his", "her", "its", "cost", "time", "price", "budget"}
_GPU_LIKE = re.compile(r"(?<![A-Za-z0-9_.])((?:rtx|gtx|rx)\s?\d{3,4}(?:\s?(?:ti|super|xt))?|[A-Z]{1,3}\d{2,4}[A-Za-z]?(?:-\d+G[B]?)?)(?![A-Za-z0-9_])", re.I)
_NOT_MODEL_WORDS = {"a", "an", "the", "my", "our", "this", "that", "for", "with", "to", "on", "of", "and", "or", "is", "it",
                    "about", "around", "need", "run", "train", "lora", "qlora", "llm", "model", "ai", "gpu", "vram", "use"}
_NEGATIVE = re.compile(r"(?<![A-Za-z0-9_.\-])-\s?\$?\s?(\d+(?:\.\d+)?)\s*(?:[bBkKmM]\b|gb|GB|GiB|gpus?|GPUs?|张|卡|tokens?|hours?|小时|亿|dollars?|usd|USD|元|块|美元|per|/|a month|每月|epochs?|users?)"
                       r"|(?:¥|\$)\s?-\s?(\d+)", re.I)
_ZERO = re.compile(r"(?<![A-Za-z0-9_.])0\s*(?:parameters|params|B\b|GPUs?|张卡|个参数|张\s*\ue000g)", re.I)
_ELLIPSIS = re.compile(
    r"^\s*(?:and|what about|how about|what if|also|then|ok(?:ay)?,?\s*(?:and|now|what about)?|same (?:but|for|with)|now|instead|"
    r"那|那么|换成|改成|如果|要是|假如|再|还有|那如果|换|改|用|只要|只看|就|而且)\b|[呢吗]\s*[？?]?\s*$",
    re.I,
)


# a variant word right after a GPU's name that the catalog key would carry if it had that part
_VARIANT_AFTER = re.compile(r"[-\s]?(?:ti|super)(?![A-Za-z0-9])|\s*(?:laptop|mobile|max-q)\b|\s*(?:笔记本|移动版|魔改)", re.I)
# a figure beside the name that is no card's memory: a total of several, the host's RAM
_NOT_CARD_MEMORY = re.compile(r"\s*(?:total|in total|combined|altogether|overall|一共|总共|system|host|cpu|ram\b|ddr|内存|系统)", re.I)
_MODDED = re.compile(r"modded|modified|魔改|改装", re.I)
_MEMORY_AFTER = re.compile(r"s?\s*[（(]?\s*(\d{1,3})\s?(?:g|gb|gib)(?![A-Za-z])", re.I)
_MEMORY_BEFORE = re.compile(r"(?<![\d.])(\d{1,3})\s?(?:g|gb|gib)\s*(?:的|版|版本)?\s*$", re.I)


def _clause_around(text: str, start: int, end: int) -> str:
    left = max((m.end() for m in re.finditer(r"[,.;:!?，。；：！？\n]", text[:start])), default=0)
    right = next((m.start() for m in re.finditer(r"[,.;:!?，。；：！？\n]", text[end:])), len(text) - end)
    return text[left:end + right]


def _gpu_family(key: str) -> str:
    """'A100-80GB-PCIe' -> 'A100', 'V100-16GB' -> 'V100', 'H100-PCIe' -> 'H100'."""
    return re.sub(r"(?i)(?:[-\s]?\d+\s?gb?)?(?:[-\s]?(?:sxm\d?|pcie))?$", "", key)


# a version right after a family name: "whisper medium", "Stable Diffusion 2.1", "flux dev", "SD 3"
_FAMILY_VERSION = re.compile(r"[-_ ]?(?:v?\d+(?:\.\d+)*|xxl|xl|tiny|base|small|medium|large(?:-v\d)?|turbo|dev|schnell|pro|mini|max|plus)(?![A-Za-z0-9])", re.I)
_AI_CONTEXT = re.compile(r"lora|fine-?tun|finetun|train|infer|serv|quant|fp8|int[48]|gguf|vram|\bgpu|\bmodel|模型|推理|微调|训练|部署|显存|\ue000g", re.I)
# ASCII word edges: Python's \b counts Chinese characters as word characters, so "\bfp8\b" missed "跑FP8的卡".
# \b is rewritten as an ASCII edge (re.A would also make \w ASCII-only: "how does 昇腾 work" must still match)
_ASCII_EDGE = r"(?:(?<![A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<=[A-Za-z0-9_])(?![A-Za-z0-9_]))"


def _compile(pattern: str) -> re.Pattern:
    # only a real \b (an even run of backslashes before it), never an escaped backslash followed by "b"
    return re.compile(re.sub(r"(?<!\\)((?:\\\\)*)\\b", lambda m: m.group(1) + _ASCII_EDGE, pattern), re.I)


@lru_cache(maxsize=1)
def lexicon() -> dict[str, Any]:
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8")) or {}
    compiled: dict[str, Any] = {}
    for table in ("mode", "precision", "billing", "region", "currency_words", "features", "retract", "frame_cues"):
        compiled[table] = [(value, [_compile(p) for p in pats]) for value, pats in (data.get(table) or {}).items()]
    compiled["training_words"] = [_compile(p) for p in data.get("training_words") or []]
    compiled["owned_hardware"] = [_compile(p) for p in data.get("owned_hardware") or []]
    compiled["topic_switch"] = [_compile(p) for p in data.get("topic_switch") or []]
    compiled["model_families"] = sorted({str(f).lower() for f in data.get("model_families") or []}, key=len, reverse=True)
    compiled["family_words_needing_context"] = [str(f).lower() for f in data.get("family_words_needing_context") or []]
    compiled["not_model_names"] = {str(f).lower() for f in data.get("not_model_names") or []}
    compiled["domain_words"] = [_compile(p) for p in data.get("domain_words") or []]
    compiled["retract_pairs"] = _retract_pairs(data)
    compiled["retract_joined"] = _retract_joined(data)
    return compiled


_CLAUSE_GAP = r"[^,.;:!?，。；：！？\n]"  # a gap that stays inside one clause
_PRONOUN = re.compile(r"它|\bthem\b|\bthose\b")
_CLAUSE_END = re.compile(r"[,.;:!?，。；：！？\n]")


def _clause_before(low: str, at: int) -> str:
    """The clause up to `at`: a pronoun's GPU is named in its own clause ("4090要是搞不定就别管它了"), not in an
    earlier one ("4090上跑的时候报错了，别管它了" dismisses the error)."""
    ends = [m.end() for m in _CLAUSE_END.finditer(low, 0, at)]
    return low[ends[-1] if ends else 0:at]


def _retract_pairs(data: dict[str, Any]) -> list[tuple[str, re.Pattern]]:
    """(slot or 'hardware', pattern) for a dismissive phrase next to a slot's topic in one clause."""
    before = "|".join(data.get("retract_dismiss_before") or [])
    after = "|".join(data.get("retract_dismiss_after") or [])
    pairs = []
    for slot, topics in (data.get("retract_topics") or {}).items():
        topic = "|".join(topics)
        pattern = (rf"(?P<before>(?:{before})\s*(?:the |my |that |this |our |any |about )?(?:[^\s,.;:!?，。；：！？]+ )?(?:{topic})"
                   rf"|(?:{before}){_CLAUSE_GAP}{{0,3}}(?:{topic}))"
                   rf"|(?:{topic}){_CLAUSE_GAP}{{0,6}}?(?:{after})")
        pairs.append((slot, _compile(pattern)))
    return pairs


# Words that join topics into one list: "drop the GPUs and the budget", "预算和卡型都不限", "budget, region and cloud".
_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|as well as|plus)\s+|\s*&\s*|\s*(?:和|以及|还有|跟|与|及|、|，还有|，)\s*)"


_APPROVED = r"\s*(?:is|are) (?:ok|okay|fine|good)|\s*(?:也行|可以|没问题|都行)"  # "…, and spot is ok" approves it


def _retract_joined(data: dict[str, Any]) -> list[tuple[str, re.Pattern, re.Pattern | None]]:
    """(slot or 'hardware', a topic joined after a withdrawal, a topic joined before one) for a withdrawal that names
    a list of topics. Hardware written as a GPU name is not joined backwards: "I have 4 A100s and the budget doesn't
    matter" keeps the A100s."""
    joined = []
    for slot, topics in (data.get("retract_topics") or {}).items():
        if slot == "billing":  # its topics are mostly values ("spot", "包月"): "drop the count, and spot is ok" picks one
            topics = [t for t in topics if "billing" in t or "计费" in t]
        topic = "|".join(topics)
        after = _compile(rf"{_JOIN}(?:the |my |that |our |any )?(?:{topic})(?![a-z])(?!{_APPROVED})")
        spoken = "|".join(t for t in topics if r"\ue000" not in t and "\ue000" not in t)  # the lexicon writes the escape
        before = _compile(rf"(?<![a-z])(?:{spoken}){_JOIN}(?:the |my |that |our |any )?$") if spoken else None
        joined.append((slot, after, before))
    return joined


HARDWARE_SLOTS = ("gpus", "gpu_count", "available_gib")
_ALLOWED = re.compile(r"都行|都可以|也行|也可以|没问题")  # approvals: beside a GPU name they allow it
_LOWERED = re.compile(r"\s+(?:to|below|under|by|down|from|a bit|further)\b|\s*\d", re.I)
CONDITION_CLAUSE = re.compile(r"[^,.;:!?，。；：！？\n]*(?:\bif\b|\bunless\b|\bin case\b|如果|要是|假如|万一|的话)[^,.;:!?，。；：！？\n]*", re.I)
_ASKED = re.compile(r"[^,.;:!?，。；：！？\n—]*[吗嘛么?？]")  # the rest of the clause asks


def _complement(spans: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The parts of [0, n) outside the spans."""
    out, at = [], 0
    for a, b in sorted(spans):
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < n:
        out.append((at, n))
    return out


def _blank(t: str, spans: list[tuple[int, int]]) -> str:
    """The text with these spans replaced by spaces (offsets kept)."""
    chars = list(t)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)  # "forget my card": whichever of these is in force


def _first(table: list[tuple[str, list[re.Pattern]]], text: str) -> str | None:
    for value, pats in table:
        if any(p.search(text) for p in pats):
            return value
    return None


# "no spot", "nothing reserved", "不要包月", "别给我包年的": the billing named is the one refused
_NEGATED = re.compile(r"(?:\bno|\bnot|\bnothing|\bwithout|\bavoid|\bskip|\bexcept|不要|不用|不想|别给我|别用|别|不考虑|不接受|排除|除了)\s*(?:the\s+|any\s+|给我)?(?:\w+\s+)?$", re.A)


def _first_affirmed(table: list[tuple[str, list[re.Pattern]]], text: str) -> str | None:
    """The first value whose words appear without a negation right before them."""
    for value, pats in table:
        for p in pats:
            for m in p.finditer(text):
                if not _NEGATED.search(text[max(0, m.start() - 14) : m.start()]):
                    return value
    return None


def _all(table: list[tuple[str, list[re.Pattern]]], text: str) -> list[str]:
    return [value for value, pats in table if any(p.search(text) for p in pats)]


@dataclass
class Prepared:
    """One part of a turn (own words or pasted) ready for the patterns."""

    text: str  # normalised, names replaced by placeholders
    low: str
    hits: list[NameHit]


@dataclass
class Reading:
    update: SlotUpdate
    language: str
    cues: frozenset[str]
    split: SplitTurn
    elliptical: bool = False
    task_words: bool = False  # the turn names a task (train, serve, rent …): a full question, not an ellipsis
    topic_switch: bool = False  # "another question:", "另外问一下": a new, unrelated question
    training: bool = False
    in_domain: bool = False
    domain_evidence: int = 0  # catalog names + distinct domain words: one word ("train", "rent") is weak evidence
    pasted_slots: set[str] = field(default_factory=set)
    unknown_model: str | None = None
    model_read_as: str | None = None  # the typo as written, when a catalog model was read from it ("Llamma-13B")
    unknown_gpu: str | None = None
    problems: list[Note] = field(default_factory=list)
    gpu_counts_by_key: dict[str, int] = field(default_factory=dict)
    text: str = ""  # the normalised own words (for the k-NN step)
    question_cues: frozenset[str] = frozenset()  # cue families of the sentence that asks (the last question)
    display_currency: str | None = None  # "in CNY?", "用美元算": the currency to answer in (not a budget)


class Reader:
    """Reads turns against one catalog. Build once (compiles the name automaton), share."""

    def __init__(self, matcher: NameMatcher):
        self.matcher = matcher
        self.lex = lexicon()
        models = matcher.catalog.models.values()
        # compact names of catalog models, with the size suffix they end with, for typo matching
        self._model_sizes: list[tuple[str, str, str]] = []
        for m in models:
            for n in (m.key, m.name, *m.aliases):
                c = compact(n)[0]
                size = re.search(r"(\d+(?:\.\d+)?)b$", c)
                if size:
                    self._model_sizes.append((c, size.group(1), m.key))
        # GPU variants by family ("A100" -> 40 GB, 80 GB, each SXM or PCIe), for "4张40G的A100"
        self._variants: dict[str, list[tuple[float, bool, str]]] = {}
        for g in matcher.catalog.gpus.values():
            self._variants.setdefault(_gpu_family(g.key), []).append((g.memory_gb, "pcie" in g.key.lower(), g.key))
        # a family named without a version or size ("Stable Diffusion", "whisper", "BERT", "Llama"): separators optional
        families = {m.family for m in models} | {str(f) for f in self.lex["model_families"]}
        # family names that are also ordinary words ("bloom filter", "I opt for", "in flux") need AI words beside them
        self._word_families = {str(f).lower() for f in self.lex.get("family_words_needing_context") or []}
        forms = sorted({re.sub(r"[-_\s]+", r"[-_ ]?", re.escape(f).replace(r"\-", "-")) for f in families}, key=len, reverse=True)
        self._family = re.compile(rf"(?<![A-Za-z0-9_.\-])({'|'.join(forms)})(?![A-Za-z0-9_\-]|\.(?:cpp|ai)\b)", re.I)

    # ------------------------------------------------------------------ public

    def read(self, text: str) -> Reading:
        split = split_turn(text)
        own = self._prepare(split.own)
        pasted = self._prepare(split.pasted) if split.pasted else None
        update: dict[str, Any] = {}
        pasted_slots: set[str] = set()
        problems: list[Note] = []
        counts: dict[str, int] = {}
        for part, is_pasted in ((own, False), (pasted, True)):
            if part is None:
                continue
            found = self._slots(part, problems, counts)
            for k, v in found.items():
                if is_pasted and k == "available_gib":
                    continue  # a memory figure in a pasted log or config ("total capacity of 79.15 GiB") is measured, not the user's card
                if k not in update and v is not None:
                    update[k] = v
                    if is_pasted:
                        pasted_slots.add(k)
        if update.get("gpus") and "gpus" not in pasted_slots and any(p.search(own.low) for p in self.lex["owned_hardware"]):
            update["owned"] = True
        cue_text = own.low if own.low.strip() else (pasted.low if pasted else "")
        cues = frozenset(_all(self.lex["frame_cues"], cue_text))
        if pasted is not None and not own.low.strip():
            cues |= {"pasted_only"}
        from_paste = [i for i in split.instructions if i not in split.posed]
        if split.has_pasted or from_paste:
            update["pasted"] = True
        if from_paste:
            update["pasted_instruction"] = True
        unknown_model = update.pop("_unknown_model", None)
        read_as = update.pop("_read_as", None)
        unknown_gpu = update.pop("_unknown_gpu", None)
        training = any(p.search(own.low) for p in self.lex["training_words"]) or (
            pasted is not None and any(p.search(pasted.low) for p in self.lex["training_words"])
        )
        domain_words = sum(1 for p in self.lex["domain_words"] if p.search(own.low))
        in_domain = bool(own.hits or (pasted and pasted.hits)) or domain_words > 0
        workload_named = any(update.get(k) for k in ("model", "model_name", "params", "gpus", "available_gib", "instance"))
        domain_evidence = (2 * len(own.hits) + (2 * len(pasted.hits) if pasted else 0) + domain_words
                           + 2 * bool(update.get("mode")) + 2 * workload_named)
        language = language_of(split.own or text)
        task_words = bool(update.get("mode")) or bool(cues & {"recommend", "memory", "feasibility", "time", "cost", "serving", "spec", "compare", "filter", "guidance"})
        elliptical = bool(_ELLIPSIS.search(split.own)) and len(split.own) < (60 if language == "en" else 30)
        topic_switch = any(p.search(split.own) for p in self.lex["topic_switch"])
        display_currency = _first(self.lex["currency_words"], own.low) if "budget" not in update else None
        question = _asking_sentence(own.low)
        question_cues = frozenset(_all(self.lex["frame_cues"], question)) if question else cues
        return Reading(
            topic_switch=topic_switch,
            display_currency=display_currency,
            question_cues=question_cues,
            update=SlotUpdate.model_validate(update),
            language=language,
            cues=cues,
            split=split,
            elliptical=elliptical,
            task_words=task_words,
            training=training,
            in_domain=in_domain,
            domain_evidence=domain_evidence,
            pasted_slots=pasted_slots,
            unknown_model=unknown_model,
            model_read_as=read_as[1] if read_as else None,
            unknown_gpu=unknown_gpu,
            problems=problems,
            gpu_counts_by_key=counts,
            text=normalise(split.own or split.pasted),
        )

    # ------------------------------------------------------------------ steps

    def _prepare(self, raw: str) -> Prepared:
        text = normalise(raw)
        hits = self.matcher.scan(text)
        lacking = [h for h in hits if self._variant_lacking(text, h)]
        if lacking:  # the card is written as a variant the catalog lacks: a GPU, not that one ("4张GPU 40G" still counts)
            for h in sorted(lacking, key=lambda h: -h.start):
                text = text[: h.start] + "GPU" + text[h.end :]
            hits = self.matcher.scan(text)
        out, last, seen = [], 0, {"m": 0, "g": 0, "p": 0, "i": 0}
        for h in hits:
            kind = _PLACEHOLDER[h.kind]
            out.append(text[last : h.start])
            out.append(f"\ue000{kind}{seen[kind]}\ue001")
            seen[kind] += 1
            last = h.end
        out.append(text[last:])
        prepared = "".join(out)
        return Prepared(prepared, prepared.lower(), hits)

    def _variant_lacking(self, text: str, hit: NameHit) -> bool:
        """A GPU written as a variant the catalog lacks ("5070 Ti", "RTX 5090 laptop", "a modded 48GB 4090", "3060 8G"):
        not the catalog card (whose specs would be wrong); the memory written beside it is then the user's memory."""
        if hit.kind != "gpu":
            return False
        if _VARIANT_AFTER.match(text, hit.end) or _MODDED.search(_clause_around(text, hit.start, hit.end)):
            return True
        if not re.match(r"RTX-\d", hit.key):
            return False  # a datacenter card or NPU written with another memory is a SKU of it, not a modded card
        figure = _MEMORY_AFTER.match(text, hit.end) or _MEMORY_BEFORE.search(text[max(0, hit.start - 12) : hit.start])
        if not figure or _NOT_CARD_MEMORY.match(text, figure.end()):
            return False
        size = float(figure.group(1))
        family = _gpu_family(hit.key)
        sizes = [g.memory_gb for g in self.matcher.catalog.gpus.values() if re.sub(r"-NVL$", "", _gpu_family(g.key)) == family]
        # a figure no variant of the family has, in GB or GiB (people write either)
        return bool(sizes) and not any(abs(size - m) <= max(1.0, 0.08 * m) or abs(size - m * 1e9 / 2**30) <= 1.0 for m in sizes)

    def _sized_variant(self, t: str, hits: list) -> tuple[str, float] | None:
        """The first catalog model written with a size it does not have and no sibling of the catalog has
        ("deepseek-r1:70b", "deepseek-r1 70b": R1's 70B distill, not the 671B model): (the name as written, the size)."""
        mark = "\ue000m0\ue001"
        at = t.find(mark)
        first = next((h for h in hits if h.kind == "model"), None)
        if at < 0 or first is None:
            return None
        m = _SIZE_TAG.match(t, at + len(mark))
        spec = self.matcher.catalog.models.get(first.key)
        if not m or spec is None or not spec.params:
            return None
        size = float(m.group(1)) * 1e9
        if size <= 0 or abs(spec.params / size - 1) <= 0.25:
            return None  # the model's own size restated
        if any(o.family == spec.family and abs(o.params / size - 1) <= 0.1 for o in self.matcher.catalog.models.values() if o.params):
            return None  # a sibling of that size exists: the matcher or the follow-up logic names it
        return first.surface + m.group(0).strip() if m.group(0).lstrip()[:1] in ":-" else f"{first.surface} {m.group(0).strip()}", size

    def _distilled(self, t: str, hits: list) -> tuple[str, float | None] | None:
        """The first catalog model written as the base of a distilled one ("DeepSeek-R1-Distill-Qwen-14B",
        "R1-Distill-Llama-8B"): (the whole name as written, the size it carries, else the base's)."""
        mark = "\ue000m0\ue001"
        at = t.find(mark)
        first = next((h for h in hits if h.kind == "model"), None)
        if at < 0 or first is None:
            return None
        m = _DISTILL_PREFIX.search(t, 0, at)
        if not m:
            return None
        name, _ = _extend_name(t.replace(mark, first.surface, 1), m.group(1) + first.surface)
        size = _TAIL_SIZE.findall(first.surface) or _TAIL_SIZE.findall(name)
        spec = self.matcher.catalog.models.get(first.key)
        if size:
            number, unit = size[-1]
            return name, float(number) * (1e9 if unit.lower() == "b" else 1e6)
        return name, (spec.params if spec is not None else None)

    def _slots(self, part: Prepared, problems: list[Note], counts: dict[str, int]) -> dict[str, Any]:
        t, low, hits = part.text, part.low, part.hits
        lex = self.lex
        out: dict[str, Any] = {}
        models = [h.key for h in hits if h.kind == "model"]
        gpus = list(dict.fromkeys(self._variant_by_adjacent_memory(t, hits)))
        providers = list(dict.fromkeys(h.key for h in hits if h.kind == "provider"))
        instances = [self._instance(h, providers, low) for h in hits if h.kind == "instance"]
        variant = self._sized_variant(t, hits) if models else None
        distilled = self._distilled(t, hits) if models else None
        if distilled:  # "DeepSeek-R1-Distill-Qwen-14B": a student named after its base, not the base model
            out["model_name"], out["_unknown_model"] = distilled[0], distilled[0]
            if distilled[1]:
                out["params"] = distilled[1]
        elif variant:  # "deepseek-r1:70b": a size the catalog model does not have — a distill or tag, read by its size
            out["model_name"], out["params"], out["_unknown_model"] = variant[0], variant[1], variant[0]
        elif models:
            out["model"] = models[0]
        else:
            fuzzy = self._fuzzy_model(t)
            if fuzzy:
                out["model"], out["_read_as"] = fuzzy[0], fuzzy
            else:
                name, size = self._unknown_model(t)
                family, versioned = self._family_named(t)
                if family and versioned and (name is None or size is None):
                    name = family  # "whisper medium": a member named by its version, unknown to the catalog
                    family = None
                if family and (name is None or size is None and (name.lower() in family.lower() or family.lower() in name.lower())):
                    longer, longer_size = _extend_name(t, family)
                    if longer != family:
                        name, size = longer, size or longer_size  # "gemma 3 27b", "llama 4 scout": a member, unknown
                    else:
                        out["model_name"] = family  # a family, not an unknown model: the catalog knows its members
                        out["_family"] = True
                if "model_name" not in out and name:
                    name, tail_size = _extend_name(t, name)
                    out["model_name"] = name
                    out["_unknown_model"] = name
                    if size or tail_size:
                        out["params"] = size or tail_size
        if "model" not in out and "params" not in out:
            out["params"] = P.params(t)
        if out.pop("_family", False) and out.get("params"):
            del out["model_name"]  # "72B的qwen": the size says what is needed; the family word adds nothing
        if gpus:
            out["gpus"] = gpus
        else:
            unknown = self._unknown_gpu(t)
            if unknown:
                out["_unknown_gpu"] = unknown
        count = P.gpu_count(t)
        if count.too_large is not None:
            problems.append(Note.of("input.too_many_gpus", value=count.too_large if count.too_large != float("inf") else None))
        out["gpu_count"] = count.count
        mem = P.memory(t)
        out["available_gib"] = mem.available_gib
        out["min_memory_gb"] = mem.min_memory_gb
        if instances:
            out["instance"] = instances[0]
            # the provider named with its instance stays (as the user said it); a different one it implies does not
            owners = {k.split("/", 1)[0] for k in instances}
            providers = [p for p in providers if p in owners or not any(o.startswith(p) or p.startswith(o) for o in owners)]
        if providers:
            out["providers"] = providers
        extra = self._variants_by_memory(t, hits)
        if extra:
            out["gpus"] = list(dict.fromkeys([*(out.get("gpus") or []), *extra]))
        if out.get("available_gib") and self._is_named_gpus_memory(out["available_gib"], out.get("gpus") or []):
            out["available_gib"] = None  # "两张A10，每张24G显存", "a 6000 Ada — it's 48GB": the named card's own memory

        mode = self._mode(low)
        out["mode"] = mode
        precision = self._precision(low, out.get("gpus") or [])
        if mode == "qlora" and precision in ("int4", "nf4"):
            precision = None  # "4-bit LoRA" is QLoRA, not a precision
        out["precision"] = precision
        out["billing"] = _first_affirmed(lex["billing"], low)
        out["region"] = _first(lex["region"], low)
        features = _all(lex["features"], low)
        out["features"] = features or None
        out["lora_rank"] = P.lora_rank(t)
        out["seq_len"] = P.seq_len(t)
        out["batch_size"] = P.batch_size(t)
        out["tokens"] = P.tokens(t)
        out["examples"], out["example_tokens"] = P.dataset_examples(t) if out["tokens"] is None else (None, None)
        out["epochs"] = P.epochs(t)
        training = mode not in (None, "inference") or any(p.search(low) for p in lex["training_words"])
        times = P.time_slots(t, training)
        out["hours"] = times.hours
        if times.hours is None and times.maybe_hours and any(p.search(low) for p in dict(lex["frame_cues"])["cost"]) and not times.deadline_hours:
            out["hours"] = times.maybe_hours
        out["hours_per_day"] = times.hours_per_day
        if times.deadline_hours or times.weekday or times.date:
            out["deadline"] = Deadline(hours=times.deadline_hours, weekday=times.weekday, date=times.date)
        load = P.load(t)
        for k in ("concurrency", "users", "requests_per_day", "request_rate", "input_len", "output_len", "ttft_ms", "tokens_per_s_per_user"):
            out[k] = getattr(load, k)
        if out.get("seq_len") and out.get("input_len") == out["seq_len"]:
            out["input_len"] = None  # "4k context" read twice
        setup = serving_setup.read(t)
        out["engine"], out["vllm_version"], out["traffic"] = setup.engine, setup.vllm_version, setup.traffic
        budget = self._budget(t, low)
        out["budget"] = budget
        retract, spans = self._retractions(low)
        if out.get("region") == "any" and "region" in retract:
            retract.remove("region")  # "不限地区", "anywhere": the README's region `any`, not a withdrawal
        if retract:
            # a value read inside the withdrawn phrase is the one withdrawn ("forget the 4 card limit", "never mind
            # spot"); a value stated elsewhere in the turn is the new one ("forget the budget, budget is now $500")
            # a name inside the condition of a conditional withdrawal ("if the a10g can't fit it, drop the gpu
            # requirement", "如果阿里云没货的话，不限厂商也行") is what the withdrawal depends on, not a restatement
            blank_t = _blank(t, spans + [m.span() for m in CONDITION_CLAUSE.finditer(t)])
            only_spans = _blank(t, _complement(spans, len(t)))
            for slot in list(retract):
                if slot not in retract or out.get(slot) is None:
                    continue
                outside = self._reread(slot, blank_t, blank_t.lower())
                inside = self._reread(slot, only_spans, only_spans.lower())
                # the same thing named again ("never mind spot, preemption…"); a GPU named outside the withdrawn phrase
                # is always a restatement ("A100 or H100 都可以", "drop the H100, use 4 A100s"): GPUs are re-read from
                # the whole turn's name hits, so inside and outside cannot be told apart for them
                if outside is None or (outside == inside and slot != "gpus"):
                    out[slot] = None
                else:
                    if slot not in ("gpus", "providers"):  # those two re-read as "still named": keep the names
                        out[slot] = outside
                    retract.remove(slot)
                    if slot == "gpus" and inside:
                        # a named GPU dropped for another ("L40S算了，就按A100算", "drop the H100, use 4 A100s"): the
                        # hardware is restated, not withdrawn ("forget my card, use 2 A100s" still withdraws the rest)
                        retract = [n for n in retract if n not in HARDWARE_SLOTS]
        if retract:
            out["retract"] = retract
        self._negatives(t, problems)
        return out

    def _retractions(self, low: str) -> tuple[list[str], list[tuple[int, int]]]:
        """Slots withdrawn in the turn, and where: the lexicon's phrases, then a dismissive phrase beside a slot's topic."""
        names: list[str] = []
        spans: list[tuple[int, int]] = []
        for slot, patterns in self.lex["retract"]:
            for p in patterns:
                m = p.search(low)
                if m:
                    names.append(slot)
                    spans.append(m.span())
                    break
        for slot, pattern in self.lex["retract_pairs"]:
            for m in pattern.finditer(low):
                if m.group("before") is not None and _LOWERED.match(low, m.end()):
                    continue  # "drop the latency below 200ms" lowers it, keeps it
                if _ASKED.match(low, m.end()):
                    continue  # "那我的卡跑14b都行吗", "哪个平台都可以吗": a question, not a withdrawal
                if slot == "hardware" and "\ue000g" not in m.group(0) and _PRONOUN.search(m.group(0)) and "\ue000g" not in _clause_before(low, m.start()):
                    continue  # "别管它了", "drop them": a pronoun withdraws hardware only where the clause named a GPU before it
                if slot == "hardware" and (m.group(0).count("\ue000g") >= 2
                                           or ("\ue000g" in m.group(0) and _ALLOWED.search(m.group(0)))):
                    continue  # "A100或者L40S都行", "用 A100 都可以": the GPUs named are allowed, none withdrawn
                names += list(HARDWARE_SLOTS) if slot == "hardware" else [slot]
                spans.append(m.span())
                break
        names, spans = self._joined_withdrawals(low, names, spans)
        return list(dict.fromkeys(names)), spans

    def _joined_withdrawals(self, low: str, names: list[str], spans: list[tuple[int, int]]
                            ) -> tuple[list[str], list[tuple[int, int]]]:
        """Topics listed with a withdrawn one are withdrawn with it ("forget the budget and the provider", "预算和卡型都
        不限"): from each withdrawal's span, the topics joined after it and before it, one list at a time."""
        names, spans = list(names), list(spans)
        todo = list(spans)
        while todo:
            start, end = todo.pop()
            for slot, after, before in self.lex["retract_joined"]:
                for m in (after.match(low, end), before.search(low, 0, start) if before else None):
                    if m is None or m.span() in spans:
                        continue
                    names += list(HARDWARE_SLOTS) if slot == "hardware" else [slot]
                    spans.append(m.span())
                    # go on along the list from the topic just taken: after it, or before it
                    todo.append((m.end(), m.end()) if m.start() >= end else (m.start(), m.start()))
        return names, spans

    def _reread(self, slot: str, t: str, low: str) -> Any:
        """The slot read again from text whose withdrawn phrases are blanked: what the turn states besides them."""
        if slot == "budget":
            return self._budget(t, low)
        if slot in ("billing",):
            return _first_affirmed(self.lex["billing"], low)
        if slot in ("region", "precision"):
            return _first(self.lex[slot], low)
        if slot == "gpus":
            return True if "\ue000g" in t else None
        if slot == "gpu_count":
            return P.gpu_count(t).count
        if slot == "available_gib":
            return P.memory(t).available_gib
        if slot in ("ttft_ms", "tokens_per_s_per_user", "concurrency"):
            return getattr(P.load(t), slot)
        if slot == "lora_rank":
            return P.lora_rank(t)
        if slot == "providers":
            return True if "\ue000p" in t else None
        return None  # a slot with no reader of its own here: the withdrawal wins

    def _instance(self, hit: NameHit, providers: list[str], low: str) -> str:
        """The provider's own key when an instance id is offered by several ('AWS 中国区 g5.xlarge' is aws-china's)."""
        choices = self.matcher.instance_choices(hit)
        if re.search(r"中国区|china region|cn-north|cn-northwest|宁夏|北京区|光环新网|西云", low):
            for key in choices:
                if key.split("/", 1)[0].endswith("-china"):
                    return key
        for key in choices:
            if key.split("/", 1)[0] in providers:
                return key
        return choices[0]

    def _family_named(self, t: str) -> tuple[str | None, bool]:
        """A model family written alone ("train Stable Diffusion", "whisper inference"), outside tool names; and
        whether a version follows it ("whisper medium", "Stable Diffusion 2.1": a member the catalog may lack)."""
        for m in self._family.finditer(t):
            surface = m.group(1)
            if surface.lower() in self.lex["not_model_names"]:
                continue
            if surface.lower() in self._word_families and not _AI_CONTEXT.search(t):
                continue
            version = _FAMILY_VERSION.match(t, m.end())
            if version:
                return (surface + version.group(0)).strip(), True
            return surface, False
        return None, False

    def _variant_by_adjacent_memory(self, t: str, hits: list[NameHit]) -> list[str]:
        """Each GPU named, as the variant whose memory is written right beside it ("4张40G的A100", "A100（40G）",
        "16G的V100"): the bare family name defaults to its largest variant, the figure says which one it is."""
        out: list[str] = []
        for n, hit in enumerate(h for h in hits if h.kind == "gpu"):
            key = hit.key
            mark = f"\ue000g{n}\ue001"
            pos = t.find(mark)
            if pos >= 0:
                # the figure right after the name is its own ("A100（40G）"); one before it only when no other GPU
                # sits between ("H100 80G A100 40G": the 80G is the H100's)
                window = t[max(0, pos - 10) : pos]
                before = None if "\ue001" in window else re.search(r"(\d{2,3})\s?(?:g|gb|gib)\s*(?:的|版|版本)?\s*$", window, re.I)
                after = re.match(r"s?\s*[（(]?\s*(?:[,，]?\s*(?:每张|每卡|每块|each(?: with)?)\s*)?(\d{2,3})\s?(?:g|gb|gib)\b",
                                 t[pos + len(mark) : pos + len(mark) + 16], re.I)
                size = after or before
                if size:
                    key = self._variant_with_memory(key, float(size.group(1))) or key
            out.append(key)
        return out

    def _variant_with_memory(self, key: str, size: float) -> str | None:
        pcie = "pcie" in key.lower()
        for memory, is_pcie, other in self._variants.get(_gpu_family(key), ()):
            if abs(memory - size) < 1 and is_pcie == pcie:
                return other
        return None

    def _is_named_gpus_memory(self, gib: float, gpus: list[str]) -> bool:
        """The figure is the memory of a GPU named in the same turn (in GB or GiB, as people write either)."""
        for key in gpus:
            gpu = self.matcher.catalog.gpus.get(key)
            if gpu is None:
                continue
            for mem in (gpu.memory_gb, gpu.memory_gb * 1e9 / 2**30):
                if abs(gib - mem) <= max(1.0, 0.03 * mem):
                    return True
        return False

    def _variants_by_memory(self, t: str, hits: list[NameHit]) -> list[str]:
        """'A100 40G vs 80G': a bare memory figure after 'vs/or/还是' names another variant of the same family."""
        out: list[str] = []
        gpus = [h for h in hits if h.kind == "gpu"]
        if not gpus:
            return out
        variants = self._variants.get(_gpu_family(gpus[-1].key), ())
        for m in re.finditer(r"(?:vs\.?|versus|or|还是|和|与|对比|or the)\s*(\d{2,3})\s?gb?\b(?!\s*(?:ram|内存))", t, re.I):
            size = float(m.group(1))
            out += [key for memory, pcie, key in variants if abs(memory - size) < 1 and not pcie][:1]
        return out

    def _mode(self, low: str) -> str | None:
        table = dict(self.lex["mode"])
        hit = {m: any(p.search(low) for p in pats) for m, pats in table.items()}
        for word in re.findall(r"[a-z][a-z\-]{5,}", low):
            target = _fuzzy_word(word)
            if target in ("finetune", "pretrain", "inference"):
                hit[target] = True
        four_bit = _FOUR_BIT_BASE.search(low)
        serving_lora = hit.get("inference") and not hit.get("finetune")  # "serve a 4-bit model with LoRA adapters"
        if hit.get("lora") and not hit.get("qlora") and four_bit and not serving_lora and not _KV_AFTER.match(low, four_bit.end()):
            hit["qlora"], hit["lora"] = True, False  # LoRA over a 4-bit base is QLoRA ("lora+4bit量化", "bnb-4bit版本")
        for m in _MODE_REJECTED.finditer(low):  # "LoRA rather than full fine-tuning", "不做全量微调，用lora"
            rejected = "full" if re.match(r"full|全", m.group(1)) else ("qlora" if "q" in m.group(1) else "lora")
            if any(hit.get(o) for o in ("qlora", "lora", "full") if o != rejected):
                hit[rejected] = False
        named = [m for m in ("qlora", "lora", "full") if hit.get(m)]
        if len(named) >= 2 and _MODES_COMPARED.search(low):
            return None  # "lora vs qlora", "difference between lora and full finetuning": two modes, none stated
        if len(named) >= 2 and _MODES_ALTERNATIVE.search(low):
            # "can I LoRA it, or should I drop to QLoRA?": the first is what to compute, the other the fallback the
            # answer offers when it does not fit
            return min(named, key=lambda m: min(p.search(low).start() for p in dict(self.lex["mode"])[m] if p.search(low)))
        for m in ("qlora", "lora", "pretrain", "full"):
            if hit.get(m):
                if m == "lora" and hit.get("inference") and not hit.get("finetune"):
                    return "inference"  # "serve with LoRA adapters"
                return m
        if hit.get("finetune"):
            return "finetune"
        if hit.get("inference"):
            return "inference"
        return None

    def _precision(self, low: str, gpus: list[str]) -> str | None:
        """The precision stated. One named is it. Of several: one refused or missing ("A800不支持fp8的话…转成bf16",
        "no bf16 on this card") or one the named GPU lacks (bf16 on a V100 or T4, fp8 on an A100) gives way to the
        other; one switched to ("转成bf16", "fall back to int8") wins; several set against each other ("fp16 gives more
        tok/s than the AWQ one", "FP8 / INT8 / FP16 可切换") state none. A card's lack never invents a precision."""
        hits: list[tuple[int, int, str]] = []
        for value, pats in self.lex["precision"]:
            for p in pats:
                hits += [(m.start(), m.end(), value) for m in p.finditer(low)]
        hits.sort()
        mentions: list[tuple[int, int, str]] = []
        for h in hits:  # one name written in parts ("gptq-int4", "awq 4bit") is one mention, of its first value
            if mentions and h[0] <= mentions[-1][1] + 2 and re.fullmatch(r"[-_ .]*", low[mentions[-1][1]:h[0]] if h[0] > mentions[-1][1] else ""):
                mentions[-1] = (mentions[-1][0], max(mentions[-1][1], h[1]), mentions[-1][2])
            elif not mentions or h[0] >= mentions[-1][1]:
                mentions.append(h)
        if len({v for _, _, v in mentions}) > 1:  # "fp16, kv cache fp8": the cache's precision is not the weights'
            mentions = [h for h in mentions if not _KV_BEFORE.search(low[max(0, h[0] - 16) : h[0]])] or mentions
        values = list(dict.fromkeys(v for _, _, v in mentions))
        family = {_PRECISION_FAMILY.get(v, v) for v in values}
        if len(family) == 1:  # "8-bit GGUF at Q8_0", "a Q4_K_M gguf": one quantisation, named generally and exactly
            return max(values, key=lambda v: v in _PRECISION_FAMILY)
        if len(values) <= 1:
            return values[0] if values else None
        lacked = {v for a, b, v in mentions if _PRECISION_LACKED_BEFORE.search(low[max(0, a - 24) : a])
                  or _PRECISION_LACKED_AFTER.match(low[b : b + 16])}
        for key in gpus:
            gpu = self.matcher.catalog.gpus.get(key)
            lacked |= {v for v, attr in (("bf16", "bf16_supported"), ("fp8", "fp8_supported")) if gpu is not None and not getattr(gpu, attr)}
        kept = [v for v in values if v not in lacked]
        if len(kept) == 1:
            return kept[0]
        chosen = [v for a, _, v in mentions if v in kept and _PRECISION_CHOSEN.search(low[max(0, a - 16) : a])]
        if chosen:
            return chosen[-1]
        if _PRECISIONS_COMPARED.search(low):
            return None
        return values[0]

    def _budget(self, t: str, low: str) -> Money | None:
        amounts = P.money_amounts(t)
        if not amounts:
            return None
        best = next((a for a in amounts if a.budget_cue), amounts[0])
        currency = best.currency
        if currency is None:
            currency = _first(self.lex["currency_words"], low)
        return Money(amount=best.amount, currency=currency, per=best.per)

    def _fuzzy_model(self, t: str) -> tuple[str, str] | None:
        """A catalog model written with a typo ("lamma 13b", "mistrel 7b"): same size, similar family name."""
        for m in re.finditer(r"(?<![A-Za-z0-9_.])([A-Za-z][A-Za-z0-9.\-_ ]{1,24}?)[-_ ]?(\d+(?:\.\d+)?)\s?[bB](?![A-Za-z0-9_])", t):
            words = m.group(1).split()
            size = m.group(2)
            # the match starts as early as it can ("fine-tune Llamma-13B"): the name is its last word or two
            for family_words in (words[-1:], words[-2:]):
                family = compact(" ".join(family_words))[0]
                if not family or family in _NOT_MODEL_WORDS or len(family) < 3:
                    continue
                best = self._closest_size(compact(" ".join(family_words) + size + "b")[0], size)
                if best:
                    written = t[m.start(1) + m.group(1).rfind(family_words[0]): m.end()].strip()
                    return best, written
        return None

    def _closest_size(self, cand: str, size: str) -> str | None:
        best, best_score = None, 0.0
        digits = re.findall(r"\d+(?:\.\d+)?", cand)
        for name, s, key in self._model_sizes:
            if s != size or re.findall(r"\d+(?:\.\d+)?", name) != digits:
                continue  # a typo is in the letters: "qwen2 7b" is not "qwen 7b"
            score = fuzz.ratio(cand, name)
            if score > best_score:
                best, best_score = key, score
        return best if best_score >= 84 else None

    def _unknown_model(self, t: str) -> tuple[str | None, float | None]:
        """A model the catalog lacks, as written, with the size its name carries ('SomeLab-Coder-14B', 'qwen2 72B', 'VoxCPM')."""
        for m in _MODEL_LIKE.finditer(t):
            surface = m.group(1).strip()
            first = re.split(r"[-_/\s]", surface)[0].lower()
            if first in _NOT_MODEL_WORDS or "\ue000" in surface or surface.lower() in self.lex["not_model_names"]:
                continue
            return surface, _size(m.group(2) or m.group(3))
        # an ollama tag: "gemma3:4b", "qwen2.5-coder:7b"
        m = re.search(r"(?<![A-Za-z0-9_.\-])([A-Za-z][A-Za-z0-9.\-]*:(\d+(?:\.\d+)?)[bB])(?![A-Za-z0-9_])", t)
        if m and "\ue000" not in m.group(1):
            return m.group(1), _size(m.group(2))
        families = "|".join(re.escape(f) for f in self.lex["model_families"])
        # a family with a named variant and no size: "Qwen-Image", "Qwen-VL", "InternVL-Chat"
        m = re.search(rf"(?<![A-Za-z0-9_.\-])((?:{families})[0-9.]*-(?!(?:awq|gptq|gguf|int[48]|fp(?:8|16)|bf16|\d))[A-Za-z][A-Za-z0-9.]*)(?![A-Za-z0-9_\-])", t, re.I)
        if m and m.group(1).lower() not in self.lex["not_model_names"]:
            return m.group(1), None
        # "<family><version> <size>B" with a space: "qwen2 72B", "llama2 13b", "glm4 9b"
        m = re.search(rf"(?<![A-Za-z0-9_.\-])((?:{families})[0-9.]*(?:[-_][A-Za-z0-9.]+)*\s+(\d+(?:\.\d+)?)\s?[bB])(?![A-Za-z0-9_])", t, re.I)
        if m:
            return m.group(1).strip(), _size(m.group(2))
        # an identifier in model position: after a verb that takes a model, or before 模型/model
        for m in _MODEL_ID.finditer(t):
            surface = (m.group("id") or m.group("id2")).strip(" .,")
            start = m.start("id") if m.group("id") else m.start("id2")
            if start > 0 and t[start - 1].isdigit():
                continue  # "72B-4bit": the tail of a size, not a name
            low = surface.lower()
            if low in self.lex["not_model_names"] or low.split("-")[0] in self.lex["not_model_names"] or "\ue000" in surface:
                continue
            if re.search(r"(?i)\.(?:py|json|ya?ml|sh|txt|md|bin|safetensors|gguf|pt|ckpt)$|^(?:torch|np|tf|os|sys)\.", surface):
                continue  # a file or a code path
            if len(surface) < 3 or not re.search(r"[A-Za-z]", surface) or re.fullmatch(r"(?i)[a-z]+", surface) and surface.islower() and low not in self.lex["model_families"]:
                continue  # a plain lower-case word is not a model name unless it is a family
            if re.fullmatch(r"(?i)(?:rtx|gtx|rx|[a-z]{1,2})\s?\d{2,5}[a-z]{0,2}", surface):
                continue  # GPU-like ("3080", "P40"): not a model
            if re.fullmatch(r"(?i)[bmk]?[-_ ]?(?:param(?:eter)?s?|dense|moe)", surface):
                continue  # the tail of a size ("13B-param model"): the size is read as params
            return surface, None
        for m in _MODEL_SUBJECT.finditer(t):
            surface = m.group("id") or m.group("id3") or m.group("id4") or m.group("id5")
            low = surface.lower()
            if (low in _NOT_SUBJECTS or low in _NOT_MODEL_WORDS or low in self.lex["not_model_names"]
                    or surface.islower() and re.search(r"(?:ing|ly|ed|s)$", low)
                    or "\ue000" in surface or len(surface) < 3 or _GPU_LIKE.fullmatch(surface)):
                continue
            return surface, None
        return None, None

    def _unknown_gpu(self, t: str) -> str | None:
        for m in _GPU_LIKE.finditer(t):
            token = m.group(1)
            if re.fullmatch(r"(?i)[a-z]{1,3}\d{2,4}[a-z]?", token) and not re.match(r"(?i)(rtx|gtx|rx|[ahlvtbkmp]|mi|gh|gb)", token):
                continue
            if re.fullmatch(r"(?i)(?:q|p|r|v|k|m|b|l)\d", token):
                continue
            if re.fullmatch(r"(?i)[a-z]\d{2,4}", token) and token[0].lower() in "ahlvbtpkm":
                return token
            if token.lower().startswith(("rtx", "gtx", "rx", "mi")):
                return token
        return None

    def _negatives(self, t: str, problems: list[Note]) -> None:
        m = _NEGATIVE.search(t)
        if m:
            problems.append(Note.of("input.negative", value=m.group(0).strip()))
        elif _ZERO.search(t):
            problems.append(Note.of("input.zero", value=_ZERO.search(t).group(0).strip()))


# what may follow a model's name and still be its name: a version ("3", ".6V"), a size ("27b"), a variant word, or a
# hyphenated part ("-nemotron-super-49b"); a space is allowed before the first three only
# a precision refused or missing where it is named ("不支持fp8", "no bf16", "without fp8", "fp8 isn't supported")
_PRECISION_LACKED_BEFORE = re.compile(r"(?:不支持|没有|不带|用不了|\bno\b|\bnot\b|\bwithout\b|\blacks?\b|\bdoes ?n[o']t (?:support|have|do)\b|"
                                      r"\bdo ?n[o']t (?:support|have)\b|\bcan ?n?[o']?t (?:do|use|run)\b)\s*(?:native\s*|the\s*|any\s*)?$", re.I)
_PRECISION_LACKED_AFTER = re.compile(r"^\s*(?:is ?n[o']t|is not|not|are ?n[o']t)\s*(?:supported|available|an option)|^\s*(?:不支持|不行|用不了|跑不了)", re.I)
# a precision switched to ("转成bf16", "换成int4", "switch to fp16", "fall back to int8")
_PRECISION_CHOSEN = re.compile(r"(?:转成|转为|换成|改成|改用|切到|switch(?:ed|ing)? (?:it |the weights )?to|convert(?:ed|ing)? (?:it |the weights )?to|fall(?:ing)? back to|go(?:ing)? with)\s*$", re.I)
# several precisions set against each other, or each asked for ("分别按fp16和int4算", "bf16 and int4 respectively")
_PRECISIONS_COMPARED = re.compile(r"\bvs\.?(?![a-z])|versus|\bthan\b|\bor\b|compar|/|还是|对比|比较|可切换|切换|或者|或是|差多少|区别|\bbut\b|"
                                  r"分别|各自|各是|respectively|\beach\b|\bboth\b", re.I)
# the exact quantisation formats and the general precision each is one of
_PRECISION_FAMILY = {"q8_0": "int8", "q4_k_m": "int4", "q5_k_m": "int4", "nf4": "int4"}
_KV_BEFORE = re.compile(r"(?:kv|cache|kv[-_ ]cache(?:[-_ ]dtype)?|缓存)\s*(?:in|at|=|:|：|用|是)?\s*$", re.I)
_FOUR_BIT_BASE = re.compile(r"(?<![\d.])4[- ]?bit|\bnf4\b|bnb[- _]?4|load_in_4bit|quantization_bit:\s*4|4位量化|4比特", re.I)
# two modes set against each other: a comparison or a question about their difference
_MODES_ALTERNATIVE = re.compile(r"\bor\b|或者|要么", re.I)
_MODES_COMPARED = re.compile(r"\bvs\.?\b|versus|compar|differ|which (?:is|one)|better|(?:less|more|better|worse|faster|slower|cheaper)\b[^,.;!?]{0,30}\bthan\b"
                             r"|还是|对比|比较|区别|差多少|差别|比.{0,10}(?:省|多|少|快|慢|好)", re.I)
_MODE_REJECTED = re.compile(r"(?:rather than|instead of|not|no|without|不做|不用|不要|不是|别用)\s*(?:a\s+|the\s+)?"
                            r"(full[- ]?(?:parameter)?\s*(?:fine-?tun\w*|ft|sft)?|全量微调|全量|全参(?:数)?(?:微调)?|q-?lora|lora)", re.I)
_KV_AFTER = re.compile(r"[^,.;:!?，。]{0,6}(?:kv|cache|缓存)", re.I)
_NAME_TAIL = re.compile(
    r"(?:[.\-_]?\d+(?:\.\d+)*[a-zA-Z]?(?![A-Za-z0-9])|\s\d+(?:\.\d+)?\s?[bBmM](?![A-Za-z0-9])|\s\d+(?:\.\d+)?(?![\dA-Za-z%]))"
    r"|\s(?:chat|instruct|it|base|vision|vl|scout|maverick|flash|air|super|nano|mini|coder|math|turbo|distill)(?![A-Za-z0-9])"
    r"|[\-_](?!(?:based|style|like|sized?|class|level|powered|ready|friendly|only|free|specific|compatible|related)"
    r"(?![A-Za-z0-9]))[A-Za-z0-9][A-Za-z0-9.]*", re.I)
# a distilled model's name up to its base: "DeepSeek-R1-Distill-", "R1-Distill-", "MiniCPM-distill-"
_DISTILL_PREFIX = re.compile(r"(?<![A-Za-z0-9_.\-])((?:[A-Za-z][A-Za-z0-9.]*[-_])*?[A-Za-z0-9.]*[-_]?distill(?:ed)?[-_])$", re.I)
_TAIL_SIZE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s?([bBmM])(?![A-Za-z0-9])")


# a size written right after a model name ("deepseek-r1:70b", "deepseek-r1 32b"); not a data size or an MoE's active
# parameters ("qwen2.5-7b 5b tokens", "deepseek-v3 37b active")
_SIZE_TAG = re.compile(r"\s?[:\-]?\s?(\d+(?:\.\d+)?)\s?([bB])(?![A-Za-z0-9])"
                       r"(?!\s*(?:-\s*)?(?:tokens?|toks?|个?\s*token|active|activated|激活|of (?:data|text)|数据|条|samples?|examples?))", re.I)


def _extend_name(t: str, name: str) -> tuple[str, float | None]:
    """The whole name where the text writes more of it than was matched ("gemma 3" → "gemma 3 27b"), and the size
    the added part carries."""
    at = t.find(name)
    if at < 0:
        return name, None
    end = at + len(name)
    while True:
        m = _NAME_TAIL.match(t, end)
        if not m or "\ue000" in m.group(0):
            break
        end = m.end()
    longer = t[at:end]
    if longer == name:
        return name, None
    sizes = _TAIL_SIZE.findall(t[at + len(name):end])
    size = None
    if sizes:
        number, unit = sizes[-1]
        size = float(number) * (1e9 if unit.lower() == "b" else 1e6)
    return longer, size


def _asking_sentence(low: str) -> str:
    """The sentence that asks: the last one with a question mark, else the last sentence (real posts ask last)."""
    # a part needs a word: "wrong??" splits into "wrong?" and "?", and the lone "?" asks nothing
    parts = [p for p in re.split(r"(?<=[?？])|[.。!！\n]+(?=\s|$)|(?<=[。！])", low) if p and re.search(r"\w", p)]
    if not parts:
        return low
    asking = [p for p in parts if "?" in p or "？" in p]
    return (asking[-1] if asking else parts[-1]).strip()


def _size(raw: str | None) -> float | None:
    try:
        return float(raw) * 1e9 if raw else None
    except ValueError:
        return None


# real words a keyword's typo distance reaches ("difference" is two edits from "inference"): never typos
_NOT_TYPOS = frozenset({"difference", "differences", "reference", "references", "conference", "conferences", "interference",
                        "preference", "preferences", "deference", "inferred", "retrain", "retraining", "retrained", "reverence"})


def _fuzzy_word(word: str) -> str | None:
    if word in FUZZY_WORDS:
        return FUZZY_WORDS[word]
    if word in _NOT_TYPOS:
        return None
    for target, value in FUZZY_WORDS.items():
        limit = 2 if len(target) >= 9 else 1
        if abs(len(word) - len(target)) <= limit and Levenshtein.distance(word, target, score_cutoff=limit) <= limit:
            return value
    return None
