"""Slot patterns: numbers with the words around them, in English and Chinese.

Every function takes the *prepared* text of one turn — numbers normalised
(`numbers.normalise`) and catalog names replaced by placeholders such as
``\ue000g0\ue001`` (the first GPU named) — and returns typed values. They know
nothing about the catalog or the conversation; `reader.py` assembles them into a
`SlotUpdate`. Each pattern is written for a way people say a thing, never for
one question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.understand.numbers import NUMBER, value_of

N = rf"({NUMBER})(?!\d|[,.]\d)"  # a number (group), never a part of one ("50" inside "500")
MULT = r"\s?((?:k|K|w|W|m|M|b|B|t|T)(?![A-Za-z])|万亿|千亿|百亿|十亿|千万|百万|万|千|亿)?"  # its multiplier (group)
PH = "\ue000{kind}(\\d+)\ue001"  # a placeholder for the n-th name of a kind
GPU_PH = PH.format(kind="g")
MODEL_PH = PH.format(kind="m")
ANY_PH = "\ue000[gmpi]\\d+\ue001"
GPU_MARK = "\ue000g\\d+\ue001"  # a GPU placeholder without a group (inside patterns that number their groups)


def _num(raw: str | None, mult: str | None = None, *, context_k: bool = False) -> float | None:
    return value_of(raw, mult, context_k=context_k) if raw else None


def _int(v: float | None) -> int | None:
    if v is None or v < 1 or v > 1e9:
        return None
    return int(round(v))


# ------------------------------------------------------------------ GPU counts

COUNT_WORDS = r"(?:x|×|\*|张|块|台|个|片|卡|pcs)?"
_BETWEEN = r"(?:\d+\s?gb?(?:\s+|\s*的\s*)|(?:used|new|old|cheap|spare|rented|consumer|more|extra|of the|of them)\s+)?"  # "4张40G的A100"
_COUNT_BEFORE = re.compile(rf"(?<![\d.]){N}\s*{COUNT_WORDS}\s*{_BETWEEN}(?:(?:nvidia|英伟达|geforce|rtx|tesla)\s*)?(?:的\s*)?{GPU_PH}(?!\s*(?:\d+\s?gb?\s*)?(?:gpu[- ]?h|卡时|卡小时|hours?\b|hrs?\b|小时))", re.I)
# "two H200 machines", "3 A100 nodes": a number before a GPU and a machine word counts machines ("an 8x H100 node" not)
_SOME_MACHINES = re.compile(r"(?:several|multiple|a few|some|many|more|extra|几台|多台|若干)\s*$", re.I)  # "several 8xH100 nodes": unknown
_MACHINES_AFTER = re.compile(r"s?\s*(?:\d+\s?gb?\s*)?(?:machines?|nodes?|servers?|boxes|hosts|节点|机器|服务器)", re.I)
_COUNT_AFTER = re.compile(rf"{GPU_PH}\ue001?\s*(?:x|×|\*)\s*{N}(?![\d.])|{GPU_PH}\s*{N}\s*(?:张|块|台|卡|个|片)(?!\w)", re.I)
_COUNT_BARE = re.compile(
    rf"(?<![\d.]){N}\s*(?:x|×|\*)?\s*(?:\d+\s?g[bi]?[b]?\s*(?:的)?\s*)?(?:(?:张|块|台|个|片)\s*(?:\d+\s?g[bi]?b?\s*(?:的)?\s*)?(?:gpu|GPU|显卡|卡|算力卡)|卡(?![时])|(?:gpus|gpu|cards|card|graphics cards|devices|accelerators)\b(?![- ]?h(?:ours?|rs?)?(?![a-z])))"
    rf"|(?<![\d.]){N}\s+of\s+(?:them|those|these|the\s+\w+s)\b"
    # a count before a consumer card the catalog lacks ("8*2080ti boxes", "4x 3080")
    rf"|(?<![\d.]){N}\s*[x×*]\s*(?:rtx\s*|gtx\s*)?[1-5]0[5-9]0\s?(?:ti|super)?\b"  # not "1024x1024" (a resolution)
    rf"|(?<![\d.]){N}\s+(?:modded|used|cheap|old|spare)\s+(?:\d+\s?gb\s+)?(?:gpus|cards)\b"  # "two modded 48GB GPUs"
    # a count before a consumer card the catalog lacks as written, in the plural ("two 2080s", "3 5070 Tis")
    rf"|(?<![\d.]){N}\s+(?:(?:modded|used|cheap|old|spare)\s+)?(?:\d+\s?gb\s+)?(?:rtx\s*|gtx\s*)?[1-5]0[5-9]0(?:\s?(?:ti|super))?s\b"
    # "跑推理一张够不够", "租一张一个月多少钱": 张 counts cards when nothing else follows it
    rf"|(?<![\d.]){N}\s*张(?=[够就能行跑租呢吗的，,。？?\s\d]|$)",
    re.I,
)
# clusters: "2 nodes with 8x A100 each", "4x8 A100s", "4台8卡", "8台H800，每台8卡", "--nodes=4 --gpus-per-node=8"
_NODES_GPUS = [
    re.compile(rf"(?<![\d.]){N}\s*(?:nodes?|machines?|servers?|boxes|hosts|台(?:机器)?|个节点|节点)\s*(?:with|of|each with|×|x|\*|,|，|的)?\s*{N}\s*(?:x|×|\*)?\s*(?:张|块)?\s*(?:gpus?|cards?|卡|{GPU_PH})", re.I),
    re.compile(rf"(?<![\d.]){N}\s*[x×*]\s*{N}\s*(?:x|×)?\s*(?:gpus?|cards?|卡|{GPU_PH})", re.I),
    re.compile(rf"(?<![\d.]){N}\s*(?:台|个节点|nodes?|machines?|servers?|boxes)[^。\n]{{0,16}}?(?:每台|每个节点|each|per node)\s*(?:有|with|has|having|of)?\s*{N}\s*(?:x|×)?\s*(?:张|块)?\s*(?:gpus?|cards?|卡|{GPU_MARK})", re.I),
    # "four A800 nodes, 8 gpus each", "96 DGX-A100 nodes (8x 40G each)", "two nodes of 8", "two H100x8 machines"
    re.compile(rf"(?<![\d.]){N}\s*(?:(?:dgx[- ]?)?{GPU_MARK}\s*)?(?:nodes?|machines?|servers?|boxes)\W{{0,3}}{N}\s*(?:x|×)?\s*(?:(?:gpus?|cards?|{GPU_MARK})\s*|\d+\s?g[bi]?b?\s+|(?=\s*\(?\s*(?:each|apiece|per)))\)?\s*(?:each|apiece|per (?:node|machine|box))\b", re.I),
    re.compile(rf"(?<![\d.]){N}\s*(?:nodes?|machines?|servers?|boxes)\s+of\s+{N}\s*(?:x\s*)?(?:gpus?\b|cards?\b|{GPU_MARK}|(?=\s*(?:instead|each|\?|$|,|\.)))", re.I),
    re.compile(rf"(?<![\d.]){N}\s*{GPU_MARK}\s*[x×*]\s*{N}\s*(?:nodes?|machines?|servers?|boxes)", re.I),
    re.compile(rf"--nodes[= ]{N}[^\n]{{0,80}}?--gpus-per-node[= ]{N}", re.I),
    # "2台 H100*8", "两台A800 x 8": machines of a GPU times the GPUs in each
    re.compile(rf"(?<![\d.]){N}\s*台\s*{GPU_MARK}\s*[x×*]\s*{N}", re.I),
]
_TP_FLAG = re.compile(rf"(?:--tp|--tensor-parallel-size|tensor[_-]parallel[_-]size|\btp)\s*(?:=|:|：|指定的?|设为|设成|是)?\s*{N}(?!\s*(?:ms|s\b|%))", re.I)
_COUNT_ERROR_LIMIT = 1_000_000  # more GPUs than any cluster: a typo or an attack, never silently 1


@dataclass
class CountReading:
    count: int | None
    too_large: float | None = None  # the number written, when it is absurd


_ONE = re.compile(rf"(?<![A-Za-z])(?:one|a single|single|just one|only one)\s+(?:{GPU_PH}|of (?:those|these|the|them|my|our)\s+(?:cards|gpus)\b)", re.I)


# someone else's run, reported: the clause up to the count says who ran it or that it was done
_REPORTED = re.compile(r"(?:\bpaper\b|\bupstream\b|official|\breadme\b|\bdocs?\b|\bthey\b|\bthem\b|\bmeta says\b|\bsays\b|\bsaid\b|"
                       r"\breported\b|\bauthors?\b|\btook\b|\bwas\b|\bwere\b|论文|官方|原作者|作者|文档|号称|别人|据说|评论|他们|有人说|听说|网上说)", re.I)
# someone else's setup or run (a paper, the authors, a repo, people online): its durations and counts are quoted, not
# the user's ("the paper used 64 A100s for 2 days", "有人说至少要四台A100"); narrower than _REPORTED, which also takes a
# past tense of the user's own run ("took me 100 hours")
OTHERS = re.compile(r"(?:\bpapers?\b|\bauthors?\b|\bupstream\b|\bofficial\b|\breadme\b|\bthe repo\b|\bthe docs?\b|\bpeople (?:say|claim|report)|"
                    r"\bthey (?:say|claim|used|trained|report)|\bmeta says\b|\bsomeone (?:says|said)|论文|官方|原作者|作者|文档|号称|别人|据说|有人说|听说|网上说|他们用)", re.I)
_CLAUSE_BREAK = re.compile(r"[.;!?。；！？\n,，]")  # "论文里用了7张3090，我只有一张4090": per clause


def _reported(t: str, start: int, cues: re.Pattern = _REPORTED) -> bool:
    left = max((m.end() for m in _CLAUSE_BREAK.finditer(t, 0, start)), default=0)
    return bool(cues.search(t[left:start]))


def others_run(t: str, start: int) -> bool:
    """The figure at `start` sits in a clause about someone else's setup or run (a paper's, the authors', people's)."""
    return _reported(t, start, OTHERS)


# an image or video size ("1024x1024", "512×512", "2048x1080"): two sizes joined by x are no count of anything
_RESOLUTION = re.compile(r"(?<![\d.])\d{3,5}\s?[x×*]\s?\d{3,5}(?![\d.])(?:\s?(?:px|pixels?|像素|分辨率|的图|images?|resolution))?", re.I)
# clusters written size-first: "four 8x H200 nodes", "two 8-GPU nodes", "3 8卡机器"
_NODE_SIZED = [
    re.compile(rf"(?<![\d.]){N}\s+{N}\s*[x×*]\s*(?:(?:nvidia\s*)?{GPU_MARK}\s*)?(?:gpus?\s*)?(?:nodes?|machines?|servers?|boxes|hosts)\b", re.I),
    re.compile(rf"(?<![\d.]){N}\s+{N}[- ]?(?:gpus?|cards?|{GPU_MARK})\s*(?:{GPU_MARK}\s*)?(?:nodes?|machines?|servers?|boxes|hosts)\b", re.I),
]
# a written total ("32 H200s total", "一共4张", "8 GPUs in total"): the count of the whole setup
_COUNT_TOTAL_BEFORE = re.compile(r"(?:一共|总共|合计|总计|共|in total|a total of|total of|altogether)\s*(?:有|是|用|租)?\s*$", re.I)
_COUNT_TOTAL_AFTER = re.compile(r"^s?\s*(?:\)|）)?\s*(?:total\b|in total|altogether|combined|overall)", re.I)  # 一共 comes before its number
# two counts set against each other: options, a comparison, a change or a trial ("4 GPUs for 6 hours vs 8", "from 8 to
# 16 GPUs", "一张…换成4张也一样", "4卡…2卡反而", "tried 2 A100s"); "trying to …" names a goal, not a trial
_COUNTS_SET_AGAINST = re.compile(r"\bvs\.?(?![a-z])|\bversus\b|\bor\b|\bfrom\b[^,.;!?]{0,20}\bto\b|\bcompared?\b|\binstead\b|\btried\b|"
                                 r"\bthan\b|还是|或者|或是|换成|换到|改成|改用|反而|对比|比起|试了|试过|从[^，。,]{0,12}到", re.I)
# a number joined to a count before it: "2 or 4 A6000s", "8 to 16 GPUs", "2-4张", "4还是8卡"
_JOINED_BEFORE = re.compile(r"(?<![\d.])(\d+)\s*(?:or|to|到|至|还是|或)\s*$", re.I)
# "a single H100, or do we need two?": the other option written as a bare number after "or"
_OR_NUMBER = re.compile(r"(?:\bor\b|还是|或者)\s*(?:do (?:we|i|you) need|would|should (?:we|i) (?:get|rent|use|go with)|(?:we|i) need|need|要|用|上)?\s*(\d+)\s*(?:张|块|台|个)?\s*(?:\?|？|$|吗|呢)", re.I)
_MONEY_BEFORE_COUNT = re.compile(r"(?:预算|budget|花费|经费|[$¥￥])\s*$", re.I)


def gpu_count(t: str) -> CountReading:
    """How many GPUs: '4 张 4090', '8xA100', 'A100 x 8', 'A100 8卡', '8卡', '8 GPUs'; clusters multiply out.

    The count of the user's own setup: a written total wins; counts in someone else's run give way to the user's;
    two different counts set against each other (options, a trial, a change) are no setup, and neither is a bare
    "1卡" / "one gpu" beside a multi-card count (a per-card description)."""
    t = _RESOLUTION.sub(lambda m: " " * len(m.group(0)), t)
    nodes: list[tuple[int, int, float]] = []
    for pattern in _NODE_SIZED + _NODES_GPUS:
        for m in pattern.finditer(t):
            if any(a <= m.start() < b for a, b, _ in nodes):
                continue
            n, per = _num(m.group(1)), _num(m.group(2))
            if n and per and n * per < _COUNT_ERROR_LIMIT and float(n).is_integer() and float(per).is_integer():
                nodes.append((m.start(), m.end(), n * per))
    inside = lambda s: any(a <= s < b for a, b, _ in nodes)  # noqa: E731 - the count is a node's own size
    singles = [(m.start(), m.end(), m.group(1)) for m in _COUNT_BEFORE.finditer(t)
               if not (_MACHINES_AFTER.match(t, m.end()) and (not re.search(r"[x×*]", m.group(0), re.I)
                                                              or _SOME_MACHINES.search(t[max(0, m.start() - 14) : m.start()])))] + [
        (m.start(), m.end(), m.group(2) or m.group(4)) for m in _COUNT_AFTER.finditer(t)]
    bare = [(m.start(), m.end(), next(g for g in m.groups() if g is not None)) for m in _COUNT_BARE.finditer(t)]
    tiers: list[list[tuple[int, int, str]]] = [
        [(a, b, str(v)) for a, b, v in nodes],
        [c for c in singles if not inside(c[0])],
        [c for c in bare if not inside(c[0])],
        [(m.start(), m.end(), "1") for m in _ONE.finditer(t) if not inside(m.start())],  # "on one L4": one
        [(m.start(), m.end(), m.group(1)) for m in _TP_FLAG.finditer(t)],
    ]
    tiers = [[c for c in tier if not _MONEY_BEFORE_COUNT.search(t[max(0, c[0] - 8) : c[0]])] for tier in tiers]
    # a count in someone else's run ("the paper trained on 8 A100s") gives way to the user's own, in any tier
    own = [[c for c in tier if not _reported(t, c[0])] for tier in tiers]
    # counts set against each other; a tensor-parallel size counts among them only when no GPU count is written
    # ("8x A100: one instance at tp=8 or two at tp=4" has one setup; "tp2 793ms, tp4 853ms" two)
    pool = own if any(own) else tiers
    tp_only = not any(pool[:4])
    if _set_against(t, [c for tier in (pool if tp_only else pool[:4]) for c in tier], tiers[2], compared=tp_only):
        return CountReading(None)
    # a written total of the user's own setup wins ("4 nodes, 32 H200s total"), even over a node product
    for tier in (singles, bare, tiers[0]):
        for start, end, raw in sorted(tier):
            if (_COUNT_TOTAL_BEFORE.search(t[max(0, start - 12) : start]) or _COUNT_TOTAL_AFTER.match(t[end : end + 14])) and not _reported(t, start):
                v = _num(raw)
                if v and 1 <= v < _COUNT_ERROR_LIMIT and float(v).is_integer():
                    return CountReading(int(v))
    found = next((tier for tier in own if tier), None) or next((tier for tier in tiers if tier), [])
    for start, _, raw in sorted(found):
        v = _num(raw)
        if v is None:
            return CountReading(None, float("inf"))
        if v >= _COUNT_ERROR_LIMIT:
            return CountReading(None, v)
        if v >= 1 and float(v).is_integer():
            return CountReading(int(v))
    return CountReading(None)


def _set_against(t: str, counts: list[tuple[int, int, str]], bare: list[tuple[int, int, str]], *, compared: bool = False) -> bool:
    """Two different counts offered, compared or tried against each other: the turn states no one setup. `compared`:
    two different values are a comparison by themselves (two tensor-parallel sizes are two layouts tried)."""
    values: set[float] = set()
    for start, end, raw in counts:
        v = _num(raw)
        if v is None or not float(v).is_integer():
            continue
        if v == 1 and (start, end, raw) in bare and any((_num(r) or 1) > 1 for _, _, r in counts):
            continue  # "单卡24G，一共4张", "4张H20，单卡bs=1": the bare one describes a card of the setup
        values.add(v)
        joined = _JOINED_BEFORE.search(t[max(0, start - 12) : start])
        if joined and _num(joined.group(1)) != v:
            return True  # "2 or 4 A6000s", "from 8 to 16 GPUs", "2-4张": a range or a choice of counts
    if counts and (m := _OR_NUMBER.search(t, min(c[0] for c in counts))):
        if (_num(m.group(1)) or 0) not in values:
            return True  # "a single H100, or do we need two?"
    return len(values) >= 2 and (compared or bool(_COUNTS_SET_AGAINST.search(t)))


# ------------------------------------------------------------------ memory

MEM_UNIT = r"(?:gib|gb(?!ps|/s|it\b)|g(?![a-z])|gigs?|gigabytes?)"
_MEM = re.compile(rf"(?<![A-Za-z0-9_./]){N}\s*{MEM_UNIT}(?!\s*/\s*\d)(?:\s*(?:的)?\s*(?:显存|vram|memory|内存)?)?", re.I)
_HOST_AFTER = re.compile(r"^\s*(?:of\s+)?(?:ddr\d?|ram\b|(?:system|host|cpu) ram\b|system memory|host memory|cpu memory|download\b|内存(?!.{0,2}显存)|主机内存|disk|ssd|nvme|硬盘|磁盘|存储|swap|storage|file|文件)", re.I)
_HOST_BEFORE = re.compile(r"(?:系统内存|内存条|主机内存|cpu\s*内存|(?<!显)内存|\bram\b|system memory|host memory|cpu memory|disk|硬盘|磁盘|存储|ssd|nvme|dataset|数据集|checkpoint|权重文件|download|下载|带宽|bandwidth)\s*(?:is|of|:|：|有|是|为|大概|约|只有)?\s*$", re.I)
_GPU_WORDS = re.compile(r"(?:gpu|vram|显存|显卡|card|卡)", re.I)
# the figure is what something needs or uses, not memory the user has
_NEED = re.compile(r"(?:need|needs|needed|require|requires|required|takes?|took|uses?|using|used|eats?|ate|allocated?|consum\w*|occup\w*|peaks?\w*|"
                   r"is already|already|is only|only takes|sits? at|stays? at|goes past|goes over|hits?|reach\w*|climbs? to|spikes? to|"
                   r"says|said|claims?|claimed|peaks?\w*\s+(?:mem|memory|vram|usage)|占用|占了|占|需要|要|吃掉|吃了|用了|才|已经|"
                   # a PyTorch OOM log's "has a total capacity of 79.15 GiB", "grabs 18G", a sum "8*24=192G": quoted, not the user's card
                   r"capacity of|grabs?|grabbed|tries to grab|goes up to|went up to|go up to|=)\s*(?:about|around|~|约|大概|只有|近|将近)?\s*$", re.I)
_USAGE = re.compile(r"(?:fit\w*|load\w*|trains?|trained|runs?|running|ran|uses?|using|used|takes?|took|peak\w*|占用|用了|跑了|吃了|放进)[^,.;，。?？]{0,24}(?:\bin(?: under)?|\bat|\bto|about|~|了|到|进)\s*$", re.I)
_TOTAL_AFTER = re.compile(r"^\s*(?:total|in total|combined|altogether|overall|总共|一共|合计|总显存|gets allocated|allocated|for (?:full|the|a)\b"
                          r"|的?模型|(?:large )?models?\b|of (?:the|my|this|each) (?:card|gpu)\b|(?:is |are |gets )?used\b)", re.I)  # "1g的模型", "a 40gb model": the model's size
_VERSUS = re.compile(r"^\s*(?:vs\.?|versus|or|还是|和|对比)\s*\d", re.I)
_FLOOR = re.compile(r"(?:at least|minimum|min\.?|more than|over|greater than|above|≥|>=|>|至少|不少于|大于|超过|起码)\s*$", re.I)
_FLOOR_AFTER = re.compile(r"^\s*(?:\+|or more|and up|以上|及以上|或以上|起)", re.I)
_CLAUSE = re.compile(r"[,.;:!?，。；：！？\n]")


@dataclass
class MemoryReading:
    available_gib: float | None = None
    min_memory_gb: float | None = None


def _gpu_in_clause(t: str, start: int, end: int) -> bool:
    """A catalog GPU named in the same clause, close by: the figure is that GPU's memory ('A100 (40G)', '24G的A5000')."""
    before = t[max(0, start - 14) : start]
    after = t[end : end + 14]
    before = _CLAUSE.split(before)[-1]
    after = _CLAUSE.split(after)[0]
    return "\ue000g" in before or "\ue000g" in after


def memory(t: str) -> MemoryReading:
    out = MemoryReading()
    for m in _MEM.finditer(t):
        v = _num(m.group(1))
        if v is None or v <= 0 or v > 100_000:
            continue
        before = t[max(0, m.start() - 24) : m.start()]
        after = t[m.end() : m.end() + 14]
        near_before = _CLAUSE.split(before)[-1]
        if _gpu_in_clause(t, m.start(), m.end()):
            continue
        # "64G内存" is host RAM (内存, not 显存): the figure's own suffix says so
        host = _HOST_AFTER.match(after) or _HOST_BEFORE.search(near_before) or re.search(r"(?<!显)内存$", m.group(0))
        if host and not _GPU_WORDS.search(near_before[-12:] + m.group(0)):
            continue
        if _NEED.search(near_before) or _USAGE.search(near_before) or _TOTAL_AFTER.match(after) or _VERSUS.match(after):
            continue
        if re.search(r"(?:\d\s*(?:gb?|gib)?\s*(?:vs\.?|versus|or|还是|和)\s*)$", near_before, re.I):
            continue  # the second figure of "19GB vs 11GB"
        if _FLOOR.search(near_before) or _FLOOR_AFTER.match(after):
            out.min_memory_gb = out.min_memory_gb or v
        if out.available_gib is None:
            out.available_gib = v
    return out


# ------------------------------------------------------------------ money

CNY_PRE = r"(?:¥|￥|rmb\s?|cny\s?|人民币\s?)"
USD_PRE = r"(?:us\$|\$|usd\s?)"
# "块" after a count is a classifier when a card follows ("4块A100", "一块24G的4090", "8块a800"), not money
CNY_POST = r"(?:元|块钱|块(?!\s*(?:\ue000g|\d+\s*g|显卡|卡|gpu|板))|rmb\b|cny\b|yuan\b|人民币|软妹币|大洋)"
USD_POST = r"(?:usd\b|dollars?\b|bucks\b|美元|美金|刀(?!片)|cents?\b|grand\b)"
_POST_SCALE = {"cent": 0.01, "cents": 0.01, "grand": 1000.0}  # "50 cents an hour" = $0.50, "two grand" = $2,000
_MONEY = re.compile(
    rf"(?P<pre>{CNY_PRE}|{USD_PRE})\s*{N}{MULT}\s*(?P<post>{CNY_POST}|{USD_POST})?"
    rf"|(?<![A-Za-z0-9_.]){N}{MULT}\s*(?P<post2>{CNY_POST}|{USD_POST})",
    re.I,
)
_BUDGET_WORD = re.compile(
    r"(?:预算|budget|花费|开销|经费|成本|控制在|不超过|不要超过|以内|之内|under|below|less than|within|at most|max(?:imum)?|cap|afford|spend|up to|最多|顶多|只有|only have)",
    re.I,
)
_BARE_BUDGET = re.compile(
    rf"(?:预算|budget(?: is| of)?|花费|经费|控制在|不超过|最多|顶多|under|below|less than|at most|up to|spend|afford)\s*(?:\|\s*)?"
    # the budget restated with a verb of change: "预算改成1万以内", "预算调到一个月 1 万", "budget is now 800", "budget raised to 3000"
    rf"(?:(?:改成|改为|改到|调到|调成|调整为|提到|提高到|降到|降低到|放宽到|加到|变成|换成|设为|设成|\bnow\b|changed to|raised to|cut to|lowered to|increased to|bumped to)\s*)?"
    # a period may sit between the word and the amount: "预算每月4w以内", "预算一个月3000", "budget per month 2000"
    rf"(?:(?:每个?月|一个月|1个月|每月|月|每小时|一小时|每天|per month|a month|monthly|per hour|an hour)\s*)?"
    rf"(?:是|为|大概|约|在|:|：)?\s*{N}{MULT}"
    r"(?!\s*(?:gb|g\b|gib|tokens?|张|卡|小时|h\b|hours?|天|days?|b\b|亿|epochs?|轮|人|users?|个|ms(?![A-Za-z])|毫秒|s(?![A-Za-z])|秒|seconds?|qps|tok|concurrent|并发|%"
    r"|次|调用|条|请求|requests?|calls?|queries|steps?))",
    re.I,
)
# "每月1.5万以内", "每月8000以内", "每个月最多2w": a period, then an amount counted in 万/千 or bounded by 以内 — money
# even without a currency or a budget word (the period-first order of "1.5w一个月")
_PERIOD_THEN_AMOUNT = re.compile(
    rf"(?:每个?月|一个月|每月|月均|每小时|一小时|每天)\s*(?:是|为|大概|约|在|:|：|不超过|最多|顶多|控制在)?\s*{N}\s?(w|W|万|千|k|K)?"
    r"(?:(?<=[wW万千kK])|(?=\s*(?:以内|之内|以下|内|左右|上下|封顶)))"
    # a count, even after its bound word ("每天1万以内的请求", "每月 2w 左右 token 的量"), is no money
    r"(?!\s*(?:以内|之内|以下|内|左右|上下)?\s*的?\s*(?:次|个|条|人|用户|并发|张|卡|token|请求|调用|小时|天))",
    re.I,
)
# "1.5w一个月", "2w/月", "20k/mo": an amount in 万/k with a period is money even without a currency
_WAN_PERIOD = re.compile(rf"(?<![A-Za-z0-9_.]){N}\s?(w|W|万)(?![A-Za-z])")
PERIOD_WORDS = [
    ("hour", r"/\s*(?:h|hr|hour|小时|时)\b|/\s*(?:小时|时)|per (?:gpu[- ]?)?hour|/\s*gpu[- ]?h(?:ou)?r?\b|an hour|a hour|hourly|每小时|一小时|1小时|每个小时|每卡时|/卡时|一个小时|1个小时|每时"),
    ("day", r"/\s*(?:day|天|日)|per day|a day|daily|每天|一天|1天|每日|一日"),
    ("month", r"/\s*(?:mo|month|月)|per month|a month|monthly|/mth|每月|一个月|1个月|每个月|月租|包月|月预算|月均|月花费|月开销|月支出|月费用|p\.?m\.?\b"),
    ("year", r"/\s*(?:yr|year|年)|per year|a year|yearly|annually|每年|一年|1年|年预算"),
    ("job", r"whole job|entire job|the job|整个任务|整个项目|全部|总共|一共|in total|total|overall|总预算|for the (?:whole|entire) (?:run|training|project)|整个训练|训练总|总费用|all in"),
]
_PERIOD = [(per, re.compile(p, re.I)) for per, p in PERIOD_WORDS]


def _currency(pre: str | None, post: str | None, mult: str | None) -> str | None:
    token = (pre or post or "").lower()
    if token:
        if re.match(USD_PRE, token, re.I) or re.match(USD_POST, token, re.I):
            return "USD"
        return "CNY"
    if mult in ("w", "W", "万", "千", "亿"):
        return "CNY"  # amounts counted in 万 are RMB unless a currency is written
    return None


def _period_after(t: str, end: int) -> str | None:
    after = t[end : end + 10].lstrip(" ,，")
    for per, pattern in _PERIOD:
        if pattern.match(after):
            return per
    return None


def _period_near(t: str, start: int, end: int) -> str | None:
    after = t[end : end + 14]
    before = t[max(0, start - 14) : start]
    for per, pattern in _PERIOD:
        if pattern.match(after.lstrip(" ,，")) or re.match(r"^\s*(?:\)|）)?\s*" + pattern.pattern, after, re.I):
            return per
    for per, pattern in _PERIOD:
        if pattern.search(before):
            return per
    return None


@dataclass
class MoneyReading:
    amount: float
    currency: str | None
    per: str | None
    budget_cue: bool
    start: int
    end: int


_NOT_MONEY_BEFORE = re.compile(r"(?:seq(?:uence)?|len(?:gth)?|batch(?:[ _]size)?|bs|context|ctx|tokens?|steps?|users?|上下文|序列|长度|批|处理|请求|调用|次数)\s*[:=：]?\s*$", re.I)
# a period glued right after an amount ("15000一个月", "500/h")
_GLUED_PERIOD = r"(?:一个月|每个?月|/\s?月|一小时|每小时|/\s?小时|a month|per month|/mo\b|an hour|per hour|/h\b|/hr\b)"
_NOT_MONEY_AFTER = re.compile(rf"^\s?{_GLUED_PERIOD}\s*(?:的)?\s*"
                              r"(?:请求|次|调用|条|tokens?|users?|requests?|steps?|calls?|queries|人)", re.I)
_MONEY_TOPIC = re.compile(r"预算|budget|spend|花费|花|钱|租|rent|cost|price|费用|价|元|块|\$|¥|￥|usd|rmb|cny|afford|pay", re.I)
_BUDGET_KUAI = re.compile(rf"(?:预算|budget|花费|经费)\s*(?:是|为|大概|约|有)?\s*{N}{MULT}\s*块", re.I)
_AMOUNT_PERIOD = re.compile(rf"(?<![A-Za-z0-9_.]){N}(?=\s?{_GLUED_PERIOD})", re.I)


# a range of money ("1-2w a month", "$1~2/h", "3到5千"): the upper bound is what may be spent
_RANGE = re.compile(rf"(?<![A-Za-z0-9_.])({NUMBER})\s*(?:-|~|～|–|到|至|to)\s*(?=((?:{CNY_PRE}|{USD_PRE})?)\s*({NUMBER})\s?(w|W|万|k|K|千)?(?![A-Za-z0-9]))", re.I)


def _range_lower_blanked(m: re.Match) -> str:
    """Blank a range's lower bound only where it is one: the upper bound larger once its unit applies ("1-2w"), never
    "$3000 - 4 A100s" or "预算5000-2张4090" (an amount, then a count)."""
    low, up = value_of(m.group(1), m.group(4)), value_of(m.group(3), m.group(4))
    if low is None or up is None or up <= low:
        return m.group(0)
    return " " * len(m.group(0))
# an amount before the budget word ("十万预算", "a $5k budget")
_AMOUNT_THEN_BUDGET = re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:的)?\s*(?:预算|budget\b)", re.I)
# the whole job named anywhere in the amount's clause ("the whole job has to come in under $500")
_JOB_WORDS = re.compile(r"whole job|entire job|整个任务|整个项目|整个训练|总预算|in total|all in|for the (?:whole|entire) (?:run|training|project|job)", re.I)
_CLAUSE_END = re.compile(r"[.;!?。；！？\n,，:：]")


def _job_in_clause(t: str, start: int, end: int) -> bool:
    left = max((m.end() for m in _CLAUSE_END.finditer(t, 0, start)), default=0)
    right = next((m.start() for m in _CLAUSE_END.finditer(t, end)), len(t))
    return bool(_JOB_WORDS.search(t[left:start]) or _JOB_WORDS.search(t[end:right]))


def _cjk(t: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in t)


def money_amounts(t: str) -> list[MoneyReading]:
    # a range's lower bound and its dash become spaces (offsets kept): only the upper bound is read
    t = _RANGE.sub(_range_lower_blanked, t)
    out = _money_amounts(t)
    for r in out:
        if r.per is None and _job_in_clause(t, r.start, r.end):
            r.per = "job"
        if r.currency is None and r.budget_cue and _cjk(t):
            r.currency = "CNY"  # an amount in a Chinese sentence with no currency written is RMB
    return out


def _money_amounts(t: str) -> list[MoneyReading]:
    out: list[MoneyReading] = []
    taken: list[tuple[int, int]] = []
    for m in _MONEY.finditer(t):
        raw = m.group(2) or m.group(5)
        mult = m.group(3) if m.group(2) else m.group(6)
        v = _num(raw, mult)
        if v is None or v <= 0:
            continue
        post = (m.group("post") or m.group("post2") or "").lower()
        v *= _POST_SCALE.get(post, 1.0)
        cur = _currency(m.group("pre"), m.group("post") or m.group("post2"), mult)
        before = t[max(0, m.start() - 20) : m.start()]
        out.append(MoneyReading(v, cur, _period_near(t, m.start(), m.end()), bool(_BUDGET_WORD.search(before)), m.start(), m.end()))
        taken.append(m.span())
    for m in _WAN_PERIOD.finditer(t):
        s, e = m.start(1), m.end()
        if any(a <= s < b for a, b in taken):
            continue
        v = _num(m.group(1), m.group(2))
        per = _period_after(t, m.end(2))
        if v and per:
            out.append(MoneyReading(v, _currency(None, None, m.group(2)), per, True, s, e))
            taken.append((s, e))
    for m in _PERIOD_THEN_AMOUNT.finditer(t):
        s, e = m.start(1), m.end()
        if any(a <= s < b for a, b in taken):
            continue
        v = _num(m.group(1), m.group(2))
        if v and v >= 100:
            out.append(MoneyReading(v, _currency(None, None, m.group(2)), _period_near(t, s, e), True, s, e))
            taken.append((s, e))
    for m in _BUDGET_KUAI.finditer(t):  # "预算5000块 A100": after a budget word 块 is yuan, whatever follows
        s, e = m.start(1), m.end()
        if any(a <= s < b for a, b in taken):
            continue
        v = _num(m.group(1), m.group(2))
        if v:
            out.append(MoneyReading(v, "CNY", _period_near(t, s, e), True, s, e))
            taken.append((s, e))
    for m in _AMOUNT_PERIOD.finditer(t):  # "15000一个月能租到几张4090": an amount with a period glued to it is money
        s, e = m.start(1), m.end(1)
        if any(a <= s < b for a, b in taken):
            continue
        v = _num(m.group(1))
        per = _period_after(t, e)
        if _NOT_MONEY_BEFORE.search(t[max(0, s - 16) : s]) or _NOT_MONEY_AFTER.match(t[e : e + 24]) or not _MONEY_TOPIC.search(t):
            continue  # "seq 4096 per hour", "5000一小时的请求", or no money in the turn at all
        if v and v >= 100 and per in ("month", "hour", "day", "year"):
            out.append(MoneyReading(v, None, per, True, s, e))
            taken.append((s, e))
    for m in _AMOUNT_THEN_BUDGET.finditer(t):
        s, e = m.start(1), m.end(1)
        if any(a <= s < b for a, b in taken):
            continue
        v = _num(m.group(1), m.group(2))
        if v and not m.group(2) and float(v).is_integer() and 1990 <= v <= 2040:
            continue  # "our 2025 budget": a year
        if v and v >= 100:
            out.append(MoneyReading(v, _currency(None, None, m.group(2)), _period_near(t, s, m.end()), True, s, m.end()))
            taken.append((s, m.end()))
    for m in _BARE_BUDGET.finditer(t):
        s, e = m.start(1), m.end()
        if any(a <= s < b for a, b in taken):
            continue
        v = _num(m.group(1), m.group(2))
        if v is None or v <= 0:
            continue
        # a bare "under 20000" is a budget only when money is the topic: a period or a budget word must be there
        per = _period_near(t, s, e)
        cur = _currency(None, None, m.group(2))
        out.append(MoneyReading(v, cur, per, True, s, e))
    return sorted(out, key=lambda r: r.start)


# ------------------------------------------------------------------ training data

_SPEED = r"(?:\s*/\s*s(?:ec)?\b|\s*per\s+(?:second|sec)\b|\s*/\s*秒|\s*每秒|\s*/\s*user)"
_TOKENS = re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:个\s*)?(?:(?:training|train|pretraining|pre-training|fine-?tuning|of|high-quality|clean|unique|训练|预训练)\s+){{0,2}}(?:tokens?|toks?\b|token数)(?!{_SPEED})", re.I)
_PER_MILLION = re.compile(r"(?:per|/|每|一)\s*(?:1\s*)?$", re.I)
_LENGTH_WORDS = re.compile(r"(?:input|output|prompt|completion|generat|context|ctx|上下文|输入|输出|生成|回复|提示|序列|seq|长度|length|每条|per request|each request|max_new|in\b|out\b)", re.I)
# "遍" counts passes only from two on: "训一遍" / "做一遍预训练" / "复读一遍" is doing a thing once, not an epoch count;
# an ASCII edge after "epoch" ("1个epoch要多久": Python's \b sees no edge between "h" and "要")
_EPOCHS = re.compile(rf"(?<![A-Za-z0-9_.]){N}\s*(?:个\s*)?(?:epochs?(?![A-Za-z0-9_])|ep(?![A-Za-z0-9_])|轮(?!次请求)|遍)", re.I)
_EPOCHS_PRE = re.compile(rf"(?:epochs?|num_train_epochs|训练轮数|轮数)\s*(?:=|:|：|为|是|of)?\s*{N}", re.I)


def tokens(t: str) -> float | None:
    for m in _TOKENS.finditer(t):
        v = _num(m.group(1), m.group(2))
        if v is None:
            continue
        window = t[max(0, m.start() - 18) : m.end() + 14]
        if _PER_MILLION.search(t[max(0, m.start() - 6) : m.start()]):
            continue  # "cost per million tokens" is a unit, not a dataset
        if v < 1e6 and _LENGTH_WORDS.search(window):
            continue  # "2k input tokens" is a length, not a dataset
        if v >= 1e6 or (v >= 1e5 and re.search(r"dataset|data|train|数据|语料|corpus", window, re.I)):
            return v
    return None


# A dataset stated as examples and their length ("20k examples avg 800 tokens", "100k samples of 1k tokens",
# "10万条数据，每条约 500 token", "5000 条对话，平均长度 1k"): the two factors, kept apart from `tokens` (the corpus labels
# only a token count as tokens); the advisor multiplies them, saying so.
_EXAMPLE_NOUNS = (r"(?:training\s+|instruction\s+|sft\s+|labell?ed\s+)?(?:examples?|samples?|rows|pairs|conversations|dialogues|"
                  r"instructions|records|documents|docs|prompts|q&a|qa\s+pairs)\b")
_EXAMPLES_EN = re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:{_EXAMPLE_NOUNS})", re.I)
_EXAMPLES_ZH = re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:多)?\s*(?:条|个样本|个\s*samples?|组)\s*(?:训练|微调|指令|sft|对话|问答|标注)?\s*"
                          rf"(?:数据|样本|语料|对话|问答|指令|记录)?", re.I)
_PER_EXAMPLE_LEN = re.compile(
    rf"^[\s,，;；(（]*(?:and\s+|with\s+|each\s+|every\s+|但\s*)?(?:(?:on\s+)?(?:avg|average|averaging|mean|each|per\s+(?:example|sample)|"
    rf"of|at|about|around|roughly|approx(?:imately)?|~|≈|每条(?:数据|样本)?|每个(?:样本)?|平均(?:每条)?(?:长度)?|长度|大约|大概|约|左右|"
    rf"在|是|为|length|long|len)[\s:：=]*){{1,4}}{N}{MULT}\s*(?:个\s*)?(?:tokens?|toks?\b|token|字|tok)?",
    re.I,
)


_BATCH_SIDE = re.compile(r"(?:batch|bs|micro|批)[\w\s]*(?:of|=|:|为)?\s*$", re.I)
_PER_STEP = re.compile(r"^\s*(?:per|/|each|every|每)\s*(?:batch|step|gpu|device|card|iter|卡|步|批)", re.I)


def dataset_examples(t: str) -> tuple[float | None, int | None]:
    """(examples, tokens per example) when the turn sizes its dataset that way; either may be None."""
    for pattern in (_EXAMPLES_EN, _EXAMPLES_ZH):
        for m in pattern.finditer(t):
            count = _num(m.group(1), m.group(2))
            if count is None or not 100 <= count <= 1e10:
                continue  # a dataset, not "8 samples" of a batch
            if _BATCH_SIDE.search(t[max(0, m.start() - 14):m.start()]) or _PER_STEP.match(t[m.end():m.end() + 20]):
                continue  # "batch of 256 samples", "512 samples per step": a batch size
            length = None
            after = _PER_EXAMPLE_LEN.match(t[m.end():m.end() + 40])
            if after:
                unit_ok = re.search(r"tok|token", after.group(0), re.I) or re.search(r"平均|每条|长度|avg|average", after.group(0), re.I)
                v = _num(after.group(1), after.group(2))  # "1k tokens" on average is 1,000, not a 1,024 window
                if unit_ok and v is not None and 8 <= v <= 1_000_000 and "字" not in after.group(0):
                    length = int(round(v))
            return count, length
    return None, None


def epochs(t: str) -> float | None:
    for pattern in (_EPOCHS, _EPOCHS_PRE):
        m = next((m for m in pattern.finditer(t) if not (m.group(0).endswith("遍") and (_num(m.group(1)) or 0) < 2)), None)
        if m:
            v = _num(m.group(1))
            if v is not None and 0 < v <= 1000:
                return v
    return None


# ------------------------------------------------------------------ sequence, batch, rank

# What joins a setting's name to its value: one word ("=", "为", "of"), or a short chain of them — a modal, an adverb
# of time and a verb of setting ("序列长度要到 32k", "batch 设 1", "bs 能开到 4", "bs 降到 2", "每卡 batch 只能开到 4",
# "max-model-len 已经压到 4096", "max_model_len above 8192"): the value set, raised or lowered to is the setting's
SETTING_TO = (r"(?:\s*(?:\(|（|=|:|：|\bof\b|\bis\b|\bto\b|\bat\b|\babove\b|\bover\b|bumped|\bup\b|\bset\b|\bonly\b|\bjust\b|"
              r"为|是|要|得|能|只能|可以|就|已经|已|都|也|还|才|设成|设为|设到|设|开到|开成|开|改到|改成|改|调到|调成|调|压到|降到|降|"
              r"加到|提到|拉到|上到|到)){0,3}")
_SEQ_PRE = re.compile(
    rf"(?:seq(?:uence)?(?:[ _-]?len(?:gth)?)?|context(?:[ _-]?(?:length|window|len|size))?|ctx(?:[ _-]?len)?|max[_ -]?(?:seq|model)?[_ -]?len(?:gth)?|"
    rf"cutoff(?:[_ ]len)?|model_max_length|max_model_len|max_position_embeddings|上下文(?:长度|窗口)?|序列长度|序列|文本长度|长度)"
    rf"{SETTING_TO}\s*(?:约|大概|~)?\s*{N}\s*(k|K|万)?(?![A-Za-z0-9])",
    re.I,
)
_SEQ_POST = re.compile(rf"(?<![A-Za-z0-9_.]){N}\s*(k|K)?\s*(?:tokens?\s*(?:of\s*)?)?(?:的\s*)?(?:以上的?\s*)?(?:context|ctx|上下文|上文|长上文|序列长度|seq(?:uence)?(?:\s*len(?:gth)?)?|长文本|窗口|长度)", re.I)
_BATCH = re.compile(
    rf"(?:per_device_train_batch_size|micro[_ -]?batch(?:[_ -]?size)?|batch[_ -]?size|\bbatch\b|\bbsz?\b|批大小|批次大小|批量大小|批量|batch_size){SETTING_TO}\s*{N}",
    re.I,
)
_RANK = re.compile(rf"(?:lora[_ ]?rank|lora[_ ]?r\b|\brank\b|\blora_r\b|秩|\br)\s*(?:=|:|of|为|是|设为)?\s*{N}", re.I)


# the only figure of a short follow-up, a bare k-number ("and at 8k?", "那改成16k呢"), with no unit of another slot
_BARE_K = re.compile(rf"(?<![A-Za-z0-9_.$¥￥]){N}\s?[kK](?![A-Za-z0-9])(?!\s*(?:tokens?\s+(?:a|per)\s+day|users?|people|人|用户|requests?|请求|次|"
                     r"qps|/\s*(?:月|month|mo|h|hour|day)|一个月|每月|元|块|刀|dollars?|usd|rmb|steps?|步|条|samples?|images?|张))", re.I)


def bare_k_length(t: str) -> int | None:
    """A context length written only as a k-number, the turn's one figure: 8k -> 8192."""
    figures = re.findall(r"\d+(?:\.\d+)?", t)
    found = list(_BARE_K.finditer(t))
    if len(found) != 1 or len(figures) != 1:
        return None
    v = _int(_num(found[0].group(1), "k", context_k=True))
    return v if v and 512 <= v <= 10_000_000 else None


def seq_len(t: str) -> int | None:
    for pattern in (_SEQ_PRE, _SEQ_POST):
        for m in pattern.finditer(t):
            v = _int(_num(m.group(1), m.group(2), context_k=True))
            if v and 16 <= v <= 10_000_000:
                return v
    return None


def batch_size(t: str) -> int | None:
    m = _BATCH.search(t)
    v = _int(_num(m.group(1))) if m else None
    return v if v and v <= 100_000 else None


def lora_rank(t: str) -> int | None:
    for m in _RANK.finditer(t):
        if m.group(0).strip().lower().startswith("r") and "=" not in m.group(0) and not m.group(0).lower().startswith("rank"):
            continue  # a bare "r 8" is not a rank; "r=8" is
        v = _int(_num(m.group(1)))
        if v and v <= 4096:
            return v
    return None


# ------------------------------------------------------------------ time

DURATION_UNITS = [
    (r"(?:hours?|hrs?|h\b|小时|个小时|钟头)", 1.0),
    (r"(?:days?|天|日(?!志|本|期))", 24.0),
    (r"(?:weeks?|wks?|周(?!五|一|二|三|四|六|日|末)|星期(?![一二三四五六日天])|个星期|礼拜(?![一二三四五六日天]))", 168.0),
    (r"(?:months?|个月|月(?!份))", 730.0),
]
MONTH_FACTOR = 730.0
# "100 hours", "a 2-week run", "3-day job": the unit may be hyphenated to its number
_DURATION = [(re.compile(rf"(?<![A-Za-z0-9_.]){N}\s*-?\s*{unit}", re.I), f) for unit, f in DURATION_UNITS]
_A_DURATION = re.compile(r"(?:\ba|\ban|one)\s+(?:whole\s+|full\s+|entire\s+|single\s+)?(hour|day|week|month)\b", re.I)
# "a fortnight" is two weeks; "半天" half a day (the README: 12 hours), not "等了半天" after a verb of waiting
_FORTNIGHT = re.compile(r"\b(?:a|one)\s+fortnight\b|\bfortnight\b", re.I)
_HALF_DAY = re.compile(r"(?<![\d一二三四五六七八九十两等了])半天")
# "一天多少钱", "多少一小时": one unit priced is the price's period, not a usage to price
_PERIOD_PRICED_AFTER = re.compile(r"^\s*(?:要|得|大概|大约)?\s*(?:多少钱|多少|什么价|啥价|的价格|价格|费用|how much|costs?\b|price)", re.I)
_PERIOD_PRICED_BEFORE = re.compile(r"(?:多少钱?|什么价|啥价|per|a|an|every|each|/)\s*$", re.I)
_MONEY_BEFORE = re.compile(r"(?:bucks?|dollars?|cents?|usd|rmb|cny|yuan|元|块|刀|[$¥￥]\s*[\d.,]+\s*[kKwW万]?)\s*$", re.I)
_WITHIN = re.compile(r"(?:within|in|under|less than|no more than|by|before|不超过|少于|要在|得在|需要在|给(?:我们|我|了)?|只有|只给|(?:we|i)(?: only)? have|have only|got)\s*(?:the next\s*|only\s*)?$", re.I)
_WITHIN_AFTER = re.compile(r"^\s*(?:内|之内|以内|以里|前|之前|里)(?:训完|跑完|完成|搞定|出结果|结束)?|^\s*(?:训完|跑完|完成|搞定|出结果)|^\s*的?时间"
                           r"|^\s*(?:max(?:imum)?|tops|at most|最多|封顶)\b|^\s*(?:from now|till|until|left|to go)\b", re.I)
# "3天内", "两周之内": a Chinese length closed by 内 is a time limit by itself, unless the turn prices the time
_ZH_WITHIN = re.compile(r"^\s*(?:内|之内|以内)")
_PRICED = re.compile(r"多少钱|费用|价格|花多少|cost|price|how much", re.I)
_DEADLINE_WORDS = re.compile(r"(?:deadline|due|截止|ddl|交付|赶|来得及|finish|done|complete|ready|must|hard stop|训完|跑完|完成|出结果|搞定|训好)", re.I)
_PER_DAY = re.compile(rf"{N}\s*(?:hours?|hrs?|h|小时|个小时)\s*(?:a|per|/|each)\s*day|(?:每天|一天|每日|白天|每晚)\s*[\u4e00-\u9fff]{{0,3}}\s*{N}\s*(?:个)?(?:小时|h\b|hours?)", re.I)
WEEKDAYS = {
    "monday": "monday", "tuesday": "tuesday", "wednesday": "wednesday", "thursday": "thursday", "friday": "friday",
    "saturday": "saturday", "sunday": "sunday", "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
    "fri": "friday", "sat": "saturday", "sun": "sunday",
}
ZH_WEEKDAYS = {"1": "monday", "一": "monday", "2": "tuesday", "二": "tuesday", "3": "wednesday", "三": "wednesday",
               "4": "thursday", "四": "thursday", "5": "friday", "五": "friday", "6": "saturday", "六": "saturday",
               "7": "sunday", "日": "sunday", "天": "sunday"}
_WEEKDAY_EN = re.compile(r"\b(?:by|before|until|till|on|due|this|next)\s+(?:this\s+|next\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)\b", re.I)
_WEEKDAY_ZH = re.compile(r"(?:本|这|下)?(?:周|星期|礼拜)([1-7一二三四五六日天])\s*(?:之前|以前|前|内|结束前|下班前|交|要|得|必须)")
_DATE = re.compile(r"(?:(\d{4})\s*[-/年]\s*)?(\d{1,2})\s*(?:月|[-/])\s*(\d{1,2})\s*(?:日|号)?\s*(?:之前|以前|前|截止)|(?:by|before|until|due|hard stop(?: on| at)?)\s+(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})|(\d{4})-(\d{2})-(\d{2}))", re.I)
# "end of November", "12月底前": the month's last day
_MONTH_END = re.compile(r"\bend of (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|(?<!\d)(\d{1,2})\s*月底", re.I)
_MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_MONTHS = {m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}


@dataclass
class TimeReading:
    hours: float | None = None  # a usage duration
    hours_per_day: float | None = None
    deadline_hours: float | None = None
    weekday: str | None = None
    date: str | None = None
    maybe_hours: float | None = None


_GPU_HOURS = re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:{GPU_PH}\s*(?:\d+\s?gb?\s*)?)?(?:gpu[- ]?hours?|gpu[- ]?hrs?|gpu[- ]?h\b|卡时|卡·时|卡小时|gpu\s*小时)"
                        rf"|(?<![A-Za-z0-9_.]){N}{MULT}\s*{GPU_PH}\s*(?:hours?|hrs?|小时)\b", re.I)
_DEADLINE_IS = re.compile(rf"(?:deadline|ddl|截止(?:时间)?|期限)\s*(?:is|of|:|：|=|是|为|只有|就|放宽到|延长到|改成|改为|extended to|moved to|relaxed to)?\s*(?:in\s+)?{N}\s*(days?|d\b|hours?|h\b|weeks?|天|小时|周)", re.I)
# "reproduce the paper's run", "what would renting that cost me?": the quoted run, reproduced or priced, becomes the
# user's own job, its duration the hours to price
_REPRODUCE = re.compile(r"reproduc\w*|replicat\w*|复现|重现|照着.{0,6}(?:跑|训)|\bcosts?\b|\bprice\b|how much|set me back|come to|"
                        r"\brent(?:ing)?\b|多少钱|费用|价格|花多少|租.{0,4}多少", re.I)
_ALWAYS_ON = re.compile(r"24\s*/\s*7|24x7|around the clock|全天候|24\s*小时不间断|一直开着|不关机|全天开", re.I)


def time_slots(t: str, training: bool) -> TimeReading:
    out = TimeReading()
    if m := _GPU_HOURS.search(t):
        raw, mult = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(5))
        v = _num(raw, mult)
        if v and v > 0:
            out.hours = v  # "500 L40S GPU-hours": hours to price, not a GPU count
    if m := _DEADLINE_IS.search(t):
        v = _num(m.group(1))
        unit = m.group(2).lower()
        if v:
            out.deadline_hours = v * (24.0 if unit.startswith(("d", "天")) else 168.0 if unit.startswith(("w", "周")) else 1.0)
    if _ALWAYS_ON.search(t):
        out.hours_per_day = 24.0
    m = _PER_DAY.search(t)
    per_day_span = None
    if m:
        v = _num(m.group(1) or m.group(2))
        if v and 0 < v <= 24:
            out.hours_per_day = v
            per_day_span = m.span()
    if m := _WEEKDAY_EN.search(t):
        out.weekday = WEEKDAYS[m.group(1).lower()]
    elif m := _WEEKDAY_ZH.search(t):
        out.weekday = ZH_WEEKDAYS[m.group(1)]
    if m := _DATE.search(t):
        if m.group(2):
            mm, dd = int(m.group(2)), int(m.group(3))
            if 1 <= mm <= 12 and 1 <= dd <= 31:
                out.date = (f"{m.group(1)}-" if m.group(1) else "") + f"{mm:02d}-{dd:02d}"
        elif m.group(4):
            out.date = f"{_MONTHS[m.group(4).lower()[:3]]:02d}-{int(m.group(5)):02d}"
        elif m.group(6):
            out.date = f"{m.group(6)}-{m.group(7)}-{m.group(8)}"
    if out.date is None and (m := _MONTH_END.search(t)):
        mm = _MONTHS[m.group(1).lower()[:3]] if m.group(1) else int(m.group(2))
        if 1 <= mm <= 12:
            out.date = f"{mm:02d}-{_MONTH_DAYS[mm - 1]:02d}"
    # "an hour" is one hour, except after money ("ten bucks an hour", "$2 an hour"): that is a rate
    text = _A_DURATION.sub(lambda mm: mm.group(0) if _MONEY_BEFORE.search(t[max(0, mm.start() - 14) : mm.start()])
                           else f"1 {mm.group(1)}", t)
    text = _HALF_DAY.sub("12小时", _FORTNIGHT.sub("2 weeks", text))
    for pattern, factor in _DURATION:
        for m in pattern.finditer(text):
            if per_day_span and per_day_span[0] <= m.start() < per_day_span[1]:
                continue
            v = _num(m.group(1))
            if v is None or v <= 0:
                continue
            hours = v * factor
            if factor == MONTH_FACTOR:
                continue  # "一个月" is a price period or an unstated length, not hours to price
            if factor == 24.0 and re.search(r"\d\s*月\s*$", text[max(0, m.start() - 4) : m.start()]):
                continue  # "1月10日前" is a date (read above), not ten days
            before = text[max(0, m.start() - 22) : m.start()]
            after = text[m.end() : m.end() + 10]
            if re.search(r"(?:每|\bper|/)\s*$", before) or re.match(r"^\s*(?:old|ago|前的|之前的)", after):
                continue
            if re.search(r"(?:每天|一天|每日|a day|per day)\s*$", before):
                continue
            if others_run(text, m.start()) and not _REPRODUCE.search(text):
                continue  # "the paper trained it for 2 days", "论文里训了5天": someone else's run, not hours to price
            if v == 1 and (_PERIOD_PRICED_AFTER.match(after) or _PERIOD_PRICED_BEFORE.search(before)) and not re.search(
                    r"(?:for|跑|用|租|rent|run|use)\s*(?:a|an|about|around|~|约|大概|上|了)?\s*$", before, re.I):
                continue  # "A800 一天多少钱", "价格是多少一小时": the price's period
            deadline = bool(_WITHIN.search(before) or _WITHIN_AFTER.match(after)) and (
                training or _DEADLINE_WORDS.search(text) or re.search(r"(?<![A-Za-z])tokens?\b|token", text, re.I)
                or (bool(_ZH_WITHIN.match(after)) and not _PRICED.search(text)))
            if deadline:
                out.deadline_hours = out.deadline_hours or hours
            elif re.search(r"(?:how long|多久|多长时间|几天|多少天)", text[m.start() - 30 : m.start()], re.I):
                continue
            elif out.hours is None and re.search(r"(?:for|over|跑|用|租|rent|run|use|训练?|train|开|持续|连续|usage|run it|need|needs|x|×|\*)\s*(?:a|an|about|around|~|约|大概|上|了|个|the next)?\s*$", before, re.I):
                # "3 x 8 hours" is 24 hours of use; "8 A100s x 100 hours" keeps 100 (the count is the GPUs')
                times = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:x|×|\*)\s*$", before, re.I)
                out.hours = hours * float(times.group(1)) if times else hours
            elif out.hours is None and re.match(r"^\s*(?:的)?\s*(?:usage|使用|时长|费用|多少钱|cost|price|rental|租用|租金)", after, re.I):
                out.hours = hours
            elif out.maybe_hours is None:
                out.maybe_hours = hours  # a bare duration: hours to price when the turn asks a cost
    return out


# ------------------------------------------------------------------ serving load

_CONCURRENCY = [
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:个\s*|路\s*)?(?:concurrent|simultaneous|parallel|并发|同时在线|在线并发)", re.I),
    re.compile(rf"(?:concurrency|concurrent (?:users|requests|sessions)|并发(?:数|量|用户|请求)?|同时在线(?:人数)?|同时(?:使用|访问|请求)(?:的)?(?:人数|用户)?|max_num_seqs|--max-concurrency)(?:\s*(?:of|=|:|：|为|是|is|约|大概|达到|在|要|上|有|~|能|只能|可以|已经|开到|加到|压到|提到|拉到|设到|设为|设成|调到|到)){{0,3}}\s*(?:约|大概|~)?\s*{N}{MULT}", re.I),
    # "单并发", "single-concurrency latency", "at concurrency 1": one request at a time
    re.compile(r"(?P<one>单并发|单路并发|\bsingle[- ]concurren(?:cy|t)\b)", re.I),
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:个)?\s*(?:users?|people|人|用户|个人)\s*(?:at (?:the same|once|a) time|at once|同时|concurrently|simultaneously|一起用|并发)", re.I),
    # "2 requests at the same time", "10 people chatting at once", "as soon as 2 requests are running", "10 线程并发"
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:requests?|reqs?|people|users?|clients?|sessions?|streams?|prompts?)\s*(?:[a-z]+ing\s+|are\s+|run\s+)?"
               rf"(?:at (?:the same time|once)|running|in flight|concurrently|simultaneously|in parallel)", re.I),
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:个)?\s*线程\s*(?:并发|同时)", re.I),
    # "同时调3个", "同时撑住三十个人聊天": 同时 and a verb of use before the count
    re.compile(rf"同时(?:调用?|跑|撑住|扛住|处理|服务|发|请求|在线|来)\s*{N}{MULT}\s*(?:个|路|位)", re.I),
    re.compile(rf"num_requests_running\s*[=:]?\s*{N}", re.I),
]
_USERS = [
    re.compile(rf"(?<![A-Za-z0-9_.$¥]){N}{MULT}\s*(?:个|位|名)?\s*(?:users?|people|employees|staff|colleagues|engineers|developers|students|customers|members|persons|同事|员工|人|用户|学生|客户|成员|开发者|研究员|名用户)(?![A-Za-z0-9_/])", re.I),
    re.compile(rf"(?:team|group|company|lab|class) of\s*{N}", re.I),
    re.compile(rf"(?:给|供|让)\s*{N}{MULT}\s*(?:个|位|名)?\s*(?:人|同事|用户|员工|学生)", re.I),
]
_RPD = [
    re.compile(rf"(?:每天|每日|日均|一天|daily|per day|a day|/day)\s*(?:大概|约|有|要|需要|处理|接|~|about|around)?\s*{N}{MULT}\s*(?:次|个|条|笔)?\s*(?:请求|调用|对话|问答|音频|图片|图像|张图|视频|query|queries|requests?|reqs?|calls?|conversations?|chats?|generations?|images?|transcriptions?)", re.I),
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:次|个|条|笔)?\s*(?:请求|调用|对话|问答|queries|requests?|reqs?|calls?|conversations?|chats?|inferences?|generations?|images?|transcriptions?)\s*(?:a|per|/|each|every)\s*day", re.I),
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:次|个|条)?\s*(?:请求|调用|requests?|reqs?|calls?)\s*/\s*(?:天|日|d\b)", re.I),
    re.compile(rf"(?:日调用量|日请求量|daily (?:requests|volume|traffic)|日活请求)\s*(?:是|为|约|大概|:|：|of)?\s*{N}{MULT}", re.I),
]
_RATE = [
    re.compile(rf"(?<![A-Za-z0-9_.]){N}{MULT}\s*(?:qps|rps|req(?:uest)?s?\s*/\s*s(?:ec)?\b|requests? (?:per|a|/) ?(?:second|sec|s)\b|次\s*/\s*秒|个请求每秒|请求/秒|次每秒)", re.I),
    # "峰值 40" after a concurrency word ("并发：峰值 40") is the concurrency's peak, not a rate
    re.compile(rf"(?:qps|rps|每秒(?:请求|调用)?(?:数|量)?|request[- _]rate|(?<!并发)(?<!并发：)(?<!并发:)(?<!并发 )峰值)\s*(?:of|=|:|：|为|是|约|大概|达到|在|~)?\s*{N}{MULT}(?!\s*(?:tok|token|个token))", re.I),
]
# a request throughput the run measured ("throughput: 5.99 requests/s", "gives me ~6 req/s", "sits at 1-2 req/s",
# "吞吐才 3 QPS") is no `request_rate`: only a configured or target rate is
_MEASURED_RATE = re.compile(r"(?:throughput|gives?(?: me)?|giving|gets?|getting|got|sits? at|tops out at|only|just|handles?|managed?|吞吐|实测|只有|才|只能)"
                            r"[^,.;!?，。；！？\n]{0,10}$", re.I)
_MONEY_NEAR = re.compile(r"\s*(?:美元|美金|元|块|刀|dollars?|bucks|usd|rmb|cny|cents?)", re.I)
_BOTH_LEN = rf"(?:输入输出|输入和输出|输入与输出|in(?:put)? and out(?:put)?)\s*(?:都|均|各|each|both)?\s*(?:是|为|约|大概|在|~|of|about|around)?\s*(?:约|大概|~)?\s*{N}\s*(k|K)?"
# "1677 output tok/s", "128输出吞吐": a measured rate, not a length (a length is tokens per request)
_NOT_A_RATE = r"(?!\s*(?:tok(?:en)?s?\s*/|tokens?\s+(?:per|a)\s+sec|t/s|tps\b|throughput|speed|吞吐|速度|速率))"
_IN_LEN = [
    re.compile(_BOTH_LEN, re.I),
    # "prompt length 2k", "--random-input-len 2048", "prompts are 16000 tokens", "prompt 均长 1500 token"
    re.compile(rf"(?:inputs?|prompts?|prefill|输入|提示词?|问题)\s*[-_]?(?:length|len|长度|均长|平均长度|大概|约|平均|avg)?\s*(?:of|=|:|：|为|是|are|is|~|约|大概|在|average)?\s*(?:约|大概|平均|~|about|around|roughly|average|avg)?\s*{N}\s*(k|K)?{_NOT_A_RATE}\s*(?:tokens?|toks?|个token|字)?", re.I),
    re.compile(rf"(?<![A-Za-z0-9_.]){N}\s*(k|K)?\s*-?\s*(?:tokens?\s*)?(?:in\b|input|prompt|输入){_NOT_A_RATE}", re.I),
]
_OUT_LEN = [
    re.compile(_BOTH_LEN, re.I),
    re.compile(rf"(?<!每秒)(?<!每秒才)(?<!每秒只)(?<!每秒钟)(?!completions?_length|generations\b)(?:(?<![A-Za-z])(?:outputs?|completions?|generat\w*|responses?|answers?)|输出|生成|回复|回答)\s*[-_]?(?:length|len|长度|均长|平均长度|大概|约|平均)?\s*(?:of|=|:|：|为|是|are|is|~|约|大概|在)?\s*(?:约|大概|平均|~|about|around|roughly|average|avg)?\s*{N}\s*(k|K)?{_NOT_A_RATE}\s*(?:tokens?|toks?|个token|字)?", re.I),
    # "输入2k输出512": the figure right after an input word is the input's, whatever word follows it
    re.compile(rf"(?<!输入)(?<!输入约)(?<!输入为)(?<!输入是)(?<!提示词)(?<!input )(?<!prompt )(?<!prompts )(?<![A-Za-z0-9_.]){N}\s*(k|K)?\s*-?\s*(?:tokens?\s*)?(?:out\b|output|输出|生成){_NOT_A_RATE}", re.I),
    re.compile(rf"(?<![A-Za-z0-9_.]){N}\s*(k|K)?\s*-?\s*tokens?\s+(?:answers?|responses?|completions?|replies)", re.I),
]
_TTFT_WORD = (r"(?:ttft|time[- ]to[- ]first[- ]token|first[- ]token(?: latency| time)?|首字(?:延迟|时延|时间|响应)?|首\s*token(?:\s*(?:延迟|时延|时间))?"
              r"|首包(?:延迟)?|第(?:一|1)个(?:字|token)|latency|延迟|响应时间)")
_TTFT_UNIT = r"(ms|毫秒|s\b|secs?|seconds?|秒)"
# a latency with its number: the word, an optional percentile, a bound word or an approximation, the number, its unit
_TTFT = re.compile(
    # a modal before the bound ("TTFT has to stay under 500 ms", "首字延迟要控制在500ms以内", "能压到200ms以内"): a target
    rf"{_TTFT_WORD}\s*(?:\(?p\d{{2}}\)?\s*)?(?P<modal>(?:(?:has|have|needs?|ought) to|must|should|(?:to )?stay|be|remain|kept|要|得|需要|必须|应该|最好|能不能|能否|可不可以|能|可以|都)\s*){{0,3}}(?P<bound>under|below|<=?|≤|within|at most|no more than|小于|低于|不超过|不高于|控制在|压在|压到|降到|做到)?"
    rf"\s*(?P<approx>(?:(?:of|at|is|was|are|in|came back at|target|goal|sla|目标|=|:|：|在|要|需要|希望|要求|最好|能|就|差不多|大概|约|~|about|around|roughly)\s*){{1,2}})?\s*"
    rf"{N}\s*{_TTFT_UNIT}(?P<post>\s*(?:内|以内|之内))?",
    re.I,
)
_TTFT_POST = re.compile(rf"{N}\s*{_TTFT_UNIT}\s*(?P<post>内|以内)?\s*(?:ttft|time to first token|first[- ]token|首字|首token|出首字)", re.I)
# "our target is under 1 second" once a latency word was used: the target restated without the word
_TTFT_TARGET = re.compile(rf"(?:target|goal|want|need|keep it|get it|目标|要求|想|希望|需要)[^,.;!?，。；！？\n]{{0,12}}?(?:under|below|<|within|小于|低于|不超过|控制在|压在|压到|降到)\s*{N}\s*{_TTFT_UNIT}", re.I)
_TTFT_NAMED = re.compile(_TTFT_WORD, re.I)
_APPROX = re.compile(r"差不多|大概|约|~|about|around|roughly|came back at|\bis\b|\bwas\b|\bare\b|\bat\b", re.I)
# what makes a latency a target, and what makes it a measurement (the README: a measured TTFT is no `ttft_ms`)
_TTFT_WANTED = re.compile(r"(?:target|goal|want|need|keep|get (?:it |p\d\d )?|aim|required?|sla|must|should|目标|希望|要求|保证|想|需要|要|最好|必须|控制|压)[^,.;!?，。；！？\n]{0,20}$", re.I)
_TTFT_MEASURED = re.compile(r"(?:measured|mean|median|avg|average|p50|p9\d|came back|is ~|already|now|currently|takes|took|got|getting|gives|seeing|\bsee\b|\bsees\b|observed?|hitting|实测|现在|目前|测出来|测下来|已经|平均)[^,.;!?，。；！？\n]{0,20}$", re.I)
_TPS_USER = re.compile(
    rf"(?<![A-Za-z0-9_.]){N}\+?\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|tokens? (?:per|a|/) ?(?:second|sec|s)\b|t/s|tps|(?:个\s*)?tokens?\s*/\s*秒|(?:个\s*)?tokens?\s*每秒|字/秒|字每秒)"
    rf"(?P<tail>\s*(?:per user|each user|/user|per stream|per request|for each user|each\b|per person|apiece|每个?用户|每人|每路))?"
    # "每人每秒至少20个token": the rate written before the number
    rf"|每秒\s*(?:至少|不低于|不少于|起码|要|能有)?\s*{N}\s*(?:个\s*)?(?:tokens?|字)",
    re.I,
)
_TPS_USER_CUE = re.compile(r"(?:per user|each user|every user|each person|every person|per person|each stream|every stream|per stream|"
                           r"每个?用户|每人|每个人|每路|单用户|单个用户|at least|minimum|min\.?|above|至少|不低于|不少于|起码|>=|≥)", re.I)


@dataclass
class LoadReading:
    concurrency: int | None = None
    users: int | None = None
    requests_per_day: float | None = None
    request_rate: float | None = None
    input_len: int | None = None
    output_len: int | None = None
    ttft_ms: float | None = None
    tokens_per_s_per_user: float | None = None


def _first(patterns: list[re.Pattern], t: str, *, context_k: bool = False) -> float | None:
    for p in patterns:
        for m in p.finditer(t):
            if _per_million_unit(t, m.start()):
                continue
            if "one" in p.groupindex:
                return 1.0  # a pattern naming "one" in words ("单并发")
            v = _num(m.group(1), m.group(2) if p.groups >= 2 else None, context_k=context_k)
            if v is not None and v > 0:
                return v
    return None


def _per_million_unit(t: str, start: int) -> bool:
    """The number at `start` is the "1M" of a price unit ("$0.5 per 1M tokens", "/百万 token"), not a quantity.

    A slash or "per" alone does not make one: "2k in / 300 out" is two lengths, "1M requests a day" a load.
    """
    at = t[start : start + 14]
    # the reader has turned number words into digits by now: "per million output tokens" reads "per 1000000 output tokens"
    million = re.match(r"\s*(?:1\s*)?(?:m\b|million|百万|1,?000,?000\b)", at, re.I)
    if not million:
        return False
    return bool(_PER_MILLION.search(t[max(0, start - 6) : start])) or bool(re.match(r"\s*(?:1\s*)?(?:m|million|百万|1,?000,?000)\s*(?:output |input )?(?:tok|token|个\s*token)", at, re.I))


def load(t: str) -> LoadReading:
    out = LoadReading()
    out.concurrency = _int(_first(_CONCURRENCY, t))
    users = _int(_first(_USERS, t))
    if users and users != out.concurrency:
        out.users = users
    out.requests_per_day = _first(_RPD, t)
    out.request_rate = _request_rate(t)
    out.input_len = _int(_first(_IN_LEN, t, context_k=True))
    out.output_len = _int(_first(_OUT_LEN, t, context_k=True))
    out.ttft_ms = _ttft(t)
    for m in _TPS_USER.finditer(t):
        before = t[max(0, m.start() - 28) : m.start()]
        if m.group("tail") or _TPS_USER_CUE.search(before):
            out.tokens_per_s_per_user = _num(m.group(1) or m.group(3))
            break
    return out


def _request_rate(t: str) -> float | None:
    """The configured or target request rate: measured throughputs are skipped, and two different rates left
    ("5 QPS 的时候 … 想撑到 20 QPS": the rate measured at and the one wanted) give none."""
    seen: list[float] = []
    for p in _RATE:
        for m in p.finditer(t):
            if _per_million_unit(t, m.start()) or _MEASURED_RATE.search(t[max(0, m.start() - 24) : m.start()]):
                continue
            if _MONEY_NEAR.match(t, m.end(1)) or t[max(0, m.start(1) - 1) : m.start(1)] in ("$", "¥", "￥"):
                continue  # "每秒 0.001 美元": a price per second, not a request rate
            v = _num(m.group(1), m.group(2))
            if v is not None and v > 0 and not any(abs(v - s) < 1e-9 for s in seen):
                seen.append(v)
    return seen[0] if len(seen) == 1 else None


def _value_unit(m: re.Match) -> tuple[str, str]:
    """The number and its unit: the match's first two unnamed groups."""
    named = set(m.re.groupindex.values())
    value, unit = [m.group(i) for i in range(1, m.re.groups + 1) if i not in named][:2]
    return value, unit


def _ttft(t: str) -> float | None:
    """A first-token latency target: one with a bound or a wish wins; one the run measured is none."""
    found: list[tuple[float, bool, bool]] = []  # (ms, wanted, measured)
    for pattern in (_TTFT, _TTFT_POST):
        for m in pattern.finditer(t):
            raw, unit = _value_unit(m)
            v = _num(raw)
            if not v:
                continue
            ms = v if unit.lower() in ("ms", "毫秒") else v * 1000
            before = t[max(0, m.start() - 28) : m.start()]
            bound = bool(m.groupdict().get("bound") or m.groupdict().get("post")) or bool(m.groupdict().get("modal") and m.groupdict().get("bound"))
            wanted = bound or bool(_TTFT_WANTED.search(before))
            measured = not bound and (bool(_TTFT_MEASURED.search(before)) or bool(_APPROX.search(m.groupdict().get("approx") or "")))
            found.append((ms, wanted, measured))
    for ms, wanted, _ in found:
        if wanted:
            return ms
    if _TTFT_NAMED.search(t) and (m := _TTFT_TARGET.search(t)):
        raw, unit = _value_unit(m)
        v = _num(raw)
        if v:
            return v if unit.lower() in ("ms", "毫秒") else v * 1000
    for ms, _, measured in found:
        if not measured:
            return ms
    return None


# ------------------------------------------------------------------ model size

_PARAMS = re.compile(
    rf"(?<![A-Za-z0-9_.\-]){N}\s*(b|B|billion|m|M|million|亿|十亿|百亿|千亿|万亿)(?:\s*的\s*|\s*-?\s*)(?:参数量?|param(?:eter)?s?|模型|model|大模型|llm|dense|moe)?"
    # "72B-4bit", "70B-AWQ": a size followed by its precision is still the size
    rf"(?![A-Za-z0-9_]|-(?!(?:\d+[- ]?bit|int[48]|fp(?:8|16)|bf16|awq|gptq)(?![A-Za-z0-9]))|\s*(?:tokens?|toks?|token))",
    re.I,
)


def params(t: str) -> float | None:
    for m in _PARAMS.finditer(t):
        unit = m.group(2)
        after = t[m.end() : m.end() + 10]
        if re.match(r"^\s*(?:tokens?|toks?|个\s*token|token数|条|samples?|样本|examples?|次|requests?|词)", after, re.I):
            continue
        before = t[max(0, m.start() - 3) : m.start()]
        if re.search(r"[$¥￥]\s*$", before):
            continue
        mult = {"billion": "B", "million": "M"}.get(unit.lower(), unit)
        v = _num(m.group(1), mult)
        if unit in ("m", "M", "million") and not re.search(r"param|参数|model|模型", m.group(0) + after, re.I):
            continue  # "500M" alone is too often something else
        if unit in ("亿", "十亿", "百亿", "千亿", "万亿") and not re.search(r"参数|模型|param|model|的", m.group(0) + after, re.I):
            continue
        if v is not None and 1e6 <= v <= 1e14:
            return v
    return None
