"""The ``royalchess`` command line: ``perft``, a two-player terminal game (``play``) and the
web app (``serve``, also what ``royalchess`` with no arguments starts).

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
from royalchess.errors import ChessError, IllegalMoveError, InvalidMoveError
from royalchess.move import Move
from royalchess.outcome import Outcome, Termination
from royalchess.variants import VARIANTS

__all__ = ["main", "play"]

Handler = Callable[[argparse.Namespace], int]

HELP = """\
Type a move in SAN (e4, Nf3, exd5, e8=Q, O-O; Royal Chess: Wg3, O-O:h1, Wg3_O-O:h1, e8=G-)
or in UCI (e2e4, e7e8q; Royal Chess castling: f1h1j1g1). Commands:
  moves   list the legal moves          undo    take back the last move
  board   show the board again          fen     show the position as FEN
  draw    claim a draw (threefold repetition or fifty moves)
  resign  give up the game              help    show this text
  quit    leave the game"""

_REASONS = {
    Termination.CHECKMATE: "checkmate",
    Termination.STALEMATE: "stalemate",
    Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    Termination.SEVENTYFIVE_MOVES: "the seventy-five-move rule",
    Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    Termination.FIFTY_MOVES: "the fifty-move rule (claimed)",
    Termination.THREEFOLD_REPETITION: "threefold repetition (claimed)",
}


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


def _read_move(board: Board, text: str) -> Move:
    """Read *text* as UCI when it is spelled so, else as SAN."""
    try:
        Move.from_uci(text, board.files)
    except InvalidMoveError:
        return board.parse_san(text)
    return board.parse_uci(text)


def _announce(outcome: Outcome, out: Callable[[str], None]) -> None:
    reason = _REASONS[outcome.termination]
    if outcome.winner is None:
        out(f"Draw by {reason}. {outcome.result()}")
    else:
        side = "White" if outcome.winner else "Black"
        out(f"{side} wins by {reason}. {outcome.result()}")


def play(
    board: Board,
    *,
    read: Callable[[str], str] = input,
    out: Callable[[str], None] = print,
    echo: bool = False,
    unicode: bool = False,
) -> int:
    """Run a two-player game on *board*, reading lines with *read* and writing with *out*.

    Returns the exit status (0). End of input leaves the game unfinished.
    """
    start = board.copy()
    played: list[str] = []

    def show() -> None:
        out(board.unicode(borders=True) if unicode else board.ascii(coordinates=True))

    out(f"{board.variant_info.title}: two players at one terminal. Type 'help' for help.")
    show()
    while True:
        outcome = board.outcome()
        if outcome is not None:
            _announce(outcome, out)
            break
        side = "White" if board.turn else "Black"
        prompt = f"{board.fullmove_number}{'.' if board.turn else '...'} {side}> "
        try:
            line = read(prompt)
        except EOFError:
            out("")
            out("End of input: the game is left unfinished. *")
            break
        text = line.strip()
        if echo:
            out(text)
        command = text.lower()
        if not text:
            continue
        if command in ("quit", "exit"):
            out("Game abandoned. *")
            break
        if command == "help":
            out(HELP)
        elif command == "board":
            show()
        elif command == "fen":
            out(board.fen())
        elif command == "moves":
            moves = sorted(board.san(move) for move in board.legal_moves)
            out(f"{len(moves)} legal moves: {' '.join(moves)}")
        elif command == "undo":
            if not board.move_stack:
                out("Nothing to undo.")
                continue
            board.pop()
            played.pop()
            show()
        elif command == "resign":
            out(f"{side} resigns. {'0-1' if board.turn else '1-0'}")
            break
        elif command == "draw":
            claimed = board.outcome(claim_draw=True)
            if claimed is None:
                out("No draw can be claimed now (threefold repetition or fifty moves).")
                continue
            _announce(claimed, out)
            break
        else:
            try:
                move = _read_move(board, text)
            except ChessError as exc:
                message = str(exc).replace(f" in {board.fen()}", "")
                kind = "Illegal" if isinstance(exc, IllegalMoveError) else "Not understood"
                out(f"{kind}: {message}. Type 'moves' for the legal moves, 'help' for help.")
                continue
            number = board.fullmove_number
            dots = "." if board.turn else "..."
            played.append(board.san_and_push(move))
            out(f"{number}{dots} {played[-1]}")
            show()
            if board.can_claim_draw() and not board.is_game_over():
                out("A draw can be claimed: type 'draw' to claim it.")
    if board.move_stack:
        out("Moves: " + start.variation_san(board.move_stack))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    board = _board_from(args)
    return play(board, echo=not sys.stdin.isatty(), unicode=args.unicode)


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "play",
        help="a two-player game in the terminal",
        description="Two players at one terminal: moves are typed in SAN or UCI.",
    )
    _add_position_args(parser)
    parser.add_argument("--unicode", action="store_true", help="draw the pieces as symbols")
    parser.set_defaults(handler=_cmd_play)


def _cmd_serve(args: argparse.Namespace) -> int:
    from royalchess.web.server import serve

    return serve(args.host, args.port, args.db, open_browser=not args.no_browser)


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
    for add in (_add_serve, _add_play, _add_perft, _add_uci, _add_bench):
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``royalchess`` command with *argv* (default: ``sys.argv[1:]``)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # no command: the web app with its defaults
        args = parser.parse_args(["serve", *(argv or [])])
    handler: Handler = args.handler
    try:
        return handler(args)
    except (ChessError, _UsageError) as exc:
        print(f"royalchess: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 1
