"""Agent latency: warm in-process `Advisor.ask` p50/p95 (offline brain), cold CLI wall time, where time goes.

Targets (issue 4): warm ask ≤ 300 ms p50 on a 2-core machine; cold `gpu-advisor ask` ≤ 10 s.
Run: `python benchmarks/agent_latency.py > benchmarks/agent_latency.md` (the index must exist or is built first).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict

QUESTIONS = [
    "What should I rent to finetune LLaMA-13B under ¥20k/month?",
    "我想微调 LLaMA-13B，预算每月2万元，租什么服务器？",
    "How much GPU memory does Qwen2.5-7B need for inference?",
    "How much VRAM to QLoRA fine-tune Llama-2-70B?",
    "全量微调 Llama-2-7B 需要多少显存？",
    "When should I use spot instances?",
    "BF16 和 FP16 有什么区别？",
    "What is the memory bandwidth of the H100?",
    "How long to fully fine-tune Llama-2-7B on 1e9 tokens with 8x A100-80GB?",
    "How much does aws p4d.24xlarge cost per month in CNY?",
    "Full fine-tune of Llama-2-70B for $500/month",
    "What's a good recipe for dumplings?",
]
ROUNDS = 3


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    from assistant import Advisor

    Advisor().ask("warm up: Qwen2.5-7B inference memory?")  # loads catalog, model, index
    totals: list[float] = []
    steps: dict[str, list[float]] = defaultdict(list)
    for _ in range(ROUNDS):
        for q in QUESTIONS:
            t = time.perf_counter()
            answer = Advisor().ask(q)
            totals.append(time.perf_counter() - t)
            for k, v in answer.timings.items():
                steps[k].append(v)

    cold = []
    for q in QUESTIONS[:3]:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ui.cli", "ask", q], check=True, capture_output=True, env=os.environ)
        cold.append(time.perf_counter() - t)

    print("# Agent latency (offline brain)\n")
    print(f"Machine: {os.cpu_count()} cores. {ROUNDS} rounds × {len(QUESTIONS)} questions, warm, in-process.\n")
    print("| measure | p50 | p95 | target |")
    print("|---|---|---|---|")
    print(f"| warm `Advisor.ask` | {pct(totals, .5) * 1000:.0f} ms | {pct(totals, .95) * 1000:.0f} ms | ≤ 300 ms p50 |")
    print(f"| cold `gpu-advisor ask` (new process) | {pct(cold, .5):.1f} s | {max(cold):.1f} s (max) | ≤ 10 s |")
    print("\n## Where the warm time goes (per question, p50)\n")
    print("| step | p50 | p95 |")
    print("|---|---|---|")
    for k in sorted(steps, key=lambda k: -statistics.median(steps[k])):
        print(f"| {k} | {pct(steps[k], .5) * 1000:.1f} ms | {pct(steps[k], .95) * 1000:.1f} ms |")
    print("\n`agent` is the whole LangChain loop (brain + tools); `tool:*` are summed per tool; `verify` is the number check.")


if __name__ == "__main__":
    main()
