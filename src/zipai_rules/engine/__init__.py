"""The turn state machine: actions, events, frozen state, claim resolution, the Game facade."""

from .actions import Action, ActionKind, Event, EventKind
from .game import Deal, Game, deck, replay, shuffled_deal
from .notation import parse_action
from .position import PositionError, position
from .refusals import Refusal
from .state import GameState, Pending, Result, SeatState

__all__ = ["Action", "ActionKind", "Deal", "Event", "EventKind", "Game", "GameState", "Pending",
           "PositionError", "Refusal", "Result", "SeatState", "deck", "parse_action", "position",
           "replay", "shuffled_deal"]
