"""``royalchess match``: two engines play pairs of games (each opening with colours
swapped), on the local pool or Ray, with W/D/L, pentanomial pairs, Elo, LOS and an SPRT
that stops the match as soon as it decides.

Every game is appended to the PGN as it ends; its ``Unit`` tag is its number in the match
plan (pair ``u // 2``, the first engine White in game ``u % 2 == 0``), so ``--resume``
reads the finished games back, counts them, and plays only the others. The same command
(same engines, openings, skip, seed, time control) must be given to resume.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from royalchess import pgn
from royalchess.board import Board
from royalchess.runner.backends import Backend
from royalchess.runner.openings import Opening
from royalchess.runner.output import open_output, pgn_prefix
from royalchess.runner.players import (
    Clock,
    EngineSpec,
    Forfeit,
    TimeControl,
    Turn,
    open_player,
)
from royalchess.runner.progress import progress_bar
from royalchess.runner.sprt import Sprt, estimate
from royalchess.runner.units import unit_seed

__all__ = ["Adjudication", "GameRecord", "GameUnit", "MatchPlan", "MatchStats", "run_match"]


@dataclass(frozen=True, slots=True)
class Adjudication:
    """When the runner ends a game early (scores as the engines report them).

    Resign: both engines agree one side is ahead by *resign_cp* or more for *resign_moves*
    moves each. Draw: from move *draw_after*, both engines score within *draw_cp* for
    *draw_moves* moves each. A game reaching *max_plies* is a draw. ``resign_moves`` or
    ``draw_moves`` 0 turns that rule off.
    """

    resign_cp: int = 1000
    resign_moves: int = 3
    draw_cp: int = 10
    draw_moves: int = 8
    draw_after: int = 40
    max_plies: int = 400


@dataclass(frozen=True, slots=True)
class GameUnit:
    """One game of a match."""

    id: int
    variant: str
    opening: Opening
    first: EngineSpec
    second: EngineSpec
    tc: TimeControl
    adjudication: Adjudication
    seed: int
    event: str = "royalchess match"
    date: str = "????.??.??"
    time_margin: float = 0.1

    @property
    def pair(self) -> int:
        return self.id // 2

    @property
    def first_white(self) -> bool:
        return self.id % 2 == 0

    def run(self) -> GameRecord:
        return play_game(self)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game, as a unit hands it back."""

    id: int
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2``."""
    termination: str
    """PGN ``Termination``: normal, adjudication, time forfeit, rules infraction, abandoned."""
    loser: str | None
    """``"first"`` or ``"second"``: whose forfeit it was, for forfeits."""
    plies: int
    pgn: str

    @property
    def first_score(self) -> float:
        """The first engine's points (0, 0.5 or 1)."""
        if self.result == "1/2-1/2":
            return 0.5
        return 1.0 if (self.result == "1-0") == (self.id % 2 == 0) else 0.0


def _pov_white(cp: int, white_to_move: bool) -> int:
    return cp if white_to_move else -cp


def play_game(unit: GameUnit) -> GameRecord:
    """Play *unit*'s game to its end and return it with its PGN."""
    board = unit.opening.board(unit.variant)
    book = len(board.move_stack)
    white_spec, black_spec = (
        (unit.first, unit.second) if unit.first_white else (unit.second, unit.first)
    )
    white = open_player(white_spec, unit.variant, unit_seed(unit.seed, unit.id, "white"))
    black = open_player(black_spec, unit.variant, unit_seed(unit.seed, unit.id, "black"))
    clock = None
    if unit.tc.base is not None:
        clock = Clock(unit.tc.base, unit.tc.base, unit.tc.inc, unit.time_margin)
    comments: list[str] = []
    adj = unit.adjudication
    resign_streak = 0
    resign_sign = 0
    draw_streak = 0
    result = termination = reason = ""
    loser: str | None = None
    try:
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                result, termination = outcome.result(), "normal"
                reason = outcome.termination.describe()
                break
            if board.ply() >= adj.max_plies:
                result, termination, reason = "1/2-1/2", "adjudication", "maximum length"
                break
            to_move = board.turn
            player = white if to_move else black
            turn: Turn = player.go(board, unit.tc, clock)
            if clock is not None and turn.forfeit is None:
                left = clock.left(to_move) - turn.seconds
                if left < -clock.margin:
                    turn = Turn(forfeit=_time_loss(player.name, turn.seconds))
                else:
                    left += clock.inc
                    if to_move:
                        clock.white = left
                    else:
                        clock.black = left
            if turn.forfeit is not None or turn.move is None:
                kind = turn.forfeit.kind if turn.forfeit else "abandoned"
                detail = turn.forfeit.detail if turn.forfeit else f"{player.name}: no move"
                result = "0-1" if to_move else "1-0"
                termination = {"illegal move": "rules infraction", "crash": "abandoned"}.get(
                    kind, kind
                )
                reason = detail
                loser = "first" if (to_move == unit.first_white) else "second"
                break
            comments.append("" if turn.cp is None else _score_comment(turn.cp))
            board.push(turn.move)
            if turn.cp is not None:
                white_cp = _pov_white(turn.cp, to_move)
                sign = (white_cp > 0) - (white_cp < 0)
                if abs(white_cp) >= adj.resign_cp and sign == resign_sign:
                    resign_streak += 1
                elif abs(white_cp) >= adj.resign_cp:
                    resign_sign, resign_streak = sign, 1
                else:
                    resign_streak = 0
                draw_streak = draw_streak + 1 if abs(white_cp) <= adj.draw_cp else 0
            else:
                resign_streak = draw_streak = 0
            if adj.resign_moves and resign_streak >= 2 * adj.resign_moves:
                result = "1-0" if resign_sign > 0 else "0-1"
                termination, reason = "adjudication", "resignation agreed by both engines"
                break
            if (
                adj.draw_moves
                and board.ply() >= 2 * adj.draw_after
                and draw_streak >= 2 * adj.draw_moves
            ):
                result, termination, reason = "1/2-1/2", "adjudication", "draw agreed by scores"
                break
    finally:
        white.close()
        black.close()
    return GameRecord(
        unit.id,
        result,
        termination,
        loser,
        board.ply(),
        _pgn(unit, board, book, comments, white.name, black.name, result, termination, reason),
    )


def _time_loss(name: str, seconds: float) -> Forfeit:
    return Forfeit("time forfeit", f"{name} overran its clock ({seconds:.3f} s on the move)")


def _score_comment(cp: int) -> str:
    if abs(cp) >= 90_000:
        plies = 100_000 - abs(cp)
        moves = (plies + 1) // 2
        return f"{'+' if cp > 0 else '-'}M{moves}"
    return f"{cp / 100:+.2f}"


def _pgn(
    unit: GameUnit,
    board: Board,
    book: int,
    comments: list[str],
    white: str,
    black: str,
    result: str,
    termination: str,
    reason: str,
) -> str:
    game = pgn.Game.from_board(board)
    headers = game.headers
    headers["Event"] = unit.event
    headers["Site"] = "?"
    headers["Date"] = unit.date
    headers["Round"] = f"{unit.pair + 1}.{unit.id % 2 + 1}"
    headers["White"] = white
    headers["Black"] = black
    headers["Result"] = result
    headers["Termination"] = termination
    headers["TimeControl"] = unit.tc.describe()
    headers["PlyCount"] = str(board.ply())
    headers["Unit"] = str(unit.id)
    nodes = game.mainline()
    if book and book <= len(nodes):
        nodes[book - 1].comment = "book"
    for node, text in zip(nodes[book:], comments, strict=False):
        node.comment = text
    end = game.end()
    if reason:
        end.comment = " ".join(filter(None, (end.comment, reason)))
    return pgn.write_game(game) + "\n"


# -- the plan and the statistics ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """Everything that decides the games of a match."""

    first: EngineSpec
    second: EngineSpec
    variant: str
    openings: Sequence[Opening]
    tc: TimeControl
    games: int
    seed: int = 1
    adjudication: Adjudication = Adjudication()
    sprt: Sprt | None = None
    time_margin: float = 0.1
    skip: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.skip < max(1, len(self.openings)):
            raise ValueError(
                f"cannot skip {self.skip} of {len(self.openings)} openings: "
                "give fewer than there are"
            )

    def units(self, date: str = "????.??.??") -> list[GameUnit]:
        """The games in order: pair p plays opening ``skip + p`` of the seeded order, twice.

        Skipping lets a follow-up match play the openings an earlier one (same seed) did
        not, with no file of them to keep.
        """
        order = list(range(len(self.openings)))
        random.Random(self.seed).shuffle(order)
        return [
            GameUnit(
                i,
                self.variant,
                self.openings[order[(self.skip + i // 2) % len(order)]],
                self.first,
                self.second,
                self.tc,
                self.adjudication,
                self.seed,
                date=date,
                time_margin=self.time_margin,
            )
            for i in range(self.games)
        ]


@dataclass
class MatchStats:
    """Running counts from the first engine's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    forfeits: dict[tuple[str, str], int] = field(default_factory=dict)
    """(``"first"``/``"second"``, PGN termination) -> games lost that way."""
    adjudicated: int = 0
    _pairs: dict[int, float] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        score = record.first_score
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1
        if record.loser is not None:
            key = (record.loser, record.termination)
            self.forfeits[key] = self.forfeits.get(key, 0) + 1
        if record.termination == "adjudication":
            self.adjudicated += 1
        pair = record.id // 2
        if pair in self._pairs:
            self.penta[round(2 * (self._pairs.pop(pair) + score))] += 1
        else:
            self._pairs[pair] = score

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def trinomial(self) -> list[int]:
        return [self.losses, self.draws, self.wins]


@dataclass
class MatchOutcome:
    """What :func:`run_match` did."""

    stats: MatchStats
    played: int
    resumed: int
    seconds: float
    decision: str | None
    interrupted: bool = False


def _starts_with(game: pgn.Game, unit: GameUnit) -> bool:
    """Whether *game* begins with *unit*'s opening (start position and moves)."""
    moves = unit.opening.moves
    line = game.mainline()
    if len(line) < len(moves) or [n.uci() for n in line[: len(moves)]] != list(moves):
        return False
    # the book's start position (checked when the book was read) against the game's, the
    # move counters aside: an EPD opening carries none
    book = Board(unit.opening.fen, variant=unit.variant).fen().split()[:4]
    return game.board().fen().split()[:4] == book


def _record_from_game(game: pgn.Game, units: dict[int, GameUnit]) -> GameRecord:
    unit_id = int(game.headers.get("Unit", "-1"))
    unit = units.get(unit_id)
    if unit is None:
        raise ValueError(f"game with Unit {unit_id} is not part of this match")
    names = (game.headers.get("White"), game.headers.get("Black"))
    first, second = unit.first.name, unit.second.name
    expected = (first, second) if unit.first_white else (second, first)
    if names != expected:
        raise ValueError(
            f"game {unit_id} was {names[0]} - {names[1]}, not {expected[0]} - {expected[1]}: "
            "the output file belongs to another match"
        )
    if not _starts_with(game, unit):
        raise ValueError(
            f"game {unit_id} did not open as game {unit_id} of this match does: the output "
            "file belongs to a match with other openings, --skip-openings or --seed"
        )
    termination = game.headers.get("Termination", "normal")
    result = game.headers.get("Result", "*")
    loser = None
    if termination in ("time forfeit", "rules infraction", "abandoned"):
        white_lost = result == "0-1"
        loser = "first" if white_lost == unit.first_white else "second"
    plies = int(game.headers.get("PlyCount", "0"))
    return GameRecord(unit_id, result, termination, loser, plies, "")


def run_match(
    plan: MatchPlan,
    backend: Backend,
    output: str,
    *,
    resume: bool = False,
    quiet: bool = False,
) -> MatchOutcome:
    """Play *plan* on *backend*, appending each game to the PGN file *output*."""
    units = plan.units(datetime.date.today().strftime("%Y.%m.%d"))
    by_id = {unit.id: unit for unit in units}
    stats = MatchStats()
    sink = open_output(output, resume=resume, prefix=pgn_prefix)
    done: set[int] = set()
    try:
        for game in pgn.read_games(sink.kept.decode("utf-8")):
            record = _record_from_game(game, by_id)
            if record.id not in done:
                done.add(record.id)
                stats.add(record)
    except ValueError:
        sink.close()
        raise
    resumed = len(done)
    decision = plan.sprt.decision(stats.penta) if plan.sprt and stats.penta != [0] * 5 else None
    start = time.monotonic()
    played = 0
    interrupted = False
    try:
        with progress_bar(len(units), "match", done=resumed, quiet=quiet) as bar:
            if decision is None:
                todo: Iterator[GameUnit] = (u for u in units if u.id not in done)
                results = backend.map(todo)
                try:
                    for _, record in results:
                        sink.write(record.pgn)
                        stats.add(record)
                        played += 1
                        bar(status=_status(stats, plan.sprt))
                        if plan.sprt is not None:
                            decision = plan.sprt.decision(stats.penta)
                            if decision is not None:
                                break
                finally:
                    results.close()  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close()
    return MatchOutcome(stats, played, resumed, time.monotonic() - start, decision, interrupted)


def _status(stats: MatchStats, sprt: Sprt | None) -> str:
    est = estimate(stats.penta) if sum(stats.penta) else estimate(stats.trinomial())
    text = f"+{stats.wins} ={stats.draws} -{stats.losses}  Elo {est.elo:+.1f} ± {est.elo_error:.1f}"
    if sprt is not None:
        text += f"  LLR {sprt.llr(stats.penta):+.2f}"
    return text


def summary(plan: MatchPlan, outcome: MatchOutcome, workers: int) -> str:
    """The final report, in the layout fastchess prints."""
    s = outcome.stats
    counts = s.penta if sum(s.penta) else s.trinomial()
    est = estimate(counts)
    points = s.wins + s.draws / 2
    pct = 100 * points / s.games if s.games else 0.0
    pairs = sum(s.penta)
    title = (
        f"Results of {plan.first.name} vs {plan.second.name} "
        f"({plan.variant}, {plan.tc.describe()}, {len(plan.openings)} openings"
        + (f", the first {plan.skip} skipped" if plan.skip else "")
        + f", seed {plan.seed}):"
    )
    lines = [
        title,
        f"Elo: {est.elo:.2f} +/- {est.elo_error:.2f}, nElo: {est.nelo:.2f} +/- {est.nelo_error:.2f}",
        f"LOS: {100 * est.los:.2f} %, DrawRatio: {100 * s.penta[2] / pairs if pairs else 0:.2f} %",
        f"Games: {s.games}, Wins: {s.wins}, Losses: {s.losses}, Draws: {s.draws}, "
        + f"Points: {points:.1f} ({pct:.2f} %)",
        f"Ptnml(0-2): [{', '.join(str(n) for n in s.penta)}]",
    ]
    if plan.sprt is not None:
        sp = plan.sprt
        lines.append(
            f"LLR: {sp.llr(s.penta):.2f} ({sp.lower:.2f}, {sp.upper:.2f}) "
            f"[{sp.elo0:.2f}, {sp.elo1:.2f}] {sp.model}"
        )
        if outcome.decision is not None:
            which = "H1 (elo1)" if outcome.decision == "H1" else "H0 (elo0)"
            lines.append(f"SPRT: {which} accepted")
        else:
            lines.append("SPRT: no decision yet")
    for (who, kind), count in sorted(s.forfeits.items()):
        name = plan.first.name if who == "first" else plan.second.name
        lines.append(f"Lost by {kind}: {name} {count}")
    if s.adjudicated:
        lines.append(f"Adjudicated: {s.adjudicated}")
    rate = outcome.played / outcome.seconds if outcome.seconds > 0 else 0.0
    lines.append(
        f"Played {outcome.played} games in {outcome.seconds:.1f} s on {workers} workers "
        f"({rate:.2f} games/s)" + (f"; {outcome.resumed} read back" if outcome.resumed else "")
    )
    return "\n".join(lines)
