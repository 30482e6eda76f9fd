"""The CI recipe's validation step, run for real on pushed commits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML

from tests.conftest import ROOT, make_git_vault, note


def _step() -> str:
    workflow = YAML(typ="safe").load((ROOT / "recipes/github-actions/curator-validate.yml").read_text())
    steps = workflow["jobs"]["validate"]["steps"]
    return next(s["run"] for s in steps if s.get("name") == "Validate what this push adds")


def _run(root: Path, before: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BEFORE=before, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    return subprocess.run(["bash", "-e", "-c", _step()], cwd=root, env=env, capture_output=True, text=True)


def test_ci_step_blocks_a_push_that_changes_an_identity(tmp_path: Path) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write("a.md", note("kp:01J000000000000000000000AA", "A"))
    first = v.commit("one")
    v.write("a.md", note("kp:01J000000000000000000000AA", "A", "more words"))
    v.write("b.md", note("kp:01J000000000000000000000BB", "B"))
    good = v.commit("two")
    ok = _run(v.root, first)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    v.write("a.md", note("kp:renamed", "A", "more words"))
    v.commit("three")
    bad = _run(v.root, good)
    assert bad.returncode != 0 and "KP006" in bad.stdout


def test_ci_step_with_nothing_changed(tmp_path: Path) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write("a.md", note("kp:a", "A"))
    head = v.commit()
    r = _run(v.root, head)
    assert r.returncode == 0 and "nothing to validate" in r.stdout


# --- the librarian's schedules ------------------------------------------------------------

import configparser  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402

from tests.conftest import git  # noqa: E402

DIGEST_NOTE = (
    "---\nkp_id: kp:01J000000000000000000DGST1\ntitle: Fresh\ncreated: 2026-06-14\n---\n# Fresh\n\nA fresh note.\n"
)


def _home_with_vault(tmp_path: Path) -> tuple[Path, Path]:
    """A $HOME holding ~/notes (a committed vault) and ~/.local/bin/curator (this install)."""
    home = tmp_path / "home"
    v = make_git_vault(home / "notes")
    v.write("fresh.md", DIGEST_NOTE)
    v.commit("notes")
    bin_dir = home / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "curator").symlink_to(Path(sys.executable).parent / "curator")
    (home / ".cache").mkdir()
    return home, v.root


def _proposal_ids(vault: Path) -> list[str]:
    folder = vault / ".kp" / "proposals"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def _bare_env(home: Path) -> dict[str, str]:
    # What cron and systemd give a job: HOME and a minimal PATH, nothing of this shell's.
    return {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "CURATOR_EMBEDDER": "fake",
        "XDG_CACHE_HOME": str(home / ".cache"),
    }


def test_the_cron_line_stages_a_digest_from_a_bare_environment(tmp_path: Path) -> None:
    lines = [
        line
        for line in (ROOT / "recipes/cron/curator-digest.crontab").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(lines) == 1
    fields = lines[0].split(None, 5)
    assert all(re.fullmatch(r"[\d*/,-]+", f) for f in fields[:5]), fields
    home, vault = _home_with_vault(tmp_path)
    r = subprocess.run(["/bin/sh", "-c", fields[5]], env=_bare_env(home), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    log = (home / ".cache" / "curator-digest.log").read_text()
    [pid] = _proposal_ids(vault)
    assert f"{pid}: valid, auto-applicable — staged" in log


def test_the_systemd_units_run_the_digest_on_a_timer(tmp_path: Path) -> None:
    service = configparser.ConfigParser(interpolation=None)
    service.optionxform = str  # type: ignore[assignment,method-assign]
    service.read(ROOT / "recipes/systemd/curator-digest.service")
    timer = configparser.ConfigParser(interpolation=None)
    timer.optionxform = str  # type: ignore[assignment,method-assign]
    timer.read(ROOT / "recipes/systemd/curator-digest.timer")
    assert service["Service"]["Type"] == "oneshot" and timer["Install"]["WantedBy"] == "timers.target"
    assert timer["Timer"]["Persistent"] == "true"
    if shutil.which("systemd-analyze"):
        check = subprocess.run(
            ["systemd-analyze", "calendar", timer["Timer"]["OnCalendar"]], capture_output=True, text=True
        )
        assert check.returncode == 0 and "Next elapse" in check.stdout, check.stderr
    home, vault = _home_with_vault(tmp_path)
    expand = {k: v.replace("%h", str(home)) for k, v in service["Service"].items()}
    env = _bare_env(home)
    env.update(dict(e.split("=", 1) for e in shlex.split(expand["Environment"])))
    r = subprocess.run(
        shlex.split(expand["ExecStart"]), cwd=expand["WorkingDirectory"], env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    [pid] = _proposal_ids(vault)
    assert f"{pid}: valid, auto-applicable" in r.stdout


def _digest_step() -> tuple[str, dict[str, str]]:
    workflow = YAML(typ="safe").load((ROOT / "recipes/github-actions/curator-digest.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 readers load `on:` as true
    assert "schedule" in triggers and workflow["permissions"]["contents"] == "write"
    steps = workflow["jobs"]["digest"]["steps"]
    assert steps[0]["with"]["fetch-depth"] == 0
    step = next(s for s in steps if s.get("name") == "Stage the digest on a branch")
    return step["run"], {k: str(v) for k, v in step.get("env", {}).items()}


def _run_ci(clone: Path, tmp_path: Path, flags: str = "") -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    script, env_extra = _digest_step()
    outputs = tmp_path / f"github-output-{len(list(tmp_path.iterdir()))}"
    outputs.touch()
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"], **env_extra)
    env.update(CURATOR_EMBEDDER="fake", RUNNER_TEMP=str(tmp_path), GITHUB_OUTPUT=str(outputs), DIGEST_FLAGS=flags)
    r = subprocess.run(["bash", "-e", "-c", script], cwd=clone, env=env, capture_output=True, text=True)
    got = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return r, got


def _clone_of_origin(tmp_path: Path) -> tuple[Path, Path]:
    v = make_git_vault(tmp_path / "src")
    v.write("fresh.md", DIGEST_NOTE)
    v.commit("notes")
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(v.root), str(origin))
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    return origin, clone


def test_the_ci_workflow_commits_the_proposal_on_a_branch_for_review(tmp_path: Path) -> None:
    origin, clone = _clone_of_origin(tmp_path)
    r, out = _run_ci(clone, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    branch, pid = out["branch"], out["id"]
    assert branch.startswith("curator/digest-")
    files = git(origin, "ls-tree", "-r", "--name-only", branch).stdout.split()
    assert f".kp/proposals/{pid}/proposal.yaml" in files and "digests/2026-06-14.md" not in files
    assert f"curator apply {pid}" in git(origin, "log", "-1", "--format=%B", branch).stdout
    assert git(origin, "rev-parse", "main").stdout == git(tmp_path / "src", "rev-parse", "main").stdout
    # While that branch awaits review, the next run stages nothing.
    again, out2 = _run_ci(clone, tmp_path)
    assert again.returncode == 0 and "a digest branch is still open for review" in again.stdout and out2 == {}


def test_the_ci_workflow_with_auto_apply_carries_the_applied_digest(tmp_path: Path) -> None:
    origin, clone = _clone_of_origin(tmp_path)
    r, out = _run_ci(clone, tmp_path, "--auto-apply")
    assert r.returncode == 0, r.stdout + r.stderr
    branch, pid = out["branch"], out["id"]
    message = git(origin, "log", "-1", "--format=%B", branch).stdout
    assert f"Kp-Proposal: {pid}" in message
    files = git(origin, "ls-tree", "-r", "--name-only", branch).stdout.split()
    assert any(f.startswith("digests/") for f in files)


def test_the_ci_workflow_with_nothing_new_pushes_nothing(tmp_path: Path) -> None:
    origin, clone = _clone_of_origin(tmp_path)
    (clone / ".kp").mkdir(exist_ok=True)
    r0 = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(clone), "digest", "--auto-apply", "--json"],
        env=dict(os.environ, CURATOR_EMBEDDER="fake"),
        capture_output=True,
        text=True,
    )
    assert json.loads(r0.stdout)["applied"], r0.stderr
    git(clone, "push", "-q", "origin", "HEAD:main")
    r, out = _run_ci(clone, tmp_path)
    assert r.returncode == 0 and "no digest staged (nothing-new)" in r.stdout and out == {}
    assert git(origin, "branch", "--list", "curator/*").stdout == ""

def test_ci_step_blocks_a_forged_decision_pushed_past_the_hook(tmp_path: Path) -> None:
    import json

    v = make_git_vault(tmp_path / "v")
    v.write("a.md", note("kp:01J000000000000000000000AA", "A"))
    v.write(".kp/proposals/01J00000000000000000000PRP/proposal.yaml", "schema: proposals/v1\n")
    first = v.commit("one")
    line = {"at": "2026-11-29T10:00:00Z", "event": "rejected", "by": "human:me", "reason": "gone"}
    v.write(".kp/proposals/01J00000000000000000000PRP/events.jsonl", json.dumps(line) + "\n")
    v.commit("tidy")  # --no-verify: the hook never saw it
    bad = _run(v.root, first)
    assert bad.returncode == 1 and "KP001" in bad.stdout and "checked 1 commit(s): 1 rejected" in bad.stdout
