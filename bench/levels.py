"""Level ladders: each playing level against the one below it, in either game, in-process.

Both sides are :class:`royalchess.engine.Engine` objects at a fixed time per move (100 ms by
default), so Royal Chess, which no other engine plays, gets measured the same way as
chess. Openings: for chess the lines of ``bench/openings.txt``; for Royal Chess four plies
picked at random among the moves a short full-strength search scores within 40 centipawns of
the best (seeded, so every run plays the same openings). Each opening is played twice,
colours swapped.

    python bench/levels.py --variant royal --games 20            # 20 -> 19, 19 -> 18, ...
    python bench/levels.py --variant chess --levels 20 14 --games 40
    python bench/levels.py --variant royal --ab qguard_mg=400,qguard_eg=400 --games 60
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from match import elo_interval, load_openings

from royalchess import Board
from royalchess.engine import Engine, Limit


def royal_openings(count: int, seed: int = 1) -> list[list[str]]:
    """Balanced four-ply Royal Chess openings (UCI spellings)."""
    rng = random.Random(seed)
    engine = Engine(hash_mb=4)
    out: list[list[str]] = []
    while len(out) < count:
        board = Board(variant="royal")
        line: list[str] = []
        for _ in range(4):
            lines = engine.analyse(board, Limit(depth=5), multipv=8)
            best = lines[0].score.value()
            good = [info.move for info in lines if best - info.score.value() <= 40 and info.move]
            move = rng.choice(good)
            line.append(move.uci())
            board.push(move)
        if line not in out:
            out.append(line)
    return out


def play(white: Engine, black: Engine, variant: str, opening: list[str], movetime: float) -> str:
    board = Board(variant=variant)
    for uci in opening:
        board.push_uci(uci)
    white.new_game()
    black.new_game()
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        engine = white if board.turn else black
        board.push(engine.play(board, Limit(movetime=movetime)))
    return board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "1/2-1/2"


def _apply(engine: Engine, params: str) -> Engine:
    for item in filter(None, params.split(",")):
        name, _, value = item.partition("=")
        engine._search.set_param(name.strip(), int(value))
    return engine


def match(
    a_level: int,
    b_level: int,
    variant: str,
    games: int,
    movetime: float,
    seed: int,
    a_params: str = "",
    b_params: str = "",
) -> tuple[int, int, int]:
    openings = load_openings() if variant == "chess" else royal_openings((games + 1) // 2, seed)
    a = _apply(Engine(level=a_level, hash_mb=16, seed=seed), a_params)
    b = _apply(Engine(level=b_level, hash_mb=16, seed=seed + 1), b_params)
    wins = draws = losses = 0
    for i in range(games):
        opening = openings[(i // 2) % len(openings)]
        a_white = i % 2 == 0
        result = (
            play(a, b, variant, opening, movetime)
            if a_white
            else play(b, a, variant, opening, movetime)
        )
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == a_white:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=("chess", "royal"), default="royal")
    parser.add_argument("--games", type=int, default=20, help="games per pair of levels")
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument(
        "--levels",
        type=int,
        nargs=2,
        metavar=("TOP", "BOTTOM"),
        default=(20, 1),
        help="ladder from TOP down to BOTTOM",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ab",
        metavar="PARAMS",
        help="instead of a ladder, full strength with PARAMS (name=value,...) against "
        "full strength with the defaults: how evaluation weights such as the Guard values "
        "are chosen",
    )
    args = parser.parse_args(argv)
    if args.ab is not None:
        wins, draws, losses = match(
            20, 20, args.variant, args.games, args.movetime, args.seed, a_params=args.ab
        )
        elo, low, high = elo_interval(wins, draws, losses)
        print(
            f"{args.variant} {args.ab} vs defaults: +{wins} ={draws} -{losses} "
            f"Elo {elo:+.0f} (95% {low:+.0f} .. {high:+.0f}) [{args.games} games]",
            flush=True,
        )
        return 0
    top, bottom = args.levels
    for level in range(top, bottom, -1):
        start = time.time()
        wins, draws, losses = match(
            level, level - 1, args.variant, args.games, args.movetime, args.seed
        )
        elo, low, high = elo_interval(wins, draws, losses)
        print(
            f"{args.variant} level {level:2d} vs {level - 1:2d}: +{wins} ={draws} -{losses} "
            f"Elo {elo:+.0f} (95% {low:+.0f} .. {high:+.0f}) "
            f"[{args.games} games, {time.time() - start:.0f} s]",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
