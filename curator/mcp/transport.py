"""Streamable HTTP on loopback, every request authenticated by the vault's bearer token.

The SDK's app keeps its DNS-rebinding protection (the Host and Origin headers must name a
loopback address, else 421 and 403); in front of it, ``BearerAuth`` answers 401 with
``WWW-Authenticate: Bearer`` to any request whose ``Authorization`` header does not carry the
token (``curator.mcp.bearer``), before the SDK reads a byte of its body.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

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


def serve(server: Any, port: int, token: str) -> None:
    """Serve ``server`` (an ``MCPServer``) over streamable HTTP on loopback until interrupted."""
    import anyio
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=PATH, host=HOST)
    config = uvicorn.Config(BearerAuth(app, token), host=HOST, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
