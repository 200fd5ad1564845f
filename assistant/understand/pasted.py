"""Pasted material is data: split it from the user's own words, strip what is hidden, catch what it tells us to do.

`split_turn(text)` returns the user's own sentences, the pasted material (fenced
or quoted blocks, HTML or Markdown documents, logs and configs, or whatever
follows "here is our doc:" / "下面是需求文档"), and the instructions addressed to
the assistant that were found inside the pasted or hidden parts. Hidden content
(HTML comments, CSS-hidden elements, zero-width characters, Unicode tag
characters) is removed before anything is read. The reader reads constraints
from both parts (a requirements doc's budget is the user's budget) but tags
those from the pasted part; instructions are reported, never obeyed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ZERO_WIDTH = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]")
TAG_CHARS = re.compile("[\U000e0000-\U000e007f]+")
HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.S)
HIDDEN_ELEMENT = re.compile(
    r"<(\w+)[^>]*style\s*=\s*[\"'][^\"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0)[^\"']*[\"'][^>]*>(.*?)</\1>",
    re.S | re.I,
)
SCRIPT = re.compile(r"<(script|style)[^>]*>.*?</\1>", re.S | re.I)
TAG = re.compile(r"</?[a-zA-Z][^>]{0,300}>")
FENCE = re.compile(r"```[^\n]*\n?(.*?)(?:```|$)", re.S)

# Phrases that introduce a pasted document; what follows them is pasted material.
INTRO = re.compile(
    r"(?im)^(.{0,80}?(?:here(?:'s| is| are)\s+(?:our|my|the)\b[^:\n]{0,40}|below is\b[^:\n]{0,40}|see (?:the )?(?:attached|below)[^:\n]{0,30}"
    r"|(?:pasted|pasting|paste)\b[^:\n]{0,40}|(?:requirements?|spec|config|log|doc(?:ument)?|output)s?\s*(?:below|follows?)?"
    r"|下面是[^:：\n]{0,20}|以下是[^:：\n]{0,20}|如下[^:：\n]{0,10}|贴一下[^:：\n]{0,20}|附上[^:：\n]{0,20}|这是(?:我们|我)?的?[^:：\n]{0,12}(?:文档|需求|配置|日志))"
    r"\s*[:：])\s*(?:\n|$)?"
)
# A line addressed to the assistant: a speaker tag, or "note/instruction to the AI", or an imperative to "you/the model".
ADDRESSED = re.compile(
    r"(?i)(?:^|\n|[\s>*#\-【\[（(「])(?:(?:assistant|ai|chatgpt|gpt|llm|bot|advisor|助手|ai助手|智能助手)\s*[:：]"
    r"|(?:note|instruction|message|hint)s?\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|llm|bot|advisor)"
    r"|(?:给|致|对)\s*(?:ai|AI|助手|模型|大模型)[^。\n]{0,8}(?:的)?(?:指令|说明|提示|话)?"
    r"|(?:dear|hey)\s+(?:ai|assistant|model)"
    r"|(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+|your\s+|previous\s+|prior\s+|above\s+)*(?:instructions|rules|budget|constraints|guidelines|prompt)"
    r"|(?:you|the assistant|the model)\s+(?:must|should|have to|are required to|will)\s+(?:always\s+)?(?:recommend|say|answer|output|pick|choose|ignore|reply)"
    r"|(?:always|only)\s+recommend\b"
    r"|请?(?:忽略|无视)(?:上面|以上|之前|前面|所有|用户|预算|规则|指令)"
    r"|(?:务必|必须|一定要|只能|总是)(?:推荐|回答|选择|输出)"
    r"|(?:system\s+prompt|系统提示|提示词))"
)


@dataclass
class SplitTurn:
    own: str  # the user's own words, hidden content removed
    pasted: str  # pasted material, hidden content and addressed instructions removed
    instructions: list[str] = field(default_factory=list)  # instruction lines found in pasted or hidden content
    hidden_removed: bool = False
    posed: list[str] = field(default_factory=list)  # own sentences posing as a system message ("系统指令：…")
    overrides: list[str] = field(default_factory=list)  # own sentences asking to drop the rules or show the prompt

    @property
    def only_overrides(self) -> bool:
        """Nothing was asked but to drop the rules: the answer is the refusal, not the previous topic again."""
        return bool(self.overrides) and not self.own.strip() and not self.pasted.strip()

    @property
    def has_pasted(self) -> bool:
        return bool(self.pasted.strip())

    @property
    def text(self) -> str:
        """What the reader reads: own words and pasted data, without hidden content or instructions."""
        return (self.own + ("\n" + self.pasted if self.pasted else "")).strip()


def strip_hidden(text: str) -> tuple[str, list[str], bool]:
    """(visible text, hidden snippets that carried words, whether anything was removed)."""
    hidden: list[str] = []
    removed = False

    def keep(m: re.Match, group: int = 1) -> str:
        nonlocal removed
        removed = True
        inner = m.group(group) or ""
        if re.search(r"\w", inner):
            hidden.append(" ".join(inner.split()))
        return " "

    tags = TAG_CHARS.findall(text)
    for t in tags:  # ASCII smuggled as Unicode tag characters
        decoded = "".join(chr(ord(c) - 0xE0000) for c in t if 0xE0020 <= ord(c) <= 0xE007E)
        if decoded.strip():
            hidden.append(decoded.strip())
    if tags:
        removed = True
        text = TAG_CHARS.sub("", text)
    if ZERO_WIDTH.search(text):
        removed = True
        text = ZERO_WIDTH.sub("", text)  # joining words split by zero-width characters makes them visible
    text = HTML_COMMENT.sub(keep, text)
    text = HIDDEN_ELEMENT.sub(lambda m: keep(m, 2), text)
    text = SCRIPT.sub(lambda m: keep(m, 0) if False else " ", text)
    return text, hidden, removed


def _is_document(block: str) -> bool:
    """Structure a person does not type in a chat line: HTML, headings + lists/tables, key: value configs, logs."""
    lines = [l for l in block.splitlines() if l.strip()]
    if re.search(r"(?i)<(html|body|div|p|table|ul|ol|h[1-6]|section)\b", block):
        return True
    if len(lines) < 3:
        return False
    structured = sum(
        1
        for l in lines
        if re.match(r"\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|\|.*\||[\w\-. ]{1,40}\s*[:=]\s*\S|>\s)", l)
        or re.match(r"\s*\[?\d{4}-\d\d-\d\d|\s*(INFO|WARN|ERROR|DEBUG)\b|\s*Traceback|\s*File \"|\s*\+-+|\s*\|\s*\d+\s+", l)
    )
    return structured >= max(3, len(lines) // 2)


def _drop_instructions(text: str) -> tuple[str, list[str]]:
    found: list[str] = []
    kept: list[str] = []
    for line in text.splitlines():
        if ADDRESSED.search(line):
            found.append(" ".join(line.split())[:160])
        else:
            kept.append(line)
    return "\n".join(kept), found


# A sentence in the user's own words that poses as a system or developer message is not a constraint of theirs
SYSTEM_VOICE = re.compile(
    r"(?:^|(?<=[\s。！？.!?；;]))(?:\[?(?:system|developer|sys)\]?\s*(?:prompt|message|instruction)?s?\s*[:：]|系统指令\s*[:：]|系统提示\s*[:：]|"
    r"(?:new|updated)\s+system\s+(?:prompt|instructions?)\s*[:：]|<\|?system\|?>)[^。！？!?\n]*[。！？!?]?",
    re.I,
)


# A sentence of the user's own asking the assistant to drop its rules or show its prompt: reported, never obeyed,
# and not read as part of the question (its words would otherwise look like a topic).
OVERRIDE = re.compile(
    r"(?i)(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|previous\s+|prior\s+|above\s+|earlier\s+)*"
    r"(?:instructions|rules|guidelines|prompts?|directions)"
    r"|(?:print|show|reveal|repeat|output|tell\s+me|give\s+me|display|leak|dump)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|exact\s+|original\s+|hidden\s+)*"
    r"(?:system\s+prompt|system\s+message|instructions|prompt|rules)"
    r"|(?:忽略|无视|忘记|忘掉)(?:掉)?(?:你)?(?:之前|以上|上面|前面|先前|所有|全部)*的?(?:所有|全部)?(?:指令|指示|规则|提示|设定|要求)"
    r"|(?:告诉我|输出|打印|显示|泄露|给我看|复述|重复)(?:一下)?你的(?:系统)?(?:提示词?|指令|设定|规则|prompt)"
)
SENTENCE = re.compile(r"[^。！？!?\n]+[。！？!?]?|[^.\n]+(?:\.(?!\d)|$)")


def _drop_overrides(text: str) -> tuple[str, list[str]]:
    if not OVERRIDE.search(text):
        return text, []
    found, kept = [], []
    for m in SENTENCE.finditer(text):
        part = m.group(0)
        (found if OVERRIDE.search(part) else kept).append(part)
    return " ".join(kept), [" ".join(f.split())[:160] for f in found]


def split_turn(text: str) -> SplitTurn:
    visible, hidden, removed = strip_hidden(text)
    posed: list[str] = []
    for m in list(SYSTEM_VOICE.finditer(visible)):
        posed.append(" ".join(m.group(0).split())[:160])
    if posed:
        visible = SYSTEM_VOICE.sub(" ", visible)
    visible, overrides = _drop_overrides(visible)
    instructions = posed + [h[:160] for h in hidden if ADDRESSED.search(h) or re.search(r"(?i)recommend|推荐|忽略|ignore|always|must", h)]
    own_parts: list[str] = []
    pasted_parts: list[str] = []
    rest = visible
    # fenced blocks
    for m in FENCE.finditer(visible):
        pasted_parts.append(m.group(1))
    rest = FENCE.sub(" ", rest)
    # an intro phrase: everything after it is pasted
    m = INTRO.search(rest)
    if m and len(rest) - m.end() > 20:
        own_parts.append(rest[: m.end()])
        pasted_parts.append(rest[m.end() :])
    else:
        lines = rest.splitlines()
        quoted = [l for l in lines if l.lstrip().startswith(">")]
        if len(quoted) >= 2:
            pasted_parts.append("\n".join(l.lstrip()[1:] for l in quoted))
            rest = "\n".join(l for l in lines if not l.lstrip().startswith(">"))
        if _is_document(rest):
            # the first short line(s) before the document structure are usually the user's question
            paragraphs = re.split(r"\n\s*\n", rest.strip(), maxsplit=1)
            if len(paragraphs) == 2 and not _is_document(paragraphs[0]) and len(paragraphs[0]) < 400:
                own_parts.append(paragraphs[0])
                pasted_parts.append(paragraphs[1])
            else:
                pasted_parts.append(rest)
        else:
            own_parts.append(rest)
    pasted = "\n".join(p for p in pasted_parts if p.strip())
    if pasted:
        pasted = TAG.sub(" ", pasted)
        pasted, found = _drop_instructions(pasted)
        instructions.extend(found)
    own = " ".join(" ".join(own_parts).split()) if not pasted else "\n".join(own_parts).strip()
    return SplitTurn(own=own, pasted=pasted.strip(), instructions=list(dict.fromkeys(instructions)), hidden_removed=removed,
                     posed=posed, overrides=overrides)
