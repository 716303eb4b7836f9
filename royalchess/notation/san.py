"""Standard algebraic notation (SAN), both ways, for both variants.

Writing follows python-chess: piece letter, file/rank/both disambiguation only where needed,
``x`` for captures, ``=Q`` promotions, ``+``/``#``, ``O-O``/``O-O-O`` for chess castling.
Royal Chess adds (rules page, section 10): the Guard letters ``G`` and ``W``; castling with the
King's destination, ``O-O:h1``; a Guard move first joined by ``_``, ``Wg3_O-O:h1``; Guard
promotions ``e8=G`` (with queen powers) and ``e8=G-`` (waived).

Reading is tolerant in python-chess's ways (``0-0``, missing or extra ``x``, ``-`` between
squares, missing ``+``/``#``, ``=`` omitted, fully specified moves such as ``g1f3``) and
strict about everything else.

The functions work on move codes, a :class:`royalchess._core.Position` and its ``board()``
cells; all legality comes from the core: its legal move codes (the only moves ever matched or
printed), ``gives_check``, and ``is_capture`` for a Guard move inside castling. A legal move
of any other kind captures when its target square is occupied, or when a pawn changes file
(en passant), which the cells tell without another call. Reading collects candidate
from-squares that hold the named piece and keeps those whose move code is legal, as python-chess
does with its masks. They are the engine of ``Board.san`` and ``Board.parse_san``; use those.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from royalchess.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSquareError,
)
from royalchess.move import _CASTLING, _GUARD_FIRST, _WAIVED, KING, PAWN
from royalchess.notation.squares import FILE_NAMES, parse_square, square_names

if TYPE_CHECKING:
    from royalchess._core import Position

__all__ = ["CASTLE_RE", "MOVE_RE", "TYPE_OF_LETTER", "parse_san", "write_san"]

_LETTERS = ("", "P", "N", "B", "R", "Q", "K", "G", "W")
# The SAN grammar: also read by royalchess.explain to say what a rejected move meant.
TYPE_OF_LETTER = {"N": 2, "B": 3, "R": 4, "Q": 5, "K": 6, "G": 7, "W": 8}
_KING_AND_ROOK = 0x3FFF | 0x7F << 20  # king from/to and rook-from bits of a move code

MOVE_RE = re.compile(
    r"([NBRQKGW])?([a-wyz])?([0-9])?[-x]?([a-wyz][0-9]+)(?:=?([A-Za-z])(-)?)?[+#]?"
)
CASTLE_RE = re.compile(
    r"(?:([A-Z])([a-wyz])?([0-9])?(x)?([a-wyz][0-9]+)_)?([O0]-[O0](?:-[O0])?)(?::([a-wyz][0-9]+))?"
    r"[+#]?"
)
_EXAMPLES = "expected a move such as 'e4', 'Nf3', 'exd5', 'e8=Q', 'O-O'"


def _disambiguation(frm: int, others: list[int], files: int, names: Sequence[str]) -> str:
    """Return the file, rank or square that tells *frm* apart from *others* (python-chess)."""
    if not others:
        return ""
    same_file = same_rank = False
    for sq in others:
        if sq % files == frm % files:
            same_file = True
        if sq // files == frm // files:
            same_rank = True
    if not same_file:
        return FILE_NAMES[frm % files]
    if not same_rank:
        return names[frm][1:]
    return names[frm]


def _indices(cells: Sequence[int], value: int) -> list[int]:
    n = cells.count(value)
    if n == 1:
        return [cells.index(value)]
    found = []
    start = 0
    for _ in range(n):
        start = cells.index(value, start) + 1
        found.append(start - 1)
    return found


def _squares_holding(cells: Sequence[int], value: int) -> list[int]:
    """Return the indices of *cells* equal to *value* (a Guard's queen-powered form too)."""
    found = _indices(cells, value)
    if value & 15 >= 7 and not value & 32:
        found += _indices(cells, value | 32)
    return found


def _castling_side(code: int, files: int) -> str:
    return "O-O" if (code >> 20 & 0x7F) % files > (code & 0x7F) % files else "O-O-O"


def write_san(
    pos: Position, code: int, files: int, codes: Collection[int], cells: Sequence[int]
) -> str:
    """Return the SAN of the legal move *code*.

    *codes* holds the position's legal move codes (a set is fastest) and *cells* is its
    ``board()`` list; the caller guarantees that *code* is in *codes*.
    """
    names = _NAMES.get(files) or square_names(files)
    frm = code & 0x7F
    to = code >> 7 & 0x7F
    if code & _CASTLING:
        text = _castling_side(code, files) + ":" + names[to]
        if code & _GUARD_FIRST:
            gfrom = code >> 35 & 0x7F
            gto = code >> 42 & 0x7F
            gtype = cells[gfrom] & 15
            others = []
            for c in codes:
                if (
                    c & _GUARD_FIRST
                    and (c ^ code) & _KING_AND_ROOK == 0
                    and c >> 42 & 0x7F == gto
                    and c >> 35 & 0x7F != gfrom
                    and cells[c >> 35 & 0x7F] & 15 == gtype
                ):
                    others.append(c >> 35 & 0x7F)
            capture = "x" if pos.is_capture(code) else ""
            text = (
                _LETTERS[gtype]
                + _disambiguation(gfrom, others, files, names)
                + capture
                + names[gto]
                + "_"
                + text
            )
    else:
        ptype = cells[frm] & 15
        if ptype == PAWN:
            # A pawn that changes file captures (en passant when the target is empty).
            text = names[frm][0] + "x" + names[to] if frm % files != to % files else names[to]
            promotion = code >> 14 & 0xF
            if promotion:
                text += "=" + _LETTERS[promotion] + ("-" if code & _WAIVED else "")
        elif ptype == KING and files == 8 and pos.is_castling(code):
            text = "O-O" if to > frm else "O-O-O"
        else:
            tk = to << 7
            others = [
                f for f in _squares_holding(cells, cells[frm] & 31) if f != frm and f | tk in codes
            ]
            text = _LETTERS[ptype] + _disambiguation(frm, others, files, names)
            text += "x" + names[to] if cells[to] else names[to]  # legal: never an own piece
    if pos.gives_check(code):
        pos.push(code)
        mate = not pos.legal_moves()
        pos.pop()
        text += "#" if mate else "+"
    return text


def _square_index(files: int) -> dict[str, int]:
    index = _INDEX.get(files)
    if index is None:
        index = _INDEX[files] = {name: sq for sq, name in enumerate(square_names(files))}
    return index


_INDEX: dict[int, dict[str, int]] = {}
_NAMES = {8: square_names(8), 10: square_names(10)}
_square_index(8)
_square_index(10)


def _square(text: str, name: str, files: int) -> int:
    try:
        return parse_square(name, files)
    except InvalidSquareError as exc:
        raise InvalidMoveError(f"invalid SAN {text!r}: {exc}") from None


def _from_filters(text: str, dfile: str | None, drank: str | None, files: int) -> tuple[int, int]:
    from_file = from_rank = -1
    if dfile is not None:
        from_file = FILE_NAMES.find(dfile)
        if not 0 <= from_file < files:
            raise InvalidMoveError(f"invalid SAN {text!r}: file {dfile!r} is off the board")
    if drank is not None:
        from_rank = int(drank) - 1
        if not 0 <= from_rank < 8:
            raise InvalidMoveError(f"invalid SAN {text!r}: rank {drank!r} is off the board")
    return from_file, from_rank


def _one(
    pos: Position,
    text: str,
    matches: list[int],
    files: int,
    codes: Collection[int],
    cells: Sequence[int],
) -> int:
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise IllegalMoveError(f"illegal SAN {text!r} in {pos.fen()}")
    spellings = ", ".join(sorted(write_san(pos, c, files, codes, cells) for c in matches))
    raise AmbiguousMoveError(f"ambiguous SAN {text!r} in {pos.fen()}: could be {spellings}")


def _parse_castling(
    pos: Position,
    text: str,
    match: re.Match[str],
    files: int,
    codes: Collection[int],
    cells: Sequence[int],
) -> int:
    gletter, gfile, grank, _, gtarget, side, target = match.groups()
    kingside = side.count("-") == 1
    king_to = _square(text, target, files) if target is not None else -1
    guard_to = guard_type = -1
    if gletter is not None and gtarget is not None:
        guard_type = TYPE_OF_LETTER.get(gletter, -1)
        if guard_type not in (7, 8):
            raise InvalidMoveError(
                f"invalid SAN {text!r}: only a Guard (G or W) may move first in castling"
            )
        guard_to = _square(text, gtarget, files)
    from_file, from_rank = _from_filters(text, gfile, grank, files)
    matches = []
    for c, rook_from, _ in pos.castling_moves():
        if (rook_from % files > (c & 0x7F) % files) != kingside:
            continue
        if king_to >= 0 and c >> 7 & 0x7F != king_to:
            continue
        if guard_type < 0:
            if c & _GUARD_FIRST:
                continue
        else:
            gfrom = c >> 35 & 0x7F
            if (
                not c & _GUARD_FIRST
                or c >> 42 & 0x7F != guard_to
                or cells[gfrom] & 15 != guard_type
                or (from_file >= 0 and gfrom % files != from_file)
                or (from_rank >= 0 and gfrom // files != from_rank)
            ):
                continue
        matches.append(c)
    if len(matches) > 1 and king_to < 0 and files != 8:
        spellings = ", ".join(sorted(write_san(pos, c, files, codes, cells) for c in matches))
        raise AmbiguousMoveError(
            f"ambiguous SAN {text!r} in {pos.fen()}: add the King's square, one of {spellings}"
        )
    return _one(pos, text, matches, files, codes, cells)


def parse_san(
    pos: Position, text: str, files: int, codes: Collection[int], cells: Sequence[int]
) -> int:
    """Return the code of the legal move that the SAN *text* names in the position.

    Raises :class:`InvalidMoveError` for text that is not SAN, :class:`IllegalMoveError`
    when no legal move matches and :class:`AmbiguousMoveError` when several do.
    """
    if type(text) is not str:
        raise InvalidMoveError(f"a SAN move is a string, not {type(text).__name__}")
    index = _INDEX.get(files) or _square_index(files)
    body = text[:-1] if text[-1:] in ("+", "#") else text
    letter = dfile = drank = pletter = dash = None
    from_file = from_rank = -1
    to = index.get(body, -1)  # fast path: a pawn push such as 'e4'
    if to < 0:
        if len(body) == 3 and body[0] in TYPE_OF_LETTER:  # fast path: 'Nf3'
            to = index.get(body[1:], -1)
        if to >= 0:
            letter = body[0]
        else:
            match = MOVE_RE.fullmatch(text)
            if match is None:
                castle = CASTLE_RE.fullmatch(text)
                if castle is not None:
                    return _parse_castling(pos, text, castle, files, codes, cells)
                if text in ("--", "Z0", "0000", "@@@@"):
                    raise InvalidMoveError(f"invalid SAN {text!r}: null moves are not supported")
                raise InvalidMoveError(f"invalid SAN {text!r}: {_EXAMPLES}")
            letter, dfile, drank, target, pletter, dash = match.groups()
            to = index.get(target, -1)
            if to < 0:
                _square(text, target, files)  # raises, naming the bad square
            if dfile is not None or drank is not None:
                from_file, from_rank = _from_filters(text, dfile, drank, files)
    tk = to << 7
    pbits = 0  # promotion bits (14-18) of the move
    if pletter is not None:
        promotion = TYPE_OF_LETTER.get(pletter.upper(), 0)
        if not promotion or promotion == KING:
            raise InvalidMoveError(f"invalid SAN {text!r}: cannot promote to {pletter!r}")
        if dash is not None and promotion not in (7, 8):
            raise InvalidMoveError(
                f"invalid SAN {text!r}: only a Guard promotion (=G, =W) can waive queen powers"
            )
        pbits = (promotion | (16 if dash is not None else 0)) << 14
    # Candidate from squares: those holding the named piece (a pawn on the given file, or on
    # the target's file); the legal move list decides, as python-chess does with its masks.
    color = 16 if pos.turn() else 0
    if letter is not None:
        froms = _squares_holding(cells, TYPE_OF_LETTER[letter] | color)
    elif dfile is not None and drank is not None:
        froms = [from_rank * files + from_file]
    else:
        file = from_file if from_file >= 0 else to % files
        column = cells[file::files]
        froms = [file + rank * files for rank in _squares_holding(column, PAWN | color)]
    if from_file >= 0 and letter is not None:
        froms = [f for f in froms if f % files == from_file]
    if from_rank >= 0 and (letter is not None or dfile is None):
        froms = [f for f in froms if f // files == from_rank]
    tk |= pbits
    matches = [f | tk for f in froms if f | tk in codes]
    if len(matches) == 1:
        return matches[0]
    if not matches and not pbits:
        starts = {f | tk for f in froms}  # tk has no promotion bits here
        if any(c & 0x3FFF in starts and c >> 14 & 0xF for c in codes):
            raise IllegalMoveError(
                f"illegal SAN {text!r} in {pos.fen()}: a promotion piece is needed (such as '=Q')"
            )
    return _one(pos, text, matches, files, codes, cells)
