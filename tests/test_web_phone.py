"""The page on a phone and the coach's words, in a real browser (Playwright + Debian Chromium).

- At phone widths (390x844 and 360x740, touch) the page has no horizontal scroll for both
  boards, and a move is played by two taps.
- An illegal click or drag on the board shows the coach's words (royalchess.explain) under
  the board, without a dialog.

Takes ``docs/screenshot-phone-chess.png``, ``docs/screenshot-phone-royal.png`` and
``docs/screenshot-coach.png``. Skipped, like tests/test_web_browser.py, only where Chromium or
Playwright is missing on a developer's machine; under ``CI=true`` they must be there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import (
    ARGS,
    CHROMIUM,
    SHOTS,
    browser,
    click,
    drag,
    expect,
    new_game,
    server,
    settle,
    square,
    state,
    wait_for_plies,
)

__all__ = ["browser", "server"]  # the fixtures, shared with tests/test_web_browser.py

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
assert ARGS  # the same browser set-up as the desktop tests

PHONES = {"390x844": (390, 844), "360x740": (360, 740)}


def _page(browser: Any, server: str, **context: Any) -> Iterator[Any]:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(server)
    yield page
    ctx.close()
    assert errors == [], errors


@pytest.fixture()
def desktop(browser: Any, server: str) -> Iterator[Any]:
    yield from _page(browser, server, viewport={"width": 1280, "height": 860})


@pytest.fixture(params=list(PHONES))
def phone(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    width, height = PHONES[request.param]
    yield from _page(
        browser,
        server,
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )


def no_sideways_scroll(page: Any) -> None:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth,"
        " document.querySelector('cg-board').getBoundingClientRect().right]"
    )
    scroll, inner, board_right = widths
    assert scroll <= inner, widths
    assert board_right <= inner, widths


def tap(page: Any, frm: str, to: str) -> None:
    page.locator("cg-board").tap(position=square(page, frm))
    page.locator("cg-board").tap(position=square(page, to))


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_phone_fits_the_width_and_plays_by_tapping(phone: Any, variant: str) -> None:
    game = new_game(phone, variant, mode="two-players")
    assert game["files"] == (8 if variant == "chess" else 10)
    settle(phone)
    no_sideways_scroll(phone)
    # The board is the screen's width, not a sliver: at least 80% of it.
    width = phone.evaluate("() => document.querySelector('cg-board').getBoundingClientRect().width")
    assert width >= 0.8 * phone.viewport_size["width"]

    tap(phone, "e2", "e4")
    s = wait_for_plies(phone, 1)
    assert s["moves"][0]["san"] == "e4"
    tap(phone, "e7", "e5")
    s = wait_for_plies(phone, 2)
    assert s["moves"][1]["san"] == "e5"
    settle(phone)
    no_sideways_scroll(phone)
    if phone.viewport_size["width"] == 390:
        phone.wait_for_timeout(300)  # let the last piece finish sliding
        phone.screenshot(path=str(SHOTS / f"screenshot-phone-{variant}.png"), full_page=True)


def test_illegal_click_and_drag_show_the_coach(desktop: Any) -> None:
    page = desktop
    new_game(page, "chess", mode="two-players")
    coach = page.locator("#coach")
    expect(coach).to_be_hidden()

    # Click the pawn, then a square it cannot reach: the coach says why.
    click(page, "e2", "e5")
    expect(coach).to_be_visible()
    expect(coach).to_have_text(
        "The pawn on e2 cannot move to e5: a pawn moves straight forward (two squares from "
        "its start) and captures diagonally forward."
    )
    assert state(page)["moves"] == []

    # A drag onto a square the piece cannot reach: the same, for that piece.
    drag(page, "f1", "c4")
    expect(coach).to_have_text("The Bishop on f1 cannot reach c4: your pawn on e2 is in the way.")

    # Choosing another piece of one's own is no illegal move; a legal move plays as before.
    click(page, "g1", "f3")
    wait_for_plies(page, 1)

    # Royal Chess: the King dragged to h1 asks for castling.
    new_game(page, "royal", mode="two-players")
    drag(page, "f1", "h1")
    expect(coach).to_have_text(
        "Castling is not possible now: the Bishop on h1 and the Knight on i1 stand between the "
        "King and the Rook."
    )
    # The words stay inside their box and the board's column.
    inside = page.evaluate(
        "() => { const c = document.getElementById('coach').getBoundingClientRect();"
        " const b = document.getElementById('board-side').getBoundingClientRect();"
        " const el = document.getElementById('coach');"
        " return el.scrollWidth <= el.clientWidth && c.right <= b.right + 0.5; }"
    )
    assert inside
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / "screenshot-coach.png"))
