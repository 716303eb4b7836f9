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


# level: depth, nodes, candidates, noise (cp), blunder chance. The node budgets grow by about
# 1.4 a level, so that each level is a fixed strength whatever the clock. Full strength now
# searches 2-4 times level 19's budget in 100 ms (the reference speed of the rating table),
# which is what keeps level 20 above level 19 there.
_TABLE: dict[int, tuple[int | None, int | None, int, int, float]] = {
    1: (1, 30, 12, 700, 0.35),
    2: (1, 60, 10, 550, 0.25),
    3: (2, 100, 8, 420, 0.18),
    4: (2, 150, 8, 330, 0.13),
    5: (3, 200, 6, 260, 0.10),
    6: (3, 300, 6, 200, 0.08),
    7: (4, 450, 5, 160, 0.06),
    8: (4, 650, 5, 130, 0.045),
    9: (5, 900, 4, 105, 0.035),
    10: (5, 1_300, 4, 85, 0.025),
    11: (6, 1_800, 4, 70, 0.018),
    12: (6, 2_600, 3, 55, 0.012),
    13: (7, 3_600, 3, 45, 0.008),
    14: (8, 5_000, 3, 35, 0.004),
    15: (9, 7_000, 2, 26, 0.0),
    16: (10, 10_000, 2, 18, 0.0),
    17: (12, 14_000, 2, 12, 0.0),
    18: (14, 20_000, 1, 0, 0.0),
    19: (None, 28_000, 1, 0, 0.0),
    20: (None, None, 1, 0, 0.0),
}

LEVEL_ELO: dict[int, int] = {
    1: 535,
    2: 650,
    3: 795,
    4: 925,
    5: 1035,
    6: 1090,
    7: 1110,
    8: 1125,
    9: 1310,
    10: 1425,
    11: 1460,
    12: 1620,
    13: 1690,
    14: 1740,
    15: 1835,
    16: 1915,
    17: 1960,
    18: 2015,
    19: 2035,
    20: 2175,
}
"""Standard-chess rating of each level at 100 ms per move, on Stockfish 15.1's ``UCI_Elo``
scale, measured 2026-12-02 (bench signature 2034922): levels 7-10, 12, 13, 16, 19 and 20
against Stockfish, the others placed between them by level-against-level matches; below level 7
(Stockfish's floor is 1350) an extrapolation along those matches (``docs/strength.md``).
Levels 10-20 re-anchored 2026-12-03 with the third chess net (levels 10, 13, 16, 19, 20), and
every level 2026-12-04 with the fourth (anchors 7-10, 13, 16, 19, 20; levels 1-6 extrapolated
from level 7 as before); levels 10-20 again that evening with the fifth (anchors 10, 13, 16,
19, 20, each the pooled 200 games of the fourth and fifth nets' runs), and 2026-12-05 with the
sixth (the same anchors, pooled over the three nets' 300 games), and 2026-12-06 with the
eighth (the same anchors, pooled over the four nets' 400 games; level 20 over five nets' 500),
and that night with the eleventh (pooled over five nets' 500 games; level 20 over six nets' 600),
and later that night with the eleventh at 0.8x its output scale (six nets' 600; level 20 700),
and 2026-12-07 with the twelfth (seven nets' 700; level 20 800), the thirteenth (eight nets'
800; level 20 900), the fourteenth (nine nets' 900; level 20 1,000), the fifteenth (ten
nets' 1,000; level 20 1,100) and the sixteenth (eleven nets' 1,100; level 20 1,200)."""


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
