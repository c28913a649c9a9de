"""What a chosen winning hand scores under a variant (``zipai analyze --score``), so that an
author can check a 名堂 against a hand without playing games.

:func:`score_hand` judges the hand with the engine's win decision
(:func:`~zipai_rules.analysis.analyze`), takes the win as the engine does on that occasion
(:func:`~zipai_rules.engine.claims.win_result`: the split paid most, a special win's label)
and settles it with :func:`~zipai_rules.settlement.settle`, whose valuation is
:meth:`~zipai_rules.variant.Scoring.value`: the 名堂 that apply, the multipliers and the
units are those of a game's settlement, not computed again here.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .analysis import Analysis, HandCards, TableMelds, analyze
from .cards import KING, parse_card
from .engine.claims import win_result
from .engine.state import Result, WinContext
from .errors import ZipaiError
from .settlement import Settlement, settle, xing_cards
from .variant import Variant, VariantLike, as_variant
from .vocab import Label, ResultKind, Source

#: the result labels a caller may give a win (自摸 comes of ``source: self``, a special
#: win's name of its shape); 海底 is ``haidi=True``
GIVEN_LABELS = (Label.TIANHU, Label.DIHU, Label.JUSHOU)


@attrs.frozen(slots=True)
class ScoredHand:
    """A winning hand and what it scores: the ``analysis`` of the hand, the engine's
    ``result`` of the win (its ``decomposition`` the split taken, its ``labels``) and its
    ``settlement`` (the ``lines`` name every 名堂, multiplier and unit; ``units`` what each
    loser owes before the discarder's share; ``payments`` per seat, the winner seat 0)."""

    analysis: Analysis
    result: Result
    settlement: Settlement

    def to_json(self) -> dict[str, object]:
        """``{analysis, result, settlement}`` as their own ``to_json``."""
        return {"analysis": self.analysis.to_json(), "result": self.result.to_json(),
                "settlement": self.settlement.to_json()}


def _impossible(v: Variant, given: tuple[str, ...], source: str | None, dealer: bool,
                dealt: bool, haidi: bool) -> str:
    """Why the labels asked of a win cannot happen in the variant (empty when they can): a
    天胡 is the dealer's dealt hand; 地胡 and 举手胡 a non-dealer's, where the variant has
    them (``win.dihu``, ``win.jushou``); 海底 a win on a card drawn from the wall."""
    if "tianhu" in given and not (dealer and (dealt or source in (None, "self"))):
        return "a 天胡 is the dealer's win on its dealt hand (give --dealer with --dealt, " \
               "or a card from self)"
    if "dihu" in given and (dealer or v.win.dihu == "none"):
        return ("a 地胡 is a non-dealer's win" if dealer
                else f"{v.name} has no 地胡 (win.dihu: none)")
    if "jushou" in given and (dealer or not v.win.jushou):
        return ("a 举手胡 is a non-dealer's win" if dealer
                else f"{v.name} has no 举手胡 (win.jushou)")
    if haidi and source not in ("self", "draw"):
        return "海底 is a win on the last card drawn from the wall (source self or draw)"
    return ""


def score_hand(variant: VariantLike, hand: HandCards, table: TableMelds = (),
               card: int | str | None = None, source: str | None = None, *,
               labels: Iterable[str] = (), haidi: bool = False, flipped: int | str | None = None,
               dealer: bool = False, dealt: bool = False) -> ScoredHand:
    """The score of seat 0 winning with ``hand`` (concealed cards), ``table`` (its exposed
    melds) and the incoming ``card`` from ``source`` (``self``: 自摸; ``draw``; ``discard``:
    seat 1 discarded it), as :func:`~zipai_rules.analysis.analyze` takes them.

    ``labels``: what else the win counts as (:data:`GIVEN_LABELS`: ``tianhu``, ``dihu``,
    ``jushou``; ``dealt`` gives ``tianhu`` and judges the dealt hand); ``haidi``: won on the
    last wall card (海底: no card is turned for 醒); ``flipped``: the wall card turned for 醒
    (default: one none of whose 上醒/下醒 the hand holds, where the variant has 醒; else the
    first card). ``dealer``: the winner deals.

    Raises :class:`~zipai_rules.errors.ZipaiError` (``no_win``) for a hand that does not
    win (the analysis's reason), ``bad_argument`` for a label not in :data:`GIVEN_LABELS`
    or ``flipped`` with ``haidi``; what :func:`~zipai_rules.analysis.analyze` raises for the
    cards."""
    v = as_variant(variant)
    given = tuple(dict.fromkeys(str(x) for x in labels))
    bad = [x for x in given if x not in GIVEN_LABELS]
    if bad:
        raise ZipaiError(f"score_hand: label {bad[0]!r} is not one a caller gives; give "
                         f"{', '.join(GIVEN_LABELS)} (自摸 is source self, 海底 haidi)",
                         code="bad_argument")
    if haidi and flipped is not None:
        raise ZipaiError("score_hand: a win on the last wall card (haidi) turns no card for 醒",
                         code="bad_argument")
    impossible = _impossible(v, given, source, dealer, dealt, haidi)
    if impossible:
        raise ZipaiError(f"score_hand: {impossible}", code="bad_argument")
    analysis = analyze(v, hand, table, card, source, dealer=dealer, dealt=dealt)
    if not analysis.win:
        raise ZipaiError(f"not a win under {v.name}: {analysis.reason} (best "
                         f"{analysis.huxi} {v.term('huxi')})", code="no_win")
    c = None if card is None else parse_card(card).index if isinstance(card, str) else card
    turned = None if haidi else (_quiet_card(v, analysis) if flipped is None
                                 else parse_card(flipped).index if isinstance(flipped, str)
                                 else flipped)
    if turned == KING and not v.deck.kings:
        raise ZipaiError(f"score_hand: flipped: {v.name} has no 王 to turn", code="bad_argument")
    src = None if source is None else Source(source)
    tags: tuple[Label, ...] = (Label.ZIMO,) if src == Source.SELF else ()
    if dealt and Label.TIANHU not in given:
        given += (Label.TIANHU,)
    tags += tuple(Label(x) for x in given)
    ctx = WinContext(dealer=0 if dealer else 1, wall=0 if haidi else 1, flipped=turned, turn=0)
    kind = ResultKind.TIANHU if dealt else ResultKind.HU
    result = win_result(v, analysis, 0, c, src, tags, ctx, kind,
                        discarder=1 if src == Source.DISCARD else None)
    return ScoredHand(analysis, result, settle(v, result))


def _quiet_card(v: Variant, analysis: Analysis) -> int:
    """A wall card to turn that gives this hand no 醒 (the first card when the variant has no
    醒, or when every card gives some)."""
    if not v.scoring.xing.per_card or analysis.best is None:
        return 0
    held = {c for g in analysis.best.groups for c in g.meld.cards} | set(analysis.best.leftover)
    for c in range(KING):
        pair = xing_cards(c)
        if pair is not None and not set(pair) & held:
            return c
    return 0
