"""The engine (royalchess.engine over the C search): mates found in both games, only legal
moves at every level, stop and movetime honoured, progress streamed, two searches at once."""

from __future__ import annotations

import random
import threading
import time

import pytest
import royal_positions
from _support import FAST

from royalchess import Board, _core
from royalchess.bench import run as bench_run
from royalchess.engine import Engine, Info, Limit, Score
from royalchess.errors import ChessError
from royalchess.levels import LEVEL_ELO, MAX_LEVEL, MIN_LEVEL, level_for_elo

# (variant, FEN, mate in N for the side to move, the moves that force it). The chess
# positions are from Win At Chess (solutions checked with Stockfish); the Royal Chess ones
# were proven by brute force over the rules core (every first move that forces the mate).
MATES = [
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, {"a1a8"}),
    ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, {"h5f7"}),
    ("chess", "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2, {"g3g6"}),
    ("chess", "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2, {"c6c4"}),
    ("chess", "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", 2, {"h6h7"}),
    ("chess", "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", 3, {"b7b6"}),
    ("chess", "8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1", 3, {"g2g4"}),
    ("chess", "r3k2r/pbp2pp1/3b1n2/1p6/3P3p/1B2N1Pq/PP1PQP1P/R1B2RK1 b kq - 0 1", 3, {"h3h2"}),
    ("royal", "k9/10/K9/3W6/10/10/10/10 w - - 0 1", 1, {"d5d8"}),
    ("royal", "k9/2G7/2K7/10/10/10/10/10 w - - 0 1", 1, {"c7b7"}),
    ("royal", "k9/10/2K7/10/10/10/10/9R w - - 0 1", 2, {"c6b6", "c6c7"}),
    # the Rook reaches a1 by jumping over its own Guard on c1 (rule 3.1a)
    ("royal", "1k8/10/2K7/10/10/10/10/2G6R w - - 0 1", 2, {"j1a1"}),
    ("royal", "k9/10/1K8/10/10/10/10/5W4 w - - 0 1", 3, {"f1f2", "f1d3", "f1c4"}),
    ("royal", "10/10/10/10/10/1r8/10/K2k6 b - - 0 1", 3, {"d1d2", "d1c1", "d1c2"}),
    ("royal", "10/10/10/10/10/k9/3g6/1K8 b - - 0 1", 3, {"a3b3", "d2d1"}),
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(hash_mb=8)


def _mate_ids() -> list[str]:
    return [f"{variant}-m{n}-{min(moves)}" for variant, _, n, moves in MATES]


@pytest.mark.parametrize(("variant", "fen", "n", "solutions"), MATES, ids=_mate_ids())
def test_finds_mate(engine: Engine, variant: str, fen: str, n: int, solutions: set[str]) -> None:
    board = Board(fen, variant=variant)
    engine.new_game()
    lines = engine.analyse(board, Limit(depth=2 * n + 7))
    assert lines, "no line for a position with legal moves"
    best = lines[0]
    assert best.score == Score(mate=n)
    assert best.move is not None and best.move.uci() in solutions
    # the principal variation is a mating line
    for move in best.pv[: 2 * n - 1]:
        board.push(move)
    assert board.is_checkmate()
    engine.new_game()
    played = engine.play(Board(fen, variant=variant), Limit(depth=2 * n + 7))
    assert played.uci() in solutions


def test_mated_side_sees_the_mate(engine: Engine) -> None:
    # Black's only move is Kb8, and Rh8 mates
    board = Board("k7/8/1K6/8/8/8/8/7R b - - 0 1")
    lines = engine.analyse(board, Limit(depth=6))
    assert lines[0].score == Score(mate=-1)
    royal = Board("k9/10/1K8/10/10/10/10/9R b - - 0 1", variant="royal")
    assert engine.analyse(royal, Limit(depth=6))[0].score == Score(mate=-1)


def _random_boards(variant: str, count: int, seed: int) -> list[Board]:
    """Positions from random play, plus the Royal theme positions (castling with Guard
    moves, promotions, Rook pairs), none of them finished."""
    rng = random.Random(seed)
    boards: list[Board] = []
    if variant == "royal":
        for fen in royal_positions.random_positions(count // 2, seed):
            board = Board(fen, variant="royal")
            if board.legal_moves:
                boards.append(board)
    while len(boards) < count:
        board = Board(variant=variant)
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.legal_moves:
            boards.append(board)
    return boards


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_only_legal_moves_at_every_level(variant: str) -> None:
    count = 20 if FAST else 150
    engine = Engine(hash_mb=4, seed=7)
    for i, board in enumerate(_random_boards(variant, count, seed=11 + len(variant))):
        engine.level = MIN_LEVEL + i % (MAX_LEVEL - MIN_LEVEL + 1)
        limit = Limit(movetime=0.01) if i % 3 == 0 else Limit(depth=1 + i % 4)
        move = engine.play(board, limit)
        assert move in board.legal_moves, (board.fen(), engine.level, move)
        hint = engine.hint(board, Limit(nodes=300))
        assert hint in board.legal_moves


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_only_legal_moves_in_many_positions(variant: str) -> None:
    engine = Engine(hash_mb=4, seed=3)
    for i, board in enumerate(_random_boards(variant, 600, seed=99)):
        for level in (MIN_LEVEL, 10, MAX_LEVEL):
            engine.level = level
            move = engine.play(board, Limit(nodes=2_000 + 50 * i))
            assert move in board.legal_moves, (board.fen(), level, move)


def test_game_over_positions() -> None:
    engine = Engine(hash_mb=1)
    mate = Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert mate.is_checkmate()
    assert engine.analyse(mate, Limit(depth=3)) == []
    assert engine.hint(mate) is None
    with pytest.raises(ChessError):
        engine.play(mate, Limit(depth=3))


def test_single_legal_move_is_played_at_once() -> None:
    board = Board("7k/8/8/8/8/8/6q1/7K w - - 0 1")
    assert len(board.legal_moves) == 1
    start = time.perf_counter()
    move = Engine(hash_mb=1).play(board, Limit(wtime=60.0, btime=60.0))
    assert move.uci() == "h1g2"
    assert time.perf_counter() - start < 0.5


def test_repetition_is_a_draw_in_the_search() -> None:
    # Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1: Black's Ng8 now makes the start position a third time.
    board = Board()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"):
        board.push_uci(uci)
    engine = Engine(hash_mb=1)
    result = engine.search(
        board, Limit(depth=4), searchmoves=[board.parse_uci("f6g8")], strength=False
    )
    assert result.lines[0].score == Score(cp=0)


def test_stop_is_answered_within_50_ms() -> None:
    engine = Engine(hash_mb=8)
    board = Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    worst = 0.0
    for _ in range(3):
        analysis = engine.analysis(board)
        time.sleep(0.2)
        start = time.perf_counter()
        analysis.stop()
        result = analysis.wait()
        worst = max(worst, time.perf_counter() - start)
        assert result.move in board.legal_moves
    # the sanitized core (ROYALCHESS_FAST) is many times slower between its stop checks
    assert worst < (0.5 if FAST else 0.05)


def test_stop_before_the_search_starts() -> None:
    engine = Engine(hash_mb=1)
    analysis = engine.analysis(Board(variant="royal"))
    analysis.stop()  # may reach the search before it has begun
    result = analysis.wait()
    assert result.move in Board(variant="royal").legal_moves


@pytest.mark.parametrize("movetime", [0.05, 0.3])
def test_movetime_is_respected(movetime: float) -> None:
    engine = Engine(hash_mb=8)
    board = Board("r2q1rk1/pppbbppp/3p1n2/8/3nPB2/2N4P/PPP1BPP1/R2Q1RK1 w - - 0 11")
    start = time.perf_counter()
    move = engine.play(board, Limit(movetime=movetime))
    elapsed = time.perf_counter() - start
    assert move in board.legal_moves
    assert movetime * 0.7 <= elapsed <= movetime + 0.05


def test_clock_is_never_overstepped() -> None:
    engine = Engine(hash_mb=8)
    board = Board(variant="royal")
    for wtime in (0.05, 0.2, 1.0):
        start = time.perf_counter()
        engine.play(board, Limit(wtime=wtime, btime=wtime))
        assert time.perf_counter() - start < wtime


def test_progress_is_streamed() -> None:
    engine = Engine(hash_mb=4)
    seen: list[Info] = []
    lines = engine.analyse(Board(), Limit(depth=6), multipv=3, on_info=seen.append)
    assert [line.multipv for line in lines] == [1, 2, 3]
    assert len({line.move for line in lines}) == 3
    assert lines[0].score.value() >= lines[1].score.value() >= lines[2].score.value()
    exact = [info for info in seen if info.bound == "exact" and info.multipv == 1]
    assert [info.depth for info in exact] == list(range(1, 7))
    assert all(info.nodes > 0 and info.pv for info in exact)
    with engine.analysis(Board(variant="royal"), Limit(depth=5)) as analysis:
        depths = [info.depth for info in analysis if info.bound == "exact"]
    assert depths == list(range(1, 6))
    assert analysis.wait().depth == 5


def test_two_searches_at_once() -> None:
    boards = [Board(), Board(variant="royal")]
    results: list[object] = [None, None]

    def work(i: int) -> None:
        results[i] = Engine(hash_mb=4).play(boards[i], Limit(depth=7))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for board, move in zip(boards, results, strict=True):
        assert move in board.legal_moves


def test_one_engine_serialises_its_searches() -> None:
    engine = Engine(hash_mb=4)
    board = Board()
    out: list[object] = []
    threads = [
        threading.Thread(target=lambda: out.append(engine.play(board, Limit(depth=5))))
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 3 and all(m in board.legal_moves for m in out)


def test_threads_setting() -> None:
    engine = Engine(hash_mb=4, threads=3)
    assert engine.threads == 3
    engine.threads = 1
    assert engine.threads == 1
    for bad in (0, 65, 2.0, "2"):
        with pytest.raises(ValueError):
            engine.threads = bad  # type: ignore[assignment]
    assert engine.threads == 1
    with pytest.raises(ValueError, match="thread count 0"):
        Engine(threads=0)
    with pytest.raises(ValueError, match="threads must be an int"):
        Engine(threads=2.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_a_node_budget_searches_on_one_thread(variant: str) -> None:
    # the lower levels and fixed-node matches rely on the same answer every time
    board = Board(variant=variant)
    board.push_uci("e2e4")
    one, two = (Engine(hash_mb=8, threads=n).search(board, Limit(nodes=20_000)) for n in (1, 2))
    assert (one.move, one.nodes, one.depth) == (two.move, two.nodes, two.depth)


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_helper_threads_search_beside_the_main_one(variant: str) -> None:
    board = Board(variant=variant)
    board.push_uci("e2e4")
    depth = 5 if FAST else 8
    one = Engine(hash_mb=16).search(board, Limit(depth=depth))
    four = Engine(hash_mb=16, threads=4).search(board, Limit(depth=depth))
    assert four.move in board.legal_moves and four.depth == depth
    # the result counts the helpers' nodes too: three helpers searching all the while the
    # main thread goes to the same depth search more than one thread alone
    assert four.nodes > one.nodes


def test_threads_stop_reuse_and_switch_evaluation() -> None:
    engine = Engine(hash_mb=8, threads=3)
    board = Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    for evaluation in ("auto", "classic", "auto"):
        engine.set_evaluation(evaluation)
        analysis = engine.analysis(board)
        time.sleep(0.1)
        start = time.perf_counter()
        analysis.stop()
        result = analysis.wait()
        # the helpers stop at their next check too, each when the system gives it the core
        assert time.perf_counter() - start < (0.5 if FAST else 0.1)
        assert result.move in board.legal_moves
        lines = engine.analyse(board, Limit(depth=6), multipv=3)
        assert len({line.move for line in lines}) == 3
        # the helpers search the same root moves as the main thread
        only = board.parse_uci("a2a3")
        assert engine.search(board, Limit(depth=6), searchmoves=[only]).move == only
    engine.threads = 1
    assert engine.play(board, Limit(depth=4)) in board.legal_moves


def test_mate_is_found_with_threads() -> None:
    engine = Engine(hash_mb=8, threads=2)
    for variant, fen, n, solutions in MATES:
        engine.new_game()
        best = engine.analyse(Board(fen, variant=variant), Limit(depth=2 * n + 7))[0]
        assert best.score == Score(mate=n)
        assert best.move is not None and best.move.uci() in solutions


def test_levels_and_elo() -> None:
    assert Engine().level == MAX_LEVEL
    engine = Engine(level=3)
    assert engine.settings.depth is not None and engine.settings.blunder > 0
    engine.elo = 1500
    assert engine.level == level_for_elo(1500)
    assert Engine(elo=10_000).level == MAX_LEVEL
    assert Engine(elo=0).level == MIN_LEVEL
    assert sorted(LEVEL_ELO) == list(range(MIN_LEVEL, MAX_LEVEL + 1))
    elos = [LEVEL_ELO[level] for level in sorted(LEVEL_ELO)]
    assert elos == sorted(elos)
    for bad in (0, 21, "5"):
        with pytest.raises(ValueError):
            Engine(level=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Engine(level=5, elo=1500)


def test_weak_levels_answer_fast_and_vary() -> None:
    board = Board()
    engine = Engine(level=1, seed=1)
    start = time.perf_counter()
    moves = {engine.play(board, Limit(movetime=5.0)).uci() for _ in range(30)}
    assert time.perf_counter() - start < 3.0  # limited by nodes, never by sleeping
    assert len(moves) > 3


def test_limit_validation() -> None:
    with pytest.raises(ValueError):
        Limit(depth=-1)
    with pytest.raises(ValueError):
        Limit(movetime=float("nan"))
    assert Limit().is_unbounded() and not Limit(depth=3).is_unbounded()


def test_searchmoves_and_multipv_bounds() -> None:
    engine = Engine(hash_mb=1)
    board = Board()
    only = [board.parse_uci("a2a3"), board.parse_uci("h2h3")]
    result = engine.search(board, Limit(depth=4), searchmoves=only, multipv=5, strength=False)
    assert result.move in only
    assert {line.move for line in result.lines} == set(only)
    with pytest.raises(ValueError):
        engine.analyse(board, Limit(depth=2), multipv=0)


def test_evaluation_is_symmetric() -> None:
    engine = Engine(hash_mb=1)
    white = Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    black = Board("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
    assert engine.evaluate(white) == engine.evaluate(black)


def test_core_search_rejects_bad_input() -> None:
    search = _core.Search(1)
    with pytest.raises(ValueError):
        search.go("not a fen", 0, depth=1)
    with pytest.raises(ValueError):
        search.go(Board().fen(), 0, [123456], depth=1)
    with pytest.raises(ValueError):
        search.go(Board().fen(), 2, depth=1)
    with pytest.raises(ValueError):
        _core.Search(0)

    def boom(info: dict[str, object]) -> None:
        raise RuntimeError("callback failed")

    with pytest.raises(RuntimeError, match="callback failed"):
        search.go(Board().fen(), 0, depth=3, callback=boom)
    assert search.go(Board().fen(), 0, depth=2)["best"] is not None


def test_parameters_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    search = _core.Search(1)
    params = search.params()
    assert {"pawn_mg", "qguard_eg", "pst_mg_n_3_3", "pst_eg_g_0_0", "lmr_div"} <= set(params)
    search.set_param("pst_mg_n_3_3", params["pst_mg_n_3_3"] + 7)
    assert search.params()["pst_mg_n_3_3"] == params["pst_mg_n_3_3"] + 7
    with pytest.raises(KeyError):
        search.set_param("no_such_weight", 1)
    with pytest.raises(KeyError):
        search.set_param("lmr_div", 0)
    monkeypatch.setenv("ROYALCHESS_PARAMS", "tempo=0,rfp_margin=120")
    engine = Engine(hash_mb=1)
    assert engine._search.params()["tempo"] == 0
    assert engine._search.params()["rfp_margin"] == 120


def test_search_feature_switches() -> None:
    """Each search step of issue 10 is a tunable that turns it off for A/B self-play."""
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    search = _core.Search(4)
    params = search.params()
    assert (params["cont_hist"], params["se_depth"], params["se_margin"]) == (1, 6, 3)
    assert (params["razor_depth"], params["razor_margin"], params["see_quiet"]) == (3, 250, 60)
    assert (params["corr_hist"], params["staged"]) == (1, 1)
    # Tried and off (strength.md): they must still work when switched on.
    assert (params["probcut_margin"], params["iir_cut"], params["lmr_cut"]) == (0, 0, 0)
    on = search.go(fen, 0, depth=8)["nodes"]
    switched = {"probcut_margin": 200, "iir_cut": 1, "lmr_cut": 1}
    on_steps = ("cont_hist", "se_depth", "razor_depth", "see_quiet", "corr_hist", "staged")
    for name in (*on_steps, *switched):
        search.set_param(name, switched.get(name, 0))
        search.clear()
        off = search.go(fen, 0, depth=8)["nodes"]
        search.set_param(name, params[name])
        search.clear()
        assert off != on, name
        assert search.go(fen, 0, depth=8)["nodes"] == on


@pytest.mark.parametrize("staged", [1, 0])
def test_both_move_orders_find_the_chess_mates(staged: int) -> None:
    """Staged move generation (chess) tries the hash move and killers before generating
    anything and must still see every mate; the whole-list order (staged=0) too."""
    engine = Engine(hash_mb=4)
    engine.set_param("staged", staged)
    for variant, fen, n, solutions in MATES:
        if variant != "chess":
            continue
        engine.new_game()
        lines = engine.analyse(Board(fen), Limit(depth=2 * n + 7))
        assert lines[0].score == Score(mate=n), fen
        assert lines[0].move is not None and lines[0].move.uci() in solutions, fen


def test_history_aging_switch() -> None:
    """hist_age shifts the move-ordering history down between searches; 0 keeps it whole."""
    first = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    second = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"
    search = _core.Search(4)
    assert search.params()["hist_age"] == 1

    def second_search(age: int) -> int:
        search.set_param("hist_age", age)
        search.clear()
        search.go(first, 0, depth=8)
        return int(search.go(second, 0, depth=8)["nodes"])

    aged, whole = second_search(1), second_search(0)
    assert aged != whole
    assert second_search(1) == aged


def test_bench_signature_is_deterministic() -> None:
    assert bench_run(4).nodes == bench_run(4).nodes


# (variant, FEN with the clock at 98 or 99, the move that mates as the clock reaches 100)
HUNDREDTH_MATES = [
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "a1a8"),
    ("royal", "k9/10/K9/3W6/10/10/10/10 w - - 99 80", "d5d8"),
]


@pytest.mark.parametrize(("variant", "fen", "mate"), HUNDREDTH_MATES)
def test_mate_on_the_hundredth_half_move_stands(variant: str, fen: str, mate: str) -> None:
    """FIDE 9.3: the move that brings the clock to 100 and mates wins; every other move here
    draws by the fifty-move rule, so only a search that sees the mate first finds it."""
    engine = Engine(hash_mb=1)
    board = Board(fen, variant=variant)
    best = engine.analyse(board, Limit(depth=4))[0]
    assert best.score == Score(mate=1) and best.move is not None and best.move.uci() == mate
    assert engine.play(board, Limit(depth=4)).uci() == mate
    board.push_uci(mate)
    assert board.halfmove_clock == 100 and board.is_checkmate()
    assert board.outcome() == board.outcome(claim_draw=True)
    assert board.outcome() is not None and board.outcome().winner is True
    assert not board.is_fifty_moves() and not board.can_claim_fifty_moves()


def test_mate_on_the_hundredth_half_move_as_python_chess_scores_it() -> None:
    """The library side agrees with python-chess (the oracle) on that position and on a check
    that is not mate on the same move (a fifty-move draw)."""
    import chess

    for fen, move, termination in (
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "a1a8", "CHECKMATE"),
        ("6k1/8/8/8/8/8/8/R5K1 w - - 99 80", "a1a8", None),
    ):
        ours, ref = Board(fen), chess.Board(fen)
        ours.push_uci(move)
        ref.push_uci(move)
        for claim in (False, True):
            mine, theirs = ours.outcome(claim_draw=claim), ref.outcome(claim_draw=claim)
            assert (mine is None) == (theirs is None)
            if mine is not None:
                assert (mine.termination.name, mine.winner) == (
                    theirs.termination.name,
                    theirs.winner,
                )
        assert ours.is_checkmate() == ref.is_checkmate() == (termination == "CHECKMATE")
        assert ours.is_fifty_moves() == ref.is_fifty_moves()
        assert ours.can_claim_fifty_moves() == ref.can_claim_fifty_moves()


def test_check_that_is_not_mate_on_the_hundredth_half_move_is_a_draw() -> None:
    engine = Engine(hash_mb=1)
    # every White move brings the clock to 100; Ra8+ is check but the King walks away
    board = Board("6k1/8/8/8/8/8/8/R5K1 w - - 99 80")
    assert engine.analyse(board, Limit(depth=4))[0].score == Score(cp=0)
    # Black's only move Kb8 brings the clock to 99, and Rh8 mates on the hundredth half-move
    mated = Board("k7/8/1K6/8/8/8/8/7R b - - 98 80")
    assert engine.analyse(mated, Limit(depth=6))[0].score == Score(mate=-1)
