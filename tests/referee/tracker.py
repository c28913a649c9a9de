"""The referee's state tracker: it replays a hand's event stream on its own small state (hands,
table melds, discard areas, the wall) and judges each event.

Each judgement that fails adds a :class:`Disagreement` of a stable ``kind``:

* ``conservation``: a card taken from where it is not, or the cards no longer add up to the deck;
* ``wall_order``: a drawn card that is not the next card of the dealt wall, a 荒庄 with cards left;
* ``card_count``: a seat's hand and table off the resting size 20 + (提/跑 − 1) (digest 1.4.0: the
  first 提/跑 owes a discard, the second and later none, 000 §跑胡子玩牌规则 "八块(即跑、提两次及
  以上)除外");
* ``forced_missing``: a 偎/提 not made on the drawer's own draw (000 §跑胡子玩牌规则
  "比、偎、提、跑是强制规则"), a forced 跑 not made;
* ``bad_meld``: a meld whose cards are not of its kind; ``chi_seat``: a 吃 by a seat that may not
  (000 §跑胡子、放炮罚游戏规则 "下家可吃可碰，上家可碰不能吃"); ``bi_incomplete``: copies of the
  吃's card left in the hand (003 "如果玩家符合吃牌的条件但达不到比牌的条件 … 则不允许吃牌");
  ``kan_split``: a card of a 坎 used in a 吃 or discarded;
* ``priority``: a claim taken while a seat with a higher claim had not passed (001 "当有人胡牌时，
  不胡才能碰或吃，当有碰牌时，不碰才能吃");
* ``chou_taken`` / ``chou_offered`` and ``chou_peng_blocks_chi``: a 臭 card taken or offered (003
  "这张牌就成了该玩家的臭牌…不得再吃或者碰");
* ``invalid_win``, ``not_best_split``, ``bad_split``, ``missed_win``: see :mod:`.wins`;
* ``settlement``: see :mod:`.settlement`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import KING, TOKENS, big, rank, split, three_shape
from .rules import Rules
from .wins import WinJudge


@dataclass(frozen=True)
class Disagreement:
    kind: str
    event: int
    detail: str


POST = ("self", "post-self", "post-draw", "post-discard")


@dataclass
class Offer:
    card: str
    source: str          # "draw" (shown wall card), "discard", "self" (kept draw), "post"
    exposer: int
    index: int
    options: dict[int, set[str]] = field(default_factory=dict)
    hu_totals: dict[int, int] = field(default_factory=dict)
    offered: dict[int, set[str]] = field(default_factory=dict)
    passed: set[int] = field(default_factory=set)
    closed: bool = False


def meld_cards(meld: Mapping[str, Any]) -> list[str]:
    """A recorded meld's physical cards: each stand-in of ``kings`` is a 王."""
    cards = list(meld["cards"])
    for k in meld.get("kings", ()):
        cards.remove(k)
        cards.append(KING)
    return cards


class Referee:
    """Judge one hand: ``Referee(rules, record, decisions).run()`` → disagreements.

    ``record``: a zipai-log/1 record with ``events`` (Event.to_json dicts); ``decisions``:
    ``{event index: [(seat, {action kinds offered})]}``, the choices the engine offered before
    that event (empty when unknown: the offered-side checks are then skipped)."""

    def __init__(self, rules: Rules, record: Mapping[str, Any],
                 decisions: Mapping[int, Sequence[tuple[int, set[str]]]] | None = None) -> None:
        self.r = rules
        self.rec = record
        self.decisions = decisions or {}
        deal = record["deal"]
        self.n = len(deal["hands"])
        self.dealer = deal["dealer"]
        self.dealt = [split(h) for h in deal["hands"]]
        self.hand = [Counter(h) for h in self.dealt]
        self.table: list[list[dict[str, Any]]] = [[] for _ in range(self.n)]
        self.discards: list[list[str]] = [[] for _ in range(self.n)]
        self.wall = split(deal["wall"])
        self.aside = split(deal.get("aside", ""))
        self.ptr = 0
        self.offer: Offer | None = None
        self.hidden: tuple[str, int] | None = None
        self.quads = [0] * self.n
        self.dealt_quads = [0] * self.n
        self.dead = [0] * self.n
        self.discarded_once = [False] * self.n
        self.chou = [{"chi": set(), "peng": set(), "from_peng": set()} for _ in range(self.n)]
        self.own = [set() for _ in range(self.n)]
        self.declined_hu: list[dict[str, int]] = [{} for _ in range(self.n)]
        self.out: list[Disagreement] = []
        self.events_checked = 0
        self.judge = WinJudge(rules)
        self.win: dict[str, Any] | None = None
        self.win_total: int | None = None
        self.win_source: str | None = None
        self.win_exposer = 0
        self.skipped: dict[str, int] = {}
        self.kan_chi = False
        self.took_in = [False] * self.n
        self.passed_hu = [False] * self.n
        self.no_take = [False] * self.n
        self.owes = [True] * self.n
        full = Counter({t: rules.copies for t in TOKENS})
        if rules.kings:
            full[KING] = rules.kings
        self.deck = full

    # ------------------------------------------------------------------ helpers
    def flag(self, kind: str, i: int, detail: str) -> None:
        self.out.append(Disagreement(kind, i, detail))

    def size(self, s: int) -> int:
        return sum(self.hand[s].values()) + sum(len(m["cards"]) for m in self.table[s])

    def nxt(self, s: int) -> int:
        return (s + 1) % self.n

    def table_of(self, s: int, card: str, kinds: tuple[str, ...]) -> dict[str, Any] | None:
        return next((m for m in self.table[s] if m["kind"] in kinds and
                     m["cards"][0] == card and len(set(m["cards"])) == 1), None)

    def conserve(self, i: int) -> None:
        total: Counter[str] = Counter()
        for s in range(self.n):
            total.update(self.hand[s])
            for m in self.table[s]:
                total.update(meld_cards(m))
            total.update(self.discards[s])
        total.update(self.wall[self.ptr:])
        total.update(self.aside)
        if self.offer is not None and self.offer.source in ("draw", "discard"):
            total[self.offer.card] += 1
        if self.hidden is not None:
            total[self.hidden[0]] += 1
        if +total != +self.deck:
            diff = (total - self.deck) + (self.deck - total)
            self.flag("conservation", i, f"cards off the deck: {dict(diff)}")
            # resynchronise nothing: a broken count stays broken, reported once
            self.deck = +total
        if any(n < 0 for h in self.hand for n in h.values()):
            self.flag("conservation", i, "a hand holds a negative count")

    def take(self, s: int, cards: Sequence[str], i: int, what: str) -> None:
        for c in cards:
            if self.hand[s][c] <= 0:
                self.flag("conservation", i, f"seat {s} {what}: {c} not held")
            self.hand[s][c] -= 1
        self.hand[s] = +self.hand[s]

    def draw_card(self, e: Mapping[str, Any], i: int) -> str:
        if self.ptr >= len(self.wall):
            self.flag("wall_order", i, "draw from an empty wall")
            return e.get("card") or TOKENS[0]
        c = self.wall[self.ptr]
        self.ptr += 1
        if e.get("card") is not None and e["card"] != c:
            self.flag("wall_order", i, f"drew {e['card']}, the wall's next card is {c}")
        return c

    def resting(self, i: int, skip: int | None = None) -> None:
        for s in range(self.n):
            if s == skip or (s == self.dealer and not self.discarded_once[s]):
                continue
            if self.dealt_quads[s] >= 2 and (self.r.dealt_double_quad != "skip_first"
                                             or not self.took_in[s]):
                # two dealt 提: the free discard falls on the first 进牌 (003 "第一次进牌后不用
                # 出牌"); before it the seat rests one card short. Where it falls later
                # (skip_second; Guilin's skip_when_ready, 004 第五条7 "在听牌的时候不打") the
                # count is not checked (docs/testing.md)
                continue
            want = self.r.other_hand + max(0, self.quads[s] - 1) + self.dead[s]
            if not self.r.repeat_quad_skips:
                want = self.r.other_hand
            got = self.size(s)
            if got != want:
                self.flag("card_count", i, f"seat {s} holds {got} cards (hand and table), "
                          f"the resting size with {self.quads[s]} 提/跑 is {want}")
                self.dead[s] += got - want   # report a drift once

    # ------------------------------------------------------------------ run
    def run(self) -> list[Disagreement]:
        events = self.rec["events"]
        for i, e in enumerate(events):
            if self.offer is not None:
                for seat, kinds in self.decisions.get(i, ()):
                    self.offer.offered.setdefault(seat, set()).update(kinds)
            getattr(self, "ev_" + e["kind"], self.ev_other)(e, i)
            self.events_checked += 1
            self.conserve(i)
        return self.out

    def ev_other(self, e: Mapping[str, Any], i: int) -> None:
        pass

    def ev_deal(self, e: Mapping[str, Any], i: int) -> None:
        if e.get("note", "").startswith("亮张") and e.get("card") != self.dealt[self.dealer][-1]:
            self.flag("wall_order", i, "the 亮张 is not the dealer's last dealt card")

    def ev_chou(self, e: Mapping[str, Any], i: int) -> None:
        pass

    def ev_no_discard(self, e: Mapping[str, Any], i: int) -> None:
        # 死手: a discard owed and none possible leaves the seat one card up; after a second or
        # later 提/跑 none was owed
        if self.owes[e["seat"]]:
            self.dead[e["seat"]] += 1
        self.close_offer(i, None)

    def ev_pass(self, e: Mapping[str, Any], i: int) -> None:
        if self.offer is not None:
            self.offer.passed.add(e["seat"])

    def ev_draw(self, e: Mapping[str, Any], i: int) -> None:
        self.close_offer(i, None)
        s = e["seat"]
        c = self.draw_card(e, i)
        if e.get("note") == "kept":
            self.took_in[s] = True
            self.hand[s][c] += 1
            self.open_offer(c, "self", s, i)
            return
        if self.r.own_draw == "shown" and c != KING:
            if self.hand[s][c] >= 2 or self.table_of(s, c, ("wei", "chou_wei")):
                self.flag("forced_missing", i, f"seat {s} drew {c} and shows it: "
                          "a 偎/提 was owed")
        self.open_offer(c, "draw", s, i)
        self.resting(i)

    def ev_draw_hidden(self, e: Mapping[str, Any], i: int) -> None:
        self.close_offer(i, None)
        s = e["seat"]
        c = self.draw_card(e, i)
        if "kept" in e.get("note", ""):
            self.took_in[s] = True
            self.hand[s][c] += 1
            self.open_offer(c, "self", s, i)
        else:
            self.hidden = (c, s)

    def ev_discard(self, e: Mapping[str, Any], i: int) -> None:
        self.close_offer(i, None)
        s, c = e["seat"], e["card"]
        if c == KING:
            self.flag("conservation", i, "a 王 discarded")
        if self.hand[s][c] >= 3:
            self.flag("kan_split", i, f"seat {s} discards {c} out of a 坎")
        self.take(s, [c], i, "discard")
        self.discarded_once[s] = True
        if self.r.chou_own_discards:
            self.own[s].add(c)
        self.open_offer(c, "discard", s, i)
        self.resting(i)

    def ev_to_discards(self, e: Mapping[str, Any], i: int) -> None:
        o = self.offer
        if o is None or o.source not in ("draw", "discard"):
            self.flag("conservation", i, "a card goes to the discards with none on offer")
            return
        if e.get("card") != o.card or e["seat"] != o.exposer:
            self.flag("conservation", i, "the card going to the discards is not the one on offer")
        self.close_offer(i, None)
        self.discards[o.exposer].append(o.card)
        self.offer = None

    # ------------------------------------------------------------------ melds
    def ev_wei(self, e: Mapping[str, Any], i: int) -> None:
        self.meld(e, i)

    ev_chou_wei = ev_wei

    def ev_ti(self, e: Mapping[str, Any], i: int) -> None:
        self.meld(e, i)

    def ev_pao(self, e: Mapping[str, Any], i: int) -> None:
        self.meld(e, i)

    def ev_peng(self, e: Mapping[str, Any], i: int) -> None:
        self.meld(e, i)

    def ev_chi(self, e: Mapping[str, Any], i: int) -> None:
        self.meld(e, i)

    def meld(self, e: Mapping[str, Any], i: int) -> None:
        s, kind, c = e["seat"], e["kind"], e.get("card")
        self.kan_chi = False
        if self.offer is not None and self.offer.source in POST:
            self.close_offer(i, None)
        melds = list(e.get("melds", ()))
        need: list[str] = [x for m in melds for x in meld_cards(m)]
        incoming = None
        if self.hidden is not None:
            hc, hs = self.hidden
            if hs != s or hc != c:
                self.flag("conservation", i, f"the hidden draw {hc} of seat {hs} is not used")
            incoming, self.hidden = hc, None
            src = "hidden"
        elif self.offer is not None and self.offer.source in ("draw", "discard") \
                and c == self.offer.card and kind in ("pao", "peng", "chi"):
            incoming = c
            src = self.offer.source
            self.check_claim(e, i)
            self.close_offer(i, s, kind)
            self.took_in[s] = True
        else:
            src = "hand"
        if incoming is not None:
            need.remove(incoming)
        if kind in ("ti", "pao") and c is not None:
            old = self.table_of(s, c, ("wei", "chou_wei", "peng"))
            if old is not None and src == "discard" and self.r.fang_pao_stops_takes \
                    and self.offer is not None:
                # 放跑之后不能再进张: the discarder may no longer 吃 or 碰 (the schema's
                # claims.fang_pao_stops_takes; docs/regional-sources.md 衡阳, 耒阳)
                self.no_take[self.offer.exposer] = True
            if old is not None:
                self.table[s].remove(old)
                for x in meld_cards(old):
                    need.remove(x)
        if kind == "chi":
            for m in melds:
                used = meld_cards(m)
                if incoming in used and "bi" not in m:
                    used = list(used)
                    used.remove(incoming)
                for x in set(used):
                    if x != KING and self.hand[s][x] >= 3:
                        self.flag("kan_split", i, f"seat {s}'s 吃 uses {x} out of a 坎")
        self.take(s, need, i, kind)
        for m in melds:
            shape = three_shape(list(m["cards"])) if len(m["cards"]) == 3 else (
                "quad" if len(set(m["cards"])) == 1 and len(m["cards"]) == 4 else None)
            want = {"wei": "kan", "chou_wei": "kan", "peng": "kan", "ti": "quad",
                    "pao": "quad"}.get(m["kind"], m["kind"])
            if shape != want:
                self.flag("bad_meld", i, f"{m['kind']}({' '.join(m['cards'])}) is not a "
                          f"{m['kind']}")
            self.table[s].append(dict(m))
        if "dealt" not in e.get("note", ""):
            self.took_in[s] = True   # a 进牌: a card taken in (003 "第一次进牌后不用出牌")
        self.owes[s] = kind not in ("ti", "pao") or self.quads[s] == 0 \
            or not self.r.repeat_quad_skips
        if kind in ("ti", "pao"):
            self.quads[s] += 1
            if "dealt" in e.get("note", ""):
                self.dealt_quads[s] += 1
        if kind == "chi" and not self.kan_chi:
            if incoming is not None and self.hand[s][incoming] > 0:
                self.flag("bi_incomplete", i, f"seat {s} keeps {self.hand[s][incoming]} "
                          f"{incoming} after its 吃")
        if incoming is not None and src in ("draw", "discard"):
            self.offer = None
        if src == "hidden":
            # the drawer may win after its forced meld (000 §衡阳六胡抢 "偎完后可胡就自摸胡牌")
            self.open_offer(None, "post-self", s, i)
        # (after a claimed 跑 no new offer: a win with that card was judged on the card, the
        # 跑 counted as a 4-card group)

    # ------------------------------------------------------------------ offers
    def open_offer(self, card: str | None, source: str, exposer: int, i: int,
                   chou_card: str | None = None) -> None:
        o = Offer(card or "", source, exposer, i)
        self.offer = o
        for s in range(self.n):
            opts: set[str] = set()
            total = self.judge.can_win(self, s, card, source, exposer, chou_card)
            if total is not None:
                opts.add("hu")
                o.hu_totals[s] = total
            if card and source in ("draw", "discard") and card != KING:
                opts |= self.claim_options(s, card, source, exposer)
            o.options[s] = opts

    def claim_options(self, s: int, c: str, source: str, e: int) -> set[str]:
        r, out = self.r, set()
        src = "self" if (s == e and source == "draw") else source
        if s != e:
            if self.hand[s][c] == 3 and src in r.pao_on_kan:
                out.add("pao!")
            if self.table_of(s, c, ("wei", "chou_wei")) and src in r.pao_on_wei:
                out.add("pao!")
            if self.table_of(s, c, ("peng",)) and src in r.pao_on_peng:
                out.add("pao!")
            if self.hand[s][c] == 2 and src in r.peng_on and not self.blocked(
                    s, c, "peng", source) and can_discard(self.hand[s] - Counter({c: 2})):
                out.add("peng")
        elif src == "self" and self.table_of(s, c, ("peng",)) and "self" in r.pao_on_peng:
            out.add("pao!")
        chi_ok = (s == self.nxt(e) and "next" in r.chi_by) or \
                 (s == e and source == "draw" and "self" in r.chi_by)
        if chi_ok and not self.blocked(s, c, "chi", source) \
                and chi_plan(self.hand[s], c):
            out.add("chi")
        if self.no_take[s]:
            out -= {"peng", "chi"}
        if "pao!" in out and not r.pao_forced:
            out.discard("pao!")
            out.add("pao")
        return out

    def blocked(self, s: int, c: str, kind: str, source: str) -> bool:
        if c in self.own[s]:
            return True
        if kind == "peng":
            # a declined 碰 blocks 碰 on every source (001 "则另外一张你也不能碰"; the schema's
            # blocks_on names the sources on which a 臭 card may not be 吃'd)
            return c in self.chou[s]["peng"]
        if source not in self.r.chou_blocks_on:
            return False
        return c in self.chou[s][kind]

    def check_claim(self, e: Mapping[str, Any], i: int) -> None:
        o = self.offer
        assert o is not None
        s, kind = e["seat"], e["kind"]
        uses_king = any(m.get("kings") for m in e.get("melds", ()))
        opts = o.options.get(s, set())
        have = {x.rstrip("!") for x in opts}
        if kind == "chi" and self.hand[s][o.card] >= 3:
            # a 坎 stays whole and every copy must go down in 比: no 吃 of its kind
            self.flag("kan_blocks_chi", i, f"seat {s} 吃s {o.card} holding a 坎 of it")
            self.kan_chi = True
        elif kind not in have and not uses_king:
            if kind == "chi" and not ((s == self.nxt(o.exposer) and "next" in self.r.chi_by) or
                                      (s == o.exposer and o.source == "draw"
                                       and "self" in self.r.chi_by)):
                self.flag("chi_seat", i, f"seat {s} may not 吃 a card of seat {o.exposer}")
            elif kind in ("chi", "peng") and self.blocked(s, o.card, kind, o.source):
                self.flag(self.chou_kind(s, o.card, kind), i,
                          f"seat {s} takes {o.card} by {kind}, a 臭 card for it")
            elif kind == "pao" and o.exposer != s and o.source == "discard" \
                    and self.table_of(s, o.card, ("wei", "chou_wei")):
                self.flag("wei_pao_on_discard", i, f"seat {s} 跑s its 偎 of {o.card} on a "
                          "discarded card")
            else:
                self.flag("illegal_claim", i, f"seat {s} {kind} {o.card}: the referee finds "
                          "no such claim")
        tier = self.r.tier(kind)
        for u, uopts in o.options.items():
            if u == s or u in o.passed:
                continue
            for x in uopts:
                name = x.rstrip("!")
                if self.r.tier(name) < tier and not (name == "hu" and self.hu_is_optional(u)):
                    self.flag("priority", i, f"seat {s} {kind} {o.card} while seat {u} "
                              f"could {name} and did not pass")

    def hu_is_optional(self, u: int) -> bool:
        # a seat that could win but was asked nothing cannot pass; missed wins are their own kind
        o = self.offer
        return o is not None and "hu" not in o.offered.get(u, set())

    def chou_kind(self, s: int, c: str, kind: str) -> str:
        if kind == "chi" and c in self.chou[s]["from_peng"] and c not in self.own[s]:
            return "chou_peng_blocks_chi"
        return "chou_taken"

    def close_offer(self, i: int, taker: int | None, taken: str = "") -> None:
        o = self.offer
        if o is None or o.closed:
            return
        o.closed = True
        self.offer = None if o.source in POST else o
        won = self.win is not None and self.win.get("offer") is o
        # offered 臭 claims
        for s, kinds in o.offered.items():
            for k in ("chi", "peng"):
                if k in kinds and o.card and o.source in ("draw", "discard") \
                        and self.blocked(s, o.card, k, o.source):
                    self.flag(self.chou_kind(s, o.card, k).replace("taken", "offered"), i,
                              f"seat {s} is offered {k} {o.card}, a 臭 card for it")
        # 臭 marks: a seat that passed on a 吃/碰 it could make
        for s in o.passed:
            # what it passed: what it was offered (when known) that the referee also finds
            opts = o.options.get(s, set())
            if self.decisions:
                opts = opts & o.offered.get(s, set())
            if s == taker:
                opts = opts - {taken}   # passed one claim, took another (碰 asked before 吃)
            # scope both reaches the other kind only for a seat that took neither (003
            # "可以吃、碰却选择不吃、不碰时"): one that passed the 碰 and took the 吃 chose to 吃
            cross = self.r.chou_scope == "both" and s != taker
            if "peng" in opts and self.r.chou_peng:
                self.chou[s]["peng"].add(o.card)
                if cross:
                    self.chou[s]["chi"].add(o.card)
                    self.chou[s]["from_peng"].add(o.card)
            if "chi" in opts and self.r.chou_chi:
                self.chou[s]["chi"].add(o.card)
                if cross:
                    self.chou[s]["peng"].add(o.card)
            if "hu" in o.offered.get(s, set()):
                self.passed_hu[s] = True
            if s in o.hu_totals and self.r.chou_hu:
                self.declined_hu[s][o.card] = o.hu_totals[s]
        # forced 跑 not made
        if not won:
            for s, opts in o.options.items():
                if "pao!" in opts and not any(ev is o for ev in ()):
                    if not self.pao_done(s, o, i):
                        self.flag("forced_missing", i, f"seat {s} did not 跑 {o.card}")
        # a 胡 offered where the referee finds no win (special wins are not modelled)
        if not self.r.special:
            for s, kinds in o.offered.items():
                if "hu" in kinds and s not in o.hu_totals:
                    why = self.judge.data_wei_pao(self, s, o.card or None, o.source, o.exposer)
                    self.flag("hu_offered_no_win" + why, i, f"seat {s} is offered 胡 on "
                              f"{o.card or 'its hand'} ({o.source}): the referee finds no win")
        # missed wins
        if not won and self.decisions:
            for s, total in o.hu_totals.items():
                if "hu" not in o.offered.get(s, set()) and not self.judge.unmodelled_decline(
                        self, s):
                    why = self.judge.explain(self, s, o.card or None, o.source, o.exposer, total)
                    self.flag("missed_win" + (":" + why if why else ""), i,
                              f"seat {s} could win {total} 胡息 on {o.card or 'its hand'} "
                              f"({o.source}) and was not offered 胡")

    def pao_done(self, s: int, o: Offer, i: int) -> bool:
        ev = self.rec["events"][i] if i < len(self.rec["events"]) else {}
        return ev.get("kind") == "pao" and ev.get("seat") == s

    # ------------------------------------------------------------------ the end
    def ev_hu(self, e: Mapping[str, Any], i: int) -> None:
        o = self.offer
        self.win = {"offer": o, "seat": e["seat"], "card": e.get("card"), "index": i}
        self.judge.check_win(self, e, i)
        self.close_offer(i, e["seat"])

    def ev_tianhu(self, e: Mapping[str, Any], i: int) -> None:
        self.win = {"offer": None, "seat": e["seat"], "card": e.get("card"), "index": i,
                    "tianhu": True}

    def ev_huangzhuang(self, e: Mapping[str, Any], i: int) -> None:
        self.close_offer(i, None)
        if self.ptr != len(self.wall):
            self.flag("wall_order", i, f"荒庄 with {len(self.wall) - self.ptr} cards left")


def chi_plan(hand: Counter[str], c: str) -> bool:
    """Whether a 吃 of ``c`` exists with its 比: a group holding ``c`` and two hand cards, then
    every copy of ``c`` still in the hand in a further group (003 "顺序为先吃牌，再比牌"), no
    card of a 坎 used (000 §永州双王扯胡子规则 "一坎牌不能拆散")."""
    if hand[c] >= 3:
        return False
    free = Counter({x: n for x, n in hand.items() if n < 3 and x != KING})
    for group in groups_with(c):
        rest = list(group)
        rest.remove(c)
        if can_take(free, rest):
            left = free - Counter(rest)
            for after in bi_plans(left, c, left[c]):
                if can_discard(after):
                    return True
    return False


def bi_plans(free: Counter[str], c: str, copies: int):  # type: ignore[no-untyped-def]
    """Every hand left (of the free cards) once ``copies`` of ``c`` are laid in 比 groups."""
    if copies == 0:
        yield free
        return
    for group in groups_with(c):
        if can_take(free, group):
            yield from bi_plans(free - Counter(group), c, copies - 1)


def can_discard(hand: Counter[str]) -> bool:
    """Whether a hand keeps a card it may discard: not of a 坎, not a 王 (digest G12: a 吃 or 碰
    must leave a discard; 000 §永州双王扯胡子规则 a 王霸 "不能打出")."""
    return any(0 < n < 3 and x != KING for x, n in hand.items())


def can_take(free: Counter[str], cards: Sequence[str]) -> bool:
    return all(free[x] >= n for x, n in Counter(cards).items())


_GROUPS: dict[str, list[list[str]]] = {}


def groups_with(c: str) -> list[list[str]]:
    """Every three-card 吃-type group (run, 一二三, 二七十, 绞) holding ``c``."""
    if c not in _GROUPS:
        out = []
        for a in TOKENS:
            for b in TOKENS:
                for d in TOKENS:
                    g = sorted([a, b, d])
                    if c in g and three_shape(g) not in (None, "kan") and g not in out:
                        out.append(g)
        _GROUPS[c] = out
    return _GROUPS[c]


__all__ = ["Disagreement", "Referee", "big", "chi_plan", "rank"]
