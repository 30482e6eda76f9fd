"""Click wiring for the index and search: index, status, ls, search, read, relate, bench."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def register(cli: click.Group, json_option: Callable[..., Any], app_of: Callable[..., Any]) -> None:
    pass
