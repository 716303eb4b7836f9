r"""The seed's position record for Royal Chess (rules page, section 9), read and written.

The record lists the ranks from White's side, rank 8 first; each rank is a run of
space-separated tokens ending with ``,``: a piece letter (``K Q G' G R B N P``, lower case for
Black; ``G'`` is the King's Guard, ``G`` the Queen's Guard) or a count of empty squares. A rank
that is empty at its end may leave the count out, and ``0`` is an empty rank. A last line names
the side to move and its move number: ``WM 12`` or ``BM 41`` (``WM-24`` is read too)::

    7 g' k,
    p p 4 r p p p,
    2 p g 1 R p n,
    3 p b,
    0,
    2 P B 2 N,
    P P 1 Q 1 G P P P P,
    7 K G',
    BM 41

Choices where the format is silent (documented in ``docs/royal-chess.md``):

- **Castling rights** are not recorded. Reading grants each right whose King and Rook stand on
  their start squares (King ``f1``/``f8``, Rooks ``a``/``j`` on the back rank).
- **En passant and recapture squares** are not recorded: reading sets none; the half-move
  clock reads as 0.
- **Queen powers** (a Guard just made by promotion) have no letter in the seed; writing marks
  such a Guard with ``*`` after its letter (``G*``, ``g'*``) and reading accepts that mark, so
  the record reads back what it writes.
- Reading is lenient about layout: ranks may be split by ``,``, by line breaks or both, and
  letters may stand without spaces between them (``PP1Q``).
"""

from __future__ import annotations

import re

from royalchess.board import Board
from royalchess.errors import InvalidFenError, InvalidRecordError
from royalchess.variants import ROYAL

__all__ = ["format", "parse"]

_TOKEN = re.compile(r"\s*(?:(\d+)|([KQGRBNPkqgrbnp])('?)(\*?))")
_SIDE = re.compile(r"([WwBb])[Mm]\s*-?\s*(\d+)")
# record letter (with apostrophe) -> FEN letter, both colours
_TO_FEN = {"G'": "W", "g'": "w", "G": "G", "g": "g"}
_FROM_FEN = {"W": "G'", "w": "g'"}


def _rank_to_fen(text: str, number: int, files: int) -> str:
    """Translate one rank of the record into a FEN rank."""
    if text == "0":
        return str(files)
    out: list[str] = []
    filled = 0
    empty = 0
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            bad = text[pos:].split()[0]
            raise InvalidRecordError(f"record rank {number}: {bad!r} is not a piece or a count")
        pos = match.end()
        count, letter, prime, star = match.groups()
        if count is not None:
            n = int(count)
            if n == 0:
                raise InvalidRecordError(f"record rank {number}: '0' can only stand alone")
            empty += n
            filled += n
        else:
            if prime and letter not in "Gg":
                raise InvalidRecordError(
                    f"record rank {number}: {letter + prime!r} is not a piece (only G' has a ')"
                )
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(_TO_FEN.get(letter + prime, letter) + star)
            filled += 1
        if filled > files:
            raise InvalidRecordError(
                f"record rank {number}: {text!r} has more than {files} squares"
            )
    empty += files - filled
    if empty:
        out.append(str(empty))
    return "".join(out)


def _castling(rows: list[str]) -> str:
    """Grant each right whose King and Rook stand on their start squares."""
    rights = ""
    white, black = rows[7], rows[0]
    if white[5] == "K":
        rights += "K" if white[9] == "R" else ""
        rights += "Q" if white[0] == "R" else ""
    if black[5] == "k":
        rights += "k" if black[9] == "r" else ""
        rights += "q" if black[0] == "r" else ""
    return rights or "-"


def _expand(fen_rank: str) -> str:
    """Return a FEN rank with one character a square (``.`` for empty; ``*`` marks dropped)."""
    out = ""
    for match in re.finditer(r"\d+|[A-Za-z]", fen_rank):
        token = match.group()
        out += "." * int(token) if token.isdigit() else token
    return out


def parse(text: str) -> Board:
    """Read a position record and return the Royal Chess :class:`Board` it describes.

    Raises :class:`~royalchess.errors.InvalidRecordError` naming the bad part.
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"a position record is text, not {type(text).__name__}")
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise InvalidRecordError("empty position record")
    side = _SIDE.fullmatch(lines[-1])
    if side is None:
        raise InvalidRecordError(
            f"record: the last line {lines[-1]!r} should name the side to move, "
            "such as 'WM 1' or 'BM 41'"
        )
    ranks = [r.strip() for r in re.split(r"[,\n]", "\n".join(lines[:-1])) if r.strip()]
    if len(ranks) != ROYAL.ranks:
        raise InvalidRecordError(
            f"record has {len(ranks)} ranks, expected {ROYAL.ranks} (each ended by ',')"
        )
    fen_ranks = [_rank_to_fen(rank, ROYAL.ranks - i, ROYAL.files) for i, rank in enumerate(ranks)]
    color = "w" if side.group(1) in "Ww" else "b"
    number = int(side.group(2))
    if number < 1:
        raise InvalidRecordError(f"record: move number {number} should be 1 or more")
    castling = _castling([_expand(r) for r in fen_ranks])
    fen = f"{'/'.join(fen_ranks)} {color} {castling} - 0 {number}"
    try:
        return Board(fen, variant=ROYAL.name)
    except InvalidFenError as exc:
        raise InvalidRecordError(f"record describes an impossible position: {exc}") from None


def format(board: Board) -> str:  # noqa: A001 - the module's documented verb
    """Write *board* (Royal Chess) as a position record; :func:`parse` reads it back."""
    if board.variant != ROYAL.name:
        raise InvalidRecordError(
            f"the position record is for Royal Chess, not {board.variant_info.title}"
        )
    placement = board.fen().split()[0]
    lines = []
    for fen_rank in placement.split("/"):
        tokens = re.findall(r"\d+|[A-Za-z]\*?", fen_rank)
        if tokens and tokens[-1].isdigit():
            tokens.pop()  # a rank empty at its end leaves the count out
        words = [_FROM_FEN.get(t[0], t[0]) + t[1:] if not t.isdigit() else t for t in tokens]
        lines.append((" ".join(words) or "0") + ",")
    side = "WM" if board.turn else "BM"
    lines.append(f"{side} {board.fullmove_number}")
    return "\n".join(lines) + "\n"
