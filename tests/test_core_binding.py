"""The C core's binding (``royalchess._core.Position``) under hostile use.

Everything here calls the binding directly, as documented in ``docs/core-binding.md``: bad
move codes, squares and depths give Python exceptions, never a crash or a changed position;
copies are independent; long games grow the history; make/unmake restores everything. Run
under AddressSanitizer + UBSan by ``tests/sanitize.sh``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from _support import CHESS_START, FAST, ROYAL_SEED_FENS, ROYAL_START

import royalchess
from royalchess import _core

VARIANTS = [(0, CHESS_START), (1, ROYAL_START)]


def _snapshot(pos: _core.Position) -> tuple:
    return (
        pos.fen(),
        pos.hash(),
        pos.ply(),
        sorted(pos.legal_moves()),
        pos.board(),
        pos.repetition_count(),
        pos.castling_rights(),
        pos.ep_square(),
        pos.recapture_square(),
    )


@pytest.mark.parametrize("variant,fen", VARIANTS)
def test_bad_arguments_raise_and_change_nothing(variant: int, fen: str) -> None:
    pos = _core.Position(fen, variant)
    before = _snapshot(pos)
    squares = pos.files * pos.ranks
    legal = set(pos.legal_moves())
    bad_codes = [
        0,
        1,
        2**49 - 1,
        2**63,
        2**64 - 1,
        12345678901234,
        *(c ^ (1 << b) for c in sorted(legal)[:4] for b in range(0, 49, 3)),
    ]
    for code in bad_codes:
        if code in legal:
            continue
        assert pos.is_legal(code) is False
        for method in (pos.push, pos.gives_check, pos.is_capture, pos.is_en_passant):
            with pytest.raises(ValueError):
                method(code)
    for code in (-1, 2**64, 2**100):
        assert pos.is_legal(code) is False
        with pytest.raises((ValueError, OverflowError)):
            pos.push(code)
    for arg in ("e2e4", None, 1.5):
        with pytest.raises(TypeError):
            pos.push(arg)
    for sq in (-1, squares, squares + 100, 2**40, -(2**40)):
        with pytest.raises((ValueError, OverflowError)):
            pos.piece_at(sq)
        with pytest.raises((ValueError, OverflowError)):
            pos.guard_moves(sq)
    for sq in range(squares):
        pos.piece_at(sq)
        pos.guard_moves(sq)
    for depth in (-1, 33, 2**31, -(2**31)):
        with pytest.raises((ValueError, OverflowError)):
            pos.perft(depth)
    for depth in (0, -1, 33):
        with pytest.raises(ValueError):
            pos.divide(depth)
    with pytest.raises(IndexError):
        pos.pop()
    with pytest.raises((ValueError, TypeError)):
        _core.Position(fen, 2)
    with pytest.raises(TypeError):
        _core.Position(None, variant)
    assert _snapshot(pos) == before


def test_uninitialised_and_reinitialised_positions() -> None:
    raw = _core.Position.__new__(_core.Position)
    with pytest.raises(RuntimeError):
        raw.fen()
    with pytest.raises(RuntimeError):
        raw.legal_moves()
    pos = _core.Position(CHESS_START, 0)
    pos.push(pos.legal_moves()[0])
    pos.__init__(ROYAL_START, 1)
    assert pos.fen() == ROYAL_START and pos.ply() == 0 and pos.files == 10
    with pytest.raises(ValueError):
        pos.__init__("garbage", 0)
    with pytest.raises(RuntimeError):
        pos.fen()


@pytest.mark.parametrize("variant,fen", [(0, CHESS_START)] + [(1, f) for f in ROYAL_SEED_FENS])
def test_long_random_games_make_and_unmake(variant: int, fen: str) -> None:
    """Play long games (past the initial history reserve), checking every query on the way,
    then take every move back: each earlier snapshot must come back exactly."""
    rng = random.Random(hash((variant, fen)) & 0xFFFF)
    pos = _core.Position(fen, variant)
    for _game in range(1 if FAST else 3):
        snapshots = []
        for _ in range(150 if FAST else 600):
            moves = pos.legal_moves()
            if not moves:
                break
            snapshots.append(_snapshot(pos))
            for code in moves[:8]:
                assert pos.is_legal(code)
                pos.gives_check(code)
                pos.is_capture(code)
                pos.is_en_passant(code)
            pos.promotion_choices()
            pos.is_insufficient_material()
            pos.is_check()
            copy = pos.copy()
            pos.push(rng.choice(moves))
            assert copy.fen() != pos.fen() or copy.ply() != pos.ply()
            del copy
        while snapshots:
            pos.pop()
            assert _snapshot(pos) == snapshots.pop()
        assert pos.fen() == fen


CASTLING_FENS = [
    (0, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    (0, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"),
    (0, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    (0, "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1"),
    (0, "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1"),  # in check: no castling
    (0, CHESS_START),
    (1, "r2gqkwb1r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2GQKW2R w KQkq - 0 1"),
    (1, "r4kw2r/10/10/10/10/10/10/R2G1K3R w KQkq - 0 1"),
    (1, "r3gkw2r/10/10/10/3b6/10/10/R3GKW2R w KQkq - 0 1"),
    (1, ROYAL_START),
]
# the standard-chess castlings as (king from, king to, rook from, rook to), public squares
CHESS_CASTLINGS = {(4, 6, 7, 5), (4, 2, 0, 3), (60, 62, 63, 61), (60, 58, 56, 59)}


@pytest.mark.parametrize(("variant", "fen"), CASTLING_FENS)
def test_the_core_marks_castling_in_both_games(variant: int, fen: str) -> None:
    """``castling_moves`` lists exactly the legal moves that ``is_castling`` marks, with their
    Rook squares; in chess the code is the King's move alone, in Royal Chess it carries the
    castling bit and the same Rook squares."""
    pos = _core.Position(fen, variant)
    legal = pos.legal_moves()
    marked = [c for c in legal if pos.is_castling(c)]
    listed = pos.castling_moves()
    assert [c for c, _, _ in listed] == marked
    for code, rook_from, rook_to in listed:
        if variant == 0:
            assert code >> 14 == 0
            assert (code & 0x7F, code >> 7 & 0x7F, rook_from, rook_to) in CHESS_CASTLINGS
        else:
            assert code & 1 << 19
            assert (code >> 20 & 0x7F, code >> 27 & 0x7F) == (rook_from, rook_to)
    assert all(not c & 1 << 19 for c in legal if c not in marked)
    with pytest.raises(ValueError):
        pos.is_castling(1 << 60)
    expected = {
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1": 2,
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1": 2,
        "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1": 1,
        "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1": 0,
        CHESS_START: 0,
        ROYAL_START: 0,
    }
    if fen in expected:
        assert len(listed) == expected[fen]
    elif variant == 1:
        assert listed


def test_copies_are_independent() -> None:
    pos = _core.Position(CHESS_START, 0)
    for _ in range(300):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(moves[len(moves) // 3])
    twin = pos.copy()
    assert twin.fen() == pos.fen() and twin.ply() == pos.ply() and twin.hash() == pos.hash()
    assert twin.repetition_count() == pos.repetition_count()
    while twin.ply():
        twin.pop()
    assert twin.fen() == CHESS_START
    assert pos.ply() > 0
    del pos
    assert twin.perft(2) == 400


def test_divide_matches_perft_in_both_variants() -> None:
    for variant, fen in VARIANTS:
        pos = _core.Position(fen, variant)
        parts = pos.divide(3)
        assert sorted(c for c, _ in parts) == sorted(pos.legal_moves())
        assert sum(n for _, n in parts) == pos.perft(3) == pos.perft(3, False)


# -- _core.Search: one call at a time, even when converting an argument runs Python code ----


class _Reenter:
    """An integer argument whose conversion (``__index__``) first makes *call*, which tries
    to use the Search that is converting it; the error that call gets is kept."""

    def __init__(self, value: int, call) -> None:
        self.value, self.call, self.errors = value, call, []

    def __index__(self) -> int:
        try:
            self.call()
        except RuntimeError as exc:
            self.errors.append(str(exc))
        return self.value


def _busy(errors: list[str]) -> bool:
    return len(errors) == 1 and "busy" in errors[0]


def _reentering_moves(code: int, call, errors: list[str]):
    """Move codes as a generator that first makes *call* (reading the moves runs it)."""
    try:
        call()
    except RuntimeError as exc:
        errors.append(str(exc))
    yield code


def test_search_refuses_a_reentrant_call_made_while_converting_arguments() -> None:
    search = _core.Search(1)
    e2e4 = next(c for c in _core.Position(CHESS_START, 0).legal_moves() if c == 12 | 28 << 7)
    calls = {
        "go": lambda: search.go(CHESS_START, 0, depth=1),
        "resize": lambda: search.resize(2),
        "set_threads": lambda: search.set_threads(2),
        "clear": lambda: search.clear(),
        "evaluate": lambda: search.evaluate(CHESS_START, 0),
        "see": lambda: search.see(CHESS_START, 0, e2e4),
        "params": lambda: search.params(),
        "set_param": lambda: search.set_param("tempo", 0),
    }
    tempo = search.params()["tempo"]
    for name, call in calls.items():
        # every argument kind go() converts: an int, a move code in `moves`, a bool flag
        depth = _Reenter(2, call)
        result = search.go(CHESS_START, 0, depth=depth)
        assert _busy(depth.errors), (name, depth.errors)
        assert result["best"] is not None and result["depth"] == 2
        errors: list[str] = []
        result = search.go(CHESS_START, 0, _reentering_moves(e2e4, call, errors), depth=1)
        assert _busy(errors), (name, errors)
        assert result["best"] is not None
        errors = []
        result = search.go(
            CHESS_START, 0, depth=1, searchmoves=_reentering_moves(e2e4, call, errors)
        )
        assert _busy(errors), (name, errors)
        assert result["best"] == e2e4
        # and the other guarded calls' own arguments (resize() takes only a real int)
        errors = []
        moves = _reentering_moves(e2e4, call, errors)
        assert isinstance(search.evaluate(CHESS_START, 0, moves), int)
        assert _busy(errors), (name, errors)
        variant = _Reenter(0, call)
        assert search.see(CHESS_START, variant, e2e4) == 0
        assert _busy(variant.errors), (name, variant.errors)
        value = _Reenter(tempo, call)
        search.set_param("tempo", value)
        assert _busy(value.errors), (name, value.errors)
        assert search.busy is False
    assert search.params()["tempo"] == tempo


def test_search_is_released_when_a_conversion_fails() -> None:
    search = _core.Search(1)

    class Bad:
        def __index__(self) -> int:
            raise ZeroDivisionError("no index")

    def moves():
        yield 12 | 28 << 7
        raise ZeroDivisionError("no more moves")

    class Flag:
        def __bool__(self) -> bool:
            raise ZeroDivisionError("no truth")

    for call in (
        lambda: search.go(CHESS_START, 0, depth=Bad()),
        lambda: search.go(CHESS_START, 0, moves(), depth=1),
        lambda: search.go(CHESS_START, 0, depth=1, searchmoves=moves()),
        lambda: search.go(CHESS_START, 0, depth=1, infinite=Flag()),
        lambda: search.evaluate(CHESS_START, 0, moves()),
        lambda: search.see(CHESS_START, Bad(), 12 | 28 << 7),
        lambda: search.set_param("tempo", Bad()),
    ):
        with pytest.raises(ZeroDivisionError):
            call()
        assert search.busy is False
    with pytest.raises(TypeError):
        search.resize(Bad())
    assert search.busy is False
    assert search.go(CHESS_START, 0, depth=2)["best"] is not None


def test_search_refuses_calls_from_its_own_progress_callback() -> None:
    search = _core.Search(1)
    errors: list[str] = []

    def progress(info: dict[str, object]) -> None:
        assert search.busy is True
        for call in (
            lambda: search.go(CHESS_START, 0, depth=1),
            lambda: search.resize(2),
            lambda: search.set_threads(2),
            lambda: search.clear(),
        ):
            try:
                call()
            except RuntimeError as exc:
                errors.append(str(exc))

    result = search.go(CHESS_START, 0, depth=3, callback=progress)
    assert result["best"] is not None and result["depth"] == 3
    assert errors and all("busy" in e for e in errors) and len(errors) % 4 == 0
    assert search.threads == 1


def test_search_threads() -> None:
    search = _core.Search(1)
    assert search.threads == 1
    for bad in (0, -1, 65, 2**70):
        with pytest.raises((ValueError, OverflowError)):
            search.set_threads(bad)
    with pytest.raises(TypeError):
        search.set_threads("2")  # type: ignore[arg-type]
    assert search.threads == 1 and search.busy is False
    # grown, shrunk and grown again, with the net set and taken away between (each helper
    # evaluates with accumulators of its own for the nets of the moment; the sanitized
    # build checks the memory)
    net = _core.Net((Path(royalchess.__file__).parent / "nets" / "chess.nnue").read_bytes(), 0)
    for threads, with_net in ((4, True), (2, False), (1, True), (3, True), (3, False)):
        search.set_threads(threads)
        search.set_net(0, net if with_net else None)
        assert search.threads == threads
        result = search.go(CHESS_START, 0, depth=6)
        assert result["best"] is not None and result["depth"] == 6
        assert search.go(CHESS_START, 0, depth=5, multipv=3)["best"] is not None


def test_search_refuses_another_thread_while_converting_arguments() -> None:
    """The race of issue 8: a thread converting go()'s arguments lets another thread run;
    that thread's go() and resize() must be refused, not share the position and table."""
    import threading

    search = _core.Search(1)
    converting, tried = threading.Event(), threading.Event()
    errors: list[str] = []

    class Slow:
        def __index__(self) -> int:
            converting.set()
            assert tried.wait(30)
            return 2

    def other() -> None:
        assert converting.wait(30)
        for call in (lambda: search.go(CHESS_START, 0, depth=1), lambda: search.resize(2)):
            try:
                call()
            except RuntimeError as exc:
                errors.append(str(exc))
        tried.set()

    thread = threading.Thread(target=other)
    thread.start()
    result = search.go(CHESS_START, 0, depth=Slow())
    thread.join(30)
    assert len(errors) == 2 and all("busy" in e for e in errors), errors
    assert result["best"] is not None and result["depth"] == 2
    assert search.busy is False


def test_see_threshold_test_agrees_with_the_exchange_value() -> None:
    """The search asks "does this exchange reach t?" (see_ge, which stops as soon as it
    knows); see() without a threshold plays the whole exchange out: they must agree."""
    search = _core.Search(1)
    rng = random.Random(17)
    checked = 0
    for variant, start in ((0, CHESS_START), (1, ROYAL_START)):
        for _ in range(40):
            pos = _core.Position(start, variant)
            for _ in range(rng.randrange(10, 90)):
                moves = pos.legal_moves()
                if not moves:
                    break
                fen = pos.fen()
                for code in moves:
                    value = search.see(fen, variant, code)
                    for t in (value - 1, value, value + 1, 0, rng.randrange(-1500, 1500)):
                        assert search.see(fen, variant, code, t) is (value >= t), (fen, code, t)
                        checked += 1
                pos.push(rng.choice(moves))
    assert checked > 100_000
    e2e4 = 12 | 28 << 7
    with pytest.raises(TypeError):
        search.see(CHESS_START, 0, e2e4, "100")
    with pytest.raises(ValueError, match="threshold out of range"):
        search.see(CHESS_START, 0, e2e4, 10**7)
    with pytest.raises(OverflowError):
        search.see(CHESS_START, 0, e2e4, 10**30)


def test_see_values_of_known_exchanges() -> None:
    search = _core.Search(1)
    params = search.params()
    # exchanges count the mean of a piece's middlegame and endgame values
    pawn = (params["pawn_mg"] + params["pawn_eg"]) // 2
    knight = (params["knight_mg"] + params["knight_eg"]) // 2

    def square(sq: int) -> str:
        return "abcdefgh"[sq % 8] + str(sq // 8 + 1)

    def see(fen: str, uci: str) -> int:
        pos = _core.Position(fen, 0)
        codes = pos.legal_moves()
        (code,) = (c for c in codes if square(c & 127) + square(c >> 7 & 127) == uci)
        return search.see(fen, 0, code)

    # a free pawn; a pawn defended by a pawn, taken by a pawn and by a Knight
    assert see("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1", "d4e5") == pawn
    assert see("4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1", "d4e5") == 0
    assert see("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5") == pawn - knight
    # a quiet move to a square a pawn guards loses the piece; to a safe one, nothing
    assert see("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5") == -knight
    assert see("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", "f3e5") == 0
