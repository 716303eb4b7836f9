r"""PGN for standard chess and Royal Chess: read games into a tree of nodes, write them back.

>>> game = read_game("1. e4 e5 2. Nf3 {the usual} Nc6 (2... d6) *")
>>> [move.uci() for move in game.mainline_moves()]
['e2e4', 'e7e5', 'g1f3', 'b8c6']
>>> game.end().board().fen()
'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'
>>> game = read_game('[Variant "Royal Chess"]\n\n1. e4 e5 2. Gf3 *')
>>> game.board().variant
'royal'

The model is python-chess's: a :class:`Game` (the root, with :class:`Headers` and
``errors``) and :class:`ChildNode`\ s, each with the ``move`` that leads to it, its
``variations`` (the first is the main line), ``comment``, ``starting_comment`` and ``nags``.

Choices, where PGN or python-chess leave room:

- **Variant tag.** A Royal Chess game carries ``[Variant "Royal Chess"]``; writing always uses
  that spelling. Reading ignores case, spaces, ``-`` and ``_``, so ``royal``, ``Royal-Chess``
  and ``RoyalChess`` select it too; no tag, ``Standard``, ``Chess``, ``Normal`` and
  ``From Position`` mean standard chess. Any other variant (``Chess960``, ``Crazyhouse``) is
  an error. ``FEN`` gives the start position (``SetUp`` is written but not needed to read).
- **Errors.** Reading never raises for bad PGN text. Each problem becomes a :class:`PgnError`
  in ``game.errors`` whose message starts with the line number (counted from the start of
  the text or stream) and names the move: ``line 3: move 2. Ke3: illegal SAN 'Ke3' in ...``.
  A move that cannot be read (illegal, ambiguous, garbled) ends its line of play: the game
  keeps the moves before it and skips the rest of that variation, or of the game when it is
  on the main line. An unknown variant or a bad ``FEN`` tag skips the whole movetext (and
  ``game.board()`` raises, as the start position is unknown). Other slips (a malformed tag
  pair, an unknown annotation, an unmatched ``)`` or ``}``, an unclosed variation or
  comment) are recorded and skipped over. ``strict=True`` raises the game's first error
  instead, after reading to the end of that game (so a stream is left at the next game).
- **Where a game ends.** At a blank line outside a comment, at a tag-pair line (a ``[``
  line after movetext), at the end of the input, or at a result on the main line: text after
  the result (other than comments) starts the next game, as the PGN grammar says.
- **Comments.** ``{...}`` and ``; ...`` comments are both kept (``;`` ones are written back in
  braces); a comment before a variation's first move is that move's ``starting_comment``,
  one before the game's first move is ``game.comment``. ``%`` lines are skipped.
- **Annotations.** ``$n`` (0-255) and the suffixes ``! ? !! ?? !? ?!`` become NAGs; writing
  uses ``$n``. Writing follows python-chess's exporter token for token (move numbers,
  ``{ comment }``, ``( variation )``, lines wrapped at 80 columns).
"""

from __future__ import annotations

import contextlib
import io
import re
import weakref
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import Protocol

from royalchess.board import Board
from royalchess.errors import ChessError
from royalchess.move import WHITE, Move

__all__ = [
    "NAG_BLUNDER",
    "NAG_BRILLIANT_MOVE",
    "NAG_DUBIOUS_MOVE",
    "NAG_GOOD_MOVE",
    "NAG_MISTAKE",
    "NAG_SPECULATIVE_MOVE",
    "ROYAL_VARIANT_TAG",
    "TAG_ROSTER",
    "ChildNode",
    "Game",
    "GameNode",
    "Headers",
    "PgnError",
    "read_game",
    "read_games",
    "write_game",
    "write_games",
]

NAG_GOOD_MOVE = 1
"""A good move, ``!``."""
NAG_MISTAKE = 2
"""A mistake, ``?``."""
NAG_BRILLIANT_MOVE = 3
"""A brilliant move, ``!!``."""
NAG_BLUNDER = 4
"""A blunder, ``??``."""
NAG_SPECULATIVE_MOVE = 5
"""A speculative move, ``!?``."""
NAG_DUBIOUS_MOVE = 6
"""A dubious move, ``?!``."""

ROYAL_VARIANT_TAG = "Royal Chess"
"""The value of the ``Variant`` tag that marks a Royal Chess game."""
TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The Seven Tag Roster, in the order PGN writes it."""

MAX_ERRORS = 100
"""Errors recorded per game; after that one last error says the rest were not listed."""

_SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_VARIANTS = {
    "": "chess",
    "chess": "chess",
    "standard": "chess",
    "normal": "chess",
    "fromposition": "chess",
    "royal": "royal",
    "royalchess": "royal",
}
_TAG_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")
_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]\s*')
_TOKEN_RE = re.compile(
    r"""
      (?P<brace>\{)
    | (?P<semi>;)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$[0-9]+)
    | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?![^\s(){}\[\];$]))
    | (?P<number>[0-9]*\.+)
    | (?P<word>[^\s(){}\[\];$]+)
    | (?P<junk>\S)
    """,
    re.VERBOSE,
)
_MAX_SAN = 32  # no SAN of either variant is this long; longer words are not moves


class PgnError(ChessError):
    """A problem in PGN text: ``line`` is its line number (or ``None``), ``token`` the text."""

    def __init__(self, message: str, *, line: int | None = None, token: str | None = None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line
        self.token = token


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- headers ---------------------------------------------------------------------------------


class Headers(MutableMapping[str, str]):
    """The tag pairs of a game: the Seven Tag Roster first (in order), then the others.

    ``Headers()`` holds the roster's defaults (``Event "?"`` ... ``Result "*"``), as in
    python-chess; ``Headers({})`` is empty. Tag names must be PGN symbols and values one line.
    """

    def __init__(
        self, data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None, **kwargs: str
    ) -> None:
        self._roster: dict[str, str] = {}
        self._others: dict[str, str] = {}
        if data is None:
            data = {
                "Event": "?",
                "Site": "?",
                "Date": "????.??.??",
                "Round": "?",
                "White": "?",
                "Black": "?",
                "Result": "*",
            }
        self.update(data, **kwargs)

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not _TAG_NAME_RE.match(key):
            raise PgnError(f"invalid tag name {key!r}")
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise PgnError(f"tag {key} needs a one-line string, not {value!r}")
        (self._roster if key in TAG_ROSTER else self._others)[key] = value

    def __getitem__(self, key: str) -> str:
        return self._roster[key] if key in TAG_ROSTER else self._others[key]

    def __delitem__(self, key: str) -> None:
        del (self._roster if key in TAG_ROSTER else self._others)[key]

    def __iter__(self) -> Iterator[str]:
        yield from (key for key in TAG_ROSTER if key in self._roster)
        yield from self._others

    def __len__(self) -> int:
        return len(self._roster) + len(self._others)

    def copy(self) -> Headers:
        """Return a copy."""
        return Headers(self)

    def variant(self) -> str:
        """Return the variant the ``Variant`` tag names (``'chess'``, ``'royal'``).

        Raises :class:`PgnError` for a variant this library does not play.
        """
        value = self.get("Variant")
        if value is None:
            return "chess"
        name = _VARIANTS.get(re.sub(r"[\s_-]", "", value.lower()))
        if name is None:
            raise PgnError(
                f"unknown variant {_shorten(value)!r}: expected standard chess or "
                f"{ROYAL_VARIANT_TAG!r}",
                token=value,
            )
        return name

    def board(self) -> Board:
        """Return the start position the ``Variant`` and ``FEN`` tags describe.

        Raises :class:`PgnError` for an unknown variant and
        :class:`~royalchess.errors.InvalidFenError` for a bad ``FEN`` tag.
        """
        return Board(self.get("FEN"), variant=self.variant())

    def __repr__(self) -> str:
        return "Headers({})".format(", ".join(f"{k}={v!r}" for k, v in self.items()))


# -- the game tree ---------------------------------------------------------------------------


class GameNode:
    """A position in a game tree: the root :class:`Game` or a :class:`ChildNode`."""

    parent: GameNode | None
    """The node before this one, ``None`` for the root."""
    move: Move | None
    """The move that leads here, ``None`` for the root."""

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self.variations: list[ChildNode] = []
        """The moves played from here; the first is the main line."""
        self.comment = comment
        """The comment after the move (for the root: before the first move)."""
        self.starting_comment = ""
        """A comment before the first move of a variation (only for nodes that start one)."""
        self.nags: set[int] = set()
        """Numeric annotation glyphs of the move (``$1``, or ``!``, is 1)."""

    def board(self) -> Board:
        """Return a new board with the position at this node (replays from the root)."""
        raise NotImplementedError

    def ply(self) -> int:
        """Return the number of half-moves from the game's start (as ``Board.ply``)."""
        raise NotImplementedError

    def turn(self) -> bool:
        """Return the side to move at this node."""
        return self.ply() % 2 == 0

    def root(self) -> GameNode:
        """Return the root of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> Game:
        """Return the :class:`Game` this node belongs to."""
        root = self.root()
        if not isinstance(root, Game):
            raise TypeError("this node is not part of a Game")
        return root

    def end(self) -> GameNode:
        """Follow the main line from here to its last node and return it."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        """Return whether no move follows this node."""
        return not self.variations

    def starts_variation(self) -> bool:
        """Return whether this node is the first of a side line (not the main one)."""
        return (
            self.parent is not None
            and bool(self.parent.variations)
            and self.parent.variations[0] is not self
        )

    def is_main_variation(self) -> bool:
        """Return whether this node is its parent's main line (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Return whether this node is on the game's main line."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def variation(self, key: int | Move | GameNode) -> ChildNode:
        """Return the child given by index, by move or the node itself; else ``KeyError``."""
        if isinstance(key, int):
            try:
                return self.variations[key]
            except IndexError:
                raise KeyError(key) from None
        for child in self.variations:
            if child is key or child.move == key:
                return child
        raise KeyError(key)

    __getitem__ = variation

    def __contains__(self, key: object) -> bool:
        return any(child is key or child.move == key for child in self.variations) or (
            isinstance(key, int) and -len(self.variations) <= key < len(self.variations)
        )

    def has_variation(self, key: int | Move | GameNode) -> bool:
        """Return whether :meth:`variation` finds *key*."""
        return key in self

    def add_variation(
        self,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:
        """Add *move* as the last variation from here and return its node (no legality test)."""
        return ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    def add_main_variation(
        self, move: Move, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Add *move* as the new main line from here and return its node."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def add_line(
        self,
        moves: Iterable[Move],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> GameNode:
        """Add *moves* one after another; put *comment* and *nags* on the last; return it."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = " ".join(text for text in (node.comment, comment) if text)
        node.nags.update(nags)
        return node

    def promote_to_main(self, key: int | Move | GameNode) -> None:
        """Make the given variation the main line."""
        child = self.variation(key)
        self.variations.remove(child)
        self.variations.insert(0, child)

    def promote(self, key: int | Move | GameNode) -> None:
        """Move the given variation one place up."""
        child = self.variation(key)
        i = self.variations.index(child)
        if i > 0:
            self.variations[i - 1], self.variations[i] = child, self.variations[i - 1]

    def demote(self, key: int | Move | GameNode) -> None:
        """Move the given variation one place down."""
        child = self.variation(key)
        i = self.variations.index(child)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = child, self.variations[i + 1]

    def remove_variation(self, key: int | Move | GameNode) -> None:
        """Remove the given variation (and everything after it)."""
        self.variations.remove(self.variation(key))

    def next(self) -> ChildNode | None:
        """Return the main-line child, or ``None`` at the end."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> list[ChildNode]:
        """Return the main-line nodes after this one."""
        nodes = []
        node = self
        while node.variations:
            node = node.variations[0]
            nodes.append(node)
        return nodes

    def mainline_moves(self) -> list[Move]:
        """Return the main-line moves after this node."""
        return [node.move for node in self.mainline()]


class ChildNode(GameNode):
    """A node reached by a move; extends :class:`GameNode`."""

    parent: GameNode
    move: Move

    def __init__(
        self,
        parent: GameNode,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> None:
        super().__init__(comment=comment)
        self.parent = parent
        self.move = move
        self.starting_comment = starting_comment
        self.nags.update(nags)
        parent.variations.append(self)

    def board(self) -> Board:
        moves = []
        node: GameNode = self
        while node.parent is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        board = node.game().board()
        for move in reversed(moves):
            board.push(move)
        return board

    def ply(self) -> int:
        ply = 0
        node: GameNode = self
        while node.parent is not None:
            ply += 1
            node = node.parent
        return node.ply() + ply

    def san(self) -> str:
        """Return the SAN of the move leading here."""
        return self.parent.board().san(self.move)

    def uci(self) -> str:
        """Return the UCI spelling of the move leading here."""
        return self.move.uci()

    def __repr__(self) -> str:
        try:
            board = self.parent.board()
            text = f"{board.fullmove_number}{'.' if board.turn == WHITE else '...'} "
            text += board.san(self.move)
        except ChessError:
            text = f"dangling: {self.move.uci()}"
        return f"<ChildNode at {id(self):#x} ({text} ...)>"


class Game(GameNode):
    """The root of a game tree, with the tag pairs and the errors met while reading.

    >>> game = Game()
    >>> node = game.add_variation(game.board().parse_san("e4"))
    >>> print(game)  # doctest: +NORMALIZE_WHITESPACE
    [Event "?"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "?"]
    [Black "?"]
    [Result "*"]
    <BLANKLINE>
    1. e4 *
    """

    parent: None
    move: None

    def __init__(
        self, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None
    ) -> None:
        super().__init__()
        self.headers = Headers(headers)
        """The tag pairs (:class:`Headers`)."""
        self.errors: list[PgnError] = []
        """Problems met while reading the game (empty for a clean read)."""

    def board(self) -> Board:
        """Return the start position (``Variant`` and ``FEN`` tags).

        Raises :class:`PgnError` or :class:`~royalchess.errors.InvalidFenError` when the tags
        do not describe one.
        """
        return self.headers.board()

    def ply(self) -> int:
        return self.board().ply() if "FEN" in self.headers else 0

    @property
    def variant(self) -> str:
        """The variant of the game (``'chess'`` or ``'royal'``), from the ``Variant`` tag."""
        return self.headers.variant()

    def setup(self, board: Board | str) -> None:
        """Start the game at *board* (or a FEN of the game's variant).

        Sets or removes the ``FEN``, ``SetUp`` and ``Variant`` tags.
        """
        if isinstance(board, str):
            board = Board(board, variant=self.headers.variant())
        info = board.variant_info
        fen = board.fen()
        if fen == info.start_fen:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["SetUp"] = "1"
            self.headers["FEN"] = fen
        if info.name == "royal":
            self.headers["Variant"] = ROYAL_VARIANT_TAG
        else:
            self.headers.pop("Variant", None)

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """Return a game of the moves played on *board*, from its first position.

        The ``Result`` tag is ``board.result()``.

        >>> board = Board(variant="royal")
        >>> board.push_san("e4")
        Move.from_uci('e2e4', files=10)
        >>> str(Game.from_board(board)).splitlines()[-1]
        '1. e4 *'
        """
        start = board.copy()
        moves = board.move_stack
        for _ in moves:
            start.pop()
        game = cls()
        game.setup(start)
        node: GameNode = game
        for move in moves:
            node = node.add_variation(move)
        game.headers["Result"] = board.result()
        return game

    @classmethod
    def without_tag_roster(cls) -> Game:
        """Return a game with no tag pairs at all."""
        return cls(headers={})

    def __str__(self) -> str:
        return _export(self, self.headers, 80, True, True, True)

    def __repr__(self) -> str:
        errors = f", {len(self.errors)} errors" if self.errors else ""
        return (
            f"<Game at {id(self):#x} ({self.headers.get('White', '?')!r} vs. "
            f"{self.headers.get('Black', '?')!r}, {self.headers.get('Date', '????.??.??')!r}"
            f"{errors})>"
        )


# -- writing ---------------------------------------------------------------------------------


class _Writer:
    """python-chess's string exporter: tokens wrapped at *columns*."""

    def __init__(self, columns: int | None, comments: bool) -> None:
        self.columns = columns
        self.comments = comments
        self.lines: list[str] = []
        self.current = ""
        self.force_number = True

    def token(self, text: str) -> None:
        if self.columns is not None and self.columns - len(self.current) < len(text):
            self.flush()
        self.current += text

    def flush(self) -> None:
        if self.current:
            self.lines.append(self.current.rstrip())
        self.current = ""

    def line(self, text: str) -> None:
        self.flush()
        self.lines.append(text.rstrip())

    def comment(self, text: str) -> None:
        if self.comments:
            self.token("{ " + text.replace("}", "").strip() + " } ")
            self.force_number = True

    def node(self, node: ChildNode, board: Board) -> None:
        if node.starting_comment:
            self.comment(node.starting_comment)
        if board.turn == WHITE:
            self.token(f"{board.fullmove_number}. ")
        elif self.force_number:
            self.token(f"{board.fullmove_number}... ")
        self.token(board.san(node.move) + " ")
        self.force_number = False
        if self.comments:
            for nag in sorted(node.nags):
                self.token(f"${nag} ")
        if node.comment:
            self.comment(node.comment)

    def result(self) -> str:
        self.flush()
        return "\n".join(self.lines).rstrip()


class _Frame:
    """One node being written, with where it is in its visit (python-chess's order)."""

    __slots__ = ("node", "sidelines", "state")

    def __init__(self, node: ChildNode, sidelines: bool) -> None:
        self.node = node
        self.state = 0  # 0: write the node, 1: its parent's side lines, 2: after the main line
        self.sidelines = iter(node.parent.variations[1:] if sidelines else ())


def _write_tree(writer: _Writer, first: ChildNode, board: Board, variations: bool) -> None:
    """Write the main line from *first* and, if *variations*, every side line (no recursion)."""
    stack = [_Frame(first, variations)]
    open_sideline = [False]
    while stack:
        top = stack[-1]
        if open_sideline[-1]:
            open_sideline[-1] = False
            writer.token(") ")
            writer.force_number = True
        if top.state == 0:
            writer.node(top.node, board)
            top.state = 1
        elif top.state == 1:
            sideline = next(top.sidelines, None)
            if sideline is not None:
                writer.token("( ")
                writer.force_number = True
                open_sideline[-1] = True
                stack.append(_Frame(sideline, False))
                open_sideline.append(False)
            elif top.node.variations:
                board.push(top.node.move)
                stack.append(_Frame(top.node.variations[0], variations))
                open_sideline.append(False)
                top.state = 2
            else:
                stack.pop()
                open_sideline.pop()
        else:
            board.pop()
            stack.pop()
            open_sideline.pop()


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _export(
    game: Game,
    headers: Mapping[str, str],
    columns: int | None,
    tags: bool,
    comments: bool,
    variations: bool,
) -> str:
    writer = _Writer(columns, comments)
    if tags and headers:
        for name, value in headers.items():
            writer.line(f'[{name} "{_escape(value)}"]')
        writer.line("")
    if game.comment:
        writer.comment(game.comment)
    if game.variations:
        _write_tree(writer, game.variations[0], game.board(), variations)
    writer.token(headers.get("Result", "*") + " ")
    return writer.result()


def write_game(
    game: Game | Board,
    moves: Iterable[Move] | None = None,
    *,
    headers: Mapping[str, str] | None = None,
    columns: int | None = 80,
    tags: bool = True,
    comments: bool = True,
    variations: bool = True,
) -> str:
    """Return *game* as PGN text ending with a newline (``str(game)`` plus ``'\\n'``).

    *game* may also be a :class:`Board`: its moves from its first position, as
    :meth:`Game.from_board`; or, given *moves*, those moves played from the board's current
    position. *headers* adds or replaces tag pairs for this text (the game is not changed).
    *columns* wraps the movetext (``None``: one line); *tags*, *comments* and *variations*
    leave those parts out when false.
    """
    if isinstance(game, Board):
        board = game.copy()
        if moves is not None:
            board = Board(board.fen(), variant=board.variant)
            for move in moves:
                board.push(move)
        game = Game.from_board(board)
    elif moves is not None:
        raise TypeError("moves are given with a Board, not with a Game")
    tag_pairs: Mapping[str, str] = game.headers
    if headers:
        tag_pairs = game.headers.copy()
        tag_pairs.update(headers)
    return _export(game, tag_pairs, columns, tags, comments, variations) + "\n"


def write_games(
    games: Iterable[Game],
    *,
    columns: int | None = 80,
    tags: bool = True,
    comments: bool = True,
    variations: bool = True,
) -> str:
    """Return several games as one PGN text, a blank line between them (see write_game)."""
    return "\n".join(
        write_game(game, columns=columns, tags=tags, comments=comments, variations=variations)
        for game in games
    )


# -- reading ---------------------------------------------------------------------------------


class _Readable(Protocol):
    def readline(self) -> str | bytes: ...


# Where reading stopped in each stream, so that the next read_game call on it continues there:
# the text already read but not used (after a result, or a tag line), the line count and the
# stream position (to notice a caller's seek).
_STATE: weakref.WeakKeyDictionary[object, tuple[str | None, int, int | None]] = (
    weakref.WeakKeyDictionary()
)


def _tell(handle: object) -> int | None:
    try:
        if handle.seekable():  # type: ignore[attr-defined]
            return int(handle.tell())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError, TypeError):
        pass
    return None


class _Source:
    """Lines of a stream with push-back and a line counter.

    For a caller's stream (*keep*), both are kept between calls in ``_STATE``.
    """

    def __init__(self, handle: _Readable, keep: bool) -> None:
        self.handle = handle
        self.keep = keep
        self.pending: str | None = None
        self.lineno = 0
        if keep:
            try:
                state = _STATE.pop(handle, None)
            except TypeError:
                state = None
            if state is not None and (state[2] is None or _tell(handle) == state[2]):
                self.pending, self.lineno = state[0], state[1]

    def readline(self) -> str:
        if self.pending is not None:
            line, self.pending = self.pending, None
        else:
            raw = self.handle.readline()
            line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
        if line:
            self.lineno += 1
        return line

    def unread(self, text: str) -> None:
        self.pending = text
        self.lineno -= 1

    def save(self) -> None:
        if self.keep:
            with contextlib.suppress(TypeError):  # a stream that takes no weak reference
                _STATE[self.handle] = (self.pending, self.lineno, _tell(self.handle))


class _Line:
    """A line of play being read: its last node, the position there, and what is pending."""

    __slots__ = ("board", "moved", "node", "opened", "starting_comment")

    def __init__(self, node: GameNode, board: Board, opened: int) -> None:
        self.node = node
        self.board = board
        self.moved = False
        self.opened = opened
        self.starting_comment: list[str] = []


class _GameReader:
    """Reads one game from a :class:`_Source`."""

    def __init__(self, source: _Source) -> None:
        self.source = source
        self.game = Game()
        self.tag_lines: dict[str, int] = {}
        self.lines: list[_Line] = []
        self.skip = 0  # > 0 while skipping a broken side line: its open parentheses
        self.dead = False  # the main line is broken: read on to the game's end only
        self.dead_depth = 0
        self.ended = False  # the result on the main line was read
        self.notes: dict[int, tuple[GameNode, list[str]]] = {}  # comments, joined at the end

    def error(
        self,
        message: str,
        line: int | None,
        token: str | None = None,
        cause: Exception | None = None,
    ) -> None:
        errors = self.game.errors
        if len(errors) < MAX_ERRORS:
            error = PgnError(message, line=line, token=token)
            error.__cause__ = cause
            errors.append(error)
        elif len(errors) == MAX_ERRORS:
            errors.append(PgnError(f"more than {MAX_ERRORS} errors; the rest are not listed"))

    # -- tag pairs ---------------------------------------------------------------------------

    def read(self) -> Game | None:
        src = self.source
        line = src.readline().lstrip("\ufeff")
        while line and (not line.strip() or line[0] in "%;"):
            line = src.readline().lstrip("\ufeff")
        if not line:
            return None
        empty = 0
        while line:
            if line[0] in "%;":
                line = src.readline()
                continue
            if not line.strip():
                if empty:
                    break
                empty += 1
                line = src.readline()
                continue
            if not line.lstrip().startswith("["):
                break
            empty = 0
            self.tags(line.strip())
            line = src.readline()
        self.start()
        self.movetext(line)
        self.finish()
        return self.game

    def tags(self, text: str) -> None:
        pos = 0
        while pos < len(text):
            match = _TAG_RE.match(text, pos)
            if match is None:
                self.error(f"malformed tag pair {_shorten(text[pos:])!r}", self.source.lineno, text)
                return
            name, value = match.group(1), re.sub(r'\\([\\"])', r"\1", match.group(2))
            self.game.headers[name] = value
            self.tag_lines[name] = self.source.lineno
            pos = match.end()

    def start(self) -> None:
        headers = self.game.headers
        try:
            variant = headers.variant()
        except PgnError as exc:
            self.error(str(exc), self.tag_lines.get("Variant"), headers.get("Variant"), exc)
            self.dead = True
            board = Board()
        else:
            fen = headers.get("FEN")
            try:
                board = Board(fen, variant=variant)
            except ChessError as exc:
                hint = ""
                other = "royal" if variant == "chess" else "chess"
                try:
                    Board(fen, variant=other)
                    hint = (
                        f' (a Royal Chess position: is [Variant "{ROYAL_VARIANT_TAG}"] missing?)'
                        if other == "royal"
                        else " (a standard chess position, but the game is Royal Chess)"
                    )
                except ChessError:
                    pass
                self.error(
                    f"invalid FEN tag {_shorten(str(fen), 100)!r}: {exc}{hint}",
                    self.tag_lines.get("FEN"),
                    fen,
                    exc,
                )
                self.dead = True
                board = Board()
        self.lines = [_Line(self.game, board, 0)]

    # -- movetext ----------------------------------------------------------------------------

    def movetext(self, line: str) -> None:
        src = self.source
        while line:
            if line[0] == "%":
                line = src.readline()
                continue
            if not line.strip():
                return
            if line.lstrip().startswith("["):
                src.unread(line)
                return
            pos = 0
            while True:
                match = _TOKEN_RE.search(line, pos)
                if match is None:
                    break
                kind, token, pos = match.lastgroup, match.group(), match.end()
                if kind == "brace":
                    comment, line, pos = self.read_comment(line, pos)
                    self.comment(comment)
                elif kind == "semi":
                    self.comment(line[pos:].strip())
                    break
                elif self.ended:
                    src.unread(line[match.start() :])  # the next game starts here
                    return
                else:
                    self.token(str(kind), token)
            line = src.readline()

    def read_comment(self, line: str, pos: int) -> tuple[str, str, int]:
        """Return the comment starting at *pos*, the line it ends on and the position after."""
        end = line.find("}", pos)
        if end >= 0:
            return line[pos:end].strip(), line, end + 1
        parts = [line[pos:]]
        opened = self.source.lineno
        while True:
            line = self.source.readline()
            if not line:
                self.error("comment '{' is not closed before the end of the text", opened, "{")
                return "".join(parts).replace("\r\n", "\n").strip(), "", 0
            end = line.find("}")
            if end >= 0:
                parts.append(line[:end])
                return "".join(parts).replace("\r\n", "\n").strip(), line, end + 1
            parts.append(line)

    def comment(self, text: str) -> None:
        if self.skip or self.dead or not text:
            return
        top = self.lines[-1]
        node = top.node
        if top.moved or (node.parent is None and not node.variations):
            notes = self.notes.get(id(node))
            if notes is None:
                self.notes[id(node)] = (node, [text])
            else:
                notes[1].append(text)
        else:
            top.starting_comment.append(text)

    def token(self, kind: str, token: str) -> None:
        lineno = self.source.lineno
        if self.dead:
            if kind == "open":
                self.dead_depth += 1
            elif kind == "close" and self.dead_depth:
                self.dead_depth -= 1
            elif kind == "result" and not self.dead_depth:
                self.result(token)
            return
        if self.skip:
            if kind == "open":
                self.skip += 1
            elif kind == "close":
                self.skip -= 1
                if not self.skip:
                    self.lines.pop()
            return
        top = self.lines[-1]
        if kind == "word":
            self.word(token, top, lineno)
        elif kind == "number":
            pass
        elif kind == "nag":
            digits = token[1:].lstrip("0") or "0"
            if len(digits) > 3 or int(digits) > 255:
                self.error(f"NAG {_shorten(token)!r} is not one of $0 to $255", lineno, token)
            else:
                top.node.nags.add(int(digits))
        elif kind == "open":
            if not top.moved:
                self.error("a variation '(' must follow a move", lineno, token)
                self.lines.append(_Line(top.node, top.board, lineno))
                self.skip = 1
            else:
                board = top.board.copy()
                board.pop()
                parent = top.node.parent
                assert parent is not None
                self.lines.append(_Line(parent, board, lineno))
        elif kind == "close":
            if len(self.lines) == 1:
                self.error("')' without a matching '('", lineno, token)
            else:
                closed = self.lines.pop()
                for text in closed.starting_comment:  # a variation with comments, no move
                    self.comment(text)
        elif kind == "result":
            if len(self.lines) > 1:
                self.error(f"result {token!r} inside a variation", lineno, token)
            else:
                self.result(token)
        else:
            self.error(f"unexpected {token!r}", lineno, token)

    def result(self, token: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = token
        self.ended = True

    def word(self, token: str, top: _Line, lineno: int) -> None:
        if token in ("e.p.", "ep"):
            return
        san = token.rstrip("!?")
        suffix = token[len(san) :]
        if suffix and suffix not in _SUFFIX_NAGS:
            self.error(f"unknown annotation {_shorten(suffix)!r} in {_shorten(token)!r}", lineno)
            suffix = ""
        if not san:
            if suffix:
                top.node.nags.add(_SUFFIX_NAGS[suffix])
            return
        board = top.board
        try:
            if len(san) > _MAX_SAN:
                raise ChessError(f"{_shorten(san)!r} is not a move")
            move = board.parse_san(san)
        except ChessError as exc:
            where = f"move {board.fullmove_number}{'.' if board.turn == WHITE else '...'} "
            where += _shorten(token)
            if len(self.lines) > 1:
                where += f" (in the variation opened on line {top.opened})"
            self.error(f"{where}: {exc}", lineno, token, exc)
            if len(self.lines) > 1:
                self.skip = 1
            else:
                self.dead = True
            return
        node = top.node.add_variation(move, starting_comment=" ".join(top.starting_comment))
        top.starting_comment = []
        board.push(move)
        top.node = node
        top.moved = True
        if suffix:
            node.nags.add(_SUFFIX_NAGS[suffix])

    def finish(self) -> None:
        for node, texts in self.notes.values():
            node.comment = " ".join(texts)
        if len(self.lines) > 1:
            opened = self.lines[1].opened
            count = len(self.lines) - 1 if not self.skip else len(self.lines) - 2 + self.skip
            what = "a variation" if count == 1 else f"{count} variations"
            self.error(f"{what} opened here not closed before the end of the game", opened, "(")


def _read(source: _Source, strict: bool) -> Game | None:
    game = _GameReader(source).read()
    source.save()
    if strict and game is not None and game.errors:
        raise game.errors[0]
    return game


def _open(source: str | bytes | _Readable) -> _Source:
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    if isinstance(source, str):
        return _Source(io.StringIO(source, newline=None), keep=False)
    if not hasattr(source, "readline"):
        raise TypeError(f"expected PGN text or a text stream, not {type(source).__name__}")
    return _Source(source, keep=True)


def read_game(source: str | bytes | _Readable, *, strict: bool = False) -> Game | None:
    """Read the next game from PGN text or a stream; return ``None`` when there is none.

    A stream is read line by line and left at the start of the next game, so calling this
    again reads the next one. Problems are recorded in ``game.errors`` (see the module
    notes); with *strict*, the first one is raised as a :class:`PgnError` instead.

    >>> game = read_game("1. e4 e5 2. Ke3 *")
    >>> game.mainline_moves()
    [Move.from_uci('e2e4'), Move.from_uci('e7e5')]
    >>> print(game.errors[0])  # doctest: +ELLIPSIS
    line 1: move 2. Ke3: illegal SAN 'Ke3' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR ...
    """
    return _read(_open(source), strict)


def read_games(source: str | bytes | _Readable, *, strict: bool = False) -> Iterator[Game]:
    """Yield every game of PGN text or a stream, in order (see :func:`read_game`)."""
    lines = _open(source)
    while True:
        game = _read(lines, strict)
        if game is None:
            return
        yield game
