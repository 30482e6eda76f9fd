"""A partial apply (``apply --only`` / ``--hunks``) on a file system with little or no room left:
the OS saying no is one line and exit 2 at every step, as for a whole apply, and nothing is lost.

The room left decides which write fails: the revision's folder, its ``superseded`` commit, the
work tree, or the commit of the apply itself (where libgit2 reported a loose object it could not
finish as a "target OID" that "doesn't exist", with no errno). So the test leaves 40 to 110 KB,
2 KB apart, each on a fresh copy of the vault."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.conftest import GitVault
from tests.gate_kit import blob_of, curator, git_diff, new_vault, plain_note, write_proposal
from tests.operations.test_gate_edges_apply import (
    _curator_line,
    _in_private_mounts,
    _one_line_environment_error,
    _result,
    needs_root,
)

ROOM_KB = range(52, 92, 4)


@pytest.fixture
def two(tmp_path: Path) -> GitVault:
    return new_vault(
        tmp_path / "two",
        {
            "notes/alpha.md": plain_note("kp:01J0000000000000000000ALPH", "Alpha", "one\ntwo\nthree\n"),
            "notes/beta.md": plain_note("kp:01J0000000000000000000BETA", "Beta", "four\nfive\nsix\n"),
        },
    )


def _two_file_proposal(v: GitVault) -> str:
    diff = git_diff(v, "notes/alpha.md", v.read("notes/alpha.md").replace("two", "2")) + git_diff(
        v, "notes/beta.md", v.read("notes/beta.md").replace("five", "5")
    )
    changes = [{"op": "modify", "path": p, "base_blob": blob_of(v, p)} for p in ("notes/alpha.md", "notes/beta.md")]
    pid = write_proposal(v, changes, diff=diff)
    v.commit(f"propose {pid}")
    return pid


@needs_root
@pytest.mark.parametrize("keep", [["--hunks", "notes/beta.md:1"], ["--only", "notes/alpha.md"]])
def test_a_full_disk_during_a_partial_apply_is_one_line_and_loses_nothing(
    two: GitVault, tmp_path: Path, keep: list[str]
) -> None:
    pid = _two_file_proposal(two)
    mnt = tmp_path / "small"
    mnt.mkdir()
    m = shlex.quote(str(mnt))
    lines = [f"mount -t tmpfs -o size=4m tmpfs {m}", f"export XDG_CACHE_HOME={shlex.quote(str(tmp_path / 'cache'))}"]
    for kb in ROOM_KB:
        v = shlex.quote(str(mnt / "v"))
        out = tmp_path / f"room-{kb}"
        lines += [
            f"cp -a {shlex.quote(str(two.root))} {v}",
            f"dd if=/dev/zero of={m}/fill bs=4k 2>/dev/null || true",
            f"truncate -s -{kb}K {m}/fill",
            _curator_line(mnt / "v", ["apply", pid, "--yes", *keep], out),
            f"git --no-optional-locks -C {v} status --porcelain -- notes > {shlex.quote(str(out))}.status",
            f"ls -a {v}/.git > {shlex.quote(str(out))}.gitdir",
            f"rm {m}/fill",
            f"mv {v} {shlex.quote(str(out))}.vault",
        ]
    script = "\n".join(lines)
    env_ok = _in_private_mounts(script, timeout=600)
    assert env_ok.returncode == 0, env_ok.stderr
    at_the_commit = 0
    for kb in ROOM_KB:
        out = tmp_path / f"room-{kb}"
        r = _result(out)
        if r.returncode != 0:
            _one_line_environment_error(r)
            assert "space" in r.stderr.lower(), (kb, r.stderr)
            at_the_commit += "git could not write the commit" in r.stderr
        assert "curator.lock" not in Path(f"{out}.gitdir").read_text().split(), kb
        if "is committed as" not in r.stderr:  # else the next command brings git's index level
            assert Path(f"{out}.status").read_text() == "", (kb, r.stderr)  # no note half-written
        # With room again, what the failed run began is finished or undone by the next command,
        # and the selection goes through: the proposal itself, or the revision left waiting.
        kept = GitVault(Path(f"{out}.vault"))
        queue = json.loads(curator(kept, "--json", "proposals").stdout)
        pending = [p["id"] for p in queue["proposals"]]
        if pending:
            assert len(pending) == 1, (kb, r.stderr, queue)
            again = curator(kept, "apply", pending[0], "--yes", *(keep if pending[0] == pid else []))
            assert again.returncode == 0, (kb, r.stderr, again.stderr)
        else:
            assert r.returncode == 0 or "is committed as" in r.stderr, (kb, r.stderr)
        assert kept.git("status", "--porcelain").stdout == "", kb  # nothing left behind
        head = kept.git("show", "HEAD:notes/beta.md", "HEAD:notes/alpha.md").stdout
        assert ("five" not in head) == (keep[0] == "--hunks") and ("two" not in head) == (keep[0] == "--only"), kb
    assert at_the_commit, "no room left reached the apply's own commit"
