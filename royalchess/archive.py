"""Every saved game to one PGN file and back: ``royalchess games --export/--import``.

Export writes each game of the store with its tags: the players (a computer side as
``royalchess level N``), ``Result``, ``Termination`` (the stored reason), ``Variant "Royal
Chess"`` for Royal Chess and ``SetUp``/``FEN`` for a game set up from a position, then the
tags the game was imported with. Import reads a PGN stream game by game (never the whole file
at once) and saves each good game; a malformed one (an illegal or unreadable move, a bad
``FEN`` or ``Variant``) is skipped and reported with its number and the reason, and the rest
are imported. Reading back what was exported gives the same games: variant, start position,
moves, result and reason, who played each side and the level.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from royalchess import pgn
from royalchess.board import Board
from royalchess.errors import ChessError
from royalchess.store import GameNotFoundError, GameRecord, GameStore

__all__ = ["ImportReport", "NewGame", "export_games", "game_headers", "import_games", "read_games"]

_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_COMPUTER_RE = re.compile(r"royalchess level ([0-9]+)\Z")
# Tags the export derives from the stored game; any other tag is kept as it was imported.
_DERIVED = ("Result", "Variant", "SetUp", "FEN", "Termination")
_BATCH = 200  # games saved per transaction on import: one commit per game is slow on disks


def _player(rec: GameRecord, color: str) -> str:
    who = rec.white if color == "white" else rec.black
    return f"royalchess level {rec.level}" if who == "computer" else "Player"


def _saved_headers(rec: GameRecord) -> dict[str, str]:
    try:
        loaded = json.loads(rec.headers or "{}")
    except json.JSONDecodeError:
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {str(k): str(v) for k, v in loaded.items() if str(k) not in _DERIVED}


def game_headers(rec: GameRecord, start: Board) -> dict[str, str]:
    """The PGN tags of the saved game *rec* whose start position is *start*."""
    saved = _saved_headers(rec)
    date = datetime.date.fromtimestamp(rec.created).strftime("%Y.%m.%d")
    headers = {
        "Event": saved.get("Event", "Casual game"),
        "Site": saved.get("Site", "royalchess"),
        "Date": saved.get("Date", date),
        "Round": saved.get("Round", "-"),
        "White": _player(rec, "white") if rec.white == "computer" else saved.get("White", "Player"),
        "Black": _player(rec, "black") if rec.black == "computer" else saved.get("Black", "Player"),
        "Result": rec.result,
    }
    if rec.variant == "royal":
        headers["Variant"] = pgn.ROYAL_VARIANT_TAG
    if start.fen() != start.variant_info.start_fen:
        headers["SetUp"] = "1"
        headers["FEN"] = start.fen()
    if rec.finished and rec.termination:
        headers["Termination"] = rec.termination
    if rec.clock_base is not None:  # PGN's seconds+increment
        headers["TimeControl"] = f"{rec.clock_base:g}+{rec.clock_increment or 0:g}"
    for key, value in saved.items():
        headers.setdefault(key, value)
    return headers


def export_games(
    store: GameStore,
    out: TextIO,
    *,
    status: str = "all",
    on_error: Callable[[int, str], object] | None = None,
) -> int:
    """Write every saved game (or only the ``'unfinished'``/``'finished'`` ones), oldest
    first, to *out* as PGN; return how many were written.

    A stored game that does not replay (damaged by hand, or by an old release's race) is
    left out and passed to *on_error* with the reason (raised when *on_error* is ``None``).
    """
    count = 0
    for game_id in store.game_ids(status):
        try:
            rec = store.get(game_id)
            start = Board(rec.start_fen, variant=rec.variant)
            moves = []
            board = start.copy()
            for uci in rec.moves:
                move = board.parse_uci(uci)
                board.push(move)
                moves.append(move)
        except GameNotFoundError:
            continue  # deleted meanwhile
        except ChessError as exc:
            if on_error is None:
                raise
            on_error(game_id, str(exc))
            continue
        if count:
            out.write("\n")
        out.write(pgn.write_game(start, moves, headers=game_headers(rec, start)))
        count += 1
    return count


@dataclass
class NewGame:
    """A game read from PGN, ready to save."""

    variant: str
    start_fen: str
    moves: list[str]
    result: str
    termination: str | None
    mode: str
    white: str
    black: str
    level: int
    headers: dict[str, str]


@dataclass
class ImportReport:
    """What an import did: games saved, and the games skipped with the reason for each."""

    imported: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """``(game number, reason)``, numbered from 1 in the order of the file."""
    ids: list[int] = field(default_factory=list)


def _players(headers: pgn.Headers) -> tuple[str, str, str, int]:
    """Mode, white, black and level from the player tags (``royalchess level N`` is the
    computer at level N)."""
    sides = []
    levels = []
    for tag in ("White", "Black"):
        found = _COMPUTER_RE.match(headers.get(tag, ""))
        if found and 1 <= int(found.group(1)) <= 20:
            sides.append("computer")
            levels.append(int(found.group(1)))
        else:
            sides.append("human")
    mode = {0: "two-players", 1: "vs-computer", 2: "computer-vs-computer"}[len(levels)]
    return mode, sides[0], sides[1], levels[0] if levels else 4


def convert(game: pgn.Game) -> NewGame:
    """The saved form of a PGN game read without errors; raises ChessError if it has one."""
    if game.errors:
        raise game.errors[0]
    start = game.board()
    board = start.copy()
    moves = game.mainline_moves()
    for move in moves:
        board.push(move)
    headers = game.headers
    result = headers.get("Result", "*")
    if result not in _RESULTS:
        result = "*"
    termination = headers.get("Termination") or None
    outcome = board.outcome()
    if result == "*" and outcome is not None:
        result = outcome.result()
        termination = outcome.termination.describe()
    elif result == "*":
        termination = None
    elif termination is None and outcome is not None and outcome.result() == result:
        termination = outcome.termination.describe()
    mode, white, black, level = _players(headers)
    return NewGame(
        variant=start.variant,
        start_fen=start.fen(),
        moves=[move.uci() for move in moves],
        result=result,
        termination=termination,
        mode=mode,
        white=white,
        black=black,
        level=level,
        headers={k: v for k, v in headers.items() if k not in _DERIVED},
    )


def read_games(stream: TextIO) -> Iterator[tuple[int, NewGame | str]]:
    """Yield ``(number, game)`` for each game of a PGN stream, or ``(number, reason)`` for a
    game that cannot be saved as it is."""
    for number, game in enumerate(pgn.read_games(stream), start=1):
        try:
            yield number, convert(game)
        except ChessError as exc:
            yield number, str(exc)


def import_games(
    store: GameStore,
    stream: TextIO,
    *,
    on_game: Callable[[int, str | None], object] | None = None,
) -> ImportReport:
    """Save every good game of the PGN *stream* in *store*; skip (and report) the others.

    *on_game* is called after each game with its number and ``None``, or the reason it was
    skipped.
    """
    report = ImportReport()
    batch: list[NewGame] = []

    def flush() -> None:
        if batch:
            report.ids += store.create_games(
                [
                    {
                        "variant": g.variant,
                        "start_fen": g.start_fen,
                        "mode": g.mode,
                        "white": g.white,
                        "black": g.black,
                        "level": g.level,
                        "moves": g.moves,
                        "result": g.result,
                        "termination": g.termination,
                        "headers": json.dumps(g.headers),
                    }
                    for g in batch
                ]
            )
            report.imported += len(batch)
            batch.clear()

    for number, item in read_games(stream):
        if isinstance(item, str):
            report.skipped.append((number, item))
            if on_game is not None:
                on_game(number, item)
            continue
        batch.append(item)
        if len(batch) >= _BATCH:
            flush()
        if on_game is not None:
            on_game(number, None)
    flush()
    return report
