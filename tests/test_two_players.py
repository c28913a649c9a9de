"""Two players and cards set aside (``deal.set_aside``): "还可以两人玩（无人数醒，庄家自己数牌，
并相应增加开胡戏数或每局去掉一部分牌，以增加胡牌难度）" (000_cdb63c032605c9a1.txt
§跑胡子游戏方法和比赛规则). The preset ``hunan_two`` deals 21 + 20 and a wall of 19, and sets
the last 20 shuffled cards aside."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from zipai_rules import find_variant
from zipai_rules.engine import Deal, Game, shuffled_deal
from zipai_rules.errors import CardError, HandError, VariantError
from zipai_rules.invariants import conservation
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset
from zipai_rules.records import dumps_record, game_record, replay_record
from zipai_rules.settlement import settle


@pytest.fixture(scope="module")
def two():
    return find_variant("hunan_two")


def test_the_preset_sizes(two):
    assert two.players == 2 and two.seats == 2
    assert (two.deal.dealer_hand, two.deal.other_hand, two.deal.wall) == (21, 20, 19)
    assert two.deal.set_aside == 20 and two.deck.size == 80
    assert find_variant("两人跑胡子") is two


def test_a_shuffled_deal_sets_the_last_cards_aside(two):
    d = shuffled_deal(two, 11)
    assert [len(h) for h in d.hands] == [21, 20] and len(d.wall) == 19 and len(d.aside) == 20
    everything = Counter([i for h in d.hands for i in h] + list(d.wall) + list(d.aside))
    assert everything == Counter({i: 4 for i in range(20)})
    # the same shuffle as without the rule: the cards after the wall are the ones set aside
    cards = [i for i in range(20) for _ in range(4)]
    random.Random(11).shuffle(cards)
    assert list(d.aside) == cards[60:] and list(d.wall) == cards[41:60]
    assert d.to_json()["aside"].count(" ") == 19


def test_a_deal_without_cards_aside_has_no_aside_key():
    d = shuffled_deal(find_variant("hunan"), 11)
    assert d.aside == () and "aside" not in d.to_json() and "aside" not in repr(d)


def test_a_deal_must_set_aside_what_the_variant_does(two):
    d = shuffled_deal(two, 4)
    short = Deal(d.hands, d.wall, d.dealer, d.aside[:-1])
    with pytest.raises(HandError) as info:
        Game(two, deal=short)
    assert info.value.code == "bad_deal"
    assert "19 cards set aside, the variant sets aside 20" in str(info.value)
    other = next(i for i in range(20) if i != d.aside[-1])
    fifth = Deal(d.hands, d.wall, d.dealer, d.aside[:-1] + (other,))
    with pytest.raises(CardError) as info2:
        Game(two, deal=fifth)
    assert "5" in str(info2.value)


def test_sizes_must_add_up_with_the_cards_aside():
    with pytest.raises(VariantError) as info:
        build_variant({"extends": "hunan_two", "deal": {"set_aside": 10}}, raw_preset, "child")
    assert "the wall (19) and the 10 set aside make 70" in str(info.value)


def test_games_conserve_the_cards_in_play_and_records_replay(two):
    rng = random.Random(2)
    wins = 0
    for seed in range(40):
        g = Game(two, seed=seed)
        while not g.state.is_over:
            assert conservation(g.state) is None
            g.apply(rng.choice(g.legal_actions()))
        assert conservation(g.state) is None
        s = settle(g)
        assert sum(s.payments) == 0 and len(s.payments) == 2
        wins += g.state.result.winner is not None
        record = json.loads(dumps_record(game_record(g, s)))
        assert len(record["deal"]["aside"].split()) == 20
        again, s2 = replay_record(record)
        assert again.events == g.events and s2 == s
    assert wins > 0
