"""The settlement oracle of zipai_rules.testing (issue 27): a second reading of each variant's
scoring data (its 名堂 too), checked against ``settle`` on seeded hands of every preset,
against worked values of the seeds, and shown to find a planted bug in a user's payment code
and shrink it."""

from __future__ import annotations

import os
import time

import attrs
import pytest
from hypothesis import HealthCheck, find, settings

from zipai_rules import load_preset
from zipai_rules.analysis import Decomposition, Group
from zipai_rules.bots import make_bots, play_out, seat_bot_names
from zipai_rules.engine import Game
from zipai_rules.engine.state import Result
from zipai_rules.loader import build_variant
from zipai_rules.melds import Meld
from zipai_rules.presets import preset_ids, raw_preset
from zipai_rules.settlement import settle
from zipai_rules.testing import (
    ExpectedSettlement,
    OracleRefusal,
    covers,
    games,
    settlement_oracle,
    settlement_problems,
)
from zipai_rules.vocab import Label, ResultKind, Source

DEV = os.environ.get("ZIPAI_DEV") == "1" or os.environ.get("HYPOTHESIS_PROFILE") == "dev"
HANDS = 200 if DEV else 6  # seeded bot hands per preset


def _played(preset: str, seed: int) -> Game:
    v = load_preset(preset)
    names = seat_bot_names(("greedy", "random", "greedy"), v.players)
    return play_out(Game(v, seed=seed), make_bots(names, seed, v.players))


@pytest.mark.parametrize("preset", preset_ids())
def test_the_oracle_agrees_with_settle_on_seeded_hands(preset):
    """Every preset's seeded hands settle as the oracle reads the data (a preset it did not
    model would be refused, saying what)."""
    for seed in range(HANDS):
        game = _played(preset, seed)
        if not covers(preset):
            with pytest.raises(OracleRefusal, match="does not model"):
                settlement_oracle(game)
            assert settlement_problems(game) == []  # refused: nothing to say
            continue
        assert settlement_problems(game) == [], (preset, seed)
        want = settlement_oracle(game)
        got = settle(game)
        assert (want.payments, want.units, want.sitting_out, want.credited) == (
            got.payments, got.units, got.sitting_out, got.credited)


def test_every_preset_is_covered():
    assert [p for p in preset_ids() if not covers(p)] == []


# --- worked values -----------------------------------------------------------------------------

def _split(*melds: tuple[str, str]) -> Decomposition:
    """A split of the given (kind, cards) melds; the 胡息 written in it are zeros, so that only
    the oracle's own reading of the 胡息 table counts."""
    from zipai_rules.cards import parse_indices

    groups = tuple(Group(Meld(kind, parse_indices(cards)), 0) for kind, cards in melds)
    return Decomposition(groups, 0)


# 21 cards (the 胡息 table of variants/hunan.yaml `huxi`): 提 d10 12 · 坎 d9 6 · 坎 x1 3 ·
# 二七十 x2 x7 x10 3 · 碰 x5 1 · 顺 d4 d5 d6 0 · 将 x8 x8 0: 25 胡息
SPLIT_25 = _split(("ti", "d10 d10 d10 d10"), ("kan", "d9 d9 d9"), ("kan", "x1 x1 x1"),
                  ("er_qi_shi", "x2 x7 x10"), ("peng", "x5 x5 x5"), ("shun", "d4 d5 d6"),
                  ("jiang", "x8 x8"))


def _win(split: Decomposition, labels: tuple[Label, ...] = (), source: Source | None = None,
         discarder: int | None = None, **kw: object) -> Result:
    return Result(ResultKind.HU, winner=0, card=20 - 1, source=source, huxi=25,
                  decomposition=split, labels=labels, discarder=discarder, dealer=0,
                  **kw)  # type: ignore[arg-type]


def test_worked_shaoyang_tianhu_doubles_the_huxi_and_zimo_adds_one_tun():
    """001_5964eea38dea0018.txt 天胡 "胡牌后所得胡数*以2", 自摸胡 "其它自摸都加上1囤"; the
    conversion (胡息 − 5) // 5 + 1 (variants/shaoyang.yaml, digest G3)."""
    v = "shaoyang"
    # 25 胡息 → (25 − 5) // 5 + 1 = 5 囤, +1 for 自摸: 6 from each loser
    zimo = settlement_oracle(v, _win(SPLIT_25, (Label.ZIMO,), Source.SELF))
    assert zimo == ExpectedSettlement(25, 6, (12, -6, -6))
    # 天胡: 50 胡息 → 10 囤; a 天胡 that is also a 自摸 gets no +1 ("天胡地胡除外")
    tian = settlement_oracle(v, _win(SPLIT_25, (Label.TIANHU, Label.ZIMO)))
    assert tian == ExpectedSettlement(50, 10, (20, -10, -10))


def test_worked_hunan_conversion_and_the_discarder_pays_for_all():
    """Hunan (digest G3, low confidence): 囤 = (胡息 − 12) // 3; on a discard win the
    discarder pays for every loser (variants/hunan.yaml scoring.payment)."""
    assert settlement_oracle("hunan", _win(SPLIT_25, (Label.ZIMO,), Source.SELF)) == \
        ExpectedSettlement(25, 4, (8, -4, -4))
    assert settlement_oracle("hunan", _win(SPLIT_25, (), Source.DISCARD, 2)) == \
        ExpectedSettlement(25, 4, (8, 0, -8))


def test_worked_yongzhou_wang_ba_on_huangzhuang():
    """000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "手中有王霸的玩家需要赔付给没有王霸的玩家。
    一张王霸赔付赌注5倍，两张则是10倍"."""
    draw = Result(ResultKind.HUANGZHUANG, kings=(2, 0, 0), dealer=0)
    assert settlement_oracle("yongzhou", draw).payments == (-20, 10, 10)
    assert settlement_oracle("yongzhou", Result(ResultKind.HUANGZHUANG, kings=(1, 1, 0),
                                                dealer=0)).payments == (-5, -5, 10)


def test_worked_penghu_the_seat_out_gains_what_the_winner_gains():
    """碰胡 (docs/settlement.md, digest G16): one point a win, "不用数信"; seat 0 discards,
    seat 2 wins, the fourth seat sits out: [-3, -1, 2] and 2 to the seat out."""
    r = Result(ResultKind.HU, winner=2, source=Source.DISCARD, huxi=25, decomposition=SPLIT_25,
               discarder=0, sitting_out=True, dealer=0)
    assert settlement_oracle("penghu", r) == ExpectedSettlement(25, 1, (-3, -1, 2), 2)


# 21 cards, 14 胡息: 提 d10 12 · 碰 x1 1 · 碰 x6 1 · x3 x4 x5 · d4 d5 d6 · d6 d7 d8 · 将 x8 x8
SPLIT_14 = _split(("ti", "d10 d10 d10 d10"), ("peng", "x1 x1 x1"), ("peng", "x6 x6 x6"),
                  ("shun", "x3 x4 x5"), ("shun", "d4 d5 d6"), ("shun", "d6 d7 d8"),
                  ("jiang", "x8 x8"))


def test_worked_guilin_duo_zimo_xing_and_dianpao():
    """004_4a6d8adec4e0ba73.txt 第七条: "10－14胡为1舵", "自摸＋1舵；有上醒牌每一+1舵；有下醒牌
    每一+1舵"; 第四条10 "翻出一小四，那么小三就是上醒，小五就是下醒"; 第六条3 点炮 "就要负担
    两个输家的币".
    14 胡 on one's own draw, 小四 turned: 1 舵 + 1 自摸 + 1 上醒 (x3) + 1 下醒 (x5) = 4 from
    each loser; on seat 2's discard 3 舵, seat 2 paying for both."""
    zimo = settlement_oracle("guilin", _win(SPLIT_14, (Label.ZIMO,), Source.SELF, flipped=3))
    assert zimo == ExpectedSettlement(14, 4, (8, -4, -4))
    discard = settlement_oracle("guilin", _win(SPLIT_14, (), Source.DISCARD, 2, flipped=3))
    assert discard == ExpectedSettlement(14, 3, (6, 0, -6))
    assert settlement_oracle("guilin", _win(SPLIT_14, (), Source.DISCARD, 2)).units == 1


def test_worked_ningxiang_fan_summed():
    """宁乡 (docs/regional-sources.md, billee1011/repository NingXiangHHTable
    get_chi_hu_action_rank_phz: 番 summed, "乌胡 5 + 碰碰胡 5 = 10 番"): a hand of no red card
    and no sequence, 36 胡息 → 底分 2 + (36 − 15) // 3 = 9 分, × 10 番 = 90 from each loser."""
    split = _split(("ti", "d1 d1 d1 d1"), ("kan", "d3 d3 d3"), ("kan", "d4 d4 d4"),
                   ("kan", "d5 d5 d5"), ("kan", "x3 x3 x3"), ("kan", "x4 x4 x4"),
                   ("jiang", "x5 x5"))
    r = _win(split, (Label.ZIMO,), Source.SELF)
    assert settlement_oracle("ningxiang", r) == ExpectedSettlement(36, 90, (180, -90, -90))
    assert settle("ningxiang", attrs.evolve(r, huxi=36)).payments == (180, -90, -90)


def test_refusals():
    capped = build_variant({"extends": "ningxiang", "id": "nx5", "name": "宁乡 封顶 5",
                            "scoring": {"mingtang": {"max_multiplier": 5}}}, raw_preset, "nx5")
    assert not covers(capped)
    with pytest.raises(OracleRefusal, match="capped multiplier"):
        settlement_oracle(capped, _win(SPLIT_25))
    game = Game(load_preset("hunan"), seed=1)
    with pytest.raises(Exception, match="not over"):
        settlement_oracle(game)


# --- a planted bug in a user's payment code ----------------------------------------------------

def my_payments(game: Game) -> list[int]:
    """Your code, with a planted bug: Hunan's payments, the units capped at 2 囤 (a cap the
    rules do not have)."""
    r = game.state.result
    assert r is not None
    if r.kind == ResultKind.HUANGZHUANG:
        return [0, 0, 0]
    units = min(2, max(1, (r.huxi - 12) // 3))   # the bug: min(2, …)
    out = [0, 0, 0]
    if r.source == Source.DISCARD and r.discarder is not None:
        out[r.discarder] -= 2 * units
    else:
        for s in range(3):
            if s != r.winner:
                out[s] -= units
    out[r.winner] += 2 * units
    return out


def test_a_planted_payment_bug_is_found_and_shrunk():
    """Found among random whole hands (``games``) and shrunk to a short one: the first seed
    whose random play wins with 21 胡息 or more."""
    start = time.perf_counter()
    game = find(games("hunan", max_steps=400),
                lambda g: g.is_over and settlement_problems(g, my_payments) != [],
                settings=settings(database=None, max_examples=300, derandomize=True,
                                  deadline=None, suppress_health_check=[HealthCheck.too_slow]))
    elapsed = time.perf_counter() - start
    r = game.state.result
    assert r is not None and r.kind != ResultKind.HUANGZHUANG and r.huxi >= 21
    problems = settlement_problems(game, my_payments)
    assert problems and problems[0].startswith("payments")
    print(f"planted payment bug: shrunk to seed {game.seed}, {len(game.actions)} actions, "
          f"{r.huxi} 胡息, in {elapsed:.1f} s")
