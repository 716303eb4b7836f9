"""The coach's endpoint: GET /api/games/{id}/explain?from=..&to=.. says why a click or a drag
is not a legal move in the game's position (royalchess.web.coach over royalchess.explain)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_server import local_client

from royalchess.web import create_app


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with local_client(create_app(str(tmp_path / "games.db"))) as client:
        yield client


def _game(client: TestClient, variant: str) -> int:
    response = client.post("/api/games", json={"variant": variant, "mode": "two-players"})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


@pytest.mark.parametrize(
    ("variant", "frm", "to", "words"),
    [
        (
            "chess",
            "f1",
            "c4",
            "The Bishop on f1 cannot reach c4: your pawn on e2 is in the way.",
        ),
        (
            "royal",
            "f1",
            "h1",
            (
                "Castling is not possible now: the Bishop on h1 and the Knight on i1 stand between "
                "the King and the Rook."
            ),
        ),
        ("chess", "e2", "e4", "'e4' is a legal move."),
    ],
)
def test_explain_a_click(client: TestClient, variant: str, frm: str, to: str, words: str) -> None:
    game = _game(client, variant)
    response = client.get(f"/api/games/{game}/explain", params={"from": frm, "to": to})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {"from": frm, "to": to, "explanation": words}


@pytest.mark.parametrize(
    ("params", "status", "error"),
    [
        ({"from": "e2", "to": "z9"}, 400, "square 'z9' is off the board"),
        ({"from": "e2"}, 400, ""),
    ],
)
def test_explain_bad_squares(
    client: TestClient, params: dict[str, str], status: int, error: str
) -> None:
    game = _game(client, "chess")
    response = client.get(f"/api/games/{game}/explain", params=params)
    assert response.status_code == status, response.text
    assert error in response.json()["error"]


def test_explain_unknown_game(client: TestClient) -> None:
    response = client.get("/api/games/999/explain", params={"from": "e2", "to": "e4"})
    assert response.status_code == 404
