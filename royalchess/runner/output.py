"""Output files written as results arrive, and read back to resume.

Each finished unit is appended as one record (a PGN game, a JSON line, a block of the
binary data format) in a single write, then flushed: a run stopped at any moment leaves
only complete records plus at most one cut-off record at the end. ``--resume`` cuts that
tail off (:func:`open_output`) and reads back the records before it, whose unit ids are not
run again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Self

__all__ = [
    "OutputError",
    "Sink",
    "jsonl_prefix",
    "open_output",
    "pgn_prefix",
    "read_jsonl",
]


class OutputError(Exception):
    """The output file cannot be used (exists without ``--resume``, unreadable)."""


_RESULT_END = re.compile(rb"(1-0|0-1|1/2-1/2|\*)\s*\Z")


def pgn_prefix(data: bytes) -> int:
    """The length of the complete games at the start of PGN *data* as this package writes
    them (each starts with an ``[Event`` tag and ends with its result)."""
    if not data.strip() or _RESULT_END.search(data):
        return len(data)
    last = data.rfind(b"\n[Event ")
    if last >= 0:
        return last + 1
    return 0


def jsonl_prefix(data: bytes) -> int:
    """The length of the complete lines at the start of JSON-lines *data*."""
    return data.rfind(b"\n") + 1


class Sink:
    """An output file open for appending records."""

    def __init__(self, handle: BinaryIO, path: Path, kept: bytes) -> None:
        self._handle = handle
        self.path = path
        self.kept = kept
        """The complete records already in the file when it was resumed (empty otherwise)."""

    def write(self, data: bytes | str) -> None:
        """Append one record and flush it to the operating system."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        self._handle.write(data)
        self._handle.flush()

    def close(self) -> None:
        """Close the file."""
        self._handle.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_output(
    path: str | os.PathLike[str],
    *,
    resume: bool,
    prefix: Callable[[bytes], int],
    header: bytes = b"",
) -> Sink:
    """Open *path* to append records.

    Without *resume* the file must not exist yet, or be empty (results are never
    overwritten by accident). With *resume* the complete records (the first
    ``prefix(data)`` bytes) are kept, a cut-off last record is removed, and writing goes on
    after them. *header* starts a new file (a file format's magic), and must start a
    resumed one.
    """
    path = Path(path)
    kept = b""
    if path.exists() and path.stat().st_size > 0:
        if not resume:
            raise OutputError(f"{path} exists: add --resume to go on with it, or remove it")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise OutputError(f"cannot read {path}: {exc}") from None
        if header and not data.startswith(header[: len(data)]):
            raise OutputError(f"{path} is not a file of this kind (wrong header)")
        keep = max(prefix(data), min(len(header), len(data)))
        kept = data[:keep]
        if keep < len(data):
            with path.open("r+b") as existing:
                existing.truncate(keep)
    try:
        handle = path.open("ab")
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc}") from None
    if header and len(kept) < len(header):
        handle.write(header[len(kept) :])
        handle.flush()
        kept = header
    return Sink(handle, path, kept)


def read_jsonl(data: bytes) -> Iterator[dict[str, Any]]:
    """The objects of JSON-lines *data* (complete lines only)."""
    for line in data.splitlines():
        if line.strip():
            yield json.loads(line)
