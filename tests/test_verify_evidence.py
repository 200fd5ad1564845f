"""Evidence comes from typed tool results: units from field names, pydantic results taken as they are.

The key table covers the fields our calculators and notes carry (tools/schemas.py, serving_types.py,
the notes' params); a name that tells no unit must give None.
"""

from __future__ import annotations

import pytest

from assistant.answer import ToolCallRecord
from assistant.verifier import Evidence, verify_numbers
from assistant.verify.keys import KeyUnit, key_unit


@pytest.mark.parametrize(
    "key, expected",
    [
        ("per_gpu_gib", KeyUnit("GiB")),  # "per" first: GiB per GPU
        ("ram_gb_per_gpu", KeyUnit("GB")),  # words before "per" are what is counted
        ("kv_bytes_per_token", KeyUnit("B")),
        ("price_per_hour", KeyUnit("money", 1.0, "hour")),  # the currency comes from a `currency` field
        ("monthly_cost", KeyUnit("money", 1.0, "month")),
        ("total", KeyUnit("money", 1.0, "hours")),  # a total's period is the hours it covers
        ("budget", KeyUnit("money", 1.0, "sibling")),  # ... or a `period` field beside it
        ("usd_cny", KeyUnit("money", 1.0, None, "CNY")),  # an exchange rate: CNY per USD
        ("cny", KeyUnit("money", 1.0, "sibling", "CNY")),
        ("cost_per_million_output_tokens_at_load", KeyUnit("money/Mtok")),
        ("price_per_1k_tokens", KeyUnit("money/Mtok", 1000.0)),
        ("ttft_ms", KeyUnit("ms")),
        ("latency_s", KeyUnit("ms", 1000.0)),
        ("hours", KeyUnit("hour")),
        ("days", KeyUnit("hour", 24.0)),
        ("months", KeyUnit("hour", 730.0)),
        ("hours_per_day", KeyUnit("hour")),
        ("output_tok_s", KeyUnit("token/s")),
        ("tokens_per_user_s", KeyUnit("token/s")),
        ("throughput_tps", KeyUnit("token/s")),
        ("req_s", KeyUnit("req/s")),
        ("requests_per_day", KeyUnit("req/s", 1 / 86400)),
        ("request_rate", KeyUnit("req/s")),  # a Load's kind
        ("gpu_count", KeyUnit("GPU")),
        ("total_gpus", KeyUnit("GPU")),
        ("set_gpus", KeyUnit("GPU")),  # a Change's kind
        ("gpu_hours", KeyUnit("GPU-hour")),
        ("nodes", KeyUnit("node")),
        ("memory_bandwidth_gbps", KeyUnit("GB/s")),
        ("network_gbps", KeyUnit("Gb/s")),  # network links are bits
        ("bf16_tflops", KeyUnit("TFLOPS")),
        ("int8_tops", KeyUnit("TOPS")),
        ("tdp_w", KeyUnit("W")),
        ("mfu", KeyUnit("%", 100.0)),  # a fraction shown as a percentage
        ("bandwidth_share", KeyUnit("%", 100.0)),
        ("low_pct", KeyUnit("%")),
        ("seq_len", KeyUnit("token")),
        ("max_context", KeyUnit("token")),
        ("cuda_context", None),  # a memory component, named by what it is (breakdown_gib.cuda_context)
        ("kv_cache_tokens", KeyUnit("token")),
        ("sliding_window", KeyUnit("token")),
        ("params", KeyUnit("param")),
        ("flops", KeyUnit("FLOP")),
        # --- names that tell no unit
        ("batch_size", None),
        ("tp", None),
        ("rank", None),
        ("launch_year", None),  # a singular "year" is a label, not a duration
        ("compute_capability", None),
        ("concurrency", None),
        ("max_concurrency", None),
        ("bits_per_weight", None),
        ("vcpu_per_gpu", None),
        ("kv_heads_per_gpu", None),
        ("spot_interruptions_per_day", None),
        ("value", None),
        ("0", None),
    ],
)
def test_key_unit(key, expected):
    assert key_unit(key) == expected


# ------------------------------------------------------------------ pydantic results, as the artifact


@pytest.fixture(scope="module")
def serving():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings
    from tools.serving import estimate_on_instance
    from tools.serving_types import Load, LoadKind, ServingRequest

    settings = Settings.load()
    cat = load_catalog(settings)
    return estimate_on_instance(cat.model("qwen2.5-7b"), cat.gpu("L40S"), cat.instances_named("aws/g6e.xlarge")[0],
                                ServingRequest(load=Load(kind=LoadKind.concurrency, value=16)), settings.exchange_rate)


def test_a_pydantic_result_is_the_same_evidence_as_its_json(serving):
    as_model = Evidence(tool_results={"estimate_serving": serving})
    as_json = Evidence(tool_results={"estimate_serving": serving.model_dump(mode="json")})
    assert as_model.numbers() == as_json.numbers() and as_model.numbers()
    record = ToolCallRecord(name="estimate_serving", args={"model": "qwen2.5-7b"}, result=serving)
    assert Evidence.from_tool_calls([record]).numbers()[: len(as_json.numbers())] == as_json.numbers()


def test_a_serving_answer_restated_verifies_clean(serving):
    """The figures of a real serving estimate, written the way an answer would, are all backed."""
    s = serving
    cur = "$" if s.currency == "USD" else "¥"
    answer = (
        f"{s.gpus}× {s.gpu} serves {s.output_tok_s:,.0f} tok/s ({s.req_s:.2f} req/s) with TTFT {s.ttft_ms:.0f} ms "
        f"and {s.tpot_ms:.1f} ms per output token ({s.tokens_per_user_s:.0f} tokens/s per user); a request takes "
        f"{s.e2e_ms / 1000:.1f} s. KV cache {s.kv_cache_gib:.1f} GiB ({s.kv_cache_tokens:,} tokens). "
        f"Cost: {cur}{s.cost_per_million_output_tokens_at_load:.3f} per million output tokens at this load, "
        f"{cur}{s.cost_per_million_output_tokens_at_max:.3f} at maximum throughput ({cur}{s.price_per_hour:.2f}/h)."
    )
    claims = verify_numbers(answer, Evidence(tool_results={"estimate_serving": s}))
    assert len(claims) >= 11
    assert [c.text for c in claims if c.backed_by is None] == []
    wrong = answer.replace(f"{s.ttft_ms:.0f} ms", f"{s.ttft_ms * 1.3:.0f} ms")
    assert [c.text for c in verify_numbers(wrong, Evidence(tool_results={"estimate_serving": s})) if c.backed_by is None] \
        == [f"{s.ttft_ms * 1.3:.0f} ms"]


def test_changes_and_loads_take_their_unit_from_their_kind():
    result = {
        "currency": "USD",
        "suggestions": [
            {"change": {"kind": "set_gpus", "value": 2, "currency": None}, "outcome": {"code": "x", "params": {}}},
            {"change": {"kind": "raise_budget", "value": 3.0, "currency": "USD"}, "outcome": {"code": "x", "params": {}}},
            {"change": {"kind": "set_batch_size", "value": 4, "currency": None}, "outcome": {"code": "x", "params": {}}},
        ],
        "load": {"kind": "request_rate", "value": 2.5, "peak_factor": None},
    }
    ev = Evidence(tool_results={"recommend_config": result})
    label = "tool:recommend_config:"
    assert verify_numbers("over 2 GPUs", ev)[0].backed_by == label + "suggestions.0.change.value"
    assert verify_numbers("raise the budget to $3.000", ev)[0].backed_by == label + "suggestions.1.change.value"
    assert verify_numbers("4 GPUs", ev)[0].backed_by is None  # a batch size
    assert verify_numbers("2.5 req/s", ev)[0].backed_by == label + "load.value"


def test_a_notes_params_dict_names_no_unit():
    """Earlier every unit-less param of a note took the unit of the key `params` (parameters)."""
    note = {"code": "vram.kv_heads", "params": {"kv_heads": 8, "head_dim": 128, "batch_size": 1}}
    ev = Evidence(tool_results={"estimate_vram": {"assumptions": [note]}})
    assert ev.numbers() == []
    assert verify_numbers("128 parameters", ev)[0].backed_by is None


def test_a_cited_sources_figures_back_a_quote_and_no_other_string_does():
    """A note's `source` / `reference` quote a study (the quality cost of int4: AWQ Table 4, "70B 3.32 → 3.41"): read
    as a passage is. Any other string param (a GPU name, a rendered text) backs nothing."""
    note = {"code": "serving.quality_perplexity", "params": {
        "weights": "int4", "low": 0.09, "high": 0.13, "reference": "Llama-2 7B-70B",
        "source": "AWQ, Table 4: Llama-2 perplexity FP16 vs INT4 g128: 7B 5.47 → 5.60, 70B 3.32 → 3.41",
        "gpu": "RTX-4090 24GB"}}
    ev = Evidence(tool_results={"estimate_serving": {"caveats": [note]}})
    assert verify_numbers("a 70B model", ev)[0].backed_by == "source:serving.quality_perplexity"
    assert verify_numbers("24 GB", ev)[0].backed_by is None  # the gpu param's name is not a figure
    assert verify_numbers("on a 13B model", ev)[0].backed_by is None


def test_catalog_facts():
    ev = Evidence(catalog_facts=[("A100-80GB.memory_gb", 80), ("H100.price", 2.49), ("L4.price", 0.8, "USD/hour")])
    assert ev.numbers() == [("catalog:A100-80GB.memory_gb", 80.0, "GB"), ("catalog:L4.price", 0.8, "USD")]
    assert verify_numbers("$0.80/h", ev)[0].backed_by == "catalog:L4.price"
    assert verify_numbers("$0.80/month", ev)[0].backed_by is None
    assert verify_numbers("$2.49", ev)[0].backed_by is None  # money with no currency said backs nothing


def test_tool_arguments_are_evidence_with_their_own_currency_field():
    ev = Evidence(tool_args={"recommend_config": {"budget": 20000, "budget_currency": "CNY", "currency": None,
                                                  "period": "month", "batch_size": 8}})
    assert ev.numbers() == [("tool:recommend_config:args.budget", 20000.0, "CNY")]  # batch_size names no unit
    assert verify_numbers("¥20,000/month", ev)[0].backed_by == "tool:recommend_config:args.budget"
    assert verify_numbers("¥20,000/hour", ev)[0].backed_by is None
