"""``royalchess datagen``: self-play positions for training an evaluation.

Each unit is one game: a few random plies from the start position (``random_plies``,
seeded per game), then the full-strength engine plays both sides at fixed nodes per move,
with a fresh hash table (so a game is the same on any worker). Each position where the side
to move is not in check and the engine's move is quiet (not a capture or a promotion) is
recorded with the search score; the game's result is stored with its positions. A game
ends by the rules, when both sides' scores are beyond 1000 cp the same way for 4 plies (a
win), or at 300 plies (a draw).

The file format (little-endian), version 1::

    file    := magic game*
    magic   := b"RCDATA1\\n"                          8 bytes
    game    := id:u32 variant:u8 result:i8 count:u16  8 bytes, then count positions
               variant 0 = chess, 1 = royal; result +1 White won, 0 draw, -1 Black won
    position:= score:i16 ply:u16 length:u8 fen:length bytes (ASCII)
               score: centipawns for the side to move, a mate as +-32000

About 70 bytes a position. Games are appended whole as they finish, so a cut-off last game
is dropped by ``--resume``, and :func:`read_positions` reads any complete prefix.
"""

from __future__ import annotations

import lzma
import os
import random
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count as counter
from pathlib import Path

from royalchess.board import Board
from royalchess.engine import Engine, Limit
from royalchess.nnue import load_net
from royalchess.runner.backends import Backend
from royalchess.runner.output import open_output
from royalchess.runner.progress import progress_bar
from royalchess.runner.units import unit_seed

__all__ = [
    "MAGIC",
    "DatagenUnit",
    "GameData",
    "Position",
    "encode_game",
    "read_games",
    "read_positions",
    "run_datagen",
]

MAGIC = b"RCDATA1\n"
_GAME = struct.Struct("<IBbH")
_POSITION = struct.Struct("<hHB")
_VARIANTS = ("chess", "royal")
_SCORE_MAX = 32000
_RESIGN_CP, _RESIGN_PLIES, _MAX_PLIES = 1000, 4, 300


@dataclass(frozen=True, slots=True)
class Position:
    """One training position."""

    fen: str
    variant: str
    score: int
    """Centipawns for the side to move (a mate is +-32000)."""
    ply: int
    result: int
    """The game's result for White: +1, 0, -1."""

    @property
    def stm_result(self) -> int:
        """The game's result for the side to move."""
        return self.result if " w " in self.fen else -self.result


@dataclass(frozen=True, slots=True)
class GameData:
    """The positions of one game, as a unit hands them back."""

    id: int
    variant: str
    result: int
    positions: tuple[tuple[str, int, int], ...]
    """(FEN, score, ply) each."""
    plies: int


def encode_game(game: GameData, limit: int | None = None) -> bytes:
    """One game block of the file format (the first *limit* positions only, if given)."""
    positions = game.positions if limit is None else game.positions[:limit]
    parts = [_GAME.pack(game.id, _VARIANTS.index(game.variant), game.result, len(positions))]
    for fen, score, ply in positions:
        data = fen.encode("ascii")
        parts.append(_POSITION.pack(score, ply, len(data)) + data)
    return b"".join(parts)


def _blocks(data: bytes) -> Iterator[tuple[int, GameData]]:
    """(end offset, game) for each complete game block of file *data*."""
    if not data.startswith(MAGIC):
        raise ValueError("not a royalchess datagen file (bad magic)")
    at = len(MAGIC)
    while at + _GAME.size <= len(data):
        game_id, variant, result, n = _GAME.unpack_from(data, at)
        pos = at + _GAME.size
        positions = []
        for _ in range(n):
            if pos + _POSITION.size > len(data):
                return
            score, ply, length = _POSITION.unpack_from(data, pos)
            pos += _POSITION.size
            if pos + length > len(data):
                return
            positions.append((data[pos : pos + length].decode("ascii"), score, ply))
            pos += length
        at = pos
        yield at, GameData(game_id, _VARIANTS[variant], result, tuple(positions), 0)


def _prefix(data: bytes) -> int:
    end = len(MAGIC) if data.startswith(MAGIC) else 0
    for block_end, _ in _blocks(data):
        end = block_end
    return end


_XZ_MAGIC = b"\xfd7zXZ\x00"


def read_games(path: str | os.PathLike[str]) -> Iterator[GameData]:
    """The complete games of a datagen file, plain or xz-compressed (as the data sets kept
    in the repository are: ``xz`` shrinks them about six times)."""
    data = Path(path).read_bytes()
    if data.startswith(_XZ_MAGIC):
        data = lzma.decompress(data)
    for _, game in _blocks(data):
        yield game


def read_positions(path: str | os.PathLike[str]) -> Iterator[Position]:
    """Every position of a datagen file, in file order.

    >>> # for p in read_positions("data.bin"): p.fen, p.score, p.result
    """
    for game in read_games(path):
        for fen, score, ply in game.positions:
            yield Position(fen, game.variant, score, ply, game.result)


@dataclass(frozen=True, slots=True)
class DatagenUnit:
    """One self-play game."""

    id: int
    variant: str
    seed: int
    nodes: int
    random_plies: int = 8
    hash_mb: int = 16
    eval_file: str | None = None
    """An NNUE net to play with (docs/nnue.md), else the classic evaluation; the path must
    exist wherever the unit runs."""

    def run(self) -> GameData:
        return play_datagen_game(self)


def play_datagen_game(unit: DatagenUnit) -> GameData:
    """Play *unit*'s game and return its quiet positions with their scores."""
    rng = random.Random(unit_seed(unit.seed, "datagen", unit.id))
    board = Board(variant=unit.variant)
    for _ in range(unit.random_plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    engine = Engine(
        hash_mb=unit.hash_mb,
        evaluation="classic" if unit.eval_file is None else "nnue",
        eval_file=unit.eval_file,
    )
    limit = Limit(nodes=unit.nodes)
    positions: list[tuple[str, int, int]] = []
    streak, sign = 0, 0
    result = 0
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = 0 if outcome.winner is None else (1 if outcome.winner else -1)
            break
        if board.ply() >= _MAX_PLIES:
            break
        found = engine.search(board, limit, strength=False)
        move = found.move
        assert move is not None
        score = found.lines[0].score.value() if found.lines else 0
        score = max(-_SCORE_MAX, min(_SCORE_MAX, score))
        quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
        if quiet:
            positions.append((board.fen(), score, board.ply()))
        white_score = score if board.turn else -score
        now = (white_score > 0) - (white_score < 0)
        if abs(white_score) >= _RESIGN_CP:
            streak = streak + 1 if now == sign else 1
            sign = now
        else:
            streak = 0
        board.push(move)
        if streak >= _RESIGN_PLIES:
            result = sign
            break
    return GameData(unit.id, unit.variant, result, tuple(positions), board.ply())


@dataclass
class DatagenOutcome:
    """What :func:`run_datagen` did."""

    games: int
    positions: int
    resumed_positions: int
    seconds: float
    workers: int
    interrupted: bool = False

    @property
    def per_core(self) -> float:
        """New positions per second per worker."""
        if self.seconds <= 0:
            return 0.0
        return (self.positions - self.resumed_positions) / self.seconds / self.workers


def run_datagen(
    output: str,
    backend: Backend,
    *,
    positions: int,
    variant: str = "chess",
    nodes: int = 5000,
    random_plies: int = 8,
    seed: int = 1,
    resume: bool = False,
    quiet: bool = False,
    eval_file: str | None = None,
) -> DatagenOutcome:
    """Self-play until the file at *output* holds *positions* positions (with the NNUE net
    *eval_file* when given: the generation loop of docs/nnue.md)."""
    if eval_file is not None:
        load_net(eval_file, variant)  # a bad net stops here, named, before any game
    sink = open_output(output, resume=resume, prefix=_prefix, header=MAGIC)
    done: set[int] = set()
    have = 0
    for _, game in _blocks(sink.kept):
        if game.variant != variant:
            sink.close()
            raise ValueError(f"{output} holds {game.variant} games, not {variant}")
        done.add(game.id)
        have += len(game.positions)
    resumed = have
    units = (
        DatagenUnit(i, variant, seed, nodes, random_plies, eval_file=eval_file)
        for i in counter()
        if i not in done
    )
    games = 0
    interrupted = False
    start = time.monotonic()
    try:
        with progress_bar(positions, "datagen", done=min(have, positions), quiet=quiet) as bar:
            if have < positions:
                results = backend.map(units)
                try:
                    for _, game in results:
                        take = min(len(game.positions), positions - have)
                        sink.write(encode_game(game, take))
                        games += 1
                        have += take
                        bar(take)
                        if have >= positions:
                            break
                finally:
                    results.close()  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close()
    return DatagenOutcome(
        games, have, resumed, time.monotonic() - start, backend.workers, interrupted
    )
