"""The exception hierarchy of royalchess.

Every error the library raises for bad input is a :class:`ChessError`, which is a
:class:`ValueError`, so ``except ValueError`` keeps working as with python-chess.
Messages name the bad part, for example::

    illegal move 'e2e5' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
    invalid SAN 'Nf9': square 'f9' is off the board
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "ChessError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidSquareError",
]


class ChessError(ValueError):
    """Base class of every royalchess input error."""


class InvalidFenError(ChessError):
    """A FEN string that does not describe a valid position."""


class InvalidRecordError(ChessError):
    """A position record (the seed's adjourned-game format) that cannot be read."""


class InvalidSquareError(ChessError):
    """A square name or number that is not on the board."""


class InvalidMoveError(ChessError):
    """Text that is not a move spelling at all (garbled UCI or SAN)."""


class IllegalMoveError(ChessError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(ChessError):
    """A SAN string that matches more than one legal move."""
