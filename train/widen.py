"""python -m train.widen: give a net more hidden neurons without changing what it computes.

python -m train.widen IN.nnue OUT.nnue --hidden 384

Net2Net's wider step: each new neuron is a copy of one of the net's own (those with the
largest output weights first), and the copied neuron's output weights are split between the
two, so the wider net evaluates every position as the old one did (exactly, with ``--noise
0``). Training it further (``python -m train --init OUT.nnue``) then lets the copies drift
apart and use the room, instead of learning from random weights what the old net knows
(docs/nnue.md, "A net from scratch ... lost"). ``--noise`` adds a little random noise to the
copies' input weights so that the two halves of a pair do not get identical gradients.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys

from royalchess.nnue import NetFileError, NetWeights, read_net, write_net


def widen(w: NetWeights, hidden: int, *, noise: float = 0.0, seed: int = 1) -> NetWeights:
    """*w* with *hidden* neurons (a multiple of 16, more than it has); see the module."""
    old = w.hidden
    if hidden <= old or hidden % 16 or hidden > 2 * old:
        raise ValueError(f"--hidden {hidden}: a multiple of 16 above {old}, at most {2 * old}")
    extra = hidden - old
    nb = w.buckets
    # the neurons whose output matters most, over both perspectives and every bucket
    weight = [
        sum(abs(w.out_w[(b * 2 + side) * old + j]) for b in range(nb) for side in (0, 1))
        for j in range(old)
    ]
    copied = sorted(range(old), key=lambda j: -weight[j])[:extra]
    rng = random.Random(seed)
    rows = len(w.ft_w) // old
    ft_w: list[int] = []
    for r in range(rows):
        row = w.ft_w[r * old : (r + 1) * old]
        ft_w.extend(row)
        ft_w.extend(_jitter(row[j], noise, rng) for j in copied)
    ft_b = [*w.ft_b, *(w.ft_b[j] for j in copied)]
    out_w: list[int] = []
    for b in range(nb):
        for side in (0, 1):
            part = list(w.out_w[(b * 2 + side) * old : (b * 2 + side + 1) * old])
            moved = []
            for j in copied:
                half = part[j] // 2
                moved.append(part[j] - half)
                part[j] = half
            out_w.extend(part)
            out_w.extend(moved)
    return dataclasses.replace(w, hidden=hidden, ft_w=ft_w, ft_b=ft_b, out_w=out_w)


def _jitter(v: int, noise: float, rng: random.Random) -> int:
    if not noise:
        return v
    return max(-32767, min(32767, v + round(rng.gauss(0.0, noise))))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m train.widen", description=__doc__.split("\n")[0])
    ap.add_argument("input", help="the net file to read")
    ap.add_argument("output", help="the net file to write")
    ap.add_argument("--hidden", type=int, required=True, help="the new hidden size")
    ap.add_argument("--noise", type=float, default=0.0, help="std of the copies' jitter (0)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        net = read_net(args.input)
        wide = widen(net, args.hidden, noise=args.noise, seed=args.seed)
    except (OSError, NetFileError, ValueError) as exc:
        ap.error(str(exc))
    write_net(args.output, wide)
    print(f"{args.output}: hidden {net.hidden} -> {wide.hidden}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
