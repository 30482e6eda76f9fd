"""JSON over HTTP for the remote adapters: stdlib urllib, timeouts and bounded retries."""

from __future__ import annotations

import json
import time
from typing import Any

from curator.embedders.base import InputRefused
from curator.errors import EmbedderError

RETRIES = 3


def post_json(
    url: str, payload: dict[str, Any], headers: dict[str, str] | None = None, timeout: float = 60.0
) -> dict[str, Any]:
    # urllib.request (http.client, email, ssl) is 30 ms of start-up: the remote adapters are
    # built on every reconcile, and a reconcile with nothing to embed never sends a request.
    import urllib.error
    import urllib.request

    body = json.dumps(payload).encode("utf-8")
    request_headers = {"Content-Type": "application/json", **(headers or {})}
    last = ""
    for attempt in range(RETRIES):
        req = urllib.request.Request(url, data=body, headers=request_headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                data = json.loads(resp.read().decode("utf-8"))
                if not isinstance(data, dict):
                    raise EmbedderError(f"{url} answered with something other than a JSON object")
                return data
        except urllib.error.HTTPError as e:
            detail = e.read()[:300].decode("utf-8", "replace")
            if e.code == 429 or e.code >= 500:
                last = f"HTTP {e.code}"
            else:
                raise InputRefused(e.code, detail) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            last = str(getattr(e, "reason", e))
        except ValueError:
            raise EmbedderError(f"{url} answered with invalid JSON") from None
        if attempt + 1 < RETRIES:
            time.sleep(0.2 * 2**attempt)
    raise EmbedderError(f"embedder at {url} is unavailable ({last})")
