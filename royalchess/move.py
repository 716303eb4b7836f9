"""Small immutable values: piece types, colours, :class:`Piece` and :class:`Move`.

A :class:`Move` carries all its parts (squares, promotion kind, a waived Guard promotion,
Royal Chess castling with its Rook and optional Guard pre-move), so callers never parse
strings to find them. It packs to and from the integer *move code* that crosses the binding
to the C core (see ``docs/core-binding.md``); no position is needed for that.

>>> Move.from_uci("e2e4")
Move.from_uci('e2e4')
>>> Move.from_uci("g1g3f1g1j1f1", files=10).rook_to
15
"""

from __future__ import annotations

from dataclasses import dataclass, field

from royalchess.errors import ChessError, InvalidMoveError

__all__ = [
    "BISHOP",
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "GUARDS",
    "KING",
    "KINGS_GUARD",
    "KNIGHT",
    "PAWN",
    "PIECE_NAMES",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "QUEEN",
    "QUEENS_GUARD",
    "ROOK",
    "UNICODE_PIECE_SYMBOLS",
    "WHITE",
    "Move",
    "Piece",
    "piece_name",
    "piece_symbol",
]

PAWN = 1
"""Piece type of the pawn."""
KNIGHT = 2
"""Piece type of the knight."""
BISHOP = 3
"""Piece type of the bishop."""
ROOK = 4
"""Piece type of the rook."""
QUEEN = 5
"""Piece type of the queen."""
KING = 6
"""Piece type of the king."""
QUEENS_GUARD = 7
"""Piece type of Royal Chess's Queen's Guard (letter ``G``)."""
KINGS_GUARD = 8
"""Piece type of Royal Chess's King's Guard (letter ``W``)."""
PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, QUEENS_GUARD, KINGS_GUARD)
"""All piece types."""
GUARDS = (QUEENS_GUARD, KINGS_GUARD)
"""The two Guard piece types."""

PIECE_SYMBOLS: tuple[str | None, ...] = (None, "p", "n", "b", "r", "q", "k", "g", "w")
"""Lower-case letter of each piece type, indexed by piece type."""
PIECE_NAMES: tuple[str | None, ...] = (
    None,
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "king",
    "queen's guard",
    "king's guard",
)
"""English name of each piece type, indexed by piece type."""
UNICODE_PIECE_SYMBOLS: dict[str, str] = {
    "R": "♖",
    "r": "♜",
    "N": "♘",
    "n": "♞",
    "B": "♗",
    "b": "♝",
    "Q": "♕",
    "q": "♛",
    "K": "♔",
    "k": "♚",
    "P": "♙",
    "p": "♟",
    "G": "Ⓖ",
    "g": "ⓖ",
    "W": "Ⓦ",
    "w": "ⓦ",
}
"""Unicode glyph of each FEN letter; the Guards, which have no chess glyph, get circled letters."""

WHITE = True
"""Colour of White."""
BLACK = False
"""Colour of Black."""
COLORS = (WHITE, BLACK)
"""Both colours, White first."""
COLOR_NAMES = ("black", "white")
"""Name of each colour, indexed by colour (``COLOR_NAMES[WHITE] == 'white'``)."""

_SYMBOL_TO_TYPE = {s: t for t, s in enumerate(PIECE_SYMBOLS) if s}

# Move code layout (docs/core-binding.md).
_SQ = 0x7F
_PROMO_SHIFT = 14
_WAIVED = 1 << 18
_CASTLING = 1 << 19
_ROOK_FROM_SHIFT = 20
_ROOK_TO_SHIFT = 27
_GUARD_FIRST = 1 << 34
_GUARD_FROM_SHIFT = 35
_GUARD_TO_SHIFT = 42
_CODE_LIMIT = 1 << 49
_PROMOTIONS = (KNIGHT, BISHOP, ROOK, QUEEN, QUEENS_GUARD, KINGS_GUARD)
# valid values of bits 14-18 (promotion type and the waived bit) of a move code
_PROMOTION_BITS = frozenset((0, *_PROMOTIONS, QUEENS_GUARD | 16, KINGS_GUARD | 16))


def piece_symbol(piece_type: int) -> str:
    """Return the lower-case letter of *piece_type* (``'n'`` for a knight)."""
    symbol = PIECE_SYMBOLS[piece_type] if 0 < piece_type < len(PIECE_SYMBOLS) else None
    if symbol is None:
        raise ChessError(f"unknown piece type {piece_type!r}")
    return symbol


def piece_name(piece_type: int) -> str:
    """Return the English name of *piece_type* (``'king's guard'``)."""
    piece_symbol(piece_type)
    return PIECE_NAMES[piece_type] or ""


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its type, its colour and, for a Guard just made by promotion, queen powers.

    >>> Piece.from_symbol("G*")
    Piece(piece_type=7, color=True, queen_powers=True)
    """

    piece_type: int
    color: bool
    queen_powers: bool = False

    def __post_init__(self) -> None:
        if self.piece_type not in PIECE_TYPES:
            raise ChessError(f"unknown piece type {self.piece_type!r}")
        if self.queen_powers and self.piece_type not in GUARDS:
            raise ChessError("only a Guard can have queen powers")

    def symbol(self) -> str:
        """Return the FEN letter, upper case for White, with ``*`` for queen powers."""
        letter = piece_symbol(self.piece_type)
        if self.color:
            letter = letter.upper()
        return letter + "*" if self.queen_powers else letter

    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        """Return a Unicode glyph for the piece (without the queen-powers mark)."""
        letter = piece_symbol(self.piece_type)
        if self.color != invert_color:
            letter = letter.upper()
        return UNICODE_PIECE_SYMBOLS[letter]

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """Parse a FEN letter (``'N'``, ``'w'``, ``'G*'``) into a :class:`Piece`."""
        letter, star = (symbol[:-1], True) if symbol.endswith("*") else (symbol, False)
        piece_type = _SYMBOL_TO_TYPE.get(letter.lower()) if len(letter) == 1 else None
        if piece_type is None:
            raise ChessError(f"unknown piece symbol {symbol!r}")
        return cls(piece_type, letter.isupper(), star)

    def __str__(self) -> str:
        return self.symbol()


def _check_square(name: str, sq: int | None, limit: int) -> None:
    if sq is not None and (type(sq) is not int or not 0 <= sq < limit):
        raise InvalidMoveError(f"{name} {sq!r} is off the board")


@dataclass(frozen=True, slots=True)
class Move:
    """A move, as an immutable value.

    ``from_square``/``to_square`` are the moving piece's squares; for castling, the King's.
    ``promotion`` is the piece type promoted to; ``waived`` marks a Guard promotion without
    queen powers. Royal Chess castling sets ``rook_from``/``rook_to`` and, when a Guard moves
    first as part of it, ``guard_from``/``guard_to``. Standard-chess castling is the King's
    two-square move (``e1g1``) with no Rook fields, as in python-chess. ``files`` is the width
    of the board the squares refer to (8 or 10).
    """

    from_square: int
    to_square: int
    promotion: int | None = None
    waived: bool = False
    rook_from: int | None = None
    rook_to: int | None = None
    guard_from: int | None = None
    guard_to: int | None = None
    files: int = 8
    _code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.files) is not int or self.files not in (8, 10):
            raise InvalidMoveError(f"a move is on an 8- or 10-file board, not {self.files!r}")
        limit = self.files * 8
        _check_square("from square", self.from_square, limit)
        _check_square("to square", self.to_square, limit)
        _check_square("rook from square", self.rook_from, limit)
        _check_square("rook to square", self.rook_to, limit)
        _check_square("guard from square", self.guard_from, limit)
        _check_square("guard to square", self.guard_to, limit)
        code = self.from_square | self.to_square << 7
        if self.promotion is not None:
            if type(self.promotion) is not int or self.promotion not in _PROMOTIONS:
                raise InvalidMoveError(f"cannot promote to piece type {self.promotion!r}")
            code |= self.promotion << _PROMO_SHIFT
        if self.waived:
            if self.promotion not in GUARDS:
                raise InvalidMoveError("only a Guard promotion can waive queen powers")
            code |= _WAIVED
        if (self.rook_from is None) != (self.rook_to is None):
            raise InvalidMoveError("castling needs both rook squares")
        if (self.guard_from is None) != (self.guard_to is None):
            raise InvalidMoveError("a Guard pre-move needs both guard squares")
        if self.rook_from is not None and self.rook_to is not None:
            if self.promotion is not None:
                raise InvalidMoveError("castling cannot promote")
            code |= _CASTLING | self.rook_from << _ROOK_FROM_SHIFT | self.rook_to << _ROOK_TO_SHIFT
        if self.guard_from is not None and self.guard_to is not None:
            if self.rook_from is None:
                raise InvalidMoveError("a Guard pre-move belongs to a castling move")
            code |= (
                _GUARD_FIRST
                | self.guard_from << _GUARD_FROM_SHIFT
                | self.guard_to << _GUARD_TO_SHIFT
            )
        object.__setattr__(self, "_code", code)

    def code(self) -> int:
        """Return the move code of ``docs/core-binding.md`` (a non-negative int)."""
        return self._code

    @classmethod
    def from_code(cls, code: int, files: int = 8) -> Move:
        """Unpack a move code; raise :class:`InvalidMoveError` if it is not a valid code."""
        if type(code) is int and type(files) is int:
            move = _CACHE.get(code << 4 | files)
            if move is not None and move.files == files:
                return move
        if type(code) is not int or not 0 <= code < _CODE_LIMIT:
            raise InvalidMoveError(f"invalid move code {code!r}")
        if type(files) is not int or files not in (8, 10):
            raise InvalidMoveError(f"a move is on an 8- or 10-file board, not {files!r}")
        castling = code & _CASTLING
        guard = code & _GUARD_FIRST
        if (not castling and code >> _ROOK_FROM_SHIFT) or (not guard and code >> _GUARD_FROM_SHIFT):
            raise InvalidMoveError(f"invalid move code {code!r}: stray castling bits")
        promotion = code >> _PROMO_SHIFT & 0x1F  # with the waived bit
        if promotion not in _PROMOTION_BITS or (castling and promotion):
            raise InvalidMoveError(f"invalid move code {code!r}: bad promotion bits")
        move = cls(
            code & _SQ,
            code >> 7 & _SQ,
            promotion & 0xF or None,
            promotion > 0xF,
            code >> _ROOK_FROM_SHIFT & _SQ if castling else None,
            code >> _ROOK_TO_SHIFT & _SQ if castling else None,
            code >> _GUARD_FROM_SHIFT & _SQ if guard else None,
            code >> _GUARD_TO_SHIFT & _SQ if guard else None,
            files,
        )
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[code << 4 | files] = move
        return move

    def uci(self) -> str:
        """Return the UCI spelling: ``e2e4``, ``e7e8q``, ``e7e8g-``, ``f1h1j1g1``."""
        from royalchess.notation.uci import format_uci

        return format_uci(self)

    @classmethod
    def from_uci(cls, text: str, files: int = 8) -> Move:
        """Parse a UCI spelling; raise :class:`InvalidMoveError` if it is garbled."""
        from royalchess.notation.uci import parse_uci

        return parse_uci(text, files)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._code == other._code and self.files == other.files
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._code << 4 | self.files)

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        if self.files == 8:
            return f"Move.from_uci({self.uci()!r})"
        return f"Move.from_uci({self.uci()!r}, files={self.files})"


_CACHE: dict[int, Move] = {}
_CACHE_LIMIT = 1 << 16
