"""Property (hypothesis): for fixed evidence sets, an invented figure passes exactly when it is truly there.

The evidence sets and the oracle are benchmarks/verifier.py's: six results of the real calculators on the
real catalog (a recommendation, a VRAM estimate, a cost estimate, a training-time estimate, a serving
estimate on a priced instance, a GPU record), two passages and the user's question each. The oracle is
written independently of the verifier's rules: explicit tables of which field holds which dimension,
and the passages' and user's figures listed by hand. A figure is truly present when a truth of its
dimension (currency, period) lies within the rounding its written digits allow, after unit conversion.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    if "verifier_bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("verifier_bench", ROOT / "benchmarks" / "verifier.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["verifier_bench"] = module
        spec.loader.exec_module(module)
    return sys.modules["verifier_bench"]


bench = _bench()
PROFILE = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])


class World:
    """The verifier and the evidence sets, built once (a short repr: hypothesis prints its arguments)."""

    def __init__(self) -> None:
        self.verifier = bench.load_current()
        self.sets = [(s, self.verifier.evidence(s)) for s in bench.build_sets()]

    def __iter__(self):
        return iter((self.verifier, self.sets))

    def __repr__(self) -> str:
        return f"World({', '.join(s.name for s, _ in self.sets)})"


@pytest.fixture(scope="module")
def world():
    return World()


class Truths(list):
    """A set's truths with a short repr (hypothesis prints strategy arguments)."""

    def __repr__(self) -> str:
        return f"<{len(self)} truths>"


@st.composite
def invented(draw, truths):
    form = draw(st.sampled_from(bench.FORMS))
    same = [t for t in truths if t.dim == form.dim and (form.currency is None or t.currency == form.currency)]
    kind = draw(st.sampled_from(["int", "log", "near"] if same else ["int", "log"]))
    if kind == "int":  # the issue's sweep
        raw, decimals = float(draw(st.integers(1, 100))), 0
    elif kind == "log":
        raw, decimals = 10 ** draw(st.floats(-1.5, 4.5)), draw(st.integers(0, 3))
    else:  # near a real figure, on either side of the tolerance
        t = draw(st.sampled_from(same))
        loose = t.loose is not None and form.loose_scale and draw(st.booleans())
        base = t.loose / form.loose_scale if loose else t.value / form.scale
        raw, decimals = base * (1 + draw(st.floats(-0.15, 0.15))), draw(st.integers(0, 4))
    claim = bench.make_claim(form, raw, decimals, approx=draw(st.booleans()))
    assume(claim is not None and claim.raw < 1e9)
    return claim


def _leaf(results: dict, label: str):
    """The value a `tool:<name>:<path>` label points at."""
    _, name, path = label.split(":", 2)
    node = results[name]
    for part in path.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


@PROFILE
@given(data=st.data())
def test_an_invented_figure_passes_exactly_when_it_is_there(world, data):
    verifier, sets = world
    s, evidence = sets[data.draw(st.integers(0, len(sets) - 1), label="evidence set")]
    claim = data.draw(invented(Truths(s.truths)), label="claim")
    ok, claims = verifier.check(claim.text, evidence, s.user_texts)
    assert len(claims) == 1, (claim.text, claims)  # every written form is read, as one claim
    assert ok == bench.present(claim, s.truths), (s.name, claim.text, claims[0].backed_by)
    label = claims[0].backed_by or ""
    if label.startswith("tool:"):  # what backs it is a typed number, never a string
        leaf = _leaf(s.json_results(), label)
        assert isinstance(leaf, (int, float)) and not isinstance(leaf, bool), (label, leaf)


@PROFILE
@given(data=st.data())
def test_a_true_figure_restated_passes(world, data):
    verifier, sets = world
    s, evidence = sets[data.draw(st.integers(0, len(sets) - 1), label="evidence set")]
    truth = data.draw(st.sampled_from(s.truths), label="truth")
    seed = data.draw(st.integers(0, 2**31))
    import random

    claim = bench.restate(random.Random(seed), truth)
    assume(claim is not None and bench.present(claim, s.truths))
    ok, claims = verifier.check(claim.text, evidence, s.user_texts)
    assert claims and ok, (s.name, claim.text, claims)


def test_the_issues_sweep(world):
    """Integers 1-100 as "$N per hour" and "N GB" against a recommendation: only those truly there pass."""
    verifier, sets = world
    rec = next(s for s, _ in sets if s.name == "recommendation")
    for claim, (passed, true) in bench.sweep(verifier, rec).items():
        assert passed == true, claim
