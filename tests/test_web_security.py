"""What stands between other pages, processes and networks and the saved games.

Each attack of issue 8 is made for real against the app (cross-site writes, a DNS-rebinding
Host, framing, a LAN client without the token, oversized and endless bodies, a slow
import) and each test checks the refusal AND that the saved games, read back from the
database file, are unchanged. The same-origin page keeps working. LAN serving is tested by
creating the app as ``royalchess serve --host 0.0.0.0`` would, with clients naming a LAN
address: nothing binds to a non-loopback address.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient
from web_server import LOCAL, local_client, serve_in_thread

from royalchess.pgn import read_game
from royalchess.store import GameStore
from royalchess.web import create_app, server
from royalchess.web.app import STATIC
from royalchess.web.offload import Offload
from royalchess.web.security import HEADERS, Policy, SecurityMiddleware

EVIL = "http://evil.example"
TOKEN = "s3cret-Token_for-tests"
LAN = "http://192.168.1.20:8000"
# Three seconds or so of parsing for a body under 1 MB: 90 000 one-move variations.


@functools.cache
def slow_pgn(seconds: float = 3.0) -> str:
    """A valid PGN whose reading takes about *seconds* here (a long run of variations),
    sized by timing a sample now, so a faster core does not make it quick."""
    sample = 5_000
    start = time.perf_counter()
    read_game("1. e4 e5 " + "(1... c5) " * sample + "*")
    per_variation = (time.perf_counter() - start) / sample
    return "1. e4 e5 " + "(1... c5) " * int(seconds / per_variation) + "*"


def slow_policy() -> Policy:
    """Room in the body limit for slow_pgn()."""
    return Policy(max_body=len(slow_pgn()) + 10_000)


def saved(db: Path) -> list[tuple[Any, ...]]:
    """Every saved game as the database file has it (a fresh connection)."""
    store = GameStore(str(db))
    try:
        return sorted(
            (r.id, r.variant, r.mode, r.result, store.get(r.id).moves)
            for r in store.list_games("all")
        )
    finally:
        store.close()


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture()
def client(db: Path) -> Iterator[TestClient]:
    """The app as served on 127.0.0.1:8000, with one game of two moves saved."""
    with local_client(create_app(str(db))) as test_client:
        game = test_client.post("/api/games", json={"mode": "two-players"}).json()
        for ply, move in enumerate(("e4", "e5")):
            body = {"move": move, "ply": ply}
            assert test_client.post(f"/api/games/{game['id']}/move", json=body).status_code == 200
        yield test_client


def assert_refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["error"], response.json()
    for name, value in HEADERS.items():
        assert response.headers[name] == value


# -- the three attacks of the issue --------------------------------------------------------


def test_cross_site_text_plain_post_creates_nothing(client: TestClient, db: Path) -> None:
    before = saved(db)
    body = json.dumps({"mode": "two-players"})
    for headers, status, words in [
        ({"Origin": EVIL, "Content-Type": "text/plain"}, 403, "evil.example"),
        ({"Origin": EVIL}, 403, "evil.example"),
        ({"Content-Type": "text/plain"}, 415, "application/json"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415, "application/json"),
        ({"Content-Type": ""}, 415, "application/json"),
        ({"Sec-Fetch-Site": "cross-site"}, 403, "cross-site"),
        ({"Sec-Fetch-Site": "same-site"}, 403, "same-site"),
        ({"Origin": "null"}, 403, "'null'"),
        ({"Origin": "http://127.0.0.1:9999"}, 403, "9999"),
        ({"Origin": "https://127.0.0.1:8000"}, 403, "https"),
    ]:
        response = client.post("/api/games", content=body, headers=headers)
        assert_refused(response, status, words)
        assert saved(db) == before
    assert len(before) == 1


def test_cross_site_delete_keeps_the_game(client: TestClient, db: Path) -> None:
    before = saved(db)
    response = client.delete("/api/games/1", headers={"Origin": EVIL})
    assert_refused(response, 403, "only takes requests from its own page")
    response = client.post("/api/games/1/takeback", headers={"Origin": EVIL})
    assert_refused(response, 403, "evil.example")
    response = client.delete("/api/games/1", headers={"Content-Type": "text/plain"})
    assert_refused(response, 415, "JSON only")
    assert saved(db) == before and before[0][4] == ["e2e4", "e7e5"]


def test_rebinding_host_reads_and_changes_nothing(client: TestClient, db: Path) -> None:
    before = saved(db)
    for host in ("evil.example:8000", "evil.example", "127.0.0.1.evil.example", "", "a b"):
        response = client.get("/api/games", headers={"Host": host})
        assert_refused(response, 400, "does not answer to the host name")
        assert "games" not in response.json()
        assert_refused(client.get("/", headers={"Host": host}), 400, "host name")
        response = client.delete("/api/games/1", headers={"Host": host})
        assert_refused(response, 400, "host name")
    assert saved(db) == before


def test_framing_is_forbidden_on_every_response(client: TestClient) -> None:
    for path in ("/", "/static/app.js", "/static/style.css", "/api/games", "/api/nothing"):
        response = client.get(path)
        assert response.headers["X-Frame-Options"] == "DENY"
        csp = response.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp.split("; ")
        assert "default-src 'self'" in csp and "unsafe-inline" not in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_page_needs_no_inline_script_or_style() -> None:
    # CSP (script-src/style-src 'self') blocks inline <script>/<style> blocks and style
    # attributes; the page must have none (the browser test checks the console too).
    page = (STATIC / "index.html").read_text()
    assert "<style" not in page and "style=" not in page and "javascript:" not in page
    assert page.count("<script") == 1 and '<script type="module" src="static/app.js">' in page
    assert re.search(r"\son[a-z]+\s*=", page) is None  # no inline event handlers


def test_same_origin_page_still_works(client: TestClient, db: Path) -> None:
    headers = {"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"}
    response = client.post("/api/games", json={"mode": "two-players"}, headers=headers)
    assert response.status_code == 201, response.text
    game = response.json()["id"]
    body = {"move": "d4", "ply": 0}
    response = client.post(f"/api/games/{game}/move", json=body, headers=headers)
    assert response.status_code == 200 and response.json()["moves"][0]["san"] == "d4"
    # Each name of this machine is its own origin: the page opened by that name works.
    hosts = [("localhost:8000", "d5"), ("LOCALHOST", "c4"), ("[::1]:8000", "e6")]
    for ply, (host, move) in enumerate(hosts, start=1):
        origin = {"Origin": f"http://{host.lower()}", "Host": host}
        body = {"move": move, "ply": ply}
        response = client.post(f"/api/games/{game}/move", json=body, headers=origin)
        assert response.status_code == 200, response.text
    response = client.request(
        "POST",
        f"/api/games/{game}/move",
        content=json.dumps({"move": "Nc3", "ply": 4}),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert [m["san"] for m in response.json()["moves"]] == ["d4", "d5", "c4", "e6", "Nc3"]
    assert client.delete(f"/api/games/{game}", headers=headers).json() == {"deleted": True}
    assert [g[0] for g in saved(db)] == [1]


# -- serving on a LAN: the token -----------------------------------------------------------


def lan_app(db: Path, host: str = "0.0.0.0") -> Any:
    return create_app(str(db), policy=Policy(host=host, port=8000, token=TOKEN))


def test_lan_without_token_is_refused(db: Path) -> None:
    with local_client(create_app(str(db))) as setup:
        setup.post("/api/games", json={"mode": "two-players"})
    before = saved(db)
    app = lan_app(db)
    wrong = TOKEN[:-1] + "x"
    with TestClient(app, base_url=LAN, headers={"Content-Type": "application/json"}) as c:
        attempts: list[dict[str, Any]] = [
            {},
            {"headers": {"Authorization": f"Bearer {wrong}"}},
            {"headers": {"Authorization": "Bearer "}},
            {"headers": {"Authorization": f"Basic {TOKEN}"}},
            {"headers": {"Cookie": f"royalchess_token_8000={wrong}"}},
            {"headers": {"Cookie": f"royalchess_token_9000={TOKEN}"}},
            {"params": {"token": wrong}},
        ]
        for options in attempts:
            for method, path in [("GET", "/"), ("GET", "/api/games"), ("DELETE", "/api/games/1")]:
                response = c.request(method, path, follow_redirects=False, **options)
                assert_refused(response, 401, "token")
                assert "set-cookie" not in response.headers
            response = c.post("/api/games", json={}, **options)
            assert_refused(response, 401, "token")
        # The token in the query string is only taken by a GET, and never for writing.
        response = c.delete("/api/games/1", params={"token": TOKEN})
        assert_refused(response, 401, "token")
        assert not c.cookies
    assert saved(db) == before


def test_lan_with_token_sets_a_strict_cookie_and_cleans_the_url(db: Path) -> None:
    app = lan_app(db)
    with TestClient(app, base_url=LAN, headers={"Content-Type": "application/json"}) as c:
        response = c.get("/", params={"token": TOKEN, "game": "3"}, follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == "/?game=3"
        cookie = response.headers["set-cookie"]
        assert cookie == f"royalchess_token_8000={TOKEN}; Path=/; HttpOnly; SameSite=Strict"
        assert c.get("/").status_code == 200
        assert c.post("/api/games", json={"mode": "two-players"}).status_code == 201
        # The cookie does not make a foreign origin welcome.
        response = c.delete("/api/games/1", headers={"Origin": EVIL})
        assert_refused(response, 403, "evil.example")
        assert len(saved(db)) == 1
    bearer = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    with TestClient(app, base_url=LAN, headers=bearer) as c:
        assert c.get("/api/games").json()["games"][0]["id"] == 1


def test_lan_host_names(db: Path) -> None:
    ok = {"Authorization": f"Bearer {TOKEN}"}
    with TestClient(lan_app(db), base_url=LAN, headers=ok) as c:
        # A wildcard bind answers to any IP literal and this machine's names, never to a
        # domain a rebinding page could use.
        here = socket.gethostname().split(".")[0].lower()
        hosts = ("192.168.1.20:8000", "10.0.0.7", "[fe80::1]:8000", "localhost:8000")
        for host in (*hosts, f"{here}:8000", f"{here}.local"):
            assert c.get("/api/games", headers={"Host": host}).status_code == 200, host
        assert_refused(c.get("/api/games", headers={"Host": "evil.example"}), 400, "host")
    with TestClient(lan_app(db, host="192.168.1.20"), base_url=LAN, headers=ok) as c:
        assert c.get("/api/games").status_code == 200
        assert_refused(c.get("/api/games", headers={"Host": "10.0.0.7"}), 400, "host")
        assert_refused(c.get("/api/games", headers={"Host": "evil.example:8000"}), 400, "host")


def test_serve_makes_a_token_beyond_loopback(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    apps: dict[str, Any] = {}

    class FakeServer:
        def __init__(self, config: Any) -> None:
            apps[config.host] = config.app
            assert config.proxy_headers is False

        def run(self) -> None:
            pass

    monkeypatch.setattr(uvicorn, "Server", FakeServer)
    assert server.serve("0.0.0.0", 8000, str(db), open_browser=False) == 0
    assert server.serve("127.0.0.1", 8001, str(db), open_browser=False) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "serving on" in line]
    assert lines[0].startswith("royalchess: serving on http://127.0.0.1:8000/?token=")
    token = lines[0].split("?token=")[1].split()[0]
    assert len(token) >= 32
    assert "serving on http://127.0.0.1:8001/  (" in lines[1]
    with TestClient(apps["0.0.0.0"], base_url=LAN) as c:
        assert c.get("/api/info").status_code == 401
        assert c.get("/api/info", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    # Two starts never share a token.
    assert server.serve("::", 8000, str(db), open_browser=False) == 0
    again = capsys.readouterr().out.split("?token=")[1].split()[0]
    assert again != token


# -- the body limit ------------------------------------------------------------------------


def test_too_large_bodies_are_refused(db: Path) -> None:
    limit = 2_000
    app = create_app(str(db), policy=Policy(max_body=limit))
    with local_client(app) as c:
        pgn = '[Event "x"]\n\n1. e4 e5 *\n'
        exact = json.dumps({"pgn": pgn + " " * (limit - len(json.dumps({"pgn": pgn})))})
        assert len(exact.encode()) == limit
        assert c.post("/api/import", content=exact).status_code == 201
        before = saved(db)
        response = c.post("/api/import", content=exact[:-1] + " }")
        assert_refused(response, 413, "limit of 2000 bytes")
        assert "royalchess games --import" in response.json()["error"]

        def chunks() -> Iterator[bytes]:
            yield b'{"pgn": "1. e4 *'
            for _ in range(10):
                yield b" " * 500

        response = c.post("/api/import", content=chunks())
        assert_refused(response, 413, "--max-body")
        assert saved(db) == before


def run_asgi(headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> Any:
    """Call *app* once by hand; return (status, body, chunks read, whether the app ran)."""
    state = {"read": 0, "ran": False, "status": None, "body": b""}

    async def receive() -> dict[str, Any]:
        index = state["read"]
        state["read"] += 1
        if index >= len(chunks):
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": chunks[index], "more_body": index < len(chunks) - 1}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            state["status"] = message["status"]
        else:
            state["body"] += message.get("body", b"")

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        state["ran"] = True
        message = await receive()
        body = message["body"]
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(len(body)).encode()})

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/import",
        "query_string": b"",
        "scheme": "http",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"), *headers],
    }
    asyncio.run(SecurityMiddleware(inner, Policy(max_body=1_000))(scope, receive, send))
    return state["status"], state["body"], state["read"], state["ran"]


def test_body_limit_refuses_before_reading_the_body() -> None:
    # A Content-Length above the limit: 413 at once, not one byte read, the app never called.
    status, _, read, ran = run_asgi([(b"content-length", b"5000")], [])
    assert (status, read, ran) == (413, 0, False)
    # A chunked body: counted as it streams, refused at the chunk that passes the limit.
    status, _, read, ran = run_asgi([], [b"x" * 300] * 50)
    assert (status, read, ran) == (413, 4, False)
    # Within the limit the app gets the whole body, joined.
    status, body, read, ran = run_asgi([], [b"x" * 250] * 4)
    assert (status, body, read, ran) == (200, b"1000", 4, True)


# -- slow work stays off the event loop ----------------------------------------------------


def test_slow_import_is_stopped_at_its_time_bound(db: Path) -> None:
    # Start the worker server (once per process) with time to spare, as a busy machine may
    # take over a second to; then a one-second bound.
    with local_client(create_app(str(db))) as c:
        assert c.post("/api/import", json={"pgn": "1. d4 d5 *"}).status_code == 201
    app = create_app(str(db), offload=Offload(seconds=1.0), policy=slow_policy())
    with local_client(app) as c:
        before = saved(db)
        start = time.perf_counter()
        response = c.post("/api/import", json={"pgn": slow_pgn()})
        assert_refused(response, 503, "longer than 1 s")
        assert time.perf_counter() - start < 10  # stopped, not waited for
        assert saved(db) == before
        # The server is fine after: the next import works. Its worker is started afresh, which
        # on a saturated machine may itself pass the 1 s bound: a few tries, each refused
        # only for time, then it must work.
        for _ in range(5):
            response = c.post("/api/import", json={"pgn": "1. c4 *"})
            if response.status_code != 503:
                break
            assert_refused(response, 503, "longer than 1 s")
        assert response.status_code == 201, response.text


@contextlib.contextmanager
def real_server(db: Path) -> Iterator[str]:
    """The app under uvicorn in a thread on a free loopback port; yield its base URL. Its
    time bound on imports is generous: the slow import must finish even on a busy machine."""
    app = create_app(str(db), offload=Offload(seconds=120), policy=slow_policy())
    with serve_in_thread(app, 20) as port:
        yield f"http://127.0.0.1:{port}"


def timed(base: str, method: str, path: str, body: Any = None) -> tuple[float, int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read()
    return time.perf_counter() - start, status, text


def while_slow(
    base: str, path: str, body: Any, moves: int = 6
) -> tuple[dict[str, Any], list[float], float]:
    """Send the slow request ``POST path`` in a thread and, while it runs, load the page and
    play *moves* moves in a new game; return the slow request's outcome, the wait of each
    of the other requests, and when the last of them was answered."""
    game = json.loads(timed(base, "POST", "/api/games", {"mode": "two-players"})[2])["id"]
    assert timed(base, "GET", "/")[1] == 200  # what a first request pays once
    slow: dict[str, Any] = {}

    def send() -> None:
        slow["seconds"], slow["status"], slow["text"] = timed(base, "POST", path, body)
        slow["end"] = time.perf_counter()

    thread = threading.Thread(target=send)
    thread.start()
    time.sleep(0.2)  # let it reach its worker
    waits: list[float] = []
    for ply, move in enumerate(("e4", "e5", "Nf3", "Nc6", "Bb5", "a6")[:moves]):
        seconds, status, text = timed(base, "GET", "/")
        assert status == 200 and b"royalchess" in text
        waits.append(seconds)
        body = {"move": move, "ply": ply}
        seconds, status, text = timed(base, "POST", f"/api/games/{game}/move", body)
        assert status == 200, text
        waits.append(seconds)
    done = time.perf_counter()
    thread.join()
    return slow, waits, done


def test_slow_import_does_not_hold_up_the_page_or_other_games(db: Path) -> None:
    with real_server(db) as base:
        # Warm up the worker process (started once, on the first import).
        assert timed(base, "POST", "/api/import", {"pgn": "1. e4 *"})[1] == 201
        slow, waits, done = while_slow(base, "/api/import", {"pgn": slow_pgn()})
    # The slow import was long and still running while the page and the other game were
    # answered, each in well under 100 ms (typically 5-40 ms), not after it.
    assert slow["status"] == 201, slow["text"]
    assert slow["seconds"] > 1.0 and done < slow["end"]
    assert statistics.median(waits) < 0.1, waits
    assert max(waits) < slow["seconds"] / 4, waits
    assert [len(g[4]) for g in saved(db)] == [1, 6, 2]


def test_engine_search_does_not_hold_up_the_page_or_other_games(db: Path) -> None:
    with real_server(db) as base:
        # The computer plays White at the top level: it thinks for about a second.
        options = {"mode": "vs-computer", "color": "black", "level": 20}
        engine_game = json.loads(timed(base, "POST", "/api/games", options)[2])["id"]
        path = f"/api/games/{engine_game}/computer-move"
        slow, waits, done = while_slow(base, path, {"ply": 0}, moves=3)
    assert slow["status"] == 200, slow["text"]
    assert slow["seconds"] > 0.5 and done < slow["end"]
    assert statistics.median(waits) < 0.1, waits
    assert max(waits) < slow["seconds"] / 2, waits
    assert [len(g[4]) for g in saved(db)] == [1, 3]
