"""Square names: the one place where squares are parsed and printed (no core needed)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from royalchess.errors import ChessError, InvalidSquareError
from royalchess.notation.squares import (
    parse_square,
    square,
    square_file,
    square_name,
    square_names,
    square_rank,
)


def test_chess_numbering_is_python_chess_numbering() -> None:
    assert parse_square("a1") == 0
    assert parse_square("h1") == 7
    assert parse_square("a2") == 8
    assert parse_square("e4") == 28
    assert parse_square("h8") == 63
    assert square_name(28) == "e4"


def test_royal_board_has_ten_files() -> None:
    assert parse_square("j1", 10) == 9
    assert parse_square("a2", 10) == 10
    assert parse_square("j8", 10) == 79
    assert square_name(79, 10) == "j8"
    assert square_names(10)[:10] == tuple(f + "1" for f in "abcdefghij")
    assert len(square_names(10)) == 80


@pytest.mark.parametrize("files", [8, 10])
@given(data=st.data())
def test_names_round_trip(files: int, data: st.DataObject) -> None:
    sq = data.draw(st.integers(0, files * 8 - 1))
    name = square_name(sq, files)
    assert parse_square(name, files) == sq
    assert square(square_file(sq, files), square_rank(sq, files), files) == sq
    assert name == "abcdefghij"[square_file(sq, files)] + str(square_rank(sq, files) + 1)


@pytest.mark.parametrize(
    ("name", "files", "message"),
    [
        ("f9", 8, "square 'f9' is off the board"),
        ("i1", 8, "square 'i1' is off the board"),
        ("k1", 10, "square 'k1' is off the board"),
        ("a0", 10, "square 'a0' is off the board"),
        ("e10", 10, "square 'e10' is off the board"),
        ("", 8, "'' is not a square name"),
        ("e", 8, "'e' is not a square name"),
        ("E4", 8, "'E4' is not a square name"),
        ("4e", 8, "'4e' is not a square name"),
        (" e4", 8, "' e4' is not a square name"),
    ],
)
def test_bad_names_are_named_in_the_error(name: str, files: int, message: str) -> None:
    with pytest.raises(InvalidSquareError) as info:
        parse_square(name, files)
    assert str(info.value) == message
    assert isinstance(info.value, ChessError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(("sq", "files"), [(-1, 8), (64, 8), (80, 10), (True, 8), ("e4", 8)])
def test_bad_numbers_are_rejected(sq: object, files: int) -> None:
    with pytest.raises(InvalidSquareError, match="off the"):
        square_name(sq, files)  # type: ignore[arg-type]


@given(st.text(max_size=6))
def test_arbitrary_text_parses_or_raises_a_square_error(text: str) -> None:
    for files in (8, 10):
        try:
            sq = parse_square(text, files)
        except InvalidSquareError:
            continue
        assert square_name(sq, files) == text
