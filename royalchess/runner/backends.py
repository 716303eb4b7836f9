"""Backends: run work units somewhere and hand the results back in completion order.

- :class:`LocalBackend` — a pool of worker processes on this machine (``--jobs N``). A
  worker that dies (killed, out of memory, a crash in C) breaks the pool: the units it and
  its siblings were running are submitted again to a fresh pool, and their results are
  only ever taken from a run that finished, so no unit is counted twice. The backend
  watches the workers itself rather than trusting the pool to notice a death: CPython's
  ``ProcessPoolExecutor`` can lose that news and leave its futures pending forever (its
  manager thread marks the pending work failed while ``submit`` may still be adding to it;
  with ``max_tasks_per_child`` it can also stop replacing workers, CPython gh-115634, which
  is why workers are not recycled).
- :class:`RayBackend` — Ray tasks on a Ray cluster (``--ray ADDRESS``, ``--ray auto``, or
  ``--ray local`` for a one-machine Ray). Ray itself retries a task whose worker or node
  died (``max_retries``).

Both call :func:`royalchess.runner.units.execute` on each unit, so the work itself runs the
same code either way; both keep only a few units in flight, so a run stopped early (an SPRT
decision, Ctrl+C) leaves the rest unstarted.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from royalchess.runner.units import Unit, execute

__all__ = [
    "RAY_INSTALL_HINT",
    "Backend",
    "BackendError",
    "LocalBackend",
    "RayBackend",
    "RayMissingError",
    "make_backend",
]

RAY_INSTALL_HINT = "pip install 'royalchess[cluster]'  (or: pip install ray)"


class BackendError(RuntimeError):
    """A unit could not be run (its worker kept dying, or the cluster is unreachable)."""


class RayMissingError(BackendError):
    """``--ray`` was asked for but Ray is not installed."""

    def __init__(self) -> None:
        super().__init__(f"--ray needs Ray, which is not installed: {RAY_INSTALL_HINT}")


class Backend(Protocol):
    """Where units run."""

    workers: int
    """How many units run at once (for the progress display and the summary)."""

    def map(self, units: Iterable[Unit]) -> Iterator[tuple[Unit, Any]]:
        """Run every unit; yield ``(unit, result)`` as each finishes. Closing the iterator
        early abandons the units not yet finished."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


POLL_SECONDS = 1.0
"""How often the local backend checks its workers while no unit finishes."""


def _ignore_sigint() -> None:
    # Ctrl+C goes to the whole process group: only the parent handles it, so that it can
    # stop the pool in order and tell how to resume
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    """Worker processes on this machine.

    *jobs* workers (default: the number of cores); a unit is tried at most *max_attempts*
    times when workers die under it.
    """

    def __init__(self, jobs: int | None = None, *, max_attempts: int = 4):
        self.workers = jobs if jobs and jobs > 0 else os.cpu_count() or 1
        self.max_attempts = max_attempts
        self.restarts = 0
        """How many times a dead worker made the pool start again."""
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: the parent may hold threads (rich's refresher, Ray's) that a
        # forked child would inherit in an unknown state
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_sigint,
        )

    @staticmethod
    def _workers(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
        # the pool's own record of its processes (it has no public one)
        return list((getattr(pool, "_processes", None) or {}).values())

    @staticmethod
    def _failed(pool: ProcessPoolExecutor) -> bool:
        """Whether a worker or the pool's manager thread is gone (workers never exit on their
        own here, so any exit is a death)."""
        if any(process.exitcode is not None for process in LocalBackend._workers(pool)):
            return True
        manager = getattr(pool, "_executor_manager_thread", None)
        return manager is not None and not manager.is_alive()

    def map(self, units: Iterable[Unit]) -> Iterator[tuple[Unit, Any]]:
        source = iter(units)
        retry: deque[Unit] = deque()
        attempts: dict[int, int] = {}
        inflight: dict[Future[Any], Unit] = {}
        capacity = 2 * self.workers
        self._pool = self._new_pool()
        try:
            while True:
                broken = False
                while len(inflight) < capacity:
                    unit = retry.popleft() if retry else next(source, None)
                    if unit is None:
                        break
                    try:
                        future = self._pool.submit(execute, unit)
                    except BrokenProcessPool:  # a worker died since the last look
                        retry.appendleft(unit)
                        broken = True
                        break
                    attempts[unit.id] = attempts.get(unit.id, 0) + 1
                    inflight[future] = unit
                if not inflight and not broken:
                    return
                if not broken:
                    done, _ = wait(inflight, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                    broken = not done and self._failed(self._pool)
                    for future in done:
                        unit = inflight.pop(future)
                        try:
                            result = future.result()
                        except BrokenProcessPool:
                            broken = True
                            retry.append(unit)
                        else:
                            yield unit, result
                if broken:
                    # every unit still in flight on the broken pool fails with it; take the
                    # results that did finish and run the others again on a new pool
                    # (a short wait: results already sent still arrive, the rest never will)
                    wait(inflight, timeout=POLL_SECONDS)
                    for future, unit in list(inflight.items()):
                        del inflight[future]
                        if future.done() and future.exception() is None:
                            yield unit, future.result()
                        else:
                            retry.append(unit)
                    for unit in retry:
                        if attempts.get(unit.id, 0) >= self.max_attempts:
                            raise BackendError(
                                f"unit {unit.id}: its worker died {attempts[unit.id]} times"
                            )
                    self._shutdown()
                    self.restarts += 1
                    self._pool = self._new_pool()
        finally:
            self._shutdown()

    def _shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # running units would otherwise finish their game first: stop the workers now
        processes = self._workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(5)

    def close(self) -> None:
        self._shutdown()


class RayBackend:
    """Ray tasks: one unit per task, one CPU each.

    *address* is a Ray address (``HOST:6379``, ``auto`` for the cluster this machine
    belongs to, ``ray://HOST:10001`` for Ray Client) or ``local`` to start a private Ray on
    this machine with *jobs* CPUs. A task whose worker process or node dies is run again by
    Ray up to *max_retries* times.
    """

    def __init__(self, address: str = "auto", *, jobs: int | None = None, max_retries: int = 3):
        # never report usage to the network; set before Ray is imported
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            import ray
        except ImportError:
            raise RayMissingError() from None
        self._ray = ray
        self.address = address
        self.max_retries = max_retries
        self._started = False
        if not ray.is_initialized():
            import logging

            options: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": logging.WARNING,
                "configure_logging": True,
            }
            if address == "local":
                options["num_cpus"] = jobs or os.cpu_count() or 1
            else:
                options["address"] = address
            try:
                ray.init(**options)
            except Exception as exc:  # noqa: BLE001 - Ray raises several kinds (auth, connection)
                hint = ""
                if os.environ.get("RAY_AUTH_MODE") != "token":
                    # Ray 2.59+ clusters started with `ray start` want their token
                    hint = (
                        "; if the cluster uses token authentication, set RAY_AUTH_MODE=token "
                        "and its token (~/.ray/auth_token or RAY_AUTH_TOKEN)"
                    )
                raise BackendError(
                    f"cannot reach the Ray cluster at {address!r}: {exc}{hint}"
                ) from None
            self._started = True
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.workers = max(1, int(resources.get("CPU", 1)))

    def map(self, units: Iterable[Unit]) -> Iterator[tuple[Unit, Any]]:
        ray = self._ray
        remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(execute)
        source = iter(units)
        inflight: dict[Any, Unit] = {}
        capacity = 2 * self.workers
        try:
            while True:
                while len(inflight) < capacity:
                    unit = next(source, None)
                    if unit is None:
                        break
                    inflight[remote.remote(unit)] = unit
                if not inflight:
                    return
                done, _ = ray.wait(list(inflight), num_returns=1)
                for ref in done:
                    unit = inflight.pop(ref)
                    try:
                        result = ray.get(ref)
                    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as exc:
                        raise BackendError(
                            f"unit {unit.id}: its worker died {self.max_retries + 1} times ({exc})"
                        ) from None
                    yield unit, result
        finally:
            for ref in inflight:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_backend(jobs: int | None = None, ray_address: str | None = None) -> Backend:
    """The local pool, or Ray when *ray_address* is given (see :class:`RayBackend`)."""
    if ray_address is not None:
        return RayBackend(ray_address, jobs=jobs)
    return LocalBackend(jobs)
