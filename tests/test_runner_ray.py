"""The Ray backend's tests (tests/ray_cases.py), run in a network namespace with loopback only.

Ray will not bind a cluster to 127.0.0.1 while the machine has another address: it uses the
machine's own address. In a fresh network namespace (``unshare --net``) loopback is the only
interface, so the local cluster the cases start listens and talks on 127.0.0.1 alone. The
cases run in a child pytest whose result is this test's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # under CI the test extra always brings Ray: a missing one fails
    pytest.importorskip("ray")

HERE = Path(__file__).resolve().parent


def test_ray_cases_pass_on_a_loopback_only_cluster() -> None:
    unshare = shutil.which("unshare")
    ip = shutil.which("ip")
    assert unshare and ip, "the Ray tests need unshare (util-linux) and ip (iproute2)"
    private = [unshare, "--net"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    pytest_args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "",
        str(HERE / "ray_cases.py"),
    ]
    script = f'"{ip}" link set lo up && exec "$@"'
    result = subprocess.run(
        [*private, "--", "sh", "-c", script, "sh", *pytest_args],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd=HERE.parent,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert " passed" in output and " failed" not in output and "skipped" not in output, output
