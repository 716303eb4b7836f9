"""``royalchess play`` and ``royalchess games``: arguments, choosing the screen, setting up.

At a terminal (standard input and output both terminals) the game is drawn in colour with
:class:`~royalchess.terminal.screen.RichScreen`, and with no option given it asks what to
play (or offers to resume the latest unfinished game). Otherwise, or with ``--plain``, it is
the plain line mode: it reads moves and commands line by line, for pipes and scripts, and
asks nothing (two players unless ``--color``/``--level`` choose the computer).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from royalchess import archive
from royalchess.board import Board
from royalchess.clock import PRESETS, TimeControl, TimeControlError, parse_time_control
from royalchess.engine import thread_count
from royalchess.session import GameError
from royalchess.store import GameNotFoundError, GameRecord, GameStore, default_db_path
from royalchess.terminal.game import (
    DEFAULT_LEVEL,
    GAMES_HEADER,
    TerminalGame,
    ask_setup,
    describe_game,
)
from royalchess.terminal.screen import PlainScreen, RichScreen

__all__ = [
    "SetupError",
    "add_games_arguments",
    "add_play_arguments",
    "export_games",
    "import_games",
    "list_games",
    "run",
]


class SetupError(Exception):
    """Options that do not go together, or a saved game that is not there."""


def _level(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid level {text!r}: not a whole number") from None
    if not 1 <= value <= 20:
        raise argparse.ArgumentTypeError(f"invalid level {value}: from 1 to 20")
    return value


def _clock(text: str) -> TimeControl | None:
    try:
        return parse_time_control(text)
    except TimeControlError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _game_id(text: str) -> int:
    try:
        return int(text.lstrip("#"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid game number {text!r}") from None


def _add_db(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help=f"the saved-games database, shared with the web app (default {default_db_path()})",
    )


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``royalchess play`` (besides --variant, --fen and --record)."""
    who = parser.add_argument_group("players (at a terminal, without these, it asks)")
    who.add_argument(
        "--color",
        "--colour",
        choices=("white", "black", "random"),
        help="play against the computer with this colour",
    )
    who.add_argument(
        "--level",
        type=_level,
        metavar="N",
        help=f"the computer's level, 1 (beginner) to 20 (full strength; default {DEFAULT_LEVEL})",
    )
    who.add_argument(
        "--two-players", action="store_true", help="two players at one terminal, no computer"
    )
    who.add_argument(
        "--threads",
        metavar="N",
        type=thread_count,
        default=1,
        help="threads for the computer's searches at full strength: level 20 and hints "
        "(1; levels 1-19 always use one)",
    )
    who.add_argument(
        "--clock",
        type=_clock,
        metavar="M+S",
        default=None,
        help=f"play with a clock: M minutes each and S seconds a move ({', '.join(PRESETS)}; "
        "90s+0 for a base in seconds; default none). Running out of time loses, or draws "
        "when the opponent cannot mate",
    )
    saved = parser.add_argument_group("saved games")
    saved.add_argument(
        "--resume",
        metavar="ID",
        nargs="?",
        const=0,
        type=_game_id,
        help="go on with saved game ID (default: the latest unfinished one)",
    )
    _add_db(saved)
    saved.add_argument("--no-save", action="store_true", help="do not save the game")
    look = parser.add_argument_group("display")
    look.add_argument("--unicode", action="store_true", help="draw the pieces as symbols")
    look.add_argument(
        "--plain",
        action="store_true",
        help="plain text, one line at a time, even at a terminal (the mode used for pipes)",
    )


def add_games_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``royalchess games``."""
    _add_db(parser)
    parser.add_argument(
        "--unfinished", action="store_true", help="only the games that can be resumed"
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--export",
        metavar="FILE",
        help="write every saved game (with --unfinished: those only) to FILE as PGN "
        "('-': standard output)",
    )
    what.add_argument(
        "--import",
        dest="import_",
        metavar="FILE",
        help="save every game of the PGN file FILE ('-': standard input); malformed games "
        "are reported and skipped (exit code 1), the others imported",
    )


def export_games(db: str | None, path: str, *, unfinished: bool = False) -> int:
    """Write the saved games to *path* as PGN (``-``: standard output), whole or not at all;
    return 1 if a game had to be left out (it does not replay), else 0."""
    status = "unfinished" if unfinished else "all"
    damaged: list[int] = []

    def report(game_id: int, reason: str) -> None:
        damaged.append(game_id)
        print(f"game #{game_id} left out: it does not replay: {reason}", file=sys.stderr)

    store = GameStore(db)
    try:
        if path == "-":
            count = archive.export_games(store, sys.stdout, status=status, on_error=report)
            print(f"Exported {_games(count)}.", file=sys.stderr)
            return 1 if damaged else 0
        target = Path(path)
        # write beside the target and rename: a failure never leaves half a file in its place
        partial = target.with_name(f".{target.name}.partial")
        try:
            with partial.open("w", encoding="utf-8", newline="\n") as out:
                count = archive.export_games(store, out, status=status, on_error=report)
            os.replace(partial, target)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise SetupError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        store.close()
    print(f"Exported {_games(count)} from {store.path} to {path}.")
    return 1 if damaged else 0


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def import_games(db: str | None, path: str) -> int:
    """Save the games of the PGN file *path* (``-``: standard input) with a progress bar on
    standard error; return 1 if any game was skipped, else 0."""
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    try:
        raw: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise SetupError(f"cannot read {path}: {exc.strerror or exc}") from None
    store = GameStore(db)
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console, transient=False) as progress:
            size = None if path == "-" else os.fstat(raw.fileno()).st_size
            task = progress.add_task("Importing", total=size)
            reader = progress.wrap_file(raw, total=size, task_id=task)
            stream = io.TextIOWrapper(reader, encoding="utf-8", errors="replace", newline=None)

            def note(number: int, reason: str | None) -> None:
                progress.update(task, description=f"Importing game {number}")
                if reason is not None:
                    progress.console.print(
                        f"game {number} skipped: {reason}", markup=False, soft_wrap=True
                    )

            report = archive.import_games(store, stream, on_game=note)
    finally:
        raw.close()
        store.close()
    skipped = len(report.skipped)
    summary = f"Imported {_games(report.imported)} into {store.path}"
    print(summary + (f"; {skipped} skipped (listed above)." if skipped else "."))
    return 1 if skipped else 0


def list_games(db: str | None, *, unfinished: bool = False) -> int:
    """Print the saved games, most recently played first."""
    store = GameStore(db)
    try:
        records = store.list_games("unfinished" if unfinished else "all", limit=50)
    finally:
        store.close()
    if not records:
        print(f"No saved games in {store.path}.")
        return 0
    PlainScreen().listing(GAMES_HEADER, [describe_game(rec) for rec in records])
    print("Go on with one: royalchess play --resume ID")
    return 0


def _find(store: GameStore, game_id: int) -> GameRecord:
    if game_id:
        try:
            return store.get(game_id)
        except GameNotFoundError:
            raise SetupError(f"no saved game #{game_id} in {store.path}") from None
    found = store.list_games("unfinished", limit=1)
    if not found:
        raise SetupError(f"no unfinished game to resume in {store.path}")
    return store.get(found[0].id)


def run(args: argparse.Namespace, make_board: Callable[[], Board]) -> int:
    """Run ``royalchess play`` with parsed *args*; *make_board* gives the start position."""
    if args.two_players and args.color is not None:
        raise SetupError("--two-players and --color do not go together")
    position_given = args.variant is not None or args.fen is not None or args.record is not None
    if args.resume is not None and (position_given or args.two_players or args.color):
        raise SetupError("--resume takes up a saved game as it was: drop the other options")
    if args.resume is not None and getattr(args, "clock", None) is not None:
        raise SetupError("--resume goes on with the game's own clock: drop --clock")
    if args.resume is not None and args.no_save:
        raise SetupError("--resume needs the saved games: drop --no-save")
    board = None if args.resume is not None else make_board()
    interactive = not args.plain and sys.stdin.isatty() and sys.stdout.isatty()
    store = None if args.no_save else GameStore(args.db)
    try:
        screen = (
            RichScreen(unicode=args.unicode)
            if interactive
            else PlainScreen(echo=not sys.stdin.isatty(), unicode=args.unicode)
        )
        game = TerminalGame(screen, store=store, threads=args.threads)
        try:
            if not _set_up(game, args, board, store, interactive, position_given):
                return 0
        except EOFError:
            print()
            return 0
        return game.run()
    finally:
        if store is not None:
            store.close()


def _set_up(
    game: TerminalGame,
    args: argparse.Namespace,
    board: Board | None,
    store: GameStore | None,
    interactive: bool,
    position_given: bool,
) -> bool:
    level = args.level or DEFAULT_LEVEL
    clock = getattr(args, "clock", None)
    if board is None:
        assert store is not None
        try:
            game.load(_find(store, args.resume))
        except GameError as exc:  # a damaged record
            raise SetupError(exc.message) from None
        if args.level is not None:
            game.set_level(args.level)
        return True
    if args.two_players:
        game.new_game(board, mode="two-players", level=level, time_control=clock)
    elif args.color is not None or args.level is not None:
        color = args.color or "white"
        if color == "random":
            import random

            color = random.choice(("white", "black"))
        game.new_game(
            board, mode="vs-computer", color=color == "white", level=level, time_control=clock
        )
    elif not interactive:
        game.new_game(board, mode="two-players", level=level, time_control=clock)
    else:
        screen = game.screen
        if store is not None and not position_given:
            found = store.list_games("unfinished", limit=1)
            if found:
                rec = found[0]
                row = describe_game(rec)
                question = f"Go on with game {row[0]} ({row[1]}, {row[2]}, {rec.plies} plies)?"
                if screen.question(question, ["yes", "no"], "yes") == "yes":
                    game.load(store.get(rec.id))
                    return True
        variant, mode, color, level = ask_setup(
            screen, variant=board.variant, level=level, ask_variant=not position_given
        )
        if variant != board.variant:
            board = Board(variant=variant)
        game.new_game(board, mode=mode, color=color, level=level, time_control=clock)
    return True
