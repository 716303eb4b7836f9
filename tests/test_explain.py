"""The coach (royalchess.explain): one test per kind of message, for both games, exact words.

Positions are small and hand-made so each message can be checked by eye against the rules.
"""

from __future__ import annotations

import pytest
from _support import examples, reached_positions
from hypothesis import given

from royalchess import Board, Move
from royalchess.explain import explain_illegal, explain_squares
from royalchess.notation.squares import parse_square

CHESS_START = None
ROYAL_START = None


def _board(fen: str | None, variant: str) -> Board:
    return Board(fen, variant=variant) if fen else Board(variant=variant)


def _case(fen: str | None, variant: str, text: str, expected: str) -> None:
    board = _board(fen, variant)
    before = board.fen()
    assert explain_illegal(board, text) == expected
    assert board.fen() == before  # the coach never changes the board


# -- the binding functions the coach is built on ----------------------------------------


def test_attackers_lists_every_attacker_of_a_square() -> None:
    board = Board()
    assert board.attackers(True, parse_square("f3", 8)) == [6, 12, 14]  # g1, e2, g2
    assert board.attackers(False, parse_square("f3", 8)) == []


def test_attackers_see_through_guards_on_the_first_rank() -> None:
    # Rule 3.1a: the Rook on a1 attacks e1 over its own Queen's Guard on c1.
    board = Board("4k5/10/10/10/10/10/10/R1G1r4K w - - 0 1", variant="royal")
    assert board.attackers(True, parse_square("e1", 10)) == [0]


def test_pseudo_legal_moves_include_moves_that_expose_the_king() -> None:
    board = Board("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1")
    bd3 = Move.from_uci("e2d3")
    assert bd3 not in board.legal_moves
    assert bd3 in board.pseudo_legal_moves
    assert board.checkers_after(bd3) == [parse_square("e8", 8)]


@given(reached_positions(60))
@examples(150)
def test_core_answers_agree_with_each_other(board: Board) -> None:
    # attackers() and is_attacked_by() are two walks of the same rules; the legal moves are
    # exactly the pseudo-legal ones (plus castling) after which nothing attacks the King.
    for color in (True, False):
        for square in range(board.files * board.ranks):
            found = board.attackers(color, square)
            assert bool(found) == board.is_attacked_by(color, square), (board.fen(), square)
            for frm in found:
                piece = board.piece_at(frm)
                assert piece is not None and piece.color == color
    legal = set(board.legal_moves)
    pseudo = list(board.pseudo_legal_moves)
    for move in pseudo:
        assert (board.checkers_after(move) == []) == (move in legal), (board.fen(), move)
    assert {m for m in legal if m.rook_from is None and not board.is_castling(m)} <= set(pseudo)


# -- the piece cannot get there -------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (CHESS_START, "chess", "Ke2", "The King on e1 cannot reach e2: your pawn stands there."),
        (
            ROYAL_START,
            "royal",
            "Bh2",
            "The Bishop on h1 cannot reach h2: your pawn stands there.",
        ),
    ],
)
def test_target_holds_own_piece(fen: str | None, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            CHESS_START,
            "chess",
            "Bc4",
            "The Bishop on f1 cannot reach c4: your pawn on e2 is in the way.",
        ),
        (
            ROYAL_START,
            "royal",
            "Wg3",
            "The King's Guard on g1 cannot reach g3: your pawn on g2 is in the way.",
        ),
    ],
)
def test_path_blocked(fen: str | None, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "chess",
            "Ke4",
            "The King on e1 cannot move to e4: a King moves one square in any direction.",
        ),
        (
            "4k5/10/10/10/4W5/10/10/5K4 w - - 0 1",
            "royal",
            "We8",
            (
                "The King's Guard on e4 cannot move to e8: a King's Guard moves 1-3 squares "
                "orthogonally (major move) or diagonally (minor move)."
            ),
        ),
        (
            CHESS_START,
            "chess",
            "Nd4",
            (
                "None of your Knights can reach d4: a Knight jumps two squares one way and one "
                "square to the side."
            ),
        ),
    ],
)
def test_piece_cannot_move_that_way(
    fen: str | None, variant: str, text: str, expected: str
) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_pawn_captures_only_diagonally(variant: str) -> None:
    _case(
        None,
        variant,
        "e2d3",
        "The pawn on e2 moves diagonally only to capture, and there is nothing to take on d3.",
    )


@pytest.mark.parametrize(
    ("fen", "variant"),
    [
        ("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1", "chess"),
        ("4k5/10/10/4p5/4P5/10/10/4K5 w - - 0 1", "royal"),
    ],
)
def test_pawn_blocked_straight_ahead(fen: str, variant: str) -> None:
    _case(
        fen,
        variant,
        "e5",
        "The pawn on e4 cannot advance: the pawn on e5 is in the way (a pawn captures only "
        "diagonally).",
    )


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_no_piece_there(variant: str) -> None:
    board = _board(None, variant)
    files = board.files
    assert explain_squares(board, parse_square("e3", files), parse_square("e4", files)) == (
        "There is no piece on e3."
    )


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_not_your_piece(variant: str) -> None:
    _case(None, variant, "e7e5", "The pawn on e7 is Black's, and it is White's turn.")


@pytest.mark.parametrize(
    ("variant", "text", "expected"),
    [
        ("chess", "Qd4", "You have no Queen."),
        ("chess", "Gd2", "Chess has no Queen's Guard: it is a Royal Chess piece."),
        ("royal", "Nb3", "You have no Knight."),
    ],
)
def test_no_such_piece(variant: str, text: str, expected: str) -> None:
    fen = (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        if variant == "chess"
        else "4k5/10/10/10/10/10/10/4K5 w - - 0 1"
    )
    _case(fen, variant, text, expected)


# -- the King's safety ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "variant", "text"),
    [
        ("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "chess", "Bd3"),
        ("4k5/4r5/10/10/10/10/4W5/4K5 w - - 0 1", "royal", "Wd3"),
    ],
)
def test_move_leaves_king_in_check(fen: str, variant: str, text: str) -> None:
    board = _board(fen, variant)
    checker = "e8" if variant == "chess" else "e7"
    assert explain_illegal(board, text) == (
        f"That move leaves your King in check from the Rook on {checker}."
    )


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "chess",
            "a3",
            "Your King is in check from the Queen on h4, and that move does not stop it.",
        ),
        (
            "5k4/5r4/10/10/10/10/10/R4KW2R w KQ - 0 1",
            "royal",
            "We1",
            "Your King is in check from the Rook on f7, and that move does not stop it.",
        ),
    ],
)
def test_check_not_answered(fen: str, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "chess",
            "Kf2",
            "Your King cannot go to f2: it would be in check from the Queen on h4 there.",
        ),
        (
            "5k4/10/10/10/10/10/4r5/5K4 w - - 0 1",
            "royal",
            "Ke1",
            "Your King cannot go to e1: it would be in check from the Rook on e2 there.",
        ),
    ],
)
def test_king_steps_into_check(fen: str, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


# -- castling -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "text", "expected"),
    [
        (
            "chess",
            "O-O",
            (
                "Castling is not possible now: the Bishop on f1 and the Knight on g1 stand between "
                "the King and the Rook."
            ),
        ),
        (
            "royal",
            "O-O:h1",
            (
                "Castling is not possible now: the Bishop on h1 and the Knight on i1 stand between "
                "the King and the Rook."
            ),
        ),
    ],
)
def test_castling_pieces_between(variant: str, text: str, expected: str) -> None:
    _case(None, variant, text, expected)


@pytest.mark.parametrize(
    ("fen", "variant", "text"),
    [
        ("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "chess", "O-O"),
        ("5k4/10/10/10/10/10/10/R3KW3R w - - 0 1", "royal", "O-O:h1"),
    ],
)
def test_castling_king_has_moved(fen: str, variant: str, text: str) -> None:
    _case(fen, variant, text, "Castling is not possible now: your King has moved.")


@pytest.mark.parametrize(
    ("fen", "variant", "text", "rook"),
    [
        ("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "chess", "O-O", "h1"),
        ("5k4/10/10/10/10/10/10/R4KW2R w K - 0 1", "royal", "O-O-O:c1", "a1"),
    ],
)
def test_castling_rook_has_moved(fen: str, variant: str, text: str, rook: str) -> None:
    _case(fen, variant, text, f"Castling is not possible now: your Rook from {rook} has moved.")


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            "r3k2r/8/8/8/8/6n1/8/R3K2R w KQkq - 0 1",
            "chess",
            "O-O",
            "Castling is not possible now: f1 is attacked by the Knight on g3.",
        ),
        (
            "r3k2r/8/8/8/8/6n1/8/R3K2R w KQkq - 0 1",
            "chess",
            "e1g1",
            "Castling is not possible now: f1 is attacked by the Knight on g3.",
        ),
        (
            "5k4/10/10/10/10/7n2/10/R4KW2R w KQ - 0 1",
            "royal",
            "O-O:i1",
            "Castling is not possible now: g1 is attacked by the Knight on h3.",
        ),
    ],
)
def test_castling_square_attacked(fen: str, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            "r3k2r/4r3/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "chess",
            "O-O",
            "Castling is not possible now: your King is in check from the Rook on e7.",
        ),
        (
            "5k4/5r4/10/10/10/10/10/R4KW2R w KQ - 0 1",
            "royal",
            "O-O:h1",
            "Castling is not possible now: your King is in check from the Rook on f7.",
        ),
    ],
)
def test_castling_out_of_check(fen: str, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "O-O:g1",
            (
                "Castling is not possible now: the King cannot land on g1: your King's Guard stands "
                "there (rule 5.2)."
            ),
        ),
        ("O-O:j1", "Castling is not possible now: the King goes to g1, h1 or i1 (rule 5.2)."),
    ],
)
def test_royal_castling_king_square(text: str, expected: str) -> None:
    _case("5k4/10/10/10/10/10/10/R4KW2R w KQ - 0 1", "royal", text, expected)


def test_royal_castling_in_uci_names_the_rook() -> None:
    _case(
        "5k4/10/10/10/10/10/10/R4KW2R w KQ - 0 1",
        "royal",
        "f1h1",
        "In Royal Chess a castling move names the Rook's move too: f1h1j1f1 (or O-O:h1 in SAN).",
    )


def test_royal_castling_guard_first_not_between() -> None:
    _case(
        "5k4/10/10/10/10/10/10/R2GQKWBNR w KQ - 0 1",
        "royal",
        "Ge2_O-O:h1",
        "Castling is not possible now: only a Guard standing between the King and the Rook may "
        "move first (rule 5.4).",
    )


def test_royal_castling_guard_first_then_pieces_between() -> None:
    _case(
        "5k4/10/10/10/10/10/10/R4KWBNR w KQ - 0 1",
        "royal",
        "Wg3_O-O:h1",
        "Castling is not possible now: the Bishop on h1 and the Knight on i1 stand between the "
        "King and the Rook.",
    )


def test_royal_castling_guard_first_move_blocked() -> None:
    _case(
        None,
        "royal",
        "Wg3_O-O:h1",
        "The King's Guard on g1 cannot reach g3: your pawn on g2 is in the way.",
    )


# -- the Guards' own rules (Royal Chess) ------------------------------------------------------


def test_guard_may_not_cross_centre_line_on_minor_move() -> None:
    _case(
        "4k5/10/10/10/4W5/10/10/5K4 w - - 0 1",
        "royal",
        "Wc6",
        "The King's Guard may not cross the centre line on a minor move (rule 4.2).",
    )


def test_guard_in_enemy_territory_minor_move_is_one_square() -> None:
    _case(
        "5k4/10/4W5/10/10/10/10/5K4 w - - 0 1",
        "royal",
        "Wc8",
        "In enemy territory the King's Guard's minor move is one square, unless it leads back "
        "home (rule 4.2).",
    )


def test_guard_minor_capture_beyond_first_square() -> None:
    _case(
        "4k5/10/10/10/10/10/10/1n2G1K3 w - - 0 1",
        "royal",
        "Gxb1",
        "A Queen's Guard's minor move captures only on its first square (rule 4.1).",
    )


def test_guard_passing_over_king_may_not_capture() -> None:
    _case(
        "4k5/10/10/10/10/10/10/3WKn4 w - - 0 1",
        "royal",
        "Wxf1",
        "A Guard that passes over its King may not capture (rule 4.4).",
    )


# -- promotion --------------------------------------------------------------------------------


def test_royal_no_piece_can_promote() -> None:
    _case(
        "k9/4P5/10/10/10/10/PPPPPPPPP1/RNBGQKWBNR w - - 0 1",
        "royal",
        "e8=Q",
        "No piece can promote: you have lost no piece yet (rule 6.1).",
    )


@pytest.mark.parametrize(
    ("fen", "variant", "expected"),
    [
        (
            "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
            "chess",
            "A pawn reaching the last rank must promote: name the piece, such as e8=Q+.",
        ),
        (
            "k9/4P5/10/10/10/10/PPPPPPPPP1/RNBGQKWBN1 w - - 0 1",
            "royal",
            "A pawn reaching the last rank must promote: name the piece, such as e8=R+.",
        ),
    ],
)
def test_promotion_piece_missing(fen: str, variant: str, expected: str) -> None:
    _case(fen, variant, "e8", expected)


@pytest.mark.parametrize(
    ("fen", "variant", "text", "expected"),
    [
        (
            "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
            "chess",
            "e8=G",
            "In chess a pawn becomes a Queen, Rook, Bishop or Knight.",
        ),
        (
            "k9/4P5/10/10/10/10/PPPPPPPPP1/RNBGQKWBN1 w - - 0 1",
            "royal",
            "e8=Q",
            (
                "The pawn cannot become a Queen: a pawn brings back only a piece you have lost "
                "(rule 6.1), here a Rook."
            ),
        ),
    ],
)
def test_promotion_piece_not_allowed(fen: str, variant: str, text: str, expected: str) -> None:
    _case(fen, variant, text, expected)


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_promotion_off_the_last_rank(variant: str) -> None:
    _case(None, variant, "e2e3q", "Only a pawn that reaches the last rank can promote.")


# -- spelling ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_garbled_spelling(variant: str) -> None:
    _case(None, variant, "Qz9", "'Qz9' is not a move: square 'z9' is off the board.")
    _case(
        None,
        variant,
        "hello",
        "'hello' is not a move: write a move such as e4, Nf3, exd5, e8=Q or O-O.",
    )


@pytest.mark.parametrize(
    ("fen", "variant"),
    [
        ("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1", "chess"),
        ("4k5/10/10/10/10/10/10/1N1NK5 w - - 0 1", "royal"),
    ],
)
def test_ambiguous_san_names_the_candidates(fen: str, variant: str) -> None:
    _case(fen, variant, "Nc3", "'Nc3' could be more than one move: Nbc3 or Ndc3. Say which.")


def test_royal_castling_without_king_square_is_ambiguous() -> None:
    _case(
        "5k4/10/10/10/10/10/10/R4KW2R w KQ - 0 1",
        "royal",
        "O-O",
        "'O-O' could be more than one move: O-O:h1+ or O-O:i1. Say which.",
    )


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_legal_move_is_called_legal(variant: str) -> None:
    _case(None, variant, "e4", "'e4' is a legal move.")


# -- clicks -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "frm", "to", "expected"),
    [
        (
            "chess",
            "e1",
            "g1",
            (
                "Castling is not possible now: the Bishop on f1 and the Knight on g1 stand between "
                "the King and the Rook."
            ),
        ),
        (
            "royal",
            "f1",
            "j1",
            (
                "Castling is not possible now: the Bishop on h1 and the Knight on i1 stand between "
                "the King and the Rook."
            ),
        ),
        ("chess", "c1", "c3", "The Bishop on c1 cannot move to c3: a Bishop moves diagonally."),
        ("royal", "c1", "c3", "The Bishop on c1 cannot move to c3: a Bishop moves diagonally."),
    ],
)
def test_clicked_squares(variant: str, frm: str, to: str, expected: str) -> None:
    board = _board(None, variant)
    files = board.files
    assert explain_squares(board, parse_square(frm, files), parse_square(to, files)) == expected
