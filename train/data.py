"""Training data: datagen files (royalchess.runner.datagen) turned into feature tensors.

Features come from the C core (``_core.nnue_features``), the same code the engine evaluates
with, so the trainer and the engine cannot disagree about what an input means.
"""

from __future__ import annotations

import os
from array import array
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
    stm: torch.Tensor  # [n, width] int32
    nstm: torch.Tensor  # [n, width] int32
    score: torch.Tensor  # [n] float, centipawns for the side to move, clipped
    result: torch.Tensor  # [n] float, 1 win, 0.5 draw, 0 loss for the side to move

    def __len__(self) -> int:
        return int(self.score.shape[0])


def width(variant: str) -> int:
    """Feature slots per position: the most pieces a game can have (promotions add none)."""
    return 40 if variant == "royal" else 32


def load(
    paths: Iterable[str | os.PathLike[str]], variant: str | None = None, limit: int | None = None
) -> Dataset:
    """Every position of the datagen files (of one game; *variant* picks it when mixed).

    Features go straight into flat int32 buffers (about 330 bytes a Royal Chess position),
    so millions of positions fit in memory."""
    stm, nstm = array("i"), array("i")
    scores, results = array("f"), array("f")
    pad = w = core_id = 0
    for path in paths:
        for p in read_positions(path):
            if variant is None:
                variant = p.variant
            if p.variant != variant:
                continue
            if not w:
                core_id = get_variant(variant).core_id
                pad, w = int(_core.nnue_inputs(core_id)), width(variant)
            a, b = _core.nnue_features(p.fen, core_id)
            stm.extend(a + [pad] * (w - len(a)))
            nstm.extend(b + [pad] * (w - len(b)))
            scores.append(float(max(-SCORE_CLIP, min(SCORE_CLIP, p.score))))
            results.append((p.stm_result + 1) / 2)
            if limit is not None and len(scores) >= limit:
                break
        if limit is not None and len(scores) >= limit:
            break
    if variant is None or not scores:
        raise ValueError("no positions in the data files")

    def tensor(a: array[int] | array[float]) -> torch.Tensor:
        return torch.frombuffer(bytearray(a.tobytes()), dtype=_DTYPES[a.typecode])

    return Dataset(
        variant,
        tensor(stm).view(-1, w),
        tensor(nstm).view(-1, w),
        tensor(scores),
        tensor(results),
    )


_DTYPES = {"i": torch.int32, "f": torch.float32}


def split(data: Dataset, share: float, seed: int) -> tuple[Dataset, Dataset]:
    """(training, validation): a seeded random *share* of the positions held out."""
    order = torch.randperm(len(data), generator=torch.Generator().manual_seed(seed))
    cut = len(data) - int(len(data) * share)

    def take(idx: torch.Tensor) -> Dataset:
        return Dataset(
            data.variant, data.stm[idx], data.nstm[idx], data.score[idx], data.result[idx]
        )

    return take(order[:cut]), take(order[cut:])
