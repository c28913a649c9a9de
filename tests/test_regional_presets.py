"""Worked examples of the regional presets 衡阳红黑, 耒阳提龙 and 郴州字牌 (docs/regional-sources.md
H1–H6, L1–L6, C1–C6): each hand goes through the public ``analyze`` and its win is settled by
the preset; the 胡息, the units and every payment are the digest's, worked by hand there.
Base score 1, three players, the winner at seat 0 unless said otherwise."""


from zipai_rules import analyze, load_preset
from zipai_rules.cards import parse_card
from zipai_rules.engine import Result
from zipai_rules.engine.actions import Event, EventKind
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.settlement import settle

HENGYANG = load_preset("hengyang_honghei")
LEIYANG = load_preset("leiyang_tilong")
CHENZHOU = load_preset("chenzhou")
CHENZHOU_WANG = load_preset("chenzhou_wang")


def c(token):
    return parse_card(token).index


def won(variant, hand, table, card, source, *, labels=(), winner=0, discarder=None,
        dealer=False, dealt=False):
    """Analyse the hand with ``analyze`` (it must win) and settle the win: (胡息, settlement)."""
    a = analyze(variant, hand, table, card, source, dealer=dealer, dealt=dealt)
    assert a.win, a.reason
    if source == "self" and "zimo" not in labels:
        labels = ("zimo", *labels)
    r = Result("hu", winner, None if card is None else c(card), source, a.huxi, a.best,
               tuple(labels), discarder=discarder)
    return a.huxi, settle(variant, r)


# --- 衡阳红黑 (regional-sources §1.5, §1.6) ----------------------------------------------------

def test_h1_discard_win_without_mingtang():
    """H1: 12 胡 → 2 敦, winning kind x9 +1 → 3; red 8; the discarder pays 3 × 3."""
    huxi, s = won(HENGYANG, "x1 x2 x3 d2 d7 d10 x4 x5 x6 x7 x8 d4 d5 d6 x10 x10 d10",
                  ["peng=d3 d3 d3"], "x9", "discard", discarder=1)
    assert huxi == 12
    assert s.units == 3
    assert s.payments == (9, -9, 0)


def test_h2_ten_counts_as_fifteen_quan_hei_zimo():
    """H2: 10 胡 counts as 15 → 3 敦, +1 for x6 → 4; 全黑 ×5, 自摸 ×2 → 40 from each."""
    huxi, s = won(HENGYANG, "d8 d8 d8 x3 x4 x5 d3 d4 d5 d4 d5 d6 x4 x5",
                  ["wei=x9 x9 x9", "peng=x1 x1 x1"], "x6", "self")
    assert huxi == 10
    assert s.units == 40
    assert s.payments == (80, -40, -40)


# The digest's H3 hand cannot be held: it has four x10 in hand (x2 x7 x10 and a 坎 x10 x10 x10;
# four of a kind are a 提/龙 on the table), and its x2 x2 d2 splits the 坎 of x2 that x2 x7 x10
# leaves (a 坎 is never split, regional-sources §1.2). The same worth from a legal hand: 碰 d7
# (3) · d2 d7 d10 (6) · x2 x7 x10 (3) · 碰 x10 (1) · 碰 x2 (1) · 碰 x9 (1) · d4 d5 d6 = 15 胡,
# red 3 + 3 + 3 + 3 + 3 = 15, one card of the winning kind d5.
H3_HAND = "d2 d7 d10 x2 x7 x10 d4 d6"
H3_TABLE = ["peng=d7 d7 d7", "peng=x10 x10 x10", "peng=x2 x2 x2", "peng=x9 x9 x9"]


def test_h3_da_hong_with_extra_red():
    """H3: 15 胡 → 3, +1 for d5, red 15 → 大红 and +2 → 6 敦, ×5 → 30; 放炮 pays 90."""
    huxi, s = won(HENGYANG, H3_HAND, H3_TABLE, "d5", "discard", discarder=2)
    assert huxi == 15
    assert s.units == 30
    assert s.payments == (90, 0, -90)


def test_h4_tilong_hu_with_xiao_hong():
    """H4: own d9 onto a 偎 makes 提 (12); 21 胡 → 5, winning kind d9 ×4 → +4, red 11 → 小红
    and +1 → 10 敦; 小红 ×3, 自摸 ×2 → 60 from each. (The digest's hand splits the 坎s of x10 and
    x7 that x2 x7 x10 leaves; the same worth from a legal hand: 偎 x10 on the table for
    x2 x7 x10 (3 胡, 3 red) and x2 x2 d2 for x10 x10 d10.)"""
    huxi, s = won(HENGYANG, "d2 d7 d10 x2 x2 d2 x4 x5 x6 d4 d5 d6 x7 x7",
                  ["wei=d9 d9 d9", "wei=x10 x10 x10"], "d9", "self")
    assert huxi == 21
    assert s.units == 60
    assert s.payments == (120, -60, -60)


def test_h5_dihu_and_a_triple_completed_by_the_won_card_is_a_peng():
    """H5: x8 x8 + the 亮张 x8 is a 碰 (1), not a 坎: 6 + 3 + 1 = 10 → 15 → 3 敦, winning kind
    x8 ×3 → 6 敦; 地胡 ×2 → 12; the dealer (seat 0) pays 3 × 12, the other non-dealer 0."""
    huxi, s = won(HENGYANG,
                  "d1 d1 d1 x1 x2 x3 x8 x8 x4 x5 x6 d4 d5 d6 d3 d3 x3 d7 d8 d9", [], "x8",
                  "discard", labels=("dihu",), winner=1, discarder=0)
    assert huxi == 10
    assert s.units == 12
    assert s.payments == (-36, 36, 0)


def test_h6_tianhu_takes_zimo_too():
    """H6: the dealer's 21 dealt cards, 18 胡 and 5 red: 4 敦, no winning card; 天胡 ×2 and
    自摸 ×2 (the 亮张 is the dealer's draw) → 16 from each."""
    hand = "d1 d1 d1 d3 d3 d3 x5 x5 x5 x1 x2 x3 d6 d7 d8 x10 x10 d10 d4 d5 d6"
    a = analyze(HENGYANG, hand, dealer=True, dealt=True)
    assert a.win and a.huxi == 18
    r = Result("tianhu", 0, None, None, a.huxi, a.best, ("tianhu", "zimo"))
    s = settle(HENGYANG, r)
    assert s.units == 16
    assert s.payments == (32, -16, -16)


# --- 耒阳提龙 (§2.2, §2.3) ------------------------------------------------------------------------

def test_l1_plain_discard_win():
    """L1: 15 胡, red 7, no label → 1 敦; the discarder pays 2 × 1."""
    huxi, s = won(LEIYANG, "d2 d7 d10 x1 x2 x3 x9 x9 x9 x4 x5 x6 x10 x10 d10 d4 d5",
                  ["peng=d3 d3 d3"], "d6", "discard", discarder=1)
    assert huxi == 15
    assert s.units == 1
    assert s.payments == (2, -2, 0)


def test_l2_ka_hu_ten_zimo():
    """L2: 10 胡 without a label → 2 敦 (卡胡), 自摸 ×2 → 4 from each. (The digest's hand holds
    four d8, a 坎 and d6 d7 d8; d5 d6 d7 here: the same 0 胡息 and the same red d7.)"""
    huxi, s = won(LEIYANG, "d8 d8 d8 x6 x7 x8 d5 d6 d7 x2 x2 d2 x3 x4",
                  ["peng=x1 x1 x1", "wei=x9 x9 x9"], "x5", "self")
    assert huxi == 10
    assert s.units == 4
    assert s.payments == (8, -4, -4)


def test_l3_ka_hu_raised_before_doubling():
    """L3: the H2 hand on a discard: 10 胡, 全黑 → raised to 16, ×2 = 32 → 3 + 11 // 3 = 6 敦;
    the discarder pays 12 (doubling 10 itself would give 20 → 4 → 8)."""
    huxi, s = won(LEIYANG, "d8 d8 d8 x3 x4 x5 d3 d4 d5 d4 d5 d6 x4 x5",
                  ["wei=x9 x9 x9", "peng=x1 x1 x1"], "x6", "discard", discarder=2)
    assert huxi == 10
    assert s.huxi == 32
    assert s.units == 6
    assert s.payments == (12, 0, -12)


L4_HAND = "d1 d1 d1 d3 d3 d3 x9 x9 x9 x4 x5 x6 d4 d5 d6 x3 x4 x5 x6 x7"


def test_l4_yi_dian_hong_doubles_the_huxi():
    """L4 without its 举手胡: 15 胡, one red (x7) → 一点红: 30 → 3 + 9 // 3 = 6 敦; 放炮 pays 12."""
    huxi, s = won(LEIYANG, L4_HAND, [], "x8", "discard", winner=1, discarder=0)
    assert huxi == 15
    assert s.huxi == 30
    assert s.units == 6
    assert s.payments == (-12, 12, 0)


def test_l4_yi_dian_hong_and_jushou():
    """L4: 一点红 and 举手胡 → 15 × 4 = 60 → 3 + 39 // 3 = 16 敦; the discarder pays 32."""
    huxi, s = won(LEIYANG, L4_HAND, [], "x8", "discard", labels=("jushou",), winner=1,
                  discarder=0)
    assert s.huxi == 60
    assert s.units == 16
    assert s.payments == (-32, 32, 0)


def test_l5_wu_hu_zimo():
    """L5: 0 胡 and no pair → 无胡 scores 21 → 3 敦, 自摸 ×2 → 6 from each."""
    huxi, s = won(LEIYANG, "x3 x4 x5 x4 x5 x6 x6 x7 x8 d3 d4 d5 x9 x9 d9 d6 d7",
                  ["shun=d4 d5 d6"], "d8", "self", labels=("wu_hu",))
    assert huxi == 21
    assert s.units == 6
    assert s.payments == (12, -6, -6)


def test_l6_instant_ti_payments():
    """L6: seat 0's dealt 龙 of d9 (+2 from each), its 提 of x3 (+1 from each) and a 跑 of d5
    (nothing): +6, the others −3 each, paid even on a drawn hand."""
    events = (Event(EventKind.TI, 0, c("d9"), (Meld(MeldKind.TI, (c("d9"),) * 4),), "dealt"),
              Event(EventKind.TI, 0, c("x3"), (Meld(MeldKind.TI, (c("x3"),) * 4),)),
              Event(EventKind.PAO, 0, c("d5"), (Meld(MeldKind.PAO, (c("d5"),) * 4),)))
    s = settle(LEIYANG, Result("huangzhuang"), events=events)
    assert s.payments == (6, -3, -3)
    # and on top of a win: L1 won by seat 1 on seat 2's discard
    a = analyze(LEIYANG, "d2 d7 d10 x1 x2 x3 x9 x9 x9 x4 x5 x6 x10 x10 d10 d4 d5",
                ["peng=d3 d3 d3"], "d6", "discard")
    r = Result("hu", 1, c("d6"), "discard", a.huxi, a.best, (), discarder=2)
    assert settle(LEIYANG, r, events=events).payments == (6 + 0, -3 + 2, -3 - 2)


def test_l6_hengyang_has_no_instant_payments():
    events = (Event(EventKind.TI, 0, c("d9"), (Meld(MeldKind.TI, (c("d9"),) * 4),), "dealt"),)
    assert settle(HENGYANG, Result("huangzhuang"), events=events).payments == (0, 0, 0)


# --- 郴州字牌 (§3.4, §3.5); every other player pays the score (§3.6, most likely reading) --------

def test_c1_threshold_nine_and_a_won_triple_scores_as_wei():
    """C1: x8 x8 + a discarded x8 scores 3 (偎 value): 3 + 3 + 3 = 9 → 1 囤, red 5 → 1."""
    huxi, s = won(CHENZHOU, "x1 x2 x3 x8 x8 x4 x5 x6 d4 d5 d6 d6 d7 d8 x10 x10 d10",
                  ["peng=d3 d3 d3"], "x8", "discard", discarder=1)
    assert huxi == 9
    assert s.payments == (2, -1, -1)


def test_c1_under_hzy_rules_is_no_win():
    """C1's remark: under 衡阳's rules the x8 triple is a 碰 (1): 7 胡, no win (10 needed)."""
    a = analyze(HENGYANG, "x1 x2 x3 x8 x8 x4 x5 x6 d4 d5 d6 d6 d7 d8 x10 x10 d10",
                ["peng=d3 d3 d3"], "x8", "discard")
    assert not a.win and a.huxi == 7


def test_c2_hei_hu():
    """C2: 14 胡 → 2 囤, no red → 黑胡 +1 → 3, from each other player, self-drawn or not."""
    table = ["peng=d1 d1 d1", "wei=x8 x8 x8", "peng=x5 x5 x5", "peng=x6 x6 x6"]
    for source, discarder in (("discard", 1), ("self", None)):
        huxi, s = won(CHENZHOU, "d9 d9 d9 x3 x4 x5 d3 d4", table, "d5", source,
                      discarder=discarder)
        assert huxi == 14
        assert s.units == 3
        assert s.payments == (6, -3, -3)


def test_c3_a_king_is_not_red():
    """C3: 碰 x7 (1), 坎 x10 (3), x2 x7 K (the 王 a fourth x10: 二七十, 3), d2 d7 d10 (6): 13 胡
    → 2 囤 (the best split: the worked example's 10 left the 王 out of the 坎's kind); red 12
    without the 王 → no 红胡 → 2."""
    huxi, s = won(CHENZHOU_WANG, "x2 x7 x10 d2 d7 K x10 x10 d10 d6 d7 d8 x4 x5 x6 d4 d5",
                  ["peng=x7 x7 x7"], "d6", "self")
    assert huxi == 13
    assert s.units == 2
    assert s.payments == (4, -2, -2)


def test_c4_dealt_ti_and_a_pair_completed_by_a_king():
    """C4: 提 d5 (12) + x1 x2 x3 (3) = 15 → 3 囤, red 2 → 3; the pair is x9 and a 王."""
    huxi, s = won(CHENZHOU_WANG, "x1 x2 x3 x4 x5 x6 d6 d7 d8 x8 x8 d8 d1 d1 x1 K",
                  ["ti=d5 d5 d5 d5"], "x9", "self")
    assert huxi == 15
    assert s.units == 3
    assert s.payments == (6, -3, -3)


def test_c5_own_draw_onto_own_wei_makes_pao():
    """C5: 偎 x6 + own x6 → 跑 (6): 6 + 6 = 12 → 2 囤, red 5 → 2 (as 提 it would be 15 → 3)."""
    huxi, s = won(CHENZHOU, "d2 d7 d10 x3 x4 x5 d3 d4 d5 x8 x9 x10 d8 d9 d10 x1 x1",
                  ["wei=x6 x6 x6"], "x6", "self")
    assert huxi == 12
    assert s.payments == (4, -2, -2)


def test_c5_hzy_makes_ti():
    """C5's remark: in 衡阳 the same draw makes 提 (9): 15 胡."""
    a = analyze(HENGYANG, "d2 d7 d10 x3 x4 x5 d3 d4 d5 x8 x9 x10 d8 d9 d10 x1 x1",
                ["wei=x6 x6 x6"], "x6", "self")
    assert a.win and a.huxi == 15


def test_c6_hong_hu():
    """C6: the H3 hand (as corrected above): 15 胡 → 3 囤, red 15 → 红胡 +1 → 4, from each
    other player."""
    huxi, s = won(CHENZHOU, H3_HAND, H3_TABLE, "d5", "discard", discarder=2)
    assert huxi == 15
    assert s.units == 4
    assert s.payments == (8, -4, -4)


def test_ka_hu_is_raised_once_however_many_labels():
    """L3's hand won by a 举手胡 player: 全黑 and 举手胡 are two labels, 10 is raised to 16 once:
    16 × 4 = 64 → 3 + 43 // 3 = 17 敦; the discarder pays 34 (raising per label would be more)."""
    huxi, s = won(LEIYANG, "d8 d8 d8 x3 x4 x5 d3 d4 d5 d4 d5 d6 x4 x5",
                  ["wei=x9 x9 x9", "peng=x1 x1 x1"], "x6", "discard", labels=("jushou",),
                  discarder=2)
    assert (huxi, s.huxi, s.units) == (10, 64, 17)
    assert s.payments == (34, 0, -34)
