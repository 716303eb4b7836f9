"""Engine matches over UCI, with an Elo estimate and its 95% error bars.

Each opening of ``bench/openings.txt`` is played twice, colours swapped, at a fixed time
per move (100 ms by default). The engines are UCI commands; ``royalchess`` options go after
the command as ``--a-option NAME=VALUE``. Games are adjudicated only when both engines
agree a side is lost (both scores beyond 10 pawns for 3 moves each) or after 300 plies (a
draw), which saves time without changing results noticeably.

    python bench/match.py --games 40 \\
        --a "python -m royalchess uci" \\
        --b /usr/games/stockfish --b-option UCI_LimitStrength=true --b-option UCI_Elo=2000

Self-play of a change: ``--b "python -m royalchess uci" --b-env ROYALCHESS_PARAMS=rfp_margin=120``.

Standard chess only: Royal Chess level matches use ``bench/royal_levels.py``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

HERE = Path(__file__).resolve().parent


def load_openings(path: Path = HERE / "openings.txt") -> list[list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


@dataclass
class Player:
    command: list[str]
    options: dict[str, str]
    name: str
    env: dict[str, str]

    def open(self) -> chess.engine.SimpleEngine:
        env = {**os.environ, **self.env}
        engine = chess.engine.SimpleEngine.popen_uci(self.command, timeout=60, env=env)
        engine.configure({k: _value(v) for k, v in self.options.items()})
        return engine


def _value(text: str) -> str | int | bool:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def play_game(white: Player, black: Player, opening: list[str], movetime: float) -> tuple[str, int]:
    """Play one game; return (result "1-0"/"0-1"/"1/2-1/2", plies)."""
    engines = {chess.WHITE: white.open(), chess.BLACK: black.open()}
    try:
        board = chess.Board()
        for uci in opening:
            board.push_uci(uci)
        lost_streak = {chess.WHITE: 0, chess.BLACK: 0}
        while not board.is_game_over(claim_draw=True):
            if board.ply() >= 300:
                return "1/2-1/2", board.ply()
            side = board.turn
            result = engines[side].play(
                board, chess.engine.Limit(time=movetime), info=chess.engine.INFO_SCORE
            )
            score = result.info.get("score")
            if score is not None:
                pov = score.pov(chess.WHITE).score(mate_score=100_000)
                lost = pov is not None and abs(pov) >= 1000
                lost_streak[side] = lost_streak[side] + 1 if lost else 0
                if lost and min(lost_streak.values()) >= 3:
                    return ("1-0" if pov > 0 else "0-1"), board.ply()
            if result.move is None:
                break
            board.push(result.move)
        return board.result(claim_draw=True), board.ply()
    finally:
        for engine in engines.values():
            engine.quit()


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


def run_match(
    a: Player, b: Player, games: int, movetime: float, concurrency: int = 1, quiet: bool = False
) -> tuple[int, int, int]:
    openings = load_openings()
    jobs = []
    for i in range(games):
        opening = openings[(i // 2) % len(openings)]
        a_white = i % 2 == 0
        jobs.append((a_white, opening))
    wins = draws = losses = 0
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        futures = {
            pool.submit(play_game, *((a, b) if a_white else (b, a)), opening, movetime): a_white
            for a_white, opening in jobs
        }
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            a_white = futures[future]
            result, plies = future.result()
            if result == "1/2-1/2":
                draws += 1
            elif (result == "1-0") == a_white:
                wins += 1
            else:
                losses += 1
            if not quiet:
                elo, low, high = elo_interval(wins, draws, losses)
                print(
                    f"{n:4d}/{games} {a.name} {'white' if a_white else 'black'} {result:7s} "
                    f"{plies:3d} plies | +{wins} ={draws} -{losses} "
                    f"elo {elo:+.0f} [{low:+.0f}, {high:+.0f}] {time.time() - start:.0f}s",
                    flush=True,
                )
    return wins, draws, losses


def _player(command: str, options: list[str], name: str | None, env: list[str]) -> Player:
    opts = dict(o.split("=", 1) for o in options)
    variables = dict(e.split("=", 1) for e in env)
    return Player(shlex.split(command), opts, name or Path(shlex.split(command)[0]).name, variables)


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
    args = parser.parse_args(argv)
    a = _player(args.a, args.a_option, args.a_name, args.a_env)
    b = _player(args.b, args.b_option, args.b_name, args.b_env)
    wins, draws, losses = run_match(a, b, args.games, args.movetime, args.concurrency)
    elo, low, high = elo_interval(wins, draws, losses)
    print(
        f"{a.name} vs {b.name} {' '.join(args.b_option)}: +{wins} ={draws} -{losses}, "
        f"Elo {elo:+.0f} (95% {low:+.0f} .. {high:+.0f}) over {wins + draws + losses} games "
        f"at {args.movetime * 1000:.0f} ms/move"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
