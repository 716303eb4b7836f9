"""The seed's position record (rules page, section 9): read, write, read back."""

from __future__ import annotations

import random

import pytest
from _support import SPEC_RECORD

from royalchess import Board, InvalidRecordError, record
from royalchess.errors import ChessError


def test_reads_the_rules_page_example() -> None:
    board = record.parse(SPEC_RECORD)
    assert board.variant == "royal"
    assert board.fen() == "7wk1/pp4rppp/2pg1Rpn2/3pb5/10/2PB2N3/PP1Q1GPPPP/7KW1 b - - 0 41"


def test_writes_the_rules_page_example_back_exactly() -> None:
    assert record.format(record.parse(SPEC_RECORD)) == SPEC_RECORD


def test_start_position_grants_castling_rights() -> None:
    text = record.format(Board(variant="royal"))
    assert text.splitlines()[0] == "r n b g q k g' b n r,"
    assert text.splitlines()[2] == "0,"
    assert text.splitlines()[-1] == "WM 1"
    assert record.parse(text) == Board(variant="royal")


def test_lenient_layout_and_side_line() -> None:
    squeezed = SPEC_RECORD.replace(",\n", ", ").replace("BM 41", "\nBM-41")
    assert record.parse(squeezed) == record.parse(SPEC_RECORD)
    no_commas = SPEC_RECORD.replace(",", "")
    assert record.parse(no_commas) == record.parse(SPEC_RECORD)
    assert record.parse(SPEC_RECORD.replace("BM 41", "WM-24")).turn is True


def test_queen_powers_round_trip() -> None:
    board = Board("G*3k5/10/10/10/10/10/3K6/9w* b - - 0 1", variant="royal")
    text = record.format(board)
    assert text.splitlines()[0] == "G* 3 k," and text.splitlines()[-2] == "9 g'*,"
    assert record.parse(text).fen() == board.fen()


def test_random_positions_read_back() -> None:
    rng = random.Random(9)
    for _ in range(30):
        board = Board(variant="royal")
        for _ in range(rng.randrange(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        text = record.format(board)
        again = record.parse(text)
        assert record.format(again) == text
        assert again.fen().split()[0] == board.fen().split()[0]
        assert again.turn == board.turn and again.fullmove_number == board.fullmove_number


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty position record"),
        ("BM 41", "record has 0 ranks, expected 8"),
        ("0,\n" * 8, "should name the side to move"),
        ("0,\n" * 8 + "XM 3", "'XM 3' should name the side to move"),
        ("0,\n" * 7 + "11,\nWM 1", "rank 1: '11' has more than 10 squares"),
        ("0,\n" * 7 + "K 5 R 5,\nWM 1", "rank 1"),
        ("0,\n" * 7 + "K X,\nWM 1", "rank 1: 'X' is not a piece or a count"),
        ("0,\n" * 7 + "K 0 k,\nWM 1", "'0' can only stand alone"),
        ("0,\n" * 7 + "K' k,\nWM 1", "is not a piece (only G' has a ')"),
        ("0,\n" * 7 + "K k,\nWM 0", "move number 0"),
        ("0,\n" * 9 + "WM 1", "record has 9 ranks"),
        ("0,\n" * 8 + "WM 1", "impossible position"),
    ],
)
def test_broken_records_are_rejected_by_name(text: str, fragment: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        record.parse(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ChessError)


def test_only_royal_chess_is_written() -> None:
    with pytest.raises(InvalidRecordError, match="Royal Chess"):
        record.format(Board())
