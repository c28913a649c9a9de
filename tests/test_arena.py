"""``zipai arena`` and :func:`zipai_rules.arena.arena`: the games it plays, its statistics
against a count made here by hand, its policies, and the arguments it refuses."""

import json
import math
import statistics

import pytest

from zipai_rules.arena import Policy, arena, format_arena, normal_quantile
from zipai_rules.bots import BOTS
from zipai_rules.cli import main
from zipai_rules.engine.encoding import encode_action
from zipai_rules.engine.game import Game
from zipai_rules.errors import ZipaiError
from zipai_rules.presets import load_preset
from zipai_rules.settlement import settle


def test_normal_quantile_known_values():
    # the standard normal table: z(0.975) = 1.959964, z(0.995) = 2.575829, z(0.5) = 0
    assert normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert normal_quantile(0.995) == pytest.approx(2.575829, abs=1e-6)
    assert normal_quantile(0.5) == pytest.approx(0.0, abs=1e-9)
    for bad in (0, 1, 1.5, -0.1, True, "0.5"):
        with pytest.raises(ZipaiError):
            normal_quantile(bad)


def hand_count(names, deals, seed):
    """Each name's per-deal win shares and mean payments, played here game by game: deal
    ``seed + i``, seating ``r`` puts entrant ``k`` in seat ``(k + r) % 3``, its bot seeded
    ``deal * 31 + k`` (as zipai_rules.arena documents)."""
    v = load_preset("hunan")
    lineup = [names[s % len(names)] for s in range(3)]
    wins = {n: [0] * deals for n in lineup}
    units = {n: [0] * deals for n in lineup}
    for i in range(deals):
        deal = seed + i
        for r in range(3):
            game = Game(v, seed=deal)
            seat_bot = {(k + r) % 3: BOTS[n](deal * 31 + k) for k, n in enumerate(lineup)}
            while not game.is_over:
                s = game.state
                game.apply(seat_bot[s.acting_seat](s, s.options))
            pay = settle(v, game.result, events=game.events).payments
            for k, n in enumerate(lineup):
                units[n][i] += pay[(k + r) % 3]
                wins[n][i] += game.result.winner == (k + r) % 3
    held = {n: 3 * lineup.count(n) for n in lineup}
    return ({n: [w / held[n] for w in ws] for n, ws in wins.items()},
            {n: [u / held[n] for u in us] for n, us in units.items()})


def interval(values):
    m = sum(values) / len(values)
    half = 1.959964 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def test_arena_statistics_match_a_count_by_hand():
    deals = 6
    result = arena(["greedy", "random"], "hunan", games=deals, seed=40)
    wins, units = hand_count(["greedy", "random"], deals, 40)
    assert result.lineup == ("greedy", "random", "greedy")
    by = {s.name: s for s in result.standings}
    assert by["greedy"].games == 36 and by["random"].games == 18
    for name in ("greedy", "random"):
        s = by[name]
        assert s.wins == round(sum(wins[name]) * (36 if name == "greedy" else 18) / deals)
        m, low, high = interval(wins[name])
        assert (s.win_rate.mean, s.win_rate.low, s.win_rate.high) == pytest.approx(
            (m, max(low, 0), min(high, 1)), abs=1e-5)  # a share's interval is cut to 0..1
        assert (s.units.mean, s.units.low, s.units.high) == pytest.approx(
            interval(units[name]), abs=1e-5)
    (c,) = result.comparisons
    d = [a - b for a, b in zip(units["greedy"], units["random"], strict=True)]
    z = (sum(d) / deals) / (statistics.stdev(d) / math.sqrt(deals))
    assert c.units_z == pytest.approx(z)
    assert c.units_p == pytest.approx(2 * (1 - statistics.NormalDist().cdf(abs(z))))
    assert (c.units.mean, c.units.low, c.units.high) == pytest.approx(interval(d), abs=1e-5)


def test_greedy_beats_random_significantly():
    result = arena(["greedy", "random", "random"], games=30, seed=1)
    (c,) = result.comparisons
    assert (c.a, c.b) == ("greedy", "random")
    assert c.significant and c.units_p < 0.05 and c.units.mean > 0 and c.win_rate.mean > 0
    text = format_arena(result)
    assert "greedy − random" in text and ": significant at 0.05" in text


def test_one_name_has_no_comparison():
    result = arena(["random"], "hunan_two", games=3, seed=5)
    assert result.comparisons == () and result.standings[0].games == 12
    assert result.standings[0].units.mean == 0  # a zero-sum table against itself


def lowest(state, options):
    return min(options, key=encode_action)


def test_a_policy_plays_as_its_bot_twin():
    pytest.importorskip("numpy")
    policy = Policy(lambda obs, mask: int(mask.nonzero()[0][0]), "lowest")
    as_policy = arena([policy, "random"], games=4, seed=3)
    as_bot = arena([lowest, "random"], games=4, seed=3)
    assert as_bot.lineup == ("lowest", "random", "lowest")
    assert as_policy.standings == as_bot.standings
    assert as_policy.comparisons == as_bot.comparisons


@pytest.mark.parametrize("kwargs", [
    {"players": []}, {"players": ["nope"]}, {"players": ["random"] * 4}, {"players": [42]},
    {"players": "random"}, {"games": 0}, {"games": True}, {"games": 10**7}, {"games": 1.0},
    {"seed": -1}, {"seed": 2**2000}, {"seed": "1"}, {"confidence": 1.0}, {"confidence": 0.5},
    {"confidence": True}, {"confidence": "0.9"}, {"confidence": math.nan},
    {"variant": "nosuch"},
    {"players": [Policy(lambda o, m: 0), Policy(lambda o, m: 0, "b", seat_views=False)]},
])
def test_arena_refuses_bad_arguments(kwargs):
    args = {"players": ["random"], "games": 1, "seed": 1} | kwargs
    with pytest.raises(ZipaiError):
        arena(**args)


def test_cli_report_and_json(capsys):
    assert main(["arena", "greedy,random", "--games", "3", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("arena: hunan, 3 deals (seeds 9–11) × 3 seatings = 9 games")
    assert "method: means over the 3 deals" in out
    assert main(["arena", "greedy,random", "--games", "3", "--seed", "9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    direct = arena(["greedy", "random"], games=3, seed=9).as_dict()
    assert data == json.loads(json.dumps(direct))


@pytest.mark.parametrize("argv", [
    [], ["nope"], [""], ["random,,greedy"], ["random,random,random,random"],
    ["random", "--games", "0"], ["random", "--games", "1000001"], ["random", "--games", "x"],
    ["random", "--games", "１２"], ["random", "--seed", "-1"], ["random", "--seed", "9" * 400],
    ["random", "--confidence", "1"], ["random", "--confidence", "nan"],
    ["random", "--confidence", "-0.9"], ["random", "--confidence", "0.95\x1b[31m"],
    ["random", "--variant", "nosuch"], ["random", "--variant", "/dev/zero.yaml"],
])
def test_cli_refuses_hostile_arguments(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(["arena", *argv]))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err and "\x1b" not in err


def test_players_of_one_name_are_told_apart_unless_the_same():
    first, second = (lambda s, o: o[0]), (lambda s, o: o[-1])
    first.__name__ = second.__name__ = "random"  # two bots named as the built-in one
    result = arena([first, "random", second], games=1, seed=2)
    assert result.lineup == ("random", "random#2", "random#3")
    assert arena(["random", "Random ", "random"], games=1, seed=2).lineup == ("random",) * 3
    assert arena([first, first], games=1, seed=2).lineup == ("random",) * 3


# --- policies named on the command line: SOURCE:NAME ------------------------------------------

AGENT = '''
def lowest(observation, mask):
    return int(mask.nonzero()[0][0])


def illegal(observation, mask):
    return -1


def fails(observation, mask):
    raise ValueError("no idea")


class Agent:
    def act(self, observation, mask):
        return int(mask.nonzero()[0][-1])


agent = Agent()
'''


def test_cli_plays_a_policy_from_a_file_as_the_api_does(tmp_path, capsys):
    pytest.importorskip("numpy")
    (tmp_path / "agent.py").write_text(AGENT)
    spec = f"{tmp_path / 'agent.py'}:lowest"
    assert main(["arena", f"{spec},random", "--games", "3", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    policy = Policy(lambda obs, mask: int(mask.nonzero()[0][0]), "lowest")
    direct = arena([policy, "random"], games=3, seed=4).as_dict()
    assert data == json.loads(json.dumps(direct))
    assert data["lineup"] == ["lowest", "random", "lowest"]
    # a method of an object in the file
    assert main(["arena", f"{tmp_path / 'agent.py'}:agent.act,greedy", "--games", "1"]) == 0
    assert "act" in capsys.readouterr().out


def test_cli_imports_a_module_by_name_but_not_from_the_current_directory(
        tmp_path, capsys, monkeypatch):
    pytest.importorskip("numpy")
    pkg = tmp_path / "site"
    pkg.mkdir()
    (pkg / "my_agents.py").write_text(AGENT)
    monkeypatch.syspath_prepend(str(pkg))
    assert main(["arena", "my_agents:lowest,random", "--games", "1"]) == 0
    capsys.readouterr()
    # a file in the current directory is not imported in place of a module it shadows
    here = tmp_path / "here"
    here.mkdir()
    (here / "stray.py").write_text(f"open({str(here / 'ran')!r}, 'w').close()\n" + AGENT)
    monkeypatch.chdir(here)
    monkeypatch.syspath_prepend("")
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(["arena", "stray:lowest", "--games", "1"]))
    assert exit_.value.code == 2 and "No module named 'stray'" in capsys.readouterr().err
    assert not (here / "ran").exists()


@pytest.mark.parametrize("spec", [
    "agent.py:illegal", "agent.py:fails", "agent.py:nosuch", "agent.py:__class__",
    "agent.py:Agent", "agent.py:", ":lowest", "missing.py:lowest", "agent.py:lowest\x1b[31m",
    "agent.py:lo west", "os.path:__dict__", "..agent:lowest", "a b:lowest", "dir.py:lowest",
    "big.py:lowest", "syntax.py:lowest", "exits.py:lowest", "zipai_rules.arena:Policy",
    "zipai_rules:MAX_GAMES", "agent.py:lowest.__call__",
])
def test_cli_refuses_bad_policy_specs(tmp_path, capsys, monkeypatch, spec):
    pytest.importorskip("numpy")
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / "dir.py").mkdir()
    (tmp_path / "big.py").write_text("#" * (1 << 20) + "\n")
    (tmp_path / "syntax.py").write_text("def (:\n")
    (tmp_path / "exits.py").write_text("raise SystemExit(0)\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(["arena", spec, "--games", "1"]))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "Traceback" not in err and "\x1b" not in err


@pytest.mark.parametrize("kwargs", [
    {"act": 3}, {"act": None}, {"act": "greedy"},
    {"act": lambda o, m: 0, "name": float("nan")}, {"act": lambda o, m: 0, "name": 7},
    {"act": lambda o, m: 0, "name": ""}, {"act": lambda o, m: 0, "name": ["p"]},
    {"act": lambda o, m: 0, "seat_views": "no"}, {"act": lambda o, m: 0, "seat_views": None}])
def test_a_policy_is_checked_when_it_is_built(kwargs):
    """A Policy of a non-callable act failed only once played (``TypeError: 'int' object is
    not callable``), a name of NaN broke the arena's pooling by name (``ZeroDivisionError``:
    NaN is no key equal to itself), a list name was unhashable; now ``bad_argument`` at once."""
    with pytest.raises(ZipaiError) as refused:
        Policy(**kwargs)
    assert refused.value.code == "bad_argument"


def test_one_deal_is_never_significant():
    """Deal 2 on its own: greedy won 3 of its 6 games, random none, the same on the only
    deal: that was "p = 0: significant" with intervals of no width. One deal tells no
    spread: p = 1, the win rates' intervals 0..1, the units' unbounded (null in JSON)."""
    result = arena(["greedy", "random"], games=1, seed=2)
    (c,) = result.comparisons
    assert not c.significant and c.units_p == c.win_rate_p == 1.0
    assert c.units.mean == 7.5 and c.units.low == -math.inf and c.units.high == math.inf
    greedy = result.standings[0]
    assert (greedy.win_rate.mean, greedy.win_rate.low, greedy.win_rate.high) == (0.5, 0.0, 1.0)
    data = json.loads(json.dumps(result.as_dict(), allow_nan=False))
    assert data["comparisons"][0]["units"]["low"] is None
    assert "not significant" in format_arena(result)
    two = arena(["greedy", "random"], games=2, seed=2).comparisons[0]
    assert two.units.low > -math.inf  # from two deals on, the normal approximation
