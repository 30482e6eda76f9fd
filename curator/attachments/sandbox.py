"""Running an extractor where a hostile file can do no harm: a forked child process with a
CPU-time limit, an address-space limit and a cap on the text it may send back.

A PDF can be made to cost anything: a content stream that inflates to gigabytes, objects
nested a hundred thousand deep, a page tree that never ends. PDFium is C, so no limit
inside the process holds it, and a crash there would take the indexer with it. The child
is forked (the library is already imported; a fork costs about a millisecond, a fresh
interpreter a hundred times that) and answers with JSON, never pickle: a child that a
crafted file took over could send a pickle that runs code in the indexer.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import faulthandler
import functools
import importlib
import json
import os
import resource
import select
import signal
import time
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from typing import Any

from curator.attachments.base import Extraction, Extractor, Heading, Limits, Unextractable

STALL_SECONDS = 30
"""Wall-clock time a child may go without using any CPU (blocked, stopped) before it is killed:
one that computes is stopped by its CPU limit, however slowly a loaded machine lets it run."""


def extract(extractor: Extractor, data: bytes, limits: Limits) -> Extraction:
    """``extractor.extract(data)`` in a child held to ``limits``; Unextractable with the
    reason when the file cannot be read or broke a limit."""
    _preload(extractor)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(extractor, data, limits, write_fd)
    os.close(write_fd)
    finished = False
    try:
        raw, overflow, timed_out = _collect(read_fd, pid, limits)
        finished = True
    finally:
        os.close(read_fd)
        if not finished:  # interrupted (Ctrl-C): the child goes too
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    status = _reap(pid)
    if overflow:
        raise Unextractable(f"more than {limits.max_chars:,} characters of text")
    if timed_out:
        raise Unextractable(f"stopped computing for {STALL_SECONDS} s while it was read; stopped")
    if os.WIFSIGNALED(status) and not raw:
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            raise Unextractable(f"needed more than {limits.max_seconds} s of CPU (attachments.max_seconds); stopped")
        raise Unextractable(
            f"the {extractor.kind} reader crashed on it ({signal.Signals(sig).name}), or ran out of memory "
            f"(attachments.max_memory_mb is {limits.max_memory // (1024 * 1024)})"
        )
    try:
        answer = json.loads(raw.decode("utf-8"))
        kind = answer["kind"]
    except (ValueError, KeyError, TypeError):
        raise Unextractable(f"the {extractor.kind} reader stopped without an answer") from None
    if kind == "memory":
        raise Unextractable(
            f"needed more than {limits.max_memory // (1024 * 1024)} MB of memory (attachments.max_memory_mb); stopped"
        )
    if kind != "ok":
        raise Unextractable(str(answer.get("reason") or "unreadable"))
    got = _decode(answer["extraction"])
    if sum(len(p) for p in got.pages) > limits.max_chars:
        raise Unextractable(f"more than {limits.max_chars:,} characters of text")
    return dataclasses.replace(got, extractor=_package(extractor.package))


@functools.cache
def _package(name: str) -> str:
    """``pypdfium2 5.15.2``: looked up once here, not in every child (the lookup reads
    every installed distribution's metadata, tens of milliseconds)."""
    try:
        return f"{name} {package_version(name)}"
    except PackageNotFoundError:
        return name


def _preload(extractor: Extractor) -> None:
    """Import the adapter's library here, once, so every child has it for free (and no child
    waits on an import lock another thread of this process held when it forked)."""
    for name in extractor.libraries:
        with contextlib.suppress(ImportError):  # the child says what is missing, as a skip reason
            importlib.import_module(name)


def _child(extractor: Extractor, data: bytes, limits: Limits, fd: int) -> None:
    code = 0
    try:
        _die_with_parent()
        faulthandler.disable()  # a crash here is reported by the parent, as a skip reason
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        _limit(limits)
        try:
            answer: dict[str, Any] = {"kind": "ok", "extraction": _encode(extractor.extract(data, limits))}
        except Unextractable as e:
            answer = {"kind": "skip", "reason": e.reason}
        except MemoryError:
            answer = {"kind": "memory"}
        except RecursionError:
            answer = {"kind": "skip", "reason": f"nested too deep for the {extractor.kind} reader"}
        except ImportError as e:
            answer = {"kind": "skip", "reason": f"the {extractor.kind} reader is not installed ({e.name}): "
                      "pip install 'curator[attachments]'"}  # fmt: skip
        except Exception as e:  # the library's own errors, whatever a damaged file raises
            answer = {"kind": "skip", "reason": f"the {extractor.kind} reader failed on it ({type(e).__name__})"}
        view = memoryview(json.dumps(answer, ensure_ascii=False).encode("utf-8"))
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        code = 1
    finally:
        os._exit(code)


PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Linux kills this child when the indexer dies, however it dies (a SIGKILL runs no
    cleanup): an orphaned child would read on for nobody until its CPU limit."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the CPU limit still ends it


def _limit(limits: Limits) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (limits.max_seconds, limits.max_seconds + 1))
    # The child starts with the parent's whole address space (an MCP server may have a model
    # mapped): the limit is what it holds now plus what one attachment may cost.
    with open("/proc/self/statm", encoding="ascii") as f:
        held = int(f.read().split()[0]) * resource.getpagesize()
    budget = held + limits.max_memory
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (budget, budget))


def _collect(fd: int, pid: int, limits: Limits) -> tuple[bytes, bool, bool]:
    """What the child wrote, whether it wrote too much, and whether it stalled."""
    cap = limits.max_chars * 4 + 1024 * 1024  # UTF-8 and JSON escaping, and the headings
    parts: list[bytes] = []
    size = 0
    used, since = _cpu_of(pid), time.monotonic()
    while True:
        try:
            ready, _, _ = select.select([fd], [], [], 1.0)
        except InterruptedError:
            continue
        if not ready:
            now_used = _cpu_of(pid)
            if now_used != used:
                used, since = now_used, time.monotonic()
            elif time.monotonic() - since > STALL_SECONDS:
                os.kill(pid, signal.SIGKILL)
                return b"", False, True
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(parts), False, False
        size += len(chunk)
        if size > cap:
            os.kill(pid, signal.SIGKILL)
            return b"", True, False
        parts.append(chunk)


def _cpu_of(pid: int) -> int:
    """The child's CPU time so far, in clock ticks (-1 when it cannot be read: not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, IndexError, ValueError):
        return -1


def _reap(pid: int) -> int:
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except InterruptedError:
            continue
        except ChildProcessError:
            return 0


def _encode(x: Extraction) -> dict[str, Any]:
    return {
        "pages": list(x.pages),
        "headings": [[h.page, h.line, h.level, h.text] for h in x.headings],
        "title": x.title,
        "paged": x.paged,
        "extractor": x.extractor,
        "notes": list(x.notes),
    }


def _decode(d: dict[str, Any]) -> Extraction:
    """The child's answer, checked as untrusted input is: wrong types or out-of-range
    headings are a refusal, not an exception in the indexer."""
    try:
        pages = tuple(str(p) for p in d["pages"])
        headings = tuple(
            Heading(int(p), int(line), int(level), str(text))
            for p, line, level, text in d["headings"]
            if 0 <= int(p) < len(pages)
        )
        return Extraction(
            pages,
            headings,
            str(d["title"]) if d.get("title") is not None else None,
            bool(d["paged"]),
            str(d["extractor"]),
            tuple(str(n) for n in d.get("notes", ())),
        )
    except (KeyError, TypeError, ValueError):
        raise Unextractable("the reader's answer was malformed") from None
