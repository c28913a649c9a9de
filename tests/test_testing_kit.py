"""Tests of the property-testing kit itself (zipai_rules.testing): every strategy draws what
its docstring promises, for every shipped preset.

The checks use facts from the rules and independent oracles, not the kit's own helpers: card
copies from the preset file, meld shapes from tests/reference.py, completeness from the
reference decomposer, legality by replaying with the engine, documents by the JSON schema.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

import reference as ref
from helpers import table_extra, total_counts
from zipai_rules import MeldKind, analyze, load_preset, preset_ids
from zipai_rules.engine import replay, shuffled_deal
from zipai_rules.errors import VariantError
from zipai_rules.loader import build_variant, schema_problems
from zipai_rules.presets import raw_preset
from zipai_rules.testing import (
    action_sequences,
    cards,
    games,
    hands,
    melds,
    situations,
    variant_documents,
    winning_hands,
)

PRESETS = preset_ids()
K = 20  # the 王
# per preset: a few examples each on ci (derived from the profile, so dev runs many more)
N = max(8, settings.default.max_examples // 6)
kit = settings(settings.default, max_examples=N,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def search(n: int) -> settings:
    """Settings for ``find``: up to ``n`` examples, no shrinking (only existence matters)."""
    return settings(database=None, max_examples=n, phases=[Phase.generate], derandomize=True)

SAME_SIZE = {"kan": 3, "peng": 3, "wei": 3, "chou_wei": 3, "ti": 4, "pao": 4, "jiang": 2}
TABLE_SAME = {"peng", "wei", "chou_wei", "ti", "pao"}


def deck_limits(preset: str) -> tuple[int, int]:
    """(copies, kings) read from the preset's YAML (resolved through ``extends``)."""
    raw, seen = raw_preset(preset), []
    while True:
        seen.append(raw)
        if "extends" not in raw:
            break
        raw = raw_preset(raw["extends"])
    deck = {}
    for r in reversed(seen):
        deck.update(r.get("deck", {}))
    return deck["copies"], deck["kings"]


def test_deck_limits_read_from_the_files():
    assert deck_limits("hunan") == (4, 0)
    assert deck_limits("yongzhou") == (4, 2)   # 双王: 82 cards
    assert deck_limits("hengyang_shihu") == (4, 0)  # extends hengyang_liuhu extends hunan


def within_deck(preset: str, card_lists) -> None:
    copies, kings = deck_limits(preset)
    n = Counter(c for cs in card_lists for c in cs)
    assert all(0 <= c <= K for c in n), n
    assert all(n[c] <= copies for c in range(20)), n
    assert n[K] <= kings, n


def pairs_rule(variant, table) -> int:
    quad = any(m.kind in (MeldKind.TI, MeldKind.PAO) for m in table)
    return variant.win.max_jiang if (quad or not variant.win.jiang_requires_quad) else 0


def ref_table(table):
    return [(m.kind.value, m.cards) for m in table]


# --- cards, hands, melds ----------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data())
def test_cards(preset, data):
    c = data.draw(cards(load_preset(preset)))
    within_deck(preset, [[c]])


@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data(), size=st.integers(0, 15))
def test_hands(preset, data, size):
    v = load_preset(preset)
    hand = data.draw(hands(v))
    within_deck(preset, [hand])
    assert hand == sorted(hand) and len(hand) <= v.deal.dealer_hand
    assert len(data.draw(hands(v, size=size))) == size
    lo = data.draw(st.integers(0, 5))
    assert lo <= len(data.draw(hands(v, min_size=lo, max_size=lo + 3))) <= lo + 3


def test_hands_can_hold_the_kings():
    yongzhou = load_preset("yongzhou")
    found = find(hands(yongzhou, size=21), lambda h: h.count(K) == 2, settings=search(2000))
    assert found.count(K) == 2


@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data())
def test_melds_are_valid(preset, data):
    v = load_preset(preset)
    kinds = data.draw(st.none() | st.frozensets(st.sampled_from(list(MeldKind)), min_size=1))
    m = data.draw(melds(v, kinds))
    assert kinds is None or m.kind in kinds
    assert K not in m.cards
    within_deck(preset, [m.cards])
    if m.kind.value in SAME_SIZE:
        assert len(m.cards) == SAME_SIZE[m.kind.value] and len(set(m.cards)) == 1
        assert m.claimed is None
    else:  # the reference's own shape rules (digest §1.2)
        assert ref.triple_kind(m.cards) == m.kind.value
        assert m.claimed is None or m.claimed in m.cards


# --- situations and winning hands ---------------------------------------------------------------

def check_situation(preset, variant, sit, complete):
    hand, table, card, source = sit
    within_deck(preset, [hand] + [m.cards for m in table] + ([[card]] if card is not None else []))
    assert hand == sorted(hand)
    # a count a game reaches: the resting size (other_hand, plus one card per 提/跑 after the
    # first: digest §1.4.0) before a card; that or one more as it stands; one more if complete
    quads = sum(1 for m in table if m.kind.value in ("ti", "pao"))
    resting = variant.deal.other_hand + max(quads - 1, 0)
    held_now = len(hand) + sum(len(m.cards) for m in table)
    if card is not None:
        assert held_now == resting
    elif complete:
        assert held_now == resting + 1
    else:
        assert held_now in (resting, resting + 1)
    assert len(table) <= 4
    held = Counter(hand)
    assert all(held[c] <= 3 for c in range(20)), "a concealed four"
    for m in table:
        assert m.kind.value in TABLE_SAME or m.claimed in m.cards  # a 吃 marks its card
        if m.kind.value in TABLE_SAME:
            assert held[m.cards[0]] == 0, f"{m} on the table and in the hand"
    assert (card is None) == (source is None)
    if card == K:
        assert source == "self"
    elif source is not None:
        assert source in ("self", "draw", "discard")
    if complete:
        assert card is None
        # only melds (and a 将 after a 提/跑): the reference finds a decomposition
        assert ref.best_huxi_wild(hand, ref_table(table), pairs_rule(variant, table)) is not None


@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data(), complete=st.booleans())
def test_situations(preset, data, complete):
    v = load_preset(preset)
    sit = data.draw(situations(v, complete=complete))
    check_situation(preset, v, sit, complete)
    analyze(v, *sit)  # a situation the analysis accepts, in its argument order


def test_complete_situations_never_hold_a_concealed_four():
    """Regression: stacking a 坎 and a chi-type meld of one card made a concealed four, which
    was removed (leaving an incomplete hand) or, the second time, kept (``analyze`` then raised
    ``concealed_quad``); overlapping chi-type melds made an accidental 坎."""
    from hypothesis.errors import NoSuchExample

    v = load_preset("hunan")
    bad = lambda s: (max(Counter(s.hand).values(), default=0) > 3   # noqa: E731
                     or analyze(v, s.hand, s.table).reason in ("incomplete",
                                                               "jiang_not_allowed"))
    with pytest.raises(NoSuchExample):
        find(situations(v, complete=True), bad, settings=search(200))


@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data())
def test_winning_hands_win_within_the_range(preset, data):
    v = load_preset(preset)
    low = data.draw(st.sampled_from([None, v.win.min_huxi + 3]), label="min_huxi")
    high = data.draw(st.sampled_from([200, v.win.min_huxi + 12]), label="max_huxi")
    hand, table, a = data.draw(winning_hands(v, low, high))
    check_situation(preset, v, (hand, table, None, None), True)
    best = ref.best_huxi_wild(hand, ref_table(table), pairs_rule(v, table),
                              v.win.split_kan)  # 郴州: no 坎 locked at the win
    best = None if best is None else best + table_extra(v, table)
    assert best == a.huxi and a.win
    assert (v.win.min_huxi if low is None else low) <= best <= high


def test_yongzhou_situations_use_the_kings():
    v = load_preset("yongzhou")
    sit = find(situations(v, complete=True), lambda s: s.hand.count(K) == 2,
               settings=search(2000))
    assert ref.best_huxi_wild(sit.hand, ref_table(sit.table), pairs_rule(v, sit.table)) \
        is not None


# --- games and action sequences -----------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data())
def test_games_are_legal_states(preset, data):
    v = load_preset(preset)
    game = data.draw(games(v, max_steps=60))
    copies, kings = deck_limits(preset)
    n = total_counts(game.state) + Counter(game.deal.aside)  # the cards set aside are out
    assert all(n[c] == copies for c in range(20)) and n[K] == kings
    assert game.deal == shuffled_deal(v, game.seed)
    assert len(game.actions) <= 60
    assert replay(v, game.deal, game.actions).state == game.state
    if game.is_over:
        assert game.result is not None and not game.legal_actions()
    else:
        options = game.legal_actions()
        assert options and all(game.check(a) is None for a in options)
        assert {a.seat for a in options} == {game.actor}


@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data())
def test_action_sequences_replay(preset, data):
    v = load_preset(preset)
    seed, actions = data.draw(action_sequences(v, max_steps=80))
    game = replay(v, shuffled_deal(v, seed), actions)  # raises on an illegal step
    assert game.is_over or len(actions) == 80
    assert game.actions == actions and len(actions) <= 80


# --- variant documents ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
@kit
@given(data=st.data())
def test_variant_documents_pass_the_schema(preset, data):
    doc = data.draw(variant_documents(preset))
    assert schema_problems(doc) == []
    assert doc["id"] == "fuzz" and "extends" not in doc


@pytest.mark.parametrize("preset", PRESETS)
def test_variant_documents_build_and_fail(preset):
    """Both kinds occur for every base: documents that build (before, every yongzhou
    document was rejected: the wall ignored the 王) and semantically invalid ones."""
    from hypothesis import find

    def builds(doc):
        try:
            build_variant(doc, raw_preset, "fuzz")
        except VariantError:
            return False
        return True
    good = find(variant_documents(preset), builds, settings=search(300))
    assert build_variant(good, raw_preset, "fuzz").id == "fuzz"
    bad = find(variant_documents(preset), lambda d: not builds(d), settings=search(300))
    with pytest.raises(VariantError):
        build_variant(bad, raw_preset, "fuzz")
