"""The C core's binding (``royalchess._core.Position``) under hostile use.

Everything here calls the binding directly, as documented in ``docs/core-binding.md``: bad
move codes, squares and depths give Python exceptions, never a crash or a changed position;
copies are independent; long games grow the history; make/unmake restores everything. Run
under AddressSanitizer + UBSan by ``tests/sanitize.sh``.
"""

from __future__ import annotations

import random

import pytest
from _support import CHESS_START, FAST, ROYAL_SEED_FENS, ROYAL_START

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
