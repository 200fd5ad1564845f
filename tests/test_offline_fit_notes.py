"""The fit answer's notes (assistant/offline/handlers/fit_notes.py): the cheapest change names its hardware when
an answer lists several, so a bullet under the second GPU is not read as advice for the first."""

from __future__ import annotations

import pytest

from assistant.offline.handlers.fit_notes import change_note, target_label
from tools.messages import render

CHANGE = {"change": {"kind": "set_mode", "value": "qlora"}, "per_gpu_gib": 14.2, "headroom_gib": 9.4}


@pytest.mark.parametrize(
    "lang, on, starts",
    [
        ("en", None, "The cheapest change that makes it fit: **"),
        ("en", "4× RTX-4090", "On 4× RTX-4090, the cheapest change that makes it fit: **"),
        ("zh", None, "能放下的最省事的改法：**"),
        ("zh", "T4", "T4 上能放下的最省事的改法：**"),
    ],
)
def test_the_cheapest_change_names_its_hardware_when_asked(lang, on, starts):
    text = render(change_note(CHANGE, lang, on=on), lang)
    assert text.startswith(starts), text
    assert "14.2 GiB" in text and "9.4 GiB" in text


@pytest.mark.parametrize(
    "target, label",
    [
        ({"gpu": "RTX-4090", "count": 4, "usable_gib": 23.6}, "4× RTX-4090"),
        ({"gpu": "T4", "count": 1, "usable_gib": 14.6}, "T4"),
        ({"available_gib": 24.0, "usable_gib": 24.0}, "24 GB"),
        ({"available_gib": 12.5, "count": 2, "usable_gib": 12.5}, "2× 12.5 GB"),
    ],
)
def test_target_label(target, label):
    assert target_label({"target": target}) == label
