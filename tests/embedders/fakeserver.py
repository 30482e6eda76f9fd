"""A real HTTP server on loopback speaking the OpenAI and Ollama embedding wire formats."""

from __future__ import annotations

import hashlib
import json
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


def vector(text: str, dims: int) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    raw = [b / 255.0 - 0.5 for b in (digest * (dims // len(digest) + 1))[:dims]]
    return raw


def use_openai(
    monkeypatch: pytest.MonkeyPatch, port: int, model: str = "text-embedding-x", key: str | None = None
) -> None:
    """Point Curator's embedder at an OpenAI-compatible server on loopback ``port`` (8 dims)."""
    monkeypatch.setenv("CURATOR_EMBEDDER", "openai")
    monkeypatch.setenv("CURATOR_EMBED_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("CURATOR_EMBED_MODEL", model)
    monkeypatch.setenv("CURATOR_EMBED_DIMS", "8")
    if key is not None:
        monkeypatch.setenv("CURATOR_EMBED_API_KEY", key)


class EmbeddingServer:
    def __init__(self, dims: int = 8) -> None:
        self.dims = dims
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0
        self.reject_when: str | None = None
        self.wrong_dims = False
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if server.fail_next:
                    server.fail_next -= 1
                    self._send(503, {"error": "busy"})
                    return
                texts = body.get("input") or []
                if server.reject_when and any(server.reject_when in t for t in texts):
                    self._send(400, {"error": {"message": "input too long"}})
                    return
                dims = server.dims + (3 if server.wrong_dims else 0)
                if self.path.endswith("/embeddings"):
                    data = [
                        {"object": "embedding", "index": i, "embedding": vector(t, dims)} for i, t in enumerate(texts)
                    ]
                    self._send(
                        200,
                        {
                            "object": "list",
                            "data": data,
                            "model": body.get("model"),
                            "usage": {"prompt_tokens": sum(len(t.split()) for t in texts)},
                        },
                    )
                elif self.path == "/api/embed":
                    self._send(
                        200,
                        {
                            "model": body.get("model"),
                            "embeddings": [vector(t, dims) for t in texts],
                            "prompt_eval_count": sum(len(t.split()) for t in texts),
                        },
                    )
                else:
                    self._send(404, {"error": "not found"})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> EmbeddingServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def texts(self) -> list[str]:
        return [t for r in self.requests for t in (r["body"].get("input") or [])]


def unpack(blob: bytes) -> tuple[float, ...]:
    return struct.unpack(f"{len(blob) // 4}f", blob)
