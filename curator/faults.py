"""Named crash points for the crash tests: ``CURATOR_FAULT=apply:after-write`` kills the
process there, as a power cut would. Unset (always, outside tests) it does nothing."""

from __future__ import annotations

import os


def point(name: str) -> None:
    if os.environ.get("CURATOR_FAULT") == name:
        os._exit(137)
