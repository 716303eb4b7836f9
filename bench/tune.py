"""Fit evaluation weights to the scores of a teacher, by local search (Texel style).

Three steps, each a subcommand:

    python bench/tune.py positions chess 150 chess.fens   # quiet positions from self-play
    python bench/tune.py label chess.fens chess.lab --stockfish --depth 8
    python bench/tune.py fit chess.lab --variant chess --skip qguard_mg,qguard_eg,...

``label`` scores each position with Stockfish (standard chess) or with our own deeper
search (``--self``, the only teacher for Royal Chess); positions whose best move captures
are dropped, so the static evaluation is compared with quiet positions only. ``fit``
changes one weight at a time while the mean squared error between the win probabilities of
our static evaluation and the teacher's score falls, and prints the weights found; they go
into ``DEFAULT_PARAMS`` in ``src/core/eval.c`` only after a self-play match confirms them
(``bench/match.py`` or ``bench/levels.py --ab``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from match import load_openings

from royalchess import Board, _core
from royalchess.engine import Engine, Limit
from royalchess.variants import get_variant

SEARCH_TUNABLES = {
    "rfp_depth", "rfp_margin", "fut_depth", "fut_base", "fut_margin", "lmp_depth",
    "null_base", "lmr_base", "lmr_div", "hist_div", "see_margin", "qs_delta",
}  # fmt: skip


def positions(variant: str, games: int, out: Path, seed: int = 5) -> int:
    """Quiet positions (not in check) sampled from level-13 self-play games."""
    rng = random.Random(seed)
    engine = Engine(level=13, seed=seed, hash_mb=8)
    openings = load_openings() if variant == "chess" else []
    n = 0
    with out.open("w", encoding="utf-8") as f:
        for game in range(games):
            board = Board(variant=variant)
            if openings:
                for uci in openings[game % len(openings)]:
                    board.push_uci(uci)
            else:
                for _ in range(4):
                    board.push(rng.choice(list(board.legal_moves)))
            while not board.is_game_over(claim_draw=True) and board.ply() < 250:
                board.push(engine.play(board, Limit(nodes=3000)))
                if board.ply() > 8 and not board.is_check() and rng.random() < 0.5:
                    f.write(board.fen() + "\n")
                    n += 1
    return n


def label(fens: Path, out: Path, variant: str, depth: int, stockfish: str | None) -> int:
    """Score each position for the side to move; drop those whose best move captures."""
    n = 0
    with out.open("w", encoding="utf-8") as f:
        if stockfish:
            import chess
            import chess.engine

            sf = chess.engine.SimpleEngine.popen_uci(stockfish)
            try:
                for fen in fens.read_text(encoding="utf-8").splitlines():
                    board = chess.Board(fen)
                    info = sf.analyse(board, chess.engine.Limit(depth=depth))
                    pv = info.get("pv") or []
                    if pv and board.is_capture(pv[0]):
                        continue
                    score = info["score"].pov(board.turn).score(mate_score=3000)
                    f.write(f"{fen};{score}\n")
                    n += 1
            finally:
                sf.quit()
            return n
        search = _core.Search(16)
        core_id = get_variant(variant).core_id
        for fen in fens.read_text(encoding="utf-8").splitlines():
            board = Board(fen, variant=variant)
            result = search.go(fen, core_id, depth=depth)
            best, score = result.get("best"), result.get("score")
            if not isinstance(best, int) or not isinstance(score, int):
                continue
            if board.is_capture(next(m for m in board.legal_moves if m.code() == best)):
                continue
            f.write(f"{fen};{score}\n")
            n += 1
    return n


def fit(data: Path, variant: str, skip: set[str], passes: int = 3) -> dict[str, int]:
    """Coordinate descent on the weights not in skip; returns the weights found."""
    rows = []
    for line in data.read_text(encoding="utf-8").splitlines():
        fen, score = line.rsplit(";", 1)
        rows.append((fen, max(-1500, min(1500, int(score)))))
    search = _core.Search(1)
    core_id = get_variant(variant).core_id

    def win(cp: float) -> float:
        return 1 / (1 + 10 ** (-cp / 400))

    targets = [win(score) for _, score in rows]

    def loss() -> float:
        total = 0.0
        for (fen, _), target in zip(rows, targets, strict=True):
            total += (win(search.evaluate(fen, core_id)) - target) ** 2
        return total / len(rows)

    params = search.params()

    def useful(name: str) -> bool:
        if name in SEARCH_TUNABLES or name in skip:
            return False
        if name[:8] in ("pst_mg_p", "pst_eg_p") and name.split("_")[3] in ("0", "7"):
            return False  # no pawn stands on its first or last rank
        if variant == "chess":
            return "guard" not in name and "_g_" not in name
        return True

    names = [n for n in params if useful(n)]
    best = loss()
    print(f"start: error {best:.6f} over {len(rows)} positions", flush=True)
    for it in range(passes):
        improved = False
        for name in names:
            value = params[name]
            step = max(1, abs(value) // (10 if it == 0 else 25))
            for delta in (step, -step):
                search.set_param(name, params[name] + delta)
                error = loss()
                if error >= best:
                    search.set_param(name, params[name])
                    continue
                best, params[name], improved = error, params[name] + delta, True
                while True:  # keep going while it helps
                    search.set_param(name, params[name] + delta)
                    error = loss()
                    if error >= best:
                        search.set_param(name, params[name])
                        break
                    best, params[name] = error, params[name] + delta
                break
            print(f"pass {it} {name}: {value} -> {params[name]}  error {best:.6f}", flush=True)
        if not improved:
            break
    return {name: params[name] for name in names}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("variant", choices=("chess", "royal"))
    p.add_argument("games", type=int)
    p.add_argument("out", type=Path)
    p = sub.add_parser("label")
    p.add_argument("fens", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--variant", choices=("chess", "royal"), default="chess")
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--stockfish", nargs="?", const="/usr/games/stockfish")
    p = sub.add_parser("fit")
    p.add_argument("data", type=Path)
    p.add_argument("--variant", choices=("chess", "royal"), default="chess")
    p.add_argument("--skip", default="", help="weights to leave alone, comma-separated")
    p.add_argument("--only", default="", help="fit only these weights, comma-separated")
    args = parser.parse_args(argv)
    if args.command == "positions":
        print(positions(args.variant, args.games, args.out), "positions")
    elif args.command == "label":
        print(label(args.fens, args.out, args.variant, args.depth, args.stockfish), "labelled")
    else:
        skip = set(filter(None, args.skip.split(",")))
        if args.only:
            only = set(args.only.split(","))
            skip |= {n for n in _core.Search(1).params() if n not in only}
        found = fit(args.data, args.variant, skip)
        print(",".join(f"{k}={v}" for k, v in found.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
