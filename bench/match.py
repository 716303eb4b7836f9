"""Engine matches over UCI: a thin caller of ``royalchess match`` that keeps this script's
old options.

    python bench/match.py --games 40 \\
        --a "python -m royalchess uci" \\
        --b /usr/games/stockfish --b-option UCI_LimitStrength=true --b-option UCI_Elo=2000

is ``royalchess match 'uci[name=royalchess]:python -m royalchess uci'
'uci[UCI_LimitStrength=true,UCI_Elo=2000]:/usr/games/stockfish' --movetime 100 --games 40``
(each opening of the built-in set played twice, colours swapped; adjudication and
statistics as that command's). ``--b-env ROYALCHESS_PARAMS=...`` passes environment
variables. The games go to ``--pgn`` (a temporary file by default).

``load_openings`` and ``elo_interval`` stay here for the other bench scripts.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

from royalchess.cli import main as royalchess_main
from royalchess.runner.openings import builtin_openings


def load_openings() -> list[list[str]]:
    """The built-in balanced chess openings, as lists of UCI moves."""
    return [list(opening.moves) for opening in builtin_openings("chess")]


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """Elo difference of A over B with the bounds of a 95% confidence interval."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0, 0.0
    score = (wins + draws / 2) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    margin = 1.96 * math.sqrt(var / n)

    def elo(s: float) -> float:
        s = min(max(s, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / s - 1)

    return elo(score), elo(score - margin), elo(score + margin)


def _spec(command: str, options: list[str], name: str | None, env: list[str]) -> str:
    settings = [*options, *(f"env.{e}" for e in env)]
    if name:
        settings.append(f"name={name}")
    return f"uci[{','.join(settings)}]:{command}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default=f"{sys.executable} -m royalchess uci")
    parser.add_argument("--a-option", action="append", default=[])
    parser.add_argument("--a-name", default="royalchess")
    parser.add_argument("--a-env", action="append", default=[], help="NAME=VALUE for A")
    parser.add_argument("--b", required=True)
    parser.add_argument("--b-option", action="append", default=[])
    parser.add_argument("--b-name")
    parser.add_argument("--b-env", action="append", default=[], help="NAME=VALUE for B")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--pgn", help="where the games go (default: a temporary file)")
    args = parser.parse_args(argv)
    pgn = args.pgn or str(Path(tempfile.mkdtemp(prefix="bench-match-")) / "games.pgn")
    return royalchess_main(
        [
            "match",
            _spec(args.a, args.a_option, args.a_name, args.a_env),
            _spec(args.b, args.b_option, args.b_name, args.b_env),
            "--movetime",
            str(round(args.movetime * 1000)),
            "--games",
            str(args.games + args.games % 2),
            "--jobs",
            str(args.concurrency),
            "-o",
            pgn,
        ]
    )


if __name__ == "__main__":
    raise SystemExit(main())
