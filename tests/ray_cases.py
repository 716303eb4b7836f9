"""The runner's jobs on a real Ray cluster started by the test: one node, this machine, 2
CPUs, no dashboard, no usage reports. The same games as the local pool for a seeded
fixed-node match, a worker killed mid-run, analysis and self-play data.

Run by tests/test_runner_ray.py inside a private network namespace that has only the loopback
interface: Ray binds its services to the machine's own address, never 127.0.0.1, unless no
other address exists, so this is how its traffic is kept on loopback."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from runner_units import CrashOnce, Square
from test_runner import GAMES, games_of, small_plan

from royalchess import pgn
from royalchess.cli import main
from royalchess.runner.analyse import run_analyse
from royalchess.runner.backends import LocalBackend, RayBackend
from royalchess.runner.datagen import DatagenUnit, read_games, run_datagen

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    old_path = os.environ.get("PYTHONPATH")
    # Ray's workers import the test-only units from this folder
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (str(HERE), old_path)))
    import ray

    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.WARNING,
    )
    try:
        yield
    finally:
        ray.shutdown()
        if old_path is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old_path


def test_ray_match_plays_the_same_games_as_the_local_pool(
    ray_cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "match",
        "royalchess",
        "royalchess:level=6",
        "--nodes",
        "300",
        "--games",
        "4",
        "--seed",
        "7",
        "-q",
    ]
    assert main([*args, "--ray", "auto", "-o", str(tmp_path / "ray.pgn")]) == 0
    assert "on 2 workers" in capsys.readouterr().out
    assert main([*args, "-j", "2", "-o", str(tmp_path / "local.pgn")]) == 0
    ray_games = games_of(tmp_path / "ray.pgn")
    assert ray_games == games_of(tmp_path / "local.pgn") and len(ray_games) == 4
    # the command line and small_plan describe the same match (test_runner plays it on
    # one and two local workers)
    assert small_plan(4).seed == 7 and small_plan(4).tc.nodes == 300


def test_ray_retries_a_killed_worker_and_counts_each_unit_once(
    ray_cluster: None, tmp_path: Path
) -> None:
    marker = tmp_path / "killed"
    backend = RayBackend("auto")
    units = [CrashOnce(Square(i), str(marker)) if i == 3 else Square(i) for i in range(6)]
    results = list(backend.map(units))
    assert marker.exists()
    assert sorted((unit.id, value) for unit, value in results) == [(i, i * i) for i in range(6)]


def test_ray_analyse_and_datagen_match_the_local_pool(ray_cluster: None, tmp_path: Path) -> None:
    ray = RayBackend("auto")
    run_analyse(GAMES, ray, str(tmp_path / "ray.pgn"), nodes=2000, quiet=True)
    run_analyse(GAMES, LocalBackend(2), str(tmp_path / "local.pgn"), nodes=2000, quiet=True)

    def by_unit(path: Path) -> dict[str, str]:
        return {g.headers["Unit"]: pgn.write_game(g) for g in pgn.read_games(path.read_text())}

    assert by_unit(tmp_path / "ray.pgn") == by_unit(tmp_path / "local.pgn")
    assert len(by_unit(tmp_path / "ray.pgn")) == 2
    for variant in ("chess", "royal"):
        out = tmp_path / f"{variant}-ray.bin"
        run_datagen(str(out), ray, positions=30, variant=variant, nodes=200, quiet=True)
        ray_games = list(read_games(out))
        assert sum(len(g.positions) for g in ray_games) == 30
        # Which games finish first depends on timing; each game itself does not: the same
        # unit played here, in this process, gives the same positions and result (the last
        # game written may be cut to fit 30).
        for game in ray_games:
            alone = DatagenUnit(game.id, variant, seed=1, nodes=200).run()
            assert game.positions == alone.positions[: len(game.positions)]
            assert game.result == alone.result
