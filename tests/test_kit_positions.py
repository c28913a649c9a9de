"""The kit's states from a chosen situation (testing/situations.py), its type strategies
(testing/register.py, the hypothesis entry point) and variants and meld kinds by name."""

from __future__ import annotations

import tomllib
from importlib import import_module
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from zipai_rules.analysis import Analysis
from zipai_rules.engine import Action, ActionKind, GameState, position
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.presets import load_preset
from zipai_rules.testing import (
    Situation,
    StrategyArgumentError,
    WinningHand,
    games,
    machine_for,
    melds,
    register_type_strategies,
)
from zipai_rules.testing.situations import offered_states
from zipai_rules.variant import Variant
from zipai_rules.vocab import Phase as GamePhase

ROOT = Path(__file__).resolve().parents[1]
HUNAN = load_preset("hunan")


@settings(max_examples=15, deadline=None)
@given(offered_states("hunan", "d2 d3 d5 d5 d5 d6", "d4"))
def test_seat_0_holding_a_kan_is_asked_about_the_card(state):
    assert isinstance(state, GameState) and state.phase == GamePhase.RESPOND
    assert state.actor == 0 and state.pending.card == 13 and state.pending.by == 2
    assert state.seats[0].hand[14] == 3 and state.seats[0].hand[15] >= 1
    assert sum(state.seats[0].hand) == 20
    assert position(HUNAN, state.to_position()) == state
    # the 坎 is never split: no 吃 the engine offers lays down a d5 (000 §永州 "一坎牌不能拆散")
    assert all(14 not in m.cards for a in state.options for m in a.melds)


def _buggy_chi_plans(hand, card):
    """A planted bug: a 吃 planner that forgets the 坎 is locked (offers d4 d5 d6 out of a
    坎 d5 and a d6, or d3 d4 d5)."""
    out = []
    for a, b in ((card + 1, card + 2), (card - 1, card + 1), (card - 2, card - 1)):
        if 0 <= a and b < 20 and a // 10 == b // 10 == card // 10 and hand[a] and hand[b]:
            out.append((a, b))
    return out


def test_a_planted_chi_bug_is_found_and_shrunk():
    found = []

    @settings(max_examples=30, deadline=None, database=None,
              phases=[Phase.generate, Phase.shrink])
    @given(offered_states("hunan", "d2 d3 d5 d5 d5 d6", "d4"))
    def property_(state):
        engine = {tuple(sorted(set(a.melds[0].cards) - {a.card}))
                  for a in state.options if a.kind == ActionKind.CHI}
        mine = {tuple(sorted(p)) for p in _buggy_chi_plans(state.seats[0].hand, 13)}
        found.append(state)
        assert mine <= engine

    with pytest.raises(AssertionError):
        property_()
    assert found  # the first example already shows it: a 坎 d5, d2 d3 d6, d4 on offer


def test_offered_states_refuse_what_can_draw_nothing():
    for args, kw in [(("hunan", "d5 d5 d5", "d5"), {}),          # a forced 跑 (Hunan)
                     (("hunan", "x1 x1 x1 x1", "x2"), {}),
                     (("hunan", "x2 x3", "x1"), {"seat": 5}),
                     (("hunan", "x2 x3", "x1"), {"by": 0}),
                     (("hunan", "x2 x3", "x1"), {"source": "self"}),
                     (("hunan", "x2 x3", "zz"), {}),
                     (("hunan", "x2 x3", "K"), {"source": "draw"}),
                     (("hunan", "x9", "d1"), {}),                 # no claim at all
                     (("nowhere", "x2 x3", "x1"), {})]:
        with pytest.raises(StrategyArgumentError):
            offered_states(*args, **kw)


@settings(max_examples=10, deadline=None)
@given(offered_states("guilin", "x2 x7", "x10", seat=1, source="draw"))
def test_an_offered_draw(state):
    assert state.actor == 1 and state.pending.source == "draw" and state.pending.by == 0
    assert position(load_preset("guilin"), state.to_position()) == state


def test_the_hypothesis_entry_point_is_declared_and_resolves():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    target = meta["project"]["entry-points"]["hypothesis"]["_"]
    module, _, name = target.partition(":")
    assert callable(getattr(import_module(module), name))
    getattr(import_module(module), name)()  # idempotent
    register_type_strategies()


@settings(max_examples=10, deadline=None)
@given(st.from_type(Meld), st.from_type(Action), st.from_type(Variant),
       st.from_type(Situation), st.from_type(WinningHand))
def test_type_strategies(meld, action, variant, situation, case):
    assert isinstance(meld, Meld) and isinstance(action, Action)
    assert isinstance(variant, Variant) and isinstance(situation, Situation)
    assert isinstance(case.analysis, Analysis) and case.analysis.win


@settings(max_examples=5, deadline=None)
@given(st.builds(lambda m, a: (m, a), st.from_type(Meld), st.from_type(Action)))
def test_builds_with_type_hints(pair):
    assert isinstance(pair[0], Meld)


@settings(max_examples=20, deadline=None)
@given(melds("hunan", kinds={"peng"}), melds("guilin", kinds="wei"), games("shaoyang", 5))
def test_variants_and_meld_kinds_by_name(peng, wei, game):
    assert peng.kind == MeldKind.PENG and wei.kind == MeldKind.WEI
    assert game.variant.id == "shaoyang"


def test_names_everywhere_and_bad_names_refused():
    assert machine_for("hunan").variant.id == "hunan"
    with pytest.raises(StrategyArgumentError):
        melds("hunan", kinds={"pong"})
    with pytest.raises(StrategyArgumentError):
        melds("no such variant")


_ENTRY_POINT_RUN = """
import importlib.metadata as md
ep = md.EntryPoint(name='_', value=TARGET, group='hypothesis')
real = md.entry_points
md.entry_points = lambda **kw: md.EntryPoints([ep]) if kw.get('group') == 'hypothesis' \\
    else real(**kw)
import hypothesis  # runs the entry points of group 'hypothesis' on import
from hypothesis import strategies as st
from zipai_rules.melds import Meld
assert isinstance(st.from_type(Meld).example(), Meld)
"""


def test_hypothesis_runs_the_entry_point_on_import():
    """As hypothesis does where zipai_rules is installed: the pyproject's entry point is
    loaded when hypothesis is imported, and st.from_type(Meld) works at once."""
    import subprocess
    import sys
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    target = meta["project"]["entry-points"]["hypothesis"]["_"]
    code = _ENTRY_POINT_RUN.replace("TARGET", repr(target))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
