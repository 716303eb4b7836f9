"""The coach: says in words why a move is not legal, for chess and Royal Chess.

>>> from royalchess import Board
>>> explain_illegal(Board(), "Bc4")
'The Bishop on f1 cannot reach c4: your pawn on e2 is in the way.'

Every fact comes from the rules core through the public :class:`~royalchess.Board` API: the
legal and pseudo-legal moves, what attacks a square, what would attack the King after a move,
the Guards' major and minor targets, the promotion choices and the castling rights. Where a
claim needs a *what if* (is the piece only blocked? would the pawn capture if something stood
there?) the coach asks the core about a copy of the position with that change, so no rule is
written twice. The geometry here (lines between squares, distances) only chooses the words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from royalchess.board import Board
from royalchess.errors import (
    AmbiguousMoveError,
    ChessError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
)
from royalchess.move import (
    BISHOP,
    GUARDS,
    KING,
    KINGS_GUARD,
    KNIGHT,
    PAWN,
    QUEEN,
    QUEENS_GUARD,
    ROOK,
    Move,
    Piece,
)
from royalchess.notation.san import CASTLE_RE, MOVE_RE, TYPE_OF_LETTER
from royalchess.notation.squares import FILE_NAMES

__all__ = ["explain_illegal", "explain_move", "explain_squares", "read_move"]

_NAMES = {
    PAWN: "pawn",
    KNIGHT: "Knight",
    BISHOP: "Bishop",
    ROOK: "Rook",
    QUEEN: "Queen",
    KING: "King",
    QUEENS_GUARD: "Queen's Guard",
    KINGS_GUARD: "King's Guard",
}
_HOW = {
    PAWN: "a pawn moves straight forward (two squares from its start) and captures "
    "diagonally forward",
    KNIGHT: "a Knight jumps two squares one way and one square to the side",
    BISHOP: "a Bishop moves diagonally",
    ROOK: "a Rook moves along ranks and files",
    QUEEN: "a Queen moves along ranks, files and diagonals",
    KING: "a King moves one square in any direction",
    QUEENS_GUARD: "a Queen's Guard moves 1-3 squares diagonally (major move) or "
    "orthogonally (minor move)",
    KINGS_GUARD: "a King's Guard moves 1-3 squares orthogonally (major move) or "
    "diagonally (minor move)",
}
_UCI_RE = re.compile(r"[a-j][1-8][a-j][1-8](?:[a-z]-?|[a-j][1-8][a-j][1-8](?:[a-j][1-8]){0,2})?")
_PROMOTION_LETTERS = {QUEEN: "Q", ROOK: "R", BISHOP: "B", KNIGHT: "N", 7: "G", 8: "W"}
_NOT_CASTLING = "Castling is not possible now: "


def explain_illegal(board: Board, text: str) -> str:
    """Return in words why the typed move *text* (SAN or UCI) is not legal on *board*.

    A legal move gets ``"'e4' is a legal move."``; the board is never changed.
    """
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        return "Type a move, such as e4 or Nf3."
    if _UCI_RE.fullmatch(text):
        try:
            move = Move.from_uci(text, board.files)
        except InvalidMoveError:
            pass
        else:
            if _is_legal_uci(board, text):
                return f"'{text}' is a legal move."
            return explain_move(board, move)
    try:
        board.parse_san(text)
    except AmbiguousMoveError as exc:
        return _ambiguous(text, str(exc))
    except InvalidMoveError as exc:
        return _garbled(text, str(exc))
    except IllegalMoveError:
        return _explain_san(board, text)
    return f"'{text}' is a legal move."


def read_move(board: Board, text: str) -> Move:
    """Return the legal move *text* names (UCI when spelled so, else SAN).

    When there is none, raise the same :class:`~royalchess.errors.ChessError` kind the board
    raised (invalid, illegal or ambiguous), with the coach's words as its message, so a
    player reads why instead of a FEN.
    """
    try:
        try:
            Move.from_uci(text, board.files)
        except InvalidMoveError:
            return board.parse_san(text)
        return board.parse_uci(text)
    except ChessError as exc:
        raise type(exc)(explain_illegal(board, text)) from None


def explain_squares(board: Board, from_square: int, to_square: int) -> str:
    """Return in words why moving the piece on *from_square* to *to_square* is not legal
    (a click or a drag on the page). A promotion is taken to be the best one available."""
    piece = board.piece_at(from_square)
    promotion = None
    if piece is not None and piece.piece_type == PAWN and _on_last_rank(board, to_square):
        choices = board.promotion_choices()
        promotion = choices[0] if choices else None
    legal = [m for m in board.legal_moves if _same_squares(board, m, from_square, to_square)]
    if legal:
        return f"'{board.san(legal[0])}' is a legal move."
    return explain_move(board, Move(from_square, to_square, promotion, files=board.files))


def explain_move(board: Board, move: Move) -> str:
    """Return in words why *move* is not legal on *board*."""
    if board.is_legal(move):
        return f"'{board.san(move)}' is a legal move."
    if move.rook_from is not None and move.rook_to is not None:
        kingside = move.rook_from % board.files > move.from_square % board.files
        guard = None
        if move.guard_from is not None and move.guard_to is not None:
            guard = (move.guard_from, move.guard_to)
        return _explain_castling(board, kingside, move.to_square, guard)
    castlings = [
        m.uci()
        for m in board.legal_moves
        if m.rook_from is not None
        and m.guard_from is None
        and (m.from_square, m.to_square) == (move.from_square, move.to_square)
    ]
    if castlings:
        return (
            "In Royal Chess a castling move names the Rook's move too: "
            f"{_join(castlings, 'or')} (or O-O:{board.square_name(move.to_square)} in SAN)."
        )
    return _explain_pair(board, move.from_square, move.to_square, move.promotion, move.waived)[1]


# -- spellings ---------------------------------------------------------------------------


def _is_legal_uci(board: Board, text: str) -> bool:
    try:
        board.parse_uci(text)
    except ChessError:
        return False
    return True


def _garbled(text: str, message: str) -> str:
    reason = message.split(": ", 1)[1] if ": " in message else message
    if reason.startswith("expected a move"):
        reason = "write a move such as e4, Nf3, exd5, e8=Q or O-O"
    return f"'{text}' is not a move: {reason}."


def _ambiguous(text: str, message: str) -> str:
    tail = message.rsplit(": ", 1)[-1]
    for lead in ("could be ", "add the King's square, one of "):
        tail = tail.removeprefix(lead)
    return f"'{text}' could be more than one move: {_join(tail.split(', '), 'or')}. Say which."


def _join(words: list[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _explain_san(board: Board, text: str) -> str:
    """A well-formed SAN move that no legal move matches."""
    castle = CASTLE_RE.fullmatch(text)
    if MOVE_RE.fullmatch(text) is None and castle is not None:
        gletter, gfile, grank, _, gtarget, side, target = castle.groups()
        king_to = _square_of(board, target) if target else None
        guard = None
        if gletter is not None and gtarget is not None:
            found = _castling_guard(board, side.count("-") == 1, gletter, gfile, grank)
            if isinstance(found, str):
                return found
            guard = (found, _square_of(board, gtarget))
        return _explain_castling(board, side.count("-") == 1, king_to, guard)
    match = MOVE_RE.fullmatch(text)
    if match is None:  # parse_san accepted no other shapes
        return f"'{text}' is not a legal move here."
    letter, dfile, drank, target, pletter, dash = match.groups()
    to = _square_of(board, target)
    ptype = TYPE_OF_LETTER[letter] if letter else PAWN
    if ptype in GUARDS and board.variant == "chess":
        return f"Chess has no {_NAMES[ptype]}: it is a Royal Chess piece."
    promotion = TYPE_OF_LETTER.get(pletter.upper()) if pletter else None
    color = board.turn
    mine = [
        sq
        for sq, p in sorted(board.piece_map().items())
        if p.color == color and p.piece_type == ptype
    ]
    if not mine:
        return f"You have no {_NAMES[ptype]}."
    froms = mine
    if dfile is not None:
        froms = [sq for sq in froms if FILE_NAMES[sq % board.files] == dfile]
    if drank is not None:
        froms = [sq for sq in froms if str(sq // board.files + 1) == drank]
    if ptype == PAWN and dfile is None:
        froms = [sq for sq in froms if sq % board.files == to % board.files]
    if not froms:
        where = (dfile or "") + (drank or "")
        if ptype == PAWN and not where:
            return f"You have no pawn that can go to {board.square_name(to)}."
        place = f"the {where}-file" if len(where) == 1 and dfile else f"{where}"
        if len(where) == 1 and drank:
            place = f"rank {where}"
        return f"You have no {_NAMES[ptype]} on {place}."
    if ptype == PAWN and len(froms) > 1:
        # Of the pawns on one file, the one nearest the target is the one meant.
        froms = sorted(froms, key=lambda sq: abs(sq // board.files - to // board.files))[:1]
    results = [_explain_pair(board, sq, to, promotion, dash is not None) for sq in froms]
    if len(results) == 1:
        return results[0][1]
    # The most telling explanation; between equals, the piece nearest the target.
    order = sorted(range(len(froms)), key=lambda i: (results[i][0], _distance(board, froms[i], to)))
    results = [results[i] for i in order]
    if results[0][0] == _GEOMETRY:
        return f"None of your {_NAMES[ptype]}s can reach {board.square_name(to)}: {_HOW[ptype]}."
    return results[0][1]


def _distance(board: Board, a: int, b: int) -> int:
    files = board.files
    return max(abs(a % files - b % files), abs(a // files - b // files))


def _square_of(board: Board, name: str) -> int:
    return FILE_NAMES.index(name[0]) + (int(name[1:]) - 1) * board.files


def _same_squares(board: Board, move: Move, frm: int, to: int) -> bool:
    if move.from_square != frm:
        return False
    # A Royal castling clicked as King onto its own Rook counts as that castling.
    return move.to_square == to or (move.rook_from == to and board.files == 10)


# -- one piece, one target -----------------------------------------------------------------

# Kinds of explanation, most telling first (for choosing among several candidate pieces).
_CHECK, _PROMOTION, _BLOCKED, _TARGET, _GUARD_RULE, _GEOMETRY, _OTHER = range(7)


def _desc(board: Board, sq: int, piece: Piece | None = None) -> str:
    """'the Knight on g3' for an opponent's piece, 'your pawn on e2' for one's own."""
    piece = piece or board.piece_at(sq)
    assert piece is not None
    owner = "your" if piece.color == board.turn else "the"
    return f"{owner} {_NAMES[piece.piece_type]} on {board.square_name(sq)}"


def _type_at(board: Board, sq: int) -> int:
    piece = board.piece_at(sq)
    assert piece is not None
    return piece.piece_type


def _the(board: Board, sq: int) -> str:
    piece = board.piece_at(sq)
    assert piece is not None
    return f"the {_NAMES[piece.piece_type]} on {board.square_name(sq)}"


def _explain_pair(
    board: Board, frm: int, to: int, promotion: int | None, waived: bool
) -> tuple[int, str]:
    name = board.square_name
    piece = board.piece_at(frm)
    if piece is None:
        return _OTHER, f"There is no piece on {name(frm)}."
    side = "White" if board.turn else "Black"
    if piece.color != board.turn:
        owner = "Black" if board.turn else "White"
        return _OTHER, (
            f"The {_NAMES[piece.piece_type]} on {name(frm)} is {owner}'s, and it is {side}'s turn."
        )
    what = f"The {_NAMES[piece.piece_type]} on {name(frm)}"
    if frm == to:
        return _OTHER, f"{what} has to move to another square."
    if piece.piece_type == KING:
        castling = _castling_attempt(board, frm, to)
        if castling is not None:
            kingside, king_to = castling
            return _OTHER, _explain_castling(board, kingside, king_to, None)
    target = board.piece_at(to)
    if target is not None and target.color == board.turn:
        return _TARGET, (
            f"{what} cannot reach {name(to)}: your {_NAMES[target.piece_type]} stands there."
        )
    if promotion is not None and (piece.piece_type != PAWN or not _on_last_rank(board, to)):
        return _PROMOTION, "Only a pawn that reaches the last rank can promote."
    pseudo = [m for m in board.pseudo_legal_moves if m.from_square == frm and m.to_square == to]
    if piece.piece_type == PAWN and _on_last_rank(board, to):
        found = _explain_promotion(board, frm, to, promotion, waived, pseudo)
        if found is not None:
            return found
    chosen = [m for m in pseudo if m.promotion == promotion and m.waived == waived]
    if chosen:
        return _CHECK, _explain_check(board, chosen[0], piece)
    return _explain_unreachable(board, frm, to, piece)


def _on_last_rank(board: Board, sq: int) -> bool:
    return sq // board.files == (board.ranks - 1 if board.turn else 0)


def _explain_promotion(
    board: Board, frm: int, to: int, promotion: int | None, waived: bool, pseudo: list[Move]
) -> tuple[int, str] | None:
    """Promotion questions for a pawn move to the last rank; None when they are not the point."""
    choices = board.promotion_choices()
    files = board.files
    from_seventh = abs(frm // files - to // files) == 1 and abs(frm % files - to % files) <= 1
    if board.variant == "royal" and not choices and from_seventh:
        return _PROMOTION, "No piece can promote: you have lost no piece yet (rule 6.1)."
    if not pseudo:
        return None  # the pawn cannot get there at all: say why below
    if promotion is None:
        legal = [m for m in board.legal_moves if m.from_square == frm and m.to_square == to]
        example = board.san(legal[0]) if legal else f"{board.square_name(to)}={_letter(choices[0])}"
        return _PROMOTION, (
            f"A pawn reaching the last rank must promote: name the piece, such as {example}."
        )
    if promotion not in choices:
        names = _join([_NAMES[c] for c in choices], "or")
        if board.variant == "royal":
            return _PROMOTION, (
                f"The pawn cannot become a {_NAMES[promotion]}: a pawn brings back only a piece "
                f"you have lost (rule 6.1), here a {names}."
            )
        return _PROMOTION, f"In chess a pawn becomes a {names}."
    return None


def _letter(piece_type: int) -> str:
    return _PROMOTION_LETTERS[piece_type]


def _explain_check(board: Board, move: Move, piece: Piece) -> str:
    """The move is pseudo-legal, so the only thing wrong is the King's safety."""
    checkers = board.checkers_after(move)
    if not checkers:
        return "That move is not legal here."
    names = _join([_the(board, sq) for sq in checkers])
    if piece.piece_type == KING:
        return (
            f"Your King cannot go to {board.square_name(move.to_square)}: "
            f"it would be in check from {names} there."
        )
    king = board.king(board.turn)
    if board.is_check() and king is not None:
        now = board.attackers(not board.turn, king)
        if set(now) & set(checkers):
            return f"Your King is in check from {names}, and that move does not stop it."
    return f"That move leaves your King in check from {names}."


def _line(board: Board, frm: int, to: int) -> list[int] | None:
    """The squares strictly between *frm* and *to* on a rank, file or diagonal, else None."""
    files = board.files
    df = to % files - frm % files
    dr = to // files - frm // files
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return None
    steps = max(abs(df), abs(dr))
    step = (df > 0) - (df < 0) + ((dr > 0) - (dr < 0)) * files
    return [frm + step * k for k in range(1, steps)]


def _what_if(board: Board, changes: dict[int, Piece | None]) -> Board | None:
    """A copy of *board* with some squares changed (same side to move, no castling, en
    passant or recapture rights), or None when that is no valid position."""
    placement = board.piece_map()
    for sq, piece in changes.items():
        if piece is None:
            placement.pop(sq, None)
        else:
            placement[sq] = piece
    rows = []
    for rank in range(board.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(board.files):
            piece = placement.get(rank * board.files + file)
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece.symbol()
        rows.append(row + (str(empty) if empty else ""))
    fen = f"{'/'.join(rows)} {'w' if board.turn else 'b'} - - 0 1"
    try:
        return Board(fen, variant=board.variant)
    except InvalidFenError:
        return None


def _with_enemy_on(board: Board, sq: int) -> Board | None:
    """A copy of *board* with one of the opponent's pieces (not the King) moved to *sq*."""
    for frm, piece in sorted(board.piece_map().items()):
        if piece.color != board.turn and piece.piece_type != KING:
            found = _what_if(board, {frm: None, sq: piece})
            if found is not None:
                return found
    return None


def _pseudo(board: Board | None, frm: int, to: int) -> bool:
    if board is None:
        return False
    return any(m.from_square == frm and m.to_square == to for m in board.pseudo_legal_moves)


def _explain_unreachable(board: Board, frm: int, to: int, piece: Piece) -> tuple[int, str]:
    """The piece has no such move even ignoring its King: blocked, a Guard rule, or not its
    way of moving at all."""
    name = board.square_name
    ptype = piece.piece_type
    what = f"The {_NAMES[ptype]} on {name(frm)}"
    line = _line(board, frm, to)
    target = board.piece_at(to)
    if ptype == PAWN:
        found = _explain_pawn(board, frm, to, piece, line)
        if found is not None:
            return found
    elif line is not None and ptype != KNIGHT:
        blockers = [sq for sq in line if board.piece_at(sq) is not None]
        if blockers:
            cleared = _what_if(
                board,
                {sq: None for sq in blockers if sq != board.king(True) and sq != board.king(False)},
            )
            if _pseudo(cleared, frm, to):
                names = _join([_desc(board, sq) for sq in blockers])
                verb = "is" if len(blockers) == 1 else "are"
                return _BLOCKED, f"{what} cannot reach {name(to)}: {names} {verb} in the way."
        if ptype in GUARDS and not piece.queen_powers:
            found = _explain_guard(board, frm, to, piece, line, target)
            if found is not None:
                return found
    how = _HOW[QUEEN] if piece.queen_powers else _HOW[ptype]
    return _GEOMETRY, f"{what} cannot move to {name(to)}: {how}."


def _explain_pawn(
    board: Board, frm: int, to: int, piece: Piece, line: list[int] | None
) -> tuple[int, str] | None:
    name = board.square_name
    files = board.files
    forward = 1 if piece.color else -1
    dr = (to // files - frm // files) * forward
    df = to % files - frm % files
    what = f"The pawn on {name(frm)}"
    target = board.piece_at(to)
    if df == 0 and dr in (1, 2):
        if target is not None:
            return _BLOCKED, (
                f"{what} cannot advance: {_desc(board, to)} is in the way "
                f"(a pawn captures only diagonally)."
            )
        between = [sq for sq in line or [] if board.piece_at(sq) is not None]
        if between:
            return _BLOCKED, f"{what} cannot advance: {_desc(board, between[0])} is in the way."
        if dr == 2:
            return _GEOMETRY, f"{what} may move two squares only from its starting square."
    # Would it capture there? Ask the core with one of the enemy's pieces moved there.
    if abs(df) == 1 and dr == 1 and target is None and _pseudo(_with_enemy_on(board, to), frm, to):
        return _GEOMETRY, (
            f"{what} moves diagonally only to capture, and there is nothing to take on {name(to)}."
        )
    return None


def _explain_guard(
    board: Board, frm: int, to: int, piece: Piece, line: list[int] | None, target: Piece | None
) -> tuple[int, str] | None:
    """A Guard move on one of its lines that the core still refuses: rules 4.1, 4.2, 4.4."""
    if line is None or len(line) + 1 > 3:
        return None
    files = board.files
    diagonal = to % files != frm % files and to // files != frm // files
    minor = diagonal == (piece.piece_type == KINGS_GUARD)
    kind = _NAMES[piece.piece_type]
    king = board.king(board.turn)
    if king in line and target is not None:
        return _GUARD_RULE, "A Guard that passes over its King may not capture (rule 4.4)."
    if not minor:
        return None
    if target is not None and line:
        return _GUARD_RULE, f"A {kind}'s minor move captures only on its first square (rule 4.1)."
    rank = frm // files if piece.color else board.ranks - 1 - frm // files
    half = board.ranks // 2
    if rank < half:
        return _GUARD_RULE, f"The {kind} may not cross the centre line on a minor move (rule 4.2)."
    return _GUARD_RULE, (
        f"In enemy territory the {kind}'s minor move is one square, "
        f"unless it leads back home (rule 4.2)."
    )


# -- castling ------------------------------------------------------------------------------


def _home(board: Board) -> tuple[int, int, int]:
    """(King's start square, kingside Rook square, queenside Rook square) of the mover."""
    rank = 0 if board.turn else board.ranks - 1
    base = rank * board.files
    king_file = 4 if board.files == 8 else 5
    return base + king_file, base + board.files - 1, base


def _castling_attempt(board: Board, frm: int, to: int) -> tuple[bool, int | None] | None:
    """(kingside, King's destination) when the King's move *frm*-*to* means castling."""
    king_sq, rook_k, rook_q = _home(board)
    if frm != king_sq or to // board.files != frm // board.files:
        return None
    target = board.piece_at(to)
    own_rook = target is not None and target.color == board.turn and target.piece_type == ROOK
    if own_rook and to in (rook_k, rook_q):
        return to == rook_k, None
    if abs(to - frm) >= 2:
        return to > frm, to
    return None


def _castling_guard(
    board: Board, kingside: bool, letter: str, gfile: str | None, grank: str | None
) -> int | str:
    """The square of the Guard named to move first in castling, or the reason there is none."""
    king_sq, rook_k, rook_q = _home(board)
    rook = rook_k if kingside else rook_q
    step = 1 if rook > king_sq else -1
    ptype = TYPE_OF_LETTER.get(letter)
    for sq in range(king_sq + step, rook, step):
        p = board.piece_at(sq)
        if p is None or p.color != board.turn or p.piece_type != ptype:
            continue
        if gfile is not None and FILE_NAMES[sq % board.files] != gfile:
            continue
        return sq
    return (
        f"{_NOT_CASTLING}only a Guard standing between the King and the Rook may move first "
        f"(rule 5.4)."
    )


def _explain_castling(
    board: Board, kingside: bool, king_to: int | None, guard: tuple[int, int] | None
) -> str:
    name = board.square_name
    royal = board.files == 10
    king_sq, rook_k, rook_q = _home(board)
    rook_sq = rook_k if kingside else rook_q
    color = board.turn
    king = board.piece_at(king_sq)
    if king is None or king.piece_type != KING or king.color != color:
        return f"{_NOT_CASTLING}your King has moved."
    rights = board.castling_rights
    own = [c for c in rights if c.isupper() == color] if rights != "-" else []
    letter = ("K" if kingside else "Q") if color else ("k" if kingside else "q")
    if not own:
        return f"{_NOT_CASTLING}your King has moved."
    if letter not in own:
        return f"{_NOT_CASTLING}your Rook from {name(rook_sq)} has moved."
    if guard is not None:
        gfrom, gto = guard
        majors, minors = board.guard_moves(gfrom)
        if gto not in majors and gto not in minors:
            piece = board.piece_at(gfrom)
            assert piece is not None
            return _explain_unreachable(board, gfrom, gto, piece)[1]
        after = _what_if(board, {gfrom: None, gto: board.piece_at(gfrom)})
        if after is None:
            return f"{_NOT_CASTLING}not after that Guard move."
        after_rights = _with_rights(after, board.castling_rights)
        if after_rights is None:
            return f"{_NOT_CASTLING}not after that Guard move."
        reason = _castling_reason(after_rights, kingside, king_to)
        return reason or f"{_NOT_CASTLING}that castling would leave your King in check."
    reason = _castling_reason(board, kingside, king_to)
    if reason is not None:
        return reason
    legal = [
        board.san(m)
        for m in board.legal_moves
        if board.is_castling(m) and board.is_kingside_castling(m) == kingside
    ]
    if royal and legal:
        return f"{_NOT_CASTLING}castle as {_join(legal, 'or')}."
    return f"{_NOT_CASTLING}it would leave your King in check."


def _with_rights(board: Board, rights: str) -> Board | None:
    parts = board.fen().split()
    parts[2] = rights
    try:
        return Board(" ".join(parts), variant=board.variant)
    except InvalidFenError:
        return None


def _castling_reason(board: Board, kingside: bool, king_to: int | None) -> str | None:
    """Why castling on that side fails in *board* (rights already checked), or None."""
    name = board.square_name
    royal = board.files == 10
    king_sq, rook_k, rook_q = _home(board)
    rook_sq = rook_k if kingside else rook_q
    step = 1 if kingside else -1
    rook = board.piece_at(rook_sq)
    if rook is None or rook.piece_type != ROOK or rook.color != board.turn:
        return f"{_NOT_CASTLING}your Rook from {name(rook_sq)} is gone."
    between = range(king_sq + step, rook_sq, step)
    in_way = []
    for sq in between:
        p = board.piece_at(sq)
        if p is None:
            continue
        if royal and p.color == board.turn and p.piece_type in GUARDS:
            continue  # rule 5.1: Guards may stand between
        in_way.append(sq)
    if in_way:
        names = _join([_the(board, sq) for sq in in_way])
        verb = "stands" if len(in_way) == 1 else "stand"
        return f"{_NOT_CASTLING}{names} {verb} between the King and the Rook."
    them = not board.turn
    checkers = board.attackers(them, king_sq)
    if checkers:
        names = _join([_the(board, sq) for sq in checkers])
        return f"{_NOT_CASTLING}your King is in check from {names}."
    if royal:
        options = [king_sq + step * k for k in ((1, 2, 3) if kingside else (2, 3, 4))]
        if king_to is not None and king_to not in options:
            spots = _join([name(sq) for sq in options], "or")
            return f"{_NOT_CASTLING}the King goes to {spots} (rule 5.2)."
        if king_to is not None and board.piece_at(king_to) is not None:
            return (
                f"{_NOT_CASTLING}the King cannot land on {name(king_to)}: "
                f"your {_NAMES[_type_at(board, king_to)]} stands there (rule 5.2)."
            )
        if king_to is None:
            empty = [sq for sq in options if board.piece_at(sq) is None]
            if not empty:
                spots = _join([name(sq) for sq in options], "or")
                return f"{_NOT_CASTLING}none of {spots} is empty for the King (rule 5.2)."
            king_to = empty[0]
    elif king_to is None:
        king_to = king_sq + 2 * step
    for sq in _crossed(king_sq, king_to, step):
        attackers = board.attackers(them, sq)
        if attackers:
            names = _join([_the(board, a) for a in attackers])
            return f"{_NOT_CASTLING}{name(sq)} is attacked by {names}."
    return None


def _crossed(king_sq: int, king_to: int, step: int) -> Iterable[int]:
    return range(king_sq + step, king_to + step, step)
