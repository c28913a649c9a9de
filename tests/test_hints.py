"""What a seat works out from its own view (:mod:`zipai_rules.hints`), checked against
oracles that share no code with it: the Hunan 胡息 table written out here from
docs/rules-hunan.md, the cards really hidden from the seat read from the whole state, the
naive reference decomposer (:mod:`zipai_rules.reference`) for the waits; and the
information-flow property: two hands that differ only in cards hidden from the seat print the
same table and hints at its decision."""

from __future__ import annotations

import random

import pytest

from zipai_rules import reference
from zipai_rules.bots import make_bots
from zipai_rules.cards import parse_indices
from zipai_rules.cli.human import Console, _Leave
from zipai_rules.engine import Deal, Game
from zipai_rules.engine.game import replay
from zipai_rules.errors import ZipaiError
from zipai_rules.hints import hints
from zipai_rules.presets import load_preset
from zipai_rules.wording import Words

HUNAN = load_preset("hunan")
BOTS = ["greedy", "random", "greedy"]

#: docs/rules-hunan.md "Melds and 胡息": (small, big) per kind
TABLE = {"ti": (9, 12), "pao": (6, 9), "kan": (3, 6), "wei": (3, 6), "chou_wei": (3, 6),
         "peng": (1, 3), "yi_er_san": (3, 6), "er_qi_shi": (3, 6), "shun": (0, 0),
         "jiao": (0, 0), "jiang": (0, 0)}
SAME_CARD = {"ti", "pao", "kan", "wei", "chou_wei", "peng", "jiang"}


def worth(kind: str, cards: list[int]) -> int:
    """A meld's 胡息 from the table above: big when most of its cards are big (index ≥ 10)."""
    small, big = TABLE[kind]
    return big if 2 * sum(c >= 10 for c in cards) > len(cards) else small


def decisions(seeds):
    """``(game, seat)`` at every decision of seeded Hunan hands of the default bots (each
    game a copy, as it stands at that decision)."""
    for seed in seeds:
        game = Game(HUNAN, seed=seed)
        bots = make_bots(BOTS, seed, 3)
        while not game.is_over:
            st = game.state
            yield game.clone(), st.acting_seat
            game.apply(bots[st.acting_seat](st, st.options))


def test_table_huxi_is_the_sum_of_the_seen_melds_from_the_variants_table():
    """Every seat's table 胡息 as each deciding seat sees it: the melds whose kind shows and
    whose cards show (or are copies of the one card shown, a 提 with one card up) summed from
    the table above; a face-down 偎 (kind shown, no card) counted apart."""
    counted = hidden = 0
    for game, seat in decisions(range(12)):
        obs = game.observe(seat)
        h = hints(HUNAN, obs)
        for s, melds in enumerate(obs.melds):
            total, down = 0, 0
            for m in melds:
                cards = list(m.cards)
                if m.hidden and cards and m.kind.value in SAME_CARD:
                    cards += [cards[0]] * m.hidden
                elif m.hidden:
                    down += 1
                    continue
                total += worth(m.kind.value, cards)
            assert (h.table_huxi[s], h.hidden_melds[s]) == (total, down)
            counted += bool(total)
            hidden += down
        # the seat's own melds are shown to it whole: none of its own is hidden
        assert h.hidden_melds[seat] == 0
    assert counted > 100 and hidden > 10


def test_the_worked_first_decision_of_seed_10():
    """Seed 10, seat 0's first decision: seat 1's dealt 提 of x4 (one card up) is a small
    提, 9 胡息; seat 0 holds 坎 d3 and d8 (big: 6 each), and x2 x7 x10 (small 二七十, 3) and
    d2 d7 d10 (big, 6) lie in its hand: 21 胡息 in hand. All four x4 are known, so none is
    unseen; of x10 the seat holds the one it dealt itself (亮张): three unseen."""
    obs = Game(HUNAN, seed=10).observe(0)
    h = hints(HUNAN, obs)
    assert h.table_huxi == (0, 9, 0) and h.hidden_melds == (0, 0, 0)
    assert h.hand_huxi == 6 + 6 + 3 + 6 == 21
    assert sorted(m.describe() for m in h.hand_melds) == [
        "er_qi_shi(d2 d7 d10)", "er_qi_shi(x2 x7 x10)", "kan(d3 d3 d3)", "kan(d8 d8 d8)"]
    x4, x10, d3 = parse_indices("x4 x10 d3")
    assert (h.unseen[x4], h.unseen[x10], h.unseen[d3]) == (0, 3, 1)
    assert sum(h.unseen) == 80 - 21 - 4  # all but its hand and the four x4 of the 提
    assert h.waits == () and h.after_discard == ()  # far from ready


def really_hidden(game: Game, seat: int) -> list[int]:
    """Per kind, the copies ``seat`` cannot know of, read from the whole state: the others'
    concealed cards, the wall, and the cards of the others' melds Hunan lays face down
    (display: 偎 hidden; a 提 or 臭偎 shows one card, its others copies of it)."""
    st = game.state
    out = [0] * 20
    for c in st.wall:
        out[c] += 1
    for s, seat_state in enumerate(st.seats):
        if s == seat:
            continue
        for c, n in enumerate(seat_state.hand[:20]):
            out[c] += n
        for m in seat_state.melds:
            if getattr(HUNAN.display, m.kind.value, "all_up") == "hidden":
                for c in m.cards:
                    out[c] += 1
    return out


def test_unseen_counts_are_the_cards_really_hidden_from_the_seat():
    checked = 0
    for game, seat in decisions(range(10)):
        h = hints(HUNAN, game.observe(seat))
        assert list(h.unseen[:20]) == really_hidden(game, seat)
        assert h.unseen[20] == 0  # no 王 in the Hunan deck
        checked += 1
    assert checked > 200


def test_waits_agree_with_the_reference_decomposer():
    """Each seat's waits at its decisions with no discard owed: for a card the seat holds
    no copy of (in its hand or a 碰/偎 of its own), drawn by itself (自摸), the win is the
    reference decomposer's (every card of the hand plus the card in melds next to its table
    melds, 坎 whole, a 将 only with a 提 or 跑) with at least 15 胡息 (Hunan's win.min_huxi),
    and the 胡息 its best split's. A wait's unseen count is the copies really hidden."""
    ready = dead = 0
    for game, seat in decisions(range(16)):
        obs = game.observe(seat)
        h = hints(HUNAN, obs)
        if h.after_discard or obs.options[0].kind == "discard":
            continue
        table = [(m.kind.value, tuple(m.cards)) for m in obs.melds[seat]]
        hand = [c for c, n in enumerate(obs.hand[:20]) for _ in range(n)]
        mine = {w.card: dict(w.huxi).get("self") for w in h.waits}
        for c in range(20):
            if obs.hand[c] or h.unseen[c] == 0 and c not in mine:
                continue
            if any(k in SAME_CARD and c in cs for k, cs in table):
                continue  # onto its own 碰 or 偎 the card makes a 跑 or 提: not this oracle
            best = reference.best_huxi(hand + [c], table)
            expected = best if best is not None and best >= 15 else None
            assert mine.get(c) == expected, (game, seat, c)
        ready += bool(h.waits)
        dead += sum(w.dead for w in h.waits)
        for w in h.waits:
            assert w.unseen == really_hidden(game, seat)[w.card]
    assert ready > 5 and dead >= 1


def test_a_view_of_another_variant_is_refused():
    obs = Game(HUNAN, seed=1).observe(0)
    with pytest.raises(ZipaiError, match="the view is of hunan, not guilin"):
        hints(load_preset("guilin"), obs)


# --- the information-flow property on the terminal's screen ---------------------------------

def swap_hidden(game: Game, seat: int, rng: random.Random) -> Deal | None:
    """The deal with a card still concealed in another seat's hand now swapped with a card
    of another kind still in the wall: a difference hidden from ``seat``."""
    st, deal = game.state, game.deal
    other = rng.choice([s for s in range(len(st.seats)) if s != seat])
    drawn = len(deal.wall) - len(st.wall)
    held = [i for i, c in enumerate(deal.hands[other]) if st.seats[other].hand[c] == 1
            and (deal.dealer != other or i != len(deal.hands[other]) - 1)]
    rest = list(range(drawn, len(deal.wall)))
    pairs = [(i, j) for i in held for j in rest
             if deal.wall[j] != deal.hands[other][i] and st.seats[other].hand[deal.wall[j]] == 0]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    hands = [list(h) for h in deal.hands]
    wall = list(deal.wall)
    hands[other][i], wall[j] = wall[j], hands[other][i]
    return Deal(tuple(map(tuple, hands)), tuple(wall), deal.dealer, deal.aside)


def screen(game: Game, seat: int, zh: bool) -> list[str]:
    """What the terminal prints at ``seat``'s decision, ``help`` asked, until it leaves."""
    out: list[str] = []
    answers = iter(["help", "undo"])
    console = Console(game, [seat], make_bots(BOTS, 0, 3), Words(HUNAN, zh),
                      lambda prompt: out.append(prompt) or next(answers, "quit"), out.append)
    with pytest.raises(_Leave):
        console.ask(seat)
    return out


@pytest.mark.parametrize("zh", [False, True])
def test_cards_hidden_from_the_seat_do_not_change_its_screen(zh):
    """At decisions of seeded hands, a card of another seat's hand swapped with a wall card
    it has not drawn: where the swap changes nothing the seat is shown (its observation), the
    table, the hints, the prompts and the help are printed the same, though the hands
    differ."""
    rng = random.Random(5)
    compared = with_waits = 0
    for seed in range(8):
        positions = list(decisions([seed]))
        for game, seat in rng.sample(positions, 6):
            twin_deal = swap_hidden(game, seat, rng)
            if twin_deal is None:
                continue
            try:
                twin = replay(HUNAN, twin_deal, game.actions)
            except ZipaiError:
                continue  # the swap made an action illegal: the seat would see that
            if twin.observe(seat) != game.observe(seat):
                continue  # the rules showed the difference (a forced 偎 on the new card)
            assert twin.state.seats != game.state.seats or twin.state.wall != game.state.wall
            shown = screen(game, seat, zh)
            assert shown == screen(twin, seat, zh)
            compared += 1
            with_waits += any("听牌" in line for line in shown)
    assert compared >= 10 and with_waits >= 1
