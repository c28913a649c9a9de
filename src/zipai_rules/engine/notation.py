"""The wire notation of actions: one line of text per decision, written by
:meth:`Action.to_text <zipai_rules.engine.actions.Action.to_text>` and read by
:func:`parse_action`, the one reader (the terminal game types through it too).

The text holds no seat: whoever carries it binds it. After NFKC normalisation (full-width
``：`` is ``:``, ``ｃｈｉ`` is ``chi``) and case folding::

    text  := WORD [CARD] [":" PLAN]
    PLAN  := GROUP ("/" GROUP)*        a 吃 only: its 吃 meld, then each 比 meld
    GROUP := three cards, or the two from the hand (the card taken is added)

``WORD`` names the kind: its canonical id (``discard chi peng pao hu pass``), the variant's
word from its ``terminology`` (``开舵`` for 桂林's 跑), the common Chinese word
(:data:`~zipai_rules.vocab.ZH_WORDS`: 打 吃 碰 跑 胡 过) or :data:`ALIASES` (出, 出牌, 打牌). A
Chinese word may run on into its card (``打五``). Cards are tokens or Chinese numerals as
:func:`~zipai_rules.cards.parse_indices` reads them; ``K(x5)`` or ``王(五)`` is a 王 standing
for x5 (:func:`~zipai_rules.melds.read_stand_ins`). docs/actions.md has every form.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache

import attrs

from ..cards import KING, format_cards, parse_indices
from ..errors import IllegalActionError, SeatError, ZipaiError, brief, type_phrase
from ..melds import Meld, chi_meld, read_stand_ins, stand_in_text
from ..variant import Variant
from ..vocab import ZH_WORDS, zh_word
from .actions import Action, ActionKind
from .game import Game
from .observation import check_seat
from .state import GameState

__all__ = ["ALIASES", "MAX_TEXT", "action_text", "parse_action", "seat_options"]

#: the longest action text read (characters, before normalisation)
MAX_TEXT = 200
#: the most candidates an ``ambiguous_action`` or ``no_such_action`` message lists
MAX_LISTED = 30
#: words players type for a kind beyond its id, the variant's word and :data:`ZH_WORDS`
ALIASES: Mapping[str, ActionKind] = {"出": ActionKind.DISCARD, "出牌": ActionKind.DISCARD,
                                     "打牌": ActionKind.DISCARD}

#: a card of a typed group: ``(card, None)`` as it is (a bare ``K`` is ``(20, None)``), or
#: ``(20, card)`` for a 王 standing for ``card``
Token = tuple[int, int | None]
Source = Game | GameState | Variant


# --- writing ---------------------------------------------------------------------------------

def action_text(action: Action, words: Variant | Mapping[str, str] | None = None) -> str:
    """:meth:`Action.to_text`: ``KIND [CARD][: MELD / MELD …]`` in ASCII, or with ``words``
    (a variant or its terminology) in the variant's words and Chinese cards."""
    if words is None:
        kind, zh = action.kind.value, False
    else:
        terms = words.terminology if isinstance(words, Variant) else words
        if not isinstance(terms, Mapping):
            raise _wrong_type("words", words, "a Variant or a terminology mapping")
        own = terms.get(action.kind.value)
        if own is not None and not isinstance(own, str):
            raise _wrong_type(f"words[{action.kind.value!r}]", own, "a string")
        kind, zh = zh_word(action.kind.value, own), True
    text = kind if action.card is None else f"{kind} {format_cards([action.card], zh=zh)}"
    if action.melds:
        text += ": " + " / ".join(stand_in_text(m.cards, m.kings, zh) for m in action.melds)
    return text


def _wrong_type(argument: str, value: object, wanted: str) -> ZipaiError:
    """``bad_argument`` naming the argument and the value's type (never its ``repr``, which
    a hostile value may make huge or refuse)."""
    return ZipaiError(f"{argument}: {type_phrase(value)} is not {wanted}",
                      code="bad_argument")


# --- reading ---------------------------------------------------------------------------------

@attrs.frozen(slots=True)
class _Read:
    """What a text says: the ``kind``, the ``card`` named (``None``: not named), the typed
    ``groups`` of a 吃, whether the kind word was ``ascii`` (answers are then in ASCII), and
    the text as messages ``quote`` it."""

    kind: ActionKind
    card: int | None
    groups: tuple[tuple[Token, ...], ...]
    ascii: bool
    quote: str


def _bad(quote: str, why: str) -> ZipaiError:
    return ZipaiError(f"action text {quote}: {why}", code="bad_action_text")


def _normal(text: str) -> str:
    """NFKC, case-folded, white space collapsed to single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@lru_cache(maxsize=64)
def _words(terms: tuple[tuple[str, str], ...]) -> tuple[tuple[str, ActionKind], ...]:
    """The kind words of a variant whose action terms are ``terms``, longest first: its own
    words, then the ids, the common Chinese words and the aliases (an earlier word wins)."""
    found: dict[str, ActionKind] = {}
    own = dict(terms)
    for kind in ActionKind:
        if kind.value in own:
            found.setdefault(_normal(own[kind.value]), kind)
    for kind in ActionKind:
        found.setdefault(kind.value, kind)
    for kind in ActionKind:
        found.setdefault(_normal(ZH_WORDS[kind.value]), kind)
    for word, kind in ALIASES.items():
        found.setdefault(_normal(word), kind)
    return tuple(sorted(((w, k) for w, k in found.items() if w), key=lambda p: -len(p[0])))


def _action_terms(variant: Variant) -> tuple[tuple[str, str], ...]:
    return tuple((k.value, variant.terminology[k.value]) for k in ActionKind
                 if isinstance(variant.terminology.get(k.value), str))


def _kind_word(variant: Variant, text: str) -> tuple[str, ActionKind] | None:
    """The kind word ``text`` starts with, the longest first. An ASCII word ends at the end,
    a space or ``:``; a Chinese one may run on into its card (``打五``)."""
    for word, kind in _words(_action_terms(variant)):
        if not text.startswith(word):
            continue
        after = text[len(word):len(word) + 1]
        if not after or after in " :" or not word[-1].isascii() or not after.isascii():
            return word, kind
    return None


def _read(variant: Variant, text: object) -> _Read:
    """The syntax of an action ``text``; raises ``bad_action_text``."""
    if not isinstance(text, str):
        raise ZipaiError(f"text: {type_phrase(text)} is not an action text (a string)",
                         code="bad_action_text")
    quote = brief(repr(text), 60)
    if len(text) > MAX_TEXT:
        raise _bad(quote, f"{len(text)} characters, over the {MAX_TEXT} an action text may "
                          "hold")
    bad = next((ch for ch in text if not ch.isprintable() and not ch.isspace()), None)
    if bad is not None:
        raise _bad(quote, f"it holds the unprintable character U+{ord(bad):04X}")
    norm = _normal(text)
    if not norm:
        raise _bad(quote, "it is empty")
    found = _kind_word(variant, norm)
    if found is None:
        known = ", ".join(f"{k.value}/{zh_word(k.value, variant.terminology.get(k.value))}"
                          for k in ActionKind)
        raise _bad(quote, f"unknown action {norm.split(' ')[0][:24]!r}; known: {known}")
    word, kind = found
    rest = norm[len(word):].strip()
    try:
        if kind != ActionKind.CHI:
            return _Read(kind, _one_card(quote, kind, rest), (), word.isascii(), quote)
        card, groups = _chi_text(quote, rest)
    except ZipaiError as exc:  # a card or a 王 written wrong
        if exc.code == "bad_action_text":
            raise
        raise _bad(quote, str(exc)) from None
    return _Read(kind, card, groups, word.isascii(), quote)


def _one_card(quote: str, kind: ActionKind, rest: str) -> int | None:
    if ":" in rest or "/" in rest:
        raise _bad(quote, f"only a 吃 has a plan after ':'; {kind.value} names one card")
    cards = parse_indices(rest)
    if kind == ActionKind.PASS and cards:
        raise _bad(quote, "pass names no card")
    if len(cards) > 1:
        raise _bad(quote, f"{kind.value} names one card at most, not {len(cards)}")
    return cards[0] if cards else None


def _chi_text(quote: str, rest: str) -> tuple[int | None, tuple[tuple[Token, ...], ...]]:
    """The card and the groups of a 吃's text: ``[CARD:] GROUP / GROUP …``; without ``/`` six
    or nine cards are the groups three by three (``chi x2 x2 d2 d2 d7 d10``), one card alone
    is the card taken."""
    card: int | None = None
    head, colon, plan = rest.partition(":")
    if colon:
        if ":" in plan:
            raise _bad(quote, "one ':' at most, after the card taken")
        named = parse_indices(head)
        if len(named) > 1:
            raise _bad(quote, "name the one card taken before ':', e.g. 'chi x4: x4 x5 x6'")
        card = named[0] if named else None
    else:
        plan = head
    texts = plan.split("/") if plan.strip() else []
    if any(not t.strip() for t in texts):
        raise _bad(quote, "an empty meld between '/'")
    groups = [tuple(read_stand_ins(t)) for t in texts]
    if len(groups) == 1 and "/" not in plan:
        only = groups[0]
        if not colon and len(only) == 1 and only[0][1] is None:
            return only[0][0], ()
        if len(only) in (6, 9):
            groups = [only[k:k + 3] for k in range(0, len(only), 3)]
    if groups and len(groups[0]) not in (2, 3) or any(len(g) != 3 for g in groups[1:]):
        raise _bad(quote, "a 吃 meld is three cards (or the two from the hand), each 比 meld "
                          "three, the melds apart by '/': 'chi x4: x4 x5 x6 / x4 x4 d4'")
    return card, tuple(groups)


# --- resolving -------------------------------------------------------------------------------

def seat_options(source: Game | GameState, seat: int) -> tuple[Action, ...]:
    """The legal actions of ``seat`` now (:meth:`GameState.options_for`: its options in an
    open claim window, else the options of the seat to act). The one place
    :func:`parse_action` reads them."""
    state = source.state if isinstance(source, Game) else source
    return state.options_for(seat)


def parse_action(source: Source, text: str, seat: int | None = None) -> Action:
    """The :class:`Action` an action ``text`` names (the notation of :meth:`Action.to_text`,
    ASCII or the variant's words; docs/actions.md).

    ``source``: a :class:`Game` or :class:`GameState`, or a :class:`Variant` alone.

    * With a game, ``text`` is read against the legal actions of ``seat`` (default: the seat
      to act; :func:`seat_options`), and a short form is taken when it names one of them
      only: ``chi`` when one plan is open, ``chi x5 x6`` or ``chi x4 x5 x6`` naming the 吃
      meld when its 比 is forced, ``peng`` or ``hu`` without the card on offer, ``打 五``,
      ``过``; the 比 melds in any order. A text naming a whole action that is not legal (a
      card the seat does not hold, a 吃 whose plan does not fit) is returned as it is, a
      missing card being the one on offer, for :meth:`Game.check` to say why: the rules are
      judged there, not here.
    * With a variant alone, the whole text is needed (the card of ``discard``, ``peng``,
      ``pao`` and ``chi``, a 吃's whole plan, each 王 with the card it stands for), and
      ``seat``.

    Every input is untrusted: at most :data:`MAX_TEXT` characters, no control characters.
    Raises :class:`~zipai_rules.errors.ZipaiError` with code ``bad_action_text`` for a text
    that is no action text (unknown word, bad card, wrong shape, a short form without a
    game), ``ambiguous_action`` for one naming several legal actions and ``no_such_action``
    for a short form naming none (both list the candidates in the text's notation);
    :class:`~zipai_rules.errors.SeatError` for a bad ``seat`` (or none without a game),
    :class:`~zipai_rules.errors.IllegalActionError` (``hand_over``) when no seat is to act,
    ``bad_argument`` for a ``source`` of another type. Never anything else."""
    if isinstance(source, Game):
        variant, state = source.variant, source.state
    elif isinstance(source, GameState):
        variant, state = source.variant, source
    elif isinstance(source, Variant):
        variant, state = source, None
    else:
        raise _wrong_type("source", source, "a Game, a GameState or a Variant")
    read = _read(variant, text)
    if state is None:
        if seat is None:
            raise SeatError("an action text read against a variant alone needs its seat")
        whole = _whole(read, check_seat(variant, seat), None, strict=True)
        assert whole is not None
        return whole
    if seat is None:
        if state.actor is None:
            raise IllegalActionError("the hand is over: no seat is to act", code="hand_over")
        seat = state.actor
    else:
        seat = check_seat(variant, seat)
    assert not isinstance(source, Variant)
    options = seat_options(source, seat)
    offered = None if state.pending is None else state.pending.card
    problem: ZipaiError | None = None
    try:
        whole = _whole(read, seat, offered, strict=False)
    except ZipaiError as exc:
        whole, problem = None, exc
    if whole is not None and whole in options:
        return whole
    fits = [a for a in options if _fits(read, a)]
    if len(fits) == 1:
        return fits[0]
    words = None if read.ascii else variant
    if fits:
        raise ZipaiError(f"action text {read.quote} names {len(fits)} legal actions of seat "
                         f"{seat}: {_listing(fits, words)}", code="ambiguous_action")
    if whole is not None:
        return whole
    if problem is not None:
        raise problem
    legal = f"its legal actions: {_listing(options, words)}" if options else \
        "it has no legal action now"
    raise ZipaiError(f"action text {read.quote} names no legal action of seat {seat}; "
                     f"{legal}", code="no_such_action")


def _listing(actions: Sequence[Action], words: Variant | None) -> str:
    shown = "; ".join(a.to_text(words) for a in actions[:MAX_LISTED])
    more = len(actions) - MAX_LISTED
    return shown + (f"; and {more} more" if more > 0 else "")


def _whole(read: _Read, seat: int, offered: int | None, *, strict: bool) -> Action | None:
    """The whole action the text names by ``seat``, the card on offer (``offered``) standing
    for a card not named; ``None`` where it leaves some of it open, or (``strict``) the
    ``bad_action_text`` error saying what is missing."""
    kind, quote = read.kind, read.quote
    if kind == ActionKind.PASS:
        return Action(kind, seat)
    card = read.card
    if card is None and not strict and kind != ActionKind.DISCARD:
        card = offered
    if kind != ActionKind.CHI:
        if card is None and kind != ActionKind.HU and (strict or kind == ActionKind.DISCARD):
            if strict:
                raise _bad(quote, f"without a game, {kind.value} names its card, e.g. "
                                  f"'{kind.value} x4'")
            return None
        return Action(kind, seat, card)
    if not read.groups or card is None:
        if strict:
            raise _bad(quote, "without a game, a 吃 names the card taken and its whole plan: "
                              "'chi x4: x4 x5 x6 / x4 x4 d4'")
        return None
    melds = _plan(quote, read.groups, card)
    if melds is None:
        if strict:
            raise _bad(quote, "without a game, write each 王 with the card it stands for: "
                              "K(x5)")
        return None
    return Action(kind, seat, card, melds)


def _plan(quote: str, groups: tuple[tuple[Token, ...], ...], card: int
          ) -> tuple[Meld, ...] | None:
    """The 吃 meld (taking ``card``) and the 比 melds of typed groups, the 比 in the engine's
    order (by cards, then the cards their 王 stand for); ``None`` where a bare ``K`` leaves
    the card it stands for open."""
    first = list(groups[0])
    if len(first) == 2:
        first.insert(0, (card, None))
    elif (card, None) not in first:
        raise _bad(quote, f"the 吃 meld {_tokens_text(first)} does not hold the card taken, "
                          f"{format_cards([card])}")
    chi = _meld(quote, first, card, False)
    bis = [_meld(quote, g, None, True) for g in groups[1:]]
    if chi is None or any(m is None for m in bis):
        return None
    return (chi, *sorted((m for m in bis if m is not None), key=lambda m: (m.cards, m.kings)))


def _meld(quote: str, tokens: Sequence[Token], claimed: int | None, bi: bool) -> Meld | None:
    if any(card == KING and named is None for card, named in tokens):
        return None
    cards = [card if named is None else named for card, named in tokens]
    kings = [named for _, named in tokens if named is not None]
    try:
        return chi_meld(cards, claimed=claimed, bi=bi, kings=kings)
    except ZipaiError as exc:
        raise _bad(quote, str(exc)) from None


def _tokens_text(tokens: Sequence[Token]) -> str:
    return " ".join(format_cards([c]) if n is None else f"K({format_cards([n])})"
                    for c, n in tokens)


def _fits(read: _Read, action: Action) -> bool:
    """Whether the (short) text names ``action``: the same kind, the card if named, and each
    typed group one meld of the plan (the first the 吃 meld, the 比 in any order)."""
    if action.kind != read.kind or (read.card is not None and action.card != read.card):
        return False
    if not read.groups:
        return True
    melds = action.melds
    first, rest = read.groups[0], read.groups[1:]
    if not melds or not _fits_meld(first, melds[0], action.card if len(first) == 2 else None):
        return False
    if not rest:
        return True
    if len(rest) != len(melds) - 1:
        return False
    return any(all(_fits_meld(g, m) for g, m in zip(rest, order, strict=True))
               for order in itertools.permutations(melds[1:]))


def _fits_meld(tokens: Sequence[Token], meld: Meld, taken: int | None = None) -> bool:
    """Whether typed cards are ``meld`` (without the card ``taken`` when given): its real
    cards, and its 王 each as ``K(card)`` or a bare ``K``."""
    real = Counter(meld.cards)
    real.subtract(meld.kings)
    if taken is not None:
        if real[taken] <= 0:
            return False
        real[taken] -= 1
    stands = Counter(meld.kings)
    typed_real = Counter(c for c, n in tokens if n is None and c != KING)
    typed_named = Counter(n for _, n in tokens if n is not None)
    bare = sum(1 for c, n in tokens if c == KING and n is None)
    return (+real == typed_real and all(stands[c] >= k for c, k in typed_named.items())
            and bare == stands.total() - typed_named.total())
