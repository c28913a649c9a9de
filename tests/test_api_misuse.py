"""API misuse (issue 24, kind 8): every public function refuses an argument of the wrong type
or a mismatched variant with a ZipaiError whose code is stable and whose message names the
argument, never a bare AttributeError, TypeError or KeyError."""

from __future__ import annotations

import pytest

from zipai_rules import format_cards, load_preset, parse_card, parse_cards, parse_meld, svg
from zipai_rules.bots import make_bots, seat_bot_names
from zipai_rules.cards import Card
from zipai_rules.engine import Game, deck, parse_action, replay, shuffled_deal
from zipai_rules.engine.encoding import decode_action, encode_action, legal_mask
from zipai_rules.engine.observation import events_for, observe, spectate, timeline
from zipai_rules.errors import ERROR_CODES, ZipaiError
from zipai_rules.match import Match
from zipai_rules.play import play_out
from zipai_rules.records import dumps_record, game_record, read_record, record_variant
from zipai_rules.settlement import settle
from zipai_rules.variant_file import load_variant_file

HUNAN = load_preset("hunan")
GAME = Game(HUNAN, seed=7)
DONE = play_out(Game(HUNAN, seed=7), make_bots(["greedy"], 7, 3))
SETTLED = settle(HUNAN, DONE.result, events=DONE.events)

# (call, code, the start of the message): the examples first
CASES = {
    "events_for_ints": (lambda: events_for(HUNAN, [1, 2, 3], 0), "bad_argument",
                        "events[0]: int 1 is not an Event"),
    "observe_object": (lambda: observe(GAME.state, 0, [object()]), "bad_argument",
                       "events[0]: object <object"),
    "events_for_none": (lambda: events_for(HUNAN, None, 0), "bad_argument",
                        "events: NoneType None is not a list of Event values"),
    "load_preset_none": (lambda: load_preset(None), "unknown_variant",
                         "preset_id: None (type NoneType) is not the id of a shipped preset"),
    "load_preset_path": (lambda: load_preset("../variants/hunan"), "unknown_variant",
                         "preset_id: '../variants/hunan' is not the id of a shipped preset"),
    "load_preset_list": (lambda: load_preset([1]), "unknown_variant", "preset_id: [1] (type"),
    "svg_other_variant": (lambda: svg.render(GAME.observe(0), variant="guilin"),
                          "bad_argument", "variant: guilin is not the variant of this game"),
    "spectate_other_variant": (lambda: svg.render(spectate(GAME.state), variant="guilin"),
                               "bad_argument", "variant: guilin is not the variant"),
    # beyond the examples
    "observe_none_state": (lambda: observe(None, 0), "bad_argument",
                           "state: NoneType None is not a GameState"),
    "observe_game": (lambda: observe(GAME, 0), "bad_argument", "state: Game "),
    "spectate_str": (lambda: spectate("hunan"), "bad_argument", "state: str 'hunan'"),
    "events_for_bad_variant": (lambda: events_for(1, GAME.events, 0), "unknown_variant",
                               "variant: 1 (type int) is not a variant"),
    "timeline_int": (lambda: timeline(1, [], 0), "bad_argument", "states: int 1"),
    "timeline_batch": (lambda: timeline([GAME.state], [[1]], 0), "bad_argument",
                       "batches[0][0]: int 1 is not an Event"),
    "deck_none": (lambda: deck(None), "unknown_variant", "variant: None"),
    "shuffled_deal_dealer": (lambda: shuffled_deal(HUNAN, 1, 7), "bad_deal",
                             "dealer seat 7 outside 0..2"),
    "replay_deal": (lambda: replay(HUNAN, 1, []), "bad_argument", "deal: int 1 is not a Deal"),
    "replay_actions": (lambda: replay(HUNAN, DONE.deal, [None]), "bad_argument",
                       "actions[0]: NoneType None is not an Action"),
    "game_deal": (lambda: Game(HUNAN, deal="x1"), "bad_argument", "deal: str 'x1' is not"),
    "encode_none": (lambda: encode_action(None), "bad_argument", "action: NoneType None"),
    "decode_str": (lambda: decode_action("3", 0), "bad_argument", "code: str '3' is not an int"),
    "decode_seat": (lambda: decode_action(3, -1), "bad_argument", "seat: int -1 is not an int"),
    "mask_other_variant": (lambda: legal_mask(
        [a for a in Game("yongzhou", seed=3).legal_actions()], "hunan") and legal_mask(
        [decode_action(17_000, 0)], "hunan"), "unencodable_action", "options: "),
    "mask_ints": (lambda: legal_mask([1], HUNAN), "bad_argument", "options[0]: int 1"),
    "parse_card_int": (lambda: parse_card(3), "bad_argument", "text: int 3 is not a string"),
    "parse_cards_none": (lambda: parse_cards(None), "bad_argument", "text: NoneType None"),
    "format_cards_int": (lambda: format_cards(3), "bad_argument", "cards: int 3"),
    "format_cards_item": (lambda: format_cards([1, 99]), "bad_argument",
                          "cards[1]: int 99 is not a Card or a card index 0..20"),
    "card_from_index": (lambda: Card.from_index(21), "bad_argument", "index: int 21"),
    "card_rank": (lambda: Card(1.5), "bad_argument", "rank: float 1.5"),
    "parse_meld_none": (lambda: parse_meld(None), "bad_argument", "text: NoneType None"),
    "make_bots_str": (lambda: make_bots("greedy", 1, 3), "bad_argument", "names: str"),
    "make_bots_players": (lambda: make_bots(["greedy"], 1, 10 ** 30), "bad_argument",
                          "players: int 1000000000000000000000000000000 is not an int in 1..8"),
    "make_bots_seed": (lambda: make_bots(["greedy"], "1", 3), "bad_seed", "seed '1'"),
    "seat_bot_names": (lambda: seat_bot_names([1], 3), "bad_argument", "names[0]: int 1"),
    "play_out_bots": (lambda: play_out(Game(HUNAN, seed=1), [1, 2, 3]), "bad_argument",
                      "bots[0]: int 1 is not a bot"),
    "play_out_count": (lambda: play_out(Game(HUNAN, seed=1), make_bots(["greedy"], 1, 2)),
                       "unknown_bot", "2 bots for 3 game seats"),
    "play_out_game": (lambda: play_out(None, []), "bad_argument", "game: NoneType None"),
    "match_bots": (lambda: Match(HUNAN, 1).play_hand(None), "bad_argument", "bots: NoneType"),
    "game_record_game": (lambda: game_record(None, SETTLED), "bad_argument", "game: NoneType"),
    "game_record_settlement": (lambda: game_record(DONE, {}), "bad_argument",
                               "settlement: dict {} is not a Settlement"),
    "game_record_other_game": (lambda: game_record(DONE, settle(
        "hunan_two", play_out(Game("hunan_two", seed=1), make_bots(["greedy"], 1, 2)).result)),
        "bad_argument", "settlement: 2 payments, but hunan has 3 players"),
    "read_record_none": (lambda: read_record(None), "bad_argument", "path: NoneType None"),
    "record_variant_none": (lambda: record_variant(None), "bad_format", "<record>"),
    "dumps_record_bytes": (lambda: dumps_record({"a": b"x"}), "bad_argument",
                           "record: not JSON"),
    "load_variant_file_int": (lambda: load_variant_file(3), "bad_argument", "path: int 3"),
    "parse_action_source": (lambda: parse_action("hunan", "pass", 0), "bad_argument",
                            "source: a str is not a Game, a GameState or a Variant"),
    "parse_action_huge": (lambda: parse_action(10 ** 5000, "pass", 0), "bad_argument",
                          "source: an int is not"),
    "parse_action_text": (lambda: parse_action(HUNAN, 10 ** 5000, 0), "bad_action_text",
                          "text: an int is not an action text (a string)"),
    "parse_action_seat": (lambda: parse_action(GAME, "pass", 10 ** 5000), "bad_seat",
                          "a seat number of 16610 bits is outside 0..2"),
    "to_text_words": (lambda: GAME.legal_actions()[0].to_text(3), "bad_argument",
                      "words: an int is not a Variant or a terminology mapping"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_wrong_argument_is_a_zipai_error_naming_it(name):
    call, code, start = CASES[name]
    with pytest.raises(ZipaiError) as info:
        call()
    assert info.value.code == code and code in ERROR_CODES
    assert str(info.value).startswith(start) or start in str(info.value), str(info.value)


def test_the_rl_env_refuses_an_unknown_agent():
    rl = pytest.importorskip("zipai_rules.rl")
    env = rl.raw_env("hunan")
    env.reset(seed=1)
    for call in (lambda: env.observe("seat_9"), lambda: env.observe(0),
                 lambda: env.observation_space("seat_3"), lambda: env.action_space(None)):
        with pytest.raises(ZipaiError) as info:
            call()
        assert info.value.code == "bad_argument"
        assert str(info.value).startswith("agent: ") and "seat_0, seat_1, seat_2" in str(
            info.value)
    with pytest.raises(ZipaiError) as info:
        rl.observation_layout("3")
    assert str(info.value) == "players: str '3' is not an int in 2..4"


def test_a_view_of_the_right_variant_still_draws():
    assert svg.render(GAME.observe(0), variant="hunan").startswith("<svg")
    assert svg.render(spectate(GAME.state), variant=HUNAN).startswith("<svg")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: HUNAN.meld_huxi("x1 x2 x3"), "meld: str 'x1 x2 x3' is not a Meld"),
    (lambda: HUNAN.meld_huxi(None), "meld: NoneType None is not a Meld"),
    (lambda: HUNAN.term(3), "canonical: int 3 is not a string"),
    (lambda: HUNAN.resting_size("2"), "quads: str '2' is not an int of 0 or more"),
    (lambda: HUNAN.resting_size(-1), "quads: int -1 is not an int of 0 or more"),
    (lambda: HUNAN.deal.hand_size(None, 0), "seat: NoneType None is not an int"),
])
def test_the_variant_helpers_refuse_a_wrong_argument(call, message):
    with pytest.raises(ZipaiError) as info:
        call()
    assert info.value.code == "bad_argument" and str(info.value).startswith(message)
    # and answer as before with the right types (Hunan: 20 + (2 − 1) cards at rest, 胡 for hu)
    assert (HUNAN.resting_size(2), HUNAN.term("hu"), HUNAN.deal.hand_size(0, 0),
            HUNAN.meld_huxi(parse_meld("ti=d5 d5 d5 d5"))) == (21, "胡", 21, 12)
