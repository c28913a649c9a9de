"""The referee's settlement arithmetic, from the variant's scoring data (docs/settlement.md gives
what each key means): 胡息 × the bonus multipliers, then ``count_as``, then the formula
``(胡息 − offset) // step + base`` at least ``minimum`` (or a ``table`` with ``then_per``, or
``fixed``), plus bonus units and 醒; then who pays: each loser, or the discarder for all
(004 第六条3 "点炮胡牌：… 那个打牌的人就是点炮，就要负担两个输家的币"). Payments sum to zero."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tracker import Referee


def units_of(scoring: Mapping[str, Any], huxi: int, labels: list[str]) -> int:
    conv = scoring["conversion"]
    mult = 1
    add = 0
    for b in scoring.get("bonuses", ()):
        if b["label"] in labels and not set(b.get("unless", ())) & set(labels):
            mult *= b.get("multiply_huxi", 1)
            add += b.get("add_units", 0)
    h = huxi * mult
    for a, b in conv.get("count_as", ()):
        if h == a:
            h = b
            break
    if conv.get("fixed") is not None:
        units = conv["fixed"]
    elif conv.get("table"):
        units = conv.get("minimum", 0)
        last = None
        for at, u in conv["table"]:
            if h >= at:
                units, last = u, at
        if last is not None and conv.get("then_per") and last == conv["table"][-1][0]:
            units += (h - last) // conv["then_per"]
    else:
        units = max(conv["minimum"], (h - conv["offset"]) // conv["step"] + conv["base"])
    return units + add


def xing_cards(flipped: str) -> tuple[str, str]:
    """上醒 and 下醒 of a flipped card, same case, 一 ↔ 十 wrapping (004 第四条10)."""
    case, r = flipped[0], int(flipped[1:])
    return f"{case}{(r - 2) % 10 + 1}", f"{case}{r % 10 + 1}"


def check_settlement(ref: Referee) -> None:
    rec, r = ref.rec, ref.r
    st = rec.get("settlement") or {}
    i = len(rec["events"])
    pays = st.get("payments") or []
    result = rec.get("result") or {}
    scoring = r.scoring
    pay = scoring["payment"]
    # 湘乡 (docs/settlement.md): wins nobody pays, a discard bonus, the dealer's 荒庄 charge
    unpaid = ("winner_only" in (pay.get("zimo"), pay.get("draw"))
              or pay.get("discard_bonus", {}).get("units")
              or scoring["huangzhuang"].get("dealer_pays"))
    if not unpaid and sum(pays) + int(st.get("sitting_out") or 0) != 0:
        ref.flag("settlement", i, f"payments {pays} + sitting out {st.get('sitting_out')} "
                 "do not sum to zero")
    if scoring["payment"]["ti"].get("big") or scoring["payment"]["ti"].get("small"):
        ref.skipped["settlement_ti_payments"] = ref.skipped.get("settlement_ti_payments", 0) + 1
        return
    if result.get("kind") == "huangzhuang":
        pen = scoring["huangzhuang"].get("king_penalty", 0)
        kings = [ref.hand[s]["K"] for s in range(ref.n)]
        want = [0] * ref.n
        for s in range(ref.n):
            for u in range(ref.n):
                if kings[s] and not kings[u]:
                    want[s] -= pen * kings[s]
                    want[u] += pen * kings[s]
        want[ref.dealer] -= scoring["huangzhuang"].get("dealer_pays", 0)
        if pays != want:
            ref.flag("settlement", i, f"荒庄 payments {pays}, the referee's {want}")
        return
    # with 名堂 a pattern shows as a bonus line too: only a settlement with none is judged
    plain = {"meld", "payment", "huxi", "conversion", "xing"}
    patterned = r.has_mingtang and any(line["item"] not in plain
                                       for line in st.get("lines", ()))
    if patterned or result.get("kind") != "hu" or ref.win_total is None \
            or (result.get("decomposition") or {}).get("special"):
        # a 名堂 (pattern) applied: the referee does not model patterns
        ref.skipped["settlement_units"] = ref.skipped.get("settlement_units", 0) + 1
        return
    labels = list(result.get("labels") or [])
    w = result["winner"]
    if ref.win_source == "self" and "zimo" not in labels and any(
            b["label"] == "zimo" for b in scoring.get("bonuses", ())):
        ref.flag("settlement", i, "a win on the winner's own draw without its 自摸 label")
    # the conversion is judged on the recorded split's 胡息 (a split that is not a best one is
    # its own disagreement, not repeated here)
    huxi = (result.get("decomposition") or {}).get("huxi", ref.win_total)
    units = units_of(scoring, huxi, labels)
    per = scoring.get("xing", {}).get("per_card", 0)
    if per and ref.ptr < len(ref.wall):
        up, down = xing_cards(ref.wall[ref.ptr])
        from .tracker import meld_cards
        held: Counter[str] = Counter(ref.hand[w])
        if result.get("source") in ("draw", "discard") and result.get("card"):
            held[result["card"]] += 1
        for m in ref.table[w]:
            held.update(meld_cards(m))
        units += per * (held[up] + held[down])
    if st.get("units") != units:
        ref.flag("settlement", i, f"units {st.get('units')}, the referee's {units} "
                 f"({huxi} 胡息, labels {labels})")
        return
    losers = [s for s in range(ref.n) if s != w]
    want = [0] * ref.n
    bonus = pay.get("discard_bonus", {})
    if ("zimo" in labels and pay.get("zimo") == "winner_only") or (
            ref.win_source == "draw" and pay.get("draw") == "winner_only"):
        want[w] += units * (1 if pay.get("credit") == "once" else len(losers))
    elif ref.win_source == "discard" and pay["discard_win"] == "discarder_pays_all":
        d = ref.win_exposer
        amount = units * (pay.get("discarder_pays") or len(losers))
        if pay.get("discarder_max"):
            amount = min(amount, pay["discarder_max"])
        want[d] -= amount
        want[w] += amount
        others = [s for s in losers if s != d]
        if bonus.get("at_cap") == "others_pay" and amount == pay.get("discarder_max") \
                and others:
            for s in others:  # the bonus paid by the seats that did not discard
                want[s] -= bonus["units"]
                want[w] += bonus["units"]
        else:
            want[w] += bonus.get("units", 0)
    else:
        for s in losers:
            want[s] -= units
            want[w] += units
        if ref.win_source == "discard":
            want[w] += bonus.get("units", 0)
    mirror = int(st.get("sitting_out") or 0)
    if pay.get("sitting_out") == "mirror" and rec.get("sitting_out"):
        # the seat out gains what the winner gains, the losers paying it too (docs/settlement.md)
        gain = want[w]
        for s in losers:
            want[s] -= gain // len(losers)
        if mirror != gain:
            ref.flag("settlement", i, f"the seat out gains {mirror}, the referee's {gain}")
    if pays != want:
        ref.flag("settlement", i, f"payments {pays}, the referee's {want}")
