"""UCI (long algebraic) move spellings, both ways, for both boards.

- ordinary moves: ``e2e4``; promotions add the lower-case letter: ``e7e8q``, ``e7e8g``;
  a waived Guard promotion adds ``-``: ``e7e8g-``;
- standard-chess castling is the King's move: ``e1g1``;
- Royal Chess castling is the King's move then the Rook's, one token: ``f1h1j1g1``; with a
  Guard move first, the Guard's move leads: ``g1g3f1g1j1f1``.

Squares are always two characters (both boards have 8 ranks).
"""

from __future__ import annotations

from royalchess.errors import InvalidMoveError, InvalidSquareError
from royalchess.move import GUARDS, PIECE_SYMBOLS, Move
from royalchess.notation.squares import parse_square, square_names

__all__ = ["format_uci", "parse_uci"]

_PROMOTION_LETTERS = {"n": 2, "b": 3, "r": 4, "q": 5, "g": 7, "w": 8}
_SHAPES = "expected from and to squares such as 'e2e4', a promotion such as 'e7e8q', or castling"


def format_uci(move: Move) -> str:
    """Return the UCI spelling of *move*."""
    names = square_names(move.files)
    text = names[move.from_square] + names[move.to_square]
    if move.rook_from is not None and move.rook_to is not None:
        text += names[move.rook_from] + names[move.rook_to]
        if move.guard_from is not None and move.guard_to is not None:
            text = names[move.guard_from] + names[move.guard_to] + text
    elif move.promotion is not None:
        text += PIECE_SYMBOLS[move.promotion] or ""
        if move.waived:
            text += "-"
    return text


def _squares(text: str, count: int, files: int) -> list[int]:
    result = []
    for i in range(0, 2 * count, 2):
        try:
            result.append(parse_square(text[i : i + 2], files))
        except InvalidSquareError as exc:
            raise InvalidMoveError(f"invalid UCI move {text!r}: {exc}") from None
    return result


def parse_uci(text: str, files: int = 8) -> Move:
    """Parse a UCI spelling for a board *files* wide; no position is consulted.

    Raises :class:`InvalidMoveError` for text that is not a UCI move spelling.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a UCI move is a string, not {type(text).__name__}")
    if files not in (8, 10):
        raise InvalidMoveError(f"a move is on an 8- or 10-file board, not {files!r}")
    n = len(text)
    if text == "0000":
        raise InvalidMoveError("null moves ('0000') are not supported")
    if n == 4:
        a, b = _squares(text, 2, files)
        return Move(a, b, files=files)
    if n in (5, 6) and (n == 5 or text[5] == "-"):
        a, b = _squares(text, 2, files)
        letter = text[4]
        promotion = _PROMOTION_LETTERS.get(letter.lower())
        if promotion is None:
            raise InvalidMoveError(
                f"invalid UCI move {text!r}: {letter!r} is not a promotion piece letter"
            )
        waived = n == 6
        if waived and promotion not in GUARDS:
            raise InvalidMoveError(
                f"invalid UCI move {text!r}: only a Guard promotion (g, w) can waive queen powers"
            )
        return Move(a, b, promotion, waived, files=files)
    if n == 8:
        king_from, king_to, rook_from, rook_to = _squares(text, 4, files)
        return Move(king_from, king_to, rook_from=rook_from, rook_to=rook_to, files=files)
    if n == 12:
        guard_from, guard_to, king_from, king_to, rook_from, rook_to = _squares(text, 6, files)
        return Move(
            king_from,
            king_to,
            rook_from=rook_from,
            rook_to=rook_to,
            guard_from=guard_from,
            guard_to=guard_to,
            files=files,
        )
    raise InvalidMoveError(f"invalid UCI move {text!r}: {_SHAPES}")
