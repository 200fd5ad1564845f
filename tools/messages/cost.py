"""The cost calculator (`tools.cost.CostCode`): assumptions and the remark on each billing line."""

from __future__ import annotations

MESSAGES: dict = {
    "cost.hours_given": ("Hours: {hours:g} h as given.", "时长：按给定的 {hours:g} 小时计。"),
    "cost.hours_schedule": ("Hours: schedule {hours_per_day:g} h/day × {days:g} days = {hours:g} h.",
                            "时长：每天 {hours_per_day:g} 小时 × {days:g} 天 = {hours:g} 小时。"),
    "cost.hours_days": ("Hours: {days:g} days around the clock = {hours:g} h.", "时长：{days:g} 天全天运行 = {hours:g} 小时。"),
    "cost.hours_month": ("Hours: one month = {hours:g} h ({year_hours:g} h / {months}), no hours or schedule given.",
                         "时长：未给出时长或作息，按一个月 = {hours:g} 小时（{year_hours:g} 小时 / {months}）计。"),
    "cost.instances": ("{instances} instances (nodes) billed together.", "{instances} 台实例（节点）合并计费。"),
    "cost.spot_formula": (
        "Spot expected cost = price × hours / (1 − λ·w), λ = {interruptions_per_day:g} interruptions/day ÷ 24, "
        "w = checkpoint interval {checkpoint_hours:g} h ÷ 2 + restart overhead {restart_hours:g} h lost per interruption.",
        "竞价实例预期费用 = 单价 × 时长 / (1 − λ·w)，λ = 每天 {interruptions_per_day:g} 次中断 ÷ 24，"
        "w = 检查点间隔 {checkpoint_hours:g} 小时 ÷ 2 + 重启开销 {restart_hours:g} 小时（每次中断损失）。",
    ),
    "cost.terms_per_month": ("Monthly/yearly terms: shown per month (yearly ÷ 12).", "包月/包年：按每月折算显示（包年 ÷ 12）。"),
    "cost.terms_whole": ("Monthly/yearly terms are paid whole: hours round up to {month_hours:g} h months / {year_hours:g} h years.",
                         "包月/包年按整期付费：时长向上取整到 {month_hours:g} 小时/月、{year_hours:g} 小时/年。"),
    "cost.converted": ("Converted at {rate}.", "换算汇率：{rate}。"),
    "cost.no_price": ("No {billing:billing} price for {provider}/{instance} in the catalog: total is unknown "
                      "(check the provider's console).",
                      "目录中没有 {provider}/{instance} 的{billing:billing}价格：总价未知（请到云厂商控制台查询）。"),
    "cost.job": (
        "Job: {model}, {mode:mode}, {tokens:big} tokens × {epochs:count:epoch} on {gpus} × {gpu} at MFU {mfu:.2f} "
        "({mfu_source}) = {hours:hours}.",
        "任务：{model}，{mode:mode}，{tokens:big} token × {epochs:g} 个 epoch，{gpus} 张 {gpu}，MFU {mfu:.2f}"
        "（{mfu_source}）= {hours:hours}。",
    ),
    "cost.line_no_price": ("no price in the catalog: check the provider's console", "目录中没有价格：请到云厂商控制台查询"),
    "cost.term_per_month": ("{term:term}ly term shown per month ({monthly:money_m})", "按每月折算（{monthly:money_m}）"),
    "cost.term_whole": ("paid in whole {term:term}s: {hours:g} h is billed as {billed_hours:g} h",
                        "按整{term:term}计费：{hours:g} 小时按 {billed_hours:g} 小时收费"),
    "cost.spot_never": ("{interruptions_per_day:g} interruptions/day each losing {lost_hours:g} h: the job never finishes; "
                        "checkpoint more often",
                        "每天 {interruptions_per_day:g} 次中断、每次损失 {lost_hours:g} 小时：任务永远完成不了，请更频繁地保存检查点"),
    "cost.spot_rework": ("expected {rework_hours:.2f} h of rework after interruptions ({paid_hours:.2f} h paid)",
                         "中断后预计返工 {rework_hours:.2f} 小时（共付费 {paid_hours:.2f} 小时）"),
}
