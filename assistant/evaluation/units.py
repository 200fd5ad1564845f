"""Units a golden `numbers` check may name, and the family each belongs to.

A family has one canonical unit; every unit converts to it by a factor
(money is the exception: CNY and USD convert at the configured exchange rate,
so they keep their currency and the scorer converts at compare time).

Memory: GB is canonical. GiB converts exactly (× 1.073741824), and the scorer
also accepts a GiB figure at face value for a GB expectation (and vice versa)
because published tables say "GB" for what nvidia-smi shows in GiB; the 7 %
difference is well inside the 30-50 % tolerances memory checks use.

Serving figures (issue 11): latency in ms or s (family time, canonical hours like every duration),
throughput in tok/s (`throughput`), request rate in req/s, QPS, RPS or requests per day
(`request_rate`, canonical req/s), and money per million tokens (`money_per_token`, canonical
CNY/Mtok or USD/Mtok: "$/1M tokens", "¥/百万token"). Every canonical unit the quantity reader
reports (assistant/verify/units.py) maps to a family here, so an answer's figure is never ignored
for want of a name.
"""

from __future__ import annotations

from dataclasses import dataclass

GIB_IN_GB = 1024**3 / 1000**3  # 1.073741824


@dataclass(frozen=True)
class Unit:
    family: str  # memory | time | money | money_per_token | gpus | gpu_time | nodes | tflops | tops | bandwidth |
    #              network | percent | throughput | request_rate | tokens | params | flop | power
    factor: float  # × value → canonical unit of the family (money: in `currency`)
    canonical: str  # GB | hour | CNY/USD | GPU | TFLOPS | TB/s | %
    currency: str | None = None


# Keys are lower-cased, spaces removed. Chinese forms are accepted too.
_UNITS: dict[str, Unit] = {}
# Checked first, case kept: network bits per second must not fold into GB/s (bytes).
_EXACT: dict[str, Unit] = {
    "Gb/s": Unit("network", 1.0, "Gb/s"),
    "Gbps": Unit("network", 1.0, "Gb/s"),
    "Gbit/s": Unit("network", 1.0, "Gb/s"),
}


def _add(names: str, unit: Unit) -> None:
    for name in names.split():
        _UNITS[name.lower()] = unit


_add("GB G 吉字节", Unit("memory", 1.0, "GB"))
_add("GiB", Unit("memory", GIB_IN_GB, "GB"))
_add("MB", Unit("memory", 1e-3, "GB"))
_add("MiB", Unit("memory", 1024**2 / 1e9, "GB"))
_add("TB", Unit("memory", 1e3, "GB"))
_add("TiB", Unit("memory", 1024**4 / 1e9, "GB"))
_add("hours hour h hr hrs 小时 个小时", Unit("time", 1.0, "hour"))
_add("ms msec millisecond milliseconds 毫秒", Unit("time", 1 / 3.6e6, "hour"))
_add("s sec secs second seconds 秒", Unit("time", 1 / 3600, "hour"))
_add("minutes minute min 分钟", Unit("time", 1 / 60, "hour"))
_add("days day d 天", Unit("time", 24.0, "hour"))
_add("weeks week w 周 星期", Unit("time", 168.0, "hour"))
_add("months month 个月 月", Unit("time", 730.0, "hour"))  # 730 h, the cloud billing month
_add("CNY ¥ 元 RMB yuan 人民币", Unit("money", 1.0, "CNY", "CNY"))
_add("万元 万 万人民币", Unit("money", 1e4, "CNY", "CNY"))
_add("USD $ US$ dollars 美元", Unit("money", 1.0, "USD", "USD"))
_add("GPUs GPU cards card 卡 张 张卡 块", Unit("gpus", 1.0, "GPU"))
_add("GPU-hours GPU-hour GPUhours GPUhour GPU小时 卡时", Unit("gpu_time", 1.0, "GPU-hour"))
_add("nodes node 节点 台", Unit("nodes", 1.0, "node"))
_add("TFLOPS TFLOP/s", Unit("tflops", 1.0, "TFLOPS"))
_add("TB/s TBps", Unit("bandwidth", 1.0, "TB/s"))
_add("GB/s GBps", Unit("bandwidth", 1e-3, "TB/s"))
_add("% percent 百分比", Unit("percent", 1.0, "%"))
_add("KB", Unit("memory", 1e-6, "GB"))
_add("KiB", Unit("memory", 1024 / 1e9, "GB"))
_add("TOPS", Unit("tops", 1.0, "TOPS"))
_add("W watts 瓦", Unit("power", 1.0, "W"))
_add("token tokens tok", Unit("tokens", 1.0, "token"))
_add("param params parameters 参数", Unit("params", 1.0, "param"))
_add("FLOP FLOPs", Unit("flop", 1.0, "FLOP"))
_add("token/s tok/s tokens/s t/s tokens/sec tok/sec tokens/秒", Unit("throughput", 1.0, "token/s"))
_add("req/s QPS RPS requests/s request/s 次/秒", Unit("request_rate", 1.0, "req/s"))
_add("req/min requests/min 次/分钟", Unit("request_rate", 1 / 60, "req/s"))
_add("req/day requests/day 次/天 次/日", Unit("request_rate", 1 / 86400, "req/s"))
_add("USD/Mtok $/Mtok US$/Mtok USD/1Mtokens $/1Mtokens $/1Mtoken $/milliontokens USD/milliontokens",
     Unit("money_per_token", 1.0, "USD/Mtok", "USD"))
_add("CNY/Mtok ¥/Mtok 元/Mtok CNY/1Mtokens ¥/1Mtokens 元/1Mtokens ¥/百万token ¥/百万tokens 元/百万token 元/百万tokens",
     Unit("money_per_token", 1.0, "CNY/Mtok", "CNY"))

KNOWN_UNITS = ("GB", "GiB", "MB", "TB", "ms", "s", "hours", "h", "days", "weeks", "CNY", "¥", "元", "万元", "USD", "$",
               "USD/Mtok", "$/1M tokens", "CNY/Mtok", "¥/1M tokens", "GPUs", "GPU-hours", "TFLOPS", "TB/s", "GB/s",
               "Gbps", "%", "tok/s", "req/s", "QPS", "tokens")


def parse_unit(text: str) -> Unit | None:
    """The `Unit` for a golden file's unit string, or None when unknown."""
    compact = text.replace(" ", "")
    return _EXACT.get(compact) or _UNITS.get(compact.lower())


# Canonical units that `assistant.quantities.extract_quantities` reports, mapped
# into the same families. Unknown units map to None and are ignored.
def unit_of_found(unit: str) -> Unit | None:
    return parse_unit(unit)
