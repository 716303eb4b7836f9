"""Level ladders: each playing level against the one below it, in either game — a thin
caller of ``royalchess match`` with the built-in engine on both sides.

At a fixed time per move (100 ms by default), on the built-in balanced openings of the
variant (each played twice, colours swapped), seeded.

    python bench/levels.py --variant royal --games 20            # 20 -> 19, 19 -> 18, ...
    python bench/levels.py --variant chess --levels 20 14 --games 40
    python bench/levels.py --variant royal --ab qguard_mg=400,qguard_eg=400 --games 60

Each pair is ``royalchess match royalchess:level=N royalchess:level=N-1 --movetime 100
--games G --variant V``; ``--ab P`` is ``royalchess:param.P... royalchess``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from royalchess.cli import main as royalchess_main


def _match(a: str, b: str, args: argparse.Namespace, out: Path) -> int:
    return royalchess_main(
        [
            "match",
            a,
            b,
            "--variant",
            args.variant,
            "--games",
            str(args.games + args.games % 2),
            "--movetime",
            str(round(args.movetime * 1000)),
            "--seed",
            str(args.seed),
            "--jobs",
            str(args.jobs),
            "-o",
            str(out),
            "--quiet",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=("chess", "royal"), default="royal")
    parser.add_argument("--games", type=int, default=20, help="games per pair of levels")
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds per move")
    parser.add_argument(
        "--levels",
        type=int,
        nargs=2,
        metavar=("TOP", "BOTTOM"),
        default=(20, 1),
        help="ladder from TOP down to BOTTOM",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games at once")
    parser.add_argument(
        "--ab",
        metavar="PARAMS",
        help="instead of a ladder, full strength with PARAMS (name=value,...) against "
        "full strength with the defaults: how evaluation weights such as the Guard values "
        "are chosen",
    )
    args = parser.parse_args(argv)
    out = Path(tempfile.mkdtemp(prefix="bench-levels-"))
    if args.ab is not None:
        params = ",".join(f"param.{p.strip()}" for p in args.ab.split(",") if p.strip())
        return _match(
            f"royalchess:{params},name=ab", "royalchess:name=defaults", args, out / "ab.pgn"
        )
    top, bottom = args.levels
    for level in range(top, bottom, -1):
        print(f"{args.variant} level {level} vs {level - 1}:", flush=True)
        code = _match(
            f"royalchess:level={level}", f"royalchess:level={level - 1}", args, out / f"{level}.pgn"
        )
        if code:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
