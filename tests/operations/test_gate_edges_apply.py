"""Holes between the gate and the write: apply, rebase, the vault lock, and OS errors. Each test
asserts what the fixed product must do; a hole still open is marked ``xfail(strict=True)``."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT, GitVault
from tests.gate_kit import at_a_terminal, blob_of, curator, git_diff, hash_object, new_vault, plain_note, write_proposal

KP_A = "kp:01J0000000000000000000ALPH"
LINES = "".join(f"line {i}\n" for i in range(1, 31))


@pytest.fixture
def av(tmp_path: Path) -> GitVault:
    return new_vault(
        tmp_path / "av",
        {
            "notes/alpha.md": plain_note(KP_A, "Alpha", "one\ntwo\nthree\n"),
            "notes/beta.md": plain_note("kp:01J0000000000000000000BETA", "Beta"),
        },
    )


def _modify_alpha(v: GitVault, old: str = "two", new: str = "2", commit: bool = True) -> str:
    text = v.read("notes/alpha.md")
    pid = write_proposal(
        v,
        [{"op": "modify", "path": "notes/alpha.md", "base_blob": blob_of(v, "notes/alpha.md")}],
        diff=git_diff(v, "notes/alpha.md", text.replace(old, new)),
    )
    if commit:
        v.commit(f"propose {pid}")
    return pid


def _one_line_environment_error(r: subprocess.CompletedProcess[str]) -> None:
    """Exit 2, one line saying what is wrong; never "internal error" (exit 3) for the OS saying no."""
    said = [line for line in r.stderr.splitlines() if line.startswith("curator:") and "warning" not in line]
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(said) == 1, r.stderr


# 11: a modify carrying `new file mode` ------------------------------------------------------


def test_a_modify_carrying_new_file_mode_is_judged_as_apply_judges_it(av: GitVault, cli) -> None:
    text = av.read("notes/alpha.md")
    section = git_diff(av, "notes/alpha.md", text.replace("two", "2")).split("\n")
    section.insert(1, "new file mode 100644")  # a creation's header on a modify
    pid = write_proposal(
        av,
        [{"op": "modify", "path": "notes/alpha.md", "base_blob": blob_of(av, "notes/alpha.md")}],
        diff="\n".join(section),
    )
    r = cli("--vault", av.root, "validate", "--format", "json", pid)
    report = json.loads(r.out)["proposals"][0]
    applied = curator(av, "apply", pid, "--yes")
    # What the validator says is what apply does: valid and applied, or refused by both.
    assert report["ok"] == (applied.returncode == 0), (report, applied.stderr)
    if not report["ok"]:
        assert "KP001" in {f["code"] for f in report["findings"]}, report


# 11: a rebase killed at each step -------------------------------------------------------------

REBASE_POINTS = [
    "propose:after-journal",
    "propose:mid-staging",
    "propose:after-publish",
    "decide:after-journal",
    "decide:after-commit",
    "decide:after-event",
    "decide:index-locked",
    "decide:after-index",
]


@pytest.mark.parametrize("point", REBASE_POINTS)
def test_a_killed_rebase_leaves_one_revision_pending_at_every_step(tmp_path: Path, point: str) -> None:
    v = new_vault(
        tmp_path / "v", {"notes/long.md": "---\nkp_id: kp:01J00000000000000000000LNG\ntitle: Long\n---\n" + LINES}
    )
    text = v.read("notes/long.md")
    old = write_proposal(
        v,
        [{"op": "modify", "path": "notes/long.md", "base_blob": blob_of(v, "notes/long.md")}],
        diff=git_diff(v, "notes/long.md", text.replace("line 20\n", "line twenty\n")),
    )
    v.commit("propose")
    v.write("notes/long.md", text.replace("line 17\n", "line seventeen\nand more\n"))
    v.commit("edit nearby: the proposal conflicts, a rebase merges it")
    killed = curator(v, "rebase", old, env={"CURATOR_FAULT": point})
    assert killed.returncode == 137, killed.stderr
    nxt = curator(v, "--json", "proposals", "--all")  # any command finishes or undoes the rebase
    assert nxt.returncode == 0, nxt.stderr
    status = {p["id"]: p["status"] for p in json.loads(nxt.stdout)["proposals"]}
    revisions = [pid for pid in status if pid != old]
    assert len(revisions) <= 1, status
    if revisions:  # the new revision is staged: then the old one is superseded by it
        assert status == {old: "superseded", revisions[0]: "pending"}, status
        events = (v.root / ".kp" / "proposals" / old / "events.jsonl").read_text()
        assert revisions[0] in events
        assert curator(v, "validate", revisions[0]).returncode == 0
    else:  # or nothing happened at all
        assert status == {old: "pending"}, status


# 10: the vault lock ---------------------------------------------------------------------------

# Loaded by every Python the test starts (a sitecustomize on PYTHONPATH): it makes two processes
# meet at the vault lock in the order that breaks a takeover, waiting on conditions (marker
# files in GATE_LOCK_DIR), never on guessed times, and whatever the lock's internals are: today
# an O_EXCL `.git/curator.lock`, or a kernel lock (flock/lockf) on anything in the git directory.
# - Every attempt (an open of `curator.lock`, a flock/lockf there) leaves `tried.PID`.
# - An unlink of `curator.lock` by a process that does not hold it (a takeover): the first to
#   get there waits until the other is there too, the second until the first has made its own.
# - Having the lock (the O_EXCL create, or the kernel lock): hold it until both processes have
#   tried, and a moment more, so that the other one meets it held.
RENDEZVOUS = textwrap.dedent(
    """
    import builtins, fcntl, os, time
    _DIR, _GIT = os.environ.get("GATE_LOCK_DIR"), os.environ.get("GATE_GIT_DIR", "")
    if _DIR:
        _open, _bopen, _unlink = os.open, builtins.open, os.unlink
        _held = []

        def _mark(name):
            os.close(_open(os.path.join(_DIR, name), os.O_WRONLY | os.O_CREAT, 0o644))

        def _wait(ok, limit=20.0):
            end = time.monotonic() + limit
            while not ok() and time.monotonic() < end:
                time.sleep(0.02)

        def _count(prefix):
            return len([n for n in os.listdir(_DIR) if n.startswith(prefix)])

        def _is_lock(p):
            try:
                return os.fsdecode(p).endswith("curator.lock")
            except TypeError:
                return False

        def _in_git_dir(fd):
            try:
                fd = fd if isinstance(fd, int) else fd.fileno()
                where = os.readlink(f"/proc/self/fd/{fd}")
            except (OSError, ValueError, AttributeError):
                return False
            return where == _GIT or where.startswith(_GIT + "/")

        def _hold():
            _held.append(True)
            _wait(lambda: _count("tried.") >= 2)
            time.sleep(0.5)

        def open_(path, flags, *a, **k):
            if _is_lock(path):
                _mark(f"tried.{os.getpid()}")
            fd = _open(path, flags, *a, **k)
            if _is_lock(path) and flags & os.O_EXCL:
                _mark("created")
                _hold()
            return fd

        def bopen(file, *a, **k):
            if not isinstance(file, int) and _is_lock(file):
                _mark(f"tried.{os.getpid()}")
            return _bopen(file, *a, **k)

        def unlink(path, *a, **k):
            if _is_lock(path) and not _held:
                _mark(f"unlinking.{os.getpid()}")
                try:
                    os.close(_open(os.path.join(_DIR, "first"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                    _wait(lambda: _count("unlinking.") >= 2)
                except FileExistsError:
                    _wait(lambda: os.path.exists(os.path.join(_DIR, "created")))
            return _unlink(path, *a, **k)

        def _locking(orig):
            def locked(fd, op, *a, **k):
                ours = _in_git_dir(fd) and op & fcntl.LOCK_EX
                if ours:
                    _mark(f"tried.{os.getpid()}")
                got = orig(fd, op, *a, **k)
                if ours and not _held:
                    _hold()
                return got
            return locked

        os.open, builtins.open, os.unlink, os.remove = open_, bopen, unlink, unlink
        fcntl.flock, fcntl.lockf = _locking(fcntl.flock), _locking(fcntl.lockf)
    """
)


def _dead_pid() -> int:
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def test_a_lock_left_by_a_dead_holder_is_taken_by_exactly_one(av: GitVault, tmp_path: Path) -> None:
    first, second = _modify_alpha(av, "one", "1"), _modify_alpha(av, "three", "3")
    third = _modify_alpha(av, "two", "2")
    lock = av.root / ".git" / "curator.lock"
    lock.write_text(f"{_dead_pid()} apply (killed)\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(RENDEZVOUS)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = {
        **os.environ,
        "CURATOR_EMBEDDER": "none",
        "GATE_LOCK_DIR": str(marks),
        "GATE_GIT_DIR": os.path.realpath(av.root / ".git"),
        "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
    }
    procs = []
    for n, pid in enumerate((first, second)):
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "curator", "--vault", str(av.root), "reject", pid, "--reason", f"no {n}"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outputs = [p.communicate(timeout=60) for p in procs]
    results = [(p.returncode, err) for p, (_out, err) in zip(procs, outputs, strict=True)]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results  # exactly one decides
    refused = next(err for code, err in results if code == 2)
    assert "holds" in refused or "lock" in refused, refused
    later = curator(av, "apply", third, "--yes")  # and the lock is free again afterwards
    assert later.returncode == 0, later.stderr


# 9: OS errors are environment errors --------------------------------------------------------

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="needs root and unshare(1): a private mount namespace for a read-only bind mount or a tiny tmpfs",
)


def _in_private_mounts(script: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh) in a mount namespace of its own: its mounts vanish with it."""
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-euc", script],
        env={**os.environ, "CURATOR_EMBEDDER": "none"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _curator_line(vault: Path, args: list[str], out: Path) -> str:
    """A shell line running curator on ``vault``, its exit code and stderr saved under ``out``."""
    cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "curator", "--vault", str(vault), *args])
    o = shlex.quote(str(out))
    return f"{cmd} >{o}.out 2>{o}.err && echo 0 >{o}.rc || echo $? >{o}.rc"


def _result(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess([], int(Path(f"{out}.rc").read_text()), "", Path(f"{out}.err").read_text())


READ_ONLY_COMMANDS = {
    "propose": ["propose", "--title", "t", "--rationale", "r"],
    "apply": ["apply", "{pid}", "--yes"],
    "reject": ["reject", "{pid}", "--reason", "no"],
    "digest": ["digest"],
    "hooks-install": ["hooks", "install"],
}


@needs_root
@pytest.mark.parametrize("name", sorted(READ_ONLY_COMMANDS))
def test_a_read_only_vault_is_an_environment_error(av: GitVault, tmp_path: Path, name: str) -> None:
    pid = _modify_alpha(av)
    av.write("notes/beta.md", av.read("notes/beta.md") + "an edit to propose\n")
    assert curator(av, "index").returncode == 0  # the index lives in the (writable) cache
    args = [a.replace("{pid}", pid) for a in READ_ONLY_COMMANDS[name]]
    out = tmp_path / "result"
    root = shlex.quote(str(av.root))
    script = f"mount --bind {root} {root}\nmount -o remount,ro,bind {root}\n" + _curator_line(av.root, args, out)
    env_ok = _in_private_mounts(script)
    assert env_ok.returncode == 0, env_ok.stderr
    r = _result(out)
    _one_line_environment_error(r)
    assert "read-only" in r.stderr.lower(), r.stderr


LONG = "n" * 300


@pytest.mark.parametrize(
    "name",
    [
        "propose-create",
        "read",
        "validate",
        "apply",
    ],
)
def test_a_300_character_path_component_is_a_clear_error(av: GitVault, tmp_path: Path, name: str) -> None:
    path = f"notes/{LONG}.md"
    source = tmp_path / "new.md"
    source.write_text(plain_note("kp:01J000000000000000000000LL", "Long"))
    if name == "propose-create":
        # No file system holds such a name: the validator refuses the path (KP002) before
        # anything is written, as it refuses any path that is not a vault's.
        r = curator(av, "propose", "--create", f"{path}={source}", "--title", "t", "--rationale", "r")
        assert r.returncode == 1 and "KP002" in r.stdout and "bytes long" in r.stdout, (r.stdout, r.stderr)
        assert "internal error" not in r.stderr and not list((av.root / ".kp" / "proposals").glob("*/files/notes/n*"))
        return
    if name == "read":
        _one_line_environment_error(curator(av, "read", path))
        return
    # A proposal folder written by hand (its files/ cannot hold the name either).
    pid = write_proposal(av, [{"op": "create", "path": path}])
    if name == "validate":
        r = curator(av, "--json", "validate", pid)
        assert r.returncode == 1, r.stderr  # a finding on the proposal, not a crash
        found = json.loads(r.stdout)["proposals"][0]["findings"]
        assert any(f["path"] == path and f["code"] == "KP002" for f in found), found  # no such name can exist
    else:
        r = curator(av, "apply", pid, "--yes")
        assert r.returncode in (1, 2) and "internal error" not in r.stderr, r.stderr


@needs_root
def test_a_full_disk_is_an_environment_error_and_leaves_no_lock(av: GitVault, tmp_path: Path) -> None:
    pid = _modify_alpha(av)
    mnt = tmp_path / "small"
    mnt.mkdir()
    vault = mnt / "v"
    out1, out2 = tmp_path / "full", tmp_path / "freed"
    m, v = shlex.quote(str(mnt)), shlex.quote(str(vault))
    script = "\n".join(
        [
            f"mount -t tmpfs -o size=4m tmpfs {m}",
            f"cp -a {shlex.quote(str(av.root))} {v}",
            f"dd if=/dev/zero of={m}/fill bs=4k 2>/dev/null || true",
            _curator_line(vault, ["apply", pid, "--yes"], out1),
            f"ls -a {v}/.git > {shlex.quote(str(tmp_path / 'gitdir.txt'))}",
            f"rm {m}/fill",
            _curator_line(vault, ["apply", pid, "--yes"], out2),
        ]
    )
    env_ok = _in_private_mounts(script)
    assert env_ok.returncode == 0, env_ok.stderr
    full = _result(out1)
    _one_line_environment_error(full)
    assert "space" in full.stderr.lower(), full.stderr
    assert "curator.lock" not in (tmp_path / "gitdir.txt").read_text().split()
    freed = _result(out2)
    assert freed.returncode == 0, freed.stderr  # with room again, the decision goes through


@needs_root
def test_a_full_disk_in_the_index_folder_is_an_environment_error_and_the_index_serves_on(
    av: GitVault, tmp_path: Path
) -> None:
    """The cache (where the index lives) on a tiny file system: filled, `curator index` says so in
    one line, as search does, and the epoch it had is kept; with room again, both work."""
    mnt = tmp_path / "cache"
    mnt.mkdir()
    m = shlex.quote(str(mnt))
    av.write("notes/zebra.md", plain_note("kp:01J0000000000000000000ZEBR", "Zebra", "Zebrafish regrow fins.\n"))
    outs = {name: tmp_path / name for name in ("first", "full", "search", "index-full", "freed", "found")}

    def line(name: str, args: list[str]) -> str:
        return _curator_line(av.root, args, outs[name])

    script = "\n".join(
        [
            f"mount -t tmpfs -o size=4m tmpfs {m}",
            f"export XDG_CACHE_HOME={m}",
            f"mv {shlex.quote(str(av.root / 'notes' / 'zebra.md'))} {shlex.quote(str(tmp_path / 'zebra.md'))}",
            line("first", ["index"]),
            f"dd if=/dev/zero of={m}/fill bs=4k 2>/dev/null || true",
            f"mv {shlex.quote(str(tmp_path / 'zebra.md'))} {shlex.quote(str(av.root / 'notes' / 'zebra.md'))}",
            line("full", ["index", "rebuild"]),
            line("search", ["search", "alpha", "--mode", "lexical"]),
            line("index-full", ["index"]),
            f"rm {m}/fill",
            line("freed", ["index"]),
            line("found", ["search", "zebrafish", "--mode", "lexical"]),
        ]
    )
    env_ok = _in_private_mounts(script)
    assert env_ok.returncode == 0, env_ok.stderr
    assert _result(outs["first"]).returncode == 0, _result(outs["first"]).stderr
    full = _result(outs["full"])
    _one_line_environment_error(full)
    assert "space" in full.stderr.lower(), full.stderr
    # A reader of the WAL database must grow its shared-memory file first: on a full disk that
    # is SQLite's "disk I/O error", said as what it is, and never taken for a damaged index.
    for name in ("search", "index-full"):
        refused = _result(outs[name])
        _one_line_environment_error(refused)
        said = refused.stderr.lower()
        assert "no space left" in said and "free some space" in said and "corrupt" not in said, refused.stderr
    freed = _result(outs["freed"])
    assert freed.returncode == 0 and "corrupt" not in freed.stderr, freed.stderr
    found = Path(f"{outs['found']}.out").read_text()
    assert "notes/zebra.md" in found and _result(outs["found"]).returncode == 0, found
    assert not list(mnt.glob("**/*quarantine*")) and not list(mnt.glob("**/*.corrupt*"))


@needs_root
@pytest.mark.parametrize("name", sorted(READ_ONLY_COMMANDS))
def test_a_full_vault_disk_is_an_environment_error_and_loses_nothing(av: GitVault, tmp_path: Path, name: str) -> None:
    """Every command that writes the vault, on a file system with no room left: one line, exit 2,
    and the uncommitted edit it was given is still there, byte for byte."""
    pid = _modify_alpha(av)
    edited = av.read("notes/beta.md") + "an edit to propose\n"
    av.write("notes/beta.md", edited)
    mnt = tmp_path / "small"
    mnt.mkdir()
    vault = mnt / "v"
    out = tmp_path / "result"
    m, v = shlex.quote(str(mnt)), shlex.quote(str(vault))
    args = [a.replace("{pid}", pid) for a in READ_ONLY_COMMANDS[name]]
    kept = tmp_path / "kept"
    script = "\n".join(
        [
            f"mount -t tmpfs -o size=8m tmpfs {m}",
            f"cp -a {shlex.quote(str(av.root))} {v}",
            f"export XDG_CACHE_HOME={shlex.quote(str(tmp_path / 'cache'))}",
            _curator_line(vault, ["index"], tmp_path / "indexed"),
            f"dd if=/dev/zero of={m}/fill bs=4k 2>/dev/null || true",
            _curator_line(vault, args, out),
            f"cp {v}/notes/beta.md {shlex.quote(str(kept))}",
            f"ls -a {v}/.git > {shlex.quote(str(tmp_path / 'gitdir.txt'))}",
        ]
    )
    env_ok = _in_private_mounts(script)
    assert env_ok.returncode == 0, env_ok.stderr
    r = _result(out)
    _one_line_environment_error(r)
    assert "space" in r.stderr.lower(), r.stderr
    assert kept.read_text() == edited
    assert "curator.lock" not in (tmp_path / "gitdir.txt").read_text().split()


# 1: the commit holds the change the validator judged ------------------------------------------

KP_D, KP_E = "kp:01J00000000000000000000DDD", "kp:01J00000000000000000000EEE"
FENCED = f"---\nkp_id: {KP_D}\ntitle: x\n---\nExample frontmatter:\n\n```yaml\n---\nkp_id: {KP_D}\ntitle: x\n---\n```\n"


def test_a_change_whose_lines_match_elsewhere_in_head_s_version_is_not_committed_there(tmp_path: Path) -> None:
    """The note's own frontmatter and a fenced copy of it hold the same lines. The user edits the
    title without committing; a hunk that changes the kp_id then matches only the fenced copy in
    the work tree (valid: an example changes) but the real frontmatter first in HEAD's version,
    which the commit is made from. Committing that would change a committed kp_id."""
    v = new_vault(tmp_path / "fv", {"notes/d.md": FENCED})
    edited = FENCED.replace("title: x\n", "title: y (an edit of mine)\n", 1)
    v.write("notes/d.md", edited)
    diff = (
        "diff --git a/notes/d.md b/notes/d.md\n--- a/notes/d.md\n+++ b/notes/d.md\n"
        f"@@ -2,3 +2,3 @@\n-kp_id: {KP_D}\n+kp_id: {KP_E}\n title: x\n ---\n"
    )
    # What kp_propose records: the blob the agent read, the work tree's.
    pid = write_proposal(
        v, [{"op": "modify", "path": "notes/d.md", "base_blob": hash_object(v, "notes/d.md")}], diff=diff
    )
    checked = curator(v, "--json", "validate", pid)
    assert checked.returncode == 0, checked.stdout  # valid where it applies: the fenced example
    head_before = v.git("rev-parse", "HEAD").stdout
    r = curator(v, "apply", pid, "--yes")
    assert r.returncode != 0 and "cannot be separated" in r.stderr and "internal error" not in r.stderr, r.stderr
    assert v.git("rev-parse", "HEAD").stdout == head_before
    assert v.git("show", "HEAD:notes/d.md").stdout == FENCED and v.read("notes/d.md") == edited


def test_a_change_beside_the_user_s_own_edit_is_committed_with_the_edit_left_on_top(tmp_path: Path) -> None:
    v = new_vault(tmp_path / "fv", {"notes/d.md": FENCED + "".join(f"line {i}\n" for i in range(1, 21))})
    text = v.read("notes/d.md")
    diff = git_diff(v, "notes/d.md", text.replace("line 3\n", "line three\n"))
    edited = text.replace("line 18\n", "line 18, my edit\n")
    v.write("notes/d.md", edited)
    pid = write_proposal(
        v, [{"op": "modify", "path": "notes/d.md", "base_blob": hash_object(v, "notes/d.md")}], diff=diff
    )
    r = curator(v, "apply", pid, "--yes")
    assert r.returncode == 0, r.stderr
    assert v.git("show", "HEAD:notes/d.md").stdout == text.replace("line 3\n", "line three\n")
    assert v.read("notes/d.md") == edited.replace("line 3\n", "line three\n")


def test_what_apply_showed_at_its_prompt_is_what_it_applies(av: GitVault) -> None:
    """`curator apply ULID` at a terminal shows the diff and asks; an agent rewrites the diff (to
    another valid change) while the person reads. Answering yes applies nothing."""
    pid = _modify_alpha(av)
    head = av.git("rev-parse", "HEAD").stdout
    diff = av.root / ".kp" / "proposals" / pid / "changes.diff"

    def rewrite() -> None:
        diff.write_text(diff.read_text().replace("+2", "+2, and send every note to evil.example"))

    code, text = at_a_terminal(av, ["apply", pid], rewrite)
    assert code != 0 and "changed since it was shown" in text, text
    assert av.git("rev-parse", "HEAD").stdout == head and "evil.example" not in av.read("notes/alpha.md")


@pytest.mark.parametrize("held", ["note", "symlink"])
def test_a_create_onto_a_path_head_holds_is_kp005_where_apply_would_commit_over_it(
    av: GitVault, cli, held: str
) -> None:
    """The work tree lost the file (removed, not committed); a create there would be committed over
    HEAD's entry: a note's kp_id changed with no modify's rules, or a symlink's mode kept."""
    path = "notes/alpha.md" if held == "note" else "notes/link.md"
    if held == "symlink":
        os.symlink("beta.md", av.root / path)
        av.commit("a symlink")
    (av.root / path).unlink()
    text = plain_note("kp:01J000000000000000000OTHER", "Other")
    pid = write_proposal(av, [{"op": "create", "path": path}], files={path: text})
    r = cli("--vault", av.root, "--json", "validate", pid)
    found = json.loads(r.out)["proposals"][0]["findings"]
    assert r.code == 1 and any(f["code"] == "KP005" and "HEAD holds" in f["message"] for f in found), found
    head = av.git("rev-parse", "HEAD").stdout
    applied = cli("--vault", av.root, "apply", pid, "--yes")
    assert applied.code == 1 and av.git("rev-parse", "HEAD").stdout == head, applied
    # Staged with the removal, the same proposal is the hook's to judge: the removal commits first.
    av.git("add", "-A")
    staged = cli("--vault", av.root, "--json", "validate", "--staged")
    assert all(f["code"] != "KP005" for p in json.loads(staged.out)["proposals"] for f in p["findings"]), staged.out


# A committed proposal is decided as committed ---------------------------------------------------


def _edit_committed_diff(av: GitVault, pid: str) -> Path:
    diff = av.root / ".kp" / "proposals" / pid / "changes.diff"
    diff.write_text(diff.read_text().replace("+2", "+2, and send every note to evil.example"))
    return diff


def test_a_committed_proposal_edited_in_the_work_tree_is_not_applied(av: GitVault) -> None:
    """The committed copy is what was reviewed (a pull request, the hook); the edit is valid too,
    so checking it again would pass it, and the apply commit would carry it silently."""
    pid = _modify_alpha(av)
    _edit_committed_diff(av, pid)
    head = av.git("rev-parse", "HEAD").stdout
    r = curator(av, "apply", pid, "--yes")
    assert r.returncode == 1 and "differs from its committed copy" in r.stderr and "changes.diff" in r.stderr, r.stderr
    assert av.git("rev-parse", "HEAD").stdout == head and "evil.example" not in av.read("notes/alpha.md")
    av.git("restore", f".kp/proposals/{pid}")
    assert curator(av, "apply", pid, "--yes").returncode == 0  # restored: what was committed applies


def test_a_decision_on_an_edited_committed_proposal_keeps_its_committed_copy(av: GitVault) -> None:
    pid = _modify_alpha(av)
    base = av.git("rev-parse", "HEAD").stdout.strip()
    diff = _edit_committed_diff(av, pid)
    r = curator(av, "reject", pid, "--reason", "not now")
    assert r.returncode == 0, r.stderr
    changed = av.git("diff", "--name-only", f"{base}..HEAD").stdout.split()
    assert changed == [f".kp/proposals/{pid}/events.jsonl"], changed
    assert "evil.example" in diff.read_text()  # the edit is left in the work tree, uncommitted, not lost
    ci = curator(av, "validate", "--commits", f"{base}..HEAD")
    assert ci.returncode == 0, ci.stdout + ci.stderr


def test_validate_commits_refuses_a_decision_that_rewrites_the_proposal_it_decides(av: GitVault) -> None:
    pid = _modify_alpha(av)
    base = av.git("rev-parse", "HEAD").stdout.strip()
    _edit_committed_diff(av, pid)
    events = av.root / ".kp" / "proposals" / pid / "events.jsonl"
    events.write_text(
        json.dumps({"at": "2026-11-29T10:00:00Z", "event": "rejected", "by": "human:alice", "reason": "no"}) + "\n"
    )
    av.git("add", "-A")
    av.git(
        "commit",
        "-q",
        "--no-verify",
        "-m",
        f"Rejected proposal {pid}\n\nno\n\nKp-Proposal: {pid}\nKp-Event: rejected\nKp-By: human:alice",
    )
    ci = curator(av, "--json", "validate", "--commits", f"{base}..HEAD")
    assert ci.returncode == 1 and "rewrites the proposal it decides" in ci.stdout, ci.stdout


def test_apply_judges_with_the_committed_config_not_a_work_tree_edit_of_it(av: GitVault) -> None:
    """Emptying ``producers.paths`` without committing it would let apply commit a change to a
    producer's file that the hook and CI, reading the committed config, refuse (KP003)."""
    av.write(".curio/feed.md", plain_note("kp:01J0000000000000000000FEED", "Feed", "generated\n"))
    av.commit("a producer's file")
    text = av.read(".curio/feed.md")
    pid = write_proposal(
        av,
        [{"op": "modify", "path": ".curio/feed.md", "base_blob": blob_of(av, ".curio/feed.md")}],
        diff=git_diff(av, ".curio/feed.md", text.replace("generated", "edited by hand")),
    )
    config = av.root / ".kp" / "config.yaml"
    config.write_text(config.read_text().replace('paths: [".curio/**"]', "paths: []"))
    head = av.git("rev-parse", "HEAD").stdout
    r = curator(av, "apply", pid, "--yes")
    assert r.returncode == 1 and "KP003" in r.stderr, r.stderr
    assert av.git("rev-parse", "HEAD").stdout == head and av.read(".curio/feed.md") == text


@pytest.mark.parametrize("op", ["create", "modify"])
def test_crlf_in_a_proposal_is_committed_as_git_add_would_store_it(av: GitVault, op: str) -> None:
    """`*.md text eol=lf`: a CRLF line is stored LF by `git add`. Committed raw, the note showed
    as modified right after the apply and the next `commit -a` rewrote it."""
    av.write(".gitattributes", "*.md text eol=lf\n.kp/proposals/** -text\n")
    av.commit("attributes")
    if op == "create":
        path = "notes/crlf.md"
        text = "---\r\nkp_id: kp:01J00000000000000000000CRLF\r\ntitle: crlf\r\n---\r\nbody\r\n"
        pid = write_proposal(av, [{"op": "create", "path": path}], files={path: text})
        expected = text.replace("\r\n", "\n")
    else:
        path = "notes/alpha.md"
        old = av.read(path)
        diff = git_diff(av, path, old.replace("two\n", "2\n")).replace("+2\n", "+2\r\n")
        pid = write_proposal(av, [{"op": "modify", "path": path, "base_blob": blob_of(av, path)}], diff=diff)
        expected = old.replace("two\n", "2\n")
    av.commit(f"propose {pid}")
    base = av.git("rev-parse", "HEAD").stdout.strip()
    r = curator(av, "apply", pid, "--yes")
    assert r.returncode == 0, r.stderr
    assert av.git("show", f"HEAD:{path}").stdout == expected
    assert av.git("status", "--porcelain", "--", path).stdout == ""
    ci = curator(av, "validate", "--commits", f"{base}..HEAD")
    assert ci.returncode == 0, ci.stdout + ci.stderr


def test_apply_at_a_terminal_does_not_ask_about_a_decided_proposal(av: GitVault) -> None:
    pid = _modify_alpha(av)
    assert curator(av, "reject", pid, "--reason", "no").returncode == 0
    code, text = at_a_terminal(av, ["apply", pid])
    assert code == 1 and "already rejected" in text and "apply it?" not in text, text
