"""Named crash points for the crash tests: ``CURATOR_FAULT=apply:after-write`` kills the
process there, as a power cut would. Unset (always, outside tests) it does nothing."""

from __future__ import annotations

import os
import time


def point(name: str) -> None:
    if os.environ.get("CURATOR_FAULT") == name:
        os._exit(137)


def slow(name: str) -> None:
    """``CURATOR_SLOW=prepare:0.02`` sleeps that long at the named step, so a test can kill
    a process while it is there (waiting on a condition, not guessing a time)."""
    raw = os.environ.get("CURATOR_SLOW")
    if raw and raw.partition(":")[0] == name:
        time.sleep(float(raw.partition(":")[2] or 0))
