"""The float model of the engine's NNUE (src/core/nnue.h) and its quantised export."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from royalchess.nnue import KING_MIRROR, NetWeights, feature_count, max_pieces
from royalchess.nnue import king_layout as named_layout
from royalchess.variants import get_variant

QA, QB, SCALE = 255, 64, 400
# Weights stay within +-1.98 (as usual for NNUE trainers): qb times an output weight fits in
# int8, and the int32 sums of the engine's output layer cannot overflow.
WEIGHT_LIMIT = 127 / QB


class Nnue(nn.Module):
    """Sparse inputs -> one accumulator per perspective -> activation -> one output (of
    *buckets*, picked by the position's piece count: royalchess.nnue.bucket).

    The output times ``scale`` (SCALE, or --init's net's) is the evaluation in centipawns
    for the side to move. With a *king_layout* (royalchess.nnue.king_layout), each
    perspective's inputs are those of the input set its own King's square picks, its files
    mirrored when the layout says so; the sets share a factor row per base input (folded on
    export), so what they have in common is learnt from every position.
    """

    # index buffers (register_buffer), declared so type checkers know they are tensors
    kmap: torch.Tensor
    piece_of: torch.Tensor
    rank_of: torch.Tensor
    file_of: torch.Tensor

    def __init__(
        self,
        variant: str,
        hidden: int = 128,
        activation: str = "screlu",
        factorise: bool = False,
        buckets: int = 1,
        king_layout: str | None = None,
    ) -> None:
        super().__init__()
        if activation not in ("crelu", "screlu"):
            raise ValueError(f"unknown activation {activation!r}")
        self.variant = variant
        self.inputs = feature_count(variant)
        self.hidden = hidden
        self.activation = activation
        self.factorise = factorise
        self.buckets = buckets
        self.scale = SCALE
        self.max_pieces = max_pieces(variant)
        self.king_buckets, self.king_map = 1, None
        rules = get_variant(variant)
        self.files, self.squares = rules.files, rules.files * rules.ranks
        if king_layout is not None:
            self.king_buckets, self.king_map = named_layout(variant, king_layout)
            self.register_buffer("kmap", torch.tensor(self.king_map), persistent=False)
            self.f_base = nn.Parameter(torch.empty(self.inputs, hidden).uniform_(-0.1, 0.1))
        self.rows = self.king_buckets * self.inputs
        if factorise:
            self._add_factors()
        # one extra zero row: the padding index of datasets with fewer pieces
        self.ft = nn.EmbeddingBag(self.rows + 1, hidden, mode="sum", padding_idx=self.rows)
        self.ft_b = nn.Parameter(torch.zeros(hidden))
        self.out = nn.Linear(2 * hidden, buckets)
        with torch.no_grad():
            # with king buckets the sets start from their shared factor rows
            if king_layout is None:
                self.ft.weight.uniform_(-0.1, 0.1)
            else:
                self.ft.weight.zero_()
            self.ft.weight[self.rows].zero_()
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
        """[rows + 1, hidden]: each input's effective row (rows = king buckets x inputs), then
        the zero padding row."""
        w = self.ft.weight
        if not self.factorise and self.king_map is None:
            return w
        shared = torch.zeros_like(w[: self.inputs])
        if self.factorise:
            shared = self.f_piece[self.piece_of] + self.f_rank[self.rank_of]
            shared = shared + self.f_file[self.file_of]
        if self.king_map is not None:
            shared = shared + self.f_base
        own = w[: self.rows].view(self.king_buckets, self.inputs, self.hidden) + shared
        return torch.cat([own.view(self.rows, self.hidden), w[self.rows :]])

    def king_features(self, x: torch.Tensor) -> torch.Tensor:
        """Base features [n, width] (one perspective's, padded with the input count) -> the
        rows of the input set the perspective's own King picks, files mirrored as the
        layout says (the engine's nnue.c net_feature); padding -> the new padding row."""
        if self.king_map is None:
            return x
        own_king = 5 * self.squares  # relative colour 0 (own), kind King (P N B R Q K)
        is_king = (x >= own_king) & (x < own_king + self.squares)
        ksq = torch.where(is_king, x - own_king, torch.zeros_like(x)).sum(dim=1)
        state = self.kmap[ksq]
        kb = (state & ~KING_MIRROR).unsqueeze(1)
        mirror = (state >= KING_MIRROR).to(x.dtype).unsqueeze(1)
        file = x % self.squares % self.files
        y = x + mirror * (self.files - 1 - 2 * file) + kb.to(x.dtype) * self.inputs
        return torch.where(x == self.inputs, torch.full_like(x, self.rows), y)

    def act(self, x: torch.Tensor) -> torch.Tensor:
        x = x.clamp(0.0, 1.0)
        return x * x if self.activation == "screlu" else x

    def forward(self, stm: torch.Tensor, nstm: torch.Tensor) -> torch.Tensor:
        # datasets keep features narrow (train.data.FEATURE_DTYPE); embedding wants int32+
        stm, nstm = stm.to(torch.int32), nstm.to(torch.int32)
        pieces = (stm != self.inputs).sum(dim=1)
        stm, nstm = self.king_features(stm), self.king_features(nstm)
        if self.factorise or self.king_map is not None:
            w = self.feature_weights()
            a = F.embedding_bag(stm, w, mode="sum", padding_idx=self.rows) + self.ft_b
            b = F.embedding_bag(nstm, w, mode="sum", padding_idx=self.rows) + self.ft_b
        else:
            a = self.ft(stm) + self.ft_b
            b = self.ft(nstm) + self.ft_b
        out: torch.Tensor = self.out(torch.cat([self.act(a), self.act(b)], dim=1))
        if self.buckets == 1:
            return out.squeeze(1)
        # a feature per piece; the padding index fills the rest (as royalchess.nnue.bucket)
        idx = ((pieces - 2) * self.buckets // (self.max_pieces - 1)).clamp(0, self.buckets - 1)
        return out.gather(1, idx.unsqueeze(1)).squeeze(1)

    def centipawns(self, stm: torch.Tensor, nstm: torch.Tensor) -> torch.Tensor:
        return self.forward(stm, nstm) * self.scale

    def clip_(self) -> None:
        """Keeps the weights inside what the quantised format can hold."""
        with torch.no_grad():
            self.out.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.ft.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)

    def load(self, w: NetWeights) -> None:
        """Start from a quantised net (python -m train --init): its weights, dequantised,
        become the inputs' own rows, the shared factor rows start at zero. The net must
        have this model's shape; ValueError names the first difference. The net's output scale
        (centipawns per unit, e.g. set by python -m train.rescale) becomes the model's, so
        the net goes on from the evaluation it plays with."""
        mine = (self.variant, self.hidden, self.activation, self.buckets, self.king_buckets)
        theirs = (w.variant, w.hidden, w.activation, w.buckets, w.king_buckets)
        for name, a, b in zip(
            ("game", "hidden size", "activation", "output buckets", "king buckets"),
            mine,
            theirs,
            strict=True,
        ):
            if a != b:
                raise ValueError(f"the net's {name} is {b}, the model's {a}")
        if w.king_map is not None and list(w.king_map) != list(self.king_map or []):
            raise ValueError("the net's king-square map is not the model's layout")
        if (w.qa, w.qb) != (QA, QB):
            raise ValueError(f"the net's quantisation scales (qa, qb) are {(w.qa, w.qb)}")
        self.scale = w.scale
        with torch.no_grad():
            for p in (getattr(self, n, None) for n in ("f_piece", "f_rank", "f_file", "f_base")):
                if p is not None:
                    p.zero_()
            ft = torch.tensor(list(w.ft_w), dtype=torch.float32).view(self.rows, self.hidden)
            self.ft.weight[: self.rows] = ft / QA
            self.ft.weight[self.rows].zero_()
            self.ft_b.copy_(torch.tensor(list(w.ft_b), dtype=torch.float32) / QA)
            out = torch.tensor(list(w.out_w), dtype=torch.float32)
            self.out.weight.copy_(out.view(self.buckets, 2 * self.hidden) / QB)
            biases = torch.tensor(w.biases(), dtype=torch.float32)
            self.out.bias.copy_(biases / (QA * QB))

    def export(self) -> NetWeights:
        """The quantised net (see docs/nnue.md for the scales)."""
        w = self.feature_weights().detach().cpu()[: self.rows]
        w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT)
        biases = [round(float(b) * QA * QB) for b in self.out.bias.detach().cpu()]
        return NetWeights(
            variant=self.variant,
            hidden=self.hidden,
            activation=self.activation,
            qa=QA,
            qb=QB,
            scale=self.scale,
            ft_w=_ints(w * QA),
            ft_b=_ints(self.ft_b.detach().cpu() * QA),
            out_w=_ints(self.out.weight.detach().cpu() * QB),  # [bucket][2 * hidden]
            out_b=biases[0] if self.buckets == 1 else biases,
            buckets=self.buckets,
            king_buckets=self.king_buckets,
            king_map=self.king_map,
        )


def _ints(t: torch.Tensor) -> list[int]:
    return [int(v) for v in t.round().clamp(-32767, 32767).to(torch.int64).flatten().tolist()]
