"""Which language a turn is written in: the CJK-ratio rule.

A turn is Chinese when its CJK characters are at least a sixth of its Latin
letters ("Qwen2.5-14B 全量微调，4 张 4090 能跑吗？" is Chinese although most of
its letters are Latin: model and GPU names are Latin in both languages).
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def language_of(text: str) -> str:
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN.findall(text))
    return "zh" if cjk and cjk * 6 >= latin else "en"
