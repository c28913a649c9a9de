"""The lines the play log and the terminal game share: the header, the deal, the result and
the settlement, in English or in the variant's Chinese words (:class:`Words`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Game
from ..settlement import Settlement
from ..terminal import columns
from ..wording import Words


def header(game: Game, bots: Sequence[object], words: Words, seat: int | None = None,
            humans: Sequence[int] = (), seed_shown: bool = True) -> str:
    """The log's first line: the variant, the seed (or, not ``seed_shown``, that it is kept
    secret until the hand ends), the dealer and the bots; with ``humans``, each bot by its
    seat, then the seats played at the terminal."""
    v = game.variant
    seed = game.seed if seed_shown else ("保密（本手结束后显示）" if words.zh
                                         else "secret (shown when the hand ends)")
    names = ", ".join(type(b).__name__ for b in bots)
    if humans:
        names = ", ".join(f"{words.seat(s)} {type(b).__name__}" for s, b in enumerate(bots)
                          if s not in humans)
    if words.zh:
        mine = "" if seat is None else f"；{words.seat(seat)}所见"
        if humans:
            mine = f"；你：{'、'.join(map(words.seat, humans))}"
        return (f"{v.name} ({v.id})，种子 {seed}，庄家 {words.seat(game.deal.dealer)}，"
                f"机器人：{names or '-'}{mine}")
    mine = "" if seat is None else f"; as seat {seat} sees it"
    if humans:
        mine = f"; you: {', '.join(map(words.seat, humans))}"
    return (f"{v.name} ({v.id}), seed {seed}, dealer seat {game.deal.dealer}, "
            f"bots: {names or '-'}{mine}")


def deal_lines(game: Game, words: Words, seat: int | None = None) -> list[str]:
    """The dealt hands (only ``seat``'s cards when given, the others ``(hidden)``) and the
    wall."""
    deal, lines = game.deal, []
    for s, hand in enumerate(deal.hands):
        held = words.cards(sorted(hand)) if seat is None or s == seat else (
            "（不可见）" if words.zh else "(hidden)")
        lines.append(f"  {words.seat(s)} 起手 {len(hand):2} 张：{held}" if words.zh
                     else f"  seat {s} dealt {len(hand):2}: {held}")
    if words.zh:
        aside = f"，另 {len(deal.aside)} 张不用" if deal.aside else ""
        lines.append(f"  {words.word('wall')} {len(deal.wall)} 张{aside}")
    else:
        aside = f", {len(deal.aside)} cards set aside unseen" if deal.aside else ""
        lines.append(f"  wall {len(deal.wall)}{aside}")
    return lines


def print_settlement(settlement: Settlement, words: Words) -> None:
    """The settlement's lines (the melds are listed with the result) and the payments."""
    print("结算：" if words.zh else "settlement:")
    rows = [(line.term, words.settlement_text(line)) if words.zh
            else (line.term, line.item, line.text)
            for line in settlement.lines if line.item != "meld"]
    for text in columns(rows, "  "):
        print(text)
    print(words.payments(settlement))


def print_result(game: Game, words: Words) -> None:
    """How the hand ended: the winner, the winning card and where it came from, each group
    with its 胡息, the total."""
    r = game.state.final_result
    v, zh = game.variant, words.zh
    if r.kind == "huangzhuang":
        print(f"结果：{words.word('huangzhuang')}：牌已摸完，无人胡牌" if zh else
              f"result: {v.term('huangzhuang')} (huangzhuang): the wall is empty and nobody won")
        return
    special = r.decomposition.special if r.decomposition else None
    card = "" if r.card is None else f" {'' if zh else 'on '}{words.cards([r.card])}"
    if zh:
        how = words.source(r.source) if r.source is not None else (
            f"起手即胡：{special}" if special else "起手牌")
        label = words.word("tianhu" if r.kind == "tianhu" else "hu")
        print(f"结果：{words.seat(r.winner)} {label}{card}（{how}），{r.huxi} "
              f"{words.word('huxi')}")
    else:
        how = {"self": "own draw (自摸)", "draw": "another player's draw",
               "discard": "a discard",
               None: f"its cards as they lie ({special}, a win at once)" if special
               else "the dealt hand"}[r.source]
        label = v.term("tianhu") + " (tianhu)" if r.kind == "tianhu" else v.term("hu") + " (hu)"
        print(f"result: seat {r.winner} wins, {label}{card} from {how}, {r.huxi} "
              f"{v.term('huxi')}")
    groups = r.decomposition.groups if r.decomposition else ()
    for text in columns([words.group(g) for g in groups], "  "):
        print(text)
    if r.decomposition and r.decomposition.leftover:
        left = words.cards(r.decomposition.leftover)
        print(f"  余牌 {left}（0，不计牌型）" if zh else f"  leftover {left} (0, shape waived)")
    print(f"  {'合计' if zh else 'total'} {r.huxi} {words.word('huxi') if zh else v.term('huxi')}")
