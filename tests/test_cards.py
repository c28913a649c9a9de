"""Cards and their notation (digest §1.1; card notation x1..x10, d1..d10, K)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zipai_rules import Card, CardError, format_cards, parse_card, parse_cards
from zipai_rules.cards import (
    INDEX_CARDS,
    KING,
    check_copies,
    counts_of,
    indices_of,
    is_big,
    parse_indices,
    rank_of,
    token,
    token_zh,
)

SMALL = "一二三四五六七八九十"
BIG = "壹贰叁肆伍陆柒捌玖拾"


def idx(text):
    return parse_indices(text)


# --- indices ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rank", range(1, 11))
def test_index_layout(rank):
    """small rank r → r-1, big rank r → 9+r, K → 20."""
    assert Card(rank).index == rank - 1
    assert Card(rank, big=True).index == 9 + rank
    assert Card.from_index(rank - 1) == Card(rank)
    assert Card.from_index(9 + rank) == Card(rank, True)
    assert rank_of(rank - 1) == rank and rank_of(9 + rank) == rank
    assert not is_big(rank - 1) and is_big(9 + rank)


def test_king():
    k = Card.king()
    assert k.is_king and k.index == KING == 20
    assert str(k) == "K" and k.zh == "王"
    assert rank_of(20) == 0 and not is_big(20)
    assert not k.red


@pytest.mark.parametrize("rank", [0, 11, -1])
def test_bad_rank(rank):
    if rank == 0:
        with pytest.raises(CardError):
            Card(0, big=True)  # the king has no big form
    else:
        with pytest.raises(CardError):
            Card(rank)


# --- parsing ------------------------------------------------------------------------------------

def test_parse_ascii_separated():
    assert idx("x1 x2 x3") == [0, 1, 2]
    assert idx("d1 d5 d10") == [10, 14, 19]
    assert idx("  x4   d4  ") == [3, 13]


def test_parse_without_separators():
    assert idx("x1x2x3") == [0, 1, 2]
    assert idx("d4d5d6") == [13, 14, 15]


def test_parse_commas():
    assert idx("d4,d4,d4") == [13, 13, 13]
    assert idx("x1, x2 ,x3,") == [0, 1, 2]


def test_parse_chinese():
    assert idx("一二三") == [0, 1, 2]
    assert idx("壹贰叁") == [10, 11, 12]
    assert idx("十拾") == [9, 19]
    assert idx("王") == [20]
    assert idx("一 二,三") == [0, 1, 2]


def test_parse_mixed():
    assert idx("x1二d3叁K王") == [0, 1, 12, 12, 20, 20]
    assert idx("X10 D10 k") == [9, 19, 20]


def test_x10_versus_x1():
    assert idx("x10") == [9]
    assert idx("x1") == [0]
    assert idx("x10x1") == [9, 0]
    assert idx("x1x10") == [0, 9]
    assert idx("x1 x10 d1 d10") == [0, 9, 10, 19]
    assert idx("d10d1") == [19, 10]


def test_parse_cards_objects():
    cards = parse_cards("x3 d7 K")
    assert cards == [Card(3), Card(7, True), Card.king()]
    assert parse_card("拾") == Card(10, True)
    assert parse_card(" x10 ") == Card(10)


def test_parse_card_needs_exactly_one():
    with pytest.raises(CardError):
        parse_card("x1 x2")
    with pytest.raises(CardError):
        parse_card("")


def test_empty_text_is_no_cards():
    assert parse_cards("") == []
    assert parse_cards("   ") == []


# --- output -------------------------------------------------------------------------------------

def test_output_tokens():
    assert [token(i) for i in range(21)] == (
        [f"x{r}" for r in range(1, 11)] + [f"d{r}" for r in range(1, 11)] + ["K"])
    assert str(Card(10)) == "x10" and str(Card(1, True)) == "d1"


def test_zh_form():
    assert "".join(token_zh(i) for i in range(21)) == SMALL + BIG + "王"
    assert Card(2).zh == "二" and Card(7, True).zh == "柒"


def test_format_cards():
    assert format_cards([0, 1, 2]) == "x1 x2 x3"
    assert format_cards([Card(10, True), Card(10), Card.king()]) == "d10 x10 K"
    assert format_cards([0, 1, 2], zh=True) == "一二三"
    assert format_cards([19, 9, 20], zh=True) == "拾十王"
    assert format_cards([]) == ""


# --- red cards ----------------------------------------------------------------------------------

def test_red_cards():
    """二七十 and 贰柒拾 are red (000 §跑胡子游戏方法和比赛规则 "二、七、十 … 为红色"), 24 of 80."""
    red = {str(c) for c in INDEX_CARDS if c.red}
    assert red == {"x2", "x7", "x10", "d2", "d7", "d10"}
    assert 4 * len(red) == 24


# --- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, bad", [
    ("y3", "y3"),
    ("x0", "x0"),
    ("d0", "d0"),
    ("x11", "x11"),
    ("d12", "d12"),
    ("K1", "K1"),
    ("x1 foo x2", "foo"),
    ("x1 foo,x2", "foo"),
    ("x1,,x2", ","),
    ("一二零", "零"),
    ("x 1", "x"),
])
def test_bad_token(text, bad):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    err = info.value
    assert err.code == "unknown_card"
    msg = str(err)
    assert f"{bad!r}" in msg
    # lists the accepted spellings
    for spelling in ("x1..x10", "d1..d10", "K", SMALL, BIG, "王"):
        assert spelling in msg


def test_card_error_is_value_error():
    with pytest.raises(ValueError):
        parse_cards("zz")


def test_check_copies():
    check_copies([0] * 4)
    check_copies([13] * 4 + [0] * 4)
    with pytest.raises(CardError) as info:
        check_copies([0, 1, 13, 13, 13, 13, 13])
    assert info.value.code == "too_many_copies"
    assert "d4" in str(info.value)


def test_check_copies_kings():
    with pytest.raises(CardError) as info:
        check_copies([20])  # no king in the 80-card deck
    assert info.value.code == "too_many_copies"
    check_copies([20, 20], kings=2)
    with pytest.raises(CardError):
        check_copies([20, 20, 20], kings=2)


def test_check_copies_other_deck():
    check_copies([5, 5], copies=2)
    with pytest.raises(CardError):
        check_copies([5, 5, 5], copies=2)


def test_counts_round_trip():
    counts = counts_of([0, 0, 19, 20])
    assert len(counts) == 21
    assert counts[0] == 2 and counts[19] == 1 and counts[20] == 1 and sum(counts) == 4
    assert indices_of(counts) == [0, 0, 19, 20]


# --- round trips --------------------------------------------------------------------------------

card_lists = st.lists(st.integers(0, 20), max_size=30)


@given(card_lists)
def test_format_then_parse(indices):
    assert parse_indices(format_cards(indices)) == indices
    assert parse_indices(format_cards(indices, zh=True)) == indices
    assert [c.index for c in parse_cards(format_cards(indices))] == indices


@given(st.lists(st.tuples(st.integers(0, 20), st.sampled_from(["ascii", "ASCII", "zh"]),
                          st.sampled_from(["", " ", ",", ", ", "  ", " ,"])), max_size=30))
def test_parse_then_format(spec):
    """Random mixed spellings and separators parse to the intended cards; formatting the
    parsed cards gives the canonical text."""
    parts = []
    for i, style, sep in spec:
        tok = token_zh(i) if style == "zh" else token(i)
        parts.append((tok.upper() if style == "ASCII" else tok) + sep)
    text = "".join(parts)
    indices = [i for i, _, _ in spec]
    parsed = parse_indices(text)
    assert parsed == indices
    assert format_cards(parsed) == " ".join(token(i) for i in indices)
    assert format_cards(parsed, zh=True) == "".join(token_zh(i) for i in indices)
    assert parse_indices(format_cards(parsed)) == parsed
