"""A small UCI client: drive any UCI engine as a subprocess, with timeouts.

Only what a match needs: ``uci``/``isready``, options, ``ucinewgame``, ``position ... moves``
and ``go`` with nodes, movetime or clocks, reading ``info score`` and ``bestmove``. Every
read has a deadline; an engine that exits, hangs or answers garbage raises
:class:`UciError`, which the match records as a loss for that engine.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["UciEngine", "UciError", "UciReply", "UciTimeout"]

_EOF = None


class UciError(Exception):
    """The engine broke the protocol, exited, or could not be started."""


class UciTimeout(UciError):
    """The engine did not answer in time."""


@dataclass(frozen=True, slots=True)
class UciReply:
    """The answer to one ``go``."""

    bestmove: str
    """The move as the engine spelt it (``"(none)"`` or ``"0000"`` for no move)."""
    cp: int | None
    """The last ``score cp`` for the side to move, if any."""
    mate: int | None
    """The last ``score mate``, if any."""
    seconds: float
    """Wall time from ``go`` to ``bestmove``."""


class UciEngine:
    """One running UCI engine process.

    *command* is a command line (split as a shell would) or an argument list; *env* adds
    environment variables. Raises :class:`UciError` when the engine does not start or does
    not answer ``uci`` within *startup* seconds.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        startup: float = 20.0,
    ) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        try:
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                env={**os.environ, **(env or {})},
            )
        except OSError as exc:
            raise UciError(f"cannot start {args[0]!r}: {exc}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.name = args[0]
        self.options: set[str] = set()
        self.send("uci")
        deadline = time.monotonic() + startup
        while True:
            line = self.readline(deadline)
            if line == "uciok":
                break
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip()
            elif line.startswith("option name "):
                self.options.add(line[len("option name ") :].split(" type ")[0].strip().lower())

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.strip())
        self._lines.put(_EOF)

    def send(self, line: str) -> None:
        """Send one command line."""
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise UciError(f"engine exited (code {self._process.poll()})") from None

    def readline(self, deadline: float) -> str:
        """The next line, waiting until the monotonic time *deadline* at most."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise UciTimeout("engine did not answer in time") from None
        if line is _EOF:
            self._lines.put(_EOF)
            code = self._process.wait(5)
            raise UciError(f"engine exited (code {code})")
        return line

    def set_option(self, name: str, value: str) -> None:
        """``setoption name NAME value VALUE``."""
        self.send(f"setoption name {name} value {value}")

    def ready(self, timeout: float = 20.0) -> None:
        """``isready`` and wait for ``readyok``."""
        self.send("isready")
        deadline = time.monotonic() + timeout
        while self.readline(deadline) != "readyok":
            pass

    def new_game(self) -> None:
        """``ucinewgame`` then ``isready``."""
        self.send("ucinewgame")
        self.ready()

    def go(self, position: str, go: str, timeout: float) -> UciReply:
        """Send ``position POSITION`` and ``go GO``; wait *timeout* seconds for ``bestmove``."""
        self.send(f"position {position}")
        start = time.monotonic()
        self.send(f"go {go}")
        deadline = start + timeout
        cp: int | None = None
        mate: int | None = None
        while True:
            line = self.readline(deadline)
            words = line.split()
            if not words:
                continue
            if words[0] == "bestmove":
                if len(words) < 2:
                    raise UciError("'bestmove' without a move")
                return UciReply(words[1], cp, mate, time.monotonic() - start)
            if words[0] == "info" and "score" in words:
                i = words.index("score")
                kind, value = [*words[i + 1 : i + 3], "", ""][:2]
                if "lowerbound" in words or "upperbound" in words:
                    continue
                try:
                    if kind == "cp":
                        cp, mate = int(value), None
                    elif kind == "mate":
                        cp, mate = None, int(value)
                except ValueError:
                    pass

    def close(self) -> None:
        """``quit``, then make sure the process is gone."""
        if self._process.poll() is None:
            try:
                self.send("quit")
                self._process.wait(2)
            except (UciError, subprocess.TimeoutExpired):
                pass
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
