"""The Board API: game end and draw claims as python-chess, copies, display, bad input."""

from __future__ import annotations

import copy
import random

import chess
import pytest

from royalchess import (
    KING,
    KINGS_GUARD,
    QUEEN,
    QUEENS_GUARD,
    WHITE,
    Board,
    InvalidFenError,
    InvalidSquareError,
    Move,
    Outcome,
    Piece,
    Termination,
)
from royalchess.errors import ChessError

ROYAL_START = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"


def _same_outcome(ours: Board, ref: chess.Board, claim_draw: bool) -> None:
    mine = ours.outcome(claim_draw=claim_draw)
    theirs = ref.outcome(claim_draw=claim_draw)
    if theirs is None:
        assert mine is None, ref.fen()
    else:
        assert mine is not None, ref.fen()
        assert (mine.termination.name, mine.winner) == (theirs.termination.name, theirs.winner)
        assert mine.result() == theirs.result()
    assert ours.result(claim_draw=claim_draw) == ref.result(claim_draw=claim_draw)


def _play_both(fen: str, ucis: list[str]) -> tuple[Board, chess.Board]:
    ours, ref = Board(fen), chess.Board(fen)
    for uci in ucis:
        ours.push_uci(uci)
        ref.push_uci(uci)
    return ours, ref


SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]


@pytest.mark.parametrize(
    ("fen", "ucis"),
    [
        (chess.STARTING_FEN, ["f2f3", "e7e5", "g2g4", "d8h4"]),  # checkmate
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", []),  # stalemate
        ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", []),  # insufficient material
        ("8/8/4k3/8/2n5/4K3/8/8 w - - 0 1", []),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 149 80", ["a1a2"]),  # seventy-five moves
        ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", []),  # fifty moves claimable next move
        ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", ["a1a2"]),  # fifty moves claimable now
        ("4k3/8/8/8/8/8/8/R3K3 w - - 98 80", []),
        (chess.STARTING_FEN, SHUFFLE),  # threefold repetition claimable with the next move
        (chess.STARTING_FEN, SHUFFLE * 2),  # threefold repetition now
        (chess.STARTING_FEN, SHUFFLE * 4),  # fivefold repetition
        (chess.STARTING_FEN, SHUFFLE * 2 + ["e2e4"]),  # irreversible: no claim
    ],
)
def test_game_end_as_python_chess(fen: str, ucis: list[str]) -> None:
    ours, ref = _play_both(fen, ucis)
    for claim_draw in (False, True):
        _same_outcome(ours, ref, claim_draw)
    assert ours.is_checkmate() == ref.is_checkmate()
    assert ours.is_stalemate() == ref.is_stalemate()
    assert ours.is_insufficient_material() == ref.is_insufficient_material()
    assert ours.is_seventyfive_moves() == ref.is_seventyfive_moves()
    assert ours.is_fivefold_repetition() == ref.is_fivefold_repetition()
    assert ours.can_claim_fifty_moves() == ref.can_claim_fifty_moves()
    assert ours.can_claim_threefold_repetition() == ref.can_claim_threefold_repetition()
    assert ours.can_claim_draw() == ref.can_claim_draw()
    assert ours.is_game_over() == ref.is_game_over()
    assert ours.is_game_over(claim_draw=True) == ref.is_game_over(claim_draw=True)


def test_random_games_end_as_python_chess() -> None:
    rng = random.Random(20261130)
    for _ in range(20):
        ours, ref = Board(), chess.Board()
        while not ref.is_game_over(claim_draw=True):
            _same_outcome(ours, ref, claim_draw=False)
            # prefer moves that go back and forth, so that repetitions happen
            moves = sorted(ref.legal_moves, key=lambda m: m.uci())
            move = rng.choice(moves[:4] if rng.random() < 0.5 else moves)
            ours.push_uci(move.uci())
            ref.push(move)
        for claim_draw in (False, True):
            _same_outcome(ours, ref, claim_draw)


def test_outcome_values() -> None:
    assert Outcome(Termination.CHECKMATE, WHITE).result() == "1-0"
    assert Outcome(Termination.CHECKMATE, False).result() == "0-1"
    assert Outcome(Termination.STALEMATE, None).result() == "1/2-1/2"
    assert Board().outcome() is None and Board().result() == "*"


def test_push_pop_peek_and_move_stack() -> None:
    board = Board()
    assert board.push_san("e4") == Move.from_uci("e2e4")
    assert board.push_uci("e7e5") == Move.from_uci("e7e5")
    assert board.move_stack == [Move.from_uci("e2e4"), Move.from_uci("e7e5")]
    assert board.peek() == Move.from_uci("e7e5")
    assert board.pop() == Move.from_uci("e7e5")
    assert board.pop() == Move.from_uci("e2e4")
    assert board == Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    stack = board.move_stack
    stack.append(Move.from_uci("a2a3"))  # a copy: the board is not changed
    assert board.move_stack == []


def test_bad_input_leaves_the_board_unchanged() -> None:
    board = Board()
    board.push_san("e4")
    fen, stack = board.fen(), board.move_stack
    for action in (
        lambda: board.push(Move.from_uci("e2e4")),
        lambda: board.push(Move.from_uci("a2a3", files=10)),
        lambda: board.push_uci("e7e4"),
        lambda: board.push_uci("zz"),
        lambda: board.push_san("Nf3"),
        lambda: board.push_san("Qxx"),
        lambda: board.san(Move.from_uci("e2e4")),
        lambda: board.gives_check(Move.from_uci("a1a8")),
        lambda: board.is_capture(Move.from_uci("a1a8")),
        lambda: board.piece_at(64),
    ):
        with pytest.raises(ChessError):
            action()
        assert board.fen() == fen and board.move_stack == stack
    with pytest.raises(TypeError):
        board.push("e7e5")  # type: ignore[arg-type]


def test_legal_moves_is_a_sequence_with_in_and_len() -> None:
    board = Board()
    moves = board.legal_moves
    assert len(moves) == 20 and bool(moves) and moves.count() == 20
    assert Move.from_uci("g1f3") in moves
    assert Move.from_uci("g1f3", files=10) not in moves
    assert Move.from_uci("e2e5") not in moves
    assert "g1f3" not in moves
    assert moves[0] in moves and moves[:3] == list(moves)[:3]
    assert {m.uci() for m in moves} == {m.uci() for m in chess.Board().legal_moves}
    assert "g1f3" in repr(moves)
    assert not Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").legal_moves


def test_move_classification() -> None:
    board = Board("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    ep = board.parse_uci("e5d6")
    assert board.is_en_passant(ep) and board.is_capture(ep)
    castle = board.parse_san("O-O")
    assert board.is_castling(castle) and board.is_kingside_castling(castle)
    assert board.is_queenside_castling(board.parse_san("O-O-O"))
    assert not board.is_castling(board.parse_uci("e1f1"))
    assert board.parse_uci("e1h1") == castle  # python-chess reads king-takes-rook as castling
    assert board.gives_check(board.parse_uci("a1a8"))
    assert board.ep_square == chess.parse_square("d6")
    assert board.castling_rights == "KQkq"
    assert board.recapture_square is None


def test_royal_castling_classification() -> None:
    board = Board("r3gkw2r/10/10/10/3b6/10/10/R3GKW2R w KQkq - 0 1", variant="royal")
    castles = [m for m in board.legal_moves if m.rook_from is not None]
    assert castles
    for move in castles:
        assert board.is_castling(move)
        kingside = move.rook_from % 10 == 9
        assert board.is_kingside_castling(move) == kingside
        castling = board.san(move).split("_")[-1]
        assert castling.startswith("O-O:" if kingside else "O-O-O:")


def test_pieces_and_squares() -> None:
    board = Board(variant="royal")
    assert board.files == 10 and board.ranks == 8 and board.variant == "royal"
    assert board.piece_at(3) == Piece(QUEENS_GUARD, WHITE)
    assert board.piece_at(6) == Piece(KINGS_GUARD, WHITE)
    assert board.piece_at(75) == Piece(KING, False)
    assert board.piece_at(40) is None
    assert board.king(WHITE) == 5 and board.king(False) == 75
    assert len(board.piece_map()) == 40
    assert board.square_name(79) == "j8"
    with pytest.raises(InvalidSquareError):
        board.piece_at(80)
    powered = Board("G*3k5/10/10/10/10/10/3K6/9w* b - - 0 1", variant="royal")
    assert powered.piece_at(70) == Piece(QUEENS_GUARD, WHITE, True)
    assert "G*" in str(powered) and "w*" in str(powered)


def test_promotion_choices_and_guard_moves() -> None:
    assert Board(variant="royal").promotion_choices() == []
    choices = Board("k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1", variant="royal").promotion_choices()
    assert set(choices) >= {QUEEN, QUEENS_GUARD, KINGS_GUARD}
    board = Board("k9/10/10/4W5/10/10/10/9K w - - 0 1", variant="royal")
    major, minor = board.guard_moves(44)  # King's Guard on e5 (rules page, section 4.3)
    names = {board.square_name(s) for s in minor}
    assert names == {"d6", "f6", "d4", "c3", "b2", "f4", "g3", "h2"}
    assert {board.square_name(s) for s in major} >= {"e6", "e7", "e4", "e3", "d5", "f5"}


def test_copy_and_equality() -> None:
    board = Board()
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    twin = board.copy()
    assert twin == board and twin.move_stack == board.move_stack
    twin.push_san("Nc6")
    assert twin != board and len(board.move_stack) == 3
    assert copy.copy(board) == board and copy.deepcopy(board) == board
    assert Board() != Board(variant="royal")
    assert Board() != "not a board"
    # as python-chess: an en passant square without a legal capture does not count ...
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert Board(after_e4) == Board(after_e4.replace(" - 0", " e3 0"))
    # ... one with a legal capture does
    capturable = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq {} 0 1"
    assert Board(capturable.format("e3")) != Board(capturable.format("-"))


def test_text_forms() -> None:
    assert str(Board()) == str(chess.Board())
    assert Board().unicode() == chess.Board().unicode()
    assert repr(Board()) == f"Board({chess.STARTING_FEN!r})"
    assert repr(Board(variant="royal")) == f"Board({ROYAL_START!r}, variant='royal')"
    assert eval(repr(Board(variant="royal"))) == Board(variant="royal")
    royal = Board(variant="royal").ascii(coordinates=True).splitlines()
    assert royal[0] == "8 r n b g q k w b n r" and royal[-1] == "  a b c d e f g h i j"
    flipped = Board().ascii(orientation=False).splitlines()
    assert flipped[0] == "R N B K Q B N R"


def test_counts_and_state() -> None:
    board = Board()
    assert board.perft(3) == 8902
    assert sum(n for _, n in board.divide(3)) == 8902
    assert Board(variant="royal").perft(3) == 15718
    with pytest.raises(ValueError):
        board.perft(-1)
    board.push_san("e4")
    assert board.turn is False and board.ply() == 1 and board.fullmove_number == 1
    assert board.halfmove_clock == 0
    assert isinstance(board.zobrist_hash(), int)
    board.reset()
    assert board == Board() and board.move_stack == []
    variation = Board().variation_san([Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")])
    assert variation == "1. e4 e5 2. Nf3"


def test_bad_fen_and_variant() -> None:
    with pytest.raises(InvalidFenError, match="field 3"):
        Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQX - 0 1")
    with pytest.raises(ChessError, match="unknown variant"):
        Board(variant="capablanca")
    with pytest.raises(TypeError):
        Board(42)  # type: ignore[arg-type]


def test_is_attacked_by_counts_rook_jumps_over_own_guards_on_the_first_rank() -> None:
    # Rule 3.1a: the a1 Rook sees h1 through its King's Guard on d1 (which itself reaches
    # only e1-g1); on the second rank a Rook has no such jump.
    first = Board("5k4/10/10/10/10/10/4K5/R2W6 w - - 0 1", variant="royal")
    assert first.is_attacked_by(True, 7)  # h1
    assert not first.is_attacked_by(False, 7)
    second = Board("5k4/10/10/10/10/10/R2W6/4K5 w - - 0 1", variant="royal")
    assert not second.is_attacked_by(True, 17)  # h2


def test_is_attacked_by_standard_chess_matches_pawn_and_knight_attacks() -> None:
    board = Board()
    assert board.is_attacked_by(True, 20)  # e3: pawns d2/f2
    assert not board.is_attacked_by(False, 20)
    assert board.is_attacked_by(False, 45)  # f6: g8 knight, e7/g7 pawns
    assert board.board_fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
