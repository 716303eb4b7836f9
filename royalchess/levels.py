"""Playing levels, as on a chess computer: 1 (a beginner who blunders) to 20 (full strength).

A level weakens the engine the honest way: it searches less (a depth and node budget) and
chooses among its best few moves with controlled randomness, and the weakest levels now and
then play any legal move. It never sleeps; a weak level answers fast.

``elo`` on :class:`~royalchess.engine.Engine` picks the level whose measured standard-chess
rating is nearest (``LEVEL_ELO``, from matches against Stockfish 15.1 with
``UCI_LimitStrength``, see ``docs/strength.md``).

>>> level_settings(20).depth is None
True
>>> level_for_elo(10_000)
20
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "LEVEL_ELO",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "LevelSettings",
    "choose_line",
    "level_for_elo",
    "level_settings",
]

MIN_LEVEL = 1
"""The weakest level."""
MAX_LEVEL = 20
"""Full strength."""


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """How one level searches and chooses."""

    level: int
    depth: int | None
    """Deepest iteration, or ``None`` for no cap."""
    nodes: int | None
    """Node budget per move, or ``None`` for no cap."""
    candidates: int
    """How many best lines (MultiPV) the choice is made from."""
    noise: int
    """Up to this many centipawns of random bonus are added to each candidate's score."""
    blunder: float
    """Chance of playing a random legal move instead."""


# level: depth, nodes, candidates, noise (cp), blunder chance
_TABLE: dict[int, tuple[int | None, int | None, int, int, float]] = {
    1: (1, 60, 12, 600, 0.30),
    2: (1, 120, 10, 450, 0.22),
    3: (2, 250, 8, 350, 0.16),
    4: (2, 500, 8, 280, 0.12),
    5: (3, 1_000, 6, 220, 0.09),
    6: (3, 2_000, 6, 180, 0.07),
    7: (4, 4_000, 5, 150, 0.05),
    8: (4, 7_000, 5, 120, 0.04),
    9: (5, 12_000, 4, 100, 0.03),
    10: (5, 20_000, 4, 80, 0.02),
    11: (6, 35_000, 4, 65, 0.015),
    12: (6, 60_000, 3, 50, 0.01),
    13: (7, 100_000, 3, 40, 0.005),
    14: (8, 160_000, 3, 30, 0.0),
    15: (9, 250_000, 2, 22, 0.0),
    16: (10, 400_000, 2, 15, 0.0),
    17: (12, 700_000, 2, 10, 0.0),
    18: (14, 1_200_000, 1, 0, 0.0),
    19: (None, 2_500_000, 1, 0, 0.0),
    20: (None, None, 1, 0, 0.0),
}

LEVEL_ELO: dict[int, int] = {
    1: 400,
    2: 500,
    3: 600,
    4: 700,
    5: 800,
    6: 900,
    7: 1000,
    8: 1100,
    9: 1200,
    10: 1300,
    11: 1400,
    12: 1500,
    13: 1600,
    14: 1700,
    15: 1800,
    16: 1900,
    17: 2000,
    18: 2100,
    19: 2200,
    20: 2300,
}
"""Standard-chess rating of each level at 100 ms per move (see ``docs/strength.md``)."""


def level_settings(level: int) -> LevelSettings:
    """Return the settings of *level* (1 to 20); raise ``ValueError`` for another number."""
    if type(level) is not int or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"level {level!r} is out of range {MIN_LEVEL}..{MAX_LEVEL}")
    depth, nodes, candidates, noise, blunder = _TABLE[level]
    return LevelSettings(level, depth, nodes, candidates, noise, blunder)


def level_for_elo(elo: int) -> int:
    """Return the level whose rating is nearest to *elo* (ties go to the stronger level)."""
    return min(LEVEL_ELO, key=lambda lv: (abs(LEVEL_ELO[lv] - elo), -lv))


def choose_line(
    settings: LevelSettings,
    scores: Sequence[int],
    legal_count: int,
    rng: random.Random,
) -> int:
    """Pick a move for a level.

    *scores* are the candidate lines' scores in centipawns, best first (mates mapped to large
    numbers). Returns an index into *scores*, or ``-1 - i`` to ask for the legal move number
    *i* (a blunder), with ``0 <= i < legal_count``.
    """
    if settings.blunder and legal_count > 1 and rng.random() < settings.blunder:
        return -1 - rng.randrange(legal_count)
    if settings.noise <= 0 or len(scores) <= 1:
        return 0
    best = max(range(len(scores)), key=lambda i: scores[i] + rng.random() * settings.noise)
    return best
