"""What stands between the network and the games: one pure-ASGI middleware.

Every request passes, in this order:

1. the ``Host`` check (400): only names of the address served, so a DNS-rebinding page
   (whose ``Host`` is its own domain) is refused;
2. the token check (401), when a token is set (always when serving beyond loopback): a
   cookie set on the first visit with ``?token=...``, or ``Authorization: Bearer``;
3. for POST/PUT/PATCH/DELETE (any method but GET/HEAD/OPTIONS), the same-origin check
   (403: a foreign ``Origin`` or a ``Sec-Fetch-Site`` other than ``same-origin``/``none``)
   and ``Content-Type: application/json`` (415), which no HTML form or "simple"
   cross-site fetch can send;
4. the body limit (413): a ``Content-Length`` above it is refused before reading, a
   chunked body is counted while it streams and refused once it passes the limit.

Every response, the refusals included, carries the security headers (:data:`HEADERS`).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "DEFAULT_MAX_BODY",
    "HEADERS",
    "Policy",
    "SecurityMiddleware",
    "is_loopback",
]

DEFAULT_MAX_BODY = 1_000_000
"""Bytes one request body may carry (``royalchess serve --max-body``)."""

_CSP_PARTS = (
    "default-src 'self'",
    "script-src 'self'",
    # The board sets element.style from JavaScript (CSSOM), which CSP does not govern;
    # no inline <style> block or style attribute is needed.
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
CSP = "; ".join(_CSP_PARTS)
"""The Content-Security-Policy: our own scripts, styles and images only; never framed."""

HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Sent on every response."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing; every other one (POST, PUT, PATCH, DELETE, anything
unknown) must be same-origin JSON."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether *host* (an address or ``localhost``) is reachable only from this machine."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _split_host(header: str) -> str | None:
    """The name in a ``Host`` header, lowercased, without port or IPv6 brackets; ``None``
    when the header is not a host[:port]."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        name, rest = header[1:end], header[end + 1 :]
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    else:
        name, sep, port = header.partition(":")
        rest = sep + port
    if rest and not (rest.startswith(":") and rest[1:].isdigit() and len(rest) <= 6):
        return None
    if not name or any(c not in "abcdefghijklmnopqrstuvwxyz0123456789.-:" for c in name):
        return None
    return name


def _machine_names() -> set[str]:
    """This machine's own names, as a device on the LAN may type them (its host name, and
    the mDNS ``NAME.local``); no DNS lookup, which could hang the start."""
    name = socket.gethostname().lower()
    if not name:
        return set()
    short = name.split(".")[0]
    return {name, short, short + ".local"}


@dataclass(frozen=True)
class Policy:
    """What the server accepts: the address it serves, its token and its body limit.

    *host* is the address listened on (``--host``). Loopback names are always accepted in
    ``Host``; a specific address adds itself; a wildcard (``0.0.0.0``, ``::``) adds any IP
    literal and this machine's names (a rebinding page can only use a domain name, and the
    token guards a wildcard bind anyway). *token*, when set, is required from every client.
    """

    host: str = "127.0.0.1"
    port: int | None = None
    token: str | None = None
    max_body: int = DEFAULT_MAX_BODY
    extra_names: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.max_body < 0:
            raise ValueError("max_body must not be negative")
        if self.token is not None and not self.token:
            raise ValueError("the token must not be empty")

    @property
    def cookie_name(self) -> str:
        """The token cookie; named after the port, as cookies are shared between ports."""
        return "royalchess_token" if self.port is None else f"royalchess_token_{self.port}"

    def host_names(self) -> set[str]:
        """The names accepted in ``Host`` besides, for a wildcard bind, IP literals."""
        names = set(LOOPBACK_NAMES) | set(self.extra_names)
        host = self.host.strip("[]").lower()
        if host in WILDCARDS:
            names |= _machine_names()
        else:
            names.add(host)
        return names

    def accepts_ip_literals(self) -> bool:
        """Whether any IP address is accepted in ``Host`` (a wildcard bind)."""
        return self.host.strip("[]").lower() in WILDCARDS


class SecurityMiddleware:
    """The checks of the module docstring around *app*, by :class:`Policy`."""

    def __init__(self, app: ASGIApp, policy: Policy | None = None) -> None:
        self.app = app
        self.policy = policy or Policy()
        self._names = self.policy.host_names()
        self._token = None if self.policy.token is None else self.policy.token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan; the app has no websockets
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        headers = _headers(scope)
        host = headers.get("host", "")
        if not self._host_ok(host):
            await _refuse(
                scope,
                send,
                400,
                f"this server does not answer to the host name {host!r}: open it by the "
                "address it printed when it started",
            )
            return
        if self._token is not None:
            done = await self._check_token(scope, send, headers)
            if done:
                return
        method = scope["method"]
        if method not in SAFE_METHODS:
            problem = _cross_site(scope, headers, host)
            if problem:
                await _refuse(scope, send, 403, problem)
                return
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                await _refuse(
                    scope,
                    send,
                    415,
                    "the API takes JSON only: send Content-Type: application/json",
                )
                return
        replay = await self._limited_body(scope, receive, send, headers)
        if replay is None:
            return
        await self.app(scope, replay, send)

    def _host_ok(self, header: str) -> bool:
        name = _split_host(header)
        if name is None:
            return False
        if name in self._names:
            return True
        if self.policy.accepts_ip_literals():
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False

    def _token_ok(self, given: str | None) -> bool:
        assert self._token is not None
        if not given:
            return False
        # Constant time, so the answer's timing tells nothing of the token.
        return hmac.compare_digest(given.encode(), self._token)

    async def _check_token(self, scope: Scope, send: Send, headers: dict[str, str]) -> bool:
        """Let a request with the token through (return False) or answer it (return True)."""
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        offered = [value for key, value in query if key == "token"]
        if offered and scope["method"] in ("GET", "HEAD") and self._token_ok(offered[-1]):
            # First visit with the printed URL: keep the token in a cookie the page's own
            # requests carry (HttpOnly: no script reads it; Strict: no other site sends it)
            # and go to the URL without it, so it is not left in the address bar or history.
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            location = scope.get("root_path", "") + scope["path"] + ("?" + rest if rest else "")
            cookie = (
                f"{self.policy.cookie_name}={self.policy.token}; Path=/; HttpOnly; SameSite=Strict"
            )
            await send(
                {
                    "type": "http.response.start",
                    "status": 303,
                    "headers": [
                        (b"location", location.encode("latin-1")),
                        (b"set-cookie", cookie.encode("latin-1")),
                        (b"cache-control", b"no-store"),
                        (b"content-length", b"0"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return True
        given = _cookie(headers.get("cookie", ""), self.policy.cookie_name)
        auth = headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            given = auth[7:].strip()
        if self._token_ok(given):
            return False
        await _refuse(
            scope,
            send,
            401,
            "this server needs its token: open the URL with ?token=... that "
            "`royalchess serve` printed when it started",
            extra=[(b"www-authenticate", b"Bearer")],
        )
        return True

    async def _limited_body(
        self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]
    ) -> Receive | None:
        """Read the body up to the limit and return a *receive* that replays it; answer 413
        (and return ``None``) as soon as it is known to be larger."""
        limit = self.policy.max_body
        too_large = (
            f"the request body is larger than this server's limit of {limit} bytes "
            "(royalchess serve --max-body); import large PGN files with "
            "`royalchess games --import FILE.pgn`"
        )
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdigit():
                await _refuse(scope, send, 400, "malformed Content-Length header")
                return None
            if int(length) > limit:
                await _refuse(scope, send, 413, too_large)
                return None
        chunks: list[bytes] = []
        total = 0
        last: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":
                last = message  # the client went away; let the app see it
                break
            body = message.get("body", b"")
            total += len(body)
            if total > limit:
                await _refuse(scope, send, 413, too_large)
                return None
            chunks.append(body)
            if not message.get("more_body", False):
                break
        pending: list[Message] = [
            {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        ]
        if last is not None:
            pending.append(last)

        async def replay() -> Message:
            if pending:
                return pending.pop(0)
            return await receive()

        return replay


def _headers(scope: Scope) -> dict[str, str]:
    """The request headers, names lowercased; a repeated header keeps its first value."""
    result: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        result.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return result


def _cookie(header: str, name: str) -> str | None:
    jar = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # noqa: BLE001 - a malformed cookie header is no token
        return None
    morsel = jar.get(name)
    return None if morsel is None else morsel.value


def _cross_site(scope: Scope, headers: dict[str, str], host: str) -> str | None:
    """Why a state-changing request is not same-origin, or ``None`` when it is."""
    site = headers.get("sec-fetch-site", "").lower()
    if site and site not in ("same-origin", "none"):
        return f"refused a {site} request: the API only takes requests from its own page"
    origin = headers.get("origin")
    if origin is not None:
        expected = f"{scope.get('scheme', 'http')}://{host}".lower()
        if origin.lower() != expected:
            return (
                f"refused a request from the origin {origin!r}: the API only takes "
                "requests from its own page"
            )
    return None


def _with_headers(send: Send) -> Send:
    """*send* adding :data:`HEADERS` to the response (keeping any the app set itself)."""
    extra = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in HEADERS.items()]

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", ())}
            message = dict(message)
            message["headers"] = [
                *message.get("headers", ()),
                *(item for item in extra if item[0] not in present),
            ]
        await send(message)

    return wrapped


async def _refuse(
    scope: Scope,
    send: Send,
    status: int,
    message: str,
    extra: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    """Answer with *status* and ``{"error": message}``, as the API answers every error."""
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
