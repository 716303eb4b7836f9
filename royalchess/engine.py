"""The engine: play, analyse and hint for both games, at any level.

The search itself is C (``royalchess._core.Search``); it runs with the GIL released, so other
Python threads go on, and it can be stopped from any thread.

>>> from royalchess import Board
>>> from royalchess.engine import Engine, Limit
>>> engine = Engine()
>>> board = Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
>>> engine.play(board, Limit(depth=3)).uci()
'a1a8'
>>> engine.analyse(board, Limit(depth=3))[0].score.mate
1
"""

from __future__ import annotations

import argparse
import math
import os
import queue
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Self

from royalchess import _core
from royalchess.board import Board
from royalchess.errors import ChessError
from royalchess.levels import (
    LEVEL_ELO,
    MAX_LEVEL,
    LevelSettings,
    choose_line,
    level_for_elo,
    level_settings,
)
from royalchess.move import Move
from royalchess.nnue import NetFileError, bundled_net, load_net, net_game
from royalchess.variants import VARIANTS

__all__ = ["Analysis", "Engine", "Info", "Limit", "Score", "SearchResult"]

_MATE_CP = 100_000

EVALUATIONS = ("auto", "classic", "nnue")
"""What :meth:`Engine.set_evaluation` accepts."""

MAX_THREADS = 64
"""The most threads :attr:`Engine.threads` takes (the core's SEARCH_MAX_THREADS)."""


def thread_count(text: str) -> int:
    """Parse a ``--threads`` option (``royalchess serve``, ``royalchess play``): a whole
    number from 1 to :data:`MAX_THREADS`, else :class:`argparse.ArgumentTypeError`."""
    digits = text.isascii() and text.isdigit() and len(text) <= 4
    threads = int(text) if digits else 0
    if not 1 <= threads <= MAX_THREADS:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of threads from 1 to {MAX_THREADS}, not {text!r}"
        )
    return threads


TRANSPORT_OVERHEAD = 0.02
"""Seconds of the time limit :meth:`Engine.search` keeps in hand by default for the transport."""


@dataclass(frozen=True, slots=True)
class Limit:
    """When a search ends. Times are in seconds; unset fields do not limit.

    With none of ``depth``, ``nodes``, ``movetime``, the clocks or ``infinite`` set, the
    search runs until stopped (as ``infinite``).
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float | None = None
    binc: float | None = None
    movestogo: int | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "movestogo"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"Limit.{name} must be a non-negative int, not {value!r}")
        for name in ("movetime", "wtime", "btime", "winc", "binc"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int | float) or math.isnan(value)):
                raise ValueError(f"Limit.{name} must be a number of seconds, not {value!r}")

    def is_unbounded(self) -> bool:
        """True when nothing but ``stop`` ends the search."""
        return self.infinite or (
            self.depth is None
            and self.nodes is None
            and self.movetime is None
            and self.wtime is None
            and self.btime is None
        )


def _ms(seconds: float | None, default: int) -> int:
    return default if seconds is None else max(0, round(seconds * 1000))


@dataclass(frozen=True, slots=True)
class Score:
    """A score for the side to move: centipawns, or a mate in ``mate`` moves (negative when
    the side to move gets mated)."""

    cp: int | None = None
    mate: int | None = None

    def is_mate(self) -> bool:
        """True for a forced mate either way."""
        return self.mate is not None

    def value(self) -> int:
        """Centipawns, with mates mapped far beyond any material score (nearer is bigger)."""
        if self.mate is None:
            return self.cp or 0
        return _MATE_CP - self.mate if self.mate > 0 else -_MATE_CP - self.mate

    def __str__(self) -> str:
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{(self.cp or 0) / 100:+.2f}"


@dataclass(frozen=True, slots=True)
class Info:
    """Progress of a search: one principal line at one depth."""

    multipv: int
    depth: int
    seldepth: int
    score: Score
    bound: str
    """``"exact"``, or ``"lower"``/``"upper"`` while a line is re-searched."""
    nodes: int
    nps: int
    time: float
    """Seconds since the search began."""
    hashfull: int
    pv: tuple[Move, ...]

    @property
    def move(self) -> Move | None:
        """The line's first move."""
        return self.pv[0] if self.pv else None


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a finished search chose."""

    move: Move | None
    """The move to play (``None`` when there is no legal move)."""
    ponder: Move | None
    """The reply expected to it, if known."""
    lines: tuple[Info, ...] = field(default_factory=tuple)
    """The last exact line of each MultiPV rank, best first."""
    depth: int = 0
    nodes: int = 0
    time: float = 0.0


def _game_of(board: Board) -> tuple[str, list[int]]:
    """The FEN at the last irreversible move and the move codes since: enough to see every
    repetition the search must know about."""
    stack = board.move_stack
    back = min(len(stack), board.halfmove_clock)
    if back == 0:
        return board.fen(), []
    root = board.copy()
    for _ in range(back):
        root.pop()
    return root.fen(), [move.code() for move in stack[-back:]]


def _score(d: dict[str, object]) -> Score:
    mate = d.get("mate")
    if isinstance(mate, int):
        return Score(mate=mate)
    cp = d.get("score")
    return Score(cp=cp if isinstance(cp, int) else 0)


def _int(d: dict[str, object], key: str) -> int:
    value = d.get(key, 0)
    return value if isinstance(value, int) else 0


def _info(d: dict[str, object], files: int) -> Info:
    pv = d.get("pv", [])
    codes = pv if isinstance(pv, list) else []
    bound = d.get("bound")
    return Info(
        multipv=_int(d, "multipv"),
        depth=_int(d, "depth"),
        seldepth=_int(d, "seldepth"),
        score=_score(d),
        bound=bound if isinstance(bound, str) else "exact",
        nodes=_int(d, "nodes"),
        nps=_int(d, "nps"),
        time=_int(d, "time") / 1000,
        hashfull=_int(d, "hashfull"),
        pv=tuple(Move.from_code(c, files) for c in codes),
    )


class Engine:
    """A chess computer for both games.

    ``level`` is 1 (a beginner) to 20 (full strength, the default); ``elo`` instead picks
    the level nearest to a standard-chess rating. ``hash_mb`` sizes the hash table;
    ``threads`` is how many threads a search runs on (1, the default; see :attr:`threads`).
    ``seed`` makes the weak levels' choices repeatable. ``evaluation`` is ``"auto"`` (the default:
    each game's net bundled with the package, the hand-written evaluation for a game without
    one), ``"classic"`` (the hand-written evaluation) or ``"nnue"`` (a net: ``eval_file``,
    else the one bundled for the game; see :meth:`set_evaluation`).

    One engine runs one search at a time (a second call waits for the first); use two
    engines to search two positions at once.
    """

    def __init__(
        self,
        level: int | None = None,
        *,
        elo: int | None = None,
        hash_mb: int = 16,
        threads: int = 1,
        seed: int | None = None,
        evaluation: str = "auto",
        eval_file: str | os.PathLike[str] | None = None,
    ) -> None:
        if level is not None and elo is not None:
            raise ValueError("give a level or an elo, not both")
        self._search = _core.Search(hash_mb)
        for item in filter(None, os.environ.get("ROYALCHESS_PARAMS", "").split(",")):
            # a testing hook: "name=value,..." overrides evaluation weights and search
            # tunables, so self-play can compare a change without a rebuild
            name, _, value = item.partition("=")
            self._search.set_param(name.strip(), int(value))
        self._hash_mb = hash_mb
        self._lock = threading.Lock()
        self.threads = threads
        self._ticket_lock = threading.Lock()
        self._tickets: list[int] = []  # searches running or about to, oldest first
        self._rng = random.Random(seed)
        self._settings = level_settings(MAX_LEVEL)
        self._evaluation = "classic"
        self._nets: dict[str, _core.Net] = {}
        self.set_evaluation(evaluation, eval_file)
        if elo is not None:
            self.elo = elo
        else:
            self.level = MAX_LEVEL if level is None else level

    # -- settings ---------------------------------------------------------------------------

    @property
    def level(self) -> int:
        """The playing level, 1 to 20."""
        return self._settings.level

    @level.setter
    def level(self, level: int) -> None:
        self._settings = level_settings(level)

    @property
    def elo(self) -> int:
        """The standard-chess rating of the current level; setting it picks a level."""
        return LEVEL_ELO[self._settings.level]

    @elo.setter
    def elo(self, elo: int) -> None:
        if type(elo) is not int:
            raise ValueError(f"elo must be an int, not {elo!r}")
        self._settings = level_settings(level_for_elo(elo))

    @property
    def settings(self) -> LevelSettings:
        """How the current level searches and chooses."""
        return self._settings

    @property
    def hash_mb(self) -> int:
        """The hash table size in megabytes; setting it empties the table."""
        return self._hash_mb

    @hash_mb.setter
    def hash_mb(self, mb: int) -> None:
        with self._lock:
            self._search.resize(mb)
            self._hash_mb = mb

    @property
    def threads(self) -> int:
        """How many threads a search runs on, 1 to 64 (Lazy SMP: helper threads search the
        same position and share the hash table). A search with a node budget, as the lower
        levels and ``Limit(nodes=...)`` use, runs on one thread so that it stays repeatable;
        more threads make a timed search stronger (docs/strength.md) but its choice varies
        from run to run. ``ValueError`` outside 1 to 64."""
        return self._search.threads

    @threads.setter
    def threads(self, threads: int) -> None:
        if type(threads) is not int:
            raise ValueError(f"threads must be an int, not {threads!r}")
        with self._lock:
            self._search.set_threads(threads)

    def set_param(self, name: str, value: int) -> None:
        """Set one evaluation weight or search tunable by name (as ``ROYALCHESS_PARAMS``):
        how self-play compares a change without a rebuild. ``KeyError`` for an unknown name."""
        with self._lock:
            self._search.set_param(name, value)

    @property
    def evaluation(self) -> str:
        """``"auto"``, ``"classic"`` or ``"nnue"`` (see :meth:`set_evaluation`)."""
        return self._evaluation

    def evaluation_for(self, variant: str) -> str:
        """What evaluates positions of *variant* (``"chess"`` or ``"royal"``): ``"nnue"`` or
        ``"classic"``."""
        if self._evaluation == "classic":
            return "classic"
        return "nnue" if self._evaluation == "nnue" or variant in self._nets else "classic"

    def set_evaluation(
        self, evaluation: str, eval_file: str | os.PathLike[str] | None = None
    ) -> None:
        """Evaluate with the hand-written evaluation (``"classic"``), a net (``"nnue"``), or
        each game's net where there is one and the hand-written evaluation elsewhere
        (``"auto"``, the default).

        With ``"nnue"`` or ``"auto"``, *eval_file* is a net file (its header names its game);
        a game without one uses the net bundled with the package, if any. A bad file raises
        :class:`~royalchess.nnue.NetFileError` naming the problem, and so does searching a
        game that has no net under ``"nnue"``: the engine never falls back to the other
        evaluation behind the caller's back (``"auto"`` is the documented choice per game).
        """
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation must be 'auto', 'classic' or 'nnue', not {evaluation!r}")
        nets: dict[str, _core.Net] = {}
        if evaluation != "classic":
            if eval_file is not None:
                game = net_game(eval_file)
                nets[game] = load_net(eval_file, game)
            for name in VARIANTS:
                path = None if name in nets else bundled_net(name)
                if path is not None:
                    nets[name] = load_net(path, name)
            if not nets and evaluation == "nnue":
                raise NetFileError(
                    "no net to evaluate with: give eval_file (this package bundles none)"
                )
        with self._lock:
            for name, variant in VARIANTS.items():
                self._search.set_net(variant.core_id, nets.get(name))
            self._evaluation = evaluation
            self._nets = nets

    def _check_evaluation(self, board: Board) -> None:
        if self._evaluation == "nnue" and board.variant_info.name not in self._nets:
            raise NetFileError(
                f"no net for {board.variant_info.title}: give an eval_file "
                "for it, or use evaluation='classic'"
            )

    def new_game(self) -> None:
        """Forget what earlier searches learnt (hash table, move-ordering history)."""
        with self._lock:
            self._search.clear()

    def evaluate(self, board: Board) -> int:
        """The static evaluation of *board* in centipawns for the side to move."""
        self._check_evaluation(board)
        fen, moves = _game_of(board)
        with self._lock:
            return self._search.evaluate(fen, board.variant_info.core_id, moves)

    # -- searching --------------------------------------------------------------------------

    def reserve(self) -> int:
        """Name a search before it starts, so that :meth:`stop` reaches it even then.

        Pass the number to :meth:`search` as ``ticket``.
        """
        with self._ticket_lock:
            ticket = self._search.new_ticket()
            self._tickets.append(ticket)
            return ticket

    def stop(self) -> None:
        """Stop the running search, or the next one reserved (from any thread); it returns
        its best move so far."""
        with self._ticket_lock:
            if self._tickets:
                self._search.stop(self._tickets[0])

    def ponderhit(self) -> None:
        """The move being pondered on was played: the clock of the search starts now."""
        self._search.ponderhit()

    def search(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        multipv: int = 1,
        on_info: Callable[[Info], object] | None = None,
        searchmoves: Sequence[Move] | None = None,
        ponder: bool = False,
        overhead: float = TRANSPORT_OVERHEAD,
        strength: bool = True,
        ticket: int | None = None,
    ) -> SearchResult:
        """Search *board* and return the move chosen, with the last lines found.

        The engine's level caps depth and nodes and picks among its best lines when
        *strength* is true; with *strength* false the search is at full strength (analysis).
        *on_info* gets each :class:`Info` as it is found, on the searching thread.
        *overhead* seconds of the clock are kept in hand for the transport. *ticket* is a
        number from :meth:`reserve`.
        """
        if ticket is None:
            ticket = self.reserve()
        try:
            return self._run(
                board, limit, multipv, on_info, searchmoves, ponder, overhead, strength, ticket
            )
        finally:
            with self._ticket_lock:
                if ticket in self._tickets:
                    self._tickets.remove(ticket)

    def _run(
        self,
        board: Board,
        limit: Limit | None,
        multipv: int,
        on_info: Callable[[Info], object] | None,
        searchmoves: Sequence[Move] | None,
        ponder: bool,
        overhead: float,
        strength: bool,
        ticket: int,
    ) -> SearchResult:
        if multipv < 1:
            raise ValueError(f"multipv must be at least 1, not {multipv}")
        self._check_evaluation(board)
        limit = limit or Limit()
        settings = self._settings if strength else level_settings(MAX_LEVEL)
        files = board.files
        exact: dict[int, dict[str, object]] = {}

        def report(d: dict[str, object]) -> None:
            # keep the raw report: only the last exact line of each rank becomes an Info
            # (most reports are superseded, and building each one costs more than a short
            # search's own time in self-play)
            bound = d.get("bound")
            if not isinstance(bound, str) or bound == "exact":
                exact[_int(d, "multipv")] = d
            if on_info is not None:
                on_info(_info(d, files))

        # a zero limit still searches (depth 1, one node, one ms): 0 means "none" in the core
        depth = 0 if limit.depth is None else max(1, limit.depth)
        if settings.depth is not None:
            depth = min(depth, settings.depth) if depth else settings.depth
        nodes = 0 if limit.nodes is None else max(1, limit.nodes)
        if settings.nodes is not None:
            nodes = min(nodes, settings.nodes) if nodes else settings.nodes
        candidates = max(multipv, settings.candidates)
        legal = list(board.legal_moves)
        fen, moves = _game_of(board)
        kwargs: dict[str, object] = {
            "depth": depth,
            "nodes": nodes,
            "movetime": 0 if limit.movetime is None else max(1, _ms(limit.movetime, 0)),
            "wtime": _ms(limit.wtime, -1),
            "btime": _ms(limit.btime, -1),
            "winc": _ms(limit.winc, 0),
            "binc": _ms(limit.binc, 0),
            "movestogo": limit.movestogo or 0,
            "infinite": limit.is_unbounded() and not depth and not nodes,
            "ponder": ponder,
            "multipv": min(candidates, max(1, len(legal))),
            "overhead": _ms(overhead, 0),
        }
        if searchmoves:
            kwargs["searchmoves"] = [m.code() for m in searchmoves]
        with self._lock:
            raw = self._search.go(
                fen,
                board.variant_info.core_id,
                moves,
                callback=report,
                ticket=ticket,
                **kwargs,  # type: ignore[arg-type]
            )
        best = raw.get("best")
        ponder_code = raw.get("ponder")
        move = Move.from_code(best, files) if isinstance(best, int) else None
        reply = Move.from_code(ponder_code, files) if isinstance(ponder_code, int) else None
        ranked = tuple(_info(exact[k], files) for k in sorted(exact))
        if move is not None and strength and settings.level < MAX_LEVEL:
            move, reply = self._choose(settings, ranked, legal, move, reply)
        return SearchResult(
            move=move,
            ponder=reply,
            lines=ranked[:multipv],
            depth=_int(raw, "depth"),
            nodes=_int(raw, "nodes"),
            time=_int(raw, "time") / 1000,
        )

    def _choose(
        self,
        settings: LevelSettings,
        lines: tuple[Info, ...],
        legal: list[Move],
        best: Move,
        reply: Move | None,
    ) -> tuple[Move, Move | None]:
        candidates = [line for line in lines if line.move is not None]
        if not candidates or candidates[0].move != best:
            candidates = []
        pick = choose_line(settings, [c.score.value() for c in candidates], len(legal), self._rng)
        if pick < 0:
            return legal[-1 - pick], None
        if not candidates:
            return best, reply
        chosen = candidates[pick]
        assert chosen.move is not None
        return chosen.move, chosen.pv[1] if len(chosen.pv) > 1 else None

    def play(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        on_info: Callable[[Info], object] | None = None,
    ) -> Move:
        """Choose a move for the side to move at the engine's level.

        Without a *limit* the engine thinks for one second at most. Raises
        :class:`~royalchess.errors.ChessError` when the game is over (no legal move).
        """
        result = self.search(board, limit or Limit(movetime=1.0), on_info=on_info)
        if result.move is None:
            raise ChessError(f"no legal move in {board.fen()}")
        return result.move

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: Callable[[Info], object] | None = None,
    ) -> list[Info]:
        """Analyse *board* at full strength; return the best *multipv* lines, best first.

        Each :class:`Info` has the score (centipawns or mate in N), the principal
        variation, depth, nodes and nodes per second. Empty when there is no legal move.
        """
        result = self.search(board, limit, multipv=multipv, on_info=on_info, strength=False)
        return list(result.lines)

    def hint(self, board: Board, limit: Limit | None = None) -> Move | None:
        """Suggest a move for the player to move (full strength, half a second by default)."""
        result = self.search(board, limit or Limit(movetime=0.5), strength=False)
        return result.move

    def analysis(self, board: Board, limit: Limit | None = None, *, multipv: int = 1) -> Analysis:
        """Start analysing *board* in the background; see :class:`Analysis`."""
        return Analysis(self, board, limit or Limit(infinite=True), multipv)


_DONE = object()


class Analysis:
    """A running analysis: iterate to receive each :class:`Info` as it is found.

    >>> from royalchess import Board
    >>> from royalchess.engine import Engine, Limit
    >>> with Engine().analysis(Board(), Limit(depth=4)) as analysis:
    ...     depths = [info.depth for info in analysis]
    >>> depths[-1]
    4

    ``stop()`` ends it early; ``wait()`` returns the :class:`SearchResult`. Leaving a
    ``with`` block stops it.
    """

    def __init__(self, engine: Engine, board: Board, limit: Limit, multipv: int) -> None:
        self._engine = engine
        self._queue: queue.Queue[object] = queue.Queue()
        self._result: SearchResult | None = None
        self._error: Exception | None = None
        self.latest: dict[int, Info] = {}
        """The newest line of each MultiPV rank."""
        board = board.copy()
        ticket = engine.reserve()

        def run() -> None:
            try:
                self._result = engine.search(
                    board,
                    limit,
                    multipv=multipv,
                    on_info=self._queue.put,
                    strength=False,
                    ticket=ticket,
                )
            except Exception as exc:  # noqa: BLE001 - handed to the waiting thread
                self._error = exc
            finally:
                self._queue.put(_DONE)

        self._thread = threading.Thread(target=run, name="royalchess-analysis", daemon=True)
        self._thread.start()

    def __iter__(self) -> Iterator[Info]:
        while True:
            item = self._queue.get()
            if item is _DONE:
                self._queue.put(_DONE)
                return
            assert isinstance(item, Info)
            self.latest[item.multipv] = item
            yield item

    def stop(self) -> None:
        """Ask the search to stop; it finishes within milliseconds."""
        self._engine.stop()

    def wait(self) -> SearchResult:
        """Wait for the search to end and return its result."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
        self._thread.join()
