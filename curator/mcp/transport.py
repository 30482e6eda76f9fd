"""Streamable HTTP on loopback, every request authenticated by the vault's bearer token.

The SDK's app keeps its DNS-rebinding protection (the Host and Origin headers must name a
loopback address, else 421 and 403); in front of it, ``BearerAuth`` answers 401 with
``WWW-Authenticate: Bearer`` to any request whose ``Authorization`` header does not carry the
token (``curator.mcp.bearer``), before the SDK reads a byte of its body.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import resource
import socket
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from curator.errors import UsageError
from curator.mcp.bearer import matches

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HOST = "127.0.0.1"
PATH = "/mcp"
REALM = "curator"
HINT = "send Authorization: Bearer <token>; its owner prints it with `curator mcp --http --print-token`"


def given_token(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The bearer credential of the one ``Authorization`` header, or None (none, several, another scheme)."""
    values = [v for k, v in headers if k.lower() == b"authorization"]
    if len(values) != 1:
        return None
    scheme, _, credential = values[0].decode("latin-1").strip().partition(" ")
    if scheme.lower() != "bearer" or not credential.strip():
        return None
    return credential.strip()


class BearerAuth:
    """ASGI middleware: HTTP requests pass only with ``Authorization: Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: the server's own start and stop
            await self.app(scope, receive, send)
            return
        given = given_token(list(scope.get("headers") or ()))
        if given is not None and matches(given, self.token):
            await self.app(scope, receive, send)
            return
        await _unauthorized(send, wrong=given is not None)


async def _unauthorized(send: Send, *, wrong: bool) -> None:
    challenge = f'Bearer realm="{REALM}"' + (', error="invalid_token"' if wrong else "")
    said = "the bearer token is wrong" if wrong else "this server needs a bearer token"
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": f"Unauthorized: {said}; {HINT}"}}
    ).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode("ascii")),
                (b"www-authenticate", challenge.encode("ascii")),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


REQUEST_SECONDS = 10.0
"""How long a connection may take to send a request's headers, from its opening or from the end
of its last response. uvicorn has no such limit (its keep-alive timer restarts on every byte),
so without it a second user holds a connection open forever by sending half a request, and a
thousand of them exhaust the server's file descriptors."""


def _deadline_protocol() -> type:
    """uvicorn's h11 protocol, with a connection closed when no request arrives in ``REQUEST_SECONDS``.

    Hand-written because uvicorn offers no request-start timeout (encode/uvicorn#157). A request
    whose headers arrived is never cut short: it has its cycle, and the check is whether a new
    cycle began since the deadline was set."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class DeadlineProtocol(H11Protocol):
        _deadline: Any = None
        _armed_for: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._armed_for = self.cycle
            self._deadline = self.loop.call_later(REQUEST_SECONDS, self._expire)

        def _expire(self) -> None:
            if self.cycle is self._armed_for and not self.transport.is_closing():
                self.transport.close()  # no request began in time: half a request is no request

    return DeadlineProtocol


def _more_descriptors() -> None:
    """Raise the soft limit on open files to the hard one: a burst of connections then costs the
    server no file descriptor it needs for the vault and the index (1,024 is a desktop's default)."""

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 16 if hard == resource.RLIM_INFINITY else min(hard, 1 << 16)
    if wanted > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def bind(port: int) -> socket.socket:
    """The loopback socket the server will listen on, bound before anything says it serves: a
    port another program holds is the user's one-line error, not uvicorn's exit."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise PortTaken(f"cannot serve on {HOST}:{port}: {e.strerror or e}", port) from None
        raise UsageError(
            f"cannot serve on {HOST}:{port}: {e.strerror or e}", hint="choose another port with --port"
        ) from None
    return sock


class PortTaken(UsageError):
    """Another program listens on the port: it receives what clients configured for it send."""

    def __init__(self, message: str, port: int) -> None:
        super().__init__(message, hint="choose another port with --port")
        self.port = port


def serve(server: Any, sock: socket.socket, token: str) -> None:
    """Serve ``server`` (an ``MCPServer``) over streamable HTTP on ``sock`` (``bind``) until interrupted."""
    import anyio
    import uvicorn

    _more_descriptors()
    app = server.streamable_http_app(streamable_http_path=PATH, host=HOST)
    config = uvicorn.Config(
        BearerAuth(app, token), host=HOST, port=sock.getsockname()[1], log_level="warning", http=_deadline_protocol()
    )

    async def run() -> None:

        asyncio.get_running_loop().set_exception_handler(_out_of_descriptors)
        await uvicorn.Server(config).serve(sockets=[sock])

    anyio.run(run)


_told_at = [0.0]


def _out_of_descriptors(loop: Any, context: dict[str, Any]) -> None:
    """The event loop's error handler: out of file descriptors (a burst of connections), asyncio
    stops accepting for a moment and retries; that is said in one plain line, at most once a
    minute. Through the logging handlers it would be a rich traceback, whose lazy import needs
    a descriptor too: its failure inside the handler ended the server."""

    error = context.get("exception")
    if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
        if time.monotonic() - _told_at[0] > 60:
            _told_at[0] = time.monotonic()
            with contextlib.suppress(OSError):
                sys.stderr.write("curator mcp: out of file descriptors; new connections wait until some close\n")
        return
    loop.default_exception_handler(context)
