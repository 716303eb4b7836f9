"""The UCI engine server: ``royalchess uci``.

Speaks the Universal Chess Interface on standard input and output, for chess GUIs and
python-chess, in both games: ``setoption name UCI_Variant value royal`` switches to Royal
Chess, whose moves are spelled as on the rules page (``f1h1j1g1`` castling, ``e7e8g-``).

Options: ``Hash``, ``Threads``, ``MultiPV``, ``Skill Level`` (1-20), ``UCI_LimitStrength`` with
``UCI_Elo``, ``UCI_Variant`` (``chess``, ``royal``), ``Move Overhead``, ``Ponder``,
``Clear Hash``, ``UseNNUE`` and ``EvalFile`` (a net file; without one, the nets bundled with
the package). Until ``UseNNUE`` is set, each game with a bundled net (or an ``EvalFile``)
plays with it and the others with the classic evaluation; ``true`` then asks for a net in
every game (an error for a game without one), ``false`` for the classic evaluation. Lines it cannot use are answered with ``info string`` and otherwise ignored:
the server never stops on bad input, only on ``quit`` or the end of its input.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from typing import BinaryIO, TextIO

from royalchess import __version__
from royalchess.board import Board
from royalchess.engine import MAX_THREADS, Engine, Info, Limit
from royalchess.errors import ChessError
from royalchess.levels import LEVEL_ELO, MAX_LEVEL, MIN_LEVEL, level_for_elo
from royalchess.move import Move
from royalchess.nnue import bundled_net
from royalchess.variants import VARIANTS

__all__ = ["UciServer", "main"]

_GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")
_GO_WORDS = {*_GO_NUMBERS, "searchmoves", "ponder", "infinite"}
_MIN_ELO = min(LEVEL_ELO.values())
_MAX_ELO = max(LEVEL_ELO.values())


class _Options:
    """The values of the UCI options."""

    def __init__(self) -> None:
        self.hash_mb = 16
        self.multipv = 1
        self.skill = MAX_LEVEL
        self.limit_strength = False
        self.elo = _MAX_ELO
        self.variant = "chess"
        self.overhead_ms = 30
        self.ponder = False
        self.use_nnue: bool | None = None
        """None until set: the engine's default (each game's bundled net, else classic)."""
        self.eval_file = ""

    def level(self) -> int:
        return level_for_elo(self.elo) if self.limit_strength else self.skill


def _option_lines() -> list[str]:
    return [
        "option name Hash type spin default 16 min 1 max 4096",
        "option name Clear Hash type button",
        f"option name Threads type spin default 1 min 1 max {MAX_THREADS}",
        "option name MultiPV type spin default 1 min 1 max 64",
        f"option name Skill Level type spin default {MAX_LEVEL} min {MIN_LEVEL} max {MAX_LEVEL}",
        "option name UCI_LimitStrength type check default false",
        f"option name UCI_Elo type spin default {_MAX_ELO} min {_MIN_ELO} max {_MAX_ELO}",
        "option name UCI_Variant type combo default chess "
        + " ".join(f"var {name}" for name in sorted(VARIANTS)),
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Ponder type check default false",
        "option name UseNNUE type check default "
        + ("true" if any(bundled_net(name) for name in VARIANTS) else "false"),
        "option name EvalFile type string default <empty>",
    ]


def _format_info(info: Info) -> str:
    parts = [f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv}"]
    if info.score.mate is not None:
        parts.append(f"score mate {info.score.mate}")
    else:
        parts.append(f"score cp {info.score.cp or 0}")
    if info.bound in ("lower", "upper"):
        parts.append(f"{info.bound}bound")
    parts.append(
        f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} time {round(info.time * 1000)}"
    )
    if info.pv:
        parts.append("pv " + " ".join(move.uci() for move in info.pv))
    return " ".join(parts)


class UciServer:
    """One UCI session. Feed it lines with :meth:`handle` (``False`` after ``quit``), or let
    :meth:`run` read a stream to its end. Everything it says goes to *write*, one line per
    call."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._out = threading.Lock()
        self._options = _Options()
        self._engine = Engine(hash_mb=self._options.hash_mb)
        self._board = Board()
        self._worker: threading.Thread | None = None
        self._release = threading.Event()  # ends the wait after an infinite / ponder search
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "uci": self._uci,
            "isready": self._isready,
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "ponderhit": self._ponderhit,
            "debug": lambda args: None,
            "register": lambda args: None,
            "d": self._display,
        }

    # -- output -----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one line (thread-safe)."""
        with self._out:
            self._write(line)

    def _error(self, message: str) -> None:
        self.send(f"info string error: {message}")

    # -- the loop ---------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one input line; return ``False`` when the session is over (``quit``)."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        if command == "quit":
            self.close()
            return False
        action = self._commands.get(command)
        if action is None:
            shown = line.strip()[:80]
            self._error(f"unknown command {shown!r}")
            return True
        try:
            action(args)
        except (ChessError, ValueError) as exc:
            self._error(f"{command}: {exc}")
        except Exception as exc:  # noqa: BLE001 - a bad line must never end the session
            self._error(f"{command}: {type(exc).__name__}: {exc}")
        return True

    def run(self, lines: Iterable[str]) -> int:
        """Handle *lines* until ``quit`` or their end; return the exit status (0)."""
        try:
            for line in lines:
                if not self.handle(line):
                    return 0
        finally:
            self.close()
        return 0

    def close(self) -> None:
        """Stop any search and wait for it (its ``bestmove`` is still sent)."""
        self._finish_search()

    # -- commands ---------------------------------------------------------------------------

    def _uci(self, args: list[str]) -> None:
        self.send(f"id name royalchess {__version__}")
        self.send("id author the royalchess authors")
        for line in _option_lines():
            self.send(line)
        self.send("uciok")

    def _isready(self, args: list[str]) -> None:
        self.send("readyok")

    def _setoption(self, args: list[str]) -> None:
        words = [w.lower() for w in args]
        if "name" not in words:
            raise ValueError("expected 'setoption name <id> [value <x>]'")
        start = words.index("name") + 1
        end = words.index("value") if "value" in words[start:] else len(words)
        name = " ".join(words[start:end])
        value = " ".join(args[end + 1 :]) if end < len(words) else ""
        opts = self._options
        if name == "hash":
            mb = _spin(value, 1, 4096, name)
            self._finish_search()
            self._engine.hash_mb = mb
            opts.hash_mb = mb
        elif name == "threads":
            n = _spin(value, 1, MAX_THREADS, name)
            self._finish_search()
            self._engine.threads = n
        elif name == "clear hash":
            self._finish_search()
            self._engine.new_game()
        elif name == "multipv":
            opts.multipv = _spin(value, 1, 64, name)
        elif name == "skill level":
            opts.skill = _spin(value, MIN_LEVEL, MAX_LEVEL, name)
        elif name == "uci_limitstrength":
            opts.limit_strength = _check(value, name)
        elif name == "uci_elo":
            opts.elo = _spin(value, _MIN_ELO, _MAX_ELO, name)
        elif name == "uci_variant":
            variant = value.strip().lower()
            if variant not in VARIANTS:
                raise ValueError(f"UCI_Variant {value!r}: expected one of {sorted(VARIANTS)}")
            opts.variant = variant
            self._board = Board(variant=variant)
        elif name == "move overhead":
            opts.overhead_ms = _spin(value, 0, 5000, name)
        elif name == "ponder":
            opts.ponder = _check(value, name)
        elif name in ("usennue", "evalfile"):
            use = _check(value, name) if name == "usennue" else opts.use_nnue
            path = value.strip() if name == "evalfile" else opts.eval_file
            if path == "<empty>":
                path = ""
            self._finish_search()
            # a bad net file is refused here (info string error) and nothing changes
            mode = "auto" if use is None else "nnue" if use else "classic"
            self._engine.set_evaluation(mode, path or None)
            opts.use_nnue, opts.eval_file = use, path
        else:
            raise ValueError(f"no option named {name!r}")

    def _ucinewgame(self, args: list[str]) -> None:
        self._finish_search()
        self._engine.new_game()
        self._board = Board(variant=self._options.variant)

    def _position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected 'position startpos|fen <fen> [moves ...]'")
        words = [w.lower() for w in args]
        moves_at = words.index("moves") if "moves" in words else len(args)
        variant = self._options.variant
        if words[0] == "startpos":
            board = Board(variant=variant)
        elif words[0] == "fen":
            fen = " ".join(args[1:moves_at])
            if not fen:
                raise ValueError("'position fen' needs a FEN")
            board = Board(fen, variant=variant)
        else:
            raise ValueError(f"expected 'startpos' or 'fen', not {args[0]!r}")
        self._board = board
        for text in args[moves_at + 1 :]:
            try:
                board.push_uci(text)
            except ChessError as exc:
                raise ValueError(f"move {text!r} not played: {exc}") from None

    def _go(self, args: list[str]) -> None:
        self._finish_search()
        numbers: dict[str, int] = {}
        searchmoves: list[Move] = []
        ponder = infinite = False
        i = 0
        while i < len(args):
            word = args[i].lower()
            if word in _GO_NUMBERS:
                if i + 1 >= len(args):
                    raise ValueError(f"'go {word}' needs a number")
                try:
                    numbers[word] = int(args[i + 1])
                except ValueError:
                    raise ValueError(f"'go {word}' needs a number, not {args[i + 1]!r}") from None
                i += 2
            elif word == "searchmoves":
                i += 1
                while i < len(args) and args[i].lower() not in _GO_WORDS:
                    try:
                        searchmoves.append(self._board.parse_uci(args[i]))
                    except ChessError as exc:
                        self._error(f"searchmoves: {exc}")
                    i += 1
            elif word == "ponder":
                ponder, i = True, i + 1
            elif word == "infinite":
                infinite, i = True, i + 1
            else:
                raise ValueError(f"unknown go parameter {args[i]!r}")
        depth = numbers.get("depth")
        if "mate" in numbers and numbers["mate"] > 0:
            depth = min(depth or 2 * numbers["mate"], 2 * numbers["mate"])
        seconds = {k: max(0, numbers[k]) / 1000 for k in _GO_NUMBERS[:4] if k in numbers}
        limit = Limit(
            depth=max(0, depth) if depth is not None else None,
            nodes=max(0, numbers["nodes"]) if "nodes" in numbers else None,
            movetime=max(0, numbers["movetime"]) / 1000 if "movetime" in numbers else None,
            wtime=seconds.get("wtime"),
            btime=seconds.get("btime"),
            winc=seconds.get("winc"),
            binc=seconds.get("binc"),
            movestogo=max(0, numbers["movestogo"]) if "movestogo" in numbers else None,
            infinite=infinite,
        )
        self._start_search(limit, searchmoves, ponder)

    def _stop(self, args: list[str]) -> None:
        self._finish_search()

    def _ponderhit(self, args: list[str]) -> None:
        self._engine.ponderhit()
        self._release.set()

    def _display(self, args: list[str]) -> None:
        for line in str(self._board).splitlines():
            self.send(f"info string {line}")
        self.send(f"info string fen {self._board.fen()}")

    # -- searching --------------------------------------------------------------------------

    def _start_search(self, limit: Limit, searchmoves: list[Move], ponder: bool) -> None:
        engine, board, opts = self._engine, self._board.copy(), self._options
        engine.level = opts.level()
        wait = limit.is_unbounded() or ponder  # UCI: bestmove only after stop / ponderhit
        self._release.clear()
        ticket = engine.reserve()
        reported = [0]  # the node count of the last info line sent

        def on_info(info: Info) -> None:
            reported[0] = info.nodes
            self.send(_format_info(info))

        def work() -> None:
            try:
                result = engine.search(
                    board,
                    limit,
                    multipv=opts.multipv,
                    on_info=on_info,
                    searchmoves=searchmoves or None,
                    ponder=ponder,
                    overhead=opts.overhead_ms / 1000,
                    strength=not limit.is_unbounded(),
                    ticket=ticket,
                )
            except Exception as exc:  # noqa: BLE001 - reported, and a move is still sent
                self._error(f"search failed: {type(exc).__name__}: {exc}")
                legal = list(board.legal_moves)
                best, reply = (legal[0] if legal else None), None
            else:
                best, reply = result.move, result.ponder
                # A search stopped inside an iteration has searched more than its last line
                # says: give the totals (as Stockfish does), or a GUI under-reports the nodes.
                if result.nodes > reported[0]:
                    ms = round(result.time * 1000)
                    nps = result.nodes * 1000 // ms if ms else 0  # as the core's info lines
                    self.send(f"info nodes {result.nodes} nps {nps} time {ms}")
            if wait:
                self._release.wait()
            if best is None:
                self.send("bestmove (none)")
            elif reply is not None and opts.ponder:
                self.send(f"bestmove {best.uci()} ponder {reply.uci()}")
            else:
                self.send(f"bestmove {best.uci()}")

        self._worker = threading.Thread(target=work, name="royalchess-uci-search", daemon=True)
        self._worker.start()

    def _finish_search(self) -> None:
        worker = self._worker
        if worker is None:
            return
        self._engine.stop()
        self._release.set()
        worker.join()
        self._worker = None


def _spin(value: str, low: int, high: int, name: str) -> int:
    try:
        number = int(value.strip())
    except ValueError:
        raise ValueError(f"option {name!r} needs a whole number, not {value!r}") from None
    if not low <= number <= high:
        raise ValueError(f"option {name!r}: {number} is out of range {low}..{high}")
    return number


def _check(value: str, name: str) -> bool:
    text = value.strip().lower()
    if text not in ("true", "false"):
        raise ValueError(f"option {name!r} is 'true' or 'false', not {value!r}")
    return text == "true"


def _lines(stream: BinaryIO) -> Iterable[str]:
    for raw in stream:
        yield raw.decode("utf-8", errors="replace")


def main(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Serve UCI on *stdin*/*stdout* (default: the process's) until ``quit`` or end of input."""
    out = stdout or sys.stdout

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    server = UciServer(write)
    return server.run(_lines(stdin or sys.stdin.buffer))
