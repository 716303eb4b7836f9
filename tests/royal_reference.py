"""Independent pure-Python reference move generator for Royal Chess.

Written only from the project's rules page (``shared/spec/royal-chess.md``); it does
not import or look at the C core.  It is meant as a slow, obvious test oracle: every
rule is coded as literally as the spec states it, and moves are made on copies of the
board and then checked for leaving the mover's King attacked.

Board: 10 files ``a``-``j`` and 8 ranks.  Internally a square is an index
``rank * 10 + file`` with ``file`` 0..9 (a..j) and ``rank`` 0..7 (1..8).  A board is a
list of 80 entries, each ``None`` or a piece string: one letter (upper case White,
lower case Black) optionally followed by ``*`` for a Guard with queen powers (6.2).

Public API::

    START_FEN
    legal_moves(fen) -> list[str]      # UCI tokens of spec section 10
    push(fen, uci) -> str              # FEN after the move, ValueError if illegal
    perft(fen, depth) -> int
    divide(fen, depth) -> dict[str, int]
"""

from __future__ import annotations

START_FEN = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"

FILES = "abcdefghij"
NFILES = 10
NRANKS = 8

ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

# Number of each kind at the start (6.1): promotion only to kinds with fewer on board.
START_COUNT = {"Q": 1, "R": 2, "B": 2, "N": 2, "G": 1, "W": 1}
PROMO_ORDER = ("Q", "R", "B", "N", "G", "W")


# ---------------------------------------------------------------------------
# squares and pieces
# ---------------------------------------------------------------------------


def sq(f: int, r: int) -> int:
    return r * NFILES + f


def on_board(f: int, r: int) -> bool:
    return 0 <= f < NFILES and 0 <= r < NRANKS


def sq_name(s: int) -> str:
    return FILES[s % NFILES] + str(s // NFILES + 1)


def parse_sq(t: str) -> int:
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345678":
        raise ValueError(f"bad square {t!r}")
    return sq(FILES.index(t[0]), int(t[1]) - 1)


def is_white(p: str) -> bool:
    return p[0].isupper()


def kind(p: str) -> str:
    return p[0].upper()


def starred(p: str) -> bool:
    return p.endswith("*")


def is_guard(p) -> bool:
    return p is not None and kind(p) in "GW"


def own(p, white: bool) -> bool:
    return p is not None and is_white(p) == white


def enemy(p, white: bool) -> bool:
    return p is not None and is_white(p) != white


def first_rank(white: bool) -> int:
    """Rank index of a side's own first rank."""
    return 0 if white else NRANKS - 1


def rel_rank(r: int, white: bool) -> int:
    """Relative rank 1..8 counted from the side's own first rank."""
    return r + 1 if white else NRANKS - r


# ---------------------------------------------------------------------------
# position and FEN
# ---------------------------------------------------------------------------


class Position:
    __slots__ = ("board", "castling", "ep", "full", "half", "recap", "white")

    def __init__(self, board, white, castling, ep, half, full, recap):
        self.board = board  # list of 80
        self.white = white  # side to move is White
        self.castling = castling  # string, subset of "KQkq" in that order
        self.ep = ep  # en passant target square index or None
        self.half = half
        self.full = full
        self.recap = recap  # square S of rule 3.1c (usable by side to move) or None


def parse_fen(fen: str) -> Position:
    fields = fen.split()
    if len(fields) == 6:
        fields.append("-")
    if len(fields) != 7:
        raise ValueError(f"a Royal FEN has 6 or 7 fields: {fen!r}")
    rows = fields[0].split("/")
    if len(rows) != NRANKS:
        raise ValueError(f"need 8 ranks: {fen!r}")
    board = [None] * (NFILES * NRANKS)
    for i, row in enumerate(rows):
        r = NRANKS - 1 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                n = int(row[j:k])
                if n < 1 or n > NFILES:
                    raise ValueError(f"bad empty run in {row!r}")
                f += n
                j = k
                continue
            if c.upper() not in "KQRBNPGW":
                raise ValueError(f"bad piece letter {c!r}")
            p = c
            if j + 1 < len(row) and row[j + 1] == "*":
                if c.upper() not in "GW":
                    raise ValueError(f"only Guards carry '*': {row!r}")
                p = c + "*"
                j += 1
            if f >= NFILES:
                raise ValueError(f"rank too long: {row!r}")
            board[sq(f, r)] = p
            f += 1
            j += 1
        if f != NFILES:
            raise ValueError(f"rank {row!r} does not have 10 squares")
    if fields[1] not in ("w", "b"):
        raise ValueError("bad side to move")
    white = fields[1] == "w"
    castling = "" if fields[2] == "-" else "".join(c for c in "KQkq" if c in fields[2])
    ep = None if fields[3] == "-" else parse_sq(fields[3])
    half = int(fields[4])
    full = int(fields[5])
    recap = None if fields[6] == "-" else parse_sq(fields[6])
    if ep is not None and ep // NFILES != (5 if white else 2):
        raise ValueError(f"en passant square on the wrong rank: {fen!r}")
    if recap is not None and not enemy(board[recap], white):
        # 8: S must hold a piece of the side that just moved
        raise ValueError("field 7 square does not hold a piece of the side that moved")
    return Position(board, white, castling, ep, half, full, recap)


def board_to_placement(board) -> str:
    rows = []
    for r in range(NRANKS - 1, -1, -1):
        out = ""
        empty = 0
        for f in range(NFILES):
            p = board[sq(f, r)]
            if p is None:
                empty += 1
            else:
                if empty:
                    out += str(empty)
                    empty = 0
                out += p
        if empty:
            out += str(empty)
        rows.append(out)
    return "/".join(rows)


def to_fen(pos: Position) -> str:
    parts = [
        board_to_placement(pos.board),
        "w" if pos.white else "b",
        pos.castling or "-",
        sq_name(pos.ep) if pos.ep is not None else "-",
        str(pos.half),
        str(pos.full),
    ]
    if pos.recap is not None:
        parts.append(sq_name(pos.recap))
    return " ".join(parts)


# ---------------------------------------------------------------------------
# attacks
# ---------------------------------------------------------------------------


def attacked(board, s: int, by_white: bool, recap=None) -> bool:
    """Is square ``s`` attacked by side ``by_white``?

    ``recap`` is a square S on which that side holds the recapture right of rule
    3.1c (or None).  Attacks ignore pins and what stands on ``s``.
    """
    f, r = s % NFILES, s // NFILES
    # pawns (6.3: a pawn attacks diagonally even if it could not promote there)
    pr = r - 1 if by_white else r + 1
    pawn = "P" if by_white else "p"
    if 0 <= pr < NRANKS:
        for df in (-1, 1):
            if 0 <= f + df < NFILES and board[sq(f + df, pr)] == pawn:
                return True
    knight = "N" if by_white else "n"
    for df, dr in KNIGHT:
        if on_board(f + df, r + dr) and board[sq(f + df, r + dr)] == knight:
            return True
    king = "K" if by_white else "k"
    for df, dr in ORTH + DIAG:
        if on_board(f + df, r + dr) and board[sq(f + df, r + dr)] == king:
            return True
    # sliding pieces and Guards: first piece on each line from s
    for dirs, orth in ((ORTH, True), (DIAG, False)):
        for df, dr in dirs:
            nf, nr, d = f + df, r + dr, 1
            while on_board(nf, nr):
                q = board[sq(nf, nr)]
                if q is not None:
                    if is_white(q) == by_white:
                        k = kind(q)
                        if k == "Q":
                            return True
                        if k in "GW" and starred(q):
                            return True  # queen powers (6.2)
                        if k == "R" and orth:
                            return True
                        if k == "B" and not orth:
                            return True
                        if k == "W" and ((orth and d <= 3) or (not orth and d == 1)):
                            return True  # major orthogonal / minor first square
                        if k == "G" and ((not orth and d <= 3) or (orth and d == 1)):
                            return True  # major diagonal / minor first square
                    break
                nf += df
                nr += dr
                d += 1
    rook = "R" if by_white else "r"
    # rule 3.1a: a Rook on its own first rank sees along it through its own Guards
    if r == first_rank(by_white):
        for df in (1, -1):
            nf = f + df
            while 0 <= nf < NFILES:
                q = board[sq(nf, r)]
                if q is not None:
                    if is_guard(q) and is_white(q) == by_white:
                        nf += df
                        continue
                    if q == rook:
                        return True
                    break
                nf += df
    # rule 3.1c: the recapture on S passes over the Rook's own Guards
    if recap is not None and recap == s:
        for df, dr in ORTH:
            nf, nr = f + df, r + dr
            while on_board(nf, nr):
                q = board[sq(nf, nr)]
                if q is not None:
                    if is_guard(q) and is_white(q) == by_white:
                        nf += df
                        nr += dr
                        continue
                    if q == rook:
                        return True
                    break
                nf += df
                nr += dr
    return False


def king_square(board, white: bool):
    k = "K" if white else "k"
    for i, p in enumerate(board):
        if p == k:
            return i
    return None


def king_attacked(board, white: bool, recap_for_enemy) -> bool:
    ks = king_square(board, white)
    if ks is None:
        return False
    return attacked(board, ks, not white, recap_for_enemy)


# ---------------------------------------------------------------------------
# pseudo-legal move generation
# ---------------------------------------------------------------------------


class Move:
    """A move.  ``frm``/``to`` for an ordinary move (``promo`` = piece string placed,
    ``promo_tok`` = UCI suffix, ``ep`` = en passant capture).  A castling move has
    ``castle = (guard_move or None, (king_from, king_to), (rook_from, rook_to))``."""

    __slots__ = ("castle", "ep", "frm", "promo", "promo_tok", "to")

    def __init__(self, frm=None, to=None, promo=None, promo_tok="", ep=False, castle=None):
        self.frm = frm
        self.to = to
        self.promo = promo
        self.promo_tok = promo_tok
        self.ep = ep
        self.castle = castle

    def token(self) -> str:
        if self.castle is not None:
            g, (kf, kt), (rf, rt) = self.castle
            t = ""
            if g is not None:
                t += sq_name(g[0]) + sq_name(g[1])
            return t + sq_name(kf) + sq_name(kt) + sq_name(rf) + sq_name(rt)
        return sq_name(self.frm) + sq_name(self.to) + self.promo_tok


def slide_targets(board, s, white, dirs, max_steps=99):
    """Chess-like sliding: empty squares, then capture of the first enemy piece."""
    f, r = s % NFILES, s // NFILES
    out = []
    for df, dr in dirs:
        nf, nr, d = f + df, r + dr, 1
        while on_board(nf, nr) and d <= max_steps:
            t = sq(nf, nr)
            q = board[t]
            if q is None:
                out.append(t)
            else:
                if enemy(q, white):
                    out.append(t)
                break
            nf += df
            nr += dr
            d += 1
    return out


def guard_targets(board, s, white):
    """Target squares of the (unstarred) Guard on ``s`` (section 4)."""
    p = board[s]
    k = kind(p)
    if starred(p):
        return slide_targets(board, s, white, ORTH + DIAG)  # moves as a Queen (6.2)
    f, r = s % NFILES, s // NFILES
    my_king = "K" if white else "k"
    fr = first_rank(white)
    major_dirs, minor_dirs = (ORTH, DIAG) if k == "W" else (DIAG, ORTH)
    out = []
    # major move: 1-3 squares, sliding, may capture on any of them (4)
    for df, dr in major_dirs:
        passed_king = False
        for step in range(1, 4):
            nf, nr = f + df * step, r + dr * step
            if not on_board(nf, nr):
                break
            t = sq(nf, nr)
            q = board[t]
            if q is None:
                out.append(t)
                continue
            if q == my_king and nr == fr:
                passed_king = True  # 4.4: pass over own King on its first rank
                continue
            if enemy(q, white) and not passed_king:
                out.append(t)
            break
    # minor move: 1-3 squares, sliding, capture only on the first square (4.1),
    # with the centre-line limits of 4.2
    rr = rel_rank(r, white)
    for df, dr in minor_dirs:
        drel = dr if white else -dr
        if rr <= 4:
            length = 3  # ends early on the first enemy-territory square
        elif rr + drel == 4:
            length = 3  # first square back in own territory
        elif k == "G" and rr == 5 and drel == 0:
            length = 3  # Queen's Guard sideways on relative rank 5
        else:
            length = 1
        for step in range(1, length + 1):
            nf, nr = f + df * step, r + dr * step
            if not on_board(nf, nr):
                break
            t = sq(nf, nr)
            q = board[t]
            if q is None:
                out.append(t)
            elif q == my_king and nr == fr:
                pass  # 4.4: pass over (never capture past it)
            else:
                if step == 1 and enemy(q, white):
                    out.append(t)
                break
            if rr <= 4 and rel_rank(nr, white) >= 5:
                break  # 4.2 rule 1: line ends on first enemy square
    return out


def between(a: int, b: int):
    """Squares strictly between a and b on a common rank or file."""
    fa, ra, fb, rb = a % NFILES, a // NFILES, b % NFILES, b // NFILES
    if ra == rb:
        lo, hi = min(fa, fb), max(fa, fb)
        return [sq(f, ra) for f in range(lo + 1, hi)]
    if fa == fb:
        lo, hi = min(ra, rb), max(ra, rb)
        return [sq(fa, r) for r in range(lo + 1, hi)]
    raise ValueError("not on one line")


def only_empty_or_own_guards(board, squares, white) -> bool:
    return all(
        board[t] is None or (is_guard(board[t]) and is_white(board[t]) == white) for t in squares
    )


def rook_targets(pos: Position, s: int):
    board, white = pos.board, pos.white
    f, r = s % NFILES, s // NFILES
    out = set(slide_targets(board, s, white, ORTH))
    # 3.1a: along its own first rank, passing over its own Guards
    if r == first_rank(white):
        for df in (1, -1):
            nf = f + df
            while 0 <= nf < NFILES:
                t = sq(nf, r)
                q = board[t]
                if q is None:
                    out.add(t)
                elif is_guard(q) and own(q, white):
                    pass
                else:
                    if enemy(q, white):
                        out.add(t)
                    break
                nf += df
    # 3.1b: two Rooks on one file, or one rank other than the first rank
    rook = "R" if white else "r"
    for s2, q in enumerate(board):
        if q != rook or s2 == s:
            continue
        f2, r2 = s2 % NFILES, s2 // NFILES
        if f2 == f or (r2 == r and r != first_rank(white)):
            btw = between(s, s2)
            if only_empty_or_own_guards(board, btw, white):
                out.update(t for t in btw if board[t] is None)
    # 3.1c: recapture on S, passing over own Guards
    S = pos.recap
    if S is not None and enemy(board[S], white):
        fs, rs = S % NFILES, S // NFILES
        if (fs == f or rs == r) and only_empty_or_own_guards(board, between(s, S), white):
            out.add(S)
    return sorted(out)


def promotion_pieces(board, white):
    """(piece string placed, UCI suffix) for each promotion available (6.1, 6.2)."""
    counts = {k: 0 for k in START_COUNT}
    for p in board:
        if p is not None and is_white(p) == white and kind(p) in counts:
            counts[kind(p)] += 1
    out = []
    for k in PROMO_ORDER:
        if counts[k] < START_COUNT[k]:
            letter = k if white else k.lower()
            if k in "GW":
                out.append((letter + "*", k.lower()))  # with queen powers
                out.append((letter, k.lower() + "-"))  # waived
            else:
                out.append((letter, k.lower()))
    return out


def pawn_moves(pos: Position, s: int):
    board, white = pos.board, pos.white
    f, r = s % NFILES, s // NFILES
    dr = 1 if white else -1
    last = NRANKS - 1 if white else 0
    start = 1 if white else NRANKS - 2
    out = []

    def add(t, ep=False):
        if t // NFILES == last:
            for piece, tok in promotion_pieces(board, white):
                out.append(Move(s, t, promo=piece, promo_tok=tok))
            # no kind available -> no move to the last rank at all (6.1)
        else:
            out.append(Move(s, t, ep=ep))

    if on_board(f, r + dr) and board[sq(f, r + dr)] is None:
        add(sq(f, r + dr))
        if r == start and board[sq(f, r + 2 * dr)] is None:
            add(sq(f, r + 2 * dr))
    for df in (-1, 1):
        if on_board(f + df, r + dr):
            t = sq(f + df, r + dr)
            if enemy(board[t], white):
                add(t)
            elif t == pos.ep and board[t] is None and r == (4 if white else 3):
                behind = sq(f + df, r)
                if board[behind] == ("p" if white else "P"):
                    add(t, ep=True)
    return out


def piece_targets(pos: Position, s: int):
    """Targets for non-pawn pieces."""
    board, white = pos.board, pos.white
    p = board[s]
    k = kind(p)
    f, r = s % NFILES, s // NFILES
    if k == "N":
        return [
            sq(f + df, r + dr)
            for df, dr in KNIGHT
            if on_board(f + df, r + dr) and not own(board[sq(f + df, r + dr)], white)
        ]
    if k == "K":
        return [
            sq(f + df, r + dr)
            for df, dr in ORTH + DIAG
            if on_board(f + df, r + dr) and not own(board[sq(f + df, r + dr)], white)
        ]
    if k == "B":
        return slide_targets(board, s, white, DIAG)
    if k == "Q":
        return slide_targets(board, s, white, ORTH + DIAG)
    if k == "R":
        return rook_targets(pos, s)
    if k in "GW":
        return guard_targets(board, s, white)
    raise ValueError(p)


def pseudo_moves(pos: Position):
    out = []
    for s, p in enumerate(pos.board):
        if p is None or is_white(p) != pos.white:
            continue
        if kind(p) == "P":
            out.extend(pawn_moves(pos, s))
        else:
            out.extend(Move(s, t) for t in piece_targets(pos, s))
    return out


# ---------------------------------------------------------------------------
# making moves
# ---------------------------------------------------------------------------


def rook_in_pair(board, s: int) -> bool:
    """Does the Rook on ``s`` form a pair as in 3.1b with another Rook of its side?"""
    p = board[s]
    white = is_white(p)
    f, r = s % NFILES, s // NFILES
    for s2, q in enumerate(board):
        if s2 == s or q != p:
            continue
        f2, r2 = s2 % NFILES, s2 // NFILES
        if (f2 == f or (r2 == r and r != first_rank(white))) and only_empty_or_own_guards(
            board, between(s, s2), white
        ):
            return True
    return False


CORNER_RIGHTS = {
    sq(0, 0): "Q",
    sq(NFILES - 1, 0): "K",
    sq(5, 0): "KQ",
    sq(0, NRANKS - 1): "q",
    sq(NFILES - 1, NRANKS - 1): "k",
    sq(5, NRANKS - 1): "kq",
}


def strip_rights(castling: str, squares) -> str:
    for t in squares:
        lost = CORNER_RIGHTS.get(t)
        if lost:
            castling = "".join(c for c in castling if c not in lost)
    return castling


def step(board, frm, to, white, promo=None, ep=False):
    """Move a piece on a copy of ``board``.  Returns (new_board, captured, recap)
    where ``recap`` is S if a Rook of a pair was captured (3.1c) else None."""
    b = list(board)
    p = b[frm]
    cap_sq = to
    if ep:
        cap_sq = to - NFILES if white else to + NFILES
    captured = b[cap_sq]
    recap = None
    if captured is not None and kind(captured) == "R" and rook_in_pair(board, cap_sq):
        recap = to
    b[cap_sq] = None
    b[frm] = None
    if promo is not None:
        b[to] = promo
    else:
        b[to] = p[0]  # a starred Guard loses queen powers when it leaves
    return b, captured, recap


def make_move(pos: Position, m: Move) -> Position:
    white = pos.white
    if m.castle is not None:
        return make_castle(pos, m)
    p = pos.board[m.frm]
    b, captured, recap = step(pos.board, m.frm, m.to, white, m.promo, m.ep)
    ep = None
    if kind(p) == "P" and abs(m.to - m.frm) == 2 * NFILES:
        ep = (m.to + m.frm) // 2  # written after every double step
    half = 0 if (kind(p) == "P" or captured is not None) else pos.half + 1
    full = pos.full + (0 if white else 1)
    castling = strip_rights(pos.castling, (m.frm, m.to))
    return Position(b, not white, castling, ep, half, full, recap)


def make_castle(pos: Position, m: Move) -> Position:
    white = pos.white
    g, (kf, kt), (rf, rt) = m.castle
    b = pos.board
    captured = None
    recap = None
    touched = [kf, kt, rf, rt]
    if g is not None:
        b, captured, recap = step(b, g[0], g[1], white)
        touched += list(g)
    b = list(b)
    king, rook = b[kf], b[rf]
    b[kf] = None
    b[rf] = None
    b[kt] = king
    b[rt] = rook
    half = 0 if captured is not None else pos.half + 1
    full = pos.full + (0 if white else 1)
    castling = strip_rights(pos.castling, touched)
    return Position(b, not white, castling, None, half, full, recap)


# ---------------------------------------------------------------------------
# castling (section 5)
# ---------------------------------------------------------------------------


def castling_moves(pos: Position):
    """Legal castling moves as (Move, resulting Position)."""
    white = pos.white
    board = pos.board
    r = first_rank(white)
    kf = sq(5, r)
    king, rook = ("K", "R") if white else ("k", "r")
    out = []
    if board[kf] != king:
        return out
    sides = []
    if ("K" if white else "k") in pos.castling:
        # rook on j, between g h i, King to g/h/i, Rook placed towards the centre
        sides.append((sq(9, r), [sq(x, r) for x in (6, 7, 8)], [sq(x, r) for x in (6, 7, 8)], -1))
    if ("Q" if white else "q") in pos.castling:
        sides.append(
            (sq(0, r), [sq(x, r) for x in (1, 2, 3, 4)], [sq(x, r) for x in (3, 2, 1)], +1)
        )
    for rf, btw, king_dests, toward_centre in sides:
        if board[rf] != rook:
            continue
        options = [None]
        for gs in btw:
            gp = board[gs]
            if is_guard(gp) and own(gp, white):
                options.extend((gs, t) for t in guard_targets(board, gs, white))
        for g in options:
            if g is None:
                mid, recap = board, None
            else:
                mid, _, recap = step(board, g[0], g[1], white)
            # 5.1: only own Guards between King and Rook (after the Guard's move)
            if not only_empty_or_own_guards(mid, btw, white):
                continue
            # King not in check after the Guard's move (5.4, 5.5)
            if attacked(mid, kf, not white, recap):
                continue
            for kt in king_dests:
                if mid[kt] is not None:
                    continue
                crossed = [*between(kf, kt), kt]
                if any(attacked(mid, t, not white, recap) for t in crossed):
                    continue
                # 5.3: Rook on the first empty square next to the King towards the centre
                after = list(mid)
                after[kf] = None
                f = kt % NFILES + toward_centre
                while after[sq(f, r)] is not None:
                    f += toward_centre
                rt = sq(f, r)
                m = Move(castle=(g, (kf, kt), (rf, rt)))
                new = make_castle(pos, m)
                if king_attacked(new.board, white, new.recap):
                    continue
                out.append((m, new))
    return out


# ---------------------------------------------------------------------------
# legal moves
# ---------------------------------------------------------------------------


def legal_pairs(pos: Position):
    """dict token -> resulting Position, for every legal move."""
    result = {}
    for m in pseudo_moves(pos):
        tok = m.token()
        if tok in result:
            continue
        new = make_move(pos, m)
        if king_attacked(new.board, pos.white, new.recap):
            continue
        result[tok] = new
    for m, new in castling_moves(pos):
        tok = m.token()
        assert tok not in result
        result[tok] = new
    return result


def legal_moves(fen: str) -> list:
    return sorted(legal_pairs(parse_fen(fen)))


def push(fen: str, uci: str) -> str:
    moves = legal_pairs(parse_fen(fen))
    if uci not in moves:
        raise ValueError(f"illegal move {uci!r} in {fen!r}")
    return to_fen(moves[uci])


def _perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_pairs(pos)
    if depth == 1:
        return len(moves)
    return sum(_perft(new, depth - 1) for new in moves.values())


def perft(fen: str, depth: int) -> int:
    return _perft(parse_fen(fen), depth)


def divide(fen: str, depth: int) -> dict:
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    pos = parse_fen(fen)
    return {tok: _perft(new, depth - 1) for tok, new in sorted(legal_pairs(pos).items())}


if __name__ == "__main__":  # pragma: no cover
    import sys
    import time

    fen = sys.argv[2] if len(sys.argv) > 2 else START_FEN
    d = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    t0 = time.time()
    print(perft(fen, d), "%.1fs" % (time.time() - t0))
