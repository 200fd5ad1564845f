"""Provider presets: which client, which request options, for (provider, model); settings on top of the table.

The clients are built for real (no request is sent: construction is offline). The wire behaviour of
each row is exercised against scripted servers in tests/test_llm_providers.py.
"""

from __future__ import annotations

import pytest

from assistant.llm.clients import CompatChatDeepSeek, CompatChatOllama, CompatChatOpenAI
from assistant.llm.presets import PROVIDERS, QUIRKS, make_llm, request_options
from knowledge.settings import Settings
from tools.errors import ConfigError

OPTIONS = [
    # (spec, temperature, extra body, tool_choice that forces a call)
    ("openai:gpt-4o-mini", 0.0, {}, "required"),  # no row: the defaults
    ("openai:o3-mini", None, {}, "required"),  # reasoning models take only their default temperature
    ("deepseek:deepseek-chat", 0.0, {}, "required"),
    ("qwen:qwen3-32b", 0.0, {"enable_thinking": False}, "required"),  # DashScope: thinking off for non-streaming
    ("qwen:Qwen3-235B-A22B", 0.0, {"enable_thinking": False}, "required"),  # model names match in any case
    ("qwen:qwen3-235b-a22b-thinking-2507", 0.0, {}, "required"),  # thinking-only: cannot be switched off
    ("qwen:qwen-plus", 0.0, {}, "required"),  # commercial hybrid: thinking is off by default
    ("moonshot:kimi-k2.5", 1.0, {}, None),  # only temperature 1 while thinking; ask for a tool in words
    ("moonshot:kimi-k2-0905-preview", 0.0, {}, "required"),  # older Kimi accepts [0, 1]
    ("zhipu:glm-4-plus", 0.01, {}, None),  # open interval (0, 1); tool_choice only "auto"
    ("ollama:qwen3:8b", 0.0, {}, None),  # Ollama has no tool_choice
    ("openai-compatible:anything", 0.0, {}, "required"),
]


@pytest.mark.parametrize("spec,temperature,extra,tool_choice", OPTIONS)
def test_request_options_follow_the_quirk_table(spec, temperature, extra, tool_choice):
    provider, _, model = spec.partition(":")
    options = request_options(provider, model, Settings.load())
    assert (options.temperature, options.extra_body, options.tool_choice) == (temperature, extra, tool_choice)


def test_settings_override_the_table():
    # GPU_ADVISOR_LLM_TEMPERATURE / GPU_ADVISOR_LLM_EXTRA_BODY win over the row (argument > env > file > default)
    settings = Settings.load(llm_temperature=0.6, llm_extra_body={"enable_thinking": True, "top_k": 20})
    options = request_options("qwen", "qwen3-32b", settings)
    assert options.temperature == 0.6
    assert options.extra_body == {"enable_thinking": True, "top_k": 20}


def test_extra_body_from_the_environment_is_json(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_EXTRA_BODY", '{"chat_template_kwargs": {"enable_thinking": false}}')
    monkeypatch.setenv("GPU_ADVISOR_LLM_TEMPERATURE", "0.3")
    settings = Settings.load()
    options = request_options("openai-compatible", "Qwen/Qwen3-8B", settings)
    assert options.extra_body == {"chat_template_kwargs": {"enable_thinking": False}}
    assert options.temperature == 0.3


def test_every_quirk_row_says_why_and_where():
    for quirk in QUIRKS:
        assert quirk.provider in PROVIDERS, quirk
        assert quirk.why and quirk.source, quirk


CLIENTS = [
    ("deepseek:deepseek-reasoner", CompatChatDeepSeek, True),  # langchain-deepseek; reasoning_content goes back
    ("moonshot:kimi-k2.5", CompatChatOpenAI, True),
    ("qwen:qwen3-32b", CompatChatOpenAI, False),
    ("openai-compatible:local", CompatChatOpenAI, False),
]


@pytest.mark.parametrize("spec,cls,echo", CLIENTS)
def test_each_provider_gets_its_client(spec, cls, echo, monkeypatch):
    for var in ("DEEPSEEK_API_KEY", "MOONSHOT_API_KEY", "DASHSCOPE_API_KEY"):
        monkeypatch.setenv(var, "test-key")
    llm = make_llm(spec, Settings.load(llm_base_url="http://127.0.0.1:9/v1" if "compatible" in spec else None))
    assert type(llm) is cls
    assert llm.echo_reasoning is echo
    assert llm.max_retries == 0  # the turn decides what to retry


def test_ollama_uses_the_native_client_with_num_ctx():
    llm = make_llm("ollama:qwen3:8b", Settings.load(llm_num_ctx=32768, llm_base_url="http://127.0.0.1:11434/v1"))
    assert type(llm) is CompatChatOllama
    assert llm.num_ctx == 32768
    assert llm.base_url == "http://127.0.0.1:11434"  # the OpenAI-compatible /v1 is not the native API
    assert llm.force_tool_choice is None


def test_ollama_extra_body_goes_to_its_options():
    llm = make_llm("ollama:llama3.2", Settings.load(llm_extra_body={"top_k": 20, "think": False}))
    assert (llm.top_k, llm.reasoning) == (20, False)
    with pytest.raises(ConfigError, match="unknown option.*enable_thinking"):
        make_llm("ollama:llama3.2", Settings.load(llm_extra_body={"enable_thinking": False}))


CONFIG_ERRORS = [
    ("nosuch:model", "unknown provider 'nosuch'"),
    ("deepseek", "expected PROVIDER:MODEL"),
    ("deepseek:deepseek-chat", "DEEPSEEK_API_KEY"),  # no key in the test environment
    ("openai-compatible:x", "GPU_ADVISOR_LLM_BASE_URL"),
]


@pytest.mark.parametrize("spec,message", CONFIG_ERRORS)
def test_bad_specs_are_one_clear_config_error(spec, message):
    with pytest.raises(ConfigError, match=message):
        make_llm(spec, Settings.load())
