"""The ``match``, ``analyse``, ``datagen`` and ``tune`` sub-commands: their arguments and handlers,
plugged into ``royalchess.cli`` by :func:`add_commands`.

Bad input (a bad ENGINE, an unreadable file, an output file that exists without
``--resume``, ``--ray`` without Ray installed) is reported on standard error with exit
code 2; a run stopped by Ctrl+C or by SIGTERM (``kill``, a service manager, a batch
system's time limit) stops its workers, says how to resume it and exits with 130.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from royalchess.runner.backends import Backend, BackendError, make_backend
from royalchess.runner.output import OutputError

__all__ = ["add_commands"]

_AUTO = "\0auto"


class _Usage(Exception):
    pass


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    return value


def _add_backend_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("where it runs")
    group.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        default=None,
        help="worker processes on this machine (default: one per core)",
    )
    group.add_argument(
        "--ray",
        nargs="?",
        const=_AUTO,
        default=None,
        metavar="ADDRESS",
        help="run on a Ray cluster: HOST:6379, 'auto' (the cluster this machine joined; "
        "the default, or $RAY_ADDRESS), or 'local' (a private Ray here with --jobs CPUs); "
        "needs pip install 'royalchess[cluster]'",
    )
    group.add_argument(
        "--resume",
        action="store_true",
        help="go on with an existing output file: keep its finished units, run the rest",
    )
    group.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _backend(args: argparse.Namespace) -> Backend:
    address = args.ray
    if address == _AUTO:
        address = os.environ.get("RAY_ADDRESS") or "auto"
    return make_backend(args.jobs, address)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Make SIGTERM stop a run the way Ctrl+C does.

    Its default action ends this process at once, skipping the clean-up that stops the pool:
    the worker processes (which only this process would stop) were left running. A second
    SIGTERM during the clean-up ends the process at once, as before.
    """
    previous = signal.getsignal(signal.SIGTERM)
    # handlers can only be set from the main thread; an ignored SIGTERM stays ignored
    if threading.current_thread() is not threading.main_thread() or previous == signal.SIG_IGN:
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def wrapped(args: argparse.Namespace) -> int:
        try:
            with _terminate_as_interrupt():
                return handler(args)
        except (_Usage, ValueError, OutputError, BackendError) as exc:
            print(f"royalchess {args.command}: error: {exc}", file=sys.stderr)
            return 2

    return wrapped


def _interrupted(output: str, what: str) -> int:
    print(
        f"interrupted: the finished {what} are in {output}; "
        "run the same command with --resume to go on",
        file=sys.stderr,
    )
    return 130


# -- match -------------------------------------------------------------------------------------


def _cmd_match(args: argparse.Namespace) -> int:
    from royalchess.runner.match import Adjudication, MatchPlan, run_match, summary
    from royalchess.runner.openings import load_openings
    from royalchess.runner.players import EngineSpec, TimeControl, check_spec
    from royalchess.runner.sprt import Sprt

    specs = [EngineSpec.parse(text) for text in args.engines]
    for spec in specs:
        check_spec(spec)
    if specs[0].name == specs[1].name:
        specs[1] = EngineSpec(
            specs[1].kind, specs[1].name + " (2)", specs[1].options, specs[1].command, specs[1].env
        )
    tc = TimeControl.parse(args.nodes, args.movetime, args.tc)
    if tc.nodes is None and tc.movetime is None and tc.base is None:
        raise _Usage("give --nodes, --movetime or --tc")
    sprt = Sprt.parse(args.sprt) if args.sprt else None
    games = args.games if args.games is not None else (20_000 if sprt else 100)
    if games % 2:
        raise _Usage(f"--games {games}: games are played in pairs, give an even number")
    resign_cp, resign_moves = _numbers(args.resign, 2, "--resign CP/MOVES")
    draw_cp, draw_moves, draw_after = _numbers(args.draw, 3, "--draw CP/MOVES/AFTER")
    adjudication = Adjudication(
        resign_cp,
        0 if args.no_adjudicate else resign_moves,
        draw_cp,
        0 if args.no_adjudicate else draw_moves,
        draw_after,
        args.max_plies,
    )
    plan = MatchPlan(
        specs[0],
        specs[1],
        args.variant,
        load_openings(args.openings, args.variant),
        tc,
        games,
        args.seed,
        adjudication,
        sprt,
        args.time_margin / 1000,
        args.skip_openings,
    )
    playable = len(plan.openings) - plan.skip
    repeats = games - 2 * playable
    if tc.nodes is not None and repeats > 0:
        # a seed only orders the openings: at fixed nodes the built-in engine (and most
        # others) plays a repeated opening's pair exactly as before, so the repeats add games
        # to the count but no information to the interval
        print(
            f"warning: {games} games from {playable} openings: {repeats} games "
            "repeat an opening, and at a fixed node count an engine without randomness "
            "replays the same game; give more openings (--openings FILE) or fewer games",
            file=sys.stderr,
        )
    backend = _backend(args)
    try:
        outcome = run_match(plan, backend, args.output, resume=args.resume, quiet=args.quiet)
    finally:
        backend.close()
    print(summary(plan, outcome, backend.workers), flush=True)
    if outcome.interrupted:
        return _interrupted(args.output, "games")
    return 0


def _numbers(text: str, count: int, what: str) -> list[int]:
    parts = text.split("/")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise _Usage(f"bad {what}: {text!r}") from None
    if len(values) != count or min(values) < 0:
        raise _Usage(f"bad {what}: {text!r}")
    return values


def _add_match(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "match",
        help="play two engines against each other: Elo, LOS, SPRT",
        description="Play pairs of games (each opening with colours swapped) between two "
        "engines, on local worker processes or a Ray cluster, with W/D/L, pentanomial "
        "pairs, Elo with its 95% interval, LOS and an optional SPRT that stops the match "
        "when it decides. ENGINE: royalchess[:level=N,elo=E,hash=MB,threads=N,param.NAME=V,"
        "name=X] (the built-in engine) or uci[OPTION=V,...,name=X]:COMMAND (any UCI engine; "
        "a path alone also works). Games go to the PGN file as they end.",
    )
    parser.add_argument("engines", nargs=2, metavar="ENGINE", help="the two engines")
    parser.add_argument("--variant", choices=("chess", "royal"), default="chess")
    parser.add_argument(
        "--games",
        type=_positive,
        default=None,
        help="games to play (even; default 100, or 20000 as the limit of an SPRT)",
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="EPD/FEN, UCI move lines or PGN (default: the built-in balanced set of the variant)",
    )
    parser.add_argument(
        "--skip-openings",
        type=int,
        default=0,
        metavar="N",
        help="start at opening N+1 of the seeded order, e.g. to play the openings an earlier "
        "match with the same seed and 2N games did not (default 0)",
    )
    tc = parser.add_mutually_exclusive_group()
    tc.add_argument("--nodes", type=_positive, help="nodes per move (repeatable games)")
    tc.add_argument("--movetime", type=_positive, metavar="MS", help="milliseconds per move")
    tc.add_argument("--tc", metavar="BASE+INC", help="clock: seconds plus increment, e.g. 10+0.1")
    parser.add_argument(
        "--sprt",
        nargs="+",
        metavar="K=V",
        help="sequential test, e.g. --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 "
        "[model=normalized|logistic]",
    )
    parser.add_argument("--seed", type=int, default=1, help="opening order and weak levels")
    parser.add_argument(
        "--resign",
        default="1000/3",
        metavar="CP/MOVES",
        help="adjudicate a win when both engines agree (default 1000/3)",
    )
    parser.add_argument(
        "--draw",
        default="10/8/40",
        metavar="CP/MOVES/AFTER",
        help="adjudicate a draw from move AFTER (default 10/8/40)",
    )
    parser.add_argument("--max-plies", type=_positive, default=400, help="then a draw (400)")
    parser.add_argument("--no-adjudicate", action="store_true", help="play every game out")
    parser.add_argument(
        "--time-margin",
        type=int,
        default=100,
        metavar="MS",
        help="clock overrun allowed before a time forfeit (default 100)",
    )
    parser.add_argument("-o", "--output", default="match.pgn", help="PGN file (match.pgn)")
    _add_backend_args(parser)
    parser.set_defaults(handler=_run(_cmd_match))


# -- analyse -----------------------------------------------------------------------------------


def _cmd_analyse(args: argparse.Namespace) -> int:
    from royalchess.runner.analyse import run_analyse

    try:
        text = Path(args.games).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise _Usage(f"cannot read {args.games!r}: {exc}") from None
    nodes = args.nodes
    if args.depth is None and args.movetime is None and nodes is None:
        nodes = 100_000
    backend = _backend(args)
    try:
        outcome = run_analyse(
            text,
            backend,
            args.output,
            depth=args.depth,
            nodes=nodes,
            movetime=None if args.movetime is None else args.movetime / 1000,
            resume=args.resume,
            quiet=args.quiet,
        )
    finally:
        backend.close()
    for skipped in outcome.skipped:
        print(f"skipped {skipped}", file=sys.stderr)
    i, m, b = outcome.judgements
    rate = outcome.positions / outcome.seconds if outcome.seconds > 0 else 0.0
    print(
        f"analysed {outcome.analysed} games ({outcome.positions} positions, {rate:.1f}/s on "
        f"{backend.workers} workers) into {args.output}"
        + (f", {outcome.resumed} read back" if outcome.resumed else "")
        + f"; {len(outcome.skipped)} skipped; {i} inaccuracies, {m} mistakes, {b} blunders",
        flush=True,
    )
    if outcome.interrupted:
        return _interrupted(args.output, "games")
    return 0


def _add_analyse(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "analyse",
        help="annotate every move of a PGN file: evals, ?! ? ??, better lines, accuracy",
        description="Evaluate every move of every game (chess or Royal Chess) and write the "
        "annotated games: [%eval] comments, ?! ? ?? with the better line as a variation, "
        "and each side's accuracy (WhiteAccuracy/BlackAccuracy tags), as lichess does. "
        "Malformed games are reported and skipped.",
    )
    parser.add_argument("games", metavar="GAMES.pgn")
    parser.add_argument("-o", "--output", required=True, help="the annotated PGN file")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=_positive, help="plies per position")
    limit.add_argument("--nodes", type=_positive, help="nodes per position (default 100000)")
    limit.add_argument("--movetime", type=_positive, metavar="MS", help="ms per position")
    _add_backend_args(parser)
    parser.set_defaults(handler=_run(_cmd_analyse))


# -- datagen -----------------------------------------------------------------------------------


def _cmd_datagen(args: argparse.Namespace) -> int:
    from royalchess.runner.datagen import run_datagen

    backend = _backend(args)
    try:
        outcome = run_datagen(
            args.output,
            backend,
            positions=args.positions,
            variant=args.variant,
            nodes=args.nodes,
            random_plies=args.random_plies,
            seed=args.seed,
            resume=args.resume,
            quiet=args.quiet,
            eval_file=args.eval_file,
        )
    finally:
        backend.close()
    print(
        f"{outcome.positions} positions in {args.output} ({outcome.games} new games, "
        f"{outcome.seconds:.1f} s, {outcome.per_core:.1f} positions/s per worker, "
        f"{outcome.workers} workers)",
        flush=True,
    )
    if outcome.interrupted:
        return _interrupted(args.output, "games")
    return 0


def _add_datagen(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "datagen",
        help="self-play training positions with scores and results (binary file)",
        description="Play self-play games from randomised openings at fixed nodes and "
        "record each quiet position with its search score and the game's result, in the "
        "compact format of royalchess.runner.datagen (read it back with read_positions).",
    )
    parser.add_argument("-o", "--output", required=True, help="the data file")
    parser.add_argument("--positions", type=_positive, required=True, help="how many")
    parser.add_argument("--variant", choices=("chess", "royal"), default="chess")
    parser.add_argument("--nodes", type=_positive, default=5000, help="per move (5000)")
    parser.add_argument("--random-plies", type=int, default=8, help="random opening plies (8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--eval-file",
        help="play with this NNUE net (docs/nnue.md; default: the classic evaluation)",
    )
    _add_backend_args(parser)
    parser.set_defaults(handler=_run(_cmd_datagen))


# -- tune --------------------------------------------------------------------------------------


def _cmd_tune(args: argparse.Namespace) -> int:
    from royalchess.runner.openings import load_openings
    from royalchess.runner.players import EngineSpec, TimeControl, check_spec
    from royalchess.runner.spsa import TuneParam, TunePlan, run_tune

    base = EngineSpec.parse(args.engine)
    if base.kind != "royalchess":
        raise _Usage(f"--engine {args.engine!r}: tuning sets the built-in engine's parameters")
    params = [TuneParam.parse(text) for text in args.param]
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise _Usage("a parameter is given twice")
    nodes = 6000 if args.nodes is None and args.movetime is None else args.nodes
    tc = TimeControl.parse(nodes, args.movetime, None)
    plan = TunePlan(
        base,
        params,
        args.variant,
        load_openings(args.openings, args.variant),
        tc,
        args.pairs,
        args.seed,
    )
    check_spec(plan.spec("check", {p.name: round(p.start) for p in params}))
    backend = _backend(args)
    try:
        outcome = run_tune(plan, backend, args.output, resume=args.resume, quiet=args.quiet)
    finally:
        backend.close()
    done = outcome.resumed + outcome.pairs
    values = ",".join(f"param.{k}={round(v)}" for k, v in outcome.theta.items())
    print(
        f"{done} of {args.pairs} pairs ({outcome.pairs} this run, {outcome.seconds:.0f} s): "
        + " ".join(f"{k}={v:.1f}" for k, v in outcome.theta.items())
        + f"\nas an engine: royalchess:{values}",
        flush=True,
    )
    if outcome.interrupted:
        return _interrupted(args.output, "pairs")
    return 0


def _add_tune(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "tune",
        help="tune the built-in engine's parameters by self-play (SPSA)",
        description="SPSA, as fishtest tunes engines: each pair of games (one opening, "
        "colours swapped) plays the values shifted up against them shifted down and moves "
        "every value by the result. Keep what it finds only after a match against the "
        "defaults. Each finished pair is logged (JSON lines) with the values after it.",
    )
    parser.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME:START:MIN:MAX:C_END[:R_END]",
        help="a parameter to tune (repeat): a search tunable or evaluation weight, its start, "
        "range, its shift at the end of the run (C_END) and step share (R_END, 0.002)",
    )
    parser.add_argument(
        "--engine",
        default="royalchess:eval=auto",
        metavar="ENGINE",
        help="the built-in engine the values are set on (default royalchess:eval=auto)",
    )
    parser.add_argument("--variant", choices=("chess", "royal"), default="chess")
    parser.add_argument("--pairs", type=_positive, default=1000, help="game pairs (1000)")
    tc = parser.add_mutually_exclusive_group()
    tc.add_argument("--nodes", type=_positive, help="nodes per move (the default: 6000)")
    tc.add_argument("--movetime", type=_positive, metavar="MS", help="milliseconds per move")
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="EPD/FEN, UCI move lines or PGN (default: the built-in balanced set of the variant)",
    )
    parser.add_argument("--seed", type=int, default=1, help="opening order and signs")
    parser.add_argument("-o", "--output", default="tune.jsonl", help="the log (tune.jsonl)")
    _add_backend_args(parser)
    parser.set_defaults(handler=_run(_cmd_tune))


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``match``, ``analyse``, ``datagen`` and ``tune`` to the ``royalchess`` sub-commands."""
    for add in (_add_match, _add_analyse, _add_datagen, _add_tune):
        add(sub)
