"""Measure activation memory per training sample for the non-transformer models.

Developer tool behind the `activation_profile` rows of models.yaml; never
imported at run time. It builds each published architecture on PyTorch's
``meta`` device (shapes only: no weights, no downloads, no GPU), runs one
training-mode forward pass, and sums the storage bytes autograd saves for
backward, leaving out the parameters. The per-sample figure is the batch-2
total minus the batch-1 total, so constant parts (weight views, buffers)
cancel. fp32; attention scores are stored (the classic kernels), so
FlashAttention/xformers runs need less -- the catalog notes say so.

    python -m knowledge.catalog.measure_activations            # prints JSON
    python -m knowledge.catalog.measure_activations --only resnet-50

Needs `transformers` (a dependency) and, for the Stable Diffusion rows,
`diffusers` (not a dependency: ``pip install --target /tmp/d diffusers`` and
put that folder on PYTHONPATH).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable

import torch


def saved_activation_bytes(model: torch.nn.Module, inputs: dict[str, Any]) -> int:
    """Bytes of the distinct storages autograd keeps for backward, parameters excluded."""
    param_ids = {id(p) for p in model.parameters()}
    sizes: dict[int, int] = {}
    keep: list[torch.Tensor] = []  # hold references so freed storages are not reused (and double-counted)

    def pack(t: torch.Tensor) -> None:
        if id(t) in param_ids:
            return None
        storage = t.untyped_storage()
        if storage._cdata not in sizes:
            sizes[storage._cdata] = storage.nbytes()
            keep.append(t)
        return None

    def unpack(_: Any) -> torch.Tensor:  # backward is never run
        raise RuntimeError("measurement only")

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        model(**inputs)
    return sum(sizes.values())


def peak_live_bytes(model: torch.nn.Module, inputs: dict[str, Any]) -> int:
    """Peak bytes of the distinct storages alive at once during an eval-mode, no-grad forward (parameters and
    buffers excluded): what inference holds, since nothing is kept for backward and each op's output dies with its
    last reference. Counted by a TorchDispatchMode: every op output's storage is added when it is made and removed
    when the last tensor over it is collected."""
    import weakref

    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten

    fixed = {t.untyped_storage()._cdata for t in [*model.parameters(), *model.buffers()]}

    class _Live(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.refs: dict[int, int] = {}
            self.size: dict[int, int] = {}
            self.live = self.peak = 0

        def _drop(self, key: int) -> None:
            self.refs[key] -= 1
            if self.refs[key] == 0:
                self.live -= self.size.pop(key)
                del self.refs[key]

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for t in tree_flatten(out)[0]:
                if isinstance(t, torch.Tensor) and (key := t.untyped_storage()._cdata) not in fixed:
                    if key not in self.size:
                        self.size[key] = t.untyped_storage().nbytes()
                        self.refs[key] = 0
                        self.live += self.size[key]
                    self.refs[key] += 1
                    weakref.finalize(t, self._drop, key)
            self.peak = max(self.peak, self.live)
            return out

    with torch.no_grad(), _Live() as mode:
        model(**inputs)
    return mode.peak


def inference_per_sample(model: torch.nn.Module, make: Callable[[int], dict[str, Any]]) -> dict[str, int]:
    """The eval-mode working set per sample: batch-2 peak minus batch-1 peak (`peak_live_bytes`)."""
    model = model.eval()
    b1, b2 = peak_live_bytes(model, make(1)), peak_live_bytes(model, make(2))
    return {"inference_bytes_per_sample": b2 - b1, "inference_batch1_bytes": b1}


def per_sample(model: torch.nn.Module, make: Callable[[int], dict[str, Any]]) -> dict[str, int]:
    b1 = saved_activation_bytes(model, make(1))
    b2 = saved_activation_bytes(model, make(2))
    return {"bytes_per_sample": b2 - b1, "batch1_bytes": b1, "params": sum(p.numel() for p in model.parameters())}


def _meta(build: Callable[[], torch.nn.Module]) -> torch.nn.Module:
    with torch.device("meta"):
        return build().train()


def _t(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.zeros(*shape, dtype=dtype, device="meta")


def models() -> dict[str, tuple[Callable[[], torch.nn.Module], Callable[[int], dict[str, Any]]]]:
    from transformers import (
        ResNetConfig, ResNetForImageClassification, ViTConfig, ViTForImageClassification,
        WhisperConfig, WhisperForConditionalGeneration,
    )

    def whisper(d: int, layers: int, heads: int, ffn: int, mels: int, vocab: int):
        cfg = WhisperConfig(d_model=d, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
                            decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, num_mel_bins=mels,
                            vocab_size=vocab, max_source_positions=1500, max_target_positions=448, attn_implementation="eager")
        make = lambda b: {"input_features": _t(b, mels, 3000), "labels": _t(b, 448, dtype=torch.long)}  # noqa: E731
        return (lambda: WhisperForConditionalGeneration(cfg)), make

    image = lambda b: {"pixel_values": _t(b, 3, 224, 224)}  # noqa: E731
    out = {
        # microsoft/resnet-50 (ResNet-50 v1.5)
        "resnet-50": (lambda: ResNetForImageClassification(ResNetConfig(
            num_channels=3, embedding_size=64, hidden_sizes=[256, 512, 1024, 2048], depths=[3, 4, 6, 3],
            layer_type="bottleneck", hidden_act="relu", downsample_in_first_stage=False, num_labels=1000)), image),
        "vit-b-16": (lambda: ViTForImageClassification(ViTConfig(attn_implementation="eager")), image),
        "vit-l-16": (lambda: ViTForImageClassification(ViTConfig(
            hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, attn_implementation="eager")), image),
        "whisper-large-v3": whisper(1280, 32, 20, 5120, 128, 51866),
        "whisper-small": whisper(768, 12, 12, 3072, 80, 51865),
    }
    try:
        from diffusers import UNet2DConditionModel
        from diffusers.models.attention_processor import AttnProcessor
    except ImportError:
        return out

    def unet(cfg: dict[str, Any]) -> Callable[[], torch.nn.Module]:
        def build() -> torch.nn.Module:
            m = UNet2DConditionModel(**cfg)
            m.set_attn_processor(AttnProcessor())  # classic attention: scores stored
            return m
        return build

    sd15 = dict(sample_size=64, layers_per_block=2, block_out_channels=(320, 640, 1280, 1280),
                down_block_types=("CrossAttnDownBlock2D",) * 3 + ("DownBlock2D",),
                up_block_types=("UpBlock2D",) + ("CrossAttnUpBlock2D",) * 3, cross_attention_dim=768, attention_head_dim=8)
    sdxl = dict(sample_size=128, layers_per_block=2, block_out_channels=(320, 640, 1280),
                down_block_types=("DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"),
                up_block_types=("CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"),
                transformer_layers_per_block=(1, 2, 10), attention_head_dim=(5, 10, 20), cross_attention_dim=2048,
                use_linear_projection=True, addition_embed_type="text_time", addition_time_embed_dim=256,
                projection_class_embeddings_input_dim=2816)
    out["sd-1.5"] = (unet(sd15), lambda b: {"sample": _t(b, 4, 64, 64), "timestep": torch.tensor(10.0, device="meta"), "encoder_hidden_states": _t(b, 77, 768)})
    out["sdxl"] = (unet(sdxl), lambda b: {
        "sample": _t(b, 4, 128, 128), "timestep": torch.tensor(10.0, device="meta"), "encoder_hidden_states": _t(b, 77, 2048),
        "added_cond_kwargs": {"text_embeds": _t(b, 1280), "time_ids": _t(b, 6)}})
    return out


# Inference inputs where they differ from training's: Whisper transcribes 30 s windows (128 or 80 mel x 3000 frames)
# and generate() starts the decoder from its prompt tokens; no labels
INFERENCE_INPUTS: dict[str, Callable[[int], dict[str, Any]]] = {
    "whisper-large-v3": lambda b: {"input_features": _t(b, 128, 3000), "decoder_input_ids": _t(b, 1, dtype=torch.long)},
    "whisper-small": lambda b: {"input_features": _t(b, 80, 3000), "decoder_input_ids": _t(b, 1, dtype=torch.long)},
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="activation bytes per training sample (fp32, meta device)")
    ap.add_argument("--only", help="one model key")
    args = ap.parse_args(argv)
    results = {}
    for key, (build, make) in models().items():
        if args.only and key != args.only:
            continue
        results[key] = per_sample(_meta(build), make)
        if key in INFERENCE_INPUTS:  # generation's first step: the encoder over the input, the decoder over one token
            results[key] |= inference_per_sample(_meta(build), INFERENCE_INPUTS[key])
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
