"""An HTML replay of a game record: one self-contained file (``zipai view``).

The file holds, for every step of the hand (the deal, then each seat decision), the table as
JSON snapshots taken from the engine itself: the all-open table (every hand, every meld face
up) and each seat's view (:func:`~zipai_rules.engine.observation.observe`, the events of the
step as :class:`~zipai_rules.engine.observation.Redactor` shows them to the seat). A small
inline script draws a snapshot into the page; nothing is fetched from the network (no URL,
no font, no image: a Content-Security-Policy forbids any), and the policy lets run only the
page's own script and style, named by their SHA-256 (:func:`csp`). Names from the record (the
variant's id, name and terms, the bots) are data: they are put in the page as escaped JSON
and as text nodes, never as markup.

:class:`ReplayIndex` writes the replays of a ``zipai simulate --out DIR --html`` run and
``DIR/index.html``, the list of the games with winner, 胡息 and length.

The file shows every card of the hand, whatever view it opens in: it is for after the hand
(a referee, a replay, a dispute), never for a player while the hand is being played.
"""

from __future__ import annotations

import base64
import hashlib
import heapq
import html
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .cards import N_KINDS, RED_RANKS, format_cards, indices_of, rank_of, token, token_zh
from .drawing import seen_huxi
from .engine.actions import Event
from .engine.game import Game
from .engine.observation import Redactor, observe
from .engine.state import GameState
from .errors import RecordError
from .hints import hints
from .inputs import RECORD_LIMITS, Limits
from .melds import Meld
from .records import (
    check_writable,
    read_record,
    replay_record,
    result_json,
    rules_used,
    write_text_atomic,
)
from .settlement import Settlement
from .simulate import GameSummary, record_path
from .variant import Variant
from .vocab import ZH_WORDS, zh_word
from .wording import Words

__all__ = ["ReplayIndex", "replay_data", "replay_html", "replay_snapshots", "script_json",
           "view_data", "view_record"]


def _tokens(cards: Iterable[int]) -> list[str]:
    return format_cards(cards).split()


def _meld_json(variant: Variant, meld: Meld) -> dict[str, Any]:
    """A table meld all open, in the shape of a seen meld (``kind``, ``cards``, ``hidden``)
    plus the cards its 王 stand for (``kings``) and its 胡息 (:meth:`Variant.meld_huxi`)."""
    return {"kind": meld.kind.value, "cards": _tokens(meld.cards), "hidden": 0,
            "kings": _tokens(meld.kings), "huxi": variant.meld_huxi(meld)}


def _event_json(event: Event, zh: Words) -> dict[str, Any]:
    """An event as JSON with its ``text`` (the log's notation) and ``text_zh`` (as ``zipai
    play --zh`` prints it: the variant's words, ``N号位``, Chinese cards and notes)."""
    return {**event.to_json(), "text": event.describe(), "text_zh": zh.event(event)}


def open_snapshot(state: GameState, events: Sequence[Event]) -> dict[str, Any]:
    """The table of ``state`` with every card open: each seat's concealed ``hands``, its
    ``melds`` (all face up, each with its 胡息), its ``table_huxi``, ``discards``; the
    ``wall`` size, the card on offer
    (``pending``), the ``actor`` and ``phase``, and the ``events`` of the step."""
    v = state.variant
    zh = Words(v, zh=True)
    p = state.pending
    melds = [[_meld_json(v, m) for m in st.melds] for st in state.seats]
    return {"hands": [_tokens(indices_of(st.hand)) for st in state.seats],
            "melds": melds,
            "table_huxi": [sum(m["huxi"] for m in ms) for ms in melds],
            "discards": [_tokens(st.discards) for st in state.seats],
            "wall": len(state.wall),
            "pending": None if p is None else {"card": token(p.card), "source": str(p.source),
                                               "by": p.by},
            "actor": state.actor, "phase": str(state.phase),
            "events": [_event_json(e, zh) for e in events]}


def replay_snapshots(game: Game) -> list[dict[str, Any]]:
    """The snapshots of a game, one per step: step 0 after the deal, step k after action k.
    Each holds the ``action`` of the step (``None`` at step 0), the ``open`` table
    (:func:`open_snapshot`) and ``seats``: each seat's ``observe(state, seat).to_json()``
    (without ``history``) with ``events``, the events of the step the seat is shown; each
    meld's ``huxi`` where its kind and size show (:func:`~zipai_rules.drawing.seen_huxi`,
    else ``null``), ``table_huxi`` per seat (the melds that show) and ``hand_huxi`` (its
    own hand, :func:`~zipai_rules.hints.hints`); the open table also each seat's
    ``hand_huxi``."""
    variant = game.variant
    again = Game(variant, deal=game.deal, windows=game.windows)
    redactors = [Redactor(variant, s) for s in range(variant.players)]
    zh = Words(variant, zh=True)
    steps: list[dict[str, Any]] = []

    def snap(action: dict[str, Any] | None, batch: Sequence[Event]) -> None:
        state = again.state
        seats, hand_huxi = [], []
        for s, redactor in enumerate(redactors):
            obs = observe(state, s)
            view = obs.to_json()
            del view["history"]
            shown = (redactor.show(e) for e in batch)
            view["events"] = [_event_json(e, zh) for e in shown if e is not None]
            seen = hints(variant, obs)
            for melds, m_json in zip(obs.melds, view["melds"], strict=True):
                for m, j in zip(melds, m_json, strict=True):
                    j["huxi"] = seen_huxi(variant, m.kind, m.cards, m.hidden)
            view["table_huxi"] = list(seen.table_huxi)
            view["hand_huxi"] = seen.hand_huxi
            hand_huxi.append(seen.hand_huxi)
            seats.append(view)
        table = open_snapshot(state, batch)
        table["hand_huxi"] = hand_huxi
        steps.append({"action": action, "open": table, "seats": seats})

    snap(None, again.events)
    for action in game.actions:
        snap(action.to_json(), again.apply(action))
    return steps


def replay_data(game: Game, settlement: Settlement, bots: Sequence[str] | None = None
                ) -> dict[str, Any]:
    """Everything the replay page shows, as JSON-ready data: the header (variant, seed as a
    string, players, dealer, bots, the variant's terms, card faces), the ``steps``
    (:func:`replay_snapshots`), the ``result`` and the ``settlement`` (with
    ``settlement_zh``, its lines' texts in Chinese). ``terms`` holds the Chinese word of
    every canonical term: the variant's own (``zipai terms``), else the common one
    (:data:`~zipai_rules.vocab.ZH_WORDS`), as ``zipai play --zh`` words them."""
    v = game.variant
    zh = Words(v, zh=True)
    return {
        "variant": {"id": v.id, "name": v.name, "rules": rules_used(v)},
        "seed": None if game.seed is None else str(game.seed),
        "players": v.players, "dealer": game.deal.dealer,
        "bots": None if bots is None else [str(b) for b in bots],
        "terms": zh_terms(v),
        "faces": {token(i): token_zh(i) for i in range(N_KINDS)},
        "red": [token(i) for i in range(N_KINDS) if rank_of(i) in RED_RANKS],
        "steps": replay_snapshots(game),
        "result": None if game.result is None else result_json(game.result),
        "settlement": settlement.to_json(),
        "settlement_zh": [zh.settlement_text(line) for line in settlement.lines],
    }


def zh_terms(variant: Variant) -> dict[str, str]:
    """The Chinese word of every canonical term the page names (:func:`~zipai_rules.vocab.
    zh_word`): the variant's ``terminology`` over :data:`~zipai_rules.vocab.ZH_WORDS`."""
    return {word: zh_word(word, variant.terminology.get(word))
            for word in sorted({*ZH_WORDS, *variant.terminology})}


def script_json(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script>`` element: ASCII only, and ``<``, ``>``,
    ``&`` written as ``\\u003c`` … so that no ``</script>`` or ``<!--`` can appear."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def sha256_source(text: str) -> str:
    """The CSP hash source of an inline element's text: ``'sha256-<base64>'`` of its UTF-8."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def csp(script: str, style: str) -> str:
    """The page's Content-Security-Policy: nothing fetched (``default-src 'none'``), and only
    the page's own script and style run, each named by its SHA-256 (computed as the page is
    written), so that no other inline script, handler (``onclick=``) or style attribute
    would; without a script, no script at all."""
    scripts = sha256_source(script) if script else "'none'"
    return (f"default-src 'none'; script-src {scripts}; style-src {sha256_source(style)}; "
            "img-src data:; base-uri 'none'; form-action 'none'")


def _page(title: str, body: str, script: str = "", data: Any = None) -> str:
    parts = ['<!DOCTYPE html>\n<html lang="zh">\n<head>\n<meta charset="utf-8">\n',
             '<meta http-equiv="Content-Security-Policy" '
             f'content="{html.escape(csp(script, _STYLE))}">\n',
             '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
             f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n",
             f"<body>\n{body}\n"]
    if data is not None:
        parts.append('<script type="application/json" id="replay-data">'
                     f"{script_json(data)}</script>\n")
    if script:
        parts.append(f"<script>{script}</script>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)


def replay_html(game: Game, settlement: Settlement, bots: Sequence[str] | None = None,
                back: str | None = None) -> str:
    """The replay page of a finished game (one self-contained HTML document). ``back``: a
    relative link shown at the top (the index of a simulation run)."""
    v = game.variant
    title = f"zipai replay: {v.name} ({v.id})" + (
        "" if game.seed is None else f", seed {game.seed}")
    link = "" if back is None else f'<a id="back" href="{html.escape(back)}">all games</a>\n'
    return _page(title, link + _BODY, _SCRIPT, replay_data(game, settlement, bots))


def record_page(record: Mapping[str, Any], back: str | None = None) -> str:
    """The replay page (:func:`replay_html`) of a record already read and validated (a
    ``dict`` as :func:`~zipai_rules.records.loads_record` gives it), replayed strictly, as
    text rather than a file (a web server's answer). Raises as :func:`view_data`."""
    game, settlement = replay_record(record)
    return replay_html(game, settlement, record.get("bots"), back)


def replay_csp() -> str:
    """The Content-Security-Policy of every replay page (:func:`csp` of its script and
    style), for a server to send as a header beside the page's own ``<meta>``."""
    return csp(_SCRIPT, _STYLE)


def view_record(record: str | Path, out: str | Path, limits: Limits = RECORD_LIMITS,
                back: str | None = None) -> Game:
    """Read the record file ``record`` (bounded and validated, :func:`read_record`), replay
    it strictly (:func:`replay_record`) and write its replay page to ``out``; returns the
    replayed game. Raises :class:`~zipai_rules.errors.RecordError` (a bad or unreadable
    record; ``unwritable`` for an ``out`` that cannot be written or is the record itself,
    checked before the replay) and
    :class:`~zipai_rules.errors.ReplayError`."""
    _check_out(out)
    if Path(out).resolve() == Path(record).resolve():
        raise RecordError(f"{out}: the replay would overwrite its record", code="unwritable")
    return view_data(read_record(record, limits), out, back)


def view_data(data: dict[str, Any], out: str | Path, back: str | None = None) -> Game:
    """:func:`view_record` of a record already read (a validated ``dict``, e.g. a game of a
    record shard, :func:`~zipai_rules.shards.read_shard_record`): replayed strictly, its page
    written to ``out``. Raises as :func:`view_record`."""
    _check_out(out)
    game, settlement = replay_record(data)
    bots = data.get("bots")
    write_text_atomic(out, replay_html(game, settlement, bots, back))
    return game


def _check_out(out: str | Path) -> None:
    """That the replay page can be written to ``out``, before any replay."""
    try:
        check_writable(out)
    except RecordError as exc:
        raise RecordError(str(exc).replace("the record", "the replay", 1),
                          code=exc.code) from None


class ReplayIndex:
    """The replays of a simulation run in the records folder ``out``: :meth:`add` keeps the
    row of a finished game (a :class:`~zipai_rules.simulate.GameSummary`); :meth:`write`
    writes each kept game's replay ``out/game-NNNNN.html`` from its record
    ``out/game-NNNNN.json`` (replayed strictly, as :func:`view_record`), then
    ``out/index.html``: a table of the games in game order (number, seed, result, winner,
    胡息, units, actions), each linking to its replay."""

    def __init__(self, out: str | Path, title: str) -> None:
        self.out, self.title = Path(out), title
        self.rows: list[tuple[int, int, str, int | None, int, int, int]] = []
        self.earlier: list[tuple[int, int]] = []
        self.seed = 1

    def add(self, summary: GameSummary) -> None:
        """Keep the row of the game ``summary`` describes."""
        self.rows.append((summary.number, summary.seed, str(summary.kind), summary.winner,
                          summary.huxi, summary.units, summary.actions))

    def add_earlier(self, numbers: Iterable[tuple[int, int]], seed: int) -> None:
        """Keep the games ``numbers`` (inclusive ranges) an earlier part of the run of
        ``seed`` finished (a resumed run's; game ``n`` has seed ``seed + n - 1``):
        :meth:`write` reads each one's row from its record, and writes its page only if
        ``game-NNNNN.html`` is missing."""
        self.earlier.extend((int(a), int(b)) for a, b in numbers)
        self.seed = seed

    def _earlier_row(self, number: int) -> tuple[int, int, str, int | None, int, int, int]:
        source = record_path(self.out, number)
        data = read_record(source)
        game, settlement = replay_record(data)
        page = source.with_suffix(".html")
        if not page.exists():
            write_text_atomic(page, replay_html(game, settlement, data.get("bots"),
                                                "index.html"))
        r = game.state.final_result
        if r is None:  # a replayed record is of a finished game
            raise RecordError(f"{source}: not a finished game", code="bad_format")
        won = r.winner is not None
        return (number, self.seed + number - 1, str(r.kind), r.winner,
                r.huxi if won else 0, settlement.units if won else 0, len(game.actions))

    def write(self, stop: Callable[[], bool] | None = None) -> Path:
        """Write the replays of the games added and ``index.html``; returns the index's
        path. ``stop`` (e.g. a Ctrl-C seen) is asked before each page: once it returns true
        no further page is written, and the index lists the pages written. Raises what
        :func:`view_record` raises."""
        rows = []
        Row = tuple[int, int, str, int | None, int, int, int]
        earlier: Iterator[tuple[int, Row | None]] = (
            (n, None) for a, b in sorted(self.earlier) for n in range(a, b + 1))
        added: Iterator[tuple[int, Row | None]] = ((row[0], row) for row in sorted(self.rows))
        for at, kept in heapq.merge(earlier, added, key=lambda item: item[0]):
            if stop is not None and stop():
                break
            if kept is None:  # an earlier part's game: its row from its record
                kept = self._earlier_row(at)
            else:
                source = record_path(self.out, at)
                view_record(source, source.with_suffix(".html"), back="index.html")
            number, seed, kind, winner, huxi, units, actions = kept
            source = record_path(self.out, number)
            rows.append(
                f'<tr data-game="{number}"><td><a href="{source.stem}.html">{number}</a></td>'
                f"<td>{seed}</td><td>{html.escape(kind)}</td>"
                f"<td>{'—' if winner is None else winner}</td><td>{huxi}</td>"
                f"<td>{units}</td><td>{actions}</td></tr>")
        body = (f"<h1>{html.escape(self.title)}</h1>\n<p>{len(rows)} games</p>\n"
                '<table id="games"><thead><tr><th>game</th><th>seed</th><th>result</th>'
                "<th>winner</th><th>胡息</th><th>units</th><th>length (actions)</th></tr>"
                "</thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>")
        path = self.out / "index.html"
        write_text_atomic(path, _page(self.title, body))
        return path


_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;margin:8px;
background:#f4f1e8;color:#222}
h1{font-size:1.15em;margin:0 0 6px}
#controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
#controls button{font-size:1em;min-width:2.4em;min-height:2em}
#step{width:min(320px,60vw)}
#table{display:grid;gap:6px;grid-template-columns:1fr 1fr 1fr;
grid-template-areas:"top top top" "left centre right" "me me me";align-items:start;
background:#2f6b4f;padding:6px;border-radius:10px}
#table>.seat.at-top{grid-area:top}
#table>.seat.at-left{grid-area:left}
#table>.seat.at-right{grid-area:right}
#table>.seat.at-bottom{grid-area:me}
#centre{grid-area:centre;align-self:center;text-align:center;color:#fff;margin:4px 0}
#centre .card{color:#222}
.seat{border:1px solid #bba;border-radius:6px;padding:6px;background:#fffdf6;min-width:0}
.seat.actor{border-color:#c33;box-shadow:0 0 0 3px #f0a0a0}
.seat.me{background:#eef6ff}
.seat-head{font-weight:bold;margin-bottom:4px;display:flex;flex-wrap:wrap;gap:2px 10px}
.seat-head .huxi{font-weight:normal;color:#8a3b12;font-size:.9em}
.row{display:flex;gap:8px;align-items:flex-start;flex-wrap:wrap;margin:3px 0}
.row>.label{width:2.6em;color:#666;font-size:.8em}
.hand,.melds,.discards,.split{display:flex;flex-wrap:wrap;gap:4px;min-width:0;flex:1}
.group{display:flex;flex-direction:column;gap:0}
.group .card+.card{margin-top:-.9em}
.meld{display:flex;flex-direction:column;border:1px dashed #aa9;border-radius:4px;padding:2px;
align-items:center}
.meld .kind,.meld .huxi,.meld .place{font-size:.75em;color:#555;text-align:center}
.meld .huxi{color:#8a3b12}
.meld .cards{display:flex;flex-direction:column}
.meld .cards .card+.card{margin-top:-.9em}
.card{display:inline-flex;justify-content:center;align-items:flex-start;box-sizing:border-box;
width:1.9em;height:2.6em;padding-top:.15em;border:1px solid #776;border-radius:4px;
background:#fffdf4;font-size:1.15em;line-height:1.1;font-family:"Noto Serif CJK SC",serif;
box-shadow:0 1px 1px rgba(0,0,0,.25)}
.card.red{color:#c00}
.card.back{background:repeating-linear-gradient(45deg,#3c7a64,#3c7a64 3px,#2e5e4e 3px,
#2e5e4e 6px);color:transparent;border-color:#1c3a30}
.hand .card.back{width:.95em;height:1.45em;margin:1px}
.discards .card{width:1.5em;height:2em;font-size:.95em}
.card.king,.card.stand-in{color:#a0a}
.card.stand-in{font-size:.8em}
#note{font-size:.8em;color:#844;margin:0 0 6px}
body[data-lang=zh] [lang=en],body[data-lang=ascii] [lang=zh]{display:none}
#events{font-size:.9em;color:#333;min-height:1.2em;margin-top:6px}
#split-box{margin:8px 0}
#settlement{margin-top:10px;border-collapse:collapse}
#settlement td,#settlement th,#games td,#games th{border:1px solid #bba;padding:2px 6px}
#games{border-collapse:collapse}
@media (max-width:640px){
body{margin:4px}
.seat:not(.at-bottom) .row>.label{display:none}
#table{grid-template-columns:1fr 1fr;grid-template-areas:"top top" "left right" "centre centre"
"me me";padding:4px;gap:4px}
.seat{padding:4px}
.card{font-size:1em}
.seat:not(.at-bottom) .melds .card,.seat:not(.at-bottom) .discards .card{font-size:.8em}
}
"""

_BODY = """<h1 id="title"></h1>
<p id="note"><span lang="zh">本页含这一手的全部牌：任何视角下，\
每家的手牌都在页面之中。只供赛后复盘，勿在对局中交给玩家。</span>
<span lang="en">This page holds every card of the hand, whatever view it shows: it is for after
the hand, never for a player while the hand is played.</span></p>
<div id="controls">
<button id="prev" type="button" title="previous step (←)">◀</button>
<button id="next" type="button" title="next step (→)">▶</button>
<input id="step" type="range" min="0" max="0" value="0" aria-label="step">
<span id="step-label"></span>
<label><span id="view-label">view</span> <select id="seat"><option value="open">all open</option>
</select></label>
<button id="lang" type="button">ASCII</button>
</div>
<div id="caption"></div>
<div id="table"><div id="centre"><span id="wall"></span> · <span id="offer-label">on offer:</span>
<span id="pending"></span></div></div>
<div id="events"></div>
<div id="end" hidden><p id="result"></p><div id="split-box"><div id="split-label"></div>
<div class="split" id="split"></div></div><table id="settlement"></table></div>
"""

_SCRIPT = r"""
(function () {
"use strict";
var D = JSON.parse(document.getElementById("replay-data").textContent);
var N = D.steps.length, step = 0, view = "open", zh = true;
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function face(tok) { return tok === "hidden" ? "?" : (zh ? D.faces[tok] : tok); }
function term(word) {
  if (!zh || word === null || word === undefined) return word;
  return Object.prototype.hasOwnProperty.call(D.terms, word) ? D.terms[word] : word;
}
function card(tok) {
  var cls = "card" + (D.red.indexOf(tok) >= 0 ? " red" : "") + (tok === "hidden" ? " back" : "")
    + (tok === "K" ? " king" : "");
  var c = el("span", cls, face(tok));
  c.setAttribute("data-card", tok);
  c.title = tok === "hidden" ? "face down" : tok;
  return c;
}
function handCards(box, tokens) {
  var last = null, group = null;
  tokens.forEach(function (tok) {
    if (tok !== last || tok === "hidden") { group = el("span", "group"); box.appendChild(group); }
    group.appendChild(card(tok));
    last = tok;
  });
}
var SOURCE_ZH = {discard: "打出", draw: "摸出", self: "自摸"};
// where each seat sits, counted from the seat at the bottom on (the next seat to its right)
var PLACES = {2: ["bottom", "top"], 3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"]};
function hiddenMelds(ms) {
  var n = ms.filter(function (m) { return m.huxi === null; }).length;
  return n ? (zh ? " + " + n + "组暗扣" : " + " + n + " face down") : "";
}
function splitGroups(box, groups) {
  box.replaceChildren();
  groups.forEach(function (g, i) {
    var md = el("div", "meld");
    md.id = "split-" + i;
    md.setAttribute("data-kind", g.kind);
    md.setAttribute("data-huxi", g.huxi);
    md.setAttribute("data-place", g.place);
    var cs = el("span", "cards"), kings = (g.kings || []).slice();
    g.cards.forEach(function (t) {
      var j = kings.indexOf(t), c = card(j >= 0 ? "K" : t);
      if (j >= 0) {  // a 王 standing for this card
        kings.splice(j, 1);
        c.classList.add("stand-in");
        c.textContent = face("K") + face(t);
      }
      cs.appendChild(c);
    });
    md.appendChild(cs);
    md.appendChild(el("span", "kind", term(g.kind)));
    md.appendChild(el("span", "huxi", g.huxi));
    md.appendChild(el("span", "place", zh ? (g.place === "table" ? "桌面" : "手牌") : g.place));
    box.appendChild(md);
  });
}
function seatNo(p) { return zh ? p + "号位" : "seat " + p; }
function seatName(p) {
  var name = seatNo(p);
  if (D.bots && D.bots[p] !== undefined) name += " (" + D.bots[p] + ")";
  if (p === D.dealer) name += zh ? " 庄" : " dealer";
  return name;
}
function row(label, box) {
  var r = el("div", "row");
  r.appendChild(el("span", "label", label));
  r.appendChild(box);
  return r;
}
// a Chinese word in an English text (a settlement line names 胡息 and the unit) as its term
var REV = {};
Object.keys(D.terms).forEach(function (k) { REV[D.terms[k]] = k; });
function plain(t) {
  return String(t).replace(/[\u2e80-\u9fff]+/g, function (w) {
    return Object.prototype.hasOwnProperty.call(REV, w) ? REV[w] : w;
  });
}
function describe(e) { return zh ? e.text_zh : e.text; }
function render() {
  var s = D.steps[step], open = view === "open";
  var v = open ? s.open : s.seats[+view];
  document.body.setAttribute("data-step", step);
  document.body.setAttribute("data-view", view);
  document.body.setAttribute("data-lang", zh ? "zh" : "ascii");
  document.getElementById("step").value = step;
  document.getElementById("step-label").textContent =
    (zh ? "步 " : "step ") + step + " / " + (N - 1);
  document.getElementById("lang").textContent = zh ? "ASCII" : "中文";
  document.getElementById("view-label").textContent = zh ? "视角" : "view";
  document.getElementById("offer-label").textContent = zh ? "待取：" : "on offer:";
  document.getElementById("prev").title = zh ? "上一步 (←)" : "previous step (←)";
  document.getElementById("next").title = zh ? "下一步 (→)" : "next step (→)";
  Array.prototype.forEach.call(sel.options, function (o) {
    o.textContent = o.value === "open" ? (zh ? "全部明牌" : "all open")
      : zh ? o.value + "号位视角" : "seat " + o.value + " view";
  });
  var cap = step === 0 ? (zh ? "发牌" : "the deal") : "";
  if (open && s.action) {
    cap = seatNo(s.action.seat) + " " + term(s.action.kind)
      + (s.action.card ? " " + face(s.action.card) : "");
  }
  document.getElementById("caption").textContent = cap;
  var wall = document.getElementById("wall");
  wall.textContent = (zh ? term("wall") + " " : "wall ") + v.wall;
  wall.setAttribute("data-count", v.wall);
  var pend = document.getElementById("pending");
  pend.replaceChildren();
  if (v.pending) {
    pend.appendChild(card(v.pending.card));
    pend.appendChild(el("span", "", zh
      ? " " + seatNo(v.pending.by) + (SOURCE_ZH[v.pending.source] || v.pending.source)
      : " " + v.pending.source + " (" + seatNo(v.pending.by) + ")"));
  } else {
    pend.textContent = "—";
  }
  var table = document.getElementById("table");
  Array.prototype.slice.call(table.querySelectorAll("section.seat")).forEach(function (x) {
    table.removeChild(x);
  });
  var actor = s.open.actor, bottom = open ? 0 : +view;
  for (var p = 0; p < D.players; p++) {
    var box = el("section", "seat");
    box.id = "seat-" + p;
    box.setAttribute("data-seat", p);
    box.classList.add("at-" + PLACES[D.players][(p - bottom + D.players) % D.players]);
    if (!open && +view === p) box.classList.add("me");
    if (open && actor === p) box.classList.add("actor");
    var head = el("div", "seat-head");
    head.appendChild(el("span", "name", seatName(p)));
    var th = el("span", "huxi table-huxi", (zh ? "桌面 " : "table ") + v.table_huxi[p] + " "
      + term("huxi") + hiddenMelds(v.melds[p]));
    th.setAttribute("data-huxi", v.table_huxi[p]);
    head.appendChild(th);
    var own = open ? v.hand_huxi[p] : (+view === p ? v.hand_huxi : null);
    if (own !== null && own !== undefined) {
      var hh = el("span", "huxi hand-huxi", (zh ? "手牌 " : "hand ") + own + " " + term("huxi"));
      hh.setAttribute("data-huxi", own);
      head.appendChild(hh);
    }
    box.appendChild(head);
    var hand = el("div", "hand");
    hand.id = "hand-" + p;
    hand.setAttribute("data-seat", p);
    var tokens;
    if (open) tokens = v.hands[p];
    else if (+view === p) tokens = v.hand;
    else { tokens = []; for (var h = 0; h < v.hidden_cards[p]; h++) tokens.push("hidden"); }
    handCards(hand, tokens);
    box.appendChild(row(zh ? "手牌" : "hand", hand));
    var melds = el("div", "melds");
    melds.id = "melds-" + p;
    melds.setAttribute("data-seat", p);
    v.melds[p].forEach(function (m, i) {
      var md = el("div", "meld");
      md.id = "meld-" + p + "-" + i;
      md.setAttribute("data-seat", p);
      md.setAttribute("data-meld", i);
      md.setAttribute("data-kind", m.kind === null ? "hidden" : m.kind);
      md.appendChild(el("span", "kind", m.kind === null ? "?" : term(m.kind)));
      if (m.huxi !== null && m.huxi !== undefined) {
        md.setAttribute("data-huxi", m.huxi);
        md.appendChild(el("span", "huxi", m.huxi));
      }
      var cs = el("span", "cards"), kings = (m.kings || []).slice();
      m.cards.forEach(function (t) {
        var c = card(t), j = kings.indexOf(t);
        if (j >= 0) {  // a 王 standing for this card (all-open view)
          kings.splice(j, 1);
          c.classList.add("stand-in");
          c.textContent = face("K") + face(t);
          c.title = "K as " + t;
        }
        cs.appendChild(c);
      });
      for (var k = 0; k < m.hidden; k++) cs.appendChild(card("hidden"));
      md.insertBefore(cs, md.firstChild);
      melds.appendChild(md);
    });
    box.appendChild(row(zh ? "桌面" : "melds", melds));
    var disc = el("div", "discards");
    disc.id = "discards-" + p;
    disc.setAttribute("data-seat", p);
    v.discards[p].forEach(function (t) { disc.appendChild(card(t)); });
    box.appendChild(row(zh ? "弃牌" : "discards", disc));
    table.appendChild(box);
  }
  document.getElementById("title").textContent = zh
    ? D.variant.name + (D.seed === null ? "" : "（种子 " + D.seed + "）")
    : D.variant.id + (D.seed === null ? "" : ", seed " + D.seed);
  var log = document.getElementById("events");
  log.replaceChildren();
  v.events.forEach(function (e) { log.appendChild(el("div", "event", describe(e))); });
  var end = document.getElementById("end");
  end.hidden = step !== N - 1;
  renderEnd();
}
function renderEnd() {
  var r = D.result, st = D.settlement;
  var res = document.getElementById("result");
  if (!r) { res.textContent = ""; return; }
  res.textContent = r.kind === "huangzhuang" ? term("huangzhuang")
    : seatName(r.winner) + " " + term(r.kind === "tianhu" ? "tianhu" : "hu")
      + (r.card ? " " + face(r.card) : "") + ", " + term("huxi") + " " + r.huxi
      + (r.labels.length ? " [" + r.labels.map(term).join(", ") + "]" : "");
  var dec = r.decomposition, split = document.getElementById("split");
  document.getElementById("split-box").hidden = !dec;
  if (dec) {
    document.getElementById("split-label").textContent = zh
      ? seatNo(r.winner) + " 胡牌牌型：" + dec.huxi + " " + term("huxi")
      : seatNo(r.winner) + "'s winning split: " + dec.huxi + " huxi";
    splitGroups(split, dec.groups);
  }
  var t = document.getElementById("settlement");
  t.replaceChildren();
  var head = el("tr");
  ["", zh ? "说明" : "line", zh ? "值" : "value"].forEach(function (h) {
    head.appendChild(el("th", "", h));
  });
  t.appendChild(head);
  st.lines.forEach(function (x, i) {
    var tr = el("tr", "line");
    tr.setAttribute("data-item", x.item);
    tr.appendChild(el("td", "", zh ? x.term : x.item));
    tr.appendChild(el("td", "", zh ? D.settlement_zh[i] : plain(x.text)));
    tr.appendChild(el("td", "", x.value));
    t.appendChild(tr);
  });
  st.payments.forEach(function (pay, p) {
    var tr = el("tr", "payment");
    tr.setAttribute("data-seat", p);
    tr.appendChild(el("td", "", zh ? "结算" : "payment"));
    tr.appendChild(el("td", "", seatName(p)));
    tr.appendChild(el("td", "", pay));
    t.appendChild(tr);
  });
}
function go(k) { step = Math.max(0, Math.min(N - 1, k)); render(); }
var slider = document.getElementById("step");
slider.max = N - 1;
slider.addEventListener("input", function () { go(+slider.value); });
document.getElementById("prev").addEventListener("click", function () { go(step - 1); });
document.getElementById("next").addEventListener("click", function () { go(step + 1); });
var sel = document.getElementById("seat");
for (var p = 0; p < D.players; p++) {
  var o = el("option", "", "seat " + p + " view");
  o.value = String(p);
  sel.appendChild(o);
}
sel.addEventListener("change", function () { view = sel.value; render(); });
document.getElementById("lang").addEventListener("click", function () { zh = !zh; render(); });
document.addEventListener("keydown", function (e) {
  if (e.target === slider || e.target === sel) return;
  if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
  else if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
  else if (e.key === "Home") { go(0); e.preventDefault(); }
  else if (e.key === "End") { go(N - 1); e.preventDefault(); }
});
render();
})();
"""
