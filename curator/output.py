"""Printing results: JSON for scripts, plain lines for people."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2, default=str) + "\n")


def line(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def warn(text: str) -> None:
    sys.stderr.write(f"curator: warning: {text}\n")


def note(text: str) -> None:
    sys.stderr.write(text + "\n")


def safe_path(path: str) -> str:
    """A path that can be printed: undecodable file-name bytes shown escaped."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
