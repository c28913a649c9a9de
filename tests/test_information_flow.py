"""A seat learns only what the rules show it (issue 10, "Players").

The information-flow property: two hands that differ only in cards hidden from seat ``s``
(two cards swapped between the other seats' concealed hands and the unseen wall) give seat
``s`` the same views (observations, its redacted events, whose turn it is) until the rules
reveal the difference: up to the first event ``s`` is shown differently. Every seat is played
by a bot that decides from its own options with its own seeded generator, so ``s`` decides the
same way in both hands as long as it sees the same thing.
"""

from __future__ import annotations

import functools
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_rules import load_preset, preset_ids
from zipai_rules.bots import make_bots, play_out
from zipai_rules.engine import Deal, EventKind, Game, shuffled_deal
from zipai_rules.engine.observation import observe
from zipai_rules.errors import SeatError, ZipaiError


def play(variant, deal: Deal, seed: int) -> Game:
    """The hand played by one seeded random chooser per seat."""
    game = Game(variant, deal=deal)
    rngs = [random.Random(seed * 10 + s) for s in range(variant.players)]
    while not game.is_over:
        game.apply(rngs[game.actor].choice(game.legal_actions()))
    return game


def hidden_places(variant, deal: Deal, seat: int) -> list[tuple[int, int]]:
    """``(hand, position)`` of every card seat ``seat`` cannot see at the deal: the other
    seats' concealed cards (but a shown 亮张) and the wall (``hand == -1``)."""
    out = []
    for s, hand in enumerate(deal.hands):
        if s == seat:
            continue
        last = len(hand) - 1 if (variant.deal.lianzhang and s == deal.dealer) else None
        out += [(s, i) for i in range(len(hand)) if i != last]
    return out + [(-1, j) for j in range(len(deal.wall))]


def swapped(deal: Deal, a: tuple[int, int], b: tuple[int, int]) -> Deal:
    piles = [list(h) for h in deal.hands] + [list(deal.wall)]
    (pa, ia), (pb, ib) = a, b
    piles[pa][ia], piles[pb][ib] = piles[pb][ib], piles[pa][ia]
    return Deal(tuple(tuple(p) for p in piles[:-1]), tuple(piles[-1]), deal.dealer, deal.aside)


def hidden_draw_swaps(game: Game, seat: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Wall positions ``(p, q)`` to swap so that another seat's face-down 偎 on the draw at
    ``p`` becomes a 偎 of another card it holds a pair of, drawn from a later position ``q``:
    the swaps most likely to differ in nothing but a hidden card."""
    out = []
    draws = 0
    for state, batch in zip(game._states[:-1], game._events[1:], strict=True):
        for i, e in enumerate(batch):
            if e.kind in (EventKind.DRAW, EventKind.DRAW_HIDDEN):
                draws += 1
            if e.kind == EventKind.DRAW_HIDDEN and e.seat != seat and i + 1 < len(batch) \
                    and batch[i + 1].kind == EventKind.WEI:
                p = draws - 1
                hand = state.seats[e.seat].hand
                wall = game.deal.wall
                out += [((-1, p), (-1, q)) for q in range(p + 1, len(wall))
                        if wall[q] != wall[p] and wall[q] < 20 and hand[wall[q]] == 2]
    return out


def common_prefix(x, y) -> int:
    k = 0
    while k < min(len(x), len(y)) and x[k] == y[k]:
        k += 1
    return k


# The reference for what the table shows, from the rules rather than from the engine's
# redaction: nobody announces a declined 胡/碰/吃 or the 臭 it leaves ("本人能碰而未碰" is known
# to the seat alone), and a meld laid face down ("碰亮偎不亮") shows its kind, not its card.
DECLINED = (EventKind.PASS, EventKind.CHOU)
LAID = {EventKind.WEI: "wei", EventKind.CHOU_WEI: "chou_wei", EventKind.TI: "ti",
        EventKind.PAO: "pao"}


def table_talk(variant, events, seat) -> list:
    """What the table tells ``seat`` of a full event log, per the rules; a 提/跑 that turns
    one of a seat's face-down melds shows which one it takes. Guilin: a single dealt 4同牌
    stays in the hand ("自已摸到1扫穿不放在桌面", 004 第四条6) and a 吃 of one's own draw is not
    shown ("自己摸到牌不用亮", 004 第四条1): the table tells of it only the drawn card."""
    out = []
    down: dict[int, list] = {}   # the cards of each other seat's face-down melds, in order
    drawn = None                 # the draw on offer: (seat, card)
    for e in events:
        theirs = e.seat is not None and e.seat != seat
        if e.kind in (EventKind.DRAW, EventKind.DRAW_HIDDEN, EventKind.DISCARD):
            drawn = (e.seat, e.card) if e.kind != EventKind.DISCARD else None
        if theirs and e.kind in DECLINED:
            continue
        if theirs and e.kind == EventKind.TI and e.note == "dealt, held in hand":
            continue
        if theirs and e.kind == EventKind.DRAW_HIDDEN:  # a draw kept unseen shows no card
            out.append((e.kind, e.seat, None, (), None))
            continue
        if theirs and e.kind == EventKind.CHI and drawn == (e.seat, e.card) \
                and variant.display.chi_own_draw == "hidden":
            out.append((e.kind, e.seat, e.card, (), None))
            continue
        face_down = getattr(variant.display, LAID.get(e.kind, "-"), "all_up") == "hidden"
        taken = None
        if theirs and e.kind in LAID:
            cards = down.setdefault(e.seat, [])
            if e.kind in (EventKind.TI, EventKind.PAO) and e.card in cards:
                taken = cards.index(e.card)
                if not face_down:
                    cards.remove(e.card)
            elif face_down:
                cards.append(e.card)
        shown = (e.kind, e.seat) if theirs and face_down else (e.kind, e.seat, e.card, e.melds)
        out.append(shown + (taken,))
    return out


def board(obs):
    """The observation without whose-turn information."""
    return attrs.evolve(obs, phase="-", options=())


@pytest.mark.parametrize("preset", preset_ids())
@settings(settings.default, max_examples=max(4, settings.default.max_examples // 4))
@given(data=st.data())
def test_cards_hidden_from_a_seat_do_not_change_its_views(preset, data):
    v = load_preset(preset)
    seed = data.draw(st.integers(0, 10_000), label="seed")
    seat = data.draw(st.integers(0, v.players - 1), label="seat")
    deal = shuffled_deal(v, seed)
    game = play(v, deal, seed)
    places = hidden_places(v, deal, seat)
    swaps = hidden_draw_swaps(game, seat)
    if swaps and data.draw(st.booleans(), label="swap a hidden draw"):
        a, b = data.draw(st.sampled_from(swaps), label="wall positions")
    else:
        a = data.draw(st.sampled_from(places), label="first")
        b = data.draw(st.sampled_from(places), label="second")
    other = swapped(deal, a, b)
    same_views_until_revealed(v, seat, game, play(v, other, seed))


# found by the dev profile: a 跑 or 提 on a face-down 偎 in one hand, from the hand (or on
# another face-down 偎) in the other; the table sees which meld it takes (八一's example found
# again after Guilin's 扫 stopped taking a discarded fourth as 开舵)
@pytest.mark.parametrize("preset, seed, seat, first, second", [
    ("liuzhou_bayi", 4327, 1, 8, 13), ("daye", 8157, 1, 9, 14), ("guilin", 1330, 0, 3, 5),
    ("guilin", 441, 1, 2, 3)])
def test_a_quad_on_a_face_down_meld_shows_which_meld_it_takes(preset, seed, seat, first, second):
    v = load_preset(preset)
    deal = shuffled_deal(v, seed)
    game, twin = play(v, deal, seed), play(v, swapped(deal, (-1, first), (-1, second)), seed)
    same_views_until_revealed(v, seat, game, twin)
    talk, talk_twin = table_talk(v, game.events, seat), table_talk(v, twin.events, seat)
    k = common_prefix(talk, talk_twin)
    assert talk[k][0] in (EventKind.TI, EventKind.PAO) and talk[k][-1] != talk_twin[k][-1]
    for hand, said in ((game, talk[k]), (twin, talk_twin[k])):
        note = hand.events_for(seat)[k].note
        if said[-1] is None:
            assert "face-down" not in note
        else:
            assert note.endswith(f"on face-down meld {said[-1] + 1}")


def same_views_until_revealed(v, seat, game, twin):
    """Seat ``seat`` is shown the same in ``game`` and ``twin`` up to the first event the table
    tells it differently (``table_talk``)."""
    seen, seen_twin = game.events_for(seat), twin.events_for(seat)
    views, views_twin = game.views(seat), twin.views(seat)
    talk, talk_twin = table_talk(v, game.events, seat), table_talk(v, twin.events, seat)
    assert (len(seen), len(seen_twin)) == (len(talk), len(talk_twin))
    # the rules reveal the difference at the k-th event the table tells the seat
    k = common_prefix(talk, talk_twin)
    assert seen[:k] == seen_twin[:k]
    before = [o for o in views if len(o.history) < k]
    assert before == [o for o in views_twin if len(o.history) < k]
    if talk == talk_twin:
        assert views == views_twin
        return
    # the table as it stands when the difference is about to show is the same too
    at_k = [board(next(o for o in vs if len(o.history) == k)) for vs in (views, views_twin)
            if any(len(o.history) == k for o in vs)]
    assert len(set(at_k)) <= 1


SEEDS = range(60)


@functools.cache
def greedy_games(preset):
    v = load_preset(preset)
    return v, [play_out(Game(v, seed=s), make_bots(["greedy"], s, v.players)) for s in SEEDS]


def test_face_down_wei_cards_are_not_told_to_the_others():
    """In 60 seeded Hunan hands of greedy bots 68 偎 are made, all face down ("碰亮偎不亮"):
    each of the 2 other seats is shown the 偎 without its card; the owner sees it whole."""
    v, games = greedy_games("hunan")
    assert sum(1 for g in games for e in g.events if e.kind == EventKind.WEI) == 68
    hidden = whole = 0
    for g in games:
        for s in range(v.players):
            seen = g.events_for(s)
            others = [e for e in g.events if e.kind == EventKind.WEI and e.seat != s]
            shown = [e for e in seen if e.kind == EventKind.WEI and e.seat != s]
            assert [(e.seat, e.note) for e in shown] == [(e.seat, e.note) for e in others]
            assert all(e.card is None and e.melds == () for e in shown)
            hidden += len(shown)
            whole += sum(1 for e in g.events if e.kind == EventKind.WEI and e.seat == s
                         and e in seen)
    assert (hidden, whole) == (2 * 68, 68)


def test_shaoyang_shows_one_card_of_a_wei():
    """Shaoyang lays a 偎 one card up ("偎亮一张底牌"): its card is no secret."""
    v, games = greedy_games("shaoyang")
    wei = [(g, e) for g in games for e in g.events if e.kind == EventKind.WEI]
    assert wei and all(e in g.events_for(s) for g, e in wei for s in range(v.players))


def test_declined_options_are_told_to_no_other_seat():
    """A pass and the 臭 it leaves tell that the seat could have taken the card: in 60 Hunan
    hands 561 such events, each shown to its own seat only."""
    v, games = greedy_games("hunan")
    private = [(g, e) for g in games for e in g.events
               if e.kind in (EventKind.PASS, EventKind.CHOU)]
    assert len(private) == 561
    for g, e in private:
        assert [s for s in range(v.players) if any(
            x is e for x in g.events_for(s))] == [e.seat]


def test_whose_turn_shows_only_as_ones_own_decision():
    """Every state where another seat answers an exposed card shows the seat a neutral wait
    (in 60 Hunan hands: 1500 such views); the actor alone sees the phase and its options."""
    v, games = greedy_games("hunan")
    waits = 0
    for g in games:
        for state in g._states:
            for s in range(v.players):
                obs = observe(state, s)
                if state.phase == "respond" and state.actor != s:
                    assert (obs.phase, obs.options) == ("wait", ())
                    waits += 1
                if state.actor == s:
                    assert obs.options == state.options and obs.to_act
    assert waits == 1500


def test_a_seat_is_sent_a_view_at_each_of_its_decisions_and_at_the_end():
    v = load_preset("hunan")
    game = play(v, shuffled_deal(v, 3), 3)
    for s in range(v.players):
        views = game.views(s)
        assert len(views) == sum(1 for a in game.actions if a.seat == s) + 1
        assert [o.options for o in views[:-1]] == [
            st.options for st in game._states if st.actor == s]
        assert views[-1].phase == "over" and views[-1].history == game.events_for(s)
        assert views[-1] == game.observe(s)


@pytest.mark.parametrize("bad", [-1, 3, 10 ** 5000, -10 ** 30, True, False, 1.0, "0", None],
                         ids=["-1", "3", "huge", "-huge", "True", "False", "1.0", "str", "None"])
def test_bad_seats_are_errors(bad):
    v = load_preset("hunan")
    game = Game(v, seed=1)
    for ask in (lambda: observe(game.state, bad), lambda: game.observe(bad),
                lambda: game.events_for(bad), lambda: game.views(bad)):
        with pytest.raises(SeatError) as err:
            ask()
        assert err.value.code == "bad_seat" and isinstance(err.value, ZipaiError)
        assert len(str(err.value)) < 100


def test_bad_seat_messages_name_the_value():
    v = load_preset("hunan")
    state = Game(v, seed=1).state
    with pytest.raises(SeatError, match=r"seat -1 outside 0\.\.2"):
        observe(state, -1)
    with pytest.raises(SeatError, match="not a bool"):
        observe(state, True)
    with pytest.raises(SeatError, match="a seat number of 16610 bits is outside 0..2"):
        observe(state, 10 ** 5000)


@pytest.mark.parametrize("bad", [0.0, False])
def test_an_action_for_a_bool_or_float_seat_is_refused(bad):
    """``Action(kind, 0.0, card)`` equals seat 0's action but names no seat: refused, the game
    unchanged (it used to crash, or record ``seat: false``)."""
    from zipai_rules.engine import Action
    from zipai_rules.errors import IllegalActionError

    game = Game(load_preset("hunan"), seed=1)
    legal = game.legal_actions()[0]
    assert legal.seat == 0
    with pytest.raises(IllegalActionError, match=f"not a {type(bad).__name__}"):
        game.apply(Action(legal.kind, bad, legal.card))
    assert game.actions == [] and game.legal_actions()[0] == legal


def test_streaming_the_shown_events_of_each_action_gives_the_seat_view():
    """What docs/observations.md tells a server to send, action by action, adds up to
    ``events_for`` and ``views``."""
    v = load_preset("guilin")
    game, rng = Game(v, seed=11), random.Random(11)
    sent = [list(game.events_for(s)) for s in range(v.players)]
    asked = [[] for _ in range(v.players)]
    while not game.is_over:
        asked[game.actor].append(game.observe(game.actor))
        game.apply(rng.choice(game.legal_actions()))
        for s in range(v.players):
            sent[s] += game.events_for(s)[len(sent[s]):]
    for s in range(v.players):
        assert tuple(sent[s]) == game.events_for(s)
        assert tuple(asked[s]) + (game.observe(s),) == game.views(s)
    assert len(game.actions) == sum(len(a) for a in asked) > 10
