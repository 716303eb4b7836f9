"""Move and Piece values: code packing, UCI spelling, errors (no core needed)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from royalchess.errors import ChessError, InvalidMoveError
from royalchess.move import (
    KING,
    KINGS_GUARD,
    KNIGHT,
    PIECE_SYMBOLS,
    QUEEN,
    QUEENS_GUARD,
    WHITE,
    Move,
    Piece,
)
from royalchess.notation.squares import parse_square

PROMOTIONS = [None, 2, 3, 4, 5, 7, 8]


@st.composite
def moves(draw: st.DrawFn) -> Move:
    """Any well-formed Move (not necessarily legal anywhere)."""
    files = draw(st.sampled_from([8, 10]))
    square = st.integers(0, files * 8 - 1)
    kind = draw(st.sampled_from(["plain", "promotion", "castling", "guard castling"]))
    a, b = draw(square), draw(square)
    if kind == "plain":
        return Move(a, b, files=files)
    if kind == "promotion":
        promotion = draw(st.sampled_from([2, 3, 4, 5, 7, 8]))
        waived = promotion in (7, 8) and draw(st.booleans())
        return Move(a, b, promotion, waived, files=files)
    rook_from, rook_to = draw(square), draw(square)
    if kind == "castling":
        return Move(a, b, rook_from=rook_from, rook_to=rook_to, files=files)
    return Move(
        a,
        b,
        rook_from=rook_from,
        rook_to=rook_to,
        guard_from=draw(square),
        guard_to=draw(square),
        files=files,
    )


@given(moves())
def test_code_round_trip(move: Move) -> None:
    code = move.code()
    assert 0 <= code < 1 << 49
    assert Move.from_code(code, move.files) == move
    assert Move.from_code(code, move.files).code() == code


@given(moves())
def test_uci_round_trip(move: Move) -> None:
    text = move.uci()
    assert Move.from_uci(text, move.files) == move
    assert str(move) == text
    assert len(text) in (4, 5, 6, 8, 12)


@given(moves())
def test_values_hash_compare_and_pickle(move: Move) -> None:
    twin = Move.from_uci(move.uci(), move.files)
    assert twin == move and hash(twin) == hash(move)
    assert pickle.loads(pickle.dumps(move)) == move
    assert eval(repr(move)) == move


def test_code_layout_matches_the_binding_document() -> None:
    e2, e4 = parse_square("e2"), parse_square("e4")
    assert Move(e2, e4).code() == e2 | e4 << 7
    assert Move(52, 60, QUEEN).code() == 52 | 60 << 7 | QUEEN << 14

    def f(name: str) -> int:
        return parse_square(name, 10)

    waived = Move(f("e7"), f("e8"), KINGS_GUARD, True, files=10)
    assert waived.code() == f("e7") | f("e8") << 7 | KINGS_GUARD << 14 | 1 << 18
    castle = Move.from_uci("g1g3f1g1j1f1", files=10)
    assert (castle.guard_from, castle.guard_to) == (f("g1"), f("g3"))
    assert (castle.from_square, castle.to_square) == (f("f1"), f("g1"))
    assert (castle.rook_from, castle.rook_to) == (f("j1"), f("f1"))
    assert castle.code() == (
        f("f1")
        | f("g1") << 7
        | 1 << 19
        | f("j1") << 20
        | f("f1") << 27
        | 1 << 34
        | f("g1") << 35
        | f("g3") << 42
    )


def test_spellings_of_the_rules_page() -> None:
    assert Move.from_uci("e7e8g-", 10) == Move(64, 74, QUEENS_GUARD, True, files=10)
    assert Move.from_uci("e7e8w", 10).promotion == KINGS_GUARD
    assert Move.from_uci("f1h1j1g1", 10).uci() == "f1h1j1g1"
    assert Move.from_uci("e1g1").rook_from is None  # chess castling is the King's move
    assert Move.from_uci("e7e8Q").uci() == "e7e8q"  # upper case is read, lower case written


def test_moves_on_different_boards_differ() -> None:
    assert Move.from_uci("a2a3", 8) != Move.from_uci("a2a3", 10)
    assert Move.from_code(Move.from_uci("a2a3").code(), 10) != Move.from_uci("a2a3")


@pytest.mark.parametrize(
    ("text", "files", "fragment"),
    [
        ("", 8, "expected from and to squares"),
        ("e2", 8, "expected from and to squares"),
        ("e2e", 8, "expected from and to squares"),
        ("e2e4e5e6e", 8, "expected from and to squares"),
        ("e2e9", 8, "square 'e9' is off the board"),
        ("i2i4", 8, "square 'i2' is off the board"),
        ("k2k4", 10, "square 'k2' is off the board"),
        ("e7e8k", 8, "'k' is not a promotion piece letter"),
        ("e7e8p", 8, "'p' is not a promotion piece letter"),
        ("e7e8x", 8, "'x' is not a promotion piece letter"),
        ("e7e8q-", 8, "only a Guard promotion"),
        ("e7e8gx", 10, "expected from and to squares"),
        ("0000", 8, "null moves"),
        ("E2E4", 8, "not a square name"),
        ("e2-e4", 8, "'-e' is not a square name"),
    ],
)
def test_garbage_uci_raises_invalid_move_error(text: str, files: int, fragment: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.from_uci(text, files)
    assert fragment in str(info.value)


def test_non_text_uci_is_rejected() -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_uci(1234)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"from_square": 64, "to_square": 0},
        {"from_square": -1, "to_square": 0},
        {"from_square": 0, "to_square": 80, "files": 10},
        {"from_square": 0, "to_square": 1, "files": 9},
        {"from_square": 0, "to_square": 1, "promotion": KING},
        {"from_square": 0, "to_square": 1, "promotion": 1},
        {"from_square": 0, "to_square": 1, "promotion": QUEEN, "waived": True},
        {"from_square": 0, "to_square": 1, "waived": True},
        {"from_square": 0, "to_square": 1, "rook_from": 3},
        {"from_square": 0, "to_square": 1, "guard_from": 3, "guard_to": 4},
        {"from_square": 0, "to_square": 1, "rook_from": 3, "rook_to": 2, "promotion": QUEEN},
    ],
)
def test_malformed_moves_cannot_be_built(kwargs: dict[str, int | bool]) -> None:
    with pytest.raises(InvalidMoveError):
        Move(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "code", [-1, 1 << 49, 1 << 20, 1 << 35, (1 << 19) | (1 << 40), 3 << 14 | 1 << 18, 1 << 14]
)
def test_malformed_codes_are_rejected(code: int) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_code(code, 8)


def test_from_code_checks_the_board_width() -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_code(5, 24)
    assert Move.from_code(5, 8).files == 8


def test_moves_are_immutable() -> None:
    move = Move.from_uci("e2e4")
    with pytest.raises(AttributeError):
        move.to_square = 3  # type: ignore[misc]


def test_pieces() -> None:
    assert Piece.from_symbol("N") == Piece(KNIGHT, WHITE)
    assert Piece.from_symbol("w").symbol() == "w"
    assert Piece.from_symbol("G*") == Piece(QUEENS_GUARD, WHITE, True)
    assert Piece(KINGS_GUARD, False, True).symbol() == "w*"
    assert str(Piece(KING, True)) == "K"
    assert Piece(QUEEN, False).unicode_symbol() == "♛"
    for piece_type, letter in enumerate(PIECE_SYMBOLS):
        if letter:
            assert Piece.from_symbol(letter.upper()).piece_type == piece_type
    for bad in ["", "x", "K*", "NN", "*"]:
        with pytest.raises(ChessError):
            Piece.from_symbol(bad)
