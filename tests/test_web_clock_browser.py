"""The clocks on the page, in a real browser (Playwright driving Debian's Chromium, headless).

A game chosen with a short custom clock in the New game dialog, where the side that does not
move loses on time (the page asks the server when its shown clock reaches zero); a reload
mid-game shows both clocks as the server keeps them; closing the tab pauses the clock.
Takes the screenshot ``docs/screenshot-clock.png``. Same browser set-up and skip rules as
``tests/test_web_browser.py``.
"""

from __future__ import annotations

import re
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, SHOTS, click, playwright_api, state, wait_for_plies
from web_server import free_port, request, start_server

expect = playwright_api.expect
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-clock") / "games.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
    port = free_port()
    process = start_server(port, db)
    yield f"http://127.0.0.1:{port}/"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    yield context
    context.close()


def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(url)
    page.errors = errors
    return page


def seconds(text: str) -> float:
    """``'White 4:58'`` or ``'Black 0:07.3'`` as seconds."""
    found = re.search(r"(\d+):(\d+(?:\.\d)?)$", text)
    assert found is not None, text
    return int(found[1]) * 60 + float(found[2])


def open_dialog(page: Any) -> Any:
    """The New game dialog: open by itself on a page with no game yet, else by its button."""
    page.wait_for_function(  # a function, not an expression: the page's CSP forbids eval
        "() => window.royalchess.state !== null || document.querySelector('#dlg-new').open"
    )
    dialog = page.locator("#dlg-new")
    if not dialog.is_visible():
        page.click("#btn-new")
    return dialog


def new_game_in_dialog(page: Any, clock: str, minutes: str = "", increment: str = "") -> None:
    dialog = open_dialog(page)
    expect(dialog).to_be_visible()
    dialog.locator("select[name=mode]").select_option("two-players")
    dialog.locator("select[name=clock]").select_option(clock)
    if clock == "custom":
        expect(page.locator("#clock-custom")).to_be_visible()
        dialog.locator("input[name=clock-minutes]").fill(minutes)
        dialog.locator("input[name=clock-increment]").fill(increment)
    page.click("#btn-start")
    expect(dialog).to_be_hidden()


def test_a_bad_custom_clock_is_refused_in_the_dialog(context: Any, server: str) -> None:
    page = open_page(context, server)
    dialog = open_dialog(page)
    dialog.locator("select[name=clock]").select_option("custom")
    dialog.locator("input[name=clock-minutes]").fill("700")
    dialog.locator("input[name=clock-increment]").fill("0")
    page.click("#btn-start")
    expect(dialog.locator(".dialog-error")).to_contain_text("at most 10 hours")
    expect(dialog).to_be_visible()
    assert page.errors == []


def test_the_side_that_does_not_move_loses_on_time(context: Any, server: str) -> None:
    page = open_page(context, server)
    new_game_in_dialog(page, "custom", minutes="0.1", increment="0")  # 6 seconds each
    s = state(page)
    assert s["clock"]["control"] == {"base": 6.0, "increment": 0.0, "text": "6s+0"}
    expect(page.locator("#clock-bottom")).to_have_text(re.compile(r"^White 0:0[0-6]\.\d$"))
    expect(page.locator("#clock-top")).to_have_text("Black 0:06.0")
    click(page, "e2", "e4")
    wait_for_plies(page, 1)
    expect(page.locator("#clock-top")).to_have_class(re.compile(r"\brunning\b"))
    # Black does not move: its clock runs out, the page asks, the server says who lost
    expect(page.locator("#status")).to_have_text("Black lost on time. 1-0", timeout=15_000)
    expect(page.locator("#clock-top")).to_have_text("Black 0:00.0")
    expect(page.locator("#clock-top")).to_have_class(re.compile(r"\bflagged\b"))
    s = state(page)
    assert (s["result"], s["termination"], s["finished"]) == ("1-0", "time forfeit", True)
    assert s["clock"]["black"] == 0.0 and s["clock"]["running"] is None
    assert page.errors == []


def test_a_reload_keeps_both_clocks(context: Any, server: str) -> None:
    page = open_page(context, server)
    new_game_in_dialog(page, "5+3")
    click(page, "e2", "e4")
    wait_for_plies(page, 1)
    click(page, "e7", "e5")
    wait_for_plies(page, 2)
    before = state(page)["clock"]
    assert before["control"]["text"] == "5+3"
    assert 290.0 < before["black"] <= 303.0 and 290.0 < before["white"] <= 303.0
    page.reload()
    after = wait_for_plies(page, 2)
    assert after["id"] == state(page)["id"]
    clock = after["clock"]
    assert clock["running"] == "white" and clock["paused"] is False
    assert abs(clock["black"] - before["black"]) < 0.001  # Black's clock stood still
    assert before["white"] - 5 < clock["white"] <= before["white"]  # White's ran meanwhile
    # the page shows the server's times (within the second or so the page counted down)
    shown_white = seconds(page.locator("#clock-bottom").inner_text())
    shown_black = seconds(page.locator("#clock-top").inner_text())
    assert abs(shown_white - clock["white"]) < 2.0
    assert shown_black == int(clock["black"])  # whole seconds above ten
    expect(page.locator("#clock-bottom")).to_have_class(re.compile(r"\brunning\b"))
    page.screenshot(path=str(SHOTS / "screenshot-clock.png"))
    assert page.errors == []


def test_closing_the_tab_pauses_the_clock(context: Any, server: str, db: Path) -> None:
    page = open_page(context, server)
    new_game_in_dialog(page, "10+5")
    click(page, "d2", "d4")
    s = wait_for_plies(page, 1)
    page.close(run_before_unload=True)
    game = s["id"]
    with sqlite3.connect(db) as con:
        for _ in range(100):  # the keepalive request reaches the server soon after
            since, black = con.execute(
                "SELECT clock_since, black_time FROM games WHERE id = ?", (game,)
            ).fetchone()
            if since is None:
                break
            page_gone = context.new_page()
            page_gone.wait_for_timeout(100)
            page_gone.close()
    assert since is None  # paused: nobody is charged while the tab is closed
    assert 590.0 < black <= 600.0
    # opening the game again starts the clock
    back = request(server.rstrip("/"), "GET", f"/api/games/{game}")
    assert back["clock"]["paused"] is False and back["clock"]["running"] == "black"
