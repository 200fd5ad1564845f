"""Text-form tool calls and <think> reasoning: what models write into `content`, read back as calls or trace.

Pure functions, table-driven: each row is a form a real server or model produces (the source is in the
row's comment).
"""

from __future__ import annotations

import pytest

from assistant.llm.textcalls import TextToolCallError, parse_text_tool_calls, strip_think

TOOLS = frozenset({"estimate_vram", "lookup_catalog", "search_guidance", "recommend_config"})

PARSED = [
    # Hermes function-calling format, left in content by vLLM without --tool-call-parser hermes
    (
        '<tool_call>\n{"name": "estimate_vram", "arguments": {"model": "qwen2.5-7b", "mode": "qlora"}}\n</tool_call>',
        [("estimate_vram", {"model": "qwen2.5-7b", "mode": "qlora"})],
    ),
    # two Hermes calls in one reply, arguments as a JSON string (some templates double-encode)
    (
        '<tool_call>{"name": "lookup_catalog", "arguments": "{\\"kind\\": \\"gpu\\", \\"name\\": \\"H100\\"}"}</tool_call>\n'
        '<tool_call>{"name": "search_guidance", "arguments": {"query": "NVLink"}}</tool_call>',
        [("lookup_catalog", {"kind": "gpu", "name": "H100"}), ("search_guidance", {"query": "NVLink"})],
    ),
    # Qwen3-Coder XML body inside the tags (vLLM qwen3_xml parser's input)
    (
        "<tool_call>\n<function=lookup_catalog>\n<parameter=kind>\ngpu\n</parameter>\n<parameter=name>\nA100-80GB\n"
        "</parameter>\n</function>\n</tool_call>",
        [("lookup_catalog", {"kind": "gpu", "name": "A100-80GB"})],
    ),
    # llama3.2:3b on Ollama: a fenced JSON object with "parameters" (ollama/ollama#13519)
    (
        '```json\n{"name": "search_guidance", "parameters": {"query": "spot instances"}}\n```',
        [("search_guidance", {"query": "spot instances"})],
    ),
    # a bare JSON list of calls, OpenAI's nested shape
    (
        '[{"type": "function", "function": {"name": "lookup_catalog", "arguments": {"kind": "model", "name": "llama-2-13b"}}}]',
        [("lookup_catalog", {"kind": "model", "name": "llama-2-13b"})],
    ),
    # prose around the JSON (small models announce the call)
    (
        'Let me check that for you. {"name": "estimate_vram", "arguments": {"params": 13e9}} One moment.',
        [("estimate_vram", {"params": 13e9})],
    ),
    # Mistral's [TOOL_CALLS] prefix
    (
        '[TOOL_CALLS] [{"name": "search_guidance", "arguments": {"query": "BF16"}}]',
        [("search_guidance", {"query": "BF16"})],
    ),
    # an unknown tool inside tags is still a call: the loop tells the model it is not a valid tool
    ('<tool_call>{"name": "launch_rockets", "arguments": {}}</tool_call>', [("launch_rockets", {})]),
]


@pytest.mark.parametrize("text,expected", PARSED)
def test_text_form_tool_calls_are_read(text, expected):
    calls = parse_text_tool_calls(text, TOOLS)
    assert [(c["name"], c["args"]) for c in calls] == expected
    assert all(c["type"] == "tool_call" for c in calls)


ANSWERS = [
    "The H100 has 80 GB of HBM3 [multi-gpu].",  # an ordinary answer
    "建议租用 2 张 A100-80GB（NVLink），每月约 ¥35,000 [multi-gpu]。",  # Chinese, citation brackets
    'Use this config: {"batch_size": 8, "lr": 2e-4}',  # JSON that names no tool of ours
    '{"name": "Alice", "arguments": "none"}',  # call-shaped, but not one of our tools
    "",
]


@pytest.mark.parametrize("text", ANSWERS)
def test_answers_are_not_tool_calls(text):
    assert parse_text_tool_calls(text, TOOLS) is None


UNREADABLE = [
    '<tool_call>{"name": "estimate_vram", "arguments": {"model": </tool_call>',  # cut off mid-JSON
    "<tool_call></tool_call>",  # empty tags
    "[TOOL_CALLS] not json",
    'I will call {"name": "estimate_vram", "arguments": {"model": "x"',  # names our tool, never closes
]


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_tool_calls_raise_instead_of_being_shown(text):
    with pytest.raises(TextToolCallError, match="tool|TOOL_CALLS"):
        parse_text_tool_calls(text, TOOLS)


THINK = [
    # DeepSeek-R1 / Qwen3 through a server without a reasoning parser
    (
        "<think>The user wants memory.\nLet me think.</think>\n\nThe H100 has 80 GB.",
        "The H100 has 80 GB.",
        "The user wants memory.\nLet me think.",
    ),
    # the chat template opened <think> in the prompt: only the closing tag is in the reply
    ("plan the answer</think>Answer: 80 GB.", "Answer: 80 GB.", "plan the answer"),
    # cut off while still thinking: nothing of it is an answer
    ("<think>still thinking about 96 GB", "", "still thinking about 96 GB"),
    ("No reasoning here.", "No reasoning here.", ""),
    ("<THINK>upper</THINK>ok", "ok", "upper"),
]


@pytest.mark.parametrize("text,answer,thought", THINK)
def test_think_blocks_are_stripped_and_kept(text, answer, thought):
    assert strip_think(text) == (answer, thought)
