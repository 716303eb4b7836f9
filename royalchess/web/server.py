"""``royalchess serve``: run the web app with uvicorn and open it in a browser."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import webbrowser

from royalchess.store import GameStore, default_db_path

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


def serve(
    host: str = "127.0.0.1", port: int = 8000, db: str | None = None, open_browser: bool = True
) -> int:
    """Serve the app until interrupted; return the exit status."""
    import uvicorn

    from royalchess.web.app import create_app

    store = GameStore(db)
    app = create_app(store=store)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    print(f"royalchess: serving on {url}  (games in {store.path}; Ctrl+C to stop)", flush=True)
    if open_browser and _browser_available():
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    server.run()
    store.close()
    return 0
