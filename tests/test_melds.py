"""Melds (digest §1.2) and their 胡息 under the Hunan table (digest §1.3 (c))."""

import pytest

from zipai_rules import CardError, Meld, MeldError, MeldKind, parse_meld
from zipai_rules.cards import parse_indices
from zipai_rules.melds import CHI_SHAPES, QUADS, TRIPLES, chi_shape


def c(text):
    return tuple(parse_indices(text))


# --- chi_shape ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, kind", [
    ("x3 x4 x5", MeldKind.SHUN),
    ("x5 x3 x4", MeldKind.SHUN),          # order does not matter
    ("x8 x9 x10", MeldKind.SHUN),
    ("d4 d5 d6", MeldKind.SHUN),
    ("d8 d9 d10", MeldKind.SHUN),
    ("x2 x3 x4", MeldKind.SHUN),
    ("x1 x2 x3", MeldKind.YI_ER_SAN),
    ("d3 d1 d2", MeldKind.YI_ER_SAN),
    ("x2 x7 x10", MeldKind.ER_QI_SHI),
    ("d10 d2 d7", MeldKind.ER_QI_SHI),
    ("x1 x1 d1", MeldKind.JIAO),
    ("x1 d1 d1", MeldKind.JIAO),
    ("d8 d8 x8", MeldKind.JIAO),
    ("x10 x10 d10", MeldKind.JIAO),
])
def test_chi_shape(cards, kind):
    assert chi_shape(c(cards)) == kind
    assert kind in CHI_SHAPES


@pytest.mark.parametrize("cards", [
    "x1 x2 d3",      # a sequence must be one case ("只有小字和小字,大字和大字才能构成顺子")
    "x2 x7 d10",     # 二七十 must be one case
    "d2 d7 x10",
    "x9 x10 d1",     # no wrap-around
    "x10 x1 x2",
    "x5 x5 x5",      # three identical cards are no chi shape (坎/碰/偎)
    "d5 d5 d5",
    "x1 x3 x5",
    "x1 d1 x2",
    "x2 x7 x9",
    "x1 x2 K",       # the king is never part of a chi shape
])
def test_not_chi_shape(cards):
    assert chi_shape(c(cards)) is None


def test_chi_shape_needs_three_cards():
    assert chi_shape(c("x1 x2")) is None
    assert chi_shape(c("x1 x2 x3 x4")) is None


# --- Meld construction --------------------------------------------------------------------------

def test_meld_sorts_cards():
    m = Meld(MeldKind.ER_QI_SHI, c("x10 x2 x7"))
    assert m.cards == (1, 6, 9)
    assert Meld("peng", c("d4 d4 d4")).kind is MeldKind.PENG


@pytest.mark.parametrize("kind, cards", [
    ("peng", "d4 d4 d5"),
    ("kan", "x1 x1"),
    ("wei", "x1 x1 x1 x1"),
    ("chou_wei", "x2 x2 d2"),
    ("ti", "x3 x3 x3"),
    ("pao", "x3 x3 x3 d3"),
    ("jiang", "x1 x1 x1"),
    ("jiang", "x1 d1"),
    ("kan", "K K K"),
    ("shun", "x1 x2 x4"),
    ("shun", "x1 x2 x3"),        # 一二三 is its own kind, not a plain sequence
    ("yi_er_san", "x2 x3 x4"),
    ("er_qi_shi", "x2 x7 d10"),
    ("jiao", "x1 x1 x1"),
    ("jiao", "x1 x1 d2"),
])
def test_meld_shape_errors(kind, cards):
    with pytest.raises(MeldError):
        Meld(kind, c(cards))


def test_claimed_card_must_be_in_meld():
    assert Meld("shun", c("x3 x4 x5"), claimed=3).claimed == 3
    with pytest.raises(MeldError):
        Meld("shun", c("x3 x4 x5"), claimed=5)


def test_kind_sets():
    assert QUADS == {MeldKind.TI, MeldKind.PAO}
    assert TRIPLES == {MeldKind.KAN, MeldKind.PENG, MeldKind.WEI, MeldKind.CHOU_WEI}
    assert Meld("ti", c("x3 x3 x3 x3")).is_quad
    assert not Meld("kan", c("x3 x3 x3")).is_quad


# --- parse_meld ---------------------------------------------------------------------------------

def test_parse_peng():
    m = parse_meld("peng=d4 d4 d4")
    assert m == Meld(MeldKind.PENG, (13, 13, 13))
    assert m.claimed is None and not m.bi and not m.is_chi


def test_parse_chi_infers_shape_and_claimed_card():
    m = parse_meld("chi=x2 x7 x10")
    assert m.kind is MeldKind.ER_QI_SHI
    assert m.cards == (1, 6, 9)
    assert m.claimed == 1          # the first card written is the claimed one
    assert m.is_chi
    m = parse_meld("chi=x10 x2 x7")
    assert m.kind is MeldKind.ER_QI_SHI and m.claimed == 9
    assert parse_meld("chi=d1 x1 x1").kind is MeldKind.JIAO
    assert parse_meld("chi=x4x5x6").kind is MeldKind.SHUN
    assert parse_meld("chi=一二三").kind is MeldKind.YI_ER_SAN


def test_parse_bi():
    m = parse_meld("bi=x1 x2 x3")
    assert m.kind is MeldKind.YI_ER_SAN and m.bi and m.claimed is None


def test_parse_other_kinds_and_spacing():
    assert parse_meld(" PENG = d4,d4,d4 ").kind is MeldKind.PENG
    assert parse_meld("ti=x3 x3 x3 x3").cards == (2, 2, 2, 2)
    assert parse_meld("wei=壹壹壹").cards == (10, 10, 10)
    assert parse_meld("shun=d4 d5 d6").claimed is None


@pytest.mark.parametrize("text", ["peng d4 d4 d4", "d4 d4 d4", "peng:d4 d4 d4"])
def test_parse_meld_missing_equals(text):
    with pytest.raises(MeldError) as info:
        parse_meld(text)
    assert info.value.code == "malformed_meld"
    assert "KIND=CARDS" in str(info.value)


@pytest.mark.parametrize("text", ["pong=d4 d4 d4", "=d4 d4 d4", "sequence=x1 x2 x3"])
def test_parse_meld_unknown_kind(text):
    with pytest.raises(MeldError) as info:
        parse_meld(text)
    assert info.value.code == "malformed_meld"
    assert "peng" in str(info.value)  # lists the accepted kinds


@pytest.mark.parametrize("text", ["peng=d4 d4 d5", "chi=x1 x2 x4", "chi=x1 x2", "ti=x3 x3 x3",
                                  "chi=x5 x5 x5", "jiang=x1 x1 x1"])
def test_parse_meld_wrong_shape(text):
    with pytest.raises(MeldError) as info:
        parse_meld(text)
    assert info.value.code == "bad_meld"


def test_parse_meld_bad_card():
    with pytest.raises(CardError) as info:
        parse_meld("peng=d4 d4 zz")
    assert info.value.code == "unknown_card"


# --- big and 胡息 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, big", [
    ("d4 d4 d4", True),
    ("x4 x4 x4", False),
    ("d1 d1 x1", True),     # 绞: two of three big
    ("x1 x1 d1", False),
    ("d5 d5 d5 d5", True),
    ("x2 x7 x10", False),
    ("d2 d7 d10", True),
])
def test_big(cards, big):
    ix = c(cards)
    kind = chi_shape(ix) or {3: MeldKind.KAN, 4: MeldKind.TI}[len(ix)]
    assert Meld(kind, ix).big is big


# digest §1.3 (c): 碰 1/3; 坎, 偎, 臭偎 3/6; 跑 6/9; 提 9/12; 一二三 / 二七十 3/6; others 0.
HUXI_CASES = [
    ("peng", "x9 x9 x9", 1), ("peng", "d4 d4 d4", 3),
    ("kan", "x8 x8 x8", 3), ("kan", "d10 d10 d10", 6),
    ("wei", "x6 x6 x6", 3), ("wei", "d7 d7 d7", 6),
    ("chou_wei", "x2 x2 x2", 3), ("chou_wei", "d2 d2 d2", 6),
    ("pao", "x6 x6 x6 x6", 6), ("pao", "d5 d5 d5 d5", 9),
    ("ti", "x3 x3 x3 x3", 9), ("ti", "d7 d7 d7 d7", 12),
    ("yi_er_san", "x1 x2 x3", 3), ("yi_er_san", "d1 d2 d3", 6),
    ("er_qi_shi", "x2 x7 x10", 3), ("er_qi_shi", "d2 d7 d10", 6),
    ("shun", "x4 x5 x6", 0), ("shun", "d8 d9 d10", 0),
    ("jiao", "x1 x1 d1", 0), ("jiao", "d1 d1 x1", 0),
    ("jiang", "x10 x10", 0), ("jiang", "d9 d9", 0),
]


@pytest.mark.parametrize("kind, cards, huxi", HUXI_CASES)
def test_huxi_hunan(hunan, kind, cards, huxi):
    m = Meld(kind, c(cards))
    assert hunan.meld_huxi(m) == huxi
    assert hunan.huxi(MeldKind(kind), m.big) == huxi


def test_huxi_same_for_chi_and_concealed(hunan):
    """Digest G20: 一二三 / 二七十 score 3/6 whether chi'd or concealed."""
    assert hunan.meld_huxi(parse_meld("chi=x2 x7 x10")) == 3
    assert hunan.meld_huxi(parse_meld("chi=d1 d2 d3")) == 6
    assert hunan.meld_huxi(parse_meld("bi=d2 d7 d10")) == 6


def test_meld_text_forms():
    m = parse_meld("chi=x2 x7 x10")
    assert str(m) == "er_qi_shi(x2 x7 x10)"
    assert m.to_json() == {"kind": "er_qi_shi", "cards": ["x2", "x7", "x10"], "claimed": "x2"}
    assert parse_meld("bi=x1 x2 x3").to_json() == {"kind": "yi_er_san",
                                                   "cards": ["x1", "x2", "x3"], "bi": True}
