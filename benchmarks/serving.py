"""Accuracy of the serving estimator against published serving measurements, beside the naive roofline.

Reads tests/data/serving/*.yaml (validated into `Case` records below), predicts every measured figure with
`tools.serving.estimate_serving` on the case's model, GPU, engine, layout, lengths and load, and prints a Markdown
report: per case predicted vs measured and the error, the naive roofline beside it, and median errors for the
calibration and held-out splits apart, for throughput, latency and KV capacity.

The naive roofline is what LLM-Viewer-style calculators do: a decode step takes max(weight bytes / peak bandwidth,
2·N·B / peak FLOPS) at 100 % efficiency with no overhead and no KV reads, prefill takes 2·N·L / peak FLOPS (and
shares the GPU with decode: B·L_out tokens per B·prefill + L_out·step), the KV pool is 90 % of the GPU's memory
minus the weights, and a maximum-throughput batch is 256 sequences.

    python benchmarks/serving.py > benchmarks/serving.md      # the report
    python benchmarks/serving.py --calibrate                  # refit the efficiencies on the calibration split
    python benchmarks/serving.py --calibrate-memory           # refit only the non-torch memory constants
    python benchmarks/serving.py --calibrate-ttft             # refit only the per-request overhead on TTFT rows
    python benchmarks/serving.py --calibrate-moe              # refit only the MoE layers' time (with the spent rounds)
    python benchmarks/serving.py --calibrate-tp               # refit only the PCIe all-reduce (with the spent rounds)
    python benchmarks/serving.py --without-round2             # the report without the round-2 rows
    python benchmarks/serving.py --without-round3             # the report without the round-3 rows
    python benchmarks/serving.py --without-round4             # the report without the round-4 rows
    python benchmarks/serving.py --without-round5             # the report without the round-5 rows
    python benchmarks/serving.py --without-round6             # the report without the round-6 held-out rows
    python benchmarks/serving.py --without-round7             # the report without the round-7 held-out rows
    python benchmarks/serving.py --without-round8             # the report without the round-8 held-out rows
    python benchmarks/serving.py --without-round9             # the report without the round-9 held-out rows
    python benchmarks/serving.py --without-round10            # the report without the round-10 held-out rows
    python benchmarks/serving.py --without-round11            # the report without the round-11 held-out rows
    python benchmarks/serving.py --without-round12            # the report without the round-12 held-out rows
    python benchmarks/serving.py --without-round13            # the report without the round-13 held-out rows

`--calibrate` reads the calibration files only (FIT_SPLITS); it prints the fitted constants to copy into
tools/serving_profiles.py. `--calibrate-moe` and `--calibrate-tp` read the calibration files and the spent rounds
(MOE_FIT_SPLITS, TP_FIT_SPLITS). The held-out rounds are reported apart: round 1 (`heldout_*.yaml`, frozen 2026-12-01,
spent: every figure was printed and read while the TTFT model was chosen), rounds 2-5 (`heldout2_*.yaml` …
`heldout5_*.yaml`, each frozen before the changes it tested, evaluated once, spent since; the one evaluations of
rounds 4 and 5, commits ef8d26c and 9ee9647, are kept verbatim in the report) and round 6 (`heldout6_*.yaml`: its own
split, read by no fitter, placed and evaluated once after commit 25f8506, spent since; its one evaluation is kept
verbatim as ROUND6_EVALUATION, its live figures under "Since round 6's evaluation"; `--without-round6` leaves it
unread) and round 7 (`heldout7_*.yaml`: its own split, read by no fitter, frozen by digest at commit 25bfbbc and
evaluated once after commit ad82352, per source and pooled with and without its ROCm / MI300X file, spent since; its
one evaluation is kept verbatim as ROUND7_EVALUATION; `--without-round7` leaves it unread) and round 8
(`heldout8_*.yaml`: its own split, read by no fitter, frozen by digest at commit 58732c8 and evaluated once after
commit 443df97, per source and pooled with and without its RTX PRO 6000 Max-Q file, spent since; its one evaluation is
kept verbatim as ROUND8_EVALUATION; `--without-round8` leaves it unread) and round 9 (`heldout9_*.yaml`: its own
split, read by no fitter, frozen by digest at commit e101d9f and evaluated once after commit ab3ed60, pooled, per
source and per page of the SGLang cookbook, spent since; its one evaluation is kept verbatim as ROUND9_EVALUATION;
`--without-round9` leaves it unread) and round 10 (`heldout10_*.yaml`: its own split, read by no fitter, frozen by
digest at commit de149b1 and evaluated once on the estimator of commit ab3ed60, pooled and per source, spent since;
its one evaluation is kept verbatim as ROUND10_EVALUATION; `--without-round10` leaves it unread) and round 11
(`heldout11_*.yaml`: its own split, read by no fitter, frozen by digest at commit 8640aae and evaluated once on the
estimator of commit ab3ed60, pooled and per source, KLsatorlac2's batch wall times read apart, spent since; its one
evaluation is kept verbatim as ROUND11_EVALUATION; `--without-round11` leaves it unread) and round 12
(`heldout12_*.yaml`: its own split, read by no fitter, frozen by digest at commit b6da2bd and evaluated once on the
estimator of commit 795c5d9, a KV reading first — in full, per source, one per source, without the two cases whose GPU
is known only from the repository — then its throughput and latency pooled, the two 5 req/s runs' output tok/s read
apart, spent since; its one evaluation is kept verbatim as ROUND12_EVALUATION; `--without-round12` leaves it unread)
and round 13 (`heldout13_*.yaml`: its own split, read by no fitter, frozen by digest at commit 74b8f1d and evaluated
once on the estimator of commit 816e237, a KV reading first — in full, per source, one per source — then its
throughput and latency pooled; its one evaluation is kept verbatim as ROUND13_EVALUATION; `--without-round13` leaves
it unread). Rounds 10-13 are rendered by one function (`pooled_round_targets`, `findings_pooled_round`,
`one_evaluation_section`) from a `PooledRound` each. See tests/data/serving/README.md and errata.yaml.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import re
import statistics
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools import serving_profiles  # noqa: E402
from tools.domain import Strict  # noqa: E402
from tools.serving_profiles import (  # noqa: E402
    EngineScheduling, KvPrecision, SamplerWarmup, VllmEngine, vllm_async_scheduling, vllm_rules,
)
from tools.catalog import Catalog  # noqa: E402
from tools.domain import GIB  # noqa: E402
from tools.kv_cache import bytes_per_token_per_layer  # noqa: E402
from tools.serving import estimate_serving  # noqa: E402
from tools.serving_perf import weight_bytes  # noqa: E402
from tools.serving_profiles import PROFILES, Engine, WeightFormat, peak_tflops  # noqa: E402
from tools.serving_types import Arrivals, Load, LoadKind, ServingEstimate, ServingRequest  # noqa: E402
from tools.vram_shape import shape_of  # noqa: E402

# ------------------------------------------------------------------ the data (tests/data/serving/*.yaml)
#
# One file per source family; a file whose name contains ``heldout`` is the held-out split (frozen: its sha256 is
# recorded in tests/data/serving/README.md and checked by tests/test_serving_data.py). Corrections never edit a
# held-out file: they go to ``errata.yaml`` (case id, field, corrected value, reason) and are applied at load.

DATA = ROOT / "tests" / "data" / "serving"
ERRATA = DATA / "errata.yaml"


class Metric(str, Enum):
    output_tok_s = "output_tok_s"
    total_tok_s = "total_tok_s"
    req_s = "req_s"
    decode_tok_s = "decode_tok_s"  # one user's decode speed (llama-bench tg, batch 1)
    ttft_ms = "ttft_ms"
    tpot_ms = "tpot_ms"
    e2e_ms = "e2e_ms"
    kv_cache_gib = "kv_cache_gib"
    kv_cache_tokens = "kv_cache_tokens"

    @property
    def category(self) -> str:
        if self in (Metric.kv_cache_gib, Metric.kv_cache_tokens):
            return "kv"
        if self in (Metric.ttft_ms, Metric.tpot_ms, Metric.e2e_ms):
            return "latency"
        return "throughput"


class CaseLoadKind(str, Enum):
    batch = "batch"
    concurrency = "concurrency"
    request_rate = "request_rate"
    max_throughput = "max_throughput"
    kv_capacity = "kv_capacity"  # an engine start-up log: the KV pool, no load


class CaseLoad(Strict):
    kind: CaseLoadKind
    value: float | None = None  # batch size, users, req/s; max_throughput: the prompts sent at once (--num-prompts)


class EngineArgs(Strict):
    max_model_len: int | None = None
    gpu_memory_utilization: float | None = None
    max_num_seqs: int | None = None
    max_batched_tokens: int | None = None
    # vLLM only; None: read from the case's engine_version (tools.serving_profiles.vllm_rules), else the defaults
    vllm_engine: VllmEngine | None = None
    vllm_sampler: SamplerWarmup | None = None
    chunked_prefill: bool | None = None
    # vLLM 0.6-0.8 `--num-scheduler-steps N` (multi-step scheduling); None: not stated (the engine's default, 1)
    num_scheduler_steps: int | None = Field(default=None, gt=0)
    # SGLang `--enable-dp-attention` with `--dp-size N` (data-parallel attention over the TP group); None: not stated
    enable_dp_attention: bool | None = None
    dp_size: int | None = Field(default=None, gt=0)
    # vLLM V1 `--async-scheduling` / `--no-async-scheduling`; None: read from engine_version (default on from 0.14)
    async_scheduling: bool | None = None


class Measured(Strict):
    metric: Metric
    value: float = Field(gt=0)
    statistic: str = Field(pattern="^(mean|median|single|approx)$")
    what: str = Field(min_length=3, description="the figure's label as the source prints it")


class Case(Strict):
    id: str
    url: str = Field(pattern=r"^https?://")
    engine: Engine
    engine_version: str
    gpu: str
    gpu_as_published: str
    gpus: int = Field(gt=0)
    tp: int = Field(default=1, gt=0)
    pp: int = Field(default=1, gt=0)
    model: str
    model_as_published: str
    weights: WeightFormat
    kv_precision: KvPrecision = KvPrecision.auto
    input_len: int = Field(gt=0)
    output_len: int = Field(gt=0)
    lengths: str
    load: CaseLoad
    engine_args: EngineArgs = Field(default_factory=EngineArgs)
    command: str | None = None
    measured: list[Measured] = Field(min_length=1)
    notes: str | None = None
    # closed loops only: `together` when the source pins every request to the same lengths (`--ignore-eos` with a
    # fixed-length dataset), so that `--max-concurrency N` runs in waves of N that arrive together; else independent
    arrivals: Arrivals = Arrivals.independent


class Source(Strict):
    family: str
    title: str
    publisher: str
    as_of: str | Any
    notes: str | None = None


class CaseFile(Strict):
    source: Source
    cases: list[Case]


class Erratum(Strict):
    case: str
    field: str
    value: Any
    reason: str = Field(min_length=10)


def case_files() -> list[Path]:
    return sorted(p for p in DATA.glob("*.yaml") if p.name != ERRATA.name)


def is_heldout(path: Path) -> bool:
    return "heldout" in path.name


class Split(str, Enum):
    calibration = "calibration"
    heldout1 = "heldout1"  # round 1: frozen first, spent (its figures were read while the TTFT model was chosen)
    heldout2 = "heldout2"  # round 2: frozen before any round-2 change, evaluated once (2026-12-01), spent since
    heldout3 = "heldout3"  # round 3: frozen by its collector, evaluated once by the lead (2026-12-01), spent since
    heldout4 = "heldout4"  # round 4: frozen by its collectors, evaluated once (2026-12-01, commit ef8d26c), spent since
    heldout5 = "heldout5"  # round 5: frozen by its collector, evaluated once (2026-12-01, commit 9ee9647), spent since
    heldout6 = "heldout6"  # round 6: frozen by digest (ab34400), evaluated once after 25f8506 (2026-12-02), spent since
    heldout7 = "heldout7"  # round 7: frozen by digest (25bfbbc), evaluated once after ad82352 (2026-12-02), spent since
    heldout8 = "heldout8"  # round 8: frozen by digest (58732c8), evaluated once after 443df97 (2026-12-02), spent since
    heldout9 = "heldout9"  # round 9: frozen by digest (e101d9f), evaluated once after ab3ed60 (2026-12-02), spent since
    heldout10 = "heldout10"  # round 10: frozen by digest (de149b1), evaluated once on ab3ed60's estimator (2026-12-03),
    # spent since
    heldout11 = "heldout11"  # round 11: frozen by digest (8640aae), evaluated once on ab3ed60's estimator (2026-12-03),
    # spent since
    heldout12 = "heldout12"  # round 12: frozen by digest (b6da2bd), evaluated once on 795c5d9's estimator (2026-12-03),
    # spent since
    heldout13 = "heldout13"  # round 13: frozen by digest (74b8f1d), evaluated once on 816e237's estimator (2026-12-04)


SPLIT_LABEL = {Split.calibration: "calibration", Split.heldout1: "held out, round 1 (spent)",
               Split.heldout2: "held out, round 2 (spent)", Split.heldout3: "held out, round 3 (spent)",
               Split.heldout4: "held out, round 4 (spent)", Split.heldout5: "held out, round 5 (spent)",
               Split.heldout6: "held out, round 6 (spent)", Split.heldout7: "held out, round 7 (spent)",
               Split.heldout8: "held out, round 8 (spent)", Split.heldout9: "held out, round 9 (spent)",
               Split.heldout10: "held out, round 10 (spent)", Split.heldout11: "held out, round 11 (spent)",
               Split.heldout12: "held out, round 12 (spent)", Split.heldout13: "held out, round 13"}
SPLIT_SHORT = {Split.calibration: "calib.", Split.heldout1: "held out 1 (spent)", Split.heldout2: "held out 2 (spent)",
               Split.heldout3: "held out 3 (spent)", Split.heldout4: "held out 4 (spent)",
               Split.heldout5: "held out 5 (spent)", Split.heldout6: "held out 6 (spent)",
               Split.heldout7: "held out 7 (spent)", Split.heldout8: "held out 8 (spent)",
               Split.heldout9: "held out 9 (spent)", Split.heldout10: "held out 10 (spent)",
               Split.heldout11: "held out 11 (spent)", Split.heldout12: "held out 12 (spent)",
               Split.heldout13: "held out 13"}
# Rounds that have been evaluated and studied (issue 11: "spent and may now calibrate"): they choose mechanisms and
# are reported as checks. The fitters still read the calibration files only (FIT_SPLITS): a fit on the spent rounds
# too, each source weighted once, was measured on 2026-12-01 (benchmarks/serving.md, "Round 2 spent", lead 5) and moved
# constants on one source each (the FP8 kernel factor 1.1 → 0.8 and vLLM's request overhead 30 → 50 ms on GPUStack's
# chat-endpoint runs alone), so it was not taken. A fresh round is never fitted on.
# Round 3 joined them after its one evaluation (issue 11): its figures chose the mechanisms of the recalibration in
# benchmarks/serving.md ("Rounds 1-3 spent"). One constant is fitted on the spent rounds as well (MOE_FIT_SPLITS): the
# MoE kernel chain's time per layer, because no calibration file holds a vLLM or SGLang MoE decode run.
# Round 4 joined them after its one evaluation (commit ef8d26c; issue 11): its figures chose the mechanisms of the
# recalibration in benchmarks/serving.md ("Round 4 spent").
# Round 5 is spent too (evaluated once, commit 9ee9647; read by the change after it, "Since round 5's evaluation") and
# is labelled so, but it is not (yet) in SPENT, the splits the MoE and TP fitters may read: it holds no MoE or
# TP-over-PCIe run, so their case lists would not change, and moving it is the lead's call (tests pin it out).
# Round 6 (`heldout6_*`) is spent since its one evaluation (2026-12-02; ROUND6_EVALUATION keeps it verbatim) and is
# labelled so; the change after it (vLLM multi-step scheduling, "Since round 6's evaluation") read it. Like round 5 it is
# not in SPENT: no fitter reads it (neither FIT_SPLITS nor MOE_FIT_SPLITS nor TP_FIT_SPLITS holds it; moving it is the
# lead's call). Round 7 (`heldout7_*`) is spent since its one evaluation (2026-12-02; ROUND7_EVALUATION keeps it
# verbatim); the change after it (443df97: the ROCm caveat, no constant) read it. Like rounds 5 and 6 it is not in
# SPENT. Round 8 (`heldout8_*`) is spent since its one evaluation (2026-12-02; ROUND8_EVALUATION keeps it verbatim);
# the change after it (ab3ed60: vLLM's async scheduling, no constant) read it. Like rounds 5-7 it is not in SPENT.
# Round 9 (`heldout9_*`) is spent since its one evaluation (2026-12-02; ROUND9_EVALUATION keeps it verbatim): its
# figures have been printed in benchmarks/serving.md and read since, and it is relabelled so when round 10 is placed.
# Like rounds 5-8 it is not in SPENT. Round 10 (`heldout10_*`) is spent since its one evaluation (2026-12-03;
# ROUND10_EVALUATION keeps it verbatim): its figures have been printed in benchmarks/serving.md and read since, and it
# is relabelled so when round 11 is placed. Like rounds 5-9 it is not in SPENT. Round 11 (`heldout11_*`) is spent
# since its one evaluation (2026-12-03; ROUND11_EVALUATION keeps it verbatim): the change after it (2acb8ec, vLLM's
# kernels below SM 8.0) read it, and it is relabelled so when round 12 is placed. Like rounds 5-10 it is not in SPENT.
# Round 12 (`heldout12_*`) is spent since its one evaluation (2026-12-03; ROUND12_EVALUATION keeps it verbatim): its
# figures have been printed in benchmarks/serving.md and read since, and it is relabelled so when round 13 is placed.
# Like rounds 5-11 it is not in SPENT. Round 13 (`heldout13_*`) is the held-out test of the estimator as it stood when
# it was placed (frozen by digest at 74b8f1d, before the SM 8.0 change 2acb8ec and the engine_version change c5f90f2
# landed; evaluated on the estimator of main at 816e237): no fitter reads it, and it is not spent until a change reads
# its evaluation (ROUND13_EVALUATION).
SPENT = (Split.heldout1, Split.heldout2, Split.heldout3, Split.heldout4)
FIT_SPLITS = (Split.calibration,)
MOE_FIT_SPLITS = (Split.calibration, *SPENT)


def split_of(path: Path) -> Split:
    """The split a data file belongs to by its name: ``heldout_*`` round 1, ``heldout<N>_*`` round N, else calibration."""
    m = re.match(r"heldout(\d*)_", path.name)
    if m is None:
        if is_heldout(path):
            raise ValueError(f"{path.name}: a held-out file is named heldout_<source>.yaml or heldout<N>_<source>.yaml")
        return Split.calibration
    try:
        return Split(f"heldout{m.group(1) or 1}")
    except ValueError:
        raise ValueError(f"{path.name}: round {m.group(1)} has no Split yet; add it to benchmarks/serving.py") from None


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_errata() -> list[Erratum]:
    if not ERRATA.exists():
        return []
    raw = yaml.safe_load(ERRATA.read_text(encoding="utf-8")) or {}
    return [Erratum(**e) for e in raw.get("errata") or []]


def load_cases() -> list[tuple[str, bool, Source, Case]]:
    """(file name, held out?, source, case) for every case, errata applied."""
    errata = {}
    for e in load_errata():
        errata.setdefault(e.case, []).append(e)
    out = []
    for path in case_files():
        data = CaseFile(**yaml.safe_load(path.read_text(encoding="utf-8")))
        for case in data.cases:
            for e in errata.get(case.id, []):
                raw = case.model_dump()
                raw[e.field] = e.value
                case = Case(**raw)
            out.append((path.name, is_heldout(path), data.source, case))
    return out


# ------------------------------------------------------------------ benchmark

TARGET_MEDIAN = 0.25  # held-out median error, throughput and latency
TARGET_KV = 0.05  # every held-out KV-capacity case
NAIVE_MAX_BATCH = 256


def load_catalog() -> Catalog:
    from knowledge.catalog import load_catalog as load
    from knowledge.settings import Settings

    return load(Settings.load())


# ------------------------------------------------------------------ prediction


def request_for(case: Case) -> ServingRequest:
    kind = case.load.kind
    if kind == CaseLoadKind.max_throughput:  # with a value: that many prompts sent at once (a burst)
        load = Load(kind=LoadKind.max_throughput, value=case.load.value)
    elif kind == CaseLoadKind.kv_capacity:
        load = Load(kind=LoadKind.concurrency, value=1)
    elif kind == CaseLoadKind.concurrency:
        load = Load(kind=LoadKind.concurrency, value=case.load.value, arrivals=arrivals_of(case))
    else:
        load = Load(kind=LoadKind(kind.value), value=case.load.value)
    a = case.engine_args
    engine, sampler = vllm_case_rules(case)
    return ServingRequest(
        weights=case.weights, kv_precision=case.kv_precision, engine=case.engine, gpus=case.gpus, tp=case.tp,
        pp=case.pp, gpus_per_node=max(8, case.gpus), input_len=case.input_len, output_len=case.output_len,
        max_model_len=a.max_model_len, gpu_memory_utilization=a.gpu_memory_utilization, max_num_seqs=a.max_num_seqs,
        max_batched_tokens=a.max_batched_tokens, vllm_engine=engine, vllm_sampler=sampler,
        chunked_prefill=a.chunked_prefill, load=load, engine_version=release_of(case),
        in_process=in_process_of(case),
    )


# How a case's command runs vLLM: in process (the LLM class) or through the OpenAI API server (its usage context picks
# the step-budget defaults: vllm/engine/arg_utils.py EngineArgs.get_batch_defaults).
_IN_PROCESS = re.compile(r"bench(?:mark)?[ _](?:throughput|latency)|\bLLM\(|\.generate\(")
_SERVER = re.compile(r"vllm serve|api_server|bench(?:mark)?[ _]serv(?:e|ing)")


def in_process_of(case: Case) -> bool | None:
    """Whether a vLLM case's command runs the engine in process (offline `vllm bench throughput` / `latency`,
    benchmark_throughput.py / benchmark_latency.py, LLM.generate) — True —, through the API server (`vllm serve`,
    `vllm bench serve`) — False —, or neither is stated (None: the server's defaults)."""
    if case.engine != Engine.vllm or not case.command:
        return None
    if _IN_PROCESS.search(case.command):
        return True
    return False if _SERVER.search(case.command) else None


_IGNORE_EOS = re.compile(r"--ignore[-_]eos\b")


def arrivals_of(case: Case) -> Arrivals:
    """When a closed loop's requests reach the engine: as the case states, or together where its benchmark command
    pins every output with `--ignore-eos` and the case's lengths are fixed (the `arrivals` field's own rule, read from
    the command: `--max-concurrency N` then starts N requests at t = 0, they finish on the same step, and the next N
    start together — waves of N prompts prefilled at once, tools/serving_perf.py `closed_loop(together=True)`)."""
    if case.arrivals != Arrivals.independent or case.load.kind != CaseLoadKind.concurrency:
        return case.arrivals
    pinned = case.command is not None and _IGNORE_EOS.search(case.command) is not None
    return Arrivals.together if pinned and case.lengths.lower().startswith("fixed") else case.arrivals


_RELEASE = re.compile(r"\b[vV]?\d+\.\d+[\w.+-]*")  # "0.19.0", "v0.7.1", "0.9.x", "1.2.0rc4", "0.26.1rc1.dev156+g0eec856cc"


def release_of(case: Case) -> str | None:
    """The engine release a case's engine_version text names (its first version number, as the request bounds it to
    40 characters), for the estimator's rules by release (tools/kv_pool.py); None when the text names none."""
    m = _RELEASE.search(case.engine_version)
    return None if m is None else m.group(0)[:40]


def scheduling_for(case: Case) -> EngineScheduling:
    """The scheduler options a case states (engine_args; None where the source does not state them)."""
    a = case.engine_args
    stated = a.async_scheduling
    if stated is None and case.engine == Engine.vllm:  # the release's default (vLLM >= 0.14: on)
        stated = vllm_async_scheduling(case.engine_version)
    return EngineScheduling(num_scheduler_steps=a.num_scheduler_steps, dp_attention=a.enable_dp_attention,
                            dp_size=a.dp_size, async_scheduling=stated)


def vllm_case_rules(case: Case) -> tuple[VllmEngine, SamplerWarmup | None]:
    """The vLLM engine generation and sampler warm-up a case ran: its engine_args, else its engine_version."""
    a = case.engine_args
    rules = vllm_rules(case.engine_version) if case.engine == Engine.vllm else None
    engine = a.vllm_engine or (rules[0] if rules else VllmEngine.v1)
    sampler = a.vllm_sampler or (rules[1] if rules else None)
    return engine, sampler


def predicted(est: ServingEstimate, metric: Metric) -> float:
    return {
        Metric.output_tok_s: est.output_tok_s,
        Metric.total_tok_s: est.total_tok_s,
        Metric.req_s: est.req_s,
        Metric.decode_tok_s: 1e3 / est.tpot_ms,
        Metric.ttft_ms: est.ttft_ms,
        Metric.tpot_ms: est.tpot_ms,
        Metric.e2e_ms: est.e2e_ms,
        Metric.kv_cache_gib: est.kv_cache_gib,
        Metric.kv_cache_tokens: float(est.kv_cache_tokens),
    }[metric]


def naive(case: Case, catalog: Catalog, metric: Metric) -> float | None:
    """The textbook roofline (see the module docstring)."""
    model, gpu = catalog.model(case.model), catalog.gpu(case.gpu)
    w_total = weight_bytes(model, case.weights)
    bw = (gpu.memory_bandwidth_gbps or 0) * 1e9
    peak = (peak_tflops(case.weights, gpu) or 0) * 1e12
    if not bw:
        return None
    shard = case.tp * case.pp
    replicas = case.gpus // shard
    kind = case.load.kind
    batch = NAIVE_MAX_BATCH if kind == CaseLoadKind.max_throughput else (case.load.value or 1)
    per_replica = batch / replicas if kind != CaseLoadKind.max_throughput else batch

    def step(b: float) -> float:  # seconds; pipeline stages read their weights one after another
        t_mem = w_total / case.tp / bw
        t_comp = 2 * model.compute_params * b / (case.tp * peak) if peak else 0.0
        return max(t_mem, t_comp)

    if metric.category == "kv":
        fraction = case.engine_args.gpu_memory_utilization or 0.9
        gib = gpu.usable_memory_gib * fraction - w_total / shard / GIB
        if metric == Metric.kv_cache_gib:
            return gib
        per_token, _ = bytes_per_token_per_layer(model, 1.0 if case.kv_precision.value == "fp8" else 2.0, case.tp)
        layers = math.ceil(shape_of(model).layers / case.pp)
        return gib * GIB / (per_token * layers)
    t = step(per_replica)
    prefill = 2 * model.compute_params * case.input_len / (case.tp * peak) if peak else 0.0  # seconds per prompt
    out_tok_s = per_replica * case.output_len / (per_replica * prefill + case.output_len * t) * replicas
    if metric == Metric.decode_tok_s:
        return 1 / step(1)
    if metric == Metric.tpot_ms:
        return t * 1e3
    if metric == Metric.ttft_ms:
        return prefill * 1e3 if peak else None
    if metric == Metric.output_tok_s:
        return out_tok_s
    if metric == Metric.total_tok_s:
        return out_tok_s * (case.input_len + case.output_len) / case.output_len
    if metric == Metric.req_s:
        return out_tok_s / case.output_len
    if metric == Metric.e2e_ms:
        return (prefill + t * case.output_len) * 1e3
    return None


@dataclasses.dataclass
class Row:
    file: str
    heldout: bool
    split: Split
    case: Case
    metric: Metric
    measured: float
    predicted: float | None
    naive: float | None
    calibrated: bool
    statistic: str = "mean"  # the source's statistic for the figure (Measured.statistic): mean, median, single, approx

    @property
    def error(self) -> float | None:
        return None if self.predicted is None else abs(self.predicted - self.measured) / self.measured

    @property
    def signed(self) -> float | None:
        return None if self.predicted is None else (self.predicted - self.measured) / self.measured

    @property
    def naive_error(self) -> float | None:
        return None if self.naive is None else abs(self.naive - self.measured) / self.measured


def evaluate(catalog: Catalog, heldout: bool | None = None, round2: bool = True, round3: bool = True,
             round4: bool = True, round5: bool = True, round6: bool = True, round7: bool = True,
             round8: bool = True, round9: bool = True, round10: bool = True, round11: bool = True,
             round12: bool = True, round13: bool = True) -> list[Row]:
    """Every measured figure beside its prediction; `round2=False` … `round13=False` leave that round's files
    unread."""
    rows = []
    skip = {Split.heldout2: not round2, Split.heldout3: not round3, Split.heldout4: not round4,
            Split.heldout5: not round5, Split.heldout6: not round6, Split.heldout7: not round7,
            Split.heldout8: not round8, Split.heldout9: not round9, Split.heldout10: not round10,
            Split.heldout11: not round11, Split.heldout12: not round12, Split.heldout13: not round13}
    for file, held, _source, case in load_cases():
        split = split_of(DATA / file)
        if (heldout is not None and held != heldout) or skip.get(split, False):
            continue
        est = estimate_serving(catalog.model(case.model), catalog.gpu(case.gpu), request_for(case), allow_no_fit=True,
                               scheduling=scheduling_for(case))
        for m in case.measured:
            rows.append(Row(file, held, split, case, m.metric, m.value, predicted(est, m.metric),
                            naive(case, catalog, m.metric), PROFILES[case.engine].calibrated, m.statistic))
    return rows


def fit_cases() -> list[tuple[str, Case]]:
    """(file, case) of every case the fitters may read: the calibration files only (FIT_SPLITS; spent rounds are checks)."""
    return [(f, c) for f, _held, _s, c in load_cases() if split_of(DATA / f) in FIT_SPLITS]


# ------------------------------------------------------------------ calibration (the calibration files only)

# Bounded grids: the efficiencies stay inside physically plausible ranges (the calibration data constrain some of
# them only weakly: most serving measurements are at maximum throughput).
GRID = {
    "bandwidth_efficiency": [0.55 + 0.025 * i for i in range(15)],  # 0.55 … 0.90
    "step_overhead_ms": [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5],
    "layer_overhead_us": [0.0, 10.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 150.0, 200.0],
    "seq_overhead_us": [0.0, 5.0, 10.0, 20.0, 30.0, 40.0, 60.0, 80.0, 100.0],
    "prefill_mfu": [0.2 + 0.05 * i for i in range(13)],  # 0.20 … 0.80
    "decode_mfu": [0.15 + 0.05 * i for i in range(12)],  # 0.15 … 0.70
    "request_overhead_ms": [0, 2, 5, 10, 15, 20, 25, 30, 40, 50, 60],
    "request_cpu_ms": [1.0, 2.0, 3.0, 4.0, 5.0, 7.5, 10.0, 12.5, 15.0, 20.0, 25.0, 30.0],
}
PARALLELISM_GRID = [7.0 + 0.5 * i for i in range(15)]  # bytes in flight per SM and cycle, 7 … 14
GRAPH_ENGINES = (Engine.vllm, Engine.sglang, Engine.trtllm)  # CUDA-graph engines: decode-step constants shared
SHARED = ("bandwidth_efficiency", "step_overhead_ms")
PER_ENGINE = ("prefill_mfu", "decode_mfu", "seq_overhead_us", "request_cpu_ms")  # request_overhead_ms: no TTFT to fit it on
LLAMACPP = ("bandwidth_efficiency", "step_overhead_ms", "layer_overhead_us")  # batch-1 decode data only


def _loss(rows: list[Row]) -> float:
    errs = [abs(math.log(r.predicted / r.measured)) for r in rows if r.predicted and r.predicted > 0]
    return statistics.fmean(errs) if errs else math.inf


def _perf_rows(catalog: Catalog, cases: list[tuple[str, Case]]) -> list[Row]:
    rows = []
    for file, case in cases:
        est = estimate_serving(catalog.model(case.model), catalog.gpu(case.gpu), request_for(case), allow_no_fit=True,
                               scheduling=scheduling_for(case))
        for m in case.measured:
            if m.metric.category != "kv":
                rows.append(Row(file, False, Split.calibration, case, m.metric, m.value, predicted(est, m.metric),
                                None, True))
    return rows


def _fit(catalog: Catalog, engines: tuple[Engine, ...], names: tuple[str, ...], cases: list[tuple[str, Case]]) -> None:
    """Coordinate descent: each parameter in turn, set on every engine in `engines`, scored on `cases`."""
    for _pass in range(2):
        for name in names:
            scores = []
            for value in GRID[name]:
                for e in engines:
                    PROFILES[e] = dataclasses.replace(PROFILES[e], **{name: round(value, 4)})
                scores.append((_loss(_perf_rows(catalog, cases)), value))
            best = round(min(scores)[1], 4)
            for e in engines:
                PROFILES[e] = dataclasses.replace(PROFILES[e], **{name: best})


TTFT_FIT_BELOW_MS = 1000.0  # a TTFT row informs the per-request overhead only when the queue does not swamp it
TTFT_FITTED = (Engine.vllm,)  # engines whose request_overhead_ms --calibrate-ttft fitted (the rest: priors)


def calibrate_ttft(catalog: Catalog) -> dict[Engine, float]:
    """Fit each engine's `request_overhead_ms` on the calibration split's TTFT rows, nothing else.

    The other constants stay as `--calibrate` fitted them on throughput; the overhead is scanned over its grid and
    scored by the mean |log error| over the engine's calibration TTFT rows. An engine is fitted only when it has at
    least one calibration TTFT row under TTFT_FIT_BELOW_MS (bursts' TTFTs of seconds to minutes do not move with a
    few ms of overhead); otherwise its overhead stays a prior. Prints the scan; returns the fitted values.
    """
    cal = [(f, c) for f, c in fit_cases() if any(m.metric == Metric.ttft_ms for m in c.measured)]
    fitted: dict[Engine, float] = {}
    for engine in Engine:
        cases = [(f, c) for f, c in cal if c.engine == engine]
        short = [c for _f, c in cases if any(m.metric == Metric.ttft_ms and m.value < TTFT_FIT_BELOW_MS for m in c.measured)]
        if not short:
            if cases:
                print(f"{engine.value}: {len(cases)} TTFT rows, none under {TTFT_FIT_BELOW_MS:g} ms: request_overhead_ms "
                      f"stays {PROFILES[engine].request_overhead_ms:g} (prior)")
            continue
        prior = PROFILES[engine]
        scores = []
        for value in GRID["request_overhead_ms"]:
            PROFILES[engine] = dataclasses.replace(prior, request_overhead_ms=float(value))
            rows = [r for r in _perf_rows(catalog, cases) if r.metric == Metric.ttft_ms]
            scores.append((_loss(rows), float(value)))
        best = min(scores)[1]
        PROFILES[engine] = dataclasses.replace(prior, request_overhead_ms=best)
        fitted[engine] = best
        scan = ", ".join(f"{v:g} ms {loss:.3f}" for loss, v in scores)
        print(f"{engine.value}: request_overhead_ms={best:g} on {len(cases)} TTFT rows ({len(short)} under "
              f"{TTFT_FIT_BELOW_MS:g} ms); mean |log error| by value: {scan}")
    return fitted


MOE_GRID = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 120.0, 150.0]  # µs per MoE layer and step
MOE_ENGINES = (Engine.vllm, Engine.sglang)  # the engines whose MoE layers run the Triton fused-MoE kernel chain


def moe_fit_cases(catalog: Catalog) -> list[tuple[str, Case]]:
    """MoE decode runs at low concurrency (≤ 16) of vLLM and SGLang on the calibration files and the spent rounds
    (MOE_FIT_SPLITS): where the per-layer time of the fused-MoE kernel chain shows. The calibration files have none."""
    out = []
    for f, _held, _s, c in load_cases():
        if split_of(DATA / f) not in MOE_FIT_SPLITS or c.engine not in MOE_ENGINES:
            continue
        moe = shape_of(catalog.model(c.model)).experts > 1
        low = c.load.kind in (CaseLoadKind.concurrency, CaseLoadKind.batch) and (c.load.value or 1) <= 16
        if moe and low and any(m.metric.category != "kv" for m in c.measured):
            out.append((f, c))
    return out


def calibrate_moe(catalog: Catalog) -> float:
    """Fit `moe_layer_overhead_us` (one value for vLLM and SGLang) on `moe_fit_cases`, every other constant held;
    each source (file) weighs the same in the mean |log error|. Prints the scan; returns the value."""
    cases = moe_fit_cases(catalog)
    files = sorted({f for f, _c in cases})
    saved = {e: PROFILES[e] for e in MOE_ENGINES}
    scores = []
    for value in MOE_GRID:
        for e in MOE_ENGINES:
            PROFILES[e] = dataclasses.replace(saved[e], moe_layer_overhead_us=value)
        per_file = [_loss(_perf_rows(catalog, [(f, c) for f, c in cases if f == name])) for name in files]
        scores.append((statistics.fmean(per_file), value))
    best = min(scores)[1]
    for e in MOE_ENGINES:
        PROFILES[e] = dataclasses.replace(saved[e], moe_layer_overhead_us=best)
    scan = ", ".join(f"{v:g} µs {loss:.3f}" for loss, v in scores)
    print(f"moe_layer_overhead_us={best:g} (vLLM, SGLang) on {len(cases)} cases from {', '.join(files)}; "
          f"mean over sources of the mean |log error| by value: {scan}")
    return best


TP_FIT_SPLITS = (Split.calibration, *SPENT)  # the spent rounds hold the only TP decode runs between PCIe-only GPUs
TP_LATENCY_GRID = [10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 80.0, 100.0]  # µs per all-reduce call over PCIe
TP_SHARE_GRID = [0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0]  # share of PCIE_GBPS an all-reduce reaches
TP_FIT_METRICS = (Metric.tpot_ms, Metric.decode_tok_s)  # per-step figures: where the all-reduce shows


def tp_fit_cases(catalog: Catalog) -> list[tuple[str, Case]]:
    """vLLM/SGLang runs with tensor parallelism between GPUs without NVLink (TP_FIT_SPLITS) that measure a per-token
    latency (TP_FIT_METRICS): the decode steps whose all-reduces cross PCIe."""
    out = []
    for f, _held, _s, c in load_cases():
        if split_of(DATA / f) not in TP_FIT_SPLITS or c.engine not in MOE_ENGINES or c.tp < 2:
            continue
        if catalog.gpu(c.gpu).nvlink or not any(m.metric in TP_FIT_METRICS for m in c.measured):
            continue
        out.append((f, c))
    return out


def calibrate_tp(catalog: Catalog) -> tuple[float, float]:
    """Fit the PCIe all-reduce's latency per call and its share of PCIE_GBPS on `tp_fit_cases` (grid search, every other
    constant held); each source (file) weighs the same in the mean |log error| of its TP_FIT_METRICS figures."""
    cases = tp_fit_cases(catalog)
    files = sorted({f for f, _c in cases})
    saved = (serving_profiles.ALLREDUCE_LATENCY_US["pcie"], serving_profiles.PCIE_ALLREDUCE_SHARE["share"])
    scores = []
    for lat in TP_LATENCY_GRID:
        for share in TP_SHARE_GRID:
            serving_profiles.ALLREDUCE_LATENCY_US["pcie"] = lat
            serving_profiles.PCIE_ALLREDUCE_SHARE["share"] = share
            per_file = []
            for name in files:
                rows = [r for r in _perf_rows(catalog, [(f, c) for f, c in cases if f == name])
                        if r.metric in TP_FIT_METRICS]
                per_file.append(_loss(rows))
            scores.append((statistics.fmean(per_file), lat, share))
    best = min(scores)
    serving_profiles.ALLREDUCE_LATENCY_US["pcie"], serving_profiles.PCIE_ALLREDUCE_SHARE["share"] = best[1], best[2]
    at_prior = next(s for s in scores if (s[1], s[2]) == saved) if any((s[1], s[2]) == saved for s in scores) else None
    print(f"PCIe all-reduce: latency {best[1]:g} us, share {best[2]:g} of PCIE_GBPS (mean over sources of the mean "
          f"|log error| {best[0]:.3f}; at the committed {saved[0]:g} us / {saved[1]:g}: "
          f"{'—' if at_prior is None else f'{at_prior[0]:.3f}'}) on {len(cases)} cases from {', '.join(files)}")
    for loss, lat, share in sorted(scores)[:8]:
        print(f"  {lat:g} us, share {share:g}: {loss:.3f}")
    return best[1], best[2]


def calibrate(catalog: Catalog, memory_only: bool = False) -> None:
    cal = fit_cases()
    # 1. memory: non-torch (one GPU; NVLink and PCIe when a model spans GPUs) on the KV start-up logs
    kv_cases = [(f, c) for f, c in cal if any(m.metric.category == "kv" for m in c.measured)]

    def kv_loss() -> float:
        errs = []
        for _f, case in kv_cases:
            est = estimate_serving(catalog.model(case.model), catalog.gpu(case.gpu), request_for(case), allow_no_fit=True,
                                   scheduling=scheduling_for(case))
            for m in case.measured:
                if m.metric.category == "kv":
                    p = predicted(est, m.metric)
                    errs.append(abs(math.log(max(p, 1e-9) / m.value)))
        return statistics.median(errs)

    best = (math.inf, None)
    for nt1 in [0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.75, 1.0, 1.5]:
        for nvl in [0.5, 1.0, 1.5, 1.8, 2.0, 2.5, 3.0, 3.5]:
            for pcie in [0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0]:
                if min(nvl, pcie) < nt1:  # a multi-GPU total holds the one-GPU part (its NCCL share is the rest)
                    continue
                serving_profiles.NON_TORCH_GIB.update({1: nt1, "nvlink": nvl, "pcie": pcie})
                loss = kv_loss()
                if loss < best[0]:
                    best = (loss, (nt1, nvl, pcie))
    nt1, nvl, pcie = best[1]
    serving_profiles.NON_TORCH_GIB.update({1: nt1, "nvlink": nvl, "pcie": pcie})
    print(f"memory: NON_TORCH_GIB = {{1: {nt1}, 'nvlink': {nvl}, 'pcie': {pcie}}} (median |log error| {best[0]:.3f} "
          f"on {len(kv_cases)} start-up logs; the activation peak is computed from the model's shape)")
    if memory_only:
        return
    perf = [(f, c) for f, c in cal if any(m.metric.category != "kv" for m in c.measured)]
    graph = [(f, c) for f, c in perf if c.engine in GRAPH_ENGINES]
    # decode-step constants only from low-concurrency runs, where decode is memory-bound (maximum-throughput runs
    # are compute- and CPU-bound and would trade these constants against the compute ones)
    low = [(f, c) for f, c in graph if c.load.kind in (CaseLoadKind.concurrency, CaseLoadKind.batch)
           and (c.load.value or 1) <= 16]
    for _round in range(3):
        # 2. llama.cpp: everything from its own (batch-1) measurements
        _fit(catalog, (Engine.llamacpp,), LLAMACPP, [(f, c) for f, c in perf if c.engine == Engine.llamacpp])
        # 3. CUDA-graph engines: per-engine compute and request constants, shared decode-step constants
        for engine in GRAPH_ENGINES:
            cases = [(f, c) for f, c in graph if c.engine == engine]
            if cases:
                _fit(catalog, (engine,), PER_ENGINE, cases)
        _fit(catalog, GRAPH_ENGINES, SHARED, low)
        # the decode weight reads' memory parallelism (tools/serving_profiles.py WEIGHT_READ_PARALLELISM): a hardware
        # and kernel constant shared by every engine, fitted on the same low-concurrency runs as the decode-step constants
        scores = []
        for value in PARALLELISM_GRID:
            serving_profiles.WEIGHT_READ_PARALLELISM["bytes_per_sm_clock"] = value
            scores.append((_loss(_perf_rows(catalog, low)), value))
        serving_profiles.WEIGHT_READ_PARALLELISM["bytes_per_sm_clock"] = min(scores)[1]
        # 4. quantised formats' kernel factors, where the calibration split has the format
        for fmt in WeightFormat:
            cases = [(f, c) for f, c in perf if fmt.quantised and c.weights == fmt]
            if not cases:
                continue
            scores = []
            for value in [0.7 + 0.05 * i for i in range(9)]:  # 0.70 … 1.10 (× the 16-bit efficiency: ≤ 0.95 of peak)
                serving_profiles.FORMAT_BANDWIDTH_FACTOR[fmt] = round(value, 3)
                scores.append((_loss(_perf_rows(catalog, cases)), value))
            serving_profiles.FORMAT_BANDWIDTH_FACTOR[fmt] = round(min(scores)[1], 3)
    for engine in Engine:
        cases = [(f, c) for f, c in perf if c.engine == engine]
        if not cases:
            continue
        rows = _perf_rows(catalog, cases)
        PROFILES[engine] = dataclasses.replace(PROFILES[engine], calibrated=True, cases=len(rows))
        p = PROFILES[engine]
        print(f"{engine.value}: bandwidth_efficiency={p.bandwidth_efficiency}, step_overhead_ms={p.step_overhead_ms}, "
              f"layer_overhead_us={p.layer_overhead_us}, seq_overhead_us={p.seq_overhead_us}, prefill_mfu={p.prefill_mfu}, decode_mfu={p.decode_mfu}, "
              f"request_overhead_ms={p.request_overhead_ms}, request_cpu_ms={p.request_cpu_ms}, cases={p.cases}, mean |log error| {_loss(rows):.3f}")
    print("decode weight reads: WEIGHT_READ_PARALLELISM =", dict(serving_profiles.WEIGHT_READ_PARALLELISM))
    fitted = sorted(f.value for f in WeightFormat if f.quantised and any(c.weights == f for _x, c in perf))
    print("format factors:", {f.value: serving_profiles.FORMAT_BANDWIDTH_FACTOR[f] for f in WeightFormat
                              if f.value in fitted})


# ------------------------------------------------------------------ report


def pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def num(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.2f}"


def med(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summary(rows: list[Row]) -> list[str]:
    out = ["| split | category | figures | median error (ours) | median error (naive roofline) | ours within 25 % | "
           "naive within 25 % |", "|---|---|---|---|---|---|---|"]
    for split in Split:
        for cat in ("throughput", "latency", "kv"):
            sel = [r for r in rows if r.split == split and r.metric.category == cat]
            if not sel:
                continue
            ours = [r.error for r in sel if r.error is not None]
            nai = [r.naive_error for r in sel if r.naive_error is not None]
            within = sum(e <= 0.25 for e in ours)
            nwithin = sum(e <= 0.25 for e in nai)
            out.append(f"| {SPLIT_LABEL[split]} | {cat} | {len(sel)} | {pct(med(ours))} | "
                       f"{pct(med(nai))} | {within}/{len(ours)} | {nwithin}/{len(nai)} |")
    return out


LATENCY_STATISTICS = ("mean", "median", "single", "approx")  # Measured.statistic, in the order they are reported


def targets(rows: list[Row], split: Split = Split.heldout1, by_statistic: bool = False,
            label: str | None = None) -> list[str]:
    """The targets on one held-out round (a category the round has no figure of is left out). `by_statistic`: latency
    is also given apart for each statistic the sources published (the estimator predicts means; a median TTFT under
    Poisson arrivals is below the mean), the pooled line first. `label`: the name the lines give (default the split's;
    for a subset of the round's rows, such as round 7 without its ROCm file)."""
    held = [r for r in rows if r.split == split]
    name = label or SPLIT_LABEL[split]
    lines = []
    for cat in ("throughput", "latency"):
        errs = [r.error for r in held if r.metric.category == cat and r.error is not None]
        if not errs:
            continue
        m = med(errs)
        ok = m is not None and m <= TARGET_MEDIAN
        lines.append(f"- {name}, {cat}: median error {pct(m)} over {len(errs)} figures — target ≤ 25 %: "
                     f"{'**met**' if ok else '**missed**'}.")
        if cat != "latency" or not by_statistic:
            continue
        for stat in LATENCY_STATISTICS:
            sel = [r.error for r in held if r.metric.category == cat and r.statistic == stat and r.error is not None]
            if not sel:
                continue
            ms = med(sel)
            lines.append(f"  - of which {stat} figures (as the source publishes them; the estimator predicts means): "
                         f"median error {pct(ms)} over {len(sel)} figures — target ≤ 25 %: "
                         f"{'**met**' if ms <= TARGET_MEDIAN else '**missed**'}.")
    kv = [r for r in held if r.metric.category == "kv"]
    if not kv:
        return lines
    bad = [r for r in kv if r.error is None or r.error > TARGET_KV]
    lines.append(f"- {name}, KV capacity: {len(kv) - len(bad)}/{len(kv)} within 5 % (max {pct(max((r.error or 0) for r in kv) if kv else None)}) "
                 f"— target every case: {'**met**' if not bad else '**missed**'}" +
                 ("." if not bad else ": " + ", ".join(f"`{r.case.id}` {r.metric.value} {pct(r.signed)}" for r in bad) + "."))
    return lines


def findings(rows: list[Row]) -> list[str]:
    """Where the held-out errors are, computed from the rows (nothing here is typed in by hand)."""
    held = [r for r in rows if r.split == Split.heldout1]
    cal = [r for r in rows if r.split == Split.calibration]

    def signed(sel: list[Row]) -> str:
        return pct(med([r.signed for r in sel if r.signed is not None]))

    ttft = [r for r in held if r.metric == Metric.ttft_ms]
    ttft_vllm = [r for r in ttft if r.case.engine == Engine.vllm and r.case.model != "mistral-7b"]
    cal_ttft = [r for r in cal if r.metric == Metric.ttft_ms]
    cal_low = [r for r in cal_ttft if r.case.load.kind != CaseLoadKind.max_throughput]
    cal_burst = [r for r in cal_ttft if r.case.load.kind == CaseLoadKind.max_throughput]
    tpot = [r for r in held if r.metric in (Metric.tpot_ms, Metric.decode_tok_s)]
    burst_rows = [r for r in held if r.case.load.kind == CaseLoadKind.max_throughput]
    burst_trt = [r for r in burst_rows if r.case.engine == Engine.trtllm]
    low = [r for r in held if r.case.load.kind == CaseLoadKind.concurrency and r.metric == Metric.output_tok_s]
    by_id = {(r.case.id, r.metric): r for r in held}
    pair = [by_id.get((f"gpustack-q8b-h100-{e}-bf16-c4", Metric.ttft_ms)) for e in ("vllm", "sglang")]
    gap = (f"a mean TTFT of {num(pair[0].measured)} ms on vLLM and {num(pair[1].measured)} ms on SGLang at 4 users"
           if all(pair) else "different engines' TTFTs")
    return [
        f"- Decode speed generalises: held-out TPOT and batch-1 decode figures have a median signed error of "
        f"{signed(tpot)} ({len(tpot)} figures), and closed-loop output tok/s {signed(low)} ({len(low)} figures).",
        f"- Time to first token is still the weak spot: median signed error {signed(ttft)} over {len(ttft)} held-out "
        f"figures ({signed(ttft_vllm)} for the {len(ttft_vllm)} vLLM ShareGPT ones at 1-8 users). On the calibration "
        f"side the TTFT model holds: {signed(cal_low)} signed over {len(cal_low)} figures at low load (a vLLM L4 sweep, "
        f"Lambda's 10-prompt bursts) and {signed(cal_burst)} over {len(cal_burst)} GPUStack bursts of 100-1,000 "
        "prompts. GPUStack's latency runs use the chat endpoint (`--backend openai-chat`), the calibration sources "
        f"the completions endpoint; with the same client, GPU and prompts GPUStack measured {gap}, a gap the code "
        "reading below does not account for. At 16-48 users the RTX 4090 sweep's TTFT grows faster than the M/D/1 "
        "prefill queue predicts.",
        f"- Maximum-throughput bursts are over-predicted: median signed error {signed(burst_rows)} over {len(burst_rows)} "
        f"held-out figures ({signed(burst_trt)} for the {len(burst_trt)} TensorRT-LLM ones). They are Qwen3-32B on one "
        "H100, where the KV pool is small, served with `trtllm-serve` defaults; the TensorRT-LLM constants come mostly "
        "from NVIDIA's tuned `trtllm-bench` runs, and the estimator takes every request at the mean length, so the tail "
        "of a burst (the longest requests finishing at a small batch) is not in it.",
        "- KV capacity transfers from vLLM 0.6-0.9 logs to vLLM 0.19: every held-out case is inside 5 %.",
    ]


def findings_round2(rows: list[Row]) -> list[str]:
    """Where the round-2 errors are, computed from the rows (nothing here is typed in by hand)."""
    r2 = [r for r in rows if r.split == Split.heldout2]

    def signed(sel: list[Row]) -> str:
        return pct(med([r.signed for r in sel if r.signed is not None]))

    def absolute(sel: list[Row]) -> str:
        return pct(med([r.error for r in sel if r.error is not None]))

    out = []
    for metric in (Metric.ttft_ms, Metric.tpot_ms, Metric.e2e_ms):
        sel = [r for r in r2 if r.metric == metric]
        if sel:
            out.append(f"- {metric.value}: median error {absolute(sel)}, signed {signed(sel)} over {len(sel)} "
                       f"figure{'s' if len(sel) != 1 else ''}.")
    ids = {r.case.id for r in r2}
    dropped = sum(1 for e in load_errata() if e.case in ids)
    if dropped:
        out.append(f"- {dropped} round-2 cases carry an erratum (errata.yaml): their TTFTs were served partly from vLLM's "
                   "prefix cache (\"Round 2 spent\" below), so only their TPOT and E2E are compared.")
    groups: dict[tuple[str, str, int], list[Row]] = {}
    for r in r2:
        groups.setdefault((r.case.model, r.case.gpu, r.case.gpus), []).append(r)
    for (model, gpu, n), sel in sorted(groups.items()):
        parts = []
        for metric in (Metric.ttft_ms, Metric.tpot_ms, Metric.e2e_ms):
            m = [r for r in sel if r.metric == metric]
            if m:
                parts.append(f"{metric.value.split('_')[0].upper()} signed {signed(m)} ({len(m)})")
        out.append(f"- {model} on {gpu} × {n}: " + ", ".join(parts) + ".")
    return out


# Round 4 came in two batches, each frozen by its own collector before the recalibration it tests was committed
# (tests/data/held_out_freezes.md): helper-44's three files, then helper-49's four, gathered to fill the first batch's
# gaps (KV capacity; L40S, L4, A10/A10G). The report gives the batches side by side and every source apart.
ROUND4_FIRST_BATCH = frozenset({"heldout4_iog_llm_inference_benchmarks.yaml", "heldout4_moe_config_prs.yaml",
                                "heldout4_vllm_buildkite_perfbench.yaml"})
ROUND4_DOCS_SHOWN = 4  # a source of 2-4 documents (pull requests, blog posts) is also shown per document


def source_name(file: str) -> str:
    """A data file's source as the report names it: the file name without its round prefix and extension."""
    return re.sub(r"^heldout\d*_", "", file).removesuffix(".yaml")


def doc_label(url: str) -> str:
    """A short name for one document: 'sglang #7631' for a pull request or issue, else the page's file name."""
    parts = url.rstrip("/").split("/")
    if parts[-1].isdigit() and len(parts) >= 4:
        return f"{parts[-3]} #{parts[-1]}"
    return parts[-1].removesuffix(".md")


def spct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:+.1f}%"


def _within_cells(sel, bound: float) -> str:
    """'n | ours | within/of | naive | within/of': a metric's cells in the per-metric tables."""
    ours = [r.error for r in sel if r.error is not None]
    nai = [r.naive_error for r in sel if r.naive_error is not None]
    return (f"{len(sel)} | {_ours(sel)} | {sum(e <= bound for e in ours)}/{len(ours)} | "
            f"{_naive(sel)} | {sum(e <= bound for e in nai)}/{len(nai)}")


def _ours(sel: list[Row]) -> str:
    errs = [r.error for r in sel if r.error is not None]
    if not errs:
        return "—"
    return f"{pct(med(errs))} ({spct(med([r.signed for r in sel if r.signed is not None]))}) · {len(errs)}"


def _naive(sel: list[Row]) -> str:
    return pct(med([r.naive_error for r in sel if r.naive_error is not None]))


def _kv(sel: list[Row]) -> str:
    if not sel:
        return "—"
    ours = sum(1 for r in sel if r.error is not None and r.error <= TARGET_KV)
    nai = sum(1 for r in sel if r.naive_error is not None and r.naive_error <= TARGET_KV)
    return f"{ours}/{len(sel)} (naive {nai}/{len(sel)})"


def _group_table(groups: list[tuple[str, list[Row]]], head: str) -> list[str]:
    """One row per group: throughput and latency medians (ours, signed in brackets, and naive), KV within 5 %."""
    out = [f"| {head} | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | "
           "KV within 5 % |", "|---|---|---|---|---|---|---|"]
    for name, sel in groups:
        thr = [r for r in sel if r.metric.category == "throughput"]
        lat = [r for r in sel if r.metric.category == "latency"]
        kv = [r for r in sel if r.metric.category == "kv"]
        out.append(f"| {name} | {len({r.case.id for r in sel})} | {_ours(thr)} | {_naive(thr) if thr else '—'} | "
                   f"{_ours(lat)} | {_naive(lat) if lat else '—'} | {_kv(kv)} |")
    return out


def findings_round4(rows: list[Row]) -> list[str]:
    """Round 4's one evaluation, computed from the rows: by metric, batch, source, GPU and load, the largest misses,
    the naive roofline beside each, and which targets are met (nothing here is typed in by hand)."""
    r4 = [r for r in rows if r.split == Split.heldout4]
    if not r4:
        return []
    met, missed = [], []
    for cat in ("throughput", "latency"):
        errs = [r.error for r in r4 if r.metric.category == cat and r.error is not None]
        if errs:
            m = med(errs)
            (met if m <= TARGET_MEDIAN else missed).append(f"{cat} (median {pct(m)} over {len(errs)} figures, target "
                                                           "≤ 25 %)")
    kv = [r for r in r4 if r.metric.category == "kv"]
    if kv:
        ok = sum(1 for r in kv if r.error is not None and r.error <= TARGET_KV)
        (met if ok == len(kv) else missed).append(f"KV capacity ({ok} of {len(kv)} figures within 5 %, target every "
                                                  "one)")
    cases = {r.case.id for r in r4}
    files = sorted({r.file for r in r4}, key=lambda f: (f not in ROUND4_FIRST_BATCH, f))
    out = [
        f"Round 4: {len(cases)} cases, {len(r4)} figures from {len(files)} files "
        f"({len({r.case.gpu for r in r4})} GPU types, engines {', '.join(sorted({r.case.engine.value for r in r4}))}). "
        f"Targets **met**: {'; '.join(met) or 'none'}. Targets **missed**: {'; '.join(missed) or 'none'}.",
        "",
        "Each cell: median error (median signed error) · figures; *naive*: the naive roofline's median error on the "
        "same figures; KV: figures within 5 % (ours, naive).",
        "",
        "By metric:",
        "",
        "| metric | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | naive | naive within 25 % (KV: 5 %) |",
        "|---|---|---|---|---|---|",
    ]
    for metric in Metric:
        sel = [r for r in r4 if r.metric == metric]
        if not sel:
            continue
        bound = TARGET_KV if metric.category == "kv" else TARGET_MEDIAN
        out.append(f"| {metric.value} | {_within_cells(sel, bound)} |")
    batches = [(f"batch {b}", [r for r in r4 if (r.file in ROUND4_FIRST_BATCH) == (b == 1)]) for b in (1, 2)]
    out += ["", "The two batches side by side (batch 1: IOG, vLLM Buildkite, the MoE-config PRs; batch 2: the "
            "ddiiwoong blog, ree2raz, llms-in-clouds, OCI):", "",
            *_group_table([*[(n, s) for n, s in batches if s], ("round 4, pooled", r4)], "batch")]
    by_source: list[tuple[str, list[Row]]] = []
    for f in files:
        sel = [r for r in r4 if r.file == f]
        batch = 1 if f in ROUND4_FIRST_BATCH else 2
        by_source.append((f"{batch}: {source_name(f)}", sel))
        docs = sorted({r.case.url for r in sel})
        if 1 < len(docs) <= ROUND4_DOCS_SHOWN:
            by_source += [(f"{batch}: … {doc_label(u)}", [r for r in sel if r.case.url == u]) for u in docs]
    out += ["", "By source (batch: file; a source of 2-4 documents also per document):", "",
            *_group_table(by_source, "source")]
    largest = max(files, key=lambda f: sum(r.file == f for r in r4))
    rest = [r for r in r4 if r.file != largest]
    n_largest = len(r4) - len(rest)
    if rest and n_largest * 2 > len(r4):
        out += ["", f"Without its largest source ({source_name(largest)}, {n_largest} of {len(r4)} figures):", "",
                *_group_table([(f"round 4 without {source_name(largest)}", rest)], "rows")]
    gpus = sorted({r.case.gpu for r in r4})
    out += ["", "By GPU (any number of them):", "",
            *_group_table([(g, [r for r in r4 if r.case.gpu == g]) for g in gpus], "GPU")]
    loads = sorted({r.case.load.kind.value for r in r4})
    out += ["", "By load:", "",
            *_group_table([(k, [r for r in r4 if r.case.load.kind.value == k]) for k in loads], "load")]
    scored = [r for r in r4 if r.predicted and r.predicted > 0]
    top = sorted(scored, key=lambda r: -abs(math.log(r.predicted / r.measured)))[:12]
    out += ["", f"The {len(top)} largest round-4 misses (by |log(predicted / measured)|, every metric):", "",
            "| source | case | engine | GPU × n (TP) | metric | measured | predicted | error | naive | naive error |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in top:
        c = r.case
        out.append(f"| {source_name(r.file)} | [{c.id}]({c.url}) | {c.engine.value} | {c.gpu} × {c.gpus} ({c.tp}) | "
                   f"{r.metric.value} | {num(r.measured)} | {num(r.predicted)} | {spct(r.signed)} | {num(r.naive)} | "
                   f"{spct(None if r.naive is None else (r.naive - r.measured) / r.measured)} |")
    return out


# Round 4's one evaluation as that run printed it (2026-12-01, commit ef8d26c: the estimator of ff21276), kept
# verbatim: round 4 is spent since, and the live tables below it are computed with the estimator of this commit.
ROUND4_EVALUATION = [
    '- held out, round 4, throughput: median error 38.2% over 66 figures — target ≤ 25 %: **missed**.',
    '- held out, round 4, latency: median error 12.7% over 71 figures — target ≤ 25 %: **met**.',
    '- held out, round 4, KV capacity: 17/27 within 5 % (max 58.2%) — target every case: **missed**: `ddiiwoong-adv-q25-7b-1xa10g-tp1-kv` kv_cache_tokens 57.7%, `ddiiwoong-adv-q25-7b-1xl4-tp1-kv` kv_cache_tokens 58.2%, `ddiiwoong-adv-q25-14b-2xa10g-tp2-kv` kv_cache_tokens 23.1%, `ddiiwoong-adv-q25-14b-2xl4-tp2-kv` kv_cache_tokens 7.8%, `ddiiwoong-adv-q25-14b-2xa10g-pp2-kv` kv_cache_tokens 17.6%, `ddiiwoong-adv-q25-14b-2xl4-pp2-kv` kv_cache_tokens 18.2%, `llmsinclouds-sglang-qwq-32b-4xl4-tp4-kv` kv_cache_tokens 5.7%, `llmsinclouds-sglang-qwq-32b-4xl4-tp4-kv` kv_cache_gib 5.9%, `oci-aqua-llama31-8b-a10-131k-kv` kv_cache_gib -22.4%, `oci-aqua-llama31-8b-a10-131k-kv` kv_cache_tokens -22.5%.',
    '',
    '',
    'Round 4: 99 cases, 164 figures from 7 files (9 GPU types, engines sglang, vllm). Targets **met**: latency (median 12.7% over 71 figures, target ≤ 25 %). Targets **missed**: throughput (median 38.2% over 66 figures, target ≤ 25 %); KV capacity (17 of 27 figures within 5 %, target every one).',
    '',
    "Each cell: median error (median signed error) · figures; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (ours, naive).",
    '',
    'By metric:',
    '',
    '| metric | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|',
    '| output_tok_s | 20 | 27.5% (-3.0%) · 20 | 9/20 | 23.4% | 10/20 |',
    '| total_tok_s | 46 | 47.3% (+47.3%) · 46 | 12/46 | 103.0% | 4/46 |',
    '| ttft_ms | 14 | 35.4% (-34.5%) · 14 | 3/14 | 83.7% | 0/14 |',
    '| tpot_ms | 53 | 9.6% (-1.6%) · 53 | 45/53 | 31.6% | 17/53 |',
    '| e2e_ms | 4 | 28.6% (+28.6%) · 4 | 2/4 | 41.9% | 1/4 |',
    '| kv_cache_gib | 6 | 2.4% (+1.9%) · 6 | 4/6 | 10.3% | 0/6 |',
    '| kv_cache_tokens | 21 | 2.5% (+2.3%) · 21 | 13/21 | 11.5% | 0/21 |',
    '',
    'The two batches side by side (batch 1: IOG, vLLM Buildkite, the MoE-config PRs; batch 2: the ddiiwoong blog, ree2raz, llms-in-clouds, OCI):',
    '',
    '| batch | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|',
    '| batch 1 | 26 | 78.1% (+30.9%) · 11 | 36.2% | 16.6% (+7.7%) · 19 | 35.2% | — |',
    '| batch 2 | 73 | 36.3% (+36.3%) · 55 | 78.5% | 10.0% (-6.9%) · 52 | 40.3% | 17/27 (naive 0/27) |',
    '| round 4, pooled | 99 | 38.2% (+33.6%) · 66 | 77.0% | 12.7% (-4.9%) · 71 | 39.0% | 17/27 (naive 0/27) |',
    '',
    'By source (batch: file; a source of 2-4 documents also per document):',
    '',
    '| source | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|',
    '| 1: iog_llm_inference_benchmarks | 21 | 95.0% (+78.1%) · 9 | 51.4% | 14.0% (+3.3%) · 12 | 29.5% | — |',
    '| 1: moe_config_prs | 2 | 43.7% (-43.7%) · 2 | 19.9% | 132.2% (+110.3%) · 4 | 66.0% | — |',
    '| 1: … sglang #7631 | 1 | 64.5% (-64.5%) · 1 | 13.4% | 3199.5% (+3199.5%) · 2 | 52.7% | — |',
    '| 1: … vllm #23151 | 1 | 22.8% (-22.8%) · 1 | 26.4% | 54.5% (-21.9%) · 2 | 66.6% | — |',
    '| 1: vllm_buildkite_perfbench | 3 | — | — | 19.6% (+19.6%) · 3 | 48.6% | — |',
    '| 2: ddiiwoong_blog | 65 | 43.3% (+43.3%) · 49 | 99.6% | 10.0% (-8.2%) · 46 | 55.1% | 17/23 (naive 0/23) |',
    '| 2: … 2026-08-23-llm-advanced-optimization | 34 | 52.8% (+52.8%) · 22 | 125.0% | 10.0% (-8.9%) · 26 | 39.4% | 6/12 (naive 0/12) |',
    '| 2: … 2026-09-06-llm-optimization-capstone | 16 | 19.9% (-19.9%) · 15 | 31.1% | 34.5% (-34.5%) · 8 | 79.1% | 8/8 (naive 0/8) |',
    '| 2: … 2026-08-19-quantization-3way-benchmark | 15 | 69.1% (+69.1%) · 12 | 497.4% | 7.6% (-1.3%) · 12 | 45.1% | 3/3 (naive 0/3) |',
    '| 2: llms_in_clouds_sglang | 1 | — | — | — | — | 0/2 (naive 0/2) |',
    '| 2: oci_aqua_troubleshooting | 1 | — | — | — | — | 0/2 (naive 0/2) |',
    '| 2: ree2raz_inference_bench | 6 | 6.7% (-6.7%) · 6 | 16.9% | 7.6% (+7.6%) · 6 | 16.6% | — |',
    '',
    'Without its largest source (ddiiwoong_blog, 118 of 164 figures):',
    '',
    '| rows | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|',
    '| round 4 without ddiiwoong_blog | 34 | 29.8% (-2.8%) · 17 | 21.4% | 15.4% (+7.7%) · 25 | 29.5% | 0/4 (naive 0/4) |',
    '',
    'By GPU (any number of them):',
    '',
    '| GPU | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|',
    '| A10 | 1 | — | — | — | — | 0/2 (naive 0/2) |',
    '| A10G | 24 | 54.6% (+54.6%) · 18 | 141.8% | 9.6% (-9.6%) · 18 | 39.4% | 3/6 (naive 0/6) |',
    '| H100 | 1 | 22.8% (-22.8%) · 1 | 26.4% | 54.5% (-21.9%) · 2 | 66.6% | — |',
    '| H100-PCIe | 4 | 87.2% (-9.1%) · 2 | 43.8% | 5.4% (-4.9%) · 2 | 29.7% | — |',
    '| H20 | 1 | 64.5% (-64.5%) · 1 | 13.4% | 3199.5% (+3199.5%) · 2 | 52.7% | — |',
    '| H200 | 3 | — | — | 19.6% (+19.6%) · 3 | 48.6% | — |',
    '| L4 | 27 | 13.0% (-3.5%) · 19 | 30.3% | 14.9% (+2.8%) · 20 | 47.7% | 5/10 (naive 0/10) |',
    '| L40S | 21 | 42.9% (+39.1%) · 18 | 171.5% | 7.6% (-3.4%) · 14 | 61.0% | 9/9 (naive 0/9) |',
    '| RTX-4090 | 17 | 95.0% (+95.0%) · 7 | 136.8% | 15.3% (+7.0%) · 10 | 29.5% | — |',
    '',
    'By load:',
    '',
    '| load | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|',
    '| batch | 3 | — | — | 19.6% (+19.6%) · 3 | 48.6% | — |',
    '| concurrency | 45 | 30.2% (+9.0%) · 48 | 66.3% | 14.8% (-7.3%) · 47 | 39.0% | — |',
    '| kv_capacity | 21 | — | — | — | — | 17/27 (naive 0/27) |',
    '| max_throughput | 9 | 118.3% (+118.3%) · 9 | 800.3% | 7.1% (-4.9%) · 9 | 63.5% | — |',
    '| request_rate | 21 | 95.0% (+78.1%) · 9 | 51.4% | 14.0% (+3.3%) · 12 | 29.5% | — |',
    '',
    'The 12 largest round-4 misses (by |log(predicted / measured)|, every metric):',
    '',
    '| source | case | engine | GPU × n (TP) | metric | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|',
    '| moe_config_prs | [sglang7631-dsv3-0324-fp8-8xh20-tp8-c8](https://github.com/sgl-project/sglang/pull/7631) | sglang | H20 × 8 (8) | ttft_ms | 257 | 16,190 | +6211.1% | 16.09 | -93.7% |',
    '| iog_llm_inference_benchmarks | [iog-l3-70b-2xh100-pcie-qps32](https://github.com/IOG-Foundation/llm-inference-benchmarks/blob/1ffd7960d341d7ff15e962af098ca5b08d9f253e/results/vllm_200prompts32qps_Meta-Llama-3-70B-Instruct_sharegpt_2xNVIDIA-H100-PCIe.json) | vllm | H100-PCIe × 2 (2) | output_tok_s | 546 | 20.47 | -96.2% | 826 | +51.4% |',
    '| moe_config_prs | [vllm23151-qwen3-30b-a3b-h100-c10](https://github.com/vllm-project/vllm/pull/23151) | vllm | H100 × 1 (1) | ttft_ms | 267 | 62.99 | -76.4% | 13.66 | -94.9% |',
    '| ddiiwoong_blog | [ddiiwoong-quant-q25-7b-fp8-l40s-c10](https://github.com/ddiiwoong/newblog/blob/d442f0f43208f14b7a8dadbc3e78b5825f3ca1af/blog/2026-08-19-quantization-3way-benchmark.md) | vllm | L40S × 1 (1) | total_tok_s | 480 | 1,595 | +231.9% | 33,530 | +6878.2% |',
    '| ddiiwoong_blog | [ddiiwoong-capstone-q3-14b-awq-1xl4-single-c32](https://github.com/ddiiwoong/newblog/blob/ca0977f4aaed493717b06da7547f92729ab5fa55/blog/2026-09-06-llm-optimization-capstone.md) | vllm | L4 × 1 (1) | ttft_ms | 515 | 165 | -67.9% | 56.88 | -88.9% |',
    '| moe_config_prs | [sglang7631-dsv3-0324-fp8-8xh20-tp8-c8](https://github.com/sgl-project/sglang/pull/7631) | sglang | H20 × 8 (8) | e2e_ms | 6,395 | 18,414 | +188.0% | 5,651 | -11.6% |',
    '| iog_llm_inference_benchmarks | [iog-r1d-qwen-14b-4xrtx-4090-qps32](https://github.com/IOG-Foundation/llm-inference-benchmarks/blob/1ffd7960d341d7ff15e962af098ca5b08d9f253e/results/vllm_200prompts32qps_DeepSeek-R1-Distill-Qwen-14B_sharegpt_4xNVIDIA-GeForce-RTX-4090.json) | vllm | RTX-4090 × 4 (4) | output_tok_s | 796 | 2,269 | +185.1% | 3,654 | +359.2% |',
    '| moe_config_prs | [sglang7631-dsv3-0324-fp8-8xh20-tp8-c8](https://github.com/sgl-project/sglang/pull/7631) | sglang | H20 × 8 (8) | output_tok_s | 328 | 116 | -64.5% | 372 | +13.4% |',
    '| ddiiwoong_blog | [ddiiwoong-adv-q25-14b-4xa10g-tp4-c32](https://github.com/ddiiwoong/newblog/blob/00205ba200e6dbc05edf8d9871859fb09cd8feaa/blog/2026-08-23-llm-advanced-optimization.md) | vllm | A10G × 4 (4) | total_tok_s | 821 | 2,282 | +177.9% | 5,341 | +550.3% |',
    '| ddiiwoong_blog | [ddiiwoong-quant-q25-7b-bf16-l40s-c10](https://github.com/ddiiwoong/newblog/blob/d442f0f43208f14b7a8dadbc3e78b5825f3ca1af/blog/2026-08-19-quantization-3way-benchmark.md) | vllm | L40S × 1 (1) | total_tok_s | 312 | 865 | +177.0% | 18,144 | +5709.8% |',
    '| ddiiwoong_blog | [ddiiwoong-adv-q25-14b-2xa10g-tp2-c32](https://github.com/ddiiwoong/newblog/blob/00205ba200e6dbc05edf8d9871859fb09cd8feaa/blog/2026-08-23-llm-advanced-optimization.md) | vllm | A10G × 2 (2) | total_tok_s | 592 | 1,453 | +145.3% | 2,670 | +350.9% |',
    '| ddiiwoong_blog | [ddiiwoong-adv-q25-7b-4xa10g-tp4-c32](https://github.com/ddiiwoong/newblog/blob/00205ba200e6dbc05edf8d9871859fb09cd8feaa/blog/2026-08-23-llm-advanced-optimization.md) | vllm | A10G × 4 (4) | total_tok_s | 1,659 | 4,018 | +142.2% | 10,358 | +524.4% |',
]

# What round 4's one evaluation says: written by hand after that run (2026-12-01, the estimator of commit ff21276),
# kept here so that the report carries it every time it is regenerated; the figures are the ones that run printed.
ROUND4_READING = [
    "What the evaluation says (hand-written after the one run, 2026-12-01; nothing was changed after it):",
    "",
    "- **Targets.** Latency is met (12.7 % over 71 figures; naive roofline 39.0 %); throughput is missed (38.2 % over "
    "66; naive 77.0 %); KV capacity is missed (17 of 27 figures, 13 of 21 start-up logs, within 5 %; naive 0 of 27). "
    "The naive roofline is better than the estimator on batch 1's throughput (36.2 % against 78.1 %, 11 figures) and on "
    "round 4 without the ddiiwoong blog (21.4 % against 29.8 %, 17 figures): its batch of 256 with no KV limit lands "
    "near IOG's saturated rate-32 runs, which the estimator misses for the reasons below.",
    "- **Decode transfers to the new GPUs.** TPOT, the metric with most figures (53), has a median error of 9.6 % "
    "(signed -1.6 %) over L4, L40S, A10G, RTX 4090, H100 PCIe and H100; ree2raz's L4 sweep (1-64 users) has medians "
    "of 6.7 % (output tok/s) and 7.6 % (TPOT).",
    "- **Short sweeps (the ddiiwoong blog's quantization and advanced-optimization posts: 34 of its 49 throughput "
    "figures, +69 % and +53 % signed).** Each concurrency level ran 8-300 prompts, one to three times the concurrency "
    "(c10 / c100 / c300 are single bursts of that many prompts, the A10G c32 level 48 prompts), so a run's total "
    "tok/s is set by its longest ShareGPT replies; the estimator takes every request at the mean length and does not "
    "see that tail (round 1's burst finding). The same runs' TPOTs have median errors of 7.6 % and 10.0 %. At one "
    "user the figures also show that the recorded lengths are not the runs': total tok/s × TPOT ≈ (input + output) / output is 1.4-1.6 there, "
    "against 2.05 for the 233 / 221 tokens the cases carry (the author's inspection of 100 prompts in another post, "
    "as the collector warned). The capstone's 2,000-prompt runs, where neither applies, are -19.9 %.",
    "- **Open loops above capacity with 200 prompts (IOG, rate 32).** The 200 prompts arrive within about 6 s, so "
    "these runs are bursts too: +14 to +31 % on one RTX 4090, +78 % on one H100 PCIe (the estimate holds 1,024 "
    "sequences at a steady state the 200-prompt run never reaches), +95 to +185 % on 2-4 RTX 4090s. On those "
    "multi-4090 layouts the light-load TPOT is also predicted 13-42 % too fast: tensor parallelism between consumer "
    "cards over PCIe (no NVLink; the source does not state the interconnect) costs more than modelled.",
    "- **Two runs the estimator says cannot start.** Llama-3-70B FP16 on 2× H100 PCIe: 65.7 GiB of weights per GPU "
    "and 5.6 GiB of modelled start-up overhead exceed the 0.9 budget (71.3 GiB) by 0.1 GiB, so the KV pool is 0 and "
    "the rate-32 throughput 20 tok/s against 546 measured (-96 %); the source does not publish its serve flags. "
    "DeepSeek-V3 FP8 on 8× H20 (SGLang #7631): the case records the command's `--context-length 4096` but not its "
    "`--mem-fraction-static 0.9`, so the estimate takes SGLang's TP-8 default 0.81, under which 78.3 GiB of weights "
    "per GPU do not fit (77.0 GiB): TTFT +6,211 %, output tok/s -64.5 %, E2E +188 %. The file stays as frozen; an "
    "erratum is the lead's decision.",
    "- **KV capacity.** The blog's six misses are small pools on 24 GB cards: Qwen2.5-7B on one A10G or L4 (+58 %) and "
    "Qwen2.5-14B on two (+8 to +23 %), where the weights take 14 of the 20 GiB budget and a start-up overhead "
    "0.4-1.9 GiB per GPU larger than modelled (vLLM 0.27 / 0.28) is a large share of a 3-5 GiB pool; the blog's other "
    "17 KV figures are within 4.4 %. SGLang's QwQ-32B log on 4× L4 is +5.7 / +5.9 %; the OCI log, whose model and GPU "
    "the collector inferred, -22 %.",
    "- **Still weak: TTFT and MoE decode.** TTFT is predicted too short (14 figures, signed -34.5 %; round 1: -41 %). "
    "Both vLLM MoE runs come out slower than measured (vLLM #23151, Qwen3-30B-A3B on an H100: TPOT +32.6 %; the "
    "Buildkite Mixtral-8x7B on 2× H200: E2E +37.5 %); the per-MoE-layer time fitted on the spent rounds' Qwen3 MoE "
    "runs (60 µs, 2.9 ms of the 17.5 ms TPOT predicted for Qwen3-30B-A3B's 48 layers) is where to look next.",
]


# Round 5's one evaluation as that run printed it (2026-12-01, commit 9ee9647: the estimator of 7b81be3), kept verbatim:
# its target lines and its rows of the per-figure table. Round 5 is spent since (two cases: a check, not a target).
ROUND5_EVALUATION = [
    '- held out, round 5, throughput: median error 31.3% over 3 figures — target ≤ 25 %: **missed**.',
    '- held out, round 5, latency: median error 20.5% over 1 figures — target ≤ 25 %: **met**.',
    '- held out, round 5, KV capacity: 1/1 within 5 % (max 0.1%) — target every case: **met**.',
    '',
    '| split | case | engine | GPU × n (TP, PP) | model, weights | in / out | load | metric | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| held out 5 | [vllm10360-rtxa6000-q25-32b-awq-4k](https://github.com/vllm-project/vllm/issues/10360) | vllm | RTX-A6000 × 1 (1, 1) | qwen2.5-32b, int4 | 4096 / 1 | kv_capacity | kv_cache_gib | 22.74 | 22.71 | -0.1% | 24.79 | 9.0% |',
    '| held out 5 | [vllm17788-h100nvl-qwen3-32b-bf16-sharegpt-burst1000](https://github.com/vllm-project/vllm/issues/17788) | vllm | H100-NVL × 1 (1, 1) | qwen3-32b, bf16 | 217 / 201 | max_throughput 1000 | output_tok_s | 654 | 860 | 31.6% | 6,128 | 837.5% |',
    '| held out 5 | [vllm17788-h100nvl-qwen3-32b-bf16-sharegpt-burst1000](https://github.com/vllm-project/vllm/issues/17788) | vllm | H100-NVL × 1 (1, 1) | qwen3-32b, bf16 | 217 / 201 | max_throughput 1000 | req_s | 3.26 | 4.28 | 31.3% | 30.49 | 835.2% |',
    '| held out 5 | [vllm17788-h100nvl-qwen3-32b-bf16-sharegpt-burst1000](https://github.com/vllm-project/vllm/issues/17788) | vllm | H100-NVL × 1 (1, 1) | qwen3-32b, bf16 | 217 / 201 | max_throughput 1000 | total_tok_s | 1,362 | 1,789 | 31.3% | 12,743 | 835.5% |',
    '| held out 5 | [vllm17788-h100nvl-qwen3-32b-bf16-sharegpt-burst1000](https://github.com/vllm-project/vllm/issues/17788) | vllm | H100-NVL × 1 (1, 1) | qwen3-32b, bf16 | 217 / 201 | max_throughput 1000 | ttft_ms | 146,809 | 116,724 | -20.5% | 17.03 | -100.0% |',
]


def findings_round6(rows: list[Row]) -> list[str]:
    """Round 6's evaluation, computed from the rows: by metric and statistic, by source, and per case (a round of ten
    cases), the naive roofline beside each (nothing here is typed in by hand)."""
    r6 = [r for r in rows if r.split == Split.heldout6]
    if not r6:
        return []
    cases = sorted({r.case.id for r in r6})
    files = sorted({r.file for r in r6})
    lat = [r for r in r6 if r.metric.category == "latency"]
    stats = sorted({r.statistic for r in lat}, key=LATENCY_STATISTICS.index)
    kv = [r for r in r6 if r.metric.category == "kv"]
    out = [
        f"Round 6: {len(cases)} cases, {len(r6)} figures from {len(files)} files ({len({r.case.gpu for r in r6})} GPU "
        f"types: {', '.join(sorted({r.case.gpu for r in r6}))}; engines {', '.join(sorted({r.case.engine.value for r in r6}))}). "
        f"Latency figures by statistic: {', '.join(f'{sum(r.statistic == s for r in lat)} {s}' for s in stats) or 'none'} "
        "(the estimator predicts means). "
        + (f"KV capacity: {len(kv)} figures." if kv else "KV capacity: no figure in this round."),
        "",
        "Each cell: median error (median signed error) · figures; *naive*: the naive roofline's median error on the "
        "same figures.",
        "",
        "By metric and statistic:",
        "",
        "| metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | naive | naive within 25 % (KV: 5 %) |",
        "|---|---|---|---|---|---|---|",
    ]
    for metric in Metric:
        for stat in LATENCY_STATISTICS:
            sel = [r for r in r6 if r.metric == metric and r.statistic == stat]
            if not sel:
                continue
            bound = TARGET_KV if metric.category == "kv" else TARGET_MEDIAN
            out.append(f"| {metric.value} | {stat} | {_within_cells(sel, bound)} |")
    out += ["", "By source (file):", "",
            *_group_table([*[(source_name(f), [r for r in r6 if r.file == f]) for f in files], ("round 6, pooled", r6)],
                          "source")]
    out += ["", "Per case (every figure; signed errors):", "",
            "| source | case | engine | GPU × n (TP) | model, weights | in / out | load | metric | statistic | measured | "
            "predicted | error | naive | naive error |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    order = list(Metric)
    for r in sorted(r6, key=lambda r: (r.file, r.case.id, order.index(r.metric))):
        c = r.case
        load = c.load.kind.value + (f" {c.load.value:g}" if c.load.value else "")
        out.append(f"| {source_name(r.file)} | [{c.id}]({c.url}) | {c.engine.value} | {c.gpu} × {c.gpus} ({c.tp}) | "
                   f"{c.model}, {c.weights.value} | {c.input_len} / {c.output_len} | {load} | {r.metric.value} | "
                   f"{r.statistic} | {num(r.measured)} | {num(r.predicted)} | {spct(r.signed)} | {num(r.naive)} | "
                   f"{spct(None if r.naive is None else (r.naive - r.measured) / r.measured)} |")
    return out


# Round 6's one evaluation as that run printed it (2026-12-02 00:02 UTC, the estimator of commit 25f8506, the files placed
# byte-identical to the freeze record of ab34400): its target lines and `findings_round6`, copied from that run's
# benchmarks/serving.md and not edited. While empty (before that run), the report printed the live section alone.
ROUND6_EVALUATION: list[str] = [
    '- held out, round 6, throughput: median error 30.7% over 8 figures — target ≤ 25 %: **missed**.',
    '- held out, round 6, latency: median error 73.1% over 24 figures — target ≤ 25 %: **missed**.',
    '  - of which median figures (as the source publishes them; the estimator predicts means): median error 73.1% over 24 figures — target ≤ 25 %: **missed**.',
    '',
    'Round 6: 10 cases, 32 figures from 2 files (3 GPU types: A100-80GB, H100, H200; engines sglang, vllm). Latency figures by statistic: 24 median (the estimator predicts means). KV capacity: no figure in this round.',
    '',
    "Each cell: median error (median signed error) · figures; *naive*: the naive roofline's median error on the same figures.",
    '',
    'By metric and statistic:',
    '',
    '| metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|',
    '| output_tok_s | single | 6 | 39.3% (+39.3%) · 6 | 1/6 | 92.2% | 0/6 |',
    '| req_s | single | 2 | 21.5% (-21.5%) · 2 | 1/2 | 173.1% | 0/2 |',
    '| ttft_ms | median | 8 | 80.7% (-80.7%) · 8 | 0/8 | 97.6% | 0/8 |',
    '| tpot_ms | median | 8 | 47.7% (-47.7%) · 8 | 4/8 | 75.8% | 0/8 |',
    '| e2e_ms | median | 8 | 63.1% (-26.7%) · 8 | 2/8 | 66.9% | 1/8 |',
    '',
    'By source (file):',
    '',
    '| source | cases | throughput: ours (signed) · figures | naive | latency: ours (signed) · figures | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|',
    '| sglang_benchmark_dsv3 | 4 | 51.7% (+51.7%) · 4 | 90.8% | 82.5% (-82.5%) · 12 | 96.3% | — |',
    '| sglang_benchmark_vllm060 | 6 | 21.6% (-21.6%) · 4 | 172.8% | 33.9% (-13.5%) · 12 | 54.6% | — |',
    '| round 6, pooled | 10 | 30.7% (+9.1%) · 8 | 105.1% | 73.1% (-73.1%) · 24 | 91.4% | — |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps1](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 1 | output_tok_s | single | 773 | 1,024 | +32.4% | 57.05 | -92.6% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps1](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 1 | ttft_ms | median | 563 | 52.88 | -90.6% | 4.79 | -99.2% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps1](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 1 | tpot_ms | median | 144 | 27.57 | -80.8% | 17.52 | -87.8% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps1](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 1 | e2e_ms | median | 147,735 | 28,261 | -80.9% | 17,948 | -87.9% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps2](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 2 | output_tok_s | single | 1,402 | 2,048 | +46.1% | 114 | -91.9% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps2](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 2 | ttft_ms | median | 684 | 62.86 | -90.8% | 4.79 | -99.3% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps2](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 2 | tpot_ms | median | 229 | 48.62 | -78.7% | 17.52 | -92.3% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps2](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 2 | e2e_ms | median | 234,757 | 49,806 | -78.8% | 17,948 | -92.4% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps4](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 4 | output_tok_s | single | 2,215 | 4,096 | +84.9% | 228 | -89.7% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps4](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 4 | ttft_ms | median | 865 | 80.71 | -90.7% | 4.79 | -99.4% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps4](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 4 | tpot_ms | median | 366 | 89.89 | -75.5% | 17.52 | -95.2% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps4](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 4 | e2e_ms | median | 376,041 | 92,041 | -75.5% | 17,948 | -95.2% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps8](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 8 | output_tok_s | single | 2,864 | 4,508 | +57.4% | 456 | -84.1% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps8](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 8 | ttft_ms | median | 1,359 | 90.01 | -93.4% | 4.79 | -99.6% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps8](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 8 | tpot_ms | median | 676 | 107 | -84.2% | 17.52 | -97.4% |',
    '| sglang_benchmark_dsv3 | [sgldsv3-8xh200-deepseek-v3-fp8-random1k1k-rps8](https://github.com/sgl-project/sglang/blob/26db155e335cd6e00d6f1ec161a3fc4c65dae4c0/benchmark/benchmark_dsv3/README.md) | sglang | H200 × 8 (8) | deepseek-v3, fp8 | 1024 / 1024 | request_rate 8 | e2e_ms | median | 692,711 | 109,269 | -84.2% | 17,948 | -97.4% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-burst5000](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 225 / 194 | max_throughput 5000 | output_tok_s | single | 3,701 | 3,171 | -14.3% | 12,123 | +227.6% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-burst5000](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 225 / 194 | max_throughput 5000 | req_s | single | 19.04 | 16.34 | -14.2% | 62.49 | +228.2% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-rps4](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 224 / 189 | request_rate 4 | ttft_ms | median | 179 | 58.22 | -67.5% | 7.99 | -95.5% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-rps4](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 224 / 189 | request_rate 4 | tpot_ms | median | 23.58 | 18.87 | -20.0% | 10.53 | -55.3% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-rps4](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 224 / 189 | request_rate 4 | e2e_ms | median | 2,916 | 3,606 | +23.7% | 1,998 | -31.5% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-rps8](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 225 / 192 | request_rate 8 | ttft_ms | median | 207 | 60.51 | -70.8% | 8.02 | -96.1% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-rps8](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 225 / 192 | request_rate 8 | tpot_ms | median | 29.15 | 23.66 | -18.8% | 10.53 | -63.9% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-4xh100-llama31-70b-sharegpt-rps8](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | H100 × 4 (4) | llama-3.1-70b, bf16 | 225 / 192 | request_rate 8 | e2e_ms | median | 3,752 | 4,579 | +22.0% | 2,030 | -45.9% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-burst5000](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 225 / 194 | max_throughput 5000 | output_tok_s | single | 4,132 | 2,936 | -29.0% | 8,995 | +117.7% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-burst5000](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 225 / 194 | max_throughput 5000 | req_s | single | 21.27 | 15.13 | -28.9% | 46.36 | +118.0% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-rps4](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 224 / 189 | request_rate 4 | ttft_ms | median | 100 | 56.17 | -44.1% | 11.53 | -88.5% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-rps4](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 224 / 189 | request_rate 4 | tpot_ms | median | 14.14 | 13.00 | -8.1% | 7.88 | -44.3% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-rps4](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 224 / 189 | request_rate 4 | e2e_ms | median | 1,692 | 2,499 | +47.7% | 1,500 | -11.3% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-rps8](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 225 / 192 | request_rate 8 | ttft_ms | median | 120 | 58.21 | -51.6% | 11.58 | -90.4% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-rps8](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 225 / 192 | request_rate 8 | tpot_ms | median | 17.09 | 16.56 | -3.1% | 7.88 | -53.9% |',
    '| sglang_benchmark_vllm060 | [sglvllm060-a100-llama31-8b-sharegpt-rps8](https://github.com/sgl-project/sglang/blob/120affb9613cc3f5bcd055ec09c7621d3ced0ebc/benchmark/benchmark_vllm_060/README.md) | vllm | A100-80GB × 1 (1) | llama-3.1-8b, bf16 | 225 / 192 | request_rate 8 | e2e_ms | median | 2,137 | 3,222 | +50.8% | 1,524 | -28.7% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 6"), written into the report before its one run.
ROUND6_CAVEATS = [
    "Read with the collector's caveats (README \"Round 6\"; each file's `notes`): every latency figure is a **median** "
    "(`statistic: median`, the only statistic either page publishes), compared with the estimator's means (under "
    "Poisson arrivals a median TTFT is below the mean); the vLLM 0.6.0 runs used **multi-step scheduling** "
    "(`--num-scheduler-steps 10`), which the estimator does not model, and their lengths are means taken from another "
    "run of the same client (the 5,000-prompt input mean is a stand-in); the four DeepSeek-V3 runs on 8× H200 ran "
    "SGLang 0.4.1 with **`--enable-dp-attention`** (data-parallel attention, recorded as TP 8: the estimator has no such "
    "layout) and are **saturated** (every rate above what the server sustained, the queue growing for about 300 s), one "
    "server for all four runs with the radix cache on. No erratum touches round 6; the per-source table keeps the two "
    "files apart.",
]


ROUND6_SINCE_HEADING = "### Since round 6's evaluation: round 6 (spent) with this commit's estimator"


def round6_section(rows: list[Row]) -> list[str]:
    """Round 6's section: the collector's caveats, then its one evaluation (ROUND6_EVALUATION, verbatim), then this
    commit's figures under "Since round 6's evaluation" (round 6 is spent: the change after it read it)."""
    live = [*targets(rows, Split.heldout6, by_statistic=True), "", *findings_round6(rows)]
    out = ["### Round 6: its one evaluation", "", *ROUND6_CAVEATS, ""]
    if not ROUND6_EVALUATION:
        return [*out, "The one run with the files in place (the estimator of commit 25f8506):", "", *live, ""]
    out += ["As that run printed it (2026-12-02, the estimator of commit 25f8506), kept verbatim:", "",
            *ROUND6_EVALUATION, "", ROUND6_SINCE_HEADING, "",
            "Round 6 is spent since that evaluation (the change after it read it: benchmarks/serving.md, \"Since round "
            "6's evaluation\" under the honest reading); its figures with this commit's estimator, errata applied:", ""]
    if live == ROUND6_EVALUATION:
        return [*out, "The same figures as its one evaluation above (the estimator has not changed since).", ""]
    return [*out, *live, ""]


# ------------------------------------------------------------------ round 7 (held out: frozen by digest at 25bfbbc)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 8"), before any evaluation: round 7 is reported per
# source file and pooled, pooled both with and without its ROCm file (MI300X on AMD's ROCm fork of vLLM, 32 of its 38
# cases; the vLLM profile was fitted on NVIDIA GPUs), with the median and the shares within 25 % and 50 % per metric
# category (throughput, latency, KV).
ROUND7_ROCM_FILE = "heldout7_rocm_vllm_dev_docker.yaml"
ROUND7_WITHOUT_ROCM = "held out, round 7 (spent) without the ROCm file"
ROUND7_WIDE = 0.50  # the second share round 7 reports beside the 25 % target (a wide miss is past 50 %)
ROUND7_MISSES_SHOWN = 3  # the largest misses shown per source, by |log error| (as `largest_residuals` ranks them)


def _within(sel: list[Row], bound: float) -> str:
    """'k/n': the figures of `sel` whose error is at most `bound` ('—' for none)."""
    errs = [r.error for r in sel if r.error is not None]
    return f"{sum(e <= bound for e in errs)}/{len(errs)}" if errs else "—"


def _share_table(groups: list[tuple[str, list[Row]]], head: str) -> list[str]:
    """One row per group: for throughput and latency the median error (signed) · figures, the shares within 25 % and
    50 %, the naive roofline's median; KV figures within 5 %."""
    out = [f"| {head} | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | "
           "latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, sel in groups:
        cells = []
        for cat in ("throughput", "latency"):
            c = [r for r in sel if r.metric.category == cat]
            cells += [_ours(c), _within(c, TARGET_MEDIAN), _within(c, ROUND7_WIDE), _naive(c) if c else "—"]
        kv = [r for r in sel if r.metric.category == "kv"]
        out.append(f"| {name} | {len({r.case.id for r in sel})} | {' | '.join(cells)} | {_kv(kv)} |")
    return out


def _log_miss(r: Row) -> float:
    return abs(math.log(r.predicted / r.measured)) if r.predicted and r.predicted > 0 else math.inf


def findings_round7(rows: list[Row]) -> list[str]:
    """Round 7's evaluation, computed from the rows: per source and pooled (with and without the ROCm file), by metric
    and statistic per source, the ROCm file by model and prompt length, the largest misses per source, and every
    figure, the naive roofline beside each (nothing here is typed in by hand)."""
    r7 = [r for r in rows if r.split == Split.heldout7]
    if not r7:
        return []
    files = sorted({r.file for r in r7})
    rocm = [r for r in r7 if r.file == ROUND7_ROCM_FILE]
    rest = [r for r in r7 if r.file != ROUND7_ROCM_FILE]
    lat = [r for r in r7 if r.metric.category == "latency"]
    stats = sorted({r.statistic for r in lat}, key=LATENCY_STATISTICS.index)
    kv = [r for r in r7 if r.metric.category == "kv"]
    out = [
        f"Round 7: {len({r.case.id for r in r7})} cases, {len(r7)} figures from {len(files)} files "
        f"({len({r.case.gpu for r in r7})} GPU types: {', '.join(sorted({r.case.gpu for r in r7}))}; engines "
        f"{', '.join(sorted({r.case.engine.value for r in r7}))}); the ROCm file carries "
        f"{len({r.case.id for r in rocm})} cases, {len(rocm)} figures. Latency figures by statistic: "
        f"{', '.join(f'{sum(r.statistic == s for r in lat)} {s}' for s in stats) or 'none'} (the estimator predicts "
        "means). " + (f"KV capacity: {len(kv)} figures." if kv else "KV capacity: no figure in this round."),
        "",
        "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most "
        "that; *naive*: the naive roofline's median error on the same figures.",
        "",
        "By source (file), and pooled with and without the ROCm file:",
        "",
        *_share_table([*[(source_name(f), [r for r in r7 if r.file == f]) for f in files],
                       ("round 7, pooled", r7), ("round 7 without the ROCm file, pooled", rest)], "source"),
        "",
        "By source, metric and statistic:",
        "",
        *_metric_statistic_table(r7, files),
    ]
    if rocm:
        shapes = sorted({(r.case.model, r.case.input_len) for r in rocm})
        out += ["", "The ROCm file by model and prompt length (each group: batch 1-128, 2,048 tokens out):", "",
                *_share_table([(f"{m}, {n:,} in", [r for r in rocm if (r.case.model, r.case.input_len) == (m, n)])
                               for m, n in shapes], "model, input")]
    return [*out, "", *_misses_table(r7, files, ROUND7_MISSES_SHOWN), "", *_every_figure_table(r7)]


def _by_file(sel_all: list[Row], files: list[str]) -> list[tuple[str, list[Row]]]:
    """(source name, its rows) for each file, in the order given."""
    return [(source_name(f), [r for r in sel_all if r.file == f]) for f in files]


def _metric_statistic_table(sel_all: list[Row], files: list[str]) -> list[str]:
    """One row per source, metric and statistic (`_metric_statistic_rows` over the files)."""
    return _metric_statistic_rows(_by_file(sel_all, files))


def _metric_statistic_rows(groups: list[tuple[str, list[Row]]], head: str = "source") -> list[str]:
    """One row per group, metric and statistic: figures, our median (signed), the shares within the target (KV: 5 %)
    and within 50 %, the naive roofline's median and share within the target."""
    out = [f"| {head} | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | "
           "ours within 50 % | naive | naive within 25 % (KV: 5 %) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for name, rows in groups:
        for metric in Metric:
            for stat in LATENCY_STATISTICS:
                sel = [r for r in rows if r.metric == metric and r.statistic == stat]
                if not sel:
                    continue
                bound = TARGET_KV if metric.category == "kv" else TARGET_MEDIAN
                nai = [r.naive_error for r in sel if r.naive_error is not None]
                out.append(f"| {name} | {metric.value} | {stat} | {len(sel)} | {_ours(sel)} | "
                           f"{_within(sel, bound)} | {_within(sel, ROUND7_WIDE)} | {_naive(sel)} | "
                           f"{sum(e <= bound for e in nai)}/{len(nai)} |")
    return out


def _misses_table(sel_all: list[Row], files: list[str], n: int) -> list[str]:
    """The n largest misses per source (`_misses_rows` over the files)."""
    return _misses_rows(_by_file(sel_all, files), n)


def _misses_rows(groups: list[tuple[str, list[Row]]], n: int, per: str = "source") -> list[str]:
    """The n largest misses per group by |log error| (as `largest_residuals` ranks them), the naive error beside."""
    out = [f"The largest misses per {per} (up to {n}, by |log error|):", "",
           f"| {per} | case | metric | statistic | measured | predicted | error | naive error |",
           "|---|---|---|---|---|---|---|---|"]
    for name, rows in groups:
        for r in sorted(rows, key=lambda r: (-_log_miss(r), r.case.id))[:n]:
            out.append(f"| {name} | {r.case.id} | {r.metric.value} | {r.statistic} | {num(r.measured)} | "
                       f"{num(r.predicted)} | {spct(r.signed)} | "
                       f"{spct(None if r.naive is None else (r.naive - r.measured) / r.measured)} |")
    return out


def _every_figure_table(sel_all: list[Row]) -> list[str]:
    """Every figure of a round with its case's layout, signed errors and the naive roofline."""
    out = ["Per case (every figure; signed errors):", "",
           "| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | "
           "measured | predicted | error | naive | naive error |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    order = list(Metric)
    for r in sorted(sel_all, key=lambda r: (r.file, r.case.id, order.index(r.metric))):
        c = r.case
        load = c.load.kind.value + (f" {c.load.value:g}" if c.load.value else "")
        out.append(f"| {source_name(r.file)} | [{c.id}]({c.url}) | {c.engine.value} | {c.gpu} × {c.gpus} ({c.tp}) | "
                   f"{c.model}, {c.weights.value}, {c.kv_precision.value} | {c.input_len} / {c.output_len} | {load} | "
                   f"{r.metric.value} | {r.statistic} | {num(r.measured)} | {num(r.predicted)} | {spct(r.signed)} | "
                   f"{num(r.naive)} | {spct(None if r.naive is None else (r.naive - r.measured) / r.measured)} |")
    return out


def _targets_with_and_without(rows: list[Row], split: Split, left_out: str, label: str) -> list[str]:
    """A round's target lines pooled, then pooled without one of its files (both readings decided at its freeze)."""
    rest = [r for r in rows if not (r.split == split and r.file == left_out)]
    return [*targets(rows, split, by_statistic=True), *targets(rest, split, by_statistic=True, label=label)]


def round7_targets(rows: list[Row]) -> list[str]:
    """Round 7's target lines: pooled, then pooled without the ROCm file (both decided at the freeze)."""
    return _targets_with_and_without(rows, Split.heldout7, ROUND7_ROCM_FILE, ROUND7_WITHOUT_ROCM)


# Round 7's one evaluation as that run printed it (2026-12-02 02:13 UTC, the estimator of commit ad82352, the files placed
# byte-identical to the freeze record of 25bfbbc): its target lines and `findings_round7`, copied from that run's
# benchmarks/serving.md and not edited. While empty (before that run), the report printed the live section alone.
ROUND7_EVALUATION: list[str] = [
    '- held out, round 7, throughput: median error 45.1% over 8 figures — target ≤ 25 %: **missed**.',
    '- held out, round 7, latency: median error 38.6% over 36 figures — target ≤ 25 %: **missed**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 39.0% over 34 figures — target ≤ 25 %: **missed**.',
    '  - of which median figures (as the source publishes them; the estimator predicts means): median error 9.0% over 2 figures — target ≤ 25 %: **met**.',
    '- held out, round 7 without the ROCm file, throughput: median error 45.1% over 8 figures — target ≤ 25 %: **missed**.',
    '- held out, round 7 without the ROCm file, latency: median error 47.3% over 4 figures — target ≤ 25 %: **missed**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 90.1% over 2 figures — target ≤ 25 %: **missed**.',
    '  - of which median figures (as the source publishes them; the estimator predicts means): median error 9.0% over 2 figures — target ≤ 25 %: **met**.',
    '',
    'Round 7: 38 cases, 44 figures from 4 files (6 GPU types: A100-80GB, A40, H100, H200, L40S, MI300X; engines sglang, vllm); the ROCm file carries 32 cases, 32 figures. Latency figures by statistic: 34 mean, 2 median (the estimator predicts means). KV capacity: no figure in this round.',
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures.",
    '',
    'By source (file), and pooled with and without the ROCm file:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| hf_deepseek_v3_awq_card | 3 | 104.0% (+104.0%) · 3 | 1/3 | 1/3 | 6.4% | — | — | — | — | — |',
    '| rocm_vllm_dev_docker | 32 | — | — | — | — | 38.6% (-38.6%) · 32 | 6/32 | 32/32 | 80.2% | — |',
    '| sglang_pr_6121 | 1 | 45.1% (-45.1%) · 3 | 0/3 | 3/3 | 155.7% | 90.1% (+90.1%) · 2 | 0/2 | 0/2 | 82.5% | — |',
    '| vllm_blog_fp8_kvcache | 2 | 5.6% (+1.1%) · 2 | 2/2 | 2/2 | 172.7% | 9.0% (+9.0%) · 2 | 2/2 | 2/2 | 56.9% | — |',
    '| round 7, pooled | 38 | 45.1% (+1.1%) · 8 | 3/8 | 6/8 | 154.7% | 38.6% (-37.9%) · 36 | 8/36 | 34/36 | 79.8% | — |',
    '| round 7 without the ROCm file, pooled | 6 | 45.1% (+1.1%) · 8 | 3/8 | 6/8 | 154.7% | 47.3% (+47.3%) · 4 | 2/4 | 2/4 | 61.3% | — |',
    '',
    'By source, metric and statistic:',
    '',
    '| source | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| hf_deepseek_v3_awq_card | decode_tok_s | single | 3 | 104.0% (+104.0%) · 3 | 1/3 | 1/3 | 6.4% | 2/3 |',
    '| rocm_vllm_dev_docker | e2e_ms | mean | 32 | 38.6% (-38.6%) · 32 | 6/32 | 32/32 | 80.2% | 0/32 |',
    '| sglang_pr_6121 | output_tok_s | single | 1 | 45.1% (-45.1%) · 1 | 0/1 | 1/1 | 155.7% | 0/1 |',
    '| sglang_pr_6121 | total_tok_s | single | 1 | 45.1% (-45.1%) · 1 | 0/1 | 1/1 | 155.7% | 0/1 |',
    '| sglang_pr_6121 | req_s | single | 1 | 45.1% (-45.1%) · 1 | 0/1 | 1/1 | 155.7% | 0/1 |',
    '| sglang_pr_6121 | ttft_ms | mean | 1 | 97.6% (+97.6%) · 1 | 0/1 | 0/1 | 99.8% | 0/1 |',
    '| sglang_pr_6121 | e2e_ms | mean | 1 | 82.7% (+82.7%) · 1 | 0/1 | 0/1 | 65.2% | 0/1 |',
    '| vllm_blog_fp8_kvcache | output_tok_s | mean | 2 | 5.6% (+1.1%) · 2 | 2/2 | 2/2 | 172.7% | 0/2 |',
    '| vllm_blog_fp8_kvcache | ttft_ms | median | 2 | 9.0% (+9.0%) · 2 | 2/2 | 2/2 | 56.9% | 0/2 |',
    '',
    'The ROCm file by model and prompt length (each group: batch 1-128, 2,048 tokens out):',
    '',
    '| model, input | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| llama-3.1-405b, 128 in | 8 | — | — | — | — | 39.7% (-39.7%) · 8 | 0/8 | 8/8 | 64.4% | — |',
    '| llama-3.1-405b, 2,048 in | 8 | — | — | — | — | 35.2% (-35.2%) · 8 | 1/8 | 8/8 | 64.6% | — |',
    '| llama-3.1-70b, 128 in | 8 | — | — | — | — | 41.4% (-41.4%) · 8 | 2/8 | 8/8 | 83.1% | — |',
    '| llama-3.1-70b, 2,048 in | 8 | — | — | — | — | 38.0% (-38.0%) · 8 | 3/8 | 8/8 | 83.4% | — |',
    '',
    'The largest misses per source (up to 3, by |log error|):',
    '',
    '| source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| hf_deepseek_v3_awq_card | dsv3awq-card-8xa100-80gb-deepseek-v3-awq-b1-in2-out2k | decode_tok_s | single | 46.80 | 124 | +164.2% | -0.8% |',
    '| hf_deepseek_v3_awq_card | dsv3awq-card-4xh200-deepseek-v3-awq-b1-in2-out2k | decode_tok_s | single | 58.40 | 119 | +104.0% | -6.4% |',
    '| hf_deepseek_v3_awq_card | dsv3awq-card-8xl40s-deepseek-v3-awq-b1-in2-out2k | decode_tok_s | single | 46.30 | 57.73 | +24.7% | -57.5% |',
    '| rocm_vllm_dev_docker | rocmdevdocker-8xmi300x-llama31-70b-fp8-bs2-in128-out2048 | e2e_ms | mean | 18,057 | 9,728 | -46.1% | -80.6% |',
    '| rocm_vllm_dev_docker | rocmdevdocker-8xmi300x-llama31-70b-fp8-bs1-in2048-out2048 | e2e_ms | mean | 17,500 | 9,558 | -45.4% | -79.9% |',
    '| rocm_vllm_dev_docker | rocmdevdocker-8xmi300x-llama31-70b-fp8-bs2-in2048-out2048 | e2e_ms | mean | 18,055 | 9,890 | -45.2% | -80.5% |',
    '| sglang_pr_6121 | sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128 | ttft_ms | mean | 2,667 | 5,270 | +97.6% | -99.8% |',
    '| sglang_pr_6121 | sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128 | e2e_ms | mean | 16,143 | 29,493 | +82.7% | -65.2% |',
    '| sglang_pr_6121 | sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128 | total_tok_s | single | 6,067 | 3,333 | -45.1% | +155.7% |',
    '| vllm_blog_fp8_kvcache | vllmblog-fp8kv-h100-llama31-8b-kvfp8-c8-20k2k | ttft_ms | median | 743 | 831 | +11.8% | -56.3% |',
    '| vllm_blog_fp8_kvcache | vllmblog-fp8kv-h100-llama31-8b-kvfp8-c8-20k2k | output_tok_s | mean | 518 | 552 | +6.7% | +153.7% |',
    '| vllm_blog_fp8_kvcache | vllmblog-fp8kv-h100-llama31-8b-kvbf16-c8-20k2k | ttft_ms | median | 764 | 810 | +6.1% | -57.5% |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| hf_deepseek_v3_awq_card | [dsv3awq-card-4xh200-deepseek-v3-awq-b1-in2-out2k](https://huggingface.co/cognitivecomputations/DeepSeek-V3-AWQ) | vllm | H200 × 4 (4) | deepseek-v3, int4, auto | 2 / 2048 | concurrency 1 | decode_tok_s | single | 58.40 | 119 | +104.0% | 54.64 | -6.4% |',
    '| hf_deepseek_v3_awq_card | [dsv3awq-card-8xa100-80gb-deepseek-v3-awq-b1-in2-out2k](https://huggingface.co/cognitivecomputations/DeepSeek-V3-AWQ) | vllm | A100-80GB × 8 (8) | deepseek-v3, int4, auto | 2 / 2048 | concurrency 1 | decode_tok_s | single | 46.80 | 124 | +164.2% | 46.42 | -0.8% |',
    '| hf_deepseek_v3_awq_card | [dsv3awq-card-8xl40s-deepseek-v3-awq-b1-in2-out2k](https://huggingface.co/cognitivecomputations/DeepSeek-V3-AWQ) | vllm | L40S × 8 (8) | deepseek-v3, int4, auto | 2 / 2048 | concurrency 1 | decode_tok_s | single | 46.30 | 57.73 | +24.7% | 19.67 | -57.5% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs1-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 1 | e2e_ms | mean | 48,453 | 29,826 | -38.4% | 19,811 | -59.1% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs1-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 1 | e2e_ms | mean | 48,362 | 30,082 | -37.8% | 19,886 | -58.9% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs128-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 128 | e2e_ms | mean | 117,027 | 72,464 | -38.1% | 19,811 | -83.1% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs128-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 128 | e2e_ms | mean | 125,471 | 103,387 | -17.6% | 19,886 | -84.2% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs16-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 16 | e2e_ms | mean | 57,274 | 34,620 | -39.6% | 19,811 | -65.4% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs16-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 16 | e2e_ms | mean | 57,841 | 38,739 | -33.0% | 19,886 | -65.6% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs2-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 2 | e2e_ms | mean | 49,268 | 30,144 | -38.8% | 19,811 | -59.8% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs2-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 2 | e2e_ms | mean | 49,121 | 30,659 | -37.6% | 19,886 | -59.5% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs32-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 32 | e2e_ms | mean | 68,901 | 39,735 | -42.3% | 19,811 | -71.2% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs32-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 32 | e2e_ms | mean | 70,538 | 47,975 | -32.0% | 19,886 | -71.8% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs4-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 4 | e2e_ms | mean | 51,136 | 30,783 | -39.8% | 19,811 | -61.3% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs4-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 4 | e2e_ms | mean | 52,347 | 31,813 | -39.2% | 19,886 | -62.0% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs64-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 64 | e2e_ms | mean | 88,631 | 49,964 | -43.6% | 19,811 | -77.6% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs64-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 64 | e2e_ms | mean | 91,452 | 66,445 | -27.3% | 19,886 | -78.3% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs8-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 128 / 2048 | batch 8 | e2e_ms | mean | 54,226 | 32,062 | -40.9% | 19,811 | -63.5% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-405b-fp8-bs8-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-405b, fp8, fp16 | 2048 / 2048 | batch 8 | e2e_ms | mean | 54,471 | 34,121 | -37.4% | 19,886 | -63.5% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs1-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 1 | e2e_ms | mean | 17,236 | 9,477 | -45.0% | 3,510 | -79.6% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs1-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 1 | e2e_ms | mean | 17,500 | 9,558 | -45.4% | 3,523 | -79.9% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs128-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 128 | e2e_ms | mean | 46,484 | 41,390 | -11.0% | 3,510 | -92.4% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs128-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 128 | e2e_ms | mean | 52,394 | 51,782 | -1.2% | 3,523 | -93.3% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs16-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 16 | e2e_ms | mean | 22,072 | 13,246 | -40.0% | 3,510 | -84.1% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs16-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 16 | e2e_ms | mean | 22,347 | 14,544 | -34.9% | 3,523 | -84.2% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs2-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 2 | e2e_ms | mean | 18,057 | 9,728 | -46.1% | 3,510 | -80.6% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs2-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 2 | e2e_ms | mean | 18,055 | 9,890 | -45.2% | 3,523 | -80.5% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs32-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 32 | e2e_ms | mean | 24,932 | 17,266 | -30.7% | 3,510 | -85.9% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs32-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 32 | e2e_ms | mean | 25,966 | 19,864 | -23.5% | 3,523 | -86.4% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs4-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 4 | e2e_ms | mean | 18,450 | 10,231 | -44.5% | 3,510 | -81.0% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs4-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 4 | e2e_ms | mean | 18,858 | 10,554 | -44.0% | 3,523 | -81.3% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs64-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 64 | e2e_ms | mean | 33,287 | 25,307 | -24.0% | 3,510 | -89.5% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs64-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 64 | e2e_ms | mean | 35,324 | 30,503 | -13.6% | 3,523 | -90.0% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs8-in128-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 128 / 2048 | batch 8 | e2e_ms | mean | 19,677 | 11,236 | -42.9% | 3,510 | -82.2% |',
    '| rocm_vllm_dev_docker | [rocmdevdocker-8xmi300x-llama31-70b-fp8-bs8-in2048-out2048](https://github.com/ROCm/vllm/blob/040de12d45c16d6de6ad386cc57dd68b8c5b805e/docs/dev-docker/README.md) | vllm | MI300X × 8 (8) | llama-3.1-70b, fp8, fp16 | 2048 / 2048 | batch 8 | e2e_ms | mean | 20,161 | 11,884 | -41.1% | 3,523 | -82.5% |',
    '| sglang_pr_6121 | [sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128](https://github.com/sgl-project/sglang/pull/6121) | sglang | A40 × 4 (4) | qwen3-30b-a3b, bf16, auto | 512 / 256 | concurrency 128 | output_tok_s | single | 2,022 | 1,111 | -45.1% | 5,171 | +155.7% |',
    '| sglang_pr_6121 | [sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128](https://github.com/sgl-project/sglang/pull/6121) | sglang | A40 × 4 (4) | qwen3-30b-a3b, bf16, auto | 512 / 256 | concurrency 128 | total_tok_s | single | 6,067 | 3,333 | -45.1% | 15,512 | +155.7% |',
    '| sglang_pr_6121 | [sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128](https://github.com/sgl-project/sglang/pull/6121) | sglang | A40 × 4 (4) | qwen3-30b-a3b, bf16, auto | 512 / 256 | concurrency 128 | req_s | single | 7.90 | 4.34 | -45.1% | 20.20 | +155.7% |',
    '| sglang_pr_6121 | [sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128](https://github.com/sgl-project/sglang/pull/6121) | sglang | A40 × 4 (4) | qwen3-30b-a3b, bf16, auto | 512 / 256 | concurrency 128 | ttft_ms | mean | 2,667 | 5,270 | +97.6% | 5.64 | -99.8% |',
    '| sglang_pr_6121 | [sglpr6121-4xa40-qwen3-30b-a3b-tp4-random512-256-c128](https://github.com/sgl-project/sglang/pull/6121) | sglang | A40 × 4 (4) | qwen3-30b-a3b, bf16, auto | 512 / 256 | concurrency 128 | e2e_ms | mean | 16,143 | 29,493 | +82.7% | 5,621 | -65.2% |',
    '| vllm_blog_fp8_kvcache | [vllmblog-fp8kv-h100-llama31-8b-kvbf16-c8-20k2k](https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4a5807c8d900ae468897e45263373e534e/_posts/2026-04-22-fp8-kvcache.md) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, bf16 | 20000 / 2000 | concurrency 8 | output_tok_s | mean | 450 | 430 | -4.5% | 1,313 | +191.6% |',
    '| vllm_blog_fp8_kvcache | [vllmblog-fp8kv-h100-llama31-8b-kvbf16-c8-20k2k](https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4a5807c8d900ae468897e45263373e534e/_posts/2026-04-22-fp8-kvcache.md) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, bf16 | 20000 / 2000 | concurrency 8 | ttft_ms | median | 764 | 810 | +6.1% | 325 | -57.5% |',
    '| vllm_blog_fp8_kvcache | [vllmblog-fp8kv-h100-llama31-8b-kvfp8-c8-20k2k](https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4a5807c8d900ae468897e45263373e534e/_posts/2026-04-22-fp8-kvcache.md) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, fp8 | 20000 / 2000 | concurrency 8 | output_tok_s | mean | 518 | 552 | +6.7% | 1,313 | +153.7% |',
    '| vllm_blog_fp8_kvcache | [vllmblog-fp8kv-h100-llama31-8b-kvfp8-c8-20k2k](https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4a5807c8d900ae468897e45263373e534e/_posts/2026-04-22-fp8-kvcache.md) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, fp8 | 20000 / 2000 | concurrency 8 | ttft_ms | median | 743 | 831 | +11.8% | 325 | -56.3% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 7"), written into the report before its one run.
ROUND7_CAVEATS = [
    "Read with the collector's caveats (README \"Round 7\"; each file's `notes`): 32 of the 38 cases are AMD's **ROCm "
    "fork of vLLM** (0.10.0, V1 engine) on 8× MI300X, each the mean E2E latency of one whole offline batch "
    "(`benchmark_latency.py`: the prefill of batch × input tokens, then 2,047 decode steps; no server, no queue), FP8 "
    "weights with an fp16 KV cache; the estimator's vLLM profile was fitted on NVIDIA GPUs, so these rows test the "
    "catalog's MI300X entry as much as the engine model, and the round is reported pooled with and without them "
    "(decided at the freeze). The vLLM blog's two H100 runs have approximate lengths (~20k in / ~2k out, ±15 %) and "
    "**median** TTFTs; its FP8-KV run uses FP8 attention. The DeepSeek-V3 AWQ card ran the author's own vLLM 0.8.3.dev "
    "wheel (V0 engine; a forked sm80 FlashMLA on the A100, the L40S backend not stated); its undefined \"TPS Per "
    "Request\" is recorded as single-user decode tok/s, and TP = GPU count is assumed for the L40S and H200 rows. "
    "SGLang #6121's TP 4 baseline on 4× A40 (PCIe) is flagged noisy by its author and is recorded with "
    "`arrivals: together`. No erratum touches round 7; no round-7 KV-capacity figure exists.",
]


ROUND7_SINCE_HEADING = "### Since round 7's evaluation: round 7 with this commit's estimator"


def _relabelled_round7(lines: list[str]) -> list[str]:
    """ROUND7_EVALUATION's target lines under round 7's labels now that it is spent (the figures untouched): what the
    live section prints when no predicted figure has changed."""
    return _relabelled(lines, {"- held out, round 7 without the ROCm file, ": f"- {ROUND7_WITHOUT_ROCM}, ",
                               "- held out, round 7, ": f"- {SPLIT_LABEL[Split.heldout7]}, "})


def _relabelled(lines: list[str], was: dict[str, str]) -> list[str]:
    """`lines` with each line's leading label (a key of `was`) replaced by its new one; other lines as they are."""
    out = []
    for line in lines:
        for old, new in was.items():
            if line.startswith(old):
                line = new + line[len(old):]
                break
        out.append(line)
    return out


def round7_section(rows: list[Row]) -> list[str]:
    """Round 7's section: the collector's caveats, then its one evaluation (ROUND7_EVALUATION, verbatim), then this
    commit's figures under "Since round 7's evaluation" (round 7 is spent: the change after it read it)."""
    live = [*round7_targets(rows), "", *findings_round7(rows)]
    out = ["### Round 7: its one evaluation", "", *ROUND7_CAVEATS, ""]
    if not ROUND7_EVALUATION:
        return [*out, "The one run with the files in place (the estimator of commit ad82352):", "", *live, ""]
    out += ["As that run printed it (2026-12-02, the estimator of commit ad82352), kept verbatim:", "",
            *ROUND7_EVALUATION, "", ROUND7_SINCE_HEADING, "",
            "Round 7 is spent since that evaluation (the change after it, 443df97, read it); its figures with this "
            "commit's estimator, errata applied:", ""]
    if live == _relabelled_round7(ROUND7_EVALUATION):
        return [*out, "The same figures as its one evaluation above, now labelled \"(spent)\" (no predicted figure has "
                "changed since; what did change is in \"Since round 7's evaluation\" under the honest reading below).",
                ""]
    return [*out, *live, ""]


# ------------------------------------------------------------------ round 8 (held out: frozen by digest at 58732c8)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 8"), before any evaluation: round 8 is reported per
# source file and pooled, pooled both with and without its Max-Q file (an RTX PRO 6000 Blackwell Max-Q capped at 300 W,
# vLLM 0.18 with torch.compile off, where the catalog's RTX-PRO-6000 is the 600 W card: 7 of its 17 cases), per metric
# category and statistic (median vs mean), with the median and the shares within 25 % and 50 %, beside the naive
# roofline. The shares, the misses shown and the tables are round 7's (ROUND7_WIDE, the shared table helpers).
ROUND8_MAXQ_FILE = "heldout8_waynehacking8_trtllm_triton_serving.yaml"
ROUND8_WITHOUT_MAXQ = "held out, round 8 (spent) without the Max-Q file"
ROUND8_MISSES_SHOWN = 3  # the largest misses shown per source, by |log error|


def _category_statistic_table(groups: list[tuple[str, list[Row]]]) -> list[str]:
    """Pooled by metric category and statistic, one row per (group, category, statistic): figures, our median
    (signed), the shares within the target (KV: 5 %) and within 50 %, the naive roofline's median and share."""
    out = ["| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | "
           "ours within 50 % | naive | naive within 25 % (KV: 5 %) |", "|---|---|---|---|---|---|---|---|---|"]
    for name, rows in groups:
        for cat in ("throughput", "latency", "kv"):
            for stat in LATENCY_STATISTICS:
                sel = [r for r in rows if r.metric.category == cat and r.statistic == stat]
                if not sel:
                    continue
                bound = TARGET_KV if cat == "kv" else TARGET_MEDIAN
                nai = [r.naive_error for r in sel if r.naive_error is not None]
                out.append(f"| {name} | {cat} | {stat} | {len(sel)} | {_ours(sel)} | {_within(sel, bound)} | "
                           f"{_within(sel, ROUND7_WIDE)} | {_naive(sel)} | {sum(e <= bound for e in nai)}/{len(nai)} |")
    return out


def findings_round8(rows: list[Row]) -> list[str]:
    """Round 8's evaluation, computed from the rows: per source and pooled (with and without the Max-Q file), pooled by
    metric category and statistic, by metric and statistic per source, the largest misses per source, and every
    figure, the naive roofline beside each (nothing here is typed in by hand)."""
    r8 = [r for r in rows if r.split == Split.heldout8]
    if not r8:
        return []
    files = sorted({r.file for r in r8})
    maxq = [r for r in r8 if r.file == ROUND8_MAXQ_FILE]
    rest = [r for r in r8 if r.file != ROUND8_MAXQ_FILE]
    lat = [r for r in r8 if r.metric.category == "latency"]
    stats = sorted({r.statistic for r in lat}, key=LATENCY_STATISTICS.index)
    kv = [r for r in r8 if r.metric.category == "kv"]
    return [
        f"Round 8: {len({r.case.id for r in r8})} cases, {len(r8)} figures from {len(files)} files "
        f"({len({r.case.gpu for r in r8})} GPU types: {', '.join(sorted({r.case.gpu for r in r8}))}; engines "
        f"{', '.join(sorted({r.case.engine.value for r in r8}))}); the Max-Q file carries "
        f"{len({r.case.id for r in maxq})} cases, {len(maxq)} figures. Latency figures by statistic: "
        f"{', '.join(f'{sum(r.statistic == s for r in lat)} {s}' for s in stats) or 'none'} (the estimator predicts "
        "means). " + (f"KV capacity: {len(kv)} figures." if kv else "KV capacity: no figure in this round."),
        "",
        "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most "
        "that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive "
        "roofline's in brackets).",
        "",
        "By source (file), and pooled with and without the Max-Q file:",
        "",
        *_share_table([*[(source_name(f), [r for r in r8 if r.file == f]) for f in files],
                       ("round 8, pooled", r8), ("round 8 without the Max-Q file, pooled", rest)], "source"),
        "",
        "Pooled by metric category and statistic (as the sources publish them; the estimator predicts means):",
        "",
        *_category_statistic_table([("round 8", r8), ("without the Max-Q file", rest)]),
        "",
        "By source, metric and statistic:",
        "",
        *_metric_statistic_table(r8, files),
        "",
        *_misses_table(r8, files, ROUND8_MISSES_SHOWN),
        "",
        *_every_figure_table(r8),
    ]


def round8_targets(rows: list[Row]) -> list[str]:
    """Round 8's target lines: pooled, then pooled without the Max-Q file (both decided at the freeze)."""
    return _targets_with_and_without(rows, Split.heldout8, ROUND8_MAXQ_FILE, ROUND8_WITHOUT_MAXQ)


# Round 8's one evaluation as that run printed it (2026-12-02 02:41 UTC, the estimator of commit 443df97, the files
# placed byte-identical to the freeze record of 58732c8): its target lines and `findings_round8`, copied from that run's
# benchmarks/serving.md and not edited. While empty (before that run), the report printed the live section alone.
ROUND8_EVALUATION: list[str] = [
    '- held out, round 8, throughput: median error 10.1% over 16 figures — target ≤ 25 %: **met**.',
    '- held out, round 8, latency: median error 15.9% over 18 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 11.8% over 11 figures — target ≤ 25 %: **met**.',
    '  - of which median figures (as the source publishes them; the estimator predicts means): median error 78.1% over 7 figures — target ≤ 25 %: **missed**.',
    '- held out, round 8, KV capacity: 1/1 within 5 % (max 0.5%) — target every case: **met**.',
    '- held out, round 8 without the Max-Q file, throughput: median error 7.2% over 9 figures — target ≤ 25 %: **met**.',
    '- held out, round 8 without the Max-Q file, latency: median error 9.6% over 4 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 9.6% over 4 figures — target ≤ 25 %: **met**.',
    '- held out, round 8 without the Max-Q file, KV capacity: 1/1 within 5 % (max 0.5%) — target every case: **met**.',
    '',
    'Round 8: 17 cases, 35 figures from 5 files (5 GPU types: L40S, RTX-3090, RTX-A6000, RTX-PRO-6000, V100-16GB-PCIe; engines llamacpp, trtllm, vllm); the Max-Q file carries 7 cases, 21 figures. Latency figures by statistic: 11 mean, 7 median (the estimator predicts means). KV capacity: 1 figures.',
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive roofline's in brackets).",
    '',
    'By source (file), and pooled with and without the Max-Q file:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| cbroker1_trtllm_a6000 | 3 | 7.0% (-7.0%) · 3 | 3/3 | 3/3 | 12.9% | 9.6% (+7.4%) · 4 | 4/4 | 4/4 | 11.7% | — |',
    '| ggml_ci_v100 | 5 | 7.2% (+7.2%) · 5 | 5/5 | 5/5 | 93.4% | — | — | — | — | — |',
    '| llama_cpp_rs_readme | 1 | 17.4% (+17.4%) · 1 | 1/1 | 1/1 | 113.3% | — | — | — | — | — |',
    '| ray_enablement_llm_serving | 1 | — | — | — | — | — | — | — | — | 1/1 (naive 0/1) |',
    '| waynehacking8_trtllm_triton_serving | 7 | 12.3% (-12.3%) · 7 | 5/7 | 7/7 | 37.5% | 26.2% (+7.2%) · 14 | 7/14 | 8/14 | 26.1% | — |',
    '| round 8, pooled | 17 | 10.1% (-5.0%) · 16 | 14/16 | 16/16 | 40.1% | 15.9% (+7.4%) · 18 | 11/18 | 12/18 | 24.3% | 1/1 (naive 0/1) |',
    '| round 8 without the Max-Q file, pooled | 10 | 7.2% (-1.3%) · 9 | 9/9 | 9/9 | 56.7% | 9.6% (+7.4%) · 4 | 4/4 | 4/4 | 11.7% | 1/1 (naive 0/1) |',
    '',
    'Pooled by metric category and statistic (as the sources publish them; the estimator predicts means):',
    '',
    '| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| round 8 | throughput | mean | 10 | 10.1% (-10.1%) · 10 | 8/10 | 10/10 | 31.4% | 4/10 |',
    '| round 8 | throughput | single | 6 | 9.2% (+9.2%) · 6 | 6/6 | 6/6 | 99.3% | 0/6 |',
    '| round 8 | latency | mean | 11 | 11.8% (+10.7%) · 11 | 9/11 | 9/11 | 24.3% | 6/11 |',
    '| round 8 | latency | median | 7 | 78.1% (-22.7%) · 7 | 2/7 | 3/7 | — | 0/0 |',
    '| round 8 | kv | approx | 1 | 0.5% (+0.5%) · 1 | 1/1 | 1/1 | 8.2% | 0/1 |',
    '| without the Max-Q file | throughput | mean | 3 | 7.0% (-7.0%) · 3 | 3/3 | 3/3 | 12.9% | 3/3 |',
    '| without the Max-Q file | throughput | single | 6 | 9.2% (+9.2%) · 6 | 6/6 | 6/6 | 99.3% | 0/6 |',
    '| without the Max-Q file | latency | mean | 4 | 9.6% (+7.4%) · 4 | 4/4 | 4/4 | 11.7% | 3/4 |',
    '| without the Max-Q file | kv | approx | 1 | 0.5% (+0.5%) · 1 | 1/1 | 1/1 | 8.2% | 0/1 |',
    '',
    'By source, metric and statistic:',
    '',
    '| source | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| cbroker1_trtllm_a6000 | output_tok_s | mean | 3 | 7.0% (-7.0%) · 3 | 3/3 | 3/3 | 12.9% | 3/3 |',
    '| cbroker1_trtllm_a6000 | ttft_ms | mean | 1 | 13.3% (-13.3%) · 1 | 1/1 | 1/1 | 92.1% | 0/1 |',
    '| cbroker1_trtllm_a6000 | e2e_ms | mean | 3 | 7.4% (+7.4%) · 3 | 3/3 | 3/3 | 11.5% | 3/3 |',
    '| ggml_ci_v100 | decode_tok_s | single | 5 | 7.2% (+7.2%) · 5 | 5/5 | 5/5 | 93.4% | 0/5 |',
    '| llama_cpp_rs_readme | decode_tok_s | single | 1 | 17.4% (+17.4%) · 1 | 1/1 | 1/1 | 113.3% | 0/1 |',
    '| ray_enablement_llm_serving | kv_cache_tokens | approx | 1 | 0.5% (+0.5%) · 1 | 1/1 | 1/1 | 8.2% | 0/1 |',
    '| waynehacking8_trtllm_triton_serving | output_tok_s | mean | 7 | 12.3% (-12.3%) · 7 | 5/7 | 7/7 | 37.5% | 1/7 |',
    '| waynehacking8_trtllm_triton_serving | ttft_ms | median | 7 | 78.1% (-22.7%) · 7 | 2/7 | 3/7 | — | 0/0 |',
    '| waynehacking8_trtllm_triton_serving | tpot_ms | mean | 7 | 15.0% (+15.0%) · 7 | 5/7 | 5/7 | 26.1% | 3/7 |',
    '',
    'The largest misses per source (up to 3, by |log error|):',
    '',
    '| source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| cbroker1_trtllm_a6000 | cbroker-trtllm110-a6000-qwen25-7b-p36-o256-c1 | ttft_ms | mean | 45.00 | 39.02 | -13.3% | -92.1% |',
    '| cbroker1_trtllm_a6000 | cbroker-trtllm110-a6000-qwen25-7b-p2222-o256-c1 | output_tok_s | mean | 44.24 | 39.55 | -10.6% | +9.3% |',
    '| cbroker1_trtllm_a6000 | cbroker-trtllm110-a6000-qwen25-7b-p2222-o256-c1 | e2e_ms | mean | 5,790 | 6,473 | +11.8% | -8.5% |',
    '| ggml_ci_v100 | ggmlci-15499eb9-v100pcie-openllama7bv2-q4_k_m-tg256 | decode_tok_s | single | 106 | 121 | +14.1% | +105.6% |',
    '| ggml_ci_v100 | ggmlci-15499eb9-v100pcie-openllama7bv2-q4_0-tg256 | decode_tok_s | single | 112 | 125 | +11.2% | +105.2% |',
    '| ggml_ci_v100 | ggmlci-15499eb9-v100pcie-openllama7bv2-q5_k_m-tg256 | decode_tok_s | single | 96.89 | 104 | +7.2% | +93.4% |',
    '| llama_cpp_rs_readme | llamacpprs-readme-rtx3090-llama2-7b-q4_k_m-decode24 | decode_tok_s | single | 106 | 125 | +17.4% | +113.3% |',
    '| ray_enablement_llm_serving | ray-enablement-vllm-v1-8xl40s-llama31-70b-tp8-kv-mml32768 | kv_cache_tokens | approx | 582,943 | 585,664 | +0.5% | +8.2% |',
    '| waynehacking8_trtllm_triton_serving | wayne-sm120-vllm018-llama31-8b-bf16-c128-fixed256 | ttft_ms | median | 205 | 41.47 | -79.7% | — |',
    '| waynehacking8_trtllm_triton_serving | wayne-sm120-vllm018-llama31-8b-fp8-c128-fixed256 | ttft_ms | median | 165 | 36.09 | -78.1% | — |',
    '| waynehacking8_trtllm_triton_serving | wayne-sm120-vllm018-llama31-8b-bf16-c1-fixed256 | ttft_ms | median | 20.70 | 41.47 | +100.3% | — |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p2222-o256-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 2222 / 256 | concurrency 1 | output_tok_s | mean | 44.24 | 39.55 | -10.6% | 48.34 | +9.3% |',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p2222-o256-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 2222 / 256 | concurrency 1 | e2e_ms | mean | 5,790 | 6,473 | +11.8% | 5,296 | -8.5% |',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p33-o78-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 33 / 78 | concurrency 1 | output_tok_s | mean | 44.37 | 41.30 | -6.9% | 50.32 | +13.4% |',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p33-o78-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 33 / 78 | concurrency 1 | e2e_ms | mean | 1,760 | 1,889 | +7.3% | 1,550 | -11.9% |',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p36-o256-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 36 / 256 | concurrency 1 | output_tok_s | mean | 44.62 | 41.51 | -7.0% | 50.39 | +12.9% |',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p36-o256-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 36 / 256 | concurrency 1 | ttft_ms | mean | 45.00 | 39.02 | -13.3% | 3.54 | -92.1% |',
    '| cbroker1_trtllm_a6000 | [cbroker-trtllm110-a6000-qwen25-7b-p36-o256-c1](https://github.com/cbroker1/cbroker1.github.io/blob/b61b4e6f207136e2ff2c1cc234d83017579d54d6/src/content/writing/nvidia-tensorrt-llm-a6000.md) | trtllm | RTX-A6000 × 1 (1) | qwen2.5-7b, bf16, auto | 36 / 256 | concurrency 1 | e2e_ms | mean | 5,740 | 6,167 | +7.4% | 5,081 | -11.5% |',
    '| ggml_ci_v100 | [ggmlci-15499eb9-v100pcie-openllama7bv2-f16-tg256](https://github.com/ggml-org/ci/blob/b6ce01b79daf8f5b0a76eb7477df0b5068468052/llama.cpp/15/499eb94227401bdc8875da6eb85c15d37068f7/ggml-4-x86-cuda-v100/open_llama_7b_v2-tg-f16.log) | llamacpp | V100-16GB-PCIe × 1 (1) | llama-7b, fp16, auto | 8 / 256 | concurrency 1 | decode_tok_s | single | 52.01 | 50.45 | -3.0% | 66.78 | +28.4% |',
    '| ggml_ci_v100 | [ggmlci-15499eb9-v100pcie-openllama7bv2-q4_0-tg256](https://github.com/ggml-org/ci/blob/b6ce01b79daf8f5b0a76eb7477df0b5068468052/llama.cpp/15/499eb94227401bdc8875da6eb85c15d37068f7/ggml-4-x86-cuda-v100/open_llama_7b_v2-tg-q4_0.log) | llamacpp | V100-16GB-PCIe × 1 (1) | llama-7b, q4_0, auto | 8 / 256 | concurrency 1 | decode_tok_s | single | 112 | 125 | +11.2% | 230 | +105.2% |',
    '| ggml_ci_v100 | [ggmlci-15499eb9-v100pcie-openllama7bv2-q4_k_m-tg256](https://github.com/ggml-org/ci/blob/b6ce01b79daf8f5b0a76eb7477df0b5068468052/llama.cpp/15/499eb94227401bdc8875da6eb85c15d37068f7/ggml-4-x86-cuda-v100/open_llama_7b_v2-tg-q4_k.log) | llamacpp | V100-16GB-PCIe × 1 (1) | llama-7b, q4_k_m, auto | 8 / 256 | concurrency 1 | decode_tok_s | single | 106 | 121 | +14.1% | 218 | +105.6% |',
    '| ggml_ci_v100 | [ggmlci-15499eb9-v100pcie-openllama7bv2-q5_k_m-tg256](https://github.com/ggml-org/ci/blob/b6ce01b79daf8f5b0a76eb7477df0b5068468052/llama.cpp/15/499eb94227401bdc8875da6eb85c15d37068f7/ggml-4-x86-cuda-v100/open_llama_7b_v2-tg-q5_k.log) | llamacpp | V100-16GB-PCIe × 1 (1) | llama-7b, q5_k_m, auto | 8 / 256 | concurrency 1 | decode_tok_s | single | 96.89 | 104 | +7.2% | 187 | +93.4% |',
    '| ggml_ci_v100 | [ggmlci-15499eb9-v100pcie-openllama7bv2-q8_0-tg256](https://github.com/ggml-org/ci/blob/b6ce01b79daf8f5b0a76eb7477df0b5068468052/llama.cpp/15/499eb94227401bdc8875da6eb85c15d37068f7/ggml-4-x86-cuda-v100/open_llama_7b_v2-tg-q8_0.log) | llamacpp | V100-16GB-PCIe × 1 (1) | llama-7b, q8_0, auto | 8 / 256 | concurrency 1 | decode_tok_s | single | 80.08 | 79.07 | -1.3% | 125 | +56.7% |',
    '| llama_cpp_rs_readme | [llamacpprs-readme-rtx3090-llama2-7b-q4_k_m-decode24](https://github.com/utilityai/llama-cpp-rs/blob/c18e5baa39877f3faf5140609ab7ec3d8178e266/README.md) | llamacpp | RTX-3090 × 1 (1) | llama-2-7b, q4_k_m, auto | 9 / 24 | concurrency 1 | decode_tok_s | single | 106 | 125 | +17.4% | 227 | +113.3% |',
    '| ray_enablement_llm_serving | [ray-enablement-vllm-v1-8xl40s-llama31-70b-tp8-kv-mml32768](https://github.com/ray-project/enablement-content/blob/5b1fe1e1830c7339df7f2153a056925f15af2a01/courses/foundations/LLM_Serving/01_deploy_medium_llm/notebook.ipynb) | vllm | L40S × 8 (8) | llama-3.1-70b, bf16, auto | 32768 / 1 | kv_capacity | kv_cache_tokens | approx | 582,943 | 585,664 | +0.5% | 630,822 | +8.2% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c1-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c1.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 1 | output_tok_s | mean | 86.40 | 85.47 | -1.1% | 112 | +29.1% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c1-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c1.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 1 | ttft_ms | median | 20.70 | 41.47 | +100.3% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c1-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c1.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 1 | tpot_ms | mean | 11.53 | 11.58 | +0.5% | 8.96 | -22.3% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c128-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c128.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 128 | output_tok_s | mean | 6,019 | 4,042 | -32.9% | 14,282 | +137.3% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c128-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c128.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 128 | ttft_ms | median | 205 | 41.47 | -79.7% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c128-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c128.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 128 | tpot_ms | mean | 20.48 | 31.63 | +54.5% | 8.96 | -56.2% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c16-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c16.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 16 | output_tok_s | mean | 1,298 | 1,138 | -12.3% | 1,785 | +37.5% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c16-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c16.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 16 | ttft_ms | median | 59.00 | 41.47 | -29.7% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c16-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c16.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 16 | tpot_ms | mean | 12.13 | 13.95 | +15.0% | 8.96 | -26.1% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c4-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c4.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 4 | output_tok_s | mean | 364 | 329 | -9.6% | 446 | +22.7% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c4-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c4.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 4 | ttft_ms | median | 40.00 | 41.47 | +3.7% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-bf16-c4-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_bf16-c4.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, bf16, auto | 13 / 256 | concurrency 4 | tpot_ms | mean | 10.89 | 12.06 | +10.7% | 8.96 | -17.7% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c1-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c1.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 1 | output_tok_s | mean | 148 | 158 | +7.2% | 197 | +33.7% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c1-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c1.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 1 | ttft_ms | median | 20.00 | 36.09 | +80.5% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c1-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c1.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 1 | tpot_ms | mean | 6.69 | 6.21 | -7.2% | 5.07 | -24.3% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c128-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c128.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 128 | output_tok_s | mean | 10,096 | 5,418 | -46.3% | 25,259 | +150.2% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c128-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c128.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 128 | ttft_ms | median | 165 | 36.09 | -78.1% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c128-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c128.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 128 | tpot_ms | mean | 11.98 | 23.58 | +96.8% | 5.07 | -57.7% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c16-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c16.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 16 | output_tok_s | mean | 2,213 | 1,913 | -13.6% | 3,157 | +42.7% |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c16-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c16.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 16 | ttft_ms | median | 46.70 | 36.09 | -22.7% | — | — |',
    '| waynehacking8_trtllm_triton_serving | [wayne-sm120-vllm018-llama31-8b-fp8-c16-fixed256](https://github.com/waynehacking8/trtllm-triton-serving/blob/f273b5f07bb44fa968e0a67b6e6f1f78491da41d/results/vllm_sm120_fp8-c16.json) | vllm | RTX-PRO-6000 × 1 (1) | llama-3.1-8b, fp8, auto | 13 / 256 | concurrency 16 | tpot_ms | mean | 7.07 | 8.26 | +16.8% | 5.07 | -28.3% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 8"), written into the report before its one run.
ROUND8_CAVEATS = [
    "Read with the collector's caveats (README \"Round 8\"; each file's `notes`): 7 of the 17 cases are one "
    "**RTX PRO 6000 Blackwell Max-Q** (300 W, the cap reached while serving) under vLLM 0.18.0 with **torch.compile "
    "off** (prefill eager, decode in full CUDA graphs), a closed loop of 1-128 users with one ~13-token prompt "
    "(the token count is the collector's stand-in) and 256 tokens out, its TTFTs the client's **lower median**; the "
    "catalog's `RTX-PRO-6000` is the 600 W card with no sourced tensor TFLOPS, so the round is reported pooled with and "
    "without this file (decided at the freeze). The llama.cpp CI rows (V100 PCIe 16 GB, OpenLLaMA 7B v2 read as "
    "`llama-7b`, five weight formats) are one run each on a shared build runner; the llama-cpp-rs README row is 24 "
    "decode steps on an RTX 3090. The cbroker1 blog's TensorRT-LLM 1.1 rows are averages of the same prompt at one "
    "user, serve command not printed (defaults assumed), the long prompt's TTFT left out as a KV-cache hit and its E2E "
    "possibly carrying part of that saving; its one TTFT is called approximate. The Ray course's 8× L40S KV pool is "
    "**derived** from vLLM's 'Maximum concurrency … 17.79x' line (`approx`; `gpu_memory_utilization` and the vLLM "
    "version not stated). No erratum touches round 8.",
]

ROUND8_SINCE_HEADING = "### Since round 8's evaluation: round 8 with this commit's estimator"


def _relabelled_round8(lines: list[str]) -> list[str]:
    """ROUND8_EVALUATION's target lines under round 8's labels now that it is spent (the figures untouched): what the
    live section prints when no predicted figure has changed."""
    return _relabelled(lines, {"- held out, round 8 without the Max-Q file, ": f"- {ROUND8_WITHOUT_MAXQ}, ",
                               "- held out, round 8, ": f"- {SPLIT_LABEL[Split.heldout8]}, "})


def round8_section(rows: list[Row]) -> list[str]:
    """Round 8's section: the collector's caveats, then its one evaluation (ROUND8_EVALUATION, verbatim), then this
    commit's figures under "Since round 8's evaluation" (round 8 is spent: the change after it read it)."""
    live = [*round8_targets(rows), "", *findings_round8(rows)]
    out = ["### Round 8: its one evaluation", "", *ROUND8_CAVEATS, ""]
    if not ROUND8_EVALUATION:
        return [*out, "The one run with the files in place (the estimator of commit 443df97):", "", *live, ""]
    out += ["As that run printed it (2026-12-02, the estimator of commit 443df97), kept verbatim:", "",
            *ROUND8_EVALUATION, "", ROUND8_SINCE_HEADING, "",
            "Round 8 is spent since that evaluation (the change after it, ab3ed60, read it); its figures with this "
            "commit's estimator, errata applied:", ""]
    if live == _relabelled_round8(ROUND8_EVALUATION):
        return [*out, "The same figures as its one evaluation above, now labelled \"(spent)\" (no predicted figure has "
                "changed since).", ""]
    return [*out, *live, ""]


# ------------------------------------------------------------------ round 9 (held out: frozen by digest at e101d9f)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 9"), before any evaluation: one source (the SGLang
# cookbook's Speed Benchmark sections) carries 15 of round 9's 16 cases, so the round is reported pooled, per source
# file and per page of the cookbook (Llama 3.1 on 8× A100, Qwen3 on 8× B200), latency also per statistic, with the
# median and the shares within 25 % and 50 %, beside the naive roofline (round 7's shares and table helpers).
ROUND9_COOKBOOK_FILE = "heldout9_sgl_cookbook.yaml"
ROUND9_MISSES_SHOWN = 3  # the largest misses shown per cookbook page and per other source, by |log error|


def _round9_pages(r9: list[Row]) -> list[tuple[str, list[Row]]]:
    """The cookbook's rows by page (one URL a page), each named by its page, model and GPUs:
    'Llama3.1 page (llama-3.1-70b, A100-80GB × 8)'."""
    cook = [r for r in r9 if r.file == ROUND9_COOKBOOK_FILE]
    out = []
    for url in sorted({r.case.url for r in cook}):
        sel = [r for r in cook if r.case.url == url]
        models = ", ".join(sorted({r.case.model for r in sel}))
        gpus = ", ".join(sorted({f"{r.case.gpu} × {r.case.gpus}" for r in sel}))
        out.append((f"{doc_label(url)} page ({models}, {gpus})", sel))
    return out


def round9_targets(rows: list[Row]) -> list[str]:
    """Round 9's target lines: pooled, then per source file, then per cookbook page (all decided at the freeze)."""
    r9 = [r for r in rows if r.split == Split.heldout9]
    name = SPLIT_LABEL[Split.heldout9]
    lines = targets(rows, Split.heldout9, by_statistic=True)
    for f in sorted({r.file for r in r9}):
        lines += targets([r for r in r9 if r.file == f], Split.heldout9, by_statistic=True,
                         label=f"{name}, source {source_name(f)}")
    for page, sel in _round9_pages(r9):
        lines += targets(sel, Split.heldout9, by_statistic=True, label=f"{name}, cookbook {page}")
    return lines


def findings_round9(rows: list[Row]) -> list[str]:
    """Round 9's evaluation, computed from the rows: per source, per cookbook page and pooled, pooled by metric category
    and statistic, by metric and statistic per source and page, the largest misses per page and source, and every
    figure, the naive roofline beside each (nothing here is typed in by hand)."""
    r9 = [r for r in rows if r.split == Split.heldout9]
    if not r9:
        return []
    files = sorted({r.file for r in r9})
    cook = [r for r in r9 if r.file == ROUND9_COOKBOOK_FILE]
    pages = _round9_pages(r9)
    sources = _by_file(r9, files)
    others = _by_file(r9, [f for f in files if f != ROUND9_COOKBOOK_FILE])
    cook_name = source_name(ROUND9_COOKBOOK_FILE)
    lat = [r for r in r9 if r.metric.category == "latency"]
    stats = sorted({r.statistic for r in lat}, key=LATENCY_STATISTICS.index)
    kv = [r for r in r9 if r.metric.category == "kv"]
    by_page = "; ".join(f"{page}: {len({r.case.id for r in sel})} cases, {len(sel)} figures" for page, sel in pages)
    by_stat = ", ".join(f"{sum(r.statistic == s for r in lat)} {s}" for s in stats) or "none"
    return [
        f"Round 9: {len({r.case.id for r in r9})} cases, {len(r9)} figures from {len(files)} files "
        f"({len({r.case.gpu for r in r9})} GPU types: {', '.join(sorted({r.case.gpu for r in r9}))}; engines "
        f"{', '.join(sorted({r.case.engine.value for r in r9}))}); the cookbook carries "
        f"{len({r.case.id for r in cook})} cases, {len(cook)} figures on {len(pages)} pages ({by_page}). Latency "
        f"figures by statistic: {by_stat} (the estimator predicts means). "
        + (f"KV capacity: {len(kv)} figures." if kv else "KV capacity: no figure in this round."),
        "",
        "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at "
        "most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive "
        "roofline's in brackets).",
        "",
        "By source (file), per cookbook page, and pooled:",
        "",
        *_share_table([*sources, *[(f"{cook_name}: {page}", sel) for page, sel in pages], ("round 9, pooled", r9)],
                      "source"),
        "",
        "Pooled, per source and per cookbook page, by metric category and statistic (as the sources publish them; the "
        "estimator predicts means):",
        "",
        *_category_statistic_table([("round 9", r9), *sources, *pages]),
        "",
        "By source and cookbook page, metric and statistic:",
        "",
        *_metric_statistic_rows([*sources, *pages], head="source or page"),
        "",
        *_misses_rows([*pages, *others], ROUND9_MISSES_SHOWN, per="cookbook page or other source"),
        "",
        *_every_figure_table(r9),
    ]


# Round 9's one evaluation as that run printed it (2026-12-02 05:36 UTC, the estimator of commit ab3ed60, the files
# placed byte-identical to the freeze record of e101d9f): its target lines and `findings_round9`, copied from that run's
# benchmarks/serving.md and not edited. While empty (before that run), the report printed the live section alone.
ROUND9_EVALUATION: list[str] = [
    '- held out, round 9, throughput: median error 9.5% over 15 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, latency: median error 15.6% over 43 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 15.6% over 43 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, KV capacity: 0/1 within 5 % (max 17.7%) — target every case: **missed**: `vllm-issue17469-v085-4xa10-qwen3-30b-a3b-tp4-kv-mml8192` kv_cache_tokens -17.7%.',
    '- held out, round 9, source sgl_cookbook, throughput: median error 9.5% over 15 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, source sgl_cookbook, latency: median error 15.6% over 43 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 15.6% over 43 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, source vllm_issue_17469, KV capacity: 0/1 within 5 % (max 17.7%) — target every case: **missed**: `vllm-issue17469-v085-4xa10-qwen3-30b-a3b-tp4-kv-mml8192` kv_cache_tokens -17.7%.',
    '- held out, round 9, cookbook Llama3.1 page (llama-3.1-70b, A100-80GB × 8), throughput: median error 24.6% over 6 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, cookbook Llama3.1 page (llama-3.1-70b, A100-80GB × 8), latency: median error 24.2% over 18 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 24.2% over 18 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, cookbook Qwen3 page (qwen3-235b-a22b, B200 × 8), throughput: median error 8.5% over 9 figures — target ≤ 25 %: **met**.',
    '- held out, round 9, cookbook Qwen3 page (qwen3-235b-a22b, B200 × 8), latency: median error 8.1% over 25 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 8.1% over 25 figures — target ≤ 25 %: **met**.',
    '',
    'Round 9: 16 cases, 59 figures from 2 files (3 GPU types: A10, A100-80GB, B200; engines sglang, vllm); the cookbook carries 15 cases, 58 figures on 2 pages (Llama3.1 page (llama-3.1-70b, A100-80GB × 8): 6 cases, 24 figures; Qwen3 page (qwen3-235b-a22b, B200 × 8): 9 cases, 34 figures). Latency figures by statistic: 43 mean (the estimator predicts means). KV capacity: 1 figures.',
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive roofline's in brackets).",
    '',
    'By source (file), per cookbook page, and pooled:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| sgl_cookbook | 15 | 9.5% (+8.5%) · 15 | 12/15 | 14/15 | 155.6% | 15.6% (-5.7%) · 43 | 30/43 | 32/43 | 68.9% | — |',
    '| vllm_issue_17469 | 1 | — | — | — | — | — | — | — | — | 0/1 (naive 0/1) |',
    '| sgl_cookbook: Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | 6 | 24.6% (+10.1%) · 6 | 3/6 | 5/6 | 149.1% | 24.2% (+8.8%) · 18 | 12/18 | 13/18 | 70.3% | — |',
    '| sgl_cookbook: Qwen3 page (qwen3-235b-a22b, B200 × 8) | 9 | 8.5% (+8.5%) · 9 | 9/9 | 9/9 | 155.6% | 8.1% (-6.5%) · 25 | 18/25 | 19/25 | 68.9% | — |',
    '| round 9, pooled | 16 | 9.5% (+8.5%) · 15 | 12/15 | 14/15 | 155.6% | 15.6% (-5.7%) · 43 | 30/43 | 32/43 | 68.9% | 0/1 (naive 0/1) |',
    '',
    'Pooled, per source and per cookbook page, by metric category and statistic (as the sources publish them; the estimator predicts means):',
    '',
    '| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| round 9 | throughput | mean | 15 | 9.5% (+8.5%) · 15 | 12/15 | 14/15 | 155.6% | 0/15 |',
    '| round 9 | latency | mean | 43 | 15.6% (-5.7%) · 43 | 30/43 | 32/43 | 68.9% | 0/43 |',
    '| round 9 | kv | single | 1 | 17.7% (-17.7%) · 1 | 0/1 | 1/1 | 32.4% | 0/1 |',
    '| sgl_cookbook | throughput | mean | 15 | 9.5% (+8.5%) · 15 | 12/15 | 14/15 | 155.6% | 0/15 |',
    '| sgl_cookbook | latency | mean | 43 | 15.6% (-5.7%) · 43 | 30/43 | 32/43 | 68.9% | 0/43 |',
    '| vllm_issue_17469 | kv | single | 1 | 17.7% (-17.7%) · 1 | 0/1 | 1/1 | 32.4% | 0/1 |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | throughput | mean | 6 | 24.6% (+10.1%) · 6 | 3/6 | 5/6 | 149.1% | 0/6 |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | latency | mean | 18 | 24.2% (+8.8%) · 18 | 12/18 | 13/18 | 70.3% | 0/18 |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | throughput | mean | 9 | 8.5% (+8.5%) · 9 | 9/9 | 9/9 | 155.6% | 0/9 |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | latency | mean | 25 | 8.1% (-6.5%) · 25 | 18/25 | 19/25 | 68.9% | 0/25 |',
    '',
    'By source and cookbook page, metric and statistic:',
    '',
    '| source or page | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| sgl_cookbook | output_tok_s | mean | 15 | 9.5% (+8.5%) · 15 | 12/15 | 14/15 | 155.6% | 0/15 |',
    '| sgl_cookbook | ttft_ms | mean | 13 | 75.9% (-49.9%) · 13 | 2/13 | 4/13 | 92.7% | 0/13 |',
    '| sgl_cookbook | tpot_ms | mean | 15 | 8.0% (+1.3%) · 15 | 14/15 | 14/15 | 56.3% | 0/15 |',
    '| sgl_cookbook | e2e_ms | mean | 15 | 9.4% (+0.8%) · 15 | 14/15 | 14/15 | 56.5% | 0/15 |',
    '| vllm_issue_17469 | kv_cache_tokens | single | 1 | 17.7% (-17.7%) · 1 | 0/1 | 1/1 | 32.4% | 0/1 |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | output_tok_s | mean | 6 | 24.6% (+10.1%) · 6 | 3/6 | 5/6 | 149.1% | 0/6 |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | ttft_ms | mean | 6 | 102.2% (+90.3%) · 6 | 2/6 | 3/6 | 69.3% | 0/6 |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | tpot_ms | mean | 6 | 24.2% (-8.1%) · 6 | 5/6 | 5/6 | 71.7% | 0/6 |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | e2e_ms | mean | 6 | 23.8% (-3.0%) · 6 | 5/6 | 5/6 | 71.0% | 0/6 |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | output_tok_s | mean | 9 | 8.5% (+8.5%) · 9 | 9/9 | 9/9 | 155.6% | 0/9 |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | ttft_ms | mean | 7 | 75.9% (-75.9%) · 7 | 0/7 | 1/7 | 98.5% | 0/7 |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | tpot_ms | mean | 9 | 7.3% (+1.3%) · 9 | 9/9 | 9/9 | 55.1% | 0/9 |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | e2e_ms | mean | 9 | 8.0% (+0.8%) · 9 | 9/9 | 9/9 | 55.1% | 0/9 |',
    '',
    'The largest misses per cookbook page or other source (up to 3, by |log error|):',
    '',
    '| cookbook page or other source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c64 | ttft_ms | mean | 633 | 3,008 | +374.9% | -64.5% |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c16 | ttft_ms | mean | 603 | 1,663 | +175.7% | -64.9% |',
    '| Llama3.1 page (llama-3.1-70b, A100-80GB × 8) | sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c1 | ttft_ms | mean | 395 | 1,034 | +161.6% | -40.0% |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c64 | ttft_ms | mean | 265 | 36.26 | -86.3% | -99.5% |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c100 | ttft_ms | mean | 261 | 38.44 | -85.2% | -99.5% |',
    '| Qwen3 page (qwen3-235b-a22b, B200 × 8) | sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c16 | ttft_ms | mean | 216 | 31.83 | -85.2% | -99.4% |',
    '| vllm_issue_17469 | vllm-issue17469-v085-4xa10-qwen3-30b-a3b-tp4-kv-mml8192 | kv_cache_tokens | single | 198,784 | 163,632 | -17.7% | +32.4% |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 610 / 422 | concurrency 1 | output_tok_s | mean | 52.88 | 69.07 | +30.6% | 115 | +116.6% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 610 / 422 | concurrency 1 | ttft_ms | mean | 132 | 157 | +18.9% | 34.49 | -73.8% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 610 / 422 | concurrency 1 | tpot_ms | mean | 18.63 | 14.14 | -24.1% | 8.65 | -53.6% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 610 / 422 | concurrency 1 | e2e_ms | mean | 7,978 | 6,110 | -23.4% | 3,685 | -53.8% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 500 / 505 | concurrency 100 | output_tok_s | mean | 1,919 | 1,951 | +1.7% | 7,019 | +265.7% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 500 / 505 | concurrency 100 | ttft_ms | mean | 246 | 197 | -20.1% | 28.27 | -88.5% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 500 / 505 | concurrency 100 | tpot_ms | mean | 47.19 | 50.96 | +8.0% | 8.65 | -81.7% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 500 / 505 | concurrency 100 | e2e_ms | mean | 23,617 | 25,879 | +9.6% | 4,397 | -81.4% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 496 / 510 | concurrency 16 | output_tok_s | mean | 513 | 804 | +56.7% | 1,679 | +227.0% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 496 / 510 | concurrency 16 | ttft_ms | mean | 265 | 151 | -42.8% | 28.04 | -89.4% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 496 / 510 | concurrency 16 | tpot_ms | mean | 26.09 | 19.63 | -24.8% | 8.65 | -66.8% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 496 / 510 | concurrency 16 | e2e_ms | mean | 13,377 | 10,144 | -24.2% | 4,440 | -66.8% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 4194 / 422 | concurrency 1 | output_tok_s | mean | 50.69 | 60.07 | +18.5% | 109 | +114.1% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 4194 / 422 | concurrency 1 | ttft_ms | mean | 395 | 1,034 | +161.6% | 237 | -40.0% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 4194 / 422 | concurrency 1 | tpot_ms | mean | 18.80 | 14.23 | -24.3% | 8.65 | -54.0% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 4194 / 422 | concurrency 1 | e2e_ms | mean | 8,322 | 7,025 | -15.6% | 3,888 | -53.3% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3750 / 521 | concurrency 16 | output_tok_s | mean | 389 | 352 | -9.5% | 1,055 | +171.3% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3750 / 521 | concurrency 16 | ttft_ms | mean | 603 | 1,663 | +175.7% | 212 | -64.9% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3750 / 521 | concurrency 16 | tpot_ms | mean | 36.94 | 42.35 | +14.6% | 8.65 | -76.6% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3750 / 521 | concurrency 16 | e2e_ms | mean | 18,988 | 23,686 | +24.7% | 4,719 | -75.1% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3981 / 531 | concurrency 64 | output_tok_s | mean | 788 | 441 | -44.0% | 1,789 | +126.9% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3981 / 531 | concurrency 64 | ttft_ms | mean | 633 | 3,008 | +374.9% | 225 | -64.5% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3981 / 531 | concurrency 64 | tpot_ms | mean | 74.95 | 140 | +86.4% | 8.65 | -88.5% |',
    '| sgl_cookbook | [sglcb-sgl056-a100x8-llama31-70b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Llama/Llama3.1.md) | sglang | A100-80GB × 8 (8) | llama-3.1-70b, bf16, auto | 3981 / 531 | concurrency 64 | e2e_ms | mean | 40,444 | 77,053 | +90.5% | 4,818 | -88.1% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 421 | concurrency 1 | output_tok_s | mean | 96.65 | 105 | +8.9% | 136 | +40.8% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 421 | concurrency 1 | ttft_ms | mean | 99.03 | 23.87 | -75.9% | 1.49 | -98.5% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 421 | concurrency 1 | tpot_ms | mean | 10.12 | 9.46 | -6.5% | 7.35 | -27.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 421 | concurrency 1 | e2e_ms | mean | 4,354 | 3,999 | -8.1% | 3,094 | -28.9% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 500 / 504 | concurrency 100 | output_tok_s | mean | 2,739 | 3,207 | +17.1% | 13,177 | +381.1% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 500 / 504 | concurrency 100 | ttft_ms | mean | 261 | 38.44 | -85.2% | 1.22 | -99.5% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 500 / 504 | concurrency 100 | tpot_ms | mean | 32.94 | 31.16 | -5.4% | 7.35 | -77.7% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c100](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 500 / 504 | concurrency 100 | e2e_ms | mean | 16,665 | 15,714 | -5.7% | 3,704 | -77.8% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 509 | concurrency 16 | output_tok_s | mean | 832 | 960 | +15.4% | 2,167 | +160.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 509 | concurrency 16 | ttft_ms | mean | 216 | 31.83 | -85.2% | 1.21 | -99.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 509 | concurrency 16 | tpot_ms | mean | 16.36 | 16.64 | +1.7% | 7.35 | -55.1% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 509 | concurrency 16 | e2e_ms | mean | 8,327 | 8,484 | +1.9% | 3,741 | -55.1% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 4445 | concurrency 1 | output_tok_s | mean | 97.17 | 105 | +8.5% | 136 | +40.1% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 4445 | concurrency 1 | tpot_ms | mean | 10.23 | 9.48 | -7.3% | 7.35 | -28.2% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 610 / 4445 | concurrency 1 | e2e_ms | mean | 45,742 | 42,150 | -7.9% | 32,657 | -28.6% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 3978 | concurrency 16 | output_tok_s | mean | 935 | 969 | +3.5% | 2,176 | +132.6% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 3978 | concurrency 16 | tpot_ms | mean | 14.82 | 16.51 | +11.4% | 7.35 | -50.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 496 / 3978 | concurrency 16 | e2e_ms | mean | 58,885 | 65,705 | +11.6% | 29,226 | -50.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 497 / 4065 | concurrency 64 | output_tok_s | mean | 2,387 | 2,504 | +4.9% | 8,689 | +264.0% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 497 / 4065 | concurrency 64 | ttft_ms | mean | 265 | 36.26 | -86.3% | 1.21 | -99.5% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 497 / 4065 | concurrency 64 | tpot_ms | mean | 23.66 | 25.55 | +8.0% | 7.35 | -68.9% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r1000-8000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 497 / 4065 | concurrency 64 | e2e_ms | mean | 95,938 | 103,878 | +8.3% | 29,865 | -68.9% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 4194 / 421 | concurrency 1 | output_tok_s | mean | 93.94 | 104 | +10.5% | 136 | +44.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 4194 / 421 | concurrency 1 | ttft_ms | mean | 140 | 70.15 | -49.9% | 10.25 | -92.7% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 4194 / 421 | concurrency 1 | tpot_ms | mean | 10.31 | 9.49 | -7.9% | 7.35 | -28.7% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c1](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 4194 / 421 | concurrency 1 | e2e_ms | mean | 4,480 | 4,056 | -9.4% | 3,103 | -30.7% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3750 / 520 | concurrency 16 | output_tok_s | mean | 821 | 875 | +6.6% | 2,097 | +155.6% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3750 / 520 | concurrency 16 | ttft_ms | mean | 284 | 74.49 | -73.8% | 9.17 | -96.8% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3750 / 520 | concurrency 16 | tpot_ms | mean | 16.81 | 18.17 | +8.1% | 7.35 | -56.3% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c16](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3750 / 520 | concurrency 16 | e2e_ms | mean | 8,806 | 9,506 | +8.0% | 3,829 | -56.5% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3981 / 530 | concurrency 64 | output_tok_s | mean | 1,790 | 1,938 | +8.3% | 7,510 | +319.5% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3981 / 530 | concurrency 64 | ttft_ms | mean | 238 | 87.53 | -63.3% | 9.73 | -95.9% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3981 / 530 | concurrency 64 | tpot_ms | mean | 32.50 | 32.91 | +1.3% | 7.35 | -77.4% |',
    '| sgl_cookbook | [sglcb-sgl056-b200x8-qwen3-235b-r8000-1000-c64](https://github.com/sgl-project/sgl-cookbook/blob/7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d/docs/autoregressive/Qwen/Qwen3.md) | sglang | B200 × 8 (8) | qwen3-235b-a22b, bf16, auto | 3981 / 530 | concurrency 64 | e2e_ms | mean | 17,364 | 17,499 | +0.8% | 3,903 | -77.5% |',
    '| vllm_issue_17469 | [vllm-issue17469-v085-4xa10-qwen3-30b-a3b-tp4-kv-mml8192](https://github.com/vllm-project/vllm/issues/17469) | vllm | A10 × 4 (4) | qwen3-30b-a3b, bf16, auto | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 198,784 | 163,632 | -17.7% | 263,165 | +32.4% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 9"), written into the report before its one run.
ROUND9_CAVEATS = [
    "Read with the collector's caveats (README \"Round 9\"; each file's `notes`): 15 of the 16 cases are one source, "
    "the **SGLang cookbook**'s \"Speed Benchmark\" sections (SGLang 0.5.6, `sglang.bench_serving` random dataset, "
    "closed loops of 1 / 16 / 64 / 100 users with 5× as many prompts): Llama-3.1-70B (the base model) on 8× A100 TP 8 "
    "(6 cases; the A100's memory size is not stated: the 80 GB SXM part is assumed) and Qwen3-235B-A22B-Instruct-2507 "
    "(read as `qwen3-235b-a22b`) on 8× B200 TP 8 (9 cases), BF16 assumed for both, SGLang's defaults but `--tp 8`; so "
    "the round is reported pooled, per source and per page (decided at the freeze). The cookbook's lengths are the "
    "runs' **means of randomly drawn lengths** (each request's input and output drawn up to the set length), not fixed "
    "lengths; SGLang's prefix (radix) cache is on by default and the pages do not say whether the server was restarted "
    "between runs (the two Qwen3 TTFTs whose input totals repeat an earlier run's are left out, the other 13 kept with "
    "this caveat); the mean requests in flight read below the cap at 16-100 users (the runs drain at their end). Every "
    "latency figure is a mean. The one other case is a vLLM 0.8.5 (V1) start-up log on 4× A10 (PCIe, TP 4), "
    "Qwen3-30B-A3B BF16, max_model_len 8,192: its `gpu_memory_utilization` is cut from the stored log (vLLM's default "
    "is not confirmed), and the engine crashed in CUDA-graph capture right after sizing that pool. No erratum touches "
    "round 9.",
]

ROUND9_SINCE_HEADING = "### Since round 9's evaluation: round 9 with this commit's estimator"


def _relabelled_round9(lines: list[str]) -> list[str]:
    """ROUND9_EVALUATION's target lines under round 9's label now that it is spent (the figures untouched): what the
    live section prints when no predicted figure has changed. Every round-9 target line (pooled, per source, per
    cookbook page) starts with the round's label."""
    return _relabelled_as_spent(Split.heldout9, lines)


def round9_section(rows: list[Row]) -> list[str]:
    """Round 9's section: the collector's caveats, then its one evaluation (ROUND9_EVALUATION, verbatim), then this
    commit's figures under "Since round 9's evaluation" (round 9 is spent: its evaluation has been printed and read)."""
    return one_evaluation_section(Split.heldout9, ROUND9_CAVEATS, ROUND9_EVALUATION, ROUND9_SINCE_HEADING, "2026-12-02",
                                  "ab3ed60", [*round9_targets(rows), "", *findings_round9(rows)])


def one_evaluation_section(split: Split, caveats: list[str], evaluation: list[str], since_heading: str, date: str,
                           commit: str, live: list[str]) -> list[str]:
    """A round's section once it has been evaluated (rounds 9-11): the collector's caveats, then its one evaluation
    (`evaluation`, verbatim), then this commit's figures under `since_heading`. A spent round (its label ends in
    "(spent)": its figures have been printed and read since) compares its live lines with the frozen ones relabelled;
    while `evaluation` is empty (before that run) the live lines are printed alone."""
    n = _round_number(split)
    out = [f"### Round {n}: its one evaluation", "", *caveats, ""]
    if not evaluation:
        return [*out, f"The one run with the files in place (the estimator of commit {commit}):", "", *live, ""]
    out += [f"As that run printed it ({date}, the estimator of commit {commit}), kept verbatim:", "",
            *evaluation, "", since_heading, ""]
    if SPLIT_LABEL[split].endswith("(spent)"):
        out += [f"Round {n} is spent since that evaluation (its figures have been printed here and read since; "
                f"relabelled when round {n + 1} was placed); its figures with this commit's estimator, errata applied:",
                ""]
        if live == _relabelled_as_spent(split, evaluation):
            return [*out, "The same figures as its one evaluation above, now labelled \"(spent)\" (no predicted figure "
                    "has changed since).", ""]
        return [*out, *live, ""]
    out += ["Its figures with this commit's estimator, errata applied:", ""]
    if live == evaluation:
        return [*out, "The same figures as its one evaluation above (no predicted figure has changed since).", ""]
    return [*out, *live, ""]


def _round_number(split: Split) -> int:
    return int(split.value.removeprefix("heldout"))


def _relabelled_as_spent(split: Split, lines: list[str]) -> list[str]:
    """A frozen evaluation's target lines under the round's present label (the figures untouched): every target line
    of rounds 9-11 (pooled, per source, per page, read apart) starts with the label the round had when it ran."""
    return _relabelled(lines, {f"- held out, round {_round_number(split)}, ": f"- {SPLIT_LABEL[split]}, "})


# ------------------------------------------------------------------ rounds 10-13: reported pooled and per source

@dataclasses.dataclass(frozen=True)
class ReadApart:
    """Figures of a round that its freeze set apart (one metric of one file, and of one load kind where `load` is
    given): given their own target line and their own row in each table, and left out of the pooled and per-source
    readings."""
    label: str
    file: str
    metric: Metric
    what: str  # what the figures are, for the round's summary line
    load: CaseLoadKind | None = None  # only the cases of this load kind (None: every case of the file)

    def holds(self, r: Row) -> bool:
        return (r.file == self.file and r.metric == self.metric
                and (self.load is None or r.case.load.kind == self.load))


@dataclasses.dataclass(frozen=True)
class KvWithout:
    """A KV reading its freeze decided without some of the round's files (their cases): its own target line."""
    label: str  # how the line names the reading ("without …")
    files: tuple[str, ...]


@dataclasses.dataclass(frozen=True, eq=False)
class PooledRound:
    """A held-out round reported pooled and per source (decided at its freeze), latency also per statistic, with the
    median and the shares within 25 % and 50 %, beside the naive roofline (round 7's shares and the shared table
    helpers); `apart`: figures its freeze set apart. `kv_first`: the round is first of all a KV reading (round 12): its
    KV lines lead (in full, per source, then `kv_one_per_source` and each of `kv_without`), before the throughput and
    latency lines. `pooled_only`: the throughput and latency target lines are pooled only, with no per-source line
    (round 13, as decided at its freeze; its tables still show each source). Rounds 10-13 are rendered from one
    each."""
    split: Split
    lead_file: str  # the source that carries most of the round's cases
    lead_name: str  # how the round's summary line names it
    caveats: list[str]
    evaluation: list[str]
    since_heading: str
    date: str  # of its one evaluation
    commit: str  # the estimator it ran on
    apart: tuple[ReadApart, ...] = ()
    misses_shown: int = 3  # the largest misses shown per source, by |log error|
    kv_first: bool = False
    kv_one_per_source: bool = False  # also count each source once (a source is within when each of its KV figures is)
    kv_without: tuple[KvWithout, ...] = ()
    pooled_only: bool = False

    @property
    def number(self) -> int:
        return _round_number(self.split)

    def rows(self, rows: list[Row]) -> list[Row]:
        return [r for r in rows if r.split == self.split]

    def read_apart(self, r: Row) -> bool:
        return any(g.holds(r) for g in self.apart)

    def apart_groups(self, sel: list[Row]) -> list[tuple[str, list[Row]]]:
        return [(f"{g.label} (read apart)", [r for r in sel if g.holds(r)]) for g in self.apart]


def pooled_round_targets(spec: PooledRound, rows: list[Row]) -> list[str]:
    """A pooled round's target lines: pooled, then per source file (both decided at its freeze), then each group of
    figures read apart; the pooled and per-source lines leave those out. With `kv_first` the KV reading comes first
    (`kv_round_targets`) and the lines after it hold the round's throughput and latency figures only."""
    if not spec.kv_first:
        return _pooled_lines(spec, rows)
    rest = [r for r in rows if not (r.split == spec.split and r.metric.category == "kv")]
    return [*kv_round_targets(spec, rows), *_pooled_lines(spec, rest)]


def kv_round_targets(spec: PooledRound, rows: list[Row]) -> list[str]:
    """A round's KV reading (round 12, decided at its freeze): every KV figure in full, then per source file, then one
    per source, then without each group of files its freeze named; the full and the "without" lines also count cases
    (a case is within when each of its KV figures, GiB and tokens, is)."""
    kv = [r for r in spec.rows(rows) if r.metric.category == "kv"]
    if not kv:
        return []
    name = SPLIT_LABEL[spec.split]
    lines = [*targets(kv, spec.split), _kv_by_case(kv)]
    for f in sorted({r.file for r in kv}):
        lines += targets([r for r in kv if r.file == f], spec.split, label=f"{name}, source {source_name(f)}")
    if spec.kv_one_per_source:
        lines.append(_kv_one_per_source(name, kv))
    for w in spec.kv_without:
        sel = [r for r in kv if r.file not in w.files]
        lines += [*targets(sel, spec.split, label=f"{name}, {w.label}"), _kv_by_case(sel)]
    return lines


def _kv_within(sel: list[Row]) -> bool:
    return all(r.error is not None and r.error <= TARGET_KV for r in sel)


def _kv_by_case(kv: list[Row]) -> str:
    ids = sorted({r.case.id for r in kv})
    ok = sum(_kv_within([r for r in kv if r.case.id == c]) for c in ids)
    return f"  - by case: {ok}/{len(ids)} cases with each of their KV figures (GiB and tokens) within 5 %."


def _kv_one_per_source(name: str, kv: list[Row]) -> str:
    files = sorted({r.file for r in kv})
    bad = [f for f in files if not _kv_within([r for r in kv if r.file == f])]
    worst = {f: max((r.error or 0) for r in kv if r.file == f) for f in files}
    return (f"- {name}, KV capacity, one per source ({len(files)} sources; a source is within when each of its KV "
            f"figures is): {len(files) - len(bad)}/{len(files)} sources within 5 % — target every case: "
            + ("**met**." if not bad else "**missed**: " + ", ".join(
                f"{source_name(f)} (max {pct(worst[f])})" for f in bad) + "."))


def _pooled_lines(spec: PooledRound, rows: list[Row]) -> list[str]:
    sel = spec.rows(rows)
    main = [r for r in sel if not spec.read_apart(r)]
    name = SPLIT_LABEL[spec.split]
    lines = targets([r for r in rows if not (r.split == spec.split and spec.read_apart(r))], spec.split,
                    by_statistic=True)
    for f in ([] if spec.pooled_only else sorted({r.file for r in main})):
        lines += targets([r for r in main if r.file == f], spec.split, by_statistic=True,
                         label=f"{name}, source {source_name(f)}")
    for label, group in spec.apart_groups(sel):
        lines += targets(group, spec.split, by_statistic=True, label=f"{name}, {label}")
    return lines


def findings_pooled_round(spec: PooledRound, rows: list[Row]) -> list[str]:
    """A pooled round's evaluation, computed from the rows: per source and pooled, pooled and per source by metric
    category and statistic, by metric and statistic per source, the largest misses per source, and every figure, the
    naive roofline beside each (nothing here is typed in by hand); the figures read apart have their own rows."""
    sel = spec.rows(rows)
    if not sel:
        return []
    n = spec.number
    files = sorted({r.file for r in sel})
    main = [r for r in sel if not spec.read_apart(r)]
    lead = [r for r in sel if r.file == spec.lead_file]
    sources = _by_file(main, sorted({r.file for r in main}))
    apart = spec.apart_groups(sel)
    lat = [r for r in sel if r.metric.category == "latency"]
    stats = sorted({r.statistic for r in lat}, key=LATENCY_STATISTICS.index)
    kv = [r for r in sel if r.metric.category == "kv"]
    kv_without = [(f"round {n}, KV {w.label}", [r for r in kv if r.file not in w.files]) for w in spec.kv_without]
    by_stat = ", ".join(f"{sum(r.statistic == s for r in lat)} {s}" for s in stats) or "none"
    told_apart = "".join(
        f" Read apart (decided at the freeze): {label}, {len(group)} figures ({g.metric.value} of "
        f"{source_name(g.file)}: {g.what}), not pooled with the round's latency figures nor with its source's."
        for g, (label, group) in zip(spec.apart, apart))
    return [
        f"Round {n}: {len({r.case.id for r in sel})} cases, {len(sel)} figures from {len(files)} files "
        f"({len({r.case.gpu for r in sel})} GPU types: {', '.join(sorted({r.case.gpu for r in sel}))}; engines "
        f"{', '.join(sorted({r.case.engine.value for r in sel}))}); {spec.lead_name} ({source_name(spec.lead_file)}) "
        f"carries {len({r.case.id for r in lead})} cases, {len(lead)} figures. Latency figures by statistic: "
        f"{by_stat} (the estimator predicts means). "
        + (f"KV capacity: {len(kv)} figures." if kv else "KV capacity: no figure in this round.") + told_apart,
        "",
        "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at "
        "most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive "
        "roofline's in brackets).",
        "",
        "By source (file), and pooled:" if not apart else
        "By source (file), and pooled, without the figures read apart; then those figures:",
        "",
        *_share_table([*sources, (f"round {n}, pooled", main), *apart], "source"),
        "",
        "Pooled and per source, by metric category and statistic (as the sources publish them; the estimator predicts "
        "means):",
        "",
        *_category_statistic_table([(f"round {n}", main), *sources, *apart, *kv_without]),
        "",
        "By source, metric and statistic:",
        "",
        *_metric_statistic_rows([*sources, *apart]),
        "",
        *_misses_rows([*sources, *apart], spec.misses_shown),
        "",
        *([*_kv_case_table(kv), ""] if spec.kv_first and kv else []),
        *_every_figure_table(sel),
    ]


def _kv_case_table(kv: list[Row]) -> list[str]:
    """One row per KV case: its engine release and memory settings, the pool in GiB and in tokens, each measured,
    predicted and signed error, side by side."""
    out = ["Every KV case (the pool in GiB and in tokens side by side; signed errors; gmu and max_model_len as the case "
           "states them):", "",
           "| source | case | GPU | model, weights | vLLM | gmu | max_model_len | GiB: measured | predicted | error | "
           "tokens: measured | predicted | error |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for file, cid in sorted({(r.file, r.case.id) for r in kv}):
        mine = {r.metric: r for r in kv if r.case.id == cid}
        c = next(iter(mine.values())).case
        cells = []
        for metric in (Metric.kv_cache_gib, Metric.kv_cache_tokens):
            r = mine.get(metric)
            cells += ([num(r.measured), num(r.predicted), spct(r.signed)] if r else ["—", "—", "—"])
        gmu = c.engine_args.gpu_memory_utilization
        out.append(f"| {source_name(file)} | {cid} | {c.gpu} | {c.model}, {c.weights.value} | "
                   f"{c.engine_version.split()[0]} | {'—' if gmu is None else f'{gmu:g}'} | "
                   f"{num(c.engine_args.max_model_len)} | {' | '.join(cells)} |")
    return out


def pooled_round_section(spec: PooledRound, rows: list[Row]) -> list[str]:
    """A pooled round's section (`one_evaluation_section` over its targets and findings)."""
    live = [*pooled_round_targets(spec, rows), "", *findings_pooled_round(spec, rows)]
    return one_evaluation_section(spec.split, spec.caveats, spec.evaluation, spec.since_heading, spec.date,
                                  spec.commit, live)


# ------------------------------------------------------------------ round 10 (held out: frozen by digest at de149b1)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 12"), before any evaluation: round 10 is reported
# pooled and per source (the Tim Wang blog carries 11 of its 14 cases); its two KV cases (dennislee22's Qwen2.5-32B
# start-up pools on A100) are the round's KV reading; the blog's prompt lengths are read as its collector read them
# (evalscope's 5,000-10,000 prompt-length filter as characters, `input_len` 1,900 tokens) and the report says so.
# Latency is also given per statistic (the blog's TPOT is printed to 1 ms: `approx`), with the median and the shares
# within 25 % and 50 %, beside the naive roofline (round 7's shares and the shared table helpers).
ROUND10_BLOG_FILE = "heldout10_timwang_vllm_sglang_h100.yaml"
ROUND10_MISSES_SHOWN = 3  # the largest misses shown per source, by |log error|


def round10_targets(rows: list[Row]) -> list[str]:
    """Round 10's target lines: pooled, then per source file (both decided at the freeze)."""
    return pooled_round_targets(ROUND10, rows)


def findings_round10(rows: list[Row]) -> list[str]:
    """Round 10's evaluation, computed from the rows (`findings_pooled_round`)."""
    return findings_pooled_round(ROUND10, rows)


# Round 10's one evaluation as that run printed it (2026-12-03 11:45 UTC, the estimator of commit ab3ed60 at HEAD
# cf34381, the files placed byte-identical to the freeze record of de149b1): its target lines and `findings_round10`,
# copied from that run's benchmarks/serving.md and not edited. While empty (before that run), the report printed the
# live section alone.
ROUND10_EVALUATION: list[str] = [
    '- held out, round 10, throughput: median error 9.3% over 23 figures — target ≤ 25 %: **met**.',
    '- held out, round 10, latency: median error 15.1% over 23 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 13.4% over 12 figures — target ≤ 25 %: **met**.',
    '  - of which approx figures (as the source publishes them; the estimator predicts means): median error 15.1% over 11 figures — target ≤ 25 %: **met**.',
    '- held out, round 10, KV capacity: 0/2 within 5 % (max 345.1%) — target every case: **missed**: `dennislee-vllm0101-a100-qwen25-32b-tp1-kv` kv_cache_gib -15.7%, `dennislee-vllm0101-2xa100-qwen25-32b-tp2-kv` kv_cache_gib 345.1%.',
    '- held out, round 10, source dennislee22_vllm_a100, throughput: median error 23.4% over 1 figures — target ≤ 25 %: **met**.',
    '- held out, round 10, source dennislee22_vllm_a100, latency: median error 19.5% over 1 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 19.5% over 1 figures — target ≤ 25 %: **met**.',
    '- held out, round 10, source dennislee22_vllm_a100, KV capacity: 0/2 within 5 % (max 345.1%) — target every case: **missed**: `dennislee-vllm0101-a100-qwen25-32b-tp1-kv` kv_cache_gib -15.7%, `dennislee-vllm0101-2xa100-qwen25-32b-tp2-kv` kv_cache_gib 345.1%.',
    '- held out, round 10, source timwang_vllm_sglang_h100, throughput: median error 9.1% over 22 figures — target ≤ 25 %: **met**.',
    '- held out, round 10, source timwang_vllm_sglang_h100, latency: median error 13.2% over 22 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 11.3% over 11 figures — target ≤ 25 %: **met**.',
    '  - of which approx figures (as the source publishes them; the estimator predicts means): median error 15.1% over 11 figures — target ≤ 25 %: **met**.',
    '',
    'Round 10: 14 cases, 48 figures from 2 files (2 GPU types: A100-80GB, H100; engines sglang, vllm); the blog (timwang_vllm_sglang_h100) carries 11 cases, 44 figures. Latency figures by statistic: 12 mean, 11 approx (the estimator predicts means). KV capacity: 2 figures.',
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive roofline's in brackets).",
    '',
    'By source (file), and pooled:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| dennislee22_vllm_a100 | 3 | 23.4% (+23.4%) · 1 | 1/1 | 1/1 | 80.8% | 19.5% (-19.5%) · 1 | 1/1 | 1/1 | 45.0% | 0/2 (naive 0/2) |',
    '| timwang_vllm_sglang_h100 | 11 | 9.1% (-9.0%) · 22 | 22/22 | 22/22 | 2373.2% | 13.2% (+13.2%) · 22 | 15/22 | 19/22 | 46.7% | — |',
    '| round 10, pooled | 14 | 9.3% (-8.8%) · 23 | 23/23 | 23/23 | 2364.7% | 15.1% (+11.3%) · 23 | 16/23 | 20/23 | 46.7% | 0/2 (naive 0/2) |',
    '',
    'Pooled and per source, by metric category and statistic (as the sources publish them; the estimator predicts means):',
    '',
    '| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| round 10 | throughput | single | 23 | 9.3% (-8.8%) · 23 | 23/23 | 23/23 | 2364.7% | 0/23 |',
    '| round 10 | latency | mean | 12 | 13.4% (+10.8%) · 12 | 8/12 | 10/12 | 46.8% | 0/12 |',
    '| round 10 | latency | approx | 11 | 15.1% (+15.1%) · 11 | 8/11 | 10/11 | 46.7% | 0/11 |',
    '| round 10 | kv | single | 2 | 180.4% (+164.7%) · 2 | 0/2 | 1/2 | 202.3% | 0/2 |',
    '| dennislee22_vllm_a100 | throughput | single | 1 | 23.4% (+23.4%) · 1 | 1/1 | 1/1 | 80.8% | 0/1 |',
    '| dennislee22_vllm_a100 | latency | mean | 1 | 19.5% (-19.5%) · 1 | 1/1 | 1/1 | 45.0% | 0/1 |',
    '| dennislee22_vllm_a100 | kv | single | 2 | 180.4% (+164.7%) · 2 | 0/2 | 1/2 | 202.3% | 0/2 |',
    '| timwang_vllm_sglang_h100 | throughput | single | 22 | 9.1% (-9.0%) · 22 | 22/22 | 22/22 | 2373.2% | 0/22 |',
    '| timwang_vllm_sglang_h100 | latency | mean | 11 | 11.3% (+11.3%) · 11 | 7/11 | 9/11 | 48.6% | 0/11 |',
    '| timwang_vllm_sglang_h100 | latency | approx | 11 | 15.1% (+15.1%) · 11 | 8/11 | 10/11 | 46.7% | 0/11 |',
    '',
    'By source, metric and statistic:',
    '',
    '| source | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| dennislee22_vllm_a100 | output_tok_s | single | 1 | 23.4% (+23.4%) · 1 | 1/1 | 1/1 | 80.8% | 0/1 |',
    '| dennislee22_vllm_a100 | tpot_ms | mean | 1 | 19.5% (-19.5%) · 1 | 1/1 | 1/1 | 45.0% | 0/1 |',
    '| dennislee22_vllm_a100 | kv_cache_gib | single | 2 | 180.4% (+164.7%) · 2 | 0/2 | 1/2 | 202.3% | 0/2 |',
    '| timwang_vllm_sglang_h100 | output_tok_s | single | 11 | 9.3% (-9.3%) · 11 | 11/11 | 11/11 | 2364.7% | 0/11 |',
    '| timwang_vllm_sglang_h100 | req_s | single | 11 | 9.0% (-8.5%) · 11 | 11/11 | 11/11 | 2381.7% | 0/11 |',
    '| timwang_vllm_sglang_h100 | tpot_ms | approx | 11 | 15.1% (+15.1%) · 11 | 8/11 | 10/11 | 46.7% | 0/11 |',
    '| timwang_vllm_sglang_h100 | e2e_ms | mean | 11 | 11.3% (+11.3%) · 11 | 7/11 | 9/11 | 48.6% | 0/11 |',
    '',
    'The largest misses per source (up to 3, by |log error|):',
    '',
    '| source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| dennislee22_vllm_a100 | dennislee-vllm0101-2xa100-qwen25-32b-tp2-kv | kv_cache_gib | single | 8.22 | 36.59 | +345.1% | +397.6% |',
    '| dennislee22_vllm_a100 | dennislee-vllm0101-2xa100-qwen25-32b-tp2-p1024-o1024-c1 | tpot_ms | mean | 29.21 | 23.50 | -19.5% | -45.0% |',
    '| dennislee22_vllm_a100 | dennislee-vllm0101-2xa100-qwen25-32b-tp2-p1024-o1024-c1 | output_tok_s | single | 34.20 | 42.19 | +23.4% | +80.8% |',
    '| timwang_vllm_sglang_h100 | timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst100 | e2e_ms | mean | 26,157 | 66,984 | +156.1% | -63.2% |',
    '| timwang_vllm_sglang_h100 | timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst100 | tpot_ms | approx | 13.00 | 32.19 | +147.6% | -63.1% |',
    '| timwang_vllm_sglang_h100 | timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst50 | e2e_ms | mean | 26,176 | 40,239 | +53.7% | -63.3% |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| dennislee22_vllm_a100 | [dennislee-vllm0101-2xa100-qwen25-32b-tp2-kv](https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/README.md) | vllm | A100-80GB × 2 (2) | qwen2.5-32b, bf16, auto | 16384 / 1 | kv_capacity | kv_cache_gib | single | 8.22 | 36.59 | +345.1% | 40.90 | +397.6% |',
    '| dennislee22_vllm_a100 | [dennislee-vllm0101-2xa100-qwen25-32b-tp2-p1024-o1024-c1](https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/README.md) | vllm | A100-80GB × 2 (2) | qwen2.5-32b, bf16, auto | 1024 / 1024 | concurrency 1 | output_tok_s | single | 34.20 | 42.19 | +23.4% | 61.83 | +80.8% |',
    '| dennislee22_vllm_a100 | [dennislee-vllm0101-2xa100-qwen25-32b-tp2-p1024-o1024-c1](https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/README.md) | vllm | A100-80GB × 2 (2) | qwen2.5-32b, bf16, auto | 1024 / 1024 | concurrency 1 | tpot_ms | mean | 29.21 | 23.50 | -19.5% | 16.07 | -45.0% |',
    '| dennislee22_vllm_a100 | [dennislee-vllm0101-a100-qwen25-32b-tp1-kv](https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/README.md) | vllm | A100-80GB × 1 (1) | qwen2.5-32b, bf16, auto | 16384 / 1 | kv_capacity | kv_cache_gib | single | 9.70 | 8.18 | -15.7% | 10.39 | +7.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | output_tok_s | single | 1,188 | 1,029 | -13.4% | 29,284 | +2364.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | req_s | single | 0.59 | 0.51 | -12.8% | 14.64 | +2381.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | tpot_ms | approx | 8.00 | 9.38 | +17.2% | 4.79 | -40.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | e2e_ms | mean | 16,829 | 19,428 | +15.4% | 9,619 | -42.8% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | output_tok_s | single | 2,056 | 1,576 | -23.4% | 29,284 | +1324.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | req_s | single | 1.03 | 0.79 | -23.5% | 14.64 | +1321.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | tpot_ms | approx | 10.00 | 12.04 | +20.4% | 4.79 | -52.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | e2e_ms | mean | 19,443 | 25,383 | +30.6% | 9,619 | -50.5% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | output_tok_s | single | 667 | 608 | -8.8% | 29,284 | +4293.4% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | req_s | single | 0.33 | 0.30 | -7.9% | 14.64 | +4337.0% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | tpot_ms | approx | 7.00 | 8.06 | +15.1% | 4.79 | -31.5% |',
    '| timwang_vllm_sglang_h100 | [timwang-sglang049-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | sglang | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | e2e_ms | mean | 15,000 | 16,451 | +9.7% | 9,619 | -35.9% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | output_tok_s | single | 1,068 | 1,061 | -0.6% | 29,284 | +2641.4% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | req_s | single | 0.53 | 0.53 | +0.1% | 14.64 | +2662.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | tpot_ms | approx | 9.00 | 9.26 | +2.9% | 4.79 | -46.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | e2e_ms | mean | 18,707 | 18,842 | +0.7% | 9,619 | -48.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst100](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 100 | output_tok_s | single | 2,744 | 2,986 | +8.8% | 29,284 | +967.2% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst100](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 100 | req_s | single | 1.37 | 1.49 | +9.0% | 14.64 | +968.8% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst100](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 100 | tpot_ms | approx | 13.00 | 32.19 | +147.6% | 4.79 | -63.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst100](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 100 | e2e_ms | mean | 26,157 | 66,984 | +156.1% | 9,619 | -63.2% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | output_tok_s | single | 1,836 | 1,653 | -9.9% | 29,284 | +1495.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | req_s | single | 0.92 | 0.83 | -10.1% | 14.64 | +1491.5% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | tpot_ms | approx | 11.00 | 11.81 | +7.3% | 4.79 | -56.4% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | e2e_ms | mean | 21,738 | 24,192 | +11.3% | 9,619 | -55.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | output_tok_s | single | 589 | 619 | +5.1% | 29,284 | +4875.0% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | req_s | single | 0.29 | 0.31 | +6.6% | 14.64 | +4949.0% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | tpot_ms | approx | 8.00 | 8.00 | -0.0% | 4.79 | -40.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | e2e_ms | mean | 16,981 | 16,168 | -4.8% | 9,619 | -43.4% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst50](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 50 | output_tok_s | single | 2,743 | 2,485 | -9.4% | 29,284 | +967.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst50](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 50 | req_s | single | 1.37 | 1.24 | -9.3% | 14.64 | +968.8% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst50](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 50 | tpot_ms | approx | 13.00 | 19.46 | +49.7% | 4.79 | -63.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v0-h100-llama31-8b-longalpaca-o2000-burst50](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 50 | e2e_ms | mean | 26,176 | 40,239 | +53.7% | 9,619 | -63.3% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | output_tok_s | single | 1,170 | 1,061 | -9.3% | 29,284 | +2403.3% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | req_s | single | 0.58 | 0.53 | -8.5% | 14.64 | +2424.5% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | tpot_ms | approx | 9.00 | 9.26 | +2.9% | 4.79 | -46.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst10](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 10 | e2e_ms | mean | 17,082 | 18,842 | +10.3% | 9,619 | -43.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | output_tok_s | single | 2,068 | 1,653 | -20.0% | 29,284 | +1316.3% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | req_s | single | 1.03 | 0.83 | -19.7% | 14.64 | +1321.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | tpot_ms | approx | 9.00 | 11.79 | +31.0% | 4.79 | -46.7% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst20](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 20 | e2e_ms | mean | 19,303 | 24,192 | +25.3% | 9,619 | -50.2% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | output_tok_s | single | 635 | 619 | -2.6% | 29,284 | +4512.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | req_s | single | 0.32 | 0.31 | -3.4% | 14.64 | +4475.6% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | tpot_ms | approx | 8.00 | 8.00 | -0.0% | 4.79 | -40.1% |',
    '| timwang_vllm_sglang_h100 | [timwang-vllm090v1-h100-llama31-8b-longalpaca-o2000-burst5](https://tim-wang-tecg-blog.pages.dev/llm/llm-benchmark-en) | vllm | H100 × 1 (1) | llama-3.1-8b, bf16, auto | 1900 / 2000 | max_throughput 5 | e2e_ms | mean | 15,747 | 16,168 | +2.7% | 9,619 | -38.9% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 10"), written into the report before its one run.
ROUND10_CAVEATS = [
    "Read with the collector's caveats (README \"Round 10\"; each file's `notes`): 11 of the 14 cases are one source, "
    "the **Tim Wang blog**'s evalscope sweeps of Llama-3.1-8B-Instruct on one H100 80 GB (SXM or PCIe not stated; the "
    "catalog's `H100` taken): vLLM 0.9.0 with the V0 engine (bursts of 5 / 10 / 20 / 50 / 100 requests) and the V1 engine "
    "and SGLang 0.4.9 (5 / 10 / 20 each), 2,000 output tokens per request; each row one wave of N requests sent "
    "together (`max_throughput` N); server flags not printed (engine defaults, BF16 assumed). **The prompt lengths are "
    "read as the collector read them**: evalscope's `--min-prompt-length 5000 --max-prompt-length 10000` filter on "
    "LongAlpaca taken as **characters** (about 1,250-2,500 Llama-3 tokens), `input_len` 1,900 tokens an estimate, "
    "unverified against evalscope's code (read as tokens, ~7,500 on average); the V1 and SGLang rows past 20 requests "
    "are left out for prefix-cache reuse across the sweep, and every TTFT for likely being a first-chunk time; the "
    "blog's TPOT is printed to 1 ms (`approx`). So the round is reported pooled and per source (decided at the "
    "freeze). The other source, **dennislee22**'s vLLM (0.10.1.1 and V1 assumed) write-up on A100 80 GB, gives the "
    "round's **KV reading**, two Qwen2.5-32B \"Available KV cache memory\" figures from section titles (9.70 GiB at TP 1, "
    "8.22 GiB per GPU at TP 2 — the per-GPU figure the benchmark compares for TP cases), with `gpu_memory_utilization` "
    "and `max_model_len` not printed (compared with vLLM's default utilisation, as the benchmark reads any case that "
    "does not state it; `input_len` carries an assumed 16,384), and one single-request decode at TP 2. No erratum "
    "touches round 10.",
]

ROUND10_SINCE_HEADING = "### Since round 10's evaluation: round 10 with this commit's estimator"


ROUND10 = PooledRound(Split.heldout10, ROUND10_BLOG_FILE, "the blog", ROUND10_CAVEATS, ROUND10_EVALUATION,
                      ROUND10_SINCE_HEADING, "2026-12-03", "ab3ed60", misses_shown=ROUND10_MISSES_SHOWN)


def round10_section(rows: list[Row]) -> list[str]:
    """Round 10's section: the collector's caveats, then its one evaluation (ROUND10_EVALUATION, verbatim), then this
    commit's figures under "Since round 10's evaluation" (round 10 is spent: its evaluation has been printed and
    read)."""
    return pooled_round_section(ROUND10, rows)


# ------------------------------------------------------------------ round 11 (held out: frozen by digest at 8640aae)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 13"), before any evaluation: round 11 is reported
# pooled and per source (Livinfly carries 13 of its 27 cases); it has no KV reading (no KV case); the KLsatorlac2 E2E
# figures are whole offline-batch wall times and are reported apart from the throughput figures: here they are one
# group read apart (their own target line and table rows), left out of the pooled and per-source latency readings.
# Rendered as round 10 is (`PooledRound`): latency also per statistic, the median and the shares within 25 % and 50 %,
# beside the naive roofline.
ROUND11_LIVINFLY_FILE = "heldout11_livinfly_vllm_a100_pcie_40gb.yaml"
ROUND11_KLS_FILE = "heldout11_klsatorlac2_vllm_t4.yaml"
ROUND11_BATCH_WALL_TIMES = ReadApart("KLsatorlac2's batch wall times", ROUND11_KLS_FILE, Metric.e2e_ms,
                                     "each the wall time of one offline LLM.generate batch")
ROUND11_MISSES_SHOWN = 3  # the largest misses shown per source (and for the figures read apart), by |log error|


# Round 11's one evaluation as that run printed it (2026-12-03 14:34 UTC, the estimator of commit ab3ed60 at HEAD
# 1aa974b, the files placed byte-identical to the freeze record of 8640aae in 8771c3b): its target lines and findings
# (`pooled_round_targets` and `findings_pooled_round` of ROUND11), copied from that run's benchmarks/serving.md and not
# edited. While empty (before that run), the report printed the live section alone.
ROUND11_EVALUATION: list[str] = [
    '- held out, round 11, throughput: median error 22.7% over 31 figures — target ≤ 25 %: **met**.',
    '- held out, round 11, latency: median error 29.4% over 10 figures — target ≤ 25 %: **missed**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 29.4% over 10 figures — target ≤ 25 %: **missed**.',
    '- held out, round 11, source jan_trtllm_vs_llamacpp, throughput: median error 24.6% over 2 figures — target ≤ 25 %: **met**.',
    '- held out, round 11, source klsatorlac2_vllm_t4, throughput: median error 48.0% over 12 figures — target ≤ 25 %: **missed**.',
    '- held out, round 11, source livinfly_vllm_a100_pcie_40gb, throughput: median error 8.2% over 17 figures — target ≤ 25 %: **met**.',
    '- held out, round 11, source livinfly_vllm_a100_pcie_40gb, latency: median error 29.4% over 10 figures — target ≤ 25 %: **missed**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 29.4% over 10 figures — target ≤ 25 %: **missed**.',
    "- held out, round 11, KLsatorlac2's batch wall times (read apart), latency: median error 32.6% over 11 figures — target ≤ 25 %: **missed**.",
    '  - of which single figures (as the source publishes them; the estimator predicts means): median error 32.6% over 11 figures — target ≤ 25 %: **missed**.',
    '',
    "Round 11: 27 cases, 52 figures from 3 files (4 GPU types: A100-40GB-PCIe, RTX-3090, RTX-4090, T4; engines llamacpp, transformers, vllm); Livinfly (livinfly_vllm_a100_pcie_40gb) carries 13 cases, 27 figures. Latency figures by statistic: 10 mean, 11 single (the estimator predicts means). KV capacity: no figure in this round. Read apart (decided at the freeze): KLsatorlac2's batch wall times (read apart), 11 figures (e2e_ms of klsatorlac2_vllm_t4: each the wall time of one offline LLM.generate batch), not pooled with the round's latency figures nor with its source's.",
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive roofline's in brackets).",
    '',
    'By source (file), and pooled, without the figures read apart; then those figures:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| jan_trtllm_vs_llamacpp | 2 | 24.6% (+24.6%) · 2 | 1/2 | 2/2 | 132.1% | — | — | — | — | — |',
    '| klsatorlac2_vllm_t4 | 12 | 48.0% (+48.0%) · 12 | 2/12 | 7/12 | 186.5% | — | — | — | — | — |',
    '| livinfly_vllm_a100_pcie_40gb | 13 | 8.2% (+8.2%) · 17 | 14/17 | 16/17 | 82.1% | 29.4% (-29.4%) · 10 | 4/10 | 10/10 | 72.7% | — |',
    '| round 11, pooled | 27 | 22.7% (+22.7%) · 31 | 17/31 | 25/31 | 137.9% | 29.4% (-29.4%) · 10 | 4/10 | 10/10 | 72.7% | — |',
    "| KLsatorlac2's batch wall times (read apart) | 11 | — | — | — | — | 32.6% (-32.6%) · 11 | 3/11 | 10/11 | 72.9% | — |",
    '',
    'Pooled and per source, by metric category and statistic (as the sources publish them; the estimator predicts means):',
    '',
    '| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| round 11 | throughput | single | 31 | 22.7% (+22.7%) · 31 | 17/31 | 25/31 | 137.9% | 0/31 |',
    '| round 11 | latency | mean | 10 | 29.4% (-29.4%) · 10 | 4/10 | 10/10 | 72.7% | 0/10 |',
    '| jan_trtllm_vs_llamacpp | throughput | single | 2 | 24.6% (+24.6%) · 2 | 1/2 | 2/2 | 132.1% | 0/2 |',
    '| klsatorlac2_vllm_t4 | throughput | single | 12 | 48.0% (+48.0%) · 12 | 2/12 | 7/12 | 186.5% | 0/12 |',
    '| livinfly_vllm_a100_pcie_40gb | throughput | single | 17 | 8.2% (+8.2%) · 17 | 14/17 | 16/17 | 82.1% | 0/17 |',
    '| livinfly_vllm_a100_pcie_40gb | latency | mean | 10 | 29.4% (-29.4%) · 10 | 4/10 | 10/10 | 72.7% | 0/10 |',
    "| KLsatorlac2's batch wall times (read apart) | latency | single | 11 | 32.6% (-32.6%) · 11 | 3/11 | 10/11 | 72.9% | 0/11 |",
    '',
    'By source, metric and statistic:',
    '',
    '| source | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| jan_trtllm_vs_llamacpp | decode_tok_s | single | 2 | 24.6% (+24.6%) · 2 | 1/2 | 2/2 | 132.1% | 0/2 |',
    '| klsatorlac2_vllm_t4 | output_tok_s | single | 12 | 48.0% (+48.0%) · 12 | 2/12 | 7/12 | 186.5% | 0/12 |',
    '| livinfly_vllm_a100_pcie_40gb | output_tok_s | single | 13 | 7.9% (+7.9%) · 13 | 10/13 | 12/13 | 80.1% | 0/13 |',
    '| livinfly_vllm_a100_pcie_40gb | req_s | single | 4 | 14.5% (+14.5%) · 4 | 4/4 | 4/4 | 310.0% | 0/4 |',
    '| livinfly_vllm_a100_pcie_40gb | ttft_ms | mean | 5 | 32.2% (-32.2%) · 5 | 2/5 | 5/5 | 79.8% | 0/5 |',
    '| livinfly_vllm_a100_pcie_40gb | tpot_ms | mean | 5 | 26.7% (-26.7%) · 5 | 2/5 | 5/5 | 57.6% | 0/5 |',
    "| KLsatorlac2's batch wall times (read apart) | e2e_ms | single | 11 | 32.6% (-32.6%) · 11 | 3/11 | 10/11 | 72.9% | 0/11 |",
    '',
    'The largest misses per source (up to 3, by |log error|):',
    '',
    '| source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| jan_trtllm_vs_llamacpp | jan-llamacpp-b2249-rtx3090-mistral7b-q4km-bs1 | decode_tok_s | single | 88.70 | 115 | +29.6% | +137.9% |',
    '| jan_trtllm_vs_llamacpp | jan-llamacpp-b2249-rtx4090-mistral7b-q4km-bs1 | decode_tok_s | single | 100 | 120 | +19.6% | +126.3% |',
    '| klsatorlac2_vllm_t4 | kls-vllm085v0-t4-qwen25-1.5b-fp16-p16384-o64-bs1 | output_tok_s | single | 11.11 | 22.67 | +104.1% | +312.7% |',
    '| klsatorlac2_vllm_t4 | kls-hf-transformers-t4-qwen25-1.5b-fp16-bs1-p11-o64 | output_tok_s | single | 22.53 | 39.65 | +76.0% | +359.6% |',
    '| klsatorlac2_vllm_t4 | kls-vllm085v0-t4-qwen25-1.5b-awq-bs16-p11-o64 | output_tok_s | single | 957 | 1,662 | +73.7% | +349.9% |',
    '| livinfly_vllm_a100_pcie_40gb | livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr2 | ttft_ms | mean | 157 | 83.59 | -46.6% | -82.7% |',
    '| livinfly_vllm_a100_pcie_40gb | livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr2 | ttft_ms | mean | 152 | 83.17 | -45.4% | -84.3% |',
    '| livinfly_vllm_a100_pcie_40gb | livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr4 | tpot_ms | mean | 46.33 | 26.93 | -41.9% | -79.9% |',
    "| KLsatorlac2's batch wall times (read apart) | kls-vllm085v0-t4-qwen25-1.5b-fp16-p16384-o64-bs1 | e2e_ms | single | 5,760 | 2,823 | -51.0% | -75.8% |",
    "| KLsatorlac2's batch wall times (read apart) | kls-hf-transformers-t4-qwen25-1.5b-fp16-bs1-p11-o64 | e2e_ms | single | 2,841 | 1,614 | -43.2% | -78.2% |",
    "| KLsatorlac2's batch wall times (read apart) | kls-vllm085v0-t4-qwen25-1.5b-awq-bs16-p11-o64 | e2e_ms | single | 1,070 | 616 | -42.4% | -78.5% |",
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| jan_trtllm_vs_llamacpp | [jan-llamacpp-b2249-rtx3090-mistral7b-q4km-bs1](https://github.com/janhq/jan/blob/003598204e085255b8af68b6ee7da15c9b10e517/docs/src/pages/post/benchmarking-nvidia-tensorrt-llm.mdx) | llamacpp | RTX-3090 × 1 (1) | mistral-7b, q4_k_m, auto | 2048 / 512 | batch 1 | decode_tok_s | single | 88.70 | 115 | +29.6% | 211 | +137.9% |',
    '| jan_trtllm_vs_llamacpp | [jan-llamacpp-b2249-rtx4090-mistral7b-q4km-bs1](https://github.com/janhq/jan/blob/003598204e085255b8af68b6ee7da15c9b10e517/docs/src/pages/post/benchmarking-nvidia-tensorrt-llm.mdx) | llamacpp | RTX-4090 × 1 (1) | mistral-7b, q4_k_m, auto | 2048 / 512 | batch 1 | decode_tok_s | single | 100 | 120 | +19.6% | 227 | +126.3% |',
    '| klsatorlac2_vllm_t4 | [kls-hf-transformers-t4-qwen25-1.5b-fp16-bs1-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | transformers | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 11 / 64 | batch 1 | output_tok_s | single | 22.53 | 39.65 | +76.0% | 104 | +359.6% |',
    '| klsatorlac2_vllm_t4 | [kls-hf-transformers-t4-qwen25-1.5b-fp16-bs1-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | transformers | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 11 / 64 | batch 1 | e2e_ms | single | 2,841 | 1,614 | -43.2% | 618 | -78.2% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-2xt4-qwen25-1.5b-fp16-tp2-p512-o64-bs64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 2 (2) | qwen2.5-1.5b, fp16, auto | 512 / 64 | batch 64 | output_tok_s | single | 775 | 805 | +3.9% | 3,768 | +386.4% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-2xt4-qwen25-1.5b-fp16-tp2-p512-o64-bs64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 2 (2) | qwen2.5-1.5b, fp16, auto | 512 / 64 | batch 64 | e2e_ms | single | 5,287 | 5,089 | -3.7% | 321 | -93.9% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-awq-bs16-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, int4, auto | 11 / 64 | batch 16 | output_tok_s | single | 957 | 1,662 | +73.7% | 4,305 | +349.9% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-awq-bs16-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, int4, auto | 11 / 64 | batch 16 | e2e_ms | single | 1,070 | 616 | -42.4% | 230 | -78.5% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-bs1-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 11 / 64 | batch 1 | output_tok_s | single | 55.15 | 73.36 | +33.0% | 104 | +87.8% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-bs1-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 11 / 64 | batch 1 | e2e_ms | single | 1,160 | 872 | -24.8% | 618 | -46.7% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-bs16-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 11 / 64 | batch 16 | output_tok_s | single | 844 | 1,053 | +24.7% | 1,636 | +93.8% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-bs16-p11-o64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 11 / 64 | batch 16 | e2e_ms | single | 1,213 | 973 | -19.8% | 618 | -49.0% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p16384-o64-bs1](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 16384 / 64 | batch 1 | output_tok_s | single | 11.11 | 22.67 | +104.1% | 45.85 | +312.7% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p16384-o64-bs1](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 16384 / 64 | batch 1 | e2e_ms | single | 5,760 | 2,823 | -51.0% | 1,396 | -75.8% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p2048-o64-bs4](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 2048 / 64 | batch 4 | output_tok_s | single | 109 | 162 | +48.4% | 254 | +133.1% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p2048-o64-bs4](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 2048 / 64 | batch 4 | e2e_ms | single | 2,347 | 1,582 | -32.6% | 715 | -69.5% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p4096-o64-bs2](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 4096 / 64 | batch 2 | output_tok_s | single | 53.94 | 79.65 | +47.7% | 127 | +135.7% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p4096-o64-bs2](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 4096 / 64 | batch 2 | e2e_ms | single | 2,373 | 1,607 | -32.3% | 812 | -65.8% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p512-o64-64req-mns16](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 512 / 64 | max_throughput 64 | output_tok_s | single | 442 | 624 | +41.1% | 2,339 | +429.1% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p512-o64-bs16](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 512 / 64 | batch 16 | output_tok_s | single | 433 | 628 | +45.1% | 1,017 | +134.9% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p512-o64-bs16](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 512 / 64 | batch 16 | e2e_ms | single | 2,364 | 1,630 | -31.1% | 642 | -72.9% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p512-o64-bs64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 512 / 64 | batch 64 | output_tok_s | single | 628 | 1,034 | +64.6% | 1,884 | +199.9% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p512-o64-bs64](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 512 / 64 | batch 64 | e2e_ms | single | 6,519 | 3,961 | -39.2% | 642 | -90.2% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p8192-o64-bs1](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 8192 / 64 | batch 1 | output_tok_s | single | 23.28 | 38.09 | +63.6% | 63.58 | +173.1% |',
    '| klsatorlac2_vllm_t4 | [kls-vllm085v0-t4-qwen25-1.5b-fp16-p8192-o64-bs1](https://github.com/KLsatorlac2/vLLM-benchmark-lab/blob/3ad786d19f8f22f888666c7ab5aa212f38730971/docs/benchmark_report.md) | vllm | T4 × 1 (1) | qwen2.5-1.5b, fp16, auto | 8192 / 64 | batch 1 | e2e_ms | single | 2,749 | 1,680 | -38.9% | 1,007 | -63.4% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr1](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 509 / 534 | request_rate 1 | output_tok_s | single | 528 | 534 | +1.1% | 94.48 | -82.1% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr1](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 509 / 534 | request_rate 1 | ttft_ms | mean | 119 | 80.99 | -32.2% | 26.72 | -77.6% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr1](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 509 / 534 | request_rate 1 | tpot_ms | mean | 20.88 | 15.31 | -26.7% | 10.53 | -49.5% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr2](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 515 / 515 | request_rate 2 | output_tok_s | single | 973 | 1,030 | +5.9% | 188 | -80.7% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr2](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 515 / 515 | request_rate 2 | ttft_ms | mean | 157 | 83.59 | -46.6% | 27.04 | -82.7% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr2](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 515 / 515 | request_rate 2 | tpot_ms | mean | 27.97 | 18.29 | -34.6% | 10.53 | -62.3% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr4](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 513 / 508 | request_rate 4 | output_tok_s | single | 1,812 | 2,032 | +12.2% | 372 | -79.5% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-dsr1-qwen3-8b-rand1024-1024-rr8](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/DeepSeek-R1-0528-Qwen3-8B/vllm_online_DeepSeek-R1-0528-Qwen3-8B.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | qwen3-8b, bf16, auto | 510 / 508 | request_rate 8 | output_tok_s | single | 1,773 | 2,666 | +50.4% | 730 | -58.8% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 511 | max_throughput 1000 | output_tok_s | single | 2,406 | 2,952 | +22.7% | 10,750 | +346.8% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 511 | max_throughput 1000 | req_s | single | 4.71 | 5.78 | +22.7% | 21.04 | +346.6% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr1](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 509 / 534 | request_rate 1 | output_tok_s | single | 536 | 534 | -0.3% | 107 | -80.1% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr1](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 509 / 534 | request_rate 1 | ttft_ms | mean | 73.23 | 80.68 | +10.2% | 23.63 | -67.7% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr1](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 509 / 534 | request_rate 1 | tpot_ms | mean | 16.81 | 14.36 | -14.5% | 9.31 | -44.6% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr16](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 508 / 516 | request_rate 16 | output_tok_s | single | 2,355 | 2,968 | +26.0% | 1,593 | -32.4% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr2](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 515 / 515 | request_rate 2 | output_tok_s | single | 962 | 1,030 | +7.0% | 213 | -77.9% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr2](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 515 / 515 | request_rate 2 | ttft_ms | mean | 152 | 83.17 | -45.4% | 23.91 | -84.3% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr2](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 515 / 515 | request_rate 2 | tpot_ms | mean | 21.97 | 17.02 | -22.5% | 9.31 | -57.6% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr4](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 508 | request_rate 4 | output_tok_s | single | 1,978 | 2,032 | +2.7% | 421 | -78.7% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr4](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 508 | request_rate 4 | ttft_ms | mean | 118 | 88.82 | -24.6% | 23.81 | -79.8% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr4](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 508 | request_rate 4 | tpot_ms | mean | 46.33 | 26.93 | -41.9% | 9.31 | -79.9% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-1024-rr8](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/f7b9c79952de7475dd38e3b46593c0123b0dfb1d/benchmark/Mistral-7B-Instruct/vllm_online_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 510 / 508 | request_rate 8 | output_tok_s | single | 2,323 | 2,959 | +27.4% | 826 | -64.4% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-256-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 127 | max_throughput 1000 | output_tok_s | single | 1,618 | 1,746 | +7.9% | 4,275 | +164.2% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand1024-256-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 513 / 127 | max_throughput 1000 | req_s | single | 12.70 | 13.75 | +8.2% | 33.66 | +165.0% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand256-256-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 129 / 127 | max_throughput 1000 | output_tok_s | single | 2,872 | 3,020 | +5.2% | 10,687 | +272.1% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand256-256-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 129 / 127 | max_throughput 1000 | req_s | single | 22.54 | 23.78 | +5.5% | 84.15 | +273.3% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand4096-1024-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 2036 / 511 | max_throughput 1000 | output_tok_s | single | 963 | 1,159 | +20.4% | 4,322 | +348.9% |',
    '| livinfly_vllm_a100_pcie_40gb | [livinfly-vllm091v0-a100pcie40-mistral7b-rand4096-1024-burst1000](https://github.com/Livinfly/MLsys-Learning-Record-2/blob/e13bb2cfcd0aa512daca87be34fca4ddf0d810de/benchmark/Mistral-7B-Instruct/vllm_offline_Mistral-7B-Instruct.jsonl) | vllm | A100-40GB-PCIe × 1 (1) | mistral-7b, bf16, auto | 2036 / 511 | max_throughput 1000 | req_s | single | 1.88 | 2.27 | +20.7% | 8.46 | +349.9% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 11"), written into the report before its one run.
ROUND11_CAVEATS = [
    "Read with the collector's caveats (README \"Round 11\"; each file's `notes`): 13 of the 27 cases are one source, "
    "**Livinfly**'s vLLM 0.9.1 (V0 engine, `VLLM_USE_V1=0`) runs on one A100-PCIE-40GB with SGLang's `bench_serving` "
    "client: Mistral-7B-Instruct (9 cases) and DeepSeek-R1-0528-Qwen3-8B read as the catalog's `qwen3-8b` (4 cases), "
    "BF16, every server setting vLLM's default; Poisson request rates 1-16 req/s (the rates past what the server "
    "sustains keep their output throughput only) and four 1,000-prompt bursts (output tok/s and req/s). Its lengths "
    "are **uniform draws** (`random_range_ratio` 0.0: each request's input and output drawn from 1 to the nominal "
    "length); the cases carry each run's exact mean lengths from the result files' token totals, and the spread is not "
    "modelled. So the round is reported pooled and per source (decided at the freeze). **KLsatorlac2**'s Kaggle runs "
    "(12 cases, vLLM 0.8.5.post1 V0 by the operator's statement, Qwen2.5-1.5B-Instruct FP16 on T4, one AWQ arm, one TP "
    "2 run over two T4s, one Hugging Face transformers run) are offline `LLM.generate` batches of exact prompt lengths "
    "and 64 generated tokens, timed once each without a warm-up call (XFormers attention on SM 7.5); their E2E "
    "figures are **whole offline-batch wall times** (for a batch whose requests start and finish together, each "
    "request's end-to-end latency), so they are **read apart** (decided at the freeze): their own target line and "
    "table rows, not pooled with the round's latency figures; their throughput figures are the batch's output tokens "
    "over the same wall time. **Jan**'s two llama.cpp (build 2249) figures are the app's own tokens/s counter for "
    "Mistral 7B Q4_K_M at batch 1 on an RTX 4090 and an RTX 3090 under Windows 11 (whether it excludes prompt "
    "processing is not shown). No KV case (the round has no KV reading), no TensorRT-LLM or SGLang case. No erratum "
    "touches round 11.",
]

ROUND11_SINCE_HEADING = "### Since round 11's evaluation: round 11 with this commit's estimator"

ROUND11 = PooledRound(Split.heldout11, ROUND11_LIVINFLY_FILE, "Livinfly", ROUND11_CAVEATS, ROUND11_EVALUATION,
                      ROUND11_SINCE_HEADING, "2026-12-03", "ab3ed60", apart=(ROUND11_BATCH_WALL_TIMES,),
                      misses_shown=ROUND11_MISSES_SHOWN)


# ------------------------------------------------------------------ round 12 (held out: frozen by digest at b6da2bd)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 14", 15:05 UTC), before any evaluation: round 12 is
# first of all a KV reading — all 10 KV-capacity cases against the target "every case within 5 %", in full, per source,
# and without the two cases whose GPU is known only from the repository (L4: demo_env_l4's name; RTX A5000: kumaxxp's
# docs); tokenkaki's 4 KV cases are one machine, so the reading also states one per source (7 sources). Its 6
# throughput/latency cases (one source, tokenkaki) are reported pooled; the two 5 req/s runs' output tok/s is
# arrival-bound and is read apart. Rendered as rounds 10 and 11 are (`PooledRound`, `kv_first`).
ROUND12_TOKENKAKI_FILE = "heldout12_tokenkaki_vllm_a100_40gb.yaml"
ROUND12_GPU_FROM_REPOSITORY = ("heldout12_demo_env_l4_vllm.yaml", "heldout12_kumaxxp_duo_talk_rtx_a5000.yaml")
ROUND12_ARRIVAL_BOUND = ReadApart("the 5 req/s runs' output tok/s", ROUND12_TOKENKAKI_FILE, Metric.output_tok_s,
                                  "set by the arrival rate, about 5 x 64 tok/s, not by the GPU",
                                  load=CaseLoadKind.request_rate)
ROUND12_WITHOUT = KvWithout("without the GPUs known only from the repository (L4 demo_env_l4, RTX A5000 kumaxxp)",
                            ROUND12_GPU_FROM_REPOSITORY)
ROUND12_MISSES_SHOWN = 3  # the largest misses shown per source (and for the figures read apart), by |log error|


# Round 12's one evaluation as that run printed it (2026-12-03 17:43 UTC, the estimator of commit 795c5d9 at HEAD
# 795c5d9, the files placed byte-identical to the freeze record of b6da2bd in 795c5d9): its target lines and findings
# (`pooled_round_targets` and `findings_pooled_round` of ROUND12), copied from that run's benchmarks/serving.md and not
# edited. While empty (before that run), the report printed the live section alone.
ROUND12_EVALUATION: list[str] = [
    '- held out, round 12, KV capacity: 14/19 within 5 % (max 20.9%) — target every case: **missed**: `demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128` kv_cache_gib -9.3%, `demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128` kv_cache_tokens -9.4%, `sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_gib -5.1%, `sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_tokens -5.1%, `vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768` kv_cache_tokens 20.9%.',
    '  - by case: 7/10 cases with each of their KV figures (GiB and tokens) within 5 %.',
    '- held out, round 12, source demo_env_l4_vllm, KV capacity: 0/2 within 5 % (max 9.4%) — target every case: **missed**: `demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128` kv_cache_gib -9.3%, `demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128` kv_cache_tokens -9.4%.',
    '- held out, round 12, source kolyangg_mlops_h100_qwen3_30b_a3b, KV capacity: 2/2 within 5 % (max 3.9%) — target every case: **met**.',
    '- held out, round 12, source kumaxxp_duo_talk_rtx_a5000, KV capacity: 2/2 within 5 % (max 2.4%) — target every case: **met**.',
    '- held out, round 12, source lukejyk_autoscientists_a100_80gb, KV capacity: 2/2 within 5 % (max 1.7%) — target every case: **met**.',
    '- held out, round 12, source sridhar1804_local_ai_rtx3090, KV capacity: 0/2 within 5 % (max 5.1%) — target every case: **missed**: `sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_gib -5.1%, `sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_tokens -5.1%.',
    '- held out, round 12, source tokenkaki_vllm_a100_40gb, KV capacity: 8/8 within 5 % (max 1.8%) — target every case: **met**.',
    '- held out, round 12, source vllm_pr_17122, KV capacity: 0/1 within 5 % (max 20.9%) — target every case: **missed**: `vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768` kv_cache_tokens 20.9%.',
    '- held out, round 12, KV capacity, one per source (7 sources; a source is within when each of its KV figures is): 4/7 sources within 5 % — target every case: **missed**: demo_env_l4_vllm (max 9.4%), sridhar1804_local_ai_rtx3090 (max 5.1%), vllm_pr_17122 (max 20.9%).',
    '- held out, round 12, without the GPUs known only from the repository (L4 demo_env_l4, RTX A5000 kumaxxp), KV capacity: 12/15 within 5 % (max 20.9%) — target every case: **missed**: `sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_gib -5.1%, `sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096` kv_cache_tokens -5.1%, `vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768` kv_cache_tokens 20.9%.',
    '  - by case: 6/8 cases with each of their KV figures (GiB and tokens) within 5 %.',
    '- held out, round 12, throughput: median error 23.7% over 6 figures — target ≤ 25 %: **met**.',
    '- held out, round 12, latency: median error 3.1% over 6 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 3.1% over 6 figures — target ≤ 25 %: **met**.',
    '- held out, round 12, source tokenkaki_vllm_a100_40gb, throughput: median error 23.7% over 6 figures — target ≤ 25 %: **met**.',
    '- held out, round 12, source tokenkaki_vllm_a100_40gb, latency: median error 3.1% over 6 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 3.1% over 6 figures — target ≤ 25 %: **met**.',
    "- held out, round 12, the 5 req/s runs' output tok/s (read apart), throughput: median error 5.9% over 2 figures — target ≤ 25 %: **met**.",
    '',
    "Round 12: 16 cases, 33 figures from 7 files (7 GPU types: A100-40GB, A100-80GB, H100, L4, L40S, RTX-3090, RTX-A5000; engines vllm); tokenkaki (tokenkaki_vllm_a100_40gb) carries 10 cases, 22 figures. Latency figures by statistic: 6 mean (the estimator predicts means). KV capacity: 19 figures. Read apart (decided at the freeze): the 5 req/s runs' output tok/s (read apart), 2 figures (output_tok_s of tokenkaki_vllm_a100_40gb: set by the arrival rate, about 5 x 64 tok/s, not by the GPU), not pooled with the round's latency figures nor with its source's.",
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive roofline's in brackets).",
    '',
    'By source (file), and pooled, without the figures read apart; then those figures:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| demo_env_l4_vllm | 1 | — | — | — | — | — | — | — | — | 0/2 (naive 0/2) |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | 1 | — | — | — | — | — | — | — | — | 2/2 (naive 0/2) |',
    '| kumaxxp_duo_talk_rtx_a5000 | 1 | — | — | — | — | — | — | — | — | 2/2 (naive 0/2) |',
    '| lukejyk_autoscientists_a100_80gb | 1 | — | — | — | — | — | — | — | — | 2/2 (naive 0/2) |',
    '| sridhar1804_local_ai_rtx3090 | 1 | — | — | — | — | — | — | — | — | 0/2 (naive 2/2) |',
    '| tokenkaki_vllm_a100_40gb | 10 | 23.7% (-23.7%) · 6 | 3/6 | 6/6 | 127.2% | 3.1% (+0.8%) · 6 | 5/6 | 6/6 | 27.1% | 8/8 (naive 0/8) |',
    '| vllm_pr_17122 | 1 | — | — | — | — | — | — | — | — | 0/1 (naive 0/1) |',
    '| round 12, pooled | 16 | 23.7% (-23.7%) · 6 | 3/6 | 6/6 | 127.2% | 3.1% (+0.8%) · 6 | 5/6 | 6/6 | 27.1% | 14/19 (naive 2/19) |',
    "| the 5 req/s runs' output tok/s (read apart) | 2 | 5.9% (+5.9%) · 2 | 2/2 | 2/2 | 49.7% | — | — | — | — | — |",
    '',
    'Pooled and per source, by metric category and statistic (as the sources publish them; the estimator predicts means):',
    '',
    '| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| round 12 | throughput | single | 6 | 23.7% (-23.7%) · 6 | 3/6 | 6/6 | 127.2% | 0/6 |',
    '| round 12 | latency | mean | 6 | 3.1% (+0.8%) · 6 | 5/6 | 6/6 | 27.1% | 3/6 |',
    '| round 12 | kv | single | 19 | 1.8% (-1.8%) · 19 | 14/19 | 19/19 | 9.0% | 2/19 |',
    '| demo_env_l4_vllm | kv | single | 2 | 9.4% (-9.4%) · 2 | 0/2 | 2/2 | 20.7% | 0/2 |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | kv | single | 2 | 3.8% (-3.8%) · 2 | 2/2 | 2/2 | 70.7% | 0/2 |',
    '| kumaxxp_duo_talk_rtx_a5000 | kv | single | 2 | 2.4% (-2.4%) · 2 | 2/2 | 2/2 | 16.4% | 0/2 |',
    '| lukejyk_autoscientists_a100_80gb | kv | single | 2 | 1.7% (-1.7%) · 2 | 2/2 | 2/2 | 5.1% | 0/2 |',
    '| sridhar1804_local_ai_rtx3090 | kv | single | 2 | 5.1% (-5.1%) · 2 | 0/2 | 2/2 | 0.2% | 2/2 |',
    '| tokenkaki_vllm_a100_40gb | throughput | single | 6 | 23.7% (-23.7%) · 6 | 3/6 | 6/6 | 127.2% | 0/6 |',
    '| tokenkaki_vllm_a100_40gb | latency | mean | 6 | 3.1% (+0.8%) · 6 | 5/6 | 6/6 | 27.1% | 3/6 |',
    '| tokenkaki_vllm_a100_40gb | kv | single | 8 | 1.3% (-1.3%) · 8 | 8/8 | 8/8 | 7.6% | 0/8 |',
    '| vllm_pr_17122 | kv | single | 1 | 20.9% (+20.9%) · 1 | 0/1 | 1/1 | 31.8% | 0/1 |',
    "| the 5 req/s runs' output tok/s (read apart) | throughput | single | 2 | 5.9% (+5.9%) · 2 | 2/2 | 2/2 | 49.7% | 0/2 |",
    '| round 12, KV without the GPUs known only from the repository (L4 demo_env_l4, RTX A5000 kumaxxp) | kv | single | 15 | 1.8% (-1.8%) · 15 | 12/15 | 15/15 | 6.1% | 2/15 |',
    '',
    'By source, metric and statistic:',
    '',
    '| source | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| demo_env_l4_vllm | kv_cache_gib | single | 1 | 9.3% (-9.3%) · 1 | 0/1 | 1/1 | 20.7% | 0/1 |',
    '| demo_env_l4_vllm | kv_cache_tokens | single | 1 | 9.4% (-9.4%) · 1 | 0/1 | 1/1 | 20.6% | 0/1 |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | kv_cache_gib | single | 1 | 3.9% (-3.9%) · 1 | 1/1 | 1/1 | 70.7% | 0/1 |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | kv_cache_tokens | single | 1 | 3.8% (-3.8%) · 1 | 1/1 | 1/1 | 70.7% | 0/1 |',
    '| kumaxxp_duo_talk_rtx_a5000 | kv_cache_gib | single | 1 | 2.4% (-2.4%) · 1 | 1/1 | 1/1 | 16.4% | 0/1 |',
    '| kumaxxp_duo_talk_rtx_a5000 | kv_cache_tokens | single | 1 | 2.4% (-2.4%) · 1 | 1/1 | 1/1 | 16.4% | 0/1 |',
    '| lukejyk_autoscientists_a100_80gb | kv_cache_gib | single | 1 | 1.7% (-1.7%) · 1 | 1/1 | 1/1 | 5.1% | 0/1 |',
    '| lukejyk_autoscientists_a100_80gb | kv_cache_tokens | single | 1 | 1.7% (-1.7%) · 1 | 1/1 | 1/1 | 5.1% | 0/1 |',
    '| sridhar1804_local_ai_rtx3090 | kv_cache_gib | single | 1 | 5.1% (-5.1%) · 1 | 0/1 | 1/1 | 0.2% | 1/1 |',
    '| sridhar1804_local_ai_rtx3090 | kv_cache_tokens | single | 1 | 5.1% (-5.1%) · 1 | 0/1 | 1/1 | 0.2% | 1/1 |',
    '| tokenkaki_vllm_a100_40gb | output_tok_s | single | 2 | 23.7% (-23.7%) · 2 | 1/2 | 2/2 | 127.2% | 0/2 |',
    '| tokenkaki_vllm_a100_40gb | total_tok_s | single | 2 | 23.7% (-23.7%) · 2 | 1/2 | 2/2 | 127.2% | 0/2 |',
    '| tokenkaki_vllm_a100_40gb | req_s | single | 2 | 23.7% (-23.7%) · 2 | 1/2 | 2/2 | 127.2% | 0/2 |',
    '| tokenkaki_vllm_a100_40gb | ttft_ms | mean | 2 | 24.8% (+24.8%) · 2 | 1/2 | 2/2 | 83.4% | 0/2 |',
    '| tokenkaki_vllm_a100_40gb | tpot_ms | mean | 2 | 2.3% (-1.1%) · 2 | 2/2 | 2/2 | 26.3% | 1/2 |',
    '| tokenkaki_vllm_a100_40gb | e2e_ms | mean | 2 | 3.1% (+0.3%) · 2 | 2/2 | 2/2 | 22.1% | 2/2 |',
    '| tokenkaki_vllm_a100_40gb | kv_cache_gib | single | 4 | 1.3% (-1.3%) · 4 | 4/4 | 4/4 | 7.6% | 0/4 |',
    '| tokenkaki_vllm_a100_40gb | kv_cache_tokens | single | 4 | 1.3% (-1.3%) · 4 | 4/4 | 4/4 | 7.6% | 0/4 |',
    '| vllm_pr_17122 | kv_cache_tokens | single | 1 | 20.9% (+20.9%) · 1 | 0/1 | 1/1 | 31.8% | 0/1 |',
    "| the 5 req/s runs' output tok/s (read apart) | output_tok_s | single | 2 | 5.9% (+5.9%) · 2 | 2/2 | 2/2 | 49.7% | 0/2 |",
    '',
    'The largest misses per source (up to 3, by |log error|):',
    '',
    '| source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| demo_env_l4_vllm | demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128 | kv_cache_tokens | single | 38,944 | 35,280 | -9.4% | +20.6% |',
    '| demo_env_l4_vllm | demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128 | kv_cache_gib | single | 4.75 | 4.31 | -9.3% | +20.7% |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | kolyangg-vllm0102-h100-qwen3-30b-a3b-2507-tp1-kv-mml6144 | kv_cache_gib | single | 8.68 | 8.35 | -3.9% | +70.7% |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | kolyangg-vllm0102-h100-qwen3-30b-a3b-2507-tp1-kv-mml6144 | kv_cache_tokens | single | 94,784 | 91,152 | -3.8% | +70.7% |',
    '| kumaxxp_duo_talk_rtx_a5000 | duotalk-vllm0130-rtxa5000-qwen25-14b-awq-tp1-kv-mml8192 | kv_cache_gib | single | 10.39 | 10.14 | -2.4% | +16.4% |',
    '| kumaxxp_duo_talk_rtx_a5000 | duotalk-vllm0130-rtxa5000-qwen25-14b-awq-tp1-kv-mml8192 | kv_cache_tokens | single | 56,736 | 55,392 | -2.4% | +16.4% |',
    '| lukejyk_autoscientists_a100_80gb | lukejyk-vllm0261rc1-a100-80gb-qwen3-coder-30b-a3b-tp1-kv-mml131072-mns16 | kv_cache_tokens | single | 151,216 | 148,640 | -1.7% | +5.1% |',
    '| lukejyk_autoscientists_a100_80gb | lukejyk-vllm0261rc1-a100-80gb-qwen3-coder-30b-a3b-tp1-kv-mml131072-mns16 | kv_cache_gib | single | 13.84 | 13.61 | -1.7% | +5.1% |',
    '| sridhar1804_local_ai_rtx3090 | sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096 | kv_cache_gib | single | 13.06 | 12.40 | -5.1% | -0.2% |',
    '| sridhar1804_local_ai_rtx3090 | sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096 | kv_cache_tokens | single | 35,648 | 33,840 | -5.1% | -0.2% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm092-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64 | ttft_ms | mean | 33.85 | 50.50 | +49.2% | -80.1% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm0191-a100-40gb-qwen3-8b-offline-n100-p128-o64 | req_s | single | 45.08 | 33.33 | -26.1% | +120.0% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm0191-a100-40gb-qwen3-8b-offline-n100-p128-o64 | output_tok_s | single | 2,885 | 2,133 | -26.1% | +120.1% |',
    '| vllm_pr_17122 | vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768 | kv_cache_tokens | single | 158,656 | 191,792 | +20.9% | +31.8% |',
    "| the 5 req/s runs' output tok/s (read apart) | tokenkaki-vllm092-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64 | output_tok_s | single | 298 | 320 | +7.5% | +51.8% |",
    "| the 5 req/s runs' output tok/s (read apart) | tokenkaki-vllm0191-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64 | output_tok_s | single | 306 | 320 | +4.4% | +47.5% |",
    '',
    'Every KV case (the pool in GiB and in tokens side by side; signed errors; gmu and max_model_len as the case states them):',
    '',
    '| source | case | GPU | model, weights | vLLM | gmu | max_model_len | GiB: measured | predicted | error | tokens: measured | predicted | error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| demo_env_l4_vllm | demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128 | L4 | llama-3.1-8b, bf16 | 0.11.0 | 0.92 | 32,000 | 4.75 | 4.31 | -9.3% | 38,944 | 35,280 | -9.4% |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | kolyangg-vllm0102-h100-qwen3-30b-a3b-2507-tp1-kv-mml6144 | H100 | qwen3-30b-a3b, bf16 | 0.10.2 | 0.9 | 6,144 | 8.68 | 8.35 | -3.9% | 94,784 | 91,152 | -3.8% |',
    '| kumaxxp_duo_talk_rtx_a5000 | duotalk-vllm0130-rtxa5000-qwen25-14b-awq-tp1-kv-mml8192 | RTX-A5000 | qwen2.5-14b, int4 | 0.13.0 | 0.9 | 8,192 | 10.39 | 10.14 | -2.4% | 56,736 | 55,392 | -2.4% |',
    '| lukejyk_autoscientists_a100_80gb | lukejyk-vllm0261rc1-a100-80gb-qwen3-coder-30b-a3b-tp1-kv-mml131072-mns16 | A100-80GB | qwen3-30b-a3b, bf16 | 0.26.1rc1.dev156+g0eec856cc | 0.9 | 131,072 | 13.84 | 13.61 | -1.7% | 151,216 | 148,640 | -1.7% |',
    '| sridhar1804_local_ai_rtx3090 | sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096 | RTX-3090 | phi-3-mini, fp16 | 0.19.1 | 0.85 | 4,096 | 13.06 | 12.40 | -5.1% | 35,648 | 33,840 | -5.1% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192 | A100-40GB | qwen3-8b, bf16 | 0.19.1 | 0.9 | 40,960 | 19.20 | 19.04 | -0.9% | 139,792 | 138,608 | -0.8% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960 | A100-40GB | qwen3-8b, bf16 | 0.19.1 | 0.9 | 40,960 | 19.36 | 19.26 | -0.5% | 140,960 | 140,256 | -0.5% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192 | A100-40GB | qwen3-8b, bf16 | 0.9.2 | 0.9 | 40,960 | 18.64 | 18.31 | -1.8% | 135,744 | 133,328 | -1.8% |',
    '| tokenkaki_vllm_a100_40gb | tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960 | A100-40GB | qwen3-8b, bf16 | 0.9.2 | 0.9 | 40,960 | 18.69 | 18.36 | -1.8% | 136,080 | 133,664 | -1.8% |',
    '| vllm_pr_17122 | vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768 | L40S | llama-3.1-8b, bf16 | not | — | 32,768 | — | — | — | 158,656 | 191,792 | +20.9% |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| demo_env_l4_vllm | [demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128](https://github.com/abinavChandar/demo_env_l4/blob/097d5ab2cbe19e49c91325bbca531f50d76b419e/vllm.log) | vllm | L4 × 1 (1) | llama-3.1-8b, bf16, auto | 32000 / 1 | kv_capacity | kv_cache_gib | single | 4.75 | 4.31 | -9.3% | 5.73 | +20.7% |',
    '| demo_env_l4_vllm | [demoenvl4-vllm0110-l4-llama31-8b-tp1-kv-mml32000-mns128](https://github.com/abinavChandar/demo_env_l4/blob/097d5ab2cbe19e49c91325bbca531f50d76b419e/vllm.log) | vllm | L4 × 1 (1) | llama-3.1-8b, bf16, auto | 32000 / 1 | kv_capacity | kv_cache_tokens | single | 38,944 | 35,280 | -9.4% | 46,967 | +20.6% |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | [kolyangg-vllm0102-h100-qwen3-30b-a3b-2507-tp1-kv-mml6144](https://github.com/kolyangg/mlops-assignment/blob/410b9585d5464a90c0fd357d85b1b5ca372a17eb/logs/vllm.log) | vllm | H100 × 1 (1) | qwen3-30b-a3b, bf16, auto | 6144 / 1 | kv_capacity | kv_cache_gib | single | 8.68 | 8.35 | -3.9% | 14.81 | +70.7% |',
    '| kolyangg_mlops_h100_qwen3_30b_a3b | [kolyangg-vllm0102-h100-qwen3-30b-a3b-2507-tp1-kv-mml6144](https://github.com/kolyangg/mlops-assignment/blob/410b9585d5464a90c0fd357d85b1b5ca372a17eb/logs/vllm.log) | vllm | H100 × 1 (1) | qwen3-30b-a3b, bf16, auto | 6144 / 1 | kv_capacity | kv_cache_tokens | single | 94,784 | 91,152 | -3.8% | 161,814 | +70.7% |',
    '| kumaxxp_duo_talk_rtx_a5000 | [duotalk-vllm0130-rtxa5000-qwen25-14b-awq-tp1-kv-mml8192](https://github.com/kumaxxp/duo-talk/blob/17ead6afd5035a66da08f1403db83dbf3e359e78/vllm.log) | vllm | RTX-A5000 × 1 (1) | qwen2.5-14b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_gib | single | 10.39 | 10.14 | -2.4% | 12.09 | +16.4% |',
    '| kumaxxp_duo_talk_rtx_a5000 | [duotalk-vllm0130-rtxa5000-qwen25-14b-awq-tp1-kv-mml8192](https://github.com/kumaxxp/duo-talk/blob/17ead6afd5035a66da08f1403db83dbf3e359e78/vllm.log) | vllm | RTX-A5000 × 1 (1) | qwen2.5-14b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 56,736 | 55,392 | -2.4% | 66,030 | +16.4% |',
    '| lukejyk_autoscientists_a100_80gb | [lukejyk-vllm0261rc1-a100-80gb-qwen3-coder-30b-a3b-tp1-kv-mml131072-mns16](https://github.com/LukeJYK/AutoScientists/blob/39724139ee326cd2f2c47215958fbdc22764ba49/vllm.log) | vllm | A100-80GB × 1 (1) | qwen3-30b-a3b, bf16, auto | 131072 / 1 | kv_capacity | kv_cache_gib | single | 13.84 | 13.61 | -1.7% | 14.54 | +5.1% |',
    '| lukejyk_autoscientists_a100_80gb | [lukejyk-vllm0261rc1-a100-80gb-qwen3-coder-30b-a3b-tp1-kv-mml131072-mns16](https://github.com/LukeJYK/AutoScientists/blob/39724139ee326cd2f2c47215958fbdc22764ba49/vllm.log) | vllm | A100-80GB × 1 (1) | qwen3-30b-a3b, bf16, auto | 131072 / 1 | kv_capacity | kv_cache_tokens | single | 151,216 | 148,640 | -1.7% | 158,865 | +5.1% |',
    '| sridhar1804_local_ai_rtx3090 | [sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096](https://github.com/sridhar1804/local-ai/blob/d4412cc3584b5f7490848aabcc2fc4c49016c72f/logs/vllm.log) | vllm | RTX-3090 × 1 (1) | phi-3-mini, fp16, auto | 4096 / 1 | kv_capacity | kv_cache_gib | single | 13.06 | 12.40 | -5.1% | 13.03 | -0.2% |',
    '| sridhar1804_local_ai_rtx3090 | [sridhar-vllm0191-rtx3090-phi3-mini-fp16-tp1-kv-mml4096](https://github.com/sridhar1804/local-ai/blob/d4412cc3584b5f7490848aabcc2fc4c49016c72f/logs/vllm.log) | vllm | RTX-3090 × 1 (1) | phi-3-mini, fp16, auto | 4096 / 1 | kv_capacity | kv_cache_tokens | single | 35,648 | 33,840 | -5.1% | 35,574 | -0.2% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-latency-b1-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/1_latency/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | batch 1 | e2e_ms | mean | 845 | 874 | +3.4% | 681 | -19.4% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-offline-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | max_throughput 100 | output_tok_s | single | 2,885 | 2,133 | -26.1% | 6,349 | +120.1% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-offline-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | max_throughput 100 | total_tok_s | single | 8,655 | 6,400 | -26.1% | 19,046 | +120.1% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-offline-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | max_throughput 100 | req_s | single | 45.08 | 33.33 | -26.1% | 99.20 | +120.0% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/3_direct_vllm_serve/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | request_rate 5 | output_tok_s | single | 306 | 320 | +4.4% | 452 | +47.5% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/3_direct_vllm_serve/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | request_rate 5 | ttft_ms | mean | 50.08 | 50.26 | +0.4% | 6.72 | -86.6% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/3_direct_vllm_serve/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | request_rate 5 | tpot_ms | mean | 13.73 | 13.90 | +1.3% | 10.53 | -23.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_gib | single | 19.20 | 19.04 | -0.9% | 20.37 | +6.1% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192](https://github.com/dariustanrd/tokenkaki/blob/02862f7eed9088742d6e24cc413c3bcb9e97ba58/experiments/1_vllm_v0.19.1_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_tokens | single | 139,792 | 138,608 | -0.8% | 148,363 | +6.1% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960](https://github.com/dariustanrd/tokenkaki/blob/091ae4c3ad123fffbff2f32eaf688bcb5a5d73ef/blogposts/content/1_vllm/yy-mm-dd-behind-the-api-1-vllm-draft.md) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_gib | single | 19.36 | 19.26 | -0.5% | 20.37 | +5.2% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm0191-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960](https://github.com/dariustanrd/tokenkaki/blob/091ae4c3ad123fffbff2f32eaf688bcb5a5d73ef/blogposts/content/1_vllm/yy-mm-dd-behind-the-api-1-vllm-draft.md) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_tokens | single | 140,960 | 140,256 | -0.5% | 148,363 | +5.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-latency-b1-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/3a2eabb8ea758452e875efa47396a184c7f1eb41/experiments/1_vllm_baseline_Qwen3-8B/1_latency/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | batch 1 | e2e_ms | mean | 906 | 880 | -2.9% | 681 | -24.9% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-offline-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/676d474e892d5e7baff7b76f81aacffd685ed75e/experiments/1_vllm_baseline_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | max_throughput 100 | output_tok_s | single | 2,710 | 2,133 | -21.3% | 6,349 | +134.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-offline-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/676d474e892d5e7baff7b76f81aacffd685ed75e/experiments/1_vllm_baseline_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | max_throughput 100 | total_tok_s | single | 8,128 | 6,400 | -21.3% | 19,046 | +134.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-offline-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/676d474e892d5e7baff7b76f81aacffd685ed75e/experiments/1_vllm_baseline_Qwen3-8B/2_throughput/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | max_throughput 100 | req_s | single | 42.34 | 33.33 | -21.3% | 99.20 | +134.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/676d474e892d5e7baff7b76f81aacffd685ed75e/experiments/1_vllm_baseline_Qwen3-8B/3_direct_vllm_serve/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | request_rate 5 | output_tok_s | single | 298 | 320 | +7.5% | 452 | +51.8% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/676d474e892d5e7baff7b76f81aacffd685ed75e/experiments/1_vllm_baseline_Qwen3-8B/3_direct_vllm_serve/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | request_rate 5 | ttft_ms | mean | 33.85 | 50.50 | +49.2% | 6.72 | -80.1% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-serve-rr5-n100-p128-o64](https://github.com/dariustanrd/tokenkaki/blob/676d474e892d5e7baff7b76f81aacffd685ed75e/experiments/1_vllm_baseline_Qwen3-8B/3_direct_vllm_serve/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 128 / 64 | request_rate 5 | tpot_ms | mean | 14.92 | 14.41 | -3.4% | 10.53 | -29.4% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192](https://github.com/dariustanrd/tokenkaki/blob/3a2eabb8ea758452e875efa47396a184c7f1eb41/experiments/1_vllm_baseline_Qwen3-8B/1_latency/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_gib | single | 18.64 | 18.31 | -1.8% | 20.37 | +9.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-offline-mbt8192](https://github.com/dariustanrd/tokenkaki/blob/3a2eabb8ea758452e875efa47396a184c7f1eb41/experiments/1_vllm_baseline_Qwen3-8B/1_latency/out.log) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_tokens | single | 135,744 | 133,328 | -1.8% | 148,363 | +9.3% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960](https://github.com/dariustanrd/tokenkaki/blob/main/blogposts/content/1_vllm/yy-mm-dd-behind-the-api-1-vllm-draft.md) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_gib | single | 18.69 | 18.36 | -1.8% | 20.37 | +9.0% |',
    '| tokenkaki_vllm_a100_40gb | [tokenkaki-vllm092-a100-40gb-qwen3-8b-tp1-kv-serve-mml40960](https://github.com/dariustanrd/tokenkaki/blob/main/blogposts/content/1_vllm/yy-mm-dd-behind-the-api-1-vllm-draft.md) | vllm | A100-40GB × 1 (1) | qwen3-8b, bf16, auto | 40960 / 1 | kv_capacity | kv_cache_tokens | single | 136,080 | 133,664 | -1.8% | 148,363 | +9.0% |',
    '| vllm_pr_17122 | [vllm-pr17122-v085dev-l40s-llama31-8b-tp1-kv-mml32768](https://github.com/vllm-project/vllm/pull/17122) | vllm | L40S × 1 (1) | llama-3.1-8b, bf16, auto | 32768 / 1 | kv_capacity | kv_cache_tokens | single | 158,656 | 191,792 | +20.9% | 209,170 | +31.8% |',
]

# The collector's caveats (tests/data/serving/README.md, "Held-out round 12"), written into the report before its one
# run.
ROUND12_CAVEATS = [
    "Read with the collector's caveats (README \"Held-out round 12\"; each file's `notes`): every case is **vLLM V1, "
    "TP 1, `kv_cache_dtype` auto** — no SGLang, TensorRT-LLM or LMDeploy case, no TP, no fp8 KV, no MLA model. The 10 "
    "KV-capacity cases are start-up logs (\"Available KV cache memory\" in GiB, nine of them, and \"GPU KV cache "
    "size\" in tokens, all ten) of 7 sources, 7 GPU types, 6 models (two Qwen3-30B-A3B MoE, one AWQ int4) and vLLM "
    "0.8.5 (a development build, inferred) to 0.26.1rc1; **4 of the 10 are one machine** (tokenkaki: Qwen3-8B on one "
    "A100-SXM4-40GB, the server and the offline engine in vLLM 0.9.2 and 0.19.1), so the KV reading is also stated one "
    "per source. Two GPUs are **known only from the repository** (L4: demo_env_l4's name; RTX A5000: kumaxxp's docs; "
    "both corroborated by the log's fewer-than-68-SMs warning): the reading is also given without them (the RTX 3090 "
    "of sridhar1804 is stated in that repository's README and notes, not in its log, and stays). "
    "`gpu_memory_utilization` is recorded where passed or where the log proves vLLM's default 0.9; for vLLM PR #17122 "
    "(L40S, tokens only) it is not printed and not recorded (the benchmark reads vLLM's default), nor is its release "
    "(a 0.8.5 development build by date). Qwen3-Coder-30B-A3B-Instruct is read as the catalog's `qwen3-30b-a3b` (the "
    "same Qwen3MoE shape). In vLLM 0.19.x the pool is sized without charging CUDA-graph memory (its logs say so), in "
    "0.26.1rc1 with it (the default since 0.21); recorded as printed. The 6 throughput/latency cases are tokenkaki's "
    "(Qwen3-8B, A100-40GB, 128 in / 64 out): two `vllm bench latency` runs (batch 1, mean E2E), two offline `vllm bench "
    "throughput` runs of 100 prompts at once, and two `vllm bench serve` runs at **5 req/s** Poisson (mean TTFT and "
    "TPOT; their output tok/s is **arrival-bound**, about 5 x 64, and is **read apart**: its own line, not pooled). "
    "No erratum touches round 12.",
]

ROUND12_SINCE_HEADING = "### Since round 12's evaluation: round 12 with this commit's estimator"

ROUND12 = PooledRound(Split.heldout12, ROUND12_TOKENKAKI_FILE, "tokenkaki", ROUND12_CAVEATS, ROUND12_EVALUATION,
                      ROUND12_SINCE_HEADING, "2026-12-03", "795c5d9", apart=(ROUND12_ARRIVAL_BOUND,),
                      misses_shown=ROUND12_MISSES_SHOWN, kv_first=True, kv_one_per_source=True,
                      kv_without=(ROUND12_WITHOUT,))


# ------------------------------------------------------------------ round 13 (held out: frozen by digest at 74b8f1d)

# Decided at the freeze (tests/data/held_out_freezes.md, "Session 14, second freeze", 16:10 UTC), before any
# evaluation: round 13 is a KV reading of its 7 KV-capacity cases against the target "every case within 5 %", in full
# and per source; cssnoeasy's 4 KV cases come from one table of one report, so the reading also states one per source
# (3 sources). Its 5 throughput/latency cases (faradawn's 3 vLLM runs, cssnoeasy's TensorRT-LLM and vLLM runs) are
# reported pooled against the round targets (median error ≤ 25 %), with no per-source target line (`pooled_only`). The
# TensorRT-LLM settings the collector mapped onto vLLM's fields (free_gpu_memory_fraction → gpu_memory_utilization,
# max_batch_size → max_num_seqs, max_num_tokens → max_batched_tokens, max_seq_len → max_model_len) are read as mapped.
# Rendered as rounds 10-12 are (`PooledRound`, `kv_first`).
ROUND13_CSSNOEASY_FILE = "heldout13_cssnoeasy_vllm_a100_pcie_qwen3_32b.yaml"
ROUND13_MISSES_SHOWN = 3  # the largest misses shown per source, by |log error|


# Round 13's one evaluation as that run printed it (2026-12-04 20:07 UTC, the estimator of commit 816e237 at HEAD
# 816e237, the files placed byte-identical to the freeze record of 74b8f1d in 816e237): its target lines and findings
# (`pooled_round_targets` and `findings_pooled_round` of ROUND13), copied from that run's benchmarks/serving.md and not
# edited. While empty (before that run), the report printed the live section alone.
ROUND13_EVALUATION: list[str] = [
    '- held out, round 13, KV capacity: 10/14 within 5 % (max 5.1%) — target every case: **missed**: `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192` kv_cache_gib -5.1%, `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192` kv_cache_tokens -5.1%, `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192` kv_cache_gib -5.1%, `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192` kv_cache_tokens -5.1%.',
    '  - by case: 5/7 cases with each of their KV figures (GiB and tokens) within 5 %.',
    '- held out, round 13, source cssnoeasy_vllm_a100_pcie_qwen3_32b, KV capacity: 4/8 within 5 % (max 5.1%) — target every case: **missed**: `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192` kv_cache_gib -5.1%, `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192` kv_cache_tokens -5.1%, `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192` kv_cache_gib -5.1%, `cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192` kv_cache_tokens -5.1%.',
    '- held out, round 13, source faradawn_bench3_h200, KV capacity: 4/4 within 5 % (max 1.6%) — target every case: **met**.',
    '- held out, round 13, source kagaho_vllm_l40s_tp2, KV capacity: 2/2 within 5 % (max 0.5%) — target every case: **met**.',
    '- held out, round 13, KV capacity, one per source (3 sources; a source is within when each of its KV figures is): 2/3 sources within 5 % — target every case: **missed**: cssnoeasy_vllm_a100_pcie_qwen3_32b (max 5.1%).',
    '- held out, round 13, throughput: median error 10.8% over 5 figures — target ≤ 25 %: **met**.',
    '- held out, round 13, latency: median error 17.7% over 6 figures — target ≤ 25 %: **met**.',
    '  - of which mean figures (as the source publishes them; the estimator predicts means): median error 17.7% over 6 figures — target ≤ 25 %: **met**.',
    '',
    'Round 13: 12 cases, 25 figures from 3 files (3 GPU types: A100-80GB-PCIe, H200, L40S; engines trtllm, vllm); cssnoeasy (cssnoeasy_vllm_a100_pcie_qwen3_32b) carries 6 cases, 10 figures. Latency figures by statistic: 6 mean (the estimator predicts means). KV capacity: 14 figures.',
    '',
    "Each cell: median error (median signed error) · figures; *within 25 % / 50 %*: figures whose error is at most that; *naive*: the naive roofline's median error on the same figures; KV: figures within 5 % (the naive roofline's in brackets).",
    '',
    'By source (file), and pooled:',
    '',
    '| source | cases | throughput: ours (signed) · figures | within 25 % | within 50 % | naive | latency: ours (signed) · figures | within 25 % | within 50 % | naive | KV within 5 % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | 6 | 8.2% (-8.2%) · 2 | 2/2 | 2/2 | 24.8% | — | — | — | — | 4/8 (naive 4/8) |',
    '| faradawn_bench3_h200 | 5 | 13.0% (-13.0%) · 3 | 3/3 | 3/3 | 88.1% | 17.7% (+13.3%) · 6 | 4/6 | 6/6 | 70.6% | 4/4 (naive 2/4) |',
    '| kagaho_vllm_l40s_tp2 | 1 | — | — | — | — | — | — | — | — | 2/2 (naive 0/2) |',
    '| round 13, pooled | 12 | 10.8% (-10.8%) · 5 | 5/5 | 5/5 | 83.8% | 17.7% (+13.3%) · 6 | 4/6 | 6/6 | 70.6% | 10/14 (naive 6/14) |',
    '',
    'Pooled and per source, by metric category and statistic (as the sources publish them; the estimator predicts means):',
    '',
    '| pooled | category | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| round 13 | throughput | mean | 5 | 10.8% (-10.8%) · 5 | 5/5 | 5/5 | 83.8% | 1/5 |',
    '| round 13 | latency | mean | 6 | 17.7% (+13.3%) · 6 | 4/6 | 6/6 | 70.6% | 0/6 |',
    '| round 13 | kv | single | 14 | 0.9% (-0.4%) · 14 | 10/14 | 14/14 | 5.1% | 6/14 |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | throughput | mean | 2 | 8.2% (-8.2%) · 2 | 2/2 | 2/2 | 24.8% | 1/2 |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | kv | single | 8 | 3.0% (-3.0%) · 8 | 4/8 | 8/8 | 5.3% | 4/8 |',
    '| faradawn_bench3_h200 | throughput | mean | 3 | 13.0% (-13.0%) · 3 | 3/3 | 3/3 | 88.1% | 0/3 |',
    '| faradawn_bench3_h200 | latency | mean | 6 | 17.7% (+13.3%) · 6 | 4/6 | 6/6 | 70.6% | 0/6 |',
    '| faradawn_bench3_h200 | kv | single | 4 | 1.0% (+0.6%) · 4 | 4/4 | 4/4 | 3.2% | 2/4 |',
    '| kagaho_vllm_l40s_tp2 | kv | single | 2 | 0.4% (+0.4%) · 2 | 2/2 | 2/2 | 9.0% | 0/2 |',
    '',
    'By source, metric and statistic:',
    '',
    '| source | metric | statistic | figures | ours: median (signed) | ours within 25 % (KV: 5 %) | ours within 50 % | naive | naive within 25 % (KV: 5 %) |',
    '|---|---|---|---|---|---|---|---|---|',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | output_tok_s | mean | 2 | 8.2% (-8.2%) · 2 | 2/2 | 2/2 | 24.8% | 1/2 |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | kv_cache_gib | single | 4 | 3.0% (-3.0%) · 4 | 2/4 | 4/4 | 5.3% | 2/4 |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | kv_cache_tokens | single | 4 | 3.0% (-3.0%) · 4 | 2/4 | 4/4 | 5.3% | 2/4 |',
    '| faradawn_bench3_h200 | output_tok_s | mean | 3 | 13.0% (-13.0%) · 3 | 3/3 | 3/3 | 88.1% | 0/3 |',
    '| faradawn_bench3_h200 | ttft_ms | mean | 3 | 32.0% (-32.0%) · 3 | 1/3 | 3/3 | 96.3% | 0/3 |',
    '| faradawn_bench3_h200 | tpot_ms | mean | 3 | 15.8% (+15.8%) · 3 | 3/3 | 3/3 | 46.2% | 0/3 |',
    '| faradawn_bench3_h200 | kv_cache_gib | single | 2 | 1.0% (+0.6%) · 2 | 2/2 | 2/2 | 3.2% | 1/2 |',
    '| faradawn_bench3_h200 | kv_cache_tokens | single | 2 | 1.0% (+0.6%) · 2 | 2/2 | 2/2 | 3.2% | 1/2 |',
    '| kagaho_vllm_l40s_tp2 | kv_cache_gib | single | 1 | 0.5% (+0.5%) · 1 | 1/1 | 1/1 | 9.0% | 0/1 |',
    '| kagaho_vllm_l40s_tp2 | kv_cache_tokens | single | 1 | 0.4% (+0.4%) · 1 | 1/1 | 1/1 | 9.0% | 0/1 |',
    '',
    'The largest misses per source (up to 3, by |log error|):',
    '',
    '| source | case | metric | statistic | measured | predicted | error | naive error |',
    '|---|---|---|---|---|---|---|---|',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-c16-512in-256out | output_tok_s | mean | 314 | 283 | -9.7% | +25.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-trtllm121-pytorch-a100pcie-qwen3-32b-bf16-c16-512in-256out | output_tok_s | mean | 318 | 297 | -6.6% | +24.0% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192 | kv_cache_tokens | single | 39,200 | 37,200 | -5.1% | +8.6% |',
    '| faradawn_bench3_h200 | faradawn-vllm0112-h200-llama3-8b-tp1-c8-128in-512out | ttft_ms | mean | 75.61 | 38.75 | -48.7% | -97.3% |',
    '| faradawn_bench3_h200 | faradawn-vllm0112-h200-llama3-8b-tp1-c4-128in-512out | ttft_ms | mean | 56.66 | 38.52 | -32.0% | -96.3% |',
    '| faradawn_bench3_h200 | faradawn-vllm0112-h200-llama3-8b-tp1-c8-128in-512out | tpot_ms | mean | 6.44 | 7.70 | +19.6% | -48.0% |',
    '| kagaho_vllm_l40s_tp2 | kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192 | kv_cache_gib | single | 20.16 | 20.25 | +0.5% | +9.0% |',
    '| kagaho_vllm_l40s_tp2 | kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192 | kv_cache_tokens | single | 132,128 | 132,704 | +0.4% | +9.0% |',
    '',
    'Every KV case (the pool in GiB and in tokens side by side; signed errors; gmu and max_model_len as the case states them):',
    '',
    '| source | case | GPU | model, weights | vLLM | gmu | max_model_len | GiB: measured | predicted | error | tokens: measured | predicted | error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-vllm0190-a100pcie-qwen3-32b-awq-kv-mml8192 | A100-80GB-PCIe | qwen3-32b, int4 | 0.19.0 | 0.9 | 8,192 | 52.31 | 52.11 | -0.4% | 214,272 | 213,440 | -0.4% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192 | A100-80GB-PCIe | qwen3-32b, bf16 | 0.19.0 | 0.9 | 8,192 | 9.57 | 9.09 | -5.1% | 78,400 | 74,416 | -5.1% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192 | A100-80GB-PCIe | qwen3-32b, bf16 | 0.19.0 | 0.9 | 8,192 | 9.57 | 9.09 | -5.1% | 39,200 | 37,200 | -5.1% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | cssnoeasy-vllm0190-a100pcie-qwen3-32b-w4a16-gptq-kv-mml8192 | A100-80GB-PCIe | qwen3-32b, int4 | 0.19.0 | 0.9 | 8,192 | 52.58 | 52.11 | -0.9% | 215,344 | 213,440 | -0.9% |',
    '| faradawn_bench3_h200 | faradawn-trtllm120rc4-pytorch-h200-llama3-8b-tp1-kv-msl1024 | H200 | llama-3-8b, bf16 | 1.2.0rc4 | 0.9 | 1,024 | 110 | 112 | +1.6% | 900,800 | 915,536 | +1.6% |',
    '| faradawn_bench3_h200 | faradawn-vllm0112-h200-llama3-8b-tp1-kv-mml1024 | H200 | llama-3-8b, bf16 | 0.11.2 | — | 1,024 | 106 | 106 | -0.4% | 868,080 | 864,256 | -0.4% |',
    '| kagaho_vllm_l40s_tp2 | kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192 | L40S | llama-3-70b, int4 | 0.16.0 | — | 8,192 | 20.16 | 20.25 | +0.5% | 132,128 | 132,704 | +0.4% |',
    '',
    'Per case (every figure; signed errors):',
    '',
    '| source | case | engine | GPU × n (TP) | model, weights, KV | in / out | load | metric | statistic | measured | predicted | error | naive | naive error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-trtllm121-pytorch-a100pcie-qwen3-32b-bf16-c16-512in-256out](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/tensorrt-llm-validation.md) | trtllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, bf16, auto | 512 / 256 | concurrency 16 | output_tok_s | mean | 318 | 297 | -6.6% | 394 | +24.0% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-awq-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_gib | single | 52.31 | 52.11 | -0.4% | 53.42 | +2.1% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-awq-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 214,272 | 213,440 | -0.4% | 218,800 | +2.1% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-c16-512in-256out](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/tensorrt-llm-validation.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, bf16, auto | 512 / 256 | concurrency 16 | output_tok_s | mean | 314 | 283 | -9.7% | 394 | +25.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, bf16, fp8 | 8192 / 1 | kv_capacity | kv_cache_gib | single | 9.57 | 9.09 | -5.1% | 10.39 | +8.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-fp8kv-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, bf16, fp8 | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 78,400 | 74,416 | -5.1% | 85,122 | +8.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, bf16, auto | 8192 / 1 | kv_capacity | kv_cache_gib | single | 9.57 | 9.09 | -5.1% | 10.39 | +8.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-bf16-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, bf16, auto | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 39,200 | 37,200 | -5.1% | 42,561 | +8.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-w4a16-gptq-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_gib | single | 52.58 | 52.11 | -0.9% | 53.42 | +1.6% |',
    '| cssnoeasy_vllm_a100_pcie_qwen3_32b | [cssnoeasy-vllm0190-a100pcie-qwen3-32b-w4a16-gptq-kv-mml8192](https://github.com/cssnoeasy/a100-vllm-benchmark-blog/blob/5b67cd24cec04a0664aa3a7aa585ea11df6d5f5e/docs/reports/a100-quantization-capacity.md) | vllm | A100-80GB-PCIe × 1 (1) | qwen3-32b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 215,344 | 213,440 | -0.9% | 218,800 | +1.6% |',
    '| faradawn_bench3_h200 | [faradawn-trtllm120rc4-pytorch-h200-llama3-8b-tp1-kv-msl1024](https://github.com/faradawn/bench3/blob/64ae4f53eaf341cac03be15bf7b0e59960310486/logs/trtllm-serve-egine.log) | trtllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 1024 / 1 | kv_capacity | kv_cache_gib | single | 110 | 112 | +1.6% | 111 | +1.3% |',
    '| faradawn_bench3_h200 | [faradawn-trtllm120rc4-pytorch-h200-llama3-8b-tp1-kv-msl1024](https://github.com/faradawn/bench3/blob/64ae4f53eaf341cac03be15bf7b0e59960310486/logs/trtllm-serve-egine.log) | trtllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 1024 / 1 | kv_capacity | kv_cache_tokens | single | 900,800 | 915,536 | +1.6% | 912,609 | +1.3% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c1-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_1.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 1 | output_tok_s | mean | 162 | 145 | -10.8% | 299 | +83.8% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c1-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_1.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 1 | ttft_ms | mean | 30.51 | 34.91 | +14.4% | 2.08 | -93.2% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c1-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_1.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 1 | tpot_ms | mean | 6.11 | 6.85 | +12.1% | 3.35 | -45.2% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c4-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_4.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 4 | output_tok_s | mean | 632 | 550 | -13.0% | 1,190 | +88.1% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c4-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_4.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 4 | ttft_ms | mean | 56.66 | 38.52 | -32.0% | 2.08 | -96.3% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c4-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_4.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 4 | tpot_ms | mean | 6.22 | 7.21 | +15.8% | 3.35 | -46.2% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c8-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_8.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 8 | output_tok_s | mean | 1,214 | 1,031 | -15.1% | 2,368 | +95.0% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c8-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_8.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 8 | ttft_ms | mean | 75.61 | 38.75 | -48.7% | 2.08 | -97.3% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-c8-128in-512out](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/1_vllm/concurrency_8.json) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 128 / 512 | concurrency 8 | tpot_ms | mean | 6.44 | 7.70 | +19.6% | 3.35 | -48.0% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-kv-mml1024](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/logs/vllm_server.log) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 1024 / 1 | kv_capacity | kv_cache_gib | single | 106 | 106 | -0.4% | 111 | +5.1% |',
    '| faradawn_bench3_h200 | [faradawn-vllm0112-h200-llama3-8b-tp1-kv-mml1024](https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/logs/vllm_server.log) | vllm | H200 × 1 (1) | llama-3-8b, bf16, auto | 1024 / 1 | kv_capacity | kv_cache_tokens | single | 868,080 | 864,256 | -0.4% | 912,609 | +5.1% |',
    '| kagaho_vllm_l40s_tp2 | [kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192](https://github.com/kagaho/VLLM_Serve_llama3-70b-awq_on_L40S_with_Tensor_Parallelism_2/blob/3397c881c4f687ab5835619f2549835da8a83fdf/README.md) | vllm | L40S × 2 (2) | llama-3-70b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_gib | single | 20.16 | 20.25 | +0.5% | 21.97 | +9.0% |',
    '| kagaho_vllm_l40s_tp2 | [kagaho-vllm0160-2xl40s-llama3-70b-awq-tp2-kv-mml8192](https://github.com/kagaho/VLLM_Serve_llama3-70b-awq_on_L40S_with_Tensor_Parallelism_2/blob/3397c881c4f687ab5835619f2549835da8a83fdf/README.md) | vllm | L40S × 2 (2) | llama-3-70b, int4, auto | 8192 / 1 | kv_capacity | kv_cache_tokens | single | 132,128 | 132,704 | +0.4% | 144,006 | +9.0% |',
]

# The collector's caveats (tests/data/serving/README.md, "Round 13 (held out, KV capacity)"), written into the report
# before its one run.
ROUND13_CAVEATS = [
    "Read with the collector's caveats (README \"Round 13 (held out, KV capacity) — collector's report\"; each file's "
    "`notes`): 12 cases, 25 figures from 3 sources, 3 GPU types (A100-80GB-PCIe, H200, L40S), engines vLLM (10 cases: "
    "0.11.2, 0.16.0, 0.19.0, all V1) and TensorRT-LLM (2 cases: 1.2.0rc4 and 1.2.1, PyTorch backend). The **7 "
    "KV-capacity cases** (each with GiB and tokens: 14 figures): **4 of them are one table of one report** (cssnoeasy: "
    "Qwen3-32B on one A100 80GB PCIe, vLLM 0.19.0, eager mode, gpu_memory_utilization 0.90, max_model_len 8,192, in "
    "BF16, BF16 with **fp8 KV**, the official AWQ and a self-built W4A16 GPTQ; the table's columns mirror vLLM's "
    "start-up lines, the logs themselves are not in the repository; the schema has no enforce_eager field, so the eager "
    "mode is in the notes), so the KV reading is also stated one per source; faradawn's 2 are start-up logs of "
    "Llama-3-8B BF16 on one H200 (the GPU from the repository's README and the TensorRT-LLM log's 139.80 GiB): vLLM "
    "0.11.2 with gpu_memory_utilization not printed (the benchmark reads vLLM's default) and **TensorRT-LLM 1.2.0rc4**, "
    "whose free_gpu_memory_fraction 0.9 (a fraction of the memory free after its profiling run, not of the total), "
    "max_batch_size 32, max_num_tokens 1,024 and max_seq_len 1,024 the collector mapped onto gpu_memory_utilization, "
    "max_num_seqs, max_batched_tokens and max_model_len: **read as mapped** (decided at the freeze); kagaho's 1 is "
    "Llama-3-70B AWQ on 2x L40S at **TP 2** (vLLM 0.16.0, gpu_memory_utilization neither passed nor printed: vLLM's "
    "default; the GiB figure is TP0's per-GPU pool, the tokens the engine's). The 5 throughput/latency cases, "
    "**pooled** (decided at the freeze): faradawn's 3 vLLM 0.11.2 runs at 1/4/8 users, 128 in / 512 out fixed "
    "(`--ignore-eos`, 5 waves of N requests; arrivals kept at the default, independent), output tok/s, mean TTFT and "
    "mean TPOT; cssnoeasy's TensorRT-LLM 1.2.1 and vLLM 0.19.0 runs at 16 users, 512 in / 256 out, output tok/s (mean "
    "of three rounds; fixed seed and cache reuse on by default in both engines, so the prefill of rounds 2-3 may be "
    "cache hits; TensorRT-LLM's batch settings and vLLM's flags for that report are not stated). No erratum touches "
    "round 13.",
]

ROUND13_SINCE_HEADING = "### Since round 13's evaluation: round 13 with this commit's estimator"

ROUND13 = PooledRound(Split.heldout13, ROUND13_CSSNOEASY_FILE, "cssnoeasy", ROUND13_CAVEATS, ROUND13_EVALUATION,
                      ROUND13_SINCE_HEADING, "2026-12-04", "816e237", misses_shown=ROUND13_MISSES_SHOWN,
                      kv_first=True, kv_one_per_source=True, pooled_only=True)



# What was chosen when, and what the person choosing had seen: written by hand, kept here so that the report carries
# it every time it is regenerated (the figures in it are the ones the report printed at the time).
HONEST_READING = [
    "## Honest reading: what was chosen when",
    "",
    "### The held-out throughput figure (hand-written, 2026-12-01)",
    "",
    "The drop from 21.9 % to 9.6 % median held-out throughput error came with the vLLM profile-run model (issue 11 "
    "follow-up): vLLM releases before the fused sampler (PR #33538, merged about 2026-02; taken as v0.16) warm the "
    "sampler up with a full-vocabulary sort, which takes about 5.6 GiB out of the KV pool of the GPUStack v0.11.0 "
    "Qwen3-32B/H100 runs. The rule comes from vLLM's code and PR logs, but the helper who wrote it had looked at the "
    "overhead the held-out v0.19/v0.11 logs implied before finding that evidence, so treat the held-out throughput "
    "figure as partly informed by held-out data. With v0.11 counted as fused the figure is 21.9 % (still under the "
    "25 % target); latency and KV capacity are unaffected by that choice.",
    "",
    "### TTFT: bursts, waves and the per-request overhead (hand-written, 2026-12-02)",
    "",
    "Before this work the committed report already showed every held-out figure (TTFT signed median -48.0 %, latency "
    "median 22.4 %, the per-case rows); nothing below was tuned to them, but the person choosing had seen them. In "
    "order:",
    "",
    "1. Mechanisms, from how the engines schedule: a burst (`--request-rate inf --num-prompts M`) is a first wave the "
    "engine admits at once (by its KV admission rule: vLLM on the prompt, SGLang on the prompt + 0.7 × the output, "
    "TensorRT-LLM on the whole sequence), reaching the engine no faster than its front end, then a queue for slots; "
    "requests of a closed loop that arrive together wait for their wave's chunked prefill. 34 calibration TTFT figures "
    "were added (`calibration_ttft.yaml`: GPUStack's Qwen3-14B bursts, Lambda's 10-prompt bursts, wmx.dev's vLLM L4 "
    "sweep).",
    "2. The first run of the new code printed the held-out rows. At that point lockstep was inferred from any "
    "fixed-length closed loop, which put the held-out RTX 4090 sweep (lengths \"fixed\", no `--ignore-eos` stated; the "
    "post calls its arrivals Poisson) at +93 … +383 % and the held-out latency median at 46.8 %. Lockstep was then "
    "made an explicit case field (`arrivals: together`), set only where a source pins its outputs with `--ignore-eos` "
    "(the L4 sweep); every held-out case keeps independent arrivals. That narrowing was decided after seeing held-out "
    "rows: the held-out latency figure is informed by held-out data to that extent. The admission rule of step 1 was "
    "also settled after that run; it changes only bursts' TTFT, and no held-out case measures one.",
    "3. `request_overhead_ms` was then fitted alone on the calibration TTFT rows (`--calibrate-ttft`; the rule — fit an "
    "engine only where it has a calibration TTFT under one second, take the grid minimum — fixed before the scan): "
    "vLLM 20 → 25 ms (scan flat from 20 to 30 ms); SGLang and TensorRT-LLM stay priors. The held-out result of that "
    "fit: TTFT signed median -48.0 % → -42.5 %, and the latency median 22.4 % → 30.4 %, which misses the 25 % target: "
    "the median of the 19 held-out latency figures sits on one figure (the RTX 4090 sweep at 4 users, +22.4 % → +30.4 "
    "%), between ten TPOT/TTFT figures under 20 % and eight TTFT figures near -40 %. Keeping the prior 20 ms gives back "
    "exactly the previous held-out figures (22.4 %, -48.0 %); choosing it now would be a choice made on held-out "
    "results, so the calibration fit stands and the miss is reported.",
    "",
    "### Round 2: a fresh held-out set, the first-token path read from the code (hand-written, 2026-12-01)",
    "",
    "Round 1 had been read by everyone who chose the TTFT model, so it is called spent from here on and kept as a "
    "check. In order:",
    "",
    "1. Round 2 was gathered first from sources no file used before (Tenstorrent's vLLM reference runs on NVIDIA "
    "GPUs in tt-inference-server issues #143 and #340; vLLM issue #20469) and frozen with its hashes "
    "(tests/data/serving/README.md) before any code changed. The estimator was not run on it until step 4 (the "
    "working scripts skipped `heldout2_*`; the report gained `--without-round2`). It falls short of the aim: 61 "
    "latency figures, but two sources and two GPU types (2× H100, A100), all at one user and all vLLM.",
    "2. The path from the client's POST to the first token was read in vLLM's code (the section above). One "
    "mechanism changed the model: one user finds the engine idle and gets the first token with the prefill step, "
    "so the half decode step that had stood in TTFT at one user went, and E2E counts tokens − 1 decode steps. The "
    "chat endpoint's extra work and GPUStack's vLLM-versus-SGLang gap were looked for and not found in the code; "
    "nothing was modelled for them.",
    "3. `--calibrate-ttft` was rerun by its unchanged rule (calibration files only): vLLM's request overhead stays "
    "25 ms. Checks on data already seen: calibration latency median 13.7 % → 12.8 %; round 1 (spent) latency "
    "median 30.4 % (unchanged, the same figure sits on the median), TTFT signed -42.5 % → -43.1 %, throughput 9.6 % "
    "→ 9.3 %, KV capacity 7/7; the golden evaluation unchanged (226/228, the same two failures).",
    "4. Round 2 was then evaluated once: latency median 35.5 % over 61 figures, the 25 % target missed. TTFT is "
    "over-predicted (signed +53.6 %, 22 figures; +11.6 % for vLLM issue #20469's 16,000-token prompt), TPOT "
    "under-predicted (signed -33.5 %): the 2× H100 Qwen2.5-72B runs decode as modelled (-8.5 %), the A100 runs "
    "decode 1.2-2× slower than modelled (Qwen3-14B -25 … -37 %, Qwen3-30B-A3B -49 %), for a reason the issues do "
    "not state. Nothing was changed after this run.",
    "5. Read after the evaluation: three of the Tenstorrent TTFTs are faster than the GPUs can prefill at all "
    "(counting the whole TTFT as prefill and only the linear layers' FLOPs: Qwen2.5-72B at 2,048 tokens on 2× H100 "
    "101 % of dense BF16 peak, Qwen3-14B at 4,096 tokens on an A100 179 %, Qwen3-30B-A3B at 4,096 tokens 115 %), and "
    "on the A100 the TTFT falls from 3,072 to 4,096 tokens for both models. The likeliest cause is "
    "vLLM V1's prefix cache (on by default) serving part of the prompts of the 2-8 requests per row, which the "
    "README's scope leaves out; it was not known at the freeze, the files stay as frozen, and round 2's TTFT "
    "result is reported as it came out with this caveat.",
    "",
    "### Round 2 spent: the recalibration (hand-written, 2026-12-01, issue 11)",
    "",
    "After its one evaluation round 2 was studied, so from here on both rounds are spent: checks, no longer held out. "
    "Every change below is a mechanism read from an engine's or a client's code, checked on every file at once; the "
    "fitters still read the calibration files only (`FIT_SPLITS`), and a round-3 file (`heldout3_*`) gets its own "
    "split that no fitter reads. The leads, in order:",
    "",
    "1. **Prefill and decode FLOPs of the embedding and the LM head (adopted).** vLLM's input embedding is a lookup "
    "(`VocabParallelEmbedding` runs `F.embedding`) and V1 computes logits at one position per scheduled request "
    "(`vllm/v1/worker/gpu_model_runner.py`: `logits_indices = query_start_loc[1:] - 1`), so a prefill runs the layers' "
    "matmuls for every prompt token but the LM head once per prompt (counting both at every token overstated Qwen3-14B's "
    "prefill FLOPs by 12 %, Llama-3-8B's by 15 %, Qwen3-30B-A3B's by 23 %, Qwen2.5-0.5B's by 38 %), and a decode step "
    "does not read an untied embedding table (~5 % of an 8B model's bytes). Attention FLOPs at long prompts were already "
    "counted (2 · layers · L² · q_dim, causal); vLLM issue #20469's 16,000-token prompt stays within 7 %. Because a step "
    "reads fewer bytes, `--calibrate` was rerun by its unchanged rule: the shared bandwidth efficiency 0.85 → 0.80 and the "
    "constants listed in tools/serving_profiles.py (a fixed point of the fit); `--calibrate-ttft` gave vLLM 30 ms.",
    "2. **Prefix-cache hits in round 2's TTFTs (errata, not a model change).** Read in the clients' code: "
    "tt-inference-server's batch-1 sweep runs ISL 128 … 8,192 in ascending order on one server, and its prompts share "
    "prefixes between runs — from 2025-06-04 (`--dataset-name cleaned-random`) prompt i of every run is drawn after "
    "`torch.manual_seed(42 + i)`, before that vLLM's `random` dataset with numpy seeded 0 gives the same offsets in "
    "every run; `benchmark_serving` also sends each run's first prompt once before measuring. vLLM V1, the default "
    "engine from 0.8, turns prefix caching on by default (`vllm/engine/arg_utils.py` `_set_default_args_v1`). So the "
    "measured prefills covered only the uncached tokens, which is why three TTFTs beat dense peak and why the A100 "
    "TTFT is flat from 1,024 to 4,096 tokens (each run adds about 1,024 new tokens). The 21 Tenstorrent TTFTs leave "
    "the comparison by erratum (errata.yaml, the reason once per issue); their TPOT and E2E stay. vLLM issue #20469 is "
    "one run of 30 prompts (one repeated: a 3 % effect at most) and stays.",
    "3. **A100 decode (not adopted).** Round 2's A100 TPOTs are predicted 33 % (Qwen3-14B) and 51 % (Qwen3-30B-A3B) "
    "under the measured ones, the 2× H100 runs' within 5 %. No per-architecture bandwidth efficiency was found that would explain it: "
    "microbenchmarks put an A100-80GB SXM at about 88-90 % of its 2.04 TB/s (forums.developer.nvidia.com/t/339083, \"Trouble to reach "
    "peak bandwidth of A100\", citing a GTC talk), as high as an H100; the calibration's vLLM A100 rows decode as "
    "modelled (Lambda's A100-80GB TPOT -5 %, the A100-40GB blog's decode speed +0.4 %), so an Ampere factor fitted on all data would move "
    "nothing but round 2. The same thread's Qwen3-0.6B run (not in the catalog) has a 4.2 ms TPOT on that A100, which "
    "points at that machine's per-step cost (host, eager mode or clocks, none stated) rather than at Ampere. "
    "llama.cpp's A100 and H100-PCIe rows are predicted 10-38 % too fast on both sides, a llama.cpp kernel matter that "
    "its shared constants (fitted mostly on GDDR cards) average over. Decode attention at long context reads the KV cache less efficiently "
    "than a GEMV, but the A100 TPOTs do not grow with context (22.8-29.1 ms from 128 to 8,192 tokens): not the cause here.",
    "4. **TTFT under bursts (not changed).** The burst model's step budget is each engine's own (vLLM 2,048 on A100s, "
    "8,192 on larger GPUs; SGLang's chunked_prefill_size 8,192, 2,048 below 25 GB; TensorRT-LLM's max_num_tokens 8,192). The "
    "refit moved the GPUStack bursts (vLLM A100 better, vLLM H100 worse, SGLang ShareGPT +115 % and +79 % still); the "
    "ShareGPT bursts are where the estimator's single mean length misses the tail of real lengths, which needs a "
    "length distribution, not a budget. The refit also trades A100 against H100 on GPUStack's prefill-heavy vLLM "
    "runs (random 2k / 4k / 32k): total tok/s on the A100 -15 … -22 % → -9 … 0 %, on the H100 +24 … +28 % → "
    "+44 … +49 %. There the measured H100 / A100 ratio (1.8) sits near the bandwidth ratio (1.64), not the dense-FLOPs "
    "ratio (3.2), which one prefill MFU per engine cannot show; a per-architecture prefill efficiency would be fitted "
    "on this one source, so it is left as the next lead.",
    "5. **Front-end overhead, GPUStack's gap (not modelled).** A fit that also reads the spent rounds (each source "
    "weighted once) wants vLLM's per-request overhead at 50 ms, SGLang's 25 ms and TensorRT-LLM's 40 ms, all from "
    "GPUStack's chat-endpoint runs at 1-8 users, and the FP8 kernel factor at 0.8 from the same runs; calibration "
    "latency would go 13.1 % → 17.0 % and the KV fit's NVLink constant 2.5 → 0.5 GiB (a median over logs that are "
    "mostly single-GPU). One source choosing three constants is a fit to a case, so it was not taken; no code path "
    "explaining the chat endpoint's extra 30 ms was found (see \"How the first token is timed\").",
    "",
    "Median error before → after (`python benchmarks/serving.py`; \"errata\" = the 21 TTFTs out; signed in brackets):",
    "",
    "| split | metric | before (committed) | errata only | embedding/head + refit only | both (this report) |",
    "|---|---|---|---|---|---|",
    "| calibration | throughput (70) | 10.8 % (-3.5) | 10.8 % | 10.2 % (-0.6) | 10.2 % (-0.6) |",
    "| calibration | latency (36) | 12.8 % (+2.9) | 12.8 % | 13.1 % (-2.6) | 13.1 % (-2.6) |",
    "| calibration | KV (9) | 0.6 % | 0.6 % | 0.6 % | 0.6 % |",
    "| round 1 (spent) | throughput (27) | 9.3 % (+8.8) | 9.3 % | 10.2 % (+9.8) | 10.2 % (+9.8) |",
    "| round 1 (spent) | latency (19) | 30.4 % (-20.1) | 30.4 % | 29.3 % (-23.1) | 29.3 % (-23.1) |",
    "| round 1 (spent) | TTFT (12) | 43.1 % (-43.1) | 43.1 % | 41.0 % (-41.0) | 41.0 % (-41.0) |",
    "| round 2 (spent) | latency | 35.5 % (61) | 30.3 % (40) | 34.9 % (61) | 30.7 % (40) |",
    "| round 2 (spent) | TTFT | 53.6 % (+53.6, 22) | 11.6 % (1) | 46.5 % (+46.5, 22) | 6.9 % (-6.9, 1) |",
    "| round 2 (spent) | TPOT (21) | 33.5 % (-33.5) | 33.5 % | 33.1 % (-33.1) | 33.1 % (-33.1) |",
    "| round 2 (spent) | E2E (18) | 27.0 % (-27.0) | 27.0 % | 28.8 % (-28.8) | 28.8 % (-28.8) |",
    "",
    "The alternative fit of lead 5 (calibration + spent rounds, each source weighted once), for the record: calibration "
    "throughput 10.2 %, latency 17.0 %, KV 2.6 %; round 1 throughput 7.5 %, latency 6.1 % (in-sample there); round 2 "
    "latency 30.1 %. Round 2 still misses its 25 % latency target (30.7 %), now on A100 decode alone.",
]


RECAL_ROUND3 = [
    "### Rounds 1-3 spent: memory-level parallelism and the MoE kernel chain (hand-written, 2026-12-01, issue 11)",
    "",
    "Round 3 was evaluated once by the lead (commit 38ebedd; the \"Round 3: its one evaluation\" note in "
    "tests/data/serving/README.md) and then studied, so rounds 1-3 are all spent: checks that may calibrate, no longer "
    "held out. Round 4 is being gathered by another helper who never sees this work; the lead evaluates it once "
    "(`heldout4_*`, its own split, read by no fitter). Every change below is a mechanism with a source, checked on "
    "every file at once. The leads, in order:",
    "",
    "1. **The Qwen speed benchmark on H20 (adopted: memory-level parallelism).** The page (QwenLM/Qwen3 "
    "docs/source/getting_started/speed_benchmark.md) defines Speed = (prompt + generated tokens) / time, so the "
    "1-token rows are pure decode; SGLang 0.4.6.post1 with mem_fraction_static 0.85, context_length 140,000, "
    "enable_mixed_chunk, skip_tokenizer_init, the awq_marlin backend for AWQ; CUDA graphs and torch.compile are not "
    "mentioned (SGLang's defaults: graphs on, compile off); the page has no vLLM table (vLLM 0.7.2 is listed only as "
    "SGLang's AWQ dependency), but it has a Transformers table on the same H20. Read across model sizes, SGLang's "
    "batch-1 time per token is proportional to the weight bytes, not to the layer count (Qwen3-8B / 14B / 32B BF16: "
    "12.2 / 21.2 / 48.3 ms for 15 / 28 / 64 GB: about 0.7 ms per GB, 1.4 TB/s, 35 % of the H20's 4.0 TB/s; 36 / 40 / "
    "64 layers would give 1 : 1.1 : 1.8, the bytes 1 : 1.9 : 4.2, the times 1 : 1.7 : 4.0), and the FP8 rows read at "
    "the same rate: not compute-bound (2 FLOPs per weight at batch 1 is 0.1 ms at 148 TFLOPS) nor launch-bound. "
    "The same page's Transformers (eager) run of Qwen3-32B BF16 reads at least 1.7 TB/s (26.24 tok/s). The H20 has "
    "78 SMs (Geekbench 6 listing, as reported) for its 4.0 TB/s, about 2.6× the bytes per SM-cycle of an H100: by "
    "Little's law a matrix-vector kernel reads at most SMs × clock × the bytes it keeps in flight per SM "
    "(tools/serving_profiles.py `WEIGHT_READ_PARALLELISM`, with the sources), SMs × clock read off the catalog's FP32 "
    "peak and the CUDA guide's FP32 lanes per SM. One constant, 10 bytes per SM-cycle, fitted by `--calibrate` on the "
    "calibration split's low-concurrency runs with the shared decode constants (grid 7-14; the other constants stayed "
    "a fixed point): it caps the H20 at 1.72 TB/s (43 %: above SGLang's 1.4 and consistent with Transformers' ≥ 1.7), "
    "the A100-80GB at 1.52 TB/s (75 %), the H100 at 2.62 TB/s (78 %, about where its 0.80 efficiency already was), "
    "the H200 at 2.62 TB/s (55 %), and no GDDR card (the RTX 4090 would need 3.1 bytes per SM-cycle). It binds on the "
    "decode weight reads only: large-batch GEMMs, attention over the KV cache and prefill keep far more in flight (on "
    "every read, the TensorRT-LLM H200 maximum-throughput rows fell 20-30 points, so the cap was narrowed before any "
    "constant was chosen). Its cost on the calibration split: TensorRT-LLM's maximum-throughput runs on one "
    "H200 (Llama-3.3-70B 128/2048 -22 % → -40 %; TensorRT-LLM's calibration median 14.9 % → 20.0 %), whose batches "
    "are small enough for the weight term to count although their GEMMs are tensor-core kernels, not matrix-vector "
    "ones; a cap lifted above a batch of 4-64 tokens (flat) wins them back (calibration mean |log error| 0.170 → "
    "0.164, nothing else moves) but makes a step faster when the batch crosses the threshold, so it is left as the "
    "next lead. What is left on the H20: SGLang's dense rows +12 % signed (the engine reads 1.4 TB/s "
    "where the kernel bound allows 1.7) and Qwen3-0.6B's 2.4 ms per token (not in the data; 28 layers) points at about "
    "1.7 ms of per-step cost in SGLang 0.4.6 against the 1.1 ms modelled; not adopted (one table, small models "
    "outside the catalog).",
    "2. **SGLang's batch-1 profile and the B200 gist (adopted for MoE: the fused-MoE kernel chain).** The MoE rows "
    "kept missing after lead 1 (Qwen3-30B-A3B and 235B-A22B on H20 +96 %; round 2's Qwen3-30B-A3B on an A100 with "
    "vLLM -48 % TPOT) by a fixed time per step that grows with the layer count, not the bytes: FP8 Qwen3-30B-A3B is "
    "no faster than BF16 at batch 1 (6.4 vs 7.3 ms per token on the H20). vLLM's and SGLang's MoE layers run a chain "
    "of small kernels at small batch (router GEMM, top-k softmax, `moe_align_block_size`, the two Triton "
    "`fused_moe` grouped GEMMs over expert blocks padded to BLOCK_SIZE_M, activation, the weighted sum; "
    "vllm/model_executor/layers/fused_moe/fused_moe.py, which falls back to a default tile config with \"Using "
    "default MoE config. Performance might be sub-optimal!\" where no tuned E,N,device file exists; SGLang's "
    "fused_moe_triton is a port). It is modelled as `moe_layer_overhead_us` per MoE layer and step (vLLM, SGLang; "
    "TensorRT-LLM's own MoE kernels and llama.cpp keep 0), fitted by the new `--calibrate-moe` on every vLLM/SGLang "
    "MoE run at ≤ 16 users in the calibration files and the spent rounds (MOE_FIT_SPLITS; each source weighs the "
    "same): the calibration files have none, so this one constant is fitted on spent data only (Tenstorrent's A100 "
    "runs, the Qwen H20 table, the B200 gist: 24 cases). The scan is flat from 40 to 80 µs; the grid minimum, 60 µs, "
    "is taken. It is a fixed time, so it fades at large batches, where no vLLM/SGLang MoE run checks it. The B200 "
    "gist (SGLang 0.5.8.post1, 94 layers) wants about 25 µs (its TPOT goes from -43 % to +41 %): newer SGLang "
    "releases fuse more of the chain and Blackwell picks other MoE kernels; one version rule would be a fit to that "
    "one case, so it stays. The catalog has no FP32 peak for the B200, so lead 1's cap does not reach it (catalog "
    "change proposed in the report to the lead).",
    "3. **KV capacity on 2× RTX 4090, FP8 (not changed).** LMCache #1241 gives the pool as the max_model_len the user "
    "then set (18,144 both), i.e. vLLM 0.9.0's own figure. The estimate is 1.1 GiB per GPU too large for Qwen2.5-32B "
    "(3.4 vs 2.3 GiB) and 0.8 GiB for Qwen3-30B-A3B; the profile run is already counted (the 256 × 152K-logit sort "
    "warm-up, 1.4 GiB, vLLM < 0.16), CUDA graphs are captured after the pool is sized (gpu_worker.py "
    "compile_or_warm_up_model), and `gpu_memory_utilization` is not stated. vLLM V1's early profiler counted every "
    "process's memory on the device (gpu_worker.py determine_available_memory: mem_get_info total − free, minus "
    "torch's own), so a desktop's display server or LMCache's buffers would come out of the pool; the issue says "
    "neither, and no single mechanism gives both gaps, so nothing was changed.",
    "4. **A100 decode (partly: lead 1).** The cap moves the A100-80GB from 1.63 to 1.52 TB/s: Qwen2.5 on vLLM 0.6.3 "
    "+16 % → +10 %, round 2's dense Qwen3-14B TPOT -33 % → -29 % (median of 7). An Ampere-only constant (8.5 bytes per "
    "SM-cycle) would bring both near zero but moves the calibration low-concurrency loss the wrong way (0.122 → "
    "0.134: Lambda's and the A100-40GB blog's vLLM runs decode faster than the spent rounds' A100 runs), so it was "
    "not taken; the A100s of the two spent sources (and their hosts) stay slower than the calibration's.",
    "5. **Other residuals.** SGLang #6681 (2× H20, 512 users, -70 %) needs about 88 % of the H20's dense BF16 peak "
    "in prefill and decode matmuls alone (3.57 req/s × 1,024 prompt tokens × 2 × 31 B linear parameters over two "
    "GPUs), far above any prefill MFU the calibration shows: most likely a warm radix cache (bench_serving's fixed "
    "seed, the collector's caveat); left in the comparison, not modelled. The ten largest residuals before and after "
    "are listed below (before: by hand from the committed report; after: computed by this run): the H20 MoE rows "
    "leave the top ten, GPUStack's TensorRT-LLM Qwen3-32B runs (+152 … +197 %, round 1) stay in it.",
    "",
    "Median error (signed in brackets) before → after, `python benchmarks/serving.py` with each change alone "
    "(the table came from a scratch script that set the two constants; \"before\" = commit d820525's estimator):",
    "",
    '| split, metric | figures | before (committed) | memory parallelism only | MoE layer time only | both (this report) |',
    '|---|---|---|---|---|---|',
    '| calibration, throughput | 70 | 10.2 % (-0.6) | 9.5 % (-0.6) | 10.2 % (-0.6) | 9.5 % (-0.6) |',
    '| calibration, latency | 36 | 13.1 % (-2.6) | 13.1 % (-1.5) | 13.1 % (-2.6) | 13.1 % (-1.5) |',
    '| calibration, KV | 9 | 8/9 within 5 % | 8/9 within 5 % | 8/9 within 5 % | 8/9 within 5 % |',
    '| round 1, throughput | 27 | 10.2 % (+9.8) | 9.8 % (+8.2) | 10.2 % (+9.8) | 9.8 % (+8.2) |',
    '| round 1, latency | 19 | 29.3 % (-23.1) | 29.3 % (-21.9) | 29.3 % (-23.1) | 29.3 % (-21.9) |',
    '| round 1, KV | 7 | 7/7 within 5 % | 7/7 within 5 % | 7/7 within 5 % | 7/7 within 5 % |',
    '| round 2, latency | 40 | 30.7 % (-30.7) | 26.6 % (-26.6) | 19.4 % (-19.4) | 16.9 % (-16.9) |',
    '| round 2, TPOT, A100 (14) | 14 | 43.4 % (-43.4) | 39.9 % (-39.9) | 23.3 % (-23.3) | 20.3 % (-20.3) |',
    '| round 2, TPOT, 2×H100 (7) | 7 | 4.8 % (-4.8) | 2.8 % (-2.8) | 4.8 % (-4.8) | 2.8 % (-2.8) |',
    '| round 3, throughput | 85 | 46.5 % (+33.1) | 15.8 % (+13.7) | 27.3 % (+23.1) | 13.7 % (+10.7) |',
    '| round 3, latency (B200 TPOT) | 1 | 42.8 % (-42.8) | 42.8 % (-42.8) | 41.3 % (+41.3) | 41.3 % (+41.3) |',
    '| round 3, KV | 7 | 5/7 within 5 % | 5/7 within 5 % | 5/7 within 5 % | 5/7 within 5 % |',
    '| round 3, Qwen3 SGLang H20 dense | 36 | 61.6 % (+61.6) | 14.4 % (+11.8) | 61.6 % (+61.6) | 14.4 % (+11.8) |',
    '| round 3, Qwen3 SGLang H20 MoE | 16 | 145.6 % (+145.6) | 95.5 % (+95.5) | 25.2 % (+25.2) | 14.3 % (+13.0) |',
    '| round 3, Qwen2.5 vLLM A100 | 29 | 16.2 % (+16.2) | 10.2 % (+10.2) | 16.2 % (+16.2) | 10.2 % (+10.2) |',
    '| round 3, SGLang #6681 2×H20 | 3 | 69.9 % (-69.9) | 69.9 % (-69.9) | 69.9 % (-69.9) | 69.9 % (-69.9) |',
    '| round 3, B200 gist | 2 | 61.0 % (+18.1) | 61.0 % (+18.1) | 34.3 % (+7.0) | 34.3 % (+7.0) |',
    "",
    "The 10 largest throughput and latency residuals before (commit d820525, signed):",
    "",
    "| split | case | metric | error |",
    "|---|---|---|---|",
    "| held out 3 | q3spd-30b-a3b-fp8-h20-tp1-in1 | total_tok_s | +235.0% |",
    "| held out 3 | q3spd-235b-a22b-fp8-h20-tp4-in1 | total_tok_s | +210.6% |",
    "| held out 3 | q3spd-30b-a3b-fp8-h20-tp1-in6144 | total_tok_s | +199.9% |",
    "| held out 1 | gpustack-q32b-h100-trtllm-fp8-random-32k | total_tok_s | +197.4% |",
    "| held out 3 | q3spd-235b-a22b-bf16-h20-tp8-in1 | total_tok_s | +186.7% |",
    "| held out 3 | q3spd-235b-a22b-fp8-h20-tp4-in6144 | total_tok_s | +184.4% |",
    "| held out 1 | gpustack-q32b-h100-trtllm-fp8-random-2k | total_tok_s | +174.2% |",
    "| held out 3 | q3spd-235b-a22b-bf16-h20-tp8-in6144 | total_tok_s | +161.0% |",
    "| held out 1 | gpustack-q32b-h100-trtllm-fp8-random-4k | total_tok_s | +152.8% |",
    "| held out 3 | q3spd-30b-a3b-fp8-h20-tp1-in14336 | total_tok_s | +149.2% |",
    "",
]


# Round 4 spent: the recalibration after its one evaluation (hand-written, 2026-12-01, issue 11; the figures are the ones
# this commit's run printed, the "before" column the committed report of ef8d26c).
RECAL_ROUND4 = [
    "### Round 4 spent: TP over PCIe, an erratum, and what was not changed (hand-written, 2026-12-01, issue 11)",
    "",
    "Round 4 was evaluated once (commit ef8d26c, \"Round 4: its one evaluation\" above) and then studied, so rounds 1-4 "
    "are all spent: checks that may calibrate. Round 5 is being gathered by another helper who never sees this work "
    "(`heldout5_*`, its own split, read by no fitter). Every change below is a mechanism with a source, checked on every "
    "file at once. The leads, in order:",
    "",
    "1. **Short bursts whose longest replies set the run's length (not modelled; stated as an assumption).** The blog's "
    "sweeps record `--num-prompts` only inside the command text, and no case records the lengths' distribution: "
    "input_len / output_len are means (for the blog, of 100 prompts in another post). A run's tail needs the "
    "distribution, which would be a new data source, so the estimator keeps every request at the mean length and now "
    "says so on every burst (`serving.burst_lengths`: a short run lasts as long as its longest replies, so with lengths "
    "that vary it delivers less than the estimate). IOG's rate-32 runs of 200 prompts are open loops in the schema; "
    "they stay as they are.",
    "2. **Tensor parallelism between GPUs without NVLink (adopted).** vLLM's own all-reduce "
    "(vllm/distributed/device_communicators/custom_all_reduce.py, CustomAllreduce.__init__) switches itself off on more "
    "than two GPUs that are not fully NVLink-connected (\"Custom allreduce is disabled because it's not supported on more "
    "than two PCIe-only GPUs\", logged at custom_all_reduce.py:134-154 across releases) and wherever "
    "`gpu_p2p_access_check` fails (\"your platform lacks GPU P2P capability or P2P test failed\": GeForce RTX 40 cards "
    "have no P2P); SGLang's port does the same. NCCL then carries every all-reduce over PCIe, through host memory where "
    "P2P is missing or the path crosses the CPU's host bridge (the A10G/L4 hosts' `nvidia-smi topo`: PHB / NODE). The "
    "round-4 TP runs show a cost per byte, not per call: on 2-4 A10Gs the TPOT is predicted 2-8 % fast at one user and "
    "20-39 % fast at 32, where the same GPU at TP 1 is within 1 %; 2-4 RTX 4090s 13-42 % fast at one user. Modelled as "
    "a share of the PCIe rate that an all-reduce reaches (`PCIE_ALLREDUCE_SHARE`) and a latency per call "
    "(`ALLREDUCE_LATENCY_US['pcie']`, a 25 µs prior before), fitted together by the new `--calibrate-tp` on every "
    "vLLM/SGLang TPOT between PCIe-only GPUs of the calibration files and the spent rounds (TP_FIT_SPLITS; each source "
    "weighted once): 17 cases, all in round 4 (the ddiiwoong blog's A10G sweeps, IOG's RTX 4090 and H100 PCIe runs; "
    "the calibration files have none). Grid minimum: 60 µs and 0.2 (5 GB/s on PCIe 4.0), mean |log error| 0.217 → "
    "0.054; 50 µs with 0.15-0.2 is within 0.006. It moves nothing outside round 4 (no other file has a TP run between "
    "PCIe-only GPUs with a throughput or latency figure). One constant pair for every PCIe GPU: datacenter cards with "
    "P2P (A10G c1 needs 5-17 µs per call) and GeForce cards without it (RTX 4090 c1: 34-97 µs) are averaged; a "
    "catalog field for P2P would separate them (proposed to the lead).",
    "3. **KV pools on 24 GB cards under vLLM 0.27 / 0.28 (not changed).** vLLM's V1 worker now profiles CUDA-graph "
    "memory before sizing the pool (vllm/v1/worker/gpu_worker.py determine_available_memory: "
    "`available_kv_cache_memory_bytes = requested_memory - non_kv_cache_memory - cudagraph_memory_estimate_applied`, "
    "with `profile_cudagraph_memory()` when CUDA graphs are on, gated by VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, whose "
    "envs.py comment reads \"Enabled by default as of v0.21.0\"), so from 0.21 the graphs' pool comes out of the KV "
    "pool. The blog's logs do not support a graph-memory term, though: the misses are Qwen2.5-7B at TP 1 (1.9 GiB per GPU "
    "short on an A10G and an L4) and 14B at TP 2 / PP 2 (0.4-1.0 GiB), while the same 7B at TP 2 and TP 4 is within "
    "0.5 GiB, Qwen3-14B at TP 1 on an L40S under 0.28 is within 0.3-0.8 GiB (a graph term for its 40 layers would be "
    "larger, not smaller) and the identical 14B TP 2 layout differs by 0.6 GiB between the A10G (0.27.1) and L4 (0.28.0) "
    "hosts. One thing the logs do show: torch sees 22.04 GiB on the L4 and 22.06 GiB on the A10G (the blog's OOM "
    "messages, in the cases' gpu_as_published), 0.3 GiB less than TORCH_VISIBLE_FRACTION gives from the catalog's "
    "22.49 GiB (H100: 79.22 of 79.65 GiB, the same 0.43 GiB); a per-GPU visible-memory figure belongs in the catalog "
    "(proposed to the lead) and explains 0.3 of the 1.9 GiB. Nothing was changed.",
    "4. **SGLang #7631 (erratum).** The case's command runs `--mem-fraction-static 0.9`, which the frozen case left "
    "unset; errata.yaml sets `engine_args.gpu_memory_utilization: 0.9` with the command as the reason (the file stays "
    "as frozen). With it DeepSeek-V3 FP8 fits on 8× H20: TTFT +6,211 % → -65 %, output tok/s -64.5 % → +24.8 %, E2E "
    "+188 % → -18.1 %.",
    "5. **TTFT and MoE decode (not changed).** `--calibrate-moe` by its unchanged rule, now with round 4's three MoE "
    "runs, scans flat from 40 to 60 µs (0.307 / 0.307 / 0.309; the grid minimum 50 µs) and at 50 µs moves round 2's "
    "latency 16.9 % → 19.7 % and round 3's throughput 13.7 % → 14.9 % for 0.1 point on round 4: a constant moved by "
    "noise, not a mechanism, so 60 µs stays. The vLLM MoE runs decoding faster than modelled (vLLM #23151 with its tuned "
    "E=128,N=768 H100 config, TPOT +32.6 %; Mixtral on 2× H200 E2E +37.5 %) point at the tuned-config question (vLLM falls "
    "back to a default tile config, \"Using default MoE config. Performance might be sub-optimal!\", where no "
    "E,N,device file exists) and at the H200's weight-read cap (55 % of its bandwidth), neither settled here. TTFT stays "
    "short (round 4 signed -33.4 % after, 14 figures; the two MoE-config PRs' c8 / c10 random-dataset runs -65 % and "
    "-77 %); no mechanism was found in the time.",
    "",
    "Median error (signed in brackets) before → after, `python benchmarks/serving.py` (\"before\" = the committed report of "
    "ef8d26c; the middle columns set one change at a time; KV: figures within 5 %):",
    "",
    "| split, metric | figures | before (committed) | erratum only | TP over PCIe only | both (this report) |",
    "|---|---|---|---|---|---|",
    '| calibration, throughput | 70 | 9.5 % (-0.6) | 9.5 % (-0.6) | 9.5 % (-0.6) | 9.5 % (-0.6) |',
    '| calibration, latency | 36 | 13.1 % (-1.5) | 13.1 % (-1.5) | 13.1 % (-1.5) | 13.1 % (-1.5) |',
    '| calibration, kv | 9 | 8/9 within 5 % | 8/9 within 5 % | 8/9 within 5 % | 8/9 within 5 % |',
    '| held out, round 1 (spent), throughput | 27 | 9.8 % (+8.2) | 9.8 % (+8.2) | 9.8 % (+8.2) | 9.8 % (+8.2) |',
    '| held out, round 1 (spent), latency | 19 | 29.3 % (-21.9) | 29.3 % (-21.9) | 29.3 % (-21.9) | 29.3 % (-21.9) |',
    '| held out, round 1 (spent), kv | 7 | 7/7 within 5 % | 7/7 within 5 % | 7/7 within 5 % | 7/7 within 5 % |',
    '| held out, round 2 (spent), latency | 40 | 16.9 % (-16.9) | 16.9 % (-16.9) | 16.9 % (-16.9) | 16.9 % (-16.9) |',
    '| held out, round 3 (spent), throughput | 85 | 13.7 % (+10.7) | 13.7 % (+10.7) | 13.7 % (+10.7) | 13.7 % (+10.7) |',
    '| held out, round 3 (spent), latency | 1 | 41.3 % (+41.3) | 41.3 % (+41.3) | 41.3 % (+41.3) | 41.3 % (+41.3) |',
    '| held out, round 3 (spent), kv | 7 | 5/7 within 5 % | 5/7 within 5 % | 5/7 within 5 % | 5/7 within 5 % |',
    '| held out, round 4 (spent), throughput | 66 | 38.2 % (+33.6) | 36.6 % (+33.6) | 30.5 % (+25.4) | 30.4 % (+25.6) |',
    '| held out, round 4 (spent), latency | 71 | 12.7 % (-4.9) | 12.7 % (-6.4) | 8.9 % (+2.3) | 8.9 % (+1.1) |',
    '| held out, round 4 (spent), kv | 27 | 17/27 within 5 % | 17/27 within 5 % | 17/27 within 5 % | 17/27 within 5 % |',
    '| round 4, output_tok_s | 20 | 27.5 % (-3.0) | 25.6 % (-2.8) | 27.5 % (-3.0) | 25.6 % (-2.8) |',
    '| round 4, total_tok_s | 46 | 47.3 % (+47.3) | 47.3 % (+47.3) | 31.5 % (+30.5) | 31.5 % (+30.5) |',
    '| round 4, ttft_ms | 14 | 35.4 % (-34.5) | 35.4 % (-35.4) | 33.4 % (-22.7) | 33.4 % (-33.4) |',
    '| round 4, tpot_ms | 53 | 9.6 % (-1.6) | 9.6 % (-1.6) | 6.8 % (+3.1) | 6.8 % (+3.1) |',
    '| round 4, e2e_ms | 4 | 28.6 % (+28.6) | 18.9 % (+12.3) | 28.6 % (+28.6) | 18.9 % (+12.3) |',
    '| round 4, TP between PCIe GPUs | 39 | 36.3 % (-3.5) | 36.3 % (-3.5) | 16.3 % (+8.9) | 16.3 % (+8.9) |',
    '| round 4, sglang #7631 | 3 | 188.0 % (+188.0) | 24.8 % (-18.1) | 188.0 % (+188.0) | 24.8 % (-18.1) |',
    "",
    "The 10 largest throughput and latency residuals before (the committed report of ef8d26c, signed):",
    "",
    "| split | case | GPU × n | metric | measured | predicted | error |",
    "|---|---|---|---|---|---|---|",
    '| held out 4 (spent) | sglang7631-dsv3-0324-fp8-8xh20-tp8-c8 | H20 × 8 | ttft_ms | 257 | 16,190 | +6211.1% |',
    '| held out 4 (spent) | iog-l3-70b-2xh100-pcie-qps32 | H100-PCIe × 2 | output_tok_s | 546 | 20.47 | -96.2% |',
    '| held out 1 (spent) | mushfiq-mistral7b-rtx4090-c48 | RTX-4090 × 1 | ttft_ms | 667 | 95.35 | -85.7% |',
    '| held out 4 (spent) | vllm23151-qwen3-30b-a3b-h100-c10 | H100 × 1 | ttft_ms | 267 | 62.99 | -76.4% |',
    '| held out 1 (spent) | mushfiq-mistral7b-rtx4090-c32 | RTX-4090 × 1 | ttft_ms | 362 | 90.99 | -74.9% |',
    '| held out 3 (spent) | sglang6681-q25-32b-2xh20-tp2-1024-128-c512 | H20 × 2 | req_s | 3.57 | 1.07 | -69.9% |',
    '| held out 3 (spent) | sglang6681-q25-32b-2xh20-tp2-1024-128-c512 | H20 × 2 | total_tok_s | 4,107 | 1,237 | -69.9% |',
    '| held out 3 (spent) | sglang6681-q25-32b-2xh20-tp2-1024-128-c512 | H20 × 2 | output_tok_s | 456 | 137 | -69.9% |',
    '| held out 4 (spent) | ddiiwoong-quant-q25-7b-fp8-l40s-c10 | L40S × 1 | total_tok_s | 480 | 1,595 | +231.9% |',
    '| held out 4 (spent) | ddiiwoong-capstone-q3-14b-awq-1xl4-single-c32 | L4 × 1 | ttft_ms | 515 | 165 | -67.9% |',
    "",
]

# Hand-written after round 6's evaluation (2026-12-02, issue 11): mechanisms read from the engines' code, checked on the
# spent rounds 1-6 at once, before round 7 (held out, collected apart, not seen by this change) is evaluated.
RECAL_ROUND6 = [
    "### Since round 6's evaluation: vLLM multi-step scheduling, and what was not changed (hand-written, 2026-12-02, "
    "issue 11)",
    "",
    "Rounds 1-6 are spent; a seventh round is being collected apart and was not seen. Each lead is a mechanism from an "
    "engine's code or a sourced catalog fact, checked on every spent round at once (a table per split and category, "
    "before → after: only round 6 moved); no constant was fitted. Round 6's one evaluation is printed above as it was "
    "(ROUND6_EVALUATION), its live figures under \"Since round 6's evaluation\".",
    "",
    "| split | throughput: median error, before → after | latency | KV within 5 % |",
    "|---|---|---|---|",
    "| calibration | 9.5 % → 9.5 % (70) | 13.1 % → 13.1 % (36) | 8/9 → 8/9 |",
    "| round 1 (spent) | 9.8 % → 9.8 % (27) | 29.3 % → 29.3 % (19) | 7/7 → 7/7 |",
    "| round 2 (spent) | — | 16.9 % → 16.9 % (40) | — |",
    "| round 3 (spent) | 13.7 % → 13.7 % (85) | 41.3 % → 41.3 % (1) | 4/7 → 4/7 |",
    "| round 4 (spent) | 30.4 % → 30.4 % (66) | 8.9 % → 8.9 % (71) | 20/27 → 20/27 |",
    "| round 5 (spent) | 31.3 % → 31.3 % (3) | 20.5 % → 20.5 % (1) | 1/1 → 1/1 |",
    "| round 6 (spent) | 30.7 % → 31.9 % (8) | 73.1 % → 68.0 % (24) | — |",
    "| round 6, vLLM 0.6.0 source | 21.6 % → 24.2 % (4) | 33.9 % → 17.7 % (12) | — |",
    "| round 6, DeepSeek-V3 source | 51.7 % → 51.7 % (4) | 82.5 % → 82.5 % (12) | — |",
    "",
    "1. **vLLM multi-step scheduling (adopted).** vLLM 0.6-0.8's `--num-scheduler-steps N` (PR #7000, V0 engine): "
    "`LLMEngine.step()` calls the scheduler only when the running group has no steps left (vllm/engine/llm_engine.py, "
    "`if not self._has_remaining_steps(seq_group_metadata_list)`), a prompt without chunked prefill runs as a step of "
    "its own (vllm/sequence.py `init_multi_step_from_lookahead_slots`: 0 lookahead slots, `num_steps = 1`) and returns "
    "its first token at once, and decode outputs come back a group at a time (the page's Median ITL ≈ 10 × its Median "
    "TPOT). The estimator (tools/serving_perf.py `closed_loop`, `group_rounding_ms`): a request that finds the engine "
    "busy waits for the rest of the running group, N · t_step / 2 on average, then is prefilled in one step with the "
    "prompts that arrived meanwhile (λ · N · t_step of them), instead of half a step and the M/D/1 queue; its last "
    "token waits (N − 1) / 2 steps for its group to end; the wait is time in the system (E2E). The option travels as "
    "`tools.serving_profiles.EngineScheduling` (benchmarks/serving.py `scheduling_for`, from the EngineArgs fields "
    "`num_scheduler_steps`, `enable_dp_attention`, `dp_size`); the six vLLM 0.6.0 cases of round 6 get "
    "`num_scheduler_steps: 10` from their own `command` through errata.yaml (the frozen file is unchanged). Round 6, "
    "vLLM 0.6.0 source: median TTFT -44.1 / -51.6 / -67.5 / -70.8 % → +18.5 / +17.9 / -17.1 / -14.2 % (A100 rate 4, "
    "rate 8; 4× H100 rate 4, rate 8), TPOT -8.1 / -3.1 / -20.0 / -18.8 % → -5.2 / +0.7 / -17.5 / -15.7 %, E2E +47.7 / "
    "+50.8 / +23.7 / +22.0 % → +56.0 / +60.5 / +30.6 / +29.8 % (the median request is shorter than the mean one the "
    "estimate is for: lead 4), the 5,000-prompt bursts -29.0 / -14.3 % → -31.3 / -17.1 % (A100, 4× H100). The source "
    "goes from 21.6 % / 33.9 % (throughput / latency median error) to 24.2 % / 17.7 %; round 6 pooled from 30.7 % / "
    "73.1 % to 31.9 % / 68.0 % (the DeepSeek-V3 file did not move). Not applied: the flag's other effect, one "
    "scheduling and input preparation per N steps. Dividing the vLLM profile's per-step and per-sequence costs by N was "
    "measured: bursts +18.3 / -5.0 % (4× H100, A100), TPOT -20 … -35 %, the source 11.7 % / 22.5 % — it moves the "
    "decode step, the "
    "most direct figure, from within 18 % to 20-35 % too fast: those costs were fitted mostly on engines whose "
    "per-step CPU work is already small (vLLM V1: a persistent batch, detokenising in the front-end process; the "
    "Lambda 0.6 runs, which used this flag), so the flag is not a second saving on top of them. No "
    "other spent case states the flag (Lambda's 0.6 runs show ITL ≈ 10 steps but print no command: left as they are).",
    "2. **SGLang DP attention (recorded, not modelled).** SGLang 0.4.x with `--enable-dp-attention` sets dp_size = "
    "tp_size, halves the chunked-prefill size, caps CUDA graphs at 96 running requests per rank, cuts the schedule "
    "conservativeness to 0.3× and turns the overlap scheduler off (python/sglang/srt/server_args.py __post_init__); "
    "attention runs per rank on its own requests (MLA's latent KV no longer replicated over the TP ranks: about 8× the "
    "sequences on 8 GPUs) while the MoE layers stay sharded. The four DeepSeek-V3 cases now state it (errata.yaml). "
    "Modelled as the code reads it, every part of that layout makes the estimate faster or larger (more KV capacity, "
    "each rank reading only its own requests' KV), while the estimate is already above what the server delivered "
    "(output +32 … +85 %) and the measured median TPOT is 144-676 ms against 28-107 ms estimated: at rate 1 the server "
    "held about 110 sequences (Little's law: 0.75 req/s served × 148 s) at 144 ms a step, 6-8× the time to read "
    "DeepSeek-V3's FP8 weights once per step on 8 H200s (84 GB per GPU at 4.8 TB/s × 0.8-1). What slowed it (SGLang 0.4.1's block-FP8 fused MoE on H200, the overlap scheduler off, "
    "prefills that stop every rank) is not in these four saturated runs of one server to separate; the layout is left "
    "out until a case that is not saturated states it.",
    "3. **Medians under Poisson arrivals (not modelled).** The M/D/1 wait has P(W = 0) = 1 − ρ, so its median is 0 for "
    "ρ ≤ 0.5; a median TTFT would drop the mean wait. On the spent median TTFTs that wait is 0.4-7.3 ms of 53-133 ms "
    "(the ddiiwoong L4 baseline, the DeepSeek-V3 runs): under 6 %. With multi-step scheduling the wait is a uniform "
    "residual of the running group, whose median is its mean. What separates the medians is E2E (round 6's vLLM E2E "
    "+30 … +60 %): ShareGPT's output lengths are skewed, so the median request is shorter than the mean one, and the "
    "estimator carries one mean length, not a distribution (a ServingEstimate field would be needed: "
    "tools/serving_types.py). Not changed.",
    "4. **`p2p: false` and B200 FP32 (not adopted).** The TP runs between PCIe-only GPUs do not separate P2P: median "
    "signed TPOT error at TP 2 is +2.3 % on the RTX 4090 (3 figures, no P2P) and +2.3 % on the A10G (6, P2P), the one "
    "RTX 4090 TP-4 figure -17.8 % (A10G TP 4: +3.6 %, 6); the estimator still does not read `p2p`. B200: NVIDIA's HGX "
    "B200 table lists FP32 75 TFLOPS per GPU (148 SMs × 128 lanes × 2 × 1.98 GHz; as quoted, e.g., "
    "zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html — the NVIDIA page itself is not in the index). "
    "With it the decode weight-read cap would bind on the B200 at 148 × 1.98 GHz × 10 B = 2.9 TB/s (of 8 TB/s), and the "
    "one spent B200 figure (SGLang Qwen3-235B-A22B TPOT, round 3) goes from 41.3 % to 56.1 % (already too slow): the "
    "bytes in flight per SM and cycle, fitted on Ampere/Hopper, do not transfer to Blackwell on this evidence, so "
    "`fp32_tflops` stays null and the B200 keeps no cap.",
    "",
]


# Hand-written after round 7's evaluation (2026-12-02, issue 11): the round-7 leads read from the engines' code, checked
# on the spent rounds 1-7 at once, before round 8 (held out, collected apart, not seen by this change) is evaluated.
RECAL_ROUND7 = [
    "### Since round 7's evaluation: three leads read from the engines' code, one caveat, no constant (hand-written, "
    "2026-12-02, issue 11)",
    "",
    "Rounds 1-7 are spent; an eighth round is being collected apart and was not seen. Each lead was read in the engine's "
    "code or the source's own page and checked on every spent round at once; none yielded a mechanism that the code "
    "states and the spent rounds bear out, so no constant or formula changed and no predicted figure moved (every "
    "split and category below, before → after, and round 7 per source: identical). What changed is a statement: an "
    "estimate on a software stack the constants were not fitted on says so. Round 7's one evaluation is printed above "
    "as it was (ROUND7_EVALUATION).",
    "",
    "| split | throughput: median error, before → after | latency | KV within 5 % |",
    "|---|---|---|---|",
    "| calibration | 9.5 % → 9.5 % (70) | 13.1 % → 13.1 % (36) | 8/9 → 8/9 |",
    "| round 1 (spent) | 9.8 % → 9.8 % (27) | 29.3 % → 29.3 % (19) | 7/7 → 7/7 |",
    "| round 2 (spent) | — | 16.9 % → 16.9 % (40) | — |",
    "| round 3 (spent) | 13.7 % → 13.7 % (85) | 41.3 % → 41.3 % (1) | 4/7 → 4/7 |",
    "| round 4 (spent) | 30.4 % → 30.4 % (66) | 8.9 % → 8.9 % (71) | 20/27 → 20/27 |",
    "| round 5 (spent) | 31.3 % → 31.3 % (3) | 20.5 % → 20.5 % (1) | 1/1 → 1/1 |",
    "| round 6 (spent) | 31.9 % → 31.9 % (8) | 68.0 % → 68.0 % (24) | — |",
    "| round 7 (spent), pooled | 45.1 % → 45.1 % (8) | 38.6 % → 38.6 % (36) | — |",
    "| round 7, ROCm / MI300X file | — | 38.6 % → 38.6 % (32) | — |",
    "| round 7, DeepSeek-V3 AWQ card | 104.0 % → 104.0 % (3) | — | — |",
    "| round 7, SGLang #6121 (4× A40) | 45.1 % → 45.1 % (3) | 90.1 % → 90.1 % (2) | — |",
    "| round 7, vLLM FP8-KV blog (H100) | 5.6 % → 5.6 % (2) | 9.0 % → 9.0 % (2) | — |",
    "",
    "1. **MI300X on ROCm (not modelled; a caveat instead).** The measured decode step (each batch latency minus the "
    "estimated prefill, over its 2,047 steps) against the estimated one: Llama-3.1-70B at TP 8 is slower by +3.7 … +4.3 "
    "ms a step at batch 1-64 with 128-token prompts and at batch 1-16 with 2,048 (47-54 µs per layer), +3.0 / +2.4 ms "
    "at 32 / 64 with 2,048, +2.5 / +0.3 ms at 128 (where the estimate's 100 µs per sequence and step catches up); the "
    "405B by +8.9 … +11.1 ms at batch 1-16 (71-88 µs per layer), +10.8 … +21.8 ms at 32-128. The 70B's miss is a "
    "fixed time per step, not a share: its percentage "
    "shrinks with the batch only because the step grows. Read and not adopted: (i) the all-reduce — the catalog's "
    "MI300X is an NVLink-class part (Infinity Fabric, 896 GB/s over 7 links) charged 10 µs per call, two calls a layer; "
    "vLLM's custom all-reduce on CDNA measures 6-16 µs per TP-8 call at decode sizes (MI355X, vLLM PR #39080's table: "
    "6.3 µs at 24 KB, 16 µs at 768 KB), a few µs per layer more at most, not 47-72; (ii) HIP graphs — vLLM 0.10's V1 "
    "engine captures piecewise graphs with attention outside them on ROCm as on CUDA, and HIP-graph replay costs 3.9 "
    "µs per kernel against Vulkan's 0.9 on RDNA3 (ROCm/rocm-systems issue #10834), which at a Llama layer's dozen-odd "
    "kernels would be the size of the 70B's gap, but that figure is for gfx1100, not the MI300X's gfx942, and it would "
    "not explain the 405B's larger per-layer gap with the same kernels; (iii) the 405B's batch-growing part points at "
    "the fork's FP8 GEMMs (the page's command leaves AITER off) or its attention path, for which no MI300X decode "
    "efficiency was found. Two ROCm constants fitted on this one page (32 cases, one engine build) would be a fit to one "
    "source, which this project does not do. Adopted instead: `CALIBRATED_STACKS` (tools/serving_profiles.py: every "
    "fitted measurement ran on NVIDIA GPUs under CUDA), and an estimate on another stack under a calibrated engine "
    "carries `CaveatCode.stack_uncalibrated` (last among its caveats; `checked_slower` where a published measurement "
    "on that stack and engine ran slower than estimated: vLLM on ROCm, this page). No number changes "
    "(tests/test_serving_stack.py).",
    "2. **DeepSeek-V3 AWQ, batch-1 decode (not modelled).** What the kernel reads: vLLM's AWQ-Marlin config sends "
    "FusedMoE layers with more than 32 experts to the moe_wna16 kernels by default since PR #13236 (merged 2025-02-14; "
    "vLLM issue #13575: \"the default in the case of `num_experts > 32` for AWQ and GPTQMarlin configs\"), so the "
    "card's 0.8.3.dev wheel ran DeepSeek-V3's 256-expert layers through `fused_moe_kernel_gptq_awq` (PR #12185; "
    "vllm/model_executor/layers/fused_moe/fused_moe.py) or its CUDA twin (PR #13321): tokens are sorted by expert in "
    "blocks, each program loads the expert of its block (`off_experts = tl.load(expert_ids_ptr + pid_m)`), dequantises "
    "the int4 tile it reads in registers and returns at once past the padded tokens; a batch-1 step reads the 8 routed "
    "experts and the shared one, as the estimator assumes. The older Marlin MoE (csrc/moe/marlin_moe_ops.cu, vLLM "
    "0.6-0.8) launches one kernel per expert, each returning at once when its expert has no token "
    "(`if (tot_its == 0) return;`): it too reads only the routed experts. Neither path reads every expert, and a full "
    "read would not match the card either: the 43.7 GB per GPU on 8× A100 take 41 ms a step at the estimator's int4 "
    "decode rate (29 ms without the int4 kernel factor), the 87.4 GB per GPU on 4× H200 48 ms (33), against 21.4 and "
    "17.1 ms measured; the naive roofline's match (every weight at 100 % of peak) is two wrong assumptions cancelling. "
    "The measured step is longer than estimated by 13.3 ms on 8× "
    "A100 (218 µs per layer), 8.7 ms on 4× H200 (143 µs) and 4.3 ms on 8× L40S (whose estimate already carries 12.7 "
    "ms of PCIe all-reduce): a per-step or per-layer time of DeepSeek-V3 under the V0 engine beyond the fused-MoE "
    "chain the estimator charges (candidates: MLA's extra projections and absorbed matmuls, the routing, the forked "
    "FlashMLA), which no spent case constrains (none is a vLLM DeepSeek-V3 decode run). Not modelled.",
    "3. **SGLang #6121, 4× A40 (PCIe), TP 4 (not modelled).** At 128 in flight the estimated step is 68.3 ms against "
    "the run's own mean ITL of 52.85 ms (printed by the source, not recorded); 20.8 ms of it is the PCIe all-reduce "
    "(96 calls × (60 µs + 128 × 2,048 × 2 B × 2 × ¾ at 5 GB/s)), and in the waves' prefill the all-reduce is 242 of "
    "330 ms per 2,048-token chunk. SGLang, like vLLM, turns its custom all-reduce off on more than two PCIe-only GPUs, "
    "so NCCL carries it, at a rate set by the machine's PCIe topology (GPUs under one PCIe switch reach each other by "
    "P2P; GPUs behind the CPU's host bridge go through host memory) and by whether NVLink bridges pair the cards (the "
    "A40 takes them) — the PR states neither. At the P2P copy rate (`PCIE_GBPS` is itself a P2P copy rate: share 1.0) "
    "the case would read TTFT -22 %, E2E +25 %, throughput -20 % (from +97.6 / +82.7 / -45.1 %), but a share chosen by "
    "the catalog's per-GPU `p2p` would stand a GPU fact in for a machine's topology, and the spent TP runs did not "
    "separate P2P (round 6's reading, lead 4). Not changed; the A40 keeps `p2p` unset.",
    "4. **What the spent rounds' largest residuals share.** Ranked by median |log error| × √figures, the largest spent "
    "groups are ones already read: SGLang 0.4.1 DeepSeek-V3 under DP attention (saturated, round 6), GPUStack's "
    "TensorRT-LLM bursts (round 1), SGLang #6681's 512-user run (a warm radix cache, round 3), the IOG H100 PCIe TP-2 "
    "run the estimate cannot start (round 4), the ddiiwoong short sweeps (round 4's burst reading). No mechanism "
    "common to them was found that the code states; not changed.",
    "",
]


# Hand-written after round 8's evaluation (2026-12-02, issue 11): calibration round 9 on the spent rounds 1-8 at once,
# before round 9 (held out, collected apart, not seen by this change) is evaluated.
RECAL_ROUND9 = [
    "### Since round 8's evaluation: calibration round 9 (hand-written, 2026-12-02, issue 11)",
    "",
    "Rounds 1-8 are spent; a ninth round is being collected apart and was not seen. Three leads, each read in the "
    "engine's code or release notes and checked on every spent round at once. One mechanism adopted (vLLM's async "
    "scheduling, no new constant); the KV-capacity misses and the median TTFTs are decomposed below and left as they "
    "are. Before → after (median error; KV: cases within 5 %):",
    "",
    "| split | throughput: median error, before → after | latency | KV within 5 % |",
    "|---|---|---|---|",
    "| calibration | 9.5 % → 9.5 % (70) | 13.1 % → 13.1 % (36) | 8/9 → 8/9 |",
    "| round 1 (spent) | 9.8 % → 9.8 % (27) | 29.3 % → 29.3 % (19) | 7/7 → 7/7 |",
    "| round 2 (spent) | — | 16.9 % → 16.9 % (40) | — |",
    "| round 3 (spent) | 13.7 % → 13.7 % (85) | 41.3 % → 41.3 % (1) | 4/7 → 4/7 |",
    "| round 4 (spent) | 30.4 % → 30.6 % (66) | 8.9 % → 9.0 % (71) | 20/27 → 20/27 |",
    "| round 4, ddiiwoong blog (vLLM 0.8.5 / 0.27 / 0.28) | 30.6 % → 31.8 % (49) | 7.9 % → 8.5 % (46) | 18/23 → 18/23 |",
    "| round 5 (spent) | 31.3 % → 31.3 % (3) | 20.5 % → 20.5 % (1) | 1/1 → 1/1 |",
    "| round 6 (spent) | 31.9 % → 31.9 % (8) | 68.0 % → 68.0 % (24) | — |",
    "| round 7 (spent), pooled | 45.1 % → 45.1 % (8) | 38.6 % → 38.6 % (36) | — |",
    "| round 7, vLLM FP8-KV blog (vLLM 0.19.1, H100) | 5.6 % → 6.5 % (2) | 9.0 % → 9.6 % (2) | — |",
    "| round 8 (spent), pooled | 10.1 % → 7.1 % (16) | 15.9 % → 10.3 % (18) | 1/1 → 1/1 |",
    "| round 8, Max-Q file (vLLM 0.18) | 12.3 % → 6.8 % (7) | 26.2 % → 15.7 % (14) | — |",
    "",
    "1. **vLLM async scheduling (adopted).** vLLM v0.14.0 turned `--async-scheduling` on by default (PR #27614; the "
    "release notes: \"Async scheduling enabled by default (#27614): Overlaps engine core scheduling with GPU "
    "execution\", excluding \"pipeline parallel, CPU backend, non-MTP/Eagle spec decoding\"; "
    "github.com/vllm-project/vllm/releases/tag/v0.14.0, as quoted in OpenBMB/UltraRAG PR #259): the engine core keeps "
    "a batch queue of depth 2 (vllm/v1/engine/core.py `step_with_batch_queue`), schedules and prepares step n + 1 while "
    "the GPU runs step n, and feeds step n's sampled tokens to step n + 1 on the GPU. The per-sequence CPU time of a "
    "step (the profile's 100 µs, fitted on engines that ran synchronously: V0 and V1 before 0.14) therefore runs "
    "beside the GPU's work instead of after it: a decode step takes max(GPU work, CPU work) "
    "(tools/serving_perf.py `step_time`, `Plan.cpu_overlap`). The option travels as "
    "`EngineScheduling.async_scheduling` (tools/serving_profiles.py; `vllm_async_scheduling` reads the release's "
    "default, on from 0.14 on the V1 engine, `VLLM_ASYNC_SCHEDULING_FROM`); benchmarks/serving.py `scheduling_for` "
    "takes it from a case's `engine_args.async_scheduling`, else from its `engine_version`; under pipeline parallelism "
    "it stays off, as vLLM leaves it; not stated, it is not applied (the advisor's default request is unchanged). No "
    "constant changed. The spent cases on vLLM ≥ 0.14: round 8's Max-Q sweep (0.18): TPOT at 128 users +54.5 / +96.8 "
    "% → -8.0 / +32.2 % (BF16 / FP8), output tok/s -32.9 / -46.3 % → +12.4 / -20.3 %, at 16 users TPOT +15.0 / +16.8 % "
    "→ +1.8 / -5.8 %; the file's median signed TPOT +15.0 % → -0.4 %, output tok/s -12.3 % → -0.2 %. Round 4's "
    "ddiiwoong 0.27 / 0.28 runs: median signed TPOT +1.0 % → -1.4 % (34), but its A10G TP 1-4 runs at 32 users go "
    "from +0 … +1 % to -5.7 … -13.0 % (the estimate now slightly fast: with async scheduling some CPU work — "
    "the output of a step that changed the batch — stays on the critical path, which this max() leaves out), and its "
    "already over-predicted short-prompt bursts grow (total tok/s median +30.5 % → +31.5 %; round 4's burst reading). "
    "Round 7's FP8-KV blog (0.19.1, 8 users, 20K prompts): output tok/s -4.5 / +6.7 % → -0.2 / +12.9 %. The "
    "calibration split's one ≥ 0.14 decode figure (the A100-40GB blog, one user) moves +0.4 % → +1.2 %. Not "
    "applied to SGLang (its overlap scheduler is on in every fitted SGLang run, so its constants already carry it).",
    "2. **KV capacity (not changed; each miss decomposed from its own log).** The logs that print vLLM's breakdown "
    "say where each spent miss lies: (i) `vllm15815-q25-32b-2xl40s-tp2-10k` (V0 0.7.1, 2× L40S): weights 30.71 / "
    "non-torch 0.30 / activation peak 1.26 GiB logged, 30.51 / 0.75 / 1.51 estimated, net -0.51 GiB (-6.6 %). The "
    "PCIe non-torch 0.75 GiB is what the calibration log (vLLM #13061, 2× RTX 4090 TP 2, tokens within 0.3 %) and "
    "round 4's TP 2 / TP 4 pools (within 2.6 %) need; the activation peak equals PR #10511's 1.26 GiB for Llama-3-8B "
    "at 8,192 tokens, where the sort warm-up at 39 B per logit over Qwen's 152,064-token vocabulary gives 1.41 + 0.10 "
    "GiB — two logs that disagree on the warm-up's bytes by 0.25 GiB; one log does not choose. (ii) "
    "`oci-aqua-llama31-8b-a10-131k-kv` (V0 0.7.x, chunked prefill at a 131,072 context): non-torch 0.05 and "
    "activation 0.22 GiB logged — the forward pass of 2,048 tokens alone (0.21 GiB by `forward_peak_bytes`), no "
    "sampler warm-up — against 1.21 GiB estimated (the sort warm-up over 256 × 128,256 logits); but vLLM #13061 "
    "(0.7.x, chunked at the same context, calibration) is matched within 0.3 % only with that warm-up. The OCI log "
    "names neither model nor GPU and not its max_num_seqs (a smaller one shrinks the warm-up: "
    "`min(max_num_seqs, max_num_batched_tokens)` rows); not changed. (iii) `lmcache1241-*` (vLLM 0.9.0, \"dual-GPU "
    "4090 machine\"): 1.10 / 0.79 GiB per GPU short. vLLM's V1 profiler counts every process's memory on the GPU as "
    "non-torch (vllm/v1/worker/gpu_worker.py `determine_available_memory`: `non_torch_allocations = (total − free) − "
    "torch allocated`), so a desktop session on a workstation card comes out of the pool; the issue states neither "
    "that, the checkpoint nor the parallelism (TP 2 assumed). (iv) round 4's ddiiwoong pools: the per-rank weights "
    "the log prints (14.29 / 7.16 / 3.63 GiB for Qwen2.5-7B at TP 1 / 2 / 4; 13.93 / 13.79 / 6.95 for 14B at TP 2 / "
    "PP 2 / TP 4) are within 0.2 GiB of the estimate (14.19 / 7.09 / 3.55; 13.76 / 13.76 / 6.88); the overhead they "
    "imply (0.9 × torch-visible − logged weights − pool) is 2.21 GiB for the 7B at TP 1 on both hosts, 0.77-1.17 at TP "
    "2, 0.53-0.58 at TP 4, and 0.95-1.57 / 1.51 / 0.65-0.91 for the 14B, against 0.67 (TP 1) and 1.02 GiB estimated. "
    "A term of about 2 GiB / TP (the CUDA-graph pool vLLM ≥ 0.21 subtracts) would fit the 7B, but the same 0.28 "
    "engine at TP 1 on an L40S (Qwen3-14B, 40 layers) is within 0.2 % without it, one layout differs by 0.6 GiB "
    "between the A10G and L4 hosts, and the source reports 9.10 or 10.33 GiB for one single-L4 server by run. No "
    "change that the code states fits every log; every KV case of every spent round is where it was (above).",
    "3. **Median TTFT in a short-prompt closed loop (not modelled).** Round 8's Max-Q file: at one user the measured "
    "median 20.7 / 20.0 ms (BF16 / FP8) against 41.5 / 36.1 ms, of which 30 ms is vLLM's request overhead fitted by "
    "`--calibrate-ttft` on the calibration TTFT rows: the miss at one user is that overhead on this stack, not the "
    "statistic (one request: median = mean). At 128 users the runs are fixed-length waves (`arrivals: together`): "
    "every request of a wave ends on the same step and the next wave arrives together, so no request joins a running "
    "batch and the join-vs-first distribution does not arise; the measured 165-205 ms is what a serial cost of 2.6-3.2 "
    "ms per request before the engine would give the median request (64 ahead of it), while the fitted front-end cost "
    "(`request_cpu_ms`, 30 ms per request, from the burst runs) would give 1.9 s — no one constant fits both, and the "
    "source does not say whether it is the server's front end or the client. Round 6's medians (68 %) are the "
    "saturated SGLang DeepSeek-V3 runs (round 6's lead 2), and the M/D/1 wait the median would drop is under 6 % of "
    "its vLLM TTFTs (round 6's lead 3). No mechanism the code states gives these medians; not changed.",
    "",
]


# Hand-written after round 13's evaluation (2026-12-04, formula round on spent data): five rules read from vLLM's code
# and the cases' own commands, each checked on the spent cases that motivated it (tests/test_serving_case_rules.py).
RECAL_ROUND13 = [
    "### Since round 13's evaluation: the release, the profiler generation, the A100 80GB, the usage context and "
    "waves (hand-written, 2026-12-04)",
    "",
    "Rounds 1-13 are spent (round 13 was evaluated once, ROUND13_EVALUATION above, and its rows read to choose what "
    "follows; it keeps its label until the lead relabels it). No constant was refitted on held-out data; one "
    "constant is new (NON_TORCH_SINCE_BASELINE_GIB, read off printed logs). Before (main at b66a0d0) → after, from "
    "this report's summary and target lines:",
    "",
    "| split | throughput | latency | KV median | KV within 5 % |",
    "|---|---|---|---|---|",
    "| calibration | 9.5% (70) | 13.1% (36) | 0.5% → 2.6% (9) | 8/9 → 8/9 |",
    "| round 1 | 9.8% (27) | 29.3% (19) | 0.1% → 0.7% (7) | 7/7 |",
    "| round 2 | — | 16.9% (40) | — | — |",
    "| round 3 | 13.7% (85) | 41.3% (1) | 3.3% → 2.3% (7) | 4/7 → 5/7 |",
    "| round 4 | 30.6% (66) | 9.0% (71) | 1.9% → 2.6% (27) | 20/27 → 17/27 |",
    "| round 5 | 31.3% (3) | 20.5% (1) | 0.8% (1) | 1/1 |",
    "| round 6 | 31.9% (8) | 68.0% (24) | — | — |",
    "| round 7 | 45.1% (8) | 38.6% (36) | — | — |",
    "| round 8 | 7.1% (16) | 10.3% (18) | 0.5% (1) | 1/1 |",
    "| round 9 | 9.5% (15) | 15.6% (43) | 17.7% (1) | 0/1 |",
    "| round 10 | 9.3% (23) | 15.1% (23) | 180.4% → 181.0% (2) | 0/2 |",
    "| round 11 | 22.7% → 23.1% (31) | 30.6% (21) | — | — |",
    "| round 12 | 21.3% (8) | 3.1% (6) | 1.8% → 0.9% (19) | 14/19 → 18/19 |",
    "| round 13 | 10.8% (5) | 17.7% → 17.3% (6) | 0.9% → 1.4% (14) | 10/14 → 14/14 |",
    "",
    "1. **The case's engine release reaches the estimator** (`release_of`: the first version number of "
    "`engine_version`). The field existed (c5f90f2) but the benchmark never set it, so every release-dependent pool "
    "rule read \"unstated\". kagaho (vLLM 0.16.0, TP 2): NCCL out of the headroom from 0.11, +0.5 → +2.2 %.",
    "2. **vLLM's non-torch memory by profiler generation** (tools/kv_pool.py `non_torch_since_baseline`). vllm/utils "
    "`memory_profiling` charges `non_torch_increase`, what grew since the baseline snapshot, so the CUDA context is "
    "not charged (PR #10511, and PR #11809 for 0.7.0, which measures it against `memory_reserved`; V1 from PR #19312, "
    "which vLLM issue #21348's thread ties to 0.9). V0 ≤ 0.6 and V1 0.8 charge everything on the device. Releases "
    "with the baseline are now charged NON_TORCH_SINCE_BASELINE_GIB = 0.07 GiB, the median of the increases such "
    "logs print on one GPU (0.05, 0.07, 0.16), in place of NON_TORCH_GIB[1] = 0.40. cssnoeasy BF16 -5.1 → -1.6 %, "
    "demo_env_l4 -9.3 → -2.4 %, sridhar1804 -5.1 → -2.6 %. The calibration TP logs 13061 (0.7.x, 2× RTX 4090) and "
    "21348 (0.9.x, 4× H100) move -0.3 / -0.6 → +4.2 / +3.4 % (13061's GiB figure, -14.3 → -10.5 %, stays the one calibration KV miss). 13061 prints non_torch_memory 0.25 GiB, near the "
    "0.42 now charged, so its residual is elsewhere: the issue's own sum, 23.08 = 13.95 + 0.25 + 0.19 + 8.69 GiB, "
    "is 0.98 × a 23.55 GiB total where the catalog has 23.86 for the RTX 4090 (not changed: no log line quoted). "
    "ddiiwoong's vLLM 0.27/0.28 pools, already over on one GPU (+49 %; the CUDA-graph estimate these releases "
    "subtract is not charged, tools/kv_pool.py), go further over. `--calibrate-memory` crashed on its own grid "
    "(NCCL share below 0); it now skips those points, reproduces 0.4 / 2.5 / 0.75 at main, and suggests "
    "pcie 1.0 with this rule (on 13061 alone; not taken).",
    "3. **The A100 80GB's torch-visible memory**, 79.25 GiB, from the LukeJYK/AutoScientists vLLM log (\"Free memory "
    "on device (78.84/79.25 GiB)\", \"(0.9, 71.33 GiB)\"). It was 79.35 × 0.9947 = 78.93. The PCIe part gets the "
    "same figure, derived from the same die and nvidia-smi total. cssnoeasy -1.6 → +1.4 %, lukejyk +0.7 → +2.8 %.",
    "4. **The step budget by usage context** (`ServingRequest.in_process`, read from the command by "
    "`in_process_of`). In vllm/engine/arg_utils.py `get_batch_defaults`, the LLM class has 16384 / 8192 "
    "max_num_batched_tokens and the OpenAI server 8192 / 2048. The spent tokenkaki logs print 2048 for the 0.9.2 "
    "server and 8192 for both offline engines. Those cases state the figure, so they do not move. Only round 7's "
    "ROCm offline batches move, by ≤ 0.02 %.",
    "5. **Waves from the command** (`arrivals_of`): a closed loop whose command passes `--ignore-eos` with fixed "
    "lengths is read as together (the `arrivals` field's own rule). Only faradawn's vLLM runs move: TTFT 34.9 / 38.5 / "
    "38.8 → 34.9 / 44.2 / 57.4 ms against 30.5 / 56.7 / 75.6 measured. The rule reads the command, not the lengths "
    "text: ddiiwoong's texts say \"No --ignore-eos\", and reading them too moved round 4's latency median 9.0 → 9.9 %.",
    "",
]

# Hand-written after round 11's evaluation (2026-12-03): two kernels vLLM lacks below SM 8.0, read from its code and
# checked on the calibration files and every spent round at once; the queueing lead is decomposed and left as it is.
RECAL_ROUND11 = [
    "### Since round 11's evaluation: kernels vLLM lacks below SM 8.0, and what was not changed (hand-written, "
    "2026-12-03)",
    "",
    "Rounds 1-11 are spent. Two mechanisms adopted, each a fact of vLLM's code for GPUs below compute capability 8.0 "
    "(tools/serving_profiles.py `NO_FA2_BELOW_CC`, `MARLIN_FROM_CC`; tests/test_serving_turing.py); no constant was "
    "refitted and no prediction outside round 11 moved (the calibration files and rounds 1-10 hold no vLLM run below "
    "SM 8.0: round 8's V100 file is llama.cpp). Before → after (median error; figures):",
    "",
    "| split | throughput: median error, before → after | latency | KV within 5 % |",
    "|---|---|---|---|",
    "| calibration, rounds 1-10 | unchanged (every summary line byte-identical) | unchanged | unchanged |",
    "| round 11, pooled | 22.7 % → 22.7 % (31; within 25 % 17 → 18) | 29.4 % → 29.4 % (10) | — |",
    "| round 11, KLsatorlac2 (vLLM 0.8.5 V0, T4) | 48.0 % → 42.4 % (12; within 25 % 2 → 3, 50 % 7 → 9) | — | — |",
    "| round 11, KLsatorlac2's batch wall times (read apart) | — | 32.6 % → 30.6 % (11) | — |",
    "| round 11, Livinfly; Jan | 8.2 % → 8.2 % (17); 24.6 % → 24.6 % (2) | 29.4 % → 29.4 % (10) | — |",
    "",
    "1. **No FlashAttention-2 below SM 8.0 (adopted).** vllm/platforms/cuda.py `get_attn_backend_cls` (the V0 path "
    "of 0.8.x; vllm/attention/selector.py before it): `if not cls.has_device_capability(80): # Volta and Turing "
    "NVIDIA GPUs.` → \"Cannot use FlashAttention-2 backend for Volta and Turing GPUs.\", `_Backend.XFORMERS` (the "
    "round's README notes XFormers attention on SM 7.5 for the Kaggle runs). xFormers' memory-efficient prefill kernel is a "
    "FlashAttention-1-class kernel, and FlashAttention-2 is \"around 2x\" faster than FlashAttention, which reaches "
    "25-40 % of the peak against FA2's 50-73 % (Dao 2023, arXiv:2307.08691, abstract). The vLLM prefill MFU (0.55) was "
    "fitted on SM 8.0+ GPUs, so below SM 8.0 the prompt's causal-attention FLOPs run at half of it "
    "(`NO_FA2_ATTENTION_EFFICIENCY`, tools/serving_perf.py `prefill_ms`); the linear layers keep the fitted MFU and "
    "decode attention (vLLM's own paged-attention kernel on every GPU) is unchanged. KLsatorlac2's single long "
    "prompts: output tok/s +104.1 / +63.6 / +47.7 % → +66.1 / +49.3 / +40.6 % (16,384 / 8,192 / 4,096 tokens), "
    "2,048 × 4 +48.4 → +44.7 %; their wall times -51.0 / -38.9 % → -39.8 / -33.0 %.",
    "2. **No Marlin int4 kernel below SM 8.0 (adopted).** vllm/model_executor/layers/quantization/awq_marlin.py "
    "`AWQMarlinConfig.get_min_capability` returns 80 (gptq_marlin.py likewise); below it an AWQ checkpoint runs the "
    "legacy `awq` method (awq.py: the fused `awq_gemm` under 256 tokens, `awq_dequantize` + an fp16 matmul above), "
    "which vLLM flags itself at start-up: \"awq quantization is not fully optimized yet. The speed can be slower than "
    "non-quantized models.\" (vllm/config.py `_verify_quantization`: `awq` is not among "
    "`optimized_quantization_methods`). The fitted int4 factor 0.7 comes from a Marlin run on an A100, so for vLLM "
    "int4 below SM 8.0 a decode step reads its weights no faster than the 16-bit model's (tools/serving_perf.py "
    "`make_plan`: format factor = int4 bytes / fp16 bytes; no parameter). The T4 AWQ batch of 16: output tok/s "
    "+73.7 % → +10.0 %, wall time -42.4 % → -9.1 % (measured: AWQ 957 tok/s against FP16's 844, 13 % faster; the "
    "estimate now gives them the same decode step).",
    "3. **Poisson-load TTFT and TPOT on Livinfly's A100 (not changed).** Mistral-7B at 1 / 2 / 4 req/s: measured mean "
    "TTFT 73 / 152 / 118 ms against 81 / 83 / 89 estimated. The estimate's queue for the prefill ahead (M/D/1) is 1.0 "
    "/ 2.1 / 4.5 ms of it, with a 43 ms prefill at ρ = 0.04-0.17; the uniform length draws (input and output each "
    "from 1 to 1,024) make the prefill time's squared coefficient of variation about 1/3, so an M/G/1 wait "
    "(Pollaczek-Khinchine, λ·E[S²] / 2(1 − ρ)) multiplies it by 4/3: +0.3 / +0.7 / +1.5 ms, not the 70 ms missing at "
    "2 req/s. And the measured TTFT is not monotone in the load (152 ms at 2 req/s, 118 ms at 4; the Qwen3-8B reading "
    "119 ms at 1 req/s where Mistral reads 73), so no queueing term that grows with the load fits these five figures; "
    "the cases carry no length spread for such a term to read either. TPOT at 4 req/s (46 against 27 ms) and the "
    "saturated throughput (+23 … +27 %) point at the V0 engine's per-step CPU work (Python scheduling and input "
    "preparation per sequence), which the profile's 100 µs per sequence, fitted mostly on V1, leaves short; one "
    "spent source does not fix a V0-only constant, so none was fitted.",
    "4. **Hugging Face transformers on the T4 (+76.0 %) and Jan's llama.cpp counters (+19.6 / +29.6 %) (not "
    "changed).** The transformers profile is a prior never calibrated (one figure here: 44 ms per token measured, "
    "25 estimated, which an eager per-layer cost of about 0.8 ms on Kaggle's CPU would give — a per-case constant); "
    "Jan's figures are the app's own counter on Windows 11, llama.cpp build 2249, its prompt processing possibly "
    "included. Neither is a mechanism the code states.",
    "",
]


# Hand-written after round 5's evaluation (2026-12-02, issue 11): catalog facts the estimator lacked, checked on the spent
# rounds 1-5 at once, before round 6 (held out, not seen by this change) is evaluated.
RECAL_ROUND5 = [
    "### Since round 5's evaluation: what torch sees, P2P, and what was not changed (hand-written, 2026-12-02, issue 11)",
    "",
    "Rounds 1-5 are spent; a sixth round is being collected apart and was not seen. Each lead below is a catalog fact "
    "with its source or a mechanism from an engine's code, checked on every spent round at once; no constant was refitted.",
    "",
    "1. **`torch_visible_gib` (adopted).** vLLM sizes its budget as `torch.cuda.mem_get_info()` total × "
    "gpu_memory_utilization, SGLang and TensorRT-LLM from the same total. The catalog now carries that total where a "
    "log shows it (knowledge/catalog/data/gpus.yaml, each with its source and grade): H100 79.22 GiB (vLLM PR #10511), "
    "A100-40GB 39.38 (a PyTorch OOM message on Perlmutter's 40 GB A100s; vLLM #16570), L40S 44.42 (vLLM #15815), L4 "
    "22.04 and A10G 22.06 (PyTorch OOM messages in the ddiiwoong blog's advanced-optimization post), RTX 3090 23.58 "
    "(vLLM #10517, PR #14447), RTX A6000 47.54 (vLLM #10360). Other GPUs keep TORCH_VISIBLE_FRACTION × nvidia-smi's "
    "figure. The L4 and A10G see 0.3 GiB less than before (98.0 % of nvidia-smi's 22.49 GiB, not 99.47 %), the L40S "
    "0.3 GiB less, the RTX A6000 0.25 GiB more (its catalog figure is already torch's); the H100, RTX 3090 and A100-40GB "
    "move by under 0.02 GiB. KV capacity, "
    "figures within 5 % before → after: calibration 8/9 → 8/9 (median 0.6 % → 0.5 %), round 1 7/7 → 7/7, round 3 5/7 → "
    "4/7 (3.3 % → 3.3 %), round 4 17/27 → 20/27 (2.5 % → 2.3 %), round 5 1/1 → 1/1 (0.1 % → 0.8 %). Gained: the "
    "ddiiwoong 2× L4 TP 2 Qwen2.5-14B (7.8 % → 1.9 %), 2× A10G TP 2 Qwen2.5-7B (4.4 % → 2.0 %) and llms-in-clouds' SGLang 4× L4 "
    "(5.9 % → -4.0 %); the blog's L40S pools move 1-2 points closer. Lost: vLLM #15815 (2× L40S TP 2, -2.7 % → -6.6 %): "
    "its own log prints non_torch_memory 0.30 GiB where the estimator's PCIe figure (NON_TORCH_GIB, fitted) is 0.75, "
    "and the old visible-memory surplus hid it — the visible figure is now the logged one, the miss is the non-torch "
    "term, left as fitted (one log). Throughput and latency medians do not move on any round.",
    "2. **`p2p` (fact adopted, mechanism not).** The RTX 4090 is `p2p: false` in the catalog (NVIDIA's driver does not "
    "enable peer-to-peer on GeForce RTX 40: NVIDIA/nccl #1127; tinygrad's patched open kernel module exists to add it). "
    "The estimator does not read it yet: without P2P NCCL moves every hop through host memory, and so it does between "
    "the AWS g5 / g6 GPUs whose path crosses the host bridge (PHB / NODE) — the two are the same path, which "
    "PCIE_ALLREDUCE_SHARE was fitted on (`--calibrate-tp`, round 4 spent). The spent 4090 TP runs do not separate them: "
    "light-load TPOT on 2× RTX 4090 +0.9 / +2.3 / +8.9 % (IOG), on 4× -17.8 % (one case), against +7.6-11.4 % on 2-4× "
    "A10G; a 4090-only share would be a constant fitted to one case. Where it would matter (two PCIe GPUs *with* P2P, "
    "on which vLLM keeps its custom all-reduce) no spent case has a TP decode run.",
    "3. **B200 `fp32_tflops` (not set).** No NVIDIA datasheet value could be cited in the time: a secondary page that "
    "quotes NVIDIA (glennklockwood.com/garden/processors/B200) gives 80 TFLOPS for the 1,000 W HGX part, a spec "
    "aggregator 75.0; the two disagree and neither is the datasheet. Left null, so the decode weight-read cap stays off "
    "on the B200 (round 3's B200 gist: +79 % throughput).",
    "4. **The rest (not changed).** KV pools on 24 GB cards under vLLM ≥ 0.21: after lead 1 the single-GPU Qwen2.5-7B "
    "pools are still +49 % (1.6 GiB per GPU short), while the same model at TP 2 / 4 is within 2.6 % — the round-4-spent "
    "reading's argument against a CUDA-graph term still holds. The MoE layer time on the dense layers of MoE models: "
    "only DeepSeek-V3 (3 of 61 layers dense) among the spent MoE cases; the estimator counts 61 MoE layers, 0.18 ms per "
    "step too much at 60 µs, under 1 % of SGLang #7631's step, and the dense-layer count is not in tools' model shape "
    "(knowledge/catalog/hf_config.py reads `first_k_dense_replace`, tools/vram_shape.py does not carry it). The decode "
    "weight-read cap at large batch and TTFT for short prompts: no spent-round residual was studied for them in this "
    "change; nothing was changed.",
    "",
]


# How a benchmark's time to first token is made up, read from the code (written before round 2 was evaluated).
TTFT_MECHANISM = [
    "## How the first token is timed (read from the code, 2026-12-01, before round 2 was evaluated)",
    "",
    "- The client (`vllm bench serve`, `vllm/benchmarks/lib/endpoint_request_func.py`) takes the start time just "
    "before the POST and stamps TTFT on the first server-sent event that carries `choices`: on `/v1/completions` "
    "even when its text is empty, on `/v1/chat/completions` the role delta. vLLM's chat server "
    "(`vllm/entrypoints/openai/serving_chat.py`) writes that role delta inside its loop over the engine's outputs, "
    "on the first one, so it leaves with the first generated token (vLLM's 2023 chat server sent it before the loop, "
    "where a chat TTFT measured only the front end). TPOT is (E2E − TTFT) / (tokens − 1).",
    "- The server (V1 engine, vLLM 0.8 on): HTTP parsing and request validation; on the chat endpoint only, "
    "parsing the conversation, detecting the template's content format and rendering the Jinja chat template "
    "(vLLM PR #20065 measured the uncached detection at 6-8 s per 1,000 requests and cached it for v0.10; PR #19735 "
    "lets `--chat-template-content-format` skip it); tokenising the prompt in the API-server process; the hop to "
    "the EngineCore process over ZMQ; the EngineCore's busy loop picks the request up at once when idle, otherwise "
    "after the step in flight, and schedules running requests before waiting ones; the prompt gets what is left of "
    "the step's token budget (`max_num_batched_tokens`: 8,192 for the API server on GPUs of 70 GiB or more other "
    "than A100s, else 2,048; `vllm/engine/arg_utils.py`), so a prompt of L tokens takes ⌈L / budget⌉ steps; the "
    "model runner throws away the samples of partial chunks (`discard_request_indices`, "
    "`vllm/v1/worker/gpu_model_runner.py`), so the first token comes with the step that finishes the prompt; it "
    "crosses back over ZMQ, the API server detokenises it incrementally and writes the first event.",
    "- Modelled: the per-request time outside the GPU as one constant per engine (`request_overhead_ms`); the "
    "prefill in chunks of the step budget, each reading the weights and paying the step overhead, plus causal "
    "attention; half a decode step in flight when other requests keep the engine busy; and, from this reading, none "
    "at one user (the client sends the next request only after the last one finished, so the engine is idle) and "
    "E2E = TTFT + (tokens − 1) decode steps, the prefill step yielding the first token (before: half a step at one "
    "user and one decode step too many in E2E).",
    "- Not modelled: the chat endpoint's extra work (the code shows a few ms at most since v0.10); tokenising and "
    "hashing the prompt's blocks for the prefix cache (microseconds per token: a few ms at 8K tokens); GPUStack's "
    "vLLM-versus-SGLang TTFT gap on the same client, GPU and prompts, which nothing found in the code explains.",
]


def largest_residuals(rows: list[Row], n: int = 10) -> list[str]:
    """The n throughput and latency figures with the largest |log error|, computed from this run's rows."""
    perf = [r for r in rows if r.metric.category != "kv" and r.predicted and r.predicted > 0]
    top = sorted(perf, key=lambda r: -abs(math.log(r.predicted / r.measured)))[:n]
    out = [f"The {n} largest throughput and latency residuals of this run:", "",
           "| split | case | GPU × n | metric | measured | predicted | error |", "|---|---|---|---|---|---|---|"]
    for r in top:
        out.append(f"| {SPLIT_SHORT[r.split]} | {r.case.id} | {r.case.gpu} × {r.case.gpus} | {r.metric.value} | "
                   f"{num(r.measured)} | {num(r.predicted)} | {pct(r.signed)} |")
    return out


def by_engine(rows: list[Row]) -> list[str]:
    out = ["| split | engine | figures | median error (ours) | median error (naive) |", "|---|---|---|---|---|"]
    for split in Split:
        for engine in Engine:
            sel = [r for r in rows if r.split == split and r.case.engine == engine and r.metric.category != "kv"]
            if not sel:
                continue
            out.append(f"| {SPLIT_LABEL[split]} | {engine.value} | {len(sel)} | "
                       f"{pct(med([r.error for r in sel if r.error is not None]))} | "
                       f"{pct(med([r.naive_error for r in sel if r.naive_error is not None]))} |")
    return out


def case_table(rows: list[Row]) -> list[str]:
    out = ["| split | case | engine | GPU × n (TP, PP) | model, weights | in / out | load | metric | measured | "
           "predicted | error | naive | naive error |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    order = list(Split)
    for r in sorted(rows, key=lambda r: (order.index(r.split), r.file, r.case.id, r.metric.value)):
        c = r.case
        load = c.load.kind.value + (f" {c.load.value:g}" if c.load.value else "")
        out.append(
            f"| {SPLIT_SHORT[r.split]} | [{c.id}]({c.url}) | {c.engine.value} | {c.gpu} × {c.gpus} "
            f"({c.tp}, {c.pp}) | {c.model}, {c.weights.value} | {c.input_len} / {c.output_len} | {load} | "
            f"{r.metric.value} | {num(r.measured)} | {num(r.predicted)} | {pct(r.signed)} | {num(r.naive)} | "
            f"{pct(None if r.naive is None else (r.naive - r.measured) / r.measured)} |"
        )
    return out


def constants(catalog: Catalog) -> list[str]:
    out = ["| engine | calibrated | bandwidth efficiency | step overhead | per layer | per MoE layer | per sequence | "
           "prefill MFU | large-batch decode MFU | request overhead | front end per request | fitted on |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for engine, p in PROFILES.items():
        out.append(f"| {p.name} | {'yes' if p.calibrated else 'no (prior)'} | {p.bandwidth_efficiency:.3f} | "
                   f"{p.step_overhead_ms:g} ms | {p.layer_overhead_us:g} µs | "
                   f"{p.moe_layer_overhead_us:g} µs{' (spent rounds)' if engine in MOE_ENGINES else ''} | "
                   f"{p.seq_overhead_us:g} µs | "
                   f"{p.prefill_mfu:.2f} | {p.decode_mfu:.2f} | {p.request_overhead_ms:g} ms"
                   f"{'' if engine in TTFT_FITTED else ' (prior)'} | {p.request_cpu_ms:g} ms | "
                   f"{p.cases} figures |")
    factors = ", ".join(f"{f.value} {v:g}{'' if f in serving_profiles.FORMAT_FACTOR_CALIBRATED else ' (prior)'}"
                        for f, v in serving_profiles.FORMAT_BANDWIDTH_FACTOR.items() if f.quantised)
    par = serving_profiles.WEIGHT_READ_PARALLELISM["bytes_per_sm_clock"]
    out += ["", f"Format bandwidth factors (× the 16-bit kernels' efficiency): {factors}.",
            f"Decode weight reads: at most {par:g} bytes in flight per SM and clock cycle × SMs × clock (from the FP32 "
            "peak), fitted with the shared decode constants; the per-MoE-layer time by `--calibrate-moe` on the "
            "calibration files and the spent rounds.",
            f"All-reduce between GPUs without NVLink: {serving_profiles.ALLREDUCE_LATENCY_US['pcie']:g} µs per call and "
            f"{serving_profiles.PCIE_ALLREDUCE_SHARE['share']:g} × the PCIe rate (vLLM's custom all-reduce off, NCCL over "
            "PCIe), fitted by `--calibrate-tp` on the calibration files and the spent rounds.",
            f"Memory: non-torch {serving_profiles.NON_TORCH_GIB[1]} GiB (one GPU) / "
            f"{serving_profiles.NON_TORCH_GIB['nvlink']} GiB (NVLink) / {serving_profiles.NON_TORCH_GIB['pcie']} GiB "
            f"(PCIe) per GPU when the model spans GPUs, fitted; vLLM's profile-run peak computed from the model's "
            f"shape: the larger of one forward pass over the step's tokens and the sampler warm-up "
            f"({serving_profiles.SAMPLER_BYTES_PER_LOGIT[SamplerWarmup.sort]:g} B per logit with a sort, "
            f"{serving_profiles.SAMPLER_BYTES_PER_LOGIT[SamplerWarmup.fused]:g} B fused); visible memory: the "
            f"catalog's `torch_visible_gib` (torch's total, read from an engine log: "
            f"{', '.join(sorted(k for k, g in catalog.gpus.items() if g.torch_visible_gib))}), else "
            f"{serving_profiles.TORCH_VISIBLE_FRACTION} × the catalog's nvidia-smi figure."]
    return out


def report(catalog: Catalog, round2: bool = True, round3: bool = True, round4: bool = True,
           round5: bool = True, round6: bool = True, round7: bool = True, round8: bool = True,
           round9: bool = True, round10: bool = True, round11: bool = True, round12: bool = True,
           round13: bool = True) -> str:
    rows = evaluate(catalog, round2=round2, round3=round3, round4=round4, round5=round5, round6=round6, round7=round7,
                    round8=round8, round9=round9, round10=round10, round11=round11, round12=round12, round13=round13)
    cases = {r.case.id: r for r in rows}
    held1 = {r.case.id for r in rows if r.split == Split.heldout1}
    held2 = {r.case.id for r in rows if r.split == Split.heldout2}
    held3 = {r.case.id for r in rows if r.split == Split.heldout3}
    held4 = {r.case.id for r in rows if r.split == Split.heldout4}
    held5 = {r.case.id for r in rows if r.split == Split.heldout5}
    held6 = {r.case.id for r in rows if r.split == Split.heldout6}
    held7 = {r.case.id for r in rows if r.split == Split.heldout7}
    held8 = {r.case.id for r in rows if r.split == Split.heldout8}
    held9 = {r.case.id for r in rows if r.split == Split.heldout9}
    held10 = {r.case.id for r in rows if r.split == Split.heldout10}
    held11 = {r.case.id for r in rows if r.split == Split.heldout11}
    held12 = {r.case.id for r in rows if r.split == Split.heldout12}
    held13 = {r.case.id for r in rows if r.split == Split.heldout13}
    errata = len(load_errata())
    gpus = {r.case.gpu for r in rows}
    engines = {r.case.engine.value for r in rows}
    lines = [
        "# Serving estimator vs published measurements",
        "",
        "Generated by `python benchmarks/serving.py > benchmarks/serving.md` from `tests/data/serving/` "
        f"({len(cases)} cases, {len(rows)} measured figures, {len(gpus)} GPU types, {len(engines)} engines; "
        f"{len(held1)} cases held out by source and frozen before calibration (round 1, since spent), "
        f"{len(held2)} more frozen before any round-2 change (round 2, spent since its one evaluation)"
        + (f", {len(held3)} of round 3 (spent since its one evaluation)" if held3 else "")
        + (f", {len(held4)} of round 4 (spent since its one evaluation)" if held4 else "")
        + (f", {len(held5)} of round 5 (spent since its one evaluation)" if held5 else "")
        + (f", {len(held6)} of round 6 (spent since its one evaluation)" if held6 else "")
        + (f", {len(held7)} of round 7 (spent since its one evaluation)" if held7 else "")
        + (f", {len(held8)} of round 8 (spent since its one evaluation)" if held8 else "")
        + (f", {len(held9)} of round 9 (spent since its one evaluation)" if held9 else "")
        + (f", {len(held10)} of round 10 (spent since its one evaluation)" if held10 else "")
        + (f", {len(held11)} of round 11 (spent since its one evaluation)" if held11 else "")
        + (f", {len(held12)} of round 12 (spent since its one evaluation)" if held12 else "")
        + (f", {len(held13)} of round 13 (held out: frozen by digest before the changes it tests)" if held13 else "")
        + f"; {errata} errata applied — see "
        "tests/data/serving/README.md and errata.yaml).",
        "",
        "Error = |predicted − measured| / measured (the per-case table shows it signed). *Naive roofline*: a decode "
        "step = max(weights ÷ peak bandwidth, 2·N·B ÷ peak FLOPS) at 100 % efficiency, no overhead or KV reads; "
        "prefill = 2·N·L ÷ peak FLOPS, sharing the GPU with decode; KV pool = 90 % of memory − weights; max batch 256.",
        "",
        "## Targets",
        "",
        "Rounds 1-12 are spent: each was evaluated and studied (round 1 while the TTFT model was chosen, rounds 2-5 "
        "once each on 2026-12-01, rounds 6-9 once each on 2026-12-02, rounds 10-12 on 2026-12-03, then read to "
        "choose the mechanisms of the changes below, or, rounds 9, 10 and 12, printed and read since). "
        "They are kept as checks and may calibrate: `--calibrate` still reads the calibration files only, "
        "`--calibrate-moe` and `--calibrate-tp` the calibration files and rounds 1-4 (the calibration files hold no "
        "vLLM or SGLang MoE decode run and no tensor-parallel run between PCIe-only GPUs; rounds 5 and 6 hold neither; "
        "rounds 5-12 are read by no fitter). "
        "Round 13 (`heldout13_*`, frozen by digest at commit 74b8f1d before the SM 8.0 kernel change 2acb8ec and the "
        "engine_version change c5f90f2 landed, read by no fitter; evaluated on the estimator of commit 816e237) is the "
        "held-out test; as decided at its freeze it is a KV reading of its 7 KV-capacity cases against the target "
        "every case within 5 %, in full, per source and one per source (cssnoeasy's 4 KV cases are one table of one "
        "report), the TensorRT-LLM settings mapped onto vLLM's fields read as the collector mapped them; its 5 "
        "throughput and latency cases are given pooled against the round targets, here and in its section below"
        + (":" if held13 else "; it is not in this run (`--without-round13`)."),
        "",
        *([*pooled_round_targets(ROUND13, rows), ""] if held13 else []),
        "Round 12 (spent; as decided at its freeze, first of all a KV reading, in full, per source, one per source and "
        "without the two cases whose GPU is known only from the repository, then its throughput and latency pooled; "
        "the two 5 req/s runs' output tok/s is read apart)"
        + (":" if held12 else " is not in this run (`--without-round12`)."),
        "",
        *([*pooled_round_targets(ROUND12, rows), ""] if held12 else []),
        "Round 11 (spent; as decided at its freeze, pooled and per source, with no KV reading, and KLsatorlac2's E2E "
        "figures, each a whole offline batch's wall time, reported apart from the throughput figures)"
        + (":" if held11 else " is not in this run (`--without-round11`)."),
        "",
        *([*pooled_round_targets(ROUND11, rows), ""] if held11 else []),
        "Round 10 (spent; as decided at its freeze, pooled and per source, the blog's prompt lengths read as its "
        "collector read them)" + (":" if held10 else " is not in this run (`--without-round10`)."),
        "",
        *([*round10_targets(rows), ""] if held10 else []),
        "Round 9 (spent; as decided at its freeze, pooled, per source and per page of the SGLang cookbook)"
        + (":" if held9 else " is not in this run (`--without-round9`)."),
        "",
        *([*round9_targets(rows), ""] if held9 else []),
        "Round 8 (spent; as decided at its freeze, pooled and pooled without its RTX PRO 6000 Max-Q file)"
        + (":" if held8 else " is not in this run (`--without-round8`)."),
        "",
        *([*round8_targets(rows), ""] if held8 else []),
        "Round 7 (spent; as decided at its freeze, pooled and pooled without its ROCm / MI300X file)"
        + (":" if held7 else " is not in this run (`--without-round7`)."),
        "",
        *([*round7_targets(rows), ""] if held7 else []),
        "Round 6 (latency also per statistic: its sources publish medians)"
        + (":" if held6 else " is not in this run (`--without-round6`).") ,
        "",
        *(targets(rows, Split.heldout6, by_statistic=True) if held6 else []),
        *(targets(rows, Split.heldout5) if held5 else []),
        *(targets(rows, Split.heldout4) if held4 else []),
        *(targets(rows, Split.heldout3) if held3 else []),
        *(targets(rows, Split.heldout2) if held2 else ["- Round 2: not evaluated in this run (`--without-round2`)."]),
        *targets(rows, Split.heldout1),
        "",
        *(pooled_round_section(ROUND13, rows) if held13 else []),
        *(pooled_round_section(ROUND12, rows) if held12 else []),
        *(pooled_round_section(ROUND11, rows) if held11 else []),
        *(round10_section(rows) if held10 else []),
        *(round9_section(rows) if held9 else []),
        *(round8_section(rows) if held8 else []),
        *(round7_section(rows) if held7 else []),
        *(round6_section(rows) if held6 else []),
        *(["### Round 5: its one evaluation", "", "As that run printed it (2026-12-01, commit 9ee9647), kept verbatim; "
           "round 5 is spent since (two cases: a check, not a target).", "", *ROUND5_EVALUATION, ""] if held5 else []),
        *(["### Round 4: its one evaluation", "", "As that run printed it (2026-12-01, commit ef8d26c), kept verbatim; "
           "round 4 is spent since.", "", *ROUND4_EVALUATION, "", *ROUND4_READING, "",
           "### Round 4 (spent) with this commit's estimator", "", *findings_round4(rows), "",
           "### The spent rounds", ""] if held4 else []),
        *(["What round 2 (spent) says, its errata applied:", "", *findings_round2(rows), ""] if held2 else []),
        "What round 1 (spent) says:",
        "",
        *findings(rows),
        "",
        "## Summary",
        "",
        *summary(rows),
        "",
        "By engine (throughput and latency figures):",
        "",
        *by_engine(rows),
        "",
        "## Constants",
        "",
        "Fitted by `python benchmarks/serving.py --calibrate` on the calibration split only (coordinate descent on "
        "the mean |log error| over bounded grids), then written into tools/serving_profiles.py. The CUDA-graph "
        "engines share the decode-step constants (bandwidth efficiency, step overhead), fitted on their "
        "low-concurrency runs; MFUs, per-sequence CPU time and the front-end cap are fitted per engine on the "
        "maximum-throughput runs; llama.cpp's three decode constants on its batch-1 runs; the memory constants on the "
        "start-up logs (median |log error|). The per-request overhead (time outside the GPU before the first token) is "
        "fitted alone by `--calibrate-ttft` on the calibration TTFT rows where an engine has some under one second "
        "(vLLM); elsewhere it is a prior.",
        "",
        *constants(catalog),
        "",
        "## Every figure",
        "",
        *case_table(rows),
        "",
        *TTFT_MECHANISM,
        "",
        *HONEST_READING,
        "",
        *RECAL_ROUND3,
        *RECAL_ROUND4,
        *RECAL_ROUND5,
        *RECAL_ROUND6,
        *RECAL_ROUND7,
        *RECAL_ROUND9,
        *RECAL_ROUND11,
        *RECAL_ROUND13,
        *largest_residuals(rows),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrate", action="store_true", help="refit the constants on the calibration split")
    parser.add_argument("--calibrate-memory", action="store_true", help="refit only the non-torch memory constants")
    parser.add_argument("--calibrate-ttft", action="store_true", help="refit only the per-request overhead on TTFT rows")
    parser.add_argument("--calibrate-moe", action="store_true",
                        help="refit only the MoE layers' fixed time (calibration files and spent rounds)")
    parser.add_argument("--calibrate-tp", action="store_true",
                        help="refit only the PCIe all-reduce constants (calibration files and spent rounds)")
    parser.add_argument("--without-round2", action="store_true", help="leave the round-2 files unread")
    parser.add_argument("--without-round3", action="store_true", help="leave the round-3 files unread")
    parser.add_argument("--without-round4", action="store_true", help="leave the round-4 files unread")
    parser.add_argument("--without-round5", action="store_true", help="leave the round-5 files unread")
    parser.add_argument("--without-round6", action="store_true", help="leave the round-6 held-out files unread")
    parser.add_argument("--without-round7", action="store_true", help="leave the round-7 held-out files unread")
    parser.add_argument("--without-round8", action="store_true", help="leave the round-8 held-out files unread")
    parser.add_argument("--without-round9", action="store_true", help="leave the round-9 held-out files unread")
    parser.add_argument("--without-round10", action="store_true", help="leave the round-10 held-out files unread")
    parser.add_argument("--without-round11", action="store_true", help="leave the round-11 held-out files unread")
    parser.add_argument("--without-round12", action="store_true", help="leave the round-12 held-out files unread")
    parser.add_argument("--without-round13", action="store_true", help="leave the round-13 held-out files unread")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    if args.calibrate_ttft:
        calibrate_ttft(catalog)
        return 0
    if args.calibrate_moe:
        calibrate_moe(catalog)
        return 0
    if args.calibrate_tp:
        calibrate_tp(catalog)
        return 0
    if args.calibrate or args.calibrate_memory:
        calibrate(catalog, memory_only=args.calibrate_memory)
        return 0
    sys.stdout.write(report(catalog, round2=not args.without_round2, round3=not args.without_round3,
                            round4=not args.without_round4, round5=not args.without_round5,
                            round6=not args.without_round6, round7=not args.without_round7,
                            round8=not args.without_round8, round9=not args.without_round9,
                            round10=not args.without_round10, round11=not args.without_round11,
                            round12=not args.without_round12, round13=not args.without_round13))
    return 0


if __name__ == "__main__":
    sys.exit(main())
