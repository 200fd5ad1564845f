"""Workload flags shared by `vram`, `train-time` and `recommend`.

`add_workload_args(parser)` adds the model choice (--model | --params |
--config) and how it runs; `workload_from_args(args, catalog)` turns them into
a `ModelSpec` and a `VramRequest`. Flags that were not given stay None so the
calculators can report their defaults as assumptions.
"""

from __future__ import annotations

import argparse
import math
import re

from pydantic import ValidationError

from tools.catalog import Catalog
from tools.domain import (
    Checkpointing,
    LoraTargets,
    MasterWeights,
    Mode,
    ModelSpec,
    Offload,
    Optimizer,
    Precision,
    Sharding,
)
from tools.errors import InputError
from tools.schemas import VramRequest
from tools.vram_shape import model_from_params

# Multipliers for parameter counts: English suffixes and Chinese units
# (万 = 10^4, 亿 = 10^8, 万亿 = 10^12; 千亿 = 10^11).
_SUFFIX = {
    "": 1.0,
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "t": 1e12,
    "trillion": 1e12,
    "千": 1e3,
    "万": 1e4,
    "百万": 1e6,
    "千万": 1e7,
    "亿": 1e8,
    "十亿": 1e9,
    "百亿": 1e10,
    "千亿": 1e11,
    "万亿": 1e12,
}
_PARAMS_RE = re.compile(r"^([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([a-z\u4e00-\u9fff]*)$")
_NOISE = re.compile(r"(parameters|parameter|params|param|参数量|参数|个|[,_\s])", re.IGNORECASE)


def parse_params(text: str) -> float:
    """'13e9', '13B', '7b', '130亿', '1.5万亿', '350M', '13,000,000,000' → a parameter count."""
    raw = str(text)
    cleaned = _NOISE.sub("", raw.strip().lower())
    m = _PARAMS_RE.match(cleaned)
    if not m or m.group(2) not in _SUFFIX:
        raise InputError(
            f"Cannot read parameter count '{raw}'. Give a number with an optional unit, "
            "e.g. 13e9, 13B, 7b, 350M or 130亿."
        )
    value = float(m.group(1)) * _SUFFIX[m.group(2)]
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"Parameter count must be a positive finite number, got '{raw}'.")
    if value < 1e5:
        raise InputError(
            f"Parameter count '{raw}' = {value:g} is implausibly small; did you mean {raw}B (billions)?"
        )
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def add_model_args(parser: argparse.ArgumentParser) -> None:
    """--model | --params | --config (exactly one)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--model", help="catalog model name or alias, e.g. llama-13b, qwen2.5-7b")
    group.add_argument("--params", help="a raw parameter count: 13e9, 13B, 7b, 130亿 (standard decoder shape assumed)")
    group.add_argument("--config", metavar="PATH", help="a Hugging Face config.json")


def add_workload_args(parser: argparse.ArgumentParser) -> None:
    """Every workload flag: model choice, mode, precision, batch, sharding, …"""
    add_model_args(parser)
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=None,
                        help="inference (default), full, lora, qlora, pretrain")
    parser.add_argument("--precision", choices=[p.value for p in Precision], default=None,
                        help="weights/compute precision (default bf16; nf4 for qlora)")
    parser.add_argument("--master-weights", choices=[m.value for m in MasterWeights], default=None,
                        help="fp32 (mixed precision, default) or none (pure 16-bit training)")
    parser.add_argument("--optimizer", choices=[o.value for o in Optimizer], default=None, help="default adamw")
    parser.add_argument("--batch-size", type=positive_int, default=None,
                        help="micro-batch per GPU for training; concurrent sequences for inference (default 1)")
    parser.add_argument("--seq-len", type=positive_int, default=None,
                        help="tokens per sequence, prompt + output (default 2048)")
    parser.add_argument("--target-len", type=positive_int, default=None,
                        help="encoder-decoder models (T5, BART): target tokens the decoder runs over, the labels' "
                             "padded length (default: the same as --seq-len)")
    parser.add_argument("--lora-rank", type=positive_int, default=None, help="default 16")
    parser.add_argument("--lora-targets", choices=[t.value for t in LoraTargets], default=None,
                        help="attention (q,k,v,o) or all-linear (default)")
    parser.add_argument("--gpus", type=positive_int, default=None, help="GPUs the job is spread over (default 1)")
    parser.add_argument("--sharding", choices=[s.value for s in Sharding], default=None,
                        help="none, ddp, zero1, zero2, zero3, fsdp")
    parser.add_argument("--tp", type=positive_int, default=None, help="tensor-parallel degree")
    parser.add_argument("--pp", type=positive_int, default=None, help="pipeline-parallel degree")
    parser.add_argument("--offload", choices=[o.value for o in Offload], default=None,
                        help="cpu: optimizer states (and ZeRO-3 params) in host RAM")
    parser.add_argument("--checkpointing", choices=[c.value for c in Checkpointing], default=None,
                        help="activation checkpointing (default: full for training, none for inference)")
    parser.add_argument("--no-flash-attention", dest="flash_attention", action="store_false", default=None,
                        help="count the attention-score tensors (eager attention)")
    parser.add_argument("--chunked-loss", dest="chunked_loss", action="store_true", default=None,
                        help="chunked/fused LM loss (torchtune, LitGPT, Unsloth, Liger): ~4 instead of ~14 bytes per logit")
    parser.add_argument("--kbit-prepare", dest="kbit_prepare", action="store_true", default=None,
                        help="QLoRA/LoRA on a bitsandbytes base prepared by PEFT's prepare_model_for_kbit_training "
                        "(HF Trainer/TRL on one GPU): non-quantised weights and the residual stream in fp32")
    parser.add_argument("--autocast", dest="autocast", action=argparse.BooleanOptionalAction, default=None,
                        help="torch autocast around forward and loss: --autocast for HF Trainer bf16/fp16=True over "
                        "16-bit weights, --no-autocast for a plain loop (default: inferred from the precision layout)")
    parser.add_argument("--foreach-step", dest="foreach_step", action="store_true", default=None,
                        help="torch's foreach AdamW step (torch >= 2 default; HF adamw_torch): one more state-sized "
                        "buffer during the step")
    parser.add_argument("--ac-option", dest="ac_option", type=_ac_option, default=None, metavar="op|N",
                        help="with --checkpointing selective: torchtitan's selective_ac_option, 'op' (save the matmul "
                        "and attention outputs its policy lists) or N (checkpoint every N-th layer)")
    parser.add_argument("--grads-to-none", dest="grads_to_none", action="store_true", default=None,
                        help="gradients freed after each step (torch >= 2 zero_grad(set_to_none=True), HF Trainer)")
    parser.add_argument("--kbit-recast-bf16", dest="kbit_recast_bf16", action="store_true", default=None,
                        help="with --kbit-prepare: TRL SFTTrainer bf16=True casts embeddings and LM head back to bf16")
    parser.add_argument("--no-double-quant", dest="bnb_double_quant", action="store_false", default=None,
                        help="bitsandbytes 4-bit without double quantisation (load_in_4bit's default: 4.5 bits a weight)")
    parser.add_argument("--bnb-compute-fp32", dest="bnb_compute_fp32", action="store_true", default=None,
                        help="bitsandbytes 4-bit computing in fp32 (BitsAndBytesConfig's default compute dtype)")
    parser.add_argument("--vocab-parallel-loss", dest="vocab_parallel_loss", action="store_true", default=None,
                        help="training: Megatron-LM's vocab-parallel cross entropy (in place, about 6 B per logit, the "
                        "vocabulary split over the tensor-parallel ranks)")
    parser.add_argument("--logits-upcast", dest="logits_upcast", action=argparse.BooleanOptionalAction, default=None,
                        help="training: whether the loss casts the logits to fp32 first (--no-logits-upcast: a loss written "
                        "in the training script on 16-bit logits); default: the model family's HF implementation")


def _ac_option(text: str) -> str | int:
    if text == "op":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected 'op' or a whole number of layers (2 = every other layer)") from None


def model_from_args(args: argparse.Namespace, catalog: Catalog | None) -> ModelSpec:
    """The model named by --model, counted by --params, or read from --config."""
    if getattr(args, "model", None):
        if catalog is None:
            raise InputError("No model catalog is available; use --params 13B or --config PATH.")
        return catalog.model(args.model)
    if getattr(args, "params", None):
        return model_from_params(parse_params(args.params))
    if getattr(args, "config", None):
        from knowledge.catalog import model_from_hf_config  # lazy: only this path reads files

        return model_from_hf_config(args.config)
    raise InputError("Say which model: --model NAME, --params 13B, or --config path/to/config.json.")


_REQUEST_FIELDS = (
    "mode", "precision", "master_weights", "optimizer", "batch_size", "seq_len", "target_len", "lora_rank", "lora_targets",
    "gpus", "sharding", "tp", "pp", "offload", "checkpointing", "flash_attention", "chunked_loss", "kbit_prepare",
    "autocast", "foreach_step", "ac_option", "grads_to_none", "kbit_recast_bf16", "bnb_double_quant", "bnb_compute_fp32",
    "logits_upcast", "vocab_parallel_loss",
)


def request_from_args(args: argparse.Namespace) -> VramRequest:
    """A VramRequest with only the flags that were given (the rest stay model defaults)."""
    given = {f: getattr(args, f) for f in _REQUEST_FIELDS if getattr(args, f, None) is not None}
    try:
        return VramRequest(**given)
    except ValidationError as err:
        raise InputError(_flag_errors(err)) from None


def _flag_errors(err: ValidationError) -> str:
    """Pydantic errors in the user's terms: '--batch-size: …', or the validator's own sentence."""
    parts = []
    for e in err.errors():
        msg = e["msg"].removeprefix("Value error, ")
        if e["loc"]:
            parts.append(f"--{str(e['loc'][0]).replace('_', '-')}: {msg}")
        else:
            parts.append(msg)
    return "; ".join(parts)


def workload_from_args(args: argparse.Namespace, catalog: Catalog | None) -> tuple[ModelSpec, VramRequest]:
    """(model, request) from the workload flags; raises InputError with a fix on bad input."""
    request = request_from_args(args)  # validate flags first: cheaper and clearer than a model lookup
    return model_from_args(args, catalog), request
