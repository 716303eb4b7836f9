"""Live analysis and game review in a real browser (Playwright + Debian Chromium).

- Analysis: the page streams the engine's lines (at least two updates), draws the best move
  as an arrow and the evaluation bar, plays a tried move on its own board only (the saved
  game keeps its moves), and stops when asked (the server confirms it stopped the tab's
  search).
- Review: a prepared game with a known blunder (the scholar's mate, 3... Nf6??) is reviewed;
  the page draws the evaluation graph, marks the blunder ``??`` in the move list and on the
  graph, and a click on the graph jumps to that move and shows the better move.
- On a phone (390x844) the evaluation bar lies under the board: no horizontal scroll.

Takes ``docs/screenshot-analysis.png`` and ``docs/screenshot-review.png``. Skipped, like
tests/test_web_browser.py, only where Chromium or Playwright is missing on a developer's
machine; under ``CI=true`` they must be there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_web_browser import CHROMIUM, SHOTS, browser, click, expect, server, settle
from web_server import request

__all__ = ["browser", "server"]  # the fixtures, shared with tests/test_web_browser.py

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
ITALIAN = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d4", "e5d4"]


def saved_game(server: str, moves: list[str], variant: str = "chess") -> dict[str, Any]:
    """A two-player game with *moves*, made through the API."""
    base = server.rstrip("/")
    state = request(base, "POST", "/api/games", {"mode": "two-players", "variant": variant})
    for uci in moves:
        state = request(
            base, "POST", f"/api/games/{state['id']}/move", {"move": uci, "ply": state["ply"]}
        )
    return state  # type: ignore[no-any-return]


@pytest.fixture()
def open_game(browser: Any, server: str) -> Iterator[Callable[[int], Any]]:
    """Open the page on a saved game (its first load names it in the address)."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    errors: list[str] = []

    def open_(game_id: int) -> Any:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # The page must work under the server's Content-Security-Policy: a violation fails.
        page.on(
            "console",
            lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
        page.goto(f"{server}#game={game_id}")
        page.wait_for_function(
            "id => { const s = window.royalchess.state; return s && s.id === id; }", arg=game_id
        )
        settle(page)
        return page

    yield open_
    context.close()
    assert errors == [], errors


def arrows(page: Any) -> int:
    """How many arrows chessground draws (the analysis' and the review's are auto-shapes)."""
    return int(page.locator("cg-container svg.cg-shapes g line").count())


def test_analysis_streams_follows_tried_moves_and_stops(server: str, open_game: Any) -> None:
    game = saved_game(server, ITALIAN)
    page = open_game(game["id"])
    page.click("#btn-analysis")
    expect(page.locator("#btn-analysis")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.royalchess.analysis.updates >= 2", timeout=20_000)
    expect(page.locator("#analysis-lines li")).to_have_count(3, timeout=20_000)
    expect(page.locator("#eval-bar")).to_be_visible()
    expect(page.locator("#analysis-status")).to_contain_text("depth")
    page.wait_for_function(
        "() => document.querySelectorAll('cg-container svg.cg-shapes g line').length >= 1"
    )
    # For the screenshot, lines of some depth (a busy machine may take a while: 60 s at most).
    page.wait_for_function(
        "() => { const a = window.royalchess.analysis; return a.latest && a.latest.depth >= 9; }",
        timeout=60_000,
    )
    settle(page)
    page.screenshot(path=str(SHOTS / "screenshot-analysis.png"))

    # A move tried on the analysis board (6. cxd4): shown there, analysed, not played.
    click(page, "c3", "d4")
    expect(page.locator("#analysis-tried")).to_be_visible()
    expect(page.locator("#analysis-tried-moves")).to_have_text("6. cxd4")
    page.wait_for_function(
        "() => window.royalchess.analysis.updates >= 1 && window.royalchess.analysis.running"
    )
    saved = request(server.rstrip("/"), "GET", f"/api/games/{game['id']}")
    assert saved["ply"] == len(ITALIAN) and [m["uci"] for m in saved["moves"]] == ITALIAN
    assert page.evaluate("window.royalchess.state.ply") == len(ITALIAN)

    # Stepping back in the game: the analysis follows (the tried move is gone).
    page.click("#moves .mv[data-ply='4']")
    expect(page.locator("#analysis-tried")).to_be_hidden()
    page.wait_for_function("() => window.royalchess.analysis.updates >= 2", timeout=20_000)

    # Stop: the stream is closed and the server stops the tab's search.
    with page.expect_response(lambda r: r.url.endswith("/api/analysis/stop")) as stopped:
        page.click("#btn-analysis")
    assert stopped.value.json() == {"stopped": True}
    assert page.evaluate("window.royalchess.analysis.running") is False
    assert page.evaluate("window.royalchess.analysis.source") is None
    expect(page.locator("#analysis")).to_be_hidden()
    expect(page.locator("#eval-bar")).to_be_hidden()
    assert arrows(page) == 0


def test_review_draws_the_graph_marks_the_blunder_and_jumps_on_click(
    server: str, open_game: Any
) -> None:
    game = saved_game(server, SCHOLAR)
    assert game["finished"]
    page = open_game(game["id"])
    page.click("#btn-review")
    expect(page.locator("#review-graph svg")).to_be_visible(timeout=60_000)
    blunder = page.locator("#moves .mv[data-ply='6']")
    expect(blunder.locator(".nag")).to_have_text("??")
    expect(blunder).to_have_class("mv blunder")
    expect(page.locator("#review-graph circle.blunder[data-mark='6']")).to_have_count(1)
    expect(page.locator("#review-graph rect.graph-hit")).to_have_count(len(SCHOLAR) + 1)
    expect(page.locator("#review-white")).to_contain_text("accuracy")
    expect(page.locator("#review-black")).to_contain_text("1 blunder")
    href = page.locator("#review-pgn").get_attribute("href")
    assert href == f"/api/games/{game['id']}/review/pgn"

    # A click on the graph jumps to that move: the list marks it, the better move is shown.
    page.locator("#review-graph rect[data-ply='6']").click()
    expect(page.locator("#moves .mv.current")).to_have_attribute("data-ply", "6")
    expect(page.locator("#review-move")).to_contain_text("3… Nf6??")
    expect(page.locator("#review-move .judgement")).to_contain_text("Blunder.")
    expect(page.locator("#review-move .judgement")).to_contain_text("was best")
    expect(page.locator("#history-banner")).to_be_visible()
    page.wait_for_function(
        "() => document.querySelectorAll('cg-container svg.cg-shapes g line').length >= 1"
    )
    settle(page)
    page.screenshot(path=str(SHOTS / "screenshot-review.png"))
    page.locator("#review-graph rect[data-ply='2']").click()
    expect(page.locator("#moves .mv.current")).to_have_attribute("data-ply", "2")
    expect(page.locator("#review-move .judgement")).to_have_count(0)


def test_analysis_on_a_phone_has_no_horizontal_scroll(browser: Any, server: str) -> None:
    game = saved_game(server, ["e2e4", "e7e5"], variant="royal")
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(f"{server}#game={game['id']}")
    page.wait_for_function(
        "id => window.royalchess.state && window.royalchess.state.id === id", arg=game["id"]
    )
    page.click("#btn-analysis")
    page.wait_for_function("() => window.royalchess.analysis.updates >= 2", timeout=20_000)
    expect(page.locator("#eval-bar")).to_be_visible()
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("#btn-analysis")
    context.close()
    assert errors == [], errors
