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
