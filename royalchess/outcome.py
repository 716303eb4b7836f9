"""How a game ended: :class:`Termination` and :class:`Outcome`, as in python-chess."""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Outcome", "Termination"]


class Termination(enum.Enum):
    """The reason a game ended."""

    CHECKMATE = enum.auto()
    """The side to move is checkmated."""
    STALEMATE = enum.auto()
    """The side to move has no legal move and is not in check."""
    INSUFFICIENT_MATERIAL = enum.auto()
    """Neither side has enough material to mate."""
    SEVENTYFIVE_MOVES = enum.auto()
    """75 moves by each side without a capture or pawn move (automatic draw)."""
    FIVEFOLD_REPETITION = enum.auto()
    """The same position occurred five times (automatic draw)."""
    FIFTY_MOVES = enum.auto()
    """50 moves by each side without a capture or pawn move (claimed draw)."""
    THREEFOLD_REPETITION = enum.auto()
    """The same position occurred three times (claimed draw)."""

    def describe(self) -> str:
        """Return a short English phrase for the reason (``'threefold repetition'``)."""
        return self.name.lower().replace("_", " ").replace("seventyfive", "seventy-five")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: its :class:`Termination` and the winner (``None`` for a draw)."""

    termination: Termination
    winner: bool | None

    def result(self) -> str:
        """Return ``'1-0'``, ``'0-1'`` or ``'1/2-1/2'``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"
