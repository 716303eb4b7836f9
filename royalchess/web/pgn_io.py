"""PGN import/export (:mod:`royalchess.pgn`) and the position record, for the web app."""

from __future__ import annotations

import datetime
import json

from royalchess import pgn, record
from royalchess.board import Board
from royalchess.move import Move
from royalchess.store import GameRecord
from royalchess.web.games import ApiError

__all__ = ["available", "export", "position_record", "read"]


def available() -> bool:
    """Whether PGN import and export are available (they are: ``royalchess.pgn``)."""
    return True


def _player(rec: GameRecord, color: str) -> str:
    who = rec.white if color == "white" else rec.black
    return f"royalchess level {rec.level}" if who == "computer" else "Player"


def _headers(rec: GameRecord, start: Board) -> dict[str, str]:
    saved: dict[str, str] = {}
    try:
        loaded = json.loads(rec.headers or "{}")
        if isinstance(loaded, dict):
            saved = {str(k): str(v) for k, v in loaded.items()}
    except json.JSONDecodeError:
        pass
    date = datetime.date.fromtimestamp(rec.created).strftime("%Y.%m.%d")
    headers = {
        "Event": saved.get("Event", "Casual game"),
        "Site": saved.get("Site", "royalchess"),
        "Date": saved.get("Date", date),
        "Round": saved.get("Round", "-"),
        "White": saved.get("White", _player(rec, "white")),
        "Black": saved.get("Black", _player(rec, "black")),
        "Result": rec.result,
    }
    if rec.variant == "royal":
        headers["Variant"] = "Royal Chess"
    if start.fen() != start.variant_info.start_fen:
        headers["SetUp"] = "1"
        headers["FEN"] = start.fen()
    for key, value in saved.items():
        headers.setdefault(key, value)
    return headers


def export(rec: GameRecord, start: Board, board: Board) -> str:
    """Return the game as PGN text."""
    return pgn.write_game(start, board.move_stack, headers=_headers(rec, start))


def read(text: str) -> tuple[Board, list[Move], str, str | None, dict[str, str]]:
    """Read the first game of a PGN text: start position, moves, result, reason, headers."""
    game = pgn.read_game(text, strict=True)  # a PgnError (a ChessError) names the problem
    if game is None:
        raise ApiError(400, "no game found in the PGN text")
    headers = dict(game.headers)
    board = game.board()
    moves = list(game.mainline_moves())
    result = headers.get("Result", "*")
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
    return board, moves, result, None, headers


def position_record(board: Board) -> dict[str, str | None]:
    """The current position as FEN and, for Royal Chess, as the seed's position record."""
    text = record.format(board) if board.variant == "royal" else None
    return {"fen": board.fen(), "record": text}
