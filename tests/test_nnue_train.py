"""The NNUE trainer (train/, PyTorch): a tiny net on tiny data learns, and its quantised
export evaluates in the C core as the float model does, for both games."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import torch

from royalchess import _core
from royalchess.nnue import load_net, write_net
from royalchess.runner.datagen import MAGIC, GameData, encode_game, read_positions
from royalchess.variants import get_variant

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: train/

from train import data as train_data
from train.__main__ import main as train_main
from train.data import Dataset
from train.model import Nnue
from train.trainer import Config, evaluate_loss, train

torch.set_num_threads(1)  # the machine's cores are shared; one thread is also reproducible


def make_datagen_file(path: Path, variant: str, games: int, seed: int) -> None:
    """A small file in datagen's format: random games scored by the classic evaluation."""
    rng = random.Random(seed)
    core_id = get_variant(variant).core_id
    search = _core.Search(1)
    blocks = [MAGIC]
    for gid in range(games):
        pos = _core.Position(get_variant(variant).start_fen, core_id)
        positions = []
        for ply in range(40):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            fen = pos.fen()
            positions.append((fen, search.evaluate(fen, core_id), ply + 1))
        blocks.append(
            encode_game(
                GameData(gid, variant, rng.choice((-1, 0, 1)), tuple(positions), len(positions))
            )
        )
    path.write_bytes(b"".join(blocks))


def assert_same_as_the_model(net: _core.Net, model: Nnue, data: Dataset, fens: list[str]) -> None:
    """The exported net in the C core evaluates every position as the float model, within
    the quantisation error (see test_tiny_net_learns_and_exports_faithfully)."""
    with torch.no_grad():
        want = model.centipawns(data.stm, data.nstm).tolist()
    diffs = [net.evaluate(fen) - w for fen, w in zip(fens, want, strict=True)]
    assert max(map(abs, diffs)) <= 30
    assert sum(map(abs, diffs)) / len(diffs) <= 8


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_tiny_net_learns_and_exports_faithfully(tmp_path: Path, variant: str) -> None:
    path = tmp_path / "data.bin"
    make_datagen_file(path, variant, games=8, seed=5)
    data = train_data.load([path])
    assert data.variant == variant and len(data) > 200
    cfg = Config(hidden=32, epochs=15, batch=64, lr=3e-3, seed=3, device="cpu")
    model, losses, *_ = train(data, cfg)
    assert losses[-1] < 0.6 * losses[0]

    # Seeded: the same run gives the same model.
    short = Config(hidden=16, epochs=1, batch=64, seed=4, device="cpu")
    assert train(data, short)[1] == train(data, short)[1]

    net_path = tmp_path / "net.nnue"
    write_net(net_path, model.export())
    net = load_net(net_path, variant)
    fens = [p.fen for p in read_positions(path)]
    with torch.no_grad():
        want = model.centipawns(data.stm, data.nstm).tolist()
    diffs = [net.evaluate(fen) - w for fen, w in zip(fens, want, strict=True)]
    # Quantisation alone: each accumulator is the sum of ~35 weights rounded to 1/255, so it
    # is off by ~0.006 (at most ~0.07) of the activation range, and an output unit is 400 cp;
    # the C output itself equals the documented integer formula exactly (test_nnue.py).
    assert max(map(abs, diffs)) <= 30
    assert sum(map(abs, diffs)) / len(diffs) <= 8


def test_command_line(tmp_path: Path) -> None:
    path = tmp_path / "royal.bin"
    make_datagen_file(path, "royal", games=2, seed=9)
    out = tmp_path / "royal.nnue"
    assert (
        train_main(
            [str(path), "-o", str(out), "--hidden", "16", "--epochs", "2", "--device", "cpu"]
        )
        == 0
    )
    net = load_net(out, "royal")
    assert (net.inputs, net.hidden) == (1600, 16)


def test_validation_holds_out_whole_games_and_cache_matches(tmp_path: Path) -> None:
    path = tmp_path / "royal.bin"
    make_datagen_file(path, "royal", games=10, seed=11)
    data = train_data.load([path, path])  # a file twice: its games count twice
    assert data.game is not None and int(data.game.max()) == 19
    fit, held = train_data.split(data, 0.3, seed=2)
    assert len(fit) + len(held) == len(data)
    assert held.game is not None and fit.game is not None
    assert set(held.game.tolist()).isdisjoint(fit.game.tolist())
    assert len(set(held.game.tolist())) == 6

    cache = tmp_path / "cache"
    first = train_data.load([path], cache_dir=cache)
    assert len(list(cache.iterdir())) == 1
    again = train_data.load([path], cache_dir=cache)  # read back from the cache
    plain = train_data.load([path])
    for d in (first, again):
        for name in ("stm", "nstm", "score", "result", "game"):
            assert torch.equal(getattr(d, name), getattr(plain, name))


def test_load_concatenates_files_into_narrow_features(tmp_path: Path) -> None:
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    make_datagen_file(a, "royal", games=3, seed=5)
    make_datagen_file(b, "royal", games=4, seed=6)
    one, two, both = train_data.load([a]), train_data.load([b]), train_data.load([a, b])
    assert both.stm.dtype == both.nstm.dtype == torch.int16
    assert one.game is not None and two.game is not None and both.game is not None
    for name in ("stm", "nstm", "score", "result"):
        assert torch.equal(getattr(both, name), torch.cat([getattr(one, name), getattr(two, name)]))
    assert torch.equal(both.game, torch.cat([one.game, two.game + int(one.game.max()) + 1]))
    parts = [torch.arange(6).view(3, 2), torch.arange(6, 10).view(2, 2)]
    assert torch.equal(train_data._concat(parts), torch.arange(10).view(5, 2)) and not parts


def test_keep_best_returns_the_lowest_validation_epoch(tmp_path: Path) -> None:
    path = tmp_path / "royal.bin"
    make_datagen_file(path, "royal", games=6, seed=13)
    fit, held = train_data.split(train_data.load([path]), 0.34, seed=1)
    seen: list[float] = []
    cfg = Config(hidden=16, epochs=6, batch=32, lr=2e-2, seed=5, device="cpu")
    model, _, epoch, validation = train(fit, cfg, lambda _e, _l, v: seen.append(v or 0.0), held)
    cfg_last = Config(hidden=16, epochs=6, batch=32, lr=2e-2, seed=5, keep_best=False)
    last, _, last_epoch, _ = train(fit, cfg_last, None, held)
    assert min(seen) < seen[-1]  # this data overfits: the best epoch is not the last
    assert validation == seen and epoch == seen.index(min(seen)) + 1 and last_epoch == 6
    assert evaluate_loss(model, held, cfg, torch.device("cpu")) == pytest.approx(min(seen))
    assert evaluate_loss(last, held, cfg, torch.device("cpu")) == pytest.approx(seen[-1])


def test_command_line_names_the_epoch_it_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exported net is the lowest-validation epoch's (``--last``: the last epoch's), and
    the final line says which, since the epoch lines before it show later epochs too."""
    path = tmp_path / "royal.bin"
    make_datagen_file(path, "royal", games=6, seed=13)
    argv = [str(path), "--hidden", "16", "--epochs", "6", "--batch", "32", "--lr", "2e-2"]
    argv += ["--validation", "0.34", "--device", "cpu"]
    for extra, keeps_best in (([], True), (["--last"], False)):
        out = tmp_path / f"net{len(extra)}.nnue"
        assert train_main([*argv, "-o", str(out), *extra]) == 0
        lines = capsys.readouterr().err.splitlines()
        epochs = [x for x in lines if x.startswith("epoch ")]
        held = [float(x.split("validation ")[1].split(" ")[0]) for x in epochs]
        assert len(held) == 6 and min(held) < held[-1]  # the best epoch is not the last
        epoch = held.index(min(held)) + 1 if keeps_best else 6
        assert lines[-1].startswith(f"wrote {out}: epoch {epoch} ")
        assert " of 6; training loss " in lines[-1]


def test_factorised_net_exports_its_folded_weights(tmp_path: Path) -> None:
    """The shared per-piece, rank and file rows are added into each input's row on export:
    the engine's net evaluates as the factorised float model does."""
    path = tmp_path / "royal.bin"
    make_datagen_file(path, "royal", games=4, seed=17)
    data = train_data.load([path])
    cfg = Config(hidden=16, epochs=4, batch=64, lr=3e-3, seed=2, factorise=True, decay=1.0)
    model, losses, *_ = train(data, cfg)
    assert losses[-1] < losses[0]
    assert float(model.f_piece.detach().abs().sum()) > 0  # the shared rows did learn
    net_path = tmp_path / "net.nnue"
    write_net(net_path, model.export())
    net = load_net(net_path, "royal")
    with torch.no_grad():
        want = model.centipawns(data.stm, data.nstm).tolist()
    fens = [p.fen for p in read_positions(path)]
    diffs = [net.evaluate(fen) - w for fen, w in zip(fens, want, strict=True)]
    assert sum(map(abs, diffs)) / len(diffs) <= 8


def test_mirror_fen_reflects_files_as_python_chess_does() -> None:
    chess = pytest.importorskip("chess")
    rng = random.Random(21)
    checked = 0
    for _ in range(40):
        board = chess.Board()
        for _ in range(rng.randrange(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        fen = board.fen(en_passant="fen")
        reflected = train_data.mirror_fen(fen)
        if board.castling_rights:
            assert reflected is None  # castling tells the wings apart
            board.castling_rights = chess.BB_EMPTY
            fen = board.fen(en_passant="fen")
            reflected = train_data.mirror_fen(fen)
        assert reflected is not None
        expected = board.transform(chess.flip_horizontal)
        mirrored = chess.Board(reflected)
        assert mirrored.board_fen() == expected.board_fen()
        assert mirrored.turn == board.turn
        ep = None if board.ep_square is None else board.ep_square ^ 7  # file h <-> a
        assert mirrored.ep_square == ep
        assert train_data.mirror_fen(reflected) == fen
        checked += 1
    assert checked == 40


def test_mirror_adds_the_reflections_of_positions_without_castling(tmp_path: Path) -> None:
    path = tmp_path / "chess.bin"
    fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",  # may castle: once
        "8/5k2/8/3pP3/8/8/1K6/8 w - d6 0 40",
        "r5k1/5ppp/8/8/8/8/5PPP/2R3K1 b - - 3 30",
    ]
    game = GameData(0, "chess", 1, tuple((f, 25 * i, i) for i, f in enumerate(fens)), 3)
    path.write_bytes(MAGIC + encode_game(game))
    plain = train_data.load([path])
    both = train_data.load([path], mirror=True)
    assert len(plain) == 3 and len(both) == 5
    assert both.game is not None and set(both.game.tolist()) == {0}
    core_id = get_variant("chess").core_id
    reflected = train_data.mirror_fen(fens[1])
    assert reflected is not None
    a, _ = _core.nnue_features(reflected, core_id)
    row = both.stm[2].tolist()
    assert sorted(v for v in row if v != both.stm.max()) == sorted(a)
    assert both.score.tolist() == [0.0, 25.0, 25.0, 50.0, 50.0]
    assert both.result.tolist() == plain.result.repeat_interleave(torch.tensor([1, 2, 2])).tolist()


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_bucketed_net_exports_faithfully(tmp_path: Path, variant: str) -> None:
    """With output buckets, the float model picks each position's bucket by its piece count
    as the engine does: the exported version-2 net evaluates as the model."""
    from royalchess.nnue import bucket

    path = tmp_path / "data.bin"
    make_datagen_file(path, variant, games=6, seed=23)
    data = train_data.load([path])
    out = tmp_path / "net.nnue"
    argv = [str(path), "-o", str(out), "--hidden", "16", "--epochs", "3", "--batch", "64"]
    assert train_main([*argv, "--buckets", "16", "--lr", "3e-3", "--validation", "0"]) == 0
    net = load_net(out, variant)
    assert net.buckets == 16
    cfg = Config(hidden=16, epochs=3, batch=64, lr=3e-3, seed=1, buckets=16)
    model, *_ = train(data, cfg)
    write_net(out, model.export())
    net = load_net(out, variant)
    fens = [p.fen for p in read_positions(path)]
    core_id = get_variant(variant).core_id
    used = {bucket(variant, 16, len(_core.nnue_features(f, core_id)[0])) for f in fens}
    assert len(used) >= 2
    assert_same_as_the_model(net, model, data, fens)


def test_royal_reflection_is_the_same_game() -> None:
    """Royal Chess reflected left to right (a-j swapped) without castling rights: the engine's
    own move generator gives exactly the reflected moves, over positions rich in the rules
    that differ from chess (Guards across the centre line, Rook pairs and the recapture
    square, Guards with queen powers, promotions to captured kinds). What --mirror assumes."""
    import re

    from royal_positions import random_positions

    from royalchess.move import Move

    def flip(text: str) -> str:
        return re.sub(
            r"[a-j](?=10|[1-8])", lambda m: "abcdefghij"[9 - "abcdefghij".index(m[0])], text
        )

    core_id = get_variant("royal").core_id
    checked = with_s = 0
    for fen in random_positions(150, seed=31):
        fields = fen.split(" ")
        fields[2] = "-"
        fen = " ".join(fields)
        try:
            pos = _core.Position(fen, core_id)
        except ValueError:
            continue  # e.g. an en passant square no longer valid without the rights
        reflected = train_data.mirror_fen(fen, files=10)
        assert reflected is not None
        assert train_data.mirror_fen(reflected, files=10) == fen
        mirrored = _core.Position(reflected, core_id)
        moves = {flip(Move.from_code(m, 10).uci()) for m in pos.legal_moves()}
        assert {Move.from_code(m, 10).uci() for m in mirrored.legal_moves()} == moves, fen
        checked += 1
        with_s += len(fields) > 6 and fields[6] != "-"
    assert checked >= 100 and with_s >= 1


@pytest.mark.parametrize(("variant", "layout"), [("chess", "8"), ("royal", "4")])
def test_king_bucketed_net_exports_faithfully(tmp_path: Path, variant: str, layout: str) -> None:
    """With king buckets the float model reads each perspective through its King's input
    set (mirrored on the right half) as the engine does: the exported version-3 net
    evaluates as the model, over positions whose Kings stand in several sets."""
    from royalchess.nnue import king_layout

    path = tmp_path / "data.bin"
    make_datagen_file(path, variant, games=8, seed=29)
    out = tmp_path / "net.nnue"
    argv = [str(path), "-o", str(out), "--hidden", "16", "--epochs", "2", "--batch", "64"]
    assert train_main([*argv, "--king-buckets", layout, "--factorise", "--validation", "0"]) == 0
    kb, kmap = king_layout(variant, layout)
    assert load_net(out, variant).king_buckets == kb

    data = train_data.load([path])
    cfg = Config(hidden=16, epochs=3, batch=64, lr=3e-3, seed=1, king_layout=layout)
    model, losses, *_ = train(data, cfg)
    assert losses[-1] < losses[0]
    weights = model.export()
    # the sets did learn apart from their shared rows: the engine must pick the right one
    rows = len(weights.ft_w) // kb
    assert weights.ft_w[:rows] != weights.ft_w[rows : 2 * rows]
    write_net(out, weights)
    net = load_net(out, variant)
    fens = [p.fen for p in read_positions(path)]
    core_id = get_variant(variant).core_id
    squares = get_variant(variant).files * get_variant(variant).ranks
    states = {
        kmap[f - 5 * squares]
        for fen in fens
        for side in _core.nnue_features(fen, core_id)
        for f in side
        if 5 * squares <= f < 6 * squares
    }
    assert len(states) >= 3
    assert_same_as_the_model(net, model, data, fens)


@pytest.mark.parametrize(
    ("variant", "extra"),
    [("royal", ["--factorise"]), ("chess", ["--king-buckets", "4", "--buckets", "4"])],
)
def test_init_starts_from_a_nets_weights(tmp_path: Path, variant: str, extra: list[str]) -> None:
    """--init: the net's weights, dequantised, are the model's (exported again, the same
    net); with no learning rate they stay; the net's shape is the model's; training from it
    goes on from its loss, not from a random start's."""
    from royalchess.nnue import NetWeights, read_net

    path = tmp_path / "data.bin"
    make_datagen_file(path, variant, games=6, seed=31)
    first = tmp_path / "first.nnue"
    argv = [str(path), "--epochs", "4", "--batch", "64", "--validation", "0", "--lr", "3e-3"]
    assert train_main([*argv, "-o", str(first), "--hidden", "16", *extra]) == 0
    w = read_net(first)

    data = train_data.load([path])
    layout = "4" if "--king-buckets" in extra else None
    factorise = "--factorise" in extra
    model = Nnue(variant, 16, "screlu", factorise, w.buckets, layout)
    model.load(w)
    assert model.export() == w

    def cfg(init: NetWeights | None) -> Config:
        return Config(
            hidden=16,
            buckets=w.buckets,
            king_layout=layout,
            factorise=factorise,
            epochs=2,
            batch=64,
            lr=0.0,
            init=init,
        )

    still, losses, *_ = train(data, cfg(w))
    assert still.export() == w and losses[-1] == pytest.approx(losses[0], rel=1e-5)
    assert train(data, cfg(None))[1][0] > losses[0]  # the trained net fits better than random

    # the command line takes the shape from the net and refuses another one
    again = tmp_path / "again.nnue"
    assert train_main([*argv, "-o", str(again), "--init", str(first), "--lr", "1e-4"]) == 0
    assert read_net(again).hidden == 16 and read_net(again).buckets == w.buckets
    with pytest.raises(SystemExit):
        train_main([*argv, "-o", str(again), "--init", str(first), "--hidden", "32"])
    with pytest.raises(SystemExit):
        train_main([*argv, "-o", str(again), "--init", str(tmp_path / "none.nnue")])


def test_rescale_sets_the_output_scale_and_init_keeps_it(tmp_path: Path) -> None:
    """python -m train.rescale multiplies every evaluation by new/old scale and leaves the
    weights; --init takes the net's scale, so the model scores as the rescaled net does and
    the net it exports keeps that scale; bad arguments are named, not written."""
    from royalchess.nnue import read_net
    from train.rescale import main as rescale_main

    path = tmp_path / "data.bin"
    make_datagen_file(path, "chess", games=6, seed=32)
    first, scaled = tmp_path / "first.nnue", tmp_path / "scaled.nnue"
    argv = [str(path), "--epochs", "3", "--batch", "64", "--validation", "0", "--lr", "3e-3"]
    assert train_main([*argv, "-o", str(first), "--hidden", "16"]) == 0
    assert rescale_main([str(first), str(scaled), "--scale", "300"]) == 0
    before, after = read_net(first), read_net(scaled)
    assert (before.scale, after.scale) == (400, 300)
    assert (after.ft_w, after.out_w, after.out_b) == (before.ft_w, before.out_w, before.out_b)

    fens = [p.fen for p in read_positions(path)]
    old, new = load_net(first, "chess"), load_net(scaled, "chess")
    pairs = [(old.evaluate(f), new.evaluate(f)) for f in fens]
    assert any(abs(a) >= 40 for a, _ in pairs)  # the check below is not all zeros
    # the engine truncates each product towards zero, so the rescaled value is within a pawn
    # hundredth of three quarters of the old one
    assert all(abs(b - a * 3 / 4) <= 1 for a, b in pairs)

    model = Nnue("chess", 16, "screlu")
    model.load(after)
    assert model.scale == 300 and model.export() == after
    data = train_data.load([path])
    assert_same_as_the_model(new, model, data, fens)
    again = tmp_path / "again.nnue"
    assert train_main([*argv, "-o", str(again), "--init", str(scaled), "--lr", "1e-4"]) == 0
    assert read_net(again).scale == 300

    for bad in (["--scale", "0"], ["--scale", "5000"]):
        with pytest.raises(SystemExit):
            rescale_main([str(first), str(tmp_path / "bad.nnue"), *bad])
    with pytest.raises(SystemExit):
        rescale_main([str(tmp_path / "none.nnue"), str(tmp_path / "bad.nnue"), "--scale", "300"])
    assert not (tmp_path / "bad.nnue").exists()


def test_widen_keeps_every_evaluation_and_trains_on(tmp_path: Path) -> None:
    """python -m train.widen copies neurons and splits their output weights: the wider net
    evaluates as the old one did, to the centipawn, in the C core; --noise moves it only a
    little; training goes on from it (--init) at its new size; bad sizes are named."""
    from royalchess.nnue import bundled_net, read_net
    from train.widen import main as widen_main

    path = tmp_path / "data.bin"
    make_datagen_file(path, "chess", games=6, seed=33)
    fens = [p.fen for p in read_positions(path)]
    shipped = bundled_net("chess")
    assert shipped is not None
    wide, noisy = tmp_path / "wide.nnue", tmp_path / "noisy.nnue"
    assert widen_main([str(shipped), str(wide), "--hidden", "384"]) == 0
    assert widen_main([str(shipped), str(noisy), "--hidden", "384", "--noise", "4"]) == 0
    before = read_net(shipped)
    after = read_net(wide)
    assert (after.hidden, after.buckets, after.scale) == (384, before.buckets, before.scale)
    old, new, jittered = (load_net(p, "chess") for p in (shipped, wide, noisy))
    values = [old.evaluate(f) for f in fens]
    assert len(set(values)) > 20  # the check below compares real evaluations
    assert [new.evaluate(f) for f in fens] == values
    assert [jittered.evaluate(f) for f in fens] != values
    drift = [abs(jittered.evaluate(f) - v) for f, v in zip(fens, values, strict=True)]
    assert sum(drift) / len(drift) <= 0.05 * sum(map(abs, values)) / len(values)

    small, grown, trained = (tmp_path / n for n in ("small.nnue", "grown.nnue", "trained.nnue"))
    argv = [str(path), "--epochs", "1", "--batch", "64", "--validation", "0", "--lr", "3e-3"]
    assert train_main([*argv, "-o", str(small), "--hidden", "16", "--buckets", "2"]) == 0
    assert widen_main([str(small), str(grown), "--hidden", "32"]) == 0
    assert [load_net(grown, "chess").evaluate(f) for f in fens] == [
        load_net(small, "chess").evaluate(f) for f in fens
    ]
    assert train_main([*argv, "-o", str(trained), "--init", str(grown), "--lr", "1e-4"]) == 0
    assert read_net(trained).hidden == 32

    for bad in ("16", "40", "48", "8"):
        with pytest.raises(SystemExit):
            widen_main([str(small), str(tmp_path / "bad.nnue"), "--hidden", bad])
    with pytest.raises(SystemExit):
        widen_main([str(tmp_path / "none.nnue"), str(tmp_path / "bad.nnue"), "--hidden", "32"])
    assert not (tmp_path / "bad.nnue").exists()
