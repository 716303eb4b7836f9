"""One test per rule of the Royal Chess rules page (``shared/spec/royal-chess.md``).

Every position is built by hand as a Royal FEN and every expected move set was derived by
hand from the rules page (never by running the code under test); a comment explains the
sets that are not obvious. Squares are named as on the board: files ``a``-``j``, ranks
``1``-``8``.

Sections:
    3.1  Rooks jumping over their own Guards (a, b, c, d) and what they attack
    4    Guards: major and minor moves, the centre line, jumping over their own King
    5    castling
    6    promotion and queen powers
    7    insufficient material
    8    FEN
    10   move notation (UCI and SAN)
"""

from __future__ import annotations

import pytest

from royalchess import (
    BISHOP,
    KINGS_GUARD,
    KNIGHT,
    QUEEN,
    QUEENS_GUARD,
    ROOK,
    Board,
    Termination,
)

FILES = "abcdefghij"
START = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"
ALL_KINDS = {QUEEN, ROOK, BISHOP, KNIGHT, QUEENS_GUARD, KINGS_GUARD}


# -- helpers ----------------------------------------------------------------------------


def sq(name: str) -> int:
    """Square number (``rank * 10 + file``) of a square name such as ``'e3'``."""
    return (int(name[1]) - 1) * 10 + FILES.index(name[0])


def name(square: int) -> str:
    return FILES[square % 10] + str(square // 10 + 1)


def names(text: str) -> set[str]:
    """``'d4 c5'`` -> ``{'d4', 'c5'}``."""
    return set(text.split())


def royal(fen: str) -> Board:
    return Board(fen, variant="royal")


def legal(b: Board) -> set[str]:
    """Every legal move of the position, as UCI tokens."""
    return {m.uci() for m in b.legal_moves}


def castlings(b: Board) -> set[str]:
    """The legal castling moves (UCI tokens of 8 or 12 characters, section 10)."""
    return {u for u in legal(b) if len(u) >= 8}


def targets(b: Board, square: str) -> set[str]:
    """Target squares of the legal non-castling moves of the piece on *square*."""
    return {u[2:4] for u in legal(b) if len(u) < 8 and u[:2] == square}


def from_(square: str, squares: str) -> set[str]:
    """``from_('e3', 'd4 c5')`` -> ``{'e3d4', 'e3c5'}``."""
    return {square + t for t in squares.split()}


def guard_sets(b: Board, square: str) -> tuple[set[str], set[str]]:
    """(major targets, minor targets) of the Guard on *square*, as square names."""
    gm = b.guard_moves(sq(square))
    return {name(s) for s in gm.major}, {name(s) for s in gm.minor}


def check_guard(fen: str, square: str, major: str, minor: str, others: set[str]) -> None:
    """Assert the Guard on *square* has exactly these major and minor targets, and that the
    position's full legal move list is those Guard moves plus *others*."""
    b = royal(fen)
    got_major, got_minor = guard_sets(b, square)
    assert got_minor == names(minor), f"minor moves of the Guard on {square}"
    assert got_major == names(major), f"major moves of the Guard on {square}"
    assert targets(b, square) == names(major) | names(minor)
    assert legal(b) == from_(square, major) | from_(square, minor) | others


# Lone Kings used around a single Guard: White a1 (moves a2 b1 b2), Black j8 (i7 i8 j7).
WK_A1 = from_("a1", "a2 b1 b2")
BK_J8 = from_("j8", "i7 i8 j7")


def test_start_position_has_24_moves() -> None:
    # 20 pawn moves and 4 knight moves; the Guards are boxed in (the King's Guard could
    # pass over its King on f1, but e1 holds the Queen).
    b = royal(START)
    pawns = {f + "2" + f + r for f in FILES for r in "34"}
    assert legal(b) == pawns | {"b1a3", "b1c3", "i1h3", "i1j3"}


def test_en_passant_on_the_j_file() -> None:
    # 3: pawns and en passant as in chess, on the edge file of the wider board.
    b = royal("k9/8p1/10/9P/10/10/10/K9 b - - 0 1")
    b.push_uci("i7i5")
    assert b.fen() == "k9/10/10/8pP/10/10/10/K9 w - i6 0 2"
    assert legal(b) == {"j5i6", "j5j6"} | WK_A1
    b.push_uci("j5i6")
    assert b.fen() == "k9/10/8P1/10/10/10/10/K9 b - - 0 2"


# -- 4.3 the examples of the rules page (White, empty board around the Guard) -------------


@pytest.mark.parametrize(
    ("fen", "square", "major", "minor"),
    [
        # King's Guard: major = 1-3 orthogonally, minor = 1-3 diagonally.
        ("9k/10/10/10/10/4W5/10/K9", "e3",
         "e4 e5 e6 e2 e1 d3 c3 b3 f3 g3 h3", "d4 c5 f4 g5 d2 c1 f2 g1"),
        ("9k/10/10/10/4W5/10/10/K9", "e4",
         "e5 e6 e7 e3 e2 e1 d4 c4 b4 f4 g4 h4", "d5 f5 d3 c2 b1 f3 g2 h1"),
        ("9k/10/10/4W5/10/10/10/K9", "e5",
         "e6 e7 e8 e4 e3 e2 d5 c5 b5 f5 g5 h5", "d6 f6 d4 c3 b2 f4 g3 h2"),
        ("9k/10/4W5/10/10/10/10/K9", "e6",
         "e7 e8 e5 e4 e3 d6 c6 b6 f6 g6 h6", "d7 f7 d5 f5"),
        # Queen's Guard: major = 1-3 diagonally, minor = 1-3 orthogonally.
        ("9k/10/10/4G5/10/10/10/K9", "e5",
         "d6 c7 b8 f6 g7 h8 d4 c3 b2 f4 g3 h2", "e6 e4 e3 e2 d5 c5 b5 f5 g5 h5"),
        ("9k/10/4G5/10/10/10/10/K9", "e6",
         "d7 c8 f7 g8 d5 c4 b3 f5 g4 h3", "e7 e5 d6 f6"),
        ("9k/10/10/10/10/10/4G5/K9", "e2",
         "d3 c4 b5 f3 g4 h5 d1 f1", "e3 e4 e5 e1 d2 c2 b2 f2 g2 h2"),
        ("9k/10/10/10/10/4G5/10/K9", "e3",
         "d4 c5 b6 f4 g5 h6 d2 c1 f2 g1", "e4 e5 e2 e1 d3 c3 b3 f3 g3 h3"),
    ],
)  # fmt: skip
def test_section_4_3_examples(fen: str, square: str, major: str, minor: str) -> None:
    # White King a1, Black King j8, nothing else: the Guard's minor moves are exactly the
    # examples of 4.3, its major moves the 1-3 square lines, which have no territory limit.
    check_guard(fen + " w - - 0 1", square, major, minor, WK_A1)


def test_queens_guard_e3_forward_line_ends_on_e5() -> None:
    # 4.3: "Queen's Guard on e3: forward e4 e5 (the line ends on e5)" - e6 stays out of reach
    # even though it is empty.
    b = royal("9k/10/10/10/10/4G5/10/K9 w - - 0 1")
    _, minor = guard_sets(b, "e3")
    assert {s for s in minor if s[0] == "e" and s > "e3"} == {"e4", "e5"}


def test_black_guards_count_ranks_from_their_own_side() -> None:
    # Black King's Guard on e6 is on its relative rank 3: forward (towards rank 1) each
    # minor line ends on rank 4, Black's first square of enemy territory.
    check_guard(
        "9k/10/4w5/10/10/10/10/K9 b - - 0 1",
        "e6",
        "e5 e4 e3 e7 e8 d6 c6 b6 f6 g6 h6",
        "d5 c4 f5 g4 d7 c8 f7 g8",
        BK_J8,
    )
    # Black Queen's Guard on e4 is on its relative rank 5: one square forward (e3), full
    # lines back home (e5 e6 e7) and the full sideways move of the 5th rank.
    check_guard(
        "9k/10/10/10/4g5/10/10/K9 b - - 0 1",
        "e4",
        "d5 c6 b7 f5 g6 h7 d3 c2 b1 f3 g2 h1",
        "e3 e5 e6 e7 d4 c4 b4 f4 g4 h4",
        BK_J8,
    )


# -- 4.1 captures: major anywhere on the line, minor only on the first square -------------


def test_kings_guard_captures() -> None:
    # White W e4; Black knights d5 f5 (first minor squares: capturable), Black pawns g2
    # (second square of the f3-g2-h1 minor line: not capturable, the line stops at f3), e6
    # (second square of the major line: capturable) and b4 (third square of a major line:
    # capturable). Nothing attacks the White King's squares i7 i8 j7; Black King a8.
    fen = "k8K/10/4p5/3n1n4/1p2W5/10/6p3/10 w - - 0 1"
    check_guard(
        fen,
        "e4",
        major="e5 e6 e3 e2 e1 d4 c4 b4 f4 g4 h4",
        minor="d5 f5 d3 c2 b1 f3",
        others=from_("j8", "i7 i8 j7"),
    )


def test_queens_guard_captures() -> None:
    # White G e3; Black knights e4 (first minor square: capturable, line ends) and c3
    # (second minor square: not capturable, the line stops at d3); Black pawns g5 and b6
    # (second and third squares of major lines: capturable).
    fen = "k8K/10/1p8/6p3/4n5/2n1G5/10/10 w - - 0 1"
    check_guard(
        fen,
        "e3",
        major="d4 c5 b6 f4 g5 d2 c1 f2 g1",
        minor="e4 d3 f3 g3 h3 e2 e1",
        others=from_("j8", "i7 i8 j7"),
    )


def test_minor_line_into_enemy_territory_captures_only_on_first_square() -> None:
    # White W e3: Black knight c5 is the second square of the d4-c5 line (the square where
    # the line would end, rank 5): it cannot be captured. Black knight f4 is a first square:
    # captured, and the line stops there.
    fen = "k8K/10/10/2n7/5n4/4W5/10/10 w - - 0 1"
    check_guard(
        fen,
        "e3",
        major="e4 e5 e6 e2 e1 d3 c3 b3 f3 g3 h3",
        minor="d4 f4 d2 c1 f2 g1",
        others=from_("j8", "i7 i8 j7"),
    )


def test_guard_does_not_pass_over_other_pieces() -> None:
    # White W e4 with own pawns d5 (first minor square) and e6 (second major square), and an
    # own knight c4: the lines stop before them.
    fen = "k8K/10/4P5/3P6/2N1W5/10/10/10 w - - 0 1"
    b = royal(fen)
    major, minor = guard_sets(b, "e4")
    assert major == names("e5 e3 e2 e1 d4 f4 g4 h4")
    assert minor == names("f5 d3 c2 b1 f3 g2 h1")


# -- 4.4 jumping over their own King ------------------------------------------------------


def test_guard_jumps_over_own_king_on_first_rank() -> None:
    # W g1, King f1: the King's square is one of the 1-3 squares: e1 and d1, not c1.
    # King f1: e1 e2 f2 g2.
    check_guard(
        "k9/10/10/10/10/10/10/5KW3 w - - 0 1",
        "g1",
        major="g2 g3 g4 h1 i1 j1 e1 d1",
        minor="f2 e3 d4 h2 i3 j4",
        others=from_("f1", "e1 e2 f2 g2"),
    )


def test_guard_passing_over_king_may_not_capture() -> None:
    # Black knight d1: the W reaches e1 over its King but may not capture on d1.
    # The knight attacks b2 c3 e3 f2, so the King f1 may go to e1 e2 g2 but not f2.
    check_guard(
        "k9/10/10/10/10/10/10/3n1KW3 w - - 0 1",
        "g1",
        major="g2 g3 g4 h1 i1 j1 e1",
        minor="f2 e3 d4 h2 i3 j4",
        others=from_("f1", "e1 e2 g2"),
    )
    # Black knight e1, right behind the King: no capture there and nothing beyond it.
    # The knight attacks c2 d3 f3 g2: King f1 takes e1 or goes to e2 f2.
    check_guard(
        "k9/10/10/10/10/10/10/4nKW3 w - - 0 1",
        "g1",
        major="g2 g3 g4 h1 i1 j1",
        minor="f2 e3 d4 h2 i3 j4",
        others=from_("f1", "e1 e2 f2"),
    )


def test_queens_guard_minor_move_passes_over_own_king() -> None:
    # G e1, King f1: the orthogonal (minor) line along rank 1 goes f1 (King), g1, h1.
    # King f1: e2 f2 g1 g2.
    check_guard(
        "k9/10/10/10/10/10/10/4GK4 w - - 0 1",
        "e1",
        major="d2 c3 b4 f2 g3 h4",
        minor="e2 e3 e4 d1 c1 b1 g1 h1",
        others=from_("f1", "e2 f2 g1 g2"),
    )


def test_guard_does_not_pass_over_king_off_the_first_rank() -> None:
    # W e3 with its King on f3: the King blocks the line to g3 h3 (4.4: first rank only).
    # King f3: e2 e4 f2 f4 g2 g3 g4 (not e3, its Guard).
    check_guard(
        "k9/10/10/10/10/4WK4/10/10 w - - 0 1",
        "e3",
        major="e4 e5 e6 e2 e1 d3 c3 b3",
        minor="d4 c5 f4 g5 d2 c1 f2 g1",
        others=from_("f3", "e2 e4 f2 f4 g2 g3 g4"),
    )


def test_black_guard_jumps_over_own_king_on_rank_8() -> None:
    # Black W g8, King f8 on Black's first rank.
    b = royal("5kw3/10/10/10/10/10/10/K9 b - - 0 1")
    major, minor = guard_sets(b, "g8")
    assert major == names("g7 g6 g5 h8 i8 j8 e8 d8")
    assert minor == names("f7 e6 d5 h7 i6 j5")


def test_guard_attacks_only_squares_it_could_capture_on() -> None:
    # 4.1: a minor move captures only on its first square, so only that square is attacked.
    # White W e4; Black King c2 stands on the second square of the d3-c2-b1 line: no check.
    # Its moves: b3 c1 c3 d1 d2 (b1 b2: White King a1; d3: first minor square).
    b = royal("10/10/10/10/4W5/10/2k7/K9 b - - 0 1")
    assert not b.is_check()
    assert legal(b) == from_("c2", "b3 c1 c3 d1 d2")
    # Black King d3 on the first square: check. It may take the W, or go to c2 (second
    # square again), c3 or d2; c4 d4 e2 e3 are on major lines.
    b = royal("10/10/10/10/4W5/3k6/10/K9 b - - 0 1")
    assert b.is_check()
    assert legal(b) == from_("d3", "c2 c3 d2 e4")
    # 4.4: a move over the King may not capture, so the W g1 does not attack d1 past its
    # King f1: Black's King d1 is not in check (c1 c2 d2; e1 e2 touch the White King).
    b = royal("10/10/10/10/10/10/10/3k1KW3 b - - 0 1")
    assert not b.is_check()
    assert legal(b) == from_("d1", "c1 c2 d2")


# -- 3.1 Rooks jump over their own Guards ----------------------------------------------


def test_rook_first_rank_passes_own_guards_and_captures_first_enemy() -> None:
    # 3.1a: R a1 passes over G c1 and W e1 and captures the knight on g1.
    # a1: b1 d1 f1 g1 (not c1, e1: own Guards) and up the a-file a2-a8.
    b = royal("10/10/10/9k/10/10/9K/R1G1W1n3 w - - 0 1")
    assert targets(b, "a1") == names("b1 d1 f1 g1 a2 a3 a4 a5 a6 a7 a8")


def test_rook_first_rank_captures_enemy_guard_and_stops() -> None:
    # 3.1a: an enemy Guard is an enemy piece: R a1 passes its own G c1, captures w e1.
    b = royal("9k/10/10/10/10/10/9K/R1G1w5 w - - 0 1")
    assert targets(b, "a1") == names("b1 d1 e1 a2 a3 a4 a5 a6 a7 a8")


def test_rook_first_rank_does_not_pass_its_king() -> None:
    # 3.1a/d: R j1 passes its W g1 but not its King f1; up the j-file only to j2 (pawn j3).
    b = royal("k9/10/10/10/10/9P/10/5KW2R w - - 0 1")
    assert targets(b, "j1") == names("i1 h1 j2")


def test_rook_pair_on_a_file_jumps_over_guards_to_empty_squares() -> None:
    # 3.1b: Rooks c2 and c7, W c4 and G c6 between, c3 c5 empty. Each Rook may go to c3 or
    # c5 (passing Guards), never onto a Guard. Plus their ordinary moves.
    b = royal("9k/2R7/2G7/10/2W7/10/2R7/K9 w - - 0 1")
    assert targets(b, "c2") == names("c1 c3 c5 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    assert targets(b, "c7") == names("c8 c5 c3 a7 b7 d7 e7 f7 g7 h7 i7 j7")


def test_rook_pair_on_a_rank_jumps_over_guards() -> None:
    # 3.1b on rank 3 (not the first rank): Rooks b3 and h3, W d3 and G f3 between.
    b = royal("9k/10/10/10/10/1R1W1G1R2/10/K9 w - - 0 1")
    assert targets(b, "b3") == names("a3 c3 e3 g3 b1 b2 b4 b5 b6 b7 b8")
    assert targets(b, "h3") == names("g3 e3 c3 i3 j3 h1 h2 h4 h5 h6 h7 h8")


def test_rook_pair_on_last_rank_jumps_over_queen_powered_guard() -> None:
    # 3.1b and 6.2: White Rooks a8 and f8 on rank 8 (not White's first rank) with a
    # queen-powered G* on c8 between: a8 may go to b8, d8 or e8.
    b = royal("R1G*2R4/10/10/10/10/10/10/K7k1 w - - 0 1")
    assert {t for t in targets(b, "a8") if t[1] == "8"} == names("b8 d8 e8")


def test_rook_pair_broken_by_enemy_piece_does_not_jump() -> None:
    # 3.1b: a Black knight on c5 between the Rooks: no pair, no jumps.
    b = royal("9k/2R7/10/2n7/2W7/10/2R7/K9 w - - 0 1")
    assert targets(b, "c2") == names("c1 c3 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    assert targets(b, "c7") == names("c8 c6 c5 a7 b7 d7 e7 f7 g7 h7 i7 j7")


def test_rook_pair_broken_by_own_non_guard_does_not_jump() -> None:
    # 3.1b/d: an own Knight c6 between: no pair; c2 may not jump the W c4 to c5.
    b = royal("9k/2R7/2N7/10/2W7/10/2R7/K9 w - - 0 1")
    assert targets(b, "c2") == names("c1 c3 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    assert targets(b, "c7") == names("c8 a7 b7 d7 e7 f7 g7 h7 i7 j7")


def test_single_rook_off_first_rank_does_not_pass_its_guard() -> None:
    # 3.1d: one Rook c2 with its W c4: the Rook stops at c3 and gives no check to the King
    # c8 through the Guard. Black King c8: b7 b8 d7 d8 (c7 is the W's third major square).
    b = royal("2k7/10/10/10/2W7/10/2R7/K9 b - - 0 1")
    assert not b.is_check()
    assert legal(b) == from_("c8", "b7 b8 d7 d8")


def test_recapture_right_by_playing_the_capture() -> None:
    # 3.1c: Rooks c2 and c7 with W c4 between form a pair. Black Bishop a5 takes c7; White's
    # c2 Rook may take it back on c7 on the very next move, passing over c4. It cannot go
    # to c5 or c6 any more (one Rook is no pair).
    b = royal("9k/2R7/10/b9/2W7/10/2R7/K9 b - - 0 1")
    b.push_uci("a5c7")
    assert b.fen() == "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 c7"
    assert b.recapture_square == sq("c7")
    assert targets(b, "c2") == names("c1 c3 c7 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    # The recapture itself.
    b.push_uci("c2c7")
    assert b.fen() == "9k/2R7/10/10/2W7/10/10/K9 b - - 0 2"


def test_recapture_right_from_fen_field_7() -> None:
    b = royal("9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 c7")
    assert targets(b, "c2") == names("c1 c3 c7 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    # Without field 7 there is no right: the Guard on c4 blocks the Rook.
    b = royal("9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2")
    assert targets(b, "c2") == names("c1 c3 a2 b2 d2 e2 f2 g2 h2 i2 j2")


def test_recapture_right_is_gone_a_move_later() -> None:
    b = royal("9k/2R7/10/b9/2W7/10/2R7/K9 b - - 0 1")
    b.push_uci("a5c7")
    b.push_uci("a1b1")  # White declines the recapture
    assert b.recapture_square is None
    assert b.fen() == "9k/2b7/10/10/2W7/10/2R7/1K8 b - - 1 2"
    b.push_uci("j8i8")
    assert targets(b, "c2") == names("c1 c3 a2 b2 d2 e2 f2 g2 h2 i2 j2")


def test_no_recapture_right_if_an_enemy_piece_stood_between() -> None:
    # 3.1c [settled]: Black's Rook c5 stands between the White Rooks c2 and c7 and takes c7.
    # After the capture c5 is empty, but at the moment of the capture the Rooks were no pair.
    b = royal("9k/2R7/10/2r7/2W7/10/2R7/K9 b - - 0 1")
    b.push_uci("c5c7")
    assert b.fen() == "9k/2r7/10/10/2W7/10/2R7/K9 w - - 0 2"
    assert b.recapture_square is None
    assert targets(b, "c2") == names("c1 c3 a2 b2 d2 e2 f2 g2 h2 i2 j2")


# -- 3.1 what the jumps attack -------------------------------------------------------


def test_king_may_not_step_onto_squares_a_rook_attacks_through_its_guard() -> None:
    # 3.1a: Black R a8 attacks the whole of rank 8 through its own W c8, so White's King h7
    # may not go to g8 h8 i8. (The W itself attacks b8 d8 e8 f8 c7 c6 c5 and b7 d7 only.)
    b = royal("r1w7/7K2/10/10/10/10/10/k9 w - - 0 1")
    assert legal(b) == from_("h7", "g6 h6 i6 g7 i7")
    # The same with a Black knight on c8: the Rook is blocked, rank 8 is free.
    b = royal("r1n7/7K2/10/10/10/10/10/k9 w - - 0 1")
    assert legal(b) == from_("h7", "g6 h6 i6 g7 i7 g8 h8 i8")


def test_rook_gives_check_through_its_guard_on_the_first_rank() -> None:
    # Black R a8, W c8; White King f8 is in check along rank 8. It may not go to e8 (on the
    # line) or g8 (behind it, the King is lifted); e7 f7 g7 are free (the W attacks d7
    # and c7, not e7).
    b = royal("r1w2K4/10/10/10/10/10/10/k9 w - - 0 1")
    assert b.is_check()
    assert legal(b) == from_("f8", "e7 f7 g7")


def test_rook_pins_through_its_guard_on_the_first_rank() -> None:
    # Black R a8, G c8; the White Knight e8 is pinned against its King h8 through the Guard.
    b = royal("r1g1N2K2/10/10/10/10/10/10/k9 w - - 0 1")
    assert legal(b) == from_("h8", "g7 g8 h7 i7 i8")
    # With a Black knight on c8 instead, nothing is pinned.
    b = royal("r1n1N2K2/10/10/10/10/10/10/k9 w - - 0 1")
    assert legal(b) == from_("h8", "g7 g8 h7 i7 i8") | from_("e8", "c7 d6 f6 g7")


def test_king_may_not_take_a_rook_of_a_pair_even_if_the_other_is_pinned() -> None:
    # Black Rooks c4 and j4 with their W g4 between (d4 e4 f4 h4 i4 empty): a pair on rank
    # 4 (not Black's first rank). If White's King b3 took c4, Black's j4 Rook would have the
    # recapture right (3.1c) over g4 - so c4 counts as attacked, even though the j4 Rook is
    # pinned on the j-file by White's R j1 against Black's King j8.
    # King b3: a4 b4 (rank 4) and c2 c3 (c-file) are attacked by R c4; a2 a3 b2 are free.
    # R j1: j2 j3 j4 and the whole of rank 1.
    rook = from_("j1", "j2 j3 j4 a1 b1 c1 d1 e1 f1 g1 h1 i1")
    b = royal("9k/10/10/10/2r3w2r/1K8/10/9R w - - 0 1")
    assert legal(b) == from_("b3", "a2 a3 b2") | rook
    # With a Black knight on g4 instead of the W the Rooks are no pair: b3xc4 is legal.
    b = royal("9k/10/10/10/2r3n2r/1K8/10/9R w - - 0 1")
    assert legal(b) == from_("b3", "a2 a3 b2 c4") | rook


# -- 5 castling --------------------------------------------------------------------------


def test_castling_king_to_each_of_three_squares() -> None:
    # 5.2/5.3: King f1 to g1, h1 or i1; the Rook lands on the first empty square on the
    # centre side of the King: f1 (vacated), g1, h1.
    b = royal("k9/10/10/10/10/10/5PPPPP/5K3R w K - 0 1")
    assert legal(b) == (
        {"f1g1j1f1", "f1h1j1g1", "f1i1j1h1"}
        | from_("f1", "e1 e2 g1")
        | from_("j1", "i1 h1 g1")
        | {f + "2" + f + r for f in "fghij" for r in "34"}
    )
    b.push_uci("f1i1j1h1")
    assert b.fen() == "k9/10/10/10/10/10/5PPPPP/7RK1 b - - 1 1"


CASTLE_W_G1 = "k9/10/10/10/10/10/5PPPPP/5KW2R w K - 0 1"


def test_castling_with_kings_guard_on_g1_every_choice() -> None:
    # 5.2-5.4 with W g1 (pawns f2-j2 block its other moves). The W may move first:
    # g1e1 or g1d1 (over its King, 4.4), g1h1, g1i1. Then the King goes to any empty one of
    # g1 h1 i1; the Rook to the first empty square next to the King on the centre side.
    # Without a Guard move: King h1 -> Rook f1 (g1 holds the W: the rules page's example),
    # King i1 -> Rook h1.
    expected = {
        "f1h1j1f1", "f1i1j1h1",
        "g1e1f1g1j1f1", "g1e1f1h1j1g1", "g1e1f1i1j1h1",
        "g1d1f1g1j1f1", "g1d1f1h1j1g1", "g1d1f1i1j1h1",
        "g1h1f1g1j1f1", "g1h1f1i1j1g1",  # King i1: h1 holds the W, so the Rook goes to g1
        "g1i1f1g1j1f1", "g1i1f1h1j1g1",
    }  # fmt: skip
    b = royal(CASTLE_W_G1)
    assert castlings(b) == expected
    # The whole list: King e1 e2, the W's four moves, R j1 to i1 h1 (3.1a over g1), pawns.
    assert legal(b) == (
        expected
        | from_("f1", "e1 e2")
        | from_("g1", "e1 d1 h1 i1")
        | from_("j1", "i1 h1")
        | {f + "2" + f + r for f in "fghij" for r in "34"}
    )
    b.push_uci("f1h1j1f1")
    assert b.fen() == "k9/10/10/10/10/10/5PPPPP/5RWK2 b - - 1 1"


def test_castling_from_the_start_position_after_clearing_the_kingside() -> None:
    b = royal(START)
    for uci in ("i1h3", "a7a6", "i2i3", "a6a5", "h1i2", "a5a4"):
        b.push_uci(uci)
    # W g1 can only go to h1 or i1 (e1 holds the Queen, f2 h2 g2 are pawns).
    assert castlings(b) == {
        "f1h1j1f1", "f1i1j1h1",
        "g1h1f1g1j1f1", "g1h1f1i1j1g1",
        "g1i1f1g1j1f1", "g1i1f1h1j1g1",
    }  # fmt: skip


def test_castling_out_of_check_by_guard_capturing_the_checker() -> None:
    # 5.4: Black knight g3 checks King f1. The W takes it (g1xg3, major move over g2) as
    # part of castling; then the King may go to g1 h1 i1. Otherwise: King e1 f2 g2 (e2 is
    # attacked by the knight) or the plain capture g1g3.
    b = royal("k9/10/10/10/10/6n3/10/5KW2R w K - 0 1")
    assert b.is_check()
    assert legal(b) == {
        "g1g3f1g1j1f1", "g1g3f1h1j1g1", "g1g3f1i1j1h1",
        "g1g3", "f1e1", "f1f2", "f1g2",
    }  # fmt: skip
    b.push_uci("g1g3f1h1j1g1")
    assert b.fen() == "k9/10/10/10/10/6W3/10/6RK2 b - - 0 1"


def test_castling_out_of_check_by_guard_blocking() -> None:
    # 5.4: Black Rook f5 checks King f1 down the f-file. The W blocks on f2 (minor move);
    # then the King may castle to g1 h1 i1. Otherwise: King e1 e2 g2 or the plain block.
    b = royal("k9/10/10/5r4/10/10/10/5KW2R w K - 0 1")
    assert b.is_check()
    assert legal(b) == {
        "g1f2f1g1j1f1", "g1f2f1h1j1g1", "g1f2f1i1j1h1",
        "g1f2", "f1e1", "f1e2", "f1g2",
    }  # fmt: skip


def test_castling_guard_captures_a_blocker() -> None:
    # 5.1/5.4: a Black Rook on h1 stands between King and Rook (and pins the W). Only the
    # W's capture g1xh1 clears the way: King g1 (Rook f1) or King i1 over the W on h1
    # (Rook g1). The castling move captures, so the half-move clock is reset (5.6).
    b = royal("k9/10/10/10/10/10/5PPPPP/5KWr1R w K - 0 1")
    assert castlings(b) == {"g1h1f1g1j1f1", "g1h1f1i1j1g1"}
    assert legal(b) == (
        {"g1h1f1g1j1f1", "g1h1f1i1j1g1", "g1h1", "f1e1", "f1e2", "j1i1", "j1h1"}
        | {f + "2" + f + r for f in "fghij" for r in "34"}
    )
    b = royal("k9/10/10/10/10/10/5PPPPP/5KWr1R w K - 7 20")
    b.push_uci("g1h1f1i1j1g1")
    assert b.fen() == "k9/10/10/10/10/10/5PPPPP/6RWK1 b - - 0 20"


def test_castling_passing_square_holding_a_guard_must_not_be_attacked() -> None:
    # 5.5 [settled]: Black knight e2 attacks g1, where the W stands. The King may not pass
    # over g1 (to h1 or i1) nor land there after the W moves away: no castling at all.
    b = royal("k9/10/10/10/10/10/4n5/5KW2R w K - 0 1")
    assert castlings(b) == set()


def test_castling_passing_over_attacked_guard_square_after_guard_move() -> None:
    # 5.5: Black knight j2 attacks h1 only. King h1 (lands attacked) and King i1 (passes
    # h1, even when the W has moved onto h1) are out; King g1 is fine after any W move.
    b = royal("k9/10/10/10/10/10/9n/5KW2R w K - 0 1")
    guard = "g2 g3 g4 e1 d1 h1 i1 f2 e3 d4 h2 i3 j4"
    assert castlings(b) == {"g1" + t + "f1g1j1f1" for t in guard.split()}


def test_castling_guard_capturing_rook_of_a_pair_counts_the_recapture_right() -> None:
    # 5.5: Black Rooks h1 and h6 with their G h4 between are a pair (on the h-file). The W
    # takes h1 as part of castling; then Black's h6 Rook has the recapture right on h1 (over
    # h4), so h1 counts as attacked: King i1 (passing h1) is out, King g1 is fine.
    b = royal("k9/10/7r2/10/7g2/10/10/5KWr1R w K - 0 1")
    assert castlings(b) == {"g1h1f1g1j1f1"}
    b.push_uci("g1h1f1g1j1f1")
    assert b.fen() == "k9/10/7r2/10/7g2/10/10/5RKW2 b - - 0 1 h1"
    assert targets(b, "h6") == names("h7 h8 h5 h1 a6 b6 c6 d6 e6 f6 g6 i6 j6")
    # With a Black knight on h4 the Rooks are no pair: King i1 is allowed.
    b = royal("k9/10/7r2/10/7n2/10/10/5KWr1R w K - 0 1")
    assert castlings(b) == {"g1h1f1g1j1f1", "g1h1f1i1j1g1"}


def test_castling_queenside_with_queens_guard() -> None:
    # Queenside: King f1 to d1, c1 or b1; only Guards between (the Queen has left e1).
    # G d1 can move first to c1, b1 or e1 (d2 c2 e2 are pawns; W g1 stops its line over f1).
    b = royal("9k/10/10/10/10/10/2PPP5/R2G1KW3 w Q - 0 1")
    assert castlings(b) == {
        "f1c1a1e1",  # King c1 over e1 and the G on d1; Rook to e1 (d1 holds the G)
        "f1b1a1c1",
        "d1c1f1d1a1e1", "d1c1f1b1a1d1",
        "d1b1f1d1a1e1", "d1b1f1c1a1d1",
        "d1e1f1d1a1f1",  # King d1: e1 holds the G, so the Rook goes to f1
        "d1e1f1c1a1d1", "d1e1f1b1a1c1",
    }  # fmt: skip


def test_no_queenside_castling_with_the_queen_between() -> None:
    # 5.1: only Guards may stand between King and Rook; the Queen on e1 is no Guard.
    b = royal("9k/10/10/10/10/10/2PPP5/R2GQKW3 w Q - 0 1")
    assert castlings(b) == set()


def test_no_castling_from_the_start_position() -> None:
    assert castlings(royal(START)) == set()


def test_black_castling_kingside() -> None:
    b = royal("5k3r/5ppppp/10/10/10/10/10/K9 b k - 0 1")
    assert castlings(b) == {"f8g8j8f8", "f8h8j8g8", "f8i8j8h8"}


def test_black_castling_queenside_with_guard_first() -> None:
    # Black G d8 may first go to c8, b8, e8 or g8 (over its King f8, 4.4).
    b = royal("r2g1k4/2ppp5/10/10/10/10/10/9K b q - 0 1")
    assert castlings(b) == {
        "f8c8a8e8", "f8b8a8c8",
        "d8c8f8d8a8e8", "d8c8f8b8a8d8",
        "d8b8f8d8a8e8", "d8b8f8c8a8d8",
        "d8e8f8d8a8f8", "d8e8f8c8a8d8", "d8e8f8b8a8c8",
        "d8g8f8d8a8e8", "d8g8f8c8a8d8", "d8g8f8b8a8c8",
    }  # fmt: skip
    b.push_uci("d8g8f8c8a8d8")
    assert b.fen() == "2kr2g3/2ppp5/10/10/10/10/10/9K w - - 1 2"


def test_castling_rights_lost_when_the_rook_moves() -> None:
    b = royal("k9/10/10/10/10/10/5PPPPP/5K3R w K - 0 1")
    for uci in ("j1i1", "a8a7", "i1j1", "a7a8"):
        b.push_uci(uci)
    assert b.castling_rights == "-"
    assert castlings(b) == set()


def test_castling_rights_lost_when_the_king_moves() -> None:
    b = royal("k9/10/10/10/10/10/5PPPPP/5K3R w K - 0 1")
    for uci in ("f1e1", "a8a7", "e1f1", "a7a8"):
        b.push_uci(uci)
    assert b.fen() == "k9/10/10/10/10/10/5PPPPP/5K3R w - - 4 3"
    assert castlings(b) == set()


def test_castling_rights_lost_when_the_rook_is_captured() -> None:
    b = royal("k8r/10/10/10/10/10/5PPP2/5K3R b K - 0 1")
    b.push_uci("j8j1")
    assert b.fen() == "k9/10/10/10/10/10/5PPP2/5K3r w - - 0 2"


def test_castling_right_survives_a_guard_move() -> None:
    # 5: the chess conditions name the King and the Rook only. After the W's ordinary move
    # g1-i1 White may still castle: King g1 or h1 without a Guard move; or the W (now on i1,
    # between King and Rook) moves first to h1 or g1 (its line to the left ends on the King's
    # square f1) and the King goes to a square left empty.
    b = royal(CASTLE_W_G1)
    b.push_uci("g1i1")
    b.push_uci("a8a7")
    assert b.castling_rights == "K"
    assert castlings(b) == {
        "f1g1j1f1", "f1h1j1g1",
        "i1h1f1g1j1f1", "i1h1f1i1j1g1",
        "i1g1f1h1j1f1", "i1g1f1i1j1h1",
    }  # fmt: skip


def test_no_castling_without_the_right() -> None:
    assert castlings(royal("k9/10/10/10/10/10/5PPPPP/5KW2R w - - 0 1")) == set()


# -- 6 promotion -------------------------------------------------------------------------


def test_promotion_to_every_kind_when_all_were_captured() -> None:
    # 6.1/6.2: White has only its King, so every kind is available; a Guard comes with
    # queen powers or waived. Black King e3 is checked by e8=Q, =R, =G and =W (queen powers
    # on the e-file) but not by =B, =N, =G- or =W- (a plain Guard on e8 reaches e5 at most).
    b = royal("10/4P5/10/10/10/4k5/10/K9 w - - 0 1")
    assert set(b.promotion_choices()) == ALL_KINDS
    promotions = {"e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7e8g", "e7e8g-", "e7e8w", "e7e8w-"}
    assert legal(b) == promotions | WK_A1
    checking = set()
    for uci in promotions:
        b.push_uci(uci)
        if b.is_check():
            checking.add(uci)
        b.pop()
    assert checking == {"e7e8q", "e7e8r", "e7e8g", "e7e8w"}


def test_promotion_only_to_captured_kinds() -> None:
    # 6.1: White has Q, one R, two B, one N, G, W: only a Rook or a Knight may come back.
    b = royal("3r3k2/4P5/10/10/10/10/10/RNBGQKWB2 w - - 0 1")
    assert set(b.promotion_choices()) == {ROOK, KNIGHT}
    assert {u for u in legal(b) if u.startswith("e7")} == {"e7e8r", "e7e8n", "e7d8r", "e7d8n"}


def test_no_promotion_move_when_nothing_was_captured() -> None:
    # 6.1 [settled]: White has its whole set; the pawn e7 has no move at all (not to e8,
    # not taking the knights on d8 or f8).
    b = royal("1k1n1n4/4P5/10/10/10/10/10/RNBGQKWBNR w - - 0 1")
    assert b.promotion_choices() == []
    assert {u for u in legal(b) if u.startswith("e7")} == set()


def test_promotion_kind_brought_back_is_no_longer_available() -> None:
    # 6.1: one White Knight is missing. After e8=N the set is complete again: g7 is stuck.
    b = royal("10/4P1P3/1k8/10/10/10/10/RNBGQKWB1R w - - 0 1")
    assert b.promotion_choices() == [KNIGHT]
    assert {u for u in legal(b) if u[1] == "7"} == {"e7e8n", "g7g8n"}
    b.push_uci("e7e8n")
    assert set(b.promotion_choices()) == ALL_KINDS  # Black, with only its King
    b.push_uci("b6b5")
    assert b.promotion_choices() == []
    assert {u for u in legal(b) if u.startswith("g7")} == set()


def test_pawn_that_cannot_promote_still_gives_check() -> None:
    # 6.3 [settled]: the pawn e7 cannot move (nothing to promote to) but attacks d8 and f8:
    # Black's King d8 is in check. It may go to c7 c8 d7 e8; e7 is guarded by the Queen e1.
    b = royal("3k6/4P5/10/10/10/10/10/RNBGQKWBNR b - - 0 1")
    assert b.is_check()
    assert legal(b) == from_("d8", "c7 c8 d7 e8")


def test_promoted_guard_moves_as_queen_then_as_guard() -> None:
    # 6.2: after e8=G the Guard has queen powers on e8: it checks the King e3 along the
    # e-file (the King may not stay on the file: d2 d3 d4 f2 f3 f4), then moves as a Queen.
    b = royal("10/4P5/10/10/10/4k5/10/K9 w - - 0 1")
    b.push_uci("e7e8g")
    assert b.fen() == "4G*5/10/10/10/10/4k5/10/K9 b - - 0 1"
    assert b.is_check()
    assert legal(b) == from_("e3", "d2 d3 d4 f2 f3 f4")
    b.push_uci("e3d3")
    queen = "e7 e6 e5 e4 e3 e2 e1 a8 b8 c8 d8 f8 g8 h8 i8 j8 d7 c6 b5 a4 f7 g6 h5 i4 j3"
    assert legal(b) == from_("e8", queen) | WK_A1
    # a4 is four squares away: only a Queen gets there. There the powers are gone.
    b.push_uci("e8a4")
    assert b.fen() == "10/10/10/10/G9/3k6/10/K9 b - - 2 2"
    b.push_uci("d3e3")
    # An ordinary Queen's Guard on a4 (own territory): major b5 c6 d7, b3 c2 d1; minor a5
    # (the line ends on rank 5), a3 a2 (King a1), b4 c4 d4.
    major, minor = guard_sets(b, "a4")
    assert major == names("b5 c6 d7 b3 c2 d1")
    assert minor == names("a5 a3 a2 b4 c4 d4")
    assert targets(b, "a4") == major | minor


def test_waived_guard_promotion_is_an_ordinary_guard() -> None:
    # 6.2: e8=G- gives no check to e3 and moves as a Queen's Guard on its relative rank 8:
    # major d7 c6 b5, f7 g6 h5; minor one square each: e7, d8, f8.
    b = royal("10/4P5/10/10/10/4k5/10/K9 w - - 0 1")
    b.push_uci("e7e8g-")
    assert b.fen() == "4G5/10/10/10/10/4k5/10/K9 b - - 0 1"
    assert not b.is_check()
    b.push_uci("e3f3")
    assert targets(b, "e8") == names("d7 c6 b5 f7 g6 h5 e7 d8 f8")


def test_queen_powered_guard_from_fen_gives_check_as_a_queen() -> None:
    assert royal("4G*5/10/10/10/10/4k5/10/K9 b - - 0 1").is_check()
    assert royal("4W*5/10/10/10/10/4k5/10/K9 b - - 0 1").is_check()
    assert not royal("4G5/10/10/10/10/4k5/10/K9 b - - 0 1").is_check()
    assert not royal("4W5/10/10/10/10/4k5/10/K9 b - - 0 1").is_check()


def test_kings_guard_with_queen_powers_moves_as_a_queen() -> None:
    queen = "e7 e6 e5 e4 e3 e2 e1 a8 b8 c8 d8 f8 g8 h8 i8 j8 d7 c6 b5 a4 f7 g6 h5 i4 j3"
    b = royal("4W*5/10/10/10/10/10/10/K8k w - - 0 1")
    assert legal(b) == from_("e8", queen) | WK_A1
    # Without the star: major e7 e6 e5, d8 c8 b8, f8 g8 h8; minor d7, f7 (one square).
    b = royal("4W5/10/10/10/10/10/10/K8k w - - 0 1")
    assert legal(b) == from_("e8", "e7 e6 e5 d8 c8 b8 f8 g8 h8 d7 f7") | WK_A1


# -- 7 insufficient material ------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "insufficient"),
    [
        ("k9/10/10/10/10/10/10/9K w - - 0 1", True),  # K v K
        ("k9/10/10/10/10/10/10/8BK w - - 0 1", True),  # KB v K
        ("kn8/10/10/10/10/10/10/9K w - - 0 1", True),  # K v KN
        ("k9/10/10/10/10/10/10/8NK w - - 0 1", True),  # KN v K
        ("k9/10/10/10/10/10/10/8GK w - - 0 1", False),  # [settled] a Guard can mate
        ("k9/10/10/10/10/10/10/8WK w - - 0 1", False),
        ("kg8/10/10/10/10/10/10/9K w - - 0 1", False),
        ("k9/10/10/10/10/10/10/8RK w - - 0 1", False),
        ("k9/10/10/10/10/10/4P5/9K w - - 0 1", False),
        ("kn8/10/10/10/10/10/10/8BK w - - 0 1", False),  # KB v KN is not on the list
    ],
)
def test_insufficient_material(fen: str, insufficient: bool) -> None:
    b = royal(fen)
    assert b.is_insufficient_material() is insufficient
    outcome = b.outcome()
    if insufficient:
        assert outcome is not None and outcome.termination == Termination.INSUFFICIENT_MATERIAL
    else:
        assert outcome is None


def test_repetition_identity_includes_queen_powers() -> None:
    # 7: positions differing only in queen powers are not the same position.
    a = royal("4G*5/10/10/10/10/3k6/10/K9 w - - 0 1")
    b = royal("4G5/10/10/10/10/3k6/10/K9 w - - 0 1")
    assert a.zobrist_hash() != b.zobrist_hash()


# -- 8 FEN ----------------------------------------------------------------------------


def test_fen_start_position_has_six_fields() -> None:
    b = Board(variant="royal")
    assert b.fen() == START
    assert royal(START).fen() == START


def test_fen_writes_en_passant_square_after_every_double_step() -> None:
    b = royal(START)
    b.push_uci("e2e4")
    assert b.fen() == "rnbgqkwbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBGQKWBNR b KQkq e3 0 1"


def test_fen_field_7_read_and_written() -> None:
    fen = "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 c7"
    b = royal(fen)
    assert b.fen() == fen
    assert b.recapture_square == sq("c7")


def test_fen_field_7_dash_is_left_out_when_written() -> None:
    b = royal("9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 -")
    assert b.fen() == "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2"
    assert b.recapture_square is None


@pytest.mark.parametrize(
    "fen",
    [
        "4G*5/10/10/10/10/4k5/10/K9 b - - 0 1",
        "k9/10/10/10/10/10/10/4w*4K w - - 0 1",
        "k9/10/10/10/10/10/10/g*8K w - - 0 1",
        "W*8k/10/10/10/10/10/10/K9 b - - 0 1",
    ],
)
def test_fen_queen_powers_star_round_trips(fen: str) -> None:
    assert royal(fen).fen() == fen


@pytest.mark.parametrize(
    "fen",
    [
        "rnbgqkwbn/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1",  # 9 files
        "rnbgqkwbnrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1",  # 11 files
        "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKXBNR w KQkq - 0 1",  # letter X
        "4Q*5/10/10/10/10/4k5/10/K9 b - - 0 1",  # star on a Queen
        "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 c6",  # field 7 on an empty square
        "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 c2",  # field 7 on the mover's own piece
        "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 k7",  # field 7 off the board
    ],
)
def test_fen_bad_input_is_a_clear_error(fen: str) -> None:
    with pytest.raises(ValueError):
        royal(fen)


# -- 10 notation -----------------------------------------------------------------------


NOTATION = "k9/10/10/10/10/10/5P1PPP/5KW2R w K - 0 1"


def test_uci_castling_with_guard_move_first() -> None:
    b = royal(NOTATION)
    m = b.parse_uci("g1g3f1g1j1f1")
    assert (m.guard_from, m.guard_to) == (sq("g1"), sq("g3"))
    assert (m.from_square, m.to_square) == (sq("f1"), sq("g1"))
    assert (m.rook_from, m.rook_to) == (sq("j1"), sq("f1"))
    assert m.uci() == "g1g3f1g1j1f1"
    assert b.san(m) == "Wg3_O-O:g1"
    b.push(m)
    assert b.fen() == "k9/10/10/10/10/6W3/5P1PPP/5RK3 b - - 1 1"


def test_san_castling_spellings() -> None:
    b = royal(NOTATION)
    assert b.parse_san("Wg3_O-O:h1").uci() == "g1g3f1h1j1g1"
    assert b.parse_san("O-O:h1").uci() == "f1h1j1f1"
    assert b.parse_san("O-O:i1").uci() == "f1i1j1h1"
    assert b.san(b.parse_uci("f1h1j1f1")) == "O-O:h1"
    assert b.san(b.parse_uci("g1g3f1h1j1g1")) == "Wg3_O-O:h1"
    assert b.san(b.parse_uci("g1g3")) == "Wg3"


def test_king_step_and_castling_to_the_same_square_are_different_moves() -> None:
    # 10 [settled]: f1g1 is the King's step, f1g1j1f1 castling.
    b = royal("k9/10/10/10/10/10/5PPPPP/5K3R w K - 0 1")
    step, castle = b.parse_uci("f1g1"), b.parse_uci("f1g1j1f1")
    assert step != castle
    assert b.san(step) == "Kg1"
    assert b.san(castle) == "O-O:g1"


def test_promotion_spellings() -> None:
    b = royal("10/4P5/10/10/10/10/10/K8k w - - 0 1")
    assert {b.san(m) for m in b.legal_moves if m.from_square == sq("e7")} == {
        "e8=Q", "e8=R", "e8=B", "e8=N", "e8=G", "e8=G-", "e8=W", "e8=W-",
    }  # fmt: skip
    m = b.parse_uci("e7e8g-")
    assert (m.promotion, m.waived) == (QUEENS_GUARD, True)
    assert b.parse_san("e8=G-") == m
    assert b.parse_san("e8=G").uci() == "e7e8g"
    assert b.parse_san("e8=W-").uci() == "e7e8w-"
    assert b.parse_uci("e7e8g").waived is False


def test_promotion_san_marks_queen_like_check() -> None:
    b = royal("10/4P5/10/10/10/4k5/10/K9 w - - 0 1")
    assert {b.san(m) for m in b.legal_moves if m.from_square == sq("e7")} == {
        "e8=Q+", "e8=R+", "e8=B", "e8=N", "e8=G+", "e8=G-", "e8=W+", "e8=W-",
    }  # fmt: skip


@pytest.mark.parametrize(
    "fen",
    [
        START,
        CASTLE_W_G1,
        NOTATION,
        "r2g1k4/2ppp5/10/10/10/10/10/9K b q - 0 1",
        "k9/10/10/10/10/6n3/10/5KW2R w K - 0 1",
        "10/4P5/10/10/10/4k5/10/K9 w - - 0 1",
        "4G*5/10/10/10/10/3k6/10/K9 w - - 0 1",
        "9k/2b7/10/10/2W7/10/2R7/K9 w - - 0 2 c7",
    ],
)
def test_every_move_spelling_round_trips(fen: str) -> None:
    # 10: every legal move prints one string, and parsing it gives that move back.
    b = royal(fen)
    moves = list(b.legal_moves)
    assert len({m.uci() for m in moves}) == len(moves)
    assert len({b.san(m) for m in moves}) == len(moves)
    for m in moves:
        assert b.parse_uci(m.uci()) == m
        assert b.parse_san(b.san(m)) == m
