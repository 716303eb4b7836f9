"""A game in progress, the one implementation the web app and the terminal both use.

A :class:`GameSession` is one game: its start position and moves replayed on a
:class:`~royalchess.board.Board`, who plays each side (``human`` or ``computer``), the
computer's level and the result. Its actions are what a player does: play a move, let the
computer move, take back, resign, claim a draw, change the players. Each is checked here
against the state of play and then saved with a *checked* write: the store refuses it
(:class:`~royalchess.store.GameChangedError`) unless the saved game still has the number of
moves this session saw and, for a move or a result, no result yet. That is optimistic
concurrency: a game open in two browser tabs and in the terminal is never written from a
position its writer did not see, never gets a gap, and the computer never plays a human's
side. A refused write raises :class:`ConflictError` (HTTP 409 in the web app: "reload").

A session with no store (``store=None``) keeps nothing; one with a store but no id yet (the
terminal's new game) is saved whole by its first write.

>>> from royalchess.store import GameStore
>>> store = GameStore(":memory:")
>>> game = GameSession.create(Board(), store=store, mode="two-players")
>>> game.play("e4", ply=0)
'e4'
>>> other = GameSession.load(store, game.game_id)   # another window on the same game
>>> _ = game.play("e5", ply=1)
>>> other.play("c5", ply=1)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
royalchess.session.ConflictError: the game changed in another window: reload
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, Protocol

from royalchess import explain
from royalchess.board import Board
from royalchess.clock import (
    DRAWN_ON_TIME,
    LOST_ON_TIME,
    Clocks,
    Now,
    TimeControl,
    time_out_result,
)
from royalchess.errors import ChessError
from royalchess.move import WHITE, Move
from royalchess.outcome import Outcome, Termination
from royalchess.store import GameChangedError, GameNotFoundError, GameRecord, GameStore

__all__ = [
    "COLORS",
    "COMPUTER",
    "DEFAULT_LEVEL",
    "HUMAN",
    "MODES",
    "RELOAD",
    "ConflictError",
    "GameError",
    "GameGoneError",
    "GameSession",
    "Player",
    "color_name",
    "players",
    "read_move",
    "reason",
    "result_text",
]

MODES = ("vs-computer", "two-players", "computer-vs-computer")
"""How the two sides are played."""
HUMAN, COMPUTER = "human", "computer"
COLORS = ("white", "black")
DEFAULT_LEVEL = 4
"""The computer's level when none is chosen."""

_SEEN_EVERY = 5.0
"""Seconds between two saves of a running clock's sign of life (well under PAUSE_AFTER)."""

RELOAD = "the game changed in another window: reload"
"""What a refused write says (the game was changed by another window, tab or process)."""

_REASONS = {
    Termination.CHECKMATE: "checkmate",
    Termination.STALEMATE: "stalemate",
    Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    Termination.SEVENTYFIVE_MOVES: "the seventy-five-move rule",
    Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    Termination.FIFTY_MOVES: "the fifty-move rule (claimed)",
    Termination.THREEFOLD_REPETITION: "threefold repetition (claimed)",
}


class GameError(Exception):
    """An action the game does not allow now, or bad input: a status (HTTP's: 400 bad input,
    404 no such game, 409 not now) and a message for the player. The game is unchanged."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ConflictError(GameError):
    """The game was changed elsewhere since this session read it: nothing was written."""

    def __init__(self, message: str = RELOAD) -> None:
        super().__init__(409, message)


class GameGoneError(GameError):
    """The game is not in the store (deleted, or never there)."""

    def __init__(self, message: str) -> None:
        super().__init__(404, message)


class Player(Protocol):
    """What a session needs of the computer (:class:`royalchess.web.computer.Computer`)."""

    def play(self, board: Board, level: int, **where: Any) -> Move: ...


def color_name(color: bool) -> str:
    """``'white'`` or ``'black'``."""
    return "white" if color else "black"


def players(mode: str, color: bool = WHITE) -> tuple[str, str]:
    """Who plays White and Black in *mode*; *color* is the human's side against the computer."""
    if mode == "vs-computer":
        return (HUMAN, COMPUTER) if color == WHITE else (COMPUTER, HUMAN)
    if mode == "two-players":
        return HUMAN, HUMAN
    if mode == "computer-vs-computer":
        return COMPUTER, COMPUTER
    raise GameError(400, f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")


def reason(outcome: Outcome) -> str:
    """How a game ended, as saved and shown: ``'checkmate'``, ``'threefold repetition
    (claimed)'``..."""
    return _REASONS[outcome.termination]


def result_text(result: str, termination: str | None) -> str:
    """``'White wins by checkmate'``, ``'Draw by stalemate'``; ``''`` for a game going on."""
    if result == "*":
        return ""
    if termination == LOST_ON_TIME and result in ("1-0", "0-1"):
        return f"{'Black' if result == '1-0' else 'White'} lost on time"
    if termination == DRAWN_ON_TIME and result == "1/2-1/2":
        return f"Draw: {termination}"
    if result == "1/2-1/2":
        return f"Draw by {termination}" if termination else "Draw"
    winner = "White" if result == "1-0" else "Black"
    return f"{winner} wins by {termination}" if termination else f"{winner} wins"


def read_move(board: Board, text: str) -> Move:
    """Read *text* as UCI when it is spelled so, else as SAN; a move that is not legal raises
    the board's error kind with the coach's words (:mod:`royalchess.explain`) as message."""
    return explain.read_move(board, text)


def _check_level(level: object) -> int:
    if type(level) is not int or not 1 <= level <= 20:
        raise GameError(400, f"level must be a whole number from 1 to 20, not {level!r}")
    return level


def _root(board: Board) -> Board:
    """The position *board* started from, before its moves."""
    root = board.copy()
    for _ in range(len(root.move_stack)):
        root.pop()
    return Board(root.fen(), variant=root.variant)


class GameSession:
    """One game: replayed from the store (or set up), played with checked writes."""

    def __init__(
        self,
        start: Board,
        moves: Iterable[Move] = (),
        *,
        store: GameStore | None = None,
        game_id: int | None = None,
        mode: str = "two-players",
        white: str = HUMAN,
        black: str = HUMAN,
        level: int = DEFAULT_LEVEL,
        result: str = "*",
        termination: str | None = None,
        record: GameRecord | None = None,
        clock: Clocks | None = None,
        now: Now = time.time,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.start = Board(start.fen(), variant=start.variant)
        self.board = self.start.copy()
        self.sans: list[str] = [self.board.san_and_push(move) for move in moves]
        self.mode, self.white, self.black, self.level = mode, white, black, level
        self.result, self.termination = result, termination
        self.record = record
        """The record this session was read from, if it was (its dates and tags)."""
        self.clock = clock
        """The game's clocks (:mod:`royalchess.clock`); ``None``: played without a clock."""
        self.now = now
        """The time source of the clocks (wall time; a fake one in tests)."""
        self.present = False
        """Whether this session's process is with the player the whole time (the terminal):
        its moves are charged all their time, not only up to the last sign of life."""

    # -- making one ---------------------------------------------------------------------------

    @classmethod
    def from_record(
        cls, rec: GameRecord, store: GameStore | None = None, *, now: Now = time.time
    ) -> GameSession:
        """The saved game *rec*, replayed; :class:`GameError` (409) if it does not replay."""
        try:
            start = Board(rec.start_fen, variant=rec.variant)
            board = start.copy()
            moves = [board.push_uci(uci) for uci in rec.moves]
            clock = None
            if rec.clock_base is not None:
                control = TimeControl(rec.clock_base, rec.clock_increment or 0.0)
                white, black = rec.white_time, rec.black_time
                clock = Clocks(
                    control,
                    control.base if white is None else white,
                    control.base if black is None else black,
                    rec.clock_since,
                    rec.clock_seen,
                )
        except (ChessError, ValueError) as exc:
            raise GameError(409, f"game {rec.id} cannot be read: {exc}") from None
        return cls(
            start,
            moves,
            store=store,
            game_id=rec.id,
            mode=rec.mode,
            white=rec.white,
            black=rec.black,
            level=rec.level,
            result=rec.result,
            termination=rec.termination,
            record=rec,
            clock=clock,
            now=now,
        )

    @classmethod
    def load(cls, store: GameStore, game_id: int, *, now: Now = time.time) -> GameSession:
        """Game *game_id* as saved now; :class:`GameGoneError` if there is none."""
        try:
            rec = store.get(game_id)
        except GameNotFoundError as exc:
            raise GameGoneError(str(exc)) from None
        return cls.from_record(rec, store, now=now)

    @classmethod
    def create(
        cls,
        board: Board,
        *,
        store: GameStore | None = None,
        mode: str = "vs-computer",
        color: bool = WHITE,
        level: int = DEFAULT_LEVEL,
        save: bool = True,
        time_control: TimeControl | None = None,
        now: Now = time.time,
    ) -> GameSession:
        """A new game from *board* (its moves so far are kept); *color* is the human's side
        against the computer; *time_control* its clocks (``None``: none), running from now.
        Saved at once with *save*, else by its first write."""
        white, black = players(mode, color)
        session = cls(
            _root(board),
            board.move_stack,
            store=store,
            mode=mode,
            white=white,
            black=black,
            level=_check_level(level),
            now=now,
        )
        outcome = session.board.outcome()
        if outcome is not None:
            session.result, session.termination = outcome.result(), reason(outcome)
        if time_control is not None:
            session.clock = Clocks.start(time_control, now=None if outcome else now())
        if save:
            session._create()
        return session

    def reload(self) -> None:
        """Read the game again as saved (after a :class:`ConflictError`)."""
        if self.store is None or self.game_id is None:
            return
        fresh = GameSession.load(self.store, self.game_id, now=self.now)
        fresh.present = self.present
        self.__dict__.update(fresh.__dict__)

    def same_as_saved(self) -> bool | None:
        """Whether the saved game is as this session has it (``None``: it is gone)."""
        if self.store is None or self.game_id is None:
            return True
        try:
            rec = self.store.get(self.game_id)
        except GameNotFoundError:
            return None
        ours = [move.uci() for move in self.board.move_stack]
        return (rec.moves, rec.result, rec.mode, rec.white, rec.black, rec.level) == (
            ours,
            self.result,
            self.mode,
            self.white,
            self.black,
            self.level,
        )

    # -- the state of play ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """The number of moves played: what a write made from this view carries."""
        return len(self.board.move_stack)

    @property
    def finished(self) -> bool:
        """Whether the game has a result."""
        return self.result != "*"

    def player(self, color: bool) -> str:
        """``'human'`` or ``'computer'``: who plays *color*."""
        return self.white if color else self.black

    @property
    def human_side(self) -> bool | None:
        """The human's colour against the computer, else ``None``."""
        if self.mode != "vs-computer":
            return None
        return WHITE if self.white == HUMAN else not WHITE

    @property
    def computer_to_move(self) -> bool:
        """Whether the computer is to move (and the game goes on)."""
        return not self.finished and self.player(self.board.turn) == COMPUTER

    @property
    def result_text(self) -> str:
        """``'White wins by checkmate'``; ``''`` while the game goes on."""
        return result_text(self.result, self.termination)

    def check_ply(self, ply: int | None) -> None:
        """Refuse a request made in another position than the game has now (*ply* is the
        number of moves it was made at; ``None``: made here, at this session's own view)."""
        if ply is None:
            return
        if type(ply) is not int or ply < 0:
            raise GameError(400, f"ply must be the number of moves played, not {ply!r}")
        if ply != self.ply:
            raise ConflictError()

    def check_playing(self) -> None:
        """Refuse a move or a result in a game that is over (or just lost on time: the
        flag is looked at first, and its result saved)."""
        self.check_flag()
        if self.finished:
            raise GameError(409, f"the game is over: {self.result_text}")

    # -- actions ----------------------------------------------------------------------------

    def play(self, move: Move | str, *, ply: int | None = None) -> str:
        """Play a human's *move* (a Move, or UCI or SAN text) and save it; return its SAN."""
        self.check_ply(ply)
        self.check_playing()
        if self.player(self.board.turn) != HUMAN:
            raise GameError(409, "it is the computer's turn")
        if isinstance(move, str):
            move = read_move(self.board, move.strip())
        elif move not in self.board.legal_moves:
            raise GameError(400, explain.explain_move(self.board, move))
        return self._push(move)

    def check_computer_turn(self, *, ply: int | None = None, for_human: bool = False) -> None:
        """Refuse a computer move unless the computer is to move (or, *for_human*, a human
        asked it to play their move) in the position the request was made in."""
        self.check_ply(ply)
        self.check_playing()
        if self.board.outcome() is not None:
            raise GameError(409, "the game is over")
        if not for_human and self.player(self.board.turn) != COMPUTER:
            side = color_name(self.board.turn).capitalize()
            raise GameError(409, f"it is not the computer's turn: {side} is played by a person")

    def computer_move(
        self,
        computer: Player,
        *,
        ply: int | None = None,
        for_human: bool = False,
        **where: Any,
    ) -> tuple[Move, str]:
        """Let *computer* choose the move for the side to move and save it; return it with
        its SAN. The save re-checks the game: changed meanwhile, it raises ConflictError.

        *where* goes to ``computer.play`` (``game=``, ``ticket=``: which search it is).
        """
        self.check_computer_turn(ply=ply, for_human=for_human)
        move = computer.play(self.board, self.level, **where)
        return move, self.save_computer_move(move)

    def save_computer_move(self, move: Move) -> str:
        """Save the computer's *move*, found in this position: the game must still be here."""
        if move not in self.board.legal_moves:
            raise ConflictError()
        if self.check_flag(present=True):  # it thought past its time: the move is not played
            raise GameError(409, f"the game is over: {self.result_text}")
        return self._push(move, present=True)  # the server (or terminal) searched all along

    def takeback_plies(self) -> int:
        """How many moves a takeback takes back: against the computer, your move and the
        computer's reply (back to your previous turn); else the last move."""
        played = self.ply
        if not played:
            raise GameError(409, "no move to take back")
        human = self.human_side
        if human is None:
            return 1
        plies = 1
        while plies < played and self._turn_before(plies) != human:
            plies += 1
        if self._turn_before(plies) != human:
            raise GameError(409, "no move of yours to take back")
        return plies

    def takeback(self, plies: int | None = None, *, ply: int | None = None) -> list[str]:
        """Take back *plies* moves (default: :meth:`takeback_plies`) and save; the game is
        unfinished again. Return the SANs taken back, in the order they were played."""
        self.check_ply(ply)
        if plies is None:
            plies = self.takeback_plies()
        if type(plies) is not int or plies < 1:
            raise GameError(400, f"plies must be a positive whole number, not {plies!r}")
        played = self.ply
        if plies > played:
            raise GameError(
                409, "no move to take back" if not played else f"only {played} moves were played"
            )
        clock = self.clock
        if clock is not None:  # times left are kept; the new side to move's clock runs
            now = self.now()
            clock = clock.paused(self.board.turn, now, present=self.present).resumed_at(now)
        self._write(
            lambda store, game_id: store.truncate(game_id, played - plies, ply=played, clock=clock)
        )
        self.clock = clock
        taken = []
        for _ in range(plies):
            self.board.pop()
            taken.append(self.sans.pop())
        self.result, self.termination = "*", None
        return taken[::-1]

    def resign(self, color: bool | None = None, *, ply: int | None = None) -> bool:
        """The side *color* resigns (default: the human to move, else the only human, else
        the side to move); save and return the side that resigned."""
        self.check_ply(ply)
        self.check_playing()
        if color is None:
            turn = self.board.turn
            humans = [c for c in (WHITE, not WHITE) if self.player(c) == HUMAN]
            color = turn if self.player(turn) == HUMAN or not humans else humans[0]
        self._end("0-1" if color else "1-0", "resignation")
        return color

    def claim_draw(self, *, ply: int | None = None) -> Outcome:
        """Claim a draw (threefold repetition or the fifty-move rule) if one can be claimed."""
        self.check_ply(ply)
        self.check_playing()
        outcome = self.board.outcome(claim_draw=True)
        if outcome is None:
            raise GameError(409, "no draw can be claimed now (threefold repetition or fifty moves)")
        self._end(outcome.result(), reason(outcome))
        return outcome

    def set_players(
        self,
        *,
        mode: str | None = None,
        color: bool | None = None,
        level: int | None = None,
        ply: int | None = None,
    ) -> None:
        """Change the mode, the human's colour against the computer, or the level; save."""
        self.check_ply(ply)
        mode = mode or self.mode
        level = self.level if level is None else _check_level(level)
        if color is None:
            color = self.human_side if self.human_side is not None else WHITE
        white, black = players(mode, color)
        self._write(
            lambda store, game_id: store.update_settings(
                game_id, mode=mode, white=white, black=black, level=level, ply=self.ply
            )
        )
        self.mode, self.white, self.black, self.level = mode, white, black, level

    # -- saving -----------------------------------------------------------------------------

    def _push(self, move: Move, *, present: bool = False) -> str:
        ply, before = self.ply, (self.result, self.termination, self.clock)
        turn = self.board.turn
        san = self.board.san_and_push(move)
        self.sans.append(san)
        outcome = self.board.outcome()
        if outcome is not None:
            self.result, self.termination = outcome.result(), reason(outcome)
        if self.clock is not None:
            now = self.now()
            self.clock = self.clock.after_move(turn, now, present=present or self.present)
            if outcome is not None:
                self.clock = self.clock.paused(not turn, now)
        try:
            if self.store is not None and self.game_id is None:
                self._create()  # a game not saved yet is saved whole with its first move
            else:
                self._write(
                    lambda store, game_id: store.append_move(
                        game_id,
                        ply,
                        move.uci(),
                        result=self.result,
                        termination=self.termination,
                        clock=self.clock,
                    )
                )
        except BaseException:
            self.board.pop()
            self.sans.pop()
            self.result, self.termination, self.clock = before
            raise
        return san

    def _end(self, result: str, termination: str, clock: Clocks | None = None) -> None:
        ply = self.ply
        if clock is None and self.clock is not None:
            clock = self.clock.paused(self.board.turn, self.now(), present=self.present)
        self._write(
            lambda store, game_id: store.set_result(
                game_id, result, termination, ply=ply, clock=clock
            )
        )
        self.result, self.termination, self.clock = result, termination, clock
        if self.store is not None and self.game_id is None:
            self._create()

    # -- the clocks -------------------------------------------------------------------------

    def check_flag(self, *, present: bool = False) -> bool:
        """If the side to move has run out of time, end the game on time and save it: a loss,
        or a draw when the opponent cannot mate (FIDE Laws 6.9). Return whether it did.
        *present*: the caller was there all along (the server, while the computer thought)."""
        clock = self.clock
        if clock is None or self.finished:
            return False
        turn = self.board.turn
        if not clock.flagged(turn, self.now(), present=present or self.present):
            return False
        result, termination = time_out_result(self.board, turn)
        self._end(result, termination, clock.timed_out(turn))
        return True

    def tick(self, *, touch: bool = True) -> None:
        """Someone looks at the game: look at the flag (see :meth:`check_flag`); else, with
        *touch*, renew the clocks' sign of life and start a stopped clock (saved)."""
        if self.clock is None or self.finished or self.check_flag() or not touch:
            return
        now, clock = self.now(), self.clock
        if clock.running and clock.seen is not None and 0 <= now - clock.seen < _SEEN_EVERY:
            return  # seen a moment ago: spare the database a write per request
        self._save_clock(clock.touched(self.board.turn, now, present=self.present))

    def pause(self, *, ply: int | None = None) -> None:
        """Stop the clock of the side to move (the page was closed, the terminal left); the
        next look at the game starts it again. A flag that fell before is looked at first."""
        self.check_ply(ply)
        if self.clock is None or self.finished or self.check_flag():
            return
        self._save_clock(self.clock.paused(self.board.turn, self.now(), present=self.present))

    def _save_clock(self, clock: Clocks) -> None:
        ply = self.ply
        if self.store is not None and self.game_id is not None:
            self._write(lambda store, game_id: store.set_clock(game_id, clock, ply=ply))
        self.clock = clock

    def clock_state(self) -> dict[str, Any] | None:
        """The clocks as the page shows them (``None``: no clock): the control, both times
        left now, the side whose clock runs (``None`` when the game is over) and whether the
        game is paused."""
        if self.clock is None:
            return None
        state = self.clock.to_json(self.board.turn, self.now())
        if self.finished:
            state.update(running=None, paused=True)
        return state

    def engine_clock(self) -> dict[str, float] | None:
        """The clocks as an engine ``Limit`` takes them (``wtime``, ``btime``, ``winc``,
        ``binc``, in seconds, as of now), for the computer to play to its clock."""
        clock = self.clock
        if clock is None:
            return None
        now, turn = self.now(), self.board.turn
        inc = clock.control.increment
        return {
            "wtime": max(0.0, clock.left(True, now, turn=turn, present=True)),
            "btime": max(0.0, clock.left(False, now, turn=turn, present=True)),
            "winc": inc,
            "binc": inc,
        }

    def _write(self, action: Any) -> None:
        """Run the checked write *action(store, game_id)* (nothing for a game not saved:
        moves and results save it whole); the caller changes the session only after it."""
        if self.store is None or self.game_id is None:
            return
        try:
            action(self.store, self.game_id)
        except GameChangedError:
            raise ConflictError() from None
        except GameNotFoundError as exc:
            raise GameGoneError(str(exc)) from None

    def _create(self) -> None:
        if self.store is None:
            return
        self.game_id = self.store.create_game(
            self.board.variant,
            self.start.fen(),
            mode=self.mode,
            white=self.white,
            black=self.black,
            level=self.level,
            moves=[move.uci() for move in self.board.move_stack],
            result=self.result,
            termination=self.termination,
            clock=self.clock,
        )

    def save_new(self) -> int | None:
        """Save a game that is not in the store yet (or any more), whole, as a new game;
        return its id (``None`` without a store)."""
        self.game_id = None
        self._create()
        return self.game_id

    def _turn_before(self, plies: int) -> bool:
        turn = self.board.turn
        return turn if plies % 2 == 0 else not turn
