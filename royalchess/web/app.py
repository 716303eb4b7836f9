"""The web app: a JSON API over :class:`GameService` and the static page (Starlette, ASGI).

Every error a request can cause is answered with a 4xx (or 503) status and
``{"error": "message"}``; the game it named is unchanged.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from royalchess.board import Board
from royalchess.clock import Now
from royalchess.errors import ChessError
from royalchess.store import GameStore
from royalchess.variants import VARIANTS
from royalchess.web import coach, pgn_io
from royalchess.web.computer import Computer, EngineUnavailableError, Ticket
from royalchess.web.games import MODES, ApiError, GameService
from royalchess.web.live import LiveAnalysis, position_view, stream
from royalchess.web.offload import Offload, read_pgn
from royalchess.web.review import Reviews
from royalchess.web.security import Policy, SecurityMiddleware

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"

_log = logging.getLogger("royalchess.web")

Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _game_id(request: Request) -> int:
    text = request.path_params["game_id"]
    if not text.isdigit() or len(text) > 18:
        raise ApiError(404, f"no game with id {text!r}")
    return int(text)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"malformed JSON body: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the JSON body must be an object")
    return data


def _field(
    data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None
) -> Any:
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ApiError(400, f"field {name!r} must be a {names}, not {type(value).__name__}")
    return value


def _ply(data: dict[str, Any]) -> int:
    """The ``ply`` field every change carries: the number of moves of the game as the page
    showed it (its state's ``ply``). The change is refused (409) if the game has another."""
    ply: int | None = _field(data, "ply", int)
    if ply is None:
        raise ApiError(
            400,
            "field 'ply' is required: the number of moves of the game as you see it "
            "(the game state's 'ply'), so that a change made elsewhere is not overwritten",
        )
    return ply


def _looked_at(request: Request) -> bool:
    """Whether a GET of a game is the app's own page (or a program) looking at it, a sign of
    life that keeps its clock running or starts it: not another site's page (an ``<img>``
    naming the URL), which the browser marks ``Sec-Fetch-Site: cross-site``/``same-site``."""
    return request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")


async def _unless_abandoned(
    request: Request, computer: Computer, ticket: Ticket, work: Callable[[], Any]
) -> Any:
    """Run *work* (a search named by *ticket*) in a worker thread; when the client goes
    away first, stop the search: an abandoned request keeps no engine busy."""
    task = asyncio.ensure_future(run_in_threadpool(work))
    while True:
        done, _ = await asyncio.wait({task}, timeout=0.1)
        if done:
            return task.result()
        if not ticket.stopped and await request.is_disconnected():
            computer.cancel(ticket)


def create_app(
    db_path: str | None = None,
    *,
    store: GameStore | None = None,
    computer: Computer | None = None,
    policy: Policy | None = None,
    offload: Offload | None = None,
    live: dict[str, Any] | None = None,
    review_limit: Any = None,
    now: Now | None = None,
) -> Starlette:
    """Return the ASGI app serving the page and the API on the games in *db_path*.

    *policy* says which host names, token and body size it accepts (:mod:`.security`;
    by default: served on 127.0.0.1, no token, 1 MB bodies); *offload* runs PGN reading
    in child processes with a time bound (:mod:`.offload`; 10 s by default). *live* bounds
    each live analysis (``seconds``, ``depth``, ``interval``: :mod:`.live`), *review_limit*
    the search of each position in a game review (:mod:`.review`). *now* is the clocks'
    time source (``time.time`` by default; tests give a fake one).
    """
    if offload is None:
        offload = Offload()
    if store is None:
        store = GameStore(db_path)
    service = GameService(store, computer) if now is None else GameService(store, computer, now=now)
    analyses = LiveAnalysis(service, **(live or {}))
    reviews = Reviews(service) if review_limit is None else Reviews(service, review_limit)

    def api(func: Callable[[Request], Awaitable[Any]]) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                result = await func(request)
            except ApiError as exc:
                return _error(exc.status, exc.message)
            except EngineUnavailableError as exc:
                return _error(503, str(exc))
            except ChessError as exc:
                return _error(400, str(exc))
            except Exception as exc:  # noqa: BLE001 - a bug: answer in JSON, and log it
                _log.exception("internal error in %s %s", request.method, request.url.path)
                return _error(500, f"internal error: {type(exc).__name__}: {exc}")
            if isinstance(result, Response):
                return result
            return JSONResponse(result)

        return endpoint

    async def info(request: Request) -> Any:
        return {
            "variants": [
                {"name": v.name, "title": v.title, "files": v.files, "ranks": v.ranks}
                for v in VARIANTS.values()
            ],
            "modes": list(MODES),
            "pgn": pgn_io.available(),
        }

    async def list_games(request: Request) -> Any:
        status = request.query_params.get("status", "all")
        return {"games": await run_in_threadpool(service.list_games, status)}

    async def new_game(request: Request) -> Any:
        data = await _body(request)
        kwargs = {
            "variant": _field(data, "variant", str, "chess"),
            "mode": _field(data, "mode", str, "vs-computer"),
            "color": _field(data, "color", str, "white"),
            "level": _field(data, "level", int, 4),
            "fen": _field(data, "fen", str),
            "position_record": _field(data, "record", str),
            "clock": data.get("clock"),
        }
        state = await run_in_threadpool(lambda: service.new_game(**kwargs))
        return JSONResponse(state, status_code=201)

    async def get_game(request: Request) -> Any:
        game_id, touch = _game_id(request), _looked_at(request)
        return await run_in_threadpool(lambda: service.state(game_id, touch=touch))

    async def delete_game(request: Request) -> Any:
        await run_in_threadpool(service.delete, _game_id(request))
        return {"deleted": True}

    async def legal(request: Request) -> Any:
        state = await run_in_threadpool(service.state, _game_id(request))
        return {"fen": state["fen"], "turn": state["turn"], "legal": state["legal"]}

    async def move(request: Request) -> Any:
        game_id = _game_id(request)
        data = await _body(request)
        text = _field(data, "move", str, "")
        ply = _ply(data)
        return await run_in_threadpool(lambda: service.play(game_id, text, ply=ply))

    async def computer_move(request: Request) -> Any:
        game_id = _game_id(request)
        data = await _body(request)
        ply = _ply(data)
        for_human = _field(data, "for_human", bool, False)
        ticket = Ticket(game_id)

        def work() -> Any:
            return service.computer_move(game_id, ply=ply, for_human=for_human, ticket=ticket)

        return await _unless_abandoned(request, service.computer, ticket, work)

    async def takeback(request: Request) -> Any:
        game_id = _game_id(request)
        data = await _body(request)
        plies = _field(data, "plies", int)
        ply = _ply(data)
        return await run_in_threadpool(lambda: service.takeback(game_id, plies, ply=ply))

    async def hint(request: Request) -> Any:
        game_id = _game_id(request)
        ticket = Ticket(game_id)
        work = lambda: service.hint(game_id, ticket=ticket)
        return await _unless_abandoned(request, service.computer, ticket, work)

    async def evaluation(request: Request) -> Any:
        game_id = _game_id(request)
        ticket = Ticket(game_id)
        work = lambda: service.evaluation(game_id, ticket=ticket)
        return await _unless_abandoned(request, service.computer, ticket, work)

    async def threats(request: Request) -> Any:
        return await run_in_threadpool(service.threats, _game_id(request))

    async def explain(request: Request) -> Any:
        game_id, query = _game_id(request), request.query_params
        board = (await run_in_threadpool(service.game_record, game_id))[2]
        return coach.explain_click(board, query.get("from", ""), query.get("to", ""))

    async def clock(request: Request) -> Any:
        game_id, touch = _game_id(request), _looked_at(request)
        return await run_in_threadpool(lambda: service.clock(game_id, touch=touch))

    async def pause(request: Request) -> Any:
        game_id = _game_id(request)
        ply = _ply(await _body(request))
        return await run_in_threadpool(lambda: service.pause(game_id, ply=ply))

    async def resign(request: Request) -> Any:
        game_id = _game_id(request)
        data = await _body(request)
        color, ply = _field(data, "color", str), _ply(data)
        return await run_in_threadpool(lambda: service.resign(game_id, color, ply=ply))

    async def claim_draw(request: Request) -> Any:
        game_id = _game_id(request)
        ply = _ply(await _body(request))
        return await run_in_threadpool(lambda: service.claim_draw(game_id, ply=ply))

    async def settings(request: Request) -> Any:
        game_id = _game_id(request)
        data = await _body(request)
        kwargs = {
            "mode": _field(data, "mode", str),
            "color": _field(data, "color", str),
            "level": _field(data, "level", int),
            "ply": _ply(data),
        }
        return await run_in_threadpool(lambda: service.set_players(game_id, **kwargs))

    async def export_pgn(request: Request) -> Any:
        game_id = _game_id(request)
        text = await run_in_threadpool(lambda: pgn_io.export(*service.game_record(game_id)))
        return PlainTextResponse(
            text,
            media_type="application/x-chess-pgn",
            headers={"Content-Disposition": f'attachment; filename="royalchess-{game_id}.pgn"'},
        )

    async def export_record(request: Request) -> Any:
        game_id = _game_id(request)
        _, _, board = await run_in_threadpool(service.game_record, game_id)
        return await run_in_threadpool(pgn_io.position_record, board)

    async def import_pgn(request: Request) -> Any:
        data = await _body(request)
        text = _field(data, "pgn", str, "")
        if not text.strip():
            raise ApiError(400, 'no PGN given: send {"pgn": "..."}')

        # Reading runs in a child process with a time bound (see offload.py); saving is quick.
        fen, variant, moves, result, termination, headers = await offload.run(read_pgn, text)

        def save() -> Any:
            return service.import_game(
                Board(fen, variant=variant),
                moves,
                result=result,
                termination=termination,
                headers=headers,
            )

        return JSONResponse(await run_in_threadpool(save), status_code=201)

    async def position(request: Request) -> Any:
        return await run_in_threadpool(position_view, service, request.query_params)

    async def analysis(request: Request) -> Any:
        return await run_in_threadpool(stream, request, analyses)

    async def stop_analysis(request: Request) -> Any:
        tab = _field(await _body(request), "tab", str, "")
        return {"stopped": analyses.stop_tab(tab)}

    async def start_review(request: Request) -> Any:
        game_id = _game_id(request)
        return await run_in_threadpool(reviews.start, game_id)

    async def get_review(request: Request) -> Any:
        return reviews.status(_game_id(request))

    async def review_pgn(request: Request) -> Any:
        game_id = _game_id(request)
        return PlainTextResponse(
            reviews.annotated_pgn(game_id),
            media_type="application/x-chess-pgn",
            headers={
                "Content-Disposition": f'attachment; filename="royalchess-{game_id}-review.pgn"'
            },
        )

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return _error(status, str(detail))

    g = "/api/games/{game_id}"
    routes = [
        Route("/", index),
        Route("/api/info", api(info)),
        Route("/api/games", api(list_games), methods=["GET"]),
        Route("/api/games", api(new_game), methods=["POST"]),
        Route(g, api(get_game), methods=["GET"]),
        Route(g, api(delete_game), methods=["DELETE"]),
        Route(g + "/legal", api(legal)),
        Route(g + "/move", api(move), methods=["POST"]),
        Route(g + "/computer-move", api(computer_move), methods=["POST"]),
        Route(g + "/takeback", api(takeback), methods=["POST"]),
        Route(g + "/hint", api(hint)),
        Route(g + "/evaluation", api(evaluation)),
        Route(g + "/threats", api(threats)),
        Route(g + "/explain", api(explain)),
        Route(g + "/clock", api(clock)),
        Route(g + "/pause", api(pause), methods=["POST"]),
        Route(g + "/resign", api(resign), methods=["POST"]),
        Route(g + "/claim-draw", api(claim_draw), methods=["POST"]),
        Route(g + "/settings", api(settings), methods=["POST"]),
        Route(g + "/pgn", api(export_pgn)),
        Route(g + "/record", api(export_record)),
        Route("/api/import", api(import_pgn), methods=["POST"]),
        Route("/api/position", api(position)),
        Route("/api/analysis", api(analysis), methods=["GET"]),
        Route("/api/analysis/stop", api(stop_analysis), methods=["POST"]),
        Route(g + "/review", api(get_review), methods=["GET"]),
        Route(g + "/review", api(start_review), methods=["POST"]),
        Route(g + "/review/pgn", api(review_pgn)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: not_found},
        middleware=[Middleware(SecurityMiddleware, policy=policy or Policy())],
    )
    app.state.service = service
    app.state.analyses = analyses
    app.state.reviews = reviews
    return app
