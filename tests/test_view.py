"""``zipai view`` and ``zipai simulate --html``: the HTML replay of a game record, read
without a browser (tests/test_browser.py drives it in one)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from helpers import record_states
from zipai_rules.cards import format_cards
from zipai_rules.cli import main
from zipai_rules.drawing import seen_huxi
from zipai_rules.engine.observation import observe
from zipai_rules.hints import hints
from zipai_rules.presets import load_preset, preset_ids
from zipai_rules.replay_html import script_json, view_record
from zipai_rules.simulate import default_bots, play_game, record_path

# tokens of the dealer's 21 dealt cards of `zipai play --variant hunan --seed 7`, in order
SEVEN_SEAT0 = "d7 x1 d1 x8 d10 d6 x8 x10 x5 d3 x7 d6 x9 d6 d9 x10 x6 d9 x3 x4 x8"

# the tags of HTML that have no end tag
VOID = {"meta", "input", "br", "img", "link", "hr"}


class Page(HTMLParser):
    """The elements of a page, checked for nesting, and the text of its scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag not in VOID:
            self.open.append(tag)
        if tag == "script":
            self._script = attributes.get("id") or "inline"
            self.scripts[self._script] = ""
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, (tag, self.open[-3:])
        self.open.pop()
        self._script = None
        self._in_title = False

    def handle_data(self, data):
        if self._script is not None:
            self.scripts[self._script] += data
        if self._in_title:
            self.title += data


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    assert page.open == [], page.open
    return page


def embedded(text: str) -> dict:
    """The replay data a page embeds."""
    return json.loads(parse(text).scripts["replay-data"])


def seat_view(shown: dict, state, seat: int) -> dict:
    """A seat's snapshot without the 胡息 the page adds to the engine's observation, after
    checking them: each meld's (seen_huxi of the meld as the seat sees it), each seat's table
    total and the seat's own hand (the library's hints of the seat's view)."""
    v, obs = state.variant, observe(state, seat)
    got = {k: x for k, x in shown.items() if k not in ("hand_huxi", "table_huxi")}
    seen = hints(v, obs)
    assert (shown["hand_huxi"], shown["table_huxi"]) == (seen.hand_huxi, list(seen.table_huxi))
    got["melds"] = [[dict(m) for m in ms] for ms in got["melds"]]
    assert [[m.pop("huxi") for m in ms] for ms in got["melds"]] == [
        [seen_huxi(v, m.kind, m.cards, m.hidden) for m in ms] for ms in obs.melds]
    return got


@pytest.fixture(scope="module")
def seven(tmp_path_factory) -> Path:
    """The record of `zipai play --variant hunan --seed 7` (15 actions, seat 0 wins, 18 胡息)."""
    folder = tmp_path_factory.mktemp("seven")
    assert main(["play", "--variant", "hunan", "--seed", "7",
                 "--record", str(folder / "seven.json")]) == 0
    return folder / "seven.json"


@pytest.fixture(scope="module")
def seven_page(seven) -> str:
    out = seven.with_suffix(".html")
    assert main(["view", str(seven), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_view_writes_one_page_without_network(seven_page, capsys):
    page = parse(seven_page)
    assert page.title == "zipai replay: 湖南跑胡子 (hunan), seed 7"
    assert not re.search(r"https?:|//[a-z]", seven_page, re.IGNORECASE)
    # nothing is loaded: no element names another file (src, href, link, @import, url())
    assert all("src" not in attrs and "href" not in attrs for _, attrs in page.tags)
    assert "@import" not in seven_page and "url(" not in seven_page
    csp = [a["content"] for t, a in page.tags if t == "meta"
           and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and csp[0].startswith("default-src 'none'")
    assert set(page.scripts) == {"replay-data", "inline"}
    # the controls the issue asks for
    ids = {a.get("id") for _, a in page.tags}
    assert {"prev", "next", "step", "seat", "lang", "settlement", "table"} <= ids


def _hash_source(text: str) -> str:
    import base64
    import hashlib

    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def policy_of(text: str) -> dict[str, list[str]]:
    """The page's Content-Security-Policy as directive -> sources."""
    (content,) = [a["content"] for t, a in parse(text).tags if t == "meta"
                  and a.get("http-equiv") == "Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in content.split(";") if d.strip()}


def test_view_policy_runs_only_the_pages_own_script_and_style(seven_page, tmp_path, capsys):
    """No 'unsafe-inline': the one inline script and the one style are named by their
    SHA-256, so an injected script, handler or style attribute would not run (kind 9)."""
    policy = policy_of(seven_page)
    assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy)
    (script,) = re.findall(r"<script>(.*?)</script>", seven_page, re.DOTALL)
    (style,) = re.findall(r"<style>(.*?)</style>", seven_page, re.DOTALL)
    assert policy["default-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["script-src"] == [_hash_source(script)]
    assert policy["style-src"] == [_hash_source(style)]
    # no inline handler, no javascript: link, no style attribute on any element
    for _, attrs in parse(seven_page).tags:
        assert not any(k.startswith("on") or k == "style" for k in attrs), attrs
    assert "javascript:" not in seven_page.lower()
    # the index of a simulation run has no script: none may run there
    out = tmp_path / "run"
    assert main(["simulate", "--games", "2", "--out", str(out), "--html"]) == 0
    capsys.readouterr()
    index = (out / "index.html").read_text("utf-8")
    assert policy_of(index)["script-src"] == ["'none'"] and "<script" not in index
    replay = (out / "game-00001.html").read_text("utf-8")
    (script1,) = re.findall(r"<script>(.*?)</script>", replay, re.DOTALL)
    assert policy_of(replay)["script-src"] == [_hash_source(script1)]


def test_view_snapshots_are_the_engines(seven, seven_page):
    game, states = record_states(seven)
    data = embedded(seven_page)
    steps = data["steps"]
    assert len(steps) == 16 and len(game.actions) == 15
    for k, (step, state) in enumerate(zip(steps, states, strict=True)):
        assert step["action"] == (None if k == 0 else game.actions[k - 1].to_json())
        for s in range(3):
            expected = observe(state, s).to_json()
            del expected["history"]
            got = seat_view(step["seats"][s], state, s)
            del got["events"]
            assert got == expected, (k, s)
            assert [m["huxi"] for m in step["open"]["melds"][s]] == [
                state.variant.meld_huxi(m) for m in state.seats[s].melds]
            assert step["open"]["table_huxi"][s] == sum(
                state.variant.meld_huxi(m) for m in state.seats[s].melds)
            assert step["open"]["hands"][s] == format_cards(
                i for i, n in enumerate(state.seats[s].hand) for _ in range(n)).split()
            assert [(m["kind"], m["cards"]) for m in step["open"]["melds"][s]] == [
                (m.kind.value, format_cards(m.cards).split()) for m in state.seats[s].melds]


def test_view_worked_values_of_seed_7(seven_page):
    steps = embedded(seven_page)["steps"]
    # the deal: the dealer holds its 21 cards, sorted small before big
    assert steps[0]["open"]["hands"][0] == sorted(
        SEVEN_SEAT0.split(), key=lambda t: (t[0] != "x", int(t[1:])))
    assert [len(h) for h in steps[0]["open"]["hands"]] == [21, 20, 20]
    # step 1: seat 1 draws x9 unseen and makes a forced 偎: Hunan shows the others no card
    # (a small 偎 is worth 3 胡息 in Hunan; the others cannot know its size)
    wei = {"kind": "wei", "cards": ["x9", "x9", "x9"], "hidden": 0, "huxi": 3}
    assert steps[1]["seats"][1]["melds"][1] == [wei]
    for other in (0, 2):
        assert steps[1]["seats"][other]["melds"][1] == [{"kind": "wei", "cards": [],
                                                         "hidden": 3, "huxi": None}]
        assert steps[1]["seats"][other]["table_huxi"][1] == 0
        texts = [e["text"] for e in steps[1]["seats"][other]["events"]]
        assert "seat 1 wei (forced)" in texts and not any("x9" in t for t in texts)
        # seat 1 holds 20 − 2 cards (the x9 pair went into the 偎); the others see the count
        assert steps[1]["seats"][other]["hidden_cards"] == [20, 18, 20]
        assert len(steps[1]["seats"][other]["hand"]) == 20
    assert steps[1]["open"]["melds"][1] == [{**wei, "kings": []}]
    # the end: seat 0 wins with 18 胡息 and 2 囤 from each loser
    data = embedded(seven_page)
    assert data["result"]["winner"] == 0 and data["result"]["huxi"] == 18
    assert data["settlement"]["payments"] == [4, -2, -2]
    assert steps[15]["open"]["phase"] == "over"


def test_hostile_names_are_escaped(tmp_path, capsys):
    """A variant name and terms, and bot names, that try to end the script and open markup
    reach the page as text: the page has its own two scripts and nothing else."""
    evil = "</script><script>alert(1)</script><!-- 恶"
    (tmp_path / "evil.yaml").write_text(
        f'extends: hunan\nid: evil\nname: "{evil}"\n'
        'terminology:\n  peng: "</SCRIPT ><!--碰"\n', encoding="utf-8")
    record = tmp_path / "evil.json"
    assert main(["play", "--variant", str(tmp_path / "evil.yaml"), "--seed", "7",
                 "--record", str(record)]) == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    data["bots"] = ["<img src=x onerror=alert(1)>", "&amp;", "]]></script>"]
    record.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "evil.html"
    assert main(["view", str(record), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.lower().count("</script") == 2 and "<!--" not in text
    assert "<img" not in text
    page = parse(text)
    assert [t for t, _ in page.tags].count("script") == 2
    assert page.title == f"zipai replay: {evil} (evil), seed 7"
    back = embedded(text)
    assert back["variant"]["name"] == evil and back["terms"]["peng"] == "</SCRIPT ><!--碰"
    assert back["bots"] == ["<img src=x onerror=alert(1)>", "&amp;", "]]></script>"]


def test_script_json():
    assert script_json({"a": "</script><!--&é\u2028"}) == \
        '{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u00e9\\u2028"}'
    assert json.loads(script_json(["</", "<!--"])) == ["</", "<!--"]


def test_view_default_output_name(seven, capsys):
    assert main(["view", str(seven)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wrote {seven.with_suffix('.html')}: 15 actions under preset hunan")


def test_view_bad_record_is_an_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "zipai-log/1", "format": 1}', encoding="utf-8")
    assert main(["view", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "duplicate" in err and "Traceback" not in err
    assert main(["view", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.html")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    assert not (tmp_path / "x.html").exists()


def test_view_tampered_record_names_the_step(seven, tmp_path, capsys):
    data = json.loads(seven.read_text(encoding="utf-8"))
    data["actions"][4]["card"] = "d2"  # seat 0 holds no d2
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    assert main(["view", str(tampered), "-o", str(tmp_path / "t.html")]) == 2
    err = capsys.readouterr().err
    assert err == "error: step 5: seat 0 discard d2 refused: seat 0 holds no d2\n"
    assert not (tmp_path / "t.html").exists()


def test_view_unwritable_output_is_an_error(seven, tmp_path, capsys):
    for where in (tmp_path / "no" / "such" / "folder.html", tmp_path):
        assert main(["view", str(seven), "-o", str(where)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {where}: cannot write the replay there: it ")
    assert main(["view", str(seven), "-o", str(seven)]) == 2
    assert capsys.readouterr().err == f"error: {seven}: the replay would overwrite its record\n"
    assert json.loads(seven.read_text(encoding="utf-8"))["format"] == "zipai-log/1"


def test_simulate_html_writes_an_index(tmp_path, capsys):
    out = tmp_path / "games"
    assert main(["simulate", "--games", "3", "--seed", "5", "--out", str(out), "--html"]) == 0
    assert f"replays: {out}/index.html" in capsys.readouterr().out
    index = (out / "index.html").read_text(encoding="utf-8")
    page = parse(index)
    links = [a["href"] for t, a in page.tags if t == "a"]
    assert links == ["game-00001.html", "game-00002.html", "game-00003.html"]
    rows = re.findall(r'<tr data-game="(\d+)">(.*?)</tr>', index)
    for (number, row), link in zip(rows, links, strict=True):
        record = json.loads((out / f"game-{int(number):05d}.json").read_text(encoding="utf-8"))
        cells = re.findall(r"<td>(.*?)</td>", row)
        result = record["result"]
        winner = "—" if result["winner"] is None else str(result["winner"])
        assert cells[1:7] == [str(record["seed"]), result["kind"], winner,
                             str(result["huxi"] if result["winner"] is not None else 0),
                             str(record["settlement"]["units"]), str(len(record["actions"]))]
        replay = (out / link).read_text(encoding="utf-8")
        assert embedded(replay)["seed"] == str(record["seed"])
        assert 'href="index.html"' in replay
    # seeds 5, 6, 7: the third is the seed-7 game, won by seat 0 with 18 胡息 in 15 actions
    assert re.findall(r"<td>(.*?)</td>", rows[2][1])[1:7] == ["7", "hu", "0", "18", "2", "15"]


def test_simulate_html_needs_out(capsys):
    assert main(["simulate", "--games", "1", "--html"]) == 2
    assert capsys.readouterr().err == \
        "error: --html goes with --out (and not --out-on-workers)\n"


@pytest.mark.parametrize("preset", preset_ids())
def test_every_preset_snapshot_is_the_engines(preset, tmp_path):
    """One seeded game of every preset (王 in melds, face-down 偎 and 提, a 吃 of one's own
    draw laid face down, a dealt 提 kept in the hand): the page's seat views are the engine's
    observations, step by step, and each seat is shown the engine's redacted events."""
    variant = load_preset(preset)
    play_game(variant, 1, 11, default_bots(variant.players), tmp_path)
    source = record_path(tmp_path, 1)
    view_record(source, tmp_path / "game.html")
    data = embedded((tmp_path / "game.html").read_text(encoding="utf-8"))
    game, states = record_states(source)
    assert len(data["steps"]) == len(states) == len(game.actions) + 1
    shown = [[] for _ in range(variant.players)]
    for step, state in zip(data["steps"], states, strict=True):
        for s in range(variant.players):
            expected = observe(state, s).to_json()
            del expected["history"]
            got = seat_view(step["seats"][s], state, s)
            shown[s].extend(e for e in got.pop("events"))
            assert got == expected
    for s in range(variant.players):
        assert [{k: v for k, v in e.items() if k not in ("text", "text_zh")}
                for e in shown[s]] == [e.to_json() for e in game.events_for(s)]


def test_a_king_in_a_meld(tmp_path, capsys):
    """永州 seed 1: seat 0 碰s d2 with a 王 standing for the third d2. All open, the meld is
    d2 d2 d2 with the 王 named (`kings`, drawn as 王贰); its owner sees d2 d2 d2, the others
    see the 王 as K (deck.king_rules.claims)."""
    record = tmp_path / "yz.json"
    assert main(["play", "--variant", "yongzhou", "--seed", "1", "--record", str(record)]) == 0
    assert main(["view", str(record), "-o", str(tmp_path / "yz.html")]) == 0
    end = embedded((tmp_path / "yz.html").read_text(encoding="utf-8"))["steps"][-1]
    # a big 碰 is worth 3 胡息 in Yongzhou, seen by all (the 王 stands for a d2)
    assert end["open"]["melds"][0] == [{"kind": "peng", "cards": ["d2", "d2", "d2"],
                                        "hidden": 0, "kings": ["d2"], "huxi": 3}]
    assert [v["melds"][0] for v in end["seats"]] == [
        [{"kind": "peng", "cards": ["d2", "d2", "d2"], "hidden": 0, "huxi": 3}],
        [{"kind": "peng", "cards": ["d2", "d2", "K"], "hidden": 0, "huxi": 3}],
        [{"kind": "peng", "cards": ["d2", "d2", "K"], "hidden": 0, "huxi": 3}]]


def test_the_chinese_words_are_the_variants_as_play_zh_prints_them(tmp_path, capsys):
    """In 中文 mode the events are worded as ``zipai play --zh`` words them (Guilin's own 扫
    for a 偎, 开舵 for a 跑, 普通顺子 and 下比; ``N号位``; Chinese notes), in each seat's
    view only what the seat is shown; the page's terms fall back on the common words where
    the variant has none; the settlement lines are in Chinese too."""
    record = tmp_path / "guilin2.json"
    assert main(["play", "--variant", "guilin", "--seed", "2", "--record", str(record)]) == 0
    assert main(["view", str(record), "-o", str(tmp_path / "guilin2.html")]) == 0
    data = embedded((tmp_path / "guilin2.html").read_text(encoding="utf-8"))
    steps = data["steps"]

    def zh(k, view="open"):
        events = steps[k]["open" if view == "open" else "seats"]
        return [e["text_zh"] for e in (events if view == "open" else events[view])["events"]]

    assert zh(0) == ["0号位 发牌 (21张)", "1号位 发牌 (20张)", "2号位 发牌 (20张)",
                     "0号位 发牌 拾 (亮张)"]
    assert zh(1) == ["0号位 打 拾", "2号位 开舵 拾 开舵(拾 拾 拾 拾) (强制)"]
    assert zh(2) == ["2号位 打 玖", "2号位 入弃牌 玖", "0号位 暗摸",
                     "0号位 扫 一 扫(一 一 一) (强制)"]
    assert zh(2, 1) == zh(2, 2) == ["2号位 打 玖", "2号位 入弃牌 玖", "0号位 暗摸",
                                    "0号位 扫 (强制)"]
    assert zh(4) == zh(4, 1) == ["1号位 吃 伍 普通顺子(叁 肆 伍) 下比:普通顺子(叁 肆 伍)"]
    # the English notation is kept for the ASCII mode
    assert [e["text"] for e in steps[2]["open"]["events"]][-1] == \
        "seat 0 wei x1 wei(x1 x1 x1) (forced)"
    # the same lines as zipai play --zh prints
    capsys.readouterr()
    assert main(["play", "--variant", "guilin", "--seed", "2", "--zh"]) == 0
    printed = capsys.readouterr().out
    for line in (*zh(1)[1:], zh(2)[3]):
        assert f"      {line}\n" in printed
    terms = data["terms"]
    assert (terms["wei"], terms["pao"], terms["wall"], terms["discard"], terms["huxi"]) == (
        "扫", "开舵", "牌垛", "打", "胡")
    assert data["settlement_zh"][0] == "拾 拾 拾 拾（桌面）"
    assert data["settlement_zh"][-3:] == ["0号位 付 4", "1号位 付 4", "2号位 得 8"]
    assert [x["text"] for x in data["settlement"]["lines"]][-1] == "seat 2 gains 8"


def test_the_page_says_it_holds_every_card(seven_page):
    """The note at the top of the page, in both languages, before the controls."""
    text = seven_page
    assert text.index('<p id="note">') < text.index('<div id="controls">')
    assert ("本页含这一手的全部牌：任何视角下，每家的手牌都在页面之中。"
            "只供赛后复盘，勿在对局中交给玩家。") in text
    assert ("This page holds every card of the hand, whatever view it shows: it is for after\n"
            "the hand, never for a player while the hand is played.") in text


def test_the_help_and_the_readme_say_the_page_holds_every_card(capsys):
    with pytest.raises(SystemExit):
        main(["view", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert ("The file holds every card of the hand, whatever view it opens in: it is for after "
            "the hand, never for a player during it.") in help_text
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text(
        encoding="utf-8").split())
    assert ("**The file holds every card of the hand, whatever view it opens in** (the seat "
            "views only choose what is drawn): give it to a player only after the hand, never "
            "during it; the page says so at the top.") in readme
