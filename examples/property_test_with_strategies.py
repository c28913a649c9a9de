"""A property test of your own code with zipai_rules.testing.

The "user code" here is a compact wire format for a player's situation (table melds and
concealed hand), as a game server might send it to a client. The properties: every situation
the strategies can draw survives the round trip, for a plain deck and for one with 王, and the
wire text of a winning hand still analyses to the same 胡息. Run it as a script (it calls the
test functions, which run their examples) or collect it with pytest.
"""

from hypothesis import given, settings

from zipai_rules import Meld, MeldKind, analyze, find_variant
from zipai_rules.cards import format_cards, parse_indices
from zipai_rules.testing import situations, winning_hands

HUNAN = find_variant("hunan")
YONGZHOU = find_variant("yongzhou")   # 82 cards, two wild 王


# --- the code under test ------------------------------------------------------------------------

def to_wire(table: list[Meld], hand: list[int]) -> str:
    """``kind:cards[:claimed]`` per table meld, ``|``, then the hand: one line of ASCII."""
    melds = ",".join(f"{m.kind.value}:{format_cards(m.cards).replace(' ', '')}"
                     + (f":{format_cards([m.claimed])}" if m.claimed is not None else "")
                     for m in table)
    return f"{melds}|{format_cards(hand).replace(' ', '')}"


def from_wire(text: str) -> tuple[list[Meld], list[int]]:
    melds_text, _, hand_text = text.partition("|")
    table = []
    for item in filter(None, melds_text.split(",")):
        kind, cards, *claimed = item.split(":")
        table.append(Meld(MeldKind(kind), parse_indices(cards),
                          claimed=parse_indices(claimed[0])[0] if claimed else None))
    return table, parse_indices(hand_text)


# --- the properties -----------------------------------------------------------------------------

@settings(max_examples=50)
@given(situations(HUNAN))
def test_round_trip(situation):
    hand, table, _card, _source = situation
    assert from_wire(to_wire(table, hand)) == (table, hand)


@settings(max_examples=50)
@given(situations(YONGZHOU))
def test_round_trip_with_kings(situation):
    hand, table, _card, _source = situation
    assert from_wire(to_wire(table, hand)) == (table, hand)


@settings(max_examples=20)
@given(winning_hands(HUNAN))
def test_winning_hands_survive_the_wire(case):
    hand, table, analysis = case
    table2, hand2 = from_wire(to_wire(table, hand))
    assert analyze(HUNAN, hand2, table2).huxi == analysis.huxi >= HUNAN.win.min_huxi


if __name__ == "__main__":
    for test in (test_round_trip, test_round_trip_with_kings, test_winning_hands_survive_the_wire):
        test()  # a @given test runs all its examples when called
        print(f"{test.__name__}: passed")
