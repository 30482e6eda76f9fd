"""The sandbox holds an extractor to its limits whatever the extractor does: CPU time,
memory, output size, crashes and exceptions all end as a named refusal, and the process
that asked goes on."""

from __future__ import annotations

import os
import resource

import pytest

from curator.attachments import sandbox
from curator.attachments.base import Limits, Unextractable
from tests.attachments.doubles import Misbehaving


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_a_well_behaved_extractor_answers_through_the_sandbox() -> None:
    got = sandbox.extract(Misbehaving("ok"), b"lamps on page one", Limits())
    assert got.pages == ("lamps on page one",)
    assert got.extractor.startswith("curator")


def test_an_extractor_that_never_stops_is_stopped_at_its_cpu_limit() -> None:
    before = _children_cpu()
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving("spin"), b"", Limits(max_seconds=1))
    assert e.value.reason == "needed more than 1 s of CPU (attachments.max_seconds); stopped"
    # The work it was allowed: its limit in the whole seconds the kernel counts, one more at most.
    assert _children_cpu() - before <= 2.5


def test_an_extractor_that_allocates_without_end_is_stopped_at_its_memory_limit() -> None:
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving("hog"), b"", Limits(max_memory=64 * 1024 * 1024))
    assert e.value.reason == "needed more than 64 MB of memory (attachments.max_memory_mb); stopped"


def test_a_crash_in_the_reader_is_a_refusal_not_a_crash_of_the_indexer() -> None:
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving("abort"), b"", Limits())
    assert e.value.reason.startswith("the test reader crashed on it (SIGABRT)")


def test_more_text_than_the_limit_is_refused_without_reading_it_all() -> None:
    """A child that floods the pipe is stopped at the cap; one under the cap but over the
    limit is refused when its answer is read."""
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving("flood"), b"", Limits(max_chars=1000))
    assert e.value.reason == "more than 1,000 characters of text"
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving("ok"), b"x" * 1001, Limits(max_chars=1000))
    assert e.value.reason == "more than 1,000 characters of text"
    assert sandbox.extract(Misbehaving("ok"), b"x" * 1000, Limits(max_chars=1000)).pages == ("x" * 1000,)


@pytest.mark.parametrize(
    ("how", "reason"),
    [("recurse", "nested too deep for the test reader"), ("raise", "the test reader failed on it (ValueError)")],
)
def test_what_a_library_raises_on_a_damaged_file_is_a_named_refusal(how: str, reason: str) -> None:
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving(how), b"", Limits())
    assert e.value.reason == reason


def test_the_childs_answer_is_checked_as_untrusted_input() -> None:
    """A child that a crafted file took over could answer anything: it is JSON, checked."""
    assert sandbox._decode({"pages": ["a"], "headings": [[5, 0, 1, "out of range"]], "title": None,
                            "paged": True, "extractor": ""}).headings == ()  # fmt: skip
    with pytest.raises(Unextractable):
        sandbox._decode({"pages": ["a"], "headings": [["x"]], "paged": True, "extractor": ""})


def test_a_child_that_stops_computing_is_killed_once_it_stalls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that waits on nothing uses no CPU, so no CPU limit ends it: the stall does."""
    monkeypatch.setattr(sandbox, "STALL_SECONDS", 1)
    before = _children_cpu()
    with pytest.raises(Unextractable) as e:
        sandbox.extract(Misbehaving("sleep"), b"", Limits())
    assert e.value.reason == "stopped computing for 1 s while it was read; stopped"
    assert _children_cpu() - before < 1


def test_one_child_reads_a_batch_and_a_file_that_kills_it_is_the_only_one_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forks: list[int] = []
    real_fork = os.fork

    def counted() -> int:
        pid = real_fork()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted)
    hows = ["ok", "spin", "ok", "abort", "ok", "raise", "flood", "ok"]
    work = [(Misbehaving(how), f"file {n}".encode()) for n, how in enumerate(hows)]
    got = sandbox.extract_many(work, Limits(max_seconds=1, max_chars=1000))
    shown = [g.pages[0] if not isinstance(g, Unextractable) else g.reason for g in got]
    assert shown == [
        "file 0",
        "needed more than 1 s of CPU (attachments.max_seconds); stopped",
        "file 2",
        "the test reader crashed on it (SIGABRT), or ran out of memory (attachments.max_memory_mb is 1024)",
        "file 4",
        "the test reader failed on it (ValueError)",  # answered: the child reads on
        "more than 1,000 characters of text",
        "file 7",
    ]
    # A child for the batch, and a new one after each file that killed its child (three).
    assert len(forks) == 4
