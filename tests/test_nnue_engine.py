"""The engine with a net: Engine(evaluation="nnue", eval_file=...) and the UCI options UseNNUE
and EvalFile. By default each game uses its bundled net, if any, else the classic evaluation; a
missing or bad net is an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_nnue import random_weights
from test_uci import Session

from royalchess import Board
from royalchess.engine import Engine, Limit
from royalchess.nnue import NetFileError, bundled_net, load_net, write_net


@pytest.fixture
def royal_net(tmp_path: Path) -> Path:
    path = tmp_path / "royal.nnue"
    write_net(path, random_weights("royal", hidden=16))
    return path


def test_the_default_is_each_games_bundled_net_else_classic() -> None:
    engine = Engine()
    assert engine.evaluation == "auto"
    for name in ("chess", "royal"):
        want = "nnue" if bundled_net(name) else "classic"
        assert engine.evaluation_for(name) == want
        board = Board(variant=name)
        board.push(next(iter(board.legal_moves)))
        expect = (
            load_net(bundled_net(name), name).evaluate(board.fen())  # type: ignore[arg-type]
            if want == "nnue"
            else Engine(evaluation="classic").evaluate(board)
        )
        assert engine.evaluate(board) == expect
    assert Engine(evaluation="classic").evaluation_for("royal") == "classic"


def test_auto_with_an_eval_file_uses_it_for_its_game_only(royal_net: Path) -> None:
    engine = Engine(eval_file=royal_net)
    assert engine.evaluation_for("royal") == "nnue"
    board = Board(variant="royal")
    assert engine.evaluate(board) == load_net(royal_net, "royal").evaluate(board.fen())
    chess = "nnue" if bundled_net("chess") else "classic"
    assert engine.evaluation_for("chess") == chess
    assert engine.play(Board(), Limit(nodes=100)) in Board().legal_moves


def test_nnue_engine_evaluates_and_plays_with_the_net(
    royal_net: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as if the package bundled no net: only the Royal net given here
    monkeypatch.setattr("royalchess.engine.bundled_net", lambda name: None)
    board = Board(variant="royal")
    board.push_san("e4")
    classic = Engine(evaluation="classic").evaluate(board)
    engine = Engine(evaluation="nnue", eval_file=royal_net)
    assert engine.evaluation == "nnue"
    want = load_net(royal_net, "royal").evaluate(board.fen())
    assert engine.evaluate(board) == want != classic
    assert engine.play(board, Limit(nodes=2000)) in board.legal_moves
    # the net is for Royal Chess: chess has none here, and nothing falls back silently
    with pytest.raises(NetFileError, match="no net for Standard chess"):
        engine.play(Board(), Limit(nodes=100))
    engine.set_evaluation("classic")
    assert engine.evaluate(board) == classic


def test_nnue_without_a_net_or_with_a_bad_one(tmp_path: Path, royal_net: Path) -> None:
    if not bundled_net("chess") and not bundled_net("royal"):
        with pytest.raises(NetFileError, match="no net to evaluate with"):
            Engine(evaluation="nnue")
    with pytest.raises(NetFileError, match="net file not found"):
        Engine(evaluation="nnue", eval_file=tmp_path / "missing.nnue")
    bad = tmp_path / "bad.nnue"
    data = royal_net.read_bytes()
    bad.write_bytes(data[:-10])
    with pytest.raises(NetFileError, match="truncated"):
        Engine(evaluation="nnue", eval_file=bad)
    with pytest.raises(ValueError, match="'auto', 'classic' or 'nnue'"):
        Engine(evaluation="neural")


def test_uci_options(royal_net: Path) -> None:
    session = Session()
    try:
        session.send("uci")
        text = "\n".join([session.wait_for("uciok"), *session.lines])
        bundled = bool(bundled_net("chess") or bundled_net("royal"))
        default = "true" if bundled else "false"
        assert f"option name UseNNUE type check default {default}" in text
        assert "option name EvalFile type string default <empty>" in text
        assert session.server._engine.evaluation == "auto"
        session.send("setoption name UseNNUE value false")
        assert session.server._engine.evaluation == "classic"
        if not bundled:
            session.send("setoption name UseNNUE value true")
            assert "no net to evaluate with" in session.wait_for("info string error")
        session.send("setoption name EvalFile value /nowhere/royal.nnue")
        session.send("setoption name UseNNUE value true")
        assert "net file not found" in session.wait_for("info string error")
        assert session.server._engine.evaluation == "classic"
        session.send(f"setoption name EvalFile value {royal_net}")
        session.send("setoption name UseNNUE value true")
        assert session.server._engine.evaluation == "nnue"
        session.send("setoption name UCI_Variant value royal", "position startpos", "go nodes 2000")
        assert Board(variant="royal").parse_uci(session.wait_for("bestmove").split()[1])
        session.send("setoption name UseNNUE value false")
        assert session.server._engine.evaluation == "classic"
    finally:
        session.server.close()


def test_match_runner_builtin_engine_with_a_net(royal_net: Path) -> None:
    from royalchess.runner.players import EngineSpec, open_player

    spec = EngineSpec.parse(f"royalchess:evalfile={royal_net},name=nnue")
    player = open_player(spec, "royal", seed=1)
    assert player.engine.evaluation == "nnue"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="evalfile"):
        EngineSpec.parse("royalchess:evaluation=nnue")


def test_match_runner_builtin_engine_evaluation_option() -> None:
    from royalchess.runner.players import EngineSpec, open_player

    def evaluation(text: str, variant: str) -> str:
        player = open_player(EngineSpec.parse(text), variant, seed=1)
        return player.engine.evaluation_for(variant)  # type: ignore[attr-defined]

    assert evaluation("royalchess", "royal") == "classic"  # what earlier commands meant
    assert evaluation("royalchess:eval=auto", "royal") == "nnue"  # the bundled net
    assert evaluation("royalchess:eval=auto", "chess") == "nnue"  # bundled too
    assert evaluation("royalchess:eval=classic", "royal") == "classic"
    with pytest.raises(ValueError, match="eval='fast'"):
        EngineSpec.parse("royalchess:eval=fast")
    with pytest.raises(ValueError, match="contradict"):
        EngineSpec.parse("royalchess:eval=classic,evalfile=x.nnue")


def test_datagen_plays_with_a_net(tmp_path: Path, royal_net: Path) -> None:
    from royalchess.runner.datagen import DatagenUnit, play_datagen_game, run_datagen

    classic = play_datagen_game(DatagenUnit(0, "royal", 1, 300, random_plies=4))
    nnue = play_datagen_game(
        DatagenUnit(0, "royal", 1, 300, random_plies=4, eval_file=str(royal_net))
    )
    assert classic.positions[0][0] == nnue.positions[0][0]  # same opening
    assert [p[1] for p in classic.positions] != [p[1] for p in nnue.positions]
    with pytest.raises(NetFileError, match="not for Royal Chess"):
        chess_net = tmp_path / "chess.nnue"
        write_net(chess_net, random_weights("chess", hidden=16))
        run_datagen(
            str(tmp_path / "d.bin"),
            None,
            positions=10,
            variant="royal",  # type: ignore[arg-type]
            eval_file=str(chess_net),
        )
