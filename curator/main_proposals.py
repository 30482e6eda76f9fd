"""Click wiring for the write path: propose, proposals, validate, apply, reject."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def register(cli: click.Group, json_option: Callable[..., Any], app_of: Callable[..., Any]) -> None:
    pass
