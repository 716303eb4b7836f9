"""FEN in and out, for both variants.

- Round trips (hypothesis): for positions reached by random play, ``Board(fen).fen() == fen``
  and the re-read board has the same pieces, side, rights and legal moves.
- Bad input: each kind of broken FEN raises :class:`InvalidFenError` (a ``ValueError``) whose
  message names the field or the impossible part.
- Fuzzing (hypothesis): arbitrary text and mutated FENs given to ``Board`` either give a board
  whose FEN reads back to itself, or raise :class:`InvalidFenError`; nothing else, no crash.
"""

from __future__ import annotations

import pytest
from _support import (
    CHESS_START,
    FAST,
    ROYAL_SEED_FENS,
    ROYAL_START,
    epd_fens,
    examples,
    reached_positions,
)
from hypothesis import example, given
from hypothesis import strategies as st

from royalchess import Board, ChessError, InvalidFenError

chess = pytest.importorskip("chess")

CHESS_FENS = epd_fens()

positions = reached_positions(150)


def _same_position(a: Board, b: Board) -> None:
    assert a.fen() == b.fen()
    assert a.turn == b.turn
    assert a.castling_rights == b.castling_rights
    assert a.ep_square == b.ep_square
    assert a.halfmove_clock == b.halfmove_clock
    assert a.fullmove_number == b.fullmove_number
    squares = a.files * a.ranks
    assert [a.piece_at(s) for s in range(squares)] == [b.piece_at(s) for s in range(squares)]
    assert sorted(m.uci() for m in a.legal_moves) == sorted(m.uci() for m in b.legal_moves)
    assert a.is_check() == b.is_check()


# -- round trips ------------------------------------------------------------------------------


@examples(300)
@given(positions)
def test_fen_round_trip_after_random_play(board: Board) -> None:
    fen = board.fen()
    again = Board(fen, variant=board.variant)
    _same_position(board, again)
    if board.variant == "royal":
        fields = fen.split()
        assert len(fields) in (6, 7)
        assert (len(fields) == 7) == (board.recapture_square is not None)
        assert again.recapture_square == board.recapture_square
    else:
        assert len(fen.split()) == 6
        assert chess.Board(fen).fen(en_passant="fen") == fen


@pytest.mark.parametrize("fen", CHESS_FENS[:: 1 if not FAST else 8])
def test_chess_epd_positions_read_back(fen: str) -> None:
    board = Board(fen)
    assert board.fen() == chess.Board(fen).fen(en_passant="fen")
    assert Board(board.fen()).fen() == board.fen()


@pytest.mark.parametrize("fen", ROYAL_SEED_FENS)
def test_royal_positions_read_back(fen: str) -> None:
    board = Board(fen, variant="royal")
    assert board.fen() == fen
    _same_position(board, Board(board.fen(), variant="royal"))


def test_royal_queen_powers_and_recapture_fields() -> None:
    board = Board("k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1", variant="royal")
    board.push_uci("e7e8g")  # with queen powers: '*', and check along the 8th rank
    assert board.fen() == "k3G*5/10/10/10/10/10/4p5/7K2 b - - 0 1"
    assert board.is_check()
    board.push_uci("a8b7")
    board.push_uci("h1g2")
    assert board.fen().startswith("4G*5/1k8/")  # powers stay while it stays on e8
    board.push_uci("e2e1w-")  # waived: no '*'
    assert board.fen() == "4G*5/1k8/10/10/10/10/6K3/4w5 w - - 0 3"
    _same_position(board, Board(board.fen(), variant="royal"))
    board.push_uci("e8e7")  # leaving the square ends the powers
    assert board.fen().startswith("10/1k2G5/")
    # Black captures one Rook of a pair (b3, g3, a King's Guard between): field 7 is b3.
    board = Board("4k5/10/10/10/3n6/1R2W1R3/10/4K5 b - - 0 1", variant="royal")
    board.push_san("Nxb3")
    assert board.fen() == "4k5/10/10/10/10/1n2W1R3/10/4K5 w - - 0 2 b3"
    assert board.recapture_square == 21
    again = Board(board.fen(), variant="royal")
    _same_position(board, again)
    assert "Rxb3" in {again.san(m) for m in again.legal_moves}
    board.push_san("Rxb3")
    assert board.fen() == "4k5/10/10/10/10/1R2W5/10/4K5 b - - 0 2"


def test_defaults_and_whitespace() -> None:
    assert Board().fen() == CHESS_START
    assert Board(variant="royal").fen() == ROYAL_START
    assert Board("  " + CHESS_START + "  ").fen() == CHESS_START
    # Missing clocks default to 0 and 1, as in python-chess; an explicit '-' field 7 is dropped.
    assert Board(CHESS_START.rsplit(" ", 2)[0]).fen() == CHESS_START
    assert Board(ROYAL_START + " -", variant="royal").fen() == ROYAL_START


# -- bad input --------------------------------------------------------------------------------

S8 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
S10 = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR"

BAD_FENS = [
    # (id, variant, fen, fragments the message must contain)
    ("empty", "chess", "", ["empty"]),
    ("blank", "royal", "   ", ["empty"]),
    ("truncated-placement", "chess", "rnbqkbnr/pppppppp/8/8", ["1 field", "side to move"]),
    ("truncated-2-fields", "chess", f"{S8} w", ["2 fields", "castling"]),
    ("truncated-3-fields", "royal", f"{S10} w KQkq", ["3 fields", "en passant"]),
    ("overlong-chess", "chess", f"{S8} w KQkq - 0 1 x", ["7 fields", "at most 6"]),
    ("overlong-royal", "royal", f"{S10} w KQkq - 0 1 - x", ["8 fields", "at most 7"]),
    ("royal-field7-in-chess", "chess", f"{S8} w KQkq - 0 1 a3", ["7 fields"]),
    ("overlong-text", "chess", (CHESS_START + " ") * 40, ["too long"]),
    (
        "unknown-letter",
        "chess",
        "rnbqkxnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["field 1", "unknown piece letter 'x'"],
    ),
    (
        "guard-in-chess",
        "chess",
        "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ["field 1", "'g'"],
    ),
    (
        "short-rank",
        "chess",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["field 1", "rank 7 has 7 squares, expected 8"],
    ),
    (
        "long-rank",
        "chess",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["field 1", "rank 7", "more than 8"],
    ),
    ("nine-ranks", "chess", "8/8/8/8/8/8/8/8/8 w - - 0 1", ["field 1", "more than 8 ranks"]),
    ("seven-ranks", "chess", "4k3/8/8/8/8/8/4K3 w - - 0 1", ["field 1", "7 ranks"]),
    ("empty-rank", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP//RNBQKBNR w - - 0 1", ["field 1"]),
    ("digits-in-a-row", "chess", "44k3/8/8/8/8/8/8/4K3 w - - 0 1", ["field 1", "two digits"]),
    ("zero-count", "chess", "4k3/8/8/08/8/8/8/4K3 w - - 0 1", ["field 1", "'0'"]),
    ("ten-in-chess", "chess", "4k3/8/10/8/8/8/8/4K3 w - - 0 1", ["field 1", "more than 8"]),
    (
        "royal-9-files",
        "royal",
        "rnbgqkwbn/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1",
        ["field 1", "rank 8 has 9 squares, expected 10"],
    ),
    (
        "royal-11-files",
        "royal",
        "rnbgqkwbnrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1",
        ["field 1", "rank 8", "more than 10"],
    ),
    ("royal-given-chess-fen", "royal", CHESS_START, ["field 1", "expected 10"]),
    ("chess-given-royal-fen", "chess", ROYAL_START, ["field 1"]),
    (
        "star-on-queen",
        "royal",
        "rnbgq*kwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1",
        ["field 1", "'*'", "only a Guard"],
    ),
    (
        "star-in-chess",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ*KBNR w - - 0 1",
        ["field 1", "only a Guard"],
    ),
    (
        "star-guard-off-promotion-rank",
        "royal",
        "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBG*QKWBNR w KQkq - 0 1",
        ["field 1", "'G*'", "promotion rank"],
    ),
    ("lone-star", "royal", "*4k5/10/10/10/10/10/10/5K4 w - - 0 1", ["field 1", "'*'"]),
    ("two-white-kings", "chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", ["2 white kings"]),
    ("no-white-king", "chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", ["0 white kings"]),
    ("no-black-king", "royal", "10/10/10/10/10/10/10/5K4 w - - 0 1", ["0 black kings"]),
    ("no-kings", "chess", "8/8/8/8/8/8/8/8 w - - 0 1", ["kings"]),
    (
        "white-pawn-on-8th",
        "chess",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["white pawn on a8", "back rank"],
    ),
    (
        "black-pawn-on-1st",
        "royal",
        "5k4/10/10/10/10/10/10/5K3p w - - 0 1",
        ["black pawn on j1", "back rank"],
    ),
    ("white-pawn-on-1st", "chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", ["pawn on a1"]),
    ("nine-pawns", "chess", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", ["9 black pawns"]),
    (
        "royal-two-queens",
        "royal",
        "4k5/qq8/10/10/10/10/10/4K5 w - - 0 1",
        ["2 black queens", "at most 1"],
    ),
    (
        "not-to-move-in-check",
        "chess",
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        ["side not to move (black) is in check"],
    ),
    (
        "not-to-move-in-check-royal",
        "royal",
        "5k4/10/10/10/10/10/10/r4K4 b - - 0 1",
        ["side not to move (white) is in check"],
    ),
    ("side-x", "chess", f"{S8} x KQkq - 0 1", ["field 2", "'x'"]),
    ("side-upper", "chess", f"{S8} W KQkq - 0 1", ["field 2", "'W'"]),
    (
        "castling-letter",
        "chess",
        f"{S8} w KQX - 0 1",
        ["field 3 (castling)", "'KQX'", "unknown letter 'X'"],
    ),
    ("castling-shredder", "chess", f"{S8} w HAha - 0 1", ["field 3", "'H'"]),
    ("castling-repeat", "royal", f"{S10} w KQkqK - 0 1", ["field 3", "repeats 'K'"]),
    (
        "castling-no-rook",
        "chess",
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        ["field 3", "no white rook on h1"],
    ),
    (
        "castling-no-rook-royal",
        "royal",
        "r4k3r/10/10/10/10/10/10/R4K4 w KQkq - 0 1",
        ["field 3", "no white rook on j1"],
    ),
    (
        "castling-king-moved",
        "chess",
        "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1",
        ["field 3", "white king is not on e1"],
    ),
    (
        "castling-king-moved-royal",
        "royal",
        "r4k3r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
        ["field 3", "white king is not on f1"],
    ),
    (
        "castling-black-no-rook",
        "chess",
        "4k3/8/8/8/8/8/8/4K2R w Kk - 0 1",
        ["field 3", "no black rook on h8"],
    ),
    ("ep-not-a-square", "chess", f"{S8} w KQkq e9 0 1", ["field 4 (en passant)", "'e9'"]),
    ("ep-off-chess-board", "chess", f"{S8} w KQkq i6 0 1", ["field 4", "'i6'"]),
    ("ep-wrong-rank", "chess", f"{S8} w KQkq e3 0 1", ["field 4", "'e3'"]),
    ("ep-no-pawn", "chess", f"{S8} w KQkq e6 0 1", ["field 4", "'e6'", "black pawn"]),
    ("ep-royal-file-k", "royal", f"{S10} w KQkq k6 0 1", ["field 4", "'k6'"]),
    ("ep-royal-no-pawn", "royal", f"{S10} w KQkq j6 0 1", ["field 4", "'j6'"]),
    ("ep-garbage", "chess", f"{S8} w KQkq xyz 0 1", ["field 4", "'xyz'"]),
    ("halfmove-negative", "chess", f"{S8} w KQkq - -1 1", ["field 5 (half-move clock)", "'-1'"]),
    ("halfmove-fraction", "chess", f"{S8} w KQkq - 0.5 1", ["field 5", "'0.5'"]),
    ("halfmove-plus", "chess", f"{S8} w KQkq - +1 1", ["field 5", "'+1'"]),
    ("halfmove-huge", "chess", f"{S8} w KQkq - 99999999999 1", ["field 5"]),
    ("fullmove-zero", "chess", f"{S8} w KQkq - 0 0", ["field 6 (full-move number)", "'0'"]),
    ("fullmove-word", "royal", f"{S10} w KQkq - 0 one", ["field 6", "'one'"]),
    ("fullmove-negative", "chess", f"{S8} w KQkq - 0 -3", ["field 6", "'-3'"]),
    (
        "recapture-empty-square",
        "royal",
        f"{S10} w KQkq - 0 1 e4",
        ["field 7 (recapture square)", "e4", "no piece of the side that just moved"],
    ),
    (
        "recapture-own-piece",
        "royal",
        f"{S10} w KQkq - 0 1 e2",
        ["field 7", "e2", "no piece of the side that just moved"],
    ),
    ("recapture-no-rook-pair", "royal", f"{S10} w KQkq - 0 1 e7", ["field 7", "e7", "rook"]),
    ("recapture-off-board", "royal", f"{S10} w KQkq - 0 1 k9", ["field 7", "'k9'"]),
    ("tab", "chess", f"{S8}\tw KQkq - 0 1", ["character"]),
    ("non-ascii", "chess", f"{S8} w KQkq - \u00ff 1", ["character"]),
    ("nul", "chess", f"{CHESS_START}\x00", ["character"]),
    ("surrogate", "royal", f"{ROYAL_START}\ud800", ["character"]),
]


@pytest.mark.parametrize(
    "variant,fen,fragments", [c[1:] for c in BAD_FENS], ids=[c[0] for c in BAD_FENS]
)
def test_bad_fen_is_rejected_with_a_message(variant: str, fen: str, fragments: list[str]) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board(fen, variant=variant)
    message = str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, ChessError)
    for fragment in fragments:
        assert fragment in message, f"message {message!r} lacks {fragment!r}"


GOOD = {"chess": [CHESS_START, *CHESS_FENS[1:20]], "royal": list(ROYAL_SEED_FENS)}


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_every_truncation_is_either_valid_or_rejected(variant: str) -> None:
    for fen in GOOD[variant][: 3 if FAST else None]:
        for cut in range(len(fen) + 1):
            _accept_or_reject(fen[:cut], variant)


def test_large_half_move_clock_is_kept_or_rejected() -> None:
    """A half-move clock the core cannot keep exactly must be rejected (field 5); one it
    accepts must survive legal move generation and push/pop unchanged."""
    for clock in (65534, 65535, 65536, 70000, 100000):
        fen = f"4k3/8/8/8/8/8/8/4K3 w - - {clock} 1"
        try:
            board = Board(fen)
        except InvalidFenError as exc:
            assert "field 5" in str(exc)
            continue
        list(board.legal_moves)
        assert board.fen() == fen
        board.push_uci("e1e2")
        assert board.halfmove_clock == clock + 1
        list(board.legal_moves)
        assert board.halfmove_clock == clock + 1
        board.pop()
        assert board.fen() == fen


# -- fuzzing ----------------------------------------------------------------------------------


def _accept_or_reject(text: str, variant: str) -> None:
    try:
        board = Board(text, variant=variant)
    except InvalidFenError as exc:
        assert str(exc), "empty error message"
        return
    fen = board.fen()
    again = Board(fen, variant=variant)
    assert again.fen() == fen
    moves = list(board.legal_moves)
    for move in moves[:5]:
        board.push(move)
        board.fen()
        board.pop()
    assert board.fen() == fen
    if variant == "chess":
        ref = chess.Board(fen)
        assert sorted(m.uci() for m in moves) == sorted(m.uci() for m in ref.legal_moves), fen


FEN_ALPHABET = "pnbrqkgwPNBRQKGW*12345678910/ wb-KQkqabcdefghij0123456789xX;\t\n"


@st.composite
def mutated_fens(draw) -> tuple[str, str]:
    variant = draw(st.sampled_from(["chess", "royal"]))
    base = draw(st.sampled_from(GOOD[variant]))
    chars = list(base)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
        pos = draw(st.integers(0, len(chars)))
        ch = draw(st.sampled_from(FEN_ALPHABET))
        if op == "insert":
            chars.insert(pos, ch)
        elif chars and pos < len(chars):
            if op == "delete":
                del chars[pos]
            elif op == "replace":
                chars[pos] = ch
            elif pos + 1 < len(chars):
                chars[pos], chars[pos + 1] = chars[pos + 1], chars[pos]
    return variant, "".join(chars)


@examples(1000)
@given(mutated_fens())
@example(("chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 "))
@example(("royal", "5k4/10/10/10/10/10/10/5K4 w - - 0 1 -"))
def test_fuzz_mutated_fens(case: tuple[str, str]) -> None:
    _accept_or_reject(case[1], case[0])


@examples(500)
@given(st.text(max_size=120), st.sampled_from(["chess", "royal"]))
def test_fuzz_arbitrary_text(text: str, variant: str) -> None:
    _accept_or_reject(text, variant)


@examples(500)
@given(
    st.lists(
        st.sampled_from(["8", "10", "k", "K", "p", "P", "g*", "W", "/", "1", "9"]), max_size=40
    ).map("".join),
    st.sampled_from(["w", "b", "x"]),
    st.sampled_from(["-", "KQkq", "K", "q", "Kk"]),
    st.sampled_from(["-", "e3", "e6", "j6", "a3"]),
    st.sampled_from(["chess", "royal"]),
)
def test_fuzz_structured_placements(placement, side, castling, ep, variant) -> None:
    _accept_or_reject(f"{placement} {side} {castling} {ep} 0 1", variant)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Board("garbage")
    assert issubclass(InvalidFenError, ChessError)
    assert issubclass(ChessError, ValueError)
