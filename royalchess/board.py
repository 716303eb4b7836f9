"""The :class:`Board`: a game position with its move stack, python-chess style.

>>> board = Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> board.san(board.parse_uci("e7e5"))
'e5'
>>> Board(variant="royal").perft(2)
576

Every rule question goes to the C core (``royalchess._core``); this module converts and keeps
the move stack. Bad input never changes the board: the exception leaves it as it was.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple, overload

from royalchess import _core
from royalchess.errors import IllegalMoveError, InvalidFenError, InvalidSquareError
from royalchess.move import _CASTLING, BLACK, KING, UNICODE_PIECE_SYMBOLS, WHITE, Move, Piece
from royalchess.notation.san import parse_san, write_san
from royalchess.notation.squares import FILE_NAMES, square_name
from royalchess.outcome import Outcome, Termination
from royalchess.variants import Variant, get_variant

__all__ = ["Board", "GuardMoves", "LegalMoves"]

_PIECES: dict[int, Piece] = {}


def _piece(cell: int) -> Piece:
    """Return the Piece of a ``Position.board()`` cell (non-zero)."""
    piece = _PIECES.get(cell)
    if piece is None:
        piece = _PIECES[cell] = Piece(cell & 15, bool(cell & 16), bool(cell & 32))
    return piece


class _Probe(Collection[int]):
    """Legal move codes of a position, asked of the core one code at a time."""

    __slots__ = ("_pos",)

    def __init__(self, pos: _core.Position) -> None:
        self._pos = pos

    def __contains__(self, code: object) -> bool:
        return type(code) is int and self._pos.is_legal(code)

    def __iter__(self) -> Iterator[int]:
        return iter(self._pos.legal_moves())

    def __len__(self) -> int:
        return len(self._pos.legal_moves())


class GuardMoves(NamedTuple):
    """The squares a Guard can reach, its major and minor moves apart (pseudo-legal)."""

    major: list[int]
    """Targets of the major move (captures allowed on every square of it)."""
    minor: list[int]
    """Targets of the minor move (captures only on the first square of each line)."""


class LegalMoves(Sequence[Move]):
    """The legal moves of a position, as a read-only sequence of :class:`Move`.

    A snapshot taken when ``Board.legal_moves`` was read; it supports ``len``, ``in``,
    iteration and indexing.
    """

    __slots__ = ("_codes", "_files")

    def __init__(self, codes: list[int], files: int) -> None:
        self._codes = codes
        self._files = files

    def __len__(self) -> int:
        return len(self._codes)

    def __bool__(self) -> bool:
        return bool(self._codes)

    def __iter__(self) -> Iterator[Move]:
        files = self._files
        for code in self._codes:
            yield Move.from_code(code, files)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.files == self._files and move.code() in self._codes

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [Move.from_code(c, self._files) for c in self._codes[index]]
        return Move.from_code(self._codes[index], self._files)

    def count(self, value: object = None) -> int:
        """Return the number of legal moves (or, given a move, 1 if it is legal, else 0)."""
        if value is None:
            return len(self._codes)
        return int(value in self)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.uci() for m in self)})>"


class Board:
    """A position of standard chess (``variant="chess"``) or Royal Chess (``"royal"``).

    *fen* defaults to the variant's start position; a bad one raises
    :class:`~royalchess.errors.InvalidFenError` naming the bad field.
    """

    __slots__ = ("_cells", "_codes", "_codeset", "_pos", "_stack", "_variant")

    def __init__(self, fen: str | None = None, variant: str = "chess") -> None:
        info = get_variant(variant)
        if fen is None:
            fen = info.start_fen
        elif not isinstance(fen, str):
            raise TypeError(f"a FEN is a string, not {type(fen).__name__}")
        bad = next((c for c in fen if not c.isprintable() and c not in " \t\r\n"), None)
        if bad is None:
            bad = next((c for c in fen if not c.isascii()), None)
        if bad is not None:
            raise InvalidFenError(f"FEN contains a character that is not allowed ({bad!a})")
        try:
            self._pos = _core.Position(fen.strip(), info.core_id)
        except ValueError as exc:
            raise InvalidFenError(str(exc)) from None
        self._variant = info
        self._stack: list[Move] = []
        self._codes: list[int] | None = None
        self._codeset: Collection[int] | None = None
        self._cells: list[int] | None = None

    # -- caches ---------------------------------------------------------------------------

    def _legal(self) -> list[int]:
        codes = self._codes
        if codes is None:
            codes = self._codes = self._pos.legal_moves()
        return codes

    def _legal_set(self) -> Collection[int]:
        # The legal codes for membership tests, cheapest first: the core answers the first
        # lookup in a position code by code; the second generates the list; from the third on
        # a set (building one costs about as much as two list scans).
        members = self._codeset
        if members is None:
            members = self._codeset = self._codes if self._codes is not None else _Probe(self._pos)
        elif type(members) is _Probe:
            members = self._codeset = self._legal()
        elif type(members) is list:
            members = self._codeset = frozenset(members)
        return members

    def _board(self) -> list[int]:
        cells = self._cells
        if cells is None:
            cells = self._cells = self._pos.board()
        return cells

    def _code(self, move: Move) -> int:
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move, not {type(move).__name__}")
        if move.files != self._variant.files:
            raise IllegalMoveError(
                f"move {move.uci()!r} is for a board {move.files} files wide, "
                f"not {self._variant.files}"
            )
        return move.code()

    def _legal_code(self, move: Move) -> int:
        code = self._code(move)
        if code not in self._legal_set():
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {self.fen()}")
        return code

    def _check_square(self, square: int) -> None:
        if type(square) is not int or not 0 <= square < self._variant.squares:
            raise InvalidSquareError(
                f"square {square!r} is off the {self._variant.files}x{self._variant.ranks} board"
            )

    # -- basic state ----------------------------------------------------------------------

    @property
    def variant(self) -> str:
        """The variant's name: ``'chess'`` or ``'royal'``."""
        return self._variant.name

    @property
    def variant_info(self) -> Variant:
        """The variant as data (:class:`~royalchess.variants.Variant`)."""
        return self._variant

    @property
    def files(self) -> int:
        """Number of files of the board (8 or 10)."""
        return self._variant.files

    @property
    def ranks(self) -> int:
        """Number of ranks of the board (8)."""
        return self._variant.ranks

    @property
    def turn(self) -> bool:
        """The side to move: ``WHITE`` (True) or ``BLACK`` (False)."""
        return self._pos.turn()

    @property
    def castling_rights(self) -> str:
        """Castling rights as in FEN field 3 (``'KQkq'``), ``'-'`` when none."""
        return self._pos.castling_rights()

    @property
    def ep_square(self) -> int | None:
        """The en passant target square of FEN field 4, or ``None``."""
        sq = self._pos.ep_square()
        return None if sq < 0 else sq

    @property
    def recapture_square(self) -> int | None:
        """Royal Chess: the square of a Rook-pair recapture right (FEN field 7), or ``None``."""
        sq = self._pos.recapture_square()
        return None if sq < 0 else sq

    @property
    def halfmove_clock(self) -> int:
        """Half-moves since the last capture or pawn move."""
        return self._pos.halfmove_clock()

    @property
    def fullmove_number(self) -> int:
        """The move number, starting at 1 and incremented after Black's move."""
        return self._pos.fullmove_number()

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first (a copy)."""
        return list(self._stack)

    def ply(self) -> int:
        """Half-moves played since the start of the game (from the move number and turn)."""
        return 2 * (self.fullmove_number - 1) + (self.turn == BLACK)

    def fen(self) -> str:
        """Return the FEN of the position (Royal Chess: 7th field only when set)."""
        return self._pos.fen()

    def zobrist_hash(self) -> int:
        """Return the core's 64-bit hash of the position's repetition identity."""
        return self._pos.hash()

    def piece_at(self, square: int) -> Piece | None:
        """Return the piece on *square*, or ``None`` if it is empty."""
        self._check_square(square)
        cell = self._board()[square]
        return _piece(cell) if cell else None

    def piece_map(self) -> dict[int, Piece]:
        """Return every occupied square with its piece."""
        return {sq: _piece(cell) for sq, cell in enumerate(self._board()) if cell}

    def king(self, color: bool) -> int | None:
        """Return the square of the King of *color*, or ``None`` if there is none."""
        want = KING | (16 if color else 0)
        for sq, cell in enumerate(self._board()):
            if cell & 31 == want:
                return sq
        return None

    # -- moves ----------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the position (a snapshot: supports ``len``, ``in``, iteration)."""
        return LegalMoves(self._legal(), self._variant.files)

    def is_legal(self, move: Move) -> bool:
        """Return whether *move* is legal here."""
        return (
            isinstance(move, Move)
            and move.files == self._variant.files
            and move.code() in self._legal_set()
        )

    def push(self, move: Move) -> None:
        """Play *move*; raise :class:`IllegalMoveError` (board unchanged) if it is not legal."""
        code = self._code(move)
        try:
            self._pos.push(code)
        except ValueError:
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {self.fen()}") from None
        self._stack.append(move)
        self._codes = self._codeset = self._cells = None

    def pop(self) -> Move:
        """Take back the last move and return it; raise :class:`IndexError` if there is none."""
        if not self._stack:
            raise IndexError("pop from an empty move stack")
        self._pos.pop()
        self._codes = self._codeset = self._cells = None
        return self._stack.pop()

    def peek(self) -> Move:
        """Return the last move played; raise :class:`IndexError` if there is none."""
        if not self._stack:
            raise IndexError("peek at an empty move stack")
        return self._stack[-1]

    def parse_uci(self, uci: str) -> Move:
        """Return the legal move spelled *uci* (``e2e4``, ``e7e8g-``, ``f1h1j1g1``).

        Raises :class:`InvalidMoveError` for garbled text, :class:`IllegalMoveError` for a
        move that is not legal here. In standard chess, ``e1h1`` and friends are read as
        castling, as python-chess does.
        """
        files = self._variant.files
        move = Move.from_uci(uci, files)
        code = move.code()
        codes = self._legal()
        if code in codes:
            return Move.from_code(code, files)
        hint = ""
        if move.promotion is None and move.rook_from is None:
            frm, to = move.from_square, move.to_square
            if files == 8:
                # the King's move onto its own Rook names the castling with that Rook
                for alias, rook_from, _ in self._pos.castling_moves():
                    if alias & 0x7F == frm and rook_from == to:
                        return Move.from_code(alias, files)
            else:
                castlings = [
                    Move.from_code(c, files).uci()
                    for c in codes
                    if c & _CASTLING and c & 0x3FFF == code
                ]
                if castlings:
                    hint = f"; castling is written with the Rook's move: {', '.join(castlings)}"
        raise IllegalMoveError(f"illegal move {uci!r} in {self.fen()}{hint}")

    def push_uci(self, uci: str) -> Move:
        """Parse *uci* (see :meth:`parse_uci`), play it and return the move."""
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def uci(self, move: Move) -> str:
        """Return the UCI spelling of *move* (no legality check, as python-chess)."""
        self._code(move)
        return move.uci()

    def san(self, move: Move) -> str:
        """Return the SAN of the legal *move* (``Nf3``, ``exd8=Q+``, ``Wg3_O-O:h1``)."""
        code = self._code(move)
        codes = self._legal_set()
        if code not in codes:
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {self.fen()}")
        return write_san(self._pos, code, self._variant.files, codes, self._board())

    def parse_san(self, san: str) -> Move:
        """Return the legal move that *san* names.

        Raises :class:`InvalidMoveError`, :class:`IllegalMoveError` or
        :class:`AmbiguousMoveError`.
        """
        files = self._variant.files
        code = parse_san(self._pos, san, files, self._legal_set(), self._board())
        return Move.from_code(code, files)

    def push_san(self, san: str) -> Move:
        """Parse *san* (see :meth:`parse_san`), play it and return the move."""
        move = self.parse_san(san)
        self.push(move)
        return move

    def san_and_push(self, move: Move) -> str:
        """Return the SAN of *move*, then play it."""
        text = self.san(move)
        self.push(move)
        return text

    def variation_san(self, moves: Sequence[Move]) -> str:
        """Return *moves* from here in numbered SAN (``1. e4 e5 2. Nf3``); the board is kept.

        Raises :class:`IllegalMoveError` if one of them is illegal where it is played.
        """
        board = self.copy()
        parts: list[str] = []
        for move in moves:
            number = board.fullmove_number
            text = board.san_and_push(move)
            if board.turn == BLACK:
                parts.append(f"{number}. {text}")
            elif not parts:
                parts.append(f"{number}...{text}")
            else:
                parts.append(text)
        return " ".join(parts)

    def is_capture(self, move: Move) -> bool:
        """Return whether the legal *move* captures (en passant and Guard pre-moves included)."""
        return self._pos.is_capture(self._legal_code(move))

    def is_en_passant(self, move: Move) -> bool:
        """Return whether the legal *move* is an en passant capture."""
        return self._pos.is_en_passant(self._legal_code(move))

    def gives_check(self, move: Move) -> bool:
        """Return whether the legal *move* gives check."""
        return self._pos.gives_check(self._legal_code(move))

    def is_castling(self, move: Move) -> bool:
        """Return whether the legal *move* is castling (the core says, in both games)."""
        return self._pos.is_castling(self._legal_code(move))

    def is_kingside_castling(self, move: Move) -> bool:
        """Return whether the legal *move* is castling on the King's side (``O-O``)."""
        if not self.is_castling(move):
            return False
        if move.rook_from is not None:
            return move.rook_from % self.files > move.from_square % self.files
        return move.to_square > move.from_square

    def is_queenside_castling(self, move: Move) -> bool:
        """Return whether the legal *move* is castling on the Queen's side (``O-O-O``)."""
        return self.is_castling(move) and not self.is_kingside_castling(move)

    def promotion_choices(self) -> list[int]:
        """Return the piece types the side to move may promote to now."""
        return self._pos.promotion_choices()

    def guard_moves(self, square: int) -> GuardMoves:
        """Return the major and minor targets of the Guard on *square* (pseudo-legal)."""
        self._check_square(square)
        major, minor = self._pos.guard_moves(square)
        return GuardMoves(list(major), list(minor))

    # -- game end -------------------------------------------------------------------------

    def is_check(self) -> bool:
        """Return whether the side to move is in check."""
        return self._pos.is_check()

    def is_attacked_by(self, color: bool, square: int) -> bool:
        """Return whether *color* attacks *square* (as python-chess's ``is_attacked_by``).

        Royal Chess attacks include Rooks seeing through their own Guards on their first
        rank and a recapture right the side to move holds (rules 3.1a and 3.1c).
        """
        self._check_square(square)
        return self._pos.is_attacked_by(color, square)

    def attackers(self, color: bool, square: int) -> list[int]:
        """Return the squares (ascending) of *color*'s pieces that attack *square*.

        By the rules of :meth:`is_attacked_by` (Rooks through their Guards on their first
        rank, a recapture right the side to move holds).
        """
        self._check_square(square)
        return self._pos.attackers(color, square)

    @property
    def pseudo_legal_moves(self) -> LegalMoves:
        """The moves the side to move's pieces could make if its King's safety did not count
        (castling excluded): for explaining why a move is illegal."""
        return LegalMoves(self._pos.pseudo_legal_moves(), self._variant.files)

    def checkers_after(self, move: Move) -> list[int]:
        """Return the squares of the pieces that would attack the mover's King after the
        pseudo-legal *move* (empty when it is legal); :class:`IllegalMoveError` otherwise."""
        try:
            return self._pos.checkers_after(self._code(move))
        except ValueError:
            raise IllegalMoveError(f"move {move.uci()!r} is not pseudo-legal here") from None

    def board_fen(self) -> str:
        """Return the piece placement part of the FEN (queen powers marked with ``*``)."""
        return self.fen().split(" ", 1)[0]

    def is_checkmate(self) -> bool:
        """Return whether the side to move is checkmated."""
        return self._pos.is_check() and not self._legal()

    def is_stalemate(self) -> bool:
        """Return whether the side to move has no legal move and is not in check."""
        return not self._pos.is_check() and not self._legal()

    def is_insufficient_material(self) -> bool:
        """Return whether neither side can mate (chess: python-chess's rule)."""
        return self._pos.is_insufficient_material()

    def _is_halfmoves(self, n: int) -> bool:
        return self._pos.halfmove_clock() >= n and bool(self._legal())

    def is_seventyfive_moves(self) -> bool:
        """Return whether 75 moves by each side passed without capture or pawn move."""
        return self._is_halfmoves(150)

    def is_fifty_moves(self) -> bool:
        """Return whether 50 moves by each side passed without capture or pawn move."""
        return self._is_halfmoves(100)

    def is_repetition(self, count: int = 3) -> bool:
        """Return whether the current position has occurred *count* times (this one included)."""
        return self._pos.repetition_count() >= count

    def is_fivefold_repetition(self) -> bool:
        """Return whether the current position has occurred five times."""
        return self._pos.repetition_count() >= 5

    def can_claim_fifty_moves(self) -> bool:
        """Return whether a fifty-move draw can be claimed now or with the next move."""
        if self._is_halfmoves(100):
            return True
        pos = self._pos
        if pos.halfmove_clock() >= 99:
            for code in self._legal():
                pos.push(code)
                try:
                    if pos.halfmove_clock() >= 100 and pos.legal_moves():
                        return True
                finally:
                    pos.pop()
        return False

    def can_claim_threefold_repetition(self) -> bool:
        """Return whether the position occurred three times, or a legal move repeats it so."""
        pos = self._pos
        if pos.repetition_count() >= 3:
            return True
        for code in self._legal():
            pos.push(code)
            try:
                if pos.repetition_count() >= 3:
                    return True
            finally:
                pos.pop()
        return False

    def can_claim_draw(self) -> bool:
        """Return whether a draw can be claimed (fifty moves or threefold repetition)."""
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """Return how the game ended, or ``None`` if it goes on.

        Checked in python-chess's order: checkmate, insufficient material, stalemate,
        seventy-five moves, fivefold repetition, then (with *claim_draw*) fifty moves and
        threefold repetition.
        """
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, not self.turn)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if not self._legal():
            return Outcome(Termination.STALEMATE, None)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if self.is_fivefold_repetition():
            return Outcome(Termination.FIVEFOLD_REPETITION, None)
        if claim_draw:
            if self.can_claim_fifty_moves():
                return Outcome(Termination.FIFTY_MOVES, None)
            if self.can_claim_threefold_repetition():
                return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Return whether the game has ended (see :meth:`outcome`)."""
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        """Return ``'1-0'``, ``'0-1'``, ``'1/2-1/2'``, or ``'*'`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return outcome.result() if outcome else "*"

    # -- counting -------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Count the leaf nodes of the legal move tree *depth* plies deep."""
        if type(depth) is not int or depth < 0:
            raise ValueError(f"perft depth must be a non-negative integer, not {depth!r}")
        return self._pos.perft(depth)

    def divide(self, depth: int) -> list[tuple[Move, int]]:
        """Return each legal move with the perft count *depth* - 1 plies below it."""
        if type(depth) is not int or depth < 1:
            raise ValueError(f"divide depth must be a positive integer, not {depth!r}")
        files = self._variant.files
        return [(Move.from_code(code, files), n) for code, n in self._pos.divide(depth)]

    # -- copies, comparison, display ------------------------------------------------------

    def copy(self) -> Board:
        """Return an independent copy, move stack and repetition history included."""
        board = Board.__new__(Board)
        board._pos = self._pos.copy()
        board._variant = self._variant
        board._stack = self._stack.copy()
        board._codes = self._codes
        board._codeset = None
        board._cells = self._cells
        return board

    def __copy__(self) -> Board:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def reset(self) -> None:
        """Go back to the variant's start position with an empty move stack."""
        self._pos = _core.Position(self._variant.start_fen, self._variant.core_id)
        self._stack.clear()
        self._codes = self._codeset = self._cells = None

    def __eq__(self, other: object) -> bool:
        """Same variant and position, as python-chess compares boards: the pieces, side to
        move, castling rights, clocks and the en passant/recapture captures that are legal
        (an en passant square with no legal capture does not count). Move stacks are ignored.
        """
        if not isinstance(other, Board):
            return NotImplemented
        if self._variant is not other._variant or self._pos.hash() != other._pos.hash():
            return False
        mine, theirs = self.fen().split(), other.fen().split()
        return mine[:3] == theirs[:3] and mine[4:6] == theirs[4:6]

    __hash__ = None  # type: ignore[assignment]

    def _render(
        self, glyphs: dict[int, str], empty: str, coordinates: bool, orientation: bool
    ) -> str:
        files, ranks = self._variant.files, self._variant.ranks
        cells = self._board()
        rank_order = range(ranks - 1, -1, -1) if orientation else range(ranks)
        file_order = list(range(files) if orientation else range(files - 1, -1, -1))
        lines = []
        for rank in rank_order:
            row = []
            for file in file_order:
                cell = cells[rank * files + file]
                row.append(glyphs[cell & 31] + ("*" if cell & 32 else " ") if cell else empty + " ")
            line = "".join(row).rstrip()
            lines.append(f"{rank + 1} {line}" if coordinates else line)
        if coordinates:
            lines.append("  " + " ".join(FILE_NAMES[f] for f in file_order))
        return "\n".join(lines)

    def ascii(self, *, coordinates: bool = False, orientation: bool = WHITE) -> str:
        """Return the board as letters (``.`` for empty, ``*`` after a queen-powered Guard)."""
        return self._render(_ASCII, ".", coordinates, orientation)

    def unicode(
        self,
        *,
        invert_color: bool = False,
        borders: bool = False,
        empty_square: str = "⭘",
        orientation: bool = WHITE,
    ) -> str:
        """Return the board with Unicode pieces; *borders* adds rank and file labels."""
        glyphs = _UNICODE_INVERTED if invert_color else _UNICODE
        return self._render(glyphs, empty_square, borders, orientation)

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        if self._variant.name == "chess":
            return f"Board({self.fen()!r})"
        return f"Board({self.fen()!r}, variant={self._variant.name!r})"

    def square_name(self, square: int) -> str:
        """Return the name of *square* on this board (``'j1'``)."""
        return square_name(square, self._variant.files, self._variant.ranks)


_ASCII = {t | c: Piece(t, bool(c)).symbol() for t in range(1, 9) for c in (0, 16)}
_UNICODE = {key: UNICODE_PIECE_SYMBOLS[sym] for key, sym in _ASCII.items()}
_UNICODE_INVERTED = {key: UNICODE_PIECE_SYMBOLS[sym.swapcase()] for key, sym in _ASCII.items()}
