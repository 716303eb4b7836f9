"""The computer player for the web app: a thin adapter over :mod:`royalchess.engine`.

One :class:`Engine` per level, created on first use and used by one search at a time
(searches run in worker threads while the server keeps answering).
"""

from __future__ import annotations

import threading
from typing import Any

from royalchess.board import Board
from royalchess.move import Move

__all__ = ["Computer", "EngineUnavailableError", "move_time"]


class EngineUnavailableError(RuntimeError):
    """The engine module is not installed or cannot be loaded."""


def move_time(level: int) -> float:
    """Seconds the computer may think for one move at *level* (1-20); weak levels stop
    sooner by their own depth and node budgets."""
    return round(min(0.2 + 0.04 * level, 1.0), 2)


HINT_TIME = 0.5
"""Seconds spent on a hint or an evaluation."""


class Computer:
    """Plays, hints and evaluates with :class:`royalchess.engine.Engine`.

    *factory* builds an engine (``Engine`` by default, called as ``factory(level=n)``);
    tests may pass a stand-in with the same ``play``/``hint``/``analyse`` methods.
    """

    def __init__(self, factory: Any = None) -> None:
        self._factory = factory
        self._engines: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _engine(self, role: str, level: int) -> Any:
        engine = self._engines.get(role)
        if engine is None:
            factory = self._factory
            if factory is None:
                try:
                    from royalchess.engine import Engine
                except ImportError as exc:
                    raise EngineUnavailableError(f"the engine is not available: {exc}") from None
                factory = Engine
            engine = self._engines[role] = factory(level=level)
        if getattr(engine, "level", level) != level:
            engine.level = level
        return engine

    @staticmethod
    def _limit(seconds: float) -> Any:
        try:
            from royalchess.engine import Limit
        except ImportError:
            return None
        return Limit(movetime=seconds)

    def play(self, board: Board, level: int) -> Move:
        """Return the computer's move in *board* at *level*."""
        with self._lock:
            engine = self._engine("play", level)
            return engine.play(board.copy(), self._limit(move_time(level)))  # type: ignore[no-any-return]

    def hint(self, board: Board) -> Move | None:
        """Return a good move for the side to move (full strength), or ``None``."""
        with self._lock:
            engine = self._engine("advice", 20)
            return engine.hint(board.copy(), self._limit(HINT_TIME))  # type: ignore[no-any-return]

    def evaluate(self, board: Board) -> dict[str, object]:
        """Return the evaluation of *board* from White's point of view, with its best line."""
        with self._lock:
            engine = self._engine("advice", 20)
            lines = engine.analyse(board.copy(), self._limit(HINT_TIME))
        return _describe(board, lines[0] if lines else None)


def _get(info: Any, name: str) -> Any:
    if isinstance(info, dict):
        return info.get(name)
    return getattr(info, name, None)


def _describe(board: Board, info: Any) -> dict[str, object]:
    """Turn an engine line into JSON: centipawns or mate for White, depth, the line in SAN."""
    score = _get(info, "score")
    cp, mate = (
        (score, None)
        if isinstance(score, int | float)
        else (_get(score, "cp"), _get(score, "mate"))
    )
    sign = 1 if board.turn else -1
    line: list[str] = []
    copy = board.copy()
    for move in _get(info, "pv") or ():
        try:
            line.append(copy.san_and_push(move))
        except ValueError:
            break
    return {
        "cp": None if cp is None else sign * int(cp),
        "mate": None if mate is None else sign * int(mate),
        "depth": _get(info, "depth"),
        "pv": line,
    }
