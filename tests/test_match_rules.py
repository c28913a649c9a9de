"""The match layer as data (the ``match`` section of a variant): a match that ends by hands or
when a seat's total reaches a score, final totals rounded to a multiple, 打坨.

The worked values are computed by hand in the comments: scripted hand payments stand in for
the settlement (the hands themselves are played by real bots), so the running totals, the end
and the rounding are checked against numbers written out here, not against the product.
"""

from __future__ import annotations

import json

import pytest

import zipai_rules.match as match_mod
from zipai_rules import find_variant
from zipai_rules.bots import make_bots
from zipai_rules.cli import main
from zipai_rules.errors import VariantError, ZipaiError
from zipai_rules.match import Match, datuo_payments, round_total
from zipai_rules.presets import preset_ids
from zipai_rules.settlement import Settlement
from zipai_rules.variant import Datuo, MatchRules
from zipai_rules.variant_file import load_variant_file


def variant_file(tmp_path, match: str, parent: str = "hunan", vid: str = "matchy"):
    path = tmp_path / f"{vid}.yaml"
    path.write_text(f"extends: {parent}\nid: {vid}\nname: 比赛{vid}\nmatch:\n{match}",
                    encoding="utf-8")
    return path


def load(tmp_path, match: str, parent: str = "hunan"):
    return load_variant_file(variant_file(tmp_path, match, parent))


def scripted(monkeypatch, match: Match, script):
    """Make each hand of ``match`` settle as ``script`` says: a list of (winner table seat or
    None, payments per table seat), in hand order; the payments are mapped to the hand's game
    seats through the match's seating at the time the hand is settled."""
    hands = iter(script)

    def fake_settle(variant, result, events=()):
        winner, table = next(hands)
        seats = match.seating()
        payments = tuple(table[t] for t in seats)
        assert sum(payments) == sum(table)  # every table seat plays (hunan: 3 of 3)
        return Settlement(variant.id, None if winner is None else seats.index(winner), 0, 0,
                          variant.scoring.unit, (), payments)
    monkeypatch.setattr(match_mod, "settle", fake_settle)


def bots_for(variant):
    return make_bots(["greedy"], 1, variant.seats)


# --- defaults: every shipped preset keeps today's match -----------------------------------

@pytest.mark.parametrize("pid", preset_ids())
def test_every_preset_keeps_the_match_it_had(pid):
    """No preset writes a match section (the presets developer adds 湘乡's): no end of its own,
    no rounding, no 打坨; the content hash is untouched (the section has no schema default)."""
    v = find_variant(pid)
    assert v.match == MatchRules() and "match" not in v.doc
    m = Match(v, seed=1)
    assert not m.over and m.final_scores() == m.scores


# --- the end: a 3-hand match reaching 50 -------------------------------------------------

SCRIPT = [(0, [20, -10, -10]),   # totals 20, -10, -10
          (1, [-12, 24, -12]),   # totals  8,  14, -22: nobody at 50 yet
          (0, [42, -21, -21]),   # totals 50,  -7, -43: seat 0 reaches 50, the match ends
          (2, [-1, -1, 2])]      # never played


def test_a_match_ends_in_the_hand_a_seat_reaches_50(tmp_path, monkeypatch):
    v = load(tmp_path, "  end: {hands: 8, score_at_least: 50}\n  round_to: 10\n")
    m = Match(v, seed=4)
    scripted(monkeypatch, m, SCRIPT)
    bots = bots_for(v)
    m.play_hand(bots)
    m.play_hand(bots)
    assert m.scores == [8, 14, -22] and not m.over
    assert m.play(bots) == [50, -10, -40]  # 50; -7 → -10 (7 ≥ 5: away from zero); -43 → -40
    assert m.played == 3 and m.over and m.scores == [50, -7, -43]
    assert [h.winner for h in m.hands] == [0, 1, 0] and m.dealer == 0  # the winner deals next
    with pytest.raises(ZipaiError) as info:
        m.play_hand(bots)
    assert info.value.code == "match_over" and m.played == 3


def test_with_both_ends_the_first_one_reached_ends_the_match(tmp_path, monkeypatch):
    v = load(tmp_path, "  end: {hands: 2, score_at_least: 50}\n")
    m = Match(v, seed=4)
    scripted(monkeypatch, m, SCRIPT)
    assert m.play(bots_for(v)) == [8, 14, -22]  # 2 hands come before 50; round_to 1
    assert m.played == 2 and m.over


def test_a_score_equal_to_the_end_ends_the_match(tmp_path, monkeypatch):
    v = load(tmp_path, "  end: {score_at_least: 20}\n")
    m = Match(v, seed=4)
    scripted(monkeypatch, m, SCRIPT)
    assert m.play(bots_for(v)) == [20, -10, -10]  # hand 1: seat 0 at 20, "at least" 20
    assert m.played == 1 and m.over


def test_a_match_without_an_end_needs_a_bound():
    m = Match("hunan", seed=1)
    with pytest.raises(ZipaiError) as info:
        m.play(bots_for(m.variant))
    assert info.value.code == "bad_option" and "max_hands" in str(info.value)
    assert m.play(bots_for(m.variant), max_hands=2) == m.scores and m.played == 2
    assert not m.over  # no end of its own: the caller stops it


# --- rounding: a half away from zero, each seat on its own -----------------------------

@pytest.mark.parametrize("total, multiple, rounded", [
    (47, 10, 50), (44, 10, 40), (45, 10, 50), (-45, 10, -50), (-47, 10, -50), (-44, 10, -40),
    (5, 10, 10), (4, 10, 0), (0, 10, 0), (-5, 10, -10), (95, 10, 100), (7, 1, 7), (-7, 1, -7),
    (1, 3, 0), (2, 3, 3), (-2, 3, -3), (25, 50, 50), (24, 50, 0), (-25, 50, -50),
])
def test_round_total(total, multiple, rounded):
    assert round_total(total, multiple) == rounded


def test_rounded_totals_need_not_sum_to_zero(tmp_path):
    m = Match(load(tmp_path, "  round_to: 10\n"), seed=1)
    m.scores = [46, -23, -23]
    assert m.final_scores() == [50, -20, -20]  # sum 10: each seat is rounded on its own
    assert m.scores == [46, -23, -23]  # the running totals stay unrounded


# --- 打坨 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("payments, winner, doubled, both, out", [
    ([6, -3, -3], 0, {1}, 4, [9, -6, -3]),        # seat 1 pays 3 × 2
    ([6, -3, -3], 0, {0}, 4, [12, -6, -6]),       # the winner 打坨: both losers pay × 2
    ([6, -3, -3], 0, {0, 1}, 4, [18, -12, -6]),   # 坨对坨 4番: 3 × 4; seat 2 3 × 2
    ([6, -3, -3], 0, {0, 1}, 3, [15, -9, -6]),    # 坨对坨 3番: 3 × 3
    ([6, -3, -3], 0, {0, 1, 2}, 4, [24, -12, -12]),
    ([6, -3, -3], 0, set(), 4, [6, -3, -3]),
    ([6, -6, 0], 0, {2}, 4, [6, -6, 0]),          # the discarder pays all: seat 2 pays nothing
    ([6, -6, 0], 0, {1}, 4, [12, -12, 0]),
    ([-4, 8, -4], 1, {2}, 4, [-4, 12, -8]),
    ([5, 0, 0], 0, {0}, 4, [10, 0, 0]),           # a credit nobody pays: the winner's factor
    ([5, 0, 0], 0, {1}, 4, [5, 0, 0]),
    ([0, 0, 0], None, {0, 1}, 4, [0, 0, 0]),      # 荒庄: nothing to scale
])
def test_datuo_payments_worked(payments, winner, doubled, both, out):
    assert datuo_payments(Datuo(True, 2, both), payments, winner, doubled) == out


def test_datuo_refuses_a_huangzhuang_that_pays():
    with pytest.raises(ZipaiError) as info:
        datuo_payments(Datuo(True), [-5, 5, 0], None, {0})
    assert info.value.code == "bad_option"


def test_a_datuo_hand_doubles_the_seats_payments_and_is_recorded(tmp_path, monkeypatch):
    v = load(tmp_path, "  datuo: {allowed: true}\n")
    asked = []

    def policy(match, seat):
        asked.append((match.played, seat))
        return seat == 1 and match.played == 0  # seat 1 打坨 the first hand only
    m = Match(v, seed=4, datuo=policy)
    scripted(monkeypatch, m, SCRIPT)
    bots = bots_for(v)
    first, second = m.play_hand(bots), m.play_hand(bots)
    assert asked == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert first.datuo == (1,) and second.datuo == ()
    assert first.table_payments(3) == [30, -20, -10]  # seat 1 pays 10 × 2; seat 0 gains 30
    assert second.table_payments(3) == [-12, 24, -12]
    assert m.scores == [18, 4, -22]


@pytest.mark.parametrize("who, asked", [("any", [0, 1, 2]), ("dealer", [0]),
                                        ("not_dealer", [1, 2])])
def test_who_may_datuo(tmp_path, who, asked):
    v = load(tmp_path, f"  datuo: {{allowed: true, who: {who}}}\n")
    seen = []
    m = Match(v, seed=4, datuo=lambda match, seat: seen.append(seat) or False)
    m.dealer = 0
    assert m.datuo_seats() == () and seen == asked


def test_every_seat_datuo_multiplies_real_hands_by_both(tmp_path):
    """With every seat 打坨 each payment is between two 打坨 seats: × both (here 3)."""
    v = load(tmp_path, "  datuo: {allowed: true, factor: 2, both: 3}\n  end: {hands: 4}\n")
    m = Match(v, seed=7, datuo=lambda match, seat: True)
    m.play(bots_for(v))
    totals = [0, 0, 0]
    for h in m.hands:
        raw = list(h.settlement.payments)
        table = [raw[h.seats.index(t)] for t in range(3)]
        assert h.datuo == (0, 1, 2) and h.table_payments(3) == [3 * p for p in table]
        totals = [a + 3 * p for a, p in zip(totals, table, strict=True)]
    assert m.played == 4 and m.scores == totals and sum(m.scores) == 0


def test_no_policy_nobody_doubles_and_a_policy_must_answer_a_bool(tmp_path):
    v = load(tmp_path, "  datuo: {allowed: true}\n")
    assert Match(v, seed=1).datuo_seats() == ()
    with pytest.raises(ZipaiError) as info:
        Match(v, seed=1, datuo=lambda match, seat: 1).datuo_seats()
    assert info.value.code == "bad_argument" and "datuo(match, 0)" in str(info.value)
    with pytest.raises(ZipaiError) as info:
        Match(v, seed=1, datuo=5)
    assert info.value.code == "bad_argument"
    m = Match("hunan", seed=1, datuo=lambda match, seat: True)  # hunan has no 打坨
    assert m.datuo_seats() == ()


# --- hostile inputs: refused at their YAML paths -----------------------------------------

@pytest.mark.parametrize("section, path", [
    ("  end: {hands: 1000000000000}\n", "match.end.hands"),
    ("  end: {hands: 0}\n", "match.end.hands"),
    ("  end: {hands: 2.0}\n", "match.end.hands"),
    ("  end: {score_at_least: -50}\n", "match.end.score_at_least"),
    ("  end: {score_at_least: '50'}\n", "match.end.score_at_least"),
    ("  end: {rounds: 3}\n", "match.end.rounds"),
    ("  round_to: -10\n", "match.round_to"),
    ("  round_to: 0\n", "match.round_to"),
    ("  round_to: true\n", "match.round_to"),
    ("  round_to: 99999999999\n", "match.round_to"),
    ("  datuo: {allowed: 'yes'}\n", "match.datuo.allowed"),
    ("  datuo: {factor: 1}\n", "match.datuo.factor"),
    ("  datuo: {factor: 1000}\n", "match.datuo.factor"),
    ("  datuo: {who: seat0}\n", "match.datuo.who"),
    ("  datuo: [true]\n", "match.datuo"),
    ("  dadtuo: {}\n", "match.dadtuo"),
])
def test_schema_refuses_at_the_path(tmp_path, section, path):
    with pytest.raises(VariantError) as info:
        load(tmp_path, section)
    assert info.value.code == "schema"
    assert path in [p for p, _ in info.value.problems]


@pytest.mark.parametrize("parent, section, path", [
    ("hunan", "  datuo: {allowed: true, factor: 3, both: 10}\n", "match.datuo.both"),
    ("hunan", "  datuo: {allowed: true, factor: 3, both: 2}\n", "match.datuo.both"),
    ("hunan_four", "  datuo: {allowed: true}\n", "match.datuo.allowed"),     # sitting_out mirror
    ("leiyang_tilong", "  datuo: {allowed: true}\n", "match.datuo.allowed"),  # payment.ti
    ("yongzhou", "  datuo: {allowed: true}\n", "match.datuo.allowed"),  # king_penalty
])
def test_semantics_refused_at_the_path(tmp_path, parent, section, path):
    with pytest.raises(VariantError) as info:
        load(tmp_path, section, parent)
    assert info.value.code == "semantic"
    assert [p for p, _ in info.value.problems] == [path]


def test_datuo_options_are_checked_only_when_allowed(tmp_path):
    """A disallowed 打坨 is no rule: its factor and the parent's payments do not matter."""
    v = load(tmp_path, "  datuo: {allowed: false, factor: 3, both: 10}\n", "hunan_four")
    assert not v.match.datuo.allowed


def test_match_api_refuses_bad_values():
    m = Match("hunan", seed=1)
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ZipaiError) as info:
            m.play(bots_for(m.variant), max_hands=bad)
        assert info.value.code == "bad_argument"
    assert m.played == 0


# --- zipai play -------------------------------------------------------------------------

def test_cli_match_plays_to_the_variants_end(tmp_path, capsys):
    path = variant_file(tmp_path, "  end: {hands: 3}\n  round_to: 10\n"
                        "  datuo: {allowed: true}\n")
    assert main(["play", "--variant", str(path), "--match", "--seed", "3", "--datuo", "1",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [row["hand"] for row in doc["hands"]] == [1, 2, 3] and doc["over"] is True
    assert all(row["datuo"] == [1] for row in doc["hands"])
    assert doc["final"] == [round_total(s, 10) for s in doc["scores"]]
    assert main(["play", "--variant", str(path), "--hands", "8", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "match over after 3 hands" in out and "  hand   4" not in out
    assert "(rounded to 10 from [" in out


@pytest.mark.parametrize("argv, words", [
    (["--match"], "has none (match.end): give --hands N"),
    (["--hands", "2", "--datuo", "1"], "hunan has no 打坨"),
    (["--datuo", "1"], "--datuo is chosen before each hand of a match"),
    (["--match", "--hands", "2", "--record", "x.json"], "cannot be combined with --match"),
])
def test_cli_refusals(capsys, argv, words):
    assert main(["play", "--seed", "1", *argv]) == 2
    assert words in capsys.readouterr().err
