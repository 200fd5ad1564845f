"""A model family named without a version, and the vLLM release or chat traffic a serving question states.

Table-driven over the real catalog, the real handlers and the real LangChain tool box (nothing mocked).
"""

from __future__ import annotations

import json

import pytest

from assistant.offline.context import TurnContext
from assistant.understand.serving_setup import CHAT_TRAFFIC, vllm_version as _vllm_version
from assistant.offline.workload import AssumeCode, Defaults, model_args
from assistant.understand.slots import Frame
from tools.serving_profiles import WeightFormat


@pytest.fixture(scope="module")
def catalog():
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    return load_catalog(Settings.load())


@pytest.mark.parametrize("name,members", [
    ("Stable Diffusion", ["sd-1.5", "sdxl"]),
    ("stable-diffusion", ["sd-1.5", "sdxl"]),
    ("BERT", ["bert-base", "bert-large"]),
    ("Llama", []),  # a decoder family: its size is asked, never guessed from its smallest member
    ("nothing-like-this", []),
])
def test_family_members_smallest_first(catalog, name, members):
    got = catalog.family_members(name)
    assert got[: len(members)] == members if members else got == []
    assert [catalog.models[k].params for k in got] == sorted(catalog.models[k].params for k in got)


def test_a_family_is_sized_by_its_smallest_member_and_says_so(catalog):
    keys = catalog.family_members("Stable Diffusion")
    ctx = TurnContext(frame=Frame.recommend, slots={"model_name": "Stable Diffusion"}, family_members=keys,
                      family_names=[catalog.models[k].name for k in keys])
    d = Defaults()
    assert model_args(ctx, d) == {"model": keys[0]}
    assert d.assumptions[0].code == AssumeCode.family_member and d.assumptions[0].params["others"] == [catalog.models[keys[1]].name]


def test_an_llm_family_without_a_size_names_the_family_in_the_assumption():
    d = Defaults()
    assert model_args(TurnContext(frame=Frame.memory, slots={"model_name": "Llama"}), d) == {"params": 7e9}
    assert d.assumptions[0].code == AssumeCode.family_size and d.assumptions[0].params["family"] == "Llama"


@pytest.mark.parametrize("text,version", [
    ("3090上vllm 0.6.3跑llama3.1-8b", "0.6.3"),
    ("vllm (0.6.3)", "0.6.3"),
    ("vllm version: 0.9.2", "0.9.2"),
    ("vLLM用V0引擎", "V0"),
    ("v1 engine, 50 users", "V1"),
    ("VLLM_USE_V1=0", "V0"),
    ("H100上vllm跑qwen", None),
    ("qwen2.5 v0.5 release notes", None),  # not vLLM's
])
def test_vllm_version_in_the_question(text, version):
    assert _vllm_version(text) == version


@pytest.mark.parametrize("text,chat", [("对话类流量，最大吞吐", True), ("a customer-support chatbot", True), ("batch summarisation", False)])
def test_chat_traffic_words(text, chat):
    assert bool(CHAT_TRAFFIC.search(text)) is chat


def test_an_unreadable_vllm_version_is_a_clear_tool_error():
    from langchain_core.tools import ToolException

    from assistant.lc_tools import ServingArgs, ToolBox
    from assistant.resources import Resources
    from knowledge.settings import Settings

    box = ToolBox(Resources(Settings.load()))
    base = dict(model="llama-3.1-8b", gpu="RTX-3090", gpus=1, input_len=19744, output_len=256)
    v0 = box.estimate_serving(ServingArgs(**base, vllm_version="0.6.3"))
    v1 = box.estimate_serving(ServingArgs(**base))
    assert v0.kv_cache_gib < v1.kv_cache_gib  # V0's profile run holds the whole context: a smaller pool
    with pytest.raises(ToolException, match="expected a release such as"):
        box.estimate_serving(ServingArgs(**base, vllm_version="latest"))


@pytest.mark.slow
@pytest.mark.parametrize("question", [
    "serve Qwen2.5-14B to 40 concurrent users with 4k context on vllm 0.6.3, what do I rent?",  # newcomer check, 2026-12-01
    "部署qwen2.5-7b做客服聊天，对话类流量，50并发，租什么卡",
])
def test_a_serving_pick_with_an_engine_version_or_chat_traffic_still_computes(question):
    from assistant import Advisor

    answer = Advisor().ask(question)
    rec = [c for c in answer.tool_calls if c.name == "recommend_config"]
    assert rec and not (isinstance(rec[0].result, dict) and "error" in rec[0].result), rec
    assert answer.recommendation is not None and not answer.unbacked


@pytest.mark.parametrize("slots, params, training, mode, assumed", [
    ({"model": "bert-base"}, 1.1e8, True, "full", "assume.mode_small_full"),  # small models train whole
    ({"model": "qwen2.5-7b"}, 7.6e9, True, "lora", "assume.mode_finetune"),
    ({"model": "bert-base", "mode": "lora"}, 1.1e8, True, "lora", None),  # a stated method wins
    ({"model": "bert-base"}, 1.1e8, False, "inference", "assume.mode_default"),
    ({"params": 5e8}, 5e8, True, "full", "assume.mode_small_full"),
    ({"model": "bert-base", "mode": "finetune"}, 1.1e8, True, "full", "assume.mode_small_full"),  # "fine-tune BERT"
    ({"model": "qwen2.5-7b", "mode": "finetune"}, 7.6e9, True, "lora", "assume.mode_finetune"),
])
def test_the_training_method_assumed_follows_the_model_size(slots, params, training, mode, assumed):
    from assistant.offline.workload import mode_of

    d = Defaults()
    ctx = TurnContext(frame=Frame.memory, slots=slots, workload_params=params, training=training)
    assert mode_of(ctx, d) == mode
    assert [n.code for n in d.assumptions] == ([assumed] if assumed else [])


def test_a_stated_release_reaches_the_kv_pool_rules_by_release():
    """'vllm 0.11' in a question is the release too, not only its engine generation: from 0.11.0 NCCL's buffers come
    out of the headroom, not the pool (tools/kv_pool.py), so on two GPUs the pool grows; on one nothing moves."""
    from assistant.lc_tools import ServingArgs, ToolBox, vllm_fields
    from assistant.resources import Resources
    from knowledge.settings import Settings

    assert vllm_fields("0.11.0")["engine_version"] == "0.11.0" and "engine_version" not in vllm_fields("V1")
    box = ToolBox(Resources(Settings.load()))
    base = dict(gpu="H100", input_len=16000, output_len=100)  # too long for 70B on two H100s: TP 4 either way
    one = [box.estimate_serving(ServingArgs(**base, model="llama-3-8b", gpus=1, vllm_version=v)) for v in ("0.10.2", "0.11.0")]
    wide = [box.estimate_serving(ServingArgs(**base, model="llama-3.1-70b", gpus=4, vllm_version=v)) for v in ("0.10.2", "0.11.0")]
    assert one[1].kv_cache_gib == pytest.approx(one[0].kv_cache_gib)
    assert wide[0].tp == wide[1].tp == 4
    assert wide[1].kv_cache_gib - wide[0].kv_cache_gib == pytest.approx(2.5 - 0.4)  # NCCL over NVLink, less the base


def test_cli_engine_version_and_the_recommenders_load_carry_the_release(capsys):
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings
    from tools.recommend_serving import ServingPlanner
    from tools.schemas import ServingLoad
    from ui.cli import main

    def kv(version: str) -> str:
        assert main(["serving", "--model", "llama-3-8b", "--gpu", "H100", "--gpus", "2", "--tp", "2",
                     "--engine-version", version, "--json"]) == 0
        return json.loads(capsys.readouterr().out)["kv_cache_gib"]

    assert kv("0.11.0") > kv("0.10.2")
    cat = load_catalog(Settings.load())
    load = ServingLoad(concurrency=8, engine_version="0.11.0")
    planner = ServingPlanner(cat.model("llama-3-8b"), load, 8)
    assert planner.request(WeightFormat.bf16, 2, 2, 1, 1).engine_version == "0.11.0"
