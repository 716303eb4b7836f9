"""Work units: independent pieces of work (one game to play, one game to analyse) that a
backend runs anywhere and hands back by id.

A unit is a small picklable value with an ``id`` (unique within a run, the key of
``--resume``) and a ``run()`` method that does the work in whatever process it lands in and
returns a picklable result. Nothing in a unit depends on which process ran the units before
it: engines are made fresh for each unit, and any randomness comes from :func:`unit_seed`.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol, runtime_checkable

__all__ = ["Unit", "execute", "unit_seed"]


@runtime_checkable
class Unit(Protocol):
    """One independent piece of work."""

    @property
    def id(self) -> int:
        """The unit's number, unique within its run."""
        ...

    def run(self) -> Any:
        """Do the work and return its (picklable) result."""
        ...


def execute(unit: Unit) -> Any:
    """Run *unit*: the one function every backend calls in its worker processes."""
    return unit.run()


def unit_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed for one unit, from the run's *seed* and the unit's identity.

    Stable across processes, machines and Python versions (``hash()`` is salted per
    process, so it is not used).

    >>> unit_seed(1, "game", 7) == unit_seed(1, "game", 7) != unit_seed(2, "game", 7)
    True
    """
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
