"""Can the number verifier be fooled? False acceptance on invented figures, false rejection on real answers.

Issue 13 §1: a scripted LLM that invented figures found that any unit-less number anywhere in a tool
result backed a claim of any unit ("$28 per hour" backed by the date 2025-11-28). This benchmark
measures, for the verifier at a baseline revision (before the fix) and for today's code:

* **False acceptance.** Six fixed evidence sets built by the real calculators on the real catalog
  (a recommendation, a VRAM estimate, a cost estimate, a training-time estimate, a serving estimate
  on a priced instance, a GPU record), each with two passages and the user's question. Random
  figures are invented in every dimension and many written forms (integers 1-100, log-uniform values,
  and values a few per cent off a real figure); an independent oracle — the explicit tables below,
  not the verifier's own rules — says whether each one is truly present (after unit conversion and
  the rounding its written digits allow). A figure the verifier lets through (backed, or not read as
  a claim at all) that the oracle says is absent is a false acceptance. Target: 0 of 1,000 per set.
* **The issue's sweep:** for the recommendation's evidence, how many of the integers 1-100 pass as
  "$N per hour" and as "N GB", against how many are truly there.
* **Synthetic false rejection:** true figures restated (rounded, converted, marked approximate) must pass.
* **False rejection on the golden set's real answers:** every turn of every golden item is asked
  through the real offline Advisor; each answer is verified against that turn's tool results,
  passages and the user's turns. Target: 0 unbacked numbers.

The JSON given to the verifier is the calculators' `model_dump(mode="json", context={"lang": "en"})`:
notes carry their rendered text, so dates, formula text and assumption sentences are in the evidence
as strings, the way the probe found them.

    python benchmarks/verifier.py > benchmarks/verifier.md                 # baseline vs today
    python benchmarks/verifier.py --save-answers /tmp/golden.json            # also keep the golden answers
    python benchmarks/verifier.py --answers /tmp/golden.json                 # re-verify saved answers (fast)
    python benchmarks/verifier.py --no-golden                                # synthetic part only

The baseline is read from git (`git show REV:assistant/verifier.py` and `assistant/quantities.py`), so the
"before" figures can be re-measured at any time; `--baseline none` skips it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BASELINE_REV = "840a37f"  # HEAD before issue 13 §1: the verifier as the probe found it
N_ABSENT = 1000  # invented figures per evidence set that must all be refused
N_PRESENT = 200  # true figures per evidence set, restated, that must all pass
REL_TOL = 0.005  # 0.5 %: the relative slack the README promises
APPROX_REL_TOL = 0.10  # "~", "about", "约": 10 %

GIB = 2.0**30
HOUR = 3600.0
MONTH_H = 730.0  # the cloud billing month (tools.domain)

# ------------------------------------------------------------------ the truth: explicit tables


@dataclass(frozen=True)
class Truth:
    """One figure that is really in the evidence, in base units (bytes, seconds, FLOP/s ...)."""

    dim: str
    value: float
    loose: float | None = None  # memory: bytes with binary prefixes read as decimal (a GiB figure called GB)
    currency: str | None = None
    period: str | None = None  # money: hour | day | week | month | year | None (a total / unknown)
    half: float = 0.0  # text figures: half their shown step, in base units
    any_period: bool = False  # the user's own money without a period backs any period
    where: str = ""


# Leaf key -> (dimension, factor to base units). Written out key by key for the calculators' fields and
# the notes' params, independently of the verifier's name rules; a key not listed carries no unit.
_MEM = {"gib": GIB, "gb": 1e9}
TRUTH_KEYS: dict[str, tuple[str, float]] = {}
for _k in ("activation_gib context_gib gib gpu_usable_gib headroom_gib kv_cache_gib needed_gib non_torch_gib "
           "overhead_gib per_gpu_gib short_gib single_gpu_gib total_gib usable_gib usable_memory_gib visible_gib "
           "weights_gib cpu_gib buffer_gib ram_gib required_gib available_gib").split():
    TRUTH_KEYS[_k] = ("memory:gib", GIB)
for _k in "memory_gb min_ram_gb ram_gb_per_gpu data_disk_gb system_disk_gb local_disk_gb".split():
    TRUTH_KEYS[_k] = ("memory:gb", 1e9)
TRUTH_KEYS["kv_bytes_per_token"] = ("memory:b", 1.0)
for _k in ("allreduce_ms compute_ms e2e_ms kv_ms overhead_ms prefill_ms queue_ms step_ms tpot_ms ttft_ms wait_ms "
           "weights_ms target_ms step_overhead_ms").split():
    TRUTH_KEYS[_k] = ("time", 1e-3)
for _k in ("hours billed_hours job_hours deadline_hours checkpoint_hours restart_hours lost_hours paid_hours "
           "rework_hours month_hours year_hours hours_per_month checkpoint_interval_hours "
           "restart_overhead_hours").split():
    TRUTH_KEYS[_k] = ("time", HOUR)
TRUTH_KEYS["days"] = ("time", 24 * HOUR)
TRUTH_KEYS["months"] = ("time", MONTH_H * HOUR)
for _k in "gpus gpu_count total_gpus gpus_for_deadline gpus_min gpus_max scaling_gpus max_gpus gpus_per_node".split():
    TRUTH_KEYS[_k] = ("gpus", 1.0)
for _k in ("nodes", "instances"):
    TRUTH_KEYS[_k] = ("nodes", 1.0)
TRUTH_KEYS["gpu_hours"] = ("gpu_hours", 1.0)
for _k in "params active_params trainable_params embedding_params".split():
    TRUTH_KEYS[_k] = ("params", 1.0)
for _k in ("tokens input_len output_len seq_len batched_tokens kv_cache_tokens max_context window_tokens "
           "max_model_len max_batched_tokens").split():
    TRUTH_KEYS[_k] = ("tokens", 1.0)
TRUTH_KEYS["flops"] = ("flop", 1.0)
for _k in "output_tok_s total_tok_s max_output_tok_s max_total_tok_s tokens_per_user_s throughput_tps target_tok_s".split():
    TRUTH_KEYS[_k] = ("tok_s", 1.0)
for _k in "req_s max_req_s request_rate_req_s".split():
    TRUTH_KEYS[_k] = ("req_s", 1.0)
for _k in ("memory_bandwidth_gbps", "nvlink_bandwidth_gbps"):
    TRUTH_KEYS[_k] = ("bandwidth", 1e9)
TRUTH_KEYS["network_gbps"] = ("bandwidth", 1.25e8)  # bits
for _k in "bf16_tflops fp16_tflops fp32_tflops fp8_tflops tf32_tflops peak_tflops peak_tflops_per_gpu sustained_tflops".split():
    TRUTH_KEYS[_k] = ("tflops", 1e12)
TRUTH_KEYS["int8_tops"] = ("tops", 1e12)
TRUTH_KEYS["tdp_w"] = ("power", 1.0)
for _k in ("mfu mfu_high mfu_low mfu_measured mfu_median memory_fraction over_fraction slack_fraction "
           "trainable_fraction utilisation below_nvlink_fraction runtime_increase_fraction "
           "scaling_efficiency_fraction fraction bandwidth_share bandwidth_efficiency prefill_mfu decode_mfu prefill_share "
           "band_fraction cheaper_fraction default_memory_fraction expert_share headroom_fraction kernel_share "
           "over_budget_fraction").split():
    TRUTH_KEYS[_k] = ("percent", 100.0)
for _k in ("low_pct", "high_pct"):
    TRUTH_KEYS[_k] = ("percent", 1.0)
# money: the period each key states; "total"-like keys take it from the `hours` they cover
MONEY_KEYS: dict[str, str | None] = {
    "price_per_hour": "hour", "monthly_cost": "month", "monthly": "month", "job_cost": None,
    "total": "from_hours", "expected_total": "from_hours", "native_price": "native_per",
    "budget": "period", "cost": "period", "amount": "per",
}
MTOK_KEYS = {"cost_per_million_output_tokens_at_load", "cost_per_million_output_tokens_at_max"}
_HOURS_PERIOD = {1.0: "hour", 24.0: "day", 168.0: "week", MONTH_H: "month", 8760.0: "year"}


def _currency(field: str, parents: list[dict]) -> str | None:
    for d in reversed(parents):
        value = d.get(field)
        if isinstance(value, str) and value in ("CNY", "USD"):
            return value
        if field == "native_currency":
            return None
    return None


def _period(rule: str | None, parents: list[dict]) -> str | None:
    parent = parents[-1]
    if rule in (None, "hour", "month"):
        return rule
    if rule == "from_hours":
        for d in reversed(parents):
            if isinstance(d.get("hours"), (int, float)):
                return _HOURS_PERIOD.get(float(d["hours"]))
        return None
    value = parent.get(rule)
    return value if value in ("hour", "day", "week", "month", "year") else None


def truths_of_json(node: Any, where: str = "tool", parents: list[dict] | None = None,
                   parent_key: str = "") -> list[Truth]:
    """Typed figures of a tool result (JSON form): numbers whose key the tables above name. Strings: none."""
    parents = parents if parents is not None else []
    out: list[Truth] = []
    if isinstance(node, dict):
        if isinstance(node.get("doc_id"), str) and isinstance(node.get("text"), str):
            return out  # a passage inside a result: its truths are listed by hand (PASSAGE_TRUTHS)
        parents.append(node)
        for key, value in node.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out += _leaf(str(key), float(value), parents, parent_key, where)
            else:
                out += truths_of_json(value, where, parents, str(key))
        parents.pop()
    elif isinstance(node, list):
        for value in node:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out += _leaf(parent_key, float(value), parents or [{}], "", where)
            else:
                out += truths_of_json(value, where, parents, parent_key)
    return out


def _leaf(key: str, value: float, parents: list[dict], parent_key: str, where: str) -> list[Truth]:
    if not math.isfinite(value):
        return []
    v = abs(value)
    if key in ("usd", "cny"):  # an exchange rate note: 1 USD = 7.1 CNY
        return [Truth("money", v, currency=key.upper(), where=where)]
    if key == "usd_cny":
        return [Truth("money", v, currency="CNY", where=where)]
    if key in MTOK_KEYS:
        cur = _currency("currency", parents)
        return [Truth("money_mtok", v, currency=cur, where=where)] if cur else []
    if key in MONEY_KEYS:
        rule = MONEY_KEYS[key]
        cur = _currency("native_currency" if key == "native_price" else "currency", parents)
        return [Truth("money", v, currency=cur, period=_period(rule, parents), where=where)] if cur else []
    spec = TRUTH_KEYS.get(key)
    if spec is None and parent_key == "breakdown_gib":
        spec = ("memory:gib", GIB)
    if spec is None:
        return []
    dim, factor = spec
    if dim.startswith("memory:"):
        unit = dim.split(":")[1]
        return [Truth("memory", v * factor, loose=v * (1e9 if unit in ("gib", "gb") else 1.0), where=where)]
    return [Truth(dim, v * factor, where=where)]


# ------------------------------------------------------------------ passages and the user's words, by hand

PASSAGE_EN = (
    "gpu-guide",
    "Updated 2025-11-28. The H100 SXM has 80 GB of HBM3 at 3.35 TB/s and 989 TFLOPS of dense BF16; the A100 40GB "
    "version has 1,555 GB/s. Spot instances are 60-90% cheaper; checkpoint every 30 minutes. With blocksize 64 "
    "and 16-bit weights, a 7B model on one L40S serves about 1,500 tok/s at 32 concurrent requests, around "
    "¥0.8 每百万 token, with a time to first token near 250 ms.",
)
PASSAGE_ZH = (
    "serving-zh",
    "H20 显存 96 GB，带宽 4.0 TB/s，功耗 400 W。按量计费约 ¥38/小时，包月约 1.9万元/月。"
    "vLLM 在 8 张卡上每秒约 12 个请求（12 req/s），首 token 延迟 300 毫秒。",
)


def _t(dim: str, value: float, half: float, where: str, **kw: Any) -> Truth:
    return Truth(dim, value, half=half, where=where, **kw)


# (dimension, base value, half step in base units): what the passages say with a unit; the date, the
# blocksize, the bit width, the request count and the GPU names (A100 40GB, L40S) are not figures.
PASSAGE_TRUTHS = [
    _t("memory", 80e9, 0.5e9, "passage", loose=80e9),
    _t("bandwidth", 3.35e12, 0.005e12, "passage"),
    _t("tflops", 989e12, 0.5e12, "passage"),
    _t("bandwidth", 1555e9, 0.5e9, "passage"),
    _t("percent", 60, 0.5, "passage"),
    _t("percent", 90, 0.5, "passage"),
    _t("time", 30 * 60, 30, "passage"),
    _t("params", 7e9, 0.5e9, "passage"),
    _t("tok_s", 1500, 50, "passage"),
    _t("money_mtok", 0.8, 0.05, "passage", currency="CNY"),
    _t("time", 0.25, 0.005, "passage"),
    _t("memory", 96e9, 0.5e9, "passage", loose=96e9),
    _t("bandwidth", 4.0e12, 0.05e12, "passage"),
    _t("power", 400, 5, "passage"),
    _t("money", 38, 0.5, "passage", currency="CNY", period="hour"),
    _t("money", 19000, 500, "passage", currency="CNY", period="month"),
    _t("gpus", 8, 0.5, "passage"),
    _t("req_s", 12, 0.5, "passage"),
    _t("time", 0.3, 0.005, "passage"),
]


@dataclass
class EvidenceSet:
    name: str
    results: dict[str, Any]  # tool name -> the calculator's pydantic result
    user_texts: list[str]
    user_truths: list[Truth]
    passages: list[tuple[str, str]] = field(default_factory=lambda: [PASSAGE_EN, PASSAGE_ZH])
    truths: list[Truth] = field(default_factory=list)
    _json: dict[str, Any] | None = field(default=None, repr=False)

    def json_results(self) -> dict[str, Any]:
        if self._json is None:
            self._json = {name: _dump(r) for name, r in self.results.items()}
        return self._json


def _dump(result: Any) -> Any:
    """The JSON form with every note's rendered text (dates and formulas in strings), or without if one cannot render."""
    try:
        return result.model_dump(mode="json", context={"lang": "en"})
    except Exception:  # noqa: BLE001 - a note code without a message yet: the figures are the same
        return result.model_dump(mode="json")


def build_sets() -> list[EvidenceSet]:
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings
    from tools.cost import estimate_cost
    from tools.domain import Mode
    from tools.recommend import recommend
    from tools.schemas import CostRequest, RecommendRequest, TrainTimeRequest, VramRequest
    from tools.serving import estimate_on_instance
    from tools.serving_types import Load, LoadKind, ServingRequest
    from tools.train_time import estimate_train_time
    from tools.vram import estimate_vram

    settings = Settings.load()
    cat, fx = load_catalog(settings), settings.exchange_rate
    u = "user"
    sets = [
        EvidenceSet(
            "recommendation",
            {"recommend_config": recommend(cat, cat.model("llama-13b"), RecommendRequest(
                vram=VramRequest(mode=Mode.lora), budget=20000, currency="CNY", period="month"), fx)},
            ["What should I rent to fine-tune LLaMA-13B under ¥20k/month?"],
            [_t("money", 20000, 500, u, currency="CNY", period="month"), _t("params", 13e9, 0.5e9, u)],
        ),
        EvidenceSet(
            "vram estimate",
            {"estimate_vram": estimate_vram(cat.model("qwen2.5-7b"), VramRequest(mode=Mode.qlora, seq_len=4096),
                                            [cat.gpu(g) for g in ("RTX-4090", "A100-80GB", "T4")])},
            ["Qwen2.5-7B QLoRA with 4096 tokens: does it fit a 24 GB card?"],
            [_t("params", 7e9, 0.5e9, u), _t("tokens", 4096, 0.5, u), _t("memory", 24e9, 0.5e9, u, loose=24e9)],
        ),
        EvidenceSet(
            "cost estimate",
            {"estimate_cost": estimate_cost(cat.instances_named("aws/p4d.24xlarge")[0], CostRequest(currency="CNY"), fx)},
            ["How much is an aws p4d.24xlarge for a month, in CNY?"],
            [],
        ),
        EvidenceSet(
            "training time",
            {"estimate_train_time": estimate_train_time(cat.model("llama-7b"), cat.gpu("H100"),
                                                        TrainTimeRequest(tokens=1e12, gpus=64))},
            ["How long to train LLaMA-7B on 1T tokens with 64 H100s?"],
            [_t("params", 7e9, 0.5e9, u), _t("tokens", 1e12, 0.5e12, u), _t("gpus", 64, 0.5, u)],
        ),
        EvidenceSet(
            "serving estimate",
            {"estimate_serving": estimate_on_instance(
                cat.model("qwen2.5-72b"), cat.gpu("H100"), cat.instances_named("aws/p5.48xlarge")[0],
                ServingRequest(input_len=4096, load=Load(kind=LoadKind.concurrency, value=50)), fx)},
            ["Serve Qwen2.5-72B to 50 concurrent users with 4096-token prompts on a p5.48xlarge: cost per million tokens?"],
            [_t("params", 72e9, 0.5e9, u), _t("tokens", 4096, 0.5, u)],
        ),
        EvidenceSet("gpu record", {"lookup_catalog": cat.gpu("H100")}, ["H100 specs?"], []),
    ]
    for s in sets:
        s.truths = [t for r in s.json_results().values() for t in truths_of_json(r)] + PASSAGE_TRUTHS + s.user_truths
    return sets


# ------------------------------------------------------------------ claims: written forms per dimension


@dataclass(frozen=True)
class Form:
    template: str  # "{v}" is the number as written
    dim: str
    scale: float  # base units per written unit (after multipliers)
    currency: str | None = None
    period: str | None = None
    loose_scale: float | None = None  # memory: the scale with a binary prefix read as decimal (GiB as GB)
    integer: bool = False


def _forms() -> list[Form]:
    f: list[Form] = []
    for t, s, loose in [("{v} GB", 1e9, 1e9), ("{v} GiB", GIB, 1e9), ("{v}GB", 1e9, 1e9), ("{v} MB", 1e6, 1e6),
                        ("{v} MiB", 2.0**20, 1e6), ("{v} TB", 1e12, 1e12), ("{v} KiB", 1024.0, 1e3),
                        ("显存 {v} GB", 1e9, 1e9)]:
        f.append(Form(t, "memory", s, loose_scale=loose))
    for t, s in [("{v} ms", 1e-3), ("{v} 毫秒", 1e-3), ("{v} s", 1.0), ("{v} seconds", 1.0), ("{v} minutes", 60.0),
                 ("{v} hours", HOUR), ("{v} h", HOUR), ("{v} 小时", HOUR), ("{v} days", 24 * HOUR), ("{v} 天", 24 * HOUR),
                 ("{v} weeks", 168 * HOUR)]:
        f.append(Form(t, "time", s))
    for t, s, cur, per in [("${v} per hour", 1, "USD", "hour"), ("${v}/hr", 1, "USD", "hour"), ("¥{v}/小时", 1, "CNY", "hour"),
                           ("{v}元/小时", 1, "CNY", "hour"), ("¥{v}/month", 1, "CNY", "month"), ("¥{v}/月", 1, "CNY", "month"),
                           ("${v}/month", 1, "USD", "month"), ("${v} per day", 1, "USD", "day"), ("¥{v}", 1, "CNY", None),
                           ("${v}", 1, "USD", None), ("{v} 元", 1, "CNY", None), ("¥{v}万/月", 1e4, "CNY", "month")]:
        f.append(Form(t, "money", s, currency=cur, period=per))
    for t, cur in [("${v} per 1M tokens", "USD"), ("${v}/1M tokens", "USD"), ("¥{v} 每百万 token", "CNY"),
                   ("${v} per million output tokens", "USD"), ("¥{v}/百万 tokens", "CNY")]:
        f.append(Form(t, "money_mtok", 1.0, currency=cur))
    for t in ("{v} GPUs", "{v}× H100", "{v} 张卡"):
        f.append(Form(t, "gpus", 1.0, integer=True))
    for t in ("{v} nodes", "{v} 台机器"):
        f.append(Form(t, "nodes", 1.0, integer=True))
    f.append(Form("{v} GPU-hours", "gpu_hours", 1.0))
    for t, s in [("{v}B parameters", 1e9), ("{v}M params", 1e6), ("{v} billion parameters", 1e9)]:
        f.append(Form(t, "params", s))
    for t, s in [("{v} tokens", 1.0), ("{v}k tokens", 1e3), ("{v}M tokens", 1e6)]:
        f.append(Form(t, "tokens", s))
    f.append(Form("{v}e18 FLOPs", "flop", 1e18))
    for t in ("{v} tok/s", "{v} tokens/s", "{v} tokens per second", "{v} t/s"):
        f.append(Form(t, "tok_s", 1.0))
    for t in ("{v} req/s", "{v} QPS", "{v} requests per second", "{v} 次/秒"):
        f.append(Form(t, "req_s", 1.0))
    for t, s in [("{v} GB/s", 1e9), ("{v} TB/s", 1e12), ("{v} Gbps", 1.25e8)]:
        f.append(Form(t, "bandwidth", s))
    f.append(Form("{v} TFLOPS", "tflops", 1e12))
    f.append(Form("{v} TOPS", "tops", 1e12))
    f.append(Form("{v} W", "power", 1.0))
    f.append(Form("{v}%", "percent", 1.0))
    f.append(Form("{v} %", "percent", 1.0))
    return f


FORMS = _forms()
DIMS = sorted({f.dim for f in FORMS})
APPROX_MARKS = ["about ", "~", "约 ", "≈ "]


@dataclass(frozen=True)
class Claim:
    text: str
    form: Form
    raw: float  # the number as written
    step: float  # its last shown digit
    approx: bool


def shown_step(digits: str) -> float:
    """The rounding a written number shows: its last decimal, or for integers with trailing zeros two
    significant figures ("20000" -> 1000, "100" -> 10, "80" -> 1) — the reading the README promises."""
    mant, _, exp = digits.replace(",", "").lower().partition("e")
    if "." in mant:
        step = 10.0 ** -len(mant.split(".", 1)[1])
    else:
        d = mant.lstrip("0") or "0"
        zeros = len(d) - len(d.rstrip("0"))
        step = 10.0 ** min(zeros, max(len(d) - 2, 0))
    return step * (10.0 ** int(exp) if exp else 1.0)


def write(raw: float, decimals: int, commas: bool) -> str:
    s = f"{raw:,.{decimals}f}" if commas else f"{raw:.{decimals}f}"
    return s


def make_claim(form: Form, raw: float, decimals: int, approx: bool = False, commas: bool = True) -> Claim | None:
    if form.integer:
        decimals = 0
    raw = round(raw, decimals)
    if raw <= 0:
        return None
    digits = write(raw, decimals, commas and raw >= 10000)
    text = form.template.replace("{v}", digits)
    if approx:  # the mark goes right before the number (or its currency sign), where a writer puts it
        at = form.template.index("{v}")
        at -= 1 if at and form.template[at - 1] in "$¥" else 0
        text = text[:at] + APPROX_MARKS[int(raw * 7) % len(APPROX_MARKS)] + text[at:]
    return Claim(text, form, float(digits.replace(",", "")), shown_step(digits), approx)


def present(c: Claim, truths: Iterable[Truth]) -> bool:
    """The oracle: a truth of the same dimension (currency, period) within the claim's rounding."""
    f = c.form
    rel = APPROX_REL_TOL if c.approx else REL_TOL
    for t in truths:
        if t.dim != f.dim:
            continue
        if f.dim in ("money", "money_mtok"):
            if t.currency != f.currency:
                continue
            if f.dim == "money" and f.period is not None and t.period != f.period and not t.any_period:
                continue
        candidates = [(t.value, f.scale)]
        if f.dim == "memory" and t.loose is not None and f.loose_scale:
            candidates.append((t.loose, f.loose_scale))  # both read with decimal prefixes
        for base, scale in candidates:
            e = base / scale  # the truth in the claim's written unit
            tol = max(c.step / 2, t.half / scale, rel * max(c.raw, e))
            if abs(c.raw - e) <= tol * (1 + 1e-9):
                return True
    return False


def _decimals_for(raw: float, rng: random.Random) -> int:
    """Two or three significant figures, the way answers round."""
    if raw <= 0:
        return 0
    lead = math.floor(math.log10(raw))
    return max(0, 1 - lead + rng.choice([0, 0, 1]))


def invent(rng: random.Random, truths: list[Truth]) -> Claim | None:
    form = rng.choice(FORMS)
    mode = rng.random()
    same = [t for t in truths if t.dim == form.dim and (form.currency is None or t.currency == form.currency)]
    if mode < 0.35:  # the sweep: small integers
        raw, decimals = float(rng.randint(1, 100)), 0
    elif mode < 0.65 or not same:  # log-uniform, 2-3 significant figures
        raw = 10 ** rng.uniform(-1.5, 4.5)
        decimals = _decimals_for(raw, rng)
    else:  # a few per cent off a real figure: the tolerance's edge
        t = rng.choice(same)
        base = t.loose / form.loose_scale if (t.loose and form.loose_scale and rng.random() < 0.5) else t.value / form.scale
        raw = base * (1 + rng.choice([-1, 1]) * rng.uniform(0.006, 0.2))
        decimals = _decimals_for(raw, rng) + 1
    return make_claim(form, raw, decimals, approx=rng.random() < 0.1)


def restate(rng: random.Random, t: Truth) -> Claim | None:
    """A true figure written the way an answer would: converted, rounded, sometimes marked approximate."""
    forms = [f for f in FORMS if f.dim == t.dim and (f.currency is None or f.currency == t.currency)
             and (f.dim != "money" or f.period is None or f.period == t.period or t.any_period)]
    if not forms:
        return None
    form = rng.choice(forms)
    if t.loose is not None and form.loose_scale and rng.random() < 0.3:
        raw = t.loose / form.loose_scale
    else:
        raw = t.value / form.scale
    if raw < 0.01 or raw > 1e7 or (form.integer and abs(raw - round(raw)) > 0.01):
        return None
    return make_claim(form, raw, _decimals_for(raw, rng) + 1, approx=rng.random() < 0.1)


# ------------------------------------------------------------------ the verifiers


@dataclass
class Verifier:
    name: str
    module: ModuleType
    pasted: bool  # knows pasted_texts=

    def evidence(self, s: EvidenceSet) -> Any:
        return self.module.Evidence(tool_results=s.json_results(), passages=s.passages)

    def check(self, text: str, evidence: Any, user_texts: list[str]) -> tuple[bool, list[Any]]:
        """(let through, claims read): no claim read, or every claim backed, lets the figure through."""
        claims = self.module.verify_numbers(text, evidence, user_texts)
        return all(c.backed_by is not None for c in claims), claims


def load_baseline(rev: str) -> Verifier:
    """The verifier and quantity reader as they were at `rev`, imported under private names."""
    tmp = Path(tempfile.mkdtemp(prefix="verifier-baseline-"))

    def show(path: str) -> str:
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout

    (tmp / "_baseline_quantities.py").write_text(show("assistant/quantities.py"), encoding="utf-8")
    src = show("assistant/verifier.py").replace("from assistant.quantities import", "from _baseline_quantities import")
    (tmp / "_baseline_verifier.py").write_text(src, encoding="utf-8")
    sys.path.insert(0, str(tmp))
    spec = importlib.util.spec_from_file_location("_baseline_verifier", tmp / "_baseline_verifier.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["_baseline_verifier"] = module
    spec.loader.exec_module(module)
    return Verifier(f"baseline {rev}", module, pasted=False)


def load_current() -> Verifier:
    import assistant.verifier as module

    import inspect

    return Verifier("today", module, pasted="pasted_texts" in inspect.signature(module.verify_numbers).parameters)


# ------------------------------------------------------------------ synthetic measurement


@dataclass
class SetResult:
    name: str
    absent: int = 0
    accepted_absent: int = 0
    unread_absent: int = 0  # let through because not read as a claim at all
    present: int = 0
    rejected_present: int = 0
    by_dim: Counter = field(default_factory=Counter)  # dim -> false acceptances
    examples: list[str] = field(default_factory=list)
    rejected_examples: list[str] = field(default_factory=list)


def measure(v: Verifier, sets: list[EvidenceSet], seed: int, n_absent: int, n_present: int) -> list[SetResult]:
    out = []
    for s in sets:
        rng = random.Random(f"{seed}:{s.name}")
        ev = v.evidence(s)
        r = SetResult(s.name)
        tries = 0
        while r.absent < n_absent and tries < n_absent * 20:
            tries += 1
            c = invent(rng, s.truths)
            if c is None or present(c, s.truths):
                continue
            r.absent += 1
            ok, claims = v.check(c.text, ev, s.user_texts)
            if ok:
                r.accepted_absent += 1
                r.unread_absent += not claims
                r.by_dim[c.form.dim] += 1
                if len(r.examples) < 6:
                    label = claims[0].backed_by if claims else "not read"
                    r.examples.append(f"`{c.text}` ← {label}")
        tries = 0
        while r.present < n_present and tries < n_present * 20:
            tries += 1
            c = restate(rng, rng.choice(s.truths))
            if c is None or not present(c, s.truths):
                continue
            r.present += 1
            ok, claims = v.check(c.text, ev, s.user_texts)
            if not ok or not claims:
                r.rejected_present += 1
                if len(r.rejected_examples) < 6:
                    r.rejected_examples.append(f"`{c.text}`" + ("" if claims else " (not read)"))
        out.append(r)
    return out


def sweep(v: Verifier, s: EvidenceSet) -> dict[str, tuple[int, int]]:
    """The issue's measure: integers 1-100 as $/hour prices and as GB, tool evidence only."""
    ev = v.module.Evidence(tool_results=s.json_results())
    truths = [t for r in s.json_results().values() for t in truths_of_json(r)]
    out = {}
    for name, form in [("$N per hour", Form("${v} per hour", "money", 1, currency="USD", period="hour")),
                       ("N GB", Form("{v} GB", "memory", 1e9, loose_scale=1e9))]:
        passed = true = 0
        for n in range(1, 101):
            c = make_claim(form, float(n), 0)
            ok, claims = v.check(c.text, ev, [])
            passed += ok and bool(claims)
            true += present(c, truths)
        out[name] = (passed, true)
    return out


# ------------------------------------------------------------------ the golden set's real answers


def golden_turns(save: Path | None) -> list[dict[str, Any]]:
    """Every turn of every golden item, asked through the real offline Advisor."""
    from assistant import Advisor
    from assistant.evaluation.golden import load_golden
    from knowledge.settings import Settings

    settings = Settings.load()
    turns: list[dict[str, Any]] = []
    try:
        Advisor(settings=settings).ask("H100 memory?")  # warm the index and catalog
    except Exception:  # noqa: BLE001 - the items report their own errors
        pass
    for item in load_golden():
        advisor = Advisor(settings=settings)
        asked: list[str] = []
        for text in item.turns:
            asked.append(text)
            try:
                answer = advisor.ask(text)
            except Exception as err:  # noqa: BLE001 - bad-input items raise by design
                turns.append({"id": item.id, "error": f"{type(err).__name__}: {err}"})
                break
            turns.append({
                "id": item.id, "user_texts": list(asked), "answer": answer.answer,
                "tool_calls": [c.model_dump(mode="json") for c in answer.tool_calls],
                # the advisor's own check: whole sections as shown, pasted texts apart (what a user sees)
                "advisor_numbers": len(answer.numbers), "advisor_unbacked": [n.text for n in answer.unbacked],
            })
    if save:
        save.write_text(json.dumps(turns, ensure_ascii=False), encoding="utf-8")
    return turns


def _turn_evidence(v: Verifier, turn: dict[str, Any]) -> Any:
    passages = []
    for call in turn["tool_calls"]:
        result = call.get("result")
        if call["name"] == "search_guidance" and isinstance(result, dict):
            for p in result.get("passages", []):
                passages.append((p["doc_id"], f"{p.get('title', '')}\n{p.get('section', '')}\n{p['text']}"))
    return v.module.Evidence.from_tool_calls(turn["tool_calls"], passages=passages)


def false_rejections(v: Verifier, turns: list[dict[str, Any]]) -> tuple[int, int, int, list[str]]:
    """(claims, unbacked, answers, examples) over every answered turn."""
    claims = unbacked = answers = 0
    examples: list[str] = []
    for turn in turns:
        if "answer" not in turn:
            continue
        answers += 1
        read = v.module.verify_numbers(turn["answer"], _turn_evidence(v, turn), turn["user_texts"])
        claims += len(read)
        for c in read:
            if c.backed_by is None:
                unbacked += 1
                if len(examples) < 40:
                    examples.append(f"{turn['id']}: `{c.text}`")
    return claims, unbacked, answers, examples


# ------------------------------------------------------------------ report


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def report(verifiers: list[Verifier], sets: list[EvidenceSet], args: argparse.Namespace,
           turns: list[dict[str, Any]] | None) -> str:
    lines = ["# Number verifier: false acceptance and false rejection", "",
             "```", " ".join(["python benchmarks/verifier.py", *sys.argv[1:]]), "```", "",
             f"Seed {args.seed}; {args.n} invented figures that are truly absent and {args.present} true figures restated, "
             f"per evidence set; {len(FORMS)} written forms over {len(DIMS)} dimensions ({', '.join(DIMS)}). "
             "A figure the verifier does not read as a claim at all is counted as let through.", ""]
    results = {v.name: measure(v, sets, args.seed, args.n, args.present) for v in verifiers}
    lines += ["## False acceptance (invented figures let through)", "",
              "| evidence set | " + " | ".join(v.name for v in verifiers) + " |",
              "|---|" + "---|" * len(verifiers)]
    for i, s in enumerate(sets):
        cells = []
        for v in verifiers:
            r = results[v.name][i]
            cells.append(f"{r.accepted_absent} of {r.absent} ({r.unread_absent} not read)")
        lines.append(f"| {s.name} | " + " | ".join(cells) + " |")
    tot = {v.name: (sum(r.accepted_absent for r in results[v.name]), sum(r.absent for r in results[v.name]))
           for v in verifiers}
    lines.append("| **all** | " + " | ".join(f"**{a} of {b}** ({_pct(a, b)})" for a, b in tot.values()) + " |")
    lines += ["", "By dimension (false acceptances, all sets):", "",
              "| dimension | " + " | ".join(v.name for v in verifiers) + " |", "|---|" + "---|" * len(verifiers)]
    for d in DIMS:
        lines.append(f"| {d} | " + " | ".join(str(sum(r.by_dim[d] for r in results[v.name])) for v in verifiers) + " |")
    for v in verifiers:
        ex = [e for r in results[v.name] for e in r.examples][:10]
        if ex:
            lines += ["", f"Examples let through by {v.name}: " + "; ".join(ex)]
    lines += ["", "## The issue's sweep (recommendation evidence, tool results only)", "",
              "| claim | truly present | " + " | ".join(f"passed: {v.name}" for v in verifiers) + " |",
              "|---|---|" + "---|" * len(verifiers)]
    sweeps = {v.name: sweep(v, sets[0]) for v in verifiers}
    for claim in ("$N per hour", "N GB"):
        true = next(iter(sweeps.values()))[claim][1]
        lines.append(f"| {claim}, N = 1…100 | {true} | " + " | ".join(str(sweeps[v.name][claim][0]) for v in verifiers) + " |")
    lines += ["", "## Synthetic false rejection (true figures restated)", "",
              "| evidence set | " + " | ".join(v.name for v in verifiers) + " |", "|---|" + "---|" * len(verifiers)]
    for i, s in enumerate(sets):
        lines.append(f"| {s.name} | " + " | ".join(
            f"{results[v.name][i].rejected_present} of {results[v.name][i].present}" for v in verifiers) + " |")
    for v in verifiers:
        ex = [e for r in results[v.name] for e in r.rejected_examples][:10]
        if ex:
            lines += ["", f"Rejected by {v.name}: " + "; ".join(ex)]
    if turns is not None:
        answered = sum(1 for t in turns if "answer" in t)
        lines += ["", "## False rejection on the golden set's real answers", "",
                  f"{answered} answered turns of the built-in golden set, offline brain as it is today "
                  "(the answers are the same for both columns; only the verifier differs).", "",
                  "| verifier | numbers read | unbacked | rate |", "|---|---|---|---|"]
        exs = {}
        for v in verifiers:
            claims, bad, _, examples = false_rejections(v, turns)
            lines.append(f"| {v.name} | {claims} | {bad} | {_pct(bad, claims)} |")
            exs[v.name] = examples
        own = [t for t in turns if "advisor_numbers" in t]
        if own:
            read = sum(t["advisor_numbers"] for t in own)
            bad = [f"{t['id']}: `{x}`" for t in own for x in t["advisor_unbacked"]]
            lines.append(f"| today, as the advisor runs it | {read} | {len(bad)} | {_pct(len(bad), read)} |")
            if bad:
                exs["today, as the advisor runs it"] = bad[:40]
        lines += ["", "The first two rows rebuild the evidence from the saved tool calls with each passage's retrieved "
                  "chunk only; the advisor gives its verifier the whole sections it shows and keeps pasted texts "
                  "apart, so its own row is what a user sees (`Answer.unbacked`, `gpu-advisor eval`'s unbacked numbers)."]
        for name, examples in exs.items():
            if examples:
                lines += ["", f"Unbacked for {name}: " + "; ".join(examples)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--n", type=int, default=N_ABSENT, help="invented absent figures per evidence set")
    ap.add_argument("--present", type=int, default=N_PRESENT, help="true figures restated per evidence set")
    ap.add_argument("--baseline", default=BASELINE_REV, help="git revision of the 'before' verifier, or 'none'")
    ap.add_argument("--no-golden", action="store_true", help="skip the golden set's real answers")
    ap.add_argument("--answers", type=Path, help="verify answers saved by --save-answers instead of asking")
    ap.add_argument("--save-answers", type=Path)
    args = ap.parse_args(argv)
    verifiers = ([] if args.baseline == "none" else [load_baseline(args.baseline)]) + [load_current()]
    t0 = time.perf_counter()
    sets = build_sets()
    turns = None
    if not args.no_golden:
        turns = json.loads(args.answers.read_text(encoding="utf-8")) if args.answers else golden_turns(args.save_answers)
    sys.stdout.write(report(verifiers, sets, args, turns))
    print(f"\nRun took {time.perf_counter() - t0:.0f} s.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
