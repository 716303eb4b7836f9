"""Advice for the player, computed from the public library API: material and hanging pieces.

Nothing here knows a rule: every move comes from :attr:`Board.legal_moves`, so the same code
serves chess and Royal Chess.
"""

from __future__ import annotations

from royalchess.board import Board
from royalchess.errors import ChessError
from royalchess.move import (
    BISHOP,
    KING,
    KINGS_GUARD,
    KNIGHT,
    PAWN,
    QUEEN,
    QUEENS_GUARD,
    ROOK,
    Move,
    piece_symbol,
)

__all__ = ["PIECE_VALUES", "hanging_pieces", "material"]

PIECE_VALUES = {
    PAWN: 1,
    KNIGHT: 3,
    BISHOP: 3,
    ROOK: 5,
    QUEEN: 9,
    QUEENS_GUARD: 4,
    KINGS_GUARD: 4,
    KING: 0,
}
"""Points of each piece type for the material count shown beside the board."""

_ORDER = (QUEEN, ROOK, KINGS_GUARD, QUEENS_GUARD, BISHOP, KNIGHT, PAWN)


def material(board: Board) -> dict[str, object]:
    """Return the material balance: each side's surplus pieces (letters) and points.

    ``{"white": ["q"], "black": ["p", "p"], "diff": 7}`` means White has a Queen more than
    Black, Black two pawns more than White, and White is 7 points up.
    """
    counts = {True: dict.fromkeys(_ORDER, 0), False: dict.fromkeys(_ORDER, 0)}
    for piece in board.piece_map().values():
        if piece.piece_type != KING:
            counts[piece.color][piece.piece_type] += 1
    extra: dict[bool, list[str]] = {True: [], False: []}
    for piece_type in _ORDER:
        diff = counts[True][piece_type] - counts[False][piece_type]
        side = diff > 0
        extra[side].extend(piece_symbol(piece_type) for _ in range(abs(diff)))
    points = {
        color: sum(PIECE_VALUES[t] * n for t, n in counts[color].items()) for color in (True, False)
    }
    return {"white": extra[True], "black": extra[False], "diff": points[True] - points[False]}


def _other_side_to_move(board: Board) -> Board | None:
    """Return the position with the other side to move (no en passant), or ``None``.

    ``None`` when that is no legal position (the side to move is in check).
    """
    if board.is_check():
        return None
    fields = board.fen().split()
    fields[1] = "b" if fields[1] == "w" else "w"
    fields[3] = "-"
    try:
        return Board(" ".join(fields[:6]), variant=board.variant)
    except ChessError:
        return None


def hanging_pieces(board: Board) -> list[dict[str, object]]:
    """Return the pieces of the side to move that the opponent could win if it moved now.

    A piece hangs when an opponent's capture of it cannot be answered by a recapture on
    that square, or when it can be taken by a piece worth less. Each entry names the square,
    the piece's letter and the capturing moves (UCI), most valuable piece first.
    """
    them = _other_side_to_move(board)
    if them is None:
        return []
    found: dict[int, dict[str, object]] = {}
    for move in them.legal_moves:
        if move.rook_from is not None or not them.is_capture(move):
            continue
        target = move.to_square
        victim = board.piece_at(target)
        attacker = them.piece_at(move.from_square)
        if victim is None or attacker is None or victim.color != board.turn:
            continue
        cheaper = PIECE_VALUES[attacker.piece_type] < PIECE_VALUES[victim.piece_type]
        if not cheaper and _can_recapture(them, move, target):
            continue
        entry = found.setdefault(
            target,
            {
                "square": board.square_name(target),
                "piece": victim.symbol(),
                "value": PIECE_VALUES[victim.piece_type],
                "by": [],
            },
        )
        by = entry["by"]
        assert isinstance(by, list)
        by.append(move.uci())
    return sorted(found.values(), key=lambda e: -int(e["value"]))  # type: ignore[call-overload]


def _can_recapture(board: Board, capture: Move, square: int) -> bool:
    board.push(capture)
    try:
        return any(
            reply.to_square == square and reply.rook_from is None and board.is_capture(reply)
            for reply in board.legal_moves
        )
    finally:
        board.pop()
