"""Shuffle seeds: strict seed types, secret seeds for unseeded games and matches, one-way hand
seeds, and the shuffle commitment."""

import pytest

from zipai_rules.bots import make_bots, play_out
from zipai_rules.engine import seeds
from zipai_rules.engine.game import Game, shuffled_deal
from zipai_rules.engine.seeds import (
    check_seed,
    commit_seed,
    fresh_seed,
    hand_seed,
    verify_commitment,
)
from zipai_rules.errors import HandError, ReplayError, ZipaiError
from zipai_rules.match import Match
from zipai_rules.records import game_record, replay_record
from zipai_rules.settlement import settle


@pytest.mark.parametrize("bad, words", [
    (-7, "seed -7 is negative"),
    (7.0, "seed 7.0 is not an integer (type float)"),
    (True, "seed True is not an integer (type bool)"),
    ("7", "seed '7' is not an integer (type str)"),
    (2 ** 1025, "seed has 1026 bits, more than 1024"),
])
def test_bad_seeds_are_refused(hunan, bad, words):
    for make in (lambda: Game(hunan, seed=bad), lambda: Match(hunan, seed=bad),
                 lambda: shuffled_deal(hunan, bad)):
        with pytest.raises(HandError) as info:
            make()
        assert info.value.code == "bad_seed" and str(info.value).endswith(words)


def test_bool_dealer_is_refused(hunan):
    with pytest.raises(HandError) as info:
        Game(hunan, seed=1, dealer=True)
    assert info.value.code == "bad_deal"


def test_big_seeds_shuffle_reproducibly(hunan):
    big = 2 ** 1024 - 1
    assert Game(hunan, seed=big).deal == Game(hunan, seed=big).deal
    assert Game(hunan, seed=big).deal != Game(hunan, seed=big - 1).deal
    assert check_seed(big) == big and check_seed(0) == 0


def test_small_seeds_deal_as_before(hunan):
    """The golden records depend on it: seed N shuffles with random.Random(N)."""
    deal = Game(hunan, seed=7).deal
    assert " ".join(deal.to_json()["hands"][:1]) == (
        "d7 x1 d1 x8 d10 d6 x8 x10 x5 d3 x7 d6 x9 d6 d9 x10 x6 d9 x3 x4 x8")
    assert deal.to_json()["wall"] == "x9 x2 x8 x3 d4 d4 x3 x2 x7 d7 x2 d2 x4 d8 x3 x2 d3 x5 d1"


def test_unseeded_games_and_matches_draw_128_secret_bits(hunan, monkeypatch):
    asked = []

    def randbits(k):
        asked.append(k)
        return (1 << 127) + len(asked)
    monkeypatch.setattr(seeds.secrets, "randbits", randbits)
    game = Game(hunan)
    match = Match(hunan)
    assert asked == [128, 128]
    assert game.seed == (1 << 127) + 1 and match.seed == (1 << 127) + 2
    assert game.deal == shuffled_deal(hunan, game.seed)


def test_fresh_seeds_differ():
    drawn = {fresh_seed() for _ in range(50)}
    assert len(drawn) == 50 and max(drawn).bit_length() > 100


def test_hand_seeds_are_one_way_and_fixed():
    # frozen: changing the derivation changes every seeded match
    assert hand_seed(1, 1) == int(
        "a3a5beb041c60e0cebc3f9f1e34663000368d38a9e2fb312ed3de53755baef5e", 16)
    values = {hand_seed(s, n) for s in (0, 1, 2, 2 ** 200, 2 ** 208) for n in range(1, 6)}
    assert len(values) == 25 and all(v < 2 ** 256 for v in values)
    assert hand_seed(5, 3) == hand_seed(5, 3) != 5 * 10_007 + 3
    for bad in (0, -1, True, 1.0):
        with pytest.raises(HandError):
            hand_seed(5, bad)


def test_match_hands_use_derived_seeds(hunan):
    m = Match(hunan, seed=9, keep_hands=2)
    bots = make_bots(["random"], 9, hunan.seats)
    for _ in range(4):
        m.play_hand(bots)
    assert m.played == 4 and [h.number for h in m.hands] == [3, 4]
    assert [h.seed for h in m.hands] == [hand_seed(9, 3), hand_seed(9, 4)]
    again = Match(hunan, seed=9)
    assert [again.play_hand(bots).game.deal for _ in range(4)][2:] == [h.game.deal for h in m.hands]
    assert len(again.hands) == 4  # keeps every hand by default
    with pytest.raises(ZipaiError) as info:
        Match(hunan, seed=9, keep_hands=-1)
    assert info.value.code == "bad_option"


def test_commitment_round_trip():
    c = commit_seed(7, "0123456789abcdef0123456789abcdef")
    assert c == commit_seed(7, "0123456789abcdef0123456789abcdef")
    assert c.digest == "ae7d587b87698fbf5a52be9d80507d4d2da2f50e7bdc2f6ece06d6a0512dde00"
    assert len(c.digest) == 64 and c.to_json() == {"digest": c.digest, "nonce": c.nonce}
    assert verify_commitment(c.digest, 7, c.nonce)
    assert not verify_commitment(c.digest, 8, c.nonce)
    assert not verify_commitment(c.digest, 7, "f" * 32)
    # the nonce hides a small seed: fresh nonces give unrelated digests
    assert commit_seed(7).digest != commit_seed(7).digest
    for digest, nonce in (("xyz", c.nonce), (c.digest, "short"), (c.digest.upper(), c.nonce)):
        with pytest.raises(HandError) as info:
            verify_commitment(digest, 7, nonce)
        assert info.value.code == "bad_commitment"


def test_commitment_in_the_record(hunan):
    game = play_out(Game(hunan, commit=True), make_bots(["greedy"], 1, 3))
    published = game.commitment.digest  # before the deal is shown
    record = game_record(game, settle(game.state))
    assert record["commitment"] == {"digest": published, "nonce": game.commitment.nonce}
    assert record["seed"] == game.seed and game.seed.bit_length() > 64
    assert verify_commitment(published, record["seed"], record["commitment"]["nonce"])
    replay_record(record)
    record["commitment"]["nonce"] = "0" * 32
    with pytest.raises(ReplayError) as info:
        replay_record(record)
    assert info.value.code == "bad_commitment" and info.value.step == 0
    plain = play_out(Game(hunan, seed=3), make_bots(["greedy"], 3, 3))
    assert "commitment" not in game_record(plain, settle(plain.state))


def test_commitment_needs_a_seed(hunan):
    deal = Game(hunan, seed=3).deal
    with pytest.raises(HandError) as info:
        Game(hunan, deal=deal, commit=True)
    assert info.value.code == "bad_commitment"
