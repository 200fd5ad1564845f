"""Small bilingual corpora for index tests, and an index worker to run in a real process (not a test module).

`python tests/index_helpers.py --data DIR --docs DIR [--host H --port P] [--rebuild] [PATH ...]`
builds the index of the small corpus in DOCS (no catalog cards) plus PATHs
through `knowledge.index.build_index`, and prints the report as JSON. Tests
start it with GPU_ADVISOR_TEST_KILL_AT set to kill it at a named point.
"""

from __future__ import annotations

import json
import sys
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


def live_pointer(settings):
    """The live generation's pointer: the manifest embedded, the server's pointer in server mode."""
    from knowledge.index import store
    from knowledge.index.manifest import read_manifest

    if store.server_mode(settings):
        return store.read_pointer(store.open_client(settings))
    manifest = read_manifest(settings.index_dir)
    return manifest.pointer() if manifest else None


def live_collection(settings, backend: str):
    """The Chroma collection that holds `backend`'s live vectors."""
    from knowledge.index import store

    return store.get(store.open_client(settings), live_pointer(settings).collections[backend])


def leftovers(settings) -> set[str]:
    """Chunk collections in the store that the pointer does not name (what a killed run leaves)."""
    from knowledge.index import store

    live = set(live_pointer(settings).collections.values())
    return {s.name for s in store.list_ours(store.open_client(settings))} - live


def fresh_reader(settings, said: list[str] | None = None):
    """A retriever as a new process would open it, with no builder: a broken index raises instead of being repaired."""
    from knowledge.index.hybrid import HybridRetriever
    from knowledge.index.service import backends_for

    backends, layout = backends_for(settings)
    notify = said.append if said is not None else None
    return HybridRetriever(settings, backends, layout, builder=None, notify=notify)


def answers(retriever, queries, k: int = 3) -> dict[str, list[tuple[str, str, str, str]]]:
    """(doc id, language, section, text) of the top `k` passages per query: what a user would be shown."""
    return {q: [(h.doc_id, h.lang, h.section, h.text) for h in retriever.search(q, k=k).hits] for q in queries}


# A user's note (Chinese: E5 embeds it, so a worker adding it never imports torch) and what to ask.
NOTE_ZH = "# 团队配额\n\n## 上限\n\n每个团队最多同时使用十六张 H100 显卡，超出需要提前两周申请。\n"
NOTE_DOC_ID = "local:quota-zh"
NOTE_QUERY = "团队最多同时使用多少张 H100 显卡"
QUERIES = ["竞价实例会被回收吗", "CUDA out of memory error", "NVLink versus PCIe", "显存不足怎么办", "spot checkpointing"]


def notes_folder(folder: Path, name: str = "quota.zh.md", text: str = NOTE_ZH) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    return folder


def note_found(retriever) -> bool:
    return retriever.search(NOTE_QUERY, k=1).hits[0].doc_id == NOTE_DOC_ID


def reference_answers(settings, docs: Path, notes: Path) -> dict[str, dict]:
    """What search answers for QUERIES on an index of the corpus, then after `notes` is added the normal way.

    `settings` must point at an index of the corpus alone (a copy: it gets the note).
    """
    from knowledge.index.service import build_index

    before = answers(fresh_reader(settings), QUERIES)
    build_index(settings, [notes], docs_dir=docs, include_cards=False, progress=False, notify=lambda m: None)
    return {"before": before, "after": answers(fresh_reader(settings), QUERIES)}


WORKER = Path(__file__).resolve()


def run_worker(settings, docs: Path, *paths, kill: str | None = None, rebuild: bool = False,
               lock_timeout: float = 120.0, background: bool = False, timeout: float = 180.0):
    """`python tests/index_helpers.py …` in a real process, optionally killed at a named point."""
    import os
    import subprocess

    from knowledge.index.hooks import KILL_ENV

    env = {k: v for k, v in os.environ.items() if k != KILL_ENV}
    if kill:
        env[KILL_ENV] = kill
    cmd = [sys.executable, str(WORKER), "--data", str(settings.data_dir), "--docs", str(docs),
           "--lock-timeout", str(lock_timeout), *map(str, paths)]
    if settings.chroma_host:
        cmd += ["--host", settings.chroma_host, "--port", str(settings.chroma_port)]
    if rebuild:
        cmd.append("--rebuild")
    if background:
        return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="index the small test corpus (a worker for integrity tests)")
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--docs", required=True, type=Path)
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--lock-timeout", type=float, default=120.0)
    args = parser.parse_args(argv)

    from knowledge.index.service import build_index
    from knowledge.settings import Settings

    settings = Settings.load(data_dir=args.data, chroma_host=args.host, chroma_port=args.port)
    report = build_index(settings, args.paths, rebuild=args.rebuild, progress=False, docs_dir=args.docs,
                         include_cards=False, lock_timeout=args.lock_timeout,
                         notify=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps({"embedded": report.embedded, "copied": report.copied, "removed": report.removed,
                      "chunks": report.chunks, "generation": report.generation, "notices": report.notices,
                      "warnings": report.warnings}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
