"""The coach on the page: why a click or a drag on the board is not a legal move.

The page asks ``GET /api/games/{id}/explain?from=e2&to=e5`` when the player drops or clicks a
piece on a square it cannot go to; the answer is :func:`royalchess.explain.explain_squares`'s
words for the game's current position, which the page shows briefly beside the board.
"""

from __future__ import annotations

from royalchess.board import Board
from royalchess.explain import explain_squares
from royalchess.notation.squares import parse_square

__all__ = ["explain_click"]


def explain_click(board: Board, from_name: str, to_name: str) -> dict[str, str]:
    """Return ``{"from", "to", "explanation"}`` for the attempt *from_name*-*to_name*.

    A square name that is not on the board raises
    :class:`~royalchess.errors.InvalidSquareError` (a 400 in the API).
    """
    frm = parse_square(from_name, board.files)
    to = parse_square(to_name, board.files)
    return {"from": from_name, "to": to_name, "explanation": explain_squares(board, frm, to)}
