"""The two variants this package plays, described as data.

>>> from royalchess.variants import get_variant
>>> get_variant("royal").files
10
"""

from __future__ import annotations

from dataclasses import dataclass

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
)

__all__ = ["CHESS", "ROYAL", "VARIANTS", "Variant", "get_variant"]


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant: its name, the core's id for it, board size, set-up and pieces."""

    name: str
    """Short name used in the API and on the command line (``chess``, ``royal``)."""
    title: str
    """Human-readable name."""
    core_id: int
    """The variant number ``royalchess._core.Position`` expects."""
    files: int
    """Number of files (columns), ``a`` onwards."""
    ranks: int
    """Number of ranks (rows), ``1`` onwards."""
    start_fen: str
    """FEN of the start position."""
    piece_types: tuple[int, ...]
    """Piece types that occur in this variant."""
    piece_letters: str
    """FEN/SAN letters of those piece types (upper case), in the same order."""
    promotion_pieces: tuple[int, ...]
    """Piece types a pawn may promote to (before any variant-specific restriction)."""

    @property
    def squares(self) -> int:
        """Number of squares on the board."""
        return self.files * self.ranks

    def __str__(self) -> str:
        return self.name


CHESS = Variant(
    name="chess",
    title="Standard chess",
    core_id=0,
    files=8,
    ranks=8,
    start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    piece_types=(PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING),
    piece_letters="PNBRQK",
    promotion_pieces=(QUEEN, ROOK, BISHOP, KNIGHT),
)
"""Standard chess (FIDE), 8x8."""

ROYAL = Variant(
    name="royal",
    title="Royal Chess",
    core_id=1,
    files=10,
    ranks=8,
    start_fen="rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1",
    piece_types=(PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, QUEENS_GUARD, KINGS_GUARD),
    piece_letters="PNBRQKGW",
    promotion_pieces=(QUEEN, ROOK, BISHOP, KNIGHT, QUEENS_GUARD, KINGS_GUARD),
)
"""Royal Chess, 10x8, with the Queen's Guard (``G``) and the King's Guard (``W``)."""

VARIANTS: dict[str, Variant] = {CHESS.name: CHESS, ROYAL.name: ROYAL}
"""Every variant by name."""


def get_variant(name: str) -> Variant:
    """Return the variant called *name*; raise :class:`ChessError` for an unknown one."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        known = ", ".join(repr(n) for n in VARIANTS)
        raise ChessError(f"unknown variant {name!r}: expected one of {known}") from None
