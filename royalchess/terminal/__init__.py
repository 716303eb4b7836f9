"""The terminal game, ``royalchess play``: chess or Royal Chess against the computer or
between two players, the board in colour (or plain text for pipes), moves typed in SAN or
UCI, hints, takebacks, and games saved in the store the web app uses.

>>> from royalchess import Board
>>> from royalchess.terminal import PlainScreen, TerminalGame
>>> lines = iter(["e4", "quit"])
>>> game = TerminalGame(PlainScreen(lambda prompt: next(lines), lambda text: None))
>>> game.new_game(Board())
>>> game.run()
0
>>> game.sans
['e4']
"""

from royalchess.terminal.app import (
    SetupError,
    add_games_arguments,
    add_play_arguments,
    export_games,
    import_games,
    list_games,
    run,
)
from royalchess.terminal.game import HELP, TerminalGame, read_move
from royalchess.terminal.screen import PlainScreen, RichScreen, View

__all__ = [
    "HELP",
    "PlainScreen",
    "RichScreen",
    "SetupError",
    "TerminalGame",
    "View",
    "add_games_arguments",
    "add_play_arguments",
    "export_games",
    "import_games",
    "list_games",
    "read_move",
    "run",
]
