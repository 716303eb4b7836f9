"""The float model of the engine's NNUE (src/core/nnue.h) and its quantised export."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from royalchess import _core
from royalchess.nnue import NetWeights, max_pieces
from royalchess.variants import get_variant

QA, QB, SCALE = 255, 64, 400
# Weights stay within +-1.98 (as usual for NNUE trainers): qb times an output weight fits in
# int8, and the int32 sums of the engine's output layer cannot overflow.
WEIGHT_LIMIT = 127 / QB


class Nnue(nn.Module):
    """Sparse inputs -> one accumulator per perspective -> activation -> one output (of
    *buckets*, picked by the position's piece count: royalchess.nnue.bucket).

    The output times SCALE is the evaluation in centipawns for the side to move.
    """

    def __init__(
        self,
        variant: str,
        hidden: int = 128,
        activation: str = "screlu",
        factorise: bool = False,
        buckets: int = 1,
    ) -> None:
        super().__init__()
        if activation not in ("crelu", "screlu"):
            raise ValueError(f"unknown activation {activation!r}")
        self.variant = variant
        self.inputs = int(_core.nnue_inputs(get_variant(variant).core_id))
        self.hidden = hidden
        self.activation = activation
        self.factorise = factorise
        self.buckets = buckets
        self.max_pieces = max_pieces(variant)
        if factorise:
            self._add_factors()
        # one extra zero row: the padding index of datasets with fewer pieces
        self.ft = nn.EmbeddingBag(self.inputs + 1, hidden, mode="sum", padding_idx=self.inputs)
        self.ft_b = nn.Parameter(torch.zeros(hidden))
        self.out = nn.Linear(2 * hidden, buckets)
        with torch.no_grad():
            self.ft.weight.uniform_(-0.1, 0.1)
            self.ft.weight[self.inputs].zero_()
            self.ft_b.fill_(0.1)  # start in the active range of the clipped activation
            self.out.weight.uniform_(-0.05, 0.05)
            self.out.bias.zero_()

    def _add_factors(self) -> None:
        """Training-only weights shared by many inputs: one row per (colour, kind), per
        (colour, kind, rank) and per (colour, kind, file). A feature's weight is its own row
        plus its three shared ones, so what every square of a piece has in common (its value,
        its rank and file tendencies) is learnt from all positions with that piece, and the
        square's own row only learns the rest: small data then suffices. export() adds them
        into each input's row, so the engine's net has the usual shape."""
        files = 10 if self.variant == "royal" else 8
        ranks = 8
        squares = files * ranks
        piece = torch.arange(self.inputs) // squares  # colour * kinds + kind
        square = torch.arange(self.inputs) % squares
        self.register_buffer("piece_of", piece, persistent=False)
        self.register_buffer("rank_of", piece * ranks + square // files, persistent=False)
        self.register_buffer("file_of", piece * files + square % files, persistent=False)
        pieces = self.inputs // squares
        self.f_piece = nn.Parameter(torch.zeros(pieces, self.hidden))
        self.f_rank = nn.Parameter(torch.zeros(pieces * ranks, self.hidden))
        self.f_file = nn.Parameter(torch.zeros(pieces * files, self.hidden))

    def feature_weights(self) -> torch.Tensor:
        """[inputs + 1, hidden]: each input's effective row, then the zero padding row."""
        w = self.ft.weight
        if not self.factorise:
            return w
        own = w[: self.inputs]
        shared = self.f_piece[self.piece_of] + self.f_rank[self.rank_of] + self.f_file[self.file_of]
        return torch.cat([own + shared, w[self.inputs :]])

    def act(self, x: torch.Tensor) -> torch.Tensor:
        x = x.clamp(0.0, 1.0)
        return x * x if self.activation == "screlu" else x

    def forward(self, stm: torch.Tensor, nstm: torch.Tensor) -> torch.Tensor:
        if self.factorise:
            w = self.feature_weights()
            a = F.embedding_bag(stm, w, mode="sum", padding_idx=self.inputs) + self.ft_b
            b = F.embedding_bag(nstm, w, mode="sum", padding_idx=self.inputs) + self.ft_b
        else:
            a = self.ft(stm) + self.ft_b
            b = self.ft(nstm) + self.ft_b
        out = self.out(torch.cat([self.act(a), self.act(b)], dim=1))
        if self.buckets == 1:
            return out.squeeze(1)
        # a feature per piece; the padding index fills the rest (as royalchess.nnue.bucket)
        pieces = (stm != self.inputs).sum(dim=1)
        idx = ((pieces - 2) * self.buckets // (self.max_pieces - 1)).clamp(0, self.buckets - 1)
        return out.gather(1, idx.unsqueeze(1)).squeeze(1)

    def centipawns(self, stm: torch.Tensor, nstm: torch.Tensor) -> torch.Tensor:
        return self.forward(stm, nstm) * SCALE

    def clip_(self) -> None:
        """Keeps the weights inside what the quantised format can hold."""
        with torch.no_grad():
            self.out.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.ft.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)

    def export(self) -> NetWeights:
        """The quantised net (see docs/nnue.md for the scales)."""
        w = self.feature_weights().detach().cpu()[: self.inputs]
        w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT)
        biases = [round(float(b) * QA * QB) for b in self.out.bias.detach().cpu()]
        return NetWeights(
            variant=self.variant,
            hidden=self.hidden,
            activation=self.activation,
            qa=QA,
            qb=QB,
            scale=SCALE,
            ft_w=_ints(w * QA),
            ft_b=_ints(self.ft_b.detach().cpu() * QA),
            out_w=_ints(self.out.weight.detach().cpu() * QB),  # [bucket][2 * hidden]
            out_b=biases[0] if self.buckets == 1 else biases,
            buckets=self.buckets,
        )


def _ints(t: torch.Tensor) -> list[int]:
    return [int(v) for v in t.round().clamp(-32767, 32767).to(torch.int64).flatten().tolist()]
