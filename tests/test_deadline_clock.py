"""A weekday or date limit counts from now to the end of that day, on the Env's clock (live, or a fixed day's start)."""

from __future__ import annotations

import datetime as dt

import pytest

from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import Env
from assistant.offline.workload import Defaults, deadline_hours
from assistant.understand.frames import Frame
from tools.messages import render

THURSDAY_3PM = dt.datetime(2026, 12, 3, 15, 0)  # a Thursday


@pytest.mark.parametrize("deadline, now, hours, date", [
    ({"weekday": "friday"}, THURSDAY_3PM, 33.0, "2026-12-04"),  # to Friday's end, not "24 h" from today's start
    ({"weekday": "thursday"}, THURSDAY_3PM, 177.0, "2026-12-10"),  # said on a Thursday: next week's
    ({"weekday": "monday"}, THURSDAY_3PM, 105.0, "2026-12-07"),
    ({"date": "12-03"}, THURSDAY_3PM, 9.0, "2026-12-03"),  # today: what is left of it
    ({"date": "2026-12-05"}, dt.datetime(2026, 12, 3), 72.0, "2026-12-05"),
    ({"date": "2026-12-02"}, THURSDAY_3PM, None, None),  # past: no limit computed
    ({"hours": 10}, THURSDAY_3PM, 10.0, None),  # a duration is a duration
])
def test_a_day_limit_runs_to_the_end_of_that_day(deadline, now, hours, date):
    d = Defaults()
    got = deadline_hours(TurnContext(frame=Frame.deadline, slots={"deadline": deadline}), d, now)
    assert got == (pytest.approx(hours) if hours is not None else None)
    if date is not None:
        (note,) = d.assumptions
        assert note.params["date"] == date and note.params["hours"] == pytest.approx(hours)
        assert f"{hours:.1f}" in render(note, "en") and date in render(note, "zh")


def test_the_env_clock_is_live_unless_a_day_is_fixed():
    fixed = Env(catalog=None, today=dt.date(2026, 12, 1))
    assert fixed.now() == dt.datetime(2026, 12, 1) and fixed.date() == dt.date(2026, 12, 1)
    live = Env(catalog=None)
    before = dt.datetime.now()
    assert before <= live.now() <= dt.datetime.now() + dt.timedelta(seconds=1)
