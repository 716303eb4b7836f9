"""One game, many writers: clients racing on one game never corrupt it.

Threads against the app (two tabs): concurrent computer-move requests (exactly one is played,
the other is refused with 409, no move by the wrong side), a takeback or a delete during the
computer's search (the search stops at once, its late move is refused, no gap), a late change
from a stale ply (409, game unchanged), an abandoned request (its search is stopped). Two
processes: the web app and the terminal game on one database, the browser taking back while
the terminal's computer thinks: the game ends legal and equal to one of the orders the two
clients could have produced. Every game in the store replays legally after every test.

A gated stand-in engine makes "during the search" certain without timing: its search runs
until the test releases it or the app stops it.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pexpect
from web_server import free_port, local_client, serve_in_thread, start_server

from royalchess.board import Board
from royalchess.web import create_app
from royalchess.web.computer import Computer

WAIT = 30.0  # seconds a test waits for an event before it fails (never a measure of speed)


class Gate:
    """Controls the stand-in engines: *started* when a search begins, *stopped* when the
    app stops one; a search ends when *release* is set or it is stopped."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.stopped = threading.Event()
        self.searches = 0


class GatedEngine:
    """The engine interface the computer adapter uses (level, reserve, search, stop); it
    answers the first legal move in UCI order, as a stopped real search answers its best
    move so far."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.level = 20
        self.halt = threading.Event()

    def reserve(self) -> int:
        self.halt.clear()
        return 1

    def stop(self) -> None:
        self.halt.set()
        self.gate.stopped.set()

    def search(self, board: Board, limit: Any, *, strength: bool = True, ticket: Any = None) -> Any:
        self.gate.searches += 1
        self.gate.started.set()
        while not (self.gate.release.is_set() or self.halt.is_set()):
            self.halt.wait(0.005)
        move = min(board.legal_moves, key=lambda m: m.uci())
        return SimpleNamespace(move=move, lines=[])


def gated_app(db: Path, gate: Gate) -> Any:
    return create_app(str(db), computer=Computer(lambda level: GatedEngine(gate)))


def assert_store_replays(db: Path) -> None:
    """Every game in the file replays legally, its plies numbered 0..n-1 (no gap)."""
    conn = sqlite3.connect(db)
    try:
        games = conn.execute("SELECT id, variant, start_fen FROM games").fetchall()
        for game_id, variant, fen in games:
            rows = conn.execute(
                "SELECT ply, uci FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
            assert [ply for ply, _ in rows] == list(range(len(rows))), f"game {game_id}: a gap"
            board = Board(fen, variant=variant)
            for _, uci in rows:
                board.push_uci(uci)
    finally:
        conn.close()


def moves(client: Any, game_id: int) -> list[str]:
    return [m["uci"] for m in client.get(f"/api/games/{game_id}").json()["moves"]]


def in_thread(func: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(func()), daemon=True)
    thread.start()
    return thread, out


def new_game(client: Any, **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=options)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


# -- threads against the app -----------------------------------------------------------------


def test_two_tabs_ask_for_the_computer_move_at_once(tmp_path: Path) -> None:
    # the reported case: the human plays Black; both tabs ask for White's first move
    db, gate = tmp_path / "games.db", Gate()
    with local_client(gated_app(db, gate)) as client:
        game = new_game(client, mode="vs-computer", color="black")
        path = f"/api/games/{game['id']}/computer-move"
        first, answers = in_thread(lambda: client.post(path, json={"ply": 0}))
        assert gate.started.wait(WAIT)
        second = client.post(path, json={"ply": 0})  # while the first one searches
        assert second.status_code == 409, second.text
        assert "already thinking" in second.json()["error"]
        gate.release.set()
        first.join(WAIT)
        assert answers[0].status_code == 200, answers[0].text
        assert moves(client, game["id"]) == ["a2a3"]  # one move, White's, by the computer
        # a third request from the stale page: refused, nothing played for the human
        third = client.post(path, json={"ply": 0})
        assert third.status_code == 409 and "reload" in third.json()["error"]
        fourth = client.post(path, json={"ply": 1})
        assert fourth.status_code == 409 and "not the computer's turn" in fourth.json()["error"]
        assert moves(client, game["id"]) == ["a2a3"] and gate.searches == 1
    assert_store_replays(db)


def test_concurrent_computer_moves_with_the_real_engine(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with local_client(create_app(str(db))) as client:
        game = new_game(client, mode="vs-computer", color="black", level=1)
        path = f"/api/games/{game['id']}/computer-move"
        barrier = threading.Barrier(4)

        def ask() -> Any:
            barrier.wait(WAIT)
            return client.post(path, json={"ply": 0})

        threads = [in_thread(ask) for _ in range(4)]
        for thread, _ in threads:
            thread.join(WAIT)
        codes = sorted(out[0].status_code for _, out in threads)
        assert codes == [200, 409, 409, 409]
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["ply"] == 1 and state["turn"] == "black" and not state["computer_to_move"]
    assert_store_replays(db)


def test_a_takeback_during_the_search_stops_it(tmp_path: Path) -> None:
    db, gate = tmp_path / "games.db", Gate()
    with local_client(gated_app(db, gate)) as client:
        game = new_game(client, mode="vs-computer", color="white")
        base = f"/api/games/{game['id']}"
        assert client.post(f"{base}/move", json={"move": "e4", "ply": 0}).status_code == 200
        search, answers = in_thread(lambda: client.post(f"{base}/computer-move", json={"ply": 1}))
        assert gate.started.wait(WAIT)
        taken = client.post(f"{base}/takeback", json={"ply": 1})  # the other tab
        assert taken.status_code == 200, taken.text
        assert taken.json()["moves"] == [] and taken.json()["turn"] == "white"
        assert gate.stopped.is_set()  # stopped by the takeback itself, not left to run out
        search.join(WAIT)
        late = answers[0]
        assert late.status_code == 409 and "stopped" in late.json()["error"], late.text
        assert moves(client, game["id"]) == []
        # the game goes on from the position after the takeback
        assert client.post(f"{base}/move", json={"move": "d4", "ply": 0}).status_code == 200
        gate.release.set()
        assert client.post(f"{base}/computer-move", json={"ply": 1}).status_code == 200
        assert moves(client, game["id"]) == ["d2d4", "a7a5"]
    assert_store_replays(db)


def test_a_delete_during_the_search_stops_it(tmp_path: Path) -> None:
    db, gate = tmp_path / "games.db", Gate()
    with local_client(gated_app(db, gate)) as client:
        game = new_game(client, mode="vs-computer", color="black")
        other = new_game(client, mode="two-players")
        base = f"/api/games/{game['id']}"
        search, answers = in_thread(lambda: client.post(f"{base}/computer-move", json={"ply": 0}))
        assert gate.started.wait(WAIT)
        # another game is not held up by this game's search
        body = {"move": "e4", "ply": 0}
        assert client.post(f"/api/games/{other['id']}/move", json=body).status_code == 200
        assert client.delete(base).json() == {"deleted": True}
        assert gate.stopped.is_set()
        search.join(WAIT)
        assert answers[0].status_code in (404, 409), answers[0].text
        assert client.get(base).status_code == 404
        assert moves(client, other["id"]) == ["e2e4"]
    assert_store_replays(db)


def test_a_late_change_from_a_stale_ply_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with local_client(create_app(str(db))) as client:
        game = new_game(client, mode="two-players")
        base = f"/api/games/{game['id']}"
        for ply, move in enumerate(["e4", "e5", "Nf3"]):
            assert client.post(f"{base}/move", json={"move": move, "ply": ply}).status_code == 200
        before = client.get(base).json()
        # a tab that still shows the game after 1. e4 e5 (ply 2)
        for action, body in [
            ("move", {"move": "Nc3", "ply": 2}),
            ("move", {"move": "Nc6", "ply": 4}),
            ("takeback", {"ply": 2}),
            ("resign", {"ply": 2}),
            ("claim-draw", {"ply": 2}),
            ("settings", {"level": 9, "ply": 2}),
        ]:
            response = client.post(f"{base}/{action}", json=body)
            assert response.status_code == 409, (action, response.text)
            assert response.json()["error"] == "the game changed in another window: reload"
        assert client.get(base).json() == before
    assert_store_replays(db)


def test_an_abandoned_request_does_not_keep_its_search_running(tmp_path: Path) -> None:
    db, gate = tmp_path / "games.db", Gate()
    app = gated_app(db, gate)
    with serve_in_thread(app, WAIT) as port:
        base = f"http://127.0.0.1:{port}"
        data = json.dumps({"mode": "vs-computer", "color": "black"}).encode()
        req = urllib.request.Request(
            base + "/api/games", data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=WAIT) as response:
            game = json.loads(response.read())
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        conn.request(
            "POST",
            f"/api/games/{game['id']}/computer-move",
            body=json.dumps({"ply": 0}),
            headers={"Content-Type": "application/json"},
        )
        assert gate.started.wait(WAIT)
        conn.close()  # the tab is closed while the computer thinks
        assert gate.stopped.wait(WAIT), "the search of an abandoned request was not stopped"
        # nothing was played, and the game is free for the next request
        with urllib.request.urlopen(f"{base}/api/games/{game['id']}", timeout=WAIT) as response:
            assert json.loads(response.read())["moves"] == []
    assert_store_replays(db)


# -- two processes: the web app and the terminal ---------------------------------------------


def post(base: str, path: str, body: Any) -> tuple[int, Any]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=WAIT) as response:
        return json.loads(response.read())


def test_the_browser_takes_back_while_the_terminal_thinks(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    port = free_port()
    server = start_server(port, db)
    base = f"http://127.0.0.1:{port}"
    args = ["-m", "royalchess", "play", "--plain", "--db", str(db), "--color", "white"]
    terminal = pexpect.spawn(
        sys.executable, [*args, "--level", "20"], encoding="utf-8", timeout=WAIT
    )
    try:
        terminal.expect_exact("1. White> ")
        terminal.sendline("e4")
        # the move is saved before the computer starts its (one second) search
        deadline = time.monotonic() + WAIT
        while not (games := get(base, "/api/games")["games"]) or games[0]["plies"] < 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        game_id = games[0]["id"]
        status, answer = post(base, f"/api/games/{game_id}/takeback", {"ply": 1})
        # Either the takeback came first (the terminal's reply is refused and it says so), or
        # the terminal saved its reply first (the takeback, made at ply 1, is refused).
        if status == 200:
            assert answer["moves"] == []
            # (said so as "... while the computer was thinking: its move is not played", or,
            # had the takeback come before the search began, as the game changed elsewhere)
            terminal.expect_exact("was changed elsewhere (in the browser?)")
            terminal.expect_exact("1. White> ")
            expected: list[str] | None = []
        else:
            assert status == 409, answer
            assert answer["error"] == "the game changed in another window: reload"
            terminal.expect_exact("2. White> ")
            expected = None  # e4 and the computer's reply
        terminal.sendline("quit")
        terminal.expect(pexpect.EOF)
        assert "Traceback" not in (terminal.before or "")
        state = get(base, f"/api/games/{game_id}")
        played = [m["uci"] for m in state["moves"]]
        if expected is None:
            assert len(played) == 2 and played[0] == "e2e4"
        else:
            assert played == expected
    finally:
        terminal.close(force=True)
        server.kill()
        server.wait(timeout=WAIT)
    assert_store_replays(db)


def test_the_terminal_and_the_browser_play_one_game_in_turns(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    port = free_port()
    server = start_server(port, db)
    base = f"http://127.0.0.1:{port}"
    terminal = pexpect.spawn(
        sys.executable,
        ["-m", "royalchess", "play", "--plain", "--db", str(db), "--two-players"],
        encoding="utf-8",
        timeout=WAIT,
    )
    try:
        terminal.expect_exact("1. White> ")
        terminal.sendline("e4")
        terminal.expect_exact("1... Black> ")
        game_id = get(base, "/api/games")["games"][0]["id"]
        # the browser answers for Black; the terminal, still showing 1... Black, tries c5
        assert post(base, f"/api/games/{game_id}/move", {"move": "e5", "ply": 1})[0] == 200
        terminal.sendline("c5")
        terminal.expect_exact("was changed elsewhere (in the browser?): here it is as saved.")
        terminal.expect_exact("2. White> ")
        terminal.sendline("Nf3")
        terminal.expect_exact("2... Black> ")
        # a browser tab still at ply 2 is refused
        status, answer = post(base, f"/api/games/{game_id}/move", {"move": "Nc3", "ply": 2})
        assert status == 409 and "reload" in answer["error"]
        terminal.sendline("quit")
        terminal.expect(pexpect.EOF)
        played = [m["uci"] for m in get(base, f"/api/games/{game_id}")["moves"]]
        assert played == ["e2e4", "e7e5", "g1f3"]
    finally:
        terminal.close(force=True)
        server.kill()
        server.wait(timeout=WAIT)
    assert_store_replays(db)
