"""The web page in a real browser: Playwright driving Debian's Chromium, headless.

Plays by clicking and dragging as a person would: a short game of chess and of Royal Chess
against the computer, a promotion through the chooser, castling in Royal Chess with a Guard
move first, a takeback and a hint, then reloads the page and finds the game still there.
Takes the screenshots ``docs/screenshot-chess.png`` and ``docs/screenshot-royal.png`` (into docs/
only with ``ROYALCHESS_SCREENSHOTS=1``; elsewhere into a scratch folder).

Needs ``pip install playwright`` and ``apt-get install chromium`` (``tests/browser_setup.sh``);
skipped when either is missing on a developer's machine, but under CI (``CI=true``, where
``.ci/run`` installs both) a missing browser is a failure. Never runs ``playwright install``.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_server import free_port, request, start_server

REQUIRED = os.environ.get("CI", "").lower() in ("1", "true", "yes")
if REQUIRED:
    import playwright.sync_api as playwright_api
else:
    playwright_api = pytest.importorskip("playwright.sync_api")
# Assertions on the page retry until the page has caught up (up to 5 s), so a test never
# depends on how fast the browser renders after a click.
expect = playwright_api.expect
expect.set_options(timeout=5_000)

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).resolve().parent.parent / "docs"
# The screenshots in docs/ are retaken only when asked (ROYALCHESS_SCREENSHOTS=1), so a test
# run never changes tracked files; otherwise they go to a scratch folder, still taken.
SHOTS = (
    DOCS
    if os.environ.get("ROYALCHESS_SCREENSHOTS") == "1"
    else Path(tempfile.mkdtemp(prefix="royalchess-shots-"))
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROYAL_CASTLE = "rnbgqkwbnr/pppppppppp/10/10/10/7BN1/PPPPPPPPPP/RNBGQKW2R w KQkq - 0 1"
ROYAL_PROMOTE = "5k4/1P8/10/10/4W5/10/10/5K4 w - - 0 1"
CHESS_PROMOTE = "8/1P6/8/8/8/8/k7/4K3 w - - 0 1"

if REQUIRED and not CHROMIUM.exists():
    raise RuntimeError("CI=true but /usr/bin/chromium is missing: run tests/browser_setup.sh")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    process = start_server(port, tmp_path_factory.mktemp("web") / "games.db")
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
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The page must work under the server's Content-Security-Policy: a violation is an error.
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(server)
    yield page
    context.close()
    assert errors == [], errors


def state(page: Any) -> Any:
    return page.evaluate("window.royalchess.state")


def wait_for_plies(page: Any, plies: int) -> Any:
    """Wait until the game shows *plies* moves and nobody is thinking."""
    page.wait_for_function(
        "n => { const r = window.royalchess; return r.state && r.state.moves.length === n"
        " && !r.thinking; }",
        arg=plies,
        timeout=20_000,
    )
    return state(page)


def square(page: Any, name: str) -> dict[str, float]:
    """The centre of square *name* inside the board element, for the current orientation."""
    box = page.locator("cg-board").bounding_box()
    files = state(page)["files"]
    file, rank = "abcdefghij".index(name[0]), int(name[1:])
    white = page.evaluate("window.royalchess.board.orientation") == "white"
    col = file if white else files - 1 - file
    row = 8 - rank if white else rank - 1
    return {"x": (col + 0.5) * box["width"] / files, "y": (row + 0.5) * box["height"] / 8}


def click(page: Any, frm: str, to: str) -> None:
    page.locator("cg-board").click(position=square(page, frm))
    page.locator("cg-board").click(position=square(page, to))


def drag(page: Any, frm: str, to: str) -> None:
    box = page.locator("cg-board").bounding_box()
    a, b = square(page, frm), square(page, to)
    page.mouse.move(box["x"] + a["x"], box["y"] + a["y"])
    page.mouse.down()
    page.mouse.move(box["x"] + (a["x"] + b["x"]) / 2, box["y"] + (a["y"] + b["y"]) / 2, steps=4)
    page.mouse.move(box["x"] + b["x"], box["y"] + b["y"], steps=4)
    page.mouse.up()


def new_game(
    page: Any, variant: str, mode: str = "vs-computer", level: int = 1, setup: str = ""
) -> Any:
    """Start a game through the New game dialog; return its state once the page shows it."""
    if not page.locator("#dlg-new").evaluate("d => d.open"):
        page.click("#btn-new")
    page.check(f"#form-new input[name=variant][value={variant}]")
    page.select_option("#form-new select[name=mode]", mode)
    page.select_option("#form-new select[name=color]", "white")
    page.locator("#form-new input[name=level]").fill(str(level))
    if setup:
        page.locator("#form-new details").evaluate("d => { d.open = true; }")
        page.fill("#form-new textarea[name=setup]", setup)
    with page.expect_response(
        lambda r: r.url.endswith("/api/games") and r.request.method == "POST"
    ) as created:
        page.click("#btn-start")
    game_id = created.value.json()["id"]
    page.wait_for_function(
        "id => { const s = window.royalchess.state; return s && s.id === id; }", arg=game_id
    )
    settle(page)
    return state(page)


def settle(page: Any) -> None:
    """Wait until fonts are loaded and two frames have been drawn, so that the board's
    layout (which the clicks are computed from) no longer moves."""
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise(r =>"
        " requestAnimationFrame(() => requestAnimationFrame(() => r(true)))))"
    )


def legal(page: Any, uci: str) -> bool:
    return any(m["uci"] == uci for m in state(page)["legal"])


def first_legal(page: Any, *candidates: str) -> str:
    for uci in candidates:
        if legal(page, uci):
            return uci
    raise AssertionError(f"none of {candidates} is legal in {state(page)['fen']}")


def test_chess_against_the_computer(page: Any) -> None:
    game = new_game(page, "chess")
    assert game["files"] == 8
    expect(page.locator("cg-board piece")).to_have_count(32)

    # Select a piece: the legal moves show as dots.
    page.locator("cg-board").click(position=square(page, "e2"))
    expect(page.locator("cg-board square.move-dest")).to_have_count(2)
    page.locator("cg-board").click(position=square(page, "e4"))
    s = wait_for_plies(page, 2)
    assert s["moves"][0]["san"] == "e4"
    expect(page.locator("cg-board square.last-move")).to_have_count(2)

    move = first_legal(page, "g1f3", "b1c3", "d2d3")
    drag(page, move[:2], move[2:])
    s = wait_for_plies(page, 4)
    assert s["moves"][2]["uci"] == move
    expect(page.locator("#moves .mv")).to_have_count(4)

    # Keyboard entry, in SAN or UCI.
    move = first_legal(page, "d2d3", "a2a3", "h2h3")
    page.fill("#entry-text", move)
    page.press("#entry-text", "Enter")
    s = wait_for_plies(page, 6)

    # Take back goes back to the player's turn: the computer's reply and the player's move.
    page.click("#btn-takeback")
    s = wait_for_plies(page, 4)
    assert s["turn"] == "white"

    # A hint is drawn as an arrow.
    page.click("#btn-hint")
    page.wait_for_selector("#evaluation:not([hidden])")
    assert page.locator("#evaluation").inner_text().startswith("Hint: ")
    page.wait_for_function("() => document.querySelectorAll('svg.cg-shapes line').length > 0")

    # Navigate back through the move list and forward again.
    page.click("#moves-nav [data-nav=first]")
    expect(page.locator("cg-board piece")).to_have_count(32)
    assert page.locator("#history-banner").is_visible()
    page.click("#moves-nav [data-nav=last]")
    assert not page.locator("#history-banner").is_visible()

    page.wait_for_timeout(500)  # let the pieces finish sliding back
    page.screenshot(path=str(SHOTS / "screenshot-chess.png"))

    # Reload: the game is still there, as it was.
    played = [m["uci"] for m in s["moves"]]
    page.reload()
    page.wait_for_function("() => window.royalchess.state !== null")
    again = state(page)
    assert again["id"] == s["id"] and [m["uci"] for m in again["moves"]] == played

    # An illegal typed move is refused with the coach's words, the game unchanged.
    page.fill("#entry-text", "Ke8")
    page.press("#entry-text", "Enter")
    page.wait_for_selector("#message:not([hidden])")
    # The words are the coach's (royalchess.explain), not a FEN.
    expect(page.locator("#message")).to_have_text(
        "The King on e1 cannot move to e8: a King moves one square in any direction."
    )
    assert [m["uci"] for m in state(page)["moves"]] == played


def test_chess_promotion(page: Any) -> None:
    new_game(page, "chess", mode="two-players", setup=CHESS_PROMOTE)
    click(page, "b7", "b8")
    page.wait_for_selector("#dlg-choice[open]")
    labels = page.locator("#choice-options button").all_inner_texts()
    assert labels == ["Queen", "Rook", "Bishop", "Knight"]
    page.click("[data-choice=promote-n]")
    s = wait_for_plies(page, 1)
    assert s["moves"][0]["san"] == "b8=N"


def test_royal_chess(page: Any) -> None:
    game = new_game(page, "royal")
    assert game["files"] == 10
    expect(page.locator("cg-board piece")).to_have_count(40)
    expect(page.locator("cg-board piece.g-piece")).to_have_count(2)
    expect(page.locator("cg-board piece.w-piece")).to_have_count(2)

    click(page, "e2", "e4")
    wait_for_plies(page, 2)
    move = first_legal(page, "d1f3", "d1g4", "d1e2")
    click(page, move[:2], move[2:])
    s = wait_for_plies(page, 4)
    assert s["moves"][2]["san"].startswith("G")

    # Take back, then play the Guard move again.
    page.click("#btn-takeback")
    wait_for_plies(page, 2)
    click(page, move[:2], move[2:])
    s = wait_for_plies(page, 4)

    # A selected Guard shows its minor moves ringed, its major ones as plain dots.
    page.locator("cg-board").click(position=square(page, move[2:]))
    page.wait_for_selector("#guard-legend:not([hidden])")
    guard = [m for m in s["legal"] if m["from"] == move[2:] and not m["castling"]]
    minors = sum(m["guard_kind"] == "minor" for m in guard)
    assert minors > 0
    page.wait_for_function(
        "n => document.querySelectorAll('svg.cg-custom-svgs circle[stroke=\"#1d5fb5\"]').length"
        " === n",
        arg=minors,
    )
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "screenshot-royal.png"))
    page.keyboard.press("Escape")

    # Reload: the game is still there.
    page.reload()
    page.wait_for_function("() => window.royalchess.state !== null")
    assert state(page)["id"] == s["id"] and len(state(page)["moves"]) == 4


def test_royal_castling_with_a_guard_move_first(page: Any) -> None:
    new_game(page, "royal", setup=ROYAL_CASTLE)
    # The King goes to g1, where its Guard stands: the Guard must move first.
    click(page, "f1", "g1")
    page.wait_for_selector("#prompt:not([hidden])")
    assert "Guard" in page.locator("#prompt-text").inner_text()
    click(page, "g1", "h1")
    s = wait_for_plies(page, 2)
    assert s["moves"][0]["san"] == "Wh1_O-O:g1"
    assert s["moves"][0]["uci"] == "g1h1f1g1j1f1"
    assert page.locator("#prompt").is_hidden()

    # King to i1: the player chooses plain castling or a Guard move first.
    new_game(page, "royal", mode="two-players", setup=ROYAL_CASTLE)
    click(page, "f1", "i1")
    page.wait_for_selector("#dlg-choice[open]")
    expect(page.locator("[data-choice=castle-guard-first]")).to_have_count(1)
    page.click("[data-choice=castle]")
    s = wait_for_plies(page, 1)
    assert s["moves"][0]["san"] == "O-O:i1"


def test_royal_promotion_waived(page: Any) -> None:
    new_game(page, "royal", mode="two-players", setup=ROYAL_PROMOTE)
    click(page, "b7", "b8")
    page.wait_for_selector("#dlg-choice[open]")
    labels = page.locator("#choice-options button").all_inner_texts()
    assert "Queen's Guard with queen powers" in labels
    assert "Queen's Guard (queen powers waived)" in labels
    assert not any("King's Guard" in label for label in labels)  # not captured: not offered
    page.click("[data-choice=promote-g-waived]")
    s = wait_for_plies(page, 1)
    assert s["moves"][0]["san"] == "b8=G-"

    # Cancelling a promotion leaves the game unchanged.
    new_game(page, "royal", mode="two-players", setup=ROYAL_PROMOTE)
    click(page, "b7", "b8")
    page.wait_for_selector("#dlg-choice[open]")
    page.click("#choice-cancel")
    page.wait_for_timeout(200)
    assert state(page)["moves"] == []
    expect(page.locator("cg-board piece")).to_have_count(4)


def test_a_game_changed_in_another_tab_is_reloaded(page: Any, server: str) -> None:
    game = new_game(page, "chess", mode="two-players")
    base = server.rstrip("/")
    # another tab (or the terminal) plays 1. e4 in this game
    request(base, "POST", f"/api/games/{game['id']}/move", {"move": "e4", "ply": 0})
    # this page still shows the start position: its move is refused (409), and it reloads
    with page.expect_response(lambda r: r.url.endswith("/move")) as answer:
        click(page, "d2", "d4")
    assert answer.value.status == 409
    assert answer.value.request.post_data_json == {"move": "d2d4", "ply": 0}
    s = wait_for_plies(page, 1)
    assert s["moves"][0]["san"] == "e4" and s["ply"] == 1
    expect(page.locator("#message")).to_contain_text("the game changed in another window")
    # and plays on from the game as saved
    settle(page)
    click(page, "e7", "e5")
    s = wait_for_plies(page, 2)
    saved = request(base, "GET", f"/api/games/{game['id']}")
    assert [m["uci"] for m in saved["moves"]] == ["e2e4", "e7e5"]


def test_saved_games_resume(page: Any) -> None:
    game = new_game(page, "chess", mode="two-players")
    click(page, "d2", "d4")
    wait_for_plies(page, 1)
    new_game(page, "royal", mode="two-players")
    page.click("#btn-games")
    page.wait_for_selector(f"#games-table button[data-game='{game['id']}']")
    page.click(f"#games-table button[data-game='{game['id']}']")
    page.wait_for_function("id => window.royalchess.state.id === id", arg=game["id"])
    assert [m["san"] for m in state(page)["moves"]] == ["d4"]


def test_token_cookie_then_import_and_delete(browser: Any, tmp_path: Path) -> None:
    """Served with a token (as on a LAN): the printed URL stores it in an HttpOnly, Strict
    cookie and the page works on it; the page's PGN import and delete (JSON requests)
    pass the same-origin checks, under the CSP; without the cookie the page is refused."""
    token = "browser-token-0123456789"
    port = free_port()
    process = start_server(port, tmp_path / "games.db", token=token)
    base = f"http://127.0.0.1:{port}/"
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on(
            "console",
            lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
        page.on("dialog", lambda dialog: dialog.accept())  # the delete confirmation
        assert page.goto(base).status == 401
        assert page.goto(f"{base}?token={token}").status == 200
        assert page.url == base
        [cookie] = context.cookies()
        assert cookie["name"] == f"royalchess_token_{port}" and cookie["value"] == token
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert page.evaluate("document.cookie") == ""

        # A fresh database: the page offers a new game; import one from PGN instead.
        page.wait_for_selector("#dlg-new[open]")
        page.click("#dlg-new [data-close]")
        page.click("#btn-pgn")
        page.fill("#pgn-text", '[Event "Token test"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
        page.click("#form-import button[type=submit]")
        s = wait_for_plies(page, 4)
        assert s["result"] == "0-1" and s["moves"][3]["san"] == "Qh4#"
        assert [g["id"] for g in request(base, "GET", "api/games", token=token)["games"]] == [
            s["id"]
        ]

        page.click("#btn-games")
        page.check("input[name=games-status][value=finished]")
        page.wait_for_selector(f"#games-table button[data-game='{s['id']}']")
        page.locator("#games-table tbody").get_by_role("button", name="Delete").click()
        expect(page.locator("#games-table tbody")).to_contain_text("No games here yet")
        assert request(base, "GET", "api/games", token=token)["games"] == []
        context.close()
        assert errors == [], errors

        # Another browser profile, without the cookie, gets nothing.
        other = browser.new_context()
        response = other.new_page().goto(base + "api/games")
        assert response.status == 401 and "token" in response.json()["error"]
        other.close()
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
