"""The code style and typing checks, run with the tests so CI enforces them.

ruff (lint and format) and mypy (strict, over the package and the trainer) are pinned in the
``test`` extra: a new release with new rules changes the checks only when the pin moves.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=540,
    )


@pytest.mark.parametrize(
    "command", [("ruff", "check", "."), ("ruff", "format", "--check", ".")], ids=["lint", "format"]
)
def test_ruff(command: tuple[str, ...]) -> None:
    done = run(*command)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"


def test_mypy_strict() -> None:
    # train/ is outside the package (never installed) but typed to the same standard.
    done = run("mypy", "royalchess", "train")
    assert done.returncode == 0, f"mypy royalchess train:\n{done.stdout}{done.stderr}"
