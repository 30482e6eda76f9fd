"""Running an extractor where a hostile file can do no harm: a forked child process with a
CPU-time limit, an address-space limit and a cap on the text it may send back.

A PDF can be made to cost anything: a content stream that inflates to gigabytes, objects
nested a hundred thousand deep, a page tree that never ends. PDFium is C, so no limit
inside the process holds it, and a crash there would take the indexer with it. The child
is forked (the library is already imported) and answers with JSON, never pickle: a child
that a crafted file took over could send a pickle that runs code in the indexer.

One child reads a batch of files, one after another, each under its own CPU limit (the
child lowers its soft limit to what it has used plus ``max_seconds`` before each file) and
the one memory limit; it answers file by file. Measured on 210 PDFs of SciFact abstracts,
a fork per file cost more than the extraction itself (a fork and an exit of the indexer's
address space, and the wake-ups between them, on a loaded machine: about 100 ms a file);
a batch pays that once. A file that kills the child (its CPU limit, a crash, its memory) is
the one it was reading: it is refused with the reason, and a new child takes the rest.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import faulthandler
import functools
import importlib
import json
import math
import os
import resource
import select
import signal
import struct
import time
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from typing import Any

from curator.attachments.base import Extraction, Extractor, Heading, Limits, Unextractable

STALL_SECONDS = 30
"""Wall-clock time a child may go without using any CPU (blocked, stopped) before it is killed:
one that computes is stopped by its CPU limit, however slowly a loaded machine lets it run."""
FRAME = struct.Struct(">Q")
"""Each answer's length, before its JSON."""

Work = tuple[Extractor, bytes]
Result = Extraction | Unextractable


def extract(extractor: Extractor, data: bytes, limits: Limits) -> Extraction:
    """``extractor.extract(data)`` in a child held to ``limits``; Unextractable with the
    reason when the file cannot be read or broke a limit."""
    (got,) = extract_many([(extractor, data)], limits)
    if isinstance(got, Unextractable):
        raise got
    return got


def extract_many(work: Sequence[Work], limits: Limits) -> list[Result]:
    """Each file of ``work`` read as ``extract`` reads it, in as few children as its files
    allow: an Extraction, or the Unextractable that says why not, for each, in order."""
    results: list[Result] = []
    while len(results) < len(work):
        rest = work[len(results) :]
        answered, death = _batch(rest, limits)
        results.extend(answered)
        if death is not None:  # the child died on the next file: that one is refused
            results.append(Unextractable(death))
    return results


def _batch(work: Sequence[Work], limits: Limits) -> tuple[list[Result], str | None]:
    """The answers one child gave, in order, and why it died on the file after them (None: it did not)."""
    for extractor, _data in work:
        _preload(extractor)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(work, limits, write_fd)
    os.close(write_fd)
    answers: list[Result] = []
    death: str | None = None
    try:
        for raw in _frames(read_fd, pid, limits):
            if isinstance(raw, str):  # the parent stopped it: too much text, or stalled
                death = raw
                break
            extractor = work[len(answers)][0]
            answers.append(_answer(extractor, raw, limits))
            if len(answers) == len(work):
                break
    finally:
        os.close(read_fd)
        if len(answers) < len(work):  # stopped, or interrupted (Ctrl-C): the child goes too
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    status = _reap(pid)
    if len(answers) < len(work) and death is None:
        death = _death(work[len(answers)][0], status, limits)
    return answers, death


def _death(extractor: Extractor, status: int, limits: Limits) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            return f"needed more than {limits.max_seconds} s of CPU (attachments.max_seconds); stopped"
        return (
            f"the {extractor.kind} reader crashed on it ({signal.Signals(sig).name}), or ran out of memory "
            f"(attachments.max_memory_mb is {limits.max_memory // (1024 * 1024)})"
        )
    return f"the {extractor.kind} reader stopped without an answer"


def _answer(extractor: Extractor, raw: bytes, limits: Limits) -> Result:
    try:
        answer = json.loads(raw.decode("utf-8"))
        kind = answer["kind"]
    except (ValueError, KeyError, TypeError):
        return Unextractable(f"the {extractor.kind} reader's answer was malformed")
    if kind == "memory":
        return Unextractable(
            f"needed more than {limits.max_memory // (1024 * 1024)} MB of memory (attachments.max_memory_mb); stopped"
        )
    if kind != "ok":
        return Unextractable(str(answer.get("reason") or "unreadable"))
    try:
        got = _decode(answer["extraction"])
    except Unextractable as e:
        return e
    if sum(len(p) for p in got.pages) > limits.max_chars:
        return Unextractable(f"more than {limits.max_chars:,} characters of text")
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


def _child(work: Sequence[Work], limits: Limits, fd: int) -> None:
    code = 0
    try:
        _die_with_parent()
        faulthandler.disable()  # a crash here is reported by the parent, as a skip reason
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        # The hard limit bounds the whole batch; each file gets its own soft limit below, whole
        # seconds as the kernel counts them: between max_seconds and one more.
        hard = math.ceil(_cpu_used()) + len(work) * limits.max_seconds + 1
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
        _limit_memory(limits)
        for extractor, data in work:
            soft = min(hard, math.ceil(_cpu_used()) + limits.max_seconds)
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
            view = memoryview(_run(extractor, data, limits))
            view = memoryview(FRAME.pack(len(view)) + bytes(view))
            while view:
                view = view[os.write(fd, view) :]
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _run(extractor: Extractor, data: bytes, limits: Limits) -> bytes:
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
    return json.dumps(answer, ensure_ascii=False).encode("utf-8")


PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Linux kills this child when the indexer dies, however it dies (a SIGKILL runs no
    cleanup): an orphaned child would read on for nobody until its CPU limit."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the CPU limit still ends it


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _limit_memory(limits: Limits) -> None:
    # The child starts with the parent's whole address space (an MCP server may have a model
    # mapped): the limit is what it holds now plus what one attachment may cost.
    with open("/proc/self/statm", encoding="ascii") as f:
        held = int(f.read().split()[0]) * resource.getpagesize()
    budget = held + limits.max_memory
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (budget, budget))


def _frames(fd: int, pid: int, limits: Limits) -> Any:
    """Each answer the child writes, as bytes; a str (the reason) when the parent stops it:
    an answer over the cap, or a child that stalled. Ends when the child closes the pipe."""
    cap = limits.max_chars * 4 + 1024 * 1024  # UTF-8 and JSON escaping, and the headings
    buffer = bytearray()
    used, since = _cpu_of(pid), time.monotonic()
    while True:
        while len(buffer) >= FRAME.size:
            (size,) = FRAME.unpack_from(buffer)
            if size > cap:
                yield f"more than {limits.max_chars:,} characters of text"
                return
            if len(buffer) < FRAME.size + size:
                break
            yield bytes(buffer[FRAME.size : FRAME.size + size])
            del buffer[: FRAME.size + size]
        try:
            ready, _, _ = select.select([fd], [], [], 1.0)
        except InterruptedError:
            continue
        if not ready:
            now_used = _cpu_of(pid)
            if now_used != used:
                used, since = now_used, time.monotonic()
            elif time.monotonic() - since > STALL_SECONDS:
                yield f"stopped computing for {STALL_SECONDS} s while it was read; stopped"
                return
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return
        buffer += chunk


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
