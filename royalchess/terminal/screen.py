"""What the terminal game looks like: a plain line mode and a coloured one (``rich``).

The game (:mod:`royalchess.terminal.game`) talks to a screen through a handful of methods:
:meth:`show` draws the position, :meth:`say` prints a message of some kind, :meth:`ask`
reads a line (raising :class:`EOFError` at the end of input) and :meth:`thinking` wraps the
computer's search. :class:`PlainScreen` writes plain text through two callables, for pipes,
scripts and tests; :class:`RichScreen` draws the board in colour for a person at a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from royalchess.board import Board
from royalchess.move import UNICODE_PIECE_SYMBOLS, WHITE
from royalchess.notation.squares import FILE_NAMES

__all__ = ["PlainScreen", "RichScreen", "View"]


@dataclass
class View:
    """Everything a screen may draw of the game in progress."""

    board: Board
    orientation: bool = WHITE
    title: str = ""
    players: tuple[str, str] = ("White", "Black")
    """How White and Black are played (``'you'``, ``'computer (level 4)'``...)."""
    game_id: int | None = None
    moves: list[str] = field(default_factory=list)
    """The game's moves in SAN, from the start position."""
    first_number: int = 1
    first_turn: bool = WHITE
    last: Sequence[int] = ()
    """Squares of the last move (Guard, King, Rook for a castling move)."""
    hint: Sequence[int] = ()
    """Squares of a suggested move."""
    status: str = ""
    result: str = ""
    clocks: tuple[str, str] | None = None
    """White's and Black's time left (``'4:59'``), when the game has a clock."""


def numbered(moves: Sequence[str], first_number: int, first_turn: bool) -> list[str]:
    """Return *moves* as numbered lines: ``['1. e4 e5', '2. Nf3']``."""
    lines: list[str] = []
    number, turn = first_number, first_turn
    for san in moves:
        if turn:
            lines.append(f"{number}. {san}")
        elif not lines:
            lines.append(f"{number}... {san}")
        else:
            lines[-1] += f" {san}"
        if not turn:
            number += 1
        turn = not turn
    return lines


class PlainScreen:
    """Plain text through *read* (``input``) and *out* (``print``): pipes, scripts, tests.

    *echo* writes each line read back out (when the input is not a terminal, so that a
    transcript reads as a dialogue); *unicode* draws the pieces as symbols.
    """

    interactive = False
    """Whether questions can be asked (a person is there to answer them)."""
    live = False
    """Whether the board is drawn after every move (else only when a person is to move)."""

    def __init__(
        self,
        read: Callable[[str], str] = input,
        out: Callable[[str], None] = print,
        *,
        echo: bool = False,
        unicode: bool = False,
    ) -> None:
        self._read = read
        self._out = out
        self.echo = echo
        self.unicode = unicode

    def show(self, view: View) -> None:
        board = view.board
        if self.unicode:
            self._out(board.unicode(borders=True, orientation=view.orientation))
        else:
            self._out(board.ascii(coordinates=True, orientation=view.orientation))
        if view.clocks:
            self._out(f"Clock: White {view.clocks[0]} | Black {view.clocks[1]}")

    def say(self, text: str, kind: str = "info") -> None:
        self._out(text)

    def ask(self, prompt: str) -> str:
        line = self._read(prompt)
        if self.echo:
            self._out(line.strip())
        return line

    def question(self, prompt: str, choices: Sequence[str], default: str) -> str:
        return default

    def listing(self, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]
        for row in (header, *rows):
            self._out("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())

    @contextmanager
    def thinking(self, text: str) -> Iterator[None]:
        yield

    def set_completer(self, words: Callable[[], list[str]]) -> None:
        pass

    def close(self) -> None:
        pass


# -- the coloured screen -----------------------------------------------------------------------

# mid-tone squares, so that both white and black letters stand out on both
LIGHT = "#b09470"
DARK = "#7d5d3f"
LAST_LIGHT = "#b3ad52"
LAST_DARK = "#8a8430"
HINT_LIGHT = "#7397bd"
HINT_DARK = "#4d7299"
CHECK = "#c8402c"
WHITE_PIECE = "bold #ffffff"
BLACK_PIECE = "bold #000000"

_STYLES = {
    "info": "",
    "note": "dim",
    "error": "bold red",
    "move": "bold",
    "hint": "bold cyan",
    "result": "bold magenta",
    "title": "bold",
}

_ANSI = re.compile(r"(\x1b\[[0-9;]*m)")


class RichScreen:
    """The board in colour with the game beside it, for a person at a terminal."""

    interactive = True
    live = True

    def __init__(self, console: Any = None, *, unicode: bool = False) -> None:
        from rich.console import Console

        self.console = console or Console(highlight=False)
        self.unicode = unicode
        self._colours = self.console.color_system is not None and not self.console.no_color
        self._words: Callable[[], list[str]] | None = None
        self._readline: Any = None
        try:
            import readline
        except ImportError:  # not on every platform
            pass
        else:
            self._readline = readline

    # -- drawing --------------------------------------------------------------------------

    def _glyph(self, board: Board, square: int) -> tuple[str, str]:
        piece = board.piece_at(square)
        if piece is None:
            # without colours (NO_COLOR, a dumb terminal) empty squares need a mark
            return ("   " if self._colours else " . "), ""
        # filled glyphs for both sides, told apart by their colour
        letter = piece.symbol()[0]
        if self.unicode:
            letter = UNICODE_PIECE_SYMBOLS[letter.lower()]
        mark = "*" if piece.queen_powers else " "
        return f" {letter}{mark}", WHITE_PIECE if piece.color else BLACK_PIECE

    def board_text(self, view: View) -> Any:
        """The board as a rich ``Text``: coloured squares, last move, hint and check."""
        from rich.text import Text

        board = view.board
        files, ranks = board.files, board.ranks
        check: int | None = board.king(board.turn) if board.is_check() else None
        text = Text()
        rank_order = range(ranks - 1, -1, -1) if view.orientation else range(ranks)
        file_order = list(range(files) if view.orientation else range(files - 1, -1, -1))
        for rank in rank_order:
            text.append(f"{rank + 1} ", style="bold")
            for file in file_order:
                square = rank * files + file
                light = (rank + file) % 2 == 1
                if square == check:
                    background = CHECK
                elif square in view.hint:
                    background = HINT_LIGHT if light else HINT_DARK
                elif square in view.last:
                    background = LAST_LIGHT if light else LAST_DARK
                else:
                    background = LIGHT if light else DARK
                glyph, color = self._glyph(board, square)
                text.append(glyph, style=f"{color} on {background}".strip())
            text.append("\n")
        text.append("  " + "".join(f" {FILE_NAMES[f]} " for f in file_order), style="bold")
        return text

    def _side_text(self, view: View, height: int) -> Any:
        from rich.text import Text

        text = Text()
        heading = view.title + (f"  · game #{view.game_id}" if view.game_id is not None else "")
        text.append(heading + "\n", style="bold")
        clocks = view.clocks or ("", "")
        text.append("White: ", style="bold")
        text.append(view.players[0] + (f"  ⏱ {clocks[0]}" if clocks[0] else "") + "\n")
        text.append("Black: ", style="bold")
        text.append(view.players[1] + (f"  ⏱ {clocks[1]}" if clocks[1] else "") + "\n\n")
        lines = numbered(view.moves, view.first_number, view.first_turn)
        room = max(height - 7, 1)
        if len(lines) > room:
            lines = ["…", *lines[-(room - 1) :]] if room > 1 else lines[-1:]
        text.append("\n".join(lines) if lines else "(no moves yet)", style="" if lines else "dim")
        text.append("\n\n'help' lists the commands", style="dim")
        return text

    def show(self, view: View) -> None:
        from rich.table import Table

        board_text = self.board_text(view)
        grid = Table.grid(padding=(0, 3))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(board_text, self._side_text(view, view.board.ranks + 1))
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(grid)
        if view.result:
            self.console.print(view.result, style=_STYLES["result"])
        elif view.status:
            self.console.print(view.status, style="bold" if "check" in view.status else "")

    def say(self, text: str, kind: str = "info") -> None:
        self.console.print(text, style=_STYLES.get(kind, ""), markup=False)

    def listing(self, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        from rich.table import Table

        table = Table(box=None, header_style="bold", pad_edge=False)
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        self.console.print(table)

    @contextmanager
    def thinking(self, text: str) -> Iterator[None]:
        with self.console.status(text, spinner="dots"):
            yield

    # -- reading --------------------------------------------------------------------------

    def _prompt(self, prompt: str, style: str = "bold") -> str:
        """*prompt* rendered with its colour codes wrapped for readline."""
        with self.console.capture() as capture:
            self.console.print(prompt, style=style, end="", markup=False)
        rendered = capture.get()
        if self._readline is not None:
            rendered = _ANSI.sub("\x01\\1\x02", rendered)
        return rendered

    def ask(self, prompt: str) -> str:
        return input(self._prompt(prompt))

    def question(self, prompt: str, choices: Sequence[str], default: str) -> str:
        """Ask until one of *choices* (or a unique prefix) is typed; Enter means *default*."""
        shown = "/".join(choices) if len(choices) <= 6 else f"{choices[0]}-{choices[-1]}"
        while True:
            answer = input(self._prompt(f"{prompt} ({shown}) [{default}]: ", "")).strip().lower()
            if not answer:
                return default
            found = [c for c in choices if c.lower() == answer]
            found = found or [c for c in choices if c.lower().startswith(answer)]
            if len(found) == 1:
                return found[0]
            self.say(f"Please answer one of {', '.join(choices)}.", "error")

    def set_completer(self, words: Callable[[], list[str]]) -> None:
        """Complete commands and legal moves with the Tab key."""
        readline = self._readline
        if readline is None:
            return
        self._words = words

        def complete(text: str, state: int) -> str | None:
            options = [w for w in words() if w.startswith(text)] if self._words else []
            return options[state] if state < len(options) else None

        readline.set_completer_delims(" \t\n")
        readline.set_completer(complete)
        readline.parse_and_bind("tab: complete")

    def close(self) -> None:
        if self._readline is not None:
            self._readline.set_completer(None)
