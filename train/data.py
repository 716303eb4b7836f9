"""Training data: datagen files (royalchess.runner.datagen) turned into feature tensors.

Features come from the C core (``_core.nnue_features``), the same code the engine evaluates
with, so the trainer and the engine cannot disagree about what an input means.
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import torch

from royalchess import _core
from royalchess.nnue import feature_count, max_pieces
from royalchess.runner.datagen import read_games
from royalchess.variants import get_variant

MATE = 32000
SCORE_CLIP = 3000  # scores beyond this (mates included) are clipped: they say "won"
CACHE_VERSION = 2  # 2: Royal Chess positions are reflected too with mirror


@dataclass
class Dataset:
    """Positions as padded feature indices (padding = the input count) and targets."""

    variant: str
    stm: torch.Tensor  # [n, width] int16 (int32 as extracted; load narrows them)
    nstm: torch.Tensor  # [n, width] int16
    score: torch.Tensor  # [n] float, centipawns for the side to move, clipped
    result: torch.Tensor  # [n] float, 1 win, 0.5 draw, 0 loss for the side to move
    game: torch.Tensor | None = None
    """[n] int64: which game a position comes from (numbered across the files), so that
    held-out positions can be whole games: a game's positions share its result, and a
    position-wise split would let the net see the held-out results."""

    def __len__(self) -> int:
        return int(self.score.shape[0])

    def take(self, idx: torch.Tensor) -> Dataset:
        game = None if self.game is None else self.game[idx]
        return Dataset(
            self.variant, self.stm[idx], self.nstm[idx], self.score[idx], self.result[idx], game
        )


def _tensor(a: array[int] | array[float]) -> torch.Tensor:
    return torch.frombuffer(bytearray(a.tobytes()), dtype=_DTYPES[a.typecode])


_DTYPES = {"i": torch.int32, "f": torch.float32, "q": torch.int64}


def mirror_fen(fen: str, files: int = 8) -> str | None:
    """The position reflected left to right (files swapped: a-h in chess, a-j in Royal Chess
    with *files* 10), or None when a side may still castle: castling is the only rule of
    either game that tells the wings apart (Royal Chess's territories are ranks, its Guards
    move alike to both sides), so without castling rights the reflection is the same
    position with the same score and result — a second training example for free (the usual
    augmentation of small data). Royal Chess's recapture square (FEN field 7) is reflected
    with the board."""
    board, turn, castling, ep, *rest = fen.split(" ")
    if castling != "-":
        return None

    def square(sq: str) -> str:
        return sq if sq == "-" else chr(ord("a") + files - 1 - (ord(sq[0]) - ord("a"))) + sq[1:]

    ranks = []
    for rank in board.split("/"):
        cells = re.findall(r"\d+|[A-Za-z]\*?", rank)
        expanded = [c for cell in cells for c in ([""] * int(cell) if cell.isdigit() else [cell])]
        out, empty = "", 0
        for cell in reversed(expanded):
            if cell:
                out += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        ranks.append(out + (str(empty) if empty else ""))
    if len(rest) >= 3:  # Royal Chess: the recapture square
        rest = [*rest[:2], square(rest[2]), *rest[3:]]
    return " ".join(["/".join(ranks), turn, castling, square(ep), *rest])


def _extract(
    path: str | os.PathLike[str], variant: str | None, mirror: bool = False
) -> Dataset | None:
    """Every position of one datagen file of *variant* (None: the file's first game's);
    None when the file holds none. Games number from 0 within the file. *mirror* adds each
    position without castling rights reflected (mirror_fen)."""
    stm, nstm = array("i"), array("i")
    scores, results, games = array("f"), array("f"), array("q")
    pad = w = core_id = files = 0
    for n, game in enumerate(read_games(path)):
        if variant is None:
            variant = game.variant
        if game.variant != variant:
            continue
        if not w:
            rules = get_variant(variant)
            core_id, files = rules.core_id, rules.files
            # a slot per piece: the most a game can have (promotions add none)
            pad, w = feature_count(variant), max_pieces(variant)
        for fen, score, _ in game.positions:
            stm_result = game.result if " w " in fen else -game.result
            reflected = mirror_fen(fen, files) if mirror else None
            for f in (fen,) if reflected is None else (fen, reflected):
                a, b = _core.nnue_features(f, core_id)
                stm.extend(a + [pad] * (w - len(a)))
                nstm.extend(b + [pad] * (w - len(b)))
                scores.append(float(max(-SCORE_CLIP, min(SCORE_CLIP, score))))
                results.append((stm_result + 1) / 2)
                games.append(n)
    if variant is None or not scores:
        return None
    return Dataset(
        variant,
        _tensor(stm).view(-1, w),
        _tensor(nstm).view(-1, w),
        _tensor(scores),
        _tensor(results),
        _tensor(games),
    )


def _cached(
    path: str | os.PathLike[str],
    variant: str | None,
    cache_dir: str | os.PathLike[str] | None,
    mirror: bool = False,
) -> Dataset | None:
    """_extract(path), through a cache file in *cache_dir* keyed by the data file's name and
    size: datagen files only grow by whole games, so a size names a content (a stale cache
    is never read, only left behind)."""
    if cache_dir is None:
        return _extract(path, variant, mirror)
    size = os.path.getsize(path)
    kind = f"{variant or 'any'}{'.mirror' if mirror else ''}"
    cache = Path(cache_dir) / f"{Path(path).name}.{size}.v{CACHE_VERSION}.{kind}.pt"
    if cache.is_file():
        d = torch.load(cache)
        return Dataset(**d) if d else None
    data = _extract(path, variant, mirror)
    cache.parent.mkdir(parents=True, exist_ok=True)
    # a name of this process's own: two trainings may fill one cache at once
    tmp = cache.with_suffix(f".{os.getpid()}.tmp")
    torch.save(data.__dict__ if data else {}, tmp)
    tmp.replace(cache)
    return data


FEATURE_DTYPE = torch.int16
FEATURE_MAX = torch.iinfo(FEATURE_DTYPE).max  # the padding index is the input count


def _concat(tensors: list[torch.Tensor]) -> torch.Tensor:
    """torch.cat that empties *tensors* as it goes: each part is freed once copied, so the
    peak is the result plus one part, not the result plus all of them."""
    out = torch.empty((sum(len(t) for t in tensors), *tensors[0].shape[1:]), dtype=tensors[0].dtype)
    at = 0
    tensors.reverse()
    while tensors:
        t = tensors.pop()
        out[at : at + len(t)] = t
        at += len(t)
    return out


def load(
    paths: Iterable[str | os.PathLike[str]],
    variant: str | None = None,
    limit: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    mirror: bool = False,
) -> Dataset:
    """Every position of the datagen files (of one game; *variant* picks it when mixed).

    Features go into int16 tensors (the inputs number fewer than 32,768; about 150 bytes a
    chess example with its targets), filled part by part so that loading holds the
    examples about once, not twice; *cache_dir* keeps them between runs. *mirror*
    adds the reflection of each position without castling rights (mirror_fen).
    *limit* counts positions after that."""
    parts: list[Dataset] = []
    games = 0
    for path in paths:
        d = _cached(path, variant, cache_dir, mirror)
        if d is None:
            continue
        variant = d.variant
        assert d.game is not None
        if feature_count(variant) > FEATURE_MAX:
            raise ValueError(f"{variant}: too many inputs for int16 features")
        d.stm, d.nstm = d.stm.to(FEATURE_DTYPE), d.nstm.to(FEATURE_DTYPE)
        d.game = d.game + games
        games = int(d.game[-1]) + 1
        parts.append(d)
    if variant is None or not parts:
        raise ValueError("no positions in the data files")
    fields = ("stm", "nstm", "score", "result", "game")
    columns = {f: [getattr(d, f) for d in parts] for f in fields}
    parts.clear()  # the columns hold the only references: _concat frees each once copied
    data = Dataset(variant, *(_concat(columns[f]) for f in fields))
    if limit is not None and limit < len(data):
        data = data.take(torch.arange(limit))
    return data


def split(data: Dataset, share: float, seed: int) -> tuple[Dataset, Dataset]:
    """(training, validation): a seeded random *share* of the games (of the positions when
    the data has no game numbers) held out."""
    gen = torch.Generator().manual_seed(seed)
    if data.game is None:
        order = torch.randperm(len(data), generator=gen)
        cut = len(data) - int(len(data) * share)
        return data.take(order[:cut]), data.take(order[cut:])
    games = int(data.game.max()) + 1
    held = torch.randperm(games, generator=gen)[: int(games * share)]
    mask = torch.zeros(games, dtype=torch.bool)
    mask[held] = True
    out = mask[data.game]
    return data.take(torch.nonzero(~out).flatten()), data.take(torch.nonzero(out).flatten())
