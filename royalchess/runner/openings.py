"""Openings for matches: the built-in balanced sets, or a file of the user's.

Built in (package data, ``openings/``): ``chess.txt``, lines of common opening theory (four
to ten plies), and ``royal.txt``, four-ply Royal Chess openings picked at random among the
moves a short full-strength search scores within 40 centipawns of the best (made once by
:func:`generate_royal`, seed 1, and kept fixed so that every run plays the same ones).

A user's file (``--openings FILE``) is PGN (``.pgn``: each game's start position and main
line) or one opening a line: an EPD/FEN (the first four fields are enough), or UCI moves
from the start position. ``#`` starts a comment line.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from royalchess.board import Board
from royalchess.errors import ChessError

__all__ = [
    "Opening",
    "builtin_openings",
    "generate",
    "generate_royal",
    "load_openings",
    "read_openings",
]


@dataclass(frozen=True, slots=True)
class Opening:
    """A start position (``fen`` ``None``: the variant's own) and moves from it (UCI)."""

    fen: str | None
    moves: tuple[str, ...]

    def board(self, variant: str) -> Board:
        """The position after the opening (``ChessError`` if it is not one of *variant*)."""
        board = Board(self.fen, variant=variant)
        for uci in self.moves:
            board.push_uci(uci)
        return board


def read_openings(text: str, variant: str, *, pgn: bool = False, where: str = "") -> list[Opening]:
    """Parse openings (see the module notes); ``ValueError`` names the bad line."""
    openings: list[Opening] = []
    if pgn:
        from royalchess import pgn as pgnlib

        for number, game in enumerate(pgnlib.read_games(text), 1):
            if game.errors:
                raise ValueError(f"{where}game {number}: {game.errors[0]}")
            if game.variant != variant:
                raise ValueError(f"{where}game {number} is {game.variant}, not {variant}")
            fen = game.headers.get("FEN")
            openings.append(Opening(fen, tuple(m.uci() for m in game.mainline_moves())))
        return openings
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if "/" in fields[0]:
            # EPD: four fields and operations, or a whole FEN
            fen_fields = fields[:6] if len(fields) >= 6 and fields[4].isdigit() else fields[:4]
            opening = Opening(" ".join(fen_fields), ())
        else:
            opening = Opening(None, tuple(fields))
        try:
            opening.board(variant)
        except ChessError as exc:
            raise ValueError(f"{where}line {number}: {exc}") from None
        openings.append(opening)
    return openings


def builtin_openings(variant: str) -> list[Opening]:
    """The built-in balanced openings of *variant*."""
    name = "chess.txt" if variant == "chess" else "royal.txt"
    text = resources.files("royalchess.runner").joinpath("openings", name).read_text("utf-8")
    return read_openings(text, variant)


def load_openings(path: str | None, variant: str) -> list[Opening]:
    """The openings of *path*, or the built-in set when *path* is ``None``."""
    if path is None:
        return builtin_openings(variant)
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read openings {path!r}: {exc}") from None
    openings = read_openings(text, variant, pgn=file.suffix.lower() == ".pgn", where=f"{path}: ")
    if not openings:
        raise ValueError(f"no openings in {path!r}")
    return openings


def generate(
    variant: str, count: int, seed: int = 1, plies: int = 4, depth: int = 5
) -> list[Opening]:
    """*count* distinct balanced openings: *plies* moves, each picked at random among those a
    depth-*depth* MultiPV search scores within 40 cp of the best. Royal Chess starts from the
    initial position (how ``royal.txt`` was made); chess from a random line of the built-in
    theory set, so that many more distinct openings than its 40 lines can be had (the
    fixed-node matches of bench/README.md need them: a repeated opening repeats its game)."""
    from royalchess.engine import Engine, Limit

    rng = random.Random(seed)
    engine = Engine(hash_mb=4)
    bases = [o.moves for o in builtin_openings(variant)] if variant == "chess" else [()]
    out: list[Opening] = []
    while len(out) < count:
        line = list(rng.choice(bases))
        board = Board(variant=variant)
        for uci in line:
            board.push_uci(uci)
        for _ in range(plies):
            lines = engine.analyse(board, Limit(depth=depth), multipv=8)
            best = lines[0].score.value()
            good = [i.move for i in lines if best - i.score.value() <= 40 and i.move is not None]
            move = rng.choice(good)
            line.append(move.uci())
            board.push(move)
        opening = Opening(None, tuple(line))
        if opening not in out:
            out.append(opening)
    return out


def generate_royal(count: int, seed: int = 1, plies: int = 4, depth: int = 5) -> list[Opening]:
    """Balanced Royal Chess openings (generate("royal", ...))."""
    return generate("royal", count, seed, plies, depth)


if __name__ == "__main__":  # python -m royalchess.runner.openings [COUNT [VARIANT [SEED]]]
    _args = sys.argv[1:]
    _variant = _args[1] if len(_args) > 1 else "royal"
    _seed = int(_args[2]) if len(_args) > 2 else 1
    for item in generate(_variant, int(_args[0]) if _args else 60, _seed):
        print(" ".join(item.moves))
