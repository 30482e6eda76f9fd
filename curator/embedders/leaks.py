"""The leak scanner: passages carrying secrets never go to a remote embedder.

detect-secrets' pattern plugins (its entropy plugins flag ordinary prose), plus
the token shapes it does not know yet.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

EXTRA = (
    ("OpenAI-style key", re.compile(r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{20,}")),
    ("Password in URL", re.compile(r"\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^/\s@]+@", re.IGNORECASE)),
    (
        "Assigned secret",
        re.compile(
            r"(?i)\b(?:api[_-]?key|secret|token|passw(?:or)?d|access[_-]?key)\b\s*[:=]\s*['\"]?[A-Za-z0-9_\-+/=.]{12,}"
        ),
    ),
)
SKIP = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"}


@lru_cache(maxsize=1)
def _plugins() -> list[dict[str, Any]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    classes: list[type] = list(get_mapping_from_secret_type_to_class().values())
    return [{"name": c.__name__} for c in classes if c.__name__ not in SKIP]


def find_secrets(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when it looks clean)."""
    kinds: set[str] = set()
    for name, pattern in EXTRA:
        if pattern.search(text):
            kinds.add(name)
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    with transient_settings({"plugins_used": _plugins()}):
        for line in text.splitlines():
            if len(line) > 4000:
                line = line[:4000]
            for secret in scan_line(line):
                kinds.add(secret.type)
    return sorted(kinds)


def redact(text: str) -> str:
    """``text`` with every secret-looking span replaced (for surfaces that show text to agents)."""
    out = text
    for _name, pattern in EXTRA:
        out = pattern.sub("[REDACTED]", out)
    return out
