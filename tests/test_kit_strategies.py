"""The property-testing kit as its users meet it (issue 17): strategies that reach the states
that matter, built rather than filtered; arguments checked when a strategy is built; examples
printed in card notation; the machine's knobs as arguments; the kit without hypothesis."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty

from zipai_rules import MeldKind, analyze, find_variant, load_preset, preset_ids
from zipai_rules.cards import format_cards
from zipai_rules.engine import ActionKind, replay, shuffled_deal
from zipai_rules.engine.observation import Observation
from zipai_rules.errors import ZipaiError
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset
from zipai_rules.testing import (
    OFFERS,
    DrawnGame,
    Situation,
    StrategyArgumentError,
    WinningHand,
    action_sequences,
    game_states,
    games,
    hands,
    machine_for,
    melds,
    observations,
    situations,
    strategies,
    variant_documents,
    variants,
    winning_hands,
    winning_situations,
)
from zipai_rules.variant import Variant

HUNAN = find_variant("hunan")
N = max(6, settings.default.max_examples // 10)
# the default health checks stay on (filter_too_much included): nothing here filters
kit = settings(settings.default, max_examples=N)


def search(n: int) -> settings:
    return settings(database=None, max_examples=n, phases=[Phase.generate], derandomize=True)


def shrunk(n: int = 200) -> settings:
    return settings(database=None, max_examples=n, derandomize=True)


def held(case) -> int:
    return len(case.hand) + sum(len(m.cards) for m in case.table)


def quads(table) -> int:
    return sum(1 for m in table if m.kind in (MeldKind.TI, MeldKind.PAO))


# --- arguments are checked when a strategy is built ----------------------------------------------

@pytest.mark.parametrize("build", [
    lambda: winning_hands(HUNAN, min_huxi=20, max_huxi=10),
    lambda: winning_hands(HUNAN, min_huxi=500),
    lambda: winning_hands(HUNAN, max_huxi=10),           # below Hunan's threshold of 15
    lambda: winning_hands(HUNAN, min_huxi=61),           # 60 is the most a Hunan hand reaches
    lambda: melds(HUNAN, frozenset()),
    lambda: hands(HUNAN, size=5, min_size=2),
    lambda: hands(HUNAN, min_size=9, max_size=3),
    lambda: hands(HUNAN, size=81),                        # the deck holds 80
    lambda: games(HUNAN, max_steps=-1),
    lambda: action_sequences(HUNAN, max_steps=-1),
    lambda: observations(HUNAN, max_steps=-1),
    lambda: game_states(HUNAN, "tianhu"),
    lambda: game_states(HUNAN, "hu", max_hands=0),
])
def test_impossible_arguments_fail_when_the_strategy_is_built(build):
    with pytest.raises(StrategyArgumentError) as info:
        build()
    assert info.value.code == "bad_argument" and isinstance(info.value, ZipaiError)


def test_the_error_names_what_a_hand_can_reach():
    with pytest.raises(StrategyArgumentError, match="reaches here is 60"):
        winning_hands(HUNAN, min_huxi=500)
    # four big 提 (12 each) and two big 坎 (6 each) with a pair: 60, and no more is built
    assert find(winning_hands(HUNAN, min_huxi=60), lambda c: True,
                settings=search(50)).analysis.huxi == 60


# --- winning hands: full size, built to a target -------------------------------------------------

@pytest.mark.parametrize("preset", preset_ids())
@kit
@given(data=st.data())
def test_winning_hands_are_full_size(preset, data):
    v = load_preset(preset)
    case = data.draw(winning_hands(v))
    assert isinstance(case, WinningHand) and case.hand
    # the resting size plus one card: 21 in Hunan with at most one 提/跑 (八块: one more per
    # 提/跑 after the first)
    assert held(case) == v.resting_size(quads(case.table)) + 1
    assert analyze(v, case.hand, case.table) == case.analysis and case.analysis.win


def test_a_hunan_winning_hand_without_a_quad_holds_21_cards():
    case = find(winning_hands(HUNAN), lambda c: quads(c.table) == 0, settings=search(50))
    assert held(case) == 21


@pytest.mark.parametrize("low", [30, 45])
@kit
@given(data=st.data())
def test_high_huxi_hands_are_built_not_filtered(low, data):
    case = data.draw(winning_hands(HUNAN, min_huxi=low))
    assert case.analysis.win and low <= case.analysis.huxi <= 200


@pytest.mark.parametrize(("low", "bug_at"), [(None, 17), (None, 32), (27, 40)])
def test_winning_hands_shrink_to_the_lowest_failing_huxi(low, bug_at):
    """A planted ``huxi >= bug_at`` bug shrinks to a hand of exactly ``bug_at`` 胡息 (issue 27:
    it stopped at 32 where 17 fails too; before this fix at 18 and 36): a shrunk chooser
    takes the heaviest meld that still lets the melds make the target exactly, not one above
    it. (Every 胡息 from 15 to 40 is made exactly, but 41: it needs two small 碰, which leave
    too little room.)"""
    case = find(winning_hands(HUNAN, min_huxi=low), lambda c: c.analysis.huxi >= bug_at,
                settings=shrunk())
    assert case.analysis.huxi == bug_at


def test_a_custom_variant_with_threshold_30():
    doc = {"extends": "hunan", "id": "high", "name": "high threshold", "win": {"min_huxi": 30}}
    v = build_variant(doc, raw_preset, "high")

    @kit
    @given(winning_hands(v))
    def check(case):
        assert case.analysis.huxi >= 30

    check()


def test_penghu_never_wins_with_an_empty_hand():
    v = load_preset("penghu")  # threshold 0: any complete hand wins
    sizes = Counter()

    @settings(database=None, max_examples=100, derandomize=True)
    @given(winning_hands(v))
    def count(case):
        sizes[len(case.hand) > 0] += 1
        assert held(case) == v.resting_size(quads(case.table)) + 1   # 15 without a 提/跑

    count()
    assert sizes == {True: 100}


@pytest.mark.parametrize("preset", ["hunan", "guilin", "yongzhou", "penghu"])
@kit
@given(data=st.data())
def test_winning_situations_win_with_their_incoming_card(preset, data):
    v = load_preset(preset)
    sit = data.draw(winning_situations(v))
    assert isinstance(sit, Situation) and sit.card is not None
    assert sit.source in v.win.sources
    assert held(sit) == v.resting_size(quads(sit.table))
    assert analyze(v, *sit).win


# --- games and the states that matter -------------------------------------------------------------

@kit
@given(games(HUNAN, finished=False))
def test_unfinished_games_are_never_over(game):
    assert isinstance(game, DrawnGame) and not game.is_over and game.legal_actions()
    assert replay(HUNAN, shuffled_deal(HUNAN, game.seed), game.actions).state == game.state


@pytest.mark.parametrize("offer", ["claim", "peng", "bi", "hu"])
@kit
@given(data=st.data())
def test_game_states_have_their_offer(offer, data):
    game = data.draw(game_states(HUNAN, offer))
    options = game.legal_actions()
    assert not game.is_over and OFFERS[offer](game)
    if offer == "hu":
        assert ActionKind.HU in {a.kind for a in options}
    if offer == "bi":
        assert any(a.kind == ActionKind.CHI and len(a.melds) > 1 for a in options)


@pytest.mark.parametrize("offer", sorted(OFFERS))
def test_every_offer_passes_the_default_health_checks_within_a_work_bound(offer, monkeypatch):
    """Under hypothesis' own defaults, not this repository's profile: issue 27 found hu_check
    and forced failing the too_slow check (and peng_again 2 runs of 3). That check times the
    drawing, so it is left out here (no test asserts seconds) and the work it stands for is
    bounded instead: the hands dealt and the actions applied to reach each example. Before
    the fix a ``forced`` state came in 4% of hands (about 25 hands an example); now the
    heaviest offer (``hu``) deals about 4 and applies about 140 actions."""
    work = {"hands": 0, "actions": 0}

    class Counting(strategies.DrawnGame):
        def __init__(self, *args, **kwargs):
            work["hands"] += 1
            super().__init__(*args, **kwargs)

        def apply(self, *args, **kwargs):
            work["actions"] += 1
            return super().apply(*args, **kwargs)

    monkeypatch.setattr(strategies, "DrawnGame", Counting)
    seen = []

    @settings(settings.get_profile("default"), max_examples=10, database=None, deadline=None,
              derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(game_states(HUNAN, offer))
    def check(game):
        seen.append(game)
        assert not game.is_over and OFFERS[offer](game)

    check()
    assert seen
    assert work["hands"] <= 10 * len(seen) and work["actions"] <= 400 * len(seen)


def test_a_hu_check_state_may_be_a_dealt_hand_the_dealer_may_win_with():
    game = find(game_states(HUNAN, "hu_check"), lambda g: g.seed is None, settings=search(30))
    assert game.actions == [] and game.state.phase == "hu_check" and game.state.actor == 0
    assert repr(game).startswith("DrawnGame(hunan, deal=Deal(hands=[")
    assert replay(HUNAN, game.deal, []).state == game.state


@pytest.mark.parametrize("offer", ["hu_check", "forced"])
def test_rare_offers_are_reached(offer):
    game = find(game_states(HUNAN, offer), lambda g: True, settings=search(3))
    assert OFFERS[offer](game)
    if offer == "hu_check":
        assert game.state.phase == "hu_check"
    else:
        assert len(game.legal_actions()) == 1


def test_game_states_shrink_to_the_earliest_state():
    # seed 0, eager play: the dealer has 16 legal discards and random.Random(0).randrange(16)
    # is 12, d6; seat 1 holds x6 d6 d6 and may 吃 it as a 绞
    game = find(game_states(HUNAN, "claim"), lambda g: True, settings=shrunk())
    assert (game.seed, [str(a) for a in game.actions]) == (0, ["seat 0 discard d6"])
    assert [str(a) for a in game.legal_actions()] == ["seat 1 chi d6 jiao(x6 d6 d6)",
                                                      "seat 1 pass"]


def test_games_shrink_to_the_first_state_that_fails():
    # a game of n steps is the start of every longer game of its seed, so a failure shrinks to
    # the shortest game showing it: seed 0 opens with d6 (no 碰 for anybody), seed 1 with x3
    # and a 碰 is on offer after that one action
    def peng_on_offer(game):
        return any(a.kind == ActionKind.PENG for a in game.legal_actions())

    game = find(games(HUNAN), peng_on_offer, settings=shrunk())
    assert (game.seed, [str(a) for a in game.actions]) == (1, ["seat 0 discard x3"])
    assert not peng_on_offer(DrawnGame(HUNAN, seed=0)) and game.state.pending.card == 2


@kit
@given(observations(HUNAN))
def test_observations_round_trip(observation):
    assert isinstance(observation, Observation) and observation.seat in range(3)
    assert Observation.from_json(observation.to_json()) == observation


# --- variants and variant documents --------------------------------------------------------------

def test_variants_cover_presets_and_mutated_documents():
    seen = set()

    @settings(database=None, max_examples=60, derandomize=True, deadline=None)
    @given(variants())
    def collect(v):
        assert isinstance(v, Variant)
        seen.add(v.id)

    collect()
    assert "fuzz" in seen and len(seen & set(preset_ids())) >= 3


@pytest.mark.parametrize("base", ["湖南跑胡子", "paohuzi", "file", "variant"])
def test_variant_documents_of_any_variant(base, tmp_path):
    if base == "file":
        path = tmp_path / "mine.yaml"
        path.write_text("extends: guilin\nid: mine\nname: mine\nwin: {min_huxi: 12}\n",
                        encoding="utf-8")
        base, name, copies = str(path), "mine", 4
    elif base == "variant":
        base, name, copies = load_preset("yongzhou"), "永州双王扯胡子", 4
    else:
        name, copies = "湖南跑胡子", 4
    doc = find(variant_documents(base), lambda d: True, settings=search(5))
    assert (doc["id"], doc["name"], doc["deck"]["copies"]) == ("fuzz", name, copies)


# --- readable examples ----------------------------------------------------------------------------

def test_examples_print_in_card_notation():
    case = find(winning_hands(HUNAN), lambda c: True, settings=search(5))
    text = pretty(case)
    assert text.startswith("WinningHand(hand='") and len(text) < 300
    assert f"huxi={case.analysis.huxi}" in text
    sit = find(situations(HUNAN), lambda s: s.card is not None, settings=search(20))
    assert pretty(sit).startswith("Situation(hand='") and len(pretty(sit)) < 300
    assert f"card={format_cards([sit.card])}, source='{sit.source}'" in pretty(sit)
    game = DrawnGame(HUNAN, seed=7)
    for _ in range(2):
        game.apply(game.legal_actions()[0])
    assert pretty(game) == ("DrawnGame(hunan, seed=7, 2 actions: [seat 0 discard x1; seat 2 "
                            "peng x1], Game(hunan, seed=7, turn 2, seat 2 to act))")
    # strategies print with their names and the short form of the variant
    assert pretty(melds(HUNAN)).startswith("melds(variant=Variant(id='hunan'")
    assert pretty(games(HUNAN)) == (f"games(variant={HUNAN!r}, max_steps=120, finished=True)")
    assert pretty(HUNAN) == repr(HUNAN) and len(repr(HUNAN)) < 80


def test_situations_are_in_the_order_analyze_takes():
    sit = find(situations(HUNAN), lambda s: s.card is not None, settings=search(20))
    hand, table, card, source = sit
    assert (sit.hand, sit.table, sit.card, sit.source) == (hand, table, card, source)
    assert analyze(HUNAN, *sit) == analyze(HUNAN, hand, table, card, source)


# --- the machine's knobs, the kit without hypothesis ---------------------------------------------

def test_machine_for_takes_its_knobs_as_arguments():
    seeds = []
    machine = machine_for(HUNAN, lambda game: seeds.append(game.seed),
                          seed_strategy=st.just(7), check_records=False)
    assert machine.check_records is False
    machine.TestCase.settings = settings(max_examples=2, stateful_step_count=5, deadline=None,
                                         database=None,
                                         suppress_health_check=[HealthCheck.too_slow])
    machine.TestCase().runTest()
    assert seeds and set(seeds) == {7}
    assert machine_for(HUNAN).check_records is True
    assert machine_for("hunan").variant == HUNAN  # a preset by name (issue 27)
    with pytest.raises(ZipaiError):
        machine_for(42)


def test_the_kit_without_hypothesis_says_what_to_install():
    code = ("import sys; sys.modules['hypothesis'] = None\n"
            "try:\n    import zipai_rules.testing\n"
            "except ModuleNotFoundError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert 'python3 -m pip install ".[testing]"' in out and "zipai-rules[" not in out
