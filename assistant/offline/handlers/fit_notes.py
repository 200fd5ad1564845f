"""The notes a fit answer is made of: the verdict on the user's hardware, the cheapest change that makes the job fit,
the memory breakdown, and what to look up for each mode's caveats.

Shared by the memory, feasibility, training-time and recommendation answers (they compose these notes from
`estimate_vram` results); it imports no handler, so every handler can import it.
"""

from __future__ import annotations

from typing import Any

from assistant.offline.handlers.base import AnswerCode
from tools.messages import render_change, render_component
from tools.notes import Change, Note, NoteCode

TOPIC = {  # what to look up for the caveats of each mode (en, zh)
    "lora": ("LoRA QLoRA memory saving fine-tuning", "LoRA QLoRA 省显存 微调"),
    "qlora": ("QLoRA 4-bit quantization memory", "QLoRA 4-bit 量化 显存"),
    "full": ("full fine-tuning memory optimizer states mixed precision ZeRO", "全量微调 显存 优化器状态 混合精度 ZeRO"),
    "pretrain": ("pretraining memory multi-GPU ZeRO", "预训练 显存 多卡 ZeRO"),
    "inference": ("inference memory KV cache quantization", "推理 显存 KV cache 量化"),
}


class FeasCode(NoteCode):
    yes = "feas.yes"
    no = "feas.no"
    change = "feas.change"
    other_changes = "feas.other_changes"
    change_item = "feas.change_item"
    nothing = "feas.nothing"
    target_yes = "feas.target_yes"
    target_no = "feas.target_no"
    some = "feas.some"


def breakdown_note(vram: dict[str, Any], lang: str) -> Note | None:
    parts = [p for p in vram.get("breakdown") or [] if p.get("gib", 0) > 0.05]
    if not parts:
        return None
    rendered = ("、" if lang == "zh" else ", ").join(
        f"{render_component(p['component'], p.get('precision'), lang)} {p['gib']:,.1f} GiB" for p in parts
    )
    return Note.of(AnswerCode.breakdown, mode=vram.get("mode"), precision=vram.get("precision"), parts=rendered,
                   total_gib=vram.get("per_gpu_gib"))


def change_note(change: dict[str, Any], lang: str, on: str | None = None) -> Note:
    """The cheapest change that makes it fit; `on` names the hardware when the answer lists several."""
    return Note.of(FeasCode.change, change=render_change(Change.model_validate(change["change"]), lang),
                   needed_gib=change["per_gpu_gib"], headroom_gib=change["headroom_gib"], on=on)


def _target_params(t: dict[str, Any]) -> dict[str, Any]:
    target = t["target"]
    count = target.get("count", 1)
    return dict(gpu=target.get("gpu"), count=count, available_gib=target.get("available_gib"),
                layout=t.get("layout"), needed_gib=t["per_gpu_gib"], usable_gib=target["usable_gib"],
                # a sharded job's memory adds up over the GPUs; a data-parallel copy per GPU has no total worth saying
                total_gib=round(t["per_gpu_gib"] * count, 1) if count > 1 and t.get("layout") != "ddp" else None)


def verdict(t: dict[str, Any], model: str, mode: str) -> Note:
    p = _target_params(t)
    if t["fits"]:
        return Note.of(FeasCode.yes, model=model, mode=mode, headroom_gib=t["headroom_gib"], **p)
    return Note.of(FeasCode.no, model=model, mode=mode, short_gib=-t["headroom_gib"], **p)


def target_line(t: dict[str, Any]) -> Note:
    return Note.of(FeasCode.target_yes if t["fits"] else FeasCode.target_no, **_target_params(t))


def target_label(t: dict[str, Any]) -> str:
    target = t["target"]
    name = target.get("gpu") or f"{target.get('available_gib'):g} GB"
    return f"{target.get('count', 1)}× {name}" if target.get("count", 1) > 1 else name
