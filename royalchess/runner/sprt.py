"""Match statistics as engine testers compute them: Elo with a 95% interval, LOS, normalised
Elo and the SPRT log-likelihood ratio, for W/D/L counts (trinomial) or game pairs
(pentanomial).

The SPRT is fishtest's GSPRT (the generalised sequential probability ratio test, fastchess
and OpenBench compute the same): the results are an empirical distribution over the scores
of one game (0, 1/2, 1) or of one pair of games averaged (0, 1/4, 1/2, 3/4, 1). For each
hypothesis the maximum-likelihood distribution with that expected score (logistic Elo) or
that t-value (normalised Elo) is found by solving the secular equation, and the LLR is the
sample's log-likelihood ratio of the two. Empty cells get a tiny count (1e-3), as fishtest
does, so that the ratio exists from the first game.

Pentanomial counts are ordered ``[LL, LD+DL, LW+DD+WL, DW+WD, WW]`` (pair scores 0 to 2),
trinomial ones ``[L, D, W]``: from the first engine's side.

>>> round(elo(0.75), 2)
190.85
>>> round(llr([0, 0, 1, 8, 1], 0, 50), 2)
1.24
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "NELO_PER_T",
    "Estimate",
    "Sprt",
    "elo",
    "estimate",
    "llr",
    "llr_approx",
    "los",
    "score_of",
]

NELO_PER_T = 800 / math.log(10)
"""Normalised Elo per unit of t-value (``(score - 1/2) / sigma`` per game): 347.43..."""

_Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
_EPSILON = 1e-3  # the count an empty cell gets, as fishtest regularises


def elo(score: float) -> float:
    """The logistic Elo difference of an expected score in (0, 1)."""
    return -400 * math.log10(1 / score - 1)


def score_of(elo_diff: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo_diff / 400))


def _pdf(
    counts: Sequence[float], regularise: bool = True
) -> tuple[float, list[tuple[float, float]]]:
    """(number of samples, [(score, probability)]) of trinomial or pentanomial counts."""
    if len(counts) not in (3, 5):
        raise ValueError(f"expected 3 (L, D, W) or 5 (pentanomial) counts, not {len(counts)}")
    cells = [c if c > 0 or not regularise else _EPSILON for c in counts]
    n = sum(cells)
    last = len(cells) - 1
    return n, [(i / last, c / n) for i, c in enumerate(cells)]


class _OutOfRange(ArithmeticError):
    """The hypothesis lies outside the range of the results' scores."""


def _llr_normalized_approx(counts: Sequence[float], nelo0: float, nelo1: float) -> float:
    """fishtest's approximation of the normalised-Elo LLR: ``games / 2 * ln((1 + (t - t0)^2)
    / (1 + (t - t1)^2))`` with t the observed t-value per game."""
    n, pdf = _pdf(counts)
    mu, var = _stats(pdf)
    pairs = len(counts) == 5
    sigma = math.sqrt(2 * var if pairs else var)
    games = 2 * n if pairs else n
    t = (mu - 0.5) / sigma
    t0, t1 = nelo0 / NELO_PER_T, nelo1 / NELO_PER_T
    return games / 2 * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))


def _stats(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """The x solving sum(p * a / (1 + x * a)) = 0, with both signs among the a's.

    The sum falls strictly in x between the poles -1/max(a) and -1/min(a), so bisection
    finds the root.
    """
    low_a = min(a for a, _ in pdf)
    high_a = max(a for a, _ in pdf)
    if not low_a < 0 < high_a:
        raise _OutOfRange()

    def f(x: float) -> float:
        return sum(p * a / (1 + x * a) for a, p in pdf)

    lo, hi = -1 / high_a + 1e-12, -1 / low_a - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2


def _mle_mean(pdf: Sequence[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution on the same scores nearest (max likelihood) to *pdf* with mean *s*."""
    shifted = [(a - s, p) for a, p in pdf]
    x = _secular(shifted)
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def _mle_t(pdf: Sequence[tuple[float, float]], t: float) -> list[tuple[float, float]]:
    """The max-likelihood distribution with t-value ``(mean - 1/2) / sigma`` equal to *t*
    (a fixed point: each step solves the secular equation of a linearised constraint)."""
    mle = [(a, 1 / len(pdf)) for a, _ in pdf]
    for _ in range(100):
        mu, var = _stats(mle)
        sigma = math.sqrt(var)
        shifted = [(a - 0.5 - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = _secular(shifted)
        new = [(a, p / (1 + x * d)) for (a, p), (d, _) in zip(pdf, shifted, strict=True)]
        done = max(abs(q - r) for (_, q), (_, r) in zip(new, mle, strict=True)) < 1e-12
        mle = new
        if done:
            break
    return mle


def llr(counts: Sequence[float], elo0: float, elo1: float, model: str = "normalized") -> float:
    """The GSPRT log-likelihood ratio of H1 (*elo1*) against H0 (*elo0*) for the counts.

    *model* ``"normalized"`` (fishtest's and fastchess's default: the bounds are normalised
    Elo) or ``"logistic"`` (the bounds are plain Elo).
    """
    n, pdf = _pdf(counts)
    try:
        if model == "logistic":
            pdf0, pdf1 = (_mle_mean(pdf, score_of(e)) for e in (elo0, elo1))
        elif model == "normalized":
            # a pair's t-value is sqrt(2) times a game's, for the same normalised Elo
            scale = math.sqrt(2) if len(counts) == 5 else 1.0
            pdf0, pdf1 = (_mle_t(pdf, e / NELO_PER_T * scale) for e in (elo0, elo1))
        else:
            raise ValueError(f"unknown Elo model {model!r}: normalized or logistic")
    except _OutOfRange:
        # a hypothesis no distribution on these scores can meet (early, lopsided results
        # against wide bounds): the Brownian approximation still measures the evidence
        return (
            llr_approx(counts, elo0, elo1)
            if model == "logistic"
            else _llr_normalized_approx(counts, elo0, elo1)
        )
    return n * sum(
        p * (math.log(q1) - math.log(q0))
        for (_, p), (_, q0), (_, q1) in zip(pdf, pdf0, pdf1, strict=True)
    )


def llr_approx(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The Brownian approximation of the logistic LLR, ``N (s1 - s0)(2s - s0 - s1) / 2 var``:
    what cutechess-style testers print, close to :func:`llr` near the bounds."""
    n, pdf = _pdf(counts)
    s, var = _stats(pdf)
    s0, s1 = score_of(elo0), score_of(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def los(counts: Sequence[float]) -> float:
    """Likelihood of superiority: the chance the first engine is the stronger (normal
    approximation of the score around 1/2)."""
    n, pdf = _pdf(counts, regularise=False)
    if n == 0:
        return 0.5
    s, var = _stats(pdf)
    if var == 0:
        return 1.0 if s > 0.5 else 0.0 if s < 0.5 else 0.5
    return 0.5 * (1 + math.erf((s - 0.5) / math.sqrt(2 * var / n)))


@dataclass(frozen=True, slots=True)
class Estimate:
    """Elo and normalised Elo with the half-widths of their 95% intervals, and LOS."""

    score: float
    elo: float
    elo_error: float
    nelo: float
    nelo_error: float
    los: float


def _clamped_elo(score: float) -> float:
    return elo(min(max(score, 1e-6), 1 - 1e-6))


def estimate(counts: Sequence[float]) -> Estimate:
    """Elo from the mean score with the 95% interval of the score's normal approximation
    (the variance of games, or of pairs for pentanomial counts, as fastchess prints it)."""
    n, pdf = _pdf(counts, regularise=False)
    if n == 0:
        return Estimate(0.5, 0.0, 0.0, 0.0, 0.0, 0.5)
    s, var = _stats(pdf)
    if var == 0:  # all wins, all losses or all draws: no interval
        e = 0.0 if s == 0.5 else math.copysign(math.inf, s - 0.5)
        return Estimate(s, e, math.inf, e, math.inf, los(counts))
    margin = _Z95 * math.sqrt(var / n)
    e = _clamped_elo(s)
    error = (_clamped_elo(s + margin) - _clamped_elo(s - margin)) / 2
    per_game_var = 2 * var if len(counts) == 5 else var
    nelo = (s - 0.5) / math.sqrt(per_game_var) * NELO_PER_T
    games = 2 * n if len(counts) == 5 else n
    nelo_error = _Z95 * NELO_PER_T / math.sqrt(games)  # a t-value's error is 1/sqrt(games)
    return Estimate(s, e, error, nelo, nelo_error, los(counts))


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential test of H0 (Elo = *elo0*) against H1 (Elo = *elo1*)."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must be between 0 and 1")
        if self.elo0 >= self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"unknown Elo model {self.model!r}: normalized or logistic")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR: ``ln(beta / (1 - alpha))``."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR: ``ln((1 - beta) / alpha)``."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        """The LLR of *counts* (0 before any result)."""
        return llr(counts, self.elo0, self.elo1, self.model) if sum(counts) else 0.0

    def decision(self, counts: Sequence[float]) -> str | None:
        """``"H1"`` (the first engine is better by *elo1*), ``"H0"``, or ``None`` (go on)."""
        value = self.llr(counts)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, words: Sequence[str]) -> Sprt:
        """``Sprt.parse(["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "model=logistic"])``."""
        fields: dict[str, Callable[[str], object]] = {
            "elo0": float,
            "elo1": float,
            "alpha": float,
            "beta": float,
            "model": str,
        }
        values: dict[str, object] = {}
        for word in words:
            name, sep, text = word.partition("=")
            if not sep or name not in fields:
                raise ValueError(f"bad SPRT setting {word!r}: expected one of {', '.join(fields)}=")
            try:
                values[name] = fields[name](text)
            except ValueError:
                raise ValueError(f"bad SPRT setting {word!r}: not a number") from None
        return cls(**values)  # type: ignore[arg-type]
