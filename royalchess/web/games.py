"""The games the web app serves: saved in a :class:`GameStore`, played on a :class:`Board`.

:class:`GameService` holds no HTTP: each method takes plain values, changes at most one game,
commits it to the store before it returns, and answers with the game as JSON-ready data
(:meth:`GameService.state`). Bad input raises :class:`ApiError` (or a library
:class:`~royalchess.errors.ChessError`) with the game unchanged.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from royalchess import record
from royalchess.board import Board
from royalchess.clock import Now, TimeControl, TimeControlError, time_control_from_json
from royalchess.errors import ChessError
from royalchess.move import GUARDS, Move, piece_symbol
from royalchess.session import (
    COLORS,
    MODES,
    ConflictError,
    GameError,
    GameSession,
    color_name,
    reason,
    result_text,
)
from royalchess.store import GameRecord, GameStore
from royalchess.variants import VARIANTS
from royalchess.web import analysis
from royalchess.web.computer import Computer, SearchStopped, Ticket

__all__ = ["MODES", "ApiError", "GameService"]

ApiError = GameError
"""A request the app cannot carry out: an HTTP status and a message for the player
(:class:`royalchess.session.GameError`; 409 :class:`~royalchess.session.ConflictError` when
the game changed in another window)."""

STOPPED = "the computer's search was stopped: the game changed in another window: reload"


def _queen_powers(board: Board) -> list[str]:
    """The squares of Guards that still have queen powers."""
    return sorted(board.square_name(sq) for sq, p in board.piece_map().items() if p.queen_powers)


class GameService:
    """Creates, plays and lists games; each change is committed before a method returns."""

    def __init__(
        self, store: GameStore, computer: Computer | None = None, *, now: Now = time.time
    ) -> None:
        self.store = store
        self.computer = computer or Computer()
        self.now = now
        """The clocks' time source (wall time; a fake one in tests)."""
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._thinking: dict[int, Ticket] = {}  # the computer move being searched, per game

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _locked(self, game_id: int) -> Iterator[None]:
        """Hold game *game_id* for a check and a write (never during a search)."""
        with self._guard:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            yield

    def _load(self, game_id: int, *, touch: bool = False) -> GameSession:
        """The game as saved, its clocks brought up to now: a flag that fell is found (and
        saved) at once; with *touch* (the page shows the game) its clock runs on, or starts."""
        game = GameSession.load(self.store, game_id, now=self.now)
        try:
            game.tick(touch=touch)
        except ConflictError:  # changed meanwhile by another request: take it as it is now
            game = GameSession.load(self.store, game_id, now=self.now)
        return game

    def stop_searches(self, game_id: int) -> None:
        """Stop the searches of game *game_id* (its computer move, hints, evaluations) now."""
        with self._guard:
            ticket = self._thinking.get(game_id)
        if ticket is not None:
            self.computer.cancel(ticket)
        self.computer.stop(game_id)

    # -- creating ---------------------------------------------------------------------------

    def new_game(
        self,
        *,
        variant: str = "chess",
        mode: str = "vs-computer",
        color: str = "white",
        level: int = 4,
        fen: str | None = None,
        position_record: str | None = None,
        clock: Any = None,
    ) -> dict[str, Any]:
        """Start a game and return its state.

        *color* is the human's side in ``vs-computer`` mode (``white``, ``black`` or
        ``random``). *fen* or *position_record* (the Royal Chess record) set up a position.
        *clock* is the time control: ``None``, ``'5+3'`` or ``{"base": s, "increment": s}``.
        """
        try:
            time_control = time_control_from_json(clock)
        except TimeControlError as exc:
            raise ApiError(400, str(exc)) from None
        if mode not in MODES:
            raise ApiError(400, f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
        if color == "random":
            color = random.choice(COLORS)
        if color not in COLORS:
            raise ApiError(400, f"unknown colour {color!r}: expected white, black or random")
        if type(level) is not int or not 1 <= level <= 20:
            raise ApiError(400, f"level must be a whole number from 1 to 20, not {level!r}")
        if position_record:
            board = record.parse(position_record)
        else:
            if variant not in VARIANTS and variant != "auto":
                raise ApiError(400, f"unknown variant {variant!r}: expected chess or royal")
            board = self._board_from_fen(fen, variant)
        session = GameSession.create(
            board,
            store=self.store,
            mode=mode,
            color=color == "white",
            level=level,
            time_control=time_control,
            now=self.now,
        )
        assert session.game_id is not None
        return self.state(session.game_id)

    @staticmethod
    def _board_from_fen(fen: str | None, variant: str) -> Board:
        if fen is not None and not isinstance(fen, str):
            raise ApiError(400, "fen must be a string")
        if fen is not None and not fen.strip():
            fen = None
        if variant != "auto":
            return Board(fen, variant=variant)
        if fen is None:
            return Board()
        errors = []
        for name in VARIANTS:
            try:
                return Board(fen, variant=name)
            except ChessError as exc:
                errors.append(f"{name}: {exc}")
        raise ApiError(400, "invalid FEN for either game: " + "; ".join(errors))

    def import_game(
        self,
        board: Board,
        moves: list[Move],
        *,
        result: str,
        termination: str | None,
        headers: dict[str, str],
    ) -> dict[str, Any]:
        """Save a game read elsewhere (PGN): start position, moves, result; return its state."""
        start = board.fen()
        replay = board.copy()
        for move in moves:
            replay.push(move)
        outcome = replay.outcome()
        if result == "*" and outcome is not None:
            result, termination = outcome.result(), reason(outcome)
        game_id = self.store.create_game(
            board.variant,
            start,
            mode="two-players",
            moves=[m.uci() for m in moves],
            result=result,
            termination=termination,
            headers=json.dumps(headers),
        )
        return self.state(game_id)

    # -- reading ----------------------------------------------------------------------------

    def state(self, game_id: int, *, touch: bool = False) -> dict[str, Any]:
        """Return everything the page shows of game *game_id* (*touch*: the page shows it,
        a sign of life for its clock)."""
        return self._state(self._load(game_id, touch=touch))

    def _state(self, game: GameSession) -> dict[str, Any]:
        rec, board = game.record, game.board
        assert rec is not None
        start = game.start
        replay = start.copy()
        moves = []
        for ply, (move, san) in enumerate(zip(board.move_stack, game.sans, strict=True)):
            replay.push(move)
            fen, powers = replay.fen(), _queen_powers(replay)
            moves.append(
                {
                    "ply": ply + 1,
                    "san": san,
                    "uci": move.uci(),
                    "squares": self._squares(start, move),
                    "fen": fen,
                    "board_fen": fen.split()[0].replace("*", ""),
                    "queen_powers": powers,
                    "check": san.endswith(("+", "#")),
                }
            )
        check_square = None
        if board.is_check():
            king = board.king(board.turn)
            check_square = None if king is None else board.square_name(king)
        finished = game.finished
        return {
            "id": game.game_id,
            "variant": board.variant,
            "title": board.variant_info.title,
            "files": board.files,
            "ranks": board.ranks,
            "mode": game.mode,
            "white": game.white,
            "black": game.black,
            "level": game.level,
            "ply": game.ply,
            "start_fen": start.fen(),
            "start_ply": start.ply(),
            "fen": board.fen(),
            "board_fen": board.fen().split()[0].replace("*", ""),
            "queen_powers": _queen_powers(board),
            "turn": color_name(board.turn),
            "check": check_square,
            "moves": moves,
            "legal": [] if finished else self._legal(board),
            "result": game.result,
            "termination": game.termination,
            "reason": game.result_text,
            "finished": finished,
            "can_claim_draw": (not finished) and board.can_claim_draw(),
            "computer_to_move": game.computer_to_move,
            "material": analysis.material(board),
            "clock": game.clock_state(),
            "created": rec.created,
            "updated": rec.updated,
        }

    def position(self, board: Board) -> dict[str, Any]:
        """Any position as the page shows it, outside a saved game (the analysis board):
        FEN, pieces, side to move, the King in check, the legal moves with their parts."""
        check = board.king(board.turn) if board.is_check() else None
        over = board.outcome() is not None
        return {
            "variant": board.variant,
            "files": board.files,
            "ranks": board.ranks,
            "fen": board.fen(),
            "board_fen": board.fen().split()[0].replace("*", ""),
            "queen_powers": _queen_powers(board),
            "turn": color_name(board.turn),
            "check": None if check is None else board.square_name(check),
            "legal": [] if over else self._legal(board),
        }

    def arrows(self, board: Board, move: Move) -> list[list[str]]:
        """Arrows that show *move* in *board* (a Guard's pre-move first)."""
        return self._arrows(board, move)

    @staticmethod
    def _squares(board: Board, move: Move) -> list[str]:
        """The squares to highlight for *move* (UCI order: Guard, King, Rook)."""
        names = [move.from_square, move.to_square]
        if move.rook_from is not None and move.rook_to is not None:
            names += [move.rook_from, move.rook_to]
        if move.guard_from is not None and move.guard_to is not None:
            names = [move.guard_from, move.guard_to, *names]
        return [board.square_name(sq) for sq in names]

    @staticmethod
    def _arrows(board: Board, move: Move) -> list[list[str]]:
        """Arrows that show *move*: a Guard's pre-move first, then the moving piece."""
        name = board.square_name
        arrows = [[name(move.from_square), name(move.to_square)]]
        if move.guard_from is not None and move.guard_to is not None:
            arrows.insert(0, [name(move.guard_from), name(move.guard_to)])
        return arrows

    def _legal(self, board: Board) -> list[dict[str, Any]]:
        """The legal moves with their parts, for the page to offer (no rule logic there)."""
        out = []
        guard_lines: dict[int, tuple[set[int], set[int]]] = {}
        name = board.square_name
        for move in board.legal_moves:
            entry: dict[str, Any] = {
                "uci": move.uci(),
                "san": board.san(move),
                "from": name(move.from_square),
                "to": name(move.to_square),
                "promotion": None if move.promotion is None else piece_symbol(move.promotion),
                "waived": move.waived,
                "castling": None,
                "guard": None,
                "guard_kind": None,
                "capture": board.is_capture(move),
            }
            if board.is_castling(move):
                entry["castling"] = {
                    "side": "king" if board.is_kingside_castling(move) else "queen",
                    "rook_from": None if move.rook_from is None else name(move.rook_from),
                    "rook_to": None if move.rook_to is None else name(move.rook_to),
                }
                if move.guard_from is not None and move.guard_to is not None:
                    entry["guard"] = {"from": name(move.guard_from), "to": name(move.guard_to)}
                    entry["guard_kind"] = self._guard_kind(
                        board, guard_lines, move.guard_from, move.guard_to
                    )
            else:
                piece = board.piece_at(move.from_square)
                if piece is not None and piece.piece_type in GUARDS:
                    entry["guard_kind"] = self._guard_kind(
                        board, guard_lines, move.from_square, move.to_square
                    )
            out.append(entry)
        return out

    @staticmethod
    def _guard_kind(
        board: Board, cache: dict[int, tuple[set[int], set[int]]], frm: int, to: int
    ) -> str:
        lines = cache.get(frm)
        if lines is None:
            major, minor = board.guard_moves(frm)
            lines = cache[frm] = (set(major), set(minor))
        if to in lines[0]:
            return "major"
        if to in lines[1]:
            return "minor"
        return "queen"

    def list_games(self, status: str = "all") -> list[dict[str, Any]]:
        """Return the saved games (newest first) as short summaries."""
        if status not in ("all", "unfinished", "finished"):
            raise ApiError(400, f"unknown status {status!r}: expected all, unfinished or finished")
        return [
            {
                "id": rec.id,
                "variant": rec.variant,
                "mode": rec.mode,
                "white": rec.white,
                "black": rec.black,
                "level": rec.level,
                "plies": rec.plies,
                "result": rec.result,
                "reason": result_text(rec.result, rec.termination),
                "finished": rec.finished,
                "clock": None
                if rec.clock_base is None
                else str(TimeControl(rec.clock_base, rec.clock_increment or 0.0)),
                "created": rec.created,
                "updated": rec.updated,
            }
            for rec in self.store.list_games(status)
        ]

    def game_record(self, game_id: int) -> tuple[GameRecord, Board, Board]:
        """Return the stored game, its start position and its current position."""
        game = self._load(game_id)
        assert game.record is not None
        return game.record, game.start.copy(), game.board

    # -- playing ----------------------------------------------------------------------------
    # Each change carries *ply*, the number of moves of the game as the page showed it (None:
    # unchecked, for callers that just read the game); the session refuses it (409) when the
    # game has another number now, and the store checks again in the transaction of the write.

    def play(self, game_id: int, text: str, *, ply: int | None = None) -> dict[str, Any]:
        """Play the move *text* (UCI, or SAN) for the side to move, if a human plays it."""
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, 'no move given: send {"move": "e2e4", "ply": N} (UCI or SAN)')
        with self._locked(game_id):
            game = self._load(game_id)
            game.play(text.strip(), ply=ply)
            return self._state(game)

    def computer_move(
        self,
        game_id: int,
        *,
        ply: int | None = None,
        for_human: bool = False,
        ticket: Ticket | None = None,
    ) -> dict[str, Any]:
        """Let the computer play the side to move: only when the computer plays that side
        (or, *for_human*, when the human to move asks it to play for them), in the position
        of *ply*. One search per game at a time; a takeback, a delete or *ticket*'s cancel
        stops it, and then nothing is saved (409)."""
        ticket = ticket or Ticket(game_id)
        with self._guard:
            if game_id in self._thinking:
                raise ApiError(409, "the computer is already thinking about this move")
            self._thinking[game_id] = ticket
        try:
            game = self._load(game_id)
            game.check_computer_turn(ply=ply, for_human=for_human)
            try:
                move = self.computer.play(
                    game.board, game.level, ticket=ticket, clock=game.engine_clock()
                )
            except SearchStopped:
                raise ConflictError(STOPPED) from None
            with self._locked(game_id):
                if ticket.stopped:  # a takeback or a delete came while it thought
                    raise ConflictError(STOPPED)
                game.save_computer_move(move)  # checked: the game must still be at its ply
        finally:
            with self._guard:
                if self._thinking.get(game_id) is ticket:
                    del self._thinking[game_id]
        state = self._state(game)
        state["computer_move"] = move.uci()
        return state

    def takeback(
        self, game_id: int, plies: int | None = None, *, ply: int | None = None
    ) -> dict[str, Any]:
        """Take back *plies* moves; by default your move and the computer's reply (back to
        the last position a human was to move). Stops the game's search first."""
        with self._locked(game_id):
            game = self._load(game_id)
            game.check_ply(ply)
            self.stop_searches(game_id)
            game.takeback(plies, ply=ply)
            return self._state(game)

    def resign(
        self, game_id: int, color: str | None = None, *, ply: int | None = None
    ) -> dict[str, Any]:
        """The side *color* (default: the human side to move, or the only human) resigns."""
        if color is not None and color not in COLORS:
            raise ApiError(400, f"unknown colour {color!r}: expected white or black")
        with self._locked(game_id):
            game = self._load(game_id)
            game.check_ply(ply)
            self.stop_searches(game_id)
            game.resign(None if color is None else color == "white", ply=ply)
            return self._state(game)

    def claim_draw(self, game_id: int, *, ply: int | None = None) -> dict[str, Any]:
        """Claim a draw by threefold repetition or the fifty-move rule, if one can be claimed."""
        with self._locked(game_id):
            game = self._load(game_id)
            game.claim_draw(ply=ply)
            self.stop_searches(game_id)
            return self._state(game)

    def set_players(
        self,
        game_id: int,
        *,
        mode: str | None = None,
        color: str | None = None,
        level: int | None = None,
        ply: int | None = None,
    ) -> dict[str, Any]:
        """Change the mode, the human's colour or the level of a game in progress."""
        if mode is not None and mode not in MODES:
            raise ApiError(400, f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
        if color is not None and color not in COLORS:
            raise ApiError(400, f"unknown colour {color!r}: expected white or black")
        with self._locked(game_id):
            game = self._load(game_id)
            game.check_ply(ply)
            self.stop_searches(game_id)
            side = None if color is None else color == "white"
            game.set_players(mode=mode, color=side, level=level, ply=ply)
            return self._state(game)

    def clock(self, game_id: int, *, touch: bool = False) -> dict[str, Any]:
        """The clocks of game *game_id* now (a flag that fell is found and saved), with
        what the page needs to see whether its game is still as shown (*touch*: as
        :meth:`state`)."""
        game = self._load(game_id, touch=touch)
        return {
            "id": game.game_id,
            "ply": game.ply,
            "finished": game.finished,
            "result": game.result,
            "reason": game.result_text,
            "clock": game.clock_state(),
        }

    def pause(self, game_id: int, *, ply: int | None = None) -> dict[str, Any]:
        """Stop the running clock (the page was closed or hidden); the next look starts it."""
        with self._locked(game_id):
            game = GameSession.load(self.store, game_id, now=self.now)
            game.pause(ply=ply)
            return {"ply": game.ply, "finished": game.finished, "clock": game.clock_state()}

    def delete(self, game_id: int) -> None:
        """Delete a saved game (its search is stopped first)."""
        with self._locked(game_id):
            self.stop_searches(game_id)
            try:
                self.store.delete(game_id)
            except LookupError as exc:
                raise ApiError(404, str(exc)) from None

    # -- advice -----------------------------------------------------------------------------

    def hint(self, game_id: int, *, ticket: Ticket | None = None) -> dict[str, Any]:
        """Suggest a move for the side to move."""
        game = self._load(game_id)
        game.check_playing()
        board = game.board
        try:
            move = self.computer.hint(board, game=game_id, ticket=ticket)
        except SearchStopped:
            raise ConflictError(STOPPED) from None
        if move is None:
            raise ApiError(409, "there is no move to suggest")
        return {
            "uci": move.uci(),
            "san": board.san(move),
            "squares": self._squares(board, move),
            "arrows": self._arrows(board, move),
        }

    def evaluation(self, game_id: int, *, ticket: Ticket | None = None) -> dict[str, Any]:
        """The engine's evaluation of the current position (White's point of view)."""
        game = self._load(game_id)
        if game.board.outcome() is not None:
            raise ApiError(409, "the game is over: there is nothing to evaluate")
        try:
            return self.computer.evaluate(game.board, game=game_id, ticket=ticket)
        except SearchStopped:
            raise ConflictError(STOPPED) from None

    def threats(self, game_id: int) -> dict[str, Any]:
        """The side to move's pieces that hang (could be won by the opponent)."""
        game = self._load(game_id)
        board = game.board
        return {"turn": color_name(board.turn), "hanging": analysis.hanging_pieces(board)}
