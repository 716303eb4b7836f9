"""``royalchess analyse``: every move of every game evaluated, annotated as lichess does.

Each position of a game's main line is searched once at full strength (fixed depth, nodes
or time). The move from position *i* to *i + 1* is judged by how much it lowers the mover's
winning chances, ``2 / (1 + exp(-0.00368208 * cp)) - 1`` with centipawns capped at +-1000
(a mate counts as 1000), the curve and thresholds lichess uses: a drop of 0.1 is an
inaccuracy (``?!``, NAG 6), 0.2 a mistake (``?``, NAG 2), 0.3 a blunder (``??``, NAG 4). Such
a move gets the engine's better line as a variation and a comment ``Blunder. Qxe5 was
best.``. Every move gets ``[%eval 0.35]`` / ``[%eval #-2]`` (White's point of view, the
position after the move; none after a move that ends the game), which lichess and
python-chess read. Each side's accuracy is lichess's move accuracy,
``103.1668 * exp(-0.04354 * (win% drop)) - 3.1669`` clamped to 0-100, averaged over its
moves, in the ``WhiteAccuracy`` and ``BlackAccuracy`` tags.

Games are written in the order they finish, each with a ``Unit`` tag (its number in the
input, from 1), which ``--resume`` reads back. Malformed games (any reading error) are
reported with their number, line and reason, and skipped.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from royalchess import pgn
from royalchess.board import Board
from royalchess.engine import Engine, Info, Limit, Score
from royalchess.move import Move
from royalchess.runner.backends import Backend
from royalchess.runner.output import open_output, pgn_prefix
from royalchess.runner.progress import progress_bar

__all__ = [
    "AnalyseUnit",
    "AnalysedGame",
    "GameReview",
    "MoveReview",
    "Skipped",
    "accuracy",
    "read_input",
    "review_game",
    "run_analyse",
    "winning_chances",
]

_INACCURACY, _MISTAKE, _BLUNDER = 0.1, 0.2, 0.3
_NAMES = {
    pgn.NAG_DUBIOUS_MOVE: "Inaccuracy",
    pgn.NAG_MISTAKE: "Mistake",
    pgn.NAG_BLUNDER: "Blunder",
}
_EVAL_RE = re.compile(r"\s*\[%eval [^\]]*\]\s*")
_PV_PLIES = 8


def winning_chances(cp: int) -> float:
    """The lichess winning chances (-1 to 1) of a score, centipawns capped at +-1000."""
    cp = max(-1000, min(1000, cp))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def accuracy(win_before: float, win_after: float) -> float:
    """lichess's accuracy of one move from the mover's win% (0-100) before and after."""
    value = 103.1668 * math.exp(-0.04354 * (win_before - win_after)) - 3.1669
    return max(0.0, min(100.0, value))


def _cp(score: Score) -> int:
    if score.mate is not None:
        return 1000 if score.mate > 0 else -1000
    return score.cp or 0


def _eval_text(score: Score, white_to_move: bool) -> str:
    """``[%eval ...]`` text from White's side for *score* (side to move's)."""
    if score.mate is not None:
        mate = score.mate if white_to_move else -score.mate
        return f"#{mate}"
    cp = (score.cp or 0) if white_to_move else -(score.cp or 0)
    return f"{cp / 100:.2f}"


@dataclass(frozen=True, slots=True)
class AnalyseUnit:
    """One game to analyse: its PGN text and the search limit for each position."""

    id: int
    text: str
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    hash_mb: int = 16

    def run(self) -> AnalysedGame:
        return analyse_game(self)


@dataclass(frozen=True, slots=True)
class AnalysedGame:
    """An annotated game as a unit hands it back."""

    id: int
    pgn: str
    positions: int
    white_accuracy: float | None
    black_accuracy: float | None
    judgements: tuple[int, int, int]
    """Inaccuracies, mistakes, blunders (both sides)."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """A malformed input game: its number, first line, and the reason."""

    number: int
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"game {self.number}{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class MoveReview:
    """The judgement of one move of a game's main line."""

    ply: int
    """The move's number in the game, from 1."""
    move: Move
    san: str
    mover: bool
    """The side that made the move (``True``: White)."""
    before: Info | None
    """The search of the position before the move (``None``: the game was over)."""
    after: Info | None
    """The search of the position after it (``None``: the move ended the game)."""
    chances_before: float | None
    """The mover's winning chances (-1 to 1) before the move, and after it."""
    chances_after: float | None
    accuracy: float | None
    """lichess's accuracy of the move (0-100)."""
    nag: int | None
    """``NAG_DUBIOUS_MOVE``, ``NAG_MISTAKE``, ``NAG_BLUNDER`` or ``None``."""
    best: Move | None
    """The engine's better move, for a judged move."""

    @property
    def judgement(self) -> str | None:
        """``"Inaccuracy"``, ``"Mistake"``, ``"Blunder"`` or ``None``."""
        return None if self.nag is None else _NAMES[self.nag]


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every move of a game judged; the game itself is annotated in place."""

    game: pgn.Game
    moves: tuple[MoveReview, ...]
    white_accuracy: float | None
    black_accuracy: float | None

    @property
    def judgements(self) -> tuple[int, int, int]:
        """Inaccuracies, mistakes, blunders (both sides)."""
        nags = [m.nag for m in self.moves]
        return (
            nags.count(pgn.NAG_DUBIOUS_MOVE),
            nags.count(pgn.NAG_MISTAKE),
            nags.count(pgn.NAG_BLUNDER),
        )


def review_game(
    game: pgn.Game,
    search: Callable[[Board], Info | None],
    *,
    on_position: Callable[[int, int], object] | None = None,
) -> GameReview:
    """Search every position of *game*'s main line with *search* (the best line of a
    full-strength search, or ``None``), judge each move and annotate *game* in place:
    ``[%eval]`` comments, NAGs, the better line as a variation, the accuracy tags.

    *on_position(done, total)* is called after each position searched.
    """
    board = game.board()
    nodes = game.mainline()
    total = len(nodes) + 1
    # evaluations[i]: the search of the position before move i (i == len: the last one)
    evaluations: list[Info | None] = []
    boards: list[Board] = []
    for i in range(total):
        boards.append(board.copy())
        evaluations.append(None if board.is_game_over() else search(board))
        if on_position is not None:
            on_position(i + 1, total)
        if i < len(nodes):
            move = nodes[i].move
            assert move is not None
            board.push(move)
    accuracies: dict[bool, list[float]] = {True: [], False: []}
    reviews: list[MoveReview] = []
    for i, node in enumerate(nodes):
        before, after = boards[i], boards[i + 1]
        assert node.move is not None
        mover = before.turn
        node.comment = _EVAL_RE.sub(" ", node.comment).strip()
        info_before, info_after = evaluations[i], evaluations[i + 1]
        if info_after is not None:
            node.comment = f"[%eval {_eval_text(info_after.score, after.turn)}] " + node.comment
            node.comment = node.comment.strip()
        review = MoveReview(
            i + 1, node.move, before.san(node.move), mover, info_before, info_after,
            None, None, None, None, None,
        )  # fmt: skip
        if info_before is None:
            reviews.append(review)
            continue
        chances_before = winning_chances(_cp(info_before.score))
        if info_after is not None:
            chances_after = -winning_chances(_cp(info_after.score))
        else:  # the move ended the game: mate (the mover won) or a draw
            outcome = after.outcome()
            won = outcome is not None and outcome.winner == mover
            chances_after = 1.0 if won else 0.0
        drop = chances_before - chances_after
        move_accuracy = accuracy(50 + 50 * chances_before, 50 + 50 * chances_after)
        accuracies[mover].append(move_accuracy)
        nag = (
            pgn.NAG_BLUNDER
            if drop >= _BLUNDER
            else pgn.NAG_MISTAKE
            if drop >= _MISTAKE
            else pgn.NAG_DUBIOUS_MOVE
            if drop >= _INACCURACY
            else None
        )
        best = info_before.move
        if nag is None or best is None or best == node.move:
            nag = best = None
        reviews.append(
            replace(
                review,
                chances_before=chances_before,
                chances_after=chances_after,
                accuracy=move_accuracy,
                nag=nag,
                best=best,
            )
        )
        if nag is None or best is None:
            continue
        node.nags.add(nag)
        note = f"{_NAMES[nag]}. {before.san(best)} was best."
        node.comment = f"{node.comment} {note}".strip()
        parent = node.parent
        assert parent is not None
        line = parent.add_line(info_before.pv[:_PV_PLIES])
        line.comment = f"[%eval {_eval_text(info_before.score, mover)}]"
    white = _mean(accuracies[True])
    black = _mean(accuracies[False])
    if white is not None:
        game.headers["WhiteAccuracy"] = f"{white:.1f}"
    if black is not None:
        game.headers["BlackAccuracy"] = f"{black:.1f}"
    return GameReview(game, tuple(reviews), white, black)


def analyse_game(unit: AnalyseUnit) -> AnalysedGame:
    """Search every position of the game's main line and annotate it."""
    game = pgn.read_game(unit.text)
    assert game is not None and not game.errors, "analyse units carry games read cleanly"
    engine = Engine(hash_mb=unit.hash_mb)
    limit = Limit(depth=unit.depth, nodes=unit.nodes, movetime=unit.movetime)

    def search(board: Board) -> Info | None:
        lines = engine.analyse(board, limit)
        return lines[0] if lines else None

    review = review_game(game, search)
    game.headers["Annotator"] = "royalchess analyse " + _describe(unit)
    game.headers["Unit"] = str(unit.id)
    return AnalysedGame(
        unit.id,
        pgn.write_game(game) + "\n",
        len(review.moves) + 1,
        review.white_accuracy,
        review.black_accuracy,
        review.judgements,
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _describe(unit: AnalyseUnit) -> str:
    if unit.depth is not None:
        return f"depth={unit.depth}"
    if unit.nodes is not None:
        return f"nodes={unit.nodes}"
    return f"movetime={round((unit.movetime or 0) * 1000)}ms"


def read_input(text: str) -> tuple[list[tuple[int, str]], list[Skipped]]:
    """Split PGN *text* into clean games ``(number, pgn)`` and the malformed ones."""
    good: list[tuple[int, str]] = []
    bad: list[Skipped] = []
    for number, game in enumerate(pgn.read_games(text), 1):
        if game.errors:
            error = game.errors[0]
            reason = str(error)
            if error.line is not None:
                reason = reason.removeprefix(f"line {error.line}: ")
            bad.append(Skipped(number, error.line, reason))
            continue
        if not game.mainline():
            bad.append(Skipped(number, None, "no moves"))
            continue
        good.append((number, pgn.write_game(game)))
    return good, bad


@dataclass
class AnalyseOutcome:
    """What :func:`run_analyse` did."""

    analysed: int
    resumed: int
    skipped: list[Skipped]
    positions: int
    judgements: list[int]
    seconds: float
    interrupted: bool = False


def run_analyse(
    text: str,
    backend: Backend,
    output: str,
    *,
    depth: int | None = None,
    nodes: int | None = None,
    movetime: float | None = None,
    resume: bool = False,
    quiet: bool = False,
) -> AnalyseOutcome:
    """Analyse every clean game of PGN *text* on *backend* into the PGN file *output*."""
    games, skipped = read_input(text)
    sink = open_output(output, resume=resume, prefix=pgn_prefix)
    done = {int(g.headers.get("Unit", "0")) for g in pgn.read_games(sink.kept.decode("utf-8"))}
    units: Iterator[AnalyseUnit] = (
        AnalyseUnit(number, body, depth, nodes, movetime)
        for number, body in games
        if number not in done
    )
    judgements = [0, 0, 0]
    positions = analysed = 0
    interrupted = False
    start = time.monotonic()
    try:
        with progress_bar(len(games), "analyse", done=len(done), quiet=quiet) as bar:
            results = backend.map(units)
            try:
                for _, result in results:
                    sink.write(result.pgn)
                    analysed += 1
                    positions += result.positions
                    judgements = [a + b for a, b in zip(judgements, result.judgements, strict=True)]
                    bar()
            finally:
                results.close()  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close()
    return AnalyseOutcome(
        analysed, len(done), skipped, positions, judgements, time.monotonic() - start, interrupted
    )
