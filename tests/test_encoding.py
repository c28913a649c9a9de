"""The stable action encoding (zipai_rules.engine.encoding) for bots and RL frameworks.

``tests/data/action_encoding.json`` pins the table: ``num_distinct_actions`` and a fixed list
of actions (``Action.to_json()``) with their codes, 吃 plans with 比 included. Changing the
encoding breaks saved models, so a change must be deliberate: the golden file changes with it.
Some of its entries are derived by hand below from the layout in the module docstring.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from zipai_rules import load_preset, preset_ids
from zipai_rules.cards import parse_indices
from zipai_rules.engine import Action, ActionKind, Game
from zipai_rules.engine.encoding import (
    decode_action,
    encode_action,
    legal_mask,
    num_distinct_actions,
)
from zipai_rules.errors import IllegalActionError
from zipai_rules.melds import Meld, chi_shape

GOLDEN = json.loads((Path(__file__).parent / "data" / "action_encoding.json").read_text("utf-8"))


def action_of(data: dict) -> Action:
    """An action from its JSON (read here, independently of zipai_rules.records)."""
    card = data.get("card")
    melds = tuple(Meld(m["kind"], tuple(parse_indices(" ".join(m["cards"]))),
                       claimed=None if "claimed" not in m else parse_indices(m["claimed"])[0],
                       bi=m.get("bi", False)) for m in data.get("melds", ()))
    return Action(data["kind"], data["seat"], None if card is None else parse_indices(card)[0],
                  melds)


@pytest.mark.parametrize("sample", GOLDEN["samples"], ids=lambda s: str(s["code"]))
def test_golden_samples(sample):
    action = action_of(sample["action"])
    assert encode_action(action) == sample["code"]
    assert decode_action(sample["code"], action.seat) == action
    assert action.to_json() == sample["action"]


def test_golden_size():
    assert num_distinct_actions() == GOLDEN["num_distinct_actions"]


def test_layout_by_hand():
    """Codes derived from the docstring's layout, not from the code.

    0..20 discard, 21..40 碰, 41..60 跑, 61..81 胡 on a card, 82 胡 without one, 83 pass, 84..
    吃: for each card in index order, for each chi shape holding it (sorted), the plan without
    比, then with one 比 shape, then with two (combinations with repetition, sorted).

    A card of rank r lies in s chi shapes: the sequences through it (1 for ranks 1 and 10, 2
    for 2 and 9, else 3), 二七十 for ranks 2, 7 and 10, and two 绞. So s = 3, 5, 5, 5, 5, 5,
    6, 5, 4, 4 for ranks 1..10, and a card takes s·(1 + s + s(s+1)/2) codes: 30, 105, 105,
    105, 105, 105, 168, 105, 60, 60 = 948 per case, 1896 for both, 1980 before the 王 codes.
    """
    codes = {30: 3, 105: 5, 168: 6, 60: 4}
    assert all(s * (1 + s + s * (s + 1) // 2) == n for n, s in codes.items())
    plain = 84 + 2 * (30 + 5 * 105 + 168 + 105 + 60 + 60)
    assert plain == 1980  # then the codes of a 吃 with 王 (tests/test_king_chi.py)
    assert not any(m.kings for m in decode_action(plain - 1, 0).melds)
    assert any(m.kings for m in decode_action(plain, 0).melds)
    x = lambda r: r - 1   # noqa: E731
    d = lambda r: 9 + r   # noqa: E731
    A = ActionKind
    assert encode_action(Action(A.DISCARD, 0, x(1))) == 0
    assert encode_action(Action(A.DISCARD, 0, 20)) == 20            # the 王
    assert encode_action(Action(A.PENG, 0, d(10))) == 21 + 19 == 40
    assert encode_action(Action(A.PAO, 0, x(5))) == 41 + 4 == 45
    assert encode_action(Action(A.HU, 0, 20)) == 61 + 20 == 81
    assert encode_action(Action(A.HU, 0)) == 82
    assert encode_action(Action(A.PASS, 0)) == 83

    def chi(card, shape, *bis):
        melds = (_meld(shape, claimed=card),) + tuple(_meld(b, bi=True) for b in bis)
        return encode_action(Action(A.CHI, 0, card, melds))
    # x1: shapes (x1 x1 d1), (x1 x2 x3), (x1 d1 d1); 1 + 3 + 6 = 10 codes per shape
    assert chi(x(1), (x(1), x(1), d(1))) == 84
    assert chi(x(1), (x(1), x(2), x(3))) == 84 + 10 == 94
    assert chi(x(1), (x(1), x(2), x(3)), (x(1), x(1), d(1))) == 95
    # two 比: pairs in order (a,a) (a,b) (a,c) (b,b) (b,c) (c,c); (b, c) is the 5th → 94 + 4 + 4
    assert chi(x(1), (x(1), x(2), x(3)), (x(1), d(1), d(1)), (x(1), x(2), x(3))) == 102
    # x2 starts at 84 + 30; shapes (x1 x2 x3), (x2 x2 d2), (x2 x3 x4), (x2 x7 x10), (x2 d2 d2);
    # 1 + 5 + 15 = 21 codes per shape
    assert chi(x(2), (x(2), x(7), x(10))) == 114 + 3 * 21 == 177
    assert chi(x(2), (x(2), x(7), x(10)), (x(2), x(3), x(4))) == 177 + 1 + 2 == 180
    # the last code: d10's last shape (d8 d9 d10) with two 比 of that shape
    assert chi(d(10), (d(8), d(9), d(10)), (d(8), d(9), d(10)), (d(8), d(9), d(10))) == 1979


def _meld(cards, claimed=None, bi=False):
    return Meld(chi_shape(cards), cards, claimed=claimed, bi=bi)


def test_every_code_round_trips():
    for code in range(num_distinct_actions()):
        assert encode_action(decode_action(code, 1)) == code


def test_bad_codes_and_actions_raise():
    for code in (-1, num_distinct_actions()):
        with pytest.raises(IllegalActionError) as exc:
            decode_action(code, 0)
        assert exc.value.code == "unencodable_action"
    with pytest.raises(IllegalActionError) as exc:
        encode_action(Action(ActionKind.CHI, 0, 3))  # a 吃 without its plan
    assert exc.value.code == "unencodable_action"
    with pytest.raises(IllegalActionError):
        encode_action(Action(ActionKind.PENG, 0, 20))  # nobody 碰s a 王


@pytest.mark.parametrize("preset", preset_ids())
def test_round_trip_and_mask_in_seeded_games(preset):
    """Every legal action of seeded games round-trips, and the mask marks exactly the legal
    codes (so distinct legal actions never share a code)."""
    v = load_preset(preset)
    total = num_distinct_actions(v)  # the prefix of the table the variant uses
    assert total == (4370 if preset == "yongzhou" else 1980)
    for seed in range(8):
        game, rng = Game(v, seed=seed), random.Random(seed)
        while not game.is_over:
            options = game.legal_actions()
            mask = legal_mask(options, v)
            assert len(mask) == total and sum(mask) == len(options)
            for a in options:
                code = encode_action(a)
                assert mask[code] and decode_action(code, a.seat) == a
            game.apply(rng.choice(options))
