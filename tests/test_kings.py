"""王 (wild) placement in the analysis agrees with the engine (digest G14)."""

from helpers import verdict
from zipai_rules import find_variant


def test_own_draw_onto_a_real_pair_is_a_forced_wei_without_the_king():
    """A drawn x5 onto x5 x5 makes a forced 偎 of real cards ("有偎必偎"); the 王 stays in the
    hand and cannot form a meld alone, so the hand is incomplete (not a 提 made with the 王)."""
    a = verdict(find_variant("yongzhou"), "x5 x5 K", [], "x5", "self")
    assert a.win is False and a.reason == "incomplete"


def test_king_completes_a_kan_with_a_pair_formed_by_an_own_draw():
    """x5 and a drawn x5 with a 王 are three concealed x5: a 坎 worth 3 (digest G14
    "K + pair = 坎")."""
    a = verdict(find_variant("yongzhou"), "x5 K", [], "x5", "self")
    assert [(g.meld.kind.value, g.meld.cards, g.huxi) for g in a.best.groups] == [
        ("kan", (4, 4, 4), 3)]


def test_king_never_joins_a_claimed_meld():
    """A discarded x5 onto x5 K is no 碰: the 王 is only a concealed substitute."""
    a = verdict(find_variant("yongzhou"), "x5 K", [], "x5", "discard")
    assert all(g.meld.kind.value != "peng" for g in (a.best.groups if a.best else ()))
