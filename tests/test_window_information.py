"""A claim window tells a seat nothing of the others' options (issue: the engine a table
server needs).

Twin hands, which differ only in cards hidden from seat ``s``, give ``s`` the same
observations, the same prompts (options and decision ids) and the same refusals of every
answer it might try, through every claim window, until the rules show it the difference
(``table_talk`` of test_information_flow, written from the rules). The oracle is the twin:
what ``s`` is shown must not depend on what it cannot see.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from test_information_flow import (
    common_prefix,
    hidden_places,
    same_views_until_revealed,
    swapped,
    table_talk,
)
from zipai_rules import load_preset, preset_ids
from zipai_rules.bots import make_bots
from zipai_rules.engine import Action, Game, shuffled_deal
from zipai_rules.engine.refusals import refusal


def play(variant, deal, seed: int) -> Game:
    """A hand of claim windows, every seat answering with its own seeded chooser, the
    awaited seats in turn order."""
    game = Game(variant, deal=deal, windows=True)
    rngs = [random.Random(seed * 10 + s) for s in range(variant.players)]
    while not game.is_over:
        s = game.awaiting()[0]
        game.apply(rngs[s].choice(game.options(s)), by=s, decision=game.decision(s))
    return game


def probes(state, seat: int) -> list[Action]:
    """Answers a seat might try: every claim of the card on offer, a pass, discards."""
    out = [Action("pass", seat), Action("hu", seat)]
    p = state.pending
    if p is not None:
        out += [Action(kind, seat, p.card) for kind in ("hu", "peng", "pao", "chi")]
    out += [Action("discard", seat, c) for c in range(0, 20, 3)]
    return out


def prompts(game: Game, seat: int):
    """At each new decision of ``seat``: how many events it had been shown, its decision
    id, its options and the refusals of the answers it might try."""
    out = []
    asked = None
    shown = 0
    from zipai_rules.engine.observation import Redactor
    redactor = Redactor(game.variant, seat)
    for state, batch in zip(game._states, game._events, strict=True):
        shown += sum(1 for e in batch if redactor.show(e) is not None)
        decision = state.decision(seat) if state.options_for(seat) else None
        if decision is not None and decision != asked:
            asked = decision
            out.append((shown, decision, state.options_for(seat),
                        [refusal(state, a) for a in probes(state, seat)]))
    return out


def same_until_revealed(v, seat: int, game: Game, twin: Game) -> int:
    """Seat ``seat``'s views, prompts and refusals agree in ``game`` and ``twin`` until the
    table tells it a difference; the number of its window prompts compared where another
    seat could claim the card in one of the two hands."""
    same_views_until_revealed(v, seat, game, twin)
    k = common_prefix(table_talk(v, game.events, seat), table_talk(v, twin.events, seat))
    mine = [x for x in prompts(game, seat) if x[0] < k]
    theirs = [x for x in prompts(twin, seat) if x[0] < k]
    assert mine == theirs
    return sum(1 for g in (game, twin) for st in g._states
               if st.window is not None and not st.window.answers and seat in st.window.seats
               and sum(1 for _ in table_talk(v, g.events[:_events_before(g, st)], seat)) < k
               and any(o.kind != "pass" for x, opts in st.window.offers if x != seat
                       for o in opts))


def _events_before(game: Game, state) -> int:
    n = 0
    for st_, batch in zip(game._states, game._events, strict=True):
        n += len(batch)
        if st_ is state:
            return n
    return n


@settings(settings.default, max_examples=max(6, settings.default.max_examples // 2))
@given(data=st.data())
def test_twins_give_a_seat_the_same_windows_prompts_and_refusals(data):
    preset = data.draw(st.sampled_from(preset_ids()), label="preset")
    v = load_preset(preset)
    seed = data.draw(st.integers(0, 10_000), label="seed")
    seat = data.draw(st.integers(0, v.players - 1), label="seat")
    deal = shuffled_deal(v, seed)
    places = hidden_places(v, deal, seat)
    a = data.draw(st.sampled_from(places), label="first")
    b = data.draw(st.sampled_from(places), label="second")
    same_until_revealed(v, seat, play(v, deal, seed), play(v, swapped(deal, a, b), seed))


def test_twins_where_another_seat_may_claim():
    """Hunan seeds 0-9, seat 2, each twin made by swapping a card of seat 0's hand with the
    wall's last card: the windows compared include many where seat 0 or 1 could claim the
    card in one hand (and so perhaps not in the other)."""
    v = load_preset("hunan")
    compared = 0
    for seed in range(10):
        deal = shuffled_deal(v, seed)
        for i in range(0, 20, 4):
            twin = swapped(deal, (0, i), (-1, len(deal.wall) - 1))
            compared += same_until_revealed(v, 2, play(v, deal, seed), play(v, twin, seed))
    assert compared == 222


def test_turns_tell_a_waiting_seat_nothing_either():
    """One seat at a time: while another seat answers a card, every claim a waiting seat
    tries is refused with the same words, whatever the other seat may do (in 20 greedy
    Hunan hands, every such state and every claim of the card on offer)."""
    v = load_preset("hunan")
    told = set()
    n = 0
    for seed in range(20):
        game = Game(v, seed=seed)
        bots = make_bots(["greedy"], seed, 3)
        while not game.is_over:
            state = game.state
            if state.phase == "respond" and state.pending.source != "self":
                for s in range(3):
                    if s != state.actor:
                        for a in probes(state, s)[:6]:
                            r = refusal(state, a)
                            told.add((r.code, r.message.replace(str(s), "S")))
                            n += 1
            game.apply(bots[state.acting_seat](state, state.options))
    assert n > 1000
    assert told == {("not_your_turn", "seat S does not act now")}
