"""The terminal game: one game at a time against the computer or between two players.

A :class:`TerminalGame` keeps the game on a :class:`~royalchess.board.Board` and, given a
:class:`~royalchess.store.GameStore`, saves it the way the web app does (same modes, same
player names, the same moves in UCI, result and reason), each move committed as it is
played: a game started in the browser can be resumed here and the other way round.

Lines typed are moves (SAN or UCI) or commands (``help`` lists them). The screen is a
:class:`~royalchess.terminal.screen.PlainScreen` or a :class:`~royalchess.terminal.screen.RichScreen`.
"""

from __future__ import annotations

import contextlib
import datetime
import random
import sqlite3
import time
from collections.abc import Callable
from typing import Any, Protocol

from royalchess import explain
from royalchess.board import Board
from royalchess.clock import Now, TimeControl, TimeControlError, format_seconds, parse_time_control
from royalchess.errors import ChessError, IllegalMoveError
from royalchess.move import PIECE_SYMBOLS, WHITE, Move, piece_name
from royalchess.session import (
    COMPUTER,
    DEFAULT_LEVEL,
    HUMAN,
    MODES,
    ConflictError,
    GameError,
    GameGoneError,
    GameSession,
    reason,
    result_text,
)
from royalchess.store import GameNotFoundError, GameRecord, GameStore
from royalchess.terminal.screen import View
from royalchess.variants import VARIANTS, get_variant

__all__ = [
    "DEFAULT_LEVEL",
    "HELP",
    "MODES",
    "Screen",
    "TerminalGame",
    "describe_game",
    "read_move",
]


HELP = """\
Type a move in SAN (e4, Nf3, exd5, e8=Q, O-O) or in UCI (e2e4, e7e8q).
Royal Chess: Wg3, O-O:h1, Wg3_O-O:h1 (a Guard move first), e8=G, e8=G- (queen
powers waived); UCI castling is the King's move, then the Rook's: f1h1j1g1,
with a Guard move first g1g3f1h1j1g1.
  hint       suggest a move
  takeback   take back your last move (and the computer's reply); also: undo
  level N    set the computer's level, 1 (beginner) to 20 (full strength)
  flip       turn the board round         board     show the board again
  moves      list the legal moves         fen       show the position as FEN
  pgn        show the game as PGN
  draw       claim a draw (threefold repetition or the fifty-move rule)
  resign     give up the game
  new        a new game: new [chess|royal] [white|black|random|two] [LEVEL] [M+S|none]
  save       save now (the game is saved after every move anyway)
  games      list the saved games         resume N  go on with saved game N
  help       show this text               quit      leave (a saved game stays)"""

COMMANDS = (
    "help", "hint", "takeback", "undo", "level", "flip", "moves", "board", "fen", "pgn",
    "draw", "resign", "new", "save", "games", "resume", "quit", "exit",
)  # fmt: skip

_MOVES_HELP = " Type 'moves' for the legal moves, 'help' for help."


class Screen(Protocol):
    """What the game needs of a screen (see :mod:`royalchess.terminal.screen`)."""

    interactive: bool
    live: bool

    def show(self, view: View) -> None: ...
    def say(self, text: str, kind: str = "info") -> None: ...
    def ask(self, prompt: str) -> str: ...
    def question(self, prompt: str, choices: list[str], default: str) -> str: ...
    def listing(self, header: list[str], rows: list[list[str]]) -> None: ...
    def thinking(self, text: str) -> Any: ...
    def set_completer(self, words: Callable[[], list[str]]) -> None: ...
    def close(self) -> None: ...


def read_move(board: Board, text: str) -> Move:
    """Read *text* as UCI when it is spelled so, else as SAN; an error says why in words."""
    return explain.read_move(board, text)


def _color(color: bool) -> str:
    return "White" if color else "Black"


def _describe_result(result: str, termination: str | None) -> str:
    """``'White wins by checkmate. 1-0'`` for a result and reason as stored."""
    return f"{result_text(result, termination)}. {result}"


def describe_game(rec: GameRecord) -> list[str]:
    """One row of a games listing: id, game, players, moves, result, last played."""
    title = get_variant(rec.variant).title if rec.variant in VARIANTS else rec.variant
    if rec.mode == "vs-computer":
        human = WHITE if rec.white == HUMAN else not WHITE
        players = f"you ({_color(human)}) v computer L{rec.level}"
    elif rec.mode == "two-players":
        players = "two players"
    else:
        players = f"computer v computer L{rec.level}"
    when = datetime.datetime.fromtimestamp(rec.updated).strftime("%Y-%m-%d %H:%M")
    result = rec.result if rec.finished else "unfinished"
    if rec.finished and rec.termination:
        result += f" ({rec.termination})"
    return [f"#{rec.id}", title, players, str(rec.plies), result, when]


GAMES_HEADER = ["id", "game", "players", "plies", "result", "last played"]


class TerminalGame:
    """A game at the terminal: moves and commands read from *screen*, saved in *store*.

    *store* ``None`` keeps nothing. *computer* is the engine adapter (by default the web
    app's :class:`~royalchess.web.computer.Computer` on *threads* threads a search, created
    when first needed, so the levels play the same in both).
    """

    def __init__(
        self,
        screen: Screen,
        *,
        store: GameStore | None = None,
        computer: Any = None,
        threads: int = 1,
        now: Now = time.time,
    ) -> None:
        self.screen = screen
        self.store = store
        self._computer = computer
        self._threads = threads
        self.now = now
        """The clocks' time source (wall time; a fake one in tests)."""
        self.orientation = WHITE
        self.session = GameSession(Board(), store=store)
        """The game in progress (:mod:`royalchess.session`): its board, players, result and
        the checked saves; this class is only its terminal interface."""
        self._hint: Move | None = None
        self._headline = ""

    # -- setting a game up ----------------------------------------------------------------

    def new_game(
        self,
        board: Board,
        *,
        mode: str = "two-players",
        color: bool = WHITE,
        level: int = DEFAULT_LEVEL,
        time_control: TimeControl | None = None,
    ) -> None:
        """Start a game on *board* (its moves so far are kept); *color* is the human's side
        against the computer; *time_control* its clocks (``None``: none). Nothing is saved
        until the first move (or ``save``)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self.session = GameSession.create(
            board,
            store=self.store,
            mode=mode,
            color=color,
            level=level,
            save=False,
            time_control=time_control,
            now=self.now,
        )
        self.session.present = True  # the player is at this terminal the whole time
        self._hint = None
        self.orientation = color if mode == "vs-computer" else WHITE
        self._headline = self._intro()

    def load(self, rec: GameRecord) -> None:
        """Take up the saved game *rec*; :class:`~royalchess.session.GameError` if it does not
        replay (a damaged record)."""
        self.session = GameSession.from_record(rec, self.store, now=self.now)
        self.session.present = True
        self._hint = None
        if self.mode == "computer-vs-computer" and not rec.finished:
            # a game the computer played against itself: the side to move is now yours
            turn = self.board.turn
            self._save(lambda: self.session.set_players(mode="vs-computer", color=turn))
        human = self._human_side()
        self.orientation = human if human is not None else WHITE
        self._headline = self._intro(resumed=True)

    def _intro(self, *, resumed: bool = False) -> str:
        title = self.board.variant_info.title
        game = f"game #{self.game_id} resumed" if resumed else ""
        if self.mode == "vs-computer":
            human = self._human_side()
            assert human is not None
            who = f"you play {_color(human)} against the computer at level {self.level}"
        elif self.mode == "two-players":
            who = "two players at one terminal"
        else:
            who = "the computer plays both sides"
        return f"{title}: {', '.join(filter(None, [game, who]))}. Type 'help' for help."

    # -- who plays ------------------------------------------------------------------------

    # The game's state is the session's; these read it for the screen and the commands.

    @property
    def board(self) -> Board:
        return self.session.board

    @property
    def start(self) -> Board:
        return self.session.start

    @property
    def sans(self) -> list[str]:
        return self.session.sans

    @property
    def game_id(self) -> int | None:
        return self.session.game_id

    @property
    def mode(self) -> str:
        return self.session.mode

    @property
    def level(self) -> int:
        return self.session.level

    @property
    def result(self) -> str:
        return self.session.result

    @property
    def termination(self) -> str | None:
        return self.session.termination

    def player(self, color: bool) -> str:
        return self.session.player(color)

    def _human_side(self) -> bool | None:
        """The human's colour against the computer, else ``None``."""
        return self.session.human_side

    @property
    def finished(self) -> bool:
        return self.session.finished

    def _computer_to_move(self) -> bool:
        return self.session.computer_to_move

    def _computer_engine(self) -> Any:
        if self._computer is None:
            from royalchess.web.computer import Computer

            self._computer = Computer(threads=self._threads)
        return self._computer

    # -- the screen -----------------------------------------------------------------------

    def view(self) -> View:
        board = self.board
        human = self._human_side()
        players = ["you" if human == c else "computer" for c in (WHITE, not WHITE)]
        if human is None:
            players = ["player", "player"] if self.mode == "two-players" else players
        players = [f"{p} (level {self.level})" if p == "computer" else p for p in players]
        last: list[int] = []
        if board.move_stack:
            move = board.peek()
            last = [move.from_square, move.to_square]
            for extra in (move.rook_from, move.rook_to, move.guard_from, move.guard_to):
                if extra is not None:
                    last.append(extra)
        hint: list[int] = []
        if self._hint is not None:
            hint = [self._hint.from_square, self._hint.to_square]
            if self._hint.guard_from is not None and self._hint.guard_to is not None:
                hint += [self._hint.guard_from, self._hint.guard_to]
        return View(
            board=board,
            orientation=self.orientation,
            title=board.variant_info.title,
            players=(players[0], players[1]),
            game_id=self.game_id,
            moves=self.sans,
            first_number=self.start.fullmove_number,
            first_turn=self.start.turn,
            last=last,
            hint=hint,
            status=self._status(),
            result=_describe_result(self.result, self.termination) if self.finished else "",
            clocks=self._clocks(),
        )

    def _clocks(self) -> tuple[str, str] | None:
        """White's and Black's time left as shown, or ``None`` without a clock."""
        state = self.session.clock_state()
        if state is None:
            return None
        return format_seconds(state["white"]), format_seconds(state["black"])

    def _status(self) -> str:
        side = _color(self.board.turn)
        who = ""
        if self.mode == "vs-computer":
            who = " (you)" if self.player(self.board.turn) == HUMAN else " (computer)"
        text = f"{side}{who} to move"
        if self.board.is_check():
            text += " — check!"
        if self.board.can_claim_draw():
            text += "  (a draw can be claimed: 'draw')"
        return text

    def show(self) -> None:
        self.screen.show(self.view())

    def say(self, text: str, kind: str = "info") -> None:
        self.screen.say(text, kind)

    def _prompt(self) -> str:
        if self.finished:
            return "Game over> "
        board = self.board
        side = _color(board.turn)
        clocks = self._clocks()
        shown = f" [{clocks[0]} | {clocks[1]}]" if clocks else ""
        return f"{board.fullmove_number}{'.' if board.turn else '...'} {side}{shown}> "

    def _words(self) -> list[str]:
        """Words the Tab key completes: commands and the legal moves in SAN."""
        moves = [] if self.finished else sorted(self.board.san(m) for m in self.board.legal_moves)
        return [*moves, *COMMANDS]

    # -- saving ---------------------------------------------------------------------------

    def _save(self, action: Callable[[], object], *, thinking: bool = False) -> bool:
        """Carry out *action*, a change of the session with its checked save; return whether
        it was done. The game changed elsewhere meanwhile (the browser, another terminal):
        take it up as saved and say so. Deleted elsewhere: save it anew. The store failing:
        say so and play on without saving."""
        try:
            action()
            return True
        except ConflictError:
            self._take_up_saved(thinking=thinking)
            return False
        except GameGoneError:
            self.say(f"Game #{self.game_id} was deleted elsewhere: saving it anew.", "note")
            self.session.game_id = None
        except GameError:
            if not self.finished:
                raise
            # the flag fell meanwhile (the computer thought past its time): the game is over
            if self.screen.live:
                self.show()
            self.say(_describe_result(self.result, self.termination), "result")
            return False
        except (sqlite3.Error, OSError) as exc:
            self.say(f"Could not save the game: {exc}. Playing on without saving.", "error")
            self.session.store = None
        action()  # as a new game (saved whole by a move or a result), or unsaved
        return True

    def _take_up_saved(self, *, thinking: bool = False) -> None:
        """Show the game as saved now, after a write was refused because it had changed."""
        game_id = self.game_id
        assert self.store is not None and game_id is not None
        try:
            rec = self.store.get(game_id)
            orientation = self.orientation
            self.load(rec)
        except GameNotFoundError:
            self.say(f"Game #{game_id} was deleted elsewhere: it will be saved anew.", "note")
            self.session.game_id = None
            return
        except GameError as exc:  # it does not replay: keep ours, saved anew from here
            self.say(f"Game #{game_id} as saved cannot be read ({exc}): saving it anew.", "error")
            self.session.game_id = None
            return
        self.orientation = orientation
        self.show()
        if thinking:
            self.say(
                f"Game #{game_id} was changed elsewhere (in the browser?) while the computer "
                "was thinking: its move is not played. Here it is as saved.",
                "note",
            )
        else:
            self.say(
                f"Game #{game_id} was changed elsewhere (in the browser?): here it is as saved."
            )

    def _in_step(self) -> bool:
        """Whether the saved game is still as shown here (it may be open in the browser too).

        When it was changed elsewhere, take it up as saved and say so.
        """
        try:
            same = self.session.same_as_saved()
        except (sqlite3.Error, OSError):
            return True
        if same is None:
            self.say(f"Game #{self.game_id} was deleted elsewhere: it will be saved anew.", "note")
            self.session.game_id = None
            return True
        if same:
            return True
        self._take_up_saved()
        return False

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until ``quit`` or the end of input; return the exit status (0)."""
        self.screen.set_completer(self._words)
        self._begin()
        try:
            while True:
                try:
                    if self._flag_fell():
                        continue
                    if self._computer_to_move():
                        self._computer_moves()
                        continue
                    line = self.screen.ask(self._prompt())
                    if not self.command(line.strip()):
                        return 0
                except EOFError:
                    self.say("")
                    self._leave("End of input: the game is left unfinished.")
                    return 0
                except KeyboardInterrupt:  # Ctrl+C, at the prompt or while the computer thinks
                    self.say("")
                    self._leave("Interrupted: the game is left unfinished.")
                    return 0
        finally:
            self._pause()
            self.screen.close()

    def _flag_fell(self) -> bool:
        """Bring the clocks up to now (the prompt shows them): a flag that fell ends the game
        on time, said and saved. Return whether it did."""
        if self.session.clock is None or self.finished:
            return False
        if not self._save(self.session.tick):
            return False
        if not self.finished:
            return False
        if self.screen.live:
            self.show()
        self.say(_describe_result(self.result, self.termination), "result")
        return True

    def _pause(self) -> None:
        """Stop the clock when the terminal is left (a game resumed later goes on from here)."""
        if self.session.clock is None or self.finished:
            return
        # changed or gone elsewhere: its clock is someone else's now
        with contextlib.suppress(GameError, sqlite3.Error, OSError):
            self.session.pause()

    def _begin(self) -> None:
        """Show a game just set up: the board (not yet when the computer is to move in the
        plain mode, which shows it after the computer's move) and what is being played."""
        if self.screen.live:
            self.show()
            self.say(self._headline, "title")
        else:
            self.say(self._headline, "title")
            if not self._computer_to_move():
                self.show()
        if self.finished:
            self.say(_describe_result(self.result, self.termination), "result")

    def _leave(self, reason: str) -> None:
        if not self.finished:
            self.say(f"{reason} *")
        if self.board.move_stack:
            self.say("Moves: " + self.start.variation_san(self.board.move_stack))
        if self.game_id is not None and not self.finished:
            self.say(
                f"Game #{self.game_id} is saved: go on with 'royalchess play --resume "
                f"{self.game_id}'.",
                "note",
            )

    def command(self, text: str) -> bool:
        """Carry out one line typed; return ``False`` to leave."""
        if not text:
            return True
        words = text.split()
        name, args = words[0].lower(), words[1:]
        if name in ("quit", "exit"):
            if self.game_id is not None and not self.finished:
                self._leave("Game adjourned.")
            else:
                self._leave("Game abandoned.")
            return False
        handler = getattr(self, f"_cmd_{name}", None) if name in COMMANDS else None
        if handler is None:
            self._move(text)
        else:
            handler(args)
        return True

    # -- moves ----------------------------------------------------------------------------

    def _move(self, text: str) -> None:
        if not self._in_step():
            return
        board = self.board
        if self.finished:
            self.say(
                f"The game is over: {_describe_result(self.result, self.termination)}. "
                "Type 'new' for a new game, 'takeback' to take back moves or 'quit'.",
                "error",
            )
            return
        if self._flag_fell():  # the move came too late
            return
        try:
            move = read_move(board, text)
        except ChessError as exc:  # the coach's words (royalchess.explain), then the options
            extra = self._choices(text) or self._why(text, exc)
            self.say(f"{exc}{extra or _MOVES_HELP}", "error")
            return
        self._play(move, by_computer=False)

    def _why(self, text: str, exc: ChessError) -> str:
        """For an illegal move of a piece, that piece's legal moves; castling's if any."""
        if not isinstance(exc, IllegalMoveError):
            return ""
        board = self.board
        check = " You are in check." if board.is_check() else ""
        if text.upper().startswith(("O-O", "0-0")) or "_" in text:
            castles = sorted(board.san(m) for m in board.legal_moves if board.is_castling(m))
            if not castles:
                return f"{check} No castling move is legal now."
            return f"{check} Legal castling moves: {', '.join(castles)}."
        letter = text[:1]
        if letter not in "KQRBNGW" or not letter:
            return check
        piece_type = PIECE_SYMBOLS.index(letter.lower())
        name = " ".join(word.capitalize() for word in piece_name(piece_type).split())
        sans = []
        for move in board.legal_moves:
            piece = board.piece_at(move.from_square)
            if piece and piece.piece_type == piece_type and not board.is_castling(move):
                sans.append(board.san(move))
        mine = [
            p
            for p in board.piece_map().values()
            if (p.piece_type, p.color) == (piece_type, board.turn)
        ]
        if not mine:
            return check  # the coach already said there is no such piece
        if not sans:
            return f"{check} No {name} move is legal now."
        return f"{check} Legal {name} moves: {', '.join(sorted(sans))}."

    def _choices(self, text: str) -> str:
        """For a promotion typed without its piece, the ways to spell it."""
        board = self.board
        base = text.rstrip("+#!?")
        sans, ucis = [], []
        for move in board.legal_moves:
            if move.promotion is None:
                continue
            san = board.san(move).rstrip("+#")
            if san.split("=")[0] == base:
                sans.append(san)
            if move.uci()[:4] == base:
                ucis.append(move.uci())
        found = ucis or sans
        if not found:
            return ""
        waived = (
            " (a trailing - waives the new Guard's queen powers)"
            if any(c.endswith("-") for c in found)
            else ""
        )
        return f" Promote with one of: {', '.join(found)}{waived}."

    def _play(self, move: Move, *, by_computer: bool) -> None:
        board = self.board
        number, turn = board.fullmove_number, board.turn
        session = self.session
        # the computer's move was found in this position: the checked save refuses it if the
        # game was changed elsewhere while it thought
        save = session.save_computer_move if by_computer else session.play
        if not self._save(lambda: save(move), thinking=by_computer):
            return
        board = self.board  # the session's, after a save anew
        san = self.sans[-1]
        self._hint = None
        outcome = board.outcome()
        spelled = f"{number}{'.' if turn else '...'} {san}"
        if self.screen.live or not self._computer_to_move():
            self.show()
        if by_computer:
            self.say(f"The computer plays {spelled}", "move")
        else:
            self.say(spelled, "move")
        if outcome is not None:
            if not self.screen.live:  # a live screen shows the result under the board
                self.say(_describe_result(outcome.result(), reason(outcome)), "result")
        elif board.can_claim_draw() and not self.screen.live:
            self.say("A draw can be claimed: type 'draw' to claim it.")

    def _computer_moves(self) -> None:
        if not self._in_step():  # changed elsewhere: think on the game as saved
            return
        try:
            computer = self._computer_engine()
            with self.screen.thinking(f"The computer is thinking (level {self.level})…"):
                move = computer.play(self.board, self.level, clock=self.session.engine_clock())
        except KeyboardInterrupt:
            raise
        except (ImportError, RuntimeError, ValueError, OSError) as exc:  # no engine, or it failed
            self.say(f"The computer cannot move ({exc}): two players from here on.", "error")
            self._save(lambda: self.session.set_players(mode="two-players"))
            return
        self._play(move, by_computer=True)

    # -- commands -------------------------------------------------------------------------

    def _cmd_help(self, args: list[str]) -> None:
        self.say(HELP)

    def _cmd_board(self, args: list[str]) -> None:
        self.show()

    def _cmd_flip(self, args: list[str]) -> None:
        self.orientation = not self.orientation
        self.show()

    def _cmd_fen(self, args: list[str]) -> None:
        self.say(self.board.fen())

    def _cmd_moves(self, args: list[str]) -> None:
        moves = sorted(self.board.san(move) for move in self.board.legal_moves)
        if self.finished:
            self.say("The game is over: no moves.")
            return
        self.say(f"{len(moves)} legal moves: {' '.join(moves)}")

    def _cmd_pgn(self, args: list[str]) -> None:
        from royalchess import pgn

        headers = {
            "Event": "Casual game",
            "Site": "royalchess",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "Result": self.result,
        }
        for color, tag in ((WHITE, "White"), (not WHITE, "Black")):
            player = self.player(color)
            headers[tag] = f"royalchess level {self.level}" if player == COMPUTER else "Player"
        if self.board.variant == "royal":
            headers["Variant"] = "Royal Chess"
        if self.start.fen() != self.start.variant_info.start_fen:
            headers.update(SetUp="1", FEN=self.start.fen())
        self.say(pgn.write_game(self.start, self.board.move_stack, headers=headers).rstrip())

    def _cmd_hint(self, args: list[str]) -> None:
        if self.finished:
            self.say("The game is over: there is no move to suggest.")
            return
        try:
            computer = self._computer_engine()
            with self.screen.thinking("Looking for a good move…"):
                move = computer.hint(self.board)
        except (ImportError, RuntimeError, ValueError, OSError) as exc:  # no engine, or it failed
            self.say(f"No hint: the computer is not available ({exc}).", "error")
            return
        if move is None:
            self.say("There is no move to suggest.")
            return
        san = self.board.san(move)
        self._hint = move
        if self.screen.live:
            self.show()
        self.say(f"Hint: {san} ({move.uci()})", "hint")

    def _cmd_undo(self, args: list[str]) -> None:
        self._takeback("undo")

    def _cmd_takeback(self, args: list[str]) -> None:
        self._takeback("take back")

    def _takeback(self, word: str) -> None:
        if not self.board.move_stack:
            self.say(f"Nothing to {word}.")
            return
        if not self._in_step():
            return
        try:
            self.session.takeback_plies()  # your move and the computer's reply, if any
        except GameError:
            self.say("No move of yours to take back.")
            return
        taken: list[str] = []
        if not self._save(lambda: taken.extend(self.session.takeback())):
            return
        self._hint = None
        self.show()
        self.say(f"Took back {' '.join(taken)}.", "note")

    def set_level(self, level: int) -> None:
        """Set the computer's level (1-20) and save it."""
        self._cmd_level([str(level)])

    def _cmd_level(self, args: list[str]) -> None:
        if not args:
            self.say(f"The computer plays at level {self.level} (1 to 20).")
            return
        try:
            level = int(args[0])
        except ValueError:
            level = 0
        if not 1 <= level <= 20 or len(args) > 1:
            self.say(f"Not a level: {' '.join(args)!r}. Type a whole number from 1 to 20.", "error")
            return
        if not self._in_step():
            return
        if not self._save(lambda: self.session.set_players(level=level)):
            return
        self.say(f"The computer now plays at level {level}.")
        if self.mode == "two-players":
            self.say(
                "(Two players are playing: 'new white' or 'new black' plays the computer.)", "note"
            )

    def _cmd_draw(self, args: list[str]) -> None:
        if self.finished:
            self.say("The game is over already.")
            return
        if not self._in_step():
            return
        if self.board.outcome(claim_draw=True) is None:
            self.say("No draw can be claimed now (threefold repetition or fifty moves).", "error")
            return
        if not self._save(self.session.claim_draw):
            return
        if self.screen.live:
            self.show()
        self.say(_describe_result(self.result, self.termination), "result")

    def _cmd_resign(self, args: list[str]) -> None:
        if self.finished:
            self.say("The game is over already.")
            return
        if not self._in_step():
            return
        human = self._human_side()
        side = self.board.turn if human is None else human
        if not self._save(lambda: self.session.resign(side)):
            return
        if self.screen.live:
            self.show()
        self.say(f"{_color(side)} resigns. {self.result}", "result")

    def _cmd_save(self, args: list[str]) -> None:
        if self.store is None:
            self.say("Saving is off for this game (--no-save).", "error")
            return
        if self.game_id is None:
            self._save(self.session.save_new)
            if self.game_id is None:
                return
        elif not self._in_step():
            return
        self.say(
            f"Game #{self.game_id} is saved in {self.store.path} (every move is). Go on with it "
            f"later: 'royalchess play --resume {self.game_id}', or in the browser.",
        )

    def _cmd_games(self, args: list[str]) -> None:
        if self.store is None:
            self.say("Saving is off (--no-save): there are no saved games to list.", "error")
            return
        records = self.store.list_games("all", limit=20)
        if not records:
            self.say("No saved games yet.")
            return
        self.screen.listing(GAMES_HEADER, [describe_game(rec) for rec in records])
        self.say("Type 'resume N' to go on with game N.", "note")

    def _cmd_resume(self, args: list[str]) -> None:
        if self.store is None:
            self.say("Saving is off (--no-save): there are no saved games.", "error")
            return
        try:
            if args:
                rec = self.store.get(int(args[0].lstrip("#")))
            else:
                found = [r for r in self.store.list_games("unfinished") if r.id != self.game_id]
                if not found:
                    self.say("There is no other unfinished game to resume.")
                    return
                rec = self.store.get(found[0].id)
        except ValueError:
            self.say(f"Not a game number: {args[0]!r}.", "error")
            return
        except GameNotFoundError as exc:
            self.say(f"{str(exc).capitalize()}: 'games' lists them.", "error")
            return
        self._pause()
        try:
            self.load(rec)
        except GameError as exc:  # a damaged record: say so, keep the game in hand
            self.say(f"{exc.message[0].upper()}{exc.message[1:]}.", "error")
            return
        self._begin()

    def _cmd_new(self, args: list[str]) -> None:
        variant = self.board.variant
        human = self._human_side()
        mode = self.mode if self.mode != "computer-vs-computer" else "vs-computer"
        color = WHITE if human is None else human
        level = self.level
        clock = self.session.clock  # a new game keeps the time control unless told
        control = None if clock is None else clock.control
        if args:
            for word in (w.lower() for w in args):
                if "+" in word or word == "none":
                    try:
                        control = parse_time_control(word)
                    except TimeControlError as exc:
                        self.say(f"{str(exc)[0].upper()}{str(exc)[1:]}.", "error")
                        return
                elif word in VARIANTS:
                    variant = word
                elif word in ("white", "black", "random"):
                    mode = "vs-computer"
                    color = (
                        random.choice((WHITE, not WHITE)) if word == "random" else (word == "white")
                    )
                elif word in ("computer", "engine"):
                    mode = "vs-computer"
                elif word in ("two", "friend", "players", "two-players", "human"):
                    mode = "two-players"
                elif word.isdigit() and 1 <= int(word) <= 20:
                    level = int(word)
                else:
                    self.say(
                        f"Not understood: {word!r}. Try 'new royal black 5' or 'new chess two'.",
                        "error",
                    )
                    return
        elif self.screen.interactive:
            variant, mode, color, level = ask_setup(
                self.screen, variant=variant, mode=mode, color=color, level=level
            )
        previous = self.game_id if self.board.move_stack and not self.finished else None
        self._pause()
        self.new_game(
            Board(variant=variant), mode=mode, color=color, level=level, time_control=control
        )
        self._begin()
        if previous is not None:
            self.say(f"Game #{previous} stays saved: 'resume {previous}' goes back to it.", "note")


def ask_setup(
    screen: Screen,
    *,
    variant: str = "chess",
    mode: str = "vs-computer",
    color: bool = WHITE,
    level: int = DEFAULT_LEVEL,
    ask_variant: bool = True,
) -> tuple[str, str, bool, int]:
    """Ask a person at the terminal for the game, the opponent, the colour and the level;
    Enter keeps each default (*ask_variant* false: the game is *variant*)."""
    variant = variant or "chess"
    if ask_variant:
        variant = screen.question("Game", ["chess", "royal"], variant)
    opponent = screen.question(
        "Opponent", ["computer", "friend"], "computer" if mode == "vs-computer" else "friend"
    )
    if opponent == "friend":
        return variant, "two-players", WHITE, level
    side = screen.question("Your colour", ["white", "black", "random"], _color(color).lower())
    color = random.choice((WHITE, not WHITE)) if side == "random" else side == "white"
    while True:
        answer = screen.question("Level", [str(n) for n in range(1, 21)], str(level))
        if answer.isdigit():
            return variant, "vs-computer", color, int(answer)
