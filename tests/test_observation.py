"""Per-seat observations (zipai_rules.engine.observation.observe): a seat sees its own hand
and melds in full, other seats' melds as the variant displays them, counts of hidden cards,
and nothing of another seat's concealed cards.

Display rules from the preset files (``display``): Hunan 偎 hidden ("碰亮偎不亮"), 提 one up
("盖3张亮一张"); Shaoyang 偎 one up ("偎亮一张底牌"); Guilin 提 hidden ("4需全盖在桌面上");
碰胡 提 all up ("4张全亮"); 跑 all up everywhere.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_rules import load_preset, preset_ids
from zipai_rules.cards import counts_of
from zipai_rules.engine import Game
from zipai_rules.engine.observation import SeenMeld, observe
from zipai_rules.melds import Meld
from zipai_rules.melds import MeldKind as M
from zipai_rules.testing import games

x = lambda r: r - 1   # noqa: E731
d = lambda r: 9 + r   # noqa: E731

# seat 1's table in the constructed states
TABLE = (Meld(M.WEI, (x(3),) * 3), Meld(M.CHOU_WEI, (x(4),) * 3), Meld(M.TI, (d(5),) * 4),
         Meld(M.PAO, (d(6),) * 4), Meld(M.PENG, (x(8),) * 3),
         Meld(M.SHUN, (x(5), x(6), x(7)), claimed=x(6)))
PEN = SeenMeld(M.PENG, (x(8),) * 3)
CHI = SeenMeld(M.SHUN, (x(5), x(6), x(7)))
PAO = SeenMeld(M.PAO, (d(6),) * 4)
HIDDEN_WEI, ONE_UP_WEI = SeenMeld(M.WEI, (), 3), SeenMeld(M.WEI, (x(3),), 2)
ONE_UP_CHOU = SeenMeld(M.CHOU_WEI, (x(4),), 2)
HIDDEN_TI, ONE_UP_TI = SeenMeld(M.TI, (), 4), SeenMeld(M.TI, (d(5),), 3)
ALL_UP_TI = SeenMeld(M.TI, (d(5),) * 4)

EXPECTED = {
    "hunan": (HIDDEN_WEI, ONE_UP_CHOU, ONE_UP_TI, PAO, PEN, CHI),
    "shaoyang": (ONE_UP_WEI, ONE_UP_CHOU, ONE_UP_TI, PAO, PEN, CHI),
    "guilin": (HIDDEN_WEI, ONE_UP_CHOU, HIDDEN_TI, PAO, PEN, CHI),
    "penghu": (HIDDEN_WEI, ONE_UP_CHOU, ALL_UP_TI, PAO, PEN, CHI),
}


def with_table(state, seat=1, melds=TABLE):
    seats = list(state.seats)
    seats[seat] = attrs.evolve(seats[seat], melds=melds)
    return attrs.evolve(state, seats=tuple(seats))


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_other_seats_melds_follow_the_display(preset):
    state = with_table(Game(load_preset(preset), seed=3).state)
    for seat in (0, 2):
        assert observe(state, seat).melds[1] == EXPECTED[preset]
    # the owner sees all of its melds face up
    assert observe(state, 1).melds[1] == tuple(SeenMeld(m.kind, m.cards) for m in TABLE)


def test_json_of_hidden_melds():
    state = with_table(Game(load_preset("hunan"), seed=3).state)
    seen = observe(state, 0).to_json()["melds"][1]
    assert seen[0] == {"kind": "wei", "cards": [], "hidden": 3}
    assert seen[2] == {"kind": "ti", "cards": ["d5"], "hidden": 3}


@pytest.mark.parametrize("preset", preset_ids())
def test_own_view_and_hidden_counts_in_seeded_games(preset):
    v = load_preset(preset)
    for seed in range(3):
        game, rng = Game(v, seed=seed), random.Random(seed)
        while True:
            state = game.state
            for seat in range(v.players):
                obs = observe(state, seat)
                mine = state.seats[seat]
                assert obs.seat == seat and obs.hand == mine.hand
                assert obs.melds[seat] == tuple(SeenMeld(m.kind, m.cards) for m in mine.melds)
                # a dealt 提 kept in the hand (Guilin) counts among the others' hidden cards
                assert obs.hidden_cards == tuple(
                    sum(s.hand) + (4 if s.held_ti is not None and k != seat else 0)
                    for k, s in enumerate(state.seats))
                assert obs.wall == len(state.wall)
                # whose turn: the seat's own decision in full, anyone else's as a neutral wait
                if state.is_over:
                    assert (obs.phase, obs.options) == ("over", ())
                elif state.actor == seat:
                    assert (obs.phase, obs.options) == (state.phase, state.options)
                else:
                    assert (obs.phase, obs.options) == ("wait", ())
                assert obs.discards == tuple(s.discards for s in state.seats)
                assert (obs.chou_chi, obs.chou_peng) == (mine.chou_chi_cards, mine.chou_peng_cards)
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))


def swap_concealed(state, seat, rnd: random.Random, wei: bool):
    """The state with ``seat``'s concealed hand replaced by other cards (same count, no four
    of a kind) and, with ``wei``, each of its 偎 made of another card: what the other seats
    must not be able to tell apart."""
    mine = state.seats[seat]
    pool = [i for i in range(20) for _ in range(3)]
    rnd.shuffle(pool)
    hand = counts_of(pool[:sum(mine.hand)])
    melds = tuple(Meld(M.WEI, ((m.cards[0] + 1) % 20,) * 3) if wei and m.kind == M.WEI else m
                  for m in mine.melds)
    seats = list(state.seats)
    seats[seat] = attrs.evolve(mine, hand=hand, melds=melds)
    return attrs.evolve(state, seats=tuple(seats))


@pytest.mark.parametrize("preset", ["hunan", "guilin", "shaoyang", "yongzhou", "penghu"])
@settings(settings.default, max_examples=max(8, settings.default.max_examples // 6))
@given(data=st.data())
def test_nothing_reveals_another_seats_concealed_cards(preset, data):
    v = load_preset(preset)
    state = data.draw(games(v, max_steps=40)).state
    viewer = data.draw(st.integers(0, v.players - 1))
    other = data.draw(st.sampled_from([s for s in range(v.players) if s != viewer]))
    hidden_wei = v.display.wei == "hidden"
    if hidden_wei:  # make sure there is a face-down 偎 to change
        state = with_table(state, other, state.seats[other].melds + (Meld(M.WEI, (x(9),) * 3),))
    changed = swap_concealed(state, other, random.Random(data.draw(st.integers(0, 99))),
                             hidden_wei)
    assert observe(changed, viewer) == observe(state, viewer)
    assert observe(changed, viewer).to_json() == observe(state, viewer).to_json()
    # the owner does see the difference, when there is one
    if changed.seats[other] != state.seats[other]:
        assert observe(changed, other) != observe(state, other)


def test_a_shown_card_is_seen():
    """The converse on a constructed case: a one-up 偎 (Shaoyang) shows which card it is."""
    state = with_table(Game(load_preset("shaoyang"), seed=3).state)
    changed = with_table(state, 1, (Meld(M.WEI, (x(2),) * 3),) + TABLE[1:])
    assert observe(changed, 0) != observe(state, 0)
