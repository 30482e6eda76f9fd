"""Times in the review UI: a hand-edited ``created`` without a zone, ages that move on with the
clock, and a crash inside the UI ending the way every command's bug does (exit 3, one line)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from curator.review.queue_rows import COLUMNS
from tests.builders import make_proposal, modify
from tests.conftest import GitVault
from tests.review.pilot import screen, until
from tests.review.test_reading import SIZES
from tests.review.test_review_app import _status, drive

AGE = [key for key, _label in COLUMNS].index("age")


def _naive(vault: GitVault, created: str = "2026-12-03T23:57:43") -> str:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second row."))
    return make_proposal(vault, [c], diff=d, title="Hand-edited time", overrides={"created": created})


@pytest.mark.parametrize("size", SIZES)
def test_a_created_time_without_a_zone_shows_an_age_and_a_finding(vault: GitVault, size: str) -> None:
    pid = _naive(vault)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.queue.entries[pid].report is not None, "the check")
        assert s.queue.entries[pid].title == "Hand-edited time"  # known by its title still
        age = str(s.queue.get_row(pid)[AGE])
        assert age[:-1].isdigit() and age[-1] in "smhd", age
        detail = str(s.query_one("#detail-text").render())
        assert "KP001" in detail and "created: must be in UTC" in detail, detail
        assert "Apply disabled: the validator rejects it: KP001" in _status(pilot)

    drive(vault.root, scenario, size=SIZES[size])


CRASH = """
import sys
from curator.review import queue_table

def broken(*args, **kwargs):
    raise RuntimeError("a bug in the queue's cells")

queue_table.cells = broken
from curator.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_crash_inside_the_ui_is_exit_3_with_one_line_and_no_traceback_on_screen(
    vault: GitVault, tmp_path: Path
) -> None:
    _naive(vault)
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH, "--vault", str(vault.root), "review"],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "TERM": "xterm-256color"},
        close_fds=True,
    )
    os.close(secondary)
    said = b""
    try:
        while True:
            ready, _, _ = select.select([primary], [], [], 60)
            assert ready, said
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            said += chunk
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        os.close(primary)
    text = said.decode("utf-8", "replace")
    assert code == 3, text
    assert "curator: internal error: RuntimeError: a bug in the queue's cells — this is a bug" in text, text
    assert "Traceback" not in text and "locals" not in text, text
    log = (tmp_path / "cache" / "curator" / "curator.log").read_text()
    assert "RuntimeError: a bug in the queue's cells" in log and "Traceback" in log
