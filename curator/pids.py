"""Whether the process a lock file names still runs (the index's writer lock, the vault's lock)."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True while ``pid`` exists. A process of another user still counts: it is not ours to take over."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
