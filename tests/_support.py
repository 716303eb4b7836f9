"""Helpers shared by the proof tests: the data files, workload sizes, random play.

The data the tests read lives in the repository, in ``tests/data/`` (see its README for each
file's source and licence); nothing is read from outside the repository. Missing data is a
test *failure* (never a skip): a proof that silently does not run proves nothing.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

FAST = os.environ.get("ROYALCHESS_FAST", "") not in ("", "0")
"""Shrink workloads (sanitizer run)."""

REPO = Path(__file__).resolve().parents[1]

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ROYAL_START = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"

# Royal Chess positions that random play from the start rarely reaches: Guard promotions
# with queen powers (``*``), rook pairs and the recapture field 7, castling with Guards
# between King and Rook, en passant.
# The position record example of spec section 9 (the seed's own format).
SPEC_RECORD = """\
7 g' k,
p p 4 r p p p,
2 p g 1 R p n,
3 p b,
0,
2 P B 2 N,
P P 1 Q 1 G P P P P,
7 K G',
BM 41
"""


ROYAL_SEED_FENS = (
    ROYAL_START,
    # every kind captured: a pawn on the 7th may promote to anything, Guards with queen powers
    "k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1",
    "r4k3r/1P6p1/10/10/10/10/1p6P1/R4K3R w KQkq - 0 1",
    "G*3k5/10/10/10/10/10/3K6/9w* b - - 0 1",
    # rook pairs on a file and a rank with Guards between; recapture right on a3 (field 7)
    "4k5/10/10/10/10/nR2W1R3/10/4K5 b - - 0 1",
    "5k4/10/10/10/10/r1W1R5/10/R4K4 w - - 0 1 a3",
    "5k4/10/r9/G9/10/R9/10/5K4 b - - 0 1",
    # castling with Guards between, Guards able to move first
    "r2gqkwb1r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2GQKW2R w KQkq - 0 1",
    "r4kw2r/10/10/10/10/10/10/R2G1K3R w KQkq - 0 1",
    "r3gkw2r/10/10/10/3b6/10/10/R3GKW2R w KQkq - 0 1",
    # en passant possible
    "rnbgqkwbnr/pppp1ppppp/10/10/3Pp5/10/PPP1PPPPPP/RNBGQKWBNR b KQkq d3 0 3",
)


@dataclass(frozen=True)
class PerftEntry:
    """One line of a perft EPD file: a FEN and the node count at each depth."""

    line: int
    fen: str
    counts: dict[int, int]


DATA = REPO / "tests" / "data"
"""The tests' data directory (in the repository)."""


def perft_epd_path() -> Path:
    """Path of the standard-chess perft suite, ``tests/data/perft-standard.epd``."""
    return DATA / "perft-standard.epd"


class MissingDataError(Exception):
    """The perft data file is not where the tests expect it."""


def load_perft_epd() -> list[PerftEntry]:
    """Read the perft EPD file; raise :class:`MissingDataError` naming the path if absent."""
    path = perft_epd_path()
    if not path.is_file():
        raise MissingDataError(
            f"perft data not found at {path}: it is part of the repository "
            f"(tests/data/perft-standard.epd); restore it with git"
        )
    entries = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        fen, *ops = (part.strip() for part in raw.split(";"))
        counts = {}
        for op in ops:
            if not op:
                continue
            name, value = op.split()
            if not (name.startswith("D") and name[1:].isdigit()):
                raise ValueError(f"{path}:{number}: unexpected operation {op!r}")
            counts[int(name[1:])] = int(value)
        if len(fen.split()) == 4:
            fen += " 0 1"
        entries.append(PerftEntry(number, fen, counts))
    if not entries:
        raise MissingDataError(f"perft data file {path} holds no positions")
    return entries


def require_perft_epd() -> list[PerftEntry]:
    """Like :func:`load_perft_epd`, but fail the calling test with a clear message."""
    try:
        return load_perft_epd()
    except MissingDataError as exc:
        pytest.fail(str(exc), pytrace=False)


def epd_fens() -> list[str]:
    """FENs of the perft file; raises :class:`MissingDataError` if it is missing, so every
    test that draws positions from it fails instead of running on less."""
    return [e.fen for e in load_perft_epd()]


def random_play(board, rng: random.Random, plies: int) -> None:
    """Play up to *plies* random legal moves on *board* (in place); stop at the game's end."""
    for _ in range(plies):
        if board.outcome() is not None:
            return
        moves = list(board.legal_moves)
        board.push(moves[rng.randrange(len(moves))])


def reached_positions(max_plies: int):
    """A hypothesis strategy of Boards of both games reached by random play from the perft
    file's positions (chess) or the Royal seed positions, up to *max_plies* plies."""
    from hypothesis import strategies as st

    from royalchess import Board

    starts = {"chess": epd_fens(), "royal": list(ROYAL_SEED_FENS)}

    def reach(variant: str, start_index: int, seed: int, plies: int) -> Board:
        board = Board(starts[variant][start_index % len(starts[variant])], variant=variant)
        random_play(board, random.Random(seed), plies)
        return board

    return st.builds(
        reach,
        st.sampled_from(["chess", "royal"]),
        st.integers(0, 10_000),
        st.integers(0, 2**32 - 1),
        st.integers(0, max_plies),
    )


def examples(n: int):
    """Hypothesis settings for *n* examples (a twentieth of them, at least 10, when FAST)."""
    from hypothesis import settings

    return settings(max_examples=max(10, n // 20) if FAST else n)
