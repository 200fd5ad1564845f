"""How a serving question says the model is served: the engine, the vLLM release, the kind of traffic.

Read once per user turn into the `SlotUpdate` (`engine`, `vllm_version`, `traffic`) so that the
conversation state carries them: "serve Qwen2.5-14B on vllm 0.6.3 for 40 users" followed by
"and for 80 users?" still sizes the KV pool the way vLLM 0.6.3 does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Latin-only word edges: "\b" fails where Chinese touches the name ("H100上sglang跑")
_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
# engine names in the user's words (the serving estimator has a profile for each), first match wins; `serving_only`:
# the name is also a training library ("fine-tuned with transformers"), so it names the engine only where the turn
# is about serving
ENGINES = [
    ("llamacpp", re.compile(rf"llama\.?cpp|{_L}ollama{_R}|{_L}gguf{_R}|lm ?studio|koboldcpp", re.I), False),
    ("sglang", re.compile(rf"{_L}sglang{_R}", re.I), False),
    ("trtllm", re.compile(rf"tensorrt[- ]?llm|{_L}trt[- ]?llm{_R}|{_L}trtllm{_R}", re.I), False),
    ("vllm", re.compile(rf"{_L}vllm{_R}", re.I), False),  # before Triton: "Triton with the vLLM backend" is vLLM
    ("trtllm", re.compile(rf"{_L}triton{_R}", re.I), False),
    ("transformers", re.compile(rf"{_L}tgi{_R}|text[- ]generation[- ]inference", re.I), False),
    ("transformers", re.compile(rf"{_L}transformers{_R}|{_L}hf generate{_R}", re.I), True),
]
SERVING_WORDS = re.compile(r"serv(?:e|es|ed|ing)\b|deploy|inference|host(?:ing)?\b|throughput|latency|concurren|qps|"
                           r"tok(?:en)?s?/s|部署|推理|上线|并发|吞吐|延迟", re.I)
# chat traffic: the estimator takes ShareGPT's mean lengths when no lengths are given (tools/serving_types.py)
CHAT_TRAFFIC = re.compile(r"(?<!no )(?<!not )(?<!non-)(?<!不是)(?<!非)(?<!不做)"
                          r"(?:chat traffic|chatbot|conversational|对话类|对话流量|聊天|客服)", re.I)
_GENERATION = re.compile(r"(?<![A-Za-z0-9])(V[01])(?![A-Za-z0-9_.])\s*(?:engine|引擎)|VLLM_USE_V1\s*=\s*([01])", re.I)
# a stated vLLM release or engine generation ("vllm 0.6.3", "vLLM v0.11", "V0 engine"): its KV-pool profile run differs
VLLM_VERSION = re.compile(r"(?<![A-Za-z0-9])vllm[\s\-_=:(]*(?:版本|version|ver\.?)?[\s:=]*(v?0\.\d+(?:\.\d+)?)"
                          r"|(?<![A-Za-z0-9])(V[01])(?![A-Za-z0-9_.])\s*(?:engine|引擎)|VLLM_USE_V1\s*=\s*([01])", re.I)


@dataclass(frozen=True)
class ServingSetup:
    engine: str | None = None
    vllm_version: str | None = None
    traffic: str | None = None


def engine(text: str) -> str | None:
    serving = bool(SERVING_WORDS.search(text))
    for name, pattern, serving_only in ENGINES:
        if pattern.search(text) and (serving or not serving_only):
            return name
    return None


def vllm_version(text: str) -> str | None:
    """The release ('0.6.3', 'v0.11') and/or generation ('V0', 'V1') as written ('0.8.5 V0' when both are: the
    generation overrides the release's default); None when the text names neither."""
    m = VLLM_VERSION.search(text)
    if not m:
        return None
    g = _GENERATION.search(text)
    generation = None if g is None else (g.group(1).upper() if g.group(1) else ("V1" if g.group(2) == "1" else "V0"))
    release = m.group(1)
    if release and generation:
        return f"{release} {generation}"
    return release or generation


def read(text: str) -> ServingSetup:
    version = vllm_version(text)
    found = engine(text)
    if version and found is None:
        found = "vllm"  # "V0 engine", "VLLM_USE_V1=0": only vLLM has those
    return ServingSetup(engine=found, vllm_version=version if found == "vllm" else None,
                        traffic="chat" if CHAT_TRAFFIC.search(text) else None)
