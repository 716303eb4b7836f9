"""Saved games: an embedded SQLite database (stdlib :mod:`sqlite3`, WAL).

Every game is its variant, its start FEN and the moves played from it in UCI, with who plays
each side, the computer's level and, at the end, the result and its reason. Each call that
changes a game commits before it returns, so a program killed at any moment loses nothing
that a caller was told had been saved.

The schema carries its version in ``PRAGMA user_version``. Opening a database upgrades an
older one in place, every step of :data:`MIGRATIONS` in one transaction (a failure leaves it
as it was); a database written by a newer royalchess (a version above
:data:`SCHEMA_VERSION`) is refused with :class:`SchemaVersionError` and never written to.

>>> store = GameStore(":memory:")
>>> game_id = store.create_game("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
>>> store.append_move(game_id, 0, "e2e4")
>>> store.get(game_id).moves
['e2e4']
>>> store.append_move(game_id, 0, "d2d4")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
royalchess.store.GameChangedError: game 1 has 1 moves now, not 0: it was changed elsewhere
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "GameChangedError",
    "GameNotFoundError",
    "GameRecord",
    "GameStore",
    "SchemaVersionError",
    "StoreError",
    "default_db_path",
]

# Version 1: the tables of the first release (which wrote no version: user_version 0).
_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    variant     TEXT    NOT NULL,
    start_fen   TEXT    NOT NULL,
    mode        TEXT    NOT NULL DEFAULT 'human-human',
    white       TEXT    NOT NULL DEFAULT 'human',
    black       TEXT    NOT NULL DEFAULT 'human',
    level       INTEGER NOT NULL DEFAULT 1,
    result      TEXT    NOT NULL DEFAULT '*',
    termination TEXT,
    headers     TEXT    NOT NULL DEFAULT '{}',
    created     REAL    NOT NULL,
    updated     REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    uci     TEXT    NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_update ON games(updated);
"""


def _migrate_v0_to_v1(db: sqlite3.Connection) -> None:
    """An unversioned database, as the first release wrote it (or a new, empty file): its
    tables are version 1's, so create whatever is missing and keep every row."""
    for statement in _SCHEMA_V1.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate_v1_to_v2(db: sqlite3.Connection) -> None:
    """Version 2: the game's clocks (:mod:`royalchess.clock`). Older games get ``NULL`` in
    every new column: no clock, as they were played."""
    for column in _CLOCK_COLUMNS:
        db.execute(f"ALTER TABLE games ADD COLUMN {column} REAL")


_CLOCK_COLUMNS = (
    "clock_base",
    "clock_increment",
    "white_time",
    "black_time",
    "clock_since",
    "clock_seen",
)
"""The clock of a game (all ``NULL``: none): its time control in seconds, each side's time
left as of ``clock_since`` (when the side to move's clock started; ``NULL``: stopped), and
``clock_seen``, the last sign that someone was at the game."""

MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _migrate_v0_to_v1,
    _migrate_v1_to_v2,
)
"""``MIGRATIONS[n]`` upgrades a database from schema version *n* to *n + 1*, in place. A new
schema appends a step here; a step never changes once released."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this royalchess writes."""

_GAME_COLUMNS = (
    "id, variant, start_fen, mode, white, black, level, result, termination, headers, "
    "created, updated, " + ", ".join(_CLOCK_COLUMNS)
)


def _clock_values(clock: Any) -> tuple[Any, ...]:
    """The clock columns' values of *clock* (a :class:`royalchess.clock.Clocks`, or ``None``
    for a game without a clock)."""
    if clock is None:
        return (None,) * len(_CLOCK_COLUMNS)
    control = clock.control
    return (control.base, control.increment, clock.white, clock.black, clock.since, clock.seen)


def _save_clock(db: sqlite3.Connection, game_id: int, clock: Any) -> None:
    sets = ", ".join(f"{column} = ?" for column in _CLOCK_COLUMNS)
    db.execute(f"UPDATE games SET {sets} WHERE id = ?", (*_clock_values(clock), game_id))


_WHERE = {"unfinished": "WHERE result = '*'", "finished": "WHERE result != '*'"}


class StoreError(RuntimeError):
    """The saved-games database cannot be used (the message says why and what to do)."""


class SchemaVersionError(StoreError):
    """The database was written by a newer royalchess: it is left untouched."""


class GameNotFoundError(LookupError):
    """No game has the id asked for."""


class GameChangedError(RuntimeError):
    """A checked write found the game other than its writer saw it (another window or
    process changed it first); nothing was written."""


@dataclass
class GameRecord:
    """One saved game as stored: its settings, its moves in UCI, and how it ended."""

    id: int
    variant: str
    start_fen: str
    mode: str
    white: str
    black: str
    level: int
    result: str
    termination: str | None
    headers: str
    created: float
    updated: float
    moves: list[str] = field(default_factory=list)
    plies: int = 0
    """Number of moves played (also set when a listing leaves the moves out)."""
    clock_base: float | None = None
    clock_increment: float | None = None
    white_time: float | None = None
    black_time: float | None = None
    clock_since: float | None = None
    clock_seen: float | None = None

    @property
    def finished(self) -> bool:
        """Whether the game has a result."""
        return self.result != "*"


def default_db_path() -> Path:
    """Return ``$XDG_DATA_HOME/royalchess/games.db`` (``~/.local/share/...`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "royalchess" / "games.db"


class GameStore:
    """The saved games in one SQLite file (``":memory:"`` for a throw-away store).

    Thread-safe: one connection, used under a lock. Every write commits at once, in a
    ``BEGIN IMMEDIATE`` transaction, so writers in other processes (the terminal and the web
    app on one file) take turns; the writes made from a game as shown (a move, a takeback, a
    result, new settings) carry the number of moves that game had and are refused with
    :class:`GameChangedError` when it has another number now.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        if path is None:
            path = default_db_path()
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA busy_timeout=5000")
        # Look at the version before anything that writes (journal_mode=WAL rewrites the
        # header): a newer database must stay byte for byte as it was.
        self._check_version(self._version())
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._upgrade()

    def _version(self) -> int:
        try:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a royalchess games database: {exc}") from None

    def _check_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.path} was written by a newer royalchess (games database version "
                f"{version}; this royalchess reads up to version {SCHEMA_VERSION}). Upgrade "
                "royalchess to open it, or give another file with --db; it was left unchanged."
            )

    def _upgrade(self) -> None:
        """Bring an older schema up to :data:`SCHEMA_VERSION`, all steps in one transaction."""
        with self._transaction() as db:
            version = self._version()  # again: another process may have upgraded meanwhile
            self._check_version(version)
            for step in MIGRATIONS[version:]:
                step(db)
            if version != SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        with self._lock:
            return self._version()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    # -- writing --------------------------------------------------------------------------

    def create_game(
        self,
        variant: str,
        start_fen: str,
        *,
        mode: str = "human-human",
        white: str = "human",
        black: str = "human",
        level: int = 1,
        moves: list[str] | None = None,
        result: str = "*",
        termination: str | None = None,
        headers: str = "{}",
        clock: Any = None,
    ) -> int:
        """Save a new game (optionally with moves already played) and return its id;
        *clock* is its :class:`royalchess.clock.Clocks` (``None``: no clock)."""
        with self._transaction() as db:
            return self._insert(
                db,
                variant=variant,
                start_fen=start_fen,
                mode=mode,
                white=white,
                black=black,
                level=level,
                moves=moves,
                result=result,
                termination=termination,
                headers=headers,
                clock=clock,
            )

    def create_games(self, games: list[dict[str, Any]]) -> list[int]:
        """Save several new games in one transaction (all or none); return their ids.

        Each item holds :meth:`create_game`'s arguments by name.
        """
        with self._transaction() as db:
            return [self._insert(db, **game) for game in games]

    @staticmethod
    def _insert(
        db: sqlite3.Connection,
        *,
        variant: str,
        start_fen: str,
        mode: str = "human-human",
        white: str = "human",
        black: str = "human",
        level: int = 1,
        moves: list[str] | None = None,
        result: str = "*",
        termination: str | None = None,
        headers: str = "{}",
        clock: Any = None,
    ) -> int:
        now = time.time()
        cur = db.execute(
            "INSERT INTO games (variant, start_fen, mode, white, black, level, result, "
            "termination, headers, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (variant, start_fen, mode, white, black, level, result, termination, headers, now, now),
        )
        game_id = cur.lastrowid
        assert game_id is not None
        if clock is not None:
            _save_clock(db, game_id, clock)
        db.executemany(
            "INSERT INTO moves (game_id, ply, uci) VALUES (?,?,?)",
            [(game_id, ply, uci) for ply, uci in enumerate(moves or [])],
        )
        return game_id

    def append_move(
        self,
        game_id: int,
        ply: int,
        uci: str,
        *,
        result: str = "*",
        termination: str | None = None,
        clock: Any = None,
    ) -> None:
        """Save the move played at *ply* (0-based) and the game's result after it (and, given
        *clock*, the game's clocks after it).

        Only if the game still has exactly *ply* moves and no result, checked in the same
        transaction as the write; else :class:`GameChangedError` and nothing is written. So
        a move is never saved over another one, after a gap, or after the end.
        """
        with self._transaction() as db:
            self._check(db, game_id, ply, unfinished=True)
            db.execute("INSERT INTO moves (game_id, ply, uci) VALUES (?,?,?)", (game_id, ply, uci))
            self._touch(db, game_id, result=result, termination=termination)
            if clock is not None:
                _save_clock(db, game_id, clock)

    def truncate(self, game_id: int, plies: int, *, ply: int | None, clock: Any = None) -> None:
        """Keep only the first *plies* moves (a takeback); the game is unfinished again.

        *ply* is the number of moves the game had when the takeback was asked for
        (:class:`GameChangedError` if it has another number now); ``None`` skips the check.
        """
        with self._transaction() as db:
            self._check(db, game_id, ply)
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, plies))
            self._touch(db, game_id, result="*", termination=None)
            if clock is not None:
                _save_clock(db, game_id, clock)

    def set_result(
        self,
        game_id: int,
        result: str,
        termination: str | None,
        *,
        ply: int | None,
        clock: Any = None,
    ) -> None:
        """Record how the game ended (``'*'`` to reopen it).

        With *ply*, only if the game has that many moves and no result yet (else
        :class:`GameChangedError`); ``None`` skips the check.
        """
        with self._transaction() as db:
            self._check(db, game_id, ply, unfinished=ply is not None)
            self._touch(db, game_id, result=result, termination=termination)
            if clock is not None:
                _save_clock(db, game_id, clock)

    def set_clock(self, game_id: int, clock: Any, *, ply: int) -> None:
        """Save the clocks of a game going on (started, paused, seen) at *ply* moves:
        :class:`GameChangedError` if it has another number of moves now or is over. The
        game's ``updated`` stays: looking at a game is not playing it."""
        with self._transaction() as db:
            self._check(db, game_id, ply, unfinished=True)
            _save_clock(db, game_id, clock)

    def update_settings(
        self,
        game_id: int,
        *,
        mode: str,
        white: str,
        black: str,
        level: int,
        ply: int | None = None,
    ) -> None:
        """Change who plays which side and the computer's level (with *ply*: only if the
        game still has that many moves, else :class:`GameChangedError`)."""
        with self._transaction() as db:
            self._check(db, game_id, ply)
            self._touch(db, game_id)
            db.execute(
                "UPDATE games SET mode = ?, white = ?, black = ?, level = ? WHERE id = ?",
                (mode, white, black, level, game_id),
            )

    @staticmethod
    def _check(
        db: sqlite3.Connection, game_id: int, ply: int | None, *, unfinished: bool = False
    ) -> None:
        """Raise unless game *game_id* exists with *ply* moves (and, if *unfinished*, no
        result): the optimistic-concurrency check of every write made from a game as shown."""
        row = db.execute(
            "SELECT result, (SELECT COUNT(*) FROM moves WHERE game_id = games.id) "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game with id {game_id}")
        result, count = row[0], int(row[1])
        if ply is not None and count != ply:
            raise GameChangedError(
                f"game {game_id} has {count} moves now, not {ply}: it was changed elsewhere"
            )
        if unfinished and result != "*":
            raise GameChangedError(f"game {game_id} is over ({result}): it was ended elsewhere")

    def delete(self, game_id: int) -> None:
        """Delete a game and its moves."""
        with self._transaction() as db:
            self._touch(db, game_id)
            db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def _touch(
        self,
        db: sqlite3.Connection,
        game_id: int,
        *,
        result: str | None = None,
        termination: str | None = None,
    ) -> None:
        if result is None:
            cur = db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id))
        else:
            cur = db.execute(
                "UPDATE games SET updated = ?, result = ?, termination = ? WHERE id = ?",
                (time.time(), result, termination, game_id),
            )
        if cur.rowcount == 0:
            raise GameNotFoundError(f"no game with id {game_id}")

    # -- reading --------------------------------------------------------------------------

    def get(self, game_id: int) -> GameRecord:
        """Return the game *game_id* with its moves; raise :class:`GameNotFoundError`."""
        with self._lock:
            # one read transaction: the game and its moves as of one moment
            self._db.execute("BEGIN")
            try:
                row = self._db.execute(
                    f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                moves = [
                    r[0]
                    for r in self._db.execute(
                        "SELECT uci FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                    )
                ]
            finally:
                self._db.execute("COMMIT")
        if row is None:
            raise GameNotFoundError(f"no game with id {game_id}")
        return GameRecord(**dict(row), moves=moves, plies=len(moves))

    def game_ids(self, status: str = "all") -> list[int]:
        """The ids of every game (*status* as in :meth:`list_games`), oldest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT id FROM games {_WHERE.get(status, '')} ORDER BY id"
            ).fetchall()
        return [int(row[0]) for row in rows]

    def list_games(self, status: str = "all", limit: int = 200) -> list[GameRecord]:
        """Return games, most recently changed first, without their moves.

        *status* is ``'unfinished'``, ``'finished'`` or ``'all'``.
        """
        where = _WHERE.get(status, "")
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE game_id = games.id)"
                f" AS plies FROM games {where} ORDER BY updated DESC, id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [GameRecord(**dict(row)) for row in rows]
