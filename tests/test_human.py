"""``zipai play --human``: a person plays a seat at the terminal. Driven through a
pseudo-terminal as a person would use it (pexpect), and the console's parts one by one."""

from __future__ import annotations

import os
import sys

import pytest

from zipai_rules.bots import make_bots
from zipai_rules.cards import parse_indices, token
from zipai_rules.cli import main
from zipai_rules.cli.human import LEFT, Console, _Leave, group_hand
from zipai_rules.engine import Action, Game
from zipai_rules.errors import ZipaiError
from zipai_rules.presets import load_preset, preset_ids
from zipai_rules.records import read_record
from zipai_rules.settlement import settle
from zipai_rules.wording import Words

pexpect = pytest.importorskip("pexpect", reason="pexpect (the test extra) drives the terminal")

HUNAN = load_preset("hunan")
BOTS = ["greedy", "random", "greedy"]
PROMPT = r"choose 1-(\d+) or type an action \(help, quit to leave\): "
ZH_PROMPT = r"选 1-(\d+) 或输入动作（help 帮助，quit 退出）："


def spawn(*argv: str):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    return pexpect.spawn(sys.executable, ["-m", "zipai_rules.cli", "play", *argv],
                         encoding="utf-8", timeout=120, env=env, dimensions=(50, 200))


def screen_of(child) -> str:
    """What the terminal showed before the last match, its line ends as printed."""
    return child.before.replace("\r\n", "\n")


def first_option_game(seed: int) -> tuple[Game, int]:
    """The hand of ``--seed SEED`` with seat 0 always choosing its first option and the
    default bots in the other seats; and how many decisions seat 0 made."""
    game = Game(HUNAN, seed=seed)
    bots = make_bots(BOTS, seed, 3)
    asked = 0
    while not game.is_over:
        state = game.state
        seat = state.acting_seat
        if seat == 0:
            asked += 1
            game.apply(state.options[0])
        else:
            game.apply(bots[seat](state, state.options))
    return game, asked


def at_decision(seed: int, k: int) -> tuple[Game, list]:
    """The hand of ``--seed SEED`` at seat 0's ``k``-th decision, seat 0 having chosen its
    first option before, the default bots playing the other seats; and the bots."""
    game = Game(HUNAN, seed=seed)
    bots = make_bots(BOTS, seed, 3)
    asked = 0
    while True:
        st = game.state
        if st.acting_seat == 0:
            asked += 1
            if asked == k:
                return game, bots
            game.apply(st.options[0])
        else:
            game.apply(bots[st.acting_seat](st, st.options))


def test_a_hand_played_to_its_end_through_a_terminal(tmp_path):
    """Seed 10, always option 1: seat 0 is asked 9 times and wins with 24 胡息; the screen
    ends with the same result and payments as a direct replay of those choices, and the
    record holds those very actions."""
    game, asked = first_option_game(10)
    r = game.state.final_result
    assert (asked, r.kind, r.winner, r.huxi) == (9, "hu", 0, 24)
    pays = settle(HUNAN, r, events=game.events).payments
    child = spawn("--human", "0", "--seed", "10", "--record", str(tmp_path / "hand.json"))
    prompts = 0
    while child.expect([PROMPT, "settlement:"]) == 0:
        prompts += 1
        child.sendline("1")
    result = screen_of(child)  # the moves after the last decision, and the result
    child.expect(pexpect.EOF)
    child.close()
    assert prompts == 9 and child.exitstatus == 0
    screen = screen_of(child)
    assert "Traceback" not in screen
    payments = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(pays))
    assert f"  payments (囤): {payments}" in screen
    assert payments == "seat 0 +8, seat 1 -4, seat 2 -4"  # (24 − 12) // 3 = 4 囤 each
    assert "result: seat 0 wins, 胡 (hu) on " in result and ", 24 胡息\n" in result
    record = read_record(tmp_path / "hand.json")
    assert record["actions"] == [a.to_json() for a in game.actions]
    assert record["bots"] == ["human", "random", "greedy"]


def test_the_table_as_the_seat_sees_it():
    """The first question of seed 10: seat 0 (the dealer, 21 cards) sees its own hand grouped,
    seat 1's dealt 提 of x4 as Hunan shows it to the others (one card up, three face down:
    display.ti one_up) with the 16 cards left in its hand, and its 12 kinds of card to
    discard."""
    child = spawn("--human", "0", "--seed", "10")
    child.expect(PROMPT)
    screen = screen_of(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    hand = sorted(Game(HUNAN, seed=10).deal.hands[0])
    assert "  seat 1 dealt 20: (hidden)" in screen
    assert "--- step 1: seat 0 (you) to act ---" in screen
    assert "  seat 1 (bot): 16 in hand; melds ti(x4 ? ? ?); discards -" in screen
    assert "  seat 2 (bot): 20 in hand; melds -; discards -" in screen
    assert ("your hand (21): [d3 d3 d3] [d8 d8 d8] [x2 x2] [x7 x7] [x9 x9] [d2 d7 d10] "
            "x1 x10 d1 d4 d6 d9\n") in screen
    shown = screen.split("your hand (21): ")[1].splitlines()[0]
    assert sorted(parse_indices(shown.replace("[", " ").replace("]", " "))) == hand
    assert "  12. discard d10\n" in screen and "  13. " not in screen


def test_a_wrong_input_is_refused_and_asked_again():
    game = Game(HUNAN, seed=10)
    hand = game.state.seats[0].hand
    missing = next(c for c in range(20) if hand[c] == 0)
    absent = token(missing)
    refusal = game.check(Action("discard", 0, missing))
    assert refusal is not None and refusal.code == "not_held"
    n = len(game.state.options)
    child = spawn("--human", "0", "--seed", "10")
    child.expect(PROMPT)
    child.sendline(str(n + 1))
    child.expect_exact(f"no option {n + 1}: choose 1-{n}")
    child.expect(PROMPT)
    child.sendline(f"discard {absent}")
    child.expect_exact(f"refused: {refusal.message}")
    child.expect(PROMPT)
    child.sendline("peng")
    peng = game.check(Action("peng", 0, None))
    assert peng is not None
    child.expect_exact(f"refused: {peng.message}")
    child.expect(PROMPT)
    child.sendline("shout")
    child.expect_exact("unknown action 'shout'")
    child.expect(PROMPT)
    first = game.state.options[0]
    child.sendline(f"discard {token(first.card)}")
    child.expect_exact(f"   1. seat 0 discard {first.describe().split()[-1]}")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == LEFT == 3
    assert "left at step " in screen_of(child) and "Traceback" not in screen_of(child)


def test_end_of_input_and_ctrl_c_leave_cleanly():
    child = spawn("--human", "0", "--seed", "10")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3
    assert "left at step 1: the hand is not finished" in screen_of(child)

    child = spawn("--human", "0", "--seed", "10")
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "interrupted: the hand is not finished" in screen_of(child)
    assert "Traceback" not in screen_of(child)


def test_zh_speaks_the_variants_words():
    """Under --zh the options are 打 (discard) with Chinese cards; a typed 打 is taken, and
    the log line says 打 too. At the next decision (a 吃 of d2 on offer) a typed 碰 is
    refused with the engine's reason, 过 is taken."""
    game = Game(HUNAN, seed=10)
    second, _ = at_decision(10, 2)
    peng = second.check(Action("peng", 0, parse_indices("d2")[0]))
    assert peng is not None and peng.message == "a 碰 needs a pair of d2; seat 0 holds 1"
    first = game.state.options[0]
    card = Words(HUNAN, zh=True).cards([first.card])
    child = spawn("--human", "0", "--seed", "10", "--zh")
    child.expect(ZH_PROMPT)
    assert "你可以：" in screen_of(child) and f"   1. 打 {card}" in screen_of(child)
    child.sendline(f"打 {card}")
    child.expect_exact(f"   1. 0号位 打 {card}")
    child.expect(ZH_PROMPT)
    assert "   1. 吃 贰 绞牌(二 二 贰) + 比:二七十(贰 柒 拾)\n" in screen_of(child)
    child.sendline("碰")
    child.expect_exact(f"不行：{peng.message}")
    child.expect(ZH_PROMPT)
    child.sendline("过")
    child.expect_exact("0号位 过 贰")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3 and "已离开" in screen_of(child)


# --- the console's parts, in-process ----------------------------------------------------------

def test_group_hand():
    """坎 first, then pairs, then runs of the cards left, then the loose cards."""
    hand = [0] * 21
    for c in parse_indices("x2 x2 x2 x5 x5 x6 x7 x8 d2 d7 d10 x1 d9"):
        hand[c] += 1
    groups = [" ".join(token(c) for c in g)
              for g in group_hand(hand)]
    assert groups == ["x2 x2 x2", "x5 x5", "x6 x7 x8", "d2 d7 d10", "x1", "d9"]


def test_a_chi_with_bi_is_spelled_out_and_typed():
    """Seed 10, seat 0 choosing option 1: at its second decision it may 吃 d2 in two ways,
    each with the other meld as its 比 (seat 0 holds x2 x2 d7 d10 and one d2 of its own).
    An option shows both melds; typing both melds picks the plan; the 吃 meld alone (or the
    two hand cards of it) picks the one plan that starts with it, its 比 being forced; a plan
    the rules refuse gets the engine's reason; the card alone names three plans, which are
    listed (the parser is :func:`zipai_rules.engine.notation.parse_action`)."""
    game, bots = at_decision(10, 2)
    obs = game.observe(0)
    console = Console(game, [0], bots, Words(HUNAN))
    plans = [a for a in obs.options if len(a.melds) > 1]
    assert [Words(HUNAN).option(a) for a in plans] == \
        ["chi d2 jiao(x2 x2 d2) + bi:er_qi_shi(d2 d7 d10)",
         "chi d2 er_qi_shi(d2 d7 d10) + bi:jiao(x2 x2 d2)"]
    assert console.parse("chi x2 x2 d2 d2 d7 d10", obs) == plans[0]
    assert console.parse("chi d10 d7 d2 x2 d2 x2", obs) == plans[1]
    assert console.parse("chi x2 x2 d2", obs) == plans[0] == console.parse("chi x2 x2", obs)
    assert console.parse("chi x2 x2 d2 / d2 d7 d10", obs) == plans[0]
    assert console.parse("chi d2: d2 d7 d10 / x2 x2 d2", obs) == plans[1]
    assert console.parse("chi x2 d2", obs) == next(a for a in obs.options
                                                   if a.to_text() == "chi d2: x2 d2 d2")
    wrong = console.parse("chi d1 d2 d3", obs)
    assert isinstance(wrong, Action) and wrong not in obs.options
    refusal = game.check(wrong)  # the d2 still held after the 吃 must be laid down as 比
    assert refusal is not None and refusal.code == "bad_plan"
    assert refusal.message.startswith("the 吃 plan yi_er_san(d1 d2 d3) does not fit seat 0's "
                                      "hand; the plans that fit: jiao(x2 x2 d2) bi:")
    assert console.parse("chi d2", obs) == (
        "action text 'chi d2' names 3 legal actions of seat 0: chi d2: x2 x2 d2 / d2 d7 d10; "
        "chi d2: x2 d2 d2; chi d2: d2 d7 d10 / x2 x2 d2")
    assert console.parse("chi x2 x2 d2 d2", obs).startswith(
        "action text 'chi x2 x2 d2 d2': a 吃 meld is three cards")
    zh = Console(game, [0], bots, Words(HUNAN, zh=True))
    assert zh.parse("吃 二二贰 贰柒拾", obs) == plans[0]
    assert Words(HUNAN, zh=True).option(plans[0]) == "吃 贰 绞牌(二 二 贰) + 比:二七十(贰 柒 拾)"


def test_human_refused_with_other_outputs(capsys):
    for argv in (["--json"], ["--seat", "1"], ["--hands", "2"]):
        assert main(["play", "--human", "0", *argv]) == 2
        assert "--human plays one hand at the terminal" in capsys.readouterr().err
    assert main(["play", "--human", "3"]) == 2
    assert "seat 3 outside 0..2" in capsys.readouterr().err


@pytest.mark.parametrize("variant, item, text, zh", [
    ("hunan", "payment", "seat 2 pays 6 for all losers", "2号位 替各输家付 6"),
    ("hunan", "payment", "seat 1 pays 4 alone, 2 × 2", "1号位 独付 4（2 × 2）"),
    ("yongzhou", "payment", "seat 0 holds 2 K K: pays seat 1 4",
     "0号位 持 2 张 王 王：付 1号位 4"),
    ("hengyang_honghei", "payment", "seat 1 提 d3: each other player pays 2",
     "1号位 提 叁：其他各家付 2"),
    ("penghu", "payment", "the seat sitting out gains 4, each loser paying 2",
     "轮空一家 得 4，各输家付 2"),
    ("guilin", "xing", "flipped x4: 上醒 x5 × 2: +2 舵", "翻 四：上醒 五 × 2: +2 舵"),
    ("guilin", "conversion", "21 胡 counts as 20 → 3 舵 [20 // 5 − 1]",
     "21 胡 算 20 → 3 舵 [20 // 5 − 1]"),
    ("hunan", "huangzhuang", "the wall is empty and nobody won", "牌已摸完，无人胡牌"),
])
def test_settlement_texts_in_chinese(variant, item, text, zh):
    from zipai_rules.settlement import Line

    line = Line(item, "x", text, 0)
    assert Words(load_preset(variant), zh=True).settlement_text(line) == zh
    assert Words(load_preset(variant)).settlement_text(line) == text


def test_event_notes_and_words_in_chinese():
    from zipai_rules.engine.actions import Event, EventKind
    from zipai_rules.melds import Meld

    yz, w = load_preset("yongzhou"), Words(load_preset("yongzhou"), zh=True)
    x9 = parse_indices("x9")[0]
    # 永州 calls a 偎 啸 and a 提 倾 (its terminology)
    assert w.event(Event(EventKind.WEI, 1, x9, (Meld("wei", (x9,) * 3),), "dealt, forced")) \
        == "1号位 啸 九 啸(九 九 九) (起手，强制)"
    assert w.event(Event(EventKind.TI, 2, None, (), "on face-down meld 2")) == \
        "2号位 倾 (扣着的第2组)"
    assert w.event(Event(EventKind.CHOU, 0, x9, (), "peng")) == "0号位 臭牌 九 (碰)"
    assert w.event(Event(EventKind.DEAL, 0, None, (), "20 cards")) == "0号位 发牌 (20张)"
    assert yz.term("chou") == "臭牌" and w.word("discard") == "打"
    assert Words(yz).event(Event(EventKind.CHOU, 0, x9, (), "peng")) == "seat 0 chou x9 (peng)"


@pytest.mark.parametrize("variant", preset_ids())
def test_every_preset_played_by_a_person_at_random(variant):
    """A person choosing at random in every preset (seeds 1, 2; the seat after the dealer):
    the hand ends, the actions replay to the same result, the person decides in one hand at
    least (chenzhou_wang's seed 1 is the dealer's win on the 21 dealt cards, three 王 among
    them), and the screen never shows another seat's pass or 臭 mark."""
    import random
    import re

    from zipai_rules.engine.game import replay

    v = load_preset(variant)
    decided = 0
    for seed in (1, 2):
        game, out, rng = Game(v, seed=seed), [], random.Random(seed)

        def pick(_prompt: str, game: Game = game, rng: random.Random = rng) -> str:
            return str(rng.randint(1, len(game.state.options)))
        console = Console(game, [1], make_bots(["greedy"], seed, v.players), Words(v), pick,
                          out.append)
        console.play()
        again = replay(v, game.deal, game.actions)
        assert game.is_over and again.result == game.result
        decided += any(line.startswith("--- step ") for line in out)
        assert not [line for line in out if re.search(r"seat [02] (pass|chou)", line)]
    assert decided


def _numbers(lines: list[str]) -> list[int]:
    import re
    return [int(m.group(1)) for line in lines if (m := re.match(r"\s*(\d+)\. seat ", line))]


def test_lines_are_numbered_by_what_the_seat_was_shown():
    """Hunan seed 3, seat 0 discards 三 first (option 3): seat 1 declines its own draw of 三
    (a pass seat 0 is not shown), then seat 2 takes it. The record's steps would number seat
    2's 吃 3 and so tell seat 0 that seat 1 was asked; the screen numbers it 2."""
    game, out = Game(HUNAN, seed=3), []
    answers = iter(["3"])
    console = Console(game, [0], make_bots(BOTS, 3, 3), Words(HUNAN),
                      lambda _p: next(answers, "1"), out.append)
    console.play()
    assert game.actions[1].kind == "pass" and game.actions[1].seat == 1
    numbers = _numbers(out)
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) < len(game.actions)  # passes of the others are not counted
    second = next(line for line in out if line.lstrip().startswith("2. seat "))
    assert "seat 2 chi x3" in second
    headers = [line for line in out if line.startswith("--- step ")]
    assert headers[0].startswith("--- step 1: ")


@pytest.mark.parametrize("text", ["²", "①", "١", "１", "9" * 5000, "0", "00000000001"])
def test_only_ascii_numbers_choose(text):
    """int() reads other digits than 0-9 (and refuses some isdigit() takes): a number is
    ASCII digits, within the options; anything else is answered, never raised."""
    game = Game(HUNAN, seed=10)
    console = Console(game, [0], make_bots(BOTS, 10, 3), Words(HUNAN))
    answer = console.parse(text, game.observe(0))
    assert isinstance(answer, str) and len(answer) < 400


def test_a_second_quad_is_named_in_the_variants_word():
    """The engine notes a second 提/跑 as 八块 (Hunan's word); under --zh the note is the
    variant's own: Guilin's 重舵 (variants/guilin.yaml terminology repeat_quad)."""
    from zipai_rules.engine.actions import EventKind

    guilin = Words(load_preset("guilin"), zh=True)
    assert guilin.note("forced, 八块", EventKind.PAO) == "强制，重舵"
    assert Words(HUNAN, zh=True).note("forced, 八块", EventKind.PAO) == "强制，八块"


def test_a_huge_seat_argument_is_quoted_short(capsys):
    """A 5,000-digit --human value (int() refuses it) is refused with a short quote of it."""
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--human", "9" * 5000])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "is not an integer" in err and len(err) < 1000


# --- hints, help, undo and pace (issue 30) ----------------------------------------------------

def test_the_table_shows_huxi_and_unseen_cards_through_a_terminal():
    """Seed 10, seat 0's first question: seat 1's dealt small 提 of x4 is 9 胡息 (rules-hunan
    table: small 提 9); seat 0's hand holds two big 坎 (6 each), a small and a big 二七十 (3
    and 6): 21; x4 is all known (the 提), d3 and d8 have one copy left unseen each. Under
    --zh the same values in the variant's words."""
    child = spawn("--human", "0", "--seed", "10")
    child.expect(PROMPT)
    screen = screen_of(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "  seat 1 (bot): 16 in hand; melds ti(x4 ? ? ?); discards -; table 9 胡息\n" in screen
    assert "  seat 0 (you): 21 in hand; melds -; discards -; table 0 胡息\n" in screen
    assert ("your 胡息: table 0 + hand 21 (kan(d3 d3 d3) 6, kan(d8 d8 d8) 6, "
            "er_qi_shi(x2 x7 x10) 3, er_qi_shi(d2 d7 d10) 6) = 21\n") in screen
    assert ("unseen: x1:3 x2:2 x3:4 x4:0 x5:4 x6:4 x7:2 x8:4 x9:2 x10:3 d1:3 d2:3 d3:1 d4:3 "
            "d5:4 d6:3 d7:3 d8:1 d9:3 d10:3\n") in screen
    child = spawn("--human", "0", "--seed", "10", "--zh")
    child.expect(ZH_PROMPT)
    screen = screen_of(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "  1号位（机器人）：手牌 16 张；桌面 提(四 ? ? ?)；弃牌 -；桌面胡息 9\n" in screen
    assert ("你的胡息：桌面 0 + 手中 21（坎(叁 叁 叁) 6，坎(捌 捌 捌) 6，二七十(二 七 十) 3，"
            "二七十(贰 柒 拾) 6） = 21\n") in screen
    assert "未见：一:3 二:2 三:4 四:0 " in screen and " 捌:1 玖:3 拾:3\n" in screen


def bot_position(seed: int, decision: int) -> Game:
    """Hunan ``--seed SEED`` played by the default bots in every seat, at its ``decision``-th
    action (0-based)."""
    game = Game(HUNAN, seed=seed)
    bots = make_bots(BOTS, seed, 3)
    while len(game.actions) < decision:
        st = game.state
        game.apply(bots[st.acting_seat](st, st.options))
    return game


def test_waits_are_shown_with_their_huxi_and_the_dead_ones_marked():
    """Hunan seed 0 of the bots: at its 21st action seat 0 (no discard owed) waits on x2 (18
    胡息 from either draw), x3 (15, from another seat's draw only: its own would be a forced
    偎 of its pair) and x6 (15); at its 20th (a discard owed) discarding x3 leaves it waiting
    on x7 alone, every x7 seen (dead). The values are the analysis's (tests/test_hints.py
    checks them against the reference decomposer); here, that the screen says them."""
    game = bot_position(0, 21)
    assert game.state.acting_seat == 0
    lines = Console(game, [0], [], Words(HUNAN)).table(game.observe(0))
    assert "waits (听牌): x2 18 [2 unseen], x3 15 draw [1 unseen], x6 15 [4 unseen]" in lines
    zh = Console(game, [0], [], Words(HUNAN, zh=True)).table(game.observe(0))
    assert "听牌：二 18（未见 2 张），三 15 他家摸（未见 1 张），六 15（未见 4 张）" in zh
    game = bot_position(0, 20)
    lines = Console(game, [0], [], Words(HUNAN)).table(game.observe(0))
    plans = next(line for line in lines if line.startswith("discard to wait"))
    assert plans.startswith("discard to wait (听牌): x3 → x7 15 [dead: every copy seen]; "
                            "x4 → x6 15 [4 unseen]; x7 → x2 18 [3 unseen], ")
    seen = game.observe(0)
    x7 = parse_indices("x7")[0]
    copies = seen.hand[x7] + sum(c == x7 for d in seen.discards for c in d) + sum(
        c == x7 for ms in seen.melds for m in ms for c in m.cards)
    assert copies == 4  # dead: all four x7 are in sight of seat 0


def test_help_and_undo_through_a_terminal():
    """help lists the commands; undo at the first decision has nothing to take back; after
    one decision undo goes back to it, and the same choice plays on exactly as before (the
    bots' generators are restored too)."""
    child = spawn("--human", "0", "--seed", "10")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect(PROMPT)
    shown = screen_of(child)
    assert "commands:\n  1-12            choose that option\n" in shown
    assert "  undo            take back your last decision" in shown
    assert "cards: x1..x10 small, d1..d10 big" in shown
    child.sendline("undo")
    child.expect_exact("nothing to undo: this is your first decision")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    first = screen_of(child)
    child.sendline("undo")
    child.expect_exact("undone: back to step 1")
    child.expect_exact("--- step 1: seat 0 (you) to act ---")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    assert screen_of(child) == first  # the same moves and the same table again
    assert "--- step 4: seat 0 (you) to act ---" in first
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == LEFT


def test_undo_is_refused_where_another_person_decided_since():
    """Two people (seats 0 and 1, seed 10): at seat 0's second decision, seat 1 has decided
    in between, so undo would take its decision back too: refused, nothing taken back."""
    game, out = Game(HUNAN, seed=10), []
    prompts: list[int] = []  # the seat asked at each prompt
    at_undo: list[int] = []  # the actions played when undo was typed

    def read(_prompt: str) -> str:
        header = next(line for line in reversed(out) if line.startswith("--- step "))
        prompts.append(int(header.split("seat ")[1].split()[0]))
        asked = prompts.count(0)
        if asked == 2:
            at_undo.append(len(game.actions))
        return "1" if asked < 2 else "undo" if asked == 2 else "quit"
    console = Console(game, [0, 1], make_bots(BOTS, 10, 3), Words(HUNAN), read, out.append)
    with pytest.raises(_Leave):
        console.play()
    assert prompts[0] == 0 and 1 in prompts[1:-2] and prompts[-2:] == [0, 0]
    assert out[-1] == ("undo refused: it would take back seat 1's decision too (a person, "
                       "not a bot); undo plays against bots only")
    assert at_undo == [len(game.actions)] and any(a.seat == 1 for a in game.actions)


def test_pace_pauses_only_after_bot_moves_the_seat_is_shown():
    """--pace: a pause after each bot move that printed a line, none after a bot's pass the
    seat is not shown (a pause would tell that the bot was asked), none after the last move."""
    game, out = Game(HUNAN, seed=3), []
    console = Console(game, [0], make_bots(BOTS, 3, 3), Words(HUNAN), lambda _p: "1",
                      out.append, pace=0.25, sleep=lambda s: out.append(("sleep", s)))
    console.play()
    pauses = [x for x in out if isinstance(x, tuple)]
    assert pauses and set(pauses) == {("sleep", 0.25)}
    # count independently: the bot moves after which seat 0 was shown a new event
    again, expected, unseen = Game(HUNAN, seed=3), 0, 0
    for action in game.actions:
        before = len(again.events_for(0))
        again.apply(action)
        if action.seat != 0:
            grew = len(again.events_for(0)) > before
            expected += grew and not again.is_over
            unseen += not grew
    assert len(pauses) == expected and unseen > 0
    assert all(isinstance(out[k - 1], str) for k, x in enumerate(out) if isinstance(x, tuple))


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "11", "1e3", "", "0x1", "٣", "9" * 5000,
                                   "1.5.5", " 1"])
def test_hostile_pace_values_are_refused(value, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--human", "0", "--pace", value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "error: argument --pace" in err and len(err) < 1000
    assert "is not a number of seconds from 0 to 10" in err


def test_pace_needs_human(capsys):
    assert main(["play", "--pace", "0.5", "--seed", "1"]) == 2
    assert "--pace paces the bots' moves between your decisions" in capsys.readouterr().err


@pytest.mark.parametrize("pace", [-0.5, 10.5, float("nan"), float("inf"), "1", True, None])
def test_a_bad_pace_is_refused_by_the_console(pace):
    with pytest.raises(ZipaiError, match="seconds from 0 to 10"):
        Console(Game(HUNAN, seed=1), [0], make_bots(BOTS, 1, 3), Words(HUNAN), pace=pace)


def test_a_face_down_meld_is_counted_apart():
    """Hunan lays a 偎 face down (display.wei hidden): its 胡息 does not show to the others,
    so their line counts the melds that show and says how many more lie face down."""
    for seed in range(30):
        game = Game(HUNAN, seed=seed)
        bots = make_bots(BOTS, seed, 3)
        while not game.is_over:
            st = game.state
            obs = game.observe(st.acting_seat)
            down = [(s, ms) for s, ms in enumerate(obs.melds) if any(m.cards == () for m in ms)]
            if down:
                s, melds = down[0]
                lines = Console(game, [obs.seat], [], Words(HUNAN)).table(obs)
                line = next(x for x in lines if x.startswith(f"  seat {s} "))
                n = sum(1 for m in melds if m.cards == ())
                assert line.endswith(f" 胡息 + {n} face down") and "wei(? ? ?)" in line
                zh = Console(game, [obs.seat], [], Words(HUNAN, zh=True)).table(obs)
                assert any(x.endswith(f"（另有 {n} 组扣着）") for x in zh)
                return
            game.apply(bots[st.acting_seat](st, st.options))
    raise AssertionError("no face-down 偎 in 30 seeded hands")


def test_pace_from_the_command_line(monkeypatch, capsys):
    """``--pace 0.25`` reaches the console: the hand of seed 3 (seat 0 always choosing option
    1) pauses a quarter second after bot moves, as the console test counts them."""
    import io
    import time

    pauses: list[float] = []
    monkeypatch.setattr(time, "sleep", pauses.append)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200))
    assert main(["play", "--human", "0", "--seed", "3", "--pace", "0.25"]) == 0
    assert "settlement:" in capsys.readouterr().out
    game, out = Game(HUNAN, seed=3), []
    Console(game, [0], make_bots(BOTS, 3, 3), Words(HUNAN), lambda _p: "1", out.append,
            pace=0.25, sleep=lambda s: out.append(("sleep", s))).play()
    assert pauses == [0.25] * sum(isinstance(x, tuple) for x in out) and pauses
