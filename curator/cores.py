"""How many threads Curator's own work may use: the cores actually free, never more.

A BLAS, torch or ONNX Runtime pool that asks for every core of a machine whose cores
other processes are already using makes things several times slower, not faster (on a
2-core machine with two busy processes, the numpy forward pass ran 5-9× slower with two
BLAS threads than with one). So the count is: ``CURATOR_THREADS`` when set (a positive
whole number; anything else is a usage error), else ``OMP_NUM_THREADS`` when it is a
positive number, else the cores this process may run on less the ones other processes
keep busy — never fewer than one, never more than the cores there are.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from curator.errors import UsageError


def available() -> int:
    """Cores this process may run on (its affinity mask, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def busy_elsewhere() -> float:
    """Cores other processes keep busy: the larger of the one-minute load average and the
    runnable tasks right now (less this one). The average lags a load that just began; the
    instant count alone flickers. Erring towards fewer threads costs at most the idle core;
    erring the other way costs several times the run."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    running = 0.0
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/loadavg", encoding="ascii") as f:
        running = float(f.read().split()[3].split("/")[0]) - 1
    return max(load, running, 0.0)


def _positive(name: str, *, strict: bool) -> int | None:
    raw = os.environ.get(name)
    if raw is None or (not strict and not raw.strip()):
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        value = 0
    if value >= 1:
        return value
    if strict:
        raise UsageError(f"{name} must be a whole number of threads, at least 1, not {raw!r}")
    return None  # OMP_NUM_THREADS is not ours to police


def threads() -> int:
    """Threads for one pool of Curator's heavy work (embedding, parsing workers)."""
    cores = available()
    asked = _positive("CURATOR_THREADS", strict=True) or _positive("OMP_NUM_THREADS", strict=False)
    if asked is not None:
        return min(asked, cores)
    return max(1, min(cores, cores - round(busy_elsewhere())))


def check_environment() -> None:
    """Fail early, before any work, when CURATOR_THREADS is not a usable number."""
    _positive("CURATOR_THREADS", strict=True)


@contextlib.contextmanager
def bounded(n: int) -> Iterator[None]:
    """Limit the BLAS and OpenMP pools numpy (and torch) use to ``n`` threads."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=n):
        yield
