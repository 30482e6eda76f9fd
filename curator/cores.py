"""How many threads Curator's own work may use: the cores actually free, never more.

A BLAS, torch or ONNX Runtime pool that asks for every core of a machine whose cores
other processes are already using makes things several times slower, not faster (on a
2-core machine with two busy processes, the numpy forward pass ran 5-9× slower with two
BLAS threads than with one). So the count is: ``CURATOR_THREADS`` when set (a positive
whole number; anything else is a usage error), else ``OMP_NUM_THREADS`` when it is a
positive number, else the cores this process may run on less the ones other processes
keep busy — never fewer than one, never more than the cores there are.

"Busy" is what the kernel has runnable now, not the one-minute load average: the average
still holds Curator's own last run for a minute after it ends (a second `curator index`
on an idle 2-core machine saw a load of 1.1 and took one worker, running the powershell-docs
first index at 523 files/s instead of 827), and whatever a desktop did a minute ago.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator

from curator.errors import UsageError


def available() -> int:
    """Cores this process may run on (its affinity mask, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


SAMPLES = 5
SAMPLE_GAP = 0.004  # seconds: five samples span ~16 ms, once per process every few seconds
_REMEMBER = 5.0
_last: tuple[float, float] | None = None
_early: threading.Thread | None = None
_one_blas_thread = False
"""Whether ``one_question`` started numpy's BLAS pool with one thread (see ``blas_bounded``)."""


def _runnable() -> int | None:
    """Tasks the kernel has runnable right now, this one included (``procs_running``)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            for line in f:
                if line.startswith("procs_running "):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _own_running() -> int:
    """Threads of this process the kernel has runnable now (at least the one asking): a sample
    taken beside a working main thread (``sample_early``) must not count it as another's."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 1
    running = 0
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/stat", encoding="ascii", errors="replace") as f:
                # "pid (comm) S ...": the state follows the last ')' (a name may hold one)
                running += f.read().rpartition(")")[2].split()[:1] == ["R"]
        except OSError:
            continue
    return max(running, 1)


def busy_elsewhere() -> float:
    """Cores other processes keep busy: the median of a few samples of the runnable tasks
    (less this one), ~16 ms apart. One sample flickers with short tasks; the median keeps
    the ones that hold a core. Where the kernel does not say, the one-minute load average.
    Remembered for a few seconds, so a run of small embeds samples once."""
    global _last
    early = _early
    if early is not None:
        early.join()
    now = time.monotonic()
    if _last is not None and now - _last[0] < _REMEMBER:
        return _last[1]
    return _sample(now)


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "CURATOR_THREADS")


def one_question() -> None:
    """Keep numpy's BLAS pool to one thread in a process that embeds one question (a `curator
    search`), unless the person set a thread count. Called before numpy is imported. A second
    thread computes a 7-token forward pass 4 ms sooner, but starting the pool and its threads
    spinning once it is done cost more: a hybrid search process took 284 ms and 285 ms of CPU
    with one BLAS thread against 301 ms and 451 ms with two (benchmarks/start.py, 2 cores)."""
    global _one_blas_thread
    if not any(os.environ.get(name, "").strip() for name in BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        _one_blas_thread = "numpy" not in sys.modules  # OpenBLAS reads it once, as numpy loads


def blas_bounded() -> contextlib.AbstractContextManager[None]:
    """``bounded(threads())`` for work only numpy's BLAS pool computes (the numpy forward pass).
    After ``one_question`` that pool has one thread, fewer than any bound: neither the load is
    sampled nor threadpoolctl imported to lower it (~5 ms of a hybrid search on a busy machine,
    where the bound is one core)."""
    if _one_blas_thread:
        return contextlib.nullcontext()
    return bounded(threads())


def sample_early() -> None:
    """Start sampling the load now, in a thread, for a ``busy_elsewhere`` soon after: the
    samples' ~16 ms of waiting then overlap work (a hybrid `curator search` imports numpy and
    reads the model meanwhile) instead of delaying the query's vector."""
    global _early
    if _early is None:
        _early = threading.Thread(target=_sample, args=(time.monotonic(),), name="curator-load", daemon=True)
        _early.start()


def _sample(now: float) -> float:
    global _last
    samples: list[int] = []
    for i in range(SAMPLES):
        n = _runnable()
        if n is None:
            break
        samples.append(n - _own_running())
        if i < SAMPLES - 1:
            time.sleep(SAMPLE_GAP)
    if samples:
        ranked = sorted(samples)  # their median (statistics, with fractions and decimal, is 20 ms to import)
        busy = max((ranked[(len(ranked) - 1) // 2] + ranked[len(ranked) // 2]) / 2, 0.0)
    else:
        try:
            busy = max(os.getloadavg()[0], 0.0)
        except OSError:
            busy = 0.0
    _last = (now, busy)
    return busy


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


def workers(limit: int) -> int:
    """Worker processes for independent pieces of work (parsing notes), at most ``limit``.

    One per core this process may run on, whatever the load (``CURATOR_THREADS`` still caps
    it): unlike the threads of one BLAS product, which wait for the slowest of them, separate
    processes lose nothing when another program holds a core; the kernel shares it. Sized by
    the load, a busy 2-core machine got one worker and read the powershell-docs tree's first
    lexical index at 186 files/s, where two workers read 257.
    """
    cores = available()
    asked = _positive("CURATOR_THREADS", strict=True)
    return max(1, min(asked or cores, cores, limit))


def check_environment() -> None:
    """Fail early, before any work, when CURATOR_THREADS is not a usable number."""
    _positive("CURATOR_THREADS", strict=True)


@contextlib.contextmanager
def bounded(n: int) -> Iterator[None]:
    """Limit the BLAS and OpenMP pools numpy (and torch) use to ``n`` threads. As many as the
    cores this process may use is what the pools start with: nothing to limit, and threadpoolctl
    (its import and its scan of the loaded libraries, ~5 ms of a hybrid search) is not asked."""
    if n >= available():
        yield
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=n):
        yield
