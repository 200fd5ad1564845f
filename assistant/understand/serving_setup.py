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
ENGINES = [  # engine names in the user's words (the serving estimator has a profile for each); first match wins
    ("llamacpp", re.compile(rf"llama\.?cpp|{_L}ollama{_R}|{_L}gguf{_R}|lm ?studio|koboldcpp", re.I)),
    ("sglang", re.compile(rf"{_L}sglang{_R}", re.I)),
    ("trtllm", re.compile(rf"tensorrt[- ]?llm|{_L}trt[- ]?llm{_R}|{_L}trtllm{_R}|triton", re.I)),
    ("transformers", re.compile(rf"{_L}transformers{_R}|{_L}hf generate{_R}|{_L}tgi{_R}", re.I)),
    ("vllm", re.compile(rf"{_L}vllm{_R}", re.I)),
]
# chat traffic: the estimator takes ShareGPT's mean lengths when no lengths are given (tools/serving_types.py)
CHAT_TRAFFIC = re.compile(r"chat traffic|chatbot|conversational|对话类|对话流量|聊天|客服", re.I)
# a stated vLLM release or engine generation ("vllm 0.6.3", "vLLM v0.11", "V0 engine"): its KV-pool profile run differs
VLLM_VERSION = re.compile(r"(?<![A-Za-z0-9])vllm[\s\-_=:(]*(?:版本|version|ver\.?)?[\s:=]*(v?0\.\d+(?:\.\d+)?)"
                          r"|(?<![A-Za-z0-9])(V[01])(?![A-Za-z0-9_.])\s*(?:engine|引擎)|VLLM_USE_V1\s*=\s*([01])", re.I)


@dataclass(frozen=True)
class ServingSetup:
    engine: str | None = None
    vllm_version: str | None = None
    traffic: str | None = None


def engine(text: str) -> str | None:
    for name, pattern in ENGINES:
        if pattern.search(text):
            return name
    return None


def vllm_version(text: str) -> str | None:
    """The release ('0.6.3', 'v0.11') or generation ('V0', 'V1') as written; None when the text names neither."""
    m = VLLM_VERSION.search(text)
    if not m:
        return None
    if m.group(3) is not None:
        return "V1" if m.group(3) == "1" else "V0"
    return m.group(1) or m.group(2).upper()


def read(text: str) -> ServingSetup:
    version = vllm_version(text)
    found = engine(text)
    if version and found is None:
        found = "vllm"  # "V0 engine", "VLLM_USE_V1=0": only vLLM has those
    return ServingSetup(engine=found, vllm_version=version if found == "vllm" else None,
                        traffic="chat" if CHAT_TRAFFIC.search(text) else None)
