"""The saved-games store: schema versions and in-place upgrades.

A database written by the first release (no ``user_version``) opens and upgrades with every
game kept; one written by a newer royalchess is refused and left byte for byte as it was; a
schema change (simulated: one more migration step) upgrades in place, and a step that fails
leaves the database as it was.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from royalchess import store as store_module
from royalchess.board import Board
from royalchess.store import SCHEMA_VERSION, GameStore, SchemaVersionError, StoreError

# The schema as the first release created it, word for word (it set no user_version).
RELEASE_0_SCHEMA = """
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

CHESS = Board().fen()
ROYAL = Board(variant="royal").fen()
# (variant, start FEN, mode, white, black, level, result, termination, moves)
RELEASE_0_GAMES = [
    ("chess", CHESS, "two-players", "human", "human", 4, "*", None, ["e2e4", "e7e5", "g1f3"]),
    (
        "chess",
        CHESS,
        "vs-computer",
        "human",
        "computer",
        7,
        "0-1",
        "checkmate",
        ["f2f3", "e7e5", "g2g4", "d8h4"],
    ),
    ("royal", ROYAL, "vs-computer", "computer", "human", 2, "*", None, ["e2e4"]),
    ("chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "two-players", "human", "human", 1, "*", None, []),
]


def write_release_0(path: Path) -> None:
    """A games database as the first release wrote it, with the games above."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(RELEASE_0_SCHEMA)
    for n, (variant, fen, mode, white, black, level, result, reason, moves) in enumerate(
        RELEASE_0_GAMES
    ):
        cur = db.execute(
            "INSERT INTO games (variant, start_fen, mode, white, black, level, result, "
            "termination, headers, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (variant, fen, mode, white, black, level, result, reason, "{}", 1000.0 + n, 2000.0 + n),
        )
        db.executemany(
            "INSERT INTO moves (game_id, ply, uci) VALUES (?,?,?)",
            [(cur.lastrowid, ply, uci) for ply, uci in enumerate(moves)],
        )
    db.commit()
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()


def saved_games(store: GameStore) -> list[tuple[object, ...]]:
    return [
        (
            r.variant,
            r.start_fen,
            r.mode,
            r.white,
            r.black,
            r.level,
            r.result,
            r.termination,
            r.moves,
        )
        for r in sorted(
            (store.get(rec.id) for rec in store.list_games(limit=1000)), key=lambda r: r.id
        )
    ]


def user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def test_a_new_database_has_the_current_version(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    assert store.schema_version == SCHEMA_VERSION == 2
    store.close()
    assert user_version(tmp_path / "games.db") == SCHEMA_VERSION


def test_a_release_0_database_upgrades_with_every_game(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    write_release_0(path)
    store = GameStore(path)
    assert store.schema_version == SCHEMA_VERSION
    assert saved_games(store) == [tuple(g) for g in RELEASE_0_GAMES]
    # and it is a working store: play on in the first game
    store.append_move(1, 3, "b8c6")
    assert store.get(1).moves == ["e2e4", "e7e5", "g1f3", "b8c6"]
    store.close()
    assert user_version(path) == SCHEMA_VERSION
    again = GameStore(path)  # opening an up-to-date database changes nothing
    assert saved_games(again)[0][-1] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    again.close()


def test_a_newer_database_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameStore(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.execute("PRAGMA journal_mode=DELETE")  # one file, so the bytes say everything
    db.close()
    before = path.read_bytes()
    with pytest.raises(SchemaVersionError, match=r"newer royalchess.*version 3.*up to version 2"):
        GameStore(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(b"not a database at all, but a text file of some length" * 40)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a royalchess games database"):
        GameStore(path)
    assert path.read_bytes() == before


def _add_opened_column(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE games ADD COLUMN opened INTEGER NOT NULL DEFAULT 0")


def test_a_schema_change_upgrades_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.db"
    write_release_0(path)
    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, _add_opened_column))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 3)
    store = GameStore(path)
    assert store.schema_version == 3
    assert saved_games(store) == [tuple(g) for g in RELEASE_0_GAMES]
    store.close()
    db = sqlite3.connect(path)
    assert [r[0] for r in db.execute("SELECT opened FROM games ORDER BY id")] == [0, 0, 0, 0]
    db.close()


def test_a_failing_upgrade_leaves_the_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    write_release_0(path)

    def broken(db: sqlite3.Connection) -> None:
        _add_opened_column(db)
        db.execute("UPDATE games SET opened = 1")
        raise sqlite3.OperationalError("disk full (simulated)")

    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, broken))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 3)
    with pytest.raises(sqlite3.OperationalError, match="simulated"):
        GameStore(path)
    assert user_version(path) == 0
    db = sqlite3.connect(path)
    columns = [r[1] for r in db.execute("PRAGMA table_info(games)")]
    db.close()
    assert "opened" not in columns
    monkeypatch.undo()
    store = GameStore(path)
    assert saved_games(store) == [tuple(g) for g in RELEASE_0_GAMES]
    store.close()


def test_a_version_1_database_upgrades_to_clocks_with_every_game(tmp_path: Path) -> None:
    """Version 2 added the clock columns: a version-1 database keeps its games, each without
    a clock (NULL), and a clock saved afterwards reads back."""
    from royalchess.clock import Clocks, TimeControl

    path = tmp_path / "games.db"
    write_release_0(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = GameStore(path)
    assert store.schema_version == SCHEMA_VERSION == 2
    assert saved_games(store) == [tuple(g) for g in RELEASE_0_GAMES]
    rec = store.get(1)
    assert (rec.clock_base, rec.white_time, rec.black_time, rec.clock_since) == (None,) * 4
    clock = Clocks(TimeControl(300.0, 3.0), 250.5, 280.0, 1000.0, 1010.0)
    store.append_move(1, 3, "b8c6", clock=clock)
    rec = store.get(1)
    assert rec.moves[-1] == "b8c6"
    assert (rec.clock_base, rec.clock_increment, rec.white_time, rec.black_time) == (
        300.0,
        3.0,
        250.5,
        280.0,
    )
    assert (rec.clock_since, rec.clock_seen) == (1000.0, 1010.0)
    assert store.get(2).clock_base is None
    store.close()
