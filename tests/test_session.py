"""royalchess.session: one game in progress for the web app and the terminal.

Its rules of play (who may move, the computer only on its turn, the takeback against the
computer, resign, draw claims, the result wording) and its checked saves: a write made from
a view of the game that is no longer current is refused (ConflictError) with the store
unchanged, and the store itself never saves a move over another, after a gap or after the
end. The terminal says so in words when the browser changed the game while its computer
thought.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from royalchess.board import Board
from royalchess.move import BLACK, WHITE, Move
from royalchess.session import (
    RELOAD,
    ConflictError,
    GameError,
    GameGoneError,
    GameSession,
    players,
    result_text,
)
from royalchess.store import GameChangedError, GameNotFoundError, GameStore
from royalchess.terminal import PlainScreen, TerminalGame


@pytest.fixture
def store() -> Iterator[GameStore]:
    store = GameStore(":memory:")
    yield store
    store.close()


class FirstMove:
    """A stand-in computer: the first legal move in UCI order; *during* runs while it
    'thinks' (another client acting meanwhile)."""

    def __init__(self, during: Any = None) -> None:
        self.during = during

    def play(self, board: Board, level: int, **where: Any) -> Move:
        if self.during is not None:
            self.during()
        return min(board.legal_moves, key=lambda m: m.uci())

    def hint(self, board: Board, **where: Any) -> Move | None:
        return min(board.legal_moves, key=lambda m: m.uci())


def saved(store: GameStore, game_id: int) -> list[str]:
    return store.get(game_id).moves


def assert_replays(store: GameStore) -> None:
    """Every saved game replays legally, its plies numbered 0..n-1 with no gap."""
    for game_id in store.game_ids():
        rec = store.get(game_id)
        board = Board(rec.start_fen, variant=rec.variant)
        for uci in rec.moves:
            board.push_uci(uci)
        plies = [r[0] for r in store._db.execute(
            "SELECT ply FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )]  # fmt: skip
        assert plies == list(range(len(rec.moves)))


# -- the rules of play -----------------------------------------------------------------------


def test_players_and_result_wording() -> None:
    assert players("vs-computer", WHITE) == ("human", "computer")
    assert players("vs-computer", BLACK) == ("computer", "human")
    assert players("two-players") == ("human", "human")
    assert players("computer-vs-computer") == ("computer", "computer")
    with pytest.raises(GameError, match="unknown mode 'blitz'"):
        players("blitz")
    assert result_text("1-0", "checkmate") == "White wins by checkmate"
    assert result_text("0-1", None) == "Black wins"
    assert result_text("1/2-1/2", "stalemate") == "Draw by stalemate"
    assert result_text("*", None) == ""


def test_moves_and_the_computer_only_on_its_turn(store: GameStore) -> None:
    game = GameSession.create(Board(), store=store, mode="vs-computer", color=BLACK, level=3)
    assert game.game_id == 1 and game.computer_to_move
    with pytest.raises(GameError, match="it is the computer's turn") as refused:
        game.play("e4", ply=0)
    assert refused.value.status == 409
    move, san = game.computer_move(FirstMove(), ply=0)
    assert (move.uci(), san) == ("a2a3", "a3")
    with pytest.raises(GameError, match="not the computer's turn: Black is played by a person"):
        game.computer_move(FirstMove(), ply=1)
    assert game.play("e5", ply=1) == "e5"
    game.computer_move(FirstMove(), ply=2)
    # asked by the human to move (the page's "Computer, move"), it plays their move
    game.computer_move(FirstMove(), ply=3, for_human=True)
    assert saved(store, 1) == ["a2a3", "e7e5", "a1a2", "a7a5"]


def test_takeback_against_the_computer_is_your_move_and_its_reply(store: GameStore) -> None:
    game = GameSession.create(Board(), store=store, mode="vs-computer", color=WHITE)
    with pytest.raises(GameError, match="no move to take back"):
        game.takeback(ply=0)
    game.play("e4", ply=0)
    assert game.takeback_plies() == 1  # the computer has not replied yet: your move only
    game.computer_move(FirstMove(), ply=1)
    game.play("d4", ply=2)
    game.computer_move(FirstMove(), ply=3)
    assert game.takeback(ply=4) == ["d4", "a4"]
    assert saved(store, 1) == ["e2e4", "a7a5"]
    black = GameSession.create(Board(), store=store, mode="vs-computer", color=BLACK)
    black.computer_move(FirstMove(), ply=0)
    with pytest.raises(GameError, match="no move of yours to take back"):
        black.takeback(ply=1)
    assert saved(store, 2) == ["a2a3"]


def test_resign_claim_and_game_over(store: GameStore) -> None:
    game = GameSession.create(Board(), store=store, mode="vs-computer", color=BLACK)
    assert game.resign(ply=0) is BLACK  # the only human resigns, though White is to move
    rec = store.get(1)
    assert (rec.result, rec.termination) == ("1-0", "resignation")
    with pytest.raises(GameError, match="the game is over: White wins by resignation"):
        game.computer_move(FirstMove(), ply=0)
    two = GameSession.create(Board(), store=store, mode="two-players")
    with pytest.raises(GameError, match="no draw can be claimed now"):
        two.claim_draw(ply=0)
    for ply, san in enumerate(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]):
        two.play(san, ply=ply)
    two.claim_draw(ply=8)
    assert two.result_text == "Draw by threefold repetition (claimed)"
    assert (store.get(2).result, store.get(2).termination) == (
        "1/2-1/2",
        "threefold repetition (claimed)",
    )


def test_an_unsaved_game_is_saved_whole_by_its_first_move(store: GameStore) -> None:
    board = Board()
    board.push_san("e4")
    game = GameSession.create(board, store=store, mode="two-players", save=False)
    assert game.game_id is None and store.game_ids() == []
    game.takeback(ply=1)  # not saved: nothing to write
    game.play("d4", ply=0)
    assert game.game_id == 1 and saved(store, 1) == ["d2d4"]
    nowhere = GameSession.create(Board(), mode="two-players")
    nowhere.play("e4")
    assert nowhere.game_id is None


# -- checked saves -------------------------------------------------------------------------


def test_a_change_from_a_stale_view_is_refused(store: GameStore) -> None:
    here = GameSession.create(Board(), store=store, mode="two-players")
    here.play("e4", ply=0)
    there = GameSession.load(store, 1)  # another window
    there.play("e5", ply=1)
    for action in (
        lambda: here.play("c5", ply=1),  # the page says ply 1, the game has 2 now
        lambda: here.play("c5"),  # this session's own view is stale too
        lambda: here.takeback(),
        lambda: here.resign(),
        lambda: here.set_players(level=9),
    ):
        with pytest.raises(ConflictError, match=RELOAD) as refused:
            action()
        assert refused.value.status == 409
    assert saved(store, 1) == ["e2e4", "e7e5"] and store.get(1).level == 4
    assert here.sans == ["e4"]  # a refused change leaves the session as it was
    here.reload()
    assert here.sans == ["e4", "e5"] and here.play("Nf3", ply=2) == "Nf3"


def test_the_computer_move_is_refused_when_the_game_changed_while_it_thought(
    store: GameStore,
) -> None:
    game = GameSession.create(Board(), store=store, mode="vs-computer", color=WHITE)
    game.play("e4", ply=0)
    # while it thinks, the same game is taken back in the browser
    computer = FirstMove(during=lambda: GameSession.load(store, 1).takeback(ply=1))
    with pytest.raises(ConflictError):
        game.computer_move(computer, ply=1)
    assert saved(store, 1) == []
    assert_replays(store)


def test_deleted_elsewhere(store: GameStore) -> None:
    game = GameSession.create(Board(), store=store, mode="two-players")
    store.delete(1)
    with pytest.raises(GameGoneError, match="no game with id 1") as gone:
        game.play("e4", ply=0)
    assert gone.value.status == 404
    with pytest.raises(GameGoneError):
        GameSession.load(store, 1)


def test_a_damaged_record_is_an_error_not_a_traceback(store: GameStore) -> None:
    store.create_game("chess", Board().fen(), moves=["e2e4", "e2e4"])
    with pytest.raises(GameError, match="game 1 cannot be read: illegal move 'e2e4'"):
        GameSession.load(store, 1)


def test_the_store_never_saves_over_a_move_after_a_gap_or_the_end(store: GameStore) -> None:
    game_id = store.create_game("chess", Board().fen(), moves=["e2e4"])
    with pytest.raises(GameChangedError, match="has 1 moves now, not 0"):
        store.append_move(game_id, 0, "d2d4")  # over a move
    with pytest.raises(GameChangedError, match="has 1 moves now, not 2"):
        store.append_move(game_id, 2, "g1f3")  # after a gap
    with pytest.raises(GameChangedError):
        store.truncate(game_id, 0, ply=3)
    store.set_result(game_id, "1-0", "resignation", ply=1)
    with pytest.raises(GameChangedError, match="is over"):
        store.append_move(game_id, 1, "e7e5")  # after the end
    with pytest.raises(GameChangedError, match="is over"):
        store.set_result(game_id, "0-1", "resignation", ply=1)
    with pytest.raises(GameNotFoundError):
        store.append_move(99, 0, "e2e4")
    rec = store.get(game_id)
    assert (rec.moves, rec.result) == (["e2e4"], "1-0")
    assert_replays(store)


# -- the terminal: its interface on the session ----------------------------------------------


def terminal(store: GameStore, lines: list[str], computer: Any) -> tuple[TerminalGame, str]:
    feed = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(PlainScreen(read, out.append), store=store, computer=computer)
    game.new_game(Board(), mode="vs-computer", color=WHITE, level=2)
    assert game.run() == 0
    return game, "\n".join(out)


def test_the_terminal_says_so_when_the_browser_took_back_while_it_thought(
    store: GameStore,
) -> None:
    def browser_takes_back() -> None:
        if store.get(1).moves == ["e2e4"]:
            GameSession.load(store, 1).takeback(ply=1)

    game, out = terminal(store, ["e4", "d4", "quit"], FirstMove(during=browser_takes_back))
    assert (
        "Game #1 was changed elsewhere (in the browser?) while the computer was thinking: "
        "its move is not played. Here it is as saved." in out
    )
    assert "Traceback" not in out
    # the browser took e4 back; then d4 and the computer's reply (the takeback came once only)
    assert game.sans == ["d4", "a5"] and saved(store, 1) == ["d2d4", "a7a5"]
    assert_replays(store)


def test_the_terminal_resumes_no_damaged_game(store: GameStore) -> None:
    store.create_game("chess", Board().fen(), moves=["e2e4", "e2e4"], mode="two-players")
    game, out = terminal(store, ["resume 1", "quit"], FirstMove())
    assert "Game 1 cannot be read: illegal move 'e2e4'" in out
    assert game.game_id is None and "Traceback" not in out
