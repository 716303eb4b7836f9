"""The computer player for the web app and the terminal: a thin adapter over
:mod:`royalchess.engine`.

Each search runs on an engine of its own, taken from a small pool (engines are created on
first use and kept), so searches of different games never wait on one another, and each
search is named by its game: :meth:`Computer.stop` ends that game's searches at once (the
engine's stop answers within about a millisecond) and the move they found is not returned
(:class:`SearchStopped`). A search is also bounded by its level's time limit, so a search
nobody waits for any more ends by itself. At most *searches* run at once (the machine has
only so many cores); more wait for a free engine, and a stop reaches them while they wait.
Each search runs on *threads* threads (``--threads`` of ``royalchess serve`` and ``royalchess
play``); only searches without a node budget use more than one: level 20, hints, evaluations
and analysis (levels 1-19 stop by their node budgets, which always run on one thread).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from royalchess.board import Board
from royalchess.errors import ChessError
from royalchess.move import Move

__all__ = [
    "HINT_TIME",
    "Computer",
    "EngineUnavailableError",
    "SearchStopped",
    "Ticket",
    "move_time",
]

T = TypeVar("T")


class EngineUnavailableError(RuntimeError):
    """The engine module is not installed or cannot be loaded."""


class SearchStopped(RuntimeError):
    """The search was stopped (a takeback, a delete, an abandoned request): no move."""


def move_time(level: int) -> float:
    """Seconds the computer may think for one move at *level* (1-20); weak levels stop
    sooner by their own depth and node budgets."""
    return round(min(0.2 + 0.04 * level, 1.0), 2)


HINT_TIME = 0.5
"""Seconds spent on a hint or an evaluation."""


@dataclass(eq=False)
class Ticket:
    """One search: the game it is for, and whether it was stopped. Made by the caller
    before the search, so that :meth:`Computer.cancel` reaches it at any time."""

    game: int | None
    stopped: bool = False
    engine: Any = None
    """The engine while it searches (set under the computer's lock)."""


class Computer:
    """Plays, hints and evaluates with :class:`royalchess.engine.Engine`.

    *factory* builds an engine (``Engine`` by default, called as ``factory(level=n)``).
    *searches* is how many searches may run at once, *threads* how many threads each runs
    on (1 to ``royalchess.engine.MAX_THREADS``; ValueError otherwise).
    """

    def __init__(self, factory: Any = None, *, searches: int = 4, threads: int = 1) -> None:
        from royalchess.engine import MAX_THREADS  # imported when needed, as Engine below

        if type(threads) is not int or not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be an int from 1 to {MAX_THREADS}, not {threads!r}")
        self.threads = threads
        """Threads per search (set at creation)."""
        self._factory = factory
        self._idle: list[Any] = []
        self._running: set[Ticket] = set()
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(searches)

    # -- stopping ---------------------------------------------------------------------------

    def cancel(self, ticket: Ticket) -> None:
        """Stop one search (its request was abandoned), even before it starts."""
        with self._lock:
            self._halt(ticket)

    def stop(self, game: int) -> int:
        """Stop every search of *game* at once; return how many there were."""
        with self._lock:
            found = [t for t in self._running if t.game == game and not t.stopped]
            for ticket in found:
                self._halt(ticket)
        return len(found)

    def searching(self, game: int) -> bool:
        """Whether a search of *game* is running or waiting for an engine."""
        with self._lock:
            return any(t.game == game and not t.stopped for t in self._running)

    def _halt(self, ticket: Ticket) -> None:
        ticket.stopped = True
        if ticket.engine is not None:
            ticket.engine.stop()  # its search was reserved: stop reaches it even before go

    # -- searching --------------------------------------------------------------------------

    def _new_engine(self) -> Any:
        factory = self._factory
        if factory is None:
            try:
                from royalchess.engine import Engine
            except ImportError as exc:
                raise EngineUnavailableError(f"the engine is not available: {exc}") from None
            factory = Engine
        engine = factory(level=20)
        if self.threads != 1:
            engine.threads = self.threads
        return engine

    def _run(self, ticket: Ticket | None, game: int | None, work: Callable[[Any, int], T]) -> T:
        """Run *work(engine, engine_ticket)* on an engine of the pool for *ticket* (a new one for *game*
        when ``None``); raise :class:`SearchStopped` if the search was stopped."""
        if ticket is None:
            ticket = Ticket(game)
        with self._lock:
            self._running.add(ticket)
        try:
            while not self._slots.acquire(timeout=0.05):
                if ticket.stopped:
                    raise SearchStopped("the search was stopped")
            try:
                with self._lock:
                    engine = self._idle.pop() if self._idle else None
                if engine is None:
                    engine = self._new_engine()
                try:
                    return self._search(ticket, engine, work)
                finally:
                    with self._lock:
                        ticket.engine = None
                        self._idle.append(engine)
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._running.discard(ticket)

    def _search(self, ticket: Ticket, engine: Any, work: Callable[[Any, int], T]) -> T:
        with self._lock:
            if ticket.stopped:
                raise SearchStopped("the search was stopped")
            ticket.engine = engine
            # reserved before the search starts: a stop from now on reaches it
            reserved = engine.reserve()
        result = work(engine, reserved)
        if ticket.stopped:  # its move is the best found so far, not the level's choice
            raise SearchStopped("the search was stopped")
        return result

    @staticmethod
    def _limit(seconds: float) -> Any:
        from royalchess.engine import Limit

        return Limit(movetime=seconds)

    def play(
        self,
        board: Board,
        level: int,
        *,
        game: int | None = None,
        ticket: Ticket | None = None,
        clock: dict[str, float] | None = None,
    ) -> Move:
        """Return the computer's move in *board* at *level* (a search of *game*).

        Without *clock* it thinks for its level's :func:`move_time`; with *clock* (the game's
        ``wtime``, ``btime``, ``winc``, ``binc`` in seconds) it plays to its clock, by the
        engine's time management, the level's depth and node limits still applying."""
        board = board.copy()

        def work(engine: Any, reserved: int) -> Move:
            from royalchess.engine import Limit

            engine.level = level
            if clock is None:
                limit = self._limit(move_time(level))
            else:
                limit = Limit(
                    wtime=clock["wtime"],
                    btime=clock["btime"],
                    winc=clock["winc"],
                    binc=clock["binc"],
                )
            found = engine.search(board, limit, ticket=reserved)
            if found.move is None:
                raise ChessError(f"no legal move in {board.fen()}")
            return found.move  # type: ignore[no-any-return]

        return self._run(ticket, game, work)

    def hint(
        self, board: Board, *, game: int | None = None, ticket: Ticket | None = None
    ) -> Move | None:
        """Return a good move for the side to move (full strength), or ``None``."""
        board = board.copy()

        def work(engine: Any, reserved: int) -> Move | None:
            limit = self._limit(HINT_TIME)
            return engine.search(board, limit, strength=False, ticket=reserved).move  # type: ignore[no-any-return]

        return self._run(ticket, game, work)

    def evaluate(
        self, board: Board, *, game: int | None = None, ticket: Ticket | None = None
    ) -> dict[str, object]:
        """Return the evaluation of *board* from White's point of view, with its best line."""
        copy = board.copy()

        def work(engine: Any, reserved: int) -> list[Any]:
            limit = self._limit(HINT_TIME)
            return list(engine.search(copy, limit, strength=False, ticket=reserved).lines)

        lines = self._run(ticket, game, work)
        return _describe(board, lines[0] if lines else None)

    def analyse(
        self,
        board: Board,
        limit: Any,
        *,
        multipv: int = 1,
        on_info: Callable[[Any], object] | None = None,
        game: int | None = None,
        ticket: Ticket | None = None,
    ) -> list[Any]:
        """Analyse *board* at full strength within *limit* (an engine ``Limit``): the best
        *multipv* lines (engine ``Info``), best first. *on_info* gets each line as it is
        found, on the searching thread (live analysis, :mod:`.live`; game review)."""
        copy = board.copy()

        def work(engine: Any, reserved: int) -> list[Any]:
            result = engine.search(
                copy, limit, multipv=multipv, on_info=on_info, strength=False, ticket=reserved
            )
            return list(result.lines)

        return self._run(ticket, game, work)


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
