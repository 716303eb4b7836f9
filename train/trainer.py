"""Training: a blend of the search score (sigmoid-scaled) and the game result, seeded."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import torch

from royalchess.nnue import NetWeights
from train.data import Dataset
from train.model import Nnue


@dataclass
class Config:
    hidden: int = 128
    activation: str = "screlu"
    epochs: int = 10
    batch: int = 4096
    lr: float = 1e-3
    wdl: float = 0.3
    """Weight of the game result in the target (the rest: the score)."""
    k: float = 400.0
    """Centipawns per unit of the sigmoid that maps scores to expected results."""
    seed: int = 1
    device: str | None = None
    """None: a GPU when one is present, else the CPU."""
    threads: int = 1
    """CPU threads for torch: 1 by default, as the machines this runs on are shared (and a
    second thread gains little on small batches)."""
    decay: float = 0.0
    """AdamW weight decay of the inputs' own weights (not the shared factors or the output)."""
    factorise: bool = False
    """Train with shared per-piece, per-rank and per-file weights (model.Nnue._add_factors),
    folded into the exported net."""
    buckets: int = 1
    """Output buckets by piece count (royalchess.nnue.bucket); 1 = the version-1 net."""
    king_layout: str | None = None
    """King buckets (royalchess.nnue.king_layout: mirror, 4, 8); None = the version-1/2 net."""
    init: NetWeights | None = None
    """Start from this net's weights (it must have the model's shape), not at random."""
    keep_best: bool = True
    """With a validation set: return the model of the epoch with the lowest validation loss
    (not the last one), so that too many epochs cannot overfit the exported net."""


def pick_device(name: str | None) -> torch.device:
    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def seed_all(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)


def loss_fn(
    model: Nnue,
    stm: torch.Tensor,
    nstm: torch.Tensor,
    score: torch.Tensor,
    result: torch.Tensor,
    cfg: Config,
) -> torch.Tensor:
    """Mean squared error between expected results: the net's and the blended target's."""
    pred = torch.sigmoid(model.centipawns(stm, nstm) / cfg.k)
    target = (1 - cfg.wdl) * torch.sigmoid(score / cfg.k) + cfg.wdl * result
    return torch.mean((pred - target) ** 2)


def evaluate_loss(model: Nnue, data: Dataset, cfg: Config, device: torch.device) -> float:
    model.eval()
    total = 0.0
    with torch.no_grad():
        for i in range(0, len(data), cfg.batch):
            sl = slice(i, i + cfg.batch)
            n = data.score[sl].shape[0]
            total += (
                float(
                    loss_fn(
                        model,
                        data.stm[sl].to(device),
                        data.nstm[sl].to(device),
                        data.score[sl].to(device),
                        data.result[sl].to(device),
                        cfg,
                    )
                )
                * n
            )
    return total / len(data)


class Trained(NamedTuple):
    model: Nnue
    losses: list[float]
    """The training loss: the first entry before training (over all of the data), then each
    epoch's mean over its batches (no extra pass)."""
    epoch: int
    """The epoch whose weights *model* holds (1-based): the lowest validation loss's with
    ``keep_best`` and a validation set, else the last."""
    validation: list[float]
    """Each epoch's validation loss (empty without a validation set)."""


def train(
    data: Dataset,
    cfg: Config,
    progress: Callable[[int, float, float | None], None] | None = None,
    validation: Dataset | None = None,
) -> Trained:
    """A model trained on *data*, with its losses and which epoch it holds (Trained).
    *progress* gets the epoch, its loss and the validation loss."""
    seed_all(cfg.seed)
    torch.set_num_threads(cfg.threads)
    device = pick_device(cfg.device)
    model = Nnue(
        data.variant, cfg.hidden, cfg.activation, cfg.factorise, cfg.buckets, cfg.king_layout
    )
    if cfg.init is not None:
        model.load(cfg.init)
    model = model.to(device)
    # Weight decay on the inputs' own rows only: with factors, what a square does not need
    # beyond its piece's shared rows decays away (the usual remedy for little data). With
    # king buckets a square's own row is its shared row across the sets (f_base), and each
    # set's row is what it adds: both decay, so --decay means what it meant without sets.
    own = [model.ft.weight] + ([model.f_base] if model.king_map is not None else [])
    rest = [p for p in model.parameters() if all(p is not q for q in own)]
    opt = torch.optim.AdamW(
        [{"params": own, "weight_decay": cfg.decay}, {"params": rest, "weight_decay": 0.0}],
        lr=cfg.lr,
    )
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, cfg.epochs))
    gen = torch.Generator().manual_seed(cfg.seed)
    losses = [evaluate_loss(model, data, cfg, device)]
    held_losses: list[float] = []
    best: tuple[float, int, dict[str, torch.Tensor]] | None = None
    for epoch in range(cfg.epochs):
        model.train()
        order = torch.randperm(len(data), generator=gen)
        total = 0.0
        for i in range(0, len(data), cfg.batch):
            idx = order[i : i + cfg.batch]
            opt.zero_grad()
            loss = loss_fn(
                model,
                data.stm[idx].to(device),
                data.nstm[idx].to(device),
                data.score[idx].to(device),
                data.result[idx].to(device),
                cfg,
            )
            torch.autograd.backward(loss)  # typed, unlike Tensor.backward
            opt.step()
            model.clip_()
            total += loss.item() * len(idx)
        sched.step()
        losses.append(total / len(data))
        held = evaluate_loss(model, validation, cfg, device) if validation else None
        if held is not None:
            held_losses.append(held)
        if held is not None and cfg.keep_best and (best is None or held < best[0]):
            state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            best = (held, epoch + 1, state)
        if progress:
            progress(epoch + 1, losses[-1], held)
    if best is not None:
        model.load_state_dict(best[2])
    return Trained(model.cpu(), losses, best[1] if best else len(losses) - 1, held_losses)
