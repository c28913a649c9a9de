"""The wire notation of actions (zipai_rules.engine.notation): ``Action.to_text`` and
``parse_action`` round-trip every action the engine offers in every preset, short forms
resolve against the seat's legal actions, and any hostile text or JSON is refused cleanly."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zipai_rules.bots import make_bots
from zipai_rules.cards import parse_indices
from zipai_rules.engine import Action, ActionKind, Event, EventKind, Game, parse_action
from zipai_rules.engine.actions import card_from_json, melds_from_json
from zipai_rules.errors import ZipaiError
from zipai_rules.melds import Meld, parse_meld
from zipai_rules.presets import load_preset, preset_ids

HUNAN = load_preset("hunan")
TEXT_CODES = {"bad_action_text", "ambiguous_action", "no_such_action"}


def C(text: str) -> int:
    return parse_indices(text)[0]


def M(kind: str, cards: str, claimed: str | None = None, bi: bool = False,
      kings: str = "") -> Meld:
    return Meld(kind, tuple(parse_indices(cards)), claimed=None if claimed is None else C(claimed),
                bi=bi, kings=tuple(parse_indices(kings)))


CHI_BI = Action("chi", 0, "x4", (M("shun", "x4 x5 x6", "x4"), M("jiao", "x4 x4 d4", bi=True)))
CHI_KING = Action("chi", 1, "d3", (M("yi_er_san", "d1 d2 d3", "d3", kings="d2"),
                                   M("shun", "d3 d4 d5", bi=True)))


@pytest.mark.parametrize("action, ascii_text, hunan_text", [
    (Action("discard", 0, "x5"), "discard x5", "打 五"),
    (Action("pass", 2), "pass", "过"),
    (Action("hu", 1), "hu", "胡"),
    (Action("hu", 1, "x4"), "hu x4", "胡 四"),
    (Action("peng", 0, "d4"), "peng d4", "碰 肆"),
    (Action("pao", 0, "x4"), "pao x4", "跑 四"),
    (Action("chi", 0, "x4", (M("shun", "x4 x5 x6", "x4"),)), "chi x4: x4 x5 x6", "吃 四: 四 五 六"),
    (CHI_BI, "chi x4: x4 x5 x6 / x4 x4 d4", "吃 四: 四 五 六 / 四 四 肆"),
    (CHI_KING, "chi d3: d1 K(d2) d3 / d3 d4 d5", "吃 叁: 壹 王(贰) 叁 / 叁 肆 伍"),
])
def test_the_text_of_every_kind(action, ascii_text, hunan_text):
    assert action.to_text() == ascii_text
    assert action.to_text(HUNAN) == hunan_text == action.to_text(HUNAN.terminology)
    for text in (ascii_text, hunan_text):
        assert parse_action(HUNAN, text, seat=action.seat) == action


def test_a_king_standing_in_reads_as_the_log_writes_it():
    """``K(x9)`` and ``王(九)`` are one 王 standing for x9, in a 吃 text and in a table meld."""
    assert parse_meld("chi=x8 王(九) x10") == parse_meld("chi=x8 K(x9) x10") == \
        parse_meld("chi=x8 k(x9)x10")
    assert parse_meld("chi=x8 K(x9) x10").kings == (C("x9"),)
    assert parse_action(HUNAN, "chi d3: d1 k(d2) d3 / d3 d4 d5", seat=1) == CHI_KING


def test_a_variants_own_words():
    """桂林 and 柳州 call a 跑 开舵, 碰胡子 跑起 (their terminology); the common words and the
    ids are read as well; a bare terminology map writes the same."""
    guilin, penghu = load_preset("guilin"), load_preset("penghu")
    pao = Action("pao", 1, "x4")
    assert pao.to_text(guilin) == "开舵 四" and pao.to_text(penghu) == "跑起 四"
    assert pao.to_text({"pao": "开舵"}) == "开舵 四" and pao.to_text({}) == "跑 四"
    for text in ("开舵 四", "开舵四", "跑 四", "pao x4", "PAO X4", "ｐａｏ　ｘ４"):
        assert parse_action(guilin, text, seat=1) == pao
    assert parse_action(penghu, "跑起 四", seat=1) == pao
    with pytest.raises(ZipaiError) as info:
        Action("pass", 0).to_text(words=3)
    assert info.value.code == "bad_argument"


@cache
def offered(preset: str) -> tuple[tuple[Game, tuple[Action, ...]], ...]:
    """Every decision of two seeded hands of ``preset`` (one played by greedy bots, one by
    random ones): the game at that moment and the actions offered."""
    v = load_preset(preset)
    out = []
    for seed, bot in ((1, "greedy"), (2, "random")):
        game = Game(v, seed=seed)
        bots = make_bots([bot], seed, v.players)
        while not game.is_over:
            out.append((game.clone(), game.legal_actions()))
            st_ = game.state
            game.apply(bots[st_.acting_seat](st_, st_.options))
    return tuple(out)


@pytest.mark.parametrize("preset", preset_ids())
def test_every_offered_action_round_trips(preset):
    """For every action offered at every decision: its text and its text in the variant's
    words read back to the very action, against the game (the seat to act) and against the
    variant alone with the seat."""
    v = load_preset(preset)
    seen = 0
    for game, actions in offered(preset):
        for a in actions:
            for text in (a.to_text(), a.to_text(v)):
                assert parse_action(game, text) == a, text
                assert parse_action(game.state, text, seat=a.seat) == a, text
                assert parse_action(v, text, seat=a.seat) == a, text
            seen += 1
    assert seen > 50


def test_the_round_trip_met_every_shape():
    """The presets' hands above offered each kind, a 吃 with 比 and a 吃 with a 王 standing in
    it (永州, 郴州王), so the round trip covered them all."""
    kinds, shapes = set(), set()
    for preset in preset_ids():
        for _, actions in offered(preset):
            for a in actions:
                kinds.add(a.kind)
                if a.kind == "chi":
                    shapes.add(("bi" if len(a.melds) > 1 else "") +
                               ("king" if any(m.kings for m in a.melds) else ""))
    assert kinds == set(ActionKind)
    assert {"", "bi", "king"} <= shapes


# --- short forms against a game --------------------------------------------------------------

@cache
def chi_of_d2() -> Game:
    """Hunan seed 10, seat 0 having discarded its first option: seat 0 may 吃 the d2 seat 2
    discards in three ways (it holds x2 x2 d7 d10 and a d2): jiao(x2 x2 d2) with the
    er_qi_shi as 比, jiao(x2 d2 d2), or the er_qi_shi with the jiao as 比 (tests/test_human.py
    shows the same decision)."""
    game = Game(HUNAN, seed=10)
    bots = make_bots(["greedy", "random", "greedy"], 10, 3)
    game.apply(game.legal_actions()[0])
    while game.state.acting_seat != 0:
        st_ = game.state
        game.apply(bots[st_.acting_seat](st_, st_.options))
    return game


def test_short_forms_name_the_one_legal_action():
    game = chi_of_d2()
    texts = [a.to_text() for a in game.legal_actions()]
    assert texts == ["chi d2: x2 x2 d2 / d2 d7 d10", "chi d2: x2 d2 d2",
                     "chi d2: d2 d7 d10 / x2 x2 d2", "pass"]
    bi, plain, other, pass_ = game.legal_actions()
    for text, want in [("chi x2 x2 d2", bi), ("chi x2 x2", bi), ("吃 二二", bi), ("吃二二贰", bi),
                       ("chi d2 x2 x2", bi), ("chi x2 d2", plain), ("chi d2 d7 d10", other),
                       ("chi d7 d10", other), ("chi d2: d2 d7 d10 / x2 x2 d2", other),
                       ("chi d2 d7 d10 / x2 d2 x2", other), ("chi x2 x2 d2 d2 d7 d10", bi),
                       ("chi d10 d7 d2 x2 d2 x2", other), ("吃 二二贰 贰柒拾", bi),
                       ("chi d2 : x2 x2 d2 ／ d2 d7 d10", bi), ("pass", pass_), ("过", pass_),
                       ("PASS", pass_)]:
        assert parse_action(game, text) == want, text


def test_an_ambiguous_text_lists_the_candidates_in_its_own_notation():
    game = chi_of_d2()
    with pytest.raises(ZipaiError) as info:
        parse_action(game, "chi")
    assert info.value.code == "ambiguous_action"
    assert str(info.value) == ("action text 'chi' names 3 legal actions of seat 0: "
                               "chi d2: x2 x2 d2 / d2 d7 d10; chi d2: x2 d2 d2; "
                               "chi d2: d2 d7 d10 / x2 x2 d2")
    with pytest.raises(ZipaiError) as info:
        parse_action(game, "吃 贰")
    assert str(info.value).endswith(": 吃 贰: 二 二 贰 / 贰 柒 拾; 吃 贰: 二 贰 贰; "
                                    "吃 贰: 贰 柒 拾 / 二 二 贰")


def test_a_whole_action_that_is_not_legal_is_left_to_the_engine():
    """A whole action is returned as typed, a missing card being the one on offer, for
    Game.check to give the rules' reason: a 碰 without the pair, a 吃 plan that leaves a d2 in
    the hand, another seat's pass, a discard now."""
    game = chi_of_d2()
    cases = [("peng", Action("peng", 0, "d2"), "cannot_claim"),
             ("hu", Action("hu", 0, "d2"), "no_win"),
             ("chi d1 d2 d3", Action("chi", 0, "d2", (M("yi_er_san", "d1 d2 d3", "d2"),)),
              "bad_plan"),
             ("discard x2", Action("discard", 0, "x2"), "wrong_phase")]
    for text, want, code in cases:
        got = parse_action(game, text)
        assert got == want and got not in game.legal_actions()
        assert game.check(got).code == code, text
    other = parse_action(game, "pass", seat=1)
    assert other == Action("pass", 1) and game.check(other).code == "not_your_turn"
    with pytest.raises(ZipaiError) as info:
        parse_action(game, "discard")
    assert info.value.code == "no_such_action"
    assert "its legal actions: chi d2: x2 x2 d2 / d2 d7 d10; " in str(info.value)
    with pytest.raises(ZipaiError) as info:
        parse_action(game, "chi x1 x2 x3")
    assert info.value.code == "bad_action_text" and "does not hold the card taken, d2" in \
        str(info.value)


def test_a_discard_by_its_chinese_words():
    game = Game(HUNAN, seed=10)
    first = game.legal_actions()[0]
    assert first.to_text() == "discard x1" and first.to_text(HUNAN) == "打 一"
    for text in ("打 一", "打一", "出 一", "出牌 一", "打牌 x1", "discard 一", "Discard X1"):
        assert parse_action(game, text) == first, text
    assert parse_action(game, "打 九") == Action("discard", 0, "x9")


def test_the_seat_and_the_source():
    game = chi_of_d2()
    with pytest.raises(ZipaiError) as info:
        parse_action(HUNAN, "pass")
    assert info.value.code == "bad_seat"
    for seat in (3, -1, True, "0", 10 ** 40):
        with pytest.raises(ZipaiError) as info:
            parse_action(game, "pass", seat=seat)
        assert info.value.code == "bad_seat"
    with pytest.raises(ZipaiError) as info:
        parse_action("hunan", "pass", seat=0)
    assert info.value.code == "bad_argument"
    over = Game(HUNAN, seed=10)
    bots = make_bots(["greedy"], 10, 3)
    while not over.is_over:
        over.apply(bots[over.state.acting_seat](over.state, over.state.options))
    with pytest.raises(ZipaiError) as info:
        parse_action(over, "pass")
    assert info.value.code == "hand_over"
    assert over.check(parse_action(over, "pass", seat=0)).code == "hand_over"


@pytest.mark.parametrize("text, why", [
    ("chi x2 x2 d2", "without a game, a 吃 names the card taken and its whole plan"),
    ("chi d2", "without a game, a 吃 names the card taken"),
    ("peng", "without a game, peng names its card"),
    ("discard", "without a game, discard names its card"),
    ("chi d2: x2 K d2", "write each 王 with the card it stands for"),
    ("chi x1: x1 x5 x9", "x1 x5 x9 is not a chi-type meld"),
    ("chi d2: x1 x5 x9", "the 吃 meld x1 x5 x9 does not hold the card taken, d2"),
    ("chi d2: x2 x2 / x2", "a 吃 meld is three cards"),
    ("chi d2: x2 K(K) d2", "must name the one card the 王 stands for"),
    ("chi d2 x3: x2 x2 d2", "name the one card taken before ':'"),
    ("chi d2: x2 x2 d2: x1", "one ':' at most"),
    ("peng x4 x4", "peng names one card at most, not 2"),
    ("pass x4", "pass names no card"),
    ("peng x4: x4 x4 x4", "only a 吃 has a plan"),
    ("hu x11", "unknown card token 'x11'"),
    ("shout", "unknown action 'shout'; known: discard/打, chi/吃, peng/碰, pao/跑, hu/胡, pass/过"),
    ("chix4", "unknown action 'chix4'"),
    ("", "it is empty"),
    ("   ", "it is empty"),
    ("pass\u200b", "unprintable character U+200B"),
    ("pass\x1b[31m", "unprintable character U+001B"),
    ("pass " + "x" * 200, "over the 200 an action text may hold"),
])
def test_bad_texts_are_refused_saying_why(text, why):
    with pytest.raises(ZipaiError) as info:
        parse_action(HUNAN, text, seat=0)
    assert info.value.code == "bad_action_text" and why in str(info.value), str(info.value)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize("value", [None, 5, b"pass", ["pass"], {"kind": "pass"}])
def test_a_text_that_is_no_string(value):
    """Refused as a text, not as a Python error."""
    with pytest.raises(ZipaiError) as info:
        parse_action(HUNAN, value, seat=0)
    assert info.value.code == "bad_action_text"


ACTION_CHARS = ("chipengaoudsrx0123456789K()王:/：／ 打吃碰跑胡过出牌"
                "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾,、\u200b\x00")
#: pieces of action texts, joined at random into texts near the notation
PIECES = ["chi", "peng", "pao", "hu", "pass", "discard", "打", "吃", "过", "x2", "d2", "d7",
          "d10", "x1", "K", "K(x2)", "王(贰)", "K(", ")", ":", "/", "x2x2", "二", "贰柒拾", ""]


@given(st.one_of(st.text(max_size=240), st.text(alphabet=ACTION_CHARS, max_size=40),
                 st.lists(st.sampled_from(PIECES), max_size=10).map(" ".join)),
       st.sampled_from(["game", "state", "variant"]))
def test_any_text_reads_or_is_refused_cleanly(text, against):
    game = chi_of_d2()
    source = {"game": game, "state": game.state, "variant": HUNAN}[against]
    try:
        got = parse_action(source, text, seat=0)
    except ZipaiError as exc:
        assert exc.code in TEXT_CODES, exc.code
        assert len(str(exc)) < 2000
        return
    assert isinstance(got, Action) and got.seat == 0
    if against != "variant":
        assert got in game.legal_actions() or game.check(got) is not None


# --- JSON of actions, events and melds -------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=6) | st.sampled_from(["x1", "d10", "K", "shun", "chi",
                                                             "draw", "十"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)
FIELDS = ["kind", "seat", "card", "melds", "note"]
MELD_FIELDS = ["kind", "cards", "claimed", "bi", "kings"]


@pytest.mark.parametrize("data, message", [
    ({"kind": "discard", "seat": 0, "card": 5}, "action.card: 5 (int) is not a card token"),
    ({"kind": "discard", "seat": 0, "card": "x5 x6"}, "action.card: 'x5 x6' is not a card token"),
    ({"seat": 0}, "action.kind: missing"),
    ({"kind": "fold", "seat": 0}, "action.kind: 'fold' is not an action kind (discard, chi,"),
    ({"kind": "pass", "seat": "0"}, "action.seat: '0' is not a seat"),
    ({"kind": "pass", "seat": True}, "action.seat: True is not a seat"),
    ({"kind": "pass", "seat": 10 ** 5000}, "action.seat: an int of 16610 bits is not a seat"),
    ([1, 2], "action: a list is not an action object"),
    ({"kind": "chi", "seat": 0, "card": "x2", "melds": {"kind": "shun"}},
     "action.melds: a dict is not a list of meld objects"),
    ({"kind": "chi", "seat": 0, "card": "x2", "melds": [{"kind": "shun", "cards": "x1x2x3"}]},
     "action.melds[0].cards: 'x1x2x3' is not a list of card tokens"),
    ({"kind": "chi", "seat": 0, "card": "x2", "melds": [{"kind": "shun",
                                                         "cards": ["x1", None, "x3"]}]},
     "action.melds[0].cards[1]: None is not a card token"),
    ({"kind": "chi", "seat": 0, "card": "x2", "melds": [{"kind": "shun",
                                                         "cards": ["x2", "x7", "x10"]}]},
     "action.melds[0]: x2 x7 x10 is not a shun meld"),
    ({"kind": "chi", "seat": 0, "card": "x2", "melds": [{"kind": "yi_er_san", "bi": "yes",
                                                         "cards": ["x1", "x2", "x3"]}]},
     "action.melds[0].bi: 'yes' is not true or false"),
    ({"kind": "chi", "seat": 0, "card": "x2", "melds": [{"cards": ["x1", "x2", "x3"]}]},
     "action.melds[0].kind: missing"),
])
def test_a_wrong_action_json_names_its_field(data, message):
    with pytest.raises(ZipaiError) as info:
        Action.from_json(data)
    assert info.value.code == "bad_action" and str(info.value).startswith(message), \
        str(info.value)


def test_a_wrong_event_json_names_its_field():
    for data, message in [({"kind": "draw", "note": 3}, "event.note: 3 (int) is not a string"),
                          ({"kind": "wei", "seat": -1}, "event.seat: -1 (int) is not a seat"),
                          ({"kind": "nap"}, "event.kind: 'nap' is not an event kind"),
                          ("draw", "event: 'draw' is not an event object")]:
        with pytest.raises(ZipaiError) as info:
            Event.from_json(data)
        assert info.value.code == "bad_action" and str(info.value).startswith(message)
    assert Event.from_json({"kind": "draw", "seat": None}) == Event(EventKind.DRAW)
    assert Action.from_json(CHI_KING.to_json()) == CHI_KING
    assert card_from_json("十", "x") == C("x10") and melds_from_json([]) == ()


VALID = [Action("discard", 0, "x5").to_json(), CHI_BI.to_json(), CHI_KING.to_json(),
         Event(EventKind.PENG, 1, C("d4"), (M("peng", "d4 d4 d4", "d4"),), "x").to_json()]


@given(st.sampled_from(range(len(VALID))),
       st.sampled_from([(False, f) for f in FIELDS] + [(True, f) for f in MELD_FIELDS]), JSON,
       st.booleans())
def test_hostile_json_is_refused_naming_a_field(which, place, value, delete):
    """A valid action or event dict with one field (at the top or in its first meld) deleted
    or replaced by any JSON value: decoded, or refused with ``bad_action`` naming the field,
    never a Python error's text."""
    in_meld, field = place
    data = {**VALID[which], "melds": [dict(m) for m in VALID[which].get("melds", [])]}
    target = data["melds"][0] if in_meld and data["melds"] else data
    if delete:
        target.pop(field, None)
    else:
        target[field] = value
    decode = Event.from_json if which == 3 else Action.from_json
    try:
        decode(data)
    except ZipaiError as exc:
        text = str(exc)
        assert exc.code == "bad_action"
        assert text.startswith(("action", "event")) and len(text) < 400
        for leak in ("Error(", "object has no attribute", "not subscriptable", "unhashable",
                     "Traceback"):
            assert leak not in text


@given(JSON)
def test_any_json_value_as_an_action(value):
    for decode in (Action.from_json, Event.from_json, melds_from_json, card_from_json):
        try:
            decode(value)
        except ZipaiError as exc:
            assert exc.code == "bad_action"


def test_unknown_fields_of_an_action_event_or_meld_are_refused():
    from zipai_rules.engine import Event
    from zipai_rules.errors import RecordError
    cases = [
        (Action.from_json, {"kind": "discard", "seat": 0, "card": "x2", "evil": 1},
         "action: unknown field 'evil'; the fields are card, kind, melds, seat"),
        (Action.from_json, {"kind": "chi", "seat": 0, "card": "x2",
                            "melds": [{"kind": "shun", "cards": ["x1", "x2", "x3"], "x": 1}]},
         "action.melds[0]: unknown field 'x'; the fields are bi, cards, claimed, kind, kings"),
        (Event.from_json, {"kind": "draw", "seat": 0, "secret": "d7"},
         "event: unknown field 'secret'; the fields are card, kind, melds, note, seat"),
        (Action.from_json, {10 ** 5000: 1, "kind": "pass", "seat": 0},
         "action: unknown field (a key of type int); the fields are card, kind, melds, seat"),
    ]
    for read, data, message in cases:
        with pytest.raises(RecordError) as err:
            read(data)
        assert err.value.code == "bad_action" and str(err.value) == message
