"""Game review: every move of a saved game judged in the background, as ``royalchess
analyse`` does (:func:`royalchess.runner.analyse.review_game`, the same code).

``POST /api/games/{id}/review`` starts a job (or returns the one already running or done for
the game as it is now); ``GET`` on the same path answers its progress, then the review: the
evaluation of every position (White's side, for the graph), each move's judgement
(inaccuracy, mistake, blunder) with the better move and its line, and each side's
accuracy. ``GET .../review/pgn`` is the annotated game (``[%eval]`` comments, NAGs, the
better lines as variations). Reviews are kept in memory, the last :data:`KEEP` of them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from royalchess import pgn
from royalchess.board import Board
from royalchess.engine import Info, Limit, Score
from royalchess.runner.analyse import GameReview, MoveReview, review_game, winning_chances
from royalchess.web import pgn_io
from royalchess.web.computer import SearchStopped, Ticket
from royalchess.web.games import ApiError, GameService
from royalchess.web.live import describe_line

__all__ = ["KEEP", "REVIEW_LIMIT", "Reviews"]

REVIEW_LIMIT = Limit(depth=12, movetime=0.3)
"""The search of each position of a reviewed game."""
KEEP = 32
"""Reviews kept in memory (the oldest finished ones are dropped first)."""
_NAG_TEXT = {pgn.NAG_DUBIOUS_MOVE: "?!", pgn.NAG_MISTAKE: "?", pgn.NAG_BLUNDER: "??"}


@dataclass(eq=False)
class _Job:
    game_id: int
    ply: int
    ticket: Ticket
    total: int
    done: int = 0
    state: str = "running"  # running, done, failed, stopped
    error: str | None = None
    result: dict[str, Any] | None = None
    pgn: str | None = None
    thread: threading.Thread | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "game": self.game_id,
            "ply": self.ply,
            "state": self.state,
            "done": self.done,
            "total": self.total,
        }
        if self.error is not None:
            answer["error"] = self.error
        if self.result is not None:
            answer.update(self.result)
        return answer


def _describe_limit(limit: Limit) -> str:
    parts = []
    if limit.depth is not None:
        parts.append(f"depth={limit.depth}")
    if limit.nodes is not None:
        parts.append(f"nodes={limit.nodes}")
    if limit.movetime is not None:
        parts.append(f"movetime={round(limit.movetime * 1000)}ms")
    return " ".join(parts)


class Reviews:
    """The review jobs of the app, one per game (its latest)."""

    def __init__(self, service: GameService, limit: Limit = REVIEW_LIMIT) -> None:
        self.service = service
        self.limit = limit
        self._jobs: dict[int, _Job] = {}
        self._lock = threading.Lock()

    def start(self, game_id: int) -> dict[str, Any]:
        """Start reviewing game *game_id* as it is now; return the job's status. A review of
        the game at the same move, running or done, is reused."""
        rec, start, board = self.service.game_record(game_id)
        if not board.move_stack:
            raise ApiError(409, "there is no move to review yet")
        ply = len(board.move_stack)
        with self._lock:
            job = self._jobs.get(game_id)
            if job is not None and job.ply == ply and job.state in ("running", "done"):
                return job.status()
            if job is not None:
                self.service.computer.cancel(job.ticket)
            text = pgn_io.export(rec, start, board)
            job = _Job(game_id, ply, Ticket(None), total=ply + 1)
            self._jobs[game_id] = job
            self._forget_old()
        job.thread = threading.Thread(
            target=self._run, args=(job, text), name=f"royalchess-review-{game_id}", daemon=True
        )
        job.thread.start()
        return job.status()

    def status(self, game_id: int) -> dict[str, Any]:
        """The review of game *game_id*: its progress, or the review once done; 404 when
        none was started (since the server started)."""
        with self._lock:
            job = self._jobs.get(game_id)
        if job is None:
            raise ApiError(404, f"game {game_id} has not been reviewed: POST to start")
        return job.status()

    def annotated_pgn(self, game_id: int) -> str:
        """The annotated PGN of a finished review (409 while it runs)."""
        status = self.status(game_id)
        with self._lock:
            job = self._jobs[game_id]
        if job.pgn is None:
            raise ApiError(409, f"the review of game {game_id} is not finished ({status['state']})")
        return job.pgn

    def stop(self, game_id: int) -> None:
        """Stop the review of *game_id*, if one runs."""
        with self._lock:
            job = self._jobs.get(game_id)
        if job is not None and job.state == "running":
            self.service.computer.cancel(job.ticket)

    def _forget_old(self) -> None:
        """Drop the oldest reviews beyond :data:`KEEP` (finished first); under the lock."""
        while len(self._jobs) > KEEP:
            finished = [g for g, j in self._jobs.items() if j.state != "running"]
            victim = finished[0] if finished else next(iter(self._jobs))
            self.service.computer.cancel(self._jobs.pop(victim).ticket)

    def _run(self, job: _Job, text: str) -> None:
        game = pgn.read_game(text)
        assert game is not None and not game.errors, "our own export reads back cleanly"

        def search(board: Board) -> Info | None:
            lines = self.service.computer.analyse(board, self.limit, ticket=job.ticket)
            return lines[0] if lines else None

        def progress(done: int, total: int) -> None:
            job.done = done

        try:
            review = review_game(game, search, on_position=progress)
            game.headers["Annotator"] = "royalchess review " + _describe_limit(self.limit)
            job.result = self._result(review)
            job.pgn = pgn.write_game(game) + "\n"
            job.state = "done"
        except SearchStopped:
            job.state = "stopped"
            job.error = "the review was stopped"
        except Exception as exc:  # noqa: BLE001 - a bug: show it, keep the server up
            job.state = "failed"
            job.error = f"internal error: {type(exc).__name__}: {exc}"

    def _result(self, review: GameReview) -> dict[str, Any]:
        boards = [review.game.board()]
        for move in review.game.mainline_moves():
            boards.append(boards[-1].copy())
            boards[-1].push(move)
        evals = [_eval(boards[0], review.moves[0].before if review.moves else None)]
        moves = []
        counts = {c: {"inaccuracy": 0, "mistake": 0, "blunder": 0} for c in ("white", "black")}
        for m in review.moves:
            after = boards[m.ply]
            evals.append(_eval(after, m.after))
            color = "white" if m.mover else "black"
            if m.judgement is not None:
                counts[color][m.judgement.lower()] += 1
            moves.append(self._move(boards[m.ply - 1], m, color))
        return {
            "white_accuracy": _round(review.white_accuracy),
            "black_accuracy": _round(review.black_accuracy),
            "counts": counts,
            "evals": evals,
            "moves": moves,
        }

    def _move(self, before: Board, m: MoveReview, color: str) -> dict[str, Any]:
        best = None
        if m.best is not None and m.before is not None:
            line = describe_line(before, m.before, self.service)
            best = {
                "uci": m.best.uci(),
                "san": before.san(m.best),
                "line": line["san"],
                "arrows": self.service.arrows(before, m.best),
                "cp": line["cp"],
                "mate": line["mate"],
            }
        return {
            "ply": m.ply,
            "san": m.san,
            "uci": m.move.uci(),
            "color": color,
            "judgement": m.judgement,
            "nag": None if m.nag is None else _NAG_TEXT[m.nag],
            "accuracy": _round(m.accuracy),
            "best": best,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _eval(board: Board, info: Info | None) -> dict[str, Any]:
    """The evaluation of one position from White's side: centipawns or mate, and White's
    winning chances (-1 to 1, for the graph). A position without a search is over: mate
    (the side to move lost) or a draw."""
    if info is None:
        outcome = board.outcome()
        winner = None if outcome is None else outcome.winner
        chances = 0.0 if winner is None else 1.0 if winner else -1.0
        return {"cp": None, "mate": None, "chances": chances, "over": True}
    sign = 1 if board.turn else -1
    score: Score = info.score
    if score.mate is not None:
        cp = 1000 if score.mate > 0 else -1000
        mate: int | None = sign * score.mate
        white_cp = None
    else:
        cp, mate, white_cp = score.cp or 0, None, sign * (score.cp or 0)
    return {
        "cp": white_cp,
        "mate": mate,
        "chances": round(sign * winning_chances(cp), 4),
        "over": False,
    }
