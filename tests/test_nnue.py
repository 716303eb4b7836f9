"""The NNUE in the C core: features, incremental accumulators, the net file format.

Nets here are random (seeded) and written by royalchess.nnue; the trainer's own tests
(test_nnue_train.py) check a trained net against its float model.
"""

from __future__ import annotations

import random
import struct
import zlib

import pytest
import royal_positions
from _support import FAST

from royalchess import _core
from royalchess.board import Board
from royalchess.nnue import (
    KING_MIRROR,
    NetFileError,
    NetWeights,
    bucket,
    encode_net,
    feature_count,
    king_layout,
    load_net,
    read_net,
    write_net,
)
from royalchess.variants import get_variant

CHESS_START = get_variant("chess").start_fen
ROYAL_START = get_variant("royal").start_fen


def random_weights(
    variant: str,
    hidden: int = 32,
    seed: int = 1,
    activation: str = "screlu",
    buckets: int = 1,
    layout: str | None = None,
) -> NetWeights:
    rng = random.Random(seed)
    kb, kmap = king_layout(variant, layout) if layout else (1, None)
    inputs = feature_count(variant) * kb
    biases = [rng.randint(-5000, 5000) for _ in range(buckets)]
    return NetWeights(
        variant=variant,
        hidden=hidden,
        activation=activation,
        qa=255,
        qb=64,
        scale=400,
        ft_w=[rng.randint(-60, 60) for _ in range(inputs * hidden)],
        ft_b=[rng.randint(-40, 120) for _ in range(hidden)],
        out_w=[rng.randint(-127, 127) for _ in range(2 * hidden * buckets)],
        out_b=biases[0] if buckets == 1 else biases,
        buckets=buckets,
        king_buckets=kb,
        king_map=kmap,
    )


def random_net(variant: str, **kw: object) -> _core.Net:
    return _core.Net(encode_net(random_weights(variant, **kw)), get_variant(variant).core_id)


def king_state(w: NetWeights, feats: list[int]) -> int:
    """The king-square map's entry for one perspective's base features (its own King is
    kind 5 of relative colour 0)."""
    assert w.king_map is not None
    rules = get_variant(w.variant)
    squares = rules.files * rules.ranks
    (ksq,) = [f - 5 * squares for f in feats if 5 * squares <= f < 6 * squares]
    return w.king_map[ksq]


def king_rows(w: NetWeights, feats: list[int]) -> list[int]:
    """One perspective's base features -> the rows of its King's input set, as docs/nnue.md
    defines them (an oracle written from the text, not from nnue.c or the trainer)."""
    if w.king_map is None:
        return feats
    rules = get_variant(w.variant)
    squares, inputs = rules.files * rules.ranks, feature_count(w.variant)
    state = king_state(w, feats)
    rows = []
    for f in feats:
        if state & KING_MIRROR:
            base, square = divmod(f, squares)
            rank, file = divmod(square, rules.files)
            f = base * squares + rank * rules.files + rules.files - 1 - file
        rows.append((state & ~KING_MIRROR) * inputs + f)
    return rows


def reference_eval(w: NetWeights, fen: str) -> int:
    """The output computed in Python from the features, as docs/nnue.md defines it."""
    feats = _core.nnue_features(fen, get_variant(w.variant).core_id)
    h = w.hidden
    b = bucket(w.variant, w.buckets, len(feats[0]))  # a feature per piece
    out_w = w.out_w[b * 2 * h : (b + 1) * 2 * h]
    total = 0
    for k, side in enumerate(feats):
        acc = list(w.ft_b)
        for f in king_rows(w, side):
            for i in range(h):
                acc[i] += w.ft_w[f * h + i]
        for i in range(h):
            v = min(max(acc[i], 0), w.qa)
            total += (v * v if w.activation == "screlu" else v) * out_w[k * h + i]
    if w.activation == "screlu":
        total = int(total / w.qa)  # C division truncates towards zero
    total += w.biases()[b]
    cp = total * w.scale
    q = w.qa * w.qb
    cp = -((-cp) // q) if cp < 0 else cp // q
    return max(-30000, min(30000, cp))


def test_feature_counts_and_start_features() -> None:
    assert feature_count("chess") == 768
    assert feature_count("royal") == 1600
    stm, other = _core.nnue_features(CHESS_START, 0)
    assert len(stm) == len(other) == 32
    # White to move: White's pawn on a2 is (own, pawn, a2) = 0 * 64 + 8; seen by Black it
    # is (their, pawn, a7): (1 * 6 + 0) * 64 + 6 * 8 = 432.
    assert 8 in stm and 432 in other
    # A symmetric start position looks the same from both sides.
    assert sorted(stm) == sorted(other)
    rstm, rother = _core.nnue_features(ROYAL_START, 1)
    assert len(rstm) == 40 and sorted(rstm) == sorted(rother)
    assert max(rstm) < 1600


def test_guard_with_queen_powers_is_its_own_kind() -> None:
    # Theme 2 of royal_positions: b7 promotes; with queen powers the Guard's feature differs.
    pos = _core.Position(royal_positions.THEME_FENS[2], 1)
    # the FEN marks queen powers (G*, W*): a powered and a plain Guard on one square differ
    fens = set()
    for code in pos.legal_moves():
        pos.push(code)
        fens.add(pos.fen().split()[0])
        pos.pop()
    feature_sets = {tuple(sorted(_core.nnue_features(f + " b - - 0 1", 1)[1])) for f in fens}
    assert len(feature_sets) == len(fens)
    assert any("G*" in f for f in fens) and any("W*" in f for f in fens)


@pytest.mark.parametrize("activation", ["screlu", "crelu"])
@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_output_matches_the_documented_formula(variant: str, activation: str) -> None:
    w = random_weights(variant, hidden=16, seed=7, activation=activation)
    net = _core.Net(encode_net(w), get_variant(variant).core_id)
    pos = _core.Position(get_variant(variant).start_fen, get_variant(variant).core_id)
    rng = random.Random(3)
    for _ in range(12):
        fen = pos.fen()
        assert net.evaluate(fen) == reference_eval(w, fen)
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))


@pytest.mark.parametrize(
    ("hidden", "qa", "out_limit"),
    [
        (144, 255, 127),  # the int16 multiply-add path, over a block of 128 and a part block
        (256, 255, 200),  # qa * |w| no longer fits int16: the 64-bit path
        (32, 1000, 127),  # qa above 255: the 64-bit path
        (256, 255, 127),  # the trainer's bounds at the shipped size
    ],
)
def test_output_paths_agree_with_the_formula(hidden: int, qa: int, out_limit: int) -> None:
    """The output layer has a fast path for nets whose qa * output weight fits int16 and a
    general one; both give the documented formula, saturated accumulators included."""
    rng = random.Random(hidden + qa + out_limit)
    inputs = feature_count("chess")
    w = NetWeights(
        variant="chess",
        hidden=hidden,
        activation="screlu",
        qa=qa,
        qb=64,
        scale=400,
        ft_w=[rng.randint(-90, 90) for _ in range(inputs * hidden)],
        ft_b=[rng.randint(-40, qa) for _ in range(hidden)],
        out_w=[
            rng.choice((-out_limit, out_limit, rng.randint(-out_limit, out_limit)))
            for _ in range(2 * hidden)
        ],
        out_b=rng.randint(-5000, 5000),
    )
    net = _core.Net(encode_net(w), 0)
    pos = _core.Position(CHESS_START, 0)
    for _ in range(10):
        fen = pos.fen()
        assert net.evaluate(fen) == reference_eval(w, fen)
        pos.push(rng.choice(pos.legal_moves()))


def test_bucket_splits_piece_counts_evenly() -> None:
    assert [bucket("chess", 8, n) for n in (2, 5, 6, 9, 10, 31, 32)] == [0, 0, 1, 1, 2, 7, 7]
    assert [bucket("royal", 8, n) for n in (2, 6, 7, 40)] == [0, 0, 1, 7]
    assert {bucket("chess", 1, n) for n in range(2, 33)} == {0}
    assert bucket("chess", 4, 40) == 3  # beyond the start position's count: the last


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_output_buckets_follow_the_piece_count(variant: str) -> None:
    """A version-2 net uses the output bucket of the position's piece count: checked against
    the formula along a long random game, which passes through many counts."""
    w = random_weights(variant, hidden=16, seed=11, buckets=8)
    data = encode_net(w)
    assert struct.unpack_from("<I", data, 4)[0] == 2
    net = _core.Net(data, get_variant(variant).core_id)
    assert net.buckets == 8
    core_id = get_variant(variant).core_id
    pos = _core.Position(get_variant(variant).start_fen, core_id)
    rng = random.Random(5)
    seen = set()
    for _ in range(400):
        fen = pos.fen()
        assert net.evaluate(fen) == reference_eval(w, fen)
        seen.add(bucket(variant, 8, len(_core.nnue_features(fen, core_id)[0])))
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    assert len(seen) >= 3


def test_one_bucket_is_written_as_version_1() -> None:
    """Nets without buckets keep the first format, so engines that read only it read them."""
    data = encode_net(random_weights("chess", hidden=16))
    assert struct.unpack_from("<I", data, 4)[0] == 1
    assert _core.Net(data, 0).buckets == 1


def test_king_layouts() -> None:
    """The named layouts, square by square (index rank * files + file from the
    perspective's side): the right half mirrored onto the left, then the bands."""
    kb, m = king_layout("chess", "4")
    assert kb == 4 and len(m) == 64
    sq = {name: i for i, name in enumerate(f + r for r in "12345678" for f in "abcdefgh")}
    left = [m[sq[s]] for s in ("a1", "b1", "c1", "d1", "a2", "d2", "a3", "d8")]
    assert left == [0, 0, 1, 1, 2, 2, 3, 3]
    right = [m[sq[s]] for s in ("e1", "g1", "h1", "h2", "e8")]
    assert right == [b | KING_MIRROR for b in (1, 0, 0, 2, 3)]
    kb, m = king_layout("chess", "8")
    assert kb == 8
    assert [m[sq[s]] for s in ("b1", "c1", "a2", "d2", "a4", "c3", "b5", "d8")] == list(range(8))
    kb, m = king_layout("chess", "mirror")
    assert kb == 1 and m == ([0] * 4 + [KING_MIRROR] * 4) * 8
    kb, m = king_layout("royal", "4")
    assert len(m) == 80
    # ten files: a-e is the left half, e the innermost; f mirrors onto e
    assert m[:10] == [0, 0, 1, 1, 1] + [b | KING_MIRROR for b in (1, 1, 1, 0, 0)]
    with pytest.raises(ValueError, match="unknown king layout"):
        king_layout("chess", "16")


@pytest.mark.parametrize("variant", ["chess", "royal"])
@pytest.mark.parametrize("layout", ["mirror", "4", "8"])
def test_king_buckets_follow_the_kings_square(variant: str, layout: str) -> None:
    """A version-3 net reads each perspective's pieces through the input set of its own
    King's square, mirrored on the right half: checked against the formula along random
    games in which the Kings walk (King moves preferred), so many sets are used."""
    w = random_weights(variant, hidden=16, seed=12, buckets=2, layout=layout)
    data = encode_net(w)
    assert struct.unpack_from("<I", data, 4)[0] == 3
    core_id = get_variant(variant).core_id
    net = _core.Net(data, core_id)
    assert (net.king_buckets, net.buckets) == (w.king_buckets, 2)
    rng = random.Random(7)
    seen = set()
    starts = [get_variant(variant).start_fen]
    if variant == "chess":
        starts.append("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for start in starts:
        board = Board(start, variant)
        for _ in range(30 if FAST else 120):
            fen = board.fen()
            assert net.evaluate(fen) == reference_eval(w, fen), fen
            seen.update(king_state(w, side) for side in _core.nnue_features(fen, core_id))
            moves = list(board.legal_moves)
            if not moves:
                break
            kings = [m for m in moves if m.from_square == board.king(board.turn)]
            board.push(rng.choice(kings if kings and rng.random() < 0.6 else moves))
    assert len(seen) >= (2 if layout == "mirror" else 4)


def random_game(fen: str, variant: int, plies: int, rng: random.Random) -> list[int]:
    pos = _core.Position(fen, variant)
    moves = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        code = rng.choice(legal)
        moves.append(code)
        pos.push(code)
    return moves


@pytest.mark.parametrize("variant", ["chess", "royal"])
@pytest.mark.parametrize("layout", [None, "8", "mirror"])
def test_incremental_accumulator_equals_refresh(variant: str, layout: str | None) -> None:
    """Every legal move (made and taken back) of every position along random games, every
    other one also followed by a reply before the first look (a two-ply catch-up), and a
    null move at each, leaves the incremental accumulators equal to a refresh — with king
    buckets too, where a King's move to another input set rebuilds its perspective."""
    core_id = get_variant(variant).core_id
    net = random_net(variant, hidden=16, layout=layout)
    rng = random.Random(11)
    starts = [get_variant(variant).start_fen]
    if variant == "royal":
        # castling with Guard pre-moves, Rook jumps, promotions with and without powers...
        starts += royal_positions.THEME_FENS[1:] if not FAST else royal_positions.THEME_FENS[1::2]
    else:
        starts += [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ]
    games = 1 if FAST else 3
    total = 0
    for fen in starts:
        for _ in range(games):
            moves = random_game(fen, core_id, 16 if FAST else 60, rng)
            total += net.check_incremental(fen, moves)
    assert total > (2000 if FAST else 20000)


def test_search_uses_the_net_and_can_go_back_to_classic() -> None:
    net = random_net("royal", hidden=16)
    search = _core.Search(1)
    classic = search.evaluate(ROYAL_START, 1)
    search.set_net(1, net)
    assert search.evaluate(ROYAL_START, 1) == net.evaluate(ROYAL_START)
    # chess still evaluates classically: a net serves only its own game
    assert search.evaluate(CHESS_START, 0) == _core.Search(1).evaluate(CHESS_START, 0)
    result = search.go(ROYAL_START, 1, None, nodes=3000)
    assert result["best"]
    search.set_net(1, None)
    assert search.evaluate(ROYAL_START, 1) == classic
    with pytest.raises(ValueError, match="variant"):
        search.set_net(0, net)


# ---- the file format -------------------------------------------------------------------------


def test_crc32_is_zlibs() -> None:
    for data in (b"", b"123456789", bytes(range(256)) * 3):
        assert _core.crc32(data) == zlib.crc32(data)
    assert _core.crc32(b"123456789") == 0xCBF43926


def test_write_and_load(tmp_path) -> None:
    w = random_weights("chess", hidden=16)
    path = tmp_path / "chess.nnue"
    write_net(path, w)
    net = load_net(path, "chess")
    assert (net.variant, net.inputs, net.hidden, net.activation) == (0, 768, 16, 1)
    assert (net.qa, net.qb, net.scale) == (255, 64, 400)
    assert net.evaluate(CHESS_START) == reference_eval(w, CHESS_START)
    assert path.stat().st_size == 40 + 2 * (768 * 16 + 16 + 32) + 4 + 4


def _with_crc(data: bytes) -> bytes:
    return data[:-4] + struct.pack("<I", zlib.crc32(data[:-4]))


def _header_field(data: bytes, index: int, value: int) -> bytes:
    """data with header u32 number index (0 = version) set to value and the CRC fixed."""
    at = 4 + 4 * index
    return _with_crc(data[:at] + struct.pack("<I", value) + data[at + 4 :])


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: d[:20], "truncated: 20 bytes, shorter than its 40-byte header"),
        (lambda d: d[:-100], "truncated"),
        (lambda d: d + b"\0", "1 bytes after its end"),
        (lambda d: b"XXXX" + d[4:], "bad magic"),
        (lambda d: _header_field(d, 0, 4), "format version 4 is not supported"),
        (lambda d: _header_field(d, 0, 2), "24676 output buckets; it must have 1 to 16"),
        (lambda d: _header_field(d, 1, 1), "net file is for Royal Chess, not for chess"),
        (lambda d: _header_field(d, 3, 24), "hidden layer of 24"),
        (lambda d: _header_field(d, 4, 9), "unknown activation 9"),
        (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "corrupted: checksum"),
    ],
)
def test_bad_files_are_refused_by_name(tmp_path, mangle, message) -> None:
    data = encode_net(random_weights("chess", hidden=16))
    path = tmp_path / "bad.nnue"
    path.write_bytes(mangle(data))
    with pytest.raises(NetFileError, match=message) as info:
        load_net(path, "chess")
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: _header_field(d, 8, 0), "0 output buckets; it must have 1 to 16"),
        (lambda d: _header_field(d, 8, 17), "17 output buckets"),
        (lambda d: _header_field(d, 8, 3), "declares a payload"),
        (lambda d: d[:42], "shorter than its 44-byte header"),
        (lambda d: d[:-10], "truncated"),
    ],
)
def test_bad_bucketed_files_are_refused_by_name(tmp_path, mangle, message) -> None:
    assert_refused(
        tmp_path, mangle(encode_net(random_weights("chess", hidden=16, buckets=4))), message
    )


def assert_refused(tmp_path, data: bytes, message: str) -> None:
    """A chess net file of these bytes does not load, with *message* in the error."""
    path = tmp_path / "bad.nnue"
    path.write_bytes(data)
    with pytest.raises(NetFileError, match=message):
        load_net(path, "chess")


def _kmap_entry(data: bytes, square: int, value: int) -> bytes:
    at = 48 + square  # the map follows version 3's 48-byte header
    return _with_crc(data[:at] + bytes([value]) + data[at + 1 :])


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: _header_field(d, 9, 0), "0 king buckets; it must have 1 to 32"),
        (lambda d: _header_field(d, 9, 33), "33 king buckets"),
        (lambda d: _header_field(d, 9, 8), "declares a payload"),
        (lambda d: _header_field(d, 9, 2), "sends square"),
        (lambda d: _kmap_entry(d, 5, 4), "sends square 5 to king bucket 4; it has 4"),
        (lambda d: _kmap_entry(d, 63, 0x85), "sends square 63 to king bucket 5"),
        (lambda d: d[:100], "shorter than its 112-byte header"),
        (lambda d: d[:-10], "truncated"),
    ],
)
def test_bad_king_bucket_files_are_refused_by_name(tmp_path, mangle, message) -> None:
    assert_refused(
        tmp_path, mangle(encode_net(random_weights("chess", hidden=16, layout="4"))), message
    )


def test_king_bucket_count_must_match_the_payload(tmp_path) -> None:
    data = encode_net(random_weights("chess", hidden=16, layout="mirror"))
    # every map entry is still below 2
    assert_refused(tmp_path, _header_field(data, 9, 2), "declares a payload")


def test_missing_and_wrong_game_files(tmp_path) -> None:
    with pytest.raises(NetFileError, match="net file not found"):
        load_net(tmp_path / "nowhere.nnue", "royal")
    path = tmp_path / "chess.nnue"
    write_net(path, random_weights("chess", hidden=16))
    with pytest.raises(NetFileError, match="for chess, not for Royal Chess"):
        load_net(path, "royal")


@pytest.mark.parametrize(
    ("variant", "buckets", "layout"),
    [
        ("chess", 1, None),
        ("royal", 1, None),
        ("chess", 4, None),
        ("royal", 8, "4"),
        ("chess", 2, "mirror"),
        ("chess", 8, "8"),
    ],
)
def test_read_net_is_the_inverse_of_write_net(tmp_path, variant, buckets, layout) -> None:
    w = random_weights(variant, hidden=16, seed=7, buckets=buckets, layout=layout)
    path = tmp_path / "net.nnue"
    write_net(path, w)
    back = read_net(path)
    assert back == w
    assert encode_net(back) == path.read_bytes()


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: d[:10], "truncated: 10 bytes"),
        (lambda d: d[:-100], "truncated"),
        (lambda d: b"XXXX" + d[4:], "bad magic"),
        (lambda d: _header_field(d, 1, 77), "net file is for"),
        (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "corrupted: checksum"),
    ],
)
def test_read_net_refuses_bad_files_by_name(tmp_path, mangle, message) -> None:
    path = tmp_path / "bad.nnue"
    path.write_bytes(mangle(encode_net(random_weights("royal", hidden=16, buckets=2))))
    with pytest.raises(NetFileError, match=message) as info:
        read_net(path)
    assert str(path) in str(info.value)
    with pytest.raises(NetFileError, match="net file not found"):
        read_net(tmp_path / "nowhere.nnue")
