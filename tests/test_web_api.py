"""The web app's JSON API (Starlette's TestClient), the game store, and a crash test.

Every endpoint with good and bad input: bad input is a 4xx JSON answer with a message, and
the game it named is unchanged. The crash test kills a real server with SIGKILL mid-game and
finds every answered move saved after a restart.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_server import free_port, local_client, request, start_server

from royalchess.store import GameStore, default_db_path
from royalchess.web import create_app
from royalchess.web.computer import Computer

ROYAL_START = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"
# White may castle O-O with the King on g1 only after the King's Guard moves first.
ROYAL_CASTLE = "rnbgqkwbnr/pppppppppp/10/10/10/7BN1/PPPPPPPPPP/RNBGQKW2R w KQkq - 0 1"
# White promotes on b8: the kinds captured earlier are offered (no King's Guard: it is on e4).
ROYAL_PROMOTE = "5k4/1P8/10/10/4W5/10/10/5K4 w - - 0 1"
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "games.db"))
    with local_client(app) as test_client:
        yield test_client


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    body = {"mode": "two-players", **options}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def ply_of(client: TestClient, game_id: int) -> int:
    """The number of moves of the game now: what every change must carry as ``ply``."""
    return int(client.get(f"/api/games/{game_id}").json()["ply"])


def act(client: TestClient, game_id: int, action: str, **body: Any) -> Any:
    """POST *action* on the game as it is now (its current ply), as the page does."""
    body.setdefault("ply", ply_of(client, game_id))
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def play(client: TestClient, game_id: int, move: str) -> dict[str, Any]:
    response = act(client, game_id, "move", move=move)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def assert_error(response: Any, status: int, words: str = "") -> None:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert isinstance(message, str) and message
    assert words.lower() in message.lower(), message


# -- games: create, get, list, delete ------------------------------------------------------


def test_new_game_defaults_and_state(client: TestClient) -> None:
    state = new_game(client)
    assert state["variant"] == "chess" and state["files"] == 8
    assert state["turn"] == "white" and state["moves"] == [] and not state["finished"]
    assert len(state["legal"]) == 20
    e4 = next(m for m in state["legal"] if m["uci"] == "e2e4")
    assert e4 == {
        "uci": "e2e4",
        "san": "e4",
        "from": "e2",
        "to": "e4",
        "promotion": None,
        "waived": False,
        "castling": None,
        "guard": None,
        "guard_kind": None,
        "capture": False,
    }
    assert client.get(f"/api/games/{state['id']}").json() == state


def test_new_royal_game(client: TestClient) -> None:
    state = new_game(client, variant="royal", mode="vs-computer", color="black", level=3)
    assert state["fen"] == ROYAL_START and state["files"] == 10
    assert (state["white"], state["black"], state["level"]) == ("computer", "human", 3)
    assert state["computer_to_move"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "xiangqi"}, "unknown variant"),
        ({"mode": "blitz"}, "unknown mode"),
        ({"color": "green"}, "unknown colour"),
        ({"level": 0}, "level"),
        ({"level": 21}, "level"),
        ({"level": "5"}, "must be a int"),
        ({"level": True}, "must be a int"),
        ({"fen": "8/8/8 w - - 0 1"}, "fen"),
        ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}, "field 2"),
        ({"fen": "not a fen", "variant": "auto"}, "invalid fen"),
        ({"record": "7 k,\n0,\nBM"}, ""),
    ],
)
def test_new_game_bad_input(client: TestClient, body: dict[str, Any], words: str) -> None:
    assert_error(client.post("/api/games", json=body), 400, words)
    assert client.get("/api/games").json()["games"] == []


def test_setup_from_fen_and_record(client: TestClient) -> None:
    chess = new_game(client, variant="auto", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert chess["variant"] == "chess" and len(chess["legal"]) == 6
    royal = new_game(client, variant="auto", fen=ROYAL_CASTLE)
    assert royal["variant"] == "royal" and royal["fen"] == ROYAL_CASTLE
    record = client.get(f"/api/games/{royal['id']}/record").json()
    assert record["fen"] == ROYAL_CASTLE and "G'" in record["record"]
    again = new_game(client, record=record["record"])
    assert again["variant"] == "royal" and again["fen"] == ROYAL_CASTLE
    assert client.get(f"/api/games/{chess['id']}/record").json()["record"] is None


def test_list_resume_and_delete(client: TestClient) -> None:
    first = new_game(client)
    second = new_game(client, variant="royal")
    play(client, first["id"], "e4")
    act(client, second["id"], "resign", color="white")
    unfinished = client.get("/api/games?status=unfinished").json()["games"]
    assert [g["id"] for g in unfinished] == [first["id"]] and unfinished[0]["plies"] == 1
    finished = client.get("/api/games?status=finished").json()["games"]
    assert [g["id"] for g in finished] == [second["id"]]
    assert finished[0]["reason"] == "Black wins by resignation"
    assert len(client.get("/api/games").json()["games"]) == 2
    assert_error(client.get("/api/games?status=lost"), 400, "unknown status")
    assert client.delete(f"/api/games/{first['id']}").json() == {"deleted": True}
    assert_error(client.get(f"/api/games/{first['id']}"), 404, "no game")
    assert_error(client.delete(f"/api/games/{first['id']}"), 404, "no game")


@pytest.mark.parametrize("path", ["/api/games/999", "/api/games/abc", "/api/games/-1/legal"])
def test_unknown_game(client: TestClient, path: str) -> None:
    assert_error(client.get(path), 404, "no game")
    assert_error(client.post("/api/games/999/move", json={"move": "e4", "ply": 0}), 404, "no game")
    assert_error(client.post("/api/games/999/takeback", json={"ply": 0}), 404, "no game")
    assert_error(client.get("/api/games/999/hint"), 404, "no game")
    assert_error(client.get("/api/games/999/pgn"), 404, "no game")


def test_unknown_route_and_method(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), 404)
    assert_error(client.put("/api/games"), 405)


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "chessground" in page.text
    for name in (
        "app.js",
        "board.js",
        "api.js",
        "choose.js",
        "style.css",
        "vendor/chessgroundx.js",
        "vendor/chessground.base.css",
        "vendor/LICENSE.chessgroundx",
        "pieces/wG.svg",
        "pieces/bW.svg",
    ):
        assert client.get(f"/static/{name}").status_code == 200, name
    info = client.get("/api/info").json()
    assert [v["name"] for v in info["variants"]] == ["chess", "royal"]
    assert info["modes"] == ["vs-computer", "two-players", "computer-vs-computer"]


# -- moves ----------------------------------------------------------------------------------


def test_moves_in_uci_and_san_and_the_move_list(client: TestClient) -> None:
    game = new_game(client)
    play(client, game["id"], "e2e4")
    state = play(client, game["id"], "e5")
    state = play(client, game["id"], "Nf3")
    assert [m["san"] for m in state["moves"]] == ["e4", "e5", "Nf3"]
    assert [m["uci"] for m in state["moves"]] == ["e2e4", "e7e5", "g1f3"]
    assert state["moves"][0]["squares"] == ["e2", "e4"]
    assert state["moves"][-1]["fen"] == state["fen"]
    legal = client.get(f"/api/games/{game['id']}/legal").json()
    assert legal["turn"] == "black" and legal["legal"] == state["legal"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"move": "e2e5"}, 400, "there is no piece on e2."),
        ({"move": "Ke2"}, 400, "the king on e8 cannot move to e2: a king moves one square"),
        ({"move": "Zz9"}, 400, ""),
        ({"move": "e2e9"}, 400, ""),
        ({"move": ""}, 400, "no move"),
        ({"move": 42}, 400, "must be a str"),
        ({}, 400, "no move"),
        ([], 400, "must be an object"),
    ],
)
def test_bad_moves_leave_the_game_unchanged(
    client: TestClient, body: Any, status: int, words: str
) -> None:
    game = new_game(client)
    play(client, game["id"], "e4")
    before = client.get(f"/api/games/{game['id']}").json()
    if isinstance(body, dict):
        body = {**body, "ply": 1}
    assert_error(client.post(f"/api/games/{game['id']}/move", json=body), status, words)
    assert client.get(f"/api/games/{game['id']}").json() == before


@pytest.mark.parametrize("raw", [b"{bad json", b"\xff\xfe", b'{"move": "e4"'])
def test_malformed_json(client: TestClient, raw: bytes) -> None:
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/move", content=raw, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "malformed JSON")
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []
    assert_error(client.post("/api/games", content=raw), 400, "malformed JSON")


def test_checkmate_ends_the_game(client: TestClient) -> None:
    game = new_game(client)
    for move in FOOLS_MATE:
        state = play(client, game["id"], move)
    assert state["finished"] and state["result"] == "0-1"
    assert state["reason"] == "Black wins by checkmate" and state["check"] == "e1"
    assert state["legal"] == [] and state["moves"][-1]["san"] == "Qh4#"
    assert_error(act(client, game["id"], "move", move="a3"), 409, "over")
    assert_error(act(client, game["id"], "resign"), 409, "over")
    assert_error(client.get(f"/api/games/{game['id']}/hint"), 409, "over")
    assert_error(client.get(f"/api/games/{game['id']}/evaluation"), 409, "over")


def test_royal_castling_with_a_guard_move_first(client: TestClient) -> None:
    game = new_game(client, variant="auto", fen=ROYAL_CASTLE)
    king_moves = [m for m in game["legal"] if m["from"] == "f1"]
    to_g1 = [m for m in king_moves if m["to"] == "g1"]
    assert {m["uci"] for m in to_g1} == {"g1h1f1g1j1f1", "g1i1f1g1j1f1"}
    first = next(m for m in to_g1 if m["uci"] == "g1h1f1g1j1f1")
    assert first["castling"] == {"side": "king", "rook_from": "j1", "rook_to": "f1"}
    assert first["guard"] == {"from": "g1", "to": "h1"} and first["guard_kind"] == "major"
    assert first["san"] == "Wh1_O-O:g1"
    state = play(client, game["id"], "g1h1f1g1j1f1")
    assert state["moves"][0]["san"] == "Wh1_O-O:g1"
    assert state["moves"][0]["squares"] == ["g1", "h1", "f1", "g1", "j1", "f1"]
    assert state["board_fen"].endswith("/RNBGQRKW2")
    # The King's move alone is not castling on this board; the coach says how to write it.
    other = new_game(client, variant="auto", fen=ROYAL_CASTLE)
    response = act(client, other["id"], "move", move="f1h1")
    assert_error(response, 400, "f1h1j1f1")
    assert play(client, other["id"], "O-O:h1")["moves"][0]["uci"] == "f1h1j1f1"


def test_royal_promotion_choices_and_guard_lines(client: TestClient) -> None:
    game = new_game(client, variant="auto", fen=ROYAL_PROMOTE)
    promotions = {(m["promotion"], m["waived"]) for m in game["legal"] if m["from"] == "b7"}
    assert promotions == {
        ("q", False),
        ("r", False),
        ("b", False),
        ("n", False),
        ("g", False),
        ("g", True),
    }
    kinds = {m["to"]: m["guard_kind"] for m in game["legal"] if m["from"] == "e4"}
    assert kinds["e7"] == "major" and kinds["b4"] == "major"
    assert kinds["d5"] == "minor" and kinds["b1"] == "minor"
    assert "c6" not in kinds  # a minor line ends on the first square over the centre line
    state = play(client, game["id"], "b7b8g")
    assert state["queen_powers"] == ["b8"] and state["check"] == "f8"
    assert state["moves"][0]["san"] == "b8=G+" and state["material"]["diff"] == 8
    waived = new_game(client, variant="auto", fen=ROYAL_PROMOTE)
    state = play(client, waived["id"], "b8=G-")
    assert state["queen_powers"] == [] and state["check"] is None


# -- takeback, resign, draw, settings -------------------------------------------------------


def test_takeback(client: TestClient) -> None:
    game = new_game(client)
    assert_error(act(client, game["id"], "takeback"), 409, "no move")
    for move in ("e4", "e5", "Nf3"):
        play(client, game["id"], move)
    state = act(client, game["id"], "takeback").json()
    assert [m["san"] for m in state["moves"]] == ["e4", "e5"]
    state = act(client, game["id"], "takeback", plies=2).json()
    assert state["moves"] == [] and state["turn"] == "white"
    assert_error(act(client, game["id"], "takeback", plies=0), 400, "plies")
    for move in FOOLS_MATE:
        play(client, game["id"], move)
    state = act(client, game["id"], "takeback").json()
    assert not state["finished"] and state["result"] == "*" and len(state["moves"]) == 3


def test_takeback_against_the_computer_goes_back_to_the_players_turn(
    client: TestClient,
) -> None:
    game = new_game(client, mode="vs-computer", level=1)
    play(client, game["id"], "e4")
    assert_error(act(client, game["id"], "move", move="d4"), 409, "computer's turn")
    state = act(client, game["id"], "computer-move").json()
    assert len(state["moves"]) == 2 and state["computer_move"] == state["moves"][1]["uci"]
    assert not state["computer_to_move"] and state["ply"] == 2
    # the human's own move only on request (the page's "Computer, move" button)
    assert_error(act(client, game["id"], "computer-move"), 409, "not the computer's turn")
    assert act(client, game["id"], "computer-move", for_human=True).json()["ply"] == 3
    state = act(client, game["id"], "takeback").json()
    assert len(state["moves"]) == 2 and state["turn"] == "white"
    state = act(client, game["id"], "takeback").json()
    assert state["moves"] == [] and state["turn"] == "white"
    black = new_game(client, mode="vs-computer", color="black", level=1)
    state = act(client, black["id"], "computer-move").json()
    assert len(state["moves"]) == 1
    assert_error(act(client, black["id"], "takeback"), 409, "no move of yours")


def test_resign(client: TestClient) -> None:
    game = new_game(client, mode="vs-computer", color="black")
    assert_error(act(client, game["id"], "resign", color="red"), 400, "colour")
    assert_error(client.post(f"/api/games/{game['id']}/resign", json={}), 400, "'ply' is required")
    state = act(client, game["id"], "resign").json()
    assert state["result"] == "1-0" and state["reason"] == "White wins by resignation"
    assert state["finished"] and state["legal"] == []


def test_claim_draw(client: TestClient) -> None:
    game = new_game(client)
    assert_error(act(client, game["id"], "claim-draw"), 409, "no draw")
    for move in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"):
        state = play(client, game["id"], move)
    assert state["can_claim_draw"]  # Ng8 would repeat the start position a third time
    state = act(client, game["id"], "claim-draw").json()
    assert state["result"] == "1/2-1/2"
    assert state["reason"] == "Draw by threefold repetition (claimed)"


def test_settings(client: TestClient) -> None:
    game = new_game(client)
    state = act(client, game["id"], "settings", mode="vs-computer", color="black", level=7).json()
    assert (state["mode"], state["white"], state["black"], state["level"]) == (
        "vs-computer",
        "computer",
        "human",
        7,
    )
    assert_error(act(client, game["id"], "settings", level=30), 400, "level")
    assert_error(act(client, game["id"], "settings", mode="x"), 400, "mode")


# -- computer, hint, evaluation, threats -----------------------------------------------------


def test_computer_against_computer(client: TestClient) -> None:
    game = new_game(client, variant="royal", mode="computer-vs-computer", level=1)
    assert_error(act(client, game["id"], "move", move="e4"), 409, "computer's turn")
    for ply in range(1, 5):
        state = act(client, game["id"], "computer-move").json()
        assert len(state["moves"]) == ply and state["computer_to_move"]


def test_hint_and_evaluation(client: TestClient) -> None:
    game = new_game(client, variant="auto", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["uci"] == "a1a8" and hint["san"] == "Ra8#" and hint["arrows"] == [["a1", "a8"]]
    evaluation = client.get(f"/api/games/{game['id']}/evaluation").json()
    assert evaluation["mate"] == 1 and evaluation["pv"][0] == "Ra8#"
    black = new_game(client, variant="auto", fen="r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1")
    evaluation = client.get(f"/api/games/{black['id']}/evaluation").json()
    assert evaluation["mate"] == -1  # White's point of view: Black mates


def test_engine_unavailable_is_a_503(tmp_path: Path) -> None:
    def broken(level: int) -> Any:
        from royalchess.web.computer import EngineUnavailableError

        raise EngineUnavailableError("the engine is not available: test")

    app = create_app(str(tmp_path / "g.db"), computer=Computer(broken))
    with local_client(app) as client:
        game = new_game(client, mode="vs-computer", color="black")
        assert_error(act(client, game["id"], "computer-move"), 503, "engine")
        assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_threats(client: TestClient) -> None:
    # Black's knight on c6 hangs: White's pawn on d5 is worth less, defended or not.
    game = new_game(
        client, variant="auto", fen="r1bqkbnr/pppp1ppp/2n5/3P4/8/8/PPP2PPP/RNBQKBNR b KQkq - 0 3"
    )
    threats = client.get(f"/api/games/{game['id']}/threats").json()
    assert threats["turn"] == "black"
    assert [(h["square"], h["piece"], h["by"]) for h in threats["hanging"]] == [
        ("c6", "n", ["d5c6"])
    ]
    quiet = new_game(client)
    assert client.get(f"/api/games/{quiet['id']}/threats").json()["hanging"] == []
    alone = new_game(client, variant="auto", fen="4k3/8/8/3p4/8/2N5/8/4K3 b - - 0 1")
    hanging = client.get(f"/api/games/{alone['id']}/threats").json()["hanging"]
    assert [h["square"] for h in hanging] == ["d5"]  # an undefended pawn
    # A defended piece attacked only by pieces worth as much or more does not hang.
    defended = new_game(client, variant="auto", fen="4k3/8/4p3/3p4/8/2N5/8/4K3 b - - 0 1")
    assert client.get(f"/api/games/{defended['id']}/threats").json()["hanging"] == []


# -- PGN -------------------------------------------------------------------------------------


def test_pgn_export(client: TestClient) -> None:
    game = new_game(client, variant="royal")
    for move in ("e4", "e5", "Gf3"):
        play(client, game["id"], move)
    response = client.get(f"/api/games/{game['id']}/pgn")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-chess-pgn")
    text = response.text
    assert '[Result "*"]' in text and "Royal Chess" in text
    assert "1. e4 e5 2. Gf3" in text


def test_pgn_import(client: TestClient) -> None:
    pgn = pytest.importorskip("royalchess.pgn")
    assert pgn is not None
    text = '[Event "Test"]\n[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    response = client.post("/api/import", json={"pgn": text})
    assert response.status_code == 201, response.text
    state = response.json()
    assert [m["san"] for m in state["moves"]] == ["f3", "e5", "g4", "Qh4#"]
    assert state["result"] == "0-1" and state["finished"]
    exported = client.get(f"/api/games/{state['id']}/pgn").text
    assert '[White "A"]' in exported and "2. g4 Qh4#" in exported


@pytest.mark.parametrize(
    ("body", "status"),
    [({}, 400), ({"pgn": "   "}, 400), ({"pgn": 5}, 400)],
)
def test_pgn_import_bad_input(client: TestClient, body: Any, status: int) -> None:
    assert_error(client.post("/api/import", json=body), status)


def test_broken_pgn(client: TestClient) -> None:
    pytest.importorskip("royalchess.pgn")
    for text in ("1. e4 e5 2. Ke3 Qh4 *", '[FEN "not a fen"]\n\n1. e4 *', "1. Nf9 *"):
        response = client.post("/api/import", json={"pgn": text})
        assert 400 <= response.status_code < 500, (text, response.text)
        assert response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


# -- the store -------------------------------------------------------------------------------


def test_store_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "royalchess" / "games.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "royalchess" / "games.db"


def test_store_uses_wal_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "games.db"
    store = GameStore(path)
    game_id = store.create_game(
        "chess", "start", mode="vs-computer", white="human", black="computer", level=5
    )
    store.append_move(game_id, 0, "e2e4")
    store.append_move(game_id, 1, "e7e5")
    store.truncate(game_id, 1, ply=2)
    store.append_move(game_id, 1, "c7c5")  # a move replayed after a takeback
    mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
    store.close()
    assert mode == "wal"
    again = GameStore(path)
    record = again.get(game_id)
    assert record.moves == ["e2e4", "c7c5"] and record.level == 5 and not record.finished
    again.set_result(game_id, "1-0", "resignation", ply=2)
    assert again.get(game_id).finished
    again.truncate(game_id, 1, ply=2)
    assert again.get(game_id).moves == ["e2e4"] and not again.get(game_id).finished
    again.close()


# -- the server as a process: kill -9 and restart -------------------------------------------


def legal_or_first(state: dict[str, Any], move: str) -> str:
    """*move* if the game *state* allows it, else its first legal move: level 1 answers at
    random (an unseeded engine), and a check or a blocking piece can rule a planned move out."""
    legal = [m["uci"] for m in state["legal"]]
    assert legal, "the game ended early"
    return move if move in legal else legal[0]


def test_kill_9_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port, db)
    try:
        assert server.stdout is not None
        banner = server.stdout.readline().decode()
        assert f"http://127.0.0.1:{port}/" in banner
        game = request(
            base, "POST", "/api/games", {"variant": "royal", "mode": "vs-computer", "level": 1}
        )
        played = []
        state = game
        for ply, move in ((0, "e2e4"), (2, "d2d4"), (4, "c2c3")):
            path = f"/api/games/{game['id']}"
            move = legal_or_first(state, move)
            state = request(base, "POST", f"{path}/move", {"move": move, "ply": ply})
            state = request(base, "POST", f"{path}/computer-move", {"ply": ply + 1})
            played = [m["uci"] for m in state["moves"]]
        other = request(base, "POST", "/api/games", {"mode": "two-players"})
        request(base, "POST", f"/api/games/{other['id']}/move", {"move": "e4", "ply": 0})
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    assert len(played) == 6
    server = start_server(port, db)
    try:
        state = request(base, "GET", f"/api/games/{game['id']}")
        assert [m["uci"] for m in state["moves"]] == played
        assert state["turn"] == "white" and not state["finished"]
        unfinished = request(base, "GET", "/api/games?status=unfinished")["games"]
        assert {g["id"] for g in unfinished} == {game["id"], other["id"]}
        move = legal_or_first(state, "b2b3")
        state = request(base, "POST", f"/api/games/{game['id']}/move", {"move": move, "ply": 6})
        assert len(state["moves"]) == 7
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)


def test_command_line_serves_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from royalchess import cli
    from royalchess.web import server

    calls: list[tuple[Any, ...]] = []

    def fake_serve(
        host: str,
        port: int,
        db: str | None,
        open_browser: bool = True,
        *,
        token: str | None = None,
        max_body: int = 0,
        threads: int = 1,
    ) -> int:
        calls.append((host, port, db, open_browser, token, max_body, threads))
        return 0

    monkeypatch.setattr(server, "serve", fake_serve)
    assert cli.main([]) == 0
    assert cli.main(["serve", "--port", "8123", "--db", "x.db", "--no-browser"]) == 0
    assert cli.main(["serve", "--token", "s3cret-token", "--max-body", "5000"]) == 0
    # without the command word, options go to serve
    assert cli.main(["--port", "8124", "--threads", "2", "--no-browser"]) == 0
    assert calls == [
        ("127.0.0.1", 8000, None, True, None, 1_000_000, 1),
        ("127.0.0.1", 8123, "x.db", False, None, 1_000_000, 1),
        ("127.0.0.1", 8000, None, True, "s3cret-token", 5000, 1),
        ("127.0.0.1", 8124, None, False, None, 1_000_000, 2),
    ]


@pytest.mark.parametrize("value", ["0", "65", "two", "-1", "2.5", "", "\u00b2", "9" * 5000])
def test_bad_thread_counts_are_refused_by_name(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from royalchess import cli

    for argv in (["--threads", value], ["serve", "--threads", value]):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "argument --threads: expected a whole number of threads from 1 to 64" in err


def test_serve_gives_its_computer_the_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    from royalchess.web import server

    made: list[Any] = []

    class FakeServer:
        def __init__(self, config: Any) -> None:
            made.append(config.app)

        def run(self) -> None:
            pass

    def recording_app(**kwargs: Any) -> Any:
        made.append(kwargs["computer"])
        return object()

    monkeypatch.setattr(uvicorn, "Server", FakeServer)
    monkeypatch.setattr("royalchess.web.app.create_app", recording_app)
    assert server.serve("127.0.0.1", 8000, str(tmp_path / "g.db"), False, threads=3) == 0
    assert made[0].threads == 3


def test_computer_searches_on_its_threads() -> None:
    from royalchess.board import Board
    from royalchess.engine import Engine

    engines: list[Engine] = []

    def factory(level: int) -> Engine:
        engines.append(Engine(level=level))
        return engines[-1]

    computer = Computer(factory, threads=2)
    board = Board()
    assert computer.hint(board) in board.legal_moves
    assert computer.play(board, 20) in board.legal_moves
    assert computer.play(board, 5) in board.legal_moves
    assert [e.threads for e in engines] == [2]  # one engine, reused, on two threads
    assert Computer().threads == 1
    for bad in (0, 65, 2.0, True, "2"):
        with pytest.raises(ValueError, match="threads must be an int from 1 to 64"):
            Computer(threads=bad)  # type: ignore[arg-type]
