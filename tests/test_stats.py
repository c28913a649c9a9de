"""Statistics that merge (zipai_rules.stats, ``zipai stats merge``): a tally's numbers, merge
and JSON form; merging any split of a run gives that run's statistics; hostile tallies and
statistics files are refused cleanly."""

import copy
import json
import os
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

import zipai_rules
from zipai_rules.cli import main
from zipai_rules.errors import ZipaiError
from zipai_rules.inputs import Limits
from zipai_rules.simulate import GameSummary, run_games
from zipai_rules.simulate import Tally as SimulateTally
from zipai_rules.stats import (
    TALLY_FORMAT,
    Tally,
    check_stats,
    format_stats,
    merge_stats,
    read_stats,
    summarize,
    tally_stats,
)

BOTS = ["greedy", "random", "greedy"]


@pytest.fixture(scope="module")
def games(hunan):
    """24 real games of hunan, seed 5."""
    return list(run_games(hunan, 24, seed=5))


def stats_of(variant, summaries, seed=5, seconds=None):
    return summarize(variant, summaries, seed=seed, bots=BOTS, seconds=seconds)


def without_timing(stats):
    return {k: v for k, v in stats.items() if k != "timing"}


def roundtrip(doc):
    return json.loads(json.dumps(doc))


# --- an oracle that shares no code with the tally ---------------------------------------------

def oracle(summaries, players):
    """The figures of a run computed directly from the list of its games with
    :mod:`statistics`, sharing no code with :mod:`zipai_rules.stats`."""
    n = len(summaries)
    won = [g for g in summaries if g.winner is not None]

    def figures(values):
        if not values:
            return None
        qs = (statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1
              else [float(values[0])] * 3)
        return (len(values), round(statistics.fmean(values), 3), min(values),
                *(round(q, 3) for q in qs), max(values))
    return {"games": n, "wins": [sum(g.winner == s for g in won) for s in range(players)],
            "huangzhuang": n - len(won),
            "kinds": {k: sum(g.kind == k for g in summaries)
                      for k in sorted({g.kind for g in summaries})},
            "huxi": figures([g.huxi for g in won]), "units": figures([g.units for g in won]),
            "gain": figures([g.gain for g in won]),
            "length": figures([g.actions for g in summaries]),
            "numbers": sorted(g.number for g in summaries)}


def figures_of(stats):
    def fig(d):
        return None if not d["count"] else (d["count"], d["mean"], d["min"], d["q1"],
                                             d["median"], d["q3"], d["max"])
    numbers = [n for a, b in stats["tally"]["numbers"] for n in range(a, b + 1)]
    return {"games": stats["games"], "wins": stats["wins"], "huangzhuang": stats["huangzhuang"],
            "kinds": stats["kinds"], **{k: fig(stats[k]) for k in ("huxi", "units", "gain",
                                                                    "length")},
            "numbers": numbers}


# --- the tally ----------------------------------------------------------------------------------

def summary(number, winner=0, huxi=15, units=1, gain=2, actions=20, kind=None):
    kind = kind or ("huangzhuang" if winner is None else "hu")
    return GameSummary(number, number, kind, winner, huxi if winner is not None else 0,
                       units if winner is not None else 0, gain if winner is not None else 0,
                       actions)


def test_simulate_re_exports_the_statistics():
    from zipai_rules import simulate

    assert SimulateTally is Tally
    assert simulate.tally_stats is tally_stats and simulate.format_stats is format_stats


def test_numbers_are_sorted_ranges_whatever_the_order():
    t = Tally(3)
    for n in (7, 3, 1, 2, 9, 8, 5):
        t.add(summary(n))
    assert t.numbers == [(1, 3), (5, 5), (7, 9)]
    t.add(summary(4))
    t.add(summary(6))
    assert t.numbers == [(1, 9)] and t.games == 9


def test_a_game_counted_twice_is_refused_and_changes_nothing():
    t = Tally(3)
    t.add(summary(2, winner=1))
    before = t.to_json()
    with pytest.raises(ZipaiError) as info:
        t.add(summary(2, winner=None))
    assert info.value.code == "cannot_merge" and "game 2 is counted twice" in str(info.value)
    assert t.to_json() == before


@pytest.mark.parametrize("bad, words", [
    (summary(0), "game number 0"), (summary(True), "game number True"),
    (summary(1, winner=3), "winner 3 is not a seat of 3"),
    (summary(1, kind="Hu!"), "kind 'Hu!' is not a result kind (hu, huangzhuang, tianhu)"),
    (summary(1, winner=None, kind="hu"), "game 1: a hu with winner None"),
    (summary(1, winner=1, kind="huangzhuang"), "game 1: a huangzhuang with winner 1"),
    (summary(1, huxi=15.0), "game 1: huxi 15.0 is not an int"),
    (summary(1, actions=2 ** 53), "game 1: actions 9007199254740992 is not an int"),
])
def test_add_refuses_a_bad_summary(bad, words):
    t = Tally(3)
    with pytest.raises(ZipaiError) as info:
        t.add(bad)
    assert info.value.code == "bad_argument" and words in str(info.value)
    assert t.games == 0 and t.numbers == []


@pytest.mark.parametrize("players", [0, 9, True, 3.0, "3"])
def test_a_tally_needs_a_seat_count(players):
    with pytest.raises(ZipaiError) as info:
        Tally(players)
    assert info.value.code == "bad_argument"


def test_merge_adds_counts_and_joins_ranges():
    a, b = Tally(3), Tally(3)
    for n in (1, 2, 3, 7):
        a.add(summary(n, winner=0, huxi=10 + n))
    for n in (4, 5, 6):
        b.add(summary(n, winner=None if n == 5 else 2, huxi=10 + n))
    a.merge(b)
    assert a.numbers == [(1, 7)] and a.games == 7
    assert a.wins == [4, 0, 2] and a.huangzhuang == 1
    assert a.kinds == {"hu": 6, "huangzhuang": 1}
    assert dict(a.values["huxi"]) == {11: 1, 12: 1, 13: 1, 14: 1, 16: 1, 17: 1}
    assert b.numbers == [(4, 6)]  # the other is left as it was


def test_merge_refuses_a_common_game_or_other_seats_and_changes_nothing():
    a, b, two = Tally(3), Tally(3), Tally(2)
    for n in (1, 2, 3):
        a.add(summary(n))
    for n in (5, 3, 9):
        b.add(summary(n))
    before = a.to_json()
    with pytest.raises(ZipaiError) as info:
        a.merge(b)
    assert info.value.code == "cannot_merge" and "game 3 is in both" in str(info.value)
    with pytest.raises(ZipaiError) as info:
        a.merge(two)
    assert info.value.code == "cannot_merge" and "2 players" in str(info.value)
    with pytest.raises(ZipaiError) as info:
        a.merge({"games": 1})
    assert info.value.code == "bad_argument"
    assert a.to_json() == before


def test_json_form_is_exact_and_round_trips():
    t = Tally(2)
    for n, w in ((3, 1), (1, None), (2, 1), (10, 0)):
        t.add(summary(n, winner=w, huxi=30 - n, actions=40 + n))
    doc = t.to_json()
    assert doc == {"format": TALLY_FORMAT, "players": 2, "games": 4,
                   "numbers": [[1, 3], [10, 10]], "wins": [1, 2], "huangzhuang": 1,
                   "kinds": {"hu": 3, "huangzhuang": 1},
                   "values": {"huxi": {"20": 1, "27": 1, "28": 1},
                              "units": {"1": 3}, "gain": {"2": 3},
                              "length": {"41": 1, "42": 1, "43": 1, "50": 1}}}
    again = Tally.from_json(roundtrip(doc))
    assert again == t and again.to_json() == doc and again.numbers == t.numbers


# --- merging any split of a run is the run ------------------------------------------------------

def test_merged_halves_are_the_whole_run_and_agree_with_the_oracle(hunan, games):
    one = stats_of(hunan, games, seconds=2.0)
    a = stats_of(hunan, games[:10] + games[17:], seconds=1.5)
    b = stats_of(hunan, games[10:17], seconds=0.5)
    merged = merge_stats([roundtrip(b), roundtrip(a)], ["b.json", "a.json"])
    assert without_timing(merged) == without_timing(one)
    assert merged["timing"] == {"jobs": 1, "seconds": 2.0, "games_per_second": 12.0,
                                "setup_seconds": None, "play_seconds": None,
                                "play_games_per_second": None}
    assert figures_of(merged) == oracle(games, 3)
    assert figures_of(a) == oracle(games[:10] + games[17:], 3)
    assert merged["engine"] == zipai_rules.__version__ and merged["tally"]["numbers"] == [[1, 24]]


@given(data=st.data())
def test_any_split_of_a_run_merges_into_the_run(hunan, games, data):
    parts = data.draw(st.integers(1, 6))
    owner = data.draw(st.lists(st.integers(0, parts - 1), min_size=len(games),
                               max_size=len(games)))
    order = data.draw(st.permutations(range(len(games))))
    split = [[games[i] for i in order if owner[i] == p] for p in range(parts)]
    docs = [roundtrip(stats_of(hunan, part, seconds=0.25)) for part in split]
    docs = data.draw(st.permutations(docs))
    merged = merge_stats(docs)
    assert without_timing(merged) == without_timing(stats_of(hunan, games))
    assert merged["timing"]["seconds"] == round(0.25 * parts, 3)
    # and the merged statistics merge again, as files do
    again = merge_stats([roundtrip(merged)])
    assert without_timing(again) == without_timing(merged)


@given(st.lists(st.tuples(st.sampled_from([None, 0, 1, 2]), st.integers(-5, 60),
                          st.integers(0, 300)), min_size=0, max_size=40),
       st.integers(1, 4), st.randoms(use_true_random=False))
def test_tallies_of_any_games_merge_exactly(rows, parts, rng):
    """Generated games (values far from the real range), split at random, merged pairwise in
    a random order: the tally of all of them, and the figures of the oracle."""
    summaries = [summary(n + 1, winner=w, huxi=v, units=abs(v) % 7, gain=v * 2, actions=a)
                 for n, (w, v, a) in enumerate(rows)]
    tallies = [Tally(3) for _ in range(parts)]
    for g in summaries:
        tallies[rng.randrange(parts)].add(g)
    rng.shuffle(tallies)
    whole = Tally(3)
    for t in tallies:
        whole.merge(Tally.from_json(roundtrip(t.to_json())))
    one = Tally(3)
    for g in reversed(summaries):
        one.add(g)
    assert whole == one
    assert whole.numbers == ([(1, len(rows))] if rows else [])


def test_runs_of_other_seeds_merge_as_one_numbered_run(hunan, games):
    later = list(run_games(hunan, 6, seed=5 + 24))  # games 25..30 of the seed-5 run
    merged = merge_stats([stats_of(hunan, later, seed=29), stats_of(hunan, games)])
    whole = list(run_games(hunan, 30, seed=5))
    assert without_timing(merged) == without_timing(stats_of(hunan, whole))
    assert merged["seed"] == 5
    # a run of seed 10 holds the games of seeds 10.., which the seed-5 run holds as 6..
    with pytest.raises(ZipaiError) as info:
        merge_stats([stats_of(hunan, games), stats_of(hunan, games[:2], seed=10)],
                    ["A", "B"])
    assert info.value.code == "cannot_merge"
    assert str(info.value) == "A and B both hold game 6 (numbered from seed 5)"


def test_the_table_names_the_seeds_of_a_run_with_gaps(hunan, games):
    merged = merge_stats([stats_of(hunan, games[:5]), stats_of(hunan, games[10:15])])
    first = format_stats(merged, hunan).splitlines()[0]
    assert first == ("湖南跑胡子 (hunan): 10 games, seeds 5..9, 15..19, bots "
                     "greedy,random,greedy, seat 0 deals")
    plain = format_stats(merged)
    assert plain.splitlines()[0].startswith("hunan: 10 games, seeds 5..9, 15..19")
    assert "huangzhuang (huangzhuang)" in plain and "winning huxi" in plain


# --- what refuses to merge ----------------------------------------------------------------------

def test_statistics_of_other_runs_are_refused(hunan, games):
    base = stats_of(hunan, games[:4])
    other = stats_of(hunan, games[4:8])
    two = zipai_rules.find_variant("hunan_two")
    cases = [
        ({**other, "engine": "0.0.9"}, "engine '0.0.9'"),
        (stats_of(hunan, games[4:8]) | {"content_hash": "f" * 64}, "content_hash"),
        (summarize(hunan, games[4:8], seed=5, bots=["random"]), "bots"),
        (summarize(two, list(run_games(two, 2, seed=9)), seed=9, bots=["greedy"]),
         "2 seats, A 3"),
    ]
    for doc, words in cases:
        with pytest.raises(ZipaiError) as info:
            merge_stats([base, doc], ["A", "B"])
        assert info.value.code == "cannot_merge", doc
        assert words in str(info.value)
    with pytest.raises(ZipaiError) as info:
        merge_stats([])
    assert info.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as info:
        merge_stats([base, other], ["A"])
    assert info.value.code == "bad_argument"


# --- hostile tallies and statistics -------------------------------------------------------------

def good_tally():
    t = Tally(3)
    for n, w in ((1, 0), (2, None), (3, 2), (5, 0)):
        t.add(summary(n, winner=w, huxi=15 + n))
    return t.to_json()


def edit(path, value):
    def change(doc):
        *where, last = path
        node = doc
        for key in where:
            node = node[key]
        if value is KeyError:
            del node[last]
        else:
            node[last] = value
    return change


HOSTILE_TALLIES = [
    (edit(["format"], "zipai-tally/2"), "tally.format: is not 'zipai-tally/1'"),
    (edit(["players"], True), "tally.players: is bool, not an integer"),
    (edit(["players"], 0), "tally.players: 0 is not from 1 to 8"),
    (edit(["games"], 4.0), "tally.games: is float, not an integer"),
    (edit(["games"], 5), "tally.numbers: hold 4 games, not 5"),
    (edit(["numbers"], [[1, 3], [4, 4]]), "tally.numbers[1]: starts at 4, not after"),
    (edit(["numbers"], [[3, 5], [1, 1]]), "tally.numbers[1]: starts at 1"),
    (edit(["numbers"], [[2, 1], [5, 7]]), "tally.numbers[0]: ends at 1, before it starts at 2"),
    (edit(["numbers"], [[0, 3]]), "tally.numbers[0][0]: 0 is not from 1"),
    (edit(["numbers"], [[1, 2, 3]]), "tally.numbers[0]: is not a pair"),
    (edit(["numbers"], {"1": 4}), "tally.numbers: is dict, not a list"),
    (edit(["numbers"], [[2 * k + 1, 2 * k + 1] for k in range(100_001)]),
     "tally.numbers: has 100001 items, more than 100000"),
    (edit(["wins"], [1, 0, 1, 0]), "tally.wins: has 4 seats, not 3"),
    (edit(["wins", 1], -1), "tally.wins[1]: -1 is not from 0"),
    (edit(["wins", 1], 1), "tally.wins: and huangzhuang add up to 5 games, not 4"),
    (edit(["kinds", "hu"], 2), "tally.kinds: add up to 3 games, not 4"),
    (edit(["kinds", "hu"], 0), "tally.kinds.hu: 0 is not from 1"),
    (edit(["kinds", "HU"], 1), "tally.kinds: kind 'HU' is not a result kind"),
    (edit(["kinds"], {"hu": 4}), "tally.kinds: count 0 huangzhuang, not 1"),
    (edit(["values", "huxi", "016"], 1), "tally.values.huxi: key '016' is not an integer"),
    (edit(["values", "huxi", "-0"], 1), "tally.values.huxi: key '-0'"),
    (edit(["values", "huxi", " 7"], 1), "tally.values.huxi: key ' 7'"),
    (edit(["values", "huxi", str(2 ** 53)], 1), "within ±(2**53-1)"),
    (edit(["values", "huxi", "16"], 2), "tally.values.huxi: count 4 games, not 3"),
    (edit(["values", "length"], {str(k): 1 for k in range(100_001)}),
     "tally.values.length: has 100001 entries, more than 100000"),
    (edit(["values", "rate"], {}), "tally.values: unknown key 'rate'"),
    (edit(["values", "gain"], KeyError), "tally.values: missing key 'gain'"),
    (edit(["extra"], 1), "tally: unknown key 'extra'"),
    (edit(["wins"], KeyError), "tally: missing key 'wins'"),
]


@pytest.mark.parametrize("change, words", HOSTILE_TALLIES)
def test_a_hostile_tally_is_refused_naming_its_path(change, words):
    doc = good_tally()
    Tally.from_json(copy.deepcopy(doc))  # the unchanged one reads
    change(doc)
    with pytest.raises(ZipaiError) as info:
        Tally.from_json(doc)
    assert info.value.code == "schema"
    assert words in str(info.value)


@pytest.mark.parametrize("value", [None, [], "tally", 3, {"format": TALLY_FORMAT}])
def test_a_tally_that_is_no_object_of_counts_is_refused(value):
    with pytest.raises(ZipaiError) as info:
        Tally.from_json(value)
    assert info.value.code == "schema" and str(info.value).startswith("tally")


def test_statistics_edited_apart_from_their_tally_are_refused(hunan, games):
    stats = stats_of(hunan, games[:6])
    check_stats(roundtrip(stats))
    for key, value in (("wins", [9, 9, 9]), ("win_rate", [0.5, 0.25, 0.25]),
                       ("games", 7), ("huxi", {"count": 0})):
        with pytest.raises(ZipaiError) as info:
            check_stats({**stats, key: value})
        assert info.value.code == "schema"
        assert str(info.value) == f"{key}: is not what the tally gives"
    for doc, words in (({**stats, "note": 1}, "note: is not a field"),
                       ({k: v for k, v in stats.items() if k != "tally"}, "has no tally"),
                       ({**stats, "seed": -1}, "seed: -1 is not from 0"),
                       ({**stats, "bots": ["greedy"]}, "bots: names 1 bots for 3 seats"),
                       ({**stats, "variant": 7}, "variant: is int, not a string"),
                       ({k: v for k, v in stats.items() if k != "engine"}, "engine: is missing"),
                       ({**stats, "timing": {**stats["timing"], "seconds": -1.0}},
                        "timing.seconds"),
                       ({**stats, "timing": {"jobs": 1}}, "timing: missing key"),
                       ([stats], "not an object of statistics")):
        with pytest.raises(ZipaiError) as info:
            check_stats(doc)
        assert info.value.code == "schema" and words in str(info.value), doc


def test_hostile_statistics_files_are_refused(tmp_path, hunan, games):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(stats_of(hunan, games[:3])), "utf-8")
    assert read_stats(good)["games"] == 3
    text = good.read_text("utf-8")
    cases = {
        "dup.json": ('{"games": 1, "games": 2}', "duplicate_key"),
        "nan.json": (text.replace('"games": 3', '"games": NaN'), "bad_json"),
        "cut.json": (text[:-20], "bad_json"),
        "deep.json": ("[" * 50 + "]" * 50, "too_deep"),
        "latin1.json": (None, "unreadable"),
    }
    for name, (body, code) in cases.items():
        path = tmp_path / name
        if body is None:
            path.write_bytes(b'{"variant": "\xff"}')
        else:
            path.write_text(body, "utf-8")
        with pytest.raises(ZipaiError) as info:
            read_stats(path)
        assert info.value.code == code, name
        assert str(info.value).startswith(str(path)), name
    with pytest.raises(ZipaiError) as info:
        read_stats(good, Limits(max_bytes=100))
    assert info.value.code == "too_large"
    with pytest.raises(ZipaiError) as info:
        read_stats(tmp_path)
    assert info.value.code == "unreadable" and "a directory" in str(info.value)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        with pytest.raises(ZipaiError) as info:  # refused at once, without blocking
            read_stats(fifo)
        assert info.value.code == "unreadable" and "a FIFO" in str(info.value)


# --- zipai stats merge ----------------------------------------------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_merge_equals_one_run(capsys, tmp_path):
    files = {}
    for name, argv in (("one", ["--games", 9]), ("a", ["--games", 4]),
                       ("b", ["--games", 5, "--seed", 5, "--jobs", 2])):
        code, out, err = run(capsys, "simulate", *argv, "--json")
        assert code == 0, err
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(out, "utf-8")
    code, out, err = run(capsys, "stats", "merge", files["b"], files["a"], "--json")
    assert code == 0 and err == ""
    merged, one = json.loads(out), json.loads(files["one"].read_text("utf-8"))
    assert without_timing(merged) == without_timing(one)
    assert merged["timing"]["jobs"] is None  # one job and two: no common number
    (tmp_path / "m.json").write_text(out, "utf-8")
    code, table, err = run(capsys, "stats", "merge", tmp_path / "m.json")
    assert code == 0 and err == ""
    assert table.splitlines()[0] == ("湖南跑胡子 (hunan): 9 games, seeds 1..9, bots "
                                     "greedy,random,greedy, seat 0 deals")
    assert " s: " in table.splitlines()[-1] and "job" not in table.splitlines()[-1]


def test_cli_merge_refuses_with_an_error_line(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--games", 3, "--json")
    a = tmp_path / "a.json"
    a.write_text(out, "utf-8")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(out), "engine": "9.9"}), "utf-8")
    junk = tmp_path / "junk.json"
    junk.write_text("{]", "utf-8")
    for files, words in (([a, a], "both hold game 1"),
                         ([a, other], "engine '9.9'"),
                         ([a, junk], f"{junk}: not valid JSON"),
                         ([tmp_path / "missing.json"], "cannot read")):
        code, out, err = run(capsys, "stats", "merge", *files)
        assert code == 2 and out == "", files
        assert err.startswith("error: ") and words in err and "Traceback" not in err
    code, out, err = run(capsys, "--max-bytes", 50, "stats", "merge", a)
    assert code == 2 and "larger than the limit of 50 bytes" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["stats", "merge"])
    assert exit_info.value.code == 2


def test_the_statistics_page_example_prints_what_its_comments_say(capsys):
    """docs/statistics.md's Python block runs as written; each print's comment is its line."""
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "statistics.md"
    block = re.search(r"^```python\n(.*?)^```$", page.read_text("utf-8"), re.S | re.M).group(1)
    exec(compile(block, str(page), "exec"), {"__name__": "statistics_page"})  # noqa: S102
    said = [line.split("# ", 1)[1].strip() for line in block.splitlines()
            if line.startswith("print(")]
    assert capsys.readouterr().out.splitlines() == said == [
        "[(1, 1), (3, 3)] 10", "[(1, 20)] 20", "True True"]


def test_merging_many_documents_takes_work_linear_in_their_number(monkeypatch, hunan):
    """Each document is checked against the merged numbers once, not against every earlier
    document (4,000 one-game files took 14 s of CPU that way, 0.5 s now)."""
    from zipai_rules import stats

    calls = []
    real = stats._first_common
    monkeypatch.setattr(stats, "_first_common", lambda a, b: calls.append(1) or real(a, b))
    docs = [summarize(hunan, [summary(1, huxi=15 + k % 9)], seed=300 - k, bots=BOTS)
            for k in range(300)]
    merged = merge_stats(docs)
    assert merged["seed"] == 1 and merged["tally"]["numbers"] == [[1, 300]]
    assert len(calls) == 300
    calls.clear()
    with pytest.raises(ZipaiError) as info:
        merge_stats([*docs, docs[7]])
    assert str(info.value) == "docs[7] and docs[300] both hold game 293 (numbered from seed 1)"
    assert len(calls) <= 301 + 8


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


@given(st.data())
def test_any_change_to_a_tally_reads_or_is_a_clean_error(data):
    """A value anywhere in a tally replaced by any JSON value: from_json gives a tally whose
    JSON form is the document, or a ZipaiError; never another exception."""
    doc = good_tally()
    node, path = doc, []
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                        else range(len(node))))
        path.append(key)
        node = node[key]
    if not path:
        doc = data.draw(JSON_VALUES)
    else:
        edit(path, data.draw(JSON_VALUES))(doc)
    try:
        tally = Tally.from_json(doc)
    except ZipaiError as exc:
        assert exc.code == "schema"
    else:
        assert tally.to_json() == doc


@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_as_a_statistics_file_are_a_clean_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "s.json"
    path.write_bytes(data)
    with pytest.raises(ZipaiError):
        read_stats(path)
