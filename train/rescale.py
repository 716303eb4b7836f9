"""python -m train.rescale: set a net's output scale (centipawns per output unit).

python -m train.rescale IN.nnue OUT.nnue --scale 320

Every evaluation of the net is multiplied by SCALE / (its old scale); the weights are not
touched. The search's margins (futility, razoring, null move, SEE thresholds...) are in
centipawns, so a net whose scores have drifted wider than they were tuned for prunes as if
positions were more decided than they are; this brings it back (docs/nnue.md, "The output
scale"). Training with --init keeps the scale of the net it starts from.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from royalchess.nnue import NetFileError, read_net, write_net

# the engine's loader takes 1..4096 (src/core/nnue.c)
MAX_SCALE = 4096


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m train.rescale", description=__doc__.split("\n")[0])
    ap.add_argument("input", help="the net file to read")
    ap.add_argument("output", help="the net file to write (may be the same)")
    ap.add_argument("--scale", type=int, required=True, help="centipawns per output unit")
    args = ap.parse_args(argv)
    if not 1 <= args.scale <= MAX_SCALE:
        ap.error(f"--scale {args.scale}: give 1 to {MAX_SCALE}")
    try:
        net = read_net(args.input)
    except (OSError, NetFileError) as exc:
        ap.error(str(exc))
    write_net(args.output, dataclasses.replace(net, scale=args.scale))
    print(f"{args.output}: scale {net.scale} -> {args.scale} ({args.scale / net.scale:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
