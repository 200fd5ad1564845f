"""What the model reads: compact tool results and schemas, tool-argument errors in our words, a capped history.

The tools, catalog and index are real (the advisor's own LangChain tools); no model is involved.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import ValidationError

from assistant.lc_tools import LookupArgs, TrainTimeArgs, VramArgs
from assistant.llm.compact import clip_text, compact_tool_result, compact_tool_schema, round_figure
from assistant.llm.context import MAX_HISTORY_TURNS, model_context
from assistant.llm.loop import run_tool_call
from assistant.llm.tool_errors import tool_argument_error
from assistant.resources import Resources
from knowledge.settings import Settings


@pytest.fixture(scope="module")
def tools():
    return {t.name: t for t in Resources.shared(Settings.load()).tools}


ROUNDING = [
    (29.371, 29.37),  # GiB: what a person prints
    (2.485, 2.485),  # a price per hour keeps its three decimals
    (1814.05, 1814),  # from 1,000 on, whole numbers
    (79559.92, 79560),
    (2.1e-06, 2.1e-06),  # money per token stays tiny, not 0
    (0.47, 0.47),
    (4.2e22, 4.2e22),  # FLOPs: no invented digits
]


@pytest.mark.parametrize("value,expected", ROUNDING)
def test_figures_are_rounded_as_printed(value, expected):
    assert round_figure(value) == expected


def test_clipping_never_cuts_a_figure_in_half():
    text = "over budget: ¥20,006/month > ¥20,000 (0.0% over) because the host is thin"
    for limit in range(10, len(text)):
        cut = clip_text(text, limit).removesuffix(" …")
        assert text.startswith(cut)
        last = cut.split()[-1] if cut.split() else ""
        assert last == "" or last in text.split(), (limit, cut)  # ends on a whole token


def test_a_result_drops_provenance_duplicates_and_nulls(tools):
    raw = json.loads(tools["lookup_catalog"].invoke({"kind": "gpu", "name": "H100"}))
    view = json.loads(compact_tool_result("lookup_catalog", raw))
    assert view["memory_gb"] == raw["memory_gb"] and view["memory_bandwidth_gbps"] == raw["memory_bandwidth_gbps"]
    assert "source" not in view and "aliases" not in view
    assert all(v is not None for v in view.values())
    assert len(json.dumps(view)) < len(json.dumps(raw))


def test_options_repeat_a_sentence_once_and_lists_are_capped(tools):
    raw = json.loads(
        tools["recommend_config"].invoke(
            {"model": "llama-13b", "mode": "lora", "budget": 20000, "budget_currency": "CNY", "currency": "CNY"}
        )
    )
    view = json.loads(compact_tool_result("recommend_config", raw))
    options = view["options"]
    items = options["items"] if isinstance(options, dict) else options
    priced = [o for o in items if isinstance(o, dict)]
    assert len(priced) == min(3, len(raw["options"]))
    assert priced[0]["instance"] == raw["options"][0]["instance"]
    if len(raw["options"]) > 3:
        assert items[-1] == f"… {len(raw['options']) - 3} more"


def test_a_tight_room_shortens_the_view_but_keeps_the_table(tools):
    raw = json.loads(
        tools["recommend_config"].invoke({"model": "llama-13b", "mode": "lora", "budget": 20000, "currency": "CNY"})
    )
    roomy, tight = (
        compact_tool_result("recommend_config", raw),
        compact_tool_result("recommend_config", raw, max_bytes=2000),
    )
    assert len(tight) < len(roomy)
    items = json.loads(tight)["options"]
    items = items["items"] if isinstance(items, dict) else items
    assert len([o for o in items if isinstance(o, dict)]) == min(3, len(raw["options"]))  # the answer's table


def test_compact_schemas_keep_every_argument(tools):
    from langchain_core.utils.function_calling import convert_to_openai_tool

    for tool in tools.values():
        full = convert_to_openai_tool(tool)["function"]["parameters"]
        small = compact_tool_schema(tool)["function"]["parameters"]
        assert set(small["properties"]) == set(full["properties"]), tool.name
        assert small.get("required", []) == full.get("required", []), tool.name
        assert "anyOf" not in json.dumps(small) and '"title"' not in json.dumps(small)
    small = sum(len(json.dumps(compact_tool_schema(t), separators=(",", ":"))) for t in tools.values())
    full = sum(len(json.dumps(convert_to_openai_tool(t), separators=(",", ":"))) for t in tools.values())
    assert small < 0.8 * full  # the schemas are the largest fixed part of every request (6 tools: 8.4 → 5.5 KB)


ARGUMENT_ERRORS = [
    # (schema, arguments, the words the model gets)
    (VramArgs, {"params": "thirteen billion"}, "params must be a number like 13e9 (got 'thirteen billion')"),
    (VramArgs, {"mode": "finetune"}, "mode must be one of inference, full, lora, qlora or pretrain (got 'finetune')"),
    (VramArgs, {"batch_size": 0}, "batch_size must be greater than 0 (got 0)"),
    (VramArgs, {"batch_size": 2.5}, "batch_size must be a whole number (got 2.5)"),
    (VramArgs, {"modle": "x"}, "modle is not an argument of t; it takes: model, params, mode"),
    (TrainTimeArgs, {"tokens": 1e9}, "gpu is required, e.g. 'A100-80GB'"),
    (LookupArgs, {"kind": "chip", "name": "H100"}, "kind must be one of gpu, model, provider or instance (got 'chip')"),
]


@pytest.mark.parametrize("schema,args,words", ARGUMENT_ERRORS)
def test_argument_errors_in_our_words(schema, args, words):
    with pytest.raises(ValidationError) as caught:
        schema.model_validate(args)
    message = tool_argument_error("t", caught.value, schema)
    assert words in message
    assert "pydantic" not in message and "type=" not in message and "validation error" not in message


def test_a_tool_called_with_wrong_arguments_answers_in_our_words(tools):
    call = {"name": "estimate_vram", "args": {"params": "thirteen billion"}, "id": "call_1", "type": "tool_call"}
    reply = run_tool_call(call, tools)
    assert isinstance(reply, ToolMessage) and reply.tool_call_id == "call_1"
    error = json.loads(reply.content)["error"]
    assert error.startswith("estimate_vram: params must be a number like 13e9")
    unknown = run_tool_call({"name": "launch_rockets", "args": {}, "id": "c2", "type": "tool_call"}, tools)
    assert "launch_rockets is not a valid tool" in json.loads(unknown.content)["error"]


def test_history_is_capped_to_recent_turns_plus_the_state():
    history = []
    for n in range(6):
        history += [HumanMessage(content=f"question {n}"), AIMessage(content=f"answer {n} " + "x" * 3000)]
    messages = [*history, HumanMessage(content="and now?")]
    sent = model_context("SYSTEM", messages, state_summary="model: llama-13b; budget: ¥20,000/month", lang="en")
    assert isinstance(sent[0], SystemMessage)
    assert "SYSTEM" in sent[0].content and "budget: ¥20,000/month" in sent[0].content
    questions = [m.content for m in sent if isinstance(m, HumanMessage)]
    assert questions == [f"question {n}" for n in range(6 - MAX_HISTORY_TURNS, 6)] + ["and now?"]
    assert all(len(m.content) < 1300 for m in sent if isinstance(m, AIMessage))
    chinese = model_context("SYSTEM", messages, state_summary="模型：llama-13b", lang="zh")
    assert "用户已经告诉我们的信息" in chinese[0].content
