"""The command line: ``royalchess perft`` and ``royalchess play``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _support import SPEC_RECORD

from royalchess import Board
from royalchess.cli import main, play


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_prints_the_total_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "perft", "4")
    assert code == 0 and out == "197281\n"
    assert "nodes/s" in err or "too fast" in err


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "--divide", "2")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "400" and len(lines) == 21
    assert "e2e4: 20" in lines
    assert sum(int(line.split(": ")[1]) for line in lines[:-1]) == 400


def test_perft_royal_fen_and_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "perft", "--variant", "royal", "3")[1] == "15718\n"
    fen = "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"
    assert run(capsys, "perft", "--variant", "royal", "--fen", fen, "2")[1] == "576\n"
    path = tmp_path / "position.txt"
    path.write_text(SPEC_RECORD)
    code, out, _ = run(capsys, "perft", "--record", str(path), "--divide", "1")
    lines = out.splitlines()
    assert code == 0 and int(lines[-1]) == len(lines) - 1 > 0
    assert all(len(line.split(": ")[0]) >= 4 for line in lines[:-1])


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["perft", "--fen", "not a fen", "1"], "royalchess: error: FEN"),
        (["perft", "--variant", "royal", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "1"], "error"),
        (["perft", "--record", "/no/such/file", "1"], "cannot read record"),
        (["perft", "--variant", "chess", "--record", "x.txt", "1"], "use --variant royal"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert fragment in err and "Traceback" not in err


@pytest.mark.parametrize("depth", ["-1", "x", "1.5"])
def test_bad_depth_is_a_usage_error(capsys: pytest.CaptureFixture[str], depth: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(["perft", depth])
    assert info.value.code == 2
    assert "invalid depth" in capsys.readouterr().err


def test_the_installed_command_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "royalchess", "perft", "--divide", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines()[-1] == "20"
    bad = subprocess.run(
        [sys.executable, "-m", "royalchess", "perft", "--fen", "x", "1"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def session(lines: list[str], board: Board | None = None) -> list[str]:
    """Play *lines* through ``play`` and return everything it wrote."""
    feed: Iterator[str] = iter(lines)
    written: list[str] = []

    def read(prompt: str) -> str:
        written.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    play(board or Board(), read=read, out=written.append)
    return written


def test_play_to_checkmate() -> None:
    out = session(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"])
    text = "\n".join(out)
    assert "4. Qxf7#" in text
    assert "White wins by checkmate. 1-0" in text
    assert "Moves: 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#" in text


def test_play_answers_bad_input_and_goes_on() -> None:
    out = session(["e5", "xyzzy", "Ke2", "e2e4", "undo", "undo", "help", "moves", "fen"])
    text = "\n".join(out)
    # The coach's words (royalchess.explain), not a FEN.
    assert (
        "The pawn on e2 cannot move to e5: a pawn moves straight forward (two squares from its "
        "start) and captures diagonally forward." in text
    )
    assert "'xyzzy' is not a move: write a move such as e4, Nf3, exd5, e8=Q or O-O." in text
    assert "The King on e1 cannot reach e2: your pawn stands there." in text
    assert "1. e4" in text
    assert "Nothing to undo." in text
    assert "undo" in text and "20 legal moves:" in text
    assert "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in text
    assert out[-1] == "End of input: the game is left unfinished. *"


def test_play_draws_resign_and_quit() -> None:
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    text = "\n".join(session(["draw", *shuffle, "Nf3", "Nf6", "Ng1", "draw"]))
    assert "No draw can be claimed now" in text
    assert "A draw can be claimed" in text
    assert "Draw by threefold repetition (claimed). 1/2-1/2" in text
    assert "White resigns. 0-1" in "\n".join(session(["resign"]))
    assert "Game abandoned. *" in "\n".join(session(["e4", "quit"]))


def test_play_royal_chess() -> None:
    out = session(["e4", "f7f5", "exf5"], Board(variant="royal"))
    text = "\n".join(out)
    assert "Royal Chess" in out[0]
    assert "  a b c d e f g h i j" in text
    assert "2. exf5" in text


def test_play_stalemate_is_announced() -> None:
    text = "\n".join(session(["Qf7"], Board("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")))
    assert "Draw by stalemate. 1/2-1/2" in text


def test_play_through_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "royalchess", "play", "--db", str(tmp_path / "games.db")],
        check=False,
        input="f3\ne5\ng4\nQh4\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "Black wins by checkmate. 0-1" in done.stdout
