"""Words for enum values (`term.<kind>.<value>`), the exchange rate, and price dates.

Enum-valued params are stored as their values and rendered here: billing
on_demand -> "on-demand" / "按量付费", a `PriceGrade` -> "official list price" /
"官方刊例价". Terms keep established names (LoRA, QLoRA, ZeRO-3, FSDP, AdamW).
"""

from __future__ import annotations

from tools.domain import Billing, Mode, Optimizer, PriceGrade, RegionScope, Sharding
from tools.messages.format import Formatter

_BILLING = {
    Billing.on_demand: ("on-demand", "按量付费"),
    Billing.spot: ("spot", "竞价实例"),
    Billing.monthly: ("monthly subscription", "包月"),
    Billing.yearly: ("yearly reservation", "包年"),
}
_MODE = {
    Mode.inference: ("inference", "推理"),
    Mode.full: ("full fine-tuning", "全参数微调"),
    Mode.lora: ("LoRA", "LoRA 微调"),
    Mode.qlora: ("QLoRA", "QLoRA 微调"),
    Mode.pretrain: ("pretraining", "预训练"),
}
_GRADE = {
    PriceGrade.official: ("official list price", "官方刊例价"),
    PriceGrade.user: ("user-supplied price", "用户提供的价格"),
    PriceGrade.third_party: ("third-party report", "第三方报价"),
    PriceGrade.marketplace: ("marketplace sample (changes hourly)", "算力市场报价（随时变化）"),
}
_REGION = {
    RegionScope.cn: ("mainland China", "中国大陆"),
    RegionScope.intl: ("outside mainland China", "中国大陆以外"),
    RegionScope.any: ("any region", "所有地区"),
}
_SHARDING = {
    Sharding.none: ("no sharding", "不分片"),
    Sharding.ddp: ("DDP", "DDP"),
    Sharding.zero1: ("ZeRO-1", "ZeRO-1"),
    Sharding.zero2: ("ZeRO-2", "ZeRO-2"),
    Sharding.zero3: ("ZeRO-3", "ZeRO-3"),
    Sharding.fsdp: ("FSDP", "FSDP"),
}
_OPTIMIZER = {
    Optimizer.adamw: ("AdamW", "AdamW"),
    Optimizer.adamw8bit: ("8-bit AdamW", "8-bit AdamW"),
    Optimizer.adafactor: ("Adafactor", "Adafactor"),
    Optimizer.sgd: ("SGD", "SGD"),
}
_OTHER = {
    # LoRA targets (tools.domain.LoraTargets values)
    "term.targets.attention": ("q, k, v, o", "q、k、v、o"),
    "term.targets.all-linear": ("all linear layers", "全部线性层"),
    # what an unknown name is (tools.errors.UnknownNameError.kind)
    "term.name_kind.GPU": ("GPU", "GPU"),
    "term.name_kind.model": ("model", "模型"),
    "term.name_kind.provider": ("provider", "云厂商"),
    "term.name_kind.instance": ("instance", "实例"),
    "term.name_kind.catalog entry": ("catalog entry", "目录条目"),
    "term.name_kind.entry": ("entry", "条目"),
    "term.name_kind.option": ("option", "选项"),
    # currencies in prose ("converted from USD" / "由美元换算")
    "term.currency.USD": ("USD", "美元"),
    "term.currency.CNY": ("CNY", "人民币"),
    # budget periods and billing terms
    "term.period.hour": ("per hour", "每小时"),
    "term.period.month": ("per month", "每月"),
    "term.period.job": ("for the job", "整个任务"),
    "term.term.month": ("month", "月"),
    "term.term.year": ("year", "年"),
    # where the exchange rate comes from (tools.schemas.FxSource)
    "term.fx_source.builtin": (
        "built-in default, PBOC central parity, approx.; set `GPU_ADVISOR_USD_CNY`",
        "内置默认值，参考人民银行中间价，近似；可用 `GPU_ADVISOR_USD_CNY` 设置",
    ),
    "term.fx_source.configured": ("configured in `GPU_ADVISOR_USD_CNY`", "`GPU_ADVISOR_USD_CNY` 配置值"),
}


def _terms(kind: str, table: dict) -> dict:
    return {f"term.{kind}.{member.value}": pair for member, pair in table.items()}


def _rate(zh: bool):
    def render(p: dict, f: Formatter) -> str:
        source = f.term("fx_source", p["source"]) if p.get("source") else (p.get("source_text") or "")
        when = f.date_or_unknown(p.get("as_of"))
        detail = "，".join(x for x in (source, str(when)) if x) if zh else ", ".join(x for x in (source, str(when)) if x)
        usd, cny = f.g(p.get("usd", 1)), f.g(p["cny"])
        months = p.get("months")
        if months is not None:  # aged against today: how old, and what to do when it is stale
            from tools.messages.price_age import _months  # lazy: that module's table is built from this one's

            age = _months(months, f)
            if p.get("state") == "stale":
                age += "，已过时" if zh else ", stale"  # the source term already says how to set a current rate
            detail += ("，" if zh else ", ") + age
        if zh:
            return f"{usd} 美元 = {cny} 元（{detail}）"
        return f"{usd} USD = {cny} CNY ({detail})"

    return render


MESSAGES: dict = {
    **_terms("billing", _BILLING),
    **_terms("mode", _MODE),
    **_terms("grade", _GRADE),
    **_terms("region", _REGION),
    **_terms("sharding", _SHARDING),
    **_terms("optimizer", _OPTIMIZER),
    **_OTHER,
    # the exchange rate every converted figure states (tools.schemas.ExchangeRate.note)
    "fx.rate": (_rate(False), _rate(True)),
    # a price's date (ISO), or that the source has none
    "price.as_of": ("{as_of:as_of}", "{as_of:as_of}"),
}
