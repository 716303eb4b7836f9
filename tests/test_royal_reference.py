"""Tests of the independent pure-Python Royal Chess reference (tests/royal_reference.py).

Every expected move set here was derived by hand from shared/spec/royal-chess.md.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import royal_positions as rp
import royal_reference as ref
from royal_reference import START_FEN, divide, legal_moves, perft, push

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def squares(text):
    return set(text.split())


def targets(fen, frm):
    """Destination squares of the ordinary (4-character) moves from ``frm``."""
    return {m[2:4] for m in legal_moves(fen) if len(m) == 4 and m[:2] == frm}


def castlings(fen):
    return {m for m in legal_moves(fen) if len(m) in (8, 12)}


def mirror_square(s):
    return s[0] + str(9 - int(s[1]))


def mirror_fen(fen):
    """Colour-flipped position (ranks mirrored, colours swapped, side swapped)."""
    f = fen.split()
    rows = f[0].split("/")[::-1]
    rows = ["".join(c.swapcase() for c in row) for row in rows]
    side = "b" if f[1] == "w" else "w"
    cast = "-" if f[2] == "-" else "".join(sorted(f[2].swapcase(), key="KQkq".index))
    ep = "-" if f[3] == "-" else mirror_square(f[3])
    out = ["/".join(rows), side, cast, ep, f[4], f[5]]
    if len(f) > 6 and f[6] != "-":
        out.append(mirror_square(f[6]))
    return " ".join(out)


def mirror_moves(moves):
    out = set()
    for m in moves:
        body = m.rstrip("qrbngw-")
        suffix = m[len(body) :]
        out.add("".join(mirror_square(body[i : i + 2]) for i in range(0, len(body), 2)) + suffix)
    return out


def guard_fen(letter, square, white=True):
    """A lone Guard on ``square`` with the two Kings out of the way (a1 and j8)."""
    board = {"a1": "K", "j8": "k", square: letter if white else letter.lower()}
    return fen_from(board, "w" if white else "b")


def fen_from(pieces, side, castling="-", ep="-", extra=""):
    rows = []
    for r in range(8, 0, -1):
        row, empty = "", 0
        for f in "abcdefghij":
            p = pieces.get(f + str(r))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    fen = "/".join(rows) + f" {side} {castling} {ep} 0 1"
    return fen + (" " + extra if extra else "")


# ---------------------------------------------------------------------------
# perft from the start position
# ---------------------------------------------------------------------------


def test_start_fen_round_trip():
    assert ref.to_fen(ref.parse_fen(START_FEN)) == START_FEN


@pytest.mark.parametrize("depth,nodes", [(1, 24), (2, 576), (3, 15718)])
def test_start_perft(depth, nodes):
    assert perft(START_FEN, depth) == nodes


@pytest.mark.slow
def test_start_perft_4():
    assert perft(START_FEN, 4) == 427473


def test_start_moves():
    pawns = {f + "2" + f + r for f in "abcdefghij" for r in "34"}
    assert set(legal_moves(START_FEN)) == pawns | {"b1a3", "b1c3", "i1h3", "i1j3"}


def test_divide_sums_to_perft():
    d = divide(START_FEN, 2)
    assert len(d) == 24 and all(v == 24 for v in d.values())
    assert sum(d.values()) == perft(START_FEN, 2)


# ---------------------------------------------------------------------------
# 4.3: every example, as exact sets of minor-move targets (major moves listed too)
# ---------------------------------------------------------------------------

# (guard letter, square, minor moves of 4.3, major moves on the empty board)
EXAMPLES_43 = [
    ("W", "e3", "d4 c5 f4 g5 d2 c1 f2 g1", "e4 e5 e6 e2 e1 d3 c3 b3 f3 g3 h3"),
    ("W", "e4", "d5 f5 d3 c2 b1 f3 g2 h1", "e5 e6 e7 e3 e2 e1 d4 c4 b4 f4 g4 h4"),
    ("W", "e5", "d6 f6 d4 c3 b2 f4 g3 h2", "e6 e7 e8 e4 e3 e2 d5 c5 b5 f5 g5 h5"),
    ("W", "e6", "d7 f7 d5 f5", "e7 e8 e5 e4 e3 d6 c6 b6 f6 g6 h6"),
    ("G", "e5", "e6 e4 e3 e2 d5 c5 b5 f5 g5 h5", "d6 c7 b8 f6 g7 h8 d4 c3 b2 f4 g3 h2"),
    ("G", "e6", "e7 e5 d6 f6", "d7 c8 f7 g8 d5 c4 b3 f5 g4 h3"),
    ("G", "e2", "e3 e4 e5 e1 d2 c2 b2 f2 g2 h2", "d1 f1 d3 c4 b5 f3 g4 h5"),
    ("G", "e3", "e4 e5 e2 e1 d3 c3 b3 f3 g3 h3", "d2 c1 f2 g1 d4 c5 b6 f4 g5 h6"),
]


@pytest.mark.parametrize("letter,square,minor,major", EXAMPLES_43)
def test_guard_examples_white(letter, square, minor, major):
    fen = guard_fen(letter, square)
    assert squares(minor).isdisjoint(squares(major))
    assert targets(fen, square) == squares(minor) | squares(major)


@pytest.mark.parametrize("letter,square,minor,major", EXAMPLES_43)
def test_guard_examples_black_mirrored(letter, square, minor, major):
    # Black uses relative ranks: the same examples mirrored onto Black's side
    fen = mirror_fen(guard_fen(letter, square))
    expect = {mirror_square(s) for s in squares(minor) | squares(major)}
    assert targets(fen, mirror_square(square)) == expect


def test_minor_line_in_own_half_queen_guard_sideways_on_fourth_rank():
    # relative rank 4, sideways: never enters enemy territory, full 3 squares
    fen = guard_fen("G", "e4")
    minor = squares("e5 e3 e2 e1 d4 c4 b4 f4 g4 h4")
    major = squares("d5 c6 b7 f5 g6 h7 d3 c2 b1 f3 g2 h1")
    assert targets(fen, "e4") == minor | major


def test_minor_capture_only_on_first_square():
    # King's Guard e3; black pawn on d4 (first minor square) and on g5 (second)
    fen = fen_from({"a1": "K", "j8": "k", "e3": "W", "d4": "p", "g5": "p"}, "w")
    minor = squares("d4 f4 d2 c1 f2 g1")  # d4 captured; g5 not, c5 not reached
    major = squares("e4 e5 e6 e2 e1 d3 c3 b3 f3 g3 h3")
    assert targets(fen, "e3") == minor | major


def test_major_captures_on_any_square():
    fen = fen_from({"a1": "K", "j8": "k", "e3": "W", "e5": "n", "h3": "p"}, "w")
    got = targets(fen, "e3")
    assert {"e4", "e5", "h3", "g3"} <= got
    assert "e6" not in got


def test_minor_capture_in_enemy_territory():
    fen = fen_from({"a1": "K", "j8": "k", "e6": "G", "e7": "p", "d6": "p"}, "w")
    minor = squares("e7 e5 d6 f6")  # both first squares capturable
    major = squares("d7 c8 f7 g8 d5 c4 b3 f5 g4 h3")
    assert targets(fen, "e6") == minor | major


# ---------------------------------------------------------------------------
# 4.4: Guards pass over their own King on the first rank
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("letter", ["G", "W"])
def test_guard_passes_over_own_king(letter):
    fen = fen_from({"f1": "K", "g1": letter, "a8": "k"}, "w")
    # G: minor west over f1 / W: major west over f1 -> e1 d1, not c1
    expect = squares("e1 d1 h1 i1 j1 g2 g3 g4 f2 e3 d4 h2 i3 j4")
    assert targets(fen, "g1") == expect


@pytest.mark.parametrize("letter", ["G", "W"])
def test_guard_cannot_capture_after_passing_king(letter):
    fen = fen_from({"f1": "K", "g1": letter, "e1": "n", "a8": "k"}, "w")
    got = targets(fen, "g1")
    assert "e1" not in got and "d1" not in got
    fen = fen_from({"f1": "K", "g1": letter, "d1": "n", "a8": "k"}, "w")
    got = targets(fen, "g1")
    assert "e1" in got and "d1" not in got and "c1" not in got


def test_guard_does_not_pass_king_off_first_rank():
    fen = fen_from({"f2": "K", "g2": "W", "a8": "k"}, "w")
    assert "e2" not in targets(fen, "g2")


def test_black_guard_passes_over_black_king():
    fen = fen_from({"f8": "k", "g8": "w", "a1": "K"}, "b")
    expect = squares("e8 d8 h8 i8 j8 g7 g6 g5 f7 e6 d5 h7 i6 j5")
    assert targets(fen, "g8") == expect


# ---------------------------------------------------------------------------
# 3.1 Rooks
# ---------------------------------------------------------------------------


def test_rook_rule_a_first_rank():
    fen = "5k4/10/10/10/10/10/10/RG1Wn1K3 w - - 0 1"
    # over b1 G and d1 W; c1 empty; capture the knight e1, stop
    assert targets(fen, "a1") == squares("a2 a3 a4 a5 a6 a7 a8 c1 e1")


def test_rook_rule_a_attacks_through_guards():
    fen = "10/10/10/9K/10/10/4k5/RG8 b - - 0 1"
    # d1 e1 f1 attacked by the Rook through b1; d3 by the Guard's major move
    assert set(legal_moves(fen)) == {"e2d2", "e2f2", "e2e3", "e2f3"}


def test_rook_rule_b_pair_on_file():
    fen = "5k4/10/2R7/10/2W7/10/2R7/5K4 w - - 0 1"
    assert targets(fen, "c2") == squares("c1 c3 c5 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    assert targets(fen, "c6") == squares("c7 c8 c5 c3 a6 b6 d6 e6 f6 g6 h6 i6 j6")


def test_rook_rule_b_enemy_between_is_no_pair():
    fen = "5k4/10/2R7/2n7/2W7/10/2R7/5K4 w - - 0 1"
    assert targets(fen, "c2") == squares("c1 c3 a2 b2 d2 e2 f2 g2 h2 i2 j2")
    assert targets(fen, "c6") == squares("c7 c8 c5 a6 b6 d6 e6 f6 g6 h6 i6 j6")


def test_rook_rule_b_pair_on_rank_not_on_first_rank():
    fen = "5k4/10/10/10/10/R1G1R5/10/5K4 w - - 0 1"
    # a3-e3 with G on c3: each may go to b3 and d3; a3 also down/up the a-file
    assert targets(fen, "a3") == squares("b3 d3 a1 a2 a4 a5 a6 a7 a8")
    assert targets(fen, "e3") == squares("b3 d3 f3 g3 h3 i3 j3 e1 e2 e4 e5 e6 e7 e8")


def test_rook_rule_c_recapture_over_guard():
    before = "2r2k4/2g7/10/2r3N3/P4G1n1P/4B5/1R1W2R3/5K4 w - - 0 1"
    after = push(before, "e3c5")  # Bishop takes c5, paired with c8 over g c7
    assert after == "2r2k4/2g7/10/2B3N3/P4G1n1P/10/1R1W2R3/5K4 b - - 0 1 c5"
    assert "c8c5" in legal_moves(after)
    # without field 7 there is no recapture
    assert "c8c5" not in legal_moves(after.rsplit(" ", 1)[0])
    # the right lasts one move only
    later = push(after, "f8e8")
    assert len(later.split()) == 6
    later = push(later, "g2g3")
    assert "c8c5" not in legal_moves(later)


def test_rook_rule_c_pair_on_rank_two():
    before = "2r2k4/2g7/10/2r3N3/P4G1n1P/4B5/1R1W2R3/5K4 b - - 0 1"
    after = push(before, "h4g2")  # knight takes g2; b2-g2 paired over d2 W
    assert after.split()[6] == "g2"
    assert "b2g2" in legal_moves(after)


def test_king_may_not_capture_paired_rook_even_if_partner_pinned():
    fen = "10/10/R1r1k5/2g7/10/2r7/3K6/10 w - - 0 1"
    assert targets(fen, "d2") == squares("d1 e1 e2")
    # with a white piece between the Black Rooks they are no pair: capture allowed
    fen2 = "10/10/R1r1k5/2N7/10/2r7/3K6/10 w - - 0 1"
    assert targets(fen2, "d2") == squares("c3 d1 e1 e2")
    assert push(fen2, "d2c3") == "10/10/R1r1k5/2N7/10/2K7/10/10 b - - 0 1"


# ---------------------------------------------------------------------------
# 5. castling
# ---------------------------------------------------------------------------

CASTLE_A = "5k4/10/10/10/10/10/10/R2G1KW2R w KQ - 0 1"


def test_castling_plain():
    got = {m for m in castlings(CASTLE_A) if len(m) == 8}
    # King to g1/d1 impossible (Guard there); Rook on the first empty square
    # towards the centre: King h1 -> Rook f1 (g1 holds the Guard), etc.
    assert got == {"f1h1j1f1", "f1i1j1h1", "f1c1a1e1", "f1b1a1c1"}


def _kingside_after_guard(g_to):
    """Castling moves after the King's Guard g1 moved to ``g_to`` (hand table)."""
    table = {
        "e1": [("g1", "f1"), ("h1", "g1"), ("i1", "h1")],
        "h1": [("g1", "f1"), ("i1", "g1")],
        "i1": [("g1", "f1"), ("h1", "g1")],
    }
    rows = table.get(g_to, [("g1", "f1"), ("h1", "g1"), ("i1", "h1")])
    return {"g1" + g_to + "f1" + k + "j1" + r for k, r in rows}


def _queenside_after_guard(g_to):
    table = {
        "c1": [("d1", "e1"), ("b1", "d1")],
        "b1": [("d1", "e1"), ("c1", "d1")],
        "e1": [("d1", "f1"), ("c1", "d1"), ("b1", "c1")],
    }
    rows = table.get(g_to, [("d1", "e1"), ("c1", "d1"), ("b1", "c1")])
    return {"d1" + g_to + "f1" + k + "a1" + r for k, r in rows}


def test_castling_with_guard_first():
    w_moves = [
        "g2",
        "g3",
        "g4",
        "e1",
        "h1",
        "i1",
        "f2",
        "e3",
        "d4",
        "h2",
        "i3",
        "j4",
    ]  # e1: over the King
    g_moves = [
        "c2",
        "b3",
        "a4",
        "e2",
        "f3",
        "g4",
        "d2",
        "d3",
        "d4",
        "c1",
        "b1",
        "e1",
    ]  # e1: f1 King, g1 W stop
    expect = set()
    for t in w_moves:
        expect |= _kingside_after_guard(t)
    for t in g_moves:
        expect |= _queenside_after_guard(t)
    got = {m for m in castlings(CASTLE_A) if len(m) == 12}
    assert got == expect
    assert len(got) == 68


def test_castling_out_of_check_by_guard_block():
    # Rook f5 checks along the f-file; Bishop c6 hits h1 over g2.
    fen = "5k4/10/2b7/5r4/10/10/10/5KW2R w K - 0 1"
    assert castlings(fen) == {"g1f2f1g1j1f1"}


def test_castling_may_not_pass_attacked_guard_square():
    # Rook g5 attacks g1 (holding the King's Guard): only Guard moves up the g-file,
    # which block the attack, allow castling.
    fen = "5k4/10/10/6r3/10/10/10/5KW2R w K - 0 1"
    expect = {
        f"g1g{n}f1{k}j1{r}"
        for n in (2, 3, 4)
        for k, r in (("g1", "f1"), ("h1", "g1"), ("i1", "h1"))
    }
    assert castlings(fen) == expect


def test_castling_guard_captures_paired_rook_recapture_counts():
    # W g1 takes the Rook h1 (paired with h6 over the Black Guard h4): the
    # King may not pass h1, which the h6 Rook may recapture on.
    fen = "k9/10/7r2/10/7g2/10/10/5KWr1R w K - 0 1"
    assert castlings(fen) == {"g1h1f1g1j1f1"}
    assert push(fen, "g1h1f1g1j1f1") == "k9/10/7r2/10/7g2/10/10/5RKW2 b - - 0 1 h1"


def test_castling_push_and_rights():
    assert push(CASTLE_A, "f1h1j1f1") == "5k4/10/10/10/10/10/10/R2G1RWK2 b - - 1 1"
    assert push(CASTLE_A, "g1g3f1g1j1f1") == "5k4/10/10/10/10/6W3/10/R2G1RK3 b - - 1 1"
    # moving the queenside Rook loses only Q
    assert push(CASTLE_A, "a1a2").split()[2] == "K"


def test_black_castling_mirrors_white():
    fen = mirror_fen(CASTLE_A)
    assert castlings(fen) == mirror_moves(castlings(CASTLE_A))


def test_no_castling_without_rights_or_with_non_guard_between():
    assert castlings(CASTLE_A.replace(" KQ ", " - ")) == set()
    fen = "5k4/10/10/10/10/10/10/RN1G1KWB1R w KQ - 0 1"
    assert castlings(fen) == set()


# ---------------------------------------------------------------------------
# 6. promotion
# ---------------------------------------------------------------------------


def test_promotion_only_to_missing_kinds():
    fen = "3r2k3/4P5/10/10/10/10/10/RNBG1KWB1R w - - 0 1"  # Queen and a Knight gone
    assert {m for m in legal_moves(fen) if m.startswith("e7")} == {
        "e7e8q",
        "e7e8n",
        "e7d8q",
        "e7d8n",
    }


def test_promotion_to_guards_with_and_without_queen_powers():
    fen = "3r2k3/4P5/10/10/10/10/10/RNB1QK1BNR w - - 0 1"
    assert {m for m in legal_moves(fen) if m.startswith("e7e8")} == {
        "e7e8g",
        "e7e8g-",
        "e7e8w",
        "e7e8w-",
    }
    assert push(fen, "e7e8g").split()[0].startswith("3rG*1k3/")
    assert push(fen, "e7e8g-").split()[0].startswith("3rG1k3/")
    assert push(fen, "e7e8w").split()[0].startswith("3rW*1k3/")


def test_no_promotion_available_pawn_still_attacks():
    white_to_move = "6k3/4P5/10/10/10/10/10/RNBGQKWBNR w - - 0 1"
    assert not any(m.startswith("e7") for m in legal_moves(white_to_move))
    black_to_move = white_to_move.replace(" w ", " b ")
    # f8 attacked by the e7 pawn even though it cannot promote there
    assert set(legal_moves(black_to_move)) == {"g8h8", "g8f7", "g8g7", "g8h7"}


def test_queen_powers_guard_moves_as_queen_then_loses_them():
    fen = "4G*5/10/k9/10/10/10/10/5K4 w - - 0 1"
    expect = squares("a8 b8 c8 d8 f8 g8 h8 i8 j8 e7 e6 e5 e4 e3 e2 e1 d7 c6 b5 a4 f7 g6 h5 i4 j3")
    assert targets(fen, "e8") == expect
    after = push(fen, "e8e1")
    assert after.split()[0] == "10/10/k9/10/10/10/10/4GK4"
    # the waived Guard is an ordinary Queen's Guard
    plain = "4G5/10/k9/10/10/10/10/5K4 w - - 0 1"
    # (relative rank 8: every minor move is one square)
    assert targets(plain, "e8") == squares("e7 d8 f8 d7 c6 b5 f7 g6 h5")


def test_queen_powers_guard_gives_check_as_queen():
    fen = "k3G*5/10/10/10/10/10/10/5K4 b - - 0 1"
    assert set(legal_moves(fen)) == {"a8a7", "a8b7"}


# ---------------------------------------------------------------------------
# FEN writing: en passant, clocks, field 7
# ---------------------------------------------------------------------------


def test_en_passant_square_written_after_every_double_step():
    assert push(START_FEN, "e2e4") == (
        "rnbgqkwbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBGQKWBNR b KQkq e3 0 1"
    )
    fen = "5k4/10/10/10/3p6/10/4P5/5K4 w - - 0 1"
    after = push(fen, "e2e4")
    assert after.split()[3] == "e3"
    assert "d4e3" in legal_moves(after)
    assert push(after, "d4e3") == "5k4/10/10/10/10/4p5/10/5K4 w - - 0 2"


def test_half_move_clock():
    fen = "5k4/10/10/10/10/10/10/R4K4 w - - 7 9"
    assert push(fen, "a1a5") == "5k4/10/10/R9/10/10/10/5K4 b - - 8 9"
    assert push(push(fen, "a1a5"), "f8e8").split()[4:6] == ["9", "10"]


def test_illegal_move_raises():
    with pytest.raises(ValueError):
        push(START_FEN, "e2e5")
    with pytest.raises(ValueError):
        push(START_FEN, "f1g1")


# ---------------------------------------------------------------------------
# random positions
# ---------------------------------------------------------------------------


def test_random_positions_deterministic_and_valid():
    a = rp.random_positions(30, seed=7)
    assert a == rp.random_positions(30, seed=7)
    assert len(a) == len(set(a)) == 30
    for fen in a:
        pos = ref.parse_fen(fen)
        assert ref.to_fen(pos) == fen
        # the side that just moved is never left in check
        assert not ref.king_attacked(pos.board, not pos.white, None)
        moves = legal_moves(fen)
        assert len(moves) == len(set(moves)) == perft(fen, 1)


def test_random_positions_cover_themes():
    counts = {}
    for fen in rp.random_positions(200, seed=1):
        for t in rp.themes(fen):
            counts[t] = counts.get(t, 0) + 1
    for theme in (
        "castle",
        "castle_guard",
        "promotion",
        "promo_guard",
        "promo_few",
        "promo_none",
        "queen_powers",
        "guard_across",
        "rook_pair_guard",
        "recapture",
    ):
        assert counts.get(theme, 0) >= 10, (theme, counts)


def test_colour_mirror_symmetry_on_random_positions():
    # Black's rules are White's on relative ranks: mirrored positions have mirrored
    # moves and mirrored results
    for fen in rp.random_positions(40, seed=5):
        m = mirror_fen(fen)
        assert set(legal_moves(m)) == mirror_moves(legal_moves(fen))
        for mv in legal_moves(fen)[:10]:
            got = push(m, next(iter(mirror_moves([mv])))).split()
            want = mirror_fen(push(fen, mv)).split()
            del got[5], want[5]  # full-move numbers differ by colour
            assert got == want


def test_invalid_field_7_rejected():
    with pytest.raises(ValueError):
        legal_moves(START_FEN + " e4")


def test_every_move_of_random_positions_pushes():
    for fen in rp.random_positions(25, seed=3):
        for m in legal_moves(fen):
            ref.parse_fen(push(fen, m))
