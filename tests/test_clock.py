"""The pure clock logic (royalchess.clock): time controls, times left, pauses, the flag, and
FIDE 6.9's draw when the opponent cannot mate. Time is given by the test: nothing sleeps."""

from __future__ import annotations

import pytest

from royalchess.board import Board
from royalchess.clock import (
    DRAWN_ON_TIME,
    LOST_ON_TIME,
    PAUSE_AFTER,
    PRESETS,
    Clocks,
    TimeControl,
    TimeControlError,
    format_seconds,
    opponent_can_mate,
    parse_time_control,
    time_control_from_json,
    time_out_result,
)

WHITE, BLACK = True, False


@pytest.mark.parametrize(
    ("text", "base", "increment"),
    [
        ("1+0", 60.0, 0.0),
        ("3+2", 180.0, 2.0),
        ("5+3", 300.0, 3.0),
        ("10+5", 600.0, 5.0),
        ("15+10", 900.0, 10.0),
        ("30+20", 1800.0, 20.0),
        (" 2.5 + 1 ", 150.0, 1.0),
        ("90s+5", 90.0, 5.0),
        ("2s+0", 2.0, 0.0),
        ("600m+600", 36000.0, 600.0),
    ],
)
def test_time_controls_are_read(text: str, base: float, increment: float) -> None:
    assert parse_time_control(text) == TimeControl(base, increment)


def test_every_preset_reads_and_writes_itself() -> None:
    assert [str(parse_time_control(text)) for text in PRESETS] == list(PRESETS)
    assert str(TimeControl(2, 0)) == "2s+0"
    assert TimeControl(300, 3).to_json() == {"base": 300, "increment": 3, "text": "5+3"}


@pytest.mark.parametrize("text", ["none", "", "off", "NONE", " - "])
def test_no_clock_is_none(text: str) -> None:
    assert parse_time_control(text) is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5", "not a time control"),
        ("5+", "not a time control"),
        ("five+three", "not a time control"),
        ("-5+3", "not a time control"),
        ("5+-3", "not a time control"),
        ("5+3+2", "not a time control"),
        ("0+0", "at least 1 s"),
        ("0.5s+0", "at least 1 s"),
        ("601+0", "at most 10 hours"),
        ("5+601", "at most 10 minutes"),
        ("1e9+0", "not a time control"),
    ],
)
def test_bad_time_controls_say_why(text: str, words: str) -> None:
    with pytest.raises(TimeControlError, match=words):
        parse_time_control(text)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"base": -60, "increment": 0}, "negative"),
        ({"base": 60, "increment": -1}, "negative"),
        ({"base": float("inf")}, "negative"),
        ({"base": "60"}, "number of seconds"),
        ({"base": True}, "number of seconds"),
        ({"increment": 2}, "base"),
        ({"base": 60, "extra": 1}, "base"),
        (42, "the clock must be"),
        ([60, 0], "the clock must be"),
        ({"base": 36001}, "at most 10 hours"),
    ],
)
def test_bad_json_time_controls_say_why(value: object, words: str) -> None:
    with pytest.raises(TimeControlError, match=words):
        time_control_from_json(value)


def test_json_time_controls() -> None:
    assert time_control_from_json(None) is None
    assert time_control_from_json("3+2") == TimeControl(180, 2)
    assert time_control_from_json({"base": 2}) == TimeControl(2, 0)
    assert time_control_from_json({"base": 90, "increment": 1.5}) == TimeControl(90, 1.5)


def test_format_seconds() -> None:
    assert [format_seconds(s) for s in (300, 59.99, 10, 9.96, 0.04, -3, 3723)] == [
        "5:00",
        "0:59",
        "0:10",
        "0:09.9",
        "0:00.0",
        "0:00.0",
        "1:02:03",
    ]


def test_the_side_to_move_is_charged_and_gets_the_increment() -> None:
    clocks = Clocks.start(TimeControl(300, 3), now=1000.0)
    assert clocks.left(WHITE, 1012.0) == 288.0
    assert clocks.left(BLACK, 1012.0, turn=WHITE) == 300.0
    clocks = clocks.after_move(WHITE, 1012.0)
    assert (clocks.white, clocks.black, clocks.since, clocks.seen) == (291.0, 300.0, 1012.0, 1012.0)
    clocks = clocks.after_move(BLACK, 1032.5)
    assert (clocks.white, clocks.black) == (291.0, 282.5)
    assert clocks.to_json(WHITE, 1043.0) == {
        "control": {"base": 300, "increment": 3, "text": "5+3"},
        "white": 280.5,
        "black": 282.5,
        "running": "white",
        "paused": False,
    }


def test_a_paused_clock_stands_still_and_starts_when_looked_at() -> None:
    clocks = Clocks.start(TimeControl(60), now=0.0).paused(WHITE, 10.0)
    assert (clocks.white, clocks.running) == (50.0, False)
    assert clocks.left(WHITE, 5000.0) == 50.0  # switched off: nothing runs
    assert clocks.paused(WHITE, 6000.0) == clocks
    clocks = clocks.touched(WHITE, 7000.0)
    assert (clocks.since, clocks.seen) == (7000.0, 7000.0)
    assert clocks.left(WHITE, 7004.0) == 46.0


def test_a_clock_nobody_looks_at_stops_by_itself() -> None:
    clocks = Clocks.start(TimeControl(600), now=0.0).touched(WHITE, 10.0)
    # the page went away without a word at 10 s: charged up to 10 + PAUSE_AFTER only
    assert clocks.left(WHITE, 10_000.0) == 600.0 - 10.0 - PAUSE_AFTER
    back = clocks.touched(WHITE, 10_000.0)  # someone is back: runs again from then
    assert (back.white, back.since, back.seen) == (600.0 - 10.0 - PAUSE_AFTER, 10_000.0, 10_000.0)
    assert back.left(WHITE, 10_005.0) == 600.0 - 10.0 - PAUSE_AFTER - 5.0
    # a move sent late by such a page is charged up to the lease's end too
    assert clocks.after_move(WHITE, 10_000.0).white == 600.0 - 10.0 - PAUSE_AFTER
    # but a player who was there all along (the terminal) is charged the whole time
    assert clocks.left(WHITE, 100.0, present=True) == 500.0
    assert clocks.touched(WHITE, 100.0, present=True).since == 0.0
    assert clocks.after_move(WHITE, 100.0, present=True).white == 500.0


def test_the_flag() -> None:
    clocks = Clocks.start(TimeControl(2), now=0.0)
    assert not clocks.flagged(WHITE, 1.999)
    assert clocks.flagged(WHITE, 2.0)
    assert not clocks.flagged(BLACK, 2.0) or clocks.left(BLACK, 2.0, turn=WHITE) == 2.0
    out = clocks.timed_out(WHITE)
    assert (out.white, out.black, out.running) == (0.0, 2.0, False)


def test_a_takeback_keeps_the_times_and_the_new_side_runs() -> None:
    clocks = Clocks.start(TimeControl(60), now=0.0).after_move(WHITE, 5.0)
    clocks = clocks.paused(BLACK, 8.0).resumed_at(8.0)
    assert (clocks.white, clocks.black, clocks.since) == (55.0, 57.0, 8.0)


@pytest.mark.parametrize(
    ("fen", "variant", "flagged", "result", "termination"),
    [
        # the opponent has a lone King: it can never mate
        ("8/8/8/4k3/8/8/8/4K2R w - - 0 1", "chess", WHITE, "1/2-1/2", DRAWN_ON_TIME),
        # King and Rook against a lone King: a loss
        ("8/8/8/4k3/8/8/8/4K2R b - - 0 1", "chess", False, "1-0", LOST_ON_TIME),
        # King and Knight against a lone King cannot mate (the rules core's list)
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", "chess", WHITE, "1/2-1/2", DRAWN_ON_TIME),
        ("8/8/8/4k3/8/8/8/4KN2 b - - 0 1", "chess", BLACK, "1/2-1/2", DRAWN_ON_TIME),
        # ...but against a Knight of its own a helpmate exists: the flag loses
        ("8/8/8/4k3/5n2/8/8/4KN2 b - - 0 1", "chess", BLACK, "1-0", LOST_ON_TIME),
        # Royal Chess, section 7: K+B v K is insufficient, a Guard is sufficient
        ("10/10/10/5k4/10/10/10/4KB4 b - - 0 1", "royal", BLACK, "1/2-1/2", DRAWN_ON_TIME),
        ("10/10/10/5k4/10/10/10/4KW4 b - - 0 1", "royal", BLACK, "1-0", LOST_ON_TIME),
        ("10/10/10/5k4/10/10/10/4KG4 b - - 0 1", "royal", BLACK, "1-0", LOST_ON_TIME),
        ("10/10/10/5k4/10/10/10/5K4 w - - 0 1", "royal", WHITE, "1/2-1/2", DRAWN_ON_TIME),
        # the start position: of course a loss
        (None, "royal", WHITE, "0-1", LOST_ON_TIME),
    ],
)
def test_time_out_result_fide_6_9(
    fen: str | None, variant: str, flagged: bool, result: str, termination: str
) -> None:
    board = Board(fen, variant=variant)
    assert time_out_result(board, flagged) == (result, termination)
    assert opponent_can_mate(board, not flagged) == (termination == LOST_ON_TIME)
