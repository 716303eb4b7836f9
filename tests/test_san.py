"""SAN specifics: python-chess's disambiguation and tolerance, Royal spellings, error messages."""

from __future__ import annotations

import chess
import pytest

from royalchess import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move


@pytest.mark.parametrize(
    ("fen", "uci", "san"),
    [
        ("7k/8/8/8/8/8/1N3N2/4K3 w - - 0 1", "b2d3", "Nbd3"),  # file
        ("7k/8/8/1N6/8/1N6/8/4K3 w - - 0 1", "b5d4", "N5d4"),  # rank
        ("7k/8/8/Q1Q5/8/Q7/8/4K3 w - - 0 1", "a5b4", "Qa5b4"),  # both
        ("6k1/8/8/8/8/8/4P3/4K2R w K - 0 1", "e1g1", "O-O"),
        ("r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "e8c8", "O-O-O+"),
        ("7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a8=Q+"),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"),
    ],
)
def test_chess_san_as_python_chess(fen: str, uci: str, san: str) -> None:
    board = Board(fen)
    move = board.parse_uci(uci)
    assert board.san(move) == san == chess.Board(fen).san(chess.Move.from_uci(uci))
    assert board.parse_san(san) == move


@pytest.mark.parametrize(
    ("text", "uci"),
    [
        ("Nf3", "g1f3"),
        ("Ngf3", "g1f3"),
        ("N1f3", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("Ng1-f3", "g1f3"),
        ("g1f3", "g1f3"),  # fully specified, no letter
        ("Nf3+", "g1f3"),  # a wrong check mark is tolerated, as python-chess does
        ("e4", "e2e4"),
        ("e2e4", "e2e4"),
        ("e2-e4", "e2e4"),
    ],
)
def test_tolerant_reading(text: str, uci: str) -> None:
    assert Board().parse_san(text) == Move.from_uci(uci)
    assert chess.Board().parse_san(text) == chess.Move.from_uci(uci)


def test_tolerant_reading_of_castling_captures_and_promotions() -> None:
    board = Board("r3k2r/1P6/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1")
    assert board.parse_san("0-0") == board.parse_san("O-O") == Move.from_uci("e1g1")
    assert board.parse_san("0-0-0") == Move.from_uci("e1c1")
    assert board.parse_san("ed5") == board.parse_san("exd5") == Move.from_uci("e4d5")
    for text in ("bxa8=Q", "bxa8Q", "bxa8=q", "ba8=Q", "bxa8=Q+"):
        assert board.parse_san(text) == Move.from_uci("b7a8q"), text
    assert board.parse_san("b8=N") == Move.from_uci("b7b8n")


@pytest.mark.parametrize(
    ("fen", "text", "error", "fragment"),
    [
        (None, "Nf9", InvalidMoveError, "invalid SAN 'Nf9': square 'f9' is off the board"),
        (None, "Ni3", InvalidMoveError, "square 'i3' is off the board"),
        (None, "Nzf3", InvalidMoveError, "file 'z' is off the board"),
        (None, "N9f3", InvalidMoveError, "rank '9' is off the board"),
        (None, "hello", InvalidMoveError, "expected a move such as"),
        (None, "", InvalidMoveError, "invalid SAN ''"),
        (None, "--", InvalidMoveError, "null moves"),
        (None, "e4!", InvalidMoveError, "invalid SAN 'e4!'"),
        (None, "e8=Q-", InvalidMoveError, "only a Guard promotion"),
        (None, "e8=K", InvalidMoveError, "cannot promote to 'K'"),
        (None, "Nf6", IllegalMoveError, "illegal SAN 'Nf6' in rnbqkbnr/"),
        (None, "O-O", IllegalMoveError, "illegal SAN 'O-O'"),
        (None, "exd5", IllegalMoveError, "illegal SAN 'exd5'"),
        (None, "d5", IllegalMoveError, "illegal SAN 'd5'"),  # no pawn capture without a file
        ("7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", IllegalMoveError, "promotion piece is needed"),
        ("7k/8/8/8/8/8/1N3N2/4K3 w - - 0 1", "Nd3", AmbiguousMoveError, "could be Nbd3, Nfd3"),
    ],
)
def test_errors_name_the_bad_part(
    fen: str | None, text: str, error: type[Exception], fragment: str
) -> None:
    board = Board(fen)
    before = board.fen()
    with pytest.raises(error) as info:
        board.push_san(text)
    assert fragment in str(info.value)
    assert board.fen() == before and board.move_stack == []


def test_royal_spellings_of_the_rules_page() -> None:
    board = Board("r3gkw2r/10/10/10/3b6/10/10/R3GKW2R w KQkq - 0 1", variant="royal")
    by_san = {board.san(m): m for m in board.legal_moves}
    castling = {san: m for san, m in by_san.items() if "O-O" in san}
    # the Bishop on d4 attacks g1 and f2: castling kingside needs the King's Guard to block
    assert "Wf2_O-O:h1" in castling and "O-O:h1" not in castling
    for san, move in castling.items():
        king_to = san.split("_")[-1].split(":")[1]
        assert board.square_name(move.to_square) == king_to.rstrip("+#")
        if "_" in san:
            assert move.guard_from is not None and san[0] in "GW"
            guard = san.split("_")[0]
            assert guard.endswith(board.square_name(move.guard_to)) and guard[0] in "GW"
        else:
            assert move.guard_from is None
        assert board.parse_san(san) == move
        assert board.parse_san(san.replace("O", "0")) == move
    # several kingside destinations: 'O-O' alone is ambiguous and says what to add
    kingside = [s for s in castling if s.startswith("O-O:")]
    if len(kingside) > 1:
        with pytest.raises(AmbiguousMoveError, match="add the King's square"):
            board.parse_san("O-O")


def test_royal_guard_promotions() -> None:
    board = Board("k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1", variant="royal")
    sans = {board.san(m).rstrip("+#"): m.uci() for m in board.legal_moves}
    assert sans["e8=G"] == "e7e8g" and sans["e8=G-"] == "e7e8g-"
    assert sans["e8=W"] == "e7e8w" and sans["e8=W-"] == "e7e8w-"
    assert board.parse_san("e8=G-") == Move.from_uci("e7e8g-", files=10)
    assert board.parse_san("e8G") == Move.from_uci("e7e8g", files=10)


def test_royal_king_move_alone_is_not_castling() -> None:
    board = Board("r3gkw2r/10/10/10/10/10/10/R3GK3R w KQkq - 0 1", variant="royal")
    castles = [m for m in board.legal_moves if m.rook_from is not None]
    assert castles
    king_only = castles[0].uci()[:4]
    if Move.from_uci(king_only, files=10) not in board.legal_moves:
        with pytest.raises(IllegalMoveError, match="castling is written with the Rook's move"):
            board.parse_uci(king_only)
