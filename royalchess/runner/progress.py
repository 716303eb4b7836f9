"""The progress bar on standard error (rich), shared by the three jobs."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["Bar", "progress_bar"]


class Bar(Protocol):
    def __call__(self, advance: int = 1, status: str | None = None) -> None: ...


@contextmanager
def progress_bar(
    total: int, description: str, *, done: int = 0, quiet: bool = False
) -> Iterator[Bar]:
    """A bar from *done* to *total* units; call the yielded function as each finishes
    (with a short *status*, e.g. the running score). Nothing is drawn when *quiet* or
    when standard error is not a terminal."""
    console = Console(file=sys.stderr)
    if quiet or not console.is_terminal:

        def nothing(advance: int = 1, status: str | None = None) -> None:
            pass

        yield nothing
        return
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[status]}"),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(description, total=total, completed=done, status="")

        def update(advance: int = 1, status: str | None = None) -> None:
            if status is None:
                bar.update(task, advance=advance)
            else:
                bar.update(task, advance=advance, status=status)

        yield update
