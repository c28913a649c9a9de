"""The game's words as types: string enums shared by the analysis, the engine and settlement.

The bottom layer: this module imports nothing of the package. Every member is a ``str``
(:class:`enum.StrEnum`) equal to its canonical pinyin or code, so JSON output, game records
and golden logs read exactly as the plain strings did, and a member compares equal to (and
hashes as) its string: ``Source.SELF == "self"``, and ``Source.SELF in ("self", "draw")``.
"""

from __future__ import annotations

import enum


class Source(enum.StrEnum):
    """How an incoming card reached a player."""

    SELF = "self"        # the player's own draw from the wall (自摸)
    DRAW = "draw"        # another player's draw, shown to all
    DISCARD = "discard"  # another player's discard


class Phase(enum.StrEnum):
    """What a hand is waiting for (``GameState.phase``; ``Observation.phase`` adds ``wait``).

    * ``discard``: the ``actor`` holds more cards than the resting size after a take (or the
      deal) and must discard one card kind it may discard; the card is then offered to the
      others (``respond``), or drawn on when nobody may claim it.
    * ``respond``: a card is on offer (``GameState.pending``, shown draw or discard); the
      ``actor`` answers it with one of its options of the current claim tier (胡, 跑, 碰, 吃)
      or ``pass``. A pass asks the next seat of the tier, then the next tier; an unclaimed card
      goes to the exposer's discard area and the next seat draws. A take ends the hand (胡) or
      leads to ``discard`` or the next draw.
    * ``hu_check``: the ``actor`` may win with the hand as it stands (天胡 on the dealt hand,
      or 自摸 after a forced 偎/提 or a kept 王; under ``claims.own_draw: kept`` with the
      drawn card, in ``GameState.pending`` with source ``self``, seen by the drawer only):
      ``hu`` ends the hand, ``pass`` (where the variant allows one) goes on to the kept card's
      forced group, ``discard`` or the next draw.
    * ``over``: the hand has ended (``GameState.result``); nobody acts.
    * ``wait``: only in a seat's view: another seat (or nobody the seat may know of) decides.

    Forced moves (dealt 提, a drawn card's 提/偎/臭偎, a forced 跑, 臭 marks, draws) are no phase:
    the engine runs them between two decisions.
    """

    DISCARD = "discard"
    RESPOND = "respond"
    HU_CHECK = "hu_check"
    OVER = "over"
    WAIT = "wait"


class ResultKind(enum.StrEnum):
    """How a hand ended."""

    HU = "hu"                    # a win (胡)
    TIANHU = "tianhu"            # a win on the dealt hand (天胡)
    HUANGZHUANG = "huangzhuang"  # the wall ran out with nobody winning (荒庄)


class Reason(enum.StrEnum):
    """Why the win analysis refuses a win (``Analysis.reason``); each in the order checked."""

    DEALT_HAND = "dealt_hand"
    KING_NOT_CLAIMABLE = "king_not_claimable"
    SELF_WIN_NOT_ALLOWED = "self_win_not_allowed"
    DRAW_WIN_NOT_ALLOWED = "draw_win_not_allowed"
    DISCARD_WIN_NOT_ALLOWED = "discard_win_not_allowed"
    CHOU_HU = "chou_hu"
    INCOMPLETE = "incomplete"
    JIANG_NOT_ALLOWED = "jiang_not_allowed"
    BELOW_MIN_HUXI = "below_min_huxi"

    @classmethod
    def source_not_allowed(cls, source: str) -> Reason:
        """The refusal of a win from ``source`` where the variant's ``win.sources`` omit it."""
        try:
            return _NOT_ALLOWED[source]
        except KeyError:
            raise ValueError(f"{source!r} is not a Source") from None


#: :meth:`Reason.source_not_allowed` of each source (keyed by its value as well)
_NOT_ALLOWED: dict[str, Reason] = {s.value: Reason(f"{s.value}_win_not_allowed") for s in Source}


REASON_MEANINGS: dict[Reason, str] = {
    Reason.DEALT_HAND: "a freshly dealt hand wins only by 天胡 or a special win (and the "
                       "dealer's optional 天胡 where the variant has it)",
    Reason.KING_NOT_CLAIMABLE: "a 王 from another player, or a 王 holder where holders win "
                               "only by 自摸",
    Reason.SELF_WIN_NOT_ALLOWED: "the variant allows no win on one's own draw",
    Reason.DRAW_WIN_NOT_ALLOWED: "the variant allows no win on another's draw",
    Reason.DISCARD_WIN_NOT_ALLOWED: "the variant allows no win on a discard",
    Reason.CHOU_HU: "臭胡: the same card was declined before with the same table 胡息",
    Reason.INCOMPLETE: "the cards do not all lie in melds",
    Reason.JIANG_NOT_ALLOWED: "only a 将 would complete the hand, and the variant allows none "
                              "here",
    Reason.BELOW_MIN_HUXI: "the best total is under the variant's minimum 胡息",
}


class Label(enum.StrEnum):
    """What a win counts as for scoring (``Result.labels``, matched by ``scoring.bonuses``)."""

    ZIMO = "zimo"                # 自摸: won on one's own draw
    TIANHU = "tianhu"            # 天胡: won on the dealt hand
    DIHU = "dihu"                # 地胡: won on the first draw, the dealer's first discard or 亮张
    TWO_TI = "two_ti"            # special win: 碰胡 2 提蛇
    XIAO_QI_DUI = "xiao_qi_dui"  # special win: 小七对
    WU_HU = "wu_hu"              # special win of a fixed value: 无胡 (0 胡息, no pair)
    JUSHOU = "jushou"            # 举手胡: a non-dealer won before taking any card


#: The canonical ids of what a seat may do (:class:`zipai_rules.engine.actions.ActionKind`, in
#: its order; a test keeps the two equal): the words a variant gives them must differ.
ACTION_KINDS = ("discard", "chi", "peng", "pao", "hu", "pass")


#: The Chinese words of the interface (``zipai play --zh``) where a variant's ``terminology``
#: gives none: action, event and meld kinds by their canonical id, and the few words of the
#: table the terminology maps leave out (the discard, the draw, the seat). A variant's own
#: word always comes first (:func:`zh_word`).
ZH_WORDS: dict[str, str] = {
    # actions and the events of the same name
    "discard": "打", "chi": "吃", "peng": "碰", "pao": "跑", "hu": "胡", "pass": "过",
    # events
    "deal": "发牌", "draw": "摸", "draw_hidden": "暗摸", "to_discards": "入弃牌",
    "no_discard": "无牌可打", "tianhu": "天胡", "huangzhuang": "荒庄",
    # melds
    "shun": "顺子", "yi_er_san": "一二三", "er_qi_shi": "二七十", "jiao": "绞牌", "kan": "坎",
    "wei": "偎", "chou_wei": "臭偎", "ti": "提", "jiang": "将", "bi": "比",
    # the table and the score
    "chou": "臭", "huxi": "胡息", "wall": "墩", "zimo": "自摸", "dianpao": "放炮",
    "lianzhang": "亮张", "king": "王", "tun": "囤", "duo": "舵", "point": "分",
    "sit_out": "数醒", "dihu": "地胡", "repeat_quad": "八块",
}


def zh_word(canonical: str, own: str | None = None) -> str:
    """The Chinese word for ``canonical``: ``own`` (the variant's, from its ``terminology``)
    if given, else :data:`ZH_WORDS`'s, else the canonical id itself."""
    return own if own is not None else ZH_WORDS.get(canonical, canonical)
