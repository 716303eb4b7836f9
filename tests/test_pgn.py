"""PGN, both ways, for both variants (``royalchess.pgn``).

- Reading real-world-style PGN: tags, move numbers in every spelling, comments (``{}``, ``;``),
  NAGs and ``!?`` suffixes, nested variations, ``%`` lines, several games, BOM, CRLF, bytes and
  binary streams; Royal Chess tokens (``Wg3_O-O:h1``, ``e8=G-``) and the ``Variant`` tag.
- Writing: python-chess's export format token for token, tags, wrapping, the options, the
  board forms of ``write_game``, deep trees without recursion.
- Round trips (hypothesis): random games and random annotated trees in both variants ->
  PGN -> read -> the same tree and final position, and the same text again.
- python-chess as an oracle for standard chess: its PGN read by us gives its tree and its
  exact text back; ours read by python-chess gives our moves and final position.
- Bad input, each with its exact behaviour: what is kept, which errors (message and line)
  and what ``strict=True`` raises; fuzzing with random text and damaged games; huge inputs
  in bounded time.
"""

from __future__ import annotations

import io
import random
import time
from typing import Any

import pytest
from _support import CHESS_START, ROYAL_SEED_FENS, ROYAL_START, epd_fens, examples
from hypothesis import given
from hypothesis import strategies as st

from royalchess import Board, ChessError, InvalidFenError, Move, pgn
from royalchess.pgn import ChildNode, Game, GameNode, Headers, PgnError, read_game, read_games

chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")

# -- helpers ---------------------------------------------------------------------------------


def dump(game: Any) -> list[tuple[tuple[str, ...], str, str, tuple[int, ...]]]:
    """Every node of a game tree (ours or python-chess's) in PGN order: its path of UCI
    moves, comment, starting comment and NAGs. Iterative, so deep trees are fine."""
    out = []
    stack = [(game, ())]
    while stack:
        node, path = stack.pop()
        nags = () if node.parent is None else tuple(sorted(node.nags))
        start = "" if node.parent is None else node.starting_comment
        out.append((path, node.comment, start, nags))
        for child in reversed(node.variations):
            stack.append((child, (*path, child.move.uci())))
    return out


def sans(game: Game) -> list[str]:
    board = game.board()
    out = []
    for move in game.mainline_moves():
        out.append(board.san_and_push(move))
    return out


def messages(game: Game) -> list[str]:
    return [str(error) for error in game.errors]


WORDS = ["good", "Bad!", "only move", "é♞", "[%clk 0:01:02]", "x;y", "(z)", "50%", "$3", "a?"]


def random_comment(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))


def grow_tree(game: Any, rng: random.Random, plies: int, sidelines: int, notes: bool) -> None:
    """Give *game* (ours or python-chess's, same API) a random main line, random side lines
    (nested too) and, with *notes*, random comments and NAGs."""
    node = game
    board = game.board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[rng.randrange(len(moves))]
        node = node.add_variation(move)
        board.push(move)
    nodes = list(game.mainline())
    for _ in range(sidelines if nodes else 0):
        parent = rng.choice(nodes).parent
        board = parent.board()
        taken = {child.move for child in parent.variations}
        moves = [m for m in board.legal_moves if m not in taken]
        if not moves:
            continue
        node = parent.add_variation(rng.choice(moves))
        nodes.append(node)
        board.push(node.move)
        for _ in range(rng.randint(0, 6)):
            moves = list(board.legal_moves)
            if not moves:
                break
            node = node.add_variation(rng.choice(moves))
            nodes.append(node)
            board.push(node.move)
    if not notes:
        return
    if rng.random() < 0.3:
        game.comment = random_comment(rng)
    for node in nodes:
        if rng.random() < 0.2:
            node.comment = random_comment(rng)
        if rng.random() < 0.2:
            node.nags.update(rng.sample(range(256), rng.randint(1, 3)))
        if node.starts_variation() and rng.random() < 0.3:
            node.starting_comment = random_comment(rng)


REAL_WORLD = """\ufeff[Event "Rated Blitz game"]\r
[Site "https://lichess.org/abcdefgh"]\r
[Date "2024.01.02"]\r
[Round "-"]\r
[White "alice"]\r
[Black "bob"]\r
[Result "1-0"]\r
[WhiteElo "1850"]\r
[Variant "Standard"]\r
[TimeControl "180+2"]\r
[ECO "C65"]\r
\r
1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 Nc6 3. Bb5 Nf6 $5 4. O-O\r
Nxe4 5. d4 Nd6 6. Bxc6 dxc6 7. dxe5 Nf5 8. Qxd8+ Kxd8 { Berlin endgame } 1-0\r
\r
[Event "Annotated"]\r
[White "Morphy, Paul"]\r
[Black "Duke Karl / Count Isouard"]\r
[Result "1-0"]\r
\r
{ Paris 1858, the opera game. } 1.e4 e5 2.Nf3 d6 3.d4 Bg4?! {This is a weak move\r
already.} 4.dxe5 Bxf3 5.Qxf3 dxe5 6.Bc4 Nf6 7.Qb3 Qe7 8.Nc3 (8.Qxb7 Qb4+ 9.Qxb4\r
Bxb4+ {and the queens are off}) 8...c6 9.Bg5 b5?! (9...Qc7 $14) 10.Nxb5! cxb5\r
11.Bxb5+ Nbd7 12.O-O-O Rd8 13.Rxd7 Rxd7 14.Rd1 Qe6 15.Bxd7+ Nxd7 16.Qb8+ ! Nxb8\r
17.Rd8# 1-0\r
\r
% an escaped line, skipped\r
1. d4 ; a rest-of-line comment\r
1... d5 2. c4 (2. Nf3 Nf6 (2... c5) 3. c4) 2... e6 *\r
"""


# -- reading ---------------------------------------------------------------------------------


def test_read_real_world_pgn() -> None:
    games = list(read_games(REAL_WORLD))
    assert len(games) == 3
    first, opera, third = games
    assert all(not g.errors for g in games)

    assert first.headers["White"] == "alice" and first.headers["WhiteElo"] == "1850"
    assert list(first.headers)[:7] == list(pgn.TAG_ROSTER)
    assert first.variant == "chess"
    assert sans(first)[-3:] == ["Nf5", "Qxd8+", "Kxd8"]
    assert first.variations[0].comment == "[%clk 0:03:00]"
    assert first.end().comment == "Berlin endgame"
    assert first.mainline()[5].nags == {pgn.NAG_SPECULATIVE_MOVE}

    assert opera.comment == "Paris 1858, the opera game."
    assert opera.headers["Black"] == "Duke Karl / Count Isouard"
    line = sans(opera)
    assert len(line) == 33 and line[-1] == "Rd8#"
    bg4 = opera.mainline()[5]
    assert bg4.san() == "Bg4" and bg4.nags == {pgn.NAG_DUBIOUS_MOVE}
    assert bg4.comment == "This is a weak move\nalready."
    nc3 = opera.mainline()[14]
    assert [c.san() for c in nc3.parent.variations] == ["Nc3", "Qxb7"]
    side = nc3.parent.variations[1]
    assert side.starts_variation() and not side.is_mainline()
    assert side.end().comment == "and the queens are off"
    b5 = opera.mainline()[17]
    assert b5.nags == {pgn.NAG_DUBIOUS_MOVE}
    assert b5.parent.variations[1].nags == {14}
    assert opera.mainline()[18].nags == {pgn.NAG_GOOD_MOVE}  # 10.Nxb5!
    assert opera.mainline()[30].nags == {pgn.NAG_GOOD_MOVE}  # 16.Qb8+ ! (separate token)
    assert opera.end().board().is_checkmate()

    assert third.headers["Result"] == "*"
    assert third.variations[0].comment == "a rest-of-line comment"
    c4 = third.mainline()[2]
    nf3 = c4.parent.variations[1]
    assert nf3.san() == "Nf3"
    assert [c.san() for c in nf3.variations] == ["Nf6", "c5"]
    assert nf3.variations[0].variations[0].san() == "c4"
    assert sans(third) == ["d4", "d5", "c4", "e6"]


def test_python_chess_reads_the_same_real_world_games() -> None:
    stream = io.StringIO(REAL_WORLD)
    for ours in read_games(REAL_WORLD):
        theirs = chess_pgn.read_game(stream)
        assert theirs is not None
        assert [m.uci() for m in ours.mainline_moves()] == [
            m.uci() for m in theirs.mainline_moves()
        ]
        assert len(dump(ours)) == len(dump(theirs))
    assert chess_pgn.read_game(stream) is None


def test_read_simple_game_and_positions() -> None:
    game = read_game('[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    assert game is not None and not game.errors
    assert dict(game.headers) == {
        "Event": "?",
        "Site": "?",
        "Date": "????.??.??",
        "Round": "?",
        "White": "A",
        "Black": "B",
        "Result": "0-1",
    }
    assert sans(game) == ["f3", "e5", "g4", "Qh4#"]
    end = game.end()
    assert isinstance(end, ChildNode) and end.san() == "Qh4#" and end.uci() == "d8h4"
    assert end.board().outcome() is not None and end.board().result() == "0-1"
    assert end.ply() == 4 and end.turn() is True and game.ply() == 0
    assert end.game() is game and end.root() is game and game.next() is game.variations[0]


@pytest.mark.parametrize(
    "movetext",
    [
        "1. e4 e5 2. Nf3 *",
        "1.e4 e5 2.Nf3 *",
        "1. e4 1... e5 2. Nf3 *",
        "1.e4 1...e5 2.Nf3 *",
        "1. e4 1. ... e5 2. Nf3 *",
        "e4 e5 Nf3 *",
        "1. e4\ne5\n2.\nNf3\n*",
        "1. e2-e4 e7e5 2. Ng1-f3 *",
        "1. e4 e5 2. Nf3 ",
        "1. e4 e5 9. Nf3 *",  # wrong numbers are ignored, as python-chess does
    ],
)
def test_move_number_spellings(movetext: str) -> None:
    game = read_game(movetext)
    assert game is not None and not game.errors, messages(game)
    assert sans(game) == ["e4", "e5", "Nf3"]


def test_suffix_annotations_and_nags() -> None:
    game = read_game("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $1 $14 Nf6 ! ?? *")
    assert game is not None and not game.errors
    nags = [sorted(n.nags) for n in game.mainline()]
    assert nags == [[1], [2], [3], [4], [5], [6], [1, 14], [1, 4]]
    text = str(game)
    assert "1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 4. Ba4 $1 $14 Nf6 $1 $4 *" in text


def test_comment_placement() -> None:
    game = read_game("{before} {more} 1. e4 {after e4} (1. d4 {d4} ({x} 1. c4)) {again} e5 *")
    assert game is not None and not game.errors
    assert game.comment == "before more"
    e4 = game.variations[0]
    assert e4.comment == "after e4 again"
    d4 = game.variations[1]
    assert d4.comment == "d4" and d4.starting_comment == ""
    c4 = game.variations[2]
    assert c4.starting_comment == "x" and c4.comment == ""


def test_result_token_and_tag() -> None:
    game = read_game("1. e4 e5 1/2-1/2")
    assert game is not None and game.headers["Result"] == "1/2-1/2"
    game = read_game('[Result "1-0"]\n\n1. e4 e5 0-1')
    assert game is not None and game.headers["Result"] == "1-0"  # the tag wins, as python-chess
    assert not game.errors


@pytest.mark.parametrize(
    ("value", "variant"),
    [
        ("Royal Chess", "royal"),
        ("royal chess", "royal"),
        ("Royal", "royal"),
        ("RoyalChess", "royal"),
        ("royal-chess", "royal"),
        ("ROYAL_CHESS", "royal"),
        ("Standard", "chess"),
        ("chess", "chess"),
        ("From Position", "chess"),
        ("", "chess"),
    ],
)
def test_variant_tag_values(value: str, variant: str) -> None:
    game = read_game(f'[Variant "{value}"]\n\n1. e4 e5 *')
    assert game is not None and not game.errors
    assert game.variant == variant and game.board().variant == variant
    assert game.end().board().files == (10 if variant == "royal" else 8)


def test_royal_game_with_its_own_tokens() -> None:
    text = (
        '[Variant "Royal Chess"]\n[SetUp "1"]\n'
        '[FEN "r3gkw2r/10/10/10/3b6/10/10/R3GKW2R w KQkq - 0 1"]\n\n'
        "1. We3_O-O:h1 Gf7_O-O-O:c8 2. Rgf1 Wg6 *\n"
    )
    game = read_game(text)
    assert game is not None and not game.errors, messages(game)
    assert sans(game) == ["We3_O-O:h1", "Gf7_O-O-O:c8", "Rgf1", "Wg6"]
    assert game.variations[0].move.uci() == "g1e3f1h1j1g1"
    assert str(game).endswith("1. We3_O-O:h1 Gf7_O-O-O:c8 2. Rgf1 Wg6 *")
    promo = read_game(
        '[Variant "Royal Chess"]\n[FEN "k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1"]\n\n'
        "1. e8=G- (1. e8=W+ Ka7) e1=W *"
    )
    assert promo is not None and not promo.errors, messages(promo)
    assert [m.uci() for m in promo.mainline_moves()] == ["e7e8g-", "e2e1w"]
    assert promo.variations[1].san() == "e8=W+"
    assert "1. e8=G- ( 1. e8=W+ Ka7 ) 1... e1=W+ *" in str(promo)


def test_several_games_from_streams_and_bytes(tmp_path: Any) -> None:
    text = '[Event "1"]\n\n1. e4 *\n\n[Event "2"]\n\n1. d4 Ke7 *\n\n[Event "3"]\n1. c4 *\n'
    path = tmp_path / "games.pgn"
    path.write_text(text)
    expected = [("1", ["e2e4"]), ("2", ["d2d4"]), ("3", ["c2c4"])]

    def summary(games: Any) -> list[tuple[str, list[str]]]:
        return [(g.headers["Event"], [m.uci() for m in g.mainline_moves()]) for g in games]

    assert summary(read_games(text)) == expected
    assert summary(read_games(text.encode())) == expected
    with path.open() as handle:
        assert summary(read_games(handle)) == expected
    with path.open("rb") as handle:
        assert summary(read_games(handle)) == expected
    with path.open() as handle:  # read_game again and again continues where it stopped
        games = []
        while (game := read_game(handle)) is not None:
            games.append(game)
        assert summary(games) == expected
    # line numbers count from the start of the text, across games and calls
    assert [str(e) for e in list(read_games(text))[1].errors] == [
        (
            "line 7: move 1... Ke7: illegal SAN 'Ke7' in "
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
        )
    ]
    with path.open() as handle:
        read_game(handle)
        assert read_game(handle).errors[0].line == 7  # type: ignore[union-attr]


def test_game_boundaries() -> None:
    # a result ends the game; what follows it (on the same line too) starts the next one
    text = '1. e4 e5 1-0 {a late comment} 1. d4 d5 0-1\n1. c4 *\n[Event "x"]\n1. Nf3 *'
    games = list(read_games(text))
    assert [[m.uci() for m in g.mainline_moves()] for g in games] == [
        ["e2e4", "e7e5"],
        ["d2d4", "d7d5"],
        ["c2c4"],
        ["g1f3"],
    ]
    assert games[0].end().comment == "a late comment"
    assert [g.headers["Result"] for g in games] == ["1-0", "0-1", "*", "*"]
    assert games[3].headers["Event"] == "x"
    assert all(not g.errors for g in games)
    stream = io.StringIO(text)
    assert [m.uci() for m in read_game(stream).mainline_moves()] == ["e2e4", "e7e5"]  # type: ignore[union-attr]
    assert [m.uci() for m in read_game(stream).mainline_moves()] == ["d2d4", "d7d5"]  # type: ignore[union-attr]
    # a blank line ends a game; a comment may hold blank lines
    games = list(read_games("1. e4 {one\n\ntwo} e5\n\n1. d4 *"))
    assert games[0].variations[0].comment == "one\n\ntwo" and len(games) == 2
    # tags with one blank line between them belong to one game; two blank lines end it
    games = list(read_games('[Event "a"]\n\n[Site "b"]\n\n1. e4 *'))
    assert len(games) == 1 and games[0].headers["Site"] == "b"
    games = list(read_games('[Event "a"]\n\n\n[Site "b"]\n\n1. e4 *'))
    assert [g.headers["Event"] for g in games] == ["a", "?"] and not games[0].variations


class _Pipe:
    """A stream that can only read lines (no seek, no tell), like a pipe."""

    def __init__(self, text: str) -> None:
        self._lines = io.StringIO(text)

    def readline(self) -> str:
        return self._lines.readline()


class _Slotted:
    """A stream that takes no weak reference: nothing is kept between calls."""

    __slots__ = ("_lines",)

    def __init__(self, text: str) -> None:
        self._lines = io.StringIO(text)

    def readline(self) -> str:
        return self._lines.readline()


def test_stream_state_between_calls() -> None:
    text = '1. e4 1-0 1. d4 Ke7 *\n[Event "3"]\n1. c4 *\n'
    # a pipe: the text after a result and the tag line are kept for the next call
    pipe = _Pipe(text)
    first, second, third = (read_game(pipe) for _ in range(3))
    assert first is not None and second is not None and third is not None
    assert str(second.errors[0]).startswith("line 1: move 1... Ke7")
    assert third.headers["Event"] == "3" and read_game(pipe) is None
    # a caller's seek is noticed: reading starts afresh, line numbers too
    stream = io.StringIO("1. e4 *\n\n1. Ke2 *\n")
    assert read_game(stream) is not None
    assert read_game(stream).errors[0].line == 3  # type: ignore[union-attr]
    stream.seek(0)
    assert read_game(stream).mainline_moves() == [Move.from_uci("e2e4")]  # type: ignore[union-attr]
    assert read_game(stream).errors[0].line == 3  # type: ignore[union-attr]
    # a stream without weak references still reads, game by game, with read_games
    games = list(read_games(_Slotted(text)))
    assert [g.headers["Event"] for g in games] == ["?", "?", "3"]
    with pytest.raises(TypeError, match="expected PGN text or a text stream"):
        read_game(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "   \n\n\t\n", "% only an escape line\n", "\ufeff\r\n"])
def test_no_game(text: str) -> None:
    assert read_game(text) is None
    assert list(read_games(text)) == []


def test_headers_only_and_tag_escapes() -> None:
    game = read_game(r'[Event "say \"hi\" \\o/"] [Site "C:\path"]')
    assert game is not None and not game.errors
    assert game.headers["Event"] == 'say "hi" \\o/'
    assert game.headers["Site"] == "C:\\path"
    assert not game.variations
    text = str(game)
    assert r'[Event "say \"hi\" \\o/"]' in text and r'[Site "C:\\path"]' in text
    again = read_game(text)
    assert again is not None and dict(again.headers) == dict(game.headers)


def test_headers_mapping() -> None:
    headers = Headers()
    headers["ZZ"] = "z"
    headers["Annotator"] = "me"
    headers["Result"] = "1-0"
    assert list(headers) == [*pgn.TAG_ROSTER, "ZZ", "Annotator"]
    assert len(headers) == 9 and headers.copy() == headers
    del headers["Event"]
    assert "Event" not in headers and next(iter(headers)) == "Site"
    assert list(Headers({})) == []
    with pytest.raises(PgnError, match="invalid tag name"):
        headers["bad name"] = "x"
    with pytest.raises(PgnError, match="one-line"):
        headers["Event"] = "two\nlines"
    assert isinstance(PgnError("x"), ChessError) and isinstance(PgnError("x"), ValueError)
    assert "Headers(Site='?'" in repr(headers)


# -- the tree API ----------------------------------------------------------------------------


def test_tree_editing() -> None:
    game = Game()
    board = game.board()
    e4, d4, c4 = (board.parse_san(s) for s in ("e4", "d4", "c4"))
    a = game.add_variation(e4)
    b = game.add_variation(d4, comment="queen pawn", nags=[1])
    c = game.add_main_variation(c4)
    assert game.variations == [c, a, b] and c.is_mainline() and not a.is_mainline()
    assert game.variation(d4) is b and game[1] is a and game[b] is b
    assert e4 in game and 2 in game and 3 not in game and game.has_variation(c4)
    with pytest.raises(KeyError):
        game.variation(5)
    game.promote_to_main(d4)
    assert game.variations == [b, c, a]
    game.promote(a)
    assert game.variations == [b, a, c]
    game.demote(b)
    assert game.variations == [a, b, c]
    game.remove_variation(c)
    assert game.variations == [a, b] and a.is_main_variation() and b.starts_variation()
    end = a.add_line(
        [Move.from_uci(u) for u in ("e7e5", "g1f3")], comment="line", starting_comment="s"
    )
    assert isinstance(end, GameNode) and end.comment == "line" and end.san() == "Nf3"
    assert a.next() is not None and a.next().starting_comment == "s"  # type: ignore[union-attr]
    assert game.mainline_moves() == [e4, Move.from_uci("e7e5"), Move.from_uci("g1f3")]
    assert repr(end).endswith("(2. Nf3 ...)>") and "'?' vs. '?'" in repr(game)
    assert game.end() is end and end.is_end() and not a.is_end()


def test_game_setup_and_board_errors() -> None:
    game = Game()
    game.setup(Board("8/8/8/8/8/8/8/K1k5 w - - 0 40"))
    assert game.headers["SetUp"] == "1" and game.headers["FEN"] == "8/8/8/8/8/8/8/K1k5 w - - 0 40"
    assert game.ply() == 78 and "Variant" not in game.headers
    game.setup(Board(variant="royal"))
    assert game.headers["Variant"] == "Royal Chess" and "FEN" not in game.headers
    game.setup("k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1")  # a FEN of the game's variant
    assert game.board().variant == "royal" and game.headers["FEN"].startswith("k9/")
    game.setup(Board())
    assert "Variant" not in game.headers and "FEN" not in game.headers
    game.headers["Variant"] = "Crazyhouse"
    with pytest.raises(PgnError, match="unknown variant 'Crazyhouse'"):
        game.board()
    game.headers["Variant"] = "Standard"
    game.headers["FEN"] = "junk"
    with pytest.raises(InvalidFenError):
        game.board()


# -- writing ---------------------------------------------------------------------------------


def test_write_format() -> None:
    board = Board()
    ruy_lopez = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7"
    for san in ruy_lopez.split(" "):
        board.push_san(san)
    game = Game.from_board(board)
    game.headers["Event"] = "Ruy Lopez"
    game.variations[0].comment = "best by test"
    text = str(game)
    assert text == (
        '[Event "Ruy Lopez"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n'
        '[Black "?"]\n[Result "*"]\n\n'
        "1. e4 { best by test } 1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6.\n"
        "Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *"
    )
    assert all(len(line) <= 80 for line in text.splitlines())
    assert pgn.write_game(game) == text + "\n"
    one_line = pgn.write_game(game, columns=None, tags=False, comments=False)
    assert one_line == (
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O "
        "9. h3 Nb8 10. d4 Nbd7 *\n"
    )
    both = pgn.write_games([game, Game()], tags=False, columns=None)
    assert both.endswith("Nbd7 *\n\n*\n") and len(list(read_games(both))) == 2


def test_write_options_and_board_forms() -> None:
    game = read_game("1. e4 $1 {c} (1. d4 d5) e5 *")
    assert game is not None
    assert pgn.write_game(game, tags=False, variations=False) == "1. e4 $1 { c } 1... e5 *\n"
    assert pgn.write_game(game, tags=False, comments=False) == "1. e4 ( 1. d4 d5 ) 1... e5 *\n"
    text = pgn.write_game(game, headers={"White": "W", "Extra": "1"}, tags=True)
    assert '[White "W"]' in text and '[Extra "1"]' in text
    assert game.headers["White"] == "?" and "Extra" not in game.headers  # the game is unchanged
    # a Board: its moves from its first position, as Game.from_board
    board = Board(variant="royal")
    for san in ("e4", "e5", "Gf3"):
        board.push_san(san)
    text = pgn.write_game(board)
    assert '[Variant "Royal Chess"]' in text and text.endswith("1. e4 e5 2. Gf3 *\n")
    # a Board and moves played from its position (the web app's form)
    start = Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    moves = [Move.from_uci("e2e4"), Move.from_uci("e8d7")]
    text = pgn.write_game(start, moves, headers={"Result": "1/2-1/2", "White": "A"})
    assert '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]' in text
    assert text.endswith("1. e4 Kd7 1/2-1/2\n") and '[White "A"]' in text
    with pytest.raises(TypeError):
        pgn.write_game(game, moves)


def test_from_board_tags() -> None:
    board = Board("k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1", variant="royal")
    board.push_san("e8=G-")
    game = Game.from_board(board)
    assert game.headers["Variant"] == "Royal Chess" and game.headers["SetUp"] == "1"
    assert game.headers["FEN"] == "k9/4P5/10/10/10/10/4p5/7K2 w - - 0 1"
    assert game.headers["Result"] == board.result()
    mate = Board()
    for san in ("f3", "e5", "g4", "Qh4#"):
        mate.push_san(san)
    assert Game.from_board(mate).headers["Result"] == "0-1"
    assert "FEN" not in Game.from_board(mate).headers


def test_deep_trees_without_recursion() -> None:
    # side lines nested 3000 deep, and a 10000-ply main line: written and read back
    game = Game()
    node: GameNode = game
    for i in range(3000):
        node.add_variation(Move.from_uci(["g1f3", "g8f6"][i % 2]))
        alt = Move.from_uci(["b1c3", "b8c6", "c3b1", "c6b8"][i % 4])
        node = node.add_variation(alt)  # continue in the side line: nesting grows
    text = str(game)
    again = read_game(text)
    assert again is not None and not again.errors
    assert dump(again) == dump(game)
    long_game = read_game(" ".join(["Nf3 Nf6 Ng1 Ng8"] * 2500) + " *")
    assert long_game is not None and not long_game.errors
    assert len(long_game.mainline_moves()) == 10000
    assert read_game(str(long_game)).mainline_moves() == long_game.mainline_moves()  # type: ignore[union-attr]


# -- round trips -----------------------------------------------------------------------------

STARTS = {"chess": epd_fens(), "royal": list(ROYAL_SEED_FENS)}


@examples(60)
@given(
    st.sampled_from(["chess", "royal"]),
    st.integers(0, 10_000),
    st.integers(0, 2**32 - 1),
    st.integers(0, 160),
)
def test_random_games_round_trip(variant: str, start: int, seed: int, plies: int) -> None:
    starts = STARTS[variant]
    board = Board(starts[start % len(starts)], variant=variant)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[rng.randrange(len(moves))])
    text = pgn.write_game(board)
    game = read_game(text, strict=True)
    assert game is not None and not game.errors
    assert game.mainline_moves() == board.move_stack
    assert game.end().board().fen() == board.fen()
    assert game.headers["Result"] == board.result()
    assert pgn.write_game(game) == text


@examples(60)
@given(
    st.sampled_from(["chess", "royal"]),
    st.integers(0, 10_000),
    st.integers(0, 2**32 - 1),
)
def test_random_trees_round_trip(variant: str, start: int, seed: int) -> None:
    rng = random.Random(seed)
    starts = STARTS[variant]
    game = Game()
    game.setup(Board(starts[start % len(starts)], variant=variant))
    grow_tree(game, rng, rng.randint(0, 60), rng.randint(0, 8), notes=True)
    text = str(game)
    assert all(len(line) <= 80 or "{" in line for line in text.splitlines())
    again = read_game(text)
    assert again is not None and not again.errors, messages(again)
    assert dump(again) == dump(game)
    assert str(again) == text


# -- python-chess as the oracle (standard chess) ---------------------------------------------


@examples(60)
@given(st.integers(0, 10_000), st.integers(0, 2**32 - 1))
def test_python_chess_pgn_reads_the_same_here(start: int, seed: int) -> None:
    rng = random.Random(seed)
    theirs = chess_pgn.Game()
    fens = STARTS["chess"]
    theirs.setup(chess.Board(fens[start % len(fens)]))
    grow_tree(theirs, rng, rng.randint(0, 80), rng.randint(0, 8), notes=True)
    text = theirs.accept(chess_pgn.StringExporter(columns=80))
    ours = read_game(text, strict=True)
    assert ours is not None
    assert dump(ours) == dump(theirs)
    assert str(ours) == text  # the same text, token for token
    end_theirs = theirs.end().board()
    assert ours.end().board().fen() == end_theirs.fen(en_passant="fen")


@examples(60)
@given(st.integers(0, 10_000), st.integers(0, 2**32 - 1))
def test_our_pgn_reads_the_same_in_python_chess(start: int, seed: int) -> None:
    rng = random.Random(seed)
    ours = Game()
    fens = STARTS["chess"]
    ours.setup(Board(fens[start % len(fens)]))
    grow_tree(ours, rng, rng.randint(0, 80), rng.randint(0, 8), notes=True)
    text = str(ours)
    theirs = chess_pgn.read_game(io.StringIO(text))
    assert theirs is not None and not theirs.errors
    assert dump(theirs) == dump(ours)
    assert theirs.end().board().fen(en_passant="fen") == ours.end().board().fen()
    assert theirs.accept(chess_pgn.StringExporter(columns=80)) == text


# -- bad input -------------------------------------------------------------------------------

AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
AFTER_D4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"

# text, main line kept (SAN), the error messages, in order
BAD_INPUTS = [
    pytest.param(
        "1. e4 e5 2. Ke3 Qh4 *",
        ["e4", "e5"],
        [f"line 1: move 2. Ke3: illegal SAN 'Ke3' in {AFTER_E4_E5}"],
        id="illegal-move",
    ),
    pytest.param(
        "1. e4 e5\n2. Nf",
        ["e4", "e5"],
        [
            (
                "line 2: move 2. Nf: invalid SAN 'Nf': expected a move such as 'e4', 'Nf3', "
                "'exd5', 'e8=Q', 'O-O'"
            )
        ],
        id="truncated-move",
    ),
    pytest.param(
        "1. e4 e5 2. Nf3 Nc6 3.",
        ["e4", "e5", "Nf3", "Nc6"],
        [],
        id="truncated-after-number",
    ),
    pytest.param(
        '[Event "Cut',
        [],
        ["line 1: malformed tag pair '[Event \"Cut'"],
        id="truncated-tag",
    ),
    pytest.param(
        '[Event "ok"]\n[Site cut]\n[White "w"]\n\n1. e4 *',
        ["e4"],
        ["line 2: malformed tag pair '[Site cut]'"],
        id="malformed-tag",
    ),
    pytest.param(
        "1. e4 {truncated in a comment",
        ["e4"],
        ["line 1: comment '{' is not closed before the end of the text"],
        id="truncated-comment",
    ),
    pytest.param(
        "1. e4 e5 (1... c5 2. Nf3",
        ["e4", "e5"],
        ["line 1: a variation opened here not closed before the end of the game"],
        id="truncated-variation",
    ),
    pytest.param(
        "1. e4 (1. d4 (1. c4\n(1. Nf3",
        ["e4"],
        ["line 1: 3 variations opened here not closed before the end of the game"],
        id="unclosed-variations",
    ),
    pytest.param(
        "1. Nf3 Nf6 2. d3 d6 3. Nd2 e5 *",
        ["Nf3", "Nf6", "d3", "d6"],
        [
            (
                "line 1: move 3. Nd2: ambiguous SAN 'Nd2' in "
                "rnbqkb1r/ppp1pppp/3p1n2/8/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 3: "
                "could be Nbd2, Nfd2"
            )
        ],
        id="ambiguous-move",
    ),
    pytest.param(
        "1. e4 e9 *",
        ["e4"],
        ["line 1: move 1... e9: invalid SAN 'e9': square 'e9' is off the board"],
        id="off-board",
    ),
    pytest.param(
        "1. e4 -- 2. d4 *",
        ["e4"],
        ["line 1: move 1... --: invalid SAN '--': null moves are not supported"],
        id="null-move",
    ),
    pytest.param(
        "1. e4 @#%& e5 *",
        ["e4"],
        [
            (
                "line 1: move 1... @#%&: invalid SAN '@#%&': expected a move such as 'e4', "
                "'Nf3', 'exd5', 'e8=Q', 'O-O'"
            )
        ],
        id="garbled-token",
    ),
    pytest.param(
        "1. e4 ) e5 } 2. Nf3 ] *",
        ["e4", "e5", "Nf3"],
        [
            "line 1: ')' without a matching '('",
            "line 1: unexpected '}'",
            "line 1: unexpected ']'",
        ],
        id="stray-closers",
    ),
    pytest.param(
        "( 1. d4 ) 1. e4 *",
        ["e4"],
        ["line 1: a variation '(' must follow a move"],
        id="variation-first",
    ),
    pytest.param(
        "1. e4 (1. d4 Ke7 2. c4) 1... e5 2. Nf3 *",
        ["e4", "e5", "Nf3"],
        [
            (
                f"line 1: move 1... Ke7 (in the variation opened on line 1): illegal SAN 'Ke7' in "
                f"{AFTER_D4}"
            )
        ],
        id="error-in-variation",
    ),
    pytest.param(
        "1. e4 (1. d4 *) e5 *",
        ["e4", "e5"],
        ["line 1: result '*' inside a variation"],
        id="result-in-variation",
    ),
    pytest.param(
        "1. e4 e5!!! 2. Nf3 $256 Nc6 $ *",
        ["e4", "e5", "Nf3", "Nc6"],
        [
            "line 1: unknown annotation '!!!' in 'e5!!!'",
            "line 1: NAG '$256' is not one of $0 to $255",
            "line 1: unexpected '$'",
        ],
        id="bad-annotations",
    ),
    pytest.param(
        '[Event "e"]\n[FEN "not a fen"]\n\n1. e4 *',
        [],
        [
            (
                "line 2: invalid FEN tag 'not a fen': FEN has 3 fields, expected at least 4 "
                "(en passant missing)"
            )
        ],
        id="bad-fen",
    ),
    pytest.param(
        f'[FEN "{ROYAL_START}"]\n\n1. e4 *',
        [],
        [
            (
                f"line 1: invalid FEN tag '{ROYAL_START}': FEN field 1 (placement): unknown piece "
                "letter 'g' (a Royal Chess position: is [Variant \"Royal Chess\"] missing?)"
            )
        ],
        id="royal-fen-without-variant",
    ),
    pytest.param(
        f'[Variant "Royal Chess"]\n[FEN "{CHESS_START}"]\n\n1. e4 *',
        [],
        [
            (
                f"line 2: invalid FEN tag '{CHESS_START}': FEN field 1 (placement): rank 8 has 8 "
                "squares, expected 10 (a standard chess position, but the game is Royal Chess)"
            )
        ],
        id="chess-fen-in-royal",
    ),
    pytest.param(
        '[Variant "Chess960"]\n\n1. e4 *',
        [],
        ["line 1: unknown variant 'Chess960': expected standard chess or 'Royal Chess'"],
        id="unknown-variant",
    ),
    pytest.param(
        '[Variant "Royal Chess"]\n\n1. e4 e5 2. Gf3 Gf6 3. Qh5 *',
        ["e4", "e5", "Gf3", "Gf6"],
        [
            (
                "line 3: move 3. Qh5: illegal SAN 'Qh5' in "
                "rnb1qkwbnr/pppp1ppppp/5g4/4p5/4P5/5G4/PPPP1PPPPP/RNB1QKWBNR w KQkq - 2 3"
            )
        ],
        id="royal-illegal",
    ),
]


@pytest.mark.parametrize(("text", "kept", "errors"), BAD_INPUTS)
def test_bad_input(text: str, kept: list[str], errors: list[str]) -> None:
    game = read_game(text)
    assert game is not None
    assert messages(game) == errors
    if not errors or ("FEN" not in errors[0] and "variant" not in errors[0]):
        assert sans(game) == kept
    else:
        assert not game.variations  # the start position is unknown: no moves
        with pytest.raises(ChessError):
            game.board()
        assert str(game).endswith("*")  # still writable
    assert all(isinstance(e, PgnError) and e.line is not None for e in game.errors)
    if errors:
        with pytest.raises(PgnError) as info:
            read_game(text, strict=True)
        assert str(info.value) == errors[0]
        assert info.value.line == int(errors[0].split(":")[0].split()[1])
    else:
        assert read_game(text, strict=True) is not None


def test_error_keeps_the_cause_and_token() -> None:
    game = read_game("1. e4 e5 2. Ke3 *")
    assert game is not None
    error = game.errors[0]
    assert error.token == "Ke3" and error.line == 1
    assert type(error.__cause__).__name__ == "IllegalMoveError"


def test_strict_error_leaves_the_stream_at_the_next_game() -> None:
    stream = io.StringIO("1. e4 Ke7 e5 (1... d5\n\n1. d4 d5 *\n")
    with pytest.raises(PgnError, match=r"line 1: move 1\.\.\. Ke7"):
        read_game(stream, strict=True)
    game = read_game(stream, strict=True)
    assert game is not None and [m.uci() for m in game.mainline_moves()] == ["d2d4", "d7d5"]
    with pytest.raises(PgnError):
        list(read_games("1. e4 *\n\n1. Ke2 *", strict=True))


def test_error_list_is_capped() -> None:
    game = read_game("1. e4 " + ") " * 1000 + "*")
    assert game is not None and game.mainline_moves() == [Move.from_uci("e2e4")]
    assert len(game.errors) == pgn.MAX_ERRORS + 1
    assert str(game.errors[-1]) == "more than 100 errors; the rest are not listed"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("x" * 2_000_000, id="2MB-word"),
        pytest.param("1. e4 " + "(" * 200_000 + ")" * 200_000 + " *", id="200k-parens"),
        pytest.param("1. e4 " + "{c} " * 200_000 + "*", id="200k-comments"),
        pytest.param("1. e4 {" + "a\n" * 200_000, id="open-comment-200k-lines"),
        pytest.param('[Event "' + "v" * 1_000_000 + '"]\n\n1. e4 *', id="1MB-tag"),
        pytest.param("1. e4 " + "$1 " * 200_000 + "*", id="200k-nags"),
        pytest.param(("1. e4 e5 *\n\n") * 5_000, id="5k-games"),
    ],
)
def test_huge_input_in_bounded_time(text: str) -> None:
    begin = time.perf_counter()
    games = list(read_games(text))
    assert games and all(len(g.errors) <= pgn.MAX_ERRORS + 1 for g in games)
    for game in games[:1]:
        assert all(len(str(e)) < 300 for e in game.errors)  # messages stay short
        str(game)
    assert time.perf_counter() - begin < 10


# -- fuzzing ---------------------------------------------------------------------------------

PGN_CHARS = st.sampled_from(list('{}()[]";$!?.*-/=+#:_%\n \r\t\ufeff0123456789eNKQRBGWxO'))
SAMPLE = '[Event "e"]\n[Result "*"]\n\n' + (
    "{c} 1. e4 $1 {x} (1. d4 d5 (1... Nf6)) 1... e5 2. Nf3 ; note\n"
    "Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 O-O 8. c3 d5 *\n"
)


def _check_never_raises(text: str) -> None:
    games = list(read_games(text))
    for game in games:
        str(game) if not game.errors else None
        for error in game.errors:
            assert isinstance(error, PgnError)
    try:
        strict = list(read_games(text, strict=True))
    except PgnError as exc:
        first = next(g.errors[0] for g in games if g.errors)
        assert str(exc) == str(first)
    else:
        assert all(not g.errors for g in games) and len(strict) == len(games)


@examples(200)
@given(st.text(PGN_CHARS, max_size=200))
def test_random_text_never_raises(text: str) -> None:
    _check_never_raises(text)


@examples(100)
@given(st.binary(max_size=200))
def test_random_bytes_never_raise(data: bytes) -> None:
    _check_never_raises(data.decode("utf-8", "replace"))
    list(read_games(data))


@examples(200)
@given(st.integers(0, len(SAMPLE)), st.integers(0, 5), st.text(PGN_CHARS, max_size=3))
def test_damaged_game_never_raises(at: int, cut: int, insert: str) -> None:
    _check_never_raises(SAMPLE[:at] + insert + SAMPLE[at + cut :])


@examples(100)
@given(st.sampled_from(["chess", "royal"]), st.integers(0, 2**32 - 1), st.data())
def test_truncated_game_keeps_a_prefix(variant: str, seed: int, data: st.DataObject) -> None:
    board = Board(variant=variant)
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 60)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    text = pgn.write_game(board)
    cut = data.draw(st.integers(0, len(text)))
    game = read_game(text[:cut])
    if game is None:
        assert not text[:cut].strip()
        return
    kept = game.mainline_moves()
    # all moves but the last are the full game's; the last may be a cut-short spelling of
    # another legal move ('O-O-O' cut to 'O-O', 'Wg3_O-O:h1' cut to 'Wg3')
    assert kept[:-1] == board.move_stack[: max(len(kept) - 1, 0)]
    assert len(game.errors) <= 2
