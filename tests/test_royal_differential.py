"""The core's Royal Chess move generator against the independent reference in
``tests/royal_reference.py`` (written from the rules page only): perft move by move.

Positions come from seeded random Royal Chess games biased towards castling (with and without
a Guard moving first), promotion, Guards across the centre line and Rook pairs with Guards
between them (``tests/royal_positions.py``).
"""

from __future__ import annotations

import pytest
import royal_positions
import royal_reference

from royalchess import Board

POSITIONS = royal_positions.random_positions(200, seed=1)


def our_divide(fen: str, depth: int) -> dict[str, int]:
    board = Board(fen, variant="royal")
    return {move.uci(): count for move, count in board.divide(depth)}


def assert_same(fen: str, depth: int) -> None:
    ours = our_divide(fen, depth)
    theirs = royal_reference.divide(fen, depth)
    diff = {
        m: (ours.get(m), theirs.get(m))
        for m in set(ours) | set(theirs)
        if ours.get(m) != theirs.get(m)
    }
    assert not diff, f"{fen} depth {depth}: move -> (core, reference) {diff}"


def test_positions_cover_the_themes() -> None:
    counts: dict[str, int] = {}
    for fen in POSITIONS:
        for theme in royal_positions.themes(fen):
            counts[theme] = counts.get(theme, 0) + 1
    for theme, count in counts.items():
        assert count >= 10, f"only {count} positions with {theme}: {counts}"
    assert len(counts) >= 8, counts


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_divide_depth_1_and_2(index: int) -> None:
    fen = POSITIONS[index]
    assert Board(fen, variant="royal").fen() == fen
    assert_same(fen, 1)
    assert_same(fen, 2)


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 20))
def test_divide_depth_3_sample(index: int) -> None:
    assert_same(POSITIONS[index], 3)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_divide_depth_3_all(index: int) -> None:
    assert_same(POSITIONS[index], 3)


def test_start_position_counts() -> None:
    board = Board(variant="royal")
    assert [board.perft(d) for d in range(1, 5)] == [24, 576, 15718, 427473]
