"""Training data: datagen files (royalchess.runner.datagen) turned into feature tensors.

Features come from the C core (``_core.nnue_features``), the same code the engine evaluates
with, so the trainer and the engine cannot disagree about what an input means.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

import torch

from royalchess import _core
from royalchess.runner.datagen import read_positions
from royalchess.variants import get_variant

MATE = 32000
SCORE_CLIP = 3000  # scores beyond this (mates included) are clipped: they say "won"


@dataclass
class Dataset:
    """Positions as padded feature indices (padding = the input count) and targets."""

    variant: str
    stm: torch.Tensor  # [n, width] int64
    nstm: torch.Tensor  # [n, width] int64
    score: torch.Tensor  # [n] float, centipawns for the side to move, clipped
    result: torch.Tensor  # [n] float, 1 win, 0.5 draw, 0 loss for the side to move

    def __len__(self) -> int:
        return int(self.score.shape[0])


def load(
    paths: Iterable[str | os.PathLike[str]], variant: str | None = None, limit: int | None = None
) -> Dataset:
    """Every position of the datagen files (of one game; *variant* picks it when mixed)."""
    stm: list[list[int]] = []
    nstm: list[list[int]] = []
    scores: list[float] = []
    results: list[float] = []
    for path in paths:
        for p in read_positions(path):
            if variant is None:
                variant = p.variant
            if p.variant != variant:
                continue
            a, b = _core.nnue_features(p.fen, get_variant(variant).core_id)
            stm.append(a)
            nstm.append(b)
            scores.append(float(max(-SCORE_CLIP, min(SCORE_CLIP, p.score))))
            results.append((p.stm_result + 1) / 2)
            if limit is not None and len(scores) >= limit:
                break
    if variant is None or not scores:
        raise ValueError("no positions in the data files")
    return from_features(variant, stm, nstm, scores, results)


def from_features(
    variant: str,
    stm: list[list[int]],
    nstm: list[list[int]],
    scores: list[float],
    results: list[float],
) -> Dataset:
    """A dataset from feature lists (padded here) and targets."""
    pad = int(_core.nnue_inputs(get_variant(variant).core_id))
    width = max(len(f) for f in stm + nstm)

    def padded(rows: list[list[int]]) -> torch.Tensor:
        return torch.tensor([r + [pad] * (width - len(r)) for r in rows], dtype=torch.int64)

    return Dataset(variant, padded(stm), padded(nstm), torch.tensor(scores), torch.tensor(results))


def split(data: Dataset, share: float, seed: int) -> tuple[Dataset, Dataset]:
    """(training, validation): a seeded random *share* of the positions held out."""
    order = torch.randperm(len(data), generator=torch.Generator().manual_seed(seed))
    cut = len(data) - int(len(data) * share)

    def take(idx: torch.Tensor) -> Dataset:
        return Dataset(
            data.variant, data.stm[idx], data.nstm[idx], data.score[idx], data.result[idx]
        )

    return take(order[:cut]), take(order[cut:])
