"""Live analysis (server-sent events) and game review, through the API.

The stream runs under a real uvicorn server (the test client does not stream): it sends at
least two updates, its engine search really ends when the client goes away or when the same
tab opens another stream, and a position tried on the analysis board never touches the
game. The review of a prepared game finds its known blunder, and its annotated PGN reads in
python-chess with the evaluations and the NAGs.
"""

from __future__ import annotations

import http.client
import io
import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import chess
import chess.pgn
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from web_server import local_client, serve_in_thread

from royalchess.engine import Limit
from royalchess.web import create_app

WAIT = 20.0
# The scholar's mate: 3... Nf6?? lets 4. Qxf7# in; the game's known blunder.
SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
BLUNDER_PLY = 6
CHEAP = Limit(depth=8)  # depth 4 finds the blunder, but below 7 other moves are judged noisily


@pytest.fixture()
def app(tmp_path: Path) -> Starlette:
    # A long bound: a search that ends in these tests ends because it was stopped.
    return create_app(
        str(tmp_path / "games.db"),
        live={"seconds": 120.0, "interval": 0.05},
        review_limit=CHEAP,
    )


@pytest.fixture()
def client(app: Starlette) -> Iterator[TestClient]:
    with local_client(app) as test_client:
        yield test_client


class Stream:
    """One ``GET /api/analysis`` read event by event, as EventSource reads it."""

    def __init__(self, port: int, **query: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        self.conn.request("GET", "/api/analysis?" + urlencode(query))
        self.response = self.conn.getresponse()

    def next(self) -> tuple[str, Any]:
        """The next event: its name and its data."""
        name, data = "message", ""
        while True:
            line = self.response.readline().decode()
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if not line:
                if data:
                    return name, json.loads(data)
                continue
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data += line[6:]

    def close(self) -> None:
        self.conn.close()


def wait_until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def new_game(client: TestClient, moves: Sequence[str] = ()) -> dict[str, Any]:
    state = client.post("/api/games", json={"mode": "two-players"}).json()
    for uci in moves:
        answer = client.post(
            f"/api/games/{state['id']}/move", json={"move": uci, "ply": state["ply"]}
        )
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state  # type: ignore[no-any-return]


# -- the analysis board's positions -------------------------------------------------------


def test_a_position_with_its_moves_in_san_and_its_legal_moves(client: TestClient) -> None:
    answer = client.get("/api/position", params={"moves": "e2e4 e7e5 g1f3"})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert [m["san"] for m in view["moves"]] == ["e4", "e5", "Nf3"]
    assert view["turn"] == "black" and view["last"] == ["g1", "f3"] and view["check"] is None
    assert view["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert len(view["legal"]) == 29
    typed = client.get("/api/position", params={"moves": "e4 e5 Nf3"}).json()  # SAN too
    assert typed["moves"] == view["moves"] and typed["fen"] == view["fen"]
    royal = client.get("/api/position", params={"variant": "royal", "moves": "e2e4"}).json()
    assert royal["files"] == 10 and royal["moves"][0]["san"] == "e4"


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"moves": "e2e5"}, "move 1 ('e2e5') is not legal"),
        ({"fen": "8/8/8 w - - 0 1"}, "not a position"),
        ({"variant": "xiangqi"}, "not a position"),
        ({"moves": " ".join(["g1f3", "g8f6", "f3g1", "f6g8"] * 251)}, "too many moves"),
    ],
)
def test_a_bad_position_is_a_400(client: TestClient, query: dict[str, str], words: str) -> None:
    answer = client.get("/api/position", params=query)
    assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    answer = client.get("/api/analysis", params={**query, "tab": "t1"})
    assert answer.status_code == 400 and words in answer.json()["error"], answer.text


@pytest.mark.parametrize(
    ("query", "words"),
    [({}, "tab id is required"), ({"tab": "a b"}, "tab id"), ({"tab": "t", "lines": "4"}, "lines")],
)
def test_a_stream_needs_a_tab_and_at_most_three_lines(
    client: TestClient, query: dict[str, str], words: str
) -> None:
    answer = client.get("/api/analysis", params=query)
    assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def test_another_site_cannot_start_a_search(client: TestClient) -> None:
    for site in ("cross-site", "same-site"):
        answer = client.get("/api/analysis", params={"tab": "t"}, headers={"Sec-Fetch-Site": site})
        assert answer.status_code == 403 and "refused" in answer.json()["error"], answer.text
    assert client.app.state.analyses.running() == 0  # type: ignore[attr-defined]


def test_moves_tried_in_analysis_never_change_the_game(app: Starlette, client: TestClient) -> None:
    game = new_game(client, ["e2e4", "e7e5"])
    before = client.get(f"/api/games/{game['id']}").json()
    tried = "e2e4 e7e5 g1f3 b8c6 f1b5"
    view = client.get("/api/position", params={"fen": game["start_fen"], "moves": tried}).json()
    assert [m["san"] for m in view["moves"]][2:] == ["Nf3", "Nc6", "Bb5"]
    with serve_in_thread(app, WAIT) as port:
        stream = Stream(port, fen=game["start_fen"], moves=tried, tab="tab-a", lines="1")
        assert stream.next()[0] == "start"
        assert stream.next()[0] == "lines"
        stream.close()
        wait_until(lambda: app.state.analyses.running() == 0, "the search did not stop")
    assert client.get(f"/api/games/{game['id']}").json() == before


# -- the stream ---------------------------------------------------------------------------


def test_the_stream_sends_lines_and_stops_its_search_when_the_client_goes_away(
    app: Starlette,
) -> None:
    with serve_in_thread(app, WAIT) as port:
        stream = Stream(port, moves="e2e4 e7e5", tab="tab-1", lines="3")
        name, start = stream.next()
        assert name == "start" and start["turn"] == "white" and start["lines"] == 3
        updates: list[Any] = []
        while len(updates) < 2 or len(updates[-1]["lines"]) < 3:
            name, data = stream.next()
            assert name == "lines", (name, data)
            updates.append(data)
        assert app.state.analyses.running() == 1
        last = updates[-1]
        assert [line["multipv"] for line in last["lines"]] == [1, 2, 3]
        first = [line["uci"][0] for line in last["lines"]]
        assert len(set(first)) == 3  # three different moves
        best = last["lines"][0]
        assert best["arrows"][0] == [best["uci"][0][:2], best["uci"][0][2:4]]
        assert best["depth"] >= 1 and len(best["san"]) == len(best["uci"]) >= 1
        assert (best["cp"] is None) != (best["mate"] is None)
        assert updates[0]["depth"] <= last["depth"]
        stream.close()  # the tab goes away
        # The engine's search returns (running() counts until it has): stopped, not its
        # 120 s bound.
        wait_until(lambda: app.state.analyses.running() == 0, "the search did not stop")


def test_a_new_stream_of_the_same_tab_stops_the_old_search(app: Starlette) -> None:
    with serve_in_thread(app, WAIT) as port:
        old = Stream(port, tab="tab-x", lines="1")
        assert old.next()[0] == "start"
        new = Stream(port, moves="d2d4", tab="tab-x", lines="1")
        assert new.next()[0] == "start"
        name, data = old.next()
        while name == "lines":
            name, data = old.next()
        assert (name, data) == ("done", {"reason": "stopped"})
        assert new.next()[0] == "lines"
        other = Stream(port, tab="tab-y", lines="1")  # another tab: both run
        assert other.next()[0] == "start"
        wait_until(lambda: app.state.analyses.running() == 2, "two tabs, two searches")
        # The page's Stop button (and the close of its EventSource).
        assert json.loads(post(port, "/api/analysis/stop", {"tab": "tab-y"})) == {"stopped": True}
        name, data = other.next()
        while name == "lines":
            name, data = other.next()
        assert (name, data) == ("done", {"reason": "stopped"})
        for stream in (old, new, other):
            stream.close()
        wait_until(lambda: app.state.analyses.running() == 0, "the searches did not stop")


def post(port: int, path: str, body: Any) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    text = conn.getresponse().read().decode()
    conn.close()
    return text


def test_a_search_ends_at_its_bound_and_a_finished_game_has_nothing_to_search(
    tmp_path: Path,
) -> None:
    app = create_app(str(tmp_path / "games.db"), live={"depth": 3, "interval": 0.0})
    with serve_in_thread(app, WAIT) as port:
        stream = Stream(port, tab="t", lines="2")
        events = [stream.next()]
        while events[-1][0] != "done":
            events.append(stream.next())
        stream.close()
        assert events[-1][1] == {"reason": "limit"}
        assert max(data["depth"] for name, data in events if name == "lines") == 3
        mated = Stream(port, moves="f2f3 e7e5 g2g4 d8h4", tab="t")
        assert mated.next()[1]["lines"] == 0
        assert mated.next() == ("done", {"reason": "over"})
        mated.close()
    wait_until(lambda: app.state.analyses.running() == 0, "a search is left running")


# -- the review ---------------------------------------------------------------------------


def reviewed(client: TestClient, game_id: int) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/review", json={})
    assert answer.status_code == 200, answer.text
    status = answer.json()
    assert status["total"] == len(SCHOLAR) + 1
    while status["state"] == "running":
        time.sleep(0.05)
        status = client.get(f"/api/games/{game_id}/review").json()
        assert 0 <= status["done"] <= status["total"]
    assert status["state"] == "done", status
    return status  # type: ignore[no-any-return]


def test_the_review_marks_the_known_blunder(client: TestClient) -> None:
    game = new_game(client, SCHOLAR)
    assert game["finished"] and game["result"] == "1-0"
    review = reviewed(client, game["id"])
    assert review["done"] == review["total"] == 8
    moves = review["moves"]
    assert [m["san"] for m in moves] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    blunder = moves[BLUNDER_PLY - 1]
    assert (blunder["judgement"], blunder["nag"], blunder["color"]) == ("Blunder", "??", "black")
    best = blunder["best"]
    assert best["san"] != "Nf6" and best["line"][0] == best["san"]
    assert best["arrows"][-1] == [best["uci"][:2], best["uci"][2:4]]
    assert moves[-1]["judgement"] is None  # the mate is the best move
    assert [m["san"] for m in moves if m["nag"] == "??"] == ["Nf6"]
    assert review["counts"]["black"]["blunder"] == 1 and review["counts"]["white"]["blunder"] == 0
    evals = review["evals"]
    assert len(evals) == 8
    assert evals[6]["mate"] == 1 and evals[6]["chances"] > 0.9  # White mates in one
    assert evals[7] == {"cp": None, "mate": None, "chances": 1.0, "over": True}
    assert review["white_accuracy"] > review["black_accuracy"]
    # Asking again for the same game returns the same review, not a new job.
    again = client.post(f"/api/games/{game['id']}/review", json={}).json()
    assert again == review


def test_the_annotated_pgn_reads_in_python_chess(client: TestClient) -> None:
    game = new_game(client, SCHOLAR)
    reviewed(client, game["id"])
    answer = client.get(f"/api/games/{game['id']}/review/pgn")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/x-chess-pgn")
    parsed = chess.pgn.read_game(io.StringIO(answer.text))
    assert parsed is not None and not parsed.errors
    nodes = list(parsed.mainline())
    assert [n.san() for n in nodes] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    nf6 = nodes[BLUNDER_PLY - 1]
    assert nf6.nags == {chess.pgn.NAG_BLUNDER}
    score = nf6.eval()
    assert score is not None and score.white().mate() == 1
    assert all(n.eval() is not None for n in nodes[:-1]) and nodes[-1].eval() is None
    assert "Blunder." in nf6.comment and "was best" in nf6.comment
    assert len(nf6.parent.variations) == 2  # the better line
    assert parsed.headers["Result"] == "1-0"
    assert float(parsed.headers["WhiteAccuracy"]) > float(parsed.headers["BlackAccuracy"])
    assert parsed.end().board().is_checkmate()
    assert isinstance(parsed.board(), chess.Board)


def test_review_errors(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/review", json={})
    assert answer.status_code == 409 and "no move" in answer.json()["error"]
    answer = client.get(f"/api/games/{game['id']}/review")
    assert answer.status_code == 404 and "not been reviewed" in answer.json()["error"]
    assert client.get(f"/api/games/{game['id']}/review/pgn").status_code == 404
    assert client.post("/api/games/999/review", json={}).status_code == 404
    # A review is a change: JSON only, like every POST.
    answer = client.post(
        f"/api/games/{game['id']}/review", content=b"", headers={"Content-Type": "text/plain"}
    )
    assert answer.status_code == 415
