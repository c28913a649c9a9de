"""Cards and their notation.

The zipai deck has 80 cards: small 一..十 and big 壹..拾, four of each
(``000_cdb63c032605c9a1.txt §跑胡子玩牌规则`` "大写‘壹’到‘拾’,小写‘一’到‘十’各4张"). Red cards are
ranks 2, 7 and 10 (``§跑胡子游戏方法和比赛规则`` "二、七、十 … 为红色"). Some variants add 王 wild
cards (Yongzhou 双王, ``§永州双王扯胡子规则``).

Notation: ``x1``..``x10`` small, ``d1``..``d10`` big, ``K`` the wild 王. Input also accepts the
Chinese numerals 一..十, 壹..拾 and 王, with or without separators. Output is ASCII.

Hot-path type: a card *index* ``0..20`` (small rank r → ``r-1``, big rank r → ``9+r``, king → 20)
and a hand as a tuple of 21 counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from .arguments import int_arg, refuse
from .errors import CardError

SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹贰叁肆伍陆柒捌玖拾"
KING_ZH = "王"
KING = 20
N_KINDS = 21
RED_RANKS = frozenset({2, 7, 10})
ACCEPTED = ("x1..x10 (small 一..十), d1..d10 (big 壹..拾), K (王); "
            "or the Chinese numerals 一二三四五六七八九十, 壹贰叁肆伍陆柒捌玖拾, 王")


@attrs.frozen(slots=True, order=True)
class Card:
    """One card: ``rank`` 1..10 and ``big`` (大字), or the wild king (``rank`` 0).

    Raises :class:`CardError` for a rank outside 1..10 (other than the king).
    """

    rank: int
    big: bool = False

    def __attrs_post_init__(self) -> None:
        if isinstance(self.rank, bool) or not isinstance(self.rank, int):
            raise refuse("rank", self.rank, "an int (0 for the king, else 1..10)")
        if not isinstance(self.big, bool):
            raise refuse("big", self.big, "a bool")
        if self.rank == 0:
            if self.big:
                raise CardError("the king K has no big form")
        elif not 1 <= self.rank <= 10:
            raise CardError(f"card rank {self.rank!r} is outside 1..10")

    @classmethod
    def king(cls) -> Card:
        """The wild card 王 (``K``)."""
        return cls(0, False)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with hot-path index ``index`` (0..20); refused (``bad_argument``)
        otherwise."""
        return INDEX_CARDS[int_arg(index, "index", 0, N_KINDS - 1)]

    @property
    def is_king(self) -> bool:
        return self.rank == 0

    @property
    def index(self) -> int:
        """Hot-path index: small r → r-1, big r → 9+r, king → 20."""
        if self.rank == 0:
            return KING
        return self.rank - 1 + (10 if self.big else 0)

    @property
    def red(self) -> bool:
        """Ranks 2, 7 and 10 are red in both cases."""
        return self.rank in RED_RANKS

    def __str__(self) -> str:
        return token(self.index)

    def __repr__(self) -> str:
        """``Card(d8)``: the card in the game's notation."""
        return f"Card({token(self.index)})"

    @property
    def zh(self) -> str:
        """Chinese name: 一..十, 壹..拾 or 王."""
        return token_zh(self.index)


INDEX_CARDS: tuple[Card, ...] = tuple(
    [Card(r, False) for r in range(1, 11)] + [Card(r, True) for r in range(1, 11)] + [Card(0)]
)
_TOKENS = tuple([f"x{r}" for r in range(1, 11)] + [f"d{r}" for r in range(1, 11)] + ["K"])
_TOKENS_ZH = tuple(SMALL_ZH) + tuple(BIG_ZH) + (KING_ZH,)
_BY_TOKEN = {t.lower(): i for i, t in enumerate(_TOKENS)}
_BY_TOKEN.update({ch: i for i, ch in enumerate(_TOKENS_ZH)})
# An ASCII token may not run on into a digit: "x11" is one bad token, not x1 and a stray "1".
# Separators: spaces, ASCII or full-width commas, and 、.
_TOKEN_RE = re.compile(r"\s*(?:([xXdD](?:10|[1-9])(?![0-9]))|([kK](?![0-9]))"
                       r"|([一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾王]))\s*[,，、]?")



def deck_size(copies: int, kings: int) -> int:
    """Cards in a deck of ``copies`` of each of the 20 ordinary cards and ``kings`` 王."""
    return 20 * copies + kings

def token(index: int) -> str:
    """ASCII token of a card index: ``x1``..``x10``, ``d1``..``d10``, ``K``."""
    return _TOKENS[index]


def token_zh(index: int) -> str:
    """Chinese token of a card index."""
    return _TOKENS_ZH[index]


def rank_of(index: int) -> int:
    """Rank 1..10 of a card index (0 for the king)."""
    return 0 if index == KING else index % 10 + 1


def is_big(index: int) -> bool:
    return 10 <= index < 20


def parse_card(text: str) -> Card:
    """Read one card token (``x3``, ``d10``, ``K``, ``三``, ``拾``, ``王``).

    Raises :class:`CardError` naming the token and listing the accepted spellings, a
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a ``text`` that is no
    string.
    """
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardError(f"expected one card, got {len(cards)} in {text!r}")
    return cards[0]


def parse_indices(text: str) -> list[int]:
    """Read a card list into hot-path indices; see :func:`parse_cards`."""
    if not isinstance(text, str):
        raise refuse("text", text, "a string of card tokens")
    out: list[int] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None or m.end() == pos:
            # the bad token runs to the next space or comma (a stray comma is its own token)
            bad = re.match(r"[,，、]|[^\s,，、]+?(?=[\s,，、]|[xXdDkK](?:10|[1-9])|$)|[^\s,，、]+",
                           text[pos:].lstrip())
            tok = bad.group(0) if bad else text[pos:]
            raise CardError(f"unknown card token {tok!r} in {text!r}; accepted: {ACCEPTED}",
                            code="unknown_card")
        out.append(_BY_TOKEN[next(g for g in m.groups() if g).lower()])
        pos = m.end()
    return out


def parse_cards(text: str) -> list[Card]:
    """Read a list of cards: ``"x1 x2 x3"``, ``"一二三"``, ``"d4,d4,d4"``, ``"x1x2x3"``.

    Tokens may be separated by spaces or commas, or written together. Raises
    :class:`CardError` (code ``unknown_card``) naming the first token it cannot read.
    """
    return [INDEX_CARDS[i] for i in parse_indices(text)]


def format_cards(cards: Iterable[Card | int], *, zh: bool = False) -> str:
    """Space-separated tokens (ASCII, or Chinese with ``zh=True``) of :class:`Card` values or
    indices 0..20. Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a
    ``cards`` that is not a list of them, naming the first item that is not."""
    names = _TOKENS_ZH if zh else _TOKENS
    if isinstance(cards, (str, bytes, dict)) or not isinstance(cards, Iterable):
        raise refuse("cards", cards, "a list of Card values or card indices 0..20")
    out = []
    for k, c in enumerate(cards):
        if isinstance(c, Card):
            out.append(names[c.index])
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < N_KINDS:
            out.append(names[c])
        else:
            raise refuse(f"cards[{k}]", c, "a Card or a card index 0..20")
    return (" " if not zh else "").join(out)


def card_index(card: Card | int | str) -> int:
    """The index of a card given as a :class:`Card`, an index 0..20 or a token (``"x3"``,
    ``"三"``). Raises :class:`CardError` for anything else."""
    if isinstance(card, Card):
        return card.index
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < N_KINDS:
        return card
    if isinstance(card, str):
        return parse_card(card).index
    raise CardError(f"{card!r} is not a card: give a Card, an index 0..20 or a token ({ACCEPTED})",
                    code="unknown_card")


def cards_arg(cards: Iterable[Card | int | str] | str, argument: str = "cards") -> list[int]:
    """Card indices of a card list given as one string of tokens (``"x1 x2 x3"``, read by
    :func:`parse_indices`) or as items :func:`card_index` reads (indices, :class:`Card`
    values, tokens). Raises :class:`CardError` (``unknown_card``) naming ``argument`` and the
    position of the first item that is not a card, or a value that is not a list."""
    if isinstance(cards, str):
        return parse_indices(cards)
    if isinstance(cards, (bytes, dict)) or not isinstance(cards, Iterable):
        raise CardError(f"{argument}: {cards!r:.60} (type {type(cards).__name__}) is not a list of "
                        "cards nor a string of card tokens", code="unknown_card")
    out = []
    for k, card in enumerate(cards):
        try:
            out.append(card_index(card))
        except CardError as exc:
            raise CardError(f"{argument}[{k}]: {exc}", code=exc.code) from None
    return out


def counts_of(indices: Iterable[int]) -> tuple[int, ...]:
    """The 21-count vector of a list of card indices."""
    counts = [0] * N_KINDS
    for i in indices:
        counts[i] += 1
    return tuple(counts)


def indices_of(counts: Iterable[int]) -> list[int]:
    """Card indices of a count vector, in index order."""
    out: list[int] = []
    for i, n in enumerate(counts):
        out.extend([i] * n)
    return out


def check_copies(indices: Iterable[int], copies: int = 4, kings: int = 0) -> None:
    """Raise :class:`CardError` (code ``too_many_copies``) if a card appears more often than
    the deck holds (``copies`` of each ordinary card, ``kings`` wild cards)."""
    counts = counts_of(indices)
    for i, n in enumerate(counts):
        limit = kings if i == KING else copies
        if n and i == KING and not kings:
            raise CardError("this variant has no 王 (K) card", code="too_many_copies")
        if n > limit:
            raise CardError(f"{n} copies of {token(i)} ({token_zh(i)}), but the deck holds "
                            f"{limit}", code="too_many_copies")
