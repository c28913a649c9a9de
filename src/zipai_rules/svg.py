"""Pictures of the table: SVG drawings of a hand, a seat's view, a hand analysis, and the
settlement as an HTML table (docs/pictures.md).

Standard library only (``xml.etree`` builds the SVG, so every text and attribute is escaped).

* :func:`render` draws a table: every seat's concealed hand grouped as a player holds it (坎
  together, then runs, 绞 and pairs), the table melds with their 胡息, the discard areas, the
  wall count, the card on offer and whose turn it is; a seat's view with the viewer at the
  bottom and the others above it as they sit around the table (上家 left, 下家 right). Given a
  :class:`~zipai_rules.engine.Game` or :class:`~zipai_rules.engine.state.GameState` every card
  is drawn open; given an :class:`~zipai_rules.engine.observation.Observation` (or ``seat=N``,
  which draws ``observe(state, N)``) only what that seat's view holds: the seat view is made by
  the engine's own :func:`~zipai_rules.engine.observation.observe`, never re-derived here. A
  :class:`~zipai_rules.engine.observation.TableView` (a spectator) draws likewise.
* :func:`render_analysis` draws an :class:`~zipai_rules.analysis.Analysis`: the best
  decomposition group by group with 胡息.
* :func:`settlement_html` writes a :class:`~zipai_rules.settlement.Settlement` as an HTML table.

Every card is an SVG group ``<g class="card" data-card="x3">`` (a face-down card
``data-card="hidden"``), inside a group naming where it lies: ``hand``, ``meld`` (with
``data-kind`` and ``data-huxi`` when the viewer can know it), ``discards`` or ``pending``, each
with its ``data-seat``; so a program (or a test) reads the cards back from the picture.
"""

from __future__ import annotations

import os

import attrs

from .analysis import Analysis, Decomposition
from .arguments import refuse
from .cards import KING
from .drawing import (
    CARD_H,
    CARD_W,
    GAP,
    KIND_ZH,
    SMALL_H,
    SMALL_W,
    STACK,
    SVG_NS,
    AnalysisGroup,
    TablePicture,
    draw_analysis,
    draw_table,
    group_hand,
    text_width,
    xml_text,
)
from .engine.game import Game
from .engine.observation import Observation, TableView, observe
from .engine.state import GameState
from .errors import ZipaiError
from .hints import hints
from .presets import load_preset, preset_ids
from .settlement import Settlement
from .variant import Variant, VariantLike, as_variant

#: the pictures, and the sizes, words and helpers of the drawing (:mod:`zipai_rules.drawing`)
__all__ = ["CARD_H", "CARD_W", "GAP", "KIND_ZH", "SMALL_H", "SMALL_W", "STACK", "SVG_NS",
           "group_hand", "open_picture", "render", "render_analysis", "settlement_html",
           "text_width", "view_picture", "view_preset", "xml_text"]

def _flag(ascii: object) -> bool:
    if not isinstance(ascii, bool):
        raise refuse("ascii", ascii, "a bool")
    return ascii


def _variant(variant: object, players: int | None = None, variant_id: str | None = None
             ) -> Variant | None:
    """``variant=`` as a :class:`Variant` (a preset id, name or alias, or a variant file's
    path, resolved by :func:`~zipai_rules.variant.as_variant`), or ``None``; refused
    (``bad_argument``) when it is neither, or when it does not fit what is drawn: another
    number of ``players``, another ``variant_id``."""
    if variant is None:
        return None
    if not isinstance(variant, Variant | str | os.PathLike):
        raise refuse("variant", variant, "a Variant, a variant's name or a variant file")
    v = as_variant(variant)
    if variant_id is not None and v.id != variant_id:
        raise ZipaiError(f"variant: {v.id} is not the variant of this game ({variant_id})",
                         code="bad_argument")
    if players is not None and v.players != players:
        raise ZipaiError(f"variant: {v.id} has {v.players} players, this table "
                         f"{players}", code="bad_argument")
    return v


def _view_variant(view: Observation | TableView, variant: object) -> Variant | None:
    """``variant=`` of a view: refused when it is not the variant the view was made in (the
    view's ``variant_id``, where it has one), when its number of players differs, when the
    view shows a 王 its deck lacks, or more cards than its deck."""
    v = _variant(variant, len(view.melds), view.variant_id)
    if v is None:
        return None
    face_up = [c for ms in view.melds for m in ms for c in m.cards]
    face_up += [c for d in view.discards for c in d]
    face_up += [] if view.pending is None else [view.pending[0]]
    own_king = isinstance(view, Observation) and view.hand[KING] > 0
    if (KING in face_up or own_king) and not v.deck.kings:
        raise ZipaiError(f"variant: {v.id} has no 王, this view shows one", code="bad_argument")
    # hidden_cards counts every concealed hand, the viewer's own too
    cards = len(face_up) + sum(view.hidden_cards) + view.wall + sum(
        m.hidden for ms in view.melds for m in ms)
    if cards > v.deck.size:
        raise ZipaiError(f"variant: {v.id} has {v.deck.size} cards, this view {cards}",
                         code="bad_argument")
    return v



def render(table: Game | GameState | Observation | TableView | Analysis | Decomposition, *,
           seat: int | None = None, ascii: bool = False, variant: VariantLike | None = None
           ) -> str:
    """The SVG text of a table.

    ``table``: a :class:`~zipai_rules.engine.Game` or a
    :class:`~zipai_rules.engine.state.GameState` (every card open, or with ``seat`` the view
    ``observe(state, seat)`` and, once the hand is won, the winner's split:
    :func:`with_split`), an :class:`~zipai_rules.engine.observation.Observation` (that
    seat's view), a :class:`~zipai_rules.engine.observation.TableView` (a spectator's), or an
    :class:`~zipai_rules.analysis.Analysis` or a win's
    :class:`~zipai_rules.analysis.Decomposition` (:func:`render_analysis`). ``ascii``
    writes cards as tokens (``x1``, ``d10``, ``K``) and meld kinds in pinyin instead of
    Chinese. ``variant`` (a :class:`~zipai_rules.variant.Variant` or its name) names the meld
    kinds and gives the 胡息 of a view's melds (a view carries only its variant's id, a game or
    state the variant; a ``variant`` given with one must be that variant). Raises
    :class:`~zipai_rules.errors.SeatError` for a bad ``seat``,
    :class:`~zipai_rules.errors.VariantError` for a ``variant`` name that names none, and
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for an argument of another
    type, a ``seat`` that does not apply, or a ``variant`` that does not fit (another id than
    the game's or the view's, another number of players than the view's)."""
    ascii = _flag(ascii)
    if isinstance(table, Analysis | Decomposition):
        if seat is not None:
            raise ZipaiError("an analysis has no seats to view", code="bad_argument")
        return render_analysis(table, ascii=ascii, variant=variant)
    if isinstance(table, Game):
        table = table.state
    if isinstance(table, GameState):
        _variant(variant, table.variant.players, table.variant.id)
        if seat is None:
            return draw_table(open_picture(table), ascii)
        return draw_table(with_split(view_picture(observe(table, seat), table.variant), table),
                          ascii)
    if isinstance(table, Observation | TableView):
        if seat is not None and seat != getattr(table, "seat", None):
            raise ZipaiError(f"seat {seat!r}: this view is not that seat's; render the game "
                             "or state with seat=", code="bad_argument")
        return draw_table(view_picture(table, _view_variant(table, variant)), ascii)
    raise refuse("table", table, "a Game, GameState, Observation, TableView, Analysis or "
                  "Decomposition")


def open_picture(state: GameState) -> TablePicture:
    """The all-open picture of ``state`` (:meth:`GameState.picture`) with each seat's hand
    胡息 (:func:`~zipai_rules.hints.hints` of the seat's own view) and, once the hand is won,
    the winner's hand laid out as its winning split (the result's decomposition)."""
    v, picture = state.variant, state.picture()
    seats = tuple(attrs.evolve(seat, hand_huxi=hints(v, observe(state, s)).hand_huxi)
                  for s, seat in enumerate(picture.seats))
    return with_split(attrs.evolve(picture, seats=seats), state)


def with_split(picture: TablePicture, state: GameState) -> TablePicture:
    """``picture`` with, once ``state``'s hand is won, the winner's hand laid out as its
    winning split (the groups of the result's decomposition): the hand a winner lays open to
    be paid, so a seat's picture of the won hand shows it too (as the table apps do; the
    record then reveals every card anyway)."""
    r = state.result
    split = () if r is None or r.decomposition is None else _groups(r.decomposition)
    return attrs.evolve(picture, split=split)


def view_picture(view: Observation | TableView, variant: Variant | None) -> TablePicture:
    """The picture of a seat's or a spectator's ``view`` (:meth:`Observation.picture`) in
    ``variant``, else in the preset the view names (its ``variant_id``; a view of a variant
    loaded from a file needs ``variant``), with the seat's own hand 胡息."""
    if variant is None:
        variant = view_preset(view)
    picture = view.picture(variant)
    if variant is None or not isinstance(view, Observation):
        return picture
    seats = list(picture.seats)
    seats[view.seat] = attrs.evolve(seats[view.seat],
                                    hand_huxi=hints(variant, view).hand_huxi)
    return attrs.evolve(picture, seats=tuple(seats))


def view_preset(view: Observation | TableView) -> Variant | None:
    """The preset a view names by its ``variant_id``, where it names one and fits the view
    (:func:`_view_variant`); ``None`` otherwise."""
    if view.variant_id is None or view.variant_id not in preset_ids():
        return None
    try:
        return _view_variant(view, load_preset(view.variant_id))
    except ZipaiError:
        return None


def _groups(decomposition: Decomposition) -> tuple[AnalysisGroup, ...]:
    """The groups of a win's split as :meth:`Analysis.picture` draws them."""
    return Analysis(True, None, decomposition.huxi, decomposition).picture().groups


def render_analysis(analysis: Analysis | Decomposition, *, ascii: bool = False,
                    variant: VariantLike | None = None) -> str:
    """The SVG of an analysis: the verdict and total 胡息, then the best decomposition group
    by group (kind, 胡息, ``table`` or ``hand``; a 王 labelled with the card it stands for),
    and any leftover cards. A :class:`~zipai_rules.analysis.Decomposition` (a win's
    ``Result.decomposition``) is drawn as a win. ``variant`` (a
    :class:`~zipai_rules.variant.Variant` or its name) only names the kinds in its own words.
    Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for an argument of
    another type."""
    ascii = _flag(ascii)
    v = _variant(variant)
    if not isinstance(analysis, Analysis | Decomposition):
        raise refuse("analysis", analysis, "an Analysis or a Decomposition (analyze(...), "
                      "a win's result.decomposition)")
    if isinstance(analysis, Decomposition):
        analysis = Analysis(True, None, analysis.huxi, analysis)
    return draw_analysis(analysis.picture(), ascii, v)


def settlement_html(settlement: Settlement) -> str:
    """The settlement as an HTML table: one row per explained line (item, the variant's term,
    the text, the value), the payments among them; every text escaped. Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for another type (a game is
    settled first: ``settle(game)``)."""
    if not isinstance(settlement, Settlement):
        raise refuse("settlement", settlement, "a Settlement (settle(game))")
    return settlement._repr_html_()
