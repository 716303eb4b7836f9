"""Perft and notation speed of royalchess beside its references, measured in one run.

    python bench/perft.py            # the full set (a few minutes)
    python bench/perft.py --quick    # smaller depths, for a smoke run
    python bench/perft.py --engines  # only the engines: no python-chess, no SAN (a minute)
    python bench/perft.py --cpu      # rates per CPU second (ours and the UCI engines'), for
                                     # a loaded machine, where wall-clock rates swing by 2x

References, each measured here and now on the same machine:
- python-chess (``pip install chess``): perft with the same bulk counting (legal moves are
  counted, not played, at the last ply), at a depth it finishes in reasonable time;
- Stockfish's ``go perft`` (Debian package ``stockfish``), when installed;
- Fairy-Stockfish's 10x8 ``capablanca`` perft (Debian package ``fairy-stockfish``) beside our
  Royal Chess perft, the nearest 10x8 peer;
- python-chess's SAN writing and parsing beside ours, per 1,000 moves.
The ratios are what to read: absolute figures change with the machine.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import time
from collections.abc import Callable
from typing import Any

import royalchess

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ROYAL_START = royalchess.Board(variant="royal").fen()


CPU_TIME = False
"""Time by CPU seconds instead of wall-clock ones (``--cpu``)."""


def clock() -> float:
    return time.process_time() if CPU_TIME else time.perf_counter()


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t = clock()
    result = fn()
    return result, clock() - t


def child_cpu(pid: int) -> float:
    """CPU seconds (user + system) a running child has used so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def our_perft(fen: str, depth: int, variant: str = "chess") -> tuple[int, float]:
    board = royalchess.Board(fen, variant=variant)
    nodes, secs = timed(lambda: board.perft(depth))
    return int(nodes), secs


def pychess_perft(fen: str, depth: int) -> tuple[int, float]:
    import chess

    def perft(board: chess.Board, d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        n = 0
        for move in board.legal_moves:
            board.push(move)
            n += perft(board, d - 1)
            board.pop()
        return n

    board = chess.Board(fen)
    return timed(lambda: perft(board, depth))


def uci_perft(binary: str, fen: str, depth: int, variant: str | None = None) -> tuple[int, float]:
    """Run ``go perft`` in a UCI engine; time from the command to the node count."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin and proc.stdout
    setup = "uci\n"
    if variant:
        setup += f"setoption name UCI_Variant value {variant}\n"
    setup += ("position startpos\n" if fen == "startpos" else f"position fen {fen}\n") + "isready\n"
    proc.stdin.write(setup)
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "readyok":
        pass
    t = child_cpu(proc.pid) if CPU_TIME else time.perf_counter()
    proc.stdin.write(f"go perft {depth}\n")
    proc.stdin.flush()
    nodes = 0
    for line in proc.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            break
    secs = (child_cpu(proc.pid) if CPU_TIME else time.perf_counter()) - t
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return nodes, secs


def find_binary(name: str) -> str | None:
    return shutil.which(name) or shutil.which(f"/usr/games/{name}")


def sample_positions(n: int, seed: int = 7) -> list[str]:
    """FENs from seeded random games, for the notation benchmark."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < n:
        board = royalchess.Board()
        for _ in range(rng.randrange(4, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.legal_moves:
            fens.append(board.fen())
    return fens


def san_bench(fens: list[str]) -> list[tuple[str, float, float]]:
    import chess

    ours = [royalchess.Board(f) for f in fens]
    theirs = [chess.Board(f) for f in fens]
    our_moves = [list(b.legal_moves) for b in ours]
    their_moves = [list(b.legal_moves) for b in theirs]
    count = sum(len(m) for m in our_moves)

    def write_ours() -> list[list[str]]:
        return [[b.san(m) for m in ms] for b, ms in zip(ours, our_moves, strict=False)]

    def write_theirs() -> list[list[str]]:
        return [[b.san(m) for m in ms] for b, ms in zip(theirs, their_moves, strict=False)]

    our_sans, t_ours_w = timed(write_ours)
    their_sans, t_theirs_w = timed(write_theirs)
    assert [sorted(x) for x in our_sans] == [sorted(x) for x in their_sans], "SAN differs"
    _, t_ours_p = timed(
        lambda: [[b.parse_san(s) for s in ss] for b, ss in zip(ours, our_sans, strict=False)]
    )
    _, t_theirs_p = timed(
        lambda: [[b.parse_san(s) for s in ss] for b, ss in zip(theirs, their_sans, strict=False)]
    )
    per = 1000 / count
    return [
        ("SAN writing", t_ours_w * per, t_theirs_w * per),
        ("SAN parsing", t_ours_p * per, t_theirs_p * per),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths")
    parser.add_argument(
        "--engines", action="store_true", help="skip python-chess and the SAN benchmark"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="nodes per CPU second instead of per wall second"
    )
    args = parser.parse_args()
    global CPU_TIME
    CPU_TIME = args.cpu
    q = args.quick
    pc = not args.engines
    stockfish = find_binary("stockfish")
    fairy = find_binary("fairy-stockfish")

    print("# Perft nodes/s (bulk counting at the last ply)\n")
    print(
        "| position | depth | royalchess Mn/s | python-chess Mn/s (depth) | ratio | "
        "Stockfish Mn/s | ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    chess_nps = []
    for name, fen, depth, pc_depth in (
        ("start", START, 5 if q else 6, 3 if q else 4),
        ("Kiwipete", KIWIPETE, 4 if q else 5, 3),
    ):
        nodes, secs = our_perft(fen, depth)
        ours = nodes / secs
        chess_nps.append(ours)
        row = f"| {name} | {depth} | {ours / 1e6:.1f} |"
        if pc:
            pc_nodes, pc_secs = pychess_perft(fen, pc_depth)
            theirs = pc_nodes / pc_secs
            row += f" {theirs / 1e6:.3f} ({pc_depth}) | {ours / theirs:.0f}x |"
        else:
            row += " (skipped) | |"
        if stockfish:
            sf_nodes, sf_secs = uci_perft(stockfish, fen, depth)
            assert sf_nodes == nodes, f"Stockfish counts {sf_nodes}, we count {nodes}"
            sf = sf_nodes / sf_secs
            row += f" {sf / 1e6:.1f} | {ours / sf:.2f}x |"
        else:
            row += " (not installed) | |"
        print(row)

    print("\n# Royal Chess perft\n")
    rdepth = 4 if q else 5
    nodes, secs = our_perft(ROYAL_START, rdepth, "royal")
    royal = nodes / secs
    mean_chess = sum(chess_nps) / len(chess_nps)
    print(
        f"royalchess Royal start depth {rdepth}: {nodes} nodes, {royal / 1e6:.1f} Mn/s, "
        f"{royal / mean_chess:.2f}x our chess nodes/s"
    )
    if fairy:
        f_nodes, f_secs = uci_perft(fairy, "startpos", rdepth, variant="capablanca")
        fnps = f_nodes / f_secs
        print(
            f"Fairy-Stockfish capablanca start depth {rdepth}: {f_nodes} nodes, "
            f"{fnps / 1e6:.1f} Mn/s; ours/theirs = {royal / fnps:.2f}x"
        )
    else:
        print("Fairy-Stockfish: not installed")
    if not pc:
        return

    print("\n# SAN per 1,000 moves (ms)\n")
    print("| task | royalchess | python-chess | speed-up |")
    print("|---|---|---|---|")
    for task, ours_ms, theirs_ms in san_bench(sample_positions(100 if q else 400)):
        print(
            f"| {task} | {ours_ms * 1e3:.2f} | {theirs_ms * 1e3:.2f} | {theirs_ms / ours_ms:.1f}x |"
        )


if __name__ == "__main__":
    main()
