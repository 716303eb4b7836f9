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
import tempfile
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # under CI the test extra always brings Ray: a missing one fails
    pytest.importorskip("ray")

HERE = Path(__file__).resolve().parent

# What a failed run shows of the cluster's own logs: a child that ends without a pytest
# summary was most likely ended by Ray (a driver whose node Ray holds dead exits at once),
# and only these logs say why.
RAY_LOGS = ("raylet.out", "raylet.err", "gcs_server.out", "gcs_server.err", "python-core-driver-*")


def ray_log_tails(ray_tmp: Path, lines: int = 25) -> str:
    """The last lines of the Ray session logs under *ray_tmp* (its RAY_TMPDIR)."""
    out = []
    for pattern in RAY_LOGS:
        for log in sorted(ray_tmp.glob(f"ray/session_*/logs/{pattern}")):
            tail = log.read_text(errors="replace").splitlines()[-lines:]
            if tail:
                out.append(f"--- {log.name} (last {len(tail)} lines)\n" + "\n".join(tail))
    return "\n".join(out) or f"(no Ray logs under {ray_tmp})"


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
    # a short private temp folder (Ray's socket paths must stay short) whose logs can be read
    with tempfile.TemporaryDirectory(prefix="rc-ray-", dir="/tmp") as ray_tmp:
        result = subprocess.run(
            [*private, "--", "sh", "-c", script, "sh", *pytest_args],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
            cwd=HERE.parent,
            env={**os.environ, "RAY_TMPDIR": ray_tmp},
        )
        output = result.stdout + result.stderr
        if result.returncode != 0:
            output += "\n" + ray_log_tails(Path(ray_tmp))
    assert result.returncode == 0, output
    assert " passed" in output and " failed" not in output and "skipped" not in output, output
