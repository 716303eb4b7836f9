"""Clocks in the web API: time controls chosen and refused, times kept with every move and
across a restart, the pause, the flag (a loss, or FIDE 6.9's draw), and the computer playing
to its clock. The app's clocks run on a fake time source: nothing sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_server import local_client

from royalchess.clock import PAUSE_AFTER
from royalchess.store import GameStore
from royalchess.web import create_app


class FakeTime:
    """A wall clock the test moves by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture()
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture()
def client(tmp_path: Path, fake: FakeTime) -> Iterator[TestClient]:
    with local_client(create_app(str(tmp_path / "games.db"), now=fake)) as test_client:
        yield test_client


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"mode": "two-players", **options})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def post(client: TestClient, state: dict[str, Any], action: str, **body: Any) -> Any:
    return client.post(f"/api/games/{state['id']}/{action}", json={"ply": state["ply"], **body})


def watch(client: TestClient, fake: FakeTime, game_id: int, seconds: float) -> dict[str, Any]:
    """Let *seconds* pass with the page open: it asks about the game every 10 s."""
    clock: dict[str, Any] = {}
    while seconds > 0:
        step = min(10.0, seconds)
        fake.advance(step)
        seconds -= step
        clock = client.get(f"/api/games/{game_id}/clock").json()
    return clock


def move(client: TestClient, state: dict[str, Any], text: str) -> dict[str, Any]:
    response = post(client, state, "move", move=text)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ("5", "not a time control"),
        ("-5+3", "not a time control"),
        ("abc", "not a time control"),
        ("601+0", "at most 10 hours"),
        ("5+700", "at most 10 minutes"),
        ({"base": -1, "increment": 0}, "negative"),
        ({"base": 0, "increment": 5}, "at least 1 s"),
        ({"base": "300"}, "number of seconds"),
        ({"increment": 3}, "base"),
        (17, "the clock must be"),
    ],
)
def test_a_bad_time_control_is_refused(client: TestClient, clock: object, words: str) -> None:
    response = client.post("/api/games", json={"mode": "two-players", "clock": clock})
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []  # no game that cannot end


def test_no_clock_is_as_before(client: TestClient) -> None:
    assert new_game(client)["clock"] is None
    assert new_game(client, clock=None)["clock"] is None
    assert new_game(client, clock="none")["clock"] is None


def test_times_are_kept_with_every_move(client: TestClient, fake: FakeTime) -> None:
    state = new_game(client, clock="5+3")
    control = {"base": 300.0, "increment": 3.0, "text": "5+3"}
    assert state["clock"] == {
        "control": control,
        "white": 300.0,
        "black": 300.0,
        "running": "white",
        "paused": False,
    }
    fake.advance(12)
    state = move(client, state, "e4")
    assert (state["clock"]["white"], state["clock"]["black"]) == (291.0, 300.0)
    assert state["clock"]["running"] == "black"
    fake.advance(7.5)
    state = client.get(f"/api/games/{state['id']}").json()  # the clock counts down as shown
    assert (state["clock"]["white"], state["clock"]["black"]) == (291.0, 292.5)
    fake.advance(2.5)
    state = move(client, state, "e5")
    assert (state["clock"]["white"], state["clock"]["black"]) == (291.0, 293.0)


def test_a_resumed_game_keeps_its_times_after_a_restart(tmp_path: Path, fake: FakeTime) -> None:
    db = str(tmp_path / "games.db")
    with local_client(create_app(db, now=fake)) as client:
        state = new_game(client, clock={"base": 120, "increment": 1})
        fake.advance(10)
        state = move(client, state, "d4")
        fake.advance(4)
        state = move(client, state, "d5")
        fake.advance(3)
        pause = post(client, state, "pause")  # the page was closed
        assert pause.status_code == 200, pause.text
        assert pause.json()["clock"]["paused"] is True
    fake.advance(3600)  # the server is down for an hour, nobody is charged
    with local_client(create_app(db, now=fake)) as client:
        again = client.get(f"/api/games/{state['id']}").json()
        assert again["ply"] == 2
        assert (again["clock"]["white"], again["clock"]["black"]) == (108.0, 117.0)
        assert again["clock"]["paused"] is False  # looking at it starts it again
        fake.advance(5)
        clock = client.get(f"/api/games/{state['id']}/clock").json()
        assert clock["clock"]["white"] == 103.0 and clock["ply"] == 2


def test_a_game_nobody_looks_at_stops_its_clock(client: TestClient, fake: FakeTime) -> None:
    state = new_game(client, clock="10+0")
    fake.advance(5)
    state = move(client, state, "e4")  # the page polls no more (its tab crashed)
    fake.advance(10_000)
    state = client.get(f"/api/games/{state['id']}").json()
    assert state["finished"] is False
    assert state["clock"]["black"] == 600.0 - PAUSE_AFTER


def test_the_flag_loses(client: TestClient, fake: FakeTime) -> None:
    state = new_game(client, clock={"base": 2, "increment": 0})
    state = move(client, state, "e4")
    fake.advance(1.5)
    assert client.get(f"/api/games/{state['id']}/clock").json()["finished"] is False
    fake.advance(0.6)
    # a move sent after the flag fell is refused, and the game is lost on time
    late = post(client, state, "move", move="e5")
    assert late.status_code == 409, late.text
    assert "Black lost on time" in late.json()["error"]
    state = client.get(f"/api/games/{state['id']}").json()
    assert (state["result"], state["termination"], state["reason"]) == (
        "1-0",
        "time forfeit",
        "Black lost on time",
    )
    assert state["clock"] == {
        "control": {"base": 2.0, "increment": 0.0, "text": "2s+0"},
        "white": 2.0,
        "black": 0.0,
        "running": None,
        "paused": True,
    }
    assert state["legal"] == []
    listed = client.get("/api/games").json()["games"][0]
    assert (listed["result"], listed["reason"], listed["clock"]) == (
        "1-0",
        "Black lost on time",
        "2s+0",
    )
    pgn = client.get(f"/api/games/{state['id']}/pgn").text
    assert '[TimeControl "2+0"]' in pgn and '[Termination "time forfeit"]' in pgn


def test_the_flag_is_found_by_any_look_at_the_game(client: TestClient, fake: FakeTime) -> None:
    state = new_game(client, clock={"base": 3, "increment": 0})
    fake.advance(3)
    clock = client.get(f"/api/games/{state['id']}/clock").json()
    assert (clock["finished"], clock["result"], clock["reason"]) == (
        True,
        "0-1",
        "White lost on time",
    )


def test_the_flag_against_a_lone_king_draws(client: TestClient, fake: FakeTime) -> None:
    # White (King and Rook) runs out of time; Black has a lone King: it cannot mate
    state = new_game(client, fen="8/8/8/4k3/8/8/8/R3K3 w - - 0 1", clock="1+0")
    assert watch(client, fake, state["id"], 61)["finished"] is True
    state = client.get(f"/api/games/{state['id']}").json()
    assert (state["result"], state["termination"], state["reason"]) == (
        "1/2-1/2",
        "time out, insufficient material",
        "Draw: time out, insufficient material",
    )


def test_the_flag_in_royal_chess_with_a_guard_loses(client: TestClient, fake: FakeTime) -> None:
    # Black's flag falls; White has a King and a Guard, which can mate (rule 7)
    fen = "10/10/10/5k4/10/10/10/4KG4 b - - 0 1"
    state = new_game(client, variant="royal", fen=fen, clock="1+0")
    watch(client, fake, state["id"], 60)
    state = client.get(f"/api/games/{state['id']}").json()
    assert (state["result"], state["reason"]) == ("1-0", "Black lost on time")


def test_pause_needs_the_ply_and_a_finished_game_is_not_paused_again(
    client: TestClient, fake: FakeTime
) -> None:
    state = new_game(client, clock="1+0")
    response = client.post(f"/api/games/{state['id']}/pause", json={})
    assert response.status_code == 400 and "ply" in response.json()["error"]
    assert post(client, {**state, "ply": 3}, "pause").status_code == 409
    assert post(client, state, "resign").status_code == 200
    assert post(client, state, "pause").json()["finished"] is True
    untimed = new_game(client)
    assert post(client, untimed, "pause").json()["clock"] is None


def test_a_takeback_keeps_the_times(client: TestClient, fake: FakeTime) -> None:
    state = new_game(client, clock="3+2")
    fake.advance(10)
    state = move(client, state, "e4")
    fake.advance(5)
    response = post(client, state, "takeback")
    assert response.status_code == 200, response.text
    clock = response.json()["clock"]
    assert (clock["white"], clock["black"], clock["running"]) == (172.0, 175.0, "white")


class ClockComputer:
    """A computer that plays the first legal move and notes the clocks it was given."""

    def __init__(self) -> None:
        self.clocks: list[Any] = []

    def play(self, board: Any, level: int, **where: Any) -> Any:
        self.clocks.append(where.get("clock"))
        return next(iter(board.legal_moves))

    def stop(self, game: int) -> int:
        return 0

    def cancel(self, ticket: Any) -> None:
        pass


def test_the_computer_plays_to_its_clock(tmp_path: Path, fake: FakeTime) -> None:
    computer = ClockComputer()
    app = create_app(str(tmp_path / "games.db"), now=fake, computer=computer)  # type: ignore[arg-type]
    with local_client(app) as client:
        state = new_game(client, mode="vs-computer", color="white", clock="5+3", level=1)
        fake.advance(20)
        state = move(client, state, "e4")
        fake.advance(1)
        response = post(client, state, "computer-move")
        assert response.status_code == 200, response.text
        assert computer.clocks == [{"wtime": 283.0, "btime": 299.0, "winc": 3.0, "binc": 3.0}]
        clock = response.json()["clock"]
        assert (clock["white"], clock["black"]) == (283.0, 302.0)
        untimed = new_game(client, mode="vs-computer", color="black", level=1)
        assert post(client, untimed, "computer-move").status_code == 200
        assert computer.clocks[-1] is None  # no clock: the level's own time per move


def test_the_real_computer_moves_within_a_short_clock(tmp_path: Path) -> None:
    """The engine's own time management with a 2-second clock: a move, and time left."""
    store = GameStore(tmp_path / "games.db")
    with local_client(create_app(store=store)) as client:
        state = new_game(
            client, mode="vs-computer", color="black", clock={"base": 2, "increment": 0}, level=20
        )
        response = post(client, state, "computer-move")
        assert response.status_code == 200, response.text
        clock = response.json()["clock"]
        assert response.json()["ply"] == 1 and not response.json()["finished"]
        assert 0.5 < clock["white"] < 2.0 and clock["running"] == "black"


class SlowComputer(ClockComputer):
    """Thinks for *seconds* of the fake clock before it answers."""

    def __init__(self, fake: FakeTime, seconds: float) -> None:
        super().__init__()
        self.fake, self.seconds = fake, seconds

    def play(self, board: Any, level: int, **where: Any) -> Any:
        self.fake.advance(self.seconds)
        return super().play(board, level, **where)


def test_a_computer_that_thinks_past_its_time_loses(tmp_path: Path, fake: FakeTime) -> None:
    computer = SlowComputer(fake, 61)  # longer than the pause after the last look, too
    app = create_app(str(tmp_path / "games.db"), now=fake, computer=computer)  # type: ignore[arg-type]
    with local_client(app) as client:
        state = new_game(client, mode="vs-computer", color="black", clock="1+0", level=1)
        response = post(client, state, "computer-move")
        assert response.status_code == 409, response.text
        assert "White lost on time" in response.json()["error"]
        state = client.get(f"/api/games/{state['id']}").json()
        assert (state["ply"], state["result"], state["reason"]) == (0, "0-1", "White lost on time")


def test_another_sites_page_cannot_start_a_paused_clock(client: TestClient, fake: FakeTime) -> None:
    """A GET from another site's page (an <img> naming the URL) is no sign of life: the game
    stays paused; the app's own page looking at it starts the clock."""
    state = new_game(client, clock="5+0")
    assert post(client, state, "pause").json()["clock"]["paused"] is True
    for site in ("cross-site", "same-site"):
        for path in ("", "/clock"):
            answer = client.get(f"/api/games/{state['id']}{path}", headers={"Sec-Fetch-Site": site})
            assert answer.status_code == 200 and answer.json()["clock"]["paused"] is True
    fake.advance(100)
    own = client.get(f"/api/games/{state['id']}", headers={"Sec-Fetch-Site": "same-origin"})
    assert own.json()["clock"]["paused"] is False and own.json()["clock"]["white"] == 300.0
