"""The referee's own decomposer: an exhaustive search of a concealed hand into 方门子.

Every card of the hand goes into a three-card group (a run of one case, 一二三, 二七十, a 绞 of
two of one case and one of the other, three alike) or the one pair (将) a hand may hold only
beside a 提/跑 (003 "当有跑牌或提牌后，必须有且只能有一对牌做为一方门子"; 000 §跑胡子玩牌规则
"吊子只能一对"). A 坎 dealt in the hand stays whole (000 §永州双王扯胡子规则 "一坎牌不能拆散与其他牌
组合") unless the caller says it may split (郴州: docs/regional-sources.md 3.3, the drawn card
"may be used in any group here"). A 王 stands for any card (000 §永州双王扯胡子规则 "可以代替任何牌
进行游戏"), the group scoring as the group it completes (digest G14). The search is a plain
recursion on the lowest card left, memoised on the counts; it shares nothing with the engine's
block tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import INDEX, TOKENS

# every three-card pattern as (sorted index tuple, kind)
_PATTERNS: list[tuple[tuple[int, int, int], str]] = []
for _case in (0, 10):
    for _a in range(8):
        _PATTERNS.append(((_case + _a, _case + _a + 1, _case + _a + 2),
                          "yi_er_san" if _a == 0 else "shun"))
    _PATTERNS.append(((_case + 1, _case + 6, _case + 9), "er_qi_shi"))
for _r in range(10):
    _PATTERNS.append(((_r, _r, _r + 10), "jiao"))
    _PATTERNS.append(((_r, _r + 10, _r + 10), "jiao"))
    _PATTERNS.append(((_r, _r, _r), "kan"))
    _PATTERNS.append(((_r + 10, _r + 10, _r + 10), "kan"))
BY_CARD: dict[int, list[tuple[tuple[int, int, int], str]]] = {
    c: [p for p in _PATTERNS if c in p[0]] for c in range(20)}

NONE = -1


class Decomposer:
    """Best 胡息 of concealed cards under one 胡息 table (``{kind: [small, big]}``)."""

    def __init__(self, huxi: Mapping[str, Sequence[int]], king_pair: bool = True) -> None:
        self.king_pair = king_pair
        self.huxi = {k: (int(v[0]), int(v[1])) for k, v in huxi.items()
                     if k != "extra" and isinstance(v, (list, tuple))}
        # huxi.extra (河池: a 跑 of 二/七/十 is worth 3 more): (kinds, ranks, cards, add)
        self.extra = [(frozenset(e["kind"]), frozenset(e.get("ranks", range(1, 11))),
                       e.get("cards"), int(e["add"])) for e in huxi.get("extra", ())]
        self.memo: dict[tuple[object, ...], int] = {}

    def value(self, kind: str, card: int) -> int:
        """胡息 of a meld of ``kind`` made of ``card`` (0..9 small, 10..19 big): the table's
        [small, big] value, plus every ``huxi.extra`` entry for that kind and rank."""
        big = card >= 10
        extra = sum(add for kinds, ranks, cards, add in self.extra
                    if kind in kinds and card % 10 + 1 in ranks
                    and (cards is None or (cards == "big") == big))
        return self.huxi[kind][1 if big else 0] + extra

    def best(self, counts: Sequence[int], kings: int, jiang_ok: bool,
             triple_kind: tuple[int, str] | None = None) -> int:
        """The highest 胡息 of a full split of ``counts`` (20 natural counts) and ``kings`` 王,
        or -1 when there is none. ``jiang_ok``: a pair may be used (once). ``triple_kind``:
        ``(card, kind)``, the kind three alike of that card score as (the won card completing
        a pair: 碰 or 坎 value by the variant); other three alike score as 坎."""
        if len(self.memo) > 400_000:
            self.memo.clear()
        return self._best(tuple(counts), kings, jiang_ok, triple_kind)

    def _best(self, counts: tuple[int, ...], kings: int, jiang_ok: bool,
              tk: tuple[int, str] | None) -> int:
        key = (counts, kings, jiang_ok, tk)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        c = next((i for i, n in enumerate(counts) if n), None)
        out = NONE
        if c is None:
            if kings == 0:
                out = 0
            elif kings == 2 and jiang_ok:
                out = self.value("jiang", 19)
            elif kings == 3:
                out = max(self.value(k, 19) for k in ("kan", "yi_er_san", "er_qi_shi"))
            elif kings == 5 and jiang_ok:
                out = max(self.value(k, 19) for k in ("kan", "yi_er_san", "er_qi_shi")) \
                    + self.value("jiang", 19)
            self.memo[key] = out
            return out
        for cards, kind in BY_CARD[c]:
            need: dict[int, int] = {}
            for x in cards:
                need[x] = need.get(x, 0) + 1
            short = sum(max(0, n - counts[x]) for x, n in need.items())
            if short > kings:
                continue
            rest = list(counts)
            for x, n in need.items():
                rest[x] -= min(n, counts[x])
            sub = self._best(tuple(rest), kings - short, jiang_ok, tk)
            if sub == NONE:
                continue
            k = kind
            if kind == "kan":
                k = tk[1] if (tk is not None and tk[0] == c and short == 0) else "kan"
            out = max(out, sub + self.value(k, c))
        if jiang_ok:
            for short in ((0, 1) if self.king_pair else (0,)):
                if counts[c] >= 2 - short and kings >= short:
                    rest = list(counts)
                    rest[c] -= 2 - short
                    sub = self._best(tuple(rest), kings - short, False, tk)
                    if sub != NONE:
                        out = max(out, sub + self.value("jiang", c))
        self.memo[key] = out
        return out


def counts_of(cards: Sequence[str]) -> tuple[list[int], int]:
    """20 natural counts and the number of 王 of a list of tokens."""
    counts = [0] * 20
    kings = 0
    for t in cards:
        if t == "K":
            kings += 1
        else:
            counts[INDEX[t]] += 1
    return counts, kings


__all__ = ["BY_CARD", "Decomposer", "TOKENS", "counts_of"]
