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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from royalchess import record
from royalchess.board import Board
from royalchess.errors import ChessError, InvalidMoveError
from royalchess.move import GUARDS, WHITE, Move, piece_symbol
from royalchess.outcome import Outcome
from royalchess.store import GameNotFoundError, GameRecord, GameStore
from royalchess.variants import VARIANTS
from royalchess.web import analysis
from royalchess.web.computer import Computer

__all__ = ["MODES", "ApiError", "GameService"]

MODES = ("vs-computer", "two-players", "computer-vs-computer")
"""How the two sides are played."""

_COLORS = ("white", "black")


class ApiError(Exception):
    """A request the app cannot carry out: an HTTP status and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _queen_powers(board: Board) -> list[str]:
    """The squares of Guards that still have queen powers."""
    return sorted(board.square_name(sq) for sq, p in board.piece_map().items() if p.queen_powers)


def _color_name(color: bool) -> str:
    return "white" if color else "black"


def _reason(outcome: Outcome) -> str:
    return outcome.termination.describe()


def _describe_result(result: str, termination: str | None) -> str:
    if result == "*":
        return ""
    if result == "1/2-1/2":
        return f"Draw by {termination}" if termination else "Draw"
    winner = "White" if result == "1-0" else "Black"
    return f"{winner} wins by {termination}" if termination else f"{winner} wins"


class _Game:
    """A game loaded from the store, replayed on a board."""

    def __init__(self, rec: GameRecord) -> None:
        self.rec = rec
        self.board = Board(rec.start_fen, variant=rec.variant)
        self.sans: list[str] = []
        self.fens: list[str] = []
        self.powers: list[list[str]] = []
        for uci in rec.moves:
            move = self.board.parse_uci(uci)
            self.sans.append(self.board.san_and_push(move))
            self.fens.append(self.board.fen())
            self.powers.append(_queen_powers(self.board))

    def player(self, color: bool) -> str:
        return self.rec.white if color else self.rec.black

    @property
    def computer_to_move(self) -> bool:
        return not self.rec.finished and self.player(self.board.turn) == "computer"


class GameService:
    """Creates, plays and lists games; each change is committed before a method returns."""

    def __init__(self, store: GameStore, computer: Computer | None = None) -> None:
        self.store = store
        self.computer = computer or Computer()
        self._locks: dict[int, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _locked(self, game_id: int) -> Iterator[None]:
        with self._locks_guard:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            yield

    def _load(self, game_id: int) -> _Game:
        try:
            return _Game(self.store.get(game_id))
        except GameNotFoundError as exc:
            raise ApiError(404, str(exc)) from None

    def _save_move(self, game: _Game, move: Move) -> None:
        board = game.board
        ply = len(board.move_stack)
        board.push(move)
        outcome = board.outcome()
        result = outcome.result() if outcome else "*"
        termination = _reason(outcome) if outcome else None
        self.store.append_move(game.rec.id, ply, move.uci(), result=result, termination=termination)

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
    ) -> dict[str, Any]:
        """Start a game and return its state.

        *color* is the human's side in ``vs-computer`` mode (``white``, ``black`` or
        ``random``). *fen* or *position_record* (the Royal Chess record) set up a position.
        """
        if mode not in MODES:
            raise ApiError(400, f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
        if color == "random":
            color = random.choice(_COLORS)
        if color not in _COLORS:
            raise ApiError(400, f"unknown colour {color!r}: expected white, black or random")
        if type(level) is not int or not 1 <= level <= 20:
            raise ApiError(400, f"level must be a whole number from 1 to 20, not {level!r}")
        if position_record:
            board = record.parse(position_record)
        else:
            if variant not in VARIANTS and variant != "auto":
                raise ApiError(400, f"unknown variant {variant!r}: expected chess or royal")
            board = self._board_from_fen(fen, variant)
        if mode == "vs-computer":
            white, black = ("human", "computer") if color == "white" else ("computer", "human")
        elif mode == "two-players":
            white = black = "human"
        else:
            white = black = "computer"
        game_id = self.store.create_game(
            board.variant, board.fen(), mode=mode, white=white, black=black, level=level
        )
        return self.state(game_id)

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
            result, termination = outcome.result(), _reason(outcome)
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

    def state(self, game_id: int) -> dict[str, Any]:
        """Return everything the page shows of game *game_id*."""
        return self._state(self._load(game_id))

    def _state(self, game: _Game) -> dict[str, Any]:
        rec, board = game.rec, game.board
        start = Board(rec.start_fen, variant=rec.variant)
        moves = []
        history = zip(board.move_stack, game.sans, game.fens, game.powers, strict=True)
        for ply, (move, san, fen, powers) in enumerate(history):
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
        finished = rec.finished
        return {
            "id": rec.id,
            "variant": rec.variant,
            "title": board.variant_info.title,
            "files": board.files,
            "ranks": board.ranks,
            "mode": rec.mode,
            "white": rec.white,
            "black": rec.black,
            "level": rec.level,
            "start_fen": rec.start_fen,
            "start_ply": start.ply(),
            "fen": board.fen(),
            "board_fen": board.fen().split()[0].replace("*", ""),
            "queen_powers": _queen_powers(board),
            "turn": _color_name(board.turn),
            "check": check_square,
            "moves": moves,
            "legal": [] if finished else self._legal(board),
            "result": rec.result,
            "termination": rec.termination,
            "reason": _describe_result(rec.result, rec.termination),
            "finished": finished,
            "can_claim_draw": (not finished) and board.can_claim_draw(),
            "computer_to_move": game.computer_to_move,
            "material": analysis.material(board),
            "created": rec.created,
            "updated": rec.updated,
        }

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
                "reason": _describe_result(rec.result, rec.termination),
                "finished": rec.finished,
                "created": rec.created,
                "updated": rec.updated,
            }
            for rec in self.store.list_games(status)
        ]

    def game_record(self, game_id: int) -> tuple[GameRecord, Board, Board]:
        """Return the stored game, its start position and its current position."""
        game = self._load(game_id)
        return game.rec, Board(game.rec.start_fen, variant=game.rec.variant), game.board

    # -- playing ----------------------------------------------------------------------------

    def play(self, game_id: int, text: str) -> dict[str, Any]:
        """Play the move *text* (UCI, or SAN) for the side to move, if a human plays it."""
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, 'no move given: send {"move": "e2e4"} (UCI or SAN)')
        with self._locked(game_id):
            game = self._load(game_id)
            self._check_playing(game)
            if game.player(game.board.turn) != "human":
                raise ApiError(409, "it is the computer's turn")
            move = self._read_move(game.board, text.strip())
            self._save_move(game, move)
            return self.state(game_id)

    @staticmethod
    def _read_move(board: Board, text: str) -> Move:
        try:
            Move.from_uci(text, board.files)
        except InvalidMoveError:
            return board.parse_san(text)
        return board.parse_uci(text)

    @staticmethod
    def _check_playing(game: _Game) -> None:
        if game.rec.finished:
            raise ApiError(
                409, f"the game is over: {_describe_result(game.rec.result, game.rec.termination)}"
            )

    def computer_move(self, game_id: int) -> dict[str, Any]:
        """Let the computer play the side to move (its side, or any side on request)."""
        with self._locked(game_id):
            game = self._load(game_id)
            self._check_playing(game)
            if game.board.outcome() is not None:
                raise ApiError(409, "the game is over")
            move = self.computer.play(game.board, game.rec.level)
            self._save_move(game, move)
            state = self.state(game_id)
            state["computer_move"] = move.uci()
            return state

    def takeback(self, game_id: int, plies: int | None = None) -> dict[str, Any]:
        """Take back *plies* moves; by default back to the last position a human was to move."""
        with self._locked(game_id):
            game = self._load(game_id)
            played = len(game.rec.moves)
            if plies is None:
                plies = 1
                if game.rec.mode == "vs-computer":
                    # back to the human's previous turn: skip the computer's reply if any
                    while plies < played and game.player(_turn_before(game, plies)) != "human":
                        plies += 1
                    if played and game.player(_turn_before(game, plies)) != "human":
                        raise ApiError(409, "no move of yours to take back")
            if type(plies) is not int or plies < 1:
                raise ApiError(400, f"plies must be a positive whole number, not {plies!r}")
            if plies > played:
                raise ApiError(
                    409,
                    "no move to take back" if not played else f"only {played} moves were played",
                )
            self.store.truncate(game_id, played - plies)
            return self.state(game_id)

    def resign(self, game_id: int, color: str | None = None) -> dict[str, Any]:
        """The side *color* (default: the human side to move, or the only human) resigns."""
        with self._locked(game_id):
            game = self._load(game_id)
            self._check_playing(game)
            if color is None:
                turn = game.board.turn
                humans = [c for c in (WHITE, not WHITE) if game.player(c) == "human"]
                side = turn if game.player(turn) == "human" or not humans else humans[0]
            elif color in _COLORS:
                side = color == "white"
            else:
                raise ApiError(400, f"unknown colour {color!r}: expected white or black")
            result = "0-1" if side else "1-0"
            self.store.set_result(game_id, result, "resignation")
            return self.state(game_id)

    def claim_draw(self, game_id: int) -> dict[str, Any]:
        """Claim a draw by threefold repetition or the fifty-move rule, if one can be claimed."""
        with self._locked(game_id):
            game = self._load(game_id)
            self._check_playing(game)
            outcome = game.board.outcome(claim_draw=True)
            if outcome is None:
                raise ApiError(
                    409, "no draw can be claimed now (threefold repetition or fifty moves)"
                )
            self.store.set_result(game_id, outcome.result(), _reason(outcome))
            return self.state(game_id)

    def set_players(
        self,
        game_id: int,
        *,
        mode: str | None = None,
        color: str | None = None,
        level: int | None = None,
    ) -> dict[str, Any]:
        """Change the mode, the human's colour or the level of a game in progress."""
        with self._locked(game_id):
            rec = self._load(game_id).rec
            mode = mode or rec.mode
            level = rec.level if level is None else level
            if mode not in MODES:
                raise ApiError(400, f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
            if type(level) is not int or not 1 <= level <= 20:
                raise ApiError(400, f"level must be a whole number from 1 to 20, not {level!r}")
            if color is None:
                color = "black" if rec.black == "human" and rec.white != "human" else "white"
            if color not in _COLORS:
                raise ApiError(400, f"unknown colour {color!r}: expected white or black")
            if mode == "vs-computer":
                white, black = ("human", "computer") if color == "white" else ("computer", "human")
            elif mode == "two-players":
                white = black = "human"
            else:
                white = black = "computer"
            self.store.update_settings(game_id, mode=mode, white=white, black=black, level=level)
            return self.state(game_id)

    def delete(self, game_id: int) -> None:
        """Delete a saved game."""
        with self._locked(game_id):
            try:
                self.store.delete(game_id)
            except GameNotFoundError as exc:
                raise ApiError(404, str(exc)) from None

    # -- advice -----------------------------------------------------------------------------

    def hint(self, game_id: int) -> dict[str, Any]:
        """Suggest a move for the side to move."""
        game = self._load(game_id)
        self._check_playing(game)
        board = game.board
        move = self.computer.hint(board)
        if move is None:
            raise ApiError(409, "there is no move to suggest")
        return {
            "uci": move.uci(),
            "san": board.san(move),
            "squares": self._squares(board, move),
            "arrows": self._arrows(board, move),
        }

    def evaluation(self, game_id: int) -> dict[str, Any]:
        """The engine's evaluation of the current position (White's point of view)."""
        game = self._load(game_id)
        if game.board.outcome() is not None:
            raise ApiError(409, "the game is over: there is nothing to evaluate")
        return self.computer.evaluate(game.board)

    def threats(self, game_id: int) -> dict[str, Any]:
        """The side to move's pieces that hang (could be won by the opponent)."""
        game = self._load(game_id)
        board = game.board
        return {"turn": _color_name(board.turn), "hanging": analysis.hanging_pieces(board)}


def _turn_before(game: _Game, plies: int) -> bool:
    """The side that was to move *plies* half-moves before the current position."""
    turn = game.board.turn
    return turn if plies % 2 == 0 else not turn
