"""Shared pytest set-up for the test suite.

- ``@pytest.mark.slow`` marks the long proofs (full-depth perft, thousands of games).
  ``pyproject.toml`` deselects them by default (``addopts = "-m 'not slow'"``); run them with
  ``pytest -m slow`` (or everything with ``pytest -m ''``).
- ``ROYALCHESS_FAST=1`` shrinks every workload (used by ``tests/sanitize.sh``, where the core
  runs under AddressSanitizer + UBSan and is many times slower).
- ``ROYALCHESS_EXPECT_CORE=DIR``: fail at start-up unless ``royalchess._core`` is loaded from
  under ``DIR`` (the sanitizer run uses it to prove it tests the sanitized build).
- Hypothesis profiles: ``default`` and ``fast`` (selected by ``ROYALCHESS_FAST``); no
  deadlines, since the time of one example varies a lot between builds.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import FAST

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    settings = None

if settings is not None:
    _common = {
        "deadline": None,
        "print_blob": True,
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    }
    settings.register_profile("default", max_examples=100, **_common)
    settings.register_profile("fast", max_examples=15, **_common)
    settings.load_profile("fast" if FAST else "default")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: long-running proof (full perft depths, many games); run with -m slow"
    )
    expected = os.environ.get("ROYALCHESS_EXPECT_CORE")
    if expected:
        import royalchess._core as core

        where = Path(core.__file__).resolve()
        if not str(where).startswith(str(Path(expected).resolve())):
            raise pytest.UsageError(
                f"ROYALCHESS_EXPECT_CORE={expected} but royalchess._core was loaded from {where}"
            )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # the ini's per-test timeout (pytest-timeout) is for the default run; a slow proof
    # (full perft depths, many games) may take much longer
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(3600))
