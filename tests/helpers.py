"""Helpers for engine tests: build full 80-card deals from partial specs and drive a Game.

Card lists are written in the library notation (``"x1 x2 d10"``); see
:func:`zipai_rules.cards.parse_indices`. Indices: small rank r → r-1, big rank r → 9+r.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from zipai_rules.cards import is_big, parse_indices, rank_of
from zipai_rules.engine import Action, ActionKind, Deal, Game
from zipai_rules.invariants import kind_counts
from zipai_rules.melds import Meld, MeldKind

__all__ = ["C", "c", "make_deal", "find", "kinds", "act", "pass_all", "drive_to", "total_counts",
           "meld"]


def C(text: str) -> list[int]:
    """Card indices of a card list."""
    return parse_indices(text) if text else []


def c(text: str) -> int:
    """The index of one card."""
    (i,) = parse_indices(text)
    return i


def meld(kind: str, text: str, claimed: str | None = None, bi: bool = False) -> Meld:
    return Meld(MeldKind(kind), tuple(C(text)), claimed=None if claimed is None else c(claimed),
                bi=bi)


def _as_list(spec: str | Iterable[int]) -> list[int]:
    return C(spec) if isinstance(spec, str) else list(spec)


def make_deal(hands: Mapping[int, str | Iterable[int]] | None = None,
              wall: str | Iterable[int] = "", *, dealer: int = 0, liang: str | None = None,
              avoid: Mapping[int, str | Iterable[int]] | None = None,
              wall_tail: str | Iterable[int] = "",
              players: int = 3, copies: int = 4, sizes: tuple[int, int, int] = (21, 20, 19)
              ) -> Deal:
    """Complete a deal from partial specs.

    ``hands``: seat → cards that seat must hold (the 亮张 excluded); ``liang``: the dealer's
    亮张 (their last card); ``wall``: the first wall cards (next draw first); ``wall_tail``: cards
    placed at the very end of the wall. The other cards of the 80 are spread over the hands
    (each filler card goes to the kind the seat holds fewest of, so filler rarely forms pairs
    and never a 坎 unless forced) and then the middle of the wall. ``avoid``: seat → card kinds
    that filler must not give that seat. Raises ``ValueError`` when the specs use a card more
    than four times or cannot be completed.
    """
    dealer_size, other_size, wall_size = sizes
    hands = dict(hands or {})
    avoid_sets = {s: set(_as_list(v)) for s, v in (avoid or {}).items()}
    chosen: dict[int, list[int]] = {s: _as_list(hands.get(s, "")) for s in range(players)}
    head = _as_list(wall)
    tail = _as_list(wall_tail)
    liang_card = c(liang) if liang is not None else None
    used = Counter(i for s in chosen.values() for i in s) + Counter(head) + Counter(tail)
    if liang_card is not None:
        used[liang_card] += 1
    for i, n in used.items():
        if n > copies:
            raise ValueError(f"card index {i} used {n} times")
    pool = Counter({i: copies - used.get(i, 0) for i in range(20)})
    want = {s: (dealer_size - (1 if liang_card is not None else 0) if s == dealer else other_size)
            for s in range(players)}
    for s in range(players):
        if len(chosen[s]) > want[s]:
            raise ValueError(f"seat {s}: {len(chosen[s])} cards specified, room for {want[s]}")
    # round-robin so that no seat takes the scarce kinds first
    while any(len(chosen[s]) < want[s] for s in range(players)):
        for s in range(players):
            if len(chosen[s]) >= want[s]:
                continue
            have = Counter(chosen[s])
            cands = [i for i in range(20) if pool[i] > 0 and i not in avoid_sets.get(s, ())
                     and have[i] < 2]
            if not cands:
                raise ValueError(f"cannot complete seat {s}")
            best = min(cands, key=lambda i: (have[i], -pool[i], i))
            chosen[s].append(best)
            pool[best] -= 1
    middle = [i for i in range(20) for _ in range(pool[i])]
    wall_cards = head + middle + tail
    if len(wall_cards) != wall_size:
        raise ValueError(f"wall has {len(wall_cards)} cards, want {wall_size}")
    out = []
    for s in range(players):
        h = list(chosen[s])
        if s == dealer and liang_card is not None:
            h.append(liang_card)
        out.append(tuple(h))
    return Deal(tuple(out), tuple(wall_cards), dealer)


def kinds(game: Game) -> list[ActionKind]:
    return [a.kind for a in game.legal_actions()]


def find(game: Game, kind: ActionKind | str, card: str | int | None = None,
         melds: tuple[Meld, ...] | None = None) -> Action:
    """The unique legal action of that kind (and card / plan); AssertionError if none."""
    kind = ActionKind(kind)
    idx = c(card) if isinstance(card, str) else card
    hits = [a for a in game.legal_actions() if a.kind == kind
            and (card is None or a.card == idx) and (melds is None or a.melds == melds)]
    assert hits, f"no legal {kind} {card} in {[str(a) for a in game.legal_actions()]}"
    assert len(hits) == 1 or melds is not None, f"several {kind}: {[str(a) for a in hits]}"
    return hits[0]


def act(game: Game, kind: ActionKind | str, card: str | int | None = None,
        melds: tuple[Meld, ...] | None = None):
    """Apply the legal action of that kind for the current actor; return its events."""
    return game.apply(find(game, kind, card, melds))


def self_win_asked(game: Game, seat: int):
    """Check that ``seat`` is asked 胡/过 on its own cards; win, and return the result and a
    copy of the game in which the seat passed instead."""
    assert (game.actor, game.state.phase, game.legal_actions()) == (
        seat, "hu_check", (Action(ActionKind.HU, seat), Action(ActionKind.PASS, seat)))
    declined = game.clone()
    declined.apply(Action(ActionKind.PASS, seat))
    huxi = game.state.plan(Action(ActionKind.HU, seat)).huxi
    act(game, "hu")
    assert game.result.huxi == huxi
    return game.result, declined


def pass_all(game: Game, limit: int = 20) -> list:
    """PASS while the actor is answering an exposed card; return the events."""
    events = []
    for _ in range(limit):
        if game.state.phase != "respond":
            break
        events += game.apply(Action(ActionKind.PASS, game.state.actor))
    return events


def drive_to(game, predicate, discard=None, take=None, limit=80):
    """Answer every decision until ``predicate(game)`` holds: discard ``discard[seat]`` (else the
    first option) when a discard is owed, take the action ``take(state)`` returns if any, else
    PASS. Returns the states decided on the way."""
    seen = []
    for _ in range(limit):
        if game.is_over or predicate(game):
            return seen
        st = game.state
        seen.append(st)
        chosen = take(st) if take else None
        if chosen is not None:
            game.apply(chosen)
        elif st.phase == "discard":
            want = (discard or {}).get(st.actor)
            game.apply(next(a for a in st.options if want is None or a.card == c(want)))
        else:
            game.apply(Action(ActionKind.PASS, st.actor))
    raise AssertionError("predicate never held")


def total_counts(state) -> Counter:
    """How many copies of each card kind are anywhere in the state (kinds with none left
    out), from :func:`zipai_rules.invariants.kind_counts`."""
    return Counter({i: k for i, k in enumerate(kind_counts(state)) if k})


def verdict(variant, hand, table=(), card=None, source=None, *, all_decompositions=False):
    """The win decision (``analysis.win_verdict``) on any cards, partial hands included:
    ``analyze`` without its check that a game can reach the situation. For tests of the
    decomposition itself (worked examples written as a few melds, reference comparisons)."""
    from zipai_rules.analysis import read_hand, read_table, win_verdict
    from zipai_rules.cards import card_index

    counts = read_hand(hand)[1]
    return win_verdict(variant, counts, read_table(table),
                       None if card is None else card_index(card), source,
                       all_decompositions=all_decompositions)


def record_states(record_file):
    """A record file replayed strictly, and the game's state at each step (0: after the deal,
    k: after action k): ``(game, states)``."""
    from zipai_rules.records import read_record, replay_record

    game, _ = replay_record(read_record(record_file))
    again = Game(game.variant, deal=game.deal)
    states = [again.state]
    for action in game.actions:
        again.apply(action)
        states.append(again.state)
    return game, states


def write(folder, name: str, text: str):
    """Write ``text`` (UTF-8) to the file ``name`` in ``folder`` (a pathlib.Path); its path."""
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def table_extra(variant, table) -> int:
    """The card-dependent 胡息 of the table melds (``huxi.extra``, 河池's red 跑), read from the
    variant's document: the reference decomposer knows only the Hunan table. The concealed
    cards hold no 提/跑, so the extra of a winning hand lies on its table."""
    extra = 0
    for e in variant.doc["huxi"].get("extra", ()):
        for m in table:
            if m.kind.value in e["kind"] and all(
                    rank_of(c) in e.get("ranks", range(1, 11))
                    and (e.get("cards") is None or is_big(c) == (e["cards"] == "big"))
                    for c in m.cards):
                extra += e["add"]
    return extra
