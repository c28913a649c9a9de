"""The referee's win judgement: who can win on a card, and whether a recorded win and its split
are valid and a best one.

* The card's source must be one the variant allows (003 "只能胡各玩家从墩上摸出来并且明示的牌…任何人
  打出的牌都不能胡"; 004 "可胡任何人手中打出的牌"); a 王 holder wins only on its own draw where the
  variant says so (000 §永州双王扯胡子规则 "手中有王霸的玩家只能自摸胡牌").
* Every card of hand and table is in a 方门子, with a 将 only beside a 提/跑 (003), 7 方门子 in a
  21-card game (003 "手中和桌面上共有7方门子"), 5 in a 15-card one (digest 1.4.0).
* The 胡息 is the best over every split (the referee's own :class:`Decomposer`), table melds
  counted as they lie, and must reach ``win.min_huxi`` (004 第六条2 "胡牌最低胡牌数10胡").
* The winning card may complete a 坎, 偎 or 碰 into a 跑/提 (破跑胡, 003 "胡牌优先于跑牌").
* 臭胡 (003 "能胡而没胡的牌第二次出现时，如果玩家的当前胡息数没发生变化，则玩家不可以胡牌").
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .cards import INDEX, KING, three_shape
from .decomposer import NONE, Decomposer, counts_of
from .rules import SEED_RULES, Rules

if TYPE_CHECKING:
    from .tracker import Referee

SPECIAL = ("special",)


class WinJudge:
    def __init__(self, rules: Rules, *, lock: bool | None = None,
                 king_pair: bool = True, lock_kept: bool = False) -> None:
        self.r = rules
        self.lock_kept = lock_kept
        self.dec = Decomposer(rules.huxi, king_pair)
        self.lock = (not rules.kan_free_at_win) if lock is None else lock
        self._alts: list[tuple[str, WinJudge]] | None = None

    def explain(self, ref: Referee, s: int, card: str | None, source: str,
                exposer: int, total: int) -> str:
        """Why the referee's win differs from the engine's: ``kan_locked`` when locking the
        hand's 坎 at the win (as the engine does) loses it, ``king_pair`` when a 王 paired
        with a natural card as the 将 is what makes it; else ``""``."""
        if self._alts is None:
            self._alts = []
            if not self.lock:
                self._alts.append(("kept_triple", WinJudge(self.r, lock_kept=True)))
                self._alts.append(("kan_locked", WinJudge(self.r, lock=True)))
            if self.r.kings:
                self._alts.append(("king_pair", WinJudge(self.r, king_pair=False)))
        for tag, alt in self._alts:
            got = alt.can_win(ref, s, card, source, exposer)
            if got is None or got < total:
                return tag
        if self.r.kings and ref.hand[s][KING]:
            return "king_other"
        return ""

    def value(self, kind: str, card: str) -> int:
        """胡息 of a meld of ``kind`` made of ``card`` (a record's token such as ``d10``): the
        rank matters only for ``huxi.extra``."""
        rank = int(card[1:]) if card[1:].isdigit() else 1
        return self.dec.value(kind, (10 if card.startswith("d") else 0) + rank - 1)

    def table_kind(self, m: Mapping[str, Any]) -> str:
        if m["kind"] in ("peng", "wei", "chou_wei", "ti", "pao"):
            return str(m["kind"])
        return three_shape(list(m["cards"])) or str(m["kind"])

    def source_for(self, s: int, source: str, exposer: int) -> str | None:
        if source == "draw":
            return "self" if s == exposer else "draw"
        if source == "discard":
            return None if s == exposer else "discard"
        if s != exposer:
            return None
        return "self" if source == "self" else source[len("post-"):]

    def can_win(self, ref: Referee, s: int, card: str | None, source: str,
                exposer: int, chou_card: str | None = None) -> int | None:
        """The best 胡息 seat ``s`` wins with on the offered ``card`` (None: its hand as it
        stands), or None when it cannot win."""
        src = self.source_for(s, source, exposer)
        if src is None or src not in self.r.sources:
            return None
        hand = Counter(ref.hand[s])
        incoming = card if (card and source in ("draw", "discard")) else None
        if card and source == "self" and hand[card] > 0:
            # a kept draw is judged as the card coming in (it may make a 提 or 跑: 郴州,
            # docs/regional-sources.md 3.3 "3 in hand + draw → 提")
            hand[card] -= 1
            incoming = card
            hand = +hand
        if self.r.king_holder_self_only and src != "self" and (hand[KING] or incoming == KING):
            return None
        table = ref.table[s]
        quads = sum(1 for m in table if m["kind"] in ("ti", "pao"))
        size = sum(hand.values()) + sum(len(m["cards"]) for m in table) + (1 if incoming else 0)
        best = self.best(hand, table, incoming, card, src)
        if best is None:
            return None
        total, q = best
        if size != self.r.dealer_hand + max(0, max(q, quads) - 1):
            return None
        if total < self.r.min_huxi:
            return None
        declined = card or chou_card
        if self.r.chou_hu and declined and ref.declined_hu[s].get(declined) == total:
            return None
        return total

    def best(self, hand: Counter[str], table: list[dict[str, Any]], incoming: str | None,
             card: str | None, src: str) -> tuple[int, int] | None:
        """(best total 胡息, 提/跑 count of that split) of hand + ``incoming`` + table."""
        r = self.r
        tvals = [(m, self.value(self.table_kind(m), m["cards"][0])) for m in table]
        table_huxi = sum(v for _, v in tvals)
        quads = sum(1 for m in table if m["kind"] in ("ti", "pao"))
        locked = [] if not self.lock else [c for c, n in hand.items() if n >= 3 and c != KING]
        base = Counter(hand)
        kan_huxi = 0
        for c in locked:
            base[c] -= 3
            kan_huxi += self.value("kan", c)
        base = +base
        if self.lock_kept and src == "self" and incoming and base[incoming] == 2:
            # the kept draw and a pair taken for a locked 坎 (the engine's reading, item 3)
            base[incoming] -= 2
            base = +base
            kan_huxi += self.value("kan", incoming)
            incoming = None
        quad_kind = "ti" if src == "self" else "pao"
        options: list[tuple[int, int]] = []
        full = Counter(base)
        if incoming:
            full[incoming] += 1
        counts, kings = counts_of(list(full.elements()))
        tk = None
        if card and card != KING and hand[card] == 2:
            tk = (INDEX[card], r.won_triple if src != "self" else "kan")
        # 耒阳: a drawer's own draw onto its 碰 is 跑'd before the win is checked (the schema's
        # claims.own_peng_pao_first; docs/regional-sources.md 耒阳): no win with the 碰 kept
        peng_first = r.raw["claims"].get("own_peng_pao_first", False) and src == "self" \
            and incoming is not None and any(
                m["kind"] == "peng" and m["cards"][0] == incoming for m in table)
        got = NONE if peng_first else self.dec.best(counts, kings, quads > 0, tk)
        if got != NONE:
            options.append((table_huxi + kan_huxi + got, quads))
        # a 坎 and the fourth card make a 提 on the own draw, a 跑 on another's card where the
        # variant has that 跑 (claims.pao_on_kan; 郴州 has none: docs/regional-sources.md 3.3)
        kan_quad = src == "self" or src in r.pao_on_kan
        if incoming and incoming != KING:
            rest_counts, rest_kings = counts_of(list(base.elements()))
            if not kan_quad:
                pass
            elif incoming in locked:
                got = self.dec.best(rest_counts, rest_kings, True, None)
                if got != NONE:
                    options.append((table_huxi + kan_huxi - self.value("kan", incoming)
                                    + self.value(quad_kind, incoming) + got, quads + 1))
            elif base[incoming] >= 3:
                free = Counter(base)
                free[incoming] -= 3
                fc, fk = counts_of(list((+free).elements()))
                got = self.dec.best(fc, fk, True, None)
                if got != NONE:
                    options.append((table_huxi + kan_huxi + self.value(quad_kind, incoming)
                                    + got, quads + 1))
            for m, v in tvals:
                if m["cards"][0] != incoming or len(set(m["cards"])) != 1 or len(m["cards"]) != 3:
                    continue
                ok = (m["kind"] in ("wei", "chou_wei") and (src == "self" or src in r.pao_on_wei)) \
                    or (m["kind"] == "peng" and (src in r.pao_on_peng or (
                        src == "self" and r.own_draw == "kept")))
                # (郴州, docs/regional-sources.md 3.3: "own 碰 or own 偎 + the drawn card → 跑")
                # a 碰 and a fourth card make a 跑 whoever drew it (000 §跑胡子玩牌规则 "第4张牌
                # 如果是摸出来的牌还可以跑桌面上碰的牌"); a 偎 and the own draw a 提, or a 跑 where
                # the variant says so (郴州, docs/regional-sources.md 3.3)
                kind = "pao" if m["kind"] == "peng" else (
                    r.own_draw_on_wei if src == "self" else "pao")
                if ok:
                    got = self.dec.best(rest_counts, rest_kings, True, None)
                    if got != NONE:
                        options.append((table_huxi - v + self.value(kind, incoming)
                                        + kan_huxi + got, quads + 1))
        return max(options) if options else None

    def data_wei_pao(self, ref: Referee, s: int, card: str | None, source: str,
                     exposer: int) -> str:
        """``":wei_pao_on_discard"`` when the win needs a 开舵 of a 扫 by a discarded card,
        which the referee's Guilin reading refuses and the data allows (item 7), else ``""``."""
        if self.r.id not in SEED_RULES["wei_pao_by_draw_only"]:
            return ""
        alt = WinJudge(dataclasses.replace(
            self.r, pao_on_wei=tuple(self.r.raw["claims"]["pao_on_wei"])))
        return ":wei_pao_on_discard" if alt.can_win(ref, s, card, source, exposer) is not None \
            else ""

    def unmodelled_decline(self, ref: Referee, s: int) -> bool:
        """A seat whose later wins depend on a rule the referee does not model (耒阳: a declined
        win must be beaten, ``win.declined_must_be_beaten``)."""
        return self.r.declined_must_be_beaten and ref.passed_hu[s]

    # ------------------------------------------------------------------ a recorded win
    def check_win(self, ref: Referee, e: Mapping[str, Any], i: int) -> None:
        result = ref.rec.get("result") or {}
        dec = result.get("decomposition") or {}
        s, card = e["seat"], e.get("card")
        if dec.get("special") or dec.get("leftover"):
            ref.skipped["special_win"] = ref.skipped.get("special_win", 0) + 1
            return
        o = ref.offer
        if o is not None and o.source in ("draw", "discard") and o.card == card:
            source, exposer, offered_card = o.source, o.exposer, card
        elif o is not None and o.source not in ("draw", "discard") and o.exposer == s:
            source, exposer, offered_card = o.source, s, (card if o.source == "self" else None)
        elif o is None and not any(ref.discarded_once) and "地胡" in ref.rec["events"][
                i - 1].get("note", ""):
            # 衡阳红黑's 地胡 on the 亮张 offered as a discard: not modelled
            ref.skipped["dihu_lianzhang"] = ref.skipped.get("dihu_lianzhang", 0) + 1
            return
        elif o is None and not any(ref.discarded_once):
            # the dealt hand (the dealer's 21 cards with its 亮张: 003 "选择天胡（亮张胡牌）")
            source, exposer, offered_card = "post-self", s, None
        else:
            ref.flag("invalid_win", i, f"seat {s} wins on {card}, which is not on offer to it")
            return
        total = self.can_win(ref, s, offered_card, source, exposer)
        ref.win_total = total
        ref.win_source = self.source_for(s, source, exposer)
        ref.win_exposer = exposer
        if total is None:
            why = self.data_wei_pao(ref, s, offered_card, source, exposer)
            ref.flag("invalid_win" + why, i, f"seat {s} wins on {card} ({source}): the referee "
                     "finds no win (source, shape or threshold)")
            return
        recorded = dec.get("huxi")
        if recorded is not None and recorded != total:
            kind = "not_best_split" if total > recorded else "split_exceeds_referee"
            why = self.explain(ref, s, offered_card, source, exposer, total)
            kind += ":" + why if why else ""
            ref.flag(kind, i, f"seat {s}: recorded split {recorded} 胡息, the referee's best "
                     f"{total}")
        self.check_split(ref, s, card if source in ("draw", "discard") else None, dec, i)

    def check_split(self, ref: Referee, s: int, incoming: str | None, dec: Mapping[str, Any],
                    i: int) -> None:
        from .tracker import meld_cards
        groups = dec.get("groups") or []
        have: Counter[str] = Counter(ref.hand[s])
        if incoming:
            have[incoming] += 1
        for m in ref.table[s]:
            have.update(meld_cards(m))
        got: Counter[str] = Counter()
        total = 0
        for g in groups:
            got.update(meld_cards(g))
            cards = list(g["cards"])
            kind = g["kind"]
            shape = three_shape(cards) if len(cards) == 3 else (
                "pair" if len(cards) == 2 and len(set(cards)) == 1 else
                "quad" if len(cards) == 4 and len(set(cards)) == 1 else None)
            want = {"kan": "kan", "peng": "kan", "wei": "kan", "chou_wei": "kan", "ti": "quad",
                    "pao": "quad", "jiang": "pair"}.get(kind, kind)
            if shape != want:
                ref.flag("bad_split", i, f"group {kind}({' '.join(cards)}) is not a {kind}")
            if g.get("huxi") != self.value(kind, cards[0]):
                ref.flag("bad_split", i, f"group {kind}({' '.join(cards)}) scores "
                         f"{g.get('huxi')}, the table says {self.value(kind, cards[0])}")
            total += int(g.get("huxi", 0))
        if +got != +have:
            ref.flag("bad_split", i, f"the split's cards {dict(got - have)} / "
                     f"{dict(have - got)} differ from seat {s}'s")
        if total != dec.get("huxi"):
            ref.flag("bad_split", i, f"the groups add up to {total}, not {dec.get('huxi')}")
        if len(groups) != self.r.dealer_hand // 3:
            ref.flag("bad_split", i, f"{len(groups)} 方门子, not {self.r.dealer_hand // 3}")
