"""Seeded random Royal Chess positions for oracle tests.

``random_positions(n, seed)`` plays random games with the pure-Python reference
(``royal_reference``) and returns ``n`` distinct FENs.  The games are biased towards
the rules that differ from chess, so that a good share of the positions contain
castling (with and without a Guard move first), promotions (Guard promotions with
and without queen powers, and pawns on the seventh rank with few or no kinds
available), Guards across the centre line, Rook pairs with Guards between them and
the recapture square S (FEN field 7).  Some games start from hand-made FENs that set
up those themes.  Everything is driven by ``random.Random(seed)``: same arguments,
same list.

``themes(fen)`` names the themes present in a position (used for reporting and by
the tests).
"""

from __future__ import annotations

import random

try:  # works both as ``tests.royal_positions`` and with tests/ on sys.path
    from . import royal_reference as ref
except ImportError:  # pragma: no cover
    import royal_reference as ref


# Hand-made, legal starting points (side not to move is never in check).
THEME_FENS = [
    # 0: the start position
    ref.START_FEN,
    # 1: both sides ready to castle on either wing, only Guards between King and Rooks
    "r2g1kw2r/pppp2pppp/1nb1q1b1n1/4pp4/4PP4/1NB1Q1B1N1/PPPP2PPPP/R2G1KW2R w KQkq - 0 1",
    # 2: pawns on the seventh rank for both sides, every kind available
    "2r4b2/1P3P2P1/10/k9/9K/10/2p3p2p/4R1N3 w - - 0 1",
    # 3: White can promote only to the King's Guard (few kinds)
    "rn2k5/pp5P2/10/10/10/2Q7/PPPPPPP3/RNBG1K1BNR w - - 0 1",
    # 4: White pawn on c7 with no kind available; it still attacks b8 and d8
    "5k4/2P2ppp2/10/10/10/3Q6/PP1PPPPPPP/RNBG1KWBNR w - - 0 1",
    # 5: Rook pairs with Guards between them, Guards across the centre line
    "5k4/pp5r1p/2R7/4G2g2/2W1w5/7r2/2R4PPP/5K4 w - - 0 1",
    # 6: castling with Guard pre-moves under fire (Black pieces hitting the King's path)
    "r4k3r/ppp1g1pppp/2n2w1n2/3pb5/2B2q4/10/PPPPPBPPPP/RN1G1KW2R w KQkq - 0 1",
    # 7: Rook pairs (Black on a file, White on rank 2) with Guards between, both attacked
    "2r2k4/2g7/10/2r3N3/P4G1n1P/4B5/1R1W2R3/5K4 w - - 0 1",
    # 8: bare Kings and pawns close to promotion: every kind available, queen powers matter
    "4k5/1P1p3P2/10/10/10/10/2p1P3p1/5K4 w - - 0 1",
    # 9: White in check on the c4-f1 diagonal: castling queenside after the Queen's
    #    Guard blocks (d1e2 or d1d3) is the theme
    "r4k3r/pppp1ppppp/10/10/2b7/10/PPP3PPPP/R2G1KW2R w KQkq - 0 1",
    # 10: Black to move, the White Bishop hits g8; the King's Guard can block on f7
    "r2g1kw2r/pppp3ppp/10/10/2B7/10/PPPPPPPPPP/R3K4R b kq - 0 1",
    # 11: both sides have a Rook pair with a Guard between; each pair is attacked
    "4nk4/pp6pp/3R2rw1r/10/3GB5/10/PP1R4PP/5K4 b - - 0 1",
    # 12: Black can promote only to the Queen's Guard (with or without queen powers)
    "rnb1qkwbnr/pp1ppppppp/10/10/3Q6/10/2p7/5K4 b - - 0 1",
    # 13: Black pawn on c2 with no kind available still attacks d1 (6.3)
    "rnbgqkwbnr/pp1ppppppp/10/10/3Q6/10/2p7/4K5 w - - 0 1",
    # 14: the start position again (random games from it get more weight)
    ref.START_FEN,
    # 15: White may promote to Rook or King's Guard only; Black pawns near promotion
    "3k6/P2r3P2/10/4n5/10/2B3N3/1p1N1Q1p2/RB2GK4 w - - 0 1",
    # 16: FEN 11 after 1... Nxd6: White may recapture d2d6 over its Queen's Guard (S = d6)
    "5k4/pp6pp/3n2rw1r/10/3GB5/10/PP1R4PP/5K4 w - - 0 2 d6",
    # 17: FEN 7 after 1. Bxc5: Black may recapture c8c5 over its Queen's Guard (S = c5)
    "2r2k4/2g7/10/2B3N3/P4G1n1P/10/1R1W2R3/5K4 b - - 0 1 c5",
    # 18: Black in check on the c5-f8 diagonal; the Queen's Guard blocks on e7 and castles
    "r2g1kw2r/pppp1ppppp/10/2B7/10/10/PPPP1PPPPP/R4K3R b kq - 0 1",
]

START_COUNT = ref.START_COUNT


def _piece_counts(board, white):
    counts = {k: 0 for k in START_COUNT}
    for p in board:
        if p is not None and ref.is_white(p) == white and ref.kind(p) in counts:
            counts[ref.kind(p)] += 1
    return counts


def _rook_pair_with_guard(board) -> bool:
    for s, p in enumerate(board):
        if p is None or ref.kind(p) != "R":
            continue
        white = ref.is_white(p)
        for s2 in range(s + 1, len(board)):
            if board[s2] != p:
                continue
            f, r, f2, r2 = s % 10, s // 10, s2 % 10, s2 // 10
            if f == f2 or (r == r2 and r != ref.first_rank(white)):
                btw = ref.between(s, s2)
                if ref.only_empty_or_own_guards(board, btw, white) and any(
                    board[t] is not None for t in btw
                ):
                    return True
    return False


def themes(fen: str) -> set:
    """Names of the themes present in ``fen``."""
    pos = ref.parse_fen(fen)
    return _themes(pos, ref.legal_pairs(pos))


def _themes(pos, moves) -> set:
    board = pos.board
    out = set()
    toks = list(moves)
    if any(len(t) == 8 for t in toks):
        out.add("castle")
    if any(len(t) == 12 for t in toks):
        out.add("castle_guard")
    if any(len(t) in (5, 6) for t in toks):
        out.add("promotion")
    if any(len(t) in (5, 6) and t[4] in "gw" for t in toks):
        out.add("promo_guard")
    # a pawn of the side to move on its seventh rank while few (<= 2) or no kinds
    # are available
    seventh = 6 if pos.white else 1
    pawn = "P" if pos.white else "p"
    if any(board[ref.sq(f, seventh)] == pawn for f in range(10)):
        counts = _piece_counts(board, pos.white)
        avail = sum(1 for k in START_COUNT if counts[k] < START_COUNT[k])
        if avail == 0:
            out.add("promo_none")
        elif avail <= 2:
            out.add("promo_few")
    if any(p is not None and p.endswith("*") for p in board):
        out.add("queen_powers")
    for s, p in enumerate(board):
        if ref.is_guard(p) and ref.rel_rank(s // 10, ref.is_white(p)) >= 5:
            out.add("guard_across")
            break
    if _rook_pair_with_guard(board):
        out.add("rook_pair_guard")
    if pos.recap is not None:
        out.add("recapture")
    if not moves:
        out.add("no_moves")
    return out


RARE = frozenset(
    (
        "castle",
        "castle_guard",
        "promotion",
        "promo_guard",
        "promo_few",
        "promo_none",
        "queen_powers",
        "rook_pair_guard",
        "recapture",
    )
)


def _categories(pos, tok, new):
    """Interesting categories of one legal move."""
    cats = []
    b = pos.board
    if len(tok) == 12:
        cats.append("castle_guard")
    elif len(tok) == 8:
        cats.append("castle")
    else:
        frm, to = ref.parse_sq(tok[0:2]), ref.parse_sq(tok[2:4])
        p = b[frm]
        if len(tok) > 4:
            cats.append("promo_guard" if tok[4] in "gw" else "promo")
        if new.recap is not None:
            cats.append("capture_pair")
        if pos.recap is not None and to == pos.recap:
            cats.append("recapture")
        if ref.is_guard(p):
            if ref.rel_rank(to // 10, pos.white) >= 5:
                cats.append("guard_across")
            else:
                cats.append("guard")
        if ref.kind(p) == "R":
            cats.append("rook")
        if b[to] is not None:
            cats.append("capture")
        if ref.kind(p) == "P" and ref.rel_rank(to // 10, pos.white) >= 6:
            cats.append("pawn_advance")
        if (
            ref.kind(p) in "RGW"
            and _rook_pair_with_guard(new.board)
            and not _rook_pair_with_guard(b)
        ):
            cats.append("makes_pair")
        if ref.kind(p) in "NBQ" and frm // 10 == ref.first_rank(pos.white):
            cats.append("develop")
    return cats


# chance to pick a move from a category when one is available, in this order
PREFERENCES = (
    ("castle_guard", 0.4),
    ("capture_pair", 0.7),
    ("recapture", 0.5),
    ("promo_guard", 0.35),
    ("castle", 0.3),
    ("promo", 0.25),
    ("makes_pair", 0.6),
    ("develop", 0.3),
    ("guard_across", 0.35),
    ("pawn_advance", 0.35),
    ("rook", 0.25),
    ("guard", 0.25),
    ("capture", 0.3),
)


def _choose(rng, pos, moves):
    toks = sorted(moves)
    by_cat = {}
    for t in toks:
        for c in _categories(pos, t, moves[t]):
            by_cat.setdefault(c, []).append(t)
    for cat, prob in PREFERENCES:
        if cat in by_cat and rng.random() < prob:
            return rng.choice(by_cat[cat])
    return rng.choice(toks)


def random_positions(n: int, seed: int) -> list:
    """``n`` distinct FENs from seeded, theme-biased random games.

    Games start in turn from the start position and from each hand-made FEN of
    ``THEME_FENS``; a position is kept with a high probability when it shows a rare
    theme that is still below its share (15% of ``n``), a medium one when it shows
    any rare theme, and a low one otherwise."""
    rng = random.Random(seed)
    seen = set()
    out = []
    tally = {t: 0 for t in RARE}
    target = 0.15 * n
    game = 0
    while len(out) < n:
        start = THEME_FENS[game % len(THEME_FENS)]
        max_plies = rng.randrange(20, 120) if start == ref.START_FEN else rng.randrange(4, 40)
        game += 1
        pos = ref.parse_fen(start)
        taken = 0
        for _ply in range(max_plies):
            moves = ref.legal_pairs(pos)
            fen = ref.to_fen(pos)
            rare = _themes(pos, moves) & RARE
            if any(tally[t] < target for t in rare):
                keep = 0.9
            elif rare:
                keep = 0.3
            else:
                keep = 0.06
            if fen not in seen and taken < 4 and rng.random() < keep:
                seen.add(fen)
                out.append(fen)
                for t in rare:
                    tally[t] += 1
                taken += 1
                if len(out) >= n:
                    break
            if not moves or pos.half >= 100:
                break
            pos = moves[_choose(rng, pos, moves)]
    return out


if __name__ == "__main__":  # pragma: no cover
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    t0 = time.time()
    fens = random_positions(n, seed)
    counts = {}
    for f in fens:
        for t in themes(f):
            counts[t] = counts.get(t, 0) + 1
    print(len(fens), f"positions in {time.time() - t0:.1f}s")
    for k in sorted(counts):
        print(f"  {k:<16} {counts[k]}")
