"""``royalchess serve``: run the web app with uvicorn and open it in a browser."""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
import threading
import webbrowser

from royalchess.engine import thread_count
from royalchess.store import GameStore, default_db_path
from royalchess.web.security import DEFAULT_MAX_BODY, Policy, is_loopback

__all__ = ["add_arguments", "serve"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``royalchess serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help=f"the saved-games database (default {default_db_path()})",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a web browser"
    )
    parser.add_argument(
        "--token",
        default=None,
        type=_token,
        help="the secret every client must show (default: none on 127.0.0.1; a new random "
        "one each start when --host is not a loopback address)",
    )
    parser.add_argument(
        "--threads",
        metavar="N",
        type=thread_count,
        default=1,
        help="threads for each search of the computer at full strength: level 20, hints, "
        "evaluations, analysis (1; levels 1-19 always use one)",
    )
    parser.add_argument(
        "--max-body",
        metavar="BYTES",
        type=_bytes,
        default=DEFAULT_MAX_BODY,
        help=f"largest request body accepted ({DEFAULT_MAX_BODY}); import big PGN files with "
        "'royalchess games --import FILE.pgn'",
    )


def _token(text: str) -> str:
    if len(text) < 8 or not all(c.isalnum() or c in "-_.~" for c in text):
        raise argparse.ArgumentTypeError(
            "a token is 8 or more letters, digits or -_.~ (it travels in a URL and a cookie)"
        )
    return text


def _bytes(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of bytes, not {text!r}")
    return int(text)


def _browser_available() -> bool:
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return False
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def _lan_address() -> str | None:
    """This machine's address on its network (no packet is sent: a UDP connect only picks
    the route), or ``None``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            address = str(sock.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    open_browser: bool = True,
    *,
    token: str | None = None,
    max_body: int = DEFAULT_MAX_BODY,
    threads: int = 1,
) -> int:
    """Serve the app until interrupted; return the exit status.

    Beyond loopback (``--host 0.0.0.0`` or a LAN address) every client needs the token
    (*token*, or a new random one); the printed URL carries it. *threads* is how many
    threads each full-strength search of the computer runs on.
    """
    import uvicorn

    from royalchess.web.app import create_app
    from royalchess.web.computer import Computer

    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(24)
    computer = Computer(threads=threads)  # a bad count is refused before the store opens
    store = GameStore(db)
    policy = Policy(host=host, port=port, token=token, max_body=max_body)
    app = create_app(store=store, policy=policy, computer=computer)
    wildcard = host in ("0.0.0.0", "::", "")
    shown = f"[{host}]" if ":" in host else host
    query = "" if token is None else f"?token={token}"
    url = f"http://{'127.0.0.1' if wildcard else shown}:{port}/{query}"
    print(f"royalchess: serving on {url}  (games in {store.path}; Ctrl+C to stop)", flush=True)
    if wildcard and (lan := _lan_address()) is not None:
        print(f"royalchess: from another device: http://{lan}:{port}/{query}", flush=True)
    if token is not None:
        print("royalchess: keep this URL private: its token opens your games", flush=True)
    if open_browser and _browser_available():
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    # proxy_headers off: no proxy stands in front, and X-Forwarded-* must not change the
    # scheme or client the security checks see.
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False, proxy_headers=False
    )
    server = uvicorn.Server(config)
    server.run()
    store.close()
    return 0
