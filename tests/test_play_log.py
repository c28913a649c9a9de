"""``zipai play`` logs a program can read: ``--json`` with every step, ``--seat S`` as seat S
sees the hand, and the 王's stand-ins in the result."""

import json

import pytest

from zipai_rules.analysis import Group
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cards import format_cards, parse_indices
from zipai_rules.cli import main
from zipai_rules.engine import Game
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.presets import load_preset

BOTS = ["greedy", "random", "greedy"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def the_game(variant_id: str, seed: int) -> Game:
    """The hand ``zipai play --variant ID --seed SEED`` plays (default bots, dealer 0)."""
    v = load_preset(variant_id)
    return play_out(Game(v, seed=seed), make_bots(BOTS, seed, v.players))


def test_king_stand_in_shown():
    x7 = parse_indices("x7")[0]
    g = Group(Meld(MeldKind.JIANG, (x7, x7)), 0, kings=(x7,))
    assert g.describe() == "x7 K(x7)"
    assert g.to_json() == {"kind": "jiang", "cards": ["x7", "x7"], "huxi": 0,
                           "place": "hand", "kings": ["x7"]}
    assert "kings" not in Group(Meld(MeldKind.JIANG, (x7, x7)), 0).to_json()


def test_yongzhou_seed_4_shows_the_king(capsys):
    """Seat 2 holds one x4 and a K: it 碰s x4 with them (deck.king_rules.claims), so the K lies
    on the table in the 碰 standing for an x4, and seat 2, holding no K any more, may win on
    another player's drawn x5."""
    code, out, _ = run(capsys, "play", "--variant", "yongzhou", "--seed", "4")
    assert code == 0
    assert "   4. seat 2 peng x4\n" in out
    assert "peng       x4 x4 K(x4)    1  table" in out
    assert "seat 2 wins, 胡 (hu) on x5 from another player's draw, 19 胡息" in out
    code, out, _ = run(capsys, "play", "--variant", "yongzhou", "--seed", "4", "--json")
    groups = json.loads(out)["result"]["groups"]
    with_kings = [g for g in groups if "kings" in g]
    assert with_kings == [{"kind": "peng", "cards": ["x4", "x4", "x4"], "huxi": 1,
                           "place": "table", "kings": ["x4"]}]


def test_yongzhou_seed_1_shows_a_king_chi(capsys):
    """Seat 1, left with d5 and a K after its first 吃, 吃s seat 0's d3 as d3 d4 d5 with the K
    for d4 (claims chi); the 吃 scores 0 胡息 as any small run and wins by 自摸 on x10."""
    code, out, _ = run(capsys, "play", "--variant", "yongzhou", "--seed", "1")
    assert code == 0
    assert "   6. seat 1 chi d3 shun(d3 K(d4) d5)\n" in out
    assert "shun       d3 K(d4) d5        0  table" in out
    assert "seat 1 wins, 胡 (hu) on x10 from own draw (自摸), 18 胡息" in out


def test_json_lists_every_step(capsys):
    code, out, _ = run(capsys, "play", "--variant", "hunan", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    game = the_game("hunan", 7)
    assert data["dealer"] == 0 and data["deal"] == game.deal.to_json()
    assert [s["step"] for s in data["steps"]] == list(range(1, len(game.actions) + 1))
    assert [s["action"] for s in data["steps"]] == [a.to_json() for a in game.actions]
    assert [s["seat"] for s in data["steps"]] == [a.seat for a in game.actions]
    logged = data["opening"] + [e for s in data["steps"] for e in s["events"]]
    assert logged == [e.to_json() for e in game.events]
    first = data["steps"][0]
    assert (first["step"], first["seat"], first["action"]) == \
        (1, 0, {"kind": "discard", "seat": 0, "card": "d7"})
    assert first["events"][:2] == [{"kind": "discard", "seat": 0, "card": "d7"},
                                   {"kind": "to_discards", "seat": 0, "card": "d7"}]
    assert {"variant", "seed", "result", "settlement"} <= set(data)


def test_seat_view(capsys):
    game = the_game("hunan", 1)
    code, out, _ = run(capsys, "play", "--seed", "1", "--seat", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["seat"] == 1
    assert data["hand"] == game.deal.to_json()["hands"][1].split()
    assert data["hand_sizes"] == [21, 20, 20] and data["wall"] == 19
    assert data["events"] == [e.to_json() for e in game.events_for(1)]
    assert data["events"] != [e.to_json() for e in game.events]  # others' passes left out
    assert "deal" not in data and "steps" not in data

    code, out, _ = run(capsys, "play", "--seed", "1", "--seat", "1")
    assert "as seat 1 sees it" in out
    assert "seat 0 dealt 21: (hidden)" in out
    hand = format_cards(sorted(game.deal.hands[2]))  # never printed as cards
    assert "seat 2 dealt 20: (hidden)" in out and hand not in out
    assert out.count("\n  >   seat 1 ") == sum(1 for e in game.events_for(1)[3:] if e.seat == 1)


@pytest.mark.parametrize("argv, code", [
    (["--seat", "3"], "bad_seat"),
    (["--seat", "1", "--hands", "2"], "bad_option"),
])
def test_seat_refused(capsys, argv, code):
    status, out, err = run(capsys, "play", *argv)
    assert status != 0 and out == ""
    assert err.startswith("error:")


def test_analyze_shows_a_king_in_a_table_meld(capsys):
    code, out, _ = run(capsys, "analyze", "--variant", "yongzhou", "--hand",
                       "x1 x2 x3 x2 x7 x10 x7 x8 x9 x8 x9 x10 x5", "--meld", "peng=x9 x9 K",
                       "--meld", "pao=d2 d2 d2 d2", "--card", "x5", "--from", "self")
    assert code == 0
    assert out.splitlines()[:2] == ["永州双王扯胡子: WIN; best 16 胡息",
                                    "  peng       x9 x9 K(x9)    1  table"]
