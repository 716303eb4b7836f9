"""Square numbers and names: the one place where squares are parsed and printed.

A square is ``rank * files + file`` (0-based): ``a1 = 0``; ``h8 = 63`` on the 8x8 board,
``j8 = 79`` on the 10x8 board. Files are named ``a`` onwards, ranks ``1`` onwards.

>>> square_name(79, 10)
'j8'
>>> parse_square("e4")
28
"""

from __future__ import annotations

import re

from royalchess.errors import InvalidSquareError

__all__ = [
    "FILE_NAMES",
    "RANK_NAMES",
    "parse_square",
    "square",
    "square_file",
    "square_name",
    "square_names",
    "square_rank",
]

FILE_NAMES = "abcdefghij"
"""File letters, enough for the widest board (10 files)."""
RANK_NAMES = "12345678"
"""Rank digits (both boards have 8 ranks)."""

_SQUARE_LIKE = re.compile(r"[a-zA-Z]\d+")
_NAMES: dict[tuple[int, int], tuple[str, ...]] = {}
_INDEX: dict[tuple[int, int], dict[str, int]] = {}


def _build(files: int, ranks: int) -> tuple[str, ...]:
    if not (1 <= files <= len(FILE_NAMES) and 1 <= ranks <= len(RANK_NAMES)):
        raise InvalidSquareError(f"no {files}x{ranks} board: at most 10 files and 8 ranks")
    names = tuple(FILE_NAMES[s % files] + RANK_NAMES[s // files] for s in range(files * ranks))
    _NAMES[files, ranks] = names
    _INDEX[files, ranks] = {name: s for s, name in enumerate(names)}
    return names


def square_names(files: int = 8, ranks: int = 8) -> tuple[str, ...]:
    """Return the names of all squares of the board, indexed by square number."""
    names = _NAMES.get((files, ranks))
    return names if names is not None else _build(files, ranks)


def square_name(sq: int, files: int = 8, ranks: int = 8) -> str:
    """Return the name of square *sq* (``e4``); raise :class:`InvalidSquareError` if off the board."""
    names = square_names(files, ranks)
    if type(sq) is not int or not 0 <= sq < len(names):
        raise InvalidSquareError(f"square {sq!r} is off the {files}x{ranks} board")
    return names[sq]


def parse_square(name: str, files: int = 8, ranks: int = 8) -> int:
    """Return the number of the square called *name* (``e4``).

    Raises :class:`InvalidSquareError` naming the problem: ``square 'f9' is off the board``
    or ``'x' is not a square name``.
    """
    index = _INDEX.get((files, ranks))
    if index is None:
        square_names(files, ranks)
        index = _INDEX[files, ranks]
    sq = index.get(name)
    if sq is not None:
        return sq
    if isinstance(name, str) and _SQUARE_LIKE.fullmatch(name) and name[0].islower():
        raise InvalidSquareError(f"square {name!r} is off the board")
    raise InvalidSquareError(f"{name!r} is not a square name")


def square(file: int, rank: int, files: int = 8) -> int:
    """Return the square number of 0-based *file* and *rank*."""
    return rank * files + file


def square_file(sq: int, files: int = 8) -> int:
    """Return the 0-based file of square *sq*."""
    return sq % files


def square_rank(sq: int, files: int = 8) -> int:
    """Return the 0-based rank of square *sq*."""
    return sq // files
