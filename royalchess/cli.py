"""The ``royalchess`` command line: ``perft``, the terminal game (``play``, with the saved
games listed by ``games``) and the web app (``serve``, also what ``royalchess`` with no
arguments starts).

Each subcommand is a ``_add_<name>`` function that declares its arguments and a handler;
new ones (``uci``, ``serve``, ``bench``) slot in the same way. Bad input is reported on
standard error with exit code 2, without a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from royalchess import record
from royalchess.board import Board
from royalchess.errors import ChessError
from royalchess.store import StoreError
from royalchess.variants import VARIANTS

__all__ = ["main", "play"]

Handler = Callable[[argparse.Namespace], int]


class _UsageError(Exception):
    """Bad command-line input found after argument parsing."""


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid depth {text!r}: not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid depth {value}: must be 0 or more")
    return value


def _add_position_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        default=None,
        help="chess (default) or royal; --record implies royal",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--fen", help="start from this FEN instead of the start position")
    where.add_argument(
        "--record", metavar="FILE", help="start from a Royal Chess position record file"
    )


def _board_from(args: argparse.Namespace) -> Board:
    if args.record is not None:
        if args.variant not in (None, "royal"):
            raise _UsageError("--record is a Royal Chess position record: use --variant royal")
        try:
            text = Path(args.record).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _UsageError(f"cannot read record {args.record!r}: {exc}") from None
        return record.parse(text)
    return Board(args.fen, variant=args.variant or "chess")


def _cmd_perft(args: argparse.Namespace) -> int:
    board = _board_from(args)
    depth: int = args.depth
    start = time.perf_counter()
    if args.divide and depth > 0:
        rows = sorted((move.uci(), count) for move, count in board.divide(depth))
        total = sum(count for _, count in rows)
        for spelling, count in rows:
            print(f"{spelling}: {count}")
    else:
        total = board.perft(depth)
    elapsed = time.perf_counter() - start
    print(total, flush=True)
    rate = f"{total / elapsed:,.0f} nodes/s" if elapsed > 0 else "too fast to time"
    print(f"perft {depth}: {total:,} nodes in {elapsed:.3f} s, {rate}", file=sys.stderr)
    return 0


def _add_perft(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "perft",
        help="count the leaf nodes of the legal move tree",
        description="Count the leaf nodes of the legal move tree DEPTH plies deep. The last "
        "line of standard output is the total; the speed goes to standard error.",
    )
    _add_position_args(parser)
    parser.add_argument(
        "--divide", action="store_true", help="print 'MOVE: COUNT' for each root move first"
    )
    parser.add_argument("depth", metavar="DEPTH", type=_depth, help="plies to search")
    parser.set_defaults(handler=_cmd_perft)


def play(
    board: Board,
    *,
    read: Callable[[str], str] = input,
    out: Callable[[str], None] = print,
    echo: bool = False,
    unicode: bool = False,
) -> int:
    """Run a two-player game on *board* in the plain line mode, reading lines with *read*
    and writing with *out*; nothing is saved. Returns the exit status (0).

    End of input leaves the game unfinished. The full terminal game (the computer, colour,
    saved games) is :mod:`royalchess.terminal`.
    """
    from royalchess.terminal import PlainScreen, TerminalGame

    game = TerminalGame(PlainScreen(read, out, echo=echo, unicode=unicode))
    game.new_game(board)
    return game.run()


def _cmd_play(args: argparse.Namespace) -> int:
    from royalchess import terminal

    try:
        return terminal.run(args, lambda: _board_from(args))
    except terminal.SetupError as exc:
        raise _UsageError(str(exc)) from None


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from royalchess.terminal import add_play_arguments

    parser = sub.add_parser(
        "play",
        help="play in the terminal: against the computer or two players",
        description="Chess or Royal Chess in the terminal, against the computer (--color, "
        "--level) or two players (--two-players); at a terminal, without these, it asks. "
        "Moves are typed in SAN or UCI; 'help' lists the commands (hint, takeback, level, "
        "flip, new, save, resume...). Games are saved after every move in the database the "
        "web app uses, so either can resume them. With standard input not a terminal (a pipe, "
        "a script) it reads line by line in plain text.",
    )
    _add_position_args(parser)
    add_play_arguments(parser)
    parser.set_defaults(handler=_cmd_play)


def _cmd_games(args: argparse.Namespace) -> int:
    from royalchess import terminal

    try:
        if args.export is not None:
            return terminal.export_games(args.db, args.export, unfinished=args.unfinished)
        if args.import_ is not None:
            if args.unfinished:
                raise _UsageError("--unfinished chooses games to list or export, not to import")
            return terminal.import_games(args.db, args.import_)
        return terminal.list_games(args.db, unfinished=args.unfinished)
    except terminal.SetupError as exc:
        raise _UsageError(str(exc)) from None


def _add_games(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from royalchess.terminal import add_games_arguments

    parser = sub.add_parser(
        "games",
        help="list, export or import the saved games (resume one with 'play --resume ID')",
        description="List the saved games of the terminal and the web app, most recently "
        "played first; or write them all to a PGN file (--export), or save the games of a "
        "PGN file (--import, read game by game with a progress bar).",
    )
    add_games_arguments(parser)
    parser.set_defaults(handler=_cmd_games)


def _cmd_serve(args: argparse.Namespace) -> int:
    from royalchess.web.server import serve

    return serve(
        args.host,
        args.port,
        args.db,
        open_browser=not args.no_browser,
        token=args.token,
        max_body=args.max_body,
        threads=args.threads,
    )


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from royalchess.web.server import add_arguments

    parser = sub.add_parser(
        "serve",
        help="play in the web browser (the default command)",
        description="Serve the web app on a local address, print its URL and open it in a "
        "browser when one is available. Games are saved as they are played.",
    )
    add_arguments(parser)
    parser.set_defaults(handler=_cmd_serve)


def _cmd_uci(args: argparse.Namespace) -> int:
    from royalchess import uci

    return uci.main()


def _add_uci(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "uci",
        help="run the engine as a UCI server (for chess GUIs and python-chess)",
        description="Speak the Universal Chess Interface on standard input and output. "
        "'setoption name UCI_Variant value royal' switches to Royal Chess.",
    )
    parser.set_defaults(handler=_cmd_uci)


def _cmd_bench(args: argparse.Namespace) -> int:
    from royalchess import bench

    def show(index: int, variant: str, fen: str, nodes: int) -> None:
        if args.verbose:
            print(f"{index + 1:2d} {variant:5s} {nodes:10d}  {fen}", file=sys.stderr)

    result = bench.run(args.depth, progress=show)
    print(f"{result.nodes} nodes {result.nps} nps", flush=True)
    print(
        f"bench depth {args.depth}: {result.nodes:,} nodes in {result.seconds:.3f} s, "
        f"{result.nps:,} nodes/s",
        file=sys.stderr,
    )
    return 0


def _add_bench(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from royalchess.bench import BENCH_DEPTH

    parser = sub.add_parser(
        "bench",
        help="search fixed positions to a fixed depth: node count (signature) and speed",
        description="Search a fixed set of chess and Royal Chess positions to a fixed depth. "
        "Standard output: total nodes (the engine's signature) and nodes per second; "
        "details go to standard error.",
    )
    parser.add_argument(
        "depth",
        metavar="DEPTH",
        type=_depth,
        nargs="?",
        default=BENCH_DEPTH,
        help=f"plies to search (default {BENCH_DEPTH})",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per position")
    parser.set_defaults(handler=_cmd_bench)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``royalchess`` command."""
    parser = argparse.ArgumentParser(
        prog="royalchess", description="Standard chess and Royal Chess (10x8)."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in (_add_serve, _add_play, _add_games, _add_perft, _add_uci, _add_bench):
        add(sub)
    from royalchess.runner.commands import add_commands  # match, analyse, datagen

    add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``royalchess`` command with *argv* (default: ``sys.argv[1:]``)."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["serve", *argv]  # no command: the web app ('royalchess --port 8001' too)
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except (ChessError, _UsageError, StoreError) as exc:
        print(f"royalchess: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 1
