"""``zipai serve`` in a real browser: headless Chromium driven by selenium plays whole hands of
the web table by clicking its buttons, two people in two windows against a bot, and at every
decision checks each seat's page against the engine: the picture it shows is the picture of
``observe(seat)`` (every card, label and 胡息 of the drawing, read from the page's DOM), its
buttons are ``observe(seat).options`` in the terminal game's words, and its event list is
``events_for(seat)``. A second table with a short deadline checks that the timer's default
answer is applied when a person does not answer. Screenshots at laptop (1280×800) and phone
(360×740) width go to tests/output/ (not committed; ``ZIPAI_SCREENSHOTS=docs`` writes the
ones docs/play.md shows to docs/img/).

The browser is Debian's ``chromium`` with ``chromium-driver`` (``.ci/run`` installs them);
the test skips, saying why, only where no browser, driver or web extra can be found.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from test_browser import browser  # noqa: E402,F401  (the Chromium fixture)
from zipai_rules.bots import GreedyBot  # noqa: E402
from zipai_rules.cards import format_cards  # noqa: E402
from zipai_rules.svg import render  # noqa: E402
from zipai_rules.web.app import create_app  # noqa: E402
from zipai_rules.web.store import RecordStore  # noqa: E402
from zipai_rules.wording import Words  # noqa: E402

OUTPUT = Path(__file__).parent / "output"
DOCS_IMG = Path(__file__).parent.parent / "docs" / "img"
#: selenium's waits: a bound on a step of the page, never a measure of speed
WAIT = 30

#: the picture the page shows, read from its DOM: every element of the inline SVG with a
#: class or data attribute, as (tag, class, data attributes, text of a text element)
READ_PICTURE = """
const svg = document.querySelector('#picture svg');
if (!svg) return null;
const out = [];
for (const e of [svg, ...svg.querySelectorAll('*')]) {
  const data = {};
  for (const a of e.attributes) if (a.name.startsWith('data-')) data[a.name] = a.value;
  const cls = e.getAttribute('class') || '';
  if (!cls && !Object.keys(data).length) continue;
  out.push([e.localName, cls, data, e.localName === 'text' ? e.textContent : '']);
}
return out;
"""

READ_PAGE = """
return {
  decision: (document.querySelector('#options button') || {dataset: {}}).dataset.decision
            || null,
  options: Array.from(document.querySelectorAll('#options button')).map(b => b.textContent),
  events: Array.from(document.querySelectorAll('#events li')).map(e => e.textContent),
  timer: document.getElementById('timer').dataset.seconds || '',
  ended: !document.getElementById('end').hidden,
  result: document.getElementById('result').textContent,
  kind: document.getElementById('result').dataset.kind || '',
  record: document.getElementById('record-link').getAttribute('href'),
  seat: document.body.dataset.seat,
};
"""


def picture_of(svg: str) -> list[list[Any]]:
    """What READ_PICTURE reads, from the SVG text the server draws."""
    out = []
    for e in ET.fromstring(svg).iter():
        tag = e.tag.split("}")[-1]
        data = {k: v for k, v in e.attrib.items() if k.startswith("data-")}
        cls = e.attrib.get("class", "")
        if not cls and not data:
            continue
        out.append([tag, cls, data, "".join(e.itertext()) if tag == "text" else ""])
    return out


class Server:
    """The app served by uvicorn on a free local port, in a thread of its own."""

    def __init__(self, app: Any) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(400):
            if self.server.started:
                break
            time.sleep(0.025)
        assert self.server.started, "uvicorn did not start"
        self.url = f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def wait(driver, predicate, what: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(
        lambda d: predicate(d), message=what)


def join(driver, url: str, name: str) -> str:
    """Open the table in a new window and take a seat; the window's handle."""
    from selenium.webdriver.common.by import By

    driver.switch_to.new_window("window")
    driver.get(url)
    wait(driver, lambda d: d.find_element(By.ID, "join").is_displayed(), "the join form")
    box = driver.find_element(By.ID, "name")
    box.clear()
    box.send_keys(name)
    driver.find_element(By.ID, "join-button").click()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.seat") is not None,
         "a seat")
    return driver.current_window_handle


def check_page(driver, table, seat: int, words: Words) -> dict[str, Any]:
    """The page of ``seat`` shows its decision as ``observe(seat)`` does; the page read."""
    game = table.game
    decision = game.decision(seat)
    wait(driver, lambda d: d.execute_script(READ_PAGE)["decision"] == str(decision),
         f"seat {seat}'s buttons for decision {decision}")
    page = driver.execute_script(READ_PAGE)
    view = game.observe(seat)
    assert view.decision == decision
    assert page["seat"] == str(seat)
    assert page["options"] == [words.option(a) for a in view.options]
    assert page["events"] == [words.event(e) for e in game.events_for(seat)]
    assert page["timer"] != "" and float(page["timer"]) > 0
    shown = driver.execute_script(READ_PICTURE)
    assert shown == picture_of(render(view, variant=table.variant))
    # the seat's own hand, as the engine gives it, is the hand the picture shows
    hand = [e[2]["data-card"] for e in shown if e[1].startswith("card")
            and "data-card" in e[2] and _in_hand(shown, e, seat)]
    assert sorted(hand) == sorted(format_cards(_held(view)).split())
    return page


def _held(view) -> list[int]:
    return [i for i, n in enumerate(view.hand) for _ in range(n)]


def _in_hand(shown, item, seat) -> bool:
    """Whether ``item`` lies in the ``g.hand`` of ``seat`` (the READ_PICTURE order: a hand's
    cards follow its group until the next hand, discards or seat group)."""
    owner = None
    for e in shown:
        if e[1] in ("hand", "discards", "seat", "meld") or e[1].startswith("label"):
            owner = (e[1], e[2].get("data-seat"))
        if e is item:
            return owner == ("hand", str(seat))
    return False


def choose(view, variant, greedy: GreedyBot, rng: random.Random) -> int:
    """A person's pick, as the page's buttons number them: mostly what a greedy player picks
    (a win when offered), else any option."""
    if rng.random() < 0.8:
        return list(view.options).index(greedy.choose(variant, view.hand, view.options))
    return rng.randrange(len(view.options))


def screenshot(driver, name: str, width: int, height: int) -> Path:
    driver.set_window_size(width, height)
    time.sleep(0.2)  # let the layout settle at the new width before the picture is taken
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / name
    driver.save_screenshot(str(path))
    if os.environ.get("ZIPAI_SCREENSHOTS") == "docs":
        DOCS_IMG.mkdir(exist_ok=True)
        driver.save_screenshot(str(DOCS_IMG / name))
    print("screenshot:", path)
    return path


def test_two_people_play_whole_hands_by_clicking(browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    store = RecordStore(tmp_path / "records.sqlite")
    app = create_app("hunan", humans=2, window_seconds=300, store=store, seed=21)
    table = app.state.table
    words = table.words
    server = Server(app)
    rng = random.Random(5)
    greedy = GreedyBot(5)
    try:
        windows = [join(browser, server.url, "east"), join(browser, server.url, "south")]
        both_at_once = steps = 0
        shots = end_shots = False
        for hand in (1, 2):
            while not table.game.is_over:
                game = table.game
                asked = [s for s in (0, 1) if game.decision(s) is not None]
                assert asked, "the bot seat holds the table up"
                both_at_once += len(asked) == 2
                pages = {}
                for s in asked:  # every asked seat's page, before anyone answers
                    browser.switch_to.window(windows[s])
                    pages[s] = check_page(browser, table, s, words)
                if not shots and hand == 1 and steps >= 6:
                    browser.switch_to.window(windows[asked[0]])
                    screenshot(browser, "serve-laptop.png", 1280, 800)
                    screenshot(browser, "serve-phone.png", 360, 740)
                    browser.set_window_size(1200, 1100)
                    shots = True
                old = {s: game.decision(s) for s in asked}
                for s in asked:
                    browser.switch_to.window(windows[s])
                    k = choose(game.observe(s), table.variant, greedy, rng)
                    browser.find_element(By.ID, f"option-{k}").click()
                    steps += 1
                    if table.game.is_over:
                        break
                # every click changes the table: the next step waits for its new decisions
                wait(browser, lambda d, old=old: table.game.is_over or any(
                    table.game.decision(s) not in (None, old.get(s)) for s in (0, 1)),
                    "the table to move on")
            # the end: both pages show the result and a link to the stored record
            wait(browser, lambda d, n=hand: len(table.record_ids) == n, "the record stored")
            record_id = table.record_ids[-1]
            assert record_id is not None and store.get(record_id) == table.records[-1]
            for s in (0, 1):
                browser.switch_to.window(windows[s])
                wait(browser, lambda d: d.execute_script(READ_PAGE)["ended"], "the end")
                page = browser.execute_script(READ_PAGE)
                assert page["record"] == f"/records/{record_id}"
                assert page["events"] == [words.event(e)
                                          for e in table.game.events_for(s)]
                result = table.game.observe(s).result
                assert page["result"] == table.result_text(
                    result.kind.value, result.winner, result.huxi,
                    [getattr(x, "value", x) for x in result.labels])
                assert page["kind"] == result.kind.value
                # the last picture: the end as the seat sees it (the winner's split laid out)
                assert browser.execute_script(READ_PICTURE) == picture_of(
                    render(table.game, seat=s))
            won = table.game.result.winner
            if won is not None and not end_shots or hand == 2 and not end_shots:
                # the end of the first hand won (the winner's split laid out), from the
                # winner's seat where a person won
                browser.switch_to.window(windows[won if won in (0, 1) else 0])
                screenshot(browser, "serve-end-laptop.png", 1280, 800)
                screenshot(browser, "serve-end-phone.png", 360, 740)
                browser.set_window_size(1200, 1100)
                end_shots = True
            if hand == 1:
                browser.switch_to.window(windows[0])
                # the record's replay, from the link on the page
                # the record's replay, from the link on the page (in a tab of its own, so
                # that the table stays connected)
                table_tab = browser.current_window_handle
                before = set(browser.window_handles)
                browser.find_element(By.ID, "record-link").click()
                wait(browser, lambda d, b=before: set(d.window_handles) - b, "the replay tab")
                browser.switch_to.window((set(browser.window_handles) - before).pop())
                wait(browser, lambda d, r=record_id: f"/records/{r}" in d.current_url
                     and d.find_elements(By.CSS_SELECTOR, "#table section.seat"),
                     "the replay page")
                assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
                browser.close()
                browser.switch_to.window(table_tab)
                for s in (0, 1):
                    browser.switch_to.window(windows[s])
                    wait(browser, lambda d: d.find_element(By.ID, "next-button").is_displayed(),
                         "the next-hand button")
                    browser.find_element(By.ID, "next-button").click()
                wait(browser, lambda d: table.hand == 1 and not table.game.is_over
                     and any(table.game.decision(s) is not None for s in (0, 1)),
                     "the second hand")
        assert steps >= 10 and both_at_once >= 1
        assert len(table.records) == 2 and store.count() == 2
        assert table.deadlines == 0  # every answer was a click
    finally:
        server.stop()
        store.close()
        for handle in browser.window_handles[1:]:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(browser.window_handles[0])


def test_the_timer_answers_for_a_silent_seat(browser):  # noqa: F811
    app = create_app("hunan", humans=1, window_seconds=5.0, seed=8)
    table = app.state.table
    server = Server(app)
    try:
        window = join(browser, server.url, "quiet")
        browser.switch_to.window(window)
        seat = 0
        for _ in range(3):  # three deadlines in a row, each on the page's own decision
            wait(browser, lambda d: table.game.decision(seat) is not None, "a decision")
            game = table.game
            decision = game.decision(seat)
            count = table.deadlines
            before = len(game.events)
            expected = game.clone()  # what the default answer makes of this very state
            if expected.state.window is not None:
                expected.close_window()
            else:
                expected.apply(table._bot_choice(seat), by=seat, decision=decision)
            want = [e.to_json() for e in expected.events[before:]]
            assert table.deadlines == count, "the deadline ran out before the check"
            check_page(browser, table, seat, table.words)
            wait(browser, lambda d, c=count: table.deadlines > c, "the deadline")
            got = [e.to_json() for e in table.game.events[before:before + len(want)]]
            assert want and got == want  # the default answer, and nothing else, was applied
            if table.game.is_over:
                break
            wait(browser, lambda d, g=decision: table.game.decision(seat) not in (None, g),
                 "the next decision")
    finally:
        server.stop()
        for handle in browser.window_handles[1:]:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(browser.window_handles[0])
