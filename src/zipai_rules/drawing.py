"""The drawing behind the pictures (:mod:`zipai_rules.svg`, docs/pictures.md): SVG of a table,
of an analysis group by group, and the HTML table of a settlement, drawn from plain data.

A table is a :class:`TablePicture` (per seat the concealed cards or their count, the melds
with kind, cards, face-down count and 胡息, the discards; the wall, the card on offer, the
turn, the result), made by ``picture()`` of a state or a view of the engine; an analysis is
an :class:`AnalysisPicture` made by :meth:`zipai_rules.analysis.Analysis.picture`; a
settlement is its lines. This module sits below the analysis and the engine and reads
neither: each of them calls it to draw itself (``_repr_svg_``, ``_repr_html_``), and
:mod:`zipai_rules.svg` checks the arguments of its public functions and calls it likewise.

Standard library only (``xml.etree`` builds the SVG, so every text and attribute is escaped).
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import attrs

from .arguments import refuse
from .cards import KING, RED_RANKS, is_big, rank_of, token, token_zh
from .melds import Meld, MeldKind
from .variant import Variant
from .vocab import Phase, ResultKind, Source, zh_word

SVG_NS = "http://www.w3.org/2000/svg"

#: card sizes: a full card in hands, melds and on offer; a small one in the discard areas
CARD_W, CARD_H, STACK = 30, 42, 20
SMALL_W, SMALL_H = 22, 30
GAP = 8
#: the meld kinds' Chinese names where no variant gives its own (``Variant.term``)
KIND_ZH = {"shun": "一句话", "yi_er_san": "一二三", "er_qi_shi": "二七十", "jiao": "绞牌",
           "kan": "坎", "peng": "碰", "wei": "偎", "chou_wei": "臭偎", "ti": "提", "pao": "跑",
           "jiang": "将"}
_SAME_CARD = frozenset({MeldKind.KAN, MeldKind.PENG, MeldKind.WEI, MeldKind.CHOU_WEI,
                        MeldKind.TI, MeldKind.PAO, MeldKind.JIANG})
_STYLE = (
    ".card rect{fill:#fffdf4;stroke:#555;stroke-width:1}"
    ".card.hidden rect{fill:#3c7a64;stroke:#1c3a30;stroke-width:1.5}"
    ".card.big text{font-weight:bold}"
    ".card text{font-family:'Noto Serif CJK SC','Songti SC',serif;fill:#222}"
    ".card.red text{fill:#c21}"
    ".card.ascii text{font-family:monospace}"
    ".label{font:12px sans-serif;fill:#333}"
    ".title{font:bold 14px sans-serif;fill:#111}"
    ".turn{fill:#c21;font-weight:bold}"
    ".facedown rect{stroke-dasharray:3 2}"
    ".rule{stroke:#bbb;stroke-width:1}"
)
#: the style sheet inside every picture (an inline ``<style>``), public for the pages that
#: show a picture inline and name its hash in their Content-Security-Policy
STYLE = _STYLE


#: characters XML 1.0 cannot hold, even escaped (the variant schema refuses control characters
#: in names and words, but a Variant built in code is not checked)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(words: str) -> str:
    """``words`` with every character XML cannot hold replaced by U+FFFD."""
    if not isinstance(words, str):
        raise refuse("words", words, "a str")
    return _NOT_XML.sub("\ufffd", words)


def text_width(words: str) -> int:
    """About how wide ``words`` are in 12px labels: a Chinese character 13px, others 7px."""
    if not isinstance(words, str):
        raise refuse("words", words, "a str")
    return sum(13 if ord(ch) >= 0x2E80 else 7 for ch in words)


def _column_height(n: int) -> int:
    return CARD_H + STACK * max(n - 1, 0)


def _card_text(card: int, ascii: bool) -> str:
    return token(card) if ascii else token_zh(card)


class _Canvas:
    """An SVG document being laid out top to bottom; :meth:`svg` gives its text."""

    def __init__(self, ascii: bool, **attributes: str) -> None:
        self.ascii = ascii
        self.root = ET.Element("svg", {"xmlns": SVG_NS, **attributes})
        ET.SubElement(self.root, "style").text = _STYLE
        self.width = 0
        self.y: float = GAP

    def text(self, parent: ET.Element, x: float, y: float, words: str, cls: str = "label"
             ) -> ET.Element:
        t = ET.SubElement(parent, "text", {"x": f"{x:g}", "y": f"{y:g}", "class": cls})
        t.text = xml_text(words)
        self.width = max(self.width, int(x + text_width(words)) + GAP)
        return t

    def card(self, parent: ET.Element, card: int | None, x: float, y: float,
             small: bool = False) -> None:
        """One card at ``(x, y)``; ``None`` draws it face down."""
        w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
        classes = ["card"]
        if card is None:
            classes.append("hidden")
        else:
            if card != KING and rank_of(card) in RED_RANKS:
                classes.append("red")
            if card != KING and is_big(card):
                classes.append("big")
            if self.ascii:
                classes.append("ascii")
        g = ET.SubElement(parent, "g", {"class": " ".join(classes),
                                        "data-card": "hidden" if card is None else token(card)})
        ET.SubElement(g, "rect", {"x": f"{x:g}", "y": f"{y:g}", "width": str(w),
                                  "height": str(h), "rx": "3"})
        if card is not None:
            size = (11 if small else 14) if self.ascii else (14 if small else 17)
            t = ET.SubElement(g, "text", {"x": f"{x + w / 2:g}", "y": f"{y + size + 1:g}",
                                          "text-anchor": "middle", "font-size": str(size)})
            t.text = _card_text(card, self.ascii)
        self.width = max(self.width, int(x + w) + GAP)

    def back(self, parent: ET.Element, x: float, y: float) -> None:
        """One card back of a concealed hand at ``(x, y)``, apart from its neighbours so
        that the backs can be counted."""
        g = ET.SubElement(parent, "g", {"class": "card hidden back", "data-card": "hidden"})
        ET.SubElement(g, "rect", {"x": f"{x:g}", "y": f"{y:g}", "width": str(BACK_W),
                                  "height": str(BACK_H), "rx": "2"})
        self.width = max(self.width, int(x + BACK_W) + GAP)

    def column(self, parent: ET.Element, cards: Sequence[int | None], x: float, y: float
               ) -> int:
        """Cards stacked in a column as a player holds them; the column's height."""
        for k, c in enumerate(cards):
            self.card(parent, c, x, y + k * STACK)
        return _column_height(len(cards))

    def svg(self) -> str:
        height = self.y + GAP
        self.root.set("width", str(self.width))
        self.root.set("height", f"{height:g}")
        self.root.set("viewBox", f"0 0 {self.width} {height:g}")
        return ET.tostring(self.root, encoding="unicode")


# --- what is drawn, read from a state or a view ----------------------------------------------

@attrs.frozen(slots=True)
class TableMeld:
    """A meld as drawn: its kind (``None``: not even the kind shows), the cards face up, how
    many lie face down, its 胡息 when the viewer can know it, and whether the other seats see
    it face down (drawn open with a dashed edge in the all-open picture)."""

    kind: MeldKind | None
    cards: tuple[int, ...]
    hidden: int
    huxi: int | None
    facedown: bool = False


@attrs.frozen(slots=True)
class TableSeat:
    """A seat as drawn: its concealed cards (``None``: face down, ``hidden`` of them), its
    melds, its discards, and the 胡息 of its concealed hand where the viewer sees the hand
    (``hand_huxi``; ``None`` where it is not known or not worked out)."""

    hand: tuple[int, ...] | None
    hidden: int
    melds: tuple[TableMeld, ...]
    discards: tuple[int, ...]
    hand_huxi: int | None = None


@attrs.frozen(slots=True)
class TablePicture:
    """A table as drawn, from a state (``mode`` ``open``) or a view (``seat``, ``spectator``);
    ``turn`` is the seat to act as the viewer may know it, and the phase; ``split``: the
    winner's hand laid out as its winning split (the groups of the result's decomposition),
    where the picture shows it."""

    title: str
    mode: str
    viewer: int | None
    seats: tuple[TableSeat, ...]
    dealer: int | None
    wall: int
    pending: tuple[int, Source, int] | None
    turn: tuple[int | None, Phase]
    result: Outcome | None
    variant: Variant | None
    split: tuple[AnalysisGroup, ...] = ()

@attrs.frozen(slots=True)
class Outcome:
    """How the hand ended, as drawn: the result's ``kind``, ``winner``, winning ``card`` and
    ``huxi`` (a state's result and a view's shown result alike)."""

    kind: ResultKind
    winner: int | None
    card: int | None
    huxi: int


def group_hand(counts: Sequence[int]) -> list[list[int]]:
    """A concealed hand (21 counts) in columns as a player holds it: every 坎 (and four of a
    kind) together, then, lowest card first, a run (一二三/顺, 二七十), a 绞 (a card with its
    other-size pair), a pair, or the card alone; the 王 in a column of their own."""
    if (isinstance(counts, str | bytes) or not isinstance(counts, Sequence)
            or len(counts) != 21
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                       for n in counts)):
        raise refuse("counts", counts, "21 counts of cards (ints from 0)")
    left = list(counts)
    columns: list[list[int]] = []
    for c in range(20):
        if left[c] >= 3:
            columns.append([c] * left[c])
            left[c] = 0
    for c in range(20):
        while left[c]:
            rank = c % 10 + 1
            other = c + 10 if c < 10 else c - 10
            shapes = ([c, c + 1, c + 2] if rank <= 8 else [],
                      [c, c + 5, c + 8] if rank == 2 else [],
                      [c, c, other] if left[c] >= 2 and left[other] == 1 else [],
                      [c, other, other] if left[other] == 2 else [],
                      [c, c] if left[c] >= 2 else [])
            shape = next((s for s in shapes if s and _has(left, s)), [c])
            for x in shape:
                left[x] -= 1
            columns.append(sorted(shape))
    if left[KING]:
        columns.append([KING] * left[KING])
    return columns


def _has(left: list[int], cards: Sequence[int]) -> bool:
    return all(left[x] >= cards.count(x) for x in set(cards))


def seen_huxi(variant: Variant | None, kind: MeldKind | None, cards: Sequence[int],
               hidden: int) -> int | None:
    """The 胡息 of a meld as a viewer sees it, when its kind and size (small/big) show."""
    if variant is None or kind is None or kind not in variant.huxi_table:
        return None
    real = [c for c in cards if c != KING]
    if hidden == 0 and len(real) == len(cards):
        return variant.meld_huxi(Meld(kind, real))
    if kind in _SAME_CARD and real:  # every card is the one shown (huxi.extra included)
        size = 4 if kind in (MeldKind.TI, MeldKind.PAO) else 2 if kind == MeldKind.JIANG else 3
        return variant.meld_huxi(Meld(kind, (real[0],) * size))
    return None

# --- drawing ----------------------------------------------------------------------------------

class Words:
    """The words of one picture, in one language: ASCII/English (``ascii``), or Chinese in
    the variant's own words (its ``terminology``, else the common word,
    :func:`~zipai_rules.vocab.zh_word`); never both in one picture."""

    def __init__(self, ascii: bool, variant: Variant | None) -> None:
        self.ascii, self.variant = ascii, variant

    def term(self, canonical: str) -> str:
        """A canonical term (``peng``, ``huxi``, ``wall`` …) in this picture's language."""
        if self.ascii:
            return canonical
        own = None if self.variant is None else self.variant.terminology.get(canonical)
        return zh_word(canonical, own if own is not None else KIND_ZH.get(canonical))

    def kind(self, kind: MeldKind | None) -> str:
        return "?" if kind is None else self.term(kind.value)

    def seat(self, s: int) -> str:
        return f"seat {s}" if self.ascii else f"{s}号位"

    def huxi(self, n: int) -> str:
        return f"{n} {self.term('huxi')}"

    def title(self) -> str:
        if self.variant is None:
            return "zipai" if self.ascii else "字牌"
        return self.variant.id if self.ascii else self.variant.name

    def card(self, card: int) -> str:
        return _card_text(card, self.ascii)

    def pick(self, english: str, chinese: str) -> str:
        return english if self.ascii else chinese


#: the phases and the sources of a card on offer, in Chinese
_PHASE_ZH = {"discard": "出牌", "respond": "应牌", "hu_check": "可胡", "over": "终局",
             "wait": "等待"}
_SOURCE_ZH = {"discard": "打出", "draw": "摸出", "self": "自摸"}


def _result_text(result: Outcome, w: Words) -> str:
    kind = w.term(str(result.kind))
    if result.kind == ResultKind.HUANGZHUANG:
        return w.pick("huangzhuang (no winner)", kind)
    card = "" if result.card is None else " " + w.card(result.card)
    if result.winner is None:
        return f"{kind}{card}"
    return w.pick(f"seat {result.winner} wins: {kind}{card}, {w.huxi(result.huxi)}",
                  f"{w.seat(result.winner)} {kind}{card}，{w.huxi(result.huxi)}")


def draw_table(t: TablePicture, ascii: bool) -> str:
    """The SVG of a table picture, every word in one language (:class:`Words`): the header
    (title, wall, turn or result, the card on offer), then the seats: in a seat's view the
    others compactly in a top row (:func:`seat_places`) and the viewer at full size below,
    at most :data:`TABLE_W` wide with two or three players; with no viewer every seat at full
    size one below the other, seat 0 first; then the winner's split where there is one."""
    attributes = {"class": "zipai-table", "data-mode": t.mode,
                  "data-lang": "ascii" if ascii else "zh"}
    if t.viewer is not None:
        attributes["data-seat"] = str(t.viewer)
    c = _Canvas(ascii, **attributes)
    w = Words(ascii, t.variant)
    head = ET.SubElement(c.root, "g", {"class": "header"})
    y = c.y + 14
    title = w.title() if t.variant is not None or not t.title else t.title
    c.text(head, GAP, y, title, "title")
    seat = w.seat(t.viewer) if t.viewer is not None else ""
    view = {"open": w.pick("all cards open", "全部明牌"),
            "spectator": w.pick("spectator", "旁观")}.get(
        t.mode, w.pick(f"{seat}'s view", f"{seat}视角"))
    c.text(head, GAP + text_width(title) + 24, y, view)
    y += 20
    wall = c.text(head, GAP, y, f"{w.term('wall')} {t.wall}")
    wall.set("class", "label wall")
    wall.set("data-wall", str(t.wall))
    actor, phase = t.turn
    if t.result is not None:
        status = _result_text(t.result, w)
    elif actor is not None:
        status = w.pick(f"seat {actor} to act: {phase}",
                        f"{w.seat(actor)} {_PHASE_ZH.get(str(phase), str(phase))}")
    else:
        status = w.pick("waiting for another seat", "等待他家")
    turn = c.text(head, GAP + 90, y, status)
    turn.set("class", "label turn")
    if actor is not None:
        turn.set("data-actor", str(actor))
    c.y = y + 8
    if t.pending is not None:
        card, source, by = t.pending
        g = ET.SubElement(c.root, "g", {"class": "pending", "data-source": str(source),
                                        "data-seat": str(by)})
        offer = w.pick(f"on offer ({source} by seat {by}):",
                       f"待取（{w.seat(by)}{_SOURCE_ZH.get(str(source), str(source))}）：")
        c.text(g, GAP, c.y + 26, offer)
        c.card(g, card, GAP + text_width(offer) + GAP, c.y)
        c.y += CARD_H + GAP
    _draw_seats(c, t, w, actor)
    if t.split and t.result is not None and t.result.winner is not None:
        g = ET.SubElement(c.root, "g", {"class": "split", "data-seat": str(t.result.winner),
                                        "data-huxi": str(t.result.huxi)})
        c.y += 14
        c.text(g, GAP, c.y, w.pick(f"seat {t.result.winner}'s winning split: "
                                   f"{w.huxi(t.result.huxi)}",
                                   f"{w.seat(t.result.winner)} 胡牌牌型：{w.huxi(t.result.huxi)}"),
               "label")
        c.y += 6
        _draw_groups(c, g, t.split, w)
    return c.svg()


#: a face-down card in a concealed hand: a card back, one per card, side by side
BACK_W, BACK_H, BACK_STEP = 14, 22, 17
#: the seats of the top row of a seat's view: each in a column this wide, its concealed hand
#: as rows of this many card backs, its melds and discards in small cards stacked this far
COLUMN, BACKS_PER_ROW, SMALL_STACK = 200, 10, 16
#: how wide a seat's view is drawn with three players (two columns): what a seat at full size
#: wraps its melds and discards at
TABLE_W = 2 * COLUMN + 3 * GAP


def seat_places(players: int, viewer: int) -> list[int]:
    """The other seats of ``viewer``'s view as the top row shows them, left to right: the
    previous seat (上家) on the left, the next seat (下家, who plays after the viewer) on the
    right, the opposite seat (对家) between them at a table of four; the one other seat at a
    table of two."""
    return [(viewer - 1) % players, *((viewer + k) % players for k in range(players - 2, 0, -1))]


def _place_word(w: Words, players: int, viewer: int, s: int) -> str:
    step = (s - viewer) % players
    if step == 1 and players > 2:
        return w.pick("(next)", "下家")
    if step == players - 1 and players > 2:
        return w.pick("(prev)", "上家")
    return w.pick("(opp)", "对家")


def _draw_seats(c: _Canvas, t: TablePicture, w: Words, actor: int | None) -> None:
    """The seats below the header: in a seat's view the others in a top row (compact, in play
    order around the table, :func:`seat_places`) and the viewer at full size below them; in a
    picture with no viewer (all open, a spectator's) every seat at full size, seat 0 first.
    The seat groups stay in seat order in the document whatever their place."""
    n = len(t.seats)
    if t.viewer is None or not 0 <= t.viewer < n or n < 2:
        for s, seat in enumerate(t.seats):
            c.y = _draw_seat(c, t, w, s, seat, actor, GAP, c.y, TABLE_W - 2 * GAP)
        return
    order = seat_places(n, t.viewer)
    top, bottom = c.y, c.y
    groups = {s: ET.Element("g") for s in range(n)}
    for k, s in enumerate(order):
        x = GAP + k * (COLUMN + GAP)
        bottom = max(bottom, _draw_seat(c, t, w, s, t.seats[s], actor, x, top, COLUMN,
                                        compact=True, into=groups[s]))
    c.y = _draw_seat(c, t, w, t.viewer, t.seats[t.viewer], actor, GAP, bottom + 4,
                     max(TABLE_W, c.width) - 2 * GAP, into=groups[t.viewer])
    ET.SubElement(c.root, "line", {"class": "rule", "x1": f"{GAP}", "x2": f"{c.width - GAP}",
                                   "y1": f"{bottom + 2:g}", "y2": f"{bottom + 2:g}"})
    for s in range(n):
        c.root.append(groups[s])


def _flow(items: Sequence[tuple[float, float, float]], x0: float, top: float, width: float
          ) -> tuple[list[tuple[float, float, float]], float]:
    """Items ``(width, height, space before)`` laid left to right from ``(x0, top)``, a new row
    when the next would pass ``x0 + width`` (or its space is negative): each item's ``(x, y,
    height of its row)``, and the bottom of the last row."""
    rows: list[list[int]] = [[]]
    xs: list[float] = []
    x = x0
    for k, (iw, _, space) in enumerate(items):
        if rows[-1] and (space < 0 or x + space + iw > x0 + width):
            rows.append([])
            x = x0
        elif rows[-1]:
            x += space
        rows[-1].append(k)
        xs.append(x)
        x += iw
    out: list[tuple[float, float, float]] = [(0, 0, 0)] * len(items)
    y = top
    for row in rows:
        tall = max((items[k][1] for k in row), default=0)
        for k in row:
            out[k] = (xs[k], y, tall)
        y += tall
    return out, y


def _seat_label(c: _Canvas, g: ET.Element, lines: Sequence[str], x: float, y: float,
                cls: str) -> ET.Element:
    """A seat's label: its first line a text, each further line a ``tspan`` below it."""
    label = c.text(g, x, y, lines[0], cls)
    for line in lines[1:]:
        ET.SubElement(label, "tspan", {"x": f"{x:g}", "dy": "14"}).text = xml_text(line)
        c.width = max(c.width, int(x + text_width(line)) + GAP)
    return label


def _draw_seat(c: _Canvas, t: TablePicture, w: Words, s: int, seat: TableSeat,
               actor: int | None, x0: float, y0: float, width: float,
               compact: bool = False, into: ET.Element | None = None) -> float:
    """Seat ``s`` drawn from ``(x0, y0)`` within ``width``: its label, its concealed hand,
    its melds, its discards (``compact``: in small cards, the backs in rows, the label in
    lines); the bottom of what it drew. ``into``: the element that becomes its group."""
    if into is None:
        g = ET.SubElement(c.root, "g")
    else:
        g = into
    g.set("class", "seat")
    g.set("data-seat", str(s))
    marks = [w.seat(s)]
    if s == t.dealer:
        marks.append(w.pick("dealer", "庄"))
    if s == t.viewer:
        marks.append(w.pick("(you)", "（本家）"))
    elif compact and t.viewer is not None:
        marks.append(_place_word(w, len(t.seats), t.viewer, s))
    if s == actor:
        marks.append(w.pick("← to act", "← 该出手"))
    huxi = [m.huxi for m in seat.melds]
    known = sum(h for h in huxi if h is not None)
    unknown = huxi.count(None)
    if huxi:
        more = "" if not unknown else w.pick(f" + {unknown} face down",
                                             f" + {unknown}组暗扣")
        marks.append(w.pick(f"table {w.huxi(known)}{more}", f"桌面 {w.huxi(known)}{more}"))
    if seat.hand_huxi is not None:
        marks.append(w.pick(f"hand {w.huxi(seat.hand_huxi)}",
                            f"手牌 {w.huxi(seat.hand_huxi)}"))
    lines, space = [marks[0]], " " if compact else "  "
    for mark in marks[1:]:  # as many marks to a line as the width holds
        if text_width(lines[-1] + space + mark) <= width:
            lines[-1] += space + mark
        else:
            lines.append(mark)
    y = y0 + 16
    label = _seat_label(c, g, lines, x0, y, "label turn" if s == actor else "label")
    label.set("data-table-huxi", str(known))
    if seat.hand_huxi is not None:
        label.set("data-hand-huxi", str(seat.hand_huxi))
    top = y + 14 * (len(lines) - 1) + 6
    card_w, card_h, stack = (SMALL_W, SMALL_H, SMALL_STACK) if compact else (
        CARD_W, CARD_H, STACK)

    def tall(n: int) -> int:
        return card_h + stack * max(n - 1, 0)

    # what the row holds: the hand's columns (or its backs), then the melds
    hand = ET.SubElement(g, "g", {"class": "hand", "data-seat": str(s)})
    columns: list[list[int]] = []
    items: list[tuple[float, float, float]] = []
    if seat.hand is not None:
        counts = [0] * 21
        for card in seat.hand:
            counts[card] += 1
        columns = group_hand(counts)
        items += [(card_w, tall(len(col)), 2) for col in columns]
    else:
        hand.set("data-hidden", str(seat.hidden))
        per_row = BACKS_PER_ROW if compact else max(seat.hidden, 1)
        rows = -(-seat.hidden // per_row) if seat.hidden else 0
        backs_w = BACK_STEP * min(seat.hidden, per_row) + (25 if compact else 0)
        items.append((backs_w, max(rows * (BACK_H + 4), CARD_H if not compact else 0), 0))
    labels = []
    for m in seat.melds:
        text = w.kind(m.kind) + ("" if m.huxi is None else f" {m.huxi}")
        labels.append(text)
        items.append((max(card_w, text_width(text)), tall(len(m.cards) + m.hidden) + 16,
                      4 if len(labels) > 1 else -1 if compact else 3 * GAP))
    placed, bottom = _flow(items, x0, top, width)
    k = 0
    if seat.hand is not None:
        for column in columns:
            col = ET.SubElement(hand, "g", {"class": "group"})
            cx, cy, _ = placed[k]
            for j, card in enumerate(column):
                c.card(col, card, cx, cy + j * stack, small=compact)
            k += 1
    else:
        bx, by, _ = placed[k]
        per_row = BACKS_PER_ROW if compact else max(seat.hidden, 1)
        for j in range(seat.hidden):
            c.back(hand, bx + (j % per_row) * BACK_STEP, by + (j // per_row) * (BACK_H + 4))
        if compact and seat.hidden:
            count = c.text(hand, bx + BACK_STEP * min(seat.hidden, per_row) + 2, by + 16,
                           f"×{seat.hidden}")
            count.set("class", "label count")
        k += 1
    for m, text in zip(seat.melds, labels, strict=True):
        mx, my, row_tall = placed[k]
        k += 1
        attributes = {"class": "meld facedown" if m.facedown else "meld", "data-seat": str(s),
                      "data-kind": "" if m.kind is None else m.kind.value}
        if m.huxi is not None:
            attributes["data-huxi"] = str(m.huxi)
        mg = ET.SubElement(g, "g", attributes)
        cards: list[int | None] = [*m.cards, *([None] * m.hidden)]
        for j, card_ in enumerate(cards):
            c.card(mg, card_, mx, my + j * stack, small=compact)
        c.text(mg, mx, my + row_tall - 3, text)
    y = max(bottom, top + (0 if compact else CARD_H)) + 6
    discards = ET.SubElement(g, "g", {"class": "discards", "data-seat": str(s)})
    if seat.discards:
        word = w.pick("discards", "弃牌")
        c.text(discards, x0, y + 19, word)
        left = x0 + text_width(word) + GAP
        per_row = max(int((x0 + width - left + 2) // (SMALL_W + 2)), 1)
        for j, card in enumerate(seat.discards):
            c.card(discards, card, left + (j % per_row) * (SMALL_W + 2),
                   y + (j // per_row) * (SMALL_H + 2), small=True)
        y += (SMALL_H + 2) * -(-len(seat.discards) // per_row) + 2
    return y + GAP


def _draw_groups(c: _Canvas, parent: ET.Element, groups: Sequence[AnalysisGroup],
                 w: Words) -> None:
    """The groups of a split side by side below ``c.y``: each group's cards as a column,
    its kind and 胡息, ``table`` or ``hand``, and the cards its 王 stand for."""
    x, below = GAP, c.y + max((_column_height(len(g.cards)) for g in groups),
                              default=CARD_H) + 13
    for group in groups:
        g = ET.SubElement(parent, "g", {"class": "meld", "data-kind": group.kind.value,
                                        "data-huxi": str(group.huxi),
                                        "data-place": group.place})
        c.column(g, group.cards, x, c.y)
        label = f"{w.kind(group.kind)} {group.huxi}"
        c.text(g, x, below, label)
        place = c.text(g, x, below + 14, w.pick(
            group.place, {"table": "桌面", "hand": "手牌"}.get(group.place, group.place)))
        place.set("class", "label place")
        if group.kings:
            c.text(g, x, below + 28, w.pick("K", w.term("king")) + "=" + " ".join(
                w.card(k) for k in group.kings))
        x += max(CARD_W, text_width(label)) + 6
    c.y = below + 34



# --- an analysis, a settlement ----------------------------------------------------------------

@attrs.frozen(slots=True)
class AnalysisGroup:
    """A group of a decomposition as drawn: its ``kind`` and ``huxi``, ``place`` (``table`` or
    ``hand``), its ``cards`` as they lie (a 王 drawn as the 王) and the cards the 王 stand for
    (``kings``)."""

    kind: MeldKind
    huxi: int
    place: str
    cards: tuple[int, ...]
    kings: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class AnalysisPicture:
    """An analysis as drawn: the verdict (``win``, the ``reason`` of a refusal), the total
    ``huxi``, the groups of the best decomposition and its leftover cards."""

    win: bool
    reason: str | None
    huxi: int
    groups: tuple[AnalysisGroup, ...] = ()
    leftover: tuple[int, ...] = ()


def draw_analysis(picture: AnalysisPicture, ascii: bool = False,
                  variant: Variant | None = None) -> str:
    """The SVG of an analysis: the verdict and total 胡息, the groups one by one (kind, 胡息,
    ``table`` or ``hand``; a 王 labelled with the card it stands for), the leftover cards;
    ``variant`` names the kinds in its own words."""
    c = _Canvas(ascii, **{"class": "zipai-analysis", "data-win": str(picture.win).lower(),
                          "data-huxi": str(picture.huxi)})
    w = Words(ascii, variant)
    verdict = w.pick("win" if picture.win else f"no win ({picture.reason})",
                     "胡" if picture.win else "不胡")
    c.text(c.root, GAP, c.y + 14, f"{verdict}: {w.huxi(picture.huxi)}", "title")
    c.y += 26
    _draw_groups(c, c.root, picture.groups, w)
    if picture.leftover:
        g = ET.SubElement(c.root, "g", {"class": "leftover"})
        c.text(g, GAP, c.y + 14, w.pick("leftover", "散牌"))
        for k, card in enumerate(picture.leftover):
            c.card(g, card, GAP + 60 + k * (CARD_W + 2), c.y)
        c.y += CARD_H + GAP
    return c.svg()


def settlement_table(variant_id: str, winner: int | None, huxi: int, units: int, unit: str,
                     lines: Sequence[tuple[str, str, str, int]]) -> str:
    """A settlement as an HTML table: its caption (variant, winner, 胡息, units), then one
    row per line ``(item, term, text, value)``; every text escaped."""

    def e(words: str) -> str:
        return html.escape(xml_text(words))

    who = "no winner" if winner is None else f"seat {winner} wins"
    rows = [f"<caption>{e(variant_id)}: {e(who)}, {huxi} 胡息, {units} {e(unit)}</caption>",
            "<thead><tr><th>item</th><th>term</th><th>text</th><th>value</th></tr></thead>",
            "<tbody>"]
    rows += [f'<tr class="line" data-item="{e(item)}"><td>{e(item)}</td><td>{e(term)}'
             f"</td><td>{e(text)}</td><td>{value}</td></tr>" for item, term, text, value in lines]
    rows.append("</tbody>")
    return '<table class="zipai-settlement">' + "".join(rows) + "</table>"
