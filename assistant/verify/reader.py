"""Find the quantities a text claims: numbers with a unit, in English and Chinese.

`extract_quantities("8× A100 需要约 1.5万元/月")` returns `8 GPU` and `15000 CNY (per month)`.
The verifier (every number in an answer must be backed), the evaluation scorer (`numbers`
check) and the understanding layer read text through this one reader, so they can never
disagree about what a number means.

What counts as a quantity: a number with a unit we understand — memory (GB, GiB, MB, KiB …),
time (ms, s … hours, days, weeks, months), money with its currency and period (¥1.2万/月,
$3.50/hr, 每小时 ¥12) or per million tokens ($0.12/1M tokens, ¥0.8 每百万 token, per million
output tokens), GPU and node counts, GPU-hours, parameters, tokens, FLOPs, throughput (tok/s,
tokens per second, t/s), request rate (req/s, QPS, RPS, 次/秒, requests per day), TFLOPS, TOPS,
bandwidth (TB/s, GB/s, Gb/s), %, W. Values are converted to a canonical unit
(`assistant.verify.units.UNIT_DIMENSION`): durations to hours, latencies to ms, multipliers applied
("1.5万" = 15000, "13B" = 13e9 params, "$1.2/1K tokens" = 1200 USD/Mtok); memory keeps the unit
written (GB and GiB differ by 7 %; the verifier decides how loosely to compare them).

What does not: digits inside names (LLaMA-13B, A100-80GB, "A100 80GB", p4d.24xlarge, Mixtral
8x7B, Ascend 910B, CUDA 12.1 is a bare number), dates and years, decades (the 1990s), citation
markers [1], list numbering, and bare numbers with no unit (those are returned only with
`include_bare=True`, unit "").
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from assistant.verify.units import UNIT_DIMENSION, conversion_factors

__all__ = [
    "Quantity",
    "Reading",
    "UNIT_DIMENSION",
    "conversion_factors",
    "extract_quantities",
    "is_name_token",
    "parse_unit",
    "read_cached",
    "read_quantities",
    "unit_and_period",
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
    r"(?:19|20)\d{2}(?:[-/](?:0?[1-9]|1[0-2])(?:[-/](?:0?[1-9]|[12]\d|3[01]))?(?![\d.]\d|[A-Za-z%])"  # 2026-07-20
    r"|\.(?:0?[1-9]|1[0-2])\.(?:0?[1-9]|[12]\d|3[01])(?![\d.]\d)"  # 2026.7.20 (but 2090.7 s is a number)
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
_GPU_WORDS = frozenset({"RTX", "PRO", "Gaudi", "Quadro", "Ascend", "昇腾", "TPU", "GeForce", "Atlas"})  # RTX 4090, Atlas 800T
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
_MULT_LETTER = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "b": 1e9, "T": 1e12, "bn": 1e9, "mn": 1e6, "w": 1e4, "W": 1e4}
_MULT_BODY = (
    r"[ \t]?(?P<cn>万亿|千亿|百亿|十亿|千万|百万|十万|万|亿|千)"
    r"|[ \t]?(?P<word>thousand|million|billion|trillion)(?![A-Za-z])"
    r"|(?P<let>bn|mn|[kKMBTb])(?![A-Za-z0-9])"  # "7b": people write parameter counts in lower case too
)
_MULT_RE = re.compile(_MULT_BODY)
# After a currency sign, "w"/"W" is 万 (¥2w = 20000), not watts.
_MONEY_MULT_RE = re.compile(_MULT_BODY + r"|(?P<w>[wW])(?![A-Za-z])")

_BARE_GPU_UNIT = rf"(?:张|块|片)?[ \t]*{_GPU}(?![A-Za-z0-9])"  # "8 A100", "两张 A100": checked for years

# Units, longest first: throughput before tokens, GPU-hours before GPUs, bandwidth before memory.
_UNITS: list[tuple[str, str, float]] = [
    (r"tokens?[ \t]*/[ \t]*(?:s(?:ec)?|秒)(?![A-Za-z])|toks?/s(?:ec)?(?![A-Za-z])|t/s(?![A-Za-z])"
     r"|tokens?[ \t]+(?:per|a|/)[ \t]*second|tokens?[ \t]*每秒", "token/s", 1),
    (r"reqs?/s(?:ec)?(?![A-Za-z])|QPS(?![A-Za-z])|qps(?![A-Za-z])|RPS(?![A-Za-z])|rps(?![A-Za-z])|次/秒|次每秒", "req/s", 1),
    # a request count: a rate only with a period after ("/s", "per day", "/天") or before ("每天 10 万次请求")
    (r"(?:次请求|个请求|次调用|requests?(?![A-Za-z])|reqs?(?![A-Za-z])|queries(?![A-Za-z]))", "REQ?", 1),
    (r"GPU[- ·]?(?:hours?|hrs?|h)(?![A-Za-z0-9])|卡时|卡·时|GPU[ \t]?时|机时", "GPU-hour", 1),
    (r"TB/s|TBps|TB/秒", "TB/s", 1),
    (r"GB/s|GBps|GB/秒", "GB/s", 1),
    (r"Gb/s|Gbps|Gbit/s|Gb/秒", "Gb/s", 1),
    (r"PFLOPS|PFLOP/s|PFLOPs|PFlops", "TFLOPS", 1000),
    (r"TFLOPS|TFLOP/s|TFLOPs|TFlops|tflops", "TFLOPS", 1),
    (r"FLOPs?(?![A-Za-z/])|次浮点运算", "FLOP", 1),  # a count (6·N·D); "FLOPS" (a rate without a prefix) is not read
    (r"TOPS(?![A-Za-z])", "TOPS", 1),
    (r"[Gg]i[Bb](?![A-Za-z])", "GiB", 1),
    (r"[Mm]i[Bb](?![A-Za-z])", "MiB", 1),
    (r"[Tt]i[Bb](?![A-Za-z])", "TiB", 1),
    (r"[Kk]i[Bb](?![A-Za-z])", "KiB", 1),
    (r"(?:GB|gb|Gb|gigabytes?)(?![A-Za-z])", "GB", 1),
    (r"(?:MB|megabytes?)(?![A-Za-z])", "MB", 1),
    (r"(?:TB|terabytes?)(?![A-Za-z])", "TB", 1),
    (r"(?:KB|kB|kilobytes?)(?![A-Za-z])", "KB", 1),
    (r"G(?=[ \t]*的?[ \t]*(?:显存|内存|VRAM|vram|HBM|memory|RAM))", "GB", 1),
    (r"G(?![A-Za-z0-9/])", "G?", 1),  # GB only when memory is named just before ("显存 80G"), see below
    (r"kW(?![A-Za-z])", "W", 1000),
    (r"W(?![A-Za-z0-9])|[Ww]atts?(?![A-Za-z])|瓦", "W", 1),
    (r"(?:张|块|片|个)?[ \t]*(?:GPUs?|gpus?|显卡|计算卡|加速卡|卡(?![顿住死片]))(?![A-Za-z])|cards?(?![A-Za-z])", "GPU", 1),
    (rf"[x×*][ \t]*{_GPU}(?![A-Za-z0-9])", "GPU", 1),
    (_BARE_GPU_UNIT, "GPU", 1),
    (r"nodes?(?![A-Za-z])|个节点|节点|台(?:机器|服务器|实例)?|machines?(?![A-Za-z])|servers?(?![A-Za-z])", "node", 1),
    (r"ms(?![A-Za-z])|毫秒|milliseconds?(?![A-Za-z])", "ms", 1),  # latency: kept in ms
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
    (r"s(?![A-Za-z0-9/'’])", "ms", 1000),  # "0.3 s", "2s": seconds of latency, last so that no unit starting with s loses
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

# Money per token, after the amount: "$0.12/1M tokens", "¥0.8 每百万 token", "per million output tokens",
# "$1.2 per 1K tokens" (= $1,200 per 1M), "$2e-6 per token". Kept as CNY/Mtok or USD/Mtok (per 1M tokens).
_TOKEN_KIND = r"(?:(?:output|input|generated|prompt|completion|输出|输入|生成)[ \t]*)?"
_PER_TOKEN_RE = re.compile(
    r"[ \t]*(?:/|per[ \t]+|每[ \t]*|an?[ \t]+)[ \t]*(?:(?P<one>1|one)[ \t]*)?"
    r"(?P<m>million|thousand|百万|千|M|m|K|k)?[ \t]*" + _TOKEN_KIND + r"(?:tokens?|toks?|词元)(?![A-Za-z])"
)
_PER_TOKEN_SCALE = {"million": 1.0, "百万": 1.0, "M": 1.0, "m": 1.0, "thousand": 1e3, "千": 1e3, "K": 1e3, "k": 1e3}
# ... or before it, in the same clause: "每百万 token 成本约 ¥0.8", "cost per million output tokens: $16.51"
_PER_TOKEN_BEFORE_RE = re.compile(
    r"(?:每[ \t]*(?:百万|1?[ \t]*M)|per[ \t]+(?:1[ \t]*M|one[ \t]+million|million)|/[ \t]*1?M)[ \t]*" + _TOKEN_KIND
    + r"(?:tokens?|词元)[^\d\n。，,;；|]{0,10}$"
)
# A period written before the amount: "每月预算 2万元", "每小时 ¥12", "monthly cost: ¥8,745".
_PER_BEFORE_RE = re.compile(
    r"(?:(?:每|一)个?(?P<zh>小时|月|天|周|年)[^\d\n。，,;；:：|]{0,6}"
    r"|(?P<en>per[ \t]+(?:hour|month|day|week|year)|hourly|monthly|daily|weekly|yearly|annual)[^\d\n.,;|]{0,12})$"
)
_PER_BEFORE_OF = {"小时": "hour", "月": "month", "天": "day", "周": "week", "年": "year", "per hour": "hour",
                  "per month": "month", "per day": "day", "per week": "week", "per year": "year", "hourly": "hour",
                  "monthly": "month", "daily": "day", "weekly": "week", "yearly": "year", "annual": "year"}
# The period of a request count: after ("/s", "per day", "/天") or before ("每天 10 万次请求", "日均").
_REQ_PER_RE = re.compile(
    r"[ \t]*(?:/|per[ \t]+|an?[ \t]+|每)[ \t]*(?P<p>秒|s|sec|second|分钟|min|minute|小时|h|hr|hour|天|日|d|day)(?![A-Za-z])"
)
_REQ_PER_BEFORE_RE = re.compile(
    r"(?P<p>每秒|每分钟|每小时|每天|每日|日均|一天|per[ \t]+second|per[ \t]+day|a[ \t]+day|daily)[^\d\n。，,;；|]{0,6}$"
)
_REQ_SCALE = {"秒": 1.0, "s": 1.0, "sec": 1.0, "second": 1.0, "每秒": 1.0, "per second": 1.0,
              "分钟": 1 / 60, "min": 1 / 60, "minute": 1 / 60, "每分钟": 1 / 60,
              "小时": 1 / 3600, "h": 1 / 3600, "hr": 1 / 3600, "hour": 1 / 3600, "每小时": 1 / 3600,
              "天": 1 / 86400, "日": 1 / 86400, "d": 1 / 86400, "day": 1 / 86400, "每天": 1 / 86400, "每日": 1 / 86400,
              "日均": 1 / 86400, "一天": 1 / 86400, "per day": 1 / 86400, "a day": 1 / 86400, "daily": 1 / 86400}
_DENOMINATOR_RE = re.compile(r"1[ \t]*(?:M|K|k|million|thousand)?[ \t]*" + _TOKEN_KIND + r"(?:tokens?|toks?)(?![A-Za-z])")
_DENOMINATOR_BEFORE_RE = re.compile(r"(?:/|per|每)[ \t]*$")
_TOKEN_RATE_BEFORE_RE = re.compile(r"(?:每秒钟?|per[ \t]+second)[^\d\n。，,;；|]{0,6}$")
_SENTENCE_END_RE = re.compile(r"[。！？!?;；\n]|\.(?:\s|$)|\d")
_DECADE_AFTER_RE = re.compile(r"s[ \t]+of(?![A-Za-z])")  # "100s of GPUs": hundreds, not seconds

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
        # 1e400 is a number too: float() reads it as inf, and the step must not overflow on the way
        step = step * 10.0 ** max(min(int(exp), 308), -308)
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


_SIZE_LIST_BEFORE_RE = re.compile(r"\d+(?:\.\d+)?[BbMm](?:(?:[/–、]|,[ \t]?)\d+(?:\.\d+)?[BbMm])*(?:[/–、]|,[ \t]?)$")


def _model_before(t: str, s: int) -> bool:
    """'Llama 2 13B', 'Qwen2.5 7B', 'LLaMA 13B': a family word (and versions) right before; also the later
    sizes of a list of them ('Llama 3.1 8B/70B/405B', 'Qwen2.5 7B、14B')."""
    m = _SIZE_LIST_BEFORE_RE.search(t, max(0, s - 40), s)
    if m:
        return _model_before(t, m.start())
    j = s
    for _ in range(4):
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
        if not (_VERSION_RE.fullmatch(word) or word in _MODEL_WORDS):
            return False
        j = k
    return False


# Words a model's name may hold between its family and its size: "DeepSeek LLM 67B", "Qwen2.5 Coder 32B".
_MODEL_WORDS = frozenset({"LLM", "Chat", "Instruct", "Base", "Coder", "Code", "Math", "VL", "MoE", "Lite", "Vision", "it"})


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
    if c == "1" and _DENOMINATOR_RE.match(t, s) and _DENOMINATOR_BEFORE_RE.search(t, max(0, s - 6), s):
        return e  # "per 1M tokens", "$/1M tokens": the 1M is part of a unit
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
            if UNIT_DIMENSION.get(q.unit) == "memory" and _after_gpu(t, s):
                continue  # A100 80GB
            if q.unit == "param" and q.raw_unit in ("B", "b", "M") and _model_before(t, s):
                continue  # Llama 2 13B
        out.append(q)
        if q.unit:
            skip_until = max(skip_until, q.end)  # "$0.12/1M tokens": the 1M belongs to the unit

    if "|" in t:
        _table_units(t, out)
    _inherit_ranges(t, out)
    kept: list[_Q] = []
    for q in out:  # a range's unit may have grown over a number read alone ("0.10–0.12/1M tokens")
        if not kept or q.num_start >= kept[-1].end:
            kept.append(q)
    return kept


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
            elif unit in ("GPU", "node") and 1990 <= num <= 2035 and t[s:e].isdigit() and _singular_count_word(um):
                unit = ""  # "2026 GPU prices": a year (but "2023 台机器", "2024 GPUs" are counts)
            elif unit == "REQ?":
                unit, factor, end = _request_rate(t, s, um.end())
                if unit:
                    um = None
                    pos = end
            elif unit == "ms" and factor == 1000 and _decade(t, s, e, um):
                unit = ""  # "the 1990s", "100s of GPUs"
            elif unit == "token" and _TOKEN_RATE_BEFORE_RE.search(t, max(0, s - 12), s):
                unit = "token/s"  # "每秒约 40,591 token"
            if unit and um is not None:
                pos = um.end()
        if not unit and mm is not None and mm.group("let") in ("B", "b", "M"):
            unit = "param"  # "13B", "350M": a parameter count
    if not unit:  # a bare number: keep it cheap, most numbers in a text are bare
        return _Q(s, s, pos if mm is not None else e, num, num_step, mult, "", 1.0, "")
    if unit in ("CNY", "USD"):
        tm = _PER_TOKEN_RE.match(t, pos)
        if tm:  # "$0.12/1M tokens": money per million tokens
            unit, pos = unit + "/Mtok", tm.end()
            factor = _PER_TOKEN_SCALE.get(tm.group("m") or "", 1e6)
        elif _PER_TOKEN_BEFORE_RE.search(t, max(0, start - 40), start):
            unit = unit + "/Mtok"  # "每百万 token 约 ¥0.8"
        else:
            pm = _PER_RE.match(t, pos)
            if pm:
                per, pos = _PER_OF[pm.group("p")], pm.end()
            else:
                bm = _PER_BEFORE_RE.search(t, max(0, start - 20), start)
                if bm:
                    per = _PER_BEFORE_OF[bm.group("zh") or re.sub(r"[ \t]+", " ", bm.group("en").lower())]
    approx = bool(_APPROX_BEFORE_RE.search(t, max(0, start - 16), start)) or bool(_APPROX_AFTER_RE.match(t, pos))
    raw_unit = raw_prefix + re.sub(r"^[\s*`]+", "", t[e:pos]).strip()
    return _Q(start, s, pos, num, num_step, mult, unit, factor, raw_unit, per, approx)


def _request_rate(t: str, s: int, end: int) -> tuple[str, float, int]:
    """A request count with a period -> ('req/s', factor, end); without one it is a bare count."""
    m = _REQ_PER_RE.match(t, end)
    if m:
        return "req/s", _REQ_SCALE[m.group("p")], m.end()
    b = _REQ_PER_BEFORE_RE.search(t, max(0, s - 14), s)
    if b:
        return "req/s", _REQ_SCALE[re.sub(r"[ \t]+", " ", b.group("p"))], end
    return "", 1.0, end


def _singular_count_word(um: re.Match) -> bool:
    """'GPU', 'node', 'server' written alone (an adjective after a year), not 'GPUs', '张卡', '台机器'."""
    return um.group(um.lastgroup or 0).strip(" \t*`-") in ("GPU", "gpu", "node", "server", "machine", "card")


def _decade(t: str, s: int, e: int, um: re.Match) -> bool:
    """'1990s', '2020s', '100s of': a glued s that is not seconds."""
    glued = um.start(um.lastgroup or 0) == e
    if not glued:
        return False
    digits = t[s:e]
    return (digits.isdigit() and 1900 <= int(digits) <= 2099) or bool(_DECADE_AFTER_RE.match(t, e))


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
    """Bare numbers in a Markdown table take the unit named in their column header; money cells
    without a period take the header's ("Monthly cost", "¥/小时")."""
    targets = [q for q in qs if not q.unit or (q.unit in ("CNY", "USD") and q.per is None)]
    if not targets:
        return
    lines, offset = [], 0
    for line in t.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    headers: list[tuple[tuple[str, float, str] | None, str | None]] = []
    in_table = False
    for i, (off, line) in enumerate(lines):
        if _TABLE_SEP_RE.match(line) and i > 0 and "|" in lines[i - 1][1]:
            headers = [(_header_unit(cell), _header_per(cell)) for cell in _cells(lines[i - 1][1])]
            in_table = True
            continue
        if in_table and "|" not in line:
            in_table = False
        if not in_table or not any(u or p for u, p in headers):
            continue
        for q in targets:
            if off <= q.num_start < off + len(line):
                col = _column(line, q.num_start - off)
                hu, hp = headers[col] if 0 <= col < len(headers) else (None, None)
                if not q.unit and hu:
                    q.unit, q.factor, q.raw_unit = hu
                    if q.unit in ("CNY", "USD"):
                        q.per = hp
                elif q.unit in ("CNY", "USD") and q.per is None and hp:
                    q.per = hp


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
    r"|(?P<toks>tok/s|tokens?/s|t/s|tokens per second)|(?P<reqs>req/s|QPS|RPS|requests?/s)|(?P<ms>\bms\b|毫秒)"
    r"|(?P<wan>万元)|(?P<CNY>¥|￥|CNY|RMB|元|人民币)|(?P<USD>\$|USD|美元)"
    r"|(?P<GPU>GPUs|GPU[ \t]*(?:数量?|count|×)|卡数|#[ \t]*GPUs?|显卡数)"
    r"|(?P<hour>hours|小时|\bhrs?\b|\(h\))|(?P<day>days|天数|\(天\))|(?P<token>tokens)|(?P<W>\(W\)|watts)"
)
_HEADER_UNIT_OF = {"GiB": ("GiB", 1.0), "TBs": ("TB/s", 1.0), "GBs": ("GB/s", 1.0), "GB": ("GB", 1.0),
                   "TFLOPS": ("TFLOPS", 1.0), "pct": ("%", 1.0), "wan": ("CNY", 1e4), "CNY": ("CNY", 1.0),
                   "USD": ("USD", 1.0), "GPU": ("GPU", 1.0), "hour": ("hour", 1.0), "day": ("hour", 24.0),
                   "token": ("token", 1.0), "W": ("W", 1.0), "toks": ("token/s", 1.0), "reqs": ("req/s", 1.0),
                   "ms": ("ms", 1.0)}
_HEADER_MTOK_RE = re.compile(r"(?i)per[ \t]+(?:1[ \t]*M|million)|/[ \t]*1?M[ \t]*tok|/[ \t]*Mtok|每百万|/[ \t]*百万")
_HEADER_PER_RE = re.compile(
    r"(?i)(?P<month>monthly|/[ \t]*(?:month|mo)\b|per[ \t]+month|月)|(?P<hour>hourly|/[ \t]*(?:h|hr|hour)\b|per[ \t]+hour|小时)"
    r"|(?P<day>daily|/[ \t]*day\b|per[ \t]+day|每天|每日)|(?P<year>yearly|annual|/[ \t]*(?:year|yr)\b|per[ \t]+year|每年|年费)"
)


def _header_unit(cell: str) -> tuple[str, float, str] | None:
    m = _HEADER_UNIT_RE.search(cell)
    if m is None or m.lastgroup is None:
        return None
    unit, factor = _HEADER_UNIT_OF[m.lastgroup]
    if unit in ("CNY", "USD") and _HEADER_MTOK_RE.search(cell):
        unit = unit + "/Mtok"  # "$/1M tokens", "每百万 token 成本（元）"
    elif unit in ("token", "hour") and _HEADER_MTOK_RE.search(cell):
        cur = re.search(r"¥|￥|CNY|RMB|元|\$|USD|美元", cell)
        if cur is None:
            return None
        unit, factor = _CURRENCY_OF.get(cur.group(), "CNY" if cur.group() in "元" else "USD") + "/Mtok", 1.0
    return unit, factor, m.group().strip("()")


def _header_per(cell: str) -> str | None:
    """The money period a column header names: 'Monthly cost' -> month, '¥/小时' -> hour."""
    if _HEADER_MTOK_RE.search(cell):
        return None
    m = _HEADER_PER_RE.search(cell)
    return m.lastgroup if m else None


def _inherit_ranges(t: str, qs: list[_Q]) -> None:
    """'20-30 GB', '1.5–2万元', '3~5 天': the first number of a range takes the second's unit.

    And a list that names the token unit once: "$0.44 per million output tokens at this load, $0.16 at
    maximum throughput" / "每百万 token：当前负载 ¥3.1，满载 ¥1.1" — a money amount with no period that
    follows one per million tokens in the same sentence, in the same currency, is per million tokens too.
    """
    for a, b in zip(qs, qs[1:]):
        if a.unit.endswith("/Mtok") and b.unit == a.unit[: -len("/Mtok")] and b.per is None \
                and b.start - a.end <= 40 and not _SENTENCE_END_RE.search(t, a.end, b.start):
            b.unit, b.factor = a.unit, b.factor * a.factor
            continue
        if not a.unit and b.unit and b.start == b.num_start and _RANGE_SEP_RE.fullmatch(t, a.end, b.start):
            a.unit, a.factor, a.raw_unit, a.per = b.unit, b.factor, b.raw_unit, b.per
            if a.mult == 1.0:
                a.mult = b.mult
        elif a.unit in ("CNY", "USD") and not b.unit and _RANGE_SEP_RE.fullmatch(t, a.end, b.start):
            b.unit, b.raw_unit, b.per = a.unit, a.raw_unit, b.per or a.per  # "$2–3/hr"
            tm = _PER_TOKEN_RE.match(t, b.end)
            pm = None if tm else _PER_RE.match(t, b.end)
            if tm:  # "$0.10–0.12/1M tokens"
                scale = _PER_TOKEN_SCALE.get(tm.group("m") or "", 1e6)
                money = a.unit
                for q in (a, b):
                    q.unit, q.factor, q.per = money + "/Mtok", scale, None
                b.end = tm.end()
            elif pm and a.per is None:
                a.per = b.per = _PER_OF[pm.group("p")]
                b.end = pm.end()


@dataclass(frozen=True, slots=True)
class Reading:
    """A quantity without the pydantic model: what the verifier matches, built 10x faster."""

    value: float
    unit: str
    text: str
    step: float
    scale: float
    approx: bool
    per: str | None = None  # money: hour | day | week | month | year


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
            out.append(Reading(q.num * scale, q.unit, text[q.start : q.end], q.num_step * scale, scale, q.approx, q.per))
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
    found = unit_and_period(s)
    return (found[0], found[1]) if found else None


@lru_cache(maxsize=256)
def unit_and_period(text: str) -> tuple[str, float, str | None] | None:
    """`parse_unit` with the money period: 'CNY/hour' -> ('CNY', 1, 'hour'), '$/1M tokens' -> ('USD/Mtok', 1, None)."""
    s = text.strip().translate(_FULLWIDTH)
    if not s:
        return None
    for sign, unit in _CURRENCY_OF.items():
        if s == sign:
            return unit, 1.0, None
        if s.startswith(sign):  # "$/hour", "¥/1M tokens": a sign then a rate
            rest = s[len(sign):]
            tm = _PER_TOKEN_RE.fullmatch(rest)
            if tm:
                return unit + "/Mtok", _PER_TOKEN_SCALE.get(tm.group("m") or "", 1e6), None
            pm = _PER_RE.fullmatch(rest)
            if pm:
                return unit, 1.0, _PER_OF[pm.group("p")]
    probe = "1" + s
    qs = [q for q in _scan(probe, keep_names=True) if q.num_start == 0]
    if not qs:
        return None
    q = qs[0]
    if q.unit and q.end == len(probe):
        return q.unit, q.mult * q.factor, q.per
    return None
