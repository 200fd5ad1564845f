"""The recommendation table's 'why' cells: a note every row would repeat is said once (assistant/offline/handlers/recommend.py)."""

from __future__ import annotations

import pytest

from assistant.offline.handlers.recommend import row_notes, shared_notes

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
