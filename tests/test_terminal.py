"""The terminal game, ``royalchess play``: through a pseudo-terminal (the coloured screen, as a
person sees it), through a pipe (the plain line mode), and in-process for the rules of its
commands. Games are saved in a store in a temporary folder, never the user's own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from royalchess import Board
from royalchess.cli import main
from royalchess.move import BLACK, Move
from royalchess.store import GameStore
from royalchess.terminal import PlainScreen, TerminalGame

ROYAL_FEN = "r4k4/1P8/10/10/10/10/10/5KW2R w K - 0 1"
"""Royal Chess: White can castle with a King's Guard move first and promote on b8."""
ROYAL_LINE = ["Wg3_O-O:h1", "Ke8", "b8=G"]
ROYAL_UCI = ["g1g3f1h1j1g1", "f8e8", "b7b8g"]
SAN = r"([A-Za-z0-9=+#:_\-]+)"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x01\x02]")


def royal_after_line() -> Board:
    board = Board(ROYAL_FEN, variant="royal")
    for san in ROYAL_LINE:
        board.push_san(san)
    return board


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", XDG_DATA_HOME=str(tmp_path / "xdg"))
    return env


# -- through a pseudo-terminal: the coloured screen ------------------------------------------


class Terminal:
    """``royalchess play ARGS`` on a pseudo-terminal, 160 columns wide."""

    def __init__(self, tmp_path: Path, db: Path, *args: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "royalchess", "play", "--db", str(db), *args],
            env=environment(tmp_path),
            encoding="utf-8",
            dimensions=(40, 160),
            timeout=30,
        )
        self.seen: list[str] = []

    def expect(self, pattern: str, *, exact: bool = True) -> Any:
        if exact:
            self.child.expect_exact(pattern)
        else:
            self.child.expect(pattern)
        self.seen.append(self.child.before + str(self.child.after))
        return self.child.match

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def text(self) -> str:
        """Everything read so far, without colour codes."""
        return ANSI.sub("", "".join(self.seen))

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.seen.append(self.child.before)
        self.child.close()
        return int(self.child.exitstatus)


def test_against_the_computer_at_a_terminal(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    term = Terminal(tmp_path, db, "--color", "white", "--level", "1")
    term.expect("1. White> ")
    raw = "".join(term.seen)
    assert "\x1b[" in raw and "48;2;" in raw  # the board is drawn in colour
    assert re.search(r"8 +r +n +b +q +k +b +n +r", term.text())
    assert "computer (level 1)" in term.text()
    term.send("e4")
    reply = term.expect(r"The computer plays 1\.\.\. " + SAN, exact=False).group(1)
    term.expect("2. White> ")
    term.send("hint")
    hint = term.expect(r"Hint: " + SAN + r" \(", exact=False).group(1)
    term.expect("2. White> ")
    term.send(hint)
    term.expect(r"The computer plays 2\.\.\. ", exact=False)
    term.expect("3. White> ")
    term.send("takeback")
    term.expect(f"Took back {hint} ")
    term.expect("2. White> ")
    term.send("e9")
    term.expect("'e9' is not a move: square 'e9' is off the board.")
    term.expect("2. White> ")
    term.send("Ke3")
    term.expect("The King on e1 cannot move to e3: a King moves one square in any direction.")
    term.expect("2. White> ")
    term.send("quit")
    term.expect("Game adjourned. *")
    assert term.finish() == 0
    assert f"Moves: 1. e4 {reply}" in term.text()

    store = GameStore(db)
    (rec,) = store.list_games()
    rec = store.get(rec.id)
    store.close()
    assert rec.variant == "chess" and rec.mode == "vs-computer" and rec.level == 1
    assert (rec.white, rec.black, rec.result) == ("human", "computer", "*")
    assert len(rec.moves) == 2 and rec.moves[0] == "e2e4"

    # a new process takes the game up where it was left
    again = Terminal(tmp_path, db, "--resume", str(rec.id))
    again.expect("2. White> ")
    assert f"game #{rec.id} resumed" in again.text()
    assert f"1. e4 {reply}" in again.text()
    again.send("quit")
    assert again.finish() == 0
    assert f"Moves: 1. e4 {reply}" in again.text()


def test_royal_chess_at_a_terminal_castling_with_a_guard_first_and_promotion(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    term = Terminal(tmp_path, db, "--variant", "royal", "--fen", ROYAL_FEN, "--two-players")
    term.expect("1. White> ")
    assert re.search(r"   a  b  c  d  e  f  g  h  i  j", term.text())
    term.send("O-O")
    term.expect("'O-O' could be more than one move: O-O:h1")
    term.expect("1. White> ")
    term.send("Wg3_O-O:h1")
    term.expect("1... Black> ")
    term.send("Ke8")
    term.expect("2. White> ")
    term.send("b8")
    term.expect("Promote with one of: b8=Q, ")
    term.expect("b8=G-")
    term.expect("2. White> ")
    term.send("b8=G")
    term.expect("2... Black> ")
    term.send("save")
    game_id = int(term.expect(r"Game #(\d+) is saved", exact=False).group(1))
    term.send("quit")
    assert term.finish() == 0

    store = GameStore(db)
    assert store.get(game_id).moves == ROYAL_UCI
    store.close()

    # started without options, it offers to go on with the unfinished game
    again = Terminal(tmp_path, db)
    again.expect(f"Go on with game #{game_id} (Royal Chess, two players, 3 plies)?")
    again.send("")
    again.expect("2... Black> ")
    text = again.text()
    assert "1. Wg3_O-O:h1 Ke8" in text and "2. b8=G+" in text and " G* " in text
    again.send("fen")
    again.expect(royal_after_line().fen())
    again.send("quit")
    assert again.finish() == 0


def test_the_menu_at_a_terminal(tmp_path: Path) -> None:
    term = Terminal(tmp_path, tmp_path / "games.db")
    term.expect("Game (chess/royal) [chess]: ")
    term.send("royal")
    term.expect("Opponent (computer/friend) [computer]: ")
    term.send("comp")
    term.expect("Your colour (white/black/random) [white]: ")
    term.send("purple")
    term.expect("Please answer one of white, black, random.")
    term.send("black")
    term.expect("Level (1-20) [4]: ")
    term.send("1")
    term.expect(r"The computer plays 1\. ", exact=False)
    term.expect("1... Black> ")
    assert "Royal Chess" in term.text() and "you play Black" in term.text()
    assert re.search(r"   j  i  h  g  f  e  d  c  b  a", term.text())  # Black's side down
    term.child.sendcontrol("d")
    term.expect("End of input: the game is left unfinished. *")
    assert term.finish() == 0


# -- through a pipe: the plain line mode ----------------------------------------------------


def piped(tmp_path: Path, db: Path, lines: list[str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "royalchess", "play", "--db", str(db), *args],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(tmp_path),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout  # plain text
    return done.stdout


def test_against_the_computer_through_a_pipe(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    lines = ["e4", "d4", "hint", "takeback", "xyz", "Ke3", "level 2", "save", "quit"]
    out = piped(tmp_path, db, lines, "--color", "white", "--level", "1")
    reply = re.search(r"The computer plays 1\.\.\. " + SAN, out)
    assert reply is not None
    assert re.search(r"Hint: \S+ \(\w+\)", out)
    assert re.search(r"Took back d4 \S+\.", out)
    assert "'xyz' is not a move: write a move such as e4, Nf3, exd5, e8=Q or O-O." in out
    assert (
        "The King on e1 cannot move to e3: a King moves one square in any direction. "
        "Legal King moves: Ke2." in out
    )
    assert "The computer now plays at level 2." in out
    assert "Game #1 is saved" in out
    assert f"Moves: 1. e4 {reply.group(1)}\n" in out

    out = piped(tmp_path, db, ["quit"], "--resume")
    assert "Standard chess: game #1 resumed, you play White against the computer at level 2" in out
    assert f"Moves: 1. e4 {reply.group(1)}\n" in out


def test_full_strength_on_two_threads_through_a_pipe(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    out = piped(
        tmp_path, db, ["e4", "hint", "quit"], "--color", "white", "--level", "20", "--threads", "2"
    )
    assert re.search(r"The computer plays 1\.\.\. " + SAN, out)
    assert re.search(r"Hint: \S+ \(\w+\)", out)


def test_royal_chess_through_a_pipe_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    out = piped(tmp_path, db, ["b8", *ROYAL_LINE], "--variant", "royal", "--fen", ROYAL_FEN)
    assert "Promote with one of: b8=Q, b8=R, b8=B, b8=N, b8=G, b8=G-" in out
    assert "1. Wg3_O-O:h1" in out and "2. b8=G+" in out
    assert "End of input: the game is left unfinished. *" in out
    assert "Game #1 is saved: go on with 'royalchess play --resume 1'." in out

    out = piped(tmp_path, db, ["fen", "Kd7", "quit"], "--resume", "1")
    assert royal_after_line().fen() in out
    assert "Moves: 1. Wg3_O-O:h1 Ke8 2. b8=G+ Kd7" in out
    store = GameStore(db)
    assert store.get(1).moves == [*ROYAL_UCI, "e8d7"]
    store.close()


def test_games_are_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    assert main(["games", "--db", str(db)]) == 0
    assert "No saved games" in capsys.readouterr().out
    piped(tmp_path, db, ["f3", "e5", "g4", "Qh4"])
    piped(tmp_path, db, ["e4"], "--variant", "royal")
    assert main(["games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"#2 +Royal Chess +two players +1 +unfinished", out)
    assert re.search(r"#1 +Standard chess +two players +4 +0-1 \(checkmate\)", out)
    assert main(["games", "--db", str(db), "--unfinished"]) == 0
    assert "#1 " not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--resume", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"], "drop the other options"),
        (["--resume", "7"], "no saved game #7"),
        (["--resume"], "no unfinished game to resume"),
        (["--resume", "--no-save"], "drop --no-save"),
        (["--two-players", "--color", "black"], "do not go together"),
    ],
)
def test_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    assert main(["play", "--db", str(tmp_path / "games.db"), *argv]) == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.parametrize("level", ["0", "21", "x"])
def test_bad_level(capsys: pytest.CaptureFixture[str], level: str) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--level", level])
    assert "invalid level" in capsys.readouterr().err


@pytest.mark.parametrize("threads", ["0", "65", "x"])
def test_bad_threads(capsys: pytest.CaptureFixture[str], threads: str) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--threads", threads])
    assert "argument --threads: expected a whole number of threads" in capsys.readouterr().err


# -- in-process: the rules of the commands ---------------------------------------------------


class FirstMove:
    """A stand-in computer: plays and suggests the first legal move in UCI order."""

    def __init__(self) -> None:
        self.levels: list[int] = []

    def play(self, board: Board, level: int, **where: Any) -> Move:
        self.levels.append(level)
        return min(board.legal_moves, key=lambda m: m.uci())

    def hint(self, board: Board) -> Move | None:
        return min(board.legal_moves, key=lambda m: m.uci()) if board.legal_moves else None


class Broken:
    """A stand-in computer that fails as an engine that cannot be loaded does."""

    def play(self, board: Board, level: int, **where: Any) -> Move:
        raise RuntimeError("the engine is not available")

    def hint(self, board: Board) -> Move | None:
        raise RuntimeError("the engine is not available")


def run(
    lines: list[str],
    board: Board | None = None,
    *,
    store: GameStore | None = None,
    computer: Any = None,
    **setup: Any,
) -> tuple[TerminalGame, str]:
    feed: Iterator[str] = iter(lines)
    written: list[str] = []

    def read(prompt: str) -> str:
        written.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(PlainScreen(read, written.append), store=store, computer=computer)
    game.new_game(board or Board(), **setup)
    assert game.run() == 0
    return game, "\n".join(written)


@pytest.fixture
def store() -> Iterator[GameStore]:
    store = GameStore(":memory:")
    yield store
    store.close()


def test_takeback_goes_back_to_your_previous_turn(store: GameStore) -> None:
    computer = FirstMove()
    lines = ["takeback", "e5", "takeback", "d5", "level 3", "Nf6", "takeback", "quit"]
    game, out = run(lines, store=store, computer=computer, mode="vs-computer", color=BLACK)
    assert "The computer plays 1. a3" in out
    assert "No move of yours to take back." in out
    assert "Took back e5 Ra2." in out
    assert "Took back Nf6 Ra1." in out
    assert game.sans == ["a3", "d5", "Ra2"]
    assert store.get(1).moves == ["a2a3", "d7d5", "a1a2"]
    assert computer.levels == [4, 4, 4, 3]
    assert store.get(1).level == 3
    assert "1. White" not in out  # never asked for the computer's move


def test_level_hint_flip_and_bad_commands(store: GameStore) -> None:
    lines = ["level", "level 0", "level x", "level 20", "hint", "flip", "resume", "new purple"]
    game, out = run(lines, store=store, computer=FirstMove(), mode="vs-computer")
    assert "The computer plays at level 4 (1 to 20)." in out
    assert "Not a level: '0'" in out and "Not a level: 'x'" in out
    assert "The computer now plays at level 20." in out
    assert "Hint: a3 (a2a3)" in out
    assert "  h g f e d c b a" in out  # flipped
    assert "There is no other unfinished game to resume." in out
    assert "Not understood: 'purple'" in out
    assert game.level == 20 and game.game_id is None  # nothing saved before a move


def test_resign_and_draw_claims_are_saved(store: GameStore) -> None:
    _, out = run(["e4", "resign", "e5", "takeback"], store=store)
    assert "Black resigns. 1-0" in out
    assert "The game is over: White wins by resignation. 1-0." in out
    rec = store.get(1)
    assert (rec.result, rec.termination, rec.moves) == ("*", None, [])  # taken back
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
    _, out = run(["draw", *shuffle, "draw", "moves"], store=store)
    assert "No draw can be claimed now" in out
    assert "Draw by threefold repetition (claimed). 1/2-1/2" in out
    assert "The game is over: no moves." in out
    rec = store.get(2)
    assert (rec.result, rec.termination) == ("1/2-1/2", "threefold repetition (claimed)")


def test_checkmate_ends_the_game_and_a_takeback_reopens_it(store: GameStore) -> None:
    lines = ["f3", "e5", "g4", "Qh4", "Ke2", "hint", "takeback", "Qe7", "quit"]
    game, out = run(lines, store=store, computer=FirstMove())
    assert "Black wins by checkmate. 0-1" in out
    assert "The game is over: Black wins by checkmate. 0-1." in out
    assert "The game is over: there is no move to suggest." in out
    assert "Game adjourned. *" in out
    assert store.get(1).moves == ["f2f3", "e7e5", "g2g4", "d8e7"]
    assert store.get(1).result == "*" and not game.finished


def test_the_game_is_left_to_two_players_when_the_computer_fails(store: GameStore) -> None:
    game, out = run(["e4", "hint", "e5"], store=store, computer=Broken(), mode="vs-computer")
    assert "The computer cannot move (the engine is not available): two players" in out
    assert "No hint: the computer is not available" in out
    assert game.sans == ["e4", "e5"] and game.mode == "two-players"
    assert store.get(1).mode == "two-players"


def test_new_games_saves_and_resume(store: GameStore) -> None:
    lines = ["e4", "new royal two", "save", "d4", "games", "resume 1", "e5", "resume 2", "quit"]
    game, out = run(lines, store=store)
    assert "Game #1 stays saved: 'resume 1' goes back to it." in out
    assert "Game #2 is saved in :memory:" in out
    assert "Standard chess: game #1 resumed" in out and "Royal Chess: game #2 resumed" in out
    assert game.game_id == 2 and game.sans == ["d4"]
    assert store.get(1).moves == ["e2e4", "e7e5"]
    assert store.get(2).variant == "royal"
    _, out = run(["save", "games", "resume 1", "pgn"])
    assert "Saving is off" in out


def test_a_game_changed_in_the_browser_is_taken_up_as_saved(store: GameStore) -> None:
    from royalchess.web.games import GameService

    service = GameService(store)

    def lines() -> Iterator[str]:
        yield "e4"
        service.play(1, "c5")  # the same game, played on in the browser
        yield "e5"
        yield "Nf3"

    out: list[str] = []
    feed = lines()
    game = TerminalGame(PlainScreen(lambda p: next(feed), out.append), store=store)
    game.new_game(Board())
    with pytest.raises(StopIteration):
        game.run()
    assert "Game #1 was changed elsewhere (in the browser?): here it is as saved." in out
    assert store.get(1).moves == ["e2e4", "c7c5", "g1f3"]


def test_a_browser_game_resumes_in_the_terminal_and_back(store: GameStore) -> None:
    from royalchess.web.games import GameService

    service = GameService(store, computer=FirstMove())  # type: ignore[arg-type]
    game_id = service.new_game(variant="royal", mode="vs-computer", color="black", level=2)["id"]
    service.computer_move(game_id)
    lines = iter(["e5", "quit"])
    game = TerminalGame(
        PlainScreen(lambda prompt: next(lines), lambda text: None),
        store=store,
        computer=FirstMove(),
    )
    game.load(store.get(game_id))
    assert game.orientation == BLACK and game.level == 2
    game.run()
    state = service.state(game_id)
    assert [m["san"] for m in state["moves"]] == ["a3", "e5", "Ra2"]
    assert state["turn"] == "black" and not state["computer_to_move"]


def test_promotion_choices_in_uci_and_the_queen_powers_mark() -> None:
    board = Board(ROYAL_FEN, variant="royal")
    board.push_san("Ri1")
    board.push_san("Ke8")
    _, out = run(["b7b8", "b7b8g-", "fen"], board)
    assert "Promote with one of: b7b8q, b7b8r, b7b8b, b7b8n, b7b8g, b7b8g-" in out
    assert "(a trailing - waives the new Guard's queen powers)" in out
    assert "2. b8=G-" in out and "G*" not in out.split("2. b8=G-")[1]
    assert run(["b8=G"], board)[1].count("G*") >= 1  # drawn with its queen powers


def test_start_positions_keep_their_moves() -> None:
    board = Board()
    board.push_san("e4")
    game, out = run(["e5"], board, mode="vs-computer", color=BLACK, computer=FirstMove())
    assert game.sans == ["e4", "e5", "a3"] and "Moves: 1. e4 e5 2. a3" in out
    assert game.start.fen() == Board().fen()
