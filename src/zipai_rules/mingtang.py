"""名堂 (hand patterns) as data: facts measured on a finished hand, conditions over them,
effects on the score, and how patterns combine.

A variant lists its patterns under ``scoring.mingtang.patterns``; each has a ``name`` (a
canonical id, shown in the variant's words through ``terminology`` or its own ``term``), a
condition (``when``: every listed condition must hold; ``unless``: result labels that exclude
it), its effects, and an optional exclusive ``group``. The older ``scoring.bonuses`` are
patterns too (:func:`from_bonus`): a bonus is a pattern whose condition is its label.

Facts (:data:`FACTS`), all counts over the winner's hand plus table at the win (the winning
decomposition, the winning card included):

* ``red`` / ``black``: cards of rank 2, 7, 10 / of any other rank; a 王 counts as
  ``scoring.mingtang.kings`` says (``as_stood_for``: as the card it stands for in its meld, a
  王 left over counting as neither; ``neither``; ``red``; ``black``);
* ``small`` / ``big``: small (x) and big (d) cards, a 王 as the card it stands for under
  ``as_stood_for``, else neither;
* ``kings``: 王 in the winning hand;
* ``groups``, ``sequences`` (吃-shaped groups: shun, yi_er_san, er_qi_shi, jiao), ``sets``
  (kan, peng, wei, chou_wei, ti, pao), and ``melds_<kind>`` for every meld kind; each of these
  (and ``hand_groups``) may count only the groups matching a ``where`` filter (:class:`Where`:
  meld kinds, colour, size, small or big), e.g. two red 坎/偎/碰 for 双飘;
* ``hand_cards`` / ``hand_groups``: cards and groups concealed in the winner's hand at the win
  (not in a table meld; the won card counted where it joined the hand, and a card left over
  counted too): 耍猴, the hand held only the 将, is ``hand_cards`` equals 2;
* ``winning_kind``: cards of the winning card's kind (0 when the win had no card);
* ``huxi``: the 胡息 of the win before any pattern.

Labels (:data:`LABELS`): the result's own (``zimo`` 自摸, ``tianhu`` 天胡, ``dihu`` 地胡, a special
win's name) and those measured here: ``haidi`` (海底: won on one's own or another's draw of the
last wall card) and ``won_on_ti`` / ``won_on_pao`` / ``won_on_wei`` (the winning card lies in a
提 / 跑 of the winning decomposition, on the table or made of a 坎 in the hand, or in a table
偎 made of one's own draw: 提龙胡, 开跑胡, 偎起胡).

Effects, applied in this order by :func:`zipai_rules.settlement.settle`: ``set_huxi`` (the
win counts that 胡息: 湘乡's 100 胡息 hands; the first applying pattern that sets it decides),
``add_huxi``, then ``multiply_huxi`` (before conversion), the conversion, ``multiply_units``,
then ``add_units`` and ``per`` (units or 胡息 per count of a fact above a threshold; a ``per``
胡息 is added with ``add_huxi``; a ``per.add_multiplier`` adds to the summed unit multiplier,
宁乡 加红: each red card above 13 adds 1 番). Multipliers stack by product (``stack: product``,
×2 and ×3 make ×6) or by sum (``stack: sum``: ×2 and ×3 make ×5); ``max_multiplier`` caps
each stacked multiplier (封顶). Of the patterns of one ``group`` that apply, only the first
listed does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from .cards import KING, is_big, rank_of
from .frozen import derived
from .hooks import SPECIAL_WINS
from .melds import CHI_SHAPES, QUADS, TRIPLES, Meld, MeldKind, every_meld
from .vocab import Label, Source

RED_RANKS = frozenset({2, 7, 10})
"""Ranks of the red cards (二, 七, 十)."""

KING_POLICIES = ("as_stood_for", "neither", "red", "black")
"""How a 王 counts for ``red``/``black``/``small``/``big`` (``scoring.mingtang.kings``)."""

FACTS: dict[str, str] = {
    "red": "red cards (ranks 2, 7, 10) in hand plus table",
    "black": "black cards (every other rank) in hand plus table",
    "small": "small cards (x1..x10) in hand plus table",
    "big": "big cards (d1..d10) in hand plus table",
    "kings": "王 in the winning hand",
    "groups": "groups of the winning decomposition",
    "sequences": "吃-shaped groups (shun, yi_er_san, er_qi_shi, jiao)",
    "sets": "kan, peng, wei, chou_wei, ti and pao groups",
    **{f"melds_{k.value}": f"{k.value} groups" for k in MeldKind},
    "hand_cards": "cards concealed in the winner's hand at the win (the won card where it "
                  "joined the hand)",
    "hand_groups": "groups concealed in the winner's hand at the win",
    "winning_kind": "cards of the winning card's kind (0 when the win had no card)",
    "huxi": "胡息 of the win before any pattern",
}
"""Every fact a condition may name, with what it counts."""

GROUP_FACTS: dict[str, Callable[[GroupLike], bool]] = {}
"""The facts that count groups, each with the test a group passes to be counted: these
accept a ``where`` filter (filled in below, once :class:`GroupLike` is defined)."""

MEASURED_LABELS = ("haidi", "won_on_ti", "won_on_pao", "won_on_wei")
"""The labels measured here (the others come with the result)."""

LABELS: tuple[str, ...] = (*(x.value for x in Label if x.value not in SPECIAL_WINS),
                           *SPECIAL_WINS, *MEASURED_LABELS)
"""Every label a condition, a bonus or an ``unless`` may name."""

_WON_ON = {MeldKind.TI: "won_on_ti", MeldKind.PAO: "won_on_pao", MeldKind.WEI: "won_on_wei"}


class GroupLike(Protocol):
    """A group of a decomposition (:class:`zipai_rules.analysis.Group`)."""

    @property
    def meld(self) -> Meld: ...
    @property
    def place(self) -> str: ...
    @property
    def kings(self) -> tuple[int, ...]: ...


class DecompositionLike(Protocol):
    """A decomposition (:class:`zipai_rules.analysis.Decomposition`)."""

    @property
    def groups(self) -> Sequence[GroupLike]: ...
    @property
    def leftover(self) -> tuple[int, ...]: ...


def _of_kind(kind: MeldKind) -> Callable[[GroupLike], bool]:
    return lambda g: g.meld.kind == kind


GROUP_FACTS.update({
    "groups": lambda g: True,
    "sequences": lambda g: g.meld.kind in CHI_SHAPES,
    "sets": lambda g: g.meld.kind in TRIPLES or g.meld.kind in QUADS,
    **{f"melds_{k.value}": _of_kind(k) for k in MeldKind},
    "hand_groups": lambda g: g.place != "table",
})


def group_cards(group: GroupLike, kings: str) -> list[int]:
    """The cards of ``group`` as the card facts count them: a 王 as the card it stands for
    under ``kings: as_stood_for``, else as :data:`~zipai_rules.cards.KING`."""
    stand_ins = list(group.kings)
    out: list[int] = []
    for c in group.meld.cards:
        if c in stand_ins and kings != "as_stood_for":
            stand_ins.remove(c)
            out.append(KING)
        else:
            out.append(c)
    return out


def _kinds(value: Iterable[str] | None) -> frozenset[MeldKind] | None:
    return None if value is None else frozenset(MeldKind(k) for k in value)


@attrs.frozen(slots=True)
class Where:
    """A filter on the groups a group fact counts (``when[..].where``): every field
    optional, all given must hold. ``kind``: the group's meld kind is one of these;
    ``color``: ``red`` (every card red), ``black`` (no card red) or ``mixed`` (neither: some
    red and some black, or a 王 counting as no colour); ``size``: cards in the group (2 for a
    将, 3, or 4 for a 提/跑); ``cards``: ``small`` (every card small) or ``big``. A 王 counts
    as ``scoring.mingtang.kings`` says, as for the card facts."""

    kind: frozenset[MeldKind] | None = attrs.field(default=None, converter=_kinds)
    color: str | None = None
    size: int | None = None
    cards: str | None = None
    #: the filter written out, canonical: ``kind=kan,peng;color=red`` (:meth:`_written`,
    #: once: a settlement reads it for each group of a win)
    key: str = derived()

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "key", self._written())

    def _written(self) -> str:
        parts = []
        if self.kind is not None:
            parts.append("kind=" + ",".join(sorted(k.value for k in self.kind)))
        for name in ("color", "size", "cards"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        return ";".join(parts)

    def matches(self, group: GroupLike, kings: str) -> bool:
        """Whether ``group`` passes the filter, its 王 counted under the ``kings`` policy."""
        if self.kind is not None and group.meld.kind not in self.kind:
            return False
        if self.size is not None and len(group.meld.cards) != self.size:
            return False
        if self.color is None and self.cards is None:
            return True
        cards = group_cards(group, kings)
        if self.color is not None and _color(cards, kings) != self.color:
            return False
        if self.cards is not None:
            want = self.cards == "big"
            return all(c != KING and is_big(c) == want for c in cards)
        return True


def _color(cards: Sequence[int], kings: str) -> str:
    """``red``, ``black`` or ``mixed`` (``where.color``) of a group's cards."""
    seen = {kings if c == KING and kings in ("red", "black") else "none" if c == KING
            else "red" if rank_of(c) in RED_RANKS else "black" for c in cards}
    return seen.pop() if len(seen) == 1 and "none" not in seen else "mixed"


def _where(value: Any) -> Where | None:
    return value if value is None or isinstance(value, Where) else Where(**dict(value))


class ResultLike(Protocol):
    """What is read of a result (:class:`zipai_rules.engine.state.Result`)."""

    @property
    def card(self) -> int | None: ...
    @property
    def source(self) -> Source | None: ...
    @property
    def huxi(self) -> int: ...
    @property
    def labels(self) -> tuple[Label, ...]: ...
    @property
    def flipped(self) -> int | None: ...
    @property
    def decomposition(self) -> DecompositionLike | None: ...


@attrs.frozen(slots=True)
class Condition:
    """One condition: the result carries ``label``, or ``fact`` lies within ``at_least`` ..
    ``at_most`` and equals ``equals`` (each bound optional, all inclusive). ``where``: a group
    fact (:data:`GROUP_FACTS`) counts only the groups the :class:`Where` filter passes."""

    label: str | None = None
    fact: str | None = None
    at_least: int | None = None
    at_most: int | None = None
    equals: int | None = None
    where: Where | None = attrs.field(default=None, converter=_where)
    #: the measured fact the condition reads: ``fact``, or with a filter ``fact[filter]``
    #: (``sets[color=red;kind=kan,peng,wei]``); worked out once
    key: str = derived()

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "key", fact_key(self.fact or "", self.where))

    def holds(self, facts: Mapping[str, int], labels: frozenset[str]) -> bool:
        """Whether the condition holds for measured ``facts`` and ``labels`` (a filtered
        group count not measured is 0, as the group counts of
        :func:`zipai_rules.worth.card_facts`, which no split-reading 名堂 is scored from)."""
        if self.label is not None:
            return self.label in labels
        value = facts[self.key] if self.where is None else facts.get(self.key, 0)
        return ((self.at_least is None or value >= self.at_least)
                and (self.at_most is None or value <= self.at_most)
                and (self.equals is None or value == self.equals))


def fact_key(fact: str, where: Where | None) -> str:
    """The key of a measured fact: ``fact``, or ``fact[<where.key>]`` with a filter."""
    return fact if where is None else f"{fact}[{where.key}]"


def _conditions(value: Any) -> tuple[Condition, ...]:
    items = [value] if isinstance(value, Mapping) else list(value)
    return tuple(c if isinstance(c, Condition) else Condition(**dict(c)) for c in items)


@attrs.frozen(slots=True)
class Per:
    """``per``: ``add_units`` units and ``add_huxi`` 胡息 per count of ``fact`` above
    ``above`` (``max(fact − above, 0)`` times); ``add_multiplier``: added per count to the
    summed unit multiplier (``stack: sum`` only; 宁乡 加红, each red card above 13 adds 1
    番)."""

    fact: str
    above: int = 0
    add_units: int = 0
    add_huxi: int = 0
    add_multiplier: int = 0

    def times(self, facts: Mapping[str, int]) -> int:
        """How many times the effect applies."""
        return max(facts[self.fact] - self.above, 0)


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _patterns(value: Iterable[Any]) -> tuple[Pattern, ...]:
    return tuple(p if isinstance(p, Pattern) else Pattern(**dict(p)) for p in value)


def _per(value: Any) -> Per | None:
    return value if value is None or isinstance(value, Per) else Per(**dict(value))


@attrs.frozen(slots=True)
class Pattern:
    """One 名堂: ``name`` (canonical id; ``term`` its own word, else the variant's terminology),
    the conditions ``when`` (all must hold) and ``unless`` (labels that exclude it), the
    effects (a set 胡息, 胡息 multiplier and addition, unit multiplier and addition, ``per``
    count) and the exclusive ``group`` (``None``: none). ``set_huxi``: the win counts this
    胡息 instead of its melds' (``None``: its own; 湘乡 100 胡息)."""

    name: str
    when: tuple[Condition, ...] = attrs.field(default=(), converter=_conditions)
    unless: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    multiply_huxi: int = 1
    add_huxi: int = 0
    multiply_units: int = 1
    add_units: int = 0
    per: Per | None = attrs.field(default=None, converter=_per)
    group: str | None = None
    term: str | None = None
    set_huxi: int | None = None

    def holds(self, facts: Mapping[str, int], labels: frozenset[str]) -> bool:
        """Whether the pattern's conditions hold and no ``unless`` label is carried."""
        for c in self.when:  # (a loop: a settlement asks this of every pattern per 胡息)
            if not c.holds(facts, labels):
                return False
        for u in self.unless:
            if u in labels:
                return False
        return True


def from_bonus(label: str, multiply_huxi: int, add_units: int, unless: Iterable[str]
               ) -> Pattern:
    """The pattern of a ``scoring.bonuses`` entry: its label is its name and condition."""
    return Pattern(label, (Condition(label=label),), tuple(unless), multiply_huxi=multiply_huxi,
                   add_units=add_units)


@attrs.frozen(slots=True)
class Mingtang:
    """``scoring.mingtang``: how a 王 counts (:data:`KING_POLICIES`), how multipliers stack
    (``product`` or ``sum``), the most a stacked multiplier may reach (``max_multiplier``,
    封顶; 0: no cap) and the ``patterns`` in order."""

    kings: str = "as_stood_for"
    stack: str = "product"
    patterns: tuple[Pattern, ...] = attrs.field(default=(), converter=_patterns)
    max_multiplier: int = 0


def filtered_facts(patterns: Iterable[Pattern]) -> tuple[tuple[str, Where], ...]:
    """The filtered group facts (``fact`` and ``where``) the conditions of ``patterns``
    read, each once."""
    out: dict[str, tuple[str, Where]] = {}
    for p in patterns:
        for c in p.when:
            if c.fact is not None and c.where is not None:
                out.setdefault(c.key, (c.fact, c.where))
    return tuple(out.values())


def measure(result: ResultLike, kings: str = "as_stood_for",
            filters: Iterable[tuple[str, Where]] = ()) -> dict[str, int]:
    """The :data:`FACTS` of a finished win (every fact 0 without a decomposition); ``kings``
    is the 王 policy; ``filters``: the filtered group facts to count besides
    (:func:`filtered_facts`), each under its :func:`fact_key`."""
    facts = dict.fromkeys(FACTS, 0)
    counted = [(fact_key(fact, where), GROUP_FACTS[fact], where) for fact, where in filters]
    for key, _, _ in counted:
        facts[key] = 0
    facts["huxi"] = result.huxi
    dec = result.decomposition
    if dec is None:
        return facts
    cards: list[int] = []
    for g in dec.groups:
        kind = g.meld.kind
        facts["groups"] += 1
        facts[f"melds_{kind.value}"] += 1
        facts["sequences"] += kind in CHI_SHAPES
        facts["sets"] += kind in TRIPLES or kind in QUADS
        if g.place != "table":
            facts["hand_groups"] += 1
            facts["hand_cards"] += len(g.meld.cards)
        for key, counts, where in counted:
            facts[key] += counts(g) and where.matches(g, kings)
        cards += group_cards(g, kings)
        facts["kings"] += len(g.kings)
    cards += dec.leftover
    facts["hand_cards"] += len(dec.leftover)
    facts["kings"] += dec.leftover.count(KING)
    count_cards(facts, cards, kings)
    if result.card is not None and result.card != KING:
        facts["winning_kind"] = sum(1 for g in dec.groups for c in g.meld.cards
                                    if c == result.card) + dec.leftover.count(result.card)
    return facts


def count_cards(facts: dict[str, int], cards: Iterable[int], kings: str) -> None:
    """Add ``cards`` (card indices, a 王 as :data:`~zipai_rules.cards.KING`) to the ``red`` /
    ``black`` and ``small`` / ``big`` counts of ``facts``; a 王 counts as the ``kings``
    policy says (``red``, ``black``: that colour; else neither, nor small or big)."""
    for c in cards:
        if c == KING:
            if kings in ("red", "black"):
                facts[kings] += 1
            continue
        facts["red" if rank_of(c) in RED_RANKS else "black"] += 1
        facts["big" if is_big(c) else "small"] += 1


def labels_of(result: ResultLike) -> frozenset[str]:
    """The result's labels and the :data:`MEASURED_LABELS` that hold."""
    out = {str(x) for x in result.labels}
    if result.source in (Source.SELF, Source.DRAW) and result.flipped is None:
        out.add("haidi")
    dec = result.decomposition
    if dec is not None and result.card is not None and result.card != KING:
        for g in dec.groups:
            kind = g.meld.kind
            if kind not in _WON_ON or result.card not in g.meld.cards:
                continue
            # a 提 or 跑 holds every copy of its card, so the won card lies in it wherever it
            # was made (on a table 偎/碰 or on a 坎 in the hand); a 偎 holds only three and is
            # made only of one's own draw: a card won from another seat lies elsewhere
            if kind != MeldKind.WEI or result.source == Source.SELF:
                out.add(_WON_ON[kind])
    return frozenset(out)


def applying(patterns: Iterable[Pattern], facts: Mapping[str, int], labels: frozenset[str]
             ) -> tuple[Pattern, ...]:
    """The patterns that apply, in their order: those whose conditions hold, and of each
    exclusive group only the first listed of these."""
    taken: set[str] = set()
    out: list[Pattern] = []
    for p in patterns:
        if not p.holds(facts, labels) or (p.group is not None and p.group in taken):
            continue
        if p.group is not None:
            taken.add(p.group)
        out.append(p)
    return tuple(out)


def producible_labels(doc: Mapping[str, Any]) -> dict[str, str]:
    """Of :data:`LABELS`, those a normalised variant mapping ``doc`` cannot produce, each with
    the reason (``{"dihu": "win.dihu is none"}``)."""
    win = doc["win"]
    sources = set(win["sources"])
    th = win["tianhu"]
    out: dict[str, str] = {}
    can_tianhu = bool(th["ti"] or th["kan"] or th["optional_dealer_win"])
    if not can_tianhu:
        out["tianhu"] = "win.tianhu has no 天胡 (ti 0, kan 0, no optional_dealer_win)"
    if "self" not in sources and not (can_tianhu and doc["deal"]["lianzhang_is_draw"]):
        out["zimo"] = "win.sources has no self"
    if win["dihu"] == "none":
        out["dihu"] = "win.dihu is none"
    elif win["dihu"] == "lianzhang" and "discard" not in sources:
        out["dihu"] = "win.dihu is lianzhang (a win on the 亮张 as a discard) but win.sources " \
            "has no discard"
    if not win.get("jushou", False):
        out["jushou"] = "win.jushou is false"
    if not sources & {"self", "draw"}:
        out["haidi"] = "win.sources has neither self nor draw"
    for name in SPECIAL_WINS:
        if name not in win["special"]:
            out[name] = "win.special does not list it"
    return out


_MELD_SIZE = {MeldKind.JIANG: 2, MeldKind.TI: 4, MeldKind.PAO: 4}


def reach(doc: Mapping[str, Any]) -> dict[str, int]:
    """A safe upper bound of every fact but ``huxi`` on the winning hand of a normalised
    variant mapping ``doc`` (``huxi`` is left unbounded: fixed-value and instant wins score
    outside the meld count).

    Counting a 提 or 跑 as three cards, a player never holds more than ``E = max(dealer_hand,
    other_hand) + 1`` cards: the deal plus the card just taken, as every take is followed by a
    discard or completes a 提/跑 (whose fourth card is not counted). Each 提/跑 adds that fourth
    card to a group of three, so hand plus table hold at most ``C = E + E // 3`` cards (29 for a
    21-card deal). The card facts are also bounded by the deck, a 王 counting as any card:
    ``red`` by 6 kinds × copies + 王, ``black`` by 14 kinds, ``small`` and ``big`` by 10;
    ``kings`` by the deck's 王; ``winning_kind`` by copies + 王. A group holds at least 2 cards
    (a 将), a 吃 shape or a set at least 3, a 提/跑 4: ``groups`` ≤ ``C // 2``, ``sequences``
    and ``sets`` ≤ ``C // 3``, ``melds_<kind>`` ≤ ``C //`` its size."""
    held = max(doc["deal"]["dealer_hand"], doc["deal"]["other_hand"]) + 1
    cards = held + held // 3
    copies, kings = doc["deck"]["copies"], doc["deck"]["kings"]
    out = {"red": 6 * copies + kings, "black": 14 * copies + kings,
           "small": 10 * copies + kings, "big": 10 * copies + kings, "kings": kings,
           "groups": cards // 2, "sequences": cards // 3, "sets": cards // 3,
           **{f"melds_{k.value}": cards // _MELD_SIZE.get(k, 3) for k in MeldKind},
           "hand_cards": cards, "hand_groups": cards // 2,
           "winning_kind": copies + kings}
    return {f: min(bound, cards) for f, bound in out.items()}


def problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The label and fact problems of a normalised variant mapping, as ``(yaml path,
    message)``: every label of ``scoring.bonuses`` and ``scoring.mingtang`` must be one of
    :data:`LABELS` the variant can produce, every fact one of :data:`FACTS`; a fact condition
    needs a bound, its bounds a non-empty range within the fact's :func:`reach` (an
    ``at_least`` or ``equals`` above it never holds, a ``per.above`` at or above it never
    adds); pattern names are unique."""
    out: list[tuple[str, str]] = []
    cannot = producible_labels(doc)
    most = reach(doc)

    def beyond(name: str, value: int) -> str:
        if name == "kings" and most[name] == 0:
            return "counts 王 in a deck without 王"
        return f"{name} {value} is above the most a winning hand can hold ({most[name]})"

    def label(path: str, name: str) -> None:
        if name not in LABELS:
            out.append((path, f"unknown label {name!r}; known: {', '.join(LABELS)}"))
        elif name in cannot:
            out.append((path, f"label {name!r} can never be given here: {cannot[name]}"))

    def fact(path: str, name: str) -> None:
        if name not in FACTS:
            out.append((path, f"unknown fact {name!r}; known: {', '.join(FACTS)}"))

    sc = doc["scoring"]
    stack = sc.get("mingtang", {}).get("stack", "product")
    for k, b in enumerate(sc["bonuses"]):
        label(f"scoring.bonuses[{k}].label", b["label"])
        for j, u in enumerate(b["unless"]):
            label(f"scoring.bonuses[{k}].unless[{j}]", u)
    seen: set[str] = set()
    for k, p in enumerate(sc.get("mingtang", {}).get("patterns", [])):
        at = f"scoring.mingtang.patterns[{k}]"
        if p["name"] in seen:
            out.append((f"{at}.name", f"pattern {p['name']!r} is listed twice"))
        seen.add(p["name"])
        when = p["when"]
        for j, c in enumerate([when] if isinstance(when, Mapping) else when):
            cat = f"{at}.when" if isinstance(when, Mapping) else f"{at}.when[{j}]"
            if ("label" in c) == ("fact" in c):
                out.append((cat, "a condition names either a label or a fact"))
            elif "label" in c:
                label(f"{cat}.label", c["label"])
                if set(c) - {"label"}:
                    out.append((cat, "a label condition has no bounds"))
            else:
                fact(f"{cat}.fact", c["fact"])
                if "where" in c:
                    out += where_problems(f"{cat}.where", c["fact"], c["where"])
                if not set(c) & {"at_least", "at_most", "equals"}:
                    out.append((cat, "a fact condition needs at_least, at_most or equals"))
                elif c.get("at_least", 0) > c.get("at_most", c.get("at_least", 0)):
                    out.append((cat, f"at_least {c['at_least']} is above at_most "
                                f"{c['at_most']}"))
                elif c["fact"] in most:
                    for key in ("at_least", "equals"):
                        if c.get(key, 0) > most[c["fact"]]:
                            out.append((f"{cat}.{key}", beyond(c["fact"], c[key])
                                        + ": it can never hold"))
        for j, u in enumerate(p["unless"]):
            label(f"{at}.unless[{j}]", u)
        if "per" in p:
            fact(f"{at}.per.fact", p["per"]["fact"])
            if not (p["per"].get("add_units") or p["per"].get("add_huxi")
                    or p["per"].get("add_multiplier")):
                out.append((f"{at}.per", "a per-count effect needs add_units or add_huxi "
                            "(or add_multiplier)"))
            if p["per"].get("add_multiplier") and stack != "sum":
                out.append((f"{at}.per.add_multiplier", "adds to a summed multiplier: it needs "
                            f"scoring.mingtang.stack: sum (not {stack})"))
            above = p["per"].get("above", 0)
            if p["per"]["fact"] in most and above >= most[p["per"]["fact"]]:
                out.append((f"{at}.per.above", f"{p['per']['fact']} never exceeds {above} "
                            f"(a winning hand holds at most {most[p['per']['fact']]}): the "
                            "per-count never adds"))
        if not (p.get("add_huxi", 0) or p.get("add_units", 0) or p.get("multiply_huxi", 1) != 1
                or p.get("multiply_units", 1) != 1 or "per" in p or "set_huxi" in p):
            out.append((at, f"pattern {p['name']!r} has no effect: give set_huxi, "
                            "multiply_huxi, add_huxi, multiply_units, add_units or per"))
    return out


def where_problems(path: str, fact: str, where: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The problems of a ``where`` filter at ``path`` on the condition fact ``fact``: only a
    group fact (:data:`GROUP_FACTS`) takes one, and some meld must pass both the fact and the
    filter's ``kind``, ``size`` and ``cards`` (a 绞 is neither small nor big; ``color`` is not
    judged here, a 王 may count as either)."""
    if fact not in GROUP_FACTS:
        return [(path, f"only a fact that counts groups takes a filter ({', '.join(GROUP_FACTS)}"
                 f"), not {fact!r}")]
    shape = Where(**{k: v for k, v in where.items() if k != "color"})
    if not any(GROUP_FACTS[fact](g) and shape.matches(g, "as_stood_for")
               for g in map(_Probe, every_meld())):
        return [(path, f"no group passes both {fact} and this filter: the count is always 0")]
    return []


@attrs.frozen(slots=True)
class _Probe:
    """A group of one meld in the hand, to ask a :data:`GROUP_FACTS` test and a filter of a
    meld."""

    meld: Meld
    place: str = "hand"
    kings: tuple[int, ...] = ()


def _ranges(conditions: Iterable[Condition]) -> tuple[frozenset[str], dict[str, tuple[int, float]]]:
    """The labels ``conditions`` require and, per fact, the range they allow (a fact counts
    from 0)."""
    labels: set[str] = set()
    ranges: dict[str, tuple[int, float]] = {}
    for c in conditions:
        if c.label is not None:
            labels.add(c.label)
            continue
        lo, hi = ranges.get(c.key, (0, float("inf")))
        for low in (c.at_least, c.equals):
            lo = max(lo, low) if low is not None else lo
        for high in (c.at_most, c.equals):
            hi = min(hi, high) if high is not None else hi
        ranges[c.key] = (lo, hi)
    return frozenset(labels), ranges


def covers(first: Pattern, later: Pattern) -> bool:
    """Whether ``first`` holds whenever ``later`` does: every label ``first`` requires
    ``later`` requires too, every fact range of ``first`` holds all of ``later``'s, and every
    ``unless`` of ``first`` is one of ``later``'s. Listed before it in one exclusive group,
    ``first`` then always takes the group and ``later`` never applies."""
    labels, ranges = _ranges(first.when)
    later_labels, later_ranges = _ranges(later.when)
    if not labels <= later_labels or not set(first.unless) <= set(later.unless):
        return False
    for fact, (lo, hi) in ranges.items():
        got_lo, got_hi = later_ranges.get(fact, (0, float("inf")))
        if got_lo < lo or got_hi > hi:
            return False
    return True


def never_applying(patterns: Sequence[Pattern]) -> list[tuple[int, int]]:
    """``(later, first)`` index pairs of ``patterns`` (one variant's ``mingtang.patterns``, in
    order) where ``later`` never applies: ``first``, listed before it in the same exclusive
    ``group``, :func:`covers` it (a weaker 红胡 ``red ≥ 10`` before a stronger 大红
    ``red ≥ 13``). ``zipai validate`` warns of each."""
    out: list[tuple[int, int]] = []
    for j, later in enumerate(patterns):
        if later.group is None:
            continue
        first = next((i for i, p in enumerate(patterns[:j])
                      if p.group == later.group and covers(p, later)), None)
        if first is not None:
            out.append((j, first))
    return out


@attrs.frozen(slots=True)
class Step:
    """One explained effect: ``item`` (``huxi_set``: the 胡息 the win counts, value that 胡息;
    ``multiplier``: 胡息 ×, value the 胡息 after; ``huxi_bonus``: 胡息 added;
    ``unit_multiplier``: units ×, value the units after; ``bonus``: units added; ``cap``: a
    stacked multiplier capped at ``max_multiplier``, value the 胡息 or units after), the
    pattern's ``term``, the ``text`` and the ``value``."""

    item: str
    term: str
    text: str
    value: int


@attrs.frozen(slots=True)
class Scoring:
    """The patterns that apply to one win (:func:`evaluate`), ready to score it: ``huxi``
    before the conversion, ``units`` after it. ``cap``: ``max_multiplier`` (0: none),
    ``cap_word`` the variant's word for it."""

    applied: tuple[Pattern, ...]
    facts: Mapping[str, int]
    stack: str
    words: tuple[str, ...]
    cap: int = 0
    cap_word: str = "fengding"

    def huxi(self, huxi: int) -> tuple[int, tuple[Step, ...]]:
        """The 胡息 after the set 胡息, the additions and multipliers, and the steps that
        explain it."""
        steps: list[Step] = []
        for p, w in zip(self.applied, self.words, strict=True):
            if p.set_huxi is not None:
                huxi = p.set_huxi
                steps.append(Step("huxi_set", w, f"{w}: counts as {huxi}", huxi))
                break
        huxi, steps = self._add(huxi, "add_huxi", "huxi_bonus", steps)
        return self._multiply(huxi, "multiplier", [p.multiply_huxi for p in self.applied],
                              steps)

    def units(self, units: int) -> tuple[int, tuple[Step, ...]]:
        """The units after the multipliers (a ``per.add_multiplier`` adding to their sum)
        and additions, and the steps that explain it."""
        added: list[tuple[int, str, str]] = []
        for p, w in zip(self.applied, self.words, strict=True):
            each = p.per.add_multiplier if p.per is not None else 0
            n = p.per.times(self.facts) if p.per is not None and each else 0
            if n and self.stack == "sum":
                added.append((n * each, w, f"{w} +{each} × {n}"))
        units, done = self._multiply(units, "unit_multiplier",
                                     [p.multiply_units for p in self.applied], [], added)
        units, steps = self._add(units, "add_units", "bonus", list(done))
        return units, tuple(steps)

    def _add(self, value: int, field: str, item: str, steps: list[Step]
             ) -> tuple[int, list[Step]]:
        """``value`` plus every applied pattern's ``field`` (``add_huxi`` or ``add_units``)
        and its per-count tail of the same field, each explained by a step."""
        for p, w in zip(self.applied, self.words, strict=True):
            add = getattr(p, field)
            if add:
                value += add
                steps.append(Step(item, w, f"{w} +{add}", add))
            each = getattr(p.per, field) if p.per is not None else 0
            n = p.per.times(self.facts) if p.per is not None and each else 0
            if n:
                value += n * each
                steps.append(Step(item, w, f"{w} +{each} × {n}", n * each))
        return value, steps

    def _multiply(self, base: int, item: str, factors: list[int], steps: list[Step],
                  added: Iterable[tuple[int, str, str]] = ()) -> tuple[int, tuple[Step, ...]]:
        """``base`` times the stacked ``factors`` (one per applied pattern, named by
        :attr:`words`) and, under ``stack: sum``, the per-count additions ``added`` to the sum
        (``(amount, word, text)``), capped at :attr:`cap`; a step per factor other than 1 and
        per addition, and one for the cap where it decides."""
        value, total = base, 0 if self.stack == "sum" else 1
        terms = [(m, w, f"{w} +×{m}") for m, w in zip(factors, self.words, strict=True)
                 if m != 1]
        for m, w, said in [*terms, *added]:
            if self.stack == "sum":
                total += m
                value = base * total
                text = f"{said} (×{total} in all)"
            else:
                total *= m
                value *= m
                text = f"{w} ×{m}"
            steps.append(Step(item, w, text, value))
        if self.cap and total > self.cap:
            value = base * self.cap
            steps.append(Step("cap", self.cap_word, f"×{total} capped at ×{self.cap}", value))
        return value, tuple(steps)


def evaluate(rules: Mingtang, patterns: Iterable[Pattern], result: ResultLike,
             word: Callable[[str], str]) -> Scoring:
    """Measure ``result`` (:func:`measure` with ``rules.kings``, :func:`labels_of`) and keep
    the ``patterns`` that apply (:func:`applying`); ``word`` gives the variant's word for a
    pattern name (a pattern's own ``term`` wins)."""
    patterns = tuple(patterns)
    return scored(rules, patterns, measure(result, rules.kings, filtered_facts(patterns)),
                  labels_of(result), word)


def scored(rules: Mingtang, patterns: Iterable[Pattern], facts: Mapping[str, int],
           labels: frozenset[str], word: Callable[[str], str] = str) -> Scoring:
    """:func:`evaluate` of facts and labels already measured."""
    applied = applying(patterns, facts, labels)
    return Scoring(applied, facts, rules.stack,
                   tuple(p.term or word(p.name) for p in applied), rules.max_multiplier,
                   word("fengding"))
