"""``royalchess tune``: the SPSA arithmetic (gains, the direction of a step, clipping), its
convergence on a known optimum, and real tuning runs through the command line (the log,
--resume, bad input)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from royalchess.cli import main
from royalchess.runner.spsa import Spsa, TuneParam


def test_param_parse_and_errors() -> None:
    p = TuneParam.parse("rfp_margin:90:40:200:10")
    assert p == TuneParam("rfp_margin", 90, 40, 200, 10, 0.002)
    assert TuneParam.parse("x:1:0:2:0.5:0.01").r_end == 0.01
    for bad, message in [
        ("rfp_margin:90:40:200", "expected NAME:START:MIN:MAX:C_END"),
        ("rfp_margin:a:40:200:10", "are numbers"),
        ("rfp_margin:300:40:200:10", "between MIN and MAX"),
        ("rfp_margin:90:40:200:0", "must be positive"),
        (":90:40:200:10", "expected NAME"),
    ]:
        with pytest.raises(ValueError, match=message):
            TuneParam.parse(bad)


def test_gains_end_at_the_given_shift_and_step() -> None:
    p = TuneParam("x", 50, 0, 100, 4, 0.002)
    spsa = Spsa([p], pairs=1000)
    assert spsa.c_k(p, 999) == pytest.approx(4)
    assert spsa.c_k(p, 0) > spsa.c_k(p, 500) > 4
    # the last step per point of result is r_end * c_end
    assert spsa.a_k(p, 999) / spsa.c_k(p, 999) == pytest.approx(0.002 * 4)


def test_a_won_pair_moves_the_values_towards_plus_and_stays_in_range() -> None:
    params = [TuneParam("x", 50, 0, 100, 5), TuneParam("y", 99, 0, 100, 5, 0.5)]
    spsa = Spsa(params, pairs=10)
    shift = spsa.shift(3, seed=1)
    assert shift == spsa.shift(3, seed=1)  # seeded
    for name in ("x", "y"):
        assert shift.plus[name] != shift.minus[name] or name == "y"
    spsa.update(shift, 2.0)
    x_moved = spsa.theta["x"] - 50
    assert x_moved * (shift.plus["x"] - shift.minus["x"]) > 0
    assert 0 <= spsa.theta["y"] <= 100
    spsa.update(shift, -2.0)
    assert spsa.theta["x"] == pytest.approx(50)


def test_converges_on_a_known_optimum() -> None:
    """A noisy duel whose better side is the one nearer 70: SPSA walks from 20 to near 70."""
    rng = random.Random(4)
    p = TuneParam("x", 20, 0, 100, 6, 0.02)
    spsa = Spsa([p], pairs=3000)
    for k in range(3000):
        shift = spsa.shift(k, seed=9)
        gap = abs(shift.minus["x"] - 70) - abs(shift.plus["x"] - 70)
        win = 1 / (1 + 10 ** (-gap / 40))  # plus's chance per game
        result = sum(rng.random() < win for _ in range(2)) * 2 - 2.0
        spsa.update(shift, result)
    assert abs(spsa.theta["x"] - 70) < 12


def test_tune_command_logs_each_pair_and_resumes(tmp_path: Path, capsys) -> None:
    log = tmp_path / "tune.jsonl"
    command = [
        "tune",
        "--param", "rfp_margin:90:40:200:10",
        "--param", "lmp_depth:5:1:8:1:0.05",
        "--pairs", "3", "--nodes", "300", "-j", "2", "-q", "-o", str(log),
    ]  # fmt: skip
    assert main(command) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(line["pair"] for line in lines) == [0, 1, 2]
    for line in lines:
        assert set(line["theta"]) == {"rfp_margin", "lmp_depth"}
        assert line["result"] in (-2, -1, 0, 1, 2)
        assert line["plus"] != line["minus"]
    out = capsys.readouterr().out
    assert "3 of 3 pairs" in out and "royalchess:param.rfp_margin=" in out

    assert main(command) == 2  # the log exists: never overwritten
    assert "--resume" in capsys.readouterr().err
    more = [*command, "--resume"]
    more[more.index("--pairs") + 1] = "5"
    assert main(more) == 0
    assert "5 of 5 pairs (2 this run" in capsys.readouterr().out
    assert [json.loads(x)["pair"] for x in log.read_text().splitlines()][3:] in ([3, 4], [4, 3])

    other = [*more]
    other[other.index("rfp_margin:90:40:200:10")] = "rfp_depth:6:1:10:1"
    assert main(other) == 2
    assert "another tuning run" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--param", "no_such_knob:1:0:2:1"], "no_such_knob"),
        (["--param", "rfp_margin:90:40"], "expected NAME:START:MIN:MAX:C_END"),
        (["--param", "rfp_margin:90:40:200:5", "--param", "rfp_margin:90:40:200:5"], "twice"),
        (["--param", "rfp_margin:90:40:200:5", "--engine", "uci:/bin/true"], "built-in"),
    ],
)
def test_tune_command_refuses_bad_input(tmp_path: Path, capsys, args, message) -> None:
    assert main(["tune", *args, "--pairs", "1", "-o", str(tmp_path / "t.jsonl"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "royalchess tune: error:" in err and message in err
    assert not (tmp_path / "t.jsonl").exists()
