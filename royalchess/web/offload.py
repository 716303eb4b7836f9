"""CPU-heavy work off the event loop, with a time bound: a child process per job.

Reading a PGN text is pure Python and holds the GIL while it works. In a worker thread it
would still slow every other request of the server (measured: ``GET /`` went from about
10 ms to 70-145 ms while a long import was parsed). So it runs in a child process, forked
from a small server process that has the PGN reader already imported, and the child is
killed when it passes its time bound: nothing of the server waits on it or keeps running
after the answer. The engine, whose search releases the GIL and stops by its own time
limit, stays in threads (``run_in_threadpool``).

The job must be a module-level function of picklable arguments and result, with no side
effect (it may be killed at any point); its errors come back as :class:`ApiError`.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import anyio.to_thread

from royalchess.errors import ChessError
from royalchess.move import Move
from royalchess.web.games import ApiError

__all__ = ["DEFAULT_SECONDS", "Offload", "read_pgn"]

DEFAULT_SECONDS = 10.0
"""Time bound of one job (seconds)."""

_PRELOAD = ["royalchess.web.pgn_io"]

T = TypeVar("T")


def _child(conn: Connection, func: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """Run the job in the child and send back ``(True, result)`` or ``(False, status,
    message)``: exceptions are sent as text, as not every exception pickles."""
    try:
        reply: tuple[Any, ...] = (True, func(*args))
    except ApiError as exc:
        reply = (False, exc.status, exc.message)
    except ChessError as exc:
        reply = (False, 400, str(exc))
    except Exception as exc:  # noqa: BLE001 - a bug: report it, the server answers 500
        reply = (False, 500, f"internal error: {type(exc).__name__}: {exc}")
    conn.send(reply)
    conn.close()


def read_pgn(text: str) -> tuple[str, str, list[Move], str, str | None, dict[str, str]]:
    """The job of ``POST /api/import``: read the first game of a PGN text, as picklable
    parts (start FEN, variant, moves, result, reason, headers); a :class:`Board` does not
    pickle."""
    from royalchess.web import pgn_io

    board, moves, result, termination, headers = pgn_io.read(text)
    return board.fen(), board.variant, moves, result, termination, headers


class Offload:
    """Runs jobs in child processes: at most *processes* at once, each for at most
    *seconds* (else :class:`ApiError` 503 and the child is killed)."""

    def __init__(self, seconds: float = DEFAULT_SECONDS, processes: int = 2) -> None:
        if seconds <= 0 or processes < 1:
            raise ValueError("seconds and processes must be positive")
        self.seconds = seconds
        self._slots = threading.BoundedSemaphore(processes)
        self._context: (
            multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext
        )
        if "forkserver" in multiprocessing.get_all_start_methods():
            forkserver = multiprocessing.get_context("forkserver")
            forkserver.set_forkserver_preload(_PRELOAD)
            self._context = forkserver
        else:  # Windows: each job starts a fresh interpreter
            self._context = multiprocessing.get_context("spawn")

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        """Run ``func(*args)`` in a child process and return its result."""
        # A free slot or an answer at once: a queue of waiting jobs would hold threads of
        # the pool every other request needs.
        if not self._slots.acquire(blocking=False):
            raise ApiError(503, "the server is busy with other imports: try again shortly")
        try:
            # The thread only waits (in poll(), without the GIL) while the child works.
            return await anyio.to_thread.run_sync(self._run, func, args)
        finally:
            self._slots.release()

    def _run(self, func: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_child, args=(sender, func, args), daemon=True)
        try:
            process.start()
        except BaseException:
            receiver.close()
            raise
        finally:
            sender.close()
        try:
            if not receiver.poll(self.seconds):
                raise ApiError(
                    503,
                    f"this took longer than {self.seconds:g} s and was stopped; import large "
                    "PGN files with `royalchess games --import FILE.pgn`",
                )
            try:
                reply = receiver.recv()
            except EOFError:
                raise ApiError(500, "internal error: the worker process died") from None
        finally:
            if process.is_alive():
                process.kill()
            process.join()
            process.close()
            receiver.close()
        if reply[0]:
            return reply[1]
        raise ApiError(reply[1], reply[2])
