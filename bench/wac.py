"""Win At Chess at a fixed time per position: royalchess beside Stockfish, in one run.

Both engines are driven over UCI the same way (``go movetime``, hash cleared with
``ucinewgame`` before each position; royalchess with ``Move Overhead`` 0 so that, like
Stockfish, it searches the whole movetime); a position counts as solved when the move played is
one of the EPD's ``bm`` moves.

    python bench/wac.py                       # 300 positions, 100 ms each, both engines
    python bench/wac.py --movetime 0.5 --limit 50 --no-stockfish
    python bench/wac.py --threads 2           # both engines on two threads (UCI Threads)
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine

HERE = Path(__file__).resolve().parent
DEFAULT_EPD = HERE / "data" / "wac.epd"  # see bench/data/README.md
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"


def solve(
    command: list[str],
    positions: list[tuple[chess.Board, dict[str, object]]],
    movetime: float,
    verbose: bool,
    options: dict[str, int],
) -> tuple[int, int, float]:
    """Return (solved, total nodes, seconds), the engine set up with the UCI *options*."""
    engine = chess.engine.SimpleEngine.popen_uci(command, timeout=60)
    engine.configure(options)
    solved = nodes = 0
    start = time.time()
    try:
        for board, ops in positions:
            result = engine.play(
                board,
                chess.engine.Limit(time=movetime),
                info=chess.engine.INFO_BASIC,
                game=object(),  # a new game each time: the engine gets ucinewgame
            )
            bms = ops.get("bm", [])
            ok = result.move in bms  # type: ignore[operator]
            solved += ok
            nodes += int(result.info.get("nodes", 0))
            if verbose and not ok:
                print(f"  missed {ops.get('id')}: {board.san(result.move)}", file=sys.stderr)
    finally:
        engine.quit()
    return solved, nodes, time.time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epd", type=Path, default=DEFAULT_EPD)
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds per position")
    parser.add_argument("--limit", type=int, default=0, help="only the first N positions")
    parser.add_argument("--no-stockfish", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--threads", type=int, default=1, help="UCI Threads of both engines")
    args = parser.parse_args(argv)
    positions = []
    for line in args.epd.read_text(encoding="utf-8").splitlines():
        if line.strip():
            positions.append(chess.Board.from_epd(line))
    if args.limit:
        positions = positions[: args.limit]
    # Stockfish searches a `go movetime` whole (its Move Overhead is for clocks only);
    # royalchess keeps min(Move Overhead, movetime/10) in hand unless told the pipe is free
    threads = {"Threads": args.threads}
    engines: list[tuple[str, list[str], dict[str, int]]] = [
        ("royalchess", [sys.executable, "-m", "royalchess", "uci"], {"Move Overhead": 0, **threads})
    ]
    if not args.no_stockfish:
        engines.append(("stockfish", [STOCKFISH], threads))
    ms = args.movetime * 1000
    for name, command, options in engines:
        solved, nodes, seconds = solve(command, positions, args.movetime, args.verbose, options)
        print(
            f"{name:10s} WAC {solved}/{len(positions)} at {ms:.0f} ms/position, "
            f"{args.threads} thread{'s' * (args.threads > 1)} "
            f"({nodes / max(seconds, 1e-9):,.0f} nodes/s over the run)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
