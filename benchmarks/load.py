"""Web app under load: a closed loop against the real Gradio server on 127.0.0.1, and its memory over many sessions.

The server runs in its own process (`--serve`, the app exactly as `gpu-advisor serve` builds it, offline brain);
this process drives it with `gradio_client`, one `Client` per session, zero think time.

1. Latency: after one warm-up turn, 1 / 5 / 10 / 20 sessions at once × 3 turns each ("How much GPU memory does
   <model> need for inference?", "and for LoRA fine-tuning?", "and with QLoRA?"), every session its own model.
   p50/p95 per turn, errors, and cross-talk: every answer must name its own session's model and no other.
2. Memory: `--memory-sessions` sessions (default 500) of one real question each, `CONCURRENCY` at a time, every
   client closed when done; the server's RSS is sampled as they finish and fitted against the session count.
   Target (issue 13): slope < 10 KiB per finished session. `--baseline-sessions N` repeats it on a server whose
   session eviction is switched off, for the before/after.

Bounded: `--turn-timeout` per turn, `--time-limit` for the whole run (a phase that runs out stops issuing turns
and says how many it skipped). Linux only (RSS from /proc).

Run: `.venv/bin/python benchmarks/load.py > benchmarks/load.md` (about 20 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LEVELS = (1, 5, 10, 20)
TURNS = ("How much GPU memory does {model} need for inference?", "and for LoRA fine-tuning?", "and with QLoRA?")
MODELS = ("llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.2-1b", "llama-3.2-3b",
          "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b",
          "qwen3-8b", "qwen3-14b", "qwen3-32b", "gemma-2-2b", "gemma-2-9b", "gemma-2-27b")
CONCURRENCY = 4  # the app's own limit (ui/web/app.py CONCURRENCY): more clients at once only queue
SAMPLE_EVERY = 25  # sessions between RSS samples
WARM_SESSIONS = 100  # the slope that counts is fitted after these (allocator arenas, caches filling)


# ---------------------------------------------------------------- the server process


def serve(port: int, stats_path: Path, no_evict: bool) -> None:
    from knowledge.settings import Settings
    from ui.web.app import build_app, launch

    tmp = Path(tempfile.mkdtemp(prefix="gpu-advisor-load-"))
    demo = build_app(Settings.load(feedback_path=tmp / "feedback.jsonl"), export_dir=tmp / "exports")
    web = demo.web
    if no_evict:  # the "before": sessions are never closed, Gradio's copies never dropped
        web._end = lambda key, session: None
    launch(demo, "127.0.0.1", port, prevent_thread_lock=True, quiet=True)

    def stats() -> None:
        while True:
            data = {"rss_kib": rss_kib(os.getpid()), "live": web.live_sessions(),
                    "gradio_sessions": len(demo.state_holder.session_data), "at": time.time()}
            tmp_path = stats_path.with_suffix(".tmp")
            tmp_path.write_text(json.dumps(data))
            tmp_path.replace(stats_path)
            time.sleep(0.25)

    threading.Thread(target=stats, daemon=True).start()
    threading.Event().wait()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc (Linux only)")


class Server:
    def __init__(self, no_evict: bool = False):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.stats_path = Path(tempfile.mkdtemp(prefix="gpu-advisor-load-stats-")) / "stats.json"
        args = [sys.executable, __file__, "--serve", str(self.port), "--stats", str(self.stats_path)]
        self.proc = subprocess.Popen(args + (["--no-evict"] if no_evict else []), cwd=ROOT, env=os.environ)

    def wait_ready(self, timeout_s: float = 300) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            if self.stats_path.exists():
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                except OSError:
                    pass
            time.sleep(0.2)
        raise RuntimeError("the server did not start")

    def stats(self) -> dict:
        return json.loads(self.stats_path.read_text())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# ---------------------------------------------------------------- clients


def client(url: str):
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False)


def pattern(key: str, name: str) -> re.Pattern:
    """The model by id ("qwen2.5-7b", hyphen or space) or display name ("Qwen2.5 7B"), as a whole word."""
    alts = [re.escape(key).replace("\\-", "[- ]"), re.escape(name.split(" (")[0])]
    return re.compile(r"(?<![\w.])(?:" + "|".join(alts) + r")(?![\w.])", re.IGNORECASE)


@dataclass
class Phase:
    sessions: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    crosstalk: list[str] = field(default_factory=list)
    skipped: int = 0
    seconds: float = 0.0


def converse(url: str, index: int, patterns: dict[str, re.Pattern], phase: Phase, start: threading.Barrier,
             deadline: float, turn_timeout: float, lock: threading.Lock) -> None:
    model = MODELS[index % len(MODELS)]
    c = client(url)
    try:
        start.wait()
        for n, template in enumerate(TURNS):
            if time.monotonic() > deadline:
                with lock:
                    phase.skipped += len(TURNS) - n
                return
            t = time.perf_counter()
            try:
                answer = c.submit(template.format(model=model), api_name="/chat").result(timeout=turn_timeout)
            except Exception as err:  # noqa: BLE001 - a benchmark counts failures instead of stopping
                with lock:
                    phase.errors.append(f"{type(err).__name__}: {str(err)[:80]}")
                continue
            seconds = time.perf_counter() - t
            problems = []
            if not patterns[model].search(answer):
                problems.append(f"session {index} turn {n + 1}: {model} not named")
            others = [m for m, p in patterns.items() if m != model and p.search(answer)]
            if others:
                problems.append(f"session {index} turn {n + 1} ({model}) names {', '.join(others)}")
            with lock:
                phase.latencies.append(seconds)
                phase.crosstalk += problems
    finally:
        c.close()


def latency_phase(url: str, sessions: int, patterns, deadline: float, turn_timeout: float) -> Phase:
    phase, lock = Phase(sessions), threading.Lock()
    start = threading.Barrier(sessions)
    t = time.perf_counter()
    threads = [threading.Thread(target=converse, args=(url, i, patterns, phase, start, deadline, turn_timeout, lock))
               for i in range(sessions)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    phase.seconds = time.perf_counter() - t
    return phase


def memory_phase(server: Server, sessions: int, deadline: float, turn_timeout: float):
    """[(finished sessions, server RSS KiB)], errors, the server's stats at the end."""
    done, errors, samples, lock = [0], [], [], threading.Lock()
    samples.append((0, server.stats()["rss_kib"]))

    def one(i: int) -> None:
        if time.monotonic() > deadline:
            return
        c = client(server.url)
        try:
            c.submit(TURNS[0].format(model=MODELS[i % len(MODELS)]), api_name="/chat").result(timeout=turn_timeout)
        except Exception as err:  # noqa: BLE001
            with lock:
                errors.append(type(err).__name__)
        finally:
            c.close()
        with lock:
            done[0] += 1
            if done[0] % SAMPLE_EVERY == 0:
                samples.append((done[0], server.stats()["rss_kib"]))

    with ThreadPoolExecutor(max_workers=CONCURRENCY) as pool:
        list(pool.map(one, range(sessions)))
    # the last clients' disconnects are seen within one heartbeat (15 s): then nothing should be held
    settle = time.monotonic() + 45
    while time.monotonic() < settle and server.stats()["live"] > 0:
        time.sleep(1)
    end = server.stats()
    samples.append((done[0], end["rss_kib"]))
    return samples, errors, end, done[0]


def in_process(models: int = 5) -> list[float]:
    """The same turns straight through `Advisor.ask` in this process: the brain's own time, no server."""
    from assistant import Advisor

    times = []
    for model in MODELS[:models]:
        advisor = Advisor()
        for template in TURNS:
            t = time.perf_counter()
            advisor.ask(template.format(model=model))
            times.append(time.perf_counter() - t)
    return times


def slope(points: list[tuple[int, int]]) -> float:
    if len(points) < 2:
        return float("nan")
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else float("nan")


def spread(points: list, k: int) -> list:
    """About k points, evenly spaced, always the first and the last."""
    if len(points) <= k:
        return points
    step = (len(points) - 1) / (k - 1)
    return [points[round(i * step)] for i in range(k)]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


# ---------------------------------------------------------------- report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--levels", default=",".join(map(str, LEVELS)), help="concurrent sessions per phase (1,5,10,20)")
    p.add_argument("--memory-sessions", type=int, default=500)
    p.add_argument("--baseline-sessions", type=int, default=0, help="the same with eviction off (0: skip)")
    p.add_argument("--turn-timeout", type=float, default=180.0)
    p.add_argument("--time-limit", type=float, default=2400.0, help="seconds for the whole run")
    p.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    p.add_argument("--stats", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--no-evict", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        serve(args.serve, args.stats, args.no_evict)
        return 0

    from knowledge.catalog import load_catalog

    catalog = load_catalog()
    patterns = {m: pattern(m, catalog.models[m].name) for m in MODELS}
    levels = [int(x) for x in args.levels.split(",") if x]
    started = time.monotonic()
    deadline = started + args.time_limit
    out: list[str] = []

    server = Server()
    try:
        server.wait_ready()
        t = time.perf_counter()
        warm = client(server.url)
        warm.predict(TURNS[0].format(model="Mistral-7B"), api_name="/chat")  # catalog, reader, index: loaded once
        warm.close()
        warm_s = time.perf_counter() - t
        phases = [latency_phase(server.url, n, patterns, deadline, args.turn_timeout) for n in levels]
        base_rss = server.stats()["rss_kib"]
        samples, mem_errors, end, finished = memory_phase(server, args.memory_sessions, deadline, args.turn_timeout)
    finally:
        server.stop()

    brain = in_process()
    baseline = None
    if args.baseline_sessions:
        before = Server(no_evict=True)
        try:
            before.wait_ready()
            c = client(before.url)
            c.predict(TURNS[0].format(model="Mistral-7B"), api_name="/chat")
            c.close()
            baseline = memory_phase(before, args.baseline_sessions, deadline, args.turn_timeout)
        finally:
            before.stop()

    cores = os.cpu_count()
    load1 = os.getloadavg()[0]
    out.append("# Web app under load (Gradio on 127.0.0.1, offline brain)\n")
    out.append(f"Machine: {cores} cores (load average {load1:.1f} at the end: other work shares them). Server: the app "
               f"as `gpu-advisor serve` builds it, in its own process; clients: `gradio_client`, one `Client` per session, "
               f"closed loop, zero think time. The app answers {CONCURRENCY} questions at once; the rest queue. "
               f"Warm-up turn: {warm_s:.1f} s. Run: `.venv/bin/python benchmarks/load.py` "
               f"(--levels {args.levels} --memory-sessions {args.memory_sessions}"
               f"{f' --baseline-sessions {args.baseline_sessions}' if args.baseline_sessions else ''}).\n")
    out.append("## Latency per turn\n")
    out.append("Each session: 3 turns about its own model (inference memory, then LoRA, then QLoRA follow-ups). "
               "Cross-talk: an answer that does not name its session's model, or names another session's.\n")
    out.append("| sessions | turns answered | p50 | p95 | max | answers/s | errors | cross-talk | skipped (time limit) |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for ph in phases:
        rate = len(ph.latencies) / ph.seconds if ph.seconds else float("nan")
        out.append(f"| {ph.sessions} | {len(ph.latencies)} of {ph.sessions * len(TURNS)} | {pct(ph.latencies, 0.5):.2f} s | "
                   f"{pct(ph.latencies, 0.95):.2f} s | {max(ph.latencies, default=float('nan')):.2f} s | {rate:.2f} | "
                   f"{len(ph.errors)} | {len(ph.crosstalk)} | {ph.skipped} |")
    problems = [e for ph in phases for e in ph.errors + ph.crosstalk]
    if problems:
        out.append("\n" + "\n".join(f"- {e}" for e in problems[:20]))
    out.append(f"\nFor comparison, the same turns through `Advisor.ask` in one process, one at a time: "
               f"p50 {pct(brain, 0.5):.2f} s, p95 {pct(brain, 0.95):.2f} s ({len(brain)} turns). In a closed loop with "
               f"zero think time, N sessions wait for about N answers each, so p50 at N sessions ≈ N × the answer time "
               f"÷ the cores' parallelism; the server adds little on top of the brain.\n")
    out.append("Target (issue 13): p95 ≤ 5 s at 20 sessions, i.e. an answer time of about 0.25 s per turn on 2 cores.\n")

    def memory_table(title: str, result, note: str) -> None:
        pts, errs, last, n = result
        warm_pts = [pt for pt in pts if pt[0] >= WARM_SESSIONS]
        out.append(f"## {title}\n")
        out.append(note + "\n")
        out.append("| sessions finished | server RSS |")
        out.append("|---|---|")
        for x, y in spread(pts, 12):
            out.append(f"| {x} | {y / 1024:.1f} MiB |")
        out.append("")
        out.append(f"- sessions run: {n}; errors: {len(errs)}{' (' + ', '.join(sorted(set(errs))) + ')' if errs else ''}")
        out.append(f"- held at the end (after the last disconnects were seen): {last['live']} conversations, "
                   f"{last['gradio_sessions']} Gradio session records")
        out.append(f"- RSS slope: **{slope(warm_pts):.1f} KiB per session** over sessions {WARM_SESSIONS}–{n} "
                   f"({slope(pts):.1f} KiB over 0–{n}, the first {WARM_SESSIONS} include caches filling)\n")

    memory_table("Memory over many sessions", (samples, mem_errors, end, finished),
                 f"{args.memory_sessions} sessions of one question each ({CONCURRENCY} at a time), each client closed "
                 f"when done; RSS of the server process sampled every {SAMPLE_EVERY} finished sessions, starting at "
                 f"{base_rss / 1024:.1f} MiB after the latency phases. Target: slope < 10 KiB per session.")
    out.append("Dropped when a client disconnects (`demo.unload`) or idles past `GPU_ADVISOR_WEB_SESSION_TTL` "
               "(default 1800 s): the conversation (`Session`, its `Advisor`, the last `Answer`), Gradio's per-session "
               "page copy (`SessionState`, about 60 KiB) and its queue's per-session message queue and event set "
               "(about 3.5 KiB; an LRU of 2,000 in Gradio). What is left is allocator noise and caches that fill "
               "(tracemalloc over 100 sessions after 60 warm ones, client objects included: 5.9 KiB per session "
               "before the queue entries were dropped).\n")
    if baseline:
        memory_table("Before: the same with session eviction switched off", baseline,
                     f"{args.baseline_sessions} sessions against a fresh server whose unload/TTL eviction is disabled "
                     "(what the app did before issue 13): every finished session stays in memory.")
    out.append(f"Total run time: {(time.monotonic() - started) / 60:.1f} min.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
