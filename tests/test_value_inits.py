"""The hand-written ``__init__`` of the engine's frozen values (SeatState, GameState, Pending,
Event, WinContext: ``init=False``, slots set through ``frozen.slot_setters``) keeps what the
attrs-made one did: the fields' defaults, every field settable by its name (``attrs.evolve``),
equality, hashing, pickling and the refusal of a change; and Action, whose converters return the
engine's own values as they are, still converts and refuses the same inputs."""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

from zipai_rules import load_preset
from zipai_rules.engine import Game
from zipai_rules.engine.actions import Action, ActionKind, Event, EventKind
from zipai_rules.engine.state import GameState, Pending, SeatState, WinContext
from zipai_rules.errors import CardError, IllegalActionError
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.vocab import Source

HAND = tuple(range(21))
#: one value of each class built with its required fields only
BARE: dict[type, Any] = {
    SeatState: SeatState(HAND),
    Pending: Pending(4, Source.DRAW, 1, 2),
    Event: Event(EventKind.DRAW),
    WinContext: WinContext(0, 40, 7, 3),
}


@pytest.mark.parametrize("cls", list(BARE), ids=lambda c: c.__name__)
def test_defaults_are_the_fields_defaults(cls: type) -> None:
    value = BARE[cls]
    for f in attrs.fields(cls):
        if f.default is not attrs.NOTHING:
            assert getattr(value, f.name) == f.default, f.name


def test_game_state_defaults_and_every_field_by_name() -> None:
    state = Game(load_preset("hunan"), seed=3).state
    fields = attrs.fields(GameState)
    bare = GameState(*(getattr(state, f.name) for f in fields if f.default is attrs.NOTHING))
    for f in fields:
        if f.default is not attrs.NOTHING:
            assert getattr(bare, f.name) == f.default, f.name
    again = GameState(**{f.name: getattr(state, f.name) for f in fields})
    assert [getattr(again, f.name) for f in fields] == [getattr(state, f.name) for f in fields]
    assert again == state and hash(again) == hash(state) and repr(again) == repr(state)
    assert attrs.evolve(state, turn=state.turn + 5).turn == state.turn + 5
    assert pickle.loads(pickle.dumps(state)) == state


def test_seat_fields_by_position_and_name() -> None:
    values = (HAND, (Meld(MeldKind.PENG, (3, 3, 3)),), (4,), frozenset({1}), frozenset({2}),
              ((5, 6),), frozenset({7}), True, True, 3, 4, True, 8, 9, (0,), 1, 2)
    names = [f.name for f in attrs.fields(SeatState)]
    seat = SeatState(*values)
    assert tuple(getattr(seat, n) for n in names) == values
    assert SeatState(**dict(zip(names, values, strict=True))) == seat
    assert hash(SeatState(*values)) == hash(seat) and seat != BARE[SeatState]
    assert repr(seat).startswith("SeatState(hand=(0, 1, 2,") and "wei_runs=2)" in repr(seat)
    changed = attrs.evolve(seat, wei_run=7, dead=False)
    assert (changed.wei_run, changed.dead, changed.wei_runs, changed.melds) == \
        (7, False, 2, seat.melds)
    assert pickle.loads(pickle.dumps(seat)) == seat


@pytest.mark.parametrize("value", [*BARE.values(), Event(EventKind.PENG, 1, 3, (), "forced")],
                         ids=repr)
def test_values_stay_frozen_and_pickle(value: Any) -> None:
    name = attrs.fields(type(value))[0].name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(value, name, None)
    assert pickle.loads(pickle.dumps(value)) == value
    assert attrs.evolve(value) == value and hash(attrs.evolve(value)) == hash(value)


def test_action_converts_and_refuses_as_before() -> None:
    meld = Meld(MeldKind.SHUN, (5, 6, 7), claimed=5)
    assert Action("chi", 0, "x6", [meld]) == Action(ActionKind.CHI, 0, 5, (meld,))
    assert Action(ActionKind.DISCARD, 2, 20).card == 20
    with pytest.raises(IllegalActionError, match="unknown action kind 'bogus'; known: discard"):
        Action("bogus", 0)
    for card in (True, 21, -1, 5.0, "x11"):
        with pytest.raises(CardError) as info:
            Action(ActionKind.DISCARD, 0, card)
        assert info.value.code == "unknown_card"
