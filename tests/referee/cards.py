"""The referee's own card arithmetic on the record's ASCII tokens (x1..x10, d1..d10, K).

Index 0..9 are the small cards 一..十, 10..19 the big 壹..拾 (000 §字牌规则说明 "伍和五的牌点均为5";
only same-case cards form a run, 000 §桂林纸牌规则 "只有小字和小字,大字和大字才能构成顺子")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

KING = "K"
TOKENS = tuple([f"x{r}" for r in range(1, 11)] + [f"d{r}" for r in range(1, 11)])
INDEX = {t: i for i, t in enumerate(TOKENS)}


def big(card: str) -> bool:
    return card.startswith("d")


def rank(card: str) -> int:
    return int(card[1:])


def bag(cards: Iterable[str]) -> Counter[str]:
    return Counter(cards)


def split(text: str) -> list[str]:
    return text.split() if text else []


def three_shape(cards: list[str]) -> str | None:
    """The kind of a three-card group of natural cards, or None: ``kan`` (three alike), ``shun``
    (a same-case run), ``yi_er_san``, ``er_qi_shi`` (same case, 000 §永州双王扯胡子规则
    "必须是小字和小字，大字和大字才能搭配"), ``jiao`` (two of one case and one of the other, same
    rank: 000 §永州跑胡子牌型介绍 绞牌)."""
    if len(cards) != 3 or KING in cards:
        return None
    if len(set(cards)) == 1:
        return "kan"
    ranks = tuple(sorted(rank(c) for c in cards))
    if len({big(c) for c in cards}) == 2:
        return "jiao" if len(set(ranks)) == 1 else None
    named = {(1, 2, 3): "yi_er_san", (2, 7, 10): "er_qi_shi"}
    if ranks in named:
        return named[ranks]
    return "shun" if len(set(ranks)) == 3 and ranks[2] - ranks[0] == 2 else None
