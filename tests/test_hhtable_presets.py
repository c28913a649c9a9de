"""Worked examples of the HHTable presets 宁乡, 河池, 汉寿 and 湘乡 (docs/regional-sources.md §5):
each hand goes through the public ``analyze`` and its win is settled by the preset; the 胡息,
the 名堂, the units and every payment are worked by hand below from the source's Java code
(billee1011/repository, the table classes named in each test). Three players, the winner at
seat 0."""


import pytest

from test_regional_presets import won
from zipai_rules import load_preset

NINGXIANG = load_preset("ningxiang")
HECHI = load_preset("hechi")
HANSHOU = load_preset("hanshou")
XIANGXIANG = load_preset("xiangxiang")


# Hands shared below.
# PLAIN: 碰 d3 (3) · 坎 d8 (6) · x1 x2 x3 (3) · d2 d7 d10 (6) · x4 x5 x6 · d4 d5 d6 · x7 x8 x9 =
# 18 胡息; red x2, d2 d7 d10, x7 = 5; three sequences; won x9 on another seat's draw.
PLAIN = ("x1 x2 x3 d2 d7 d10 x4 x5 x6 d8 d8 d8 d4 d5 d6 x7 x8", ["peng=d3 d3 d3"], "x9")
# BLACK_SETS: 提 x3 (9) · 碰 d3 (3) · 碰 x1 (1) · 坎 x4 (3) · 坎 d5 (6) · 坎 d8 (6) · 将 x6 x6 =
# 28 胡息; no red card; no sequence; the x6 of the pair won on one's own draw.
BLACK_SETS = ("d8 d8 d8 x4 x4 x4 d5 d5 d5 x6",
              ["ti=x3 x3 x3 x3", "peng=d3 d3 d3", "peng=x1 x1 x1"], "x6")
# TEN_RED: 碰 x10 (1) · 坎 d8 (6) · x2 x7 x10 (3) · d2 d7 d10 (6) · x7 x8 x9 · x4 x5 x6 ·
# d4 d5 d6 = 16 胡息; red 3 + 3 + 3 + 1 = 10; won d6 on another seat's draw.
TEN_RED = ("d2 d7 d10 x2 x7 x10 x7 x8 x9 d8 d8 d8 x4 x5 x6 d4 d5", ["peng=x10 x10 x10"], "d6")


# --- 宁乡 NingXiangHHTable.process_chi_hu_player_score_phz, get_chi_hu_action_rank_phz ------

def test_ningxiang_plain_win():
    """No 名堂 (5 red, sequences): 0 番 counts as 1; 底分 2 + (18 − 15) / 3 = 3 from each."""
    huxi, s = won(NINGXIANG, *PLAIN, "draw")
    assert huxi == 18
    assert s.units == 3
    assert s.payments == (6, -3, -3)


def test_ningxiang_wu_hu_and_peng_peng_hu_add_their_fan():
    """乌胡 5 + 碰碰胡 5 = 10 番 (summed, not multiplied); 2 + (28 − 15) / 3 = 6; 60 each."""
    huxi, s = won(NINGXIANG, *BLACK_SETS, "self")
    assert huxi == 28
    assert s.units == 60
    assert s.payments == (120, -60, -60)


def test_ningxiang_hong_hu():
    """10 red: 红胡 2 番 (加红 off); 2 + (16 − 15) / 3 = 2; 4 each."""
    huxi, s = won(NINGXIANG, *TEN_RED, "draw")
    assert huxi == 16
    assert s.units == 4
    assert s.payments == (8, -4, -4)


def test_ningxiang_dihu():
    """地胡 5 番 on the plain hand: 3 × 5 = 15 each."""
    _, s = won(NINGXIANG, *PLAIN, "draw", labels=("dihu",))
    assert s.units == 15
    assert s.payments == (30, -15, -15)


def test_ningxiang_bian_hu():
    """二扁: the only 2 red cards are a pair (count_hong_pai_duizi 1). 提 x3 (9) · 碰 d3 (3) ·
    坎 d8 (6) · 坎 d1 (6) · x4 x5 x6 · d4 d5 d6 · 将 x2 x2 = 24 胡息: 2 + 9 / 3 = 5, × 2 番
    = 10 each."""
    huxi, s = won(NINGXIANG, "d8 d8 d8 d1 d1 d1 x4 x5 x6 d4 d5 d6 x2",
                  ["ti=x3 x3 x3 x3", "peng=d3 d3 d3"], "x2", "self")
    assert huxi == 24
    assert s.payments == (20, -10, -10)


# --- 汉寿 HanShouHHTable.process_chi_hu_player_score_phz, get_chi_hu_action_rank_phz ----------

def test_hanshou_jia_hong_dui():
    """碰 x10 (1) · 碰 x2 (1) · 偎 d7 (6) · 提 d10 (12) · 坎 d8 (6) · 坎 x4 (3) · 将 x5 x5 = 29
    胡息, 13 red, no sequence: 夹红对 8 alone (analyse_chi_hu_card returns before 夹红 and
    对对胡); 1 + (29 − 15) / 3 = 5; 40 each."""
    huxi, s = won(HANSHOU, "d8 d8 d8 x4 x4 x4 x5",
                  ["peng=x10 x10 x10", "peng=x2 x2 x2", "wei=d7 d7 d7", "ti=d10 d10 d10 d10"],
                  "x5", "self")
    assert huxi == 29
    assert s.units == 40
    assert s.payments == (80, -40, -40)


def test_hanshou_dian_hu():
    """碰 d3 (3) · x1 x2 x3 (3) · 坎 d8 (6) · 坎 x4 (3) · 坎 d9 (6) · d4 d5 d6 ×2 = 21 胡息, one
    red (x2): 点胡 3; 1 + 6 / 3 = 3; 9 each."""
    huxi, s = won(HANSHOU, "x1 x2 x3 d8 d8 d8 x4 x4 x4 d9 d9 d9 d4 d5 d6 d5 d6",
                  ["peng=d3 d3 d3"], "d4", "draw")
    assert huxi == 21
    assert s.units == 9
    assert s.payments == (18, -9, -9)


def test_hanshou_hong_hu():
    """10 red with sequences: 红胡 2; 1 + (16 − 15) / 3 = 1; 2 each."""
    huxi, s = won(HANSHOU, *TEN_RED, "draw")
    assert huxi == 16
    assert s.units == 2
    assert s.payments == (4, -2, -2)


def test_hanshou_wu_dui_hu():
    """No red and no sequence: 乌对胡 8 alone (chu_hei_dui; not 乌胡 4 + 对对胡 4); 1 + 13 / 3
    = 5; 40 each."""
    huxi, s = won(HANSHOU, *BLACK_SETS, "self")
    assert huxi == 28
    assert s.units == 40
    assert s.payments == (80, -40, -40)


# --- 河池 HeChiHHTable.process_chi_hu_player_score_phz, get_weave_hu_xi ------------------------

def test_hechi_plain_win():
    """1 + (18 − 15) / 3 = 2 子 from each (won on another seat's draw: no 自摸加子)."""
    huxi, s = won(HECHI, *PLAIN, "draw")
    assert huxi == 18
    assert s.payments == (4, -2, -2)


def test_hechi_quan_hei_doubles_the_huxi_and_zimo_adds_a_zi():
    """全黑: 28 × 2 = 56; 1 + (56 − 15) / 3 = 14; 自摸加子 +1 = 15 each."""
    huxi, s = won(HECHI, *BLACK_SETS, "self")
    assert huxi == 28
    assert s.units == 15
    assert s.payments == (30, -15, -15)


def test_hechi_shi_ba_da():
    """碰 d3 (3) · 偎 d9 (6) · 坎 d8 (6) · d1 d2 d3 (6) · d4 d5 d6 · d5 d6 d7 · x1 x2 x3 (3) = 24
    油 with 18 big cards: 十八大 × 2 = 48; 1 + 33 / 3 = 12 each."""
    huxi, s = won(HECHI, "d8 d8 d8 d4 d5 d6 d1 d2 d3 d5 d6 d7 x1 x2",
                  ["peng=d3 d3 d3", "wei=d9 d9 d9"], "x3", "draw")
    assert huxi == 24
    assert s.units == 12
    assert s.payments == (24, -12, -12)


def test_hechi_red_pao_counts_three_more():
    """跑 x7 (6 + 3 for 七) · 碰 d3 (3) · 坎 d8 (6) · x1 x2 x3 (3) · x4 x5 x6 · d4 d5 d6 ·
    将 x9 x9 = 21 油; 1 + 6 / 3 = 3 each."""
    huxi, s = won(HECHI, "d8 d8 d8 x1 x2 x3 x4 x5 x6 d4 d5 d6 x9",
                  ["pao=x7 x7 x7 x7", "peng=d3 d3 d3"], "x9", "draw")
    assert huxi == 21
    assert s.payments == (6, -3, -3)


# --- 湘乡 XiangXiangHHTable.get_chi_hu_action_rank_phz, process_chi_hu_player_score_phz ------

def test_xiangxiang_hong_hu_doubles_on_a_discard():
    """TEN_RED: 16 胡 with 10 red (红胡) → × 2 = 32; on a discard the discarder pays 32 and
    the winner gains 32 + 10 = 42 (process_chi_hu_player_score_phz, else branch: lChiHuScore
    + 10), the 10 paid by nobody."""
    huxi, s = won(XIANGXIANG, *TEN_RED, "discard", discarder=1)
    assert huxi == 16
    assert s.units == 32
    assert s.payments == (42, -32, 0)
    assert (s.credited, s.zero_sum) == (10, False)


def test_xiangxiang_plain_win_on_a_discard():
    """PLAIN: 18 胡, 5 red, no 名堂: the score is the 胡息, 18 from the discarder; the winner
    gains 18 + 10 = 28."""
    huxi, s = won(XIANGXIANG, *PLAIN, "discard", discarder=2)
    assert huxi == 18
    assert s.payments == (28, 0, -18)


def test_xiangxiang_win_on_another_seats_draw_credits_the_score_once():
    """PLAIN won on a card another seat drew: the zimo branch (zimo true, provide_index the
    drawer): the winner gains the score, 18, once, with no 10 more (seat_index is not
    provide_index), and nobody pays."""
    _, s = won(XIANGXIANG, *PLAIN, "draw")
    assert s.payments == (18, 0, 0)
    assert (s.credited, s.zero_sum) == (18, False)


def test_xiangxiang_quan_hei_counts_100_and_a_zimo_charges_nobody():
    """BLACK_SETS on one's own draw: 全黑 (黑胡) sets 100 胡息; a 自摸 charges nobody and the
    winner is credited the score once and 10 more (seat_index == provide_index): 110; the
    hand is not zero-sum."""
    _, s = won(XIANGXIANG, *BLACK_SETS, "self")
    assert s.huxi == 100
    assert s.units == 110
    assert s.payments == (110, 0, 0)
    assert not s.zero_sum
    assert s.credited == 110


def test_xiangxiang_discarder_pays_at_most_100():
    """提 d1 (12) · 提 d4 (12) · 跑 d9 (9) · 坎 d3 (6) · 坎 d5 (6) · d2 d7 d10 (6) · 将 x4 x4 = 51
    胡, 3 red: 30 胡 or more → × 2 = 102; won on a discard, the discarder pays at most 100
    (discarder_max); at 100 the third seat pays 10 and the winner gains 100 + 10: zero-sum."""
    huxi, s = won(XIANGXIANG, "d3 d3 d3 d5 d5 d5 d2 d7 d10 x4",
                  ["ti=d1 d1 d1 d1", "ti=d4 d4 d4 d4", "pao=d9 d9 d9 d9"], "x4", "discard",
                  discarder=1)
    assert huxi == 51
    assert s.units == 102
    assert s.payments == (110, -100, -10)
    assert s.zero_sum


# --- 湘乡's match: XiangXiangHHTable.on_room_game_finish, round, getGameScore --------------

def java_round(x):
    """XiangXiangHHTable.round: m = (x / 10) × 10 and n = x % 10 (Java: toward zero); |n| < 5
    keeps m, else 10 further from zero."""
    sign = 1 if x > 0 else -1
    m = abs(x) // 10 * 10 * (1 if x >= 0 else -1)
    n = abs(x) % 10
    return m if n < 5 else m + 10 * sign


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_xiangxiang_match_ends_at_100_rounded_to_10_with_datuo(seed):
    """A match of bots with seat 0 打坨 every hand: it ends after the first hand in which a
    running total reaches 100 (满百结算); every payment between seat 0 and the winner or a
    loser is doubled (坨 4 room: × 4 only between two seats that 打坨); the final totals are
    rounded to 10 as XiangXiangHHTable.round does. The totals are recomputed here from each
    hand's settlement."""
    from zipai_rules.bots import make_bots
    from zipai_rules.match import Match

    m = Match(XIANGXIANG, seed=seed, datuo=lambda match, seat: seat == 0)
    m.play(make_bots(("greedy", "random", "greedy"), seed, 3), max_hands=500)
    totals = [0, 0, 0]
    hands = list(m.hands)
    for k, h in enumerate(hands):
        assert max(totals) < 100, k  # no earlier hand ended the match
        pay = [0, 0, 0]
        for g, t in enumerate(h.seats):
            pay[t] += h.settlement.payments[g]
        w = h.winner
        if w is not None:
            scaled = [0, 0, 0]
            for s in range(3):
                if s != w:
                    scaled[s] = pay[s] * (2 if 0 in (s, w) else 1)
            scaled[w] = -sum(scaled) + sum(pay) * (2 if w == 0 else 1)
            pay = scaled
        else:  # the dealer's 10 on a 荒庄, paid to nobody: its own 打坨 doubles it
            pay = [p * (2 if t == 0 else 1) for t, p in enumerate(pay)]
        totals = [a + b for a, b in zip(totals, pay, strict=True)]
    assert max(totals) >= 100
    assert m.scores == totals
    assert m.final_scores() == [java_round(x) for x in totals]


# --- Room options written as a file that extends a preset (docs/regional-sources.md §5.6) ----

def from_file(tmp_path, text):
    from zipai_rules.variant_file import load_variant_file

    path = tmp_path / "room.yaml"
    path.write_text(text, "utf-8")
    return load_variant_file(path)


def test_ningxiang_room_with_di_fen_3_and_feng_ding_5(tmp_path):
    """底分 3 (GAME_RULE_NX_DI_FEN_3) and 封顶 5 番 (GAME_RULE_NX_MAX_FIVE: wFanShu capped at
    maxFanShu): BLACK_SETS' 乌胡 5 + 碰碰胡 5 = 10 番 counts 5; 3 + (28 − 15) / 3 = 7; 35 each."""
    room = from_file(tmp_path, "extends: ningxiang\nid: nx_room\nname: 宁乡房\nscoring:\n"
                     "  conversion: {offset: 15, step: 3, base: 3, minimum: 3}\n"
                     "  mingtang: {max_multiplier: 5}\n")
    _, s = won(room, *BLACK_SETS, "self")
    assert s.units == 35
    assert s.payments == (70, -35, -35)


def test_hanshou_room_with_dao_3_and_feng_ding(tmp_path):
    """倒 3 (GAME_RULE_DAO_2: baseTun 3) and 封顶 (GAME_RULE_FENG_DING: at most 20 from each
    loser): BLACK_SETS' 乌对胡 8 × (3 + 13 / 3) = 56, each loser pays 20."""
    room = from_file(tmp_path, "extends: hanshou\nid: hs_room\nname: 汉寿房\nscoring:\n"
                     "  conversion: {offset: 15, step: 3, base: 3, minimum: 3}\n"
                     "  payment: {max_units: 20}\n")
    _, s = won(room, *BLACK_SETS, "self")
    assert s.units == 56
    assert s.payments == (40, -20, -20)


def test_hechi_room_with_10_you_5_you_yi_zi_and_zimo_jia_fan(tmp_path):
    """10 油起胡, 5 油一子 and 自摸加番 (×2 instead of +1): BLACK_SETS' 全黑 28 × 2 = 56;
    1 + (56 − 10) / 5 = 10, × 2 on one's own draw = 20 each."""
    room = from_file(tmp_path, """extends: hechi
id: hc_room
name: 河池房
win: {min_huxi: 10}
scoring:
  conversion: {offset: 10, step: 5, base: 1, minimum: 1}
  mingtang:
    patterns:
      - {name: shi_san_hong, when: {fact: red, at_least: 13}, multiply_huxi: 2, group: fan}
      - {name: shi_ba_da, when: {fact: big, at_least: 18}, multiply_huxi: 2, group: fan}
      - {name: quan_hei, when: {fact: red, equals: 0}, multiply_huxi: 2, group: fan}
      - {name: zimo, term: 自摸加番, when: {label: zimo}, multiply_units: 2}
""")
    _, s = won(room, *BLACK_SETS, "self")
    assert s.units == 20
    assert s.payments == (40, -20, -20)
