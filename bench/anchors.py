"""Level anchors: the levels that fix ``LEVEL_ELO`` (royalchess/levels.py), each played
against Stockfish 15.1 with ``UCI_LimitStrength`` at a nearby ``UCI_Elo``, standard chess,
100 ms a move, the built-in balanced openings, seed 1; then each anchor pooled with the
earlier runs (inverse-variance mean of the Elo differences) and the levels between the
anchors placed by their shares of the current table's gaps (docs/strength.md, Levels).

    python bench/anchors.py --jobs 2                       # play the five anchors, 100 games each
    python bench/anchors.py --jobs 2 --pool 20:-175.4:28.0 19:-123.1:29.7 16:-29.5:33.0 \\
        13:-142.8:33.7 10:-20.3:34.3                       # and pool with the earlier values
    python bench/anchors.py --results 20:-240.8:69.2 ... --pool ...   # no games: the table only

An anchor is LEVEL:UCI_ELO (default 20:2300 19:2100 16:1900 13:1800 10:1450); a result or an
earlier pooled value is LEVEL:ELO_DIFFERENCE:HALF_INTERVAL (95%). Levels below the lowest
anchor keep their ratings. Prints each anchor's run, the pooled values and the new table.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
from pathlib import Path

from royalchess.levels import LEVEL_ELO
from royalchess.runner.backends import LocalBackend
from royalchess.runner.match import MatchPlan, run_match
from royalchess.runner.openings import builtin_openings
from royalchess.runner.players import EngineSpec, TimeControl, check_spec
from royalchess.runner.sprt import estimate

STOCKFISH = "/usr/games/stockfish"
ANCHORS = {20: 2300, 19: 2100, 16: 1900, 13: 1800, 10: 1450}

Estimate = tuple[float, float]
"""An Elo difference and the half-width of its 95% interval."""


def pool(runs: list[Estimate]) -> Estimate:
    """The inverse-variance mean of *runs* and its 95% half-interval; a run without a finite
    interval (every game one result) weighs nothing, and with no other the mean is NaN."""
    runs = [(e, half) for e, half in runs if math.isfinite(e) and 0 < half < math.inf]
    if not runs:
        return math.nan, math.inf
    weights = [1 / (half / 1.96) ** 2 for _, half in runs]
    total = sum(weights)
    mean = sum(w * elo for w, (elo, _) in zip(weights, runs, strict=True)) / total
    return mean, 1.96 / math.sqrt(total)


def place_levels(table: dict[int, int], anchors: dict[int, float]) -> dict[int, int]:
    """The table with each anchor at its new rating and the levels between two anchors
    keeping their share of the gap between them in *table*; levels outside the anchors'
    range keep their ratings (by level number where the old gap is not positive). Ratings
    are rounded to 5."""
    out = dict(table)
    levels = sorted(anchors)
    for level in levels:
        out[level] = 5 * round(anchors[level] / 5)
    for low, high in itertools.pairwise(levels):
        old_gap = table[high] - table[low]
        for level in range(low + 1, high):
            if old_gap > 0:
                share = (table[level] - table[low]) / old_gap
            else:
                share = (level - low) / (high - low)
            out[level] = 5 * round((anchors[low] + share * (anchors[high] - anchors[low])) / 5)
    return out


def _triples(texts: list[str], what: str) -> dict[int, Estimate]:
    out: dict[int, Estimate] = {}
    for text in texts:
        try:
            level, elo, half = text.split(":")
            out[int(level)] = (float(elo), float(half))
        except ValueError:
            raise SystemExit(f"bad {what} {text!r}: give LEVEL:ELO:HALF_INTERVAL") from None
    return out


def _specs(level: int, sf_elo: int, stockfish: str) -> tuple[EngineSpec, EngineSpec]:
    """The two players of an anchor, checked as ``royalchess match`` checks them."""
    specs = (
        EngineSpec.parse(f"royalchess:level={level},eval=auto"),
        EngineSpec.parse(
            f"uci[UCI_LimitStrength=true,UCI_Elo={sf_elo},name=sf{sf_elo}]:{stockfish}"
        ),
    )
    for spec in specs:
        check_spec(spec)
    return specs


def _play(
    players: tuple[EngineSpec, EngineSpec],
    level: int,
    sf_elo: int,
    args: argparse.Namespace,
    out: Path,
) -> Estimate:
    plan = MatchPlan(
        *players,
        "chess",
        builtin_openings("chess"),
        TimeControl.parse(None, args.movetime, None),
        args.games + args.games % 2,
        args.seed,
    )
    backend = LocalBackend(args.jobs)
    try:
        outcome = run_match(plan, backend, str(out / f"level{level}.pgn"), quiet=True)
    finally:
        backend.close()
    s = outcome.stats
    est = estimate(s.penta)
    print(
        f"level {level} vs SF {sf_elo}: +{s.wins} ={s.draws} -{s.losses}, "
        f"{est.elo:+.1f} +- {est.elo_error:.1f}, pentanomial {s.penta}",
        flush=True,
    )
    return est.elo, est.elo_error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchors", nargs="+", metavar="LEVEL:UCI_ELO")
    parser.add_argument("--games", type=int, default=100, help="games per anchor")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games at once")
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--pool", nargs="+", default=[], metavar="LEVEL:ELO:HALF")
    parser.add_argument(
        "--results", nargs="+", metavar="LEVEL:ELO:HALF", help="these runs instead of playing"
    )
    args = parser.parse_args(argv)
    anchors = dict(ANCHORS)
    if args.anchors:
        anchors = {}
        for text in args.anchors:
            try:
                level, sf_elo = map(int, text.split(":"))
            except ValueError:
                raise SystemExit(f"bad anchor {text!r}: give LEVEL:UCI_ELO") from None
            anchors[level] = sf_elo
    if unknown := [lv for lv in anchors if lv not in LEVEL_ELO]:
        raise SystemExit(f"no level {unknown[0]}")
    earlier = _triples(args.pool, "--pool value")
    if args.results:
        runs = _triples(args.results, "--results value")
        if missing := sorted(set(anchors) - set(runs)):
            raise SystemExit(f"no result for anchor level {missing[0]}")
    else:
        try:  # every anchor's players before any game, not after the first anchor
            players = {lv: _specs(lv, e, args.stockfish) for lv, e in anchors.items()}
        except ValueError as e:
            raise SystemExit(str(e)) from None
        out = Path(tempfile.mkdtemp(prefix="bench-anchors-"))
        runs = {
            lv: _play(players[lv], lv, e, args, out)
            for lv, e in sorted(anchors.items(), reverse=True)
        }
        print(f"games in {out}")
    ratings: dict[int, float] = {}
    for level in sorted(anchors, reverse=True):
        both = [runs[level]] + ([earlier[level]] if level in earlier else [])
        elo, half = pool(both)
        if not math.isfinite(elo):
            print(f"level {level}: no interval (every game one result): not an anchor")
            continue
        ratings[level] = anchors[level] + elo
        print(
            f"level {level}: {elo:+.1f} +- {half:.1f} from UCI_Elo {anchors[level]} "
            f"-> {ratings[level]:.1f}"
        )
    table = place_levels(LEVEL_ELO, ratings)
    print("LEVEL_ELO = {")
    for level, rating in table.items():
        note = "" if rating == LEVEL_ELO[level] else f"  # was {LEVEL_ELO[level]}"
        print(f"    {level}: {rating},{note}")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
