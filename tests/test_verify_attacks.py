"""Issue 13 §1: the verifier must not be fooled by numbers that are not figures of the claim's dimension.

A scripted LLM that invented figures found "$28 per hour" backed by the date 2025-11-28 in a
recommender reason, and "16 GB" and "$64 per hour" by the text "blocksize 64 … 16-bit". Each row below
is one such attack: evidence that holds the digits in a form that is not a typed figure of that
dimension, and a claim that must stay unbacked — beside the claim the same evidence does back.
"""

from __future__ import annotations

import pytest

from assistant.verifier import Evidence, verify_numbers

NOTE_TEXT = {  # a rendered note: its text holds a date and a formula; its params hold the typed figures
    "code": "rec.converted",
    "params": {"rate": {"code": "fx.rate", "params": {"usd": 1, "cny": 7.1, "as_of": "2025-11-28", "source": None}}},
    "text": "Prices converted at 1 USD = 7.1 CNY (built-in default, 2025-11-28).",
}
FORMULA = {
    "formula": "int4 weight-only, blocksize 64 with 16-bit scales: 4.25 bits per weight",
    "assumptions": [{"code": "vram.weights_int4", "params": {"bits_per_weight": 4.25, "embedding_params": 5.3e8},
                     "text": "blocksize 64 … 16-bit absmax, 4.25 bits per weight"}],
}
NAMES = {"gpu": "A100-80GB", "instance": "p4d.24xlarge", "alt": "RTX 4090 24GB", "model": "Qwen2.5-72B",
         "id": "ecs.gn7i-c8g1.2xlarge", "cuda": "12.1", "version": "v2.3.1", "as_of": "2026-07-20"}
UNITLESS = {"batch_size": 8, "tp": 4, "pp": 2, "launch_year": 2022, "rank": 16, "concurrency": 50,
            "compute_capability": 9.0, "max_num_seqs": 256, "bits_per_weight": 4.25, "heads": 64}
PRICED = {"currency": "CNY", "option": {"code": "option.price", "params": {"price_per_hour": 11.98, "monthly": 8745.4,
                                                                           "currency": "CNY", "as_of": "2026-11-28"},
                                        "text": "¥11.98/h on-demand, ¥8,745/month, as of 2026-11-28; 28 h minimum"}}

EVIDENCE = Evidence(tool_results={"recommend_config": {"assumptions": [NOTE_TEXT]}, "estimate_vram": FORMULA,
                                  "lookup_catalog": NAMES, "estimate_serving": UNITLESS, "estimate_cost": PRICED})

ATTACKS = [
    # --- the date 2025-11-28 inside a reason
    ("$28 per hour", None),
    ("$11 per hour", None),
    ("28 GB", None),
    ("2025 GPUs", None),
    ("7.1 CNY", "tool:recommend_config:assumptions.0.params.rate.params.cny"),  # the rate's typed param
    # --- blocksize 64 … 16-bit (formula text and a note's text)
    ("16 GB", None),
    ("$64 per hour", None),
    ("64 GPUs", None),
    ("4.25 GB", None),  # bits per weight is not memory
    ("530M params", "tool:estimate_vram:assumptions.0.params.embedding_params"),  # the typed param does back
    # --- digits of names, ids, versions and dates back nothing
    ("80 GB", None),  # A100-80GB
    ("24 GB", None),  # RTX 4090 24GB
    ("4090 GPUs", None),
    ("72B parameters", None),  # Qwen2.5-72B in a tool result (the user's words would back it)
    ("8 GPUs", None),  # gn7i-c8g1: "c8" is part of an id
    ("12.1 hours", None),  # CUDA 12.1
    ("2.3 GiB", None),  # v2.3.1
    ("20 days", None),  # 2026-07-20
    # --- numbers whose key names no unit back nothing
    ("8 GB", None),  # batch_size
    ("4 GPUs", None),  # tp
    ("2 nodes", None),  # pp
    ("16 GiB", None),  # rank
    ("50 GPUs", None),  # concurrency
    ("256 tokens", None),  # max_num_seqs
    ("9 %", None),  # compute capability
    # --- a note's text is not evidence; its params are
    ("¥11.98/h", "tool:estimate_cost:option.params.price_per_hour"),
    ("¥8,745/month", "tool:estimate_cost:option.params.monthly"),
    ("¥8,745/hour", None),  # the period is part of the figure
    ("28 hours", None),  # "28 h minimum" exists only in the rendered text
]


@pytest.mark.parametrize("claim, label", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_attack(claim, label):
    (c,) = verify_numbers(claim, EVIDENCE)
    assert c.backed_by == label


def test_the_users_words_do_back_a_model_size_the_tools_only_name():
    (c,) = verify_numbers("72B parameters", EVIDENCE, ["Serve Qwen2.5-72B for 50 users"])
    assert c.backed_by == "user"


PASSAGE = ("billing", "Updated 2025-11-28. Spot instances are 60-90% cheaper; checkpoint every 30 minutes. "
                      "Blocksize 64, 16-bit scales. A 7B model needs about 14 GB in BF16.")


@pytest.mark.parametrize(
    "claim, label",
    [
        ("90% cheaper", "passage:billing"),
        ("every 30 minutes", "passage:billing"),
        ("14 GB", "passage:billing"),
        ("30 GB", None),  # 30 is written there with minutes
        ("28 hours", None),  # the date
        ("64 GB", None),  # blocksize
        ("16 GiB", None),  # 16-bit
        ("$14 per hour", None),
    ],
)
def test_a_passage_backs_only_figures_written_with_their_unit(claim, label):
    (c,) = verify_numbers(claim, Evidence(passages=[PASSAGE]))
    assert c.backed_by == label


# ------------------------------------------------------------------ pasted documents

CATALOG = Evidence(tool_results={"estimate_cost": {"currency": "USD", "lines": [{"price_per_hour": 2.49}]}})
PASTED = ["Our vendor's quote (pasted): H100 80GB at $1.99/hr, minimum 730 hours, 3.2 TB/s"]


@pytest.mark.parametrize(
    "claim, label",
    [
        ("$2.49/h", "tool:estimate_cost:lines.0.price_per_hour"),  # the catalog's price is the tool's
        ("your quote of $1.99/hr", "pasted"),  # a repeat of what the user pasted: labelled as such
        ("$1.99 per month", None),  # the paste says per hour
        ("≈ $2.0/hr", "pasted"),  # rounded from the paste ($2/hr would round the catalog's $2.49 too)
        ("3,200 GB/s", "pasted"),  # an exact conversion of the pasted 3.2 TB/s
        ("80 GB", None),  # "H100 80GB" in the paste is a name
        ("$1.49/hr", None),
    ],
)
def test_a_pasted_figure_backs_only_its_own_repeat(claim, label):
    (c,) = verify_numbers(claim, CATALOG, ["Is this quote a good deal?"], pasted_texts=PASTED)
    assert c.backed_by == label


def test_a_pasted_figure_never_beats_a_tool_figure_nor_backs_loosely():
    ev = Evidence(tool_results={"lookup_catalog": {"memory_gb": 80.0}})
    (c,) = verify_numbers("80 GB of memory", ev, pasted_texts=["nvidia-smi: 80 GB total"])
    assert c.backed_by == "tool:lookup_catalog:memory_gb"
    (c,) = verify_numbers("79.3 GB", Evidence(), pasted_texts=["nvidia-smi: 79.3 GiB total"])
    assert c.backed_by is None  # the same digits in another unit: the user's own words may, a paste may not
    (c,) = verify_numbers("79.3 GB", Evidence(), ["nvidia-smi says 79.3 GiB"])
    assert c.backed_by == "user"


def test_without_pasted_texts_the_paste_backs_nothing():
    (c,) = verify_numbers("$1.99/hr", CATALOG, ["Is this quote a good deal?"])
    assert c.backed_by is None
