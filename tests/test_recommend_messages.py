"""The recommender's newer message codes against what the recommender really says.

`RUNS` calls the recommender over small inline catalogs so that every code of `RankCode`, `SoftwareCode`,
`ServeRecCode` and `RecommendError` is produced at least once (tests/test_messages.py does the same for the
older `RecommendCode`). The checks are the catalog's: every collected note renders in both languages on both
surfaces, chat renderings name no CLI flag, Chinese renderings carry no English words beyond names and terms,
and every number a rendering shows is one of its note's params.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Callable

import pytest
from pydantic import BaseModel

from tools.errors import error_note
from tools.messages import has_code, render
from tools.notes import Note
from tools.recommend import recommend
from tools.recommend_codes import RankCode, RecommendError, ServeRecCode, SoftwareCode
from tools.recommend_rank import BandCode, band_row
from tools.schemas import ExchangeRate, RecommendRequest, ServingLoad, VramRequest

ENUMS = (RankCode, BandCode, SoftwareCode, ServeRecCode, RecommendError)
FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="test rate")
TODAY = dt.date(2026, 12, 1)


def _runs() -> dict[str, Callable[[Any], Any]]:
    import test_ranking as r
    import test_recommend as rc
    import test_ranking_software as sw
    import test_recommend_serving as sv

    def rank(*instances, need_gib=20.0, **kw):
        return lambda real: recommend(r.catalog(*instances), None, RecommendRequest(required_gib=need_gib, **kw), FX,
                                      today=TODAY)

    def software(**kw):
        vram = kw.pop("vram", {"mode": "lora"})
        return lambda real: recommend(sw.CAT, sw.M1, RecommendRequest(vram=VramRequest(**vram), **kw), FX, today=TODAY)

    def serve(model, instances, **load):
        max_gpus = load.pop("max_gpus", 8)
        return lambda real: sv.serve(sv.catalog(real, *[sv.inst(*i) for i in instances]), real.model(model),
                                     max_gpus=max_gpus, **load)

    def error(call):
        def run(real):
            try:
                call(real)
            except ValueError as err:
                note = error_note(err)
                assert note is not None, err
                return note
            raise AssertionError("expected an error")

        return run

    p = r.price
    return {
        "band: fit": rank(r.inst("small/a", [p(1.00)], g="SMALL"), r.inst("big/b", [p(1.05)]), need_gib=22),
        "band: freshness, grade": rank(r.inst("old/a", [p(1.00, as_of=r.STALE)]), r.inst("new/b", [p(1.08)]),
                                       r.inst("mkt/c", [p(1.01, as_of=r.STALE, grade=r.MARKET)])),
        "band: same cost, fewer GPUs": rank(r.inst("aa/two", [p(1.00)], count=2), r.inst("zz/one", [p(1.00)])),
        "band: same cost, sooner": lambda real: recommend(rc.SAME_COST, rc.M7, rc.req(vram={"mode": "lora"}, tokens=1e9),
                                                          FX, today=TODAY),
        "billing compared, CNY": rank(r.MONTHLY_CHEAP, currency="CNY"),
        "only a spot price": rank(r.inst("s/spot", [p(0.5, billing=r.Billing.spot)])),
        "nothing priced within the budget": rank(r.inst("dark/x"), r.inst("a/one", [p(1.0)]), budget=500),
        "no price in the requested billing": rank(r.inst("dark/x"), r.inst("od/a", [p(1.0)]), billing=r.Billing.spot),
        "software: obsolete, caveats, Ascend": software(),
        "software: vGPU slice for training": rank(r.inst("v/slice", [p(0.3)], g="MID", count=0.25),
                                                  vram=VramRequest(mode="lora")),
        "serving: fits, variants": serve("qwen2.5-72b", [("h4/h100x4", "H100", 4, 16.0), ("h2/h100x2", "H100", 2, 8.0),
                                                          ("a/a100", "A100-80GB", 1, 1.5), ("l/l40s", "L40S", 1, 1.0)],
                                         concurrency=4),
        "serving: copies": serve("qwen2.5-7b", [("a/l40s", "L40S", 1, 1.0)], concurrency=200, input_len=8000, output_len=500),
        "serving: KV short": serve("qwen2.5-7b", [("a/l40s", "L40S", 1, 1.0)], concurrency=400, input_len=8000,
                                   output_len=500, max_gpus=1),
        # as many users as one L40S holds such sequences: no margin left
        "serving: KV margin": lambda real: sv.serve(
            sv.catalog(real, sv.inst("a/l40s", "L40S", 1, 1.0)), real.model("qwen2.5-7b"), max_gpus=1, input_len=8000,
            output_len=500, concurrency=sv.estimate_serving(real.model("qwen2.5-7b"), real.gpu("L40S"), sv.ServingRequest(
                gpus=1, input_len=8000, output_len=500, load=sv.Load(kind=sv.LoadKind.concurrency, value=1))).max_concurrency),
        "serving: targets": serve("qwen2.5-7b", [("a/l40s", "L40S", 1, 1.0)], concurrency=4, ttft_ms=1,
                                  min_tokens_per_user=10_000),
        "serving: saturated": serve("qwen2.5-7b", [("a/l40s", "L40S", 1, 1.0)], request_rate=2000, input_len=64,
                                    output_len=16),
        "error: serving for training": error(lambda real: recommend(real, real.model("qwen2.5-7b"), RecommendRequest(
            vram=VramRequest(mode="lora"), serving=ServingLoad(concurrency=2)), FX)),
        "error: serving without a model": error(lambda real: recommend(real, None, RecommendRequest(
            required_gib=10, serving=ServingLoad(concurrency=2)), FX)),
        "error: two loads": error(lambda real: ServingLoad(concurrency=2, request_rate=1.0)),
        "error: peak factor": error(lambda real: ServingLoad(concurrency=2, peak_factor=2.0)),
    }


def _walk(obj: Any, out: list[Note]) -> None:
    if isinstance(obj, Note):
        out.append(obj)
        for v in obj.params.values():
            _walk(v, out)
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            _walk(getattr(obj, name), out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _walk(v, out)
    elif isinstance(obj, dict):
        for v in obj.values():
            _walk(v, out)


@pytest.fixture(scope="module")
def collected() -> list[Note]:
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    real = load_catalog(Settings.load())
    notes: list[Note] = []
    for run in _runs().values():
        _walk(run(real), notes)
    notes += [band_row(n) for n in notes if n.code == RankCode.band]  # the chat table's row form of each band reason
    return list(dict.fromkeys(notes))


def ours(notes: list[Note]) -> list[Note]:
    prefixes = tuple(m.value.split(".")[0] + "." for e in ENUMS for m in e)
    return [n for n in notes if n.code.startswith(prefixes)]


@pytest.mark.parametrize("enum", ENUMS, ids=lambda e: e.__name__)
def test_every_code_has_both_languages_and_is_reached(collected, enum):
    reached = {n.code for n in collected}
    for member in enum:
        assert has_code(member.value), member.value
        assert member.value in reached, f"add a run that produces {member.value}"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("surface", ["chat", "cli"])
def test_every_note_renders(collected, lang, surface):
    for note in collected:
        text = render(note, lang, surface)
        assert text.strip() and "{" not in text and "None" not in text, (note, text)


def test_chat_renderings_name_no_flag(collected):
    flag = re.compile(r"(?<![\w-])--[a-z]")
    for note in ours(collected):
        for lang in ("en", "zh"):
            assert not flag.search(render(note, lang)), (note.code, render(note, lang))


def test_cli_errors_name_the_flags(collected):
    errors = [n for n in collected if n.code.startswith("error.rec.")]
    assert errors and all("--" in render(n, "en", "cli") for n in errors)


def test_chinese_renderings_have_no_english_words(collected):
    from test_messages import _names, english_words

    leftovers = {}
    for note in ours(collected):
        for surface in ("chat", "cli"):
            text = re.sub(r"--[a-z-]+(?: [a-z0-9/._-]+)?", " ", render(note, "zh", surface))
            words = english_words(text, _names(note))
            if words:
                leftovers[note.code] = words
    assert leftovers == {}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_number_a_rendering_shows_is_a_param(collected, lang):
    from assistant.verifier import Evidence, unbacked, verify_numbers

    bad = {}
    for note in ours(collected):
        text = render(note, lang)
        missing = unbacked(verify_numbers(text, Evidence(tool_results={"note": note.model_dump(mode="json")})))
        if missing:
            bad[note.code] = (text, [c.text for c in missing])
    assert bad == {}


@pytest.mark.parametrize(
    "names, lang, expected",
    [
        (None, "en", "verda's 1 × B200"),  # the CLI: keys, as --provider takes them
        ({"verda": ("Verda (formerly DataCrunch)", None)}, "en", "Verda (formerly DataCrunch)'s 1 × B200"),
        ({"gpushare": ("Gpushare (恒源云)", "恒源云")}, "zh", "恒源云 的 1 × B200"),
    ],
)
def test_tool_notes_name_providers_by_display_name_where_the_surface_sets_them(names, lang, expected):
    from contextlib import nullcontext

    from tools.messages import render
    from tools.messages.format import provider_names

    key = next(iter(names)) if names else "verda"
    note = Note.of(RankCode.none_within_budget, budget=500, currency="USD", period="month", provider=key,
                   instance="x", gpu_count=1, gpu="B200", nodes=1, cost=700, over_fraction=0.4)
    with provider_names(names) if names else nullcontext():
        assert expected in render(note, lang)
    assert f"{key}" in render(note, lang)  # outside the context: the key again
