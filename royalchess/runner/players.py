"""Engines in a match: parse an ENGINE spec and play moves through it.

An ENGINE is written

- ``royalchess`` or ``royalchess:level=12,hash=16,param.rfp_margin=120,name=patch`` — the
  built-in engine, in the worker process: ``level`` (1-20) or ``elo``, ``hash`` (MB),
  ``threads`` (1-64; a fixed-node search runs on one),
  ``param.NAME=VALUE`` evaluation weights and search tunables (the names the core's
  ``set_param`` knows, as ``ROYALCHESS_PARAMS``), ``evalfile=PATH`` to evaluate with that
  NNUE net (docs/nnue.md), ``eval=classic|auto|nnue`` (default ``classic``, or ``nnue``
  with an ``evalfile``; ``auto`` is what ``Engine()`` plays: each game's bundled net, else
  the classic evaluation), ``nodes=N`` to search N nodes a move whatever the match's limit
  (at ``--nodes``, in its place: an equal-time match between builds or nets of different
  speed gives the slower one fewer nodes; with a clock or ``--movetime``, a cap), ``name``
  for the PGN;
- ``uci:COMMAND`` or ``uci[Hash=16,UCI_Elo=2000,name=sf]:COMMAND`` — any UCI engine run as
  a subprocess, with UCI options (and ``name``, ``env.VAR=VALUE``) in the brackets; a path
  to an executable file is taken as ``uci:PATH``.

A UCI engine that crashes, hangs, plays an illegal move or overruns its clock loses the
game (:class:`Forfeit`); the match goes on.
"""

from __future__ import annotations

import os
import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from royalchess.board import Board
from royalchess.engine import EVALUATIONS, MAX_THREADS, TRANSPORT_OVERHEAD, Engine, Limit
from royalchess.errors import ChessError
from royalchess.move import Move
from royalchess.runner.uciclient import UciEngine, UciError, UciTimeout

__all__ = [
    "EngineSpec",
    "Forfeit",
    "Player",
    "TimeControl",
    "Turn",
    "open_player",
]

_MATE_CP = 100_000


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How long a move may take: fixed *nodes*, a fixed *movetime* (seconds), or a clock of
    *base* seconds plus *inc* per move. Only *nodes* makes games repeatable."""

    nodes: int | None = None
    movetime: float | None = None
    base: float | None = None
    inc: float = 0.0

    @classmethod
    def parse(cls, nodes: int | None, movetime_ms: int | None, tc: str | None) -> TimeControl:
        """From ``--nodes N``, ``--movetime MS`` or ``--tc BASE+INC`` (seconds; exactly one)."""
        given = [x for x in (nodes, movetime_ms, tc) if x is not None]
        if len(given) != 1:
            raise ValueError("give one of --nodes, --movetime or --tc")
        if nodes is not None:
            if nodes < 1:
                raise ValueError("--nodes must be at least 1")
            return cls(nodes=nodes)
        if movetime_ms is not None:
            if movetime_ms < 1:
                raise ValueError("--movetime must be at least 1 ms")
            return cls(movetime=movetime_ms / 1000)
        assert tc is not None
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(?:\+\s*([0-9]*\.?[0-9]+))?\s*", tc)
        if not match:
            raise ValueError(f"bad --tc {tc!r}: expected BASE+INC in seconds, e.g. 10+0.1")
        return cls(base=float(match[1]), inc=float(match[2] or 0))

    def describe(self) -> str:
        """``nodes=2000``, ``movetime=100ms`` or ``tc=10+0.1``: for the PGN and summaries."""
        if self.nodes is not None:
            return f"nodes={self.nodes}"
        if self.movetime is not None:
            return f"movetime={round(self.movetime * 1000)}ms"
        return f"tc={self.base:g}+{self.inc:g}"


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """A parsed ENGINE argument."""

    kind: str
    """``"royalchess"`` or ``"uci"``."""
    name: str
    options: tuple[tuple[str, str], ...] = ()
    """Built-in: level/elo/hash/param.NAME; UCI: the UCI options, in order."""
    command: str = ""
    env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """Parse an ENGINE argument (see the module notes); ``ValueError`` names the problem."""
        text = text.strip()
        if text == "royalchess" or text.startswith("royalchess:"):
            return cls._builtin(text.partition(":")[2])
        match = re.fullmatch(r"uci(?:\[(.*?)\])?:(.+)", text, re.DOTALL)
        if match is None:
            if text and Path(shlex.split(text)[0]).is_file():
                match = re.fullmatch(r"()(.+)", text, re.DOTALL)
            else:
                raise ValueError(
                    f"bad ENGINE {text!r}: expected royalchess[:level=N,...], "
                    "uci[OPTIONS]:COMMAND or a path to a UCI engine"
                )
        assert match is not None
        options, env, name = [], [], ""
        for key, value in _pairs(match[1] or ""):
            if key == "name":
                name = value
            elif key.startswith("env."):
                env.append((key[4:], value))
            else:
                options.append((key, value))
        command = match[2].strip()
        if not name:
            name = Path(shlex.split(command)[0]).name if command else "uci"
        return cls("uci", name, tuple(options), command, tuple(env))

    @classmethod
    def _builtin(cls, text: str) -> EngineSpec:
        options, name = [], ""
        for key, value in _pairs(text):
            if key == "name":
                name = value
            elif key in ("level", "elo", "hash", "threads", "nodes") or key.startswith("param."):
                try:
                    number = int(value)
                except ValueError:
                    raise ValueError(f"royalchess option {key}={value!r}: not an integer") from None
                if key == "nodes" and number < 1:
                    raise ValueError(f"royalchess option nodes={value!r}: at least 1")
                if key == "threads" and not 1 <= number <= MAX_THREADS:
                    raise ValueError(f"royalchess option threads={value!r}: 1 to {MAX_THREADS}")
                options.append((key, value))
            elif key == "evalfile":
                options.append((key, value))
            elif key == "eval":
                if value not in EVALUATIONS:
                    raise ValueError(
                        f"royalchess option eval={value!r}: expected one of "
                        + ", ".join(EVALUATIONS)
                    )
                options.append((key, value))
            else:
                raise ValueError(
                    f"unknown royalchess option {key!r}: level, elo, hash, threads, nodes, "
                    "param.NAME, evalfile, eval or name"
                )
        keys = dict(options)
        if keys.get("eval") == "classic" and "evalfile" in keys:
            raise ValueError("royalchess options eval=classic and evalfile=PATH contradict")
        if not name:
            name = "royalchess" + "".join(
                f" {k}={v}"
                for k, v in options
                if k in ("level", "elo", "nodes") or k.startswith("param.")
            )
        return cls("royalchess", name, tuple(options))


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad engine option {item!r}: expected NAME=VALUE")
        pairs.append((key.strip(), value.strip()))
    return pairs


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A game lost by the engine to move: ``kind`` is ``"illegal move"``, ``"crash"`` or
    ``"time forfeit"``; ``detail`` says what happened."""

    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class Turn:
    """What a player did on its move."""

    move: Move | None = None
    cp: int | None = None
    """Its score for the side to move, in centipawns (mates mapped to +-100000), if known."""
    seconds: float = 0.0
    forfeit: Forfeit | None = None


@dataclass(slots=True)
class Clock:
    """Time left for each side (seconds), and the increment."""

    white: float
    black: float
    inc: float
    margin: float = 0.1

    def left(self, white: bool) -> float:
        return self.white if white else self.black


class Player(Protocol):
    """One engine playing one game."""

    name: str

    def go(self, board: Board, limit: TimeControl, clock: Clock | None) -> Turn:
        """Choose a move on *board* (the game so far is its move stack)."""
        ...

    def close(self) -> None:
        """Release the engine."""
        ...


@dataclass
class BuiltinPlayer:
    """The built-in engine, fresh for each game: a new hash table and a seeded choice, so
    a fixed-node game is the same in any process."""

    spec: EngineSpec
    seed: int
    name: str = ""
    engine: Engine = field(init=False)
    nodes: int | None = field(init=False)
    """The spec's own node count (``nodes=N``), if it has one."""

    def __post_init__(self) -> None:
        opts = dict(self.spec.options)
        self.nodes = int(opts["nodes"]) if "nodes" in opts else None
        level = int(opts["level"]) if "level" in opts else None
        elo = int(opts["elo"]) if "elo" in opts else None
        net = opts.get("evalfile")
        self.engine = Engine(
            level,
            elo=elo,
            hash_mb=int(opts.get("hash", 16)),
            threads=int(opts.get("threads", 1)),
            seed=self.seed,
            evaluation=opts.get("eval", "classic" if net is None else "nnue"),
            eval_file=net,
        )
        for key, value in self.spec.options:
            if key.startswith("param."):
                try:
                    self.engine.set_param(key[len("param.") :], int(value))
                except (KeyError, ValueError) as exc:
                    raise ValueError(f"royalchess option {key}: {exc}") from None
        self.name = self.name or self.spec.name

    def go(self, board: Board, limit: TimeControl, clock: Clock | None) -> Turn:
        if clock is not None:
            search_limit = Limit(
                wtime=clock.white,
                btime=clock.black,
                winc=clock.inc,
                binc=clock.inc,
                nodes=self.nodes,
            )
        else:
            search_limit = Limit(nodes=self.nodes or limit.nodes, movetime=limit.movetime)
        start = time.monotonic()
        # in process there is no pipe to keep time for: a fixed movetime is searched whole,
        # as Stockfish searches its own (it gives Move Overhead to clocks only)
        overhead = 0.0 if clock is None else TRANSPORT_OVERHEAD
        result = self.engine.search(board, search_limit, overhead=overhead)
        seconds = time.monotonic() - start
        cp = None
        if result.lines:
            cp = result.lines[0].score.value()
        return Turn(result.move, cp, seconds)

    def close(self) -> None:
        pass


class UciPlayer:
    """A UCI engine subprocess, started for one game."""

    def __init__(self, spec: EngineSpec, variant: str) -> None:
        self.spec = spec
        self.name = spec.name
        self.error: Forfeit | None = None
        self.engine: UciEngine | None = None
        try:
            self.engine = UciEngine(spec.command, env=dict(spec.env))
            for key, value in spec.options:
                self.engine.set_option(key, value)
            if variant != "chess" and "uci_variant" in self.engine.options:
                self.engine.set_option("UCI_Variant", variant)
            self.engine.new_game()
        except UciError as exc:
            self.error = Forfeit("crash", f"{spec.name}: {exc}")

    def go(self, board: Board, limit: TimeControl, clock: Clock | None) -> Turn:
        if self.error is not None or self.engine is None:
            return Turn(forfeit=self.error)
        root = board.copy()
        moves = [m.uci() for m in board.move_stack]
        for _ in moves:
            root.pop()
        position = f"fen {root.fen()}" + (" moves " + " ".join(moves) if moves else "")
        if clock is not None:
            ms = {k: max(0, round(v * 1000)) for k, v in (("w", clock.white), ("b", clock.black))}
            inc = round(clock.inc * 1000)
            go = f"wtime {ms['w']} btime {ms['b']} winc {inc} binc {inc}"
            timeout = clock.left(board.turn) + clock.margin + 1.0
        elif limit.nodes is not None:
            go, timeout = f"nodes {limit.nodes}", 60.0
        else:
            assert limit.movetime is not None
            go, timeout = f"movetime {round(limit.movetime * 1000)}", limit.movetime + 5.0
        try:
            reply = self.engine.go(position, go, timeout)
        except UciTimeout:
            kind = "time forfeit" if clock is not None else "crash"
            return self._lose(kind, f"{self.name} did not answer within {timeout:.1f} s")
        except UciError as exc:
            return self._lose("crash", f"{self.name}: {exc}")
        try:
            move = board.parse_uci(reply.bestmove)
            if move not in board.legal_moves:
                raise ChessError(f"{reply.bestmove} is not legal")
        except ChessError as exc:
            return self._lose("illegal move", f"{self.name} played {reply.bestmove!r}: {exc}")
        cp = reply.cp
        if reply.mate is not None:
            cp = _MATE_CP - abs(reply.mate) if reply.mate > 0 else -_MATE_CP + abs(reply.mate)
        return Turn(move, cp, reply.seconds)

    def _lose(self, kind: str, detail: str) -> Turn:
        self.error = Forfeit(kind, detail)
        self.close()
        return Turn(forfeit=self.error)

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def open_player(spec: EngineSpec, variant: str, seed: int) -> Player:
    """Start *spec* for one game of *variant*."""
    if spec.kind == "royalchess":
        return BuiltinPlayer(spec, seed)
    return UciPlayer(spec, variant)


def check_spec(spec: EngineSpec) -> None:
    """Fail early (``ValueError``) for a built-in engine whose options do not apply."""
    if spec.kind == "royalchess":
        BuiltinPlayer(spec, 0)
    elif not shlex.split(spec.command):
        raise ValueError("empty UCI command")
    elif not os.access(shlex.split(spec.command)[0], os.X_OK) and "/" in spec.command.split()[0]:
        raise ValueError(f"UCI engine {spec.command.split()[0]!r} is not an executable file")
