"""The runner on the local process pool: matches (repeatable at fixed nodes, a killed worker,
Ctrl+C and --resume, SPRT stop, UCI forfeits), the SPRT arithmetic against published
figures, analysis and self-play data. The same jobs on a real Ray cluster: test_runner_ray.py.
"""

from __future__ import annotations

import io
import lzma
import math
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import chess.pgn
import pytest
from runner_units import CrashOnce, Square

from royalchess import pgn
from royalchess.board import Board
from royalchess.cli import main
from royalchess.engine import Limit
from royalchess.runner.analyse import read_input, run_analyse
from royalchess.runner.backends import LocalBackend
from royalchess.runner.datagen import MAGIC, read_games, read_positions, run_datagen
from royalchess.runner.match import MatchPlan, run_match
from royalchess.runner.openings import builtin_openings, generate, read_openings
from royalchess.runner.output import open_output, pgn_prefix
from royalchess.runner.players import Clock, EngineSpec, TimeControl, open_player
from royalchess.runner.sprt import Sprt, estimate, llr, llr_approx

REPO = Path(__file__).resolve().parents[1]


def games_of(path: Path) -> list[tuple[int, tuple[str, ...], str, str]]:
    """(unit, moves, result, termination) of every game of a PGN file, by unit."""
    out = []
    for game in pgn.read_games(path.read_text(encoding="utf-8")):
        assert not game.errors, game.errors
        moves = tuple(m.uci() for m in game.mainline_moves())
        out.append(
            (int(game.headers["Unit"]), moves, game.headers["Result"], game.headers["Termination"])
        )
    return sorted(out)


def small_plan(games: int = 4, variant: str = "chess", **kw: object) -> MatchPlan:
    return MatchPlan(
        EngineSpec.parse("royalchess"),
        EngineSpec.parse("royalchess:level=6"),
        variant,
        builtin_openings(variant),
        TimeControl(nodes=300),
        games,
        seed=7,
        **kw,  # type: ignore[arg-type]
    )


# -- statistics --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penta", "elo", "elo_error", "nelo", "nelo_error"),
    [
        # fastchess's printed results (Elo/nElo with their 95% half-widths):
        # "Ptnml(0-2): [1, 10, 78, 48, 13]" -> "Elo: 72.85 +/- 22.33, nElo: 132.30 +/- 39.32"
        ([1, 10, 78, 48, 13], 72.85, 22.33, 132.30, 39.32),
        # "Ptnml(0-2): [0, 0, 1, 8, 1]" -> "Elo: 190.85 +/- 65.54, nElo: 549.34 +/- 152.27"
        ([0, 0, 1, 8, 1], 190.85, 65.54, 549.34, 152.27),
        # "[352, 579, 1264, 743, 464]" -> "Elo: 19.83 +/- 6.77, nElo: 24.25 +/- 8.26"
        ([352, 579, 1264, 743, 464], 19.83, 6.77, 24.25, 8.26),
    ],
)
def test_elo_matches_published_fastchess_results(
    penta: list[int], elo: float, elo_error: float, nelo: float, nelo_error: float
) -> None:
    est = estimate(penta)
    assert (round(est.elo, 2), round(est.elo_error, 2)) == (elo, elo_error)
    assert (round(est.nelo, 2), round(est.nelo_error, 2)) == (nelo, nelo_error)


def test_llr_matches_published_sprt_results() -> None:
    # fastchess, normalised-Elo GSPRT on pentanomial pairs:
    # "Ptnml(0-2): [0, 0, 1, 8, 1] ... LLR: 1.24 (42.1%) (-2.94, 2.94) [0.00, 50.00]"
    assert round(llr([0, 0, 1, 8, 1], 0, 50), 2) == 1.24
    # "Ptnml(0-2): [352, 579, 1264, 743, 464] ... LLR: 4.60 (100.0%) (-4.60, 4.60) [9.00, 16.00]"
    assert round(llr([352, 579, 1264, 743, 464], 9, 16), 2) == 4.60
    # its bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha)
    sprt = Sprt(0, 5, 0.05, 0.05)
    assert (round(sprt.lower, 2), round(sprt.upper, 2)) == (-2.94, 2.94)
    assert round(Sprt(9, 16, 0.01, 0.01).upper, 2) == 4.60


def test_logistic_llr_by_hand() -> None:
    """L=1000, D=2000, W=1100 (N=4100), H0 Elo 0 against H1 Elo 5.

    Score s = (2000/2 + 1100)/4100 = 0.512195; variance v = (1000 s^2 + 2000 (1/2 - s)^2
    + 1100 (1 - s)^2)/4100 = 0.127900. s0 = 1/2, s1 = 1/(1 + 10^(-5/400)) = 0.507195. The
    Brownian approximation N (s1 - s0)(2s - s0 - s1) / 2v = 4100 * 0.007195 * 0.017195 /
    0.255800 = 1.983; near H0 and H1 the exact GSPRT (maximum-likelihood distributions)
    agrees with it to 0.1%: 1.981.
    """
    counts = [1000, 2000, 1100]
    assert round(llr_approx(counts, 0, 5), 3) == 1.983
    assert round(llr(counts, 0, 5, model="logistic"), 3) == 1.981
    # at the midpoint of symmetric hypotheses the evidence is nil, in both models
    assert abs(llr([5, 10, 20, 10, 5], -5, 5)) < 1e-9
    assert abs(llr([5, 10, 20, 10, 5], -5, 5, model="logistic")) < 1e-9


def test_sprt_parse_and_decide() -> None:
    sprt = Sprt.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.1", "model=logistic"])
    assert sprt == Sprt(0, 10, 0.05, 0.1, "logistic")
    assert sprt.decision([0, 0, 0, 0, 0]) is None
    assert sprt.decision([0, 10, 100, 200, 90]) == "H1"
    assert sprt.decision([90, 200, 100, 10, 0]) == "H0"
    with pytest.raises(ValueError, match="elo0"):
        Sprt.parse(["elo0=5", "elo1=0"])
    with pytest.raises(ValueError, match="bad SPRT setting"):
        Sprt.parse(["gamma=1"])


# -- matches -----------------------------------------------------------------------------------


def test_engine_specs() -> None:
    spec = EngineSpec.parse("royalchess:level=12,hash=8,param.rfp_margin=120,name=patch")
    assert (spec.kind, spec.name) == ("royalchess", "patch")
    assert spec.options == (("level", "12"), ("hash", "8"), ("param.rfp_margin", "120"))
    uci = EngineSpec.parse("uci[Hash=16,UCI_Elo=2000,name=sf,env.X=1]:/usr/games/stockfish -q")
    assert (uci.kind, uci.name, uci.command) == ("uci", "sf", "/usr/games/stockfish -q")
    assert uci.options == (("Hash", "16"), ("UCI_Elo", "2000")) and uci.env == (("X", "1"),)
    with pytest.raises(ValueError, match="unknown royalchess option"):
        EngineSpec.parse("royalchess:depth=3")
    assert EngineSpec.parse("royalchess:threads=2").options == (("threads", "2"),)
    for bad in ("0", "65", "two"):
        with pytest.raises(ValueError, match="threads"):
            EngineSpec.parse(f"royalchess:threads={bad}")
    assert open_player(EngineSpec.parse("royalchess:threads=3"), "chess", 1).engine.threads == 3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="bad ENGINE"):
        EngineSpec.parse("no-such-engine-anywhere")
    assert TimeControl.parse(None, None, "10+0.1") == TimeControl(base=10.0, inc=0.1)


def test_builtin_player_searches_a_fixed_movetime_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # in process there is no pipe: like Stockfish, a movetime is searched whole; a clock
    # still keeps the transport margin
    seen: list[float] = []
    player = open_player(EngineSpec.parse("royalchess:level=1"), "chess", 1)

    def search(board: Board, limit: object, **kwargs: float) -> object:
        seen.append(kwargs["overhead"])
        raise RuntimeError("enough")

    monkeypatch.setattr(player.engine, "search", search)  # type: ignore[attr-defined]
    for clock in (None, Clock(10.0, 10.0, 0.1)):
        with pytest.raises(RuntimeError, match="enough"):
            player.go(Board(), TimeControl(movetime=0.1), clock)
    assert seen == [0.0, 0.02]


def test_builtin_player_nodes_option_replaces_or_caps_the_match_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """nodes=N: at --nodes it is searched instead of the match's count (equal-time matches
    between engines of different speed); with a movetime or a clock it caps the search."""
    spec = EngineSpec.parse("royalchess:nodes=2600,eval=classic")
    assert spec.name == "royalchess nodes=2600"
    player = open_player(spec, "chess", 1)
    seen: list[Limit] = []

    def search(board: Board, limit: Limit, **kwargs: float) -> object:
        seen.append(limit)
        raise RuntimeError("enough")

    monkeypatch.setattr(player.engine, "search", search)  # type: ignore[attr-defined]
    for tc, clock in (
        (TimeControl(nodes=30000), None),
        (TimeControl(movetime=0.1), None),
        (TimeControl(base=10.0, inc=0.1), Clock(10.0, 10.0, 0.1)),
    ):
        with pytest.raises(RuntimeError, match="enough"):
            player.go(Board(), tc, clock)
    assert [lim.nodes for lim in seen] == [2600, 2600, 2600]
    assert (seen[1].movetime, seen[2].wtime) == (0.1, 10.0)
    plain = open_player(EngineSpec.parse("royalchess"), "chess", 1)
    played = plain.go(Board(), TimeControl(nodes=2600), None).move
    assert open_player(spec, "chess", 1).go(Board(), TimeControl(nodes=90000), None).move == played
    for bad in ("nodes=0", "nodes=many"):
        with pytest.raises(ValueError, match="option nodes"):
            EngineSpec.parse(f"royalchess:{bad}")


def test_openings_files(tmp_path: Path) -> None:
    assert len(builtin_openings("chess")) == 40 and len(builtin_openings("royal")) == 100
    epd = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id "e4e5";\n'
    (opening,) = read_openings(epd, "chess")
    assert opening.board("chess").fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/")
    (opening,) = read_openings('[Variant "Royal Chess"]\n\n1. e4 e5 *\n', "royal", pgn=True)
    assert opening.moves == ("e2e4", "e7e5")
    with pytest.raises(ValueError, match="line 2"):
        read_openings("e2e4 e7e5\ne2e5\n", "chess")


def test_generated_chess_openings_extend_the_theory_lines() -> None:
    theory = {o.moves for o in builtin_openings("chess")}
    made = generate("chess", 4, seed=3, plies=2, depth=2)
    assert len(set(made)) == 4 and made == generate("chess", 4, seed=3, plies=2, depth=2)
    for opening in made:
        assert opening.moves[:-2] in theory
        opening.board("chess")  # every move legal
    text = (REPO / "bench" / "data" / "chess-openings-250.txt").read_text()
    shipped = read_openings(text, "chess")
    assert len(set(shipped)) == 250


def test_fixed_node_match_is_the_same_with_one_or_two_workers(tmp_path: Path) -> None:
    plan = small_plan(4)
    one = run_match(plan, LocalBackend(1), str(tmp_path / "one.pgn"), quiet=True)
    two = run_match(plan, LocalBackend(2), str(tmp_path / "two.pgn"), quiet=True)
    assert games_of(tmp_path / "one.pgn") == games_of(tmp_path / "two.pgn")
    assert one.stats == two.stats and one.stats.games == 4 and sum(one.stats.penta) == 2
    # python-chess reads every game, with the result and our tags
    text = (tmp_path / "one.pgn").read_text()
    handle = io.StringIO(text)
    parsed = [chess.pgn.read_game(handle) for _ in range(4)]
    assert all(g is not None and not g.errors for g in parsed)
    assert {g.headers["TimeControl"] for g in parsed} == {"nodes=300"}


def test_royal_match_carries_the_variant_tag(tmp_path: Path) -> None:
    out = tmp_path / "royal.pgn"
    result = run_match(small_plan(2, "royal"), LocalBackend(2), str(out), quiet=True)
    assert result.stats.games == 2
    games = list(pgn.read_games(out.read_text()))
    assert [g.headers["Variant"] for g in games] == ["Royal Chess"] * 2
    assert all(g.variant == "royal" and not g.errors for g in games)


class CrashingBackend(LocalBackend):
    """The local pool, with unit *victim* killing its worker the first time it runs."""

    def __init__(self, jobs: int, victim: int, marker: Path) -> None:
        super().__init__(jobs)
        self.victim, self.marker = victim, str(marker)

    def map(self, units):  # type: ignore[no-untyped-def]
        wrapped = (CrashOnce(u, self.marker) if u.id == self.victim else u for u in units)
        return super().map(wrapped)


def test_killed_worker_is_retried_and_every_unit_counted_once(tmp_path: Path) -> None:
    backend = LocalBackend(2)
    marker = tmp_path / "killed"
    units = [Square(i) for i in range(6)]
    results = list(backend.map(CrashOnce(u, str(marker)) if u.id == 2 else u for u in units))
    assert marker.exists() and backend.restarts == 1
    assert sorted((unit.id, value) for unit, value in results) == [(i, i * i) for i in range(6)]
    # a whole match: the killed game is played again, each game written and counted once
    plan = small_plan(4)
    crash = CrashingBackend(2, victim=1, marker=tmp_path / "killed-game")
    outcome = run_match(plan, crash, str(tmp_path / "crash.pgn"), quiet=True)
    assert crash.restarts == 1 and outcome.stats.games == 4 and sum(outcome.stats.penta) == 2
    reference = run_match(plan, LocalBackend(2), str(tmp_path / "ref.pgn"), quiet=True)
    assert games_of(tmp_path / "crash.pgn") == games_of(tmp_path / "ref.pgn")
    assert outcome.stats == reference.stats


class DeadPool:
    """A pool whose worker died without the pool noticing (the CPython race the local backend
    guards against): its futures never finish, or it refuses new work as broken."""

    def __init__(self, refuse: bool) -> None:
        worker = multiprocessing.get_context("spawn").Process(target=int)
        worker.start()
        worker.join()
        self._processes = {worker.pid: worker}
        self.refuse = refuse

    def submit(self, fn, unit):  # type: ignore[no-untyped-def]
        if self.refuse:
            raise BrokenProcessPool("a worker died")
        return Future()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass


class DeadFirstBackend(LocalBackend):
    """The local pool, whose first pool is a :class:`DeadPool`."""

    def __init__(self, refuse: bool) -> None:
        super().__init__(2)
        self.refuse, self.pools = refuse, 0

    def _new_pool(self):  # type: ignore[no-untyped-def]
        self.pools += 1
        return DeadPool(self.refuse) if self.pools == 1 else super()._new_pool()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("refuse", [False, True], ids=["silent", "refusing"])
def test_a_pool_that_misses_its_dead_worker_is_replaced(refuse: bool) -> None:
    backend = DeadFirstBackend(refuse)
    results = list(backend.map(Square(i) for i in range(6)))
    assert backend.pools == 2 and backend.restarts == 1
    assert sorted((unit.id, value) for unit, value in results) == [(i, i * i) for i in range(6)]


def _stop_when(process: subprocess.Popen[str], ready: Callable[[], bool], signum: int) -> None:
    """Send *signum* to a runner command once *ready()*; it must stop as interrupted (130,
    with the --resume hint)."""
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None and not ready():
            time.sleep(0.05)
        assert process.poll() is None, "the command ended before it could be stopped"
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "--resume" in err


def test_ctrl_c_then_resume_plays_each_game_once(tmp_path: Path) -> None:
    out = tmp_path / "match.pgn"
    command = [
        sys.executable,
        "-m",
        "royalchess",
        "match",
        "royalchess",
        "royalchess:level=4",
        "--nodes",
        "800",
        "--games",
        "10",
        "--seed",
        "3",
        "-j",
        "1",
        "-q",
        "-o",
        str(out),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a test run started in the background (`cmd &` in a script) ignores SIGINT, and an
        # ignored signal stays ignored across exec: give the match Ctrl+C back
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    _stop_when(
        process, lambda: out.exists() and out.read_text().count("[Unit ") >= 2, signal.SIGINT
    )
    finished = games_of(out)
    assert 2 <= len(finished) < 10
    # a game cut off in the middle of writing is dropped on resume
    with out.open("a") as handle:
        handle.write('[Event "royalchess match"]\n[Site "?"]\n[Date "2026.')
    assert main([*command[3:], "--resume"]) == 0
    resumed = games_of(out)
    assert [g[0] for g in resumed] == list(range(10))
    assert resumed[: len(finished)] == finished or set(finished) <= set(resumed)
    reference = tmp_path / "reference.pgn"
    assert main([*command[3:-1], str(reference)]) == 0
    assert resumed == games_of(reference)
    # without --resume an existing file is never overwritten
    assert main(command[3:]) == 2


def test_skip_openings_plays_the_next_openings_and_resume_checks_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--skip-openings N`` starts at opening N+1 of the seeded order: a follow-up match
    plays what an earlier one with the same seed did not, game for game as the longer match
    would have; resuming a file with another skip (or seed) is refused, not mixed in."""
    book = tmp_path / "book.txt"
    book.write_text("e2e4 e7e5\nd2d4 d7d5\nc2c4 e7e5\ng1f3 d7d5\n")
    argv = ["match", "royalchess", "royalchess:name=other", "--nodes", "300", "-j", "1", "-q"]
    argv += ["--openings", str(book), "--max-plies", "20"]
    assert main([*argv, "--games", "8", "-o", str(tmp_path / "all.pgn")]) == 0
    assert main([*argv, "--games", "4", "--skip-openings", "2", "-o", str(tmp_path / "b.pgn")]) == 0
    out = capsys.readouterr().out
    assert "4 openings, the first 2 skipped, seed 1" in out
    whole = games_of(tmp_path / "all.pgn")
    later = games_of(tmp_path / "b.pgn")
    assert [g[1:] for g in later] == [g[1:] for g in whole[4:]]
    # a resume under another skip would count games of other openings as this match's
    assert main([*argv, "--games", "4", "-o", str(tmp_path / "b.pgn"), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "did not open as game 0 of this match does" in err
    assert games_of(tmp_path / "b.pgn") == later  # and the file is left as it was
    assert main([*argv, "--games", "4", "--skip-openings", "4", "-o", str(tmp_path / "c.pgn")]) == 2
    assert "cannot skip 4 of 4 openings" in capsys.readouterr().err
    assert (
        main([*argv, "--games", "4", "--skip-openings", "-1", "-o", str(tmp_path / "d.pgn")]) == 2
    )


def _state_and_parent(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent (Linux /proc), or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # "pid (name) state ppid ...": the name may hold spaces, the last ")" ends it
    state, ppid = stat.rsplit(")", 1)[1].split()[:2]
    return state, int(ppid)


def _alive(pid: int) -> bool:
    found = _state_and_parent(pid)
    return found is not None and found[0] != "Z"


def _children(pid: int) -> set[int]:
    """The live child processes of *pid*."""
    pids = (int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit())
    return {
        child
        for child in pids
        if (found := _state_and_parent(child)) and found[1] == pid and found[0] != "Z"
    }


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux /proc")
def test_sigterm_stops_the_workers_and_keeps_whole_games(tmp_path: Path) -> None:
    # SIGTERM used to end the parent at once and leave its worker processes running
    out = tmp_path / "data.bin"
    command = [sys.executable, "-m", "royalchess", "datagen", "-o", str(out)]
    command += ["--positions", "100000", "--nodes", "300", "--seed", "5", "-j", "2", "-q"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: set[int] = set()

    def ready() -> bool:
        workers.update(_children(process.pid))
        return len(workers) >= 2 and out.exists() and out.stat().st_size > 4096

    _stop_when(process, ready, signal.SIGTERM)
    assert len(workers) >= 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "workers left running"
    games = list(read_games(out))
    assert games and all(game.positions for game in games)


def test_sprt_stops_the_match_when_it_decides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sprt.pgn"
    code = main(
        [
            "match",
            "royalchess",
            "royalchess:level=1",
            "--nodes",
            "300",
            "--games",
            "200",
            "--sprt",
            "elo0=0",
            "elo1=300",
            "alpha=0.1",
            "beta=0.1",
            "model=logistic",
            "-j",
            "2",
            "-q",
            "-o",
            str(out),
        ]
    )
    text = capsys.readouterr().out
    assert code == 0, text
    assert "SPRT: H1 (elo1) accepted" in text
    played = len(games_of(out))
    assert 2 <= played < 40
    llr_line = next(line for line in text.splitlines() if line.startswith("LLR: "))
    assert float(llr_line.split()[1]) >= round(math.log(0.9 / 0.1), 2)


FAKE_UCI = textwrap.dedent(
    """
    import sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name fake"); print("uciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            if mode == "crash":
                sys.exit(3)
            if mode == "slow":
                time.sleep(5)
            print("info depth 1 score cp 10 pv e1e8")
            print("bestmove e1e8", flush=True)
        elif words[0] == "quit":
            break
    """
)


@pytest.mark.parametrize(
    ("mode", "termination", "tc"),
    [
        ("illegal", "rules infraction", ["--nodes", "200"]),
        ("crash", "abandoned", ["--nodes", "200"]),
        ("slow", "time forfeit", ["--tc", "0.2+0"]),
    ],
)
def test_uci_engine_faults_lose_the_game_and_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, termination: str, tc: list[str]
) -> None:
    script = tmp_path / "fake.py"
    script.write_text(FAKE_UCI)
    out = tmp_path / "faults.pgn"
    code = main(
        [
            "match",
            "royalchess",
            f"uci[name=fake]:{sys.executable} {script} {mode}",
            *tc,
            "--games",
            "2",
            "-j",
            "2",
            "-q",
            "-o",
            str(out),
        ]
    )
    text = capsys.readouterr().out
    assert code == 0, text
    games = games_of(out)
    assert [g[3] for g in games] == [termination, termination]
    # the fake is Black in game 0 and White in game 1: it lost both
    assert [g[2] for g in games] == ["1-0", "0-1"]
    assert "Games: 2, Wins: 2, Losses: 0, Draws: 0" in text
    assert f"Lost by {termination}: fake 2" in text


def test_fixed_node_match_warns_when_openings_repeat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """At fixed nodes the built-in engine replays a repeated opening's games move for move
    (a seed only orders the openings), so a match with more games than twice its openings
    says so; one that plays each opening once does not."""
    book = tmp_path / "book.txt"
    book.write_text("e2e4 e7e5\n")
    argv = ["match", "royalchess", "royalchess:name=other", "--nodes", "300", "-j", "1", "-q"]
    argv += ["--openings", str(book), "--max-plies", "24"]
    assert main([*argv, "--games", "4", "-o", str(tmp_path / "four.pgn")]) == 0
    err = capsys.readouterr().err
    assert "warning: 4 games from 1 openings: 2 games repeat an opening" in err
    games = games_of(tmp_path / "four.pgn")
    assert [g[1:] for g in games[:2]] == [g[1:] for g in games[2:]]  # the same two games
    assert main([*argv, "--games", "2", "-o", str(tmp_path / "two.pgn")]) == 0
    assert "warning" not in capsys.readouterr().err


# -- analysis ----------------------------------------------------------------------------------

GAMES = """\
[Event "fool"]
[White "A"]
[Black "B"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "broken"]
[Result "*"]

1. e4 e5 2. Ke3 Nf6 *

[Event "royal"]
[Variant "Royal Chess"]
[Result "*"]

1. e4 e5 2. Gf3 *
"""


def test_analyse_marks_the_blunder_and_skips_the_malformed_game(tmp_path: Path) -> None:
    out = tmp_path / "annotated.pgn"
    outcome = run_analyse(GAMES, LocalBackend(2), str(out), nodes=3000, quiet=True)
    assert outcome.analysed == 2
    assert [(s.number, s.line) for s in outcome.skipped] == [(2, 11)]
    assert "Ke3" in outcome.skipped[0].reason
    games = {g.headers["Event"]: g for g in pgn.read_games(out.read_text())}
    assert set(games) == {"fool", "royal"}
    # python-chess reads the standard game: evals on every move but the mate, ?? on 2. g4
    handle = io.StringIO(out.read_text())
    parsed = {}
    while (game := chess.pgn.read_game(handle)) is not None:
        parsed[game.headers["Event"]] = game
    fool = parsed["fool"]
    nodes = list(fool.mainline())
    assert [n.san() for n in nodes] == ["f3", "e5", "g4", "Qh4#"]
    g4 = nodes[2]
    assert g4.nags == {chess.pgn.NAG_BLUNDER}
    assert g4.eval() is not None and g4.eval().white().mate() == -1
    assert all(n.eval() is not None for n in nodes[:3]) and nodes[3].eval() is None
    assert "was best" in g4.comment
    assert len(g4.parent.variations) == 2  # the better line as a variation
    assert g4.parent.variations[1].move != g4.move
    assert float(fool.headers["WhiteAccuracy"]) < float(fool.headers["BlackAccuracy"])
    royal = games["royal"]
    assert royal.variant == "royal" and "WhiteAccuracy" in royal.headers
    assert all("[%eval " in node.comment for node in royal.mainline())


def test_analyse_cli_reports_skipped_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pgn"
    source.write_text(GAMES)
    out = tmp_path / "out.pgn"
    assert main(["analyse", str(source), "-o", str(out), "--depth", "3", "-j", "1", "-q"]) == 0
    captured = capsys.readouterr()
    assert "skipped game 2 (line 11): move 2. Ke3" in captured.err
    assert "analysed 2 games" in captured.out
    # everything done: resuming runs nothing again
    assert main(["analyse", str(source), "-o", str(out), "--depth", "3", "-q", "--resume"]) == 0
    assert "analysed 0 games" in capsys.readouterr().out
    assert len(list(pgn.read_games(out.read_text()))) == 2
    assert read_input(GAMES)[1][0].number == 2


# -- self-play data ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["chess", "royal"])
def test_datagen_writes_positions_that_read_back(tmp_path: Path, variant: str) -> None:
    out = tmp_path / f"{variant}.bin"
    first = run_datagen(
        str(out), LocalBackend(2), positions=40, variant=variant, nodes=200, quiet=True
    )
    assert first.positions == 40 and out.read_bytes().startswith(MAGIC)
    positions = list(read_positions(out))
    assert len(positions) == 40
    for p in positions:
        board = Board(p.fen, variant=variant)
        assert not board.is_check() and board.ply() == p.ply >= 8
        assert p.variant == variant and p.result in (-1, 0, 1) and abs(p.score) <= 32000
    # resume to 60: the first 40 stay as they were, cut-off bytes at the end are dropped
    with out.open("ab") as handle:
        handle.write(b"\x07\x00\x00")
    more = run_datagen(
        str(out), LocalBackend(2), positions=60, variant=variant, nodes=200, resume=True, quiet=True
    )
    assert more.resumed_positions == 40 and more.positions == 60
    again = list(read_positions(out))
    assert len(again) == 60 and again[:40] == positions
    ids = [g.id for g in read_games(out)]
    assert len(ids) == len(set(ids))
    # an xz-compressed copy (how the repository keeps its data sets) reads the same
    packed = tmp_path / f"{variant}.bin.xz"
    packed.write_bytes(lzma.compress(out.read_bytes()))
    assert list(read_positions(packed)) == again


def test_output_refuses_to_overwrite_and_cuts_partial_records(tmp_path: Path) -> None:
    path = tmp_path / "x.pgn"
    path.write_text('[Event "a"]\n\n1. e4 *\n\n[Event "b"]\n\n1. d4')
    with pytest.raises(Exception, match="--resume"):
        open_output(path, resume=False, prefix=pgn_prefix)
    with open_output(path, resume=True, prefix=pgn_prefix) as sink:
        assert sink.kept == b'[Event "a"]\n\n1. e4 *\n\n'
    assert path.read_bytes() == b'[Event "a"]\n\n1. e4 *\n\n'


def test_ray_missing_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code = main(
        [
            "match",
            "royalchess",
            "royalchess",
            "--nodes",
            "100",
            "--games",
            "2",
            "--ray",
            "-o",
            str(tmp_path / "x.pgn"),
        ]
    )
    assert code == 2
    assert "pip install 'royalchess[cluster]'" in capsys.readouterr().err


def test_bench_match_keeps_its_helpers() -> None:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import match as bench_match
    finally:
        sys.path.pop(0)
    assert bench_match.load_openings()[0] == list(builtin_openings("chess")[0].moves)
    elo, low, high = bench_match.elo_interval(30, 20, 10)
    assert low < elo < high and round(elo) == 120
    assert os.path.exists(REPO / "royalchess" / "runner" / "openings" / "royal.txt")


def _bench_anchors():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import anchors
    finally:
        sys.path.pop(0)
    return anchors


def test_bench_anchors_pools_and_places_the_levels() -> None:
    anchors = _bench_anchors()
    elo, half = anchors.pool([(-175.4, 28.0), (-240.82, 69.15)])
    assert (round(elo, 1), round(half, 1)) == (-184.6, 26.0)
    assert anchors.pool([(10.0, 20.0)]) == pytest.approx((10.0, 20.0))
    assert anchors.pool([(-math.inf, math.inf), (10.0, 20.0)]) == pytest.approx((10.0, 20.0))
    assert math.isnan(anchors.pool([(math.inf, math.inf), (5.0, 0.0)])[0])
    assert anchors.place_levels({1: 100, 2: 100, 3: 100}, {1: 100.0, 3: 200.0}) == {
        1: 100,
        2: 150,
        3: 200,
    }
    # The table before the re-anchoring with the eleventh chess net and that session's
    # pooled anchors give the table it committed.
    before = {1: 535, 2: 650, 3: 795, 4: 925, 5: 1035, 6: 1090, 7: 1110, 8: 1125, 9: 1310}
    before |= {10: 1430, 11: 1460, 12: 1600, 13: 1655, 14: 1705, 15: 1800, 16: 1870}
    before |= {17: 1910, 18: 1960, 19: 1975, 20: 2125}
    new = {20: 2115.4, 19: 1980.6, 16: 1870.8, 13: 1649.5, 10: 1433.4}
    placed = anchors.place_levels(before, new)
    assert placed == {**before, 10: 1435, 12: 1595, 13: 1650, 14: 1700, 17: 1915} | {
        18: 1965,
        19: 1980,
        20: 2115,
    }
    assert all(placed[lv] < placed[lv + 1] for lv in range(1, 20))


def test_bench_anchors_plays_an_anchor(capsys: pytest.CaptureFixture[str]) -> None:
    # Our own UCI server has UCI_LimitStrength and UCI_Elo: it stands in for Stockfish.
    server = f"{sys.executable} -m royalchess uci"
    argv = ["--anchors", "20:2300", "--games", "2", "--movetime", "20", "--stockfish", server]
    code = _bench_anchors().main([*argv, "--pool", "20:-100:50"])
    out = capsys.readouterr().out
    assert code == 0
    assert "level 20 vs SF 2300: +" in out and "LEVEL_ELO = {" in out
    assert out.count("    ") == 20  # the whole table


def test_bench_anchors_refuses_bad_values() -> None:
    anchors = _bench_anchors()
    for argv, message in [
        (["--results", "20:x:1"], "bad --results value '20:x:1'"),
        (["--anchors", "21:2300", "--results", "21:0:1"], "no level 21"),
        (
            ["--anchors", "20:2300", "19:2100", "--results", "20:0:1"],
            "no result for anchor level 19",
        ),
        (["--anchors", "20"], "bad anchor '20'"),
        (["--stockfish", "/nonexistent/stockfish"], "is not an executable file"),
    ]:
        with pytest.raises(SystemExit, match=message):
            anchors.main(argv)


def test_a_real_uci_engine_plays_royal_chess(tmp_path: Path) -> None:
    out = tmp_path / "uci.pgn"
    plan = MatchPlan(
        EngineSpec.parse("royalchess:level=10"),
        EngineSpec.parse(f"uci[Hash=4,name=rc-uci]:{sys.executable} -m royalchess uci"),
        "royal",
        builtin_openings("royal"),
        TimeControl(nodes=200),
        2,
        seed=5,
    )
    outcome = run_match(plan, LocalBackend(2), str(out), quiet=True)
    assert outcome.stats.games == 2 and not outcome.stats.forfeits
    games = list(pgn.read_games(out.read_text()))
    assert {g.headers["Black"] for g in games} | {g.headers["White"] for g in games} == {
        "royalchess level=10",
        "rc-uci",
    }
    assert all(g.variant == "royal" and g.headers["Termination"] != "abandoned" for g in games)
    assert all(len(g.mainline_moves()) > 10 for g in games)
