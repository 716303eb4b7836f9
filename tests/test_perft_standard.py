"""Perft proof for standard chess: every position of ``tests/data/perft-standard.epd``.

The default run checks each position at every depth whose node count is at most
``ROYALCHESS_PERFT_MAX_NODES`` (default 5,000,000; 20,000 with ``ROYALCHESS_FAST=1``); the
slow test checks every depth of the file (about 4.8e9 nodes). Also checked here: bulk and
non-bulk counting agree, ``divide`` sums to ``perft``, perft leaves the board unchanged, and
the command-line contract of ``royalchess perft``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from _support import CHESS_START, FAST, MissingDataError, load_perft_epd, require_perft_epd

import royalchess
from royalchess import Board

MAX_NODES = int(os.environ.get("ROYALCHESS_PERFT_MAX_NODES", "20000" if FAST else "5000000"))

try:
    ENTRIES = load_perft_epd()
    MISSING = None
except MissingDataError as exc:
    ENTRIES = []
    MISSING = str(exc)

IDS = [f"line{e.line}" for e in ENTRIES]


def test_perft_data_present() -> None:
    """The data file must be there and complete: 127 positions, each with counts."""
    entries = require_perft_epd()
    assert len(entries) == 127, f"expected 127 positions, found {len(entries)}"
    for e in entries:
        assert e.counts, f"line {e.line} has no depth counts"
        assert min(e.counts) == 1, f"line {e.line} does not start at depth 1"


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_perft_budgeted_depths(entry) -> None:
    board = Board(entry.fen)
    fen = board.fen()
    depths = [d for d, n in sorted(entry.counts.items()) if n <= MAX_NODES]
    assert depths, f"line {entry.line}: no depth within {MAX_NODES} nodes"
    for depth in depths:
        got = board.perft(depth)
        assert got == entry.counts[depth], (
            f"perft mismatch, line {entry.line} depth {depth}: got {got}, "
            f"expected {entry.counts[depth]} for {entry.fen}"
        )
    assert board.fen() == fen, "perft changed the board"
    assert board.perft(0) == 1


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_divide_and_unbulked_counting(entry) -> None:
    """``divide`` lists each legal move once and sums to perft; the core's bulk and move-by-move
    counting agree (the non-bulk path makes every leaf move)."""
    board = Board(entry.fen)
    depth = max(d for d, n in entry.counts.items() if n <= min(MAX_NODES, 200_000) or d == 1)
    parts = board.divide(depth)
    moves = [m for m, _ in parts]
    assert sorted(m.uci() for m in moves) == sorted(m.uci() for m in board.legal_moves)
    assert sum(n for _, n in parts) == entry.counts[depth]
    for move, n in parts[:3]:
        board.push(move)
        assert board.perft(depth - 1) == n, f"divide count of {move.uci()} in {entry.fen}"
        board.pop()
    core = royalchess._core.Position(entry.fen, 0)
    small = max(d for d, n in entry.counts.items() if n <= 20_000 or d == 1)
    assert core.perft(small, False) == core.perft(small, True) == entry.counts[small]


@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_perft_all_depths(entry) -> None:
    board = Board(entry.fen)
    for depth, expected in sorted(entry.counts.items()):
        got = board.perft(depth)
        assert got == expected, (
            f"perft mismatch, line {entry.line} depth {depth}: got {got}, expected {expected} "
            f"for {entry.fen}"
        )


# -- the command-line contract ---------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "royalchess", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_cli_perft_last_line_is_total() -> None:
    proc = run_cli("perft", "4")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines, f"no output; stderr: {proc.stderr}"
    assert lines[-1] == "197281"


def test_cli_perft_divide() -> None:
    proc = run_cli("perft", "--divide", "3")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "8902"
    parts = {}
    for line in lines[:-1]:
        if not line.strip():
            continue
        move, sep, count = line.partition(": ")
        assert sep and count.isdigit(), f"not a 'MOVE: COUNT' line: {line!r}"
        parts[move] = int(count)
    board = Board()
    assert set(parts) == {m.uci() for m in board.legal_moves}
    assert sum(parts.values()) == 8902
    expected = {m.uci(): n for m, n in board.divide(3)}
    assert parts == expected


def test_cli_perft_fen_and_variant() -> None:
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    proc = run_cli("perft", "--fen", kiwipete, "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "2039"
    proc = run_cli("perft", "--variant", "royal", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == str(Board(variant="royal").perft(2))
    proc = run_cli("perft", "--variant", "chess", "--fen", CHESS_START, "1")
    assert proc.stdout.strip().splitlines()[-1] == "20"


def test_cli_perft_bad_fen_is_an_error() -> None:
    proc = run_cli("perft", "--fen", "not a fen", "1")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "FEN" in proc.stderr
