"""The HTML replay (``zipai view``) in a real browser: headless Chromium driven by selenium
loads the replay of a seeded game, presses → through every step and compares the table the
page shows with the engine replayed in Python. It saves a screenshot under tests/output/
(not committed) and prints its path.

The browser is Debian's ``chromium`` with ``chromium-driver`` (``.ci/run`` installs them when
apt-get can); the test skips, saying why, only where no browser or driver can be found. No
driver is ever downloaded: selenium is given the local ``chromedriver``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from helpers import record_states
from zipai_rules.cards import format_cards, indices_of
from zipai_rules.cli import main
from zipai_rules.drawing import seen_huxi
from zipai_rules.engine.observation import observe
from zipai_rules.hints import hints

OUTPUT = Path(__file__).parent / "output"

#: Chromium as root in a container, and nothing fetched in the background
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,1100")

#: the table as the page shows it: per seat the data-card of every card of the hand,
#: the discards and each meld (with its data-kind), read from the DOM
READ_TABLE = """
const cards = (root) => Array.from(root.querySelectorAll('.card')).map(e => e.dataset.card);
const out = {step: +document.body.dataset.step, view: document.body.dataset.view, seats: []};
document.querySelectorAll('#table > section.seat').forEach((box) => {
  const s = box.dataset.seat;
  out.seats.push({
    seat: +s,
    hand: cards(box.querySelector('#hand-' + s)),
    discards: cards(box.querySelector('#discards-' + s)),
    melds: Array.from(box.querySelectorAll('#melds-' + s + ' > .meld')).map((m) => ({
      id: m.id, kind: m.dataset.kind, cards: cards(m)})),
  });
});
return JSON.stringify(out);
"""


def find(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium.webdriver.chrome.service import Service

    binary = find("chromium", "chromium-browser", "google-chrome")
    driver_path = find("chromedriver")
    if binary is None or driver_path is None:
        pytest.skip("no headless browser: Chromium and chromedriver were not found on PATH "
                    "(apt-get install chromium chromium-driver; .ci/run installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    profile = tempfile.mkdtemp(prefix="zipai-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def tokens(cards) -> list[str]:
    return format_cards(cards).split()


def open_table(state) -> list[dict]:
    """What the all-open page must show of ``state``: every seat's cards."""
    return [{"seat": s, "hand": tokens(indices_of(st.hand)), "discards": tokens(st.discards),
             "melds": [{"id": f"meld-{s}-{i}", "kind": m.kind.value, "cards": tokens(m.cards)}
                       for i, m in enumerate(st.melds)]}
            for s, st in enumerate(state.seats)]


def seat_table(state, seat: int) -> list[dict]:
    """What seat ``seat``'s view must show: its own hand, the others' as face-down cards,
    the melds as the seat sees them (face-down cards as ``hidden``)."""
    view = observe(state, seat)
    hand = tokens(indices_of(view.hand))
    return [{"seat": s,
             "hand": hand if s == seat else ["hidden"] * view.hidden_cards[s],
             "discards": tokens(view.discards[s]),
             "melds": [{"id": f"meld-{s}-{i}",
                        "kind": "hidden" if m.kind is None else m.kind.value,
                        "cards": tokens(m.cards) + ["hidden"] * m.hidden}
                       for i, m in enumerate(view.melds[s])]}
            for s in range(state.variant.players)]


def test_replay_in_a_browser(browser, tmp_path, capsys):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    record, page = tmp_path / "seven.json", tmp_path / "seven.html"
    assert main(["play", "--variant", "hunan", "--seed", "7", "--record", str(record)]) == 0
    assert main(["view", str(record), "-o", str(page)]) == 0
    _, states = record_states(record)
    last = len(states) - 1
    assert last == 15

    def table() -> dict:
        return json.loads(browser.execute_script(READ_TABLE))

    def press(key: str) -> None:
        browser.execute_script("if (document.activeElement) document.activeElement.blur();")
        ActionChains(browser).send_keys(key).perform()

    browser.get(page.as_uri())
    assert browser.title == "zipai replay: 湖南跑胡子 (hunan), seed 7"
    shown = table()
    assert shown["step"] == 0 and shown["view"] == "open"
    assert shown["seats"] == open_table(states[0])
    assert len(shown["seats"][0]["hand"]) == 21
    checked = {0}
    for k in range(1, last + 1):
        press(Keys.ARROW_RIGHT)
        shown = table()
        assert shown["step"] == k
        if k in (1, 8, last):  # start, middle, end: every card of every seat and meld
            assert shown["seats"] == open_table(states[k]), k
            checked.add(k)
    assert checked == {0, 1, 8, last}
    press(Keys.ARROW_RIGHT)  # the last step stays the last
    assert table()["step"] == last
    # the end shows the settlement: seat 0 gains 4, the others pay 2 each
    assert browser.find_element(By.ID, "end").is_displayed()
    payments = [int(e.text) for e in browser.find_elements(
        By.CSS_SELECTOR, "#settlement tr.payment td:last-child")]
    assert payments == [4, -2, -2]
    shot = screenshots() / "replay-hunan-seed7-end.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    # ◀ goes back one step
    browser.find_element(By.ID, "prev").click()
    assert table()["step"] == last - 1

    # a seat's view: step 1, where seat 1 made a 偎 that Hunan lays face down
    press(Keys.HOME)
    press(Keys.ARROW_RIGHT)
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    shown = table()
    assert (shown["step"], shown["view"]) == (1, "0")
    assert shown["seats"] == seat_table(states[1], 0)
    seat1 = shown["seats"][1]
    assert seat1["hand"] == ["hidden"] * 18
    assert seat1["melds"] == [{"id": "meld-1-0", "kind": "wei",
                               "cards": ["hidden", "hidden", "hidden"]}]
    assert "x9" not in browser.find_element(By.ID, "seat-1").get_attribute("innerHTML")
    for seat in (1, 2):
        Select(browser.find_element(By.ID, "seat")).select_by_value(str(seat))
        for k in (1, 8):
            browser.execute_script(f"var s = document.getElementById('step'); s.value = {k};"
                                   "s.dispatchEvent(new Event('input'));")
            assert table()["seats"] == seat_table(states[k], seat), (seat, k)
    # the owner sees its own 偎 open
    browser.execute_script("var s = document.getElementById('step'); s.value = 1;"
                           "s.dispatchEvent(new Event('input'));")
    Select(browser.find_element(By.ID, "seat")).select_by_value("1")
    assert table()["seats"][1]["melds"][0]["cards"] == ["x9", "x9", "x9"]

    # Chinese faces by default; the toggle shows the ASCII tokens and back
    Select(browser.find_element(By.ID, "seat")).select_by_value("open")
    first = "#meld-1-0 .card"
    assert browser.find_element(By.CSS_SELECTOR, first).text == "九"
    browser.find_element(By.ID, "lang").click()
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-lang") == "ascii"
    assert browser.find_element(By.CSS_SELECTOR, first).text == "x9"
    assert browser.find_element(By.CSS_SELECTOR, "#meld-1-0 .kind").text == "wei"
    browser.find_element(By.ID, "lang").click()
    assert browser.find_element(By.CSS_SELECTOR, first).text == "九"
    assert browser.find_element(By.CSS_SELECTOR, "#meld-1-0 .kind").text == "偎"

    # 中文 mode words the events and the labels as zipai play --zh: step 2, all open
    def text(css: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, css).text

    def labels() -> tuple:
        return (text("#view-label"), text("#offer-label"), " ".join(text("#pending").split()),
                [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#events .event")],
                [o.text for o in Select(browser.find_element(By.ID, "seat")).options],
                text("#step-label"), text("#caption"))

    browser.execute_script("var s = document.getElementById('step'); s.value = 2;"
                           "s.dispatchEvent(new Event('input'));")
    assert labels() == (
        "视角", "待取：", "二 2号位摸出",
        ["1号位 打 叁", "1号位 入弃牌 叁", "2号位 摸 二"],
        ["全部明牌", "0号位视角", "1号位视角", "2号位视角"], "步 2 / 15", "1号位 打 叁")
    browser.find_element(By.ID, "lang").click()
    assert labels() == (
        "view", "on offer:", "x2 draw (seat 2)",
        ["seat 1 discard d3", "seat 1 to_discards d3", "seat 2 draw x2"],
        ["all open", "seat 0 view", "seat 1 view", "seat 2 view"], "step 2 / 15",
        "seat 1 discard d3")
    browser.find_element(By.ID, "lang").click()
    # seat 0's view of step 1: the 偎 without its card, in Chinese
    browser.execute_script("var s = document.getElementById('step'); s.value = 1;"
                           "s.dispatchEvent(new Event('input'));")
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    assert labels()[3] == ["0号位 打 柒", "0号位 入弃牌 柒", "1号位 暗摸", "1号位 偎 (强制)"]
    assert labels()[4][1] == "0号位视角"
    # the note that the page holds every card, shown whatever the view
    assert browser.find_element(By.ID, "note").is_displayed()
    assert text("#note").startswith("本页含这一手的全部牌")

    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == []
    with capsys.disabled():
        print(f"\nreplay screenshot: {os.path.relpath(shot)}")


def test_an_injected_script_or_handler_does_not_run(browser, tmp_path):
    """The policy names the page's own script by its SHA-256: a script or an event handler
    added to the page (as an injection would) is blocked, the page's own script still runs."""
    record, page = tmp_path / "seven.json", tmp_path / "seven.html"
    assert main(["play", "--variant", "hunan", "--seed", "7", "--record", str(record)]) == 0
    assert main(["view", str(record), "-o", str(page)]) == 0
    text = page.read_text("utf-8")
    injected = tmp_path / "injected.html"
    injected.write_text(text.replace(
        "<body>\n", "<body>\n<script>document.title = 'injected';</script>\n"
        '<img id="evil" src="data:," onerror="document.title = \'handler\'">\n'
        '<p id="styled" style="color: rgb(1, 2, 3)">x</p>\n', 1), "utf-8")
    browser.get(injected.as_uri())
    assert browser.title == "zipai replay: 湖南跑胡子 (hunan), seed 7"
    assert browser.execute_script("return document.body.dataset.step") == "0"  # own script ran
    color = browser.execute_script(
        "return getComputedStyle(document.getElementById('styled')).color")
    assert color != "rgb(1, 2, 3)"
    blocked = [e["message"] for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert blocked and all("Content Security Policy" in m for m in blocked), blocked


#: where each seat's box lies, the 胡息 the page shows and the card backs, read from the DOM
READ_LAYOUT = """
const out = {width: document.documentElement.scrollWidth, inner: window.innerWidth,
             seats: [], split: []};
document.querySelectorAll('#table > section.seat').forEach((box) => {
  const r = box.getBoundingClientRect(), s = box.dataset.seat;
  const hand = box.querySelector('.hand-huxi');
  out.seats.push({seat: +s, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    place: Array.from(box.classList).filter(c => c.startsWith('at-'))[0],
    table: +box.querySelector('.table-huxi').dataset.huxi,
    hand: hand ? +hand.dataset.huxi : null,
    backs: box.querySelectorAll('#hand-' + s + ' .card.back').length,
    melds: Array.from(box.querySelectorAll('.meld')).map(
      m => m.dataset.huxi === undefined ? null : +m.dataset.huxi)});
});
document.querySelectorAll('#split > .meld').forEach((m) => {
  out.split.push([m.dataset.kind, +m.dataset.huxi,
                  Array.from(m.querySelectorAll('.card')).map(c => c.dataset.card)]);
});
return JSON.stringify(out);
"""

LATIN = re.compile("[A-Za-z]+")
CJK = re.compile("[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+")


def screenshots() -> Path:
    """The folder the screenshots go to: ``ZIPAI_SCREENSHOTS``, else tests/output/."""
    folder = Path(os.environ.get("ZIPAI_SCREENSHOTS") or OUTPUT)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_table_around_the_viewer_with_huxi_at_laptop_and_phone_width(browser, tmp_path,
                                                                        capsys):
    """Hunan seed 7 (seat 0 wins with 18 胡息), at 1280 px and at 360 px: the viewing seat sits
    at the bottom, the next seat on its right, the other on its left, above it, and nothing
    overflows the width; each meld shows its 胡息 (Variant.meld_huxi all open, the seat's
    view where the kind and size show), each seat its table 胡息 and the viewer its hand 胡息
    (the library's hints); another seat's hand is one card back per card; at the end the
    winner's split is laid out group by group; each language speaks only its own."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    record, page = tmp_path / "seven.json", tmp_path / "seven.html"
    assert main(["play", "--variant", "hunan", "--seed", "7", "--record", str(record)]) == 0
    assert main(["view", str(record), "-o", str(page)]) == 0
    game, states = record_states(record)
    v = states[0].variant

    def go(step: int, view: str) -> dict:
        browser.execute_script(f"var s = document.getElementById('step'); s.value = {step};"
                               "s.dispatchEvent(new Event('input'));")
        Select(browser.find_element(By.ID, "seat")).select_by_value(view)
        return json.loads(browser.execute_script(READ_LAYOUT))

    shots = []
    for width in (1280, 360):
        browser.set_window_size(width, 1000)
        browser.get(page.as_uri())
        for view in ("0", "1"):
            me = int(view)
            shown = go(8, view)
            assert shown["width"] <= shown["inner"], (width, view)  # no sideways scrolling
            places = {s["seat"]: s["place"] for s in shown["seats"]}
            assert places == {me: "at-bottom", (me + 1) % 3: "at-right",
                              (me + 2) % 3: "at-left"}
            boxes = {s["seat"]: s for s in shown["seats"]}
            for other in ((me + 1) % 3, (me + 2) % 3):
                assert boxes[other]["bottom"] <= boxes[me]["top"]
            assert boxes[(me + 2) % 3]["right"] <= boxes[(me + 1) % 3]["left"]
            obs = observe(states[8], me)
            seen = hints(v, obs)
            for s, box in boxes.items():
                assert box["melds"] == [seen_huxi(v, m.kind, m.cards, m.hidden)
                                        for m in obs.melds[s]]
                assert box["table"] == seen.table_huxi[s]
                assert box["hand"] == (seen.hand_huxi if s == me else None)
                assert box["backs"] == (0 if s == me else obs.hidden_cards[s])
            browser.set_window_size(width, browser.execute_script(
                "return document.documentElement.scrollHeight") + 40)
            shot = screenshots() / f"replay-hunan-seed7-step8-seat{me}-{width}px.png"
            assert browser.save_screenshot(str(shot))
            shots.append(shot)
        # worked values, Hunan's table: seat 0 at step 8 holds a 提 of x8 (small: 9) on the
        # table and a 坎 of d6 (big: 6) in its hand
        assert [(m.kind.value, v.meld_huxi(m)) for m in states[8].seats[0].melds] == [
            ("ti", 9)]
        shown = go(8, "open")
        assert [(s["table"], s["hand"]) for s in shown["seats"]][0] == (9, 6)
        assert all(s["backs"] == 0 for s in shown["seats"])
        # the end: seat 0's split, 提 9 + 跑 9 + 绞 0 + 将 0 + 一句话 0 + 绞 0 + 绞 0 = 18
        shown = go(len(states) - 1, "open")
        dec = game.result.decomposition
        assert (game.result.winner, dec.huxi) == (0, 18)
        assert shown["split"] == [[g.meld.kind.value, g.huxi, tokens(g.meld.cards)]
                                  for g in dec.groups]
        assert [h for _, h, _ in shown["split"]] == [9, 9, 0, 0, 0, 0, 0]
        browser.set_window_size(width, browser.execute_script(
            "return document.documentElement.scrollHeight") + 40)
        shot = screenshots() / f"replay-hunan-seed7-end-{width}px.png"
        assert browser.save_screenshot(str(shot))
        shots.append(shot)
    # one language at a time: the page's text in 中文 has no Latin word but the bots' names
    # and the switch to ASCII, in ASCII no Chinese but the switch to 中文
    bots = set(json.loads(record.read_text("utf-8")).get("bots") or ())
    for lang, script, allowed in (("zh", LATIN, {"ASCII", *bots}), ("ascii", CJK, {"中文"})):
        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-lang") == lang
        for step, view in ((1, "open"), (8, "1"), (len(states) - 1, "open")):
            go(step, view)
            words = set(script.findall(browser.execute_script("return document.body.innerText")))
            assert words <= allowed, (lang, step, view, words - allowed)
        browser.find_element(By.ID, "lang").click()
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == []
    browser.set_window_size(1200, 1100)
    with capsys.disabled():
        print("\nreplay screenshots: " + ", ".join(os.path.relpath(s) for s in shots))


#: the boxes of a seat view's SVG as the browser lays it out (its real fonts): the picture's
#: and each seat group's and each label's, in page pixels
READ_PICTURE = """
const svg = document.querySelector('svg');
const r = (e) => { const b = e.getBoundingClientRect();
                   return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; };
return JSON.stringify({svg: r(svg), seats: Array.from(svg.querySelectorAll('g.seat')).map(
  (g) => ({seat: +g.dataset.seat, box: r(g), label: r(g.querySelector('text'))}))});
"""


def test_a_seat_picture_at_phone_width(browser, tmp_path):
    """The SVG of a seat's view (svg.render, what zipai serve shows each seat) drawn by the
    browser at its own size and scaled to 360 px wide, in Chinese and ASCII, at a Hunan deal
    and mid-hand: the viewer's seat lies below the others, the 上家 left of the 下家 and apart,
    every seat and label inside the picture (the real fonts no wider than the layout
    allowed), and at 360 px the picture keeps at least 85% of its size."""
    from zipai_rules import find_variant
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.engine import Game
    from zipai_rules.svg import render

    v = find_variant("hunan")
    game = play_out(Game(v, seed=2), make_bots(["greedy"], 2, v.players))
    views = [(1, game.views(1)[4]), (0, game.views(0)[0]), (2, game.views(2)[-1])]
    shots = []
    for ascii_ in (False, True):
        for me, view in views:
            svg = render(view, variant=v, ascii=ascii_)
            native = float(re.search(r'width="([\d.]+)"', svg).group(1))
            for width in (None, 360):
                style = "" if width is None else f' style="width:{width}px;height:auto"'
                page = tmp_path / f"seat{me}-{int(ascii_)}-{width}.html"
                page.write_text('<!doctype html><meta charset="utf-8"><body style="margin:0">'
                                + svg.replace("<svg ", f"<svg{style} ", 1), "utf-8")
                browser.set_window_size(1280 if width is None else 360, 1000)
                browser.get(page.as_uri())
                shown = json.loads(browser.execute_script(READ_PICTURE))
                pic, seats = shown["svg"], {s["seat"]: s for s in shown["seats"]}
                if width is not None:
                    assert pic["right"] - pic["left"] == pytest.approx(360, abs=1)
                    assert 360 / native >= 0.85
                left, right = seats[(me - 1) % 3], seats[(me + 1) % 3]
                assert left["box"]["right"] < right["box"]["left"]
                for other in (left, right):
                    assert other["box"]["bottom"] <= seats[me]["box"]["top"]
                for s in seats.values():
                    for part in (s["box"], s["label"]):
                        assert part["left"] >= pic["left"] and part["right"] <= pic["right"] + 1
                        assert part["bottom"] <= pic["bottom"] + 1
            shot = screenshots() / f"seat{me}-picture-{'ascii' if ascii_ else 'zh'}-360px.png"
            assert browser.save_screenshot(str(shot))
            shots.append(shot)
    print("seat picture screenshots:", ", ".join(str(s) for s in shots))
