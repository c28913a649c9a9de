"""Claim windows: every seat answers an exposed card at once; the priority decides.

The oracle is the one-seat-at-a-time engine, whose rules the golden records and the referee
check: for the same answers a hand played with claim windows ends the same, event for event,
as when each seat is asked its asks in turn and answers each with its window answer (its
claim where the ask offers it, else pass).
"""

from __future__ import annotations

import random

import attrs
import pytest

from zipai_rules import load_preset, preset_ids
from zipai_rules.engine import Action, Game
from zipai_rules.errors import ERROR_CODES, IllegalActionError, SeatError, ZipaiError
from zipai_rules.vocab import Phase


def window_key(state):
    p = state.pending
    return (p.card, p.source, p.by, len(state.wall))


def choose(rng: random.Random, options, reluctant: bool):
    """A random option; a ``reluctant`` chooser passes a win it may pass 4 times in 5."""
    if reluctant and any(o.kind == "hu" for o in options) and rng.random() < 0.8:
        passing = [o for o in options if o.kind != "hu"]
        if passing:
            return rng.choice(passing)
    return rng.choice(options)


def play_windows(variant, seed: int, rng: random.Random, reluctant: bool = False):
    """A hand of claim windows: each decision answered by a random seat among those awaited
    (so the answers come in a random order), with a random option (:func:`choose`); and the
    decisions as the one-seat-at-a-time engine meets them: an action, or a window's answers
    by seat."""
    game = Game(variant, seed=seed, windows=True)
    items: list = []
    while not game.is_over:
        state = game.state
        window = state.window
        if window is None:
            s = game.actor
            action = choose(rng, game.options(s), reluctant)
            items.append(("one", action))
        else:
            s = rng.choice(game.awaiting())
            action = choose(rng, game.options(s), reluctant)
            if not window.answers:
                items.append(("window", window_key(state), {}))
            items[-1][2][s] = action
        game.apply(action, by=s, decision=game.decision(s))
    return game, items


def play_turns(variant, seed: int, items) -> Game:
    """The same decisions made one seat at a time."""
    game = Game(variant, seed=seed)
    for item in items:
        if item[0] == "one":
            game.apply(item[1])
            continue
        _, key, answers = item
        while not game.is_over and game.state.phase == Phase.RESPOND \
                and window_key(game.state) == key:
            s = game.actor
            options = game.legal_actions()
            answer = answers[s]
            game.apply(answer if answer in options else Action("pass", s))
    return game


def rules_seen(seats):
    return [attrs.evolve(seat, first_take=seat.first_take is None) for seat in seats]


CASES = [(preset, seed) for preset in preset_ids() for seed in range(3)]


@pytest.mark.parametrize("preset,seed", CASES)
def test_windows_end_every_hand_as_turns_do_for_the_same_answers(preset, seed):
    v = load_preset(preset)
    rng = random.Random(seed * 7919 + 1)
    windowed, items = play_windows(v, seed, rng)
    turns = play_turns(v, seed, items)
    assert turns.is_over
    assert windowed.events == turns.events
    # ``first_take`` is the turn of a seat's first take: a window's answers are more turns
    assert rules_seen(windowed.state.seats) == rules_seen(turns.state.seats)
    assert windowed.result.to_json() == turns.result.to_json()


# the rules a declined win leaves: 臭胡 (hunan, guilin, liuzhou_bayi), 有胡必胡 (guilin,
# liuzhou_bayi on a discard; hengyang_honghei everywhere), a forced 跑 once every win before it
# is declined, and a later win that must be worth more (leiyang_tilong)
DECLINING = ["hunan", "guilin", "liuzhou_bayi", "hengyang_honghei", "leiyang_tilong"]


def test_declined_wins_end_the_same_with_windows():
    seen = {"臭胡": 0, "forced 胡": 0, "跑 after a declined 胡": 0, "declined, must be beaten": 0}
    for preset in DECLINING:
        v = load_preset(preset)
        for seed in (0, 1, 2, 3, 8):
            windowed, items = play_windows(v, seed, random.Random(seed), reluctant=True)
            turns = play_turns(v, seed, items)
            assert windowed.events == turns.events, (preset, seed)
            assert windowed.result.to_json() == turns.result.to_json()
            seen["臭胡"] += sum(1 for e in windowed.events if e.note == "臭胡")
            for state in windowed._states:
                w = state.window
                if w is None or w.answers:
                    continue
                hus = [opts for _, opts in w.asks if any(o.kind == "hu" for o in opts)]
                seen["forced 胡"] += sum(1 for opts in hus if len(opts) == 1)
                seen["跑 after a declined 胡"] += bool(hus) and w.forced is not None
            seen["declined, must be beaten"] += sum(
                1 for x in windowed.state.seats if x.declined_units is not None)
    assert seen == {"臭胡": 3, "forced 胡": 1, "跑 after a declined 胡": 4,
                    "declined, must be beaten": 1}


def test_every_exposed_card_opens_a_window_for_every_seat_but_its_discarder():
    v = load_preset("hunan")
    game = Game(v, seed=3, windows=True)
    seen = 0
    while not game.is_over and seen < 40:
        w = game.state.window
        if w is not None:
            p = game.state.pending
            expected = [s for s in range(3) if not (p.source == "discard" and s == p.by)]
            assert list(w.seats) == sorted(expected, key=lambda s: (s - p.by) % 3)
            if not w.answers:
                seen += 1
                for s in w.seats:  # every seat asked: a new decision, pass among its options
                    assert game.decision(s) is not None
                    assert game.observe(s).phase == Phase.RESPOND
                    assert Action("pass", s) in game.options(s) or \
                        [o.kind for o in game.options(s)] == ["hu"]
        s = game.awaiting()[0]
        game.apply(game.options(s)[-1], by=s)
    assert seen >= 10


def find_window(variant_id: str, test, seeds=range(200)):
    """The first window (game, seed) of random play where ``test(game)`` holds."""
    v = load_preset(variant_id)
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(v, seed=seed, windows=True)
        while not game.is_over:
            if game.state.window is not None and not game.state.window.answers and test(game):
                return game, seed
            s = game.awaiting()[0]
            game.apply(rng.choice(game.options(s)), by=s)
    raise AssertionError("no such window")


def kinds(options):
    return [o.kind.value for o in options]


def test_a_claim_waits_for_every_seat_and_a_hu_only_for_the_seats_before_it():
    # a window where one seat may 碰 (or 跑) and the others may only pass
    def one_peng(game):
        w = game.state.window
        return sum("peng" in kinds(game.options(s)) for s in w.seats) == 1 and \
            not any("hu" in kinds(game.options(s)) for s in w.seats)
    game, _ = find_window("hunan", one_peng)
    w = game.state.window
    taker = next(s for s in w.seats if "peng" in kinds(game.options(s)))
    peng = next(o for o in game.options(taker) if o.kind == "peng")
    assert game.apply(peng, by=taker) == []  # kept: the others have not answered
    assert game.state.window is not None and taker not in game.awaiting()
    others = [s for s in w.seats if s != taker]
    for s in others[:-1]:
        assert game.apply(Action("pass", s), by=s) == []
    events = game.apply(Action("pass", others[-1]), by=others[-1])
    assert [e.kind.value for e in events][:1] == ["peng"] and events[0].seat == taker
    assert game.state.window is None


def test_a_seat_sees_only_its_own_options_and_the_same_window_whoever_may_claim():
    def peng_and_idle(game):
        w = game.state.window
        return any("peng" in kinds(game.options(s)) for s in w.seats) and \
            any(kinds(game.options(s)) == ["pass"] for s in w.seats)
    game, _ = find_window("hunan", peng_and_idle)
    w = game.state.window
    idle = next(s for s in w.seats if kinds(game.options(s)) == ["pass"])
    view = game.observe(idle)
    assert view.phase == Phase.RESPOND and kinds(view.options) == ["pass"]
    assert view.decision == game.decision(idle)
    assert all(o.seat == idle for o in view.options)
    # its refusals speak of its own hand only
    p = game.state.pending
    refusal = game.check(Action("peng", idle, p.card), by=idle)
    assert refusal.code in ("cannot_claim", "claim_not_allowed", "chou")
    assert "another seat" not in refusal.message


def test_seat_binding_and_stale_decisions():
    game, _ = find_window("hunan", lambda g: True)
    w = game.state.window
    a, b = w.seats[0], w.seats[1]
    mine = game.options(a)[-1]
    refused = game.check(mine, by=b)
    assert refused.code == "not_your_seat" and refused.message == \
        f"seat {b} may not act for seat {a}"
    now = game.decision(a)
    stale = game.check(mine, by=a, decision=now - 1)
    assert stale.code == "stale_decision"
    assert stale.message == f"decision {now - 1} is not seat {a}'s decision now ({now})"
    before = game.state
    with pytest.raises(IllegalActionError) as err:
        game.apply(mine, by=b)
    assert err.value.code == "not_your_seat" and game.state is before
    game.apply(mine, by=a, decision=now)
    again = game.check(mine, by=a)
    assert again.code == "already_answered"
    assert game.decision(a) is None and game.observe(a).phase == Phase.WAIT
    with pytest.raises(SeatError):
        game.check(mine, by=7)
    with pytest.raises(ZipaiError) as err:
        game.check(mine, by=a, decision="5")
    assert err.value.code == "bad_argument"
    for code in ("not_your_seat", "stale_decision", "already_answered", "no_window"):
        assert code in ERROR_CODES


def test_decisions_count_per_seat_in_turns_too():
    game = Game("hunan", seed=1)
    first = game.decision(game.actor)
    assert first == 1 and game.observe(game.actor).decision == 1
    other = (game.actor + 1) % 3
    assert game.decision(other) is None and game.observe(other).decision is None
    action = game.legal_actions()[0]
    seat = game.actor
    game.apply(action, by=seat, decision=1)
    assert game.check(action, by=seat, decision=1) is not None


def test_close_window_answers_the_default_for_every_seat_left():
    game, _ = find_window("hunan", lambda g: True)
    w = game.state.window
    first = w.seats[0]
    game.apply(game.options(first)[-1], by=first)
    game.close_window()
    assert game.state.window is None or game.state.window is not w
    with pytest.raises(IllegalActionError) as err:
        while True:
            if game.state.window is None:
                game.close_window()
            s = game.awaiting()[0]
            game.apply(game.options(s)[-1], by=s)
    assert err.value.code in ("no_window", "hand_over")


def test_windows_play_and_replay_with_bots():
    from zipai_rules.bots import make_bots
    v = load_preset("yongzhou")
    game = Game(v, seed=5, windows=True)
    bots = make_bots(["greedy"] * v.players, 5, v.players)
    while not game.is_over:
        for s in game.awaiting():
            if game.state.window is not None or s == game.actor:
                state = game.state
                game.apply(bots[s](state, game.options(s)), by=s)
                break
    from zipai_rules.engine import replay
    again = replay(v, game.deal, game.actions, windows=True)
    assert again.events == game.events


def test_a_windows_record_replays_strictly_and_resumes():
    from zipai_rules.records import (
        dumps_record,
        game_record,
        loads_record,
        replay_record,
        resume_game,
        save_game,
    )
    from zipai_rules.settlement import settle
    v = load_preset("hunan")
    game, _ = play_windows(v, 4, random.Random(4))
    record = game_record(game, settle(v, game.result, events=game.events))
    assert record["windows"] is True
    again, _ = replay_record(loads_record(dumps_record(record)))
    assert again.windows and again.events == game.events
    # a windows record read as one seat at a time does not replay
    del record["windows"]
    with pytest.raises(ZipaiError) as err:
        replay_record(record)
    assert err.value.code == "replay_diverged"
    assert str(err.value) == "step 3: seat 1 pass refused: it is seat 2's turn, not seat 1's"
    # a saved hand in the middle of a window resumes in it
    half = Game(v, seed=4, windows=True)
    rng = random.Random(1)
    while half.state.window is None or not half.state.window.answers:
        s = rng.choice(half.awaiting())
        half.apply(rng.choice(half.options(s)), by=s)
    resumed = resume_game(save_game(half))
    assert resumed.state.window == half.state.window
    assert resumed.awaiting() == half.awaiting()


def test_every_window_option_reads_back_from_its_text():
    from zipai_rules.engine import parse_action
    v = load_preset("yongzhou")
    rng = random.Random(2)
    game = Game(v, seed=2, windows=True)
    read = 0
    while not game.is_over:
        for s in game.awaiting():
            for o in game.options(s):
                assert parse_action(game, o.to_text(), seat=s) == o
                assert parse_action(game, o.to_text(v), seat=s) == o
                read += 1
        s = rng.choice(game.awaiting())
        game.apply(rng.choice(game.options(s)), by=s)
    assert read > 100


def test_a_forced_pao_hides_nothing_of_a_seats_own_claims():
    """Hunan seed 1 (random answers): seat 1 draws d10 while seat 0 holds a 坎 of it, so
    seat 0's 跑 is forced once the window closes. Seat 1 is still offered the three 吃 its
    own hand makes (leaving them out would tell it that another seat holds three d10); it
    takes one, and the forced 跑 outranks it."""
    game = Game("hunan", seed=1, windows=True)
    rng = random.Random(1)
    while not (game.state.window is not None and game.state.window.forced == 0
               and 1 in game.awaiting()):
        s = game.awaiting()[0]
        game.apply(rng.choice(game.options(s)), by=s, decision=game.decision(s))
    assert game.state.pending.card == 19 and game.state.seats[0].hand[19] == 3
    assert [o.to_text() for o in game.options(1)] == [
        "chi d10: x10 x10 d10", "chi d10: d2 d7 d10", "chi d10: d8 d9 d10", "pass"]
    events = []
    for s in game.awaiting():
        answer = game.options(s)[0]
        events += game.apply(answer, by=s)
    pao = next(e for e in events if e.kind.value == "pao")
    assert pao.seat == 0 and pao.note.startswith("forced")
    assert not any(e.kind.value == "chi" for e in events)
