"""Seeds no player can predict (issue 24, kind 10): ``zipai play`` without ``--seed`` draws a
secret 128-bit seed and prints it so that the hand can be replayed; with ``--human`` it is
printed only once the hand is over (before, it would tell the player every card)."""

from __future__ import annotations

import io
import json
import re
import sys

from zipai_rules.cli import main


def play(capsys, *argv: str) -> str:
    assert main(["play", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_play_without_a_seed_draws_a_fresh_one_and_prints_it(capsys):
    seeds = []
    for _ in range(2):
        out = play(capsys)
        found = re.match(r"湖南跑胡子 \(hunan\), seed (\d+), dealer seat 0", out)
        assert found, out.splitlines()[0]
        seeds.append(int(found[1]))
        # the printed seed replays the same hand, log for log
        assert play(capsys, "--seed", found[1]) == out
    assert seeds[0] != seeds[1] and 1 not in seeds
    assert max(seeds).bit_length() > 100  # 128 secret bits, not seed 1 every time


def test_json_and_match_carry_the_drawn_seed(capsys):
    data = json.loads(play(capsys, "--json"))
    assert data["seed"] > 2 ** 64
    assert json.loads(play(capsys, "--json", "--seed", str(data["seed"])))["deal"] == data["deal"]
    match = json.loads(play(capsys, "--hands", "2", "--json"))
    again = json.loads(play(capsys, "--hands", "2", "--json", "--seed", str(match["seed"])))
    assert match["seed"] > 2 ** 64 and again["hands"] == match["hands"]


def test_the_readme_quick_start_still_deals_seed_7(capsys):
    out = play(capsys, "--variant", "hunan", "--seed", "7")
    assert out.startswith("湖南跑胡子 (hunan), seed 7, dealer seat 0")


def test_a_human_sees_the_drawn_seed_only_after_the_hand(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--human", "0"]) == 3
    out = capsys.readouterr().out
    assert "seed secret (shown when the hand ends)" in out.splitlines()[0]
    found = re.search(r"seed (\d+) \(replay this hand with --seed \1\)\n\Z", out)
    assert found and int(found[1]).bit_length() > 100
    assert found[1] not in out[:found.start()]  # nowhere before the end
    # a chosen seed is the player's own: shown at once, as before
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--human", "0", "--seed", "7", "--zh"]) == 3
    out = capsys.readouterr().out
    assert "种子 7，" in out.splitlines()[0] and "重玩" not in out
