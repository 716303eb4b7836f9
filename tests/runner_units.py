"""Test-only work units for the runner tests (importable by worker processes: the local
pool passes ``sys.path`` on, and the Ray tests put this folder on ``PYTHONPATH``)."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from typing import Any

from royalchess.runner.units import Unit


@dataclass(frozen=True)
class CrashOnce:
    """Runs *inner*, except that the first process to reach it (of any run sharing
    *marker*) kills itself with SIGKILL first, as a crashed or OOM-killed worker would."""

    inner: Unit
    marker: str

    @property
    def id(self) -> int:
        return self.inner.id

    def run(self) -> Any:
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return self.inner.run()
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")


@dataclass(frozen=True)
class Square:
    """A trivial unit: its id squared."""

    id: int

    def run(self) -> int:
        return self.id * self.id
