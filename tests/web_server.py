"""Running the web app as a real server process for the crash and browser tests."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["LOCAL", "free_port", "local_client", "request", "serve_in_thread", "start_server"]

LOCAL = "http://127.0.0.1:8000"
"""The address the in-process test client names (the app accepts only its own host names)."""


def local_client(app: Any) -> Any:
    """A Starlette TestClient talking to *app* as its own page does: Host 127.0.0.1 and
    JSON bodies (the app refuses other hosts and, on POST/DELETE, other content types)."""
    from starlette.testclient import TestClient

    return TestClient(app, base_url=LOCAL, headers={"Content-Type": "application/json"})


def free_port() -> int:
    """Return a loopback port that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """Send one JSON request to the server at *base* and return the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=20) as response:
        return json.loads(response.read())


def start_server(port: int, db: Path, token: str | None = None) -> subprocess.Popen[bytes]:
    """Start ``royalchess serve`` on *port* with the games in *db* (and ``--token``); return
    once it answers."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "royalchess",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--no-browser",
            *([] if token is None else ["--token", token]),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"the server exited: {out}")
        try:
            request(base, "GET", "/api/info", token=token)
            return process
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start in 20 s")


@contextlib.contextmanager
def serve_in_thread(app: Any, wait: float = 30.0) -> Iterator[int]:
    """*app* under uvicorn in a thread on a free loopback port; yield the port. *wait* is how
    long start and shutdown may take before the test fails (never a measure of speed)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + wait
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(wait)
