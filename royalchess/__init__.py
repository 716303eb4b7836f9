"""royalchess: standard chess and Royal Chess (10x8) with a C99 core.

>>> import royalchess
>>> board = royalchess.Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> royalchess.Board(variant="royal").perft(1)
24
"""

from royalchess.board import Board, GuardMoves, LegalMoves
from royalchess.errors import (
    AmbiguousMoveError,
    ChessError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidRecordError,
    InvalidSquareError,
)
from royalchess.move import (
    BISHOP,
    BLACK,
    COLORS,
    KING,
    KINGS_GUARD,
    KNIGHT,
    PAWN,
    PIECE_SYMBOLS,
    PIECE_TYPES,
    QUEEN,
    QUEENS_GUARD,
    ROOK,
    WHITE,
    Move,
    Piece,
    piece_name,
    piece_symbol,
)
from royalchess.notation.squares import parse_square, square_name
from royalchess.outcome import Outcome, Termination
from royalchess.variants import CHESS, ROYAL, VARIANTS, Variant, get_variant

__version__ = "0.1.0"

__all__ = [
    "BISHOP",
    "BLACK",
    "CHESS",
    "COLORS",
    "KING",
    "KINGS_GUARD",
    "KNIGHT",
    "PAWN",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "QUEEN",
    "QUEENS_GUARD",
    "ROOK",
    "ROYAL",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "ChessError",
    "GuardMoves",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidSquareError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "Termination",
    "Variant",
    "__version__",
    "get_variant",
    "parse_square",
    "piece_name",
    "piece_symbol",
    "square_name",
]
