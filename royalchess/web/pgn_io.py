"""PGN import/export (:mod:`royalchess.pgn`) and the position record, for the web app."""

from __future__ import annotations

from royalchess import pgn, record
from royalchess.archive import game_headers
from royalchess.board import Board
from royalchess.move import Move
from royalchess.store import GameRecord
from royalchess.web.games import ApiError

__all__ = ["available", "export", "position_record", "read"]


def available() -> bool:
    """Whether PGN import and export are available (they are: ``royalchess.pgn``)."""
    return True


def export(rec: GameRecord, start: Board, board: Board) -> str:
    """Return the game as PGN text."""
    return pgn.write_game(start, board.move_stack, headers=game_headers(rec, start))


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
