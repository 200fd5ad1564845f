"""Small bilingual corpora for index tests (not a test module)."""

from __future__ import annotations

from pathlib import Path

SPOT_EN = """---
id: billing-modes
title: Billing modes
lang: en
topics: [billing, spot]
---
# Billing modes

## On-demand

Pay by the hour with no commitment. Best for short experiments and unpredictable workloads.

## Spot instances

Spot or preemptible instances cost 10 to 30 percent of the on-demand price but the provider can reclaim them at any time.

## Checkpointing on spot

Save model and optimizer state every 30 minutes to durable storage so an interrupted job resumes where it stopped.
"""

SPOT_ZH = """---
id: billing-modes
title: 计费方式
lang: zh
topics: [billing, spot]
---
# 计费方式

## 按量付费

按小时计费，没有长期承诺，适合短期实验和负载不确定的任务。

## 竞价实例

竞价实例的价格只有按量付费的一到三成，但云厂商随时可能回收。

## 竞价实例上的检查点

每三十分钟把模型和优化器状态保存到持久化存储，任务被中断后可以从断点续训。
"""

VRAM_EN = """---
id: vram
title: GPU memory (VRAM)
lang: en
topics: [vram, oom]
---
# GPU memory (VRAM)

## What fills memory

Weights, gradients, optimizer states and activations share the card's memory. Mixed-precision Adam needs about 16 bytes per parameter.

## Out of memory errors

When a job needs more memory than the card has it stops with a CUDA out of memory (OOM) error. Lower the batch size or enable gradient checkpointing.
"""

VRAM_ZH = """---
id: vram
title: 显存（VRAM）
lang: zh
topics: [vram, oom]
---
# 显存（VRAM）

## 显存被什么占用

权重、梯度、优化器状态和激活值共同占用显存。混合精度的 Adam 每个参数大约需要 16 字节。

## 显存不足（OOM）

任务需要的显存超过显卡容量时会报 CUDA out of memory 错误。可以调小批量大小或开启梯度检查点。
"""

NETWORK_EN = """---
id: network
title: Network and interconnect
lang: en
topics: [network, multi-gpu]
---
# Network and interconnect

## NVLink versus PCIe

NVLink connects GPUs inside one server at hundreds of GB/s; PCIe is much slower for all-reduce traffic.

## InfiniBand between nodes

Multi-node training needs InfiniBand or RoCE RDMA networking so that gradients synchronise fast.
"""

CORPUS = {
    "billing-modes.en.md": SPOT_EN,
    "billing-modes.zh.md": SPOT_ZH,
    "vram.en.md": VRAM_EN,
    "vram.zh.md": VRAM_ZH,
    "network.en.md": NETWORK_EN,
}


def write_corpus(folder: Path, files: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (files or CORPUS).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder
