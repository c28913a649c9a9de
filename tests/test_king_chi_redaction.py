"""A 王 in another seat's 吃 is shown as a 王, not as the card it stands for.

Yongzhou lets a 王 stand for a missing card of a 吃 (``deck.king_rules.claims`` ``chi``,
"王霸可以代替任何牌进行游戏", 000_cdb63c032605c9a1.txt §永州双王扯胡子规则). The table shows the
others the cards laid: with x5 x6 and a 王 the 王 may stand for x4 or x7, and only its owner
knows which (docs/variants.md, 王霸 in play: "the others see ``x4 x5 K``, its owner
``x3 x4 x5``"). The events shown to the other seats follow the table (docs/observations.md).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import c
from zipai_rules import load_preset
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cards import KING
from zipai_rules.cli import main
from zipai_rules.cli.human import Console
from zipai_rules.engine import Event, EventKind, Game
from zipai_rules.engine.observation import (
    Observation,
    SeenMeld,
    TableView,
    observe,
    spectate,
)
from zipai_rules.errors import MeldError
from zipai_rules.loader import build_variant
from zipai_rules.melds import Meld, MeldKind, parse_meld
from zipai_rules.presets import raw_preset
from zipai_rules.replay_html import replay_snapshots
from zipai_rules.wording import Words

YZ = load_preset("yongzhou")
# 王 in 比 melds too, two in one 吃 meld
YZ_MORE = build_variant({"extends": "yongzhou", "id": "x", "name": "x", "terminology": {},
                         "citations": {}, "deck": {"king_rules": {"chi_kings": 2,
                                                                  "bi_kings": True}}},
                        raw_preset, "test")
X5, X6, X7 = c("x5"), c("x6"), c("x7")
OWNERS = Meld(MeldKind.SHUN, (X5, X6, X7), claimed=X6, kings=(X7,))
OTHERS = Meld(MeldKind.SHUN, (X5, X6, KING), claimed=X6)
#: the hand of ``zipai play --variant yongzhou --seed 33``: seat 1 吃s d5 with its d6 and a 王
#: standing for d7 (the others see d5 d6 K: d4 or d7)
SEED = 33
D5, D6, D7 = c("d5"), c("d6"), c("d7")
CHI_OWNERS = Meld(MeldKind.SHUN, (D5, D6, D7), claimed=D5, kings=(D7,))
CHI_OTHERS = Meld(MeldKind.SHUN, (D5, D6, KING), claimed=D5)


def seed_33() -> Game:
    """``zipai play --variant yongzhou --seed 33``: its 18th event is seat 1's 吃 of d5 with
    its d6 and a 王 standing for d7, its only 吃 of the hand."""
    game = Game(YZ, seed=SEED)
    play_out(game, make_bots(["greedy", "random"], SEED, 3))
    assert game.events[17] == Event(EventKind.CHI, 1, D5, (CHI_OWNERS,))
    return game


def chi_of_seat_1(events):
    return [e for e in events if e.kind == EventKind.CHI and e.seat == 1]


def test_unnamed_meld_values():
    assert parse_meld("chi=x6 x5 K(x7)") == OWNERS
    assert OWNERS.unnamed() == OTHERS and OTHERS.physical == OWNERS.physical == (X5, X6, KING)
    assert OTHERS.describe() == "shun(x5 x6 K)" and OTHERS.describe(zh=True) == "shun(五 六 王)"
    assert OTHERS.to_json() == {"kind": "shun", "cards": ["x5", "x6", "K"], "claimed": "x6"}
    bi = parse_meld("bi=x2 K(x7) x10")
    assert bi.unnamed() == Meld(MeldKind.ER_QI_SHI, (c("x2"), c("x10"), KING), bi=True)
    peng = parse_meld("peng=x9 x9 K")  # the 王 of a 碰 can only stand for x9: unchanged
    assert peng.unnamed() is peng and peng.describe() == "peng(x9 x9 K(x9))"
    assert OTHERS.unnamed() is OTHERS and Meld("shun", (X5, X6, X7)).unnamed().kings == ()
    # two 王 with x2: x1 x2 x3, x2 x3 x4, x2 x7 x10, x2 x2 d2, x2 d2 d2 are all possible
    for kind in ("yi_er_san", "shun", "er_qi_shi", "jiao"):
        assert Meld(kind, (c("x2"), KING, KING)).physical == (c("x2"), KING, KING)


@pytest.mark.parametrize(("kind", "cards", "kings"), [
    ("shun", "x4 x10 K", ""),  # no card completes x4 x10 to a 顺
    ("jiao", "x5 x6 K", ""),
    ("yi_er_san", "x5 x6 K", ""),
    ("shun", "K K K", ""),  # a meld holds a real card
    ("shun", "x5 x6 K", "x5"),  # a 王 either named or laid as a 王
    ("peng", "x9 x9 K", ""),  # a 碰's 王 is always named: peng=x9 x9 K(x9)
])
def test_an_unnamed_king_must_fit_the_kind(kind, cards, kings):
    with pytest.raises(MeldError):
        Meld(kind, tuple(c(t) for t in cards.split()), kings=tuple(c(t) for t in kings.split()))


def test_seed_33_events_shown_to_each_seat():
    game = seed_33()
    owner = Event(EventKind.CHI, 1, D5, (CHI_OWNERS,))
    others = Event(EventKind.CHI, 1, D5, (CHI_OTHERS,))
    assert chi_of_seat_1(game.events_for(1)) == [owner]
    assert chi_of_seat_1(game.events_for(0)) == chi_of_seat_1(game.events_for(2)) == [others]
    assert chi_of_seat_1(spectate(game.state, game.events).history) == [others]
    assert str(others) == "seat 1 chi d5 shun(d5 d6 K)"
    assert others.to_json() == {"kind": "chi", "seat": 1, "card": "d5", "melds": [
        {"kind": "shun", "cards": ["d5", "d6", "K"], "claimed": "d5"}]}
    assert Event.from_json(others.to_json()) == others
    # the table shows seats 0 and 2 the same cards, seat 1 its own meld
    for s in (0, 2):
        assert SeenMeld(MeldKind.SHUN, (D5, D6, KING)) in observe(game.state, s).melds[1]
    assert SeenMeld(MeldKind.SHUN, (D5, D6, D7)) in observe(game.state, 1).melds[1]
    # a 碰 with a 王 names the card in every view: it can only be the 碰's own card
    peng = Meld(MeldKind.PENG, (c("d10"),) * 3, kings=(c("d10"),))
    assert all(Event(EventKind.PENG, 1, c("d10"), (peng,)) in game.events_for(s)
               for s in range(3))


def test_seed_33_views_round_trip():
    game = seed_33()
    for s in range(3):
        obs = game.observe(s)
        assert Observation.from_json(obs.to_json()) == obs
        assert chi_of_seat_1(obs.history) == chi_of_seat_1(game.events_for(s))
        for view in game.views(s):
            assert Observation.from_json(view.to_json()) == view
    table = spectate(game.state, game.events)
    assert TableView.from_json(table.to_json()) == table


@pytest.mark.parametrize(("seat", "line"), [
    (0, "seat 1 chi d5 shun(d5 d6 K)"), (2, "seat 1 chi d5 shun(d5 d6 K)"),
    (1, "seat 1 chi d5 shun(d5 d6 K(d7))")])
def test_seed_33_play_log(capsys, seat, line):
    assert main(["play", "--variant", "yongzhou", "--seed", str(SEED), "--seat", str(seat)]) == 0
    out = capsys.readouterr().out
    assert f"      {line}\n" in out or f"  >   {line}\n" in out
    assert ("K(d7)" in out) == (seat == 1)


def test_seed_33_json_log(capsys):
    import json

    main(["play", "--variant", "yongzhou", "--seed", str(SEED), "--seat", "0", "--json"])
    events = json.loads(capsys.readouterr().out)["events"]
    assert [e for e in events if e["kind"] == "chi" and e["seat"] == 1] == [
        {"kind": "chi", "seat": 1, "card": "d5",
         "melds": [{"kind": "shun", "cards": ["d5", "d6", "K"], "claimed": "d5"}]}]


def test_seed_33_replay_page_and_terminal():
    game = seed_33()
    texts = {s: [e["text"] for step in replay_snapshots(game) for e in step["seats"][s]["events"]]
             for s in range(3)}
    assert "seat 1 chi d5 shun(d5 d6 K)" in texts[0] and "seat 1 chi d5 shun(d5 d6 K)" in texts[2]
    assert "seat 1 chi d5 shun(d5 d6 K(d7))" in texts[1]
    assert not any("K(d7)" in t for s in (0, 2) for t in texts[s])
    # a person at seat 0 who plays as the greedy bot would: the same hand, the same screen
    again, out = Game(YZ, seed=SEED), []
    bots = make_bots(["greedy", "random"], SEED, 3)

    def pick(_prompt: str) -> str:
        state = again.state
        return str(state.options.index(bots[0](state, state.options)) + 1)
    Console(again, [0], bots, Words(YZ), pick, out.append).play()
    assert again.actions == game.actions
    # numbered by the decisions seat 0 was shown, not the record's step
    assert [line for line in out if "seat 1 chi" in line] == ["  12. seat 1 chi d5 shun(d5 d6 K)"]
    assert not [line for line in out if "K(d7)" in line]


def play(variant, seed: int) -> Game:
    game = Game(variant, seed=seed)
    rngs = [random.Random(seed * 10 + s) for s in range(variant.players)]
    while not game.is_over:
        game.apply(rngs[game.actor].choice(game.legal_actions()))
    return game


@settings(settings.default, max_examples=max(4, settings.default.max_examples // 4))
@given(st.sampled_from([YZ, YZ_MORE]), st.integers(0, 10 ** 6))
def test_no_other_seat_is_told_what_a_king_stands_for_in_a_chi(variant, seed):
    """Of every 吃 with a 王 (in its 吃 or a 比 meld), its owner is shown the event whole, every
    other seat and a spectator the same melds with each 王 laid as a 王: the kinds, the
    physical cards, the claimed card and the 比 marks, and no card a 王 stands for. Yongzhou,
    and Yongzhou with ``chi_kings: 2`` and ``bi_kings``."""
    game = play(variant, seed)
    chis = [e for e in game.events if e.kind == EventKind.CHI]
    for seat in (0, 1, 2, None):
        shown = (spectate(game.state, game.events).history if seat is None
                 else game.events_for(seat))
        assert [e for e in shown if e.kind == EventKind.CHI] == [
            e if e.seat == seat else Event(e.kind, e.seat, e.card, tuple(
                Meld(m.kind, m.physical, claimed=m.claimed, bi=m.bi) for m in e.melds), e.note)
            for e in chis]
        for e in shown:
            if e.kind == EventKind.CHI and e.seat != seat:
                assert not any(m.kings for m in e.melds) and "K(" not in str(e), e
                assert Event.from_json(e.to_json()) == e
