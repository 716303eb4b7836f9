"""Chess clocks: time controls and the time each side has left (pure: no I/O, no sleeping).

A :class:`TimeControl` is a base time and an increment per move (``5+3``: five minutes, three
seconds added after each move). :class:`Clocks` is the state of the two clocks of one game as
saved with it: the time each side had left when the side to move's clock started (``since``,
wall time in seconds), and the last sign that someone is at the game (``seen``).

The clock of the side to move runs from ``since``. It stops (the game is paused, as a chess
computer switched off) when a player pauses it (the page does when it is closed or hidden,
the terminal when it is left), and by itself when nobody has looked at the game for
:data:`PAUSE_AFTER` seconds: a game whose page went away without a word (a crash, a server
restart, a killed terminal) is charged at most that much. Whatever touches the game renews
``seen`` (the page asks every few seconds) and starts a stopped clock again. A process that is
with the player the whole time (the terminal at its prompt, the server while the computer
thinks) charges the whole time since ``since`` (``present=True``).

Every function takes the time *now* from its caller, so tests use a fake time source.

>>> control = parse_time_control("5+3")
>>> clocks = Clocks.start(control, now=100.0)
>>> clocks = clocks.after_move(True, now=110.0)      # White moved after 10 s, +3 s
>>> clocks.white, clocks.black
(293.0, 300.0)
>>> clocks.left(False, now=130.0)                    # Black has thought 20 s so far
280.0
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from royalchess.board import Board
from royalchess.move import KING

__all__ = [
    "DRAWN_ON_TIME",
    "LOST_ON_TIME",
    "MAX_BASE",
    "MAX_INCREMENT",
    "MIN_BASE",
    "PAUSE_AFTER",
    "PRESETS",
    "Clocks",
    "Now",
    "TimeControl",
    "TimeControlError",
    "format_seconds",
    "opponent_can_mate",
    "parse_time_control",
    "time_control_from_json",
    "time_out_result",
]

Now = Callable[[], float]
"""A time source: wall time in seconds (``time.time``; a fake one in tests)."""

MIN_BASE = 1.0
"""The shortest base time, in seconds (short clocks are for tests and bullet fans)."""
MAX_BASE = 10 * 3600.0
"""The longest base time: ten hours."""
MAX_INCREMENT = 600.0
"""The largest increment: ten minutes a move."""
PAUSE_AFTER = 30.0
"""Seconds after the last sign of life (a request on the game) at which a running clock stops
by itself. The page asks about its game every few seconds while it is shown."""

PRESETS = ("1+0", "3+2", "5+3", "10+5", "15+10", "30+20")
"""The time controls offered: minutes + seconds of increment."""

LOST_ON_TIME = "time forfeit"
"""The termination saved when a side ran out of time and lost (PGN's ``Termination``)."""
DRAWN_ON_TIME = "time out, insufficient material"
"""The termination saved when a side ran out of time but the opponent cannot mate
(FIDE Laws 6.9): a draw."""

_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([sm]?)\s*\+\s*(\d+(?:\.\d+)?)\s*s?\s*$", re.IGNORECASE)
_NONE = ("", "none", "no", "off", "-", "unlimited")


class TimeControlError(ValueError):
    """A time control that cannot be played: malformed, negative or absurd."""


def format_seconds(seconds: float) -> str:
    """``'4:59'``, ``'1:02:03'``; tenths under ten seconds (``'0:07.3'``)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        tenths = math.floor(seconds * 10) / 10
        return f"0:{tenths:04.1f}"
    whole = math.floor(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class TimeControl:
    """A base time and an increment added after each move, in seconds."""

    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (("base", self.base), ("increment", self.increment)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TimeControlError(f"the clock's {name} must be a number of seconds")
            if not math.isfinite(value) or value < 0:
                raise TimeControlError(f"the clock's {name} cannot be {value!r}: negative")
        if self.base < MIN_BASE:
            raise TimeControlError(
                f"the clock's base time must be at least {MIN_BASE:g} s, not {self.base:g} s"
            )
        if self.base > MAX_BASE:
            raise TimeControlError(
                f"the clock's base time can be at most 10 hours ({MAX_BASE:g} s), "
                f"not {self.base:g} s"
            )
        if self.increment > MAX_INCREMENT:
            raise TimeControlError(
                f"the clock's increment can be at most 10 minutes ({MAX_INCREMENT:g} s) a move, "
                f"not {self.increment:g} s"
            )

    def __str__(self) -> str:
        minutes = self.base / 60
        base = f"{minutes:g}" if minutes >= 1 and float(minutes).is_integer() else f"{self.base:g}s"
        return f"{base}+{self.increment:g}"

    def to_json(self) -> dict[str, object]:
        """``{"base": seconds, "increment": seconds, "text": "5+3"}``."""
        return {"base": self.base, "increment": self.increment, "text": str(self)}


def parse_time_control(text: str) -> TimeControl | None:
    """Read ``'5+3'`` (minutes + seconds of increment), ``'90s+5'`` (the base in seconds)
    or ``'none'`` (no clock: ``None``); :class:`TimeControlError` says what is wrong."""
    if not isinstance(text, str):
        raise TimeControlError(f"a time control is text such as '5+3', not {text!r}")
    if text.strip().lower() in _NONE:
        return None
    found = _TEXT.match(text)
    if found is None:
        raise TimeControlError(
            f"not a time control: {text!r}. Write minutes+seconds, such as 5+3 "
            f"(presets: {', '.join(PRESETS)}), 90s+0 for a base in seconds, or none"
        )
    base, unit, increment = float(found[1]), found[2].lower(), float(found[3])
    return TimeControl(base if unit == "s" else base * 60, increment)


def time_control_from_json(value: object) -> TimeControl | None:
    """The API's ``clock`` field: ``null``, text (``'5+3'``) or ``{"base": seconds,
    "increment": seconds}``."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_time_control(value)
    if isinstance(value, dict):
        unknown = set(value) - {"base", "increment", "text"}
        if unknown or "base" not in value:
            raise TimeControlError(
                'the clock must be {"base": seconds, "increment": seconds}, text such as '
                "'5+3', or null"
            )
        return TimeControl(value["base"], value.get("increment", 0))
    raise TimeControlError(
        f"the clock must be text such as '5+3', an object or null, not {value!r}"
    )


@dataclass(frozen=True)
class Clocks:
    """The two clocks of a game: the control, each side's time left (as of ``since`` for
    the side to move), when the running clock started (``None``: stopped) and the last sign
    of life (``seen``)."""

    control: TimeControl
    white: float
    black: float
    since: float | None = None
    seen: float | None = None

    @classmethod
    def start(cls, control: TimeControl, *, now: float | None = None) -> Clocks:
        """Both sides with the base time; running from *now* (``None``: stopped)."""
        return cls(control, control.base, control.base, now, now)

    # -- reading ----------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the clock of the side to move runs (the game is not paused)."""
        return self.since is not None

    def _end(self, now: float, present: bool) -> float:
        """Until when the running clock ran: *now*, or the lease's end when nobody was there."""
        if present or self.seen is None:
            return now
        return min(now, self.seen + PAUSE_AFTER)

    def elapsed(self, now: float, *, present: bool = False) -> float:
        """Seconds used by the side to move since its clock started (0 when stopped)."""
        if self.since is None:
            return 0.0
        return max(0.0, self._end(now, present) - self.since)

    def left(
        self, color: bool, now: float, *, turn: bool | None = None, present: bool = False
    ) -> float:
        """The time *color* has left at *now* (the side to move is *turn*, by default
        *color*); may be negative when it has run out."""
        saved = self.white if color else self.black
        if turn is None or turn == color:
            return saved - self.elapsed(now, present=present)
        return saved

    def flagged(self, turn: bool, now: float, *, present: bool = False) -> bool:
        """Whether the side to move (*turn*) has run out of time."""
        return self.left(turn, now, present=present) <= 0

    # -- changing ---------------------------------------------------------------------------

    def _charged(self, turn: bool, now: float, present: bool) -> Clocks:
        used = self.elapsed(now, present=present)
        if turn:
            return replace(self, white=self.white - used)
        return replace(self, black=self.black - used)

    def after_move(self, turn: bool, now: float, *, present: bool = False) -> Clocks:
        """The clocks after *turn* moved at *now*: its time used is charged, the increment
        added, and the opponent's clock runs from *now*."""
        charged = self._charged(turn, now, present)
        inc = self.control.increment
        if turn:
            charged = replace(charged, white=charged.white + inc)
        else:
            charged = replace(charged, black=charged.black + inc)
        return replace(charged, since=now, seen=now)

    def paused(self, turn: bool, now: float, *, present: bool = False) -> Clocks:
        """The clocks stopped at *now* (the time used so far is charged)."""
        if self.since is None:
            return self
        return replace(self._charged(turn, now, present), since=None)

    def touched(self, turn: bool, now: float, *, present: bool = False) -> Clocks:
        """The clocks when someone looks at the game at *now*: a stopped clock starts, a clock
        whose lease ran out is charged up to its end and starts again (unless the looker was
        *present* all along), ``seen`` is *now*."""
        expired = self.seen is not None and now > self.seen + PAUSE_AFTER
        if self.since is not None and expired and not present:
            return replace(self.paused(turn, now), since=now, seen=now)
        return replace(self, since=now if self.since is None else self.since, seen=now)

    def timed_out(self, turn: bool) -> Clocks:
        """The clocks stopped with *turn*'s time at zero (it lost, or drew, on time)."""
        if turn:
            return replace(self, since=None, white=0.0)
        return replace(self, since=None, black=0.0)

    def resumed_at(self, now: float) -> Clocks:
        """The clocks with the side to move's clock starting again at *now* (after a takeback:
        the times left are kept, the new side to move runs from now)."""
        return replace(self, since=now, seen=now)

    def to_json(self, turn: bool, now: float) -> dict[str, object]:
        """What the page shows: the control, both times left at *now*, which clock runs."""
        return {
            "control": self.control.to_json(),
            "white": round(self.left(True, now, turn=turn), 3),
            "black": round(self.left(False, now, turn=turn), 3),
            "running": "white" if turn else "black",
            "paused": not self.running,
        }


def opponent_can_mate(board: Board, color: bool) -> bool:
    """Whether *color* could still mate the other side by some series of legal moves, as far
    as FIDE Laws 6.9 asks when the other side's flag falls.

    From the rules core's own answer (:meth:`Board.is_insufficient_material`: for Royal Chess
    the list of section 7 of the rules): a lone King can never mate; else, if the position
    is a draw by insufficient material, nobody can. When unsure (say, a Knight against a
    King and a pawn, where a helpmate exists) the answer is yes: the flag loses.
    """
    pieces = [p for p in board.piece_map().values() if p.color == color]
    if all(p.piece_type == KING for p in pieces):
        return False
    return not board.is_insufficient_material()


def time_out_result(board: Board, flagged: bool) -> tuple[str, str]:
    """The result and termination when *flagged* ran out of time in *board*."""
    if not opponent_can_mate(board, not flagged):
        return "1/2-1/2", DRAWN_ON_TIME
    return ("0-1" if flagged else "1-0"), LOST_ON_TIME
