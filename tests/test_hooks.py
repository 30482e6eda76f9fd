"""The hook matrix: Curator's installed git hook and the pre-commit framework, each making real commits.

Every case is a real `git commit` in a temporary repository. The installed hook runs
with a PATH that has no `curator` and with the interpreter recorded by
`curator hooks install --python` being a wrapper that logs each start, so a commit
that touches no note can be shown not to start Python at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.builders import created, make_proposal, modify
from tests.conftest import ROOT, GitVault, make_git_vault, note
from tests.test_precommit import BIN

KP_A = "kp:01J000000000000000000000AA"
KP_B = "kp:01J000000000000000000000BB"
PLAIN_PATH = "/usr/local/bin:/usr/bin:/bin"


class Setup:
    """A vault, the way its commits are checked, and a log of Python starts."""

    def __init__(self, v: GitVault, env: dict[str, str], log: Path, kind: str, repo: Path = ROOT) -> None:
        self.v, self.env, self.log, self.kind, self.repo = v, env, log, kind, repo

    def commit(self, *args: str) -> subprocess.CompletedProcess[str]:
        if self.kind == "framework":
            cmd = [BIN + "/pre-commit", "try-repo", str(self.repo), "curator-validate"]
            r = subprocess.run(cmd, cwd=self.v.root, capture_output=True, text=True, env=self.env, timeout=900)
            if r.returncode != 0:
                return r
            return subprocess.run(
                ["git", "commit", "-q", "--no-verify", "-m", "c", *args], cwd=self.v.root, capture_output=True, text=True
            )
        return subprocess.run(
            ["git", "commit", "-q", "-m", "c", *args], cwd=self.v.root, capture_output=True, text=True, env=self.env
        )

    def starts(self) -> int:
        return len(self.log.read_text().splitlines()) if self.log.exists() else 0


def _vault(tmp: Path) -> GitVault:
    v = make_git_vault(tmp / "v")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    v.write("notes/a.md", note(KP_A, "A", "First.\n\nSecond.\n"))
    v.write("data/table.csv", "a,b\n")
    v.commit()
    return v


def _recorder(tmp: Path, log: Path) -> Path:
    wrapper = tmp / "recorded-python"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


def _installed(tmp_path: Path, cli) -> Setup:
    v = _vault(tmp_path)
    log = tmp_path / "python-starts.log"
    assert cli("--vault", v.root, "hooks", "install", "--python", _recorder(tmp_path, log)).code == 0
    env = {k: val for k, val in os.environ.items() if not k.startswith(("CURATOR_", "PRE_COMMIT"))}
    env["PATH"] = PLAIN_PATH
    return Setup(v, env, log, "installed")


def _framework(tmp_path: Path, home: Path, repo: Path) -> Setup:
    v = _vault(tmp_path)
    env = dict(os.environ)
    env["PATH"] = BIN + os.pathsep + PLAIN_PATH  # pre-commit itself; its hook gets its own environment
    env["PRE_COMMIT_HOME"] = str(home)
    return Setup(v, env, tmp_path / "none.log", "framework", repo)


@pytest.fixture(params=["installed", pytest.param("framework", marks=pytest.mark.xdist_group("pre-commit"))])
def hooked(request: pytest.FixtureRequest, tmp_path: Path, cli) -> Setup:
    if request.param == "installed":
        return _installed(tmp_path, cli)
    home, repo = request.getfixturevalue("pre_commit_home"), request.getfixturevalue("framework_repo")
    return _framework(tmp_path, home, repo)


def _stage(v: GitVault, path: str, content: str) -> None:
    """Stage ``content`` for ``path`` without touching the work tree (what `git add -p` leaves)."""
    oid = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=v.root, input=content, capture_output=True, text=True, check=True
    ).stdout.strip()
    v.git("update-index", "--add", "--cacheinfo", f"100644,{oid},{path}")


Case = Callable[[GitVault], None]


def _staged_valid_unstaged_invalid(v: GitVault) -> None:
    _stage(v, "notes/a.md", note(KP_A, "A", "First, edited.\n\nSecond.\n"))
    v.write("notes/a.md", note(KP_B, "A", "First, edited.\n\nSecond, and a forged id.\n"))


def _staged_invalid_unstaged_valid(v: GitVault) -> None:
    _stage(v, "notes/a.md", note(KP_B, "A", "First, edited.\n\nSecond.\n"))
    v.write("notes/a.md", note(KP_A, "A", "First, edited.\n\nSecond, more.\n"))


def _staged_then_reverted(v: GitVault) -> None:
    original = v.read("notes/a.md")
    v.write("notes/a.md", original.replace(KP_A, KP_B))
    v.git("add", "notes/a.md")
    v.write("notes/a.md", original)


def _proposal_without_its_diff(v: GitVault) -> None:
    c, d = modify(v, "notes/a.md", v.read("notes/a.md").replace("Second.", "Second, proposed."))
    pid = make_proposal(v, [c], diff=d)
    v.git("add", f".kp/proposals/{pid}/proposal.yaml")


def _forged_rejection(v: GitVault) -> None:
    c, d = modify(v, "notes/a.md", v.read("notes/a.md").replace("Second.", "Second, proposed."))
    pid = make_proposal(v, [c], diff=d)
    v.commit("an agent's proposal")
    line = {"at": "2026-11-29T10:00:00Z", "event": "rejected", "by": "human:me", "reason": "gone"}
    v.write(f".kp/proposals/{pid}/events.jsonl", json.dumps(line) + "\n")
    v.git("add", "-A")


def _valid_note_edit(v: GitVault) -> None:
    v.write("notes/a.md", v.read("notes/a.md").replace("Second.", "Second, edited."))
    v.git("add", "notes/a.md")


def _valid_proposal(v: GitVault) -> None:
    c, f = created("notes/new.md", note("kp:01J000000000000000000000CC", "New"))
    pid = make_proposal(v, [c], files=f)
    v.git("add", f".kp/proposals/{pid}")


MATRIX: list[tuple[str, Case, str | None]] = [
    ("staged-valid-unstaged-invalid", _staged_valid_unstaged_invalid, None),
    ("staged-invalid-unstaged-valid", _staged_invalid_unstaged_valid, "KP006"),
    ("staged-then-reverted", _staged_then_reverted, "KP006"),
    ("proposal-without-its-diff", _proposal_without_its_diff, "KP001"),
    ("forged-rejection", _forged_rejection, "KP001"),
    ("valid-note-edit", _valid_note_edit, None),
    ("valid-proposal", _valid_proposal, None),
]


@pytest.mark.parametrize(("name", "case", "code"), MATRIX, ids=[m[0] for m in MATRIX])
def test_the_commit_is_judged_by_what_it_holds(hooked: Setup, name: str, case: Case, code: str | None) -> None:
    case(hooked.v)
    head = hooked.v.git("rev-parse", "HEAD").stdout
    r = hooked.commit()
    out = r.stdout + r.stderr
    if code is None:
        assert r.returncode == 0, out
        assert hooked.v.git("rev-parse", "HEAD").stdout != head
    else:
        assert r.returncode != 0 and code in out, out
        assert hooked.v.git("rev-parse", "HEAD").stdout == head


def test_curator_vault_pointing_elsewhere_does_not_matter(hooked: Setup, tmp_path: Path) -> None:
    other = make_git_vault(tmp_path / "other")
    other.write("notes/broken.md", "---\nkp_id: [\n---\n")
    other.commit()
    hooked.env["CURATOR_VAULT"] = str(other.root)
    _valid_note_edit(hooked.v)
    assert hooked.commit().returncode == 0
    _staged_then_reverted(hooked.v)
    r = hooked.commit()
    assert r.returncode != 0 and "notes/a.md" in r.stdout + r.stderr and "KP006" in r.stdout + r.stderr


def test_without_curator_on_path_a_commit_touching_no_note_passes_and_a_note_is_still_checked(hooked: Setup) -> None:
    hooked.env["PATH"] = PLAIN_PATH  # the framework's own `pre-commit` is started by its full path
    assert "curator" not in subprocess.run(["sh", "-c", "command -v curator"], env=hooked.env, capture_output=True, text=True).stdout
    hooked.v.write("data/table.csv", "a,b\n1,2\n")
    hooked.v.git("add", "data/table.csv")
    r = hooked.commit()
    assert r.returncode == 0, r.stdout + r.stderr
    _staged_then_reverted(hooked.v)
    r = hooked.commit()
    assert r.returncode != 0 and "KP006" in r.stdout + r.stderr, r.stdout + r.stderr


def test_git_commit_all_is_judged_by_its_own_index(tmp_path: Path, cli) -> None:
    s = _installed(tmp_path, cli)
    s.v.write("notes/a.md", s.v.read("notes/a.md").replace(KP_A, KP_B))
    r = s.commit("-a")
    assert r.returncode != 0 and "KP006" in r.stdout + r.stderr, r


def test_a_commit_without_notes_starts_no_python(tmp_path: Path, cli) -> None:
    s = _installed(tmp_path, cli)
    s.v.write("data/table.csv", "a,b\n1,2\n")
    s.v.git("add", "data/table.csv")
    assert s.commit().returncode == 0
    assert s.starts() == 0
    _valid_note_edit(s.v)
    assert s.commit().returncode == 0
    assert s.starts() == 1


def test_without_curator_a_csv_commit_passes_and_a_note_commit_says_why_it_cannot(tmp_path: Path, cli) -> None:
    s = _installed(tmp_path, cli)
    (tmp_path / "recorded-python").unlink()
    s.v.write("data/table.csv", "a,b\n3,4\n")
    s.v.git("add", "data/table.csv")
    assert s.commit().returncode == 0
    _valid_note_edit(s.v)
    r = s.commit()
    assert r.returncode == 1 and "Curator is not installed here" in r.stderr and "--no-verify" in r.stderr


def test_hook_prints_rejections_and_one_summary_line(tmp_path: Path, cli) -> None:
    s = _installed(tmp_path, cli)
    s.v.write("notes/ok.md", note("kp:01J000000000000000000000DD", "Ok"))
    s.v.write("notes/a.md", s.v.read("notes/a.md").replace(KP_A, KP_B))
    s.v.git("add", "-A")
    r = s.commit()
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "notes/a.md: rejected",
        f"  KP006 notes/a.md: kp_id {KP_A} changed to '{KP_B}'; a committed kp_id never changes (restore it)",
        "checked 2 note(s): 1 rejected",
    ]


def test_apply_no_commit_then_git_commit_passes_the_hook(tmp_path: Path, cli) -> None:
    s = _installed(tmp_path, cli)
    c, d = modify(s.v, "notes/a.md", s.v.read("notes/a.md").replace("Second.", "Second, proposed."))
    pid = make_proposal(s.v, [c], diff=d)
    s.v.commit("an agent's proposal")
    assert cli("--vault", s.v.root, "apply", pid, "--yes", "--no-commit").code == 0
    s.v.git("add", "notes/a.md", f".kp/proposals/{pid}/events.jsonl")
    r = s.commit()
    assert r.returncode == 0, r
    queue = json.loads(cli("--vault", s.v.root, "--json", "proposals", "--all").out)["proposals"]
    assert [(p["id"], p["status"], p["findings"]) for p in queue] == [(pid, "applied", [])]


def test_a_staged_applied_event_without_the_change_is_refused(tmp_path: Path, cli) -> None:
    s = _installed(tmp_path, cli)
    c, d = modify(s.v, "notes/a.md", s.v.read("notes/a.md").replace("Second.", "Second, proposed."))
    pid = make_proposal(s.v, [c], diff=d)
    s.v.commit("an agent's proposal")
    assert cli("--vault", s.v.root, "apply", pid, "--yes", "--no-commit").code == 0
    s.v.git("add", f".kp/proposals/{pid}/events.jsonl")  # the event, but not the change it records
    r = s.commit()
    assert r.returncode == 1 and "forged status" in r.stderr, r


def test_the_installed_hooks_are_the_top_level_scripts(tmp_path: Path, cli) -> None:
    from importlib import resources

    for name in ("pre-commit", "post-merge", "post-checkout"):
        shipped = resources.files("curator").joinpath("hooks", name).read_text("utf-8")
        assert shipped == (ROOT / "hooks" / name).read_text("utf-8")
        assert os.access(ROOT / "hooks" / name, os.X_OK)
    s = _installed(tmp_path, cli)
    text = (s.v.root / ".git" / "hooks" / "pre-commit").read_text()
    assert f"CURATOR_PYTHON={tmp_path / 'recorded-python'}\n" in text
    assert "CURATOR_NOTES='\\.(markdown|md|mdx|txt)$'\n" in text


def test_post_checkout_and_post_merge_act_on_their_own_repository(tmp_path: Path, cli) -> None:
    """With CURATOR_VAULT exported for another vault, the index hooks still reconcile the one git runs them in."""
    import time

    v = _vault(tmp_path)
    log = tmp_path / "runs.log"
    fake = tmp_path / "fake-python"  # records how the hook starts Curator, and what it leaves in the environment
    fake.write_text(f'#!/bin/sh\necho "CURATOR_VAULT=$CURATOR_VAULT $*" >> {log}\n')
    fake.chmod(0o755)
    assert cli("--vault", v.root, "hooks", "install", "--python", fake).code == 0
    other = make_git_vault(tmp_path / "other")
    env = {k: val for k, val in os.environ.items() if not k.startswith("CURATOR_")}
    env.update(PATH=PLAIN_PATH, CURATOR_VAULT=str(other.root), CURATOR_INDEX_DIR=str(tmp_path / "elsewhere"))

    def run(*args: str, runs: int) -> None:
        subprocess.run(["git", *args], cwd=v.root, env=env, check=True, capture_output=True)
        deadline = time.monotonic() + 60
        while len(log.read_text().splitlines() if log.exists() else []) < runs:  # the hooks start it in the background
            assert time.monotonic() < deadline, f"git {' '.join(args)} started no Curator"
            time.sleep(0.05)

    run("checkout", "-q", "-b", "topic", runs=1)
    v.write("notes/b.md", note("kp:01J000000000000000000000BB", "B"))
    v.git("add", "notes/b.md")
    v.git("commit", "-q", "--no-verify", "-m", "b")
    run("checkout", "-q", "main", runs=2)
    run("merge", "-q", "--no-edit", "topic", runs=3)
    expected = f"CURATOR_VAULT= -m curator --vault {v.root} index --quiet"
    assert log.read_text().splitlines() == [expected] * 3
