"""A plain re-scorer for the HHTable presets (宁乡, 河池, 汉寿, 湘乡), written from the Java
table classes of billee1011/repository (docs/regional-sources.md §5) and independent of the
名堂 machinery: it counts red, big and black cards and the groups of the winning decomposition
itself, converts with the source's integer arithmetic (Java's ``/`` truncates toward zero),
adds the 番 and pays. Every win of 300 seeded bot games per preset must settle to the same
payments as ``settle``.

The games are played once per module (one cached list per preset) with the library's bots;
the decomposition scored is the one the engine took (the source scores the split of the most
胡息; the presets take the split paid most, a difference each preset states)."""

from __future__ import annotations

from functools import cache

import pytest

from test_regional_rescoring import pay
from zipai_rules import load_preset
from zipai_rules.bots import make_bots
from zipai_rules.cards import KING, is_big, rank_of
from zipai_rules.engine import Game
from zipai_rules.play import play_out
from zipai_rules.settlement import settle

GAMES = 300
BOTS = ("greedy", "random", "greedy")
CHI = ("shun", "yi_er_san", "er_qi_shi", "jiao")
TRIPLE = ("kan", "peng", "wei", "chou_wei")
QUAD = ("ti", "pao")


def jdiv(a, b):
    """Java's integer division (toward zero)."""
    q = abs(a) // b
    return q if a >= 0 else -q


def groups(result):
    """(kind, cards) of every group of the winning decomposition, the leftover pair as
    ``jiang``."""
    out = [(g.meld.kind.value, tuple(g.meld.cards)) for g in result.decomposition.groups]
    left = [x for x in result.decomposition.leftover if x != KING]
    if left:
        out.append(("jiang", tuple(left)))
    return out


def is_red(card):
    return rank_of(card) in (2, 7, 10)


def cards_of(gs):
    return [x for _, cs in gs for x in cs]


def source_huxi(gs):
    """HHGameLogic.get_weave_hu_xi summed over the groups: 提/龙 12/9, 跑 9/6, 坎/偎 6/3, 碰 3/1,
    二七十 and 一二三 6/3 (big/small), every other group 0."""
    table = {"ti": (9, 12), "pao": (6, 9), "kan": (3, 6), "wei": (3, 6), "chou_wei": (3, 6),
             "peng": (1, 3), "er_qi_shi": (3, 6), "yi_er_san": (3, 6)}
    return sum(table[k][is_big(cs[0])] for k, cs in gs if k in table)


def each_pays(n, winner, amount):
    """Each other seat pays ``amount`` (the plain payment of the last round's re-scorer)."""
    return pay(n, winner, amount, None, None)


def ningxiang(result, events):
    """NingXiangHHTable.process_chi_hu_player_score_phz: 底分 2 + (胡息 − 15) / 3, times the
    番 of get_chi_hu_action_rank_phz (summed, 1 when 0); every other seat pays (the zimo
    branch settles every win on a drawn card)."""
    gs = groups(result)
    red = sum(map(is_red, cards_of(gs)))
    red_triples = sum(1 for k, cs in gs if k in TRIPLE and is_red(cs[0]))
    red_quads = sum(1 for k, cs in gs if k in QUAD and is_red(cs[0]))
    red_pairs = sum(1 for k, cs in gs if k == "jiang" and is_red(cs[0]))
    fan = 0
    if red >= 10:
        fan += 2
    elif red == 1:
        fan += 4
    elif red == 0:
        fan += 5
    if red == 2 and red_pairs == 1:  # 扁胡 二扁
        fan += 2
    elif red == 3 and red_triples == 1:
        fan += 3
    elif red == 4 and red_quads == 1:
        fan += 4
    if ((red == 6 and red_triples == 2) or (red == 7 and red_triples == 1 and red_quads == 1)
            or (red == 8 and red_quads == 2)):  # 双飘
        fan += 2
    if not any(k in CHI for k, _ in gs):  # 碰碰胡
        fan += 5
    if "tianhu" in result.labels or "dihu" in result.labels:
        fan += 5
    score = max(1, fan) * (2 + jdiv(source_huxi(gs) - 15, 3))
    return each_pays(3, result.winner, score)


def hanshou(result, events):
    """HanShouHHTable.process_chi_hu_player_score_phz: 倒 1 + (胡息 − 15) / 3, times the 番
    of get_chi_hu_action_rank_phz over the flags analyse_chi_hu_card sets (夹红对, 红对胡 and
    乌对胡 alone; else 夹红 4, 红胡 2, 乌胡 4, 点胡 3, 对对胡 4 summed; 1 when 0); every other
    seat pays."""
    gs = groups(result)
    red = sum(map(is_red, cards_of(gs)))
    dui = not any(k in CHI for k, _ in gs)  # calculate_pengpeng_count
    if red >= 13 and dui:
        fan = 8
    elif 10 <= red < 13 and dui:
        fan = 6
    elif red == 0 and dui:  # chu_hei_dui
        fan = 8
    else:
        fan = ((4 if red >= 13 else 2 if red >= 10 else 0) + (4 if red == 0 else 0)
               + (3 if red == 1 else 0) + (4 if dui else 0))
    score = max(1, fan) * (1 + jdiv(source_huxi(gs) - 15, 3))
    return each_pays(3, result.winner, score)


def hechi_huxi(gs):
    """HeChiHHTable.get_weave_hu_xi summed: HHGameLogic's table, a 跑 of 二七十 3 more."""
    return source_huxi(gs) + sum(3 for k, cs in gs if k == "pao" and is_red(cs[0]))


def hechi(result, events):
    """HeChiHHTable.process_chi_hu_player_score_phz (15 油起胡, 3 油一子, 自摸加子):
    1 + (胡息 × 番 − 15) / 3, 番 2 for 十三红 (13+ red), 十八大 (18+ big) or 全黑, else 1;
    +1 on one's own draw; every other seat pays."""
    gs = groups(result)
    cards = cards_of(gs)
    red = sum(map(is_red, cards))
    big = sum(map(is_big, cards))
    huxi = hechi_huxi(gs)
    fan = 2 if red >= 13 or big >= 18 or red == 0 else 1
    score = 1 + jdiv(huxi * fan - 15, 3) + (1 if "zimo" in result.labels else 0)
    return each_pays(3, result.winner, score)


def xiangxiang_huxi(result):
    """XiangXiangHHTable.get_chi_hu_action_rank_phz: the 胡息 raised to 100 (13+ red, no red,
    天胡, 地胡; a first-round win, CHR_DI_HU_2, with 10–12 red and 30 胡) or doubled (a
    first-round win; 10–12 red; 30 胡), the first that applies."""
    gs = groups(result)
    red = sum(map(is_red, cards_of(gs)))
    h, labels = source_huxi(gs), result.labels
    if red >= 13 or red == 0 or "tianhu" in labels or "dihu" in labels:
        return 100
    if "jushou" in labels:
        return 100 if 10 <= red <= 12 and h >= 30 else 2 * h
    return 2 * h if 10 <= red <= 12 or h >= 30 else h


def xiangxiang(result, events):
    """XiangXiangHHTable.process_chi_hu_player_score_phz: a win on a drawn card credits the
    winner alone (10 more on one's own draw); on a discard the discarder pays the score, at
    most 100, and the winner gains 10 more, or at 100 the third seat pays 10 and the winner
    gains 110."""
    score = xiangxiang_huxi(result)
    out = [0, 0, 0]
    w = result.winner
    if result.source != "discard":
        out[w] += score + (10 if "zimo" in result.labels else 0)
        return out
    score = min(score, 100)
    out[result.discarder] -= score
    if score == 100:
        for p in range(3):
            if p not in (w, result.discarder):
                out[p] -= 10
                out[w] += score + 10
    else:
        out[w] += score + 10
    return out


SCORERS = {"ningxiang": ningxiang, "hanshou": hanshou, "hechi": hechi,
           "xiangxiang": xiangxiang}


@cache
def games(preset):
    """(result, events, payments) of every win of the seeded games."""
    v = load_preset(preset)
    out = []
    for seed in range(1, GAMES + 1):
        game = play_out(Game(v, seed=seed), make_bots(BOTS, seed, v.players))
        if game.result.winner is not None:
            out.append((seed, game.result, game.events, tuple(settle(game).payments)))
    return tuple(out)


@pytest.mark.parametrize("preset", sorted(SCORERS))
def test_every_win_rescores_the_same(preset):
    wins = games(preset)
    assert len(wins) >= GAMES // 4  # the check saw plenty of wins (a quarter at the very least)
    wrong = [(seed, r.huxi, got) for seed, r, events, got in wins
             if list(got) != SCORERS[preset](r, events)]
    assert not wrong, (wrong[:5], len(wrong))


def test_xiangxiang_is_not_zero_sum_where_the_source_is_not():
    """湘乡 on every win: the settlement is zero-sum exactly where the source's payments are
    (a discard win at the cap of 100, the third seat paying 10), and says by how much it is
    not (``credited``) elsewhere."""
    wins = games("xiangxiang")
    assert {r.source for _, r, _, _ in wins} >= {"self", "draw", "discard"}
    v = load_preset("xiangxiang")
    for seed, r, events, _ in wins:
        s = settle(v, r, events=events)
        source = xiangxiang(r, events)
        assert s.units == xiangxiang_huxi(r) + (10 if "zimo" in r.labels else 0), seed
        assert s.credited == sum(source) and s.zero_sum == (sum(source) == 0), seed


def test_xiangxiang_huangzhuang_costs_the_dealer_10():
    """PHZHandlerDispatchCard_XiangXiang.exe on an empty wall: GRR._game_score of the dealer
    (_cur_banker, the dealer until a win) falls by 10 and nobody gains it."""
    v = load_preset("xiangxiang")
    seen = 0
    for seed in range(1, GAMES + 1):
        game = play_out(Game(v, seed=seed), make_bots(BOTS, seed, v.players))
        if game.result.winner is not None:
            continue
        seen += 1
        want = [0, 0, 0]
        want[game.deal.dealer] = -10
        s = settle(game)
        assert (list(s.payments), s.credited, s.zero_sum) == (want, -10, False), seed
    assert seen
