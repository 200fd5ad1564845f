"""Language of the answers (issue 10): English left in Chinese answers, and CLI flags in any chat answer.

For the eight everyday Chinese questions of issue 10 and the scored (last) answer of every Chinese golden item,
the Latin-script words left after removing the closed list of names and terms (`assistant/evaluation/latin_words.py`:
catalog names read from the catalog, the committed `assistant/evaluation/terms.txt`, URLs, code, Markdown).
Targets: median ≤ 3, worst ≤ 10. Then every answer of every turn of every golden item, in both languages, and the
eight questions, scanned for a CLI flag (`--mode`, `--gpus`, any `--[a-z]`). Target: none.

It runs the real `Advisor` with the offline brain, a fresh conversation per question or item, on two threads.
Run: `python benchmarks/language.py > benchmarks/language.md`.
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Issue 10 "The eight questions, for your benchmark", verbatim.
ISSUE_QUESTIONS = [
    "我想在每月2万元预算内微调LLaMA-13B，该租什么GPU服务器？",
    "Qwen2.5-7B 用 QLoRA 微调需要多少显存？",
    "用 64 张 A100 预训练 7B 模型，1T token 要多久？",
    "阿里云和腾讯云哪个适合做大模型训练？",
    "部署 Llama-3-70B 推理，INT4 量化，需要几张卡？",
    "竞价实例适合什么训练任务？",
    "全参数微调 Qwen2.5-14B，8 张 A800 够吗？",
    "每小时预算 50 元，租什么卡跑 SDXL 训练？",
]
TARGET_MEDIAN = 3
TARGET_WORST = 10
WORST_SHOWN = 8
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
CODE = re.compile(r"(```|~~~).*?(?:\1|\Z)|`[^`\n]*`", re.DOTALL)


def our_flags() -> set[str]:
    """Every option string of `gpu-advisor` and its subcommands (read from the real parser)."""
    import argparse

    from ui.cli import build_parser

    flags: set[str] = set()
    stack = [build_parser()]
    while stack:
        parser = stack.pop()
        for action in parser._actions:  # noqa: SLF001 - argparse has no public walk
            flags.update(o for o in action.option_strings if o.startswith("--"))
            if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
                stack.extend(action.choices.values())
    return flags


@dataclass
class Conversation:
    key: str  # "issue-10 #n" or a golden id
    lang: str
    turns: list[str]
    answers: list[str] = field(default_factory=list)
    error: str | None = None


def _run(conv: Conversation, settings) -> Conversation:
    from assistant import Advisor

    try:
        advisor = Advisor(settings=settings)
        for turn in conv.turns:
            conv.answers.append(advisor.ask(turn).answer)
    except Exception as err:  # noqa: BLE001 - reported in the table, the run goes on
        conv.error = f"{err.__class__.__name__}: {err}"
    return conv


def _one_line(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True,
                               check=True).stdout.strip()
        return out + (" + uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    from assistant.evaluation.golden import load_golden
    from assistant.evaluation.latin_words import counter_for
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    settings = Settings.load(llm="offline")
    counter = counter_for(load_catalog(settings))
    golden = load_golden()
    convs = [Conversation(f"issue-10 #{n}", "zh", [q]) for n, q in enumerate(ISSUE_QUESTIONS, start=1)]
    convs += [Conversation(i.id, i.lang, list(i.turns)) for i in golden]

    from assistant import Advisor

    Advisor(settings=settings).ask("H100 显存多大？")  # load catalog, index and models outside the timed run
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="lang") as pool:
        convs = list(pool.map(lambda c: _run(c, settings), convs))
    wall = time.perf_counter() - t0

    scored = [c for c in convs if c.lang == "zh" and c.answers and not c.error]
    rows = [(c, counter.leftover(c.answers[-1])) for c in scored]
    issue_rows = [(c, w) for c, w in rows if c.key.startswith("issue-10")]
    golden_rows = [(c, w) for c, w in rows if not c.key.startswith("issue-10")]
    errors = [c for c in convs if c.error]

    def stats(group):
        counts = [len(w) for _, w in group]
        if not counts:
            return "n/a", "n/a", "n/a"
        return f"{statistics.median(counts):g}", str(max(counts)), f"{sum(n <= TARGET_MEDIAN for n in counts)}/{len(counts)}"

    ours = our_flags()
    flags = []
    for c in convs:
        for n, text in enumerate(c.answers, start=1):
            code = [m.span() for m in CODE.finditer(text)]
            for m in FLAG.finditer(text):
                in_code = any(a <= m.start() < b for a, b in code)
                flags.append((c, n, m.group(0), text[max(0, m.start() - 40): m.end() + 30], in_code, m.group(0) in ours))

    out = ["# Language of the answers (issue 10)", ""]
    out += ["```", "python benchmarks/language.py > benchmarks/language.md", "```", ""]
    out += [f"Run {dt.datetime.now(dt.timezone.utc).isoformat(timespec='seconds')} on commit {_commit()}; offline brain, "
            f"{len(convs)} conversations ({sum(len(c.turns) for c in convs)} turns) in {wall:.0f} s on 2 threads.", ""]
    out += ["Leftover Latin words = the words of an answer in Latin script after removing catalog names (read from the "
            "catalog), the committed term list `assistant/evaluation/terms.txt`, URLs, code spans and Markdown "
            "(`assistant/evaluation/latin_words.py`). Targets: median ≤ 3 and worst ≤ 10 per Chinese answer; "
            "no CLI flag in any chat answer.", ""]
    out += ["## Summary", "", "| set | answers | median | worst | answers ≤ 3 | target |", "|---|---|---|---|---|---|"]
    for name, group in (("issue 10's eight questions", issue_rows), ("Chinese golden items (last answer)", golden_rows),
                        ("both", rows)):
        med, worst, ok = stats(group)
        out.append(f"| {name} | {len(group)} | {med} | {worst} | {ok} | median ≤ {TARGET_MEDIAN}, worst ≤ {TARGET_WORST} |")
    flagged = {c.key for c, *_ in flags}
    prose_ours = [f for f in flags if f[5] and not f[4]]
    out.append("")
    out.append(f"CLI flags in chat answers: **{len(flags)}** occurrence(s) of `--[a-z]` in {len(flagged)} conversation(s) "
               f"(scanned {sum(len(c.answers) for c in convs)} answers, both languages; target 0); "
               f"{sum(f[5] for f in flags)} of them spell a `gpu-advisor` option, {len(prose_ours)} of those outside "
               f"a code span (the \"use LoRA (--mode lora)\" kind issue 10 names).")
    if errors:
        out += ["", f"Advisor errors: {len(errors)} (" + ", ".join(f"`{c.key}`" for c in errors[:10]) + ")."]

    out += ["", "## Issue 10's eight questions", "", "| # | question | leftover | words |", "|---|---|---|---|"]
    for c, w in issue_rows:
        out.append(f"| {c.key.split('#')[1]} | {_one_line(c.turns[-1], 40)} | {len(w)} | {_one_line(', '.join(w), 120) or '–'} |")

    worst = sorted(golden_rows, key=lambda r: -len(r[1]))[:WORST_SHOWN]
    out += ["", f"## The {len(worst)} worst Chinese golden answers", "", "| item | leftover | words |", "|---|---|---|"]
    for c, w in worst:
        out.append(f"| `{c.key}` | {len(w)} | {_one_line(', '.join(w), 160) or '–'} |")

    words = {}
    for _, w in rows:
        for x in w:
            words[x] = words.get(x, 0) + 1
    common = sorted(words.items(), key=lambda kv: (-kv[1], kv[0].lower()))[:30]
    out += ["", "## Most frequent leftover words (all Chinese answers)", ""]
    out.append(", ".join(f"{w} ({n})" for w, n in common) or "None.")

    out += ["", "## CLI flags in chat answers", ""]
    if flags:
        out += ["| conversation | turn | flag | in a code span | a gpu-advisor option | context |",
                "|---|---|---|---|---|---|"]
        out += [f"| `{c.key}` ({c.lang}) | {n} | `{flag}` | {'yes' if code else 'no'} | {'yes' if mine else 'no'} | "
                f"{_one_line(ctx, 80).replace('`', '')} |" for c, n, flag, ctx, code, mine in flags[:40]]
        if len(flags) > 40:
            out.append(f"\n… and {len(flags) - 40} more.")
    else:
        out.append("None.")

    out += ["", "## Every Chinese answer", "", "| conversation | turns | leftover |", "|---|---|---|"]
    out += [f"| `{c.key}` | {len(c.turns)} | {len(w)} |" for c, w in rows]
    print("\n".join(out))


if __name__ == "__main__":
    main()
