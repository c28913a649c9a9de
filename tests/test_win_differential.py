"""One win decision: ``analyze`` and the engine agree on every card on offer (issue: 破跑胡, 王
holders, impossible situations).

Random seeded games are played over every preset, never winning unless forced, so that many
cards are offered. Wherever a card is exposed (another seat's shown draw, a discard, one's own
shown draw) every seat that could take it is compared: ``analyze(variant, hand, melds, card,
source)`` says win with 胡息 X exactly when the engine offers that seat 胡 and taking it scores
X. After one's own forced 偎/提 (or a kept 王) the seat's hand as it stands is compared with
the engine's 自摸 check. Seats holding a 臭胡 mark for the card are left out (``analyze`` has no
memory of declined wins) and counted.

Run as a script for a count of comparisons::

    python tests/test_win_differential.py 200      # 200 games per preset
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_rules import analyze, load_preset, preset_ids
from zipai_rules.engine import ActionKind as A
from zipai_rules.engine import EventKind as E
from zipai_rules.engine import Game

PRESETS = preset_ids()
HAND_CHANGES = {E.TI, E.WEI, E.CHOU_WEI, E.PAO, E.CHI, E.PENG, E.DRAW_HIDDEN, E.NO_DISCARD}


def _engine_hu_offers(game: Game) -> dict[int, int]:
    """Seats the engine offers 胡 on the pending card now, each with the 胡息 taking it gives
    (played out on a clone: the seats before it pass)."""
    st_ = game.state
    p = st_.pending
    asked = [(st_.actor, st_.options)] + list(p.queue)
    out = {}
    for seat, opts in asked:
        if not any(o.kind == A.HU for o in opts):
            continue
        g = game.clone()
        while g.state.actor != seat:
            g.apply(next(o for o in g.legal_actions() if o.kind == A.PASS))
        g.apply(next(o for o in g.legal_actions() if o.kind == A.HU))
        out[seat] = g.result.huxi
    return out


def _analyze_offer(variant, seat_state, card, source):
    a = analyze(variant, seat_state.hand_indices, seat_state.melds, card, source)
    return a.huxi if a.win else None


class _Seat:
    """A seat's cards as ``analyze`` takes them."""

    def __init__(self, seat) -> None:
        self.hand_indices = [i for i, n in enumerate(seat.hand) for _ in range(n)]
        self.melds = seat.melds
        self.chou_hu_marks = seat.chou_hu_marks


def _compare_exposure(variant, seats, card, source, by, offers, tally):
    """Every seat that may be offered the card: analyze's verdict against the engine's."""
    n = len(seats)
    for s in range(n):
        if s == by and source == "discard":
            continue
        src = "self" if (s == by and source == "draw") else source
        if seats[s].dead:  # a 死手 holds a card more than analyze's live seat (digest G10)
            tally["skipped_dead"] += 1
            continue
        seat = _Seat(seats[s])
        if variant.win.chou_hu and any(c == card for c, _ in seat.chou_hu_marks):
            tally["skipped_chou_hu"] += 1
            continue
        want = _analyze_offer(variant, seat, card, src)
        got = offers.get(s)
        assert got == want, (f"seat {s} card {card} from {src}: engine offers "
                             f"{got}, analyze says {want}")
        tally["offers"] += 1
        tally["wins"] += want is not None


def play_and_compare(variant, seed: int, chooser: int, tally: Counter, max_steps: int = 400):
    """Play one game (random non-winning choices) and compare at every exposed card."""
    rng = random.Random(chooser)
    game = Game(variant, seed=seed)
    _check_deal(variant, game, tally)
    _check_state(variant, game, [], None, tally)
    while not game.is_over and len(game.actions) < max_steps:
        before = game.state
        opts = game.legal_actions()
        choice = [o for o in opts if o.kind != A.HU] or list(opts)
        action = rng.choice(choice)
        events = game.apply(action)
        _check_state(variant, game, events, (before, action), tally)
        if game.actions and game.is_over:
            _check_instant_end(variant, game, tally)


def _check_deal(variant, game, tally):
    """The dealt hands: ``analyze(..., dealt=True)`` wins exactly for the seat the engine lets
    win at the deal (天胡, a special win, or the dealer's optional 天胡), with its 胡息."""
    st_ = game.state
    r = st_.result
    if len(st_.wall) != variant.deal.wall:  # the deal already ran on (e.g. two dealt 提: no
        tally["dealt_ran_on"] += 1           # discard owed, the next seat drew)
        return
    for s, seat in enumerate(st_.seats):
        a = analyze(variant, _Seat(seat).hand_indices, seat.melds, dealt=True,
                    dealer=s == st_.dealer)
        if r is not None:
            if s == r.winner:
                assert (a.win, a.huxi) == (True, r.huxi), (s, a, r)
                tally["dealt_wins"] += 1
            continue  # another seat may hold a win too; the engine takes the first
        offered = st_.phase == "hu_check" and st_.actor == s
        assert a.win == offered, (s, a.reason, offered)
        tally["dealt_hands"] += 1


def _check_instant_end(variant, game, tally):
    """A hand ended by a special win after a forced 偎/提: ``analyze`` of that seat's cards as
    they stand gives the same win."""
    r = game.result
    if r is None or r.source is not None or not r.labels or r.decomposition is None \
            or r.decomposition.special is None:
        return
    seat = game.state.seats[r.winner]
    a = analyze(variant, _Seat(seat).hand_indices, seat.melds,
                dealer=r.winner == game.state.dealer)
    assert (a.win, a.huxi, a.best.special) == (True, r.huxi, r.decomposition.special)
    tally["instant_wins"] += 1


def _check_state(variant, game, events, previous, tally):
    st_ = game.state
    # the decision state reached: a fresh exposure the engine asks about
    fresh = None
    for k, e in enumerate(events):
        if e.kind in (E.DISCARD, E.DRAW) and e.card is not None and e.card < 20:
            fresh = k
    if fresh is not None and st_.pending is not None and st_.phase == "respond" \
            and events[fresh].card == st_.pending.card:
        p = st_.pending
        hu_tier = next((t for t, kinds in enumerate(variant.claims.priority) if "hu" in kinds),
                       None)
        offers = _engine_hu_offers(game) if p.tier == hu_tier else {}
        _compare_exposure(variant, st_.seats, p.card, p.source, p.by, offers, tally)
    elif fresh is not None and previous is not None and \
            not any(x.kind in HAND_CHANGES for x in events[:fresh]):
        # an exposure that nobody was asked about: the seats then were the seats before this
        # decision, less a discarded card (nothing else changed a hand before it)
        before, action = previous
        e = events[fresh]
        if any(x.kind in (E.PASS,) for x in events[:fresh]) and before.phase == "respond":
            return  # 臭 marks of this decision: compared where the engine asks instead
        seats = list(before.seats)
        if action.kind == A.DISCARD:
            hand = list(seats[action.seat].hand)
            hand[action.card] -= 1
            seats[action.seat] = attrs.evolve(seats[action.seat], hand=tuple(hand))
        source = "discard" if e.kind == E.DISCARD else "draw"
        _compare_exposure(variant, seats, e.card, source, e.seat, {}, tally)
        tally["unasked"] += 1
    if st_.phase == "hu_check":
        seat = _Seat(st_.seats[st_.actor])
        kept = st_.pending  # a kept draw (claims.own_draw: kept) waits outside the hand
        a = analyze(variant, seat.hand_indices, seat.melds,
                    **({} if kept is None else {"card": kept.card, "source": "self"}))
        assert a.win and "self" in variant.win.sources, "engine offers 自摸 analyze refuses"
        g = game.clone()
        g.apply(next(o for o in g.legal_actions() if o.kind == A.HU))
        assert g.result.huxi == a.huxi
        tally["self_checks"] += 1


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=max(3, settings.default.max_examples // 6))
@given(seed=st.integers(0, 2**31 - 1), chooser=st.integers(0, 2**31 - 1))
def test_analyze_agrees_with_the_engine(preset, seed, chooser):
    tally: Counter = Counter()
    play_and_compare(load_preset(preset), seed, chooser, tally)
    assert tally["offers"] > 0


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 50
    total: Counter = Counter()
    for preset in PRESETS:
        tally: Counter = Counter()
        v = load_preset(preset)
        for g in range(games):
            play_and_compare(v, g, g, tally)
        print(f"{preset:16} {dict(tally)}")
        total.update(tally)
    print(f"total: {dict(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


# --- the quick refusal against the full win check ---------------------------------------------

#: the reasons of a hand that has a split the table allows (the quick refusal knowing the table
#: claims it has none)
SPLIT = (None, "below_min_huxi")


def compare_pruned(variant, seed: int, chooser: int, tally: Counter, every: int = 7) -> None:
    """Play a game with random choices; at every ``every``-th decision, for each live seat and
    each card from each source, the win check without ``explain`` (the quick refusal first,
    as the engine asks) gives the verdict and 胡息 of the full one, and :func:`surely_no_win`
    refuses only what the full check refuses, for hands holding 王 as for the others (the 王
    themselves against a brute force: tests/test_king_oracle.py)."""
    from zipai_rules.analysis import surely_no_win, win_verdict

    rng = random.Random(chooser)
    game = Game(variant, seed=seed)
    step = 0
    while not game.is_over and step < 300:
        if step % every == 0:
            for seat in game.state.seats:
                if seat.dead:
                    continue
                in_play = sum(seat.hand) + sum(len(m.cards) for m in seat.melds)
                if in_play != variant.resting_size(sum(1 for m in seat.melds
                                                       if m.kind.value in ("ti", "pao"))):
                    continue  # a seat owing a discard takes no card
                for card in range(21 if seat.hand[20] < variant.deck.kings else 20):
                    for source in ("self", "draw", "discard"):
                        old = win_verdict(variant, seat.hand, seat.melds, card, source)
                        quick = win_verdict(variant, seat.hand, seat.melds, card, source,
                                            explain=False)
                        assert (quick.win, quick.huxi if quick.win else 0) == \
                            (old.win, old.huxi if old.win else 0), (seat, card, source)
                        if card < 20 and surely_no_win(variant, seat.hand, card, source):
                            assert not old.win, (seat, card, source)
                            tally["refused"] += 1
                            tally["kings_refused"] += bool(seat.hand[20])
                        if card < 20 and surely_no_win(variant, seat.hand, card, source,
                                                       seat.melds):
                            # refused by the shape, or by a rule checked before it
                            assert not old.win and old.reason not in SPLIT, (seat, card)
                            tally["refused_with_table"] += 1
                        tally["checks"] += 1
                        tally["wins"] += old.win
                        tally["kings"] += bool(seat.hand[20])
                        # a 坎 with 王 under win.split_kan: left to the search (a maybe)
                        tally["kings_kan"] += bool(seat.hand[20]) and 3 in seat.hand[:20] \
                            and variant.win.split_kan
        for seat in game.state.seats:  # the hand as it stands, after one's own draw
            if surely_no_win(variant, seat.hand, None, "self", seat.melds):
                full = win_verdict(variant, seat.hand, seat.melds, None, "self")
                assert not full.win and full.reason not in SPLIT, seat
                tally["refused_as_it_stands"] += 1
        opts = game.legal_actions()
        game.apply(rng.choice([o for o in opts if o.kind != A.HU] or list(opts)))
        step += 1


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=max(2, settings.default.max_examples // 25), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), chooser=st.integers(0, 2**31 - 1))
def test_pruned_win_check_is_the_full_one(preset, seed, chooser):
    tally: Counter = Counter()
    compare_pruned(load_preset(preset), seed, chooser, tally)
    assert tally["checks"] > 0


def test_pruned_win_check_counts():
    """Over seeded games of the presets with 王, the comparison meets hands with 王 and wins,
    and the quick refusal answers most checks of Hunan."""
    seen: dict[str, Counter] = {}
    for preset, every in (("chenzhou_wang", 9), ("yongzhou", 5), ("hunan", 3)):
        tally: Counter = Counter()
        for g in range(2):
            compare_pruned(load_preset(preset), g, g, tally, every)
        seen[preset] = tally
    assert seen["chenzhou_wang"]["kings"] > 0 and seen["yongzhou"]["kings"] > 0
    assert sum(t["wins"] for t in seen.values()) > 0
    assert seen["hunan"]["refused"] > seen["hunan"]["checks"] // 2
    # knowing the table melds (no placement onto a 偎/碰 the table lacks) refuses more
    assert seen["hunan"]["refused_with_table"] >= seen["hunan"]["refused"]
    assert seen["hunan"]["refused_as_it_stands"] > 0
    # hands holding 王 are refused quickly too (the 王 as wildcards over the block tables)
    # (but for a 坎 under win.split_kan, which the search is left to split)
    cz = seen["chenzhou_wang"]
    assert cz["kings_refused"] > (cz["kings"] - cz["kings_kan"]) // 4


@pytest.mark.parametrize("preset", PRESETS)
def test_waits_read_from_the_tables_are_win_verdicts_card_by_card(preset):
    """``waits`` answers a hand with no table melds and no 王 from the block tables
    (``analysis._plain_waits``): on seeded random 20-card hands of every preset and every
    source, its waits are exactly the cards ``win_verdict`` lets win, with their 胡息."""
    from zipai_rules.analysis import waits, win_verdict
    from zipai_rules.bench import random_meld_hand
    from zipai_rules.cards import counts_of

    variant = load_preset(preset)
    size = variant.deal.dealer_hand // 3 * 3
    rng = random.Random(21)
    compared = found = 0
    for _ in range(40):
        hand = random_meld_hand(variant, rng, size)
        hand.pop(rng.randrange(len(hand)))
        counts = list(counts_of(hand))
        for source in ("draw", "self", "discard"):
            want = [(c, a.huxi) for c in range(20) if counts[c] < variant.deck.copies
                    for a in [win_verdict(variant, counts, (), c, source)] if a.win]
            got = [(w.card, w.huxi) for w in waits(variant, hand, (), source)]
            assert got == want, (hand, source)
            compared += 1
            found += len(got)
    assert compared == 120 and found > 0
