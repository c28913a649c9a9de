"""A plain re-scorer for the regional presets, written from docs/regional-sources.md alone (§1.5
衡阳算法, §2.2 耒阳, §3.4 郴州) and independent of the 名堂 machinery: it counts the red cards and
the winning kind in the winning decomposition itself, converts, multiplies and pays, and adds
耒阳's instant 提 payments from the hand's events. Every win of 300 seeded bot games per preset
must settle to the same payments as ``settle``."""

from __future__ import annotations

import pytest

from zipai_rules import load_preset
from zipai_rules.bots import make_bots
from zipai_rules.cards import KING, is_big, rank_of
from zipai_rules.engine import Game
from zipai_rules.engine.actions import EventKind
from zipai_rules.play import play_out
from zipai_rules.settlement import settle
from zipai_rules.vocab import Source

GAMES = 300
BOTS = ("greedy", "random", "greedy")


def real_cards(result):
    """Every real card of the winning hand (a 王 is none of them: it counts neither red nor
    black, regional-sources §3.4), and the number of 王."""
    cards, kings = [], 0
    for g in result.decomposition.groups:
        cards_of = list(g.meld.cards)
        for stood_for in g.kings:
            cards_of.remove(stood_for)
            kings += 1
        cards += cards_of
    cards += [x for x in result.decomposition.leftover if x != KING]
    kings += result.decomposition.leftover.count(KING)
    return cards, kings


def red_count(cards):
    return sum(1 for x in cards if rank_of(x) in (2, 7, 10))


def pay(n, winner, unit, discarder, times):
    """Each other player pays ``unit``; on a discard win with ``times`` the discarder alone
    pays ``times`` × ``unit``."""
    out = [0] * n
    if discarder is not None and times:
        out[discarder] -= times * unit
        out[winner] += times * unit
    else:
        for s in range(n):
            if s != winner:
                out[s] -= unit
                out[winner] += unit
    return out


def hengyang(result, events):
    """§1.5: 10 胡 → 3 敦, else (胡 − 6) // 3; + the winning kind; + red above 10 (10–12) or
    above 13 (13+); × 大红 5 / 小红 3 / 全黑 5 / 一点红 4, × 2 for 天胡, 地胡 and 自摸; the
    discarder pays 3 ×."""
    cards, _ = real_cards(result)
    red = red_count(cards)
    h = result.huxi
    dun = 3 if h == 10 else (h - 6) // 3
    if result.card is not None:
        dun += cards.count(result.card)
    if 10 <= red <= 12:
        dun += red - 10
    elif red >= 13:
        dun += red - 13
    times = 5 if red >= 13 else 3 if red >= 10 else 5 if red == 0 else 4 if red == 1 else 1
    for label in ("tianhu", "dihu", "zimo"):
        if label in result.labels:
            times *= 2
    discarder = result.discarder if result.source == Source.DISCARD else None
    return pay(3, result.winner, dun * times, discarder, 3)


def leiyang_dun(h):
    """§2.2 step 3: 10 → 2, 11–15 → 1, 16–19 → 2, 20 → 4, then 3 + (h − 21) // 3."""
    if h >= 21:
        return 3 + (h - 21) // 3
    return {10: 2, 20: 4}.get(h, 1 if h < 16 else 2)


def leiyang_ti_only(events):
    """§2.2: each 提 or 龙 (dealt ones too) is paid at once by each other player: big 2,
    small 1; a 跑 pays nothing."""
    out = [0, 0, 0]
    for e in events:
        if e.kind == EventKind.TI:
            each = 2 if is_big(e.card) else 1
            for s in range(3):
                out[s] += 2 * each if s == e.seat else -each
    return out


def leiyang(result, events):
    """§2.2: labels (大红 13+, 全黑, 一点红, 天胡, 举手胡) each double the 胡息, 10 and 20 first
    raised to 16 and 24; 敦 by the table; 自摸 × 2; the discarder pays 2 ×; every 提 or 龙 is
    paid by each other player at once, big 2, small 1."""
    cards, _ = real_cards(result)
    red = red_count(cards)
    h = result.huxi
    if "wu_hu" in result.labels:
        assert h == 21
    n = (red >= 13 or red in (0, 1)) + ("tianhu" in result.labels) + ("jushou" in result.labels)
    if n:
        h = {10: 16, 20: 24}.get(h, h) * 2 ** n
    unit = leiyang_dun(h) * (2 if "zimo" in result.labels else 1)
    discarder = result.discarder if result.source == Source.DISCARD else None
    paid = pay(3, result.winner, unit, discarder, 2)
    return [a + b for a, b in zip(paid, leiyang_ti_only(events), strict=True)]


def chenzhou(result, events):
    """§3.4: 1 + (胡 − 9) // 3 囤, + 1 for 黑胡 (0 red), 一点红 (1) or 红胡 (13+), a 王 neither red
    nor black; every other player pays it (§3.6)."""
    cards, _ = real_cards(result)
    red = red_count(cards)
    score = 1 + (result.huxi - 9) // 3 + (red in (0, 1) or red >= 13)
    return pay(3, result.winner, score, None, None)


SCORERS = {"hengyang_honghei": hengyang, "leiyang_tilong": leiyang, "chenzhou": chenzhou,
           "chenzhou_wang": chenzhou}


@pytest.mark.parametrize("preset", sorted(SCORERS))
def test_every_win_rescores_the_same(preset):
    v = load_preset(preset)
    wins = 0
    for seed in range(1, GAMES + 1):
        game = play_out(Game(v, seed=seed), make_bots(BOTS, seed, v.players))
        r = game.result
        got = settle(game)
        if r.winner is None:
            if preset == "leiyang_tilong":  # a drawn hand still pays its 提
                assert list(got.payments) == leiyang_ti_only(game.events)
            continue
        wins += 1
        assert list(got.payments) == SCORERS[preset](r, game.events), (seed, r)
    assert wins >= GAMES // 4  # the check saw plenty of wins (a quarter at the very least)
