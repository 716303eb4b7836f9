"""Clocks in the terminal game: shown beside the board and in the prompt, kept with every
move, stopped while the game is left, the flag found when a move comes late, the computer
playing to its clock, and ``--clock`` on the command line (a bad one exits 2). In-process
tests use a fake time source: nothing sleeps."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from royalchess import Board
from royalchess.clock import TimeControl
from royalchess.move import BLACK, Move
from royalchess.store import GameStore
from royalchess.terminal import PlainScreen, TerminalGame


class FakeTime:
    def __init__(self) -> None:
        self.now = 5_000_000.0

    def __call__(self) -> float:
        return self.now


class FirstMove:
    """A stand-in computer: the first legal move in UCI order; notes the clocks it gets."""

    def __init__(self) -> None:
        self.clocks: list[Any] = []

    def play(self, board: Board, level: int, **where: Any) -> Move:
        self.clocks.append(where.get("clock"))
        return min(board.legal_moves, key=lambda m: m.uci())


def run(
    steps: list[tuple[float, str]],
    fake: FakeTime,
    *,
    store: GameStore,
    game: TerminalGame | None = None,
    computer: Any = None,
    **setup: Any,
) -> tuple[TerminalGame, str]:
    """Play *steps*: (seconds the player thinks at the prompt, the line typed)."""
    feed = iter(steps)
    written: list[str] = []

    def read(prompt: str) -> str:
        written.append(prompt)
        try:
            seconds, line = next(feed)
        except StopIteration:
            raise EOFError from None
        fake.now += seconds
        return line

    screen = PlainScreen(read, written.append)
    if game is None:
        game = TerminalGame(screen, store=store, computer=computer, now=fake)
        game.new_game(Board(), **setup)
    else:
        game.screen = screen
    assert game.run() == 0
    return game, "\n".join(written)


@pytest.fixture
def store() -> Iterator[GameStore]:
    store = GameStore(":memory:")
    yield store
    store.close()


def test_clocks_are_shown_and_kept(store: GameStore) -> None:
    fake = FakeTime()
    steps = [(12, "e4"), (100, "e5"), (1, "quit")]
    game, out = run(steps, fake, store=store, time_control=TimeControl(300, 3))
    assert "Clock: White 5:00 | Black 5:00" in out
    assert "1. White [5:00 | 5:00]> " in out
    assert "Clock: White 4:51 | Black 5:00" in out  # 300 - 12 + 3
    assert "1... Black [4:51 | 5:00]> " in out
    # a player at the terminal is charged the whole time, even past the web's pause
    assert "Clock: White 4:51 | Black 3:23" in out  # 300 - 100 + 3
    rec = store.get(1)
    # White's clock ran one second more, until the player left
    assert (rec.white_time, rec.black_time, rec.clock_base, rec.clock_increment) == (
        290.0,
        203.0,
        300.0,
        3.0,
    )
    assert rec.clock_since is None  # left: the clock stopped (paused)
    assert (rec.result, game.result) == ("*", "*")


def test_a_resumed_game_goes_on_with_its_times(store: GameStore) -> None:
    fake = FakeTime()
    run([(10, "d4"), (5, "quit")], fake, store=store, time_control=TimeControl(60, 0))
    fake.now += 86_400  # a day away: nobody is charged
    game = TerminalGame(PlainScreen(), store=store, now=fake)
    game.load(store.get(1))
    _, out = run([(4, "d5"), (0, "quit")], fake, store=store, game=game)
    assert "1... Black [0:50 | 0:55]> " in out
    rec = store.get(1)
    assert (rec.white_time, rec.black_time) == (50.0, 51.0)


def test_a_move_entered_late_loses_on_time(store: GameStore) -> None:
    fake = FakeTime()
    steps = [(5, "e4"), (61, "e5"), (0, "e5")]
    _, out = run(steps, fake, store=store, time_control=TimeControl(60, 0))
    assert "Black lost on time. 1-0" in out
    assert "The game is over: Black lost on time. 1-0." in out  # no move after the flag
    assert "Game over> " in out
    rec = store.get(1)
    assert (rec.result, rec.termination, rec.moves, rec.black_time) == (
        "1-0",
        "time forfeit",
        ["e2e4"],
        0.0,
    )


def test_a_flag_against_a_lone_king_draws(store: GameStore) -> None:
    fake = FakeTime()
    game = TerminalGame(PlainScreen(), store=store, now=fake)
    game.new_game(Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), time_control=TimeControl(2, 0))
    _, out = run([(3, "Ra8")], fake, store=store, game=game)
    assert "Draw: time out, insufficient material. 1/2-1/2" in out
    assert game.result == "1/2-1/2"


def test_the_computer_plays_to_its_clock(store: GameStore) -> None:
    fake = FakeTime()
    computer = FirstMove()
    steps = [(30, "e5"), (0, "quit")]
    run(steps, fake, store=store, computer=computer, mode="vs-computer", color=BLACK,
        time_control=TimeControl(180, 2))  # fmt: skip
    assert computer.clocks == [
        {"wtime": 180.0, "btime": 180.0, "winc": 2.0, "binc": 2.0},
        {"wtime": 182.0, "btime": 152.0, "winc": 2.0, "binc": 2.0},
    ]


def test_clock_on_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    done = subprocess.run(
        [sys.executable, "-m", "royalchess", "play", "--db", str(db), "--plain", "--two-players",
         "--clock", "5+3"],
        input="e4\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # White's clock runs from the game's creation: the few ms until the board is shown (the
    # new game is written to the database first) can show as 4:59
    assert re.search(r"Clock: White (5:00|4:59) \| Black 5:00", done.stdout)
    assert re.search(r"1\. White \[(5:00|4:59) \| 5:00\]> ", done.stdout)
    rec = GameStore(db).get(1)
    assert (rec.clock_base, rec.clock_increment) == (300.0, 3.0)
    assert 300.0 < rec.white_time <= 303.0  # the increment, less the few ms it took
    assert rec.black_time <= 300.0 and rec.clock_since is None


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ("5", "not a time control"),
        ("-1+0", "not a time control"),
        ("0+0", "at least 1 s"),
        ("601+0", "at most 10 hours"),
        ("5+601", "at most 10 minutes"),
    ],
)
def test_a_bad_clock_exits_2(tmp_path: Path, clock: str, words: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "royalchess", "play", "--db", str(tmp_path / "g.db"), "--plain",
         f"--clock={clock}"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "argument --clock" in done.stderr and words in done.stderr


def test_resume_with_a_clock_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "royalchess", "play", "--db", str(tmp_path / "g.db"),
         "--resume", "--clock", "5+3"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "drop --clock" in done.stderr


def test_new_takes_a_time_control(store: GameStore) -> None:
    fake = FakeTime()
    steps = [(0, "new 3+2 two"), (0, "new 5+x"), (0, "new none"), (0, "e4"), (0, "quit")]
    game, out = run(steps, fake, store=store, time_control=TimeControl(60, 0))
    assert "1. White [3:00 | 3:00]> " in out
    assert "Not a time control: '5+x'" in out
    assert "1. White> " in out  # no clock any more
    assert game.session.clock is None and store.get(1).clock_base is None
