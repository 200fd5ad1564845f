"""Find the quantities a text claims: numbers with a unit, in English and Chinese.

`extract_quantities("8× A100 需要约 1.5万元/月")` returns `8 GPU` and `15000 CNY (per month)`.
The verifier (every number in an answer must be backed) and the evaluation
scorer (`numbers` check) both read answers through this one function, so the
two can never disagree about what a number in an answer means.

What counts as a quantity: a number with a unit we understand (memory, time,
money, GPU and node counts, TFLOPS, bandwidth, %, W, tokens, parameters).
Values are converted to a canonical unit (time to hours, multipliers applied:
"1.5万" = 15000, "13B" = 13e9 params); memory keeps the unit written (GB and
GiB differ by 7 %; the verifier decides how loosely to compare them).

What does not: digits inside names (LLaMA-13B, A100-80GB, "A100 80GB",
p4d.24xlarge, Mixtral 8x7B, Ascend 910B, CUDA 12.1 is a bare number), dates and
years, citation markers [1], list numbering, and bare numbers with no unit
(those are returned only with `include_bare=True`, unit "").
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, replace
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Quantity",
    "Reading",
    "UNIT_DIMENSION",
    "conversion_factors",
    "extract_quantities",
    "is_name_token",
    "parse_unit",
    "read_quantities",
]


class Quantity(BaseModel):
    """One quantity as written in a text; `text == source[start:end]`."""

    model_config = ConfigDict(frozen=True)

    value: float = Field(description="in `unit`, multipliers applied: '1.5万元' -> 15000")
    unit: str = Field(description="canonical unit (see UNIT_DIMENSION); '' for a bare number")
    raw_value: float = Field(description="the number as written: 1.5 for '1.5万元', 3.2 for '3.2 days'")
    raw_unit: str = Field(description="the unit markers as written: '万元/月', '¥k', 'days', 'x H100'")
    text: str
    start: int
    end: int
    step: float = Field(description="size of the last digit shown, in `unit`: the rounding the writer did")
    scale: float = Field(description="value = raw_value * scale")
    per: str | None = Field(default=None, description="money rates: hour | day | week | month | year")
    approx: bool = Field(default=False, description="marked as approximate: ~, ≈, 约, about, 左右 ...")

    @property
    def dimension(self) -> str:
        return UNIT_DIMENSION.get(self.unit, "")


# canonical unit -> dimension. Memory keeps its written unit; time is always hours.
UNIT_DIMENSION: dict[str, str] = {
    "GB": "memory", "GiB": "memory", "MB": "memory", "MiB": "memory", "TB": "memory", "TiB": "memory",
    "hour": "time",
    "CNY": "money", "USD": "money",
    "GPU": "gpus", "node": "nodes", "GPU-hour": "gpu_time",
    "TFLOPS": "compute", "TOPS": "int_compute",
    "TB/s": "bandwidth", "GB/s": "bandwidth", "Gb/s": "bandwidth",
    "%": "ratio", "W": "power",
    "token": "tokens", "token/s": "throughput", "param": "params",
}

# Bytes per unit, exactly and as people loosely use them (a "GiB" figure called "GB").
_BYTES = {"GB": 1e9, "GiB": 2.0**30, "MB": 1e6, "MiB": 2.0**20, "TB": 1e12, "TiB": 2.0**40}
_BYTES_LOOSE = {"GB": 1e9, "GiB": 1e9, "MB": 1e6, "MiB": 1e6, "TB": 1e12, "TiB": 1e12}
# Bandwidth in bytes/s; "Gb/s" (bits) is also loosely confused with GB/s.
_BPS = {"TB/s": 1e12, "GB/s": 1e9, "Gb/s": 1.25e8}
_BPS_LOOSE = {"TB/s": 1e12, "GB/s": 1e9, "Gb/s": 1e9}


@lru_cache(maxsize=512)
def conversion_factors(src: str, dst: str) -> tuple[tuple[float, bool], ...]:
    """Factors f with `value_in_src * f = value_in_dst`, each flagged loose or exact.

    Memory: the exact factor (1 GiB = 1.073741824 GB) and the loose one (same figure,
    since people write GB for GiB). Bandwidth likewise (Gb/s is bits: exact 1/8, loose 1).
    Time is canonical hours already. Money is never converted (CNY vs USD needs a rate
    and a date: the caller does that). Incompatible units give ().
    """
    if src == dst:
        return ((1.0, False),)
    for exact, loose in ((_BYTES, _BYTES_LOOSE), (_BPS, _BPS_LOOSE)):
        if src in exact and dst in exact:
            f_exact = exact[src] / exact[dst]
            f_loose = loose[src] / loose[dst]
            if abs(f_exact - f_loose) < 1e-12 * f_exact:
                return ((f_exact, False),)
            return ((f_exact, False), (f_loose, True))
    return ()


# ------------------------------------------------------------------ patterns

# Full-width ASCII (ＧＢ, ８０, ％, ～) -> ASCII, one char for one char so offsets stay valid.
# The full-width comma stays: in Chinese it separates list items, not thousands.
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F) if c != 0xFF0C}
_FULLWIDTH[0x3000] = 0x20

_SP = r"[ \t\u00a0\u202f\u2009]"

# GPU model tokens. Used to (1) count GPUs ("8x H100", "两张 A100", "A100 x 8"), (2) mark
# digits inside GPU names as names ("RTX 4090", "H100"), (3) treat memory written right after
# a GPU name as part of the name ("A100 80GB").
_GPU = (
    r"(?:(?:NVIDIA|Nvidia|nvidia|AMD|Huawei|华为)[ \t]*)?"
    r"(?:(?:GeForce[ \t-]*|Quadro[ \t-]*)?RTX[ \t-]*(?:PRO[ \t-]*)?A?\d{4}(?:[ \t-]*(?:Ti|SUPER|Super|Ada|D)(?![A-Za-z]))*"
    r"|Quadro[ \t-]*[A-Z]?\d{4}"
    r"|(?:Tesla[ \t-]*)?(?:G[BH]\d{3}|[ABHLTVPKMabhltvpkm]\d{2,3}[A-Za-z]?|[TLP]4|A2)"
    r"|MI\d{2,3}[A-Z]?"
    r"|(?:Ascend|昇腾)[ \t-]*910[ABC]?|910[ABC]"
    r"|Gaudi[ \t]*\d|TPU[ \t]*v\d[a-z]*)"
    r"(?:[ \t-](?:SXM\d?|PCIe|NVL)(?![A-Za-z]))?"
)
_GPU_RE = re.compile(rf"(?<![A-Za-z0-9_]){_GPU}(?![A-Za-z0-9])")

# Model families: "Llama 2 13B", "Qwen2.5 7B" - the B-suffixed number names the model.
_FAMILY_RE = re.compile(
    r"(?i)(?:(?:code)?llama|qwen|qwq|chatglm|glm|mistral|mixtral|yi|baichuan|deepseek|gemma|phi|falcon|bloomz?"
    r"|opt|gpt|internlm|vicuna|bert|roberta|t5|flan|whisper|vit|clip|starcoder|pythia|mpt|olmo|minicpm"
    r"|ernie|moss|aquila|skywork|dbrx|grok|jamba|nemotron|kimi|granite|llava|sdxl|stablelm|command"
    r")(?=$|[-_.\dvV])"
)
_VERSION_RE = re.compile(r"[vV]?\d+(?:\.\d+)*[a-z]?")

# Numbers. No lookbehind here (it would stop the regex engine from skipping ahead to digits):
# "not inside another number" is checked in _scan.
_NUM_RE = re.compile(
    rf"(?P<ar>(?:\d{{1,3}}(?:,\d{{3}})+(?!\d)|\d{{1,3}}(?:{_SP}\d{{3}})+(?![\d,])|\d+)(?:\.\d+)?"
    r"(?:[eE][+-]?\d{1,3}(?![A-Za-z0-9]))?)"
    r"|(?P<cn>[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*)"
)

# Never quantities, checked where a number starts (anchored matches are cheap).
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
_DATE_AT_RE = re.compile(
    r"(?:19|20)\d{2}(?:[-/.](?:0?[1-9]|1[0-2])(?:[-/.](?:0?[1-9]|[12]\d|3[01]))?(?![\d.]\d)"  # 2026-07-20
    r"|[ \t]*年(?:[ \t]*\d{1,2}[ \t]*月(?:[ \t]*\d{1,2}[ \t]*[日号])?)?)"  # 2026年7月20日
    r"|\d{1,2}[ \t]*月[ \t]*\d{1,2}[ \t]*[日号]"  # 7月20日
    rf"|\d{{1,2}}(?:st|nd|rd|th)?[ \t]+{_MONTH},?[ \t]+(?:19|20)\d{{2}}"  # 20 July 2026
)
_MONTH_BEFORE_RE = re.compile(rf"(?:{_MONTH}|Q[1-4])[ \t]+(?:\d{{1,2}}(?:st|nd|rd|th)?,?[ \t]+)?$")  # July 20, 2026
_NXM_AT_RE = re.compile(r"\d+[x×]\d+(?:\.\d+)?[BbMm](?![A-Za-z0-9])")  # Mixtral 8x7B
_CHIP_AT_RE = re.compile(r"(?:910[ABC]|310P)(?![A-Za-z0-9])")  # Ascend 910B is a chip, not 910e9 params
_CITATION_AT_RE = re.compile(r"\^?\d{1,3}(?:[ \t]*[,，\-–][ \t]*\d{1,3})*[\]】]")  # [1], [1, 2], 【1】, [^1]
_LIST_PREFIX_RE = re.compile(r"[ \t]*(?:[-*+>][ \t]+)?[(（]?")  # "1. ", "- 2) ", "(3) "
_LIST_SUFFIX_RE = re.compile(r"[.)、）](?=[ \t])")
_HEADING_PREFIX_RE = re.compile(r"[ \t]*#{1,6}[ \t]+")  # "## 3 Cost", "### 2.1 Memory"
_HEADING_SUFFIX_RE = re.compile(r"(?:\.\d+)*\.?(?=[ \t])")
_GPU_WORDS = frozenset({"RTX", "PRO", "Gaudi", "Quadro", "Ascend", "昇腾", "TPU", "GeForce"})  # RTX 4090, Gaudi 2
_GPU_BEFORE_RE = re.compile(rf"(?<![A-Za-z0-9_]){_GPU}[ \t-]*$")
# "A100 x 8", "H100×8": a count after the GPU name.
_GPU_TIMES_BEFORE_RE = re.compile(rf"(?<![A-Za-z0-9_.-]){_GPU}[ \t]*[x×*][ \t]*$")
_GPU_TIMES_AFTER_RE = re.compile(r"(?!\.\d|[A-Za-z])(?![ \t]*(?:nodes?|台|个节点|节点|instances?))")
_NEEDS_FULLWIDTH_RE = re.compile("[\uff01-\uff5e\u3000]")
_NEVER_UNIT_START = frozenset(",.;:!?()[]{}|/\\<>=+\"'\n\r，。；：！？（）【】、“”‘’《》·…—–~^&#@0123456789")

_CURRENCY_BEFORE_RE = re.compile(r"(?:US\$|\$|¥|￥|USD|CNY|RMB|人民币)[ \t]?$")
_CURRENCY_OF = {"US$": "USD", "$": "USD", "¥": "CNY", "￥": "CNY", "USD": "USD", "CNY": "CNY", "RMB": "CNY", "人民币": "CNY"}

_APPROX_BEFORE_RE = re.compile(
    r"(?:~|∼|≈|约|大约|大概|将近|近|around|about|roughly|approximately|approx\.?|nearly|circa|ca\.)"
    r"[ \t]*(?:\*\*)?[ \t]*(?:US\$|\$|¥|￥|USD|CNY|RMB)?[ \t]*$"
)
_APPROX_AFTER_RE = re.compile(r"[ \t]*(?:\*\*)?[ \t]*左右")

_MULT_CN = {"万亿": 1e12, "千亿": 1e11, "百亿": 1e10, "十亿": 1e9, "千万": 1e7, "百万": 1e6, "十万": 1e5,
            "万": 1e4, "亿": 1e8, "千": 1e3}
_MULT_WORD = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_MULT_LETTER = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12, "bn": 1e9, "mn": 1e6, "w": 1e4, "W": 1e4}
_MULT_BODY = (
    r"[ \t]?(?P<cn>万亿|千亿|百亿|十亿|千万|百万|十万|万|亿|千)"
    r"|[ \t]?(?P<word>thousand|million|billion|trillion)(?![A-Za-z])"
    r"|(?P<let>bn|mn|[kKMBT])(?![A-Za-z0-9])"
)
_MULT_RE = re.compile(_MULT_BODY)
# After a currency sign, "w"/"W" is 万 (¥2w = 20000), not watts.
_MONEY_MULT_RE = re.compile(_MULT_BODY + r"|(?P<w>[wW])(?![A-Za-z])")

_BARE_GPU_UNIT = rf"(?:张|块|片)?[ \t]*{_GPU}(?![A-Za-z0-9])"  # "8 A100", "两张 A100": checked for years

# Units, longest first: throughput before tokens, GPU-hours before GPUs, bandwidth before memory.
_UNITS: list[tuple[str, str, float]] = [
    (r"tokens?[ \t]*/[ \t]*s(?:ec)?(?![A-Za-z])|tok/s|tokens?[ \t]+per[ \t]+second", "token/s", 1),
    (r"GPU[- ·]?(?:hours?|hrs?|h)(?![A-Za-z0-9])|卡时|卡·时|GPU[ \t]?时|机时", "GPU-hour", 1),
    (r"TB/s|TBps|TB/秒", "TB/s", 1),
    (r"GB/s|GBps|GB/秒", "GB/s", 1),
    (r"Gb/s|Gbps|Gbit/s|Gb/秒", "Gb/s", 1),
    (r"PFLOPS|PFLOP/s|PFLOPs|PFlops", "TFLOPS", 1000),
    (r"TFLOPS|TFLOP/s|TFLOPs|TFlops|tflops", "TFLOPS", 1),
    (r"TOPS(?![A-Za-z])", "TOPS", 1),
    (r"[Gg]i[Bb](?![A-Za-z])", "GiB", 1),
    (r"[Mm]i[Bb](?![A-Za-z])", "MiB", 1),
    (r"[Tt]i[Bb](?![A-Za-z])", "TiB", 1),
    (r"(?:GB|gb|Gb|gigabytes?)(?![A-Za-z])", "GB", 1),
    (r"(?:MB|megabytes?)(?![A-Za-z])", "MB", 1),
    (r"(?:TB|terabytes?)(?![A-Za-z])", "TB", 1),
    (r"G(?=[ \t]*的?[ \t]*(?:显存|内存|VRAM|vram|HBM|memory|RAM))", "GB", 1),
    (r"G(?![A-Za-z0-9/])", "G?", 1),  # GB only when memory is named just before ("显存 80G"), see below
    (r"kW(?![A-Za-z])", "W", 1000),
    (r"W(?![A-Za-z0-9])|[Ww]atts?(?![A-Za-z])|瓦", "W", 1),
    (r"(?:张|块|片|个)?[ \t]*(?:GPUs?|gpus?|显卡|计算卡|加速卡|卡(?![顿住死片]))(?![A-Za-z])|cards?(?![A-Za-z])", "GPU", 1),
    (rf"[x×*][ \t]*{_GPU}(?![A-Za-z0-9])", "GPU", 1),
    (_BARE_GPU_UNIT, "GPU", 1),
    (r"nodes?(?![A-Za-z])|个节点|节点|台(?:机器|服务器|实例)?|machines?(?![A-Za-z])|servers?(?![A-Za-z])", "node", 1),
    (r"个小时|小时|钟头|hours?(?![A-Za-z])|hrs?(?![A-Za-z])|h(?![A-Za-z0-9])", "hour", 1),
    (r"days?(?![A-Za-z])|天", "hour", 24),
    (r"weeks?(?![A-Za-z])|个星期|星期|个礼拜|周", "hour", 168),
    (r"个月|months?(?![A-Za-z])", "hour", 730),  # 8760 h / 12, the cloud convention (tools.domain)
    (r"分钟|minutes?(?![A-Za-z])|mins?(?![A-Za-z])", "hour", 1 / 60),
    (r"秒钟?|seconds?(?![A-Za-z])|secs?(?![A-Za-z])", "hour", 1 / 3600),
    (r"年|years?(?![A-Za-z])|yrs?(?![A-Za-z])", "hour", 8760),
    (r"元|块钱|块|人民币|RMB|CNY|rmb|yuan(?![A-Za-z])", "CNY", 1),
    (r"美元|美金|USD|usd|US[ \t]?dollars?(?![A-Za-z])|dollars?(?![A-Za-z])", "USD", 1),
    (r"%|percent(?![A-Za-z])|个百分点", "%", 1),
    (r"tokens?(?![A-Za-z])|词元|tok(?![A-Za-z])", "token", 1),
    (r"parameters?(?![A-Za-z])|params?(?![A-Za-z])|参数量?|个参数", "param", 1),
]
_UNIT_SEP = rf"(?:\*\*?|`)?{_SP}*-?[ \t]*"
_UNIT_RE = re.compile(_UNIT_SEP + "(?:" + "|".join(f"(?P<u{i}>{p})" for i, (p, _, _) in enumerate(_UNITS)) + ")")
_UNIT_OF_GROUP = {f"u{i}": (u, f) for i, (_, u, f) in enumerate(_UNITS)}
_BARE_GPU_GROUP = f"u{[p for p, _, _ in _UNITS].index(_BARE_GPU_UNIT)}"

_PER_RE = re.compile(
    r"[ \t]*(?:/|每|per[ \t]+|an?[ \t]+|一)[ \t]*(?:(?:GPU|gpu|卡)[ \t]*[-/·]?[ \t]*)?"
    r"(?P<p>个小时|小时|hours?|hrs?|h|个月|月|months?|mo|年|years?|yr|天|days?|周|weeks?)(?![A-Za-z])"
)
_PER_OF = {"个小时": "hour", "小时": "hour", "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
           "h": "hour", "个月": "month", "月": "month", "month": "month", "months": "month", "mo": "month",
           "年": "year", "year": "year", "years": "year", "yr": "year", "天": "day", "day": "day",
           "days": "day", "周": "week", "week": "week", "weeks": "week"}

_MEMORY_BEFORE_RE = re.compile(r"(?:显存|内存|VRAM|vram|memory|Memory|RAM|HBM)[^\n]{0,6}$")
_RANGE_SEP_RE = re.compile(r"[ \t]*(?:-|–|—|~|～|to|到|至)[ \t]*")
_TABLE_SEP_RE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$")

_WORD_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
_NAME_HEAD = frozenset(string.ascii_letters)
_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_NOT_NUMBER_AFTER = frozenset("第同每某任唯统逐")  # 第一 (first), 同一 (same), 每一 (every) ...


# ------------------------------------------------------------------ number reading


def _arabic(raw: str) -> tuple[float, float]:
    """Value and the size of its last shown digit.

    An integer ending in zeros is read as rounded to two significant figures
    ("20000" -> step 1000, "100" -> 10, "80" -> 1), the way people round money and memory.
    """
    clean = raw.replace(",", "")
    if not clean.isdigit():
        clean = re.sub(r"[\s\u00a0\u202f\u2009]", "", clean)
    mant, _, exp = clean.lower().partition("e")
    if "." in mant:
        step = 10.0 ** -len(mant.split(".", 1)[1])
    else:
        digits = mant.lstrip("0") or "0"
        zeros = len(digits) - len(digits.rstrip("0"))
        step = 10.0 ** min(zeros, max(len(digits) - 2, 0))
    if exp:
        step *= 10.0 ** int(exp)
    return float(clean), step


def _chinese(raw: str) -> tuple[float, float] | None:
    """两万 -> 20000, 一万五 -> 15000 (colloquial), 一百三十亿 -> 1.3e10, 二〇二六 -> 2026.

    Returns the value and the place of its last nonzero digit (一百三十亿: 1e9).
    """
    if len(raw) > 1 and all(ch in _CN_DIGIT for ch in raw):  # digit by digit: 二〇二六
        return float("".join(str(_CN_DIGIT[ch]) for ch in raw)), 1.0
    total, section, digit, last_unit = 0, 0, None, 1
    sec_step, step = 1, 1  # place of the last nonzero digit in the current section / overall
    for ch in raw:
        if ch in _CN_DIGIT:
            digit = _CN_DIGIT[ch]
        elif ch in _CN_SMALL:
            unit = _CN_SMALL[ch]
            section += (1 if digit is None else digit) * unit
            sec_step = unit if digit != 0 else sec_step
            digit, last_unit = None, unit
        elif ch in "万亿":
            big = 10_000 if ch == "万" else 100_000_000
            if digit:
                section, sec_step = section + digit, 1
            if section:
                step = sec_step * big
            total = total + section * big if ch == "万" else (total + section) * big
            section, digit, sec_step, last_unit = 0, None, 1, big
    if digit is not None and digit:
        if len(raw) > 1 and raw[-2] in "百千万亿" and last_unit > 10:
            section += digit * last_unit // 10  # 一万五 = 15000, 三百五 = 350
            step = last_unit // 10
        else:
            section, step = section + digit, 1
    elif section:
        step = sec_step
    value = total + section
    if 0 < value < 10_000:  # 三十 like 30: two significant figures, as for Arabic digits
        step = min(step, 10 ** max(len(str(value)) - 2, 0))
    return (float(value), float(step)) if value or raw[0] in "零〇" else None


# ------------------------------------------------------------------ names


def is_name_token(token: str) -> bool:
    """True when a word is a name whose digits are not quantities.

    Names: a word with a letter before a digit (LLaMA-13B, Qwen2.5-7B, p4d.24xlarge,
    ecs.gn7i-c8g1.2xlarge, Standard_ND96asr_v4, GN7.5XLARGE80, a2-highgpu-1g, v5, fp16),
    a GPU model (H100, T4, RTX 4090, A100-80GB), NxMB MoE names (8x7B), Ascend 910B.
    Not names: "80GB", "13B", "1e12", "20-30GB", "$3.50".
    """
    token = token.strip()
    if not token:
        return False
    if _GPU_RE.fullmatch(token) or _NXM_AT_RE.fullmatch(token) or _CHIP_AT_RE.fullmatch(token):
        return True
    if re.fullmatch(r"\d+(?:\.\d+)?[eE][+-]?\d+", token):
        return False
    seen_letter = False
    for ch in token:
        if ch in _NAME_HEAD:
            seen_letter = True
        elif ch.isdigit() and seen_letter:
            return True
        elif ch not in _WORD_CHARS:
            seen_letter = False
    return False


def _letter_before(t: str, s: int) -> bool:
    """The word holding the number at s has a letter before it: LLaMA-13B, p4d.24xlarge."""
    j = s - 1
    while j >= 0 and t[j] in _WORD_CHARS:
        if t[j] in _NAME_HEAD:
            return True
        j -= 1
    return False


def _model_before(t: str, s: int) -> bool:
    """'Llama 2 13B', 'Qwen2.5 7B', 'LLaMA 13B': a family word (and versions) right before."""
    j = s
    for _ in range(3):
        k = j
        while k > 0 and t[k - 1] in " \t":
            k -= 1
        if k == j:
            return False
        end = k
        while k > 0 and t[k - 1] in _WORD_CHARS:
            k -= 1
        word = t[k:end]
        if not word:
            return False
        if _FAMILY_RE.match(word):
            return True
        if not _VERSION_RE.fullmatch(word):
            return False
        j = k
    return False


def _char_before(t: str, s: int) -> str:
    """The first character before s that is not a space or tab ('' at the start)."""
    k = s
    while k > 0 and t[k - 1] in " \t":
        k -= 1
    return t[k - 1] if k else ""


def _word_before(t: str, s: int, skip: str = " \t-") -> str:
    """The run of letters and digits that ends just before s, after skipping `skip` characters."""
    k = s
    while k > 0 and t[k - 1] in skip:
        k -= 1
    j = k
    while j > 0 and (t[j - 1].isalnum()):
        j -= 1
    return t[j:k]


_GPU_NAME_TAILS = frozenset({"SXM", "SXM4", "SXM5", "PCIe", "NVL", "Ti", "SUPER", "Super", "Ada", "D"})


def _after_gpu(t: str, s: int) -> bool:
    """Memory written right after a GPU name is part of the name: 'A100 80GB', 'RTX 4090 24G'."""
    word = _word_before(t, s)
    if not word or not (word in _GPU_NAME_TAILS or any(ch.isdigit() for ch in word)):
        return False  # "needs 80GB": a GPU name ends in a digit or a form-factor word
    return _GPU_BEFORE_RE.search(t, max(0, s - 40), s) is not None


def _excluded_at(t: str, s: int, e: int) -> int:
    """End of a non-quantity (date, citation, list number, 8x7B, 910B) starting at the number t[s:e], or 0."""
    c = t[s]
    if c in "12":
        m = _DATE_AT_RE.match(t, s)
        if m:
            return m.end()
    if e < len(t) and t[e] in "月 \t":
        m = _DATE_AT_RE.match(t, s)
        if m:
            return m.end()
    if s and t[s - 1] in "[【^":
        m = _CITATION_AT_RE.match(t, s)
        if m:
            return m.end()
    if e < len(t) and t[e] in "x×":
        m = _NXM_AT_RE.match(t, s)
        if m:
            return m.end()
    if c in "93":
        m = _CHIP_AT_RE.match(t, s)
        if m:
            return m.end()
    line_start = t.rfind("\n", 0, s) + 1
    if s - line_start <= 8:
        if _LIST_PREFIX_RE.fullmatch(t, line_start, s) and _LIST_SUFFIX_RE.match(t, e):
            return e
        if _HEADING_PREFIX_RE.fullmatch(t, line_start, s) and (h := _HEADING_SUFFIX_RE.match(t, e)):
            return h.end()
    if s > 2 and t[s - 1] in " \t" and t[s - 2].isalpha() and _MONTH_BEFORE_RE.search(t, max(0, s - 20), s):
        return e
    return 0


# ------------------------------------------------------------------ scanning


@dataclass(slots=True)
class _Q:
    start: int
    num_start: int
    end: int
    num: float
    num_step: float
    mult: float
    unit: str
    factor: float
    raw_unit: str
    per: str | None = None
    approx: bool = False


def _unit_of(m: re.Match) -> tuple[str, float, str]:
    group = m.lastgroup or ""
    unit, factor = _UNIT_OF_GROUP[group]
    return unit, factor, group


def _scan(text: str, keep_names: bool) -> list[_Q]:
    t = text.translate(_FULLWIDTH) if _NEEDS_FULLWIDTH_RE.search(text) else text
    out: list[_Q] = []
    skip_until = 0
    for m in _NUM_RE.finditer(t):
        s, e = m.span()
        if s < skip_until:
            continue
        prev = t[s - 1] if s else ""
        if prev.isdigit() or prev in ".," and s > 1 and t[s - 2].isdigit():
            continue  # the tail of "2.3.1" or "1,23"
        cn = m.group("cn")
        if cn is not None:
            if prev and prev in _CN_NOT_NUMBER_AFTER:
                continue  # 第一 (first), 同一天 (the same day)
            parsed = _chinese(cn)
            if parsed is None:
                continue
        else:
            end = _excluded_at(t, s, e)
            if end:
                skip_until = end
                continue
            parsed = _arabic(m.group("ar"))
        num, num_step = parsed
        if prev and prev in "x×* \t" and _char_before(t, s) in "x×*":
            g = _GPU_TIMES_BEFORE_RE.search(t, max(0, s - 40), s)
            if g is not None and _GPU_TIMES_AFTER_RE.match(t, e):  # "A100 x 8", "H100×8"
                out.append(_Q(g.start(), s, e, num, num_step, 1.0, "GPU", 1.0, t[g.start() : s].strip()))
                continue
        if cn is None and prev in " \t-" and _word_before(t, s) in _GPU_WORDS:
            continue  # the 4090 of "RTX 4090"
        q = _read_after(t, s, e, num, num_step)
        if q is None:
            continue
        if cn is not None and not q.unit:
            continue  # 一些, 十分: a Chinese numeral is a quantity only with a unit
        if cn is None and q.start == s and _letter_before(t, s) and not (keep_names and q.unit):
            continue  # LLaMA-13B, p4d.24xlarge
        if not keep_names:
            if q.unit in _BYTES and _after_gpu(t, s):
                continue  # A100 80GB
            if q.unit == "param" and q.raw_unit in ("B", "b", "M") and _model_before(t, s):
                continue  # Llama 2 13B
        out.append(q)

    if "|" in t:
        _table_units(t, out)
    _inherit_ranges(t, out)
    return out


def _read_after(t: str, s: int, e: int, num: float, num_step: float) -> _Q | None:
    """Read the currency before the number t[s:e], then multiplier, unit and rate period after it."""
    start, mult, unit, factor, per, pos, raw_prefix = s, 1.0, "", 1.0, None, e, ""
    cur = _CURRENCY_BEFORE_RE.search(t, max(0, s - 6), s)
    if cur is not None:  # "¥1.2万/月", "$3.50/hr", "USD 5,000"
        raw_prefix = cur.group().strip()
        unit, start = _CURRENCY_OF[raw_prefix], cur.start()
        mm = _MONEY_MULT_RE.match(t, pos)
        if mm:
            mult, pos = _mult_value(mm), mm.end()
        um = _UNIT_RE.match(t, pos)
        if um and _UNIT_OF_GROUP[um.lastgroup or ""][0] in ("CNY", "USD"):
            pos = um.end()  # "¥20k CNY": the suffix repeats the currency
    else:
        mm = None
        k = e
        while k < len(t) and t[k] in " \t*`-\u00a0\u202f":
            k += 1
        if k >= len(t) or t[k] in _NEVER_UNIT_START or k - e > 4:
            return _Q(s, s, e, num, num_step, 1.0, "", 1.0, "")  # "29.4 / 47.5", "1,": bare, fast
        um = _UNIT_RE.match(t, pos)
        if um is None:
            mm = _MULT_RE.match(t, pos)
            if mm:
                mult, pos = _mult_value(mm), mm.end()
                um = _UNIT_RE.match(t, pos)
        if um is not None:
            unit, factor, group = _unit_of(um)
            if unit == "G?":  # "显存 80G" is memory; "5G" alone is not
                unit = "GB" if _MEMORY_BEFORE_RE.search(t, max(0, s - 14), s) else ""
            elif group == _BARE_GPU_GROUP and um.group(group)[0] not in "张块片" and not _gpu_count_ok(t, s, e, num):
                unit = ""
            elif unit == "hour" and factor == 8760 and num >= 1000:
                return None  # 2026年 is a year, not 2026 years
            elif unit in ("GPU", "node") and 1990 <= num <= 2035 and t[s:e].isdigit():
                unit = ""  # "2026 GPU prices": a year
            if unit:
                pos = um.end()
        if not unit and mm is not None and mm.group("let") in ("B", "b", "M"):
            unit = "param"  # "13B", "350M": a parameter count
    if not unit:  # a bare number: keep it cheap, most numbers in a text are bare
        return _Q(s, s, pos if mm is not None else e, num, num_step, mult, "", 1.0, "")
    if unit in ("CNY", "USD"):
        pm = _PER_RE.match(t, pos)
        if pm:
            per, pos = _PER_OF[pm.group("p")], pm.end()
    approx = bool(_APPROX_BEFORE_RE.search(t, max(0, start - 16), start)) or bool(_APPROX_AFTER_RE.match(t, pos))
    raw_unit = raw_prefix + re.sub(r"^[\s*`]+", "", t[e:pos]).strip()
    return _Q(start, s, pos, num, num_step, mult, unit, factor, raw_unit, per, approx)


def _gpu_count_ok(t: str, s: int, e: int, num: float) -> bool:
    """'8 A100' is a count; '2024 H100' is a year and '4.5 A100' is nonsense."""
    return num == int(num) and num < 1000 and "." not in t[s:e]


def _mult_value(mm: re.Match) -> float:
    if mm.group("cn"):
        return _MULT_CN[mm.group("cn")]
    if mm.group("word"):
        return _MULT_WORD[mm.group("word")]
    key = mm.group("let") or mm.groupdict().get("w")
    return _MULT_LETTER[key]


def _table_units(t: str, qs: list[_Q]) -> None:
    """Bare numbers in a Markdown table take the unit named in their column header."""
    lines, offset = [], 0
    for line in t.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    bare = [q for q in qs if not q.unit]
    if not bare:
        return
    header_units: list[tuple[str, float, str] | None] = []
    in_table = False
    for i, (off, line) in enumerate(lines):
        if _TABLE_SEP_RE.match(line) and i > 0 and "|" in lines[i - 1][1]:
            header_units = [_header_unit(cell) for cell in _cells(lines[i - 1][1])]
            in_table = True
            continue
        if in_table and "|" not in line:
            in_table = False
        if not in_table or not any(header_units):
            continue
        for q in bare:
            if off <= q.num_start < off + len(line):
                col = _column(line, q.num_start - off)
                hu = header_units[col] if 0 <= col < len(header_units) else None
                if hu and not q.unit:
                    q.unit, q.factor, q.raw_unit = hu[0], hu[1], hu[2]


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return body.split("|")


def _column(line: str, pos: int) -> int:
    lead = len(line) - len(line.lstrip())
    col = line.count("|", 0, pos)
    return col - 1 if line[lead : lead + 1] == "|" else col


_HEADER_UNIT_RE = re.compile(
    r"(?P<GiB>GiB)|(?P<TBs>TB/s)|(?P<GBs>GB/s)|(?P<GB>GB)|(?P<TFLOPS>TFLOPS)|(?P<pct>%)"
    r"|(?P<wan>万元)|(?P<CNY>¥|￥|CNY|RMB|元|人民币)|(?P<USD>\$|USD|美元)"
    r"|(?P<GPU>GPUs|GPU[ \t]*(?:数量?|count|×)|卡数|#[ \t]*GPUs?|显卡数)"
    r"|(?P<hour>hours|小时|\bhrs?\b|\(h\))|(?P<day>days|天数|\(天\))|(?P<token>tokens)|(?P<W>\(W\)|watts)"
)
_HEADER_UNIT_OF = {"GiB": ("GiB", 1.0), "TBs": ("TB/s", 1.0), "GBs": ("GB/s", 1.0), "GB": ("GB", 1.0),
                   "TFLOPS": ("TFLOPS", 1.0), "pct": ("%", 1.0), "wan": ("CNY", 1e4), "CNY": ("CNY", 1.0),
                   "USD": ("USD", 1.0), "GPU": ("GPU", 1.0), "hour": ("hour", 1.0), "day": ("hour", 24.0),
                   "token": ("token", 1.0), "W": ("W", 1.0)}


def _header_unit(cell: str) -> tuple[str, float, str] | None:
    m = _HEADER_UNIT_RE.search(cell)
    if m is None or m.lastgroup is None:
        return None
    unit, factor = _HEADER_UNIT_OF[m.lastgroup]
    return unit, factor, m.group().strip("()")


def _inherit_ranges(t: str, qs: list[_Q]) -> None:
    """'20-30 GB', '1.5–2万元', '3~5 天': the first number of a range takes the second's unit."""
    for a, b in zip(qs, qs[1:]):
        if not a.unit and b.unit and b.start == b.num_start and _RANGE_SEP_RE.fullmatch(t, a.end, b.start):
            a.unit, a.factor, a.raw_unit, a.per = b.unit, b.factor, b.raw_unit, b.per
            if a.mult == 1.0:
                a.mult = b.mult
        elif a.unit in ("CNY", "USD") and not b.unit and _RANGE_SEP_RE.fullmatch(t, a.end, b.start):
            b.unit, b.raw_unit, b.per = a.unit, a.raw_unit, b.per or a.per  # "$2–3/hr"


@dataclass(frozen=True, slots=True)
class Reading:
    """A quantity without the pydantic model: what the verifier matches, built 10x faster."""

    value: float
    unit: str
    text: str
    step: float
    scale: float
    approx: bool


def _to_quantity(text: str, q: _Q) -> Quantity:
    scale = q.mult * q.factor
    return Quantity(
        value=q.num * scale,
        unit=q.unit,
        raw_value=q.num,
        raw_unit=q.raw_unit,
        text=text[q.start : q.end],
        start=q.start,
        end=q.end,
        step=q.num_step * scale,
        scale=scale,
        per=q.per,
        approx=q.approx,
    )


def extract_quantities(text: str, *, keep_names: bool = False, include_bare: bool = False) -> list[Quantity]:
    """Every quantity in `text`, in order.

    keep_names: also read units inside names ("A100-80GB" -> 80 GB, "Qwen2.5-7B" -> 7e9 params);
        the verifier reads evidence and user text this way, answers without it.
    include_bare: also return numbers with no unit (unit ""), e.g. "batch size 8".
    """
    return [_to_quantity(text, q) for q in _scan(text, keep_names) if q.unit or include_bare]


def read_quantities(text: str, *, keep_names: bool = False, include_bare: bool = False) -> list[Reading]:
    """`extract_quantities` as light `Reading`s (same rules, same order)."""
    out = []
    for q in _scan(text, keep_names):
        if q.unit or include_bare:
            scale = q.mult * q.factor
            out.append(Reading(q.num * scale, q.unit, text[q.start : q.end], q.num_step * scale, scale, q.approx))
    return out


@lru_cache(maxsize=8192)
def read_cached(text: str, keep_names: bool = True, include_bare: bool = True) -> tuple[Reading, ...]:
    """`read_quantities`, memoised: evidence strings repeat ('A100-80GB' in every option)."""
    return tuple(read_quantities(text, keep_names=keep_names, include_bare=include_bare))


@lru_cache(maxsize=256)
def parse_unit(text: str) -> tuple[str, float] | None:
    """A unit as written -> (canonical unit, factor): 'days' -> ('hour', 24), '万元' -> ('CNY', 1e4).

    Also currency signs ('¥', '$'), multipliers alone ('B' -> ('param', 1e9)) and rates
    ('CNY/hour' -> ('CNY', 1)). None when the text is not a unit we know.
    """
    s = text.strip().translate(_FULLWIDTH)
    if not s:
        return None
    for sign, unit in _CURRENCY_OF.items():
        if s == sign or s.startswith(sign) and _PER_RE.fullmatch(s, len(sign)):
            return unit, 1.0
    probe = "1" + s
    qs = [q for q in _scan(probe, keep_names=True) if q.num_start == 0]
    if not qs:
        return None
    q = qs[0]
    if q.unit and q.end == len(probe):
        return q.unit, q.mult * q.factor
    return None
