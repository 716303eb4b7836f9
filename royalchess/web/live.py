"""Live analysis: the engine's best lines on any position, streamed to the page as
server-sent events (``GET /api/analysis``, read with the browser's ``EventSource``).

A position is a start FEN and the moves played from it (the game's, and any the player tries
on the analysis board: those live only in the page and in this request, never in a game).
Each stream runs one full-strength search on an engine of the app's pool
(:class:`~royalchess.web.computer.Computer`), at most :data:`MAX_LINES` lines, and sends
the newest lines at most every *interval* seconds. The search stops when:

- the client goes away (the tab closes, the page closes its ``EventSource``): checked
  between updates with ``request.is_disconnected()`` and in the stream's ``finally``;
- the same tab (its ``tab`` parameter) opens a new stream: at most one search per tab;
- it reaches its bound (*seconds*, *depth*): nothing runs on for a client that vanished
  without a word. The page then shows the last lines and may start again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import StreamingResponse

from royalchess.board import Board
from royalchess.engine import Info, Limit
from royalchess.session import color_name
from royalchess.web.computer import Computer, SearchStopped, Ticket
from royalchess.web.games import ApiError, GameService

__all__ = [
    "LIVE_DEPTH",
    "LIVE_SECONDS",
    "MAX_LINES",
    "LiveAnalysis",
    "describe_line",
    "position_from_query",
    "position_view",
    "stream",
]

LIVE_SECONDS = 60.0
"""The longest one live search runs (seconds)."""
LIVE_DEPTH = 60
"""The deepest one live search goes."""
MAX_LINES = 3
"""At most this many lines (multi-PV)."""
MAX_MOVES = 1000
"""The most moves a position may carry after its start FEN."""
_PV_MOVES = 12  # moves of a line sent to the page
_DONE = object()


def position_from_query(query: Mapping[str, str]) -> Board:
    """The position named by ``variant``, ``fen`` (default: the start position) and
    ``moves`` (UCI or SAN, separated by spaces or commas) in a query; :class:`ApiError` 400 when
    it is not one."""
    variant = query.get("variant", "chess")
    fen = query.get("fen") or None
    moves = query.get("moves", "").replace(",", " ").split()
    if len(moves) > MAX_MOVES:
        raise ApiError(400, f"too many moves: at most {MAX_MOVES}")
    try:
        board = Board(fen, variant=variant)
    except ValueError as exc:  # an unknown variant or a bad FEN (a ChessError)
        raise ApiError(400, f"not a position: {exc}") from None
    for number, text in enumerate(moves, 1):
        try:
            board.push_uci(text)
        except ValueError:
            try:  # a move typed on the analysis board may be SAN
                board.push_san(text)
            except ValueError as exc:
                raise ApiError(400, f"move {number} ({text!r}) is not legal here: {exc}") from None
    return board


def position_view(service: GameService, query: Mapping[str, str]) -> dict[str, Any]:
    """The position of a query (:func:`position_from_query`) as the analysis board shows
    it: the page's view of the position, its moves in SAN and the last move's squares."""
    board = position_from_query(query)
    replay = Board(query.get("fen") or None, variant=board.variant)
    moves = [{"uci": move.uci(), "san": replay.san_and_push(move)} for move in board.move_stack]
    view = service.position(board)
    view["moves"] = moves
    last = board.move_stack[-1] if board.move_stack else None
    view["last"] = (
        []
        if last is None
        else [board.square_name(last.from_square), board.square_name(last.to_square)]
    )
    return view


def describe_line(board: Board, info: Info, service: GameService) -> dict[str, Any]:
    """One engine line as the page shows it: the score from White's side (centipawns or
    mate), depth, the moves in SAN and UCI, and arrows for its first move."""
    sign = 1 if board.turn else -1
    score = info.score
    copy = board.copy()
    san: list[str] = []
    uci: list[str] = []
    for move in info.pv[:_PV_MOVES]:
        try:
            san.append(copy.san_and_push(move))
        except ValueError:  # not legal (cannot happen for a line of this position)
            break
        uci.append(move.uci())
    first = info.pv[0] if info.pv and uci else None
    return {
        "multipv": info.multipv,
        "cp": None if score.mate is not None else sign * (score.cp or 0),
        "mate": None if score.mate is None else sign * score.mate,
        "depth": info.depth,
        "san": san,
        "uci": uci,
        "arrows": [] if first is None else service.arrows(board, first),
    }


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def stream(request: Request, analyses: LiveAnalysis) -> StreamingResponse:
    """The answer to ``GET /api/analysis``: the checks, then the stream of events.

    A GET needs no same-origin check to keep a game safe, but this one sets the engine to
    work: a page of another site (``Sec-Fetch-Site: cross-site`` or ``same-site``) is refused
    (403), so it cannot keep this machine's cores busy through an ``EventSource`` or an image.
    """
    site = request.headers.get("sec-fetch-site", "").lower()
    if site and site not in ("same-origin", "none"):
        raise ApiError(403, f"refused a {site} request: analysis is for the app's own page")
    query = request.query_params
    board = position_from_query(query)
    tab = query.get("tab", "")
    if not tab or len(tab) > 64 or not tab.replace("-", "").replace("_", "").isalnum():
        raise ApiError(400, "a tab id is required: ?tab= letters, digits, - and _")
    text = query.get("lines", str(MAX_LINES))
    if not text.isdigit() or not 1 <= int(text) <= MAX_LINES:
        raise ApiError(400, f"lines must be 1 to {MAX_LINES}, not {text!r}")
    events = analyses.events(request, board, multipv=int(text), tab=tab)
    return StreamingResponse(
        events, media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )


class LiveAnalysis:
    """The live searches of the app: at most one per browser tab."""

    def __init__(
        self,
        service: GameService,
        *,
        seconds: float = LIVE_SECONDS,
        depth: int = LIVE_DEPTH,
        interval: float = 0.2,
    ) -> None:
        self.service = service
        self.limit = Limit(movetime=seconds, depth=depth)
        self.interval = interval
        self._tabs: dict[str, Ticket] = {}
        self._lock = threading.Lock()
        self._running = 0

    @property
    def computer(self) -> Computer:
        return self.service.computer

    def running(self) -> int:
        """How many live searches are running now (their engine threads included)."""
        with self._lock:
            return self._running

    def stop_tab(self, tab: str) -> bool:
        """Stop the search of *tab*, if it has one; return whether it had."""
        with self._lock:
            ticket = self._tabs.pop(tab, None)
        if ticket is None:
            return False
        self.computer.cancel(ticket)
        return True

    async def events(
        self, request: Request, board: Board, *, multipv: int, tab: str
    ) -> AsyncIterator[str]:
        """The server-sent events of one live search of *board*: ``start``, then ``lines``
        (the newest lines, best first) as the search deepens, then ``done`` with why it ended
        (``limit``, ``stopped``) unless the client went away first."""
        if board.outcome() is not None:  # nothing to search: say so and end
            yield "retry: 3600000\n" + _event(
                "start", {"fen": board.fen(), "turn": color_name(board.turn), "lines": 0}
            )
            yield _event("done", {"reason": "over"})
            return
        loop = asyncio.get_running_loop()
        updates: asyncio.Queue[object] = asyncio.Queue()
        ticket = Ticket(None)
        with self._lock:
            old = self._tabs.get(tab)
            self._tabs[tab] = ticket
            self._running += 1
        if old is not None:
            self.computer.cancel(old)  # one search per tab: the newest wins

        def post(item: object) -> None:  # from the search thread
            with contextlib.suppress(RuntimeError):  # the event loop has closed
                loop.call_soon_threadsafe(updates.put_nowait, item)

        def work() -> None:
            try:
                self.computer.analyse(
                    board, self.limit, multipv=multipv, on_info=post, ticket=ticket
                )
            except SearchStopped:
                pass
            finally:
                with self._lock:
                    self._running -= 1
                post(_DONE)

        threading.Thread(target=work, name="royalchess-live", daemon=True).start()
        latest: dict[int, Info] = {}
        pending = False
        sent = 0.0
        try:
            yield "retry: 3600000\n" + _event(
                "start",
                {"fen": board.fen(), "turn": color_name(board.turn), "lines": multipv},
            )
            while True:
                wait = max(0.0, self.interval - (time.monotonic() - sent)) if pending else 0.5
                try:
                    item = await asyncio.wait_for(updates.get(), timeout=wait)
                except TimeoutError:
                    item = None
                if await request.is_disconnected():
                    return
                if item is _DONE:
                    if pending:
                        yield self._lines(board, latest)
                    yield _event("done", {"reason": "stopped" if ticket.stopped else "limit"})
                    return
                if isinstance(item, Info) and item.bound == "exact" and item.pv:
                    latest[item.multipv] = item
                    pending = True
                if pending and time.monotonic() - sent >= self.interval:
                    yield self._lines(board, latest)
                    pending, sent = False, time.monotonic()
        finally:
            self.computer.cancel(ticket)
            with self._lock:
                if self._tabs.get(tab) is ticket:
                    del self._tabs[tab]

    def _lines(self, board: Board, latest: dict[int, Info]) -> str:
        lines = []
        firsts = set()
        for k in sorted(latest):
            # while a new depth comes in, a lower line of the last one may repeat a move
            if latest[k].pv[0] not in firsts:
                firsts.add(latest[k].pv[0])
                lines.append(describe_line(board, latest[k], self.service))
        best = latest[min(latest)]
        return _event(
            "lines",
            {
                "fen": board.fen(),
                "depth": best.depth,
                "nodes": best.nodes,
                "nps": best.nps,
                "time": best.time,
                "lines": lines,
            },
        )
