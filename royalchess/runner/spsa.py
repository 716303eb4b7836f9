"""``royalchess tune``: SPSA tuning of the built-in engine's parameters by self-play.

The method fishtest and OpenBench tune engines with (Spall's simultaneous perturbation
stochastic approximation). Pair *k* plays the current values shifted up by ``c_k`` against
them shifted down by ``c_k`` (a random sign per parameter, so every parameter moves at
once) from one opening, colours swapped; the pair's result ``r`` (the shifted-up side's
wins minus losses, -2 .. 2) moves each parameter by ``a_k / c_k * r * sign``. The gains fall
as the run goes on: ``c_k = c / k^0.101`` and ``a_k = a / (A + k)^0.602`` with ``A`` a tenth
of the pairs, ``c`` chosen so that the last shift is the parameter's ``c_end`` and ``a`` so
that the last step is ``r_end * c_end`` per point (fishtest's way of giving them).

The engine plays rounded values (the tunables are integers); the values are kept as floats
between pairs and clipped to each parameter's range. Every finished pair is appended to a
JSON-lines log (its shifts, result and the values after it), which ``--resume`` reads back
to go on from the last values. A tuned set proves nothing by itself: it is kept only after
a match against the defaults (docs/strength.md).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from royalchess.runner.backends import Backend
from royalchess.runner.match import Adjudication, GameRecord, GameUnit
from royalchess.runner.openings import Opening
from royalchess.runner.output import jsonl_prefix, open_output, read_jsonl
from royalchess.runner.players import EngineSpec, TimeControl
from royalchess.runner.progress import progress_bar
from royalchess.runner.units import unit_seed

__all__ = ["Shift", "Spsa", "TuneOutcome", "TuneParam", "TunePlan", "run_tune"]

ALPHA, GAMMA, A_SHARE = 0.602, 0.101, 0.1


@dataclass(frozen=True, slots=True)
class TuneParam:
    """One parameter to tune: its name (a search tunable or evaluation weight, as
    ``param.NAME`` of a match), start value, range, last shift and last step share."""

    name: str
    start: float
    low: float
    high: float
    c_end: float
    r_end: float = 0.002

    @classmethod
    def parse(cls, text: str) -> TuneParam:
        """``NAME:START:MIN:MAX:C_END[:R_END]``; ``ValueError`` names the problem."""
        parts = text.split(":")
        if len(parts) not in (5, 6) or not parts[0].strip():
            raise ValueError(f"bad --param {text!r}: expected NAME:START:MIN:MAX:C_END[:R_END]")
        try:
            numbers = [float(p) for p in parts[1:]]
        except ValueError:
            raise ValueError(
                f"bad --param {text!r}: START, MIN, MAX, C_END, R_END are numbers"
            ) from None
        param = cls(parts[0].strip(), *numbers)
        if not param.low <= param.start <= param.high:
            raise ValueError(f"bad --param {text!r}: START must lie between MIN and MAX")
        if param.c_end <= 0 or param.r_end <= 0:
            raise ValueError(f"bad --param {text!r}: C_END and R_END must be positive")
        return param

    def clip(self, value: float) -> float:
        return min(max(value, self.low), self.high)


@dataclass(frozen=True, slots=True)
class Shift:
    """The values one pair plays: ``plus`` against ``minus``."""

    pair: int
    signs: dict[str, int]
    c: dict[str, float]
    plus: dict[str, int]
    minus: dict[str, int]


@dataclass
class Spsa:
    """The running state: the values and the gain sequences of a run of *pairs* pairs."""

    params: Sequence[TuneParam]
    pairs: int
    theta: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for p in self.params:
            self.theta.setdefault(p.name, p.start)
        self._big_a = A_SHARE * self.pairs

    def c_k(self, p: TuneParam, k: int) -> float:
        return p.c_end * float((self.pairs / (k + 1)) ** GAMMA)

    def a_k(self, p: TuneParam, k: int) -> float:
        a = p.r_end * p.c_end**2 * float((self._big_a + self.pairs) ** ALPHA)
        return a / float((self._big_a + k + 1) ** ALPHA)

    def shift(self, k: int, seed: int) -> Shift:
        """Pair *k*'s two value sets around the current values (its signs seeded)."""
        rng = random.Random(unit_seed(seed, "spsa", k))
        signs: dict[str, int] = {}
        cs: dict[str, float] = {}
        plus: dict[str, int] = {}
        minus: dict[str, int] = {}
        for p in self.params:
            s = rng.choice((-1, 1))
            c = self.c_k(p, k)
            signs[p.name], cs[p.name] = s, c
            plus[p.name] = round(p.clip(self.theta[p.name] + s * c))
            minus[p.name] = round(p.clip(self.theta[p.name] - s * c))
        return Shift(k, signs, cs, plus, minus)

    def update(self, shift: Shift, result: float) -> None:
        """Move the values by pair *shift*'s *result* (plus's wins minus losses)."""
        for p in self.params:
            step = self.a_k(p, shift.pair) / shift.c[p.name] * result * shift.signs[p.name]
            self.theta[p.name] = p.clip(self.theta[p.name] + step)

    def rounded(self) -> dict[str, int]:
        return {name: round(v) for name, v in self.theta.items()}


@dataclass(frozen=True, slots=True)
class TunePlan:
    """Everything that decides a tuning run's games."""

    base: EngineSpec
    """The built-in engine the values are set on (``royalchess:eval=auto`` etc.)."""
    params: Sequence[TuneParam]
    variant: str
    openings: Sequence[Opening]
    tc: TimeControl
    pairs: int
    seed: int = 1
    adjudication: Adjudication = field(default_factory=Adjudication)

    def spec(self, name: str, values: dict[str, int]) -> EngineSpec:
        """The base engine named *name* with *values* set last (so they win over the base's
        own ``param.`` options: the player applies options in order)."""
        tuned = tuple((f"param.{k}", str(v)) for k, v in values.items())
        return EngineSpec("royalchess", name, self.base.options + tuned)

    def units(self, shift: Shift) -> list[GameUnit]:
        """The two games of a pair (same opening, colours swapped)."""
        order = list(range(len(self.openings)))
        random.Random(self.seed).shuffle(order)
        opening = self.openings[order[shift.pair % len(order)]]
        plus, minus = self.spec("plus", shift.plus), self.spec("minus", shift.minus)
        return [
            GameUnit(
                2 * shift.pair + i,
                self.variant,
                opening,
                plus,
                minus,
                self.tc,
                self.adjudication,
                self.seed,
                event="royalchess tune",
            )
            for i in range(2)
        ]


@dataclass
class TuneOutcome:
    """What :func:`run_tune` did: the values reached and how many pairs led there."""

    theta: dict[str, float]
    pairs: int
    resumed: int
    seconds: float
    interrupted: bool = False


def _resume(kept: bytes, spsa: Spsa) -> int:
    """Read the log back: the values after the last pair; the number of pairs done."""
    done = 0
    for line in read_jsonl(kept):
        theta = line.get("theta")
        if not isinstance(theta, dict) or set(theta) != set(spsa.theta):
            raise ValueError("the log belongs to another tuning run (other parameters)")
        spsa.theta.update({k: float(v) for k, v in theta.items()})
        done = max(done, int(line["pair"]) + 1)
    return done


def run_tune(
    plan: TunePlan,
    backend: Backend,
    output: str,
    *,
    resume: bool = False,
    quiet: bool = False,
) -> TuneOutcome:
    """Play *plan*'s pairs on *backend*, moving the values after each; log to *output*."""
    spsa = Spsa(plan.params, plan.pairs)
    sink = open_output(output, resume=resume, prefix=jsonl_prefix)
    try:
        first = _resume(sink.kept, spsa)
    except (ValueError, KeyError, TypeError):
        sink.close()
        raise
    shifts: dict[int, Shift] = {}
    halves: dict[int, float] = {}
    outcome = TuneOutcome(dict(spsa.theta), 0, first, 0.0)

    def units() -> Iterator[GameUnit]:
        # pulled by the backend as workers free up, so each pair starts from the values
        # as they are then (a few pairs in flight lag behind, as in fishtest)
        for k in range(first, plan.pairs):
            shifts[k] = spsa.shift(k, plan.seed)
            yield from plan.units(shifts[k])

    start = time.monotonic()
    try:
        with progress_bar(plan.pairs, "tune", done=first, quiet=quiet) as bar:
            results = backend.map(units())
            try:
                for _, record in results:
                    assert isinstance(record, GameRecord)
                    pair = record.id // 2
                    if pair not in halves:
                        halves[pair] = record.first_score
                        continue
                    result = 2 * (halves.pop(pair) + record.first_score) - 2
                    shift = shifts.pop(pair)
                    spsa.update(shift, result)
                    outcome.pairs += 1
                    sink.write(
                        json.dumps(
                            {
                                "pair": pair,
                                "result": result,
                                "plus": shift.plus,
                                "minus": shift.minus,
                                "theta": {k: round(v, 3) for k, v in spsa.theta.items()},
                            }
                        )
                        + "\n"
                    )
                    bar(status=" ".join(f"{k}={v}" for k, v in spsa.rounded().items()))
            finally:
                results.close()  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        sink.close()
    outcome.theta = dict(spsa.theta)
    outcome.seconds = time.monotonic() - start
    return outcome
