"""The 王 oracle: a brute force over every identity of every 王, against the product's 王
analysis (:func:`zipai_rules.analysis.win_verdict`, its quick refusal and
:func:`~zipai_rules.analysis.surely_no_win`).

Written from the rules, sharing no code with the analysis (``analysis.py``, ``kings.py``,
``blocks.py``) nor with the reference decomposer (``zipai_rules.reference``); it reads only the
card notation and the variant's data (its 胡息 table, 将 rules, threshold, claim rules). The
rules it applies:

* a 王 stands for any card ("王霸可以代替任何牌进行游戏", 000_cdb63c032605c9a1.txt
  §永州双王扯胡子规则) but a fifth copy among the player's own cards (hand, card, table
  melds; docs/variants.md "What a 王 may do"); every such identity of every 王 is tried;
* three real concealed copies (held before the card, one's own draw counted as held) are a 坎
  and stay whole ("一坎牌不能拆散与其他牌组合", 000), but under ``win.split_kan`` (郴州: every
  split of all the cards is tried, Riversteel6/Aizipai ``hu_checker.py``
  ``_solve_grouping_counts``), where they are one meld scored as a 坎 or lie spread over
  others, and one's own draw kept onto a pair under ``claims.own_draw: kept`` (checked for
  the win before its 偎, [cz-Sim] ``_continue_play``): locked whole, or the three free; a
  triple of one kind holding a 王 is a
  meld scored as a 坎 (digest G14 "K + pair = 坎"), or, when it holds the won card (another's
  discard), the won triple (``huxi.won_triple``: 碰, or 坎 under ``kan``), the latter only
  where a 王 may 碰 (``deck.king_rules.claims``) or the won triple is a 坎 (郴州: the hand and
  the won card grouped freely, Riversteel6/Aizipai ``chenzhou_zipai_ai/engine/hu_checker.py``
  ``_solve_grouping_counts``);
* every other meld is a sequence, 一二三, 二七十 or 绞 of any cards, or a 将 of two equal
  cards, within the variant's 将 rules (``win.max_jiang``; with ``win.jiang_requires_quad``
  a 将 exactly when a 提/跑 lies on the table or is made);
* the incoming card lies where the rules let it (own draw: the forced 提/偎, onto a 偎 the 提
  or 跑, onto a 碰 the 跑, kept free under ``claims.own_draw: kept``; a discard: its 跑 where
  allowed, kept free under 破跑胡, onto a pair the won triple, or free);
* the best total 胡息 (table melds included) wins at ``win.min_huxi`` or more.

The hands are seeded random complete hands (melds, some 坎, table melds) with 1–4 王 put in
for cards, some of them spoiled by one card, judged as they stand, on one's own draw and (郴州)
on a discard. The ci profile compares a few hundred hands a preset; ``ZIPAI_DEV=1`` (or
``HYPOTHESIS_PROFILE=dev``) 10,000 or more.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter

import pytest

from zipai_rules import load_preset
from zipai_rules.analysis import surely_no_win, win_verdict
from zipai_rules.melds import Meld, MeldKind

DEV = os.environ.get("ZIPAI_DEV") == "1" or os.environ.get("HYPOTHESIS_PROFILE") == "dev"
#: hands per case (a preset and a source) and how many of them hold 3 and 4 王 (the others 1
#: or 2): at least 10,000 hands a preset in the dev profile
HANDS = {"yongzhou": 5_000 if DEV else 120, "chenzhou_wang": 3_400 if DEV else 80}
MANY_KINGS = {3: 100 if DEV else 3, 4: 40 if DEV else 2}

REAL, KING, WON = 0, 1, 2  # a concealed card's tag: real, a 王's identity, the won card


def _shape(cards: tuple[int, ...]) -> str | None:
    """The kind of three cards that are not all one kind: a run of one case (一二三 from rank
    1), 二七十 of one case, 绞 (one rank, both cases), or ``None``."""
    a, b, c = sorted(cards)
    if a == b == c:
        return None
    ra, rb, rc = a % 10 + 1, b % 10 + 1, c % 10 + 1
    if (a < 10) == (b < 10) == (c < 10):
        if rb == ra + 1 and rc == rb + 1:
            return "yi_er_san" if ra == 1 else "shun"
        if (ra, rb, rc) == (2, 7, 10):
            return "er_qi_shi"
        return None
    return "jiao" if ra == rb == rc else None


def _big(cards: tuple[int, ...]) -> bool:
    """Scored as big: more than half the cards big (a 绞: two of three)."""
    return 2 * sum(1 for c in cards if c >= 10) > len(cards)


#: the three-card melds that are no triple, by their lowest card
_RUNS: dict[int, list[tuple[tuple[int, ...], str]]] = {i: [] for i in range(20)}
for _cards in itertools.combinations_with_replacement(range(20), 3):
    _kind = _shape(_cards)
    if _kind:
        _RUNS[min(_cards)].append((_cards, _kind))

def _ways(state, kind: int, n: int):
    """Every way ``(real, 王, won)`` of taking ``n`` copies of ``kind`` from ``state``."""
    r, k, w = state[3 * kind:3 * kind + 3]
    for a in range(min(r, n) + 1):
        for b in range(min(k, n - a) + 1):
            if n - a - b <= w:
                yield a, b, n - a - b


def _minus(state, kind: int, a: int, b: int, c: int):
    i = 3 * kind
    return state[:i] + (state[i] - a, state[i + 1] - b, state[i + 2] - c) + state[i + 3:]


def _take(state, needs):
    """Every state left once the cards ``needs`` ((kind, copies), ...) are taken, copies of
    any tag."""
    states = [state]
    for kind, n in needs:
        states = [_minus(s, kind, *way) for s in states for way in _ways(s, kind, n)]
    return states


class Oracle:
    """Brute force over the 王 of one variant."""

    def __init__(self, variant) -> None:
        self.v = variant
        self.table = variant.huxi_table
        self.won_ok = variant.won_triple == "kan" or "peng" in variant.deck.king_rules.claims
        self.won_kind = "kan" if variant.won_triple == "kan" else "peng"
        self.split = variant.win.split_kan  # no 坎 locked: three real copies one meld or spread
        self.memo: dict[tuple, int | None] = {}
        #: the runs by their lowest card: ((kind, copies), ...) and 胡息
        self.runs = {low: [(tuple(Counter(cards).items()), self.huxi(kind, cards))
                           for cards, kind in ms] for low, ms in _RUNS.items()}

    def huxi(self, kind: str, cards: tuple[int, ...]) -> int:
        return self.table[MeldKind(kind)][_big(cards)]

    def best(self, state: tuple[int, ...], jiang: int, need: bool) -> int | None:
        """The most 胡息 of the concealed cards ``state`` (per kind, the counts of real, 王 and
        won copies) split wholly into melds with at most ``jiang`` 将 (one at least where
        ``need``), or ``None``: the first card left lies in some meld, its copies of any tag."""
        key = (state, jiang, need)
        if key in self.memo:
            return self.memo[key]
        low = next((i for i in range(20) if state[3 * i] + state[3 * i + 1] + state[3 * i + 2]),
                   None)
        if low is None:
            return None if need else 0
        res: int | None = None
        for needs, value in self.runs[low]:
            for after in _take(state, needs):
                sub = self.best(after, jiang, need)
                if sub is not None and (res is None or sub + value > res):
                    res = sub + value
        for r, k, w in _ways(state, low, 3):  # a triple: with a 王 (three real: 坎 or 碰), or
            # under split_kan of any copies (two real and the won card: the value of its 碰)
            if (not k and not self.split) or (w and not (self.won_ok or not k)):
                continue
            value = self.huxi(self.won_kind if w else "kan", (low,) * 3)
            sub = self.best(_minus(state, low, r, k, w), jiang, need)
            if sub is not None and (res is None or sub + value > res):
                res = sub + value
        if jiang:
            value = self.huxi("jiang", (low, low))
            for r, k, w in _ways(state, low, 2):
                sub = self.best(_minus(state, low, r, k, w), jiang - 1, False)
                if sub is not None and (res is None or sub + value > res):
                    res = sub + value
        self.memo[key] = res
        return res

    def placements(self, hand, table, card, source):
        """Every way the card may lie: ``(table melds as (kind, cards), hand melds made,
        real held counts, won card kind or None)``."""
        v = self.v
        held = list(hand[:20])
        if card is None:
            return [(table, [], held, None)]
        own = source == "self"
        kept = v.claims.kept
        keep = v.claims.po_pao_hu or not v.claims.pao_forced
        out = []

        def free():
            h = list(held)
            if own:
                h[card] += 1
                return (table, [], h, None)
            return (table, [], h, card)

        def forced(kind: str, size: int):
            """One's own draw laid with every held copy (its 提 or 偎), or kept free."""
            h = list(held)
            h[card] = 0
            return [(table + [(kind, (card,) * size)], [], h, None)] + ([free()] if kept else [])

        onto = next((k for k, (kind, cs) in enumerate(table)
                     if cs[0] == card and kind in ("wei", "chou_wei", "peng")), None)
        if held[card] == 3:
            if own:
                return forced("ti", 4)
            h = list(held)
            h[card] = 0
            if source in v.claims.pao_on_kan:
                out.append((table + [("pao", (card,) * 4)], [], h, None))
                if not keep:
                    return out
            return out + [free()]
        if onto is not None:
            kind = table[onto][0]
            rest = table[:onto] + table[onto + 1:]
            if kind == "peng":
                allowed = (own and kept) or (("self" if own else source) in v.claims.pao_on_peng)
                new = "pao"
            else:
                allowed = own or source in v.claims.pao_on_wei
                new = ("pao" if v.claims.own_draw_on_wei == "pao" else "ti") if own else "pao"
            if allowed:
                out.append((rest + [(new, (card,) * 4)], [], held, None))
                if own and kind != "peng" and not kept:
                    return out
                if not keep:
                    return out
                if own and kind == "peng" and v.claims.own_peng_pao_first:
                    return out
            return out + [free()]
        if held[card] == 2:
            if own:
                return forced("wei", 3)
            h = list(held)
            h[card] = 0
            triple = "kan" if v.won_triple == "kan" else "peng"
            out.append((table, [(triple, (card,) * 3)], h, None))
        return out + [free()]

    def judge(self, hand, table, card, source) -> tuple[bool, int | None]:
        """``(win, best 胡息 or None for no split)``."""
        v = self.v
        kings = hand[20]
        best = None
        own = list(hand[:20])  # the player's own cards: a 王 is never a fifth copy of one
        if card is not None:
            own[card] += 1
        for _, cs in table:
            for c in cs:
                own[c] += 1
        room = [v.deck.copies - n for n in own]
        idents = [ident for ident in itertools.combinations_with_replacement(range(20), kings)
                  if all(ident.count(i) <= room[i] for i in set(ident))]
        own_kept = source == "self" and v.claims.kept
        for tab, extra, held, won in self.placements(hand, table, card, source):
            quads = any(k in ("ti", "pao") for k, _ in tab)
            if v.win.jiang_requires_quad:
                jiang, need = (v.win.max_jiang, True) if quads else (0, False)
            else:
                jiang, need = v.win.max_jiang, False
            # the kinds whose three real copies may lie loose: every one under split_kan, else
            # one's own kept draw onto a pair (locked too, the first way)
            loose = [i for i in range(20) if held[i] >= 3 and (
                self.split or (card == i and own_kept and hand[i] == 2))]
            ways = [()] if self.split else [(), tuple(loose)] if loose else [()]
            for free in ways:
                got = self._judged(held, won, free, idents, jiang, need)
                if got is not None:
                    got += sum(self.huxi(k, cs) for k, cs in tab + extra)
                    if best is None or got > best:
                        best = got
        return best is not None and best >= v.win.min_huxi, best

    def _judged(self, held, won, free, idents, jiang, need) -> int | None:
        """The most 胡息 of the concealed cards ``held`` (and the ``won`` card) over every
        identity of the 王: three real copies a locked 坎, but in the kinds ``free`` (and every
        kind under split_kan)."""
        base = 0
        state = [0] * 60
        for i in range(20):
            n = held[i]
            if n >= 3 and not self.split and i not in free:  # a 坎 of three real copies, whole
                base += self.huxi("kan", (i,) * 3)
                n -= 3
            state[3 * i] = n
        if won is not None:
            state[3 * won + WON] += 1
        best = None
        for ident in idents:
            s = list(state)
            for i in ident:
                s[3 * i + KING] += 1
            got = self.best(tuple(s), jiang, need)
            if got is not None and (best is None or base + got > best):
                best = base + got
        return best


# --- random complete hands ----------------------------------------------------------------

_TABLE_KINDS = ("peng", "wei", "ti", "pao", "chi")
_ALL_RUNS = [m for ms in _RUNS.values() for m in ms]


def random_table(rng: random.Random, sizes: tuple[int, ...]):
    """Seeded table melds ``(melds as (kind, cards), copies of each kind they hold)``, as many
    as one of ``sizes``."""
    seen = [0] * 20
    table = []
    for _ in range(rng.choice(sizes)):
        kind = rng.choice(_TABLE_KINDS)
        if kind == "chi":
            cards, kind = rng.choice(_ALL_RUNS)
        else:
            cards = (rng.randrange(20),) * (4 if kind in ("ti", "pao") else 3)
        table.append((kind, tuple(sorted(cards))))
        for c in cards:
            seen[c] += 1
    return table, seen


def _situation(rng: random.Random, v, source: str | None, kings: int):
    """A seeded situation: ``(hand counts, table melds as (kind, cards), card)``: a complete
    hand of melds (some 坎, a 将 with a 提/跑), ``kings`` 王 put in for concealed cards, one card in
    three spoiled, the card drawn or discarded out of it when ``source`` is given."""
    while True:
        table, seen = random_table(rng, (0, 0, 1, 1, 2, 3))
        quads = sum(1 for k, _ in table if k in ("ti", "pao"))
        size = v.resting_size(quads) + 1 - sum(len(cs) for _, cs in table)
        hand = [0] * 21
        jiang = quads and v.win.jiang_requires_quad
        if size < 2 or (size - 2 * jiang) % 3:
            continue
        if jiang:
            i = rng.randrange(20)
            hand[i] += 2
        for _ in range((size - 2 * jiang) // 3):
            if rng.random() < 0.25:
                cards = (rng.randrange(20),) * 3
            else:
                cards, _ = rng.choice(_ALL_RUNS)
            for c in cards:
                hand[c] += 1
        if any(hand[i] + seen[i] > 4 for i in range(20)) or 4 in hand[:20]:
            continue
        cards = [i for i in range(20) for _ in range(hand[i])]
        for c in rng.sample(cards, kings):
            hand[c] -= 1
            hand[20] += 1
        if rng.random() < 1 / 3:  # spoil one card
            real = [i for i in range(20) if hand[i]]
            out, into = rng.choice(real), rng.randrange(20)
            hand[out] -= 1
            hand[into] += 1
            if hand[into] + seen[into] > 4 or hand[into] == 4:
                continue
        card = None
        if source is not None:
            real = [i for i in range(20) if hand[i]]
            card = rng.choice(real)
            hand[card] -= 1
        return hand, table, card


def _melds(table):
    return tuple(Meld(MeldKind(k), cs) for k, cs in table)


def _product(v, hand, table, card, source):
    a = win_verdict(v, hand, _melds(table), card, source)
    split = a.huxi if a.reason in (None, "below_min_huxi") else None
    return a, (a.win, split)


CASES = [("yongzhou", None), ("yongzhou", "self"),
         ("chenzhou_wang", None), ("chenzhou_wang", "self"), ("chenzhou_wang", "discard")]


def compare(preset: str, source: str | None, hands: int, seed: int) -> Counter:
    """Compare ``hands`` seeded situations; returns the tally (``differences`` must be 0)."""
    v = load_preset(preset)
    oracle = Oracle(v)
    rng = random.Random(seed)
    tally: Counter = Counter()
    diffs = []
    many = [k for k, n in MANY_KINGS.items() if k <= v.deck.kings for _ in range(n)]
    for n in range(hands):
        kings = many[n] if n < len(many) else rng.choice((1, 1, 2))
        hand, table, card = _situation(rng, v, source, kings)
        if len(oracle.memo) > 2_000_000:
            oracle.memo.clear()
        want = oracle.judge(hand, table, card, source)
        a, got = _product(v, hand, table, card, source)
        quick = win_verdict(v, hand, _melds(table), card, source, explain=False).win
        refused = card is not None and surely_no_win(v, hand, card, source, _melds(table))
        tally["hands"] += 1
        tally["wins"] += want[0]
        tally["kings"] += hand[20]
        tally["natural_kan"] += 3 in hand[:20]
        tally["table"] += bool(table)
        if got != want or quick != want[0] or (refused and want[0]):
            diffs.append((hand, table, card, source, want, got, quick, refused))
        elif a.best is not None:  # the decomposition adds up and shows every 王
            assert sum(g.huxi for g in a.best.groups) == a.huxi
            assert sum(len(g.kings) for g in a.best.groups) == hand[20]
    tally["differences"] = len(diffs)
    assert not diffs, diffs[:3]
    return tally


@pytest.mark.parametrize("seed, case", list(enumerate(CASES)))
def test_king_oracle(seed, case):
    preset, source = case
    tally = compare(preset, source, HANDS[preset], seed)
    print(preset, source, dict(tally))
    assert tally["hands"] == HANDS[preset] and tally["wins"] > 0 and tally["natural_kan"] > 0


def test_four_kept_spread_with_king():
    """郴州 with 王: one's own fourth d6 kept beside the 坎 (``claims.own_draw: kept``) and
    spread as 绞 ``x6 d6 d6`` (the x6 a 王) and 将 ``d6 d6``. The brute force finds the win;
    the search once missed it, its spread of the four taking real cards only."""
    v = load_preset("chenzhou_wang")
    table = [("pao", (19,) * 4), ("ti", (9,) * 4)]
    hand = [0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2]  # x2 x3 x4 d1 d2
    # d6 d6 d6 d9 d9 d9 K K, drawing d6
    assert Oracle(v).judge(hand, table, 15, "self") == (True, 30)
    a = win_verdict(v, hand, _melds(table), 15, "self")
    assert (a.win, a.huxi) == (True, 30)
    groups = {str(g.meld): g.kings for g in a.best.groups}
    assert groups["jiao(x6 d6 d6)"] == (5,) and groups["jiang(d6 d6)"] == ()
    assert sum(len(k) for k in groups.values()) == 2
    assert win_verdict(v, hand, _melds(table), 15, "self", explain=False).win
