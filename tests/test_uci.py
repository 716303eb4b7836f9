"""The UCI server (``royalchess uci``): scripted sessions in-process and over a pipe, junk
input, ``stop`` latency, both games, and python-chess driving it as a real engine."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest
from _support import FAST

from royalchess import Board
from royalchess.uci import UciServer

UCI_COMMAND = [sys.executable, "-m", "royalchess", "uci"]
# The search looks at its stop flag every 1024 nodes: 50 ms at full speed, but the sanitized
# core (ROYALCHESS_FAST, tests/sanitize.sh) is many times slower, so there it gets 0.5 s.
STOP_LIMIT = 0.5 if FAST else 0.05


class Session:
    """A UciServer fed line by line, its output collected."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._seen = 0
        self._cond = threading.Condition()
        self.server = UciServer(self._write)

    def _write(self, line: str) -> None:
        with self._cond:
            self.lines.append(line)
            self._cond.notify_all()

    def send(self, *lines: str) -> None:
        for line in lines:
            assert self.server.handle(line)

    def skip(self) -> None:
        """Forget the output so far: wait_for() looks only at what comes next."""
        with self._cond:
            self._seen = len(self.lines)

    def wait_for(self, prefix: str, timeout: float = 10.0) -> str:
        """The next output line starting with prefix (after the ones already returned)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for i in range(self._seen, len(self.lines)):
                    if self.lines[i].startswith(prefix):
                        self._seen = i + 1
                        return self.lines[i]
                left = deadline - time.monotonic()
                assert left > 0, f"no {prefix!r} in {self.lines[-20:]}"
                self._cond.wait(left)


@pytest.fixture
def session() -> Iterator[Session]:
    s = Session()
    yield s
    s.server.close()


def test_handshake_and_options(session: Session) -> None:
    session.send("uci")
    session.wait_for("uciok")
    text = "\n".join(session.lines)
    assert "id name royalchess" in text
    for option in ("Hash", "Threads", "MultiPV", "Skill Level", "UCI_LimitStrength", "UCI_Elo"):
        assert (
            f"option name {option} type spin" in text or f"option name {option} type check" in text
        )
    assert "option name UCI_Variant type combo default chess var chess var royal" in text
    session.send("isready")
    session.wait_for("readyok")


def test_scripted_game(session: Session) -> None:
    session.send("uci", "ucinewgame", "isready")
    session.wait_for("readyok")
    board = Board()
    for _ in range(4):
        moves = " ".join(m.uci() for m in board.move_stack)
        session.send("position startpos" + (f" moves {moves}" if moves else ""))
        session.send("go depth 5")
        info = session.wait_for("info depth 5 ")
        assert " score " in info and " pv " in info and " nps " in info
        best = session.wait_for("bestmove").split()[1]
        board.push_uci(best)


def test_position_fen_and_mate_score(session: Session) -> None:
    session.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 4")
    assert "score mate 1 " in session.wait_for("info depth")
    assert session.wait_for("bestmove") == "bestmove a1a8"


def test_go_variants(session: Session) -> None:
    session.send("position startpos moves e2e4 e7e5")
    session.send("go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20")
    assert Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").parse_uci(
        session.wait_for("bestmove").split()[1]
    )
    session.send("go nodes 5000")
    session.wait_for("bestmove")
    session.send("go movetime 50 searchmoves a2a3 h2h3")
    assert session.wait_for("bestmove").split()[1] in ("a2a3", "h2h3")
    session.send("go mate 1")
    session.wait_for("bestmove")
    session.send("setoption name MultiPV value 3", "go depth 4")
    multipv = [session.wait_for("info depth 4 ") for _ in range(3)]
    assert [line.split()[6] for line in multipv] == ["1", "2", "3"]
    session.wait_for("bestmove")


def test_last_info_gives_all_nodes_searched(session: Session) -> None:
    # A node budget stops the search inside an iteration, after its last line was sent: a line
    # before bestmove gives the totals, as Stockfish's does (GUIs and python-chess show the
    # last count; without it they under-reported by the unfinished iteration).
    session.send("position startpos moves e2e4 e7e5", "go nodes 20000")
    session.wait_for("bestmove")
    *_, deepest, last, bestmove = session.lines
    assert last.startswith("info nodes ") and bestmove.startswith("bestmove"), session.lines[-3:]
    nodes = int(last.split()[2])
    assert 20000 <= nodes < 20000 + 1024
    assert deepest.startswith("info depth ")
    assert int(deepest.split(" nodes ")[1].split()[0]) < nodes
    # a search that ends with an iteration (a depth limit) has nothing to add
    session.skip()
    start = len(session.lines)
    session.send("go depth 3")
    session.wait_for("bestmove")
    assert session.lines[start:][-2].startswith("info depth 3 ")


def test_infinite_waits_for_stop(session: Session) -> None:
    session.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go infinite")
    time.sleep(0.3)  # the mate is found at once, but bestmove must wait
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.send("isready")
    session.wait_for("readyok")
    session.send("stop")
    assert session.wait_for("bestmove") == "bestmove a1a8"


def test_ponder_and_ponderhit(session: Session) -> None:
    session.send("setoption name Ponder value true", "position startpos moves e2e4")
    session.send("go ponder wtime 1000 btime 1000")
    time.sleep(0.2)
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.send("ponderhit")
    line = session.wait_for("bestmove", timeout=2.0)
    assert line.split()[1] in {m.uci() for m in Board().legal_moves} | {
        m.uci() for m in _after("e2e4").legal_moves
    }


def _after(*moves: str, variant: str = "chess") -> Board:
    board = Board(variant=variant)
    for m in moves:
        board.push_uci(m)
    return board


def test_royal_chess(session: Session) -> None:
    session.send("setoption name UCI_Variant value royal", "position startpos", "go depth 4")
    best = session.wait_for("bestmove").split()[1]
    assert Board(variant="royal").parse_uci(best)
    # castling is spelled with the Rook's move; a Guard move first leads the token
    fen = "r2g1kw2r/pppp2pppp/1nb1q1b1n1/4pp4/4PP4/1NB1Q1B1N1/PPPP2PPPP/R2G1KW2R w KQkq - 0 1"
    spellings = [m.uci() for m in Board(fen, variant="royal").legal_moves]
    plain = next(text for text in spellings if len(text) == 8)
    castle = next(text for text in spellings if len(text) == 12)
    session.send(f"position fen {fen} moves {plain}", "go depth 3")
    best = session.wait_for("bestmove").split()[1]
    board = Board(fen, variant="royal")
    board.push_uci(plain)
    assert board.parse_uci(best)
    session.send(f"position fen {fen} moves {castle}", "d")
    assert fen.split()[0] not in session.wait_for("info string fen")
    session.send("position startpos moves f1h1")  # the King's move alone is not castling
    assert "error" in session.wait_for("info string")


JUNK = [
    "",
    "   ",
    "hello world",
    "go",  # no position yet is fine: the start position
    "stop",
    "go depth x",
    "go wtime",
    "go flurb 3",
    "position",
    "position fen",
    "position fen not/a/fen w - - 0 1",
    "position startpos moves e2e4 e7e5 e1e8",
    "position start",
    "setoption",
    "setoption name",
    "setoption name Hash value lots",
    "setoption name Hash value 0",
    "setoption name Threads value 0",
    "setoption name Threads value 65",
    "setoption name MultiPV value 999",
    "setoption name UCI_Variant value shogi",
    "setoption name Nonexistent value 3",
    "setoption name UCI_LimitStrength value maybe",
    "\x00\x01\x02",
    "position startpos moves " + "e2e4 " * 50,
    "go searchmoves zz99 e2e4 depth 2",
    "go depth 0",
    "go nodes 0",
    "go movetime 0",
    "go btime 50",  # White to move, only Black's clock
    "go wtime -5 btime -5",
    "debug on",
    "register later",
    "ponderhit",
    "x" * 10000,
]


def test_junk_never_breaks_the_session(session: Session) -> None:
    for line in JUNK:
        session.send(line)
        session.send("isready")
        session.wait_for("readyok")
    errors = [line for line in session.lines if line.startswith("info string error")]
    assert len(errors) >= 15
    session.send("stop", "ucinewgame")
    session.skip()
    session.send("position startpos", "go depth 3")
    assert Board().parse_uci(session.wait_for("bestmove").split()[1])


def test_strength_options(session: Session) -> None:
    session.send("setoption name Skill Level value 1", "position startpos", "go movetime 2000")
    start = time.monotonic()
    session.wait_for("bestmove")
    assert time.monotonic() - start < 1.0  # a weak level searches little
    session.send("setoption name UCI_LimitStrength value true")
    session.send("setoption name UCI_Elo value 1500", "go depth 3")
    session.wait_for("bestmove")
    session.send("setoption name Hash value 2", "setoption name Clear Hash")
    session.send("setoption name Threads value 2", "position startpos", "go movetime 200")
    assert Board().parse_uci(session.wait_for("bestmove").split()[1])
    session.send("setoption name Move Overhead value 100", "isready")
    session.wait_for("readyok")


# -- over a pipe -----------------------------------------------------------------------------


class Pipe:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            UCI_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.out: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.out.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.out.put("<eof>")

    def send(self, data: bytes | str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data.encode() if isinstance(data, str) else data)
        self.proc.stdin.flush()

    def wait_for(self, prefix: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            line = self.out.get(timeout=max(0.001, deadline - time.monotonic()))
            if line.startswith(prefix):
                return line
            assert line != "<eof>", f"engine closed before {prefix!r}"


def test_pipe_stop_within_50_ms() -> None:
    pipe = Pipe()
    try:
        pipe.send("uci\n")
        pipe.wait_for("uciok", timeout=30)
        pipe.send("position startpos moves e2e4 e7e5 g1f3\nisready\n")
        pipe.wait_for("readyok")
        worst = 0.0
        for _ in range(3):
            pipe.send("go infinite\n")
            pipe.wait_for("info depth 3 ")
            time.sleep(0.1)
            start = time.monotonic()
            pipe.send("stop\n")
            pipe.wait_for("bestmove")
            worst = max(worst, time.monotonic() - start)
        assert worst < STOP_LIMIT
        # binary junk and end of input: the server ends cleanly
        pipe.send(b"\xff\xfe junk\ngo depth 2\n")
        pipe.wait_for("bestmove")
        assert pipe.proc.stdin is not None
        pipe.proc.stdin.close()
        assert pipe.proc.wait(timeout=10) == 0
    finally:
        pipe.proc.kill()
        pipe.proc.wait()


def test_pipe_quit_during_search() -> None:
    pipe = Pipe()
    try:
        pipe.send("uci\nposition startpos\ngo infinite\n")
        pipe.wait_for("info depth 2 ", timeout=30)
        pipe.send("quit\n")
        assert pipe.proc.wait(timeout=5) == 0
    finally:
        pipe.proc.kill()
        pipe.proc.wait()


def test_python_chess_plays_and_analyses() -> None:
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=30)
    try:
        assert engine.id["name"].startswith("royalchess")
        board = chess.Board()
        # python-chess reads the Threads spin from the handshake and checks the value
        engine.configure({"Hash": 8, "Threads": 2})
        for ply in range(16):
            limit = (
                chess.engine.Limit(time=0.05)
                if ply % 2
                else chess.engine.Limit(
                    white_clock=3, black_clock=3, white_inc=0.05, black_inc=0.05
                )
            )
            result = engine.play(board, limit)
            assert result.move in board.legal_moves
            board.push(result.move)
            if board.is_game_over():
                break
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=2)
        assert len(infos) == 2
        for info in infos:
            assert info["depth"] == 6
            assert info["score"].relative.score() is not None or info["score"].is_mate()
            line = board.copy()
            for move in info["pv"]:
                assert move in line.legal_moves
                line.push(move)
        assert infos[0]["pv"][0] != infos[1]["pv"][0]
        mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=4))
        assert info["score"].relative == chess.engine.Mate(1)
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 5:
                    break
        engine.configure({"Skill Level": 5})
        assert engine.play(board, chess.engine.Limit(time=0.05)).move in board.legal_moves
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1500})
        assert engine.play(board, chess.engine.Limit(time=0.05)).move in board.legal_moves
    finally:
        engine.quit()


@pytest.mark.slow
def test_python_chess_full_games() -> None:
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=30)
    try:
        for game in range(4):
            board = chess.Board()
            engine.configure({"Skill Level": 1 + 6 * game})
            while not board.is_game_over() and board.ply() < 300:
                board.push(engine.play(board, chess.engine.Limit(time=0.01)).move)
    finally:
        engine.quit()
