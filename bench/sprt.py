"""A/B self-play of one build at a fixed node count per move, stopped by an SPRT.

The way OpenBench and fishtest prove a search change: both sides are the same binary, A with
some parameters changed (``name=value,...``, evaluation weights or search tunables such as
a new feature's on/off switch), B with others (the defaults unless ``--b`` is given). Every
move is searched to a fixed number of nodes, so results do not depend on the machine's load.
Openings: each built-in balanced chess opening (``royalchess.runner.openings``, through
``bench/match.py``) or the Royal start position, extended
by a few plies picked at random among the moves a short search scores within 40 centipawns of
the best (seeded, so every run plays the same openings); each is played twice, colours
swapped. The run stops when the log-likelihood ratio of elo1 against elo0 crosses a bound
(Wald's SPRT with the trinomial normal approximation fishtest used) or after ``--games``.

    nice python bench/sprt.py --a cont_hist=1 --b cont_hist=0 --nodes 6000
    nice python bench/sprt.py --variant royal --a cont_hist=1 --b cont_hist=0 --games 100
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from match import elo_interval, load_openings

from royalchess import Board
from royalchess.engine import Engine, Limit

MAX_PLIES = 300
WIN_SCORE = 1000  # adjudicated as won after both sides agree on it for a few moves
WIN_PLIES = 6
DRAW_SCORE = 8  # adjudicated as drawn after a long quiet stretch of near-zero scores
DRAW_PLIES = 16
DRAW_AFTER = 100


def make_openings(variant: str, count: int, seed: int) -> list[list[str]]:
    """count distinct balanced openings (UCI move lists), the same for a given seed."""
    rng = random.Random(seed)
    engine = Engine(hash_mb=4)
    bases = load_openings() if variant == "chess" else [[]]
    extra = 2 if variant == "chess" else 4
    out: list[list[str]] = []
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        line = list(bases[len(out) % len(bases)])
        board = Board(variant=variant)
        for uci in line:
            board.push_uci(uci)
        for _ in range(extra):
            lines = engine.analyse(board, Limit(depth=4), multipv=8)
            best = lines[0].score.value()
            good = [i.move for i in lines if best - i.score.value() <= 40 and i.move]
            move = rng.choice(good)
            line.append(move.uci())
            board.push(move)
        if line not in out:
            out.append(line)
    return out


def _engine(params: str) -> Engine:
    engine = Engine(hash_mb=16)
    for item in filter(None, params.split(",")):
        name, _, value = item.partition("=")
        engine._search.set_param(name.strip(), int(value))
    return engine


_ENGINES: dict[str, Engine] = {}


def _get(params: str) -> Engine:
    if params not in _ENGINES:
        _ENGINES[params] = _engine(params)
    return _ENGINES[params]


def play(white: str, black: str, variant: str, opening: list[str], nodes: int) -> str:
    """One game between two parameter sets; the result from White's side."""
    engines = {True: _get(white), False: _get(black)}
    for e in engines.values():
        e.new_game()
    board = Board(variant=variant)
    for uci in opening:
        board.push_uci(uci)
    won = quiet = 0
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= MAX_PLIES:
            return "1/2-1/2"
        result = engines[board.turn].search(board, Limit(nodes=nodes), strength=False)
        assert result.move is not None
        score = result.lines[0].score if result.lines else None
        if score is not None:
            v = score.value()
            pov = v if board.turn else -v  # White's view
            # a signed streak: plies in a row with White (+) or Black (-) clearly winning
            if abs(pov) < WIN_SCORE:
                won = 0
            elif pov > 0:
                won = won + 1 if won > 0 else 1
            else:
                won = won - 1 if won < 0 else -1
            if abs(won) >= WIN_PLIES:
                return "1-0" if won > 0 else "0-1"
            quiet = quiet + 1 if abs(v) <= DRAW_SCORE and board.ply() >= DRAW_AFTER else 0
            if quiet >= DRAW_PLIES:
                return "1/2-1/2"
        board.push(result.move)
    return board.result(claim_draw=True)


def play_pair(job: tuple[str, str, str, list[str], int]) -> tuple[float, float]:
    """A as White then A as Black; A's two scores."""
    a, b, variant, opening, nodes = job
    first = play(a, b, variant, opening, nodes)
    second = play(b, a, variant, opening, nodes)
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    return score[first], 1.0 - score[second]


def llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of elo1 over elo0 (logistic Elo, trinomial normal approximation)."""
    n = wins + draws + losses
    if n == 0 or wins == 0 or losses == 0:
        return 0.0
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
    if var <= 0:
        return 0.0

    def s(elo: float) -> float:
        return 1 / (1 + 10 ** (-elo / 400))

    s0, s1 = s(elo0), s(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=("chess", "royal"), default="chess")
    parser.add_argument("--a", default="", help="A's parameters, name=value,...")
    parser.add_argument("--b", default="", help="B's parameters (default: the defaults)")
    parser.add_argument("--nodes", type=int, default=6000, help="nodes per move")
    parser.add_argument("--games", type=int, default=800, help="at most this many games")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--no-sprt", action="store_true", help="play all --games")
    args = parser.parse_args(argv)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    pairs = (args.games + 1) // 2
    openings = make_openings(args.variant, pairs, args.seed)
    jobs = [
        (args.a, args.b, args.variant, openings[i % len(openings)], args.nodes)
        for i in range(pairs)
    ]
    wins = draws = losses = 0
    verdict = "no decision"
    start = time.time()
    with multiprocessing.Pool(args.concurrency) as pool:
        for n, scores in enumerate(pool.imap_unordered(play_pair, jobs), 1):
            for sc in scores:
                wins += sc == 1.0
                draws += sc == 0.5
                losses += sc == 0.0
            ratio = llr(wins, draws, losses, args.elo0, args.elo1)
            elo, low, high = elo_interval(wins, draws, losses)
            if n % 10 == 0:
                print(
                    f"{2 * n:4d} games +{wins} ={draws} -{losses} Elo {elo:+.1f} "
                    f"({low:+.1f} .. {high:+.1f}) LLR {ratio:+.2f} [{lower:.2f}, {upper:.2f}] "
                    f"{time.time() - start:.0f}s",
                    flush=True,
                )
            if not args.no_sprt and (ratio >= upper or ratio <= lower):
                verdict = "H1 accepted (gain)" if ratio >= upper else "H0 accepted (no gain)"
                pool.terminate()
                break
    elo, low, high = elo_interval(wins, draws, losses)
    n = wins + draws + losses
    print(
        f"{args.variant} A[{args.a}] vs B[{args.b}] at {args.nodes} nodes/move: "
        f"+{wins} ={draws} -{losses} ({n} games) Elo {elo:+.1f} (95% {low:+.1f} .. {high:+.1f}) "
        f"LLR {llr(wins, draws, losses, args.elo0, args.elo1):+.2f} "
        f"SPRT({args.elo0:g},{args.elo1:g}) {verdict}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
