"""SAN and UCI, both ways, in both variants.

- Round trips (hypothesis): in random positions every legal move's SAN and UCI parse back to
  that move; the spellings are unique within a position; SAN without its ``+``/``#`` still
  parses; pushing a parsed move and popping it restores the board.
- Junk (hypothesis and fixed cases): random text, off-board squares, wrong promotion letters,
  illegal and ambiguous moves raise the right exception (``InvalidMoveError`` for text that is
  no move, ``IllegalMoveError`` for a well-formed move that is not legal,
  ``AmbiguousMoveError`` for SAN naming several moves) and leave the board unchanged.
"""

from __future__ import annotations

import pytest
from _support import CHESS_START, examples, reached_positions
from hypothesis import given
from hypothesis import strategies as st

from royalchess import (
    AmbiguousMoveError,
    Board,
    ChessError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)

chess = pytest.importorskip("chess")

MOVE_ERRORS = (InvalidMoveError, IllegalMoveError, AmbiguousMoveError)


positions = reached_positions(120)


def _state(board: Board) -> tuple[str, list[str]]:
    return board.fen(), [m.uci() for m in board.move_stack]


# -- round trips ------------------------------------------------------------------------------


@examples(300)
@given(positions)
def test_every_legal_move_round_trips(board: Board) -> None:
    before = _state(board)
    moves = list(board.legal_moves)
    sans = [board.san(m) for m in moves]
    ucis = [m.uci() for m in moves]
    assert len(set(sans)) == len(sans), f"duplicate SAN in {board.fen()}: {sorted(sans)}"
    assert len(set(ucis)) == len(ucis), f"duplicate UCI in {board.fen()}: {sorted(ucis)}"
    for move, san, uci in zip(moves, sans, ucis, strict=True):
        assert board.parse_san(san) == move, f"SAN {san!r} in {board.fen()}"
        assert board.parse_uci(uci) == move, f"UCI {uci!r} in {board.fen()}"
        assert Move.from_uci(uci, board.files) == move
        assert board.uci(move) == uci
        bare = san.rstrip("+#")
        assert board.parse_san(bare) == move, f"SAN {bare!r} in {board.fen()}"
        assert (san[-1] in "+#") == board.gives_check(move), f"check suffix of {san!r}"
        if san.endswith("#"):
            board.push(move)
            assert board.is_checkmate(), f"{san!r} is not mate in {board.fen()}"
            board.pop()
    assert _state(board) == before
    if moves:
        move = moves[len(moves) // 2]
        assert board.push_san(sans[len(moves) // 2]) == move
        assert board.move_stack[-1] == move
        board.pop()
        assert board.push_uci(ucis[len(moves) // 2]) == move
        board.pop()
    assert _state(board) == before
    if board.variant == "chess":
        ref = chess.Board(board.fen())
        for san, uci in zip(sans, ucis, strict=True):
            assert ref.parse_san(san).uci() == uci


def test_royal_spellings() -> None:
    """A few fixed Royal Chess spellings of the rules page, section 10."""
    board = Board("r3gkw2r/10/10/10/3b6/10/10/R3GKW2R w KQkq - 0 1", variant="royal")
    sans = {board.san(m): m.uci() for m in board.legal_moves}
    castlings = {s: u for s, u in sans.items() if "O-O" in s}
    assert castlings, "no castling move in a position made for castling"
    for san, uci in castlings.items():
        assert len(uci) in (8, 12)
        assert ":" in san
        if "_" in san:
            assert len(uci) == 12 and san.split("_")[0][0] in "GW"
        move = board.parse_san(san)
        assert move.uci() == uci and board.parse_uci(uci) == move
    board = Board("k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1", variant="royal")
    sans = {board.san(m).rstrip("+#"): m.uci() for m in board.legal_moves}
    assert sans["e8=G"] == "e7e8g" and sans["e8=G-"] == "e7e8g-"
    assert sans["e8=W"] == "e7e8w" and sans["e8=W-"] == "e7e8w-"


# -- junk -------------------------------------------------------------------------------------


def _try(board: Board, method: str, text: str) -> None:
    """Call a parse/push method with *text*; it may succeed only with a legal move, and may
    fail only with a move error; either way the board must be as it was."""
    before = _state(board)
    legal = set(board.legal_moves)
    try:
        move = getattr(board, method)(text)
    except MOVE_ERRORS as exc:
        assert str(exc), "empty error message"
        assert _state(board) == before
        assert set(board.legal_moves) == legal
        return
    assert move in legal
    if method.startswith("push"):
        assert board.move_stack[-1] == move
        board.pop()
    assert _state(board) == before


JUNK_ALPHABET = "abcdefghijklmz0123456789NBRQKGWPxO-=+#:_ @*/"


@examples(300)
@given(
    positions,
    st.text(max_size=14),
    st.sampled_from(["parse_san", "parse_uci", "push_san", "push_uci"]),
)
def test_arbitrary_text(board: Board, text: str, method: str) -> None:
    _try(board, method, text)


@examples(500)
@given(
    positions,
    st.text(alphabet=JUNK_ALPHABET, max_size=14),
    st.sampled_from(["parse_san", "parse_uci", "push_san", "push_uci"]),
)
def test_move_like_junk(board: Board, text: str, method: str) -> None:
    _try(board, method, text)


@examples(300)
@given(positions, st.data())
def test_well_formed_illegal_uci_is_an_illegal_move_error(board: Board, data) -> None:
    files = board.files
    names = [f + r for r in "12345678" for f in "abcdefghij"[:files]]
    frm = data.draw(st.sampled_from(names))
    to = data.draw(st.sampled_from(names))
    promo = data.draw(
        st.sampled_from(
            ["", "", "q", "r", "b", "n"] + (["g", "w", "g-", "w-"] if files == 10 else [])
        )
    )
    text = frm + to + promo
    before = _state(board)
    legal = {m.uci() for m in board.legal_moves}
    try:
        move = board.parse_uci(text)
    except IllegalMoveError:
        assert text not in legal
    else:
        # Only a legal move, or python-chess's castling alias (e1h1 for e1g1) in chess.
        assert move.uci() in legal
        assert move.uci() == text or (files == 8 and text[:2] in ("e1", "e8"))
    assert _state(board) == before


@examples(200)
@given(positions, st.data())
def test_off_board_squares_are_invalid(board: Board, data) -> None:
    files = board.files
    on = st.sampled_from([f + r for r in "12345678" for f in "abcdefghij"[:files]])
    off = st.one_of(
        st.builds(lambda f, r: f + r, st.sampled_from("abcdefghij"[:files]), st.sampled_from("09")),
        st.builds(
            lambda f, r: f + r,
            st.sampled_from("klmz" if files == 10 else "ijkz"),
            st.sampled_from("12345678"),
        ),
    )
    a, b = data.draw(on), data.draw(off)
    text = a + b if data.draw(st.booleans()) else b + a
    before = _state(board)
    with pytest.raises(InvalidMoveError):
        board.parse_uci(text)
    with pytest.raises(InvalidMoveError):
        board.push_uci(text)
    with pytest.raises(InvalidMoveError):
        board.parse_san("N" + b)
    with pytest.raises(InvalidMoveError):
        board.push_san(b)
    assert _state(board) == before


SAN_CASES = [
    # (variant, fen, text, exception)
    ("chess", CHESS_START, "", InvalidMoveError),
    ("chess", CHESS_START, "xyz", InvalidMoveError),
    ("chess", CHESS_START, "Nf9", InvalidMoveError),
    ("chess", CHESS_START, "Zf3", InvalidMoveError),
    ("chess", CHESS_START, "e8=K", InvalidMoveError),
    ("chess", CHESS_START, "P@e4", InvalidMoveError),
    ("chess", CHESS_START, "--", InvalidMoveError),
    ("chess", CHESS_START, "i4", InvalidMoveError),
    ("chess", CHESS_START, "Qh5", IllegalMoveError),
    ("chess", CHESS_START, "e5", IllegalMoveError),
    ("chess", CHESS_START, "O-O", IllegalMoveError),
    ("chess", CHESS_START, "O-O-O", IllegalMoveError),
    ("chess", CHESS_START, "exd5", IllegalMoveError),
    ("chess", "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1", "Nd2", AmbiguousMoveError),
    ("chess", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "Rb2", IllegalMoveError),
    ("chess", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", AmbiguousMoveError),
    ("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", IllegalMoveError),
    ("royal", None, "k4", InvalidMoveError),
    ("royal", None, "Gk3", InvalidMoveError),
    ("royal", None, "Wg3", IllegalMoveError),
    ("royal", None, "O-O:h1", IllegalMoveError),
    ("royal", None, "e4=G-", IllegalMoveError),
    ("royal", None, "e8=Q-", InvalidMoveError),
    ("royal", "4k5/10/10/10/10/10/5K4/R8R w - - 0 1", "Re1", AmbiguousMoveError),
    ("royal", "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "O-O", AmbiguousMoveError),
]


@pytest.mark.parametrize(
    "variant,fen,text,error", SAN_CASES, ids=[f"{c[0]}-{c[2] or 'empty'}" for c in SAN_CASES]
)
def test_bad_san(variant: str, fen: str | None, text: str, error: type) -> None:
    board = Board(fen, variant=variant)
    board.push(next(iter(board.legal_moves)))  # a non-empty move stack must be kept too
    board.pop()
    list(board.legal_moves)
    before = _state(board)
    for method in (board.parse_san, board.push_san):
        with pytest.raises(error) as info:
            method(text)
        assert repr(text) in str(info.value), info.value
    assert _state(board) == before


UCI_CASES = [
    ("chess", "", InvalidMoveError),
    ("chess", "e2", InvalidMoveError),
    ("chess", "e2e4e", InvalidMoveError),
    ("chess", "e7e8k", InvalidMoveError),
    ("chess", "e7e8q-", InvalidMoveError),
    ("chess", "e2-e4", InvalidMoveError),
    ("chess", "0000", InvalidMoveError),
    ("chess", "E2E4", InvalidMoveError),
    ("chess", "i2i4", InvalidMoveError),
    ("chess", "e9e4", InvalidMoveError),
    ("chess", "e2e5", IllegalMoveError),
    ("chess", "a1a1", IllegalMoveError),
    ("chess", "e2e4q", IllegalMoveError),
    ("royal", "k2k4", InvalidMoveError),
    ("royal", "j2j5", IllegalMoveError),
    ("royal", "e2e4x", InvalidMoveError),
    ("royal", "f1h1j1", InvalidMoveError),
    ("royal", "f1h1j1g1", IllegalMoveError),
    ("royal", "g1g3f1g1j1f1", IllegalMoveError),
]


@pytest.mark.parametrize(
    "variant,text,error", UCI_CASES, ids=[f"{c[0]}-{c[1] or 'empty'}" for c in UCI_CASES]
)
def test_bad_uci(variant: str, text: str, error: type) -> None:
    board = Board(variant=variant)
    board.push(next(iter(board.legal_moves)))
    before = _state(board)
    for method in (board.parse_uci, board.push_uci):
        with pytest.raises(error):
            method(text)
    assert _state(board) == before


def test_bad_push() -> None:
    board = Board()
    board.push_san("e4")
    before = _state(board)
    with pytest.raises(IllegalMoveError):
        board.push(Move.from_uci("e4e5"))  # a White pawn, but Black is to move
    with pytest.raises(IllegalMoveError):
        board.push(Move.from_uci("e7e5", files=10))  # a move for the 10-file board
    with pytest.raises((InvalidMoveError, ValueError)):
        Move.from_uci("e2e4", files=9)
    assert _state(board) == before
    royal = Board(variant="royal")
    with pytest.raises(IllegalMoveError):
        royal.push(Move.from_uci("e2e4"))
    with pytest.raises(IndexError):
        royal.pop()
    assert royal.fen() == Board(variant="royal").fen()
    for error in MOVE_ERRORS:
        assert issubclass(error, ChessError) and issubclass(error, ValueError)
