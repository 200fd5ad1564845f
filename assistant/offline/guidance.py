"""Choosing what to quote from retrieved guidance: whole sections for guidance answers, one sentence for caveats."""

from __future__ import annotations

import re

# ASCII full stops end a sentence only before whitespace: "55.74 USD" and "e.g." stay whole
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])\s*|\x01\s*")


def sentences(text: str) -> list[str]:
    text = re.sub(r"^#+ .*$", "", text, flags=re.M)  # headings are titles, not content
    text = re.sub(r"^\|.*\|\s*$", "", text, flags=re.M)  # table rows do not stand alone
    text = re.sub(r"([:：])[ \t]*$", "\\1\x01", text, flags=re.M)  # a lead-in ends where its list or table starts
    text = text.replace("**", "").replace("__", "")
    text = re.sub(r"(?:^|\s*\n)\s*(?:[-*•]|\d+[.)])\s+", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return [s.strip() for s in _SENTENCE_RE.split(text) if len(s.strip()) > 8]


def terms(text: str) -> set[str]:
    low = text.lower()
    words = set(re.findall(r"[a-z][a-z0-9+\-]{2,}", low))
    for run in re.findall(r"[\u4e00-\u9fff]+", low):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words


# The training modes a sentence speaks of. A caveat about full fine-tuning ("7B full fine-tuning needs ~112 GB for
# weights, gradients and Adam states") is not a caveat of a LoRA plan; the reverse holds too for serving. A sentence
# naming the workload's own mode as well (a comparison) stays.
_MODE_WORDS = {
    "full": re.compile(r"full[- ](?:parameter |param )?fine[- ]?tun|full[- ]parameter|全参数|全量微调|全参微调", re.I),
    "lora": re.compile(r"\bQ?LoRA\b", re.I),
    "pretrain": re.compile(r"pre-?train|预训练", re.I),
}
# the modes whose sentences are off-topic for a workload's mode (a full fine-tune may still hear LoRA's savings)
_OFF_MODES = {"lora": {"full", "pretrain"}, "qlora": {"full", "pretrain"}, "inference": {"full", "lora", "pretrain"},
              "full": {"pretrain"}}
_OWN_MODE = {"lora": "lora", "qlora": "lora", "full": "full", "pretrain": "pretrain"}


def about_other_mode(sentence: str, mode: str | None) -> bool:
    """Whether a sentence speaks only of a training mode the workload (`mode`) is not."""
    if not mode or mode not in _OFF_MODES:
        return False
    own = _OWN_MODE.get(mode)
    if own and _MODE_WORDS[own].search(sentence):
        return False
    return any(_MODE_WORDS[m].search(sentence) for m in _OFF_MODES[mode])


def best_sentence(passage: dict, question: str, mode: str | None = None) -> str | None:
    """The passage's sentence sharing most words with the question; never a lead-in that ends with a colon, nor one
    about another training mode than the workload's (`about_other_mode`)."""
    q = terms(question)
    candidates = [s for s in sentences(passage.get("text", ""))
                  if not s.rstrip().endswith((":", "：")) and not about_other_mode(s, mode)]
    if not candidates:
        return None
    return max(candidates, key=lambda s: len(q & terms(s)))


# A size class in a section's heading: "7B", "LLaMA-13B", "13B-plus", "13B 以上", "13B and larger"
_SIZE_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?B(?![a-zA-Z])(\s?(?:-?plus|\+|\s?以上|\s?及更大|\s?and larger|\s?or larger))?")
SIZE_BAND = 2.0  # "a 7B-class model": within a factor of two either way; "13B-plus": from 13B/SIZE_BAND up


def size_classes(heading: str) -> list[tuple[float, float]]:
    """The parameter-count ranges a heading is written for (billions); none when it names no size."""
    out = []
    for number, plus in _SIZE_RE.findall(heading):
        n = float(number) * 1e9
        out.append((n / SIZE_BAND, float("inf")) if plus else (n / SIZE_BAND, n * SIZE_BAND))
    return out


# The model kinds a section's heading is written for (tools.domain.ModelKind values): a heading that names one
# ("Image generation (Stable Diffusion)", "Fine-tuning a 7B LLM", "Small model training (ResNet, BERT-base)")
# states cards and memory for that kind only.
_KIND_WORDS = (
    ("decoder", re.compile(r"\bLLMs?\b|LLaMA|大模型|语言模型", re.I)),
    ("diffusion", re.compile(r"Stable Diffusion|SDXL|diffusion|image generation|图像生成|文生图|扩散", re.I)),
    ("vision", re.compile(r"ResNet|\bViT\b|vision|视觉|图像分类", re.I)),
    ("encoder", re.compile(r"\bBERT", re.I)),
)


def kinds_written_for(heading: str) -> set[str]:
    """The model kinds a heading names (none: written for any)."""
    return {kind for kind, words in _KIND_WORDS if words.search(heading)}


def written_for(passage: dict, params: float | None, kind: str | None = None) -> bool:
    """Whether a passage may be quoted about a workload of `params` parameters and model `kind`: a section written
    for another size class ("Fine-tuning a 7B LLM" for a 32B model) or another kind of model ("Image generation
    (Stable Diffusion)" for an LLM) would state the wrong card or memory as a caveat."""
    heading = passage.get("section", "")  # the document title lists every scenario
    kinds = kinds_written_for(heading)
    if kind and kinds and kind not in kinds:
        return False
    if not params:
        return True
    classes = size_classes(heading)
    return not classes or any(lo <= params <= hi for lo, hi in classes)


def relevance(passage: dict, question: str) -> int:
    return len(terms(question) & terms(passage.get("title", "") + " " + passage.get("section", "") + " " + passage.get("text", "")))
