"""Pure pieces of the offline handlers (assistant/offline/handlers/).

The recommendation table's 'why' cells (a note every row would repeat is said once; an option ranked above
a cheaper one says why), the provider display names an Env builds once per catalog, and the estimate-only
plan the guidance answer borrows from the feasibility handler.
"""

from __future__ import annotations

import pytest

from assistant.offline.handlers.rental import row_notes, shared_notes

INT4 = {"code": "serving.quality_perplexity", "params": {"weights": "int4", "low": 0.09, "high": 0.13}}
CN = {"code": "option.mainland", "params": {"region": "cn-mainland"}}
TIGHT = {"code": "warn.tight_memory", "params": {"headroom_gib": 1.5}}


def option(reasons=(), warnings=()):
    return {"reasons": list(reasons), "warnings": list(warnings)}


@pytest.mark.parametrize(
    "options, shared",
    [
        # the same warning on every row: said once
        ([option([CN], [INT4]), option([CN], [INT4]), option([], [INT4])], ["serving.quality_perplexity"]),
        # on some rows only: stays in the rows
        ([option([CN], [INT4]), option([CN], [TIGHT])], ["option.mainland"]),
        # one row: nothing is 'shared'
        ([option([CN], [INT4])], []),
        # same code, different params: not the same note
        ([option([], [TIGHT]), option([], [{"code": "warn.tight_memory", "params": {"headroom_gib": 2.0}}])], []),
    ],
)
def test_shared_notes(options, shared):
    assert [n.code for n in shared_notes(options)] == shared


def test_row_notes_take_two_reasons_and_one_warning():
    o = option([CN, CN | {"params": {"region": "cn-beijing"}}, CN | {"params": {"region": "x"}}], [INT4, TIGHT])
    assert [n.code for n in row_notes(o)] == ["option.mainland", "option.mainland", "serving.quality_perplexity"]


BAND = {"code": "rank.band", "params": {"provider": "lium", "instance": "RTX4090_1x", "gpu_count": 1.0, "gpu": "RTX-4090",
                                        "nodes": 1, "cheaper_fraction": 0.0345, "factor": "grade"}}


def test_a_row_above_a_cheaper_one_says_why_first():
    """Regression: RunPod's A5000 at $211.70 sat above Lium's cheaper 4090 ($204.40) with '—' in its 'why' cell."""
    o = option([{"code": "option.fit", "params": {}}, CN, BAND], [INT4])
    notes = row_notes(o)
    assert [n.code for n in notes] == ["rank.band_row", "option.mainland", "serving.quality_perplexity"]
    assert notes[0].params == BAND["params"]  # the same typed params, said short
    assert [n.code for n in row_notes(option([CN]))] == ["option.mainland"]  # no band reason: nothing added


@pytest.mark.parametrize(
    "factor, en, zh",
    [
        ("grade", "ahead of Lium's 1 × RTX-4090 (3.5% cheaper): more trustworthy price source",
         "排在 Lium 的 1 × RTX-4090（便宜 3.5%）之前：价格来源更可靠"),
        ("freshness", "ahead of Lium's 1 × RTX-4090 (3.5% cheaper): fresher price", "排在 Lium 的 1 × RTX-4090（便宜 3.5%）之前：价格更新"),
        ("fit", "ahead of Lium's 1 × RTX-4090 (3.5% cheaper): better fit", "排在 Lium 的 1 × RTX-4090（便宜 3.5%）之前：更合适"),
    ],
)
def test_the_why_cell_of_a_band_row_in_both_languages(env, factor, en, zh):
    from assistant.offline.handlers.rental import option_row

    band = {**BAND, "params": {**BAND["params"], "factor": factor}}
    o = dict(provider="runpod", instance="1x_RTXA5000_SECURE", gpu="RTX-A5000", gpu_count=1, total_gpus=1, per_gpu_gib=17.3,
             gpu_usable_gib=21.3, monthly_cost=211.7, currency="USD", price_grade="official list price", price_as_of=None,
             reasons=[band], warnings=[])
    # the provider of the cheaper option by its display name (the catalog's), as in the rest of the answer
    assert (option_row(o, "month", "en", env)[-1], option_row(o, "month", "zh", env)[-1]) == (en, zh)


# ------------------------------------------------------------------ Env and the feasibility estimate


@pytest.fixture(scope="module")
def env():
    import datetime as dt

    from assistant.offline.handlers.base import Env
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return Env(catalog=load_catalog(Settings(catalog_dir=None)), today=dt.date(2026, 12, 1))


def test_display_names_are_built_once_per_catalog(env):
    from assistant.offline.handlers.base import Env

    names = env.display_names()
    assert env.display_names() is names  # cached: not rebuilt per answer
    assert names["gpushare"] == (env.catalog.providers["gpushare"].name, "恒源云")
    assert len(names) == len(env.catalog.providers)
    with pytest.raises(TypeError):
        names["x"] = ("X", None)  # shared across answers: read-only
    other = Env(catalog=env.catalog, today=env.today)
    assert other.display_names() == names  # another Env over the same catalog: the same names


def feasibility_ctx(**slots):
    from assistant.offline.context import TurnContext

    return TurnContext(frame="feasibility", slots=slots, question="3090 24G, llama-7b LoRA, OOM: what am I doing wrong?",
                       stated=sorted(slots))


@pytest.mark.parametrize(
    "slots, targets",
    [
        ({"model": "llama-2-7b", "mode": "lora", "gpus": ["RTX-3090"]}, True),  # a named GPU: a fit target
        ({"model": "llama-2-7b", "mode": "inference", "available_gib": 24.0}, True),  # "my 24 GB"
        ({"model": "llama-2-7b"}, False),  # no hardware: the sharded counts, and the mode assumed
    ],
)
def test_the_estimate_plan_is_the_feasibility_plan_without_its_searches(env, slots, targets):
    from assistant.offline.handlers.memory import FeasibilityHandler

    ctx = feasibility_ctx(**slots)
    full, estimate = FeasibilityHandler().plan(ctx, env), FeasibilityHandler().estimate_plan(ctx, env)
    assert [(c.name, c.key) for c in estimate.calls] == [("estimate_vram", "main")]
    assert [c for c in full.calls if c.key == "main"] == estimate.calls
    assert {c.name for c in full.calls if c.key != "main"} == {"search_guidance"}
    assert (estimate.defaults, estimate.data) == (full.defaults, full.data) and estimate.data["targets"] is targets


def test_the_guidance_answer_plans_its_search_and_the_estimate_only(env):
    from assistant.offline.handlers.memory import FeasibilityHandler
    from assistant.offline.handlers.talk import GuidanceHandler
    from assistant.understand.slots import Frame

    ctx = feasibility_ctx(model="llama-2-7b", mode="lora", gpus=["RTX-3090"]).model_copy(update={"frame": Frame.guidance})
    plan = GuidanceHandler().plan(ctx, env)
    estimate = FeasibilityHandler().estimate_plan(ctx, env)
    assert [(c.name, c.key) for c in plan.calls] == [("search_guidance", "guide"), ("estimate_vram", "main")]
    assert plan.calls[1:] == estimate.calls and plan.data["setup"] == estimate.data and plan.defaults == estimate.defaults


@pytest.mark.parametrize(
    "o, en, zh",
    [
        # one instance: the count alone
        ({"gpu_count": 8, "gpu": "H100", "total_gpus": 8}, "8× H100", "8× H100"),
        # regression: two copies of Vast.ai's 4x-RTX_3060 read as '8× RTX-3060' beside an instance named 4x
        ({"gpu_count": 4, "gpu": "RTX-3060", "total_gpus": 8, "copies": 2, "instances": 2}, "8× RTX-3060 on 2 instances of 4",
         "8× RTX-3060，2 台 × 每台 4 卡"),
        # nodes count as machines too
        ({"gpu_count": 8, "gpu": "H100", "total_gpus": 16, "nodes": 2, "instances": 2}, "16× H100 on 2 instances of 8",
         "16× H100，2 台 × 每台 8 卡"),
    ],
)
def test_the_gpus_cell_names_the_machines_behind_a_count(o, en, zh):
    from assistant.offline.handlers.rental import gpus_cell
    from tools.messages import render

    assert (render(gpus_cell(o), "en"), render(gpus_cell(o), "zh")) == (en, zh)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_gpus_cell_states_only_numbers_the_tool_gave(lang):
    """Regression (review): the Chinese cell's '2 台' was a machine count no tool result carried; `instances` does."""
    from assistant.answer import ToolCallRecord
    from assistant.offline.handlers.rental import gpus_cell
    from assistant.verifier import Evidence, unbacked, verify_numbers
    from tools.messages import render

    option = {"provider": "vast", "instance": "4x-RTX_3060-32-65536", "gpu_count": 4, "gpu": "RTX-3060",
              "total_gpus": 8, "copies": 2, "nodes": 1, "instances": 2}
    evidence = Evidence.from_tool_calls([ToolCallRecord(name="recommend_config", args={}, result={"options": [option]})])
    text = render(gpus_cell(option), lang)
    assert "2" in text and not unbacked(verify_numbers(text, evidence, [])), text
